/*
 * database.h - attu as a library (the db/ layer): open a data directory, run SQL.
 *
 * This is the one door from server/ (and tests, benchmarks, the fuzzers)
 * into the engine. The server never sees plans or columns' internals: it
 * hands SQL text (or a prepared statement and its parameters) to a session
 * and receives results through callbacks, one statement at a time.
 *
 * Threading: one attu_db serves many sessions concurrently. A session is
 * used by one thread at a time (the server's worker running its query).
 * Inside, a reader-writer lock lets queries run side by side; a statement
 * that writes works in its transaction's own copy of the catalog (one
 * writing transaction at a time: db/db_txn.c), and COMMIT takes the lock
 * exclusively only to publish it.
 */
#ifndef ATTU_DB_DATABASE_H
#define ATTU_DB_DATABASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/column.h"
#include "engine/error.h"

typedef struct attu_db attu_db;
typedef struct attu_session attu_session;
typedef struct attu_prepared attu_prepared;

typedef enum attu_device_choice {
    ATTU_DEVICE_AUTO = 0,   /* GPU when one is usable, else CPU */
    ATTU_DEVICE_CPU,
    ATTU_DEVICE_GPU         /* fail to open if no GPU is usable */
} attu_device_choice;

typedef struct attu_db_config {
    const char        *data_dir;        /* NULL = in memory only (tests) */
    attu_device_choice device;
    const char        *load_dir;        /* server-side COPY reads only here; NULL = anywhere */
    size_t             gpu_memory_budget; /* bytes; 0 = 90% of free memory */
    int                threads;         /* CPU backend threads; 0 = all cores */
} attu_db_config;

attu_db *attu_db_open(const attu_db_config *cfg, attu_error *err);
void attu_db_close(attu_db *db);

/* Called around a statement's wait for another session (a writer waiting
 * for a lock another transaction holds: db/db_lock.c), on the waiting
 * thread; end comes once the lock is taken or the wait failed. A server
 * whose worker threads run statements starts another worker meanwhile:
 * otherwise every worker could end up waiting for a transaction whose own
 * COMMIT then finds no worker to run it. NULL hooks: none. */
void attu_db_set_wait_hooks(attu_db *db, void (*begin)(void *ctx), void (*end)(void *ctx), void *ctx);

/* "GPU (NVIDIA H100 80GB HBM3, sm_90)" or "CPU (16 threads)". */
const char *attu_db_device_description(const attu_db *db);

/* ---- results ----------------------------------------------------------- */

/* The shape of a result, as RowDescription needs it. */
typedef struct attu_result_column {
    char      name[64];
    attu_type type;
} attu_result_column;

/* One statement's outcome. For row-returning statements, cols holds the
 * values (ncols columns of nrows rows, formatted with attu_column_format);
 * for others ncols is 0. tag is the CommandComplete tag ("SELECT 3",
 * "INSERT 0 5", "COPY 29510", "CREATE TABLE"). The result is freed after
 * on_result returns, unless on_result returns ATTU_RESULT_KEEP: then the
 * callee owns it (e.g. a portal that sends it in Execute-sized pieces) and
 * releases it with attu_result_free. */
typedef struct attu_result {
    int                 ncols;
    attu_result_column *desc;
    attu_column       **cols;
    size_t              nrows;
    char                tag[64];
    bool                returns_rows;  /* SELECT-like: send RowDescription even with 0 rows */
    bool                binary;        /* FETCH from a BINARY cursor: the simple protocol sends
                                          binary values (db/db_cursor.c) */
} attu_result;

#define ATTU_RESULT_KEEP 2
void attu_result_free(attu_result *res);

/* Callbacks through which a session reports. Any may be NULL. */
typedef struct attu_exec_callbacks {
    void *ctx;
    /* A statement succeeded. Return 0 to go on, ATTU_RESULT_KEEP to keep
     * the result and go on, anything else to stop (client went away). */
    int  (*on_result)(void *ctx, attu_result *res);
    /* A statement failed; execution of the remaining statements stops. */
    void (*on_error)(void *ctx, const attu_error *err);
    /* A NOTICE (e.g. DROP TABLE IF EXISTS on a missing table). */
    void (*on_notice)(void *ctx, const char *sqlstate, const char *message);
    /* A WARNING, PostgreSQL's severity above NOTICE (25P01 for COMMIT
     * outside a transaction block, 25001 for BEGIN inside one, 25P01 for
     * SET LOCAL outside one). NULL: it goes to on_notice instead. */
    void (*on_warning)(void *ctx, const char *sqlstate, const char *message);
    /* COPY ... FROM STDIN: start (ncols = columns expected; binary: FORMAT
     * binary, whose CopyInResponse says format 1) then pull bytes;
     * copy_in_read returns >0 bytes, 0 at CopyDone, -1 with err (CopyFail). */
    int     (*copy_in_begin)(void *ctx, int ncols, bool binary);
    ssize_t (*copy_in_read)(void *ctx, char *buf, size_t cap, attu_error *err);
    /* COPY ... TO STDOUT: begin, then data chunks (text, CSV, or the
     * binary format). */
    int  (*copy_out_begin)(void *ctx, int ncols, bool binary);
    int  (*copy_out_data)(void *ctx, const char *buf, size_t len);
    /* FORMAT binary: the values' binary forms are the wire protocol's
     * (the server's send/recv code serves Bind, binary results and COPY
     * alike); without these two, COPY's binary format is refused (0A000).
     * copy_binary_recv: one field's value v[0..len) of type OID oid as the
     * malloc'd text its type's input reads, NULL with err set when it is
     * malformed. copy_binary_tuple: result row `row` as one tuple (int16
     * field count, per field int32 length, -1 for NULL, and the type's
     * send form) in *bytes[0..*len), valid until the next call (COPY
     * sends it to the client or writes it to a file); nonzero when out
     * of memory. */
    char *(*copy_binary_recv)(void *ctx, uint32_t oid, const char *v, int32_t len, attu_error *err);
    int   (*copy_binary_tuple)(void *ctx, const attu_result *res, size_t row, const char **bytes, size_t *len);
} attu_exec_callbacks;

