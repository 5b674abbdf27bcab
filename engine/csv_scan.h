/*
 * csv_scan.h - private to the CSV reader: splitting bytes into fields.
 *
 * Quoting follows PostgreSQL COPY's CSV mode: a quote character anywhere in
 * a field opens a quoted section and the next unescaped quote closes it;
 * inside, the escape character (by default the quote itself, so "" is one
 * quote) makes the following quote or escape literal, and delimiters and
 * newlines are data. Records end at LF; a CR just before it (outside quotes)
 * is dropped, so CRLF and LF files read the same. A field is "quoted" when
 * any part of it was, which is what keeps a quoted "" from matching the
 * NULL string.
 *
 * Because quotes toggle state wherever they appear, the quote state at any
 * byte is the parity of the quote characters before it (when escape ==
 * quote). That is what lets the reader split a file into chunks and find
 * every chunk's first record in parallel with exactly the boundaries a
 * sequential reader would see.
 */
#ifndef ATTU_CSV_SCAN_H
#define ATTU_CSV_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct csv_cursor {
    const char *data;
    size_t size;        /* end of the whole input */
    size_t pos;         /* next byte */
    size_t line;        /* physical line of pos (1-based) */
    char delim, quote, escape;
    uint8_t special[256];  /* delim, quote, '\n' */
    uint64_t bdelim, bquote; /* delim / quote repeated in all 8 bytes */
    char *scratch;      /* unescaped text of fields that need it */
    size_t scratch_cap;
} csv_cursor;

enum { CSV_END_DELIM = 0, CSV_END_RECORD = 1, CSV_END_EOF = 2 };

typedef struct csv_field {
    const char *text;   /* into data or scratch; valid until the next field */
    size_t len;
    size_t raw_start;   /* byte span in data, for encoding errors */
    size_t raw_end;
    size_t line;        /* where the field starts */
    bool quoted;
    int end;            /* CSV_END_* */
} csv_field;

static inline void csv_cursor_init(csv_cursor *c, const char *data, size_t size,
                                   char delim, char quote, char escape) {
    memset(c, 0, sizeof *c);
    c->data = data;
    c->size = size;
    c->line = 1;
    c->delim = delim;
    c->quote = quote;
    c->escape = escape;
    c->special[(unsigned char)delim] = 1;
    c->special[(unsigned char)quote] = 1;
    c->special['\n'] = 1;
    c->bdelim = 0x0101010101010101ULL * (unsigned char)delim;
    c->bquote = 0x0101010101010101ULL * (unsigned char)quote;
}

/* High bit set in each byte of x that is zero, and only there. */
static inline uint64_t csv_zero_bytes(uint64_t x) {
    const uint64_t lo7 = 0x7f7f7f7f7f7f7f7fULL;
    return ~(((x & lo7) + lo7) | x | lo7);
}

static inline void csv_cursor_free(csv_cursor *c) {
    free(c->scratch);
    c->scratch = NULL;
}

static inline int csv_scratch_put(csv_cursor *c, size_t *n, char ch) {
    if (*n == c->scratch_cap) {
        size_t cap = c->scratch_cap ? c->scratch_cap * 2 : 256;
        char *s = realloc(c->scratch, cap);
        if (!s) return -1;
        c->scratch = s;
        c->scratch_cap = cap;
    }
    c->scratch[(*n)++] = ch;
    return 0;
}

/*
 * Reads one field at c->pos. Returns 0; -1 for an unterminated quoted field
 * (f->line is where the quote opened); -2 on out of memory.
 */
static int csv_next_field_slow(csv_cursor *c, csv_field *f);

static inline int csv_next_field(csv_cursor *c, csv_field *f) {
    const char *d = c->data;
    size_t p = c->pos, n = c->size;
    f->raw_start = p;
    f->line = c->line;
    f->quoted = false;
    /* Fast path: an unquoted field runs to the next special byte, found
     * eight bytes at a time. */
    while (p + 8 <= n) {
        uint64_t w;
        memcpy(&w, d + p, 8);
        uint64_t m = csv_zero_bytes(w ^ c->bdelim) | csv_zero_bytes(w ^ c->bquote) |
                     csv_zero_bytes(w ^ 0x0a0a0a0a0a0a0a0aULL);
        if (m) {
            p += (size_t)__builtin_ctzll(m) >> 3;   /* little-endian: lowest byte first */
            goto found;
        }
        p += 8;
    }
    while (p < n && !c->special[(unsigned char)d[p]]) p++;
found:
    if (p == n || d[p] != c->quote) {
        size_t e = p;
        f->text = d + c->pos;
        f->raw_end = p;
        if (p == n) {
            f->end = CSV_END_EOF;
            if (e > c->pos && d[e - 1] == '\r') e--;
        } else if (d[p] == c->delim) {
            f->end = CSV_END_DELIM;
            p++;
        } else {   /* '\n' */
            f->end = CSV_END_RECORD;
            if (e > c->pos && d[e - 1] == '\r') e--;
            p++;
            c->line++;
        }
        f->len = e - c->pos;
        c->pos = p;
        return 0;
    }
    return csv_next_field_slow(c, f);
}

/* The general path: quotes somewhere in the field. Copies into scratch. */
static int csv_next_field_slow(csv_cursor *c, csv_field *f) {
    const char *d = c->data;
    size_t p = c->pos, n = c->size, len = 0;
    bool in_quote = false, last_cr = false;
    size_t qline = c->line;
    for (;;) {
        if (!in_quote) {
            if (p == n) { f->end = CSV_END_EOF; break; }
            char ch = d[p];
            if (ch == c->delim) { f->end = CSV_END_DELIM; f->raw_end = p; p++; goto done; }
            if (ch == '\n') {
                f->end = CSV_END_RECORD;
                f->raw_end = p;
                p++;
                c->line++;
                goto done;
            }
            if (ch == c->quote) {
                in_quote = true;
                f->quoted = true;
                qline = c->line;
                last_cr = false;
                p++;
                continue;
            }
            if (csv_scratch_put(c, &len, ch)) return -2;
            last_cr = ch == '\r';
            p++;
        } else {
            if (p == n) {
                f->line = qline;
                c->pos = p;
                return -1;
            }
            char ch = d[p];
            if (ch == c->escape && p + 1 < n &&
                (d[p + 1] == c->quote || (c->escape != c->quote && d[p + 1] == c->escape))) {
                if (csv_scratch_put(c, &len, d[p + 1])) return -2;
                p += 2;
                continue;
            }
            if (ch == c->quote) { in_quote = false; p++; continue; }
            if (ch == '\n') c->line++;
            if (csv_scratch_put(c, &len, ch)) return -2;
            p++;
        }
    }
    f->raw_end = p;
done:
    if (f->end != CSV_END_DELIM && last_cr) len--;
    f->text = c->scratch ? c->scratch : "";
    f->len = len;
    c->pos = p;
    return 0;
}

#endif
