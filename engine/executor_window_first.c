/*
 * executor_window_first.c - WHERE rn = 1 over row_number(): each
 * partition's first row, without numbering every row.
 *
 * The plan numbers every row (a sort by the partition and order keys, the
 * partitions' heads, the numbers) and a FILTER then keeps the rows numbered
 * 1. When the FILTER's whole predicate is that test of a row_number() that
 * is its WINDOW stage's only call, reached through pass-through
 * projections, only each partition's first row in the window's order is
 * needed: partition_first finds it without sorting when the partition keys
 * are dense (the dense group-by's slots), and otherwise one sort by
 * (partition, order) keys and the partitions' heads do. The rows come out
 * in partition key order, NULLs last, as after the sort, with 1 in the
 * row_number column; ties in the order go to the earlier input row, as the
 * stable sort gives them. ATTU_WINDOW_FIRST=0 runs the plan as it is.
 */
#include "engine/executor_internal.h"

#include <stdlib.h>
#include <string.h>

#define WINDOW_FIRST_MAX_PROJECTS ((int)(sizeof ((window_first_match *)0)->proj / sizeof(attu_stage *)))

/* Register r holds an integer constant: a CONST, or an integer cast of one. */
static bool const_int(const attu_expr_program *p, int r, int depth, int64_t *v) {
    if (r < p->ninputs || depth > 2) return false;
    for (int i = p->ninstr - 1; i >= 0; i--) {
        const attu_instr *in = &p->code[i];
        if (in->dst != r) continue;
        if (in->guard >= 0) return false;
        if (in->op == ATTU_OP_CONST) {
            if (in->imm_null || in->imm_s >= 0 || attu_type_mclass(p->reg_types[r].id) != ATTU_MC_INT ||
                p->reg_types[r].id == ATTU_TYPE_DECIMAL)
                return false;
            *v = in->imm_i;
            return true;
        }
        if (in->op == ATTU_OP_CAST_I_I) return const_int(p, in->a, depth + 1, v);
        return false;
    }
    return false;
}

/* The program is exactly `input = 1` (or `input <= 1`, `input < 2`, and
 * the same turned around) over one of its inputs: *input gets which. Every
 * instruction must be that comparison or feed its constant. */
static bool tests_first(const attu_expr_program *p, int *input) {
    if (!p || p->noutputs != 1) return false;
    int out = p->outputs[0];
    const attu_instr *cmp = NULL;
    for (int i = 0; i < p->ninstr; i++) {
        const attu_instr *in = &p->code[i];
        if (in->guard >= 0) return false;
        if (in->dst == out) {
            if (cmp) return false;
            cmp = in;
        } else if (in->op != ATTU_OP_CONST && in->op != ATTU_OP_CAST_I_I) {
            return false;
        }
    }
    if (!cmp) return false;
    int a = cmp->a, b = cmp->b;
    int64_t v;
    int op = cmp->op;
    bool in_a = a >= 0 && a < p->ninputs, in_b = b >= 0 && b < p->ninputs;
    if (in_a && const_int(p, b, 0, &v)) {
        *input = a;
    } else if (in_b && const_int(p, a, 0, &v)) {
        *input = b;
        /* 1 >= rn is rn <= 1, 2 > rn is rn < 2 */
        op = op == ATTU_OP_GE_I ? ATTU_OP_LE_I : op == ATTU_OP_GT_I ? ATTU_OP_LT_I
           : op == ATTU_OP_EQ_I ? ATTU_OP_EQ_I : -1;
    } else {
        return false;
    }
    return (op == ATTU_OP_EQ_I && v == 1) || (op == ATTU_OP_LE_I && v == 1) || (op == ATTU_OP_LT_I && v == 2);
}

bool window_first_shape(attu_stage *f, window_first_match *m) {
    const char *env = getenv("ATTU_WINDOW_FIRST");
    if (env && *env == '0') return false;
    if (f->kind != ATTU_ST_FILTER || f->exprs.n != 1 || !f->exprs.prog || f->exprs.direct[0] >= 0) return false;
    int input;
    if (!tests_first(f->exprs.prog, &input) || input >= f->exprs.nin) return false;
    int col = f->exprs.in_cols[input];
    if (col < 0) return false;   /* an APPLY parameter */
    m->filter = f;
    m->nproj = 0;
    attu_stage *s = f->child[0];
    while (s && s->kind == ATTU_ST_PROJECT) {
        if (s->exprs.prog || m->nproj == WINDOW_FIRST_MAX_PROJECTS || col >= s->exprs.n) return false;
        m->proj[m->nproj++] = s;
        col = s->exprs.direct[col];
        if (col < 0) return false;
        s = s->child[0];
    }
    if (!s || s->kind != ATTU_ST_WINDOW || s->naggs != 1 || !s->child[0]) return false;
    const attu_stage_agg *g = &s->aggs[0];
    int nin = s->child[0]->ncols;
    if (g->win != ATTU_WIN_ROW_NUMBER || g->out_type.id != ATTU_TYPE_INT64 || col != nin || s->ncols != nin + 1)
        return false;
    if (win_negative_range(g)) return false;   /* window_call raises its error */
    m->window = s;
    return true;
}

