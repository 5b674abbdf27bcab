/*
 * pgwire_range_recv.c - Bind parameters (and COPY FROM binary fields) of
 * the range types in binary format: PostgreSQL's range_recv layout (a
 * flag byte, then each finite bound as its length and the subtype's
 * binary value) read into range_in's text, each bound through
 * pg_binary_scalar_to_text and quoted, so the database reads the range
 * back (engine/range.h: canonical form, 22000 for bounds out of order).
 */
#include "server/pgwire_binary_param.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/types.h"

/* range_recv's flag bits (PostgreSQL's RANGE_*) */
enum { RF_EMPTY = 0x01, RF_LB_INC = 0x02, RF_UB_INC = 0x04, RF_LB_INF = 0x08, RF_UB_INF = 0x10 };

uint32_t pg_range_subtype_oid(uint32_t oid) {
    switch (oid) {
    case ATTU_PG_OID_INT4RANGE: return ATTU_PG_OID_INT4;
    case ATTU_PG_OID_INT8RANGE: return ATTU_PG_OID_INT8;
    case ATTU_PG_OID_NUMRANGE: return ATTU_PG_OID_NUMERIC;
    case ATTU_PG_OID_DATERANGE: return ATTU_PG_OID_DATE;
    case ATTU_PG_OID_TSRANGE: return ATTU_PG_OID_TIMESTAMP;
    case ATTU_PG_OID_TSTZRANGE: return ATTU_PG_OID_TIMESTAMPTZ;
    default: return 0;
    }
}

static uint32_t be32(const unsigned char *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* s appended to out[*n] in double quotes, a quote or a backslash escaped
 * (out has room: the caller sized it). */
static void put_quoted(char *out, size_t *n, const char *s) {
    out[(*n)++] = '"';
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') out[(*n)++] = '\\';
        out[(*n)++] = *s;
    }
    out[(*n)++] = '"';
}

char *pg_range_recv_text(uint32_t oid, const char *v, int32_t len, int param, attu_error *err) {
    uint32_t sub = pg_range_subtype_oid(oid);
    const unsigned char *u = (const unsigned char *)v;
    if (len < 1) {
        attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0, "no data left in message");
        return NULL;
    }
    int flags = u[0];
    if (flags & RF_EMPTY) {
        if (len > 1) goto too_long;
        return strdup("empty");
    }
    int32_t at = 1;
    char *b[2] = { NULL, NULL };
    for (int i = 0; i < 2; i++) {
        if (flags & (i ? RF_UB_INF : RF_LB_INF)) continue;
        if (len - at < 4) {
            attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0, "insufficient data left in message");
            goto fail;
        }
        int32_t bl = (int32_t)be32(u + at);
        at += 4;
        if (bl < 0 || bl > len - at) {
            attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0, "insufficient data left in message");
            goto fail;
        }
        if (!(b[i] = pg_binary_scalar_to_text(sub, v + at, bl, param, 0, err))) goto fail;
        at += bl;
    }
    if (at != len) { free(b[0]); free(b[1]); goto too_long; }
    size_t cap = 8 + (b[0] ? 2 * strlen(b[0]) : 0) + (b[1] ? 2 * strlen(b[1]) : 0), n = 0;
    char *out = malloc(cap);
    if (!out) { attu_error_oom(err); goto fail; }
    out[n++] = (flags & RF_LB_INC) && b[0] ? '[' : '(';
    if (b[0]) put_quoted(out, &n, b[0]);
    out[n++] = ',';
    if (b[1]) put_quoted(out, &n, b[1]);
    out[n++] = (flags & RF_UB_INC) && b[1] ? ']' : ')';
    out[n] = 0;
    free(b[0]);
    free(b[1]);
    return out;
fail:
    free(b[0]);
    free(b[1]);
    return NULL;
too_long:
    if (param) attu_error_set(err, "22P03", 0, "incorrect binary data format in bind parameter %d", param);
    else attu_error_set(err, "22P03", 0, "incorrect binary data format");
    return NULL;
}
