/*
 * server.h - attud's internals shared by the server/ files.
 *
 * Threads and ownership
 * ---------------------
 * One libuv loop thread owns sockets: it accepts, reads, frames messages,
 * runs startup and authentication, and writes. Worker threads (worker_pool)
 * own everything that touches the database: a connection's queued messages
 * are drained by at most one worker at a time (job_running), which runs
 * them through db/database.h and appends the encoded replies to the
 * connection's output queue. The two sides meet under conn.mu:
 *
 *   loop   -> worker : inq (framed messages), cv signalled on push
 *   worker -> loop   : outq (encoded bytes) + the server's ready list and
 *                      one uv_async_t for the whole loop
 *
 * Backpressure: a worker that finds more than OUT_HIGH bytes queued or in
 * flight waits on cv until the loop's writes drain below OUT_LOW, so a slow
 * reader holds at most about OUT_HIGH + one batch of memory. Likewise the
 * loop stops reading a connection with more than IN_HIGH bytes queued.
 *
 * A connection is freed by the loop once its socket is closed and no job
 * runs for it (and it is not on the ready list).
 */
#ifndef ATTU_SERVER_SERVER_H
#define ATTU_SERVER_SERVER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "db/database.h"
#include "server/auth_scram.h"
#include "server/pgwire_encode.h"
#include "server/worker_pool.h"

#define OUT_HIGH   (1u << 20)     /* worker waits above this many unwritten bytes */
#define OUT_LOW    (256u << 10)   /* ... until writes drain below this */
#define OUT_BATCH  (64u << 10)    /* worker hands output over in pieces this big */
#define IN_HIGH    (4u << 20)     /* loop stops reading above this many queued bytes */
#define IN_LOW     (1u << 20)

typedef struct server_config {
    const char        *host;
    int                port;
    const char        *data_dir;
    attu_device_choice device;
    int                max_connections;
    const char        *load_dir;
    int                log_level;
    const char        *bootstrap;
    size_t             max_message_size;
    const char        *users_file;
    int                workers;         /* minimum worker threads */
    int                max_workers;
    int                shutdown_grace_ms;
    const char        *ready_file;     /* written with the port once listening (tests) */
} server_config;

/* Pseudo message types the loop queues for the worker, in order with the
 * client's own messages. */
#define MSG_FATAL     '\001'   /* payload: sqlstate (5 bytes) + message */
#define MSG_SHUTDOWN  '\002'
#define MSG_NOTIFY    '\003'   /* notifications wait (NOTIFY's commit): deliver them if idle */

typedef struct inmsg {
    struct inmsg *next;
    size_t len;
    char   type;
    char   data[];     /* len bytes + a NUL so strings can be read in place */
} inmsg;

typedef struct outchunk {
    struct outchunk *next;
    char  *data;
    size_t len;
} outchunk;

typedef enum conn_phase {
    PHASE_STARTUP = 0,    /* waiting for the startup packet */
    PHASE_SASL_FIRST,     /* sent AuthenticationSASL */
    PHASE_SASL_FINAL,     /* sent AuthenticationSASLContinue */
    PHASE_READY,          /* messages go to workers */
    PHASE_CLOSING
} conn_phase;

typedef struct portal portal;
typedef struct server server;

/* The settings PostgreSQL reports in a ParameterStatus when they change
 * (its GUC_REPORT ones a session can change), besides TimeZone. */
#define CONN_NREPORTED 8
extern const char *const conn_reported_names[CONN_NREPORTED];

typedef struct conn {
    uv_tcp_t    tcp;            /* first: the handle's data is the conn */
    server     *srv;
    uint32_t    pid, key;
    conn_phase  phase;
    bool        loopback;
    int         fd;             /* the socket, for a worker's direct write */
    bool        counted;        /* counts against max_connections */
    char        peer[64];
    char        peer_ip[48];    /* pg_stat_activity's client_addr and client_port */
    int         peer_port;
    char        user[64];
    char        database[64];
    uint64_t    connected_us;

    /* loop only */
    char       *rbuf;           /* partial message bytes */
    size_t      rlen, rcap;
    bool        reading;
    bool        handle_closing;
    bool        handle_closed;
    bool        stop_reading;   /* after Terminate or a framing error */
    scram_state *scram;
    bool         is_role;          /* the user is a created role (engine/role.h) */
    bool         role_can_login;   /* false: a NOLOGIN role, refused once authenticated (28000) */
    bool         role_expired;     /* its VALID UNTIL has passed: its password fails (28P01) */
    struct conn *all_prev, *all_next;   /* every connection */
    struct conn *hash_next;             /* pid lookup for CancelRequest */

    /* shared under mu */
    pthread_mutex_t mu;
    pthread_cond_t  cv;
    inmsg      *qhead, *qtail;
    size_t      qbytes;
    outchunk   *ohead, *otail;
    size_t      out_bytes;      /* queued + being written */
    bool        job_running;
    bool        closed;         /* client gone: stop producing */
    bool        want_close;     /* close once output is written */
    bool        in_ready;
    bool        resume_read;
    bool        read_paused;    /* the loop stopped reading: queue full */
    bool        cancel_requested;
    struct conn *ready_next;

    /* statement_timeout (cancel.c), under the watchdog's lock */
    uint64_t    wd_deadline_us;
    struct conn *wd_next;
    atomic_bool timed_out;

    /* pg_terminate_backend / pg_notify (admin.c) */
    atomic_bool terminating;     /* the statement's end is the connection's (FATAL 57P01) */
    atomic_bool notify_queued;   /* a MSG_NOTIFY waits in the queue */

    /* worker only (or the loop before PHASE_READY) */
    attu_session *session;
    char        reported_tz[256];   /* the TimeZone the client was last told (ParameterStatus) */
    /* the other reported settings (conn_reported_names) as last told */
    char        reported[CONN_NREPORTED][128];
    char        startup_tz[256];    /* a TimeZone from the startup packet (pgJDBC sends one) */
    /* the startup packet's other settings (application_name, DateStyle,
     * extra_float_digits, ...) as "name\0value\0" pairs, applied to the
     * session once it exists (source client) */
    char        startup_params[2048];
    size_t      startup_params_len;
    pgbuf       out;
    pgbuf       copy_tuple;     /* COPY's FORMAT binary: one tuple's bytes (copy_binary_tuple_cb) */
    attu_prepared *unnamed;     /* the unnamed statement (named ones are the session's) */
    portal     *portals;
    portal     *cur_portal;     /* the portal whose first Execute runs */
    bool        skip_till_sync;
    bool        in_copy_out;
    bool        error_sent;     /* the current statement reported an error */
    bool        fatal_sent;     /* a FATAL went out: nothing more (no ReadyForQuery) */
    inmsg      *copy_cur;       /* CopyData being consumed */
    size_t      copy_off;
    size_t      rows_out;       /* rows sent for the statement being logged */
} conn;

