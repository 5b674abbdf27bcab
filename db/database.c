/*
 * database.c - attu as a library: the catalog behind a reader-writer lock,
 * sessions, and statement execution (see database.h).
 *
 * A statement goes parse -> bind -> rewrite -> lower -> execute. Queries
 * hold the read lock from binding to the end of execution, so the tables
 * they read cannot be replaced under them; CREATE, DROP, INSERT, COPY and
 * CTAS build the new table beside the old one and swap it into their
 * transaction's working catalog (db_txn.c), which COMMIT saves and then
 * publishes under the write lock: a failure at any step leaves the
 * committed catalog and the disk as they were.
 */
#include "db/database.h"
#include "db/db_internal.h"
#include "db/db_role.h"
#include "db/db_domain_check.h"
#include "engine/enum_type.h"
#include "db/db_index.h"
#include "db/db_keyed_select.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "engine/csv_reader.h"
#include "engine/timezone.h"
#include "engine/storage.h"
#include "planner/explain.h"
#include "planner/lower.h"
#include "planner/rewrite.h"

#ifndef ATTU_HAVE_CUDA
/* Weak: present only when gpu/ provides the GPU backend. (With CUDA the
 * reference must be strong: a weak one would not pull gpu/backend's object
 * out of its static library, and the GPU would never be used.) */
extern attu_backend *attu_backend_gpu_new(size_t memory_budget, attu_error *err) __attribute__((weak));
#endif

/* Every INSERT, UPDATE or DELETE builds its table's new version as whole
 * columns and frees the old ones: with glibc's defaults the freed megabytes
 * went back to the kernel at once (the heap trimmed, a large chunk
 * unmapped) and the next version's first touch of each page faulted them
 * back in, twice the copy's own time for a one-row INSERT into a 1M-row
 * table. Buffers up to 32 MB come from the heap, and up to 256 MB of it
 * stays mapped between statements. (Process-wide: set once.) */
