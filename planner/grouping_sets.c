/*
 * grouping_sets.c - GROUP BY ROLLUP / CUBE / GROUPING SETS: expanding the
 * written items into the list of grouping sets, and binding GROUPING().
 *
 * The grammar leaves the items as expressions (ast.h group_sets). Here they
 * become "leaves" (each expression written, in order; the binder binds each
 * once and merges equal ones into one grouping item) and sets of leaves, as
 * PostgreSQL expands them (parse_agg.c expand_grouping_sets):
 *   ()                      one empty set
 *   a                       {a}; a row (a, b) is the set {a, b} (PostgreSQL
 *                           flattens a parenthesised list at the top level
 *                           too; a plain GROUP BY (a, b), without grouping
 *                           sets, groups by the row, which is the same)
 *   ROLLUP (u1, ..., un)    {u1..un}, {u1..un-1}, ..., {}
 *   CUBE (u1, ..., un)      every subset of the units
 *   GROUPING SETS (x, ...)  the sets of each x, one after the other (x is
 *                           an expression, a row (a, b) = the set {a, b},
 *                           (), ROLLUP, CUBE or GROUPING SETS)
 * where a unit is an expression or a row of them (its items together).
 * The items of one GROUP BY list multiply: GROUP BY a, ROLLUP (b) is
 * {a, b}, {a}. More than 4096 sets is PostgreSQL's 54001 (counted before
 * GROUP BY DISTINCT removes duplicates, which the binder does once equal
 * leaves are merged).
 *
 * The binder (binder.c, grouping_sets_plan) aggregates the FROM rows once
 * per set and concatenates the results.
 */
#include "planner/binder_internal.h"

#include <stdlib.h>
#include <string.h>


#define GSETS_MAX 4096

/* one list of sets under construction: set i is leaves[start[i] ..
 * start[i] + len[i]) of a shared pool */
typedef struct setlist {
    int  n, cap;
    int *start, *len;
} setlist;

typedef struct expander {
    bctx  *c;
    int   *pool;
    int    npool, cappool;
    attu_gsets *out;
    bool   too_many;
} expander;

static bool pool_reserve(expander *x, int more) {
    if (x->npool + more <= x->cappool) return true;
    int nc = x->cappool ? x->cappool : 64;
    while (nc < x->npool + more) nc *= 2;
    int *n = attu_palloc(x->c->pa, sizeof(int) * (size_t)nc);
    if (!n) { attu_error_oom(x->c->err); return false; }
    if (x->npool) memcpy(n, x->pool, sizeof(int) * (size_t)x->npool);
    x->pool = n; x->cappool = nc;
    return true;
}

static bool sl_push(expander *x, setlist *l, int start, int len) {
    if (l->n == l->cap) {
        int nc = l->cap ? l->cap * 2 : 8;
        int *s = attu_palloc(x->c->pa, sizeof(int) * (size_t)nc), *e = attu_palloc(x->c->pa, sizeof(int) * (size_t)nc);
        if (!s || !e) { attu_error_oom(x->c->err); return false; }
        if (l->n) { memcpy(s, l->start, sizeof(int) * (size_t)l->n); memcpy(e, l->len, sizeof(int) * (size_t)l->n); }
        l->start = s; l->len = e; l->cap = nc;
    }
    l->start[l->n] = start; l->len[l->n++] = len;
    return true;
}

/* a new leaf for expression e */
static int add_leaf(expander *x, const attu_ast_expr *e) {
    attu_gsets *g = x->out;
    if (g->nleaves == g->capleaves) {
        int nc = g->capleaves ? g->capleaves * 2 : 8;
        const attu_ast_expr **n = attu_palloc(x->c->pa, sizeof *n * (size_t)nc);
        if (!n) { attu_error_oom(x->c->err); return -1; }
        if (g->nleaves) memcpy(n, g->leaves, sizeof *n * (size_t)g->nleaves);
        g->leaves = n; g->capleaves = nc;
    }
    g->leaves[g->nleaves] = e;
    return g->nleaves++;
}

