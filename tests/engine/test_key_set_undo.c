/*
 * test_key_set_undo.c - engine/key_set_undo.c on its own: a key set
 * changed as db_unique_follow / db_unique_follow_delete change it
 * (entries removed and added, DELETEs' renumberings of one row, a few and
 * many), over several marked versions, undone back to each mark gives
 * exactly the entries the set held at that mark; a mark the log does not
 * hold (another version, the same address with another uid or row count)
 * changes nothing; a log grown past its limit is dropped.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "engine/key_set.h"
#include "engine/key_set_undo.h"

/* A set of no table columns (hashes and rows given directly: the undo
 * log never reads the table). */
static attu_key_set *empty_set(size_t expect) {
    attu_key_set *ks = calloc(1, sizeof *ks);
    cr_assert_not_null(ks);
    size_t slots = 16;
    while (slots < expect * 2) slots *= 2;
    ks->hashes = malloc(sizeof *ks->hashes * slots);
    ks->rows = malloc(sizeof *ks->rows * slots);
    cr_assert(ks->hashes && ks->rows);
    for (size_t i = 0; i < slots; i++) ks->rows[i] = -1;
    ks->mask = slots - 1;
    return ks;
}

typedef struct entry { uint64_t hash; int64_t row; } entry;

static int by_row(const void *a, const void *b) {
    const entry *x = a, *y = b;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* ks's entries sorted by row (*n of them, malloc'd). */
static entry *entries(const attu_key_set *ks, size_t *n) {
    entry *e = malloc(sizeof *e * (ks->count + 1));
    size_t k = 0;
    for (size_t i = 0; i <= ks->mask; i++)
        if (ks->rows[i] >= 0) e[k++] = (entry){ ks->hashes[i], ks->rows[i] };
    cr_assert_eq(k, ks->count);
    qsort(e, k, sizeof *e, by_row);
    *n = k;
    return e;
}

static void expect_entries(const attu_key_set *ks, const entry *want, size_t nwant, const char *what) {
    size_t n;
    entry *got = entries(ks, &n);
    cr_assert_eq(n, nwant, "%s: %zu entries, want %zu", what, n, nwant);
    for (size_t i = 0; i < n; i++)
        cr_assert(got[i].hash == want[i].hash && got[i].row == want[i].row, "%s: entry %zu", what, i);
    free(got);
}

/* A hash that collides often (small range), so runs are long and
 * removals shift entries back. */
static uint64_t hash_of(uint64_t key) { return (key * 0x9e3779b97f4a7c15ULL) % 97; }

/* As db_unique_follow_delete: removes the rows with !keep[r] (their
 * entries logged), then renumbers the rest. */
static void delete_rows(attu_key_set *ks, const uint8_t *keep, size_t nold) {
    for (size_t j = 0; j <= ks->mask; j++) {
        int64_t r = ks->rows[j];
        if (r >= 0 && !keep[r]) {
            uint64_t h = ks->hashes[j];
            cr_assert(attu_key_set_remove(ks, h, r));
            attu_key_undo_removed(ks, h, r);
            j = (size_t)-1;   /* (removal shifts entries: start over) */
        }
    }
    /* (the list form for a few rows, the keep form for more) */
    int64_t gone[8];
    size_t ngone = 0;
    for (size_t r = 0; r < nold; r++)
        if (!keep[r] && ngone++ < 8) gone[ngone - 1] = (int64_t)r;
    if (ngone <= 8) attu_key_undo_renumbered(ks, gone, ngone);
    else attu_key_undo_renumbered_keep(ks, keep, nold);
    int64_t *newrow = malloc(sizeof *newrow * (nold + 1));
    int64_t k = 0;
    for (size_t r = 0; r < nold; r++) newrow[r] = keep[r] ? k++ : -1;
    for (size_t j = 0; j <= ks->mask; j++)
        if (ks->rows[j] >= 0) ks->rows[j] = newrow[ks->rows[j]];
    ks->nrows = (size_t)k;
    free(newrow);
}

