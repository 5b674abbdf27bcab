/*
 * db_prepared.c - the extended protocol: prepared statements with $n
 * parameters. A statement is parsed once; each execution binds it again
 * with the parameter values as typed constants (a parameter whose type was
 * not declared behaves like an untyped literal and takes the type its
 * context wants, as in PostgreSQL).
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/lower.h"
#include "planner/rewrite.h"

static attu_type type_of_oid(uint32_t oid) {
    switch (oid) {
    case ATTU_PG_OID_BOOL: return attu_type_make(ATTU_TYPE_BOOL);
    case ATTU_PG_OID_INT2: return attu_type_make(ATTU_TYPE_INT16);
    case ATTU_PG_OID_INT4: return attu_type_make(ATTU_TYPE_INT32);
    case ATTU_PG_OID_INT8: return attu_type_make(ATTU_TYPE_INT64);
    case ATTU_PG_OID_FLOAT4: return attu_type_make(ATTU_TYPE_FLOAT32);
    case ATTU_PG_OID_FLOAT8: return attu_type_make(ATTU_TYPE_FLOAT64);
    case ATTU_PG_OID_TEXT: case ATTU_PG_OID_VARCHAR: case 1042: return attu_type_make(ATTU_TYPE_TEXT);
    case ATTU_PG_OID_DATE: return attu_type_make(ATTU_TYPE_DATE);
    case ATTU_PG_OID_TIMESTAMP: return attu_type_make(ATTU_TYPE_TIMESTAMP);
    default: return attu_type_make(ATTU_TYPE_UNKNOWN);   /* numeric and others: infer */
    }
}

/* Row-returning statements other than SELECT: Describe must announce their
 * columns too (pgjdbc's getTransactionIsolation prepares SHOW, and a
 * client that was told NoData rejects the rows). SHOW, SHOW TABLES and
 * DESCRIBE only read settings and the catalog, so they are run once here
 * and their result's shape kept; EXPLAIN always answers one text column. */
static int keep_shape(void *ctx, attu_result *res) {
    attu_prepared *p = ctx;
    free(p->cols);
    p->cols = calloc((size_t)res->ncols + 1, sizeof *p->cols);
    if (!p->cols) { p->ncols = 0; return 1; }
    p->ncols = res->ncols;
    memcpy(p->cols, res->desc, (size_t)res->ncols * sizeof *p->cols);
    return 0;
}

static int describe_utility(attu_session *s, attu_prepared *p, const attu_ast_stmt *st, attu_error *err) {
    if (st->kind == ATTU_STMT_EXPLAIN) {
        p->cols = calloc(2, sizeof *p->cols);
        if (!p->cols) return attu_error_oom(err);
        p->ncols = 1;
        snprintf(p->cols[0].name, sizeof p->cols[0].name, "QUERY PLAN");
        p->cols[0].type = attu_type_make(ATTU_TYPE_TEXT);
        return 0;
    }
    if (st->kind != ATTU_STMT_SHOW && st->kind != ATTU_STMT_SHOW_TABLES && st->kind != ATTU_STMT_DESCRIBE)
        return 0;
    attu_exec_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ctx = p;
    cb.on_result = keep_shape;
    int r = db_exec_setting(s, st, &cb, err);
    if (r && !err->set) attu_error_oom(err);
    return r ? -1 : 0;
}

