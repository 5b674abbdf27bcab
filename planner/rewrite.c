/*
 * rewrite.c - logical plan rewrites (see rewrite.h for the list and order).
 */
#include "planner/rewrite.h"
#include "engine/numeric.h"
#include "engine/bytea.h"
#include "engine/uuid.h"

#include <stdlib.h>
#include <string.h>

#include "planner/lower.h"
#include "planner/ordering.h"
#include "planner/selectivity.h"

/* ---- constant folding ----------------------------------------------------------- */

static bool all_const(const attu_bexpr *e) {
    for (int i = 0; i < e->nargs; i++) if (e->args[i]->kind != BX_CONST) return false;
    return true;
}

static attu_bexpr *fold_call(attu_plan_arena *pa, attu_bexpr *e, attu_error *err);

/* Calls whose failure over constants PostgreSQL reports when it plans the
 * query (immutable functions that its planner folds): arithmetic, the
 * math and the string functions whose arguments are out of range. Casts
 * from text and the formatting functions are stable there (they fail only
 * when a row reaches them) and are left out. */
static bool plan_time_error_op(attu_opcode op) {
    return (op >= ATTU_OP_ADD_I && op <= ATTU_OP_NEG_D) || (op >= ATTU_OP_ADD_N && op <= ATTU_OP_ABS_N) ||
           op == ATTU_OP_SPLIT_PART || op == ATTU_OP_REPEAT || op == ATTU_OP_LPAD || op == ATTU_OP_RPAD ||
           op == ATTU_OP_SQRT || op == ATTU_OP_LN || op == ATTU_OP_LOG10 || op == ATTU_OP_POWER ||
           op == ATTU_OP_ASIN || op == ATTU_OP_ACOS || op == ATTU_OP_SIN || op == ATTU_OP_COS || op == ATTU_OP_TAN || op == ATTU_OP_ACOSH || op == ATTU_OP_ATANH ||
           (op >= ATTU_OP_SIND && op <= ATTU_OP_ACOSD) || op == ATTU_OP_COT || op == ATTU_OP_PG_SIZE_BYTES || op == ATTU_OP_PG_SIZE_PRETTY_N || op == ATTU_OP_UNISTR;
}

/* Operators that are NULL whenever an operand is (PostgreSQL's strict
 * operators): arithmetic, comparisons, ||, LIKE, date +/- days */
static bool strict_op(attu_opcode op) {
    return (op >= ATTU_OP_ADD_I && op <= ATTU_OP_GE_S) || (op >= ATTU_OP_ADD_N && op <= ATTU_OP_GE_N) ||
           op == ATTU_OP_CONCAT || op == ATTU_OP_LIKE || op == ATTU_OP_ILIKE || op == ATTU_OP_DATE_ADD ||
           op == ATTU_OP_DATE_SUB || op == ATTU_OP_DATE_DIFF;
}

static bool is_const_bool(const attu_bexpr *e, bool v) {
    return e && e->kind == BX_CONST && (v ? !e->is_null && e->i : e->is_null || !e->i);
}

/* Whether the flattened AND (OR) e has a FALSE (TRUE) constant operand. */
static bool decided_by_const(const attu_bexpr *e, attu_opcode op) {
    if (e->kind == BX_CALL && e->op == op && e->nargs == 2)
        return decided_by_const(e->args[0], op) || decided_by_const(e->args[1], op);
    return e->kind == BX_CONST && !e->is_null && (op == ATTU_OP_OR ? e->i != 0 : e->i == 0);   /* NULL decides nothing */
}

/* Folds calls whose arguments are constants. A fold that fails (1/0) is
 * left for run time, where it fails only if a row reaches it. CASE
 * branches are not folded for the same reason. The evaluation itself is
 * fold_call's, out of line: its buffers would otherwise sit in every frame
 * of this recursion. */
