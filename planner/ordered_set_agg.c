/*
 * ordered_set_agg.c - binding the ordered-set aggregates, as PostgreSQL 15:
 *
 *   percentile_cont(fraction) WITHIN GROUP (ORDER BY value)   double precision
 *                                                             (interval for an interval)
 *   percentile_disc(fraction) WITHIN GROUP (ORDER BY value)   value's type
 *   mode() WITHIN GROUP (ORDER BY value)                      value's type
 *
 * The call binds to a BX_AGG whose args[0] is the value (cast to double
 * precision for percentile_cont, as PostgreSQL's implicit cast picks its
 * float8 form; an interval stays one) and args[1] the fraction (double
 * precision; mode has none);
 * order[0] is the WITHIN GROUP item (its direction matters, its NULL
 * placement does not: NULL values are skipped). A FILTER turns the value
 * NULL on the rows it drops, as for the other aggregates.
 *
 * The fraction is a direct argument: evaluated once per group, so it may
 * read only grouped columns (binder.c's agg_rewrite checks it, 42803 with
 * PostgreSQL's detail) and no aggregate of its level. The executor
 * (engine/executor_ordered_set.c) takes it from the group's rows, or, for
 * the one group of a keyless aggregate without rows, evaluates it alone
 * (lower.c's osa_fracs: it reads the enclosing query or parameters only).
 *
 * Errors as PostgreSQL's parser reports them: WITHIN GROUP on another
 * function (42809 for an aggregate that takes that many arguments, else
 * 42883 over the direct and ordered arguments' types), an ordered-set
 * aggregate without WITHIN GROUP (42809 when the argument count fits, else
 * 42883), OVER (0A000); DISTINCT and a second ORDER BY are the grammar's
 * 42601. The array forms (percentile_cont(ARRAY[...])) do not exist here:
 * attu has no arrays (the grammar reports ARRAY[...] as 0A000), and the
 * hypothetical-set aggregates (rank(v) WITHIN GROUP ...) are refused with
 * 0A000 (functions.c).
 */
#include "planner/binder_internal.h"

#include <string.h>

/* Restores the aggregate-binding flags bind_ordered_set_agg changes. */
typedef struct osa_save { bool allow_agg, allow_window, in_agg; const char *clause; } osa_save;

static osa_save osa_enter(bctx *c) {
    osa_save s = { c->allow_agg, c->allow_window, c->in_agg, c->clause };
    c->allow_agg = false;       /* an aggregate inside is nested (42803) */
    c->allow_window = false;
    c->in_agg = true;
    return s;
}

static void osa_leave(bctx *c, osa_save s) {
    c->allow_agg = s.allow_agg; c->allow_window = s.allow_window; c->in_agg = s.in_agg; c->clause = s.clause;
}

/* 42883 over the direct arguments' then the ordered arguments' types. */
static attu_bexpr *osa_no_function(bctx *c, const scope *sc, const attu_ast_expr *e) {
    attu_bexpr *args[8] = { 0 };
    int n = 0;
    osa_save sv = osa_enter(c);
    for (int i = 0; i < e->u.func.args.n && n < 8; i++)
        if (!(args[n++] = bind_expr(c, sc, e->u.func.args.items[i]))) { osa_leave(c, sv); return NULL; }
    for (int i = 0; e->u.func.within_group && i < e->u.func.order_by.n && n < 8; i++)
        if (!(args[n++] = bind_expr(c, sc, e->u.func.order_by.items[i].expr))) { osa_leave(c, sv); return NULL; }
    osa_leave(c, sv);
    return attu_no_function(c, e, args, n);
}

attu_bexpr *attu_within_group_misuse(bctx *c, const scope *sc, const attu_ast_expr *e, bool agg, bool count_matches) {
    if (!count_matches) return osa_no_function(c, sc, e);
    if (agg)
        attu_error_set(c->err, "42809", e->position, "%s is not an ordered-set aggregate, so it cannot have WITHIN GROUP", e->u.func.name);
    else
        attu_error_set(c->err, "42809", e->position, "WITHIN GROUP specified, but %s is not an aggregate function", e->u.func.name);
    return NULL;
}

