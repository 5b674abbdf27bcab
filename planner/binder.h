/*
 * binder.h - from syntax tree to logical plan: names, types, casts, checks.
 *
 * The binder resolves every name against the catalog (42P01, 42703, 42702),
 * types every expression with PostgreSQL's rules for implicit casts (42883
 * when no operator or function fits, 42804 on type mismatch), checks
 * aggregate and GROUP BY validity (42803), and produces the logical plan
 * (logical_plan.h). Errors carry the position of the offending token.
 *
 * Parameters ($n): in prepare mode (values == NULL) a parameter is typed by
 * its declared OID, or takes the type of the first context that types it
 * as an untyped literal would (recorded in params->inferred, and carried to
 * its later uses, as PostgreSQL's analysis does); in execute mode each
 * value (text, NULL = SQL NULL) becomes a constant of that type.
 */
#ifndef ATTU_PLANNER_BINDER_H
#define ATTU_PLANNER_BINDER_H

#include "engine/catalog.h"
#include "engine/error.h"
#include "planner/ast.h"
#include "planner/logical_plan.h"

/* Runs an (uncorrelated) subquery's plan to host columns; supplied by the
 * db layer so the binder can fold scalar / EXISTS / IN subqueries. */
typedef int (*attu_subquery_runner)(void *ctx, attu_lplan *plan, attu_column ***cols,
                                    size_t *nrows, attu_error *err);

/* A sequence function's call (attu_bind_params.sequence_call): op, the
 * sequence's name (folded as PostgreSQL's regclass input folds it), for
 * setval the value and is_called. 0 with *out, or -1 with err. */
typedef enum attu_sequence_op {
    ATTU_SEQ_NEXTVAL, ATTU_SEQ_CURRVAL, ATTU_SEQ_SETVAL, ATTU_SEQ_LASTVAL,
    ATTU_SEQ_CHECK      /* only whether name is a sequence (42P01, 42809) */
} attu_sequence_op;
typedef int (*attu_sequence_caller)(void *ctx, attu_sequence_op op, const char *name, int64_t value,
                                    bool is_called, int64_t *out, attu_error *err);

/* One open cursor as pg_cursors shows it (db/db_cursor.c). */
typedef struct attu_cursor_info {
    const char *name;
    const char *statement;
    bool        is_holdable, is_binary, is_scrollable;
    int64_t     creation_time_us;   /* microseconds since 1970, UTC */
} attu_cursor_info;

/* One named prepared statement as pg_prepared_statements shows it
 * (db/db_prepared_names.c). */
typedef struct attu_prepared_info {
    const char     *name;
    const char     *statement;          /* the text it was prepared from */
    bool            from_sql;           /* SQL PREPARE, else the protocol's Parse */
    int64_t         prepare_time_us;    /* microseconds since 1970, UTC */
    int             nparams;
    const uint32_t *param_oids;         /* as ParameterDescription gives them */
} attu_prepared_info;

/* One session as pg_stat_activity shows it (db/db_activity.c); times in
 * microseconds since 1970, UTC, 0 for NULL. */
typedef struct attu_activity_info {
    uint32_t    pid;
    const char *user, *database, *application_name;
    const char *client_addr;        /* NULL: none (not over TCP) */
    int         client_port;        /* -1: none */
    int64_t     backend_start_us, xact_start_us, query_start_us, state_change_us;
    const char *state;              /* "active", "idle", "idle in transaction", ... */
    const char *wait_event_type, *wait_event;   /* NULL: not waiting */
    const char *query;
} attu_activity_info;

/* One table lock as pg_locks shows it (db/db_lock.c): the session's pid,
 * the table, PostgreSQL's mode name, whether held (else awaited). */
typedef struct attu_lock_info {
    uint32_t    pid;
    const char *table;
    const char *mode;
    bool        granted;
} attu_lock_info;

