/*
 * types.h - SQL types and how their values are laid out in a column.
 *
 * Every value of a column sits in a fixed-width slot, so the GPU and CPU
 * backends see plain arrays:
 *
 *   BOOLEAN            uint8_t   0 or 1
 *   SMALLINT           int32_t   held in INTEGER's slot; every value that
 *                                enters one is checked to -32768..32767
 *   INTEGER            int32_t
 *   BIGINT             int64_t
 *   REAL               float
 *   DOUBLE PRECISION   double
 *   DECIMAL(p,s)       int64_t   the value times 10^s (p <= 18)
 *   TEXT / VARCHAR     int32_t   code into the column's sorted dictionary
 *   / CHAR(n)                    (varchar and char(n) below)
 *   DATE               int32_t   days since 1970-01-01
 *   TIMESTAMP          int64_t   microseconds since 1970-01-01 00:00:00
 *   TIMESTAMPTZ        int64_t   microseconds since 1970-01-01 00:00:00 UTC
 *                                (an instant; engine/timezone.h turns it to
 *                                and from the wall time of a zone)
 *   TIME               int64_t   microseconds since midnight, 0 .. 24:00:00
 *   TIMETZ             int64_t   a time and its offset, packed (time_of_day.h)
 *   NUMERIC            16 bytes  a value with its own display scale
 *                                (engine/numeric.h: m * 64 + dscale)
 *   INTERVAL           16 bytes  attu_interval (engine/interval.h): int32
 *                                months, int32 days, int64 microseconds
 *
 * NUMERIC is PostgreSQL's numeric without a typmod as attu computes it:
 * quotients, avg, variance, sum(bigint), float8::numeric, numeric ^ and
 * log, and mixes of numerics of different scales (CASE, UNION, greatest)
 * carry a scale per value. A table column declared numeric without
 * (p,s) is NUMERIC too (db/db_ddl.c db_column_type); one declared
 * numeric(p,s) is DECIMAL(p,s).
 *
 * NULL is kept apart, in a validity bitmap (column.h), never in the slot.
 */
#ifndef ATTU_TYPES_H
#define ATTU_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"

typedef enum attu_type_id {
    ATTU_TYPE_UNKNOWN = 0,  /* the type of a bare NULL literal before binding */
    ATTU_TYPE_BOOL,
    ATTU_TYPE_INT32,
    ATTU_TYPE_INT64,
    ATTU_TYPE_FLOAT32,
    ATTU_TYPE_FLOAT64,
    ATTU_TYPE_DECIMAL,
    ATTU_TYPE_TEXT,
    ATTU_TYPE_DATE,
    ATTU_TYPE_TIMESTAMP,
    ATTU_TYPE_NUMERIC,      /* per-value display scale: computed values and
                               columns declared numeric without (p,s) */
    ATTU_TYPE_INT16,        /* smallint, in an int32 slot (the ids are
                               stored in table schemas: new ones go last) */
    ATTU_TYPE_INTERVAL,     /* PostgreSQL's interval, 16 bytes (types.h's table) */
    ATTU_TYPE_TIMESTAMPTZ,  /* timestamp with time zone: TIMESTAMP's slot, a UTC
                               instant; shown in the session's TimeZone */
    ATTU_TYPE_TIME,         /* time without time zone: int64 microseconds since
                               midnight (engine/time_of_day.h) */
    ATTU_TYPE_TIMETZ,       /* time with time zone: a time and its offset packed
                               in an int64 that orders as PostgreSQL's timetz
                               (engine/time_of_day.h) */
    ATTU_TYPE_COUNT_
} attu_type_id;

#define ATTU_DECIMAL_MAX_PRECISION 18

typedef struct attu_type {
    attu_type_id id;
    int16_t precision;   /* DECIMAL only */
    int16_t scale;       /* DECIMAL only */
    /* DECIMAL only: 1 where PostgreSQL's type is numeric WITHOUT a typmod
     * (a literal, arithmetic, a function or aggregate result, a cast to
     * plain numeric) and the (precision, scale) is only how attu holds
     * those values, in a scaled int64 because their digits fit; 0 where
     * PostgreSQL has the typmod numeric(p,s) too (a declared column, a
     * cast to numeric(p,s)). Operations ignore it (attu_type_equal);
     * what PostgreSQL shows of the type does not: a typmod of -1, and a
     * table made from the result (CREATE TABLE AS, a materialized view)
     * gets an unconstrained NUMERIC column (db_ctas_build). Set by the
     * binder (planner/binder_expr.c mk_call, literals, casts, aggregates;
     * docs/sql-reference.md). An int32 so that the struct has no padding
     * (types are compared with memcmp in places). */
    int32_t no_typmod;
} attu_type;

