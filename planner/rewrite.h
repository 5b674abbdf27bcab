/*
 * rewrite.h - logical plan rewrites, applied in order by attu_rewrite:
 *   1. constant folding (constant subexpressions evaluated once, here)
 *   2. predicate pushdown: WHERE conjuncts over a join move to the side they
 *      read, and equalities between the sides become join keys (so comma
 *      joins become equi-joins)
 *   3. join-aggregate fusion: an aggregate grouped by the left row of an
 *      equi-join (the left rowid among its keys) becomes one JOIN_AGG,
 *      lowered to lbs_segreduce: the join is never materialized
 *   4. top-k: LIMIT over ORDER BY keeps only limit + offset rows
 *   5. sorted-input reuse: an ORDER BY whose input already comes in that
 *      order (from a grouped aggregate, DISTINCT, a sorting set operation,
 *      an equi-join's keys, an earlier sort; see ordering.h) is dropped;
 *      a GROUP BY whose keys an ORDER BY lists (ascending, NULLs last) has
 *      its keys reordered to match first. ATTU_NO_SORT_REUSE=1 turns it off.
 */
#ifndef ATTU_PLANNER_REWRITE_H
#define ATTU_PLANNER_REWRITE_H

#include "planner/logical_plan.h"

attu_lplan *attu_rewrite(attu_plan_arena *pa, attu_lplan *p, attu_error *err);

#endif