static void keep_freed_memory(void) {
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

attu_db *attu_db_open(const attu_db_config *cfg, attu_error *err) {
    static pthread_once_t malloc_once = PTHREAD_ONCE_INIT;
    pthread_once(&malloc_once, keep_freed_memory);
    attu_db *db = calloc(1, sizeof *db);
    if (!db) { attu_error_oom(err); return NULL; }
    db->cat = attu_catalog_new();
    pthread_rwlock_init(&db->lock, NULL);
    db_txn_init(db);
    db_activity_init(db);
    db_advisory_init(db);
    if (!db->cat) { attu_error_oom(err); goto fail; }
    if (cfg && cfg->data_dir) db->data_dir = strdup(cfg->data_dir);
    if (cfg && cfg->load_dir) db->load_dir = strdup(cfg->load_dir);
    attu_device_choice dev = cfg ? cfg->device : ATTU_DEVICE_AUTO;
    if (dev != ATTU_DEVICE_CPU) {
        attu_error gerr;
        attu_error_clear(&gerr);
#ifdef ATTU_HAVE_CUDA
        db->be = attu_backend_gpu_new(cfg ? cfg->gpu_memory_budget : 0, &gerr);
#else
        if (attu_backend_gpu_new) db->be = attu_backend_gpu_new(cfg ? cfg->gpu_memory_budget : 0, &gerr);
        else attu_error_set(&gerr, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "this build has no GPU backend");
#endif
        if (!db->be && dev == ATTU_DEVICE_GPU) {
            attu_error_set(err, gerr.sqlstate, 0, "no usable GPU: %s", gerr.message);
            goto fail;
        }
    }
    if (!db->be) db->be = attu_backend_cpu_new(cfg ? cfg->threads : 0, err);
    if (!db->be) goto fail;
    if (db->data_dir) {
        if (attu_storage_open(db->data_dir, err)) goto fail;
        if (attu_storage_load_all(db->data_dir, db->cat, err) < 0) goto fail;
        if (attu_storage_load_views(db->data_dir, db->cat, err) < 0) goto fail;
        if (attu_storage_load_indexes(db->data_dir, db->cat, err) < 0) goto fail;
        if (attu_storage_load_comments(db->data_dir, attu_catalog_comments(db->cat), err) < 0) goto fail;
    }
    if (db_sequences_open(db, err)) goto fail;
    return db;
fail:
    attu_db_close(db);
    return NULL;
}

void attu_db_close(attu_db *db) {
    if (!db) return;
    if (db->cat) attu_catalog_free(db->cat);
    db_sequences_close(db);
    if (db->be) db->be->destroy(db->be);
    pthread_rwlock_destroy(&db->lock);
    db_txn_destroy(db);
    db_activity_destroy(db);
    db_advisory_destroy(db);
    free(db->data_dir);
    free(db->load_dir);
    free(db);
}

const char *attu_db_device_description(const attu_db *db) {
    return db->be->name;
}

/* ---- results ------------------------------------------------------------------ */

void attu_result_free(attu_result *res) {
    if (!res) return;
    for (int i = 0; i < res->ncols; i++) attu_column_free(res->cols[i]);
    free(res->cols);
    free(res->desc);
    free(res);
}

attu_result *db_result_new(int ncols) {
    attu_result *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->ncols = ncols;
    r->cols = calloc((size_t)ncols + 1, sizeof *r->cols);
    r->desc = calloc((size_t)ncols + 1, sizeof *r->desc);
    if (!r->cols || !r->desc) { attu_result_free(r); return NULL; }
    return r;
}

/* A TEXT column from C strings (NULL entries are SQL NULL). */
attu_column *db_text_column(const char *const *strs, size_t n, attu_error *err) {
    attu_column *c = attu_column_new(attu_type_make(ATTU_TYPE_TEXT), n ? n : 1, err);
    if (!c) return NULL;
    const char **s = malloc(sizeof *s * (n ? n : 1));
    size_t *l = malloc(sizeof *l * (n ? n : 1));
    if (!s || !l) { free(s); free(l); attu_column_free(c); attu_error_oom(err); return NULL; }
    for (size_t i = 0; i < n; i++) { s[i] = strs[i] ? strs[i] : ""; l[i] = strlen(s[i]); }
    attu_dictionary *d = attu_dictionary_build(s, l, n, (int32_t *)c->data, err);
    free(s); free(l);
    if (!d) { attu_column_free(c); return NULL; }
    attu_dictionary_unref(c->dict);
    c->dict = d;
    c->length = n;
    for (size_t i = 0; i < n; i++) if (!strs[i]) {
        if (attu_column_ensure_validity(c, err)) { attu_column_free(c); return NULL; }
        attu_column_set_null(c, i, true);
        ((int32_t *)c->data)[i] = 0;
    }
    return c;
}

attu_result *db_explain_result(char *const *lines, int nl, attu_error *err) {
    attu_result *r = db_result_new(1);
    attu_column *c = r ? db_text_column((const char *const *)lines, (size_t)nl, err) : NULL;
    if (!c) {
        attu_result_free(r);
        if (!err->set) attu_error_oom(err);
        return NULL;
    }
    r->cols[0] = c; r->nrows = (size_t)nl; r->returns_rows = true;
    snprintf(r->desc[0].name, sizeof r->desc[0].name, "QUERY PLAN");
    r->desc[0].type = attu_type_make(ATTU_TYPE_TEXT);
    snprintf(r->tag, sizeof r->tag, "EXPLAIN");
    return r;
}

/* ---- sessions --------------------------------------------------------------------- */

attu_session *attu_session_new(attu_db *db) {
    attu_session *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->db = db;
    s->txn = 'I';
    db_activity_add(s);   /* (pg_stat_activity lists it from now on) */
    return s;
}

void attu_session_free(attu_session *s) {
    if (!s) return;
    db_txn_rollback(s);   /* a transaction left open ends with its session */
    db_notify_session_end(s);
    db_advisory_session_end(s);   /* (every advisory lock it holds) */
    db_cursors_free(s);
    db_temp_session_end(s);   /* (its temporary tables go with it) */
    db_settings_free(s);
    db_prepared_names_free(s);
    db_seq_session_free(s);
    db_activity_remove(s);
    db_with_described_free(s);
    attu_random_forget(&s->rng);   /* (this thread's pointer to it, if any) */
    free(s);
}

void attu_session_set_identity(attu_session *s, const char *user, const char *database) {
    snprintf(s->user, sizeof s->user, "%s", user ? user : "");
    snprintf(s->database, sizeof s->database, "%s", database ? database : "");
    /* is_superuser's reset value: the committed catalog, read under its lock */
    attu_role r;
    bool found = false;
    pthread_rwlock_rdlock(&s->db->lock);
    if (s->user[0]) found = attu_role_find(attu_catalog_comments(s->db->cat), s->user, &r);
    pthread_rwlock_unlock(&s->db->lock);
    s->login_not_super = found && !r.super;
    if (found) attu_role_clear(&r);
}

char attu_session_txn_status(const attu_session *s) { return s->txn; }

uint64_t attu_session_blocks_ended(const attu_session *s) { return s->blocks_ended; }

void attu_session_txn_failed(attu_session *s) {
    if (s->txn == 'T') db_txn_failed(s);
    else if (s->txn == 'I' && s->ext_implicit) {   /* the implicit transaction up to Sync fails */
        db_txn_rollback(s);
        db_cursors_txn_end(s, false);
        db_session_txn_ended(s);
        s->ext_implicit = false;
    }
}

int attu_session_sync(attu_session *s, attu_error *err) {
    if (s->txn != 'I') { db_activity_end(s); return 0; }
    s->ext_implicit = false;
    int rc = db_txn_active(s) ? db_txn_commit(s, err) : 0;
    db_cursors_txn_end(s, rc == 0);
    db_session_txn_ended(s);
    db_activity_end(s);
    return rc;
}

void attu_session_cancel(attu_session *s) { __atomic_store_n(&s->cancel, 1, __ATOMIC_SEQ_CST); }

int attu_session_statement_timeout_ms(const attu_session *s) { return s->statement_timeout_ms; }

const char *attu_session_timezone(const attu_session *s) { return attu_tz_name(s->timezone ? s->timezone : attu_tz_utc()); }

void attu_session_use_zone(const attu_session *s) {
    attu_tz_set_session(s->timezone ? s->timezone : attu_tz_utc());
    attu_datestyle_set_session(s->datestyle);   /* (it shows values too) */
}

void db_statement_begins(attu_session *s, bool new_txn) {
    s->stmt_start_ms = attu_now_ms();
    /* now() is the transaction's start, the same for each of its statements */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t now = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
    if (new_txn || !s->txn_start_us) s->txn_start_us = now;
    if (new_txn) s->snapshot_taken = false;
    attu_session_use_zone(s);
    attu_random_use(&s->rng);
    attu_tz_set_txn_start(s->txn_start_us);
    attu_tz_set_stmt_start(now);
    db_activity_times(s, now, s->txn_start_us);   /* (pg_stat_activity's query_start, xact_start) */
}

/* ---- running queries ------------------------------------------------------------------- */

/* Runs an uncorrelated subquery for the binder (folded to constants). */
int db_subquery_runner(void *ctx, attu_lplan *plan, attu_column ***cols, size_t *nrows, attu_error *err) {
    attu_session *s = ctx;
    attu_stage *st = attu_lower(plan, err);
    if (!st) return -1;
    int rc = db_run_stage(s, st, false, cols, nrows, err);
    attu_stage_free(st);
    return rc;
}

attu_bind_params db_params(attu_session *s, const attu_bind_params *params) {
    attu_bind_params bp;
    memset(&bp, 0, sizeof bp);
    if (params) bp = *params;
    bp.run_subquery = db_subquery_runner;
    bp.run_ctx = s;
    bp.sequence_call = db_sequence_call;
    bp.serial_sequence = db_serial_sequence;
    bp.list_sequences = db_sequences_list;
    bp.view_updatable = db_view_updatable;
    bp.sequence_ctx = s;
    bp.setting = db_setting_value;
    bp.setting_state = db_setting_state;
    bp.setting_custom = db_setting_custom;
    bp.set_config = db_set_config;
    bp.cursor_at = db_cursor_at;
    bp.prepared_at = db_prepared_at;
    bp.setting_ctx = s;
    bp.user = s->user;
    bp.database = s->database;
    bp.current_user = db_current_user_name(s);
    bp.session_user = db_session_user_name(s);
    bp.backend_pid = s->pid;
    bp.activity = db_activity_rows;
    bp.locks = db_lock_rows;
    bp.blocking = db_lock_blocking;
    bp.signal_backend = db_signal_backend;
    bp.sleep = db_sleep;
    bp.advisory = db_advisory_call;
    bp.xact_id = db_xact_id;
    bp.notify = db_notify_call;
    bp.listening_at = db_listening_at;
    if (!bp.with_rows) { bp.with_rows = db_with_rows; bp.with_ctx = s; }
    db_with_read_hooks(s, &bp);
    return bp;
}

/* Binds, rewrites and lowers a query; the caller holds the read lock. */
attu_stage *db_plan_query(attu_session *s, const char *sql, const attu_ast_query *q,
                          const attu_bind_params *params, attu_plan_arena *pa,
                          attu_lplan **lp_out, attu_error *err) {
    attu_bind_params bp = db_params(s, params);
    attu_lplan *lp = attu_bind_query(pa, db_cat(s), sql, q, &bp, err);
    if (!lp) return NULL;
    if (q->lock_strength && db_lock_clause_check(q, lp, err)) return NULL;   /* (FOR UPDATE ...: db_lock_clause.c) */
    lp = attu_rewrite(pa, lp, err);
    if (!lp) return NULL;
    if (lp_out) *lp_out = lp;
    return attu_lower(lp, err);
}

int db_run_stage(attu_session *s, attu_stage *st, bool analyze, attu_column ***cols, size_t *nrows, attu_error *err) {
    attu_exec_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.be = s->db->be;
    ctx.cancel = &s->cancel;
    ctx.analyze = analyze;
    if (s->statement_timeout_ms > 0) ctx.deadline_ms = s->stmt_start_ms + s->statement_timeout_ms;
    ctx.max_recursive_rows = s->max_recursive_rows;
    return attu_execute(&ctx, st, cols, nrows, err);
}

/* Whether a failed run of a query whose conditional subqueries ran in
 * their batch form (attu_bind_params' cond_batched) runs again with them
 * per binding: for errors of the data, not of resources or cancellation. */
bool db_retry_per_binding(bool batched, const attu_error *err) {
    const char *st = err->sqlstate;
    return batched && err->set && strncmp(st, "53", 2) && strncmp(st, "54", 2) && strncmp(st, "57", 2) &&
           strncmp(st, "58", 2) && strncmp(st, "XX", 2);
}

static attu_result *run_query_once(attu_session *s, const char *sql, const attu_ast_query *q,
                                   const attu_bind_params *params, attu_error *err);

/* Runs a query to a result (names and types from the plan). A subquery
 * that only some rows reach runs in its batch form, for every outer row;
 * when that fails, the query runs again with it per binding, where only
 * the rows that use its value raise its errors (PostgreSQL's result). */
const attu_bind_params db_own_query_params = { .bare_names_by_mode = true };

attu_result *db_run_query(attu_session *s, const char *sql, const attu_ast_query *q,
                          const attu_bind_params *params, attu_error *err) {
    attu_bind_params bp;
    memset(&bp, 0, sizeof bp);
    if (params) bp = *params;
    bool batched = false;
    bp.cond_batched = &batched;
    attu_result *res = run_query_once(s, sql, q, &bp, err);
    if (res || !db_retry_per_binding(batched, err)) return res;
    attu_error_clear(err);
    bp.cond_per_binding = true;
    bp.cond_batched = NULL;
    return run_query_once(s, sql, q, &bp, err);
}

static attu_result *run_query_once(attu_session *s, const char *sql, const attu_ast_query *q,
                                   const attu_bind_params *params, attu_error *err) {
    attu_plan_arena *pa = attu_plan_arena_new();
    if (!pa) { attu_error_oom(err); return NULL; }
    attu_lplan *lp = NULL;
    attu_result *res = NULL;
    attu_stage *st = db_plan_query(s, sql, q, params, pa, &lp, err);
    if (st) {
        attu_column **cols = NULL;
        size_t n = 0;
        if (!db_run_stage(s, st, false, &cols, &n, err)) {
            res = calloc(1, sizeof *res);
            attu_result_column *desc = calloc((size_t)lp->ncols + 1, sizeof *desc);
            if (!res || !desc) {
                free(res); free(desc); res = NULL;
                for (int i = 0; i < lp->ncols; i++) attu_column_free(cols[i]);
                free(cols);
                attu_error_oom(err);
            } else {
                res->ncols = lp->ncols; res->cols = cols; res->nrows = n; res->desc = desc;
                res->returns_rows = true;
                for (int i = 0; i < lp->ncols; i++) {
                    snprintf(desc[i].name, sizeof desc[i].name, "%s", lp->names[i] ? lp->names[i] : "?column?");
                    desc[i].type = lp->types[i];
                }
                snprintf(res->tag, sizeof res->tag, "SELECT %zu", n);
            }
        }
        attu_stage_free(st);
    }
    attu_plan_arena_free(pa);
    return res;
}

static int deliver(const attu_exec_callbacks *cb, attu_result *res) {
    int rc = 0;
    if (cb && cb->on_result) rc = cb->on_result(cb->ctx, res);
    if (rc != ATTU_RESULT_KEEP) attu_result_free(res);
    return rc == ATTU_RESULT_KEEP ? 0 : rc;
}

int db_deliver_tag(const attu_exec_callbacks *cb, const char *tag, attu_error *err) {
    attu_result *r = db_result_new(0);
    if (!r) return attu_error_oom(err);
    snprintf(r->tag, sizeof r->tag, "%s", tag);
    return deliver(cb, r);
}

int db_deliver(const attu_exec_callbacks *cb, attu_result *res) { return deliver(cb, res); }

void db_warning(const attu_exec_callbacks *cb, const char *sqlstate, const char *message) {
    if (!cb) return;
    if (cb->on_warning) cb->on_warning(cb->ctx, sqlstate, message);
    else if (cb->on_notice) cb->on_notice(cb->ctx, sqlstate, message);
}

/* ---- EXPLAIN ------------------------------------------------------------------------------ */

/* EXPLAIN ANALYZE of INSERT and CREATE TABLE AS runs the statement, as
 * PostgreSQL's does (the rows are inserted, the table is created): the
 * statement goes through its own path, its command tag is kept, and its
 * notices and warnings go to the caller. */
typedef struct {
    const attu_exec_callbacks *outer;
    char tag[64];
} explain_run;

static int explain_run_result(void *ctx, attu_result *r) {
    explain_run *x = ctx;
    snprintf(x->tag, sizeof x->tag, "%s", r->tag);
    return 0;
}
static void explain_run_notice(void *ctx, const char *sqlstate, const char *message) {
    explain_run *x = ctx;
    if (x->outer && x->outer->on_notice) x->outer->on_notice(x->outer->ctx, sqlstate, message);
}
static void explain_run_warning(void *ctx, const char *sqlstate, const char *message) {
    explain_run *x = ctx;
    db_warning(x->outer, sqlstate, message);
}

static int exec_explain(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                        const attu_exec_callbacks *cb, attu_error *err) {
    const attu_ast_stmt *inner = st->u.explain.stmt;
    /* ANALYZE of a statement that writes: run it first (it takes the write
     * lock itself), then show the plan of its rows with the total time and
     * its tag. The stages are not instrumented on that path, so the plan
     * lines carry estimates only. */
    bool writes = st->u.explain.analyze &&
                  (inner->kind == ATTU_STMT_INSERT || inner->kind == ATTU_STMT_CREATE_TABLE_AS);
    explain_run run;
    double run_ms = 0;
    if (writes) {
        memset(&run, 0, sizeof run);
        run.outer = cb;
        attu_exec_callbacks rcb;
        memset(&rcb, 0, sizeof rcb);
        rcb.ctx = &run;
        rcb.on_result = explain_run_result;
        rcb.on_notice = explain_run_notice;
        rcb.on_warning = explain_run_warning;
        double t0 = attu_now_ms();
        int r = db_exec_stmt(s, sql, inner, params, &rcb, err);
        run_ms = attu_now_ms() - t0;
        if (r) return r;
    }
    const attu_ast_query *q = NULL;
    db_seq_fill fill;   /* the plan of what would be filled: stand-ins, nothing drawn */
    memset(&fill, 0, sizeof fill);
    if (inner->kind == ATTU_STMT_SELECT) q = inner->u.select.query;
    else if (inner->kind == ATTU_STMT_CREATE_TABLE_AS) q = inner->u.create_table_as.query;
    else if (inner->kind == ATTU_STMT_INSERT) q = inner->u.insert.source;   /* NULL: DEFAULT VALUES, below */
    if (!q && inner->kind != ATTU_STMT_INSERT) return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, inner->position, "EXPLAIN of %s is not supported",
                                  attu_ast_stmt_kind_name(inner->kind));
    pthread_rwlock_rdlock(&s->db->lock);
    /* INSERT ... VALUES with DEFAULT items: explain the VALUES with each
     * DEFAULT replaced as the INSERT replaces it; DEFAULT VALUES: one row */
    db_values_copy vcopy;
    memset(&vcopy, 0, sizeof vcopy);
    if (inner->kind == ATTU_STMT_INSERT) {
        if (db_insert_values_defaults(s, inner, &vcopy, err)) {
            pthread_rwlock_unlock(&s->db->lock);
            return -1;
        }
        q = vcopy.q;
    }
    q = db_seq_fill_prepare(s, q, NULL, 0, &fill);
    attu_plan_arena *pa = attu_plan_arena_new();
    int rc = -1;
    /* a plan only shown (or of a statement that ran already) calls no
     * nextval; EXPLAIN ANALYZE of a query runs it, so it does */
    attu_bind_params ep;
    memset(&ep, 0, sizeof ep);
    if (params) ep = *params;
    ep.no_side_effects = !st->u.explain.analyze || writes;
    attu_stage *plan = pa ? db_plan_query(s, sql, q, &ep, pa, NULL, err) : NULL;
    if (!pa) attu_error_oom(err);
    if (plan) {
        rc = 0;
        double t0 = 0, total = 0;
        if (st->u.explain.analyze && !writes) {
            attu_column **cols = NULL;
            size_t n = 0;
            t0 = attu_now_ms();
            rc = db_run_stage(s, plan, true, &cols, &n, err);
            total = attu_now_ms() - t0;
            if (!rc) { for (int i = 0; i < plan->ncols; i++) attu_column_free(cols[i]); free(cols); }
        }
        char **lines = NULL;
        int nl = 0;
        if (!rc && attu_explain(plan, st->u.explain.analyze && !writes,
                                s->db->be->kind == ATTU_DEVICE_KIND_GPU ? "GPU" : "CPU", &lines, &nl) < 0)
            rc = attu_error_oom(err);
        if (!rc && writes) {
            /* what the statement did, first: "INSERT 0 3 (the statement ran)" */
            char buf[160];
            snprintf(buf, sizeof buf, "%s (the statement ran)", run.tag);
            char **n2 = realloc(lines, sizeof(char *) * (size_t)(nl + 1));
            char *line = strdup(buf);
            if (!n2 || !line) { free(line); if (n2) lines = n2; rc = attu_error_oom(err); }
            else {
                lines = n2;
                memmove(lines + 1, lines, sizeof(char *) * (size_t)nl);
                lines[0] = line;
                nl++;
            }
            total = run_ms;
        }
        if (!rc && st->u.explain.analyze) {
            char buf[128];
            snprintf(buf, sizeof buf, "Execution Time: %.3f ms on %s", total, s->db->be->name);
            char **n2 = realloc(lines, sizeof(char *) * (size_t)(nl + 1));
            if (n2) { lines = n2; lines[nl++] = strdup(buf); }
        }
        if (!rc) {
            attu_result *r = db_explain_result(lines, nl, err);
            if (!r) rc = -1;
            else {
                pthread_rwlock_unlock(&s->db->lock);
                for (int i = 0; i < nl; i++) free(lines[i]);
                free(lines);
                attu_stage_free(plan);
                attu_plan_arena_free(pa);
                db_values_copy_free(&vcopy);
                db_seq_fill_free(&fill);
                return deliver(cb, r) ? -2 : 0;
            }
        }
        for (int i = 0; i < nl; i++) free(lines[i]);
        free(lines);
        attu_stage_free(plan);
    }
    attu_plan_arena_free(pa);
    db_values_copy_free(&vcopy);
    db_seq_fill_free(&fill);
    pthread_rwlock_unlock(&s->db->lock);
    return rc;
}

