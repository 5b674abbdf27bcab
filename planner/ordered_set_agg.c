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
 * 42601. The array forms (percentile_cont(ARRAY[...])) are not built
 * (0A000).
 *
 * The hypothetical-set aggregates (rank(v) WITHIN GROUP ...) are bound at
 * the end of this file (attu_bind_hypothetical_agg).
 */
#include "planner/binder_internal.h"

#include <stdio.h>
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
    if (frac && attu_type_is_array(frac->type)) {
        /* percentile_cont(ARRAY[...]): the forms over an array of
         * fractions, returning an array, are not built */
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                       "%s over an array of fractions: arrays are not supported as its argument", e->u.func.name);
        goto fail;
    }
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

    /* mode and percentile_disc return anyelement: a varchar without its
     * length (varchar_type.c) */
    attu_bexpr *x = attu_bx_new(c->pa, BX_AGG, kind == AGG_PERCENTILE_CONT && val->type.id != ATTU_TYPE_INTERVAL ? f8
                                               : varchar_without_length(val->type),
                                e->position);
    attu_sort_item *ord = attu_palloc(c->pa, sizeof *ord);
    if (!x || !ord) { attu_error_oom(c->err); return NULL; }
    x->agg = kind;
    x->args[0] = val;
    x->args[1] = frac;
    x->nargs = frac ? 2 : 1;
    /* a bpchar without a length sorts, and mode() counts its runs,
     * without trailing blanks (bpchar_key); the value picked keeps them */
    if (!(ord->expr = bpchar_key(c, val))) return NULL;
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

/* ---- hypothetical-set aggregates -------------------------------------------
 *
 *   rank(v1, ..., vn) WITHIN GROUP (ORDER BY x1, ..., xn)          bigint
 *   dense_rank(...), percent_rank(...), cume_dist(...)             bigint, double precision
 *
 * The rank the hypothetical row (v1..vn) would have among the group's rows
 * sorted by (x1..xn), each item in its direction and NULL placement (NULLs
 * last ascending, first descending, as PostgreSQL sorts). They bind to
 * plain aggregates over per-row predicates, so every backend runs them with
 * the aggregation it has (COUNT, COUNT(DISTINCT)):
 *
 *   before(row): the row sorts strictly before the hypothetical one: for
 *     the first item where they are not peers, x < v (> descending), or x
 *     not NULL and v NULL (NULLs last), or x NULL and v not (NULLs first);
 *   peer(row): every item equal, or both NULL. Comparisons are the
 *     operators' (a float's NaN equals NaN and sorts after every number,
 *     -0 equals 0: PostgreSQL's sort order), over the common type of x and
 *     v (42804 where there is none, "WITHIN GROUP types ... cannot be
 *     matched").
 *
 *   rank         = 1 + count(before)
 *   dense_rank   = 1 + count(DISTINCT (x1, ..., xn) where before), NULL
 *                  items peers (hyp_count_tuples)
 *   percent_rank = count(before) / count(rows), 0 without rows
 *   cume_dist    = (count(before or peer) + 1) / (count(rows) + 1)
 *
 * A FILTER restricts every count. The direct arguments v are evaluated per
 * group, as an ordered-set aggregate's: grouped columns, the enclosing
 * query's, parameters (agg_rewrite checks them: the aggregate's `direct`).
 */

static attu_bexpr *hyp_case(bctx *c, attu_bexpr *when, attu_bexpr *then, attu_bexpr *else_, int pos) {
    attu_bexpr *cs = attu_bx_new(c->pa, BX_CASE, then->type, pos);
    if (!cs || !(cs->whens = attu_palloc(c->pa, sizeof(attu_bexpr *))) || !(cs->thens = attu_palloc(c->pa, sizeof(attu_bexpr *)))) {
        attu_error_oom(c->err);
        return NULL;
    }
    cs->nwhens = 1;
    cs->whens[0] = when; cs->thens[0] = then; cs->else_ = else_;
    return cs;
}

