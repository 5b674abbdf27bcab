/* Unit tests for engine/format_function.c (format()) and the array-giving
 * regular-expression opcodes of engine/regexp_functions.c
 * (ATTU_OP_REGEXP_MATCH, ATTU_OP_REGEXP_SPLIT): results and errors on
 * their run functions directly, with the arguments as the planner passes
 * them (format's as a text[] of output texts, a pattern behind its
 * flags). tests/sql/regexp_setof_format_pg.test checks them against
 * PostgreSQL through SQL. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/array.h"
#include "engine/format_function.h"
#include "engine/regexp_functions.h"

/* Results are malloc'd and kept to the end of the process (a test's few). */
static char *test_alloc(void *ctx, size_t n) {
    (void)ctx;
    return malloc(n ? n : 1);
}

static attu_slot text_slot(const char *s) {
    attu_slot v = { .v.s = s, .len = s ? (uint32_t)strlen(s) : 0, .null = s == NULL };
    return v;
}

/* The text[] of n strings (NULL pointers NULL elements), malloc'd. */
static attu_slot text_array(const char *const *items, int n) {
    attu_abuf b = { NULL, 0, 0 };
    for (int i = 0; i < n; i++) {
        attu_slot v = text_slot(items[i]);
        cr_assert_eq(attu_array_put(&b, attu_type_make(ATTU_TYPE_TEXT), &v), 0);
    }
    attu_slot a = { .v.s = b.p ? b.p : "", .len = (uint32_t)b.len };
    return a;
}

/* format(f, args...) into out (or the SQLSTATE of its error); 0 or -1. */
static int fmt(const char *f, const char *const *args, int n, char *out, size_t cap) {
    attu_slot A = text_slot(f), B = text_array(args, n), D;
    attu_error err;
    attu_error_clear(&err);
    int rc = attu_format_run(&A, &B, attu_type_array_of(attu_type_make(ATTU_TYPE_TEXT)), NULL, &D, 1, test_alloc, NULL, &err);
    if (rc) snprintf(out, cap, "%s", err.sqlstate);
    else if (D.null) snprintf(out, cap, "<null>");
    else snprintf(out, cap, "%.*s", (int)D.len, D.v.s);
    return rc;
}

static bool is_select(const char *w) { return !strcmp(w, "select"); }

Test(format_function, conversions_widths_and_positions) {
    char out[256];
    const char *a[] = { "Foo bar", NULL, "O'Re\\illy" };
    cr_assert_eq(fmt("%1$s|%1$I|%2$L|%3$L|%%", a, 3, out, sizeof out), 0);
    cr_assert_str_eq(out, "Foo bar|\"Foo bar\"|NULL|E'O''Re\\\\illy'|%");
    const char *w[] = { "-4", "é", "5" };
    cr_assert_eq(fmt("[%*s][%3$5s][%3$-*1$s]", w, 3, out, sizeof out), 0);
    cr_assert_str_eq(out, "[é   ][    5][5   ]");
    cr_assert_eq(fmt("[%s]", (const char *[]){ NULL }, 1, out, sizeof out), 0);
    cr_assert_str_eq(out, "[]");
}

Test(format_function, ident_keyword_test) {
    char out[64];
    const char *a[] = { "select" };
    attu_format_set_keyword_test(NULL);
    cr_assert_eq(fmt("%I", a, 1, out, sizeof out), 0);
    cr_assert_str_eq(out, "select");
    attu_format_set_keyword_test(is_select);
    cr_assert_eq(fmt("%I", a, 1, out, sizeof out), 0);
    cr_assert_str_eq(out, "\"select\"");
    attu_format_set_keyword_test(NULL);
}

