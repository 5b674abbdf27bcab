/*
 * utf8.h - the UTF-8 helpers the string functions share (text values are
 * UTF-8, PostgreSQL's server encoding here): counting characters and
 * writing a code point.
 */
#ifndef ATTU_ENGINE_UTF8_H
#define ATTU_ENGINE_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The characters in s[0, n): the bytes that are no continuation byte. */
static inline int64_t attu_utf8_count(const char *s, size_t n) {
    int64_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* The bytes of the UTF-8 sequence that starts at s (a NUL-terminated
 * string): its lead byte's length, cut short at a NUL (never past the end). */
static inline int attu_utf8_seq_len(const char *s) {
    unsigned char c = (unsigned char)*s;
    int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    for (int i = 1; i < n; i++) if (!s[i]) return i;
    return n;
}

/* Writes the UTF-8 bytes of code point cp (valid: not a surrogate,
 * <= 0x10ffff) to o; returns how many (1 to 4). */
static inline size_t attu_utf8_encode(uint32_t cp, unsigned char *o) {
    if (cp < 0x80) { o[0] = (unsigned char)cp; return 1; }
    if (cp < 0x800) { o[0] = (unsigned char)(0xc0 | cp >> 6); o[1] = (unsigned char)(0x80 | (cp & 0x3f)); return 2; }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xe0 | cp >> 12); o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (unsigned char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (unsigned char)(0xf0 | cp >> 18); o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f)); o[3] = (unsigned char)(0x80 | (cp & 0x3f));
    return 4;
}

#endif
