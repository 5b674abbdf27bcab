/*
 * db_internal.h - what the db/ files share: the database and session
 * structs and the statement executors of each family.
 */
#ifndef ATTU_DB_INTERNAL_H
#define ATTU_DB_INTERNAL_H

#include <pthread.h>

#include "db/database.h"
#include "engine/backend.h"
#include "engine/catalog.h"
#include "engine/datestyle.h"
#include "engine/executor.h"
#include "engine/random.h"
#include "planner/binder.h"
#include "planner/parser.h"
#include "engine/stage_plan.h"

typedef struct db_sequences db_sequences;
typedef struct db_seq_session db_seq_session;
typedef struct db_txn db_txn;
typedef struct db_temp db_temp;
typedef struct db_cursor db_cursor;
typedef struct db_defer db_defer;
typedef struct db_defer_mark db_defer_mark;

struct attu_db {
    attu_catalog    *cat;              /* the committed catalog (db_txn.c) */
    db_sequences    *seqs;             /* CREATE SEQUENCE's (db_sequence.c) */
    pthread_rwlock_t lock;
    attu_backend    *be;
    char            *data_dir;
    char            *load_dir;
    /* The write locks (db_lock.c), under txn_mu; waiters wait on txn_cv.
     * lockers: the sessions whose transactions write (each holds the
     * database shared); excl: the one holding it exclusive (DDL), NULL
     * when none; held: each table's write lock and its holder. */
    pthread_mutex_t  txn_mu;
    pthread_cond_t   txn_cv;
    attu_session   **lockers;
    int              nlockers, caplockers;
    attu_session    *excl;
    struct db_lock_held *held;
    int              nheld, capheld;
    int              lock_ids;         /* the last attu_session.lock_id given */
    int              xwaiting;         /* sessions waiting for excl (new writers queue behind them) */
    attu_session    *wait_head, *wait_tail;   /* every waiting session, first come first (lock queue) */
    /* COMMITs one at a time (db_txn.c): each carries its changes onto the
     * committed catalog as it is then, saves them and swaps it in. */
    pthread_mutex_t  commit_mu;
    void           (*wait_begin)(void *ctx);   /* attu_db_set_wait_hooks */
    void           (*wait_end)(void *ctx);
    void            *wait_ctx;
    /* The writing transaction's snapshot of the sequences: what the
     * sequences file keeps of their definitions until it commits
     * (db_sequence.c; under the sequences' lock). NULL: none. */
    const struct db_seq_snapshot *seq_base;
    /* COMMITs that changed the committed catalog so far (db_txn.c): a
     * snapshot taken at n sees every commit up to n. Changed by the
     * committer (commit_mu) under the write lock. */
    uint64_t         commits;
    /* Every session (db_activity.c): pg_stat_activity's rows, the
     * listeners NOTIFY reaches (db_notify.c). act_cv: a session left
     * (pg_terminate_backend's wait). */
    pthread_mutex_t  act_mu;
    pthread_cond_t   act_cv;
    attu_session    *sessions;
    uint32_t         next_pid;
    /* txid_current(): the last transaction id given (db_xact_id.c;
     * atomic), counted from the microseconds of the first one's time so
     * that ids keep growing across restarts */
    uint64_t         last_xid;
    void           (*signal)(void *ctx, uint32_t pid, attu_backend_signal sig);   /* attu_db_set_signal_hook */
    void            *signal_ctx;
    /* Advisory locks (db_advisory.c): every holder's entry, under adv_mu;
     * waiters wait on adv_cv. */
    pthread_mutex_t  adv_mu;
    pthread_cond_t   adv_cv;
    struct db_advisory *adv;
    int              nadv, capadv;
};

typedef struct db_setting { char *name; char *value; } db_setting;

/* A setting changed inside a transaction block (db_settings.c): its value
 * before the block (restored at ROLLBACK) and the value a COMMIT keeps
 * (SET changes it, SET LOCAL does not); NULL: not set (the default). */
typedef struct db_setting_undo { char *name; char *before; char *keep; } db_setting_undo;

struct attu_session {
    attu_db         *db;
    char             user[64];         /* who connected, as the system catalogs show it ("" : attu) */
    char             database[64];
    volatile int     cancel;
    char             txn;
    bool             implicit_block;   /* running a multi-statement query string outside BEGIN */
    bool             login_not_super;  /* the connected user is a created role without SUPERUSER (is_superuser's reset value) */
    int              statement_timeout_ms;
    int64_t          max_recursive_rows;   /* attu.max_recursive_rows: 0 = the default, < 0 = none */
    double           stmt_start_ms;
    const struct attu_tz *timezone;    /* the TimeZone setting's zone (engine/timezone.h) */
    attu_datestyle datestyle;          /* the DateStyle setting (engine/datestyle.h) */
    int64_t          txn_start_us;     /* when the transaction began: now() */
    attu_random_state rng;             /* random()'s generator, which setseed restarts (engine/random.h) */
    bool             snapshot_taken;   /* a query ran in this transaction: its isolation level is fixed */
    db_setting      *settings;         /* what SET changed (names in lower case) */
    int              nsettings;
    db_setting      *client;           /* what the startup packet set: RESET's values */
    int              nclient;
    db_setting_undo *undo;             /* settings changed in the current block */
    int              nundo;
    /* Named prepared statements: the one namespace of SQL PREPARE and the
     * extended protocol's Parse (db_prepared_names.c). Each entry holds a
     * reference. */
    struct db_named_prepared *prepared;
    int              nprepared, capprepared;
    int              execute_depth;    /* EXECUTEs running inside each other */
    db_seq_session  *seq;              /* currval / lastval (db_sequence.c); NULL: none yet */
    /* The transaction (db_txn.c): its working catalog once it writes
     * (NULL: it reads the committed one), and what COMMIT saves, its
     * savepoints, the sequences as they were (NULL: none of those). */
    attu_catalog    *work;
    db_txn          *tx;
    /* A REPEATABLE READ or SERIALIZABLE transaction's snapshot (db_txn.c):
     * the committed catalog as its first query found it (NULL: none, the
     * transaction reads the committed one), and db->commits then. */
    attu_catalog    *snap;
    uint64_t         snap_commits;
    bool             ext_implicit;     /* an extended-protocol implicit transaction runs until Sync */
    /* Temporary tables (db_temp.c): the session's own catalog of them and
     * the layered catalog db_cat answers once there is one (NULL: none). */
    db_temp         *temp;
    attu_catalog    *temp_layer;
    db_cursor       *cursors;          /* open SQL cursors, newest first (db_cursor.c) */
    db_defer        *defer;            /* SET CONSTRAINTS' modes and the deferred checks (db_defer.c); NULL: none */
    uint64_t         blocks_ended;     /* COMMITs and ROLLBACKs so far (attu_session_blocks_ended) */
    /* pg_stat_activity (db_activity.c): the fields others read are under
     * db->act_mu; the session writes them there too. */
    attu_session    *act_prev, *act_next;
    uint32_t         pid;
    uint64_t         xid;              /* txid_current()'s id for the open transaction; 0: none given */
    char             client_addr[64];  /* "" : none */
    int              client_port;
    int64_t          backend_start_us, xact_start_us, query_start_us, state_change_us;
    const char      *state;            /* "active", "idle", ... */
    char            *query;            /* the current or last query text */
    char             app_name[64];
    /* WARNINGs a statement's binding raised (pg_cancel_backend of an
     * unknown pid): reported before its result (db_flush_warnings) */
    char             warnings[4][160];
    int              nwarnings;
    bool             terminate_self;   /* pg_terminate_backend(pg_backend_pid()) ran */
    /* LISTEN / NOTIFY (db_notify.c): the channels listened on (others'
     * commits read them: under act_mu), what the open transaction will do
     * at COMMIT, and the notifications waiting for delivery (act_mu) */
    char           **listen;
    int              nlisten;
    struct db_listen_action *listen_pending;
    struct db_notify_pending *notify_pending;
    attu_notification *inbox, *inbox_tail;
    size_t           ninbox;
    /* The write locks (db_lock.c): what it waits for now ('s' the
     * database shared, 'x' exclusive, 't' the table lock_wait_name; 0:
     * nothing; stored atomically: pg_stat_activity reads it), its number
     * in 40P01's DETAIL (0: none yet), lock_timeout in ms (0: none), and
     * whether the statement running took its locks (db_txn_lock_stmt;
     * else db_write_lock takes the database's). */
    char             lock_wait;
    const char      *lock_wait_name;
    int              lock_wait_mode;   /* the mode awaited (pg_locks: PostgreSQL's number, 3 a write) */
    attu_session    *wait_prev, *wait_next;   /* on db->wait_head's queue while it waits */
    int              lock_id;
    int              lock_timeout_ms;
    bool             stmt_locked;
    /* A statement with data-modifying WITH queries running
     * (db_with_modify.c; NULL: none), and the columns of the last one
     * described (kept for the binder until the next) */
    struct db_with_state *wmod;
    /* Every foreign key's checks wait for the end of the statement (one
     * with data-modifying WITH queries, as PostgreSQL's RI triggers fire
     * after the whole query): db_defer.c queues them, db_with_modify.c
     * runs them. */
    bool             fk_at_statement_end;
    struct { attu_result_column *cols; char **names; attu_type *types; } with_described;
};

