/*
 * regr_accum.h - the two-variable statistics aggregates of PostgreSQL
 * (corr, covar_pop, covar_samp and the regr_* family): their shared
 * state, PostgreSQL's float8_regr_accum update of it, and the final
 * function of each aggregate.
 *
 * The state is (N, Sx, Sxx, Sy, Syy, Sxy) where Sxx, Syy and Sxy are the
 * sums of squared / crossed deviations from the running means, kept by the
 * Youngs-Cramer update exactly as PostgreSQL's float8_regr_accum does it,
 * so that every result matches PostgreSQL bit for bit when the rows come
 * in the same order. A row counts only when both Y and X are non-NULL
 * (the caller skips the others).
 */
#ifndef ATTU_REGR_ACCUM_H
#define ATTU_REGR_ACCUM_H

#include "engine/error.h"

#include <stdbool.h>
#include <stdint.h>

/* Which aggregate's final function; the order is the documentation's. */
typedef enum attu_regr_kind {
    ATTU_REGR_CORR = 1,
    ATTU_REGR_COVAR_POP,
    ATTU_REGR_COVAR_SAMP,
    ATTU_REGR_AVGX,
    ATTU_REGR_AVGY,
    ATTU_REGR_COUNT,      /* bigint: the rows where both are non-NULL (0 over none) */
    ATTU_REGR_INTERCEPT,
    ATTU_REGR_R2,
    ATTU_REGR_SLOPE,
    ATTU_REGR_SXX,
    ATTU_REGR_SXY,
    ATTU_REGR_SYY
} attu_regr_kind;

/* The aggregate of that SQL name (corr, regr_slope, ...), or 0. */
attu_regr_kind attu_regr_kind_named(const char *name);

typedef struct attu_regr_state {
    double n, sx, sxx, sy, syy, sxy;
} attu_regr_state;

/* Adds one (y, x) pair, both non-NULL. A finite pair whose sums leave the
 * double range raises PostgreSQL's 22003 "value out of range: overflow";
 * an infinite or NaN input makes the dependent sums NaN instead. */
int attu_regr_accum(attu_regr_state *s, double y, double x, attu_error *err);

/* The final value of aggregate k over the state (not ATTU_REGR_COUNT,
 * whose value is the count itself): false when it is NULL. */
bool attu_regr_final(const attu_regr_state *s, attu_regr_kind k, double *out);

#endif
