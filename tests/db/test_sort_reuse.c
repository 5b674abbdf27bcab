/*
 * test_sort_reuse.c - sorted-input reuse (planner/ordering.c and the
 * reuse_sorts rewrite in planner/rewrite.c).
 *
 * For each query: (a) the plan has the expected number of sort stages
 * (Sort / Top-K) with reuse, and the sort is back with ATTU_NO_SORT_REUSE
 * where reuse removed it; (b) the rows, in order, are identical with reuse
 * on and off. The data has NULLs, duplicates, text and several row orders
 * so that a wrongly reused order shows up as a different row order.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"

static attu_db *db;
static attu_session *s;

static void setup(void) {
    unsetenv("ATTU_NO_SORT_REUSE");
    s = tdb_open_session(&db);
    tdb_exec_ok(s, "CREATE TABLE t (k INTEGER, j INTEGER, s TEXT, v BIGINT, f DOUBLE PRECISION, d DATE)");
    /* 3000 rows in a scrambled order: k has 23 values, j 11, s 130, with NULLs */
    tdb_exec_ok(s, "INSERT INTO t WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 3000) "
            "SELECT CASE WHEN i % 13 = 0 THEN NULL ELSE (i * 7919) % 23 END, "
            "CASE WHEN i % 17 = 0 THEN NULL ELSE (i * 104729) % 11 END, "
            "CASE WHEN i % 19 = 0 THEN NULL ELSE substr('abcdefghijklmnopqrstuvwxyz', 1 + (i * 31) % 26, 1) || substr('VWXYZ', 1 + i % 5, 1) END, "
            "(i * 2654435761) % 1000003 - 500000, "
            "CASE WHEN i % 29 = 0 THEN NULL ELSE ((i * 37) % 101) / 7.0 END, "
            "DATE '2020-01-01' + (i * 13) % 400 FROM r");
    tdb_exec_ok(s, "CREATE TABLE u (k INTEGER, s TEXT, w INTEGER, v BIGINT)");
    tdb_exec_ok(s, "INSERT INTO u WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 60) "
            "SELECT CASE WHEN i % 7 = 0 THEN NULL ELSE (i * 5) % 31 END, "
            "substr('abcdefghijklmnopqrstuvwxyz', 1 + (i * 11) % 26, 1) || substr('VWXYZ', 1 + i % 5, 1), i, "
            "(i * 2654435761) % 1000003 - 500000 FROM r");   /* v as t's first 60 rows */
}

static void teardown(void) {
    attu_session_free(s);
    attu_db_close(db);
    unsetenv("ATTU_NO_SORT_REUSE");
}

static void reuse(bool on) {
    if (on) unsetenv("ATTU_NO_SORT_REUSE");
    else setenv("ATTU_NO_SORT_REUSE", "1", 1);
}

/* The plan's stages that sort for ORDER BY (Sort, Top-K lines). */
static int count_sorts(const char *sql, char **plan_out) {
    char q[4096];
    snprintf(q, sizeof q, "EXPLAIN %s", sql);
    tres r;
    tdb_exec(s, q, &r);
    cr_assert(!r.err.set, "%s: %s %s", q, r.err.sqlstate, r.err.message);
    const char *text = r.text ? r.text : "";
    int n = 0;
    for (const char *line = text; *line;) {
        const char *st = line;
        while (*st == ' ') st++;
        if (!strncmp(st, "->  ", 4)) st += 4;
        if (!strncmp(st, "Sort  [", 7) || !strncmp(st, "Top-K ", 6)) n++;
        const char *nl = strchr(line, '\n');
        line = nl ? nl + 1 : line + strlen(line);
    }
    if (plan_out) *plan_out = strdup(text);
    tres_free(&r);
    return n;
}

static char *rows_of(const char *sql) { return tdb_rows_ok(s, sql); }

typedef struct rq { const char *name, *sql; int sorts_with_reuse, sorts_without; } rq;

/* Checks one query: sort counts both ways, identical rows both ways, and
 * at least one row (so the comparison means something). */
static int check(const rq *q) {
    char *plan_on = NULL, *plan_off = NULL;
    reuse(true);
    int on = count_sorts(q->sql, &plan_on);
    char *rows_on = rows_of(q->sql);
    reuse(false);
    int off = count_sorts(q->sql, &plan_off);
    char *rows_off = rows_of(q->sql);
    reuse(true);
    int bad = 0;
    if (on != q->sorts_with_reuse || off != q->sorts_without) {
        cr_log_error("%s: %d sort stage(s) with reuse (want %d), %d without (want %d)\n--- with reuse\n%s--- without\n%s",
                     q->name, on, q->sorts_with_reuse, off, q->sorts_without, plan_on, plan_off);
        bad = 1;
    }
    if (strcmp(rows_on, rows_off) != 0) {
        cr_log_error("%s: rows differ with reuse\n--- with reuse\n%s--- without\n%s", q->name, rows_on, rows_off);
        bad = 1;
    }
    if (!*rows_off) {
        cr_log_error("%s: no rows", q->name);
        bad = 1;
    }
    free(plan_on); free(plan_off); free(rows_on); free(rows_off);
    return bad;
}

