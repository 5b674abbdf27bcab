/*
 * executor_internal.h - relations in flight and the operator entry points
 * shared by executor.c and executor_ops.c.
 */
#ifndef ATTU_EXECUTOR_INTERNAL_H
#define ATTU_EXECUTOR_INTERNAL_H

#include "engine/executor.h"

/* A column in backend memory. Shared by reference count; a scan's columns
 * borrow the table's resident buffers (owns_data false). */
typedef struct xcol {
    int              refs;
    attu_type        type;
    attu_buf        *data;
    attu_buf        *valid;     /* bytes, NULL = all valid */
    attu_dictionary *dict;      /* TEXT */
    bool             owns_data; /* data and valid allocated for this column */
    bool             owns_valid;
    bool             pruned;    /* a column no stage reads: no data at all */
    /* A column an inner join passed on without gathering it (late
     * materialization): its rows are lazy_src's rows lazy_idx (an INT64
     * column, shared by the columns gathered by the same pairs; INT32 only
     * in a split relation's B columns, which nothing gathers). data and
     * valid stay NULL until rel_materialize gathers them; lazy_src is never
     * lazy itself (indices compose). run_join and run_filter make such
     * columns and only run_join takes them: run_stage materializes them
     * for every other stage. */
    struct xcol     *lazy_src;
    struct xcol     *lazy_idx;
    /* The table column a scan's column borrows (NULL for any other):
     * where the star join keeps a key column's statistics. */
    attu_column     *tcol;
} xcol;

typedef struct rel {
    int     ncols;
    xcol  **cols;
    size_t  nrows;
    /* Set only on what run_join hands the aggregate that asked for it
     * (xctx.split_join): the sides' rows do not line up (see rel_split). */
    struct rel_split *split;
} rel;

/* A split inner join (engine/executor_split_sum.c): every row of the
 * probing side P has exactly one partner in B; P's columns are its rows
 * as they are, B's are lazy through the partners in partition order. The
 * pairs line up again through the partners in P's order: hits, or P's
 * key column less base. */
typedef struct rel_split {
    bool      p_left;       /* P is the join's left input */
    int       nleft;        /* the left input's columns */
    int       boff;         /* B's first column in the relation */
    struct rel *B;          /* B's columns as the join got them (references) */
    struct xcol *partner_col; /* P's key column, when hits is NULL */
    attu_buf *hits;         /* the partner rows (int64) the probe wrote, or NULL */
    int64_t   base;
    bool     *need;         /* the join's need, copied (NULL: all) */
    /* counted: each B row's number of partners (INT32, B->nrows), in place
     * of the partners in partition order; the relation's B columns are
     * placeholders then (executor_split_sum.c reads B's own rows) */
    attu_buf *counts;
} rel_split;

/* The working tables of the RECURSIVE stages running now, innermost first. */
typedef struct xwork { int id; rel *rows; struct xwork *next; } xwork;

typedef struct xctx {
    attu_exec_ctx *ctx;
    /* the join stage whose aggregate above reads each side apart and
     * takes a split relation from it (executor_split_sum.c) */
    const struct attu_stage *split_join;
    /* where that aggregate lets B's side be summed by its rows' partner
     * counts (SPLIT_COUNTED_*, split_sum_shape) */
    unsigned split_counted;
    /* the LIMIT (over a SORT) whose consumer, an aggregate that does not
     * depend on its input's order, needs its rows as a set only
     * (limit_over_sort: select_window_set) */
    const struct attu_stage *set_limit;
    attu_backend  *be;
    attu_error    *err;
    xwork         *work;
    /* parameters of the APPLY stages running now, by slot: one-row
     * columns (NULL = unset); see executor_apply.c */
    xcol         **params;
    int            nparams;
    /* set while the pregrouped GROUP BY combines its partials: the dense
     * group-by takes them however few (a sort of a thousand rows is
     * several device calls; executor_agg_pregroup.c) */
    bool           dense_any_rows;
    /* errors of correlated subqueries recorded per binding instead of
     * raised (executor_apply.c's defer_binding_error): a row that uses
     * such a binding's value raises ATTU_SQLSTATE_DEFERRED with the index,
     * which attu_execute turns back into the error */
    attu_error    *deferred;
    int            ndeferred, capdeferred;
} xctx;

