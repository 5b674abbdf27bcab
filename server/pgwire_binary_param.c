/*
 * pgwire_binary_param.c - Bind parameters in binary format
 * (pgwire_binary_param.h): each scalar type's *_recv layout read into the
 * text its input function reads back to the same value; arrays go to
 * pgwire_array_recv.c, which comes back here for each element.
 */
#include "server/pgwire_binary_param.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/datestyle.h"
#include "engine/domain_type.h"
#include "engine/enum_type.h"
#include "engine/pg_array_oid.h"
#include "engine/time_of_day.h"
#include "engine/types.h"
#include "server/pg_numeric.h"

static uint32_t be32(const char *p) {
    const uint8_t *u = (const uint8_t *)p;
    return ((uint32_t)u[0] << 24) | ((uint32_t)u[1] << 16) | ((uint32_t)u[2] << 8) | u[3];
}

/* The byte length a UTF-8 sequence's lead byte announces (1 for a byte
 * that leads none), as pg_utf_mblen. */
static int utf8_len(unsigned char c) {
    return c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf8 ? 4 : 1;
}

/* Whether s[0..n) (n >= utf8_len) is one legal UTF-8 character, as
 * pg_utf8_islegal: no overlong form, no surrogate, nothing past U+10FFFF. */
static bool utf8_legal(const unsigned char *s, int n) {
    unsigned char a = s[0];
    if (n == 1) return a < 0x80;
    for (int i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xbf) return false;
    unsigned char b = s[1];
    switch (a) {
    case 0xe0: return b >= 0xa0 && b <= 0xbf;
    case 0xed: return b >= 0x80 && b <= 0x9f;
    case 0xf0: return b >= 0x90 && b <= 0xbf;
    case 0xf4: return b >= 0x80 && b <= 0x8f;
    default:
        if (a < 0xc2 || a > 0xf4) return false;
        return b >= 0x80 && b <= 0xbf;
    }
}

int pg_utf8_check(const char *v, int32_t len, attu_error *err) {
    const unsigned char *u = (const unsigned char *)v;
    for (int32_t i = 0; i < len;) {
        int n = u[i] ? utf8_len(u[i]) : 1;
        if (u[i] && n <= len - i && utf8_legal(u + i, n)) { i += n; continue; }
        /* PostgreSQL's report_invalid_encoding: the bytes the lead byte
         * announces, as far as there are any */
        char bytes[32] = "";
        size_t at = 0;
        for (int k = 0; k < n && i + k < len; k++)
            at += (size_t)snprintf(bytes + at, sizeof bytes - at, "%s0x%02x", k ? " " : "", u[i + k]);
        return attu_error_set(err, ATTU_SQLSTATE_CHARACTER_NOT_IN_REPERTOIRE, 0,
                              "invalid byte sequence for encoding \"UTF8\": %s", bytes);
    }
    return 0;
}

/* an enum type's OID is even in its range, its array's odd */
static bool enum_oid(uint32_t oid) {
    return oid >= ATTU_ENUM_OID_BASE && oid < ATTU_DOMAIN_OID_BASE && oid % 2 == 0;
}

/* PostgreSQL's ranges in its own units, counted from 2000-01-01:
 * IS_VALID_DATE's days (Julian day 0 up to, not including, its
 * DATE_END_JULIAN) and IS_VALID_TIMESTAMP's microseconds. */
#define PG_DATE_MIN (-2451545)
#define PG_DATE_MAX 2145031948
#define PG_TIMESTAMP_MIN INT64_C(-211813488000000000)
#define PG_TIMESTAMP_END INT64_C(9223371331200000000)

