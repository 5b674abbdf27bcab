/* Tests for engine/storage.c and checksum.c: round trips, crash safety
 * (fork + SIGKILL mid-save), corruption detection, the lock file. */
#include "csv_test_util.h"
#include "storage_test_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "engine/checksum.h"
#include "engine/storage.h"
#include "engine/view.h"

static char *tmp_dir(void) { return storage_tmp_dir("attu_store"); }

/* A table with every type, NULLs and text, version `v`, rows depending on v. */
static attu_table *sample(const char *name, int v, size_t rows) {
    attu_table *base = schema_table(name,
        "b:bool,i:int,g:bigint,r:real,d:double,n:num(9.3),s:text,dt:date,ts:ts!");
    size_t cap = rows * 120 + 16, n = 0;
    char *text = malloc(cap);
    for (size_t r = 0; r < rows; r++)
        n += (size_t)snprintf(text + n, cap - n,
                              "%s,%zu,%lld,%d.5,%zu.125,%d.%03zu,%s,2020-01-%02zu,2021-02-03 04:05:%02zu\n",
                              r % 3 ? "t" : "", r * (size_t)v, -(long long)r * 1000000007LL, v,
                              r, v, r % 1000, r % 4 ? "\"word, with comma\"" : "",
                              1 + r % 28, r % 60);
    attu_csv_options o;
    attu_csv_options_default(&o);
    attu_error err;
    attu_table *t = load_bytes(base, &o, "sample.csv", text, n, &err);
    cr_assert_not_null(t, "%s", err.message);
    free(text);
    attu_table_free(base);
    return t;
}

static void assert_same(const attu_table *a, const attu_table *b) {
    cr_assert_str_eq(a->name, b->name);
    cr_assert_eq(a->ncols, b->ncols);
    cr_assert_eq(a->nrows, b->nrows);
    cr_assert(!b->unavailable, "%s", b->unavailable_reason);
    for (int c = 0; c < a->ncols; c++) {
        cr_assert_str_eq(a->defs[c].name, b->defs[c].name);
        cr_assert(attu_type_equal(a->defs[c].type, b->defs[c].type));
        cr_assert_eq(a->defs[c].not_null, b->defs[c].not_null);
        for (size_t r = 0; r < a->nrows; r++)
            cr_assert_str_eq(cell(a, c, r), cell(b, c, r), "col %d row %zu", c, r);
    }
}

static attu_catalog *reload(const char *dir, int expect_tables) {
    attu_catalog *cat = attu_catalog_new();
    attu_error err;
    attu_error_clear(&err);
    int n = attu_storage_load_all(dir, cat, &err);
    cr_assert_eq(n, expect_tables, "got %d: %s", n, err.message);
    return cat;
}

Test(checksum, crc32c_known_values) {
    cr_assert_eq(attu_crc32c(0, "123456789", 9), 0xE3069283u);
    cr_assert_eq(attu_crc32c_portable(0, "123456789", 9), 0xE3069283u);
    cr_assert_eq(attu_crc32c(0, "", 0), 0);
    unsigned char buf[1000];
    for (int i = 0; i < 1000; i++) buf[i] = (unsigned char)(i * 31 + 7);
    for (size_t off = 0; off < 9; off++)
        cr_assert_eq(attu_crc32c(0, buf + off, 1000 - off),
                     attu_crc32c_portable(0, buf + off, 1000 - off));
    /* Incremental = one shot. */
    cr_assert_eq(attu_crc32c(attu_crc32c(0, buf, 333), buf + 333, 667), attu_crc32c(0, buf, 1000));
}

