#ifndef ATTU_FAILING_ROW_H
#define ATTU_FAILING_ROW_H

/*
 * PostgreSQL's DETAIL for a row a constraint refused (23502, 23514):
 * "Failing row contains (1, x, null)." Column c's value is cols[c] at row
 * rows[c] (cols[c] NULL: null), written as its output function writes it;
 * one longer than 64 bytes is cut there, at a character boundary, and
 * followed by "...". Used by the CHECK constraints (db/db_check.c) and the
 * NOT NULL checks of INSERT (db/db_ddl.c) and UPDATE (table_rewrite.c).
 */

#include <stddef.h>

#include "engine/column.h"

/* The DETAIL's text (malloc'd; the caller frees), or NULL when out of
 * memory. */
char *attu_failing_row(const attu_column *const *cols, const size_t *rows, int ncols);

#endif
