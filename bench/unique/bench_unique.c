/*
 * bench_unique - times statements that PRIMARY KEY / UNIQUE constraints
 * check (db/db_unique.c, db/db_on_conflict.c) on a keyed table, through
 * attu's library API (db/database.h) as bench_query does.
 *
 *   bench_unique --device cpu|gpu [--rows N] [--reps R] [--stop-after LABEL]
 *
 * Loads k(id BIGINT PRIMARY KEY, a INTEGER, b DOUBLE PRECISION) with N
 * rows (default 1M, id = 1..N) and times, each as the median of R runs
 * (every run a statement of its own, on new keys):
 *   insert-1        INSERT of one row
 *   insert-1000     INSERT ... SELECT of 1000 rows
 *   upsert-100      INSERT of 100 rows ON CONFLICT (id) DO UPDATE, 50 of
 *                   them existing keys (updated), 50 new (inserted)
 *   update-1        UPDATE of one row by key (its key changes)
 *   insert-1-after-delete  one DELETE (untimed), then the timed one-row
 *                   INSERT: the first check after a change the key index
 *                   does not follow (it is rebuilt)
 *   insert-dup      a one-row INSERT that fails with 23505
 *   upsert-2001     2001 rows ON CONFLICT (id) DO UPDATE, 1001 existing
 *   update-500k     UPDATE of half the rows (a non-key column)
 *   text insert-1   a one-row INSERT into kt(code TEXT PRIMARY KEY, n
 *                   INTEGER) of N distinct codes, and the same into a
 *                   table of no key (text insert-1 (no key)); the
 *                   new codes sort after every old one
 *   text insert-1 (sorts first)  the same into the table of no key of a
 *                   code that sorts before every old one (every old
 *                   row's code moves up one)
 *   text insert-1 (known)  a one-row INSERT of a code the table holds
 *   text insert-select-10  INSERT ... SELECT of 10 rows of the keyless
 *                   text table into a third table of N other codes
 *   insert-1 (no key)  the one-row INSERT into a table of no key: the
 *                   statement's cost without a check (the new version of
 *                   the table is a copy, table.h)
 * Times are wall-clock around attu_session_exec. --stop-after LABEL ends
 * the run once that line is printed (a profiler then sees mostly it).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db/database.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

typedef struct run_ctx {
    int failed;
    char sqlstate[6];
    char sql_error[700];
} run_ctx;

static int on_result(void *ctx, attu_result *res) { (void)ctx; (void)res; return 0; }

static void on_error(void *ctx, const attu_error *err) {
    run_ctx *r = ctx;
    r->failed = 1;
    snprintf(r->sqlstate, sizeof r->sqlstate, "%s", err->sqlstate);
    snprintf(r->sql_error, sizeof r->sql_error, "%s: %s", err->sqlstate, err->message);
}

/* Runs sql once; milliseconds. expect: the SQLSTATE it must fail with, or
 * NULL for success (anything else exits). */
