/* numeric.c - numeric values with a per-value display scale (see numeric.h).
 *
 * Invariant: |m| <= 10^38 - 1 and 0 <= dscale <= ATTU_NUMERIC_MAX_DIGITS for
 * every value this module returns. The scale rules are PostgreSQL 15's
 * (numeric.c): add/sub take the larger dscale, mul the sum, div
 * select_div_scale, and rounding is half away from zero. */
#include "engine/numeric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

static __int128 pow10_128(int k) {
    __int128 p = 1;
    for (int i = 0; i < k; i++) p *= 10;
    return p;
}

static const __int128 *limit_ptr(void) {
    static __int128 lim = 0;
    if (!lim) lim = pow10_128(ATTU_NUMERIC_MAX_DIGITS) - 1;
    return &lim;
}
#define NUM_LIMIT (*limit_ptr())

static int overflow(attu_error *err) {
    return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "value overflows numeric format");
}

static u128 uabs(__int128 v) { return v < 0 ? (u128)0 - (u128)v : (u128)v; }

/* m * 10^k, false when the result passes the 38-digit limit. */
static bool rescale(__int128 m, int k, __int128 *out) {
    __int128 r = m;
    for (int i = 0; i < k; i++)
        if (__builtin_mul_overflow(r, 10, &r)) return false;
    if (r > NUM_LIMIT || r < -NUM_LIMIT) return false;
    *out = r;
    return true;
}

static int checked(__int128 m, int dscale, attu_numeric *out, attu_error *err) {
    if (m > NUM_LIMIT || m < -NUM_LIMIT || dscale > ATTU_NUMERIC_MAX_DIGITS) return overflow(err);
    out->m = m;
    out->dscale = dscale;
    return 0;
}

attu_numeric attu_numeric_from_int64(int64_t v) {
    attu_numeric n = { v, 0 };
    return n;
}

attu_numeric attu_numeric_from_decimal(int64_t v, int scale) {
    attu_numeric n = { v, scale };
    return n;
}

int attu_numeric_from_double(double d, attu_numeric *out, attu_error *err) {
    if (d != d || d == 1.0 / 0.0 || d == -1.0 / 0.0)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "cannot convert %s to numeric", d != d ? "NaN" : "infinity");
    /* 15 significant digits, as PostgreSQL's "%.*g" with DBL_DIG */
    char buf[64];
    snprintf(buf, sizeof buf, "%.14e", d);
    const char *p = buf;
    bool neg = *p == '-';
    if (neg) p++;
    char digits[16];
    int n = 0;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9') digits[n++] = *p;
    int exp10 = atoi(p + 1);
    while (n > 1 && digits[n - 1] == '0') n--;
    __int128 m = 0;
    for (int i = 0; i < n; i++) m = m * 10 + (digits[i] - '0');
    if (m == 0) { out->m = 0; out->dscale = 0; return 0; }
    int dscale = n - 1 - exp10;
    if (dscale < 0) {
        if (!rescale(m, -dscale, &m)) return overflow(err);
        dscale = 0;
    }
    return checked(neg ? -m : m, dscale, out, err);
}

int attu_numeric_add(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err) {
    int s = a.dscale > b.dscale ? a.dscale : b.dscale;
    __int128 x, y, r;
    if (!rescale(a.m, s - a.dscale, &x) || !rescale(b.m, s - b.dscale, &y) ||
        __builtin_add_overflow(x, y, &r))
        return overflow(err);
    return checked(r, s, out, err);
}

int attu_numeric_sub(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err) {
    b.m = -b.m;
    return attu_numeric_add(a, b, out, err);
}

int attu_numeric_mul(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err) {
    __int128 r;
    if (__builtin_mul_overflow(a.m, b.m, &r)) return overflow(err);
    return checked(r, a.dscale + b.dscale, out, err);
}

