/*
 * jsonpath.h - PostgreSQL 15's SQL/JSON path language: the jsonpath type's
 * input (jsonpath_parse.c), its canonical text (jsonpath_print.c) and the
 * evaluation of a path over a jsonb value (jsonpath_eval.c), all on the
 * host.
 *
 * A jsonpath value is kept as its canonical text (what PostgreSQL's
 * jsonpath_out prints, `$."a"[*]?(@ > 1)`), in a TEXT register of the
 * type attu_type_jsonpath (engine/types.h); the evaluator parses that text
 * again, which gives the same tree.
 *
 * The tree: every item may have a next item (the accessor chain
 * `$.a[1].b` is $ -> .a -> [1] -> .b); operators hold their operands in
 * left / right.
 */
#ifndef ATTU_JSONPATH_H
#define ATTU_JSONPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"
#include "engine/json_tree.h"

typedef enum jp_kind {
    /* literals */
    JP_NULL, JP_BOOL, JP_NUMERIC, JP_STRING,
    /* primaries */
    JP_ROOT, JP_CURRENT, JP_VAR, JP_LAST,
    /* accessors */
    JP_KEY, JP_ANY_KEY, JP_ANY_ARRAY, JP_INDEX, JP_ANY, JP_FILTER,
    /* item methods */
    JP_TYPE, JP_SIZE, JP_DOUBLE, JP_CEILING, JP_FLOOR, JP_ABS, JP_KEYVALUE, JP_DATETIME,
    /* arithmetic (binary, then unary) */
    JP_ADD, JP_SUB, JP_MUL, JP_DIV, JP_MOD, JP_PLUS, JP_MINUS,
    /* predicates */
    JP_EQ, JP_NE, JP_LT, JP_LE, JP_GT, JP_GE, JP_AND, JP_OR, JP_NOT, JP_EXISTS, JP_IS_UNKNOWN,
    JP_LIKE_REGEX, JP_STARTS_WITH
} jp_kind;

/* like_regex flags, printed in this order */
enum { JP_RE_I = 1, JP_RE_S = 2, JP_RE_M = 4, JP_RE_X = 8, JP_RE_Q = 16 };

/* .**{first to last}: JP_ANY_LAST stands for `last` */
#define JP_ANY_LAST UINT32_MAX

typedef struct jp_item {
    jp_kind kind;
    struct jp_item *next;            /* the next accessor of the chain */
    struct jp_item *left, *right;    /* operands; FILTER / NOT / EXISTS / IS_UNKNOWN / unary: left */
    const char *s; size_t slen;      /* STRING, KEY, VAR: the decoded text; NUMERIC: numeric_out's
                                        text; LIKE_REGEX: the pattern; DATETIME: the template (or NULL) */
    bool b;                          /* BOOL */
    int flags;                       /* LIKE_REGEX: JP_RE_* */
    int nsubs;                       /* INDEX: subscripts from[i] [to to[i]] (to NULL: one) */
    struct jp_item **from, **to;
    uint32_t first, last;            /* ANY: the levels */
} jp_item;

typedef struct jp_path {
    bool strict;
    jp_item *root;
} jp_path;

/* Parses the jsonpath text s into *out (allocated in ar): PostgreSQL's
 * 42601 syntax errors ("syntax error at or near \"x\" of jsonpath input"),
 * 22P02 for an empty path, 2201B for a bad like_regex pattern ... */
int attu_jsonpath_parse(jarena *ar, const char *s, size_t len, jp_path *out, attu_error *err);

/* The regular-expression options (engine/similar.h ATTU_RE_*) of a
 * like_regex's flags: i case-insensitive, s dot matches a line end (its
 * default is not to), m ^ and $ at line ends, q a literal pattern; x is
 * PostgreSQL's 0A000. */
int attu_jsonpath_regex_mode(int flags, int *mode, attu_error *err);

/* The canonical text of a parsed path (jsonpath_out). */
void attu_jsonpath_print(jbuf *b, const jp_path *p);

/* jsonpath_in: the canonical text of s into a malloc'd *out. */
int attu_jsonpath_canonical(const char *s, size_t len, char **out, size_t *outlen, attu_error *err);

/* What a path function makes of the items a path finds (ATTU_JS_PATH's imm). */
typedef enum jp_func {
    JPF_EXISTS = 0,   /* jsonb_path_exists / @?: true, false; NULL for an error when silent */
    JPF_MATCH,        /* jsonb_path_match / @@: the single boolean (22038 otherwise) */
    JPF_QUERY_ARRAY,  /* jsonb_path_query_array: the items as one array (jsonb_path_query's rows) */
    JPF_QUERY_FIRST   /* jsonb_path_query_first: the first item, NULL for none */
} jp_func;
/* (with ATTU_JS_PATH's imm: no vars nor silent argument, silent: the
 * operators @? and @@) */
#define JPF_SILENT_NO_VARS 8

/* Evaluates the canonical path text path over the jsonb text target, with
 * the jsonb object vars and silent as the functions' arguments (vars
 * NULL: no vars argument, every variable is JSON null, as for PostgreSQL's
 * operators @? and @@). The result is jsonb text into out (JPF_QUERY_*) or a boolean
 * into *bool_out; *is_null for a SQL NULL. */
int attu_jsonpath_run(jp_func fn, const char *target, size_t tlen, const char *path, size_t plen, const char *vars,
                      size_t vlen, bool silent, jbuf *out, bool *bool_out, bool *is_null, attu_error *err);

#endif
