/*
 * unique.h - a table's PRIMARY KEY and UNIQUE constraints.
 *
 * A constraint is a name (PostgreSQL's: t_pkey, t_a_key, t_a_b_key, or the
 * one CONSTRAINT gave) and the table columns of its key, in key order. The
 * catalog keeps a table's constraints beside it (catalog.h, as it keeps
 * DEFAULTs), storage writes them in the schema file, and the db layer
 * enforces them on every statement that adds or changes rows
 * (db/db_unique.c) through a key index per constraint: a hash set of the
 * table's keys on the host (engine/key_set.h), built on first use and
 * kept in step with the table by the writers, so that a statement looks
 * up only its own new or changed rows.
 */
#ifndef ATTU_UNIQUE_H
#define ATTU_UNIQUE_H

#include <stdbool.h>

#include "engine/table.h"

#define ATTU_INDEX_MAX_KEYS 32   /* PostgreSQL's INDEX_MAX_KEYS */

typedef struct attu_unique {
    char name[ATTU_NAME_MAX + 1];
    bool primary;                   /* PRIMARY KEY (its columns are NOT NULL) */
    /* a CREATE UNIQUE INDEX's key (index.h), no constraint: enforced as
     * the others, but no pg_constraint row, no DROP / RENAME CONSTRAINT,
     * no ON CONFLICT ON CONSTRAINT; storage keeps it with the indexes
     * (attu.indexes), not in the table's schema */
    bool index;
    int  ncols;
    int  cols[ATTU_INDEX_MAX_KEYS]; /* table column of each key column */
    /* DEFERRABLE, INITIALLY DEFERRED (condeferrable / condeferred;
     * indimmediate is !deferrable): such a constraint's check waits until
     * the end of the statement, or of the transaction while deferred
     * (db/db_unique_defer.c), so its table may hold duplicate keys
     * meanwhile and it has no key index */
    bool deferrable, initially_deferred;
} attu_unique;

#endif
