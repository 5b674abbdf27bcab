/*
 * pgwire_array_recv.c - a binary array Bind parameter (PostgreSQL's
 * array_recv layout) turned into array_in's text, which the database
 * reads as the parameter's array type:
 *
 *   int32 ndim (0 .. 6), int32 flags (0, or 1: has NULLs), uint32 element
 *   type OID, then per dimension int32 length and int32 lower bound, then
 *   each element in storage order (the last subscript fastest): int32
 *   length, -1 for NULL, then the element type's *_recv layout.
 *
 * The checks and their errors follow array_recv and ReadArrayBinary in
 * that order (a short header is 08P01, as pq_getmsgint says; an element
 * length past the data is 22P03), and an element is read by the scalar
 * reader of pgwire_binary_param.c. Elements are quoted in the text
 * whatever their type, so no value needs array_out's quoting rules, and
 * the dimensions are written out ("[0:1]=") where a lower bound is not 1.
 */
#include "server/pgwire_binary_param.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/pg_array_oid.h"

/* PostgreSQL's MAXDIM and MaxArraySize (MaxAllocSize / sizeof(Datum)) */
#define PG_MAXDIM 6
#define PG_MAX_ARRAY_SIZE 134217727
/* OIDs below this are built in (FirstGenbkiObjectId): only between two of
 * them does array_recv call an element type mismatch an error */
#define PG_FIRST_GENBKI_OID 10000

/* format_type's spelling of the built-in types a client might name as an
 * element type ("???" for the rest, as format_type says of an OID it
 * does not know). */
static const char *pg_type_name(uint32_t oid) {
    switch (oid) {
    case 16: return "boolean";
    case 17: return "bytea";
    case 18: return "\"char\"";
    case 19: return "name";
    case 20: return "bigint";
    case 21: return "smallint";
    case 23: return "integer";
    case 25: return "text";
    case 24: return "regproc";
    case 26: return "oid";
    case 27: return "tid";
    case 28: return "xid";
    case 29: return "cid";
    case 114: return "json";
    case 199: return "json[]";
    case 1001: return "bytea[]";
    case 2951: return "uuid[]";
    case 3807: return "jsonb[]";
    case 142: return "xml";
    case 600: return "point";
    case 601: return "lseg";
    case 602: return "path";
    case 603: return "box";
    case 604: return "polygon";
    case 628: return "line";
    case 650: return "cidr";
    case 700: return "real";
    case 701: return "double precision";
    case 705: return "unknown";
    case 718: return "circle";
    case 790: return "money";
    case 829: return "macaddr";
    case 869: return "inet";
    case 1000: return "boolean[]";
    case 1005: return "smallint[]";
    case 1007: return "integer[]";
    case 1009: return "text[]";
    case 1014: return "character[]";
    case 1015: return "character varying[]";
    case 1016: return "bigint[]";
    case 1021: return "real[]";
    case 1022: return "double precision[]";
    case 1042: return "character";
    case 1043: return "character varying";
    case 1082: return "date";
    case 1083: return "time without time zone";
    case 1114: return "timestamp without time zone";
    case 1184: return "timestamp with time zone";
    case 1186: return "interval";
    case 1231: return "numeric[]";
    case 1266: return "time with time zone";
    case 1560: return "bit";
    case 1562: return "bit varying";
    case 1700: return "numeric";
    case 2950: return "uuid";
    case 3802: return "jsonb";
    default: return "???";
    }
}

/* A cursor over the value, as PostgreSQL's StringInfo. */
typedef struct reader { const unsigned char *p; int32_t len, pos; } reader;

static int get_i32(reader *r, int32_t *out, attu_error *err) {
    if (r->len - r->pos < 4)
        return attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0, "insufficient data left in message");
    const unsigned char *u = r->p + r->pos;
    *out = (int32_t)(((uint32_t)u[0] << 24) | ((uint32_t)u[1] << 16) | ((uint32_t)u[2] << 8) | u[3]);
    r->pos += 4;
    return 0;
}

/* A growable text (malloc'd); oom set once an append fails. */
typedef struct text_buf { char *s; size_t len, cap; bool oom; } text_buf;

static void put(text_buf *t, const char *s, size_t n) {
    if (t->oom) return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 64;
        while (cap < t->len + n + 1) cap *= 2;
        char *p = realloc(t->s, cap);
        if (!p) { t->oom = true; return; }
        t->s = p;
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = 0;
}

static void put_c(text_buf *t, char c, int64_t times) {
    for (int64_t i = 0; i < times; i++) put(t, &c, 1);
}

/* One element's text, double-quoted, " and \ escaped. */
static void put_quoted(text_buf *t, const char *s) {
    put(t, "\"", 1);
    for (const char *q = s; *q; q++) {
        if (*q == '"' || *q == '\\') put(t, "\\", 1);
        put(t, q, 1);
    }
    put(t, "\"", 1);
}

