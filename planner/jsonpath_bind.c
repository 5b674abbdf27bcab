/*
 * jsonpath_bind.c - binding PostgreSQL 15's jsonpath type and its
 * functions: jsonpath literals and casts, jsonb_path_exists / _match /
 * _query / _query_array / _query_first (and their _tz forms, the same
 * here: attu has no .datetime()), and the operators jsonb @? jsonpath and
 * jsonb @@ jsonpath. Each is one ATTU_OP_JSON instruction (ATTU_JS_PATH_IN,
 * ATTU_JS_PATH: engine/json.h, engine/jsonpath.h), host only like the
 * other json functions.
 *
 * jsonb_path_query is a set-returning function whose rows are the
 * elements of jsonb_path_query_array's result: the series and the
 * columns of jsonb_array_elements over that array (planner/json_bind.c),
 * in the select list and in FROM (planner/srf.c).
 */
#include "planner/binder_internal.h"
#include "engine/json.h"
#include "engine/jsonpath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static attu_bexpr *path_call(bctx *c, attu_type t, int pos, int nargs, attu_bexpr *a0, attu_bexpr *a1, attu_bexpr *a2,
                             attu_bexpr *a3, int fn) {
    attu_bexpr *e = mk_call(c, ATTU_OP_JSON, t, pos, nargs, a0, a1, a2, a3);
    if (e) { e->aux = ATTU_JS_PATH; e->imm = fn; }
    return e;
}

/* ---- the type ------------------------------------------------------------------------- */

attu_bexpr *attu_jsonpath_parse_literal(bctx *c, attu_bexpr *r, const char *s, size_t len) {
    char *out = NULL;
    size_t n = 0;
    if (attu_jsonpath_canonical(s, len, &out, &n, c->err)) out = NULL;
    return mk_const_canonical(c, r, out, n);
}

/* jsonpath -> text types (explicit: the canonical text), text types ->
 * jsonpath (explicit: jsonpath_in), as PostgreSQL's I/O conversion casts */
attu_bexpr *attu_jsonpath_coerce(bctx *c, attu_bexpr *e, attu_type t, bool explicit_cast, int pos) {
    attu_type from = e->type;
    if (e->kind == BX_CONST && e->is_null) { attu_bexpr *n = mk_const_null(c, t); if (n) n->position = e->position; return n; }
    if (attu_type_equal(from, t)) return e;
    bool plain_to = t.id == ATTU_TYPE_TEXT && !attu_type_is_array(t) && !attu_type_is_typed_text(t);
    bool plain_from = from.id == ATTU_TYPE_TEXT && !attu_type_is_array(from) && !attu_type_is_typed_text(from);
    if (attu_type_is_jsonpath(from) && plain_to) {
        if (!explicit_cast) return cast_refused(c, from, t, false, pos);
        attu_bexpr *m = mk_call(c, ATTU_OP_MOVE, attu_type_make(ATTU_TYPE_TEXT), pos, 1, e, NULL, NULL, NULL);
        /* varchar(n) / char(n): through text, where the length rule applies */
        return m && !(t.scale == 0 && t.precision == 0) ? coerce(c, m, t, explicit_cast, pos) : m;
    }
    if (attu_type_is_jsonpath(t) && plain_from) {
        if (!explicit_cast) return cast_refused(c, from, t, false, pos);
        if (attu_type_is_bpchar_any(from) && !(e = coerce(c, e, attu_type_make(ATTU_TYPE_TEXT), true, pos))) return NULL;
        attu_bexpr *x = mk_call(c, ATTU_OP_JSON, t, pos, 1, e, NULL, NULL, NULL);
        if (x) x->aux = ATTU_JS_PATH_IN;
        return x;
    }
    return cast_refused(c, from, t, explicit_cast, pos);
}

/* ---- functions and operators ------------------------------------------------------------ */

static const char *const names[] = {
    "jsonb_path_exists", "jsonb_path_match", "jsonb_path_query", "jsonb_path_query_array", "jsonb_path_query_first",
    "jsonb_path_exists_tz", "jsonb_path_match_tz", "jsonb_path_query_tz", "jsonb_path_query_array_tz",
    "jsonb_path_query_first_tz",
};

bool attu_jsonpath_function_name(const char *name) {
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) if (!strcmp(names[i], name)) return true;
    return false;
}

/* the function a name stands for (the _tz forms are the same: no .datetime()) */
static int func_of(const char *name) {
    size_t n = strlen(name);
    char b[64];
    if (n >= sizeof b) return -1;
    memcpy(b, name, n + 1);
    if (n > 3 && !strcmp(b + n - 3, "_tz")) b[n - 3] = 0;
    if (!strcmp(b, "jsonb_path_exists")) return JPF_EXISTS;
    if (!strcmp(b, "jsonb_path_match")) return JPF_MATCH;
    if (!strcmp(b, "jsonb_path_query") || !strcmp(b, "jsonb_path_query_array")) return JPF_QUERY_ARRAY;
    if (!strcmp(b, "jsonb_path_query_first")) return JPF_QUERY_FIRST;
    return -1;
}

