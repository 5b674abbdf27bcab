/*
 * stage_plan.h - what the planner hands the executor: a tree of stages,
 * each naming the backend patterns it runs (engine/backend.h) and carrying
 * its scalar expressions as compiled register programs.
 *
 * Every stage produces a relation (equally long columns). Expressions of a
 * stage are grouped in attu_stage_exprs: result i is either an input column
 * passed through untouched (direct[i] >= 0; no copy) or output
 * (-direct[i] - 1) of one program that reads only the input columns it
 * needs (in_cols). The stage kinds and their patterns:
 *
 *   SCAN        the table's (device-resident) columns, rowid on demand
 *   VALUES      constant rows
 *   FILTER      eval predicate -> compact -> gather
 *   PROJECT     eval (fused programs), pass-through columns free
 *   JOIN        key eval -> sort -> inner_join (sorted_search + scan + lbs)
 *               -> gather [-> eval residual -> compact]
 *   CROSS       lbs expansion of all pairs -> gather
 *   AGG         key eval -> sort -> segment heads -> segreduce
 *               (no keys: reduce)
 *   JOIN_AGG    the fused join-aggregate: sort right keys -> sorted_search
 *               -> scan -> lbs_segreduce (the join is never materialized)
 *   WINDOW      sort by partition -> segmented_sort by order -> scans
 *   SORT        sort -> gather;  TOPK: top_k -> gather
 *   LIMIT       gather of a range (WITH TIES: key eval -> segment heads
 *               over the rows from the last counted one, to find where
 *               its peers end)
 *   DISTINCT    sort -> segment heads -> gather
 *   SETOP       concatenation (UNION ALL), then DISTINCT-like passes
 *   SRF         generate_series per input row: eval of the arguments,
 *               series produced and uploaded -> gather of the input rows
 *               (engine/executor_srf.c)
 */
#ifndef ATTU_STAGE_PLAN_H
#define ATTU_STAGE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/backend.h"
#include "engine/expr_program.h"
#include "engine/table.h"

typedef enum attu_stage_kind {
    ATTU_ST_SCAN = 1, ATTU_ST_VALUES, ATTU_ST_FILTER, ATTU_ST_PROJECT, ATTU_ST_JOIN,
    ATTU_ST_CROSS, ATTU_ST_AGG, ATTU_ST_JOIN_AGG, ATTU_ST_WINDOW, ATTU_ST_SORT,
    ATTU_ST_TOPK, ATTU_ST_LIMIT, ATTU_ST_DISTINCT, ATTU_ST_SETOP,
    ATTU_ST_RECURSIVE,   /* child 0 once, then child 1 until it yields no new rows */
    ATTU_ST_WORKTABLE,   /* the rows the enclosing RECURSIVE stage's last round added */
    ATTU_ST_APPLY,       /* child 1 once per distinct binding of its parameters
                            (keys over child 0's rows): child 0 ++ rows ++ first row;
                            with `all` (LATERAL): child 0 ++ child 1, every row of
                            each binding (outer, residual: a LEFT JOIN's ON) */
    ATTU_ST_SRF,         /* set-returning functions over each row of child 0, in
                            lockstep: child 0 ++ one column per function
                            (outer: LEFT JOIN, `residual` its ON) */
    ATTU_ST_SHARED       /* child 0 once, then child 1 once, whose WORKTABLE
                            stages of the same `worktable` read child 0's
                            rows: child 1's rows (grouping sets: one
                            aggregate per set over the same input) */
} attu_stage_kind;

typedef struct attu_stage_exprs {
    int                 n;
    int                *direct;    /* n entries: input column, or -(output+1) */
    attu_expr_program  *prog;      /* NULL when every result is direct */
    int                 nin;
    int                *in_cols;   /* program input i = input column in_cols[i], or, when
                                      negative, parameter -(in_cols[i] + 1) of an enclosing
                                      APPLY stage (its value on every row) */
} attu_stage_exprs;

typedef enum attu_stage_join { ATTU_SJ_INNER = 1, ATTU_SJ_LEFT, ATTU_SJ_SEMI, ATTU_SJ_ANTI, ATTU_SJ_FULL } attu_stage_join;

typedef enum attu_win_func {
    ATTU_WIN_ROW_NUMBER = 1, ATTU_WIN_RANK, ATTU_WIN_DENSE_RANK, ATTU_WIN_AGG,
    ATTU_WIN_LAG, ATTU_WIN_LEAD, ATTU_WIN_FIRST_VALUE, ATTU_WIN_LAST_VALUE, ATTU_WIN_NTILE,
    ATTU_WIN_PERCENT_RANK, ATTU_WIN_CUME_DIST,
    ATTU_WIN_NTH_VALUE         /* `in` the value, `arg` the n (an integer per row) */
} attu_win_func;