/* Records x->err (a subquery's error for one binding) as a deferred
 * error and clears it: its index, or -1 (x->err left set) when the error
 * is not one to defer (out of memory, canceled, internal). */
int64_t defer_binding_error(xctx *x);
/* Where x->err is the ATTU_SQLSTATE_DEFERRED stand-in, the error recorded. */
void resolve_deferred_error(xctx *x);

/* bytes [off, off + bytes) of b, as a buffer of their own (not owned) */
static inline attu_buf view(const attu_buf *b, size_t off, size_t bytes) {
    attu_buf v = { (char *)b->ptr + off, bytes };
    return v;
}

xcol *xcol_new(xctx *x, attu_type t, size_t n, bool with_valid);
xcol *xcol_ref(xcol *c);
/* A placeholder of type t for a column no stage reads (no data). */
xcol *xcol_pruned(xctx *x, attu_type t);
/* An index buffer as an INT64 column (taking the buffer). */
xcol *index_column(xctx *x, attu_buf *b);
/* A lazy column: src's rows idx (takes references to both). */
xcol *xcol_new_lazy(xctx *x, xcol *src, xcol *idx);
/* Gathers r's lazy columns (all, or with `only` those whose flag is set). */
int rel_materialize(xctx *x, rel *r, const bool *only);
void  xcol_unref(xctx *x, xcol *c);
rel  *rel_new(xctx *x, int ncols, size_t nrows);
void  rel_free(xctx *x, rel *r);
attu_vec vec_of(const xcol *c);
attu_buf *buf_i64(xctx *x, size_t n);
/* Frees a backend buffer (NULL is fine). */
void  free_buf(xctx *x, attu_buf *b);
int   check_stop(xctx *x);
rel  *rel_gather(xctx *x, const rel *r, const attu_buf *idx, size_t n, bool may_null);
int   eval_exprs(xctx *x, const attu_stage_exprs *ex, const rel *r, xcol **out);
rel  *filter_by_mask(xctx *x, rel *in, xcol *mask);
/* in's rows where the BOOL column m is TRUE, every column lazy (a
 * FILTER stage's result). */
rel  *filter_lazy(xctx *x, const rel *in, xcol *m);
/* in's rows idx (n; the buffer is taken over), every column lazy,
 * composed with in's own lazy indexes (lazy_side). */
rel  *rel_through(xctx *x, const rel *in, attu_buf *idx, size_t n);
rel  *rel_distinct(xctx *x, rel *in);
rel  *rel_distinct_by(xctx *x, rel *in, int nk);
/* The first row, in the order of the nsort keys, of every run of equal
 * values of their first nheads (0: one run): *rows_out (int64, by run,
 * allocated here) and *count_out. */
int   first_rows_of_runs(xctx *x, const attu_sort_key *keys, int nsort, int nheads, size_t n,
                         attu_buf **rows_out, size_t *count_out);
rel  *rel_concat(xctx *x, const rel *a, const rel *b);
rel  *run_stage(xctx *x, attu_stage *s);
/* 0, or -1 with XX000 set when r lacks the columns the plan promised for s. */
int   check_stage_cols(xctx *x, const attu_stage *s, const rel *r);
/* No rows of the stage's columns (TEXT ones with an empty dictionary). */
rel  *rel_empty(xctx *x, const attu_stage *s);

/* The backend's sort, top_k, segmented_sort and segment_heads, with each
 * NUMERIC key passed as two INT64 words (executor_keys.c). */
int exec_sort(xctx *x, const attu_sort_key *keys, int nkeys, size_t n, attu_buf *perm);
int exec_top_k(xctx *x, const attu_sort_key *keys, int nkeys, size_t n, size_t k, attu_buf *perm);
/* backend.h's select_window with NUMERIC keys split as for the sort; *done
 * false when the backend has none or declined the window. */
int exec_select_window(xctx *x, const attu_sort_key *keys, int nkeys, size_t n, size_t start, size_t cnt,
                       attu_buf *perm, bool *done);
/* backend.h's select_window_set, its keys as exec_select_window's. */
int exec_select_window_set(xctx *x, const attu_sort_key *keys, int nkeys, size_t n, size_t start, size_t cnt,
                           attu_buf *perm, bool *done);
int exec_segmented_sort(xctx *x, const attu_sort_key *keys, int nkeys, const attu_buf *offsets,
                        size_t nseg, attu_buf *perm, size_t n);