static attu_bexpr *fold(attu_plan_arena *pa, attu_bexpr *e, attu_error *err) {
    if (!e) return e;
    if (e->kind == BX_CASE) {
        /* only the first condition runs surely */
        for (int i = 0; i < e->nwhens; i++) e->whens[i] = fold(pa, e->whens[i], i ? NULL : err);
        return e;
    }
    if (e->kind != BX_CALL) return e;
    /* gen_random_uuid() and random() are volatile: a value per row, never
     * one folded */
    if ((e->op == ATTU_OP_UUID && e->aux == ATTU_UUID_RANDOM) || e->op == ATTU_OP_RANDOM) return e;
    /* the operands that run only on a condition (CASE's forms, COALESCE,
     * NULLIF, AND / OR's second) fail only at run time */
    bool cond = e->op == ATTU_OP_SELECT || e->op == ATTU_OP_COALESCE || e->op == ATTU_OP_AND || e->op == ATTU_OP_OR ||
                e->op == ATTU_OP_NULLIF_I || e->op == ATTU_OP_NULLIF_F || e->op == ATTU_OP_NULLIF_S ||
                e->op == ATTU_OP_NULLIF_N;
    for (int i = 0; i < e->nargs; i++) e->args[i] = fold(pa, e->args[i], cond && i > 0 ? NULL : err);
    if (err && err->set) return e;
    /* x AND FALSE is FALSE, x OR TRUE TRUE, whatever x: PostgreSQL's
     * planner simplifies them so, and never evaluates x (its subquery is
     * never run) */
    if ((e->op == ATTU_OP_AND || e->op == ATTU_OP_OR) && e->nargs == 2 && decided_by_const(e, e->op)) {
        attu_bexpr *k = attu_bx_new(pa, BX_CONST, e->type, e->position);
        if (!k) return e;
        k->i = e->op == ATTU_OP_OR;
        k->f = (double)k->i;
        return k;
    }
    if (e->type.id == ATTU_TYPE_UNKNOWN) return e;
    if (strict_op(e->op)) {
        /* a strict operator with a NULL constant operand is NULL, its other
         * operands never run (PostgreSQL folds it so: split_part(s, ' ', 0)
         * || NULL is NULL, not split_part's error) */
        for (int i = 0; i < e->nargs; i++)
            if (e->args[i]->kind == BX_CONST && e->args[i]->is_null) {
                attu_bexpr *c = attu_bx_new(pa, BX_CONST, e->type, e->position);
                if (!c) return e;
                c->is_null = true;
                return c;
            }
    }
    if (!all_const(e)) return e;
    /* uuid_in and byteain (their casts from text) and the bytea functions
     * but convert_from / convert_to (stable) are immutable too */
    bool immutable_bytes = e->op == ATTU_OP_UUID ||
                           (e->op == ATTU_OP_BYTEA && e->aux != ATTU_BY_CONVERT_FROM && e->aux != ATTU_BY_CONVERT_TO);
    return fold_call(pa, e, err && (plan_time_error_op(e->op) || immutable_bytes) ? err : NULL);
}

/* A call of constants as one constant, or the call when it does not fold. */
static __attribute__((noinline)) attu_bexpr *fold_call(attu_plan_arena *pa, attu_bexpr *e, attu_error *perr) {
    attu_stage_exprs ex;
    attu_error err;
    attu_error_clear(&err);
    if (attu_compile_exprs(&e, 1, 0, NULL, &ex, &err)) { attu_stage_exprs_free(&ex); return e; }
    attu_slot out;
    char text[4096];
    int rc = attu_program_eval_const(ex.prog, &out, text, sizeof text, &err);
    attu_stage_exprs_free(&ex);
    if (rc) {
        /* a data exception (22xxx: division by zero, out of range, a bad
         * field) is the query's, at plan time as PostgreSQL's; so are
         * unistr's bad escapes (42601). (Not attu's own limits, such as
         * repeat's 54000 below PostgreSQL's 1 GB.) */
        bool raised = !strncmp(err.sqlstate, "22", 2) ||
                      (e->op == ATTU_OP_UNISTR && !strcmp(err.sqlstate, ATTU_SQLSTATE_SYNTAX));
        if (perr && !perr->set && err.set && raised) *perr = err;
        return e;
    }
    if (attu_type_mclass(e->type.id) == ATTU_MC_TEXT && !out.null && out.len >= sizeof text - 1) return e;
    attu_bexpr *c = attu_bx_new(pa, BX_CONST, e->type, e->position);
    if (!c) return e;
    c->is_null = out.null;
    if (!out.null) {
        if (e->type.id == ATTU_TYPE_NUMERIC) {
            /* NUMERIC constants are kept as their canonical text */
            char buf[64];
            attu_numeric n = attu_numeric_unpack(out.v.s);
            int l = attu_numeric_format(n, buf, sizeof buf);
            if (!(c->s = attu_pstrdup(pa, buf, (size_t)l))) return e;
            c->slen = (size_t)l;
            return c;
        }
        switch (attu_type_mclass(e->type.id)) {
        case ATTU_MC_FLOAT: c->f = out.v.f; break;
        case ATTU_MC_TEXT: c->s = attu_pstrdup(pa, out.v.s, out.len); c->slen = out.len; if (!c->s) return e; break;
        default: c->i = out.v.i; c->f = (double)out.v.i; break;
        }
    }
    return c;
}

/* The planning error of an uncorrelated subquery that was deferred
 * (ATTU_OP_SUBQUERY_ERROR with aux 1: its plan folded a constant 1 / 0)
 * is PostgreSQL's error unless its planner, simplifying the enclosing
 * expression first, drops the part holding the subquery before planning
 * it: a CASE branch whose condition is a FALSE or NULL constant, the
 * branches after a TRUE one; COALESCE's arguments after a non-NULL
 * constant; AND's after a FALSE constant, OR's after a TRUE one. Sets err
 * from the first such error reached. */
