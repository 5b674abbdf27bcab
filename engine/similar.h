/*
 * similar.h - SQL's SIMILAR TO patterns and the regular expressions of the
 * ~ operators, matched as PostgreSQL 15 does. SIMILAR TO:
 * the pattern becomes a regular expression anchored at both ends (% is
 * .*, _ one character, an escaped character is itself, [...] classes and
 * | * + ? {m,n} ( ) keep their regex meaning, . ^ $ and backslash are
 * literal) and the whole string must match it. ~ (attu_regex_prepare):
 * PostgreSQL's advanced regular expressions (ARE), found anywhere in the
 * string; the same translation with . any character, ^ $ anchors and
 * (?:re) groups, (?#...) comments, the ***= and ***: directors,
 * embedded options at the start, the escapes by code and the constraint
 * escapes. Back references and lookaround are 0A000. The regexp_* functions
 * (attu_regex_prepare_opts): an ARE with the options of their flags
 * argument (attu_regex_parse_flags), matched from a given position with
 * the extents of the match and of its capturing groups
 * (attu_regex_find).
 */
#ifndef ATTU_ENGINE_SIMILAR_H
#define ATTU_ENGINE_SIMILAR_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine/error.h"

/* How a pattern is read and matched (attu_similar's mode): 0 is SIMILAR
 * TO; an ARE has ATTU_RE_ARE and any of the others. */
enum {
    ATTU_RE_ARE      = 1,
    ATTU_RE_ICASE    = 2,    /* i: ASCII letters match either case (C collation) */
    ATTU_RE_NLSTOP   = 4,    /* n, p: . and [^...] do not match a newline */
    ATTU_RE_NLANCH   = 8,    /* n, w: ^ and $ also match after / before a newline */
    ATTU_RE_EXPANDED = 16,   /* x: white space and # comments ignored */
    ATTU_RE_QUOTE    = 32,   /* q: the pattern is a literal string */
    ATTU_RE_SUBMATCH = 64,   /* extents wanted (attu_regex_find) */
    ATTU_RE_BASIC    = 128,  /* b: a POSIX basic RE (not supported, 0A000) */
    ATTU_RE_EXTENDED = 256,  /* e: a POSIX extended RE (not supported, 0A000) */
};

/* Where a match or one of its groups lies: bytes [so, eo) of the string;
 * -1 for a group that took no part in the match. */
typedef struct attu_regex_span { long so, eo; } attu_regex_span;

/* A compiled pattern; the last one is kept so that a column matched
 * against one constant pattern compiles it once. */
typedef struct attu_similar {
    bool    compiled;
    regex_t re;
    char   *pat;          /* the pattern and escape it was compiled from */
    size_t  plen;
    char   *esc;
    size_t  elen;
    bool    has_esc;
    int     mode;         /* 0 SIMILAR TO, else ATTU_RE_ bits */
    /* ATTU_RE_SUBMATCH: the capturing groups: nsub of them, cap[k] the
     * group of the translated expression that group k + 1 became, and
     * cap_rep[k] whether its extent may differ from ARE's (it lies under a
     * repeating quantifier in a group whose iterations could split a run
     * more than one way, in, around or after a group of alternatives that
     * do not each match a fixed number of characters or a quantified group
     * of several characters after another part of varying length, or in a
     * pattern with a non-greedy quantifier: 0A000 where wanted) */
    int              nsub;
    int             *cap;
    bool            *cap_rep;
    /* whether the pattern has a non-greedy quantifier; whether it is
     * non-greedy as a whole (its first quantified atom is), so that
     * attu_regex_find reports the shortest match at the leftmost start;
     * whether it has $ or a constraint escape, which that search would
     * misread (0A000 together) */
    bool             nongreedy, shortest, has_dollar;
    /* regexec's buffer, and the last match found: nsub + 1 spans, the
     * whole match first */
    regmatch_t      *pm;
    attu_regex_span *span;
    /* false: attu_regex_find reports the whole match only (span[0]; the
     * groups' spans are left as they were). glibc then skips resolving
     * the groups, which for nested repeats of optional parts
     * ('(a?|(a?a*){1,2}c?|\d*)*') takes exponential time on a few
     * characters. The functions that read no group set it false. */
    bool             groups_wanted;
    /* glibc's group resolution may never end on this pattern (an
     * unbounded repetition of a group that matches empty, with several
     * alternatives that do): the functions that report group extents
     * refuse it (0A000). */
    bool             glibc_loop;
} attu_similar;

/* Compiles pat with the escape esc (has_esc false: the default backslash;
 * an empty esc: none) unless it is the one compiled last. 22025 for an
 * escape of more than one character, 2201B for a pattern that is not a
 * valid regular expression. */
int attu_similar_prepare(attu_similar *s, const char *pat, size_t plen, const char *esc, size_t elen,
                         bool has_esc, attu_error *err);
/* Compiles the ARE pat for ~ (icase: ~*, ASCII letters only, as under the
 * C collation) unless it is the one compiled last; 2201B for a bad one,
 * 0A000 for an anchor inside a quantified group (glibc's matcher gets
 * some of those wrong). */
int attu_regex_prepare(attu_similar *s, const char *pat, size_t plen, bool icase, attu_error *err);
/* The options of a regexp_* flags argument (PostgreSQL 15's letters,
 * later ones overriding earlier ones) as ATTU_RE_ bits with ATTU_RE_ARE;
 * *glob: whether g was among them. 22023 for a letter that is none. */
int attu_regex_parse_flags(const char *flags, size_t flen, int *mode, bool *glob, attu_error *err);
/* Compiles the ARE pat under mode (ATTU_RE_ bits), after its director
 * (***= ***:) and embedded options, unless it is the one compiled last.
 * 2201B for a bad pattern, one too complex for glibc's matcher, or a q
 * with n, p, w or x (as PostgreSQL); 0A000 for b and e and an anchor in a
 * quantified group. */
int attu_regex_prepare_opts(attu_similar *s, const char *pat, size_t plen, int mode, attu_error *err);
/* The first match of the pattern prepared with ATTU_RE_SUBMATCH in
 * str[0, len) (with a NUL at str[len]) that starts at byte from or later
 * (^ still matches at 0 only, or after a newline under ATTU_RE_NLANCH);
 * fills s->span. */
bool attu_regex_find(attu_similar *s, const char *str, size_t len, size_t from);
/* Whether the whole of str matches the prepared SIMILAR TO pattern, or
 * some part of str the prepared ~ pattern. */
bool attu_similar_match(const attu_similar *s, const char *str, size_t len);
void attu_similar_free(attu_similar *s);

#endif
