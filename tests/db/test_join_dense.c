/*
 * test_join_dense.c - joins whose sorted side has dense keys (executor
 * find_runs: a bounds table over the key range instead of binary searches,
 * taken when the searched side has 65,536 rows or more).
 *
 * The fact side has keys inside the dimension's range, around its ends,
 * far outside (including BIGINT's extremes) and NULL; the dimension has
 * gaps and duplicate keys. Every count and sum is also computed here in C.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"

static attu_db *db;
static attu_session *s;

#define NFACT 100000
/* dimension: keys 100..1099 except multiples of 7; multiples of 5 twice */
static int dim_mult(int64_t k) {
    if (k < 100 || k > 1099 || k % 7 == 0) return 0;
    return k % 5 == 0 ? 2 : 1;
}
/* fact key of row i, or "NULL" */
static void fact_key(int i, char *buf, size_t cap, int64_t *k, int *is_null) {
    *is_null = 0;
    if (i % 97 == 0) { *is_null = 1; snprintf(buf, cap, "NULL"); return; }
    if (i % 101 == 0) { *k = INT64_MIN; snprintf(buf, cap, "(-9223372036854775807 - 1)"); return; }
    if (i % 103 == 0) { *k = INT64_MAX; snprintf(buf, cap, "9223372036854775807"); return; }
    *k = (int64_t)(i % 1200) - 50;   /* -50 .. 1149 */
    snprintf(buf, cap, "%lld", (long long)*k);
}

static void setup(void) {
    s = tdb_open_session(&db);
    tdb_exec_ok(s, "CREATE TABLE dim (k BIGINT, w INTEGER)");
    tdb_exec_ok(s, "INSERT INTO dim WITH RECURSIVE r(i) AS (SELECT 100 UNION ALL SELECT i + 1 FROM r WHERE i < 1099) "
            "SELECT i, i % 13 FROM r WHERE i % 7 <> 0 "
            "UNION ALL SELECT i, i % 13 + 100 FROM r WHERE i % 7 <> 0 AND i % 5 = 0");
    tdb_exec_ok(s, "CREATE TABLE fact (i INTEGER, k BIGINT)");
    /* rows in batches of INSERT ... VALUES */
    char *sql = malloc(1 << 20);
    cr_assert_not_null(sql);
    for (int b = 0; b < NFACT; b += 5000) {
        size_t n = (size_t)snprintf(sql, 64, "INSERT INTO fact VALUES ");
        for (int i = b; i < b + 5000; i++) {
            char kb[64];
            int64_t k;
            int nul;
            fact_key(i, kb, sizeof kb, &k, &nul);
            n += (size_t)snprintf(sql + n, (1 << 20) - n, "%s(%d, %s)", i > b ? "," : "", i, kb);
        }
        tdb_exec_ok(s, sql);
    }
    free(sql);
}

static void teardown(void) {
    attu_session_free(s);
    attu_db_close(db);
}

