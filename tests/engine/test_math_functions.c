/* Unit tests for engine/math_functions.c, numeric.c's gcd / lcm and
 * engine/random.c: the edges PostgreSQL 15 defines (the integer limits of
 * gcd and lcm, factorial's range, width_bucket's boundaries and errors)
 * and the generator's promises (range, reproducibility after setseed). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "engine/math_functions.h"
#include "engine/random.h"

static attu_error err;

static void reset(void) { attu_error_clear(&err); }

Test(math_functions, int_gcd_lcm) {
    int64_t r;
    reset();
    cr_assert_eq(attu_int_gcd(-12, 18, false, &r, &err), 0); cr_assert_eq(r, 6);
    cr_assert_eq(attu_int_gcd(0, 0, false, &r, &err), 0); cr_assert_eq(r, 0);
    cr_assert_eq(attu_int_gcd(INT32_MIN, 2, false, &r, &err), 0); cr_assert_eq(r, 2);
    cr_assert_eq(attu_int_gcd(INT32_MIN, -1, false, &r, &err), 0); cr_assert_eq(r, 1);
    cr_assert_eq(attu_int_lcm(INT32_MIN, 0, false, &r, &err), 0); cr_assert_eq(r, 0);
    cr_assert_eq(attu_int_lcm(-4, 6, false, &r, &err), 0); cr_assert_eq(r, 12);
    cr_assert_eq(attu_int_gcd(INT32_MIN, 0, false, &r, &err), -1);
    cr_assert_str_eq(err.sqlstate, "22003");
    cr_assert_str_eq(err.message, "integer out of range");
    reset();
    cr_assert_eq(attu_int_lcm(65536, 65537, false, &r, &err), -1);
    reset();
    cr_assert_eq(attu_int_gcd(INT64_MIN, 0, true, &r, &err), -1);
    cr_assert_str_eq(err.message, "bigint out of range");
    reset();
    cr_assert_eq(attu_int_gcd(INT64_MIN, 4, true, &r, &err), 0); cr_assert_eq(r, 4);
    cr_assert_eq(attu_int_lcm(INT64_MAX, 1, true, &r, &err), 0); cr_assert_eq(r, INT64_MAX);
    cr_assert_eq(attu_int_lcm(INT64_MAX, 2, true, &r, &err), -1);
}

Test(math_functions, numeric_gcd_lcm) {
    attu_numeric a = { 150, 2 }, b = { 25, 2 }, r;   /* 1.50, 0.25 */
    reset();
    cr_assert_eq(attu_numeric_gcd(a, b, &r, &err), 0);
    cr_assert(r.m == 25 && r.dscale == 2);
    attu_numeric c = { 15, 1 };                       /* 1.5 */
    cr_assert_eq(attu_numeric_lcm(c, b, &r, &err), 0);
    cr_assert(r.m == 150 && r.dscale == 2);           /* 1.50 */
    attu_numeric z = { 0, 2 }, five = { 5, 0 };
    cr_assert_eq(attu_numeric_lcm(z, five, &r, &err), 0);
    cr_assert(r.m == 0 && r.dscale == 2);             /* 0.00 */
    cr_assert_eq(attu_numeric_gcd(attu_numeric_nan(), five, &r, &err), 0);
    cr_assert(attu_numeric_is_nan(r));
    cr_assert_eq(attu_numeric_lcm(attu_numeric_inf(1), five, &r, &err), 0);
    cr_assert(attu_numeric_is_nan(r));
}

Test(math_functions, factorial) {
    attu_numeric r;
    reset();
    cr_assert_eq(attu_factorial(0, &r, &err), 0); cr_assert(r.m == 1 && r.dscale == 0);
    cr_assert_eq(attu_factorial(20, &r, &err), 0); cr_assert(r.m == (__int128)2432902008176640000LL);
    cr_assert_eq(attu_factorial(32, &r, &err), 0);
    cr_assert_eq(attu_factorial(33, &r, &err), -1);
    cr_assert_str_eq(err.message, "value overflows numeric format");
    reset();
    cr_assert_eq(attu_factorial(INT64_MAX, &r, &err), -1);
    reset();
    cr_assert_eq(attu_factorial(-1, &r, &err), -1);
    cr_assert_str_eq(err.sqlstate, "22003");
    cr_assert_str_eq(err.message, "factorial of a negative number is undefined");
}

