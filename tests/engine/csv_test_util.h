/* Helpers shared by the CSV tests: temporary files, tables, loads. */
#ifndef ATTU_TEST_CSV_UTIL_H
#define ATTU_TEST_CSV_UTIL_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/catalog.h"
#include "engine/csv_reader.h"

/* Writes bytes to a fresh temporary file; returns its path (static
 * buffer per call site is not needed: the caller frees). */
static inline char *tmp_file(const char *name, const char *bytes, size_t n) {
    char *dir = strdup("/tmp/attu_csv_XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char *path = malloc(strlen(dir) + strlen(name) + 2);
    sprintf(path, "%s/%s", dir, name);
    free(dir);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    if (n) cr_assert_eq(fwrite(bytes, 1, n, f), n);
    fclose(f);
    return path;
}

static inline void tmp_remove(char *path) {
    unlink(path);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    rmdir(path);
    free(path);
}

/* A table from "name:type,name:type" with type one of int, bigint, real,
 * double, num(p.s), text, bool, date, ts, and a trailing ! for NOT NULL. */
static inline attu_table *schema_table(const char *name, const char *spec) {
    attu_column_def defs[64];
    int n = 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", spec);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        memset(&defs[n], 0, sizeof defs[n]);
        char *colon = strchr(tok, ':');
        *colon = '\0';
        snprintf(defs[n].name, sizeof defs[n].name, "%s", tok);
        char *ty = colon + 1;
        size_t tl = strlen(ty);
        if (ty[tl - 1] == '!') { defs[n].not_null = true; ty[tl - 1] = '\0'; }
        int p, s;
        if (!strcmp(ty, "int")) defs[n].type = attu_type_make(ATTU_TYPE_INT32);
        else if (!strcmp(ty, "bigint")) defs[n].type = attu_type_make(ATTU_TYPE_INT64);
        else if (!strcmp(ty, "real")) defs[n].type = attu_type_make(ATTU_TYPE_FLOAT32);
        else if (!strcmp(ty, "double")) defs[n].type = attu_type_make(ATTU_TYPE_FLOAT64);
        else if (sscanf(ty, "num(%d.%d)", &p, &s) == 2) defs[n].type = attu_type_decimal(p, s);
        else if (!strcmp(ty, "text")) defs[n].type = attu_type_make(ATTU_TYPE_TEXT);
        else if (!strcmp(ty, "bool")) defs[n].type = attu_type_make(ATTU_TYPE_BOOL);
        else if (!strcmp(ty, "date")) defs[n].type = attu_type_make(ATTU_TYPE_DATE);
        else if (!strcmp(ty, "ts")) defs[n].type = attu_type_make(ATTU_TYPE_TIMESTAMP);
        else cr_assert_fail("bad type %s", ty);
        n++;
    }
    attu_table *t = attu_table_new(name, n, defs, NULL);
    cr_assert_not_null(t);
    return t;
}

/* Loads bytes (written to a file called fname) into a copy of base. */
static inline attu_table *load_bytes(const attu_table *base, const attu_csv_options *o,
                                     const char *fname, const char *bytes, size_t n,
                                     attu_error *err) {
    char *path = tmp_file(fname, bytes, n);
    attu_csv_source src = { path, NULL, NULL, fname };
    size_t rows = 0;
    attu_error_clear(err);
    attu_table *t = attu_csv_load(base, o, &src, &rows, err);
    if (t) cr_assert_eq(rows, t->nrows - base->nrows);
    tmp_remove(path);
    return t;
}

static inline attu_table *load_str(const attu_table *base, const attu_csv_options *o,
                                   const char *text, attu_error *err) {
    return load_bytes(base, o, "t.csv", text, strlen(text), err);
}

/* Row r, column c as text ("NULL" for NULL). */
static inline const char *cell(const attu_table *t, int c, size_t r) {
    static char buf[8][256];
    static int k;
    char *b = buf[k++ & 7];
    const char *lp = NULL;
    size_t n = attu_column_format(t->cols[c], r, b, 256, &lp);
    if (n == (size_t)-1) return "NULL";
    if (lp) { snprintf(b, 256, "%.*s", (int)n, lp); }
    return b;
}

#endif