Test(key_set_undo, back_to_each_mark) {
    srand(154);
    size_t n = 3000;
    attu_key_set *ks = empty_set(n);
    /* row r's key: key[r]; every 10th row has a NULL key (no entry) */
    uint64_t *key = malloc(sizeof *key * 10000);
    uint64_t next_key = 1;
    for (size_t r = 0; r < n; r++) {
        key[r] = next_key++;
        if (r % 10 != 3) cr_assert_eq(attu_key_set_add(ks, hash_of(key[r]), (int64_t)r), 0);
    }
    ks->nrows = n;
    enum { VERSIONS = 6 };
    attu_table v[VERSIONS];
    entry *held[VERSIONS];
    size_t nheld[VERSIONS];
    for (int k = 0; k < VERSIONS; k++) {
        memset(&v[k], 0, sizeof v[k]);
        v[k].uid = 1000 + (uint64_t)k;
        v[k].nrows = ks->nrows;
        held[k] = entries(ks, &nheld[k]);
        attu_key_undo_mark(ks, &v[k]);
        size_t rows = ks->nrows;
        switch (k % 3) {
        case 0: {   /* an UPDATE of some keys, then rows appended (an INSERT) */
            for (int i = 0; i < 40; i++) {
                int64_t r = rand() % (int64_t)rows;
                uint64_t h = hash_of(key[r]);
                if (attu_key_set_remove(ks, h, r)) attu_key_undo_removed(ks, h, r);
                key[r] = next_key++;
                h = hash_of(key[r]);
                cr_assert_eq(attu_key_set_add(ks, h, r), 0);
                attu_key_undo_added(ks, h, r);
            }
            for (int i = 0; i < 25; i++) {
                int64_t r = (int64_t)rows++;
                key[r] = next_key++;
                cr_assert_eq(attu_key_set_add(ks, hash_of(key[r]), r), 0);
                attu_key_undo_added(ks, hash_of(key[r]), r);
            }
            ks->nrows = rows;
            break;
        }
        case 1: {   /* a DELETE of one row */
            uint8_t *keep = malloc(rows);
            memset(keep, 1, rows);
            keep[rows / 2] = 0;
            delete_rows(ks, keep, rows);
            memmove(key + rows / 2, key + rows / 2 + 1, sizeof *key * (rows - rows / 2 - 1));
            free(keep);
            break;
        }
        default: {   /* a DELETE of many rows */
            uint8_t *keep = malloc(rows);
            size_t k2 = 0;
            for (size_t r = 0; r < rows; r++) {
                keep[r] = rand() % 7 != 0;
                if (keep[r]) key[k2++] = key[r];
            }
            delete_rows(ks, keep, rows);
            free(keep);
            break;
        }
        }
        cr_assert_not_null(ks->undo, "the log kept (below its limit)");
    }
    /* a version the log does not hold: nothing changes */
    attu_table other = v[2];
    other.uid = 99;
    size_t nnow;
    entry *now = entries(ks, &nnow);
    cr_assert_eq(attu_key_undo_to(ks, &other), 0);
    other = v[2];
    other.nrows++;
    cr_assert_eq(attu_key_undo_to(ks, &other), 0);
    expect_entries(ks, now, nnow, "unchanged");
    free(now);
    /* back to each mark, latest first, and to one twice */
    for (int k = VERSIONS; k-- > 0;) {
        cr_assert_eq(attu_key_undo_to(ks, &v[k]), 1, "version %d", k);
        cr_assert_eq(ks->nrows, v[k].nrows);
        expect_entries(ks, held[k], nheld[k], "after the undo");
        if (k == 3) {
            cr_assert_eq(attu_key_undo_to(ks, &v[k]), 1, "twice");
            expect_entries(ks, held[k], nheld[k], "twice");
        }
    }
    for (int k = 0; k < VERSIONS; k++) free(held[k]);
    free(key);
    attu_key_set_free(ks);
}

Test(key_set_undo, dropped_past_its_limit) {
    attu_key_set *ks = empty_set(100);
    for (int64_t r = 0; r < 100; r++) cr_assert_eq(attu_key_set_add(ks, hash_of((uint64_t)r), r), 0);
    ks->nrows = 100;
    attu_table v;
    memset(&v, 0, sizeof v);
    v.uid = 7;
    v.nrows = 100;
    attu_key_undo_mark(ks, &v);
    cr_assert_not_null(ks->undo);
    /* (a limit of about half the entries plus 4096 steps) */
    for (int i = 0; i < 5000 && ks->undo; i++) attu_key_undo_added(ks, 1, 1);
    cr_assert_null(ks->undo, "the log went");
    cr_assert_eq(attu_key_undo_to(ks, &v), 0, "nothing to undo to");
    /* a version of uid 0 ("unknown") is never marked */
    v.uid = 0;
    attu_key_undo_mark(ks, &v);
    cr_assert_null(ks->undo);
    attu_key_set_free(ks);
}
