/*
 * math_functions.c - gcd, lcm, factorial and width_bucket (math_functions.h).
 */
#include "engine/math_functions.h"

#include <math.h>

typedef unsigned __int128 u128;

static int int_range(bool bigint, attu_error *err) {
    return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, bigint ? "bigint out of range" : "integer out of range");
}

static uint64_t uabs64(int64_t v) { return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v; }

static uint64_t gcd_u64(uint64_t x, uint64_t y) {
    while (y) { uint64_t t = x % y; x = y; y = t; }
    return x;
}

/* The magnitudes make every case exact: the only results the type cannot
 * hold are 2^31 (2^63), which PostgreSQL's int4gcd / int8gcd reject for
 * gcd(INT_MIN, 0) and gcd(INT_MIN, INT_MIN), and any lcm past the maximum. */
int attu_int_gcd(int64_t a, int64_t b, bool bigint, int64_t *out, attu_error *err) {
    uint64_t g = gcd_u64(uabs64(a), uabs64(b));
    if (g > (uint64_t)(bigint ? INT64_MAX : INT32_MAX)) return int_range(bigint, err);
    *out = (int64_t)g;
    return 0;
}

int attu_int_lcm(int64_t a, int64_t b, bool bigint, int64_t *out, attu_error *err) {
    if (a == 0 || b == 0) { *out = 0; return 0; }   /* before gcd: lcm(INT_MIN, 0) is 0 */
    uint64_t ua = uabs64(a), ub = uabs64(b);
    /* PostgreSQL computes the gcd first, which fails for (INT_MIN,
     * INT_MIN); the lcm then is 2^31 (2^63) and fails the same way */
    u128 r = (u128)(ua / gcd_u64(ua, ub)) * ub;
    if (r > (u128)(bigint ? INT64_MAX : INT32_MAX)) return int_range(bigint, err);
    *out = (int64_t)r;
    return 0;
}

int attu_factorial(int64_t n, attu_numeric *out, attu_error *err) {
    if (n < 0) return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "factorial of a negative number is undefined");
    attu_numeric r = attu_numeric_from_int64(1);
    /* 32! has 36 digits, 33! has 37: a product past attu's numeric fails
     * in attu_numeric_mul with PostgreSQL's overflow message */
    if (n > 33) n = 33;
    for (int64_t k = 2; k <= n; k++)
        if (attu_numeric_mul(r, attu_numeric_from_int64(k), &r, err)) return -1;
    *out = r;
    return 0;
}

static int bucket_error(const char *msg, attu_error *err) {
    return attu_error_set(err, "2201G", 0, "%s", msg);
}

/* count + 1, the bucket above the range */
static int above(int64_t count, int64_t *out, attu_error *err) {
    if (count >= INT32_MAX) return int_range(false, err);
    *out = count + 1;
    return 0;
}

int attu_width_bucket_float(double x, double lo, double hi, int64_t count, int64_t *out, attu_error *err) {
    if (count <= 0) return bucket_error("count must be greater than zero", err);
    if (isnan(x) || isnan(lo) || isnan(hi)) return bucket_error("operand, lower bound, and upper bound cannot be NaN", err);
    if (isinf(lo) || isinf(hi)) return bucket_error("lower and upper bounds must be finite", err);
    if (lo == hi) return bucket_error("lower bound cannot equal upper bound", err);
    bool up = lo < hi;
    if (up ? x < lo : x > lo) { *out = 0; return 0; }
    if (up ? x >= hi : x <= hi) return above(count, out, err);
    /* PostgreSQL 15's arithmetic, in its order: (count * (x - lo)) /
     * (hi - lo) + 1, truncated to an integer */
    double q = up ? (double)count * (x - lo) / (hi - lo) : (double)count * (lo - x) / (lo - hi);
    double r = q + 1;
    /* bounds whose difference passes double precision (1e308 - -1e308)
     * make it NaN or infinite; PostgreSQL 15 converts that to integer as
     * the machine does, which on x86-64 (cvttsd2si) is -2147483648 */
    *out = r >= INT32_MIN && r < 2147483648.0 ? (int64_t)r : INT32_MIN;
    return 0;
}

int attu_width_bucket_numeric(attu_numeric x, attu_numeric lo, attu_numeric hi, int64_t count, int64_t *out,
                              attu_error *err) {
    if (count <= 0) return bucket_error("count must be greater than zero", err);
    if (attu_numeric_is_nan(x) || attu_numeric_is_nan(lo) || attu_numeric_is_nan(hi))
        return bucket_error("operand, lower bound, and upper bound cannot be NaN", err);
    if (attu_numeric_is_special(lo) || attu_numeric_is_special(hi))
        return bucket_error("lower and upper bounds must be finite", err);
    int c = attu_numeric_cmp(lo, hi);
    if (c == 0) return bucket_error("lower bound cannot equal upper bound", err);
    bool up = c < 0;
    int cl = attu_numeric_cmp(x, lo), ch = attu_numeric_cmp(x, hi);
    if (up ? cl < 0 : cl > 0) { *out = 0; return 0; }
    if (up ? ch >= 0 : ch <= 0) return above(count, out, err);
    /* PostgreSQL 15's compute_bucket: (x - lo) * count / (hi - lo) at the
     * division's own scale, rounded (numeric_div's rounding), plus one,
     * floored; the bounds swap sides when they run downwards */
    attu_numeric d, w, q;
    if ((up ? attu_numeric_sub(x, lo, &d, err) : attu_numeric_sub(lo, x, &d, err)) ||
        (up ? attu_numeric_sub(hi, lo, &w, err) : attu_numeric_sub(lo, hi, &w, err)) ||
        attu_numeric_mul(d, attu_numeric_from_int64(count), &d, err) || attu_numeric_div(d, w, &q, err) ||
        attu_numeric_add(q, attu_numeric_from_int64(1), &q, err) || attu_numeric_floor(q, false, &q, err))
        return -1;
    int64_t v;
    if (attu_numeric_to_scaled(q, 0, &v) || v > INT32_MAX || v < INT32_MIN) return int_range(false, err);
    *out = v;
    return 0;
}