/* PostgreSQL type OIDs, as sent in RowDescription. */
#define ATTU_PG_OID_BOOL      16
#define ATTU_PG_OID_INT8      20
#define ATTU_PG_OID_INT2      21
#define ATTU_PG_OID_INT4      23
#define ATTU_PG_OID_TEXT      25
#define ATTU_PG_OID_FLOAT4    700
#define ATTU_PG_OID_FLOAT8    701
#define ATTU_PG_OID_UNKNOWN   705
#define ATTU_PG_OID_BPCHAR    1042
#define ATTU_PG_OID_VARCHAR   1043
#define ATTU_PG_OID_DATE      1082
#define ATTU_PG_OID_TIMESTAMP 1114
#define ATTU_PG_OID_TIMESTAMPTZ 1184
#define ATTU_PG_OID_TIME      1083
#define ATTU_PG_OID_TIMETZ    1266
#define ATTU_PG_OID_INTERVAL  1186
#define ATTU_PG_OID_NUMERIC   1700
#define ATTU_PG_OID_RECORD    2249
#define ATTU_PG_OID_JSON      114
#define ATTU_PG_OID_JSONB     3802
#define ATTU_PG_OID_UUID      2950
#define ATTU_PG_OID_JSONPATH  4072
#define ATTU_PG_OID_JSONPATH_ARRAY 4073
#define ATTU_PG_OID_BYTEA     17
/* the built-in range types, in attu_range_kind's order */
#define ATTU_PG_OID_INT4RANGE 3904
#define ATTU_PG_OID_INT8RANGE 3926
#define ATTU_PG_OID_NUMRANGE  3906
#define ATTU_PG_OID_DATERANGE 3912
#define ATTU_PG_OID_TSRANGE   3908
#define ATTU_PG_OID_TSTZRANGE 3910
/* the array types' OIDs (typarray of each element type) */
#define ATTU_PG_OID_BOOL_ARRAY      1000
#define ATTU_PG_OID_INT2_ARRAY      1005
#define ATTU_PG_OID_INT4_ARRAY      1007
#define ATTU_PG_OID_TEXT_ARRAY      1009
#define ATTU_PG_OID_BPCHAR_ARRAY    1014
#define ATTU_PG_OID_VARCHAR_ARRAY   1015
#define ATTU_PG_OID_INT8_ARRAY      1016
#define ATTU_PG_OID_FLOAT4_ARRAY    1021
#define ATTU_PG_OID_FLOAT8_ARRAY    1022
#define ATTU_PG_OID_TIMESTAMP_ARRAY 1115
#define ATTU_PG_OID_DATE_ARRAY      1182
#define ATTU_PG_OID_TIME_ARRAY      1183
#define ATTU_PG_OID_TIMETZ_ARRAY    1270
#define ATTU_PG_OID_INTERVAL_ARRAY  1187
#define ATTU_PG_OID_TIMESTAMPTZ_ARRAY 1185
#define ATTU_PG_OID_NUMERIC_ARRAY   1231
#define ATTU_PG_OID_JSON_ARRAY      199
#define ATTU_PG_OID_JSONB_ARRAY     3807
#define ATTU_PG_OID_UUID_ARRAY      2951
#define ATTU_PG_OID_BYTEA_ARRAY     1001

static inline attu_type attu_type_make(attu_type_id id) {
    attu_type t = { id, 0, 0, 0 };
    return t;
}
static inline attu_type attu_type_decimal(int precision, int scale) {
    attu_type t = { ATTU_TYPE_DECIMAL, (int16_t)precision, (int16_t)scale, 0 };
    return t;
}
/* A DECIMAL that stands for PostgreSQL's numeric without a typmod (the
 * no_typmod above). */
static inline attu_type attu_type_decimal_free(int precision, int scale) {
    attu_type t = { ATTU_TYPE_DECIMAL, (int16_t)precision, (int16_t)scale, 1 };
    return t;
}
/* Whether t is a DECIMAL that PostgreSQL shows as numeric without a
 * typmod. */
static inline int attu_type_is_free_decimal(attu_type t) {
    return t.id == ATTU_TYPE_DECIMAL && t.no_typmod;
}
static inline int attu_type_equal(attu_type a, attu_type b) {
    /* (a TEXT's scale 16 and above makes it an array: attu_type_is_array) */
    /* (and its scale 3 or 4 json or jsonb: engine/json.h; 5 or 6 uuid or
     * bytea: engine/uuid.h, engine/bytea.h) */
    /* (and its scale 7 an enum type, precision its id: engine/enum_type.h) */
    if (a.id == ATTU_TYPE_TEXT && b.id == ATTU_TYPE_TEXT && (a.scale == 7 || b.scale == 7))
        return a.scale == b.scale && a.precision == b.precision;
    /* (an enum array's scale is 16 + TEXT's id + 128 * 7, its precision
     * the enum's, as the enum's own: attu_type_array_of) */
    if (a.id == ATTU_TYPE_TEXT && b.id == ATTU_TYPE_TEXT && (a.scale == 16 + ATTU_TYPE_TEXT + 128 * 7 ||
                                                             b.scale == 16 + ATTU_TYPE_TEXT + 128 * 7))
        return a.scale == b.scale && a.precision == b.precision;
    /* (and its scale 8 jsonpath, 9 .. 14 a range type: ATTU_RANGE_SCALE_BASE) */
    if (a.id == ATTU_TYPE_TEXT && b.id == ATTU_TYPE_TEXT && (a.scale >= 16 || b.scale >= 16 || (a.scale >= 3 && a.scale <= 6) ||
                                                             (b.scale >= 3 && b.scale <= 6) || (a.scale >= 8 && a.scale <= 14) ||
                                                             (b.scale >= 8 && b.scale <= 14)))
        return a.scale == b.scale;
    return a.id == b.id && (a.id != ATTU_TYPE_DECIMAL ||
                            (a.precision == b.precision && a.scale == b.scale));
}

