/* Unit tests for engine/similar.c's match extents (attu_regex_find): the
 * capturing groups of an ARE mapped back from the translated expression's
 * groups, searches from a position, the flags, and the patterns whose
 * extents it marks as not computed under ARE's rules. */
#include <criterion/criterion.h>
#include <string.h>

#include "engine/similar.h"

/* Prepares pat under the flags letters fl with extents; asserts success. */
static void prep(attu_similar *s, const char *pat, const char *fl) {
    attu_error err;
    attu_error_clear(&err);
    int mode;
    bool g;
    cr_assert_eq(attu_regex_parse_flags(fl, strlen(fl), &mode, &g, &err), 0, "flags %s: %s", fl, err.message);
    cr_assert_eq(attu_regex_prepare_opts(s, pat, strlen(pat), mode | ATTU_RE_SUBMATCH, &err), 0, "%s: %s", pat,
                 err.message);
}

/* Prepares pat under the mode bits opts; asserts it is refused with state. */
static void prep_refused(attu_similar *s, const char *pat, int opts, const char *state) {
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_regex_prepare_opts(s, pat, strlen(pat), opts, &err), -1, "%s: accepted", pat);
    cr_assert_str_eq(err.sqlstate, state, "%s: %s", pat, err.message);
}

/* The text of span k of the last match of s in str (or "<none>"). */
static const char *span_text(const attu_similar *s, const char *str, int k, char *buf) {
    if (s->span[k].so < 0) return "<none>";
    size_t n = (size_t)(s->span[k].eo - s->span[k].so);
    memcpy(buf, str + s->span[k].so, n);
    buf[n] = '\0';
    return buf;
}

Test(similar_groups, groups_map_past_the_translations_own) {
    /* '.', a class and a multi-byte character each become a group of the
     * translated expression; the pattern's groups still number 1, 2 */
    attu_similar s;
    memset(&s, 0, sizeof s);
    prep(&s, "[0-9]é(.)x(?:y)(z+)", "");
    cr_assert_eq(s.nsub, 2);
    const char *str = "--1éQxyzz--";
    char buf[64];
    cr_assert(attu_regex_find(&s, str, strlen(str), 0));
    cr_assert_str_eq(span_text(&s, str, 0, buf), "1éQxyzz");
    cr_assert_str_eq(span_text(&s, str, 1, buf), "Q");
    cr_assert_str_eq(span_text(&s, str, 2, buf), "zz");
    attu_similar_free(&s);
}

Test(similar_groups, group_left_out_is_none) {
    attu_similar s;
    memset(&s, 0, sizeof s);
    prep(&s, "foo(bar)?", "");
    const char *str = "xfoo";
    char buf[16];
    cr_assert(attu_regex_find(&s, str, strlen(str), 0));
    cr_assert_eq(s.span[0].so, 1);
    cr_assert_str_eq(span_text(&s, str, 1, buf), "<none>");
    attu_similar_free(&s);
}

Test(similar_groups, search_from_keeps_caret_at_the_start) {
    attu_similar s;
    memset(&s, 0, sizeof s);
    prep(&s, "^a", "");
    const char *str = "aaa";
    cr_assert(attu_regex_find(&s, str, 3, 0));
    cr_assert_not(attu_regex_find(&s, str, 3, 1));
    /* newline-sensitive: ^ after a newline */
    prep(&s, "^b", "n");
    const char *nl = "a\nb";
    cr_assert(attu_regex_find(&s, nl, 3, 1));
    cr_assert_eq(s.span[0].so, 2);
    attu_similar_free(&s);
}

Test(similar_groups, flags) {
    attu_similar s;
    memset(&s, 0, sizeof s);
    prep(&s, "a.b", "p");            /* . does not match a newline */
    cr_assert_not(attu_regex_find(&s, "a\nb", 3, 0));
    prep(&s, "a.b", "s");
    cr_assert(attu_regex_find(&s, "a\nb", 3, 0));
    prep(&s, "[^x]", "i");           /* neither x nor X */
    cr_assert_not(attu_regex_find(&s, "X", 1, 0));
    prep(&s, "a b # comment\n c", "x");
    cr_assert(attu_regex_find(&s, "abc", 3, 0));
    prep(&s, "a.c", "q");            /* literal */
    cr_assert_not(attu_regex_find(&s, "abc", 3, 0));
    cr_assert(attu_regex_find(&s, "a.c", 3, 0));
    attu_similar_free(&s);
}

Test(similar_groups, bad_flags_and_options) {
    attu_error err;
    int mode;
    bool g;
    attu_error_clear(&err);
    cr_assert_eq(attu_regex_parse_flags("gz", 2, &mode, &g, &err), -1);
    cr_assert_str_eq(err.sqlstate, "22023");
    cr_assert_str_eq(err.message, "invalid regular expression option: \"z\"");
    attu_error_clear(&err);
    cr_assert_eq(attu_regex_parse_flags("ig", 2, &mode, &g, &err), 0);
    cr_assert(g);
    cr_assert(mode & ATTU_RE_ICASE);
    attu_similar s;
    memset(&s, 0, sizeof s);
    prep_refused(&s, "a", ATTU_RE_QUOTE | ATTU_RE_NLSTOP, "2201B");
    prep_refused(&s, "a", ATTU_RE_BASIC, "0A000");
    attu_similar_free(&s);
}

