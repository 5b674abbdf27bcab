/* keyed_build_driver.c - a standalone ThreadSanitizer driver (Criterion
 * does not start under TSan here: its arena's mmap fails): 3 reader
 * threads query t by key while a writer thread's blocks move its key set
 * on and roll back (since helper 154 a ROLLBACK hands the set back to the
 * committed version: keyed_rollback_driver.c is the driver for that, and
 * for the readers' rebuilds after a ROLLBACK too large to undo), beside
 * the writer's checks and follow-ups.
 * Not built by CMake; with a TSan build of the libraries:
 *
 *   cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DATTU_CUDA=OFF \
 *     -DATTU_BUILD_BENCH=OFF "-DCMAKE_C_FLAGS=-fsanitize=thread -O1" \
 *     "-DCMAKE_CXX_FLAGS=-fsanitize=thread -O1" -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread
 *   ninja -C build/tsan db/libattu_db.a
 *   cd build/tsan && L="db/libattu_db.a planner/libattu_planner.a engine/libattu_engine.a" && \
 *     gcc -std=c11 -D_GNU_SOURCE -fsanitize=thread -O1 -g -I../.. -I. \
 *     ../../tests/db/tsan/keyed_build_driver.c $L $L -lm -lcrypto -lpthread -o keyed_build_driver && \
 *     ./keyed_build_driver
 *
 * Exit status 0 and no TSan report: every answer exact, no race. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/database.h"
#include "tests/db/tsan/tsan_session.h"

static attu_db *db;
static int stop;
static int rounds, wrong;
static void *writer(void *p) {
    (void)p; attu_session *s = attu_session_new(db); char sql[160]; res o;
    while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
        int k = 1 + rounds % 200;
        run(s, "BEGIN", &o);
        snprintf(sql, sizeof sql, "DELETE FROM t WHERE id = %d", k); run(s, sql, &o);
        snprintf(sql, sizeof sql, "INSERT INTO t VALUES (%d, -1)", 100000 + k); run(s, sql, &o);
        run(s, "ROLLBACK", &o);
        if (rounds % 4 == 0) { snprintf(sql, sizeof sql, "UPDATE t SET v = v WHERE id = %d", k); run(s, sql, &o); }
        if (rounds % 5 == 0) { snprintf(sql, sizeof sql, "INSERT INTO t VALUES (%d, %d)", 200000 + rounds, 200000 + rounds); run(s, sql, &o);
                               snprintf(sql, sizeof sql, "DELETE FROM t WHERE id = %d", 200000 + rounds); run(s, sql, &o); }
        __atomic_add_fetch(&rounds, 1, __ATOMIC_RELAXED);
    }
    attu_session_free(s); return NULL;
}
static void *reader(void *p) {
    int id = (int)(long)p; attu_session *s = attu_session_new(db); char sql[96], want[32]; res o;
    for (int i = 0; i < 150 || __atomic_load_n(&rounds, __ATOMIC_RELAXED) < 4; i++) {
        int k = 1 + (i * 7 + id * 13) % 20000;
        snprintf(sql, sizeof sql, "SELECT id, v FROM t WHERE id = %d", k);
        snprintf(want, sizeof want, "%d|%d\n", k, k);
        if (strcmp(run(s, sql, &o), want)) __atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
        snprintf(sql, sizeof sql, "SELECT count(*) FROM t WHERE id = %d", 100000 + 1 + i % 200);
        if (strcmp(run(s, sql, &o), "0\n")) __atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
    }
    attu_session_free(s); return NULL;
}
int main(void) {
    attu_db_config cfg; memset(&cfg, 0, sizeof cfg); cfg.device = ATTU_DEVICE_CPU; cfg.threads = 2;
    attu_error err; attu_error_clear(&err);
    db = attu_db_open(&cfg, &err);
    attu_session *m = attu_session_new(db); res o;
    run(m, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)", &o);
    run(m, "INSERT INTO t SELECT g, g FROM generate_series(1, 70000) g", &o);
    pthread_t w, r[3];
    pthread_create(&w, NULL, writer, NULL);
    for (long i = 0; i < 3; i++) pthread_create(&r[i], NULL, reader, (void *)i);
    for (int i = 0; i < 3; i++) pthread_join(r[i], NULL);
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED); pthread_join(w, NULL);
    printf("rounds %d wrong %d count %s (want 70000)", rounds, wrong, run(m, "SELECT count(*) FROM t", &o));
    attu_session_free(m); attu_db_close(db);
    return wrong != 0;
}