/* char(n) / character(n), PostgreSQL's bpchar with a length: a TEXT whose
 * precision is n and whose scale is 1 (varchar(n) has scale 0).
 *
 * A char(n) value is stored WITHOUT its trailing spaces, and padded to n
 * characters only where it is shown (attu_column_format: the wire, COPY TO)
 * or where PostgreSQL reads the padded bytes (octet_length, LIKE, concat).
 * PostgreSQL compares, groups, hashes and orders bpchar values with the
 * trailing spaces ignored, so the stripped bytes are exactly the key those
 * operations need: the sorted dictionary, and with it every compare, sort,
 * join and GROUP BY on int32 codes (the GPU backend's included), and the
 * casts to text and varchar (which strip the spaces) are right with no
 * change to how TEXT columns are stored or compared. Storing the padded
 * bytes instead would order 'a\t' before 'a' (a tab sorts below the pad)
 * and would make 'a'::char(3) and 'a'::char(5) different codes. */
static inline int attu_type_is_bpchar(attu_type t) {
    return t.id == ATTU_TYPE_TEXT && t.scale == 1 && t.precision > 0;
}

/* bpchar with or without a length. Without one (precision 0: a cast to
 * bpchar, a CASE or UNION mixing char(n) of different lengths or with a
 * string literal, a bpchar parameter) the values are kept as they are,
 * trailing spaces included, so they show as PostgreSQL shows them; the
 * binder strips the spaces where PostgreSQL ignores them (comparisons,
 * casts to text, and the keys of GROUP BY, DISTINCT, DISTINCT ON,
 * count(DISTINCT), PARTITION BY, ORDER BY, string_agg, and the duplicate
 * removal of the set operations and a recursive UNION: planner bpchar_key,
 * keyed_arm; min / max: bpchar_order_code; the ordered-set aggregates'
 * sort key: osa_key). */
static inline int attu_type_is_bpchar_any(attu_type t) {
    return t.id == ATTU_TYPE_TEXT && t.scale == 1;
}
static inline attu_type attu_type_bpchar_unbounded(void) {
    attu_type t = { ATTU_TYPE_TEXT, 0, 1, 0 };
    return t;
}

/* varchar(n) / character varying(n), and varchar without a length: a TEXT
 * whose scale is 0 and whose precision is n, or -1 without a length
 * (precision 0 is text). Its values are kept and compared exactly as
 * text's (PostgreSQL has no varchar operators: varchar = varchar is
 * texteq); what differs is what clients are told (OID 1043, the typmod
 * n + 4, pg_typeof "character varying"), the assignment limit of
 * varchar(n) (22001), and the one place PostgreSQL reads a varchar
 * otherwise than a text: beside a char(n), where it becomes bpchar and
 * loses its trailing spaces (planner/varchar_type.c says which operations
 * keep the type and which make text). */
static inline int attu_type_is_varchar_any(attu_type t) {
    return t.id == ATTU_TYPE_TEXT && t.scale == 0 && t.precision != 0;
}
static inline attu_type attu_type_varchar_unbounded(void) {
    attu_type t = { ATTU_TYPE_TEXT, -1, 0, 0 };
    return t;
}

/* record, PostgreSQL's anonymous row type: the value of a row constructor
 * or a whole-row reference (planner/row_value.c), kept as the text
 * record_out makes of it, in a TEXT whose scale is 2. It behaves as text
 * everywhere but in what clients and messages are told (OID 2249,
 * "record") and in a cast to text, which makes it plain text. */
#define ATTU_RECORD_SCALE 2
static inline int attu_type_is_record(attu_type t) {
    return t.id == ATTU_TYPE_TEXT && t.scale == ATTU_RECORD_SCALE;
}
static inline attu_type attu_type_record(void) {
    attu_type t = { ATTU_TYPE_TEXT, 0, ATTU_RECORD_SCALE, 0 };
    return t;
}

/* json and jsonb (engine/json.h): text in a TEXT whose scale is 3 (json,
 * the input as written) or 4 (jsonb, the canonical text). They are text to
 * storage, COPY and the wire; the binder keeps text operators off them and
 * compares, sorts, groups and joins jsonb by its key (ATTU_JS_KEY). */
