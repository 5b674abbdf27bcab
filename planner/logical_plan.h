/*
 * logical_plan.h - bound expressions and the logical plan.
 *
 * The binder (binder.c) turns the AST into this tree: every name resolved to
 * a column position of the operator's input, every type known, every
 * implicit cast explicit. Rewrites (rewrite.c) reshape it; lowering
 * (lower.c) turns it into the stage plan the executor runs.
 *
 * Column references (BX_COL) index the input of the node holding the
 * expression: for a JOIN's residual, left columns then right columns; for a
 * PROJECT, its child's columns. All memory comes from one plan arena.
 */
#ifndef ATTU_PLANNER_LOGICAL_PLAN_H
#define ATTU_PLANNER_LOGICAL_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/backend.h"
#include "engine/expr_program.h"
#include "engine/table.h"
#include "engine/types.h"

/* ---- arena ----------------------------------------------------------------- */

typedef struct attu_plan_arena attu_plan_arena;
attu_plan_arena *attu_plan_arena_new(void);
void attu_plan_arena_free(attu_plan_arena *a);
void *attu_palloc(attu_plan_arena *a, size_t n);      /* zeroed; NULL on OOM */
char *attu_pstrdup(attu_plan_arena *a, const char *s, size_t n);
/* Calls fn(arg) when the arena is freed (what a plan points into and the
 * arena does not own: a view's parsed query, a system relation's text). -1 when out of memory, and
 * fn(arg) is called at once. */
int attu_plan_arena_on_free(attu_plan_arena *a, void (*fn)(void *), void *arg);

/* ---- bound expressions --------------------------------------------------- */

typedef enum attu_bexpr_kind {
    BX_CONST = 1,   /* value in i / f / s (per type's machine class), or NULL */
    BX_COL,         /* input column `col` */
    BX_CALL,        /* opcode `op` over args */
    BX_CASE,        /* searched CASE: whens/thens/else */
    BX_AGG,         /* aggregate call (only before the aggregate is extracted) */
    BX_WINDOW,      /* window call (only before extraction) */
    BX_PARAM,       /* parameter `col` of an enclosing LP_APPLY: the outer
                       row's value that a correlated subquery reads, set
                       for each evaluation of the subquery (a constant
                       within one) */
    BX_SRF          /* a set-returning function of the select list
                       (generate_series) over args[0..2] (start, stop,
                       step; the timestamp form's constant interval step
                       in aux (months), i (days) and imm (microseconds),
                       args[2] NULL): only while binding;
                       planner/srf.c moves it into an LP_SRF node and
                       leaves a column reference in its place */
} attu_bexpr_kind;

typedef enum attu_agg_kind {
    AGG_COUNT_STAR = 1, AGG_COUNT, AGG_SUM, AGG_AVG, AGG_MIN, AGG_MAX,
    AGG_NTH_SMALLEST, AGG_NTH_SMALLEST_ARG, AGG_NTH_LARGEST, AGG_NTH_LARGEST_ARG,
    /* count(DISTINCT args[0]); with order items (no SQL spells it: the
     * hypothetical dense_rank's, planner/ordered_set_agg.c) the distinct
     * tuples (args[0], order[0].expr, ...) among the rows where args[0]
     * is not NULL, NULL items peers of each other, as the sort has them */
    AGG_COUNT_DISTINCT,
    AGG_VAR_SAMP, AGG_VAR_POP, AGG_STDDEV_SAMP, AGG_STDDEV_POP,   /* variance / stddev family */
    /* the ordered-set aggregates, agg(fraction) WITHIN GROUP (ORDER BY
     * value) (planner/ordered_set_agg.c): args[0] the value (float8 or
     * interval for percentile_cont), args[1] the fraction (float8; none for mode), the
     * WITHIN GROUP item in norder (1) / order */
    AGG_PERCENTILE_CONT, AGG_PERCENTILE_DISC, AGG_MODE,
    AGG_STRING_AGG,     /* string_agg(value, separator [ORDER BY ...]): order in norder / order */
    /* corr(Y, X), covar_pop / _samp and the regr_* aggregates: args[0] Y
     * and args[1] X (float8), imm the attu_regr_kind (engine/regr_accum.h) */
    AGG_REGR,
    AGG_BIT_AND, AGG_BIT_OR, AGG_BIT_XOR,   /* of smallint / integer / bigint */
    /* GROUPING(args) (planner/grouping_sets.c): only while binding, the
     * arguments in part / npart; a constant of each grouping set after */
    AGG_GROUPING,
    /* window-only */
    WIN_ROW_NUMBER, WIN_RANK, WIN_DENSE_RANK, WIN_LAG, WIN_LEAD, WIN_FIRST_VALUE, WIN_LAST_VALUE,
    WIN_NTILE, WIN_PERCENT_RANK, WIN_CUME_DIST,
    WIN_NTH_VALUE       /* nth_value(value, n): args[1] the integer n, per row */
} attu_agg_kind;

