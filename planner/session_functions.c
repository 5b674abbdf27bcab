/*
 * session_functions.c - binding pg_cancel_backend(pid),
 * pg_terminate_backend(pid [, timeout]), pg_notify(channel, payload),
 * pg_sleep(seconds), the advisory lock functions (pg_advisory_lock and
 * its family: db/db_advisory.c) and txid_current / pg_current_xact_id
 * (db/db_xact_id.c).
 *
 * Each acts on other sessions, which only the db layer (and the server
 * behind it) reaches, so like set_config (setting_functions.c) the call
 * is made while the query is bound, through attu_bind_params, and becomes
 * its result as a constant: exactly PostgreSQL's where the call runs
 * once (a SELECT without FROM, a VALUES row). With arguments that are
 * not constants (a query over rows) it is 0A000, except the whole
 * select-list item of a plain SELECT over rows, which the db layer
 * calls per result row (db/db_signal_fill.c). A query only described
 * (no_side_effects, describe_only) signals nothing and gives NULL.
 *
 * pg_notify and pg_sleep return void in PostgreSQL; attu has no void
 * type and gives an empty text, which prints the same (void's output is
 * the empty string; psycopg reads both as '').
 *
 * pg_sleep sleeps while the statement binds, once (PostgreSQL sleeps
 * once per row it is called for), and a cancel or statement_timeout ends
 * it with 57014, as PostgreSQL's: what clients' tests of cancelling use.
 */
#include "planner/binder_internal.h"

#include <stdlib.h>
#include <string.h>

/* The advisory lock functions: which operation, shared or exclusive,
 * transaction or session level */
static const struct advisory_fn { const char *name; int op; bool shared, xact; } advisory_fns[] = {
    { "pg_advisory_lock", ATTU_ADVISORY_LOCK, false, false },
    { "pg_advisory_lock_shared", ATTU_ADVISORY_LOCK, true, false },
    { "pg_try_advisory_lock", ATTU_ADVISORY_TRY, false, false },
    { "pg_try_advisory_lock_shared", ATTU_ADVISORY_TRY, true, false },
    { "pg_advisory_unlock", ATTU_ADVISORY_UNLOCK, false, false },
    { "pg_advisory_unlock_shared", ATTU_ADVISORY_UNLOCK, true, false },
    { "pg_advisory_unlock_all", ATTU_ADVISORY_UNLOCK_ALL, false, false },
    { "pg_advisory_xact_lock", ATTU_ADVISORY_LOCK, false, true },
    { "pg_advisory_xact_lock_shared", ATTU_ADVISORY_LOCK, true, true },
    { "pg_try_advisory_xact_lock", ATTU_ADVISORY_TRY, false, true },
    { "pg_try_advisory_xact_lock_shared", ATTU_ADVISORY_TRY, true, true },
};

static const struct advisory_fn *advisory_fn(const char *name) {
    for (size_t i = 0; i < sizeof advisory_fns / sizeof *advisory_fns; i++)
        if (!strcmp(advisory_fns[i].name, name)) return &advisory_fns[i];
    return NULL;
}

static bool xact_id_fn(const char *name) {
    return !strcmp(name, "txid_current") || !strcmp(name, "txid_current_if_assigned") ||
           !strcmp(name, "pg_current_xact_id") || !strcmp(name, "pg_current_xact_id_if_assigned");
}

bool attu_session_function_name(const char *name) {
    return !strcmp(name, "pg_cancel_backend") || !strcmp(name, "pg_terminate_backend") || !strcmp(name, "pg_notify") ||
           !strcmp(name, "pg_sleep") || advisory_fn(name) || xact_id_fn(name);
}

static bool plain_call(const attu_ast_expr *e) {
    return !e->u.func.star && !e->u.func.distinct && !e->u.func.order_by.n && !e->u.func.filter && !e->u.func.over;
}

static bool side_effects(const bctx *c) {
    return c->params && !c->params->no_side_effects && !c->params->describe_only;
}

static attu_bexpr *not_constant(bctx *c, const attu_ast_expr *e, const char *fn) {
    attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                   "%s() over the rows of a query is not supported: attu calls it once, in a SELECT without FROM, "
                   "or as a whole select-list item",
                   fn);
    return NULL;
}

