/*
 * executor_split_sum.c - an aggregate without GROUP BY over an inner join,
 * summed one side at a time.
 *
 * Why: bench_query's join (SELECT count(*), sum(t1.x + t2.y) FROM t1 JOIN
 * t2 ON t1.a = t2.a; 100M x 25M) reads t2.y at each pair's partner. Read
 * at random from a column larger than a GPU's L2, that is a trip to
 * memory a pair; the partitioned join (executor_ops.c) puts the pairs in
 * partner order first, but has to carry t1.x along so that each pair's
 * x + y can be formed: one more read and write of t1.x, and of the
 * partners as int64 rows, before the sum reads both again.
 *
 * A sum of (a value of one side) + (a value of the other) is the sum of
 * each over the same pairs when no pair has a NULL in either and no
 * addition can overflow; an aggregate reading one side only does not care
 * about the order of the pairs at all. So when every aggregate is of
 * those kinds, and every row of the probing side P has exactly one
 * partner in B (the only case the partitioned join takes), the join hands
 * this aggregate a *split* relation: P's columns as they are (pair i is
 * P's row i) and B's columns lazy through the partner rows in partition
 * order (int32 rows, from a keys-only partition), which do not line up
 * with P's. Both sides are then summed by one eval_reduce (a pass a side
 * when the backend declines the two at once): P's values streaming, B's
 * through its partners in partition order (their reads stay in the L2),
 * with no column moved. (H100, the join above: 2.66 -> 1.70 ms;
 * docs/performance.md, session 16.)
 *
 * Exactness: besides each sum, each side counts its values and sums their
 * magnitudes in the same pass. The split result stands only when both
 * counts are the number of pairs (no NULL on either side), the
 * magnitudes add up to less than 1e300 (no NaN or infinity, and no sum or
 * pair's addition can overflow: every partial sum of a + b over the pairs
 * is bounded by the two magnitudes' sum), and to at most twice the
 * total's (the sides do not cancel: the split sum's rounding error, which
 * grows with the magnitudes summed, stays within twice the bound of the
 * pairs' own sum; 1e200 on one side against -1e200 at its partner would
 * otherwise swallow every other value). Anything else, a backend that
 * declines, or a data exception while summing, and the relation is lined
 * up again (rel_split_realign: B through its unpartitioned partners) and
 * the aggregate runs as it would have, with its errors. Only the rounding
 * of a float sum can differ: as any other order of the pairs would, and
 * because the split skips each pair's own rounding of a + b (2^53 + 1 is
 * 2^53 at every pair, the split counts the ones: a last digit apart from
 * PostgreSQL's, within an ulp of each a + b and so of the magnitudes,
 * which the cancel check above bounds by twice the total). avg also
 * needs the pairs' squared deviations not to overflow (see
 * SPLIT_AVG_MAGNITUDE_LIMIT).
 */
#include "engine/executor_internal.h"
#include "engine/expr_program_slice.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The magnitudes' bound under which no addition of the split can overflow. */
#define SPLIT_SUM_MAGNITUDE_LIMIT 1e300

/* avg of a float is PostgreSQL's float8_accum, which also sums the
 * squared deviations of the pairs' own a + b (Sxx, through tmp = N * X -
 * Sx) and fails with 22003 when they overflow: the sides' deviations do
 * not show that (a + b is twice a where a = b). The split avg stands only
 * where (pairs + 1) * magnitudes (a bound of every |tmp|) stays below this,
 * so that no tmp * tmp, nor Sxx, can overflow. */
#define SPLIT_AVG_MAGNITUDE_LIMIT 1e150

enum { SIDE_LEFT = 0, SIDE_RIGHT = 1, SIDE_SEP = 2 };

/* Which sides each register of p reads (bit 1: the left input's
 * columns, bit 2: the right's; 0: constants only), in one pass in program
 * order: a register takes the sides of every operand and guard of the
 * instructions that write it. left[i]: program input i is a left column.
 * NULL out of memory. */
