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

/* attu_dictionary_add_sorted: a string held already keeps the very same
 * dictionary; new ones before, between and after old ones (and the empty
 * string) go in order, old codes below the first new string stay, the
 * others move through the remap. */
Test(dictionary, add_sorted_keeps_or_merges) {
    const char *a[] = {"c", "m", "x"};
    int32_t ca[3];
    attu_dictionary *old = build(a, 3, ca);
    attu_error err;
    attu_error_clear(&err);
    int32_t codes[4], moved = -1, *remap = (int32_t *)1;
    const char *known[] = {"c", "x"};
    size_t lk[] = {1, 1};
    attu_dictionary *same = attu_dictionary_add_sorted(old, known, lk, 2, codes, &moved, &remap, &err);
    cr_assert_eq(same, old);
    cr_assert_eq(old->refcount, 2);
    cr_assert_eq(moved, 3);
    cr_assert_null(remap);
    cr_assert_eq(codes[0], 0);
    cr_assert_eq(codes[1], 2);
    attu_dictionary_unref(same);

    const char *after[] = {"x", "y"};
    attu_dictionary *d = attu_dictionary_add_sorted(old, after, lk, 2, codes, &moved, &remap, &err);
    cr_assert_neq(d, old);
    cr_assert_eq(d->count, 4);
    cr_assert_eq(moved, 3);   /* nothing moves */
    cr_assert_null(remap);
    cr_assert_eq(codes[0], 2);
    cr_assert_eq(codes[1], 3);
    cr_assert(str_eq(d, 3, "y"));
    attu_dictionary_unref(d);

    const char *mixed[] = {"", "d", "m", "zz"};
    size_t lm[] = {0, 1, 1, 2};
    d = attu_dictionary_add_sorted(old, mixed, lm, 4, codes, &moved, &remap, &err);
    cr_assert_not_null(d, "%s", err.message);
    cr_assert_eq(d->count, 6);   /* "" c d m x zz */
    const char *order[] = {"", "c", "d", "m", "x", "zz"};
    for (int i = 0; i < 6; i++) cr_assert(str_eq(d, i, order[i]), "code %d", i);
    cr_assert_eq(moved, 0);
    cr_assert_not_null(remap);
    cr_assert_eq(remap[0], 1);   /* c */
    cr_assert_eq(remap[1], 3);   /* m */
    cr_assert_eq(remap[2], 4);   /* x */
    cr_assert_eq(codes[0], 0);
    cr_assert_eq(codes[1], 2);
    cr_assert_eq(codes[2], 3);
    cr_assert_eq(codes[3], 5);
    free(remap);
    attu_dictionary_unref(d);

    /* into no dictionary: a copy of the strings */
    d = attu_dictionary_add_sorted(NULL, mixed, lm, 4, codes, &moved, &remap, &err);
    cr_assert_eq(d->count, 4);
    cr_assert_null(remap);
    for (int i = 0; i < 4; i++) cr_assert(str_eq(d, codes[i], mixed[i]));
    attu_dictionary_unref(d);
    attu_dictionary_unref(old);
}

/* attu_dictionary_add / merge against a build of everything: random old
 * and new sets of short strings (so that many collide), each result equal
 * to the dictionary built from scratch, every old code remapped to its
 * string and every new string coded right. */
