/*
 * test_explain_golden.c - EXPLAIN output of representative queries against
 * golden files (tests/db/explain/NAME.txt): the 13 SSB queries
 * (bench/ssb/queries, over the SSB schema with empty tables), the cities
 * remoteness query and 23 others over the cities table (data/statecity.csv).
 *
 * A plan change shows up as a diff here, so a rewrite that silently stops
 * firing (join ordering, join-aggregate fusion, top-k) fails the test. After
 * an intended change, regenerate with ATTU_UPDATE_GOLDEN=1 and review the
 * diff of tests/db/explain/ before committing it.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"

static attu_db *db;
static attu_session *s;

static const char *src_dir(void) {
    const char *src = getenv("ATTU_SOURCE_DIR");
    return src ? src : ".";
}

static void setup(void) {
    s = tdb_open_session(&db);
    char path[2048], sql[4096];
    snprintf(path, sizeof path, "%s/bench/ssb/schema.sql", src_dir());
    char *schema = tdb_read_file(path);
    cr_assert_not_null(schema, "cannot read %s", path);
    tres r;
    tdb_exec(s, schema, &r);
    cr_assert(!r.err.set, "SSB schema: %s", r.err.message);
    tres_free(&r);
    free(schema);
    snprintf(sql, sizeof sql,
             "CREATE TABLE cities (state TEXT, state_fips INTEGER, name TEXT, city_fips INTEGER, gnis INTEGER, "
             "type TEXT, lat DOUBLE PRECISION, lon DOUBLE PRECISION);"
             "COPY cities FROM '%s/data/statecity.csv' WITH (FORMAT csv, HEADER true)", src_dir());
    tdb_exec(s, sql, &r);
    cr_assert(!r.err.set, "cities: %s", r.err.message);
    tres_free(&r);
}

static void teardown(void) {
    attu_session_free(s);
    attu_db_close(db);
}

/* EXPLAIN of sql, compared with (or, under ATTU_UPDATE_GOLDEN, written to)
 * tests/db/explain/name.txt. Returns 1 when it matches. */
static int check_golden(const char *name, const char *sql) {
    size_t n = strlen(sql) + 16;
    char *q = malloc(n);
    snprintf(q, n, "EXPLAIN %s", sql);
    tres r;
    tdb_exec(s, q, &r);
    free(q);
    if (r.err.set) {
        cr_log_error("%s: EXPLAIN failed: %s: %s", name, r.err.sqlstate, r.err.message);
        tres_free(&r);
        return 0;
    }
    const char *got = r.text ? r.text : "";
    char path[2048];
    snprintf(path, sizeof path, "%s/tests/db/explain/%s.txt", src_dir(), name);
    int ok = 1;
    if (getenv("ATTU_UPDATE_GOLDEN")) {
        FILE *f = fopen(path, "w");
        cr_assert_not_null(f, "cannot write %s", path);
        fputs(got, f);
        fclose(f);
    } else {
        char *want = tdb_read_file(path);
        if (!want) {
            cr_log_error("%s: no golden file %s (run with ATTU_UPDATE_GOLDEN=1)", name, path);
            ok = 0;
        } else if (strcmp(want, got) != 0) {
            cr_log_error("%s: plan differs from %s\n--- expected\n%s--- got\n%s", name, path, want, got);
            ok = 0;
        }
        free(want);
    }
    tres_free(&r);
    return ok;
}

Test(explain_golden, ssb_queries, .init = setup, .fini = teardown, .timeout = 120) {
    static const char *qs[] = { "q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1",
                                "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3" };
    int bad = 0;
    for (size_t i = 0; i < sizeof qs / sizeof *qs; i++) {
        char path[2048], name[64];
        snprintf(path, sizeof path, "%s/bench/ssb/queries/%s.sql", src_dir(), qs[i]);
        char *sql = tdb_read_file(path);
        cr_assert_not_null(sql, "cannot read %s", path);
        /* EXPLAIN takes one statement: drop the trailing semicolon. */
        char *semi = strrchr(sql, ';');
        if (semi) *semi = '\0';
        snprintf(name, sizeof name, "ssb_%s", qs[i]);
        bad += !check_golden(name, sql);
        free(sql);
    }
    cr_assert_eq(bad, 0, "%d SSB plans differ", bad);
}

