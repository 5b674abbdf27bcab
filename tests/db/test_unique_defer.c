/*
 * test_unique_defer.c - what tests/sql/deferrable_unique_pg.test cannot
 * see: the DETAIL lines of a DEFERRABLE PRIMARY KEY / UNIQUE failing at
 * the end of a statement or at COMMIT, which key is reported when several
 * are duplicated (PostgreSQL 15's lines, from psql against a private
 * server), NOT DEFERRABLE keys failing row by row in UPDATE, and the
 * deferral kept across a close and reopen of the data directory.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db_test_util.h"

#define expect_error(s, sql, state, message, detail) tdb_expect_error(s, sql, state, message, detail, NULL)

Test(unique_defer, details_at_commit) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    tdb_exec_ok(s, "CREATE TABLE u1 (id int PRIMARY KEY DEFERRABLE INITIALLY DEFERRED, v text)");
    tdb_exec_ok(s, "INSERT INTO u1 VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    /* the first queued row still duplicated: the first written */
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "INSERT INTO u1 VALUES (2, 'x')");
    tdb_exec_ok(s, "INSERT INTO u1 VALUES (1, 'y')");
    expect_error(s, "COMMIT", "23505", "duplicate key value violates unique constraint \"u1_pkey\"",
                 "Key (id)=(2) already exists.");
    /* a swap queues the row that met a key still to move */
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "UPDATE u1 SET id = 4 - id WHERE id <> 2");
    tdb_exec_ok(s, "INSERT INTO u1 VALUES (3, 'z'), (1, 'w')");
    expect_error(s, "COMMIT", "23505", "duplicate key value violates unique constraint \"u1_pkey\"",
                 "Key (id)=(3) already exists.");
    cr_assert_str_eq(tdb_rows(s, "SELECT id, v FROM u1 ORDER BY id"), "1|a\n2|b\n3|c\n");
    /* the queued row's own value */
    tdb_exec_ok(s, "CREATE TABLE u3 (id numeric PRIMARY KEY DEFERRABLE INITIALLY DEFERRED)");
    tdb_exec_ok(s, "INSERT INTO u3 VALUES (1.0)");
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "INSERT INTO u3 VALUES (1.00)");
    expect_error(s, "COMMIT", "23505", "duplicate key value violates unique constraint \"u3_pkey\"",
                 "Key (id)=(1.00) already exists.");
    /* SET CONSTRAINTS ... IMMEDIATE: the same check, at once */
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "INSERT INTO u3 VALUES (1)");
    expect_error(s, "SET CONSTRAINTS u3_pkey IMMEDIATE", "23505",
                 "duplicate key value violates unique constraint \"u3_pkey\"", "Key (id)=(1) already exists.");
    tdb_exec_ok(s, "ROLLBACK");
    attu_session_free(s);
    attu_db_close(db);
}

Test(unique_defer, details_at_statement_end) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    tdb_exec_ok(s, "CREATE TABLE u2 (a int, b text, UNIQUE (a, b) DEFERRABLE)");
    tdb_exec_ok(s, "INSERT INTO u2 VALUES (1, 'x'), (2, 'y')");
    expect_error(s, "UPDATE u2 SET a = 1, b = 'x'", "23505",
                 "duplicate key value violates unique constraint \"u2_a_b_key\"", "Key (a, b)=(1, x) already exists.");
    expect_error(s, "INSERT INTO u2 VALUES (2, 'y')", "23505",
                 "duplicate key value violates unique constraint \"u2_a_b_key\"", "Key (a, b)=(2, y) already exists.");
    tdb_exec_ok(s, "CREATE TABLE u4 (id int PRIMARY KEY DEFERRABLE)");
    tdb_exec_ok(s, "INSERT INTO u4 VALUES (1), (2), (3), (4)");
    expect_error(s, "UPDATE u4 SET id = CASE id WHEN 1 THEN 3 WHEN 2 THEN 1 WHEN 3 THEN 2 ELSE 1 END", "23505",
                 "duplicate key value violates unique constraint \"u4_pkey\"", "Key (id)=(1) already exists.");
    expect_error(s, "UPDATE u4 SET id = CASE id WHEN 1 THEN 2 WHEN 2 THEN 3 WHEN 3 THEN 2 WHEN 4 THEN 1 END", "23505",
                 "duplicate key value violates unique constraint \"u4_pkey\"", "Key (id)=(2) already exists.");
    tdb_exec_ok(s, "UPDATE u4 SET id = 5 - id");
    cr_assert_str_eq(tdb_rows(s, "SELECT id FROM u4"), "4\n3\n2\n1\n");
    attu_session_free(s);
    attu_db_close(db);
}

