/*
 * pg_numeric.c - NUMERIC's binary wire format (see pg_numeric.h).
 */
#include "server/pg_numeric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NUMERIC_POS  0x0000
#define NUMERIC_NEG  0x4000
#define NUMERIC_NAN  0xC000
#define NUMERIC_PINF 0xD000
#define NUMERIC_NINF 0xF000
#define NUMERIC_DSCALE_MAX 0x3FFF

static void put_header(pgbuf *b, int ndigits, int weight, uint16_t sign, int dscale) {
    pgbuf_put_i32(b, 8 + 2 * ndigits);
    pgbuf_put_i16(b, (int16_t)ndigits);
    pgbuf_put_i16(b, (int16_t)weight);
    pgbuf_put_i16(b, (int16_t)sign);
    pgbuf_put_i16(b, (int16_t)dscale);
}

static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

bool pg_numeric_put_binary(pgbuf *b, const char *txt, size_t n) {
    if (n == 3 && !memcmp(txt, "NaN", 3)) { put_header(b, 0, 0, NUMERIC_NAN, 0); return true; }
    if (n == 8 && !memcmp(txt, "Infinity", 8)) { put_header(b, 0, 0, NUMERIC_PINF, 0); return true; }
    if (n == 9 && !memcmp(txt, "-Infinity", 9)) { put_header(b, 0, 0, NUMERIC_NINF, 0); return true; }

    size_t i = 0;
    bool neg = false;
    if (i < n && (txt[i] == '-' || txt[i] == '+')) neg = txt[i++] == '-';
    size_t int_start = i;
    while (i < n && is_digit(txt[i])) i++;
    size_t nint = i - int_start, frac_start = i, nfrac = 0;
    if (i < n && txt[i] == '.') {
        frac_start = ++i;
        while (i < n && is_digit(txt[i])) i++;
        nfrac = i - frac_start;
    }
    if (i != n || nint + nfrac == 0 || nfrac > NUMERIC_DSCALE_MAX) return false;

    /* Base-10000 digits: the integer part padded on the left and the
     * fraction on the right to whole groups of four decimal digits. */
    size_t ig = (nint + 3) / 4, fg = (nfrac + 3) / 4, total = ig + fg;
    if (total > 0x7FFF) return false;
    int16_t small[64];
    int16_t *d = total <= 64 ? small : malloc(total * sizeof *d);
    if (!d) { b->oom = true; return false; }
    size_t pad = ig * 4 - nint;
    for (size_t g = 0; g < ig; g++) {
        int v = 0;
        for (size_t k = g * 4; k < g * 4 + 4; k++)
            v = v * 10 + (k < pad ? 0 : txt[int_start + k - pad] - '0');
        d[g] = (int16_t)v;
    }
    for (size_t g = 0; g < fg; g++) {
        int v = 0;
        for (size_t k = g * 4; k < g * 4 + 4; k++)
            v = v * 10 + (k < nfrac ? txt[frac_start + k] - '0' : 0);
        d[ig + g] = (int16_t)v;
    }
    /* No leading or trailing zero digits, as numeric_send emits. */
    long weight = (long)ig - 1;
    size_t first = 0, last = total;
    while (first < last && d[first] == 0) { first++; weight--; }
    while (last > first && d[last - 1] == 0) last--;
    if (first == last) {
        put_header(b, 0, 0, NUMERIC_POS, (int)nfrac);   /* zero has no sign */
    } else {
        put_header(b, (int)(last - first), (int)weight, neg ? NUMERIC_NEG : NUMERIC_POS, (int)nfrac);
        for (size_t g = first; g < last; g++) pgbuf_put_i16(b, d[g]);
    }
    if (d != small) free(d);
    return true;
}

static int16_t get_i16(const char *p) {
    const uint8_t *u = (const uint8_t *)p;
    return (int16_t)(((uint16_t)u[0] << 8) | u[1]);
}

static char *bad(attu_error *err, const char *what) {
    attu_error_set(err, "22P03", 0, "%s", what);
    return NULL;
}

static char *short_value(attu_error *err) {
    attu_error_set(err, "08P01", 0, "insufficient data left in message");
    return NULL;
}

char *pg_numeric_binary_to_text(const char *v, int32_t len, int param, int elem, attu_error *err) {
    /* read field by field, as numeric_recv does, so that the first fault
     * in its order is the one reported: the header's fields, then each
     * digit; a value that runs out is 08P01 */
    if (len < 2) return short_value(err);
    int ndigits = (uint16_t)get_i16(v);
    if (len < 4) return short_value(err);
    int weight = get_i16(v + 2);
    if (len < 6) return short_value(err);
    uint16_t sign = (uint16_t)get_i16(v + 4);
    if (sign != NUMERIC_POS && sign != NUMERIC_NEG && sign != NUMERIC_NAN && sign != NUMERIC_PINF &&
        sign != NUMERIC_NINF)
        return bad(err, "invalid sign in external \"numeric\" value");
    if (len < 8) return short_value(err);
    int dscale = (uint16_t)get_i16(v + 6);
    if (dscale > NUMERIC_DSCALE_MAX) return bad(err, "invalid scale in external \"numeric\" value");
    for (int i = 0; i < ndigits; i++) {
        if (len < 8 + 2 * (i + 1)) return short_value(err);
        int dg = get_i16(v + 8 + 2 * i);
        if (dg < 0 || dg > 9999) return bad(err, "invalid digit in external \"numeric\" value");
    }
    /* bytes left over: the Bind's own check, or array_recv's for an element */
    if (len > 8 + 2 * ndigits) {
        if (elem) attu_error_set(err, "22P03", 0, "improper binary format in array element %d", elem);
        else if (param) attu_error_set(err, "22P03", 0, "incorrect binary data format in bind parameter %d", param);
        else attu_error_set(err, "22P03", 0, "incorrect binary data format");   /* COPY FROM binary */
        return NULL;
    }
    const char *special = sign == NUMERIC_NAN ? "NaN" : sign == NUMERIC_PINF ? "Infinity"
                        : sign == NUMERIC_NINF ? "-Infinity" : NULL;
    if (special) {
        char *s = strdup(special);
        if (!s) attu_error_oom(err);
        return s;
    }

    /* sign + integer groups + point + fraction (rounded up to a group) + NUL */
    size_t igroups = weight >= 0 ? (size_t)weight + 1 : 0;
    size_t cap = 1 + (igroups ? igroups * 4 : 1) + 1 + (size_t)dscale + 4 + 1;
    char *s = malloc(cap), *p = s;
    if (!s) { attu_error_oom(err); return NULL; }
    if (sign == NUMERIC_NEG && ndigits > 0) *p++ = '-';
    if (!igroups) {
        *p++ = '0';
    } else {
        for (size_t g = 0; g < igroups; g++) {
            int dg = (int)g < ndigits ? get_i16(v + 8 + 2 * g) : 0;
            p += snprintf(p, (size_t)(s + cap - p), g ? "%04d" : "%d", dg);
        }
    }
    if (dscale > 0) {
        *p++ = '.';
        /* Digits past dscale are cut off, as numeric_recv does. */
        int left = dscale;
        for (long idx = (long)weight + 1; left > 0; idx++) {
            int dg = idx >= 0 && idx < ndigits ? get_i16(v + 8 + 2 * idx) : 0;
            char four[4] = { (char)('0' + dg / 1000), (char)('0' + dg / 100 % 10),
                             (char)('0' + dg / 10 % 10), (char)('0' + dg % 10) };
            for (int k = 0; k < 4 && left > 0; k++, left--) *p++ = four[k];
        }
    }
    *p = 0;
    return s;
}
