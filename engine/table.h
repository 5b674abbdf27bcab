/*
 * table.h - a named set of equally long columns.
 *
 * Tables are replaced, not mutated, by anything that changes their rows
 * (COPY, INSERT, UPDATE, DELETE, TRUNCATE: engine/table_rewrite.h): the
 * writer builds a new attu_table next to the old one and swaps the pointer
 * in its transaction's catalog (db/db_txn.c), which COMMIT saves and
 * publishes. That is what makes a failed load leave the table exactly as
 * it was, and lets the committed catalog and a transaction's share every
 * version neither changed (shares).
 */
#ifndef ATTU_TABLE_H
#define ATTU_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/column.h"
#include "engine/error.h"
#include "engine/types.h"

#define ATTU_NAME_MAX 63   /* PostgreSQL's NAMEDATALEN - 1 */
#define ATTU_TABLE_LINEAGE 8   /* ancestors a version remembers (attu_table.lineage) */

typedef struct attu_column_def {
    char      name[ATTU_NAME_MAX + 1];  /* folded (lower case) unless quoted */
    attu_type type;
    bool      not_null;
    /* declared PRIMARY KEY at CREATE TABLE (its NOT NULL cannot be
     * dropped: ALTER TABLE, 42P16); not kept in the data directory */
    bool      primary_key;
    /* 's': GENERATED ALWAYS AS (expr) STORED, whose expression the
     * catalog keeps as the column's DEFAULT text (db/db_generated.c);
     * 0: a plain column */
    char      generated;
} attu_column_def;

typedef struct attu_table {
    char             name[ATTU_NAME_MAX + 1];
    int              ncols;
    attu_column_def *defs;
    attu_column    **cols;      /* ncols columns, each nrows long */
    size_t           nrows;
    uint64_t         version;   /* bumped on every replacement */
    /* Set when storage could not verify this table at start: it is listed
     * but every query on it fails with XX001 and this reason. */
    bool             unavailable;
    char             unavailable_reason[256];
    /* The hash sets of its PRIMARY KEY / UNIQUE keys (engine/key_set.h),
     * built by the first check or lookup by key that needs them and
     * handed on to the next version by the writer that can follow its
     * change (db/db_unique.c); NULL for none. Never copied by
     * attu_table_clone; freed with the table. A query's lookup by key
     * reads it, and may attach a set it built, under db/db_unique.c's
     * lock, which every attaching and detaching takes. */
    struct attu_key_index *key_index;
    /* How many lookups by key found no key set on this version and
     * scanned (db/db_unique.c db_unique_key_find_built: a large version's
     * set is built by a lookup only once there were several); under
     * db/db_unique.c's lock. A cache's counter, as key_index. */
    unsigned         key_misses;
    /* Catalogs holding it besides the first (0: one owner). A
     * transaction's working catalog shares the committed catalog's
     * versions (db/db_txn.c); attu_table_free frees a version only when
     * the last catalog lets go of it. Versions are never changed in place
     * once a catalog holds them (only key_index, a cache, moves on). */
    int              shares;
    /* Who this version is, for the data directory's append-only commits
     * (engine/storage.c): uid names this version (never 0 for one made
     * by attu_table_new or attu_table_clone*; 0 means "unknown" and never
     * matches), and lineage lists earlier versions whose rows are this
     * version's first rows, unchanged in value (a TEXT row's string, not
     * its dictionary code, which may move): entry k says rows [0,
     * lineage[k].rows) of version lineage[k].uid are rows [0,
     * lineage[k].rows) here. Only writers that append to a copy and leave
     * the old rows' values alone record it (attu_table_note_append: INSERT,
     * COPY); every other new version starts with none, so storage writes
     * it whole. The newest ancestor comes first; at most
     * ATTU_TABLE_LINEAGE are kept. */
    uint64_t         uid;
    int              nlineage;
    struct { uint64_t uid; size_t rows; } lineage[ATTU_TABLE_LINEAGE];
} attu_table;

/* An empty table with the given columns (names must be unique: 42701). */
attu_table *attu_table_new(const char *name, int ncols,
                           const attu_column_def *defs, attu_error *err);
void attu_table_free(attu_table *t);   /* drops one owner (shares) */
/* One more owner (a cloned catalog); returns t. */
attu_table *attu_table_share(attu_table *t);

/* Deep copy of rows and schema (dictionaries shared). */
attu_table *attu_table_clone(const attu_table *t, attu_error *err);
/* The same with room for extra_rows more rows in every column. (INSERT's
 * and COPY's new versions share the old columns' buffers instead where
 * they can: db_append_rows, attu_column_append_version.) */
attu_table *attu_table_clone_reserve(const attu_table *t, size_t extra_rows, attu_error *err);

/* t's name, schema, row count and version with no columns yet (cols[i]
 * NULL, which attu_table_free skips): the caller puts in the new
 * version's columns (db_append_rows: attu_column_append_version). */
attu_table *attu_table_shell(const attu_table *t, attu_error *err);

/* A fresh version id (never 0, unique across processes in practice: a
 * random base drawn once, then counted up). */
uint64_t attu_table_new_uid(void);

/* Records that t holds base's rows unchanged as its first base->nrows rows
 * (t appended to a copy of base): base itself and base's own lineage
 * become t's lineage. Only call it when no old row's value changed. */
void attu_table_note_append(attu_table *t, const attu_table *base);

/* Column index by folded name, or -1. */
int attu_table_find_column(const attu_table *t, const char *name);

#endif
