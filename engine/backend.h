/*
 * backend.h - the primitives every operator is built from, as a C ABI over
 * device buffers.
 *
 * The executor (engine/executor*.c) and every stage operator are written
 * once, in C, against this table of functions. Two implementations exist:
 * the CPU backend (engine/backend_cpu*.c: host threads, the fallback with no
 * GPU and the reference in tests) and the GPU backend (gpu/: the pattern
 * library). A backend never sees SQL: it sees buffers, element types,
 * expression programs (engine/expr_program.h) and counts.
 *
 * Conventions shared by every primitive:
 *  - An attu_buf is a run of bytes in the backend's memory. On the CPU it is
 *    host memory; on the GPU, device memory from the stream-ordered pool. The
 *    executor never dereferences buf->ptr itself: it moves bytes with
 *    upload/download and computes with the primitives below.
 *  - Row indices are int64 (ATTU_INDEX_T). A gather index of -1 reads "no
 *    row": the output slot is zero and, where a validity output is given,
 *    NULL. That is how LEFT JOIN pads unmatched rows.
 *  - Validity in flight is one byte per row (1 = value, 0 = NULL); a NULL
 *    validity pointer means "all rows valid". (Tables at rest keep bitmaps,
 *    column.h; the executor converts at scan and at result time.)
 *  - Every primitive that can fail takes an attu_error * last and returns 0
 *    or -1. Out of device memory is 53200 and frees what the call allocated.
 *  - Sorts are stable. Keys compare as their SQL type does: integers and
 *    codes numerically, floats with NaN greater than every number (as
 *    PostgreSQL orders them), NULLs first or last per key.
 */
#ifndef ATTU_BACKEND_H
#define ATTU_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/dictionary.h"
#include "engine/error.h"
#include "engine/types.h"

typedef int64_t attu_index;

typedef struct attu_buf {
    void  *ptr;      /* backend memory; host memory on the CPU backend */
    size_t bytes;
} attu_buf;

typedef enum attu_device_kind { ATTU_DEVICE_KIND_CPU = 0, ATTU_DEVICE_KIND_GPU } attu_device_kind;

/* One input or output column of a primitive: typed slots (types.h layout)
 * plus optional byte validity. dict is read for TEXT by eval (which compares
 * and transforms strings) and ignored by primitives that see only codes. */
/* One column of a gather_cols call (see gather). */
typedef struct attu_gather_col {
    attu_buf       *dst;
    attu_buf       *dst_valid;
    const attu_buf *src;
    const attu_buf *src_valid;
    size_t          width;
} attu_gather_col;

typedef struct attu_vec {
    attu_type        type;
    const attu_buf  *data;
    const attu_buf  *valid;     /* NULL = all valid */
    const attu_dictionary *dict;
} attu_vec;

/* The ranking window functions window_rank computes. */
typedef enum attu_rank_kind {
    ATTU_RANK_ROW_NUMBER = 0,
    ATTU_RANK_RANK,        /* 1 + rows of the partition before the row's peers */
    ATTU_RANK_DENSE_RANK   /* 1 + peer groups of the partition before the row's */
} attu_rank_kind;

/* A sort key: values plus direction and NULL placement. */
typedef struct attu_sort_key {
    attu_vec col;
    bool     desc;
    bool     nulls_first;
} attu_sort_key;

