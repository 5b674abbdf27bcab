/*
 * pgwire_decode.c - frontend message framing and parsing (see the header).
 */
#include "server/pgwire_decode.h"

#include <stdlib.h>
#include <string.h>

static uint32_t be32(const char *p) {
    const uint8_t *u = (const uint8_t *)p;
    return ((uint32_t)u[0] << 24) | ((uint32_t)u[1] << 16) |
           ((uint32_t)u[2] << 8) | (uint32_t)u[3];
}

bool pg_frontend_type_known(char type) {
    switch (type) {
    case 'Q': case 'P': case 'B': case 'D': case 'E': case 'C': case 'S':
    case 'H': case 'X': case 'd': case 'c': case 'f': case 'p': case 'F':
        return true;
    default:
        return false;
    }
}

int pg_frame_next(const char *buf, size_t len, size_t max_len, pg_frame *out,
                  size_t *need, attu_error *err) {
    if (need) *need = 5;
    if (len < 1) return 0;
    if (!pg_frontend_type_known(buf[0])) {
        unsigned char c = (unsigned char)buf[0];
        if (c >= 32 && c < 127)
            return attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                                  "invalid frontend message type '%c'", c);
        return attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                              "invalid frontend message type %d", c);
    }
    if (len < 5) return 0;
    uint32_t n = be32(buf + 1);
    if (n < 4)
        return attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                              "invalid message length %u", n);
    if ((size_t)n - 4 > max_len)
        return attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                              "message of %u bytes exceeds the limit of %zu bytes",
                              n, max_len);
    size_t total = (size_t)n + 1;
    if (need) *need = total;
    if (len < total) return 0;
    out->type = buf[0];
    out->payload = buf + 5;
    out->len = (size_t)n - 4;
    out->total = total;
    return 1;
}

int pg_startup_frame(const char *buf, size_t len, size_t *total, attu_error *err) {
    if (len < 4) return 0;
    uint32_t n = be32(buf);
    if (n < 8 || n > PG_STARTUP_MAX_LEN)
        return attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                              "invalid length of startup packet");
    if (len < n) return 0;
    *total = n;
    return 1;
}

void pg_reader_init(pg_reader *r, const char *p, size_t len) {
    r->p = p;
    r->end = p + len;
    r->bad = false;
}

size_t pg_remaining(const pg_reader *r) { return (size_t)(r->end - r->p); }

const char *pg_get_bytes(pg_reader *r, size_t n) {
    if (r->bad || pg_remaining(r) < n) { r->bad = true; return NULL; }
    const char *p = r->p;
    r->p += n;
    return p;
}

uint8_t pg_get_u8(pg_reader *r) {
    const char *p = pg_get_bytes(r, 1);
    return p ? (uint8_t)p[0] : 0;
}

int16_t pg_get_i16(pg_reader *r) {
    const char *p = pg_get_bytes(r, 2);
    if (!p) return 0;
    return (int16_t)(((uint16_t)(uint8_t)p[0] << 8) | (uint8_t)p[1]);
}

int32_t pg_get_i32(pg_reader *r) {
    const char *p = pg_get_bytes(r, 4);
    return p ? (int32_t)be32(p) : 0;
}

const char *pg_get_str(pg_reader *r) {
    if (r->bad) return NULL;
    const char *nul = memchr(r->p, 0, pg_remaining(r));
    if (!nul) { r->bad = true; return NULL; }
    const char *s = r->p;
    r->p = nul + 1;
    return s;
}

/* Common tail: the fields must have been read cleanly and used the whole
 * payload (PostgreSQL's pq_getmsgend). */
static int finish(pg_reader *r, const char *what, attu_error *err) {
    if (r->bad || r->p != r->end)
        return attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                              "invalid %s message format", what);
    return 0;
}

int pg_startup_parse(const char *pkt, size_t len, pg_startup *out, attu_error *err) {
    memset(out, 0, sizeof *out);
    pg_reader r;
    pg_reader_init(&r, pkt, len);
    (void)pg_get_i32(&r);   /* length, checked by the framer */
    out->code = (uint32_t)pg_get_i32(&r);
    if (r.bad) return finish(&r, "startup", err);
    switch (out->code) {
    case PG_SSL_REQUEST: case PG_GSSENC_REQUEST:
        return finish(&r, "startup", err);
    case PG_CANCEL_REQUEST:
        out->pid = (uint32_t)pg_get_i32(&r);
        out->key = (uint32_t)pg_get_i32(&r);
        return finish(&r, "cancel request", err);
    default:
        break;
    }
    if ((out->code >> 16) != 3)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "unsupported frontend protocol %u.%u: server supports 3.0 to 3.0",
                              out->code >> 16, out->code & 0xffff);
    /* name/value pairs, then a terminating empty name */
    for (;;) {
        const char *name = pg_get_str(&r);
        if (!name) return finish(&r, "startup", err);
        if (!name[0]) break;
        const char *value = pg_get_str(&r);
        if (!value) return finish(&r, "startup", err);
        if (!strcmp(name, "user")) out->user = value;
        else if (!strcmp(name, "database")) out->database = value;
        else if (!strcmp(name, "application_name")) out->application_name = value;
        else if (!strcmp(name, "options")) out->options = value;
        if (out->nparams < 32) {
            out->names[out->nparams] = name;
            out->values[out->nparams] = value;
            out->nparams++;
        }
    }
    if (finish(&r, "startup", err)) return -1;
    if (!out->user || !out->user[0])
        return attu_error_set(err, ATTU_SQLSTATE_INVALID_PASSWORD, 0,
                              "no PostgreSQL user name specified in startup packet");
    return 0;
}

