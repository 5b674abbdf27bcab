/*
 * test_json.c - engine/json.h: jsonb's canonical text (key order, the last
 * of duplicate keys, numbers as numeric prints them, escapes), json input
 * errors with PostgreSQL's DETAIL and CONTEXT line, and the key whose byte order is
 * PostgreSQL's jsonb order: a list of values in the order PostgreSQL 15's
 * ORDER BY gives them, values equal in value ('1' and '1.0', key order)
 * with equal keys, no key holding a NUL byte.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "engine/json.h"

static char *canon(const char *s) {
    char *out;
    size_t n;
    attu_error err = { 0 };
    cr_assert_eq(attu_jsonb_canonical(s, strlen(s), &out, &n, &err), 0, "%s: %s", s, err.message);
    cr_assert_eq(strlen(out), n);
    return out;
}

Test(json, canonical_text) {
    static const char *const cases[][2] = {
        { "{\"b\":1,  \"a\": [1, 2.50, 1e2], \"a\": null}", "{\"a\": null, \"b\": 1}" },
        { "{\"aa\":1,\"b\":2,\"a\":3}", "{\"a\": 3, \"b\": 2, \"aa\": 1}" },
        { " [1,2 , \"x\"] ", "[1, 2, \"x\"]" },
        { "-0", "0" }, { "0.00", "0.00" }, { "1.5e-3", "0.0015" }, { "1E+2", "100" }, { "-12.340", "-12.340" },
        { "\"a\\u00e9\\n\\\"b\\/\"", "\"a\xc3\xa9\\n\\\"b/\"" },
        { "\"\\ud83d\\ude00\"", "\"\xf0\x9f\x98\x80\"" },
        { "{}", "{}" }, { "[]", "[]" }, { "true", "true" }, { "null", "null" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *c = canon(cases[i][0]);
        cr_expect_str_eq(c, cases[i][1], "%s", cases[i][0]);
        free(c);
    }
}

Test(json, input_errors) {
    static const char *const cases[][3] = {
        { "{\"a\":}", "22P02", "Expected JSON value, but found \"}\"." },
        { "{\"a\" 1}", "22P02", "Expected \":\", but found \"1\"." },
        { "[1 2]", "22P02", "Expected \",\" or \"]\", but found \"2\"." },
        { "{1:2}", "22P02", "Expected string or \"}\", but found \"1\"." },
        { "", "22P02", "The input string ended unexpectedly." },
        { "01", "22P02", "Token \"01\" is invalid." },
        { "\"\\x\"", "22P02", "Escape sequence \"\\x\" is invalid." },
        { "\"a\nb\"", "22P02", "Character with value 0x0a must be escaped." },
        { "[1]x", "22P02", "Token \"x\" is invalid." },
        { "[1] 2", "22P02", "Expected end of input, but found \"2\"." },
        { "\"\\u00zz\"", "22P02", "\"\\u\" must be followed by four hexadecimal digits." },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        attu_error err = { 0 };
        cr_assert_eq(attu_json_validate(cases[i][0], strlen(cases[i][0]), &err), -1, "%s", cases[i][0]);
        cr_expect_str_eq(err.sqlstate, cases[i][1]);
        cr_expect_str_eq(err.message, "invalid input syntax for type json");
        cr_expect_str_eq(err.detail, cases[i][2], "%s", cases[i][0]);
    }
    /* json keeps a \u0000 escape; jsonb cannot hold it (22P05) */
    attu_error err = { 0 };
    cr_expect_eq(attu_json_validate("\"\\u0000\"", 8, &err), 0);
    char *out;
    size_t n;
    cr_expect_eq(attu_jsonb_canonical("\"\\u0000\"", 8, &out, &n, &err), -1);
    cr_expect_str_eq(err.sqlstate, "22P05");
}

/* The CONTEXT PostgreSQL 15.18 adds to a json input error: the error's
 * line up to the bad token, its last 50 bytes at most, "..." where cut or
 * where the line goes on. */
