/*
 * index.h - a table's indexes made by CREATE INDEX.
 *
 * attu scans: the GPU reads whole columns, so an index changes no plan.
 * An index is kept because schemas written for PostgreSQL make them and
 * read them back (pg_indexes, pg_get_indexdef, psql's \d), and because a
 * UNIQUE one enforces its key: that part goes through the PRIMARY KEY /
 * UNIQUE machinery (unique.h), where a unique index over plain columns is
 * an attu_unique with `index` set, kept in step with its entry here by
 * the db layer (db/db_index.c), which checks the other unique ones
 * (expressions, WHERE, NULLS NOT DISTINCT) with a query. The entry here is the definition: what the statement
 * said, as pg_get_indexdef prints it back.
 *
 * Key columns are table column numbers, so RENAME COLUMN and ALTER COLUMN
 * TYPE leave them as they are (the definition prints the current name);
 * an expression key and the WHERE predicate are SQL text over the column
 * names, which RENAME COLUMN rewrites (planner/ident_rename.c), as a
 * CHECK constraint's. The catalog keeps a table's indexes beside it
 * (catalog.h: attu_catalog_set_indexes copies them, strings included);
 * storage writes them all in <data-dir>/attu.indexes
 * (engine/storage_indexes.c).
 */
#ifndef ATTU_INDEX_H
#define ATTU_INDEX_H

#include <stdbool.h>

#include "engine/table.h"
#include "engine/unique.h"

/* a key column's ordering, as written (pg_index.indoption's meaning) */
#define ATTU_INDEX_DESC        1   /* DESC */
#define ATTU_INDEX_NULLS_FIRST 2   /* NULLS FIRST written */
#define ATTU_INDEX_NULLS_LAST  4   /* NULLS LAST written */

typedef struct attu_index_def {
    char name[ATTU_NAME_MAX + 1];
    char method[ATTU_NAME_MAX + 1];       /* btree, hash, gist, gin, spgist, brin */
    bool unique;
    bool nulls_not_distinct;              /* NULLS NOT DISTINCT (unique only) */
    int  nkeys;                           /* key columns: cols[0..nkeys) */
    int  ncols;                           /* with INCLUDE's: cols[nkeys..ncols) */
    int  cols[ATTU_INDEX_MAX_KEYS];       /* table column, or -1 for an expression */
    unsigned char order[ATTU_INDEX_MAX_KEYS];   /* ATTU_INDEX_* bits */
    /* malloc'd, NULL when absent: an expression key's SQL text; the text
     * after the key in the definition (" COLLATE \"C\" text_pattern_ops"),
     * ordering excluded */
    char *expr[ATTU_INDEX_MAX_KEYS];
    char *suffix[ATTU_INDEX_MAX_KEYS];
    /* an expression column's name in the index (pg_attribute's: the
     * function's name, "expr", "expr1", ...) */
    char *names[ATTU_INDEX_MAX_KEYS];
    char *where;                          /* a partial index's predicate */
    char *options;                        /* WITH's storage parameters: "fillfactor='70'" */
} attu_index_def;

/* Copies src (its strings too) into dst; -1 when out of memory (dst then
 * holds no string). attu_index_clear frees an index's strings. */
int attu_index_copy(attu_index_def *dst, const attu_index_def *src);
void attu_index_clear(attu_index_def *ix);

/* A unique index's key as the PRIMARY KEY / UNIQUE machinery enforces it
 * (an attu_unique with `index` set): false, *u untouched, when ix is not
 * unique, or is unique over expressions, partial (WHERE) or NULLS NOT
 * DISTINCT: those keys are not plain columns over every row, and the db
 * layer checks them with a query instead (db/db_index.c). */
bool attu_index_unique_key(const attu_index_def *ix, attu_unique *u);

#endif
