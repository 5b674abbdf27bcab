/*
 * strbuf.h - a growable string: SQL text built for the engine's own
 * queries, a stored file's image, a COPY's output.
 *
 * An allocation failure is remembered rather than returned at every call:
 * once oom is set, further appends do nothing, so a caller builds its whole
 * text with plain calls and checks once at the end (attu_strbuf_check, or
 * attu_strbuf_steal), reporting 53200 "out of memory" as the engine does
 * elsewhere. Each append also returns -1 when the text is incomplete, for
 * callers that stop at the first failure.
 *
 * The fields are public: p is the text, NUL-terminated once anything was
 * added (NULL before), n its length. Start with `attu_strbuf b = { 0 };`.
 */
#ifndef ATTU_ENGINE_STRBUF_H
#define ATTU_ENGINE_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine/error.h"

typedef struct attu_strbuf {
    char  *p;     /* the text; NULL until something is added */
    size_t n;     /* its length in bytes, without the terminating NUL */
    size_t cap;   /* bytes allocated at p */
    bool   oom;   /* an allocation failed: the text is incomplete */
} attu_strbuf;

/* Appends n bytes of s (which may hold NULs). 0, or -1 once oom. */
int attu_strbuf_add(attu_strbuf *b, const void *s, size_t n);
int attu_strbuf_puts(attu_strbuf *b, const char *s);
int attu_strbuf_putc(attu_strbuf *b, char c);
/* printf-style, any length. */
int attu_strbuf_printf(attu_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int attu_strbuf_vprintf(attu_strbuf *b, const char *fmt, va_list ap);
/* s as a double-quoted SQL identifier, always quoted: "a""b". */
int attu_strbuf_quote_ident(attu_strbuf *b, const char *s);
/* s as a SQL string constant (standard_conforming_strings): 'it''s'. */
int attu_strbuf_quote_literal(attu_strbuf *b, const char *s);

/* Empties the text, keeping its memory for reuse; clears oom. */
void attu_strbuf_reset(attu_strbuf *b);
/* 0, or -1 with 53200 in err when an append failed. */
int attu_strbuf_check(const attu_strbuf *b, attu_error *err);
/* The text, now the caller's to free ("" when nothing was added), and b
 * empty again. On an earlier allocation failure: NULL, 53200 in err, the
 * text freed. */
char *attu_strbuf_steal(attu_strbuf *b, attu_error *err);
/* Frees the text; b is empty again. */
void attu_strbuf_free(attu_strbuf *b);

#endif
