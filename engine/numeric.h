/* numeric.h - numeric values with a per-value display scale, PostgreSQL 15's
 * scale rules.
 *
 * A DECIMAL(p,s) column keeps one scale for all its values. PostgreSQL's
 * numeric without a typmod, and every numeric it computes, instead carries a
 * display scale (dscale) per value, and division, avg and float8 -> numeric
 * choose it from the value (see docs/architecture.md, "Numeric display
 * scale"). attu_numeric is that value: a 128-bit scaled integer and its
 * dscale, value = m / 10^dscale, up to 36 significant digits. Results beyond
 * that raise 22003 rather than wrap.
 *
 * This module is the arithmetic of the NUMERIC type (types.h): expression
 * programs, the CPU reducers and the text conversions call it. 36 digits,
 * not 38, so that a value and its dscale pack into one 16-byte column slot
 * (attu_numeric_pack). */
#ifndef ATTU_NUMERIC_H
#define ATTU_NUMERIC_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/error.h"

#define ATTU_NUMERIC_MAX_DIGITS 36

typedef struct attu_numeric {
    __int128 m;     /* the value times 10^dscale */
    int dscale;     /* digits printed after the point, 0..ATTU_NUMERIC_MAX_DIGITS;
                       ATTU_NUMERIC_SPECIAL: NaN or an infinity (below) */
} attu_numeric;

/* PostgreSQL 14+'s numeric NaN, Infinity and -Infinity. They take a dscale
 * no number has (numbers have 0..36) that still fits a slot's low six bits
 * (attu_numeric_pack), so a slot holds them unchanged: m 0 is NaN, 1
 * Infinity, -1 -Infinity. Negation and abs of m are theirs too. NaN equals
 * NaN and sorts above every value, Infinity above every number
 * (attu_numeric_cmp, executor_keys.c's images). Every function of this
 * module takes them, with PostgreSQL's rules (numeric.c: NaN in, NaN out;
 * Infinity - Infinity, 0 * Infinity, Infinity / Infinity are NaN). The
 * DECIMAL(p,s) columns (int64) hold none: the casts to DECIMAL reject
 * them (types.c attu_numeric_to_decimal_checked's callers). */
#define ATTU_NUMERIC_SPECIAL 63
static inline bool attu_numeric_is_special(attu_numeric a) { return a.dscale == ATTU_NUMERIC_SPECIAL; }
static inline bool attu_numeric_is_nan(attu_numeric a) { return a.dscale == ATTU_NUMERIC_SPECIAL && a.m == 0; }
/* 1 Infinity, -1 -Infinity, 0 otherwise */
static inline int attu_numeric_inf_sign(attu_numeric a) {
    return a.dscale == ATTU_NUMERIC_SPECIAL ? (int)a.m : 0;
}
static inline attu_numeric attu_numeric_nan(void) { attu_numeric n = { 0, ATTU_NUMERIC_SPECIAL }; return n; }
static inline attu_numeric attu_numeric_inf(int sign) { attu_numeric n = { sign < 0 ? -1 : 1, ATTU_NUMERIC_SPECIAL }; return n; }
/* The sign of a value: -1, 0, 1 (an infinity's; NaN: 0, callers test it) */
static inline int attu_numeric_sign(attu_numeric a) { return a.m < 0 ? -1 : a.m > 0; }

/* PostgreSQL's NUMERIC_MIN_SIG_DIGITS: division keeps at least this many. */
#define ATTU_NUMERIC_MIN_SIG_DIGITS 16

attu_numeric attu_numeric_from_int64(int64_t v);
/* A DECIMAL(p,s) value (v = value * 10^scale) keeps scale as its dscale. */
attu_numeric attu_numeric_from_decimal(int64_t v, int scale);

/* float8 -> numeric as PostgreSQL's float8_numeric: the value rounded to 15
 * significant digits (DBL_DIG), dscale = the places that text has after the
 * point (trailing zeros dropped). NaN and infinities: theirs. */
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

/* ---- column slots ----
 * A NUMERIC slot is one 16-byte integer m * 64 + dscale: |m| < 10^36 keeps
 * m * 64 inside 128 bits and dscale <= 36 fits the low 6 bits. */
void attu_numeric_pack(attu_numeric a, void *slot16);
attu_numeric attu_numeric_unpack(const void *slot16);

