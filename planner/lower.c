/*
 * lower.c - lowering the logical plan to stages and compiling expressions
 * into register programs (see lower.h, engine/expr_program.h).
 *
 * Expression compilation: every input column a program reads becomes one
 * input register; every other node one register of its type. CASE becomes
 * guarded instructions and SELECTs, so a branch is evaluated only for the
 * rows that take it. Structurally equal subexpressions under the same
 * guard share one register, so earth_distance(...) written in three
 * aggregates is computed once per row pair.
 */
#include "planner/lower.h"
#include "engine/numeric.h"

#include <stdlib.h>
#include <string.h>

typedef struct memo { const attu_bexpr *e; int guard; int reg; } memo;

/* The parameters (BX_PARAM) a set of expressions reads: each becomes a
 * program input after the columns, fed by the executor from the
 * enclosing APPLY stage's current binding. */
typedef struct params_used { int n, cap; int *slot; attu_type *type; } params_used;

static int note_params(const attu_bexpr *e, params_used *pu) {
    if (!e) return 0;
    if (e->kind == BX_PARAM) {
        for (int i = 0; i < pu->n; i++) if (pu->slot[i] == e->col) return 0;
        if (pu->n == pu->cap) {
            int nc = pu->cap ? pu->cap * 2 : 8;
            int *ns = realloc(pu->slot, sizeof(int) * (size_t)nc);
            if (ns) pu->slot = ns;
            attu_type *nt = realloc(pu->type, sizeof(attu_type) * (size_t)nc);
            if (nt) pu->type = nt;
            if (!ns || !nt) return -1;
            pu->cap = nc;
        }
        pu->slot[pu->n] = e->col;
        pu->type[pu->n++] = e->type;
        return 0;
    }
    for (int i = 0; i < e->nargs; i++) if (note_params(e->args[i], pu)) return -1;
    for (int i = 0; i < e->nwhens; i++) if (note_params(e->whens[i], pu) || note_params(e->thens[i], pu)) return -1;
    return note_params(e->else_, pu);
}

typedef struct comp {
    attu_expr_program *p;
    int  ninput;
    int *in_of_col;     /* input column -> program input register, -1 */
    const params_used *params;   /* parameter i -> input register first_param + i */
    int  first_param;
    memo *memos;
    int   nmemo, capmemo;
    attu_error *err;
} comp;

static void collect_cols(const attu_bexpr *e, bool *used) {
    if (!e) return;
    if (e->kind == BX_COL) { used[e->col] = true; return; }
    for (int i = 0; i < e->nargs; i++) collect_cols(e->args[i], used);
    for (int i = 0; i < e->nwhens; i++) { collect_cols(e->whens[i], used); collect_cols(e->thens[i], used); }
    collect_cols(e->else_, used);
}

/* Whether every column e reads is one of the ninput columns of its input.
 * A plan that breaks this is a planner bug (a correlated subquery's
 * aggregate over a filtered input once reached here with its outer
 * column unresolved); caught here it fails that query with XX000 instead
 * of reading past the input and taking the daemon down. */
static bool cols_in_range(const attu_bexpr *e, int ninput) {
    if (!e) return true;
    if (e->kind == BX_COL) return e->col >= 0 && e->col < ninput;
    for (int i = 0; i < e->nargs; i++) if (!cols_in_range(e->args[i], ninput)) return false;
    for (int i = 0; i < e->nwhens; i++)
        if (!cols_in_range(e->whens[i], ninput) || !cols_in_range(e->thens[i], ninput)) return false;
    return cols_in_range(e->else_, ninput);
}

static int emit(comp *c, attu_instr in) {
    if (attu_program_emit(c->p, in)) { attu_error_oom(c->err); return -1; }
    return 0;
}

static int newreg(comp *c, attu_type t) {
    int r = attu_program_reg(c->p, t);
    if (r < 0 && c->p->nregs >= ATTU_PROGRAM_MAX_REGS)
        attu_error_set(c->err, "54001", 0, "expression too complex: more than %d values to compute (a long IN list?)",
                       ATTU_PROGRAM_MAX_REGS);
    else if (r < 0)
        attu_error_oom(c->err);
    return r;
}

static int const_bool(comp *c, bool v, int guard) {
    int r = newreg(c, attu_type_make(ATTU_TYPE_BOOL));
    if (r < 0) return -1;
    attu_instr in = attu_instr_make(ATTU_OP_CONST, r, -1, -1);
    in.imm_i = v;
    in.guard = (int16_t)guard;
    return emit(c, in) ? -1 : r;
}

static int compile(comp *c, const attu_bexpr *e, int guard);

static int compile_case(comp *c, const attu_bexpr *e, int guard) {
    attu_type b = attu_type_make(ATTU_TYPE_BOOL);
    int active = guard >= 0 ? guard : const_bool(c, true, -1);
    int res = newreg(c, e->type);
    if (active < 0 || res < 0) return -1;
    attu_instr in = attu_instr_make(ATTU_OP_CONST, res, -1, -1);
    in.imm_null = true;
    if (emit(c, in)) return -1;
    for (int i = 0; i < e->nwhens; i++) {
        int w = compile(c, e->whens[i], active);
        if (w < 0) return -1;
        int wt = newreg(c, b), take = newreg(c, b);
        if (wt < 0 || take < 0) return -1;
        if (emit(c, attu_instr_make(ATTU_OP_IS_TRUE, wt, w, -1))) return -1;
        if (emit(c, attu_instr_make(ATTU_OP_AND, take, active, wt))) return -1;
        int t = compile(c, e->thens[i], take);
        if (t < 0) return -1;
        int nres = newreg(c, e->type);
        if (nres < 0) return -1;
        in = attu_instr_make(ATTU_OP_SELECT, nres, t, res);
        in.c = (int16_t)take;
        if (emit(c, in)) return -1;
        res = nres;
        int nt = newreg(c, b), nactive = newreg(c, b);
        if (nt < 0 || nactive < 0) return -1;
        if (emit(c, attu_instr_make(ATTU_OP_NOT, nt, take, -1))) return -1;
        if (emit(c, attu_instr_make(ATTU_OP_AND, nactive, active, nt))) return -1;
        active = nactive;
    }
    if (e->else_) {
        int ev = compile(c, e->else_, active);
        if (ev < 0) return -1;
        int nres = newreg(c, e->type);
        if (nres < 0) return -1;
        in = attu_instr_make(ATTU_OP_SELECT, nres, ev, res);
        in.c = (int16_t)active;
        if (emit(c, in)) return -1;
        res = nres;
    }
    return res;
}

/* Whether e holds a correlated scalar subquery's value (which may fail
 * with 21000, or a binding's deferred error, for the rows that evaluate
 * it) or an uncorrelated one's deferred error. */
static bool has_subquery_value(const attu_bexpr *e) {
    if (!e) return false;
    if (e->kind == BX_CALL && (e->op == ATTU_OP_SUBQUERY_ONE || e->op == ATTU_OP_SUBQUERY_ERROR)) return true;
    for (int i = 0; i < e->nargs; i++) if (has_subquery_value(e->args[i])) return true;
    for (int i = 0; i < e->nwhens; i++) if (has_subquery_value(e->whens[i]) || has_subquery_value(e->thens[i])) return true;
    return has_subquery_value(e->else_);
}

