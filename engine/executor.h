/*
 * executor.h - runs a stage plan (stage_plan.h) on a backend (backend.h).
 *
 * Every operator is written once, here, against the backend's primitives;
 * the same plan runs on the GPU or the CPU. Intermediate relations are
 * reference-counted columns in backend memory (a SCAN borrows the table's
 * resident copy, a pass-through projection shares its input's column).
 * The result comes back to the host as attu_columns.
 *
 * Cancellation: *cancel (set from another thread) and the deadline are
 * checked between stages and inside long loops; a stop fails the query with
 * 57014 and frees everything it allocated.
 */
#ifndef ATTU_EXECUTOR_H
#define ATTU_EXECUTOR_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/backend.h"
#include "engine/column.h"
#include "engine/stage_plan.h"

typedef struct attu_exec_ctx {
    attu_backend      *be;
    volatile int      *cancel;       /* nonzero = stop (may be NULL) */
    double             deadline_ms;  /* attu_now_ms() value, 0 = none */
    const char        *timeout_reason; /* message when the deadline passes */
    bool               analyze;      /* record rows and time per stage */
    /* The most rows a WITH RECURSIVE may produce before it fails with
     * 54000 (a runaway recursion stops before it exhausts memory; the
     * session setting attu.max_recursive_rows): 0 = the default
     * (ATTU_RECURSIVE_ROWS_DEFAULT), negative = no limit. */
    int64_t            max_recursive_rows;
} attu_exec_ctx;

#define ATTU_RECURSIVE_ROWS_DEFAULT 10000000

/* Runs the plan; on success *cols_out holds root->ncols host columns of
 * *nrows_out rows (caller frees each with attu_column_free and the array). */
int attu_execute(attu_exec_ctx *ctx, attu_stage *root, attu_column ***cols_out,
                 size_t *nrows_out, attu_error *err);

/* Monotonic milliseconds. */
double attu_now_ms(void);

/* The device-resident copy of a table column (uploaded once, cached in
 * column->device). data/valid stay owned by the column. */
int attu_column_resident(attu_backend *be, attu_column *col, const attu_buf **data,
                         const attu_buf **valid, attu_error *err);

#endif
