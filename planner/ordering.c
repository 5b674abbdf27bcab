/*
 * ordering.c - deriving the known row order of a plan node (ordering.h).
 *
 * Each rule below states what it relies on in the executor
 * (engine/executor.c, engine/executor_ops.c) and the backend contract
 * (engine/backend.h: sorts are stable on both backends; compact keeps row
 * order). If one of those stages changes how it orders its output, its
 * rule here must change with it; tests/db/test_sort_reuse.c compares every
 * reused order with the sorted result and would show the difference.
 *
 * Orderings are "non-decreasing under the same comparator the executor's
 * sort uses" (backend key_cmp: NULLs by placement, then the value in the
 * column's own type, TEXT by its sorted dictionary's codes). A later sort
 * by a prefix of such an ordering is therefore the identity.
 */
#include "planner/ordering.h"

#include <stdlib.h>
#include <string.h>

bool attu_sort_reuse_enabled(void) {
    const char *v = getenv("ATTU_NO_SORT_REUSE");
    return !v || !*v || strcmp(v, "0") == 0;
}

static void add(attu_ordering *o, attu_bexpr *e, bool desc, bool nulls_first, bool not_null) {
    if (!e || o->n >= ATTU_ORDERING_MAX) return;
    o->items[o->n++] = (attu_order_item){ e, desc, nulls_first, not_null };
}

/* Keeps the items of `in` that `map` can carry, up to the first it cannot
 * (a prefix of an ordering is an ordering; what follows a gap is not). */
typedef attu_bexpr *(*map_fn)(attu_plan_arena *pa, const void *ctx, const attu_bexpr *e);

static void carry(attu_plan_arena *pa, const attu_ordering *in, map_fn map, const void *ctx, attu_ordering *out) {
    out->one_row = in->one_row;
    for (int i = 0; i < in->n; i++) {
        attu_bexpr *e = map(pa, ctx, in->items[i].expr);
        if (!e) break;
        add(out, e, in->items[i].desc, in->items[i].nulls_first, in->items[i].not_null);
    }
}

/* A copy of e with its columns renumbered by col_map (n entries; -1 = not
 * carried, which makes the whole expression uncarried). Only scalar
 * expressions are rebuilt; aggregates and windows never appear in orders. */
typedef struct col_map { const int *to; int n; } col_map;

static attu_bexpr *remap_cols(attu_plan_arena *pa, const void *ctx, const attu_bexpr *e) {
    const col_map *m = ctx;
    if (!e) return NULL;
    switch (e->kind) {
    case BX_CONST: return (attu_bexpr *)e;
    case BX_COL: {
        if (e->col < 0 || e->col >= m->n || m->to[e->col] < 0) return NULL;
        attu_bexpr *c = attu_bx_col(pa, m->to[e->col], e->type);
        return c;
    }
    case BX_CALL: case BX_CASE: {
        attu_bexpr *x = attu_palloc(pa, sizeof *x);
        if (!x) return NULL;
        *x = *e;
        for (int i = 0; i < e->nargs; i++) if (!(x->args[i] = remap_cols(pa, ctx, e->args[i]))) return NULL;
        if (e->kind == BX_CASE) {
            x->whens = attu_palloc(pa, sizeof *x->whens * (size_t)(e->nwhens + 1));
            x->thens = attu_palloc(pa, sizeof *x->thens * (size_t)(e->nwhens + 1));
            if (!x->whens || !x->thens) return NULL;
            for (int i = 0; i < e->nwhens; i++)
                if (!(x->whens[i] = remap_cols(pa, ctx, e->whens[i])) || !(x->thens[i] = remap_cols(pa, ctx, e->thens[i]))) return NULL;
            if (e->else_ && !(x->else_ = remap_cols(pa, ctx, e->else_))) return NULL;
        }
        return x;
    }
    default: return NULL;
    }
}