static unsigned char *reg_sides(const attu_expr_program *p, const bool *left) {
    unsigned char *m = calloc((size_t)p->nregs + 1, 1);
    if (!m) return NULL;
    for (int i = 0; i < p->ninputs; i++) m[i] = left[i] ? 1 : 2;
    for (int k = 0; k < p->ninstr; k++) {
        const attu_instr *in = &p->code[k];
        if (in->dst < 0) continue;
        const int16_t src[5] = { in->a, in->b, in->c, in->d, in->guard };
        for (int q = 0; q < 5; q++)
            if (src[q] >= 0) m[in->dst] |= m[src[q]];
    }
    return m;
}

/* How the aggregate's value in register r of p reads the join's sides
 * (sides: reg_sides): SIDE_LEFT / SIDE_RIGHT when it reads one side (or
 * none) only, SIDE_SEP with *a (left) and *b (right) when it is a FLOAT64
 * a + b of the two sides, -1 otherwise. */
static int value_side(const attu_expr_program *p, const unsigned char *sides, int r, int *a, int *b) {
    if (!(sides[r] & 2)) return SIDE_LEFT;
    if (!(sides[r] & 1)) return SIDE_RIGHT;
    const attu_instr *w = attu_program_sole_writer(p, r);
    if (!w || w->op != ATTU_OP_ADD_F || p->reg_types[r].id != ATTU_TYPE_FLOAT64 || w->a < 0 || w->b < 0) return -1;
    if (sides[w->a] == 1 || sides[w->a] == 0) { if (sides[w->b] != 2) return -1; *a = w->a; *b = w->b; return SIDE_SEP; }
    if (sides[w->a] == 2 && (sides[w->b] == 1 || sides[w->b] == 0)) { *a = w->b; *b = w->a; return SIDE_SEP; }
    return -1;
}

/* Whether every aggregate of p's outputs classifies (value_side), the
 * program's inputs sided by nleft. 1 yes, 0 no, -1 out of memory. */
/* Whether every aggregate of p's outputs classifies (value_side), the
 * program's inputs sided by nleft: 1 yes, 0 no, -1 out of memory. With 1,
 * *counted says where B's side can be summed by its rows' partner counts
 * (split_sum_shape). */
static int split_classifies(const attu_stage *s, const attu_expr_program *p, int nin, const int *in_cols,
                            const int *agg_out, int nleft, unsigned *counted) {
    bool *left = calloc((size_t)nin + 1, 1);
    unsigned char *sides = NULL;
    int rc = 1;
    *counted = SPLIT_COUNTED_P_LEFT | SPLIT_COUNTED_P_RIGHT;
    if (!left) return -1;
    for (int i = 0; i < nin; i++) left[i] = in_cols[i] < nleft;
    if (!(sides = reg_sides(p, left))) { free(left); return -1; }
    for (int i = 0; i < s->naggs && rc == 1; i++) {
        const attu_stage_agg *g = &s->aggs[i];
        if (agg_out[i] < 0) continue;
        int a, b, r = p->outputs[agg_out[i]], side = value_side(p, sides, r, &a, &b);
        if (side < 0) rc = 0;
        /* a split value serves sums (and avg's count) only: MIN / MAX of
         * a + b need the pairs */
        else if (side == SIDE_SEP && g->op != ATTU_REDUCE_SUM && g->op != ATTU_REDUCE_AVG_SUM) rc = 0;
        /* counted, B's values serve a + b only: a value of B alone needs
         * the pairs (B is the right input when P is the left) */
        else if (side != SIDE_SEP) {
            if (sides[r] & 2) *counted &= ~(unsigned)SPLIT_COUNTED_P_LEFT;
            if (sides[r] & 1) *counted &= ~(unsigned)SPLIT_COUNTED_P_RIGHT;
        }
    }
    free(left); free(sides);
    return rc;
}

