/*
 * test_indexes.c - CREATE INDEX's indexes across a restart (attu.indexes),
 * and the messages, DETAILs and HINTs the SQL logic tests cannot see
 * (tests/sql/create_index_pg.test checks the rest against PostgreSQL).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"

#define INDEXES "SELECT tablename, indexname, indexdef FROM pg_indexes ORDER BY indexname"

Test(indexes, survive_close_and_reopen) {
    char dir[] = "/tmp/attu-indexes-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *d = tdb_open_dir(dir);
    attu_session *s = attu_session_new(d);
    tdb_exec_ok(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c INTEGER)");
    tdb_exec_ok(s, "INSERT INTO t VALUES (1, 10, 'x', 1), (2, 20, 'y', 2)");
    tdb_exec_ok(s, "CREATE UNIQUE INDEX t_b_uq ON t (b DESC NULLS LAST) WITH (fillfactor = 50)");
    tdb_exec_ok(s, "CREATE INDEX ON t (lower(b)) WHERE a > 0");
    tdb_exec_ok(s, "CREATE INDEX \"Odd Name\" ON t USING hash (c)");
    tdb_exec_ok(s, "CREATE INDEX ON t (a) INCLUDE (c)");
    tdb_exec_ok(s, "CREATE INDEX gone ON t ((a + c))");
    tdb_exec_ok(s, "DROP INDEX gone");
    tdb_exec_ok(s, "COMMENT ON INDEX t_b_uq IS 'one b each'");
    /* one made in a block rolled back is not saved; one committed is */
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "CREATE INDEX rolled ON t (c)");
    tdb_exec_ok(s, "ROLLBACK");
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "CREATE INDEX kept ON t (c DESC)");
    tdb_exec_ok(s, "COMMIT");
    char *before = tdb_rows_ok(s, INDEXES);
    attu_session_free(s);
    attu_db_close(d);

    d = tdb_open_dir(dir);
    s = attu_session_new(d);
    char *after = tdb_rows_ok(s, INDEXES);
    cr_assert_str_eq(after, before);
    cr_assert(strstr(after, "CREATE UNIQUE INDEX t_b_uq ON public.t USING btree (b DESC NULLS LAST) WITH (fillfactor='50')"),
              "%s", after);
    cr_assert(strstr(after, "t_lower_idx ON public.t USING btree (lower(b)) WHERE (a > 0)"), "%s", after);
    cr_assert_null(strstr(after, "gone"), "%s", after);
    cr_assert_null(strstr(after, "rolled"), "%s", after);
    cr_assert(strstr(after, "kept ON public.t USING btree (c DESC)"), "%s", after);
    cr_assert_str_eq(tdb_rows(s, "SELECT obj_description('t_b_uq'::regclass, 'pg_class')"), "one b each\n");
    /* the unique index still enforces */
    tdb_expect_error(s, "INSERT INTO t VALUES (3, 30, 'x', 3)", "23505",
                     "duplicate key value violates unique constraint \"t_b_uq\"", "Key (b)=(x) already exists.", NULL);
    /* the indexes follow RENAME COLUMN, DROP COLUMN and RENAME TO, saved */
    tdb_exec_ok(s, "ALTER TABLE t RENAME COLUMN b TO bb");
    tdb_exec_ok(s, "ALTER TABLE t DROP COLUMN c");
    tdb_exec_ok(s, "ALTER TABLE t RENAME TO t2");
    free(before);
    before = tdb_rows_ok(s, INDEXES);
    cr_assert_str_eq(before,
                     "t2|t_b_uq|CREATE UNIQUE INDEX t_b_uq ON public.t2 USING btree (bb DESC NULLS LAST) WITH (fillfactor='50')\n"
                     "t2|t_lower_idx|CREATE INDEX t_lower_idx ON public.t2 USING btree (lower(bb)) WHERE (a > 0)\n"
                     "t2|t_pkey|CREATE UNIQUE INDEX t_pkey ON public.t2 USING btree (id)\n");
    attu_session_free(s);
    attu_db_close(d);

    d = tdb_open_dir(dir);
    s = attu_session_new(d);
    free(after);
    after = tdb_rows_ok(s, INDEXES);
    cr_assert_str_eq(after, before);
    tdb_expect_error(s, "INSERT INTO t2 VALUES (3, 30, 'y')", "23505",
                     "duplicate key value violates unique constraint \"t_b_uq\"", "Key (bb)=(y) already exists.", NULL);
    /* and a dropped table's indexes stay gone */
    tdb_exec_ok(s, "DROP TABLE t2");
    attu_session_free(s);
    attu_db_close(d);

    d = tdb_open_dir(dir);
    s = attu_session_new(d);
    cr_assert_str_eq(tdb_rows(s, INDEXES), "");
    tdb_exec_ok(s, "CREATE TABLE t2 (bb TEXT)");
    tdb_exec_ok(s, "INSERT INTO t2 VALUES ('y'), ('y')");
    attu_session_free(s);
    attu_db_close(d);
    free(before);
    free(after);
    tdb_remove_dir(dir);
}

