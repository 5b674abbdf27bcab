/*
 * db_lock.c - the write locks: which writing transactions may run side by
 * side.
 *
 * Two levels, as PostgreSQL's lock modes reduced to what attu needs:
 *
 *   the database: a writing transaction holds it shared (it is one of
 *   db->lockers), DDL holds it exclusive (db->excl: no other transaction
 *   writes while it does, as the one writing token did before);
 *
 *   a table: one transaction at a time holds a table's write lock
 *   (db->held), from the statement that first changes the table until the
 *   transaction ends. Two transactions writing different tables run side
 *   by side; COMMIT carries each one's tables onto the committed catalog
 *   (db_txn.c, attu_catalog_rebase).
 *
 * Readers take nothing: they read the committed catalog or their
 * snapshot.
 *
 * A new writer waits while DDL does (db->xwaiting), so a stream of
 * writers cannot keep DDL waiting for ever. The waiting sessions stand in
 * one queue (db->wait_head), in the order they began to wait; a table's
 * lock, once free, goes to the first of its waiters (a newcomer queues
 * behind them), as PostgreSQL's lock queue grants. What a session waits
 * for (the holders and the waiters ahead of it) is pg_blocking_pids'
 * answer and the deadlock check's wait-for graph. A wait is
 * interruptible: cancel and statement_timeout end it with 57014,
 * lock_timeout with 55P03, and a transaction that waits for one
 * that (through others) waits for it is a deadlock: after deadlock_timeout
 * (1 s, as PostgreSQL's default) the waiter looks for the cycle in the
 * wait-for graph and, finding one, fails with 40P01. While it waits the
 * server's wait hooks let another worker thread run (server/loop.c).
 *
 * Everything here is under db->txn_mu; db->txn_cv is broadcast at every
 * release.
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEADLOCK_TIMEOUT_MS 1000

typedef struct db_lock_held {
    char          name[ATTU_NAME_MAX + 1];
    attu_session *holder;
    int           mode;   /* the strongest PostgreSQL mode asked (pg_locks) */
} db_lock_held;

void db_lock_init(attu_db *db) {
    pthread_mutex_init(&db->txn_mu, NULL);
    pthread_cond_init(&db->txn_cv, NULL);
}

void db_lock_destroy(attu_db *db) {
    free(db->held);
    free(db->lockers);
    db->held = NULL;
    db->lockers = NULL;
    pthread_mutex_destroy(&db->txn_mu);
    pthread_cond_destroy(&db->txn_cv);
}

/* ---- under txn_mu ------------------------------------------------------------------------- */

static long find_held(attu_db *db, const char *name) {
    for (int i = 0; i < db->nheld; i++)
        if (!strcmp(db->held[i].name, name)) return i;
    return -1;
}

static bool is_locker(attu_db *db, const attu_session *s) {
    for (int i = 0; i < db->nlockers; i++)
        if (db->lockers[i] == s) return true;
    return false;
}

/* The queue of waiting sessions: s joins at the tail, leaves from
 * anywhere. */
static void queue_add(attu_db *db, attu_session *s) {
    s->wait_next = NULL;
    s->wait_prev = db->wait_tail;
    if (db->wait_tail) db->wait_tail->wait_next = s;
    else db->wait_head = s;
    db->wait_tail = s;
}

static void queue_remove(attu_db *db, attu_session *s) {
    if (s->wait_prev) s->wait_prev->wait_next = s->wait_next;
    else db->wait_head = s->wait_next;
    if (s->wait_next) s->wait_next->wait_prev = s->wait_prev;
    else db->wait_tail = s->wait_prev;
    s->wait_prev = s->wait_next = NULL;
}

/* Whether a session queued ahead of s (all of the queue when s is not in
 * it yet) waits for table name. */
static bool table_queued_ahead(attu_db *db, const attu_session *s, const char *name) {
    for (const attu_session *w = db->wait_head; w && w != s; w = w->wait_next)
        if (w->lock_wait == 't' && w->lock_wait_name && !strcmp(w->lock_wait_name, name)) return true;
    return false;
}

/* The sessions w waits for now (at most cap of them into out): the
 * holders of what it asks, and the sessions queued ahead of it for the
 * same (every table lock of attu conflicts with every other one). */