/* the leaves of one unit (an expression, or a row's items) appended to
 * the pool; *first / *count where they went */
static bool unit_leaves(expander *x, const attu_ast_expr *e, bool split_row, int *first, int *count) {
    int n = split_row && attu_is_row_constructor(e) ? e->u.func.args.n : 1;
    int *ids = attu_palloc(x->c->pa, sizeof(int) * (size_t)(n + 1));
    if (!ids) { attu_error_oom(x->c->err); return false; }
    for (int i = 0; i < n; i++)
        if ((ids[i] = add_leaf(x, n == 1 && !(split_row && attu_is_row_constructor(e)) ? e : e->u.func.args.items[i])) < 0) return false;
    if (!pool_reserve(x, n)) return false;
    *first = x->npool;
    if (n > 0) memcpy(x->pool + x->npool, ids, sizeof(int) * (size_t)n);
    x->npool += n;
    *count = n;
    return true;
}

/* a set that is the concatenation of the given ranges of the pool */
static bool push_concat(expander *x, setlist *out, const int *starts, const int *lens, int n) {
    int tot = 0;
    for (int i = 0; i < n; i++) tot += lens[i];
    if (!pool_reserve(x, tot)) return false;
    int at = x->npool;
    for (int i = 0; i < n; i++) {
        if (lens[i] > 0)  /* the pool is NULL while every set so far is () */
            memmove(x->pool + x->npool, x->pool + starts[i], sizeof(int) * (size_t)lens[i]);
        x->npool += lens[i];
    }
    return sl_push(x, out, at, tot);
}

static bool expand_item(expander *x, const attu_ast_expr *e, setlist *out);

/* ROLLUP / CUBE over the units of call e */
static bool expand_rollup_cube(expander *x, const attu_ast_expr *e, bool cube, setlist *out) {
    int n = e->u.func.args.n;
    int *us = attu_palloc(x->c->pa, sizeof(int) * (size_t)(n + 1)), *ul = attu_palloc(x->c->pa, sizeof(int) * (size_t)(n + 1));
    if (!us || !ul) { attu_error_oom(x->c->err); return false; }
    for (int i = 0; i < n; i++)
        if (!unit_leaves(x, e->u.func.args.items[i], true, &us[i], &ul[i])) return false;
    if (!cube) {
        for (int k = n; k >= 0; k--) if (!push_concat(x, out, us, ul, k)) return false;
        return true;
    }
    if (n > 12) {
        attu_error_set(x->c->err, "54011", e->position, "CUBE is limited to 12 elements");
        return false;
    }
    int *ss = attu_palloc(x->c->pa, sizeof(int) * (size_t)(n + 1)), *sl = attu_palloc(x->c->pa, sizeof(int) * (size_t)(n + 1));
    if (!ss || !sl) { attu_error_oom(x->c->err); return false; }
    /* the fullest set first, the empty one last, as PostgreSQL lists them */
    for (int m = (1 << n) - 1; m >= 0; m--) {
        int k = 0;
        for (int i = 0; i < n; i++) if (m & (1 << (n - 1 - i))) { ss[k] = us[i]; sl[k++] = ul[i]; }
        if (!push_concat(x, out, ss, sl, k)) return false;
    }
    return true;
}

static bool expand_item(expander *x, const attu_ast_expr *e, setlist *out) {
    char kind;
    if (!attu_ast_group_construct(e, &kind)) {
        int first, count;
        if (!unit_leaves(x, e, true, &first, &count)) return false;
        return sl_push(x, out, first, count);
    }
    switch (kind) {
    case 'e': return sl_push(x, out, x->npool, 0);
    case 'r': return expand_rollup_cube(x, e, false, out);
    case 'c': return expand_rollup_cube(x, e, true, out);
    default:
        for (int i = 0; i < e->u.func.args.n && !x->too_many; i++) {
            if (!expand_item(x, e->u.func.args.items[i], out)) return false;
            if (out->n > GSETS_MAX) x->too_many = true;
        }
        return true;
    }
}

