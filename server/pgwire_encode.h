/*
 * pgwire_encode.h - building backend messages of the PostgreSQL protocol v3.
 *
 * A pgbuf is a growable byte buffer. Messages are appended with
 * pgbuf_begin(type) ... pgbuf_end(): begin reserves the length word and end
 * back-patches it, so every helper below just appends fields. Integers go
 * out in network byte order, strings NUL-terminated, as the protocol wants.
 * Allocation failure is sticky (oom flag) rather than fatal: the caller
 * checks once per batch and drops the connection.
 */
#ifndef ATTU_SERVER_PGWIRE_ENCODE_H
#define ATTU_SERVER_PGWIRE_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/database.h"
#include "engine/error.h"

typedef struct pgbuf {
    char  *data;
    size_t len;
    size_t cap;
    size_t msg_start;   /* offset of the open message's type byte */
    bool   oom;
} pgbuf;

void pgbuf_init(pgbuf *b);
void pgbuf_free(pgbuf *b);
void pgbuf_reset(pgbuf *b);
/* Takes the bytes out (caller frees with free()); the buffer is emptied. */
char *pgbuf_steal(pgbuf *b, size_t *len);

bool pgbuf_reserve(pgbuf *b, size_t extra);
void pgbuf_put(pgbuf *b, const void *p, size_t n);
void pgbuf_put_u8(pgbuf *b, uint8_t v);
void pgbuf_put_i16(pgbuf *b, int16_t v);
void pgbuf_put_i32(pgbuf *b, int32_t v);
void pgbuf_put_i64(pgbuf *b, int64_t v);
void pgbuf_put_str(pgbuf *b, const char *s);   /* with its NUL */

void pgbuf_begin(pgbuf *b, char type);
void pgbuf_end(pgbuf *b);

/* Whole messages. */
void pg_msg_auth(pgbuf *b, int32_t code, const void *extra, size_t n);
void pg_msg_parameter_status(pgbuf *b, const char *name, const char *value);
void pg_msg_backend_key(pgbuf *b, uint32_t pid, uint32_t key);
void pg_msg_ready(pgbuf *b, char txn_status);
/* NotificationResponse: a LISTENed channel's notification */
void pg_msg_notification(pgbuf *b, uint32_t pid, const char *channel, const char *payload);
void pg_msg_command_complete(pgbuf *b, const char *tag);
void pg_msg_empty_query(pgbuf *b);
void pg_msg_simple(pgbuf *b, char type);   /* ParseComplete '1', NoData 'n', ... */

/* ErrorResponse (severity "ERROR"/"FATAL") or NoticeResponse ('N'). */
void pg_msg_error(pgbuf *b, const char *severity, const attu_error *err);
void pg_msg_error_simple(pgbuf *b, const char *severity, const char *sqlstate,
                         const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void pg_msg_notice(pgbuf *b, const char *sqlstate, const char *message);
/* NoticeResponse of another severity: "WARNING" (PostgreSQL's 25P01 for
 * COMMIT outside a transaction block), "NOTICE", "INFO", ... */
void pg_msg_notice_severity(pgbuf *b, const char *severity, const char *sqlstate, const char *message);

/* Result formats: 0 text, 1 binary. formats may be NULL (all text). */
void pg_msg_row_description(pgbuf *b, int ncols, const attu_result_column *desc,
                            const int16_t *formats);
void pg_msg_parameter_description(pgbuf *b, int n, const uint32_t *oids);

/* Whether a type has a binary output format we implement. */
bool pg_binary_supported(attu_type t);

/* Appends one DataRow for result row `row`. */
void pg_msg_data_row(pgbuf *b, const attu_result *res, size_t row,
                     const int16_t *formats);

/* A DataRow's body alone: the int16 field count, then per field an int32
 * length (-1 for NULL) and the value in its format. It is also a tuple of
 * COPY's binary format (every format 1). */
void pg_put_row_fields(pgbuf *b, const attu_result *res, size_t row,
                       const int16_t *formats);

/* COPY: CopyInResponse 'G' / CopyOutResponse 'H', every column text (0)
 * or, for FORMAT binary, binary (1). */
void pg_msg_copy_response(pgbuf *b, char type, int ncols, bool binary);
void pg_msg_copy_data(pgbuf *b, const char *data, size_t len);

#endif
