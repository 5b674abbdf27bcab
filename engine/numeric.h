/* numeric.h - numeric values with a per-value display scale, PostgreSQL 15's
 * scale rules.
 *
 * A DECIMAL(p,s) column keeps one scale for all its values. PostgreSQL's
 * numeric without a typmod, and every numeric it computes, instead carries a
 * display scale (dscale) per value, and division, avg and float8 -> numeric
 * choose it from the value (see docs/architecture.md, "Numeric display
 * scale"). attu_numeric is that value: a 128-bit scaled integer and its
 * dscale, value = m / 10^dscale, up to 38 significant digits. Results beyond
 * that raise 22003 rather than wrap.
 *
 * This module is the arithmetic core of the planned variable-scale numeric
 * representation; it does not touch columns or expression programs yet. */
#ifndef ATTU_NUMERIC_H
#define ATTU_NUMERIC_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/error.h"

#define ATTU_NUMERIC_MAX_DIGITS 38

typedef struct attu_numeric {
    __int128 m;     /* the value times 10^dscale */
    int dscale;     /* digits printed after the point, 0..ATTU_NUMERIC_MAX_DIGITS */
} attu_numeric;

/* PostgreSQL's NUMERIC_MIN_SIG_DIGITS: division keeps at least this many. */
#define ATTU_NUMERIC_MIN_SIG_DIGITS 16

attu_numeric attu_numeric_from_int64(int64_t v);
/* A DECIMAL(p,s) value (v = value * 10^scale) keeps scale as its dscale. */
attu_numeric attu_numeric_from_decimal(int64_t v, int scale);

/* float8 -> numeric as PostgreSQL's float8_numeric: the value rounded to 15
 * significant digits (DBL_DIG), dscale = the places that text has after the
 * point (trailing zeros dropped). NaN and infinities: 0A000. */
int attu_numeric_from_double(double d, attu_numeric *out, attu_error *err);

/* + and -: dscale = max of the dscales. * : dscale = sum of the dscales.
 * Overflow of 38 digits: 22003. */
int attu_numeric_add(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err);
int attu_numeric_sub(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err);
int attu_numeric_mul(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err);

/* PostgreSQL's select_div_scale: the dscale of a / b. */
int attu_numeric_div_scale(attu_numeric a, attu_numeric b);
/* a / b rounded half away from zero at attu_numeric_div_scale places;
 * 22012 for b = 0, 22003 past 38 digits. avg is sum / count by this rule. */
int attu_numeric_div(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err);

/* -1, 0, 1; equal values compare equal whatever their dscale (1.0 = 1). */
int attu_numeric_cmp(attu_numeric a, attu_numeric b);

/* Text as PostgreSQL prints it: exactly dscale places. Returns the length;
 * 64 bytes always suffice. */
int attu_numeric_format(attu_numeric a, char *buf, int cap);

#endif