/* ---- statements --------------------------------------------------------------------------- */

/* Whether the statement text at 1-based character position pos starts with
 * keyword kw (lower case) as a whole word. The AST gives BEGIN and START
 * TRANSACTION one kind; PostgreSQL's CommandComplete tags tell them apart. */
static bool starts_with_keyword(const char *sql, int pos, const char *kw) {
    if (!sql || pos < 1) return false;
    const unsigned char *p = (const unsigned char *)sql;
    for (int ch = 1; ch < pos && *p; ch++) {          /* characters, not bytes */
        p++;
        while ((*p & 0xC0) == 0x80) p++;
    }
    size_t n = strlen(kw);
    if (strncasecmp((const char *)p, kw, n)) return false;
    return !(isalnum(p[n]) || p[n] == '_' || p[n] >= 0x80);
}

/* Whether st is an INSERT, UPDATE or DELETE whose target is a view. */
static bool explains_view_dml(attu_session *s, const attu_ast_stmt *st) {
    if (st->kind == ATTU_STMT_INSERT) return db_names_view(s, st->u.insert.table);
    if (st->kind == ATTU_STMT_UPDATE || st->kind == ATTU_STMT_DELETE) return db_names_view(s, st->u.modify.table);
    return false;
}

/* BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE, ROLLBACK TO (db_txn.c
 * keeps the transaction's work). */
