/*
 * db_unique.h - PRIMARY KEY / UNIQUE constraints in the db layer
 * (db_unique.c): their names at CREATE TABLE, and the checks that
 * INSERT, COPY, UPDATE and INSERT ... ON CONFLICT run on a table's new
 * version before it replaces the old one.
 */
#ifndef ATTU_DB_UNIQUE_H
#define ATTU_DB_UNIQUE_H

#include <stddef.h>
#include <stdint.h>

#include "engine/catalog.h"
#include "engine/unique.h"
#include "planner/ast.h"
#include "planner/binder.h"

struct attu_session;

/* The constraints CREATE TABLE st declares over its columns defs, merged
 * and named as PostgreSQL does (the primary key first): *out (malloc'd,
 * *nout of them; NULL and 0 for none). 42703 / 42701 / 42P16 / 42P07. */
int db_unique_define(const attu_catalog *cat, const attu_ast_stmt *st, const attu_column_def *defs, int ncols,
                     attu_unique **out, int *nout, attu_error *err);

/* Checks t, the new version of the table of its name, against that
 * table's constraints: the rows that changed are those >= first (changed
 * NULL: appended rows) or those with changed[r] != 0. 0 when no key
 * collides; else 23505 with PostgreSQL's message and DETAIL for the row
 * PostgreSQL's row-by-row check would stop at. The caller holds the
 * write lock. */
int db_unique_check(struct attu_session *s, attu_table *t, size_t first, const uint8_t *changed, attu_error *err);

/* The same without the DEFERRABLE constraints: the checks PostgreSQL
 * makes row by row (an error found by them comes before any deferrable
 * constraint's, which waits for the end of the statement). */
int db_unique_check_immediate(struct attu_session *s, attu_table *t, size_t first, const uint8_t *changed,
                              attu_error *err);

/* The same for UPDATE (its rows changed[r]), whose NOT DEFERRABLE
 * constraints fail as PostgreSQL's row-by-row check does in the table's
 * row order: a row whose new key a row yet to be updated still holds
 * fails too (`UPDATE t SET id = id + 1` over 1, 2, 3 meets 2), where
 * db_unique_check looks at the final keys only. */
int db_unique_check_update(struct attu_session *s, attu_table *t, const uint8_t *changed, attu_error *err);

/* The catalog's version of t's table when t is a statement's new version
 * of it (the same columns; its first rows are the old version's), else
 * NULL. */
attu_table *db_unique_old_version(struct attu_session *s, const attu_table *t);

/* DEFERRABLE constraints (db_unique_defer.c). defer_check: the part of
 * db_unique_check for them: the rows of t (first / changed as there)
 * whose key another row held when PostgreSQL's row-by-row insertion
 * would have met them are rechecked at the end of the statement (23505
 * for the first still duplicated) or, while the constraint is deferred,
 * queued for COMMIT / SET CONSTRAINTS ... IMMEDIATE (db_defer.c). recheck:
 * 23505 for the first row of probe (a copy of rows of t's layout) whose
 * key two or more rows of t hold; 0 when none does. */
int db_unique_defer_check(struct attu_session *s, attu_table *t, size_t first, const uint8_t *changed, attu_error *err);
int db_unique_recheck(const attu_table *t, const attu_unique *u, const attu_table *probe, attu_error *err);

/* For each row r >= first of t, then each row of extra (NULL: none) as
 * if it followed t's (the old rows below first), out[r - first] = the
 * smallest row holding r's key of constraint u (an old row when one
 * does), or -1 when a key column of r is NULL. */
int db_unique_groups(struct attu_session *s, attu_table *t, const attu_table *extra, const attu_unique *u, size_t first,
                     int64_t *out, attu_error *err);

/* The key set (engine/key_set.h) of constraint u over t, the catalog's
 * version of its table (not a statement's candidate: the set stays with
 * t and moves on with db_unique_follow), built when t has none: NULL
 * when the index is off (ATTU_UNIQUE_INDEX=off) or out of memory. The
 * foreign keys' checks probe it (db_fkey.c). The caller holds the write
 * lock. */
struct attu_key_set *db_unique_key_set(attu_table *t, const attu_unique *u);

/* The key set of u that t carries in step with it, or NULL when it has
 * none (never built here: db_unique_key_find_built builds for a lookup);
 * NULL for a DEFERRABLE u, which may hold duplicates. The caller holds
 * index_mu (db_unique.c) or is t's only reader. */
struct attu_key_set *db_unique_key_set_kept(const attu_table *t, const attu_unique *u);

/* For a query, which holds only the database's read lock while writers
 * of t may run beside it (db_key_lookup.c): whether t carries u's key set
 * now (a hint: a writer may take it off before the lookup), and the
 * lookup itself, under the key index's own lock. find: 1 with *row the
 * row of t whose key equals row r of probe (a table of t's column types,
 * only u's columns read), -1 when none does or the key has a NULL; 0
 * when t carries no set of u (not built here). */
bool db_unique_key_set_held(const attu_table *t, const attu_unique *u);
int db_unique_key_find(const attu_table *t, const attu_unique *u, const attu_table *probe, size_t r, int64_t *row);

