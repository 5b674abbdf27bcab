/*
 * key_set.h - a hash set of row keys: the index of a PRIMARY KEY or
 * UNIQUE constraint (engine/unique.h), kept on the host beside the table
 * it describes.
 *
 * A key is the values of some columns of a row (a constraint's key
 * columns, in key order). Two keys are equal as PostgreSQL's btree
 * equality of their types finds them, which is what GROUP BY / PARTITION
 * BY on those columns find equal: text compares its bytes (C collation;
 * varchar likewise, char(n) without its trailing blanks, an array as its
 * order-preserving byte string), -0 = 0 and NaN = NaN for floats, 1.0 =
 * 1.00 for numeric, '1 day' = '24 hours' for interval (their spans), and
 * every other type its slot's bytes. A key with a NULL is no key: it is
 * never in a set and never equal to anything (NULLs never collide).
 *
 * The set holds no key bytes: an entry is a row number and the key's hash,
 * and two keys are compared by reading the rows' values from the tables
 * (attu_key_rows says which table a row number stands for). That keeps it
 * at 16 bytes a slot, at most half full: 32 to 64 bytes a key. The
 * values are hashed by value (a TEXT by its bytes, not its dictionary
 * code), so a set stays right for a new version of its table whose
 * dictionaries were merged (an INSERT re-codes the old rows' TEXT).
 *
 * attu_key_index is the sets a table carries (attu_table.key_index),
 * one per constraint that has been checked or looked up by key: built on
 * first use (by a writer's check or a query's lookup), handed from a
 * table to its next version by the writer that made it when it can follow
 * the change cheaply (db/db_unique.c), and freed with the table. Only
 * writers change a set's entries (once it is off the version queries
 * read); queries read one, or attach one they built, through
 * db/db_unique.c, under the lock sets are attached and detached under.
 */
#ifndef ATTU_KEY_SET_H
#define ATTU_KEY_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/table.h"
#include "engine/unique.h"

/* Where the row number of an entry or a probe points: rows below split
 * are rows of a, the others rows (r - split) of b (b NULL: all of a). */
typedef struct attu_key_rows {
    const attu_table *a;
    size_t            split;
    const attu_table *b;
} attu_key_rows;

typedef struct attu_key_set {
    int       ncols;
    int       cols[ATTU_INDEX_MAX_KEYS];   /* the key's table columns */
    attu_type types[ATTU_INDEX_MAX_KEYS];  /* their types when it was built */
    size_t    nrows;       /* it holds the keys of rows [0, nrows) of its table */
    size_t    count;       /* entries */
    size_t    mask;        /* slots - 1 (a power of two) */
    uint64_t *hashes;
    int64_t  *rows;        /* -1: an empty slot */
    /* What the table's writers changed since the set held an earlier
     * version's keys (engine/key_set_undo.h), for a ROLLBACK to hand it
     * back; NULL: none kept. */
    struct attu_key_undo *undo;
} attu_key_set;

typedef struct attu_key_index {
    int            n;
    attu_key_set **sets;
} attu_key_index;

/* The hash of row r's key over cols (of t); false when a key value is NULL. */
bool attu_key_hash(const attu_table *t, const int *cols, int ncols, size_t r, uint64_t *hash);

/* Whether row ra of a and row rb of b hold equal keys over cols (tables
 * of the same column types; neither key has a NULL). */
bool attu_key_equal(const attu_table *a, size_t ra, const attu_table *b, size_t rb, const int *cols, int ncols);

/* An empty set for the key cols of t's columns, sized for expect keys. */
attu_key_set *attu_key_set_new(const attu_table *t, const int *cols, int ncols, size_t expect);
void attu_key_set_free(attu_key_set *ks);

/* The entry whose key equals row r of probe (of hash h), -1 when none;
 * the entries' rows read through rows. */
int64_t attu_key_set_find(const attu_key_set *ks, uint64_t h, const attu_key_rows *rows, const attu_table *probe,
                          size_t r);

/* Adds row r (key hash h) without looking for an equal key. -1 when out
 * of memory (the set is unchanged). */
int attu_key_set_add(attu_key_set *ks, uint64_t h, int64_t r);

/* Removes the entry of row r (key hash h), if there: whether it was. */
bool attu_key_set_remove(attu_key_set *ks, uint64_t h, int64_t r);

/* Frees a table's sets. */
void attu_key_index_free(attu_key_index *ix);

#endif