static int exec_transaction(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                            attu_error *err) {
    const char *sp = st->u.transaction.savepoint;
    switch (st->u.transaction.kind) {
    case ATTU_TXN_BEGIN:
        if (s->txn != 'I') db_warning(cb, "25001", "there is already a transaction in progress");
        /* (what an implicit block did so far belongs to this one now, its
         * settings and its changes) */
        s->txn = 'T';
        if (db_settings_txn_modes(s, (const char *const *)st->u.transaction.modes, st->u.transaction.nmodes, false, err))
            return -1;
        return db_deliver_tag(cb, starts_with_keyword(sql, st->position, "start") ? "START TRANSACTION" : "BEGIN", err) ? -2 : 0;
    case ATTU_TXN_SAVEPOINT:
        if (s->txn == 'I') return attu_error_set(err, "25P01", 0, "SAVEPOINT can only be used in transaction blocks");
        if (db_txn_savepoint(s, sp, err)) return -1;
        return db_deliver_tag(cb, "SAVEPOINT", err) ? -2 : 0;
    case ATTU_TXN_RELEASE:
        if (s->txn == 'I') return attu_error_set(err, "25P01", 0, "RELEASE SAVEPOINT can only be used in transaction blocks");
        if (db_txn_release(s, sp, err)) return -1;
        db_cursors_release(s, db_txn_savepoints(s));
        return db_deliver_tag(cb, "RELEASE", err) ? -2 : 0;
    case ATTU_TXN_ROLLBACK_TO:
        if (s->txn == 'I')
            return attu_error_set(err, "25P01", 0, "ROLLBACK TO SAVEPOINT can only be used in transaction blocks");
        if (db_txn_rollback_to(s, sp, err)) return -1;
        db_cursors_rollback_to(s, db_txn_savepoints(s));
        s->txn = 'T';   /* an aborted block is usable again */
        return db_deliver_tag(cb, "ROLLBACK", err) ? -2 : 0;
    case ATTU_TXN_COMMIT: case ATTU_TXN_ROLLBACK:
        break;
    }
    bool was_failed = s->txn == 'E', in_block = s->txn != 'I';
    bool commit = st->u.transaction.kind == ATTU_TXN_COMMIT && !was_failed;
    if (!in_block && st->u.transaction.chain)
        return attu_error_set(err, "25P01", 0, "%s AND CHAIN can only be used in transaction blocks",
                              st->u.transaction.kind == ATTU_TXN_COMMIT ? "COMMIT" : "ROLLBACK");
    if (!in_block) db_warning(cb, "25P01", "there is no transaction in progress");
    /* AND CHAIN: the next block has this one's characteristics, as in
     * PostgreSQL (its level, read-only and deferrable modes; a failed
     * block's went with its failure: the defaults) */
    char chain_modes[3][24];
    const char *modes[3] = { chain_modes[0], chain_modes[1], chain_modes[2] };
    if (in_block && !was_failed && st->u.transaction.chain) {
        const char *iso = db_setting_value(s, "transaction_isolation");
        const char *ro = db_setting_value(s, "transaction_read_only");
        const char *df = db_setting_value(s, "transaction_deferrable");
        snprintf(chain_modes[0], sizeof chain_modes[0], "%s", iso ? iso : "read committed");
        snprintf(chain_modes[1], sizeof chain_modes[1], "%s", ro && !strcmp(ro, "on") ? "read only" : "read write");
        snprintf(chain_modes[2], sizeof chain_modes[2], "%s", df && !strcmp(df, "on") ? "deferrable" : "not deferrable");
    }
    s->txn = 'I';
    /* (outside a block it ends the implicit block's transaction so far) */
    int rc = 0;
    if (commit) rc = db_txn_commit(s, err);
    else db_txn_rollback(s);
    db_cursors_txn_end(s, commit && !rc);
    db_session_txn_ended(s);
    s->blocks_ended++;
    db_settings_end_block(s, commit && !rc);
    if (rc) return -1;
    /* (AND CHAIN: a new transaction, whose first query takes its snapshot) */
    s->snapshot_taken = false;
    if (in_block && st->u.transaction.chain) {
        s->txn = 'T';
        if (!was_failed && db_settings_txn_modes(s, modes, 3, false, err)) return -1;
    }
    return db_deliver_tag(cb, commit ? "COMMIT" : "ROLLBACK", err) ? -2 : 0;
}

