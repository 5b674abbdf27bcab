/*
 * dispatch.c - a connection's messages on a worker thread: the job loop,
 * the simple Query protocol, result encoding with backpressure, errors,
 * notices, and the per-query log line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "server/log.h"
#include "server/pgwire_decode.h"
#include "server/server.h"

/* ---- output ------------------------------------------------------------- */

/* Fast path: when nothing is queued or being written by the loop, the
 * worker writes to the (non-blocking) socket itself, saving the wake-up of
 * the loop on every small reply. Safe because the loop only writes after
 * counting its bytes in out_bytes under mu, and only closes the socket
 * after setting closed under mu; both are checked here under mu. Whatever
 * the kernel does not take goes through the loop as usual. */
static size_t try_direct_write(conn *c) {
    if (c->fd < 0 || c->ohead || c->out_bytes) return 0;
    ssize_t w = send(c->fd, c->out.data, c->out.len, MSG_NOSIGNAL | MSG_DONTWAIT);
    return w > 0 ? (size_t)w : 0;
}

int conn_flush(conn *c, bool wait) {
    if (c->out.oom) {
        pgbuf_reset(&c->out);
        pthread_mutex_lock(&c->mu);
        c->closed = true;
        conn_mark_ready(c);
        pthread_mutex_unlock(&c->mu);
        return -1;
    }
    pthread_mutex_lock(&c->mu);
    if (c->closed) {
        pthread_mutex_unlock(&c->mu);
        pgbuf_reset(&c->out);
        return -1;
    }
    if (c->out.len) {
        size_t done = try_direct_write(c);
        if (done == c->out.len) {
            pgbuf_reset(&c->out);   /* keeps the buffer for the next reply */
        } else {
            outchunk *o = malloc(sizeof *o);
            char *rest = o ? malloc(c->out.len - done) : NULL;
            if (!rest) {
                free(o);
                c->closed = true;
                conn_mark_ready(c);
                pthread_mutex_unlock(&c->mu);
                pgbuf_reset(&c->out);
                return -1;
            }
            memcpy(rest, c->out.data + done, c->out.len - done);
            o->next = NULL;
            o->data = rest;
            o->len = c->out.len - done;
            pgbuf_reset(&c->out);
            if (c->out.cap > OUT_BATCH * 4) pgbuf_free(&c->out);   /* do not keep a huge one */
            if (c->otail) c->otail->next = o; else c->ohead = o;
            c->otail = o;
            c->out_bytes += o->len;
            conn_mark_ready(c);
        }
    }
    int rc = 0;
    bool blocked = false;
    while (wait && c->out_bytes > OUT_HIGH) {
        if (c->closed) { rc = -1; break; }
        if (c->cancel_requested || atomic_load(&c->timed_out)) { rc = -1; break; }
        if (!blocked) {   /* a slow reader: let the pool run others meanwhile */
            blocked = true;
            pthread_mutex_unlock(&c->mu);
            worker_pool_block_begin(c->srv->pool);
            pthread_mutex_lock(&c->mu);
            continue;
        }
        pthread_cond_wait(&c->cv, &c->mu);
    }
    if (c->closed) rc = -1;
    pthread_mutex_unlock(&c->mu);
    if (blocked) worker_pool_block_end(c->srv->pool);
    return rc;
}

static void set_want_close(conn *c);

void conn_send_error(conn *c, const attu_error *err) {
    attu_error e = *err;
    if (c->fatal_sent) return;
    /* pg_terminate_backend: the statement it stopped (57014), or the
     * session's own call (57P01), ends the connection (admin.c) */
    if (!strcmp(e.sqlstate, "57P01") ||
        (atomic_load(&c->terminating) && !strcmp(e.sqlstate, ATTU_SQLSTATE_QUERY_CANCELED))) {
        attu_error f;
        memset(&f, 0, sizeof f);
        attu_error_set(&f, "57P01", 0, "terminating connection due to administrator command");
        pg_msg_error(&c->out, "FATAL", &f);
        c->error_sent = c->fatal_sent = true;
        set_want_close(c);
        return;
    }
    if (!strcmp(e.sqlstate, ATTU_SQLSTATE_QUERY_CANCELED) && atomic_load(&c->timed_out))
        snprintf(e.message, sizeof e.message, "canceling statement due to statement timeout");
    pg_msg_error(&c->out, "ERROR", &e);
    c->error_sent = true;
}

