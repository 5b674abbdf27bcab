/*
 * test_not_null_detail.c - the DETAIL of 23502, which the SQL logic tests
 * cannot see: "Failing row contains (...)." with the row as it would have
 * been stored (engine/failing_row.h), as PostgreSQL 15 writes it (from
 * psql against a private server): a single and a multi-row INSERT, the
 * column defaults filled in, INSERT ... SELECT with a value past 64 bytes
 * cut, and UPDATE with its unassigned columns' old values.
 */
#include <criterion/criterion.h>

#include "db_test_util.h"

#define expect_not_null(s, sql, col, detail) \
    tdb_expect_error(s, sql, "23502", "null value in column \"" col "\" of relation \"nn\" violates not-null constraint", \
                     detail, NULL)

Test(not_null_detail, shows_the_failing_row) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    tdb_exec_ok(s, "CREATE TABLE nn (id int, name text NOT NULL, amt numeric(6,2) DEFAULT 1.5, "
                   "d date NOT NULL DEFAULT '2024-01-01', note text)");
    expect_not_null(s, "INSERT INTO nn VALUES (1, NULL, 2, '2024-02-02', 'x')", "name",
                    "Failing row contains (1, null, 2.00, 2024-02-02, x).");
    expect_not_null(s, "INSERT INTO nn (id, name) VALUES (2, 'ok'), (3, NULL)", "name",
                    "Failing row contains (3, null, 1.50, 2024-01-01, null).");
    expect_not_null(s, "INSERT INTO nn (id, name, d) VALUES (4, 'a', NULL)", "d",
                    "Failing row contains (4, a, 1.50, null, null).");
    expect_not_null(s, "INSERT INTO nn (id, name, note) SELECT g, CASE WHEN g = 7 THEN NULL ELSE 'n' || g END, "
                       "repeat('é', 70) FROM generate_series(5, 8) g", "name",
                    "Failing row contains (7, null, 1.50, 2024-01-01, éééééééééééééééééééééééééééééééé...).");
    tdb_exec_ok(s, "INSERT INTO nn (id, name) VALUES (9, 'b')");
    expect_not_null(s, "UPDATE nn SET name = NULL WHERE id = 9", "name",
                    "Failing row contains (9, null, 1.50, 2024-01-01, null).");
    expect_not_null(s, "UPDATE nn SET note = 'z', d = NULL WHERE id = 9", "d",
                    "Failing row contains (9, b, 1.50, null, z).");
    /* nothing of the failed statements stayed */
    cr_assert_str_eq(tdb_rows(s, "SELECT id, name, note FROM nn ORDER BY id"), "9|b|NULL\n");
    attu_session_free(s);
    attu_db_close(db);
}
