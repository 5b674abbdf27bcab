/*
 * db_txn.c - transactions: what a session changes stays its own until
 * COMMIT publishes all of it at once; ROLLBACK throws all of it away.
 *
 * The database holds the committed catalog (attu_db.cat). A statement
 * that writes (autocommit or not) first takes the write locks of the
 * tables it changes (db_txn_lock_stmt: db_lock.c, db_lock_stmt.c; DDL the
 * whole database's), held until its transaction ends: writers of other
 * tables run side by side, readers never wait. The transaction's first
 * one clones the committed catalog into its working catalog
 * (attu_session.work), keeping what it cloned (db_txn.base). Table versions are shared, not copied: a version
 * is immutable once a catalog holds it, and attu_table_free frees it only
 * when the last catalog lets go (attu_table.shares), its device copies
 * with it. The session's statements then read and change the working
 * catalog (db_cat); every other session reads the committed one.
 *
 * Nothing reaches the data directory before COMMIT: a statement only
 * records the relations it changed or dropped (db_txn_touch, and the
 * views, comments and indexes files); COMMIT saves them from the working catalog
 * as one commit with a commit record (engine/storage_commit.c: all of it
 * or, after a crash before the record, none of it), then swaps the
 * working catalog in under the write lock, one COMMIT at a time
 * (commit_mu). Others may have committed since the work began (other
 * tables: the locks keep its own tables its own): COMMIT then carries
 * what the work changed since its base onto the committed catalog of now
 * (attu_catalog_rebase) and saves and publishes that. ROLLBACK frees the
 * working catalog, which frees the versions only it held.
 *
 * A statement outside a block is a transaction of its own (committed when
 * it succeeds, rolled back when it fails, by database.c); a query string
 * of several statements outside BEGIN is one implicit transaction, and so
 * is what the extended protocol runs up to a Sync.
 *
 * Sequences are not transactional for their values (nextval is never
 * given back, as in PostgreSQL), but CREATE / DROP / ALTER SEQUENCE (and
 * the sequences of serial and identity columns) are: ROLLBACK puts the
 * definitions of the snapshot taken at the transaction's start back,
 * keeping each surviving sequence's counter (db_sequences_txn_undo).
 *
 * SAVEPOINT keeps a copy of the working catalog (tables shared again), of
 * the sequences and of the settings (db_settings.c); ROLLBACK TO puts them
 * back.
 *
 * Snapshots. A READ COMMITTED transaction reads the committed catalog
 * afresh at each statement; once it has a working catalog, each statement
 * first carries that onto what others committed meanwhile
 * (db_txn_refresh). A REPEATABLE READ or SERIALIZABLE one keeps,
 * from its first query on (db_txn_snapshot, as PostgreSQL's first
 * snapshot), a clone of the committed catalog as it was then
 * (attu_session.snap, holding those table versions) and reads that until
 * it writes. Its working catalog then starts from the snapshot, not from
 * the committed catalog, which other transactions may have changed
 * meanwhile. Writing a table that another
 * transaction committed a change to since the snapshot is 40001
 * (db_txn_check_write, for a statement's named tables; COMMIT checks
 * every relation), and COMMIT publishes the committed catalog with the
 * transaction's changes carried over (attu_catalog_rebase), not the
 * working catalog itself. The snapshot goes at
 * the transaction's end (COMMIT, ROLLBACK; ROLLBACK TO keeps it).
 */
#include "db/db_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db/db_unique.h"
#include "engine/storage.h"

typedef struct db_savepoint {
    char             name[ATTU_NAME_MAX + 1];
    attu_catalog    *cat;    /* the working catalog then; NULL: none yet */
    attu_catalog    *base;   /* and what it started from (db_txn.base) */
    uint64_t         base_commits;
    attu_catalog    *temp;   /* the temporary tables' working catalog then (db_temp.c) */
    db_seq_snapshot *seqs;   /* the sequences then (with cat) */
    db_settings_mark *settings;   /* the settings then */
    db_defer_mark    *defer;      /* the deferred checks and SET CONSTRAINTS' modes then (db_defer.c) */
    size_t           notifies, listens;   /* NOTIFYs and LISTEN / UNLISTENs queued then (db_notify.c) */
} db_savepoint;