/* Opcodes that never raise an error, whatever their operands. */
bool attu_op_never_fails(int op) {
    switch (op) {
    case ATTU_OP_CONST: case ATTU_OP_MOVE:
    case ATTU_OP_EQ_I: case ATTU_OP_NE_I: case ATTU_OP_LT_I: case ATTU_OP_LE_I: case ATTU_OP_GT_I: case ATTU_OP_GE_I:
    case ATTU_OP_EQ_F: case ATTU_OP_NE_F: case ATTU_OP_LT_F: case ATTU_OP_LE_F: case ATTU_OP_GT_F: case ATTU_OP_GE_F:
    case ATTU_OP_EQ_S: case ATTU_OP_NE_S: case ATTU_OP_LT_S: case ATTU_OP_LE_S: case ATTU_OP_GT_S: case ATTU_OP_GE_S:
    case ATTU_OP_EQ_N: case ATTU_OP_NE_N: case ATTU_OP_LT_N: case ATTU_OP_LE_N: case ATTU_OP_GT_N: case ATTU_OP_GE_N:
    case ATTU_OP_AND: case ATTU_OP_OR: case ATTU_OP_NOT:
    case ATTU_OP_IS_NULL: case ATTU_OP_IS_NOT_NULL: case ATTU_OP_IS_TRUE: case ATTU_OP_IS_FALSE:
    case ATTU_OP_COALESCE: case ATTU_OP_SELECT:
    case ATTU_OP_NULLIF_I: case ATTU_OP_NULLIF_F: case ATTU_OP_NULLIF_S: case ATTU_OP_NULLIF_N:
    case ATTU_OP_NEG_F: case ATTU_OP_ABS_F: case ATTU_OP_CAST_I_F: case ATTU_OP_CAST_I_N:
    case ATTU_OP_LENGTH: case ATTU_OP_OCTET_LENGTH: case ATTU_OP_LOWER: case ATTU_OP_UPPER:
        return true;
    default:
        return false;
    }
}

/* Whether evaluating e may raise an error for some row (division by zero,
 * overflow, a failed cast, a subquery's 21000...). */
static bool may_fail(const attu_bexpr *e) {
    if (!e) return false;
    if (e->kind == BX_CALL && !attu_op_never_fails(e->op)) return true;
    for (int i = 0; i < e->nargs; i++) if (may_fail(e->args[i])) return true;
    for (int i = 0; i < e->nwhens; i++) if (may_fail(e->whens[i]) || may_fail(e->thens[i])) return true;
    return may_fail(e->else_);
}

/* a AND b, a OR b, COALESCE(a, b) whose b may fail (a division, a cast, a
 * subquery's value): b is guarded, evaluated only for the rows whose a does
 * not decide the result (a not FALSE, not TRUE, NULL), as PostgreSQL
 * evaluates b only there (WHERE b <> 0 AND a / b > 1 divides by no zero). */
static int compile_lazy(comp *c, const attu_bexpr *e, int guard) {
    attu_type b = attu_type_make(ATTU_TYPE_BOOL);
    int a = compile(c, e->args[0], guard);
    if (a < 0) return -1;
    int dec = newreg(c, b), need = newreg(c, b);
    if (dec < 0 || need < 0) return -1;
    attu_opcode test = e->op == ATTU_OP_AND ? ATTU_OP_IS_FALSE : e->op == ATTU_OP_OR ? ATTU_OP_IS_TRUE : ATTU_OP_IS_NOT_NULL;
    if (emit(c, attu_instr_make(test, dec, a, -1)) || emit(c, attu_instr_make(ATTU_OP_NOT, need, dec, -1))) return -1;
    if (guard >= 0) {
        int both = newreg(c, b);
        if (both < 0 || emit(c, attu_instr_make(ATTU_OP_AND, both, guard, need))) return -1;
        need = both;
    }
    int r2 = compile(c, e->args[1], need);
    int r = r2 < 0 ? -1 : newreg(c, e->type);
    if (r < 0) return -1;
    attu_instr in = attu_instr_make(e->op, r, a, r2);
    in.aux = (int16_t)e->aux; in.imm_i = e->imm; in.guard = (int16_t)guard;
    return emit(c, in) ? -1 : r;
}

/* AND / OR / COALESCE whose right side must run only for the rows the
 * left leaves undecided (compile_lazy). */
static bool needs_lazy(const attu_bexpr *e) {
    return (e->op == ATTU_OP_AND || e->op == ATTU_OP_OR || e->op == ATTU_OP_COALESCE) && e->nargs == 2 &&
           (has_subquery_value(e->args[1]) || may_fail(e->args[1]));
}

static int compile(comp *c, const attu_bexpr *e, int guard) {
    if (e->kind == BX_COL) return c->in_of_col[e->col];
    if (e->kind == BX_PARAM) {
        for (int i = 0; i < c->params->n; i++) if (c->params->slot[i] == e->col) return c->first_param + i;
        attu_error_set(c->err, ATTU_SQLSTATE_INTERNAL, e->position, "parameter %d not collected", e->col);
        return -1;
    }
    for (int i = 0; i < c->nmemo; i++)
        if (c->memos[i].guard == guard && attu_bx_equal(c->memos[i].e, e)) return c->memos[i].reg;
    int r;
    switch (e->kind) {
    case BX_CONST: {
        r = newreg(c, e->type);
        if (r < 0) return -1;
        attu_instr in = attu_instr_make(ATTU_OP_CONST, r, -1, -1);
        in.imm_null = e->is_null;
        if (!e->is_null) {
            attu_mclass mc = attu_type_mclass(e->type.id);
            attu_numeric nv;
            if (e->type.id == ATTU_TYPE_NUMERIC && e->s && !attu_numeric_parse(e->s, e->slen, &nv, NULL) &&
                nv.m >= INT64_MIN && nv.m <= INT64_MAX) {
                /* the scaled value inline when it fits, else the text */
                in.imm_i = (int64_t)nv.m;
                in.aux = (int16_t)nv.dscale;
            } else if (mc == ATTU_MC_TEXT || e->type.id == ATTU_TYPE_NUMERIC) {
                int k = attu_program_add_string(c->p, e->s ? e->s : "", e->s ? e->slen : 0);
                if (k < 0) { attu_error_oom(c->err); return -1; }
                in.imm_s = k;
            } else if (mc == ATTU_MC_FLOAT) in.imm_f = e->f;
            else in.imm_i = e->i;
        }
        if (emit(c, in)) return -1;
        break;
    }
    case BX_CALL: {
        if (needs_lazy(e)) {
            if ((r = compile_lazy(c, e, guard)) < 0) return -1;
            break;
        }
        int a[4] = { -1, -1, -1, -1 };
        for (int i = 0; i < e->nargs; i++) if ((a[i] = compile(c, e->args[i], guard)) < 0) return -1;
        r = newreg(c, e->type);
        if (r < 0) return -1;
        attu_instr in = attu_instr_make(e->op, r, a[0], a[1]);
        in.c = (int16_t)a[2]; in.d = (int16_t)a[3];
        in.aux = (int16_t)e->aux; in.imm_i = e->imm; in.guard = (int16_t)guard;
        if (e->op == ATTU_OP_SELECT) { in.c = (int16_t)a[2]; }
        if (emit(c, in)) return -1;
        break;
    }
    case BX_CASE:
        r = compile_case(c, e, guard);
        if (r < 0) return -1;
        break;
    default:
        attu_error_set(c->err, ATTU_SQLSTATE_INTERNAL, e->position, "aggregate or window call left in an expression");
        return -1;
    }
    if (c->nmemo == c->capmemo) {
        int nc = c->capmemo ? c->capmemo * 2 : 32;
        memo *m = realloc(c->memos, sizeof *m * (size_t)nc);
        if (!m) { attu_error_oom(c->err); return -1; }
        c->memos = m; c->capmemo = nc;
    }
    c->memos[c->nmemo++] = (memo){ e, guard, r };
    return r;
}