int exec_segment_heads(xctx *x, const attu_vec *keys, int nkeys, const attu_buf *perm, size_t n,
                       attu_buf **heads_out, size_t *nheads_out);
/* A NUMERIC equi-join key of both sides (l: nl rows, r: nr rows) as int64
 * words per row, equal exactly when the values are equal whatever their
 * display scales (1.0 and 1.00): one word each (*nwords = 1) when every
 * value's canonical image fits 64 bits, else two. NULL rows get 0 (the join
 * drops them by their validity). Words are new buffers in lw[] / rw[]. */
int exec_numeric_join_words(xctx *x, const attu_vec *l, size_t nl, const attu_vec *r, size_t nr,
                            attu_buf **lw, attu_buf **rw, int *nwords);

/* Join helpers shared by run_join and the star join (executor_ops.c). */
/* A BOOL mask of the rows whose key columns are all non-NULL (NULL when
 * none can be NULL). */
int keys_valid_mask(xctx *x, xcol **k, int nk, size_t n, attu_buf **mask_out);
/* A dense index (dense_index) of the unique keys ks (int64 images, mask
 * ms, ns rows) probed by nn needles, over their key range: *index_out
 * (kmax - kmin + 1 slots) and the range, or *index_out NULL (no error)
 * when no key is valid, the range does not pay (dense_range_pays within
 * `limit` slots) or a key repeats. *identity_out (may be NULL): the index
 * is the identity (dense_index's identity_out). */
int unique_dense_index(xctx *x, attu_buf *ks, const attu_buf *ms, size_t ns, size_t nn, __int128 limit,
                       attu_buf **index_out, int64_t *kmin_out, int64_t *kmax_out, bool *identity_out);
/* The MIN and MAX of the int64 key images k (mask: bytes, or NULL) over
 * n rows; *any false when no row is valid. One download. */
int key_range(xctx *x, attu_buf *k, const attu_buf *mask, size_t n, int64_t *kmin, int64_t *kmax, bool *any);
/* unique_dense_index for keys already known unique within [kmin, kmax]
 * (a table column's key statistics): no range reduce and no read-back of
 * the repeat flag. *index_out NULL when the range does not pay. */
int known_dense_index(xctx *x, attu_buf *ks, const attu_buf *ms, size_t ns, size_t nn, __int128 limit, int64_t kmin,
                      int64_t kmax, attu_buf **index_out);
/* A LIMIT stage whose counts read the outer row (s->counts): this run's
 * values into s->limit and s->offset, or 2201X / 2201W for a negative one
 * (executor_limit_counts.c). */
int limit_counts_now(xctx *x, attu_stage *s);
/* Materializes the lazy columns of r that the expressions read. */
int materialize_read(xctx *x, rel *r, const attu_stage_exprs *ex);
/* Columns o->cols[at..] become in's columns at rows idx (lazy; indices
 * compose); those need (indexed by o's columns, NULL: all) marks unread
 * become placeholders. */
int lazy_side(xctx *x, rel *o, int at, const rel *in, xcol *idx, size_t np, const bool *need);
/* Each key's partner row key - kmin as an int64 buffer (*out) of n rows. */
int identity_partners(xctx *x, const xcol *keys, size_t n, int64_t kmin, attu_buf **out);

/* The aggregation's reduce specs and result columns (executor_ops.c). */
int agg_specs(xctx *x, const attu_stage *s, xcol **args, xcol **dargs, size_t nseg, attu_reduce_spec *specs,
              attu_out *outs, xcol **res, int *nspec_out, const attu_expr_program *prog, const int *agg_reg);
int agg_result_cols(xctx *x, const attu_stage *s, xcol **res, attu_out *outs, xcol **args, size_t nseg, rel *out,
                    int at);

/* The fused aggregate's program and inputs (executor_ops.c). */
int  fused_agg_program(const attu_stage *s, const rel *in, attu_expr_program **own, int **own_cols,
                       const attu_expr_program **p, int *nin, const int **in_cols, int *agg_out);
bool fused_inputs(const rel *in, const int *in_cols, const int *pick, int n, attu_vec *ins, attu_vec *rows);

/* The split sum (executor_split_sum.c). split_sum_shape: whether agg,
 * straight over join, reads the join's sides in a way a split relation
 * serves (before either runs). run_agg_split: 0 with *out_rel, 1 when
 * the split does not stand (the caller realigns and aggregates as usual),
 * -1 on error. rel_split_realign: r's pairs lined up again. */
