/* Unit tests for engine/numeric.c: per-value display scales by PostgreSQL
 * 15's rules. Every expected text below is PostgreSQL 15's output for the
 * query in the comment beside it. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/numeric.h"

/* Parses a plain decimal literal ("-7.0", "0.07") into a numeric whose
 * dscale is its digits after the point, as PostgreSQL's numeric_in. */
static attu_numeric lit(const char *s) {
    attu_numeric n = { 0, 0 };
    bool neg = *s == '-', frac = false;
    if (neg) s++;
    for (; *s; s++) {
        if (*s == '.') { frac = true; continue; }
        n.m = n.m * 10 + (*s - '0');
        if (frac) n.dscale++;
    }
    if (neg) n.m = -n.m;
    return n;
}

static const char *fmt(attu_numeric n) {
    static char buf[64];
    attu_numeric_format(n, buf, sizeof buf);
    return buf;
}

static const char *div_text(const char *a, const char *b) {
    attu_numeric r;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_numeric_div(lit(a), lit(b), &r, &err), 0, "%s / %s: %s", a, b, err.message);
    return fmt(r);
}

Test(numeric, division_scale_is_postgresql_select_div_scale) {
    cr_expect_str_eq(div_text("1", "3"), "0.33333333333333333333");       /* 1::numeric/3 */
    cr_expect_str_eq(div_text("2", "3"), "0.66666666666666666667");       /* rounds up */
    cr_expect_str_eq(div_text("-7.0", "2"), "-3.5000000000000000");       /* -7.0/2 */
    cr_expect_str_eq(div_text("10", "4"), "2.5000000000000000");
    cr_expect_str_eq(div_text("0.5", "3"), "0.16666666666666666667");
    cr_expect_str_eq(div_text("100", "0.07"), "1428.5714285714285714");
    cr_expect_str_eq(div_text("19", "3"), "6.3333333333333333");          /* avg of 19 over 3 rows */
    cr_expect_str_eq(div_text("4294967295", "3"), "1431655765.00000000");
    cr_expect_str_eq(div_text("12345678.0", "0.001"), "12345678000.00000000");
    cr_expect_str_eq(div_text("100000000000000000000", "3"), "33333333333333333333");
    cr_expect_str_eq(div_text("0", "7"), "0.00000000000000000000");
    cr_expect_str_eq(div_text("5.00", "0.5"), "10.0000000000000000");
}

Test(numeric, division_errors) {
    attu_numeric r;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_numeric_div(lit("1"), lit("0.00"), &r, &err), -1);
    cr_expect_str_eq(err.sqlstate, "22012");
    attu_error_clear(&err);
    /* 10^37 / 10^-10 needs 48 digits: past the 38-digit limit */
    cr_assert_eq(attu_numeric_div(lit("10000000000000000000000000000000000000"),
                                  lit("0.0000000001"), &r, &err), -1);
    cr_expect_str_eq(err.sqlstate, "22003");
}

Test(numeric, add_sub_mul_scales) {
    attu_numeric r;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_numeric_add(lit("1.5"), lit("2.25"), &r, &err), 0);
    cr_expect_str_eq(fmt(r), "3.75");                                     /* 1.5+2.25 */
    cr_assert_eq(attu_numeric_sub(lit("1.5"), lit("2.25"), &r, &err), 0);
    cr_expect_str_eq(fmt(r), "-0.75");
    cr_assert_eq(attu_numeric_mul(lit("1.25"), lit("0.2"), &r, &err), 0);
    cr_expect_str_eq(fmt(r), "0.250");                                    /* 1.25*0.2 */
    cr_assert_eq(attu_numeric_add(attu_numeric_from_int64(1), lit("2.5"), &r, &err), 0);
    cr_expect_str_eq(fmt(r), "3.5");
    /* 9223372036854775807 + 9223372036854775807: sum(bigint) does not overflow */
    cr_assert_eq(attu_numeric_add(attu_numeric_from_int64(INT64_MAX),
                                  attu_numeric_from_int64(INT64_MAX), &r, &err), 0);
    cr_expect_str_eq(fmt(r), "18446744073709551614");
    cr_expect_str_eq(fmt(attu_numeric_from_decimal(1200, 2)), "12.00");
    cr_assert_eq(attu_numeric_mul(lit("10000000000000000000"), lit("10000000000000000000"), &r, &err), -1);
    cr_expect_str_eq(err.sqlstate, "22003");
}

static const char *from_double(double d) {
    attu_numeric r;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_numeric_from_double(d, &r, &err), 0, "%g: %s", d, err.message);
    return fmt(r);
}

