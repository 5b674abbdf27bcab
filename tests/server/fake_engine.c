/*
 * fake_engine.c - the few engine/ functions the protocol layer calls
 * (column formatting, type OIDs), for test binaries that link the server
 * against fake_db.c instead of the real engine. TEXT columns here keep a
 * char * per row in `data` (the real engine uses dictionary codes); the
 * server only reads TEXT through attu_column_format, so it cannot tell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/column.h"
#include "engine/types.h"

size_t attu_type_width(attu_type_id id) {
    switch (id) {
    case ATTU_TYPE_BOOL: return 1;
    case ATTU_TYPE_INT64: case ATTU_TYPE_FLOAT64: case ATTU_TYPE_DECIMAL:
    case ATTU_TYPE_TIMESTAMP: case ATTU_TYPE_TIMESTAMPTZ: case ATTU_TYPE_TIME: case ATTU_TYPE_TIMETZ: return 8;
    case ATTU_TYPE_TEXT: return sizeof(char *);
    default: return 4;
    }
}

uint32_t attu_type_pg_oid(attu_type t) {
    switch (t.id) {
    case ATTU_TYPE_BOOL: return ATTU_PG_OID_BOOL;
    case ATTU_TYPE_INT16: return ATTU_PG_OID_INT2;
    case ATTU_TYPE_INT32: return ATTU_PG_OID_INT4;
    case ATTU_TYPE_INT64: return ATTU_PG_OID_INT8;
    case ATTU_TYPE_FLOAT32: return ATTU_PG_OID_FLOAT4;
    case ATTU_TYPE_FLOAT64: return ATTU_PG_OID_FLOAT8;
    case ATTU_TYPE_DECIMAL: return ATTU_PG_OID_NUMERIC;
    case ATTU_TYPE_DATE: return ATTU_PG_OID_DATE;
    case ATTU_TYPE_TIMESTAMP: return ATTU_PG_OID_TIMESTAMP;
    case ATTU_TYPE_TIMESTAMPTZ: return ATTU_PG_OID_TIMESTAMPTZ;
    case ATTU_TYPE_TIME: return ATTU_PG_OID_TIME;
    case ATTU_TYPE_TIMETZ: return ATTU_PG_OID_TIMETZ;
    default: return ATTU_PG_OID_TEXT;
    }
}

int16_t attu_type_pg_len(attu_type t) {
    switch (t.id) {
    case ATTU_TYPE_TEXT: case ATTU_TYPE_DECIMAL: case ATTU_TYPE_UNKNOWN: return -1;
    case ATTU_TYPE_INT16: return 2;
    default: return (int16_t)attu_type_width(t.id);
    }
}

const char *attu_type_name(attu_type t, char *buf, size_t cap) {
    static const char *names[] = { "unknown", "boolean", "integer", "bigint", "real",
        "double precision", "numeric", "text", "date", "timestamp without time zone",
        "numeric", "smallint", "interval", "timestamp with time zone", "time without time zone", "time with time zone" };
    _Static_assert(sizeof names / sizeof *names == ATTU_TYPE_COUNT_, "a name for each type");
    snprintf(buf, cap, "%s", t.id < ATTU_TYPE_COUNT_ ? names[t.id] : "?");
    return buf;
}

size_t attu_value_format(attu_type t, const void *slot, char *buf, size_t cap) {
    int n = 0;
    switch (t.id) {
    case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: n = snprintf(buf, cap, "%d", *(const int32_t *)slot); break;
    case ATTU_TYPE_INT64: case ATTU_TYPE_TIMESTAMP: case ATTU_TYPE_TIME:
        n = snprintf(buf, cap, "%lld", (long long)*(const int64_t *)slot); break;
    case ATTU_TYPE_BOOL: n = snprintf(buf, cap, "%s", *(const uint8_t *)slot ? "t" : "f"); break;
    case ATTU_TYPE_FLOAT64: n = snprintf(buf, cap, "%.17g", *(const double *)slot); break;
    case ATTU_TYPE_FLOAT32: n = snprintf(buf, cap, "%.9g", (double)*(const float *)slot); break;
    default: n = snprintf(buf, cap, "?"); break;
    }
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

attu_column *attu_column_new(attu_type type, size_t capacity, attu_error *err) {
    attu_column *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->type = type;
    c->capacity = capacity ? capacity : 1;
    c->data = calloc(c->capacity, attu_type_width(type.id));
    if (!c->data) { free(c); return NULL; }
    return c;
}

void attu_column_free(attu_column *c) {
    if (!c) return;
    if (c->type.id == ATTU_TYPE_TEXT)
        for (size_t i = 0; i < c->length; i++) free(((char **)c->data)[i]);
    free(c->data);
    free(c->validity);
    free(c);
}

size_t attu_column_format(const attu_column *c, size_t row, char *buf, size_t cap,
                          const char **long_out) {
    if (attu_column_is_null(c, row)) return (size_t)-1;
    if (c->type.id == ATTU_TYPE_TEXT) {
        const char *s = ((char **)c->data)[row];
        size_t n = strlen(s);
        if (n >= cap) { *long_out = s; return n; }
        memcpy(buf, s, n + 1);
        return n;
    }
    size_t w = attu_type_width(c->type.id);
    return attu_value_format(c->type, (const char *)c->data + row * w, buf, cap);
}

/* arrays: the fake database returns none */
int attu_column_array_each(const attu_column *c, size_t row,
                           void (*fn)(void *ctx, attu_type elem, const struct attu_slot *v, const char *num, size_t num_len),
                           void *ctx) {
    (void)c; (void)row; (void)fn; (void)ctx;
    return -1;
}

/* ranges: the fake database returns none */
int attu_column_range_get(const attu_column *c, size_t row, int *flags, int64_t v[2], char num[2][96]) {
    (void)c; (void)row; (void)flags; (void)v; (void)num;
    return -1;
}

int attu_column_array_dims(const attu_column *c, size_t row, int32_t *dims, int32_t *lbs) {
    (void)c; (void)row; (void)dims; (void)lbs;
    return -1;
}
