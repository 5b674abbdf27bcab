/*
 * table.c - named sets of equally long columns (table.h).
 */
#include "engine/table.h"

#include "engine/key_set.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static uint64_t uid_next;   /* 0 until the first draw */

uint64_t attu_table_new_uid(void) {
    uint64_t cur = __atomic_load_n(&uid_next, __ATOMIC_ACQUIRE);
    if (cur == 0) {
        /* a random base, so a version id of this process never names a
         * version another process wrote to the data directory */
        uint64_t seed = 0;
        if (getrandom(&seed, sizeof seed, GRND_NONBLOCK) != (ssize_t)sizeof seed) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            seed = ((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 40);
        }
        seed &= ~(uint64_t)0xffffffff;   /* (room to count up: 2^32 versions) */
        if (seed == 0) seed = (uint64_t)1 << 32;
        uint64_t expect = 0;
        __atomic_compare_exchange_n(&uid_next, &expect, seed, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
    uint64_t id = __atomic_add_fetch(&uid_next, 1, __ATOMIC_ACQ_REL);
    return id ? id : __atomic_add_fetch(&uid_next, 1, __ATOMIC_ACQ_REL);
}

void attu_table_note_append(attu_table *t, const attu_table *base) {
    if (t == base || !base->uid) return;
    int n = 0;
    t->lineage[n].uid = base->uid;
    t->lineage[n++].rows = base->nrows;
    for (int k = 0; k < base->nlineage && n < ATTU_TABLE_LINEAGE; k++)
        if (base->lineage[k].rows <= base->nrows) t->lineage[n++] = base->lineage[k];
    t->nlineage = n;
}

attu_table *attu_table_new(const char *name, int ncols,
                           const attu_column_def *defs, attu_error *err) {
    for (int i = 0; i < ncols; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(defs[i].name, defs[j].name) == 0)
                return attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_COLUMN, 0,
                                      "column \"%s\" specified more than once",
                                      defs[i].name), NULL;
    attu_table *t = calloc(1, sizeof *t);
    if (!t) return attu_error_oom(err), NULL;
    /* Longer names are truncated, as PostgreSQL does to NAMEDATALEN - 1. */
    snprintf(t->name, sizeof t->name, "%s", name);
    t->uid = attu_table_new_uid();
    t->ncols = ncols;
    t->defs = calloc(ncols ? (size_t)ncols : 1, sizeof *t->defs);
    t->cols = calloc(ncols ? (size_t)ncols : 1, sizeof *t->cols);
    if (!t->defs || !t->cols) goto oom;
    if (ncols) memcpy(t->defs, defs, (size_t)ncols * sizeof *defs);
    for (int i = 0; i < ncols; i++) {
        t->cols[i] = attu_column_new(defs[i].type, 0, err);
        if (!t->cols[i]) goto fail;
    }
    return t;
oom:
    attu_error_oom(err);
fail:
    attu_table_free(t);
    return NULL;
}

attu_table *attu_table_share(attu_table *t) {
    if (t) __atomic_fetch_add(&t->shares, 1, __ATOMIC_ACQ_REL);
    return t;
}

void attu_table_free(attu_table *t) {
    if (!t) return;
    if (__atomic_load_n(&t->shares, __ATOMIC_ACQUIRE) > 0 && __atomic_fetch_sub(&t->shares, 1, __ATOMIC_ACQ_REL) > 0)
        return;   /* another catalog still holds this version */
    if (t->cols)
        for (int i = 0; i < t->ncols; i++) attu_column_free(t->cols[i]);
    free(t->cols);
    free(t->defs);
    attu_key_index_free(t->key_index);
    free(t);
}

attu_table *attu_table_clone(const attu_table *t, attu_error *err) {
    return attu_table_clone_reserve(t, 0, err);
}

attu_table *attu_table_clone_reserve(const attu_table *t, size_t extra_rows, attu_error *err) {
    attu_table *n = attu_table_shell(t, err);
    if (!n) return NULL;
    for (int i = 0; i < t->ncols; i++) {
        n->cols[i] = attu_column_clone_reserve(t->cols[i], t->cols[i]->length + extra_rows, err);
        if (!n->cols[i]) {
            attu_table_free(n);
            return NULL;
        }
    }
    return n;
}

attu_table *attu_table_shell(const attu_table *t, attu_error *err) {
    attu_table *n = calloc(1, sizeof *n);
    if (!n) return attu_error_oom(err), NULL;
    memcpy(n->name, t->name, sizeof n->name);
    n->uid = attu_table_new_uid();   /* (a copy is free to change: no lineage) */
    n->ncols = t->ncols;
    n->nrows = t->nrows;
    n->version = t->version;
    n->unavailable = t->unavailable;
    memcpy(n->unavailable_reason, t->unavailable_reason, sizeof n->unavailable_reason);
    n->defs = calloc(t->ncols ? (size_t)t->ncols : 1, sizeof *n->defs);
    n->cols = calloc(t->ncols ? (size_t)t->ncols : 1, sizeof *n->cols);
    if (!n->defs || !n->cols) {
        attu_error_oom(err);
        attu_table_free(n);
        return NULL;
    }
    if (t->ncols) memcpy(n->defs, t->defs, (size_t)t->ncols * sizeof *n->defs);
    return n;
}

int attu_table_find_column(const attu_table *t, const char *name) {
    for (int i = 0; i < t->ncols; i++)
        if (strcmp(t->defs[i].name, name) == 0) return i;
    return -1;
}