static int blockers(attu_db *db, const attu_session *w, attu_session **out, int cap) {
    int n = 0;
    switch (w->lock_wait) {
    case 's':   /* the database, shared: its exclusive holder, and DDL waiting for it */
        if (db->excl && db->excl != w) out[n++] = db->excl;
        for (attu_session *q = db->wait_head; q && n < cap; q = q->wait_next)
            if (q != w && q->lock_wait == 'x' && q != db->excl) out[n++] = q;
        break;
    case 'x':   /* the database, exclusive: every other writer */
        for (int i = 0; i < db->nlockers && n < cap; i++)
            if (db->lockers[i] != w) out[n++] = db->lockers[i];
        break;
    case 't': {
        long i = find_held(db, w->lock_wait_name);
        if (i >= 0 && db->held[i].holder != w) out[n++] = db->held[i].holder;
        for (attu_session *q = db->wait_head; q && q != w && n < cap; q = q->wait_next)
            if (q->lock_wait == 't' && q->lock_wait_name && !strcmp(q->lock_wait_name, w->lock_wait_name) &&
                (i < 0 || q != db->held[i].holder))
                out[n++] = q;
        break;
    }
    default: break;
    }
    return n;
}

/* Whether from (through the sessions it waits for) waits for target:
 * depth-first, each session once (seen). */
static bool waits_for(attu_db *db, attu_session *from, const attu_session *target, attu_session **seen, int *nseen,
                      int cap) {
    attu_session *b[256];
    int nb = blockers(db, from, b, 256);
    for (int i = 0; i < nb; i++) {
        if (b[i] == target) return true;
        bool was = false;
        for (int k = 0; k < *nseen; k++) was |= seen[k] == b[i];
        if (was || *nseen == cap) continue;
        seen[(*nseen)++] = b[i];
        if (waits_for(db, b[i], target, seen, nseen, cap)) return true;
    }
    return false;
}

/* A wait-for line of 40P01's DETAIL, PostgreSQL's shape. */
static const char *wait_what(const attu_session *w, char *buf, size_t cap) {
    if (w->lock_wait == 't') snprintf(buf, cap, "ExclusiveLock on relation \"%s\"", w->lock_wait_name);
    else snprintf(buf, cap, "%s on database", w->lock_wait == 'x' ? "AccessExclusiveLock" : "RowExclusiveLock");
    return buf;
}

/* 40P01 for s, whose wait closes a cycle: the DETAIL names s's wait and
 * that of the session it waits for, as PostgreSQL names each process of
 * the cycle. */
static int deadlock_error(attu_db *db, attu_session *s, attu_error *err) {
    attu_session *b[256];
    int nb = blockers(db, s, b, 256);
    char w1[160], w2[160];
    attu_error_set(err, "40P01", 0, "deadlock detected");
    attu_session *other = NULL;
    for (int i = 0; i < nb && !other; i++) {
        attu_session *seen[256];
        int nseen = 0;
        if (waits_for(db, b[i], s, seen, &nseen, 256)) other = b[i];
    }
    if (other) {
        attu_session *ob[256];
        int nob = blockers(db, other, ob, 256);
        attu_error_set_detail(err, "Process %d waits for %s; blocked by process %d.\nProcess %d waits for %s; blocked by process %d.",
                              s->lock_id, wait_what(s, w1, sizeof w1), other->lock_id, other->lock_id,
                              wait_what(other, w2, sizeof w2), nob ? ob[0]->lock_id : s->lock_id);
    }
    attu_error_set_hint(err, "See server log for query details.");
    return -1;
}

/* Waits (txn_mu held) while can_go says no; 0 when it may go, -1 with
 * err. interruptible: cancel, the timeouts and the deadlock check may end
 * the wait (a wait that cannot fail just waits). *hooked: the wait hooks'
 * begin was called: the caller calls end_wait once it has taken the lock
 * and let txn_mu go (before, another waiter could take it meanwhile). */
static int wait_until(attu_session *s, bool (*can_go)(attu_db *, attu_session *, const void *), const void *arg,
                      char kind, const char *name, bool interruptible, bool *hooked, attu_error *err) {
    attu_db *db = s->db;
    if (can_go(db, s, arg)) return 0;
    bool waiting = false;   /* the wait hooks' begin called */
    double start = attu_now_ms(), next_check = start + DEADLOCK_TIMEOUT_MS;
    __atomic_store_n(&s->lock_wait, kind, __ATOMIC_RELAXED);
    s->lock_wait_name = name;
    queue_add(db, s);
    if (kind == 'x') db->xwaiting++;
    int rc = 0;
    while (!can_go(db, s, arg)) {
        if (!waiting && db->wait_begin) {
            /* (outside txn_mu: the hook takes the server's locks) */
            pthread_mutex_unlock(&db->txn_mu);
            db->wait_begin(db->wait_ctx);
            waiting = true;
            pthread_mutex_lock(&db->txn_mu);
            continue;
        }
        if (interruptible) {
            double now = attu_now_ms();
            if ((rc = db_statement_interrupted(s, now, err))) break;
            if (s->lock_timeout_ms > 0 && now >= start + s->lock_timeout_ms) {
                rc = attu_error_set(err, "55P03", 0, "canceling statement due to lock timeout");
                break;
            }
            if (now >= next_check) {
                next_check = now + DEADLOCK_TIMEOUT_MS;
                attu_session *seen[256];
                int nseen = 0;
                if (waits_for(db, s, s, seen, &nseen, 256)) {
                    rc = deadlock_error(db, s, err);
                    break;
                }
            }
        }
        /* (a short wait: cancel and the timeouts come from outside) */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 20 * 1000000L;
        if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
        pthread_cond_timedwait(&db->txn_cv, &db->txn_mu, &ts);
    }
    if (kind == 'x') db->xwaiting--;
    queue_remove(db, s);
    /* (the first in the queue may go now, should this one have given up) */
    if (rc) pthread_cond_broadcast(&db->txn_cv);
    __atomic_store_n(&s->lock_wait, (char)0, __ATOMIC_RELAXED);
    s->lock_wait_name = NULL;
    *hooked = waiting;
    return rc;
}