Test(storage, save_and_load_roundtrip) {
    char *dir = tmp_dir();
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_storage_open(dir, &err), 0, "%s", err.message);
    attu_table *t = sample("cities", 1, 500);
    attu_table *empty = schema_table("My Table/\"odd\"", "x:int,y:text");
    cr_assert_eq(attu_storage_save_table(dir, t, &err), 0, "%s", err.message);
    cr_assert_eq(attu_storage_save_table(dir, empty, &err), 0, "%s", err.message);
    attu_catalog *cat = reload(dir, 2);
    assert_same(t, attu_catalog_lookup(cat, "cities"));
    attu_table *e2 = attu_catalog_lookup(cat, "My Table/\"odd\"");
    cr_assert_not_null(e2);
    assert_same(empty, e2);
    cr_assert_eq(attu_catalog_lookup(cat, "cities")->version, t->version);
    attu_catalog_free(cat);

    /* Replace with a new version: the folder holds one generation. */
    attu_table *t2 = sample("cities", 2, 300);
    cr_assert_eq(attu_storage_save_table(dir, t2, &err), 0, "%s", err.message);
    cat = reload(dir, 2);
    assert_same(t2, attu_catalog_lookup(cat, "cities"));
    attu_catalog_free(cat);
    char path[512];
    snprintf(path, sizeof path, "%s/cities", dir);
    DIR *d = opendir(path);
    int entries = 0;
    for (struct dirent *e; (e = readdir(d));) entries += e->d_name[0] != '.';
    closedir(d);
    cr_assert_eq(entries, 2, "CURRENT and one generation");

    /* Drop. */
    cr_assert_eq(attu_storage_drop_table(dir, "cities", &err), 0);
    cat = reload(dir, 1);
    cr_assert_null(attu_catalog_lookup(cat, "cities"));
    attu_catalog_free(cat);
    attu_table_free(t);
    attu_table_free(t2);
    attu_table_free(empty);
    attu_storage_close(dir);
    rm_rf(dir);
    free(dir);
}

/* A char(n) column saved with trailing spaces in its values (by a build
 * that kept char(n) values as given) loads with them stripped: 'a' and
 * 'a ' are one value, shown padded (engine/bpchar.h). */
Test(storage, char_column_with_trailing_spaces_loads_stripped) {
    char *dir = tmp_dir();
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_storage_open(dir, &err), 0, "%s", err.message);
    attu_table *base = schema_table("old_chars", "x:int,c:text");
    attu_csv_options o;
    attu_csv_options_default(&o);
    o.null_string = "NULL";
    attu_table *t = load_str(base, &o, "1,a\n2,a \n3,b  \n4,NULL\n5,  \n6,a\n", &err);
    cr_assert_not_null(t, "%s", err.message);
    attu_type ch3 = { ATTU_TYPE_TEXT, 3, 1, 0 };   /* char(3), as types.c makes it */
    t->defs[1].type = ch3;
    t->cols[1]->type = ch3;
    cr_assert_eq(t->cols[1]->dict->count, 4);
    cr_assert_eq(attu_storage_save_table(dir, t, &err), 0, "%s", err.message);
    attu_catalog *cat = reload(dir, 1);
    const attu_table *u = attu_catalog_lookup(cat, "old_chars");
    cr_assert_not_null(u);
    cr_assert(!u->unavailable, "%s", u->unavailable_reason);
    cr_assert(attu_type_is_bpchar(u->cols[1]->type));
    cr_assert_eq(u->cols[1]->dict->count, 3, "'', 'a' and 'b'");
    const char *want[] = { "a  ", "a  ", "b  ", "NULL", "   ", "a  " };
    for (size_t r = 0; r < 6; r++) cr_assert_str_eq(cell(u, 1, r), want[r], "row %zu", r);
    const int32_t *codes = u->cols[1]->data;
    cr_assert_eq(codes[0], codes[1]);
    cr_assert_eq(codes[0], codes[5]);
    attu_catalog_free(cat);
    attu_table_free(t);
    attu_table_free(base);
    attu_storage_close(dir);
    rm_rf(dir);
    free(dir);
}

/* A view's DECIMAL column of no typmod (CREATE VIEW v AS SELECT 1.5)
 * keeps that mark through a save and a load, so that format_type shows
 * it as numeric after a restart; a numeric(p,s) column stays one. */
