/*
 * db_prepared.c - the extended protocol: prepared statements with $n
 * parameters. A statement is parsed once, and its undeclared parameters
 * typed by their first use as PostgreSQL types them when it prepares
 * (db_param_infer.c); each execution binds it again with the parameter
 * values as constants of those types. A Bind's text value is read as its
 * parameter's type before anything runs (attu_prepared_check_param).
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/range.h"
#include "engine/array.h"
#include "engine/json.h"
#include "engine/bytea.h"
#include "engine/uuid.h"
#include "engine/jsonpath.h"
#include "engine/domain_type.h"
#include "engine/enum_type.h"
#include "engine/numeric.h"
#include "engine/pg_array_oid.h"
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
    case ATTU_PG_OID_TEXT: return attu_type_make(ATTU_TYPE_TEXT);
    case ATTU_PG_OID_VARCHAR: return attu_type_varchar_unbounded();
    case ATTU_PG_OID_BPCHAR: return attu_type_bpchar_unbounded();   /* its values as sent */
    case ATTU_PG_OID_DATE: return attu_type_make(ATTU_TYPE_DATE);
    case ATTU_PG_OID_TIMESTAMP: return attu_type_make(ATTU_TYPE_TIMESTAMP);
    case ATTU_PG_OID_TIMESTAMPTZ: return attu_type_make(ATTU_TYPE_TIMESTAMPTZ);
    case ATTU_PG_OID_TIME: return attu_type_make(ATTU_TYPE_TIME);
    case ATTU_PG_OID_TIMETZ: return attu_type_make(ATTU_TYPE_TIMETZ);
    case ATTU_PG_OID_INTERVAL: return attu_type_make(ATTU_TYPE_INTERVAL);
    case ATTU_PG_OID_NUMERIC: return attu_type_make(ATTU_TYPE_NUMERIC);   /* each value its own scale */
    case ATTU_PG_OID_JSON: return attu_type_json(0);
    case ATTU_PG_OID_JSONB: return attu_type_json(1);
    case ATTU_PG_OID_UUID: return attu_type_uuid();
    case ATTU_PG_OID_BYTEA: return attu_type_bytea();
    case ATTU_PG_OID_JSONPATH: return attu_type_jsonpath();
    case ATTU_PG_OID_INT4RANGE: return attu_type_range(ATTU_RANGE_INT4);
    case ATTU_PG_OID_INT8RANGE: return attu_type_range(ATTU_RANGE_INT8);
    case ATTU_PG_OID_NUMRANGE: return attu_type_range(ATTU_RANGE_NUM);
    case ATTU_PG_OID_DATERANGE: return attu_type_range(ATTU_RANGE_DATE);
    case ATTU_PG_OID_TSRANGE: return attu_type_range(ATTU_RANGE_TS);
    case ATTU_PG_OID_TSTZRANGE: return attu_type_range(ATTU_RANGE_TSTZ);
    default: break;
    }
    /* an enum type's OID (engine/enum_type.h: even, its array's odd), as
     * psycopg 3 declares a registered enum's parameters: the labels are
     * read when the statement runs, an OID of no enum then 42704 */
    if (oid >= ATTU_ENUM_OID_BASE && oid < ATTU_DOMAIN_OID_BASE) {
        attu_type e = attu_type_enum((int)((oid - ATTU_ENUM_OID_BASE) / 2));
        return oid % 2 ? attu_type_array_of(e) : e;
    }
    /* an array of an element type attu has, as far as attu's arrays take
     * it (the array type must describe itself with this OID again) */
    uint32_t elem_oid = attu_pg_array_elem_oid(oid);
    if (elem_oid) {
        attu_type e = type_of_oid(elem_oid);
        if (e.id != ATTU_TYPE_UNKNOWN) {
            attu_type a = attu_type_array_of(e);
            if (attu_type_pg_oid(a) == oid) return a;
        }
    }
    return attu_type_make(ATTU_TYPE_UNKNOWN);   /* 705 and types attu lacks: inferred */
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
/* RETURNING's rows: their shape from binding the statement (through a
 * view: the statement on its relation, db_view_update.c). */
