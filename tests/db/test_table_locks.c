/* test_table_locks.c - the table write locks (db/db_lock.c, db_txn.c):
 * blocks writing different tables run side by side and both commit, in
 * memory and in a reopened data directory; a writer of the same table
 * waits; two blocks waiting for each other: one fails with 40P01, its
 * block aborted; lock_timeout 55P03; DDL waits for every writer, and a
 * new writer waits behind waiting DDL; and a
 * stress of threads writing tables with random COMMITs and ROLLBACKs whose
 * final sums are the committed changes' (run under ASan / TSan too). */
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

TestSuite(table_locks, .init = setup, .fini = teardown);

/* One statement on a session of its own thread: its outcome in r once
 * done is set. */
typedef struct stmt_arg {
    attu_session *s;
    const char   *sql;
    tres          r;
    volatile int  done;
} stmt_arg;

static void *run_stmt(void *p) {
    stmt_arg *a = p;
    memset(&a->r, 0, sizeof a->r);
    tdb_exec(a->s, a->sql, &a->r);
    __atomic_store_n(&a->done, 1, __ATOMIC_SEQ_CST);
    return NULL;
}

static void start(pthread_t *th, stmt_arg *a, attu_session *s, const char *sql) {
    a->s = s;
    a->sql = sql;
    a->done = 0;
    pthread_create(th, NULL, run_stmt, a);
}

static void fill(attu_session *s) {
    tdb_exec_ok(s, "CREATE TABLE t1 (id INTEGER PRIMARY KEY, v INTEGER)");
    tdb_exec_ok(s, "CREATE TABLE t2 (id INTEGER PRIMARY KEY, v INTEGER)");
    tdb_exec_ok(s, "INSERT INTO t1 VALUES (1, 10)");
    tdb_exec_ok(s, "INSERT INTO t2 VALUES (1, 20)");
}

/* Two blocks writing different tables: neither waits (the second's
 * statements would time out if it did), both commit, both kept on disk. */
Test(table_locks, different_tables_both_commit) {
    char dir[] = "/tmp/attu_locks_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *d = tdb_open_dir(dir);
    attu_session *a = attu_session_new(d), *b = attu_session_new(d);
    fill(a);
    tdb_exec_ok(b, "SET statement_timeout = 3000");
    tdb_exec_ok(a, "BEGIN");
    tdb_exec_ok(a, "UPDATE t1 SET v = v + 1");
    tdb_exec_ok(b, "BEGIN");
    tdb_exec_ok(b, "UPDATE t2 SET v = v + 2");
    tdb_exec_ok(b, "INSERT INTO t2 VALUES (2, 5)");
    tdb_exec_ok(a, "INSERT INTO t1 VALUES (2, 7)");
    tdb_exec_ok(b, "COMMIT");
    /* (A's READ COMMITTED statement sees B's commit under its own change) */
    cr_assert_str_eq(tdb_rows(a, "SELECT (SELECT sum(v) FROM t1), (SELECT sum(v) FROM t2)"), "18|27\n");
    tdb_exec_ok(a, "COMMIT");
    cr_assert_str_eq(tdb_rows(b, "SELECT (SELECT sum(v) FROM t1), (SELECT sum(v) FROM t2)"), "18|27\n");
    attu_session_free(a);
    attu_session_free(b);
    attu_db_close(d);
    d = tdb_open_dir(dir);
    a = attu_session_new(d);
    cr_assert_str_eq(tdb_rows(a, "SELECT (SELECT sum(v) FROM t1), (SELECT sum(v) FROM t2)"), "18|27\n");
    attu_session_free(a);
    attu_db_close(d);
    tdb_remove_dir(dir);
}

Test(table_locks, same_table_waits) {
    attu_session *a = attu_session_new(db), *b = attu_session_new(db), *r = attu_session_new(db);
    fill(a);
    tdb_exec_ok(a, "BEGIN");
    tdb_exec_ok(a, "UPDATE t1 SET v = v + 1");
    pthread_t th;
    stmt_arg sa;
    start(&th, &sa, b, "UPDATE t1 SET v = v * 10");
    usleep(300 * 1000);
    cr_assert_eq(sa.done, 0, "the second writer of t1 did not wait");
    /* a reader does not wait */
    cr_assert_str_eq(tdb_rows(r, "SELECT v FROM t1"), "10\n");
    tdb_exec_ok(a, "COMMIT");
    pthread_join(th, NULL);
    cr_assert_not(sa.r.err.set, "%s", sa.r.err.message);
    tres_free(&sa.r);
    cr_assert_str_eq(tdb_rows(r, "SELECT v FROM t1"), "110\n");
    attu_session_free(a);
    attu_session_free(b);
    attu_session_free(r);
}