Test(numeric, float8_to_numeric_keeps_15_significant_digits) {
    cr_expect_str_eq(from_double(1.0), "1");                              /* 1::float8::numeric */
    cr_expect_str_eq(from_double(0.1), "0.1");
    cr_expect_str_eq(from_double(1e20), "100000000000000000000");
    cr_expect_str_eq(from_double(-2.5e-7), "-0.00000025");
    cr_expect_str_eq(from_double(123456789012345678.0), "123456789012346000");
    cr_expect_str_eq(from_double(0.008726646259971648), "0.00872664625997165");
    cr_expect_str_eq(from_double(69.09339629625073), "69.0933962962507");
    cr_expect_str_eq(from_double(0.0), "0");
    attu_numeric r;
    attu_error err;
    attu_error_clear(&err);
    /* NaN and the infinities are numeric's own (PostgreSQL 14+) */
    cr_expect_eq(attu_numeric_from_double(0.0 / 0.0, &r, &err), 0);
    cr_expect(attu_numeric_is_nan(r));
    cr_expect_eq(attu_numeric_from_double(-1.0 / 0.0, &r, &err), 0);
    cr_expect_eq(attu_numeric_inf_sign(r), -1);
}

Test(numeric, nan_and_infinities) {
    attu_numeric nan = attu_numeric_nan(), pinf = attu_numeric_inf(1), ninf = attu_numeric_inf(-1);
    attu_numeric one = { 1, 0 }, zero = { 0, 0 }, r;
    attu_error err;
    attu_error_clear(&err);
    /* a slot keeps them */
    char slot[16];
    attu_numeric_pack(ninf, slot);
    cr_expect_eq(attu_numeric_inf_sign(attu_numeric_unpack(slot)), -1);
    attu_numeric_pack(nan, slot);
    cr_expect(attu_numeric_is_nan(attu_numeric_unpack(slot)));
    /* order: -Infinity < numbers < Infinity < NaN = NaN */
    cr_expect_eq(attu_numeric_cmp(ninf, one), -1);
    cr_expect_eq(attu_numeric_cmp(pinf, one), 1);
    cr_expect_eq(attu_numeric_cmp(nan, pinf), 1);
    cr_expect_eq(attu_numeric_cmp(nan, nan), 0);
    /* arithmetic */
    cr_expect_eq(attu_numeric_sub(pinf, pinf, &r, &err), 0);
    cr_expect(attu_numeric_is_nan(r));
    cr_expect_eq(attu_numeric_mul(zero, pinf, &r, &err), 0);
    cr_expect(attu_numeric_is_nan(r));
    cr_expect_eq(attu_numeric_div(one, ninf, &r, &err), 0);
    cr_expect(!attu_numeric_is_special(r) && r.m == 0);
    cr_expect_eq(attu_numeric_div(nan, zero, &r, &err), 0);
    cr_expect(attu_numeric_is_nan(r));
    cr_expect_eq(attu_numeric_div(pinf, zero, &r, &err), -1);
    cr_expect_str_eq(err.sqlstate, "22012");
    attu_error_clear(&err);
    /* text */
    char buf[64];
    attu_numeric_format(ninf, buf, sizeof buf);
    cr_expect_str_eq(buf, "-Infinity");
    cr_expect_eq(attu_numeric_parse(" nan ", 5, &r, &err), 0);
    cr_expect(attu_numeric_is_nan(r));
    cr_expect_eq(attu_numeric_parse("-inf", 4, &r, &err), 0);
    cr_expect_eq(attu_numeric_inf_sign(r), -1);
    cr_expect_eq(attu_numeric_parse("-nan", 4, &r, &err), -1);
}

/* The reference conversion: PostgreSQL's "%.*g" with DBL_DIG digits,
 * printed by the C library and parsed back. */
static attu_numeric printed_from_double(double d) {
    char buf[64];
    snprintf(buf, sizeof buf, "%.14e", d);
    const char *p = buf + (d < 0 ? 1 : 0);
    __int128 m = 0;
    int n = 0;
    for (; *p != 'e'; p++)
        if (*p >= '0' && *p <= '9') { m = m * 10 + (*p - '0'); n++; }
    int exp10 = atoi(p + 1);
    while (n > 1 && m % 10 == 0) { m /= 10; n--; }
    int dscale = n - 1 - exp10;
    for (; dscale < 0; dscale++) m *= 10;
    if (m == 0) dscale = 0;
    attu_numeric r = { d < 0 ? -m : m, m == 0 ? 0 : dscale };
    return r;
}

static uint64_t next_random(uint64_t *s) {
    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
    return *s;
}

/* The exact integer path against the printed digits: random bit patterns,
 * log-uniform magnitudes across the exact path's range and beyond, and
 * 16-digit decimals ending in 5 (the nearest a double comes to a tie at
 * the 15th digit). */
