/*
 * storage_commit.c - a transaction's COMMIT of several relations made
 * atomic by a commit record (storage.h, attu_storage_commit).
 *
 * Staging writes everything that takes time and can fail: a table's new
 * generation in its folder (CURRENT still names the old one), a new
 * table's folder under a dot-prefixed temporary name, a catalog file
 * (attu.views, attu.comments, attu.indexes) as <name>.next. None of it is seen: a start
 * removes dot-prefixed folders, generations CURRENT does not name, and
 * the .next files. The record, <data-dir>/attu.commit (written whole and
 * atomically by attu_storage_write_catalog_file, checksummed), lists one
 * step a line:
 *
 *   gen  <folder> <N>      make generation N the table's current one
 *   new  <tmp> <folder>    rename the staged folder into place
 *   drop <folder>          remove the table's folder
 *   file <from> <to>       rename a staged catalog file over the current one
 *
 * Each step is idempotent (done again after a crash, it finds its work
 * done and does nothing), so the start that finds a record runs every step
 * and removes the record: the commit happened whole. Without a record,
 * nothing of it happened. A commit of one step (most statements outside a
 * block change one table) needs no record: its rename is atomic by itself.
 */
#define _GNU_SOURCE
#include "engine/storage.h"
#include "engine/storage_file.h"
#include "engine/storage_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define COMMIT_FILE "attu.commit"
#define COMMIT_HEADER "attu-commit 1"

struct attu_storage_commit {
    char       *data_dir;
    attu_strbuf steps;     /* the record's lines */
    attu_strbuf undo;      /* what staging wrote, one path a line (removed when not applied) */
    int         nsteps;
    bool        applied;
};

static int io_error(attu_error *err, const char *what, const char *path) {
    return attu_error_set(err, ATTU_SQLSTATE_IO_ERROR, 0, "could not %s \"%s\": %s", what, path, strerror(errno));
}

static bool exists(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0;
}

attu_storage_commit *attu_storage_commit_new(const char *data_dir) {
    attu_storage_commit *c = calloc(1, sizeof *c);
    if (c && !(c->data_dir = strdup(data_dir))) { free(c); return NULL; }
    return c;
}

static void step(attu_storage_commit *c, const char *kind, const char *a, const char *b) {
    c->nsteps++;
    attu_strbuf_puts(&c->steps, kind);
    attu_strbuf_putc(&c->steps, ' ');
    attu_storage_put_word(&c->steps, a);
    if (b) {
        attu_strbuf_putc(&c->steps, ' ');
        attu_storage_put_word(&c->steps, b);
    }
    attu_strbuf_putc(&c->steps, '\n');
}

static void staged(attu_storage_commit *c, const char *path) {
    attu_storage_put_word(&c->undo, path);
    attu_strbuf_putc(&c->undo, '\n');
}

int attu_storage_commit_table(attu_storage_commit *c, const attu_table *t, const char *const *defaults,
                              const attu_unique *uniques, int nuniques, const attu_check *checks, int nchecks,
                              const attu_fkey *fkeys, int nfkeys, attu_error *err) {
    if (t->unavailable) return attu_error_set(err, ATTU_SQLSTATE_DATA_CORRUPTED, 0, "%s", t->unavailable_reason);
    char ename[ATTU_NAME_MAX * 3 + 4], tdir[PATH_MAX], gdir[PATH_MAX + 32];
    storage_escape_name(t->name, ename, sizeof ename);
    snprintf(tdir, sizeof tdir, "%s/%s", c->data_dir, ename);
    unsigned long cur = exists(tdir) ? storage_read_current(tdir) : 0;
    if (cur > 0) {
        /* the next generation beside the current one */
        char gen[32];
        snprintf(gen, sizeof gen, "%lu", cur + 1);
        snprintf(gdir, sizeof gdir, "%s/g%lu", tdir, cur + 1);
        storage_remove_tree(gdir);   /* (a leftover of an interrupted save) */
        staged(c, gdir);
        /* (only the rows added, when t appended to the current version) */
        if (storage_write_next_generation(tdir, cur, cur + 1, t, defaults, uniques, nuniques, checks, nchecks, fkeys,
                                          nfkeys, err) ||
            storage_fsync_path(tdir, err))
            return -1;
        step(c, "gen", ename, gen);
        return 0;
    }
    /* a new table: complete under a temporary name, renamed at apply */
    char tmpname[PATH_MAX], tmp[PATH_MAX + 2];
    snprintf(tmpname, sizeof tmpname, ".tmp-%s-%ld-%lu", ename, (long)getpid(), storage_next_counter());
    snprintf(tmp, sizeof tmp, "%s/%s", c->data_dir, tmpname);
    storage_remove_tree(tmp);
    staged(c, tmp);
    if (mkdir(tmp, 0755) != 0) return io_error(err, "create directory", tmp);
    snprintf(gdir, sizeof gdir, "%s/g1", tmp);
    if (storage_write_generation(gdir, t, defaults, uniques, nuniques, checks, nchecks, fkeys, nfkeys, err) ||
        storage_commit_current(tmp, 1, err))
        return -1;
    step(c, "new", tmpname, ename);
    return 0;
}