bool attu_gsets_expand(bctx *c, const attu_ast_expr_list *items, attu_gsets *out) {
    memset(out, 0, sizeof *out);
    expander x = { .c = c, .out = out };
    setlist acc = { 0 };
    if (!sl_push(&x, &acc, 0, 0)) return false;    /* the product's unit: one empty set */
    for (int i = 0; i < items->n && !x.too_many; i++) {
        setlist one = { 0 };
        if (!expand_item(&x, items->items[i], &one)) return false;
        if (x.too_many || (long)acc.n * one.n > GSETS_MAX) { x.too_many = true; break; }
        setlist prod = { 0 };
        for (int a = 0; a < acc.n; a++)
            for (int b = 0; b < one.n; b++) {
                int st[2] = { acc.start[a], one.start[b] }, ln[2] = { acc.len[a], one.len[b] };
                if (!push_concat(&x, &prod, st, ln, 2)) return false;
            }
        acc = prod;
    }
    if (x.too_many) {
        /* (PostgreSQL reports it without a position) */
        attu_error_set(c->err, "54001", 0, "too many grouping sets present (maximum %d)", GSETS_MAX);
        return false;
    }
    out->nsets = acc.n;
    out->set_start = acc.start;
    out->set_len = acc.len;
    out->pool = x.pool;
    return true;
}

/* GROUPING(a, b, ...): an integer whose bit (n - 1 - i) is set in the rows
 * of a grouping set without argument i. Bound as an aggregate-like call
 * (BX_AGG, AGG_GROUPING, the arguments in part) that the binder's
 * aggregation rewrite resolves against the grouping items (42803 for an
 * argument that is none) and turns into a constant per set. */
attu_bexpr *attu_bind_grouping(bctx *c, const scope *sc, const attu_ast_expr *e) {
    int n = e->u.func.args.n;
    if (e->u.func.over || e->u.func.star || e->u.func.distinct || e->u.func.order_by.n || e->u.func.filter ||
        e->u.func.within_group || n == 0) {
        attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, e->position, "syntax error at or near \"grouping\"");
        return NULL;
    }
    /* in a subquery, GROUPING of an outer query's columns may stand where
     * this level takes none: decided once its arguments are bound */
    bool denied = !c->allow_agg;
    if (denied && !c->agg_level) {
        if (c->in_agg) attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, e->position, "aggregate function calls cannot be nested");
        else attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, e->position, "grouping operations are not allowed in %s", c->clause);
        return NULL;
    }
    if (n > 31) {
        attu_error_set(c->err, "54023", e->position, "GROUPING must have fewer than 32 arguments");
        return NULL;
    }
    attu_bexpr *x = attu_bx_new(c->pa, BX_AGG, attu_type_make(ATTU_TYPE_INT32), e->position);
    if (!x || !(x->part = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)n))) { attu_error_oom(c->err); return NULL; }
    x->agg = AGG_GROUPING;
    /* the arguments are grouped expressions, not aggregated ones: an
     * aggregate among them is nested, as PostgreSQL says */
    bool sa = c->allow_agg, sw = c->allow_window, si = c->in_agg;
    c->allow_agg = false; c->allow_window = false; c->in_agg = true;
    for (int i = 0; i < n; i++) {
        attu_bexpr *a = bind_expr(c, sc, e->u.func.args.items[i]);
        if (a && !(a = resolve_unknown(c, a))) a = NULL;
        if (!a) { c->allow_agg = sa; c->allow_window = sw; c->in_agg = si; return NULL; }
        if (!a->position) a->position = e->u.func.args.items[i]->position;
        x->part[i] = a;
    }
    c->allow_agg = sa; c->allow_window = sw; c->in_agg = si;
    x->npart = n;
    return attu_bind_grouping_level(c, x, denied);
}