struct db_txn {
    char           **dirty;   /* relations to save (or, gone, drop) at COMMIT */
    int              ndirty, capdirty;
    bool             views_dirty, comments_dirty, indexes_dirty;
    db_seq_snapshot *seqs;    /* the sequences when the work began */
    /* what the working catalog started from (the snapshot, or the
     * committed catalog then) and db->commits then: COMMIT carries what
     * the work changed since base onto the committed catalog */
    attu_catalog    *base;
    uint64_t         base_commits;
    db_savepoint    *sp;
    int              nsp, capsp;
};

static db_txn *txn_state(attu_session *s) {
    if (!s->tx) s->tx = calloc(1, sizeof *s->tx);
    return s->tx;
}

static void savepoint_free(db_savepoint *p) {
    attu_catalog_free(p->cat);
    attu_catalog_free(p->base);
    p->base = NULL;
    attu_catalog_free(p->temp);
    p->temp = NULL;
    db_seq_snapshot_free(p->seqs);
    db_settings_mark_free(p->settings);
    db_defer_mark_free(p->defer);
    p->defer = NULL;
    p->cat = NULL;
    p->seqs = NULL;
    p->settings = NULL;
}

static void snapshot_free(attu_session *s) {
    attu_catalog_free(s->snap);   /* (frees the versions only it held) */
    s->snap = NULL;
}

static void txn_state_free(attu_session *s) {
    snapshot_free(s);
    db_txn *t = s->tx;
    if (!t) return;
    for (int i = 0; i < t->ndirty; i++) free(t->dirty[i]);
    free(t->dirty);
    db_seq_snapshot_free(t->seqs);
    attu_catalog_free(t->base);
    for (int i = 0; i < t->nsp; i++) savepoint_free(&t->sp[i]);
    free(t->sp);
    free(t);
    s->tx = NULL;
}

/* ---- the working catalog and the locks ---------------------------------------------------- */

void db_txn_init(attu_db *db) {
    db_lock_init(db);
    pthread_mutex_init(&db->commit_mu, NULL);
}

void db_txn_destroy(attu_db *db) {
    db_lock_destroy(db);
    pthread_mutex_destroy(&db->commit_mu);
}

void attu_db_set_wait_hooks(attu_db *db, void (*begin)(void *ctx), void (*end)(void *ctx), void *ctx) {
    pthread_mutex_lock(&db->txn_mu);
    db->wait_begin = begin && end ? begin : NULL;
    db->wait_end = begin && end ? end : NULL;
    db->wait_ctx = ctx;
    pthread_mutex_unlock(&db->txn_mu);
}

/* The transaction's working catalog, from its snapshot (REPEATABLE READ)
 * or the committed catalog as it is now; base keeps what it started from,
 * which COMMIT (and READ COMMITTED's next statement) carries the changes
 * from onto the committed catalog of then. The database's lock is held
 * (shared at least), so no DDL commits meanwhile. */
static int begin_work(attu_session *s, attu_error *err) {
    if (s->work) return 0;
    db_txn *t = txn_state(s);
    if (!t) return attu_error_oom(err);
    if (!t->seqs && !(t->seqs = db_sequences_snapshot(s, err))) return -1;
    pthread_rwlock_rdlock(&s->db->lock);
    t->base = attu_catalog_clone(s->snap ? s->snap : s->db->cat);
    t->base_commits = s->snap ? s->snap_commits : s->db->commits;
    pthread_rwlock_unlock(&s->db->lock);
    if (!t->base || !(s->work = attu_catalog_clone(t->base)) || db_temp_txn_begin(s)) {
        attu_catalog_free(s->work);
        s->work = NULL;
        attu_catalog_free(t->base);
        t->base = NULL;
        db_seq_snapshot_free(t->seqs);
        t->seqs = NULL;
        return attu_error_oom(err);
    }
    return 0;
}

/* READ COMMITTED: each statement sees what others committed before it
 * began, its own changes carried onto that (the tables it changed are
 * locked: no one else changed them). */
