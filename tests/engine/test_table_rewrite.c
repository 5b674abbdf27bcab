/* test_table_rewrite.c - engine/table_rewrite.h: DELETE's, UPDATE's and
 * TRUNCATE's new table versions, built beside the old one. */
#include <criterion/criterion.h>

#include <string.h>

#include "engine/table_rewrite.h"

static attu_error err;

/* t(i INTEGER NOT NULL, s TEXT, n NUMERIC(6,2)): rows (0,'w0',0.50) ...
 * with s NULL on every third row */
static attu_table *make(size_t n) {
    attu_column_def defs[3];
    memset(defs, 0, sizeof defs);
    strcpy(defs[0].name, "i"); defs[0].type = attu_type_make(ATTU_TYPE_INT32); defs[0].not_null = true;
    strcpy(defs[1].name, "s"); defs[1].type = attu_type_make(ATTU_TYPE_TEXT);
    strcpy(defs[2].name, "n"); defs[2].type = attu_type_decimal(6, 2);
    attu_error_clear(&err);
    attu_table *t = attu_table_new("t", 3, defs, &err);
    cr_assert_not_null(t);
    const char *strs[] = { "w0", "w1", "w2", "w3" };
    size_t lens[] = { 2, 2, 2, 2 };
    int32_t codes[4];
    for (int c = 0; c < 3; c++) cr_assert_eq(attu_column_reserve(t->cols[c], n ? n : 1, &err), 0);
    t->cols[1]->dict = attu_dictionary_build(strs, lens, 4, codes, &err);
    for (size_t r = 0; r < n; r++) {
        ((int32_t *)t->cols[0]->data)[r] = (int32_t)r;
        ((int32_t *)t->cols[1]->data)[r] = codes[r % 4];
        ((int64_t *)t->cols[2]->data)[r] = (int64_t)r * 50;
    }
    for (int c = 0; c < 3; c++) t->cols[c]->length = n;
    for (size_t r = 0; r < n; r += 3) {
        cr_assert_eq(attu_column_ensure_validity(t->cols[1], &err), 0);
        attu_column_set_null(t->cols[1], r, true);
    }
    t->nrows = n;
    t->version = 7;
    return t;
}

static const char *text_at(const attu_column *c, size_t r) {
    static char buf[64];
    const char *lng = NULL;
    size_t n = attu_column_format(c, r, buf, sizeof buf, &lng);
    return n == (size_t)-1 ? "NULL" : lng ? lng : buf;
}

Test(table_rewrite, keep_rows_keeps_order_nulls_and_trims_dictionaries) {
    attu_table *t = make(12);
    t->cols[0]->key_stats.state = 2;           /* learnt of the old rows */
    t->cols[0]->range.state = 2;
    uint8_t keep[12];
    for (int r = 0; r < 12; r++) keep[r] = r % 4 != 1;   /* drops every 'w1' */
    attu_table *n = attu_table_keep_rows(t, keep, &err);
    cr_assert_not_null(n, "%s", err.message);
    cr_assert_eq(n->nrows, 9);
    cr_assert_eq(n->version, 8);
    cr_assert_eq(n->cols[0]->key_stats.state, 0);
    cr_assert_eq(n->cols[0]->range.state, 0);
    cr_assert_null(n->cols[0]->device);
    const int expect[] = { 0, 2, 3, 4, 6, 7, 8, 10, 11 };
    for (int r = 0; r < 9; r++) {
        cr_assert_eq(((int32_t *)n->cols[0]->data)[r], expect[r]);
        cr_assert_eq(((int64_t *)n->cols[2]->data)[r], expect[r] * 50);
        cr_assert_eq(attu_column_is_null(n->cols[1], (size_t)r), expect[r] % 3 == 0);
    }
    cr_assert_str_eq(text_at(n->cols[1], 1), "w2");
    /* 'w1' is gone from the dictionary, and the codes stay in byte order */
    cr_assert_eq(n->cols[1]->dict->count, 3);
    cr_assert_eq(attu_dictionary_find(n->cols[1]->dict, "w1", 2) < 0, true);
    cr_assert_str_eq(text_at(n->cols[1], 5), "w3");
    cr_assert_lt(((int32_t *)n->cols[1]->data)[1], ((int32_t *)n->cols[1]->data)[5]);   /* w2 < w3 */
    /* the old table is untouched */
    cr_assert_eq(t->nrows, 12);
    cr_assert_eq(t->cols[1]->dict->count, 4);
    attu_table_free(n);
    attu_table_free(t);
}