Test(storage, view_decimal_no_typmod_survives_reload) {
    char *dir = tmp_dir();
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_storage_open(dir, &err), 0, "%s", err.message);
    const char *names[] = { "a", "d" };
    attu_type types[] = { attu_type_decimal_free(18, 1), attu_type_decimal(10, 2) };
    attu_views *vs = attu_views_new();
    attu_view *v = attu_view_new("v", "SELECT 1.5 AS a, d FROM s", 2, names, types, 0, NULL);
    cr_assert_not_null(vs);
    cr_assert_not_null(v);
    attu_view *old = NULL;
    cr_assert_eq(attu_views_put(vs, v, &old), 0);
    cr_assert_null(old);
    cr_assert_eq(attu_storage_save_views(dir, vs, &err), 0, "%s", err.message);
    attu_catalog *cat = reload(dir, 0);
    cr_assert_geq(attu_storage_load_views(dir, cat, &err), 0, "%s", err.message);
    cr_assert_not_null(attu_catalog_views(cat));
    const attu_view *u = attu_views_find(attu_catalog_views(cat), "v");
    cr_assert_not_null(u);
    cr_assert(attu_type_is_free_decimal(u->col_types[0]));
    cr_assert_eq(u->col_types[0].precision, 18);
    cr_assert_eq(u->col_types[0].scale, 1);
    cr_assert(!attu_type_is_free_decimal(u->col_types[1]));
    cr_assert_eq(u->col_types[1].precision, 10);
    attu_catalog_free(cat);
    attu_views_free(vs);
    attu_storage_close(dir);
    rm_rf(dir);
    free(dir);
}

typedef struct save_job { const char *dir; const attu_table *t; } save_job;

static void save_job_run(void *arg) {
    save_job *j = arg;
    attu_storage_save_table(j->dir, j->t, NULL);
}

/* A save killed at `stage` (storage_test_util.h). */
static void kill_mid_save(const char *dir, const attu_table *t, const char *stage) {
    save_job j = {dir, t};
    kill_at(stage, save_job_run, &j);
}

Test(storage, sigkill_mid_save_keeps_previous_table) {
    char *dir = tmp_dir();
    attu_error err;
    attu_error_clear(&err);
    attu_table *v1 = sample("t", 1, 400), *v2 = sample("t", 2, 700);
    cr_assert_eq(attu_storage_save_table(dir, v1, &err), 0, "%s", err.message);

    /* Killed after every new file is durable but before the commit. */
    kill_mid_save(dir, v2, "files-written");
    attu_catalog *cat = reload(dir, 1);
    assert_same(v1, attu_catalog_lookup(cat, "t"));
    attu_catalog_free(cat);

    /* Killed right after the commit: the new table is whole. */
    kill_mid_save(dir, v2, "committed");
    cat = reload(dir, 1);
    assert_same(v2, attu_catalog_lookup(cat, "t"));
    attu_catalog_free(cat);

    /* A brand-new table killed before its rename is simply absent, and
     * its temporary folder is cleaned up at start. */
    attu_table *n = sample("fresh", 3, 10);
    kill_mid_save(dir, n, "files-written");
    cat = reload(dir, 1);
    cr_assert_null(attu_catalog_lookup(cat, "fresh"));
    attu_catalog_free(cat);
    DIR *d = opendir(dir);
    for (struct dirent *e; (e = readdir(d));)
        cr_assert(strncmp(e->d_name, ".tmp", 4) != 0, "leftover %s", e->d_name);
    closedir(d);

    /* Kills at arbitrary moments of a save loop: always v1 or v2, whole. */
    for (int round = 0; round < 6; round++) {
        pid_t pid = fork();
        if (pid == 0) {
            for (int k = 0;; k++) attu_storage_save_table(dir, k % 2 ? v1 : v2, NULL);
        }
        usleep(3000 + (useconds_t)round * 7000);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        cat = reload(dir, 1);
        attu_table *got = attu_catalog_lookup(cat, "t");
        cr_assert(!got->unavailable, "%s", got->unavailable_reason);
        assert_same(got->nrows == v1->nrows ? v1 : v2, got);
        attu_catalog_free(cat);
    }
    attu_table_free(v1);
    attu_table_free(v2);
    attu_table_free(n);
    rm_rf(dir);
    free(dir);
}

/* A commit of several relations (attu_storage_commit): a changed table,
 * a new one, a dropped one, the views file. */
