/* Tests for engine/storage.c's append commits (and storage_tail.c): a
 * version that only appended rows to the stored one is committed as a
 * tail of its new rows; chains, their compaction, the clean-up of
 * generations, damage caught at start, and crashes (fork + SIGKILL at
 * each stage of a save or a commit) leaving the old rows or the new ones,
 * never a part. */
#include "csv_test_util.h"
#include "storage_test_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "engine/checksum.h"
#include "engine/storage.h"

static char *tmp_dir(void) { return storage_tmp_dir("attu_append"); }

static bool exists(const char *dir, const char *rel) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    struct stat st;
    return stat(path, &st) == 0;
}

/* The generation folders (g<N>) of table folder dir/name. */
static int count_generations(const char *dir, const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    DIR *d = opendir(path);
    cr_assert_not_null(d, "%s", path);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] == 'g';
    closedir(d);
    return n;
}

static unsigned long current_gen(const char *dir, const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s/CURRENT", dir, name);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    unsigned long g = 0;
    cr_assert_eq(fscanf(f, "g%lu", &g), 1);
    fclose(f);
    return g;
}

/* Whether the current generation of dir/name is a tail (no column files
 * of its own). */
static bool current_is_tail(const char *dir, const char *name) {
    char rel[256];
    unsigned long g = current_gen(dir, name);
    snprintf(rel, sizeof rel, "%s/g%lu/c0.values", name, g);
    return !exists(dir, rel);
}

/* The "tail" lines of the current generation's schema of dir/name. */
static int count_tails(const char *dir, const char *name) {
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/%s/g%lu/schema", dir, name, current_gen(dir, name));
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    int n = 0;
    while (fgets(line, sizeof line, f)) n += strncmp(line, "tail ", 5) == 0;
    fclose(f);
    return n;
}

/* Every type the column files hold differently (1, 4, 8 and 16-byte
 * slots, dictionary codes, validity), NULLs in most. */
static attu_table *base_table(const char *name) {
    attu_table *t = schema_table(name, "b:bool,i:int,g:bigint,r:real,d:double,n:num(9.3),s:text,dt:date,ts:ts,k:int!");
    /* and a NUMERIC (16-byte slots) */
    attu_column_def defs[16];
    for (int i = 0; i < t->ncols; i++) defs[i] = t->defs[i];
    memset(&defs[t->ncols], 0, sizeof defs[0]);
    snprintf(defs[t->ncols].name, sizeof defs[0].name, "nu");
    defs[t->ncols].type = attu_type_make(ATTU_TYPE_NUMERIC);
    attu_table *u = attu_table_new(name, t->ncols + 1, defs, NULL);
    cr_assert_not_null(u);
    attu_table_free(t);
    return u;
}

/* Rows [from, from + n) of the test's data: strings that sort before,
 * among and after the others (so an append renumbers old codes), a string
 * an earlier row holds, NULLs in every nullable column now and then. */
static char *rows_text(size_t from, size_t n) {
    size_t cap = n * 200 + 16, len = 0;
    char *text = malloc(cap);
    text[0] = '\0';
    for (size_t r = from; r < from + n; r++) {
        bool nul = r % 7 == 3;
        char s[64];
        if (r % 5 == 0) snprintf(s, sizeof s, "same");
        else snprintf(s, sizeof s, "%c%zu", (char)('a' + (r * 7919) % 26), r);
        if (nul)
            len += (size_t)snprintf(text + len, cap - len, ",,,,,,,,,%zu,\n", r);
        else
            len += (size_t)snprintf(text + len, cap - len,
                                    "%s,%zu,%lld,%zu.5,%zu.125,%zu.%03zu,%s,2020-01-%02zu,2021-02-03 04:05:%02zu,%zu,"
                                    "%zu123456789012345678901234567890.%zu\n",
                                    r % 2 ? "t" : "f", r * 3, -(long long)r * 1000000007LL, r % 100, r, r % 1000,
                                    r % 997, s, 1 + r % 28, r % 60, r, r, r % 10);
    }
    return text;
}

/* t with rows [t->nrows, t->nrows + n) appended (a COPY's new version):
 * its lineage names t. */
