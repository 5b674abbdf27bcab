/*
 * sql_function_bind.c - calls of user-defined SQL functions
 * (engine/sql_function.h): resolution and inlining.
 *
 * Resolution follows PostgreSQL's for a function name (func_select_candidate,
 * simplified): the call's arguments are bound once for their types; a
 * function fits when it takes that many (trailing DEFAULTs filling the
 * rest, named arguments matched by name) and each argument is of its
 * parameter's type, an untyped literal or implicitly castable to it. A
 * VARIADIC function takes its array parameter's elements as the call's
 * trailing arguments (at least one; PostgreSQL's expanded form), or,
 * where the call writes VARIADIC, the array itself; of two functions
 * that fit alike, the one not expanded wins. Of
 * those that fit, the ones with the most exact matches win, then the ones
 * taking preferred types (float8, text, timestamptz) where a cast is
 * needed, then those taking text where an untyped literal stands; more
 * than one left is 42725. None fits: the call is left to the built-in
 * functions (whose 42883 names the call's types).
 *
 * Inlining. A function is never run as such: its body is parsed and bound
 * in place of the call, each parameter ($k, or its name) binding the
 * call's k-th argument (cast to the parameter's type) where it stands, as
 * catalog_functions.c binds its macros. So what a function computes runs
 * as the calling query's expressions on every backend, the GPU's too. A
 * body that is one expression (SELECT expr, no FROM) is that expression,
 * PostgreSQL's inlining; any other SELECT is a scalar subquery of its
 * first row (LIMIT 1), correlated through the arguments. STRICT wraps
 * the body in CASE WHEN an argument IS NULL THEN NULL. The result is cast
 * to the declared type (CREATE FUNCTION checked that an assignment cast
 * exists).
 *
 * In FROM. A scalar function's call there is its one row, the LATERAL
 * subquery (SELECT f(args) AS alias). A set-returning one's (RETURNS SETOF
 * / TABLE) is a LATERAL subquery whose query, once the call is resolved,
 * is the body itself (attu_sql_function_rows), its columns renamed and
 * cast as declared; STRICT filters its rows by the arguments. In the
 * select list, a whole item calling one is that LATERAL join
 * (attu_sql_function_select_srf), which is PostgreSQL's expansion where
 * nothing aggregates, orders by or lockstep-expands beside it.
 *
 * Names. In an expression body a name that is a parameter's is the
 * parameter (nothing else can be named there); under FROM the query's
 * columns come first and a parameter's name is tried before the calling
 * query's columns, as PostgreSQL's SQL functions resolve them. An
 * argument itself binds in the call's scope: at a subquery body's top
 * level in a scope of no columns, so that it reads the calling query
 * (correlated); in a subquery nested deeper in the body from where it
 * stands, so there the body's own columns could hide a caller's column of
 * the same name (docs/sql-reference.md says so).
 *
 * An aggregate in the body over a parameter (SELECT sum(x)) would, once
 * inlined, aggregate the calling query's rows: it is refused (0A000).
 *
 * Recursion: every call inlines afresh, so a function that calls itself
 * nests until ATTU_FUNCTION_MAX_DEPTH and fails with PostgreSQL's 54001,
 * whether or not a CASE would have stopped it at run time.
 */
#include "planner/binder_internal.h"
#include "engine/comments.h"
#include "engine/sql_function.h"
#include "planner/parser.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* how many SQL function calls may be inlined inside one another */
#define ATTU_FUNCTION_MAX_DEPTH 40

/* A set-returning function's FROM item, whose subquery's query is a
 * stand-in that bind_query hands to attu_sql_function_rows. */
struct sql_fn_from {
    const attu_ast_query      *query;
    const attu_ast_from       *item;
    const struct sql_fn_from  *next;
};

/* A function call being inlined: its parameters and what they stand for. */
struct sql_fn_frame {
    const attu_sql_function    *f;
    const attu_ast_expr *const *args;   /* f->nargs: the call's argument or the DEFAULT */
    const scope                *sc;     /* the call's scope */
    const bctx                 *c;      /* the call's context: an argument read there binds in sc */
    const char                 *sql;    /* the call's text */
    struct sql_fn_frame        *up;
    bool                        names_first;   /* an expression body */
    bool                        arg_failed;    /* an argument's own error */
    bool                        agg_at_call;   /* the call stands in an aggregate's argument */
    int                         depth;
};

static void free_parse(void *p) { attu_parse_free(p); }
static void free_function(void *p) { attu_sql_function_free(p); }

/* The k-th parameter's value where the body reads it (sc: the body's
 * scope there). */