/* A window frame bound (the values match the parser's frame bound kinds). */
typedef enum attu_win_bound {
    ATTU_WB_UNBOUNDED_PRECEDING = 0, ATTU_WB_PRECEDING, ATTU_WB_CURRENT_ROW, ATTU_WB_FOLLOWING,
    ATTU_WB_UNBOUNDED_FOLLOWING
} attu_win_bound;

/* One aggregate (AGG, JOIN_AGG) or window call (WINDOW). */
typedef struct attu_stage_agg {
    attu_reduce_op op;         /* for ATTU_WIN_AGG and aggregates */
    attu_win_func  win;        /* WINDOW only */
    int            k;
    int            in;         /* index into the stage's `args` results, -1 = none */
    int            arg;        /* _ARG forms: the returned value, -1 = none */
    bool           avg;        /* AVG: sum / count */
    int8_t         var;        /* VAR_M2: 1 var_samp, 2 var_pop, 3 stddev_samp, 4 stddev_pop */
    bool           count_distinct;
    /* count_distinct over a tuple: `in` (its rows the non-NULL ones) and
     * these `args` results (NULLs peers of each other) make the value
     * counted once (dense_rank(...) WITHIN GROUP over several items) */
    int            ntuple;
    int           *tuple;
    /* agg(DISTINCT x) of values equal but not alike (bpchar arrays with
     * their blanks, numeric arrays with their scales): the `args` result
     * whose equality makes them one (the value's key, the implied order's
     * expression), -1: `in` itself; the first row of each key keeps its
     * value */
    int            distinct_by;
    int            frame;      /* WINDOW: 0 default, 1 whole partition, 2 running by rows,
                                  3 general ROWS frame, 4 general RANGE frame, 5 GROUPS frame: bounds below */
    int8_t         frame_kind[2];   /* WINDOW frame 3/4: start, end (attu_win_bound) */
    int64_t        frame_off[2];    /* their offsets (rows, or order-key units for RANGE) */
    double         frame_offf[2];   /* RANGE over a float order key: the offsets */
    int8_t         frame_off_scale[2]; /* RANGE over a DECIMAL / NUMERIC order key: frame_off
                                          is the offset times 10^frame_off_scale */
    int32_t        frame_off_months[2], frame_off_days[2]; /* RANGE over a date / timestamp
                                          order key: the interval offset's months and days
                                          (its microseconds in frame_off) */
    int32_t        frame_off_zone;  /* a timestamptz order key's zone (attu_tz_id) */
    int8_t         frame_excl;      /* WINDOW frame 3-5: EXCLUDE 0 no others, 1 current row, 2 group, 3 ties */
    attu_type      in_type, out_type;
    /* WINDOW: partition keys and order keys index `keys` results */
    int            npart;
    int           *part;
    int            norder;
    int           *order;
    bool          *desc, *nulls_first;
    bool           order_implied;  /* AGG: the order is attu's, not written (attu_sort_item's implied) */
    /* AGG: an ordered-set aggregate (engine/executor_ordered_set.c), 1
     * percentile_cont, 2 percentile_disc, 3 mode, else 0. `in` is its value
     * and op COUNT of it (the group's non-NULL values); osa_desc its WITHIN
     * GROUP direction. The fraction is the constant frac (NULL when
     * frac_null) when frac_arg < 0, else `args` result frac_arg, the same
     * on all of a group's rows */
    int8_t         osa;
    bool           osa_desc;
    int            frac_arg;
    int            frac_out;       /* its output in the stage's osa_fracs, or -1 */
    int            osa_key;        /* `args` result the rows sort (and mode's runs
                                      compare) by, where it is not the value (a
                                      bpchar without a length's blank-stripped
                                      key), else -1 */
    double         frac;
    bool           frac_null;
} attu_stage_agg;

/* One generate_series of an SRF stage: its result type (INT32, INT64,
 * NUMERIC or TIMESTAMP) and, for TIMESTAMP, the constant interval step.
 * Its start, stop and step are the stage's `args` results 3k .. 3k + 2
 * (the timestamp form's third: non-NULL when the step is, any value). */
typedef struct attu_stage_srf {
    attu_type type;
    int32_t   step_months, step_days;
    int64_t   step_usec;
    int       zone;       /* the timestamptz form: the session zone's id (engine/timezone.h) */
    bool      ordinal;    /* WITH ORDINALITY's column: 1, 2, ... up to the row's
                             longest series (a bigint; its arguments unread) */
} attu_stage_srf;

typedef struct attu_stage attu_stage;

