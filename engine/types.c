/*
 * types.c - SQL type names and the text <-> slot conversions of types.h.
 *
 * The conversions follow PostgreSQL 15's input and output functions, since
 * clients compare attu's output with PostgreSQL's byte for byte:
 *
 *   - integers: optional surrounding whitespace and sign, decimal digits;
 *   - booleans: any unique prefix of true/false/yes/no, on/off, 1/0;
 *   - floats: input through an exact fast path (Clinger: at most 15
 *     significant digits and a power of ten that is itself exact) or strtod,
 *     which is correctly rounded; output is the shortest string that reads
 *     back to the same value, laid out like PostgreSQL's Ryu output
 *     (fixed notation for decimal exponents -4..14 (float8) or -4..5
 *     (float4), else d.ddde+XX);
 *   - DECIMAL(p,s): scaled int64, input rounded half away from zero to s
 *     digits, output with exactly s digits;
 *   - DATE / TIMESTAMP: ISO 8601 (YYYY-MM-DD[ HH:MM:SS[.ffffff]]), "BC"
 *     suffix for years before 1, 'infinity' and '-infinity'.
 */
#include "engine/types.h"
#include "engine/range.h"
#include "engine/domain_type.h"
#include "engine/enum_type.h"
#include "engine/timezone.h"
#include "engine/datestyle.h"
#include "engine/time_of_day.h"
#include "engine/numeric.h"
#include "engine/datetime_input.h"
#include "engine/interval.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

size_t attu_type_width(attu_type_id id) {
    switch (id) {
    case ATTU_TYPE_BOOL: return 1;
    case ATTU_TYPE_INT16:
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_FLOAT32:
    case ATTU_TYPE_TEXT:
    case ATTU_TYPE_DATE: return 4;
    case ATTU_TYPE_INT64:
    case ATTU_TYPE_FLOAT64:
    case ATTU_TYPE_DECIMAL:
    case ATTU_TYPE_TIMESTAMP:
    case ATTU_TYPE_TIMESTAMPTZ:
    case ATTU_TYPE_TIME:
    case ATTU_TYPE_TIMETZ: return 8;
    case ATTU_TYPE_NUMERIC:
    case ATTU_TYPE_INTERVAL: return 16;
    default: return 1;   /* UNKNOWN: a slot that is always NULL */
    }
}

const char *attu_type_name(attu_type t, char *buf, size_t cap) {
    const char *s;
    if (attu_type_is_array(t)) {   /* format_type: the element's name and [] */
        char eb[64];
        snprintf(buf, cap, "%s[]", attu_type_name(attu_type_array_elem(t), eb, sizeof eb));
        return buf;
    }
    switch (t.id) {
    case ATTU_TYPE_BOOL: s = "boolean"; break;
    case ATTU_TYPE_INT16: s = "smallint"; break;
    case ATTU_TYPE_INT32: s = "integer"; break;
    case ATTU_TYPE_INT64: s = "bigint"; break;
    case ATTU_TYPE_FLOAT32: s = "real"; break;
    case ATTU_TYPE_FLOAT64: s = "double precision"; break;
    case ATTU_TYPE_DECIMAL:
        /* (a DECIMAL holding a numeric of no typmod is PostgreSQL's numeric) */
        if (t.no_typmod) { s = "numeric"; break; }
        snprintf(buf, cap, "numeric(%d,%d)", t.precision, t.scale);
        return buf;
    case ATTU_TYPE_NUMERIC: s = "numeric"; break;
    case ATTU_TYPE_TEXT:   /* as PostgreSQL's format_type_be, without the length */
        if (attu_type_is_enum(t)) return attu_enum_name(attu_type_enum_id(t), buf, cap);
        if (attu_type_is_range(t)) { s = attu_range_kind_name(attu_type_range_kind(t)); break; }
        s = t.scale == 1 ? "character" : attu_type_is_record(t) ? "record" : attu_type_is_json(t) ? "json"
            : attu_type_is_jsonb(t) ? "jsonb" : attu_type_is_uuid(t) ? "uuid" : attu_type_is_bytea(t) ? "bytea"
            : attu_type_is_jsonpath(t) ? "jsonpath"
            : attu_type_is_varchar_any(t) ? "character varying" : "text";
        break;
    case ATTU_TYPE_DATE: s = "date"; break;
    case ATTU_TYPE_TIMESTAMP: s = "timestamp without time zone"; break;
    case ATTU_TYPE_TIMESTAMPTZ: s = "timestamp with time zone"; break;
    case ATTU_TYPE_TIME: s = "time without time zone"; break;
    case ATTU_TYPE_TIMETZ: s = "time with time zone"; break;
    case ATTU_TYPE_INTERVAL: s = "interval"; break;
    default: s = "unknown"; break;
    }
    snprintf(buf, cap, "%s", s);
    return buf;
}

const char *attu_type_interval_name(attu_type t, char *buf, size_t cap) {
    static const char *const words[6] = { "year", "month", "day", "hour", "minute", "second" };
    int range = attu_type_interval_range(t), prec = attu_type_interval_prec(t), first = -1, last = -1;
    for (int i = 0; i < 6; i++)
        if (range & (1 << i)) { if (first < 0) first = i; last = i; }
    size_t n = (size_t)snprintf(buf, cap, "interval");
    if (first >= 0 && n < cap) n += (size_t)snprintf(buf + n, cap - n, " %s", words[first]);
    if (last > first && n < cap) n += (size_t)snprintf(buf + n, cap - n, " to %s", words[last]);
    if (prec >= 0 && n < cap) snprintf(buf + n, cap - n, "(%d)", prec);
    return buf;
}

attu_type attu_type_param_plain(attu_type t) {
    /* char(n) without its length is bpchar, which keeps a value as sent
     * and compares it without its trailing spaces (types.h) */
    if (attu_type_is_bpchar_any(t)) return attu_type_bpchar_unbounded();
    /* varchar(n) without its length is varchar, described as OID 1043 */
    if (attu_type_is_varchar_any(t)) return attu_type_varchar_unbounded();
    if (attu_type_is_array(t)) return attu_type_array_of(attu_type_array_elem(t));   /* without its element's modifier */
    if (attu_type_is_typed_text(t)) return t;   /* json, jsonb, uuid, bytea stay themselves */
    if (t.id == ATTU_TYPE_TEXT) return attu_type_make(ATTU_TYPE_TEXT);
    /* NUMERIC keeps each value's own display scale */
    if (t.id == ATTU_TYPE_DECIMAL) return attu_type_make(ATTU_TYPE_NUMERIC);
    return t;
}

