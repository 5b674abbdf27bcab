/*
 * test_key_set.c - engine/key_set.c on its own: keys found by value (the
 * equalities PostgreSQL's btree has: -0 = 0, NaN = NaN, numeric 1.0 =
 * 1.00, interval '1 day' = '24 hours', char(n) trailing blanks), NULL keys
 * never hashed, and a set that stays right through many additions and
 * removals (runs that wrap around the end of the slots, removal shifting
 * entries back, growth).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/interval.h"
#include "engine/key_set.h"
#include "engine/numeric.h"

static attu_table *one_column(attu_type type, size_t n) {
    attu_error err;
    attu_error_clear(&err);
    attu_column_def def;
    memset(&def, 0, sizeof def);
    snprintf(def.name, sizeof def.name, "k");
    def.type = type;
    attu_table *t = attu_table_new("t", 1, &def, &err);
    cr_assert_not_null(t);
    cr_assert_eq(attu_column_reserve(t->cols[0], n ? n : 1, &err), 0);
    t->cols[0]->length = t->nrows = n;
    return t;
}

/* rows a and b of t: equal keys, equal hashes */
static void same_key(const attu_table *t, size_t a, size_t b) {
    int col = 0;
    uint64_t ha, hb;
    cr_assert(attu_key_hash(t, &col, 1, a, &ha) && attu_key_hash(t, &col, 1, b, &hb));
    cr_assert_eq(ha, hb, "rows %zu and %zu", a, b);
    cr_assert(attu_key_equal(t, a, t, b, &col, 1), "rows %zu and %zu", a, b);
}

static void other_key(const attu_table *t, size_t a, size_t b) {
    int col = 0;
    cr_assert(!attu_key_equal(t, a, t, b, &col, 1), "rows %zu and %zu", a, b);
}

Test(key_set, equal_as_postgresql) {
    attu_table *f = one_column(attu_type_make(ATTU_TYPE_FLOAT64), 5);
    double *d = f->cols[0]->data;
    d[0] = 0.0; d[1] = -0.0; d[2] = NAN; d[3] = -NAN; d[4] = 1.0;
    same_key(f, 0, 1);
    same_key(f, 2, 3);
    other_key(f, 0, 2);
    other_key(f, 0, 4);
    attu_table_free(f);

    attu_table *r = one_column(attu_type_make(ATTU_TYPE_FLOAT32), 2);
    float *fl = r->cols[0]->data;
    fl[0] = 0.0f; fl[1] = -0.0f;
    same_key(r, 0, 1);
    attu_table_free(r);

    attu_table *n = one_column(attu_type_make(ATTU_TYPE_NUMERIC), 4);
    attu_numeric_pack((attu_numeric){ 10, 1 }, (char *)n->cols[0]->data);        /* 1.0 */
    attu_numeric_pack((attu_numeric){ 100, 2 }, (char *)n->cols[0]->data + 16);  /* 1.00 */
    attu_numeric_pack(attu_numeric_nan(), (char *)n->cols[0]->data + 32);
    attu_numeric_pack(attu_numeric_nan(), (char *)n->cols[0]->data + 48);
    same_key(n, 0, 1);
    same_key(n, 2, 3);
    other_key(n, 0, 2);
    attu_table_free(n);

    attu_table *iv = one_column(attu_type_make(ATTU_TYPE_INTERVAL), 3);
    attu_interval *v = iv->cols[0]->data;
    v[0] = (attu_interval){ 0, 1, 0 };
    v[1] = (attu_interval){ 0, 0, 24LL * 3600 * 1000000 };
    v[2] = (attu_interval){ 1, 0, 0 };
    same_key(iv, 0, 1);
    other_key(iv, 0, 2);
    attu_table_free(iv);
}

