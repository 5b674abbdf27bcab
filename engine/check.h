/*
 * check.h - a table's CHECK constraints.
 *
 * A constraint is a name (PostgreSQL's t_a_check / t_check or the one
 * CONSTRAINT gave) and its expression as SQL text over the table's column
 * names. Text, because the db layer evaluates it as a query over a
 * statement's new rows (db/db_check.c) on whichever backend runs, and a
 * RENAME COLUMN rewrites it token by token as a view's text is rewritten
 * (planner/ident_rename.c). The catalog keeps a table's checks beside it
 * (catalog.h), storage writes them in the schema file.
 */
#ifndef ATTU_CHECK_H
#define ATTU_CHECK_H

#include <stdbool.h>

#include "engine/table.h"

typedef struct attu_check {
    char  name[ATTU_NAME_MAX + 1];
    char *expr;   /* malloc'd SQL text of the boolean expression */
    /* ADD ... NOT VALID: the rows it was added over were not checked
     * (pg_constraint.convalidated false) until VALIDATE CONSTRAINT; new
     * and changed rows are checked all the same */
    bool  not_valid;
} attu_check;

#endif