static attu_bexpr *bind_arg(bctx *c, const scope *sc, int k) {
    struct sql_fn_frame *fr = c->sql_fn;
    if (c->in_agg && !(c == fr->c && fr->agg_at_call)) {
        /* an aggregate of the body over a parameter: inlined, the
         * argument would make it an aggregate of the calling query */
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                       "an aggregate over a parameter of SQL function %s is not supported (attu inlines the function)",
                       fr->f->name);
        fr->arg_failed = true;
        return NULL;
    }
    const char *text = c->sql;
    c->sql_fn = fr->up;
    c->sql = fr->sql;
    /* where the argument binds: in the call's own context its scope; in
     * a subquery body's top level a scope of no columns, so that its
     * names reach past the body's FROM to the call's (a correlated
     * reference); deeper in the body, where it stands */
    static const scope none = { 0, NULL, 0 };
    const scope *at = c == fr->c ? fr->sc : c->outer == fr->sc && !fr->names_first ? &none : sc;
    attu_bexpr *r = bind_expr(c, at, fr->args[k]);
    /* (explicit: the call's arguments cast implicitly, which resolution
     * checked; a DEFAULT by an assignment cast, which CREATE checked) */
    if (r && attu_type_pg_oid(r->type) != attu_type_pg_oid(fr->f->arg_types[k]))
        r = coerce(c, r, fr->f->arg_types[k], true, fr->args[k]->position);
    c->sql_fn = fr;
    c->sql = text;
    if (!r) fr->arg_failed = true;
    return r;
}

/* The parameter a name stands for in fr's body: its index, or -1. A
 * name may be qualified by the function's name (f.x). */
static int param_named(const struct sql_fn_frame *fr, const char *qual, const char *name) {
    if (qual && strcmp(qual, fr->f->name)) return -1;
    for (int k = 0; k < fr->f->nargs; k++)
        if (fr->f->arg_names[k] && !strcmp(fr->f->arg_names[k], name)) return k;
    return -1;
}

attu_bexpr *attu_sql_function_param(bctx *c, const scope *sc, const attu_ast_expr *e, bool before_scope,
                                    bool *handled) {
    *handled = false;
    struct sql_fn_frame *fr = c->sql_fn;
    if (fr) {
        if (e->kind == ATTU_EXPR_PARAM) {
            *handled = true;
            int k = e->u.param.number - 1;
            if (k < 0 || k >= fr->f->nargs) {
                attu_error_set(c->err, "42P02", 0, "there is no parameter $%d", k + 1);
                return NULL;
            }
            return bind_arg(c, sc, k);
        }
        if (e->kind != ATTU_EXPR_COLUMN || before_scope != fr->names_first) return NULL;
        int k = param_named(fr, e->u.column.qualifier, e->u.column.name);
        if (k < 0) return NULL;
        *handled = true;
        return bind_arg(c, sc, k);
    }
    /* CREATE FUNCTION's check of a body: the names stand for its $k
     * (attu_bind_params.param_names) */
    const attu_bind_params *p = c->params;
    if (before_scope || e->kind != ATTU_EXPR_COLUMN || !p || !p->param_names) return NULL;
    if (e->u.column.qualifier && (!p->function_name || strcmp(e->u.column.qualifier, p->function_name))) return NULL;
    for (int k = 0; k < p->n; k++)
        if (p->param_names[k] && !strcmp(p->param_names[k], e->u.column.name)) {
            attu_ast_expr pe;
            memset(&pe, 0, sizeof pe);
            pe.kind = ATTU_EXPR_PARAM;
            pe.position = e->position;
            pe.depth = 1;
            pe.u.param.number = k + 1;
            *handled = true;
            return bind_expr(c, sc, &pe);
        }
    return NULL;
}

/* PostgreSQL's preferred type of a type's category. */
static bool preferred(attu_type t) {
    return !attu_type_is_array(t) &&
           (t.id == ATTU_TYPE_FLOAT64 || t.id == ATTU_TYPE_TEXT || t.id == ATTU_TYPE_TIMESTAMPTZ ||
            t.id == ATTU_TYPE_INTERVAL || t.id == ATTU_TYPE_BOOL);
}

/* How well f fits a call of n arguments of types ts (names: each
 * argument's name or NULL): -1 not at all, else the exact matches; slot
 * gets, for each parameter, the call's argument index (-1: its DEFAULT);
 * *pref the preferred types where a cast is needed, *unk_text the text
 * parameters where an untyped literal stands; *vcount the call's
 * arguments that are the variadic array's elements (-1: not expanded,
 * call_variadic: the call writes VARIADIC). */