Test(math_functions, width_bucket_float) {
    int64_t r;
    reset();
    cr_assert_eq(attu_width_bucket_float(5.35, 0.024, 10.06, 5, &r, &err), 0); cr_assert_eq(r, 3);
    cr_assert_eq(attu_width_bucket_float(0, 0, 10, 5, &r, &err), 0); cr_assert_eq(r, 1);
    cr_assert_eq(attu_width_bucket_float(10, 0, 10, 5, &r, &err), 0); cr_assert_eq(r, 6);
    cr_assert_eq(attu_width_bucket_float(-INFINITY, 0, 10, 5, &r, &err), 0); cr_assert_eq(r, 0);
    cr_assert_eq(attu_width_bucket_float(7.5, 10, 0, 4, &r, &err), 0); cr_assert_eq(r, 2);
    cr_assert_eq(attu_width_bucket_float(0, 10, 0, 4, &r, &err), 0); cr_assert_eq(r, 5);
    cr_assert_eq(attu_width_bucket_float(1e308, -1e308, 1.5e308, 10, &r, &err), 0); cr_assert_eq(r, INT32_MIN);
    cr_assert_eq(attu_width_bucket_float(10, 0, 10, INT32_MAX, &r, &err), -1);
    cr_assert_str_eq(err.sqlstate, "22003");
    reset();
    cr_assert_eq(attu_width_bucket_float(1, 0, 10, 0, &r, &err), -1);
    cr_assert_str_eq(err.sqlstate, "2201G");
    cr_assert_str_eq(err.message, "count must be greater than zero");
    reset();
    cr_assert_eq(attu_width_bucket_float(NAN, 0, 10, 1, &r, &err), -1);
    cr_assert_str_eq(err.message, "operand, lower bound, and upper bound cannot be NaN");
    reset();
    cr_assert_eq(attu_width_bucket_float(1, 0, INFINITY, 1, &r, &err), -1);
    cr_assert_str_eq(err.message, "lower and upper bounds must be finite");
    reset();
    cr_assert_eq(attu_width_bucket_float(1, 3, 3, 1, &r, &err), -1);
    cr_assert_str_eq(err.message, "lower bound cannot equal upper bound");
}

Test(math_functions, width_bucket_numeric) {
    int64_t r;
    attu_numeric x = { 535, 2 }, lo = { 24, 3 }, hi = { 1006, 2 };   /* 5.35, 0.024, 10.06 */
    reset();
    cr_assert_eq(attu_width_bucket_numeric(x, lo, hi, 5, &r, &err), 0); cr_assert_eq(r, 3);
    attu_numeric near3 = { 0, 19 }, zero = { 0, 0 }, ten = { 10, 0 };
    near3.m = (__int128)2999999999999999999LL * 10 + 9;              /* 2.9999999999999999999 */
    cr_assert_eq(attu_width_bucket_numeric(near3, zero, ten, 10, &r, &err), 0); cr_assert_eq(r, 3);
    cr_assert_eq(attu_width_bucket_numeric(attu_numeric_inf(-1), ten, zero, 5, &r, &err), 0); cr_assert_eq(r, 6);
    cr_assert_eq(attu_width_bucket_numeric(attu_numeric_nan(), zero, ten, 5, &r, &err), -1);
    cr_assert_str_eq(err.sqlstate, "2201G");
}

Test(math_functions, random_and_setseed) {
    attu_random_state st;
    memset(&st, 0, sizeof st);
    attu_random_use(&st);
    reset();
    cr_assert_eq(attu_random_setseed(&st, 0.42, &err), 0);
    double first[100];
    for (int i = 0; i < 100; i++) {
        first[i] = attu_random_next();
        cr_assert(first[i] >= 0 && first[i] < 1);
    }
    cr_assert_eq(attu_random_setseed(&st, 0.42, &err), 0);
    for (int i = 0; i < 100; i++) cr_assert_eq(attu_random_next(), first[i]);
    cr_assert_eq(attu_random_setseed(&st, -0.42, &err), 0);
    int same = 0;
    for (int i = 0; i < 100; i++) same += attu_random_next() == first[i];
    cr_assert_eq(same, 0);
    cr_assert_eq(attu_random_setseed(&st, 2, &err), -1);
    cr_assert_str_eq(err.sqlstate, "22023");
    cr_assert_str_eq(err.message, "setseed parameter 2 is out of allowed range [-1,1]");
    reset();
    cr_assert_eq(attu_random_setseed(&st, NAN, &err), -1);
    cr_assert_str_eq(err.message, "setseed parameter NaN is out of allowed range [-1,1]");
    attu_random_forget(&st);
    cr_assert(attu_random_current() != &st);
    double v = attu_random_next();   /* the thread's own generator */
    cr_assert(v >= 0 && v < 1);
}
