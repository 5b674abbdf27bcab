/*
 * table.c - named sets of equally long columns (table.h).
 */
#include "engine/table.h"

#include "engine/key_set.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
