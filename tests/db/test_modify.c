/*
 * test_modify.c - DELETE, UPDATE and TRUNCATE through db/database.h
 * (db/db_modify.c, db/db_truncate.c): command tags, RETURNING's columns,
 * all or nothing, inside transaction blocks, persistence across a close
 * and reopen of the data directory, statistics kept on columns
 * (key_stats, range) not outliving a change, prepared statements, and
 * readers in other sessions running beside a writer.
 * tests/sql/update_delete_pg.test has the PostgreSQL-checked results.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"

static attu_db *db;
static attu_session *s;

static void setup(void) {
    s = tdb_open_session(&db);
    tdb_exec_ok(s, "CREATE TABLE t (id INTEGER NOT NULL, g TEXT, v DOUBLE PRECISION)");
    tdb_exec_ok(s, "INSERT INTO t VALUES (1, 'a', 1.5), (2, 'b', NULL), (3, 'a', 2.5), (4, NULL, 4.0), (5, 'b', 0.5)");
}
static void teardown(void) { attu_session_free(s); attu_db_close(db); }

TestSuite(modify, .init = setup, .fini = teardown);

static void expect_tag(const char *sql, const char *tag) {
    tres r;
    tdb_exec(s, sql, &r);
    cr_assert(!r.err.set, "%s: %s", sql, r.err.message);
    cr_assert_eq(r.nresults, 1);
    cr_assert_str_eq(r.tag[0], tag, "%s", sql);
    tres_free(&r);
}

static void expect_error(const char *sql, const char *sqlstate) {
    tres r;
    tdb_exec(s, sql, &r);
    cr_assert(r.err.set, "%s succeeded", sql);
    cr_assert_str_eq(r.err.sqlstate, sqlstate, "%s: %s", sql, r.err.message);
    tres_free(&r);
}

/* Runs sql, which returns rows; checks its tag, column names and rows. */
static void expect_rows(const char *sql, const char *tag, const char *colnames, const char *text) {
    tres r;
    tdb_exec(s, sql, &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_assert_str_eq(r.tag[0], tag);
    cr_assert_str_eq(r.colnames, colnames);
    cr_assert_str_eq(r.text, text);
    tres_free(&r);
}

/* Prepares sql without parameter types; fails the test if that fails. */
static attu_prepared *prepare_ok(const char *sql) {
    attu_error err;
    attu_error_clear(&err);
    attu_prepared *p = attu_prepare(s, sql, 0, NULL, &err);
    cr_assert_not_null(p, "%s", err.message);
    return p;
}

Test(modify, command_tags) {
    expect_tag("DELETE FROM t WHERE id = 2", "DELETE 1");
    expect_tag("DELETE FROM t WHERE id = 2", "DELETE 0");
    expect_tag("UPDATE t SET v = v * 2 WHERE g = 'a'", "UPDATE 2");
    expect_tag("UPDATE t SET v = 0", "UPDATE 4");
    expect_tag("UPDATE t SET v = 1 WHERE false", "UPDATE 0");
    expect_tag("TRUNCATE t", "TRUNCATE TABLE");
    expect_tag("TRUNCATE TABLE t, t", "TRUNCATE TABLE");
    expect_tag("DELETE FROM t", "DELETE 0");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM t"), "0\n");
}

Test(modify, returning_rows_names_and_tag) {
    expect_rows("UPDATE t SET v = v + 1, g = upper(g) WHERE id IN (1, 3) RETURNING id, g, v AS nv, v * 0 + id",
                "UPDATE 2", "id|g|nv|?column?", "1|A|2.5|1\n3|A|3.5|3\n");
    expect_rows("DELETE FROM t WHERE v IS NULL OR v > 3 RETURNING *", "DELETE 3",
                "id|g|v", "2|b|NULL\n3|A|3.5\n4|NULL|4\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT id, g, v FROM t ORDER BY id"), "1|A|2.5\n5|b|0.5\n");
}

