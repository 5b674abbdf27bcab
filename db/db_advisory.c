/*
 * db_advisory.c - PostgreSQL's advisory locks: pg_advisory_lock and its
 * family (planner/session_functions.c binds the calls).
 *
 * A lock is named by a bigint key (space 1) or a pair of integers (space
 * 2: a different lock from the bigint of the same bits, as PostgreSQL's
 * locktags keep them), taken exclusive or shared, at session level (held
 * until unlocked or the session ends; taken again it is counted, and
 * needs as many unlocks) or at transaction level (held until the
 * transaction ends; no unlock). One entry per holder, session and mode,
 * with its two counts; a session's own locks never conflict with each
 * other, an exclusive request conflicts with any other session's holder
 * and a shared one with another's exclusive holder.
 *
 * pg_advisory_lock waits on db->adv_cv (the worker tells the server's pool
 * it waits, as pg_sleep does), ending with 57014 on a cancel or the
 * statement_timeout and 55P03 on lock_timeout; unlike PostgreSQL, attu
 * finds no deadlock between advisory locks (two sessions waiting on each
 * other's wait until one is cancelled or times out).
 */
#include "db/db_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct db_advisory {
    int            space;
    int64_t        key;
    attu_session  *s;
    bool           shared;
    uint32_t       n_sess, n_xact;
} db_advisory;

void db_advisory_init(attu_db *db) {
    pthread_mutex_init(&db->adv_mu, NULL);
    pthread_cond_init(&db->adv_cv, NULL);
}

void db_advisory_destroy(attu_db *db) {
    free(db->adv);
    pthread_mutex_destroy(&db->adv_mu);
    pthread_cond_destroy(&db->adv_cv);
}

/* under adv_mu */
static bool conflicts(const attu_db *db, const attu_session *s, int space, int64_t key, bool shared) {
    for (int i = 0; i < db->nadv; i++) {
        const db_advisory *e = &db->adv[i];
        if (e->space == space && e->key == key && e->s != s && (!shared || !e->shared)) return true;
    }
    return false;
}

static db_advisory *find(attu_db *db, const attu_session *s, int space, int64_t key, bool shared) {
    for (int i = 0; i < db->nadv; i++) {
        db_advisory *e = &db->adv[i];
        if (e->space == space && e->key == key && e->s == s && e->shared == shared) return e;
    }
    return NULL;
}

/* Drops the entries with no count left; wakes the waiters if any went. */
static void compact(attu_db *db) {
    int k = 0;
    for (int i = 0; i < db->nadv; i++)
        if (db->adv[i].n_sess || db->adv[i].n_xact) db->adv[k++] = db->adv[i];
    if (k != db->nadv) {
        db->nadv = k;
        pthread_cond_broadcast(&db->adv_cv);
    }
}

static int grant(attu_db *db, attu_session *s, int space, int64_t key, bool shared, bool xact, attu_error *err) {
    db_advisory *e = find(db, s, space, key, shared);
    if (!e) {
        if (db->nadv == db->capadv) {
            int cap = db->capadv ? db->capadv * 2 : 8;
            db_advisory *n = realloc(db->adv, sizeof *n * (size_t)cap);
            if (!n) return attu_error_oom(err);
            db->adv = n;
            db->capadv = cap;
        }
        e = &db->adv[db->nadv++];
        *e = (db_advisory){ space, key, s, shared, 0, 0 };
    }
    if (xact) e->n_xact++;
    else e->n_sess++;
    return 0;
}

int db_advisory_call(void *ctx, int op, bool shared, bool xact, int space, int64_t key, bool *result, attu_error *err) {
    attu_session *s = ctx;
    attu_db *db = s->db;
    int rc = 0;
    *result = true;
    pthread_mutex_lock(&db->adv_mu);
    switch (op) {
    case ATTU_ADVISORY_TRY:
        if (conflicts(db, s, space, key, shared)) *result = false;
        else rc = grant(db, s, space, key, shared, xact, err);
        break;
    case ATTU_ADVISORY_LOCK: {
        const double lock_end = s->lock_timeout_ms > 0 ? attu_now_ms() + s->lock_timeout_ms : 0;
        bool waiting = false;
        while (conflicts(db, s, space, key, shared)) {
            double now = attu_now_ms();
            if ((rc = db_statement_interrupted(s, now, err))) break;
            if (lock_end && now >= lock_end) {
                rc = attu_error_set(err, "55P03", 0, "canceling statement due to lock timeout");
                break;
            }
            if (!waiting && db->wait_begin) db->wait_begin(db->wait_ctx);
            waiting = true;
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 10 * 1000000L;   /* (a cancel or a timeout is seen within 10 ms) */
            if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
            pthread_cond_timedwait(&db->adv_cv, &db->adv_mu, &ts);
        }
        if (waiting && db->wait_end) db->wait_end(db->wait_ctx);
        if (!rc) rc = grant(db, s, space, key, shared, xact, err);
        break;
    }
    case ATTU_ADVISORY_UNLOCK: {
        db_advisory *e = find(db, s, space, key, shared);
        if (!e || !e->n_sess) {
            *result = false;
            db_defer_warning(s, shared ? "you don't own a lock of type ShareLock" : "you don't own a lock of type ExclusiveLock");
        } else {
            e->n_sess--;
            compact(db);
        }
        break;
    }
    default:   /* ATTU_ADVISORY_UNLOCK_ALL: the session-level locks */
        for (int i = 0; i < db->nadv; i++)
            if (db->adv[i].s == s) db->adv[i].n_sess = 0;
        compact(db);
        break;
    }
    pthread_mutex_unlock(&db->adv_mu);
    return rc ? -1 : 0;
}

void db_advisory_txn_end(attu_session *s) {
    attu_db *db = s->db;
    pthread_mutex_lock(&db->adv_mu);
    for (int i = 0; i < db->nadv; i++)
        if (db->adv[i].s == s) db->adv[i].n_xact = 0;
    compact(db);
    pthread_mutex_unlock(&db->adv_mu);
}

void db_advisory_session_end(attu_session *s) {
    attu_db *db = s->db;
    pthread_mutex_lock(&db->adv_mu);
    for (int i = 0; i < db->nadv; i++)
        if (db->adv[i].s == s) db->adv[i].n_sess = db->adv[i].n_xact = 0;
    compact(db);
    pthread_mutex_unlock(&db->adv_mu);
}