Test(explain_golden, cities_and_others, .init = setup, .fini = teardown, .timeout = 120) {
    char path[2048];
    snprintf(path, sizeof path, "%s/clients/examples/cities.sql", src_dir());
    char *cities = tdb_read_file(path);
    cr_assert_not_null(cities);
    char *semi = strrchr(cities, ';');
    if (semi) *semi = '\0';
    int bad = !check_golden("cities_remoteness", cities);
    free(cities);

    static const struct { const char *name, *sql; } qs[] = {
        { "filter_eq", "SELECT name, lat FROM cities WHERE state = 'AK'" },
        { "topk", "SELECT name FROM cities ORDER BY lat DESC LIMIT 5" },
        { "limit_with_ties", "SELECT name, state FROM cities ORDER BY state FETCH FIRST 3 ROWS WITH TIES" },
        { "limit_outer_row", "SELECT a.name, s.name FROM cities a, LATERAL (SELECT b.name FROM cities b WHERE b.state = a.state "
                             "ORDER BY b.lat LIMIT a.city_fips % 3 OFFSET 1) s WHERE a.state = 'RI'" },
        { "group_count", "SELECT state, count(*) FROM cities GROUP BY state" },
        { "group_having_order", "SELECT state, avg(lat) FROM cities GROUP BY state HAVING count(*) > 100 ORDER BY 2" },
        /* grouping sets: the input once, an Aggregate per set; GROUPING()
         * under a plain GROUP BY: one Aggregate and a constant */
        { "group_rollup", "SELECT state, type, count(*), grouping(state, type) FROM cities GROUP BY ROLLUP (state, type) "
                          "HAVING count(*) > 10 ORDER BY 4, 1, 2" },
        { "group_grouping_plain", "SELECT state, grouping(state), avg(lat) FROM cities GROUP BY state" },
        { "distinct", "SELECT DISTINCT type FROM cities" },
        { "self_join", "SELECT a.name, b.name FROM cities a JOIN cities b ON a.gnis = b.gnis WHERE a.state = 'RI'" },
        { "left_join", "SELECT a.name, b.name FROM cities a LEFT JOIN cities b ON a.city_fips = b.city_fips AND b.state = 'DC' WHERE a.state = 'DE'" },
        { "range_filter", "SELECT count(*) FROM cities WHERE lat BETWEEN 30 AND 40 AND lon < -100" },
        { "row_number", "SELECT state, name, row_number() OVER (PARTITION BY state ORDER BY lat) FROM cities" },
        { "rank", "SELECT name, rank() OVER (ORDER BY lon DESC) FROM cities WHERE state = 'HI'" },
        { "union_all", "SELECT name FROM cities WHERE state = 'RI' UNION ALL SELECT name FROM cities WHERE state = 'DE'" },
        { "union", "SELECT type FROM cities WHERE state = 'RI' UNION SELECT type FROM cities WHERE state = 'DE'" },
        { "in_subquery", "SELECT name FROM cities WHERE state IN (SELECT state FROM cities WHERE lat > 60)" },
        { "exists_correlated", "SELECT a.name FROM cities a WHERE EXISTS (SELECT 1 FROM cities b WHERE b.gnis = a.gnis AND b.type = 'CDP')" },
        { "scalar_subquery", "SELECT name FROM cities WHERE lat > (SELECT avg(lat) FROM cities)" },
        { "cte", "WITH big AS (SELECT state, count(*) AS n FROM cities GROUP BY state) SELECT state FROM big WHERE n > 1000" },
        { "case_coalesce", "SELECT CASE WHEN lat > 45 THEN 'north' ELSE 'south' END, coalesce(type, '?') FROM cities" },
        { "like", "SELECT name FROM cities WHERE name LIKE 'San %'" },
        { "cross_limit", "SELECT a.state, b.state FROM cities a CROSS JOIN cities b LIMIT 3" },
        { "window_sum", "SELECT state, name, sum(lat) OVER (PARTITION BY state) FROM cities" },
    };
    for (size_t i = 0; i < sizeof qs / sizeof *qs; i++) bad += !check_golden(qs[i].name, qs[i].sql);
    cr_assert_eq(bad, 0, "%d plans differ", bad);
}