static int fit(const attu_sql_function *f, int n, const attu_type *ts, const char *const *names, bool call_variadic,
               int *slot, int *pref, int *unk_text, int *vcount) {
    /* expanded: the arguments from the variadic parameter's place on are
     * its elements, positional ones */
    bool expand = f->variadic && !call_variadic && n >= f->nargs;   /* (fewer: its DEFAULT) */
    int nfixed = expand ? f->nargs - 1 : f->nargs;
    *vcount = -1;
    if (expand) {
        for (int i = nfixed; i < n; i++) if (names[i]) return -1;
        *vcount = n - nfixed;
    } else if (n > f->nargs) return -1;
    for (int k = 0; k < f->nargs; k++) slot[k] = -1;
    for (int i = 0; i < (expand ? nfixed : n); i++) {
        int k = i;
        if (names[i]) {
            k = -1;
            for (int j = 0; j < f->nargs; j++)
                if (f->arg_names[j] && !strcmp(f->arg_names[j], names[i])) k = j;
            if (k < 0 || slot[k] >= 0) return -1;
        }
        slot[k] = i;
    }
    if (expand) slot[nfixed] = nfixed;
    for (int k = 0; k < f->nargs; k++)
        if (slot[k] < 0 && !f->arg_defaults[k]) return -1;
    int exact = 0;
    *pref = *unk_text = 0;
    for (int i = nfixed; expand && i < n; i++) {
        attu_type a = ts[i], p = attu_type_array_elem(f->arg_types[nfixed]);
        if (a.id == ATTU_TYPE_UNKNOWN) { *unk_text += p.id == ATTU_TYPE_TEXT; continue; }
        if (attu_type_pg_oid(a) == attu_type_pg_oid(p)) { exact++; continue; }
        bool implicit = false;
        if (attu_cast_opcode(a, p, &implicit) < 0 || !implicit) return -1;
        *pref += preferred(p);
    }
    for (int k = 0; k < nfixed; k++) {
        if (slot[k] < 0) continue;
        attu_type a = ts[slot[k]], p = f->arg_types[k];
        if (a.id == ATTU_TYPE_UNKNOWN) { *unk_text += p.id == ATTU_TYPE_TEXT; continue; }
        if (attu_type_pg_oid(a) == attu_type_pg_oid(p)) { exact++; continue; }
        bool implicit = false;
        if (attu_cast_opcode(a, p, &implicit) < 0 || !implicit) return -1;
        *pref += preferred(p);
    }
    return exact;
}

/* "f(integer, text)" for messages. */
static void call_text(const char *name, int n, const attu_type *ts, char *buf, size_t cap) {
    size_t used = (size_t)snprintf(buf, cap, "%s(", name);
    for (int i = 0; i < n && used < cap; i++) {
        char tb[96];
        used += (size_t)snprintf(buf + used, cap - used, "%s%s", i ? ", " : "",
                                 ts[i].id == ATTU_TYPE_UNKNOWN ? "unknown" : attu_type_name(ts[i], tb, sizeof tb));
    }
    if (used < cap) snprintf(buf + used, cap - used, ")");
}

/* The expression of a stored DEFAULT's text (parsed into the arena's
 * keeping). */
static const attu_ast_expr *parse_default(bctx *c, const char *text) {
    size_t len = strlen(text);
    char *q = attu_palloc(c->pa, len + 8);
    if (!q) { attu_error_oom(c->err); return NULL; }
    memcpy(q, "SELECT ", 7);
    memcpy(q + 7, text, len + 1);
    attu_error e;
    memset(&e, 0, sizeof e);
    attu_parse_result *pr = attu_parse(q, &e);
    if (!pr) { attu_error_set(c->err, "XX000", 0, "a function's DEFAULT cannot be read: %s", e.message); return NULL; }
    if (attu_plan_arena_on_free(c->pa, free_parse, pr)) { attu_error_oom(c->err); return NULL; }
    return pr->stmts[0].stmt->u.select.query->u.select.items[0].expr;
}

static attu_ast_expr *new_expr(bctx *c, attu_ast_expr_kind kind, int pos, int depth) {
    attu_ast_expr *x = attu_palloc(c->pa, sizeof *x);
    if (!x) { attu_error_oom(c->err); return NULL; }
    x->kind = kind;
    x->position = pos;
    x->depth = depth;
    return x;
}

/* What each of f's parameters stands for in call e: the call's argument,
 * its DEFAULT, or, for a variadic parameter the call expands (vcount >=
 * 0), ARRAY[its trailing arguments] (cast to the parameter's array type
 * where the parameter is read). */
static const attu_ast_expr **call_args(bctx *c, const attu_ast_expr *e, const attu_sql_function *f, const int *slot,
                                       int vcount) {
    const attu_ast_expr **args = attu_palloc(c->pa, sizeof *args * (size_t)(f->nargs + 1));
    if (!args) { attu_error_oom(c->err); return NULL; }
    for (int k = 0; k < f->nargs; k++) {
        if (vcount >= 0 && k == f->nargs - 1) {
            attu_ast_expr *arr = new_expr(c, ATTU_EXPR_FUNC, e->position, 1);
            attu_ast_expr **items = attu_palloc(c->pa, sizeof *items * (size_t)(vcount + 1));
            if (!arr || !items) { attu_error_oom(c->err); return NULL; }
            for (int i = 0; i < vcount; i++) {
                const attu_ast_expr *a = e->u.func.args.items[slot[k] + i];
                items[i] = (attu_ast_expr *)a;
                if (a->depth + 1 > arr->depth) arr->depth = a->depth + 1;
            }
            arr->u.func.name = " array";
            arr->u.func.args.items = items;
            arr->u.func.args.n = vcount;
            args[k] = arr;
        } else if (slot[k] >= 0) {
            attu_ast_expr *a = attu_palloc(c->pa, sizeof *a);
            if (!a) { attu_error_oom(c->err); return NULL; }
            *a = *e->u.func.args.items[slot[k]];
            a->arg_name = NULL;
            args[k] = a;
        } else if (!(args[k] = parse_default(c, f->arg_defaults[k]))) return NULL;
    }
    return args;
}