struct attu_stage {
    attu_stage_kind kind;
    attu_stage     *child[2];
    int             ncols;
    attu_type      *types;
    const char     *label;        /* for EXPLAIN: table name, join kind, ... */
    /* SCAN */
    attu_table     *table;
    int            *cols;         /* table column per output; table->ncols = rowid */
    /* VALUES: nrows programs without inputs, ncols outputs each */
    int             nrows;
    attu_expr_program **rows;
    /* FILTER: exprs.n == 1 (the predicate); PROJECT: exprs = the outputs */
    attu_stage_exprs exprs;
    /* JOIN / JOIN_AGG / AGG / SORT / DISTINCT / WINDOW keys */
    attu_stage_exprs keys;        /* AGG: group keys; SORT: sort keys; WINDOW: partition+order keys; JOIN: left keys;
                                     LIMIT WITH TIES: the ORDER BY keys */
    attu_stage_exprs rkeys;       /* JOIN / JOIN_AGG: right keys */
    bool           *desc, *nulls_first;  /* SORT/TOPK: per key */
    attu_stage_join jk;
    attu_stage_exprs residual;    /* JOIN: over left ++ right, n == 0 or 1 */
    bool           *out_need;     /* JOIN: ncols flags, the outputs some later stage
                                     reads (NULL: all); a star join computes no row
                                     index for a dimension none of whose columns is */
    /* AGG / JOIN_AGG / WINDOW */
    attu_stage_exprs args;        /* aggregate inputs (JOIN_AGG: over left ++ right; n+1 th is the filter if has_filter) */
    int             naggs;
    attu_stage_agg *aggs;
    /* AGG without keys: the ordered-set aggregates' fractions that are
     * not constants (the enclosing query's values, parameters), alone,
     * for the one group when it has no row to read them at: output
     * frac_out of each such aggregate (executor_ordered_set.c) */
    attu_stage_exprs osa_fracs;
    bool            has_filter;   /* JOIN_AGG: args result `naggs_args` is the residual */
    int             filter_index;
    int             nleft_groups; /* JOIN_AGG: output = left columns group_cols[] then aggregates */
    int            *group_cols;
    bool            outer;        /* JOIN_AGG, SRF, LATERAL APPLY: LEFT join semantics */
    /* TOPK / LIMIT; RECURSIVE, SRF: limit = the rows after which it may stop, or -1 */
    int64_t         limit, offset;
    bool            stop_per_run;  /* RECURSIVE, SRF: limit is set each run by the LIMIT
                                      above it whose counts read the outer row */
    bool            with_ties;    /* LIMIT: FETCH ... WITH TIES; `keys` are the ORDER BY
                                     keys over the (ordered) input, and the rows after the
                                     limit-th kept that equal it in them are kept too */
    /* LIMIT whose counts read the enclosing query's row: [0] the OFFSET,
     * [1] the LIMIT, one INT64 result each (NULL: none), programs of
     * parameters alone, evaluated each time the stage runs, into limit and
     * offset (engine/executor_limit_counts.c); n == 0 for constant counts.
     * Apart: PostgreSQL checks the OFFSET before it computes the LIMIT */
    attu_stage_exprs counts[2];
    /* SETOP */
    int             setop;        /* 1 union, 2 intersect, 3 except */
    int             setop_ncmp;   /* SETOP, DISTINCT, RECURSIVE: rows are duplicates when equal in their first
                                     setop_ncmp columns (0: all); the rest are carried */
    bool            all;          /* SETOP; RECURSIVE: UNION ALL (else UNION); APPLY: LATERAL */
    int             worktable;    /* RECURSIVE / WORKTABLE: which one (unique in the plan) */
    int            *work_cols;    /* RECURSIVE with setop_ncmp: the child column holding
                                     the value of each of ncols output columns (the
                                     work table's too); the first setop_ncmp child
                                     columns are keys (planner keyed_arm) */
    /* APPLY: keys (over child 0) bind parameters params[i], keys.n of them */
    int            *params;
    /* SRF: the functions (their arguments in `args`) */
    int             nsrfs;
    attu_stage_srf *srfs;
    /* estimates and measurements (EXPLAIN [ANALYZE]) */
    double          est_rows;
    size_t          act_rows;
    double          act_ms;
    const char     *act_how;    /* EXPLAIN ANALYZE: the patterns run, where the
                                   executor chose another path than the plan's
                                   (NULL: the plan's) */
    bool            executed;
};

void attu_stage_free(attu_stage *s);            /* the whole tree */
void attu_stage_exprs_free(attu_stage_exprs *e);

/* The patterns a stage runs, for EXPLAIN ("compact + gather", ...). */
const char *attu_stage_patterns(const attu_stage *s);
const char *attu_stage_kind_name(attu_stage_kind k);

#endif