static void plan_time_reach(const attu_bexpr *e, attu_error *err) {
    if (!e || !err || err->set) return;
    if (e->kind == BX_CASE) {
        for (int i = 0; i < e->nwhens; i++) {
            if (is_const_bool(e->whens[i], false)) continue;
            plan_time_reach(e->whens[i], err);
            plan_time_reach(e->thens[i], err);
            if (is_const_bool(e->whens[i], true)) return;
        }
        plan_time_reach(e->else_, err);
        return;
    }
    if (e->kind != BX_CALL) return;
    if (e->op == ATTU_OP_SUBQUERY_ERROR && e->aux == 1 && e->nargs == 1 && e->args[0]->kind == BX_CONST) {
        const attu_bexpr *k = e->args[0];
        char state[6] = "XX000";
        if (k->slen >= 5) memcpy(state, k->s, 5);
        attu_error_set(err, state, 0, "%.*s", k->slen >= 5 ? (int)(k->slen - 5) : 0, k->slen >= 5 ? k->s + 5 : "");
        return;
    }
    if (e->op == ATTU_OP_COALESCE && e->nargs == 2) {
        plan_time_reach(e->args[0], err);
        if (!(e->args[0]->kind == BX_CONST && !e->args[0]->is_null)) plan_time_reach(e->args[1], err);
        return;
    }
    /* AND / OR: one FALSE (TRUE) constant anywhere among the operands is
     * the whole condition, the others never planned */
    if ((e->op == ATTU_OP_AND || e->op == ATTU_OP_OR) && decided_by_const(e, e->op)) return;

    for (int i = 0; i < e->nargs; i++) plan_time_reach(e->args[i], err);
}

/* fold, then the deferred planning errors PostgreSQL would raise */
static attu_bexpr *fold_root(attu_plan_arena *pa, attu_bexpr *e, attu_error *err) {
    e = fold(pa, e, err);
    plan_time_reach(e, err);
    return e;
}