bool split_sum_shape(const attu_stage *agg, const attu_stage *join, unsigned *counted) {
    *counted = 0;
    if (!agg || !join || agg->kind != ATTU_ST_AGG || agg->keys.n || agg->naggs < 1) return false;
    if (join->kind != ATTU_ST_JOIN || join->jk != ATTU_SJ_INNER || join->residual.n) return false;
    if (!join->child[0] || !join->child[1] || join->child[0]->ncols + join->child[1]->ncols != join->ncols) return false;
    if (getenv("ATTU_SPLIT_SUM") && !strcmp(getenv("ATTU_SPLIT_SUM"), "0")) return false;
    attu_expr_program *own = NULL;
    int *own_cols = NULL, nin = 0;
    const attu_expr_program *p = NULL;
    const int *in_cols = NULL;
    int *agg_out = calloc((size_t)agg->naggs + 1, sizeof *agg_out);
    bool ok = false;
    if (agg_out && fused_agg_program(agg, NULL, &own, &own_cols, &p, &nin, &in_cols, agg_out) == 0)
        ok = split_classifies(agg, p, nin, in_cols, agg_out, join->child[0]->ncols, counted) == 1;
    if (!ok) *counted = 0;
    attu_program_free(own);
    free(own_cols); free(agg_out);
    return ok;
}

void rel_split_free(xctx *x, rel_split *sp) {
    if (!sp) return;
    xcol_unref(x, sp->partner_col);
    free_buf(x, sp->hits);
    free_buf(x, sp->counts);
    rel_free(x, sp->B);
    free(sp->need);
    free(sp);
}

int rel_split_realign(xctx *x, rel *r) {
    rel_split *sp = r->split;
    if (!sp) return 0;
    attu_buf *ib = sp->hits;
    sp->hits = NULL;
    if (!ib && identity_partners(x, sp->partner_col, r->nrows, sp->base, &ib)) return -1;
    xcol *idx = index_column(x, ib);
    if (!idx) { free_buf(x, ib); return -1; }
    for (int i = 0; i < sp->B->ncols; i++) { xcol_unref(x, r->cols[sp->boff + i]); r->cols[sp->boff + i] = NULL; }
    int rc = lazy_side(x, r, sp->boff, sp->B, idx, r->nrows, sp->need);
    xcol_unref(x, idx);
    r->split = NULL;
    rel_split_free(x, sp);
    return rc;
}

/* One side's reductions: its values' registers of p (vals, nval), and per
 * reduction the value it reads (-1: COUNT(*)), its op, its output. */
/* What a side's value is of its register: the value, its magnitude, or
 * (counted B only: see side_run_counted) the weight of a row whose value
 * is not NULL. */
typedef enum { VAL_PLAIN = 0, VAL_ABS, VAL_PRESENT } val_kind;

typedef struct side_job {
    int  regs[64], nreg;
    val_kind kind[64];
    attu_reduce_spec specs[64];
    int  spec_val[64];           /* the value each spec reads, -1 none */
    attu_out outs[64];
    int  nspec;
} side_job;

/* The index of value (reg, magnitude) in the side's list, added if new;
 * -1 when the list is full. */
static int side_value(side_job *j, int reg, val_kind kind) {
    for (int v = 0; v < j->nreg; v++)
        if (j->regs[v] == reg && j->kind[v] == kind) return v;
    if (j->nreg == 64) return -1;
    j->regs[j->nreg] = reg;
    j->kind[j->nreg] = kind;
    return j->nreg++;
}

static int side_spec(side_job *j, attu_reduce_op op, int val, attu_type in_type, attu_out out) {
    if (j->nspec == 64) return -1;
    attu_reduce_spec *sp = &j->specs[j->nspec];
    memset(sp, 0, sizeof *sp);
    sp->op = op; sp->in_reg = val; sp->arg_reg = -1;
    sp->in.type = in_type;
    sp->out_type = out.type;
    j->spec_val[j->nspec] = val;
    j->outs[j->nspec] = out;
    return j->nspec++;
}

/* Runs one side's job: the slice of p for its values over the side's
 * inputs (its columns, through their lazy rows for B), then eval_reduce.
 * Returns as eval_reduce (1: declined). */
