/*
 * ordering.h - the row order a logical plan node's output is known to have.
 *
 * An ordering is a list of sort items over the node's OUTPUT columns: the
 * rows come out sorted by item 0, ties by item 1, and so on. It is derived
 * bottom-up from the stages that produce order (see ordering.c for the
 * executor behaviour each rule relies on): a sort or top-k, the grouped
 * aggregate (rows come out by group keys), DISTINCT and the sorting set
 * operations, an equi-join's keys, and a scan's rowid. Filters, limits,
 * windows and projections keep their input's order (renamed through the
 * projection's expressions).
 *
 * The sorted-input reuse rewrite (rewrite.c) drops an ORDER BY sort whose
 * input ordering already satisfies it. Because every sort in the executor
 * is stable and compares values exactly as the producing stage did, a sort
 * of rows that are already in its order is the identity permutation: the
 * result with the sort dropped is identical, row for row, to the result
 * with it (the tests compare both, with ATTU_NO_SORT_REUSE set).
 */
#ifndef ATTU_PLANNER_ORDERING_H
#define ATTU_PLANNER_ORDERING_H

#include <stdbool.h>

#include "planner/logical_plan.h"

/* The most items an ordering keeps (longer orders are cut: a prefix of an
 * ordering is still an ordering). */
#define ATTU_ORDERING_MAX 16

typedef struct attu_order_item {
    attu_bexpr *expr;       /* over the node's output columns */
    bool        desc;
    bool        nulls_first;
    bool        not_null;   /* the expression is never NULL here: either
                               NULL placement is satisfied */
} attu_order_item;

typedef struct attu_ordering {
    int             n;
    attu_order_item items[ATTU_ORDERING_MAX];
    bool            one_row;    /* at most one row: every order holds */
} attu_ordering;

/* The known ordering of p's output (n == 0: none known). Expressions it
 * builds come from pa; on OOM the ordering is just shorter. */
void attu_plan_ordering(attu_plan_arena *pa, const attu_lplan *p, attu_ordering *out);

/* True when rows in ordering o are already sorted as ORDER BY sort[0..n)
 * asks (sort items over the same columns as o): after dropping constant
 * keys and keys repeating an earlier one, the requested keys are a prefix
 * of o with the same expression, direction and NULL placement. */
bool attu_ordering_satisfies(const attu_ordering *o, const attu_sort_item *sort, int n);

/* Sorted-input reuse is on unless the environment variable
 * ATTU_NO_SORT_REUSE is set to anything but "" or "0" (read here only, at
 * each rewrite: tests compare plans and results with it on and off). */
bool attu_sort_reuse_enabled(void);

/* e (over the input of projection p) as the same values over p's output:
 * an output column equal to e, or e rebuilt over passed-through columns;
 * NULL when p does not carry it. */
attu_bexpr *attu_through_project(attu_plan_arena *pa, const attu_lplan *p, const attu_bexpr *e);

/* A copy of e with column c renumbered to to[c] (n entries); NULL when e
 * reads a column mapped to -1 or is not a scalar expression (or on OOM). */
attu_bexpr *attu_remap_cols(attu_plan_arena *pa, const attu_bexpr *e, const int *to, int n);

#endif
