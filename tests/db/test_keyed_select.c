/* test_keyed_select.c - SELECT by key through the key set
 * (db/db_keyed_select.c, db/db_key_lookup.c) beside other sessions: a
 * REPEATABLE READ snapshot reads its own version's rows by key however
 * the table changes after it (the set moves on with the committed
 * version, the snapshot's version is left without one and scans), and
 * queries by key stay right while another session's keyed UPDATE /
 * DELETE, INSERT and rolled-back blocks attach and detach the sets they
 * read (run under ASan: no read of a set a writer freed or moved). The
 * answers of one session, against PostgreSQL's, are
 * tests/sql/keyed_point_select_pg.test's. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"
#include "db/db_internal.h"   /* (white box: which version carries a key set) */
#include "engine/key_set.h"

static attu_db *db;

static void setup(void) { db = tdb_open(); }
static void teardown(void) { attu_db_close(db); }

TestSuite(keyed_select, .init = setup, .fini = teardown);

/* Whether the version of table name that session s reads carries a key
 * set (the keyed path reads it; none: the query scans). */
static bool carries_set(attu_session *s, const char *name) {
    const attu_table *t = attu_catalog_lookup(db_cat(s), name);
    return t && t->key_index && t->key_index->n > 0;
}

static void expect_rows(attu_session *s, const char *sql, const char *want) {
    char *got = tdb_rows_ok(s, sql);
    cr_expect_str_eq(got, want, "%s", sql);
    free(got);
}

Test(keyed_select, snapshot_reads_its_version) {
    attu_session *a = attu_session_new(db), *b = attu_session_new(db);
    tdb_exec_ok(b, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
    tdb_exec_ok(b, "INSERT INTO t SELECT g, g * 10 FROM generate_series(1, 1000) g");
    cr_assert(carries_set(b, "t"), "INSERT's check builds the key set");
    tdb_exec_ok(a, "BEGIN ISOLATION LEVEL REPEATABLE READ");
    expect_rows(a, "SELECT v FROM t WHERE id = 500", "5000\n");
    cr_assert(carries_set(a, "t"), "the snapshot's version is the committed one, with its set");
    /* b changes t: the set moves on to the new version */
    tdb_exec_ok(b, "UPDATE t SET v = -1 WHERE id = 500");
    tdb_exec_ok(b, "DELETE FROM t WHERE id = 10");
    tdb_exec_ok(b, "INSERT INTO t VALUES (1001, 1)");
    cr_assert(carries_set(b, "t"));
    cr_assert(!carries_set(a, "t"), "the snapshot's version is left without a set");
    expect_rows(a, "SELECT v FROM t WHERE id = 500", "5000\n");
    expect_rows(a, "SELECT v FROM t WHERE id = 10", "100\n");
    expect_rows(a, "SELECT v FROM t WHERE id = 11", "110\n");
    expect_rows(a, "SELECT count(*) FROM t WHERE id = 1001", "0\n");
    tdb_exec_ok(a, "COMMIT");
    expect_rows(a, "SELECT v FROM t WHERE id = 500", "-1\n");
    expect_rows(a, "SELECT count(*) FROM t WHERE id = 10", "0\n");
    expect_rows(a, "SELECT v FROM t WHERE id = 11", "110\n");
    expect_rows(a, "SELECT v FROM t WHERE id = 1001", "1\n");
    /* a block's own changes: its working version carries the set, and the
     * committed one others read is left without until it commits */
    tdb_exec_ok(a, "BEGIN");
    tdb_exec_ok(a, "UPDATE t SET v = -2 WHERE id = 600");
    cr_assert(carries_set(a, "t"));
    cr_assert(!carries_set(b, "t"));
    expect_rows(a, "SELECT v FROM t WHERE id = 600", "-2\n");
    expect_rows(b, "SELECT v FROM t WHERE id = 600", "6000\n");
    tdb_exec_ok(a, "COMMIT");
    cr_assert(carries_set(b, "t"));
    expect_rows(b, "SELECT v FROM t WHERE id = 600", "-2\n");
    attu_session_free(a);
    attu_session_free(b);
}

typedef struct writer_arg { volatile int *stop; int rounds; } writer_arg;

/* Keyed UPDATE / DELETE, INSERT and blocks committed and rolled back on
 * t, whose rows 1..200 always exist with v = id (mod changes undone). */
static void *writer(void *p) {
    writer_arg *w = p;
    attu_session *s = attu_session_new(db);
    char sql[160];
    while (!*w->stop) {
        int k = 1 + w->rounds % 200, n = 100000 + w->rounds;
        snprintf(sql, sizeof sql, "UPDATE t SET v = v + 1000 WHERE id = %d", k);
        tdb_exec_ok(s, sql);
        snprintf(sql, sizeof sql, "UPDATE t SET v = v - 1000 WHERE id = %d", k);
        tdb_exec_ok(s, sql);
        snprintf(sql, sizeof sql, "INSERT INTO t VALUES (%d, %d)", n, n);
        tdb_exec_ok(s, sql);
        snprintf(sql, sizeof sql, "DELETE FROM t WHERE id = %d", n);
        tdb_exec_ok(s, sql);
        tdb_exec_ok(s, "BEGIN");
        snprintf(sql, sizeof sql, "DELETE FROM t WHERE id = %d", k);
        tdb_exec_ok(s, sql);
        tdb_exec_ok(s, w->rounds % 3 ? "ROLLBACK" : "COMMIT");
        if (w->rounds % 3 == 0) {   /* (the row back, as it was) */
            snprintf(sql, sizeof sql, "INSERT INTO t VALUES (%d, %d)", k, k);
            tdb_exec_ok(s, sql);
        }
        w->rounds++;
    }
    attu_session_free(s);
    return NULL;
}

Test(keyed_select, beside_writers) {
    attu_session *r = attu_session_new(db);
    tdb_exec_ok(r, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
    tdb_exec_ok(r, "INSERT INTO t SELECT g, g FROM generate_series(1, 20000) g");
    volatile int stop = 0;
    writer_arg w = { &stop, 0 };
    pthread_t th;
    pthread_create(&th, NULL, writer, &w);
    int wrong = 0;
    char sql[96], want[32];
    for (int i = 0; i < 3000 && !wrong; i++) {
        /* a row no writer touches: always there, as it was */
        int k = 300 + i % 15000;
        snprintf(sql, sizeof sql, "SELECT id, v FROM t WHERE id = %d", k);
        snprintf(want, sizeof want, "%d|%d\n", k, k);
        char *got = tdb_rows_ok(r, sql);
        if (strcmp(got, want)) { wrong++; cr_expect_str_eq(got, want, "%s", sql); }
        free(got);
        /* a row the writer changes: at most one, of its key */
        k = 1 + i % 200;
        snprintf(sql, sizeof sql, "SELECT count(*), coalesce(max(id), %d) FROM t WHERE id = %d", k, k);
        got = tdb_rows_ok(r, sql);
        snprintf(want, sizeof want, "|%d\n", k);
        if (!strstr(got, want) || (got[0] != '0' && got[0] != '1') || got[1] != '|') {
            wrong++;
            cr_expect(0, "%s: %s", sql, got);
        }
        free(got);
    }
    stop = 1;
    pthread_join(th, NULL);
    cr_assert_eq(wrong, 0);
    cr_assert_gt(w.rounds, 0);
    expect_rows(r, "SELECT count(*) FROM t WHERE id <= 200", "200\n");
    expect_rows(r, "SELECT count(*) FROM t", "20000\n");
    attu_session_free(r);
}
