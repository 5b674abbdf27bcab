/*
 * connection.c - one client connection, loop side: accept, read and frame,
 * hand messages to a worker, write what workers produce, close and free.
 *
 * See server.h for the threading contract. Everything here runs on the
 * loop thread.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/log.h"
#include "server/pgwire_decode.h"
#include "server/server.h"

void server_conn_gone(server *srv);

typedef struct write_req {
    uv_write_t req;
    conn      *c;
    outchunk  *chunks;
    size_t     bytes;
} write_req;

static void close_handle(conn *c);
static void conn_ingest(conn *c, const char *data, size_t len);

uint64_t now_us(void) { return uv_hrtime() / 1000; }

/* ---- lookup by backend pid (CancelRequest) ------------------------------- */

static conn **hash_slot(server *srv, uint32_t pid) {
    return &srv->hash[pid % (sizeof srv->hash / sizeof srv->hash[0])];
}

conn *conn_find(server *srv, uint32_t pid) {
    for (conn *c = *hash_slot(srv, pid); c; c = c->hash_next)
        if (c->pid == pid) return c;
    return NULL;
}

static void hash_remove(conn *c) {
    for (conn **pp = hash_slot(c->srv, c->pid); *pp; pp = &(*pp)->hash_next)
        if (*pp == c) { *pp = c->hash_next; return; }
}

/* ---- accept ------------------------------------------------------------- */

static void alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
    conn *c = h->data;
    buf->base = c->srv->readbuf;
    buf->len = sizeof c->srv->readbuf;
}

static void conn_client_gone(conn *c, const char *why) {
    pthread_mutex_lock(&c->mu);
    bool job = c->job_running;
    bool was_closed = c->closed;
    c->closed = true;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
    if (job && c->session) attu_session_cancel(c->session);
    if (!was_closed && why && c->phase != PHASE_CLOSING)
        attu_log(ATTU_LOG_INFO, "[conn %u] client %s went away: %s", c->pid, c->peer, why);
    close_handle(c);
}

static void read_cb(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
    conn *c = s->data;
    if (nread < 0) {
        conn_client_gone(c, nread == UV_EOF ? "end of file" : uv_strerror((int)nread));
        return;
    }
    if (nread == 0) return;
    if (c->phase == PHASE_CLOSING || c->stop_reading) return;   /* drain and discard */
    conn_ingest(c, buf->base, (size_t)nread);
}

static void start_reading(conn *c) {
    if (!c->reading && !c->handle_closing) {
        uv_read_start((uv_stream_t *)&c->tcp, alloc_cb, read_cb);
        c->reading = true;
    }
}

static void stop_reading(conn *c) {
    if (c->reading && !c->handle_closing) {
        uv_read_stop((uv_stream_t *)&c->tcp);
        c->reading = false;
    }
}

static bool is_loopback(const struct sockaddr_storage *ss) {
    if (ss->ss_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)ss;
        return (ntohl(a->sin_addr.s_addr) >> 24) == 127;
    }
    if (ss->ss_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)ss;
        if (IN6_IS_ADDR_LOOPBACK(&a->sin6_addr)) return true;
        if (IN6_IS_ADDR_V4MAPPED(&a->sin6_addr)) return a->sin6_addr.s6_addr[12] == 127;
    }
    return false;
}

