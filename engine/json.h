/*
 * json.h - PostgreSQL 15's json and jsonb types, their operators and
 * functions, all evaluated on the host (ATTU_OP_JSON).
 *
 * Both types are TEXT registers and TEXT columns (engine/types.h
 * attu_type_is_json / attu_type_is_jsonb) holding text:
 *
 *   json   the input text exactly as written, once validated (json_in);
 *   jsonb  the canonical text PostgreSQL's jsonb_out prints: object keys
 *          shorter first then bytewise, a duplicate key's last value kept,
 *          numbers as numeric_out prints them, `{"a": 1, "b": [1, 2]}`.
 *
 * jsonb equality and order are not the text's bytes ('1.0' equals '1';
 * an object with more pairs sorts above one with fewer), so every compare,
 * sort, group, DISTINCT and join of jsonb values reads its key
 * (ATTU_JS_KEY, the planner's bpchar_key): a byte string whose byte order
 * is PostgreSQL's jsonb order (compareJsonbContainers) and which is equal
 * exactly for values PostgreSQL finds equal:
 *
 *   value  := 0x10                         null
 *           | 0x20 string                  (string: its bytes, 0x01 as
 *                                           0x01 0x02, ended by 0x01 0x01)
 *           | 0x30 number                  (below)
 *           | 0x40 0x02 | 0x40 0x03        false, true
 *           | 0x50 count value*            array (count: 5 bytes of 7 bits,
 *                                           high bit set, big-endian)
 *           | 0x60 count (string value)*   object, keys in storage order
 *   number := 0x40 (zero) | 0x41 exponent digits 0x21 (positive)
 *           | 0x3f exponent' digits' 0x7e (negative: exponent and digits
 *             inverted so that the larger magnitude sorts first)
 *
 * Null < string < number < boolean < array < object, PostgreSQL's order;
 * a top-level scalar is below every array as PostgreSQL's raw scalar is.
 * No byte of a key is 0.
 */
#ifndef ATTU_JSON_H
#define ATTU_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"
#include "engine/expr_program.h"
#include "engine/types.h"

/* ATTU_OP_JSON's functions (its aux). a, b, c, d are the instruction's
 * sources; the dst's type says json, jsonb or text where both exist. All
 * strict (NULL in, NULL out) unless said otherwise. */