/* Reductions of segreduce / reduce / lbs_segreduce. */
typedef enum attu_reduce_op {
    ATTU_REDUCE_COUNT_STAR = 0, /* rows, NULL or not (input ignored) -> int64 */
    ATTU_REDUCE_COUNT,          /* non-NULL inputs -> int64 */
    ATTU_REDUCE_SUM,            /* int -> int64 (22003 on overflow), float -> float64,
                                   decimal -> decimal; NULL when no input */
    ATTU_REDUCE_MIN,
    ATTU_REDUCE_MAX,
    ATTU_REDUCE_AVG_SUM,        /* float64 sum of the inputs (AVG = sum / count) */
    ATTU_REDUCE_NTH_SMALLEST,   /* k-th smallest non-NULL input (1-based), else NULL */
    ATTU_REDUCE_NTH_SMALLEST_ARG, /* the `arg` paired with that k-th smallest */
    ATTU_REDUCE_NTH_LARGEST,
    ATTU_REDUCE_NTH_LARGEST_ARG,
    ATTU_REDUCE_ANY,            /* any value of the segment (first row's) */
    ATTU_REDUCE_VAR_M2,         /* float64 sum of squared deviations from the mean
                                   (variance = M2 / (n - 1) or M2 / n); float inputs
                                   by PostgreSQL's Youngs-Cramer update, integer and
                                   decimal inputs (raw scaled values) exactly in
                                   128-bit integers; NULL when no input */
    ATTU_REDUCE_REGR,           /* corr / covar_* / regr_* (engine/regr_accum.h, k the
                                   attu_regr_kind): `in` is Y and `arg` X (both
                                   float64), a row counts where both are non-NULL;
                                   the final value itself, float64 (NULL by the
                                   aggregate's rules), or int64 for regr_count */
    ATTU_REDUCE_BIT_AND,        /* integers: bitwise AND / OR / XOR of the non-NULL */
    ATTU_REDUCE_BIT_OR,         /* inputs, of the input's type; NULL when no input */
    ATTU_REDUCE_BIT_XOR,
    ATTU_REDUCE_STRING_AGG      /* TEXT: the non-NULL inputs in segment order, each
                                   but the first preceded by its row's `arg`
                                   separator (a NULL separator adds nothing); NULL
                                   when no input. segreduce / reduce only: the
                                   output gets a new dictionary in outs[k].dict
                                   (caller unrefs) */
} attu_reduce_op;

/* One aggregate of a segmented reduction. For the *_ARG forms, `arg` is the
 * value returned and `in` the value ranked; ties rank by input order. */
typedef struct attu_reduce_spec {
    attu_reduce_op op;
    int            k;          /* NTH_* only; 1-based */
    attu_vec       in;         /* segreduce: the input column */
    attu_vec       arg;        /* *_ARG only */
    int            in_reg;     /* lbs_segreduce: output index of the program */
    int            arg_reg;    /* lbs_segreduce: output index of the program (_ARG) */
    attu_type      out_type;
} attu_reduce_spec;

/* An output column a primitive writes: data has room for n slots of
 * out_type; valid (may be NULL when the output can hold no NULL) for n bytes.
 * A TEXT output of eval gets a new dictionary in *dict (caller unrefs). */
typedef struct attu_out {
    attu_type         type;
    attu_buf         *data;
    attu_buf         *valid;
    attu_dictionary  *dict;
} attu_out;

struct attu_expr_program;   /* engine/expr_program.h */

/* The fused join-aggregate. Work item (seg, rank) for seg in [0, nseg) and
 * rank in [0, count[seg]) pairs left row left_rows[seg] (or seg itself when
 * left_rows is NULL) with right row right_map[seg_base[seg] + rank].
 * Segment extents come from seg_offsets (exclusive scan of the counts,
 * nseg + 1 entries). The program reads left inputs (gathered by the left
 * row) and right inputs (gathered by the right row); its output `filter_reg`
 * (if >= 0) drops items whose value is not TRUE (a residual ON predicate),
 * the other outputs feed the reductions. Nothing of size sum(count) is ever
 * allocated. */
typedef struct attu_lbs_segreduce_args {
    size_t            nseg;
    const attu_buf   *seg_offsets;  /* int64[nseg + 1] */
    const attu_buf   *seg_base;     /* int64[nseg]: where seg's partners start in right_map */
    const attu_buf   *right_map;    /* int64[]: right row of each partner slot */
    const attu_buf   *left_rows;    /* int64[nseg] or NULL */
    const struct attu_expr_program *prog;
    int               nleft;        /* program inputs 0..nleft-1 come from left */
    const attu_vec   *left;
    int               nright;       /* inputs nleft.. come from right */
    const attu_vec   *right;
    int               filter_reg;   /* program output index or -1 */
    int               nreduce;
    const attu_reduce_spec *reduce;
    attu_out         *out;          /* nreduce outputs of nseg rows */
    /* LEFT JOIN semantics: a segment none of whose items passes the filter
     * (or that has none) reduces one item whose right inputs are all NULL. */
    bool              outer;
    /* The work items' count (seg_offsets[nseg]) when the caller knows it,
     * else 0: a GPU decides from it whether to compile the program, and
     * would otherwise read it back. */
    int64_t           total_items;
} attu_lbs_segreduce_args;