attu_prepared *attu_prepare(attu_session *s, const char *sql, int nparam_oids,
                            const uint32_t *param_oids, attu_error *err) {
    attu_parse_result *pr = attu_parse(sql, err);
    if (!pr) return NULL;
    if (pr->n > 1) {
        attu_parse_free(pr);
        attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "cannot insert multiple commands into a prepared statement");
        return NULL;
    }
    attu_prepared *p = calloc(1, sizeof *p);
    if (!p) { attu_parse_free(pr); attu_error_oom(err); return NULL; }
    p->parsed = pr;
    p->sql = strdup(sql);
    int np = pr->n ? pr->stmts[0].nparams : 0;
    if (nparam_oids > np) np = nparam_oids;
    p->nparams = np;
    p->param_types = calloc((size_t)np + 1, sizeof *p->param_types);
    p->param_oids = calloc((size_t)np + 1, sizeof *p->param_oids);
    if (!p->sql || !p->param_types || !p->param_oids) { attu_prepared_free(p); attu_error_oom(err); return NULL; }
    for (int i = 0; i < np; i++) {
        uint32_t oid = i < nparam_oids && param_oids ? param_oids[i] : 0;
        p->param_types[i] = type_of_oid(oid);
        /* An undeclared parameter takes its type from context at each
         * bind; ParameterDescription says "unknown" (705) rather than a type
         * it may not have: a client that re-parses with the described types
         * (pgjdbc's getParameterMetaData) must not turn `n = $1` into an
         * integer = text comparison. */
        p->param_oids[i] = oid ? oid : ATTU_PG_OID_UNKNOWN;
    }
    /* describe the result by binding with NULL parameters */
    if (pr->n && pr->stmts[0].stmt->kind == ATTU_STMT_SELECT) {
        attu_plan_arena *pa = attu_plan_arena_new();
        attu_bind_params bp;
        memset(&bp, 0, sizeof bp);
        bp.n = np; bp.types = p->param_types;
        bp = db_params(s, &bp);
        pthread_rwlock_rdlock(&s->db->lock);
        attu_lplan *lp = pa ? attu_bind_query(pa, s->db->cat, sql, pr->stmts[0].stmt->u.select.query, &bp, err) : NULL;
        if (lp) {
            p->ncols = lp->ncols;
            p->cols = calloc((size_t)lp->ncols + 1, sizeof *p->cols);
            if (!p->cols) attu_error_oom(err);
            for (int i = 0; p->cols && i < lp->ncols; i++) {
                snprintf(p->cols[i].name, sizeof p->cols[i].name, "%s", lp->names[i] ? lp->names[i] : "?column?");
                p->cols[i].type = lp->types[i];
            }
        }
        pthread_rwlock_unlock(&s->db->lock);
        attu_plan_arena_free(pa);
        if (err->set) { attu_prepared_free(p); return NULL; }
    } else if (pr->n && describe_utility(s, p, pr->stmts[0].stmt, err)) {
        attu_prepared_free(p);
        return NULL;
    }
    return p;
}

void attu_prepared_free(attu_prepared *p) {
    if (!p) return;
    attu_parse_free(p->parsed);
    free(p->sql);
    free(p->param_types);
    free(p->param_oids);
    free(p->cols);
    free(p);
}

int attu_prepared_param_count(const attu_prepared *p) { return p->nparams; }
uint32_t attu_prepared_param_oid(const attu_prepared *p, int i) {
    return i >= 0 && i < p->nparams ? p->param_oids[i] : 0;
}
int attu_prepared_describe(const attu_prepared *p, const attu_result_column **cols) {
    *cols = p->cols;
    return p->ncols;
}

int attu_prepared_execute(attu_session *s, attu_prepared *p, int nvalues,
                          const char *const *values, const attu_exec_callbacks *cb) {
    attu_error err;
    attu_error_clear(&err);
    if (p->parsed->n == 0) return 1;
    if (nvalues != p->nparams) {
        attu_error_set(&err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                       "bind message supplies %d parameters, but prepared statement requires %d", nvalues, p->nparams);
        if (cb && cb->on_error) cb->on_error(cb->ctx, &err);
        return -1;
    }
    const attu_ast_stmt *st = p->parsed->stmts[0].stmt;
    /* in a failed block only COMMIT / ROLLBACK run (pgjdbc sends them as
     * prepared statements), as in attu_session_exec */
    if (s->txn == 'E' && !(st->kind == ATTU_STMT_TRANSACTION && st->u.transaction.kind != ATTU_TXN_BEGIN)) {
        attu_error_set(&err, "25P02", 0, "current transaction is aborted, commands ignored until end of transaction block");
        if (cb && cb->on_error) cb->on_error(cb->ctx, &err);
        return -1;
    }
    static const char *const none[1] = { NULL };
    attu_bind_params bp;
    memset(&bp, 0, sizeof bp);
    bp.n = p->nparams; bp.types = p->param_types; bp.values = values ? values : none;
    __atomic_store_n(&s->cancel, 0, __ATOMIC_SEQ_CST);
    s->stmt_start_ms = attu_now_ms();
    int r = db_exec_stmt(s, p->sql, p->parsed->stmts[0].stmt, &bp, cb, &err);
    if (r == -2) return -1;
    if (r) {
        if (!err.set) attu_error_set(&err, ATTU_SQLSTATE_INTERNAL, 0, "statement failed");
        if (s->txn == 'T') s->txn = 'E';
        if (cb && cb->on_error) cb->on_error(cb->ctx, &err);
        return -1;
    }
    return 0;
}