/* an argument of type t (jsonb, jsonpath or boolean), an untyped literal
 * read as t; NULL where it is of another type */
static attu_bexpr *typed_arg(bctx *c, attu_bexpr *x, attu_type t, int pos) {
    if (x->type.id == ATTU_TYPE_UNKNOWN) return coerce(c, x, t, false, x->position ? x->position : pos);
    if (attu_type_equal(x->type, t) && x->type.id == t.id) return x;
    return NULL;
}

/* the call's arguments: target jsonb, path jsonpath [, vars jsonb [, silent boolean]] */
static bool path_args(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n, attu_bexpr **out) {
    attu_type want[4] = { attu_type_json(1), attu_type_jsonpath(), attu_type_json(1), attu_type_make(ATTU_TYPE_BOOL) };
    if (n < 2 || n > 4) { attu_no_function(c, e, args, n); return false; }
    for (int i = 0; i < n; i++) {
        if (!(out[i] = typed_arg(c, args[i], want[i], e->position))) {
            if (!c->err->set) attu_no_function(c, e, args, n);
            return false;
        }
    }
    for (int i = n; i < 4; i++) out[i] = NULL;
    if (n == 2) {
        /* vars' default, '{}' (an unknown variable is an error then) */
        attu_bexpr *v = attu_bx_new(c->pa, BX_CONST, attu_type_json(1), e->position);
        if (!v || !(v->s = attu_pstrdup(c->pa, "{}", 2))) { attu_error_oom(c->err); return false; }
        v->slen = 2;
        out[2] = v;
    }
    return true;
}

/* the path function fn over bound arguments a[0..n) */
static attu_bexpr *path_value(bctx *c, int fn, attu_bexpr **a, int n, int pos) {
    attu_type t = fn == JPF_EXISTS || fn == JPF_MATCH ? attu_type_make(ATTU_TYPE_BOOL) : attu_type_json(1);
    return path_call(c, t, pos, n < 3 ? 3 : n, a[0], a[1], a[2], a[3], fn);
}

attu_bexpr *attu_jsonpath_srf_series(bctx *c, const attu_ast_expr *call, attu_bexpr **args, int n, int *ncols) {
    attu_bexpr *a[4];
    if (!path_args(c, call, args, n, a)) return NULL;
    attu_bexpr *arr = path_value(c, JPF_QUERY_ARRAY, a, n, call->position);
    *ncols = 1;
    return arr ? attu_json_srf_series_mode(c, arr, 0, call->u.func.name, call->position) : NULL;
}

attu_bexpr *attu_bind_jsonpath_call(bctx *c, const scope *sc, const attu_ast_expr *e) {
    const char *name = e->u.func.name;
    int pos = e->position, n = e->u.func.args.n;
    attu_bexpr *args[100] = { 0 };
    if (n > 100) n = 100;
    for (int i = 0; i < n; i++) if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
    if (e->u.func.star || e->u.func.distinct || e->u.func.over || e->u.func.variadic) return attu_no_function(c, e, args, n);
    int fn = func_of(name);
    bool query = strstr(name, "_query") && !strstr(name, "_array") && !strstr(name, "_first");
    attu_bexpr *a[4];
    if (!path_args(c, e, args, n, a)) return NULL;
    if (!query) return path_value(c, fn, a, n, pos);
    /* jsonb_path_query in the select list: a series over the array's elements */
    if (!attu_srf_allowed_here(c, pos)) return NULL;
    attu_bexpr *arr = path_value(c, JPF_QUERY_ARRAY, a, n, pos);
    attu_bexpr *x = arr ? attu_json_srf_series_mode(c, arr, 0, name, pos) : NULL;
    return x ? attu_json_srf_column(c, "jsonb_path_query", arr, x, 0, pos) : NULL;
}

/* jsonb @? jsonpath (exists) and jsonb @@ jsonpath (match), silent */
attu_bexpr *attu_jsonpath_operator(bctx *c, bool match, attu_bexpr *l, attu_bexpr *r, int pos) {
    attu_bexpr *a[4] = { 0 };
    a[0] = typed_arg(c, l, attu_type_json(1), pos);
    a[1] = a[0] ? typed_arg(c, r, attu_type_jsonpath(), pos) : NULL;
    if (c->err->set) return NULL;
    if (!a[0] || !a[1]) {
        char b1[64], b2[64];
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "operator does not exist: %s %s %s", tname(l->type, b1),
                       match ? "@@" : "@?", tname(r->type, b2));
        attu_error_set_hint(c->err, "No operator matches the given name and argument types. You might need to add explicit type casts.");
        return NULL;
    }
    /* no vars argument at all (every variable is null then, as
     * PostgreSQL's operators have it), silent */
    return path_call(c, attu_type_make(ATTU_TYPE_BOOL), pos, 2, a[0], a[1], NULL, NULL,
                     (match ? JPF_MATCH : JPF_EXISTS) | JPF_SILENT_NO_VARS);
}

