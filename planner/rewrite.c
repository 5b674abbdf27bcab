/*
 * rewrite.c - logical plan rewrites (see rewrite.h for the list and order).
 */
#include "planner/rewrite.h"

#include <string.h>

#include "planner/lower.h"

/* ---- constant folding ----------------------------------------------------------- */

static bool all_const(const attu_bexpr *e) {
    for (int i = 0; i < e->nargs; i++) if (e->args[i]->kind != BX_CONST) return false;
    return true;
}

/* Folds calls whose arguments are constants. A fold that fails (1/0) is
 * left for run time, where it fails only if a row reaches it. CASE
 * branches are not folded for the same reason. */
static attu_bexpr *fold(attu_plan_arena *pa, attu_bexpr *e) {
    if (!e) return e;
    if (e->kind == BX_CASE) {
        for (int i = 0; i < e->nwhens; i++) e->whens[i] = fold(pa, e->whens[i]);
        return e;
    }
    if (e->kind != BX_CALL) return e;
    for (int i = 0; i < e->nargs; i++) e->args[i] = fold(pa, e->args[i]);
    if (!all_const(e) || e->type.id == ATTU_TYPE_UNKNOWN) return e;
    attu_stage_exprs ex;
    attu_error err;
    attu_error_clear(&err);
    if (attu_compile_exprs(&e, 1, 0, NULL, &ex, &err)) { attu_stage_exprs_free(&ex); return e; }
    attu_slot out;
    char text[4096];
    int rc = attu_program_eval_const(ex.prog, &out, text, sizeof text, &err);
    attu_stage_exprs_free(&ex);
    if (rc) return e;
    if (attu_type_mclass(e->type.id) == ATTU_MC_TEXT && !out.null && out.len >= sizeof text - 1) return e;
    attu_bexpr *c = attu_bx_new(pa, BX_CONST, e->type, e->position);
    if (!c) return e;
    c->is_null = out.null;
    if (!out.null) {
        switch (attu_type_mclass(e->type.id)) {
        case ATTU_MC_FLOAT: c->f = out.v.f; break;
        case ATTU_MC_TEXT: c->s = attu_pstrdup(pa, out.v.s, out.len); c->slen = out.len; if (!c->s) return e; break;
        default: c->i = out.v.i; c->f = (double)out.v.i; break;
        }
    }
    return c;
}

static void fold_plan(attu_plan_arena *pa, attu_lplan *p) {
    if (!p) return;
    fold_plan(pa, p->left);
    fold_plan(pa, p->right);
    if (p->pred) p->pred = fold(pa, p->pred);
    if (p->residual) p->residual = fold(pa, p->residual);
    if (p->kind == LP_PROJECT) for (int i = 0; i < p->ncols; i++) p->exprs[i] = fold(pa, p->exprs[i]);
    for (int i = 0; i < p->nkeys; i++) { p->lkeys[i] = fold(pa, p->lkeys[i]); p->rkeys[i] = fold(pa, p->rkeys[i]); }
    for (int i = 0; i < p->ngroups; i++) p->groups[i] = fold(pa, p->groups[i]);
    for (int i = 0; i < p->naggs; i++) { p->aggs[i].arg = fold(pa, p->aggs[i].arg); p->aggs[i].arg2 = fold(pa, p->aggs[i].arg2); }
}

/* ---- predicate pushdown ------------------------------------------------------------ */

static int sides(const attu_bexpr *e, int nleft) {
    if (!e) return 0;
    if (e->kind == BX_COL) return e->col < nleft ? 1 : 2;
    int s = 0;
    for (int i = 0; i < e->nargs; i++) s |= sides(e->args[i], nleft);
    for (int i = 0; i < e->nwhens; i++) s |= sides(e->whens[i], nleft) | sides(e->thens[i], nleft);
    return s | sides(e->else_, nleft);
}

static attu_bexpr *shift(attu_plan_arena *pa, const attu_bexpr *e, int delta) {
    if (!e) return NULL;
    attu_bexpr *x = attu_palloc(pa, sizeof *x);
    if (!x) return NULL;
    *x = *e;
    if (e->kind == BX_COL) { x->col += delta; return x; }
    for (int i = 0; i < e->nargs; i++) x->args[i] = shift(pa, e->args[i], delta);
    if (e->kind == BX_CASE) {
        x->whens = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)e->nwhens);
        x->thens = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)e->nwhens);
        for (int i = 0; i < e->nwhens; i++) { x->whens[i] = shift(pa, e->whens[i], delta); x->thens[i] = shift(pa, e->thens[i], delta); }
        x->else_ = shift(pa, e->else_, delta);
    }
    return x;
}

static int conjuncts(attu_bexpr *e, attu_bexpr **out, int n, int cap) {
    if (e->kind == BX_CALL && e->op == ATTU_OP_AND) return conjuncts(e->args[1], out, conjuncts(e->args[0], out, n, cap), cap);
    if (n < cap) out[n++] = e;
    return n;
}

static attu_bexpr *and_all(attu_plan_arena *pa, attu_bexpr **v, int n) {
    attu_bexpr *acc = NULL;
    for (int i = 0; i < n; i++) {
        if (!acc) { acc = v[i]; continue; }
        attu_bexpr *a = attu_bx_new(pa, BX_CALL, attu_type_make(ATTU_TYPE_BOOL), v[i]->position);
        if (!a) return acc;
        a->op = ATTU_OP_AND; a->nargs = 2; a->args[0] = acc; a->args[1] = v[i];
        acc = a;
    }
    return acc;
}