#define ATTU_JSON_SCALE 3
#define ATTU_JSONB_SCALE 4
static inline int attu_type_is_json(attu_type t) { return t.id == ATTU_TYPE_TEXT && t.scale == ATTU_JSON_SCALE; }
static inline int attu_type_is_jsonb(attu_type t) { return t.id == ATTU_TYPE_TEXT && t.scale == ATTU_JSONB_SCALE; }
static inline int attu_type_is_json_any(attu_type t) { return attu_type_is_json(t) || attu_type_is_jsonb(t); }
static inline attu_type attu_type_json(int binary) {
    attu_type t = { ATTU_TYPE_TEXT, 0, (int16_t)(binary ? ATTU_JSONB_SCALE : ATTU_JSON_SCALE), 0 };
    return t;
}

/* uuid and bytea: a TEXT whose scale is 5 (uuid) or 6 (bytea) holding the
 * value's canonical text, whose byte order is PostgreSQL's order of the
 * type: uuid's lower-case hyphenated form (engine/uuid.h) orders as its 16
 * bytes, bytea's hex form "\x..." (engine/bytea.h, lower-case digits)
 * as its bytes, a shorter prefix first, and holds no NUL. So storage,
 * dictionaries, sorting, grouping and joins treat them as text on both
 * backends, while the binder keeps them apart from text (no implicit
 * cast: uuid = text is 42883, as PostgreSQL). */
#define ATTU_UUID_SCALE 5
#define ATTU_BYTEA_SCALE 6
static inline int attu_type_is_uuid(attu_type t) { return t.id == ATTU_TYPE_TEXT && t.scale == ATTU_UUID_SCALE; }
static inline int attu_type_is_bytea(attu_type t) { return t.id == ATTU_TYPE_TEXT && t.scale == ATTU_BYTEA_SCALE; }
static inline attu_type attu_type_uuid(void) {
    attu_type t = { ATTU_TYPE_TEXT, 0, ATTU_UUID_SCALE, 0 };
    return t;
}
static inline attu_type attu_type_bytea(void) {
    attu_type t = { ATTU_TYPE_TEXT, 0, ATTU_BYTEA_SCALE, 0 };
    return t;
}
/* Enum types (CREATE TYPE name AS ENUM, engine/enum_type.h): a TEXT whose
 * scale is 7 and whose precision is minus the type's id, holding each value's
 * image (its label's sort key, 0x01, the label), whose byte order is the
 * enum's declared order. Text to storage, dictionaries, sorts, groups and
 * joins (both backends); shown as its label (attu_column_format); kept
 * apart from text and from other enums by the binder. */
#define ATTU_ENUM_SCALE 7
static inline int attu_type_is_enum(attu_type t) { return t.id == ATTU_TYPE_TEXT && t.scale == ATTU_ENUM_SCALE; }
/* (the id is kept negated: a TEXT's positive precision is a length that
 * assignments enforce, varchar(n)'s and char(n)'s) */
static inline attu_type attu_type_enum(int id) {
    attu_type t = { ATTU_TYPE_TEXT, (int16_t)-id, ATTU_ENUM_SCALE, 0 };
    return t;
}
static inline int attu_type_enum_id(attu_type t) { return -t.precision; }

/* jsonpath (engine/jsonpath.h): a TEXT whose scale is 8 holding the path's
 * canonical text (jsonpath_out's), which the path functions parse again.
 * No operator compares it (PostgreSQL's jsonpath has none). */
#define ATTU_JSONPATH_SCALE 8
static inline int attu_type_is_jsonpath(attu_type t) { return t.id == ATTU_TYPE_TEXT && t.scale == ATTU_JSONPATH_SCALE; }
static inline attu_type attu_type_jsonpath(void) {
    attu_type t = { ATTU_TYPE_TEXT, 0, ATTU_JSONPATH_SCALE, 0 };
    return t;
}

/* The built-in range types (engine/range.h): a TEXT whose scale is
 * ATTU_RANGE_SCALE_BASE plus the range's kind (int4range .. tstzrange),
 * holding the value in an order-preserving encoding (range.h) whose byte
 * order is PostgreSQL's range order, so that storage, dictionaries,
 * sorts, groups, DISTINCT and joins treat them as text on both backends;
 * what reads the bounds (text in and out, the functions and operators)
 * runs on the host (ATTU_OP_RANGE). */