void conn_accept(server *srv) {
    conn *c = calloc(1, sizeof *c);
    if (!c) return;
    c->srv = srv;
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    uv_tcp_init(srv->loop, &c->tcp);
    c->tcp.data = c;
    if (uv_accept((uv_stream_t *)&srv->listener, (uv_stream_t *)&c->tcp) != 0) {
        c->handle_closing = true;
        uv_close((uv_handle_t *)&c->tcp, (uv_close_cb)free);   /* conn starts with tcp */
        return;
    }
    uv_tcp_nodelay(&c->tcp, 1);
    uv_os_fd_t fd = -1;
    c->fd = uv_fileno((uv_handle_t *)&c->tcp, &fd) == 0 ? fd : -1;
    struct sockaddr_storage ss;
    int sl = sizeof ss;
    memset(&ss, 0, sizeof ss);
    uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&ss, &sl);
    char ip[INET6_ADDRSTRLEN] = "?";
    int port = 0;
    if (ss.ss_family == AF_INET) {
        uv_ip4_name((struct sockaddr_in *)&ss, ip, sizeof ip);
        port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
    } else if (ss.ss_family == AF_INET6) {
        uv_ip6_name((struct sockaddr_in6 *)&ss, ip, sizeof ip);
        port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    }
    snprintf(c->peer, sizeof c->peer, "%s:%d", ip, port);
    snprintf(c->peer_ip, sizeof c->peer_ip, "%s", ip);
    c->peer_port = port;
    c->loopback = is_loopback(&ss);
    do {
        c->pid = srv->next_pid++;
    } while (c->pid == 0 || conn_find(srv, c->pid));
    if (RAND_bytes((unsigned char *)&c->key, sizeof c->key) != 1)
        c->key = (uint32_t)uv_hrtime() ^ (c->pid * 2654435761u);
    c->connected_us = now_us();
    c->hash_next = *hash_slot(srv, c->pid);
    *hash_slot(srv, c->pid) = c;
    c->all_next = srv->all;
    if (srv->all) srv->all->all_prev = c;
    srv->all = c;
    srv->nconns++;
    attu_log(ATTU_LOG_DEBUG, "[conn %u] connection received: %s", c->pid, c->peer);
    start_reading(c);
}

/* ---- freeing ------------------------------------------------------------ */

static void conn_free(conn *c) {
    server *srv = c->srv;
    hash_remove(c);
    if (c->all_prev) c->all_prev->all_next = c->all_next; else srv->all = c->all_next;
    if (c->all_next) c->all_next->all_prev = c->all_prev;
    srv->nconns--;
    if (c->counted) srv->nsessions--;
    if (c->phase >= PHASE_READY || c->session)
        attu_log(ATTU_LOG_INFO, "[conn %u] disconnection: session time %.3f s user=%s host=%s",
                 c->pid, (double)(now_us() - c->connected_us) / 1e6, c->user, c->peer);
    conn_free_protocol_state(c);
    if (c->session) attu_session_free(c->session);
    while (c->qhead) { inmsg *m = c->qhead; c->qhead = m->next; free(m); }
    while (c->ohead) { outchunk *o = c->ohead; c->ohead = o->next; free(o->data); free(o); }
    scram_free(c->scram);
    pgbuf_free(&c->out);
    pgbuf_free(&c->copy_tuple);
    free(c->rbuf);
    pthread_mutex_destroy(&c->mu);
    pthread_cond_destroy(&c->cv);
    free(c);
    server_conn_gone(srv);
}

static void maybe_free(conn *c) {
    pthread_mutex_lock(&c->mu);
    bool can = c->handle_closed && !c->job_running && !c->in_ready;
    pthread_mutex_unlock(&c->mu);
    if (can) conn_free(c);
}

static void on_close(uv_handle_t *h) {
    conn *c = h->data;
    c->handle_closed = true;
    maybe_free(c);
}

static void close_handle(conn *c) {
    if (c->handle_closing) return;
    c->handle_closing = true;
    c->reading = false;
    c->phase = PHASE_CLOSING;
    uv_close((uv_handle_t *)&c->tcp, on_close);
}

static void on_shutdown(uv_shutdown_t *req, int status) {
    conn *c = req->data;
    free(req);
    close_handle(c);
}

/* Everything is written and nothing more will be: send FIN, then close. */
static void finish_connection(conn *c) {
    if (c->handle_closing) return;
    c->phase = PHASE_CLOSING;
    pthread_mutex_lock(&c->mu);
    c->closed = true;
    pthread_mutex_unlock(&c->mu);
    uv_shutdown_t *req = malloc(sizeof *req);
    if (!req || uv_shutdown(req, (uv_stream_t *)&c->tcp, on_shutdown) != 0) {
        free(req);
        close_handle(c);
        return;
    }
    req->data = c;
    start_reading(c);   /* discard what the client still sends, so close sends no RST */
}

