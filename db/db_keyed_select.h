/*
 * db_keyed_select.h - a SELECT whose WHERE names one row of its table by
 * a PRIMARY KEY / UNIQUE key: the row found through the table's key set
 * (db_key_lookup.c) and the query run over it in the table's place
 * instead of a scan (db_keyed_select.c says which queries).
 */
#ifndef ATTU_DB_KEYED_SELECT_H
#define ATTU_DB_KEYED_SELECT_H

#include "db/db_key_lookup.h"

struct attu_session;

/* 1 with *out when query q (a SELECT statement's, or the source of
 * INSERT ... SELECT / CREATE TABLE AS, run with params) reads
 * a table, alone or joined, whose key its WHERE names: the copy to read
 * in its place (db_key_copy_params); 0 when the query must scan; -1 with
 * err (no memory). The caller holds the read lock, and frees *out after
 * the run. */
int db_keyed_select_find(struct attu_session *s, const char *sql, const attu_ast_query *q,
                         const attu_bind_params *params, db_key_copy **out, attu_error *err);

#endif