#define ATTU_RANGE_SCALE_BASE 9
typedef enum attu_range_kind {
    ATTU_RANGE_INT4 = 0, ATTU_RANGE_INT8, ATTU_RANGE_NUM, ATTU_RANGE_DATE, ATTU_RANGE_TS, ATTU_RANGE_TSTZ,
    ATTU_RANGE_KINDS_
} attu_range_kind;
static inline int attu_type_is_range(attu_type t) {
    return t.id == ATTU_TYPE_TEXT && t.scale >= ATTU_RANGE_SCALE_BASE && t.scale < ATTU_RANGE_SCALE_BASE + ATTU_RANGE_KINDS_;
}
static inline attu_type attu_type_range(attu_range_kind k) {
    attu_type t = { ATTU_TYPE_TEXT, 0, (int16_t)(ATTU_RANGE_SCALE_BASE + (int)k), 0 };
    return t;
}
static inline attu_range_kind attu_type_range_kind(attu_type t) { return (attu_range_kind)(t.scale - ATTU_RANGE_SCALE_BASE); }
/* The type of a range kind's bounds (its subtype). */
static inline attu_type attu_range_subtype(attu_range_kind k) {
    static const attu_type_id ids[ATTU_RANGE_KINDS_] = { ATTU_TYPE_INT32, ATTU_TYPE_INT64, ATTU_TYPE_NUMERIC,
                                                         ATTU_TYPE_DATE, ATTU_TYPE_TIMESTAMP, ATTU_TYPE_TIMESTAMPTZ };
    attu_type t = { ids[k], 0, 0, 0 };
    return t;
}

/* A TEXT-slot type of its own (json, jsonb, uuid, bytea, an enum,
 * jsonpath, a range): text to storage, COPY and the wire, never text to
 * operators and functions. */
static inline int attu_type_is_typed_text(attu_type t) {
    return (t.id == ATTU_TYPE_TEXT && t.scale >= ATTU_JSON_SCALE && t.scale <= ATTU_JSONPATH_SCALE) ||   /* (7: enums) */
           attu_type_is_range(t);
}

/* Arrays (engine/array.h), as PostgreSQL's int[] or text[]: a TEXT whose
 * scale is ATTU_ARRAY_SCALE_BASE plus the element's type id, plus
 * ATTU_ARRAY_BPCHAR for bpchar elements, and whose precision is the
 * element type's modifier: for text-like elements the length (0: text or
 * bpchar without one, -1: varchar without one, n: varchar(n) or char(n)),
 * for numeric elements ATTU_ARRAY_NUMERIC_MOD(p, s) (0: none), for
 * interval elements ATTU_ARRAY_INTERVAL_MOD(range, prec + 1) (0: none),
 * for enum elements the enum's own (minus its id: no modifier), else 0.
 * The value is a byte string in an order-preserving encoding
 * (engine/array.h), so that byte order is PostgreSQL's array order: an
 * array column is a dictionary of such strings like any TEXT column, and
 * every compare, sort, group, join and DISTINCT on codes or bytes (the
 * GPU's included) is already right; only what reads the elements
 * (subscripts, the array functions, text in and out) knows the encoding,
 * and it runs on the host (ATTU_OP_ARRAY). The modifier applies where a
 * value takes the type (casts, assignment, input: ATTU_ARR_TYPMOD); the
 * elements themselves are read as the unmodified type (a numeric(5,2)[]'s
 * as NUMERIC, a char(4)[]'s as bpchar, their padding kept in the array). */
#define ATTU_ARRAY_SCALE_BASE 16
#define ATTU_ARRAY_BPCHAR 64
/* arrays of json, jsonb, uuid, bytea (a TEXT-slot element type of its
 * own, attu_type_is_typed_text): the element's scale times this, above
 * the TEXT element's id (uuid[] is 16 + 7 + 5 * 128) */
#define ATTU_ARRAY_TYPED_TEXT 128
#define ATTU_ARRAY_NUMERIC_MOD(p, s) ((p) * 64 + (s))
/* an interval element's qualifier: its ATTU_IVF_* range bits (6) and its
 * precision plus one (0..7), as attu_type_interval keeps them */
#define ATTU_ARRAY_INTERVAL_MOD(range, prec1) ((range) * 8 + (prec1))
static inline int attu_type_is_array(attu_type t) {
    return t.id == ATTU_TYPE_TEXT && t.scale >= ATTU_ARRAY_SCALE_BASE;
}
static inline int attu_type_array_is_bpchar(attu_type t) {
    return attu_type_is_array(t) && ((t.scale - ATTU_ARRAY_SCALE_BASE) & ATTU_ARRAY_BPCHAR);
}
/* The type of the elements as they are kept and read: NUMERIC for
 * numeric(p,s) elements, bpchar without a length for char(n) elements,
 * varchar for varchar(n) elements (a length's n is not kept: that is
 * attu_type_array_elem_mod's). */