Test(json, input_error_context) {
    static const char *const cases[][2] = {
        { "{\"a\":", "JSON data, line 1: {\"a\":" },
        { "{\"a\": x}", "JSON data, line 1: {\"a\": x..." },
        { "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, bad, 23]",
          "JSON data, line 1: ..., 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, bad..." },
        { "{\n \"a\": 1,\n \"b\": [1,\n 2,, 3]}", "JSON data, line 4:  2,,..." },
        { "\"abc\\q\"", "JSON data, line 1: \"abc\\q..." },
        { "\"ab\tc\"", "JSON data, line 1: \"ab..." },
        { "\"\\u00zz\"", "JSON data, line 1: \"\\u00z..." },
        { "[1,2", "JSON data, line 1: [1,2" },
        { "{\"\u03b1\u03b2\u03b3\u03b4\u03b5\u03b6\u03b7\u03b8\u03b9\u03ba\u03bb\u03bc\u03bd\u03be\u03bf\u03c0\u03c1\u03c3\u03c4\u03c5\u03c6\u03c7\u03c8\u03c9\u03b1\u03b2\u03b3\u03b4\u03b5\u03b6\u03b7\u03b8\u03b9\u03ba\u03bb\u03bc\u03bd\u03be\u03bf\u03c0\u03c1\u03c3\u03c4\u03c5\u03c6\u03c7\u03c8\u03c9\": tru}",
          "JSON data, line 1: ...\u03b4\u03b5\u03b6\u03b7\u03b8\u03b9\u03ba\u03bb\u03bc\u03bd\u03be\u03bf\u03c0\u03c1\u03c3\u03c4\u03c5\u03c6\u03c7\u03c8\u03c9\": tru..." },
        { "  x", "JSON data, line 1:   x" },
        { "1 2", "JSON data, line 1: 1 2" },
        { "\"\\ud800\"", "JSON data, line 1: \"\\ud800\"" },
        { "{\"a\":1}}", "JSON data, line 1: {\"a\":1}}" },
        { "", "JSON data, line 1: " },
        { "\"abc", "JSON data, line 1: \"abc" },
        { "\"\\u0000\"", "JSON data, line 1: \"\\u0000..." },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        attu_error err = { 0 };
        char *out = NULL;
        size_t n;
        cr_assert_eq(attu_jsonb_canonical(cases[i][0], strlen(cases[i][0]), &out, &n, &err), -1, "%s", cases[i][0]);
        cr_expect_str_eq(err.context, cases[i][1], "%s", cases[i][0]);
    }
}

static void key(const char *s, char **k, size_t *n) {
    attu_error err = { 0 };
    cr_assert_eq(attu_jsonb_key(s, strlen(s), k, n, &err), 0, "%s: %s", s, err.message);
    cr_assert_null(memchr(*k, 0, *n), "%s: a NUL byte in its key", s);
}

static int cmp_keys(const char *a, size_t an, const char *b, size_t bn) {
    int c = memcmp(a, b, an < bn ? an : bn);
    return c ? c : (an > bn) - (an < bn);
}

/* PostgreSQL 15's ORDER BY of these values (each greater than the one before) */
static const char *const pg_order[] = {
    "[]", "null", "\"\"", "\"a\"", "\"ab\"", "\"b\"", "-1000", "-2.5", "-1", "0", "0.5", "1", "1.5", "10",
    "100000000000000000000", "false", "true", "[null]", "[\"a\"]", "[1]", "[[]]", "[{}]", "[1, 2]", "[1, 3]",
    "[2, 1]", "{}", "{\"a\": null}", "{\"a\": 1}", "{\"a\": [1]}", "{\"aa\": 1}", "{\"b\": 1}",
    "{\"a\": 1, \"b\": 2}", "{\"b\": 1, \"aa\": 2}",
};

Test(json, key_order_is_postgresqls) {
    size_t n = sizeof pg_order / sizeof *pg_order;
    for (size_t i = 0; i + 1 < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            char *a, *b;
            size_t an, bn;
            key(pg_order[i], &a, &an);
            key(pg_order[j], &b, &bn);
            cr_expect_lt(cmp_keys(a, an, b, bn), 0, "%s < %s", pg_order[i], pg_order[j]);
            free(a);
            free(b);
        }
}

Test(json, equal_values_have_equal_keys) {
    static const char *const pairs[][2] = {
        { "1", "1.0" }, { "1.00", "1e0" }, { "0", "-0.0" }, { "{\"a\":1,\"b\":2}", "{\"b\":2.0,\"a\":1}" },
        { "[1, {\"x\": 10}]", "[1.0, {\"x\": 1e1}]" }, { "\"\\u00e9\"", "\"\xc3\xa9\"" },
    };
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        char *a, *b;
        size_t an, bn;
        key(pairs[i][0], &a, &an);
        key(pairs[i][1], &b, &bn);
        cr_expect_eq(cmp_keys(a, an, b, bn), 0, "%s = %s", pairs[i][0], pairs[i][1]);
        free(a);
        free(b);
    }
}