Test(format_function, errors) {
    char out[64];
    const char *a[] = { "x", "abc", NULL };
    cr_assert_eq(fmt("%s %s", a, 0, out, sizeof out), -1); cr_assert_str_eq(out, "22023");   /* too few */
    cr_assert_eq(fmt("abc%", a, 1, out, sizeof out), -1); cr_assert_str_eq(out, "22023");    /* unterminated */
    cr_assert_eq(fmt("%d", a, 1, out, sizeof out), -1); cr_assert_str_eq(out, "22023");      /* unrecognized */
    cr_assert_eq(fmt("%0$s", a, 1, out, sizeof out), -1); cr_assert_str_eq(out, "22023");    /* argument 0 */
    cr_assert_eq(fmt("%*2$s", a, 2, out, sizeof out), -1); cr_assert_str_eq(out, "22P02");   /* width 'abc' */
    cr_assert_eq(fmt("%3$I", a, 3, out, sizeof out), -1); cr_assert_str_eq(out, "22004");    /* NULL identifier */
    cr_assert_eq(fmt("%99999999999s", a, 1, out, sizeof out), -1); cr_assert_str_eq(out, "22003");
}

Test(format_function, null_format_is_null) {
    attu_slot A = text_slot(NULL), B = text_array(NULL, 0), D;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_format_run(&A, &B, attu_type_array_of(attu_type_make(ATTU_TYPE_TEXT)), NULL, &D, 1, test_alloc, NULL, &err), 0);
    cr_assert(D.null);
}

/* op over one string, pattern and flags (c: regexp_matches's row); the
 * text[] result as array_out prints it, or the error's SQLSTATE. */
static int rx(int op, int aux, const char *s, const char *pat, const char *flags, int64_t c, char *out, size_t cap) {
    char pf[128];
    size_t fl = strlen(flags), pl = strlen(pat);
    memcpy(pf, flags, fl);
    pf[fl] = '\0';
    memcpy(pf + fl + 1, pat, pl);
    attu_slot A = text_slot(s), B = { .v.s = pf, .len = (uint32_t)(fl + 1 + pl) }, C = { .v.i = c }, D;
    attu_error err;
    attu_error_clear(&err);
    if (attu_regexp_run(op, aux, &A, &B, aux == 2 ? &C : NULL, NULL, NULL, &D, 1, test_alloc, NULL, &err)) {
        snprintf(out, cap, "%s", err.sqlstate);
        return -1;
    }
    if (D.null) { snprintf(out, cap, "<null>"); return 0; }
    if (aux == 1 || aux == 3) { snprintf(out, cap, "%lld", (long long)D.v.i); return 0; }
    if (op == ATTU_OP_REGEXP_SPLIT && aux == 2) { snprintf(out, cap, "%.*s", (int)D.len, D.v.s); return 0; }
    attu_abuf t = { NULL, 0, 0 };
    cr_assert_eq(attu_array_to_text(attu_type_make(ATTU_TYPE_TEXT), D.v.s, D.len, &t), 0);
    snprintf(out, cap, "%.*s", (int)t.len, t.p ? t.p : "");
    attu_abuf_free(&t);
    return 0;
}

Test(regexp_arrays, match_and_matches) {
    char out[128];
    cr_assert_eq(rx(ATTU_OP_REGEXP_MATCH, 0, "foobarbequebaz", "(bar)(x)?(beque)", "", 0, out, sizeof out), 0);
    cr_assert_str_eq(out, "{bar,NULL,beque}");
    cr_assert_eq(rx(ATTU_OP_REGEXP_MATCH, 0, "abc", "x", "", 0, out, sizeof out), 0);
    cr_assert_str_eq(out, "<null>");
    cr_assert_eq(rx(ATTU_OP_REGEXP_MATCH, 0, "abc", "b", "g", 0, out, sizeof out), -1);
    cr_assert_str_eq(out, "22023");
    cr_assert_eq(rx(ATTU_OP_REGEXP_MATCH, 1, "baaab", "a*", "g", 0, out, sizeof out), 0);
    cr_assert_str_eq(out, "4");   /* '' at 0, 'aaa', '' at 4, '' at 5 */
    cr_assert_eq(rx(ATTU_OP_REGEXP_MATCH, 1, "abab", "b", "", 0, out, sizeof out), 0);
    cr_assert_str_eq(out, "1");
    cr_assert_eq(rx(ATTU_OP_REGEXP_MATCH, 2, "a1b22", "[a-z](\\d+)", "g", 2, out, sizeof out), 0);
    cr_assert_str_eq(out, "{22}");
}

