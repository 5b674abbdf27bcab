/*
 * array.h - arrays, as PostgreSQL 15's (int[], text[] ...): one to six
 * dimensions, any lower bounds.
 *
 * An array value is a byte string (a TEXT register's bytes, a TEXT
 * column's dictionary entry: engine/types.h attu_type_is_array) in an
 * encoding whose byte order is PostgreSQL's array order, so that the
 * engine's text comparisons, sorts, groups and joins need no change:
 *
 *   array    := element* [0x01 0xff shape] [0x01 show+]
 *                                   ('{}' is the empty string)
 *   element  := 0x02 key | 0x03     (a value, a NULL: NULLs sort after
 *                                    every value, as PostgreSQL's array_cmp)
 *   key of an integer, date, timestamp, boolean: the int64 with its sign
 *            bit flipped, then 10 bytes of 7 bits each, high bit set
 *   key of a float: the IEEE bits made order-preserving (negatives
 *            inverted, -0 as 0, one NaN above Infinity), 10 bytes as above
 *   key of a text: its bytes, 0x01 escaped as 0x01 0x02, ended by 0x01 0x01
 *            (a prefix sorts first; text holds no NUL); so of a uuid,
 *            bytea, json or jsonb, whose held text (engine/types.h) is
 *            the key: a uuid's and a bytea's order their values, a
 *            jsonb[]'s key (attu_array_key) holds each element's jsonb
 *            key instead, json[] has no order
 *   key of a numeric: a class byte (-Infinity, negative, zero, positive,
 *            Infinity, NaN), for a nonzero finite value its decimal exponent
 *            and significant digits (inverted when negative, ended by a
 *            byte beyond every digit's)
 *   shape:   for several dimensions or a lower bound other than 1 only:
 *            the number of dimensions, each length, each lower bound, as
 *            integer keys (10 bytes each, as above); the elements are in
 *            storage order (the last subscript varies fastest)
 *   show:    of a numeric, float or bpchar array only, one entry for each
 *            value element, in order: 0x80 plus a numeric's display
 *            scale, 0x81 for a float's -0, 0x80 plus a bpchar's count
 *            of trailing blanks (its key is the value without them, what
 *            bpchar compares), else 0x80; a value of 64 or more is its
 *            value / 64 in base-63 digits 0xc0..0xfe before the byte
 *            0x80 + value % 64 (an entry ends at its byte below 0xc0);
 *            present only when some entry is not 0x80
 *
 * Keys hold the value only, so that arrays PostgreSQL's array_eq sees
 * equal ('{1.0}' and '{1.00}', '{-0}' and '{0}', '{"a "}' and '{a}' of
 * bpchar) have equal keys
 * (attu_array_key); what the value shows beyond its key goes after every
 * element, where the 0x01, below every element's tag, ends the array as
 * its end would: byte order is array_cmp's order wherever the keys differ,
 * and arrays of equal keys differ only in their show bytes. The shape
 * after the elements orders as array_cmp does once the elements are equal
 * (the element count, then the dimensions, the lengths, the lower bounds;
 * 0xff is above every show byte, so an array of one dimension from 1, which
 * has no shape, comes first: before one of lower bound 0, unlike
 * PostgreSQL, the one place the orders differ). Comparisons,
 * groups, DISTINCT and joins of numeric and float arrays compare the keys
 * (the planner's ATTU_ARR_KEY); sorts and min / max may read the bytes.
 *
 * Every element is self-delimiting, and an array that is a prefix of
 * another sorts first. No byte is 0. Concatenated encodings (array_agg's
 * string_agg of one-element arrays, attu_array_put's output) are read
 * too: each 0x01 ends a segment (its shape, written by ATTU_ARR_NEST
 * even where the canonical form leaves it out, then show bytes that
 * belong to its last value elements); attu_array_canon makes the one form above again, which every
 * array value takes before it is compared or stored.
 */
#ifndef ATTU_ARRAY_H
#define ATTU_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"
#include "engine/expr_program.h"
#include "engine/types.h"

/* ATTU_OP_ARRAY's functions (its aux). a, b, c are the instruction's
 * source registers; "strict" ones give NULL for any NULL source. */