/* db_unique_key_find, but when t carries no set of u and may_build, the
 * query builds one first (one pass over the key columns' host data, as a
 * writer's check does), outside any lock, and attaches it to t under the
 * key index's lock unless another was attached meanwhile (the extra one
 * is freed): later lookups of t find it. t must be a version no one
 * changes (one a catalog or snapshot holds); the set holds exactly its
 * keys. No build on a version of 65536 rows or more before 16 lookups of
 * it scanned (db_unique.c: the build costs some 10-20 scans), when
 * another query is building the same set (that one scans), when the
 * index is off, for a DEFERRABLE u, or when out of memory: 0 then, and
 * the caller scans. */
int db_unique_key_find_built(const attu_table *t, const attu_unique *u, const attu_table *probe, size_t r,
                             bool may_build, int64_t *row);

/* Hands old's key index (engine/key_set.h) to t, its next version, now in
 * the catalog in its place: t holds old's rows, those with changed[r]
 * (changed NULL: none) updated, then rows appended, and it passed
 * db_unique_check. Each key set takes the changed and appended rows'
 * keys (O(those rows)); one it cannot follow is dropped and rebuilt when
 * next needed. A writer that makes any other change (TRUNCATE, ALTER
 * TABLE) does not call it, so its new version has no index and the
 * next check builds one; a statement that fails never calls it, so the
 * index is never ahead of the table. The caller holds the write lock. */
void db_unique_follow(attu_table *old, attu_table *t, const uint8_t *changed);

/* The same for a DELETE: t holds old's rows r with keep[r], in order.
 * The removed rows' keys leave each set and the others are renumbered
 * (one pass over the set's slots, no hashing). */
void db_unique_follow_delete(attu_table *old, attu_table *t, const uint8_t *keep);

/* ROLLBACK and ROLLBACK TO SAVEPOINT: from, a version the transaction
 * made and now discards, hands each key set that followed its changes
 * back to to, the version of its table the rollback restores (the
 * committed one, or the savepoint's), undoing the changes the set
 * logged since it held to's keys (engine/key_set_undo.h): O(those
 * changes), no rebuild. A set with no way back to `to` (its log dropped,
 * or a set built on a later version) stays with from (to then builds one
 * when next needed, as before). catalog: the same
 * for each table of work (the working catalog going) against the
 * version of its name in target (what replaces it). The caller holds
 * the tables' write locks. */
void db_unique_rollback_index(attu_table *from, attu_table *to);
void db_unique_rollback_catalog(const attu_catalog *work, const attu_catalog *target);

/* COMMIT: t's sets' undo logs go (no ROLLBACK can come back to them);
 * changed: the same for each version of work (the catalog committed)
 * that base (what the work started from) does not hold. */
void db_unique_forget_undo(attu_table *t);
void db_unique_forget_changed(const attu_catalog *work, const attu_catalog *base);

/* The error of a statement that names a table that is not there: 42809
 * "is an index" for a constraint's name (PostgreSQL's index is a
 * relation), else 42P01 "relation does not exist". */
int db_no_such_table(struct attu_session *s, const char *name, int position, attu_error *err);

/* PostgreSQL's makeObjectName: name1[_name2]_label cut to 63 bytes
 * (out: ATTU_NAME_MAX + 1 bytes). */
void db_object_name(const char *name1, const char *name2, const char *label, char *out);

/* ALTER TABLE (db_alter.c): a name for a new constraint u of table, as
 * CREATE TABLE chooses one (chosen[0..n): the ones this statement made);
 * whether a given name is taken. */
void db_unique_choose_name(const attu_catalog *cat, const char *table, const attu_column_def *defs, attu_unique *u,
                           const attu_unique *chosen, int n);
bool db_unique_name_taken(const attu_catalog *cat, const char *table, const attu_unique *chosen, int n, const char *name);

/* Checks every row of t (the candidate version of the table of its name)
 * against us[0..nu), as PostgreSQL builds a unique index: 23505 "could
 * not create unique index" with DETAIL "Key (a)=(1) is duplicated." for
 * the first constraint whose keys repeat. */
int db_unique_check_index(struct attu_session *s, attu_table *t, const attu_unique *us, int nu, attu_error *err);

/* 23505 for row `row` of t colliding on u (message and DETAIL). */
int db_unique_violation(const attu_table *t, const attu_unique *u, size_t row, attu_error *err);

/* INSERT ... ON CONFLICT (db_on_conflict.c): *t holds the table's n0
 * rows then the proposed ones; it becomes the version to save, *count
 * the rows inserted or updated and *rows (malloc'd) their rows in it, in
 * the order proposed (for RETURNING), and *changed (malloc'd, one byte a
 * row of it) marks the old rows updated and the rows inserted, for
 * db_unique_follow. */
int db_on_conflict(struct attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                   size_t n0, attu_table **t, size_t *count, size_t **rows, uint8_t **changed, attu_error *err);

/* A table named name of t's columns holding t's rows rows[0..n), in that
 * order. */
attu_table *db_gather_rows(const attu_table *t, const size_t *rows, size_t n, const char *name, attu_error *err);

#endif
