/* test_column_store.c - engine/column.h attu_column_append_version and
 * engine/dictionary.h's tail appends: new versions that share the buffers
 * of the version they append to, while every older version keeps seeing
 * exactly its own rows (the MVCC of INSERT, db/db_ddl.c db_append_rows).
 * Run under ASan (scripts/test), these also check that shared stores are
 * freed with their last version and never twice. */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "engine/column.h"
#include "engine/dictionary.h"

static attu_error err;

/* An INT64 column of rows 0 .. n-1 (value = row * 10), owning its buffers. */
static attu_column *ints(size_t n) {
    attu_column *c = attu_column_new(attu_type_make(ATTU_TYPE_INT64), n ? n : 1, &err);
    cr_assert_not_null(c);
    for (size_t r = 0; r < n; r++) ((int64_t *)c->data)[r] = (int64_t)r * 10;
    c->length = n;
    return c;
}

static int64_t at(const attu_column *c, size_t r) { return ((const int64_t *)c->data)[r]; }

/* Appends one row of value v (NULL when null) as an INSERT would. */
static attu_column *append1(const attu_column *c, int64_t v, bool null) {
    attu_column *n = attu_column_append_version(c, 1, false, &err);
    cr_assert_not_null(n, "%s", err.message);
    if (null) cr_assert_eq(attu_column_append_null(n, c->length, &err), 0);
    else ((int64_t *)n->data)[c->length] = v;
    return n;
}

static void check_prefix(const attu_column *c, size_t n) {
    cr_assert_eq(c->length, n);
    for (size_t r = 0; r < n; r++) {
        cr_assert_eq(at(c, r), (int64_t)r * 10, "row %zu", r);
        cr_assert(!attu_column_is_null(c, r), "row %zu", r);
    }
}

Test(column_store, first_append_copies_with_room_then_shares) {
    attu_column *v0 = ints(100);
    attu_column *v1 = append1(v0, 1000, false);
    cr_assert_neq(v1->data, v0->data, "v0 owns its buffer: the first append copies");
    cr_assert_not_null(v1->store);
    cr_assert_geq(v1->capacity, 150, "a copy leaves half as much room again");
    attu_column *v2 = append1(v1, 1010, false);
    cr_assert_eq(v2->data, v1->data, "the newest version appends in place");
    cr_assert_eq(v2->store, v1->store);
    check_prefix(v0, 100);
    cr_assert_eq(v1->length, 101);
    cr_assert_eq(at(v1, 100), 1000);
    cr_assert_eq(v2->length, 102);
    cr_assert_eq(at(v2, 100), 1000);
    cr_assert_eq(at(v2, 101), 1010);
    attu_column_free(v0);
    attu_column_free(v1);
    attu_column_free(v2);
}

Test(column_store, old_snapshot_keeps_its_rows_and_null_bits) {
    attu_column *v0 = ints(70);
    attu_column *v1 = append1(v0, 700, false);
    attu_column *v2 = append1(v1, 0, true);      /* a NULL in the word v1's rows share */
    attu_column *v3 = append1(v2, 720, false);
    cr_assert_eq(v3->data, v1->data);
    /* v1 had no NULL and still has none; v2 sees its NULL; v3 too */
    cr_assert_eq(v1->length, 71);
    cr_assert_eq(attu_column_null_count(v1), 0);
    for (size_t r = 0; r < 71; r++) cr_assert(!attu_column_is_null(v1, r));
    cr_assert_eq(attu_column_null_count(v2), 1);
    cr_assert(attu_column_is_null(v2, 71));
    cr_assert_eq(at(v2, 71), 0, "a NULL row's slot is zero");
    cr_assert_eq(attu_column_null_count(v3), 1);
    cr_assert_eq(at(v3, 72), 720);
    cr_assert(!attu_column_is_null(v3, 72));
    /* a copy of an older version is exactly its rows, tail bits valid */
    attu_column *c1 = attu_column_clone(v1, &err);
    cr_assert_not_null(c1);
    cr_assert_eq(attu_column_null_count(c1), 0);
    check_prefix(v0, 70);
    attu_column_free(c1);
    attu_column_free(v3);
    attu_column_free(v2);
    attu_column_free(v1);
    attu_column_free(v0);
}

