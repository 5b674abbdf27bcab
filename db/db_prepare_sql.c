/*
 * db_prepare_sql.c - SQL-level prepared statements: PREPARE, EXECUTE and
 * EXPLAIN EXECUTE, as PostgreSQL 15 runs them (its commands/prepare.c).
 *
 * PREPARE name [(types)] AS stmt keeps stmt under name in the session's
 * table of prepared statements (db_prepared_names.c), the one the
 * extended protocol's named statements live in too. The stored statement
 * owns a copy of the PREPARE's text, parsed again, so it outlives the
 * query string that made it; its body is bound at PREPARE (42P01, 42703 and
 * friends are found then, with positions in that text), and bound again at
 * every EXECUTE: attu keeps no plans, so a table dropped and made again is
 * simply read anew (PostgreSQL re-plans too), and a result whose shape
 * changed is refused as PostgreSQL refuses it (db_prepared.c).
 *
 * CREATE TABLE t AS EXECUTE name (args) runs a prepared SELECT as
 * CREATE TABLE AS runs its query; EXPLAIN [ANALYZE] EXECUTE explains it.
 *
 * EXECUTE name (args) evaluates its arguments as PostgreSQL's
 * EvaluateParams does: each is an expression without columns, subqueries,
 * aggregates or window functions, coerced to its parameter's declared type
 * by assignment (42804 when there is no such cast), and the values go to
 * the statement as its parameters. A parameter whose type was not declared
 * has the type its use gave it at PREPARE (as PostgreSQL infers it;
 * db_param_infer.c). One of a statement whose parameters are not analysed
 * there keeps none: an untyped literal argument is handed over as written,
 * any other argument as its value's text, and the parameter takes its type
 * from its context at each run.
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/lower.h"
#include "planner/rewrite.h"

/* ---- PREPARE ----------------------------------------------------------- */

/* A declared parameter type, as PostgreSQL keeps it: the type without its
 * modifier (PREPARE p(varchar(3)) takes any text, numeric(5,2) any number). */
static int declared_type(const attu_ast_typename *tn, attu_type *t, attu_error *err) {
    if (attu_type_from_name(tn->name, tn->precision, tn->scale, t, err)) {
        err->position = tn->position;
        return -1;
    }
    *t = attu_type_param_plain(*t);
    return 0;
}

int db_exec_prepare(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                    attu_error *err) {
    const char *name = st->u.prepare.name;
    int nt = st->u.prepare.ntypes;
    attu_type *types = calloc((size_t)nt + 1, sizeof *types);
    uint32_t *oids = calloc((size_t)nt + 1, sizeof *oids);
    if (!types || !oids) { free(types); free(oids); return attu_error_oom(err); }
    for (int i = 0; i < nt; i++) {
        if (declared_type(&st->u.prepare.types[i], &types[i], err)) { free(types); free(oids); return -1; }
        oids[i] = attu_type_pg_oid(types[i]);
    }
    /* The stored statement's own copy of this PREPARE, parsed again: its
     * body's tree then lives as long as the statement does. Positions in
     * it count from the PREPARE; an error moves them to the query string
     * this PREPARE came in. */
    size_t off = st->u.prepare.text_start, len = st->u.prepare.text_end - off;
    int shift = attu_sql_char_position(sql, off) - 1;
    char *text = strndup(sql + off, len);
    attu_parse_result *pr = text ? attu_parse(text, err) : NULL;
    if (!text) attu_error_oom(err);
    attu_prepared *p = NULL;
    if (pr && (pr->n != 1 || pr->stmts[0].stmt->kind != ATTU_STMT_PREPARE)) {
        attu_error_set(err, ATTU_SQLSTATE_INTERNAL, st->position, "PREPARE text did not parse again");
        attu_parse_free(pr);
        free(text);
    } else if (pr) {
        const attu_ast_stmt *body = pr->stmts[0].stmt->u.prepare.stmt;
        p = db_prepare_parsed(s, text, pr, body, pr->stmts[0].nparams, nt, types, oids, err);
    } else {
        free(text);
    }
    free(types);
    free(oids);
    if (!p) {
        if (err->position) err->position += shift;
        return -1;
    }
    /* PostgreSQL types each undeclared parameter from its use; one the
     * body never writes has no type (42P18). db_prepare_parsed found that
     * for the statements it analyses; this is for the others. */
    const attu_parsed_stmt *ps = &p->parsed->stmts[0];
    for (int k = nt + 1; k <= ps->nparams; k++)
        if (ps->param_used && !ps->param_used[k]) {
            attu_prepared_free(p);
            return attu_error_set(err, "42P18", 0, "could not determine data type of parameter $%d", k);
        }
    p->from_sql = true;
    int r = attu_session_prepared_add(s, name, p, err);
    attu_prepared_free(p);
    if (r) return -1;
    return db_deliver_tag(cb, "PREPARE", err) ? -2 : 0;
}

