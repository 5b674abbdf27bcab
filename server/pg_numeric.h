/*
 * pg_numeric.h - PostgreSQL's binary wire format of NUMERIC, to and from
 * the decimal text that attu's columns print and parse.
 *
 * The binary form (numeric_send / numeric_recv) is a header of four int16s
 * and then base-10000 digits:
 *
 *   ndigits   number of base-10000 digits that follow
 *   weight    power of 10000 of the first digit (value = sum d[i] * 10000^(weight-i))
 *   sign      0x0000 positive, 0x4000 negative, 0xC000 NaN,
 *             0xD000 +Infinity, 0xF000 -Infinity
 *   dscale    decimal digits shown after the point
 *   d[0..ndigits)  each 0..9999, no leading or trailing zero digit
 *
 * Going through text keeps the server independent of how the engine stores
 * decimals (a scaled int64 today, perhaps wider later): whatever
 * attu_column_format prints is what the client receives, bit for bit equal
 * in value and display scale to the text format.
 */
#ifndef ATTU_SERVER_PG_NUMERIC_H
#define ATTU_SERVER_PG_NUMERIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"
#include "server/pgwire_encode.h"

/* Appends one binary NUMERIC field (int32 length, then the value) for the
 * decimal text txt[0..n): [-]digits[.digits], "NaN", "Infinity" or
 * "-Infinity". Returns false, appending nothing, when txt is none of those. */
bool pg_numeric_put_binary(pgbuf *b, const char *txt, size_t n);

/* Decodes a binary NUMERIC parameter (len bytes at v) into malloc'd decimal
 * text, with numeric_recv's errors in its order: a value that runs out is
 * 08P01 "insufficient data left in message", a bad sign, scale or digit
 * 22P03; bytes left over are 22P03 naming parameter $param, or element
 * elem (1-based) of an array parameter when elem > 0. NULL is returned
 * with err set. */
char *pg_numeric_binary_to_text(const char *v, int32_t len, int param, int elem, attu_error *err);

#endif
