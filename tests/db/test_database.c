/*
 * test_database.c - db/database.h end to end on the CPU backend: DDL and
 * DML, queries through every operator, errors leaving nothing half-done,
 * COPY in and out, prepared statements, EXPLAIN [ANALYZE], SET/SHOW,
 * transaction status and statement_timeout.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db_test_util.h"

static attu_db *db;
static attu_session *s;

static void setup(void) {
    s = tdb_open_session(&db);
    tres r;
    tdb_exec(s, "CREATE TABLE t (id INTEGER, g TEXT, v DOUBLE PRECISION, n BIGINT);"
                "INSERT INTO t VALUES (1, 'a', 1.5, 10), (2, 'b', NULL, 20), (3, 'a', 2.5, NULL), (4, NULL, 4.0, 40), (5, 'b', 0.5, 50)", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    tres_free(&r);
}
static void teardown(void) { attu_session_free(s); attu_db_close(db); }

TestSuite(database, .init = setup, .fini = teardown);

Test(database, select_where_order_limit) {
    cr_assert_str_eq(tdb_rows(s, "SELECT id, g FROM t WHERE v > 1 ORDER BY id DESC LIMIT 2"), "4|NULL\n3|a\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT id FROM t ORDER BY v NULLS FIRST, id"), "2\n5\n1\n3\n4\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT id FROM t ORDER BY g DESC, id LIMIT 3 OFFSET 1"), "2\n5\n1\n");
}

Test(database, group_by_having_and_aggregates) {
    cr_assert_str_eq(tdb_rows(s, "SELECT g, count(*), count(v), sum(n), min(v), max(id) FROM t GROUP BY g ORDER BY g"),
                     "a|2|2|10|1.5|3\nb|2|1|70|0.5|5\nNULL|1|1|40|4|4\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT g FROM t GROUP BY g HAVING sum(n) > 30 ORDER BY 1"), "b\nNULL\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*), sum(id), count(DISTINCT g) FROM t WHERE id > 100"), "0|NULL|0\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(DISTINCT g) FROM t"), "2\n");
}

Test(database, joins) {
    tres r;
    tdb_exec(s, "CREATE TABLE u (g TEXT, label TEXT); INSERT INTO u VALUES ('a', 'alpha'), ('c', 'gamma'), ('a', 'again')", &r);
    cr_assert(!r.err.set);
    cr_assert_str_eq(tdb_rows(s, "SELECT t.id, u.label FROM t JOIN u ON t.g = u.g ORDER BY 1, 2"),
                     "1|again\n1|alpha\n3|again\n3|alpha\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT t.id, u.label FROM t LEFT JOIN u ON t.g = u.g AND u.label <> 'again' ORDER BY 1"),
                     "1|alpha\n2|NULL\n3|alpha\n4|NULL\n5|NULL\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM t, u WHERE t.g = u.g AND t.id > 1"), "2\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT t.id, u.label FROM t FULL JOIN u ON t.g = u.g AND u.label <> 'again' ORDER BY 1, 2"),
                     "1|alpha\n2|NULL\n3|alpha\n4|NULL\n5|NULL\nNULL|again\nNULL|gamma\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT id FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.g = t.g) ORDER BY id"), "1\n3\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT id FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.g = t.g) ORDER BY id"), "2\n4\n5\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT id FROM t WHERE g IN (SELECT g FROM u) ORDER BY id"), "1\n3\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT id FROM t WHERE v > (SELECT avg(v) FROM t) ORDER BY id"), "3\n4\n");
    tres_free(&r);
}

Test(database, windows_union_cte_distinct) {
    cr_assert_str_eq(tdb_rows(s, "SELECT id, row_number() OVER (PARTITION BY g ORDER BY id DESC), rank() OVER (ORDER BY g) FROM t ORDER BY id"),
                     "1|2|1\n2|2|3\n3|1|1\n4|1|5\n5|1|3\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT g FROM t UNION SELECT 'z' ORDER BY 1"), "a\nb\nz\nNULL\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM (SELECT g FROM t UNION ALL SELECT g FROM t) x"), "10\n");
    cr_assert_str_eq(tdb_rows(s, "WITH x AS (SELECT g, sum(n) AS s FROM t GROUP BY g) SELECT s FROM x WHERE g = 'b'"), "70\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT DISTINCT g FROM t ORDER BY g NULLS FIRST"), "NULL\na\nb\n");
}

Test(database, runtime_errors_are_sqlstates) {
    tres r;
    tdb_exec(s, "SELECT id / (id - id) FROM t", &r);
    cr_assert_str_eq(r.err.sqlstate, "22012");
    tdb_exec(s, "SELECT 2147483647 + id FROM t", &r);
    cr_assert_str_eq(r.err.sqlstate, "22003");
    cr_assert_str_eq(r.err.message, "integer out of range");
    /* CASE guards the division */
    cr_assert_str_eq(tdb_rows(s, "SELECT CASE WHEN id > 3 THEN 10 / (id - 4) ELSE 0 END FROM t WHERE id >= 3 ORDER BY id"), "ERROR 22012: division by zero");
    cr_assert_str_eq(tdb_rows(s, "SELECT CASE WHEN id <> 4 THEN 10 / (id - 4) ELSE 0 END FROM t WHERE id >= 3 ORDER BY id"), "-10\n0\n10\n");
}

