/*
 * pgwire_decode.h - framing and parsing of frontend messages (protocol v3).
 *
 * Everything here is pure: bytes in, structs out, no I/O and no allocation
 * except where a function says so. Decoded strings and byte ranges point
 * into the caller's payload, which must outlive the struct. Every function
 * checks every length against the bytes actually present, so any input
 * (the fuzz target feeds garbage) yields either a decoded message or an
 * 08P01 error, never a read out of bounds.
 */
#ifndef ATTU_SERVER_PGWIRE_DECODE_H
#define ATTU_SERVER_PGWIRE_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"

/* Request codes carried in place of a protocol version in the first packet. */
#define PG_PROTOCOL_V3      196608u      /* 3.0 */
#define PG_CANCEL_REQUEST   80877102u
#define PG_SSL_REQUEST      80877103u
#define PG_GSSENC_REQUEST   80877104u

#define PG_STARTUP_MAX_LEN  10000       /* as PostgreSQL's MAX_STARTUP_PACKET_LENGTH */
#define PG_MAX_PARAMS       65535

/* A complete typed message found at the front of a buffer. */
typedef struct pg_frame {
    char        type;
    const char *payload;   /* after the length word */
    size_t      len;       /* payload bytes */
    size_t      total;     /* bytes consumed: 1 + 4 + len */
} pg_frame;

/* Looks for a typed message at buf. Returns 1 with *out filled, 0 when more
 * bytes are needed (*need, when non-NULL, gets the full size once the header
 * is known, else 5), -1 with err (08P01) for a bad length, an unknown type,
 * or a message larger than max_len. */
int pg_frame_next(const char *buf, size_t len, size_t max_len, pg_frame *out,
                  size_t *need, attu_error *err);

/* Whether `type` is a frontend message type of protocol v3. */
bool pg_frontend_type_known(char type);

/* The untyped first packet: length word, then the code/version. */
typedef struct pg_startup {
    uint32_t    code;          /* PG_PROTOCOL_V3, PG_CANCEL_REQUEST, ... */
    /* protocol v3 */
    const char *user;
    const char *database;
    const char *application_name;
    const char *options;
    int         nparams;
    const char *names[32];
    const char *values[32];
    /* cancel */
    uint32_t    pid, key;
} pg_startup;

/* Frames the first packet: returns 1 (complete, *total set), 0 (need more)
 * or -1 (bad length). */
int pg_startup_frame(const char *buf, size_t len, size_t *total, attu_error *err);
/* Parses a complete first packet (including its length word). */
int pg_startup_parse(const char *pkt, size_t len, pg_startup *out, attu_error *err);

/* A bounds-checked reader over one payload. */
typedef struct pg_reader {
    const char *p, *end;
    bool bad;
} pg_reader;

void        pg_reader_init(pg_reader *r, const char *p, size_t len);
uint8_t     pg_get_u8(pg_reader *r);
int16_t     pg_get_i16(pg_reader *r);
int32_t     pg_get_i32(pg_reader *r);
const char *pg_get_str(pg_reader *r);              /* NUL-terminated, in place */
const char *pg_get_bytes(pg_reader *r, size_t n);
size_t      pg_remaining(const pg_reader *r);

typedef struct pg_parse_msg {
    const char *name, *query;
    int         nparams;
    uint32_t   *param_oids;    /* malloc'ed (free it), NULL when nparams == 0 */
} pg_parse_msg;

typedef struct pg_bind_msg {
    const char *portal, *stmt;
    int         nparam_formats;
    int16_t    *param_formats;  /* malloc'ed */
    int         nparams;
    const char **param_vals;    /* malloc'ed array of pointers into the payload; NULL = SQL NULL */
    int32_t    *param_lens;     /* malloc'ed */
    int         nresult_formats;
    int16_t    *result_formats; /* malloc'ed */
} pg_bind_msg;

typedef struct pg_target_msg {   /* Describe and Close */
    char        kind;            /* 'S' statement or 'P' portal */
    const char *name;
} pg_target_msg;

typedef struct pg_execute_msg {
    const char *portal;
    int32_t     max_rows;        /* 0 = all */
} pg_execute_msg;

/* Each returns 0 or -1 with err (08P01 "invalid message format" or a more
 * specific message). The payload must end exactly where the fields do. */
int pg_parse_query(const char *p, size_t len, const char **sql, attu_error *err);
int pg_parse_parse(const char *p, size_t len, pg_parse_msg *m, attu_error *err);
void pg_parse_msg_free(pg_parse_msg *m);
int pg_parse_bind(const char *p, size_t len, pg_bind_msg *m, attu_error *err);
void pg_bind_msg_free(pg_bind_msg *m);
int pg_parse_target(const char *p, size_t len, pg_target_msg *m, attu_error *err);
int pg_parse_execute(const char *p, size_t len, pg_execute_msg *m, attu_error *err);
int pg_parse_copy_fail(const char *p, size_t len, const char **msg, attu_error *err);
/* SASLInitialResponse: mechanism name, then client-first data (-1 = none). */
int pg_parse_sasl_initial(const char *p, size_t len, const char **mech,
                          const char **data, size_t *dlen, attu_error *err);

#endif
