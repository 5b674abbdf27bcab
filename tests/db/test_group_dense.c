/*
 * test_group_dense.c - the dense group-by (agg_dense in engine/
 * executor_ops.c, group_dense in the backends).
 *
 * Every query runs twice: with the dense path forced for any input size
 * (ATTU_DENSE_GROUP_MIN_ROWS=0) and with it off (a threshold no table
 * reaches), and the rows, in order, must be identical: slot order has to
 * be the sort path's group order (NULLs last), and each group's reductions
 * the same values. EXPLAIN ANALYZE shows which path ran; the queries that
 * qualify must take the dense path, those that do not (wide ranges, float
 * keys, string_agg, DISTINCT, variances) must not.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"

static attu_db *db;
static attu_session *s;

static void setup(void) {
    unsetenv("ATTU_DENSE_GROUP_MIN_ROWS");
    s = tdb_open_session(&db);
    tdb_exec_ok(s, "CREATE TABLE t (k INTEGER, j INTEGER, s TEXT, b BOOLEAN, d DATE, v BIGINT, "
                   "f DOUBLE PRECISION, w BIGINT, m DECIMAL(10,2))");
    /* 5000 rows in a scrambled order, NULLs in every column */
    tdb_exec_ok(s, "INSERT INTO t WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 5000) "
            "SELECT CASE WHEN i % 13 = 0 THEN NULL ELSE (i * 7919) % 23 - 5 END, "
            "CASE WHEN i % 17 = 0 THEN NULL ELSE (i * 104729) % 11 END, "
            "CASE WHEN i % 19 = 0 THEN NULL ELSE substr('abcdefgh', 1 + (i * 31) % 8, 1) END, "
            "CASE WHEN i % 23 = 0 THEN NULL ELSE i % 3 = 0 END, "
            "CASE WHEN i % 31 = 0 THEN NULL ELSE DATE '2020-02-27' + (i * 13) % 9 END, "
            "CASE WHEN i % 7 = 0 THEN NULL ELSE (i * 2654435761) % 1000003 - 500000 END, "
            "CASE WHEN i % 29 = 0 THEN NULL ELSE ((i * 37) % 101) / 7.0 END, "
            "(i * 7) % 100000 * 1000, "
            "CASE WHEN i % 11 = 0 THEN NULL ELSE ((i * 53) % 997) / 4.0 END FROM r");
    tdb_exec_ok(s, "CREATE TABLE allnull (k INTEGER, v INTEGER)");
    tdb_exec_ok(s, "INSERT INTO allnull VALUES (NULL, 1), (NULL, 2), (NULL, NULL)");
}

static void teardown(void) {
    attu_session_free(s);
    attu_db_close(db);
    unsetenv("ATTU_DENSE_GROUP_MIN_ROWS");
}

static char *rows_of(const char *sql) { return tdb_rows_ok(s, sql); }

static bool ran_dense(const char *sql) {
    char q[4096];
    snprintf(q, sizeof q, "EXPLAIN ANALYZE %s", sql);
    char *plan = rows_of(q);
    bool d = strstr(plan, "group_dense") != NULL;
    free(plan);
    return d;
}

/* Same rows both ways; returns whether the forced run took the dense path. */
static bool check(const char *sql) {
    setenv("ATTU_DENSE_GROUP_MIN_ROWS", "0", 1);
    char *dense = rows_of(sql);
    bool used = ran_dense(sql);
    setenv("ATTU_DENSE_GROUP_MIN_ROWS", "100000000000", 1);
    char *sorted = rows_of(sql);
    cr_assert(!ran_dense(sql), "the threshold did not turn the dense path off: %s", sql);
    cr_assert_str_eq(dense, sorted, "%s", sql);
    free(dense);
    free(sorted);
    return used;
}

TestSuite(group_dense, .init = setup, .fini = teardown);

Test(group_dense, qualifying_queries_take_the_dense_path_and_match) {
    const char *q[] = {
        "SELECT k, count(*), count(v), sum(v), min(v), max(v) FROM t GROUP BY k",
        "SELECT k, j, count(*), sum(v), avg(v) FROM t GROUP BY k, j",
        "SELECT s, count(*), sum(f), avg(f), min(f), max(f) FROM t GROUP BY s",
        "SELECT b, d, count(*), min(m), max(m), sum(m), avg(m) FROM t GROUP BY b, d",
        "SELECT j, s, b, count(f), sum(w) FROM t GROUP BY j, s, b",
        "SELECT d, min(d), max(s) IS NULL, count(*) FROM t GROUP BY d",
        "SELECT k, count(*) FROM t WHERE k > 100 GROUP BY k",          /* no rows: ranges of nothing */
        "SELECT k, count(*), sum(v) FROM allnull GROUP BY k",          /* one NULL group */
        "SELECT k % 3, count(*) FROM t GROUP BY k % 3 ORDER BY 1 DESC NULLS FIRST",
        "SELECT k, sum(v) FROM t GROUP BY k HAVING sum(v) > 0",
    };
    int dense = 0;
    for (size_t i = 0; i < sizeof q / sizeof *q; i++) dense += check(q[i]);
    /* all but the empty input (no rows: nothing to reduce) and max(s) (TEXT
     * MIN/MAX stays on the sort path) */
    cr_assert_geq(dense, 7, "only %d of the queries took the dense path", dense);
    setenv("ATTU_DENSE_GROUP_MIN_ROWS", "0", 1);
    cr_assert(ran_dense("SELECT k, count(*), count(v), sum(v), min(v), max(v) FROM t GROUP BY k"));
    cr_assert(ran_dense("SELECT s, count(*), sum(f), avg(f), min(f), max(f) FROM t GROUP BY s"));
    cr_assert(ran_dense("SELECT k, count(*), sum(v) FROM allnull GROUP BY k"));
}

Test(group_dense, other_queries_stay_on_the_sort_path_and_match) {
    const char *q[] = {
        "SELECT w, count(*) FROM t GROUP BY w",                     /* range 10^8: too wide */
        "SELECT f, count(*) FROM t GROUP BY f",                     /* float key */
        "SELECT k, string_agg(s, ',' ORDER BY s) FROM t GROUP BY k",
        "SELECT k, count(DISTINCT j) FROM t GROUP BY k",
        "SELECT k, var_samp(v), stddev_pop(f) FROM t GROUP BY k",
        "SELECT k, min(s) FROM t GROUP BY k",                       /* TEXT MIN */
    };
    for (size_t i = 0; i < sizeof q / sizeof *q; i++)
        cr_assert(!check(q[i]), "took the dense path: %s", q[i]);
}

Test(group_dense, bigint_sums_pass_2_63_as_on_the_sort_path) {
    /* sum(bigint) is numeric, as in PostgreSQL: past 2^63 it neither wraps
     * nor raises, on either path */
    tdb_exec_ok(s, "CREATE TABLE big (k INTEGER, v BIGINT)");
    tdb_exec_ok(s, "INSERT INTO big VALUES (1, 9223372036854775000), (2, 5), (1, 1000)");
    cr_assert(check("SELECT k, sum(v) FROM big GROUP BY k"));
    char *rows = rows_of("SELECT k, sum(v) FROM big GROUP BY k");
    cr_assert(strstr(rows, "9223372036854776000") != NULL, "%s", rows);
    free(rows);
}
