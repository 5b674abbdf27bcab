/*
 * test_enum_type.c - engine/enum_type.h: the sort keys and images that
 * enum values are stored as. The property the storage rests on: an
 * image's byte order is the enum's order, however labels were added
 * (evenly spaced at CREATE TYPE, then BEFORE / AFTER any label, many
 * times at one place), with no key ever renumbered; and a definition
 * survives its round trip through the comments store.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "engine/comments.h"
#include "engine/enum_type.h"

/* keys[0..n) strictly increasing, none ending in the lowest digit '!' */
static void expect_ordered(char **keys, int n) {
    for (int i = 0; i < n; i++) {
        size_t l = strlen(keys[i]);
        cr_expect(l > 0 && keys[i][l - 1] != '!', "key %d \"%s\" ends in the lowest digit", i, keys[i]);
        for (const char *p = keys[i]; *p; p++) cr_expect(*p >= '!' && *p <= '~', "key %d has byte %d", i, *p);
        if (i) cr_expect(strcmp(keys[i - 1], keys[i]) < 0, "keys %d \"%s\" and %d \"%s\" out of order", i - 1, keys[i - 1], i, keys[i]);
    }
}

Test(enum_type, initial_keys) {
    static const int sizes[] = { 1, 2, 3, 46, 47, 93, 94, 500, 5000 };
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        int n = sizes[s];
        char **keys = calloc((size_t)n, sizeof *keys);
        cr_assert_eq(attu_enum_keys_initial(n, keys), 0);
        expect_ordered(keys, n);
        for (int i = 0; i < n; i++) free(keys[i]);
        free(keys);
    }
}

/* Inserting at random places, and 200 times at one place from either side. */
Test(enum_type, keys_between) {
    enum { N = 600 };
    char *keys[N];
    int n = 2;
    cr_assert_eq(attu_enum_keys_initial(2, keys), 0);
    srand(7);
    for (int step = 0; n < N; step++) {
        int at;   /* the new key goes before keys[at] */
        if (step < 200) at = 1;                        /* always just after the first */
        else if (step < 300) at = n - 1;               /* always just before the last */
        else if (step < 350) at = 0;                   /* below everything */
        else if (step < 400) at = n;                   /* above everything */
        else at = rand() % (n + 1);
        char *k = attu_enum_key_between(at ? keys[at - 1] : NULL, at < n ? keys[at] : NULL);
        cr_assert(k);
        memmove(&keys[at + 1], &keys[at], (size_t)(n - at) * sizeof *keys);
        keys[at] = k;
        n++;
    }
    expect_ordered(keys, n);
    for (int i = 0; i < n; i++) free(keys[i]);
}

/* Images order as keys whatever the labels, and show their labels. */
Test(enum_type, images) {
    attu_enum_label labels[3] = {
        { "zebra", "P", 1 }, { "", "Q", 2 }, { "a\001b", "Q!P", 3 },
    };
    attu_enum_def d = { "t", 1, 3, labels };
    size_t l0, l1, l2, ll;
    char *i0 = attu_enum_image(&d, 0, &l0), *i1 = attu_enum_image(&d, 1, &l1), *i2 = attu_enum_image(&d, 2, &l2);
    cr_assert(i0 && i1 && i2);
    cr_expect(memcmp(i0, i1, l0 < l1 ? l0 : l1) < 0 || (memcmp(i0, i1, l0 < l1 ? l0 : l1) == 0 && l0 < l1));
    cr_expect(memcmp(i1, i2, l1 < l2 ? l1 : l2) < 0 || (memcmp(i1, i2, l1 < l2 ? l1 : l2) == 0 && l1 < l2));
    const char *lab = attu_enum_image_label(i2, l2, &ll);
    cr_expect(ll == 3 && !memcmp(lab, "a\001b", 3));
    lab = attu_enum_image_label(i1, l1, &ll);
    cr_expect_eq(ll, 0);
    cr_expect_eq(attu_enum_label_index(&d, "", 0), 1);
    cr_expect_eq(attu_enum_label_index(&d, "zebr", 4), -1);
    free(i0); free(i1); free(i2);
}

Test(enum_type, store_round_trip) {
    attu_enum_label labels[3] = {
        { "sad", "8", 1 }, { "with\ttab\nand line", "C", 1.5f }, { "happy", "f", 3 },
    };
    attu_enum_def d = { "mood", 4, 3, labels };
    attu_comments *cs = attu_comments_new();
    cr_assert(cs);
    cr_assert_eq(attu_enum_store(cs, &d), 0);
    cr_expect_eq(attu_enum_next_id(cs), 5);
    attu_enum_def *g = attu_enum_find_in(cs, "mood");
    cr_assert(g);
    cr_expect_eq(g->id, 4);
    cr_assert_eq(g->n, 3);
    for (int i = 0; i < 3; i++) {
        cr_expect_str_eq(g->labels[i].label, labels[i].label);
        cr_expect_str_eq(g->labels[i].key, labels[i].key);
        cr_expect_eq(g->labels[i].order, labels[i].order);
    }
    attu_enum_def_free(g);
    cr_expect_null(attu_enum_find_in(cs, "other"));
    attu_enum_remove(cs, "mood");
    cr_expect_null(attu_enum_find_in(cs, "mood"));
    attu_comments_free(cs);
}