Test(table_rewrite, keep_no_rows) {
    attu_table *t = make(5);
    uint8_t keep[5] = { 0 };
    attu_table *n = attu_table_keep_rows(t, keep, &err);
    cr_assert_not_null(n);
    cr_assert_eq(n->nrows, 0);
    cr_assert_eq(n->cols[1]->dict->count, 0);
    attu_table_free(n);
    attu_table_free(t);
}

static attu_column *values_text(const char *const *strs, size_t n) {
    attu_column *c = attu_column_new(attu_type_make(ATTU_TYPE_TEXT), n, &err);
    const char *s[8];
    size_t l[8];
    for (size_t i = 0; i < n; i++) { s[i] = strs[i] ? strs[i] : ""; l[i] = strlen(s[i]); }
    attu_dictionary_unref(c->dict);
    c->dict = attu_dictionary_build(s, l, n, (int32_t *)c->data, &err);
    c->length = n;
    for (size_t i = 0; i < n; i++)
        if (!strs[i]) { attu_column_ensure_validity(c, &err); attu_column_set_null(c, i, true); }
    return c;
}

Test(table_rewrite, update_rows_sets_values_merges_dictionaries) {
    attu_table *t = make(6);
    const char *vals[] = { "zz", NULL, "a" };
    attu_column *v = values_text(vals, 3);
    attu_column *nv = attu_column_new(attu_type_decimal(6, 2), 3, &err);
    ((int64_t *)nv->data)[0] = 12345; ((int64_t *)nv->data)[1] = 1; ((int64_t *)nv->data)[2] = 2;
    nv->length = 3;
    /* rows 1, 3 and 4 change: row 1 takes value 2, row 3 value 0, row 4 value 1 */
    int64_t src[6] = { -1, 2, -1, 0, 1, -1 };
    int cols[2] = { 1, 2 };
    attu_column *values[2] = { v, nv };
    attu_table *n = attu_table_update_rows(t, src, 2, cols, values, &err);
    cr_assert_not_null(n, "%s", err.message);
    cr_assert_eq(n->version, 8);
    const char *expect[6] = { "NULL", "a", "w2", "zz", "NULL", "w1" };
    for (int r = 0; r < 6; r++) cr_assert_str_eq(text_at(n->cols[1], (size_t)r), expect[r], "row %d", r);
    cr_assert_str_eq(text_at(n->cols[2], 3), "123.45");
    cr_assert_str_eq(text_at(n->cols[2], 1), "0.02");
    cr_assert_str_eq(text_at(n->cols[2], 0), "0.00");
    /* w0 (only in NULL rows) and w3 (row 3, replaced) are gone */
    cr_assert_eq(n->cols[1]->dict->count, 4);
    attu_table_free(n);
    attu_column_free(v);
    attu_column_free(nv);
    attu_table_free(t);
}

Test(table_rewrite, update_rows_null_into_not_null_fails) {
    attu_table *t = make(3);
    attu_column *v = attu_column_new(attu_type_make(ATTU_TYPE_INT32), 1, &err);
    v->length = 1;
    attu_column_ensure_validity(v, &err);
    attu_column_set_null(v, 0, true);
    int64_t src[3] = { -1, 0, -1 };
    int cols[1] = { 0 };
    attu_error_clear(&err);
    attu_table *n = attu_table_update_rows(t, src, 1, cols, &v, &err);
    cr_assert_null(n);
    cr_assert_str_eq(err.sqlstate, "23502");
    cr_assert_str_eq(err.message, "null value in column \"i\" of relation \"t\" violates not-null constraint");
    cr_assert_eq(((int32_t *)t->cols[0]->data)[1], 1);
    attu_column_free(v);
    attu_table_free(t);
}

Test(table_rewrite, truncated_and_gather) {
    attu_table *t = make(4);
    attu_table *n = attu_table_truncated(t, &err);
    cr_assert_not_null(n);
    cr_assert_eq(n->nrows, 0);
    cr_assert_eq(n->ncols, 3);
    cr_assert(n->defs[0].not_null);
    cr_assert_eq(n->cols[2]->type.scale, 2);
    attu_table_free(n);
    size_t rows[3] = { 2, 0, 2 };
    attu_column *g = attu_column_gather(t->cols[1], rows, 3, &err);
    cr_assert_str_eq(text_at(g, 0), "w2");
    cr_assert_str_eq(text_at(g, 1), "NULL");
    cr_assert_str_eq(text_at(g, 2), "w2");
    attu_column_free(g);
    attu_table_free(t);
}
