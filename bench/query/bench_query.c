/*
 * bench_query - times SQL through attu's library API (db/database.h), the
 * same path attud takes minus the socket, on one backend per run.
 *
 *   bench_query --device cpu|gpu [--rows N] [--reps R] [--root DIR]
 *               [--skip-cities] [--skip-large] [--explain]
 *
 * 1. cities: loads DIR/data/statecity.csv with DIR/clients/examples/
 *    bootstrap.sql's schema and runs DIR/clients/examples/cities.sql R times.
 * 2. large: generates a CSV of N rows (default 100M) for
 *      t1(a INTEGER, b INTEGER, x DOUBLE PRECISION)   a in [0, N/4), b in [0, 1000)
 *    and N/4 rows for t2(a INTEGER, y DOUBLE PRECISION) (a = 0..N/4-1, a key),
 *    loads both with COPY, then times a join + aggregate, a group-by (1000
 *    groups, and 100 groups of b / 10), ORDER BY windows of one row at the
 *    end and in the middle of the order (selected, not sorted), a wide
 *    window (a fifth of the rows: selected on a GPU) and a full sort (a
 *    window of half the rows), both counted, so the client transfer does
 *    not dominate.
 * Each figure is the median of R runs after one warm-up run; the first
 * (cold) run is printed apart. Times are wall-clock around
 * attu_session_exec: parse, plan, execute and materialize the result.
 * Input bytes per query are printed so the time can be set against the
 * machine's copy bandwidth (docs/performance.md).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db/database.h"
#include "engine/column.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

typedef struct run_ctx {
    size_t rows;
    int failed;
    char sql_error[700];
} run_ctx;

static int on_result(void *ctx, attu_result *res) {
    ((run_ctx *)ctx)->rows = res->nrows;
    return 0;
}

/* Prints a one-column text result (EXPLAIN ANALYZE's plan). */
static int print_result(void *ctx, attu_result *res) {
    (void)ctx;
    char buf[4096];
    for (size_t r = 0; res->ncols == 1 && r < res->nrows; r++) {
        const char *lng = NULL;
        size_t len = attu_column_format(res->cols[0], r, buf, sizeof buf, &lng);
        if (len == (size_t)-1) continue;
        printf("  %.*s\n", (int)len, lng ? lng : buf);
    }
    return 0;
}
static void on_error(void *ctx, const attu_error *err) {
    run_ctx *r = ctx;
    r->failed = 1;
    snprintf(r->sql_error, sizeof r->sql_error, "%s: %s", err->sqlstate, err->message);
}