static int check_all(const rq *qs, size_t n) {
    int bad = 0;
    for (size_t i = 0; i < n; i++) bad += check(&qs[i]);
    return bad;
}

/* Orders that satisfy the ORDER BY: the sort disappears. */
Test(sort_reuse, sort_dropped, .init = setup, .fini = teardown, .timeout = 60) {
    static const rq qs[] = {
        { "group_same_key", "SELECT k, count(*) FROM t GROUP BY k ORDER BY k", 0, 1 },
        { "group_text_key", "SELECT s, count(*), sum(v) FROM t GROUP BY s ORDER BY s", 0, 1 },
        { "group_date_key_nulls_last", "SELECT d, min(f) FROM t GROUP BY d ORDER BY d ASC NULLS LAST", 0, 1 },
        { "group_key_prefix", "SELECT k, j, count(*) FROM t GROUP BY k, j ORDER BY k", 0, 1 },
        { "group_keys_reordered", "SELECT k, j, count(*), sum(f) FROM t GROUP BY k, j ORDER BY j, k", 0, 1 },
        { "group_keys_reordered_text", "SELECT k, s, count(*) FROM t GROUP BY k, s ORDER BY s", 0, 1 },
        { "group_three_keys_reordered", "SELECT count(*), s, j, k FROM t GROUP BY k, j, s ORDER BY s, k", 0, 1 },
        { "group_having", "SELECT k, sum(v) FROM t GROUP BY k HAVING count(*) > 100 ORDER BY k", 0, 1 },
        { "group_having_reordered", "SELECT k, j, sum(v) FROM t GROUP BY k, j HAVING count(*) > 5 ORDER BY j, k", 0, 1 },
        { "group_expression_key", "SELECT k % 5 AS m, count(*) FROM t GROUP BY k % 5 ORDER BY m", 0, 1 },
        { "group_through_subquery", "SELECT * FROM (SELECT j, count(*) AS c FROM t GROUP BY j) g WHERE c > 10 ORDER BY j", 0, 1 },
        { "group_order_repeats_key", "SELECT k, count(*) FROM t GROUP BY k ORDER BY k, k DESC, 'x'::text", 0, 1 },
        { "group_topk", "SELECT k, count(*) FROM t GROUP BY k ORDER BY k LIMIT 4 OFFSET 2", 0, 1 },
        { "distinct_all_columns", "SELECT DISTINCT k, s FROM t ORDER BY k, s", 0, 1 },
        { "distinct_prefix", "SELECT DISTINCT j, d FROM t ORDER BY j", 0, 1 },
        { "union", "SELECT k FROM t UNION SELECT w FROM u ORDER BY 1", 0, 1 },
        { "intersect", "SELECT k, s FROM t INTERSECT SELECT k, s FROM u ORDER BY k", 0, 1 },
        { "except", "SELECT s FROM t EXCEPT SELECT s FROM u ORDER BY s", 0, 1 },
        { "semi_join_keeps_left", "SELECT k, n FROM (SELECT k, count(*) AS n FROM t GROUP BY k) g WHERE k IN (SELECT k FROM u) ORDER BY k", 0, 1 },
        { "sorted_subquery", "SELECT k, j FROM (SELECT k, j FROM t ORDER BY k, j) x ORDER BY k", 1, 2 },
        { "sort_then_prefix_topk", "SELECT * FROM (SELECT j, s FROM t ORDER BY j DESC NULLS LAST, s) x ORDER BY j DESC NULLS LAST LIMIT 7", 1, 2 },
        { "rowid", "SELECT rowid, k FROM t ORDER BY rowid LIMIT 5", 0, 1 },
        { "single_row", "SELECT count(*) FROM t ORDER BY 1", 0, 1 },
    };
    cr_assert_eq(check_all(qs, sizeof qs / sizeof *qs), 0);
}

