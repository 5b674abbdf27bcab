/*
 * range.h - PostgreSQL 15's built-in range types: int4range, int8range,
 * numrange, daterange, tsrange and tstzrange (engine/types.h
 * attu_type_is_range).
 *
 * A range value is a byte string (a TEXT register's bytes, a TEXT
 * column's dictionary entry) in an encoding whose byte order is
 * PostgreSQL's range order (range_cmp), so that the engine's text
 * comparisons, sorts, groups, DISTINCT and joins need no change:
 *
 *   range  := 0x01                        empty (below every other range)
 *           | 0x02 lower upper [show]
 *   lower  := 0x01                        -infinity
 *           | 0x02 key (0x01 '[' | 0x02 '(')
 *   upper  := 0x02 key (0x01 ')' | 0x02 ']')
 *           | 0x03                        +infinity
 *   key    := of int4, int8, date, timestamp(tz) bounds: the int64 with its
 *             sign bit flipped, in 10 bytes of 7 bits each with the high
 *             bit set; of a numeric bound its order-preserving key
 *             (engine/array.h attu_array_numeric_key)
 *   show   := numrange only: each finite bound's numeric text (its
 *             display scale: "1.0" and "1.00" have one key), each ended
 *             by 0x01
 *
 * So range_cmp's rules fall out of the bytes: empty first; then the lower
 * bounds (-infinity first, an inclusive bound before an exclusive one of
 * the same value); then the upper bounds (an exclusive one before an
 * inclusive one, +infinity last). No byte is 0. Numranges that differ
 * only in their bounds' display scales compare by their keys
 * (ATTU_RNG_KEY, what the planner compares and groups them by).
 *
 * Values are made as PostgreSQL's make_range makes them: an infinite bound
 * is exclusive, equal bounds not both inclusive make the range empty,
 * a lower bound above the upper one is 22000, and the discrete types
 * (int4range, int8range, daterange) are canonical, [a,b).
 */
#ifndef ATTU_ENGINE_RANGE_H
#define ATTU_ENGINE_RANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/array.h"
#include "engine/error.h"
#include "engine/expr_program.h"
#include "engine/numeric.h"
#include "engine/types.h"

/* One bound: i for the integer, date and timestamp kinds (a date's days,
 * a timestamp's microseconds), n for numrange. */
typedef struct attu_range_bound {
    int64_t i;
    attu_numeric n;
    bool inf;   /* unbounded on its side */
    bool inc;   /* inclusive */
} attu_range_bound;

typedef struct attu_range {
    attu_range_kind kind;
    bool empty;
    attu_range_bound lo, hi;
} attu_range;

/* ATTU_OP_RANGE's functions (its aux). a, b, c are the instruction's source
 * registers; every one but ATTU_RNG_MAKE is strict (NULL in, NULL out). */
typedef enum attu_range_fn {
    ATTU_RNG_IN = 0,         /* text a -> the range dst (range_in; 22P02, 22000) */
    ATTU_RNG_OUT,            /* range a -> text (range_out) */
    ATTU_RNG_MAKE,           /* the constructor: bounds a, b of the subtype (NULL:
                                infinite), c the flags text or -1 for "[)"; a NULL
                                c is 22000, a bad one 42601 */
    ATTU_RNG_LOWER, ATTU_RNG_UPPER,   /* -> the subtype: NULL for empty or infinite */
    ATTU_RNG_ISEMPTY, ATTU_RNG_LOWER_INC, ATTU_RNG_UPPER_INC,
    ATTU_RNG_LOWER_INF, ATTU_RNG_UPPER_INF,   /* -> boolean */
    ATTU_RNG_CONTAINS,       /* range a @> range b */
    ATTU_RNG_CONTAINS_ELEM,  /* range a @> element b */
    ATTU_RNG_OVERLAPS,       /* a && b */
    ATTU_RNG_BEFORE,         /* a << b: strictly left of */
    ATTU_RNG_AFTER,          /* a >> b: strictly right of */
    ATTU_RNG_OVERLEFT,       /* a &< b: does not extend to the right of */
    ATTU_RNG_OVERRIGHT,      /* a &> b: does not extend to the left of */
    ATTU_RNG_ADJACENT,       /* a -|- b */
    ATTU_RNG_UNION,          /* a + b (22000 where not contiguous) */
    ATTU_RNG_INTERSECT,      /* a * b */
    ATTU_RNG_MINUS,          /* a - b (22000 where not contiguous) */
    ATTU_RNG_MERGE,          /* range_merge(a, b): the smallest range holding both */
    ATTU_RNG_KEY             /* range a -> text: its bytes without the show part
                                (equal for numranges range_eq finds equal) */
} attu_range_fn;

/* PostgreSQL's name of a range kind ("int4range"). */
const char *attu_range_kind_name(attu_range_kind k);

/* range_in: s[0..len) read as a range of kind k, encoded into out; 22P02
 * "malformed range literal" with PostgreSQL's DETAIL, the subtype's input
 * errors, 22000 for bounds out of order, 22003 where canonicalizing
 * overflows. */
int attu_range_parse(attu_range_kind k, const char *s, size_t len, attu_abuf *out, attu_error *err);

/* range_out of the encoded s into out (without a NUL counted). */
int attu_range_to_text(attu_range_kind k, const char *s, size_t len, attu_abuf *out);

/* The encoded s read back into *r; -1 where s is not an encoding of k. */
int attu_range_decode(attu_range_kind k, const char *s, size_t len, attu_range *r);

/* r made a range value as make_range does (above); 22000 / 22003 / 22008. */
int attu_range_make(attu_range *r, attu_error *err);

/* The encoding of r (made already) appended to out. */
int attu_range_encode(const attu_range *r, attu_abuf *out);

/* The length of the key part of the encoded s (all of it but numrange's
 * show bytes). */
size_t attu_range_key_len(attu_range_kind k, const char *s, size_t len);

/* range_cmp of two decoded ranges of one kind: <0, 0, >0. */
int attu_range_cmp(const attu_range *a, const attu_range *b);

/* Runs ATTU_OP_RANGE over n rows (G: the guard, or NULL); results are
 * allocated with alloc(ctx, size). */
int attu_range_run(const attu_expr_program *p, const attu_instr *in, const attu_slot *A, const attu_slot *B,
                   const attu_slot *C, const attu_slot *G, attu_slot *D, size_t n,
                   char *(*alloc)(void *ctx, size_t n), void *ctx, attu_error *err);

#endif
