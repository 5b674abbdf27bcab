/*
 * db_fkey.h - FOREIGN KEY constraints in the db layer (db_fkey.c):
 * defining them (CREATE TABLE, ALTER TABLE ... ADD), enforcing them on
 * the statements that change either side, and keeping them in step with
 * DROP, TRUNCATE and ALTER TABLE of the tables they join.
 */
#ifndef ATTU_DB_FKEY_H
#define ATTU_DB_FKEY_H

#include <stddef.h>
#include <stdint.h>

#include "engine/catalog.h"
#include "engine/fkey.h"
#include "planner/ast.h"

struct attu_session;

/* The foreign keys ds[0..n) (AST entries whose fkey is set) of t, a
 * version of the table of its name (in the catalog or being made: a
 * reference to its own name then finds t and its keys tu[0..ntu)):
 * each resolved and validated as PostgreSQL does (42P01, 42809, 42703,
 * 42830, 42804), named (a given name must be new
 * among the table's constraints: 42710; else t_a_fkey, numbered past
 * the names taken) and, when check_rows, checked over t's rows (23503).
 * *out: have[0..nhave) then the new ones (malloc'd). The caller holds
 * the write lock. */
int db_fkey_define(struct attu_session *s, attu_table *t, const attu_unique *tu, int ntu,
                   const attu_ast_unique_def *const *ds, int n, const attu_fkey *have, int nhave,
                   const attu_check *checks, int nchecks, bool check_rows, attu_fkey **out, int *nout,
                   attu_error *err);

/* ALTER TABLE ... VALIDATE CONSTRAINT: f (one of t's, t the catalog's
 * table) over every row of t (23503 for the first that fails). */
int db_fkey_validate(struct attu_session *s, attu_table *t, const attu_fkey *f, attu_error *err);

/* What a statement's foreign key actions changed besides its own table:
 * the versions of other tables they made, in the catalog already, and
 * the ones they replaced (db_fkey_commit saves the first and frees the
 * second; db_fkey_abort puts the second back). */
typedef struct db_fkey_txn db_fkey_txn;

/* A statement made t, the candidate next version of the table of its
 * name, which passed its NOT NULL / CHECK / UNIQUE checks: t holds the
 * catalog version's rows with keep[r] (a DELETE: keep set), or its rows,
 * those with changed[r] set changed, then rows appended (rows >= first
 * are new when changed is NULL). Checks the new and changed rows against
 * t's foreign keys, and runs the actions of the foreign keys that
 * reference the rows removed or whose key changed (CASCADE, SET NULL,
 * SET DEFAULT, each change checked in turn and its own actions run),
 * then the NO ACTION / RESTRICT checks over the final state (23503).
 * On success, *t may be a later version of the table (a foreign key of
 * the table to itself changed it again: *replaced set, the old *t
 * freed), and *txn (NULL when nothing else changed) holds the other
 * tables' changes for db_fkey_commit / db_fkey_abort. The catalog keeps
 * the table's old version. The caller holds the write lock. */
int db_fkey_statement(struct attu_session *s, attu_table **t, size_t first, const uint8_t *changed,
                      const uint8_t *keep, bool *replaced, db_fkey_txn **txn, attu_error *err);
int db_fkey_commit(struct attu_session *s, db_fkey_txn *txn, attu_error *err);
void db_fkey_abort(struct attu_session *s, db_fkey_txn *txn);

/* TRUNCATE of names[0..n): 0A000 when a table outside the list
 * references one of them, unless cascade, which adds those tables (and
 * the tables referencing them, to the end): *more, malloc'd names (each
 * malloc'd), for the caller's NOTICEs and truncation. */
int db_fkey_truncate(struct attu_session *s, const char *const *names, int n, bool cascade, char ***more, int *nmore,
                     attu_error *err);

/* DROP TABLE of names[0..n): 2BP01 when a table outside the list
 * references one of them, unless cascade, which drops those constraints
 * (saving their tables): *ndropped how many, notice the NOTICE for the
 * first ("drop cascades to constraint c on table t"). */
int db_fkey_drop_tables(struct attu_session *s, const char *const *names, int n, bool cascade, char *notice,
                        size_t notice_cap, int *ndropped, attu_error *err);

/* ALTER TABLE: the table `table` is renamed to `to` (every foreign key
 * naming it follows; the callers save), or its columns move: map[i] is
 * the new number of old column i (-1: dropped). A foreign key of
 * another table over a dropped column is 2BP01 unless cascade (then it
 * goes). Saves the other tables it changed. */
int db_fkey_follow_rename(struct attu_session *s, const char *table, const char *to, attu_error *err);
int db_fkey_follow_columns(struct attu_session *s, const char *table, const int *map, int nold, bool cascade,
                           attu_error *err);

/* The foreign key (of any table, *owner its table) that depends on
 * unique constraint u of table, or NULL (ALTER TABLE ... DROP
 * CONSTRAINT: 2BP01 unless cascade). */
const attu_fkey *db_fkey_depends_on(const attu_catalog *cat, const char *table, const attu_unique *u,
                                    const char **owner);

/* ALTER TABLE ... DROP CONSTRAINT ... CASCADE of unique constraint u of
 * table: the other tables' foreign keys on it go (saved); whether f is
 * one (for the table's own). */
int db_fkey_drop_on_key(struct attu_session *s, const char *table, const attu_unique *u, attu_error *err);
bool db_fkey_on_key(const attu_fkey *f, const char *table, const attu_unique *u);

/* ALTER TABLE ... TYPE: t is the new version of the table, converted[i]
 * whether its column i changed type, own[0..nown) its foreign keys (over
 * t's columns). Each foreign key on either side over a converted column
 * must still have comparable types (42804) and hold for the rows
 * (23503), as PostgreSQL rebuilds such a constraint (map as for
 * db_fkey_follow_columns: the other tables' are over the old numbers
 * still). Changes nothing. */
int db_fkey_after_type_change(struct attu_session *s, attu_table *t, const bool *converted, const int *map, int nold,
                              const attu_fkey *own, int nown, attu_error *err);

/* The table's own foreign keys in[0..n) that keep every column, over
 * their new numbers (map as above; a foreign key to the table itself
 * maps its referenced columns too): *out malloc'd. */
int db_fkey_remap_own(const attu_fkey *in, int n, const int *map, int nold, const char *table, attu_fkey **out,
                      int *nout, attu_error *err);

/* A deferred check of foreign key f of table cname come due
 * (db/db_defer.c): g, in the catalog under gname, the rows queued ('c':
 * referencing rows, 'p': referenced keys that went). 23503 as the check
 * at the end of a statement has it. */
int db_fkey_check_deferred(struct attu_session *s, const attu_fkey *f, const char *cname, char kind, const char *gname,
                           const attu_table *g, attu_error *err);

#endif