/* The catalog the session sees: its transaction's working catalog, or
 * its snapshot, or the committed one. */
static inline attu_catalog *db_cat(const attu_session *s) {
    if (s->temp_layer) return s->temp_layer;   /* (its temporary tables first: db_temp.c) */
    return s->work ? s->work : s->snap ? s->snap : s->db->cat;
}

/* Deferred constraint checks (db_defer.c). is_deferred: whether f's
 * checks wait now (DEFERRABLE, and INITIALLY DEFERRED or SET CONSTRAINTS
 * ... DEFERRED); queue: rows rows[0..n) of t wait for f's check ('c':
 * t's new or changed referencing rows; 'p': t's referenced keys that
 * went, NO ACTION); commit: every waiting check (COMMIT, first: 23503
 * fails it), then the state goes; free: the state goes (ROLLBACK);
 * pending: whether there is state (SET CONSTRAINTS or a queued check);
 * in_use: 55006 while checks wait on table (ALTER TABLE, DROP TABLE,
 * TRUNCATE: what). The marks keep a savepoint's queue length and modes. */
bool db_defer_is_deferred(const attu_session *s, const attu_fkey *f);
int db_defer_queue(attu_session *s, char kind, const attu_fkey *f, const attu_table *t, const size_t *rows, size_t n,
                   attu_error *err);
int db_defer_commit(attu_session *s, attu_error *err);
/* The waiting checks whose constraint is no longer deferred (the end of
 * a statement with data-modifying WITH queries: db_with_modify.c). */
int db_defer_fire_due(attu_session *s, attu_error *err);
/* The same for a DEFERRABLE PRIMARY KEY / UNIQUE u (by its name): its
 * rows rows[0..n) of t, whose keys were duplicated when written, wait for
 * their recheck (db_unique_defer.c). */
bool db_defer_unique_is_deferred(const attu_session *s, const attu_unique *u);
/* A rename while checks wait: what 't' a table (the events on its rows),
 * 'k' a constraint (a unique constraint's events and SET CONSTRAINTS
 * mode, which know it by name). */
void db_defer_renamed(attu_session *s, char what, const char *from, const char *to);
int db_defer_queue_unique(attu_session *s, const attu_unique *u, const attu_table *t, const size_t *rows, size_t n,
                          attu_error *err);
void db_defer_free(attu_session *s);
bool db_defer_pending(const attu_session *s);
int db_defer_in_use(const attu_session *s, const char *table, const char *what, attu_error *err);
db_defer_mark *db_defer_mark_take(attu_session *s, attu_error *err);
void db_defer_mark_rollback(attu_session *s, const db_defer_mark *m);
void db_defer_mark_free(db_defer_mark *m);
int db_exec_set_constraints(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);

/* Temporary tables (db_temp.c). db_temp_stmt_wants: whether st runs
 * through db_temp_exec_stmt (the session has temporary tables or st makes
 * one), which runs it through db_exec_stmt. db_temp_has: whether name is
 * one of the session's temporary tables. The db_temp_txn_* hooks follow
 * db_txn.c's transaction (begin: -1 for memory; precommit: ON COMMIT's
 * actions; commit: the working copy kept); the savepoint hooks copy and
 * put back the temporary catalog (restore with NULL: as committed).
 * session_end frees them all (and drops their serial columns'
 * sequences); discard drops them all (DISCARD TEMP). */
bool db_temp_stmt_wants(const attu_session *s, const attu_ast_stmt *st);
int db_temp_exec_stmt(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                      const attu_exec_callbacks *cb, attu_error *err);
bool db_temp_has(const attu_session *s, const char *name);
/* CREATE VIEW's query reads a temporary relation (attu_bind_params'
 * reads_temp): the view made is temporary (db_temp.c). */
void db_temp_view_reads(attu_session *s, bool temp);
/* The temporary catalog's layer mode for st (ATTU_LAYER_*, from how it
 * names its relations: public.t, pg_temp.t); DB_TEMP_SPLIT for a list
 * whose names must be run a side at a time (db_temp_exec_stmt does). */
#define DB_TEMP_SPLIT (-2)
int db_temp_stmt_mode(attu_session *s, const attu_ast_stmt *st);
/* The parameters of the db layer's own queries about a statement's
 * relation (a CHECK's validation, a foreign key's probe, ...), whose bare
 * names follow the statement's public.t / pg_temp.t (binder.h,
 * bare_names_by_mode). */
extern const attu_bind_params db_own_query_params;
/* The schema to bind st's own relation under (public, pg_temp; NULL:
 * written bare), as the db layer found it (db_temp_stmt_mode). */
static inline char *db_rel_schema(const attu_ast_stmt *st) {
    return st->schema == ATTU_REL_PUBLIC ? "public" : st->schema == ATTU_REL_TEMP ? "pg_temp" : NULL;
}
/* Whether the statement running makes a temporary table (its serial
 * columns' sequences are temporary too). */
bool db_temp_creating(const attu_session *s);
/* Whether the sequences of table (OWNED BY) that s works on are its
 * temporary ones (db_sequence.c): s has a temporary table of that name or
 * its statement works on temporary tables. */
bool db_temp_scope(const attu_session *s, const char *table);
int db_temp_txn_begin(attu_session *s);
void db_temp_txn_precommit(attu_session *s);
void db_temp_txn_commit(attu_session *s);
void db_temp_txn_rollback(attu_session *s);
attu_catalog *db_temp_savepoint_take(attu_session *s);
int db_temp_savepoint_restore(attu_session *s, const attu_catalog *kept);
void db_temp_session_end(attu_session *s);
int db_temp_discard(attu_session *s, attu_error *err);

/* The write locks (db_lock.c). shared: the database, as a writing
 * transaction holds it (waits for DDL's); exclusive: all of it (waits for
 * every other writer); table: one table's write lock (holding the
 * database shared first); release_all: every lock the session holds.
 * Waits end with 57014 (cancel, statement_timeout), 55P03 (lock_timeout)
 * or 40P01 (a deadlock, found after deadlock_timeout) when interruptible. */
void db_lock_init(attu_db *db);
void db_lock_destroy(attu_db *db);
int db_lock_shared(attu_session *s, bool interruptible, attu_error *err);
int db_lock_exclusive(attu_session *s, bool interruptible, attu_error *err);
bool db_lock_holds_exclusive(attu_session *s);
/* (mode: PostgreSQL's lock mode number pg_locks shows, 3 ROW EXCLUSIVE
 * for a write; nowait: 55P03 rather than wait) */
int db_lock_table(attu_session *s, const char *name, int mode, bool nowait, attu_error *err);
/* pg_locks' rows: every table lock held or awaited (row called under the
 * lock manager's mutex) */
void db_lock_rows(void *ctx, void (*row)(void *rctx, const attu_lock_info *l), void *rctx);
/* pg_blocking_pids: row once per waiting session, with the pids of the
 * sessions it waits for (holders, and waiters queued ahead of it) */
void db_lock_blocking(void *ctx, void (*row)(void *rctx, uint32_t pid, const uint32_t *blockers, int n), void *rctx);
void db_lock_release_all(attu_session *s);
/* Whether a session other than s holds table name's write lock, or the
 * database's exclusive one, now (a hint: it may end at once) */
bool db_lock_table_held_by_other(attu_session *s, const char *name);
/* Transactions (db_txn.c). init / destroy: the locks. lock_stmt: the
 * locks a statement that writes takes before it runs (db_lock_stmt.c's
 * tables, or the database's for DDL), then the transaction's working
 * catalog. failed: a statement of the block failed (25P02 from now on;
 * with no savepoint to go back to, its locks go now, as PostgreSQL's
 * aborted transaction's do). */
int db_txn_lock_stmt(attu_session *s, const attu_ast_stmt *st, attu_error *err);
/* LOCK TABLE's: the tables' write locks (nowait: 55P03 rather than wait)
 * and the transaction's working catalog, as a statement that writes them. */