static attu_bexpr *bind_signal(bctx *c, const scope *sc, const attu_ast_expr *e, bool terminate) {
    const char *fn = terminate ? "pg_terminate_backend" : "pg_cancel_backend";
    int n = e->u.func.args.n;
    attu_bexpr *args[2] = { 0 };
    bool fits = plain_call(e) && (n == 1 || (terminate && n == 2));
    for (int i = 0; i < n && i < 2; i++) {
        if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
        attu_type_id t = args[i]->type.id;
        fits &= !attu_type_is_array(args[i]->type) &&
                (t == ATTU_TYPE_UNKNOWN || t == ATTU_TYPE_INT16 || t == ATTU_TYPE_INT32 ||
                 (i == 1 && t == ATTU_TYPE_INT64));
    }
    if (!fits) return attu_no_function(c, e, args, n < 2 ? n : 2);
    for (int i = 0; i < n; i++) {
        attu_type want = attu_type_make(i == 0 ? ATTU_TYPE_INT32 : ATTU_TYPE_INT64);
        if (!(args[i] = coerce(c, args[i], want, false, e->u.func.args.items[i]->position))) return NULL;
        if (args[i]->kind != BX_CONST) return not_constant(c, e, fn);
    }
    attu_type boolean = attu_type_make(ATTU_TYPE_BOOL);
    /* strict: a NULL argument gives NULL */
    if (args[0]->is_null || (n == 2 && args[1]->is_null)) return mk_const_null(c, boolean);
    if (!side_effects(c) || !c->params->signal_backend) return mk_const_null(c, boolean);
    bool ok = false;
    if (c->params->signal_backend(c->params->setting_ctx, args[0]->i, terminate, n == 2 ? args[1]->i : 0, &ok, c->err))
        return NULL;
    attu_bexpr *k = attu_bx_new(c->pa, BX_CONST, boolean, e->position);
    if (!k) { attu_error_oom(c->err); return NULL; }
    k->i = ok;
    return k;
}

static attu_bexpr *bind_notify(bctx *c, const scope *sc, const attu_ast_expr *e) {
    int n = e->u.func.args.n;
    attu_bexpr *args[2] = { 0 };
    bool fits = plain_call(e) && n == 2;
    for (int i = 0; i < n && i < 2; i++) {
        if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
        attu_type_id t = args[i]->type.id;
        fits &= !attu_type_is_array(args[i]->type) && (t == ATTU_TYPE_UNKNOWN || t == ATTU_TYPE_TEXT);
    }
    if (!fits) return attu_no_function(c, e, args, n < 2 ? n : 2);
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT);
    for (int i = 0; i < 2; i++) {
        if (!(args[i] = coerce(c, args[i], txt, false, e->u.func.args.items[i]->position))) return NULL;
        if (args[i]->kind != BX_CONST) return not_constant(c, e, "pg_notify");
    }
    if (side_effects(c) && c->params->notify) {
        /* (not strict: a NULL channel is an empty one, a NULL payload empty) */
        char *ch = attu_pstrdup(c->pa, args[0]->is_null || !args[0]->s ? "" : args[0]->s,
                                args[0]->is_null || !args[0]->s ? 0 : args[0]->slen);
        char *pl = attu_pstrdup(c->pa, args[1]->is_null || !args[1]->s ? "" : args[1]->s,
                                args[1]->is_null || !args[1]->s ? 0 : args[1]->slen);
        if (!ch || !pl) { attu_error_oom(c->err); return NULL; }
        if (c->params->notify(c->params->setting_ctx, ch, pl, c->err)) return NULL;
    }
    attu_bexpr *k = attu_bx_new(c->pa, BX_CONST, txt, e->position);
    if (!k || !(k->s = attu_pstrdup(c->pa, "", 0))) { attu_error_oom(c->err); return NULL; }
    k->slen = 0;
    return k;
}

static attu_bexpr *empty_text(bctx *c, int pos) {
    attu_bexpr *k = attu_bx_new(c->pa, BX_CONST, attu_type_make(ATTU_TYPE_TEXT), pos);
    if (!k || !(k->s = attu_pstrdup(c->pa, "", 0))) { attu_error_oom(c->err); return NULL; }
    k->slen = 0;
    return k;
}

static attu_bexpr *bind_sleep(bctx *c, const scope *sc, const attu_ast_expr *e) {
    int n = e->u.func.args.n;
    attu_bexpr *args[2] = { 0 };
    for (int i = 0; i < n && i < 2; i++)
        if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
    attu_bexpr *arg = args[0];
    bool fits = plain_call(e) && n == 1;
    if (fits) {
        fits = !attu_type_is_array(arg->type) &&
               (arg->type.id == ATTU_TYPE_UNKNOWN || arg->type.id == ATTU_TYPE_INT16 ||
                arg->type.id == ATTU_TYPE_INT32 || arg->type.id == ATTU_TYPE_INT64 ||
                arg->type.id == ATTU_TYPE_FLOAT32 || arg->type.id == ATTU_TYPE_FLOAT64 ||
                arg->type.id == ATTU_TYPE_NUMERIC || arg->type.id == ATTU_TYPE_DECIMAL);
    }
    if (!fits) return attu_no_function(c, e, args, n < 2 ? n : 2);
    /* an untyped literal or parameter reads as float8 */
    if (arg->type.id == ATTU_TYPE_UNKNOWN &&
        !(arg = coerce(c, arg, attu_type_make(ATTU_TYPE_FLOAT64), false, e->u.func.args.items[0]->position)))
        return NULL;
    if (arg->kind != BX_CONST) return not_constant(c, e, "pg_sleep");
    /* the constant's seconds: a DECIMAL holds its value scaled by
     * 10^scale, a wide NUMERIC its text */
    double secs = 0;
    switch (arg->type.id) {
    case ATTU_TYPE_FLOAT32: case ATTU_TYPE_FLOAT64: secs = arg->f; break;
    case ATTU_TYPE_DECIMAL:
        secs = (double)arg->i;
        for (int k = 0; k < arg->type.scale; k++) secs /= 10;
        break;
    case ATTU_TYPE_NUMERIC: secs = arg->s ? strtod(arg->s, NULL) : 0; break;
    default: secs = (double)arg->i; break;
    }
    /* strict: pg_sleep(NULL) is NULL, without a sleep */
    if (arg->is_null) return mk_const_null(c, attu_type_make(ATTU_TYPE_TEXT));
    if (side_effects(c) && c->params->sleep && c->params->sleep(c->params->setting_ctx, secs, c->err))
        return NULL;
    return empty_text(c, e->position);
}