void conn_finish(conn *c) { finish_connection(c); }

void conn_force_close(conn *c) {
    if (c->handle_closing) return;
    pthread_mutex_lock(&c->mu);
    bool job = c->job_running;
    pthread_mutex_unlock(&c->mu);
    if (!job) conn_client_gone(c, NULL);
}

/* ---- writing ------------------------------------------------------------ */

static void write_cb(uv_write_t *req, int status) {
    write_req *w = (write_req *)req;
    conn *c = w->c;
    while (w->chunks) {
        outchunk *o = w->chunks;
        w->chunks = o->next;
        free(o->data);
        free(o);
    }
    pthread_mutex_lock(&c->mu);
    c->out_bytes -= w->bytes;
    if (c->out_bytes < OUT_LOW) pthread_cond_broadcast(&c->cv);
    bool done = c->want_close && !c->job_running && c->out_bytes == 0 && !c->ohead;
    pthread_mutex_unlock(&c->mu);
    free(w);
    if (status < 0) { conn_client_gone(c, uv_strerror(status)); return; }
    if (done) finish_connection(c);
}

static void write_chunks(conn *c, outchunk *chunks) {
    if (!chunks) return;
    size_t n = 0, bytes = 0;
    for (outchunk *o = chunks; o; o = o->next) { n++; bytes += o->len; }
    if (c->handle_closing) {
        while (chunks) { outchunk *o = chunks; chunks = o->next; free(o->data); free(o); }
        pthread_mutex_lock(&c->mu);
        c->out_bytes -= bytes;
        pthread_cond_broadcast(&c->cv);
        pthread_mutex_unlock(&c->mu);
        return;
    }
    write_req *w = calloc(1, sizeof *w);
    uv_buf_t small[16];
    uv_buf_t *bufs = n <= 16 ? small : malloc(n * sizeof *bufs);
    if (!w || !bufs) {
        free(w);
        if (bufs != small) free(bufs);
        conn_client_gone(c, "out of memory");
        while (chunks) { outchunk *o = chunks; chunks = o->next; free(o->data); free(o); }
        return;
    }
    size_t i = 0;
    for (outchunk *o = chunks; o; o = o->next) bufs[i++] = uv_buf_init(o->data, (unsigned)o->len);
    w->c = c;
    w->chunks = chunks;
    w->bytes = bytes;
    int r = uv_write(&w->req, (uv_stream_t *)&c->tcp, bufs, (unsigned)n, write_cb);
    if (bufs != small) free(bufs);
    if (r != 0) {
        /* libuv did not take the request: account for it here */
        w->chunks = chunks;
        write_cb(&w->req, r);
    }
}

void conn_send_now(conn *c) {
    if (!c->out.len) return;
    outchunk *o = malloc(sizeof *o);
    if (!o || c->out.oom) { free(o); pgbuf_reset(&c->out); conn_client_gone(c, "out of memory"); return; }
    o->data = pgbuf_steal(&c->out, &o->len);
    o->next = NULL;
    pthread_mutex_lock(&c->mu);
    c->out_bytes += o->len;
    pthread_mutex_unlock(&c->mu);
    write_chunks(c, o);
}

void conn_process_ready(server *srv) {
    pthread_mutex_lock(&srv->ready_mu);
    conn *list = srv->ready;
    srv->ready = NULL;
    pthread_mutex_unlock(&srv->ready_mu);
    while (list) {
        conn *c = list;
        list = c->ready_next;
        pthread_mutex_lock(&c->mu);
        c->in_ready = false;
        c->ready_next = NULL;
        outchunk *chunks = c->ohead;
        c->ohead = c->otail = NULL;
        bool resume = c->resume_read;
        c->resume_read = false;
        bool want_close = c->want_close, job = c->job_running;
        bool closed = c->closed;
        pthread_mutex_unlock(&c->mu);
        write_chunks(c, chunks);
        if (resume && !c->stop_reading && c->phase == PHASE_READY) start_reading(c);
        if (c->handle_closed) { maybe_free(c); continue; }
        if (!job && want_close) {
            pthread_mutex_lock(&c->mu);
            bool drained = c->out_bytes == 0;
            pthread_mutex_unlock(&c->mu);
            if (drained) finish_connection(c);
        } else if (closed && !job && c->phase != PHASE_CLOSING) {
            close_handle(c);
        }
    }
}