int pg_parse_query(const char *p, size_t len, const char **sql, attu_error *err) {
    pg_reader r;
    pg_reader_init(&r, p, len);
    *sql = pg_get_str(&r);
    return finish(&r, "Query", err);
}

int pg_parse_parse(const char *p, size_t len, pg_parse_msg *m, attu_error *err) {
    memset(m, 0, sizeof *m);
    pg_reader r;
    pg_reader_init(&r, p, len);
    m->name = pg_get_str(&r);
    m->query = pg_get_str(&r);
    int16_t n = pg_get_i16(&r);
    if (r.bad || n < 0 || (size_t)n * 4 != pg_remaining(&r))
        return attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                              "invalid Parse message format");
    if (n > 0) {
        m->param_oids = malloc((size_t)n * sizeof *m->param_oids);
        if (!m->param_oids) return attu_error_oom(err);
        for (int i = 0; i < n; i++) m->param_oids[i] = (uint32_t)pg_get_i32(&r);
    }
    m->nparams = n;
    return finish(&r, "Parse", err);
}

void pg_parse_msg_free(pg_parse_msg *m) {
    free(m->param_oids);
    m->param_oids = NULL;
}

void pg_bind_msg_free(pg_bind_msg *m) {
    free(m->param_formats);
    free(m->param_vals);
    free(m->param_lens);
    free(m->result_formats);
    memset(m, 0, sizeof *m);
}

/* Reads a count followed by that many int16 format codes (0 or 1). */
static int read_formats(pg_reader *r, int *count, int16_t **out, attu_error *err) {
    int16_t n = pg_get_i16(r);
    if (r->bad || n < 0 || (size_t)n * 2 > pg_remaining(r))
        return attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                              "invalid Bind message format");
    *count = n;
    if (!n) return 0;
    *out = malloc((size_t)n * sizeof **out);
    if (!*out) return attu_error_oom(err);
    for (int i = 0; i < n; i++) {
        (*out)[i] = pg_get_i16(r);
        if ((*out)[i] != 0 && (*out)[i] != 1)
            return attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                                  "unsupported format code: %d", (*out)[i]);
    }
    return 0;
}

int pg_parse_bind(const char *p, size_t len, pg_bind_msg *m, attu_error *err) {
    memset(m, 0, sizeof *m);
    pg_reader r;
    pg_reader_init(&r, p, len);
    m->portal = pg_get_str(&r);
    m->stmt = pg_get_str(&r);
    if (r.bad) return finish(&r, "Bind", err);
    if (read_formats(&r, &m->nparam_formats, &m->param_formats, err)) return -1;
    int16_t n = pg_get_i16(&r);
    /* every parameter takes at least its 4-byte length word */
    if (r.bad || n < 0 || (size_t)n * 4 > pg_remaining(&r))
        return attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                              "invalid Bind message format");
    if (m->nparam_formats > 1 && m->nparam_formats != n)
        return attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                              "bind message has %d parameter formats but %d parameters",
                              m->nparam_formats, n);
    m->nparams = n;
    if (n > 0) {
        m->param_vals = calloc((size_t)n, sizeof *m->param_vals);
        m->param_lens = calloc((size_t)n, sizeof *m->param_lens);
        if (!m->param_vals || !m->param_lens) return attu_error_oom(err);
    }
    for (int i = 0; i < n; i++) {
        int32_t l = pg_get_i32(&r);
        if (r.bad || l < -1)
            return attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                                  "invalid Bind message format");
        m->param_lens[i] = l;
        if (l >= 0) {
            m->param_vals[i] = pg_get_bytes(&r, (size_t)l);
            if (!m->param_vals[i])
                return attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                                      "insufficient data left in message");
        }
    }
    if (read_formats(&r, &m->nresult_formats, &m->result_formats, err)) return -1;
    return finish(&r, "Bind", err);
}

int pg_parse_target(const char *p, size_t len, pg_target_msg *m, attu_error *err) {
    pg_reader r;
    pg_reader_init(&r, p, len);
    m->kind = (char)pg_get_u8(&r);
    m->name = pg_get_str(&r);
    if (finish(&r, "Describe/Close", err)) return -1;
    if (m->kind != 'S' && m->kind != 'P')
        return attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                              "invalid Describe/Close message subtype %d",
                              (unsigned char)m->kind);
    return 0;
}

int pg_parse_execute(const char *p, size_t len, pg_execute_msg *m, attu_error *err) {
    pg_reader r;
    pg_reader_init(&r, p, len);
    m->portal = pg_get_str(&r);
    m->max_rows = pg_get_i32(&r);
    if (m->max_rows < 0) m->max_rows = 0;
    return finish(&r, "Execute", err);
}

int pg_parse_copy_fail(const char *p, size_t len, const char **msg, attu_error *err) {
    pg_reader r;
    pg_reader_init(&r, p, len);
    *msg = pg_get_str(&r);
    return finish(&r, "CopyFail", err);
}

int pg_parse_sasl_initial(const char *p, size_t len, const char **mech,
                          const char **data, size_t *dlen, attu_error *err) {
    pg_reader r;
    pg_reader_init(&r, p, len);
    *mech = pg_get_str(&r);
    int32_t n = pg_get_i32(&r);
    *data = NULL;
    *dlen = 0;
    if (!r.bad && n >= 0) {
        *data = pg_get_bytes(&r, (size_t)n);
        *dlen = (size_t)n;
    }
    return finish(&r, "SASLInitialResponse", err);
}
