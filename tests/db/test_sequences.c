/*
 * test_sequences.c - sequences through db/database.h (db/db_sequence.c):
 * persistence across a close and reopen of the data directory (the
 * numbers go on, never repeat; serial and identity columns keep their
 * sequences; DROP TABLE's are gone for good), currval being the
 * session's own, and statements that are only prepared, described or
 * EXPLAINed drawing no number. tests/sql/sequences_pg.test and
 * insert_default_pg.test have the PostgreSQL-checked results.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"

static void expect_error(attu_session *s, const char *sql, const char *sqlstate) {
    tres r;
    tdb_exec(s, sql, &r);
    cr_assert(r.err.set, "%s succeeded", sql);
    cr_assert_str_eq(r.err.sqlstate, sqlstate, "%s: %s", sql, r.err.message);
    tres_free(&r);
}

Test(sequences, survive_close_and_reopen) {
    char dir[] = "/tmp/attu-seq-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *d = tdb_open_dir(dir);
    attu_session *s = attu_session_new(d);
    tdb_exec_ok(s, "CREATE SEQUENCE s START 5 INCREMENT 2");
    tdb_exec_ok(s, "CREATE SEQUENCE \"Odd\tName\" AS smallint MAXVALUE 3 CYCLE");
    cr_assert_str_eq(tdb_rows(s, "SELECT nextval('s'), nextval('s')"), "5|7\n");
    cr_assert_str_eq(tdb_rows(s, "VALUES (nextval('\"Odd\tName\"')), (nextval('\"Odd\tName\"'))"), "1\n2\n");
    tdb_exec_ok(s, "CREATE TABLE t (id SERIAL, g BIGINT GENERATED ALWAYS AS IDENTITY (START 100), v TEXT)");
    tdb_exec_ok(s, "INSERT INTO t (v) VALUES ('a'), ('b')");
    tdb_exec_ok(s, "CREATE TABLE gone (id SERIAL)");
    tdb_exec_ok(s, "INSERT INTO gone DEFAULT VALUES");
    tdb_exec_ok(s, "DROP TABLE gone");
    attu_session_free(s);
    attu_db_close(d);

    d = tdb_open_dir(dir);
    s = attu_session_new(d);
    /* currval is the session's: a new session has none */
    expect_error(s, "SELECT currval('s')", "55000");
    cr_assert_str_eq(tdb_rows(s, "SELECT nextval('s')"), "9\n");
    cr_assert_str_eq(tdb_rows(s, "VALUES (nextval('\"Odd\tName\"')), (nextval('\"Odd\tName\"'))"), "3\n1\n");
    tdb_exec_ok(s, "INSERT INTO t (v) VALUES ('c')");
    cr_assert_str_eq(tdb_rows(s, "SELECT * FROM t ORDER BY id"), "1|100|a\n2|101|b\n3|102|c\n");
    expect_error(s, "INSERT INTO t VALUES (9, 9, 'x')", "428C9");
    expect_error(s, "SELECT nextval('gone_id_seq')", "42P01");
    /* a new table may take the dropped one's names */
    tdb_exec_ok(s, "CREATE TABLE gone (id SERIAL)");
    tdb_exec_ok(s, "INSERT INTO gone DEFAULT VALUES");
    cr_assert_str_eq(tdb_rows(s, "SELECT id FROM gone"), "1\n");
    attu_session_free(s);
    attu_db_close(d);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

Test(sequences, sessions_and_statements_that_do_not_run) {
    attu_db *d;
    attu_session *a = tdb_open_session(&d);
    attu_session *b = attu_session_new(d);
    tdb_exec_ok(a, "CREATE SEQUENCE s");
    cr_assert_str_eq(tdb_rows(a, "SELECT nextval('s')"), "1\n");
    cr_assert_str_eq(tdb_rows(b, "SELECT nextval('s')"), "2\n");
    cr_assert_str_eq(tdb_rows(a, "SELECT currval('s'), lastval()"), "1|1\n");
    cr_assert_str_eq(tdb_rows(b, "SELECT currval('s')"), "2\n");
    /* EXPLAIN, PREPARE and a prepared statement's description draw nothing */
    tdb_exec_ok(a, "EXPLAIN SELECT nextval('s')");
    tdb_exec_ok(a, "PREPARE p AS SELECT nextval('s')");
    attu_error err;
    attu_error_clear(&err);
    attu_prepared *p = attu_prepare(a, "SELECT nextval('s'), $1 + 1", 0, NULL, &err);
    cr_assert_not_null(p, "%s", err.message);
    attu_prepared_free(p);
    cr_assert_str_eq(tdb_rows(a, "EXECUTE p"), "3\n");
    /* EXPLAIN ANALYZE runs the query, so it draws one */
    tdb_exec_ok(a, "EXPLAIN ANALYZE SELECT nextval('s')");
    cr_assert_str_eq(tdb_rows(a, "SELECT currval('s')"), "4\n");
    attu_session_free(b);
    attu_session_free(a);
    attu_db_close(d);
}
