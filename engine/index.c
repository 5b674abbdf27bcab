/*
 * index.c - copying and freeing an index's definition (index.h).
 */
#include "engine/index.h"

#include <stdlib.h>
#include <string.h>

void attu_index_clear(attu_index_def *ix) {
    for (int k = 0; k < ATTU_INDEX_MAX_KEYS; k++) {
        free(ix->expr[k]);
        free(ix->suffix[k]);
        free(ix->names[k]);
        ix->expr[k] = ix->suffix[k] = ix->names[k] = NULL;
    }
    free(ix->where);
    free(ix->options);
    ix->where = ix->options = NULL;
}

static bool dup(char **dst, const char *src) {
    *dst = NULL;
    return !src || (*dst = strdup(src)) != NULL;
}

int attu_index_copy(attu_index_def *dst, const attu_index_def *src) {
    *dst = *src;
    bool ok = true;
    for (int k = 0; k < ATTU_INDEX_MAX_KEYS; k++) {
        ok &= dup(&dst->expr[k], src->expr[k]);
        ok &= dup(&dst->suffix[k], src->suffix[k]);
        ok &= dup(&dst->names[k], src->names[k]);
    }
    ok &= dup(&dst->where, src->where);
    ok &= dup(&dst->options, src->options);
    if (!ok) { attu_index_clear(dst); return -1; }
    return 0;
}

bool attu_index_unique_key(const attu_index_def *ix, attu_unique *u) {
    if (!ix->unique || ix->where || ix->nulls_not_distinct) return false;
    for (int k = 0; k < ix->nkeys; k++) if (ix->cols[k] < 0) return false;
    memset(u, 0, sizeof *u);
    memcpy(u->name, ix->name, sizeof u->name);
    u->index = true;
    u->ncols = ix->nkeys;
    memcpy(u->cols, ix->cols, sizeof(int) * (size_t)ix->nkeys);
    return true;
}