uint32_t attu_type_pg_oid(attu_type t) {
    if (attu_type_is_array(t)) {
        attu_type e = attu_type_array_elem(t);
        switch (e.id) {
        case ATTU_TYPE_BOOL: return ATTU_PG_OID_BOOL_ARRAY;
        case ATTU_TYPE_INT16: return ATTU_PG_OID_INT2_ARRAY;
        case ATTU_TYPE_INT32: return ATTU_PG_OID_INT4_ARRAY;
        case ATTU_TYPE_INT64: return ATTU_PG_OID_INT8_ARRAY;
        case ATTU_TYPE_FLOAT32: return ATTU_PG_OID_FLOAT4_ARRAY;
        case ATTU_TYPE_FLOAT64: return ATTU_PG_OID_FLOAT8_ARRAY;
        case ATTU_TYPE_NUMERIC: return ATTU_PG_OID_NUMERIC_ARRAY;
        case ATTU_TYPE_TEXT:
            if (attu_type_is_enum(e)) return attu_enum_array_oid(attu_type_enum_id(e));
            return attu_type_is_bpchar_any(e) ? ATTU_PG_OID_BPCHAR_ARRAY
                   : attu_type_is_json(e)     ? ATTU_PG_OID_JSON_ARRAY
                   : attu_type_is_jsonb(e)    ? ATTU_PG_OID_JSONB_ARRAY
                   : attu_type_is_uuid(e)     ? ATTU_PG_OID_UUID_ARRAY
                   : attu_type_is_bytea(e)    ? ATTU_PG_OID_BYTEA_ARRAY
                   : attu_type_is_jsonpath(e) ? ATTU_PG_OID_JSONPATH_ARRAY
                   : e.precision              ? ATTU_PG_OID_VARCHAR_ARRAY
                                              : ATTU_PG_OID_TEXT_ARRAY;
        case ATTU_TYPE_DATE: return ATTU_PG_OID_DATE_ARRAY;
        case ATTU_TYPE_TIMESTAMP: return ATTU_PG_OID_TIMESTAMP_ARRAY;
        case ATTU_TYPE_TIMESTAMPTZ: return ATTU_PG_OID_TIMESTAMPTZ_ARRAY;
        /* time[] and timetz[] (arrays of the time types, which came in
         * beside the arrays, were told to clients as unknown, 705) */
        case ATTU_TYPE_TIME: return ATTU_PG_OID_TIME_ARRAY;
        case ATTU_TYPE_TIMETZ: return ATTU_PG_OID_TIMETZ_ARRAY;
        case ATTU_TYPE_INTERVAL: return ATTU_PG_OID_INTERVAL_ARRAY;
        default: return ATTU_PG_OID_UNKNOWN;
        }
    }
    switch (t.id) {
    case ATTU_TYPE_BOOL: return ATTU_PG_OID_BOOL;
    case ATTU_TYPE_INT16: return ATTU_PG_OID_INT2;
    case ATTU_TYPE_INT32: return ATTU_PG_OID_INT4;
    case ATTU_TYPE_INT64: return ATTU_PG_OID_INT8;
    case ATTU_TYPE_FLOAT32: return ATTU_PG_OID_FLOAT4;
    case ATTU_TYPE_FLOAT64: return ATTU_PG_OID_FLOAT8;
    case ATTU_TYPE_DECIMAL: case ATTU_TYPE_NUMERIC: return ATTU_PG_OID_NUMERIC;
    case ATTU_TYPE_TEXT:
        if (attu_type_is_enum(t)) return attu_enum_oid(attu_type_enum_id(t));
        if (attu_type_is_range(t)) {
            static const uint32_t oids[ATTU_RANGE_KINDS_] = { ATTU_PG_OID_INT4RANGE, ATTU_PG_OID_INT8RANGE,
                                                              ATTU_PG_OID_NUMRANGE,  ATTU_PG_OID_DATERANGE,
                                                              ATTU_PG_OID_TSRANGE,   ATTU_PG_OID_TSTZRANGE };
            return oids[attu_type_range_kind(t)];
        }
        return attu_type_is_bpchar_any(t) ? ATTU_PG_OID_BPCHAR : attu_type_is_varchar_any(t) ? ATTU_PG_OID_VARCHAR
               : attu_type_is_record(t) ? ATTU_PG_OID_RECORD : attu_type_is_json(t) ? ATTU_PG_OID_JSON
               : attu_type_is_jsonb(t) ? ATTU_PG_OID_JSONB : attu_type_is_uuid(t) ? ATTU_PG_OID_UUID
               : attu_type_is_bytea(t) ? ATTU_PG_OID_BYTEA : attu_type_is_jsonpath(t) ? ATTU_PG_OID_JSONPATH
               : ATTU_PG_OID_TEXT;
    case ATTU_TYPE_DATE: return ATTU_PG_OID_DATE;
    case ATTU_TYPE_TIMESTAMP: return ATTU_PG_OID_TIMESTAMP;
    case ATTU_TYPE_TIMESTAMPTZ: return ATTU_PG_OID_TIMESTAMPTZ;
    case ATTU_TYPE_TIME: return ATTU_PG_OID_TIME;
    case ATTU_TYPE_TIMETZ: return ATTU_PG_OID_TIMETZ;
    case ATTU_TYPE_INTERVAL: return ATTU_PG_OID_INTERVAL;
    default: return ATTU_PG_OID_UNKNOWN;
    }
}

int16_t attu_type_pg_len(attu_type t) {
    if (attu_type_is_uuid(t)) return 16;   /* uuid's typlen: a fixed 16 bytes */
    switch (t.id) {
    case ATTU_TYPE_BOOL: return 1;
    case ATTU_TYPE_INT16: return 2;
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_FLOAT32:
    case ATTU_TYPE_DATE: return 4;
    case ATTU_TYPE_INT64:
    case ATTU_TYPE_FLOAT64:
    case ATTU_TYPE_TIMESTAMP:
    case ATTU_TYPE_TIMESTAMPTZ:
    case ATTU_TYPE_TIME: return 8;
    case ATTU_TYPE_TIMETZ: return 12;
    case ATTU_TYPE_INTERVAL: return 16;
    case ATTU_TYPE_UNKNOWN: return -2;   /* PostgreSQL's unknown is a C string */
    default: return -1;
    }
}

/* ---- type names ---------------------------------------------------------- */

/* Lower-cases name into buf and collapses runs of whitespace to one space,
 * so "DOUBLE   PRECISION" matches "double precision". */
static void normalize_name(const char *name, char *buf, size_t cap) {
    size_t n = 0;
    int space = 0;
    while (*name && isspace((unsigned char)*name)) name++;
    for (; *name && n + 1 < cap; name++) {
        unsigned char c = (unsigned char)*name;
        if (isspace(c)) { space = 1; continue; }
        if (space && n + 1 < cap) buf[n++] = ' ';
        space = 0;
        buf[n++] = (char)tolower(c);
    }
    buf[n] = '\0';
}

/* numeric without (p,s) read as a DECIMAL: the callers that know what it
 * names replace it (a table column is the wide NUMERIC: db/db_ddl.c
 * db_column_type; a cast follows its operand: binder_expr.c bind_cast;
 * a PREPARE parameter drops the modifier), so this scale is a placeholder. */
#define ATTU_NUMERIC_DEFAULT_PRECISION 18
#define ATTU_NUMERIC_DEFAULT_SCALE     6