typedef struct attu_backend attu_backend;

/* One index of dense_probe: the probing side's keys against a dense
 * index (dense_index) of the other side's. */
#define ATTU_DENSE_PROBE_MAX_DIMS 8
typedef struct attu_dense_dim {
    attu_vec        needles;   /* int64 images, or an INT32 / DATE column */
    const attu_buf *mask;      /* TRUE bytes of the needles that may match; NULL = all */
    const attu_buf *mask_valid;/* with mask: its validity bytes (a 0 byte rules the
                                  row out, as a NULL predicate); NULL = all valid */
    const attu_buf *table;     /* kmax - kmin + 1 int64 slots: a row, or -1; NULL
                                  with identity */
    int64_t         kmin, kmax;
    attu_buf       *hits;      /* out: the slot of each kept row (callee allocates) */
    bool            no_hits;   /* the index only filters: hits stays NULL (a star
                                  join's dimension no later stage reads) */
    double          share;     /* the share of rows this index is expected to keep
                                  (its dimension's filter; 0 = unknown): once the
                                  indexes before it leave few rows, a backend may
                                  test the rest on the kept rows only */
    bool            identity;  /* every key of [kmin, kmax] has a row, and key k's
                                  row is k - kmin (a table of keys in row order,
                                  dense_index's *identity_out): nothing to read */
} attu_dense_dim;

struct attu_backend {
    attu_device_kind kind;
    const char      *name;         /* "CPU (16 threads)", "GPU (NVIDIA H100 ..., sm_90)" */
    void            *impl;
    /* A CPU backend of this process for work too small to pay a device's
     * launches and transfers (a GPU backend's host twin; NULL on the CPU
     * backend, which is its own, and on a GPU backend without one). */
    attu_backend    *host;

    /* ---- memory ---- */
    attu_buf *(*alloc)(attu_backend *be, size_t bytes, attu_error *err);
    void      (*free)(attu_backend *be, attu_buf *buf);
    int  (*upload)(attu_backend *be, attu_buf *dst, size_t off, const void *src,
                   size_t bytes, attu_error *err);
    int  (*download)(attu_backend *be, void *dst, const attu_buf *src, size_t off,
                     size_t bytes, attu_error *err);
    /* dst[i] = value (width 1, 4 or 8 bytes) for i in [0, n). */
    /* Several downloads in one round trip: host[i] <- the first bytes[i]
     * bytes of bufs[i], for i < n. May be NULL (the caller downloads them
     * one by one); the GPU stages them through pinned memory so that one
     * synchronization serves them all. */
    int  (*download_many)(attu_backend *be, int n, void *const *host, const attu_buf *const *bufs,
                          const size_t *bytes, attu_error *err);
    int  (*fill)(attu_backend *be, attu_buf *dst, size_t width, uint64_t value,
                 size_t n, attu_error *err);
    /* dst[i] = i + start (int64). */
    int  (*iota)(attu_backend *be, attu_buf *dst, attu_index start, size_t n,
                 attu_error *err);