/* PostgreSQL's cost of evaluating e once (cost_qual_eval, in units of
 * cpu_operator_cost): one per operator or function call, none for columns,
 * constants, AND / OR / NOT, IS [NOT] NULL, COALESCE and CASE themselves, nor
 * for the widening casts where PostgreSQL has cross-type operators; a
 * subquery costs more than any expression. */
static double qual_cost(const attu_bexpr *e) {
    if (!e) return 0;
    double c = 0;
    if (e->kind == BX_CALL) {
        switch (e->op) {
        case ATTU_OP_AND: case ATTU_OP_OR: case ATTU_OP_NOT:
        case ATTU_OP_IS_NULL: case ATTU_OP_IS_NOT_NULL: case ATTU_OP_IS_TRUE: case ATTU_OP_IS_FALSE:
        case ATTU_OP_COALESCE: case ATTU_OP_SELECT: case ATTU_OP_MOVE:
        case ATTU_OP_CAST_I_I: case ATTU_OP_CAST_I_F: case ATTU_OP_CAST_I_D: case ATTU_OP_CAST_I_N:
            break;
        case ATTU_OP_SUBQUERY_ONE: case ATTU_OP_SUBQUERY_ERROR: c += 1e6; break;
        default: c += 1; break;
        }
    }
    for (int i = 0; i < e->nargs; i++) c += qual_cost(e->args[i]);
    for (int i = 0; i < e->nwhens; i++) c += qual_cost(e->whens[i]) + qual_cost(e->thens[i]);
    return c + qual_cost(e->else_);
}

static int flatten_and(const attu_bexpr *e, const attu_bexpr **out, int n, int cap) {
    if (n < 0) return n;
    if (e->kind == BX_CALL && e->op == ATTU_OP_AND && e->nargs == 2)
        return flatten_and(e->args[1], out, flatten_and(e->args[0], out, n, cap), cap);
    if (n == cap) return -1;
    out[n] = e;
    return n + 1;
}

/* A filter predicate (WHERE, a join's residual), when one of its conjuncts
 * may fail: PostgreSQL evaluates a filter's conjuncts cheapest first
 * (order_qual_clauses) and stops at the first FALSE, so each conjunct is
 * evaluated, in that order, only for the rows no earlier one rejected:
 * WHERE 10 / b > 5 AND b <> 0 divides by no zero. */
static int compile_filter(comp *c, const attu_bexpr *e) {
    enum { CAP = 256 };
    const attu_bexpr *conj[CAP];
    double cost[CAP];
    int n = flatten_and(e, conj, 0, CAP);
    bool fails = false;
    for (int i = 0; i < n; i++) fails = fails || may_fail(conj[i]) || has_subquery_value(conj[i]);
    for (int i = 0; i < n && fails; i++) cost[i] = qual_cost(conj[i]);
    if (n < 2 || !fails) return compile(c, e, -1);
    for (int i = 1; i < n; i++) {   /* stable: equal costs keep their order */
        const attu_bexpr *x = conj[i];
        double xc = cost[i];
        int j = i;
        for (; j > 0 && cost[j - 1] > xc; j--) { conj[j] = conj[j - 1]; cost[j] = cost[j - 1]; }
        conj[j] = x; cost[j] = xc;
    }
    attu_type b = attu_type_make(ATTU_TYPE_BOOL);
    int acc = compile(c, conj[0], -1);
    if (acc < 0) return -1;
    for (int i = 1; i < n; i++) {
        int guard = -1;
        if (may_fail(conj[i]) || has_subquery_value(conj[i])) {
            int dec = newreg(c, b), need = newreg(c, b);
            if (dec < 0 || need < 0) return -1;
            if (emit(c, attu_instr_make(ATTU_OP_IS_FALSE, dec, acc, -1)) ||
                emit(c, attu_instr_make(ATTU_OP_NOT, need, dec, -1))) return -1;
            guard = need;
        }
        int r = compile(c, conj[i], guard);
        int nacc = r < 0 ? -1 : newreg(c, b);
        if (nacc < 0 || emit(c, attu_instr_make(ATTU_OP_AND, nacc, acc, r))) return -1;
        acc = nacc;
    }
    return acc;
}

static int compile_exprs(attu_bexpr *const *exprs, int n, int ninput, const attu_type *input_types,
                         attu_stage_exprs *out, bool force, int filter, attu_error *err);

int attu_compile_exprs(attu_bexpr *const *exprs, int n, int ninput, const attu_type *input_types,
                       attu_stage_exprs *out, attu_error *err) {
    return compile_exprs(exprs, n, ninput, input_types, out, false, -1, err);
}

/* One filter predicate (compile_filter). */
static int compile_pred(const attu_bexpr *pred, int ninput, const attu_type *input_types, attu_stage_exprs *out,
                        attu_error *err) {
    return compile_exprs((attu_bexpr *const *)&pred, 1, ninput, input_types, out, false, 0, err);
}

/* force: every result comes out of the program (lbs_segreduce reads only
 * program outputs); a plain column is output as its input register.
 * filter: the index of the expression that is a filter predicate
 * (compile_filter), -1 for none. */
static int compile_exprs(attu_bexpr *const *exprs, int n, int ninput, const attu_type *input_types,
                         attu_stage_exprs *out, bool force, int filter, attu_error *err) {
    memset(out, 0, sizeof *out);
    for (int i = 0; i < n; i++)
        if (!cols_in_range(exprs[i], ninput))
            return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0,
                                  "could not plan this query: an expression reads a column its input does not have "
                                  "(a planner bug; please report the query)");
    out->n = n;
    out->direct = calloc((size_t)n + 1, sizeof(int));
    if (!out->direct) return attu_error_oom(err);
    bool any = false;
    for (int i = 0; i < n; i++) {
        if (exprs[i]->kind == BX_COL && !force) out->direct[i] = exprs[i]->col;
        else any = true;
    }
    if (!any) return 0;
    bool *used = calloc((size_t)ninput + 1, 1);
    int *in_of_col = malloc(sizeof(int) * ((size_t)ninput + 1));
    if (!used || !in_of_col) { free(used); free(in_of_col); return attu_error_oom(err); }
    params_used pu = { 0 };
    for (int i = 0; i < n; i++)
        if (exprs[i]->kind != BX_COL || force) {
            collect_cols(exprs[i], used);
            if (note_params(exprs[i], &pu)) { free(used); free(in_of_col); free(pu.slot); free(pu.type); return attu_error_oom(err); }
        }
    int nin = pu.n;
    for (int i = 0; i < ninput; i++) if (used[i]) nin++;
    out->in_cols = malloc(sizeof(int) * ((size_t)nin + 1));
    attu_type *tys = malloc(sizeof(attu_type) * ((size_t)nin + 1));
    if (!out->in_cols || !tys) { free(used); free(in_of_col); free(tys); free(pu.slot); free(pu.type); return attu_error_oom(err); }
    nin = 0;
    for (int i = 0; i < ninput; i++) {
        in_of_col[i] = -1;
        if (used[i]) { out->in_cols[nin] = i; tys[nin] = input_types[i]; in_of_col[i] = nin++; }
    }
    int first_param = nin;
    for (int i = 0; i < pu.n; i++) { out->in_cols[nin] = -(pu.slot[i] + 1); tys[nin++] = pu.type[i]; }
    out->nin = nin;
    comp c = { attu_program_new(nin, tys), ninput, in_of_col, &pu, first_param, NULL, 0, 0, err };
    free(tys);
    free(used);
    int rc = 0;
    if (!c.p) rc = attu_error_oom(err);
    for (int i = 0; i < n && !rc; i++) {
        if (exprs[i]->kind == BX_COL && !force) continue;
        int r = i == filter ? compile_filter(&c, exprs[i]) : compile(&c, exprs[i], -1);
        if (r < 0) { rc = -1; break; }
        int o = attu_program_add_output(c.p, r);
        if (o < 0) { rc = attu_error_oom(err); break; }
        out->direct[i] = -(o + 1);
    }
    free(c.memos);
    free(in_of_col);
    free(pu.slot); free(pu.type);
    out->prog = c.p;
    return rc;
}