enum { SPLIT_COUNTED_P_LEFT = 1, SPLIT_COUNTED_P_RIGHT = 2 };
/* split_sum_shape also says (*counted, SPLIT_COUNTED_*) for which probing
 * side B's side can be summed by its rows' partner counts
 * (rel_split.counts): every aggregate reads P's side only, constants, or
 * adds a value of B to one of P. */
bool split_sum_shape(const attu_stage *agg, const attu_stage *join, unsigned *counted);
int  run_agg_split(xctx *x, attu_stage *s, rel *in, rel **out_rel);
int  rel_split_realign(xctx *x, rel *r);
void rel_split_free(xctx *x, rel_split *sp);

/* The dense layout of group keys for group_dense / partition_first: each
 * key's min and width, and the slot count (one reduce, one download).
 * 0; 1 when a key's type or the ranges do not qualify; -1 on error. */
int dense_layout(xctx *x, xcol **keys, int nk, size_t n, int64_t *mins, int64_t *widths, size_t *nslots_out,
                 bool *nulls_out);
/* The rows from which GROUP BY takes the dense path (ATTU_DENSE_GROUP_MIN_ROWS). */
size_t dense_min_rows(void);
/* A dense layout: the keys' ranges, and the slot count; with map (an INT32
 * buffer, group_dense's slot_map), nslots counts the slots it maps to. */
typedef struct dense_lay { int64_t mins[8], widths[8]; size_t nslots; const attu_buf *map; } dense_lay;
/* GROUP BY over small dense keys without sorting (executor_ops.c): 0 with
 * *nseg_out groups in slot order (the keys' sorted order), the reductions
 * in res (*nspec_out of them, specs / outs as agg_specs builds them) and
 * each group's first row in *gidx_out (not NULL: wanted) and its slot in
 * *slots_out (the same); 1 when the keys, the aggregates or
 * the ranges do not qualify (nothing allocated); -1 on error. lay: the
 * keys' layout when the caller has it (NULL: measured here). */
int agg_dense(xctx *x, const attu_stage *s, xcol **keys, xcol **args, size_t n, const dense_lay *lay,
              size_t *nseg_out, attu_reduce_spec *specs, attu_out *outs, xcol **res, int *nspec_out,
              attu_buf **gidx_out, attu_buf **slots_out);
/* AVG from its sum and count columns (n rows): in double precision (the
 * sum of a DECIMAL input at `scale`), or exactly as NUMERIC. */
xcol *finish_avg(xctx *x, xcol *sum, xcol *cnt, size_t n, int scale);
xcol *finish_avg_numeric(xctx *x, xcol *sum, xcol *cnt, size_t n);
/* GROUP BY f(x) over one dense column x, grouped by x first
 * (executor_agg_pregroup.c): 0 with *out the stage's rows, 1 when the
 * shape does not qualify (nothing done), -1 on error. */
int run_agg_pregrouped(xctx *x, attu_stage *s, rel *in, rel **out);

/* A FILTER keeping row_number() = 1 of a WINDOW stage's only call, through
 * pass-through projections (executor_window_first.c): run_window_first
 * runs the window's input and returns the filter's rows. */
typedef struct window_first_match {
    attu_stage *filter, *window;
    attu_stage *proj[8];        /* proj[0] right under the filter */
    int         nproj;
} window_first_match;
bool window_first_shape(attu_stage *f, window_first_match *m);
rel *run_window_first(xctx *x, const window_first_match *m);

/* need (NULL: all): which output columns a later stage reads, when l and r
 * are laid out as the stage's children (its out_need); an inner join passes
 * the others on as placeholders instead of lazy columns. */
rel *run_join(xctx *x, attu_stage *s, rel *l, rel *r, const bool *need);
/* A chain of inner equi-joins over one fact input (executor_star.c):
 * true with *st filled when s tops one; run_star runs it, its children
 * included (through run_stage_lazy), in one probe where it can. */
