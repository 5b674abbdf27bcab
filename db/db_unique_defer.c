/*
 * db_unique_defer.c - DEFERRABLE PRIMARY KEY and UNIQUE constraints:
 * which rows of a statement wait for a recheck, and the recheck.
 *
 * PostgreSQL inserts a deferrable constraint's keys without failing: a
 * row whose key a live row already holds when it is written (an old row
 * the statement leaves alone, a row the statement wrote before it, or a
 * row it has yet to update, which still holds its old key) queues a
 * recheck, which runs at the end of the statement while the constraint is
 * immediate, else at COMMIT or SET CONSTRAINTS ... IMMEDIATE. The recheck
 * fails (23505, the queued row's key in DETAIL) when two rows hold the key
 * then. So `UPDATE t SET id = id + 1` over 1, 2, 3 passes, a swap of two
 * keys passes, and duplicates may stand between statements while the
 * constraint is deferred.
 *
 * Here a statement's new version is replayed in row order (PostgreSQL's
 * for a table written in order; its updated rows move, ours stay): the
 * rows that would have queued a recheck are found with hash sets of keys
 * (engine/key_set.h) over the statement's rows and the rows it left, one
 * pass over the table's key columns (such a constraint keeps no key index
 * between statements: its keys need not be unique there). An immediate
 * constraint rechecks them over the new version at once; a deferred one
 * queues a copy of them (db_defer.c), rechecked against the table as it
 * is when the check comes due. Which rows queue only decides which of
 * several duplicated keys is reported first: every key two rows hold at
 * the end has one of its rows queued, the later one written.
 */
#include "db/db_internal.h"
#include "db/db_unique.h"

#include <stdlib.h>
#include <string.h>

#include "engine/key_set.h"

static size_t next_row(const uint8_t *changed, size_t r, size_t end) {
    while (r < end && !changed[r]) r++;
    return r;
}

/* The rows of t (changed or appended at first) that would queue u's
 * recheck, in row order: *out (malloc'd), *nout. -1 when out of memory. */
static int queued_rows(const attu_table *t, const attu_table *base, const attu_unique *u, size_t first,
                       const uint8_t *changed, size_t **out, size_t *nout) {
    *out = NULL;
    *nout = 0;
    size_t nprobe = 0;
    for (size_t r = changed ? next_row(changed, 0, t->nrows) : first; r < t->nrows;
         r = changed ? next_row(changed, r + 1, t->nrows) : r + 1)
        nprobe++;
    if (!nprobe) return 0;
    attu_key_rows in_t = { t, 0, NULL }, in_base = { base, 0, NULL };
    attu_key_set *left = attu_key_set_new(t, u->cols, u->ncols, t->nrows - nprobe + 1);   /* rows it left */
    attu_key_set *mine = attu_key_set_new(t, u->cols, u->ncols, nprobe);                  /* its rows so far */
    attu_key_set *olds = changed && base ? attu_key_set_new(t, u->cols, u->ncols, nprobe) : NULL;
    size_t *rows = malloc(sizeof *rows * nprobe);
    int rc = -1;
    if (!left || !mine || (changed && base && !olds) || !rows) goto out;
    uint64_t h;
    for (size_t r = 0; r < t->nrows; r++) {
        bool probe = changed ? changed[r] != 0 : r >= first;
        if (!probe && attu_key_hash(t, u->cols, u->ncols, r, &h) && attu_key_set_add(left, h, (int64_t)r)) goto out;
    }
    /* the old keys of the rows it changed, each naming its last such
     * row: a row written before that one meets the key still there */
    if (olds)
        for (size_t r = base->nrows; r-- > 0;)
            if (changed[r] && attu_key_hash(base, u->cols, u->ncols, r, &h) &&
                attu_key_set_find(olds, h, &in_base, base, r) < 0 && attu_key_set_add(olds, h, (int64_t)r))
                goto out;
    size_t n = 0;
    for (size_t r = changed ? next_row(changed, 0, t->nrows) : first; r < t->nrows;
         r = changed ? next_row(changed, r + 1, t->nrows) : r + 1) {
        if (!attu_key_hash(t, u->cols, u->ncols, r, &h)) continue;   /* a NULL: no key */
        bool hit = attu_key_set_find(left, h, &in_t, t, r) >= 0 || attu_key_set_find(mine, h, &in_t, t, r) >= 0;
        if (!hit && olds) hit = attu_key_set_find(olds, h, &in_base, t, r) > (int64_t)r;
        if (hit) rows[n++] = r;
        if (attu_key_set_add(mine, h, (int64_t)r)) goto out;
    }
    *out = rows;
    *nout = n;
    rows = NULL;
    rc = 0;
out:
    attu_key_set_free(left);
    attu_key_set_free(mine);
    attu_key_set_free(olds);
    free(rows);
    return rc;
}