Test(column_store, null_bits_older_versions_read_never_change) {
    attu_column *v0 = ints(70);
    attu_column *v1 = append1(v0, 0, true);       /* a copy: v1's own bitmap */
    cr_assert_not_null(v1->validity);
    attu_column *v2 = append1(v1, 0, true);       /* row 71 shares a word with v1's rows */
    cr_assert_eq(v2->data, v1->data, "the slots are shared");
    cr_assert_neq(v2->validity, v1->validity, "the bitmap word v1 reads is not written: a copy");
    cr_assert(!attu_column_is_null(v1, 71) && ((v1->validity[1] >> 7) & 1), "v1's bits past its length stay 1");
    cr_assert(attu_column_is_null(v2, 70));
    cr_assert(attu_column_is_null(v2, 71));
    attu_column *v3 = append1(v2, 720, false);    /* valid bits already set: nothing written */
    cr_assert_eq(v3->validity, v2->validity);
    attu_column_free(v1);
    attu_column_free(v2);
    attu_column *v4 = append1(v3, 0, true);        /* row 73 is in the word v3 reads: a copy again */
    cr_assert_neq(v4->validity, v3->validity);
    cr_assert((v3->validity[1] >> 9) & 1, "v3's bit 73 stays 1");
    cr_assert(!attu_column_is_null(v3, 72));
    cr_assert(attu_column_is_null(v4, 73));
    cr_assert_eq(attu_column_null_count(v3), 2);
    cr_assert_eq(attu_column_null_count(v4), 3);
    attu_column_free(v4);
    attu_column_free(v3);
    attu_column_free(v0);
}

Test(column_store, a_first_null_into_a_store_without_bitmap_writes_in_place) {
    attu_column *v0 = ints(10);
    attu_column *v1 = append1(v0, 100, false);
    attu_column *v2 = append1(v1, 0, true);        /* v1 reads no bitmap: the store's own */
    cr_assert_null(v1->validity);
    cr_assert_not_null(v2->validity);
    cr_assert_eq(v2->validity, v2->store->validity);
    cr_assert(attu_column_is_null(v2, 11));
    cr_assert_eq(attu_column_null_count(v1), 0);
    attu_column_free(v2);                          /* rolled back */
    attu_column *v3 = append1(v1, 120, false);     /* the stale NULL bit of row 11 is set again */
    cr_assert(!attu_column_is_null(v3, 11));
    cr_assert_eq(attu_column_null_count(v3), 0);
    attu_column_free(v3);
    attu_column_free(v1);
    attu_column_free(v0);
}

Test(column_store, second_writer_from_the_same_base_copies) {
    attu_column *v0 = ints(10);
    attu_column *v1 = append1(v0, 100, false);
    attu_column *a = append1(v1, 111, false);      /* first writer: in place */
    attu_column *b = append1(v1, 222, false);      /* second from v1: a copy */
    cr_assert_eq(a->data, v1->data);
    cr_assert_neq(b->data, v1->data);
    cr_assert_eq(at(a, 11), 111);
    cr_assert_eq(at(b, 11), 222);
    cr_assert_eq(v1->length, 11);
    check_prefix(v0, 10);
    /* each goes on appending in place of its own store */
    attu_column *a2 = append1(a, 112, false);
    attu_column *b2 = append1(b, 223, false);
    cr_assert_eq(a2->data, a->data);
    cr_assert_eq(b2->data, b->data);
    cr_assert_eq(at(a2, 11), 111);
    cr_assert_eq(at(b2, 11), 222);
    cr_assert_eq(at(a2, 12), 112);
    cr_assert_eq(at(b2, 12), 223);
    attu_column *cols[] = { v0, v1, a, b, a2, b2 };
    for (int i = 0; i < 6; i++) attu_column_free(cols[i]);
}

