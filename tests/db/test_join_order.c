/*
 * test_join_order.c - star-join ordering by measured selectivity
 * (planner/rewrite.c, planner/selectivity.c).
 *
 * A fact table with three dimensions: the smallest dimension is unfiltered,
 * a larger one is filtered down to a sliver, a third keeps most of its rows
 * under a two-sided range. The fact table must meet the sliver first and
 * the unfiltered dimension last, whatever the FROM order; the answer does
 * not depend on the order.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"

static attu_db *db;
static attu_session *s;

static void setup(void) {
    s = tdb_open_session(&db);
    /* dim_small: 10 rows, never filtered; dim_text: 400 rows, 1 in 40 has
     * region 'RARE'; dim_year: 200 rows, years 1990..1999 */
    tdb_exec_ok(s, "CREATE TABLE dim_small (ks INTEGER, label TEXT)");
    tdb_exec_ok(s, "INSERT INTO dim_small WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 9) "
            "SELECT i, 'L' || i FROM r");
    tdb_exec_ok(s, "CREATE TABLE dim_text (kt INTEGER, region TEXT)");
    tdb_exec_ok(s, "INSERT INTO dim_text WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 399) "
            "SELECT i, CASE WHEN i % 40 = 7 THEN 'RARE' ELSE 'COMMON' || (i % 5) END FROM r");
    tdb_exec_ok(s, "CREATE TABLE dim_year (ky INTEGER, yr INTEGER)");
    tdb_exec_ok(s, "INSERT INTO dim_year WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 199) "
            "SELECT i, 1990 + i % 10 FROM r");
    tdb_exec_ok(s, "CREATE TABLE fact (fs INTEGER, ft INTEGER, fy INTEGER, amount INTEGER)");
    tdb_exec_ok(s, "INSERT INTO fact WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 19999) "
            "SELECT i % 10, (i * 7) % 400, (i * 13) % 200, i % 97 FROM r");
}

static void teardown(void) {
    attu_session_free(s);
    attu_db_close(db);
}

/* The table names of the plan's scans, top to bottom. */
static void scan_order(const char *sql, char *out, size_t cap) {
    char buf[4096];
    snprintf(buf, sizeof buf, "EXPLAIN %s", sql);
    tres r;
    tdb_exec(s, buf, &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    out[0] = 0;
    for (const char *p = r.text; (p = strstr(p, "Scan ")); p += 5) {
        const char *e = strchr(p + 5, ' ');
        size_t n = e ? (size_t)(e - p - 5) : strlen(p + 5);
        if (strlen(out) + n + 2 < cap) { strncat(out, p + 5, n); strcat(out, " "); }
    }
    tres_free(&r);
}

#define STAR_WHERE "fs = ks AND ft = kt AND fy = ky AND region = 'RARE' AND yr >= 1991 AND yr <= 1998"

Test(join_order, most_selective_dimension_first, .init = setup, .fini = teardown, .timeout = 60) {
    const char *froms[] = {
        "fact, dim_small, dim_text, dim_year",
        "dim_small, dim_year, fact, dim_text",
        "dim_year, dim_text, dim_small, fact",
    };
    char *want = NULL;
    for (size_t i = 0; i < sizeof froms / sizeof *froms; i++) {
        char sql[1024], order[512];
        snprintf(sql, sizeof sql, "SELECT label, count(*), sum(amount) FROM %s WHERE " STAR_WHERE
                 " GROUP BY label ORDER BY label", froms[i]);
        scan_order(sql, order, sizeof order);
        /* left-deep, printed outermost join first: the last scan listed
         * under the top join is the dimension joined last */
        cr_assert_str_eq(order, "fact dim_text dim_year dim_small ", "FROM %s: scans %s", froms[i], order);
        const char *rows = tdb_rows(s, sql);
        cr_assert_not_null(rows);
        cr_assert_null(strstr(rows, "ERROR"), "%s", rows);
        if (!want) want = strdup(rows);   /* tdb_rows reuses its buffer */
        else cr_assert_str_eq(rows, want, "FROM %s", froms[i]);
    }
    free(want);
}

Test(join_order, answer_matches_a_plain_count, .init = setup, .fini = teardown, .timeout = 60) {
    /* the same rows counted without the star join's reordering: a cross
     * check through IN subqueries */
    const char *a = tdb_rows(s, "SELECT count(*), sum(amount) FROM fact, dim_small, dim_text, dim_year WHERE " STAR_WHERE);
    cr_assert_not_null(a);
    char *aa = strdup(a);
    const char *b = tdb_rows(s, "SELECT count(*), sum(amount) FROM fact WHERE fs IN (SELECT ks FROM dim_small) "
                                "AND ft IN (SELECT kt FROM dim_text WHERE region = 'RARE') "
                                "AND fy IN (SELECT ky FROM dim_year WHERE yr >= 1991 AND yr <= 1998)");
    cr_assert_not_null(b);
    cr_assert_str_eq(aa, b);
    cr_assert_str_neq(aa, "0\tNULL\n", "the star query must keep some rows");
    free(aa);
}