static attu_table *append(const attu_table *t, size_t n) {
    char *text = rows_text(t->nrows, n);
    attu_csv_options o;
    attu_csv_options_default(&o);
    attu_error err;
    attu_table *a = load_str(t, &o, text, &err);
    cr_assert_not_null(a, "%s", err.message);
    free(text);
    return a;
}

/* A table of base_table's columns with the test's first n rows. */
static attu_table *fresh(const char *name, size_t n) {
    attu_table *e = base_table(name), *t = append(e, n);
    attu_table_free(e);
    /* (the row a test's data starts with, as the columns read it) */
    cr_assert_str_eq(cell(t, 10, 1), "1123456789012345678901234567890.1");
    cr_assert_str_eq(cell(t, 6, 1), "p1");
    cr_assert_str_eq(cell(t, 5, 1), "1.001");
    return t;
}

static void assert_same_rows(const attu_table *want, const attu_table *got, size_t nrows) {
    cr_assert(!got->unavailable, "%s", got->unavailable_reason);
    cr_assert_eq(got->ncols, want->ncols);
    cr_assert_eq(got->nrows, nrows);
    for (int c = 0; c < want->ncols; c++) {
        cr_assert_str_eq(want->defs[c].name, got->defs[c].name);
        for (size_t r = 0; r < nrows; r++)
            cr_assert_str_eq(cell(want, c, r), cell(got, c, r), "col %d row %zu", c, r);
        if (got->cols[c]->validity)   /* the bitmap's invariant: bits past the rows are 1 */
            for (size_t r = nrows; r < (nrows + 63) / 64 * 64; r++)
                cr_assert(!attu_column_is_null(got->cols[c], r), "col %d padding bit %zu", c, r);
    }
}

static attu_table *reload_one(const char *dir, const char *name, attu_catalog **cat_out) {
    attu_catalog *cat = attu_catalog_new();
    attu_error err;
    attu_error_clear(&err);
    int n = attu_storage_load_all(dir, cat, &err);
    cr_assert_geq(n, 1, "%s", err.message);
    attu_table *t = attu_catalog_lookup(cat, name);
    cr_assert_not_null(t);
    *cat_out = cat;
    return t;
}

static void save(const char *dir, const attu_table *t) {
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_storage_save_table(dir, t, &err), 0, "%s", err.message);
}

Test(storage_append, appends_write_only_the_new_rows_and_read_back) {
    char *dir = tmp_dir();
    attu_table *t0 = fresh("t", 1000);
    save(dir, t0);
    cr_assert(!current_is_tail(dir, "t"), "a first save is whole");
    attu_table *t1 = append(t0, 3);
    save(dir, t1);
    cr_assert(current_is_tail(dir, "t"), "an append writes a tail");
    cr_assert(exists(dir, "t/g2/tail"));
    cr_assert(exists(dir, "t/g1/c0.values"), "the base stays");
    attu_catalog *cat;
    attu_table *got = reload_one(dir, "t", &cat);
    assert_same_rows(t1, got, t1->nrows);

    /* a version appended to the loaded one: a tail again */
    attu_table *t2 = append(got, 40);
    save(dir, t2);
    cr_assert(current_is_tail(dir, "t"));
    attu_catalog *cat2;
    attu_table *got2 = reload_one(dir, "t", &cat2);
    assert_same_rows(t2, got2, t2->nrows);
    /* and one built on t2 in this process without a reload */
    attu_table *t3 = append(t2, 1);
    save(dir, t3);
    attu_catalog *cat3;
    assert_same_rows(t3, reload_one(dir, "t", &cat3), t3->nrows);
    cr_assert_eq(count_generations(dir, "t"), 4, "base and three tails");

    /* the same version saved again (its constraints changed, say): a
     * schema of its own, reading the same files */
    save(dir, t3);
    cr_assert(current_is_tail(dir, "t"));
    attu_catalog_free(cat3);
    assert_same_rows(t3, reload_one(dir, "t", &cat3), t3->nrows);

    /* a version whose rows changed (no lineage): whole, older ones go */
    attu_table *w = attu_table_clone(t3, NULL);
    save(dir, w);
    cr_assert(!current_is_tail(dir, "t"));
    cr_assert_eq(count_generations(dir, "t"), 1);
    attu_table_free(w);

    attu_catalog_free(cat);
    attu_catalog_free(cat2);
    attu_catalog_free(cat3);
    attu_table_free(t0);
    attu_table_free(t1);
    attu_table_free(t2);
    attu_table_free(t3);
    rm_rf(dir);
    free(dir);
}

