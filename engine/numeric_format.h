/*
 * numeric_format.h - PostgreSQL 15's to_char of numbers and to_number:
 * the template patterns 9 0 . , D G PR S L MI PL SG RN TH V EEEE FM (and B,
 * C, SP, which PostgreSQL reads and ignores), in the C locale (D is '.',
 * G ',', L a space). Each source type answers as PostgreSQL's own variant:
 * integer and bigint exactly (zeros padded after the point), real and
 * double precision to 6 and 15 significant digits, numeric exactly;
 * digits beyond the template's print as '#'. Errors: 42601 for a bad
 * template, 22003, 22P02, 0A000 as PostgreSQL.
 */
#ifndef ATTU_ENGINE_NUMERIC_FORMAT_H
#define ATTU_ENGINE_NUMERIC_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/datetime_format.h"
#include "engine/error.h"
#include "engine/numeric.h"

/* The source's PostgreSQL variant */
typedef enum attu_num_src { ATTU_NUMSRC_INT4, ATTU_NUMSRC_INT8, ATTU_NUMSRC_FLOAT4, ATTU_NUMSRC_FLOAT8,
                            ATTU_NUMSRC_NUMERIC } attu_num_src;

/* The most bytes attu_to_char_num writes (no NUL). */
size_t attu_to_char_num_bound(size_t flen);

/* to_char(value, fmt): i for the integer sources, f for the floats, nv
 * for numeric; cache: the template's parse, kept across rows. Returns the length written into out, or -1 with err set. */
long attu_to_char_num(attu_num_src src, int64_t i, double f, attu_numeric nv, const char *fmt, size_t flen, char *out,
                      attu_fmt_cache *cache, attu_error *err);

/* to_number(s, fmt); 0, or -1 with err set. *is_null: PostgreSQL's NULL
 * for an empty template. */
int attu_to_number(const char *s, size_t slen, const char *fmt, size_t flen, attu_numeric *out, int *is_null,
                   attu_fmt_cache *cache, attu_error *err);

#endif
