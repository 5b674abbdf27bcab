/*
 * test_pg_numeric.c - NUMERIC's binary wire format (server/pg_numeric.c):
 * byte layouts as PostgreSQL's numeric_send writes them, round trips
 * through numeric_recv's reading, and rejection of malformed values.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "server/pg_numeric.h"

/* Encodes txt and compares the field (length word + payload) with the
 * expected header and digits. */
static void expect_binary(const char *txt, int ndigits, int weight, int sign, int dscale,
                          const int *digits) {
    pgbuf b;
    pgbuf_init(&b);
    cr_assert(pg_numeric_put_binary(&b, txt, strlen(txt)), "%s rejected", txt);
    pgbuf want;
    pgbuf_init(&want);
    pgbuf_put_i32(&want, 8 + 2 * ndigits);
    pgbuf_put_i16(&want, (int16_t)ndigits);
    pgbuf_put_i16(&want, (int16_t)weight);
    pgbuf_put_i16(&want, (int16_t)sign);
    pgbuf_put_i16(&want, (int16_t)dscale);
    for (int i = 0; i < ndigits; i++) pgbuf_put_i16(&want, (int16_t)digits[i]);
    cr_assert_eq(b.len, want.len, "%s: %zu bytes, want %zu", txt, b.len, want.len);
    cr_assert(!memcmp(b.data, want.data, b.len), "%s: bytes differ", txt);
    pgbuf_free(&b);
    pgbuf_free(&want);
}

Test(pg_numeric, encodes_like_numeric_send) {
    expect_binary("0", 0, 0, 0, 0, NULL);
    expect_binary("0.00", 0, 0, 0, 2, NULL);
    expect_binary("-0.00", 0, 0, 0, 2, NULL);          /* zero has no sign */
    expect_binary("1", 1, 0, 0, 0, (int[]){1});
    expect_binary("-12.34", 2, 0, 0x4000, 2, (int[]){12, 3400});
    expect_binary("10000", 1, 1, 0, 0, (int[]){1});
    expect_binary("9999.9999", 2, 0, 0, 4, (int[]){9999, 9999});
    expect_binary("0.0001", 1, -1, 0, 4, (int[]){1});
    expect_binary("123456789.5", 4, 2, 0, 1, (int[]){1, 2345, 6789, 5000});
    expect_binary("0.000000000000000001", 1, -5, 0, 18, (int[]){100});
    expect_binary("20000.0002", 3, 1, 0, 4, (int[]){2, 0, 2});
    expect_binary("1.10", 2, 0, 0, 2, (int[]){1, 1000});
    expect_binary("123456789012345678", 5, 4, 0, 0, (int[]){12, 3456, 7890, 1234, 5678});
    expect_binary(".5", 1, -1, 0, 1, (int[]){5000});
    expect_binary("NaN", 0, 0, 0xC000, 0, NULL);
    expect_binary("Infinity", 0, 0, 0xD000, 0, NULL);
    expect_binary("-Infinity", 0, 0, 0xF000, 0, NULL);
}

Test(pg_numeric, rejects_what_is_not_a_decimal) {
    const char *bad[] = { "", "-", ".", "1e5", "1.2.3", "abc", "1 ", " 1", "--1", "nan" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        pgbuf b;
        pgbuf_init(&b);
        cr_assert(!pg_numeric_put_binary(&b, bad[i], strlen(bad[i])), "accepted \"%s\"", bad[i]);
        cr_assert_eq(b.len, 0, "\"%s\" left bytes behind", bad[i]);
        pgbuf_free(&b);
    }
}

/* Encodes txt and decodes the payload again. */
static char *round_trip(const char *txt) {
    pgbuf b;
    pgbuf_init(&b);
    cr_assert(pg_numeric_put_binary(&b, txt, strlen(txt)), "%s rejected", txt);
    attu_error err = {0};
    char *s = pg_numeric_binary_to_text(b.data + 4, (int32_t)(b.len - 4), 1, 0, &err);
    cr_assert_not_null(s, "%s: %s", txt, err.message);
    pgbuf_free(&b);
    return s;
}