/* ---- nodes ---------------------------------------------------------------------- */

static attu_stage *new_stage(attu_stage_kind k, const attu_lplan *p, attu_error *err) {
    attu_stage *s = calloc(1, sizeof *s);
    if (!s) { attu_error_oom(err); return NULL; }
    s->kind = k;
    s->ncols = p->ncols;
    s->types = malloc(sizeof(attu_type) * ((size_t)p->ncols + 1));
    if (!s->types) { free(s); attu_error_oom(err); return NULL; }
    memcpy(s->types, p->types, sizeof(attu_type) * (size_t)p->ncols);
    s->est_rows = p->est_rows;
    s->limit = -1;
    return s;
}

static attu_reduce_op reduce_of(attu_agg_kind k) {
    switch (k) {
    case AGG_COUNT_STAR: return ATTU_REDUCE_COUNT_STAR;
    case AGG_COUNT: case AGG_COUNT_DISTINCT: return ATTU_REDUCE_COUNT;
    case AGG_SUM: return ATTU_REDUCE_SUM;
    case AGG_AVG: return ATTU_REDUCE_AVG_SUM;
    case AGG_VAR_SAMP: case AGG_VAR_POP: case AGG_STDDEV_SAMP: case AGG_STDDEV_POP: return ATTU_REDUCE_VAR_M2;
    case AGG_STRING_AGG: return ATTU_REDUCE_STRING_AGG;
    case AGG_REGR: return ATTU_REDUCE_REGR;
    case AGG_BIT_AND: return ATTU_REDUCE_BIT_AND;
    case AGG_BIT_OR: return ATTU_REDUCE_BIT_OR;
    case AGG_BIT_XOR: return ATTU_REDUCE_BIT_XOR;
    case AGG_MIN: return ATTU_REDUCE_MIN;
    case AGG_MAX: return ATTU_REDUCE_MAX;
    case AGG_NTH_SMALLEST: return ATTU_REDUCE_NTH_SMALLEST;
    case AGG_NTH_SMALLEST_ARG: return ATTU_REDUCE_NTH_SMALLEST_ARG;
    case AGG_NTH_LARGEST: return ATTU_REDUCE_NTH_LARGEST;
    case AGG_NTH_LARGEST_ARG: return ATTU_REDUCE_NTH_LARGEST_ARG;
    default: return ATTU_REDUCE_COUNT_STAR;
    }
}

/* An aggregate's ORDER BY keys as indexes into args[] (*na of them; a key
 * not among them is added), their directions and NULLS placement;
 * implied: the order is the aggregate's own (DISTINCT's), not written.
 * -1 when out of memory. */
static int lower_agg_order(attu_stage_agg *g, const attu_agg_spec *a, attu_bexpr **args, int *na, bool implied) {
    g->norder = a->norder;
    g->order_implied = implied;
    g->order = calloc((size_t)a->norder + 1, sizeof(int));
    g->desc = calloc((size_t)a->norder + 1, 1);
    g->nulls_first = calloc((size_t)a->norder + 1, 1);
    if (!g->order || !g->desc || !g->nulls_first) return -1;
    for (int q = 0; q < a->norder; q++) {
        int o = -1;
        for (int j = 0; j < *na; j++) if (attu_bx_equal(args[j], a->order[q].expr)) o = j;
        if (o < 0) { args[*na] = a->order[q].expr; o = (*na)++; }
        g->order[q] = o;
        g->desc[q] = a->order[q].desc; g->nulls_first[q] = a->order[q].nulls_first;
    }
    return 0;
}

/* Collects the aggregates' argument expressions into args[] and fills the
 * stage's agg specs. For _ARG forms arg_ = the returned value, in = ranked. */