typedef struct attu_bexpr attu_bexpr;

typedef struct attu_sort_item {
    attu_bexpr *expr;
    bool        desc;
    bool        nulls_first;
    /* an aggregate's order attu adds where PostgreSQL's result has one
     * without an ORDER BY written (array_agg(DISTINCT x) comes sorted:
     * functions.c distinct_sorted); beside another aggregate's written
     * order it yields (executor_ops.c) instead of being refused */
    bool        implied;
} attu_sort_item;

struct attu_bexpr {
    attu_bexpr_kind kind;
    attu_type       type;
    int             position;
    /* BX_CONST */
    bool            is_null;
    int64_t         i;
    double          f;
    char           *s;
    size_t          slen;
    /* BX_COL */
    int             col;
    /* BX_CALL */
    attu_opcode     op;
    attu_bexpr     *args[4];
    int             nargs;
    int             aux;
    int64_t         imm;
    /* BX_CASE */
    int             nwhens;
    attu_bexpr    **whens, **thens;
    attu_bexpr     *else_;
    /* BX_AGG / BX_WINDOW: agg(args[0], args[1]) with k in imm */
    attu_agg_kind   agg;
    int             npart;
    attu_bexpr    **part;
    int             norder;
    attu_sort_item *order;
    /* BX_WINDOW with aux 3 (ROWS) or 4 (RANGE): the frame's start [0] and
     * end [1] as attu_win_bound values, offsets for PRECEDING / FOLLOWING */
    int8_t          frame_kind[2];
    int64_t         frame_off[2];
    double          frame_offf[2];   /* RANGE over a float key: the offsets */
    int8_t          frame_off_scale[2]; /* RANGE over a DECIMAL / NUMERIC key: frame_off is
                                           the offset times 10^frame_off_scale */
    int32_t         frame_off_months[2], frame_off_days[2]; /* RANGE over a date / timestamp
                                           key: the interval offset's months and days (its
                                           microseconds in frame_off) */
    int32_t         frame_off_zone;  /* and a timestamptz key's session zone (attu_tz_id) */
    int8_t          frame_excl;      /* EXCLUDE: 0 no others, 1 current row, 2 group, 3 ties */
    /* BX_AGG of a hypothetical-set aggregate (ordered_set_agg.c): its direct
     * arguments, which may read only grouped columns (binder.c's agg_rewrite) */
    attu_bexpr    **direct;
    int             ndirect;
};

/* ---- plan nodes ----------------------------------------------------------- */