    /* ---- data movement ---- */
    /* dst[i] = src[idx[i]] for n rows of `width` bytes; idx -1 gives zero.
     * If dst_valid is given: dst_valid[i] = idx[i] >= 0 && src_valid[idx[i]]. */
    int  (*gather)(attu_backend *be, attu_buf *dst, attu_buf *dst_valid,
                   const attu_buf *src, const attu_buf *src_valid, size_t width,
                   const attu_buf *idx, size_t n, attu_error *err);
    /* Several gathers by one index: for each column, as gather above. A
     * GPU reads each index once for all the columns. May be NULL (the
     * caller gathers column by column). */
    int  (*gather_cols)(attu_backend *be, const struct attu_gather_col *cols, int ncols,
                        const attu_buf *idx, size_t n, attu_error *err);
    /* A stable partition of n rows by the digit (k >> shift) & 255 of
     * their keys k = keys[i] - key_base (keys: an INT32 / DATE / INT64 /
     * TIMESTAMP column read as its values; every k a row number, 0 <= k < 2^31;
     * shift 0 to 23): the rows
     * of digit 0 first, each digit's rows in their order. keys_out (may be
     * NULL) receives the k in that order, as int64 (keys_width 8) or, when
     * no column moves (ncols 0), as int32 (keys_width 4), and each of the ncols
     * columns its values (cols[c].src into dst; src_valid, when given,
     * into dst_valid). Value widths 1, 4 and 8; a call with any other
     * width or key type returns 1 with nothing written. What it is for: a
     * join whose partner rows are read at random from a column larger
     * than the cache reads them in 256 slices instead, each small enough
     * to stay in the cache, once its rows are in partner order (run_join;
     * a dimension loaded in key order gives its partners as the probing
     * keys less kmin, with no index). May be NULL. */
    int  (*partition)(attu_backend *be, const attu_vec *keys, int64_t key_base, size_t n, int shift,
                      attu_buf *keys_out, size_t keys_width, int ncols, const attu_gather_col *cols,
                      attu_error *err);
    /* counts[k] (INT32, nkeys slots, written whole) = how many of the n
     * keys k = keys[i] - key_base equal k, every k in [0, nkeys) (keys:
     * an INT32 / DATE / INT64 / TIMESTAMP column read as its values; a
     * join's partner rows). n and nkeys below 2^31 - 2^16; returns 1 with
     * nothing written past that or for another key type. What it is for:
     * a sum over a join's pairs of a value of the side with a row per key
     * is that side's sum of value x count over its own rows, read once
     * (executor_split_sum.c). May be NULL. */
    int  (*count_keys)(attu_backend *be, const attu_vec *keys, int64_t key_base, size_t n, attu_buf *counts,
                       size_t nkeys, attu_error *err);
    /* dst[idx[i]] = src[i]. */
    int  (*scatter)(attu_backend *be, attu_buf *dst, const attu_buf *src,
                    size_t width, const attu_buf *idx, size_t n, attu_error *err);