static int lower_aggs(attu_stage *s, const attu_agg_spec *aggs, int naggs, attu_bexpr ***args_out, int *nargs_out,
                      attu_error *err) {
    s->naggs = naggs;
    s->aggs = calloc((size_t)naggs + 1, sizeof *s->aggs);
    size_t nord = 0;
    for (int i = 0; i < naggs; i++)
        if (aggs[i].agg == AGG_STRING_AGG || aggs[i].agg == AGG_REGR || aggs[i].agg == AGG_COUNT_DISTINCT ||
            (aggs[i].agg >= AGG_PERCENTILE_CONT && aggs[i].agg <= AGG_MODE))   /* osa_key */
            nord += (size_t)aggs[i].norder;
    attu_bexpr **args = calloc((size_t)naggs * 2 + 2 + nord, sizeof *args);
    if (!s->aggs || !args) { free(args); return attu_error_oom(err); }
    int na = 0;
    for (int i = 0; i < naggs; i++) {
        const attu_agg_spec *a = &aggs[i];
        attu_stage_agg *g = &s->aggs[i];
        g->op = reduce_of(a->agg);
        g->k = a->k;
        g->in = g->arg = g->frac_arg = g->frac_out = g->osa_key = g->distinct_by = -1;
        g->avg = a->agg == AGG_AVG;
        g->var = a->agg >= AGG_VAR_SAMP && a->agg <= AGG_STDDEV_POP ? (int8_t)(a->agg - AGG_VAR_SAMP + 1) : 0;
        g->count_distinct = a->agg == AGG_COUNT_DISTINCT || a->distinct;   /* any agg(DISTINCT x) */
        g->out_type = a->type;
        switch (a->agg) {
        case WIN_ROW_NUMBER: g->win = ATTU_WIN_ROW_NUMBER; break;
        case WIN_RANK: g->win = ATTU_WIN_RANK; break;
        case WIN_DENSE_RANK: g->win = ATTU_WIN_DENSE_RANK; break;
        case WIN_LAG: g->win = ATTU_WIN_LAG; break;
        case WIN_LEAD: g->win = ATTU_WIN_LEAD; break;
        case WIN_FIRST_VALUE: g->win = ATTU_WIN_FIRST_VALUE; break;
        case WIN_LAST_VALUE: g->win = ATTU_WIN_LAST_VALUE; break;
        case WIN_NTILE: g->win = ATTU_WIN_NTILE; break;
        case WIN_PERCENT_RANK: g->win = ATTU_WIN_PERCENT_RANK; break;
        case WIN_CUME_DIST: g->win = ATTU_WIN_CUME_DIST; break;
        case WIN_NTH_VALUE: g->win = ATTU_WIN_NTH_VALUE; break;
        default: g->win = ATTU_WIN_AGG; break;
        }
        g->frame = a->frame;
        g->frame_kind[0] = a->frame_kind[0]; g->frame_kind[1] = a->frame_kind[1];
        g->frame_off[0] = a->frame_off[0]; g->frame_off[1] = a->frame_off[1];
        g->frame_offf[0] = a->frame_offf[0]; g->frame_offf[1] = a->frame_offf[1];
        g->frame_off_scale[0] = a->frame_off_scale[0]; g->frame_off_scale[1] = a->frame_off_scale[1];
        g->frame_off_months[0] = a->frame_off_months[0]; g->frame_off_months[1] = a->frame_off_months[1];
        g->frame_off_days[0] = a->frame_off_days[0]; g->frame_off_days[1] = a->frame_off_days[1];
        g->frame_off_zone = a->frame_off_zone;
        g->frame_excl = a->frame_excl;

        bool isarg = a->agg == AGG_NTH_SMALLEST_ARG || a->agg == AGG_NTH_LARGEST_ARG;
        const attu_bexpr *ranked = isarg ? a->arg2 : a->arg;
        if (ranked) {
            int k = -1;
            for (int j = 0; j < na; j++) if (attu_bx_equal(args[j], ranked)) k = j;
            if (k < 0) { args[na] = (attu_bexpr *)ranked; k = na++; }
            g->in = k;
            g->in_type = ranked->type;
        }
        if (isarg) {
            int k = -1;
            for (int j = 0; j < na; j++) if (attu_bx_equal(args[j], a->arg)) k = j;
            if (k < 0) { args[na] = a->arg; k = na++; }
            g->arg = k;
        }
        if (a->agg == AGG_REGR) {
            /* Y is `in`, X `arg`; agg(DISTINCT y, x) counts each (y, x)
             * pair once: X is the rest of the distinct tuple */
            int k = -1;
            for (int j = 0; j < na; j++) if (attu_bx_equal(args[j], a->arg2)) k = j;
            if (k < 0) { args[na] = a->arg2; k = na++; }
            g->arg = k;
            if (a->distinct) {
                g->ntuple = 1;
                if (!(g->tuple = calloc(1, sizeof(int)))) { free(args); return attu_error_oom(err); }
                g->tuple[0] = k;
            }
            /* DISTINCT's implied (Y, X) order (functions.c) */
            if (a->norder && s->kind != ATTU_ST_WINDOW && lower_agg_order(g, a, args, &na, true)) {
                free(args);
                return attu_error_oom(err);
            }
        }
        if (a->agg == AGG_STRING_AGG) {
            /* the separator is `arg`; ORDER BY keys index the args too */
            int k = -1;
            for (int j = 0; j < na; j++) if (attu_bx_equal(args[j], a->arg2)) k = j;
            if (k < 0) { args[na] = a->arg2; k = na++; }
            g->arg = k;
            /* (a window's order is its keys': LP_WINDOW) */
            if (a->norder && s->kind != ATTU_ST_WINDOW && lower_agg_order(g, a, args, &na, a->order[0].implied)) {
                free(args);
                return attu_error_oom(err);
            }
        }
        if (a->agg == AGG_STRING_AGG && a->distinct && a->norder && s->kind != ATTU_ST_WINDOW &&
            !attu_bx_equal(a->order[0].expr, a->arg)) {
            /* array_agg(DISTINCT x) ordered by x's key (functions.c
             * bpchar_key): the values one where their keys are */
            int o = -1;
            for (int j = 0; j < na; j++) if (attu_bx_equal(args[j], a->order[0].expr)) o = j;
            if (o < 0) { args[na] = a->order[0].expr; o = na++; }
            g->distinct_by = o;
        }
        if (a->agg == AGG_COUNT_DISTINCT && a->norder) {
            /* the order items are the rest of the tuple counted */
            g->ntuple = a->norder;
            if (!(g->tuple = calloc((size_t)a->norder, sizeof(int)))) { free(args); return attu_error_oom(err); }
            for (int q = 0; q < a->norder; q++) {
                int o = -1;
                for (int j = 0; j < na; j++) if (attu_bx_equal(args[j], a->order[q].expr)) o = j;
                if (o < 0) { args[na] = a->order[q].expr; o = na++; }
                g->tuple[q] = o;
            }
        }
        if (a->agg >= AGG_PERCENTILE_CONT && a->agg <= AGG_MODE) {
            /* the value's non-NULL count reduces like COUNT; the
             * executor picks the value(s) from the group's sorted rows */
            g->op = ATTU_REDUCE_COUNT;
            g->osa = (int8_t)(a->agg - AGG_PERCENTILE_CONT + 1);
            g->osa_desc = a->norder && a->order[0].desc;
            if (a->norder && !attu_bx_equal(a->order[0].expr, a->arg)) {
                int k = -1;
                for (int j = 0; j < na; j++) if (attu_bx_equal(args[j], a->order[0].expr)) k = j;
                if (k < 0) { args[na] = a->order[0].expr; k = na++; }
                g->osa_key = k;
            }
            if (a->arg2 && a->arg2->kind == BX_CONST) {
                g->frac_null = a->arg2->is_null;
                g->frac = a->arg2->f;
            } else if (a->arg2) {
                int k = -1;
                for (int j = 0; j < na; j++) if (attu_bx_equal(args[j], a->arg2)) k = j;
                if (k < 0) { args[na] = a->arg2; k = na++; }
                g->frac_arg = k;
            }
        }
        if ((a->agg == WIN_LAG || a->agg == WIN_LEAD || a->agg == WIN_NTH_VALUE) && a->arg2) {
            /* lag / lead: the value is `in`, the default `arg`; nth_value:
             * the value, and n */
            int k = -1;
            for (int j = 0; j < na; j++) if (attu_bx_equal(args[j], a->arg2)) k = j;
            if (k < 0) { args[na] = a->arg2; k = na++; }
            g->arg = k;
        }
    }
    *args_out = args;
    *nargs_out = na;
    return 0;
}

static attu_stage *lower(const attu_lplan *p, attu_error *err);

static int compile_child(attu_bexpr *const *ex, int n, const attu_lplan *in, attu_stage_exprs *out, attu_error *err) {
    return attu_compile_exprs(ex, n, in->ncols, in->types, out, err);
}

static attu_stage *lower_join_like(const attu_lplan *p, attu_stage *s, attu_error *err) {
    const attu_lplan *l = p->left, *r = p->right;
    if (compile_child(p->lkeys, p->nkeys, l, &s->keys, err) || compile_child(p->rkeys, p->nkeys, r, &s->rkeys, err)) return NULL;
    return s;
}