static inline attu_type attu_type_array_elem(attu_type t) {
    attu_type e = { (attu_type_id)((t.scale - ATTU_ARRAY_SCALE_BASE) & (ATTU_ARRAY_BPCHAR - 1)), 0, 0, 0 };
    if (e.id == ATTU_TYPE_TEXT && (t.scale - ATTU_ARRAY_SCALE_BASE) >= ATTU_ARRAY_TYPED_TEXT) {
        e.scale = (int16_t)((t.scale - ATTU_ARRAY_SCALE_BASE) / ATTU_ARRAY_TYPED_TEXT);
        if (e.scale == ATTU_ENUM_SCALE) e.precision = t.precision;   /* the enum's id, negated */
    } else if (e.id == ATTU_TYPE_TEXT && attu_type_array_is_bpchar(t)) e.scale = 1;
    else if (e.id == ATTU_TYPE_TEXT) e.precision = t.precision > 0 ? -1 : t.precision;
    return e;
}
/* The element type with its modifier (char(4), varchar(3), numeric(5,2)
 * as DECIMAL(5,2)), what the array's elements are brought to. */
static inline attu_type attu_type_array_elem_mod(attu_type t) {
    attu_type e = attu_type_array_elem(t);
    if (e.id == ATTU_TYPE_TEXT && t.precision > 0) e.precision = t.precision;
    if (e.id == ATTU_TYPE_INTERVAL && t.precision > 0) {
        e.precision = (int16_t)(t.precision / ATTU_ARRAY_INTERVAL_MOD(1, 0));
        e.scale = (int16_t)(t.precision % ATTU_ARRAY_INTERVAL_MOD(1, 0));
    }
    if (e.id == ATTU_TYPE_NUMERIC && t.precision > 0) {
        e.id = ATTU_TYPE_DECIMAL;
        e.precision = (int16_t)(t.precision / 64);
        e.scale = (int16_t)(t.precision % 64);
    }
    return e;
}
/* An array type whose elements have a modifier to apply. */
static inline int attu_type_array_has_mod(attu_type t) {
    return attu_type_is_array(t) && t.precision > 0;
}
/* The array type of elements of type e (DECIMAL elements are NUMERIC's;
 * char(n) and varchar(n) elements keep no length: PostgreSQL's
 * ARRAY[c] of a char(4) c is character[]). */
static inline attu_type attu_type_array_of(attu_type e) {
    attu_type t = { ATTU_TYPE_TEXT, 0, 0, 0 };
    if (e.id == ATTU_TYPE_DECIMAL) e.id = ATTU_TYPE_NUMERIC;
    t.scale = (int16_t)(ATTU_ARRAY_SCALE_BASE + e.id);
    if (e.id == ATTU_TYPE_TEXT && e.scale == 1) t.scale = (int16_t)(t.scale + ATTU_ARRAY_BPCHAR);
    else if (attu_type_is_typed_text(e)) {
        t.scale = (int16_t)(t.scale + ATTU_ARRAY_TYPED_TEXT * e.scale);
        if (e.scale == ATTU_ENUM_SCALE) t.precision = e.precision;   /* which enum (negative: no modifier) */
    } else if (e.id == ATTU_TYPE_TEXT && e.precision != 0) t.precision = -1;
    return t;
}
/* The array type of e keeping e's modifier (a declared char(4)[],
 * numeric(5,2)[]; a DECIMAL's, given mod_numeric: a bare numeric[] is
 * read by attu_type_from_name as DECIMAL with attu's default, no modifier). */
static inline attu_type attu_type_array_of_mod(attu_type e, int mod_numeric) {
    attu_type t = attu_type_array_of(e);
    if (e.id == ATTU_TYPE_TEXT && e.precision > 0) t.precision = e.precision;
    if (e.id == ATTU_TYPE_DECIMAL && mod_numeric) t.precision = (int16_t)ATTU_ARRAY_NUMERIC_MOD(e.precision, e.scale);
    if (e.id == ATTU_TYPE_INTERVAL) t.precision = (int16_t)ATTU_ARRAY_INTERVAL_MOD(e.precision, e.scale);
    return t;
}
/* t, an interval[] type name's, given the element qualifier written with
 * it (interval hour to minute[], interval(0)[]: the grammar keeps the
 * fields and the precision beside the name); any other t as it is. */
static inline attu_type attu_type_array_interval_qualified(attu_type t, int ivrange, int prec) {
    if (attu_type_is_array(t) && attu_type_array_elem(t).id == ATTU_TYPE_INTERVAL && (ivrange || prec >= 0))
        t.precision = (int16_t)ATTU_ARRAY_INTERVAL_MOD(ivrange, prec < 0 ? 0 : prec + 1);
    return t;
}
/* An array whose values show more than their keys (a numeric's scale, a
 * float's -0, a bpchar's trailing blanks: engine/array.h), so what
 * compares them for equality reads the keys (the planner's ATTU_ARR_KEY). */
static inline int attu_type_array_shows(attu_type t) {
    if (!attu_type_is_array(t)) return 0;
    if (attu_type_array_is_bpchar(t)) return 1;
    if (attu_type_is_json_any(attu_type_array_elem(t))) return 1;   /* jsonb's order is its key's (json has none) */
    attu_type_id e = attu_type_array_elem(t).id;
    return e == ATTU_TYPE_NUMERIC || e == ATTU_TYPE_FLOAT32 || e == ATTU_TYPE_FLOAT64 || e == ATTU_TYPE_INTERVAL;
}

