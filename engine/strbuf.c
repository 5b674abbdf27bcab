/* strbuf.c - a growable string (see strbuf.h). */
#include "engine/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for n more bytes and the NUL; capacity doubles so that appending
 * byte by byte stays linear. */
static int grow(attu_strbuf *b, size_t n) {
    if (b->oom) return -1;
    if (n > (size_t)-1 / 2 - b->n) { b->oom = true; return -1; }
    size_t need = b->n + n + 1;
    if (need <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) { b->oom = true; return -1; }
    b->p = p;
    b->cap = cap;
    return 0;
}

int attu_strbuf_add(attu_strbuf *b, const void *s, size_t n) {
    if (grow(b, n)) return -1;
    if (n) memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
    return 0;
}

int attu_strbuf_puts(attu_strbuf *b, const char *s) { return attu_strbuf_add(b, s, strlen(s)); }

int attu_strbuf_putc(attu_strbuf *b, char c) { return attu_strbuf_add(b, &c, 1); }

int attu_strbuf_vprintf(attu_strbuf *b, const char *fmt, va_list ap) {
    if (b->oom) return -1;
    /* first into the room there is; when that is short, grow and again */
    va_list again;
    va_copy(again, ap);
    size_t room = b->cap > b->n ? b->cap - b->n : 0;
    int n = vsnprintf(room ? b->p + b->n : NULL, room, fmt, ap);
    if (n < 0) { va_end(again); if (b->p) b->p[b->n] = '\0'; return 0; }   /* (an encoding error: nothing added) */
    if ((size_t)n >= room) {
        if (grow(b, (size_t)n)) { va_end(again); if (b->p) b->p[b->n] = '\0'; return -1; }
        vsnprintf(b->p + b->n, (size_t)n + 1, fmt, again);
    }
    va_end(again);
    b->n += (size_t)n;
    return 0;
}

int attu_strbuf_printf(attu_strbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int rc = attu_strbuf_vprintf(b, fmt, ap);
    va_end(ap);
    return rc;
}

/* s between two q characters, each q inside doubled. */
static int quoted(attu_strbuf *b, const char *s, char q) {
    attu_strbuf_putc(b, q);
    for (const char *c = s; *c; c++) {
        const char *next = strchr(c, q);
        size_t run = next ? (size_t)(next - c) + 1 : strlen(c);
        attu_strbuf_add(b, c, run);
        if (!next) break;
        attu_strbuf_putc(b, q);
        c = next;
    }
    return attu_strbuf_putc(b, q);
}

int attu_strbuf_quote_ident(attu_strbuf *b, const char *s) { return quoted(b, s, '"'); }

int attu_strbuf_quote_literal(attu_strbuf *b, const char *s) { return quoted(b, s, '\''); }

void attu_strbuf_reset(attu_strbuf *b) {
    b->n = 0;
    b->oom = false;
    if (b->p) b->p[0] = '\0';
}

int attu_strbuf_check(const attu_strbuf *b, attu_error *err) {
    return b->oom ? attu_error_oom(err) : 0;
}

char *attu_strbuf_steal(attu_strbuf *b, attu_error *err) {
    if (b->oom) { attu_strbuf_free(b); attu_error_oom(err); return NULL; }
    if (!b->p && attu_strbuf_add(b, "", 0)) { attu_strbuf_free(b); attu_error_oom(err); return NULL; }
    char *p = b->p;
    *b = (attu_strbuf){ 0 };
    return p;
}

void attu_strbuf_free(attu_strbuf *b) {
    free(b->p);
    *b = (attu_strbuf){ 0 };
}
