/*
 * fkey.h - a table's FOREIGN KEY constraints.
 *
 * A constraint lives with the referencing table (its owner, as
 * PostgreSQL's pg_constraint.conrelid): its name (PostgreSQL's t_a_fkey
 * or the one CONSTRAINT gave), the owner's key columns, the referenced
 * table by name and its columns, in key order, and the actions. Columns
 * are numbers, so a RENAME COLUMN on either side leaves a constraint as
 * it is; a RENAME TO of the referenced table rewrites ref_table in every
 * constraint that names it, and an ALTER that moves the referenced
 * table's columns renumbers ref_cols (db/db_fkey.c). The catalog keeps a
 * table's foreign keys beside it (catalog.h), storage writes them in the
 * schema file, and the db layer enforces them (db/db_fkey.c).
 */
#ifndef ATTU_FKEY_H
#define ATTU_FKEY_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/table.h"
#include "engine/unique.h"

/* Actions and match types by PostgreSQL's letters (pg_constraint's
 * confupdtype / confdeltype / confmatchtype). */
#define ATTU_FK_NO_ACTION   'a'
#define ATTU_FK_RESTRICT    'r'
#define ATTU_FK_CASCADE     'c'
#define ATTU_FK_SET_NULL    'n'
#define ATTU_FK_SET_DEFAULT 'd'
#define ATTU_FK_MATCH_SIMPLE 's'
#define ATTU_FK_MATCH_FULL   'f'

typedef struct attu_fkey {
    char name[ATTU_NAME_MAX + 1];
    int  ncols;
    int  cols[ATTU_INDEX_MAX_KEYS];      /* the owner's columns */
    char ref_table[ATTU_NAME_MAX + 1];
    int  ref_cols[ATTU_INDEX_MAX_KEYS];  /* the referenced table's */
    char on_update, on_delete, match;
    /* ON DELETE SET NULL (cols) / SET DEFAULT (cols): the key positions
     * (indexes into cols) set, in the order written, each once; 0: all of
     * the key (key positions, so a column renumbering leaves them) */
    int  ndelete_set;
    int  delete_set[ATTU_INDEX_MAX_KEYS];
    /* when it was made (a number that grows, db/db_fkey.c): the actions
     * of the foreign keys that reference one table run in this order, as
     * PostgreSQL fires their triggers in the order they were made */
    uint64_t made;
    /* ADD ... NOT VALID: the rows it was added over were not checked
     * (convalidated false) until VALIDATE CONSTRAINT */
    bool not_valid;
    /* DEFERRABLE, INITIALLY DEFERRED (condeferrable / condeferred): when
     * the checks it defers run is the session's (db/db_defer.c); the
     * actions (CASCADE, SET NULL, SET DEFAULT) and RESTRICT run at the
     * end of their statement always, as PostgreSQL's */
    bool deferrable, initially_deferred;
} attu_fkey;

#endif
