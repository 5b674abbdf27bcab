/*
 * test_sequences.c - sequences through db/database.h (db/db_sequence.c):
 * persistence across a close and reopen of the data directory (the
 * numbers go on, never repeat; serial and identity columns keep their
 * sequences; DROP TABLE's are gone for good), currval being the
 * session's own, and statements that are only prepared, described or
 * EXPLAINed drawing no number. tests/sql/sequences_pg.test and
 * insert_default_pg.test have the PostgreSQL-checked results.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"

static void expect_error(attu_session *s, const char *sql, const char *sqlstate) {
    tres r;
    tdb_exec(s, sql, &r);
    cr_assert(r.err.set, "%s succeeded", sql);
    cr_assert_str_eq(r.err.sqlstate, sqlstate, "%s: %s", sql, r.err.message);
    tres_free(&r);
}

Test(sequences, survive_close_and_reopen) {
    char dir[] = "/tmp/attu-seq-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *d = tdb_open_dir(dir);
    attu_session *s = attu_session_new(d);
    tdb_exec_ok(s, "CREATE SEQUENCE s START 5 INCREMENT 2");
    tdb_exec_ok(s, "CREATE SEQUENCE \"Odd\tName\" AS smallint MAXVALUE 3 CYCLE");
    cr_assert_str_eq(tdb_rows(s, "SELECT nextval('s'), nextval('s')"), "5|7\n");
    cr_assert_str_eq(tdb_rows(s, "VALUES (nextval('\"Odd\tName\"')), (nextval('\"Odd\tName\"'))"), "1\n2\n");
    tdb_exec_ok(s, "CREATE TABLE t (id SERIAL, g BIGINT GENERATED ALWAYS AS IDENTITY (START 100), v TEXT)");
    tdb_exec_ok(s, "INSERT INTO t (v) VALUES ('a'), ('b')");
    tdb_exec_ok(s, "CREATE TABLE gone (id SERIAL)");
    tdb_exec_ok(s, "INSERT INTO gone DEFAULT VALUES");
    tdb_exec_ok(s, "DROP TABLE gone");
    attu_session_free(s);
    attu_db_close(d);

    d = tdb_open_dir(dir);
    s = attu_session_new(d);
    /* currval is the session's: a new session has none */
    expect_error(s, "SELECT currval('s')", "55000");
    cr_assert_str_eq(tdb_rows(s, "SELECT nextval('s')"), "9\n");
    cr_assert_str_eq(tdb_rows(s, "VALUES (nextval('\"Odd\tName\"')), (nextval('\"Odd\tName\"'))"), "3\n1\n");
    tdb_exec_ok(s, "INSERT INTO t (v) VALUES ('c')");
    cr_assert_str_eq(tdb_rows(s, "SELECT * FROM t ORDER BY id"), "1|100|a\n2|101|b\n3|102|c\n");
    expect_error(s, "INSERT INTO t VALUES (9, 9, 'x')", "428C9");
    expect_error(s, "SELECT nextval('gone_id_seq')", "42P01");
    /* a new table may take the dropped one's names */
    tdb_exec_ok(s, "CREATE TABLE gone (id SERIAL)");
    tdb_exec_ok(s, "INSERT INTO gone DEFAULT VALUES");
    cr_assert_str_eq(tdb_rows(s, "SELECT id FROM gone"), "1\n");
    attu_session_free(s);
    attu_db_close(d);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

Test(sequences, sessions_and_statements_that_do_not_run) {
    attu_db *d;
    attu_session *a = tdb_open_session(&d);
    attu_session *b = attu_session_new(d);
    tdb_exec_ok(a, "CREATE SEQUENCE s");
    cr_assert_str_eq(tdb_rows(a, "SELECT nextval('s')"), "1\n");
    cr_assert_str_eq(tdb_rows(b, "SELECT nextval('s')"), "2\n");
    cr_assert_str_eq(tdb_rows(a, "SELECT currval('s'), lastval()"), "1|1\n");
    cr_assert_str_eq(tdb_rows(b, "SELECT currval('s')"), "2\n");
    /* EXPLAIN, PREPARE and a prepared statement's description draw nothing */
    tdb_exec_ok(a, "EXPLAIN SELECT nextval('s')");
    tdb_exec_ok(a, "PREPARE p AS SELECT nextval('s')");
    attu_error err;
    attu_error_clear(&err);
    attu_prepared *p = attu_prepare(a, "SELECT nextval('s'), $1 + 1", 0, NULL, &err);
    cr_assert_not_null(p, "%s", err.message);
    attu_prepared_free(p);
    cr_assert_str_eq(tdb_rows(a, "EXECUTE p"), "3\n");
    /* EXPLAIN ANALYZE runs the query, so it draws one */
    tdb_exec_ok(a, "EXPLAIN ANALYZE SELECT nextval('s')");
    cr_assert_str_eq(tdb_rows(a, "SELECT currval('s')"), "4\n");
    attu_session_free(b);
    attu_session_free(a);
    attu_db_close(d);
}

/* Sessions drawing from one sequence at once (and through a serial
 * column) never get the same number, and together get every number. */
#define DRAWERS 4
#define DRAWS 300
static attu_db *shared_db;
static int64_t drawn[DRAWERS][DRAWS];
static int failures[DRAWERS];

/* (no Criterion assertion off the main thread: failures are counted) */
static void *drawer(void *arg) {
    int id = (int)(intptr_t)arg;
    attu_session *s = attu_session_new(shared_db);
    tres r;
    for (int i = 0; i < DRAWS; i++) {
        tdb_exec(s, i % 2 ? "SELECT nextval('c')" : "VALUES (nextval('c'))", &r);
        if (r.err.set || !r.text) failures[id]++;
        else drawn[id][i] = atoll(r.text);
        tres_free(&r);
    }
    for (int i = 0; i < 20; i++) {
        tdb_exec(s, "INSERT INTO serial_t (v) VALUES (1), (2)", &r);
        failures[id] += r.err.set != 0;
        tres_free(&r);
    }
    attu_session_free(s);
    return NULL;
}

Test(sequences, concurrent_sessions) {
    attu_session *s = tdb_open_session(&shared_db);
    tdb_exec_ok(s, "CREATE SEQUENCE c");
    tdb_exec_ok(s, "CREATE TABLE serial_t (id BIGSERIAL, v INTEGER)");
    pthread_t th[DRAWERS];
    for (int i = 0; i < DRAWERS; i++) pthread_create(&th[i], NULL, drawer, (void *)(intptr_t)i);
    for (int i = 0; i < DRAWERS; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < DRAWERS; i++) cr_assert_eq(failures[i], 0, "session %d failed %d statements", i, failures[i]);
    static bool seen[DRAWERS * DRAWS + 1];
    for (int i = 0; i < DRAWERS; i++)
        for (int k = 0; k < DRAWS; k++) {
            int64_t v = drawn[i][k];
            cr_assert(v >= 1 && v <= DRAWERS * DRAWS, "value %lld", (long long)v);
            cr_assert(!seen[v], "value %lld drawn twice", (long long)v);
            seen[v] = true;
            if (k) cr_assert_gt(v, drawn[i][k - 1], "a session's numbers increase");
        }
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*), count(DISTINCT id), min(id), max(id) FROM serial_t"), "160|160|1|160\n");
    attu_session_free(s);
    attu_db_close(shared_db);
}