static attu_stage *lower(const attu_lplan *p, attu_error *err) {
    attu_stage *s = NULL;
    switch (p->kind) {
    case LP_SCAN:
        if (!(s = new_stage(ATTU_ST_SCAN, p, err))) return NULL;
        s->table = p->table;
        s->label = p->table->name;
        s->cols = malloc(sizeof(int) * ((size_t)p->ncols + 1));
        if (!s->cols) goto oom;
        memcpy(s->cols, p->cols, sizeof(int) * (size_t)p->ncols);
        if (p->used) for (int i = 0; i < p->ncols; i++) if (!p->used[i]) s->cols[i] = -1;   /* pruned */
        return s;
    case LP_VALUES:
        if (!(s = new_stage(ATTU_ST_VALUES, p, err))) return NULL;
        s->nrows = p->nrows;
        s->rows = calloc((size_t)p->nrows + 1, sizeof *s->rows);
        if (!s->rows) goto oom;
        for (int r = 0; r < p->nrows; r++) {
            attu_stage_exprs ex;
            if (p->ncols == 0) continue;
            /* constant rows: compile with every expression forced through the program */
            if (attu_compile_exprs(p->values + (size_t)r * p->ncols, p->ncols, 0, NULL, &ex, err)) { attu_stage_free(s); return NULL; }
            if (ex.nin) {
                /* a VALUES row reading a correlated subquery's parameter
                 * (run_values evaluates rows without inputs) */
                attu_stage_exprs_free(&ex);
                attu_stage_free(s);
                attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                               "VALUES that reads the outer query inside a correlated subquery is not supported");
                return NULL;
            }
            s->rows[r] = ex.prog;
            ex.prog = NULL;
            attu_stage_exprs_free(&ex);
        }
        return s;
    case LP_FILTER:
        if (!(s = new_stage(ATTU_ST_FILTER, p, err))) return NULL;
        if (!(s->child[0] = lower(p->left, err))) goto fail;
        if (compile_pred(p->pred, p->left->ncols, p->left->types, &s->exprs, err)) goto fail;
        return s;
    case LP_PROJECT:
        if (!(s = new_stage(ATTU_ST_PROJECT, p, err))) return NULL;
        if (!(s->child[0] = lower(p->left, err))) goto fail;
        if (compile_child(p->exprs, p->ncols, p->left, &s->exprs, err)) goto fail;
        return s;
    case LP_JOIN: {
        if (p->jk == JK_CROSS || (p->nkeys == 0 && p->jk == JK_INNER)) {
            if (!(s = new_stage(ATTU_ST_CROSS, p, err))) return NULL;
            s->label = "cross";
        } else {
            if (!(s = new_stage(ATTU_ST_JOIN, p, err))) return NULL;
            s->jk = p->jk == JK_LEFT ? ATTU_SJ_LEFT : p->jk == JK_FULL ? ATTU_SJ_FULL : p->jk == JK_SEMI ? ATTU_SJ_SEMI : p->jk == JK_ANTI ? ATTU_SJ_ANTI : ATTU_SJ_INNER;
            s->label = s->jk == ATTU_SJ_FULL ? "full" : s->jk == ATTU_SJ_LEFT ? "left" : s->jk == ATTU_SJ_SEMI ? "semi" : s->jk == ATTU_SJ_ANTI ? "anti" : "inner";
        }
        if (!(s->child[0] = lower(p->left, err)) || !(s->child[1] = lower(p->right, err))) goto fail;
        if (!lower_join_like(p, s, err)) goto fail;
        if (p->used && s->kind == ATTU_ST_JOIN) {
            if (!(s->out_need = malloc((size_t)p->ncols + 1))) goto oom;
            memcpy(s->out_need, p->used, (size_t)p->ncols);
        }
        if (p->residual) {
            /* over left ++ right */
            int nl = p->left->ncols, nr = p->right->ncols;
            attu_type *tys = malloc(sizeof(attu_type) * ((size_t)(nl + nr) + 1));
            if (!tys) goto oom;
            memcpy(tys, p->left->types, sizeof(attu_type) * (size_t)nl);
            memcpy(tys + nl, p->right->types, sizeof(attu_type) * (size_t)nr);
            int rc = compile_pred(p->residual, nl + nr, tys, &s->residual, err);
            free(tys);
            if (rc) goto fail;
            if (s->kind == ATTU_ST_CROSS) {
                /* cross join with a residual: filter above */
                attu_stage *f = calloc(1, sizeof *f);
                if (!f) goto oom;
                f->kind = ATTU_ST_FILTER;
                f->ncols = s->ncols;
                f->types = malloc(sizeof(attu_type) * ((size_t)s->ncols + 1));
                if (!f->types) { free(f); goto oom; }
                memcpy(f->types, s->types, sizeof(attu_type) * (size_t)s->ncols);
                f->exprs = s->residual;
                memset(&s->residual, 0, sizeof s->residual);
                f->child[0] = s;
                f->est_rows = s->est_rows / 3;
                f->limit = -1;
                return f;
            }
        }
        return s;
    }
    case LP_AGG: {
        if (!(s = new_stage(ATTU_ST_AGG, p, err))) return NULL;
        if (!(s->child[0] = lower(p->left, err))) goto fail;
        if (compile_child(p->groups, p->ngroups, p->left, &s->keys, err)) goto fail;
        attu_bexpr **args; int na;
        if (lower_aggs(s, p->aggs, p->naggs, &args, &na, err)) goto fail;
        int rc = compile_child(args, na, p->left, &s->args, err);
        free(args);
        if (rc) goto fail;
        if (!p->ngroups) {
            /* the fractions that are not constants, alone: the one group
             * of a keyless aggregate has them even without rows */
            attu_bexpr **fr = calloc((size_t)p->naggs + 1, sizeof *fr);
            int nf = 0;
            if (!fr) goto oom;
            for (int i = 0; i < p->naggs; i++)
                if (s->aggs[i].frac_arg >= 0) { fr[nf] = p->aggs[i].arg2; s->aggs[i].frac_out = nf++; }
            rc = nf ? compile_child(fr, nf, p->left, &s->osa_fracs, err) : 0;
            free(fr);
            if (rc) goto fail;
        }
        return s;
    }
    case LP_JOIN_AGG: {
        const attu_lplan *j = p->left;
        if (!(s = new_stage(ATTU_ST_JOIN_AGG, p, err))) return NULL;
        s->label = j->jk == JK_LEFT ? "left" : "inner";
        s->outer = j->jk == JK_LEFT;
        if (!(s->child[0] = lower(j->left, err)) || !(s->child[1] = lower(j->right, err))) goto fail;
        if (!lower_join_like(j, s, err)) goto fail;
        s->nleft_groups = p->ngroups;
        s->group_cols = malloc(sizeof(int) * ((size_t)p->ngroups + 1));
        if (!s->group_cols) goto oom;
        for (int i = 0; i < p->ngroups; i++) s->group_cols[i] = p->groups[i]->col;
        attu_bexpr **args; int na;
        if (lower_aggs(s, p->aggs, p->naggs, &args, &na, err)) goto fail;
        if (j->residual) { s->has_filter = true; s->filter_index = na; args[na++] = j->residual; }
        int rc = compile_exprs(args, na, j->ncols, j->types, &s->args, true, s->has_filter ? s->filter_index : -1, err);
        free(args);
        if (rc) goto fail;
        return s;
    }
    case LP_WINDOW: {
        if (!(s = new_stage(ATTU_ST_WINDOW, p, err))) return NULL;
        if (!(s->child[0] = lower(p->left, err))) goto fail;
        attu_bexpr **args; int na;
        if (lower_aggs(s, p->aggs, p->naggs, &args, &na, err)) goto fail;
        int rc = compile_child(args, na, p->left, &s->args, err);
        free(args);
        if (rc) goto fail;
        /* keys: every partition and order expression of every call */
        int nk = 0;
        for (int i = 0; i < p->naggs; i++) nk += p->aggs[i].npart + p->aggs[i].norder;
        attu_bexpr **keys = calloc((size_t)nk + 1, sizeof *keys);
        if (!keys) goto oom;
        int k = 0;
        for (int i = 0; i < p->naggs; i++) {
            attu_stage_agg *g = &s->aggs[i];
            const attu_agg_spec *a = &p->aggs[i];
            g->npart = a->npart; g->norder = a->norder;
            g->part = calloc((size_t)a->npart + 1, sizeof(int));
            g->order = calloc((size_t)a->norder + 1, sizeof(int));
            g->desc = calloc((size_t)a->norder + 1, 1);
            g->nulls_first = calloc((size_t)a->norder + 1, 1);
            if (!g->part || !g->order || !g->desc || !g->nulls_first) { free(keys); goto oom; }
            for (int q = 0; q < a->npart; q++) { g->part[q] = k; keys[k++] = a->part[q]; }
            for (int q = 0; q < a->norder; q++) {
                g->order[q] = k; keys[k++] = a->order[q].expr;
                g->desc[q] = a->order[q].desc; g->nulls_first[q] = a->order[q].nulls_first;
            }
        }
        rc = compile_child(keys, nk, p->left, &s->keys, err);
        free(keys);
        if (rc) goto fail;
        return s;
    }
    case LP_SORT: {
        if (!(s = new_stage(p->topk_limit >= 0 ? ATTU_ST_TOPK : ATTU_ST_SORT, p, err))) return NULL;
        s->limit = p->topk_limit;
        if (!(s->child[0] = lower(p->left, err))) goto fail;
        attu_bexpr **keys = calloc((size_t)p->nsort + 1, sizeof *keys);
        s->desc = calloc((size_t)p->nsort + 1, 1);
        s->nulls_first = calloc((size_t)p->nsort + 1, 1);
        if (!keys || !s->desc || !s->nulls_first) { free(keys); goto oom; }
        for (int i = 0; i < p->nsort; i++) { keys[i] = p->sort[i].expr; s->desc[i] = p->sort[i].desc; s->nulls_first[i] = p->sort[i].nulls_first; }
        int rc = compile_child(keys, p->nsort, p->left, &s->keys, err);
        free(keys);
        if (rc) goto fail;
        return s;
    }
    case LP_LIMIT:
        if (!(s = new_stage(ATTU_ST_LIMIT, p, err))) return NULL;
        s->limit = p->limit; s->offset = p->offset;
        if (!(s->child[0] = lower(p->left, err))) goto fail;
        if (p->limit_expr && (compile_child(&p->offset_expr, 1, p->left, &s->counts[0], err) ||
                              compile_child(&p->limit_expr, 1, p->left, &s->counts[1], err)))
            goto fail;
        if (p->with_ties) {
            /* the peers' keys, over the input (as a SORT's) */
            s->with_ties = true;
            attu_bexpr **keys = calloc((size_t)p->nsort + 1, sizeof *keys);
            if (!keys) goto oom;
            for (int i = 0; i < p->nsort; i++) keys[i] = p->sort[i].expr;
            int rc = compile_child(keys, p->nsort, p->left, &s->keys, err);
            free(keys);
            if (rc) goto fail;
        }
        return s;
    case LP_DISTINCT:
        if (!(s = new_stage(ATTU_ST_DISTINCT, p, err))) return NULL;
        s->setop_ncmp = p->setop_ncmp;
        if (!(s->child[0] = lower(p->left, err))) goto fail;
        return s;
    case LP_SETOP:
        if (!(s = new_stage(ATTU_ST_SETOP, p, err))) return NULL;
        s->setop = p->setop; s->all = p->all; s->setop_ncmp = p->setop_ncmp;
        s->label = p->setop == 1 ? (p->all ? "union all" : "union") : p->setop == 2 ? (p->all ? "intersect all" : "intersect") : (p->all ? "except all" : "except");
        if (!(s->child[0] = lower(p->left, err)) || !(s->child[1] = lower(p->right, err))) goto fail;
        return s;
    case LP_RECURSIVE:
        if (!(s = new_stage(ATTU_ST_RECURSIVE, p, err))) return NULL;
        s->all = p->all; s->worktable = p->worktable;
        if (p->setop_ncmp) {
            s->setop_ncmp = p->setop_ncmp;
            if (!(s->work_cols = malloc(sizeof(int) * (size_t)p->ncols))) goto oom;
            memcpy(s->work_cols, p->work_cols, sizeof(int) * (size_t)p->ncols);
        }
        s->limit = p->topk_limit;     /* -1, or the rows after which to stop */
        s->stop_per_run = p->stop_per_run;
        s->label = p->all ? "union all" : "union";
        if (!(s->child[0] = lower(p->left, err)) || !(s->child[1] = lower(p->right, err))) goto fail;
        return s;
    case LP_WORKTABLE:
        if (!(s = new_stage(ATTU_ST_WORKTABLE, p, err))) return NULL;
        s->worktable = p->worktable;
        if (p->all) s->label = "shared input";
        return s;
    case LP_SHARED:
        if (!(s = new_stage(ATTU_ST_SHARED, p, err))) return NULL;
        s->worktable = p->worktable;
        s->label = "grouping sets";
        if (!(s->child[0] = lower(p->left, err)) || !(s->child[1] = lower(p->right, err))) goto fail;
        return s;
    case LP_SRF: {
        if (!(s = new_stage(ATTU_ST_SRF, p, err))) return NULL;
        s->label = "generate_series";
        if (!(s->child[0] = lower(p->left, err))) goto fail;
        s->nsrfs = p->nsrfs;
        if (!(s->srfs = calloc((size_t)p->nsrfs + 1, sizeof *s->srfs))) goto oom;
        attu_bexpr **args = calloc(3 * (size_t)p->nsrfs + 1, sizeof *args);
        if (!args) goto oom;
        for (int i = 0; i < p->nsrfs; i++) {
            const attu_srf_spec *f = &p->srfs[i];
            s->srfs[i] = (attu_stage_srf){ f->type, f->step_months, f->step_days, f->step_usec, f->zone, f->ordinal };
            args[3 * i] = f->start; args[3 * i + 1] = f->stop; args[3 * i + 2] = f->step;
        }
        int rc = compile_child(args, 3 * p->nsrfs, p->left, &s->args, err);
        free(args);
        if (rc) goto fail;
        s->outer = p->srf_outer;
        s->limit = p->topk_limit;     /* -1, or the rows a LIMIT above keeps */
        s->stop_per_run = p->stop_per_run;
        if (p->residual && compile_pred(p->residual, p->ncols, p->types, &s->residual, err)) goto fail;
        return s;
    }
    case LP_APPLY:
        if (!(s = new_stage(ATTU_ST_APPLY, p, err))) return NULL;
        s->label = "correlated subquery";
        if (!(s->child[0] = lower(p->left, err)) || !(s->child[1] = lower(p->right, err))) goto fail;
        if (compile_child(p->lkeys, p->nkeys, p->left, &s->keys, err)) goto fail;
        if (!(s->params = malloc(sizeof(int) * ((size_t)p->nkeys + 1)))) goto oom;
        memcpy(s->params, p->params, sizeof(int) * (size_t)p->nkeys);
        if (p->all) {
            /* LATERAL: every row of each binding, a LEFT JOIN's ON over the output */
            s->label = "lateral subquery";
            s->all = true;
            s->outer = p->srf_outer;
            if (p->residual && compile_pred(p->residual, p->ncols, p->types, &s->residual, err)) goto fail;
        }
        return s;
    }
    attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "unknown plan node");
    return NULL;