typedef enum attu_array_fn {
    ATTU_ARR_FROM_TEXT = 0, /* text a -> the array dst (array_in; 22P02), strict */
    ATTU_ARR_TO_TEXT,       /* array a -> text (array_out), strict */
    ATTU_ARR_APPEND,        /* array a (NULL: empty) with element b (may be NULL) */
    ATTU_ARR_PREPEND,       /* element a (may be NULL) before array b (NULL: empty) */
    ATTU_ARR_CAT,           /* array a || array b; a NULL side is ignored */
    ATTU_ARR_SUBSCRIPT,     /* a[b]: from the lower bound; NULL outside it or for
                               several dimensions; strict */
    ATTU_ARR_SLICE,         /* a[b:c]; b INT32_MIN / c INT32_MAX: that bound
                               omitted; other dimensions whole; strict */
    ATTU_ARR_LENGTH,        /* array_length(a, b): NULL for a dimension a lacks */
    ATTU_ARR_CARDINALITY,   /* cardinality(a): every dimension's elements */
    ATTU_ARR_LOWER,         /* array_lower(a, b) */
    ATTU_ARR_UPPER,         /* array_upper(a, b) */
    ATTU_ARR_NDIMS,         /* array_ndims(a): NULL for '{}' */
    ATTU_ARR_DIMS,          /* array_dims(a): "[1:2][0:3]", NULL for '{}' */
    ATTU_ARR_POSITION,      /* array_position(a, b [, c start]): NOT DISTINCT search */
    ATTU_ARR_POSITIONS,     /* array_positions(a, b) -> integer[] */
    ATTU_ARR_REMOVE,        /* array_remove(a, b) */
    ATTU_ARR_REPLACE,       /* array_replace(a, b, c) */
    ATTU_ARR_TO_STRING,     /* array_to_string(a, b sep [, c null text]) */
    ATTU_ARR_FROM_STRING,   /* string_to_array(a, b sep [, c null text]) -> text[] */
    ATTU_ARR_CONTAINS,      /* a @> b */
    ATTU_ARR_OVERLAP,       /* a && b */
    ATTU_ARR_ANY,           /* a op ANY (b): imm_i the comparison (0 =, 1 <>, 2 <,
                               3 <=, 4 >, 5 >=), plus 8 for ALL */
    ATTU_ARR_CAST,          /* array a -> the array dst of another element type,
                               element by element (as the element cast) */
    ATTU_ARR_TRIM,          /* trim_array(a, b): without its last b elements;
                               2202E unless 0 <= b <= the length */
    ATTU_ARR_KEY,           /* array a -> text: its keys only (array.h), what
                               =, GROUP BY, DISTINCT and joins compare */
    ATTU_ARR_CANON,         /* array a (concatenated encodings) -> its canonical form */
    ATTU_ARR_SUBSCRIPT_N,   /* a[i][j]...: b the int[] of subscripts; NULL unless
                               one per dimension, inside the bounds */
    ATTU_ARR_SLICE_N,       /* a[l:h][l:h]...: b, c the int[]s of bounds
                               (INT32_MIN / INT32_MAX: left out) */
    ATTU_ARR_NTH,           /* the b-th element (1-based) in storage order (unnest) */
    ATTU_ARR_NEST,          /* acc a (NULL: none) with the sub-array b appended as a
                               segment of its own (ARRAY[sub-arrays], array_agg of
                               arrays); a NULL b: 2202E (imm_i 0), 22004 (1) */
    ATTU_ARR_NEST_DONE,     /* ATTU_ARR_NEST's acc as one array of one more
                               dimension (imm_i 1: array_agg's errors) */
    ATTU_ARR_TYPMOD,        /* array a brought to dst's element modifier (types.h:
                               numeric(p,s) rounds, varchar(n) / char(n) cut,
                               char(n) pads); imm_i 1: an explicit cast, which
                               cuts what an assignment or input rejects (22001) */
    ATTU_ARR_ASSIGN,        /* UPDATE SET a[..][..] = c: b the int[] of each
                               subscript's low and high (INT32_MIN / INT32_MAX:
                               left out); imm_i 1: a slice, c an array */
    ATTU_ARR_ORDER_CODE,    /* array a -> text: its key (ATTU_ARR_KEY), 0x01, a
                               itself and a's length (10 bytes): bytes that order
                               as a's keys and give a back (min / max of jsonb[]) */
    ATTU_ARR_ORDER_DECODE,  /* ATTU_ARR_ORDER_CODE's text a -> the array again */
    ATTU_ARR_FILL,          /* array_fill: a the one-element array of the value
                               (its element NULL for a NULL value), b the int[]
                               of lengths, c (or -1) the int[] of lower bounds;
                               not strict (22004 for a NULL b or c) */
    ATTU_ARR_WIDTH_BUCKET   /* width_bucket(a, b thresholds) -> integer: how many
                               of b's elements are <= a, by PostgreSQL's binary
                               search (which assumes them sorted); strict */
} attu_array_fn;

/* An array's dimensions: ndims 0 for '{}', else its lengths and lower
 * bounds, outermost first (PostgreSQL's at most 6). */
#define ATTU_ARRAY_MAXDIM 6
typedef struct attu_array_shape { int ndims; int32_t dims[ATTU_ARRAY_MAXDIM], lbs[ATTU_ARRAY_MAXDIM]; } attu_array_shape;