static int side_run(xctx *x, const attu_expr_program *p, int nin, const int *in_cols, const bool *input_ok,
                    const rel *in, side_job *j) {
    if (!j->nspec) return 0;
    if (!x->be->eval_reduce) return 1;
    attu_expr_program *q = NULL;
    int *inputs = calloc((size_t)nin + 1, sizeof *inputs), nq = 0, rc = -1;
    int plain[64];
    int np = 0;
    for (int v = 0; v < j->nreg; v++) plain[np++] = j->regs[v];
    attu_vec *ins = NULL;
    attu_vec *rows = NULL;
    if (!inputs) return attu_error_oom(x->err);
    int src = attu_program_slice(p, plain, np, input_ok, &q, inputs, &nq);
    if (src) { free(inputs); return src < 0 ? attu_error_oom(x->err) : 1; }
    /* magnitudes: |v| after the slice's own instructions */
    for (int v = 0; v < j->nreg; v++) {
        if (j->kind[v] == VAL_PRESENT) { rc = 1; goto done; }
        if (j->kind[v] != VAL_ABS) continue;
        int r = attu_program_reg(q, attu_type_make(ATTU_TYPE_FLOAT64));
        if (r < 0 || attu_program_emit(q, attu_instr_make(ATTU_OP_ABS_F, r, q->outputs[v], -1)) < 0) {
            attu_error_oom(x->err);
            goto done;
        }
        q->outputs[v] = (int16_t)r;
    }
    for (int k = 0; k < j->nspec; k++) j->specs[k].in_reg = j->spec_val[k];
    ins = calloc((size_t)nq + 1, sizeof *ins);
    rows = calloc((size_t)nq + 1, sizeof *rows);
    if (!ins || !rows) { attu_error_oom(x->err); goto done; }
    bool through = fused_inputs(in, in_cols, inputs, nq, ins, rows);
    rc = x->be->eval_reduce(x->be, q, ins, through ? rows : NULL, in->nrows, j->nspec, j->specs, j->outs, x->err);
done:
    attu_program_free(q);
    free(inputs); free(ins); free(rows);
    return rc;
}


/* B's job when the split is counted (rel_split.counts): over B's own rows,
 * each value weighted by the row's number of partners w, which is the
 * same sum as over the pairs (each row's value comes once a partner):
 * a value v sums v * w, its magnitude |v| * w, its presence (a count of
 * the pairs where v is not NULL) v * 0 + w, NULL where v is. A row
 * without partners yields NULL (its weighting is guarded by w <> 0), but
 * its value is still computed: an error there (which PostgreSQL, never
 * computing it, would not raise) makes the split decline, and the pairs
 * are lined up again. An infinity or NaN among the pairs' values makes
 * v * 0 NaN: the presence count is then no number and the split declines
 * too. Every reduction is a SUM of FLOAT64 (avg's sum part too). Returns
 * as eval_reduce (1: declined). */