attu_bexpr *attu_through_project(attu_plan_arena *pa, const attu_lplan *p, const attu_bexpr *e) {
    if (!e) return NULL;
    /* an output computing exactly e (a passed-through column, or the same
     * expression evaluated here) carries its values */
    for (int j = 0; j < p->ncols; j++)
        if (attu_bx_equal(p->exprs[j], e)) return attu_bx_col(pa, j, p->types[j]);
    switch (e->kind) {
    case BX_CONST: return (attu_bexpr *)e;
    case BX_CALL: case BX_CASE: {
        /* rebuilt over outputs: f(a) is carried when a is */
        attu_bexpr *x = attu_palloc(pa, sizeof *x);
        if (!x) return NULL;
        *x = *e;
        for (int i = 0; i < e->nargs; i++) if (!(x->args[i] = attu_through_project(pa, p, e->args[i]))) return NULL;
        if (e->kind == BX_CASE) {
            x->whens = attu_palloc(pa, sizeof *x->whens * (size_t)(e->nwhens + 1));
            x->thens = attu_palloc(pa, sizeof *x->thens * (size_t)(e->nwhens + 1));
            if (!x->whens || !x->thens) return NULL;
            for (int i = 0; i < e->nwhens; i++)
                if (!(x->whens[i] = attu_through_project(pa, p, e->whens[i])) ||
                    !(x->thens[i] = attu_through_project(pa, p, e->thens[i]))) return NULL;
            if (e->else_ && !(x->else_ = attu_through_project(pa, p, e->else_))) return NULL;
        }
        return x;
    }
    default: return NULL;   /* a column the projection drops */
    }
}

attu_bexpr *attu_remap_cols(attu_plan_arena *pa, const attu_bexpr *e, const int *to, int n) {
    col_map m = { to, n };
    return remap_cols(pa, &m, e);
}

static attu_bexpr *through_project(attu_plan_arena *pa, const void *ctx, const attu_bexpr *e) {
    return attu_through_project(pa, ctx, e);
}

static void all_columns(attu_plan_arena *pa, const attu_lplan *p, attu_ordering *out) {
    for (int i = 0; i < p->ncols; i++) add(out, attu_bx_col(pa, i, p->types[i]), false, false, false);
}