oom:
    attu_error_oom(err);
fail:
    attu_stage_free(s);
    return NULL;
}

/* ---- projection pruning ------------------------------------------------------------
 * Marks, top-down, which outputs of each node some parent reads, so a scan
 * materializes only the columns (and the rowid) the query uses; unused
 * columns travel as empty placeholders. Conservative: anything unsure
 * counts as used. */

static void mark_expr(const attu_bexpr *e, bool *need, int n) {
    if (!e) return;
    if (e->kind == BX_COL) { if (e->col >= 0 && e->col < n) need[e->col] = true; return; }
    for (int i = 0; i < e->nargs; i++) mark_expr(e->args[i], need, n);
    for (int i = 0; i < e->nwhens; i++) { mark_expr(e->whens[i], need, n); mark_expr(e->thens[i], need, n); }
    mark_expr(e->else_, need, n);
    for (int i = 0; i < e->npart; i++) mark_expr(e->part[i], need, n);
    for (int i = 0; i < e->norder; i++) mark_expr(e->order[i].expr, need, n);
}

/* Marks in ln the columns of a node's left input that its residual reads:
 * the residual is over the node's own output (p->ncols columns), whose
 * first nl are the left input's. Returns -1 when out of memory. */
static int mark_residual_left(const attu_lplan *p, bool *ln, int nl) {
    bool *all = calloc((size_t)p->ncols + 1, 1);
    if (!all) return -1;
    mark_expr(p->residual, all, p->ncols);
    for (int i = 0; i < nl; i++) ln[i] |= all[i];
    free(all);
    return 0;
}