    /* ---- compute ---- */
    /* Runs the expression program over n rows: inputs[i] feeds input i,
     * outputs[j] receives output j. Row errors (22003, 22012, 22P02 ...)
     * fail the call. */
    int  (*eval)(attu_backend *be, const struct attu_expr_program *prog,
                 const attu_vec *inputs, size_t n, attu_out *outputs,
                 attu_error *err);
    /* Indices (int64, ascending) of rows whose BOOL mask is TRUE (valid and
     * nonzero). *idx_out is allocated by the callee; *count_out its length. */
    int  (*compact)(attu_backend *be, const attu_vec *mask, size_t n,
                    attu_buf **idx_out, size_t *count_out, attu_error *err);
    /* Stable multi-key sort: perm[i] = the row at position i. */
    int  (*sort)(attu_backend *be, const attu_sort_key *keys, int nkeys,
                 size_t n, attu_buf *perm, attu_error *err);
    /* sort, then the heads of its runs of equal keys (as segment_heads
     * over the new perm; NULLs equal): one call, so a GPU can take the
     * heads from its sorted key image. May be NULL (the caller calls sort
     * and segment_heads). */
    int  (*sort_heads)(attu_backend *be, const attu_sort_key *keys, int nkeys, size_t n, attu_buf *perm,
                       attu_buf **heads_out, size_t *nheads_out, attu_error *err);
    /* The first k rows of sort's order (k <= n). A key after the first whose
     * col.data is NULL (type INT64, no validity) orders by the row number:
     * with desc, ties go to the later row (the executor's top-k of a
     * reversed order), without materializing the numbers. */
    int  (*top_k)(attu_backend *be, const attu_sort_key *keys, int nkeys,
                  size_t n, size_t k, attu_buf *perm, attu_error *err);
    /* Rows at positions [start, start + cnt) of sort's order into perm
     * (cnt entries; a window past n is cut at n): LIMIT / OFFSET over an
     * ORDER BY anywhere in the order, without sorting every row. Keys as in
     * top_k. *done = false with 0 returned and nothing written when the
     * backend does not select this window (too wide, too few rows, ties,
     * an unlucky sample): the caller sorts instead. May be NULL (the caller
     * then takes top_k for the ends of the order). */
    int  (*select_window)(attu_backend *be, const attu_sort_key *keys, int nkeys, size_t n,
                          size_t start, size_t cnt, attu_buf *perm, bool *done, attu_error *err);
    /* The same window's rows in any order (perm, cnt entries): for a
     * caller that needs the set of rows only (an aggregate whose value
     * does not depend on its input's order over LIMIT / OFFSET of an ORDER
     * BY). A GPU takes them from two brackets, one at each end, sorting
     * only the rows about the ends, so a wide window costs one pass; *done
     * = false as select_window's when it declines. May be NULL. */
    int  (*select_window_set)(attu_backend *be, const attu_sort_key *keys, int nkeys, size_t n,
                              size_t start, size_t cnt, attu_buf *perm, bool *done, attu_error *err);
    /* Rows whose keys differ from the previous row's (row 0 is a head), in
     * the row order given by perm (NULL = identity). NULLs equal each other.
     * heads_out: int64 positions, *nheads_out of them; *heads_out allocated
     * by the callee. */
    int  (*segment_heads)(attu_backend *be, const attu_vec *keys, int nkeys,
                          const attu_buf *perm, size_t n, attu_buf **heads_out,
                          size_t *nheads_out, attu_error *err);
    /* Per-segment reductions: segment s covers positions
     * [offsets[s], offsets[s+1]) of `perm` order (perm NULL = identity);
     * offsets has nseg + 1 int64 entries. */
    int  (*segreduce)(attu_backend *be, const attu_buf *offsets, size_t nseg,
                      const attu_buf *perm, int nreduce,
                      const attu_reduce_spec *specs, attu_out *outs,
                      attu_error *err);
    /* Exclusive (inclusive=false) or inclusive prefix sum of int64; *total
     * receives the sum of all. */
    int  (*scan)(attu_backend *be, const attu_buf *in, attu_buf *out, size_t n,
                 bool inclusive, int64_t *total, attu_error *err);
    /* Whole-column reductions: the same specs, one output row. */
    int  (*reduce)(attu_backend *be, size_t n, int nreduce,
                   const attu_reduce_spec *specs, attu_out *outs, attu_error *err);
    /* The fused aggregate: the whole-column reductions of the program's
     * outputs over n rows, as eval into temporary columns followed by
     * reduce, without the temporaries (a GPU runs the program inside the
     * reduction's kernel). Input i is inputs[i]'s row rows[i][r] at row r
     * when rows (may be NULL) has a non-NULL rows[i].data (INT64 or INT32,
     * every entry a row of that input): a join's columns are read through its pairs
     * without being gathered first. specs[k].in_reg is the program output
     * reduction k reads (-1: COUNT(*)), specs[k].in.type that output's
     * type; in.data is not read. Returns 1, with nothing set, when the
     * backend declines (an op, type or size it does not fuse; a GPU also
     * declines a row the program fails on: the caller then runs eval and
     * reduce, which report the row's error), 0 when done, -1 on error (the
     * CPU reports a failing row's error itself). May be NULL. */
    int  (*eval_reduce)(attu_backend *be, const struct attu_expr_program *prog, const attu_vec *inputs,
                        const attu_vec *rows, size_t n, int nreduce, const attu_reduce_spec *specs,
                        attu_out *outs, attu_error *err);
    /* For each needle (int64, any order), the lower (or upper) bound in the
     * ascending int64 haystack. */
    int  (*sorted_search)(attu_backend *be, const attu_buf *needles, size_t nn,
                          const attu_buf *haystack, size_t nh, bool upper,
                          attu_buf *out, attu_error *err);
    /* Equi-join of ascending int64 keys a (na) and b (nb): every pair with
     * a[i] == b[j], in (i, j) order; left=true also emits (i, -1) for an a row
     * with no match. Allocates *a_idx / *b_idx. */
    int  (*inner_join)(attu_backend *be, const attu_buf *a, size_t na,
                       const attu_buf *b, size_t nb, bool left,
                       attu_buf **a_idx, attu_buf **b_idx, size_t *npairs,
                       attu_error *err);
    /* Load-balancing search: for each of `total` work items, the segment it
     * belongs to, given exclusive-scanned segment offsets (nseg + 1). */
    int  (*lbs)(attu_backend *be, const attu_buf *offsets, size_t nseg,
                size_t total, attu_buf *seg_out, attu_error *err);
    int  (*lbs_segreduce)(attu_backend *be, const attu_lbs_segreduce_args *a,
                          attu_error *err);
    /* Stable sort within each segment [offsets[s], offsets[s+1]) of perm:
     * perm is reordered in place by the keys. */
    int  (*segmented_sort)(attu_backend *be, const attu_sort_key *keys,
                           int nkeys, const attu_buf *offsets, size_t nseg,
                           attu_buf *perm, size_t n, attu_error *err);
    /* Order-preserving int64 image of one key column (ints, codes, dates,
     * and floats as sortable bits; NULL -> null_value) for joins. */
    int  (*key_encode)(attu_backend *be, const attu_vec *col, size_t n,
                       int64_t null_value, attu_buf *out, attu_error *err);