/* CASE WHEN $1 IS NULL OR ... THEN NULL ELSE body END (body NULL: the
 * condition $1 IS NULL OR ... alone) */
static attu_ast_expr *strict_wrap(bctx *c, const attu_sql_function *f, attu_ast_expr *body) {
    attu_ast_expr *cond = NULL;
    for (int k = 0; k < f->nargs; k++) {
        attu_ast_expr *p = new_expr(c, ATTU_EXPR_PARAM, 0, 1), *is = new_expr(c, ATTU_EXPR_IS, 0, 2);
        if (!p || !is) return NULL;
        p->u.param.number = k + 1;
        is->u.is.arg = p;
        is->u.is.what = ATTU_IS_NULL;
        if (!cond) { cond = is; continue; }
        attu_ast_expr *or = new_expr(c, ATTU_EXPR_BINARY, 0, cond->depth + 1);
        if (!or) return NULL;
        or->u.binary.op = ATTU_BINOP_OR;
        or->u.binary.op_text = "OR";
        or->u.binary.left = cond;
        or->u.binary.right = is;
        cond = or;
    }
    if (!body) return cond;   /* (the condition alone) */
    attu_ast_expr *nul = new_expr(c, ATTU_EXPR_LITERAL, 0, 1);
    attu_ast_expr *cs = new_expr(c, ATTU_EXPR_CASE, 0, (cond->depth > body->depth ? cond->depth : body->depth) + 1);
    attu_ast_case_when *w = attu_palloc(c->pa, sizeof *w);
    if (!nul || !cs || !w) { attu_error_oom(c->err); return NULL; }
    nul->u.literal.kind = ATTU_LIT_NULL;
    nul->u.literal.text = "null";
    nul->u.literal.len = 4;
    w->when = cond;
    w->then = nul;
    cs->u.case_.whens = w;
    cs->u.case_.nwhens = 1;
    cs->u.case_.else_ = body;
    return cs;
}

/* What every inlined call starts with: its nesting depth checked
 * (inlining a recursive function never ends: 54001 as PostgreSQL's stack
 * limit), its arguments in the parameters' order, and the body parsed
 * (arena-owned), which must be one SELECT. NULL with c->err set. */
static attu_ast_query *call_body(bctx *c, const attu_ast_expr *e, const attu_sql_function *f, const int *slot,
                                 int vcount, int *depth_out, const attu_ast_expr ***args_out,
                                 const char **body_out) {
    int depth = c->sql_fn ? c->sql_fn->depth + 1 : 1;
    if (depth > ATTU_FUNCTION_MAX_DEPTH) {
        attu_error_set(c->err, "54001", 0, "stack depth limit exceeded");
        attu_error_set_hint(c->err, "Increase the configuration parameter \"max_stack_depth\" (currently 2048kB), "
                                    "after ensuring the platform's stack depth limit is adequate.");
        return NULL;
    }
    const attu_ast_expr **args = call_args(c, e, f, slot, vcount);
    if (!args) return NULL;
    char *body = attu_pstrdup(c->pa, f->body, strlen(f->body));
    if (!body) { attu_error_oom(c->err); return NULL; }
    attu_error pe;
    memset(&pe, 0, sizeof pe);
    attu_parse_result *pr = attu_parse(body, &pe);
    if (!pr) { *c->err = pe; c->err->position = 0; return NULL; }
    if (attu_plan_arena_on_free(c->pa, free_parse, pr)) { attu_error_oom(c->err); return NULL; }
    if (pr->n != 1 || pr->stmts[0].stmt->kind != ATTU_STMT_SELECT || !pr->stmts[0].stmt->u.select.query) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                       "only SQL functions whose body is one SELECT are supported");
        return NULL;
    }
    *depth_out = depth;
    *args_out = args;
    *body_out = body;   /* the text the body's positions count in */
    return pr->stmts[0].stmt->u.select.query;
}

/* Whether q is one expression: SELECT expr and nothing else. */
static bool expression_body(const attu_ast_query *q) {
    return q->kind == ATTU_QUERY_SELECT && !q->with.n && q->u.select.nitems == 1 && !q->u.select.from.n &&
           !q->u.select.where && !q->u.select.group_by.n && !q->u.select.group_empty && !q->u.select.having &&
           !q->u.select.distinct && !q->u.select.distinct_on.n && !q->u.select.nwindows && !q->order_by.n &&
           !q->limit && !q->offset && q->u.select.items[0].expr->kind != ATTU_EXPR_STAR;
}