/* ---- conversions ---- */
/* Text as PostgreSQL's numeric_in: [+-]digits[.digits][e[+-]n], whitespace
 * around; the dscale is the digits written after the point (less the
 * exponent, at least 0). 22P02 for bad syntax, 22003 past 36 digits.
 * 'NaN', and 'Infinity' / 'inf' with a sign, in any case. */
int attu_numeric_parse(const char *s, size_t len, attu_numeric *out, attu_error *err);
double attu_numeric_to_double(attu_numeric a);
/* Rounds half away from zero to `scale` places (scale < 0: tens,
 * hundreds...); the result's dscale is max(scale, 0), PostgreSQL's round. */
int attu_numeric_round(attu_numeric a, int scale, attu_numeric *out, attu_error *err);
/* The same, truncating toward zero (trunc). */
int attu_numeric_trunc(attu_numeric a, int scale, attu_numeric *out, attu_error *err);
/* floor / ceil: dscale 0. */
int attu_numeric_floor(attu_numeric a, bool ceil, attu_numeric *out, attu_error *err);
/* The value times 10^scale as an int64, rounded half away from zero; -1
 * when it does not fit (the caller raises its own 22003), -2 for NaN and
 * the infinities (attu_numeric_special_error). */
int attu_numeric_to_scaled(attu_numeric a, int scale, int64_t *out);
/* Square root rounded to rscale places (a >= 0; 2201F otherwise). */
int attu_numeric_sqrt(attu_numeric a, int rscale, attu_numeric *out, attu_error *err);
/* a % b: truncated remainder, dscale max of the dscales; 22012. */
int attu_numeric_mod(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err);
/* gcd(a, b) and lcm(a, b) (PostgreSQL's numeric_gcd, numeric_lcm): of the
 * values at the larger of their display scales, which the result keeps;
 * always >= 0; lcm of a zero is 0; NaN or an infinity gives NaN. 22003
 * past 36 digits. */
int attu_numeric_gcd(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err);
int attu_numeric_lcm(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err);
/* div(a, b): the quotient truncated toward zero, dscale 0 (PostgreSQL's
 * numeric_div_trunc); 22012 for b = 0. */
int attu_numeric_div_trunc(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err);
/* sqrt(a) at numeric_sqrt's scale: 16 significant digits from the
 * argument's weight, at least a's dscale (exact: integer square root). */
int attu_numeric_sqrt_fn(attu_numeric a, attu_numeric *out, attu_error *err);
/* ln(a) and log10(a) (numeric_ln, log(numeric)): 16 significant digits
 * from the estimated weight of the result, at least a's dscale; computed
 * in long double. 2201E for zero and negative arguments. */
int attu_numeric_ln(attu_numeric a, attu_numeric *out, attu_error *err);
int attu_numeric_log10(attu_numeric a, attu_numeric *out, attu_error *err);
/* exp(a) at numeric_exp's scale: 16 significant digits by the result's
 * estimated decimal weight (a * log10(e)), at least a's dscale, at most
 * 1000 places; computed in long double like ln (last digit on a rounding
 * edge may differ), 22003 past 36 digits. */
int attu_numeric_exp(attu_numeric a, attu_numeric *out, attu_error *err);
/* a ^ b and log(b, x) with PostgreSQL's result scales (power_var,
 * log_var), computed in long double: at least 16 significant digits. */
int attu_numeric_power(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err);
int attu_numeric_log(attu_numeric base, attu_numeric x, attu_numeric *out, attu_error *err);

/* 0A000 "cannot convert NaN to integer" (what: the target type's name),
 * as PostgreSQL's casts of NaN and infinities to integers. */
int attu_numeric_special_error(attu_numeric a, const char *what, attu_error *err);
/* NaN or an infinity into a DECIMAL(precision, scale): an infinity is
 * PostgreSQL's 22003 ("cannot hold an infinite value"); NaN, which
 * PostgreSQL's numeric(p,s) holds, is 0A000 here (the int64 slot has no
 * room for it: docs/sql-reference.md). */
int attu_numeric_decimal_special_error(attu_numeric a, int precision, int scale, attu_error *err);
/* A finite value too wide for NUMERIC(precision, scale): PostgreSQL's
 * 22003 "numeric field overflow" with its detail. Returns -1. */
int attu_numeric_field_overflow(int precision, int scale, attu_error *err);

#endif