int db_txn_refresh(attu_session *s, attu_error *err) {
    db_txn *t = s->tx;
    if (!s->work || !t || !t->base || s->snap) return 0;
    pthread_rwlock_rdlock(&s->db->lock);
    attu_catalog *merged = NULL, *base = NULL;
    uint64_t commits = s->db->commits;
    if (commits != t->base_commits) {
        merged = attu_catalog_rebase(t->base, s->work, s->db->cat, err);
        base = merged ? attu_catalog_clone(s->db->cat) : NULL;
    }
    pthread_rwlock_unlock(&s->db->lock);
    if (commits == t->base_commits) return 0;
    if (!merged) return -1;
    if (!base) { attu_catalog_free(merged); return attu_error_oom(err); }
    attu_catalog_free(s->work);
    attu_catalog_free(t->base);
    s->work = merged;
    t->base = base;
    t->base_commits = commits;
    return 0;
}

/* The database's exclusive lock, as DDL takes it: the sequences file
 * keeps the committed definitions until COMMIT. */
static int lock_database(attu_session *s, attu_error *err) {
    bool had = db_lock_holds_exclusive(s);
    if (db_lock_exclusive(s, true, err) || begin_work(s, err)) return -1;
    if (!had) db_sequences_set_base(s->db, s->tx->seqs, NULL);
    return 0;
}

/* (temporary tables' serial sequences at the session's end, DISCARD
 * TEMP: sequence changes, the whole database's as DDL's) */
int db_txn_begin_write(attu_session *s, attu_error *err) { return lock_database(s, err); }

int db_txn_lock_stmt(attu_session *s, const attu_ast_stmt *st, attu_error *err) {
    char (*mine)[ATTU_NAME_MAX + 1] = malloc(sizeof *mine * 256);   /* (too big for a worker's stack) */
    if (!mine) return attu_error_oom(err);
    int n = db_lock_stmt_tables(s, st, mine, 256);
    int rc = 0;
    if (n < 0) rc = lock_database(s, err);   /* DDL: every other writer gone */
    else {
        rc = db_lock_shared(s, true, err);
        for (int i = 0; !rc && i < n; i++) rc = db_lock_table(s, mine[i], 3, false, err);
        if (!rc) rc = begin_work(s, err);
    }
    free(mine);
    if (!rc) rc = db_txn_refresh(s, err);
    if (!rc) s->stmt_locked = true;
    return rc;
}

int db_txn_lock_tables(attu_session *s, char (*names)[ATTU_NAME_MAX + 1], int n, int mode, bool nowait,
                       attu_error *err) {
    int rc = db_lock_shared(s, true, err);
    for (int i = 0; !rc && i < n; i++) rc = db_lock_table(s, names[i], mode, nowait, err);
    if (!rc) rc = begin_work(s, err);
    if (!rc) rc = db_txn_refresh(s, err);
    return rc;
}

void db_txn_failed(attu_session *s) {
    if (s->txn != 'T') return;
    s->txn = 'E';
    /* nothing it did can commit now: with no savepoint to go back to,
     * the others it blocks go on (its work stays until ROLLBACK) */
    if (!db_txn_savepoints(s)) db_lock_release_all(s);
}

void db_write_lock(attu_session *s) {
    attu_error e;
    attu_error_clear(&e);
    /* (normally taken already by db_txn_lock_stmt for a statement that
     * writes; one that took no locks writes holding the whole database;
     * should a clone fail for memory, the statement writes the committed
     * catalog itself, as before transactions) */
    if (!s->stmt_locked) {
        bool had = db_lock_holds_exclusive(s);
        db_lock_exclusive(s, false, &e);
        s->stmt_locked = true;
        if (!begin_work(s, &e) && !had) db_sequences_set_base(s->db, s->tx->seqs, NULL);
        db_txn_refresh(s, &e);
        attu_error_clear(&e);
    }
    if (!s->work) begin_work(s, &e);
    /* The working catalog is the session's alone, and its locks keep
     * every other writer off its tables: the read lock is enough, so
     * other sessions' queries of the committed catalog run on while the
     * statement does. (What it frees is a version only the working
     * catalog held, which no other session can be reading; COMMIT's swap
     * takes the write lock.) */
    if (s->work) pthread_rwlock_rdlock(&s->db->lock);
    else {
        db_lock_exclusive(s, false, &e);
        pthread_rwlock_wrlock(&s->db->lock);
    }
}