static attu_bexpr *inline_call(bctx *c, const scope *sc, const attu_ast_expr *e, attu_sql_function *f,
                               const int *slot, int vcount) {
    int depth;
    const attu_ast_expr **args;
    const char *body;
    attu_ast_query *q = call_body(c, e, f, slot, vcount, &depth, &args, &body);
    if (!q) return NULL;
    bool simple = expression_body(q);
    attu_ast_expr *be;
    if (simple) {
        be = q->u.select.items[0].expr;
    } else {
        /* the first row's first column: a scalar subquery of LIMIT 1 */
        attu_ast_expr *one = new_expr(c, ATTU_EXPR_LITERAL, 0, 1);
        if (!one || !(be = new_expr(c, ATTU_EXPR_SUBQUERY, e->position, q->depth + 1))) return NULL;
        one->u.literal.kind = ATTU_LIT_INTEGER;
        one->u.literal.text = "1";
        one->u.literal.len = 1;
        q->limit = one;
        q->limit_with_ties = false;
        be->u.subquery.query = q;
    }
    if (f->strict && f->nargs && !(be = strict_wrap(c, f, be))) return NULL;
    struct sql_fn_frame fr = { f, args, sc, c, c->sql, c->sql_fn, simple, false, c->in_agg, depth };
    const char *save_sql = c->sql;
    c->sql_fn = &fr;
    c->sql = body;
    attu_bexpr *r = bind_expr(c, sc, be);
    c->sql_fn = fr.up;
    c->sql = save_sql;
    /* the body's own error has no place in the calling query's text */
    if (!r && !fr.arg_failed && c->err->set) c->err->position = 0;
    if (!r) return NULL;
    if (r->type.id == ATTU_TYPE_UNKNOWN || attu_type_pg_oid(r->type) != attu_type_pg_oid(f->ret))
        r = coerce(c, r, f->ret, true, e->position);
    if (r && f->ret.id == ATTU_TYPE_DECIMAL) r->type.no_typmod = 1;
    /* a varchar result is varchar without a length, whatever text the
     * body made (its values are text's: engine/types.h) */
    if (r && attu_type_is_varchar_any(f->ret) && r->type.id == ATTU_TYPE_TEXT && !attu_type_is_bpchar_any(r->type))
        r->type = attu_type_varchar_unbounded();
    else if (r)
        r->type = varchar_without_length(r->type);
    return r;
}

/* Resolves call e among the SQL functions of its name, its arguments
 * bound in sc for their types: the function (the caller frees it with the
 * arena), slot its parameters' arguments; NULL with *found false when
 * none fits (or a built-in of the name should have the call), or with
 * err set (42725, no memory). */
static attu_sql_function *resolve(bctx *c, const scope *sc, const attu_ast_expr *e, int *slot, int *vcount,
                                  bool *found) {
    *found = false;
    const char *name = e->u.func.name;
    const attu_comments *cs = attu_catalog_comments(c->cat);
    int n = e->u.func.args.n;
    attu_type ts[ATTU_FUNCTION_MAX_ARGS];
    const char *names[ATTU_FUNCTION_MAX_ARGS];
    for (int i = 0; i < n; i++) {
        const attu_ast_expr *a = e->u.func.args.items[i];
        names[i] = a->arg_name;
        /* (bound here for its type only: the body binds it again where
         * the parameter stands) */
        attu_bexpr *b = bind_expr(c, sc, a);
        if (!b) { *found = true; return NULL; }
        ts[i] = b->type;
    }
    int nf = 0;
    attu_sql_function **fs = attu_sql_functions_named(cs, name, &nf);
    if (nf < 0) { *found = true; attu_error_oom(c->err); return NULL; }
    int best = -1, best_exact = -1, best_pref = -1, best_unk = -1, best_vc = -1, ties = 0;
    int one[ATTU_FUNCTION_MAX_ARGS];
    for (int i = 0; i < nf; i++) {
        int pref = 0, unk = 0, vc = -1;
        int ex = fit(fs[i], n, ts, names, e->u.func.variadic, one, &pref, &unk, &vc);
        if (ex < 0) continue;
        bool same = ex == best_exact && pref == best_pref && unk == best_unk;
        /* alike, a function not expanded beats a variadic one expanded
         * (PostgreSQL keeps only the former of two equal signatures) */
        bool better = ex > best_exact || (ex == best_exact && (pref > best_pref || (pref == best_pref && unk > best_unk))) ||
                      (same && vc < 0 && best_vc >= 0);
        if (same && vc >= 0 && best_vc < 0) continue;
        if (better) {
            best = i; best_exact = ex; best_pref = pref; best_unk = unk; best_vc = vc; ties = 0;
            memcpy(slot, one, sizeof one[0] * (size_t)fs[i]->nargs);
        } else if (same) ties++;
    }
    *vcount = best_vc;
    attu_sql_function *f = best >= 0 ? fs[best] : NULL;
    for (int i = 0; i < nf; i++) if (i != best) attu_sql_function_free(fs[i]);
    free(fs);
    if (!f) return NULL;   /* the built-in functions' turn (their 42883) */
    if (best_exact < n && attu_builtin_function_name(name)) {
        /* a built-in function of the name: the SQL function only where
         * every argument is of its parameter's type (PostgreSQL weighs
         * both sets of candidates; upper('a') stays the built-in) */
        attu_sql_function_free(f);
        return NULL;
    }
    *found = true;
    if (attu_plan_arena_on_free(c->pa, free_function, f)) { attu_error_oom(c->err); return NULL; }
    if (ties) {
        char buf[512];
        call_text(name, n, ts, buf, sizeof buf);
        attu_error_set(c->err, "42725", e->position, "function %s is not unique", buf);
        attu_error_set_hint(c->err, "Could not choose a best candidate function. You might need to add explicit type casts.");
        return NULL;
    }
    return f;
}