/* NotificationResponses for what waits (LISTEN), when no transaction is
 * open: between statements, as PostgreSQL delivers them. */
static void send_notifications(conn *c) {
    if (c->fatal_sent || attu_session_txn_status(c->session) != 'I') return;
    attu_notification *n = attu_session_take_notifications(c->session);
    for (attu_notification *x = n; x; x = x->next) {
        pg_msg_notification(&c->out, x->pid, x->channel, x->payload);
        if (c->out.len >= OUT_BATCH && conn_flush(c, true)) break;
    }
    attu_notifications_free(n);
}

/* Appends DataRows [from, to) of res, handing output over every OUT_BATCH
 * bytes. Returns -1 when the client went away or the query was cancelled. */
int conn_on_result_rows(conn *c, const attu_result *res, size_t from, size_t to,
                        const int16_t *formats) {
    attu_session_use_zone(c->session);   /* timestamptz values show in the session's zone */
    for (size_t r = from; r < to; r++) {
        pg_msg_data_row(&c->out, res, r, formats);
        c->rows_out++;
        if (c->out.len >= OUT_BATCH && conn_flush(c, true)) return -1;
    }
    return 0;
}

/* ReadyForQuery, after a ParameterStatus for each reported setting
 * (TimeZone, DateStyle, application_name, ...) that changed since the
 * client was last told (SET, RESET, set_config, a ROLLBACK that undid
 * one), as PostgreSQL reports its GUC_REPORT settings. */
const char *const conn_reported_names[CONN_NREPORTED] = {
    "application_name", "client_encoding", "DateStyle", "default_transaction_read_only", "IntervalStyle",
    "standard_conforming_strings", "session_authorization", "is_superuser",
};

static void conn_ready(conn *c) {
    if (c->fatal_sent) return;   /* (the connection ends: no ReadyForQuery) */
    send_notifications(c);
    for (int i = 0; i < CONN_NREPORTED; i++) {
        const char *v = attu_session_setting(c->session, conn_reported_names[i]);
        if (v && strlen(v) < sizeof c->reported[i] && strcmp(v, c->reported[i]) != 0) {
            pg_msg_parameter_status(&c->out, conn_reported_names[i], v);
            snprintf(c->reported[i], sizeof c->reported[i], "%s", v);
        }
    }
    const char *tz = attu_session_timezone(c->session);
    if (strcmp(tz, c->reported_tz[0] ? c->reported_tz : "UTC") != 0) {
        pg_msg_parameter_status(&c->out, "TimeZone", tz);
        snprintf(c->reported_tz, sizeof c->reported_tz, "%s", tz);
    }
    pg_msg_ready(&c->out, attu_session_txn_status(c->session));
}

/* ---- callbacks for attu_session_exec ------------------------------------- */

static int simple_on_result(void *ctx, attu_result *res) {
    conn *c = ctx;
    if (c->in_copy_out) {
        pg_msg_simple(&c->out, 'c');   /* CopyDone */
        c->in_copy_out = false;
    }
    if (res->returns_rows || res->ncols > 0) {
        /* a BINARY cursor's rows in binary, column by column where the
         * type has a binary form (RowDescription tells the client which) */
        int16_t *formats = NULL;
        if (res->binary && res->ncols > 0 && (formats = calloc((size_t)res->ncols, sizeof *formats)))
            for (int i = 0; i < res->ncols; i++) formats[i] = pg_binary_supported(res->desc[i].type) ? 1 : 0;
        pg_msg_row_description(&c->out, res->ncols, res->desc, formats);
        int r = conn_on_result_rows(c, res, 0, res->nrows, formats);
        free(formats);
        if (r) return 1;
    }
    pg_msg_command_complete(&c->out, res->tag);
    if (c->out.len >= OUT_BATCH && conn_flush(c, true)) return 1;
    return 0;
}

static void on_error_cb(void *ctx, const attu_error *err) {
    conn *c = ctx;
    c->in_copy_out = false;
    conn_send_error(c, err);
}

