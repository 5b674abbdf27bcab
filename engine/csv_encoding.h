/*
 * csv_encoding.h - private to the CSV reader: input encodings.
 *
 * The reader parses UTF-8 only. LATIN1 input is first widened to UTF-8
 * (every byte >= 0x80 becomes two bytes; newlines, delimiters and quotes
 * are ASCII and keep their places, so line numbers are unchanged). UTF-8
 * input is validated per chunk before parsing, and the parser turns the
 * first bad offset into a line:column error when it reaches that field.
 */
#ifndef ATTU_CSV_ENCODING_H
#define ATTU_CSV_ENCODING_H

#include <stddef.h>

/* Offset of the first byte of [data, data+n) that does not start a valid
 * UTF-8 sequence (overlong forms, surrogates, > U+10FFFF and NUL are
 * invalid, as in PostgreSQL), or n when all is valid. *bad_len gets the
 * number of bytes PostgreSQL quotes in its message: as many as the first
 * byte announces (1..4), at most to the end. */
size_t attu_utf8_validate(const char *data, size_t n, int *bad_len);

/* Returns a malloc'ed UTF-8 copy of LATIN1 bytes (*out_n its length), or
 * NULL on OOM. */
char *attu_latin1_to_utf8(const char *data, size_t n, size_t *out_n);

#endif
