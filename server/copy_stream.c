/*
 * copy_stream.c - COPY over the wire, on a worker thread.
 *
 * COPY FROM STDIN: the database pulls bytes with copy_in_read while the
 * loop keeps queueing the client's CopyData messages; the worker sleeps on
 * the connection's condition variable when the queue is empty. CopyDone
 * ends the data, CopyFail (or the client leaving, a cancel, a shutdown)
 * fails the COPY. COPY TO STDOUT: chunks go out as CopyData messages with
 * the same backpressure as result rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/pgwire_binary_param.h"
#include "server/pgwire_decode.h"
#include "server/server.h"

void copy_reset(conn *c) {
    free(c->copy_cur);
    c->copy_cur = NULL;
    c->copy_off = 0;
}

int copy_in_begin_cb(void *ctx, int ncols, bool binary) {
    conn *c = ctx;
    pg_msg_copy_response(&c->out, 'G', ncols, binary);
    return conn_flush(c, false) ? -1 : 0;
}

ssize_t copy_in_read_cb(void *ctx, char *buf, size_t cap, attu_error *err) {
    conn *c = ctx;
    size_t got = 0;   /* fill buf from every CopyData already queued */
    for (;;) {
        if (c->copy_cur) {
            size_t left = c->copy_cur->len - c->copy_off;
            size_t n = left < cap - got ? left : cap - got;
            memcpy(buf + got, c->copy_cur->data + c->copy_off, n);
            c->copy_off += n;
            got += n;
            if (c->copy_off == c->copy_cur->len) copy_reset(c);
            if (got == cap) return (ssize_t)got;
        }
        pthread_mutex_lock(&c->mu);
        if (got) {
            /* have data: take more only if it is CopyData already here */
            if (!c->qhead || c->qhead->type != 'd') {
                pthread_mutex_unlock(&c->mu);
                return (ssize_t)got;
            }
        }
        inmsg *m;
        bool blocked = false;
        while (!(m = conn_pop_locked(c))) {
            if (c->closed || c->cancel_requested || atomic_load(&c->timed_out)) {
                bool gone = c->closed;
                pthread_mutex_unlock(&c->mu);
                if (blocked) worker_pool_block_end(c->srv->pool);
                if (gone)
                    attu_error_set(err, "08006", 0, "connection lost during COPY from stdin");
                else
                    attu_error_set(err, ATTU_SQLSTATE_QUERY_CANCELED, 0,
                                   atomic_load(&c->timed_out)
                                       ? "canceling statement due to statement timeout"
                                       : "canceling statement due to user request");
                return -1;
            }
            if (!blocked) {   /* waiting for the client: let the pool run others */
                blocked = true;
                pthread_mutex_unlock(&c->mu);
                worker_pool_block_begin(c->srv->pool);
                pthread_mutex_lock(&c->mu);
                continue;
            }
            pthread_cond_wait(&c->cv, &c->mu);
        }
        if (blocked) {
            pthread_mutex_unlock(&c->mu);
            worker_pool_block_end(c->srv->pool);
            pthread_mutex_lock(&c->mu);
        }
        if (m->type == MSG_FATAL || m->type == MSG_SHUTDOWN) {
            /* put it back: the job loop reports it after the COPY fails */
            m->next = c->qhead;
            c->qhead = m;
            if (!c->qtail) c->qtail = m;
            pthread_mutex_unlock(&c->mu);
            if (m->type == MSG_SHUTDOWN)
                attu_error_set(err, ATTU_SQLSTATE_ADMIN_SHUTDOWN, 0,
                               "terminating connection due to administrator command");
            else
                attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0, "%s", m->data + 5);
            return -1;
        }
        pthread_mutex_unlock(&c->mu);
        switch (m->type) {
        case 'd':
            c->copy_cur = m;
            c->copy_off = 0;
            continue;
        case 'c':
            free(m);
            return 0;
        case 'f': {
            const char *why = NULL;
            attu_error perr;
            memset(&perr, 0, sizeof perr);
            if (pg_parse_copy_fail(m->data, m->len, &why, &perr) || !why) why = "";
            attu_error_set(err, ATTU_SQLSTATE_QUERY_CANCELED, 0,
                           "COPY from stdin failed: %s", why);
            free(m);
            return -1;
        }
        case 'H': case 'S':
            free(m);   /* allowed during COPY and ignored, as in PostgreSQL */
            continue;
        case MSG_NOTIFY:
            /* (the COPY's transaction is open: ReadyForQuery after it delivers) */
            atomic_store(&c->notify_queued, false);
            free(m);
            continue;
        default: {
            int t = (unsigned char)m->type;
            free(m);
            attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                           "unexpected message type 0x%02X during COPY from stdin", t);
            return -1;
        }
        }
    }
}

int copy_out_begin_cb(void *ctx, int ncols, bool binary) {
    conn *c = ctx;
    pg_msg_copy_response(&c->out, 'H', ncols, binary);
    c->in_copy_out = true;
    return 0;
}

int copy_out_data_cb(void *ctx, const char *buf, size_t len) {
    conn *c = ctx;
    while (len) {
        size_t n = len < OUT_BATCH ? len : OUT_BATCH;
        pg_msg_copy_data(&c->out, buf, n);
        buf += n;
        len -= n;
        if (c->out.len >= OUT_BATCH && conn_flush(c, true)) return -1;
    }
    return 0;
}

/* FORMAT binary in: a field through the Bind parameters' reader (param 0:
 * COPY's wording of a value longer than its layout). */
char *copy_binary_recv_cb(void *ctx, uint32_t oid, const char *v, int32_t len, attu_error *err) {
    (void)ctx;
    return pg_binary_param_to_text(oid, v, len, 0, err);
}

/* FORMAT binary out: a tuple is a DataRow's body with every field binary,
 * built in the connection's scratch buffer. */
int copy_binary_tuple_cb(void *ctx, const attu_result *res, size_t row, const char **bytes, size_t *len) {
    conn *c = ctx;
    int16_t small[64], *formats = res->ncols <= 64 ? small : malloc(sizeof *formats * (size_t)res->ncols);
    if (!formats) return -1;
    for (int i = 0; i < res->ncols; i++) formats[i] = 1;
    pgbuf_reset(&c->copy_tuple);
    pg_put_row_fields(&c->copy_tuple, res, row, formats);
    if (formats != small) free(formats);
    if (c->copy_tuple.oom) return -1;
    *bytes = c->copy_tuple.data;
    *len = c->copy_tuple.len;
    return 0;
}