void attu_plan_ordering(attu_plan_arena *pa, const attu_lplan *p, attu_ordering *out) {
    memset(out, 0, sizeof *out);
    if (!p) return;
    attu_ordering in;
    switch (p->kind) {
    case LP_SCAN:
        /* run_scan: rows in table order; the rowid pseudo-column is their
         * position (iota), so ascending and never NULL */
        for (int i = 0; i < p->ncols; i++)
            if (p->cols[i] == p->table->ncols) { add(out, attu_bx_col(pa, i, p->types[i]), false, false, true); break; }
        return;
    case LP_VALUES:
        out->one_row = p->nrows <= 1;
        return;
    case LP_FILTER:
        /* compact returns the kept positions ascending; the gather keeps
         * them (a check passes its input through) */
    case LP_WINDOW:
        /* run_window: output = the input columns, rows unmoved, then the
         * window values scattered to their rows */
        attu_plan_ordering(pa, p->left, out);
        return;
    case LP_LIMIT:
        /* a gather of a contiguous range */
        attu_plan_ordering(pa, p->left, out);
        if (p->limit >= 0 && p->limit <= 1 && !p->with_ties) out->one_row = true;   /* ties: more rows */
        return;
    case LP_PROJECT:
        attu_plan_ordering(pa, p->left, &in);
        carry(pa, &in, through_project, p, out);
        return;
    case LP_SORT:
        /* run_sort (sort or top_k, both stable): by the keys, ties in input
         * order, so the input's ordering follows the keys */
        for (int i = 0; i < p->nsort; i++) add(out, p->sort[i].expr, p->sort[i].desc, p->sort[i].nulls_first, false);
        attu_plan_ordering(pa, p->left, &in);
        for (int i = 0; i < in.n; i++) add(out, in.items[i].expr, in.items[i].desc, in.items[i].nulls_first, in.items[i].not_null);
        out->one_row = in.one_row;
        return;
    case LP_AGG:
        /* run_agg: rows sorted by the group keys (ascending, NULLs last,
         * the zero-initialized sort keys), one output row per segment head
         * in that order; no keys: one row */
        if (!p->ngroups) { out->one_row = true; return; }
        for (int i = 0; i < p->ngroups; i++) add(out, attu_bx_col(pa, i, p->types[i]), false, false, false);
        return;
    case LP_DISTINCT:
        /* rel_distinct: sort by every column ascending NULLs last, heads
         * gathered in sorted order; one comparing its first setop_ncmp
         * columns (keys the binder projects away) is claimed to have none */
        if (!p->setop_ncmp) all_columns(pa, p, out);
        return;
    case LP_SETOP:
        /* run_setop: UNION ALL concatenates (no order); UNION is
         * rel_distinct of the concatenation; INTERSECT / EXCEPT keep rows
         * of groups walked in sort order of every column; one comparing
         * only its first setop_ncmp columns (keys, not shown: the binder
         * projects above it) is claimed to have no order */
        if (!(p->setop == 1 && p->all) && !p->setop_ncmp) all_columns(pa, p, out);
        return;
    case LP_JOIN: {
        if (p->jk == JK_SEMI || p->jk == JK_ANTI) {
            /* filter_by_mask over the left rows */
            attu_plan_ordering(pa, p->left, out);
            return;
        }
        if (p->jk == JK_CROSS || (p->jk == JK_INNER && p->nkeys == 0)) {
            /* run_cross: pair k is (left k / nr, right k % nr): left-major;
             * a residual becomes a filter above */
            attu_plan_ordering(pa, p->left, out);
            return;
        }
        /* run_join (INNER, LEFT, FULL): the pairs come out in the row order
         * of whichever side is larger at run time (inner_join_pairs sorts
         * only the smaller side), so no order is known here; LEFT / FULL
         * also append unmatched rows. */
        return;
    }
    case LP_JOIN_AGG: {
        /* run_join_agg: one output row per left row, in left order; output
         * column i is left column groups[i]->col */
        const attu_lplan *j = p->left;
        int nl = j->left->ncols;
        int *to = attu_palloc(pa, sizeof(int) * (size_t)(nl + 1));
        if (!to) return;
        for (int c = 0; c < nl; c++) to[c] = -1;
        for (int i = 0; i < p->ngroups; i++)
            if (p->groups[i]->kind == BX_COL && p->groups[i]->col < nl && to[p->groups[i]->col] < 0) to[p->groups[i]->col] = i;
        col_map m = { to, nl };
        attu_plan_ordering(pa, j->left, &in);
        carry(pa, &in, remap_cols, &m, out);
        return;
    }
    case LP_RECURSIVE: case LP_WORKTABLE: case LP_SHARED:
        return;
    case LP_SRF:
        /* run_srf: each left row's series rows in a run, left rows in
         * their order: the left columns keep their ordering, but one left
         * row may become many */
        attu_plan_ordering(pa, p->left, out);
        out->one_row = false;
        return;
    case LP_APPLY:
        /* run_apply: the left rows in their order, columns appended
         * (LATERAL: a left row may become many, or none) */
        attu_plan_ordering(pa, p->left, out);
        if (p->all) out->one_row = false;
        return;
    }
}

/* An ordering item that cannot order rows beyond the items before it. */
static bool redundant(const attu_ordering *o, int j) {
    if (o->items[j].expr->kind == BX_CONST) return true;
    for (int k = 0; k < j; k++) if (attu_bx_equal(o->items[k].expr, o->items[j].expr)) return true;
    return false;
}

bool attu_ordering_satisfies(const attu_ordering *o, const attu_sort_item *sort, int n) {
    if (o->one_row) return true;
    int j = 0;
    for (int i = 0; i < n; i++) {
        const attu_bexpr *e = sort[i].expr;
        /* a constant key or a repeated one never reorders anything */
        if (e->kind == BX_CONST) continue;
        bool dup = false;
        for (int k = 0; k < i && !dup; k++) dup = attu_bx_equal(sort[k].expr, e);
        if (dup) continue;
        while (j < o->n && redundant(o, j)) j++;
        if (j >= o->n) return false;
        const attu_order_item *it = &o->items[j++];
        if (!attu_bx_equal(it->expr, e) || it->desc != sort[i].desc) return false;
        if (!it->not_null && it->nulls_first != sort[i].nulls_first) return false;
    }
    return true;
}
