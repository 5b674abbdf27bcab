/*
 * similar.h - SQL's SIMILAR TO patterns and the regular expressions of the
 * ~ operators, matched as PostgreSQL 15 does. SIMILAR TO:
 * the pattern becomes a regular expression anchored at both ends (% is
 * .*, _ one character, an escaped character is itself, [...] classes and
 * | * + ? {m,n} ( ) keep their regex meaning, . ^ $ and backslash are
 * literal) and the whole string must match it. ~ (attu_regex_prepare):
 * PostgreSQL's advanced regular expressions (ARE), found anywhere in the
 * string; the same translation with . any character, ^ $ anchors and
 * (?:re) groups. Back references, lookaround, embedded options and the
 * constraint escapes are 0A000.
 */
#ifndef ATTU_ENGINE_SIMILAR_H
#define ATTU_ENGINE_SIMILAR_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine/error.h"

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
    int     mode;         /* 0 SIMILAR TO, 1 ~, 2 ~* */
} attu_similar;

/* Compiles pat with the escape esc (has_esc false: the default backslash;
 * an empty esc: none) unless it is the one compiled last. 22025 for an
 * escape of more than one character, 2201B for a pattern that is not a
 * valid regular expression. */
int attu_similar_prepare(attu_similar *s, const char *pat, size_t plen, const char *esc, size_t elen,
                         bool has_esc, attu_error *err);
/* Compiles the ARE pat for ~ (icase: ~*, ASCII letters only, as under the
 * C collation) unless it is the one compiled last; 2201B for a bad one. */
int attu_regex_prepare(attu_similar *s, const char *pat, size_t plen, bool icase, attu_error *err);
/* Whether the whole of str matches the prepared SIMILAR TO pattern, or
 * some part of str the prepared ~ pattern. */
bool attu_similar_match(const attu_similar *s, const char *str, size_t len);
void attu_similar_free(attu_similar *s);

#endif