static attu_lplan *wrap_filter(attu_plan_arena *pa, attu_lplan *child, attu_bexpr **v, int n) {
    if (!n) return child;
    if (child->kind == LP_FILTER) {
        attu_bexpr *all[257];
        all[0] = child->pred;
        for (int i = 0; i < n && i < 256; i++) all[i + 1] = v[i];
        child->pred = and_all(pa, all, n + 1 > 257 ? 257 : n + 1);
        child->est_rows /= 2;
        return child;
    }
    attu_lplan *f = attu_lp_new(pa, LP_FILTER, child->ncols);
    if (!f) return child;
    memcpy(f->types, child->types, sizeof(attu_type) * (size_t)child->ncols);
    memcpy(f->names, child->names, sizeof(char *) * (size_t)child->ncols);
    f->left = child; f->pred = and_all(pa, v, n); f->est_rows = child->est_rows / 3; f->rowid_col = child->rowid_col;
    return f;
}

static bool is_equi(const attu_bexpr *e) {
    return e->kind == BX_CALL && (e->op == ATTU_OP_EQ_I || e->op == ATTU_OP_EQ_F || e->op == ATTU_OP_EQ_S);
}

/* Pushes the conjuncts of a filter (or an inner join's residual) sitting on
 * an inner/cross join into the join's sides and keys. Returns the node that
 * replaces p. */
static attu_lplan *pushdown(attu_plan_arena *pa, attu_lplan *p) {
    if (!p) return p;
    p->left = pushdown(pa, p->left);
    p->right = pushdown(pa, p->right);
    attu_lplan *j = p->kind == LP_FILTER ? p->left : p;
    if (!j || j->kind != LP_JOIN || (j->jk != JK_INNER && j->jk != JK_CROSS)) return p;
    attu_bexpr *conj[256];
    int n = 0;
    if (p->kind == LP_FILTER) n = conjuncts(p->pred, conj, n, 256);
    if (j->residual) n = conjuncts(j->residual, conj, n, 256);
    if (!n) return p;
    int nl = j->left->ncols;
    attu_bexpr *lv[256], *rv[256], *keep[256];
    int nlv = 0, nrv = 0, nk = 0;
    attu_bexpr **lk = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)(j->nkeys + n + 1));
    attu_bexpr **rk = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)(j->nkeys + n + 1));
    if (!lk || !rk) return p;
    memcpy(lk, j->lkeys, sizeof(attu_bexpr *) * (size_t)j->nkeys);
    memcpy(rk, j->rkeys, sizeof(attu_bexpr *) * (size_t)j->nkeys);
    int nkeys = j->nkeys;
    for (int i = 0; i < n; i++) {
        attu_bexpr *e = conj[i];
        int s = sides(e, nl);
        if (s == 1) { lv[nlv++] = e; continue; }
        if (s == 2) { rv[nrv++] = shift(pa, e, -nl); continue; }
        if (is_equi(e)) {
            int sa = sides(e->args[0], nl), sb = sides(e->args[1], nl);
            if (sa == 1 && sb == 2) { lk[nkeys] = e->args[0]; rk[nkeys++] = shift(pa, e->args[1], -nl); continue; }
            if (sa == 2 && sb == 1) { lk[nkeys] = e->args[1]; rk[nkeys++] = shift(pa, e->args[0], -nl); continue; }
        }
        keep[nk++] = e;
    }
    j->left = pushdown(pa, wrap_filter(pa, j->left, lv, nlv));
    j->right = pushdown(pa, wrap_filter(pa, j->right, rv, nrv));
    j->lkeys = lk; j->rkeys = rk; j->nkeys = nkeys;
    j->residual = and_all(pa, keep, nk);
    j->jk = (nkeys || j->residual) ? JK_INNER : JK_CROSS;
    double lr = j->left->est_rows, rr = j->right->est_rows;
    j->est_rows = j->jk == JK_CROSS ? lr * rr : (lr > rr ? lr : rr);
    return j;     /* the filter above dissolved into the join */
}

/* ---- join-aggregate fusion ------------------------------------------------------------ */

static void fuse(attu_lplan *p) {
    if (!p) return;
    fuse(p->left);
    fuse(p->right);
    if (p->kind != LP_AGG || !p->left || p->left->kind != LP_JOIN) return;
    attu_lplan *j = p->left;
    if ((j->jk != JK_INNER && j->jk != JK_LEFT) || j->nkeys == 0 || !p->ngroups) return;
    int nl = j->left->ncols;
    bool has_row = false;
    for (int i = 0; i < p->ngroups; i++) {
        const attu_bexpr *g = p->groups[i];
        if (g->kind != BX_COL || g->col >= nl) return;
        if (g->col == j->left->rowid_col) has_row = true;
    }
    if (!has_row) return;
    for (int i = 0; i < p->naggs; i++)
        if (p->aggs[i].agg == AGG_AVG || p->aggs[i].agg == AGG_COUNT_DISTINCT || p->aggs[i].distinct) return;
    p->kind = LP_JOIN_AGG;
    p->est_rows = j->left->est_rows;
}

/* ---- top-k ---------------------------------------------------------------------------------- */

static void topk(attu_lplan *p) {
    if (!p) return;
    topk(p->left);
    topk(p->right);
    if (p->kind == LP_LIMIT && p->left && p->left->kind == LP_SORT && p->limit >= 0 && p->limit + p->offset <= 100000)
        p->left->topk_limit = p->limit + p->offset;
}

attu_lplan *attu_rewrite(attu_plan_arena *pa, attu_lplan *p, attu_error *err) {
    fold_plan(pa, p);
    p = pushdown(pa, p);
    fuse(p);
    topk(p);
    return p;
}
