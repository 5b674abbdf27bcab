/*
 * db_check.h - CHECK constraints in the db layer (db_check.c): defining
 * them (CREATE TABLE, ALTER TABLE ... ADD), and checking a table's new
 * version against them before it replaces the old one.
 */
#ifndef ATTU_DB_CHECK_H
#define ATTU_DB_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "engine/catalog.h"
#include "engine/check.h"
#include "planner/ast.h"

struct attu_session;

/* The CHECK constraints ds[0..n) (AST entries whose check is set) for t, a
 * version of the table of its name (not necessarily in the catalog), its
 * columns as the statement leaves them: each expression validated as
 * PostgreSQL does (0A000 subquery, 42803 aggregate, 42P20 window
 * function, 42703 / 42P01 names, 42804 not boolean), named (a given name
 * must be new among have[0..nhave) and the ones before it: 42710; else
 * PostgreSQL's t_a_check / t_check, numbered past the names taken) and,
 * when check_rows, evaluated over t's rows (23514 "check constraint ...
 * is violated by some row"). *out: have's then the new ones (malloc'd,
 * each expr malloc'd; db_check_free). alter: ALTER TABLE's message for a
 * name taken. The caller holds the write lock. */
int db_check_define(struct attu_session *s, attu_table *t, const attu_ast_unique_def *const *ds, int n,
                    const attu_check *have, int nhave, bool alter, bool check_rows, attu_check **out, int *nout,
                    attu_error *err);

/* Checks t, the new version of the table of its name, against that
 * table's CHECK constraints: the rows that changed are those >= first
 * (changed NULL) or those with changed[r] != 0. 0 when every row passes
 * (true or NULL); else 23514 for the first failing row and, in it, the
 * first failing constraint by name, as PostgreSQL's row-by-row check. The
 * caller holds the write lock. */
int db_check_rows(struct attu_session *s, attu_table *t, size_t first, const uint8_t *changed, attu_error *err);

/* INSERT and COPY (rows appended at first = the old row count): the
 * CHECKs, then the PRIMARY KEY / UNIQUE constraints (db_unique_check),
 * as PostgreSQL's row-by-row check orders them: when a row fails a
 * CHECK and an earlier row repeats a key, the key's 23505 is the error. */
int db_check_appended(struct attu_session *s, attu_table *t, size_t first, attu_error *err);

/* Checks every row of t (a candidate version of the table of its name)
 * against cs[0..nc), as ALTER TABLE does after a type change: 23514
 * "check constraint "c" of relation "t" is violated by some row". */
int db_check_table(struct attu_session *s, attu_table *t, const attu_check *cs, int nc, attu_error *err);

/* Whether check c's expression names column col (a token of that name). */
bool db_check_uses(const attu_check *c, const char *col);

/* c's expression with column from renamed to; 0, or -1 (out of memory). */
int db_check_rename(attu_check *c, const char *from, const char *to, attu_error *err);

void db_check_free(attu_check *c, int n);

/* Runs the query sql with t standing for the table of its name (added
 * for the query when the catalog has none). The caller holds the write
 * lock. */
attu_result *db_check_run_over(struct attu_session *s, attu_table *t, const char *sql, attu_error *err);
/* The same with the query's ncols columns assigned to types (as INSERT
 * ... SELECT assigns: db_generated.c). */
attu_result *db_check_run_over_assigned(struct attu_session *s, attu_table *t, const char *sql, int ncols,
                                        const attu_type *types, const char *const *names, attu_error *err);

/* "Failing row contains (1, x, null)." for row r of t, PostgreSQL's
 * DETAIL of a row that fails a check (malloc'd; NULL: out of memory). */
char *db_check_failing_row(const attu_table *t, size_t r);

/* Of a check query's one row of n columns (each the lowest failing rowid
 * of one condition, NULL when none fails), the lowest rowid, -1 when none;
 * *which its column. */
int64_t db_check_first_failing(const attu_result *res, int n, int *which);

#endif
