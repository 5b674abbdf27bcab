/*
 * test_numeric_overflow.c - what the SQL logic tests cannot see of 22003
 * "numeric field overflow": its DETAIL, PostgreSQL 15's words for the
 * column's precision and scale (from psql against a private server). A
 * value too wide for NUMERIC(p,s) says which field it was bound for
 * wherever it is caught: a literal's cast, an INSERT or UPDATE into the
 * column, arithmetic rounded into the type, an aggregate cast after.
 */
#include <criterion/criterion.h>

#include "db_test_util.h"

#define expect_overflow(s, sql, detail) tdb_expect_error(s, sql, "22003", "numeric field overflow", detail, NULL)

Test(numeric_overflow, detail_names_precision_and_scale) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    tdb_exec_ok(s, "CREATE TABLE n (b numeric(5,2), c numeric(3,3), d numeric(4,0))");
    expect_overflow(s, "INSERT INTO n (b) VALUES (1234.5)",
                    "A field with precision 5, scale 2 must round to an absolute value less than 10^3.");
    /* rounding to the scale is what overflows */
    expect_overflow(s, "INSERT INTO n (b) VALUES (999.995)",
                    "A field with precision 5, scale 2 must round to an absolute value less than 10^3.");
    expect_overflow(s, "INSERT INTO n (c) VALUES (1.0)",
                    "A field with precision 3, scale 3 must round to an absolute value less than 1.");
    expect_overflow(s, "INSERT INTO n (d) VALUES (99999)",
                    "A field with precision 4, scale 0 must round to an absolute value less than 10^4.");
    expect_overflow(s, "SELECT 12345::numeric(4,0)",
                    "A field with precision 4, scale 0 must round to an absolute value less than 10^4.");
    expect_overflow(s, "SELECT 1.5::numeric(2,1) * 10 :: numeric(2,1)",
                    "A field with precision 2, scale 1 must round to an absolute value less than 10^1.");
    expect_overflow(s, "SELECT (x * 100)::numeric(5,2) FROM (VALUES (1000.0), (5.0)) v(x)",
                    "A field with precision 5, scale 2 must round to an absolute value less than 10^3.");
    tdb_exec_ok(s, "INSERT INTO n (b) VALUES (1)");
    expect_overflow(s, "UPDATE n SET b = b * 1000",
                    "A field with precision 5, scale 2 must round to an absolute value less than 10^3.");
    expect_overflow(s, "SELECT sum(x)::numeric(3,0) FROM (VALUES (500), (600)) v(x)",
                    "A field with precision 3, scale 0 must round to an absolute value less than 10^3.");
    /* the failed statements left the row as it was */
    cr_assert_str_eq(tdb_rows(s, "SELECT b FROM n"), "1.00\n");
    attu_session_free(s);
    attu_db_close(db);
}