attu_bexpr *attu_bind_sql_function(bctx *c, const scope *sc, const attu_ast_expr *e, bool *handled) {
    *handled = false;
    const char *name = e->u.func.name;
    if (!c->cat || (e->u.func.schema && strcmp(e->u.func.schema, "public"))) return NULL;
    if (!attu_sql_function_exists(attu_catalog_comments(c->cat), name)) return NULL;
    if (e->u.func.star || e->u.func.distinct || e->u.func.order_by.n || e->u.func.filter || e->u.func.over ||
        e->u.func.within_group || e->u.func.args.n > ATTU_FUNCTION_MAX_ARGS)
        return NULL;
    int slot[ATTU_FUNCTION_MAX_ARGS], vcount;
    attu_sql_function *f = resolve(c, sc, e, slot, &vcount, handled);
    if (!f) return NULL;
    if (!c->sql_fn && c->params && c->params->function_name) {
        /* CREATE FUNCTION's check of a body (the function itself may be
         * the one called): the call is resolved, its value only typed */
        attu_bexpr *v = mk_const_null(c, f->ret);
        if (v) v->type = varchar_without_length(f->ret);
        return v;
    }
    if (f->retset) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                       "set-returning SQL function %s is supported in FROM and as a whole select-list item only", name);
        return NULL;
    }
    return inline_call(c, sc, e, f, slot, vcount);
}

const attu_ast_from *attu_sql_function_from(bctx *c, const attu_ast_from *f) {
    if (f->kind != ATTU_FROM_FUNCTION || f->u.function.ncalls || f->u.function.ordinality ||
        f->u.function.coldefs.n || !c->cat)
        return f;
    const attu_ast_expr *call = f->u.function.call;
    const char *name = call->u.func.name;
    if ((call->u.func.schema && strcmp(call->u.func.schema, "public")) ||
        !attu_sql_function_exists(attu_catalog_comments(c->cat), name) || !strcmp(name, "generate_series") ||
        !strcmp(name, "unnest") || !strcmp(name, "generate_subscripts") || attu_json_srf_name(name) ||
        attu_json_record_name(name))
        return f;
    /* a set-returning one among the functions of the name: the call is
     * resolved where the subquery binds (attu_sql_function_rows), its
     * query a stand-in that bind_query knows */
    int nf = 0;
    bool rows = false;
    attu_sql_function **fs = attu_sql_functions_named(attu_catalog_comments(c->cat), name, &nf);
    for (int i = 0; i < nf; i++) { rows |= fs[i]->retset; attu_sql_function_free(fs[i]); }
    free(fs);
    if (nf < 0) { attu_error_oom(c->err); return NULL; }
    if (rows) {
        attu_ast_query *stand_in = attu_palloc(c->pa, sizeof *stand_in);
        attu_ast_from *sub = attu_palloc(c->pa, sizeof *sub);
        struct sql_fn_from *link = attu_palloc(c->pa, sizeof *link);
        if (!stand_in || !sub || !link) { attu_error_oom(c->err); return NULL; }
        stand_in->kind = ATTU_QUERY_SELECT;
        stand_in->position = f->position;
        stand_in->depth = call->depth + 1;
        link->query = stand_in;
        link->item = f;
        link->next = c->sql_fn_from;
        c->sql_fn_from = link;
        sub->kind = ATTU_FROM_SUBQUERY;
        sub->position = f->position;
        sub->depth = stand_in->depth + 1;
        sub->alias = (char *)(f->alias ? f->alias : name);
        sub->column_aliases = f->column_aliases;
        sub->u.subquery.query = stand_in;
        sub->u.subquery.lateral = true;
        return sub;
    }
    attu_ast_select_item *item = attu_palloc(c->pa, sizeof *item);
    attu_ast_query *q = attu_palloc(c->pa, sizeof *q);
    attu_ast_from *sub = attu_palloc(c->pa, sizeof *sub);
    if (!item || !q || !sub) { attu_error_oom(c->err); return NULL; }
    /* the column is named after the alias, else the function (PostgreSQL's
     * for a function returning a base type) */
    item->expr = (attu_ast_expr *)call;
    item->alias = (char *)(f->alias ? f->alias : name);
    item->alias_position = f->position;
    q->kind = ATTU_QUERY_SELECT;
    q->position = f->position;
    q->depth = call->depth + 1;
    q->u.select.items = item;
    q->u.select.nitems = 1;
    sub->kind = ATTU_FROM_SUBQUERY;
    sub->position = f->position;
    sub->depth = q->depth + 1;
    sub->alias = (char *)(f->alias ? f->alias : name);
    sub->column_aliases = f->column_aliases;
    sub->u.subquery.query = q;
    sub->u.subquery.lateral = true;
    return sub;
}