/* count(arg) or count(*) (arg NULL), at the level of its arguments */
static attu_bexpr *hyp_count(bctx *c, attu_bexpr *arg, bool denied, int pos) {
    attu_bexpr *x = attu_bx_new(c->pa, BX_AGG, attu_type_make(ATTU_TYPE_INT64), pos);
    if (!x) { attu_error_oom(c->err); return NULL; }
    x->agg = arg ? AGG_COUNT : AGG_COUNT_STAR;
    x->args[0] = arg;
    x->nargs = arg ? 1 : 0;
    return attu_bind_agg_level(c, x, denied);
}

/* count of the rows where pred holds (and the FILTER, f) */
static attu_bexpr *hyp_count_if(bctx *c, attu_bexpr *pred, attu_bexpr *f, bool denied, int pos) {
    attu_type b = attu_type_make(ATTU_TYPE_BOOL);
    if (f && pred) pred = mk_call(c, ATTU_OP_AND, b, pos, 2, f, pred, NULL, NULL);
    else if (f) pred = f;
    if (!pred) return hyp_count(c, NULL, denied, pos);
    attu_bexpr *one = mk_const_int(c, attu_type_make(ATTU_TYPE_INT32), 1);
    attu_bexpr *cs = one ? hyp_case(c, pred, one, NULL, pos) : NULL;
    return cs ? hyp_count(c, cs, denied, pos) : NULL;
}

/* count(DISTINCT (x1, ..., xn)) over the rows where pred holds, NULL items
 * peers of each other: a COUNT(DISTINCT mark) whose order items carry the
 * tuple (logical_plan.h's AGG_COUNT_DISTINCT), mark 1 where pred holds and
 * NULL elsewhere. The executor counts the heads of the runs of equal
 * (group keys, mark, x1..xn) in sort order, so tuples compare as the sort
 * does (1.0 = 1.00, -0 = 0, NaN = NaN, '1 day' = '24 hours'). */
static attu_bexpr *hyp_count_tuples(bctx *c, attu_bexpr *pred, attu_sort_item *items, int n, bool denied, int pos) {
    attu_bexpr *one = mk_const_int(c, attu_type_make(ATTU_TYPE_INT32), 1);
    attu_bexpr *mark = one && pred ? hyp_case(c, pred, one, NULL, pos) : NULL;
    attu_bexpr *x = mark ? attu_bx_new(c->pa, BX_AGG, attu_type_make(ATTU_TYPE_INT64), pos) : NULL;
    if (!x) { if (!c->err->set) attu_error_oom(c->err); return NULL; }
    x->agg = AGG_COUNT_DISTINCT;
    x->args[0] = mark;
    x->nargs = 1;
    x->order = items;
    x->norder = n;
    return attu_bind_agg_level(c, x, denied);
}

