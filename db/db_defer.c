/*
 * db_defer.c - deferred constraint checks: FOREIGN KEY ... DEFERRABLE
 * [INITIALLY DEFERRED | IMMEDIATE], SET CONSTRAINTS, and the checks that
 * wait for COMMIT.
 *
 * A foreign key's two checks can wait, as PostgreSQL's deferred RI
 * triggers do: that a new or changed referencing row has its referenced
 * key ('c' events), and that a referenced key that went (DELETE, UPDATE
 * of the key) with NO ACTION is referenced no more ('p' events). The
 * actions (CASCADE, SET NULL, SET DEFAULT) and RESTRICT run at the end of
 * their statement always, as in PostgreSQL. A statement whose deferred
 * foreign key would check rows queues them here instead (db_fkey.c calls
 * db_defer_queue): a copy of the rows in question, so the check later
 * sees their values whatever happens to the table meanwhile.
 *
 * The check runs when the constraint stops being deferred: SET
 * CONSTRAINTS ... IMMEDIATE (for the events of the constraints it names)
 * or COMMIT (all of them, first thing: a failure rolls the whole
 * transaction back, and COMMIT answers the error). Each event is checked
 * against the state then, in the order queued (the first that fails is
 * PostgreSQL's error): a queued referencing row counts only while a row
 * of its table still holds its key (PostgreSQL skips a row deleted or
 * updated since: the update queued its own event), and a queued
 * referenced key only while no row of the referenced table holds it
 * again.
 *
 * The state is the transaction's: SET CONSTRAINTS' modes and the queue,
 * dropped at its end; a savepoint keeps the queue's length and the modes
 * (db_defer_mark), which ROLLBACK TO puts back. While events wait on a
 * table, ALTER TABLE, CREATE INDEX, DROP TABLE and TRUNCATE of it are
 * refused (55006, PostgreSQL's "pending trigger events"), so the copies
 * keep its layout; a rename of the table or of a unique constraint moves
 * the events along (db_defer_renamed).
 *
 * A DEFERRABLE PRIMARY KEY or UNIQUE constraint queues its rechecks
 * here too ('u' events, db_unique_defer.c): a copy of the rows whose key
 * was duplicated when written, rechecked (is the key held twice now?) in
 * the same order as the foreign keys' events. Such a constraint is known
 * by its name (a relation's: one in the schema), its events and modes
 * by that name.
 */
#include "db/db_internal.h"
#include "db/db_fkey.h"
#include "db/db_unique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVENT_TABLE "\001fk_deferred"

typedef struct defer_event {
    char         kind;                        /* 'c' or 'p' (above), 'u' a unique constraint's */
    uint64_t     made;                        /* the foreign key (attu_fkey.made); 0 for 'u' */
    char         uname[ATTU_NAME_MAX + 1];    /* 'u': the constraint */
    char         table[ATTU_NAME_MAX + 1];    /* whose rows rows holds: the child ('c'), the parent ('p') */
    attu_table  *rows;
} defer_event;

/* SET CONSTRAINTS name ...: the mode of one foreign key (made) or
 * unique constraint (made 0, uname) */
typedef struct defer_mode {
    uint64_t made;
    char     uname[ATTU_NAME_MAX + 1];
    bool     deferred;
} defer_mode;

struct db_defer {
    defer_event *ev;
    int          nev, capev;
    char         all;         /* SET CONSTRAINTS ALL: 'd' / 'i'; 0: none since */
    defer_mode  *modes;
    int          nmodes;
};

struct db_defer_mark {
    int         nev;
    char        all;
    defer_mode *modes;
    int         nmodes;
};

static db_defer *state(attu_session *s) {
    if (!s->defer) s->defer = calloc(1, sizeof *s->defer);
    return s->defer;
}

static void drop_events(db_defer *d, int from) {
    for (int i = from; i < d->nev; i++) attu_table_free(d->ev[i].rows);
    d->nev = from < d->nev ? from : d->nev;
}

void db_defer_free(attu_session *s) {
    db_defer *d = s->defer;
    if (!d) return;
    drop_events(d, 0);
    free(d->ev);
    free(d->modes);
    free(d);
    s->defer = NULL;
}

bool db_defer_pending(const attu_session *s) { return s->defer != NULL; }

/* ---- which foreign keys wait ------------------------------------------------------------ */

