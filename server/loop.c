/*
 * loop.c - the daemon's event loop: listen, accept, wake-ups from workers,
 * signals and graceful shutdown.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "server/log.h"
#include "server/server.h"

static void on_connection(uv_stream_t *listener, int status) {
    server *srv = listener->data;
    if (status < 0) {
        attu_log(ATTU_LOG_WARNING, "accept failed: %s", uv_strerror(status));
        return;
    }
    conn_accept(srv);
}

static void on_wake(uv_async_t *a) {
    admin_process(a->data);
    conn_process_ready(a->data);
}

static void close_noop(uv_handle_t *h) { (void)h; }

/* Called whenever a connection goes away during shutdown, and once at the
 * start: when none is left, close our own handles so uv_run returns. */
static void maybe_stop(server *srv) {
    if (!srv->shutting_down || srv->all) return;
    if (!uv_is_closing((uv_handle_t *)&srv->wake)) {
        admin_close(srv);
        uv_close((uv_handle_t *)&srv->wake, close_noop);
        uv_close((uv_handle_t *)&srv->sigterm, close_noop);
        uv_close((uv_handle_t *)&srv->sigint, close_noop);
        uv_close((uv_handle_t *)&srv->shutdown_timer, close_noop);
    }
}

static void on_shutdown_tick(uv_timer_t *t) {
    server *srv = t->data;
    static int ticks;
    ticks++;
    /* After a second, stop waiting for clients that do not read what is
     * left for them (a slow reader would otherwise hold the shutdown). */
    if (ticks * 50 >= 1000) {
        for (conn *c = srv->all, *next; c; c = next) {
            next = c->all_next;
            conn_force_close(c);
        }
    }
    if ((uint64_t)ticks * 50 >= (uint64_t)srv->cfg.shutdown_grace_ms && srv->all) {
        attu_log(ATTU_LOG_WARNING, "shutdown: %d connection(s) still busy after %d ms; exiting",
                 srv->nconns, srv->cfg.shutdown_grace_ms);
        fflush(NULL);
        _exit(srv->exit_code);
    }
    maybe_stop(srv);
}

static void begin_shutdown(server *srv, const char *why) {
    if (srv->shutting_down) return;
    srv->shutting_down = true;
    attu_log(ATTU_LOG_INFO, "received %s: shutting down (%d connection(s))", why, srv->nconns);
    uv_close((uv_handle_t *)&srv->listener, close_noop);
    for (conn *c = srv->all; c; c = c->all_next) conn_shutdown(c);
    uv_timer_start(&srv->shutdown_timer, on_shutdown_tick, 50, 50);
    maybe_stop(srv);
}

static void on_signal(uv_signal_t *s, int signum) {
    begin_shutdown(s->data, signum == SIGTERM ? "SIGTERM" : "SIGINT");
}

/* Thousands of idle connections need as many descriptors. */
static void raise_fd_limit(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
            attu_log(ATTU_LOG_WARNING, "could not raise the open file limit: %s",
                     strerror(errno));
    }
}

/* Exposed for conn_free in connection.c. */
void server_conn_gone(server *srv);
void server_conn_gone(server *srv) { maybe_stop(srv); }

static void pool_wait_begin(void *pool) { worker_pool_block_begin(pool); }
static void pool_wait_end(void *pool) { worker_pool_block_end(pool); }