int attu_type_from_name(const char *name, int precision, int scale,
                        attu_type *out, attu_error *err) {
    static const struct { const char *name; attu_type_id id; } names[] = {
        {"int", ATTU_TYPE_INT32}, {"int4", ATTU_TYPE_INT32},
        {"integer", ATTU_TYPE_INT32}, {"smallint", ATTU_TYPE_INT16},
        {"int2", ATTU_TYPE_INT16}, {"bigint", ATTU_TYPE_INT64},
        {"int8", ATTU_TYPE_INT64}, {"real", ATTU_TYPE_FLOAT32},
        {"float4", ATTU_TYPE_FLOAT32}, {"float8", ATTU_TYPE_FLOAT64},
        {"double precision", ATTU_TYPE_FLOAT64}, {"float", ATTU_TYPE_FLOAT64},
        {"numeric", ATTU_TYPE_DECIMAL}, {"decimal", ATTU_TYPE_DECIMAL},
        {"text", ATTU_TYPE_TEXT}, {"varchar", ATTU_TYPE_TEXT},
        {"char", ATTU_TYPE_TEXT}, {"character", ATTU_TYPE_TEXT},
        {"character varying", ATTU_TYPE_TEXT}, {"bpchar", ATTU_TYPE_TEXT},
        {"bool", ATTU_TYPE_BOOL}, {"boolean", ATTU_TYPE_BOOL},
        {"date", ATTU_TYPE_DATE}, {"timestamp", ATTU_TYPE_TIMESTAMP},
        {"timestamp without time zone", ATTU_TYPE_TIMESTAMP},
        {"timestamptz", ATTU_TYPE_TIMESTAMPTZ}, {"timestamp with time zone", ATTU_TYPE_TIMESTAMPTZ},
        {"interval", ATTU_TYPE_INTERVAL},
        {"time", ATTU_TYPE_TIME}, {"time without time zone", ATTU_TYPE_TIME},
        {"json", ATTU_TYPE_TEXT}, {"jsonb", ATTU_TYPE_TEXT}, {"uuid", ATTU_TYPE_TEXT}, {"bytea", ATTU_TYPE_TEXT},
        {"jsonpath", ATTU_TYPE_TEXT},
        {"timetz", ATTU_TYPE_TIMETZ}, {"time with time zone", ATTU_TYPE_TIMETZ},
    };
    char buf[64];
    normalize_name(name ? name : "", buf, sizeof buf);
    {
        /* arrays: "integer[]" (int[], int[3], int ARRAY: the grammar
         * appends the brackets) and PostgreSQL's own names, _int4 ... */
        static const struct { const char *name; const char *elem; } internal[] = {
            {"_int2", "int2"}, {"_int4", "int4"}, {"_int8", "int8"}, {"_float4", "float4"},
            {"_float8", "float8"}, {"_numeric", "numeric"}, {"_text", "text"}, {"_varchar", "varchar"},
            {"_bool", "bool"}, {"_bpchar", "bpchar"}, {"_json", "json"}, {"_jsonb", "jsonb"}, {"_uuid", "uuid"}, {"_bytea", "bytea"}, {"_date", "date"}, {"_timestamp", "timestamp"}, {"_timestamptz", "timestamptz"},
        };
        size_t bl = strlen(buf);
        const char *elem = NULL;
        char eb[64];
        if (bl > 2 && !strcmp(buf + bl - 2, "[]")) {
            memcpy(eb, buf, bl - 2);
            eb[bl - 2] = 0;
            while (bl - 2 > 0 && eb[strlen(eb) - 1] == ' ') eb[strlen(eb) - 1] = 0;
            elem = eb;
        }
        for (size_t i = 0; !elem && i < sizeof internal / sizeof internal[0]; i++)
            if (!strcmp(buf, internal[i].name)) elem = internal[i].elem;
        if (elem) {
            attu_type e;
            if (attu_type_from_name(elem, precision, scale, &e, err)) return -1;
            if (attu_type_is_array(e)) { *out = e; return 0; }   /* int[][] is int[], as PostgreSQL */
            if (attu_type_is_range(e))   /* (arrays of ranges are not kept: engine/range.h) */
                return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "arrays of %s are not supported",
                                      attu_range_kind_name(attu_type_range_kind(e)));
            /* the element's modifier is kept (char(4)[], numeric(5,2)[]);
             * a numeric written without one is attu's default DECIMAL,
             * which an array does not take */
            *out = attu_type_array_of_mod(e, precision >= 0);
            return 0;
        }
    }
    for (int k = 0; k < ATTU_RANGE_KINDS_; k++)
        if (!strcmp(buf, attu_range_kind_name((attu_range_kind)k))) { *out = attu_type_range((attu_range_kind)k); return 0; }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(buf, names[i].name) != 0) continue;
        attu_type_id id = names[i].id;
        if (id == ATTU_TYPE_FLOAT64 && strcmp(buf, "float") == 0 && precision > 0) {
            /* float(p): PostgreSQL picks real for p <= 24. */
            if (precision > 53)
                return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                                      "precision for type float must be less than 54 bits");
            if (precision <= 24) id = ATTU_TYPE_FLOAT32;
        }
        if (id == ATTU_TYPE_TEXT && (!strcmp(buf, "json") || !strcmp(buf, "jsonb"))) {
            *out = attu_type_json(!strcmp(buf, "jsonb"));
            return 0;
        }
        if (id == ATTU_TYPE_TEXT && !strcmp(buf, "jsonpath")) {
            *out = attu_type_jsonpath();
            return 0;
        }
        if (id == ATTU_TYPE_TEXT && (!strcmp(buf, "uuid") || !strcmp(buf, "bytea"))) {
            *out = !strcmp(buf, "uuid") ? attu_type_uuid() : attu_type_bytea();
            return 0;
        }
        if (id == ATTU_TYPE_TEXT && strcmp(buf, "text") != 0) {
            /* varchar(n) / char(n): TEXT with the length limit in precision
             * (0 = none) and scale 1 for char; char alone is char(1) */
            int is_char = !strcmp(buf, "char") || !strcmp(buf, "character") || !strcmp(buf, "bpchar");
            *out = attu_type_make(id);
            if (precision < 0 && is_char && strcmp(buf, "bpchar") != 0) precision = 1;
            if (precision < 0) {
                /* bpchar alone, varchar alone (types.h) */
                *out = is_char ? attu_type_bpchar_unbounded() : attu_type_varchar_unbounded();
                return 0;
            }
            if (precision < 1)
                return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "length for type %s must be at least 1",
                                      is_char ? "char" : "varchar");
            if (precision > 10485760)
                return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "length for type %s cannot exceed 10485760",
                                      is_char ? "char" : "varchar");
            out->precision = (int16_t)(precision > INT16_MAX ? INT16_MAX : precision);
            out->scale = (int16_t)is_char;
            return 0;
        }
        if (id != ATTU_TYPE_DECIMAL) {
            *out = attu_type_make(id);
            return 0;
        }
        if (precision < 0) {
            *out = attu_type_decimal(ATTU_NUMERIC_DEFAULT_PRECISION,
                                     ATTU_NUMERIC_DEFAULT_SCALE);
            return 0;
        }
        if (precision < 1)
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                                  "NUMERIC precision %d must be between 1 and 1000",
                                  precision);
        if (precision > ATTU_DECIMAL_MAX_PRECISION)
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                                  "NUMERIC precision %d exceeds attu's maximum of %d",
                                  precision, ATTU_DECIMAL_MAX_PRECISION);
        if (scale < 0) scale = 0;
        if (scale > precision)   /* PostgreSQL 15 allows it (numeric(2,3) holds 0.015) */
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                                  "NUMERIC scale %d above its precision %d is not supported",
                                  scale, precision);
        *out = attu_type_decimal(precision, scale);
        return 0;
    }
    {
        /* an enum type of the session's catalog (engine/enum_type.h),
         * by its name as written, then as folded */
        attu_enum_def *d = name ? attu_enum_find(name) : NULL;
        if (!d && name) d = attu_enum_find(buf);
        if (!d && name && !strncmp(buf, "public.", 7)) d = attu_enum_find(buf + 7);   /* (its schema) */
        if (d) {
            *out = attu_type_enum(d->id);
            attu_enum_def_free(d);
            return 0;
        }
    }
    {
        /* a domain: its base type (engine/domain_type.h; what the domain
         * adds is checked where values are written: db/db_domain_check.c) */
        attu_domain_def *d = name ? attu_domain_find(name) : NULL;
        if (!d && name) d = attu_domain_find(buf);
        if (!d && name && !strncmp(buf, "public.", 7)) d = attu_domain_find(buf + 7);
        if (d) {
            *out = d->base;
            attu_domain_def_free(d);
            return 0;
        }
    }
    return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0,
                          "type \"%s\" does not exist", name ? name : "");
}

