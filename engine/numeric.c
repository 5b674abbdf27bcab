/* numeric.c - numeric values with a per-value display scale (see numeric.h).
 *
 * Invariant: |m| <= 10^36 - 1 and 0 <= dscale <= ATTU_NUMERIC_MAX_DIGITS for
 * every number this module returns; NaN and the infinities are the
 * special values of numeric.h, each function taking them first. The scale rules are PostgreSQL 15's
 * (numeric.c): add/sub take the larger dscale, mul the sum, div
 * select_div_scale, and rounding is half away from zero. */
#include "engine/numeric.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* round(x / 2^sh), ties to even: the rounding of a correctly rounded
 * printf (glibc's, in the default rounding mode). */
static u128 shift_round_even(u128 x, int sh) {
    if (sh == 0) return x;
    if (sh >= 128) return 0;   /* x < 2^117 here: below half */
    u128 q = x >> sh, rem = x - (q << sh), half = (u128)1 << (sh - 1);
    return rem > half || (rem == half && (q & 1)) ? q + 1 : q;
}

/* |d| * 10^k rounded to an integer (ties to even), exactly, for finite
 * nonzero d and 0 <= k <= 27 (5^27 < 2^63, so m * 5^k stays below 2^116);
 * false when the value would not fit 128 bits. */
static bool scaled_round(double d, int k, u128 *q) {
    static const uint64_t pow5[28] = {
        1ull, 5ull, 25ull, 125ull, 625ull, 3125ull, 15625ull, 78125ull, 390625ull, 1953125ull, 9765625ull,
        48828125ull, 244140625ull, 1220703125ull, 6103515625ull, 30517578125ull, 152587890625ull,
        762939453125ull, 3814697265625ull, 19073486328125ull, 95367431640625ull, 476837158203125ull,
        2384185791015625ull, 11920928955078125ull, 59604644775390625ull, 298023223876953125ull,
        1490116119384765625ull, 7450580596923828125ull };
    if (k < 0 || k > 27) return false;
    int e;
    double fr = frexp(fabs(d), &e);             /* |d| = fr * 2^e, fr in [0.5, 1) */
    uint64_t m = (uint64_t)ldexp(fr, 53);       /* exact: |d| = m * 2^(e - 53) */
    int sh = e - 53 + k;                         /* |d| * 10^k = m * 5^k * 2^sh */
    u128 x = (u128)m * pow5[k];
    if (sh >= 0) {
        if (sh > 10) return false;
        *q = x << sh;
        return true;
    }
    *q = shift_round_even(x, -sh);
    return true;
}

/* The 15 significant digits of d (finite, nonzero) as "%.14e" gives them:
 * *digits in [10^14, 10^15) and the exponent of the first one. Exact
 * integer arithmetic where |d| * 10^k fits (about 1e-13 <= |d| < 1e17);
 * false elsewhere (the caller prints). */
static bool digits15(double d, u128 *digits, int *exp10) {
    static const u128 lo = (u128)100000000000000ull, hi = (u128)1000000000000000ull;
    int e = (int)floor(log10(fabs(d)));
    for (int tries = 0; tries < 3; tries++) {
        u128 q;
        if (!scaled_round(d, 14 - e, &q)) return false;
        if (q >= hi) { e++; continue; }          /* log10 low, or rounded up to 10^15 */
        if (q < lo) { e--; continue; }           /* log10 high */
        *digits = q;
        *exp10 = e;
        return true;
    }
    return false;
}

int attu_numeric_from_double(double d, attu_numeric *out, attu_error *err) {
    if (d != d) { *out = attu_numeric_nan(); return 0; }
    if (isinf(d)) { *out = attu_numeric_inf(d < 0 ? -1 : 1); return 0; }
    if (d == 0) { out->m = 0; out->dscale = 0; return 0; }
    /* 15 significant digits, as PostgreSQL's "%.*g" with DBL_DIG: exactly
     * computed in the common range (printf costs ~0.3 us a value), else
     * printed */
    bool neg = d < 0;
    u128 q = 0;
    int exp10 = 0, n = 15;
    if (!digits15(d, &q, &exp10)) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.14e", d);
        const char *p = buf + (neg ? 1 : 0);
        q = 0;
        for (; *p && *p != 'e'; p++)
            if (*p >= '0' && *p <= '9') q = q * 10 + (u128)(*p - '0');
        exp10 = atoi(p + 1);
    }
    while (n > 1 && q % 10 == 0) { q /= 10; n--; }
    __int128 m = (__int128)q;
    if (m == 0) { out->m = 0; out->dscale = 0; return 0; }
    int dscale = n - 1 - exp10;
    if (dscale < 0) {
        if (!rescale(m, -dscale, &m)) return overflow(err);
        dscale = 0;
    }
    return checked(neg ? -m : m, dscale, out, err);
}

int attu_numeric_special_error(attu_numeric a, const char *what, attu_error *err) {
    return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "cannot convert %s to %s",
                          attu_numeric_is_nan(a) ? "NaN" : "infinity", what);
}

int attu_numeric_decimal_special_error(attu_numeric a, int precision, int scale, attu_error *err) {
    if (attu_numeric_is_nan(a)) {
        attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "NaN is not supported in numeric(%d,%d)", precision, scale);
        attu_error_set_hint(err, "Only numeric without a precision holds NaN here.");
        return -1;
    }
    attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "numeric field overflow");
    attu_error_set_detail(err, "A field with precision %d, scale %d cannot hold an infinite value.", precision, scale);
    return -1;
}

