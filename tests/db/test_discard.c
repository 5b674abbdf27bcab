/* test_discard.c - DEALLOCATE and DISCARD through db/database.h: the
 * session asks its caller (attu_exec_callbacks.on_deallocate) to drop the
 * prepared statements it holds, as PostgreSQL 15 answers (tags, 26000,
 * 25001). tests/sql/discard_deallocate.test runs the same statements
 * without a caller that holds statements; the server's side (the
 * protocol's named statements) is one function, ext_deallocate. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/database.h"
#include "db_test_util.h"

typedef struct caller {
    char names[8][32];    /* prepared statements the caller holds */
    int  n;
    char calls[256];      /* on_deallocate calls, "name;" or "ALL;" */
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

static int on_deallocate(void *ctx, const char *name) {
    caller *c = ctx;
    strncat(c->calls, name ? name : "ALL", sizeof c->calls - strlen(c->calls) - 2);
    strncat(c->calls, ";", sizeof c->calls - strlen(c->calls) - 1);
    if (!name) { c->n = 0; return 0; }
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->names[i], name)) {
            memmove(c->names[i], c->names[i + 1], sizeof c->names[0] * (size_t)(c->n - i - 1));
            c->n--;
            return 0;
        }
    return -1;
}

static int run(attu_session *s, caller *c, const char *sql) {
    c->tags[0] = c->sqlstate[0] = '\0';
    attu_exec_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ctx = c;
    cb.on_result = on_result;
    cb.on_error = on_error;
    cb.on_deallocate = on_deallocate;
    return attu_session_exec(s, sql, &cb);
}

Test(discard, deallocate_asks_the_caller) {
    attu_db *db = tdb_open();
    attu_session *s = attu_session_new(db);
    caller c;
    memset(&c, 0, sizeof c);
    snprintf(c.names[0], sizeof c.names[0], "s1");
    snprintf(c.names[1], sizeof c.names[1], "S2");
    c.n = 2;
    cr_assert_eq(run(s, &c, "DEALLOCATE s1"), 0);
    cr_assert_str_eq(c.tags, "DEALLOCATE;");
    cr_assert_eq(c.n, 1);
    /* gone now: 26000 */
    cr_assert_eq(run(s, &c, "DEALLOCATE PREPARE s1"), -1);
    cr_assert_str_eq(c.sqlstate, "26000");
    /* names fold to lower case unless quoted */
    cr_assert_eq(run(s, &c, "DEALLOCATE s2"), -1);
    cr_assert_eq(run(s, &c, "DEALLOCATE \"S2\""), 0);
    cr_assert_eq(c.n, 0);
    cr_assert_eq(run(s, &c, "DEALLOCATE ALL; DEALLOCATE PREPARE ALL"), 0);
    cr_assert_str_eq(c.tags, "DEALLOCATE ALL;DEALLOCATE ALL;");
    cr_assert_str_eq(c.calls, "s1;s1;s2;S2;ALL;ALL;");
    attu_session_free(s);
    attu_db_close(db);
}

Test(discard, discard_all_resets_and_deallocates) {
    attu_db *db = tdb_open();
    attu_session *s = attu_session_new(db);
    caller c;
    memset(&c, 0, sizeof c);
    snprintf(c.names[0], sizeof c.names[0], "s1");
    c.n = 1;
    cr_assert_eq(run(s, &c, "SET statement_timeout = '5s'"), 0);
    cr_assert_eq(run(s, &c, "DISCARD ALL"), 0);
    cr_assert_str_eq(c.tags, "DISCARD ALL;");
    cr_assert_str_eq(c.calls, "ALL;");
    cr_assert_eq(c.n, 0);
    char *v = tdb_rows_ok(s, "SHOW statement_timeout");
    cr_assert_str_eq(v, "0\n");
    free(v);
    /* not inside a transaction block, nor a multi-statement string */
    c.calls[0] = '\0';
    cr_assert_eq(run(s, &c, "BEGIN"), 0);
    cr_assert_eq(run(s, &c, "DISCARD ALL"), -1);
    cr_assert_str_eq(c.sqlstate, "25001");
    cr_assert_eq(run(s, &c, "ROLLBACK"), 0);
    cr_assert_eq(run(s, &c, "SELECT 1; DISCARD ALL"), -1);
    cr_assert_str_eq(c.sqlstate, "25001");
    cr_assert_str_eq(c.calls, "");
    /* the others have nothing to discard */
    cr_assert_eq(run(s, &c, "DISCARD PLANS; DISCARD SEQUENCES; DISCARD TEMP; DISCARD TEMPORARY"), 0);
    cr_assert_str_eq(c.tags, "DISCARD PLANS;DISCARD SEQUENCES;DISCARD TEMP;DISCARD TEMP;");
    attu_session_free(s);
    attu_db_close(db);
}