/* Whether the client takes a message of this level (1 NOTICE, 2
 * WARNING): client_min_messages warning leaves NOTICEs out, error both,
 * as PostgreSQL sends them (pg_dump's scripts set it to warning). */
static bool client_takes(conn *c, int level) {
    const char *min = attu_session_setting(c->session, "client_min_messages");
    int at = !min ? 0 : !strcmp(min, "error") ? 3 : !strcmp(min, "warning") ? 2 : 1;
    return level >= at;
}

static void on_notice_cb(void *ctx, const char *sqlstate, const char *message) {
    conn *c = ctx;
    if (client_takes(c, 1)) pg_msg_notice(&c->out, sqlstate, message);
}

static void on_warning_cb(void *ctx, const char *sqlstate, const char *message) {
    conn *c = ctx;
    if (client_takes(c, 2)) pg_msg_notice_severity(&c->out, "WARNING", sqlstate, message);
}

const attu_exec_callbacks conn_callbacks_template = {
    .ctx = NULL,
    .on_result = simple_on_result,
    .on_error = on_error_cb,
    .on_notice = on_notice_cb,
    .on_warning = on_warning_cb,
    .copy_in_begin = copy_in_begin_cb,
    .copy_in_read = copy_in_read_cb,
    .copy_out_begin = copy_out_begin_cb,
    .copy_out_data = copy_out_data_cb,
    .copy_binary_recv = copy_binary_recv_cb,
    .copy_binary_tuple = copy_binary_tuple_cb,
};

/* ---- simple Query ------------------------------------------------------ */

void conn_stmt_begin(conn *c) {
    pthread_mutex_lock(&c->mu);
    c->cancel_requested = false;
    pthread_mutex_unlock(&c->mu);
    atomic_store(&c->timed_out, false);
    c->error_sent = false;
    c->rows_out = 0;
    c->in_copy_out = false;
    int ms = attu_session_statement_timeout_ms(c->session);
    if (ms > 0) watchdog_arm(c, ms);
}

/* After a statement: when it stopped because we asked it to (cancel,
 * timeout, client gone) without the database saying so, say it. */
void conn_stmt_end(conn *c, int rc) {
    watchdog_disarm(c);
    copy_reset(c);
    if (rc < 0 && !c->error_sent) {
        attu_error e;
        memset(&e, 0, sizeof e);
        if (atomic_load(&c->timed_out))
            attu_error_set(&e, ATTU_SQLSTATE_QUERY_CANCELED, 0,
                           "canceling statement due to statement timeout");
        else
            attu_error_set(&e, ATTU_SQLSTATE_QUERY_CANCELED, 0,
                           "canceling statement due to user request");
        conn_send_error(c, &e);
    }
}

void conn_log_query(conn *c, const char *kind, const char *sql, uint64_t t0, int rc) {
    if (!attu_log_enabled(ATTU_LOG_INFO)) return;
    double ms = (double)(now_us() - t0) / 1000.0;
    attu_log(ATTU_LOG_INFO, "[conn %u] %s %.3f ms, %zu rows, %s, %s: %.300s", c->pid, kind, ms,
             c->rows_out, attu_db_device_description(c->srv->db),
             rc < 0 ? "error" : "ok", sql);
}

static void set_want_close(conn *c) {
    pthread_mutex_lock(&c->mu);
    c->want_close = true;
    pthread_mutex_unlock(&c->mu);
}

static void simple_query(conn *c, inmsg *m) {
    const char *sql;
    attu_error err;
    memset(&err, 0, sizeof err);
    if (pg_parse_query(m->data, m->len, &sql, &err)) {
        pg_msg_error(&c->out, "FATAL", &err);
        set_want_close(c);
        return;
    }
    ext_drop_unnamed(c);
    uint64_t t0 = now_us();
    conn_stmt_begin(c);
    attu_exec_callbacks cb = conn_callbacks_template;
    cb.ctx = c;
    int rc = attu_session_exec(c->session, sql, &cb);
    conn_stmt_end(c, rc);
    if (rc == 1) pg_msg_empty_query(&c->out);
    conn_ready(c);
    conn_log_query(c, "query", sql, t0, rc);
}