/* NOT DEFERRABLE: the row-by-row check of an UPDATE, in row order */
Test(unique_defer, not_deferrable_update_row_by_row) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    tdb_exec_ok(s, "CREATE TABLE u5 (id int PRIMARY KEY)");
    tdb_exec_ok(s, "INSERT INTO u5 VALUES (1), (2), (3), (4)");
    expect_error(s, "UPDATE u5 SET id = id + 1", "23505", "duplicate key value violates unique constraint \"u5_pkey\"",
                 "Key (id)=(2) already exists.");
    tdb_exec_ok(s, "UPDATE u5 SET id = id - 1");
    expect_error(s, "UPDATE u5 SET id = 5 - id", "23505", "duplicate key value violates unique constraint \"u5_pkey\"",
                 "Key (id)=(3) already exists.");
    expect_error(s, "UPDATE u5 SET id = CASE id WHEN 1 THEN 2 WHEN 2 THEN 1 ELSE id END", "23505",
                 "duplicate key value violates unique constraint \"u5_pkey\"", "Key (id)=(2) already exists.");
    tdb_exec_ok(s, "UPDATE u5 SET id = CASE id WHEN 4 THEN 3 WHEN 3 THEN 4 ELSE id END");
    tdb_exec_ok(s, "UPDATE u5 SET id = CASE id WHEN 1 THEN 5 WHEN 4 THEN 1 ELSE id END");
    cr_assert_str_eq(tdb_rows(s, "SELECT id FROM u5"), "0\n5\n2\n1\n");
    attu_session_free(s);
    attu_db_close(db);
}

Test(unique_defer, deferral_survives_reopen) {
    char dir[] = "/tmp/attu-udefer-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *db = tdb_open_dir(dir);
    attu_session *s = attu_session_new(db);
    tdb_exec_ok(s, "CREATE TABLE r1 (id int PRIMARY KEY DEFERRABLE INITIALLY DEFERRED, a int UNIQUE DEFERRABLE,"
                   " b int, c int, CONSTRAINT r1_bc UNIQUE (b, c) NOT DEFERRABLE)");
    tdb_exec_ok(s, "ALTER TABLE r1 ADD CONSTRAINT r1_c UNIQUE (c) DEFERRABLE INITIALLY DEFERRED");
    tdb_exec_ok(s, "INSERT INTO r1 VALUES (1, 1, 1, 1), (2, 2, 1, 2)");
    attu_session_free(s);
    attu_db_close(db);

    db = tdb_open_dir(dir);
    s = attu_session_new(db);
    cr_assert_str_eq(tdb_rows(s, "SELECT conname, condeferrable, condeferred FROM pg_constraint ORDER BY 1"),
                     "r1_a_key|t|f\nr1_bc|f|f\nr1_c|t|t\nr1_pkey|t|t\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'r1_c'"),
                     "UNIQUE (c) DEFERRABLE INITIALLY DEFERRED\n");
    tdb_exec_ok(s, "UPDATE r1 SET a = 3 - a");
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "INSERT INTO r1 VALUES (1, 5, 5, 5)");
    expect_error(s, "COMMIT", "23505", "duplicate key value violates unique constraint \"r1_pkey\"",
                 "Key (id)=(1) already exists.");
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "UPDATE r1 SET id = 3 - id, a = 3 - a");
    tdb_exec_ok(s, "COMMIT");
    /* (a NOT DEFERRABLE key stays checked row by row) */
    expect_error(s, "UPDATE r1 SET c = 3 - c", "23505", "duplicate key value violates unique constraint \"r1_bc\"",
                 "Key (b, c)=(1, 2) already exists.");
    cr_assert_str_eq(tdb_rows(s, "SELECT id, a, b, c FROM r1 ORDER BY id"), "1|2|1|2\n2|1|1|1\n");
    attu_session_free(s);
    attu_db_close(db);
    tdb_remove_dir(dir);
}
