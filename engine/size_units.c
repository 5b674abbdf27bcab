/*
 * size_units.c - pg_size_bytes and pg_size_pretty: PostgreSQL's dbsize.c
 * rules, step by step.
 *
 * pg_size_bytes:
 * The number's extent is found by hand (sign, digits, point and digits,
 * an exponent only when digits follow the 'e': "1e" is 1 with the unit
 * "e"), then read as numeric; the unit is what is left, trimmed, matched
 * without regard to case. The product with the unit's power of 1024 is
 * exact (numeric arithmetic) and rounded to bigint as numeric_int8 rounds.
 */
#include "engine/size_units.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct { const char *name; int shift; } size_units[] = {
    { "bytes", 0 }, { "kB", 10 }, { "MB", 20 }, { "GB", 30 }, { "TB", 40 }, { "PB", 50 },
};

static int out_of_range(attu_error *err) {
    return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "bigint out of range");
}

/* The decimal place (10^k) of the first nonzero digit of the number
 * s[0..len) of the checked shape, exponent included; LONG_MIN when every
 * digit is 0. */
static long leading_place(const char *s, size_t len) {
    const char *p = s, *end = s + len, *d;
    if (*p == '+' || *p == '-') p++;
    for (d = p; d < end && isdigit((unsigned char)*d); d++) {}
    long place = LONG_MIN;
    for (const char *q = p; q < d && place == LONG_MIN; q++)
        if (*q != '0') place = (long)(d - q) - 1;
    const char *f = d < end && *d == '.' ? d + 1 : end, *q = f;
    for (; q < end && isdigit((unsigned char)*q); q++)
        if (place == LONG_MIN && *q != '0') place = -1 - (long)(q - f);
    if (place != LONG_MIN && q < end && (*q == 'e' || *q == 'E')) place += strtol(q + 1, NULL, 10);
    return place;
}

/* The number as numeric. attu's numeric holds 36 digits: a number past
 * them is far past bigint when its leading digit is at 10^-20 or above
 * (-1: the caller's 22003), else below a byte whatever the unit (PB is
 * 2^50 < 10^16): *tiny. */
static int read_number(const char *s, size_t len, attu_numeric *out, bool *tiny) {
    *tiny = false;
    attu_error e2 = {0};
    if (!attu_numeric_parse(s, len, out, &e2)) return 0;
    long place = leading_place(s, len);
    if (place == LONG_MIN || place < -20) { *tiny = true; return 0; }
    return -1;
}

int attu_pg_size_bytes(const char *s, size_t len, int64_t *out, attu_error *err) {
    char *str = malloc(len + 1);
    if (!str) return attu_error_oom(err);
    memcpy(str, s, len);
    str[len] = 0;
    int rc = -1;
    const char *p = str;
    while (isspace((unsigned char)*p)) p++;
    const char *num = p, *q = p;
    if (*q == '-' || *q == '+') q++;
    bool digits = false;
    while (isdigit((unsigned char)*q)) { q++; digits = true; }
    if (*q == '.') {
        q++;
        while (isdigit((unsigned char)*q)) { q++; digits = true; }
    }
    if (!digits) { attu_error_set(err, "22023", 0, "invalid size: \"%s\"", str); goto done; }
    if (*q == 'e' || *q == 'E') {
        char *ep;
        (void)strtol(q + 1, &ep, 10);
        if (ep > q + 1) q = ep;
    }
    attu_numeric n;
    bool tiny;
    if (read_number(num, (size_t)(q - num), &n, &tiny)) {
        out_of_range(err);
        goto done;
    }
    const char *unit = q;
    while (isspace((unsigned char)*unit)) unit++;
    if (*unit) {
        char *e = str + len;
        while (e > unit && isspace((unsigned char)e[-1])) e--;
        *e = 0;
        int shift = -1;
        for (size_t i = 0; i < sizeof size_units / sizeof *size_units; i++)
            if (!strcasecmp(unit, size_units[i].name)) { shift = size_units[i].shift; break; }
        if (shift < 0) {
            /* the message shows the argument as given, the DETAIL the unit */
            char *whole = malloc(len + 1);
            if (!whole) { attu_error_oom(err); goto done; }
            memcpy(whole, s, len);
            whole[len] = 0;
            attu_error_set(err, "22023", 0, "invalid size: \"%s\"", whole);
            attu_error_set_detail(err, "Invalid size unit: \"%s\".", unit);
            attu_error_set_hint(err, "Valid units are \"bytes\", \"kB\", \"MB\", \"GB\", \"TB\", and \"PB\".");
            free(whole);
            goto done;
        }
        if (!tiny && shift &&
            attu_numeric_mul(n, attu_numeric_from_int64((int64_t)1 << shift), &n, err)) {
            if (!strcmp(err->sqlstate, ATTU_SQLSTATE_NUMERIC_RANGE)) { attu_error_clear(err); out_of_range(err); }
            goto done;
        }
    }
    if (tiny) { *out = 0; rc = 0; goto done; }
    int64_t v;
    int k = attu_numeric_to_scaled(n, 0, &v);
    if (k == -2) { attu_error_set(err, "22023", 0, "invalid size: \"%s\"", str); goto done; }
    if (k) { out_of_range(err); goto done; }
    *out = v;
    rc = 0;
done:
    free(str);
    return rc;
}