static void fold_plan(attu_plan_arena *pa, attu_lplan *p, attu_error *err) {
    if (!p) return;
    fold_plan(pa, p->left, err);
    fold_plan(pa, p->right, err);
    if (p->pred) p->pred = fold_root(pa, p->pred, err);
    if (p->residual) p->residual = fold_root(pa, p->residual, err);
    if (p->kind == LP_PROJECT) for (int i = 0; i < p->ncols; i++) p->exprs[i] = fold_root(pa, p->exprs[i], err);
    for (int i = 0; i < p->nkeys; i++) { p->lkeys[i] = fold_root(pa, p->lkeys[i], err); p->rkeys[i] = fold_root(pa, p->rkeys[i], err); }
    for (int i = 0; i < p->ngroups; i++) p->groups[i] = fold_root(pa, p->groups[i], err);
    for (int i = 0; i < p->naggs; i++) { p->aggs[i].arg = fold_root(pa, p->aggs[i].arg, err); p->aggs[i].arg2 = fold_root(pa, p->aggs[i].arg2, err); }
    for (int i = 0; i < p->nsrfs; i++) {
        p->srfs[i].start = fold_root(pa, p->srfs[i].start, err);
        p->srfs[i].stop = fold_root(pa, p->srfs[i].stop, err);
        p->srfs[i].step = fold_root(pa, p->srfs[i].step, err);
    }
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

/* An equality that can be a join key (NUMERIC ones too: join_keys makes
 * equal values of any display scale equal keys). */
static bool is_equi(const attu_bexpr *e) {
    return e->kind == BX_CALL && (e->op == ATTU_OP_EQ_I || e->op == ATTU_OP_EQ_F || e->op == ATTU_OP_EQ_S ||
                                  e->op == ATTU_OP_EQ_N);
}

/* Pushes the conjuncts of a filter (or an inner join's residual) sitting on
 * an inner/cross join into the join's sides and keys. Returns the node that
 * replaces p. */
static attu_lplan *pushdown(attu_plan_arena *pa, attu_lplan *p);
static attu_bexpr *remap(attu_plan_arena *pa, const attu_bexpr *e, const int *map);

/* Filter p over LEFT JOIN lj (directly, or through a projection that only
 * renumbers columns: map, NULL for none): its conjuncts that read the
 * preserved side alone filter that side before the join, as PostgreSQL
 * restricts it first (a key such as a / b is computed only for the rows
 * that pass them); the rest, in order, stay above. Returns p, or p's input
 * when every conjunct went down. */
static attu_lplan *push_preserved(attu_plan_arena *pa, attu_lplan *p, attu_lplan *lj, const int *map) {
    attu_bexpr *conj[256], *lv[256], *keep[256];
    int n = conjuncts(p->pred, conj, 0, 256), nlv = 0, nk = 0;
    if (n >= 256) return p;
    for (int i = 0; i < n; i++) {
        attu_bexpr *m = map ? remap(pa, conj[i], map) : conj[i];
        if (m && sides(m, lj->left->ncols) == 1) lv[nlv++] = m;
        else keep[nk++] = conj[i];
    }
    if (!nlv) return p;
    lj->left = pushdown(pa, wrap_filter(pa, lj->left, lv, nlv));
    if (!nk) return p->left;
    p->pred = and_all(pa, keep, nk);
    return p;
}

static attu_lplan *pushdown(attu_plan_arena *pa, attu_lplan *p) {
    if (!p) return p;
    p->left = pushdown(pa, p->left);
    p->right = pushdown(pa, p->right);
    attu_lplan *j = p->kind == LP_FILTER ? p->left : p;
    if (p->kind == LP_FILTER && j && j->kind == LP_JOIN && j->jk == JK_LEFT) return push_preserved(pa, p, j, NULL);
    /* a correlated or LATERAL subquery (APPLY) runs per binding of its
     * left rows: conditions on those alone filter them first, so it runs
     * only for the rows that pass, as PostgreSQL checks the quals of the
     * outer side before its nested loop or SubPlan runs (an error the
     * subquery raises for a row filtered out, such as a negative LIMIT
     * read from it, does not happen) */
    if (p->kind == LP_FILTER && j && j->kind == LP_APPLY) return push_preserved(pa, p, j, NULL);
    if (p->kind == LP_FILTER && j && j->kind == LP_PROJECT && j->left && j->left->kind == LP_JOIN &&
        j->left->jk == JK_LEFT && j->ncols <= 256) {
        /* a RIGHT JOIN: a LEFT JOIN under a projection that reorders its
         * columns; conditions on the preserved side go below it too */
        int map[256];
        for (int i = 0; i < j->ncols; i++) {
            if (j->exprs[i]->kind != BX_COL) return p;
            map[i] = j->exprs[i]->col;
        }
        return push_preserved(pa, p, j->left, map);
    }
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

/* ---- star-join ordering ------------------------------------------------------------------ */

/* A tree of inner / cross joins is flattened into its leaves and its
 * conjuncts (in the tree's own column order), then rebuilt left-deep:
 * start from the largest leaf (the fact table), then repeatedly join the
 * most selective leaf connected to what is joined by an equality, so no
 * dimension is ever crossed with another and each join shrinks the fact
 * rows as much as it can before the next. A leaf's selectivity is the
 * measured share of its table its filters keep (selectivity.c; an
 * unfiltered dimension keeps all of it and comes last); leaves that are not
 * filtered scans, and ties, go by estimated rows. A projection restores the
 * original column order. */

#define MAX_LEAVES 32
#define MAX_CONJ 256

typedef struct jflat {
    attu_lplan *leaf[MAX_LEAVES];
    int         off[MAX_LEAVES];
    int         nleaf;
    attu_bexpr *conj[MAX_CONJ];
    int         nconj;
    bool        overflow;
} jflat;

static bool is_inner(const attu_lplan *p) {
    return p && p->kind == LP_JOIN && (p->jk == JK_INNER || p->jk == JK_CROSS);
}

static attu_opcode eq_op(attu_type t) {
    attu_mclass mc = attu_type_mclass(t.id);
    return mc == ATTU_MC_FLOAT ? ATTU_OP_EQ_F : mc == ATTU_MC_TEXT ? ATTU_OP_EQ_S
         : t.id == ATTU_TYPE_NUMERIC ? ATTU_OP_EQ_N : ATTU_OP_EQ_I;
}

static void flatten(attu_plan_arena *pa, attu_lplan *p, int off, jflat *f) {
    if (!is_inner(p)) {
        if (f->nleaf == MAX_LEAVES) { f->overflow = true; return; }
        f->leaf[f->nleaf] = p;
        f->off[f->nleaf++] = off;
        return;
    }
    int nl = p->left->ncols;
    flatten(pa, p->left, off, f);
    flatten(pa, p->right, off + nl, f);
    for (int k = 0; k < p->nkeys; k++) {
        if (f->nconj == MAX_CONJ) { f->overflow = true; return; }
        attu_bexpr *e = attu_bx_new(pa, BX_CALL, attu_type_make(ATTU_TYPE_BOOL), 0);
        if (!e) { f->overflow = true; return; }
        e->op = eq_op(p->lkeys[k]->type);
        e->nargs = 2;
        e->args[0] = shift(pa, p->lkeys[k], off);
        e->args[1] = shift(pa, p->rkeys[k], off + nl);
        f->conj[f->nconj++] = e;
    }
    if (p->residual) {
        attu_bexpr *c[MAX_CONJ];
        int n = conjuncts(p->residual, c, 0, MAX_CONJ);
        for (int i = 0; i < n; i++) {
            if (f->nconj == MAX_CONJ) { f->overflow = true; return; }
            f->conj[f->nconj++] = shift(pa, c[i], off);
        }
    }
}

static int leaf_of(const jflat *f, int col) {
    for (int i = f->nleaf - 1; i >= 0; i--) if (col >= f->off[i]) return i;
    return 0;
}

static void leaves_used(const jflat *f, const attu_bexpr *e, uint64_t *mask) {
    if (!e) return;
    if (e->kind == BX_COL) { *mask |= 1ULL << leaf_of(f, e->col); return; }
    for (int i = 0; i < e->nargs; i++) leaves_used(f, e->args[i], mask);
    for (int i = 0; i < e->nwhens; i++) { leaves_used(f, e->whens[i], mask); leaves_used(f, e->thens[i], mask); }
    leaves_used(f, e->else_, mask);
}

/* copy with columns renumbered through map (old -> new) */
static attu_bexpr *remap(attu_plan_arena *pa, const attu_bexpr *e, const int *map) {
    if (!e) return NULL;
    attu_bexpr *x = attu_palloc(pa, sizeof *x);
    if (!x) return NULL;
    *x = *e;
    if (e->kind == BX_COL) { x->col = map[e->col]; return x; }
    for (int i = 0; i < e->nargs; i++) x->args[i] = remap(pa, e->args[i], map);
    if (e->kind == BX_CASE) {
        x->whens = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)e->nwhens);
        x->thens = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)e->nwhens);
        for (int i = 0; i < e->nwhens; i++) { x->whens[i] = remap(pa, e->whens[i], map); x->thens[i] = remap(pa, e->thens[i], map); }
        x->else_ = remap(pa, e->else_, map);
    }
    return x;
}

