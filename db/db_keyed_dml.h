/*
 * db_keyed_dml.h - DELETE / UPDATE whose WHERE names one row by a
 * PRIMARY KEY / UNIQUE key: the row found through the table's key set
 * instead of a scan (db_keyed_dml.c says when, and why it is exact).
 */
#ifndef ATTU_DB_KEYED_DML_H
#define ATTU_DB_KEYED_DML_H

#include <stddef.h>
#include <stdint.h>

#include "engine/table.h"
#include "planner/ast.h"
#include "planner/binder.h"

struct attu_session;

/* The rows a keyed statement's query reads: the candidate row of the
 * table (none when no row holds the key), as a copy that stands in for
 * the target. */
typedef struct db_keyed_rows db_keyed_rows;

/* 1 with *out when DELETE / UPDATE st on base (its target's name in the
 * query: qual) finds its candidate through a key set; 0 when the scan
 * must run (the statement does not fit, the table has no key set, a
 * doubt); -1 with err (no memory). The caller holds the write lock. */
int db_keyed_rows_find(struct attu_session *s, const char *sql, const attu_ast_stmt *st, const char *qual,
                       const attu_table *base, const attu_bind_params *params, db_keyed_rows **out,
                       attu_error *err);

/* Makes the binder read the copy in the target's place. */
void db_keyed_rows_params(db_keyed_rows *k, attu_bind_params *bp);

/* After the query ran: *map the copy's rows' places in the table (*n of
 * them: 0 or 1), or NULL when the binder did not read the copy (the
 * query's rowids are then the table's own). 0, or -1 with err. */
int db_keyed_rows_map(const db_keyed_rows *k, const int64_t **map, size_t *n, attu_error *err);

void db_keyed_rows_free(db_keyed_rows *k);

#endif
