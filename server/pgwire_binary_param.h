/*
 * pgwire_binary_param.h - Bind parameters in binary format, turned into
 * the text the database reads (attu_prepared_execute takes every
 * parameter as text, read as the parameter's type).
 *
 * Each type's layout is PostgreSQL's *_recv's; the errors are theirs too:
 * a value shorter than its type's layout is 08P01 "insufficient data left
 * in message" (an ERROR: the connection goes on), a longer one 22P03.
 */
#ifndef ATTU_SERVER_PGWIRE_BINARY_PARAM_H
#define ATTU_SERVER_PGWIRE_BINARY_PARAM_H

#include <stdint.h>

#include "engine/error.h"

/* The binary value v[0..len) of Bind parameter number param (1-based),
 * of type OID oid, as malloc'd text; NULL with err set when it is
 * malformed, or 0A000 for a type attu takes no binary value of. */
char *pg_binary_param_to_text(uint32_t oid, const char *v, int32_t len, int param, attu_error *err);
/* param 0 stands for a field of COPY FROM's binary format: a value longer
 * than its layout is then "incorrect binary data format", as
 * CopyReadBinaryAttribute words it. */

/* One scalar value of type oid as malloc'd text: the parameter itself
 * (elem 0) or element number elem (1-based) of an array parameter, which
 * words a value longer than its layout as array_recv does ("improper
 * binary format in array element N"). NULL with err set on failure. */
char *pg_binary_scalar_to_text(uint32_t oid, const char *v, int32_t len, int param, int elem,
                               attu_error *err);

/* 0 when v[0..len) is UTF-8 without a NUL byte, as PostgreSQL checks a
 * client's text; else -1 with 22021 "invalid byte sequence for encoding
 * "UTF8": 0x.." naming the first bad sequence's bytes. */
int pg_utf8_check(const char *v, int32_t len, attu_error *err);

/* The element type OID of array type OID oid, 0 when oid is no array
 * type's: engine/pg_array_oid.h's, and an enum type's array (OIDs of
 * engine/enum_type.h: the enum's OID and 1). */
uint32_t pg_param_array_elem_oid(uint32_t oid);

/* array_recv: the binary array v[0..len) of the array type array_oid
 * (engine/pg_array_oid.h) as array_in's text ('{1,NULL,3}',
 * '[0:1]={"a","b"}'); NULL with err set on failure (pgwire_array_recv.c). */
char *pg_array_recv_text(uint32_t array_oid, const char *v, int32_t len, int param, attu_error *err);

/* range_recv: the binary range v[0..len) of the range type OID oid as
 * range_in's text ('[1,5)', 'empty'; bounds quoted); NULL with err set on
 * failure (pgwire_range_recv.c). pg_range_subtype_oid: the subtype's OID
 * of range type OID oid, 0 for no range type. */
uint32_t pg_range_subtype_oid(uint32_t oid);
char *pg_range_recv_text(uint32_t oid, const char *v, int32_t len, int param, attu_error *err);

#endif