/* ---- EXECUTE ----------------------------------------------------------- */

/* Calls fn on e and on every expression under it (not inside subqueries),
 * parents first; stops at fn's first nonzero answer and returns it. */
typedef int (*expr_fn)(const attu_ast_expr *e, void *ctx);

static int walk(const attu_ast_expr *e, expr_fn fn, void *ctx) {
    if (!e) return 0;
    int r = fn(e, ctx);
#define W(x) do { if (!r) r = walk((x), fn, ctx); } while (0)
    switch (e->kind) {
    case ATTU_EXPR_UNARY: W(e->u.unary.arg); break;
    case ATTU_EXPR_BINARY: W(e->u.binary.left); W(e->u.binary.right); break;
    case ATTU_EXPR_IS: W(e->u.is.arg); break;
    case ATTU_EXPR_BETWEEN: W(e->u.between.arg); W(e->u.between.low); W(e->u.between.high); break;
    case ATTU_EXPR_IN_LIST:
        W(e->u.in_list.arg);
        for (int i = 0; i < e->u.in_list.list.n; i++) W(e->u.in_list.list.items[i]);
        break;
    case ATTU_EXPR_IN_SUBQUERY: W(e->u.in_subquery.arg); break;
    case ATTU_EXPR_QUANTIFIED: W(e->u.quantified.arg); break;
    case ATTU_EXPR_LIKE: W(e->u.like.arg); W(e->u.like.pattern); W(e->u.like.escape); break;
    case ATTU_EXPR_CASE:
        W(e->u.case_.operand);
        for (int i = 0; i < e->u.case_.nwhens; i++) { W(e->u.case_.whens[i].when); W(e->u.case_.whens[i].then); }
        W(e->u.case_.else_);
        break;
    case ATTU_EXPR_CAST: W(e->u.cast.arg); break;
    case ATTU_EXPR_FUNC:
        for (int i = 0; i < e->u.func.args.n; i++) W(e->u.func.args.items[i]);
        W(e->u.func.filter);
        break;
    case ATTU_EXPR_EXTRACT: W(e->u.extract.arg); break;
    default: break;
    }
#undef W
    return r;
}

/* A subquery (PostgreSQL: "cannot use subquery in EXECUTE parameter"). */
static int is_subquery(const attu_ast_expr *e, void *ctx) {
    if (e->kind != ATTU_EXPR_IN_SUBQUERY && e->kind != ATTU_EXPR_EXISTS && e->kind != ATTU_EXPR_SUBQUERY &&
        e->kind != ATTU_EXPR_QUANTIFIED)
        return 0;
    *(const attu_ast_expr **)ctx = e;
    return 1;
}

/* The leftmost position in an expression, where PostgreSQL points at an
 * argument as a whole (its exprLocation): `'1' || '2'` at the '1'. */
static int leftmost(const attu_ast_expr *e, void *ctx) {
    int *pos = ctx;
    if (e->position > 0 && (*pos == 0 || e->position < *pos)) *pos = e->position;
    return 0;
}