Test(modify, explain) {
    const char *plan0 = tdb_rows(s, "EXPLAIN DELETE FROM t WHERE id > 3");
    cr_assert(!strncmp(plan0, "Delete on t\nProject", 19), "%s", plan0);
    cr_assert_not_null(strstr(plan0, "Filter  [eval + compact + gather]"), "%s", plan0);
    cr_assert_not_null(strstr(plan0, "Scan t  [resident columns]  (rows=5)"), "%s", plan0);
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM t"), "5\n");
    /* ANALYZE runs the statement, as EXPLAIN ANALYZE INSERT does */
    char *plan = tdb_rows_ok(s, "EXPLAIN ANALYZE UPDATE t SET v = -v WHERE id <= 2");
    const char *head = "UPDATE 2 (the statement ran)\nUpdate on t\n";
    cr_assert(!strncmp(plan, head, strlen(head)), "%s", plan);
    cr_assert_not_null(strstr(plan, "Execution Time: "));
    free(plan);
    cr_assert_str_eq(tdb_rows(s, "SELECT v FROM t WHERE id <= 2 ORDER BY id"), "-1.5\nNULL\n");
    expect_error("EXPLAIN UPDATE t SET nope = 1", "42703");
}

Test(modify, insert_returning) {
    expect_rows("INSERT INTO t (id, g) VALUES (6, 'c'), (7, NULL) RETURNING id, g, v", "INSERT 0 2",
                "id|g|v", "6|c|NULL\n7|NULL|NULL\n");
    expect_error("INSERT INTO t VALUES (8, 'x', 0) RETURNING 1 / v", "22012");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM t"), "7\n");
    attu_prepared *p = prepare_ok("INSERT INTO t VALUES ($1, $2, $3) RETURNING id + 1 AS next");
    const attu_result_column *cols;
    cr_assert_eq(attu_prepared_describe(p, &cols), 1);
    cr_assert_str_eq(cols[0].name, "next");
    attu_prepared_free(p);
}

Test(modify, failures_change_nothing) {
    const char *before = "1|a|1.5\n2|b|NULL\n3|a|2.5\n4|NULL|4\n5|b|0.5\n";
    expect_error("UPDATE t SET id = 10 / (id - 5)", "22012");
    expect_error("UPDATE t SET id = NULL WHERE id = 4", "23502");
    expect_error("UPDATE t SET id = 3000000000 WHERE id = 5", "22003");
    expect_error("UPDATE t SET id = 'x'", "22P02");
    expect_error("UPDATE t SET id = true", "42804");
    expect_error("UPDATE t SET nope = 1", "42703");
    expect_error("UPDATE nope SET id = 1", "42P01");
    expect_error("DELETE FROM t WHERE 1 / (id - 3) > 0", "22012");
    expect_error("DELETE FROM t USING t WHERE true", "42712");
    expect_error("UPDATE t SET (id, g) = (SELECT * FROM t)", "0A000");
    expect_error("UPDATE t SET (id, g) = (SELECT id, g FROM t)", "21000");
    expect_error("UPDATE t SET t.id = 1", "0A000");
    expect_error("WITH t AS (SELECT 1 AS id) DELETE FROM t", "0A000");
    expect_error("WITH a AS (SELECT 1) WITH b AS (SELECT 2) DELETE FROM t", "42601");
    expect_error("TRUNCATE t, nope", "42P01");
    cr_assert_str_eq(tdb_rows(s, "SELECT * FROM t ORDER BY id"), before);
}

/* As INSERT: each statement takes effect at once; an error aborts the
 * block (25P02) and ROLLBACK does not undo what ran (docs/sql-reference.md,
 * Transactions). */
Test(modify, transaction_blocks) {
    tdb_exec_ok(s, "BEGIN");
    expect_tag("DELETE FROM t WHERE id = 1", "DELETE 1");
    expect_tag("UPDATE t SET v = -1 WHERE id = 2", "UPDATE 1");
    tdb_exec_ok(s, "ROLLBACK");
    /* ROLLBACK undoes both, as PostgreSQL's */
    cr_assert_str_eq(tdb_rows(s, "SELECT id, v FROM t WHERE id <= 2 ORDER BY id"), "1|1.5\n2|NULL\n");
    tdb_exec_ok(s, "BEGIN");
    expect_error("DELETE FROM t WHERE 1 / 0 = 1", "22012");
    expect_error("DELETE FROM t", "25P02");
    expect_error("TRUNCATE t", "25P02");
    tdb_exec_ok(s, "ROLLBACK");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM t"), "5\n");
    /* COMMIT keeps them */
    tdb_exec_ok(s, "BEGIN");
    expect_tag("DELETE FROM t WHERE id = 1", "DELETE 1");
    tdb_exec_ok(s, "COMMIT");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM t"), "4\n");
}