attu_bexpr *attu_bind_hypothetical_agg(bctx *c, const scope *sc, const attu_ast_expr *e, attu_agg_kind kind) {
    const char *name = kind == WIN_RANK ? "rank" : kind == WIN_DENSE_RANK ? "dense_rank"
                     : kind == WIN_PERCENT_RANK ? "percent_rank" : "cume_dist";
    int n = e->u.func.args.n, pos = e->position;
    if (e->u.func.star || n < 1 || n != e->u.func.order_by.n) {
        /* PostgreSQL: 42883, the hypothetical arguments must match the
         * ordering columns */
        attu_bexpr *r = osa_no_function(c, sc, e);
        if (!r && c->err->set && !strcmp(c->err->sqlstate, ATTU_SQLSTATE_UNDEFINED_FUNCTION) && !e->u.func.star && n >= 1) {
            char h[256];
            snprintf(h, sizeof h, "To use the hypothetical-set aggregate %s, the number of hypothetical direct arguments "
                     "(here %d) must match the number of ordering columns (here %d).", name, n, e->u.func.order_by.n);
            attu_error_set_hint(c->err, h);
        }
        return r;
    }
    bool denied = !c->allow_agg;
    if (denied && !c->agg_level) {
        if (c->in_agg) attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, pos, "aggregate function calls cannot be nested");
        else attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, pos, "aggregate functions are not allowed in %s", c->clause);
        return NULL;
    }
    attu_type b = attu_type_make(ATTU_TYPE_BOOL), i8 = attu_type_make(ATTU_TYPE_INT64), f8 = attu_type_make(ATTU_TYPE_FLOAT64);
    attu_bexpr **dv = attu_palloc(c->pa, sizeof *dv * (size_t)n), *before = NULL, *peer = NULL, *f = NULL;
    attu_sort_item *tuple = attu_palloc(c->pa, sizeof *tuple * (size_t)n);     /* dense_rank's distinct tuples */
    if (!dv || !tuple) { attu_error_oom(c->err); return NULL; }
    osa_save sv = osa_enter(c);
    /* the items from the last: before = b1 OR (p1 AND (b2 OR (p2 AND ...))) */
    for (int i = 0; i < n; i++)
        if (!(dv[i] = bind_expr(c, sc, e->u.func.args.items[i]))) goto fail;
    for (int i = n - 1; i >= 0; i--) {
        const attu_ast_order_item *item = &e->u.func.order_by.items[i];
        attu_bexpr *x = bind_expr(c, sc, item->expr), *v = dv[i];
        if (!x) goto fail;
        attu_type t = x->type;
        if (!(x->type.id == ATTU_TYPE_UNKNOWN && v->type.id == ATTU_TYPE_UNKNOWN) && !common_type(v->type, x->type, &t)) {
            char b1[64], b2[64];
            attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, item->position, "WITHIN GROUP types %s and %s cannot be matched",
                           tname(x->type, b1), tname(v->type, b2));
            goto fail;
        }
        bool desc = item->desc;
        bool nf = item->nulls == ATTU_NULLS_DEFAULT ? desc : item->nulls == ATTU_NULLS_FIRST;
        attu_bexpr *lt = bind_compare_op(c, desc ? ATTU_BINOP_GT : ATTU_BINOP_LT, x, v, pos);
        attu_bexpr *eq = lt ? bind_compare_op(c, ATTU_BINOP_EQ, x, v, pos) : NULL;
        if (!eq) goto fail;
        attu_bexpr *nul = mk_call(c, ATTU_OP_AND, b, pos, 2, mk_call(c, ATTU_OP_IS_NULL, b, pos, 1, nf ? x : v, NULL, NULL, NULL),
                                  mk_call(c, ATTU_OP_IS_NOT_NULL, b, pos, 1, nf ? v : x, NULL, NULL, NULL), NULL, NULL);
        attu_bexpr *bi = mk_call(c, ATTU_OP_OR, b, pos, 2, lt, nul, NULL, NULL);
        attu_bexpr *both = mk_call(c, ATTU_OP_AND, b, pos, 2, mk_call(c, ATTU_OP_IS_NULL, b, pos, 1, x, NULL, NULL, NULL),
                                   mk_call(c, ATTU_OP_IS_NULL, b, pos, 1, v, NULL, NULL, NULL), NULL, NULL);
        attu_bexpr *pi = mk_call(c, ATTU_OP_OR, b, pos, 2, eq, both, NULL, NULL);
        if (before) before = mk_call(c, ATTU_OP_OR, b, pos, 2, bi, mk_call(c, ATTU_OP_AND, b, pos, 2, pi, before, NULL, NULL), NULL, NULL);
        else before = bi;
        peer = peer ? mk_call(c, ATTU_OP_AND, b, pos, 2, pi, peer, NULL, NULL) : pi;
        if (!before || !peer) { attu_error_oom(c->err); goto fail; }
        /* the tuple in the type the comparisons use: exact values that
         * meet a float one are distinct only as floats (2^53 and 2^53 + 1
         * as bigints); other widenings keep every value apart */
        attu_bexpr *xt = x;
        if (x->type.id == ATTU_TYPE_UNKNOWN) xt = v->type.id == ATTU_TYPE_UNKNOWN ? resolve_unknown(c, x) : coerce(c, x, t, false, pos);
        else if ((t.id == ATTU_TYPE_FLOAT32 || t.id == ATTU_TYPE_FLOAT64) && x->type.id != ATTU_TYPE_FLOAT32 && x->type.id != ATTU_TYPE_FLOAT64)
            xt = coerce(c, x, t, false, pos);
        if (!xt) goto fail;
        tuple[i] = (attu_sort_item){ xt, desc, nf, false };
    }
    if (e->u.func.over) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "OVER is not supported for ordered-set aggregate %s", name);
        goto fail;
    }
    if (e->u.func.filter && (!(f = bind_expr(c, sc, e->u.func.filter)) || !(f = coerce_bool(c, f, "FILTER")))) goto fail;
    osa_leave(c, sv);

    attu_bexpr *r = NULL, *cb = NULL;
    if (kind == WIN_DENSE_RANK) {
        /* 1 + the distinct tuples before */
        attu_bexpr *pred = f ? mk_call(c, ATTU_OP_AND, b, pos, 2, f, before, NULL, NULL) : before;
        if (!(cb = hyp_count_tuples(c, pred, tuple, n, denied, pos))) return NULL;
        r = mk_call(c, ATTU_OP_ADD_I, i8, pos, 2, cb, mk_const_int(c, i8, 1), NULL, NULL);
    } else if (kind == WIN_RANK) {
        if (!(cb = hyp_count_if(c, before, f, denied, pos))) return NULL;
        r = mk_call(c, ATTU_OP_ADD_I, i8, pos, 2, cb, mk_const_int(c, i8, 1), NULL, NULL);
    } else {
        attu_bexpr *tot = hyp_count_if(c, NULL, f, denied, pos);
        if (!tot) return NULL;
        if (kind == WIN_PERCENT_RANK) {
            /* count(before) / count(rows); 0 / 1 without rows */
            if (!(cb = hyp_count_if(c, before, f, denied, pos))) return NULL;
            attu_bexpr *z = bind_compare_op(c, ATTU_BINOP_EQ, tot, mk_const_int(c, i8, 0), pos);
            attu_bexpr *den = z ? hyp_case(c, z, mk_const_int(c, i8, 1), tot, pos) : NULL;
            attu_bexpr *nf = coerce(c, cb, f8, true, pos), *df = den ? coerce(c, den, f8, true, pos) : NULL;
            if (!nf || !df) return NULL;
            r = mk_call(c, ATTU_OP_DIV_F, f8, pos, 2, nf, df, NULL, NULL);
        } else {
            attu_bexpr *le = mk_call(c, ATTU_OP_OR, b, pos, 2, before, peer, NULL, NULL);
            if (!le || !(cb = hyp_count_if(c, le, f, denied, pos))) return NULL;
            attu_bexpr *nu = mk_call(c, ATTU_OP_ADD_I, i8, pos, 2, cb, mk_const_int(c, i8, 1), NULL, NULL);
            attu_bexpr *de = mk_call(c, ATTU_OP_ADD_I, i8, pos, 2, tot, mk_const_int(c, i8, 1), NULL, NULL);
            attu_bexpr *nf = nu ? coerce(c, nu, f8, true, pos) : NULL, *df = de ? coerce(c, de, f8, true, pos) : NULL;
            if (!nf || !df) return NULL;
            r = mk_call(c, ATTU_OP_DIV_F, f8, pos, 2, nf, df, NULL, NULL);
        }
    }
    if (!r) { if (!c->err->set) attu_error_oom(c->err); return NULL; }
    if (cb->kind == BX_AGG) { cb->direct = dv; cb->ndirect = n; }
    return r;
fail:
    osa_leave(c, sv);
    return NULL;
}