static attu_lplan *reorder(attu_plan_arena *pa, attu_lplan *p) {
    if (!p) return p;
    if (!is_inner(p)) {
        p->left = reorder(pa, p->left);
        p->right = reorder(pa, p->right);
        return p;
    }
    jflat *f = attu_palloc(pa, sizeof *f);
    if (!f) return p;
    flatten(pa, p, 0, f);
    for (int i = 0; i < f->nleaf; i++) f->leaf[i] = reorder(pa, f->leaf[i]);
    if (f->overflow || f->nleaf < 3) {
        /* small trees keep their shape (children already reordered) */
        if (!f->overflow) { p->left = reorder(pa, p->left); p->right = reorder(pa, p->right); }
        return p;
    }
    int total = p->ncols;
    uint64_t cmask[MAX_CONJ];
    for (int i = 0; i < f->nconj; i++) { cmask[i] = 0; leaves_used(f, f->conj[i], &cmask[i]); }
    bool applied[MAX_CONJ] = { false };
    int order[MAX_LEAVES], no = 0;
    uint64_t chosen = 0;
    int first = 0;
    for (int i = 1; i < f->nleaf; i++) if (f->leaf[i]->est_rows > f->leaf[first]->est_rows) first = i;
    order[no++] = first;
    chosen |= 1ULL << first;
    double sel[MAX_LEAVES];
    for (int i = 0; i < f->nleaf; i++) {
        sel[i] = attu_leaf_selectivity(f->leaf[i]);
        if (sel[i] < 0) sel[i] = 1.0;
    }
    while (no < f->nleaf) {
        int best = -1;
        bool best_conn = false;
        for (int i = 0; i < f->nleaf; i++) {
            if (chosen & (1ULL << i)) continue;
            bool conn = false;
            for (int k = 0; k < f->nconj && !conn; k++) {
                const attu_bexpr *e = f->conj[k];
                if (!is_equi(e)) continue;
                uint64_t a = 0, b = 0;
                leaves_used(f, e->args[0], &a);
                leaves_used(f, e->args[1], &b);
                uint64_t me = 1ULL << i;
                if ((a == me && b && !(b & ~chosen)) || (b == me && a && !(a & ~chosen))) conn = true;
            }
            bool better = best >= 0 && conn == best_conn &&
                          (sel[i] < sel[best] || (sel[i] == sel[best] && f->leaf[i]->est_rows < f->leaf[best]->est_rows));
            if (best < 0 || (conn && !best_conn) || better) {
                best = i;
                best_conn = conn;
            }
        }
        order[no++] = best;
        chosen |= 1ULL << best;
    }
    /* rebuild left-deep; map[] takes tree columns to current positions */
    int *map = attu_palloc(pa, sizeof(int) * (size_t)(total + 1));
    if (!map) return p;
    for (int c = 0; c < total; c++) map[c] = -1;
    attu_lplan *cur = f->leaf[order[0]];
    int curn = cur->ncols;
    for (int c = 0; c < cur->ncols; c++) map[f->off[order[0]] + c] = c;
    chosen = 1ULL << order[0];
    for (int s = 1; s < f->nleaf; s++) {
        int li = order[s];
        attu_lplan *r = f->leaf[li];
        uint64_t me = 1ULL << li, now = chosen | me;
        for (int c = 0; c < r->ncols; c++) map[f->off[li] + c] = curn + c;
        attu_lplan *j = attu_lp_new(pa, LP_JOIN, curn + r->ncols);
        if (!j) return p;
        j->left = cur; j->right = r;
        for (int c = 0; c < curn; c++) { j->types[c] = cur->types[c]; j->names[c] = cur->names[c]; }
        for (int c = 0; c < r->ncols; c++) { j->types[curn + c] = r->types[c]; j->names[curn + c] = r->names[c]; }
        j->lkeys = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)(f->nconj + 1));
        j->rkeys = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)(f->nconj + 1));
        attu_bexpr *rest[MAX_CONJ];
        int nrest = 0;
        for (int k = 0; k < f->nconj; k++) {
            if (applied[k] || (cmask[k] & ~now)) continue;
            applied[k] = true;
            const attu_bexpr *e = f->conj[k];
            if (is_equi(e)) {
                uint64_t a = 0, b = 0;
                leaves_used(f, e->args[0], &a);
                leaves_used(f, e->args[1], &b);
                if (a && b && !(a & me) && b == me) {
                    j->lkeys[j->nkeys] = remap(pa, e->args[0], map);
                    j->rkeys[j->nkeys++] = shift(pa, remap(pa, e->args[1], map), -curn);
                    continue;
                }
                if (a && b && !(b & me) && a == me) {
                    j->lkeys[j->nkeys] = remap(pa, e->args[1], map);
                    j->rkeys[j->nkeys++] = shift(pa, remap(pa, e->args[0], map), -curn);
                    continue;
                }
            }
            rest[nrest++] = remap(pa, e, map);
        }
        j->residual = and_all(pa, rest, nrest);
        j->jk = (j->nkeys || j->residual) ? JK_INNER : JK_CROSS;
        double lr = cur->est_rows, rr = r->est_rows;
        j->est_rows = j->jk == JK_CROSS ? lr * rr : (lr > rr ? lr : rr);
        cur = j;
        curn += r->ncols;
        chosen = now;
    }
    /* conjuncts that read no column (constants) */
    attu_bexpr *left_over[MAX_CONJ];
    int nlo = 0;
    for (int k = 0; k < f->nconj; k++) if (!applied[k]) left_over[nlo++] = remap(pa, f->conj[k], map);
    if (nlo) cur = wrap_filter(pa, cur, left_over, nlo);
    attu_lplan *pr = attu_lp_new(pa, LP_PROJECT, total);
    if (!pr) return p;
    pr->left = cur;
    pr->exprs = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)(total + 1));
    for (int c = 0; c < total; c++) {
        pr->exprs[c] = attu_bx_col(pa, map[c], p->types[c]);
        pr->types[c] = p->types[c];
        pr->names[c] = p->names[c];
    }
    pr->est_rows = cur->est_rows;
    return pr;
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
    /* lbs_segreduce evaluates its program per pair from the two sides'
     * columns: no parameters of a correlated subquery there */
    for (int i = 0; i < p->naggs; i++)
        if (attu_bx_reads_param(p->aggs[i].arg) || attu_bx_reads_param(p->aggs[i].arg2)) return;
    if (attu_bx_reads_param(j->residual)) return;
    for (int i = 0; i < p->naggs; i++)
        if (p->aggs[i].agg == AGG_AVG || p->aggs[i].agg == AGG_COUNT_DISTINCT || p->aggs[i].distinct ||
            (p->aggs[i].agg >= AGG_VAR_SAMP && p->aggs[i].agg <= AGG_BIT_XOR)) return;
    /* NUMERIC sums (of bigint, of numeric) stay on the grouped path, whose
     * reductions of 16-byte values the backends route to the host */
    for (int i = 0; i < p->naggs; i++)
        if (attu_type_is_wide(p->types[p->ngroups + i].id)) return;
    p->kind = LP_JOIN_AGG;
    p->est_rows = j->left->est_rows;
}