/* A growable byte buffer (malloc'd). */
typedef struct attu_abuf { char *p; size_t len, cap; } attu_abuf;
int attu_abuf_put(attu_abuf *b, const void *s, size_t n);
void attu_abuf_free(attu_abuf *b);

/* Appends one element: v in the register form of elem's machine type
 * (expr_program.h), v->null a NULL element, as a one-element segment (its
 * show byte after it when it has one: not canonical, attu_array_canon).
 * Returns 0 or -1 (OOM). */
int attu_array_put(attu_abuf *out, attu_type elem, const attu_slot *v);

/* The array s, of type at, with at's element modifier applied
 * (ATTU_ARR_TYPMOD; explicit_cast cuts long strings instead of 22001),
 * canonical, into out. Returns 0, or -1 with err set. */
int attu_array_apply_mod(attu_type at, const char *s, size_t len, bool explicit_cast, attu_abuf *out,
                         attu_error *err);

/* The order-preserving key of the NUMERIC slot16 (a class byte, then for
 * a nonzero finite value its exponent and significant digits: above; no
 * display scale, no byte 0), appended to b, and the length of such a key
 * at k; what engine/range.h keys numrange bounds with. */
int attu_array_numeric_key(attu_abuf *b, const void *slot16);
size_t attu_array_numeric_key_len(const unsigned char *k, const unsigned char *end);

/* Walks an array's elements. */
typedef struct attu_array_iter {
    const unsigned char *p, *end;
    attu_type elem;
    const unsigned char *key;  /* the element just read: its key bytes */
    size_t keylen;             /* (without a numeric's scale byte) */
    size_t enclen;             /* its whole encoding, tag included */
    attu_abuf scratch;         /* unescaped text, a numeric's slot */
    size_t showv;              /* the element's show entry (0: none) */
    const unsigned char *seg_end;  /* the segment's 0x01 (or the end) */
    const unsigned char *seg_next; /* the next segment */
    const unsigned char *show;     /* its next show entry, NULL for none */
    const unsigned char *show_end; /* the end of its show entries */
    size_t show_skip, seg_value;   /* value elements before show[0]'s; read so far */
} attu_array_iter;
void attu_array_iter_init(attu_array_iter *it, attu_type elem, const char *s, size_t len);
/* 1 and *v (pointing into the array or the scratch, valid until the next
 * call) for the next element, 0 at the end. */
int attu_array_next(attu_array_iter *it, attu_slot *v);
void attu_array_iter_done(attu_array_iter *it);
/* Appends the element just read (its show byte too) to out, as attu_array_put. */
int attu_array_put_current(attu_abuf *out, const attu_array_iter *it);

/* The canonical form (the one encoding of array.h) of s, into out, its
 * shape s's first segment's (one dimension from 1 for several segments). */
int attu_array_canon(attu_type elem, const char *s, size_t len, attu_abuf *out);
/* The canonical form of s's elements in the shape sh (NULL: one dimension). */
int attu_array_finish(attu_type elem, const char *s, size_t len, const attu_array_shape *sh, attu_abuf *out);
/* The shape of s (canonical, or one dimension from 1 for several segments). */
void attu_array_get_shape(attu_type elem, const char *s, size_t len, attu_array_shape *sh);
/* The keys of s only (no show bytes), into out: equal for arrays that
 * PostgreSQL's array_eq finds equal, in array_cmp's order. Of a jsonb[],
 * a text array of its elements' jsonb keys (engine/json.h). */
int attu_array_key(attu_type elem, const char *s, size_t len, attu_abuf *out);

/* One element v of an array of elem as its type's output function writes
 * it: into buf (cap bytes, enough for any non-string value), or *longp
 * set to the text (a string element's own bytes). Returns its length. */
size_t attu_array_elem_text(attu_type elem, const attu_slot *v, char *buf, size_t cap, const char **longp);

/* Number of elements. */
size_t attu_array_count(attu_type elem, const char *s, size_t len);

/* PostgreSQL's array_in for a one-dimensional array of elem: '{1,2,NULL}',
 * '{"a b",c}'; 22P02 "malformed array literal", the element type's input
 * errors; 0A000 for several dimensions. */
int attu_array_from_text(attu_type elem, const char *s, size_t len, attu_abuf *out, attu_error *err);
/* PostgreSQL's array_out: "{1,2,NULL}", elements quoted where needed. */
int attu_array_to_text(attu_type elem, const char *s, size_t len, attu_abuf *out);

/* Runs ATTU_OP_ARRAY over n rows (G: the guard, or NULL); results are
 * allocated with alloc(ctx, size). */
int attu_array_run(const attu_expr_program *p, const attu_instr *in, const attu_slot *A, const attu_slot *B,
                   const attu_slot *C, const attu_slot *G, attu_slot *D, size_t n,
                   char *(*alloc)(void *ctx, size_t n), void *ctx, attu_error *err);

#endif