int attu_storage_commit_drop(attu_storage_commit *c, const char *name, attu_error *err) {
    (void)err;
    char ename[ATTU_NAME_MAX * 3 + 4], tdir[PATH_MAX];
    storage_escape_name(name, ename, sizeof ename);
    snprintf(tdir, sizeof tdir, "%s/%s", c->data_dir, ename);
    if (exists(tdir)) step(c, "drop", ename, NULL);
    return 0;
}

int attu_storage_commit_views(attu_storage_commit *c, const attu_views *views, attu_error *err) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/attu.views.next", c->data_dir);
    staged(c, path);
    if (attu_storage_save_views_as(c->data_dir, views, "attu.views.next", err)) return -1;
    step(c, "file", "attu.views.next", "attu.views");
    return 0;
}

int attu_storage_commit_comments(attu_storage_commit *c, const attu_comments *cs, attu_error *err) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/attu.comments.next", c->data_dir);
    staged(c, path);
    if (attu_storage_save_comments_as(c->data_dir, cs, "attu.comments.next", err)) return -1;
    step(c, "file", "attu.comments.next", "attu.comments");
    return 0;
}

int attu_storage_commit_indexes(attu_storage_commit *c, const attu_catalog *cat, attu_error *err) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/attu.indexes.next", c->data_dir);
    staged(c, path);
    if (attu_storage_save_indexes_as(c->data_dir, cat, "attu.indexes.next", err)) return -1;
    step(c, "file", "attu.indexes.next", "attu.indexes");
    return 0;
}

int attu_storage_commit_file(attu_storage_commit *c, const char *from, const char *to, attu_error *err) {
    (void)err;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", c->data_dir, from);
    staged(c, path);
    step(c, "file", from, to);
    return 0;
}

/* Runs one step of a record (words already split), again if need be. */
static int run_step(const char *data_dir, char **w, int n, attu_error *err) {
    char a[PATH_MAX], b[PATH_MAX + 64];
    if (n == 3 && !strcmp(w[0], "gen")) {
        snprintf(a, sizeof a, "%s/%s", data_dir, w[1]);
        unsigned long gen = strtoul(w[2], NULL, 10);
        snprintf(b, sizeof b, "%s/g%lu", a, gen);
        if (storage_read_current(a) != gen && exists(b) && storage_commit_current(a, gen, err)) return -1;
        return 0;
    }
    if (n == 3 && !strcmp(w[0], "new")) {
        snprintf(a, sizeof a, "%s/%s", data_dir, w[1]);
        snprintf(b, sizeof b, "%s/%s", data_dir, w[2]);
        if (!exists(a)) return 0;   /* renamed already */
        storage_remove_tree(b);      /* (a folder without CURRENT: never committed) */
        if (rename(a, b) != 0) return io_error(err, "rename", a);
        return 0;
    }
    if (n == 2 && !strcmp(w[0], "drop")) {
        snprintf(a, sizeof a, "%s/%s", data_dir, w[1]);
        if (!exists(a)) return 0;
        snprintf(b, sizeof b, "%s/.drop-%s-%ld-%lu", data_dir, w[1], (long)getpid(), storage_next_counter());
        if (rename(a, b) != 0) return io_error(err, "rename", a);
        storage_remove_tree(b);
        return 0;
    }
    if (n == 3 && !strcmp(w[0], "file")) {
        snprintf(a, sizeof a, "%s/%s", data_dir, w[1]);
        snprintf(b, sizeof b, "%s/%s", data_dir, w[2]);
        if (exists(a) && rename(a, b) != 0) return io_error(err, "rename", a);
        return 0;
    }
    return attu_error_set(err, ATTU_SQLSTATE_DATA_CORRUPTED, 0, "commit record \"%s/%s\" is damaged: malformed line",
                          data_dir, COMMIT_FILE);
}

/* Runs every step of the record text (its lines after the header), then
 * cleans up after them: the tables' older generations. */