/* ---- durability: what COMMIT saves -------------------------------------------------------- */

int db_txn_touch(attu_session *s, const char *name, attu_error *err) {
    if (!s->db->data_dir) return 0;
    if (db_temp_has(s, name)) return 0;   /* (temporary tables are never saved: db_temp.c) */
    db_txn *t = txn_state(s);
    if (!t) return attu_error_oom(err);
    for (int i = 0; i < t->ndirty; i++) if (!strcmp(t->dirty[i], name)) return 0;
    if (t->ndirty == t->capdirty) {
        int nc = t->capdirty ? t->capdirty * 2 : 8;
        char **n = realloc(t->dirty, sizeof *n * (size_t)nc);
        if (!n) return attu_error_oom(err);
        t->dirty = n;
        t->capdirty = nc;
    }
    if (!(t->dirty[t->ndirty] = strdup(name))) return attu_error_oom(err);
    t->ndirty++;
    return 0;
}

int db_txn_touch_views(attu_session *s, attu_error *err) {
    if (!s->db->data_dir) return 0;
    db_txn *t = txn_state(s);
    if (!t) return attu_error_oom(err);
    t->views_dirty = true;
    return 0;
}

int db_txn_touch_comments(attu_session *s, attu_error *err) {
    if (!s->db->data_dir) return 0;
    db_txn *t = txn_state(s);
    if (!t) return attu_error_oom(err);
    t->comments_dirty = true;
    return 0;
}

int db_txn_touch_indexes(attu_session *s, attu_error *err) {
    if (!s->db->data_dir) return 0;
    db_txn *t = txn_state(s);
    if (!t) return attu_error_oom(err);
    t->indexes_dirty = true;
    return 0;
}

int db_save_table(attu_session *s, const attu_table *t, attu_error *err) { return db_txn_touch(s, t->name, err); }

/* Stages table t of cat with the DEFAULTs and constraints cat holds for it. */
static int stage_table(attu_storage_commit *c, const attu_catalog *cat, const attu_table *t, attu_error *err) {
    const char **defaults = calloc((size_t)t->ncols + 1, sizeof *defaults);
    if (!defaults) return attu_error_oom(err);
    for (int i = 0; i < t->ncols; i++) defaults[i] = attu_catalog_default(cat, t->name, i);
    int nu = 0, nc = 0, nf = 0;
    const attu_unique *u = attu_catalog_uniques(cat, t->name, &nu);
    const attu_check *ck = attu_catalog_checks(cat, t->name, &nc);
    const attu_fkey *f = attu_catalog_fkeys(cat, t->name, &nf);
    int rc = attu_storage_commit_table(c, t, defaults, u, nu, ck, nc, f, nf, err);
    free(defaults);
    return rc;
}

/* Saves what the transaction changed, as one commit (engine/storage.h,
 * attu_storage_commit): every changed relation that cat holds is staged,
 * those it no longer holds are to be dropped, then the views, comments
 * and indexes files; the commit record then makes all of it current at once (a crash
 * before it leaves every relation as it was, after it the next start
 * finishes it). */
static int save_changes(attu_session *s, const attu_catalog *cat, attu_error *err) {
    db_txn *t = s->tx;
    if (!t || !s->db->data_dir) return 0;
    attu_storage_commit *c = attu_storage_commit_new(s->db->data_dir);
    if (!c) return attu_error_oom(err);
    int rc = 0;
    for (int i = 0; !rc && i < t->ndirty; i++) {
        const attu_table *tb = attu_catalog_lookup(cat, t->dirty[i]);
        if (tb && !tb->unavailable) rc = stage_table(c, cat, tb, err);
    }
    bool dropped = false;
    for (int i = 0; !rc && i < t->ndirty; i++)
        if (!attu_catalog_lookup(cat, t->dirty[i])) {
            rc = attu_storage_commit_drop(c, t->dirty[i], err);
            dropped = true;
        }
    if (!rc && t->views_dirty) rc = attu_storage_commit_views(c, attu_catalog_views(cat), err);
    if (!rc && t->comments_dirty) rc = attu_storage_commit_comments(c, attu_catalog_comments(cat), err);
    /* (a dropped table's indexes leave the file with it, whichever
     * statement dropped it: a later table of its name must not find them) */
    if (!rc && (t->indexes_dirty || dropped)) rc = attu_storage_commit_indexes(c, cat, err);
    /* the sequences last: their lock is held from their staging until the
     * record is applied, so no number drawn meanwhile is lost */
    if (!rc) {
        rc = db_sequences_commit_stage(s->db, c, err);
        if (!rc) rc = attu_storage_commit_apply(c, err);
        db_sequences_commit_end(s->db, !rc);
    }
    attu_storage_commit_free(c);
    return rc;
}