/* ---- top-k ---------------------------------------------------------------------------------- */

static void topk(attu_lplan *p) {
    if (!p) return;
    topk(p->left);
    topk(p->right);
    /* WITH TIES keeps rows past limit + offset (the last kept row's peers):
     * nothing below may stop at that count */
    if (p->kind == LP_LIMIT && p->with_ties) return;
    if (p->kind == LP_LIMIT && p->left && p->left->kind == LP_SORT && p->limit >= 0 && p->limit + p->offset <= 100000)
        p->left->topk_limit = p->limit + p->offset;
    if (p->kind == LP_LIMIT && p->limit_expr) {
        /* the same, with the counts known only per run (the LIMIT stage
         * tells it then) */
        attu_lplan *r = p->left;
        while (r && r->kind == LP_PROJECT) r = r->left;
        if (r && (r->kind == LP_RECURSIVE || (r->kind == LP_SRF && !r->srf_outer))) r->stop_per_run = true;
    }
    if (p->kind == LP_LIMIT && p->limit >= 0) {
        /* a recursive query read only through LIMIT (and projections) may
         * stop once it has the rows the limit keeps, as PostgreSQL's lazy
         * evaluation does (WITH RECURSIVE ... SELECT ... FROM r LIMIT n) */
        attu_lplan *r = p->left;
        while (r && r->kind == LP_PROJECT) r = r->left;
        if (r && r->kind == LP_RECURSIVE) r->topk_limit = p->limit + p->offset;
        /* so may generate_series (SELECT * FROM generate_series(1, 1e10)
         * LIMIT 3 is three rows, not 53200); not a LEFT JOIN's, whose ON
         * drops rows after the series are made */
        if (r && r->kind == LP_SRF && !r->srf_outer)
            r->topk_limit = p->offset > INT64_MAX - p->limit ? INT64_MAX : p->limit + p->offset;
    }
}

/* ---- sorted-input reuse -----------------------------------------------------------------
 * An ORDER BY sort (or top-k) whose input is already in the order it asks
 * for is dropped (ordering.h: the stable sort would be the identity, so the
 * rows are the same with or without it). A LIMIT above a dropped top-k
 * still cuts the rows. */

/* How many parents each node has: a node reached twice is shared and is
 * not reshaped in place. `failed` (OOM) counts every node as shared. */
typedef struct node_refs { const attu_lplan **node; int *count; int n, cap; bool failed; } node_refs;

static void count_refs(node_refs *r, const attu_lplan *p) {
    if (!p || r->failed) return;
    for (int i = 0; i < r->n; i++) if (r->node[i] == p) { r->count[i]++; return; }
    if (r->n == r->cap) {
        int cap = r->cap ? r->cap * 2 : 64;
        const attu_lplan **nn = realloc(r->node, sizeof *nn * (size_t)cap);
        if (nn) r->node = nn;
        int *nc = nn ? realloc(r->count, sizeof *nc * (size_t)cap) : NULL;
        if (nc) r->count = nc;
        if (!nn || !nc) { r->failed = true; return; }
        r->cap = cap;
    }
    r->node[r->n] = p;
    r->count[r->n++] = 1;
    count_refs(r, p->left);
    count_refs(r, p->right);
}

