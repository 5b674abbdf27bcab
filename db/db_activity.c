/*
 * db_activity.c - the db's list of sessions: pg_stat_activity's rows,
 * pg_backend_pid(), pg_cancel_backend and pg_terminate_backend; pg_sleep,
 * which those (and statement_timeout) end.
 *
 * Every session is on db->sessions from attu_session_new to
 * attu_session_free, under db->act_mu, with what another session may read
 * of it: its backend pid, the client's address, when it started, what it
 * runs or ran last and in which state it is. A session writes those
 * fields under the same lock (a statement's start and end take it twice),
 * so pg_stat_activity reads a consistent row without stopping anyone.
 *
 * Signals go to the server (attu_db_set_signal_hook), which owns the
 * connections: the db only says which pid and what. Whether the pid is a
 * session's is answered here, from the list, as PostgreSQL answers it
 * from its process array (a WARNING and false for another pid).
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int64_t wall_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void db_activity_init(attu_db *db) {
    pthread_mutex_init(&db->act_mu, NULL);
    pthread_cond_init(&db->act_cv, NULL);
    /* sessions without a server's pid (the shell, tests) count from here */
    db->next_pid = (uint32_t)getpid() % 100000u * 10u + 1u;
}

void db_activity_destroy(attu_db *db) {
    pthread_mutex_destroy(&db->act_mu);
    pthread_cond_destroy(&db->act_cv);
}

void attu_db_set_signal_hook(attu_db *db, void (*fn)(void *ctx, uint32_t pid, attu_backend_signal sig), void *ctx) {
    pthread_mutex_lock(&db->act_mu);
    db->signal = fn;
    db->signal_ctx = ctx;
    pthread_mutex_unlock(&db->act_mu);
}

void db_activity_add(attu_session *s) {
    attu_db *db = s->db;
    pthread_mutex_lock(&db->act_mu);
    s->pid = db->next_pid++;
    s->client_port = -1;
    s->backend_start_us = s->state_change_us = wall_us();
    s->state = "idle";
    s->act_prev = NULL;
    s->act_next = db->sessions;
    if (db->sessions) db->sessions->act_prev = s;
    db->sessions = s;
    pthread_mutex_unlock(&db->act_mu);
}

void db_activity_remove(attu_session *s) {
    attu_db *db = s->db;
    pthread_mutex_lock(&db->act_mu);
    if (s->act_prev) s->act_prev->act_next = s->act_next; else if (db->sessions == s) db->sessions = s->act_next;
    if (s->act_next) s->act_next->act_prev = s->act_prev;
    s->act_prev = s->act_next = NULL;
    free(s->query);
    s->query = NULL;
    pthread_cond_broadcast(&db->act_cv);   /* pg_terminate_backend's wait */
    pthread_mutex_unlock(&db->act_mu);
}

void attu_session_set_backend(attu_session *s, uint32_t pid, const char *client_addr, int client_port) {
    const char *app = attu_session_setting(s, "application_name");
    pthread_mutex_lock(&s->db->act_mu);
    s->pid = pid;
    snprintf(s->client_addr, sizeof s->client_addr, "%s", client_addr ? client_addr : "");
    s->client_port = client_addr ? client_port : -1;
    snprintf(s->app_name, sizeof s->app_name, "%s", app ? app : "");
    pthread_mutex_unlock(&s->db->act_mu);
}

uint32_t attu_session_pid(const attu_session *s) { return s->pid; }

/* A query starts: the session is active, running sql (the whole query
 * string, as PostgreSQL shows it). Its times are db_activity_times'. */
void db_activity_begin(attu_session *s, const char *sql) {
    int64_t now = wall_us();
    char *q = strdup(sql ? sql : "");
    pthread_mutex_lock(&s->db->act_mu);
    if (q) { free(s->query); s->query = q; }
    s->state_change_us = now;
    s->state = "active";
    pthread_mutex_unlock(&s->db->act_mu);
}

/* A statement starts at now (statement_timestamp()), in the transaction
 * that started at txn_start (now()): query_start and xact_start, as
 * PostgreSQL's equal those functions' values. */
void db_activity_times(attu_session *s, int64_t now, int64_t txn_start) {
    pthread_mutex_lock(&s->db->act_mu);
    s->query_start_us = now;
    s->xact_start_us = txn_start;
    pthread_mutex_unlock(&s->db->act_mu);
}

