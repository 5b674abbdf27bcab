/*
 * json_tree.h - the parsed form of a json / jsonb value that engine/json.c
 * works on, shared with the SQL/JSON path evaluator (engine/jsonpath_eval.c).
 *
 * A value is a tree of jnode allocated in an arena (jarena) that is freed
 * as a whole. A tree parsed from jsonb's canonical text (engine/json.h) is
 * itself canonical: object pairs in jsonb's storage order (shorter keys
 * first, then bytewise), numbers as numeric_out prints them. Numbers are
 * kept as their text; jnum reads one for comparison and printing with no
 * limit on its digits (numeric's own limits aside).
 */
#ifndef ATTU_JSON_TREE_H
#define ATTU_JSON_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"

typedef struct jchunk { struct jchunk *next; size_t used, cap; char data[]; } jchunk;
typedef struct jarena { jchunk *head; } jarena;

/* growable text, NUL-terminated; oom set once an allocation failed */
typedef struct jbuf { char *p; size_t len, cap; bool oom; } jbuf;

enum { J_NULL = 0, J_STR, J_NUM, J_FALSE, J_TRUE, J_ARR, J_OBJ };

typedef struct jnode {
    uint8_t kind;
    const char *src; size_t srclen;   /* the text as written (json results) */
    const char *s; size_t slen;       /* STR: the decoded string; NUM: its text */
    size_t n;                         /* ARR: elements; OBJ: pairs */
    struct jnode **kids;              /* ARR: n; OBJ: 2n, key then value */
} jnode;

/* A JSON number's value: its sign, its significant digits (no leading or
 * trailing zeros; none for zero), the decimal exponent of the first digit
 * (value = 0.d1d2... * 10^exp), and numeric_in's display scale. */
typedef struct jnum { bool neg; const char *dig; size_t ndig; long exp; long dscale; char buf[64]; char *heap; } jnum;

void *attu_jt_alloc(jarena *a, size_t n);
void attu_jt_free(jarena *a);
void attu_jt_put(jbuf *b, const void *s, size_t n);

/* Parses s as jsonb (jsonb true: strings decoded) or json; NULL with err
 * set (22P02 ...). Objects are not reordered (attu_jt_canon does that). */
jnode *attu_jt_parse(jarena *ar, const char *s, size_t len, bool jsonb, attu_error *err);
/* Sorts every object's pairs into jsonb's order, the last of equal keys kept. */
int attu_jt_canon(jarena *ar, jnode *j);
/* jsonb's text of a canonical tree. */
int attu_jt_print(jbuf *b, const jnode *j, attu_error *err);
/* A JSON string's text with jsonb's escapes, quoted. */
void attu_jt_put_escaped(jbuf *b, const char *s, size_t n);

/* numeric_in of a JSON number's text (22003 past numeric's limits);
 * attu_jt_num_done frees it. */
int attu_jt_num_parse(const char *s, size_t len, jnum *o, attu_error *err);
void attu_jt_num_done(jnum *o);
/* numeric_out's text of a parsed number. */
void attu_jt_num_print(jbuf *b, const jnum *o);
int attu_jt_num_cmp(const jnum *a, const jnum *b);

#endif