static bool shared(const node_refs *r, const attu_lplan *p) {
    if (r->failed) return true;
    for (int i = 0; i < r->n; i++) if (r->node[i] == p) return r->count[i] > 1;
    return true;
}

/* The sort's keys without those that are constant columns of the
 * projection below it (ORDER BY 'x' becomes such a column): they never
 * reorder rows. NULL on OOM. */
static attu_sort_item *effective_keys(attu_plan_arena *pa, const attu_lplan *sort, int *n) {
    attu_sort_item *k = attu_palloc(pa, sizeof *k * (size_t)(sort->nsort + 1));
    if (!k) return NULL;
    const attu_lplan *c = sort->left;
    *n = 0;
    for (int i = 0; i < sort->nsort; i++) {
        const attu_bexpr *e = sort->sort[i].expr;
        if (c->kind == LP_PROJECT && e->kind == BX_COL && e->col >= 0 && e->col < c->ncols && c->exprs[e->col]->kind == BX_CONST) continue;
        k[(*n)++] = sort->sort[i];
    }
    return k;
}

/* GROUP BY a, b ... ORDER BY b, a: the aggregate may sort its groups in any
 * key order, so when the ORDER BY keys (ascending, NULLs last, as the
 * aggregate sorts) are all group keys reached through projections and
 * filters (HAVING), the group keys are reordered to put them first and the
 * sort then finds its order ready. The rows are the same: the stable sort
 * by S over groups in key order G yields order S ++ G, exactly the new key
 * order (groups are distinct, so the order is total). Returns true when it
 * reordered. */
#define REORDER_CHAIN_MAX 16

static bool reorder_groups(attu_plan_arena *pa, attu_lplan *sort, const node_refs *refs) {
    attu_lplan *chain[REORDER_CHAIN_MAX];
    int nc = 0;
    attu_lplan *a = sort->left;
    while (a && (a->kind == LP_PROJECT || a->kind == LP_FILTER) && nc < REORDER_CHAIN_MAX) { chain[nc++] = a; a = a->left; }
    if (!a || a->kind != LP_AGG || a->ngroups < 2 || shared(refs, a)) return false;
    /* the lowest projection: the nodes from it down read the aggregate's
     * column layout and are rewritten; those above it do not change */
    int top = -1;
    for (int i = nc - 1; i >= 0 && top < 0; i--) if (chain[i]->kind == LP_PROJECT) top = i;
    if (top < 0) return false;
    for (int i = top; i < nc; i++) if (shared(refs, chain[i])) return false;
    int ng = a->ngroups, *want = attu_palloc(pa, sizeof(int) * (size_t)(ng + 1)), nw = 0;
    if (!want) return false;
    int nkeys;
    attu_sort_item *keys = effective_keys(pa, sort, &nkeys);
    if (!keys) return false;
    for (int i = 0; i < nkeys; i++) {
        const attu_bexpr *x = keys[i].expr;
        if (x->kind == BX_CONST) continue;
        bool dup = false;
        for (int k = 0; k < i && !dup; k++) dup = attu_bx_equal(keys[k].expr, x);
        if (dup) continue;
        if (keys[i].desc || keys[i].nulls_first) return false;
        for (int c = 0; c < nc; c++) {
            if (x->kind != BX_COL || x->col < 0 || x->col >= chain[c]->ncols) return false;
            if (chain[c]->kind == LP_PROJECT) x = chain[c]->exprs[x->col];
        }
        if (x->kind != BX_COL || x->col < 0 || x->col >= ng) return false;
        bool seen = false;
        for (int k = 0; k < nw && !seen; k++) seen = want[k] == x->col;
        if (!seen) want[nw++] = x->col;
    }
    bool prefix = true;
    for (int i = 0; i < nw; i++) if (want[i] != i) prefix = false;
    if (!nw || prefix) return false;
    /* to[old output column] = new column; the ORDER BY keys first, then
     * the other group keys in their order, aggregates unmoved */
    int *to = attu_palloc(pa, sizeof(int) * (size_t)(a->ncols + 1));
    int *from = attu_palloc(pa, sizeof(int) * (size_t)(a->ncols + 1));
    if (!to || !from) return false;
    for (int c = 0; c < a->ncols; c++) to[c] = -1;
    int next = 0;
    for (int i = 0; i < nw; i++) to[want[i]] = next++;
    for (int g = 0; g < ng; g++) if (to[g] < 0) to[g] = next++;
    for (int c = ng; c < a->ncols; c++) to[c] = c;
    for (int c = 0; c < a->ncols; c++) from[to[c]] = c;
    /* rebuild every expression reading the aggregate's layout before
     * changing anything, so a failure leaves the plan as it was */
    attu_bexpr **fresh[REORDER_CHAIN_MAX];
    for (int i = top; i < nc; i++) {
        attu_lplan *n = chain[i];
        int ne = n->kind == LP_PROJECT ? n->ncols : 1;
        fresh[i] = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)(ne + 1));
        if (!fresh[i]) return false;
        for (int k = 0; k < ne; k++) {
            const attu_bexpr *e = n->kind == LP_PROJECT ? n->exprs[k] : n->pred;
            if (!(fresh[i][k] = attu_remap_cols(pa, e, to, a->ncols))) return false;
        }
    }
    attu_bexpr **groups = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)(ng + 1));
    if (!groups) return false;
    for (int g = 0; g < ng; g++) groups[g] = a->groups[from[g]];
    /* the aggregate and the filters between it and the projection output
     * the new layout: their column types and names move with the columns */
    attu_lplan *relaid[REORDER_CHAIN_MAX + 1];
    attu_type *types[REORDER_CHAIN_MAX + 1];
    char **names[REORDER_CHAIN_MAX + 1];
    int nr = 0;
    relaid[nr++] = a;
    for (int i = top + 1; i < nc; i++) relaid[nr++] = chain[i];
    for (int r = 0; r < nr; r++) {
        attu_lplan *n = relaid[r];
        if (n->ncols != a->ncols) return false;
        types[r] = attu_palloc(pa, sizeof(attu_type) * (size_t)(n->ncols + 1));
        names[r] = attu_palloc(pa, sizeof(char *) * (size_t)(n->ncols + 1));
        if (!types[r] || !names[r]) return false;
        for (int c = 0; c < n->ncols; c++) { types[r][c] = n->types[from[c]]; names[r][c] = n->names[from[c]]; }
    }
    /* commit */
    for (int i = top; i < nc; i++) {
        attu_lplan *n = chain[i];
        if (n->kind == LP_PROJECT) memcpy(n->exprs, fresh[i], sizeof(attu_bexpr *) * (size_t)n->ncols);
        else n->pred = fresh[i][0];
    }
    for (int r = 0; r < nr; r++) {
        attu_lplan *n = relaid[r];
        n->types = types[r];
        n->names = names[r];
        if (n->rowid_col >= 0 && n->rowid_col < n->ncols) n->rowid_col = to[n->rowid_col];
    }
    memcpy(a->groups, groups, sizeof(attu_bexpr *) * (size_t)ng);
    return true;
}