Test(modify, prepared_with_parameters) {
    tdb_exec_ok(s, "PREPARE del(int) AS DELETE FROM t WHERE id = $1 RETURNING g");
    tdb_exec_ok(s, "PREPARE upd AS UPDATE t SET g = $1, v = $2 WHERE id = $3");
    tres r;
    tdb_exec(s, "EXECUTE del(3)", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_assert_str_eq(r.text, "a\n");
    cr_assert_str_eq(r.tag[0], "DELETE 1");
    tres_free(&r);
    expect_tag("EXECUTE upd('z', '9.5', 5)", "UPDATE 1");
    expect_tag("EXECUTE upd(NULL, NULL, 4)", "UPDATE 1");
    cr_assert_str_eq(tdb_rows(s, "SELECT * FROM t WHERE id >= 4 ORDER BY id"), "4|NULL|NULL\n5|z|9.5\n");
    attu_prepared *p = prepare_ok("UPDATE t SET v = $1 WHERE id = $2 RETURNING id, v");
    const attu_result_column *cols;
    cr_assert_eq(attu_prepared_describe(p, &cols), 2);
    cr_assert_str_eq(cols[0].name, "id");
    cr_assert_eq(cols[1].type.id, ATTU_TYPE_FLOAT64);
    attu_prepared_free(p);
}

/* What the executor learns of a column as a join or group key must not
 * survive a change to it: the new rows are read afresh. */
Test(modify, key_statistics_do_not_outlive_a_change) {
    tdb_exec_ok(s, "CREATE TABLE dim (k INTEGER, name TEXT)");
    tdb_exec_ok(s, "INSERT INTO dim VALUES (1, 'one'), (2, 'two'), (3, 'three'), (4, 'four'), (5, 'five')");
    const char *q = "SELECT dim.name, count(*) FROM t JOIN dim ON dim.k = t.id GROUP BY dim.name ORDER BY dim.name";
    cr_assert_str_eq(tdb_rows(s, q), "five|1\nfour|1\none|1\nthree|1\ntwo|1\n");
    tdb_exec_ok(s, "UPDATE dim SET k = k + 100 WHERE k > 3");
    tdb_exec_ok(s, "UPDATE t SET id = 1 WHERE id = 2");
    cr_assert_str_eq(tdb_rows(s, q), "one|2\nthree|1\n");
    tdb_exec_ok(s, "DELETE FROM dim WHERE k = 1");
    cr_assert_str_eq(tdb_rows(s, q), "three|1\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT id, count(*) FROM t GROUP BY id ORDER BY id"), "1|2\n3|1\n4|1\n5|1\n");
    tdb_exec_ok(s, "UPDATE t SET id = id * 1000");
    cr_assert_str_eq(tdb_rows(s, "SELECT id, count(*) FROM t GROUP BY id ORDER BY id"), "1000|2\n3000|1\n4000|1\n5000|1\n");
}