static int argument_position(const attu_ast_expr *e) {
    int pos = 0;
    walk(e, leftmost, &pos);
    return pos;
}

/* An argument written as a string literal or NULL has no type of its own
 * (PostgreSQL's unknown): for an undeclared parameter it is handed over as
 * written, so its context types it as it would type the literal. */
static bool untyped_literal(const attu_ast_expr *e) {
    return e->kind == ATTU_EXPR_LITERAL &&
           (e->u.literal.kind == ATTU_LIT_STRING || e->u.literal.kind == ATTU_LIT_NULL);
}

/* The binder words its errors for a VALUES list, where constant
 * expressions are bound; EXECUTE's arguments have their own wording. */
static void reword_values_error(attu_error *err) {
    static const char tail[] = " in VALUES";
    size_t n = strlen(err->message), t = sizeof tail - 1;
    if (n >= t && !strcmp(err->message + n - t, tail) && n - t + 30 < sizeof err->message)
        snprintf(err->message + n - t, sizeof err->message - (n - t), " in EXECUTE parameters");
}

/* One argument bound and coerced to its parameter's type. */
static attu_bexpr *bind_argument(attu_plan_arena *pa, const char *sql, const attu_ast_expr *e, attu_type want,
                                 int k, attu_error *err) {
    if (untyped_literal(e) || want.id == ATTU_TYPE_UNKNOWN) {
        attu_bexpr *b = attu_bind_const_expr(pa, sql, e, want, NULL, err);
        if (!b) reword_values_error(err);
        return b;
    }
    attu_bexpr *b = attu_bind_const_expr(pa, sql, e, attu_type_make(ATTU_TYPE_UNKNOWN), NULL, err);
    if (!b) { reword_values_error(err); return NULL; }
    attu_bexpr *c = attu_bind_coerce_assign(pa, b, want, "", err);
    if (!c && !strcmp(err->sqlstate, ATTU_SQLSTATE_DATATYPE_MISMATCH)) {
        char b1[64], b2[64];
        attu_error_clear(err);
        attu_error_set(err, ATTU_SQLSTATE_DATATYPE_MISMATCH, argument_position(e),
                       "parameter $%d of type %s cannot be coerced to the expected type %s", k + 1,
                       attu_type_name(b->type, b2, sizeof b2), attu_type_name(want, b1, sizeof b1));
        attu_error_set_hint(err, "You will need to rewrite or cast the expression.");
    }
    return c;
}

/* Evaluates the arguments to the text values a prepared statement's
 * parameters take (NULL = SQL NULL); vals has n entries. */