Test(numeric, float8_to_numeric_matches_the_printed_digits) {
    uint64_t st = 0x9E3779B97F4A7C15ull;
    int checked = 0;
    for (int i = 0; i < 600000; i++) {
        double d;
        uint64_t r = next_random(&st);
        if (i % 3 == 0) {
            memcpy(&d, &r, sizeof d);
            if (d != d || d == 1.0 / 0.0 || d == -1.0 / 0.0) continue;
        } else if (i % 3 == 1) {
            double mag = -20.0 + 40.0 * (double)(r >> 11) / 9007199254740992.0;
            d = pow(10.0, mag) * ((r & 1) ? -1 : 1);
        } else {
            char buf[40];
            snprintf(buf, sizeof buf, "%s%llu.%015llu5e%d", (r & 1) ? "-" : "", (unsigned long long)(r % 9 + 1),
                     (unsigned long long)((r >> 8) % 1000000000000000ull), (int)((r >> 60) % 16) - 6);
            d = strtod(buf, NULL);
        }
        attu_numeric got;
        attu_error err;
        attu_error_clear(&err);
        int rc = attu_numeric_from_double(d, &got, &err);
        /* past 38 digits either way (22003, as before) or near: not compared */
        if (fabs(d) >= 1e36 || fabs(d) < 1e-20) continue;
        cr_assert_eq(rc, 0, "%.17g: %s", d, err.message);
        attu_numeric want = printed_from_double(d);
        char g[64], w[64];
        attu_numeric_format(got, g, sizeof g);
        attu_numeric_format(want, w, sizeof w);
        cr_assert(got.m == want.m && got.dscale == want.dscale, "%.17g: %s, printed %s", d, g, w);
        checked++;
    }
    cr_expect_gt(checked, 350000);
    /* exact ties at the 16th digit round to even, as the C library does */
    cr_expect_str_eq(from_double(0.5), "0.5");
    cr_expect_str_eq(from_double(9.999999999999999e22), "100000000000000000000000");
    cr_expect_str_eq(from_double(9.9999999999999995), "10");
    cr_expect_str_eq(from_double(1e-13), "0.0000000000001");
    cr_expect_str_eq(from_double(-1e-14), "-0.00000000000001");
}

Test(numeric, compare_ignores_display_scale) {
    cr_expect_eq(attu_numeric_cmp(lit("1.0"), lit("1")), 0);
    cr_expect_eq(attu_numeric_cmp(lit("0.33"), lit("0.333")), -1);
    cr_expect_eq(attu_numeric_cmp(lit("-2"), lit("-2.5")), 1);
    cr_expect_eq(attu_numeric_cmp(lit("99999999999999999999999999999999999999"), lit("0.5")), 1);
    cr_expect_eq(attu_numeric_cmp(lit("0.5"), lit("99999999999999999999999999999999999999")), -1);
}

/* ---- the NUMERIC type's helpers: slots, text, rounding, functions ---- */

static attu_numeric parsed(const char *s) {
    attu_numeric n;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_numeric_parse(s, strlen(s), &n, &err), 0, "%s: %s", s, err.message);
    return n;
}

Test(numeric, a_packed_slot_keeps_the_value_and_its_scale) {
    const char *vals[] = { "0", "-0.001", "123456789012345678901234567890.123456",
                           "-999999999999999999999999999999999999", "0.000000000000000000000000000000000001" };
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
        unsigned char slot[16];
        attu_numeric_pack(parsed(vals[i]), slot);
        cr_expect_str_eq(fmt(attu_numeric_unpack(slot)), vals[i]);
    }
}

Test(numeric, text_input_keeps_the_written_places) {
    cr_expect_str_eq(fmt(parsed("  -0012.3400e1 ")), "-123.400");     /* '  -0012.3400e1 '::numeric */
    cr_expect_str_eq(fmt(parsed("1.50")), "1.50");
    cr_expect_str_eq(fmt(parsed("1e3")), "1000");
    attu_numeric n;
    attu_error err;
    attu_error_clear(&err);
    cr_expect_eq(attu_numeric_parse("1.5x", 4, &n, &err), -1);
    cr_expect_str_eq(err.sqlstate, "22P02");
    attu_error_clear(&err);
    cr_expect_eq(attu_numeric_parse("1e40", 4, &n, &err), -1);
    cr_expect_str_eq(err.sqlstate, "22003");                          /* past 36 digits */
}

static const char *unary(int (*f)(attu_numeric, attu_numeric *, attu_error *), const char *a) {
    attu_numeric r;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(f(parsed(a), &r, &err), 0, "%s: %s", a, err.message);
    return fmt(r);
}