/* ---- the end of a transaction ----------------------------------------------------------- */

bool db_txn_active(const attu_session *s) {
    return s->work || s->tx || s->snap || db_defer_pending(s) || db_notify_txn_pending(s);
}

void db_txn_rollback(attu_session *s) {
    db_defer_free(s);
    db_notify_txn_end(s, false);   /* (its LISTENs and NOTIFYs are dropped) */
    db_temp_txn_rollback(s);
    if (s->work) {
        /* the key sets that followed the work's writes go back to the
         * versions restored (else those would scan, or rebuild, their
         * sets for the next lookups by key) */
        if (s->tx) db_unique_rollback_catalog(s->work, s->tx->base);
        attu_catalog_free(s->work);   /* (frees the versions only it held) */
        s->work = NULL;
    }
    if (s->tx && s->tx->seqs) {
        attu_error e;
        attu_error_clear(&e);
        db_sequences_txn_undo(s, s->tx->seqs, &e);
        db_sequences_set_base(s->db, NULL, NULL);
    }
    txn_state_free(s);
    db_lock_release_all(s);
    s->stmt_locked = false;
}

int db_txn_commit(attu_session *s, attu_error *err) {
    /* the deferred checks first, as PostgreSQL fires its deferred
     * triggers before anything else of COMMIT: one failing ends it all */
    if (db_defer_commit(s, err)) {
        db_txn_rollback(s);
        return -1;
    }
    if (!s->work && !s->tx) {
        snapshot_free(s);
        db_lock_release_all(s);
        s->stmt_locked = false;
        db_notify_txn_end(s, true);
        return 0;
    }
    db_temp_txn_precommit(s);   /* (ON COMMIT DELETE ROWS / DROP) */
    /* one COMMIT at a time: the committed catalog stands still from the
     * rebase to the swap */
    pthread_mutex_lock(&s->db->commit_mu);
    /* others committed since the work began: its changes carried over to
     * the committed catalog (its tables' locks kept those tables theirs:
     * a table changed on both sides is 40001, REPEATABLE READ's) */
    if (s->work && s->tx && s->tx->base && s->tx->base_commits != s->db->commits) {
        attu_catalog *merged = attu_catalog_rebase(s->tx->base, s->work, s->db->cat, err);
        if (!merged) {
            pthread_mutex_unlock(&s->db->commit_mu);
            db_txn_rollback(s);
            return -1;
        }
        attu_catalog_free(s->work);
        s->work = merged;
    }
    const attu_catalog *cat = s->work ? s->work : s->db->cat;
    if (save_changes(s, cat, err)) {
        pthread_mutex_unlock(&s->db->commit_mu);
        db_txn_rollback(s);
        return -1;
    }
    /* the sequences file keeps the sequences as they are from now on */
    db_sequences_set_base(s->db, NULL, NULL);
    db_temp_txn_commit(s);
    if (s->work) {
        /* (the key sets' undo logs of what it changed go: nothing rolls
         * back past this point) */
        db_unique_forget_changed(s->work, s->tx ? s->tx->base : NULL);
        pthread_rwlock_wrlock(&s->db->lock);
        attu_catalog *old = s->db->cat;
        s->db->cat = s->work;
        s->work = NULL;
        s->db->commits++;
        pthread_rwlock_unlock(&s->db->lock);
        /* no reader can hold old now: those that read it finished before
         * the write lock came, later ones read the new one */
        attu_catalog_free(old);
    }
    pthread_mutex_unlock(&s->db->commit_mu);
    txn_state_free(s);
    db_lock_release_all(s);
    s->stmt_locked = false;
    /* committed: its LISTENs take effect, its notifications go out */
    db_notify_txn_end(s, true);
    return 0;
}