bool db_defer_is_deferred(const attu_session *s, const attu_fkey *f) {
    /* (a statement with data-modifying WITH queries checks its foreign
     * keys after all its parts: db_with_modify.c) */
    if (s->fk_at_statement_end) return true;
    if (!f->deferrable) return false;
    const db_defer *d = s->defer;
    if (d) {
        for (int i = 0; i < d->nmodes; i++) if (d->modes[i].made == f->made) return d->modes[i].deferred;
        if (d->all) return d->all == 'd';
    }
    return f->initially_deferred;
}

bool db_defer_unique_is_deferred(const attu_session *s, const attu_unique *u) {
    if (!u->deferrable) return false;
    const db_defer *d = s->defer;
    if (d) {
        for (int i = 0; i < d->nmodes; i++)
            if (!d->modes[i].made && !strcmp(d->modes[i].uname, u->name)) return d->modes[i].deferred;
        if (d->all) return d->all == 'd';
    }
    return u->initially_deferred;
}

static defer_event *push_event(attu_session *s, char kind, const attu_table *t, const size_t *rows, size_t n,
                               attu_error *err) {
    db_defer *d = state(s);
    if (!d) { attu_error_oom(err); return NULL; }
    if (d->nev == d->capev) {
        int nc = d->capev ? d->capev * 2 : 8;
        defer_event *v = realloc(d->ev, sizeof *v * (size_t)nc);
        if (!v) { attu_error_oom(err); return NULL; }
        d->ev = v;
        d->capev = nc;
    }
    attu_table *g = db_gather_rows(t, rows, n, EVENT_TABLE, err);
    if (!g) return NULL;
    defer_event *e = &d->ev[d->nev++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    snprintf(e->table, sizeof e->table, "%s", t->name);
    e->rows = g;
    return e;
}

int db_defer_queue_unique(attu_session *s, const attu_unique *u, const attu_table *t, const size_t *rows, size_t n,
                          attu_error *err) {
    if (!n) return 0;
    defer_event *e = push_event(s, 'u', t, rows, n, err);
    if (!e) return -1;
    snprintf(e->uname, sizeof e->uname, "%s", u->name);
    return 0;
}

int db_defer_queue(attu_session *s, char kind, const attu_fkey *f, const attu_table *t, const size_t *rows, size_t n,
                   attu_error *err) {
    if (!n) return 0;
    defer_event *e = push_event(s, kind, t, rows, n, err);
    if (!e) return -1;
    e->made = f->made;
    return 0;
}

/* The foreign key made `made` (of any table: *child its table), or NULL
 * when it is gone (dropped since: nothing to check). */
static const attu_fkey *find_fkey(const attu_catalog *cat, uint64_t made, const char **child) {
    for (size_t i = 0; i < attu_catalog_count(cat); i++) {
        const attu_table *t = attu_catalog_at(cat, i);
        if (t->name[0] == '\001') continue;
        int nf = 0;
        const attu_fkey *fs = attu_catalog_fkeys(cat, t->name, &nf);
        for (int k = 0; k < nf; k++)
            if (fs[k].made == made) { *child = t->name; return &fs[k]; }
    }
    return NULL;
}

/* The unique constraint named name (of any table: *owner its table), or
 * NULL when it is gone (dropped since: nothing to check). */
static const attu_unique *find_unique(const attu_catalog *cat, const char *name, const char **owner) {
    for (size_t i = 0; i < attu_catalog_count(cat); i++) {
        const attu_table *t = attu_catalog_at(cat, i);
        if (t->name[0] == '\001') continue;
        int nu = 0;
        const attu_unique *us = attu_catalog_uniques(cat, t->name, &nu);
        for (int k = 0; k < nu; k++)
            if (!us[k].index && !strcmp(us[k].name, name)) { *owner = t->name; return &us[k]; }
    }
    return NULL;
}

/* A 'u' event's recheck, when its constraint is due (else *due false). */
static int fire_unique(attu_session *s, const defer_event *e, bool everything, bool *due, attu_error *err) {
    const char *owner = NULL;
    const attu_unique *u = find_unique(db_cat(s), e->uname, &owner);
    *due = !u || everything || !db_defer_unique_is_deferred(s, u);
    if (!u || !*due) return 0;
    attu_unique copy = *u;
    const attu_table *t = attu_catalog_lookup(db_cat(s), owner);
    if (!t || t->ncols != e->rows->ncols) return 0;
    return db_unique_recheck(t, &copy, e->rows, err);
}

/* Checks the events whose foreign key is no longer deferred (all of
 * them when every one is due: COMMIT), in the order queued; those checked
 * leave the queue once all passed (a failure keeps them: its transaction
 * or savepoint ends with it). */
static int fire(attu_session *s, bool everything, attu_error *err) {
    db_defer *d = s->defer;
    if (!d || !d->nev) return 0;
    bool locked = false;
    if (s->work) { pthread_rwlock_rdlock(&s->db->lock); locked = true; }
    int rc = 0;
    uint8_t *done = calloc((size_t)d->nev + 1, 1);
    if (!done) rc = attu_error_oom(err);
    for (int i = 0; !rc && i < d->nev; i++) {
        defer_event *e = &d->ev[i];
        if (e->kind == 'u') {
            bool due = false;
            rc = fire_unique(s, e, everything, &due, err);
            done[i] = due;
            continue;
        }
        const char *child = NULL;
        const attu_fkey *f = find_fkey(db_cat(s), e->made, &child);
        if (f && !everything && db_defer_is_deferred(s, f)) continue;
        done[i] = 1;
        if (!f) continue;
        attu_fkey copy = *f;   /* (the catalog may move while the check runs) */
        char cname[ATTU_NAME_MAX + 1];
        snprintf(cname, sizeof cname, "%s", child);
        if (attu_catalog_add(db_cat(s), e->rows, err)) { rc = -1; break; }
        rc = db_fkey_check_deferred(s, &copy, cname, e->kind, EVENT_TABLE, e->rows, err);
        attu_catalog_remove(db_cat(s), EVENT_TABLE, true, NULL);   /* (the event keeps its rows) */
    }
    if (!rc) {
        int m = 0;
        for (int i = 0; i < d->nev; i++) {
            if (done[i]) attu_table_free(d->ev[i].rows);
            else d->ev[m++] = d->ev[i];
        }
        d->nev = m;
    }
    free(done);
    if (locked) pthread_rwlock_unlock(&s->db->lock);
    return rc;
}

int db_defer_fire_due(attu_session *s, attu_error *err) { return fire(s, false, err); }

int db_defer_commit(attu_session *s, attu_error *err) {
    int rc = fire(s, true, err);
    db_defer_free(s);
    return rc;
}

int db_defer_in_use(const attu_session *s, const char *table, const char *what, attu_error *err) {
    const db_defer *d = s->defer;
    for (int i = 0; d && i < d->nev; i++)
        if (!strcmp(d->ev[i].table, table))
            return attu_error_set(err, "55006", 0, "cannot %s \"%s\" because it has pending trigger events", what, table);
    return 0;
}

void db_defer_renamed(attu_session *s, char what, const char *from, const char *to) {
    db_defer *d = s->defer;
    for (int i = 0; d && i < d->nev; i++) {
        defer_event *e = &d->ev[i];
        if (what == 't' && !strcmp(e->table, from)) snprintf(e->table, sizeof e->table, "%s", to);
        if (what == 'k' && e->kind == 'u' && !strcmp(e->uname, from)) snprintf(e->uname, sizeof e->uname, "%s", to);
    }
    for (int i = 0; d && what == 'k' && i < d->nmodes; i++)
        if (!d->modes[i].made && !strcmp(d->modes[i].uname, from))
            snprintf(d->modes[i].uname, sizeof d->modes[i].uname, "%s", to);
}

/* ---- savepoints ------------------------------------------------------------------------- */

db_defer_mark *db_defer_mark_take(attu_session *s, attu_error *err) {
    db_defer_mark *m = calloc(1, sizeof *m);
    if (!m) { attu_error_oom(err); return NULL; }
    const db_defer *d = s->defer;
    if (!d) return m;
    m->nev = d->nev;
    m->all = d->all;
    if (d->nmodes) {
        if (!(m->modes = malloc(sizeof *m->modes * (size_t)d->nmodes))) { free(m); attu_error_oom(err); return NULL; }
        memcpy(m->modes, d->modes, sizeof *m->modes * (size_t)d->nmodes);
        m->nmodes = d->nmodes;
    }
    return m;
}

void db_defer_mark_rollback(attu_session *s, const db_defer_mark *m) {
    db_defer *d = s->defer;
    if (!d) return;
    drop_events(d, m->nev);
    d->all = m->all;
    free(d->modes);
    d->modes = NULL;
    d->nmodes = 0;
    if (m->nmodes && (d->modes = malloc(sizeof *d->modes * (size_t)m->nmodes))) {
        memcpy(d->modes, m->modes, sizeof *d->modes * (size_t)m->nmodes);
        d->nmodes = m->nmodes;
    }
}

void db_defer_mark_free(db_defer_mark *m) {
    if (!m) return;
    free(m->modes);
    free(m);
}

/* ---- SET CONSTRAINTS ---------------------------------------------------------------------- */

/* The mode of the foreign key made (made 0: the unique constraint
 * uname); -1 when out of memory. */
static int set_mode(db_defer *d, uint64_t made, const char *uname, bool deferred) {
    int j = 0;
    while (j < d->nmodes && (d->modes[j].made != made || (!made && (!uname || strcmp(d->modes[j].uname, uname))))) j++;
    if (j == d->nmodes) {
        defer_mode *v = realloc(d->modes, sizeof *v * (size_t)(d->nmodes + 1));
        if (!v) return -1;
        d->modes = v;
        d->nmodes++;
        memset(&d->modes[j], 0, sizeof d->modes[j]);
    }
    d->modes[j].made = made;
    if (uname) snprintf(d->modes[j].uname, sizeof d->modes[j].uname, "%s", uname);
    d->modes[j].deferred = deferred;
    return 0;
}

/* Sets the mode of every constraint named name (PostgreSQL looks in
 * every table of the schema): 42704 when none is, 42809 (DEFERRED) when
 * one is not deferrable (a CHECK constraint never is); IMMEDIATE is what
 * such a one is anyway. */
static int set_named(attu_session *s, db_defer *d, const char *written, bool deferred, attu_error *err) {
    const char *name = written, *dot = strchr(written, '.');
    if (dot) {
        size_t n = (size_t)(dot - written);
        if (n == 6 && !strncmp(written, "public", 6)) name = dot + 1;
        else if (n == 10 && !strncmp(written, "pg_catalog", 10))
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "constraint \"%s\" does not exist", written);
        else
            return attu_error_set(err, "3F000", 0, "schema \"%.*s\" does not exist", (int)n, written);
    }
    const attu_catalog *cat = db_cat(s);
    int found = 0;
    const char *fixed = NULL;   /* a constraint of that name that cannot wait */
    for (size_t i = 0; i < attu_catalog_count(cat); i++) {
        const attu_table *t = attu_catalog_at(cat, i);
        if (t->name[0] == '\001') continue;
        int n = 0;
        const attu_unique *us = attu_catalog_uniques(cat, t->name, &n);
        for (int k = 0; k < n; k++) {
            if (us[k].index || strcmp(us[k].name, name)) continue;
            if (!us[k].deferrable) { fixed = name; continue; }
            found++;
            if (set_mode(d, 0, name, deferred)) return attu_error_oom(err);
        }
        const attu_check *cs = attu_catalog_checks(cat, t->name, &n);
        for (int k = 0; k < n; k++)
            if (!strcmp(cs[k].name, name)) fixed = name;
        const attu_fkey *fs = attu_catalog_fkeys(cat, t->name, &n);
        for (int k = 0; k < n; k++) {
            if (strcmp(fs[k].name, name)) continue;
            if (!fs[k].deferrable) { fixed = name; continue; }
            found++;
            if (set_mode(d, fs[k].made, NULL, deferred)) return attu_error_oom(err);
        }
    }
    if (fixed && deferred) return attu_error_set(err, "42809", 0, "constraint \"%s\" is not deferrable", name);
    if (!found && !fixed)
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "constraint \"%s\" does not exist", written);
    return 0;
}