Test(storage_append, chains_stay_short_and_compact) {
    char *dir = tmp_dir();
    attu_table *t = fresh("c", 2000);
    save(dir, t);
    /* 40 one-row commits: at most 16 tails, then one tail of them all */
    for (int k = 0; k < 40; k++) {
        attu_table *n = append(t, 1);
        attu_table_free(t);
        t = n;
        save(dir, t);
        cr_assert(current_is_tail(dir, "c"), "commit %d", k);
        cr_assert_leq(count_generations(dir, "c"), 17, "commit %d: %d generations", k, count_generations(dir, "c"));
        /* tails 1..16, then the 17th commit one tail of all 17 rows, and
         * so on (the 33rd one of all 33) */
        cr_assert_eq(count_tails(dir, "c"), k % 16 + 1, "commit %d", k);
        if (k % 13 == 0 || k == 15 || k == 16 || k == 39) {
            attu_catalog *cat;
            assert_same_rows(t, reload_one(dir, "c", &cat), t->nrows);
            attu_catalog_free(cat);
        }
    }
    /* tails past 1/8 of the rows: written whole again */
    attu_table *big = append(t, 400);
    save(dir, big);
    cr_assert(!current_is_tail(dir, "c"), "compacted");
    cr_assert_eq(count_generations(dir, "c"), 1, "every older generation removed");
    attu_catalog *cat;
    assert_same_rows(big, reload_one(dir, "c", &cat), big->nrows);
    attu_catalog_free(cat);
    /* and appends go on from the compacted base */
    attu_table *after = append(big, 5);
    save(dir, after);
    cr_assert(current_is_tail(dir, "c"));
    assert_same_rows(after, reload_one(dir, "c", &cat), after->nrows);
    attu_catalog_free(cat);
    attu_table_free(after);
    attu_table_free(big);
    attu_table_free(t);
    rm_rf(dir);
    free(dir);
}

/* A NULL-free base (no validity file) whose tail has NULLs, and a TEXT
 * column whose base is empty of strings (no dictionary file). */
Test(storage_append, validity_and_dictionary_start_in_a_tail) {
    char *dir = tmp_dir();
    attu_table *e = schema_table("v", "i:int,s:text");
    attu_csv_options o;
    attu_csv_options_default(&o);
    attu_error err;
    char text[64 * 100] = "", *p = text;
    for (int r = 0; r < 100; r++) p += sprintf(p, "%d,\n", r);   /* s all NULL: no strings */
    attu_table *t0 = load_str(e, &o, text, &err);
    cr_assert_not_null(t0, "%s", err.message);
    for (int r = 0; r < 100; r++) cr_assert(attu_column_is_null(t0->cols[1], (size_t)r));
    save(dir, t0);
    attu_table *t1 = load_str(t0, &o, ",zz\n7,aa\n,\n8,mm\n", &err);
    cr_assert_not_null(t1, "%s", err.message);
    save(dir, t1);
    cr_assert(current_is_tail(dir, "v"));
    attu_catalog *cat;
    assert_same_rows(t1, reload_one(dir, "v", &cat), t1->nrows);
    attu_catalog_free(cat);
    attu_table_free(e);
    attu_table_free(t0);
    attu_table_free(t1);
    rm_rf(dir);
    free(dir);
}

