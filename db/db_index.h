/*
 * db_index.h - CREATE / DROP / ALTER INDEX and REINDEX (db_index.c), and
 * what the other statements call to keep indexes with their tables.
 */
#ifndef ATTU_DB_INDEX_H
#define ATTU_DB_INDEX_H

#include "engine/catalog.h"
#include "engine/index.h"
#include "planner/ast.h"

#include <stdint.h>

struct attu_session;
struct attu_exec_callbacks;

int db_exec_create_index(struct attu_session *s, const attu_ast_stmt *st, const struct attu_exec_callbacks *cb,
                         attu_error *err);
int db_exec_drop_index(struct attu_session *s, const attu_ast_stmt *st, const struct attu_exec_callbacks *cb,
                       attu_error *err);
int db_exec_alter_index(struct attu_session *s, const attu_ast_stmt *st, const struct attu_exec_callbacks *cb,
                        attu_error *err);

/* The unique indexes over expressions, partial (WHERE) or NULLS NOT
 * DISTINCT of t's table, checked over t, its candidate version (rows >=
 * first, or those with changed[r], new or changed): 23505 as
 * db_unique_check's. db_unique_check calls it after the other keys. */
int db_index_check_rows(struct attu_session *s, attu_table *t, size_t first, const uint8_t *changed, attu_error *err);

/* Writes every table's indexes to the data directory (none: 0). */
int db_index_save(struct attu_session *s, attu_error *err);

/* ALTER TABLE moved table's columns: old is the version before, map[c]
 * the new number of its column c (-1: dropped, which drops every index
 * that uses it, as PostgreSQL does); renamed_from / renamed_to (or NULL)
 * a RENAME COLUMN, which the expressions and predicates follow. The
 * uniques of unique indexes follow too. Call after the new version and
 * its constraints are in the catalog. */
int db_index_columns_changed(struct attu_session *s, const char *table, const attu_table *old, const int *map,
                             const char *renamed_from, const char *renamed_to, attu_error *err);

#endif