static int evaluate_arguments(attu_session *s, const char *sql, const attu_prepared *p, const attu_ast_expr_list *args,
                              char **vals, attu_error *err) {
    int n = args->n;
    for (int i = 0; i < n; i++) {
        const attu_ast_expr *q = NULL;
        if (walk(args->items[i], is_subquery, &q)) return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, q->position,
                                     "cannot use subquery in EXECUTE parameter");
    }
    attu_plan_arena *pa = attu_plan_arena_new();
    int *col = calloc((size_t)n + 1, sizeof *col);
    attu_lplan *lp = pa ? attu_lp_new(pa, LP_VALUES, n) : NULL;
    if (!col || !lp || !(lp->values = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)(n + 1)))) {
        free(col);
        attu_plan_arena_free(pa);
        return attu_error_oom(err);
    }
    /* One row of the arguments that need evaluating, the others taken as
     * written */
    int k = 0, rc = -1;
    for (int i = 0; i < n; i++) {
        const attu_ast_expr *e = args->items[i];
        attu_type want = p->param_types[i];
        col[i] = -1;
        if (want.id == ATTU_TYPE_UNKNOWN && untyped_literal(e)) {
            if (e->u.literal.kind == ATTU_LIT_STRING && !(vals[i] = strndup(e->u.literal.text, e->u.literal.len))) {
                attu_error_oom(err);
                goto out;
            }
            continue;
        }
        attu_bexpr *b = bind_argument(pa, sql, e, want, i, err);
        if (!b) goto out;
        lp->values[k] = b;
        lp->types[k] = b->type;
        lp->names[k] = "?column?";
        col[i] = k++;
    }
    rc = 0;
    if (k > 0) {
        lp->ncols = k;
        lp->nrows = 1;
        lp->est_rows = 1;
        attu_lplan *rw = attu_rewrite(pa, lp, err);
        attu_stage *stage = rw ? attu_lower(rw, err) : NULL;
        attu_column **cols = NULL;
        size_t nrows = 0;
        rc = -1;
        if (stage) {
            pthread_rwlock_rdlock(&s->db->lock);
            rc = db_run_stage(s, stage, false, &cols, &nrows, err);
            pthread_rwlock_unlock(&s->db->lock);
            attu_stage_free(stage);
        }
        attu_datestyle was = attu_datestyle_use_iso();   /* the values are read back (datestyle.h) */
        for (int i = 0; !rc && i < n; i++) {
            if (col[i] < 0) continue;
            const attu_column *c = cols[col[i]];
            char buf[128];
            const char *longv = NULL;
            size_t len = nrows ? attu_column_format(c, 0, buf, sizeof buf, &longv) : (size_t)-1;
            if (len == (size_t)-1) continue;   /* NULL */
            /* a boolean reads back as what a text context shows for it */
            if (c->type.id == ATTU_TYPE_BOOL) vals[i] = strdup(buf[0] == 't' ? "true" : "false");
            else vals[i] = longv ? strndup(longv, len) : strndup(buf, len);
            if (!vals[i]) rc = attu_error_oom(err);
        }
        attu_datestyle_set_session(was);
        if (cols) {
            for (int i = 0; i < k; i++) attu_column_free(cols[i]);
            free(cols);
        }
    }
out:
    free(col);
    attu_plan_arena_free(pa);
    return rc;
}

int db_exec_execute(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_ast_stmt *wrap,
                    const attu_exec_callbacks *cb, attu_error *err) {
    const char *name = st->u.execute.name;
    attu_prepared *p = attu_session_prepared_find(s, name);
    if (!p) return attu_error_set(err, "26000", 0, "prepared statement \"%s\" does not exist", name);
    int n = st->u.execute.args.n;
    if (n != p->nparams) {
        attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "wrong number of parameters for prepared statement \"%s\"", name);
        attu_error_set_detail(err, "Expected %d parameters but got %d.", p->nparams, n);
        return -1;
    }
    if (!p->stmt) return 0;   /* a Parse of an empty string: nothing to run */
    if (wrap && wrap->kind == ATTU_STMT_EXPLAIN && p->stmt->kind != ATTU_STMT_SELECT && p->stmt->kind != ATTU_STMT_INSERT)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, wrap->position,
                              "EXPLAIN EXECUTE of %s is not supported", attu_ast_stmt_kind_name(p->stmt->kind));
    if (wrap && wrap->kind == ATTU_STMT_CREATE_TABLE_AS && p->stmt->kind != ATTU_STMT_SELECT)
        return attu_error_set(err, "42809", 0, "prepared statement is not a SELECT");
    char **vals = calloc((size_t)n + 1, sizeof *vals);
    if (!vals) return attu_error_oom(err);
    attu_prepared_ref(p);   /* an argument cannot drop it, but the statement can */
    int r = evaluate_arguments(s, sql, p, &st->u.execute.args, vals, err);
    if (!r) {
        r = db_prepared_run(s, p, wrap, (const char *const *)vals, cb, err);
        /* positions there point into the PREPARE's text, not this one */
        if (r == -1) err->position = 0;
    }
    for (int i = 0; i < n; i++) free(vals[i]);
    free(vals);
    attu_prepared_free(p);
    return r;
}