Test(storage_append, commit_of_several_tables_appends_each) {
    char *dir = tmp_dir();
    attu_table *a0 = fresh("a", 500), *b0 = fresh("b", 300);
    save(dir, a0);
    save(dir, b0);
    attu_table *a1 = append(a0, 2), *b1 = append(b0, 30);
    attu_error err;
    attu_error_clear(&err);
    attu_storage_commit *c = attu_storage_commit_new(dir);
    cr_assert_eq(attu_storage_commit_table(c, a1, NULL, NULL, 0, NULL, 0, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_eq(attu_storage_commit_table(c, b1, NULL, NULL, 0, NULL, 0, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_eq(attu_storage_commit_apply(c, &err), 0, "%s", err.message);
    attu_storage_commit_free(c);
    cr_assert(current_is_tail(dir, "a"));
    cr_assert(current_is_tail(dir, "b"));
    attu_catalog *cat;
    assert_same_rows(a1, reload_one(dir, "a", &cat), a1->nrows);
    assert_same_rows(b1, attu_catalog_lookup(cat, "b"), b1->nrows);
    attu_catalog_free(cat);
    attu_table_free(a0); attu_table_free(b0); attu_table_free(a1); attu_table_free(b1);
    rm_rf(dir);
    free(dir);
}

/* A data directory written before append commits (its schema has no
 * "uid" line) loads as it did, and the first commit of an append to it
 * writes the table whole (nothing says the stored rows are the version's
 * ancestor's); the next one is a tail. */
Test(storage_append, a_schema_without_a_uid_is_written_whole_once) {
    char *dir = tmp_dir();
    attu_table *t0 = fresh("t", 200);
    save(dir, t0);
    char path[512];
    snprintf(path, sizeof path, "%s/t/g1/schema", dir);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    char text[8192], line[1024];
    size_t n = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "uid ", 4) && strncmp(line, "crc32c ", 7)) n += (size_t)snprintf(text + n, sizeof text - n, "%s", line);
    fclose(f);
    n += (size_t)snprintf(text + n, sizeof text - n, "crc32c %08x\n", attu_crc32c(0, text, n));
    f = fopen(path, "w");
    cr_assert_eq(fwrite(text, 1, n, f), n);
    fclose(f);
    attu_catalog *cat;
    attu_table *got = reload_one(dir, "t", &cat);
    assert_same_rows(t0, got, t0->nrows);
    attu_table *t1 = append(got, 3);
    save(dir, t1);
    cr_assert(!current_is_tail(dir, "t"), "no uid on disk: whole");
    attu_table *t2 = append(t1, 3);
    save(dir, t2);
    cr_assert(current_is_tail(dir, "t"), "then a tail");
    attu_catalog *cat2;
    assert_same_rows(t2, reload_one(dir, "t", &cat2), t2->nrows);
    attu_catalog_free(cat);
    attu_catalog_free(cat2);
    attu_table_free(t0); attu_table_free(t1); attu_table_free(t2);
    rm_rf(dir);
    free(dir);
}

Test(storage_append, a_torn_or_damaged_tail_is_caught_at_start) {
    char *dir = tmp_dir();
    attu_table *t0 = fresh("t", 300), *t1 = append(t0, 20), *t2 = append(t1, 20);
    save(dir, t0);
    save(dir, t1);
    save(dir, t2);
    char path[512], want[700];
    /* a torn tail (a committed one cut short: the disk lost its end) */
    snprintf(path, sizeof path, "%s/t/g2/tail", dir);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(truncate(path, st.st_size - 9), 0);
    attu_catalog *cat;
    attu_table *got = reload_one(dir, "t", &cat);
    cr_assert(got->unavailable);
    snprintf(want, sizeof want,
             "table \"t\" is unavailable: file \"%s\" is corrupt (file length does not match its header)", path);
    cr_assert_str_eq(got->unavailable_reason, want);
    cr_assert_eq(got->nrows, 0, "no part of the rows is kept");
    attu_catalog_free(cat);
    /* the generations a damaged chain reads stay for whoever looks */
    cr_assert_eq(count_generations(dir, "t"), 3);
    /* a flipped bit in the newest tail */
    save(dir, t0);   /* (whole again: a fresh chain) */
    save(dir, t1);
    unsigned long g = current_gen(dir, "t");
    snprintf(path, sizeof path, "%s/t/g%lu/tail", dir, g);
    flip_byte(path, 40);
    got = reload_one(dir, "t", &cat);
    cr_assert(got->unavailable);
    snprintf(want, sizeof want, "table \"t\" is unavailable: file \"%s\" is corrupt (checksum mismatch)", path);
    cr_assert_str_eq(got->unavailable_reason, want);
    attu_catalog_free(cat);
    /* a tail gone */
    cr_assert_eq(unlink(path), 0);
    got = reload_one(dir, "t", &cat);
    cr_assert(got->unavailable);
    cr_assert(strstr(got->unavailable_reason, "file is missing"), "%s", got->unavailable_reason);
    attu_catalog_free(cat);
    attu_table_free(t0); attu_table_free(t1); attu_table_free(t2);
    rm_rf(dir);
    free(dir);
}

/* ---- crashes ------------------------------------------------------------------ */

typedef struct save_job { const char *dir; const attu_table *t, *u; } save_job;

static void save_one(void *arg) {
    save_job *j = arg;
    attu_storage_save_table(j->dir, j->t, NULL);
}

static void commit_two(void *arg) {
    save_job *j = arg;
    attu_storage_commit *c = attu_storage_commit_new(j->dir);
    attu_storage_commit_table(c, j->t, NULL, NULL, 0, NULL, 0, NULL, 0, NULL);
    attu_storage_commit_table(c, j->u, NULL, NULL, 0, NULL, 0, NULL, 0, NULL);
    attu_storage_commit_apply(c, NULL);
    attu_storage_commit_free(c);
}

Test(storage_append, sigkill_at_each_stage_leaves_old_or_new_rows) {
    char *dir = tmp_dir();
    attu_table *t0 = fresh("t", 400), *t1 = append(t0, 9);
    save(dir, t0);
    save(dir, t1);   /* (a chain already: the next append adds a tail) */
    attu_table *t2 = append(t1, 5);
    save_job j = { dir, t2, NULL };
    attu_catalog *cat;
    kill_at("files-written", save_one, &j);
    assert_same_rows(t1, reload_one(dir, "t", &cat), t1->nrows);
    attu_catalog_free(cat);
    cr_assert_eq(count_generations(dir, "t"), 2, "the uncommitted tail is gone");
    kill_at("committed", save_one, &j);
    assert_same_rows(t2, reload_one(dir, "t", &cat), t2->nrows);
    attu_catalog_free(cat);

    /* a commit of two tables' tails: both or neither */
    attu_table *u0 = fresh("u", 300);
    save(dir, u0);
    attu_table *t3 = append(t2, 3), *u1 = append(u0, 4);
    save_job two = { dir, t3, u1 };
    kill_at("files-written", commit_two, &two);
    assert_same_rows(t2, reload_one(dir, "t", &cat), t2->nrows);
    assert_same_rows(u0, attu_catalog_lookup(cat, "u"), u0->nrows);
    attu_catalog_free(cat);
    kill_at("committed", commit_two, &two);
    assert_same_rows(t3, reload_one(dir, "t", &cat), t3->nrows);
    assert_same_rows(u1, attu_catalog_lookup(cat, "u"), u1->nrows);
    attu_catalog_free(cat);
    attu_table_free(t0); attu_table_free(t1); attu_table_free(t2); attu_table_free(t3);
    attu_table_free(u0); attu_table_free(u1);
    rm_rf(dir);
    free(dir);
}

/* Kills at arbitrary moments of a loop of one-row append commits (with
 * the compactions that come with them): what a start finds is always the
 * rows of some commit, whole. */
Test(storage_append, sigkill_anywhere_in_an_append_loop) {
    char *dir = tmp_dir();
    attu_table *t = fresh("t", 600);
    save(dir, t);
    /* the child's versions, built here too: t_k has 600 + k rows */
    attu_table *all = append(t, 1200);
    for (int round = 0; round < 6; round++) {
        pid_t pid = fork();
        cr_assert_geq(pid, 0);
        if (pid == 0) {
            attu_catalog *cat;
            attu_table *cur = reload_one(dir, "t", &cat);
            attu_table *v = attu_table_share(cur);
            for (int k = 0; k < 60; k++) {
                attu_table *n = append(v, 1 + (size_t)(k % 3));
                attu_table_free(v);
                v = n;
                if (attu_storage_save_table(dir, v, NULL)) _exit(4);
            }
            _exit(0);
        }
        usleep(20000 + (useconds_t)round * 15000);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        attu_catalog *cat;
        attu_table *got = reload_one(dir, "t", &cat);
        cr_assert(!got->unavailable, "%s", got->unavailable_reason);
        cr_assert_leq(got->nrows, all->nrows);
        assert_same_rows(all, got, got->nrows);
        attu_catalog_free(cat);
    }
    attu_table_free(all);
    attu_table_free(t);
    rm_rf(dir);
    free(dir);
}
