/*
 * test_unique.c - what tests/sql/unique_constraints_pg.test and
 * on_conflict_pg.test cannot see: the DETAIL and HINT lines of 23505 and
 * 21000 (PostgreSQL 15's, from psql against a private server), and
 * constraints surviving a close and reopen of the data directory.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db_test_util.h"

/* the DETAIL always compared (an empty one too) */
#define expect_error(s, sql, state, message, detail) tdb_expect_error(s, sql, state, message, detail, NULL)

Test(unique, detail_names_the_colliding_key) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    tdb_exec_ok(s, "CREATE TABLE d1 (a INTEGER PRIMARY KEY, \"Mixed\" TEXT, c INTEGER, f DOUBLE PRECISION, d DATE,"
                   " UNIQUE (\"Mixed\", c), UNIQUE (f), UNIQUE (d))");
    tdb_exec_ok(s, "INSERT INTO d1 VALUES (1, 'x y', 15, 0, '2024-01-01')");
    expect_error(s, "INSERT INTO d1 VALUES (1, 'z', 1, 1, '2024-01-02')", "23505",
                 "duplicate key value violates unique constraint \"d1_pkey\"", "Key (a)=(1) already exists.");
    expect_error(s, "INSERT INTO d1 VALUES (2, 'x y', 15, 2, '2024-01-03')", "23505",
                 "duplicate key value violates unique constraint \"d1_Mixed_c_key\"",
                 "Key (\"Mixed\", c)=(x y, 15) already exists.");
    /* the new row's own value: -0 collides with 0 */
    expect_error(s, "INSERT INTO d1 VALUES (3, 'q', 1, '-0', '2024-01-04')", "23505",
                 "duplicate key value violates unique constraint \"d1_f_key\"", "Key (f)=(-0) already exists.");
    expect_error(s, "INSERT INTO d1 VALUES (4, 'q', 1, 4, '2024-01-01')", "23505",
                 "duplicate key value violates unique constraint \"d1_d_key\"", "Key (d)=(2024-01-01) already exists.");
    /* within one statement: the second row with the key */
    expect_error(s, "INSERT INTO d1 VALUES (5, 'q', 1, 5, '2024-02-01'), (6, 'q', 1, 6, '2024-03-01')", "23505",
                 "duplicate key value violates unique constraint \"d1_Mixed_c_key\"",
                 "Key (\"Mixed\", c)=(q, 1) already exists.");
    tdb_exec_ok(s, "UPDATE d1 SET a = a + 1, f = 7 WHERE a = 1");
    tdb_exec_ok(s, "CREATE TABLE d2 (s VARCHAR(10), ch CHAR(4), UNIQUE (s, ch))");
    expect_error(s, "INSERT INTO d2 VALUES ('a', 'b'), ('a', 'b ')", "23505",
                 "duplicate key value violates unique constraint \"d2_s_ch_key\"", "Key (s, ch)=(a, b   ) already exists.");
    /* names quoted as quote_identifier quotes them: keywords but the unreserved ones */
    tdb_exec_ok(s, "CREATE TABLE kw (\"time\" INTEGER, \"user\" INTEGER, key INTEGER, value INTEGER, \"position\" INTEGER,"
                   " \"over\" INTEGER, \"inner\" INTEGER, year INTEGER,"
                   " UNIQUE (\"time\", \"user\", key, value, \"position\", \"over\", \"inner\", year))");
    expect_error(s, "INSERT INTO kw VALUES (1,1,1,1,1,1,1,1), (1,1,1,1,1,1,1,1)", "23505",
                 "duplicate key value violates unique constraint \"kw_time_user_key_value_position_over_inner_year_key\"",
                 "Key (\"time\", \"user\", key, value, \"position\", over, \"inner\", year)=(1, 1, 1, 1, 1, 1, 1, 1) already exists.");
    tdb_exec_ok(s, "CREATE TABLE d3 (a INTEGER UNIQUE, b INTEGER)");
    tdb_exec_ok(s, "INSERT INTO d3 VALUES (1, 0), (2, 0)");
    expect_error(s, "INSERT INTO d3 VALUES (1, 1) ON CONFLICT (a) DO UPDATE SET a = 2", "23505",
                 "duplicate key value violates unique constraint \"d3_a_key\"", "Key (a)=(2) already exists.");
    tres r;
    tdb_exec(s, "INSERT INTO d3 VALUES (3, 1), (3, 2) ON CONFLICT (a) DO UPDATE SET b = excluded.b", &r);
    cr_assert_str_eq(r.err.sqlstate, "21000");
    cr_assert_str_eq(r.err.message, "ON CONFLICT DO UPDATE command cannot affect row a second time");
    cr_assert_str_eq(r.err.hint, "Ensure that no rows proposed for insertion within the same command have duplicate constrained values.");
    tres_free(&r);
    attu_session_free(s);
    attu_db_close(db);
}

Test(unique, constraints_survive_close_and_reopen) {
    char dir[] = "/tmp/attu-unique-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *db = tdb_open_dir(dir);
    attu_session *s = attu_session_new(db);
    tdb_exec_ok(s, "CREATE TABLE u (a INTEGER PRIMARY KEY, \"B c\" TEXT CONSTRAINT \"odd name\" UNIQUE, c INTEGER)");
    tdb_exec_ok(s, "INSERT INTO u VALUES (1, 'x', 1)");
    attu_session_free(s);
    attu_db_close(db);

    db = tdb_open_dir(dir);
    s = attu_session_new(db);
    expect_error(s, "INSERT INTO u VALUES (1, 'y', 2)", "23505",
                 "duplicate key value violates unique constraint \"u_pkey\"", "Key (a)=(1) already exists.");
    expect_error(s, "INSERT INTO u VALUES (2, 'x', 2)", "23505",
                 "duplicate key value violates unique constraint \"odd name\"", "Key (\"B c\")=(x) already exists.");
    tdb_exec_ok(s, "INSERT INTO u VALUES (2, 'y', 1) ON CONFLICT ON CONSTRAINT \"odd name\" DO NOTHING");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM u"), "2\n");
    attu_session_free(s);
    attu_db_close(db);
    tdb_remove_dir(dir);
}