/* (txn_mu not held: the hook takes the server's locks) */
static void end_wait(attu_db *db, bool hooked) {
    if (hooked) db->wait_end(db->wait_ctx);
}

/* (asked by a session that holds nothing yet: while DDL waits, a new
 * writer queues behind it, as PostgreSQL's lock queue keeps a waiting
 * exclusive request ahead of later ones; otherwise a stream of writers
 * could keep DDL waiting for ever. The new writer holds nothing, so no
 * cycle goes through it.) */
static bool shared_free(attu_db *db, attu_session *s, const void *arg) {
    (void)arg;
    return (!db->excl || db->excl == s) && !db->xwaiting;
}

static bool exclusive_free(attu_db *db, attu_session *s, const void *arg) {
    (void)arg;
    if (db->excl && db->excl != s) return false;
    for (int i = 0; i < db->nlockers; i++)
        if (db->lockers[i] != s) return false;
    return true;
}

/* (a table the session holds already is its own; a free one goes to the
 * first of its waiters) */
static bool table_free(attu_db *db, attu_session *s, const void *arg) {
    long i = find_held(db, arg);
    if (i >= 0) return db->held[i].holder == s;
    return !table_queued_ahead(db, s, arg);
}

static int add_locker(attu_db *db, attu_session *s, attu_error *err) {
    if (is_locker(db, s)) return 0;
    if (db->nlockers == db->caplockers) {
        int nc = db->caplockers ? db->caplockers * 2 : 8;
        attu_session **n = realloc(db->lockers, sizeof *n * (size_t)nc);
        if (!n) return attu_error_oom(err);
        db->lockers = n;
        db->caplockers = nc;
    }
    db->lockers[db->nlockers++] = s;
    if (!s->lock_id) s->lock_id = ++db->lock_ids;
    return 0;
}

/* ---- the interface ------------------------------------------------------------------------ */

int db_lock_shared(attu_session *s, bool interruptible, attu_error *err) {
    attu_db *db = s->db;
    pthread_mutex_lock(&db->txn_mu);
    bool hooked = false;
    int rc = is_locker(db, s) ? 0 : wait_until(s, shared_free, NULL, 's', NULL, interruptible, &hooked, err);
    if (!rc) rc = add_locker(db, s, err);
    pthread_mutex_unlock(&db->txn_mu);
    end_wait(db, hooked);
    return rc;
}

int db_lock_exclusive(attu_session *s, bool interruptible, attu_error *err) {
    attu_db *db = s->db;
    pthread_mutex_lock(&db->txn_mu);
    if (!s->lock_id) s->lock_id = ++db->lock_ids;
    bool hooked = false;
    int rc = db->excl == s ? 0 : wait_until(s, exclusive_free, NULL, 'x', NULL, interruptible, &hooked, err);
    if (!rc) rc = add_locker(db, s, err);
    if (!rc) db->excl = s;
    pthread_mutex_unlock(&db->txn_mu);
    end_wait(db, hooked);
    return rc;
}

bool db_lock_holds_exclusive(attu_session *s) {
    pthread_mutex_lock(&s->db->txn_mu);
    bool held = s->db->excl == s;
    pthread_mutex_unlock(&s->db->txn_mu);
    return held;
}

