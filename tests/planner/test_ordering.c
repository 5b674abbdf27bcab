/*
 * test_ordering.c - planner/ordering.c on hand-built logical plans: which
 * orders each node kind is known to produce, how projections carry them,
 * and when an ORDER BY is satisfied (prefix, direction, NULL placement,
 * keys that cannot be NULL, constant and repeated keys, a single row).
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "planner/ordering.h"

static attu_plan_arena *pa;

static void setup(void) { pa = attu_plan_arena_new(); cr_assert_not_null(pa); }
static void teardown(void) { attu_plan_arena_free(pa); unsetenv("ATTU_NO_SORT_REUSE"); }

static attu_type i32(void) { return attu_type_make(ATTU_TYPE_INT32); }
static attu_type i64(void) { return attu_type_make(ATTU_TYPE_INT64); }

static attu_bexpr *col(int c) { return attu_bx_col(pa, c, i32()); }

/* VALUES with n rows of ncols INT32 columns (values never read here) */
static attu_lplan *values(int ncols, int nrows) {
    attu_lplan *p = attu_lp_new(pa, LP_VALUES, ncols);
    for (int i = 0; i < ncols; i++) p->types[i] = i32();
    p->nrows = nrows;
    return p;
}

/* GROUP BY cols 0..ngroups-1 of child, plus one count(*) */
static attu_lplan *agg(attu_lplan *child, int ngroups) {
    attu_lplan *p = attu_lp_new(pa, LP_AGG, ngroups + 1);
    p->left = child;
    p->ngroups = ngroups;
    p->groups = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)(ngroups + 1));
    for (int i = 0; i < ngroups; i++) { p->groups[i] = col(i); p->types[i] = i32(); }
    p->naggs = 1;
    p->aggs = attu_palloc(pa, sizeof(attu_agg_spec));
    p->aggs[0].agg = AGG_COUNT_STAR;
    p->types[ngroups] = i64();
    return p;
}

/* output i = child column map[i] */
static attu_lplan *project(attu_lplan *child, const int *map, int n) {
    attu_lplan *p = attu_lp_new(pa, LP_PROJECT, n);
    p->left = child;
    p->exprs = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) { p->exprs[i] = attu_bx_col(pa, map[i], child->types[map[i]]); p->types[i] = child->types[map[i]]; }
    return p;
}

static attu_sort_item key(attu_bexpr *e, bool desc, bool nulls_first) {
    return (attu_sort_item){ e, desc, nulls_first, false };
}

static bool sat(const attu_lplan *p, const attu_sort_item *k, int n) {
    attu_ordering o;
    attu_plan_ordering(pa, p, &o);
    return attu_ordering_satisfies(&o, k, n);
}

Test(ordering, aggregate_orders_by_group_keys, .init = setup, .fini = teardown) {
    attu_lplan *a = agg(values(3, 5), 2);
    attu_ordering o;
    attu_plan_ordering(pa, a, &o);
    cr_assert_eq(o.n, 2);
    cr_assert(!o.one_row);
    attu_sort_item k[] = { key(col(0), false, false), key(col(1), false, false) };
    cr_assert(sat(a, k, 2));
    cr_assert(sat(a, k, 1), "a prefix");
    attu_sort_item swapped[] = { key(col(1), false, false), key(col(0), false, false) };
    cr_assert(!sat(a, swapped, 2), "the prefix the wrong way round");
    attu_sort_item desc[] = { key(col(0), true, true) };
    cr_assert(!sat(a, desc, 1), "DESC");
    attu_sort_item nf[] = { key(col(0), false, true) };
    cr_assert(!sat(a, nf, 1), "NULLS FIRST");
    attu_sort_item agg_col[] = { key(attu_bx_col(pa, 2, i64()), false, false) };
    cr_assert(!sat(a, agg_col, 1), "the aggregate's value");
    attu_sort_item more[] = { key(col(0), false, false), key(col(1), false, false), key(attu_bx_col(pa, 2, i64()), false, false) };
    cr_assert(!sat(a, more, 3), "a key beyond the known order");
}

Test(ordering, constant_and_repeated_keys_are_free, .init = setup, .fini = teardown) {
    attu_lplan *a = agg(values(2, 5), 2);
    attu_bexpr *c = attu_bx_new(pa, BX_CONST, i32(), 0);
    c->i = 7;
    attu_sort_item k[] = { key(c, true, false), key(col(0), false, false), key(col(0), true, true), key(col(1), false, false) };
    cr_assert(sat(a, k, 4));
}

Test(ordering, whole_table_aggregate_is_one_row, .init = setup, .fini = teardown) {
    attu_lplan *a = agg(values(2, 5), 0);
    attu_sort_item k[] = { key(attu_bx_col(pa, 0, i64()), true, false) };
    cr_assert(sat(a, k, 1));
    attu_lplan *lim = attu_lp_new(pa, LP_LIMIT, 2);
    lim->left = values(2, 9);
    lim->limit = 1;
    attu_sort_item k2[] = { key(col(1), true, true) };
    cr_assert(sat(lim, k2, 1), "LIMIT 1");
    lim->limit = 2;
    cr_assert(!sat(lim, k2, 1), "LIMIT 2 over unordered rows");
}