/* Whether st changes the catalog (its transaction takes the write locks
 * before it runs: db_txn_lock_stmt). */
static bool stmt_writes(attu_session *s, const attu_ast_stmt *st) {
    switch (st->kind) {
    case ATTU_STMT_COMMENT: case ATTU_STMT_TYPE: case ATTU_STMT_ROLE: return true;
    case ATTU_STMT_UPDATE: return !db_updates_pg_settings(s, st);   /* (pg_settings: SET) */
    case ATTU_STMT_EXPLAIN: return st->u.explain.analyze && stmt_writes(s, st->u.explain.stmt);
    case ATTU_STMT_CREATE_TABLE_AS: return !st->u.create_table_as.execute;   /* (EXECUTE's run comes back here) */
    /* FOR UPDATE / SHARE: its locks are the database's (db_lock_clause.c) */
    case ATTU_STMT_SELECT: return st->u.select.query && st->u.select.query->lock_strength;
    case ATTU_STMT_DECLARE_CURSOR: return st->u.cursor.query && st->u.cursor.query->lock_strength;
    default: return db_writing_command(s, st) != NULL;
    }
}

static int exec_stmt(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                     const attu_exec_callbacks *cb, attu_error *err);

static attu_catalog *session_catalog(void *ctx) { return db_cat(ctx); }
attu_enum_source db_enum_source(attu_session *s) {
    attu_enum_source src = { session_catalog, s };
    return src;
}