Test(column_store, rollback_of_an_append_gives_the_rows_back) {
    attu_column *v0 = ints(5);
    attu_column *v1 = append1(v0, 50, false);
    attu_column *bad = append1(v1, 0, true);       /* rolled back: */
    attu_column_free(bad);
    attu_column *v2 = append1(v1, 60, false);      /* appends in place again */
    cr_assert_eq(v2->data, v1->data);
    cr_assert_eq(v2->length, 7);
    cr_assert_eq(at(v2, 5), 50);
    cr_assert_eq(at(v2, 6), 60);
    cr_assert(!attu_column_is_null(v2, 6), "the rolled-back NULL does not show through");
    cr_assert_eq(attu_column_null_count(v2), 0);
    /* a version rolled back after another was appended to it gives
     * nothing back: the newer one keeps its rows */
    attu_column *v3 = append1(v2, 70, false);
    attu_column_free(v2);
    attu_column *v4 = append1(v3, 80, false);
    cr_assert_eq(v4->data, v3->data);
    cr_assert_eq(at(v4, 7), 70);
    cr_assert_eq(at(v4, 8), 80);
    attu_column_free(v4);
    attu_column_free(v3);
    attu_column_free(v1);
    attu_column_free(v0);
}

Test(column_store, rollback_of_several_appends_walks_back) {
    attu_column *base = ints(20);
    attu_column *v0 = append1(base, 200, false);   /* the committed version, in a store */
    attu_column *v1 = append1(v0, 210, false);     /* BEGIN; INSERT */
    attu_column *v2 = append1(v1, 0, true);        /* INSERT */
    attu_column *v3 = append1(v2, 230, false);     /* INSERT */
    attu_column_free(v1);                          /* replaced in the working catalog */
    attu_column_free(v2);
    attu_column_free(v3);                          /* ROLLBACK */
    attu_column *w = append1(v0, 999, false);      /* appends in place again */
    cr_assert_eq(w->data, v0->data);
    cr_assert_eq(w->length, 22);
    cr_assert_eq(at(w, 21), 999);
    cr_assert(!attu_column_is_null(w, 21));
    cr_assert_eq(attu_column_null_count(w), 0);
    /* a gone claim below a live version is not handed out */
    attu_column *x1 = append1(w, 1, false);
    attu_column *x2 = append1(x1, 2, false);
    attu_column_free(x1);                          /* remembered: x2 stands */
    attu_column *y = append1(w, 3, false);         /* w is no longer the newest: a copy */
    cr_assert_neq(y->data, w->data);
    cr_assert_eq(at(x2, 22), 1);
    cr_assert_eq(at(x2, 23), 2);
    attu_column_free(x2);                          /* now both go back: w appends in place */
    attu_column *z = append1(w, 4, false);
    cr_assert_eq(z->data, w->data);
    attu_column *cols[] = { base, v0, w, y, z };
    for (int i = 0; i < 5; i++) attu_column_free(cols[i]);
}

Test(column_store, full_store_copies_and_old_store_lives_on) {
    attu_column *v0 = ints(16), *v = v0;
    attu_column *versions[80];
    size_t nv = 0;
    const void *first = NULL;
    bool moved = false;
    for (int i = 0; i < 80; i++) {
        attu_column *n = append1(v, (int64_t)(16 + i) * 10, false);
        if (i == 1) first = n->data;
        if (i > 1 && n->data != first) moved = true;
        versions[nv++] = n;
        v = n;
    }
    cr_assert(moved, "past its capacity a store is copied into a bigger one");
    for (size_t i = 0; i < nv; i++) check_prefix(versions[i], 17 + i);
    for (size_t i = 0; i < nv; i++) attu_column_free(versions[i]);
    attu_column_free(v0);
}

Test(column_store, growing_a_shared_version_unshares_it) {
    attu_column *v0 = ints(8);
    attu_column *v1 = append1(v0, 80, false);
    attu_column *v2 = append1(v1, 90, false);
    /* v1 is grown in place by someone (not an INSERT's path): it takes a
     * copy and v2's rows stay */
    cr_assert_eq(attu_column_reserve(v1, 64, &err), 0);
    cr_assert_null(v1->store);
    cr_assert_neq(v1->data, v2->data);
    ((int64_t *)v1->data)[9] = -1;
    v1->length = 10;
    cr_assert_eq(at(v2, 9), 90);
    cr_assert_eq(attu_column_ensure_validity(v2, &err), 0);   /* unshares too */
    cr_assert_null(v2->store);
    attu_column_set_null(v2, 3, true);
    cr_assert(!attu_column_is_null(v1, 3));
    attu_column_free(v0);
    attu_column_free(v1);
    attu_column_free(v2);
}