Test(ordering, projection_renames_and_cuts, .init = setup, .fini = teardown) {
    attu_lplan *a = agg(values(3, 5), 3);
    /* outputs: (count, g1, g0): the order (g0, g1, g2) becomes (col 2, col 1) */
    int map[] = { 3, 1, 0 };
    attu_lplan *p = project(a, map, 3);
    attu_ordering o;
    attu_plan_ordering(pa, p, &o);
    cr_assert_eq(o.n, 2, "cut at g2, which the projection drops");
    attu_sort_item k[] = { key(attu_bx_col(pa, 2, i32()), false, false), key(attu_bx_col(pa, 1, i32()), false, false) };
    cr_assert(sat(p, k, 2));
    attu_sort_item k2[] = { key(attu_bx_col(pa, 1, i32()), false, false) };
    cr_assert(!sat(p, k2, 1));
    /* a projection that drops g0 carries nothing */
    int map2[] = { 1, 2 };
    cr_assert(!sat(project(a, map2, 2), k2, 1));
}

Test(ordering, filter_window_limit_keep_order, .init = setup, .fini = teardown) {
    attu_lplan *a = agg(values(1, 5), 1);
    attu_lplan *f = attu_lp_new(pa, LP_FILTER, a->ncols);
    f->left = a;
    attu_lplan *w = attu_lp_new(pa, LP_WINDOW, a->ncols + 1);
    w->left = f;
    attu_lplan *l = attu_lp_new(pa, LP_LIMIT, w->ncols);
    l->left = w;
    l->limit = 10;
    attu_sort_item k[] = { key(col(0), false, false) };
    cr_assert(sat(f, k, 1));
    cr_assert(sat(w, k, 1));
    cr_assert(sat(l, k, 1));
}

Test(ordering, sort_then_its_input_order, .init = setup, .fini = teardown) {
    attu_lplan *a = agg(values(2, 5), 2);
    attu_lplan *s = attu_lp_new(pa, LP_SORT, a->ncols);
    s->left = a;
    s->nsort = 1;
    s->sort = attu_palloc(pa, sizeof(attu_sort_item));
    s->sort[0] = key(attu_bx_col(pa, 2, i64()), true, true);
    attu_sort_item k[] = { key(attu_bx_col(pa, 2, i64()), true, true), key(col(0), false, false), key(col(1), false, false) };
    cr_assert(sat(s, k, 3), "stable: ties keep the aggregate's order");
    attu_sort_item k2[] = { key(col(0), false, false) };
    cr_assert(!sat(s, k2, 1));
}

Test(ordering, distinct_and_set_operations, .init = setup, .fini = teardown) {
    attu_lplan *d = attu_lp_new(pa, LP_DISTINCT, 2);
    d->left = values(2, 5);
    d->types[0] = d->types[1] = i32();
    attu_sort_item k[] = { key(col(0), false, false), key(col(1), false, false) };
    cr_assert(sat(d, k, 2));
    attu_lplan *u = attu_lp_new(pa, LP_SETOP, 2);
    u->left = values(2, 3); u->right = values(2, 3);
    u->types[0] = u->types[1] = i32();
    u->setop = 1;
    cr_assert(sat(u, k, 2), "UNION");
    u->all = true;
    cr_assert(!sat(u, k, 1), "UNION ALL");
    u->setop = 3;
    cr_assert(sat(u, k, 2), "EXCEPT ALL");
}

static attu_lplan *join(attu_join_kind jk, attu_type kt) {
    attu_lplan *l = agg(values(1, 5), 1), *r = values(2, 4);
    l->types[0] = kt;
    l->groups[0]->type = kt;
    attu_lplan *j = attu_lp_new(pa, LP_JOIN, jk == JK_SEMI ? 2 : 4);
    j->left = l; j->right = r; j->jk = jk;
    j->nkeys = 1;
    j->lkeys = attu_palloc(pa, sizeof(attu_bexpr *));
    j->rkeys = attu_palloc(pa, sizeof(attu_bexpr *));
    j->lkeys[0] = attu_bx_col(pa, 0, kt);
    j->rkeys[0] = attu_bx_col(pa, 0, kt);
    return j;
}

Test(ordering, joins, .init = setup, .fini = teardown) {
    attu_sort_item asc[] = { key(col(0), false, false) };
    attu_sort_item nf[] = { key(col(0), false, true) };
    attu_sort_item desc[] = { key(col(0), true, false) };
    attu_lplan *j = join(JK_INNER, i32());
    /* inner joins come out in the larger side's row order (executor
     * inner_join_pairs), unknown at plan time */
    cr_assert(!sat(j, asc, 1), "an inner join promises no order");
    cr_assert(!sat(j, nf, 1));
    cr_assert(!sat(j, desc, 1));
    cr_assert(!sat(join(JK_LEFT, i32()), asc, 1), "LEFT appends unmatched rows");
    cr_assert(sat(join(JK_SEMI, i32()), asc, 1), "semi keeps the left order");
    attu_sort_item big[] = { key(attu_bx_col(pa, 0, i64()), false, false) };
    cr_assert(!sat(join(JK_INNER, i64()), big, 1), "a BIGINT key image may meet the NULL sentinel");
}

Test(ordering, switch_reads_the_environment, .init = setup, .fini = teardown) {
    unsetenv("ATTU_NO_SORT_REUSE");
    cr_assert(attu_sort_reuse_enabled());
    setenv("ATTU_NO_SORT_REUSE", "0", 1);
    cr_assert(attu_sort_reuse_enabled());
    setenv("ATTU_NO_SORT_REUSE", "1", 1);
    cr_assert(!attu_sort_reuse_enabled());
}