int server_run(const server_config *cfg, attu_db *db) {
    server *srv = calloc(1, sizeof *srv);
    if (!srv) return 1;
    srv->cfg = *cfg;
    srv->db = db;
    srv->next_pid = (uint32_t)getpid() * 1000u % 1000000u + 1;
    pthread_mutex_init(&srv->ready_mu, NULL);
    pthread_mutex_init(&srv->admin_mu, NULL);
    signal(SIGPIPE, SIG_IGN);
    raise_fd_limit();

    int rc = 1;
    if (cfg->users_file) {
        attu_error err = {0};
        srv->users = scram_users_load(cfg->users_file, &err);
        if (!srv->users) {
            attu_log(ATTU_LOG_ERROR, "%s", err.message);
            goto out;
        }
        attu_log(ATTU_LOG_INFO, "loaded %d SCRAM user(s) from %s",
                 scram_users_count(srv->users), cfg->users_file);
    }
    srv->pool = worker_pool_new(cfg->workers, cfg->max_workers);
    if (!srv->pool || watchdog_start()) {
        attu_log(ATTU_LOG_ERROR, "could not start worker threads");
        goto out;
    }
    /* a statement waiting for another session's writing transaction holds
     * its worker: the pool starts another, so that session's COMMIT runs */
    attu_db_set_wait_hooks(db, pool_wait_begin, pool_wait_end, srv->pool);
    attu_db_set_signal_hook(db, admin_signal_hook, srv);

    srv->loop = uv_default_loop();
    uv_tcp_init(srv->loop, &srv->listener);
    srv->listener.data = srv;
    uv_async_init(srv->loop, &srv->wake, on_wake);
    srv->wake.data = srv;
    uv_signal_init(srv->loop, &srv->sigterm);
    uv_signal_init(srv->loop, &srv->sigint);
    srv->sigterm.data = srv->sigint.data = srv;
    uv_signal_start(&srv->sigterm, on_signal, SIGTERM);
    uv_signal_start(&srv->sigint, on_signal, SIGINT);
    uv_timer_init(srv->loop, &srv->shutdown_timer);
    srv->shutdown_timer.data = srv;

    struct sockaddr_storage addr;
    int r;
    if (strchr(cfg->host, ':'))
        r = uv_ip6_addr(cfg->host, cfg->port, (struct sockaddr_in6 *)&addr);
    else
        r = uv_ip4_addr(cfg->host, cfg->port, (struct sockaddr_in *)&addr);
    if (r == 0) r = uv_tcp_bind(&srv->listener, (const struct sockaddr *)&addr, 0);
    if (r == 0) r = uv_listen((uv_stream_t *)&srv->listener, 4096, on_connection);
    if (r != 0) {
        attu_log(ATTU_LOG_ERROR, "could not listen on %s:%d: %s", cfg->host, cfg->port,
                 uv_strerror(r));
        srv->shutting_down = true;
        uv_close((uv_handle_t *)&srv->listener, close_noop);
        maybe_stop(srv);
        uv_run(srv->loop, UV_RUN_DEFAULT);
        goto out;
    }
    struct sockaddr_storage bound;
    int blen = sizeof bound;
    uv_tcp_getsockname(&srv->listener, (struct sockaddr *)&bound, &blen);
    int port = ntohs(((struct sockaddr_in *)&bound)->sin_port);
    attu_log(ATTU_LOG_INFO, "attud listening on %s:%d (%s, max %d connections)",
             cfg->host, port, attu_db_device_description(db), cfg->max_connections);
    if (cfg->ready_file) {
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.tmp", cfg->ready_file);
        FILE *f = fopen(tmp, "w");
        if (f) {
            fprintf(f, "%d\n", port);
            fclose(f);
            rename(tmp, cfg->ready_file);
        }
    }

    uv_run(srv->loop, UV_RUN_DEFAULT);
    attu_log(ATTU_LOG_INFO, "attud stopped");
    rc = srv->exit_code;
out:
    if (srv->loop) uv_loop_close(srv->loop);
    watchdog_stop();
    attu_db_set_wait_hooks(db, NULL, NULL, NULL);
    attu_db_set_signal_hook(db, NULL, NULL);
    admin_close(srv);   /* (frees what was posted and never run) */
    if (srv->pool) worker_pool_free(srv->pool);
    scram_users_free(srv->users);
    pthread_mutex_destroy(&srv->ready_mu);
    pthread_mutex_destroy(&srv->admin_mu);
    free(srv);
    return rc;
}