Test(regexp_arrays, split) {
    char out[128];
    cr_assert_eq(rx(ATTU_OP_REGEXP_SPLIT, 0, "a1b22c", "\\d*", "", 0, out, sizeof out), 0);
    cr_assert_str_eq(out, "{a,b,c}");
    cr_assert_eq(rx(ATTU_OP_REGEXP_SPLIT, 0, ",a,,", ",", "", 0, out, sizeof out), 0);
    cr_assert_str_eq(out, "{\"\",a,\"\",\"\"}");
    cr_assert_eq(rx(ATTU_OP_REGEXP_SPLIT, 0, "", "x", "", 0, out, sizeof out), 0);
    cr_assert_str_eq(out, "{\"\"}");
    cr_assert_eq(rx(ATTU_OP_REGEXP_SPLIT, 3, "abc", "b", "g", 0, out, sizeof out), -1);
    cr_assert_str_eq(out, "22023");
    cr_assert_eq(rx(ATTU_OP_REGEXP_SPLIT, 3, "a1b22c", "\\d*", "", 0, out, sizeof out), 0);
    cr_assert_str_eq(out, "3");
    cr_assert_eq(rx(ATTU_OP_REGEXP_SPLIT, 2, "a1b22c", "\\d*", "", 3, out, sizeof out), 0);
    cr_assert_str_eq(out, "c");
    cr_assert_eq(rx(ATTU_OP_REGEXP_SPLIT, 2, "a1b22c", "\\d*", "", 4, out, sizeof out), 0);
    cr_assert_str_eq(out, "<null>");
}

/* Rows k = 1, 2, ... of one string in one batch go on from the row before
 * (the walk); a repeated k, another string or a row past the last item
 * still gets its own answer. */
Test(regexp_arrays, walk_over_rows) {
    const char *strs[] = { "a1b22c333", "a1b22c333", "a1b22c333", "a1b22c333", "x9", "x9", "a1b22c333" };
    int64_t ks[] = { 1, 2, 3, 4, 1, 1, 2 };
    const char *want[] = { "{1}", "{22}", "{333}", "<null>", "{9}", "{9}", "{22}" };
    const char *wantp[] = { "a", "b", "c", "", "x", "x", "b" };
    char pf[] = "g\0\\d+", pp[] = "\0\\d+";
    attu_slot A[7], C[7], D[7], B[7], P[7];
    for (int i = 0; i < 7; i++) {
        A[i] = text_slot(strs[i]);
        C[i] = (attu_slot){ .v.i = ks[i] };
        B[i] = (attu_slot){ .v.s = pf, .len = sizeof pf - 1 };
        P[i] = (attu_slot){ .v.s = pp, .len = sizeof pp - 1 };
    }
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_regexp_run(ATTU_OP_REGEXP_MATCH, 2, A, B, C, NULL, NULL, D, 7, test_alloc, NULL, &err), 0);
    for (int i = 0; i < 7; i++) {
        char out[64];
        if (D[i].null) snprintf(out, sizeof out, "<null>");
        else {
            attu_abuf t = { NULL, 0, 0 };
            cr_assert_eq(attu_array_to_text(attu_type_make(ATTU_TYPE_TEXT), D[i].v.s, D[i].len, &t), 0);
            snprintf(out, sizeof out, "%.*s", (int)t.len, t.p);
            attu_abuf_free(&t);
        }
        cr_assert_str_eq(out, want[i], "row %d", i);
    }
    cr_assert_eq(attu_regexp_run(ATTU_OP_REGEXP_SPLIT, 2, A, P, C, NULL, NULL, D, 7, test_alloc, NULL, &err), 0);
    for (int i = 0; i < 7; i++) {
        char out[64];
        snprintf(out, sizeof out, "%.*s", (int)D[i].len, D[i].null ? "" : D[i].v.s);
        cr_assert_str_eq(out, wantp[i], "row %d", i);
        cr_assert(!D[i].null, "row %d", i);   /* row 3: the empty piece after 333 */
    }
}