/* pg_size_pretty's units: a value is shown in the first unit it is below
 * the limit of (counted in that unit, halves for the rounded units), and
 * every unit but bytes is rounded half away from zero from its halves. */
static const struct { const char *name; int64_t limit; bool round; int shift; } pretty_units[] = {
    { "bytes", 10 * 1024, false, 0 }, { "kB", 20 * 1024 - 1, true, 10 }, { "MB", 20 * 1024 - 1, true, 20 },
    { "GB", 20 * 1024 - 1, true, 30 }, { "TB", 20 * 1024 - 1, true, 40 }, { "PB", 20 * 1024 - 1, true, 50 },
};
enum { NPRETTY = sizeof pretty_units / sizeof *pretty_units };

/* the divisor from unit u's count to unit u + 1's: one bit less where the
 * next counts halves, one more where this one does */
static int pretty_step(int u) {
    return pretty_units[u + 1].shift - pretty_units[u].shift - pretty_units[u + 1].round + pretty_units[u].round;
}

void attu_pg_size_pretty_int(int64_t v, char *buf, size_t cap) {
    for (int u = 0;; u++) {
        uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
        if (u == NPRETTY - 1 || mag < (uint64_t)pretty_units[u].limit) {
            if (pretty_units[u].round) v = (v + (v < 0 ? -1 : 1)) / 2;
            snprintf(buf, cap, "%" PRId64 " %s", v, pretty_units[u].name);
            return;
        }
        /* a division, not a shift: negative values truncate toward zero
         * as positive ones do */
        v /= (int64_t)1 << pretty_step(u);
    }
}

int attu_pg_size_pretty_numeric(attu_numeric v, char *buf, size_t cap, attu_error *err) {
    for (int u = 0;; u++) {
        attu_numeric mag = v;
        if (mag.m < 0) mag.m = -mag.m;
        if (u == NPRETTY - 1 ||
            (!attu_numeric_is_special(v) && attu_numeric_cmp(mag, attu_numeric_from_int64(pretty_units[u].limit)) < 0)) {
            if (pretty_units[u].round) {
                attu_numeric one = attu_numeric_from_int64(1), t;
                bool neg = !attu_numeric_is_special(v) && v.m < 0;
                if ((neg ? attu_numeric_sub : attu_numeric_add)(v, one, &t, err) ||
                    attu_numeric_div_trunc(t, attu_numeric_from_int64(2), &v, err)) return -1;
            }
            char num[64];
            attu_numeric_format(v, num, (int)sizeof num);
            snprintf(buf, cap, "%s %s", num, pretty_units[u].name);
            return 0;
        }
        if (attu_numeric_div_trunc(v, attu_numeric_from_int64((int64_t)1 << pretty_step(u)), &v, err)) return -1;
    }
}
