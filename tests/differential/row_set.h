/*
 * row_set.h - a query result as text values, from either engine, and the
 * comparison the differential test applies to two of them.
 *
 * Values are PostgreSQL's text output (attu formats the same way); NULL is
 * a NULL pointer. Columns that PostgreSQL reports as floats (float4/8)
 * compare numerically within 1e-9 relative (with an absolute floor of
 * 1e-9), since the engines may sum floats in a different order; all else,
 * integers and numerics too (whose display scale must match), compares
 * byte for byte (differential.c decides which columns are numeric;
 * ATTU_DIFF_LOOSE_NUMERIC=1 compares integers and numerics as numbers
 * again).
 */
#ifndef ATTU_TESTS_ROW_SET_H
#define ATTU_TESTS_ROW_SET_H

#include <stdbool.h>
#include <stddef.h>

typedef struct row_set {
    int     ncols;
    size_t  nrows;
    char  **vals;       /* nrows * ncols, row-major; NULL = SQL NULL */
    bool   *numeric;    /* per column: compare as numbers */
} row_set;

void row_set_free(row_set *rs);

/* Sorts rows into a canonical order (numbers by value rounded to 9
 * significant digits, so tiny float differences do not reorder them). */
void row_set_sort(row_set *rs);

/* Returns true when equal; otherwise writes a short explanation. The
 * numeric flags of `expected` decide how columns compare. */
bool row_set_equal(const row_set *expected, const row_set *actual,
                   char *why, size_t whylen);

/* Prints up to max rows, TAB-separated, each line prefixed. */
void row_set_print(const row_set *rs, const char *prefix, size_t max);

#endif