/* ---- input helpers -------------------------------------------------------- */

static int is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Trims surrounding whitespace in place (pointer + length). */
static void trim(const char **s, size_t *len) {
    const char *p = *s, *e = *s + *len;
    while (p < e && is_space(*p)) p++;
    while (e > p && is_space(e[-1])) e--;
    *s = p;
    *len = (size_t)(e - p);
}

/* Quotes at most 200 bytes of the input in messages, so a huge bad field
 * does not drown the error. */
#define QUOTE_MAX 200
#define QUOTED(text, len) (int)((len) > QUOTE_MAX ? QUOTE_MAX : (len)), (text)

static int bad_syntax(attu_error *err, const char *tname, const char *text,
                      size_t len) {
    return attu_error_set(err, ATTU_SQLSTATE_INVALID_TEXT_REP, 0,
                          "invalid input syntax for type %s: \"%.*s\"", tname,
                          QUOTED(text, len));
}

/* Parses an optionally signed decimal integer; 0 ok, -1 syntax, -2 range. */
static int parse_int64(const char *s, size_t len, int64_t lo, int64_t hi,
                       int64_t *out) {
    trim(&s, &len);
    const char *p = s, *e = s + len;
    int neg = 0;
    if (p < e && (*p == '+' || *p == '-')) neg = (*p++ == '-');
    if (p == e) return -1;
    uint64_t v = 0;
    /* Accumulate as a negative-capable magnitude; 19 digits always fit in
     * uint64 without overflow checks, beyond that check each step. */
    int overflow = 0;
    for (; p < e; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (d > 9) return -1;
        if (v > (UINT64_MAX - d) / 10) overflow = 1;
        else v = v * 10 + d;
    }
    if (overflow) return -2;
    if (neg) {
        if (v > (uint64_t)INT64_MAX + 1) return -2;
        int64_t x = (v == (uint64_t)INT64_MAX + 1) ? INT64_MIN : -(int64_t)v;
        if (x < lo) return -2;
        *out = x;
    } else {
        if (v > (uint64_t)INT64_MAX || (int64_t)v > hi) return -2;
        *out = (int64_t)v;
    }
    return 0;
}

static int parse_bool(const char *s, size_t len, uint8_t *out) {
    trim(&s, &len);
    if (len == 0) return -1;
    char c = (char)tolower((unsigned char)s[0]);
    static const struct { const char *word; size_t min; uint8_t val; } words[] = {
        {"true", 1, 1}, {"false", 1, 0}, {"yes", 1, 1}, {"no", 1, 0},
        {"on", 2, 1}, {"off", 2, 0},
    };
    if (len == 1 && (c == '1' || c == '0')) { *out = c == '1'; return 0; }
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t wl = strlen(words[i].word);
        if (len >= words[i].min && len <= wl &&
            strncasecmp(s, words[i].word, len) == 0) {
            *out = words[i].val;
            return 0;
        }
    }
    return -1;
}

/* Exact powers of ten a double holds (10^0 .. 10^22). */
static const double pow10_exact[] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/*
 * Parses a float the way PostgreSQL's float8in does. Returns 0, -1 (syntax)
 * or -2 (out of range: overflow to infinity, or a nonzero value that
 * underflows to zero).
 *
 * Fast path (Clinger 1990): when the decimal has at most 15 significant
 * digits and a power-of-ten exponent within +-22, mantissa and power are both
 * exact doubles and one IEEE multiplication or division rounds correctly.
 * Everything else goes to strtod, which glibc rounds correctly.
 */
static int parse_double(const char *s, size_t len, double *out) {
    trim(&s, &len);
    const char *p = s, *e = s + len;
    if (p == e) return -1;
    int neg = 0;
    if (*p == '+' || *p == '-') neg = (*p++ == '-');
    uint64_t mant = 0;
    int digits = 0, exp10 = 0, seen = 0;
    while (p < e && (unsigned)(*p - '0') <= 9) {
        if (mant == 0 && *p == '0') { seen = 1; p++; continue; }
        if (digits < 19) { mant = mant * 10 + (uint64_t)(*p - '0'); digits++; }
        else exp10++;
        seen = 1;
        p++;
    }
    if (p < e && *p == '.') {
        p++;
        while (p < e && (unsigned)(*p - '0') <= 9) {
            if (mant == 0 && *p == '0') { exp10--; seen = 1; p++; continue; }
            if (digits < 19) { mant = mant * 10 + (uint64_t)(*p - '0'); digits++; exp10--; }
            seen = 1;
            p++;
        }
    }
    if (seen && p < e && (*p == 'e' || *p == 'E')) {
        const char *q = p + 1;
        int eneg = 0;
        if (q < e && (*q == '+' || *q == '-')) eneg = (*q++ == '-');
        if (q < e && (unsigned)(*q - '0') <= 9) {
            int ev = 0;
            while (q < e && (unsigned)(*q - '0') <= 9) {
                if (ev < 100000) ev = ev * 10 + (*q - '0');
                q++;
            }
            exp10 += eneg ? -ev : ev;
            p = q;
        } else {
            return -1;
        }
    }
    if (seen && p == e) {
        if (mant == 0) { *out = neg ? -0.0 : 0.0; return 0; }
        if (digits <= 15 && exp10 >= -22 && exp10 <= 22) {
            double v = (double)mant;
            v = exp10 < 0 ? v / pow10_exact[-exp10] : v * pow10_exact[exp10];
            *out = neg ? -v : v;
            return 0;
        }
    } else if (!seen) {
        /* Special values, case-insensitive as in PostgreSQL. */
        size_t n = (size_t)(e - p);
        if ((n == 3 && strncasecmp(p, "nan", 3) == 0)) {
            if (p != s) return -1;       /* no sign on NaN */
            *out = NAN;
            return 0;
        }
        if ((n == 8 && strncasecmp(p, "infinity", 8) == 0) ||
            (n == 3 && strncasecmp(p, "inf", 3) == 0)) {
            *out = neg ? -INFINITY : INFINITY;
            return 0;
        }
        return -1;
    } else {
        return -1;
    }
    /* Slow path: strtod on a NUL-terminated copy. */
    char small[128];
    char *buf = len < sizeof small ? small : malloc(len + 1);
    if (!buf) return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    char *end;
    double v = strtod(buf, &end);
    int rc = 0;
    if (end != buf + len) rc = -1;
    else if (errno == ERANGE && (v == 0.0 || isinf(v))) rc = -2;
    if (buf != small) free(buf);
    if (rc == 0) *out = v;
    return rc;
}

static const int64_t pow10_i64[19] = {
    1LL, 10LL, 100LL, 1000LL, 10000LL, 100000LL, 1000000LL, 10000000LL,
    100000000LL, 1000000000LL, 10000000000LL, 100000000000LL,
    1000000000000LL, 10000000000000LL, 100000000000000LL,
    1000000000000000LL, 10000000000000000LL, 100000000000000000LL,
    1000000000000000000LL,
};