typedef enum attu_lp_kind {
    LP_SCAN = 1, LP_VALUES, LP_FILTER, LP_PROJECT, LP_JOIN, LP_AGG, LP_WINDOW,
    LP_SORT, LP_LIMIT, LP_DISTINCT, LP_SETOP,
    LP_JOIN_AGG,    /* fused: a join feeding an aggregate grouped by the left row */
    LP_RECURSIVE,   /* WITH RECURSIVE: left the non-recursive term, right the recursive one */
    LP_WORKTABLE,   /* inside LP_RECURSIVE's right: the rows of the previous iteration */
    LP_SRF,         /* set-returning functions over each left row, in
                       lockstep (PostgreSQL's ProjectSet, and a function in
                       FROM over the rows before it): output = left ++ one
                       column per function (srfs), a row for each step of
                       the longest series of the left row, the shorter
                       ones NULL past their end; a left row whose series
                       are all empty gives no row */
    LP_APPLY,       /* a correlated subquery run per distinct outer binding:
                       left the outer rows; right the subquery, reading its
                       parameters (BX_PARAM) params[i] = lkeys[i] (over the
                       left columns); output = left ++ rows (INT64, the
                       subquery's row count) ++ its first row (NULLs when
                       it has none). See binder.c decorrelate_param.
                       With `all` (a LATERAL subquery in FROM): output =
                       left ++ the subquery's columns, each left row
                       paired with every row of its binding, in left
                       order; srf_outer and residual as LP_SRF's (a LEFT
                       JOIN LATERAL ... ON residual). See bind_lateral */
    LP_SHARED       /* left computed once; right, run once, reads its rows
                       through LP_WORKTABLE leaves of the same worktable
                       id; output = right's rows (grouping sets: one
                       aggregate per set over the FROM rows, binder.c
                       grouping_sets_plan) */
} attu_lp_kind;

typedef enum attu_join_kind {
    JK_INNER = 1, JK_LEFT, JK_SEMI, JK_ANTI, JK_CROSS, JK_FULL
} attu_join_kind;

typedef struct attu_agg_spec {
    attu_agg_kind agg;
    attu_bexpr   *arg;     /* NULL for COUNT(*) / ranking */
    attu_bexpr   *arg2;    /* _ARG forms: the value ranked (arg is returned) */
    int           k;
    bool          distinct; /* agg(DISTINCT x) */
    attu_type     type;    /* result type */
    /* windows */
    int             frame;     /* 0 default (running with peers when ordered), 1 whole partition, 2 running by rows,
                                  3 general ROWS frame, 4 general RANGE frame (frame_kind / frame_off) */
    int8_t          frame_kind[2];
    int64_t         frame_off[2];
    double          frame_offf[2];
    int8_t          frame_off_scale[2];
    int32_t         frame_off_months[2], frame_off_days[2], frame_off_zone;
    int8_t          frame_excl;      /* EXCLUDE: 0 no others, 1 current row, 2 group, 3 ties */
    int             npart;
    attu_bexpr    **part;
    int             norder;
    attu_sort_item *order;
} attu_agg_spec;

/* One set-returning function of an LP_SRF node: generate_series(start,
 * stop, step) of result type `type` (INT32, INT64, NUMERIC or TIMESTAMP),
 * its arguments over the node's input columns in that type (the
 * timestamp form's step is the constant interval step_* and `step` is
 * NULL). */
typedef struct attu_srf_spec {
    attu_type   type;
    attu_bexpr *start, *stop, *step;
    int32_t     step_months, step_days;
    int64_t     step_usec;
    int         zone;        /* timestamptz: the session zone's id, which steps by days and months */
    bool        ordinal;     /* WITH ORDINALITY: the row's number in the lockstep
                                (bigint), as long as the longest series */
} attu_srf_spec;

typedef struct attu_lplan attu_lplan;