/* Runs st with the thread's enum lookups (engine/enum_type.h: type names
 * resolved where no catalog is at hand) pointed at the session's catalog.
 * (Whether the statement took its locks is the statement's own: one that
 * runs another, EXECUTE or a temporary table's, keeps its own.) */
int db_exec_stmt(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                 const attu_exec_callbacks *cb, attu_error *err) {
    attu_enum_source was = attu_enum_use(db_enum_source(s));
    bool locked = s->stmt_locked;
    s->stmt_locked = false;
    int rc = exec_stmt(s, sql, st, params, cb, err);
    s->stmt_locked = locked;
    attu_enum_use(was);
    return rc;
}

static int exec_stmt(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                     const attu_exec_callbacks *cb, attu_error *err) {
    /* data-modifying WITH queries: they run first, then st (db_with_modify.c) */
    if (db_with_modify_wants(s, st)) return db_exec_with_modify(s, sql, st, params, cb, err);
    /* temporary tables: the session's catalog of them first (db_temp.c) */
    if (db_temp_stmt_wants(s, st)) return db_temp_exec_stmt(s, sql, st, params, cb, err);
    /* a read-only transaction writes nothing (db_settings.c) */
    if (db_refuse_if_read_only(s, st, err)) return -1;
    /* a query: the transaction's modes are fixed from here on, as
     * PostgreSQL's first snapshot fixes them (db_settings.c), and a
     * REPEATABLE READ or SERIALIZABLE transaction (a block, a query
     * string's implicit one, a statement of its own) keeps the committed
     * data as it is now (db_txn.c) */
    if (st->kind != ATTU_STMT_SET && st->kind != ATTU_STMT_RESET && st->kind != ATTU_STMT_SHOW &&
        st->kind != ATTU_STMT_TRANSACTION && st->kind != ATTU_STMT_SHOW_TABLES && st->kind != ATTU_STMT_DESCRIBE &&
        st->kind != ATTU_STMT_EXECUTE && st->kind != ATTU_STMT_FETCH &&   /* (FETCH reads its cursor's rows) */
        st->kind != ATTU_STMT_SET_CONSTRAINTS &&
        st->kind != ATTU_STMT_LOCK) {   /* (LOCK: the snapshot comes after it, as PostgreSQL's) */
        s->snapshot_taken = true;
        if (db_txn_snapshot(s, err)) return -1;
        /* (READ COMMITTED: what others committed meanwhile, under the
         * transaction's own changes) */
        if (db_txn_refresh(s, err)) return -1;
    }
    /* a statement that writes works in its transaction's own catalog,
     * holding the write locks of the tables it changes (waiting for
     * another transaction writing them to end; DDL: for every one); one
     * behind a snapshot may not write what others changed since */
    if (stmt_writes(s, st) && (db_txn_lock_stmt(s, st, err) || db_txn_check_write(s, st, err))) return -1;
    /* a materialized view changes only by REFRESH (db_matview.c) */
    if (db_matview_refuse(s, st, err)) return -1;
    switch (st->kind) {
    case ATTU_STMT_SELECT: {
        pthread_rwlock_rdlock(&s->db->lock);
        /* nextval('s') items over rows: numbers filled in per row */
        db_seq_fill fill;
        const attu_ast_query *q = db_seq_fill_prepare(s, st->u.select.query, NULL, 0, &fill);
        /* pg_terminate_backend(pid) ... over rows: called per row */
        db_signal_fill sfill;
        q = db_signal_fill_prepare(q, &sfill);
        /* a WHERE that names one row by its key: the query reads that row
         * alone, found through the key set (db_keyed_select.c) */
        db_key_copy *keyed = NULL;
        attu_bind_params kp;
        int kr = db_keyed_select_find(s, sql, q, params, &keyed, err);
        if (kr > 0) {
            memset(&kp, 0, sizeof kp);
            if (params) kp = *params;
            db_key_copy_params(keyed, &kp);
        }
        attu_result *r = kr < 0 ? NULL : db_run_query(s, sql, q, kr > 0 ? &kp : params, err);
        db_key_copy_free(keyed);
        if (r && db_seq_fill_apply(s, &fill, r->cols, r->nrows, err)) { attu_result_free(r); r = NULL; }
        db_seq_fill_free(&fill);
        pthread_rwlock_unlock(&s->db->lock);
        if (r && db_signal_fill_apply(s, &sfill, r, err)) { attu_result_free(r); r = NULL; }
        db_signal_fill_free(&sfill);
        if (!r) return -1;
        db_flush_warnings(s, cb);   /* (pg_cancel_backend's, before the row) */
        return deliver(cb, r) ? -2 : 0;
    }
    case ATTU_STMT_EXPLAIN:
        if (st->u.explain.stmt->kind == ATTU_STMT_EXECUTE)
            return db_exec_execute(s, sql, st->u.explain.stmt, st, cb, err);
        if (st->u.explain.stmt->kind == ATTU_STMT_CREATE_TABLE_AS && st->u.explain.stmt->u.create_table_as.execute)
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, st->u.explain.stmt->position,
                                  "EXPLAIN of CREATE TABLE AS EXECUTE is not supported");
        if (explains_view_dml(s, st->u.explain.stmt)) {
            /* EXPLAIN of a change through a view: of the statement on the
             * view's relation (db_view_update.c) */
            db_view_rewrite rw;
            const attu_ast_stmt *inner;
            int rc = db_view_rewrite_dml(s, st->u.explain.stmt, &rw, &inner, err);
            if (!rc) {
                attu_ast_stmt ex = *st;
                ex.u.explain.stmt = (attu_ast_stmt *)inner;
                rc = db_exec_stmt(s, sql, &ex, params, cb, err);
            }
            db_view_rewrite_free(&rw);
            return rc;
        }
        if (st->u.explain.stmt->kind == ATTU_STMT_DELETE || st->u.explain.stmt->kind == ATTU_STMT_UPDATE)
            return db_explain_modify(s, sql, st, params, cb, err);
        if (st->u.explain.stmt->kind == ATTU_STMT_MERGE) return db_explain_merge(s, sql, st, params, cb, err);
        return exec_explain(s, sql, st, params, cb, err);
    case ATTU_STMT_PREPARE: return db_exec_prepare(s, sql, st, cb, err);
    case ATTU_STMT_EXECUTE: return db_exec_execute(s, sql, st, NULL, cb, err);
    case ATTU_STMT_CREATE_TABLE: return db_exec_create(s, sql, st, cb, err);
    case ATTU_STMT_CREATE_TABLE_AS:
        if (st->u.create_table_as.execute) return db_exec_execute(s, sql, st->u.create_table_as.execute, st, cb, err);
        return db_exec_ctas(s, sql, st, params, cb, err);
    case ATTU_STMT_DROP_TABLE: return db_exec_drop(s, st, cb, err);
    case ATTU_STMT_CREATE_VIEW: return db_exec_create_view(s, sql, st, cb, err);
    case ATTU_STMT_DROP_VIEW: return db_exec_drop_view(s, st, cb, err);
    case ATTU_STMT_REFRESH_MATVIEW: return db_exec_refresh_matview(s, sql, st, cb, err);
    case ATTU_STMT_INSERT:
        if (db_names_view(s, st->u.insert.table)) return db_view_dml(s, sql, st, params, cb, err);
        return db_domain_null_message(s, db_exec_insert(s, sql, st, params, cb, err), err);
    case ATTU_STMT_DELETE: case ATTU_STMT_UPDATE:
        if (st->u.modify.current_of && db_names_view(s, st->u.modify.table))
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "WHERE CURRENT OF on a view is not implemented");
        if (db_names_view(s, st->u.modify.table)) return db_view_dml(s, sql, st, params, cb, err);
        if (db_updates_pg_settings(s, st)) return db_exec_update_pg_settings(s, sql, st, params, cb, err);
        return db_domain_null_message(s, db_exec_modify(s, sql, st, params, cb, err), err);
    case ATTU_STMT_MERGE: return db_domain_null_message(s, db_exec_merge(s, sql, st, params, cb, err), err);
    case ATTU_STMT_TRUNCATE: return db_exec_truncate(s, st, cb, err);
    case ATTU_STMT_LOCK: return db_exec_lock_table(s, st, cb, err);
    case ATTU_STMT_MAINTENANCE: return db_exec_maintenance(s, st, cb, err);
    case ATTU_STMT_CREATE_SEQUENCE: return db_exec_create_sequence(s, st, cb, err);
    case ATTU_STMT_DROP_SEQUENCE: return db_exec_drop_sequence(s, st, cb, err);
    case ATTU_STMT_ALTER_TABLE: return db_exec_alter(s, sql, st, cb, err);
    case ATTU_STMT_ALTER_SEQUENCE: return db_exec_alter_sequence(s, st, cb, err);
    case ATTU_STMT_COMMENT: return db_exec_comment(s, st, cb, err);
    case ATTU_STMT_CREATE_INDEX: return db_exec_create_index(s, st, cb, err);
    case ATTU_STMT_DROP_INDEX: return db_exec_drop_index(s, st, cb, err);
    case ATTU_STMT_ALTER_INDEX: return db_exec_alter_index(s, st, cb, err);
    case ATTU_STMT_COPY: return db_domain_null_message(s, db_exec_copy(s, sql, st, cb, err), err);
    case ATTU_STMT_SET: case ATTU_STMT_RESET: case ATTU_STMT_SHOW:
    case ATTU_STMT_SHOW_TABLES: case ATTU_STMT_DESCRIBE:
        return db_exec_setting(s, st, cb, err);
    case ATTU_STMT_DEALLOCATE: case ATTU_STMT_DISCARD:
        return db_exec_discard(s, st, cb, err);
    case ATTU_STMT_LISTEN: return db_exec_listen(s, st, cb, err);
    case ATTU_STMT_TRANSACTION:
        return exec_transaction(s, sql, st, cb, err);
    case ATTU_STMT_DECLARE_CURSOR: return db_exec_declare(s, sql, st, params, cb, err);
    case ATTU_STMT_FETCH: return db_exec_fetch(s, st, cb, err);
    case ATTU_STMT_CLOSE_CURSOR: return db_exec_close(s, st, cb, err);
    case ATTU_STMT_SET_CONSTRAINTS: return db_exec_set_constraints(s, st, cb, err);
    case ATTU_STMT_ROLE: return db_exec_role(s, sql, st, cb, err);
    case ATTU_STMT_TYPE:
        /* (the upper-case actions are domains': planner/ast.h) */
        if (st->u.type_stmt.fn) return db_exec_function(s, sql, st, cb, err);   /* (actions 'F', 'G', 'H') */
        if (st->u.type_stmt.action >= 'A' && st->u.type_stmt.action <= 'Z') return db_exec_domain(s, sql, st, cb, err);
        return db_exec_type(s, st, cb, err);
    }
    return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, st->position, "statement not supported");
}