/*
 * DECIMAL(p,s): digits[.digits][e[+-]n], rounded half away from zero to s
 * fraction digits. -1 syntax, -2 overflow (more than p-s integer digits).
 */
static int parse_decimal(const char *s, size_t len, int precision, int scale,
                         int64_t *out) {
    trim(&s, &len);
    const char *p = s, *e = s + len;
    int neg = 0;
    if (p < e && (*p == '+' || *p == '-')) neg = (*p++ == '-');
    /* Collect significant digits (leading zeros dropped) and the position
     * of the decimal point relative to them. */
    char dig[64];
    int nd = 0, point = 0, seen = 0;
    int after_point = 0;
    for (; p < e; p++) {
        char c = *p;
        if (c == '.') {
            if (after_point) return -1;
            after_point = 1;
            continue;
        }
        if ((unsigned)(c - '0') > 9) break;
        seen = 1;
        if (nd == 0 && c == '0') {
            if (after_point) point--;
            continue;
        }
        /* Digits beyond the 64 kept cannot affect a value of at most 18
         * digits except through rounding, and the 19th digit decides that. */
        if (nd < (int)sizeof dig) dig[nd++] = c;
        if (!after_point) point++;
    }
    /* point counts integer digits (after leading zeros are dropped). */
    if (!seen) return -1;
    if (p < e && (*p == 'e' || *p == 'E')) {
        const char *q = p + 1;
        int eneg = 0;
        if (q < e && (*q == '+' || *q == '-')) eneg = (*q++ == '-');
        if (q == e || (unsigned)(*q - '0') > 9) return -1;
        long ev = 0;
        while (q < e && (unsigned)(*q - '0') <= 9) {
            if (ev < 100000) ev = ev * 10 + (*q - '0');
            q++;
        }
        point += (int)(eneg ? -ev : ev);
        p = q;
    }
    if (p != e) return -1;
    if (nd == 0) { *out = 0; return 0; }
    /* Value = 0.dig[0..nd) * 10^point. Integer digits: max(point, 0). */
    if (point > precision - scale) return -2;
    /* Scaled value = dig * 10^(point + scale - nd). Keep the first
     * point+scale digits, round on the next one. */
    int keep = point + scale;
    if (keep < 0) { *out = 0; return 0; }
    uint64_t v = 0;
    for (int i = 0; i < keep; i++)
        v = v * 10 + (uint64_t)(i < nd ? dig[i] - '0' : 0);
    if (keep < nd && dig[keep] >= '5') v++;
    /* Rounding up may add a digit: 99.995 -> 100.00 in (4,2) overflows. */
    if (precision < 19 && v >= (uint64_t)pow10_i64[precision]) return -2;
    *out = neg ? -(int64_t)v : (int64_t)v;
    return 0;
}

/* ---- calendar ------------------------------------------------------------- */