static int side_run_counted(xctx *x, const attu_expr_program *p, const int *in_cols, const bool *input_ok,
                            const rel_split *sp, side_job *j) {
    if (!j->nspec) return 0;
    if (!x->be->eval_reduce) return 1;
    attu_type f8 = attu_type_make(ATTU_TYPE_FLOAT64);
    attu_expr_program *q = NULL, *qw = NULL;
    int *inputs = calloc((size_t)p->ninputs + 1, sizeof *inputs), *bcols = NULL, nq = 0, rc = -1;
    attu_vec *ins = NULL, *rows = NULL;
    if (!inputs) return attu_error_oom(x->err);
    int src = attu_program_slice(p, j->regs, j->nreg, input_ok, &q, inputs, &nq);
    if (src) { free(inputs); return src < 0 ? attu_error_oom(x->err) : 1; }
    if (!(qw = attu_program_add_input(q, attu_type_make(ATTU_TYPE_INT32)))) { attu_error_oom(x->err); goto done; }
    /* w: the count as a float; has: w is not 0 (a row without partners
     * yields NULL, which no sum reads) */
    attu_type i32 = attu_type_make(ATTU_TYPE_INT32);
    int w = attu_program_reg(qw, f8), zero = attu_program_reg(qw, f8), izero = attu_program_reg(qw, i32),
        has = attu_program_reg(qw, attu_type_make(ATTU_TYPE_BOOL));
    attu_instr z = attu_instr_make(ATTU_OP_CONST, zero, -1, -1), iz = attu_instr_make(ATTU_OP_CONST, izero, -1, -1);
    z.imm_f = 0.0;
    iz.imm_i = 0;
    if (w < 0 || zero < 0 || izero < 0 || has < 0 || attu_program_emit(qw, z) < 0 || attu_program_emit(qw, iz) < 0 ||
        attu_program_emit(qw, attu_instr_make(ATTU_OP_CAST_I_F, w, nq, -1)) < 0 ||
        attu_program_emit(qw, attu_instr_make(ATTU_OP_NE_I, has, nq, izero)) < 0) {
        attu_error_oom(x->err);
        goto done;
    }
    for (int v = 0; v < j->nreg; v++) {
        int val = qw->outputs[v], t = attu_program_reg(qw, f8), r = attu_program_reg(qw, f8);
        if (t < 0 || r < 0) { attu_error_oom(x->err); goto done; }
        if (qw->reg_types[val].id != ATTU_TYPE_FLOAT64) { rc = 1; goto done; }
        /* plain: v * w; magnitude: |v| * w; present: v * 0 + w */
        attu_instr first = j->kind[v] == VAL_ABS     ? attu_instr_make(ATTU_OP_ABS_F, t, val, -1)
                           : j->kind[v] == VAL_PRESENT ? attu_instr_make(ATTU_OP_MUL_F, t, val, zero)
                                                       : attu_instr_make(ATTU_OP_MUL_F, r, val, w);
        attu_instr second = j->kind[v] == VAL_ABS ? attu_instr_make(ATTU_OP_MUL_F, r, t, w)
                                                  : attu_instr_make(ATTU_OP_ADD_F, r, t, w);
        first.guard = second.guard = (int16_t)has;
        if (attu_program_emit(qw, first) < 0 || (j->kind[v] != VAL_PLAIN && attu_program_emit(qw, second) < 0)) {
            attu_error_oom(x->err);
            goto done;
        }
        qw->outputs[v] = (int16_t)r;
    }
    for (int k = 0; k < j->nspec; k++) {
        attu_reduce_spec *g = &j->specs[k];
        if (j->spec_val[k] < 0 || (g->op != ATTU_REDUCE_SUM && g->op != ATTU_REDUCE_AVG_SUM) ||
            j->outs[k].type.id != ATTU_TYPE_FLOAT64) { rc = 1; goto done; }
        g->op = ATTU_REDUCE_SUM;
        g->in_reg = j->spec_val[k];
        g->in.type = f8;
    }
    /* B's own columns (as the join got them, lazy or not), then the counts */
    ins = calloc((size_t)nq + 2, sizeof *ins);
    rows = calloc((size_t)nq + 2, sizeof *rows);
    bcols = calloc((size_t)p->ninputs + 1, sizeof *bcols);
    if (!ins || !rows || !bcols) { attu_error_oom(x->err); goto done; }
    for (int i = 0; i < p->ninputs; i++) bcols[i] = in_cols[i] - sp->boff;
    bool through = fused_inputs(sp->B, bcols, inputs, nq, ins, rows);
    ins[nq] = (attu_vec){ attu_type_make(ATTU_TYPE_INT32), sp->counts, NULL, NULL };
    rows[nq] = (attu_vec){ attu_type_make(ATTU_TYPE_INT64), NULL, NULL, NULL };
    rc = x->be->eval_reduce(x->be, qw, ins, through ? rows : NULL, sp->B->nrows, j->nspec, j->specs, j->outs, x->err);
done:
    attu_program_free(q);
    attu_program_free(qw);
    free(inputs); free(bcols); free(ins); free(rows);
    return rc;
}

/* A split value's four results, read back: sum, count, magnitude sum.
 * cnt_f: the count is a FLOAT64 sum of weights (side_run_counted). */
typedef struct sep_part { xcol *sum, *cnt, *mag; bool cnt_f; } sep_part;

/* Their host copies, per split value: [left, right]. */
typedef struct split_readback {
    double  sum[2], mag[2], fcnt[2];
    int64_t cnt[2];
    uint8_t sv[2], mv[2];
} split_readback;