static void report_error(attu_session *s, const attu_exec_callbacks *cb, const attu_error *err) {
    if (s->txn == 'T') db_txn_failed(s);
    if (cb && cb->on_error) cb->on_error(cb->ctx, err);
}

bool db_allowed_when_aborted(const attu_ast_stmt *st) {
    return st->kind == ATTU_STMT_TRANSACTION &&
           (st->u.transaction.kind == ATTU_TXN_COMMIT || st->u.transaction.kind == ATTU_TXN_ROLLBACK ||
            st->u.transaction.kind == ATTU_TXN_ROLLBACK_TO);
}

int attu_session_exec(attu_session *s, const char *sql, const attu_exec_callbacks *cb) {
    attu_error err;
    attu_error_clear(&err);
    attu_parse_result *pr = attu_parse_notify(sql, sql ? strlen(sql) : 0, &err,
                                              cb ? cb->on_notice : NULL, cb ? cb->ctx : NULL);
    if (!pr) { report_error(s, cb, &err); return -1; }
    if (pr->n == 0) { attu_parse_free(pr); return 1; }
    db_activity_begin(s, sql);
    int rc = 0;
    /* several statements outside BEGIN run as one implicit transaction,
     * as in PostgreSQL: SET LOCAL lasts until its end, and an error undoes
     * what the statements before it changed (a COMMIT or ROLLBACK among
     * them ends it there) */
    s->implicit_block = pr->n > 1;
    for (int i = 0; i < pr->n; i++) {
        const attu_ast_stmt *st = pr->stmts[i].stmt;
        __atomic_store_n(&s->cancel, 0, __ATOMIC_SEQ_CST);
        db_statement_begins(s, s->txn == 'I' && (i == 0 || !s->implicit_block));
        if (s->txn == 'E' && !db_allowed_when_aborted(st)) {
            attu_error_set(&err, "25P02", 0, "current transaction is aborted, commands ignored until end of transaction block");
            report_error(s, cb, &err);
            rc = -1;
            break;
        }
        /* a PREPARE's $n are its own statement's */
        if (pr->stmts[i].nparams > 0 && st->kind != ATTU_STMT_PREPARE) {
            attu_error_set(&err, "42P02", 0, "there is no parameter $%d", 1);
            report_error(s, cb, &err);
            rc = -1;
            break;
        }
        s->nwarnings = 0;
        int r = db_exec_stmt(s, sql, st, NULL, cb, &err);
        db_flush_warnings(s, cb);
        r = db_check_terminated(s, r, &err);
        db_settings_end_statement(s, r == 0);
        /* a statement outside any block is its own transaction */
        if (r == 0 && s->txn == 'I' && !s->implicit_block && db_txn_commit(s, &err)) r = -1;
        if (s->txn == 'I' && !s->implicit_block && r != -2) {
            db_cursors_txn_end(s, r == 0);
            db_session_txn_ended(s);   /* (its transaction-level advisory locks, its xid) */
        }
        if (r == -2) { rc = -1; break; }      /* the client went away */
        if (r) {
            if (!err.set) attu_error_set(&err, ATTU_SQLSTATE_INTERNAL, 0, "statement failed");
            if (s->txn == 'I') db_txn_rollback(s);
            report_error(s, cb, &err);
            rc = -1;
            break;
        }
    }
    /* the end of an implicit transaction (not of an explicit one left
     * open): committed when every statement succeeded */
    if (s->txn == 'I') {
        if (rc == 0 && db_txn_active(s) && db_txn_commit(s, &err)) {
            report_error(s, cb, &err);
            rc = -1;
        }
        if (rc) db_txn_rollback(s);
        db_cursors_txn_end(s, rc == 0);
        db_session_txn_ended(s);
    }
    if (s->implicit_block && s->txn == 'I') db_settings_end_block(s, rc == 0);
    s->implicit_block = false;
    attu_parse_free(pr);
    db_activity_end(s);
    return rc;
}
