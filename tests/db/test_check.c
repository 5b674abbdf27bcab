/*
 * test_check.c - what tests/sql/check_constraints_pg.test cannot see: the
 * DETAIL line of 23514 ("Failing row contains (...)", PostgreSQL 15's,
 * from psql against a private server: each value as its output function
 * writes it, null for NULL, one longer than 64 bytes cut with "..."), and
 * CHECK constraints surviving a close and reopen of the data directory,
 * renames included.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db_test_util.h"

/* the DETAIL always compared (an empty one too) */
#define expect_error(s, sql, state, message, detail) tdb_expect_error(s, sql, state, message, detail, NULL)

Test(check, detail_shows_the_failing_row) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    tdb_exec_ok(s, "CREATE TABLE c1 (a int CHECK (a > 0), \"B c\" text, n numeric(6,2) CHECK (n < 100), d date, b bool,"
                   " arr text[], CHECK (\"B c\" <> 'no'))");
    tdb_exec_ok(s, "INSERT INTO c1 VALUES (1, 'x', 1.5, '2024-01-01', true, '{a,\"b c\",NULL}')");
    expect_error(s, "INSERT INTO c1 VALUES (0, 'x y', 1.5, '2024-01-01', true, '{a,\"b c\",NULL}')", "23514",
                 "new row for relation \"c1\" violates check constraint \"c1_a_check\"",
                 "Failing row contains (0, x y, 1.50, 2024-01-01, t, {a,\"b c\",NULL}).");
    expect_error(s, "INSERT INTO c1 VALUES (2, null, 100, null, false, null)", "23514",
                 "new row for relation \"c1\" violates check constraint \"c1_n_check\"",
                 "Failing row contains (2, null, 100.00, null, f, null).");
    expect_error(s, "UPDATE c1 SET \"B c\" = 'no' WHERE a = 1", "23514",
                 "new row for relation \"c1\" violates check constraint \"c1_B c_check\"",
                 "Failing row contains (1, no, 1.50, 2024-01-01, t, {a,\"b c\",NULL}).");
    expect_error(s, "INSERT INTO c1 VALUES (3, repeat('é', 70) || 'x', 1, null, null, null),"
                    " (-3, repeat('é', 70) || 'x', 1, null, null, null)", "23514",
                 "new row for relation \"c1\" violates check constraint \"c1_a_check\"",
                 "Failing row contains (-3, éééééééééééééééééééééééééééééééé..., 1.00, null, null, null).");
    expect_error(s, "INSERT INTO c1 VALUES (5, repeat('a', 64), 1, null, null, null), (-5, repeat('a', 65), 1, null, null, null)",
                 "23514", "new row for relation \"c1\" violates check constraint \"c1_a_check\"",
                 "Failing row contains (-5, aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa..., 1.00, null, null, null).");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM c1"), "1\n");
    attu_session_free(s);
    attu_db_close(db);
}

Test(check, constraints_survive_close_and_reopen) {
    char dir[] = "/tmp/attu-check-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *db = tdb_open_dir(dir);
    attu_session *s = attu_session_new(db);
    tdb_exec_ok(s, "CREATE TABLE k (a int CHECK (a > 0), \"B c\" text CONSTRAINT \"odd name\" CHECK (\"B c\" <> '%\n x'))");
    tdb_exec_ok(s, "INSERT INTO k VALUES (1, 'x')");
    tdb_exec_ok(s, "ALTER TABLE k RENAME COLUMN a TO z");
    attu_session_free(s);
    attu_db_close(db);

    db = tdb_open_dir(dir);
    s = attu_session_new(db);
    expect_error(s, "INSERT INTO k VALUES (-1, 'y')", "23514", "new row for relation \"k\" violates check constraint \"k_a_check\"",
                 "Failing row contains (-1, y).");
    expect_error(s, "INSERT INTO k VALUES (2, E'%\\n x')", "23514",
                 "new row for relation \"k\" violates check constraint \"odd name\"", "Failing row contains (2, %\n x).");
    tdb_exec_ok(s, "ALTER TABLE k DROP CONSTRAINT \"odd name\"");
    tdb_exec_ok(s, "INSERT INTO k VALUES (2, E'%\\n x')");
    attu_session_free(s);
    attu_db_close(db);

    db = tdb_open_dir(dir);
    s = attu_session_new(db);
    tdb_exec_ok(s, "INSERT INTO k VALUES (3, E'%\\n x')");
    expect_error(s, "UPDATE k SET z = 0", "23514", "new row for relation \"k\" violates check constraint \"k_a_check\"",
                 "Failing row contains (0, x).");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM k"), "3\n");
    attu_session_free(s);
    attu_db_close(db);
    tdb_remove_dir(dir);
}
