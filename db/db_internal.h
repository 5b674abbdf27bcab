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
#include "engine/executor.h"
#include "planner/binder.h"
#include "planner/parser.h"
#include "engine/stage_plan.h"

struct attu_db {
    attu_catalog    *cat;
    pthread_rwlock_t lock;
    attu_backend    *be;
    char            *data_dir;
    char            *load_dir;
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
    int              statement_timeout_ms;
    int64_t          max_recursive_rows;   /* attu.max_recursive_rows: 0 = the default, < 0 = none */
    double           stmt_start_ms;
    const struct attu_tz *timezone;    /* the TimeZone setting's zone (engine/timezone.h) */
    int64_t          txn_start_us;     /* when the transaction began: now() */
    db_setting      *settings;
    int              nsettings;
    db_setting_undo *undo;             /* settings changed in the current block */
    int              nundo;
    /* Named prepared statements: the one namespace of SQL PREPARE and the
     * extended protocol's Parse (db_prepared_names.c). Each entry holds a
     * reference. */
    struct db_named_prepared *prepared;
    int              nprepared, capprepared;
    int              execute_depth;    /* EXECUTEs running inside each other */
};

/* Called as each statement starts: its start time, the transaction's
 * (new_txn: it begins a transaction), the thread's zone (database.c). */
void db_statement_begins(attu_session *s, bool new_txn);

typedef struct db_named_prepared { char *name; attu_prepared *p; } db_named_prepared;

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
attu_column *db_text_column(const char *const *strs, size_t n, attu_error *err);
/* EXPLAIN's answer: one text column "QUERY PLAN" of the lines (copied),
 * tag EXPLAIN; NULL with err set. */
attu_result *db_explain_result(char *const *lines, int nl, attu_error *err);
int db_deliver(const attu_exec_callbacks *cb, attu_result *res);
/* Reports a WARNING through cb->on_warning (on_notice when that is NULL). */
void db_warning(const attu_exec_callbacks *cb, const char *sqlstate, const char *message);
/* A copy of base with n rows appended: table column c takes src[map[c]]
 * (map[c] < 0: NULL). TEXT re-coded into merged dictionaries; 23502 on a
 * NULL in a NOT NULL column. */
attu_table *db_append_rows(const attu_table *base, attu_column **src, const int *map, size_t n, attu_error *err);
/* Column DEFAULTs (db_ddl.c): evaluates, as one row, the DEFAULT of every
 * column of base that the statement leaves out (map[c] < 0) and has one;
 * each such column gets map[c] = first + j, j its column in *out (NULL when
 * no column needed one; the caller frees it). db_append_rows repeats a
 * one-row source for every row. */
int db_eval_defaults(attu_session *s, const attu_table *base, int *map, int first, attu_result **out, attu_error *err);
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
int db_exec_stmt(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                 const attu_exec_callbacks *cb, attu_error *err);

/* Each returns 0, -1 with err set, or -2 when the client went away. */
int db_exec_create(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
int db_exec_ctas(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                 const attu_exec_callbacks *cb, attu_error *err);
int db_exec_drop(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
int db_exec_insert(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                   const attu_exec_callbacks *cb, attu_error *err);
/* DELETE and UPDATE (db_modify.c), TRUNCATE (db_truncate.c) */
int db_exec_modify(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                   const attu_exec_callbacks *cb, attu_error *err);
int db_exec_truncate(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
/* 42P20, 42803, 0A000 for a window function, an aggregate or a
 * set-returning function in UPDATE's SET values or in RETURNING
 * (db_dml_check.c), as PostgreSQL refuses them there. */
int db_check_dml_items(const attu_ast_set_item *sets, int nsets, const attu_ast_select_item *ret, int nret,
                       attu_error *err);
/* EXPLAIN [ANALYZE] of a DELETE / UPDATE (ex): the plan of its rowid
 * query under "Delete on t" / "Update on t"; ANALYZE runs it first. */
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
int db_insert_returning_describe(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                                 int *ncols, attu_result_column **cols, attu_error *err);
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
/* Frees every named prepared statement (attu_session_free). */
void db_prepared_names_free(attu_session *s);
/* DEALLOCATE and DISCARD (db_discard.c) */
int db_exec_discard(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err);
/* The end of a transaction block (explicit, or the implicit one of a
 * multi-statement query string): commit keeps what SET changed and undoes
 * SET LOCAL; a rollback restores every setting as it was at the start. */
void db_settings_end_block(attu_session *s, bool commit);
/* Frees the session's settings (attu_session_free). */
void db_settings_free(attu_session *s);

#endif