Test(indexes, messages) {
    attu_db *d;
    attu_session *s = tdb_open_session(&d);
    tdb_exec_ok(s, "CREATE TABLE t (a INTEGER, b TEXT)");
    tdb_exec_ok(s, "INSERT INTO t VALUES (1, 'x'), (1, 'y'), (2, 'y')");
    tdb_expect_error(s, "CREATE UNIQUE INDEX u ON t (a)", "23505", "could not create unique index \"u\"",
                     "Key (a)=(1) is duplicated.", NULL);
    tdb_exec_ok(s, "CREATE UNIQUE INDEX ON t (b, a DESC)");
    tdb_expect_error(s, "INSERT INTO t VALUES (2, 'y')", "23505", "duplicate key value violates unique constraint \"t_b_a_idx\"",
                     "Key (b, a)=(y, 2) already exists.", NULL);
    /* the unique indexes a query checks: PostgreSQL's DETAIL for their keys */
    tdb_expect_error(s, "CREATE UNIQUE INDEX l ON t (lower(b))", "23505", "could not create unique index \"l\"",
                     "Key (lower(b))=(y) is duplicated.", NULL);
    tdb_exec_ok(s, "DROP INDEX t_b_a_idx");
    tdb_exec_ok(s, "CREATE UNIQUE INDEX e ON t ((a + 1), b) WHERE a > 0");
    tdb_expect_error(s, "INSERT INTO t VALUES (1, 'x')", "23505", "duplicate key value violates unique constraint \"e\"",
                     "Key ((a + 1), b)=(2, x) already exists.", NULL);
    tdb_exec_ok(s, "INSERT INTO t VALUES (NULL, NULL), (-1, 'x')");
    tdb_expect_error(s, "CREATE UNIQUE INDEX n ON t (b) NULLS NOT DISTINCT", "23505", "could not create unique index \"n\"",
                     "Key (b)=(x) is duplicated.", NULL);
    tdb_exec_ok(s, "DELETE FROM t WHERE a IS NULL OR a < 0");
    tdb_exec_ok(s, "INSERT INTO t VALUES (NULL, NULL)");
    tdb_exec_ok(s, "CREATE UNIQUE INDEX n ON t (a) NULLS NOT DISTINCT WHERE b IS NULL");
    tdb_expect_error(s, "INSERT INTO t VALUES (NULL, NULL)", "23505", "duplicate key value violates unique constraint \"n\"",
                     "Key (a)=(null) already exists.", NULL);
    tdb_exec_ok(s, "CREATE VIEW v AS SELECT * FROM t");
    tdb_expect_error(s, "CREATE INDEX ON v (a)", "42809", "cannot create index on relation \"v\"",
                     "This operation is not supported for views.", NULL);
    tdb_expect_error(s, "CREATE INDEX ON t (a) WITH (fillfactor = 5)", "22023",
                     "value 5 out of bounds for option \"fillfactor\"", "Valid values are between \"10\" and \"100\".",
                     NULL);
    tdb_expect_error(s, "CREATE INDEX ON t USING gist (a)", "42704",
                     "data type integer has no default operator class for access method \"gist\"", NULL,
                     "You must specify an operator class for the index or define a default operator class for the data type.");
    tdb_exec_ok(s, "CREATE TABLE k (id INTEGER PRIMARY KEY)");
    tdb_expect_error(s, "DROP INDEX k_pkey", "2BP01", "cannot drop index k_pkey because constraint k_pkey on table k requires it",
                     NULL, "You can drop constraint k_pkey on table k instead.");
    tdb_exec_ok(s, "CREATE TABLE q (k INTEGER)");
    tdb_exec_ok(s, "CREATE UNIQUE INDEX q_k ON q (k)");
    tdb_exec_ok(s, "CREATE TABLE g (x INTEGER REFERENCES q (k))");
    tdb_expect_error(s, "DROP INDEX q_k", "2BP01", "cannot drop index q_k because other objects depend on it",
                     "constraint g_x_fkey on table g depends on index q_k",
                     "Use DROP ... CASCADE to drop the dependent objects too.");
    tres r;
    tdb_exec(s, "DROP INDEX q_k CASCADE", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_assert(strstr(r.notices, "drop cascades to constraint g_x_fkey on table g"), "%s", r.notices);
    tres_free(&r);
    tdb_exec(s, "CREATE INDEX IF NOT EXISTS q ON t (a)", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_assert(strstr(r.notices, "relation \"q\" already exists, skipping"), "%s", r.notices);
    tres_free(&r);
    tdb_expect_error(s, "DROP INDEX t", "42809", "\"t\" is not an index", NULL, "Use DROP TABLE to remove a table.");
    attu_session_free(s);
    attu_db_close(d);
}
