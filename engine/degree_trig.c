/*
 * degree_trig.c - trigonometry in degrees, exact at the special angles.
 *
 * The scheme (PostgreSQL's, float.c): an angle is folded into [0, 90]
 * with the sign the fold implies; the sine on [0, 30] is libm's sine
 * divided by libm's sin(30 deg) and halved (so 30 gives exactly 0.5), the
 * cosine on [0, 60] is 1 - (1 - cos x) / (1 - cos 60 deg) / 2 (so 60 gives
 * exactly 0.5), and the quadrant's other half uses the complement. The
 * inverse functions divide by libm's asin(0.5) / acos(0.5) / atan(1) the
 * same way. The scaling constants are computed at run time with the same
 * libm calls, and each intermediate is stored in a volatile double so
 * that no wider register or reassociation changes a rounding.
 */
#include "engine/degree_trig.h"

#include <math.h>
#include <stdbool.h>

#define RADIANS_PER_DEGREE 0.0174532925199432957692

/* Volatile so the compiler cannot fold sin(30 deg) etc. at build time with
 * its own (possibly different) implementation. */
static volatile double deg_30 = 30.0, deg_45 = 45.0, deg_60 = 60.0, half = 0.5, one = 1.0;

typedef struct degree_consts {
    double sin_30, one_minus_cos_60, asin_half, acos_half, atan_one, tan_45, cot_45;
} degree_consts;

static double sin_0_to_30(const degree_consts *k, double x) {
    volatile double s = sin(x * RADIANS_PER_DEGREE);
    return (s / k->sin_30) / 2.0;
}

static double cos_0_to_60(const degree_consts *k, double x) {
    volatile double omc = 1.0 - cos(x * RADIANS_PER_DEGREE);
    return 1.0 - (omc / k->one_minus_cos_60) / 2.0;
}

/* sine and cosine of an angle in [0, 90]; each stitched from the two
 * pieces above, exact at 0, 30 / 60 and 90 */
static double sin_q1(const degree_consts *k, double x) {
    return x <= 30.0 ? sin_0_to_30(k, x) : cos_0_to_60(k, 90.0 - x);
}
static double cos_q1(const degree_consts *k, double x) {
    return x <= 60.0 ? cos_0_to_60(k, x) : sin_0_to_30(k, 90.0 - x);
}

/* inverse sine / cosine of x in [0, 1], in degrees, exact at 0, 0.5, 1 */
static double asin_q1(const degree_consts *k, double x) {
    if (x <= 0.5) { volatile double a = asin(x); return (a / k->asin_half) * 30.0; }
    volatile double c = acos(x);
    return 90.0 - (c / k->acos_half) * 60.0;
}
static double acos_q1(const degree_consts *k, double x) {
    if (x <= 0.5) { volatile double a = asin(x); return 90.0 - (a / k->asin_half) * 30.0; }
    volatile double c = acos(x);
    return (c / k->acos_half) * 60.0;
}

static const degree_consts *consts(void) {
    static degree_consts k;
    static bool set;
    if (!set) {
        /* computed in PostgreSQL's order: tan_45 and cot_45 need the
         * first two already in place. Idempotent, so a race between two
         * threads writes the same bits. */
        k.sin_30 = sin(deg_30 * RADIANS_PER_DEGREE);
        k.one_minus_cos_60 = 1.0 - cos(deg_60 * RADIANS_PER_DEGREE);
        k.asin_half = asin(half);
        k.acos_half = acos(half);
        k.atan_one = atan(one);
        k.tan_45 = sin_q1(&k, deg_45) / cos_q1(&k, deg_45);
        k.cot_45 = cos_q1(&k, deg_45) / sin_q1(&k, deg_45);
        set = true;
    }
    return &k;
}

static int out_of_range(attu_error *err) {
    return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "input is out of range");
}

int attu_degree_trig(attu_degree_fn fn, double x, double y2, double *out, attu_error *err) {
    const degree_consts *k = consts();
    if (isnan(x) || (fn == ATTU_ATAN2D && isnan(y2))) { *out = NAN; return 0; }
    switch (fn) {
    case ATTU_ASIND: case ATTU_ACOSD:
        if (x < -1.0 || x > 1.0) return out_of_range(err);
        if (fn == ATTU_ASIND) *out = x >= 0 ? asin_q1(k, x) : -asin_q1(k, -x);
        else *out = x >= 0 ? acos_q1(k, x) : 90.0 + asin_q1(k, -x);
        return 0;
    case ATTU_ATAND: {
        volatile double a = atan(x);
        *out = (a / k->atan_one) * 45.0;
        return 0;
    }
    case ATTU_ATAN2D: {
        volatile double a = atan2(x, y2);
        *out = (a / k->atan_one) * 45.0;
        return 0;
    }
    default: break;
    }
    if (isinf(x)) return out_of_range(err);
    /* fold into [0, 90]: sin and tan / cot are odd, cos even; past 180
     * all but cos change sign; past 90 sin keeps it, the rest change */
    double a = fmod(x, 360.0);
    int sign = 1;
    if (a < 0) { a = -a; if (fn != ATTU_COSD) sign = -sign; }
    if (a > 180.0) { a = 360.0 - a; if (fn != ATTU_COSD) sign = -sign; }
    if (a > 90.0) { a = 180.0 - a; if (fn != ATTU_SIND) sign = -sign; }
    double r;
    switch (fn) {
    case ATTU_SIND: r = sign * sin_q1(k, a); break;
    case ATTU_COSD: r = sign * cos_q1(k, a); break;
    case ATTU_TAND: {
        volatile double t = sin_q1(k, a) / cos_q1(k, a);
        r = sign * (t / k->tan_45);
        if (r == 0.0) r = 0.0;            /* tand(180): +0, never -0 */
        break;
    }
    default: {
        volatile double c = cos_q1(k, a) / sin_q1(k, a);
        r = sign * (c / k->cot_45);
        if (r == 0.0) r = 0.0;
        break;
    }
    }
    *out = r;
    return 0;
}