char *pg_binary_scalar_to_text(uint32_t oid, const char *v, int32_t len, int param, int elem,
                               attu_error *err) {
    char buf[128];
    int32_t want = -1;
    switch (oid) {
    case ATTU_PG_OID_BOOL: want = 1; break;
    case ATTU_PG_OID_INT2: want = 2; break;
    case ATTU_PG_OID_INT4: case ATTU_PG_OID_FLOAT4: case ATTU_PG_OID_DATE: want = 4; break;
    case ATTU_PG_OID_INT8: case ATTU_PG_OID_FLOAT8: case ATTU_PG_OID_TIMESTAMP:
    case ATTU_PG_OID_TIMESTAMPTZ: case ATTU_PG_OID_TIME: want = 8; break;
    case ATTU_PG_OID_TIMETZ: want = 12; break;
    case ATTU_PG_OID_INTERVAL: want = 16; break;
    case ATTU_PG_OID_JSONB: case ATTU_PG_OID_JSONPATH:
        /* jsonb_recv / jsonpath_recv: a version byte, 1, then the text
         * (a jsonpath's read by jsonpath_in where the statement runs) */
        if (len < 1 || v[0] != 1) {
            attu_error_set(err, "XX000", 0, "unsupported %s version number %d", oid == ATTU_PG_OID_JSONB ? "jsonb" : "jsonpath",
                           len < 1 ? 0 : (int)(unsigned char)v[0]);
            return NULL;
        }
        v++;
        len--;
        /* fallthrough */
    case ATTU_PG_OID_JSON:
    case ATTU_PG_OID_TEXT: case ATTU_PG_OID_VARCHAR: case ATTU_PG_OID_BPCHAR: case ATTU_PG_OID_UNKNOWN: {
        if (pg_utf8_check(v, len, err)) return NULL;
        char *s = strndup(v, (size_t)len);
        if (!s) attu_error_oom(err);
        return s;
    }
    case ATTU_PG_OID_UUID: want = 16; break;   /* uuid_recv: the 16 bytes */
    case ATTU_PG_OID_BYTEA: {
        /* bytearecv: the bytes as they are, sent on as bytea's hex text */
        char *h = malloc(2 * (size_t)len + 3);
        if (!h) { attu_error_oom(err); return NULL; }
        h[0] = '\\'; h[1] = 'x';
        for (int32_t i = 0; i < len; i++) {
            h[2 + 2 * i] = "0123456789abcdef"[(uint8_t)v[i] >> 4];
            h[3 + 2 * i] = "0123456789abcdef"[(uint8_t)v[i] & 15];
        }
        h[2 + 2 * (size_t)len] = 0;
        return h;
    }
    case ATTU_PG_OID_NUMERIC:   /* pgjdbc's setBigDecimal sends these */
        return pg_numeric_binary_to_text(v, len, param, elem, err);
    default:
        if (enum_oid(oid)) {
            /* an enum type's OID (its array's is odd): enum_recv reads
             * the label's text, as psycopg 3 sends a registered enum's
             * members in binary; the statement then checks the label */
            if (pg_utf8_check(v, len, err)) return NULL;
            char *s = strndup(v, (size_t)len);
            if (!s) attu_error_oom(err);
            return s;
        }
        if (param)
            attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                           "binary format is not supported for parameter $%d (type OID %u)",
                           param, oid);
        else
            attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                           "binary format is not supported for type OID %u", oid);
        return NULL;
    }
    /* PostgreSQL's receive functions read past a short value's end
     * (08P01, an ERROR: the connection goes on) and leave bytes of a long
     * one unread (22P03) */
    if (len < want) {
        /* boolrecv reads one byte (pq_getmsgbyte), the others an int or more */
        attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                       oid == ATTU_PG_OID_BOOL ? "no data left in message" : "insufficient data left in message");
        return NULL;
    }
    if (len > want) {
        if (elem) attu_error_set(err, "22P03", 0, "improper binary format in array element %d", elem);
        else if (param) attu_error_set(err, "22P03", 0, "incorrect binary data format in bind parameter %d", param);
        else attu_error_set(err, "22P03", 0, "incorrect binary data format");   /* COPY FROM binary */
        return NULL;
    }
    uint64_t u64 = len == 8 ? ((uint64_t)be32(v) << 32) | be32(v + 4) : 0;
    switch (oid) {
    case ATTU_PG_OID_UUID:
        /* uuid_in takes the 32 digits without hyphens */
        for (int i = 0; i < 16; i++) snprintf(buf + 2 * i, sizeof buf - 2 * (size_t)i, "%02x", (uint8_t)v[i]);
        break;
    case ATTU_PG_OID_BOOL: snprintf(buf, sizeof buf, "%s", v[0] ? "t" : "f"); break;
    case ATTU_PG_OID_INT2: snprintf(buf, sizeof buf, "%d",
                      (int16_t)(((uint16_t)(uint8_t)v[0] << 8) | (uint8_t)v[1])); break;
    case ATTU_PG_OID_INT4: snprintf(buf, sizeof buf, "%d", (int32_t)be32(v)); break;
    case ATTU_PG_OID_INT8: snprintf(buf, sizeof buf, "%lld", (long long)(int64_t)u64); break;
    case ATTU_PG_OID_FLOAT4: {
        uint32_t b = be32(v);
        float f;
        memcpy(&f, &b, 4);
        snprintf(buf, sizeof buf, "%.9g", (double)f);
        break;
    }
    case ATTU_PG_OID_FLOAT8: {
        double d;
        memcpy(&d, &u64, 8);
        snprintf(buf, sizeof buf, "%.17g", d);
        break;
    }
    case ATTU_PG_OID_DATE: {
        /* date_recv: days from 2000-01-01; INT32_MIN and INT32_MAX are
         * -infinity and infinity, anything else outside 4714-11-24 BC ..
         * 5874897-12-31 fails the Bind (22008, without the value) */
        int32_t pg = (int32_t)be32(v);
        if (pg == INT32_MIN || pg == INT32_MAX) {
            snprintf(buf, sizeof buf, "%s", pg == INT32_MIN ? "-infinity" : "infinity");
            break;
        }
        if (pg < PG_DATE_MIN || pg > PG_DATE_MAX) {
            attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "date out of range");
            return NULL;
        }
        int32_t days = pg + 10957;   /* 2000-01-01 -> 1970-01-01 */
        attu_datestyle was = attu_datestyle_use_iso();   /* (read back: datestyle.h) */
        attu_value_format(attu_type_make(ATTU_TYPE_DATE), &days, buf, sizeof buf);
        attu_datestyle_set_session(was);
        break;
    }
    case ATTU_PG_OID_TIMESTAMP:
    case ATTU_PG_OID_TIMESTAMPTZ: {   /* an instant: shown in the session's zone, read back the same */
        /* timestamp_recv, timestamptz_recv: microseconds from 2000-01-01;
         * INT64_MIN and INT64_MAX are -infinity and infinity, anything
         * else outside 4714-11-24 BC .. 294276 AD fails the Bind (22008).
         * Past attu's own end (its microseconds count from 1970, so its
         * range ends some 30 years short of PostgreSQL's) the text below
         * fails the Bind's input check, as the same text would. */
        int64_t pg = (int64_t)u64;
        if (pg == INT64_MIN || pg == INT64_MAX) {
            snprintf(buf, sizeof buf, "%s", pg == INT64_MIN ? "-infinity" : "infinity");
            break;
        }
        if (pg < PG_TIMESTAMP_MIN || pg >= PG_TIMESTAMP_END) {
            attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "timestamp out of range");
            return NULL;
        }
        int64_t us;
        if (__builtin_add_overflow(pg, INT64_C(946684800000000), &us) || us == INT64_MAX) {
            attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "timestamp out of range");
            return NULL;
        }
        attu_datestyle was = attu_datestyle_use_iso();   /* (read back: datestyle.h) */
        attu_value_format(attu_type_make(oid == ATTU_PG_OID_TIMESTAMP ? ATTU_TYPE_TIMESTAMP : ATTU_TYPE_TIMESTAMPTZ),
                          &us, buf, sizeof buf);
        attu_datestyle_set_session(was);
        break;
    }
    case ATTU_PG_OID_TIME: {   /* time_recv: microseconds since midnight, 0 .. 24:00:00 */
        int64_t us = (int64_t)u64;
        if (us < 0 || us > INT64_C(86400000000)) {
            attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "time out of range");
            return NULL;
        }
        attu_value_format(attu_type_make(ATTU_TYPE_TIME), &us, buf, sizeof buf);
        break;
    }
    case ATTU_PG_OID_TIMETZ: {   /* timetz_recv: microseconds, then seconds west */
        int64_t us = (int64_t)(((uint64_t)be32(v) << 32) | be32(v + 4));
        int32_t west = (int32_t)be32(v + 8);
        if (us < 0 || us > INT64_C(86400000000)) {
            attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "time out of range");
            return NULL;
        }
        if (west <= -57600 || west >= 57600) {
            attu_error_set(err, "22009", 0, "time zone displacement out of range");
            return NULL;
        }
        int64_t packed = attu_timetz_pack(us, -west);
        attu_value_format(attu_type_make(ATTU_TYPE_TIMETZ), &packed, buf, sizeof buf);
        break;
    }
    case ATTU_PG_OID_INTERVAL: {    /* interval_recv: microseconds, days, months */
        /* Spelled field by field rather than in the output style: a time of
           INT64_MIN microseconds prints as -2562047788:00:54.775808, which
           interval input (PostgreSQL's too) rejects, while every slot reads
           back from its units. */
        int64_t us = (int64_t)(((uint64_t)be32(v) << 32) | be32(v + 4));
        int32_t days = (int32_t)be32(v + 8), months = (int32_t)be32(v + 12);
        snprintf(buf, sizeof buf, "%d mons %d days %lld microseconds", months, days,
                 (long long)us);
        break;
    }
    }
    char *s = strdup(buf);
    if (!s) attu_error_oom(err);
    return s;
}


uint32_t pg_param_array_elem_oid(uint32_t oid) {
    if (enum_oid(oid - 1)) return oid - 1;
    return attu_pg_array_elem_oid(oid);
}

char *pg_binary_param_to_text(uint32_t oid, const char *v, int32_t len, int param, attu_error *err) {
    if (pg_param_array_elem_oid(oid)) return pg_array_recv_text(oid, v, len, param, err);
    if (pg_range_subtype_oid(oid)) return pg_range_recv_text(oid, v, len, param, err);
    return pg_binary_scalar_to_text(oid, v, len, param, 0, err);
}
