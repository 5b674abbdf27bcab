/*
 * test_insert_positions.c - where 42601 "INSERT has more expressions than
 * target columns" points, as PostgreSQL 15 does (psql against a private
 * server): the first expression past the target columns, of VALUES'
 * first row or the SELECT's list, or the * whose expansion gave it.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "db_test_util.h"

static void expect_at(attu_session *s, const char *sql, const char *at) {
    tres r;
    tdb_exec(s, sql, &r);
    cr_assert(r.err.set, "%s: no error", sql);
    cr_assert_str_eq(r.err.sqlstate, "42601", "%s", sql);
    cr_assert_str_eq(r.err.message, "INSERT has more expressions than target columns", "%s: %s", sql, r.err.message);
    /* (positions count characters from 1; these statements are ASCII) */
    cr_assert_eq(r.err.position, (int)(strstr(sql, at) - sql) + 1, "%s: at %d", sql, r.err.position);
    tres_free(&r);
}

Test(insert_positions, more_expressions_than_columns) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    tdb_exec_ok(s, "CREATE TABLE ie (a int, b int)");
    expect_at(s, "INSERT INTO ie VALUES (1, 2, 3)", "3)");
    expect_at(s, "INSERT INTO ie (a) VALUES (1, 2)", "2)");
    expect_at(s, "INSERT INTO ie SELECT 1, 2, 3", "3");
    expect_at(s, "INSERT INTO ie (b) SELECT 1, 2 FROM ie", "2 FROM");
    expect_at(s, "INSERT INTO ie SELECT * FROM (VALUES (1, 2, 3)) v", "*");
    attu_session_free(s);
    attu_db_close(db);
}