/* ---- savepoints --------------------------------------------------------------------------- */

int db_txn_savepoints(const attu_session *s) { return s->tx ? s->tx->nsp : 0; }

static int find_savepoint(attu_session *s, const char *name, attu_error *err) {
    for (int i = s->tx ? s->tx->nsp - 1 : -1; i >= 0; i--)
        if (!strcmp(s->tx->sp[i].name, name)) return i;
    return attu_error_set(err, "3B001", 0, "savepoint \"%s\" does not exist", name);
}

int db_txn_savepoint(attu_session *s, const char *name, attu_error *err) {
    db_txn *t = txn_state(s);
    if (!t) return attu_error_oom(err);
    if (t->nsp == t->capsp) {
        int nc = t->capsp ? t->capsp * 2 : 4;
        db_savepoint *n = realloc(t->sp, sizeof *n * (size_t)nc);
        if (!n) return attu_error_oom(err);
        t->sp = n;
        t->capsp = nc;
    }
    db_savepoint *p = &t->sp[t->nsp];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    db_notify_mark(s, &p->notifies, &p->listens);
    if (!(p->settings = db_settings_mark_take(s, err))) return -1;
    if (!(p->defer = db_defer_mark_take(s, err))) { savepoint_free(p); return -1; }
    if (s->work) {
        if (!(p->cat = attu_catalog_clone(s->work))) { savepoint_free(p); return attu_error_oom(err); }
        if (t->base && !(p->base = attu_catalog_clone(t->base))) { savepoint_free(p); return attu_error_oom(err); }
        p->base_commits = t->base_commits;
        if (s->temp && !(p->temp = db_temp_savepoint_take(s))) { savepoint_free(p); return attu_error_oom(err); }
        if (!(p->seqs = db_sequences_snapshot(s, err))) { savepoint_free(p); return -1; }
    }
    t->nsp++;
    return 0;
}

int db_txn_release(attu_session *s, const char *name, attu_error *err) {
    int i = find_savepoint(s, name, err);
    if (i < 0) return -1;
    for (int k = i; k < s->tx->nsp; k++) savepoint_free(&s->tx->sp[k]);
    s->tx->nsp = i;
    return 0;
}

int db_txn_rollback_to(attu_session *s, const char *name, attu_error *err) {
    int i = find_savepoint(s, name, err);
    if (i < 0) return -1;
    db_txn *t = s->tx;
    for (int k = i + 1; k < t->nsp; k++) savepoint_free(&t->sp[k]);
    t->nsp = i + 1;
    db_savepoint *p = &t->sp[i];
    db_notify_rollback_to(s, p->notifies, p->listens);
    if (p->settings) db_settings_mark_rollback(s, p->settings);
    if (p->defer) db_defer_mark_rollback(s, p->defer);
    if (p->cat) {
        /* (the savepoint keeps its copy: ROLLBACK TO it may come again) */
        attu_catalog *c = attu_catalog_clone(p->cat);
        attu_catalog *b = p->base ? attu_catalog_clone(p->base) : NULL;
        if (!c || (p->base && !b)) { attu_catalog_free(c); attu_catalog_free(b); return attu_error_oom(err); }
        if (db_temp_savepoint_restore(s, p->temp)) { attu_catalog_free(c); attu_catalog_free(b); return attu_error_oom(err); }
        db_unique_rollback_catalog(s->work, c);   /* (as db_txn_rollback) */
        attu_catalog_free(s->work);
        s->work = c;
        /* (what the work then started from: the next statement, or
         * COMMIT, carries it onto what others committed since) */
        attu_catalog_free(t->base);
        t->base = b;
        t->base_commits = p->base_commits;
        db_sequences_txn_undo(s, p->seqs, err);
        attu_error_clear(err);
    } else if (s->work) {
        /* nothing was written when it was taken: the work goes, and the
         * locks with it (what to save goes too: nothing changed) */
        db_temp_txn_rollback(s);
        db_unique_rollback_catalog(s->work, t->base);
        attu_catalog_free(s->work);
        s->work = NULL;
        if (t->seqs) {
            db_sequences_txn_undo(s, t->seqs, err);
            db_sequences_set_base(s->db, NULL, NULL);
            attu_error_clear(err);
            db_seq_snapshot_free(t->seqs);
            t->seqs = NULL;
        }
        for (int k = 0; k < t->ndirty; k++) free(t->dirty[k]);
        t->ndirty = 0;
        t->views_dirty = t->comments_dirty = t->indexes_dirty = false;
        attu_catalog_free(t->base);   /* (the snapshot stays, as PostgreSQL's) */
        t->base = NULL;
        db_lock_release_all(s);
    }
    return 0;
}