Test(column_store, private_copy_for_a_rewrite_of_old_rows) {
    attu_column *v0 = ints(4);
    attu_column *v1 = append1(v0, 40, false);
    attu_column *p = attu_column_append_version(v1, 2, true, &err);
    cr_assert_not_null(p);
    cr_assert_neq(p->data, v1->data);
    ((int64_t *)p->data)[0] = 999;                   /* a re-code of an old row */
    cr_assert_eq(at(v1, 0), 0);
    cr_assert_eq(p->length, 7);
    cr_assert_eq(at(p, 5), 0, "appended rows start zero");
    attu_column *v2 = append1(v1, 50, false);        /* v1 is still the newest of its store */
    cr_assert_eq(v2->data, v1->data);
    attu_column_free(p);
    attu_column_free(v2);
    attu_column_free(v1);
    attu_column_free(v0);
}

/* ---- dictionaries ------------------------------------------------------- */

static attu_dictionary *add1(attu_dictionary *d, const char *s, int32_t *code, int32_t *moved, int32_t **remap) {
    size_t len = strlen(s);
    attu_dictionary *n = attu_dictionary_add_sorted(d, &s, &len, 1, code, moved, remap, &err);
    cr_assert_not_null(n, "%s", err.message);
    return n;
}

static const char *str(const attu_dictionary *d, int32_t c) {
    static char buf[64];
    size_t len;
    const char *s = attu_dictionary_get(d, c, &len);
    memcpy(buf, s, len);
    buf[len] = 0;
    return buf;
}

Test(column_store, dictionary_tail_appends_share_and_old_ones_keep_their_strings) {
    const char *strs[] = { "b", "d", "f" };
    size_t lens[] = { 1, 1, 1 };
    int32_t codes[3], code, moved, *remap;
    attu_dictionary *d0 = attu_dictionary_build(strs, lens, 3, codes, &err);
    attu_dictionary *d1 = add1(d0, "g", &code, &moved, &remap);    /* copy with room */
    cr_assert_null(remap);
    cr_assert_eq(code, 3);
    cr_assert_not_null(d1->store);
    attu_dictionary *d2 = add1(d1, "h", &code, &moved, &remap);    /* in place */
    cr_assert_null(remap);
    cr_assert_eq(code, 4);
    cr_assert_eq(d2->bytes, d1->bytes);
    cr_assert_eq(d1->count, 4);
    cr_assert_eq(d2->count, 5);
    cr_assert_eq(attu_dictionary_find(d1, "h", 1) < 0, true, "d1 does not see h");
    cr_assert_eq(attu_dictionary_find(d2, "h", 1), 4);
    /* a second adder from d1 copies */
    attu_dictionary *e = add1(d1, "z", &code, &moved, &remap);
    cr_assert_neq(e->bytes, d1->bytes);
    cr_assert_str_eq(str(e, 4), "z");
    cr_assert_str_eq(str(d2, 4), "h");
    /* an existing string: the same dictionary */
    attu_dictionary *same = add1(d2, "d", &code, &moved, &remap);
    cr_assert_eq(same, d2);
    cr_assert_eq(code, 1);
    attu_dictionary_unref(same);
    /* a string before the last: a new dictionary, old codes re-coded */
    attu_dictionary *mid = add1(d2, "c", &code, &moved, &remap);
    cr_assert_eq(code, 1);
    cr_assert_not_null(remap);
    cr_assert_eq(moved, 1);
    cr_assert_eq(remap[0], 2);
    free(remap);
    cr_assert_str_eq(str(d2, 1), "d", "d2 is untouched");
    attu_dictionary_unref(mid);
    /* rollback: d2 freed gives "h" back, d1's next adder adds in place */
    attu_dictionary_unref(d2);
    attu_dictionary *d3 = add1(d1, "k", &code, &moved, &remap);
    cr_assert_eq(d3->bytes, d1->bytes);
    cr_assert_str_eq(str(d3, 4), "k");
    cr_assert_str_eq(str(d3, 3), "g");
    attu_dictionary_unref(d3);
    attu_dictionary_unref(e);
    attu_dictionary_unref(d1);
    attu_dictionary_unref(d0);
}
