/*
 * column.h - one column of values: fixed-width slots plus a validity bitmap.
 *
 * Slot layout per type is in types.h. validity is NULL when the column has
 * no NULLs (the common case costs nothing); otherwise bit i (word i/64, bit
 * i%64) is 1 when row i holds a value. A NULL row's slot holds zero so that
 * kernels may read it without branching. TEXT columns hold int32 codes into
 * dict (dictionary.h), which the column references.
 *
 * `device` belongs to the backend: the GPU backend caches the column's
 * device copy there (uploaded once, freed with the column).
 */
#ifndef ATTU_COLUMN_H
#define ATTU_COLUMN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/append_claims.h"
#include "engine/dictionary.h"
#include "engine/error.h"
#include "engine/types.h"

/* What the star join learns of a column as a join key (executor_star.c):
 * the MIN and MAX of its non-NULL values (any: it has one) and whether no
 * value repeats, computed once and kept for the column's life, as its rows
 * never change in place (an INSERT or COPY appends to a new version of the
 * column; UPDATE and DELETE build new columns, table_rewrite.h). state:
 * 0 unknown, 1 being computed, 2 known; the fields are written before
 * state becomes 2 (release) and read after it is seen
 * (acquire), so queries running side by side share them safely. */
typedef struct attu_key_stats {
    int     state;
    bool    any, unique;
    /* unique, no NULL, and key kmin + i at row i: a table loaded in key
     * order, whose join partners are row numbers with nothing to look up */
    bool    identity;
    int64_t kmin, kmax;
} attu_key_stats;

/* The MIN and MAX of a column's non-NULL values (any: it has one) and
 * whether it holds a NULL, as the dense group-by's layout needs them
 * (dense_layout): measured on first use and kept, as key_stats is (state
 * and ordering alike). Raw values (TEXT: dictionary codes). */
typedef struct attu_value_range {
    int     state;
    bool    any, nulls;
    int64_t min, max;
} attu_value_range;

/* Buffers that successive versions of one column share (column.c,
 * attu_column_append_version): the newest version's rows are a prefix of
 * them, every older version's rows a shorter prefix. Only the newest may
 * append in place (claims: engine/append_claims.h), any other writer
 * copies. */
typedef struct attu_column_store {
    int       refs;        /* columns pointing at it */
    attu_append_claims claims;   /* in rows */
    size_t    capacity;    /* slots of data (and bits of validity) */
    void     *data;
    uint64_t *validity;    /* NULL until a version records a NULL */
} attu_column_store;

typedef struct attu_column {
    attu_type type;
    size_t    length;      /* rows */
    size_t    capacity;    /* slots allocated */
    void     *data;
    uint64_t *validity;    /* NULL = all valid */
    attu_dictionary *dict; /* TEXT only */
    void     *device;      /* backend-owned cache; see backend.h */
    void    (*device_free)(void *device);
    attu_key_stats key_stats;
    attu_value_range range;
    /* Owners besides the first (0: one owner). A column moves unchanged
     * from a table version to the next (ALTER TABLE RENAME, ADD COLUMN):
     * while a transaction's catalog and the committed one both hold the
     * old version (db/db_txn.c), both versions own it, and
     * attu_column_free frees it only when the last one lets go. */
    int       shares;
    /* Where data and validity live when other versions share them
     * (attu_column_store above; NULL: they are this column's own). Such a
     * column's data and capacity are the store's, its validity the
     * store's or NULL (no NULL among its rows); its first length rows
     * never change. A version that appended in place claimed rows
     * [claim_base, claim_end) of the store; freeing it gives them back
     * when no newer version was appended after it (a rolled-back INSERT
     * leaves the next one appending in place). */
    attu_column_store *store;
    size_t    claim_base, claim_end;
    /* TEXT: at most this many of dict's strings are used by no row (a
     * DELETE or UPDATE of a few rows keeps the dictionary it could have
     * trimmed, table_rewrite.c); copies and new versions inherit it. */
    size_t    dict_unused;
} attu_column;