/* Two array types of the same element type and modifier (attu_type_equal
 * does not look at a TEXT's modifiers). */
static inline int attu_type_array_same(attu_type a, attu_type b) {
    if (a.id != b.id || a.scale != b.scale) return 0;
    if (attu_type_is_enum(attu_type_array_elem(a))) return a.precision == b.precision;   /* the same enum */
    if (attu_type_array_elem(a).id == ATTU_TYPE_TEXT && !attu_type_array_is_bpchar(a) &&
        a.precision <= 0 && b.precision <= 0)
        return (a.precision != 0) == (b.precision != 0);
    return a.precision == b.precision;
}

/* interval with a field qualifier or a precision (a column's
 * interval day to second(2), hour, (3)), kept in the type as varchar(n)
 * keeps its n: precision holds the ATTU_IVF_* bits of its fields (0: none
 * written; engine/interval.h), scale its fractional-second digits plus one
 * (0: none written). The values are the same 16 bytes whatever the
 * modifier; it applies where a value is assigned to a column (INSERT,
 * UPDATE, COPY: engine/interval.h's attu_interval_qualify, and text read
 * by the fields, attu_value_parse), and shows in DESCRIBE and in
 * RowDescription's typmod. */
static inline attu_type attu_type_interval(int range, int prec) {
    attu_type t = { ATTU_TYPE_INTERVAL, (int16_t)range, (int16_t)(prec < 0 ? 0 : prec + 1), 0 };
    return t;
}
static inline int attu_type_is_qualified_interval(attu_type t) {
    return t.id == ATTU_TYPE_INTERVAL && (t.precision != 0 || t.scale != 0);
}
static inline int attu_type_interval_range(attu_type t) { return t.id == ATTU_TYPE_INTERVAL ? t.precision : 0; }
static inline int attu_type_interval_prec(attu_type t) { return t.id == ATTU_TYPE_INTERVAL ? t.scale - 1 : -1; }

/* PostgreSQL's atttypmod of an interval type: (range << 16) | precision,
 * its range bits MONTH 2, YEAR 4, DAY 8, HOUR 1024, MINUTE 2048, SECOND
 * 4096 (0x7FFF: no fields written), its precision 0xFFFF where none was
 * written; -1 for a plain interval. Inline: the wire's encoder links no
 * engine code. */
static inline int32_t attu_type_interval_typmod(attu_type t) {
    if (!attu_type_is_qualified_interval(t)) return -1;
    static const int pg_bits[6] = { 4, 2, 8, 1024, 2048, 4096 };   /* YEAR .. SECOND, attu's bit order */
    int range = attu_type_interval_range(t), prec = attu_type_interval_prec(t), pg = 0;
    for (int i = 0; i < 6; i++)
        if (range & (1 << i)) pg |= pg_bits[i];
    if (!range) pg = 0x7FFF;
    return (int32_t)(((uint32_t)pg << 16) | (uint32_t)(prec < 0 ? 0xFFFF : prec));
}

/* The interval type as PostgreSQL's format_type prints it with its
 * typmod: "interval day to second(2)", "interval hour", "interval(3)". */
const char *attu_type_interval_name(attu_type t, char *buf, size_t cap);

/* Bytes of one slot (1, 4, 8, or 16 for NUMERIC and INTERVAL; 4 for SMALLINT). */
size_t attu_type_width(attu_type_id id);

/* The 16-byte types, NUMERIC and INTERVAL: a register of an expression
 * program points at the value's slot (engine/expr_program.h), and sorts,
 * groups and joins compare them through images (executor_keys.c). */
static inline int attu_type_is_wide(attu_type_id id) {
    return id == ATTU_TYPE_NUMERIC || id == ATTU_TYPE_INTERVAL;
}

/* TIMESTAMP or TIMESTAMPTZ: the same int64 slot, compared, sorted,
 * grouped and joined alike (only the conversions that need a zone differ). */
static inline int attu_type_is_ts_any(attu_type_id id) {
    return id == ATTU_TYPE_TIMESTAMP || id == ATTU_TYPE_TIMESTAMPTZ;
}

/* The date/time types whose slot is a plain int64 that orders as its
 * values do: TIMESTAMP, TIMESTAMPTZ, TIME and TIMETZ. Sorts, keys,
 * partitions and joins handle them as BIGINT. */
static inline int attu_type_is_int64_datetime(attu_type_id id) {
    return id == ATTU_TYPE_TIMESTAMP || id == ATTU_TYPE_TIMESTAMPTZ || id == ATTU_TYPE_TIME || id == ATTU_TYPE_TIMETZ;
}

/* The integer types, SMALLINT, INTEGER and BIGINT. */
static inline int attu_type_is_int(attu_type_id id) {
    return id == ATTU_TYPE_INT16 || id == ATTU_TYPE_INT32 || id == ATTU_TYPE_INT64;
}