attu_lplan *attu_sql_function_rows(bctx *c, const attu_ast_query *q, bool *handled) {
    *handled = false;
    const struct sql_fn_from *link = c->sql_fn_from;
    while (link && link->query != q) link = link->next;
    if (!link) return NULL;
    *handled = true;
    const attu_ast_from *item = link->item;
    const attu_ast_expr *e = item->u.function.call;
    const char *name = e->u.func.name;
    /* the arguments read the FROM items before the call (the subquery's
     * outer scope), never the body's */
    static const scope none = { 0, NULL, 0 };
    int slot[ATTU_FUNCTION_MAX_ARGS], vcount;
    bool found;
    if (e->u.func.args.n > ATTU_FUNCTION_MAX_ARGS) { attu_error_set(c->err, "54023", e->position, "too many arguments"); return NULL; }
    attu_sql_function *f = resolve(c, &none, e, slot, &vcount, &found);
    if (!f) {
        if (!found) {
            /* no SQL function fits: the message of a call with these types */
            bool h;
            attu_bind_sql_function(c, &none, e, &h);
            if (!c->err->set) {
                attu_bexpr *args[ATTU_FUNCTION_MAX_ARGS];
                int n = e->u.func.args.n;
                for (int i = 0; i < n; i++) if (!(args[i] = bind_expr(c, &none, e->u.func.args.items[i]))) return NULL;
                attu_no_function(c, e, args, n);
            }
        }
        return NULL;
    }
    if (!f->retset) {
        /* a scalar function of the name fits: its one row */
        attu_ast_select_item *it = attu_palloc(c->pa, sizeof *it);
        attu_ast_query *one = attu_palloc(c->pa, sizeof *one);
        if (!it || !one) { attu_error_oom(c->err); return NULL; }
        it->expr = (attu_ast_expr *)e;
        it->alias = (char *)(item->alias ? item->alias : name);
        one->kind = ATTU_QUERY_SELECT;
        one->position = item->position;
        one->depth = e->depth + 1;
        one->u.select.items = it;
        one->u.select.nitems = 1;
        return bind_query(c, one);
    }
    int depth;
    const attu_ast_expr **args;
    const char *body;
    const attu_ast_query *bq = call_body(c, e, f, slot, vcount, &depth, &args, &body);
    if (!bq) return NULL;
    if (f->strict && f->nargs) {
        /* STRICT: no rows for a NULL argument, SELECT * FROM (body) AS s
         * WHERE NOT ($1 IS NULL OR ...) */
        attu_ast_expr *nul = strict_wrap(c, f, NULL), *star = new_expr(c, ATTU_EXPR_STAR, 0, 1);
        attu_ast_expr *not = new_expr(c, ATTU_EXPR_UNARY, 0, nul ? nul->depth + 1 : 1);
        attu_ast_select_item *it = attu_palloc(c->pa, sizeof *it);
        attu_ast_from *sub = attu_palloc(c->pa, sizeof *sub);
        attu_ast_from **from = attu_palloc(c->pa, sizeof *from);
        attu_ast_query *w = attu_palloc(c->pa, sizeof *w);
        if (!nul || !star || !not || !it || !sub || !from || !w) { attu_error_oom(c->err); return NULL; }
        not->u.unary.op = ATTU_UNOP_NOT;
        not->u.unary.op_text = "NOT";
        not->u.unary.arg = nul;
        it->expr = star;
        sub->kind = ATTU_FROM_SUBQUERY;
        sub->depth = bq->depth + 1;
        sub->alias = "\001strict";
        sub->u.subquery.query = (attu_ast_query *)bq;
        from[0] = sub;
        w->kind = ATTU_QUERY_SELECT;
        w->depth = (sub->depth > not->depth ? sub->depth : not->depth) + 1;
        w->u.select.items = it;
        w->u.select.nitems = 1;
        w->u.select.from.items = from;
        w->u.select.from.n = 1;
        w->u.select.where = not;
        bq = w;
    }
    struct sql_fn_frame fr = { f, args, &none, c, c->sql, c->sql_fn, false, false, c->in_agg, depth };
    const char *save_sql = c->sql;
    c->sql_fn = &fr;
    c->sql = body;
    attu_lplan *lp = bind_query(c, bq);
    c->sql_fn = fr.up;
    c->sql = save_sql;
    if (!lp) {
        if (!fr.arg_failed && c->err->set) c->err->position = 0;
        return NULL;
    }
    /* the declared columns: their names, each cast to its type */
    int want = f->nout ? f->nout : 1;
    if (lp->ncols != want) {
        char tb[96];
        attu_error_set(c->err, "42P13", 0, "return type mismatch in function declared to return %s",
                       attu_type_name(f->ret, tb, sizeof tb));
        return NULL;
    }
    attu_lplan *p = attu_lp_new(c->pa, LP_PROJECT, want);
    if (!p || !(p->exprs = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(want + 1)))) { attu_error_oom(c->err); return NULL; }
    p->left = lp;
    p->est_rows = lp->est_rows;
    for (int i = 0; i < want; i++) {
        attu_type decl = f->nout ? f->out_types[i] : f->ret;
        attu_bexpr *col = attu_bx_col(c->pa, i, lp->types[i]);
        if (!col) { attu_error_oom(c->err); return NULL; }
        if (attu_type_pg_oid(lp->types[i]) != attu_type_pg_oid(decl) || lp->types[i].id == ATTU_TYPE_UNKNOWN)
            col = coerce(c, col, decl, true, e->position);
        if (!col) return NULL;
        if (decl.id == ATTU_TYPE_DECIMAL) col->type.no_typmod = 1;
        if (attu_type_is_varchar_any(decl)) col->type = attu_type_varchar_unbounded();
        p->exprs[i] = col;
        p->types[i] = col->type;
        p->names[i] = (char *)(f->nout ? f->out_names[i] : item->alias ? item->alias : name);
    }
    return p;
}