typedef struct star_chain {
    int         k;                                   /* dimensions (joins): >= 2, or 1 over a filtered fact table */
    attu_stage *join[ATTU_DENSE_PROBE_MAX_DIMS];     /* join[0] lowest, join[k - 1] the top */
    attu_stage *fact;                                /* join[0]'s left input */
} star_chain;
bool star_shape(attu_stage *s, star_chain *st);
rel *run_star(xctx *x, const star_chain *st);
/* The host memory the kernel says it can still give (MemAvailable), or 0
 * when unknown (executor_ops.c): the CPU backend's joins and the SRF stage
 * refuse with 53200 what would not fit. */
double host_available_bytes(void);
/* A key the dense probe reads as it is: INT32 / DATE / INT64 / TIMESTAMP,
 * the same type on both sides (executor_star.c). */
bool probe_key_type(attu_type_id a, attu_type_id b);
/* Whether every row of s's result is a distinct row of one table (only
 * filters and projections down to a scan). */
bool rows_of_one_table(const attu_stage *s);
/* Table column tc's key statistics (base: its resident column), computed
 * on first use and kept on the column; *known false while another query
 * computes them (executor_star.c). */
int table_key_stats(xctx *x, xcol *base, attu_column *tc, attu_key_stats *out, bool *known);
/* run_stage, whose result may hold lazy columns (a join's). */
rel *run_stage_lazy(xctx *x, attu_stage *s);
rel *run_cross(xctx *x, attu_stage *s, rel *l, rel *r);
rel *run_agg(xctx *x, attu_stage *s, rel *in);
/* engine/executor_ordered_set.c: an ordered-set aggregate's column over
 * nseg groups. keys (nk) group the n rows; val is its value, frac its
 * fraction column (NULL: the stage's constant); off the groups' segment
 * offsets (nseg + 1 int64, in the order of an ascending sort of the keys,
 * NULLs last) or NULL for one group of all rows; cnt each group's count of
 * non-NULL values; with frac_per_group, frac holds one row per group
 * instead of one per input row. */
xcol *ordered_set_agg(xctx *x, const attu_stage_agg *g, xcol **keys, int nk, xcol *val, xcol *vkey, xcol *frac, bool frac_per_group,
                      size_t n, const attu_buf *off, size_t nseg, const xcol *cnt);
/* The fraction of a keyless stage's ordered-set aggregate whose frac_out
 * is k, over no rows: its expression alone over one row (it may read
 * parameters, never a column); NULL with no error set when it would read
 * a column. */
xcol *ordered_set_fraction_alone(xctx *x, const attu_stage *s, int k);
rel *run_join_agg(xctx *x, attu_stage *s, rel *l, rel *r);
rel *run_window(xctx *x, attu_stage *s, rel *in);
rel *run_setop(xctx *x, attu_stage *s, rel *l, rel *r);
rel *run_recursive(xctx *x, attu_stage *s);
rel *run_worktable(xctx *x, attu_stage *s);
rel *run_shared(xctx *x, attu_stage *s);
rel *run_apply(xctx *x, attu_stage *s);
/* generate_series over each row of in (engine/executor_srf.c). */
rel *run_srf(xctx *x, attu_stage *s, rel *in);
/* Parameter `slot` of the running APPLY stages as a column of n rows. */
xcol *param_column(xctx *x, int slot, size_t n);
/* Concatenates parts[0..n) (each freed); NULL on error or when n is 0. */
rel *rel_concat_all(xctx *x, rel **parts, size_t n);

/* Whether window call g has a RANGE frame with a negative (or NaN) offset,
 * which the planner keeps for the executor: PostgreSQL's error (22013
 * invalid preceding or following size in window function) is raised at
 * the first row whose order key is not NULL (window_call). */
static inline bool win_negative_range(const attu_stage_agg *g) {
    if (g->frame != 4 || g->norder != 1) return false;
    bool bad = false;
    /* an integer or exact key's offset is in frame_off, a float key's in
     * frame_offf; the other one is 0 */
    for (int w = 0; w < 2; w++) {
        if (g->frame_kind[w] != ATTU_WB_PRECEDING && g->frame_kind[w] != ATTU_WB_FOLLOWING) continue;
        /* an interval's sign is its span's (a month as 30 days, a day as
         * 24 hours: '1 day -1 hour' is positive) */
        __int128 span = ((__int128)g->frame_off_months[w] * 30 + g->frame_off_days[w]) * 86400000000LL + g->frame_off[w];
        bad |= span < 0 || !(g->frame_offf[w] >= 0);
    }
    return bad;
}

#endif