static char *fail(text_buf *t) {
    free(t->s);
    return NULL;
}

char *pg_array_recv_text(uint32_t array_oid, const char *v, int32_t len, int param, attu_error *err) {
    uint32_t want = pg_param_array_elem_oid(array_oid);
    reader r = { (const unsigned char *)v, len, 0 };
    text_buf t = { 0 };
    int32_t ndim = 0, flags = 0, elem_oid = 0;   /* read before use; zeroed for -Wmaybe-uninitialized */
    if (get_i32(&r, &ndim, err)) return NULL;
    if (ndim < 0) {
        attu_error_set(err, "22P03", 0, "invalid number of dimensions: %d", ndim);
        return NULL;
    }
    if (ndim > PG_MAXDIM) {
        attu_error_set(err, "54000", 0, "number of array dimensions (%d) exceeds the maximum allowed (%d)",
                       ndim, PG_MAXDIM);
        return NULL;
    }
    if (get_i32(&r, &flags, err)) return NULL;
    /* the flag need not match the elements: PostgreSQL ignores it */
    if (flags != 0 && flags != 1) {
        attu_error_set(err, "22P03", 0, "invalid array flags");
        return NULL;
    }
    if (get_i32(&r, &elem_oid, err)) return NULL;
    /* a user type's OID (10000 and up) is no evidence of a mismatch:
     * array_recv goes on with the expected element type */
    if ((uint32_t)elem_oid != want && (uint32_t)elem_oid < PG_FIRST_GENBKI_OID) {
        attu_error_set(err, "42804", 0, "binary data has array element type %u (%s) instead of expected %u (%s)",
                       (uint32_t)elem_oid, pg_type_name((uint32_t)elem_oid), want, pg_type_name(want));
        return NULL;
    }
    int32_t dims[PG_MAXDIM], lbs[PG_MAXDIM];
    for (int d = 0; d < ndim; d++)
        if (get_i32(&r, &dims[d], err) || get_i32(&r, &lbs[d], err)) return NULL;
    /* ArrayGetNItems, then ArrayCheckBounds */
    int64_t nitems = ndim ? 1 : 0;
    for (int d = 0; d < ndim; d++) {
        if (dims[d] < 0 || (nitems *= dims[d]) > PG_MAX_ARRAY_SIZE) {
            attu_error_set(err, "54000", 0, "array size exceeds the maximum allowed (%d)", PG_MAX_ARRAY_SIZE);
            return NULL;
        }
    }
    for (int d = 0; d < ndim; d++)
        if ((int64_t)dims[d] + lbs[d] > INT32_MAX) {
            attu_error_set(err, "54000", 0, "array lower bound is too large: %d", lbs[d]);
            return NULL;
        }
    if (nitems == 0) {
        put(&t, "{}", 2);
    } else {
        bool bounds = false;
        for (int d = 0; d < ndim; d++) bounds = bounds || lbs[d] != 1;
        if (bounds) {
            char dim[32];
            for (int d = 0; d < ndim; d++) {
                snprintf(dim, sizeof dim, "[%d:%d]", lbs[d], (int32_t)((int64_t)lbs[d] + dims[d] - 1));
                put(&t, dim, strlen(dim));
            }
            put(&t, "=", 1);
        }
        /* span[d]: how many elements one entry of dimension d holds; an
         * element at a multiple of it opens (and the one before it closes)
         * that dimension's braces */
        int64_t span[PG_MAXDIM];
        span[ndim - 1] = dims[ndim - 1];
        for (int d = ndim - 2; d >= 0; d--) span[d] = span[d + 1] * dims[d];
        for (int64_t k = 0; k < nitems; k++) {
            int edges = 0;
            for (int d = 0; d < ndim; d++) edges += k % span[d] == 0;
            if (k) {
                put_c(&t, '}', edges);
                put(&t, ",", 1);
            }
            put_c(&t, '{', edges);
            int32_t n = 0;
            if (get_i32(&r, &n, err)) return fail(&t);
            if (n < -1 || n > r.len - r.pos) {
                attu_error_set(err, "22P03", 0, "insufficient data left in message");
                return fail(&t);
            }
            if (n == -1) {
                put(&t, "NULL", 4);
                continue;
            }
            char *s = pg_binary_scalar_to_text(want, v + r.pos, n, param, (int)k + 1, err);
            if (!s) return fail(&t);
            r.pos += n;
            put_quoted(&t, s);
            free(s);
        }
        put_c(&t, '}', ndim);
    }
    /* the Bind's own check: every byte of the value read */
    if (r.pos != r.len) {
        if (param) attu_error_set(err, "22P03", 0, "incorrect binary data format in bind parameter %d", param);
        else attu_error_set(err, "22P03", 0, "incorrect binary data format");   /* COPY FROM binary */
        return fail(&t);
    }
    if (t.oom) {
        attu_error_oom(err);
        return fail(&t);
    }
    return t.s;
}