int attu_days_in_month(int year, int month) {
    static const int dm[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return dm[month - 1] + (month == 2 && leap);
}

/* Days from 1970-01-01 to y-m-d, proleptic Gregorian (Howard Hinnant's
 * days_from_civil; year may be zero or negative: year 0 is 1 BC). */
int32_t attu_date_from_ymd(int year, int month, int day) {
    int64_t y = (int64_t)year - (month <= 2);
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t mp = (month + 9) % 12;
    int64_t doy = (153 * mp + 2) / 5 + day - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return (int32_t)(era * 146097 + doe - 719468);
}

void attu_date_to_ymd(int32_t days, int *year, int *month, int *day) {
    int64_t z = (int64_t)days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t y = yoe + era * 400;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t d = doy - (153 * mp + 2) / 5 + 1;
    int64_t m = mp < 10 ? mp + 3 : mp - 9;
    *year = (int)(y + (m <= 2));
    *month = (int)m;
    *day = (int)d;
}

/* PostgreSQL's date range: 4713-11-24 BC .. 5874897-12-31 (julian day 0 ..
 * 2^31 - 1 days after 2000-01-01). */
#define DATE_MIN_DAYS ATTU_DATE_MIN_DAYS   /* attu_date_from_ymd(-4713, 11, 24) */
#define DATE_MAX_DAYS ATTU_DATE_MAX_DAYS   /* attu_date_from_ymd(5874897, 12, 31) */
#define TS_MAX_DAYS   attu_date_from_ymd(294277, 1, 1)   /* exclusive */
#define DATE_INFINITY INT32_MAX
#define DATE_NINFINITY INT32_MIN
#define TS_INFINITY INT64_MAX
#define TS_NINFINITY INT64_MIN
#define USECS_PER_DAY 86400000000LL

/*
 * Date / timestamp text: engine/datetime_input.c reads the fields
 * (PostgreSQL's formats under DateStyle ISO, MDY); here they become days
 * or microseconds. Returns 0, or -3 outside the type's range. The year is
 * checked first so the day count cannot overflow.
 */
static int datetime_value(const attu_datetime_fields *f, int is_date, int32_t *days_out,
                          int64_t *usec_out) {
    switch (f->kind) {
    case ATTU_DATETIME_INFINITY: *days_out = DATE_INFINITY; *usec_out = TS_INFINITY; return 0;
    case ATTU_DATETIME_NINFINITY: *days_out = DATE_NINFINITY; *usec_out = TS_NINFINITY; return 0;
    case ATTU_DATETIME_EPOCH: *days_out = 0; *usec_out = 0; return 0;
    case ATTU_DATETIME_FINITE: break;
    }
    if (f->year < -4713 || f->year > 5874898) return -3;
    int64_t days = attu_date_from_ymd(f->year, f->month, f->day);
    if (days < DATE_MIN_DAYS || days > DATE_MAX_DAYS) return -3;
    *days_out = (int32_t)days;
    if (is_date) return 0;
    /* Microseconds from 1970 overflow int64 some 30 years before
     * PostgreSQL's timestamp end (294276 AD, counted from 2000): such a
     * value is out of attu's timestamp range, never silently infinity. */
    int64_t day_usec, usec;
    int64_t tod = ((int64_t)f->hour * 3600 + (int64_t)f->minute * 60 + f->second) * 1000000LL + f->usec;
    if (__builtin_mul_overflow(days, USECS_PER_DAY, &day_usec) ||
        __builtin_add_overflow(day_usec, tod, &usec) ||
        usec < (int64_t)DATE_MIN_DAYS * USECS_PER_DAY || days >= TS_MAX_DAYS)
        return -3;
    *usec_out = usec;
    return 0;
}

int attu_value_parse(attu_type t, const char *text, size_t len, void *out,
                     attu_error *err) {
    char tname[48];
    switch (t.id) {
    case ATTU_TYPE_BOOL: {
        uint8_t v;
        if (parse_bool(text, len, &v) != 0)
            return bad_syntax(err, "boolean", text, len);
        *(uint8_t *)out = v;
        return 0;
    }
    case ATTU_TYPE_INT16:
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_INT64: {
        int is32 = t.id != ATTU_TYPE_INT64;   /* SMALLINT sits in an int32 */
        int is16 = t.id == ATTU_TYPE_INT16;
        int64_t v;
        int rc = parse_int64(text, len, is16 ? INT16_MIN : is32 ? INT32_MIN : INT64_MIN,
                             is16 ? INT16_MAX : is32 ? INT32_MAX : INT64_MAX, &v);
        const char *name = is16 ? "smallint" : is32 ? "integer" : "bigint";
        if (rc == -1) return bad_syntax(err, name, text, len);
        if (rc == -2)
            return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0,
                                  "value \"%.*s\" is out of range for type %s",
                                  QUOTED(text, len), name);
        if (is32) *(int32_t *)out = (int32_t)v;
        else *(int64_t *)out = v;
        return 0;
    }
    case ATTU_TYPE_FLOAT32:
    case ATTU_TYPE_FLOAT64: {
        int is32 = t.id == ATTU_TYPE_FLOAT32;
        const char *name = is32 ? "real" : "double precision";
        double v;
        int rc = parse_double(text, len, &v);
        if (rc == -1) return bad_syntax(err, name, text, len);
        if (rc == 0 && is32) {
            /* Round the decimal straight to float (rounding through double
             * first can differ in the last bit). */
            float f;
            if (isnan(v) || isinf(v)) f = (float)v;
            else {
                char small[128];
                const char *s = text;
                size_t n = len;
                trim(&s, &n);
                if (n >= sizeof small) n = sizeof small - 1;
                memcpy(small, s, n);
                small[n] = '\0';
                errno = 0;
                f = strtof(small, NULL);
                if (errno == ERANGE && (f == 0.0f || isinf(f))) rc = -2;
            }
            if (rc == 0) { *(float *)out = f; return 0; }
        }
        if (rc == -2)
            return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0,
                                  "\"%.*s\" is out of range for type %s",
                                  QUOTED(text, len), name);
        *(double *)out = v;
        return 0;
    }
    case ATTU_TYPE_DECIMAL: {
        int64_t v;
        int rc = parse_decimal(text, len, t.precision, t.scale, &v);
        attu_numeric sp;
        if (rc == -1 && !attu_numeric_parse(text, len, &sp, NULL) && attu_numeric_is_special(sp))
            return attu_numeric_decimal_special_error(sp, t.precision, t.scale, err);
        if (rc == -1) return bad_syntax(err, "numeric", text, len);
        if (rc == -2) {
            return attu_numeric_field_overflow(t.precision, t.scale, err);
        }
        *(int64_t *)out = v;
        return 0;
    }
    case ATTU_TYPE_NUMERIC: {
        attu_numeric n;
        if (attu_numeric_parse(text, len, &n, err)) return -1;
        attu_numeric_pack(n, out);
        return 0;
    }
    case ATTU_TYPE_INTERVAL: {
        attu_interval iv;
        /* a qualified column reads its bare numbers by its fields, as
         * PostgreSQL's interval_in with the column's typmod */
        if (attu_type_is_qualified_interval(t)
                ? attu_interval_parse_qualified(text, len, attu_type_interval_range(t), attu_type_interval_prec(t),
                                                &iv, err)
                : attu_interval_parse(text, len, &iv, err))
            return -1;
        memcpy(out, &iv, sizeof iv);
        return 0;
    }
    case ATTU_TYPE_TIMESTAMPTZ:
        return attu_timestamptz_parse(text, len, attu_tz_session(), (int64_t *)out, err);
    case ATTU_TYPE_TIME:
        return attu_time_parse(text, len, (int64_t *)out, err);
    case ATTU_TYPE_TIMETZ:
        return attu_timetz_parse(text, len, attu_tz_session(), (int64_t *)out, err);
    case ATTU_TYPE_DATE:
    case ATTU_TYPE_TIMESTAMP: {
        int is_date = t.id == ATTU_TYPE_DATE;
        int32_t days = 0;
        int64_t usec = 0;
        /* A date accepts (and drops) a time part, as PostgreSQL does. */
        attu_datetime_fields f;
        int rc = attu_datetime_parse(text, len, &f);
        const char *name = is_date ? "date" : "timestamp";
        if (rc == ATTU_DATETIME_BAD_FORMAT)
            return attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0,
                                  "invalid input syntax for type %s: \"%.*s\"",
                                  name, QUOTED(text, len));
        if (rc == ATTU_DATETIME_FIELD_RANGE || rc == ATTU_DATETIME_MD_RANGE) {
            attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0,
                           "date/time field value out of range: \"%.*s\"",
                           QUOTED(text, len));
            /* a month past 12 or a day past 31 may be D-M-Y input */
            if (rc == ATTU_DATETIME_MD_RANGE)
                attu_error_set_hint(err, "Perhaps you need a different \"datestyle\" setting.");
            return -1;
        }
        if (rc == ATTU_DATETIME_TZ_RANGE)
            return attu_error_set(err, "22009", 0, "time zone displacement out of range: \"%.*s\"",
                                  QUOTED(text, len));
        if (rc == ATTU_DATETIME_TZ_UNKNOWN)
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "time zone \"%s\" not recognized",
                                  f.tz_name);
        rc = datetime_value(&f, is_date, &days, &usec);
        if (rc == -3)
            return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0,
                                  "%s out of range: \"%.*s\"", name,
                                  QUOTED(text, len));
        if (is_date) *(int32_t *)out = days;
        else *(int64_t *)out = usec;
        return 0;
    }
    case ATTU_TYPE_TEXT:
    default:
        return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0,
                              "attu_value_parse cannot parse type %s",
                              attu_type_name(t, tname, sizeof tname));
    }
}

/* ---- output --------------------------------------------------------------- */

/*
 * Shortest round-trip digits of a finite nonzero double (or float when
 * is32): the fewest significant digits that strtod/strtof read back as the
 * same value. Writes the digits (no point, no sign) and returns the count;
 * *exp10 gets the decimal exponent of the first digit.
 */
/* Whether the decimal in buf reads back as v (a float when is32) without
 * lying exactly halfway between v and a neighbour: PostgreSQL's Ryu
 * (STRICTLY_SHORTEST off) never takes a bound of the rounding interval, so
 * that any reader's tie rule gets v back; a halfway decimal that
 * round-half-even reads as v is one digit too short there (60365272::real
 * is 6.0365272e+07, not 6.036527e+07). The midpoints need 25 (float) or 54
 * (double) bits, exact in a long double, as is a decimal of 17 digits that
 * equals one. */
/* Whether the decimal buf ([-]d.ddde[+-]xx, p digits) is exactly the long
 * double m: m's exact expansion at far more digits is buf's digits and
 * zeros. (Reading buf with strtold is not enough: a decimal within half a
 * long double unit of a midpoint reads as the midpoint; 7.485899432405414
 * lies 1.6e-19 below the one above cbrt(-419.5)'s double, which PostgreSQL
 * prints with those 16 digits.) */
static int decimal_is(const char *buf, long double m) {
    char e[160];
    const char *q = buf;
    if (*q == '-') q++;
    int p = 0;
    for (const char *t = q; *t && *t != 'e'; t++) p += *t != '.';
    snprintf(e, sizeof e, "%.*Le", p - 1 + 60, m);
    const char *a = q, *b = e;
    for (; *a && *a != 'e'; a++, b++)
        if (*a != *b) return 0;
    for (; *b == '0'; b++) {}
    if (*b != 'e' || *a != 'e') return 0;
    return atoi(a + 1) == atoi(b + 1);
}

