/*
 * selectivity.h - how much of its base table a plan leaf keeps.
 *
 * The star-join ordering (rewrite.c) joins the fact table with its most
 * selective dimension first. A leaf's selectivity is measured, not guessed:
 * the simple conjuncts of the filters between the leaf and its table scan
 * (column OP constant, and AND / OR / NOT of those) are evaluated on a
 * strided sample of the table's host columns; any other conjunct counts 1/3.
 */
#ifndef ATTU_PLANNER_SELECTIVITY_H
#define ATTU_PLANNER_SELECTIVITY_H

#include "planner/logical_plan.h"

/* The estimated share (0, 1] of the base table's rows that `leaf` keeps,
 * for a leaf made of filters and projections over one table scan; -1 for
 * any other leaf (a join, an aggregate, VALUES ...). */
double attu_leaf_selectivity(const attu_lplan *leaf);

#endif
