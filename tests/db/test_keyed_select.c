/* test_keyed_select.c - SELECT by key through the key set
 * (db/db_keyed_select.c, db/db_key_lookup.c) beside other sessions: a
 * REPEATABLE READ snapshot reads its own version's rows by key however
 * the table changes after it (the set moves on with the committed
 * version, the snapshot's version is left without one and scans), and
 * queries by key stay right while another session's keyed UPDATE /
 * DELETE, INSERT and rolled-back blocks attach and detach the sets they
 * read (run under ASan: no read of a set a writer freed or moved). A
 * version without a set (loaded at start, restored by ROLLBACK, made by
 * TRUNCATE / ALTER TABLE) gets one from its first lookup by key, built
 * beside writers and other readers building too. (A ROLLBACK hands the
 * set back to the version it restores: test_keyed_rollback.c; one whose
 * changes were too many to undo leaves it without.) The answers of one
 * session, against PostgreSQL's, are tests/sql/keyed_point_select_pg.test's
 * and keyed_select_rebuilt_pg.test's. */
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
    cr_assert(carries_set(a, "t"), "the snapshot's lookup builds a set of its own version's keys");
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
    cr_assert(!carries_set(b, "t"), "no build while another session holds the table's write lock");
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

/* A table loaded at start carries no key set: the first lookup by key
 * builds it (the keyed path from then on), and the writers' checks read
 * the same set. */
Test(keyed_select, built_after_restart) {
    char dir[] = "/tmp/attu-keyed-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *d = tdb_open_dir(dir);
    attu_session *s = attu_session_new(d);
    tdb_exec_ok(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER, s TEXT)");
    tdb_exec_ok(s, "INSERT INTO t SELECT g, g * 10, 's' || g FROM generate_series(1, 5000) g");
    tdb_exec_ok(s, "CREATE TABLE u (a INTEGER, b TEXT, v INTEGER, UNIQUE (a, b))");
    tdb_exec_ok(s, "INSERT INTO u SELECT g % 100, 'b' || (g / 100), g FROM generate_series(0, 999) g");
    cr_assert(carries_set(s, "t"));
    attu_session_free(s);
    attu_db_close(d);

    d = tdb_open_dir(dir);
    s = attu_session_new(d);
    cr_assert(!carries_set(s, "t"), "a table loaded at start has no key set");
    cr_assert(!carries_set(s, "u"));
    expect_rows(s, "SELECT v, s FROM t WHERE id = 4321", "43210|s4321\n");
    cr_assert(carries_set(s, "t"), "the first lookup by key built the set");
    expect_rows(s, "SELECT v, s FROM t WHERE id = 1", "10|s1\n");
    expect_rows(s, "SELECT count(*) FROM t WHERE id = 5001", "0\n");
    /* (a keyed UPDATE builds it too) */
    expect_rows(s, "UPDATE u SET v = -v WHERE a = 42 AND b = 'b3' RETURNING v", "-342\n");
    cr_assert(carries_set(s, "u"));
    expect_rows(s, "SELECT v FROM u WHERE a = 42 AND b = 'b3'", "-342\n");
    tdb_expect_error(s, "INSERT INTO t VALUES (77, 0, 'dup')", "23505",
                     "duplicate key value violates unique constraint \"t_pkey\"", "Key (id)=(77) already exists.", NULL);
    tdb_exec_ok(s, "INSERT INTO t VALUES (5001, 1, 'new')");
    expect_rows(s, "SELECT v, s FROM t WHERE id = 5001", "1|new\n");
    cr_assert(carries_set(s, "t"), "the INSERT handed the set on");
    attu_session_free(s);
    attu_db_close(d);
    tdb_remove_dir(dir);
}

/* A ROLLBACK or ROLLBACK TO of more key changes than its set's undo log
 * keeps (about half the keys: engine/key_set_undo.h), TRUNCATE and ALTER
 * TABLE leave a version without a set; the next lookup by key builds
 * one, except while another session holds the table's write lock (its
 * COMMIT brings a set back) or with ATTU_KEY_SET_ON_READ=0. */