/* ---- snapshots ---------------------------------------------------------------------------- */

int db_txn_snapshot(attu_session *s, attu_error *err) {
    /* (a transaction that writes has its working catalog already) */
    if (s->snap || s->work || db_isolation(s) == 'c') return 0;
    pthread_rwlock_rdlock(&s->db->lock);
    s->snap = attu_catalog_clone(s->db->cat);
    s->snap_commits = s->db->commits;
    pthread_rwlock_unlock(&s->db->lock);
    return s->snap ? 0 : attu_error_oom(err);
}

/* The tables st writes by name (its view's table and a foreign key's
 * cascades are COMMIT's to check): n of them into names. */
static int written_tables(const attu_ast_stmt *st, const char **names, int cap) {
    int n = 0;
    switch (st->kind) {
    case ATTU_STMT_INSERT: names[n++] = st->u.insert.table; break;
    case ATTU_STMT_UPDATE: case ATTU_STMT_DELETE: case ATTU_STMT_MERGE: names[n++] = st->u.modify.table; break;
    case ATTU_STMT_COPY: if (st->u.copy.is_from && st->u.copy.table) names[n++] = st->u.copy.table; break;
    case ATTU_STMT_ALTER_TABLE: names[n++] = st->u.alter_table.table; break;
    case ATTU_STMT_TRUNCATE:
        for (int i = 0; i < st->u.truncate.tables.n && n < cap; i++) names[n++] = st->u.truncate.tables.items[i];
        break;
    case ATTU_STMT_DROP_TABLE:
        for (int i = 0; i < st->u.drop_table.tables.n && n < cap; i++) names[n++] = st->u.drop_table.tables.items[i];
        break;
    default: break;
    }
    return n;
}

int db_txn_check_write(attu_session *s, const attu_ast_stmt *st, attu_error *err) {
    if (!s->snap || !s->tx) return 0;
    pthread_rwlock_rdlock(&s->db->lock);
    bool behind = s->snap_commits != s->db->commits;
    pthread_rwlock_unlock(&s->db->lock);
    if (!behind) return 0;   /* nothing committed since the snapshot */
    if (st->kind == ATTU_STMT_EXPLAIN) st = st->u.explain.stmt;
    /* a table it names that another transaction changed since: PostgreSQL
     * tells the rows, attu the table (its versions are whole tables: the
     * two changes could not both be kept) */
    const char *names[64];
    int n = written_tables(st, names, 64), temps = 0;
    bool changed = false;
    pthread_rwlock_rdlock(&s->db->lock);   /* (commits swap the committed catalog) */
    for (int i = 0; i < n && !changed; i++) {
        if (names[i] && db_temp_has(s, names[i])) { temps++; continue; }   /* (its own) */
        changed = names[i] && !attu_catalog_same_relation(s->snap, s->db->cat, names[i]);
    }
    pthread_rwlock_unlock(&s->db->lock);
    if (changed) return attu_error_set(err, "40001", 0, "could not serialize access due to concurrent update");
    /* SERIALIZABLE: a transaction that writes after another committed
     * since its snapshot could rely on reads that a serial order would not
     * give it (it commits after that one without having seen it):
     * PostgreSQL's SSI finds such cycles row by row, attu refuses them all
     * (its temporary tables are no one else's) */
    if (db_isolation(s) == 's' && (n == 0 || temps < n))
        return attu_error_set(err, "40001", 0, "could not serialize access due to read/write dependencies among transactions");
    return 0;
}
