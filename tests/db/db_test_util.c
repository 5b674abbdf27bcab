/* db_test_util.c - see db_test_util.h. */
#include "db_test_util.h"

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

attu_db *tdb_open(void) {
    attu_db_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.device = ATTU_DEVICE_CPU;
    cfg.threads = 2;
    attu_error err;
    attu_error_clear(&err);
    return attu_db_open(&cfg, &err);
}

attu_session *tdb_open_session(attu_db **db) {
    *db = tdb_open();
    cr_assert_not_null(*db);
    return attu_session_new(*db);
}

attu_db *tdb_open_dir(const char *dir) {
    attu_db_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.device = ATTU_DEVICE_CPU;
    cfg.threads = 2;
    cfg.data_dir = dir;
    attu_error err;
    attu_error_clear(&err);
    attu_db *db = attu_db_open(&cfg, &err);
    cr_assert_not_null(db, "%s", err.message);
    return db;
}

static int on_result(void *ctx, attu_result *res) {
    tres *r = ctx;
    if (r->nresults < 16) snprintf(r->tag[r->nresults], 64, "%s", res->tag);
    r->nresults++;
    if (!res->returns_rows) return 0;
    free(r->text);
    size_t cap = 1024, used = 0;
    r->text = malloc(cap);
    r->text[0] = 0;
    r->ncols = res->ncols;
    r->nrows = res->nrows;
    r->colnames[0] = 0;
    size_t cu = 0;
    for (int c = 0; c < res->ncols; c++)
        cu += (size_t)snprintf(r->colnames + cu, sizeof r->colnames > cu ? sizeof r->colnames - cu : 0, "%s%s", c ? "|" : "", res->desc[c].name);
    for (size_t i = 0; i < res->nrows; i++) {
        for (int c = 0; c < res->ncols; c++) {
            char buf[128];
            const char *lng = NULL;
            size_t n = attu_column_format(res->cols[c], i, buf, sizeof buf, &lng);
            const char *v = n == (size_t)-1 ? "NULL" : lng ? lng : buf;
            size_t vl = n == (size_t)-1 ? 4 : n;
            while (used + vl + 4 > cap) { cap *= 2; r->text = realloc(r->text, cap); }
            if (c) r->text[used++] = '|';
            memcpy(r->text + used, v, vl);
            used += vl;
        }
        while (used + 2 > cap) { cap *= 2; r->text = realloc(r->text, cap); }
        r->text[used++] = '\n';
        r->text[used] = 0;
    }
    return 0;
}

static void on_error(void *ctx, const attu_error *err) { ((tres *)ctx)->err = *err; }

static void on_notice(void *ctx, const char *st, const char *msg) {
    tres *r = ctx;
    size_t l = strlen(r->notices);
    snprintf(r->notices + l, sizeof r->notices - l, "%s: %s\n", st, msg);
}

int tdb_exec(attu_session *s, const char *sql, tres *r) {
    memset(r, 0, sizeof *r);
    attu_exec_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ctx = r;
    cb.on_result = on_result;
    cb.on_error = on_error;
    cb.on_notice = on_notice;
    return attu_session_exec(s, sql, &cb);
}

void tres_free(tres *r) { free(r->text); r->text = NULL; }

const char *tdb_rows(attu_session *s, const char *sql) {
    static char buf[65536];
    tres r;
    tdb_exec(s, sql, &r);
    if (r.err.set) snprintf(buf, sizeof buf, "ERROR %s: %s", r.err.sqlstate, r.err.message);
    else snprintf(buf, sizeof buf, "%s", r.text ? r.text : "");
    tres_free(&r);
    return buf;
}

char *tdb_read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) { free(b); b = NULL; }
    if (b) b[n] = 0;
    fclose(f);
    return b;
}

void tdb_exec_ok(attu_session *s, const char *sql) {
    tres r;
    tdb_exec(s, sql, &r);
    cr_assert(!r.err.set, "%s: %s %s", sql, r.err.sqlstate, r.err.message);
    tres_free(&r);
}

char *tdb_rows_ok(attu_session *s, const char *sql) {
    tres r;
    tdb_exec(s, sql, &r);
    cr_assert(!r.err.set, "%s: %s %s", sql, r.err.sqlstate, r.err.message);
    char *t = strdup(r.text ? r.text : "");
    tres_free(&r);
    return t;
}

void tdb_expect_error(attu_session *s, const char *sql, const char *sqlstate, const char *message, const char *detail,
                      const char *hint) {
    tres r;
    tdb_exec(s, sql, &r);
    cr_assert(r.err.set, "%s succeeded", sql);
    cr_assert_str_eq(r.err.sqlstate, sqlstate, "%s: %s", sql, r.err.message);
    cr_assert_str_eq(r.err.message, message, "%s", sql);
    if (detail) cr_assert_str_eq(r.err.detail, detail, "%s", sql);
    if (hint) cr_assert_str_eq(r.err.hint, hint, "%s", sql);
    tres_free(&r);
}

void tdb_remove_dir(const char *dir) {
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

void tdb_expect_error_at(attu_session *s, const char *sql, const char *state, const char *message, const char *at,
                         const char *detail, const char *hint) {
    tres r;
    tdb_exec(s, sql, &r);
    cr_assert(r.err.set, "%s: no error", sql);
    cr_assert_str_eq(r.err.sqlstate, state, "%s: %s", sql, r.err.message);
    cr_assert_str_eq(r.err.message, message, "%s: %s", sql, r.err.message);
    int want = at ? (int)(strstr(sql, at) - sql) + 1 : 0;
    cr_assert_eq(r.err.position, want, "%s: at %d, not %d", sql, r.err.position, want);
    if (detail) cr_assert_str_eq(r.err.detail, detail, "%s", sql);
    if (hint) cr_assert_str_eq(r.err.hint, hint, "%s", sql);
    tres_free(&r);
}