int attu_numeric_field_overflow(int precision, int scale, attu_error *err) {
    attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "numeric field overflow");
    if (precision - scale > 0)
        attu_error_set_detail(err, "A field with precision %d, scale %d must round to an absolute value less than 10^%d.",
                              precision, scale, precision - scale);
    else
        attu_error_set_detail(err, "A field with precision %d, scale %d must round to an absolute value less than 1.",
                              precision, scale);
    return -1;
}

/* a + b where one is special: NaN in, NaN out; Infinity + -Infinity NaN */
static attu_numeric add_special(attu_numeric a, attu_numeric b) {
    if (attu_numeric_is_nan(a) || attu_numeric_is_nan(b)) return attu_numeric_nan();
    int ia = attu_numeric_inf_sign(a), ib = attu_numeric_inf_sign(b);
    if (ia && ib && ia != ib) return attu_numeric_nan();
    return attu_numeric_inf(ia ? ia : ib);
}

int attu_numeric_add(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err) {
    if (attu_numeric_is_special(a) || attu_numeric_is_special(b)) { *out = add_special(a, b); return 0; }
    int s = a.dscale > b.dscale ? a.dscale : b.dscale;
    __int128 x, y, r;
    if (!rescale(a.m, s - a.dscale, &x) || !rescale(b.m, s - b.dscale, &y) ||
        __builtin_add_overflow(x, y, &r))
        return overflow(err);
    return checked(r, s, out, err);
}

int attu_numeric_sub(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err) {
    b.m = -b.m;     /* NaN stays NaN, an infinity turns */
    return attu_numeric_add(a, b, out, err);
}