/* It ended: idle, or idle in the transaction it left open. */
void db_activity_end(attu_session *s) {
    const char *app = attu_session_setting(s, "application_name");
    const char *state = s->txn == 'T' ? "idle in transaction"
                      : s->txn == 'E' ? "idle in transaction (aborted)"
                      : s->ext_implicit ? "idle in transaction" : "idle";
    pthread_mutex_lock(&s->db->act_mu);
    if (strcmp(state, s->state ? s->state : "")) s->state_change_us = wall_us();
    s->state = state;
    if (s->txn == 'I' && !s->ext_implicit) s->xact_start_us = 0;
    snprintf(s->app_name, sizeof s->app_name, "%s", app ? app : "");
    pthread_mutex_unlock(&s->db->act_mu);
}

int db_check_terminated(attu_session *s, int r, attu_error *err) {
    if (r != 0 || !s->terminate_self) return r;
    return attu_error_set(err, "57P01", 0, "terminating connection due to administrator command");
}

void db_defer_warning(attu_session *s, const char *message) {
    if (s->nwarnings >= (int)(sizeof s->warnings / sizeof s->warnings[0])) return;
    snprintf(s->warnings[s->nwarnings++], sizeof s->warnings[0], "%s", message);
}

void db_flush_warnings(attu_session *s, const attu_exec_callbacks *cb) {
    for (int i = 0; i < s->nwarnings; i++) db_warning(cb, "01000", s->warnings[i]);
    s->nwarnings = 0;
}

/* ---- the binder's callbacks ------------------------------------------------------ */

void db_activity_rows(void *ctx, void (*row)(void *rctx, const attu_activity_info *a), void *rctx) {
    attu_session *self = ctx;
    attu_db *db = self->db;
    /* the session's own row shows its current setting (it may have
     * changed it in this very query string) */
    const char *own_app = attu_session_setting(self, "application_name");
    pthread_mutex_lock(&db->act_mu);
    for (attu_session *s = db->sessions; s; s = s->act_next) {
        attu_activity_info a;
        memset(&a, 0, sizeof a);
        a.pid = s->pid;
        a.user = s->user[0] ? s->user : "attu";
        a.database = s->database[0] ? s->database : "attu";
        a.application_name = s == self && own_app ? own_app : s->app_name;
        a.client_addr = s->client_addr[0] ? s->client_addr : NULL;
        a.client_port = s->client_port;
        a.backend_start_us = s->backend_start_us;
        a.xact_start_us = s->xact_start_us;
        a.query_start_us = s->query_start_us;
        a.state_change_us = s->state_change_us;
        a.state = s->state ? s->state : "idle";
        /* what it waits for: its client when idle, another session's
         * writing transaction (PostgreSQL's row lock wait) */
        if (strcmp(a.state, "active")) {
            a.wait_event_type = "Client";
            a.wait_event = "ClientRead";
        } else if (__atomic_load_n(&s->lock_wait, __ATOMIC_RELAXED)) {
            a.wait_event_type = "Lock";
            a.wait_event = "transactionid";
        }
        a.query = s->query ? s->query : "";
        row(rctx, &a);
    }
    pthread_mutex_unlock(&db->act_mu);
}

static bool pid_listed(attu_db *db, uint32_t pid) {
    for (attu_session *s = db->sessions; s; s = s->act_next)
        if (s->pid == pid) return true;
    return false;
}

/* pg_cancel_backend(pid) / pg_terminate_backend(pid, timeout). The
 * session's own pid: its statement fails here and now (57014), or its
 * connection ends (57P01, which the server makes FATAL), as PostgreSQL
 * handles its own signal at the next interrupt check. */
