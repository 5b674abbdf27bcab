/* Unit tests for engine/column.c, table.c and catalog.c. */
#include <criterion/criterion.h>
#include <string.h>

#include "engine/catalog.h"

static attu_table *make_table(const char *name) {
    attu_column_def defs[2];
    memset(defs, 0, sizeof defs);
    strcpy(defs[0].name, "id");
    defs[0].type = attu_type_make(ATTU_TYPE_INT32);
    strcpy(defs[1].name, "v");
    defs[1].type = attu_type_make(ATTU_TYPE_FLOAT64);
    attu_error err;
    attu_error_clear(&err);
    attu_table *t = attu_table_new(name, 2, defs, &err);
    cr_assert_not_null(t, "%s", err.message);
    return t;
}

Test(column, nulls_and_growth) {
    attu_column *c = attu_column_new(attu_type_make(ATTU_TYPE_INT64), 2, NULL);
    cr_assert_not_null(c);
    cr_assert_null(c->validity);
    cr_assert_eq(attu_column_reserve(c, 1000, NULL), 0);
    int64_t *v = c->data;
    for (int i = 0; i < 1000; i++) v[i] = i * 3;
    c->length = 1000;
    cr_assert_eq(attu_column_ensure_validity(c, NULL), 0);
    attu_column_set_null(c, 5, true);
    attu_column_set_null(c, 999, true);
    attu_column_set_null(c, 64, true);
    attu_column_set_null(c, 64, false);
    cr_assert(attu_column_is_null(c, 5));
    cr_assert_eq(v[5], 0, "a NULL slot holds zero");
    cr_assert(!attu_column_is_null(c, 64));
    cr_assert_eq(attu_column_null_count(c), 2);
    cr_assert_eq(attu_column_reserve(c, 5000, NULL), 0);
    cr_assert(!attu_column_is_null(c, 4000), "grown rows are valid");
    char buf[64];
    cr_assert_eq(attu_column_format(c, 5, buf, sizeof buf, NULL), (size_t)-1);
    cr_assert_eq(attu_column_format(c, 7, buf, sizeof buf, NULL), 2);
    cr_assert_str_eq(buf, "21");
    attu_column *k = attu_column_clone(c, NULL);
    cr_assert_eq(k->length, 1000);
    cr_assert(attu_column_is_null(k, 999));
    cr_assert_eq(((int64_t *)k->data)[7], 21);
    attu_column_free(c);
    attu_column_free(k);
}

Test(column, text_format_long_values) {
    const char *s[] = {"short", "a much longer string than the buffer"};
    size_t l[] = {5, strlen(s[1])};
    int32_t codes[2];
    attu_column *c = attu_column_new(attu_type_make(ATTU_TYPE_TEXT), 2, NULL);
    c->dict = attu_dictionary_build(s, l, 2, codes, NULL);
    memcpy(c->data, codes, sizeof codes);
    c->length = 2;
    char buf[8];
    const char *lp = NULL;
    cr_assert_eq(attu_column_format(c, 0, buf, sizeof buf, &lp), 5);
    cr_assert_str_eq(buf, "short");
    cr_assert_null(lp);
    cr_assert_eq(attu_column_format(c, 1, buf, sizeof buf, &lp), l[1]);
    cr_assert_not_null(lp);
    cr_assert_eq(memcmp(lp, s[1], l[1]), 0);
    attu_column_free(c);
}

Test(table, duplicate_columns_rejected) {
    attu_column_def defs[2];
    memset(defs, 0, sizeof defs);
    strcpy(defs[0].name, "a");
    strcpy(defs[1].name, "a");
    defs[0].type = defs[1].type = attu_type_make(ATTU_TYPE_INT32);
    attu_error err;
    attu_error_clear(&err);
    cr_assert_null(attu_table_new("t", 2, defs, &err));
    cr_assert_str_eq(err.sqlstate, "42701");
    cr_assert_str_eq(err.message, "column \"a\" specified more than once");
}

Test(table, clone_and_find) {
    attu_table *t = make_table("t");
    cr_assert_eq(attu_table_find_column(t, "v"), 1);
    cr_assert_eq(attu_table_find_column(t, "V"), -1);
    attu_column_reserve(t->cols[0], 3, NULL);
    attu_column_reserve(t->cols[1], 3, NULL);
    ((int32_t *)t->cols[0]->data)[2] = 9;
    t->cols[0]->length = t->cols[1]->length = t->nrows = 3;
    attu_table *c = attu_table_clone(t, NULL);
    cr_assert_eq(c->nrows, 3);
    cr_assert_eq(((int32_t *)c->cols[0]->data)[2], 9);
    cr_assert_neq(c->cols[0]->data, t->cols[0]->data);
    attu_table_free(t);
    attu_table_free(c);
}

Test(catalog, create_lookup_list_drop) {
    attu_catalog *cat = attu_catalog_new();
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_catalog_add(cat, make_table("zeta"), &err), 0);
    cr_assert_eq(attu_catalog_add(cat, make_table("alpha"), &err), 0);
    cr_assert_eq(attu_catalog_add(cat, make_table("mid"), &err), 0);
    attu_table *dup = make_table("mid");
    cr_assert_neq(attu_catalog_add(cat, dup, &err), 0);
    cr_assert_str_eq(err.sqlstate, "42P07");
    cr_assert_str_eq(err.message, "relation \"mid\" already exists");
    attu_table_free(dup);
    cr_assert_eq(attu_catalog_count(cat), 3);
    cr_assert_str_eq(attu_catalog_at(cat, 0)->name, "alpha");
    cr_assert_str_eq(attu_catalog_at(cat, 1)->name, "mid");
    cr_assert_str_eq(attu_catalog_at(cat, 2)->name, "zeta");
    cr_assert_null(attu_catalog_at(cat, 3));
    cr_assert_not_null(attu_catalog_lookup(cat, "mid"));
    cr_assert_null(attu_catalog_lookup(cat, "nope"));

    attu_table *repl = make_table("mid");
    repl->version = 7;
    attu_table *old = attu_catalog_replace(cat, repl);
    cr_assert_not_null(old);
    cr_assert_eq(attu_catalog_lookup(cat, "mid")->version, 7);
    attu_table_free(old);

    attu_error_clear(&err);
    cr_assert_null(attu_catalog_remove(cat, "nope", false, &err));
    cr_assert_str_eq(err.sqlstate, "42P01");
    attu_error_clear(&err);
    cr_assert_null(attu_catalog_remove(cat, "nope", true, &err));
    cr_assert(!err.set);
    attu_table *gone = attu_catalog_remove(cat, "alpha", false, &err);
    cr_assert_not_null(gone);
    attu_table_free(gone);
    cr_assert_eq(attu_catalog_count(cat), 2);
    cr_assert_str_eq(attu_catalog_at(cat, 0)->name, "mid");
    attu_catalog_free(cat);
}
