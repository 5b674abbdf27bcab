/* The real data sets: statecity.csv (project data/) and the Census
 * Gazetteer file (tab-delimited LATIN1, from $ATTU_SHARED_DIR/data). */
#include "csv_test_util.h"

#include <sys/stat.h>

static char *data_path(const char *env, const char *def_root, const char *rel) {
    const char *root = getenv(env);
    if (!root) root = def_root;
    char *p = malloc(strlen(root) + strlen(rel) + 2);
    sprintf(p, "%s/%s", root, rel);
    return p;
}

Test(csv_data, statecity_29510_rows_52_states) {
    char *path = data_path("ATTU_SOURCE_DIR", ".", "data/statecity.csv");
    attu_table *base = schema_table("cities",
        "state:text,state_fips:text,name:text,city_fips:text,gnis:bigint,type:text,"
        "lat:double,lon:double");
    attu_csv_options o;
    attu_csv_options_default(&o);
    o.header = true;
    attu_csv_source src = { path, NULL, NULL, "statecity.csv" };
    attu_error err;
    attu_error_clear(&err);
    size_t rows = 0;
    attu_table *t = attu_csv_load(base, &o, &src, &rows, &err);
    cr_assert_not_null(t, "%s: %s", path, err.message);
    cr_assert_eq(rows, 29510);
    cr_assert_eq(t->nrows, 29510);
    cr_assert_eq(t->cols[0]->dict->count, 52);
    /* The first data row: AL,01,Abanda,00100,2582661,CDP,33.091627,-85.527029 */
    cr_assert_str_eq(cell(t, 0, 0), "AL");
    cr_assert_str_eq(cell(t, 2, 0), "Abanda");
    cr_assert_str_eq(cell(t, 3, 0), "00100");
    cr_assert_str_eq(cell(t, 4, 0), "2582661");
    cr_assert_str_eq(cell(t, 6, 0), "33.091627");
    cr_assert_str_eq(cell(t, 7, 0), "-85.527029");
    for (int c = 0; c < t->ncols; c++) cr_assert_eq(attu_column_null_count(t->cols[c]), 0);
    attu_table_free(t);
    attu_table_free(base);
    free(path);
}

Test(csv_data, gazetteer_tab_latin1) {
    char *path = data_path("ATTU_SHARED_DIR", "../shared", "data/Gaz_places_national.txt");
    struct stat st;
    if (stat(path, &st) != 0) {
        free(path);
        cr_skip_test("Gaz_places_national.txt not found under $ATTU_SHARED_DIR/data");
    }
    attu_table *base = schema_table("gaz",
        "stusps:text,geoid:text,ansicode:text,name:text,aland:bigint,awater:bigint,"
        "aland_sqmi:double,awater_sqmi:double,intptlat:double,intptlong:double");
    attu_csv_options o;
    attu_csv_options_default(&o);
    o.header = true;
    o.delimiter = '\t';
    o.encoding = ATTU_ENCODING_LATIN1;
    attu_csv_source src = { path, NULL, NULL, "Gaz_places_national.txt" };
    attu_error err;
    attu_error_clear(&err);
    attu_table *t = attu_csv_load(base, &o, &src, NULL, &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(t->nrows, 29514);
    const char *want = "La Ca\xc3\xb1" "ada Flintridge city";
    cr_assert_geq(attu_dictionary_find(t->cols[3]->dict, want, strlen(want)), 0,
                  "LATIN1 n-tilde converted to UTF-8");
    cr_assert_str_eq(cell(t, 9, t->nrows - 1), "-66.056034");
    attu_table_free(t);
    /* The same file read as UTF-8 fails on the first LATIN1 byte (line
     * 2601, field 4: "La Ca\xf1ada ..."). */
    o.encoding = ATTU_ENCODING_UTF8;
    attu_error_clear(&err);
    cr_assert_null(attu_csv_load(base, &o, &src, NULL, &err));
    cr_assert_str_eq(err.sqlstate, "22021");
    cr_assert_str_eq(err.message,
        "Gaz_places_national.txt:2601:4: invalid byte sequence for encoding \"UTF8\": 0xf1 0x61 0x64 0x61");
    attu_table_free(base);
    free(path);
}