Test(database, failed_statements_change_nothing) {
    tres r;
    tdb_exec(s, "INSERT INTO t VALUES (6, 'c', 1, 1), (7, 'c', 'x', 1)", &r);
    cr_assert_str_eq(r.err.sqlstate, "22P02");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM t"), "5\n");
    tdb_exec(s, "CREATE TABLE nn (a INTEGER NOT NULL); INSERT INTO nn VALUES (1), (NULL)", &r);
    cr_assert_str_eq(r.err.sqlstate, "23502");
    /* one implicit transaction: the failed INSERT undoes the CREATE too */
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM nn"), "ERROR 42P01: relation \"nn\" does not exist");
    tdb_exec(s, "DROP TABLE t, nosuch", &r);
    cr_assert_str_eq(r.err.sqlstate, "42P01");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM t"), "5\n");
}

Test(database, ddl_ctas_drop) {
    tres r;
    tdb_exec(s, "CREATE TABLE t2 AS SELECT g, sum(n) AS total FROM t GROUP BY g", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_assert_str_eq(r.tag[0], "SELECT 3");
    cr_assert_str_eq(tdb_rows(s, "SELECT total FROM t2 WHERE g = 'a'"), "10\n");
    tdb_exec(s, "CREATE TABLE t2 (x INT)", &r);
    cr_assert_str_eq(r.err.sqlstate, "42P07");
    tdb_exec(s, "DROP TABLE IF EXISTS t2, t3", &r);
    cr_assert(!r.err.set);
    cr_assert(strstr(r.notices, "t3") != NULL);
    tdb_exec(s, "SELECT * FROM t2", &r);
    cr_assert_str_eq(r.err.sqlstate, "42P01");
    tdb_exec(s, "INSERT INTO t (id, g) SELECT id + 10, g FROM t WHERE g = 'a'", &r);
    cr_assert_str_eq(r.tag[0], "INSERT 0 2");
    cr_assert_str_eq(tdb_rows(s, "SELECT id, v FROM t WHERE id > 10 ORDER BY id"), "11|NULL\n13|NULL\n");
}

typedef struct copyctx { const char *data; size_t pos; char out[4096]; size_t olen; } copyctx;
static int cin_begin(void *c, int n, bool b) { (void)b; return 0; }
static ssize_t cin_read(void *c, char *buf, size_t cap, attu_error *err) {
    copyctx *x = ((tres *)c)->text ? NULL : NULL;
    (void)x;
    return 0;
}

static copyctx *g_copy;
static ssize_t stdin_read(void *c, char *buf, size_t cap, attu_error *err) {
    size_t left = strlen(g_copy->data) - g_copy->pos;
    size_t n = left < cap ? left : cap;
    if (n > 3) n = 3;    /* small pieces: fields span reads */
    memcpy(buf, g_copy->data + g_copy->pos, n);
    g_copy->pos += n;
    return (ssize_t)n;
}
static int out_begin(void *c, int n, bool b) { (void)b; return 0; }
static int out_data(void *c, const char *buf, size_t len) {
    memcpy(g_copy->out + g_copy->olen, buf, len);
    g_copy->olen += len;
    g_copy->out[g_copy->olen] = 0;
    return 0;
}
static int on_res(void *c, attu_result *r) { return 0; }
static void on_err(void *c, const attu_error *e) { *(attu_error *)c = *e; }

Test(database, copy_stdin_and_stdout) {
    copyctx cc = { "6,z,1.25,7\n7,\"q,x\",,8\n", 0, { 0 }, 0 };
    g_copy = &cc;
    attu_error e;
    attu_error_clear(&e);
    attu_exec_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ctx = &e; cb.on_result = on_res; cb.on_error = on_err;
    cb.copy_in_begin = cin_begin; cb.copy_in_read = stdin_read;
    cb.copy_out_begin = out_begin; cb.copy_out_data = out_data;
    (void)cin_read;
    cr_assert_eq(attu_session_exec(s, "COPY t FROM STDIN WITH (FORMAT csv)", &cb), 0, "%s", e.message);
    cr_assert_str_eq(tdb_rows(s, "SELECT g, v FROM t WHERE id >= 6 ORDER BY id"), "z|1.25\nq,x|NULL\n");
    cr_assert_eq(attu_session_exec(s, "COPY (SELECT id, g FROM t WHERE id >= 6 ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER true)", &cb), 0);
    cr_assert_str_eq(cc.out, "id,g\n6,z\n7,\"q,x\"\n");
    /* a bad row loads nothing */
    copyctx bad = { "8,a,1,1\n9,b,notanumber,1\n", 0, { 0 }, 0 };
    g_copy = &bad;
    cr_assert_eq(attu_session_exec(s, "COPY t FROM STDIN WITH (FORMAT csv)", &cb), -1);
    cr_assert_str_eq(e.sqlstate, "22P02");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM t"), "7\n");
}

static int keep_res(void *c, attu_result *r) {
    tres *t = c;
    snprintf(t->tag[0], 64, "%s", r->tag);
    t->nrows = r->nrows;
    return 0;
}

Test(database, prepared_statements) {
    attu_error err;
    attu_error_clear(&err);
    attu_prepared *p = attu_prepare(s, "SELECT id, g FROM t WHERE id > $1 AND g = $2", 0, NULL, &err);
    cr_assert_not_null(p, "%s", err.message);
    cr_assert_eq(attu_prepared_param_count(p), 2);
    const attu_result_column *cols;
    cr_assert_eq(attu_prepared_describe(p, &cols), 2);
    cr_assert_str_eq(cols[1].name, "g");
    tres r;
    memset(&r, 0, sizeof r);
    attu_exec_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ctx = &r; cb.on_result = keep_res;
    const char *vals[2] = { "1", "a" };
    cr_assert_eq(attu_prepared_execute(s, p, 2, vals, &cb), 0);
    cr_assert_str_eq(r.tag[0], "SELECT 1");
    const char *vals2[2] = { "0", NULL };
    cr_assert_eq(attu_prepared_execute(s, p, 2, vals2, &cb), 0);
    cr_assert_eq(r.nrows, 0);
    attu_prepared_free(p);
    p = attu_prepare(s, "INSERT INTO t (id, g) VALUES ($1, $2)", 0, NULL, &err);
    cr_assert_not_null(p);
    const char *ins[2] = { "42", "new" };
    cr_assert_eq(attu_prepared_execute(s, p, 2, ins, &cb), 0);
    attu_prepared_free(p);
    cr_assert_str_eq(tdb_rows(s, "SELECT g FROM t WHERE id = 42"), "new\n");
}

Test(database, explain_and_analyze) {
    tres r;
    tdb_exec(s, "EXPLAIN SELECT g, count(*) FROM t WHERE id > 1 GROUP BY g ORDER BY 2 DESC LIMIT 1", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_assert_str_eq(r.colnames, "QUERY PLAN");
    cr_assert(strstr(r.text, "Top-K 1") && strstr(r.text, "segreduce") && strstr(r.text, "compact"), "%s", r.text);
    tres_free(&r);
    tdb_exec(s, "EXPLAIN ANALYZE SELECT t.id FROM t JOIN t AS o ON t.g = o.g", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_assert(strstr(r.text, "sorted_search + scan + lbs") && strstr(r.text, "actual rows=5") && strstr(r.text, "device=CPU"), "%s", r.text);
    tres_free(&r);
}

Test(database, settings_and_transactions) {
    cr_assert_str_eq(tdb_rows(s, "SHOW server_version"), "15.0\n");
    tres r;
    tdb_exec(s, "SET statement_timeout = '5s'; SET application_name TO 'x'", &r);
    cr_assert(!r.err.set);
    cr_assert_eq(attu_session_statement_timeout_ms(s), 5000);
    cr_assert_str_eq(tdb_rows(s, "SHOW statement_timeout"), "5s\n");
    tdb_exec(s, "SHOW nosuch_setting", &r);
    cr_assert_str_eq(r.err.sqlstate, "42704");
    tdb_exec(s, "BEGIN", &r);
    cr_assert_eq(attu_session_txn_status(s), 'T');
    tdb_exec(s, "SELECT nosuch FROM t", &r);
    cr_assert_eq(attu_session_txn_status(s), 'E');
    tdb_exec(s, "SELECT 1", &r);
    cr_assert_str_eq(r.err.sqlstate, "25P02");
    tdb_exec(s, "ROLLBACK", &r);
    cr_assert_eq(attu_session_txn_status(s), 'I');
    cr_assert_str_eq(tdb_rows(s, "SELECT 1 + 1"), "2\n");
}

Test(database, statement_timeout_cancels) {
    tres r;
    /* 3125 rows: the cross join's 9.8M pairs (about 400 MB) take far more
     * than the millisecond and fit any test machine's memory (a third
     * copy of big made the pairs 10 GB, and a machine with less free
     * memory than that answered 53200 before the timeout could fire) */
    tdb_exec(s, "CREATE TABLE big AS SELECT a.id FROM t a, t b, t c, t d, t e", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    tdb_exec(s, "SET statement_timeout = 1", &r);
    tdb_exec(s, "SELECT count(*) FROM big x, big y WHERE x.id + y.id = -1", &r);
    cr_assert_str_eq(r.err.sqlstate, "57014");
}

/* A runaway WITH RECURSIVE fails with 54000 and a HINT once it holds more
 * rows than attu.max_recursive_rows (PostgreSQL would run until memory
 * ends); cancellation still stops one that stays under the limits. */
static const char *const runaway = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n FROM r CROSS JOIN (VALUES (1), (2)) v(x)) "
                                   "SELECT count(*) FROM r";

Test(database, recursive_row_cap) {
    tres r;
    tdb_exec(s, runaway, &r);
    cr_assert_str_eq(r.err.sqlstate, "54000");
    cr_assert_str_eq(r.err.message, "recursive query produced more than 10000000 rows");
    cr_assert_str_eq(r.err.hint, "Check that the recursive term stops adding rows, or raise the limit with SET "
                                 "attu.max_recursive_rows (0: no limit).");
    tdb_exec(s, "SET attu.max_recursive_rows = 100", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    tdb_exec(s, runaway, &r);
    cr_assert_str_eq(r.err.message, "recursive query produced more than 100 rows");
    /* exactly at the limit is fine */
    cr_assert_str_eq(tdb_rows(s, "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 100) SELECT count(*) FROM c"),
                     "100\n");
    tdb_exec(s, "SET attu.max_recursive_rows = -5", &r);
    cr_assert_str_eq(r.err.sqlstate, "22023");
    tdb_exec(s, "RESET attu.max_recursive_rows", &r);
    cr_assert_str_eq(tdb_rows(s, "SHOW attu.max_recursive_rows"), "10000000\n");
}

static void *cancel_later(void *arg) {
    usleep(200 * 1000);
    attu_session_cancel(arg);
    return NULL;
}

Test(database, recursive_query_can_be_cancelled) {
    tres r;
    tdb_exec(s, "SET attu.max_recursive_rows = 0", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    /* 15625 distinct ids: each round joins one row of r with one of big */
    tdb_exec(s, "CREATE TABLE big AS SELECT (a.id - 1) + 5 * (b.id - 1) + 25 * (c.id - 1) + 125 * (d.id - 1) + 625 * (e.id - 1) "
                "+ 3125 * (f.id - 1) AS id FROM t a, t b, t c, t d, t e, t f", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_assert_str_eq(tdb_rows(s, "SELECT count(DISTINCT id) FROM big"), "15625\n");
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, cancel_later, s), 0);
    tdb_exec(s, "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n + 1 FROM r JOIN big ON big.id = r.n % 2) "
                "SELECT count(*) FROM r", &r);
    pthread_join(th, NULL);
    cr_assert_str_eq(r.err.sqlstate, "57014", "%s %s", r.err.sqlstate, r.err.message);
}

Test(database, empty_and_comment_only) {
    attu_exec_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cr_assert_eq(attu_session_exec(s, "", &cb), 1);
    cr_assert_eq(attu_session_exec(s, "-- nothing", &cb), 1);
}

Test(database, window_navigation_and_frames) {
    cr_assert_str_eq(tdb_rows(s, "SELECT id, lag(id) OVER (ORDER BY id), lead(id, 2, -1) OVER (ORDER BY id), ntile(2) OVER (ORDER BY id) FROM t ORDER BY id"),
                     "1|NULL|3|1\n2|1|4|1\n3|2|5|1\n4|3|-1|2\n5|4|-1|2\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT id, first_value(id) OVER (PARTITION BY g ORDER BY id), last_value(id) OVER (PARTITION BY g ORDER BY id "
                                 "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM t WHERE g IS NOT NULL ORDER BY id"),
                     "1|1|3\n2|2|5\n3|1|3\n5|2|5\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT id, sum(id) OVER (ORDER BY g ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), "
                                 "sum(id) OVER (ORDER BY g) FROM t ORDER BY id"),
                     "1|1|4\n2|6|11\n3|4|4\n4|15|15\n5|11|11\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT id, percent_rank() OVER (ORDER BY id), cume_dist() OVER (ORDER BY id) FROM t WHERE id <= 3 ORDER BY id"),
                     "1|0|0.3333333333333333\n2|0.5|0.6666666666666666\n3|1|1\n");
}

Test(database, distinct_on_keeps_the_first_row_per_key) {
    cr_assert_str_eq(tdb_rows(s, "SELECT DISTINCT ON (g) g, id FROM t ORDER BY g, id DESC"), "a|3\nb|5\nNULL|4\n");
}

Test(database, star_join_is_reordered_without_cross_products) {
    tres r;
    tdb_exec(s, "CREATE TABLE d1 (k INT, name TEXT); CREATE TABLE d2 (k INT, region TEXT); CREATE TABLE fact (a INT, b INT, amt INT);"
                "INSERT INTO d1 VALUES (1, 'x'), (2, 'y'), (3, 'z');"
                "INSERT INTO d2 VALUES (10, 'EU'), (20, 'US');"
                "INSERT INTO fact VALUES (1, 10, 5), (1, 20, 7), (2, 10, 1), (3, 20, 2), (3, 20, 3), (4, 10, 100)", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    const char *q = "SELECT d1.name, d2.region, sum(fact.amt) FROM d1, d2, fact "
                    "WHERE fact.a = d1.k AND fact.b = d2.k AND d2.region = 'US' GROUP BY d1.name, d2.region ORDER BY 1";
    cr_assert_str_eq(tdb_rows(s, q), "x|US|7\nz|US|5\n");
    char e[1024];
    snprintf(e, sizeof e, "EXPLAIN %s", q);
    tdb_exec(s, e, &r);
    cr_assert(!r.err.set);
    cr_assert_null(strstr(r.text, "Cross"), "%s", r.text);
    tres_free(&r);
}