Test(pg_numeric, decodes_what_it_encodes) {
    const char *same[] = { "0", "0.00", "1", "-1", "-12.34", "10000", "9999.9999", "0.0001",
                           "123456789.5", "0.000000000000000001", "20000.0002", "1.10",
                           "-99999999999999.9999", "123456789012345678", "100000000",
                           "-1000.5", "0.1000", "5000.00005", "NaN", "Infinity", "-Infinity" };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
        char *s = round_trip(same[i]);
        cr_assert_str_eq(s, same[i]);
        free(s);
    }
    char *s = round_trip("-0.00");
    cr_assert_str_eq(s, "0.00");
    free(s);
    s = round_trip(".5");
    cr_assert_str_eq(s, "0.5");
    free(s);
    /* long values (past the encoder's stack buffer) */
    char big[400];
    memset(big, '7', 300);
    big[300] = '.';
    memset(big + 301, '3', 90);
    big[391] = 0;
    s = round_trip(big);
    cr_assert_str_eq(s, big);
    free(s);
}

static char *decode(const int16_t *words, int n, attu_error *err) {
    char buf[64];
    for (int i = 0; i < n; i++) {
        buf[2 * i] = (char)((uint16_t)words[i] >> 8);
        buf[2 * i + 1] = (char)(words[i] & 0xff);
    }
    return pg_numeric_binary_to_text(buf, 2 * n, 3, 0, err);
}

Test(pg_numeric, decoding_truncates_to_dscale_and_rejects_garbage) {
    attu_error err = {0};
    /* digits past dscale are cut off, as numeric_recv does */
    char *s = decode((int16_t[]){1, -1, 0, 2, 1234}, 5, &err);
    cr_assert_str_eq(s, "0.12");
    free(s);
    /* weight beyond the digits: trailing zero groups are implied */
    s = decode((int16_t[]){1, 2, 0x4000, 0, 5}, 5, &err);
    cr_assert_str_eq(s, "-500000000");
    free(s);
    /* numeric_recv's errors, PostgreSQL's words: a bad field is 22P03, a
     * value that runs out 08P01, bytes left over name the parameter */
    const int16_t bad_sign[] = {1, 0, 0x1234, 0, 1};
    const int16_t bad_digit[] = {1, 0, 0, 0, 10000};
    const int16_t bad_scale[] = {0, 0, 0, -1};
    const int16_t short_len[] = {2, 0, 0, 0, 1};
    const int16_t long_len[] = {1, 0, 0, 0, 1, 7};
    const int16_t *cases[] = { bad_sign, bad_digit, bad_scale, short_len, long_len };
    int lens[] = { 5, 5, 4, 5, 6 };
    const char *states[] = { "22P03", "22P03", "22P03", "08P01", "22P03" };
    const char *msgs[] = { "invalid sign in external \"numeric\" value", "invalid digit in external \"numeric\" value",
                           "invalid scale in external \"numeric\" value", "insufficient data left in message",
                           "incorrect binary data format in bind parameter 3" };
    for (int i = 0; i < 5; i++) {
        attu_error e = {0};
        cr_assert_null(decode(cases[i], lens[i], &e), "case %d decoded", i);
        cr_assert_str_eq(e.sqlstate, states[i], "case %d", i);
        cr_assert_str_eq(e.message, msgs[i], "case %d", i);
    }
    attu_error e = {0};
    cr_assert_null(pg_numeric_binary_to_text("\0\0\0", 3, 1, 0, &e));
    cr_assert_str_eq(e.sqlstate, "08P01");
    /* an array's element names its place instead */
    attu_error e2 = {0};
    cr_assert_null(pg_numeric_binary_to_text("\0\0\0\0\0\0\0\0\0", 9, 1, 2, &e2));
    cr_assert_str_eq(e2.message, "improper binary format in array element 2");
}