int attu_numeric_mul(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err) {
    if (attu_numeric_is_special(a) || attu_numeric_is_special(b)) {
        /* NaN in, NaN out; an infinity times 0 is NaN, else signed */
        int sa = attu_numeric_sign(a), sb = attu_numeric_sign(b);
        *out = attu_numeric_is_nan(a) || attu_numeric_is_nan(b) || !sa || !sb ? attu_numeric_nan() : attu_numeric_inf(sa * sb);
        return 0;
    }
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
    if (attu_numeric_is_special(a) || attu_numeric_is_special(b)) return 0;
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

/* a / b, div(a, b) and a % b where one is special, as PostgreSQL's
 * numeric_div / numeric_div_trunc / numeric_mod: 1 when *out is the answer,
 * -1 on an error, 0 when neither is special */
static int div_special(attu_numeric a, attu_numeric b, bool mod, attu_numeric *out, attu_error *err) {
    if (!attu_numeric_is_special(a) && !attu_numeric_is_special(b)) return 0;
    if (attu_numeric_is_nan(a) || attu_numeric_is_nan(b)) { *out = attu_numeric_nan(); return 1; }
    int ia = attu_numeric_inf_sign(a), sb = attu_numeric_sign(b);
    if (ia) {
        if (!sb) { attu_error_set(err, ATTU_SQLSTATE_DIVISION_BY_ZERO, 0, "division by zero"); return -1; }
        /* Infinity / Infinity and Infinity % anything: NaN */
        *out = mod || attu_numeric_is_special(b) ? attu_numeric_nan() : attu_numeric_inf(ia * sb);
        return 1;
    }
    /* a number over an infinity: 0 (its remainder: the number) */
    if (mod) *out = a;
    else { out->m = 0; out->dscale = 0; }
    return 1;
}

int attu_numeric_div(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err) {
    int sp = div_special(a, b, false, out, err);
    if (sp) return sp < 0 ? -1 : 0;
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
    if (attu_numeric_is_special(a) || attu_numeric_is_special(b)) {
        /* -Infinity < numbers < Infinity < NaN, NaN = NaN */
        int ra = !attu_numeric_is_special(a) ? 0 : attu_numeric_is_nan(a) ? 2 : (int)a.m;
        int rb = !attu_numeric_is_special(b) ? 0 : attu_numeric_is_nan(b) ? 2 : (int)b.m;
        return ra < rb ? -1 : ra > rb;
    }
    int s = a.dscale > b.dscale ? a.dscale : b.dscale;
    __int128 x = a.m, y = b.m;
    /* scaling up past the limit means that side has the larger magnitude */
    if (!rescale(a.m, s - a.dscale, &x)) return a.m < 0 ? -1 : 1;
    if (!rescale(b.m, s - b.dscale, &y)) return b.m < 0 ? 1 : -1;
    return x < y ? -1 : x > y;
}

int attu_numeric_format(attu_numeric a, char *buf, int cap) {
    if (attu_numeric_is_special(a))
        return snprintf(buf, (size_t)cap, "%s", attu_numeric_is_nan(a) ? "NaN" : a.m < 0 ? "-Infinity" : "Infinity");
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


/* ---- column slots ---------------------------------------------------------- */

void attu_numeric_pack(attu_numeric a, void *slot16) {
    __int128 v = a.m * 64 + a.dscale;
    memcpy(slot16, &v, sizeof v);
}

attu_numeric attu_numeric_unpack(const void *slot16) {
    __int128 v;
    memcpy(&v, slot16, sizeof v);
    attu_numeric n;
    n.dscale = (int)(v & 63);
    n.m = (v - n.dscale) / 64;
    return n;
}

/* ---- conversions ----------------------------------------------------------- */

/* |m| / 10^k rounded half away from zero (round) or truncated. */
static __int128 shift_down(__int128 m, int k, bool round_half) {
    if (k <= 0) return m;
    u128 u = uabs(m);
    if (k > 38) return 0;
    u128 d = (u128)pow10_128(k);
    u128 q = u / d, r = u % d;
    if (round_half && r * 2 >= d) q++;
    return m < 0 ? -(__int128)q : (__int128)q;
}


int attu_numeric_parse(const char *s, size_t len, attu_numeric *out, attu_error *err) {
    const char *p = s, *e = s + len;
    while (p < e && isspace((unsigned char)*p)) p++;
    while (e > p && isspace((unsigned char)e[-1])) e--;
    const char *start = p;
    bool neg = false;
    if (p < e && (*p == '+' || *p == '-')) neg = *p++ == '-';
    size_t rest = (size_t)(e - p);
    /* numeric_in: 'NaN' without a sign, 'Infinity' / 'inf' with one */
    if (rest == 3 && !strncasecmp(p, "nan", 3) && p == start) { *out = attu_numeric_nan(); return 0; }
    if ((rest == 8 && !strncasecmp(p, "infinity", 8)) || (rest == 3 && !strncasecmp(p, "inf", 3))) {
        *out = attu_numeric_inf(neg ? -1 : 1);
        return 0;
    }
    __int128 m = 0;
    int ndig = 0, frac = 0, dropped = -1;
    bool any = false, point = false, big = false;
    for (; p < e; p++) {
        if (*p == '.' && !point) { point = true; continue; }
        if (*p < '0' || *p > '9') break;
        any = true;
        if (m == 0 && *p == '0') { if (point) frac++; continue; }
        if (ndig < ATTU_NUMERIC_MAX_DIGITS + 2) { m = m * 10 + (*p - '0'); ndig++; }
        else if (!point) big = true;            /* integer digits past any scale */
        else { if (dropped < 0) dropped = *p - '0'; continue; }   /* places past 38 digits */
        if (point) frac++;
    }
    if (dropped >= 5) m++;                      /* half away from zero, on the magnitude */
    long exp10 = 0;
    if (any && p < e && (*p == 'e' || *p == 'E')) {
        p++;
        bool eneg = false;
        if (p < e && (*p == '+' || *p == '-')) eneg = *p++ == '-';
        if (p >= e || *p < '0' || *p > '9') any = false;
        for (; p < e && *p >= '0' && *p <= '9'; p++) if (exp10 < 100000) exp10 = exp10 * 10 + (*p - '0');
        if (eneg) exp10 = -exp10;
    }
    if (!any || p != e)
        return attu_error_set(err, ATTU_SQLSTATE_INVALID_TEXT_REP, 0,
                              "invalid input syntax for type numeric: \"%.*s\"", (int)(e - start), start);
    if (big) return overflow(err);
    long dscale = frac - exp10;
    if (dscale < 0) {
        if (!rescale(m, (int)(-dscale > 40 ? 40 : -dscale), &m)) return overflow(err);
        dscale = 0;
    }
    if (dscale > ATTU_NUMERIC_MAX_DIGITS) {
        /* more places than 36 digits hold: round the excess away */
        m = shift_down(m, (int)(dscale - ATTU_NUMERIC_MAX_DIGITS), true);
        dscale = ATTU_NUMERIC_MAX_DIGITS;
    }
    return checked(neg ? -m : m, (int)dscale, out, err);
}

double attu_numeric_to_double(attu_numeric a) {
    if (attu_numeric_is_special(a)) return attu_numeric_is_nan(a) ? NAN : a.m < 0 ? -INFINITY : INFINITY;
    /* m and 10^dscale both exact doubles: one IEEE division rounds the
     * quotient correctly, the same double strtod gives below */
    if (a.m >= -((__int128)1 << 53) && a.m <= ((__int128)1 << 53) && a.dscale <= 22) {
        static const double p10[23] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
        return (double)(int64_t)a.m / p10[a.dscale];
    }
    /* through text: strtod rounds the decimal correctly, as float8(numeric) */
    char buf[64];
    attu_numeric_format(a, buf, sizeof buf);
    return strtod(buf, NULL);
}

static int round_trunc(attu_numeric a, int scale, bool round_half, attu_numeric *out, attu_error *err) {
    if (attu_numeric_is_special(a)) { *out = a; return 0; }
    if (scale > ATTU_NUMERIC_MAX_DIGITS) scale = ATTU_NUMERIC_MAX_DIGITS;
    if (scale < -ATTU_NUMERIC_MAX_DIGITS - 2) scale = -ATTU_NUMERIC_MAX_DIGITS - 2;
    int ds = scale < 0 ? 0 : scale;
    if (scale >= a.dscale) {
        /* only zeros to add: where the digits cannot hold them all, as
         * many as fit (the value stays exact, with fewer trailing zeros
         * than PostgreSQL's, as the binder caps a constant d:
         * docs/sql-functions.md); round(12.5, x) with x = 40 in a row was
         * 22003 */
        __int128 m;
        while (ds > a.dscale && !rescale(a.m, ds - a.dscale, &m)) ds--;
        if (!rescale(a.m, ds - a.dscale, &m)) return overflow(err);
        return checked(m, ds, out, err);
    }
    /* drop dscale - scale digits, then scale back up to ds places */
    __int128 q = shift_down(a.m, a.dscale - scale, round_half);
    if (scale < 0 && !rescale(q, -scale, &q)) return overflow(err);
    return checked(q, ds, out, err);
}

int attu_numeric_round(attu_numeric a, int scale, attu_numeric *out, attu_error *err) {
    return round_trunc(a, scale, true, out, err);
}

int attu_numeric_trunc(attu_numeric a, int scale, attu_numeric *out, attu_error *err) {
    return round_trunc(a, scale, false, out, err);
}

int attu_numeric_floor(attu_numeric a, bool ceil, attu_numeric *out, attu_error *err) {
    if (attu_numeric_is_special(a)) { *out = a; return 0; }
    __int128 q = shift_down(a.m, a.dscale, false);
    __int128 back;
    if (!rescale(q, a.dscale, &back) || back != a.m) {
        /* inexact: truncation went toward zero */
        if (ceil && a.m > 0) q++;
        if (!ceil && a.m < 0) q--;
    }
    return checked(q, 0, out, err);
}

int attu_numeric_to_scaled(attu_numeric a, int scale, int64_t *out) {
    if (attu_numeric_is_special(a)) return -2;
    __int128 m;
    if (scale >= a.dscale) {
        if (!rescale(a.m, scale - a.dscale, &m)) return -1;
    } else m = shift_down(a.m, a.dscale - scale, true);
    if (m > INT64_MAX || m < INT64_MIN) return -1;
    *out = (int64_t)m;
    return 0;
}

/* A 256-bit unsigned integer, for the integer square root below: the
 * radicand m * 10^(2 * rscale + 2 - dscale) passes 128 bits as soon as the
 * scale is large (a variance of 1 at PostgreSQL's 20 places, whose
 * stddev squares 10^42), while its root always fits 128 bits. */
typedef struct u256 { u128 hi, lo; } u256;

static bool u256_ge(u256 a, u256 b) { return a.hi != b.hi ? a.hi > b.hi : a.lo >= b.lo; }

static u256 u256_add(u256 a, u256 b) {
    u256 r = { a.hi + b.hi, a.lo + b.lo };
    if (r.lo < a.lo) r.hi++;
    return r;
}

static u256 u256_sub(u256 a, u256 b) {
    u256 r = { a.hi - b.hi, a.lo - b.lo };
    if (a.lo < b.lo) r.hi--;
    return r;
}

static u256 u256_shr(u256 a, int k) {   /* 0 < k < 128 */
    u256 r = { a.hi >> k, (a.lo >> k) | (a.hi << (128 - k)) };
    return r;
}

/* a * 10, false on overflow */
static bool u256_mul10(u256 *a) {
    u256 x8 = { (a->hi << 3) | (a->lo >> 125), a->lo << 3 }, x2 = { (a->hi << 1) | (a->lo >> 127), a->lo << 1 };
    if (a->hi >> 124) return false;
    *a = u256_add(x8, x2);
    return true;
}

/* floor(sqrt(v)), bit by bit (the root of a 256-bit value fits 128 bits) */
static u128 u256_isqrt(u256 v) {
    u256 res = { 0, 0 }, bit;
    /* the highest power of four not above v */
    int hb = -1;
    for (int i = 255; i >= 0; i--) {
        bool set = i >= 128 ? (v.hi >> (i - 128)) & 1 : (v.lo >> i) & 1;
        if (set) { hb = i; break; }
    }
    if (hb < 0) return 0;
    int b = hb & ~1;
    bit.hi = b >= 128 ? (u128)1 << (b - 128) : 0;
    bit.lo = b >= 128 ? 0 : (u128)1 << b;
    while (bit.hi || bit.lo) {
        u256 t = u256_add(res, bit);
        if (u256_ge(v, t)) {
            v = u256_sub(v, t);
            res = u256_add(u256_shr(res, 1), bit);
        } else {
            res = u256_shr(res, 1);
        }
        bit = u256_shr(bit, 2);
    }
    return res.lo;
}

/* a * b of two 128-bit integers, all 256 bits */
static u256 u128_mul_wide(u128 a, u128 b) {
    const uint64_t a1 = (uint64_t)(a >> 64), a0 = (uint64_t)a, b1 = (uint64_t)(b >> 64), b0 = (uint64_t)b;
    const u128 p00 = (u128)a0 * b0, p01 = (u128)a0 * b1, p10 = (u128)a1 * b0, p11 = (u128)a1 * b1;
    const u128 mid = (p00 >> 64) + (uint64_t)p01 + (uint64_t)p10;
    u256 r = { p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64), (mid << 64) | (uint64_t)p00 };
    return r;
}

/* *a / 10; returns the remainder */
static unsigned u256_div10(u256 *a) {
    u128 r = a->hi % 10, q_hi = a->hi / 10;
    u128 t = (r << 64) | (uint64_t)(a->lo >> 64);
    u128 q1 = t / 10;
    t = ((t % 10) << 64) | (uint64_t)a->lo;
    a->hi = q_hi;
    a->lo = (q1 << 64) | (uint64_t)(t / 10);
    return (unsigned)(t % 10);
}

/* A power's running value: m * 10^-s, m < 10^37 (room for 37 significant
 * digits, one more than a NUMERIC holds) */
typedef struct pow_acc { u128 m; int s; } pow_acc;

/* *a *= b, the product rounded half up to 37 significant digits */
static void pow_acc_mul(pow_acc *a, pow_acc b) {
    static u128 lim = 0;
    if (!lim) lim = (u128)pow10_128(37);
    u256 p = u128_mul_wide(a->m, b.m);
    int s = a->s + b.s;
    unsigned last = 0;
    while (p.hi || p.lo >= lim) { last = u256_div10(&p); s--; }
    u128 m = p.lo + (last >= 5);
    if (m >= lim) { m /= 10; s--; }   /* (only 10^37 itself: exact) */
    a->m = m;
    a->s = s;
}

/* n / d for d > 0 when the quotient fits 128 bits (shift and subtract);
 * *rem the remainder */
static u128 u256_div_u128(u256 n, u128 d, u128 *rem) {
    u256 r = { 0, 0 }, dd = { 0, d };
    u128 q = 0;
    for (int i = 255; i >= 0; i--) {
        r.hi = (r.hi << 1) | (r.lo >> 127);
        r.lo = (r.lo << 1) | ((i >= 128 ? n.hi >> (i - 128) : n.lo >> i) & 1);
        if (u256_ge(r, dd)) {
            r = u256_sub(r, dd);
            if (i < 128) q |= (u128)1 << i;
        }
    }
    *rem = r.lo;
    return q;
}

/* 1 / x to 37 significant digits, rounded half up (x.m > 0) */
static pow_acc pow_acc_recip(pow_acc x) {
    int dm = 0;
    for (u128 t = x.m; t; t /= 10) dm++;
    const int t = dm + 36;   /* 10^t / x.m has 37 digits (10^73 < 2^256) */
    u256 p = { 0, 1 };
    for (int i = 0; i < t; i++) u256_mul10(&p);
    u128 rem, q = u256_div_u128(p, x.m, &rem);
    if (rem >= x.m - rem) q++;
    pow_acc r = { q, t - x.s };
    if (r.m >= (u128)pow10_128(37)) { r.m /= 10; r.s--; }   /* (x a power of ten: exact) */
    return r;
}

/* base ^ e for e >= 0 by squaring, every product kept to 37 significant
 * digits; *ok false where the value leaves any scale a NUMERIC has (too
 * large; a too small one becomes 0) */
static pow_acc pow_acc_pow(pow_acc base, int64_t e, bool *ok) {
    pow_acc r = { 1, 0 };
    *ok = true;
    for (int64_t k = e; k; k >>= 1) {
        if (k & 1) pow_acc_mul(&r, base);
        if (k > 1) pow_acc_mul(&base, base);
        if (base.s > 100000) { base.m = 0; base.s = 0; }
        if ((base.s < -100000 && base.m) || r.s < -100000) { *ok = false; return r; }
    }
    return r;
}

/* The NUMERIC (negated where neg) of r at rscale places (fewer where the
 * value needs them to fit 36 digits), rounded half away from zero; 22003
 * where its integer part does not fit */
static int pow_acc_numeric(pow_acc r, bool neg, int rscale, attu_numeric *out, attu_error *err) {
    if (rscale > ATTU_NUMERIC_MAX_DIGITS) rscale = ATTU_NUMERIC_MAX_DIGITS;
    if (r.s < -40) return overflow(err);
    u128 m = r.m;
    int s = r.s;
    if (s > rscale) {
        int k = s - rscale;
        if (k > 38) m = 0;
        else {
            u128 d = (u128)pow10_128(k), q = m / d;
            if ((m % d) * 2 >= d) q++;
            m = q;
        }
        s = rscale;
    }
    const u128 lim = (u128)NUM_LIMIT;
    while (s < rscale && m <= lim / 10) { m *= 10; s++; }
    while (s < 0) {
        if (m > lim / 10) return overflow(err);
        m *= 10;
        s++;
    }
    if (m > lim) return overflow(err);
    return checked(neg ? -(__int128)m : (__int128)m, s, out, err);
}

/* a ^ e for an integer 1 <= |e| <= 100000, to rscale places, by squaring
 * in 37 digits (a negative e: the reciprocal of a ^ -e): PostgreSQL's
 * power_var_int is exact to the result scale, and long double's 19
 * digits were not (1.5 ^ 40 ended ...0121425920 against PostgreSQL's
 * ...0121422732; 0.9 ^ -300 ...0769752095 against ...0765910895). */
static int power_by_squaring(attu_numeric a, int64_t e, int rscale, attu_numeric *out, attu_error *err) {
    pow_acc base = { uabs(a.m), a.dscale };
    const bool neg = a.m < 0 && (e & 1);
    bool ok;
    pow_acc r = pow_acc_pow(base, e < 0 ? -e : e, &ok);
    if (!ok) {
        if (e > 0) return overflow(err);
        return checked(0, rscale > ATTU_NUMERIC_MAX_DIGITS ? ATTU_NUMERIC_MAX_DIGITS : rscale, out, err);
    }
    if (e < 0) {
        if (!r.m) return overflow(err);   /* 1 / a value too small for any scale */
        r = pow_acc_recip(r);
    }
    return pow_acc_numeric(r, neg, rscale, out, err);
}

/* e ^ x for |x| <= 1000 in 37 digits: e ^ n (n the integer part) by
 * squaring e's first 37 digits, times e ^ f (f the fraction) by its
 * Taylor series in fixed point, then the reciprocal for a negative x.
 * long double's 19 digits printed wrong last digits for large results
 * (exp(50) ended ...4463872 against PostgreSQL's ...4464087). */
static bool exp_acc(attu_numeric a, pow_acc *out) {
    const u128 one = (u128)pow10_128(36);
    u128 m = uabs(a.m);
    int s = a.dscale;
    u128 n, f;   /* x = n + f / 10^36 */
    if (s <= 36) {
        u128 d = (u128)pow10_128(s);
        n = m / d;
        f = (m % d) * (u128)pow10_128(36 - s);
    } else {   /* (past the invariant's 36 places: |x| < 1, its fraction cut to 36) */
        n = 0;
        f = s - 36 > 38 ? 0 : m / (u128)pow10_128(s - 36);
    }
    if (n > 1000) return false;
    u128 sum = one, term = one;
    for (u128 k = 1; k <= 80 && term; k++) {
        u128 rem;
        term = u256_div_u128(u128_mul_wide(term, f), one * k, &rem);
        sum += term;
    }
    pow_acc r = { sum, 36 };
    if (n) {
        bool ok;
        /* e to 37 significant digits: 2.718281828459045235360287471352662498 */
        const pow_acc e37 = { (u128)2718281828459045235ULL * (u128)1000000000000000000ULL + 360287471352662498ULL, 36 };
        pow_acc en = pow_acc_pow(e37, (int64_t)n, &ok);
        if (!ok) return false;
        pow_acc_mul(&en, r);
        r = en;
    }
    if (a.m < 0) r = pow_acc_recip(r);
    *out = r;
    return true;
}

int attu_numeric_sqrt(attu_numeric a, int rscale, attu_numeric *out, attu_error *err) {
    if (attu_numeric_is_special(a) && a.m >= 0) { *out = a; return 0; }   /* NaN, Infinity */
    if (a.m < 0)
        return attu_error_set(err, "2201F", 0, "cannot take square root of a negative number");
    /* sqrt(m / 10^d) * 10^(rscale+1) = sqrt(m * 10^(2*rscale + 2 - d)):
     * an integer square root, then round the extra digit */
    int k = 2 * rscale + 2 - a.dscale;
    u256 v = { 0, (u128)a.m };
    if (k >= 0) {
        for (int i = 0; i < k; i++) if (!u256_mul10(&v)) return overflow(err);
    } else {
        for (int i = 0; i < -k; i++) v.lo /= 10;
    }
    u128 x = u256_isqrt(v);
    u128 last = x % 10;
    x /= 10;
    if (last >= 5) x++;
    return checked((__int128)x, rscale, out, err);
}

int attu_numeric_mod(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err) {
    int sp = div_special(a, b, true, out, err);
    if (sp) return sp < 0 ? -1 : 0;
    if (b.m == 0) return attu_error_set(err, ATTU_SQLSTATE_DIVISION_BY_ZERO, 0, "division by zero");
    int s = a.dscale > b.dscale ? a.dscale : b.dscale;
    __int128 x, y;
    if (!rescale(a.m, s - a.dscale, &x) || !rescale(b.m, s - b.dscale, &y)) return overflow(err);
    return checked(x % y, s, out, err);
}

/* Euclid's algorithm on magnitudes. */
static u128 gcd_u128(u128 x, u128 y) {
    while (y) { u128 t = x % y; x = y; y = t; }
    return x;
}

/* gcd and lcm work on the two values brought to their larger display
 * scale, where both are integers: PostgreSQL's gcd_var (Euclid on the
 * values by mod_var) finds the same number, and both results keep that
 * scale. NaN and the infinities give NaN, as PostgreSQL's numeric_gcd and
 * numeric_lcm. */
int attu_numeric_gcd(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err) {
    if (attu_numeric_is_special(a) || attu_numeric_is_special(b)) { *out = attu_numeric_nan(); return 0; }
    int s = a.dscale > b.dscale ? a.dscale : b.dscale;
    __int128 x, y;
    if (!rescale(a.m, s - a.dscale, &x) || !rescale(b.m, s - b.dscale, &y)) return overflow(err);
    return checked((__int128)gcd_u128(uabs(x), uabs(y)), s, out, err);
}

int attu_numeric_lcm(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err) {
    if (attu_numeric_is_special(a) || attu_numeric_is_special(b)) { *out = attu_numeric_nan(); return 0; }
    int s = a.dscale > b.dscale ? a.dscale : b.dscale;
    __int128 x, y;
    if (!rescale(a.m, s - a.dscale, &x) || !rescale(b.m, s - b.dscale, &y)) return overflow(err);
    if (x == 0 || y == 0) return checked(0, s, out, err);   /* lcm(x, 0) = 0 */
    /* |x| / gcd * |y|: the division is exact; the product is the
     * result's digits at scale s (x and y are already scaled by 10^s, so
     * the lcm of the values is (|x| / g) * |y| / 10^s, written at scale s) */
    u128 ux = uabs(x), uy = uabs(y), r;
    if (__builtin_mul_overflow(ux / gcd_u128(ux, uy), uy, &r) || r > (u128)NUM_LIMIT) return overflow(err);
    return checked((__int128)r, s, out, err);
}

int attu_numeric_div_trunc(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err) {
    int sp = div_special(a, b, false, out, err);
    if (sp) return sp < 0 ? -1 : 0;
    if (b.m == 0) return attu_error_set(err, ATTU_SQLSTATE_DIVISION_BY_ZERO, 0, "division by zero");
    /* At one scale the quotient of the scaled integers is the quotient of
     * the values, and C's integer division truncates toward zero, which is
     * exactly div's rounding; a / b rounded at its display scale first
     * could round up into the next integer (div(1,
     * 0.33333333333333333333334) is 2, the quotient 2.999...94). */
    int s = a.dscale > b.dscale ? a.dscale : b.dscale;
    __int128 x, y;
    if (!rescale(a.m, s - a.dscale, &x) || !rescale(b.m, s - b.dscale, &y)) return overflow(err);
    return checked(x / y, 0, out, err);
}

/* A long double result rounded to rscale places. */
static int from_long_double(long double v, int rscale, attu_numeric *out, attu_error *err) {
    if (isnan(v) || isinf(v)) return overflow(err);
    if (rscale > ATTU_NUMERIC_MAX_DIGITS) rscale = ATTU_NUMERIC_MAX_DIGITS;
    long double sc = v;
    for (int i = 0; i < rscale; i++) sc *= 10;
    if (fabsl(sc) >= 1e36L) return overflow(err);
    long double r = roundl(sc);
    return checked((__int128)r, rscale, out, err);
}

static long double to_long_double(attu_numeric a) {
    long double v = (long double)a.m;
    for (int i = 0; i < a.dscale; i++) v /= 10;
    return v;
}

/* PostgreSQL's estimate_ln_dweight: the decimal weight of ln(a). */
static int ln_dweight(attu_numeric a) {
    if (a.m <= 0) return 0;
    long double v = to_long_double(a);
    if (v >= 0.9L && v <= 1.1L) {
        long double x = v - 1;
        if (x == 0) return 0;
        return (int)floorl(log10l(fabsl(x)));
    }
    double l = (double)logl(v);
    return (int)log10(fabs(l));
}

/* a ^ b where one is special, as PostgreSQL's numeric_power: 1 when *out
 * is the answer, -1 on an error, 0 when neither is special */
static int power_special(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err) {
    if (!attu_numeric_is_special(a) && !attu_numeric_is_special(b)) return 0;
    attu_numeric one = { 1, 0 };
    /* NaN ^ 0 and 1 ^ NaN are 1; any other NaN makes NaN */
    if (attu_numeric_is_nan(a) || attu_numeric_is_nan(b)) {
        bool is_one = attu_numeric_is_nan(a) ? (!attu_numeric_is_special(b) && b.m == 0)
                                             : (!attu_numeric_is_special(a) && attu_numeric_cmp(a, one) == 0);
        *out = is_one ? one : attu_numeric_nan();
        return 1;
    }
    int sb = attu_numeric_sign(b);
    if (!sb) { *out = one; return 1; }                 /* x ^ 0 */
    if (attu_numeric_inf_sign(b)) {
        /* a number to an infinite power: |a| against 1 decides */
        if (a.m == 0) {
            if (sb < 0) { attu_error_set(err, "2201F", 0, "zero raised to a negative power is undefined"); return -1; }
            *out = (attu_numeric){ 0, 0 };
            return 1;
        }
        attu_numeric aa = a;
        if (aa.m < 0) aa.m = -aa.m;
        int c = attu_numeric_cmp(aa, one);
        if (c == 0) *out = one;
        else if ((c > 0) == (sb > 0)) *out = attu_numeric_inf(1);
        else *out = (attu_numeric){ 0, 0 };
        return 1;
    }
    /* an infinite base to a number's power */
    if (sb < 0) { *out = (attu_numeric){ 0, 0 }; return 1; }
    if (a.m > 0) { *out = a; return 1; }
    /* -Infinity: odd integer powers keep the sign, even ones lose it,
     * other powers are complex */
    if (b.dscale > 0 && b.m % pow10_128(b.dscale) != 0)
        { attu_error_set(err, "2201F", 0, "a negative number raised to a non-integer power yields a complex result"); return -1; }
    __int128 e = b.m;
    for (int i = 0; i < b.dscale; i++) e /= 10;
    *out = attu_numeric_inf(e % 2 ? -1 : 1);
    return 1;
}

int attu_numeric_power(attu_numeric a, attu_numeric b, attu_numeric *out, attu_error *err) {
    int sp = power_special(a, b, out, err);
    if (sp) return sp < 0 ? -1 : 0;
    long double x = to_long_double(a), y = to_long_double(b);
    if (a.m == 0 && b.m < 0)
        return attu_error_set(err, "2201F", 0, "zero raised to a negative power is undefined");
    bool yint = b.dscale == 0 || b.m % pow10_128(b.dscale) == 0;
    if (a.m < 0 && !yint)
        return attu_error_set(err, "2201F", 0, "a negative number raised to a non-integer power yields a complex result");
    if (a.m == 0) return checked(0, ATTU_NUMERIC_MIN_SIG_DIGITS > a.dscale ? ATTU_NUMERIC_MIN_SIG_DIGITS : a.dscale, out, err);
    int rscale;
    if (yint) {
        /* power_var's integer exponent: 16 places, at least the base's */
        rscale = ATTU_NUMERIC_MIN_SIG_DIGITS > a.dscale ? ATTU_NUMERIC_MIN_SIG_DIGITS : a.dscale;
        __int128 e = b.m;
        for (int i = 0; i < b.dscale; i++) e /= 10;
        if (e == 0) return checked(pow10_128(rscale > ATTU_NUMERIC_MAX_DIGITS - 1 ? ATTU_NUMERIC_MAX_DIGITS - 1 : rscale),
                                   rscale > ATTU_NUMERIC_MAX_DIGITS - 1 ? ATTU_NUMERIC_MAX_DIGITS - 1 : rscale, out, err);
        /* powers by squaring in 37 digits (a negative one: the
         * reciprocal) */
        if ((e >= 1 && e <= 100000) || (e <= -1 && e >= -100000)) return power_by_squaring(a, (int64_t)e, rscale, out, err);
    } else {
        /* the result's decimal weight from a low-precision estimate, then
         * 16 significant digits, at least the inputs' scales */
        long double val = y * logl(fabsl(x)) * 0.434294481903252L;
        rscale = ATTU_NUMERIC_MIN_SIG_DIGITS - (int)val;
        if (rscale < a.dscale) rscale = a.dscale;
        if (rscale < b.dscale) rscale = b.dscale;
        if (rscale < 0) rscale = 0;
    }
    return from_long_double(powl(x, y), rscale, out, err);
}

int attu_numeric_log(attu_numeric base, attu_numeric x, attu_numeric *out, attu_error *err) {
    if (attu_numeric_is_special(base) || attu_numeric_is_special(x)) {
        /* numeric_log: NaN in, NaN out; zero and negatives are errors as
         * below; log(Infinity, Infinity) NaN, log(Infinity, x) 0,
         * log(b, Infinity) Infinity */
        if (attu_numeric_is_nan(base) || attu_numeric_is_nan(x)) { *out = attu_numeric_nan(); return 0; }
        if (base.m == 0 || x.m == 0) return attu_error_set(err, "2201E", 0, "cannot take logarithm of zero");
        if (base.m < 0 || x.m < 0) return attu_error_set(err, "2201E", 0, "cannot take logarithm of a negative number");
        if (attu_numeric_is_special(base) && attu_numeric_is_special(x)) *out = attu_numeric_nan();
        else if (attu_numeric_is_special(base)) *out = (attu_numeric){ 0, 0 };
        else *out = x;
        return 0;
    }
    if (base.m == 0 || x.m == 0)
        return attu_error_set(err, "2201E", 0, "cannot take logarithm of zero");
    if (base.m < 0 || x.m < 0)
        return attu_error_set(err, "2201E", 0, "cannot take logarithm of a negative number");
    long double lb = logl(to_long_double(base));
    if (lb == 0) return attu_error_set(err, ATTU_SQLSTATE_DIVISION_BY_ZERO, 0, "division by zero");
    int rscale = ATTU_NUMERIC_MIN_SIG_DIGITS - (ln_dweight(x) - ln_dweight(base));
    if (rscale < base.dscale) rscale = base.dscale;
    if (rscale < x.dscale) rscale = x.dscale;
    if (rscale < 0) rscale = 0;
    return from_long_double(logl(to_long_double(x)) / lb, rscale, out, err);
}

int attu_numeric_sqrt_fn(attu_numeric a, attu_numeric *out, attu_error *err) {
    if (attu_numeric_is_special(a)) return attu_numeric_sqrt(a, 0, out, err);
    int w, f;
    nbase_lead(a, &w, &f);
    /* numeric_sqrt: the result's weight is about half the argument's */
    int sweight = (w + 1) * 4 / 2 - 1;
    int rscale = ATTU_NUMERIC_MIN_SIG_DIGITS - sweight;
    if (rscale < a.dscale) rscale = a.dscale;
    if (rscale < 0) rscale = 0;
    return attu_numeric_sqrt(a, rscale, out, err);
}

/* ln(a) in long double: near 1 through log1p of the exact a - 1, so that
 * the digits of a tiny logarithm are not lost to rounding a. */
static int ln_long_double(attu_numeric a, long double *out, attu_error *err) {
    if (a.m == 0) return attu_error_set(err, "2201E", 0, "cannot take logarithm of zero");
    if (a.m < 0) return attu_error_set(err, "2201E", 0, "cannot take logarithm of a negative number");
    attu_numeric one = { 1, 0 }, d = { 0, 0 };
    attu_error tmp;
    memset(&tmp, 0, sizeof tmp);
    if (!attu_numeric_sub(a, one, &d, &tmp) && to_long_double(d) > -0.5L && to_long_double(d) < 1.0L)
        *out = log1pl(to_long_double(d));
    else
        *out = logl(to_long_double(a));
    return 0;
}

/* ln(a) / div at ln's result scale: ln (div 1) and log10 (div ln 10, whose
 * decimal weight is 0, so log_var(10, a) has the same scale). */
static int ln_over(attu_numeric a, long double div, attu_numeric *out, attu_error *err) {
    if (attu_numeric_is_special(a)) {
        /* NaN: NaN; Infinity: Infinity; -Infinity: negative */
        if (a.m < 0) return attu_error_set(err, "2201E", 0, "cannot take logarithm of a negative number");
        *out = a;
        return 0;
    }
    long double l;
    if (ln_long_double(a, &l, err)) return -1;
    int rscale = ATTU_NUMERIC_MIN_SIG_DIGITS - ln_dweight(a);
    if (rscale < a.dscale) rscale = a.dscale;
    if (rscale < 0) rscale = 0;
    return from_long_double(l / div, rscale, out, err);
}

int attu_numeric_ln(attu_numeric a, attu_numeric *out, attu_error *err) {
    return ln_over(a, 1.0L, out, err);
}

int attu_numeric_exp(attu_numeric a, attu_numeric *out, attu_error *err) {
    if (attu_numeric_is_special(a)) {
        /* exp(-Infinity) is 0; NaN and Infinity themselves */
        if (a.m < 0) *out = (attu_numeric){ 0, 0 };
        else *out = a;
        return 0;
    }
    long double x = to_long_double(a);
    /* the result's decimal weight, bounded as PostgreSQL bounds it
     * (NUMERIC_MAX_RESULT_SCALE) before the truncating conversion */
    double w = (double)x * 0.434294481903252;
    if (w > 2000) w = 2000;
    if (w < -2000) w = -2000;
    int rscale = ATTU_NUMERIC_MIN_SIG_DIGITS - (int)w;
    if (rscale < a.dscale) rscale = a.dscale;
    if (rscale < 0) rscale = 0;
    if (rscale > 1000) rscale = 1000;
    pow_acc r;
    if (exp_acc(a, &r)) return pow_acc_numeric(r, false, rscale, out, err);
    if (a.m > 0) return overflow(err);
    return checked(0, rscale > ATTU_NUMERIC_MAX_DIGITS ? ATTU_NUMERIC_MAX_DIGITS : rscale, out, err);   /* e ^ -1000 and below */
}

int attu_numeric_log10(attu_numeric a, attu_numeric *out, attu_error *err) {
    return ln_over(a, logl(10.0L), out, err);
}