/* The first of probe's rows rows[0..n) (rows NULL: all of probe's, in
 * order) whose key of u two or more rows of t hold; -1 when none, -2 when
 * out of memory. */
static int64_t first_duplicated(const attu_table *t, const attu_unique *u, const attu_table *probe, const size_t *rows,
                                size_t n) {
    attu_key_rows in_t = { t, 0, NULL };
    attu_key_set *all = attu_key_set_new(t, u->cols, u->ncols, t->nrows);
    attu_key_set *dups = attu_key_set_new(t, u->cols, u->ncols, 16);
    int64_t found = -2;
    if (!all || !dups) goto out;
    uint64_t h;
    for (size_t r = 0; r < t->nrows; r++) {
        if (!attu_key_hash(t, u->cols, u->ncols, r, &h)) continue;
        if (attu_key_set_find(all, h, &in_t, t, r) < 0) {
            if (attu_key_set_add(all, h, (int64_t)r)) goto out;
        } else if (attu_key_set_find(dups, h, &in_t, t, r) < 0 && attu_key_set_add(dups, h, (int64_t)r))
            goto out;
    }
    found = -1;
    for (size_t i = 0; i < n && found < 0; i++) {
        size_t r = rows ? rows[i] : i;
        if (attu_key_hash(probe, u->cols, u->ncols, r, &h) && attu_key_set_find(dups, h, &in_t, probe, r) >= 0)
            found = (int64_t)r;
    }
out:
    attu_key_set_free(all);
    attu_key_set_free(dups);
    return found;
}

int db_unique_recheck(const attu_table *t, const attu_unique *u, const attu_table *probe, attu_error *err) {
    int64_t r = first_duplicated(t, u, probe, NULL, probe->nrows);
    if (r == -2) return attu_error_oom(err);
    return r >= 0 ? db_unique_violation(probe, u, (size_t)r, err) : 0;
}

int db_unique_defer_check(attu_session *s, attu_table *t, size_t first, const uint8_t *changed, attu_error *err) {
    int nu = 0;
    const attu_unique *us = attu_catalog_uniques(db_cat(s), t->name, &nu);
    if (!changed && first >= t->nrows) return 0;
    const attu_table *base = NULL;
    bool looked = false;
    int64_t best = -1;
    int which = -1;
    for (int k = 0; k < nu; k++) {
        if (!us[k].deferrable) continue;
        if (!looked) { base = db_unique_old_version(s, t); looked = true; }
        size_t *rows = NULL, n = 0;
        if (queued_rows(t, base, &us[k], first, changed, &rows, &n)) return attu_error_oom(err);
        int rc = 0;
        if (n && db_defer_unique_is_deferred(s, &us[k])) {
            rc = db_defer_queue_unique(s, &us[k], t, rows, n, err);
        } else if (n) {
            /* immediate: the end of the statement is now; the first row
             * (the earliest queued) still duplicated fails, the first
             * constraint made on a tie */
            int64_t r = first_duplicated(t, &us[k], t, rows, n);
            if (r == -2) rc = attu_error_oom(err);
            else if (r >= 0 && (best < 0 || r < best)) { best = r; which = k; }
        }
        free(rows);
        if (rc) return -1;
    }
    return best >= 0 ? db_unique_violation(t, &us[which], (size_t)best, err) : 0;
}
