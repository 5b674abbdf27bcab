/*
 * csv_encoding.c - UTF-8 validation and LATIN1 conversion (csv_encoding.h).
 */
#include "engine/csv_encoding.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
            if (c == 0) { *bad_len = 1; return i; }
            i++;
            continue;
        }
        int len;
        uint32_t min, cp;
        if (c >= 0xc2 && c <= 0xdf) { len = 2; min = 0x80; cp = c & 0x1f; }
        else if (c >= 0xe0 && c <= 0xef) { len = 3; min = 0x800; cp = c & 0x0f; }
        else if (c >= 0xf0 && c <= 0xf4) { len = 4; min = 0x10000; cp = c & 0x07; }
        else { *bad_len = 1; return i; }
        for (int k = 1; k < len; k++) {
            if (i + (size_t)k >= n || (s[i + k] & 0xc0) != 0x80) {
                *bad_len = (int)(i + (size_t)k < n ? k + 1 : k);
                return i;
            }
            cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
            *bad_len = len;
            return i;
        }
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