static int describe_returning(attu_session *s, attu_prepared *p, const attu_ast_stmt *st, attu_error *err) {
    bool view = st->kind == ATTU_STMT_INSERT ? db_names_view(s, st->u.insert.table) : db_names_view(s, st->u.modify.table);
    if (view) {
        db_view_rewrite rw;
        const attu_ast_stmt *n;
        int r = db_view_rewrite_dml(s, st, &rw, &n, err);
        if (!r) r = describe_returning(s, p, n, err);
        db_view_rewrite_free(&rw);
        return r;
    }
    attu_bind_params bp;
    memset(&bp, 0, sizeof bp);
    bp.n = p->nparams; bp.types = p->param_types;
    if (st->kind == ATTU_STMT_INSERT) return db_insert_returning_describe(s, p->sql, st, &bp, &p->ncols, &p->cols, err);
    return db_modify_describe(s, p->sql, st, &bp, &p->ncols, &p->cols, err);
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
    if (st->kind == ATTU_STMT_EXECUTE) {
        /* EXECUTE q answers q's rows: Describe announces them as
         * PostgreSQL does (q's shape when this one is prepared; an
         * unknown q is found when this one runs) */
        const attu_prepared *q = attu_session_prepared_find(s, st->u.execute.name);
        if (!q || q->ncols == 0) return 0;
        p->cols = calloc((size_t)q->ncols + 1, sizeof *p->cols);
        if (!p->cols) return attu_error_oom(err);
        p->ncols = q->ncols;
        memcpy(p->cols, q->cols, (size_t)q->ncols * sizeof *p->cols);
        return 0;
    }
    if (st->kind == ATTU_STMT_FETCH) {
        /* FETCH answers its cursor's rows (MOVE none): described from the
         * cursor open now, as PostgreSQL describes it */
        if (st->u.fetch.move) return 0;
        return db_cursor_describe(s, st->u.fetch.name, &p->ncols, &p->cols) ? attu_error_oom(err) : 0;
    }
    if (((st->kind == ATTU_STMT_DELETE || st->kind == ATTU_STMT_UPDATE) && st->u.modify.nreturning) ||
        (st->kind == ATTU_STMT_INSERT && st->u.insert.nreturning))
        return describe_returning(s, p, st, err);
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

/* Describes a SELECT's result by binding it with its parameters' types. */
static int describe_select(attu_session *s, attu_prepared *p, attu_error *err) {
    attu_plan_arena *pa = attu_plan_arena_new();
    if (!pa) return attu_error_oom(err);
    attu_bind_params bp;
    memset(&bp, 0, sizeof bp);
    bp.n = p->nparams; bp.types = p->param_types;
    bp = db_params(s, &bp);
    bp.no_side_effects = true;   /* described, not run: no nextval */
    pthread_rwlock_rdlock(&s->db->lock);
    db_seq_fill fill;   /* nextval('s') items over rows: their stand-ins */
    const attu_ast_query *q = db_seq_fill_prepare(s, p->stmt->u.select.query, NULL, 0, &fill);
    attu_lplan *lp = attu_bind_query(pa, db_cat(s), p->sql, q, &bp, err);
    if (lp) {
        free(p->cols);
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
    db_seq_fill_free(&fill);
    return err->set ? -1 : 0;
}

/* Types p's undeclared parameters by their uses (db_infer_params): 0, or
 * -1 with err (the statement does not bind, or 42P18 for a parameter no
 * use types). A statement kind that is not analysed leaves them unknown. */
static int type_params(attu_session *s, attu_prepared *p, int ntypes, const attu_type *types, attu_error *err) {
    int np = p->nparams;
    attu_type *inferred = calloc((size_t)np + 1, sizeof *inferred);
    int *open = calloc((size_t)np + 1, sizeof *open), *undetermined = calloc((size_t)np + 1, sizeof *undetermined);
    if (!inferred || !open || !undetermined) {
        free(inferred); free(open); free(undetermined);
        return attu_error_oom(err);
    }
    memcpy(inferred, p->param_types, sizeof *inferred * (size_t)np);
    int r = np ? db_infer_params(s, p->sql, p->stmt, np, p->param_types, inferred, open, undetermined, err) : 1;
    const attu_parsed_stmt *ps = p->parsed && p->parsed->n ? &p->parsed->stmts[0] : NULL;
    for (int i = 0; r == 0 && i < np; i++) {
        if (p->param_types[i].id != ATTU_TYPE_UNKNOWN) continue;
        if (inferred[i].id == ATTU_TYPE_UNKNOWN) {
            /* PostgreSQL's 42P18: never written, or read only where any
             * type goes; otherwise attu's binding missed a use PostgreSQL
             * would type, and the parameter stays typed by context */
            bool written = ps && ps->param_used && i + 1 <= ps->nparams && ps->param_used[i + 1];
            if (open[i] > 0 ? open[i] == undetermined[i] : !written)
                r = attu_error_set(err, "42P18", 0, "could not determine data type of parameter $%d", i + 1);
            continue;
        }
        p->param_types[i] = inferred[i];
        /* a declared type attu lacks (timestamptz, uuid ...) stays what
         * the client is told; its values are read as the inferred type */
        if (p->param_oids[i] == ATTU_PG_OID_UNKNOWN) p->param_oids[i] = attu_type_pg_oid(inferred[i]);
    }
    free(inferred);
    free(open);
    free(undetermined);
    if (r < 0 || p->stmt->kind != ATTU_STMT_SELECT) return r < 0 ? -1 : 0;
    if (r > 0) return describe_select(s, p, err);
    /* The SELECT bound again with the types found describes its result.
     * Should that binding fail where the first did not (attu typing a use
     * differently once its parameter has a type), the undeclared
     * parameters stay typed by context at each run instead. */
    if (describe_select(s, p, err) == 0) return 0;
    attu_error_clear(err);
    for (int i = 0; i < np; i++)
        if (i >= ntypes || !types || types[i].id == ATTU_TYPE_UNKNOWN) {
            p->param_types[i] = attu_type_make(ATTU_TYPE_UNKNOWN);
            p->param_oids[i] = ATTU_PG_OID_UNKNOWN;
        }
    return describe_select(s, p, err);
}

attu_prepared *db_prepare_parsed(attu_session *s, char *sql, attu_parse_result *pr, const attu_ast_stmt *stmt,
                                 int nparams, int ntypes, const attu_type *types, const uint32_t *oids,
                                 attu_error *err) {
    attu_prepared *p = calloc(1, sizeof *p);
    if (!p) { free(sql); attu_parse_free(pr); attu_error_oom(err); return NULL; }
    p->refs = 1;
    p->parsed = pr;
    p->sql = sql;
    p->stmt = stmt;
    int np = nparams > ntypes ? nparams : ntypes;
    p->nparams = np;
    p->param_types = calloc((size_t)np + 1, sizeof *p->param_types);
    p->param_oids = calloc((size_t)np + 1, sizeof *p->param_oids);
    if (!p->sql || !p->param_types || !p->param_oids) { attu_prepared_free(p); attu_error_oom(err); return NULL; }
    for (int i = 0; i < np; i++) {
        uint32_t oid = i < ntypes && oids ? oids[i] : 0;
        p->param_types[i] = i < ntypes && types ? types[i] : attu_type_make(ATTU_TYPE_UNKNOWN);
        /* undeclared: typed below, or "unknown" (705) for a statement
         * whose parameters take their type from context at each run */
        p->param_oids[i] = oid ? oid : ATTU_PG_OID_UNKNOWN;
    }
    if (!stmt) return p;
    if (type_params(s, p, ntypes, types, err)) { attu_prepared_free(p); return NULL; }
    if (stmt->kind != ATTU_STMT_SELECT && describe_utility(s, p, stmt, err)) {
        attu_prepared_free(p);
        return NULL;
    }
    return p;
}

attu_prepared *attu_prepare(attu_session *s, const char *sql, int nparam_oids,
                            const uint32_t *param_oids, attu_error *err) {
    return attu_prepare_notify(s, sql, nparam_oids, param_oids, err, NULL);
}

attu_prepared *attu_prepare_notify(attu_session *s, const char *sql, int nparam_oids,
                                   const uint32_t *param_oids, attu_error *err,
                                   const attu_exec_callbacks *cb) {
    attu_parse_result *pr = attu_parse_notify(sql, sql ? strlen(sql) : 0, err,
                                              cb ? cb->on_notice : NULL, cb ? cb->ctx : NULL);
    if (!pr) return NULL;
    if (pr->n > 1) {
        attu_parse_free(pr);
        attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "cannot insert multiple commands into a prepared statement");
        return NULL;
    }
    attu_type *types = calloc((size_t)nparam_oids + 1, sizeof *types);
    if (!types) { attu_parse_free(pr); attu_error_oom(err); return NULL; }
    for (int i = 0; i < nparam_oids; i++) types[i] = type_of_oid(param_oids ? param_oids[i] : 0);
    /* a PREPARE's $n are its body's, not this statement's */
    const attu_ast_stmt *st = pr->n ? pr->stmts[0].stmt : NULL;
    int np = st && st->kind != ATTU_STMT_PREPARE ? pr->stmts[0].nparams : 0;
    /* (describing it binds it: enum type names resolve in the session's catalog) */
    attu_enum_source was = attu_enum_use(db_enum_source(s));
    attu_prepared *p = db_prepare_parsed(s, strdup(sql), pr, st, np, nparam_oids, types, param_oids, err);
    attu_enum_use(was);
    free(types);
    return p;
}

attu_prepared *attu_prepared_ref(attu_prepared *p) {
    if (p) p->refs++;
    return p;
}

void attu_prepared_free(attu_prepared *p) {
    if (!p || --p->refs > 0) return;
    attu_parse_free(p->parsed);
    free(p->sql);
    free(p->param_types);
    free(p->param_oids);
    free(p->cols);
    free(p);
}

int attu_prepared_param_count(const attu_prepared *p) { return p->nparams; }
const char *attu_prepared_sql(const attu_prepared *p) { return p->sql; }
bool attu_prepared_empty(const attu_prepared *p) { return p->stmt == NULL; }
uint32_t attu_prepared_param_oid(const attu_prepared *p, int i) {
    return i >= 0 && i < p->nparams ? p->param_oids[i] : 0;
}
int attu_prepared_check_param(const attu_prepared *p, int i, const char *text, size_t len, attu_error *err) {
    if (i < 0 || i >= p->nparams) return 0;
    attu_type t = p->param_types[i];
    int r;
    if (attu_type_is_array(t) && !attu_type_is_enum(attu_type_array_elem(t))) {
        /* array_in, as PostgreSQL's Bind runs it: a malformed literal or
         * element fails the Bind (22P02 ...). Not an enum's array: the
         * labels are the session's catalog's, which the Bind (on the
         * server's loop) does not see; the statement reads them when it
         * runs, as it does a scalar enum parameter's (a string type
         * here) */
        attu_abuf out = { 0 };
        r = attu_array_from_text(attu_type_array_elem(t), text, len, &out, err);
        attu_abuf_free(&out);
        if (r) err->position = 0;
        return r ? -1 : 0;
    }
    if (attu_type_is_json_any(t)) {
        /* json_in / jsonb_in, as PostgreSQL's Bind runs them */
        char *canon = NULL;
        size_t cl;
        r = attu_type_is_jsonb(t) ? attu_jsonb_canonical(text, len, &canon, &cl, err) : attu_json_validate(text, len, err);
        free(canon);
        if (r) err->position = 0;
        return r ? -1 : 0;
    }
    if (attu_type_is_jsonpath(t)) {
        /* jsonpath_in, as PostgreSQL's Bind runs it */
        char *canon = NULL;
        size_t cl;
        r = attu_jsonpath_canonical(text, len, &canon, &cl, err);
        free(canon);
        if (r) err->position = 0;
        return r ? -1 : 0;
    }
    if (attu_type_is_uuid(t) || attu_type_is_bytea(t)) {
        /* uuid_in / byteain, as PostgreSQL's Bind runs them */
        char ub[ATTU_UUID_TEXT_LEN], *canon = NULL;
        size_t cl;
        r = attu_type_is_uuid(t) ? attu_uuid_canonical(text, len, ub, err) : attu_bytea_canonical(text, len, &canon, &cl, err);
        free(canon);
        if (r) err->position = 0;
        return r ? -1 : 0;
    }
    if (attu_type_is_range(t)) {
        /* range_in, as PostgreSQL's Bind runs it */
        attu_abuf out = { 0 };
        r = attu_range_parse(attu_type_range_kind(t), text, len, &out, err);
        attu_abuf_free(&out);
        if (r) err->position = 0;
        return r ? -1 : 0;
    }
    /* typed by context at each run, or a string type: any text binds */
    if (t.id == ATTU_TYPE_UNKNOWN || t.id == ATTU_TYPE_TEXT) return 0;
    if (t.id == ATTU_TYPE_NUMERIC || t.id == ATTU_TYPE_DECIMAL) {
        attu_numeric n;
        r = attu_numeric_parse(text, len, &n, err);
    } else {
        /* the widest slot is an interval's 16 bytes */
        union { int64_t i8[3]; double f8; char bytes[24]; } slot;
        memset(&slot, 0, sizeof slot);
        r = attu_type_width(t.id) <= sizeof slot ? attu_value_parse(t, text, len, &slot, err) : 0;
    }
    /* a Bind has no place in the statement's text to point at */
    if (r) err->position = 0;
    return r ? -1 : 0;
}

int attu_prepared_describe(const attu_prepared *p, const attu_result_column **cols) {
    *cols = p->cols;
    return p->ncols;
}

/* PostgreSQL re-plans a prepared statement whose tables changed, but
 * refuses one whose result columns are no longer those it described
 * (RevalidateCachedQuery). attu binds every execution anew, so the check
 * compares the rows' shape with the one described at PREPARE, as clients
 * see it: names and type OIDs. */
typedef struct shape_check {
    const attu_prepared       *p;
    const attu_exec_callbacks *cb;
    bool                       changed;
} shape_check;

static bool same_shape(const attu_prepared *p, int ncols, const attu_result_column *cols) {
    bool same = ncols == p->ncols;
    for (int i = 0; same && i < ncols; i++)
        same = !strcmp(cols[i].name, p->cols[i].name) && attu_type_pg_oid(cols[i].type) == attu_type_pg_oid(p->cols[i].type);
    return same;
}

static int check_shape(void *ctx, attu_result *res) {
    shape_check *k = ctx;
    if (!same_shape(k->p, res->ncols, res->desc)) { k->changed = true; return 1; }
    return k->cb && k->cb->on_result ? k->cb->on_result(k->cb->ctx, res) : 0;
}

/* INSERT, UPDATE and DELETE with RETURNING change the table before their
 * rows come, so theirs are described again before they run (an ALTER
 * TABLE since PREPARE may have changed them): *changed when they are not
 * those described at PREPARE, or -1 with the binding's error (42703 for a
 * dropped column, as the run would give). */
static int returning_changed(attu_session *s, const attu_prepared *p, const attu_bind_params *bp, bool *changed,
                             attu_error *err) {
    const attu_ast_stmt *st = p->stmt;
    int n = 0;
    attu_result_column *cols = NULL;
    int r;
    *changed = false;
    if ((st->kind == ATTU_STMT_DELETE || st->kind == ATTU_STMT_UPDATE) && st->u.modify.nreturning)
        r = db_modify_describe(s, p->sql, st, bp, &n, &cols, err);
    else if (st->kind == ATTU_STMT_INSERT && st->u.insert.nreturning)
        r = db_insert_returning_describe(s, p->sql, st, bp, &n, &cols, err);
    else
        return 0;
    if (!r) *changed = !same_shape(p, n, cols);
    free(cols);
    return r ? -1 : 0;
}

/* An EXECUTE that runs a statement that is itself EXECUTE of the same name
 * (a protocol Parse of "EXECUTE p" named p) would recurse for ever;
 * PostgreSQL stops when its stack is full. */
#define MAX_EXECUTE_DEPTH 32

int db_prepared_run(attu_session *s, attu_prepared *p, const attu_ast_stmt *wrap, const char *const *values,
                    const attu_exec_callbacks *cb, attu_error *err) {
    if (s->execute_depth >= MAX_EXECUTE_DEPTH) {
        attu_error_set(err, "54001", 0, "stack depth limit exceeded");
        attu_error_set_hint(err, "Increase the configuration parameter \"max_stack_depth\" (currently 2048kB), "
                                 "after ensuring the platform's stack depth limit is adequate.");
        return -1;
    }
    static const char *const none[1] = { NULL };
    attu_bind_params bp;
    memset(&bp, 0, sizeof bp);
    bp.n = p->nparams; bp.types = p->param_types; bp.values = values ? values : none;
    /* the statement runs as is, inside EXPLAIN [ANALYZE], or as the query
     * of CREATE TABLE AS */
    attu_ast_stmt outer;
    const attu_ast_stmt *run = p->stmt;
    if (wrap) {
        outer = *wrap;
        if (wrap->kind == ATTU_STMT_EXPLAIN) {
            outer.u.explain.stmt = (attu_ast_stmt *)p->stmt;
        } else {
            outer.u.create_table_as.query = p->stmt->u.select.query;
            outer.u.create_table_as.execute = NULL;
        }
        run = &outer;
    }
    shape_check k = { p, cb, false };
    if (!wrap && p->cols) {
        int rc = returning_changed(s, p, &bp, &k.changed, err);
        if (rc || k.changed) {
            if (k.changed)
                attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "cached plan must not change result type");
            return -1;
        }
    }
    attu_exec_callbacks checked;
    if (!wrap && p->stmt->kind == ATTU_STMT_SELECT && p->cols) {
        checked = cb ? *cb : (attu_exec_callbacks){ 0 };
        checked.ctx = &k;
        checked.on_result = check_shape;
        cb = &checked;
    }
    /* the statement may drop its own name while it runs (DEALLOCATE
     * through a nested EXECUTE): hold it */
    attu_prepared_ref(p);
    s->execute_depth++;
    int r = db_exec_stmt(s, p->sql, run, &bp, cb, err);
    s->execute_depth--;
    if (k.changed) {
        attu_error_clear(err);
        r = attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "cached plan must not change result type");
    }
    attu_prepared_free(p);
    return r;
}