attu_bexpr *attu_bind_ordered_set_agg(bctx *c, const scope *sc, const attu_ast_expr *e, attu_agg_kind kind) {
    const char *name = e->u.func.name;
    int ndirect = kind == AGG_MODE ? 0 : 1;
    int n = e->u.func.args.n;
    if (!e->u.func.within_group) {
        /* percentile_cont(0.5, x): the function exists but wants WITHIN GROUP */
        if (n == ndirect + 1 && !e->u.func.star && !e->u.func.order_by.n) {
            attu_error_set(c->err, "42809", e->position, "WITHIN GROUP is required for ordered-set aggregate %s", name);
            return NULL;
        }
        return osa_no_function(c, sc, e);
    }
    if (e->u.func.star || n != ndirect || e->u.func.order_by.n != 1) return osa_no_function(c, sc, e);

    /* the aggregate's level, as bind_aggregate's */
    bool denied = !c->allow_agg;
    if (denied && !c->agg_level) {
        if (c->in_agg) attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, e->position, "aggregate function calls cannot be nested");
        else attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, e->position, "aggregate functions are not allowed in %s", c->clause);
        return NULL;
    }
    const attu_ast_order_item *item = &e->u.func.order_by.items[0];
    attu_type f8 = attu_type_make(ATTU_TYPE_FLOAT64);
    osa_save sv = osa_enter(c);
    attu_bexpr *frac = NULL, *val = NULL, *args[2] = { 0 };
    if (ndirect && !(frac = bind_expr(c, sc, e->u.func.args.items[0]))) goto fail;
    if (!(val = bind_expr(c, sc, item->expr))) goto fail;
    args[0] = frac; args[1] = val;
    /* the function's signature: fraction float8; percentile_cont's value
     * float8 or interval, the others' any type */
    if (frac && !is_numeric(frac->type.id) && frac->type.id != ATTU_TYPE_UNKNOWN) goto nofn;
    if (kind == AGG_PERCENTILE_CONT) {
        if (val->type.id != ATTU_TYPE_INTERVAL) {
            if (!is_numeric(val->type.id) && val->type.id != ATTU_TYPE_UNKNOWN) goto nofn;
            if (!(val = coerce(c, val, f8, false, e->position))) goto fail;
        }
    } else if (val->type.id == ATTU_TYPE_UNKNOWN) {
        /* anyelement cannot take an untyped literal (or NULL) */
        attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, 0, "could not determine polymorphic type because input has type unknown");
        goto fail;
    }
    if (frac && !(frac = coerce(c, frac, f8, false, e->position))) goto fail;
    if (e->u.func.over) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "OVER is not supported for ordered-set aggregate %s", name);
        goto fail;
    }
    if (e->u.func.filter) {
        /* agg(...) FILTER (WHERE f): the value NULL where f is not true */
        attu_bexpr *f = bind_expr(c, sc, e->u.func.filter);
        if (!f || !(f = coerce_bool(c, f, "FILTER"))) goto fail;
        attu_bexpr *cs = attu_bx_new(c->pa, BX_CASE, val->type, e->position);
        if (!cs) { attu_error_oom(c->err); goto fail; }
        cs->nwhens = 1;
        cs->whens = attu_palloc(c->pa, sizeof(attu_bexpr *));
        cs->thens = attu_palloc(c->pa, sizeof(attu_bexpr *));
        if (!cs->whens || !cs->thens) { attu_error_oom(c->err); goto fail; }
        cs->whens[0] = f; cs->thens[0] = val;
        val = cs;
    }
    osa_leave(c, sv);

    attu_bexpr *x = attu_bx_new(c->pa, BX_AGG, kind == AGG_PERCENTILE_CONT && val->type.id != ATTU_TYPE_INTERVAL ? f8 : val->type,
                                e->position);
    attu_sort_item *ord = attu_palloc(c->pa, sizeof *ord);
    if (!x || !ord) { attu_error_oom(c->err); return NULL; }
    x->agg = kind;
    x->args[0] = val;
    x->args[1] = frac;
    x->nargs = frac ? 2 : 1;
    ord->expr = val;
    ord->desc = item->desc;
    ord->nulls_first = item->nulls == ATTU_NULLS_DEFAULT ? item->desc : item->nulls == ATTU_NULLS_FIRST;
    x->order = ord;
    x->norder = 1;
    return attu_bind_agg_level(c, x, denied);
nofn:
    osa_leave(c, sv);
    return attu_no_function(c, e, frac ? args : args + 1, frac ? 2 : 1);
fail:
    osa_leave(c, sv);
    return NULL;
}