int db_exec_set_constraints(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    /* outside a transaction block it would end with its statement:
     * PostgreSQL warns and does nothing */
    if (s->txn == 'I' && !s->implicit_block) {
        db_warning(cb, "25P01", "SET CONSTRAINTS can only be used in transaction blocks");
        return db_deliver_tag(cb, "SET CONSTRAINTS", err) ? -2 : 0;
    }
    db_defer *d = state(s);
    if (!d) return attu_error_oom(err);
    bool deferred = st->u.set_constraints.deferred;
    const attu_ast_name_list *names = &st->u.set_constraints.names;
    int rc = 0;
    if (!names->n) {
        d->all = deferred ? 'd' : 'i';
        free(d->modes);
        d->modes = NULL;
        d->nmodes = 0;
    } else {
        pthread_rwlock_rdlock(&s->db->lock);
        /* (all names first: an unknown one changes nothing) */
        db_defer_mark *m = db_defer_mark_take(s, err);
        if (!m) rc = -1;
        for (int i = 0; !rc && i < names->n; i++) rc = set_named(s, d, names->items[i], deferred, err);
        if (rc && m) db_defer_mark_rollback(s, m);
        db_defer_mark_free(m);
        pthread_rwlock_unlock(&s->db->lock);
    }
    /* IMMEDIATE: what waited for these constraints is checked now */
    if (!rc && !deferred) rc = fire(s, false, err);
    if (rc) return -1;
    return db_deliver_tag(cb, "SET CONSTRAINTS", err) ? -2 : 0;
}
