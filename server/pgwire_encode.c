/*
 * pgwire_encode.c - backend message builders (see pgwire_encode.h).
 */
#include "server/pgwire_encode.h"

#include "server/pg_numeric.h"
#include "engine/time_of_day.h"
#include "engine/enum_type.h"
#include "engine/expr_program.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pgbuf_init(pgbuf *b) { memset(b, 0, sizeof *b); }

void pgbuf_free(pgbuf *b) {
    free(b->data);
    memset(b, 0, sizeof *b);
}

void pgbuf_reset(pgbuf *b) { b->len = 0; b->oom = false; }

char *pgbuf_steal(pgbuf *b, size_t *len) {
    char *d = b->data;
    *len = b->len;
    memset(b, 0, sizeof *b);
    return d;
}

bool pgbuf_reserve(pgbuf *b, size_t extra) {
    if (b->oom) return false;
    if (b->len + extra <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra) cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d) { b->oom = true; return false; }
    b->data = d;
    b->cap = cap;
    return true;
}

void pgbuf_put(pgbuf *b, const void *p, size_t n) {
    if (!n || !pgbuf_reserve(b, n)) return;
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void pgbuf_put_u8(pgbuf *b, uint8_t v) { pgbuf_put(b, &v, 1); }

void pgbuf_put_i16(pgbuf *b, int16_t v) {
    uint16_t u = (uint16_t)v;
    uint8_t x[2] = { (uint8_t)(u >> 8), (uint8_t)u };
    pgbuf_put(b, x, 2);
}

void pgbuf_put_i32(pgbuf *b, int32_t v) {
    uint32_t u = (uint32_t)v;
    uint8_t x[4] = { (uint8_t)(u >> 24), (uint8_t)(u >> 16), (uint8_t)(u >> 8), (uint8_t)u };
    pgbuf_put(b, x, 4);
}

void pgbuf_put_i64(pgbuf *b, int64_t v) {
    pgbuf_put_i32(b, (int32_t)((uint64_t)v >> 32));
    pgbuf_put_i32(b, (int32_t)(uint32_t)(uint64_t)v);
}

void pgbuf_put_str(pgbuf *b, const char *s) { pgbuf_put(b, s, strlen(s) + 1); }

void pgbuf_begin(pgbuf *b, char type) {
    b->msg_start = b->len;
    pgbuf_put_u8(b, (uint8_t)type);
    pgbuf_put_i32(b, 0);  /* patched by pgbuf_end */
}

void pgbuf_end(pgbuf *b) {
    if (b->oom) return;
    uint32_t n = (uint32_t)(b->len - b->msg_start - 1);
    uint8_t *p = (uint8_t *)b->data + b->msg_start + 1;
    p[0] = (uint8_t)(n >> 24); p[1] = (uint8_t)(n >> 16);
    p[2] = (uint8_t)(n >> 8);  p[3] = (uint8_t)n;
}

void pg_msg_auth(pgbuf *b, int32_t code, const void *extra, size_t n) {
    pgbuf_begin(b, 'R');
    pgbuf_put_i32(b, code);
    pgbuf_put(b, extra, n);
    pgbuf_end(b);
}

void pg_msg_parameter_status(pgbuf *b, const char *name, const char *value) {
    pgbuf_begin(b, 'S');
    pgbuf_put_str(b, name);
    pgbuf_put_str(b, value);
    pgbuf_end(b);
}

void pg_msg_backend_key(pgbuf *b, uint32_t pid, uint32_t key) {
    pgbuf_begin(b, 'K');
    pgbuf_put_i32(b, (int32_t)pid);
    pgbuf_put_i32(b, (int32_t)key);
    pgbuf_end(b);
}

void pg_msg_notification(pgbuf *b, uint32_t pid, const char *channel, const char *payload) {
    pgbuf_begin(b, 'A');
    pgbuf_put_i32(b, (int32_t)pid);
    pgbuf_put_str(b, channel);
    pgbuf_put_str(b, payload);
    pgbuf_end(b);
}

void pg_msg_ready(pgbuf *b, char txn_status) {
    pgbuf_begin(b, 'Z');
    pgbuf_put_u8(b, (uint8_t)txn_status);
    pgbuf_end(b);
}

void pg_msg_command_complete(pgbuf *b, const char *tag) {
    pgbuf_begin(b, 'C');
    pgbuf_put_str(b, tag);
    pgbuf_end(b);
}

void pg_msg_empty_query(pgbuf *b) { pg_msg_simple(b, 'I'); }

void pg_msg_simple(pgbuf *b, char type) {
    pgbuf_begin(b, type);
    pgbuf_end(b);
}

/* One field of an ErrorResponse/NoticeResponse. Embedded NULs cannot occur
 * in C strings, so the field is always well formed. */
static void put_field(pgbuf *b, char code, const char *value) {
    pgbuf_put_u8(b, (uint8_t)code);
    pgbuf_put_str(b, value);
}

static void put_error_fields(pgbuf *b, const char *severity, const attu_error *err) {
    const char *code = err->sqlstate[0] ? err->sqlstate : ATTU_SQLSTATE_INTERNAL;
    put_field(b, 'S', severity);
    put_field(b, 'V', severity);
    put_field(b, 'C', code);
    put_field(b, 'M', err->message[0] ? err->message : "internal error");
    if (err->detail[0]) put_field(b, 'D', err->detail);
    if (err->hint[0]) put_field(b, 'H', err->hint);
    if (err->position > 0) {
        char pos[16];
        snprintf(pos, sizeof pos, "%d", err->position);
        put_field(b, 'P', pos);
    }
    if (err->context[0]) put_field(b, 'W', err->context);
    if (err->schema_name[0]) put_field(b, 's', err->schema_name);
    if (err->table_name[0]) put_field(b, 't', err->table_name);
    if (err->column_name[0]) put_field(b, 'c', err->column_name);
    if (err->constraint_name[0]) put_field(b, 'n', err->constraint_name);
    pgbuf_put_u8(b, 0);
}

void pg_msg_error(pgbuf *b, const char *severity, const attu_error *err) {
    pgbuf_begin(b, 'E');
    put_error_fields(b, severity, err);
    pgbuf_end(b);
}

void pg_msg_error_simple(pgbuf *b, const char *severity, const char *sqlstate,
                         const char *fmt, ...) {
    attu_error e;
    memset(&e, 0, sizeof e);
    va_list ap;
    va_start(ap, fmt);
    attu_error_setv(&e, sqlstate, 0, fmt, ap);
    va_end(ap);
    pg_msg_error(b, severity, &e);
}

void pg_msg_notice(pgbuf *b, const char *sqlstate, const char *message) {
    pg_msg_notice_severity(b, "NOTICE", sqlstate, message);
}

void pg_msg_notice_severity(pgbuf *b, const char *severity, const char *sqlstate, const char *message) {
    attu_error e;
    memset(&e, 0, sizeof e);
    snprintf(e.sqlstate, sizeof e.sqlstate, "%s", sqlstate ? sqlstate : "00000");
    snprintf(e.message, sizeof e.message, "%s", message ? message : "");
    e.set = 1;
    pgbuf_begin(b, 'N');
    put_error_fields(b, severity, &e);
    pgbuf_end(b);
}

/* PostgreSQL's typmod for numeric(p,s) is ((p << 16) | s) + VARHDRSZ, for
 * char(n) and varchar(n) n + VARHDRSZ (-1 for varchar without a length),
 * for interval its fields and precision (engine/types.h
 * attu_type_interval_typmod). */
static int32_t type_modifier(attu_type t) {
    if (attu_type_is_array(t)) return attu_type_array_has_mod(t) ? type_modifier(attu_type_array_elem_mod(t)) : -1;
    if (t.id == ATTU_TYPE_INTERVAL) return attu_type_interval_typmod(t);
    if (t.id == ATTU_TYPE_DECIMAL && t.precision > 0 && !t.no_typmod)   /* (engine/types.h) */
        return (int32_t)(((uint32_t)t.precision << 16) | (uint16_t)t.scale) + 4;
    if (attu_type_is_bpchar(t) || (attu_type_is_varchar_any(t) && t.precision > 0)) return (int32_t)t.precision + 4;
    return -1;
}

void pg_msg_row_description(pgbuf *b, int ncols, const attu_result_column *desc,
                            const int16_t *formats) {
    pgbuf_begin(b, 'T');
    pgbuf_put_i16(b, (int16_t)ncols);
    for (int i = 0; i < ncols; i++) {
        char name[sizeof desc[i].name + 1];
        memcpy(name, desc[i].name, sizeof desc[i].name);
        name[sizeof desc[i].name] = 0;
        pgbuf_put_str(b, name);
        pgbuf_put_i32(b, 0);            /* table OID */
        pgbuf_put_i16(b, 0);            /* column number */
        pgbuf_put_i32(b, (int32_t)attu_type_pg_oid(desc[i].type));
        pgbuf_put_i16(b, attu_type_pg_len(desc[i].type));
        pgbuf_put_i32(b, type_modifier(desc[i].type));
        pgbuf_put_i16(b, formats ? formats[i] : 0);
    }
    pgbuf_end(b);
}

void pg_msg_parameter_description(pgbuf *b, int n, const uint32_t *oids) {
    pgbuf_begin(b, 't');
    pgbuf_put_i16(b, (int16_t)n);
    for (int i = 0; i < n; i++) pgbuf_put_i32(b, (int32_t)oids[i]);
    pgbuf_end(b);
}

/* The bytes the hex digits of s[skip..n) spell, hyphens passed over (a
 * uuid's canonical text, a bytea's held form after its "\x"); out NULL
 * only counts them. */
static size_t held_hex_bytes(const char *s, size_t n, size_t skip, uint8_t *out) {
    size_t k = 0;
    int hi = -1;
    for (size_t i = skip; i < n; i++) {
        char ch = s[i];
        int v = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
        if (v < 0) continue;
        if (hi < 0) { hi = v; continue; }
        if (out) out[k] = (uint8_t)(hi << 4 | v);
        k++;
        hi = -1;
    }
    return k;
}

bool pg_binary_supported(attu_type t) {
    /* a record's binary form is its items' (record_send), which a value
     * kept as record_out's text cannot give */
    if (attu_type_is_record(t)) return false;
    switch (t.id) {
    case ATTU_TYPE_BOOL: case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_INT64:
    case ATTU_TYPE_FLOAT32: case ATTU_TYPE_FLOAT64: case ATTU_TYPE_TEXT:
    case ATTU_TYPE_DATE: case ATTU_TYPE_TIMESTAMP: case ATTU_TYPE_TIMESTAMPTZ: case ATTU_TYPE_TIME: case ATTU_TYPE_TIMETZ: case ATTU_TYPE_DECIMAL: case ATTU_TYPE_NUMERIC:
    case ATTU_TYPE_INTERVAL:
        return true;
    default:
        return false;
    }
}

/* Days and microseconds between 1970-01-01 (attu's epoch) and 2000-01-01
 * (PostgreSQL's binary epoch). */
#define PG_EPOCH_DAYS 10957
#define PG_EPOCH_USEC INT64_C(946684800000000)

/* date_send / timestamp_send of attu's values: shifted to PostgreSQL's
 * epoch, except the infinities, which both keep as the type's extremes
 * (engine/types.h). */
static int32_t pg_date(int64_t days) {
    if (days == INT32_MIN || days == INT32_MAX) return (int32_t)days;
    return (int32_t)(days - PG_EPOCH_DAYS);
}
static int64_t pg_timestamp(int64_t us) {
    if (us == INT64_MIN || us == INT64_MAX) return us;
    return (int64_t)((uint64_t)us - (uint64_t)PG_EPOCH_USEC);
}

static void put_binary_value(pgbuf *b, const attu_column *c, size_t row) {
    const char *slot = (const char *)c->data + row * attu_type_width(c->type.id);
    switch (c->type.id) {
    case ATTU_TYPE_BOOL:
        pgbuf_put_i32(b, 1);
        pgbuf_put_u8(b, *(const uint8_t *)slot ? 1 : 0);
        break;
    case ATTU_TYPE_INT16: {      /* int2send: 2 bytes (the slot is an int32) */
        int32_t v;
        memcpy(&v, slot, 4);
        pgbuf_put_i32(b, 2);
        pgbuf_put_i16(b, (int16_t)v);
        break;
    }
    case ATTU_TYPE_INT32: case ATTU_TYPE_FLOAT32: {
        int32_t v;
        memcpy(&v, slot, 4);
        pgbuf_put_i32(b, 4);
        pgbuf_put_i32(b, v);
        break;
    }
    case ATTU_TYPE_DATE: {
        int32_t v;
        memcpy(&v, slot, 4);
        pgbuf_put_i32(b, 4);
        pgbuf_put_i32(b, pg_date(v));
        break;
    }
    case ATTU_TYPE_INT64: case ATTU_TYPE_FLOAT64: case ATTU_TYPE_TIME: {   /* time_send: microseconds since midnight */
        int64_t v;
        memcpy(&v, slot, 8);
        pgbuf_put_i32(b, 8);
        pgbuf_put_i64(b, v);
        break;
    }
    case ATTU_TYPE_TIMESTAMP: case ATTU_TYPE_TIMESTAMPTZ: {   /* the same int64 from 2000 */
        int64_t v;
        memcpy(&v, slot, 8);
        pgbuf_put_i32(b, 8);
        pgbuf_put_i64(b, pg_timestamp(v));
        break;
    }
    case ATTU_TYPE_TIMETZ: {   /* timetz_send: int64 microseconds, int32 seconds west */
        int64_t v, us;
        int32_t east;
        memcpy(&v, slot, 8);
        attu_timetz_unpack(v, &us, &east);
        pgbuf_put_i32(b, 12);
        pgbuf_put_i64(b, us);
        pgbuf_put_i32(b, -east);
        break;
    }
    case ATTU_TYPE_INTERVAL: {  /* interval_send: microseconds, days, months */
        int32_t months, days;
        int64_t usec;
        memcpy(&months, slot, 4);
        memcpy(&days, slot + 4, 4);
        memcpy(&usec, slot + 8, 8);
        pgbuf_put_i32(b, 16);
        pgbuf_put_i64(b, usec);
        pgbuf_put_i32(b, days);
        pgbuf_put_i32(b, months);
        break;
    }
    default:  /* callers check pg_binary_supported; send NULL defensively */
        pgbuf_put_i32(b, -1);
        break;
    }
}

/* array_send of an array column's value (engine/array.h): dimensions,
 * a NULL flag, the element OID, then each element as its type's send
 * function writes it (length first, -1 for NULL). */
typedef struct array_send { pgbuf *b; int n; bool nulls; } array_send;

static void count_elem(void *ctx, attu_type e, const attu_slot *v, const char *num, size_t nl) {
    array_send *a = ctx;
    (void)e; (void)num; (void)nl;
    a->n++;
    a->nulls = a->nulls || v->null;
}

static void send_elem(void *ctx, attu_type e, const attu_slot *v, const char *num, size_t nl) {
    pgbuf *b = ((array_send *)ctx)->b;
    if (v->null) { pgbuf_put_i32(b, -1); return; }
    switch (e.id) {
    case ATTU_TYPE_BOOL: pgbuf_put_i32(b, 1); pgbuf_put_u8(b, v->v.i ? 1 : 0); break;
    case ATTU_TYPE_INT16: pgbuf_put_i32(b, 2); pgbuf_put_i16(b, (int16_t)v->v.i); break;
    case ATTU_TYPE_INT32: pgbuf_put_i32(b, 4); pgbuf_put_i32(b, (int32_t)v->v.i); break;
    case ATTU_TYPE_DATE: pgbuf_put_i32(b, 4); pgbuf_put_i32(b, pg_date(v->v.i)); break;
    case ATTU_TYPE_INT64: case ATTU_TYPE_TIME: pgbuf_put_i32(b, 8); pgbuf_put_i64(b, v->v.i); break;
    case ATTU_TYPE_TIMETZ: {   /* timetz_send: int64 microseconds, int32 seconds west */
        int64_t us;
        int32_t east;
        attu_timetz_unpack(v->v.i, &us, &east);
        pgbuf_put_i32(b, 12);
        pgbuf_put_i64(b, us);
        pgbuf_put_i32(b, -east);
        break;
    }
    case ATTU_TYPE_TIMESTAMP: case ATTU_TYPE_TIMESTAMPTZ:
        pgbuf_put_i32(b, 8);
        pgbuf_put_i64(b, pg_timestamp(v->v.i));
        break;
    case ATTU_TYPE_FLOAT32: {
        float f = (float)v->v.f;
        int32_t bits;
        memcpy(&bits, &f, 4);
        pgbuf_put_i32(b, 4);
        pgbuf_put_i32(b, bits);
        break;
    }
    case ATTU_TYPE_FLOAT64: {
        int64_t bits;
        memcpy(&bits, &v->v.f, 8);
        pgbuf_put_i32(b, 8);
        pgbuf_put_i64(b, bits);
        break;
    }
    case ATTU_TYPE_NUMERIC:
        if (!num || !pg_numeric_put_binary(b, num, nl)) pgbuf_put_i32(b, -1);
        break;
    case ATTU_TYPE_INTERVAL: {   /* interval_send; the element points at its 16-byte slot */
        int32_t months, days;
        int64_t usec;
        if (!v->v.s || v->len != 16) { pgbuf_put_i32(b, -1); break; }
        memcpy(&months, v->v.s, 4);
        memcpy(&days, v->v.s + 4, 4);
        memcpy(&usec, v->v.s + 8, 8);
        pgbuf_put_i32(b, 16);
        pgbuf_put_i64(b, usec);
        pgbuf_put_i32(b, days);
        pgbuf_put_i32(b, months);
        break;
    }
    default:
        if (attu_type_is_uuid(e) || attu_type_is_bytea(e)) {
            /* uuid_send / byteasend: the bytes the held text spells */
            size_t skip = attu_type_is_bytea(e) ? 2 : 0, nb = held_hex_bytes(v->v.s, v->len, skip, NULL);
            uint8_t small[64], *raw = nb > sizeof small ? malloc(nb) : small;
            if (!raw) { pgbuf_put_i32(b, -1); break; }
            held_hex_bytes(v->v.s, v->len, skip, raw);
            pgbuf_put_i32(b, (int32_t)nb);
            pgbuf_put(b, raw, nb);
            if (raw != small) free(raw);
            break;
        }
        if (attu_type_is_jsonb(e) || attu_type_is_jsonpath(e)) {   /* jsonb_send / jsonpath_send: the version byte 1, then the text */
            pgbuf_put_i32(b, (int32_t)v->len + 1);
            pgbuf_put_u8(b, 1);
            pgbuf_put(b, v->v.s, v->len);
            break;
        }
        if (attu_type_is_enum(e)) {
            /* enum_send: the label's bytes, what follows the image's
             * separator (engine/enum_type.h; read here, as the server
             * core links no engine) */
            const char *sep = v->len ? memchr(v->v.s, ATTU_ENUM_SEP, v->len) : NULL;
            size_t skip = sep ? (size_t)(sep - v->v.s) + 1 : 0;
            pgbuf_put_i32(b, (int32_t)(v->len - skip));
            pgbuf_put(b, v->v.s + skip, v->len - skip);
            break;
        }
        /* text, varchar, json: the bytes */
        pgbuf_put_i32(b, (int32_t)v->len);
        pgbuf_put(b, v->v.s, v->len);
        break;
    }
}

static void put_binary_array(pgbuf *b, const attu_column *c, size_t row) {
    attu_type e = attu_type_array_elem(c->type);
    attu_type et = e.id == ATTU_TYPE_TEXT && e.precision && !attu_type_is_enum(e) ? attu_type_varchar_unbounded() : e;
    array_send a = { b, 0, false };
    if (attu_column_array_each(c, row, count_elem, &a) < 0) { pgbuf_put_i32(b, -1); return; }
    size_t at = b->len;
    pgbuf_put_i32(b, 0);                       /* the length, patched below */
    int32_t dims[6], lbs[6];
    int nd = attu_column_array_dims(c, row, dims, lbs);
    if (nd < 0 || !a.n) nd = 0;
    pgbuf_put_i32(b, nd);
    pgbuf_put_i32(b, a.nulls ? 1 : 0);
    pgbuf_put_i32(b, (int32_t)attu_type_pg_oid(et));
    for (int d = 0; d < nd; d++) { pgbuf_put_i32(b, dims[d]); pgbuf_put_i32(b, lbs[d]); }
    attu_column_array_each(c, row, send_elem, &a);
    if (!b->oom && b->len >= at + 4) {
        uint32_t total = (uint32_t)(b->len - at - 4);
        unsigned char be[4] = { (unsigned char)(total >> 24), (unsigned char)(total >> 16), (unsigned char)(total >> 8),
                                (unsigned char)total };
        memcpy(b->data + at, be, 4);
    }
}

/* range_send: the flag byte (attu_column_range_get), then each finite
 * bound as its length and the subtype's binary form (int4send, int8send,
 * numeric_send, date_send, timestamp_send). */
static void put_binary_range(pgbuf *b, const attu_column *c, size_t row) {
    int flags;
    int64_t v[2];
    char num[2][96];
    if (attu_column_range_get(c, row, &flags, v, num)) { pgbuf_put_i32(b, -1); return; }
    size_t at = b->len;
    pgbuf_put_i32(b, 0);                       /* the length, patched below */
    pgbuf_put_u8(b, (uint8_t)flags);
    int scale = c->type.scale - ATTU_RANGE_SCALE_BASE;   /* the range's kind (engine/types.h) */
    for (int i = 0; i < 2 && !(flags & 0x01); i++) {
        if (flags & (i ? 0x10 : 0x08)) continue;
        switch ((attu_range_kind)scale) {
        case ATTU_RANGE_INT4: pgbuf_put_i32(b, 4); pgbuf_put_i32(b, (int32_t)v[i]); break;
        case ATTU_RANGE_INT8: pgbuf_put_i32(b, 8); pgbuf_put_i64(b, v[i]); break;
        case ATTU_RANGE_DATE: pgbuf_put_i32(b, 4); pgbuf_put_i32(b, pg_date(v[i])); break;
        case ATTU_RANGE_TS: case ATTU_RANGE_TSTZ: pgbuf_put_i32(b, 8); pgbuf_put_i64(b, pg_timestamp(v[i])); break;
        default:
            if (!pg_numeric_put_binary(b, num[i], strlen(num[i]))) pgbuf_put_i32(b, -1);
            break;
        }
    }
    if (!b->oom && b->len >= at + 4) {
        uint32_t total = (uint32_t)(b->len - at - 4);
        unsigned char be[4] = { (unsigned char)(total >> 24), (unsigned char)(total >> 16), (unsigned char)(total >> 8),
                                (unsigned char)total };
        memcpy(b->data + at, be, 4);
    }
}

void pg_msg_data_row(pgbuf *b, const attu_result *res, size_t row,
                     const int16_t *formats) {
    pgbuf_begin(b, 'D');
    pg_put_row_fields(b, res, row, formats);
    pgbuf_end(b);
}

void pg_put_row_fields(pgbuf *b, const attu_result *res, size_t row,
                       const int16_t *formats) {
    pgbuf_put_i16(b, (int16_t)res->ncols);
    for (int i = 0; i < res->ncols; i++) {
        const attu_column *c = res->cols[i];
        if (attu_column_is_null(c, row)) { pgbuf_put_i32(b, -1); continue; }
        bool binary = formats && formats[i] == 1;
        bool num = c->type.id == ATTU_TYPE_DECIMAL || c->type.id == ATTU_TYPE_NUMERIC;
        if (binary && attu_type_is_array(c->type)) {
            put_binary_array(b, c, row);
            continue;
        }
        if (binary && attu_type_is_range(c->type)) {
            put_binary_range(b, c, row);
            continue;
        }
        if (binary && c->type.id != ATTU_TYPE_TEXT && !num) {
            put_binary_value(b, c, row);
            continue;
        }
        /* Text format (and binary TEXT, whose bytes are the same). */
        char buf[128];
        const char *longp = NULL;
        size_t n = attu_column_format(c, row, buf, sizeof buf, &longp);
        if (n == (size_t)-1) { pgbuf_put_i32(b, -1); continue; }
        /* Binary NUMERIC is built from the decimal text (pg_numeric.h); the
         * engine only prints decimals it can parse, so the NULL below is a
         * defensive fallback, like put_binary_value's. */
        if (binary && num) {
            if (!pg_numeric_put_binary(b, longp ? longp : buf, n)) pgbuf_put_i32(b, -1);
            continue;
        }
        if (binary && (attu_type_is_uuid(c->type) || attu_type_is_bytea(c->type))) {
            /* uuid_send / byteasend: the bytes the held text spells
             * (engine/types.h: a uuid's canonical text, a bytea's "\x" and
             * lower-case hex) */
            const char *t = longp ? longp : buf;
            uint8_t small[64], *raw = small;
            size_t nb = held_hex_bytes(t, n, attu_type_is_bytea(c->type) ? 2 : 0, NULL);
            if (nb > sizeof small && !(raw = malloc(nb))) { pgbuf_put_i32(b, -1); continue; }
            held_hex_bytes(t, n, attu_type_is_bytea(c->type) ? 2 : 0, raw);
            pgbuf_put_i32(b, (int32_t)nb);
            pgbuf_put(b, raw, nb);
            if (raw != small) free(raw);
            continue;
        }
        if (binary && (attu_type_is_jsonb(c->type) || attu_type_is_jsonpath(c->type))) {
            /* jsonb_send / jsonpath_send: the version byte 1, then the text */
            pgbuf_put_i32(b, (int32_t)n + 1);
            pgbuf_put_u8(b, 1);
            pgbuf_put(b, longp ? longp : buf, n);
            continue;
        }
        pgbuf_put_i32(b, (int32_t)n);
        pgbuf_put(b, longp ? longp : buf, n);
    }
}

void pg_msg_copy_response(pgbuf *b, char type, int ncols, bool binary) {
    pgbuf_begin(b, type);
    pgbuf_put_u8(b, binary ? 1 : 0);    /* overall format */
    pgbuf_put_i16(b, (int16_t)ncols);
    for (int i = 0; i < ncols; i++) pgbuf_put_i16(b, binary ? 1 : 0);
    pgbuf_end(b);
}

void pg_msg_copy_data(pgbuf *b, const char *data, size_t len) {
    pgbuf_begin(b, 'd');
    pgbuf_put(b, data, len);
    pgbuf_end(b);
}
