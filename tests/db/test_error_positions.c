/*
 * test_error_positions.c - where errors the binder finds late point, as
 * PostgreSQL 15's do (psql against a private server): 42601 "INSERT has
 * more expressions than target columns" at the first expression past the
 * target columns (of VALUES' first row or the SELECT's list, or the *
 * whose expansion gave it); 42804 "UNION types ... cannot be matched" at
 * the right arm's column, its leftmost token (a cast's argument, an
 * operator's left operand); 0A000 "set-returning functions are not
 * allowed in CASE / COALESCE" at the set-returning call.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "db_test_util.h"

static void expect_at(attu_session *s, const char *sql, const char *at) {
    tdb_expect_error_at(s, sql, "42601", "INSERT has more expressions than target columns", at, NULL, NULL);
}

Test(error_positions, insert_more_expressions_than_columns) {
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

Test(error_positions, set_operation_type_mismatch) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    tdb_expect_error_at(s, "SELECT 1 UNION SELECT 'a'::text", "42804", "UNION types integer and text cannot be matched", "'a'", NULL, NULL);
    tdb_expect_error_at(s, "SELECT 1 UNION ALL SELECT now()", "42804",
                    "UNION types integer and timestamp with time zone cannot be matched", "now()", NULL, NULL);
    tdb_expect_error_at(s, "SELECT 1 INTERSECT SELECT true", "42804", "INTERSECT types integer and boolean cannot be matched", "true", NULL, NULL);
    tdb_expect_error_at(s, "SELECT 1 UNION SELECT 1.5::text || 'x'", "42804", "UNION types integer and text cannot be matched",
                    "1.5::", NULL, NULL);
    tdb_expect_error_at(s, "SELECT 1, 2 UNION SELECT 1, 'x'::text", "42804", "UNION types integer and text cannot be matched",
                    "'x'", NULL, NULL);
    attu_session_free(s);
    attu_db_close(db);
}

Test(error_positions, set_returning_function_under_case_or_coalesce) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    tdb_expect_error_at(s, "SELECT CASE WHEN true THEN generate_series(1, 2) END", "0A000",
                        "set-returning functions are not allowed in CASE", "generate_series(1, 2) END", NULL, NULL);
    tdb_expect_error_at(s, "SELECT COALESCE(generate_series(1, 2), 0)", "0A000",
                        "set-returning functions are not allowed in COALESCE", "generate_series(1, 2), 0)", NULL, NULL);
    attu_session_free(s);
    attu_db_close(db);
}