    /* Ranking window functions. perm orders the rows by (partition keys,
     * order keys); part_heads (npart, ascending, [0] = 0 when n > 0) are the
     * positions where a partition starts, peer_heads (npeer) those where the
     * (partition, order) keys change (NULL for ROW_NUMBER). For the row at
     * position q: out[perm[q]] (int64) = its row_number, rank or dense_rank
     * within its partition. */
    int  (*window_rank)(attu_backend *be, attu_rank_kind kind, const attu_buf *perm,
                        size_t n, const attu_buf *part_heads, size_t npart,
                        const attu_buf *peer_heads, size_t npeer, attu_buf *out,
                        attu_error *err);

    /* Group-by over small dense keys (integers, dates, booleans, TEXT
     * codes): key k's values lie in [min, min + width) and, when the column
     * has NULLs, NULL takes the last of its `width` values (min + width - 1
     * is then no value). Row i's slot is sum_k (key_k - min_k) * stride_k
     * with the last key varying fastest, so slot order is the order of an
     * ascending sort of the keys with NULLs last. For every slot s in
     * [0, nslots): occupied[s] (uint8), first_row[s] (int64: the first row in
     * the slot, -1 if none) and outs[k] row s = the reduction over the
     * slot's rows taken in row order (empty slots: unspecified; float sums
     * may associate in another order, as in the GPU's other reductions).
     * Only COUNT, COUNT(*), SUM, MIN, MAX and AVG_SUM. Returns 1 (err not
     * set) when this backend cannot run the shape (then the caller sorts
     * instead). slot_map, when not NULL, is an INT32 buffer with an entry
     * for each of the keys' slots (the product of the widths): row i then
     * goes to slot slot_map[slot] < nslots instead (groups of a function of
     * the keys, the pregrouped GROUP BY f(x): several x, one f(x)). With
     * used_out not NULL, *used_out (callee allocates) also gets the
     * occupied slots' numbers (int64, ascending: what compact over
     * occupied gives) and *nused_out their count, in the same call (on a
     * GPU, the same synchronization). */
    int  (*group_dense)(attu_backend *be, const attu_vec *keys, const int64_t *mins,
                        const int64_t *widths, int nkeys, size_t n, size_t nslots,
                        const attu_buf *slot_map, int nreduce, const attu_reduce_spec *specs, attu_out *outs,
                        attu_buf *occupied, attu_buf *first_row, attu_buf **used_out, size_t *nused_out,
                        attu_error *err);

    /* The first row of every partition in an order, without sorting (a
     * window's row_number() = 1): partitions are the slots of group_dense's
     * dense keys (keys, mins, widths, nkeys >= 0, nslots; no keys: one
     * slot), and within each the rows order by `order` (norder keys, as
     * sort's: direction, NULL placement; ties to the lower row, as a
     * stable sort). *rows_out (int64, allocated by the callee) gets the
     * first row of every non-empty slot in slot order, *nrows_out their
     * count. Returns 1 (err not set) when this backend cannot run the
     * shape (an order key type it cannot compare); may be NULL. */
    int  (*partition_first)(attu_backend *be, const attu_vec *keys, const int64_t *mins,
                            const int64_t *widths, int nkeys, size_t n, size_t nslots,
                            const attu_sort_key *order, int norder, attu_buf **rows_out,
                            size_t *nrows_out, attu_error *err);

