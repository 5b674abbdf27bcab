/*
 * db_notify.c - LISTEN, UNLISTEN, NOTIFY and pg_notify, as PostgreSQL 15
 * has them.
 *
 * All three are transactional: what a transaction LISTENs to, UNLISTENs
 * and NOTIFYs waits in the session (listen_pending, notify_pending) until
 * it commits, and a ROLLBACK (or an error outside a block) drops it. At
 * COMMIT the session's channels change first, then each notification is
 * copied to the inbox of every session listening on its channel (the
 * notifying one included, as in PostgreSQL), and the server is asked to
 * deliver to the others now if they are idle (ATTU_SIGNAL_NOTIFY); the
 * notifying session's own arrive before its ReadyForQuery.
 *
 * Within one transaction a notification equal to an earlier one (same
 * channel and payload) is folded into it, as PostgreSQL folds them; the
 * others keep their order. A payload is at most 7999 bytes (22023), a
 * channel at most 63 (22023).
 *
 * Memory: an inbox that nobody reads (a listener inside a long
 * transaction) grows; past MAX_INBOX notifications a listener's further
 * ones are dropped rather than let a NOTIFY storm take the daemon's
 * memory (PostgreSQL's queue has a fixed size too; it fails the
 * notifying COMMIT instead).
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PAYLOAD 8000
#define MAX_CHANNEL 64
#define MAX_INBOX   1000000

typedef struct db_listen_action {
    struct db_listen_action *next;
    char  op;          /* 'L' or 'U' */
    char *channel;     /* NULL: UNLISTEN * */
} db_listen_action;

typedef struct notify_entry {
    char    *channel, *payload;
    uint64_t hash;
} notify_entry;

/* The transaction's notifications in order, with a hash set of them for
 * folding duplicates (a storm of NOTIFYs in one transaction stays linear). */
typedef struct db_notify_pending {
    notify_entry *v;
    size_t        n, cap;
    uint32_t     *slots;     /* index + 1; 0: free */
    size_t        nslots;
} db_notify_pending;

static uint64_t hash_pair(const char *a, const char *b) {
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)a; *p; p++) { h ^= *p; h *= 1099511628211ull; }
    h ^= 0xff;
    h *= 1099511628211ull;
    for (const unsigned char *p = (const unsigned char *)b; *p; p++) { h ^= *p; h *= 1099511628211ull; }
    return h;
}

static void pending_free(db_notify_pending *p) {
    if (!p) return;
    for (size_t i = 0; i < p->n; i++) { free(p->v[i].channel); free(p->v[i].payload); }
    free(p->v);
    free(p->slots);
    free(p);
}

static bool pending_rehash(db_notify_pending *p, size_t nslots) {
    uint32_t *sl = calloc(nslots, sizeof *sl);
    if (!sl) return false;
    for (size_t i = 0; i < p->n; i++) {
        size_t k = p->v[i].hash & (nslots - 1);
        while (sl[k]) k = (k + 1) & (nslots - 1);
        sl[k] = (uint32_t)(i + 1);
    }
    free(p->slots);
    p->slots = sl;
    p->nslots = nslots;
    return true;
}

/* Adds one notification unless an equal one waits already. */
static int pending_add(attu_session *s, const char *channel, const char *payload, attu_error *err) {
    db_notify_pending *p = s->notify_pending;
    if (!p && !(p = s->notify_pending = calloc(1, sizeof *p))) return attu_error_oom(err);
    uint64_t h = hash_pair(channel, payload);
    if (p->nslots) {
        for (size_t k = h & (p->nslots - 1); p->slots[k]; k = (k + 1) & (p->nslots - 1)) {
            const notify_entry *e = &p->v[p->slots[k] - 1];
            if (e->hash == h && !strcmp(e->channel, channel) && !strcmp(e->payload, payload)) return 0;
        }
    }
    if (p->n >= UINT32_MAX - 1) return attu_error_set(err, "54000", 0, "too many notifications in the NOTIFY queue");
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 16;
        notify_entry *v = realloc(p->v, cap * sizeof *v);
        if (!v) return attu_error_oom(err);
        p->v = v;
        p->cap = cap;
    }
    notify_entry e = { strdup(channel), strdup(payload), h };
    if (!e.channel || !e.payload) { free(e.channel); free(e.payload); return attu_error_oom(err); }
    p->v[p->n++] = e;
    if (p->n * 2 > p->nslots) {
        if (!pending_rehash(p, p->nslots ? p->nslots * 2 : 32)) { p->n--; free(e.channel); free(e.payload); return attu_error_oom(err); }
    } else {
        size_t k = h & (p->nslots - 1);
        while (p->slots[k]) k = (k + 1) & (p->nslots - 1);
        p->slots[k] = (uint32_t)p->n;
    }
    return 0;
}