/* Each partition's first row (int64 row numbers of the window's input, in
 * partition key order) into *rows_out. */
static int first_rows(xctx *x, const attu_stage_agg *g, xcol **keys, size_t n, attu_buf **rows_out,
                      size_t *cnt_out, const char **how) {
    int np = g->npart, no = g->norder, rc = -1;
    attu_sort_key *sk = calloc((size_t)(np + no) + 1, sizeof *sk);
    attu_vec *kv = calloc((size_t)np + 1, sizeof *kv);
    xcol **pk = calloc((size_t)np + 1, sizeof *pk);
    if (!sk || !kv || !pk) { attu_error_oom(x->err); goto done; }
    for (int i = 0; i < np; i++) {
        pk[i] = keys[g->part[i]];
        kv[i] = vec_of(pk[i]);
        sk[i].col = kv[i];
    }
    for (int i = 0; i < no; i++) {
        sk[np + i].col = vec_of(keys[g->order[i]]);
        sk[np + i].desc = g->desc[i];
        sk[np + i].nulls_first = g->nulls_first[i];
    }
    if (x->be->partition_first) {
        int64_t mins[8], widths[8];
        size_t nslots = 0;
        int lrc = dense_layout(x, pk, np, n, mins, widths, &nslots, NULL);
        if (lrc < 0) goto done;
        if (lrc == 0) {
            int prc = x->be->partition_first(x->be, kv, mins, widths, np, n, nslots, sk + np, no, rows_out,
                                             cnt_out, x->err);
            if (prc < 0) goto done;
            if (prc == 0) {
                *how = np ? "reduce + partition_first" : "partition_first";
                rc = 0;
                goto done;
            }
        }
    }
    /* sorted by (partition, order): the partitions' heads */
    if (first_rows_of_runs(x, sk, np + no, np, n, rows_out, cnt_out)) goto done;
    *how = np ? "sort + segment_heads + gather" : "sort + gather";
    rc = 0;
done:
    free(sk); free(kv); free(pk);
    return rc;
}

rel *run_window_first(xctx *x, const window_first_match *m) {
    attu_stage *w = m->window;
    rel *in = run_stage(x, w->child[0]), *cur = NULL;
    if (!in) return NULL;
    double t0 = attu_now_ms();
    int nk = w->keys.n;
    xcol **keys = calloc((size_t)nk + 1, sizeof *keys);
    attu_buf *rows = NULL;
    size_t cnt = 0;
    const char *how = NULL;
    if (!keys) { attu_error_oom(x->err); goto done; }
    if (eval_exprs(x, &w->keys, in, keys)) goto done;
    if (first_rows(x, &w->aggs[0], keys, in->nrows, &rows, &cnt, &how)) goto done;
    {
        rel *kept = rel_through(x, in, rows, cnt);   /* takes rows */
        rows = NULL;
        if (!kept) goto done;
        cur = rel_new(x, in->ncols + 1, cnt);
        xcol *rn = xcol_new(x, attu_type_make(ATTU_TYPE_INT64), cnt, false);
        if (!cur || !rn || x->be->fill(x->be, rn->data, 8, 1, cnt, x->err)) {
            xcol_unref(x, rn);
            rel_free(x, kept);
            rel_free(x, cur);
            cur = NULL;
            goto done;
        }
        for (int i = 0; i < in->ncols; i++) cur->cols[i] = xcol_ref(kept->cols[i]);
        cur->cols[in->ncols] = rn;
        rel_free(x, kept);
    }
    if (check_stage_cols(x, w, cur)) { rel_free(x, cur); cur = NULL; goto done; }
    w->executed = true;
    w->act_rows = cnt;
    w->act_how = how;
    w->act_ms = attu_now_ms() - t0;
    /* the pass-through projections, lowest first */
    for (int j = m->nproj - 1; j >= 0; j--) {
        attu_stage *p = m->proj[j];
        rel *o = rel_new(x, p->ncols, cur->nrows);
        if (!o) { rel_free(x, cur); cur = NULL; goto done; }
        for (int i = 0; i < p->ncols; i++) o->cols[i] = xcol_ref(cur->cols[p->exprs.direct[i]]);
        rel_free(x, cur);
        cur = o;
        p->executed = true;
        p->act_rows = cur->nrows;
        p->act_ms = 0;
    }
    if (check_stage_cols(x, m->filter, cur)) { rel_free(x, cur); cur = NULL; goto done; }
    m->filter->executed = true;
    m->filter->act_rows = cur->nrows;
    m->filter->act_ms = 0;
    m->filter->act_how = "none: the window kept row_number() = 1";
done:
    for (int i = 0; i < nk && keys; i++) xcol_unref(x, keys[i]);
    free(keys);
    free_buf(x, rows);
    rel_free(x, in);
    if (!cur && !x->err->set) attu_error_oom(x->err);
    return cur;
}