struct server {
    server_config cfg;
    uv_loop_t    *loop;
    uv_tcp_t      listener;
    uv_async_t    wake;
    uv_signal_t   sigterm, sigint;
    uv_timer_t    shutdown_timer;
    attu_db      *db;
    worker_pool  *pool;
    scram_users  *users;
    char          readbuf[64 * 1024];

    conn         *all;
    int           nconns;        /* sockets open */
    int           nsessions;     /* past startup: counted against the limit */
    conn         *hash[4096];
    uint32_t      next_pid;
    bool          shutting_down;
    int           exit_code;

    pthread_mutex_t ready_mu;
    conn         *ready;

    /* requests of the db for other sessions (admin.c): posted by any
     * thread under admin_mu, run on the loop's wake-up */
    pthread_mutex_t admin_mu;
    struct admin_req *admin;
    bool          admin_closed;    /* the wake handle is closing: post nothing */
};

/* loop.c */
int server_run(const server_config *cfg, attu_db *db);

/* admin.c: the db's signals (pg_cancel_backend, pg_terminate_backend,
 * NOTIFY) from any thread, run on the loop */
void admin_signal_hook(void *ctx, uint32_t pid, attu_backend_signal sig);
void admin_process(server *srv);             /* loop: run the posted requests */
void admin_close(server *srv);               /* loop: no more posts (shutdown) */
void cancel_conn(conn *c);                   /* loop: cancel c's running statement */
void conn_post(conn *c, char type);          /* loop: queue a pseudo message for c's worker */

/* connection.c (loop thread) */
void conn_accept(server *srv);
void conn_process_ready(server *srv);
void conn_shutdown(conn *c);                 /* queue MSG_SHUTDOWN, cancel */
conn *conn_find(server *srv, uint32_t pid);
void conn_send_now(conn *c);                 /* loop: write c->out */
void conn_finish(conn *c);                   /* loop: FIN once written, then close */
void conn_force_close(conn *c);              /* loop: close now, dropping unsent output */

/* startup.c (loop thread) */
void startup_packet(conn *c, const char *pkt, size_t len);
void startup_sasl(conn *c, const char *payload, size_t len);
void startup_fatal(conn *c, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* dispatch.c (worker thread) */
void conn_job(void *arg);
/* Hands c->out to the loop; waits while too much is unwritten. Returns -1
 * when the client is gone or the statement was cancelled meanwhile. */
int conn_flush(conn *c, bool wait);
void conn_mark_ready(conn *c);               /* under c->mu */
void conn_send_error(conn *c, const attu_error *err);
void conn_free_protocol_state(conn *c);
extern const attu_exec_callbacks conn_callbacks_template;
int  conn_on_result_rows(conn *c, const attu_result *res, size_t from, size_t to,
                         const int16_t *formats);
uint64_t now_us(void);
void conn_stmt_begin(conn *c);                /* reset cancel state, arm statement_timeout */
void conn_stmt_end(conn *c, int rc);          /* disarm; report a silent stop as 57014 */
void conn_log_query(conn *c, const char *kind, const char *sql, uint64_t t0, int rc);

/* extended_query.c (worker thread) */
void ext_parse(conn *c, inmsg *m);
void ext_bind(conn *c, inmsg *m);
void ext_describe(conn *c, inmsg *m);
void ext_execute(conn *c, inmsg *m);
void ext_close(conn *c, inmsg *m);
void ext_free_all(conn *c);
void ext_drop_unnamed(conn *c);              /* a simple Query: the unnamed statement and portal go */
void ext_sync(conn *c);                       /* outside a block: drop portals */

/* copy_stream.c (worker thread) */
int     copy_in_begin_cb(void *ctx, int ncols, bool binary);
ssize_t copy_in_read_cb(void *ctx, char *buf, size_t cap, attu_error *err);
int     copy_out_begin_cb(void *ctx, int ncols, bool binary);
char   *copy_binary_recv_cb(void *ctx, uint32_t oid, const char *v, int32_t len, attu_error *err);
int     copy_binary_tuple_cb(void *ctx, const attu_result *res, size_t row, const char **bytes, size_t *len);
int     copy_out_data_cb(void *ctx, const char *buf, size_t len);
void    copy_reset(conn *c);

/* cancel.c */
int  watchdog_start(void);
void watchdog_stop(void);
void watchdog_arm(conn *c, int timeout_ms);
void watchdog_disarm(conn *c);
void cancel_request(server *srv, uint32_t pid, uint32_t key);
/* Pops the next queued message (worker), waking the loop when reading may
 * resume. Caller holds c->mu. */
inmsg *conn_pop_locked(conn *c);

#endif