/* Whether call e names a set-returning SQL function (some function of its
 * name is one). */
static bool names_set_function(bctx *c, const attu_ast_expr *e) {
    if (!e || e->kind != ATTU_EXPR_FUNC || (e->u.func.schema && strcmp(e->u.func.schema, "public")) || e->u.func.star ||
        e->u.func.distinct || e->u.func.over || e->u.func.filter || e->u.func.order_by.n || e->u.func.within_group)
        return false;
    const attu_comments *cs = attu_catalog_comments(c->cat);
    if (!attu_sql_function_exists(cs, e->u.func.name)) return false;
    int nf = 0;
    bool set = false;
    attu_sql_function **fs = attu_sql_functions_named(cs, e->u.func.name, &nf);
    for (int i = 0; i < nf; i++) { set |= fs[i]->retset; attu_sql_function_free(fs[i]); }
    free(fs);
    return set;
}

const attu_ast_query *attu_sql_function_select_srf(bctx *c, const attu_ast_query *q) {
    if (!c->cat || q->kind != ATTU_QUERY_SELECT) return q;
    const typeof(q->u.select) *s = &q->u.select;
    int at = -1;
    for (int i = 0; i < s->nitems; i++)
        if (names_set_function(c, s->items[i].expr)) {
            if (at >= 0) return q;   /* two: PostgreSQL runs them in lockstep (left to the usual error) */
            at = i;
        }
    if (at < 0) return q;
    /* only where the rows of the function are all the expansion does: no
     * aggregation, DISTINCT or window after it, no * that would take its
     * column, no ORDER BY of the call itself */
    if (s->group_by.n || s->group_empty || s->having || s->distinct || s->distinct_on.n || s->nwindows) return q;
    for (int i = 0; i < s->nitems; i++) {
        const attu_ast_expr *x = s->items[i].expr;
        if ((x->kind == ATTU_EXPR_STAR && !x->u.star.qualifier) || attu_aggregate_in(x)) return q;
    }
    for (int i = 0; i < q->order_by.n; i++) {
        const attu_ast_expr *o = q->order_by.items[i].expr;
        if (o->kind == ATTU_EXPR_FUNC && !strcmp(o->u.func.name, s->items[at].expr->u.func.name)) return q;
    }
    static const char alias[] = "\001srf";
    const attu_ast_expr *call = s->items[at].expr;
    attu_ast_select_item *items;
    attu_ast_query *nq = attu_select_with_lateral_call(c, q, call, alias, &items);
    attu_ast_expr *col = nq ? attu_palloc(c->pa, sizeof *col) : NULL;
    if (!nq) return NULL;
    if (!col) { attu_error_oom(c->err); return NULL; }
    memset(col, 0, sizeof *col);
    col->kind = ATTU_EXPR_COLUMN;
    col->position = call->position;
    col->depth = 1;
    col->u.column.qualifier = (char *)alias;
    col->u.column.name = (char *)alias;
    items[at].expr = col;
    /* (the column PostgreSQL names after the function) */
    if (!items[at].alias) items[at].alias = call->u.func.name;
    return nq;
}
