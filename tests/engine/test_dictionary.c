/* Unit tests for engine/dictionary.c: order-preserving codes, merge, find,
 * translate, reference counting. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/dictionary.h"

static attu_dictionary *build(const char **s, size_t n, int32_t *codes) {
    size_t lens[64];
    for (size_t i = 0; i < n; i++) lens[i] = strlen(s[i]);
    attu_error err;
    attu_error_clear(&err);
    attu_dictionary *d = attu_dictionary_build(s, lens, n, codes, &err);
    cr_assert_not_null(d, "%s", err.message);
    return d;
}

static int str_eq(const attu_dictionary *d, int32_t code, const char *s) {
    size_t len;
    const char *p = attu_dictionary_get(d, code, &len);
    return len == strlen(s) && memcmp(p, s, len) == 0;
}

Test(dictionary, codes_follow_byte_order) {
    const char *s[] = {"pear", "Apple", "apple", "", "pear", "b\xc3\xa9", "ab", "a"};
    int32_t codes[8];
    attu_dictionary *d = build(s, 8, codes);
    cr_assert_eq(d->count, 7);
    /* C collation: "" < "Apple" < "a" < "ab" < "apple" < "bé" < "pear" */
    const char *order[] = {"", "Apple", "a", "ab", "apple", "b\xc3\xa9", "pear"};
    for (int i = 0; i < 7; i++) cr_assert(str_eq(d, i, order[i]), "code %d", i);
    cr_assert_eq(codes[0], 6);
    cr_assert_eq(codes[4], 6);
    cr_assert_eq(codes[3], 0);
    for (int i = 0; i < 8; i++) cr_assert(str_eq(d, codes[i], s[i]));
    attu_dictionary_unref(d);
}

Test(dictionary, long_common_prefixes) {
    /* Strings that differ only after the 8-byte sort prefix. */
    const char *s[] = {"prefix__zzz", "prefix__aaa", "prefix__", "prefix__aab", "prefix_"};
    int32_t codes[5];
    attu_dictionary *d = build(s, 5, codes);
    cr_assert(str_eq(d, 0, "prefix_"));
    cr_assert(str_eq(d, 1, "prefix__"));
    cr_assert(str_eq(d, 2, "prefix__aaa"));
    cr_assert(str_eq(d, 3, "prefix__aab"));
    cr_assert(str_eq(d, 4, "prefix__zzz"));
    attu_dictionary_unref(d);
}

Test(dictionary, find_returns_insertion_point) {
    const char *s[] = {"b", "d", "f"};
    int32_t codes[3];
    attu_dictionary *d = build(s, 3, codes);
    cr_assert_eq(attu_dictionary_find(d, "d", 1), 1);
    cr_assert_eq(attu_dictionary_find(d, "a", 1), -1);   /* insertion point 0 */
    cr_assert_eq(attu_dictionary_find(d, "c", 1), -2);
    cr_assert_eq(attu_dictionary_find(d, "g", 1), -4);
    cr_assert_eq(attu_dictionary_find(d, "dd", 2), -3);
    attu_dictionary_unref(d);
}

Test(dictionary, merge_remaps_old_codes) {
    const char *a[] = {"m", "c", "x"};
    int32_t ca[3];
    attu_dictionary *old = build(a, 3, ca);
    const char *b[] = {"a", "m", "z", "a"};
    size_t lb[] = {1, 1, 1, 1};
    int32_t remap[3], cb[4];
    attu_error err;
    attu_error_clear(&err);
    attu_dictionary *d = attu_dictionary_merge(old, b, lb, 4, remap, cb, &err);
    cr_assert_not_null(d);
    cr_assert_eq(d->count, 5);   /* a c m x z */
    for (int i = 0; i < 3; i++) {
        size_t l;
        const char *s = attu_dictionary_get(old, i, &l);
        cr_assert(str_eq(d, remap[i], (char[2]){s[0], 0}));
    }
    cr_assert_eq(cb[0], 0);
    cr_assert_eq(cb[1], 2);
    cr_assert_eq(cb[2], 4);
    cr_assert_eq(cb[3], 0);
    attu_dictionary_unref(old);
    attu_dictionary_unref(d);
}

Test(dictionary, translate_between_dictionaries) {
    const char *a[] = {"a", "b", "c", "d"};
    const char *b[] = {"b", "d", "e"};
    int32_t ca[4], cb[3], map[4];
    attu_dictionary *da = build(a, 4, ca), *db = build(b, 3, cb);
    cr_assert_eq(attu_dictionary_translate(da, db, map, NULL), 0);
    cr_assert_eq(map[0], -1);
    cr_assert_eq(map[1], 0);
    cr_assert_eq(map[2], -1);
    cr_assert_eq(map[3], 1);
    attu_dictionary_unref(da);
    attu_dictionary_unref(db);
}

Test(dictionary, refcount_and_empty) {
    int32_t none[1];
    attu_dictionary *d = attu_dictionary_build(NULL, NULL, 0, none, NULL);
    cr_assert_not_null(d);
    cr_assert_eq(d->count, 0);
    cr_assert_eq(attu_dictionary_find(d, "x", 1), -1);
    cr_assert_eq(attu_dictionary_ref(d), d);
    cr_assert_eq(d->refcount, 2);
    attu_dictionary_unref(d);
    attu_dictionary_unref(d);   /* ASan reports a leak or double free if wrong */
}

Test(dictionary, many_strings_sorted_and_distinct) {
    enum { N = 50000 };
    char (*buf)[16] = malloc(N * sizeof *buf);
    const char **s = malloc(N * sizeof *s);
    size_t *l = malloc(N * sizeof *l);
    int32_t *codes = malloc(N * sizeof *codes);
    for (int i = 0; i < N; i++) {
        snprintf(buf[i], sizeof buf[i], "k%d", (i * 7919) % 10007);
        s[i] = buf[i];
        l[i] = strlen(buf[i]);
    }
    attu_dictionary *d = attu_dictionary_build(s, l, N, codes, NULL);
    cr_assert_eq(d->count, 10007);
    for (int32_t c = 1; c < d->count; c++) {
        size_t la, lb;
        const char *a = attu_dictionary_get(d, c - 1, &la), *b = attu_dictionary_get(d, c, &lb);
        int cmp = memcmp(a, b, la < lb ? la : lb);
        cr_assert(cmp < 0 || (cmp == 0 && la < lb));
    }
    for (int i = 0; i < N; i++) cr_assert(str_eq(d, codes[i], s[i]));
    attu_dictionary_unref(d);
    free(buf); free(s); free(l); free(codes);
}