typedef enum attu_json_fn {
    ATTU_JS_IN = 0,        /* text a -> json (validated, kept) or jsonb (canonical): 22P02 */
    ATTU_JS_KEY,           /* jsonb a -> text: the key above */
    ATTU_JS_GET,           /* a -> b (text key or int index; imm_i 1: ->> text) */
    ATTU_JS_GET_PATH,      /* a #> b text[] (imm_i 1: #>> text) */
    ATTU_JS_CONTAINS,      /* jsonb a @> b */
    ATTU_JS_EXISTS,        /* jsonb a ? text b */
    ATTU_JS_EXISTS_ANY,    /* a ?| text[] b */
    ATTU_JS_EXISTS_ALL,    /* a ?& text[] b */
    ATTU_JS_CONCAT,        /* jsonb a || b */
    ATTU_JS_DELETE,        /* jsonb a - b (text key, int index or text[] of keys) */
    ATTU_JS_DELETE_PATH,   /* jsonb a #- text[] b */
    ATTU_JS_TYPEOF,        /* json(b)_typeof(a) */
    ATTU_JS_ARRAY_LENGTH,  /* json(b)_array_length(a) */
    ATTU_JS_STRIP_NULLS,   /* json(b)_strip_nulls(a) */
    ATTU_JS_SET,           /* jsonb_set(a, path b, new c, create d) */
    ATTU_JS_INSERT,        /* jsonb_insert(a, path b, new c, after d) */
    ATTU_JS_PRETTY,        /* jsonb_pretty(a) */
    ATTU_JS_QUOTE,         /* text a -> a json string "..." */
    ATTU_JS_SCALAR,        /* the text of a number or boolean a -> json: itself,
                              quoted where it is no JSON number (NaN, Infinity);
                              imm_i 1: a timestamp's text, ISO 8601 with a T
                              (imm_i 2: with a zone offset hh:mm) */
    ATTU_JS_FROM_ARRAY,    /* PostgreSQL's text of an array a -> a json array;
                              imm_i: the element class (ATTU_JSC_*); not strict
                              in its elements; imm_i + 16: pretty (line feeds);
                              imm_i + 32: json(b)_build_array(VARIADIC a),
                              + 64: json(b)_build_object(VARIADIC a) (the
                              elements of every dimension as arguments) */
    ATTU_JS_OBJ_ADD,       /* acc a (NULL: none) with key b, value c (json text,
                              NULL: null): "a, \"b\" : c"; not strict;
                              NULL b: 22004 */
    ATTU_JS_ARR_ADD,       /* acc a (NULL: none) with json c (NULL: null); not strict */
    ATTU_JS_WRAP_OBJ,      /* acc a -> "{" a "}" (NULL a: "{}"), not strict;
                              imm_i 1: "{ " a " }" (json_object_agg);
                              imm_i 2: NULL for a NULL a (aggregates) */
    ATTU_JS_WRAP_ARR,      /* acc a -> "[" a "]" (NULL a: "[]"); imm_i as above */
    ATTU_JS_OBJECT,        /* json_object(text[] a [, text[] b]) */
    ATTU_JS_NTH,           /* the b-th (1-based) element of array a, or of object
                              a its b-th value (imm_i 0), key (imm_i 1);
                              imm_i + 2: as text (_text functions) */
    ATTU_JS_COUNT,         /* the rows an SRF gives: a's elements (imm_i 0 arrays,
                              1 objects: pairs / keys, 2 the objects of
                              json_to_recordset); errors as PostgreSQL's
                              (aux of the error's function name in b, a text) */
    ATTU_JS_EXTRACT_PATH,  /* json(b)_extract_path(_text): a, the path as text[] b */
    ATTU_JS_CAST,          /* jsonb a -> the text of its scalar for a cast to a
                              number (imm_i 0) or boolean (1); b the target
                              type's name: 22023 for another kind of value */
    ATTU_JS_PATH_IN,       /* text a -> jsonpath: its canonical text (engine/jsonpath.h) */
    ATTU_JS_PATH,          /* jsonb a, jsonpath b, vars jsonb c (absent: none), silent d
                              (absent: false): the path function imm_i (jp_func) */
    ATTU_JS_REC_FIELD      /* the value of key b of object a for a column of a
                              json_to_record / json_populate_record row, as
                              PostgreSQL's populate_record_field: imm_i 0 the
                              json(b) value, 1 its text (a string unquoted),
                              2 an array literal of a JSON array (a string as
                              it is), + 4: the array's elements json; JSON
                              null and a missing key are NULL; 3 't' when
                              the key is present (its value JSON null
                              too), NULL when it is not (a base row's
                              value is kept then); a not an object: 22023
                              (populate_composite) */
} attu_json_fn;

/* ATTU_JS_FROM_ARRAY's element classes. */
enum { ATTU_JSC_NUMBER = 0, ATTU_JSC_BOOL, ATTU_JSC_STRING, ATTU_JSC_TIMESTAMP, ATTU_JSC_TIMESTAMPTZ, ATTU_JSC_JSON };

/* Validates s as json (22P02 with PostgreSQL's DETAIL). */
int attu_json_validate(const char *s, size_t len, attu_error *err);
/* jsonb's canonical text of s into a malloc'd *out (22P02, 22P05). */
int attu_jsonb_canonical(const char *s, size_t len, char **out, size_t *outlen, attu_error *err);

/* The key (above) of the jsonb text s into a malloc'd *out (22P02 ...). */
int attu_jsonb_key(const char *s, size_t len, char **out, size_t *outlen, attu_error *err);

/* Runs ATTU_OP_JSON over n rows (G: the guard, or NULL); results are
 * allocated with alloc(ctx, size). */
int attu_json_run(const attu_expr_program *p, const attu_instr *in, const attu_slot *A, const attu_slot *B,
                  const attu_slot *C, const attu_slot *Dd, const attu_slot *G, attu_slot *D, size_t n,
                  char *(*alloc)(void *ctx, size_t n), void *ctx, attu_error *err);

#endif