/* an argument bound twice without harm: a literal, a column, a cast of one */
static bool plain_arg(const attu_ast_expr *a) {
    while (a->kind == ATTU_EXPR_CAST) a = a->u.cast.arg;
    return a->kind == ATTU_EXPR_LITERAL || a->kind == ATTU_EXPR_COLUMN;
}

/* PostgreSQL's 42883 for a call in named notation that matches no
 * function: each argument by its name, if it has one, and its type. */
static bool named_error(bctx *c, const scope *sc, const attu_ast_expr *e) {
    int n = e->u.func.args.n;
    char list[512];
    size_t at = 0;
    list[0] = 0;
    for (int i = 0; i < n && at + 1 < sizeof list; i++) {
        const attu_ast_expr *a = e->u.func.args.items[i];
        attu_bexpr *x = bind_expr(c, sc, a);
        if (!x) return false;
        char tb[64];
        int w = snprintf(list + at, sizeof list - at, "%s%s%s%s", i ? ", " : "", a->arg_name ? a->arg_name : "",
                         a->arg_name ? " => " : "", tname(x->type, tb));
        if (w < 0) break;
        at += (size_t)w;
    }
    attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, e->position, "function %s(%s) does not exist", e->u.func.name, list);
    attu_error_set_hint(c->err, "No function matches the given name and argument types. You might need to add explicit type casts.");
    return false;
}

/* A jsonb_path_* call with arguments in named notation (target, path,
 * vars, silent: PostgreSQL's parameter names) made positional into *out:
 * a missing vars is '{}', a missing silent false, as their defaults; a
 * missing target or path, an unknown name or one given twice is 42883 as
 * PostgreSQL has no such function (42601 for a name given twice). */
bool attu_jsonpath_named_call(bctx *c, const scope *sc, const attu_ast_expr *e, attu_ast_expr *out) {
    static const char *const params[4] = { "target", "path", "vars", "silent" };
    int n = e->u.func.args.n;
    *out = *e;
    bool named = false;
    for (int i = 0; i < n; i++) if (e->u.func.args.items[i]->arg_name) named = true;
    if (!named) return true;
    const attu_ast_expr *slot[4] = { 0 };
    bool ok = n <= 4;
    for (int i = 0; ok && i < n; i++) {
        const attu_ast_expr *a = e->u.func.args.items[i];
        int k = i;
        if (a->arg_name) {
            k = -1;
            for (int j = 0; j < 4; j++) if (!strcmp(params[j], a->arg_name)) k = j;
            for (int j = 0; j < i; j++)
                if (e->u.func.args.items[j]->arg_name && !strcmp(e->u.func.args.items[j]->arg_name, a->arg_name)) {
                    attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, a->position, "argument name \"%s\" used more than once", a->arg_name);
                    return false;
                }
        }
        if (k < 0 || slot[k]) ok = false;
        else slot[k] = a;
    }
    int last = -1;
    for (int j = 0; j < 4; j++) if (slot[j]) last = j;
    if (ok && slot[0] && slot[1]) {
        /* each argument of its parameter's type (or untyped), else no such function */
        attu_type want[4] = { attu_type_json(1), attu_type_jsonpath(), attu_type_json(1), attu_type_make(ATTU_TYPE_BOOL) };
        for (int j = 0; ok && j < 4; j++) {
            if (!slot[j] || !plain_arg(slot[j])) continue;   /* (bound once only, below) */
            attu_bexpr *x = bind_expr(c, sc, slot[j]);
            if (!x) return false;
            ok = x->type.id == ATTU_TYPE_UNKNOWN || (attu_type_equal(x->type, want[j]) && x->type.id == want[j].id);
        }
    }
    if (!ok || !slot[0] || !slot[1]) return named_error(c, sc, e);
    attu_ast_expr **items = attu_palloc(c->pa, sizeof(attu_ast_expr *) * 4);
    if (!items) { attu_error_oom(c->err); return false; }
    for (int j = 0; j <= last; j++) {
        attu_ast_expr *x = attu_palloc(c->pa, sizeof *x);
        if (!x) { attu_error_oom(c->err); return false; }
        if (slot[j]) *x = *slot[j];
        else {
            memset(x, 0, sizeof *x);
            x->kind = ATTU_EXPR_LITERAL; x->position = e->position; x->depth = 1;
            x->u.literal.kind = j == 2 ? ATTU_LIT_STRING : ATTU_LIT_BOOL;
            x->u.literal.text = j == 2 ? (char *)"{}" : (char *)"false";
            x->u.literal.len = strlen(x->u.literal.text);
        }
        x->arg_name = NULL;
        items[j] = x;
    }
    out->u.func.args.items = items;
    out->u.func.args.n = last + 1;
    return true;
}
