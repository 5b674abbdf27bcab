/* test_transactions.c - transaction blocks under concurrency (db/db_txn.c):
 * readers see committed blocks whole or not at all while a writer commits
 * and rolls back blocks; versions shared between the committed catalog
 * and a block's are freed once (run under ASan); a data directory
 * reopened keeps the committed blocks only; prepared statements run to a
 * Sync as one implicit transaction. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db_test_util.h"

static attu_db *db;

static void setup(void) { db = tdb_open(); }
static void teardown(void) { attu_db_close(db); }

TestSuite(transactions, .init = setup, .fini = teardown);

typedef struct reader_arg { volatile int *stop; int bad; long reads; } reader_arg;

/* Counts t's rows over and over: every answer a multiple of 100 (a block
 * inserts 100 rows), never less than the one before. */
static void *reader(void *p) {
    reader_arg *a = p;
    attu_session *s = attu_session_new(db);
    long last = 0;
    while (!*a->stop) {
        tres r;
        memset(&r, 0, sizeof r);
        tdb_exec(s, "SELECT count(*) FROM t", &r);
        long n = r.text ? atol(r.text) : -1;
        if (r.err.set || n % 100 || n < last) a->bad++;
        last = n;
        a->reads++;
        tres_free(&r);
    }
    attu_session_free(s);
    return NULL;
}

Test(transactions, readers_see_whole_blocks) {
    attu_session *w = attu_session_new(db);
    tdb_exec_ok(w, "CREATE TABLE t (a INTEGER, b TEXT)");
    volatile int stop = 0;
    reader_arg ra[2] = { { &stop, 0, 0 }, { &stop, 0, 0 } };
    pthread_t th[2];
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, reader, &ra[i]);
    int commits = 0;
    for (int k = 0; k < 60; k++) {
        tdb_exec_ok(w, "BEGIN");
        tdb_exec_ok(w, "INSERT INTO t SELECT g, 'row ' || g FROM generate_series(1, 50) AS g");
        tdb_exec_ok(w, "INSERT INTO t SELECT g, 'more ' || g FROM generate_series(51, 100) AS g");
        if (k % 3 == 1) tdb_exec_ok(w, "UPDATE t SET b = 'changed' WHERE a = 7");
        if (k % 2) { tdb_exec_ok(w, "COMMIT"); commits++; }
        else tdb_exec_ok(w, "ROLLBACK");
    }
    stop = 1;
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < 2; i++) cr_assert_eq(ra[i].bad, 0, "reader %d saw a part of a block", i);
    char want[32];
    snprintf(want, sizeof want, "%d\n", commits * 100);
    cr_assert_str_eq(tdb_rows(w, "SELECT count(*) FROM t"), want);
    attu_session_free(w);
}

typedef struct writer_arg { int id; int done; } writer_arg;

/* Autocommit INSERTs from several sessions while a block stays open for a
 * while: each waits for the block, none is lost. */
static void *autocommit_writer(void *p) {
    writer_arg *a = p;
    attu_session *s = attu_session_new(db);
    char sql[96];
    for (int k = 0; k < 20; k++) {
        snprintf(sql, sizeof sql, "INSERT INTO u VALUES (%d, %d)", a->id, k);
        tres r;
        memset(&r, 0, sizeof r);
        if (tdb_exec(s, sql, &r) == 0) a->done++;
        tres_free(&r);
    }
    attu_session_free(s);
    return NULL;
}

Test(transactions, writers_wait_for_the_open_block) {
    attu_session *a = attu_session_new(db);
    tdb_exec_ok(a, "CREATE TABLE u (w INTEGER, k INTEGER)");
    tdb_exec_ok(a, "BEGIN");
    tdb_exec_ok(a, "INSERT INTO u VALUES (-1, -1)");
    writer_arg wa[3] = { { 1, 0 }, { 2, 0 }, { 3, 0 } };
    pthread_t th[3];
    for (int i = 0; i < 3; i++) pthread_create(&th[i], NULL, autocommit_writer, &wa[i]);
    usleep(100 * 1000);
    /* nothing of theirs yet: they wait for the block */
    attu_session *r = attu_session_new(db);
    cr_assert_str_eq(tdb_rows(r, "SELECT count(*) FROM u"), "0\n");
    tdb_exec_ok(a, "ROLLBACK");
    for (int i = 0; i < 3; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < 3; i++) cr_assert_eq(wa[i].done, 20);
    cr_assert_str_eq(tdb_rows(r, "SELECT count(*), count(DISTINCT w) FROM u WHERE w > 0"), "60|3\n");
    cr_assert_str_eq(tdb_rows(r, "SELECT count(*) FROM u WHERE w < 0"), "0\n");
    attu_session_free(r);
    attu_session_free(a);
}