Test(table_locks, deadlock_fails_one) {
    attu_session *a = attu_session_new(db), *b = attu_session_new(db);
    fill(a);
    tdb_exec_ok(a, "BEGIN");
    tdb_exec_ok(b, "BEGIN");
    tdb_exec_ok(a, "UPDATE t1 SET v = 0");
    tdb_exec_ok(b, "UPDATE t2 SET v = 0");
    pthread_t ta, tb;
    stmt_arg sa, sb;
    start(&ta, &sa, a, "UPDATE t2 SET v = 1");
    usleep(100 * 1000);
    start(&tb, &sb, b, "UPDATE t1 SET v = 1");
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    cr_assert_neq(sa.r.err.set, sb.r.err.set, "exactly one fails: %s / %s", sa.r.err.message, sb.r.err.message);
    stmt_arg *lost = sa.r.err.set ? &sa : &sb;
    attu_session *loser = sa.r.err.set ? a : b, *winner = sa.r.err.set ? b : a;
    cr_assert_str_eq(lost->r.err.sqlstate, "40P01");
    cr_assert_str_eq(lost->r.err.message, "deadlock detected");
    cr_assert(!strncmp(lost->r.err.detail, "Process ", 8), "%s", lost->r.err.detail);
    tres_free(&sa.r);
    tres_free(&sb.r);
    tdb_expect_error(loser, "SELECT 1", "25P02",
                     "current transaction is aborted, commands ignored until end of transaction block", NULL, NULL);
    tdb_exec_ok(loser, "ROLLBACK");
    tdb_exec_ok(winner, "COMMIT");
    cr_assert_str_eq(tdb_rows(a, "SELECT (SELECT v FROM t1) + (SELECT v FROM t2)"), "1\n");
    attu_session_free(a);
    attu_session_free(b);
}

Test(table_locks, lock_timeout_and_ddl) {
    attu_session *a = attu_session_new(db), *b = attu_session_new(db);
    fill(a);
    tdb_exec_ok(a, "CREATE TABLE t4 (x INTEGER)");
    tdb_exec_ok(a, "BEGIN");
    tdb_exec_ok(a, "INSERT INTO t1 VALUES (2, 2)");
    tdb_exec_ok(b, "SET lock_timeout = '100ms'");
    tdb_expect_error(b, "DELETE FROM t1", "55P03", "canceling statement due to lock timeout", NULL, NULL);
    /* DDL of another table waits for every writer */
    tdb_expect_error(b, "CREATE TABLE t3 (x INTEGER)", "55P03", "canceling statement due to lock timeout", NULL, NULL);
    tdb_exec_ok(b, "RESET lock_timeout");
    pthread_t th;
    stmt_arg sa;
    start(&th, &sa, b, "ALTER TABLE t2 ADD COLUMN w INTEGER");
    usleep(200 * 1000);
    cr_assert_eq(sa.done, 0, "DDL did not wait for the writer");
    /* a new writer (of a third table) queues behind the waiting DDL */
    attu_session *c = attu_session_new(db);
    tdb_exec_ok(c, "SET lock_timeout = '100ms'");
    tdb_expect_error(c, "INSERT INTO t4 VALUES (1)", "55P03", "canceling statement due to lock timeout", NULL, NULL);
    tdb_exec_ok(a, "COMMIT");
    pthread_join(th, NULL);
    cr_assert_not(sa.r.err.set, "%s", sa.r.err.message);
    tres_free(&sa.r);
    cr_assert_str_eq(tdb_rows(a, "SELECT count(*), count(w) FROM t2"), "1|0\n");
    tdb_exec_ok(c, "INSERT INTO t4 VALUES (1)");   /* (the DDL done) */
    attu_session_free(c);
    attu_session_free(a);
    attu_session_free(b);
}

/* ---- the stress ---------------------------------------------------------------------------- */

#define NTHREADS 6
#define NTABLES  4
#define ROUNDS   80

static long committed[NTABLES];   /* the committed changes' sum, per table (atomic) */

typedef struct stress_arg { attu_db *d; unsigned seed; int errors; char first[600]; } stress_arg;