/* ---- sessions ---------------------------------------------------------- */

attu_session *attu_session_new(attu_db *db);
void attu_session_free(attu_session *s);
/* The user and database the client connected as (the startup message):
 * what pg_get_userbyid, current_database() and the system catalogs show.
 * Without it (the shell, tests), both are "attu". */
void attu_session_set_identity(attu_session *s, const char *user, const char *database);

/* What authentication needs to know of a created role (CREATE ROLE,
 * db/db_role.c), from the committed catalog: 1 when user is one (out
 * filled; free out->verifier), 0 when it is not (the bootstrap superuser:
 * the --users file and loopback trust decide, as before roles). */
typedef struct attu_role_login {
    bool    can_login;      /* LOGIN */
    char   *verifier;       /* its SCRAM-SHA-256 verifier; NULL: no password */
    bool    has_valid_until;
    int64_t valid_until;    /* UTC microseconds */
} attu_role_login;
int attu_db_role_login(attu_db *db, const char *user, attu_role_login *out);
/* A setting the client's startup packet gave (application_name, ...):
 * the session's value that RESET goes back to, pg_settings' source
 * "client". -1 (nothing changes) for a name attu does not take this way
 * or a bad value. */
int attu_session_set_client_setting(attu_session *s, const char *name, const char *value);

/* Runs every statement of sql in order (the simple Query protocol). Returns
 * 0 if all succeeded, -1 after the first error (reported via on_error).
 * An empty string (or only comments) runs nothing and returns 1, so the
 * server can send EmptyQueryResponse. */
int attu_session_exec(attu_session *s, const char *sql,
                      const attu_exec_callbacks *cb);

/* Transaction status for ReadyForQuery: 'I' idle, 'T' in a block, 'E'
 * failed block. What a transaction block changes is the session's own
 * until COMMIT (db/db_txn.c); a statement outside one is a transaction of
 * its own, a multi-statement query string one implicit transaction. */
char attu_session_txn_status(const attu_session *s);

/* How many transaction blocks have ended by COMMIT, ROLLBACK (or END,
 * ABORT) in this session: a portal of the extended protocol bound before
 * one ended is gone, as PostgreSQL drops portals at the end of their
 * transaction (server/extended_query.c). */
uint64_t attu_session_blocks_ended(const attu_session *s);

/* The extended protocol's Sync: outside a block, the implicit
 * transaction of what ran since the last Sync commits (0, or -1 with err
 * when saving it failed: it is rolled back then). Call before
 * ReadyForQuery. */
int attu_session_sync(attu_session *s, attu_error *err);

/* An error the server raises itself (a failed Parse or Bind of the extended
 * protocol) aborts an open transaction block, as in PostgreSQL: 'T' becomes
 * 'E', so later statements get 25P02 until ROLLBACK. Outside a block it
 * undoes the implicit transaction since the last Sync. */
void attu_session_txn_failed(attu_session *s);

/* Asks the running statement to stop; it fails with 57014 soon after.
 * Safe to call from any thread. */
void attu_session_cancel(attu_session *s);

/* SET/SHOW values (statement_timeout in ms, 0 = none). */
int attu_session_statement_timeout_ms(const attu_session *s);

/* A setting's value as SHOW prints it (name in any case), NULL for an
 * unknown one (for ParameterStatus). */
const char *attu_session_setting(attu_session *s, const char *name);
/* The TimeZone setting as SHOW prints it (for ParameterStatus). */
const char *attu_session_timezone(const attu_session *s);

/* Makes s's time zone the calling thread's (engine/timezone.h,
 * attu_tz_session), which shows its timestamptz values: the server calls
 * it before it formats rows of s. */
void attu_session_use_zone(const attu_session *s);

/* ---- other sessions: pg_stat_activity, signals, LISTEN / NOTIFY ---------- */

