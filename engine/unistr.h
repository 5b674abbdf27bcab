/*
 * unistr.h - PostgreSQL 15's unistr(text): Unicode escapes in a string
 * decoded (\XXXX, \+XXXXXX, \uXXXX, \UXXXXXXXX, \\ for a backslash;
 * UTF-16 surrogate pairs joined). Runs as ATTU_OP_UNISTR, host only.
 */
#ifndef ATTU_ENGINE_UNISTR_H
#define ATTU_ENGINE_UNISTR_H

#include <stddef.h>

#include "engine/error.h"

/* s[0..len) decoded into out (room for len bytes: the text never grows);
 * *out_len its length. 42601 "invalid Unicode escape" (with PostgreSQL's
 * HINT) or "invalid Unicode surrogate pair", 22023 "invalid Unicode code
 * point: XXXX" (0 and past U+10FFFF). */
int attu_unistr(const char *s, size_t len, char *out, size_t *out_len, attu_error *err);

#endif