static void note(stress_arg *a, const tres *r) {
    if (!a->errors++) snprintf(a->first, sizeof a->first, "%s %s", r->err.sqlstate, r->err.message);
}

/* Blocks that change one or two tables (in name order: no deadlock) by
 * an UPDATE of the table's row 0 and an INSERT, a read of two tables
 * between, then COMMIT or ROLLBACK at random; an autocommit UPDATE now
 * and then. committed[] keeps what each table's sum(v) must come to. */
static void *stress(void *p) {
    stress_arg *a = p;
    attu_session *s = attu_session_new(a->d);
    for (int k = 0; k < ROUNDS; k++) {
        int t1 = (int)(rand_r(&a->seed) % NTABLES), t2 = (int)(rand_r(&a->seed) % NTABLES);
        if (t2 < t1) { int x = t1; t1 = t2; t2 = x; }
        int d1 = (int)(rand_r(&a->seed) % 9) + 1, d2 = (int)(rand_r(&a->seed) % 9) + 1;
        bool commit = rand_r(&a->seed) % 3 != 0, block = rand_r(&a->seed) % 5 != 0;
        char sql[256];
        tres r;
        if (!block) {
            snprintf(sql, sizeof sql, "UPDATE s%d SET v = v + %d WHERE id = 0", t1, d1);
            memset(&r, 0, sizeof r);
            if (tdb_exec(s, sql, &r) || r.err.set) note(a, &r);
            else __atomic_add_fetch(&committed[t1], d1, __ATOMIC_SEQ_CST);
            tres_free(&r);
            continue;
        }
        const char *steps[5];
        char up[128], ins[128];
        snprintf(up, sizeof up, "UPDATE s%d SET v = v + %d WHERE id = 0", t1, d1);
        snprintf(ins, sizeof ins, "INSERT INTO s%d VALUES (1, %d)", t2, d2);
        steps[0] = "BEGIN";
        steps[1] = up;
        steps[2] = "SELECT (SELECT sum(v) FROM s0) + (SELECT sum(v) FROM s3)";
        steps[3] = ins;
        steps[4] = commit ? "COMMIT" : "ROLLBACK";
        bool failed = false;
        for (int i = 0; i < 5; i++) {
            memset(&r, 0, sizeof r);
            if (tdb_exec(s, failed && i == 4 ? "ROLLBACK" : steps[i], &r) || r.err.set) {
                note(a, &r);
                failed = true;
            }
            tres_free(&r);
        }
        if (commit && !failed) {
            __atomic_add_fetch(&committed[t1], d1, __ATOMIC_SEQ_CST);
            __atomic_add_fetch(&committed[t2], d2, __ATOMIC_SEQ_CST);
        }
    }
    attu_session_free(s);
    return NULL;
}

static void check_sums(attu_db *d) {
    attu_session *s = attu_session_new(d);
    for (int i = 0; i < NTABLES; i++) {
        char sql[128], want[64];
        snprintf(sql, sizeof sql, "SELECT sum(v) FROM s%d", i);
        snprintf(want, sizeof want, "%ld\n", committed[i]);
        cr_assert_str_eq(tdb_rows(s, sql), want, "table s%d", i);
    }
    attu_session_free(s);
}

Test(table_locks, stress_random_commits, .timeout = 120) {
    char dir[] = "/tmp/attu_locks_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *d = tdb_open_dir(dir);
    attu_session *s = attu_session_new(d);
    char sql[128];
    for (int i = 0; i < NTABLES; i++) {
        snprintf(sql, sizeof sql, "CREATE TABLE s%d (id INTEGER, v INTEGER)", i);
        tdb_exec_ok(s, sql);
        snprintf(sql, sizeof sql, "INSERT INTO s%d VALUES (0, 0)", i);
        tdb_exec_ok(s, sql);
        committed[i] = 0;
    }
    attu_session_free(s);
    pthread_t th[NTHREADS];
    stress_arg sa[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        memset(&sa[i], 0, sizeof sa[i]);
        sa[i].d = d;
        sa[i].seed = 1234u + (unsigned)i * 77u;
        pthread_create(&th[i], NULL, stress, &sa[i]);
    }
    for (int i = 0; i < NTHREADS; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < NTHREADS; i++) cr_assert_eq(sa[i].errors, 0, "thread %d: %s", i, sa[i].first);
    check_sums(d);
    /* and in the data directory */
    attu_db_close(d);
    d = tdb_open_dir(dir);
    check_sums(d);
    attu_db_close(d);
    tdb_remove_dir(dir);
}
