/*
 * test_range.c - engine/range.h: range_in and range_out (canonical forms
 * of the discrete types, infinite and empty ranges, quoting), the
 * malformed-literal errors with PostgreSQL's DETAIL, 22000 for bounds out
 * of order, and the encoding whose byte order is PostgreSQL's range
 * order: lists of values in the order PostgreSQL 15's ORDER BY gives
 * them, numranges equal in value with equal keys, no byte 0.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "engine/range.h"

static attu_abuf enc(attu_range_kind k, const char *s) {
    attu_abuf b = { 0 };
    attu_error err = { 0 };
    cr_assert_eq(attu_range_parse(k, s, strlen(s), &b, &err), 0, "%s: %s", s, err.message);
    return b;
}

static void expect_text(attu_range_kind k, const char *in, const char *out) {
    attu_abuf b = enc(k, in), t = { 0 };
    cr_assert_eq(attu_range_to_text(k, b.p, b.len, &t), 0, "%s", in);
    cr_expect_str_eq(t.p ? t.p : "", out, "%s", in);
    for (size_t i = 0; i < b.len; i++) cr_expect_neq(b.p[i], 0, "%s: a NUL byte", in);
    attu_abuf_free(&b);
    attu_abuf_free(&t);
}

Test(range, text_in_and_out) {
    expect_text(ATTU_RANGE_INT4, "[1,10)", "[1,10)");
    expect_text(ATTU_RANGE_INT4, "(1,10]", "[2,11)");
    expect_text(ATTU_RANGE_INT4, "(1,2)", "empty");
    expect_text(ATTU_RANGE_INT4, "[,5]", "(,6)");
    expect_text(ATTU_RANGE_INT4, " EMPTY ", "empty");
    expect_text(ATTU_RANGE_INT4, "[ \"1\" , 5 ]", "[1,6)");
    expect_text(ATTU_RANGE_INT8, "(,)", "(,)");
    expect_text(ATTU_RANGE_NUM, "[1.0,2.00)", "[1.0,2.00)");
    expect_text(ATTU_RANGE_NUM, "(1.5,1.5]", "empty");
    expect_text(ATTU_RANGE_NUM, "[-3.25,Infinity)", "[-3.25,Infinity)");
    expect_text(ATTU_RANGE_DATE, "(2024-01-01,2024-02-01]", "[2024-01-02,2024-02-02)");
    expect_text(ATTU_RANGE_DATE, "(-infinity,2024-01-01]", "(-infinity,2024-01-02)");
    expect_text(ATTU_RANGE_TS, "[2024-01-01,2024-02-01 12:30)", "[\"2024-01-01 00:00:00\",\"2024-02-01 12:30:00\")");
}

static void expect_error(attu_range_kind k, const char *in, const char *state, const char *detail) {
    attu_abuf b = { 0 };
    attu_error err = { 0 };
    cr_expect_neq(attu_range_parse(k, in, strlen(in), &b, &err), 0, "%s", in);
    cr_expect_str_eq(err.sqlstate, state, "%s: %s", in, err.message);
    if (detail) cr_expect_str_eq(err.detail, detail, "%s", in);
    attu_abuf_free(&b);
}

Test(range, errors) {
    expect_error(ATTU_RANGE_INT4, "[1,5", "22P02", "Unexpected end of input.");
    expect_error(ATTU_RANGE_INT4, "1,5]", "22P02", "Missing left parenthesis or bracket.");
    expect_error(ATTU_RANGE_INT4, "[1 5]", "22P02", "Missing comma after lower bound.");
    expect_error(ATTU_RANGE_INT4, "[1,5,6]", "22P02", "Too many commas.");
    expect_error(ATTU_RANGE_INT4, "[1,5] x", "22P02", "Junk after right parenthesis or bracket.");
    expect_error(ATTU_RANGE_INT4, "empty x", "22P02", "Junk after \"empty\" key word.");
    expect_error(ATTU_RANGE_INT4, "[a,5]", "22P02", NULL);
    expect_error(ATTU_RANGE_INT4, "[5,1]", "22000", NULL);
    expect_error(ATTU_RANGE_INT4, "[1,2147483647]", "22003", NULL);
}

/* Each list is in PostgreSQL's ORDER BY order (range_cmp); the encodings
 * must sort the same way, bytewise. */
static void expect_order(attu_range_kind k, const char *const *vals, size_t n) {
    for (size_t i = 0; i + 1 < n; i++) {
        attu_abuf a = enc(k, vals[i]), b = enc(k, vals[i + 1]);
        size_t m = a.len < b.len ? a.len : b.len;
        int c = memcmp(a.p, b.p, m);
        if (!c) c = a.len < b.len ? -1 : a.len > b.len;
        cr_expect_lt(c, 0, "%s before %s", vals[i], vals[i + 1]);
        attu_range ra, rb;
        cr_assert_eq(attu_range_decode(k, a.p, a.len, &ra), 0);
        cr_assert_eq(attu_range_decode(k, b.p, b.len, &rb), 0);
        cr_expect_lt(attu_range_cmp(&ra, &rb), 0, "%s before %s (range_cmp)", vals[i], vals[i + 1]);
        attu_abuf_free(&a);
        attu_abuf_free(&b);
    }
}

Test(range, byte_order_is_range_order) {
    static const char *const ints[] = { "empty", "(,0)", "(,5)", "(,)", "[-10,-5)", "[-10,)", "[0,1)", "[0,3)", "[0,)", "[1,2)" };
    expect_order(ATTU_RANGE_INT4, ints, sizeof ints / sizeof *ints);
    static const char *const nums[] = { "empty", "(,1)", "(,1]", "(,)", "[-1.5,0)", "[1,2)", "[1,2]", "[1,)", "(1,2)",
                                        "(1,2]", "[1.25,2)", "[10,11)", "[NaN,NaN]" };
    expect_order(ATTU_RANGE_NUM, nums, sizeof nums / sizeof *nums);
    static const char *const dates[] = { "empty", "(-infinity,2024-01-01)", "[2023-12-31,2024-01-01)", "[2024-01-01,)" };
    expect_order(ATTU_RANGE_DATE, dates, sizeof dates / sizeof *dates);
}

Test(range, numranges_equal_in_value_share_a_key) {
    attu_abuf a = enc(ATTU_RANGE_NUM, "[1.0,2)"), b = enc(ATTU_RANGE_NUM, "[1.00,2.0)");
    size_t ka = attu_range_key_len(ATTU_RANGE_NUM, a.p, a.len), kb = attu_range_key_len(ATTU_RANGE_NUM, b.p, b.len);
    cr_expect_eq(ka, kb);
    cr_expect_eq(memcmp(a.p, b.p, ka), 0);
    cr_expect_neq(a.len == b.len && !memcmp(a.p, b.p, a.len), 1, "their scales still show");
    attu_abuf_free(&a);
    attu_abuf_free(&b);
}
