/*
 * db_generated.h - stored generated columns (db_generated.c).
 */
#ifndef ATTU_DB_GENERATED_H
#define ATTU_DB_GENERATED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"
#include "engine/table.h"
#include "planner/ast.h"

struct attu_session;
struct attu_result;

/* Whether t has a generated column. */
bool db_generated_any(const attu_table *t);

/* PostgreSQL's 428C9 for a value other than DEFAULT written into
 * generated column col of t: INSERT's "cannot insert a non-DEFAULT value
 * into column", UPDATE's (update) "can only be updated to DEFAULT", with
 * the DETAIL "Column "b" is a generated column.". Returns -1. */
int db_generated_refuse(const attu_table *t, int col, bool update, attu_error *err);

/* Checks the generation expression of column definition cd (column
 * `name` of type `type`) over t (a table being made, or being altered,
 * without the new column; the caller holds the write lock) and gives its
 * text to keep (*out, malloc'd). values (may be NULL): the expression
 * over t's rows, one column of the column's type in row order (ALTER
 * TABLE ... ADD COLUMN's). */
int db_generated_define(struct attu_session *s, attu_table *t, const char *name, attu_type type,
                        const attu_ast_column_def *cd, char **out, struct attu_result **values, attu_error *err);

/* Computes the generated columns of the rows [first, nrows) of *t, or of
 * the rows r with changed[r] (when changed is set): *t, a new version the
 * caller owns and no catalog holds, is replaced by (freed for) one
 * holding them. NOT NULL of a generated column is checked here (23502).
 * Nothing changes without a generated column. */
int db_generated_fill(struct attu_session *s, attu_table **t, size_t first, const uint8_t *changed, attu_error *err);

/* Whether generated column gcol of t reads column col (by name). */
bool db_generated_uses(struct attu_session *s, const attu_table *t, int gcol, const char *col);

#endif
