/*
 * admin.c - what one session asks of another through the db
 * (attu_db_set_signal_hook): pg_cancel_backend, pg_terminate_backend and
 * the delivery of notifications to an idle listener.
 *
 * The request comes from a worker (the asking session's statement) or
 * from a COMMIT, on any thread, with a backend pid. Connections belong to
 * the loop, so the request is only posted here (a list under admin_mu and
 * the loop's wake-up); the loop finds the pid's connection, if it still
 * exists, and acts:
 *
 *   cancel     as a CancelRequest does (cancel_conn)
 *   terminate  the running statement is cancelled and its end becomes
 *              FATAL 57P01 (conn.terminating, dispatch.c); an idle
 *              connection gets the FATAL at once (MSG_SHUTDOWN); the
 *              session, freed with the connection, rolls back its
 *              transaction
 *   notify     a MSG_NOTIFY in the connection's queue (at most one at a
 *              time): the worker sends what waits if no transaction is
 *              open, else ReadyForQuery after the transaction sends it
 */
#include <stdlib.h>

#include "server/log.h"
#include "server/server.h"

typedef struct admin_req {
    struct admin_req   *next;
    uint32_t            pid;
    attu_backend_signal sig;
} admin_req;

void admin_signal_hook(void *ctx, uint32_t pid, attu_backend_signal sig) {
    server *srv = ctx;
    admin_req *r = malloc(sizeof *r);
    if (!r) return;   /* out of memory: the request is lost (a notification waits for the next ReadyForQuery) */
    r->next = NULL;
    r->pid = pid;
    r->sig = sig;
    pthread_mutex_lock(&srv->admin_mu);
    if (srv->admin_closed) {
        pthread_mutex_unlock(&srv->admin_mu);
        free(r);
        return;
    }
    /* in order: a cancel posted before a terminate runs first */
    admin_req **pp = &srv->admin;
    while (*pp) pp = &(*pp)->next;
    *pp = r;
    pthread_mutex_unlock(&srv->admin_mu);
    uv_async_send(&srv->wake);
}

static void terminate_conn(conn *c) {
    if (c->handle_closing || c->phase == PHASE_CLOSING) return;
    atomic_store(&c->terminating, true);
    attu_log(ATTU_LOG_INFO, "[conn %u] terminated by pg_terminate_backend", c->pid);
    conn_shutdown(c);   /* FATAL 57P01 once the running statement stops */
}

void admin_process(server *srv) {
    pthread_mutex_lock(&srv->admin_mu);
    admin_req *list = srv->admin;
    srv->admin = NULL;
    pthread_mutex_unlock(&srv->admin_mu);
    while (list) {
        admin_req *r = list;
        list = r->next;
        conn *c = conn_find(srv, r->pid);
        if (c && c->phase == PHASE_READY && !c->handle_closing) {
            switch (r->sig) {
            case ATTU_SIGNAL_CANCEL: cancel_conn(c); break;
            case ATTU_SIGNAL_TERMINATE: terminate_conn(c); break;
            case ATTU_SIGNAL_NOTIFY:
                if (!atomic_exchange(&c->notify_queued, true)) conn_post(c, MSG_NOTIFY);
                break;
            }
        }
        free(r);
    }
}

void admin_close(server *srv) {
    pthread_mutex_lock(&srv->admin_mu);
    srv->admin_closed = true;
    admin_req *list = srv->admin;
    srv->admin = NULL;
    pthread_mutex_unlock(&srv->admin_mu);
    while (list) { admin_req *r = list; list = r->next; free(r); }
}