/* Every split value's results in one download_many (or one by one). */
static int read_back(xctx *x, const sep_part *sep, int nspec, split_readback *rb) {
    void *host[64 * 10];
    const attu_buf *bufs[64 * 10];
    size_t bytes[64 * 10];
    int n = 0;
    for (int k = 0, q = 0; k < nspec; k++) {
        if (!sep[2 * k].cnt) continue;
        split_readback *v = &rb[q++];
        for (int t = 0; t < 2; t++) {
            const sep_part *pp = &sep[2 * k + t];
            if (n + 5 > 64 * 10) return attu_error_set(x->err, ATTU_SQLSTATE_INTERNAL, 0, "split sum: too many values");
            host[n] = pp->cnt_f ? (void *)&v->fcnt[t] : (void *)&v->cnt[t]; bufs[n] = pp->cnt->data; bytes[n++] = 8;
            host[n] = &v->mag[t]; bufs[n] = pp->mag->data; bytes[n++] = 8;
            host[n] = &v->mv[t]; bufs[n] = pp->mag->valid; bytes[n++] = 1;
            if (pp->sum) {
                host[n] = &v->sum[t]; bufs[n] = pp->sum->data; bytes[n++] = 8;
                host[n] = &v->sv[t]; bufs[n] = pp->sum->valid; bytes[n++] = 1;
            }
        }
    }
    if (x->be->download_many) return x->be->download_many(x->be, n, host, bufs, bytes, x->err);
    for (int i = 0; i < n; i++)
        if (x->be->download(x->be, host[i], bufs[i], 0, bytes[i], x->err)) return -1;
    return 0;
}

/* Both sides' jobs: in one pass where the backend takes it (P's values
 * stream while B's partners are read, one kernel on a GPU), else a pass
 * a side. Returns as eval_reduce. */
static int sides_run(xctx *x, const attu_expr_program *p, int nin, const int *in_cols, const bool *is_left,
                     const bool *is_right, const rel *in, side_job *job) {
    side_job *both = calloc(1, sizeof *both);
    bool *all = calloc((size_t)nin + 1, 1);
    int e = 1;
    if (!both || !all) { free(both); free(all); return attu_error_oom(x->err); }
    for (int i = 0; i < nin; i++) all[i] = true;
    bool fits = job[0].nreg + job[1].nreg <= 64 && job[0].nspec + job[1].nspec <= 64;
    for (int t = 0; t < 2 && fits; t++) {
        for (int k = 0; k < job[t].nspec; k++) {
            int v = job[t].spec_val[k], nv = -1;
            if (v >= 0 && (nv = side_value(both, job[t].regs[v], job[t].kind[v])) < 0) fits = false;
            if (fits && side_spec(both, job[t].specs[k].op, nv, job[t].specs[k].in.type, job[t].outs[k]) < 0) fits = false;
        }
    }
    if (fits) e = side_run(x, p, nin, in_cols, all, in, both);
    if (e > 0) {
        e = side_run(x, p, nin, in_cols, is_left, in, &job[0]);
        if (e == 0) e = side_run(x, p, nin, in_cols, is_right, in, &job[1]);
    }
    free(both); free(all);
    return e;
}

