/*
 * csv_encoding.c - UTF-8 validation and LATIN1 conversion (csv_encoding.h).
 */
#include "engine/csv_encoding.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* PostgreSQL's pg_utf_mblen: the length a lead byte announces, which its
 * report of an invalid sequence quotes (whatever the bytes after it) */
static int announced_len(unsigned c) {
    return (c & 0x80) == 0 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 1;
}

static size_t bad_at(const unsigned char *s, size_t i, size_t n, int *bad_len) {
    size_t l = (size_t)announced_len(s[i]);
    *bad_len = (int)(l < n - i ? l : n - i);
    return i;
}

size_t attu_utf8_validate(const char *data, size_t n, int *bad_len) {
    const unsigned char *s = (const unsigned char *)data;
    size_t i = 0;
    while (i < n) {
        /* ASCII fast path: 8 bytes at a time while no high bit and no NUL
         * (the NUL test is the classic "has zero byte" bit trick). */
        while (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            uint64_t zero = (w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL;
            if ((w & 0x8080808080808080ULL) | zero) break;
            i += 8;
        }
        if (i >= n) break;
        unsigned c = s[i];
        if (c < 0x80) {
            if (c == 0) return bad_at(s, i, n, bad_len);
            i++;
            continue;
        }
        int len;
        uint32_t min, cp;
        if (c >= 0xc2 && c <= 0xdf) { len = 2; min = 0x80; cp = c & 0x1f; }
        else if (c >= 0xe0 && c <= 0xef) { len = 3; min = 0x800; cp = c & 0x0f; }
        else if (c >= 0xf0 && c <= 0xf4) { len = 4; min = 0x10000; cp = c & 0x07; }
        else return bad_at(s, i, n, bad_len);
        for (int k = 1; k < len; k++) {
            if (i + (size_t)k >= n || (s[i + k] & 0xc0) != 0x80) return bad_at(s, i, n, bad_len);
            cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return bad_at(s, i, n, bad_len);
        i += (size_t)len;
    }
    *bad_len = 0;
    return n;
}

char *attu_latin1_to_utf8(const char *data, size_t n, size_t *out_n) {
    const unsigned char *s = (const unsigned char *)data;
    size_t high = 0;
    for (size_t i = 0; i < n; i++) high += s[i] >> 7;
    char *out = malloc(n + high + 1);
    if (!out) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned c = s[i];
        if (c < 0x80) out[o++] = (char)c;
        else {
            out[o++] = (char)(0xc0 | (c >> 6));
            out[o++] = (char)(0x80 | (c & 0x3f));
        }
    }
    out[o] = '\0';
    *out_n = o;
    return out;
}