/* Runs sql once; returns milliseconds, or exits on a SQL error. */
static double run_sql(attu_session *s, const char *sql, size_t *rows_out) {
    run_ctx r = {0};
    attu_exec_callbacks cb = { .ctx = &r, .on_result = on_result, .on_error = on_error };
    double t0 = now_ms();
    attu_session_exec(s, sql, &cb);
    double t = now_ms() - t0;
    if (r.failed) {
        fprintf(stderr, "bench_query: %s\n  in: %.200s\n", r.sql_error, sql);
        exit(1);
    }
    if (rows_out) *rows_out = r.rows;
    return t;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One warm-up (reported as cold) and reps timed runs; prints a line. */
static int explain;  /* --explain: print EXPLAIN ANALYZE after each query */
static const char *only; /* --only a,b: time only the queries of these labels */

/* Whether --only names label (every query without --only). */
static int wanted(const char *label) {
    if (!only) return 1;
    size_t n = strlen(label);
    for (const char *p = only; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, label, n)) return 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

static void time_query(attu_session *s, const char *label, const char *sql,
                       int reps, double input_mb, const char *device) {
    if (!wanted(label)) return;
    size_t rows = 0;
    double cold = run_sql(s, sql, &rows);
    double *t = calloc((size_t)reps, sizeof *t);
    for (int i = 0; i < reps; i++) t[i] = run_sql(s, sql, NULL);
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    double med = t[reps / 2];
    printf("%-10s %-4s cold %10.2f ms  warm median %10.2f ms  (min %.2f, max %.2f, %d runs)  "
           "rows %zu  input %.0f MB\n",
           label, device, cold, med, t[0], t[reps - 1], reps, rows, input_mb);
    if (explain) {
        /* the stage times of one more (warm) run */
        size_t n = strlen(sql) + 32;
        char *ea = malloc(n);
        snprintf(ea, n, "EXPLAIN ANALYZE %s", sql);
        attu_exec_callbacks cb = { .on_result = print_result };
        attu_session_exec(s, ea, &cb);
        free(ea);
    }
    fflush(stdout);
    free(t);
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(1); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) { perror(path); exit(1); }
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* xorshift64*: reproducible, never all zeros. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

/* Writes an unsigned integer; returns the new end. */
static char *put_u(char *p, uint64_t v) {
    char tmp[24];
    int n = 0;
    do { tmp[n++] = (char)('0' + v % 10); v /= 10; } while (v);
    while (n) *p++ = tmp[--n];
    return p;
}

/* A double in [0, 1000) with 6 decimals, written exactly. */
static char *put_fixed(char *p, uint64_t micros) {
    p = put_u(p, micros / 1000000);
    *p++ = '.';
    uint64_t f = micros % 1000000;
    for (int d = 100000; d; d /= 10) { *p++ = (char)('0' + f / (uint64_t)d); f %= (uint64_t)d; }
    return p;
}

static void generate(const char *path1, const char *path2, size_t n) {
    size_t keys = n / 4 ? n / 4 : 1;
    FILE *f = fopen(path1, "wb");
    if (!f) { perror(path1); exit(1); }
    static char buf[1 << 20];
    char *p = buf;
    for (size_t i = 0; i < n; i++) {
        if (p - buf > (long)sizeof buf - 64) { fwrite(buf, 1, (size_t)(p - buf), f); p = buf; }
        uint64_t r = rng();
        p = put_u(p, (r >> 8) % keys); *p++ = ',';
        p = put_u(p, (r >> 40) % 1000); *p++ = ',';
        p = put_fixed(p, rng() % 1000000000ull); *p++ = '\n';
    }
    fwrite(buf, 1, (size_t)(p - buf), f);
    fclose(f);
    f = fopen(path2, "wb");
    if (!f) { perror(path2); exit(1); }
    p = buf;
    for (size_t i = 0; i < keys; i++) {
        if (p - buf > (long)sizeof buf - 64) { fwrite(buf, 1, (size_t)(p - buf), f); p = buf; }
        p = put_u(p, i); *p++ = ',';
        p = put_fixed(p, rng() % 1000000000ull); *p++ = '\n';
    }
    fwrite(buf, 1, (size_t)(p - buf), f);
    fclose(f);
}

int main(int argc, char **argv) {
    const char *device = "cpu", *root = ".";
    size_t rows = 100000000;
    int reps = 5, skip_cities = 0, skip_large = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc) device = argv[++i];
        else if (!strcmp(argv[i], "--rows") && i + 1 < argc) rows = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--root") && i + 1 < argc) root = argv[++i];
        else if (!strcmp(argv[i], "--skip-cities")) skip_cities = 1;
        else if (!strcmp(argv[i], "--skip-large")) skip_large = 1;
        else if (!strcmp(argv[i], "--explain")) explain = 1;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else {
            fprintf(stderr, "usage: bench_query --device cpu|gpu [--rows N] [--reps R] "
                            "[--root DIR] [--skip-cities] [--skip-large] [--explain] "
                            "[--only LABEL,...]\n");
            return 2;
        }
    }
    if (reps < 1) reps = 1;

    attu_db_config cfg = {0};
    cfg.device = !strcmp(device, "gpu") ? ATTU_DEVICE_GPU : ATTU_DEVICE_CPU;
    attu_error err;
    attu_error_clear(&err);
    attu_db *db = attu_db_open(&cfg, &err);
    if (!db) { fprintf(stderr, "bench_query: %s: %s\n", err.sqlstate, err.message); return 1; }
    printf("bench_query on %s\n", attu_db_device_description(db));
    attu_session *s = attu_session_new(db);
    char path[4096], sql[8192];

    if (!skip_cities) {
        snprintf(path, sizeof path, "%s/clients/examples/bootstrap.sql", root);
        char *boot = read_file(path);
        /* bootstrap.sql names the file relative to the load directory. */
        char *copy = strstr(boot, "COPY cities FROM 'statecity.csv'");
        if (!copy) { fprintf(stderr, "bench_query: bootstrap.sql changed shape\n"); return 1; }
        *copy = '\0';
        run_sql(s, boot, NULL);
        snprintf(sql, sizeof sql, "COPY cities FROM '%s/data/statecity.csv' WITH (FORMAT csv, HEADER true)", root);
        run_sql(s, sql, NULL);
        snprintf(path, sizeof path, "%s/clients/examples/cities.sql", root);
        char *cities = read_file(path);
        time_query(s, "cities", cities, reps, 29510 * 24 / 1e6, device);
        free(cities);
        free(boot);
    }

    if (!skip_large) {
        char f1[] = "/tmp/bench_query_t1_XXXXXX", f2[] = "/tmp/bench_query_t2_XXXXXX";
        close(mkstemp(f1));
        close(mkstemp(f2));
        double t0 = now_ms();
        generate(f1, f2, rows);
        printf("generated %zu + %zu rows in %.0f ms\n", rows, rows / 4, now_ms() - t0);
        run_sql(s, "CREATE TABLE t1 (a INTEGER, b INTEGER, x DOUBLE PRECISION); "
                   "CREATE TABLE t2 (a INTEGER, y DOUBLE PRECISION)", NULL);
        snprintf(sql, sizeof sql, "COPY t1 FROM '%s' WITH (FORMAT csv)", f1);
        printf("load t1 %.0f ms\n", run_sql(s, sql, NULL));
        snprintf(sql, sizeof sql, "COPY t2 FROM '%s' WITH (FORMAT csv)", f2);
        printf("load t2 %.0f ms\n", run_sql(s, sql, NULL));
        unlink(f1);
        unlink(f2);
        double n = (double)rows;
        time_query(s, "join", "SELECT count(*), sum(t1.x + t2.y) FROM t1 JOIN t2 ON t1.a = t2.a",
                   reps, (n * 12 + n / 4 * 12) / 1e6, device);
        time_query(s, "group_by", "SELECT b, count(*), sum(x) FROM t1 GROUP BY b",
                   reps, n * 12 / 1e6, device);
        /* few groups: the dense group-by's table fits a warp's share of shared memory */
        time_query(s, "group_by100", "SELECT b / 10, count(*), sum(x) FROM t1 GROUP BY b / 10",
                   reps, n * 12 / 1e6, device);
        /* the last row of the order: a top-k of the reversed order where
         * the executor selects (limit_over_sort) */
        snprintf(sql, sizeof sql, "SELECT a, x FROM t1 ORDER BY x, a OFFSET %zu",
                 rows ? rows - 1 : 0);
        time_query(s, "order_by", sql, reps, n * 12 / 1e6, device);
        /* the middle row: a window of the order (select_window; every row
         * was sorted before session 11) */
        snprintf(sql, sizeof sql, "SELECT a, x FROM t1 ORDER BY x, a LIMIT 1 OFFSET %zu", rows / 2);
        time_query(s, "order_by_mid", sql, reps, n * 12 / 1e6, device);
        /* a wide window (a fifth of the rows), counted without leaving
         * the device: selected on a GPU since session 13 (the rows in a
         * sampled bracket, then only those sorted), sorted whole before */
        snprintf(sql, sizeof sql, "SELECT count(*) FROM (SELECT a, x FROM t1 ORDER BY x, a LIMIT %zu OFFSET %zu) s",
                 rows / 5, rows * 2 / 5);
        time_query(s, "sort_wide", sql, reps, n * 12 / 1e6, device);
        /* a window of half the rows: too wide to select, every row sorted */
        snprintf(sql, sizeof sql, "SELECT count(*) FROM (SELECT a, x FROM t1 ORDER BY x, a LIMIT %zu OFFSET %zu) s",
                 rows / 2, rows / 4);
        time_query(s, "sort_half", sql, reps, n * 12 / 1e6, device);
    }
    attu_session_free(s);
    attu_db_close(db);
    return 0;
}