/* ---- reading and framing -------------------------------------------------- */

static inmsg *make_msg(char type, const char *data, size_t len) {
    inmsg *m = malloc(sizeof *m + len + 1);
    if (!m) return NULL;
    m->next = NULL;
    m->type = type;
    m->len = len;
    if (len && data) memcpy(m->data, data, len);
    m->data[len] = 0;
    return m;
}

static inmsg *make_fatal(const attu_error *err) {
    size_t n = strlen(err->message);
    inmsg *m = make_msg(MSG_FATAL, NULL, 5 + n);
    if (!m) return NULL;
    memcpy(m->data, err->sqlstate[0] ? err->sqlstate : ATTU_SQLSTATE_PROTOCOL_VIOLATION, 5);
    memcpy(m->data + 5, err->message, n + 1);
    return m;
}

/* Appends messages (a list) to the queue and makes sure a worker runs. */
static void enqueue(conn *c, inmsg *head, inmsg *tail, size_t bytes) {
    if (!head) return;
    pthread_mutex_lock(&c->mu);
    if (c->qtail) c->qtail->next = head; else c->qhead = head;
    c->qtail = tail;
    c->qbytes += bytes;
    bool submit = !c->job_running;
    if (submit) c->job_running = true;
    else pthread_cond_signal(&c->cv);   /* a worker may wait for COPY data */
    bool full = c->qbytes > IN_HIGH;
    if (full) c->read_paused = true;
    pthread_mutex_unlock(&c->mu);
    if (full) stop_reading(c);
    if (submit && worker_pool_submit(c->srv->pool, conn_job, c) != 0) {
        pthread_mutex_lock(&c->mu);
        c->job_running = false;
        pthread_mutex_unlock(&c->mu);
        conn_client_gone(c, "worker pool stopped");
    }
}

void conn_shutdown(conn *c) {
    if (c->handle_closing || c->phase == PHASE_CLOSING) return;
    if (c->phase != PHASE_READY) {
        startup_fatal(c, ATTU_SQLSTATE_ADMIN_SHUTDOWN,
                      "terminating connection due to administrator command");
        return;
    }
    inmsg *m = make_msg(MSG_SHUTDOWN, NULL, 0);
    c->stop_reading = true;
    stop_reading(c);
    if (!m) { close_handle(c); return; }
    pthread_mutex_lock(&c->mu);
    bool job = c->job_running;
    if (job) {   /* also wakes a worker waiting on a slow reader */
        c->cancel_requested = true;
        pthread_cond_broadcast(&c->cv);
    }
    pthread_mutex_unlock(&c->mu);
    if (job && c->session) attu_session_cancel(c->session);
    enqueue(c, m, m, 0);
}

void conn_post(conn *c, char type) {
    if (c->handle_closing || c->phase != PHASE_READY) return;
    inmsg *m = make_msg(type, NULL, 0);
    if (m) enqueue(c, m, m, 0);
}