/* PostgreSQL stores numerics in base-10000 digits aligned at the point:
 * weight is the position of the first nonzero one (0 for [1, 10000), -1 for
 * [0.0001, 1)), firstdigit its value. Zero has weight 0, firstdigit 0. */
static void nbase_lead(attu_numeric a, int *weight, int *firstdigit) {
    u128 u = uabs(a.m);
    if (u == 0) { *weight = 0; *firstdigit = 0; return; }
    int d = 0;
    for (u128 t = u; t; t /= 10) d++;
    int e = d - 1 - a.dscale;                 /* decimal exponent of the lead digit */
    int w = e >= 0 ? e / 4 : -((-e + 3) / 4);  /* floor(e / 4) */
    int shift = a.dscale + 4 * w;
    u128 fd = u;
    if (shift >= 0) for (int i = 0; i < shift; i++) fd /= 10;
    else for (int i = 0; i < -shift; i++) fd *= 10;
    *weight = w;
    *firstdigit = (int)fd;
}

int attu_numeric_div_scale(attu_numeric a, attu_numeric b) {
    int w1, f1, w2, f2;
    nbase_lead(a, &w1, &f1);
    nbase_lead(b, &w2, &f2);
    int qweight = w1 - w2;
    if (f1 <= f2) qweight--;
    int rscale = ATTU_NUMERIC_MIN_SIG_DIGITS - qweight * 4;
    if (rscale < a.dscale) rscale = a.dscale;
    if (rscale < b.dscale) rscale = b.dscale;
    if (rscale < 0) rscale = 0;
    return rscale;
}

int attu_numeric_div(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err) {
    if (b.m == 0) return attu_error_set(err, ATTU_SQLSTATE_DIVISION_BY_ZERO, 0, "division by zero");
    int rscale = attu_numeric_div_scale(a, b);
    /* |a|/|b| * 10^k with k = rscale + b.dscale - a.dscale >= 0 (rscale is at
     * least a.dscale), by long division with one extra digit for rounding */
    int k = rscale + b.dscale - a.dscale;
    u128 ua = uabs(a.m), ub = uabs(b.m);
    u128 q = ua / ub, r = ua % ub;
    for (int i = 0; i <= k; i++) {
        u128 r10, q10;
        if (__builtin_mul_overflow(r, (u128)10, &r10) || __builtin_mul_overflow(q, (u128)10, &q10))
            return overflow(err);
        q = q10 + r10 / ub;
        r = r10 % ub;
    }
    u128 last = q % 10;
    q /= 10;
    if (last >= 5) q++;
    if (q > (u128)NUM_LIMIT) return overflow(err);
    __int128 m = (__int128)q;
    return checked((a.m < 0) != (b.m < 0) ? -m : m, rscale, out, err);
}

int attu_numeric_cmp(attu_numeric a, attu_numeric b) {
    int s = a.dscale > b.dscale ? a.dscale : b.dscale;
    __int128 x = a.m, y = b.m;
    /* scaling up past the limit means that side has the larger magnitude */
    if (!rescale(a.m, s - a.dscale, &x)) return a.m < 0 ? -1 : 1;
    if (!rescale(b.m, s - b.dscale, &y)) return b.m < 0 ? 1 : -1;
    return x < y ? -1 : x > y;
}

int attu_numeric_format(attu_numeric a, char *buf, int cap) {
    char rev[80];
    int n = 0;
    u128 u = uabs(a.m);
    do { rev[n++] = (char)('0' + (int)(u % 10)); u /= 10; } while (u);
    while (n <= a.dscale) rev[n++] = '0';     /* at least one integer digit */
    char tmp[96];
    int len = 0;
    if (a.m < 0) tmp[len++] = '-';
    for (int i = n - 1; i >= 0; i--) {
        tmp[len++] = rev[i];
        if (i == a.dscale && i > 0) tmp[len++] = '.';
    }
    tmp[len] = 0;
    return snprintf(buf, (size_t)cap, "%s", tmp);
}