static int check_channel(const char *channel, attu_error *err) {
    if (!channel || !*channel) return attu_error_set(err, "22023", 0, "channel name cannot be empty");
    if (strlen(channel) >= MAX_CHANNEL) return attu_error_set(err, "22023", 0, "channel name too long");
    return 0;
}

static int do_notify(attu_session *s, const char *channel, const char *payload, attu_error *err) {
    if (check_channel(channel, err)) return -1;
    if (payload && strlen(payload) >= MAX_PAYLOAD) return attu_error_set(err, "22023", 0, "payload string too long");
    return pending_add(s, channel, payload ? payload : "", err);
}

static int add_listen_action(attu_session *s, char op, const char *channel, attu_error *err) {
    db_listen_action *a = calloc(1, sizeof *a);
    if (!a || (channel && !(a->channel = strdup(channel)))) { free(a); return attu_error_oom(err); }
    a->op = op;
    db_listen_action **pp = &s->listen_pending;   /* in order: LISTEN a; UNLISTEN a ends unlistened */
    while (*pp) pp = &(*pp)->next;
    *pp = a;
    return 0;
}

int db_exec_listen(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    const char *tag;
    switch (st->u.listen.op) {
    case 'L':
        if (check_channel(st->u.listen.channel, err) || add_listen_action(s, 'L', st->u.listen.channel, err)) return -1;
        tag = "LISTEN";
        break;
    case 'U':
        if (st->u.listen.channel && check_channel(st->u.listen.channel, err)) return -1;
        if (add_listen_action(s, 'U', st->u.listen.channel, err)) return -1;
        tag = "UNLISTEN";
        break;
    default:
        if (do_notify(s, st->u.listen.channel, st->u.listen.payload, err)) return -1;
        tag = "NOTIFY";
        break;
    }
    return db_deliver_tag(cb, tag, err) ? -2 : 0;
}

int db_notify_call(void *ctx, const char *channel, const char *payload, attu_error *err) {
    return do_notify(ctx, channel, payload, err);
}

const char *db_listening_at(void *ctx, int i) {
    attu_session *s = ctx;
    return i >= 0 && i < s->nlisten ? s->listen[i] : NULL;
}

bool db_notify_txn_pending(const attu_session *s) {
    return s->listen_pending || (s->notify_pending && s->notify_pending->n);
}

/* ---- savepoints ---------------------------------------------------------------------- */

void db_notify_mark(const attu_session *s, size_t *notifies, size_t *listens) {
    *notifies = s->notify_pending ? s->notify_pending->n : 0;
    *listens = 0;
    for (const db_listen_action *a = s->listen_pending; a; a = a->next) (*listens)++;
}

void db_notify_rollback_to(attu_session *s, size_t notifies, size_t listens) {
    db_notify_pending *p = s->notify_pending;
    if (p && p->n > notifies) {
        for (size_t i = notifies; i < p->n; i++) { free(p->v[i].channel); free(p->v[i].payload); }
        p->n = notifies;
        /* (the set again from the entries kept; out of memory: no folding) */
        if (!pending_rehash(p, p->nslots ? p->nslots : 32)) { free(p->slots); p->slots = NULL; p->nslots = 0; }
    }
    db_listen_action **pp = &s->listen_pending;
    for (size_t k = 0; *pp && k < listens; k++) pp = &(*pp)->next;
    while (*pp) {
        db_listen_action *a = *pp;
        *pp = a->next;
        free(a->channel);
        free(a);
    }
}

/* ---- the end of the transaction ------------------------------------------------------- */

static bool listens(const attu_session *s, const char *channel) {
    for (int i = 0; i < s->nlisten; i++)
        if (!strcmp(s->listen[i], channel)) return true;
    return false;
}

static void unlisten_all(attu_session *s) {
    for (int i = 0; i < s->nlisten; i++) free(s->listen[i]);
    free(s->listen);
    s->listen = NULL;
    s->nlisten = 0;
}