/* Every session of a db is listed (db/db_activity.c) with what
 * pg_stat_activity shows of it. The server gives each its backend pid
 * (BackendKeyData's, what pg_backend_pid() returns) and the client's
 * address; a session without one (the shell, tests) has a pid of the
 * db's own numbering. */
void attu_session_set_backend(attu_session *s, uint32_t pid, const char *client_addr, int client_port);
uint32_t attu_session_pid(const attu_session *s);

/* What the db asks of the server for another session (by pid), from any
 * thread: cancel its running statement (pg_cancel_backend), end it
 * (pg_terminate_backend: FATAL 57P01, the connection closed), or deliver
 * its waiting notifications now if it is idle (NOTIFY's commit). The
 * hook only posts the request; it must not call back into the db. */
typedef enum attu_backend_signal {
    ATTU_SIGNAL_CANCEL = 1,
    ATTU_SIGNAL_TERMINATE,
    ATTU_SIGNAL_NOTIFY
} attu_backend_signal;
void attu_db_set_signal_hook(attu_db *db, void (*fn)(void *ctx, uint32_t pid, attu_backend_signal sig), void *ctx);

/* A notification a committed NOTIFY left for this session (LISTEN):
 * the server sends them as NotificationResponse, between statements
 * when no transaction is open. take returns them oldest first (NULL:
 * none) and the caller frees the list. */
typedef struct attu_notification {
    struct attu_notification *next;
    uint32_t pid;           /* the notifying session's */
    char    *channel;
    char    *payload;
} attu_notification;
attu_notification *attu_session_take_notifications(attu_session *s);
void attu_notifications_free(attu_notification *n);

/* ---- the extended protocol ---------------------------------------------- */

/* Parses and binds one statement with $1..$n parameters. param_oids may give
 * types (0 = infer). Returns NULL with err on failure. */
attu_prepared *attu_prepare(attu_session *s, const char *sql, int nparam_oids,
                            const uint32_t *param_oids, attu_error *err);
/* attu_prepare telling cb->on_notice (cb may be NULL) of the NOTICEs its
 * parse gives (identifiers truncated to 63 bytes), as a Parse message's
 * are sent before its ParseComplete or error. */
attu_prepared *attu_prepare_notify(attu_session *s, const char *sql, int nparam_oids,
                                   const uint32_t *param_oids, attu_error *err,
                                   const attu_exec_callbacks *cb);
/* A prepared statement is reference counted: attu_prepare gives one
 * reference, attu_prepared_ref takes another, attu_prepared_free drops one
 * (the last frees it). */
attu_prepared *attu_prepared_ref(attu_prepared *p);
void attu_prepared_free(attu_prepared *p);

/* Named prepared statements: one namespace per session, shared by SQL
 * PREPARE / EXECUTE / DEALLOCATE and the protocol's named statements, as
 * in PostgreSQL. add takes its own reference (42P05 when the name is
 * taken); find lends the session's (NULL: none); drop removes one name
 * (NULL: all of them) and returns -1 when there is none by that name. */
int attu_session_prepared_add(attu_session *s, const char *name, attu_prepared *p, attu_error *err);
attu_prepared *attu_session_prepared_find(attu_session *s, const char *name);
int attu_session_prepared_drop(attu_session *s, const char *name);

int attu_prepared_param_count(const attu_prepared *p);
/* The text it was prepared from; whether it holds no statement (a Parse of
 * an empty string: Execute answers EmptyQueryResponse). */
const char *attu_prepared_sql(const attu_prepared *p);
bool attu_prepared_empty(const attu_prepared *p);
uint32_t attu_prepared_param_oid(const attu_prepared *p, int i);
/* Reads a text value of parameter i (len bytes, no NUL needed) as the
 * type the statement gives the parameter, as PostgreSQL's Bind runs the
 * type's input function: 0, or -1 with its error (22P02 invalid input
 * syntax, 22003 out of range, 22007 / 22008 dates) and no position. A
 * parameter of a string type, or one typed by context at each run
 * (described as unknown, 705), takes any text. */
int attu_prepared_check_param(const attu_prepared *p, int i, const char *text, size_t len, attu_error *err);
/* Result columns (0 and NULL for statements that return no rows). */
int attu_prepared_describe(const attu_prepared *p,
                           const attu_result_column **cols);

/* Describe (portal) of a SQL cursor's name: PostgreSQL's DECLARE makes a
 * portal of that name, which psycopg 3's server-side cursors describe
 * after their DECLARE. The columns a FETCH from it gives (a copy the
 * caller frees) and whether it was declared BINARY: 1 when the session
 * has such a cursor, 0 when not, -1 out of memory. */
int attu_session_cursor_describe(attu_session *s, const char *name, int *ncols,
                                 attu_result_column **cols, bool *binary);

/* Executes with text parameters (values[i] NULL = SQL NULL). The result is
 * delivered through cb->on_result; the server handles Execute row limits by
 * keeping the materialized result in its portal. */
int attu_prepared_execute(attu_session *s, attu_prepared *p, int nvalues,
                          const char *const *values, const attu_exec_callbacks *cb);

#endif
