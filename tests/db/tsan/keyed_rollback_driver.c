/* keyed_rollback_driver.c - a standalone ThreadSanitizer driver for the
 * key sets a ROLLBACK hands back (db/db_unique.c db_unique_rollback_index,
 * engine/key_set_undo.c): 3 reader threads query t's committed version by
 * key (probing its set, or scanning and building one when it has none)
 * while a writer thread's blocks change keys (INSERT, key UPDATE, DELETE),
 * roll back to savepoints and roll back whole, each rollback undoing the
 * set and attaching it to the committed version the readers probe; every
 * 8th block changes every key (too many to undo: the readers rebuild),
 * and every 4th round commits a change (the set moves on). Not built by
 * CMake; with a TSan build of the libraries (keyed_build_driver.c's
 * header has the commands), compile this file the same way and run it.
 *
 * Exit status 0 and no TSan report: every answer exact, no race. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/database.h"
#include "tests/db/tsan/tsan_session.h"

enum { ROWS = 20000 };

static attu_db *db;
static int stop;
static int rounds, wrong;

static void *writer(void *p) {
    (void)p; attu_session *s = attu_session_new(db); char sql[160]; res o;
    while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
        int k = 1 + rounds % 200;
        run(s, "BEGIN", &o);
        snprintf(sql, sizeof sql, "UPDATE t SET id = -id WHERE id = %d", k); run(s, sql, &o);
        run(s, "SAVEPOINT a", &o);
        snprintf(sql, sizeof sql, "DELETE FROM t WHERE id BETWEEN %d AND %d", k + 300, k + 340); run(s, sql, &o);
        snprintf(sql, sizeof sql, "INSERT INTO t VALUES (%d, -1)", 100000 + k); run(s, sql, &o);
        run(s, "ROLLBACK TO a", &o);
        snprintf(sql, sizeof sql, "DELETE FROM t WHERE id = %d", k + 500); run(s, sql, &o);
        if (rounds % 8 == 7) run(s, "UPDATE t SET id = id + 1000000", &o);
        run(s, "ROLLBACK", &o);
        if (rounds % 4 == 0) { snprintf(sql, sizeof sql, "UPDATE t SET v = v WHERE id = %d", k); run(s, sql, &o); }
        __atomic_add_fetch(&rounds, 1, __ATOMIC_RELAXED);
    }
    attu_session_free(s); return NULL;
}

static void *reader(void *p) {
    int id = (int)(long)p; attu_session *s = attu_session_new(db); char sql[96], want[32]; res o;
    for (int i = 0; i < 200 || __atomic_load_n(&rounds, __ATOMIC_RELAXED) < 8; i++) {
        int k = 1 + (i * 7 + id * 13) % ROWS;
        snprintf(sql, sizeof sql, "SELECT id, v FROM t WHERE id = %d", k);
        snprintf(want, sizeof want, "%d|%d\n", k, k);
        if (strcmp(run(s, sql, &o), want)) __atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
        snprintf(sql, sizeof sql, "SELECT count(*) FROM t WHERE id = %d", -(1 + i % 200));
        if (strcmp(run(s, sql, &o), "0\n")) __atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
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
    char sql[128];
    snprintf(sql, sizeof sql, "INSERT INTO t SELECT g, g FROM generate_series(1, %d) g", ROWS);
    run(m, sql, &o);
    pthread_t w, r[3];
    pthread_create(&w, NULL, writer, NULL);
    for (long i = 0; i < 3; i++) pthread_create(&r[i], NULL, reader, (void *)i);
    for (int i = 0; i < 3; i++) pthread_join(r[i], NULL);
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED); pthread_join(w, NULL);
    printf("rounds %d wrong %d count %s", rounds, wrong, run(m, "SELECT count(*) FROM t", &o));
    attu_session_free(m); attu_db_close(db);
    return wrong != 0;
}
