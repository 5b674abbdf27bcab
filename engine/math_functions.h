/*
 * math_functions.h - PostgreSQL 15's gcd, lcm, factorial and width_bucket
 * of numbers (the numeric gcd and lcm are numeric.h's arithmetic; the
 * thresholds-array width_bucket is engine/array.h's ATTU_ARR_WIDTH_BUCKET).
 *
 * They run as the ATTU_OP_GCD_I .. ATTU_OP_WIDTH_BUCKET_N instructions,
 * host only (the GPU expression evaluator declines their opcodes).
 */
#ifndef ATTU_ENGINE_MATH_FUNCTIONS_H
#define ATTU_ENGINE_MATH_FUNCTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/error.h"
#include "engine/numeric.h"

/* gcd(a, b) and lcm(a, b) of integers of the type t (ATTU_TYPE_INT32 or
 * ATTU_TYPE_INT64): always >= 0, lcm of a zero 0; a result the type cannot
 * hold (gcd(-2147483648, 0), lcm(-2147483648, 1)) is PostgreSQL's 22003
 * "integer out of range" ("bigint out of range"). */
int attu_int_gcd(int64_t a, int64_t b, bool bigint, int64_t *out, attu_error *err);
int attu_int_lcm(int64_t a, int64_t b, bool bigint, int64_t *out, attu_error *err);

/* factorial(n) -> numeric: 1 for 0 and 1, 22003 "factorial of a negative
 * number is undefined" below 0 (PostgreSQL 15.18's code), 22003 "value
 * overflows numeric format" past 32! (attu's 36 digits; PostgreSQL's
 * limit is 32177!). */
int attu_factorial(int64_t n, attu_numeric *out, attu_error *err);

/* width_bucket(operand, low, high, count) -> integer: the bucket 1..count
 * of count equal-width buckets of [low, high) (high < low: the buckets
 * run downwards) that holds operand, 0 below them, count + 1 above, as
 * PostgreSQL's width_bucket_float8 and width_bucket_numeric; 2201G for a
 * count below 1, equal bounds, NaN anywhere or infinite bounds (an
 * infinite operand is below or above every bucket); 22003 when count + 1
 * passes integer. Bounds whose difference overflows double precision give
 * -2147483648, as PostgreSQL 15 does on x86-64. */
int attu_width_bucket_float(double x, double lo, double hi, int64_t count, int64_t *out, attu_error *err);
int attu_width_bucket_numeric(attu_numeric x, attu_numeric lo, attu_numeric hi, int64_t count, int64_t *out,
                              attu_error *err);

#endif
