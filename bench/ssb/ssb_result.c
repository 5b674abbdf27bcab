/*
 * ssb_result: answers as text cells and the benchmark's answer comparison.
 * See ssb_result.h.
 */
#include "ssb_result.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xrealloc(void *p, size_t n) {
    p = realloc(p, n ? n : 1);
    if (!p) { fprintf(stderr, "ssb: out of memory\n"); exit(1); }
    return p;
}

static char *xstrdup(const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    return memcpy(xrealloc(NULL, n), s, n);
}

ssb_result_t *ssb_result_new(int ncols) {
    ssb_result_t *r = xrealloc(NULL, sizeof *r);
    memset(r, 0, sizeof *r);
    r->ncols = ncols;
    return r;
}

void ssb_result_add_row(ssb_result_t *r, const char *const *values) {
    size_t base = (size_t)r->nrows * (size_t)r->ncols;
    r->cells = xrealloc(r->cells, (base + (size_t)r->ncols) * sizeof *r->cells);
    for (int c = 0; c < r->ncols; c++) r->cells[base + (size_t)c] = xstrdup(values[c]);
    r->nrows++;
}

ssb_result_t *ssb_result_error(const char *msg) {
    ssb_result_t *r = ssb_result_new(0);
    r->error = xstrdup(msg ? msg : "unknown error");
    return r;
}

void ssb_result_free(ssb_result_t *r) {
    if (!r) return;
    for (size_t i = 0; i < (size_t)r->nrows * (size_t)r->ncols; i++) free(r->cells[i]);
    free(r->cells);
    free(r->error);
    free(r);
}

/* Parses the whole string as a number; 0 when it is not one. */
static int as_number(const char *s, double *out) {
    if (!s || !*s) return 0;
    char *end;
    *out = strtod(s, &end);
    return *end == 0;
}

static int cell_equal(const char *a, const char *b) {
    if (!a || !b) return a == b;
    if (strcmp(a, b) == 0) return 1;
    double x, y;
    if (!as_number(a, &x) || !as_number(b, &y)) return 0;
    double scale = fmax(fabs(x), fabs(y));
    return fabs(x - y) <= 1e-9 * scale;
}

int ssb_result_equal(const ssb_result_t *a, const ssb_result_t *b, char *why,
                     size_t whylen) {
    if (a->error || b->error) {
        snprintf(why, whylen, "error: %s", a->error ? a->error : b->error);
        return 0;
    }
    if (a->ncols != b->ncols) {
        snprintf(why, whylen, "%d columns vs %d", a->ncols, b->ncols);
        return 0;
    }
    if (a->nrows != b->nrows) {
        snprintf(why, whylen, "%ld rows vs %ld", a->nrows, b->nrows);
        return 0;
    }
    for (long r = 0; r < a->nrows; r++)
        for (int c = 0; c < a->ncols; c++) {
            const char *x = a->cells[(size_t)r * (size_t)a->ncols + (size_t)c];
            const char *y = b->cells[(size_t)r * (size_t)b->ncols + (size_t)c];
            if (!cell_equal(x, y)) {
                snprintf(why, whylen, "row %ld column %d: '%s' vs '%s'", r + 1,
                         c + 1, x ? x : "NULL", y ? y : "NULL");
                return 0;
            }
        }
    return 1;
}

int ssb_result_save(const ssb_result_t *r, const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "#%d\n", r->ncols);
    for (long i = 0; i < r->nrows; i++)
        for (int c = 0; c < r->ncols; c++) {
            const char *v = r->cells[(size_t)i * (size_t)r->ncols + (size_t)c];
            fprintf(f, "%s%c", v ? v : "\\N", c + 1 == r->ncols ? '\n' : '\t');
        }
    return fclose(f) == 0 ? 0 : -1;
}

ssb_result_t *ssb_result_load(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char line[8192];
    int ncols = 0;
    if (!fgets(line, sizeof line, f) || sscanf(line, "#%d", &ncols) != 1 ||
        ncols < 0 || ncols > 1000) {
        fclose(f);
        return NULL;
    }
    ssb_result_t *r = ssb_result_new(ncols);
    const char **vals = xrealloc(NULL, (size_t)ncols * sizeof *vals);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *p = line;
        for (int c = 0; c < ncols; c++) {
            char *tab = strchr(p, '\t');
            if (tab) *tab = 0;
            vals[c] = strcmp(p, "\\N") == 0 ? NULL : p;
            p = tab ? tab + 1 : p + strlen(p);
        }
        ssb_result_add_row(r, vals);
    }
    free(vals);
    fclose(f);
    return r;
}