attu_column *attu_column_new(attu_type type, size_t capacity, attu_error *err);
void attu_column_free(attu_column *c);   /* drops one owner (shares) */
/* One more owner: the next attu_column_free only drops it. Returns c. */
attu_column *attu_column_share(attu_column *c);

/* Grows capacity to at least n slots (and the bitmap, if present). A
 * column sharing a store first takes a copy of its own rows (its old rows
 * are no longer only its own to grow into). */
int attu_column_reserve(attu_column *c, size_t n, attu_error *err);

/* Makes the validity bitmap exist (all valid) so NULLs can be recorded
 * (a column sharing a store takes a copy of its own first). */
int attu_column_ensure_validity(attu_column *c, attu_error *err);

static inline bool attu_column_is_null(const attu_column *c, size_t row) {
    return c->validity && !((c->validity[row >> 6] >> (row & 63)) & 1u);
}
void attu_column_set_null(attu_column *c, size_t row, bool is_null);

/* Deep copy (dictionary shared by reference). */
attu_column *attu_column_clone(const attu_column *c, attu_error *err);
/* The same with room for capacity slots (at least c's length): a copy
 * that rows are appended to next grows without a second copy. */
attu_column *attu_column_clone_reserve(const attu_column *c, size_t capacity, attu_error *err);

/* A new version of c with n rows more (length c->length + n): rows
 * [c->length, c->length + n) are zero and valid, the caller's to write
 * (attu_column_append_null records a NULL among them); the first rows are
 * c's. When c is the newest version of a store with room, the new version
 * shares c's buffers and costs O(n): c keeps seeing its own rows. Else
 * (or when private_copy: the caller rewrites old rows, as a dictionary
 * re-code does) the rows are copied once into a store with spare room, so
 * that later appends share it. No device copy: a backend uploads the new
 * version as it would any new column (the sharing is host-side only). */
attu_column *attu_column_append_version(const attu_column *c, size_t n, bool private_copy, attu_error *err);
/* Records a NULL at row `row`, one of the rows appended by
 * attu_column_append_version to c. */
int attu_column_append_null(attu_column *c, size_t row, attu_error *err);

/* Number of NULLs. */
size_t attu_column_null_count(const attu_column *c);

/* Formats row `row` as PostgreSQL's text output would; returns length, or
 * (size_t)-1 for NULL. Text values may be longer than cap: then *long_out is
 * pointed at the dictionary bytes instead and buf is untouched. */
size_t attu_column_format(const attu_column *c, size_t row, char *buf,
                          size_t cap, const char **long_out);

/* Calls fn for each element of row `row` of an array column
 * (engine/array.h), in order: v in the register form of the element type
 * (expr_program.h), and for a numeric element its text in num/num_len.
 * Returns the number of elements, or -1 when row is no array. The wire's
 * binary array_send reads elements so, without knowing the encoding. */
struct attu_slot;
/* The dimensions of row `row` of an array column: their number (0 for
 * '{}', -1 when row is no array), lengths and lower bounds into dims and
 * lbs (6 each at most, engine/array.h), outermost first. */
int attu_column_array_dims(const attu_column *c, size_t row, int32_t *dims, int32_t *lbs);
int attu_column_array_each(const attu_column *c, size_t row,
                           void (*fn)(void *ctx, attu_type elem, const struct attu_slot *v,
                                      const char *num, size_t num_len),
                           void *ctx);

/* Row `row` of a range column (engine/range.h) as PostgreSQL's binary
 * range_send writes it: *flags its flag byte (0x01 empty, 0x02 lower
 * bound inclusive, 0x04 upper inclusive, 0x08 lower unbounded, 0x10
 * upper unbounded), and each finite bound (0 lower, 1 upper) as v[i] (an
 * integer, a date's days, a timestamp's microseconds, as the subtype's
 * slot holds it) or, of a numrange, its numeric text in num[i]. Returns
 * 0, or -1 for NULL or a column of another type. */
int attu_column_range_get(const attu_column *c, size_t row, int *flags, int64_t v[2], char num[2][96]);

/* Drops the backend's device copy (after the host data changed). */
void attu_column_invalidate_device(attu_column *c);

#endif
