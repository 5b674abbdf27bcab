/*
 * test_jsonpath.c - engine/jsonpath.h: the canonical text of jsonpath
 * input (jsonpath_out's parentheses, quoting, numbers, folded unary
 * minus), its syntax errors with PostgreSQL's SQLSTATE, message and
 * DETAIL (the token named as PostgreSQL 15.18's scanner names it), and a
 * few evaluations through attu_jsonpath_run (modes, silent, keyvalue's
 * ids). Every expected text was printed by PostgreSQL 15.18.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "engine/jsonpath.h"

Test(jsonpath, canonical_text) {
    static const char *const cases[][2] = {
        { "$.a[*] ? (@ > 1)", "$.\"a\"[*]?(@ > 1)" },
        { "strict $.a.b[1 to last, 2].**{2 to last}.c", "strict $.\"a\".\"b\"[1 to last,2].**{2 to last}.\"c\"" },
        { "$.\"a b\".x ? (@.c like_regex \"^a.*b$\" flag \"i\" && !exists(@.d) || @ starts with \"x\" && (@ == 1) is unknown)",
          "$.\"a b\".\"x\"?(@.\"c\" like_regex \"^a.*b$\" flag \"i\" && !(exists (@.\"d\")) || @ starts with \"x\" && (@ == 1) is unknown)" },
        { "-$.a + 1 * 2 / 3 % 4 - +$.b", "((-$.\"a\" + ((1 * 2) / 3) % 4) - +$.\"b\")" },
        { "$.a.type().size().double().ceiling().floor().abs().keyvalue().datetime(\"HH24\")",
          "$.\"a\".type().size().double().ceiling().floor().abs().keyvalue().datetime(\"HH24\")" },
        { "1.5e3", "1500" }, { "0.0", "0.0" }, { "1e-2", "0.01" }, { "5.", "5" }, { ".5", "0.5" },
        { "\"\\u00e9\\t\\\"\\\\\\/\\b\\f\\r\\x41\\u{1F600}\"", "\"\xc3\xa9\\t\\\"\\\\/\\b\\f\\rA\xf0\x9f\x98\x80\"" },
        { "$var.a", "$\"var\".\"a\"" }, { "$\"x y\"", "$\"x y\"" }, { "$1", "$\"1\"" },
        { "(1+2)*3", "((1 + 2) * 3)" }, { "1+(2*3)", "(1 + 2 * 3)" }, { "-(1+2)", "(-(1 + 2))" },
        { "- -1", "1" }, { "-\"a\"", "(-\"a\")" }, { "+1", "1" }, { "-$", "(-$)" }, { "- - $", "(-(-$))" }, { "1 - -1", "(1 - -1)" },
        { "1 == 1", "(1 == 1)" }, { "!($ > 1)", "!($ > 1)" }, { "$ ? (@ <> 1)", "$?(@ != 1)" },
        { "(1 + 2).x", "(1 + 2).\"x\"" }, { "(1.5).type()", "(1.5).type()" }, { "1.5.type()", "(1.5).type()" },
        { "(\"a\").x", "\"a\".\"x\"" }, { "($ > 1).x", "($ > 1).\"x\"" }, { "1 + (2 * 3).a", "(1 + 2 * 3.\"a\")" },
        { "$ ? (@ + 1 like_regex \"x\")", "$?((@ + 1) like_regex \"x\")" },
        { "$ ? (@ like_regex \"x\" flag \"qmxsi\")", "$?(@ like_regex \"x\" flag \"ismxq\")" },
        { "LAX $", "$" }, { "STRICT $.A.TYPE()", "strict $.\"A\".type()" }, { "$.size", "$.\"size\"" },
        { "$.**", "$.**" }, { "$.**{1}", "$.**{1}" }, { "$.**{last}", "$.**{last}" }, { "$.**{2 to 1}", "$.**{2 to 1}" },
        { "$.a\\q", "$.\"aq\"" }, { "/* c */ $ . a  [ * ] ", "$.\"a\"[*]" }, { "$.a[-1]", "$.\"a\"[-1]" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *out;
        size_t n;
        attu_error err = { 0 };
        cr_assert_eq(attu_jsonpath_canonical(cases[i][0], strlen(cases[i][0]), &out, &n, &err), 0, "%s: %s", cases[i][0],
                     err.message);
        cr_expect_str_eq(out, cases[i][1], "%s", cases[i][0]);
        cr_expect_eq(strlen(out), n);
        free(out);
    }
}

