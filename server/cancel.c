/*
 * cancel.c - stopping running statements: CancelRequest (matched by
 * backend pid and secret key, on the loop) and statement_timeout (a
 * watchdog thread that sleeps until the earliest deadline).
 *
 * Both end in attu_session_cancel, which the database promises is safe
 * from any thread; both also wake a worker blocked on the connection
 * (waiting for COPY data or for a slow reader) so it notices.
 */
#include <pthread.h>
#include <stdbool.h>
#include <time.h>

#include "server/log.h"
#include "server/server.h"

static struct {
    pthread_mutex_t mu;
    pthread_cond_t  cv;
    pthread_t       thread;
    conn           *armed;     /* connections with a deadline */
    bool            running, stop;
} wd = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

static uint64_t mono_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void *watchdog_main(void *arg) {
    (void)arg;
    pthread_mutex_lock(&wd.mu);
    while (!wd.stop) {
        uint64_t now = mono_us(), next = 0;
        for (conn **pp = &wd.armed; *pp;) {
            conn *c = *pp;
            if (c->wd_deadline_us <= now) {
                *pp = c->wd_next;
                c->wd_deadline_us = 0;
                atomic_store(&c->timed_out, true);
                /* under wd.mu: the worker cannot disarm and move on meanwhile */
                attu_session_cancel(c->session);
                pthread_mutex_lock(&c->mu);
                pthread_cond_broadcast(&c->cv);
                pthread_mutex_unlock(&c->mu);
                attu_log(ATTU_LOG_INFO, "[conn %u] statement timeout", c->pid);
                continue;
            }
            if (!next || c->wd_deadline_us < next) next = c->wd_deadline_us;
            pp = &c->wd_next;
        }
        if (!next) {
            pthread_cond_wait(&wd.cv, &wd.mu);
        } else {
            /* the condvar uses CLOCK_REALTIME: convert the remaining time */
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            uint64_t d = next - now;
            ts.tv_sec += (time_t)(d / 1000000u);
            ts.tv_nsec += (long)(d % 1000000u) * 1000;
            if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
            pthread_cond_timedwait(&wd.cv, &wd.mu, &ts);
        }
    }
    pthread_mutex_unlock(&wd.mu);
    return NULL;
}

int watchdog_start(void) {
    pthread_mutex_lock(&wd.mu);
    wd.stop = false;
    int rc = wd.running ? 0 : pthread_create(&wd.thread, NULL, watchdog_main, NULL);
    if (!rc) wd.running = true;
    pthread_mutex_unlock(&wd.mu);
    return rc ? -1 : 0;
}

void watchdog_stop(void) {
    pthread_mutex_lock(&wd.mu);
    bool running = wd.running;
    wd.stop = true;
    wd.running = false;
    pthread_cond_broadcast(&wd.cv);
    pthread_mutex_unlock(&wd.mu);
    if (running) pthread_join(wd.thread, NULL);
}

void watchdog_arm(conn *c, int timeout_ms) {
    pthread_mutex_lock(&wd.mu);
    if (!c->wd_deadline_us) {
        c->wd_next = wd.armed;
        wd.armed = c;
    }
    c->wd_deadline_us = mono_us() + (uint64_t)timeout_ms * 1000u;
    pthread_cond_broadcast(&wd.cv);
    pthread_mutex_unlock(&wd.mu);
}

void watchdog_disarm(conn *c) {
    pthread_mutex_lock(&wd.mu);
    if (c->wd_deadline_us) {
        for (conn **pp = &wd.armed; *pp; pp = &(*pp)->wd_next)
            if (*pp == c) { *pp = c->wd_next; break; }
        c->wd_deadline_us = 0;
    }
    pthread_mutex_unlock(&wd.mu);
}

void cancel_request(server *srv, uint32_t pid, uint32_t key) {
    conn *c = conn_find(srv, pid);
    if (!c || c->key != key) {
        attu_log(ATTU_LOG_INFO, "cancel request for unknown backend %u ignored", pid);
        return;
    }
    cancel_conn(c);
}

/* What a CancelRequest and pg_cancel_backend do: stop the statement that
 * runs; an idle connection has none, and the request is forgotten (as
 * PostgreSQL ignores a cancel that arrives while it reads a command). */
void cancel_conn(conn *c) {
    uint32_t pid = c->pid;
    pthread_mutex_lock(&c->mu);
    bool running = c->job_running;
    if (running) {
        c->cancel_requested = true;
        pthread_cond_broadcast(&c->cv);
    }
    pthread_mutex_unlock(&c->mu);
    if (running && c->session) attu_session_cancel(c->session);
    attu_log(ATTU_LOG_INFO, "[conn %u] cancel request%s", pid, running ? "" : " (idle: nothing to cancel)");
}