/* Orders that do not satisfy the ORDER BY: the sort stays. */
Test(sort_reuse, sort_kept, .init = setup, .fini = teardown, .timeout = 60) {
    static const rq qs[] = {
        { "group_desc", "SELECT k, count(*) FROM t GROUP BY k ORDER BY k DESC", 1, 1 },
        { "group_nulls_first", "SELECT k, count(*) FROM t GROUP BY k ORDER BY k NULLS FIRST", 1, 1 },
        { "group_other_key", "SELECT k, count(*) FROM t GROUP BY k ORDER BY count(*), k", 1, 1 },
        { "group_expression_of_key", "SELECT k, count(*) FROM t GROUP BY k ORDER BY -k", 1, 1 },
        { "group_second_key_desc", "SELECT k, j, count(*) FROM t GROUP BY k, j ORDER BY j DESC, k", 1, 1 },
        { "group_under_limit", "SELECT * FROM (SELECT k, j, count(*) AS c FROM t GROUP BY k, j LIMIT 20) x ORDER BY j", 1, 1 },
        { "distinct_prefix_wrong_way", "SELECT DISTINCT k, j FROM t ORDER BY j, k", 1, 1 },
        { "sorted_subquery_wrong_way", "SELECT k, j FROM (SELECT k, j FROM t ORDER BY k, j) x ORDER BY j, k", 2, 2 },
        { "union_all", "SELECT k FROM t UNION ALL SELECT w FROM u ORDER BY 1", 1, 1 },
        { "left_join", "SELECT a.k, b.w FROM t a LEFT JOIN u b ON a.k = b.k ORDER BY a.k", 1, 1 },
        /* inner joins give the larger side's row order (inner_join_pairs) */
        { "join_int_key", "SELECT a.k, a.s, b.w FROM t a JOIN u b ON a.k = b.k ORDER BY a.k", 1, 1 },
        { "join_text_key_residual", "SELECT a.s, a.j, b.w FROM t a JOIN u b ON a.s = b.s AND a.j < b.w ORDER BY a.s", 1, 1 },
        { "join_two_keys", "SELECT a.s, a.k, b.w FROM t a JOIN u b ON a.s = b.s AND a.k = b.k ORDER BY a.s, a.k", 1, 1 },
        { "join_key_either_nulls", "SELECT a.k, b.w FROM t a JOIN u b ON a.k = b.k ORDER BY a.k NULLS FIRST", 1, 1 },
        { "join_bigint_key", "SELECT a.v, b.w FROM t a JOIN u b ON a.v = b.v ORDER BY a.v", 1, 1 },
        { "join_key_desc", "SELECT a.k, b.w FROM t a JOIN u b ON a.k = b.k ORDER BY a.k DESC", 1, 1 },
        { "window_keeps_input_order", "SELECT k, row_number() OVER (ORDER BY k) FROM t ORDER BY k", 1, 1 },
        { "plain_scan", "SELECT k, s FROM t ORDER BY k, s", 1, 1 },
        { "group_then_join", "SELECT g.k, g.n, b.w FROM (SELECT k, count(*) AS n FROM t GROUP BY k) g JOIN u b ON g.k = b.w ORDER BY g.n", 1, 1 },
    };
    cr_assert_eq(check_all(qs, sizeof qs / sizeof *qs), 0);
}

/* EXPLAIN ANALYZE runs the plan without the sort, and the rows really come
 * out in ORDER BY order (checked here, not only against the sorted plan). */
Test(sort_reuse, explain_analyze_and_order, .init = setup, .fini = teardown, .timeout = 60) {
    tres r;
    tdb_exec(s, "EXPLAIN ANALYZE SELECT k, j, count(*) FROM t GROUP BY k, j ORDER BY j, k", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_assert(strstr(r.text, "actual rows=") != NULL, "%s", r.text);
    cr_assert(strstr(r.text, "Sort") == NULL, "%s", r.text);
    tres_free(&r);

    /* j ascending NULLs last, then k ascending NULLs last */
    char *rows = rows_of("SELECT j, k FROM t GROUP BY k, j ORDER BY j, k");
    long pj = -1, pk = -1;
    bool pjnull = false, pknull = false, first = true;
    int n = 0;
    for (char *line = strtok(rows, "\n"); line; line = strtok(NULL, "\n"), n++) {
        char *bar = strchr(line, '|');
        cr_assert_not_null(bar);
        *bar = 0;
        bool jn = !strcmp(line, "NULL"), kn = !strcmp(bar + 1, "NULL");
        long j = jn ? 0 : atol(line), k = kn ? 0 : atol(bar + 1);
        if (!first) {
            int cj = pjnull ? (jn ? 0 : 1) : (jn ? -1 : (pj > j) - (pj < j));
            cr_assert(cj <= 0, "row %d: j out of order", n);
            if (cj == 0) {
                int ck = pknull ? (kn ? 0 : 1) : (kn ? -1 : (pk > k) - (pk < k));
                cr_assert(ck < 0, "row %d: k out of order or repeated", n);
            }
        }
        first = false;
        pj = j; pk = k; pjnull = jn; pknull = kn;
    }
    free(rows);
    char *want = rows_of("SELECT count(*) FROM (SELECT DISTINCT j, k FROM t) x");
    cr_assert_eq(n, atoi(want), "one row per (j, k) pair: %d, want %s", n, want);
    cr_assert_gt(n, 100);
    free(want);
}