Test(modify_storage, changes_survive_close_and_reopen) {
    char dir[] = "/tmp/attu-modify-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *d = tdb_open_dir(dir);
    attu_session *ss = attu_session_new(d);
    tdb_exec_ok(ss, "CREATE TABLE p (id INTEGER NOT NULL, s TEXT DEFAULT 'dflt', n NUMERIC(6,2), day DATE)");
    tdb_exec_ok(ss, "INSERT INTO p VALUES (1, 'a', 1.5, '2024-01-01'), (2, 'b', NULL, NULL), (3, 'c', 3, '2024-03-03'), (4, 'd', 4, '2024-04-04')");
    tdb_exec_ok(ss, "CREATE TABLE gone (x INTEGER)");
    tdb_exec_ok(ss, "INSERT INTO gone VALUES (1), (2)");
    tdb_exec_ok(ss, "DELETE FROM p WHERE id = 2");
    tdb_exec_ok(ss, "UPDATE p SET s = s || '!', n = n * 2, day = day + 1 WHERE id >= 3");
    tdb_exec_ok(ss, "UPDATE p SET s = DEFAULT WHERE id = 1");
    tdb_exec_ok(ss, "TRUNCATE gone");
    /* a failed change is not saved either */
    tres r;
    tdb_exec(ss, "UPDATE p SET n = n / 0", &r);
    cr_assert_str_eq(r.err.sqlstate, "22012");
    tres_free(&r);
    char *before = tdb_rows_ok(ss, "SELECT * FROM p ORDER BY id");
    cr_assert_str_eq(before, "1|dflt|1.50|2024-01-01\n3|c!|6.00|2024-03-04\n4|d!|8.00|2024-04-05\n");
    attu_session_free(ss);
    attu_db_close(d);

    d = tdb_open_dir(dir);
    ss = attu_session_new(d);
    char *after = tdb_rows_ok(ss, "SELECT * FROM p ORDER BY id");
    cr_assert_str_eq(after, before);
    cr_assert_str_eq(tdb_rows(ss, "SELECT count(*) FROM gone"), "0\n");
    /* the DEFAULT came back with the table, and the table changes again */
    tdb_exec_ok(ss, "UPDATE p SET s = DEFAULT WHERE id = 4");
    tdb_exec_ok(ss, "INSERT INTO gone VALUES (9)");
    cr_assert_str_eq(tdb_rows(ss, "SELECT s FROM p WHERE id = 4"), "dflt\n");
    cr_assert_str_eq(tdb_rows(ss, "SELECT x FROM gone"), "9\n");
    attu_session_free(ss);
    attu_db_close(d);
    free(before);
    free(after);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* Readers in other sessions run beside a writer whose every statement
 * keeps the total of bal (and, between the writer's INSERT and DELETE,
 * adds rows of 0): each reader must see one whole version, never a mix. */
#define ACCOUNTS 2000
static volatile int stop_readers;

static void *reader(void *arg) {
    attu_session *rs = attu_session_new(arg);
    long bad = 0, runs = 0;
    while (!__atomic_load_n(&stop_readers, __ATOMIC_SEQ_CST)) {
        tres r;
        tdb_exec(rs, "SELECT sum(bal), count(*) >= 2000, count(*) <= 2010 FROM acc", &r);
        if (r.err.set || !r.text || strcmp(r.text, "200000|t|t\n")) {
            fprintf(stderr, "reader saw: %s %s\n", r.err.set ? r.err.message : "", r.text ? r.text : "");
            bad++;
        }
        tres_free(&r);
        runs++;
    }
    attu_session_free(rs);
    return (void *)(bad ? -1L : runs);
}

Test(modify_concurrency, readers_see_whole_versions) {
    attu_db *d = tdb_open();
    attu_session *ws = attu_session_new(d);
    tdb_exec_ok(ws, "CREATE TABLE ten (d INTEGER)");
    tdb_exec_ok(ws, "INSERT INTO ten VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)");
    tdb_exec_ok(ws, "CREATE TABLE acc AS SELECT a.d * 100 + b.d * 10 + c.d + e.d * 1000 AS id, 100 AS bal "
                    "FROM ten a, ten b, ten c, (SELECT d FROM ten WHERE d < 2) e");
    cr_assert_str_eq(tdb_rows(ws, "SELECT sum(bal), count(*) FROM acc"), "200000|2000\n");
    stop_readers = 0;
    pthread_t th[3];
    for (int i = 0; i < 3; i++) cr_assert_eq(pthread_create(&th[i], NULL, reader, d), 0);
    for (int k = 0; k < 15; k++) {
        tdb_exec_ok(ws, "UPDATE acc SET bal = CASE WHEN id % 2 = 0 THEN bal + 3 ELSE bal - 3 END");
        tdb_exec_ok(ws, "INSERT INTO acc VALUES (5000, 0), (5001, 0)");
        tdb_exec_ok(ws, "UPDATE acc SET bal = CASE WHEN id = 5000 THEN bal + 7 ELSE bal - 7 END WHERE id >= 5000");
        tdb_exec_ok(ws, "DELETE FROM acc WHERE id >= 5000");
    }
    __atomic_store_n(&stop_readers, 1, __ATOMIC_SEQ_CST);
    for (int i = 0; i < 3; i++) {
        void *rv;
        pthread_join(th[i], &rv);
        cr_assert_neq((long)rv, -1L, "a reader saw a mixed or failed version");
    }
    cr_assert_str_eq(tdb_rows(ws, "SELECT sum(bal), count(*), min(bal), max(bal) FROM acc"), "200000|2000|55|145\n");
    attu_session_free(ws);
    attu_db_close(d);
}