static double run_sql(attu_session *s, const char *sql, const char *expect) {
    run_ctx r = {0};
    attu_exec_callbacks cb = { .ctx = &r, .on_result = on_result, .on_error = on_error };
    double t0 = now_ms();
    attu_session_exec(s, sql, &cb);
    double t = now_ms() - t0;
    if (expect ? !r.failed || strcmp(r.sqlstate, expect) : r.failed) {
        fprintf(stderr, "bench_unique: %s\n  in: %.200s\n", r.failed ? r.sql_error : "no error", sql);
        exit(1);
    }
    return t;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static const char *stop_after;   /* --stop-after: the last line to print */

static void report(const char *label, double *ms, int reps) {
    qsort(ms, (size_t)reps, sizeof *ms, cmp_double);
    printf("  %-28s median %9.3f ms   min %9.3f ms   max %9.3f ms\n", label, ms[reps / 2], ms[0], ms[reps - 1]);
    if (stop_after && !strcmp(stop_after, label)) {
        fflush(stdout);
        exit(0);
    }
}

int main(int argc, char **argv) {
    const char *device = "cpu";
    long long rows = 1000000;
    int reps = 9;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc) device = argv[++i];
        else if (!strcmp(argv[i], "--rows") && i + 1 < argc) rows = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--stop-after") && i + 1 < argc) stop_after = argv[++i];
        else {
            fprintf(stderr, "usage: bench_unique --device cpu|gpu [--rows N] [--reps R] [--stop-after LABEL]\n");
            return 2;
        }
    }
    if (reps < 1) reps = 1;
    attu_db_config cfg = {0};
    cfg.device = !strcmp(device, "gpu") ? ATTU_DEVICE_GPU : ATTU_DEVICE_CPU;
    attu_error err;
    attu_error_clear(&err);
    attu_db *db = attu_db_open(&cfg, &err);
    if (!db) { fprintf(stderr, "bench_unique: %s: %s\n", err.sqlstate, err.message); return 1; }
    printf("bench_unique on %s, %lld rows, %d reps\n", attu_db_device_description(db), rows, reps);
    attu_session *s = attu_session_new(db);
    char sql[4096];
    run_sql(s, "CREATE TABLE k (id BIGINT PRIMARY KEY, a INTEGER, b DOUBLE PRECISION)", NULL);
    snprintf(sql, sizeof sql, "INSERT INTO k SELECT g, (g %% 1000)::int, g * 0.5 FROM generate_series(1, %lld) AS g", rows);
    printf("  %-28s %9.3f ms\n", "load", run_sql(s, sql, NULL));
    double *ms = malloc(sizeof *ms * (size_t)reps);
    long long next = rows + 1;   /* the next new key */
    /* one warm-up statement (it builds the key index where there is one) */
    snprintf(sql, sizeof sql, "INSERT INTO k VALUES (%lld, 1, 1.5)", next++);
    printf("  %-28s %9.3f ms\n", "insert-1 (first)", run_sql(s, sql, NULL));

    for (int i = 0; i < reps; i++) {
        snprintf(sql, sizeof sql, "INSERT INTO k VALUES (%lld, 1, 1.5)", next++);
        ms[i] = run_sql(s, sql, NULL);
    }
    report("insert-1", ms, reps);
    for (int i = 0; i < reps; i++) {
        snprintf(sql, sizeof sql, "INSERT INTO k SELECT g, 2, 2.5 FROM generate_series(%lld, %lld) AS g", next, next + 999);
        next += 1000;
        ms[i] = run_sql(s, sql, NULL);
    }
    report("insert-1000", ms, reps);
    for (int i = 0; i < reps; i++) {
        /* 50 existing keys (spread over the table) and 50 new ones */
        snprintf(sql, sizeof sql,
                 "INSERT INTO k SELECT CASE WHEN g < 50 THEN 1 + (g * 19997 + %d * 7) %% %lld ELSE %lld + g END, 3, 3.5 "
                 "FROM generate_series(0, 99) AS g ON CONFLICT (id) DO UPDATE SET a = k.a + 1, b = excluded.b",
                 i, rows, next - 50);
        next += 50;
        ms[i] = run_sql(s, sql, NULL);
    }
    report("upsert-100", ms, reps);
    for (int i = 0; i < reps; i++) {
        snprintf(sql, sizeof sql, "UPDATE k SET id = %lld WHERE id = %lld", next++, (long long)(1 + i * 1001));
        ms[i] = run_sql(s, sql, NULL);
    }
    report("update-1", ms, reps);
    for (int i = 0; i < reps; i++) {
        snprintf(sql, sizeof sql, "INSERT INTO k VALUES (%lld, 4, 4.5)", (long long)(2 + i * 1001));
        ms[i] = run_sql(s, sql, "23505");
    }
    report("insert-dup", ms, reps);
    for (int i = 0; i < reps; i++) {
        snprintf(sql, sizeof sql, "DELETE FROM k WHERE id = %lld", (long long)(3 + i * 1001));
        run_sql(s, sql, NULL);
        snprintf(sql, sizeof sql, "INSERT INTO k VALUES (%lld, 5, 5.5)", next++);
        ms[i] = run_sql(s, sql, NULL);
    }
    report("insert-1-after-delete", ms, reps);
    for (int i = 0; i < reps; i++) {
        snprintf(sql, sizeof sql,
                 "INSERT INTO k SELECT CASE WHEN g <= 1000 THEN 1 + (g * 997 + %d) %% %lld ELSE %lld + g END, 6, 6.5 "
                 "FROM generate_series(0, 2000) AS g ON CONFLICT (id) DO UPDATE SET a = k.a + 1",
                 i, rows, next);
        next += 2001;
        ms[i] = run_sql(s, sql, NULL);
    }
    report("upsert-2001", ms, reps);
    for (int i = 0; i < reps; i++) {
        snprintf(sql, sizeof sql, "UPDATE k SET a = a + 1 WHERE id %% 2 = %d", i % 2);
        ms[i] = run_sql(s, sql, NULL);
    }
    report("update-500k", ms, reps);
    run_sql(s, "CREATE TABLE kt (code TEXT PRIMARY KEY, n INTEGER)", NULL);
    snprintf(sql, sizeof sql, "INSERT INTO kt SELECT 'code-' || g, g FROM generate_series(1, %lld) AS g", rows);
    printf("  %-28s %9.3f ms\n", "text load", run_sql(s, sql, NULL));
    snprintf(sql, sizeof sql, "INSERT INTO kt VALUES ('new-first', 0)");
    printf("  %-28s %9.3f ms\n", "text insert-1 (first)", run_sql(s, sql, NULL));
    for (int i = 0; i < reps; i++) {
        snprintf(sql, sizeof sql, "INSERT INTO kt VALUES ('new-%d', %d)", i, i);
        ms[i] = run_sql(s, sql, NULL);
    }
    report("text insert-1", ms, reps);
    /* the same into a text table of no key: the dictionary merge of the
     * appended value, without any check */
    run_sql(s, "CREATE TABLE ktn (code TEXT, n INTEGER)", NULL);
    snprintf(sql, sizeof sql, "INSERT INTO ktn SELECT 'code-' || g, g FROM generate_series(1, %lld) AS g", rows);
    run_sql(s, sql, NULL);
    for (int i = 0; i < reps; i++) {
        snprintf(sql, sizeof sql, "INSERT INTO ktn VALUES ('new-%d', %d)", i, i);
        ms[i] = run_sql(s, sql, NULL);
    }
    report("text insert-1 (no key)", ms, reps);
    for (int i = 0; i < reps; i++) {
        snprintf(sql, sizeof sql, "INSERT INTO ktn VALUES ('a-new-%d', %d)", i, i);
        ms[i] = run_sql(s, sql, NULL);
    }
    report("text insert-1 (sorts first)", ms, reps);
    for (int i = 0; i < reps; i++) {
        snprintf(sql, sizeof sql, "INSERT INTO ktn VALUES ('code-%d', %d)", i + 7, i);
        ms[i] = run_sql(s, sql, NULL);
    }
    report("text insert-1 (known)", ms, reps);
    run_sql(s, "CREATE TABLE kts (code TEXT, n INTEGER)", NULL);
    snprintf(sql, sizeof sql, "INSERT INTO kts SELECT 'other-' || g, g FROM generate_series(1, %lld) AS g", rows);
    run_sql(s, sql, NULL);
    for (int i = 0; i < reps; i++) {
        snprintf(sql, sizeof sql, "INSERT INTO kts SELECT code, n FROM ktn WHERE n BETWEEN %d AND %d", 1000 + i * 10,
                 1009 + i * 10);
        ms[i] = run_sql(s, sql, NULL);
    }
    report("text insert-select-10", ms, reps);
    /* the same one-row INSERT into a table with no key: what the
     * statement costs without any check (copying the table's new version) */
    run_sql(s, "CREATE TABLE nk (id BIGINT, a INTEGER, b DOUBLE PRECISION)", NULL);
    snprintf(sql, sizeof sql, "INSERT INTO nk SELECT g, (g %% 1000)::int, g * 0.5 FROM generate_series(1, %lld) AS g", rows);
    run_sql(s, sql, NULL);
    for (int i = 0; i < reps; i++) {
        snprintf(sql, sizeof sql, "INSERT INTO nk VALUES (%lld, 1, 1.5)", rows + 1 + i);
        ms[i] = run_sql(s, sql, NULL);
    }
    report("insert-1 (no key)", ms, reps);
    free(ms);
    attu_session_free(s);
    attu_db_close(db);
    return 0;
}