/* A data-modifying WITH query's RETURNING rows (attu_bind_params.with_rows): ncols
 * columns named names[i] of types types[i], the rows those of table
 * (whose own column names are placeholders; NULL: described only, no
 * rows), valid until the statement ends. returning: false for a
 * statement without RETURNING, which cannot be read (0A000). */
typedef struct attu_with_rows {
    attu_table        *table;
    int                ncols;
    char             **names;
    attu_type         *types;
    bool               returning;
} attu_with_rows;

/* attu_bind_params.advisory's operations */
enum { ATTU_ADVISORY_LOCK, ATTU_ADVISORY_TRY, ATTU_ADVISORY_UNLOCK, ATTU_ADVISORY_UNLOCK_ALL };

typedef struct attu_bind_params {
    int                 n;
    const attu_type    *types;     /* n entries; ATTU_TYPE_UNKNOWN = infer */
    const char *const  *values;    /* NULL in prepare mode */
    attu_type          *inferred;  /* optional out: n types after binding, each
                                      undeclared parameter's from the first
                                      context that typed it (UNKNOWN: none) */
    /* optional outs beside inferred (n entries, zeroed by the caller): how
     * many times each parameter was bound without a type, and how many of
     * those uses are ones PostgreSQL leaves undetermined ($1 IS NULL,
     * count($1), concat($1)): a parameter that only such uses read has no
     * type (42P18) */
    int                *open_uses;
    int                *undetermined_uses;
    /* INSERT ... VALUES: the target columns' types; each VALUES item is
     * assigned to its column's type directly (as PostgreSQL does), so
     * '2024-01-15' goes into a DATE column. NULL otherwise. */
    const attu_type    *insert_types;
    const char *const  *insert_names;
    int                 ninsert;
    attu_subquery_runner run_subquery;
    void               *run_ctx;
    /* A correlated subquery that may fail where only some rows reach it
     * (a CASE branch, COALESCE's later arguments, an AND / OR operand, a
     * WHERE conjunct) is bound in its keyed (batch) form, computed for
     * every outer row at once, and sets *cond_batched; with
     * cond_per_binding it runs per binding instead, keeping each binding's
     * error for the rows that use its value (executor_apply.c). The db
     * layer binds again so when the batch form fails (db_run_query), as
     * PostgreSQL raises only the errors of rows that need the value. */
    bool                cond_per_binding;
    bool               *cond_batched;
    /* The query is only described, never run (CREATE TABLE AS ... WITH
     * NO DATA, which PostgreSQL only analyses): uncorrelated subqueries
     * are not planned (their constants not folded) before run_subquery,
     * which then gives their columns without rows. */
    bool                describe_only;
    /* Optional: called with the name of every table and view the query
     * names itself (not those a view it reads names), as CREATE VIEW
     * records them for DROP's dependency checks; CTE names are not
     * relations and are left out. */
    /* Optional out: the domain (its name, NULL: none) each output column
     * of the query's own select list is of: a column of a domain, or a
     * cast to one (CREATE VIEW and CREATE TABLE AS keep them, as
     * PostgreSQL types such columns by the domain); *domains_out NULL
     * when the query is no plain SELECT. In the arena. */
    const char       ***domains_out;
    int                *ndomains_out;
    void              (*on_relation)(void *ctx, const char *name);
    void               *relation_ctx;
    /* Optional out: set true when the query reads a temporary relation
     * (the session's table or view: CREATE VIEW's view is then temporary,
     * db/db_temp.c), as the names resolved, pg_temp.t or t, not public.t. */
    bool               *reads_temp;
    /* Sequence functions (nextval, currval, setval, lastval; the db layer's
     * db_sequence_call). A sequence is host state shared by sessions, so
     * attu calls them when the query is bound, where one call is one
     * value: a SELECT without FROM, a VALUES row, a column DEFAULT (see
     * planner/sequence_functions.c). NULL, or no_side_effects (the query
     * is described, its parameters inferred or it is EXPLAINed, not run):
     * they are typed and give NULL, no sequence changes. */
    attu_sequence_caller sequence_call;
    void               *sequence_ctx;
    /* pg_get_serial_sequence(table, column) (ctx: sequence_ctx): 1 with
     * the owned sequence's qualified name in out, 0 for a column that owns
     * none, -1 with err (42P01, 42703). NULL: the call gives NULL. */
    int               (*serial_sequence)(void *ctx, const char *table, const char *column, char *out, size_t cap,
                                         attu_error *err);
    /* The system catalogs' view of the db layer's objects
     * (planner/system_catalog.c; ctx: sequence_ctx). list_sequences: a
     * snapshot of every sequence, each a copy the caller frees with
     * attu_sequence_free, then the array with free (0; -1 out of memory).
     * view_updatable: whether the view is automatically updatable, and
     * (cols, when not NULL: ncols entries) which of its columns can be
     * assigned (plain column references): what information_schema's
     * is_updatable / is_insertable_into tell. NULL: no sequences, no view
     * updatable. */
    int               (*list_sequences)(void *ctx, struct attu_sequence ***out, int *n);
    bool              (*view_updatable)(void *ctx, const char *view, bool *cols, int ncols);
    bool                no_side_effects;
    /* The db layer's own queries about the statement's relation (a CHECK's
     * or a foreign key's validation, COPY t TO's read, ...): a name
     * written bare reaches the relation the catalog's mode says (the one
     * the statement named public.t or pg_temp.t: engine/catalog.c), not
     * the search path's. */
    bool                bare_names_by_mode;
    /* A session setting's value, as SHOW gives it (name in lower case),
     * or NULL for an unknown one (ctx: setting_ctx): current_setting(). */
    const char        *(*setting)(void *ctx, const char *name);
    /* The same with pg_settings' source and reset_val (name in lower
     * case; the system catalogs). */
    const char        *(*setting_state)(void *ctx, const char *name, const char **source, const char **reset_val);
    /* The i-th of the session's dotted names (myapp.mode), NULL past the
     * last: current_setting over rows. */
    const char        *(*setting_custom)(void *ctx, int i);
    /* set_config(name, value, is_local) (planner/setting_functions.c):
     * sets it (value NULL: back to its reset value) and gives the value
     * kept in *out (malloc'd, the caller frees it); apply false (the
     * query is only described) checks the name only. -1 with err (42704,
     * 55P02, 22023). */
    int               (*set_config)(void *ctx, const char *name, const char *value, bool is_local, bool apply,
                                    char **out, attu_error *err);
    void               *setting_ctx;
    /* pg_cursors' i-th row (the session's open cursors, oldest first;
     * ctx: setting_ctx): false past the last. NULL: none. The strings
     * are the session's, valid while the statement binds. */
    bool              (*cursor_at)(void *ctx, int i, attu_cursor_info *out);
    /* pg_prepared_statements' i-th row (ctx: setting_ctx), as cursor_at */
    bool              (*prepared_at)(void *ctx, int i, attu_prepared_info *out);
    /* Sessions (db/db_activity.c, db/db_notify.c; ctx: setting_ctx).
     * backend_pid: pg_backend_pid(). activity: calls row once per session
     * of the db (pg_stat_activity), the strings valid during the call.
     * signal_backend: pg_cancel_backend / pg_terminate_backend (0 with
     * *ok, -1 with err). notify: pg_notify (-1 with err: 22023).
     * listening_at: the i-th channel the session listens on, NULL past
     * the last. NULL: none of these. */
    uint32_t            backend_pid;
    void              (*activity)(void *ctx, void (*row)(void *rctx, const attu_activity_info *a), void *rctx);
    /* locks: calls row once per table lock held or awaited (pg_locks);
     * blocking: row once per waiting session, with the pids of those it
     * waits for (pg_blocking_pids) */
    void              (*locks)(void *ctx, void (*row)(void *rctx, const attu_lock_info *l), void *rctx);
    void              (*blocking)(void *ctx, void (*row)(void *rctx, uint32_t pid, const uint32_t *pids, int n),
                                  void *rctx);
    int               (*signal_backend)(void *ctx, int64_t pid, bool terminate, int64_t timeout_ms, bool *ok,
                                        attu_error *err);
    int               (*notify)(void *ctx, const char *channel, const char *payload, attu_error *err);
    /* pg_sleep: sleeps seconds, or until a cancel or statement_timeout
     * (-1 with err: 57014) */
    int               (*sleep)(void *ctx, double seconds, attu_error *err);
    /* The advisory lock functions (db/db_advisory.c): op ATTU_ADVISORY_*,
     * space 1 a bigint key, 2 a pair of integers; *result: taken (TRY),
     * held and released (UNLOCK). -1 with err (57014, 55P03) */
    int               (*advisory)(void *ctx, int op, bool shared, bool xact, int space, int64_t key, bool *result,
                                  attu_error *err);
    /* txid_current (assign) / txid_current_if_assigned: the transaction's
     * id, 0 where none was given (db/db_xact_id.c) */
    int64_t           (*xact_id)(void *ctx, bool assign);
    const char       *(*listening_at)(void *ctx, int i);
    /* the session's user and database, as the system catalogs show them
     * (planner/system_catalog.c); NULL: "attu" */
    const char         *user;
    const char         *database;
    /* current_user (SET ROLE's role, else the session user) and
     * session_user (SET SESSION AUTHORIZATION's, else user); NULL: user */
    const char         *current_user;
    const char         *session_user;
    /* Data-modifying WITH queries (db/db_with_modify.c runs them before
     * the query holding them). with_rows answers for cte: 1 with its
     * RETURNING rows in *out (run already), 2 when it is the one running
     * now (a reference to it from its own statement), 0 when it is not
     * one of the statement's top-level WITH queries (so never run), -1
     * with err. describe: the query is only analysed (no_side_effects /
     * describe_only): out->table may stay NULL, the columns' names and
     * types being enough (described with params, the query's). NULL: every data-modifying WITH query is 0. */
    int               (*with_rows)(void *ctx, const attu_ast_cte *cte, bool describe,
                                   const struct attu_bind_params *params, attu_with_rows *out, attu_error *err);
    void               *with_ctx;
    /* The version of table t (top: a temporary table) that the statement
     * reads: the one its data-modifying WITH queries found (they and the
     * main query share one snapshot). NULL: the catalog's. */
    attu_table        *(*read_version)(void *ctx, attu_table *t, bool top);
    void               *read_ctx;
    /* CREATE FUNCTION's check of a SQL function's body (db/db_function.c):
     * the parameters' names (n entries, each NULL when unnamed), which
     * stand for $k where no column of the name is, qualified or not by
     * function_name. NULL otherwise. */
    const char *const  *param_names;
    const char         *function_name;
} attu_bind_params;