Test(transactions, cancel_ends_the_wait) {
    attu_session *a = attu_session_new(db), *b = attu_session_new(db);
    tdb_exec_ok(a, "CREATE TABLE v (x INTEGER)");
    tdb_exec_ok(a, "BEGIN");
    tdb_exec_ok(a, "INSERT INTO v VALUES (1)");
    tdb_exec_ok(b, "SET statement_timeout = 100");
    tres r;
    memset(&r, 0, sizeof r);
    tdb_exec(b, "INSERT INTO v VALUES (2)", &r);
    cr_assert_str_eq(r.err.sqlstate, "57014");
    cr_assert_str_eq(r.err.message, "canceling statement due to statement timeout");
    tres_free(&r);
    /* a session freed with its block open ends it: b writes again */
    attu_session_free(a);
    tdb_exec_ok(b, "INSERT INTO v VALUES (3)");
    cr_assert_str_eq(tdb_rows(b, "SELECT x FROM v"), "3\n");
    attu_session_free(b);
}

/* A block's CREATE, DROP and rows reach the data directory only with its
 * COMMIT. */
Test(transactions, reopen_keeps_committed_blocks_only) {
    char dir[] = "/tmp/attu_txn_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *d = tdb_open_dir(dir);
    attu_session *s = attu_session_new(d);
    tdb_exec_ok(s, "CREATE TABLE keep (a INTEGER)");
    tdb_exec_ok(s, "CREATE TABLE gone (a INTEGER)");
    tdb_exec_ok(s, "BEGIN; INSERT INTO keep VALUES (1); DROP TABLE gone; CREATE TABLE fresh (b TEXT); COMMIT");
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "INSERT INTO keep VALUES (2)");
    tdb_exec_ok(s, "CREATE TABLE never (c INTEGER)");
    tdb_exec_ok(s, "DROP TABLE fresh");
    /* closed with the block open (as a crash would leave it) */
    attu_session_free(s);
    attu_db_close(d);
    d = tdb_open_dir(dir);
    s = attu_session_new(d);
    cr_assert_str_eq(tdb_rows(s, "SELECT a FROM keep"), "1\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM fresh"), "0\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT * FROM gone"), "ERROR 42P01: relation \"gone\" does not exist");
    cr_assert_str_eq(tdb_rows(s, "SELECT * FROM never"), "ERROR 42P01: relation \"never\" does not exist");
    attu_session_free(s);
    attu_db_close(d);
    tdb_remove_dir(dir);
}

static int keep_result(void *ctx, attu_result *res) { (void)ctx; (void)res; return 0; }

Test(transactions, extended_protocol_commits_at_sync) {
    attu_session *a = attu_session_new(db), *b = attu_session_new(db);
    tdb_exec_ok(a, "CREATE TABLE x (v INTEGER)");
    attu_error err;
    attu_error_clear(&err);
    attu_prepared *p = attu_prepare(a, "INSERT INTO x VALUES ($1)", 0, NULL, &err);
    cr_assert_not_null(p, "%s", err.message);
    attu_exec_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.on_result = keep_result;
    const char *v1[] = { "1" }, *v2[] = { "2" };
    cr_assert_eq(attu_prepared_execute(a, p, 1, v1, &cb), 0);
    cr_assert_eq(attu_prepared_execute(a, p, 1, v2, &cb), 0);
    cr_assert_str_eq(tdb_rows(b, "SELECT count(*) FROM x"), "0\n");
    cr_assert_eq(attu_session_sync(a, &err), 0, "%s", err.message);
    cr_assert_str_eq(tdb_rows(b, "SELECT count(*) FROM x"), "2\n");
    /* a failure before the Sync undoes what ran since the last one */
    const char *v3[] = { "3" }, *bad[] = { "x" };
    cr_assert_eq(attu_prepared_execute(a, p, 1, v3, &cb), 0);
    cr_assert_neq(attu_prepared_execute(a, p, 1, bad, &cb), 0);
    cr_assert_eq(attu_session_sync(a, &err), 0);
    cr_assert_str_eq(tdb_rows(b, "SELECT count(*) FROM x"), "2\n");
    attu_prepared_free(p);
    attu_session_free(a);
    attu_session_free(b);
}