int attu_prepared_execute(attu_session *s, attu_prepared *p, int nvalues,
                          const char *const *values, const attu_exec_callbacks *cb) {
    attu_error err;
    attu_error_clear(&err);
    if (!p->stmt) return 1;
    if (nvalues != p->nparams) {
        attu_error_set(&err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                       "bind message supplies %d parameters, but prepared statement requires %d", nvalues, p->nparams);
        if (cb && cb->on_error) cb->on_error(cb->ctx, &err);
        return -1;
    }
    const attu_ast_stmt *st = p->stmt;
    /* in a failed block only COMMIT / ROLLBACK run (pgjdbc sends them as
     * prepared statements), as in attu_session_exec */
    if (s->txn == 'E' && !db_allowed_when_aborted(st)) {
        attu_error_set(&err, "25P02", 0, "current transaction is aborted, commands ignored until end of transaction block");
        if (cb && cb->on_error) cb->on_error(cb->ctx, &err);
        return -1;
    }
    __atomic_store_n(&s->cancel, 0, __ATOMIC_SEQ_CST);
    db_activity_begin(s, p->sql);
    db_statement_begins(s, s->txn == 'I');
    s->nwarnings = 0;
    int r = db_prepared_run(s, p, NULL, values, cb, &err);
    db_flush_warnings(s, cb);
    r = db_check_terminated(s, r, &err);
    db_settings_end_statement(s, r == 0);
    /* outside a block, what runs up to the next Sync is one implicit
     * transaction (attu_session_sync commits it); a failure undoes it */
    if (s->txn == 'I') {
        s->ext_implicit = r == 0;
        if (r) {
            db_txn_rollback(s);
            db_cursors_txn_end(s, false);
        }
    }
    if (r == -2) return -1;
    if (r) {
        if (!err.set) attu_error_set(&err, ATTU_SQLSTATE_INTERNAL, 0, "statement failed");
        /* a SQL PREPARE's positions point into its own text, which this
         * client did not send with the Bind */
        if (p->from_sql) err.position = 0;
        if (s->txn == 'T') db_txn_failed(s);
        if (cb && cb->on_error) cb->on_error(cb->ctx, &err);
        return -1;
    }
    return 0;
}