Test(jsonpath, syntax_errors) {
    static const struct { const char *in, *state, *msg, *detail; } cases[] = {
        { "$.a b", "42601", "syntax error at end of jsonpath input", NULL },
        { "", "22P02", "invalid input syntax for type jsonpath: \"\"", NULL },
        { " ", "22P02", "invalid input syntax for type jsonpath: \" \"", NULL },
        { "$.a \"x\"", "42601", "syntax error at or near \"\"\" of jsonpath input", NULL },
        { "$.a 1.5", "42601", "syntax error at or near \"1.5\" of jsonpath input", NULL },
        { "$.a ? (@ = 1)", "42601", "syntax error at or near \"=\" of jsonpath input", NULL },
        { "$[1,]", "42601", "syntax error at or near \"]\" of jsonpath input", NULL },
        { "$ ? (@ is  unknown)", "42601", "syntax error at or near \"  \" of jsonpath input", NULL },
        { "$.a $x)", "42601", "syntax error at or near \"$x\" of jsonpath input", NULL },
        { "$.a ===", "42601", "syntax error at or near \"=\" of jsonpath input", NULL },
        { "$.a.b()", "42601", "syntax error at or near \"(\" of jsonpath input", NULL },
        { "$.**{1.5}", "42601", "syntax error at or near \"1.5\" of jsonpath input", NULL },
        { "1a", "42601", "trailing junk after numeric literal at or near \"1a\" of jsonpath input", NULL },
        { "01.5", "42601", "trailing junk after numeric literal at or near \"01\" of jsonpath input", NULL },
        { "1.type()", "42601", "trailing junk after numeric literal at or near \"1.t\" of jsonpath input", NULL },
        { "1e+", "42601", "invalid numeric literal at or near \"1e+\" of jsonpath input", NULL },
        { "1ea", "42601", "syntax error at end of jsonpath input", NULL },
        { "1.2.3", "42601", "syntax error at or near \".3\" of jsonpath input", NULL },
        { "\"abc", "42601", "unexpected end of quoted string at end of jsonpath input", NULL },
        { "\"\\", "42601", "unexpected end after backslash at or near \"\\\" of jsonpath input", NULL },
        { "\"\\x4\"", "42601", "invalid hex character sequence at or near \"\\x4\" of jsonpath input", NULL },
        { "\"\\u00\"", "42601", "invalid unicode sequence at or near \"\\u00\" of jsonpath input", NULL },
        { "\"\\u{110000}\"", "42601", "invalid Unicode code point", NULL },
        { "\"\\u0000\"", "22P05", "unsupported Unicode escape sequence", "\\u0000 cannot be converted to text." },
        { "\"\\ud800\"", "22P02", "invalid input syntax for type jsonpath", "Unicode low surrogate must follow a high surrogate." },
        { "/* x", "42601", "unexpected end of comment at end of jsonpath input", NULL },
        { "$ ? (@ like_regex \"x\" flag \"a\")", "42601", "invalid input syntax for type jsonpath",
          "Unrecognized flag character \"a\" in LIKE_REGEX predicate." },
        { "$ ? (@ like_regex \"a\" flag \"x\")", "0A000", "XQuery \"x\" flag (expanded regular expressions) is not implemented", NULL },
        { "$ ? (@ like_regex \"(\")", "2201B", NULL, NULL },
        { "last", "42601", "LAST is allowed only in array subscripts", NULL },
        { "@ + 1", "42601", "@ is not allowed in root expressions", NULL },
        { "strict", "42601", "syntax error at end of jsonpath input", NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *out = NULL;
        size_t n;
        attu_error err = { 0 };
        cr_assert_neq(attu_jsonpath_canonical(cases[i].in, strlen(cases[i].in), &out, &n, &err), 0, "%s", cases[i].in);
        cr_expect_str_eq(err.sqlstate, cases[i].state, "%s", cases[i].in);
        if (cases[i].msg) cr_expect_str_eq(err.message, cases[i].msg, "%s", cases[i].in);
        if (cases[i].detail) cr_expect_str_eq(err.detail, cases[i].detail, "%s", cases[i].in);
    }
}

/* jsonb_path_query_array's text, or the error's message */
static void query(const char *target, const char *path, const char *vars, bool silent, const char *want) {
    char *cp;
    size_t cn;
    attu_error err = { 0 };
    cr_assert_eq(attu_jsonpath_canonical(path, strlen(path), &cp, &cn, &err), 0, "%s", path);
    jbuf out = { 0 };
    bool b, nul;
    int rc = attu_jsonpath_run(JPF_QUERY_ARRAY, target, strlen(target), cp, cn, vars, vars ? strlen(vars) : 0, silent, &out, &b,
                               &nul, &err);
    if (rc) cr_expect_str_eq(err.message, want, "%s %s", target, path);
    else cr_expect_str_eq(out.p ? out.p : "", want, "%s %s", target, path);
    free(out.p);
    free(cp);
}

Test(jsonpath, evaluation) {
    query("{\"a\": [1, 2, 3]}", "$.a[*] ? (@ > 1)", "{}", false, "[2, 3]");
    query("{\"a\": 1}", "strict $.b", "{}", false, "JSON object does not contain key \"b\"");
    query("{\"a\": 1}", "strict $.b", "{}", true, "[]");
    query("{\"a\": 1}", "lax $.b", "{}", false, "[]");
    query("[1, [2, 3]]", "$[*] ? (@ > 1)", "{}", false, "[2, 3]");   /* the filter unwraps [2, 3] */
    query("[{\"a\": 1}, [{\"a\": 2}]]", "$.a", "{}", false, "[1]");
    query("1", "$x", "{}", false, "could not find jsonpath variable \"x\"");
    query("1", "$x", NULL, false, "[null]");
    query("1", "$x + $", "{\"x\": 2.5}", false, "[3.5]");
    query("[1, \"a\"]", "$[*] + 1", "{}", false, "left operand of jsonpath operator + is not a single numeric value");
    query("1", "$ / 0", "{}", false, "division by zero");
    query("{\"x\": {\"a\": 1, \"b\": [1, 2]}, \"y\": {\"z\": true}}", "$.*.keyvalue().id", "{}", false, "[24, 24, 84]");
    query("{\"a\": [1.5, 12345.6789, 0.001, 0, -7, {\"q\": 1}]}", "$.a[5].keyvalue().id", "{}", false, "[92]");
    query("{\"a\": {\"b\": 1}, \"c\": {\"d\": 2}}", "$.keyvalue().value.keyvalue().id", "{}", false, "[20000000048, 40000000048]");
    query("{}", "$x.keyvalue().id", "{\"x\": {\"a\": 1}, \"y\": 1}", false, "[10000000024]");
    query("[1, 2, 3]", "$[last - 1 to last]", "{}", false, "[2, 3]");
    query("{\"a\":{\"b\":1},\"c\":[{\"d\":2}]}", "$.**{last}", "{}", false, "[1, 2]");
}

/* attu's nesting limits: 54001, not a stack overflow; long chains and
 * nesting within the limits print as PostgreSQL prints them */
static void deep(const char *prefix, const char *unit, const char *suffix_unit, int n, const char *state) {
    size_t cap = strlen(prefix) + (size_t)n * (strlen(unit) + strlen(suffix_unit)) + 1;
    char *s = malloc(cap);
    cr_assert_not_null(s);
    char *w = s;
    for (int i = 0; i < n; i++) w = stpcpy(w, unit);
    w = stpcpy(w, prefix);
    for (int i = 0; i < n; i++) w = stpcpy(w, suffix_unit);
    char *out = NULL;
    size_t len;
    attu_error err = { 0 };
    int rc = attu_jsonpath_canonical(s, strlen(s), &out, &len, &err);
    if (state) {
        cr_expect_neq(rc, 0, "%d x %s", n, unit);
        cr_expect_str_eq(err.sqlstate, state, "%d x %s", n, unit);
    } else cr_expect_eq(rc, 0, "%d x %s: %s", n, unit, err.message);
    free(out);
    free(s);
}

Test(jsonpath, nesting_limits) {
    deep("$", "(", ")", 2900, NULL);
    deep("$", "(", ")", 100000, "54001");
    deep("$", "- ", "", 2900, NULL);
    deep("$", "- ", "", 100000, "54001");
    deep("$", "", ".a", 5000, NULL);
    deep("$", "", " ? (@ == 1)", 100000, "54001");
    deep("1", "", " + 1", 100000, "54001");
    deep("$", "$[", "]", 100000, "54001");
}