int db_lock_table(attu_session *s, const char *name, int mode, bool nowait, attu_error *err) {
    attu_db *db = s->db;
    pthread_mutex_lock(&db->txn_mu);
    s->lock_wait_mode = mode;
    int rc = 0;
    bool hooked = false;
    if (db->excl != s) {   /* (the database's exclusive lock holds every table) */
        /* (NOWAIT, LOCK TABLE's: fail now rather than wait) */
        if (nowait && !table_free(db, s, name))
            rc = attu_error_set(err, "55P03", 0, "could not obtain lock on relation \"%s\"", name);
        if (!rc) rc = wait_until(s, table_free, name, 't', name, true, &hooked, err);
        if (!rc && find_held(db, name) < 0) {
            if (db->nheld == db->capheld) {
                int nc = db->capheld ? db->capheld * 2 : 16;
                db_lock_held *n = realloc(db->held, sizeof *n * (size_t)nc);
                if (!n) rc = attu_error_oom(err);
                else {
                    db->held = n;
                    db->capheld = nc;
                }
            }
            if (!rc) {
                snprintf(db->held[db->nheld].name, sizeof db->held[db->nheld].name, "%s", name);
                db->held[db->nheld].mode = mode;
                db->held[db->nheld++].holder = s;
            }
        } else if (!rc) {
            long i = find_held(db, name);
            if (db->held[i].mode < mode) db->held[i].mode = mode;
        }
    }
    pthread_mutex_unlock(&db->txn_mu);
    end_wait(db, hooked);
    return rc;
}

bool db_lock_table_held_by_other(attu_session *s, const char *name) {
    attu_db *db = s->db;
    pthread_mutex_lock(&db->txn_mu);
    long i = find_held(db, name);
    bool other = (db->excl && db->excl != s) || (i >= 0 && db->held[i].holder != s);
    pthread_mutex_unlock(&db->txn_mu);
    return other;
}

void db_lock_release_all(attu_session *s) {
    attu_db *db = s->db;
    pthread_mutex_lock(&db->txn_mu);
    bool any = db->excl == s;
    if (db->excl == s) db->excl = NULL;
    for (int i = 0; i < db->nheld;)
        if (db->held[i].holder == s) {
            db->held[i] = db->held[--db->nheld];
            any = true;
        } else i++;
    for (int i = 0; i < db->nlockers; i++)
        if (db->lockers[i] == s) {
            db->lockers[i] = db->lockers[--db->nlockers];
            any = true;
            break;
        }
    if (any) pthread_cond_broadcast(&db->txn_cv);
    pthread_mutex_unlock(&db->txn_mu);
}

/* ---- pg_locks ----------------------------------------------------------------------------- */

static const char *mode_name(int mode) {
    static const char *const names[] = { "AccessShareLock", "RowShareLock", "RowExclusiveLock",
                                         "ShareUpdateExclusiveLock", "ShareLock", "ShareRowExclusiveLock",
                                         "ExclusiveLock", "AccessExclusiveLock" };
    return mode >= 1 && mode <= 8 ? names[mode - 1] : "RowExclusiveLock";
}

void db_lock_rows(void *ctx, void (*row)(void *rctx, const attu_lock_info *l), void *rctx) {
    attu_session *self = ctx;
    attu_db *db = self->db;
    pthread_mutex_lock(&db->txn_mu);
    for (int i = 0; i < db->nheld; i++) {
        attu_lock_info l = { db->held[i].holder->pid, db->held[i].name, mode_name(db->held[i].mode), true };
        row(rctx, &l);
    }
    /* the waiters: a session's wait is set and cleared under txn_mu, so
     * its table's name stays valid here (the sessions' list is act_mu's) */
    pthread_mutex_lock(&db->act_mu);
    for (attu_session *s = db->sessions; s; s = s->act_next)
        if (s->lock_wait == 't' && s->lock_wait_name) {
            attu_lock_info l = { s->pid, s->lock_wait_name, mode_name(s->lock_wait_mode), false };
            row(rctx, &l);
        }
    pthread_mutex_unlock(&db->act_mu);
    pthread_mutex_unlock(&db->txn_mu);
}

/* ---- pg_blocking_pids --------------------------------------------------------------------- */

void db_lock_blocking(void *ctx, void (*row)(void *rctx, uint32_t pid, const uint32_t *blockers, int n), void *rctx) {
    attu_session *self = ctx;
    attu_db *db = self->db;
    pthread_mutex_lock(&db->txn_mu);
    /* (the pids are act_mu's: attu_session_set_backend) */
    pthread_mutex_lock(&db->act_mu);
    for (attu_session *w = db->wait_head; w; w = w->wait_next) {
        attu_session *b[256];
        uint32_t pids[256];
        int nb = blockers(db, w, b, 256), np = 0;
        for (int i = 0; i < nb; i++) {
            bool dup = false;
            for (int k = 0; k < np; k++) dup |= pids[k] == b[i]->pid;
            if (!dup) pids[np++] = b[i]->pid;
        }
        row(rctx, w->pid, pids, np);
    }
    pthread_mutex_unlock(&db->act_mu);
    pthread_mutex_unlock(&db->txn_mu);
}