static int reads_back(const char *buf, double v, int is32) {
    if (!(is32 ? strtof(buf, NULL) == (float)v : strtod(buf, NULL) == v)) return 0;
    long double x, lo, hi;
    if (is32) {
        float f = (float)v;
        x = f;
        lo = (x + (long double)nextafterf(f, -INFINITY)) / 2;
        hi = (x + (long double)nextafterf(f, INFINITY)) / 2;
    } else {
        x = v;
        lo = (x + (long double)nextafter(v, -INFINITY)) / 2;
        hi = (x + (long double)nextafter(v, INFINITY)) / 2;
    }
    long double d = strtold(buf, NULL);   /* (cheap: only a decimal that reads as a midpoint can be one) */
    return (d != lo || !decimal_is(buf, lo)) && (d != hi || !decimal_is(buf, hi));
}

static int shortest_digits(double v, int is32, char *digits, int *exp10) {
    char buf[48];
    /* Reading back is (almost always) monotonic in the digit count: if p
     * digits round-trip, so do p+1. Binary-search the smallest such p in
     * 1..9 or 1..17: 5-6 formatting calls instead of up to 17. */
    int lo = 1, hi = is32 ? 9 : 17;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        snprintf(buf, sizeof buf, "%.*e", mid - 1, v);
        if (reads_back(buf, v, is32)) hi = mid;
        else lo = mid + 1;
    }
    int p = lo;
    /* Next to a power of two the round-trip interval is lopsided and the
     * monotonicity can fail in rare cases; step down while shorter works. */
    while (p > 1) {
        snprintf(buf, sizeof buf, "%.*e", p - 2, v);
        if (!reads_back(buf, v, is32)) break;
        p--;
    }
    snprintf(buf, sizeof buf, "%.*e", p - 1, v);
    /* buf: [-]d.ddde[+-]xx */
    const char *q = buf;
    if (*q == '-') q++;
    int n = 0;
    for (; *q && *q != 'e'; q++)
        if (*q != '.') digits[n++] = *q;
    *exp10 = atoi(q + 1);
    while (n > 1 && digits[n - 1] == '0') n--;
    digits[n] = '\0';
    return n;
}

static size_t put(char *buf, size_t cap, const char *s, size_t n) {
    if (cap == 0) return n;
    size_t m = n < cap - 1 ? n : cap - 1;
    memcpy(buf, s, m);
    buf[m] = '\0';
    return m;
}

static size_t format_float(double v, int is32, char *buf, size_t cap) {
    char out[64];
    size_t n = 0;
    if (isnan(v)) return put(buf, cap, "NaN", 3);
    if (isinf(v)) return v > 0 ? put(buf, cap, "Infinity", 8) : put(buf, cap, "-Infinity", 9);
    if (signbit(v)) out[n++] = '-';
    if (v == 0) { out[n++] = '0'; return put(buf, cap, out, n); }
    attu_datestyle ds = attu_datestyle_session();
    if (ds.float_fixed) {
        /* extra_float_digits <= 0: PostgreSQL's %g at 15 (6) + that many
         * significant digits */
        int prec = (is32 ? 6 : 15) + ds.extra_float_digits;
        if (prec < 1) prec = 1;
        return put(buf, cap, out, n + (size_t)snprintf(out + n, sizeof out - n, "%.*g", prec, fabs(v)));
    }
    char dig[32];
    int exp10;
    int nd = shortest_digits(fabs(v), is32, dig, &exp10);
    int hi = is32 ? 6 : 15;
    if (exp10 >= -4 && exp10 < hi) {
        if (exp10 < 0) {
            out[n++] = '0';
            out[n++] = '.';
            for (int i = -1; i > exp10; i--) out[n++] = '0';
            for (int i = 0; i < nd; i++) out[n++] = dig[i];
        } else {
            for (int i = 0; i <= exp10; i++) out[n++] = i < nd ? dig[i] : '0';
            if (nd > exp10 + 1) {
                out[n++] = '.';
                for (int i = exp10 + 1; i < nd; i++) out[n++] = dig[i];
            }
        }
    } else {
        out[n++] = dig[0];
        if (nd > 1) {
            out[n++] = '.';
            for (int i = 1; i < nd; i++) out[n++] = dig[i];
        }
        n += (size_t)snprintf(out + n, sizeof out - n, "e%c%02d",
                              exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
    }
    return put(buf, cap, out, n);
}

static size_t format_decimal(int64_t v, int scale, char *buf, size_t cap) {
    char out[48];
    char rev[32];
    size_t n = 0, r = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do { rev[r++] = (char)('0' + u % 10); u /= 10; } while (u);
    while (r <= (size_t)scale) rev[r++] = '0';   /* at least one integer digit */
    if (v < 0) out[n++] = '-';
    for (size_t i = r; i-- > 0;) {
        out[n++] = rev[i];
        if (i == (size_t)scale && scale > 0) out[n++] = '.';
    }
    return put(buf, cap, out, n);
}

/* The date part as DateStyle prints it: ISO 2023-01-02, SQL 01/02/2023
 * (02/01/2023 under DMY), German 02.01.2023, Postgres 01-02-2023
 * (02-01-2023 under DMY); the year is 1 - y for a BC date, whose " BC"
 * the caller appends last. */
static size_t format_ymd(int y, int m, int d, attu_datestyle ds, char *out) {
    int year = y <= 0 ? 1 - y : y;
    bool dmy = ds.order == ATTU_DATEORDER_DMY;
    switch (ds.style) {
    case ATTU_DATESTYLE_SQL:
        return (size_t)sprintf(out, "%02d/%02d/%04d", dmy ? d : m, dmy ? m : d, year);
    case ATTU_DATESTYLE_GERMAN:
        return (size_t)sprintf(out, "%02d.%02d.%04d", d, m, year);
    case ATTU_DATESTYLE_POSTGRES:
        return (size_t)sprintf(out, "%02d-%02d-%04d", dmy ? d : m, dmy ? m : d, year);
    default:
        return (size_t)sprintf(out, "%04d-%02d-%02d", year, m, d);
    }
}

static size_t format_date(int32_t days, char *out) {
    if (days == DATE_INFINITY) return (size_t)sprintf(out, "infinity");
    if (days == DATE_NINFINITY) return (size_t)sprintf(out, "-infinity");
    int y, m, d;
    attu_date_to_ymd(days, &y, &m, &d);
    size_t n = format_ymd(y, m, d, attu_datestyle_session(), out);
    if (y <= 0) n += (size_t)sprintf(out + n, " BC");
    return n;
}

/* A wall time (microseconds since 1970-01-01 as the clock reads) in the
 * calling thread's DateStyle, as PostgreSQL's EncodeDateTime. with_zone:
 * a timestamptz, whose offset (ISO) or zone abbreviation (the other
 * styles; the offset where the zone has none) follows the time. " BC"
 * comes last in every style. */
static size_t format_timestamp_zoned(int64_t us, bool with_zone, int32_t off, const char *abbrev, char *out) {
    static const char *const mon[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
    static const char *const dow[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
    if (us == TS_INFINITY) return (size_t)sprintf(out, "infinity");
    if (us == TS_NINFINITY) return (size_t)sprintf(out, "-infinity");
    attu_datestyle ds = attu_datestyle_session();
    int64_t days = us / USECS_PER_DAY, rem = us % USECS_PER_DAY;
    if (rem < 0) { rem += USECS_PER_DAY; days--; }
    int y, m, d;
    attu_date_to_ymd((int32_t)days, &y, &m, &d);
    int64_t secs = rem / 1000000, frac = rem % 1000000;
    size_t n;
    if (ds.style == ATTU_DATESTYLE_POSTGRES) {
        int wday = (int)(((days + 4) % 7 + 7) % 7);   /* 1970-01-01 was a Thursday */
        if (ds.order == ATTU_DATEORDER_DMY) n = (size_t)sprintf(out, "%s %02d %s", dow[wday], d, mon[m - 1]);
        else n = (size_t)sprintf(out, "%s %s %02d", dow[wday], mon[m - 1], d);
    } else {
        n = format_ymd(y, m, d, ds, out);
    }
    n += (size_t)sprintf(out + n, " %02d:%02d:%02d", (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60));
    if (frac) {
        char f[8];
        snprintf(f, sizeof f, "%06d", (int)frac);
        int k = 6;
        while (k > 0 && f[k - 1] == '0') k--;
        n += (size_t)sprintf(out + n, ".%.*s", k, f);
    }
    if (ds.style == ATTU_DATESTYLE_POSTGRES) n += (size_t)sprintf(out + n, " %04d", y <= 0 ? 1 - y : y);
    if (with_zone) {
        if (ds.style == ATTU_DATESTYLE_ISO) {
            n += attu_utc_offset_format(off, out + n);
        } else if (abbrev && *abbrev) {
            n += (size_t)snprintf(out + n, 16, " %.10s", abbrev);   /* (PostgreSQL's MAXTZLEN) */
        } else {
            out[n++] = ' ';
            n += attu_utc_offset_format(off, out + n);
        }
    }
    if (y <= 0) n += (size_t)sprintf(out + n, " BC");
    return n;
}

static size_t format_timestamp(int64_t us, char *out) { return format_timestamp_zoned(us, false, 0, NULL, out); }

size_t attu_timestamptz_format(int64_t us, const struct attu_tz *zone, char *buf, size_t cap) {
    char out[96];
    if (us == TS_INFINITY || us == TS_NINFINITY) return put(buf, cap, us > 0 ? "infinity" : "-infinity", us > 0 ? 8 : 9);
    if (!zone) zone = attu_tz_utc();
    int64_t sec = us / 1000000 - (us % 1000000 < 0);
    const char *abbrev = NULL;
    int32_t off = attu_tz_offset_at(zone, sec, &abbrev);
    size_t n = format_timestamp_zoned(us + (int64_t)off * 1000000, true, off, abbrev, out);
    return put(buf, cap, out, n);
}

int attu_timestamptz_parse(const char *text, size_t len, const struct attu_tz *zone, int64_t *out,
                           attu_error *err) {
    attu_datetime_fields f;
    int rc = attu_datetime_parse(text, len, &f);
    if (rc == ATTU_DATETIME_BAD_FORMAT)
        return attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0,
                              "invalid input syntax for type timestamp with time zone: \"%.*s\"", QUOTED(text, len));
    if (rc == ATTU_DATETIME_FIELD_RANGE || rc == ATTU_DATETIME_MD_RANGE) {
        attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "date/time field value out of range: \"%.*s\"",
                       QUOTED(text, len));
        if (rc == ATTU_DATETIME_MD_RANGE) attu_error_set_hint(err, "Perhaps you need a different \"datestyle\" setting.");
        return -1;
    }
    if (rc == ATTU_DATETIME_TZ_RANGE)
        return attu_error_set(err, "22009", 0, "time zone displacement out of range: \"%.*s\"", QUOTED(text, len));
    if (rc == ATTU_DATETIME_TZ_UNKNOWN)
        return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "time zone \"%s\" not recognized", f.tz_name);
    int32_t days = 0;
    int64_t local = 0;
    if (datetime_value(&f, 0, &days, &local) == -3)
        return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "timestamp out of range: \"%.*s\"",
                              QUOTED(text, len));
    if (f.kind != ATTU_DATETIME_FINITE) { *out = local; return 0; }
    int64_t v;
    if (f.tz_kind == ATTU_DATETIME_ZONE_OFFSET) {
        v = local - (int64_t)f.tz_offset * 1000000;
    } else {
        const attu_tz *z = zone ? zone : attu_tz_utc();
        if (f.tz_kind == ATTU_DATETIME_ZONE_NAME && !(z = attu_tz_find(f.tz_name)))
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "time zone \"%s\" not recognized", f.tz_name);
        v = attu_tz_from_local_us(z, local);
    }
    if (v == TS_INFINITY || v == TS_NINFINITY || v < (int64_t)DATE_MIN_DAYS * USECS_PER_DAY ||
        v / USECS_PER_DAY >= TS_MAX_DAYS)
        return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "timestamp out of range: \"%.*s\"",
                              QUOTED(text, len));
    *out = v;
    return 0;
}