Test(numeric, round_trunc_floor_ceil_as_postgresql) {
    attu_numeric r;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_numeric_round(parsed("-2.345"), 2, &r, &err), 0);
    cr_expect_str_eq(fmt(r), "-2.35");                                /* round(-2.345, 2) */
    cr_assert_eq(attu_numeric_trunc(parsed("-2.345"), 2, &r, &err), 0);
    cr_expect_str_eq(fmt(r), "-2.34");                                /* trunc(-2.345, 2) */
    cr_assert_eq(attu_numeric_round(parsed("12345.6"), -2, &r, &err), 0);
    cr_expect_str_eq(fmt(r), "12300");                                /* round(12345.6, -2) */
    cr_assert_eq(attu_numeric_floor(parsed("-0.5"), false, &r, &err), 0);
    cr_expect_str_eq(fmt(r), "-1");                                   /* floor(-0.5) */
    cr_assert_eq(attu_numeric_floor(parsed("-0.5"), true, &r, &err), 0);
    cr_expect_str_eq(fmt(r), "0");                                    /* ceil(-0.5) */
}

/* A square root at a large scale squares past 128 bits (1 at 20 places:
 * 10^42); the root itself fits. stddev's of small integers hit this. */
Test(numeric, sqrt_at_large_scales) {
    attu_numeric r;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_numeric_sqrt(parsed("1.00000000000000000000"), 20, &r, &err), 0, "%s", err.message);
    cr_expect_str_eq(fmt(r), "1.00000000000000000000");
    cr_assert_eq(attu_numeric_sqrt(parsed("0.66666666666666666667"), 20, &r, &err), 0, "%s", err.message);
    cr_expect_str_eq(fmt(r), "0.81649658092772603273");               /* stddev_pop of 1, 2, 3 */
    cr_assert_eq(attu_numeric_sqrt(parsed("123456789012345678901234567890.123"), 3, &r, &err), 0, "%s", err.message);
    cr_expect_str_eq(fmt(r), "351364182882014.425");
    cr_assert_eq(attu_numeric_sqrt(parsed("0"), 15, &r, &err), 0, "%s", err.message);
    cr_expect_str_eq(fmt(r), "0.000000000000000");
}

Test(numeric, functions_take_postgresql_result_scales) {
    cr_expect_str_eq(unary(attu_numeric_sqrt_fn, "0.0001"), "0.01000000000000000");   /* sqrt(0.0001) */
    cr_expect_str_eq(unary(attu_numeric_ln, "2.0"), "0.6931471805599453");            /* ln(2.0) */
    cr_expect_str_eq(unary(attu_numeric_log10, "1000.0"), "3.0000000000000000");      /* log10(1000.0) */
    attu_numeric r;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_numeric_power(parsed("2.5"), parsed("2"), &r, &err), 0);
    cr_expect_str_eq(fmt(r), "6.2500000000000000");                   /* 2.5 ^ 2 */
    cr_assert_eq(attu_numeric_mod(parsed("9"), parsed("2.5"), &r, &err), 0);
    cr_expect_str_eq(fmt(r), "1.5");                                  /* 9 % 2.5 */
    cr_expect_eq(attu_numeric_ln(parsed("0"), &r, &err), -1);
    cr_expect_str_eq(err.sqlstate, "2201E");
}

/* div(a, b): the quotient truncated toward zero, scale 0; from the exact
 * scaled integers, so a quotient just below an integer is not rounded up
 * into it first. */
static const char *div_trunc_text(const char *a, const char *b) {
    attu_numeric r;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_numeric_div_trunc(lit(a), lit(b), &r, &err), 0, "div(%s, %s): %s", a, b, err.message);
    return fmt(r);
}

Test(numeric, div_truncates_toward_zero_at_scale_0) {
    cr_expect_str_eq(div_trunc_text("9", "4"), "2");                      /* div(9, 4) */
    cr_expect_str_eq(div_trunc_text("-9", "4"), "-2");                    /* div(-9, 4) */
    cr_expect_str_eq(div_trunc_text("9.5", "2"), "4");                    /* div(9.5, 2) */
    cr_expect_str_eq(div_trunc_text("-0.5", "1"), "0");                   /* div(-0.5, 1): no -0 */
    cr_expect_str_eq(div_trunc_text("10.74", "0.25"), "42");              /* div(10.74, 0.25) */
    cr_expect_str_eq(div_trunc_text("-7", "-2"), "3");                    /* div(-7, -2) */
    cr_expect_str_eq(div_trunc_text("0.99999999999999999999", "0.00000000000000000003"), "33333333333333333333");
    /* div(1, 0.33333333333333333333334): the quotient is
     * 2.99999999999999999999994, which rounded at fewer places is 3 */
    cr_expect_str_eq(div_trunc_text("1", "0.33333333333333333333334"), "2");
    attu_numeric r;
    attu_error err;
    attu_error_clear(&err);
    cr_expect_neq(attu_numeric_div_trunc(lit("1"), lit("0.00"), &r, &err), 0);
    cr_expect_str_eq(err.sqlstate, "22012");                              /* div(1, 0.00) */
}