Test(key_set, char_n_ignores_trailing_blanks_text_does_not) {
    attu_error err;
    attu_error_clear(&err);
    const char *strs[] = { "b", "b ", "b  " };
    size_t lens[] = { 1, 2, 3 };
    for (int bp = 0; bp < 2; bp++) {
        attu_type ty = bp ? (attu_type){ ATTU_TYPE_TEXT, 0, 1, 0 } : attu_type_make(ATTU_TYPE_TEXT);
        attu_table *t = one_column(ty, 3);
        int32_t codes[3];
        t->cols[0]->dict = attu_dictionary_build(strs, lens, 3, codes, &err);
        cr_assert_not_null(t->cols[0]->dict);
        memcpy(t->cols[0]->data, codes, sizeof codes);
        if (bp) { same_key(t, 0, 1); same_key(t, 1, 2); }
        else { other_key(t, 0, 1); other_key(t, 1, 2); }
        attu_table_free(t);
    }
}

Test(key_set, null_is_no_key) {
    attu_error err;
    attu_error_clear(&err);
    attu_table *t = one_column(attu_type_make(ATTU_TYPE_INT32), 2);
    cr_assert_eq(attu_column_ensure_validity(t->cols[0], &err), 0);
    attu_column_set_null(t->cols[0], 1, true);
    int col = 0;
    uint64_t h;
    cr_assert(attu_key_hash(t, &col, 1, 0, &h));
    cr_assert(!attu_key_hash(t, &col, 1, 1, &h));
    attu_table_free(t);
}

Test(key_set, adds_and_removes_stay_consistent) {
    enum { N = 5000 };
    attu_table *t = one_column(attu_type_make(ATTU_TYPE_INT64), N);
    int64_t *k = t->cols[0]->data;
    for (size_t i = 0; i < N; i++) k[i] = (int64_t)(i * 7919 % 100003);
    int col = 0;
    attu_key_set *ks = attu_key_set_new(t, &col, 1, 4);   /* (small: it must grow) */
    cr_assert_not_null(ks);
    attu_key_rows self = { t, 0, NULL };
    bool in[N] = { false };
    unsigned long long st = 42;
    for (int round = 0; round < 20000; round++) {
        st = st * 6364136223846793005ULL + 1442695040888963407ULL;
        size_t r = (size_t)((st >> 33) % N);
        uint64_t h;
        cr_assert(attu_key_hash(t, &col, 1, r, &h));
        int64_t found = attu_key_set_find(ks, h, &self, t, r);
        cr_assert_eq(found, in[r] ? (int64_t)r : -1, "round %d row %zu", round, r);
        if (in[r]) attu_key_set_remove(ks, h, (int64_t)r);
        else cr_assert_eq(attu_key_set_add(ks, h, (int64_t)r), 0);
        in[r] = !in[r];
    }
    size_t count = 0;
    for (size_t r = 0; r < N; r++) {
        uint64_t h;
        attu_key_hash(t, &col, 1, r, &h);
        cr_assert_eq(attu_key_set_find(ks, h, &self, t, r), in[r] ? (int64_t)r : -1, "row %zu", r);
        count += in[r];
    }
    cr_assert_eq(ks->count, count);
    attu_key_set_free(ks);
    attu_table_free(t);
}

Test(key_set, removal_in_a_run_that_wraps) {
    /* every key the same hash: one run, wrapping the 16 slots' end */
    attu_table *t = one_column(attu_type_make(ATTU_TYPE_INT64), 6);
    int64_t *k = t->cols[0]->data;
    for (int i = 0; i < 6; i++) k[i] = i;
    int col = 0;
    attu_key_set *ks = attu_key_set_new(t, &col, 1, 6);
    cr_assert_not_null(ks);
    attu_key_rows self = { t, 0, NULL };
    uint64_t h = ks->mask - 2;   /* (a forced hash: home slot near the end) */
    for (int i = 0; i < 6; i++) cr_assert_eq(attu_key_set_add(ks, h, i), 0);
    attu_key_set_remove(ks, h, 1);
    attu_key_set_remove(ks, h, 4);
    for (int i = 0; i < 6; i++)
        cr_assert_eq(attu_key_set_find(ks, h, &self, t, (size_t)i), (i == 1 || i == 4) ? -1 : i, "row %d", i);
    attu_table_free(t);
    attu_key_set_free(ks);
}