/* A column name that finds only the hidden rowid of the table its
 * qualifier names (never a table column called rowid): what DELETE and
 * UPDATE select to know which rows they change (db/db_modify.c). No
 * identifier a user writes holds the \001. */
#define ATTU_ROWID_INTERNAL "\001rowid"

/* Binds a query expression (SELECT / VALUES / set operation). The result's
 * names[] and types[] describe the result columns. */
attu_lplan *attu_bind_query(attu_plan_arena *pa, attu_catalog *cat, const char *sql,
                            const attu_ast_query *q, const attu_bind_params *params,
                            attu_error *err);

/* Binds a constant expression with no FROM (INSERT ... VALUES items, LIMIT)
 * coerced to `want` (UNKNOWN = its own type). */
attu_bexpr *attu_bind_const_expr(attu_plan_arena *pa, const char *sql, const attu_ast_expr *e,
                                 attu_type want, const attu_bind_params *params, attu_error *err);

/* Coerces a bound expression to type t (assignment rules: explicit casts
 * between numeric types allowed, as INSERT does). NULL with 42804 if no
 * cast exists. */
attu_bexpr *attu_bind_coerce_assign(attu_plan_arena *pa, attu_bexpr *e, attu_type t,
                                    const char *colname, attu_error *err);

#endif