static int run_record(const char *data_dir, char *text, attu_error *err) {
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    if (!line || strcmp(line, COMMIT_HEADER))
        return attu_error_set(err, ATTU_SQLSTATE_DATA_CORRUPTED, 0, "commit record \"%s/%s\" is damaged",
                              data_dir, COMMIT_FILE);
    int rc = 0;
    char *lines[4096];   /* (kept for the clean-up pass below) */
    int nl = 0;
    while (!rc && (line = strtok_r(NULL, "\n", &save))) {
        char copy[PATH_MAX * 2];
        snprintf(copy, sizeof copy, "%s", line);
        char *w[4], *ws = NULL;
        int n = 0;
        for (char *p = strtok_r(copy, " ", &ws); p && n < 4; p = strtok_r(NULL, " ", &ws))
            w[n++] = attu_storage_unescape_word(p);
        rc = run_step(data_dir, w, n, err);
        if (nl < (int)(sizeof lines / sizeof *lines)) lines[nl++] = line;
    }
    if (rc) return -1;
    if (storage_fsync_path(data_dir, err)) return -1;
    for (int i = 0; i < nl; i++) {
        char *w[4], *ws = NULL;
        int n = 0;
        for (char *p = strtok_r(lines[i], " ", &ws); p && n < 4; p = strtok_r(NULL, " ", &ws))
            w[n++] = attu_storage_unescape_word(p);
        if (n == 3 && !strcmp(w[0], "gen")) {
            char tdir[PATH_MAX], keep[40];
            snprintf(tdir, sizeof tdir, "%s/%s", data_dir, w[1]);
            snprintf(keep, sizeof keep, "g%s", w[2]);
            storage_remove_other_generations(tdir, keep);
        }
    }
    return 0;
}

static int remove_record(const char *data_dir, attu_error *err) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", data_dir, COMMIT_FILE);
    if (unlink(path) != 0 && errno != ENOENT) return io_error(err, "remove", path);
    return storage_fsync_path(data_dir, err);
}

/* Finishes the commit a record on disk names, if any. */
static int finish_record(const char *data_dir, attu_error *err) {
    attu_strbuf b = { 0 };
    int got = attu_storage_read_catalog_file(data_dir, COMMIT_FILE, "commit record", &b, err);
    if (got == 0) {
        if (run_record(data_dir, b.p, err)) got = -1;
        else got = remove_record(data_dir, err);
    }
    free(b.p);
    return got < 0 ? -1 : 0;
}

int attu_storage_recover(const char *data_dir, attu_error *err) {
    if (finish_record(data_dir, err)) return -1;
    /* staged catalog files of a commit that never wrote its record */
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/attu.views.next", data_dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/attu.comments.next", data_dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/attu.indexes.next", data_dir);
    unlink(path);
    return 0;
}

int attu_storage_commit_apply(attu_storage_commit *c, attu_error *err) {
    /* a record an earlier commit could not finish is finished first: the
     * new record takes its name */
    if (finish_record(c->data_dir, err)) return -1;
    if (c->steps.oom || c->undo.oom) return attu_error_oom(err);
    if (!c->steps.n) return 0;
    storage_hook("files-written");
    if (c->nsteps == 1) {
        /* one step is atomic by itself (a rename): no record needed */
        attu_strbuf text = { 0 };
        attu_strbuf_puts(&text, COMMIT_HEADER "\n");
        attu_strbuf_add(&text, c->steps.p, c->steps.n);
        int rc = text.oom ? attu_error_oom(err) : run_record(c->data_dir, text.p, err);
        free(text.p);
        if (rc) return -1;
        c->applied = true;
        storage_hook("committed");
        return 0;
    }
    attu_strbuf rec = { 0 };
    attu_strbuf_puts(&rec, COMMIT_HEADER "\n");
    attu_strbuf_add(&rec, c->steps.p, c->steps.n);
    int rc = attu_storage_write_catalog_file(c->data_dir, COMMIT_FILE, &rec, err);
    free(rec.p);
    if (rc) return -1;
    /* decided: what follows is finished at the next start should it fail */
    c->applied = true;
    storage_hook("committed");
    attu_strbuf text = { 0 };
    attu_strbuf_puts(&text, COMMIT_HEADER "\n");
    attu_strbuf_add(&text, c->steps.p, c->steps.n);
    attu_error e2;
    attu_error_clear(&e2);
    if (!text.oom && !run_record(c->data_dir, text.p, &e2)) remove_record(c->data_dir, &e2);
    free(text.p);
    return 0;
}

void attu_storage_commit_free(attu_storage_commit *c) {
    if (!c) return;
    if (!c->applied && c->undo.p) {
        char *save = NULL;
        for (char *p = strtok_r(c->undo.p, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
            const char *path = attu_storage_unescape_word(p);
            if (storage_remove_tree(path) != 0) unlink(path);
        }
    }
    free(c->steps.p);
    free(c->undo.p);
    free(c->data_dir);
    free(c);
}