static int prune(const attu_lplan *p, const bool *need, attu_error *err) {
    if (!p) return 0;
    attu_lplan *l = p->left, *r = p->right;
    int nl = l ? l->ncols : 0, nr = r ? r->ncols : 0;
    bool *ln = calloc((size_t)nl + 1, 1), *rn = calloc((size_t)nr + 1, 1);
    if (!ln || !rn) { free(ln); free(rn); return attu_error_oom(err); }
    switch (p->kind) {
    case LP_SCAN:
        ((attu_lplan *)p)->used = (bool *)need;   /* lowered right after */
        break;
    case LP_VALUES: case LP_WORKTABLE: break;
    case LP_FILTER:
        for (int i = 0; i < nl; i++) ln[i] = need[i];
        mark_expr(p->pred, ln, nl);
        break;
    case LP_PROJECT:
        /* computed outputs are evaluated whether read or not: their inputs count */
        for (int i = 0; i < p->ncols; i++) if (need[i] || p->exprs[i]->kind != BX_COL) mark_expr(p->exprs[i], ln, nl);
        break;
    case LP_SORT:
        for (int i = 0; i < nl; i++) ln[i] = need[i];
        for (int i = 0; i < p->nsort; i++) mark_expr(p->sort[i].expr, ln, nl);
        break;
    case LP_LIMIT:
        for (int i = 0; i < nl; i++) ln[i] = need[i];
        for (int i = 0; i < p->nsort; i++) mark_expr(p->sort[i].expr, ln, nl);   /* WITH TIES keys */
        break;
    case LP_SRF:
        /* the left rows pass through (gathered whether read or not: the
         * placeholders of unread ones are kept) */
        for (int i = 0; i < nl; i++) ln[i] = need[i];
        for (int k = 0; k < p->nsrfs; k++) {
            mark_expr(p->srfs[k].start, ln, nl); mark_expr(p->srfs[k].stop, ln, nl); mark_expr(p->srfs[k].step, ln, nl);
        }
        /* the residual is over the node's own output: its left part is
         * the input's */
        if (p->residual && mark_residual_left(p, ln, nl)) { free(ln); free(rn); return attu_error_oom(err); }
        break;
    case LP_APPLY:
        /* the left rows pass through; the subquery's first row (LATERAL:
         * its rows) comes out whole */
        for (int i = 0; i < nl; i++) ln[i] = need[i];
        for (int k = 0; k < p->nkeys; k++) mark_expr(p->lkeys[k], ln, nl);
        for (int i = 0; i < nr; i++) rn[i] = true;
        /* a LATERAL LEFT JOIN's ON, over the node's own output */
        if (p->residual && mark_residual_left(p, ln, nl)) { free(ln); free(rn); return attu_error_oom(err); }
        break;
    case LP_DISTINCT: case LP_SETOP: case LP_RECURSIVE: case LP_SHARED:
        for (int i = 0; i < nl; i++) ln[i] = true;
        for (int i = 0; i < nr; i++) rn[i] = true;
        break;
    case LP_WINDOW:
        for (int i = 0; i < nl; i++) ln[i] = need[i];
        for (int k = 0; k < p->naggs; k++) {
            mark_expr(p->aggs[k].arg, ln, nl); mark_expr(p->aggs[k].arg2, ln, nl);
            for (int i = 0; i < p->aggs[k].npart; i++) mark_expr(p->aggs[k].part[i], ln, nl);
            for (int i = 0; i < p->aggs[k].norder; i++) mark_expr(p->aggs[k].order[i].expr, ln, nl);
        }
        break;
    case LP_AGG:
        for (int i = 0; i < p->ngroups; i++) mark_expr(p->groups[i], ln, nl);
        for (int k = 0; k < p->naggs; k++) {
            mark_expr(p->aggs[k].arg, ln, nl); mark_expr(p->aggs[k].arg2, ln, nl);
            for (int i = 0; i < p->aggs[k].norder; i++) mark_expr(p->aggs[k].order[i].expr, ln, nl);
        }
        break;
    case LP_JOIN: {
        int tot = nl + nr;
        bool *all = calloc((size_t)tot + 1, 1);
        if (!all) { free(ln); free(rn); return attu_error_oom(err); }
        for (int i = 0; i < p->ncols && i < tot; i++) all[i] = need[i];
        /* what the parent reads, before the residual and the keys add
         * theirs: the stage's out_need */
        bool *keep = malloc((size_t)p->ncols + 1);
        if (!keep) { free(all); free(ln); free(rn); return attu_error_oom(err); }
        memcpy(keep, need, (size_t)p->ncols);
        free(p->used);
        ((attu_lplan *)p)->used = keep;
        mark_expr(p->residual, all, tot);
        for (int i = 0; i < nl; i++) ln[i] = all[i];
        for (int i = 0; i < nr; i++) rn[i] = all[nl + i];
        for (int k = 0; k < p->nkeys; k++) { mark_expr(p->lkeys[k], ln, nl); mark_expr(p->rkeys[k], rn, nr); }
        free(all);
        break;
    }
    case LP_JOIN_AGG: {
        /* the child is the join; its sides are read directly */
        const attu_lplan *j = l;
        int jl = j->left->ncols, jr = j->right->ncols, tot = jl + jr;
        bool *all = calloc((size_t)tot + 1, 1), *jln = calloc((size_t)jl + 1, 1), *jrn = calloc((size_t)jr + 1, 1);
        if (!all || !jln || !jrn) { free(all); free(jln); free(jrn); free(ln); free(rn); return attu_error_oom(err); }
        for (int i = 0; i < p->ngroups; i++) mark_expr(p->groups[i], all, tot);
        for (int k = 0; k < p->naggs; k++) { mark_expr(p->aggs[k].arg, all, tot); mark_expr(p->aggs[k].arg2, all, tot); }
        mark_expr(j->residual, all, tot);
        for (int i = 0; i < jl; i++) jln[i] = all[i];
        for (int i = 0; i < jr; i++) jrn[i] = all[jl + i];
        for (int k = 0; k < j->nkeys; k++) { mark_expr(j->lkeys[k], jln, jl); mark_expr(j->rkeys[k], jrn, jr); }
        free(all); free(ln); free(rn);
        int rc = prune(j->left, jln, err);
        if (!rc) rc = prune(j->right, jrn, err);
        if (j->left->kind != LP_SCAN) free(jln);
        if (j->right->kind != LP_SCAN) free(jrn);
        return rc;
    }
    }
    int rc = 0;
    if (l) rc = prune(l, ln, err);
    if (!rc && r) rc = prune(r, rn, err);
    if (!l || l->kind != LP_SCAN) free(ln);
    if (!r || r->kind != LP_SCAN) free(rn);
    return rc;
}

/* frees the masks the scans kept */
static void unprune(const attu_lplan *p) {
    if (!p) return;
    if (p->kind == LP_SCAN || p->kind == LP_JOIN) { free(((attu_lplan *)p)->used); ((attu_lplan *)p)->used = NULL; }
    unprune(p->left);
    unprune(p->right);
}

attu_stage *attu_lower(const attu_lplan *p, attu_error *err) {
    bool *need = calloc((size_t)p->ncols + 1, 1);
    if (!need) { attu_error_oom(err); return NULL; }
    for (int i = 0; i < p->ncols; i++) need[i] = true;
    if (prune(p, need, err)) { if (p->kind != LP_SCAN) free(need); unprune(p); return NULL; }
    if (p->kind != LP_SCAN) free(need);
    attu_stage *s = lower(p, err);
    unprune(p);
    return s;
}