Test(keyed_select, built_after_rollback_truncate_alter) {
    attu_session *a = attu_session_new(db), *b = attu_session_new(db);
    tdb_exec_ok(a, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
    tdb_exec_ok(a, "INSERT INTO t SELECT g, g * 10 FROM generate_series(1, 10000) g");
    cr_assert(carries_set(a, "t"));
    tdb_exec_ok(a, "BEGIN");
    tdb_exec_ok(a, "UPDATE t SET v = 0 WHERE id = 5");
    tdb_exec_ok(a, "ROLLBACK");
    cr_assert(carries_set(a, "t"), "a few changes rolled back: the set came back");
    tdb_exec_ok(a, "BEGIN");
    tdb_exec_ok(a, "UPDATE t SET id = id + 100000");   /* (every key: too many to log) */
    tdb_exec_ok(a, "ROLLBACK");
    cr_assert(!carries_set(a, "t"), "the set went with the rolled-back version");
    expect_rows(b, "SELECT v FROM t WHERE id = 5", "50\n");
    cr_assert(carries_set(a, "t"));

    tdb_exec_ok(a, "BEGIN");
    tdb_exec_ok(a, "SAVEPOINT s1");
    tdb_exec_ok(a, "DELETE FROM t WHERE id = 6");
    tdb_exec_ok(a, "ROLLBACK TO s1");
    cr_assert(carries_set(a, "t"), "ROLLBACK TO brought the set back");
    tdb_exec_ok(a, "DELETE FROM t WHERE id > 5000");
    tdb_exec_ok(a, "ROLLBACK TO s1");
    cr_assert(!carries_set(a, "t"));
    expect_rows(a, "SELECT v FROM t WHERE id = 6", "60\n");
    cr_assert(carries_set(a, "t"), "a's own lookup builds on its version");
    tdb_exec_ok(a, "SAVEPOINT s2");
    tdb_exec_ok(a, "UPDATE t SET v = 61 WHERE id = 6");
    tdb_exec_ok(a, "ROLLBACK TO s2");
    tdb_exec_ok(a, "UPDATE t SET v = v WHERE id = 1");   /* (a keeps the write lock from here) */
    cr_assert(!carries_set(b, "t"));
    /* (b reads the committed version and scans) */
    expect_rows(b, "SELECT v FROM t WHERE id = 6", "60\n");
    cr_assert(!carries_set(b, "t"), "no build beside another session's write lock");
    tdb_exec_ok(a, "COMMIT");
    cr_assert(carries_set(b, "t"), "the COMMIT brought the set back");

    tdb_exec_ok(a, "TRUNCATE t");
    cr_assert(!carries_set(a, "t"));
    expect_rows(b, "SELECT count(*) FROM t WHERE id = 6", "0\n");
    cr_assert(carries_set(a, "t"));
    tdb_exec_ok(a, "INSERT INTO t SELECT g, g * 10 FROM generate_series(1, 100) g");

    tdb_exec_ok(a, "ALTER TABLE t ADD COLUMN w INTEGER DEFAULT 3");
    cr_assert(!carries_set(a, "t"));
    setenv("ATTU_KEY_SET_ON_READ", "0", 1);
    expect_rows(b, "SELECT v, w FROM t WHERE id = 7", "70|3\n");
    cr_assert(!carries_set(a, "t"), "ATTU_KEY_SET_ON_READ=0: the scan");
    unsetenv("ATTU_KEY_SET_ON_READ");
    expect_rows(b, "SELECT v, w FROM t WHERE id = 7", "70|3\n");
    cr_assert(carries_set(a, "t"));
    expect_rows(b, "DELETE FROM t WHERE id = 8 RETURNING v", "80\n");
    expect_rows(b, "SELECT count(*) FROM t WHERE id = 8", "0\n");
    expect_rows(b, "SELECT v FROM t WHERE id = 9", "90\n");
    attu_session_free(a);
    attu_session_free(b);
}

/* Blocks rolled back, one after another, on t: each hands the committed
 * version its set back (undone while off every version, attached under
 * the index's lock), and every 8th changes every key, too many to undo,
 * leaving that version without a set, which the readers' next lookups
 * rebuild, two at once, beside the writer's next block (run under ASan /
 * TSan: the build reads rows no one changes, attaches under the index's
 * lock, and the writer's checks, follow-ups and restores meet the
 * readers' sets there). */
typedef struct reader_arg { int id, wrong, done; } reader_arg;

static void *rolling_writer(void *p) {
    writer_arg *w = p;
    attu_session *s = attu_session_new(db);
    char sql[160];
    while (!*w->stop) {
        int k = 1 + w->rounds % 200;
        tdb_exec_ok(s, "BEGIN");
        snprintf(sql, sizeof sql, "DELETE FROM t WHERE id = %d", k);
        tdb_exec_ok(s, sql);
        snprintf(sql, sizeof sql, "INSERT INTO t VALUES (%d, -1)", 100000 + k);
        tdb_exec_ok(s, sql);
        if (w->rounds % 8 == 7) tdb_exec_ok(s, "UPDATE t SET id = -id");
        tdb_exec_ok(s, "ROLLBACK");
        if (w->rounds % 4 == 0) {   /* (a committed change: the set moves on) */
            snprintf(sql, sizeof sql, "UPDATE t SET v = v WHERE id = %d", k);
            tdb_exec_ok(s, sql);
        }
        w->rounds++;
    }
    attu_session_free(s);
    return NULL;
}

static void *reader(void *p) {
    reader_arg *r = p;
    attu_session *s = attu_session_new(db);
    char sql[96], want[32];
    for (int i = 0; i < 600; i++) {
        int k = 1 + (i * 7 + r->id * 13) % 20000;
        snprintf(sql, sizeof sql, "SELECT id, v FROM t WHERE id = %d", k);
        snprintf(want, sizeof want, "%d|%d\n", k, k);
        char *got = tdb_rows_ok(s, sql);
        if (strcmp(got, want)) r->wrong++;
        free(got);
        snprintf(sql, sizeof sql, "SELECT count(*) FROM t WHERE id = %d", 100000 + 1 + i % 200);
        got = tdb_rows_ok(s, sql);
        if (strcmp(got, "0\n")) r->wrong++;
        free(got);
    }
    r->done = 1;
    attu_session_free(s);
    return NULL;
}

Test(keyed_select, readers_build_beside_writer) {
    attu_session *m = attu_session_new(db);
    tdb_exec_ok(m, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
    tdb_exec_ok(m, "INSERT INTO t SELECT g, g FROM generate_series(1, 20000) g");
    volatile int stop = 0;
    writer_arg w = { &stop, 0 };
    reader_arg rs[2] = { { 0, 0, 0 }, { 1, 0, 0 } };
    pthread_t wt, rt[2];
    pthread_create(&wt, NULL, rolling_writer, &w);
    for (int i = 0; i < 2; i++) pthread_create(&rt[i], NULL, reader, &rs[i]);
    for (int i = 0; i < 2; i++) pthread_join(rt[i], NULL);
    stop = 1;
    pthread_join(wt, NULL);
    cr_assert_eq(rs[0].wrong + rs[1].wrong, 0);
    cr_assert_gt(w.rounds, 0);
    expect_rows(m, "SELECT v FROM t WHERE id = 150", "150\n");
    cr_assert(carries_set(m, "t"));
    expect_rows(m, "SELECT count(*) FROM t", "20000\n");
    attu_session_free(m);
}

/* A large version (65536 rows or more) without a set (here: a ROLLBACK
 * of a change to every key, too many for the set's undo log): its first
 * 16 lookups by key scan and the 17th builds the set (db_unique.c: the
 * build costs some 10-20 scans, so a version read by key but a few
 * times keeps scanning). */
Test(keyed_select, large_version_builds_after_scans) {
    attu_session *s = attu_session_new(db);
    tdb_exec_ok(s, "CREATE TABLE big (id INTEGER PRIMARY KEY, v INTEGER)");
    tdb_exec_ok(s, "INSERT INTO big SELECT g, g FROM generate_series(1, 70000) g");
    cr_assert(carries_set(s, "big"));
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "DELETE FROM big WHERE id = 3");
    tdb_exec_ok(s, "ROLLBACK");
    cr_assert(carries_set(s, "big"), "one key rolled back: the set came back");
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "UPDATE big SET id = -id");
    tdb_exec_ok(s, "ROLLBACK");
    char sql[64], want[32];
    for (int i = 1; i <= 16; i++) {
        cr_assert(!carries_set(s, "big"), "lookup %d scans", i);
        snprintf(sql, sizeof sql, "SELECT v FROM big WHERE id = %d", i * 1000);
        snprintf(want, sizeof want, "%d\n", i * 1000);
        expect_rows(s, sql, want);
    }
    cr_assert(!carries_set(s, "big"));
    expect_rows(s, "SELECT v FROM big WHERE id = 3", "3\n");
    cr_assert(carries_set(s, "big"), "the 17th lookup built the set");
    expect_rows(s, "SELECT count(*) FROM big WHERE id = 70001", "0\n");
    tdb_expect_error(s, "INSERT INTO big VALUES (3, 0)", "23505",
                     "duplicate key value violates unique constraint \"big_pkey\"", "Key (id)=(3) already exists.", NULL);
    attu_session_free(s);
}