static bool sort_satisfied(attu_plan_arena *pa, const attu_lplan *sort) {
    int n;
    attu_sort_item *keys = effective_keys(pa, sort, &n);
    if (!keys) return false;
    attu_ordering o;
    attu_plan_ordering(pa, sort->left, &o);
    return attu_ordering_satisfies(&o, keys, n);
}

static attu_lplan *reuse_sorts(attu_plan_arena *pa, attu_lplan *p, const node_refs *refs) {
    if (!p) return p;
    p->left = reuse_sorts(pa, p->left, refs);
    p->right = reuse_sorts(pa, p->right, refs);
    if (p->kind != LP_SORT) return p;
    if (sort_satisfied(pa, p)) return p->left;
    if (!reorder_groups(pa, p, refs)) return p;
    return sort_satisfied(pa, p) ? p->left : p;
}

static attu_lplan *reuse_sorted_inputs(attu_plan_arena *pa, attu_lplan *p) {
    node_refs refs = { 0 };
    count_refs(&refs, p);
    p = reuse_sorts(pa, p, &refs);
    free(refs.node);
    free(refs.count);
    return p;
}

/* Row estimates, recomputed bottom-up after the rewrites changed shapes. */
static double reestimate(attu_lplan *p) {
    if (!p) return 0;
    double l = reestimate(p->left), r = reestimate(p->right);
    switch (p->kind) {
    case LP_SCAN: p->est_rows = (double)p->table->nrows; break;
    case LP_VALUES: p->est_rows = p->nrows; break;
    case LP_FILTER: p->est_rows = l / 3; break;
    case LP_PROJECT: case LP_SORT: case LP_WINDOW: p->est_rows = l; break;
    case LP_DISTINCT: p->est_rows = l / 2; break;
    case LP_LIMIT: p->est_rows = p->limit >= 0 && (double)p->limit < l ? (double)p->limit : l; break;
    case LP_AGG: p->est_rows = p->ngroups ? (l > 100 ? l / 10 : l) : 1; break;
    case LP_JOIN_AGG: p->est_rows = p->left ? p->left->left->est_rows : l; break;
    case LP_JOIN:
        p->est_rows = p->jk == JK_CROSS ? l * r : p->jk == JK_SEMI || p->jk == JK_ANTI ? l / 2 : (l > r ? l : r);
        break;
    case LP_SETOP: p->est_rows = l + r; break;
    case LP_RECURSIVE: p->est_rows = l * 10; break;
    case LP_WORKTABLE: break;
    case LP_SHARED: p->est_rows = r; break;
    case LP_APPLY: p->est_rows = l; break;
    case LP_SRF: p->est_rows = l * p->srf_rows; break;
    }
    if (p->est_rows < 0) p->est_rows = 0;
    return p->est_rows;
}

attu_lplan *attu_rewrite(attu_plan_arena *pa, attu_lplan *p, attu_error *err) {
    fold_plan(pa, p, err);
    if (err && err->set) return NULL;
    p = pushdown(pa, p);
    p = reorder(pa, p);
    fuse(p);
    topk(p);
    if (attu_sort_reuse_enabled()) p = reuse_sorted_inputs(pa, p);
    reestimate(p);
    return p;
}
