/*
 * bench_csv.c - how fast attu loads CSV.
 *
 * Generates a numeric + text CSV of the requested size (default 1 GiB):
 *   id BIGINT, qty INTEGER, price DOUBLE PRECISION, ratio DOUBLE PRECISION,
 *   amount NUMERIC(12,2), category TEXT (40 values), city TEXT (5000
 *   values, some quoted with embedded commas), day DATE
 * reads it once so it sits in the page cache, then loads it --runs times
 * into an empty table and prints MB/s and rows/s of every run and the
 * median. MB are 10^6 bytes.
 *
 *   bench_csv [--size-mb N] [--runs R] [--threads T] [--file PATH] [--keep]
 *
 * --file reuses PATH if it exists (else generates it there); without it a
 * file in $TMPDIR (or /tmp) is generated and removed afterwards unless
 * --keep. The "2 GB+" mode is just --size-mb 2200: it checks the row count
 * against what the generator wrote.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/csv_reader.h"
#include "engine/thread_pool.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds of this process (all threads), user + system; *sys_out
 * gets the system part. */
static double cpu_now(double *sys_out) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    if (sys_out) *sys_out = sys;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + sys;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static const char *categories[40] = {
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
    "india", "juliett", "kilo", "lima", "mike", "november", "oscar", "papa",
    "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey",
    "xray", "yankee", "zulu", "red", "orange", "yellow", "green", "blue",
    "indigo", "violet", "black", "white", "grey", "silver", "gold", "bronze",
    "copper"};

/* Writes about size bytes; returns the row count. */
static size_t generate(const char *path, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); exit(1); }
    static char buf[1 << 20];
    setvbuf(f, NULL, _IOFBF, 1 << 22);
    size_t written = 0, rows = 0;
    written += (size_t)fprintf(f, "id,qty,price,ratio,amount,category,city,day\n");
    while (written < size) {
        size_t n = 0;
        while (n < sizeof buf - 256 && written + n < size) {
            uint64_t r = rnd();
            unsigned city = (unsigned)(r % 5000);
            int y = 2000 + (int)((r >> 20) % 25), m = 1 + (int)((r >> 28) % 12), d = 1 + (int)((r >> 32) % 28);
            n += (size_t)sprintf(buf + n, "%zu,%u,%u.%02u,%.6f,%u.%02u,%s,%s%s%u%s,%04d-%02d-%02d\n",
                                 rows, (unsigned)(r >> 40) % 1000,
                                 (unsigned)(r >> 8) % 100000, (unsigned)(r >> 3) % 100,
                                 (double)(r >> 11) / 9007199254740992.0,
                                 (unsigned)(r >> 17) % 10000000, (unsigned)(r >> 5) % 100,
                                 categories[(r >> 50) % 40],
                                 city % 10 == 0 ? "\"City, " : "city_", "", city,
                                 city % 10 == 0 ? "\"" : "", y, m, d);
            rows++;
        }
        fwrite(buf, 1, n, f);
        written += n;
    }
    if (fclose(f) != 0) { perror(path); exit(1); }
    return rows;
}

static size_t count_lines(const char *path) {
    FILE *f = fopen(path, "rb");
    static char buf[1 << 20];
    size_t n, lines = 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < n; i++) lines += buf[i] == '\n';
    fclose(f);
    return lines;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    size_t size_mb = 1024;
    int runs = 5, threads = 0, keep = 0;
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size-mb") && i + 1 < argc) size_mb = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--file") && i + 1 < argc) file = argv[++i];
        else if (!strcmp(argv[i], "--keep")) keep = 1;
        else {
            fprintf(stderr, "usage: %s [--size-mb N] [--runs R] [--threads T] [--file PATH] [--keep]\n", argv[0]);
            return 2;
        }
    }
    if (runs < 1) runs = 1;
    char path[4096];
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    if (file) snprintf(path, sizeof path, "%s", file);
    else snprintf(path, sizeof path, "%s/attu_bench_%zumb.csv", tmp, size_mb);
    struct stat st;
    size_t rows_expected;
    if (file && stat(path, &st) == 0) {
        printf("reusing %s\n", path);
        rows_expected = count_lines(path) - 1;
    } else {
        double t0 = now();
        rows_expected = generate(path, size_mb * 1000000);
        printf("generated %s in %.1f s\n", path, now() - t0);
    }
    stat(path, &st);
    double mb = (double)st.st_size / 1e6;

    attu_column_def defs[8];
    memset(defs, 0, sizeof defs);
    const char *names[8] = {"id", "qty", "price", "ratio", "amount", "category", "city", "day"};
    attu_type types[8] = {attu_type_make(ATTU_TYPE_INT64), attu_type_make(ATTU_TYPE_INT32),
                          attu_type_make(ATTU_TYPE_FLOAT64), attu_type_make(ATTU_TYPE_FLOAT64),
                          attu_type_decimal(12, 2), attu_type_make(ATTU_TYPE_TEXT),
                          attu_type_make(ATTU_TYPE_TEXT), attu_type_make(ATTU_TYPE_DATE)};
    for (int i = 0; i < 8; i++) {
        snprintf(defs[i].name, sizeof defs[i].name, "%s", names[i]);
        defs[i].type = types[i];
    }
    attu_error err;
    attu_error_clear(&err);
    attu_table *base = attu_table_new("bench", 8, defs, &err);
    attu_csv_options o;
    attu_csv_options_default(&o);
    o.header = true;
    o.threads = threads;
    attu_csv_source src = { path, NULL, NULL, path };
    printf("file %.1f MB, %zu rows, %d threads\n", mb, rows_expected,
           threads > 0 ? threads : attu_cpu_count());
    double *secs = calloc((size_t)runs, sizeof *secs);
    double *cpus = calloc((size_t)runs, sizeof *cpus);
    {
        /* Warm-up (untimed): pulls the file into the page cache. */
        attu_table *t = attu_csv_load(base, &o, &src, NULL, &err);
        if (!t) { fprintf(stderr, "load failed: %s\n", err.message); return 1; }
        attu_table_free(t);
    }
    for (int r = 0; r < runs; r++) {
        size_t rows = 0;
        double s0, s1;
        double t0 = now(), c0 = cpu_now(&s0);
        attu_table *t = attu_csv_load(base, &o, &src, &rows, &err);
        secs[r] = now() - t0;
        cpus[r] = cpu_now(&s1) - c0;
        if (!t) { fprintf(stderr, "load failed: %s\n", err.message); return 1; }
        if (rows != rows_expected) {
            fprintf(stderr, "row count %zu, expected %zu\n", rows, rows_expected);
            return 1;
        }
        printf("run %d: %.3f s  %.0f MB/s  %.2f M rows/s  (cpu %.3f s of which sys %.3f; distinct cities %d)\n",
               r + 1, secs[r], mb / secs[r], (double)rows / secs[r] / 1e6, cpus[r], s1 - s0,
               t->cols[6]->dict->count);
        attu_table_free(t);
    }
    qsort(secs, (size_t)runs, sizeof *secs, cmp_double);
    qsort(cpus, (size_t)runs, sizeof *cpus, cmp_double);
    double med = secs[runs / 2];
    printf("median: %.3f s  %.0f MB/s  %.2f M rows/s  (median cpu %.3f s = %.0f MB per cpu-second)\n",
           med, mb / med, (double)rows_expected / med / 1e6, cpus[runs / 2], mb / cpus[runs / 2]);
    free(cpus);
    attu_table_free(base);
    free(secs);
    if (!file && !keep) unlink(path);
    return 0;
}
