/*
 * unistr.c - unistr(text) (see unistr.h), with PostgreSQL's checks in its
 * order: the escape's form, then the surrogate pairing, then the code
 * point's range.
 */
#include "engine/unistr.h"
#include "engine/utf8.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>

/* n hex digits at s (within end) as a number, or -1 */
static long hex_at(const char *s, const char *end, int n) {
    if (end - s < n) return -1;
    long v = 0;
    for (int i = 0; i < n; i++) {
        if (!isxdigit((unsigned char)s[i])) return -1;
        v = v * 16 + (isdigit((unsigned char)s[i]) ? s[i] - '0' : (tolower((unsigned char)s[i]) - 'a' + 10));
    }
    return v;
}

static int bad_pair(attu_error *err) {
    return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "invalid Unicode surrogate pair");
}

int attu_unistr(const char *s, size_t len, char *out, size_t *out_len, attu_error *err) {
    const char *p = s, *end = s + len;
    size_t n = 0;
    uint32_t first = 0;      /* a high surrogate waiting for its low one */
    while (p < end) {
        if (*p != '\\') {
            if (first) return bad_pair(err);
            out[n++] = *p++;
            continue;
        }
        long cp;
        if (p + 1 < end && p[1] == '\\') {
            if (first) return bad_pair(err);
            out[n++] = '\\';
            p += 2;
            continue;
        }
        if ((cp = hex_at(p + 1, end, 4)) >= 0) p += 5;
        else if (p + 1 < end && p[1] == '+' && (cp = hex_at(p + 2, end, 6)) >= 0) p += 8;
        else if (p + 1 < end && p[1] == 'u' && (cp = hex_at(p + 2, end, 4)) >= 0) p += 6;
        else if (p + 1 < end && p[1] == 'U' && (cp = hex_at(p + 2, end, 8)) >= 0) p += 10;
        else {
            attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "invalid Unicode escape");
            attu_error_set_hint(err, "Unicode escapes must be \\XXXX, \\+XXXXXX, \\uXXXX, or \\UXXXXXXXX.");
            return -1;
        }
        if (cp >= 0xd800 && cp <= 0xdbff) {
            if (first) return bad_pair(err);
            first = (uint32_t)cp;
            continue;
        }
        if (cp >= 0xdc00 && cp <= 0xdfff) {
            if (!first) return bad_pair(err);
            cp = 0x10000 + (((long)first - 0xd800) << 10) + (cp - 0xdc00);
            first = 0;
        } else if (first) return bad_pair(err);
        if (cp <= 0 || cp > 0x10ffff)
            return attu_error_set(err, "22023", 0, "invalid Unicode code point: %04lX", cp);
        n += attu_utf8_encode((uint32_t)cp, (unsigned char *)out + n);
    }
    if (first) return bad_pair(err);
    *out_len = n;
    return 0;
}
