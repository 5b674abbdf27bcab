/*
 * test_cities.c - the cities remoteness query (clients/examples/cities.sql)
 * over data/statecity.csv on the CPU backend, compared with the cities
 * demo's own output (tests/db/data/cities_expected.txt, a copy of
 * ../shared/data/cities_expected.txt): names exact (the demo prints them
 * truncated to 15 and 12 characters), distances within 0.01 mile. Its
 * EXPLAIN must show one lbs_segreduce and a window for the ranking.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db_test_util.h"

static attu_db *db;
static attu_session *s;

static void load(void) {
    s = tdb_open_session(&db);
    const char *src = getenv("ATTU_SOURCE_DIR");
    char sql[1024];
    snprintf(sql, sizeof sql,
             "CREATE TABLE cities (state TEXT, state_fips INTEGER, name TEXT, city_fips INTEGER, gnis INTEGER, "
             "type TEXT, lat DOUBLE PRECISION, lon DOUBLE PRECISION);"
             "COPY cities FROM '%s/data/statecity.csv' WITH (FORMAT csv, HEADER true)", src ? src : ".");
    tres r;
    tdb_exec(s, sql, &r);
    cr_assert(!r.err.set, "load failed: %s", r.err.message);
    cr_assert_str_eq(r.tag[1], "COPY 29510");
    tres_free(&r);
}

static void unload(void) {
    attu_session_free(s);
    attu_db_close(db);
}

static char *cities_sql(void) {
    const char *src = getenv("ATTU_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/clients/examples/cities.sql", src ? src : ".");
    char *q = tdb_read_file(path);
    cr_assert_not_null(q, "cannot read %s", path);
    return q;
}

/* Splits s at '|' into at most n fields (in place). */
static int fields(char *s, char **f, int n) {
    int k = 0;
    f[k++] = s;
    for (char *p = s; *p && k < n; p++) if (*p == '|') { *p = 0; f[k++] = p + 1; }
    return k;
}

Test(cities, remoteness_matches_the_demo, .init = load, .fini = unload, .timeout = 600) {
    char *q = cities_sql();
    tres r;
    tdb_exec(s, q, &r);
    free(q);
    cr_assert(!r.err.set, "query failed: %s %s", r.err.sqlstate, r.err.message);
    cr_assert_eq(r.nrows, 52);
    const char *src = getenv("ATTU_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/db/data/cities_expected.txt", src ? src : ".");
    char *exp = tdb_read_file(path);
    cr_assert_not_null(exp);
    char *eline = exp, *gline = r.text;
    int lines = 0;
    while (*eline && *gline) {
        char *enext = strchr(eline, '\n'), *gnext = strchr(gline, '\n');
        if (enext) *enext = 0;
        if (gnext) *gnext = 0;
        char *f[8];
        int nf = fields(gline, f, 8);
        cr_assert_eq(nf, 8);
        size_t el = strlen(eline);
        char st[3] = { eline[0], eline[1], 0 }, city[16] = { 0 };
        cr_assert_str_eq(f[0], st, "line %d: state", lines + 1);
        memcpy(city, eline + 3, 15);
        char *c = city;
        while (*c == ' ') c++;
        cr_assert(strncmp(f[1], c, 15) == 0 && (strlen(c) == 15 || strlen(f[1]) == strlen(c)),
                  "line %d: place %s vs %s", lines + 1, f[1], c);
        int nn = el > 18 ? (int)((el - 18) / 24) : 0;
        for (int k = 0; k < 3; k++) {
            if (k >= nn) {
                cr_assert_str_eq(f[2 + 2 * k], "NULL", "line %d: no neighbour %d expected", lines + 1, k + 1);
                continue;
            }
            const char *blk = eline + 18 + 24 * k;
            char name[16] = { 0 };
            memcpy(name, blk + 1, 15);
            char *n = name;
            while (*n == ' ') n++;
            double d = atof(blk + 17);
            cr_assert(strncmp(f[2 + 2 * k], n, 12) == 0, "line %d: neighbour %d %s vs %s", lines + 1, k + 1, f[2 + 2 * k], n);
            cr_assert(fabs(atof(f[3 + 2 * k]) - d) <= 0.01 + 1e-9, "line %d: distance %d %s vs %.2f", lines + 1, k + 1, f[3 + 2 * k], d);
        }
        lines++;
        if (!enext || !gnext) break;
        eline = enext + 1;
        gline = gnext + 1;
    }
    cr_assert_eq(lines, 52);
    free(exp);
    tres_free(&r);
}

Test(cities, explain_shows_one_lbs_segreduce_then_a_window, .init = load, .fini = unload) {
    char *q = cities_sql();
    size_t n = strlen(q);
    char *e = malloc(n + 16);
    snprintf(e, n + 16, "EXPLAIN %s", q);
    free(q);
    tres r;
    tdb_exec(s, e, &r);
    free(e);
    cr_assert(!r.err.set, "%s", r.err.message);
    const char *first = strstr(r.text, "lbs_segreduce");
    cr_assert_not_null(first, "%s", r.text);
    cr_assert_null(strstr(first + 1, "lbs_segreduce"), "more than one lbs_segreduce:\n%s", r.text);
    const char *win = strstr(r.text, "Window");
    cr_assert(win && strstr(win, "segment_heads") && win < first, "%s", r.text);
    /* a materialized join is a "Join inner/left" stage ending in "lbs + gather" */
    cr_assert_null(strstr(r.text, "Join inner"), "the join must not be materialized:\n%s", r.text);
    cr_assert_null(strstr(r.text, "Join left"), "the join must not be materialized:\n%s", r.text);
    cr_assert_null(strstr(r.text, "lbs + gather"), "the join must not be materialized:\n%s", r.text);
    tres_free(&r);
}

Test(cities, statement_timeout_stops_the_fused_join_aggregate, .init = load, .fini = unload) {
    char *q = cities_sql();
    tres r;
    tdb_exec(s, "SET statement_timeout = 100", &r);
    cr_assert(!r.err.set);
    double t0 = 0;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    t0 = ts.tv_sec + ts.tv_nsec / 1e9;
    tdb_exec(s, q, &r);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double secs = ts.tv_sec + ts.tv_nsec / 1e9 - t0;
    free(q);
    cr_assert_str_eq(r.err.sqlstate, "57014", "%s", r.err.message);
    cr_assert(secs < 5, "took %.1f s to stop", secs);
    tdb_exec(s, "SET statement_timeout = 0; SELECT count(*) FROM cities", &r);
    cr_assert(!r.err.set);
    tres_free(&r);
}
