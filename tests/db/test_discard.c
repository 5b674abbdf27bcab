/* test_discard.c - DEALLOCATE and DISCARD through db/database.h: they drop
 * the session's named prepared statements (made by SQL PREPARE or by the
 * caller through attu_session_prepared_add, as the server does for the
 * protocol's Parse), as PostgreSQL 15 answers (tags, 26000, 25001).
 * tests/sql/discard_deallocate.test and prepare_execute_pg.test run the
 * SQL side against PostgreSQL's answers. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/database.h"
#include "db_test_util.h"

typedef struct caller {
    char tags[256];
    char sqlstate[6];
} caller;

static int on_result(void *ctx, attu_result *res) {
    caller *c = ctx;
    strncat(c->tags, res->tag, sizeof c->tags - strlen(c->tags) - 2);
    strncat(c->tags, ";", sizeof c->tags - strlen(c->tags) - 1);
    return 0;
}

static void on_error(void *ctx, const attu_error *err) {
    caller *c = ctx;
    snprintf(c->sqlstate, sizeof c->sqlstate, "%s", err->sqlstate);
}

/* a protocol-level named statement, as the server's Parse adds it */
static void add_named(attu_session *s, const char *name, const char *sql) {
    attu_error err;
    memset(&err, 0, sizeof err);
    attu_prepared *p = attu_prepare(s, sql, 0, NULL, &err);
    cr_assert(p, "%s", err.message);
    cr_assert_eq(attu_session_prepared_add(s, name, p, &err), 0, "%s", err.message);
    attu_prepared_free(p);
}

static int run(attu_session *s, caller *c, const char *sql) {
    c->tags[0] = c->sqlstate[0] = '\0';
    attu_exec_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ctx = c;
    cb.on_result = on_result;
    cb.on_error = on_error;
    return attu_session_exec(s, sql, &cb);
}

Test(discard, deallocate_drops_session_statements) {
    attu_db *db = tdb_open();
    attu_session *s = attu_session_new(db);
    caller c;
    memset(&c, 0, sizeof c);
    add_named(s, "s1", "SELECT 1");
    cr_assert_eq(run(s, &c, "PREPARE \"S2\" AS SELECT $1::int"), 0);
    cr_assert_str_eq(c.tags, "PREPARE;");
    /* one namespace: SQL PREPARE meets the protocol's name (42P05) */
    cr_assert_eq(run(s, &c, "PREPARE s1 AS SELECT 2"), -1);
    cr_assert_str_eq(c.sqlstate, "42P05");
    cr_assert_eq(run(s, &c, "EXECUTE s1"), 0);
    cr_assert_str_eq(c.tags, "SELECT 1;");
    cr_assert_eq(run(s, &c, "DEALLOCATE s1"), 0);
    cr_assert_str_eq(c.tags, "DEALLOCATE;");
    cr_assert_null(attu_session_prepared_find(s, "s1"));
    /* gone now: 26000 */
    cr_assert_eq(run(s, &c, "DEALLOCATE PREPARE s1"), -1);
    cr_assert_str_eq(c.sqlstate, "26000");
    /* names fold to lower case unless quoted */
    cr_assert_eq(run(s, &c, "DEALLOCATE s2"), -1);
    cr_assert_eq(run(s, &c, "DEALLOCATE \"S2\""), 0);
    cr_assert_null(attu_session_prepared_find(s, "S2"));
    add_named(s, "a", "SELECT 1");
    add_named(s, "b", "SELECT 2");
    cr_assert_eq(run(s, &c, "DEALLOCATE ALL; DEALLOCATE PREPARE ALL"), 0);
    cr_assert_str_eq(c.tags, "DEALLOCATE ALL;DEALLOCATE ALL;");
    cr_assert_null(attu_session_prepared_find(s, "a"));
    cr_assert_null(attu_session_prepared_find(s, "b"));
    attu_session_free(s);
    attu_db_close(db);
}

Test(discard, discard_all_resets_and_deallocates) {
    attu_db *db = tdb_open();
    attu_session *s = attu_session_new(db);
    caller c;
    memset(&c, 0, sizeof c);
    add_named(s, "s1", "SELECT 1");
    cr_assert_eq(run(s, &c, "SET statement_timeout = '5s'"), 0);
    cr_assert_eq(run(s, &c, "DISCARD ALL"), 0);
    cr_assert_str_eq(c.tags, "DISCARD ALL;");
    cr_assert_null(attu_session_prepared_find(s, "s1"));
    char *v = tdb_rows_ok(s, "SHOW statement_timeout");
    cr_assert_str_eq(v, "0\n");
    free(v);
    /* not inside a transaction block, nor a multi-statement string */
    add_named(s, "s1", "SELECT 1");
    cr_assert_eq(run(s, &c, "BEGIN"), 0);
    cr_assert_eq(run(s, &c, "DISCARD ALL"), -1);
    cr_assert_str_eq(c.sqlstate, "25001");
    cr_assert_eq(run(s, &c, "ROLLBACK"), 0);
    cr_assert_eq(run(s, &c, "SELECT 1; DISCARD ALL"), -1);
    cr_assert_str_eq(c.sqlstate, "25001");
    cr_assert_not_null(attu_session_prepared_find(s, "s1"));
    /* the others have nothing to discard */
    cr_assert_eq(run(s, &c, "DISCARD PLANS; DISCARD SEQUENCES; DISCARD TEMP; DISCARD TEMPORARY"), 0);
    cr_assert_str_eq(c.tags, "DISCARD PLANS;DISCARD SEQUENCES;DISCARD TEMP;DISCARD TEMP;");
    attu_session_free(s);
    attu_db_close(db);
}
