/*
 * bpchar.c - stripping the trailing spaces of a char(n) column (bpchar.h).
 */
#include "engine/bpchar.h"

#include <stdlib.h>

#include "engine/dictionary.h"

int attu_bpchar_normalize(attu_column *c, attu_error *err) {
    if (!attu_type_is_bpchar(c->type) || !c->dict || c->dict->count == 0) return 0;
    attu_dictionary *old = c->dict;
    int32_t n = old->count;
    bool any = false;
    for (int32_t k = 0; k < n && !any; k++) {
        size_t len;
        const char *s = attu_dictionary_get(old, k, &len);
        any = len > 0 && s[len - 1] == ' ';
    }
    if (!any) return 0;   /* the common case: nothing to rewrite */
    const char **strs = malloc(sizeof *strs * (size_t)n);
    size_t *lens = malloc(sizeof *lens * (size_t)n);
    int32_t *map = malloc(sizeof *map * (size_t)n);
    attu_dictionary *d = NULL;
    if (strs && lens && map) {
        for (int32_t k = 0; k < n; k++) {
            size_t len;
            const char *s = attu_dictionary_get(old, k, &len);
            while (len > 0 && s[len - 1] == ' ') len--;
            strs[k] = s;
            lens[k] = len;
        }
        /* 'a' and 'a ' become one entry; map takes each old code to it */
        d = attu_dictionary_build(strs, lens, (size_t)n, map, err);
    }
    if (d) {
        int32_t *codes = c->data;
        for (size_t r = 0; r < c->length; r++)
            if (!attu_column_is_null(c, r)) codes[r] = map[codes[r]];
        c->dict = d;
        attu_dictionary_unref(old);
        attu_column_invalidate_device(c);
    } else if (!err->set) {
        attu_error_oom(err);
    }
    free(strs); free(lens); free(map);
    return d ? 0 : -1;
}