Test(similar_groups, extents_marked_where_engines_may_differ) {
    attu_similar s;
    memset(&s, 0, sizeof s);
    prep(&s, "(a+|b)(c|bcd)(d*)", "");    /* alternatives that are not literals */
    cr_assert(s.cap_rep[0] && s.cap_rep[1] && s.cap_rep[2]);
    prep(&s, "(x)(cat|dog)(s)", "");      /* literals: reliable */
    cr_assert(!s.cap_rep[0] && !s.cap_rep[1] && !s.cap_rep[2]);
    prep(&s, "(x)(a|b+)(y)", "");         /* only what follows the alternatives */
    cr_assert(!s.cap_rep[0] && s.cap_rep[1] && s.cap_rep[2]);
    prep(&s, "([ab])+((c|d)+e)+", "");    /* one atom repeated: reliable */
    cr_assert(!s.cap_rep[0] && s.cap_rep[1] && s.cap_rep[2]);
    prep(&s, "a+?", "");
    cr_assert(s.nongreedy);
    attu_similar_free(&s);
}

Test(similar_groups, unsupported_escapes_stay_0A000) {
    attu_similar s;
    memset(&s, 0, sizeof s);
    prep_refused(&s, "(a)\\1", ATTU_RE_SUBMATCH, "0A000");
    prep_refused(&s, "a(?=b)", ATTU_RE_SUBMATCH, "0A000");
    /* an anchor in a quantified group: glibc gets some of those wrong */
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_regex_prepare(&s, "(?:x|^a)+b", 10, false, &err), -1);
    cr_assert_str_eq(err.sqlstate, "0A000");
    attu_similar_free(&s);
}

Test(similar_groups, non_greedy_takes_the_shortest_match) {
    attu_similar s;
    memset(&s, 0, sizeof s);
    prep(&s, "<.*?>", "");
    cr_assert(s.shortest && s.nongreedy);
    cr_assert(s.cap_rep == NULL || s.nsub == 0);
    const char *str = "x<a><bb>";
    cr_assert(attu_regex_find(&s, str, strlen(str), 0));
    cr_assert_eq(s.span[0].so, 1);
    cr_assert_eq(s.span[0].eo, 4);
    /* a greedy first quantifier makes the pattern greedy (longest) */
    prep(&s, "b*a+?a*", "");
    cr_assert_not(s.shortest);
    cr_assert(attu_regex_find(&s, "aaab", 4, 0));
    cr_assert_eq(s.span[0].eo, 3);
    /* its groups' extents are not reported */
    prep(&s, "(a+?)b", "");
    cr_assert(s.cap_rep[0]);
    attu_similar_free(&s);
}

Test(similar_groups, literal_alternatives_longest_first) {
    /* glibc takes the first alternative that leads to the match, ARE the
     * longest: the translation orders literal alternatives longest first */
    attu_similar s;
    memset(&s, 0, sizeof s);
    prep(&s, "(a|ab)(c|bcd)(d*)", "");
    cr_assert(!s.cap_rep[0] && !s.cap_rep[1] && !s.cap_rep[2]);
    const char *str = "abcd";
    char buf[16];
    cr_assert(attu_regex_find(&s, str, 4, 0));
    cr_assert_str_eq(span_text(&s, str, 1, buf), "ab");
    cr_assert_str_eq(span_text(&s, str, 2, buf), "c");
    cr_assert_str_eq(span_text(&s, str, 3, buf), "d");
    prep(&s, "(é|éé|)x", "");
    cr_assert(attu_regex_find(&s, "ééx", strlen("ééx"), 0));
    cr_assert_str_eq(span_text(&s, "ééx", 1, buf), "éé");
    attu_similar_free(&s);
}

Test(similar_groups, fixed_width_alternatives_widest_first) {
    /* classes, . and multi-byte characters count one character each */
    attu_similar s;
    memset(&s, 0, sizeof s);
    prep(&s, "([ab]|..|é[^x]é)(x?)", "");
    cr_assert(!s.cap_rep[0] && !s.cap_rep[1]);
    char buf[16];
    cr_assert(attu_regex_find(&s, "abx", 3, 0));
    cr_assert_str_eq(span_text(&s, "abx", 1, buf), "ab");
    const char *u = "éQéx";
    cr_assert(attu_regex_find(&s, u, strlen(u), 0));
    cr_assert_str_eq(span_text(&s, u, 1, buf), "éQé");
    cr_assert_str_eq(span_text(&s, u, 2, buf), "x");
    attu_similar_free(&s);
}

Test(similar_groups, quantified_groups_after_variable_parts) {
    /* ARE matches a run without captures as long as it can as a whole;
     * glibc the first quantifier as long as it can */
    attu_similar s;
    memset(&s, 0, sizeof s);
    prep(&s, "a*(?:ab)*(.*)", "");     /* the run before (.*) */
    cr_assert(s.cap_rep[0]);
    prep(&s, "(a*(ab)*)(.*)", "");     /* inside a capturing group */
    cr_assert(s.cap_rep[0] && s.cap_rep[1] && s.cap_rep[2]);
    prep(&s, "a*(ab)*(.*)", "");       /* a capture at the top splits the run */
    cr_assert(!s.cap_rep[0] && !s.cap_rep[1]);
    prep(&s, "(\\d+)(\\.\\d+)?", "");
    cr_assert(!s.cap_rep[0] && !s.cap_rep[1]);
    prep(&s, "(x*)a*(?:ab)*(.*)", "");  /* a group closed before stays */
    cr_assert(!s.cap_rep[0] && s.cap_rep[1]);
    attu_similar_free(&s);
}