/* ---- the job ------------------------------------------------------------- */

static void fatal_and_close(conn *c, const char *sqlstate, const char *message) {
    if (c->fatal_sent) { set_want_close(c); return; }
    attu_error e;
    memset(&e, 0, sizeof e);
    attu_error_set(&e, sqlstate, 0, "%s", message);
    pg_msg_error(&c->out, "FATAL", &e);
    c->fatal_sent = true;
    set_want_close(c);
}

static void handle(conn *c, inmsg *m) {
    if (m->type == MSG_NOTIFY) {   /* (posted by admin.c; no reply of its own) */
        atomic_store(&c->notify_queued, false);
        if (!c->in_copy_out && !c->copy_cur) {
            send_notifications(c);
            conn_flush(c, false);
        }
        return;
    }
    /* pg_terminate_backend: nothing more of the client's runs */
    if (atomic_load(&c->terminating) && m->type != 'X') {
        fatal_and_close(c, "57P01", "terminating connection due to administrator command");
        return;
    }
    if (c->skip_till_sync && m->type != 'S' && m->type != 'X' &&
        m->type != MSG_FATAL && m->type != MSG_SHUTDOWN)
        return;
    switch (m->type) {
    case 'Q': simple_query(c, m); break;
    case 'P': ext_parse(c, m); break;
    case 'B': ext_bind(c, m); break;
    case 'D': ext_describe(c, m); break;
    case 'E': ext_execute(c, m); break;
    case 'C': ext_close(c, m); break;
    case 'S':
        c->skip_till_sync = false;
        ext_sync(c);
        conn_ready(c);
        break;
    case 'H': conn_flush(c, false); break;
    case 'd': case 'c': case 'f':
        /* COPY data after the COPY failed: PostgreSQL ignores it too */
        break;
    case 'F': {
        attu_error e;
        memset(&e, 0, sizeof e);
        attu_error_set(&e, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                       "the function call protocol is not supported");
        conn_send_error(c, &e);
        conn_ready(c);
        break;
    }
    case 'X': set_want_close(c); break;
    case MSG_FATAL: {
        char code[6];
        memcpy(code, m->data, 5);
        code[5] = 0;
        fatal_and_close(c, code, m->data + 5);
        break;
    }
    case MSG_SHUTDOWN:
        fatal_and_close(c, ATTU_SQLSTATE_ADMIN_SHUTDOWN,
                        "terminating connection due to administrator command");
        break;
    default: {
        char msg[80];
        snprintf(msg, sizeof msg, "unexpected message type %d", (unsigned char)m->type);
        fatal_and_close(c, ATTU_SQLSTATE_PROTOCOL_VIOLATION, msg);
        break;
    }
    }
}

void conn_job(void *arg) {
    conn *c = arg;
    for (;;) {
        pthread_mutex_lock(&c->mu);
        bool gone = c->closed;
        inmsg *m = (gone || c->want_close) ? NULL : conn_pop_locked(c);
        pthread_mutex_unlock(&c->mu);
        if (m) {
            handle(c, m);
            free(m);
            if (c->out.len >= OUT_BATCH) conn_flush(c, true);
            continue;
        }
        if (c->out.len) conn_flush(c, false);
        /* an idle connection keeps no big reply buffer */
        if (!c->out.len && c->out.cap > 16384) pgbuf_free(&c->out);
        pthread_mutex_lock(&c->mu);
        if (c->qhead && !c->closed && !c->want_close) {   /* raced with the loop */
            pthread_mutex_unlock(&c->mu);
            continue;
        }
        if (c->closed || c->want_close) {
            /* drop what is left: nothing more will be answered */
            while (c->qhead) { inmsg *x = c->qhead; c->qhead = x->next; free(x); }
            c->qtail = NULL;
            c->qbytes = 0;
        }
        c->job_running = false;
        if (c->closed || c->want_close) conn_mark_ready(c);
        pthread_mutex_unlock(&c->mu);
        return;
    }
}

void conn_free_protocol_state(conn *c) {
    ext_free_all(c);
    copy_reset(c);
}