Test(join_dense, inner_left_semi_anti_and_aggregate, .init = setup, .fini = teardown, .timeout = 120) {
    long long pairs = 0, wsum = 0, matched = 0, unmatched = 0;
    for (int i = 0; i < NFACT; i++) {
        char kb[64];
        int64_t k = 0;
        int nul;
        fact_key(i, kb, sizeof kb, &k, &nul);
        int m = nul ? 0 : dim_mult(k);
        pairs += m;
        if (m) {
            matched++;
            wsum += k % 13;
            if (m == 2) wsum += k % 13 + 100;
        } else unmatched++;
    }
    char want[256];
    const char *got;
    snprintf(want, sizeof want, "%lld|%lld\n", pairs, wsum);
    got = tdb_rows(s, "SELECT count(*), sum(dim.w) FROM fact JOIN dim ON fact.k = dim.k");
    cr_assert_str_eq(got, want, "inner join: got %s want %s", got, want);
    /* the fact side as the smaller one: dim is searched (not dense-sized) */
    got = tdb_rows(s, "SELECT count(*), sum(dim.w) FROM dim JOIN fact ON fact.k = dim.k");
    cr_assert_str_eq(got, want, "inner join, other way round");
    snprintf(want, sizeof want, "%lld\n", pairs + unmatched);
    got = tdb_rows(s, "SELECT count(*) FROM fact LEFT JOIN dim ON fact.k = dim.k");
    cr_assert_str_eq(got, want, "left join");
    snprintf(want, sizeof want, "%lld\n", matched);
    got = tdb_rows(s, "SELECT count(*) FROM fact WHERE k IN (SELECT k FROM dim)");
    cr_assert_str_eq(got, want, "semi join");
    snprintf(want, sizeof want, "%lld\n", unmatched);
    got = tdb_rows(s, "SELECT count(*) FROM fact WHERE NOT EXISTS (SELECT 1 FROM dim WHERE dim.k = fact.k)");
    cr_assert_str_eq(got, want, "anti join");
    /* the fused join-aggregate (one output row per fact row) */
    snprintf(want, sizeof want, "%lld|%lld\n", pairs, (long long)NFACT);
    got = tdb_rows(s, "SELECT sum(n), count(*) FROM (SELECT fact.i, count(dim.w) AS n FROM fact LEFT JOIN dim "
                      "ON dim.k = fact.k GROUP BY fact.rowid, fact.i) t");
    cr_assert_str_eq(got, want, "join-aggregate");
}

/* A sparse dimension (a filtered one, as SSB's `p_category = 'MFGR#12'`
 * leaves 4% of part's key range): its range is far beyond 4 x its rows but
 * at most half the fact rows, so the bounds table still pays for itself.
 * Keys 0, 37, 74, ... 36963 (one row each, 999 and 1998 twice). */
Test(join_dense, sparse_dimension, .init = setup, .fini = teardown, .timeout = 120) {
    tdb_exec_ok(s, "CREATE TABLE dim2 (k BIGINT, w INTEGER)");
    tdb_exec_ok(s, "INSERT INTO dim2 WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 999) "
                   "SELECT i * 37, i % 11 FROM r UNION ALL SELECT 999 * 37, 5 UNION ALL SELECT 1998 * 37, 7");
    /* fact's keys are -50 .. 1149 (and the extremes, and NULL): widen the
     * ordinary ones to -50 .. 39949 to reach dim2's range */
    tdb_exec_ok(s, "CREATE TABLE fact2 AS SELECT i, CASE WHEN k BETWEEN -50 AND 1149 THEN (i % 40000) - 50 ELSE k END AS k FROM fact");
    long long pairs = 0, wsum = 0, unmatched = 0;
    for (int i = 0; i < NFACT; i++) {
        char kb[64];
        int64_t k = 0;
        int nul;
        fact_key(i, kb, sizeof kb, &k, &nul);
        if (!nul && k >= -50 && k <= 1149) k = (i % 40000) - 50;
        int m = 0;
        long long w = 0;
        if (!nul && k >= 0 && k <= 999 * 37 && k % 37 == 0) {
            m = 1;
            w = (k / 37) % 11;
            if (k == 999 * 37) { m = 2; w += 5; }
        }
        pairs += m;
        wsum += w;
        if (!m) unmatched++;
    }
    char want[256];
    const char *got;
    snprintf(want, sizeof want, "%lld|%lld\n", pairs, wsum);
    got = tdb_rows(s, "SELECT count(*), sum(dim2.w) FROM fact2 JOIN dim2 ON fact2.k = dim2.k");
    cr_assert_str_eq(got, want, "inner join: got %s want %s", got, want);
    snprintf(want, sizeof want, "%lld\n", pairs + unmatched);
    got = tdb_rows(s, "SELECT count(*) FROM fact2 LEFT JOIN dim2 ON fact2.k = dim2.k");
    cr_assert_str_eq(got, want, "left join: got %s want %s", got, want);
    snprintf(want, sizeof want, "%lld\n", unmatched);
    got = tdb_rows(s, "SELECT count(*) FROM fact2 WHERE NOT EXISTS (SELECT 1 FROM dim2 WHERE dim2.k = fact2.k)");
    cr_assert_str_eq(got, want, "anti join: got %s want %s", got, want);
}