struct attu_lplan {
    attu_lp_kind kind;
    attu_lplan  *left, *right;
    int          ncols;
    attu_type   *types;
    char       **names;
    double       est_rows;
    int          rowid_col;    /* output column that identifies rows uniquely
                                  (a scan's rowid carried up), or -1 */
    /* LP_SCAN: output column i = table column cols[i]; a column index equal
     * to table->ncols is the pseudo-column rowid (the row's position). */
    attu_table  *table;
    int         *cols;
    bool        *used;          /* set by lowering's pruning: outputs some parent reads
                                   (LP_SCAN; LP_JOIN too, as the stage's out_need) */
    /* LP_VALUES: nrows rows of ncols constant expressions */
    int          nrows;
    attu_bexpr **values;
    /* LP_FILTER */
    attu_bexpr  *pred;
    /* LP_PROJECT: ncols expressions */
    attu_bexpr **exprs;
    /* LP_JOIN: keys pairwise equal; residual over left ++ right */
    attu_join_kind jk;
    int          nkeys;
    attu_bexpr **lkeys, **rkeys;
    attu_bexpr  *residual;
    /* LP_AGG / LP_JOIN_AGG: output = groups then aggregates; LP_WINDOW:
     * output = input then one column per window call */
    int          ngroups;
    attu_bexpr **groups;
    int          naggs;
    attu_agg_spec *aggs;
    /* LP_JOIN_AGG: the aggregate's arguments are over left ++ right, the
     * groups are left columns (the left row is the group) */
    /* LP_SORT (and LP_LIMIT WITH TIES: its peers' keys) */
    int          nsort;
    attu_sort_item *sort;
    int64_t      topk_limit;   /* -1, or the LIMIT+OFFSET a top-k may stop at */
    /* LP_RECURSIVE / LP_SRF read only through a LIMIT whose counts read the
     * outer row (limit_expr): that LIMIT sets where it may stop each run */
    bool         stop_per_run;
    /* LP_LIMIT */
    int64_t      limit, offset;   /* limit -1 = none */
    /* counts that read the enclosing query's row (parameters once the
     * subquery is parameterised), known only per run: both set (a constant
     * or NULL where the query wrote one or none), INT64, and then limit is
     * -1 and offset 0 so that nothing reading those takes them as the
     * counts (a top-k, the decorrelations); the executor checks and
     * applies them each time the stage runs, as PostgreSQL's Limit node */
    attu_bexpr  *limit_expr, *offset_expr;
    bool         with_ties;       /* FETCH ... WITH TIES: nsort / sort above are
                                     then the ORDER BY keys (over the input
                                     columns), and the rows after the limit-th
                                     kept that are its peers by them are kept too */
    /* LP_SETOP */
    int          setop;        /* attu_ast_setop */
    /* LP_SETOP, LP_DISTINCT, LP_RECURSIVE: duplicates are rows equal in their first ncmp columns
     * (0: in all); the columns after them are carried, a value of the
     * group shown (the binder puts a bpchar without a length's original
     * values there, its blank-stripped keys in front) */
    int          setop_ncmp;
    bool         all;          /* LP_SETOP, LP_RECURSIVE (UNION ALL); LP_APPLY: LATERAL;
                                  LP_WORKTABLE: an LP_SHARED node's input */
    /* LP_RECURSIVE / LP_WORKTABLE: which recursive query (unique in the plan) */
    int          worktable;
    /* LP_RECURSIVE keyed (setop_ncmp > 0: its terms give the keys, then
     * the values of a bpchar without a length; binder keyed_arm): the
     * column of its terms holding the value of each of its ncols columns,
     * which are the work table's and the output's */
    int         *work_cols;
    /* LP_APPLY: the parameter slot each of the nkeys lkeys binds */
    int         *params;
    /* LP_SRF: the functions, in output order, and the rows an input row is
     * expected to give (the estimate's factor) */
    int          nsrfs;
    attu_srf_spec *srfs;
    double       srf_rows;
    /* LP_SRF (and LATERAL LP_APPLY) of a LEFT JOIN: a left row none of
     * whose series rows passes `residual` (the ON condition, over the
     * node's output), or whose series is empty, gives one row with NULL
     * values */
    bool         srf_outer;
};

attu_bexpr *attu_bx_new(attu_plan_arena *a, attu_bexpr_kind k, attu_type t, int pos);
attu_bexpr *attu_bx_col(attu_plan_arena *a, int col, attu_type t);
attu_lplan *attu_lp_new(attu_plan_arena *a, attu_lp_kind k, int ncols);
bool attu_bx_equal(const attu_bexpr *x, const attu_bexpr *y);
/* attu_bx_equal, but two calls of random() (gen_random_uuid()) are one
 * expression as written (an ORDER BY or GROUP BY item matching a
 * select-list item, as PostgreSQL's equal()) */
bool attu_bx_equal_written(const attu_bexpr *x, const attu_bexpr *y);
/* Whether e reads a parameter (BX_PARAM) anywhere. */
bool attu_bx_reads_param(const attu_bexpr *e);

#endif