/* pg_advisory_lock(key bigint) / (key1 int, key2 int) and the rest: the
 * call is made while the statement binds (a SELECT without FROM), as
 * pg_sleep's; strict (a NULL key takes nothing and gives NULL). The lock
 * and unlock_all forms give void (an empty text), try and unlock a
 * boolean. */
static attu_bexpr *bind_advisory(bctx *c, const scope *sc, const attu_ast_expr *e, const struct advisory_fn *f) {
    int n = e->u.func.args.n;
    attu_bexpr *args[2] = { 0 };
    for (int i = 0; i < n && i < 2; i++)
        if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
    bool fits = plain_call(e) && (f->op == ATTU_ADVISORY_UNLOCK_ALL ? n == 0 : (n == 1 || n == 2));
    for (int i = 0; fits && i < n; i++) {
        attu_type_id t = args[i]->type.id;
        fits = !attu_type_is_array(args[i]->type) &&
               (t == ATTU_TYPE_UNKNOWN || t == ATTU_TYPE_INT16 || t == ATTU_TYPE_INT32 || (n == 1 && t == ATTU_TYPE_INT64));
    }
    if (!fits) return attu_no_function(c, e, args, n < 2 ? n : 2);
    attu_type at = attu_type_make(n == 1 ? ATTU_TYPE_INT64 : ATTU_TYPE_INT32);
    bool null_key = false;
    for (int i = 0; i < n; i++) {
        if (!(args[i] = coerce(c, args[i], at, false, e->u.func.args.items[i]->position))) return NULL;
        if (args[i]->kind != BX_CONST) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                           "%s() over the rows of a query is not supported: attu calls it once, in a SELECT without FROM",
                           f->name);
            return NULL;
        }
        null_key |= args[i]->is_null;
    }
    const bool gives_bool = f->op == ATTU_ADVISORY_TRY || f->op == ATTU_ADVISORY_UNLOCK;
    attu_type rt = attu_type_make(gives_bool ? ATTU_TYPE_BOOL : ATTU_TYPE_TEXT);
    if (null_key || !side_effects(c) || !c->params->advisory) return mk_const_null(c, rt);
    int64_t key = n == 1 ? args[0]->i : n == 2 ? (int64_t)(((uint64_t)(uint32_t)args[0]->i << 32) | (uint32_t)args[1]->i) : 0;
    bool result = true;
    if (c->params->advisory(c->params->setting_ctx, f->op, f->shared, f->xact, n == 2 ? 2 : 1, key, &result, c->err))
        return NULL;
    return gives_bool ? mk_const_int(c, rt, result) : empty_text(c, e->position);
}

/* txid_current() and pg_current_xact_id(): the transaction's id (given
 * now if it had none: db/db_xact_id.c), bigint (PostgreSQL's
 * pg_current_xact_id is xid8, which attu has not); the _if_assigned forms
 * NULL where none was given. A query only described gives none. */
static attu_bexpr *bind_xact_id(bctx *c, const attu_ast_expr *e) {
    attu_type i8 = attu_type_make(ATTU_TYPE_INT64);
    if (!plain_call(e) || e->u.func.args.n) return attu_no_function(c, e, NULL, 0);
    bool assign = !strstr(e->u.func.name, "_if_assigned");
    int64_t id = side_effects(c) && c->params->xact_id ? c->params->xact_id(c->params->setting_ctx, assign) : 0;
    return id ? mk_const_int(c, i8, id) : mk_const_null(c, i8);
}

attu_bexpr *attu_bind_session_call(bctx *c, const scope *sc, const attu_ast_expr *e) {
    const char *fn = e->u.func.name;
    const struct advisory_fn *af = advisory_fn(fn);
    if (af) return bind_advisory(c, sc, e, af);
    if (xact_id_fn(fn)) return bind_xact_id(c, e);
    if (!strcmp(fn, "pg_notify")) return bind_notify(c, sc, e);
    if (!strcmp(fn, "pg_sleep")) return bind_sleep(c, sc, e);
    return bind_signal(c, sc, e, !strcmp(fn, "pg_terminate_backend"));
}