static void commit_three(const char *dir, const attu_table *a2, const attu_table *c1, const attu_views *vs) {
    attu_error err;
    attu_error_clear(&err);
    attu_storage_commit *c = attu_storage_commit_new(dir);
    cr_assert_eq(attu_storage_commit_table(c, a2, NULL, NULL, 0, NULL, 0, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_eq(attu_storage_commit_table(c, c1, NULL, NULL, 0, NULL, 0, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_eq(attu_storage_commit_drop(c, "b", &err), 0);
    cr_assert_eq(attu_storage_commit_views(c, vs, &err), 0, "%s", err.message);
    cr_assert_eq(attu_storage_commit_apply(c, &err), 0, "%s", err.message);
    attu_storage_commit_free(c);
}

typedef struct commit_job { const char *dir; const attu_table *a2, *c1; const attu_views *vs; } commit_job;

static void commit_job_run(void *arg) {
    commit_job *j = arg;
    commit_three(j->dir, j->a2, j->c1, j->vs);
}

static void kill_mid_commit(const char *dir, const attu_table *a2, const attu_table *c1, const attu_views *vs,
                            const char *stage) {
    commit_job j = {dir, a2, c1, vs};
    kill_at(stage, commit_job_run, &j);
}

/* A transaction's COMMIT (db/db_txn.c) is all or nothing across its
 * relations: killed before its record, every relation is as it was; killed
 * right after it, the next start finishes it. */
Test(storage, sigkill_mid_commit_is_all_or_nothing) {
    char *dir = tmp_dir();
    attu_error err;
    attu_error_clear(&err);
    attu_table *a1 = sample("a", 1, 300), *a2 = sample("a", 2, 500), *b1 = sample("b", 1, 20),
               *c1 = sample("c", 3, 40);
    cr_assert_eq(attu_storage_save_table(dir, a1, &err), 0, "%s", err.message);
    cr_assert_eq(attu_storage_save_table(dir, b1, &err), 0, "%s", err.message);
    attu_views *vs = attu_views_new();
    const char *cols[] = { "one" };
    attu_type ty = attu_type_make(ATTU_TYPE_INT32);
    attu_view *v = attu_view_new("v", "SELECT 1 AS one", 1, cols, &ty, 0, NULL), *old;
    cr_assert_eq(attu_views_put(vs, v, &old), 0);

    kill_mid_commit(dir, a2, c1, vs, "files-written");
    attu_catalog *cat = reload(dir, 2);
    assert_same(a1, attu_catalog_lookup(cat, "a"));
    assert_same(b1, attu_catalog_lookup(cat, "b"));
    cr_assert_null(attu_catalog_lookup(cat, "c"));
    cr_assert_eq(attu_storage_load_views(dir, cat, &err), 0, "%s", err.message);
    cr_assert_null(attu_views_find(attu_catalog_views(cat), "v"));
    attu_catalog_free(cat);

    kill_mid_commit(dir, a2, c1, vs, "committed");
    cat = reload(dir, 2);
    assert_same(a2, attu_catalog_lookup(cat, "a"));
    assert_same(c1, attu_catalog_lookup(cat, "c"));
    cr_assert_null(attu_catalog_lookup(cat, "b"));
    cr_assert_eq(attu_storage_load_views(dir, cat, &err), 0, "%s", err.message);
    cr_assert_not_null(attu_views_find(attu_catalog_views(cat), "v"));
    attu_catalog_free(cat);
    DIR *d = opendir(dir);
    for (struct dirent *e; (e = readdir(d));)
        cr_assert(e->d_name[0] != '.' || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."), "leftover %s",
                  e->d_name);
    closedir(d);
    struct stat st;
    char rec[512];
    snprintf(rec, sizeof rec, "%s/attu.commit", dir);
    cr_assert_neq(stat(rec, &st), 0, "the record is gone once finished");

    /* and an uninterrupted commit after it */
    attu_table *a3 = sample("a", 3, 100);
    attu_storage_commit *c = attu_storage_commit_new(dir);
    cr_assert_eq(attu_storage_commit_table(c, a3, NULL, NULL, 0, NULL, 0, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_eq(attu_storage_commit_drop(c, "c", &err), 0);
    cr_assert_eq(attu_storage_commit_apply(c, &err), 0, "%s", err.message);
    attu_storage_commit_free(c);
    cat = reload(dir, 1);
    assert_same(a3, attu_catalog_lookup(cat, "a"));
    attu_catalog_free(cat);
    attu_views_free(vs);
    attu_table_free(a1);
    attu_table_free(a2);
    attu_table_free(a3);
    attu_table_free(b1);
    attu_table_free(c1);
    rm_rf(dir);
    free(dir);
}

Test(storage, corruption_is_reported_by_file_name) {
    char *dir = tmp_dir();
    attu_error err;
    attu_error_clear(&err);
    attu_table *a = sample("a", 1, 200), *b = sample("b", 2, 200), *c = sample("c", 3, 50);
    attu_table *d = sample("d", 4, 50);
    cr_assert_eq(attu_storage_save_table(dir, a, &err), 0);
    cr_assert_eq(attu_storage_save_table(dir, b, &err), 0);
    cr_assert_eq(attu_storage_save_table(dir, c, &err), 0);
    cr_assert_eq(attu_storage_save_table(dir, d, &err), 0);
    char path[512];
    /* a: one flipped bit in a column's values. */
    snprintf(path, sizeof path, "%s/a/g1/c4.values", dir);
    flip_byte(path, 100);
    /* c: a truncated dictionary. */
    snprintf(path, sizeof path, "%s/c/g1/c6.dict", dir);
    cr_assert_eq(truncate(path, 40), 0);
    /* d: a damaged schema. */
    char spath[512];
    snprintf(spath, sizeof spath, "%s/d/g1/schema", dir);
    flip_byte(spath, 20);

    attu_catalog *cat = reload(dir, 4);
    attu_table *ga = attu_catalog_lookup(cat, "a");
    cr_assert(ga->unavailable);
    char want[600];
    snprintf(want, sizeof want,
             "table \"a\" is unavailable: file \"%s/a/g1/c4.values\" is corrupt (checksum mismatch)", dir);
    cr_assert_str_eq(ga->unavailable_reason, want);
    cr_assert_eq(ga->nrows, 0, "no wrong data is kept");
    cr_assert_eq(ga->ncols, 9, "the schema is still known");
    assert_same(b, attu_catalog_lookup(cat, "b"));
    attu_table *gc = attu_catalog_lookup(cat, "c");
    cr_assert(gc->unavailable);
    cr_assert(strstr(gc->unavailable_reason, "c6.dict") != NULL, "%s", gc->unavailable_reason);
    attu_table *gd = attu_catalog_lookup(cat, "d");
    cr_assert(gd->unavailable);
    snprintf(want, sizeof want,
             "table \"d\" is unavailable: file \"%s\" is corrupt (checksum mismatch)", spath);
    cr_assert_str_eq(gd->unavailable_reason, want);
    /* An unavailable table refuses loads and saves with XX001. */
    attu_csv_options o;
    attu_csv_options_default(&o);
    attu_error_clear(&err);
    cr_assert_null(load_str(ga, &o, "1\n", &err));
    cr_assert_str_eq(err.sqlstate, "XX001");
    attu_error_clear(&err);
    cr_assert_neq(attu_storage_save_table(dir, ga, &err), 0);
    cr_assert_str_eq(err.sqlstate, "XX001");
    attu_catalog_free(cat);
    attu_table_free(a);
    attu_table_free(b);
    attu_table_free(c);
    attu_table_free(d);
    rm_rf(dir);
    free(dir);
}

Test(storage, lock_excludes_a_second_process) {
    char *dir = tmp_dir();
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_storage_open(dir, &err), 0, "%s", err.message);
    cr_assert_eq(attu_storage_open(dir, &err), 0, "same process may reopen");
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        attu_error e;
        attu_error_clear(&e);
        int rc = attu_storage_open(dir, &e);
        if (write(fds[1], e.message, strlen(e.message) + 1) < 0) _exit(9);
        _exit(rc == 0 ? 0 : 1);
    }
    close(fds[1]);
    char msg[600] = "";
    cr_assert_gt(read(fds[0], msg, sizeof msg - 1), 0);
    int status;
    waitpid(pid, &status, 0);
    cr_assert_eq(WEXITSTATUS(status), 1, "second process must be refused");
    char want[600];
    snprintf(want, sizeof want,
             "data directory \"%s\" is in use by another attu process (pid %ld)", dir,
             (long)getpid());
    cr_assert_str_eq(msg, want);
    /* After close, another process may take it. */
    attu_storage_close(dir);
    pid = fork();
    if (pid == 0) _exit(attu_storage_open(dir, NULL) == 0 ? 0 : 1);
    waitpid(pid, &status, 0);
    cr_assert_eq(WEXITSTATUS(status), 0);
    rm_rf(dir);
    free(dir);
}
