/*
 * ssb_result: a query answer as text cells, the common currency between the
 * engines the SSB runner drives (attud or PostgreSQL over libpq, DuckDB through
 * its C API), plus the comparison rule the benchmark checks answers with.
 */
#ifndef ATTU_SSB_RESULT_H
#define ATTU_SSB_RESULT_H

#include <stddef.h>

typedef struct {
    int ncols;
    long nrows;
    char **cells;  /* nrows * ncols, row-major; NULL pointer is SQL NULL */
    char *error;   /* non-NULL when the query failed: the engine's message */
} ssb_result_t;

/* Allocates an empty result of ncols columns. */
ssb_result_t *ssb_result_new(int ncols);
/* Appends a row; values are copied (NULL stays NULL). */
void ssb_result_add_row(ssb_result_t *r, const char *const *values);
/* A failed query's result, carrying a copy of msg. */
ssb_result_t *ssb_result_error(const char *msg);
void ssb_result_free(ssb_result_t *r);

/* Compares two answers row by row, in order. Cells match when their text is
 * equal, or when both parse as numbers within 1e-9 relative of each other
 * (floating sums may differ in the last bits between engines). On a
 * mismatch writes a one-line reason into why and returns 0. */
int ssb_result_equal(const ssb_result_t *a, const ssb_result_t *b, char *why,
                     size_t whylen);

/* Writes the answer as tab-separated text ("\N" for NULL), one row a line. */
int ssb_result_save(const ssb_result_t *r, const char *path);
/* Reads a file ssb_result_save wrote; NULL when it cannot be read. */
ssb_result_t *ssb_result_load(const char *path);

#endif