int db_signal_backend(void *ctx, int64_t pid, bool terminate, int64_t timeout_ms, bool *ok, attu_error *err) {
    attu_session *s = ctx;
    attu_db *db = s->db;
    *ok = false;
    if (terminate && timeout_ms < 0)
        return attu_error_set(err, "22003", 0, "\"timeout\" must not be negative");
    /* (the hook is called under act_mu: attu_db_set_signal_hook(NULL)
     * returns only once no call is under way) */
    pthread_mutex_lock(&db->act_mu);
    bool known = pid > 0 && pid <= UINT32_MAX && pid_listed(db, (uint32_t)pid);
    bool self = known && (uint32_t)pid == s->pid, hooked = db->signal != NULL;
    if (known && db->signal && !self)
        db->signal(db->signal_ctx, (uint32_t)pid, terminate ? ATTU_SIGNAL_TERMINATE : ATTU_SIGNAL_CANCEL);
    pthread_mutex_unlock(&db->act_mu);
    if (!known) {
        char msg[96];
        snprintf(msg, sizeof msg, "PID %lld is not a PostgreSQL backend process", (long long)pid);
        db_defer_warning(s, msg);
        return 0;
    }
    if (self) {
        /* PostgreSQL's own signal: the call returns true, and the
         * statement ends the connection (db_check_terminated) */
        if (terminate) { s->terminate_self = true; *ok = true; return 0; }
        return attu_error_set(err, ATTU_SQLSTATE_QUERY_CANCELED, 0, "canceling statement due to user request");
    }
    *ok = true;
    if (!terminate || timeout_ms == 0 || !hooked) return 0;
    /* wait until the session is gone, or the timeout: its worker may need
     * another thread of the pool meanwhile (the wait hooks) */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)(timeout_ms / 1000);
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) { until.tv_sec++; until.tv_nsec -= 1000000000L; }
    if (db->wait_begin) db->wait_begin(db->wait_ctx);
    pthread_mutex_lock(&db->act_mu);
    bool gone = false;
    for (;;) {
        if (!pid_listed(db, (uint32_t)pid)) { gone = true; break; }
        if (__atomic_load_n(&s->cancel, __ATOMIC_SEQ_CST)) break;
        /* in slices of 100 ms, so a cancel of this statement is seen */
        struct timespec now, slice;
        clock_gettime(CLOCK_REALTIME, &now);
        if (now.tv_sec > until.tv_sec || (now.tv_sec == until.tv_sec && now.tv_nsec >= until.tv_nsec)) break;
        slice = now;
        slice.tv_nsec += 100000000L;
        if (slice.tv_nsec >= 1000000000L) { slice.tv_sec++; slice.tv_nsec -= 1000000000L; }
        if (slice.tv_sec > until.tv_sec || (slice.tv_sec == until.tv_sec && slice.tv_nsec > until.tv_nsec)) slice = until;
        pthread_cond_timedwait(&db->act_cv, &db->act_mu, &slice);
    }
    pthread_mutex_unlock(&db->act_mu);
    if (db->wait_end) db->wait_end(db->wait_ctx);
    if (__atomic_load_n(&s->cancel, __ATOMIC_SEQ_CST) && !gone)
        return attu_error_set(err, ATTU_SQLSTATE_QUERY_CANCELED, 0, "canceling statement due to user request");
    if (!gone) {
        char msg[128];
        snprintf(msg, sizeof msg, "backend with PID %lld did not terminate within %lld millisecond%s", (long long)pid,
                 (long long)timeout_ms, timeout_ms == 1 ? "" : "s");
        db_defer_warning(s, msg);
        *ok = false;
    }
    return 0;
}

/* pg_sleep(seconds): in naps of at most 10 ms, each followed by a look at
 * the session's cancel flag and its statement_timeout, so a cancel ends
 * it as soon as PostgreSQL's would (57014). The worker tells the server's
 * pool it waits (the wait hooks), as a lock wait does, so other sessions
 * are served meanwhile. */
int db_statement_interrupted(attu_session *s, double now, attu_error *err) {
    if (__atomic_load_n(&s->cancel, __ATOMIC_SEQ_CST))
        return attu_error_set(err, ATTU_SQLSTATE_QUERY_CANCELED, 0, "canceling statement due to user request");
    if (s->statement_timeout_ms > 0 && now >= s->stmt_start_ms + s->statement_timeout_ms)
        return attu_error_set(err, ATTU_SQLSTATE_QUERY_CANCELED, 0, "canceling statement due to statement timeout");
    return 0;
}

int db_sleep(void *ctx, double seconds, attu_error *err) {
    attu_session *s = ctx;
    attu_db *db = s->db;
    if (!(seconds > 0)) return 0;   /* (NaN and negative: no sleep, as PostgreSQL) */
    double end = attu_now_ms() + seconds * 1000.0;
    int rc = 0;
    if (db->wait_begin) db->wait_begin(db->wait_ctx);
    for (;;) {
        double now = attu_now_ms();
        if ((rc = db_statement_interrupted(s, now, err))) break;
        if (now >= end) break;
        double nap = end - now < 10.0 ? end - now : 10.0;
        struct timespec ts = { 0, (long)(nap * 1e6) };
        nanosleep(&ts, NULL);
    }
    if (db->wait_end) db->wait_end(db->wait_ctx);
    return rc;
}