int db_txn_lock_tables(attu_session *s, char (*names)[ATTU_NAME_MAX + 1], int n, int mode, bool nowait,
                       attu_error *err);
int db_exec_lock_table(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
/* VACUUM / ANALYZE (db/db_maintenance.c) */
int db_exec_maintenance(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
/* READ COMMITTED with a working catalog: a statement starts from what
 * others committed since, its transaction's changes carried onto it. */
int db_txn_refresh(attu_session *s, attu_error *err);
void db_txn_failed(attu_session *s);
/* The tables a statement that writes changes (db_lock_stmt.c): their
 * names into names (cap of them), their count; -1: the whole database
 * (DDL, or what it changes cannot be told). */
int db_lock_stmt_tables(attu_session *s, const attu_ast_stmt *st, char (*names)[ATTU_NAME_MAX + 1], int cap);
void db_txn_init(attu_db *db);
void db_txn_destroy(attu_db *db);
/* The session's transaction takes its working catalog and the
 * database's exclusive lock, as DDL does (db_temp.c's sequence changes).
 * 0, or -1 with err. */
int db_txn_begin_write(attu_session *s, attu_error *err);
/* Snapshots (REPEATABLE READ, SERIALIZABLE). db_txn_snapshot: the
 * transaction's first query runs: under those levels the transaction
 * keeps the committed catalog as it is now for its later statements. 0,
 * or -1 for memory. db_txn_check_write: a statement that writes st's
 * tables is about to run (their locks held): 40001 when another transaction committed
 * a change to one of them since the snapshot (SERIALIZABLE: any change),
 * else 0. */
int db_txn_snapshot(attu_session *s, attu_error *err);
int db_txn_check_write(attu_session *s, const attu_ast_stmt *st, attu_error *err);
/* The lock of a statement that writes (its transaction's working catalog
 * made first if db_txn_begin_write has not): the read lock over its own
 * working catalog (its tables' locks keep other writers out), so that
 * other sessions' readers never wait for it. A statement that took no
 * locks (db_txn_lock_stmt) takes the database's exclusive lock here. */
void db_write_lock(attu_session *s);
/* What COMMIT saves: relation name (changed, created or dropped), the
 * views file, the comments file. No I/O: 0, or -1 for memory. */
int db_txn_touch(attu_session *s, const char *name, attu_error *err);
int db_txn_touch_views(attu_session *s, attu_error *err);
int db_txn_touch_comments(attu_session *s, attu_error *err);
/* The session's catalog as the thread's enum lookups' source
 * (engine/enum_type.h attu_enum_use; database.c). */
struct attu_enum_source db_enum_source(attu_session *s);
/* CREATE TYPE ... AS ENUM, DROP TYPE, ALTER TYPE (db_type.c). */
/* CREATE / ALTER / DROP ROLE, GRANT / REVOKE role (db_role.c) */
int db_exec_role(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                 attu_error *err);
int db_exec_type(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
/* CREATE DOMAIN, ALTER DOMAIN, DROP DOMAIN (db_domain.c). */
/* CREATE / DROP / ALTER FUNCTION (db_function.c) */
int db_exec_function(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                     attu_error *err);
/* COMMENT ON FUNCTION fn IS text (NULL: none), kept in the function's
 * definition (db_function.c; the caller holds the write lock). */
int db_comment_function(attu_session *s, const struct attu_ast_function *fn, const char *text, attu_error *err);
int db_exec_domain(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                   attu_error *err);
int db_txn_touch_indexes(attu_session *s, attu_error *err);   /* (attu.indexes: db_index.c) */
/* Whether the session has a transaction with changes or savepoints. */
bool db_txn_active(const attu_session *s);
/* COMMIT: saves what changed, then publishes the working catalog (on a
 * failure to save, everything is rolled back: -1 with err). ROLLBACK:
 * everything undone. Both release the token. */
int db_txn_commit(attu_session *s, attu_error *err);
void db_txn_rollback(attu_session *s);
/* SAVEPOINT, RELEASE, ROLLBACK TO (3B001 for an unknown name). */
int db_txn_savepoint(attu_session *s, const char *name, attu_error *err);
int db_txn_release(attu_session *s, const char *name, attu_error *err);
int db_txn_rollback_to(attu_session *s, const char *name, attu_error *err);
/* How many savepoints the open transaction holds (db_cursor.c records
 * it for each cursor). */
int db_txn_savepoints(const attu_session *s);

/* SQL cursors (db_cursor.c): DECLARE, FETCH / MOVE, CLOSE; the end of a
 * transaction closes those it must (committed: it committed), ROLLBACK TO
 * the savepoint now depth-th closes those declared after it, RELEASE
 * gives the released savepoints' cursors to the one around them (depth:
 * the savepoints left); db_cursors_free closes all (CLOSE ALL, DISCARD
 * ALL, the session's end). db_cursor_at: pg_cursors' i-th row
 * (attu_bind_params.cursor_at). */
int db_exec_declare(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                    const attu_exec_callbacks *cb, attu_error *err);
int db_exec_fetch(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
int db_exec_close(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
void db_cursors_txn_end(attu_session *s, bool committed);
void db_cursors_rollback_to(attu_session *s, int depth);
void db_cursors_release(attu_session *s, int depth);
void db_cursors_free(attu_session *s);
bool db_cursor_at(void *ctx, int i, attu_cursor_info *out);
bool db_cursor_binary(attu_session *s, const char *name);
/* The columns a FETCH from cursor name gives, for Describe (a copy the
 * caller frees; none when there is no such cursor, as PostgreSQL's
 * NoData). 0, or -1 out of memory. */
int db_cursor_describe(attu_session *s, const char *name, int *ncols, attu_result_column **cols);
/* WHERE CURRENT OF name over t (the catalog's version of its table):
 * *row the row of t the cursor is on, -1 when it is no longer there
 * (deleted since); 34000, 24000 (held from a previous transaction, not a
 * simply updatable scan of t / no FOR UPDATE reference to t, not
 * positioned on a row). follow: t replaced old in the catalog, every row
 * where it was (keep NULL: UPDATE, INSERT, COPY) or those with keep[r]
 * moved down in order (DELETE); the cursors holding old move on to t. */
int db_cursor_current_row(attu_session *s, const char *name, const attu_table *t, int64_t *row, attu_error *err);
void db_cursors_follow(attu_session *s, const attu_table *old, attu_table *t, const uint8_t *keep);
/* Locking clauses (db_lock_clause.c): PostgreSQL's checks of a query's
 * FOR UPDATE / SHARE over its bound plan lp (0A000 with DISTINCT, GROUP
 * BY, HAVING, aggregates, window functions, set-returning functions in
 * the select list, set operations; 42P01 for an OF name not in FROM);
 * the clause's words ("FOR UPDATE", "FOR NO KEY UPDATE", ...). */
int db_lock_clause_check(const attu_ast_query *q, const attu_lplan *lp, attu_error *err);
const char *db_lock_strength_name(char strength);

/* Whether st runs in an aborted block (COMMIT, ROLLBACK, ROLLBACK TO). */
bool db_allowed_when_aborted(const attu_ast_stmt *st);

/* Called as each statement starts: its start time, the transaction's
 * (new_txn: it begins a transaction), the thread's zone (database.c). */
void db_statement_begins(attu_session *s, bool new_txn);

typedef struct db_named_prepared {
    char          *name;
    attu_prepared *p;
    int64_t        added_us;   /* pg_prepared_statements.prepare_time */
} db_named_prepared;

struct attu_prepared {
    int                 refs;          /* the session's name, portals, a running EXECUTE */
    char               *sql;
    attu_parse_result  *parsed;
    /* The statement it runs: parsed's only statement, or the body of a
     * PREPARE (parsed then holds the whole PREPARE); NULL when empty. */
    const attu_ast_stmt *stmt;
    bool                from_sql;      /* made by SQL PREPARE (else by Parse) */
    int                 nparams;
    attu_type          *param_types;   /* UNKNOWN: typed by its context at each run */
    uint32_t           *param_oids;
    int                 ncols;
    attu_result_column *cols;
};

attu_result *db_result_new(int ncols);
int db_run_stage(attu_session *s, attu_stage *st, bool analyze, attu_column ***cols, size_t *nrows, attu_error *err);
/* Whether a failed run whose conditional subqueries ran in their batch
 * form runs again with them per binding (database.c, db_run_query). */
bool db_retry_per_binding(bool batched, const attu_error *err);
/* params plus the subquery runner bound to this session */
attu_bind_params db_params(attu_session *s, const attu_bind_params *params);
/* The kept text of a column's DEFAULT gen_random_uuid(), drawn per row. */
#define DB_DEFAULT_RANDOM_UUID "gen_random_uuid()"
/* A column of type t (uuid) holding nrows fresh version 4 uuids (db_ddl.c). */
attu_column *db_random_uuid_column(attu_type t, size_t nrows, attu_error *err);
attu_column *db_text_column(const char *const *strs, size_t n, attu_error *err);
/* EXPLAIN's answer: one text column "QUERY PLAN" of the lines (copied),
 * tag EXPLAIN; NULL with err set. */
attu_result *db_explain_result(char *const *lines, int nl, attu_error *err);

/* EXPLAIN [ANALYZE] of UPDATE / DELETE / MERGE (db_explain_write.c): the
 * statement run first for ANALYZE (db_explain_write_run, its tag and time
 * kept in w), the bound plan rewritten, lowered and its lines put under
 * head with ANALYZE's around them (db_explain_write_lines), then the result delivered, or rc passed on,
 * and w's lines freed (db_explain_write_finish). */
typedef int (*db_write_fn)(attu_session *s, const char *sql, const attu_ast_stmt *st,
                           const attu_bind_params *params, const attu_exec_callbacks *cb, attu_error *err);
typedef struct db_explain_write {
    bool   ran;
    char   tag[64];
    double ms;
    char **lines;
    int    nl;
} db_explain_write;
int db_explain_write_run(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                         const attu_exec_callbacks *cb, db_write_fn run, db_explain_write *w, attu_error *err);
int db_explain_write_lines(attu_session *s, attu_plan_arena *pa, attu_lplan *lp, const char *head,
                           db_explain_write *w, attu_error *err);
int db_explain_write_finish(const attu_exec_callbacks *cb, db_explain_write *w, int rc, attu_error *err);
int db_deliver(const attu_exec_callbacks *cb, attu_result *res);
/* Reports a WARNING through cb->on_warning (on_notice when that is NULL). */
void db_warning(const attu_exec_callbacks *cb, const char *sqlstate, const char *message);

/* Sessions (db_activity.c): the list's upkeep, the activity of a
 * statement (begin: it runs sql; end: idle, or idle in its transaction),
 * a binding's deferred warnings, the binder's callbacks. */
void db_activity_init(attu_db *db);
/* Advisory locks (db_advisory.c): the binder's call (attu_bind_params
 * advisory), the end of a transaction (its transaction-level locks go)
 * and of a session (all its locks go). */
void db_advisory_init(attu_db *db);
void db_advisory_destroy(attu_db *db);
int  db_advisory_call(void *ctx, int op, bool shared, bool xact, int space, int64_t key, bool *result, attu_error *err);
void db_advisory_txn_end(attu_session *s);
void db_advisory_session_end(attu_session *s);
/* txid_current() / pg_current_xact_id() (assign) and their _if_assigned
 * forms: the transaction's id, 0 where none is given (db_xact_id.c) */
int64_t db_xact_id(void *ctx, bool assign);
/* What ends with a transaction beside its data: its transaction-level
 * advisory locks and its id */
static inline void db_session_txn_ended(attu_session *s) {
    db_advisory_txn_end(s);
    s->xid = 0;
}
void db_activity_destroy(attu_db *db);
void db_activity_add(attu_session *s);
void db_activity_remove(attu_session *s);
void db_activity_begin(attu_session *s, const char *sql);
void db_activity_end(attu_session *s);
void db_activity_times(attu_session *s, int64_t now, int64_t txn_start);
void db_defer_warning(attu_session *s, const char *message);
/* After a statement: r, or -1 with 57P01 when it called
 * pg_terminate_backend of its own session (the server makes it FATAL). */
int  db_check_terminated(attu_session *s, int r, attu_error *err);
void db_flush_warnings(attu_session *s, const attu_exec_callbacks *cb);
void db_activity_rows(void *ctx, void (*row)(void *rctx, const attu_activity_info *a), void *rctx);
int  db_signal_backend(void *ctx, int64_t pid, bool terminate, int64_t timeout_ms, bool *ok, attu_error *err);
/* pg_sleep (attu_bind_params.sleep) */
int  db_sleep(void *ctx, double seconds, attu_error *err);
/* For a statement that waits (pg_sleep, a lock wait), at time now (ms):
 * -1 with 57014 when it was canceled or passed its statement_timeout,
 * else 0. */
int  db_statement_interrupted(attu_session *s, double now, attu_error *err);

/* LISTEN / NOTIFY (db_notify.c): the statements, pg_notify and
 * pg_listening_channels' callbacks, the transaction's end (commit:
 * its LISTENs take effect and its notifications reach the listeners;
 * else both are dropped), whether anything waits for it, and a
 * session's end. */
int  db_exec_listen(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
int  db_notify_call(void *ctx, const char *channel, const char *payload, attu_error *err);
const char *db_listening_at(void *ctx, int i);
void db_notify_txn_end(attu_session *s, bool commit);
bool db_notify_txn_pending(const attu_session *s);
void db_notify_session_end(attu_session *s);
void db_notify_unlisten_all(attu_session *s);
/* SAVEPOINT / ROLLBACK TO: how many notifications and LISTEN actions
 * the transaction has queued, and back to that many. */
void db_notify_mark(const attu_session *s, size_t *notifies, size_t *listens);
void db_notify_rollback_to(attu_session *s, size_t notifies, size_t listens);
/* A copy of base with n rows appended: table column c takes src[map[c]]
 * (map[c] < 0: NULL). TEXT re-coded into merged dictionaries; 23502 on a
 * NULL in a NOT NULL column. */
attu_table *db_append_rows(const attu_table *base, attu_column **src, const int *map, size_t n, attu_error *err);
/* Column DEFAULTs (db_ddl.c): evaluates, as one row, the DEFAULT of every
 * column of base that the statement leaves out (map[c] < 0) and has one;
 * each such column gets map[c] = first + j, j its column in *out (NULL when
 * no column needed one; the caller frees it). db_append_rows repeats a
 * one-row source for every row. A DEFAULT nextval (serial, identity)
 * gives nrows values instead, drawn row by row (db_sequence.c). */
int db_eval_defaults(attu_session *s, const attu_table *base, int *map, int first, size_t nrows, attu_result **out,
                     attu_error *err);
/* The same for one DEFAULT text dflt of column def of table (ALTER TABLE
 * ADD COLUMN: the value every existing row takes): *out has one row. */
int db_eval_default(attu_session *s, const char *dflt, const attu_column_def *def, const char *table,
                    attu_result **out, attu_error *err);
/* Checks the DEFAULT of column definition cd (cd->default_ set, written
 * in statement sql) against def's type, as CREATE TABLE does, and returns
 * the SQL text to keep (malloc'd), or NULL with err. */
char *db_check_default(attu_session *s, const char *sql, const attu_ast_column_def *cd, const attu_column_def *def,
                       attu_error *err);
/* e as the SQL text a DEFAULT keeps (malloc'd; NULL with err for what a
 * DEFAULT may not hold: a column, a subquery, a parameter) */
char *db_deparse_default(const attu_ast_expr *e, attu_error *err);
/* A generation expression's text (column references allowed, "(a * 2)"
 * as PostgreSQL's pg_get_expr shows the simple ones), or NULL with
 * PostgreSQL's error for a subquery (0A000), an aggregate (42803) or a
 * window function (42P20) in it; *mutable: it calls a function that is
 * not immutable (PostgreSQL's 42P17, the caller's to raise after the
 * expression's other errors). */
char *db_deparse_generated(const attu_ast_expr *e, bool *mutable_, attu_error *err);
/* Runs query q (of text sql) with its ncols columns assigned to types
 * (INSERT ... SELECT's coercions: 42804, 22003, ...). */
attu_result *db_run_coerced(attu_session *s, const char *sql, const attu_ast_query *q, int ncols,
                            const attu_type *types, const char *const *names, attu_error *err);
/* CREATE TABLE's LIKE elements (db_create_like.c): st with the sources'
 * columns in place of each (st itself, arena NULL, when it has none),
 * and the sources' CREATE INDEX indexes as statements over the new
 * table, to run once it exists. */
typedef struct db_create_like {
    attu_ast_arena *arena;
    attu_ast_stmt  *st;
    char          **index_sql;
    int             nindex;
} db_create_like;
int db_create_like_expand(attu_session *s, const attu_ast_stmt *st, db_create_like *out, attu_error *err);
void db_create_like_free(db_create_like *l);
/* CREATE INDEX of a parsed statement, the write lock held
 * (db_index.c). */
int db_index_create_locked(attu_session *s, const attu_ast_stmt *st, attu_error *err);
/* The column type a type name written in CREATE / ALTER TABLE means
 * (interval qualifiers kept): 42704 and the like at tn's position. */
int db_column_type(const attu_ast_typename *tn, attu_type *out, attu_error *err);
/* INSERT ... VALUES with DEFAULT items (db_values_default.c): q is src,
 * or a copy whose DEFAULT items are replaced by the target columns'
 * DEFAULT expressions (tcol[k]: the table column of target k) or NULL.
 * The copy and what it points to live until db_values_copy_free. */
typedef struct db_values_copy {
    const attu_ast_query *q;
    attu_parse_result    *parsed;      /* the stored DEFAULTs, parsed */
    void                 *blocks[4];   /* the copy's own memory */
} db_values_copy;
int db_values_defaults(attu_session *s, const attu_table *base, const int *tcol, int ntarget,
                       const attu_ast_query *src, db_values_copy *out, attu_error *err);
void db_values_copy_free(db_values_copy *c);
/* The same copy for EXPLAIN INSERT ... VALUES: looks up the INSERT's
 * table and target columns (42P01 / 42703 as the INSERT would). Call
 * with the catalog locked. */
int db_insert_values_defaults(attu_session *s, const attu_ast_stmt *st, db_values_copy *out, attu_error *err);
/* Saves t to the data directory (if any) with its DEFAULTs. */
int db_save_table(attu_session *s, const attu_table *t, attu_error *err);
int db_deliver_tag(const attu_exec_callbacks *cb, const char *tag, attu_error *err);
attu_result *db_run_query(attu_session *s, const char *sql, const attu_ast_query *q,
                          const attu_bind_params *params, attu_error *err);
/* Binds, rewrites and lowers a query (database.c); the caller holds the
 * read lock. */
attu_stage *db_plan_query(attu_session *s, const char *sql, const attu_ast_query *q,
                          const attu_bind_params *params, attu_plan_arena *pa,
                          attu_lplan **lp_out, attu_error *err);
int db_exec_stmt(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                 const attu_exec_callbacks *cb, attu_error *err);

/* Each returns 0, -1 with err set, or -2 when the client went away. */
int db_exec_create(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
/* CREATE TABLE AS's table (also a materialized view's rows): named name,
 * of query's columns (renamed by columns; only the first keep_cols when
 * > 0) and, unless with_no_data, its rows (*nrows of them); not yet saved
 * nor in the catalog. Write lock held. */
attu_table *db_ctas_build(attu_session *s, const char *sql, const char *name, const attu_ast_query *query,
                          const attu_ast_name_list *columns, bool with_no_data, int keep_cols, int position,
                          const attu_bind_params *params, size_t *nrows, attu_error *err);
int db_exec_ctas(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                 const attu_exec_callbacks *cb, attu_error *err);
int db_exec_drop(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
int db_exec_insert(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                   const attu_exec_callbacks *cb, attu_error *err);
/* DELETE and UPDATE (db_modify.c), TRUNCATE (db_truncate.c) */
int db_exec_modify(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                   const attu_exec_callbacks *cb, attu_error *err);
int db_exec_truncate(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
/* ALTER TABLE (db_alter.c) */
int db_exec_alter(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
/* 42P20, 42803, 0A000 for a window function, an aggregate or a
 * set-returning function in UPDATE's SET values or in RETURNING
 * (db_dml_check.c), as PostgreSQL refuses them there. */
int db_check_dml_items(const attu_ast_set_item *sets, int nsets, const attu_ast_select_item *ret, int nret,
                       attu_error *err);
/* The same for ALTER TABLE ... TYPE ... USING e, a transform expression:
 * subqueries refused too (0A000), as PostgreSQL refuses them there. */
int db_check_transform_expr(const attu_ast_expr *e, attu_error *err);
/* EXPLAIN [ANALYZE] of a DELETE / UPDATE (ex): the plan of its rowid
 * query under "Delete on t" / "Update on t"; ANALYZE runs it first. */
/* MERGE (db_merge.c): the statement, its EXPLAIN [ANALYZE] (ex is the
 * EXPLAIN statement), and the cast db_modify.c types untyped values by */
int db_exec_merge(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                  const attu_exec_callbacks *cb, attu_error *err);
int db_explain_merge(attu_session *s, const char *sql, const attu_ast_stmt *ex, const attu_bind_params *params,
                     const attu_exec_callbacks *cb, attu_error *err);
/* MERGE bound, not run (parameter types, db_param_infer.c) */
int db_merge_describe(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                      attu_error *err);
attu_ast_expr *db_cast_to_column(attu_ast_arena *arena, const attu_table *base, const attu_ast_expr *v, int c, int pos,
                                 attu_error *err);
int db_explain_modify(attu_session *s, const char *sql, const attu_ast_stmt *ex, const attu_bind_params *params,
                      const attu_exec_callbacks *cb, attu_error *err);
/* The columns a DELETE / UPDATE ... RETURNING answers (for Describe),
 * bound, not run: *cols (malloc'd, replacing what it held) and *ncols. */
int db_modify_describe(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                       int *ncols, attu_result_column **cols, attu_error *err);
/* Subscripted targets (db_subscripts.c): whether e is a[i] or a[i:j], and
 * a copy of x's subscripts on `base` in place of the column they start
 * from (NULL with err set when out of memory). */
bool db_is_subscript(const attu_ast_expr *e);
attu_ast_expr *db_rebase_subscripts(attu_ast_arena *arena, const attu_ast_expr *x, attu_ast_expr *base,
                                    attu_error *err);

/* INSERT INTO t (a[1], a[2]) (db_insert_subscripts.c): st itself when no
 * column of its list is subscripted; else a copy (in arena) whose list
 * names each column once and whose source gives a subscripted column its
 * array, built from NULL by the assignments in order. NULL with err set
 * (42701, 42703, 42804, 0A000 for DEFAULT as an element). */
const attu_ast_stmt *db_insert_subscripts(attu_ast_arena *arena, const attu_table *base, const attu_ast_stmt *st,
                                          attu_error *err);

/* INSERT ... RETURNING (db_insert_returning.c): RETURNING's rows, read
 * from t, INSERT's new version of its table, whose rows from n0 on are
 * the inserted ones. Call with the write lock held, before t is saved; the
 * catalog is as it was when it returns. Describe: the columns, bound over
 * the current table, not run. */
attu_result *db_insert_returning(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                                 attu_table *t, size_t n0, attu_error *err);
/* The same over the rows of `rows` (a table of the INSERT's columns under a
 * name of its own, put in the catalog for the query), in their order. */
attu_result *db_insert_returning_rows(attu_session *s, const char *sql, const attu_ast_stmt *st,
                                      const attu_bind_params *params, attu_table *rows, attu_error *err);
int db_insert_returning_describe(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                                 int *ncols, attu_result_column **cols, attu_error *err);
/* Views (db_view.c). CREATE [OR REPLACE] VIEW and DROP VIEW; */
int db_exec_create_view(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                        attu_error *err);
int db_exec_drop_view(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
/* the views a DROP of the n relations `names` (kind "table" or "view"
 * for the message) takes with it: 2BP01 without cascade, else the
 * NOTICE and *out (n_out names; db_view_names_free) to remove after the
 * dropped relations (db_view_remove). Call with the write lock held. */
int db_view_drop_dependents(attu_session *s, const char *kind, const char *const *names, int n, bool cascade,
                            const attu_exec_callbacks *cb, char ***out, int *nout, attu_error *err);
int db_view_remove(attu_session *s, char **names, int n, attu_error *err);
/* The views whose query uses column col of table t itself (not through
 * another view), in creation order: *out (n_out names;
 * db_view_names_free). Call with the write lock held. */
int db_view_column_users(attu_session *s, attu_table *t, int col, char ***out, int *nout, attu_error *err);
/* name as PostgreSQL's quote_identifier writes it in messages: quoted
 * unless all lower case letters, digits and '_' and no keyword. */
const char *db_quote_ident(const char *name, char *out, size_t cap);
/* ALTER TABLE ... RENAME COLUMN (col >= 0: t's column col to `to`) or
 * RENAME TO (col < 0: t to `to`): the views that read t, their query
 * text rewritten to the new name (*out: new views, n_out of them), or
 * 0A000 for a view attu cannot tell follows the rename. Nothing changes
 * yet: db_view_install puts them in place. Write lock held. */
struct attu_view;
int db_view_follow_rename(attu_session *s, attu_table *t, int col, const char *to, struct attu_view ***out, int *nout,
                          attu_error *err);
/* Puts views[0..n) in place of the catalog's views of their names and
 * saves; views[i] becomes the view it replaced (the caller frees them, or
 * installs them again to undo). On failure nothing changed. */
/* ALTER VIEW v RENAME TO to (col < 0) / RENAME COLUMN col TO to: the
 * views that read v, their text rewritten as db_view_follow_rename
 * rewrites them (0A000 for one that cannot follow), in *out, not in
 * place yet. Write lock held. */
int db_view_follow_view_rename(attu_session *s, struct attu_view *v, int col, const char *to, struct attu_view ***out,
                               int *nout, attu_error *err);
/* COMMENT ON (db_comment.c), and the comments following their objects
 * (write lock held, after the statement succeeded): renamed (kind 'r' a
 * relation from -> to; 'c' / 'k' a column / constraint of rel), dropped
 * with a relation, pruned of rel's columns and constraints that are gone
 * (after ALTER TABLE). */
int db_exec_comment(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
void db_comments_renamed(attu_session *s, char kind, const char *rel, const char *from, const char *to);
void db_comments_dropped(attu_session *s, const char *rel);
void db_comments_dropped_temp(attu_session *s, const char *rel);
/* Saves and puts in the catalog the table's PRIMARY KEY / UNIQUE list u
 * (its CHECKs and FOREIGN KEYs as they are): ALTER INDEX ... RENAME of a
 * constraint's index (db_alter.c). */
int db_constraints_save(attu_session *s, attu_table *base, const attu_unique *u, int nu, attu_error *err);
void db_comments_prune(attu_session *s, const char *rel);
/* ALTER VIEW (db_alter_view.c); ALTER TABLE of a view comes here too. */
int db_exec_alter_view(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                       attu_error *err);
/* "ADD COLUMN", "ALTER COLUMN ... SET DEFAULT", ...: an ALTER TABLE
 * action as PostgreSQL names it in "ALTER action ... cannot be performed
 * on relation" (NULL for the RENAMEs). */
const char *db_alter_action_name(attu_ast_alter_kind k);
/* ALTER TABLE / VIEW / MATERIALIZED VIEW / SEQUENCE ... OWNER TO role and
 * ... SET SCHEMA s (db/db_alter_owner.c) */
int db_exec_alter_owner(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
int db_view_install(attu_session *s, struct attu_view **views, int n, attu_error *err);
void db_view_names_free(char **names, int n);
/* A statement that names view `name` where a table must stand: INSERT,
 * UPDATE, DELETE (kind) that reach the table's own code (EXPLAIN's, a
 * view made since the statement looked) get PostgreSQL's 55000 of a view
 * that is not automatically updatable, else 0A000; 42809 "is not a table"
 * for the others. Each returns 0 when name is no view, else -1 with err
 * set; call with the lock held. */
int db_view_dml_error(attu_session *s, const char *name, attu_ast_stmt_kind kind, attu_error *err);
int db_view_not_table(attu_session *s, const char *name, attu_error *err);
/* 55000 with PostgreSQL's reason when view `name` is not automatically
 * updatable, else 0 (read lock held). */
int db_view_updatable_reason(attu_session *s, const char *name, attu_ast_stmt_kind kind, attu_error *err);
/* Whether name is a view (takes the read lock). */
bool db_names_view(attu_session *s, const char *name);
/* INSERT / UPDATE / DELETE whose target is a view (db_view_update.c):
 * rewritten onto the view's relation and run; no lock held on entry. */
int db_view_dml(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                const attu_exec_callbacks *cb, attu_error *err);
/* The rewriting itself, one level (its target may be a view again): *out
 * lives in rw until db_view_rewrite_free. For PREPARE's analysis and
 * EXPLAIN, which see the statement on the view's relation. */
/* (pr: the view's query parsed; defaults: its column DEFAULTs', or NULL) */
typedef struct db_view_rewrite { attu_ast_arena *a; attu_parse_result *pr, *defaults; } db_view_rewrite;
int db_view_rewrite_dml(attu_session *s, const attu_ast_stmt *st, db_view_rewrite *rw, const attu_ast_stmt **out,
                        attu_error *err);
void db_view_rewrite_free(db_view_rewrite *rw);
int db_exec_copy(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
int db_exec_setting(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
/* Builds a prepared statement over a parsed text (taking sql and pr):
 * stmt is the statement it runs; types (ntypes, UNKNOWN = undeclared) and
 * oids (ParameterDescription's, 0 = undeclared) declare the first
 * parameters, nparams counts them all. Each undeclared parameter of a
 * SELECT, VALUES, INSERT, UPDATE, DELETE or EXPLAIN of one takes the type
 * its use gives it (db_infer_params), for good, as PostgreSQL types it
 * when it prepares; one no use types is 42P18. Other statements' stay
 * typed by their context at each run (described as unknown, 705). */
attu_prepared *db_prepare_parsed(attu_session *s, char *sql, attu_parse_result *pr, const attu_ast_stmt *stmt,
                                 int nparams, int ntypes, const attu_type *types, const uint32_t *oids,
                                 attu_error *err);
/* The types of st's undeclared parameters (db_param_infer.c): inferred
 * has np entries, the declared types (declared; UNKNOWN = none) on entry,
 * and receives each undeclared one's type from its first use (UNKNOWN: no
 * use types it); open_uses and undetermined_uses (np entries, zeroed)
 * count its untyped uses and those PostgreSQL leaves undetermined
 * (attu_bind_params). 0 when done, 1 for a statement whose parameters are
 * not analysed, -1 with err when binding it fails (PostgreSQL's analysis
 * fails the same way: 42883, 42P01, 22P02 ...). */
int db_infer_params(attu_session *s, const char *sql, const attu_ast_stmt *st, int np, const attu_type *declared,
                    attu_type *inferred, int *open_uses, int *undetermined_uses, attu_error *err);
/* Runs p with text parameter values (db_prepared.c); 0, -1 with err set,
 * -2 when the client went away. wrap (or NULL) is a statement p's runs
 * inside: EXPLAIN [ANALYZE] (EXPLAIN EXECUTE) or CREATE TABLE AS (its
 * query taken from p, a SELECT). */
int db_prepared_run(attu_session *s, attu_prepared *p, const attu_ast_stmt *wrap, const char *const *values,
                    const attu_exec_callbacks *cb, attu_error *err);
/* PREPARE; EXECUTE, alone or in wrap: EXPLAIN EXECUTE, CREATE TABLE AS
 * EXECUTE (db_prepare_sql.c) */
int db_exec_prepare(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
int db_exec_execute(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_ast_stmt *wrap,
                    const attu_exec_callbacks *cb, attu_error *err);
/* pg_prepared_statements' i-th row (attu_bind_params.prepared_at). */
bool db_prepared_at(void *ctx, int i, attu_prepared_info *out);
/* Frees every named prepared statement (attu_session_free). */
void db_prepared_names_free(attu_session *s);
/* DEALLOCATE and DISCARD (db_discard.c) */
int db_exec_discard(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
/* The end of a transaction block (explicit, or the implicit one of a
 * multi-statement query string): commit keeps what SET changed and undoes
 * SET LOCAL; a rollback restores every setting as it was at the start. */
void db_settings_end_block(attu_session *s, bool commit);
/* SAVEPOINT keeps a mark of the settings (NULL with err: out of memory);
 * ROLLBACK TO puts every setting changed since back as it was then. */
typedef struct db_settings_mark db_settings_mark;
db_settings_mark *db_settings_mark_take(attu_session *s, attu_error *err);
void db_settings_mark_rollback(attu_session *s, const db_settings_mark *m);
void db_settings_mark_free(db_settings_mark *m);
/* The end of a statement outside any block (ok: it succeeded): ends the
 * block a set_config(..., is_local) opened for it, as PostgreSQL's
 * statement is its own transaction. */
void db_settings_end_statement(attu_session *s, bool ok);
/* Sets name (lower case) to value, or back to its reset value when value
 * is NULL, as SET [LOCAL] and set_config do: 42704 for an unknown name,
 * 55P02 for a read-only one, 22023 for a bad value (no positions). local
 * outside a block changes nothing unless statement_block (set_config:
 * the statement is the block). shown, when not NULL, gets the value
 * kept (malloc'd; the caller frees it). */
int db_setting_apply(attu_session *s, const char *name, const char *value, bool local, bool statement_block,
                     char **shown, attu_error *err);
/* A transaction's modes ("serializable", "read only", "deferrable", ...)
 * as settings: SET TRANSACTION and BEGIN set transaction_isolation,
 * transaction_read_only and transaction_deferrable for the block,
 * SET SESSION CHARACTERISTICS (session_defaults) their default_ ones. */
int db_settings_txn_modes(attu_session *s, const char *const *modes, int n, bool session_defaults, attu_error *err);
/* set_config for the binder (attu_bind_params.set_config; ctx: the
 * session): apply false only checks the name. */
int db_set_config(void *ctx, const char *name, const char *value, bool is_local, bool apply, char **out, attu_error *err);
/* A setting's value with its pg_settings source ("default", "client",
 * "session", "override") and reset_val (attu_bind_params.setting_state). */
const char *db_setting_state(void *ctx, const char *name, const char **source, const char **reset_val);
/* The i-th dotted name the session set, NULL past the last
 * (attu_bind_params.setting_custom). */
const char *db_setting_custom(void *ctx, int i);
/* UPDATE pg_settings SET setting = ... (db_settings_update.c): whether
 * st is one, and running it as SETs. */
bool db_updates_pg_settings(const attu_session *s, const attu_ast_stmt *st);
int db_exec_update_pg_settings(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                               const attu_exec_callbacks *cb, attu_error *err);
/* transaction_read_only (SET TRANSACTION READ ONLY, BEGIN READ ONLY,
 * default_transaction_read_only): whether the transaction may not write,
 * and PostgreSQL's 25006 "cannot execute INSERT in a read-only
 * transaction" for a statement that writes (-1; 0 for one that may run). */
bool db_read_only(const attu_session *s);
/* transaction_isolation: 'c' READ COMMITTED (and READ UNCOMMITTED, which
 * PostgreSQL runs as it), 'r' REPEATABLE READ, 's' SERIALIZABLE. */
char db_isolation(const attu_session *s);
/* The command PostgreSQL names when it refuses st in a read-only
 * transaction ("INSERT", "CREATE TABLE", ...), NULL for one that writes
 * nothing. */
const char *db_writing_command(attu_session *s, const attu_ast_stmt *st);
int db_refuse_if_read_only(attu_session *s, const attu_ast_stmt *st, attu_error *err);
/* Frees the session's settings (attu_session_free). */
void db_settings_free(attu_session *s);

/* Sequences (db_sequence.c). open loads them from the data directory (the
 * database's lock not needed yet); close frees them. */
int db_sequences_open(attu_db *db, attu_error *err);
void db_sequences_close(attu_db *db);
/* The session's currval / lastval: freed, or forgotten (DISCARD). */
void db_seq_session_free(attu_session *s);
/* attu_bind_params.sequence_call, ctx the session: nextval, currval,
 * setval, lastval (the caller holds the database's lock) */
int db_sequence_call(void *ctx, attu_sequence_op op, const char *name, int64_t value, bool is_called, int64_t *out,
                     attu_error *err);
/* Whether session s reaches a sequence of the name (its own temporary
 * ones, the permanent ones; never another session's temporary ones) */
bool db_sequence_exists(attu_session *s, const char *name);
bool db_relation_exists(attu_session *s, const char *name);
/* A subquery runner that runs nothing: each subquery gives its columns
 * without rows (a query only analysed: CREATE VIEW, WITH NO DATA). */
int db_no_rows_runner(void *ctx, attu_lplan *plan, attu_column ***cols, size_t *nrows, attu_error *err);
/* db_params for a query that is only analysed, never run: describe_only,
 * subqueries through db_no_rows_runner, and with no_side_effects nothing
 * such as nextval folded while binding (else as params says). */
attu_bind_params db_describe_params(attu_session *s, const attu_bind_params *params, bool no_side_effects);
/* A session setting's value as SHOW gives it (ctx: the session; name in
 * lower case), or NULL for an unknown one: current_setting(). */
const char *db_setting_value(void *ctx, const char *name);
/* attu_bind_params.serial_sequence: pg_get_serial_sequence */
int db_serial_sequence(void *ctx, const char *table, const char *column, char *out, size_t cap, attu_error *err);
/* attu_bind_params.list_sequences: copies of every sequence (the system
 * catalogs' pg_sequence, pg_class, ...) */
int db_sequences_list(void *ctx, struct attu_sequence ***out, int *n);
/* Materialized views (db_matview.c): CREATE MATERIALIZED VIEW (from
 * db_exec_create_view), REFRESH; db_matview_refuse gives PostgreSQL's
 * error for a statement that would change or misuse one (INSERT, UPDATE,
 * DELETE, TRUNCATE, COPY, ALTER TABLE), 0 for any other; db_is_matview
 * with a lock held. */
int db_exec_create_matview(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                           attu_error *err);
int db_exec_refresh_matview(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                            attu_error *err);
int db_matview_refuse(attu_session *s, const attu_ast_stmt *st, attu_error *err);
bool db_is_matview(attu_session *s, const char *name);
/* ALTER ... RENAME TO / RENAME COLUMN of a materialized view, once its
 * table has the new name (write lock held): the view entry follows (0
 * when name is no materialized view). */
int db_matview_renamed(attu_session *s, const char *from, const char *to, attu_error *err);
int db_matview_renamed_column(attu_session *s, const char *name, const char *from, const char *to, attu_error *err);
/* "view v" / "materialized view m" / "table t" as a DETAIL or NOTICE
 * names a relation (lock held) */
void db_relation_kind_name(attu_session *s, const char *name, char *out, size_t cap);
/* INSERT / UPDATE's view check options (db_view_update.c): 44000 when a
 * row of t (the table's new version) that the statement wrote fails one of
 * checks: rows >= first (changed NULL) or those with changed[r]. Write
 * lock held. */
int db_view_check_rows(attu_session *s, const attu_ast_view_check *checks, const char *qual, attu_table *t,
                       size_t first, const uint8_t *changed, attu_error *err);
/* The same over rows[0..n) of t (ON CONFLICT's inserted and updated rows). */
int db_view_check_listed(attu_session *s, const attu_ast_view_check *checks, const char *qual, attu_table *t,
                         const size_t *rows, size_t n, attu_error *err);

/* attu_bind_params.view_updatable (db_view.c) */
bool db_view_updatable(void *ctx, const char *view, bool *cols, int ncols);
int db_exec_create_sequence(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
int db_exec_drop_sequence(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
/* The sequence a stored column DEFAULT draws from (malloc'd), or NULL
 * when the DEFAULT is no nextval('name') (or sql is NULL). */
char *db_default_sequence(const char *sql);
/* CREATE TABLE's DEFAULT e of column def: 0 when it is no nextval of a
 * constant name (an ordinary DEFAULT), 1 with *out the text to store, -1
 * with err (42P01 for no such sequence, 0A000 for a column not of an
 * integer type). */
int db_sequence_default_text(attu_session *s, const attu_ast_expr *e, const attu_column_def *def, char **out,
                             attu_error *err);
/* The sequence a DEFAULT written as e draws from when e is nextval of a
 * constant name (malloc'd, folded as the binder folds it), else NULL. */
char *db_nextval_default_name(const attu_ast_expr *e);
/* The DEFAULTs of base's columns cols[0..m) (each a nextval default) for
 * nrows rows: out[j] gets nrows values of column cols[j]'s type, drawn row
 * by row. The values drawn stay drawn when it fails (2200H, 22003). */
int db_sequence_default_columns(attu_session *s, const attu_table *base, const int *cols, int m, size_t nrows,
                                attu_column **out, attu_error *err);
/* A serial or identity column's own sequence (identity 'a' / 'd' / 0 for
 * serial), named as PostgreSQL names it (table_column_seq), owned by the
 * column; *default_sql: its nextval DEFAULT text. Not saved: the caller
 * saves with db_sequences_save once the table stands. Call with the
 * write lock held. */
int db_sequence_create_owned(attu_session *s, const char *table, const char *column, attu_type_id type, char identity,
                             const attu_sequence_options *opt, char **default_sql, attu_error *err);
int db_sequences_save(attu_session *s, attu_error *err);
/* The sequence a regclass text names (folded as the binder folds it);
 * malloc'd. */
char *db_sequence_fold(const char *text, size_t n);
/* nextval of names[0..m) for nrows rows, row by row: out[r * m + j]. The
 * values drawn stay drawn when it fails. */
int db_sequence_draw(attu_session *s, char *const *names, int m, size_t nrows, int64_t *out, attu_error *err);
/* Writes a drawn number into row r of integer column c (22003 when it
 * does not fit its type), clearing its NULL. */
int db_sequence_store(attu_column *c, size_t r, int64_t v, attu_error *err);
/* nextval('s') as a whole select-list item of a plain SELECT over rows
 * (db_sequence_fill.c): prepare returns q, or a copy whose such items are
 * NULL stand-ins (f->n > 0; targets: an INSERT's target types, NULL
 * otherwise); apply fills their columns of the result, one number per
 * row. Call both with the database's lock held. */
#define DB_SEQ_FILL_MAX 8
typedef struct db_seq_fill {
    int                   n;
    int                   col[DB_SEQ_FILL_MAX];
    char                 *name[DB_SEQ_FILL_MAX];
    attu_ast_query        q;
    attu_ast_select_item *items;
    attu_ast_expr        *exprs;
} db_seq_fill;
const attu_ast_query *db_seq_fill_prepare(attu_session *s, const attu_ast_query *q, const attu_type *targets, int ntargets,
                                          db_seq_fill *f);
int db_seq_fill_apply(attu_session *s, const db_seq_fill *f, attu_column **cols, size_t nrows, attu_error *err);
void db_seq_fill_free(db_seq_fill *f);
/* pg_cancel_backend / pg_terminate_backend / pg_notify as whole
 * select-list items over rows (db_signal_fill.c): prepare binds the items
 * as stand-ins and their arguments as extra items; apply (without the
 * database's lock: a terminate may wait) calls them per result row, fills
 * the stand-ins and drops the extra columns. */
#define DB_SIGNAL_FILL_MAX 8
typedef struct db_signal_fill {
    int                   n, nitems;
    int                   col[DB_SIGNAL_FILL_MAX], kind[DB_SIGNAL_FILL_MAX];
    int                   first_arg[DB_SIGNAL_FILL_MAX], nargs[DB_SIGNAL_FILL_MAX];
    attu_ast_query        q;
    attu_ast_select_item *items;
    attu_ast_expr        *exprs;
} db_signal_fill;
const attu_ast_query *db_signal_fill_prepare(const attu_ast_query *q, db_signal_fill *f);
int db_signal_fill_apply(attu_session *s, const db_signal_fill *f, attu_result *r, attu_error *err);
void db_signal_fill_free(db_signal_fill *f);
/* DROP TABLE / TRUNCATE ... RESTART IDENTITY: the table's own sequences
 * dropped / restarted, and saved. */
/* The session's temporary sequences (CREATE TEMP SEQUENCE, a temporary
 * table's serial columns'): whether it has one; dropping them all (its
 * end, DISCARD TEMP) */
bool db_sequences_has_temp(attu_session *s);
int db_sequences_drop_temp(attu_session *s, attu_error *err);
int db_sequences_drop_owned(attu_session *s, const char *table, attu_error *err);
int db_sequences_restart_owned(attu_session *s, const char *table, attu_error *err);
/* 'a' (GENERATED ALWAYS) or 'd' (BY DEFAULT) for an identity column, else 0 */
char db_sequence_identity(attu_session *s, const char *table, const char *column);
/* serial, bigserial, smallserial (serial4 / serial8 / serial2): the
 * column's integer type; 0 for any other type name (db_ddl.c). */
attu_type_id db_serial_type(const char *name, int precision);
/* ALTER TABLE (db_alter.c), with the write lock held. A snapshot of every
 * sequence, put back (and saved) when the statement fails. */
typedef struct db_seq_snapshot db_seq_snapshot;
db_seq_snapshot *db_sequences_snapshot(attu_session *s, attu_error *err);
int db_sequences_restore(attu_session *s, const db_seq_snapshot *snap, attu_error *err);
void db_seq_snapshot_free(db_seq_snapshot *snap);
/* A transaction's ROLLBACK (TO): the sequences' definitions of snap put
 * back (made since: dropped; dropped since: back), each surviving one
 * keeping its counter (nextval is not transactional); saved. */
int db_sequences_txn_undo(attu_session *s, const db_seq_snapshot *snap, attu_error *err);
/* While a transaction writes, the sequences file keeps base's definitions
 * (with the numbers drawn since); NULL when it ends (the file then takes
 * the sequences as they are: saved). */
int db_sequences_set_base(attu_db *db, const db_seq_snapshot *base, attu_error *err);
/* COMMIT (db_txn.c): when the transaction changed sequences' definitions,
 * the sequences as they are staged in c (a step of its record). Takes the
 * sequences' lock, which db_sequences_commit_end (committed: the file now
 * keeps them as they are) gives back, whatever stage returned. */
struct attu_storage_commit;
int db_sequences_commit_stage(attu_db *db, struct attu_storage_commit *c, attu_error *err);
void db_sequences_commit_end(attu_db *db, bool committed);
/* The sequences owned by table's columns old_cols[0..n) follow them: owned
 * by new_table's column new_cols[i] now, or dropped where new_cols[i] is
 * NULL (a dropped column); saved when one changed. */
int db_sequences_follow_table(attu_session *s, const char *table, const char *new_table, int n,
                              const char *const *old_cols, const char *const *new_cols, attu_error *err);
/* ALTER COLUMN ... TYPE of an identity column: its sequence takes the new
 * type (a bound that was the old type's own becomes the new type's);
 * saved. A serial column's sequence keeps its type, as PostgreSQL. */
int db_sequence_retype_identity(attu_session *s, const char *table, const char *column, attu_type_id type,
                                attu_error *err);
/* ALTER COLUMN ... SET GENERATED / SET option / RESTART of an identity
 * column: its sequence's options (ALTER SEQUENCE's checks) and kind
 * (generated 'a' / 'd'; 0 keeps it); 55000 when the column is no identity
 * column; saved. */
int db_sequence_set_identity(attu_session *s, const char *table, const char *column, char generated,
                             const attu_sequence_options *o, attu_error *err);
/* ALTER COLUMN ... DROP IDENTITY: the column's identity sequence dropped
 * (none: nothing to do); saved. */
int db_sequence_drop_identity(attu_session *s, const char *table, const char *column, attu_error *err);
/* Before DROP TABLE tables[0..n) (column NULL) or ALTER TABLE tables[0]
 * DROP COLUMN column drops the sequences they own: the DEFAULTs elsewhere
 * that draw from one (another table's, or another column's of the same
 * table) are 2BP01 in PostgreSQL's words unless cascade; with cascade
 * they are removed with a NOTICE each (cascade_other_tables false: a
 * DROP COLUMN's own table's are left to the caller, another table's are
 * 0A000). The caller holds the write lock. */
int db_sequences_owner_dependents(attu_session *s, const char *const *tables, int ntables, const char *column,
                                  bool cascade, bool cascade_other_tables, const attu_exec_callbacks *cb, attu_error *err);
/* Whether sequence name is owned by table.column. */
bool db_sequence_owned_by(attu_session *s, const char *name, const char *table, const char *column);
/* ALTER SEQUENCE (db_sequence.c). */
int db_exec_alter_sequence(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);

/* Data-modifying WITH queries (db_with_modify.c). wants: whether st's
 * top-level WITH list holds one (and none is running); exec runs them,
 * then st, as one statement; rows answers the binder
 * (attu_bind_params.with_rows); described_free drops the last
 * description's columns. */
bool db_with_modify_wants(const attu_session *s, const attu_ast_stmt *st);
int db_exec_with_modify(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                        const attu_exec_callbacks *cb, attu_error *err);
int db_with_rows(void *ctx, const attu_ast_cte *cte, bool describing, const attu_bind_params *params,
                 attu_with_rows *out, attu_error *err);
void db_with_described_free(attu_session *s);
/* db_params: the kept versions' hooks where every query of the statement
 * reads them (COPY (query) TO under data-modifying WITH queries). */
void db_with_read_hooks(const attu_session *s, attu_bind_params *bp);
/* UPDATE, DELETE and MERGE of base (the working version) under a
 * statement with data-modifying WITH queries (params its: they read the
 * version the statement started from). target: *map (nmap entries, NULL:
 * none needed) turns a row position of the version read into base's, -1
 * for a row an earlier part of the statement deleted or updated (skipped:
 * the first change of a row takes effect); 0A000 where base changed in a
 * way not followed (verb: the statement's name). target_changed: base
 * became now, the rows changed[r] updated or those !keep[r] deleted
 * (base's positions), followed false when the change moved rows
 * otherwise (a foreign key's action on the table itself); -1 for memory. */
int db_with_target(attu_session *s, const attu_bind_params *params, const attu_table *base, int pos, const char *verb,
                   const int64_t **map, size_t *nmap, attu_error *err);
int db_with_target_changed(attu_session *s, const attu_bind_params *params, const attu_table *base,
                           const attu_table *now, const uint8_t *changed, const uint8_t *keep, bool followed);

/* A DEFAULT's (or generated column's) type mismatch in PostgreSQL's words
 * ("... but default expression is of type ..."), with no position
 * (db_ddl.c). */
void db_default_mismatch_message(attu_error *err);

#endif
