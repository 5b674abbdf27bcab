/*
 * row_set.c - canonical ordering and tolerant comparison of results
 * (row_set.h).
 */
#include "row_set.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void row_set_free(row_set *rs) {
    if (!rs) return;
    for (size_t i = 0; i < rs->nrows * (size_t)rs->ncols; i++) free(rs->vals[i]);
    free(rs->vals);
    free(rs->numeric);
    memset(rs, 0, sizeof *rs);
}

static bool parse_number(const char *s, double *out) {
    char *end;
    *out = strtod(s, &end);
    return end != s && *end == '\0';
}

/* The sort key of one value: numbers at 9 significant digits. */
static void sort_key(const char *v, bool numeric, char *buf, size_t cap) {
    double d;
    if (!v) snprintf(buf, cap, "\x01NULL");
    else if (numeric && parse_number(v, &d))   /* -0 keys as 0: they compare equal */
        snprintf(buf, cap, "%.8e", d == 0 ? 0.0 : d);
    else snprintf(buf, cap, "%s", v);
}

static const row_set *g_rs;   /* qsort has no context argument */

static int cmp_row(const void *pa, const void *pb) {
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    char ka[512], kb[512];
    for (int c = 0; c < g_rs->ncols; c++) {
        sort_key(g_rs->vals[a * (size_t)g_rs->ncols + (size_t)c], g_rs->numeric[c], ka, sizeof ka);
        sort_key(g_rs->vals[b * (size_t)g_rs->ncols + (size_t)c], g_rs->numeric[c], kb, sizeof kb);
        int r = strcmp(ka, kb);
        if (r) return r;
    }
    /* Rows equal at 9 digits (128485643721 and 128485644131 both key as
     * 1.28485644e+11) would keep their input order, which differs between
     * the engines: break such ties by the exact text. */
    for (int c = 0; c < g_rs->ncols; c++) {
        const char *x = g_rs->vals[a * (size_t)g_rs->ncols + (size_t)c];
        const char *y = g_rs->vals[b * (size_t)g_rs->ncols + (size_t)c];
        if (!x || !y) {
            if (x != y) return x ? 1 : -1;
            continue;
        }
        int r = strcmp(x, y);
        if (r) return r;
    }
    return 0;
}

void row_set_sort(row_set *rs) {
    if (rs->nrows < 2 || rs->ncols == 0) return;
    size_t *idx = malloc(rs->nrows * sizeof *idx);
    char **sorted = malloc(rs->nrows * (size_t)rs->ncols * sizeof *sorted);
    if (!idx || !sorted) abort();
    for (size_t i = 0; i < rs->nrows; i++) idx[i] = i;
    g_rs = rs;
    qsort(idx, rs->nrows, sizeof *idx, cmp_row);
    for (size_t i = 0; i < rs->nrows; i++)
        memcpy(sorted + i * (size_t)rs->ncols, rs->vals + idx[i] * (size_t)rs->ncols,
               (size_t)rs->ncols * sizeof *sorted);
    free(rs->vals);
    rs->vals = sorted;
    free(idx);
}

static bool numbers_close(const char *a, const char *b) {
    double x, y;
    if (!parse_number(a, &x) || !parse_number(b, &y)) return strcmp(a, b) == 0;
    if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
    if (isinf(x) || isinf(y)) return x == y;
    double scale = fmax(fabs(x), fabs(y));
    return fabs(x - y) <= 1e-9 * fmax(scale, 1.0);
}

bool row_set_equal(const row_set *e, const row_set *a, char *why, size_t whylen) {
    if (e->ncols != a->ncols) {
        snprintf(why, whylen, "%d columns expected, %d returned", e->ncols, a->ncols);
        return false;
    }
    if (e->nrows != a->nrows) {
        snprintf(why, whylen, "%zu rows expected, %zu returned", e->nrows, a->nrows);
        return false;
    }
    for (size_t r = 0; r < e->nrows; r++) {
        for (int c = 0; c < e->ncols; c++) {
            const char *x = e->vals[r * (size_t)e->ncols + (size_t)c];
            const char *y = a->vals[r * (size_t)a->ncols + (size_t)c];
            bool same;
            if (!x || !y) same = !x && !y;
            else if (e->numeric[c]) same = numbers_close(x, y);
            else same = strcmp(x, y) == 0;
            if (!same) {
                snprintf(why, whylen, "row %zu column %d: expected %s, got %s",
                         r + 1, c + 1, x ? x : "NULL", y ? y : "NULL");
                return false;
            }
        }
    }
    return true;
}

void row_set_print(const row_set *rs, const char *prefix, size_t max) {
    for (size_t r = 0; r < rs->nrows && r < max; r++) {
        printf("%s", prefix);
        for (int c = 0; c < rs->ncols; c++) {
            const char *v = rs->vals[r * (size_t)rs->ncols + (size_t)c];
            printf("%s%s", c ? "\t" : "", v ? v : "NULL");
        }
        printf("\n");
    }
    if (rs->nrows > max) printf("%s... (%zu rows)\n", prefix, rs->nrows);
}