static void conn_ingest(conn *c, const char *data, size_t len) {
    if (c->rlen) {   /* continue a partial message */
        if (c->rlen + len > c->rcap) {
            size_t cap = c->rcap ? c->rcap : 4096;
            while (cap < c->rlen + len) cap *= 2;
            char *b = realloc(c->rbuf, cap);
            if (!b) { conn_client_gone(c, "out of memory"); return; }
            c->rbuf = b;
            c->rcap = cap;
        }
        memcpy(c->rbuf + c->rlen, data, len);
        c->rlen += len;
        data = c->rbuf;
        len = c->rlen;
    }
    size_t off = 0, need = 0, qbytes = 0;
    inmsg *head = NULL, *tail = NULL;
    attu_error err;
    memset(&err, 0, sizeof err);
    while (off < len && !c->stop_reading && !c->handle_closing &&
           c->phase != PHASE_CLOSING) {
        const char *p = data + off;
        size_t avail = len - off;
        if (c->phase == PHASE_STARTUP) {
            size_t total;
            int r = pg_startup_frame(p, avail, &total, &err);
            if (r < 0) { startup_fatal(c, err.sqlstate, "%s", err.message); break; }
            if (r == 0) { need = avail < 4 ? 4 : total; break; }
            off += total;
            startup_packet(c, p, total);
            continue;
        }
        pg_frame f;
        size_t max = c->phase == PHASE_READY ? c->srv->cfg.max_message_size : PG_STARTUP_MAX_LEN;
        int r = pg_frame_next(p, avail, max, &f, &need, &err);
        if (r < 0) {
            attu_log(ATTU_LOG_WARNING, "[conn %u] protocol violation from %s: %s",
                     c->pid, c->peer, err.message);
            if (c->phase != PHASE_READY) {
                startup_fatal(c, err.sqlstate, "%s", err.message);
            } else {
                inmsg *m = make_fatal(&err);
                if (m) { if (tail) tail->next = m; else head = m; tail = m; }
                c->stop_reading = true;
            }
            break;
        }
        if (r == 0) break;
        off += f.total;
        if (c->phase != PHASE_READY) {   /* authentication exchange */
            if (f.type != 'p') {
                startup_fatal(c, ATTU_SQLSTATE_PROTOCOL_VIOLATION,
                              "expected SASL response, got message type %d",
                              (unsigned char)f.type);
                break;
            }
            startup_sasl(c, f.payload, f.len);
            continue;
        }
        inmsg *m = make_msg(f.type, f.payload, f.len);
        if (!m) { conn_client_gone(c, "out of memory"); break; }
        if (tail) tail->next = m; else head = m;
        tail = m;
        qbytes += f.len + sizeof *m;
        if (f.type == 'X') c->stop_reading = true;
    }
    /* keep the unframed rest for the next read */
    size_t rest = off < len ? len - off : 0;
    if (c->stop_reading || c->handle_closing || c->phase == PHASE_CLOSING) rest = 0;
    if (rest) {
        if (data == c->rbuf) {
            memmove(c->rbuf, c->rbuf + off, rest);
        } else {
            size_t cap = rest > 4096 ? rest : 4096;
            if (need > cap && need <= c->srv->cfg.max_message_size + 5) cap = need;
            if (cap > c->rcap) {
                char *b = realloc(c->rbuf, cap);
                if (!b) { conn_client_gone(c, "out of memory"); return; }
                c->rbuf = b;
                c->rcap = cap;
            }
            memcpy(c->rbuf, data + off, rest);
        }
    } else if (c->rcap > 65536) {   /* do not hold a big buffer for an idle client */
        free(c->rbuf);
        c->rbuf = NULL;
        c->rcap = 0;
    }
    c->rlen = rest;
    if (c->stop_reading) stop_reading(c);
    enqueue(c, head, tail, qbytes);
}

/* Worker side helper: pop under c->mu, asking the loop to read again once
 * the queue has drained enough. */
inmsg *conn_pop_locked(conn *c) {
    inmsg *m = c->qhead;
    if (!m) return NULL;
    c->qhead = m->next;
    if (!c->qhead) c->qtail = NULL;
    m->next = NULL;
    size_t b = m->len + sizeof *m;
    c->qbytes = c->qbytes > b ? c->qbytes - b : 0;
    if (c->read_paused && c->qbytes <= IN_LOW) {
        c->read_paused = false;
        c->resume_read = true;
        conn_mark_ready(c);
    }
    return m;
}

void conn_mark_ready(conn *c) {
    if (c->in_ready) return;
    c->in_ready = true;
    server *srv = c->srv;
    pthread_mutex_lock(&srv->ready_mu);
    c->ready_next = srv->ready;
    srv->ready = c;
    pthread_mutex_unlock(&srv->ready_mu);
    uv_async_send(&srv->wake);
}
