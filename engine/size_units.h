/*
 * size_units.h - sizes in PostgreSQL 15's units (bytes, kB, MB, GB, TB,
 * PB: powers of 1024): pg_size_bytes reads them, pg_size_pretty writes
 * them.
 *
 * They run as the ATTU_OP_PG_SIZE_BYTES and ATTU_OP_PG_SIZE_PRETTY_I / _N
 * instructions, host only.
 */
#ifndef ATTU_ENGINE_SIZE_UNITS_H
#define ATTU_ENGINE_SIZE_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"
#include "engine/numeric.h"

/* s[0..len): blanks, a number ([+-]digits[.digits][e[+-]n]), blanks, an
 * optional unit (bytes, kB, MB, GB, TB, PB in any case; powers of 1024),
 * blanks. The product is rounded half away from zero. 22023 "invalid
 * size" (with DETAIL and HINT for a bad unit), 22003 "bigint out of range". */
int attu_pg_size_bytes(const char *s, size_t len, int64_t *out, attu_error *err);

/* pg_size_pretty(bigint) into buf (64 bytes are enough): below 10240 in
 * bytes, else in the largest unit that keeps the value under 20480 halves
 * ("10 kB" .. "10239 kB", then MB ...; PB has no limit), rounded half away
 * from zero in PostgreSQL's steps (each unit divides the previous one's
 * truncated halves). */
void attu_pg_size_pretty_int(int64_t v, char *buf, size_t cap);

/* pg_size_pretty(numeric), the same steps in numeric arithmetic: bytes
 * keep their fraction ("1.5 bytes"), larger units are whole; NaN and the
 * infinities end in PB ("NaN PB"). */
int attu_pg_size_pretty_numeric(attu_numeric v, char *buf, size_t cap, attu_error *err);

#endif