size_t attu_value_format(attu_type t, const void *slot, char *buf, size_t cap) {
    char out[96];
    size_t n;
    switch (t.id) {
    case ATTU_TYPE_BOOL:
        return put(buf, cap, *(const uint8_t *)slot ? "t" : "f", 1);
    case ATTU_TYPE_INT16:
    case ATTU_TYPE_INT32:
        n = (size_t)snprintf(out, sizeof out, "%d", *(const int32_t *)slot);
        return put(buf, cap, out, n);
    case ATTU_TYPE_INT64:
        n = (size_t)snprintf(out, sizeof out, "%lld", (long long)*(const int64_t *)slot);
        return put(buf, cap, out, n);
    case ATTU_TYPE_FLOAT32:
        return format_float(*(const float *)slot, 1, buf, cap);
    case ATTU_TYPE_FLOAT64:
        return format_float(*(const double *)slot, 0, buf, cap);
    case ATTU_TYPE_DECIMAL:
        /* INT64_MAX / INT64_MIN lie outside every DECIMAL's 18 digits:
         * they are numeric's +-Infinity (EXTRACT of an infinite date) */
        if (*(const int64_t *)slot == INT64_MAX) return put(buf, cap, "Infinity", 8);
        if (*(const int64_t *)slot == INT64_MIN) return put(buf, cap, "-Infinity", 9);
        return format_decimal(*(const int64_t *)slot, t.scale, buf, cap);
    case ATTU_TYPE_NUMERIC:
        n = (size_t)attu_numeric_format(attu_numeric_unpack(slot), out, sizeof out);
        return put(buf, cap, out, n);
    case ATTU_TYPE_DATE:
        n = format_date(*(const int32_t *)slot, out);
        return put(buf, cap, out, n);
    case ATTU_TYPE_TIMESTAMP:
        n = format_timestamp(*(const int64_t *)slot, out);
        return put(buf, cap, out, n);
    case ATTU_TYPE_TIMESTAMPTZ:
        return attu_timestamptz_format(*(const int64_t *)slot, attu_tz_session(), buf, cap);
    case ATTU_TYPE_TIME:
        n = attu_time_format(*(const int64_t *)slot, out, sizeof out);
        return put(buf, cap, out, n);
    case ATTU_TYPE_TIMETZ:
        n = attu_timetz_format(*(const int64_t *)slot, out, sizeof out);
        return put(buf, cap, out, n);
    case ATTU_TYPE_INTERVAL: {
        attu_interval iv;
        memcpy(&iv, slot, sizeof iv);
        n = attu_interval_format(iv, out, sizeof out);
        return put(buf, cap, out, n);
    }
    case ATTU_TYPE_TEXT:
        n = (size_t)snprintf(out, sizeof out, "%d", *(const int32_t *)slot);
        return put(buf, cap, out, n);
    default:
        return put(buf, cap, "", 0);
    }
}