/* The type whose slots a backend handles for id: SMALLINT's values lie in
 * INTEGER slots, so sorts, keys, gathers and reducers treat it as INTEGER
 * (its range is enforced where values enter it, never in the backends). */
static inline attu_type_id attu_type_storage(attu_type_id id) {
    return id == ATTU_TYPE_INT16 ? ATTU_TYPE_INT32 : id;
}

/* SQL spelling as PostgreSQL prints it: "integer", "text", "numeric(12,2)". */
const char *attu_type_name(attu_type t, char *buf, size_t cap);

/* The OID sent to clients (NUMERIC for DECIMAL, TEXT for TEXT, VARCHAR
 * for varchar with or without a length, BPCHAR for char(n)). */
uint32_t attu_type_pg_oid(attu_type t);

/* A statement parameter's type as PostgreSQL keeps it: without a modifier
 * (varchar for varchar(n), bpchar for char(n), numeric for numeric(p,s)),
 * so any value of the family binds to it. */
attu_type attu_type_param_plain(attu_type t);

/* typlen as RowDescription wants it (-1 for variable width). */
int16_t attu_type_pg_len(attu_type t);

/* Resolves a type name as written in SQL (case-insensitive: int, int4,
 * integer, smallint, int2, bigint, int8, real, float4, float8,
 * double precision, float, numeric, decimal, text, varchar, char,
 * character varying, bool, boolean, date, timestamp,
 * timestamp without time zone, interval). precision/scale are -1 when not written.
 * Returns 0, or -1 with 42704 "type \"x\" does not exist". */
int attu_type_from_name(const char *name, int precision, int scale,
                        attu_type *out, attu_error *err);

/*
 * Text <-> slot conversions, shared by the CSV reader, casts, literals and
 * the wire. They follow PostgreSQL's input and output functions: whitespace
 * around numbers is allowed on input, booleans accept t/f/true/false/yes/no/
 * on/off/1/0, floats print shortest round-trip ("0.1", "1e+100",
 * "Infinity", "NaN"), DECIMAL prints exactly `scale` digits, DATE prints
 * YYYY-MM-DD, TIMESTAMP prints YYYY-MM-DD HH:MM:SS[.ffffff] under the
 * default DateStyle, and in the calling thread's DateStyle otherwise
 * (engine/datestyle.h: SQL, Postgres, German). DATE and TIMESTAMP read
 * every form PostgreSQL reads ("Feb 3 2001", "03/02/2001",
 * "20010203T040506"; engine/datetime_input.h), an ambiguous numeric date
 * in the thread's DateStyle order (MDY, DMY, YMD).
 *
 * attu_value_parse writes one slot of attu_type_width(t.id) bytes into out.
 * TEXT is not handled here (it goes through a dictionary). On failure it
 * sets 22P02 (bad syntax), 22003 (out of range) or 22007/22008 (dates) with a
 * PostgreSQL-style message such as
 *   invalid input syntax for type integer: "abc"
 *   value "99999999999" is out of range for type integer
 */
int attu_value_parse(attu_type t, const char *text, size_t len, void *out,
                     attu_error *err);

/* Formats one slot; returns the length written (excluding NUL), truncating
 * to cap-1. 80 bytes are always enough for non-TEXT types (64 for all but
 * the widest intervals). INTERVAL prints in PostgreSQL's default
 * IntervalStyle, postgres ("1 year 2 mons 3 days 04:05:06.5"). */
size_t attu_value_format(attu_type t, const void *slot, char *buf, size_t cap);

/* TIMESTAMPTZ text in and out under a given zone (struct attu_tz,
 * engine/timezone.h; NULL: UTC). attu_value_parse and attu_value_format
 * use the calling thread's session zone (attu_tz_session). Output is in
 * the thread's DateStyle: ISO "2024-03-01 12:00:00+02", "+05:30",
 * "-04:56:02"; the other styles print the zone's abbreviation
 * ("03/01/2024 12:00:00 EET"), or the offset where it has none. */
struct attu_tz;
int attu_timestamptz_parse(const char *text, size_t len, const struct attu_tz *zone, int64_t *out,
                           attu_error *err);
size_t attu_timestamptz_format(int64_t utc_us, const struct attu_tz *zone, char *buf, size_t cap);

/* PostgreSQL's date range in days from 1970-01-01 (4714-11-24 BC ..
 * 5874897-12-31); INT32_MIN and INT32_MAX stand for -infinity/infinity. */
#define ATTU_DATE_MIN_DAYS (-2440588)
#define ATTU_DATE_MAX_DAYS 2145042905

/* Calendar helpers (proleptic Gregorian, as PostgreSQL). */
int32_t attu_date_from_ymd(int year, int month, int day);
void    attu_date_to_ymd(int32_t days, int *year, int *month, int *day);
/* The days of month (1..12) of year (astronomical: 0 is 1 BC). */
int     attu_days_in_month(int year, int month);

#endif