Test(dictionary, add_matches_a_full_build) {
    enum { NOLD = 3000, NNEW = 400 };
    static char ob[NOLD][8], nb[NNEW][8];
    const char *os[NOLD], *ns[NNEW], *all[NOLD + NNEW];
    size_t ol[NOLD], nl[NNEW], al[NOLD + NNEW];
    int32_t oc[NOLD], nc[NNEW], ac[NOLD + NNEW];
    unsigned seed = 12345;
    for (int round = 0; round < 20; round++) {
        int nnew = round == 0 ? 1 : round == 1 ? NNEW : 1 + (int)(seed % NNEW);
        for (int i = 0; i < NOLD; i++) {
            seed = seed * 1103515245u + 12345u;
            snprintf(ob[i], sizeof ob[i], "%x", (seed >> 8) % 9000);
            os[i] = ob[i];
            ol[i] = (seed >> 4) % 11 == 0 ? 0 : strlen(ob[i]);   /* some empty strings */
        }
        for (int i = 0; i < nnew; i++) {
            seed = seed * 1103515245u + 12345u;
            snprintf(nb[i], sizeof nb[i], "%x", (seed >> 8) % (round & 1 ? 12000 : 9000));
            ns[i] = nb[i];
            nl[i] = (seed >> 4) % 13 == 0 ? 0 : strlen(nb[i]);
        }
        attu_error err;
        attu_error_clear(&err);
        attu_dictionary *old = attu_dictionary_build(os, ol, NOLD, oc, &err);
        for (int i = 0; i < NOLD; i++) { all[i] = os[i]; al[i] = ol[i]; }
        for (int i = 0; i < nnew; i++) { all[NOLD + i] = ns[i]; al[NOLD + i] = nl[i]; }
        attu_dictionary *full = attu_dictionary_build(all, al, (size_t)(NOLD + nnew), ac, &err);
        int32_t moved, *remap;
        attu_dictionary *d = attu_dictionary_add(old, ns, nl, (size_t)nnew, nc, &moved, &remap, &err);
        cr_assert_not_null(d);
        cr_assert_eq(d->count, full->count, "round %d", round);
        cr_assert_eq(d->offsets[d->count], full->offsets[full->count]);
        for (int32_t c = 0; c < d->count; c++)
            cr_assert_eq(d->offsets[c], full->offsets[c], "round %d code %d", round, c);
        cr_assert_eq(memcmp(d->bytes, full->bytes, full->offsets[full->count]), 0);
        for (int i = 0; i < nnew; i++) cr_assert_eq(nc[i], ac[NOLD + i]);
        for (int i = 0; i < NOLD; i++) {
            int32_t c = oc[i], now = c < moved ? c : remap[c - moved];
            cr_assert_eq(now, ac[i], "round %d old row %d", round, i);
        }
        cr_assert_eq(d == old, full->count == old->count);
        free(remap);
        /* merge spells the same remap out */
        int32_t *om = malloc((size_t)old->count * sizeof *om);
        attu_dictionary *m = attu_dictionary_merge(old, ns, nl, (size_t)nnew, om, nc, &err);
        for (int i = 0; i < NOLD; i++) cr_assert_eq(om[oc[i]], ac[i]);
        for (int i = 0; i < nnew; i++) cr_assert_eq(nc[i], ac[NOLD + i]);
        free(om);
        attu_dictionary_unref(m);
        attu_dictionary_unref(d);
        attu_dictionary_unref(full);
        attu_dictionary_unref(old);
    }
}

/* attu_dictionary_subset against a build of the kept strings: the same
 * dictionary, byte for byte, for random keep masks (none, all, runs,
 * single codes, empty strings among them). */
Test(dictionary, subset_matches_a_build_of_the_kept) {
    enum { N = 40 };
    const char *s[N];
    char buf[N][8];
    for (int i = 0; i < N; i++) {
        snprintf(buf[i], sizeof buf[i], i == 7 ? "" : "k%02d", i * 7 % N);
        s[i] = buf[i];
    }
    int32_t codes[N];
    attu_dictionary *d = build(s, N, codes);
    srand(11);
    for (int round = 0; round < 50; round++) {
        uint8_t keep[N];
        const char *kept[N];
        size_t kl[N];
        int nk = 0;
        for (int32_t c = 0; c < d->count; c++) {
            keep[c] = round == 0 ? 0 : round == 1 ? 1 : (rand() % (1 + round % 4)) == 0;
            if (keep[c]) { kept[nk] = attu_dictionary_get(d, c, &kl[nk]); nk++; }
        }
        attu_error err;
        attu_error_clear(&err);
        attu_dictionary *sub = attu_dictionary_subset(d, keep, &err);
        cr_assert_not_null(sub, "%s", err.message);
        int32_t kc[N];
        attu_dictionary *want = attu_dictionary_build(kept, kl, (size_t)nk, kc, &err);
        cr_assert_eq(sub->count, want->count, "round %d", round);
        for (int32_t c = 0; c <= sub->count; c++)
            cr_assert_eq(sub->offsets[c], want->offsets[c], "round %d code %d", round, c);
        cr_assert_eq(memcmp(sub->bytes, want->bytes, want->offsets[want->count]), 0);
        for (int i = 0; i < nk; i++) cr_assert_eq(kc[i], i);
        attu_dictionary_unref(sub);
        attu_dictionary_unref(want);
    }
    attu_dictionary_unref(d);
}