int run_agg_split(xctx *x, attu_stage *s, rel *in, rel **out_rel) {
    rel_split *sp = in->split;
    int ng = s->naggs, nspec = 0, rc = -1, nin = 0;
    *out_rel = NULL;
    attu_expr_program *own = NULL;
    int *own_cols = NULL, *agg_out = calloc((size_t)ng + 1, sizeof *agg_out);
    const attu_expr_program *p = NULL;
    const int *in_cols = NULL;
    attu_reduce_spec *specs = calloc((size_t)ng * 2 + 1, sizeof *specs);
    attu_out *outs = calloc((size_t)ng * 2 + 1, sizeof *outs);
    xcol **res = calloc((size_t)ng * 2 + 1, sizeof *res);
    side_job *job = calloc(2, sizeof *job);
    sep_part *sep = NULL;
    bool *is_left = NULL, *is_right = NULL;
    unsigned char *sides = NULL;
    split_readback *rb = NULL;
    rel *out = NULL;
    size_t npairs = in->nrows;
    if (!agg_out || !specs || !outs || !res || !job) { attu_error_oom(x->err); goto done; }
    sep = calloc((size_t)ng * 2 + 1, 2 * sizeof *sep);   /* per spec: [left part, right part] */
    if (!sep) { attu_error_oom(x->err); goto done; }
    int sh = fused_agg_program(s, in, &own, &own_cols, &p, &nin, &in_cols, agg_out);
    if (sh) { rc = sh < 0 ? attu_error_oom(x->err) : 1; goto done; }
    is_left = calloc((size_t)nin + 1, 1);
    is_right = calloc((size_t)nin + 1, 1);
    if (!is_left || !is_right) { attu_error_oom(x->err); goto done; }
    int nleft = sp->nleft;
    for (int i = 0; i < nin; i++) { is_left[i] = in_cols[i] < nleft; is_right[i] = !is_left[i]; }
    if (!(sides = reg_sides(p, is_left))) { attu_error_oom(x->err); goto done; }
    if (agg_specs(x, s, NULL, NULL, 1, specs, outs, res, &nspec, p, agg_out)) goto done;
    /* each spec to its side (job[0] left, job[1] right), a split sum to both */
    attu_type f8 = attu_type_make(ATTU_TYPE_FLOAT64), i8 = attu_type_make(ATTU_TYPE_INT64);
    int pside = sp->p_left ? 0 : 1;
    bool counted = sp->counts != NULL;
    for (int k = 0; k < nspec; k++) {
        attu_reduce_spec *g = &specs[k];
        if (g->op == ATTU_REDUCE_COUNT_STAR) {
            if (side_spec(&job[pside], g->op, -1, g->in.type, outs[k]) < 0) { rc = 1; goto done; }
            continue;
        }
        int a = -1, b = -1, r = p->outputs[g->in_reg];
        int side = value_side(p, sides, r, &a, &b);
        if (side < 0) { rc = 1; goto done; }
        if (side != SIDE_SEP) {
            if (!sides[r]) side = pside;   /* constants: once a pair, as P's rows */
            int v = side_value(&job[side], r, VAL_PLAIN);
            if (v < 0 || side_spec(&job[side], g->op, v, g->in.type, outs[k]) < 0) { rc = 1; goto done; }
            continue;
        }
        /* a + b: each side's sum (or, for avg's count, its count), count and magnitudes */
        for (int t = 0; t < 2; t++) {
            int reg = t == 0 ? a : b;
            sep_part *pp = &sep[2 * k + t];
            int v = side_value(&job[t], reg, VAL_PLAIN), m = side_value(&job[t], reg, VAL_ABS);
            if (v < 0 || m < 0) { rc = 1; goto done; }
            /* counted B: its count of values is a sum of weights, a float */
            pp->cnt_f = counted && t != pside;
            int c = pp->cnt_f ? side_value(&job[t], reg, VAL_PRESENT) : v;
            if (c < 0) { rc = 1; goto done; }
            /* avg's count sums nothing: no sum part (read back, and
             * checked against the magnitudes, only where there is one) */
            bool summed = g->op == ATTU_REDUCE_SUM || g->op == ATTU_REDUCE_AVG_SUM;
            attu_type ct = pp->cnt_f ? f8 : i8;
            if ((summed && !(pp->sum = xcol_new(x, f8, 1, true))) || !(pp->cnt = xcol_new(x, ct, 1, true)) ||
                !(pp->mag = xcol_new(x, f8, 1, true))) goto done;
            if (summed) {
                if (side_spec(&job[t], g->op, v, f8, (attu_out){ f8, pp->sum->data, pp->sum->valid, NULL }) < 0) {
                    rc = 1;
                    goto done;
                }
            }
            if (side_spec(&job[t], pp->cnt_f ? ATTU_REDUCE_SUM : ATTU_REDUCE_COUNT, c, f8,
                          (attu_out){ ct, pp->cnt->data, pp->cnt->valid, NULL }) < 0 ||
                side_spec(&job[t], ATTU_REDUCE_SUM, m, f8, (attu_out){ f8, pp->mag->data, pp->mag->valid, NULL }) < 0) {
                rc = 1;
                goto done;
            }
        }
    }
    int e;
    if (counted) {
        /* P's values over its rows as they are, B's over its own rows by their counts */
        e = side_run(x, p, nin, in_cols, pside == 0 ? is_left : is_right, in, &job[pside]);
        if (e == 0) e = side_run_counted(x, p, in_cols, pside == 0 ? is_right : is_left, sp, &job[1 - pside]);
    } else {
        e = sides_run(x, p, nin, in_cols, is_left, is_right, in, job);
    }
    if (e > 0) { rc = 1; goto done; }
    if (e < 0) {
        /* a data exception while summing a side: the pairs' own run reports it */
        if (strncmp(x->err->sqlstate, "22", 2) != 0) goto done;
        attu_error_clear(x->err);
        rc = 1;
        goto done;
    }
    /* the split values, read back in one round trip */
    int nsep = 0;
    for (int k = 0; k < nspec; k++) nsep += sep[2 * k].cnt != NULL;
    rb = calloc((size_t)nsep + 1, sizeof *rb);
    if (!rb) { attu_error_oom(x->err); goto done; }
    if (read_back(x, sep, nspec, rb)) goto done;
    /* checked; the sums put together */
    for (int k = 0, q = 0; k < nspec; k++) {
        if (!sep[2 * k].cnt) continue;
        const split_readback *v = &rb[q++];
        const double *sum = v->sum, *mag = v->mag;
        int64_t cnt[2];
        for (int t = 0; t < 2; t++) {
            double c = v->fcnt[t];
            /* a sum of weights: a whole number below 2^53 (else no count) */
            cnt[t] = !sep[2 * k + t].cnt_f ? v->cnt[t] : c >= 0 && c < 9007199254740992.0 && c == floor(c) ? (int64_t)c : -1;
        }
        const uint8_t *sv = v->sv, *mv = v->mv;
        /* NULLs on a side, magnitudes that could overflow, or sides that
         * cancel (their rounding would then weigh more than the pairs'): not split */
        double mags = mag[0] + mag[1];
        attu_reduce_spec *g = &specs[k];
        if (cnt[0] != (int64_t)npairs || cnt[1] != (int64_t)npairs || !mv[0] || !mv[1] ||
            !(mags < SPLIT_SUM_MAGNITUDE_LIMIT) || (sep[2 * k].sum && !(mags <= 2 * fabs(sum[0] + sum[1]))) ||
            (g->op == ATTU_REDUCE_AVG_SUM && !(mags * ((double)npairs + 1) < SPLIT_AVG_MAGNITUDE_LIMIT))) {
            rc = 1;
            goto done;
        }
        if (g->op == ATTU_REDUCE_COUNT) {
            int64_t c = (int64_t)npairs;
            uint8_t one = 1;
            if (x->be->upload(x->be, outs[k].data, 0, &c, 8, x->err) ||
                (outs[k].valid && x->be->upload(x->be, outs[k].valid, 0, &one, 1, x->err))) goto done;
            continue;
        }
        double total = sum[0] + sum[1];
        uint8_t valid = npairs > 0 && sv[0] && sv[1];
        if (x->be->upload(x->be, outs[k].data, 0, &total, 8, x->err) ||
            (outs[k].valid && x->be->upload(x->be, outs[k].valid, 0, &valid, 1, x->err))) goto done;
    }
    if (!(out = rel_new(x, ng, 1)) || agg_result_cols(x, s, res, outs, NULL, 1, out, 0)) goto done;
    s->act_how = counted ? "eval_reduce per side, B's rows by their partner counts (split sum)"
                         : "eval_reduce per side (split sum)";
    *out_rel = out;
    out = NULL;
    rc = 0;
done:
    if (out) rel_free(x, out);
    for (int k = 0; k < nspec; k++) xcol_unref(x, res[k]);
    for (int k = 0; sep && k < 2 * nspec; k++) {
        xcol_unref(x, sep[k].sum); xcol_unref(x, sep[k].cnt); xcol_unref(x, sep[k].mag);
    }
    attu_program_free(own);
    free(own_cols); free(agg_out); free(specs); free(outs); free(res); free(job); free(sep);
    free(is_left); free(is_right); free(rb); free(sides);
    return rc;
}