    /* Runs of a dense-key table: for each needle k (int64), lo[i] =
     * bounds[k - kmin] and hi[i] = bounds[k - kmin + 1] when kmin <= k <=
     * kmax, else lo[i] = hi[i] = bounds[0] (an empty run). bounds has
     * kmax - kmin + 2 int64 entries. (One pass over the needles; the join's
     * alternative to two sorted_searches when the keys are dense.) */
    int  (*dense_runs)(attu_backend *be, const attu_buf *needles, size_t nn,
                       const attu_buf *bounds, int64_t kmin, int64_t kmax,
                       attu_buf *lo, attu_buf *hi, attu_error *err);

    /* A dense index of unique int64 keys (the star join's dimension side,
     * built without sorting): table[k - kmin] = the row i whose key is k,
     * -1 where no row has that key, over the rows with kmin <= key <= kmax
     * and a TRUE mask byte (mask may be NULL). table has kmax - kmin + 1
     * int64 entries (the caller's buffer). *unique_out is false, and the
     * table unusable, when two rows share a key; with unique_out NULL the
     * caller knows the keys are unique and nothing is checked or read
     * back. *identity_out (may be NULL; only with unique_out) is true when
     * the index is the identity: n = kmax - kmin + 1 rows, every mask byte
     * TRUE, row i's key kmin + i; the table may then be left unwritten (the
     * probe takes attu_dense_dim.identity instead). May be NULL. */
    int  (*dense_index)(attu_backend *be, const attu_buf *keys, const attu_buf *mask, size_t n,
                        int64_t kmin, int64_t kmax, attu_buf *table, bool *unique_out, bool *identity_out,
                        attu_error *err);
    /* The probe of nd dense indexes at once (one index for a single join;
     * one per dimension for a star join, whose fact rows are read once).
     * Row i of nn is kept when, for every d < nd, its key k = dims[d]
     * .needles row i lies in [kmin, kmax], dims[d].mask (may be NULL) has
     * a TRUE byte there (and mask_valid, when given, a nonzero one) and
     * dims[d].table[k - kmin] >= 0. The kept rows
     * (ascending) go into *rows_out and, for each d without no_hits,
     * that table entry into dims[d].hits (all allocated by the callee). The needles are
     * int64 key images, or an INT32 / DATE column read as its values (its
     * key image; its own validity is not looked at). With unique keys
     * this is the whole join: one pass that counts and one that writes.
     * When every needle is kept (*count_out == nn) a backend may leave
     * *rows_out NULL instead of writing 0..nn-1: callers take NULL for
     * those rows. nd is 1 to ATTU_DENSE_PROBE_MAX_DIMS. May be NULL. */
    int  (*dense_probe)(attu_backend *be, int nd, attu_dense_dim *dims, size_t nn, attu_buf **rows_out,
                        size_t *count_out, attu_error *err);

    void (*destroy)(attu_backend *be);
};

/* The calling thread's interrupt, set by the executor for one query: long
 * primitives (eval, lbs_segreduce, segreduce) poll *flag (nonzero = stop)
 * and the deadline (attu_now_ms clock, 0 = none) and fail with 57014 and
 * `reason`. NULL flag and 0 deadline clear it. */
void attu_backend_set_interrupt(volatile int *flag, double deadline_ms, const char *reason);
/* Nonzero (with err set to 57014) when the calling query should stop. */
int attu_backend_interrupted(attu_error *err);

/* The CPU backend with `threads` workers (0 = all cores). */
attu_backend *attu_backend_cpu_new(int threads, attu_error *err);

/* The GPU backend (gpu/, built with CUDA): NULL with err set when no GPU is
 * usable. memory_budget in bytes, 0 = 90% of free memory. db/ references it
 * weakly, so builds without it fall back to the CPU backend. */
attu_backend *attu_backend_gpu_new(size_t memory_budget, attu_error *err);

/* Convenience wrappers used by the executor. */
attu_buf *attu_be_alloc(attu_backend *be, size_t bytes, attu_error *err);
void      attu_be_free(attu_backend *be, attu_buf *buf);

#endif
