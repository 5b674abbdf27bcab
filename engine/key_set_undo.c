/*
 * key_set_undo.c - a key set's undo log (key_set_undo.h): an array of
 * steps in the order the writers made them, undone from the end.
 */
#include "engine/key_set_undo.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum step_kind {
    STEP_MARK,         /* the set held version `what`'s keys (uid in hash, row count in row) */
    STEP_ADDED,        /* entry (hash, row) added */
    STEP_REMOVED,      /* entry (hash, row) removed */
    STEP_RENUMBERED    /* `what` (int64_t[row], ascending, owned) rows removed, the rest renumbered */
};

typedef struct undo_step {
    int         kind;
    uint64_t    hash;
    int64_t     row;
    const void *what;
} undo_step;

struct attu_key_undo {
    undo_step *steps;
    size_t     n, cap;
    size_t     weight;   /* steps plus the rows the renumberings list: what an undo walks */
};

/* Past this weight the log is dropped (key_set_undo.h: undoing it would
 * cost about what a rebuild does). */
static size_t weight_limit(const attu_key_set *ks) { return ks->count / 2 + 4096; }

static void step_free(undo_step *s) {
    if (s->kind == STEP_RENUMBERED) free((void *)s->what);
}

void attu_key_undo_free(struct attu_key_undo *u) {
    if (!u) return;
    for (size_t i = 0; i < u->n; i++) step_free(&u->steps[i]);
    free(u->steps);
    free(u);
}

void attu_key_undo_forget(attu_key_set *ks) {
    attu_key_undo_free(ks->undo);
    ks->undo = NULL;
}

/* Appends a step of the given weight; drops the log instead when it would
 * grow past its limit or out of memory (the step's list freed with it). */
static void push(attu_key_set *ks, undo_step s, size_t weight) {
    struct attu_key_undo *u = ks->undo;
    if (!u) { step_free(&s); return; }
    if (u->weight + weight > weight_limit(ks)) goto drop;
    if (u->n == u->cap) {
        size_t cap = u->cap ? u->cap * 2 : 16;
        undo_step *steps = realloc(u->steps, sizeof *steps * cap);
        if (!steps) goto drop;
        u->steps = steps;
        u->cap = cap;
    }
    u->steps[u->n++] = s;
    u->weight += weight;
    return;
drop:
    step_free(&s);
    attu_key_undo_forget(ks);
}

void attu_key_undo_mark(attu_key_set *ks, const attu_table *v) {
    if (!v->uid || ks->nrows != v->nrows) { attu_key_undo_forget(ks); return; }   /* (no mark could match it) */
    if (!ks->undo && !(ks->undo = calloc(1, sizeof *ks->undo))) return;
    push(ks, (undo_step){ STEP_MARK, v->uid, (int64_t)v->nrows, v }, 1);
}

void attu_key_undo_added(attu_key_set *ks, uint64_t h, int64_t r) {
    if (ks->undo) push(ks, (undo_step){ STEP_ADDED, h, r, NULL }, 1);
}

void attu_key_undo_removed(attu_key_set *ks, uint64_t h, int64_t r) {
    if (ks->undo) push(ks, (undo_step){ STEP_REMOVED, h, r, NULL }, 1);
}

/* A copy of the list (malloc'd), or NULL with the log dropped when it
 * would grow past its limit or out of memory. */
static int64_t *gone_list(attu_key_set *ks, size_t ngone) {
    if (ks->undo->weight + ngone + 1 > weight_limit(ks)) { attu_key_undo_forget(ks); return NULL; }
    int64_t *gone = malloc(sizeof *gone * ngone);
    if (!gone) attu_key_undo_forget(ks);
    return gone;
}

void attu_key_undo_renumbered(attu_key_set *ks, const int64_t *gone, size_t ngone) {
    if (!ks->undo || !ngone) return;   /* (none: nothing moved) */
    int64_t *copy = gone_list(ks, ngone);
    if (!copy) return;
    memcpy(copy, gone, sizeof *copy * ngone);
    push(ks, (undo_step){ STEP_RENUMBERED, 0, (int64_t)ngone, copy }, ngone + 1);
}

void attu_key_undo_renumbered_keep(attu_key_set *ks, const uint8_t *keep, size_t nold) {
    if (!ks->undo) return;
    size_t ngone = 0;
    for (size_t r = 0; r < nold; r++) ngone += !keep[r];
    if (!ngone) return;
    int64_t *gone = gone_list(ks, ngone);
    if (!gone) return;
    size_t k = 0;
    for (size_t r = 0; r < nold; r++)
        if (!keep[r]) gone[k++] = (int64_t)r;
    push(ks, (undo_step){ STEP_RENUMBERED, 0, (int64_t)ngone, gone }, ngone + 1);
}

/* The old number of the kept row now numbered n: n plus the removed rows
 * before it. gone[i] - i is how many kept rows come before gone[i] (a
 * nondecreasing sequence), so those removed rows are the i with
 * gone[i] - i <= n: a binary search. */
static int64_t old_number(const int64_t *gone, size_t ngone, int64_t n) {
    size_t lo = 0, hi = ngone;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (gone[mid] - (int64_t)mid <= n) lo = mid + 1;
        else hi = mid;
    }
    return n + (int64_t)lo;
}

static void unrenumber(attu_key_set *ks, const int64_t *gone, size_t ngone) {
    int64_t *rows = ks->rows;
    if (ngone == 1) {
        /* one row gone (a point DELETE): the rows from it on move up one,
         * branch-free (an empty slot's -1 is below every row and stays) */
        int64_t g = gone[0];
        for (size_t j = 0; j <= ks->mask; j++) rows[j] += rows[j] >= g;
        return;
    }
    for (size_t j = 0; j <= ks->mask; j++)
        if (rows[j] >= 0) rows[j] = old_number(gone, ngone, rows[j]);
}

/* The step of v's latest mark, or u->n when there is none. */
static size_t latest_mark(const struct attu_key_undo *u, const attu_table *v) {
    for (size_t i = u->n; i-- > 0;) {
        const undo_step *s = &u->steps[i];
        if (s->kind == STEP_MARK && s->what == v && s->hash == v->uid && s->row == (int64_t)v->nrows) return i;
    }
    return u->n;
}

bool attu_key_undo_has(const attu_key_set *ks, const attu_table *v) {
    return ks->undo && v->uid && latest_mark(ks->undo, v) < ks->undo->n;
}

int attu_key_undo_to(attu_key_set *ks, const attu_table *v) {
    struct attu_key_undo *u = ks->undo;
    if (!u || !v->uid) return 0;
    size_t at = latest_mark(u, v);
    if (at == u->n) return 0;
    while (u->n > at + 1) {
        undo_step *s = &u->steps[u->n - 1];
        bool ok = true;
        switch (s->kind) {
        case STEP_ADDED: ok = attu_key_set_remove(ks, s->hash, s->row); break;
        case STEP_REMOVED: ok = attu_key_set_add(ks, s->hash, s->row) == 0; break;
        case STEP_RENUMBERED: unrenumber(ks, s->what, (size_t)s->row); break;
        default: break;   /* (a mark of a version passed through) */
        }
        if (!ok) return -1;   /* (the step stays: the caller frees the set, log and all) */
        u->weight -= s->kind == STEP_RENUMBERED ? (size_t)s->row + 1 : 1;
        step_free(s);
        u->n--;
    }
    ks->nrows = v->nrows;
    return 1;
}
