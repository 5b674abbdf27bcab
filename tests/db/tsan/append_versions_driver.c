/* append_versions_driver.c - a standalone ThreadSanitizer driver for
 * INSERTs that append in place to the buffers the committed version reads
 * (engine/column.c attu_column_append_version, engine/dictionary.c tail
 * appends): a writer thread appends rows (NULLs and new strings among
 * them), rolls blocks and savepoints back and commits, while 3 readers
 * hold REPEATABLE READ snapshots and read them twice (the same answers:
 * the appends past their rows change nothing they see) and check that
 * every committed row is whole (v NULL exactly on odd ids, s NULL on ids
 * divisible by 3, otherwise 's' || id). Not built by CMake; with a TSan
 * build of the libraries (as keyed_build_driver.c):
 *
 *   cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DATTU_CUDA=OFF \
 *     -DATTU_BUILD_BENCH=OFF "-DCMAKE_C_FLAGS=-fsanitize=thread -O1" \
 *     "-DCMAKE_CXX_FLAGS=-fsanitize=thread -O1" -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread
 *   ninja -C build/tsan db/libattu_db.a
 *   cd build/tsan && L="db/libattu_db.a planner/libattu_planner.a engine/libattu_engine.a" && \
 *     gcc -std=c11 -D_GNU_SOURCE -fsanitize=thread -O1 -g -I../.. -I. \
 *     ../../tests/db/tsan/append_versions_driver.c $L $L -lm -lcrypto -lpthread -o append_versions_driver && \
 *     ./append_versions_driver
 *
 * Exit status 0 and no TSan report: every answer exact, no race. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/database.h"
#include "tests/db/tsan/tsan_session.h"

static attu_db *db;
static int stop, rounds, wrong, committed;

/* One row of id k as every reader expects it. */
static void row_sql(char *sql, size_t cap, int k) {
    char s[32];
    if (k % 3 == 0) snprintf(s, sizeof s, "NULL");
    else snprintf(s, sizeof s, "'s%d'", k);
    snprintf(sql, cap, "INSERT INTO t VALUES (%d, %s, %s)", k, k % 2 ? "NULL" : "1", s);
}

static void *writer(void *p) {
    (void)p; attu_session *s = attu_session_new(db); char sql[160]; res o;
    int k = 100000;
    while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
        /* committed appends, one statement each */
        for (int i = 0; i < 3; i++) { row_sql(sql, sizeof sql, ++k); run(s, sql, &o); }
        /* a block rolled back: its rows never show, the next append reuses the slots */
        run(s, "BEGIN", &o);
        row_sql(sql, sizeof sql, 900000 + k); run(s, sql, &o);
        row_sql(sql, sizeof sql, 900001 + k); run(s, sql, &o);
        run(s, "ROLLBACK", &o);
        /* a savepoint rolled back inside a committed block */
        run(s, "BEGIN", &o);
        row_sql(sql, sizeof sql, ++k); run(s, sql, &o);
        run(s, "SAVEPOINT a", &o);
        row_sql(sql, sizeof sql, 900002 + k); run(s, sql, &o);
        run(s, "ROLLBACK TO SAVEPOINT a", &o);
        row_sql(sql, sizeof sql, ++k); run(s, sql, &o);
        run(s, "COMMIT", &o);
        __atomic_store_n(&committed, k - 100000, __ATOMIC_RELEASE);
        __atomic_add_fetch(&rounds, 1, __ATOMIC_RELAXED);
    }
    attu_session_free(s); return NULL;
}

static void *reader(void *p) {
    (void)p; attu_session *s = attu_session_new(db); res o; char first[512];
    for (int i = 0; i < 60 || __atomic_load_n(&rounds, __ATOMIC_RELAXED) < 20; i++) {
        int before = __atomic_load_n(&committed, __ATOMIC_ACQUIRE);
        run(s, "BEGIN ISOLATION LEVEL REPEATABLE READ", &o);
        const char *q = "SELECT count(*), count(v), count(s), max(s), sum(id) FROM t";
        snprintf(first, sizeof first, "%s", run(s, q, &o));
        /* rows whole: v NULL exactly on odd ids, s as written */
        if (strcmp(run(s, "SELECT count(*) FROM t WHERE (v IS NULL) <> (id % 2 = 1) OR "
                          "s IS DISTINCT FROM CASE WHEN id % 3 = 0 THEN NULL ELSE 's' || id END", &o), "0\n"))
            __atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
        if (strcmp(run(s, "SELECT count(*) FROM t WHERE id > 900000", &o), "0\n")) __atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
        /* the snapshot is the same after the writer appended past it */
        if (strcmp(run(s, q, &o), first)) __atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
        run(s, "COMMIT", &o);
        /* and it held at least what was committed before it began */
        int n = atoi(first);
        if (n < 2000 + before) __atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
    }
    attu_session_free(s); return NULL;
}

int main(void) {
    attu_db_config cfg; memset(&cfg, 0, sizeof cfg); cfg.device = ATTU_DEVICE_CPU; cfg.threads = 2;
    attu_error err; attu_error_clear(&err);
    db = attu_db_open(&cfg, &err);
    attu_session *m = attu_session_new(db); res o; char sql[160];
    run(m, "CREATE TABLE t (id INTEGER NOT NULL, v INTEGER, s TEXT)", &o);
    for (int k = 1; k <= 2000; k += 500) {
        snprintf(sql, sizeof sql, "INSERT INTO t SELECT g, CASE WHEN g %% 2 = 1 THEN NULL ELSE 1 END, "
                 "CASE WHEN g %% 3 = 0 THEN NULL ELSE 's' || g END FROM generate_series(%d, %d) g", k, k + 499);
        run(m, sql, &o);
    }
    pthread_t w, r[3];
    pthread_create(&w, NULL, writer, NULL);
    for (long i = 0; i < 3; i++) pthread_create(&r[i], NULL, reader, (void *)i);
    for (int i = 0; i < 3; i++) pthread_join(r[i], NULL);
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED); pthread_join(w, NULL);
    int want = 2000 + __atomic_load_n(&committed, __ATOMIC_ACQUIRE);
    printf("rounds %d wrong %d count %s (want %d)\n", rounds, wrong, run(m, "SELECT count(*) FROM t", &o), want);
    int bad = atoi(o.text) != want;
    attu_session_free(m); attu_db_close(db);
    return wrong != 0 || bad;
}