/* (under act_mu: other sessions' commits read s->listen) */
static void apply_listen(attu_session *s, const db_listen_action *a) {
    if (a->op == 'U') {
        if (!a->channel) { unlisten_all(s); return; }
        for (int i = 0; i < s->nlisten; i++)
            if (!strcmp(s->listen[i], a->channel)) {
                free(s->listen[i]);
                memmove(&s->listen[i], &s->listen[i + 1], (size_t)(s->nlisten - i - 1) * sizeof *s->listen);
                s->nlisten--;
                return;
            }
        return;
    }
    if (listens(s, a->channel)) return;
    char **l = realloc(s->listen, (size_t)(s->nlisten + 1) * sizeof *l);
    char *c = l ? strdup(a->channel) : NULL;
    if (l) s->listen = l;
    if (!c) return;   /* out of memory: the LISTEN is lost, nothing breaks */
    s->listen[s->nlisten++] = c;
}

static void inbox_add(attu_session *to, uint32_t pid, const notify_entry *e) {
    if (to->ninbox >= MAX_INBOX) return;
    attu_notification *n = calloc(1, sizeof *n);
    if (!n) return;
    n->pid = pid;
    n->channel = strdup(e->channel);
    n->payload = strdup(e->payload);
    if (!n->channel || !n->payload) { attu_notifications_free(n); return; }
    if (to->inbox_tail) to->inbox_tail->next = n; else to->inbox = n;
    to->inbox_tail = n;
    to->ninbox++;
}

void db_notify_txn_end(attu_session *s, bool commit) {
    db_listen_action *acts = s->listen_pending;
    db_notify_pending *p = s->notify_pending;
    s->listen_pending = NULL;
    s->notify_pending = NULL;
    uint32_t *wake = NULL;
    size_t nwake = 0;
    if (commit && (acts || (p && p->n))) {
        attu_db *db = s->db;
        pthread_mutex_lock(&db->act_mu);
        for (const db_listen_action *a = acts; a; a = a->next) apply_listen(s, a);
        if (p && p->n) {
            size_t nsess = 0;
            for (attu_session *o = db->sessions; o; o = o->act_next) nsess++;
            wake = calloc(nsess ? nsess : 1, sizeof *wake);
            for (attu_session *o = db->sessions; o; o = o->act_next) {
                if (!o->nlisten) continue;
                size_t before = o->ninbox;
                for (size_t i = 0; i < p->n; i++)
                    if (listens(o, p->v[i].channel)) inbox_add(o, s->pid, &p->v[i]);
                if (o->ninbox != before && o != s && wake) wake[nwake++] = o->pid;
            }
            /* (under act_mu, as db_signal_backend calls it) */
            for (size_t i = 0; db->signal && i < nwake; i++) db->signal(db->signal_ctx, wake[i], ATTU_SIGNAL_NOTIFY);
        }
        pthread_mutex_unlock(&db->act_mu);
    }
    free(wake);
    while (acts) { db_listen_action *a = acts; acts = a->next; free(a->channel); free(a); }
    pending_free(p);
}

void db_notify_session_end(attu_session *s) {
    db_notify_txn_end(s, false);
    pthread_mutex_lock(&s->db->act_mu);
    unlisten_all(s);
    attu_notification *n = s->inbox;
    s->inbox = s->inbox_tail = NULL;
    s->ninbox = 0;
    pthread_mutex_unlock(&s->db->act_mu);
    attu_notifications_free(n);
}

/* DISCARD ALL's UNLISTEN * (at once: DISCARD ALL runs outside blocks). */
void db_notify_unlisten_all(attu_session *s) {
    pthread_mutex_lock(&s->db->act_mu);
    unlisten_all(s);
    pthread_mutex_unlock(&s->db->act_mu);
}

attu_notification *attu_session_take_notifications(attu_session *s) {
    pthread_mutex_lock(&s->db->act_mu);
    attu_notification *n = s->inbox;
    s->inbox = s->inbox_tail = NULL;
    s->ninbox = 0;
    pthread_mutex_unlock(&s->db->act_mu);
    return n;
}

void attu_notifications_free(attu_notification *n) {
    while (n) {
        attu_notification *next = n->next;
        free(n->channel);
        free(n->payload);
        free(n);
        n = next;
    }
}
