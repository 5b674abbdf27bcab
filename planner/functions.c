/*
 * functions.c - the function catalog: scalar functions, aggregates and
 * window functions, with PostgreSQL's argument coercions and result types.
 *
 * attu extensions (documented in docs/cities.md):
 *   earth_distance(lat_a, lon_a, lat_b, lon_b)  great-circle (haversine)
 *       distance in miles on a sphere of radius 3958.76, as the cities demo
 *   nth_smallest(value, k)        the k-th smallest non-NULL value (1-based)
 *   nth_smallest_arg(arg, value, k)  the arg of the row holding that value
 *   nth_largest / nth_largest_arg the same from the top
 * Ties rank in input order.
 */
#include "planner/binder_internal.h"
#include "engine/array.h"
#include "engine/domain_type.h"
#include "engine/numeric.h"
#include "engine/interval.h"
#include "engine/numeric_format.h"
#include "engine/regr_accum.h"
#include "engine/timezone.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

attu_bexpr *attu_no_function(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n) {
    char buf[256], tb[64];
    size_t used = (size_t)snprintf(buf, sizeof buf, "function %s(", e->u.func.name);
    for (int i = 0; i < n && used < sizeof buf; i++)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? ", " : "", args[i] ? tname(args[i]->type, tb) : "?");
    attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, e->position, "%s) does not exist", buf);
    attu_error_set_hint(c->err, "No function matches the given name and argument types. You might need to add explicit type casts.");
    return NULL;
}

attu_bexpr *attu_param_not_unique(bctx *c, const char *name, attu_bexpr **args, int n, int pos) {
    char buf[256], tb[64];
    size_t used = (size_t)snprintf(buf, sizeof buf, "function %s(", name);
    for (int i = 0; i < n && used < sizeof buf; i++)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? ", " : "", tname(args[i]->type, tb));
    attu_error_set(c->err, "42725", pos, "%s) is not unique", buf);
    attu_error_set_hint(c->err, "Could not choose a best candidate function. You might need to add explicit type casts.");
    return NULL;
}

typedef struct agg_name { const char *name; attu_agg_kind kind; int nargs; } agg_name;
static const agg_name aggs[] = {
    { "count", AGG_COUNT, 1 }, { "sum", AGG_SUM, 1 }, { "avg", AGG_AVG, 1 },
    { "min", AGG_MIN, 1 }, { "max", AGG_MAX, 1 },
    { "bool_and", AGG_MIN, 1 }, { "every", AGG_MIN, 1 }, { "bool_or", AGG_MAX, 1 },
    { "nth_smallest", AGG_NTH_SMALLEST, 2 }, { "nth_smallest_arg", AGG_NTH_SMALLEST_ARG, 3 },
    { "nth_largest", AGG_NTH_LARGEST, 2 }, { "nth_largest_arg", AGG_NTH_LARGEST_ARG, 3 },
    { "row_number", WIN_ROW_NUMBER, 0 }, { "rank", WIN_RANK, 0 }, { "dense_rank", WIN_DENSE_RANK, 0 },
    { "lag", WIN_LAG, -1 }, { "lead", WIN_LEAD, -1 }, { "first_value", WIN_FIRST_VALUE, 1 },
    { "last_value", WIN_LAST_VALUE, 1 }, { "ntile", WIN_NTILE, 1 }, { "percent_rank", WIN_PERCENT_RANK, 0 },
    { "cume_dist", WIN_CUME_DIST, 0 }, { "nth_value", WIN_NTH_VALUE, 2 },
    { "variance", AGG_VAR_SAMP, 1 }, { "var_samp", AGG_VAR_SAMP, 1 }, { "var_pop", AGG_VAR_POP, 1 },
    { "stddev", AGG_STDDEV_SAMP, 1 }, { "stddev_samp", AGG_STDDEV_SAMP, 1 }, { "stddev_pop", AGG_STDDEV_POP, 1 },
    { "string_agg", AGG_STRING_AGG, 2 },
    /* the float8 statistics of (Y, X) pairs: one reduction, its final
     * function picked by name (engine/regr_accum.h) */
    { "corr", AGG_REGR, 2 }, { "covar_pop", AGG_REGR, 2 }, { "covar_samp", AGG_REGR, 2 },
    { "regr_avgx", AGG_REGR, 2 }, { "regr_avgy", AGG_REGR, 2 }, { "regr_count", AGG_REGR, 2 },
    { "regr_intercept", AGG_REGR, 2 }, { "regr_r2", AGG_REGR, 2 }, { "regr_slope", AGG_REGR, 2 },
    { "regr_sxx", AGG_REGR, 2 }, { "regr_sxy", AGG_REGR, 2 }, { "regr_syy", AGG_REGR, 2 },
    { "bit_and", AGG_BIT_AND, 1 }, { "bit_or", AGG_BIT_OR, 1 }, { "bit_xor", AGG_BIT_XOR, 1 },
    /* array_agg(x): string_agg of the one-element arrays of x with no
     * separator, whose concatenation is the array (engine/array.h) */
    { "array_agg", AGG_STRING_AGG, 1 },
    /* the json aggregates: string_agg of each row's json text, wrapped
     * (planner/json_bind.c attu_json_agg_args) */
    { "json_agg", AGG_STRING_AGG, 1 }, { "jsonb_agg", AGG_STRING_AGG, 1 },
    { "json_object_agg", AGG_STRING_AGG, 2 }, { "jsonb_object_agg", AGG_STRING_AGG, 2 },
    /* ordered-set aggregates: nargs counts the direct arguments */
    { "percentile_cont", AGG_PERCENTILE_CONT, 1 }, { "percentile_disc", AGG_PERCENTILE_DISC, 1 },
    { "mode", AGG_MODE, 0 },
};

static const agg_name *find_agg(const char *name) {
    for (size_t i = 0; i < sizeof aggs / sizeof *aggs; i++) if (!strcmp(aggs[i].name, name)) return &aggs[i];
    return NULL;
}

static attu_bexpr *bind_sort_items(bctx *c, const scope *sc, const attu_ast_order_list *ol, attu_sort_item **out) {
    *out = attu_palloc(c->pa, sizeof(attu_sort_item) * (size_t)(ol->n + 1));
    for (int i = 0; i < ol->n; i++) {
        attu_bexpr *x = bind_expr(c, sc, ol->items[i].expr);
        if (!x || !(x = resolve_unknown(c, x))) return NULL;
        (*out)[i].expr = x;
        (*out)[i].desc = ol->items[i].desc;
        (*out)[i].implied = false;
        (*out)[i].nulls_first = ol->items[i].nulls == ATTU_NULLS_DEFAULT ? ol->items[i].desc : ol->items[i].nulls == ATTU_NULLS_FIRST;
    }
    return (attu_bexpr *)1;
}

/* A written window frame -> x->aux (1 whole partition, 2 running by rows, 0
 * the default running-with-peers frame, 3 other ROWS frames, 4 other RANGE
 * frames, 5 GROUPS frames; any frame with an EXCLUDE clause is 3-5) plus
 * x->frame_kind / frame_off / frame_excl. PostgreSQL's checks on the shape
 * of the frame (42P20) come first; an offset must be a non-negative integer
 * constant (22004 when NULL, 22013 when negative, as PostgreSQL reports them
 * when the window starts, rows or none), except that a negative RANGE
 * offset is kept for the executor, which raises PostgreSQL's in_range
 * error at a row with a non-NULL key. RANGE with an offset needs one order key and a
 * constant offset of a type PostgreSQL's in_range takes for it: an integer
 * for an integer key, a number for a float key, an exact number for a
 * DECIMAL / NUMERIC key (others: 0A000, as PostgreSQL). */
static bool bind_frame(bctx *c, const scope *sc, const attu_ast_window *w, attu_bexpr *x) {
    attu_ast_frame_bound_kind s0 = w->frame_start.kind, s1 = w->frame_end.kind;
    const char *bad = NULL;
    if (s0 == ATTU_BOUND_UNBOUNDED_FOLLOWING) bad = "frame start cannot be UNBOUNDED FOLLOWING";
    else if (s1 == ATTU_BOUND_UNBOUNDED_PRECEDING) bad = "frame end cannot be UNBOUNDED PRECEDING";
    else if (s0 == ATTU_BOUND_CURRENT_ROW && s1 == ATTU_BOUND_PRECEDING) bad = "frame starting from current row cannot have preceding rows";
    else if (s0 == ATTU_BOUND_FOLLOWING && (s1 == ATTU_BOUND_PRECEDING || s1 == ATTU_BOUND_CURRENT_ROW))
        bad = "frame starting from following row cannot have preceding rows";
    if (bad) { attu_error_set(c->err, "42P20", w->position, "%s", bad); return false; }
    if (w->frame_mode == ATTU_FRAME_GROUPS && w->order_by.n == 0) {
        attu_error_set(c->err, "42P20", w->position, "GROUPS mode requires an ORDER BY clause");
        return false;
    }
    x->frame_excl = w->frame_exclude;
    if (!w->frame_exclude && s0 == ATTU_BOUND_UNBOUNDED_PRECEDING && s1 == ATTU_BOUND_UNBOUNDED_FOLLOWING) { x->aux = 1; return true; }
    if (!w->frame_exclude && s0 == ATTU_BOUND_UNBOUNDED_PRECEDING && s1 == ATTU_BOUND_CURRENT_ROW) { x->aux = w->frame_mode == ATTU_FRAME_ROWS ? 2 : 0; return true; }
    const attu_ast_frame_bound *bd[2] = { &w->frame_start, &w->frame_end };
    for (int i = 0; i < 2; i++) {
        x->frame_kind[i] = (int8_t)bd[i]->kind;
        x->frame_off[i] = 0;
        if (bd[i]->kind != ATTU_BOUND_PRECEDING && bd[i]->kind != ATTU_BOUND_FOLLOWING) continue;
        attu_bexpr *o = NULL;
        if (w->frame_mode == ATTU_FRAME_RANGE) {
            /* one numeric order key; an integer key takes an integer
             * offset, a float key a number (as PostgreSQL's in_range) */
            if (w->order_by.n != 1) {
                attu_error_set(c->err, "42P20", w->position, "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column");
                return false;
            }
            attu_bexpr *k = x->order ? x->order[0].expr : NULL;
            if (!(o = bind_expr(c, sc, bd[i]->offset))) return false;
            attu_type_id kt = k ? k->type.id : ATTU_TYPE_UNKNOWN;
            if (kt == ATTU_TYPE_DATE || kt == ATTU_TYPE_TIMESTAMP || kt == ATTU_TYPE_TIMESTAMPTZ) {
                /* PostgreSQL's in_range for date, timestamp and timestamptz
                 * keys: an interval offset (an untyped literal reads as
                 * one), kept as its months, days (frame_off_months /
                 * _days) and microseconds (frame_off); the executor adds
                 * it to each row's key on the calendar (a timestamptz
                 * key's in the session's zone, as PostgreSQL's
                 * timestamptz_pl_interval). A negative one is the
                 * executor's 22013, as for numbers. */
                if (o->kind == BX_CONST && o->type.id == ATTU_TYPE_UNKNOWN &&
                    !(o = coerce(c, o, attu_type_make(ATTU_TYPE_INTERVAL), false, o->position ? o->position : w->position)))
                    return false;
                if (o->kind != BX_CONST || (!o->is_null && o->type.id != ATTU_TYPE_INTERVAL)) {
                    char b1[64], b2[64];
                    attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, o->position ? o->position : w->position,
                                   "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s and offset type %s",
                                   tname(k->type, b1), tname(o->type, b2));
                    return false;
                }
                if (!o->is_null) {
                    attu_interval iv;
                    memcpy(&iv, o->s, sizeof iv);
                    x->frame_off[i] = iv.usec;
                    x->frame_off_months[i] = iv.months;
                    x->frame_off_days[i] = iv.days;
                    if (kt == ATTU_TYPE_TIMESTAMPTZ) x->frame_off_zone = attu_tz_id(attu_tz_session());
                    continue;
                }
            }
            bool kint = attu_type_is_int(kt), kflt = kt == ATTU_TYPE_FLOAT32 || kt == ATTU_TYPE_FLOAT64;
            bool knum = kt == ATTU_TYPE_DECIMAL || kt == ATTU_TYPE_NUMERIC;
            /* an untyped literal ('1.5') takes the offset type of the key */
            if (o->kind == BX_CONST && o->type.id == ATTU_TYPE_UNKNOWN && (kint || kflt || knum) &&
                !(o = coerce(c, o, kint ? k->type : attu_type_make(kflt ? ATTU_TYPE_FLOAT64 : ATTU_TYPE_NUMERIC),
                             false, o->position ? o->position : w->position)))
                return false;
            attu_type_id ot = o->type.id;
            bool oint = attu_type_is_int(ot), oflt = ot == ATTU_TYPE_FLOAT32 || ot == ATTU_TYPE_FLOAT64 || ot == ATTU_TYPE_DECIMAL;
            bool onum = oint || ot == ATTU_TYPE_DECIMAL || ot == ATTU_TYPE_NUMERIC;
            if (o->kind != BX_CONST || !(o->is_null || (kint && oint) || (kflt && (oint || oflt)) || (knum && onum))) {
                char b1[64], b2[64];
                attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, o->position ? o->position : w->position,
                               "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s and offset type %s",
                               tname(k ? k->type : o->type, b1), tname(o->type, b2));
                return false;
            }
            /* a negative RANGE offset is kept: PostgreSQL's error
             * (22013 invalid preceding or following size in window
             * function) comes from comparing a key with it, so only where
             * a row has a non-NULL key; the executor raises it there
             * (engine/executor_ops.c). A NULL offset is 22004 here, as
             * PostgreSQL checks it before reading any row. */
            if (kflt && !o->is_null) {
                double v = ot == ATTU_TYPE_DECIMAL ? (double)o->i / pow(10, o->type.scale) : oflt ? o->f : (double)o->i;
                x->frame_offf[i] = v;
                continue;
            }
            if (knum && !o->is_null) {
                /* a numeric key takes a numeric offset (in_range for
                 * numeric), kept exactly as frame_off / 10^frame_off_scale */
                attu_numeric v;
                if (ot == ATTU_TYPE_NUMERIC) {
                    if (attu_numeric_parse(o->s, o->slen, &v, c->err)) return false;
                } else v = ot == ATTU_TYPE_DECIMAL ? attu_numeric_from_decimal(o->i, o->type.scale) : attu_numeric_from_int64(o->i);
                if (attu_numeric_is_nan(v)) {
                    attu_error_set(c->err, "22013", o->position ? o->position : w->position,
                                   "invalid preceding or following size in window function");
                    return false;
                }
                if (attu_numeric_is_special(v)) {
                    attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, o->position ? o->position : w->position,
                                   "a RANGE offset of infinity is not supported");
                    return false;
                }
                while (v.dscale > 0 && v.m % 10 == 0) { v.m /= 10; v.dscale--; }
                int64_t scaled;
                if (v.dscale > 18 || attu_numeric_to_scaled(v, v.dscale, &scaled)) {
                    attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, o->position ? o->position : w->position,
                                   "a RANGE offset of more than 18 digits is not supported");
                    return false;
                }
                x->frame_off[i] = scaled;
                x->frame_off_scale[i] = (int8_t)v.dscale;
                continue;
            }
        }
        if (!o && !(o = bind_expr(c, sc, bd[i]->offset))) return false;
        int pos = o->position ? o->position : w->position;
        if (o->kind != BX_CONST || (!o->is_null && !attu_type_is_int(o->type.id))) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "a %s frame offset must be an integer constant",
                           w->frame_mode == ATTU_FRAME_GROUPS ? "GROUPS" : "ROWS");
            return false;
        }
        /* (raised by PostgreSQL's executor: no position) */
        if (o->is_null) { attu_error_set(c->err, "22004", 0, "frame %s offset must not be null", i ? "ending" : "starting"); return false; }
        /* ROWS and GROUPS offsets are checked before any row is read, as
         * PostgreSQL does (an error over no rows too); a RANGE one is kept
         * for the executor (above) */
        if (o->i < 0 && w->frame_mode != ATTU_FRAME_RANGE) {
            attu_error_set(c->err, "22013", pos, "frame %s offset must not be negative", i ? "ending" : "starting");
            return false;
        }
        x->frame_off[i] = o->i;
    }
    x->aux = w->frame_mode == ATTU_FRAME_ROWS ? 3 : w->frame_mode == ATTU_FRAME_GROUPS ? 5 : 4;
    return true;
}

/* array_agg(DISTINCT x) and string_agg(DISTINCT x, s) without an ORDER
 * BY: PostgreSQL sorts a DISTINCT aggregate's input to find the
 * duplicates, so its result comes in x's ascending order (NULLs last),
 * which clients rely on; attu's duplicate removal keeps the first
 * occurrence's place, so the order is made explicit. */
static bool distinct_sorted(bctx *c, attu_bexpr *x, attu_bexpr *arg) {
    if (x->norder) return true;
    attu_sort_item *o = attu_palloc(c->pa, sizeof *o);
    if (!o) { attu_error_oom(c->err); return false; }
    o->expr = arg;
    o->desc = false;
    o->nulls_first = false;
    o->implied = true;
    x->order = o;
    x->norder = 1;
    return true;
}

static attu_bexpr *bind_aggregate(bctx *c, const scope *sc, const attu_ast_expr *e, const agg_name *an) {
    bool window = e->u.func.over != NULL;
    if (an->kind >= AGG_PERCENTILE_CONT && an->kind <= AGG_MODE) return attu_bind_ordered_set_agg(c, sc, e, an->kind);
    if (e->u.func.within_group && (an->kind == WIN_RANK || an->kind == WIN_DENSE_RANK ||
                                   an->kind == WIN_PERCENT_RANK || an->kind == WIN_CUME_DIST)) {
        /* PostgreSQL's hypothetical-set aggregates: rank(v) WITHIN GROUP (ORDER BY x) */
        return attu_bind_hypothetical_agg(c, sc, e, an->kind);
    }
    if (e->u.func.within_group) {
        int total = e->u.func.args.n + e->u.func.order_by.n;
        return attu_within_group_misuse(c, sc, e, true, e->u.func.star || total == an->nargs || (an->nargs < 0 && total >= 1 && total <= 3));
    }
    if (an->kind >= WIN_ROW_NUMBER && !window) {
        attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX /* PG: 42809 */, e->position,
                       "window function %s requires an OVER clause", an->name);
        memcpy(c->err->sqlstate, "42809", 6);
        return NULL;
    }
    if (window && !c->allow_window) {
        if (c->in_agg)
            attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, e->position, "aggregate function calls cannot contain window function calls");
        else if (c->in_window == 1) attu_error_set(c->err, "42P20", e->position, "window function calls cannot be nested");
        else if (c->in_window == 2) attu_error_set(c->err, "42P20", e->position, "window functions are not allowed in window definitions");
        else attu_error_set(c->err, "42P20", e->position, "window functions are not allowed in %s", c->clause);
        return NULL;
    }
    /* in a subquery, an aggregate of an outer level may stand where this
     * level takes none (its WHERE): decided once its arguments are bound */
    bool denied = !window && !c->allow_agg;
    if (denied && !c->agg_level) {
        if (c->in_agg) attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, e->position, "aggregate function calls cannot be nested");
        else attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, e->position, "aggregate functions are not allowed in %s", c->clause);
        return NULL;
    }
    int n = e->u.func.args.n;
    attu_bexpr *x = attu_bx_new(c->pa, window ? BX_WINDOW : BX_AGG, attu_type_make(ATTU_TYPE_INT64), e->position);
    if (!x) { attu_error_oom(c->err); return NULL; }
    x->agg = an->kind;
    bool save_agg = c->allow_agg, save_win = c->allow_window, save_in = c->in_agg;
    int8_t save_inw = c->in_window;
    const char *save_clause = c->clause;
    c->allow_agg = window ? save_agg : false;
    c->allow_window = false;
    c->in_agg = !window;
    if (window) c->in_window = 1;
    attu_bexpr *args[3] = { 0 };
    bool bp_coded = false;     /* min / max of a bpchar without a length */
    attu_type jsonb_arr_type = attu_type_make(ATTU_TYPE_UNKNOWN);   /* min / max of a jsonb[]: coded */
    if (e->u.func.star) {
        if (an->kind != AGG_COUNT) goto bad;
        x->agg = AGG_COUNT_STAR;
        n = 0;
    } else if (an->nargs < 0 ? (n < 1 || n > 3) : n != an->nargs) {
        for (int i = 0; i < n && i < 3; i++) args[i] = bind_expr(c, sc, e->u.func.args.items[i]);
        c->allow_agg = save_agg; c->allow_window = save_win; c->in_agg = save_in; c->in_window = save_inw; c->clause = save_clause;
        if (c->err->set) return NULL;
        return attu_no_function(c, e, args, n < 3 ? n : 3);
    }
    for (int i = 0; i < n; i++) {
        if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) goto fail;
        /* lag / lead's default keeps an untyped literal untyped: it takes
         * the value's type below (lag(i, 1, 'x') is 22P02, as PostgreSQL) */
        if ((an->kind == WIN_LAG || an->kind == WIN_LEAD) && i == 2) continue;
        /* ntile('2'), lag(x, '2'), nth_value(x, '2'): their integer, as
         * PostgreSQL reads it */
        if ((an->kind == WIN_NTILE || ((an->kind == WIN_LAG || an->kind == WIN_LEAD || an->kind == WIN_NTH_VALUE) && i == 1)) &&
            args[i]->type.id == ATTU_TYPE_UNKNOWN) {
            if (!(args[i] = coerce(c, args[i], attu_type_make(ATTU_TYPE_INT32), false, e->position))) goto fail;
            continue;
        }
        if (i == 0 && args[i]->type.id == ATTU_TYPE_UNKNOWN && an->kind == WIN_NTH_VALUE) {
            /* nth_value(anyelement, integer): nothing else types it */
            attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, 0,
                           "could not determine polymorphic type because input has type unknown");
            goto fail;
        }
        /* an untyped literal stays untyped until both are read (42883
         * names it unknown), then takes the only form's double precision */
        if (an->kind == AGG_REGR && args[i]->type.id == ATTU_TYPE_UNKNOWN) continue;
        if (i == 0 && args[i]->type.id == ATTU_TYPE_UNKNOWN) {
            /* an untyped literal (or NULL) as PostgreSQL resolves it: sum
             * and avg have numeric and interval forms (42725), the
             * variances numeric ones only (double precision, the preferred
             * type), bool_and / bool_or / every a boolean one */
            if (an->kind == AGG_SUM || an->kind == AGG_AVG ||
                an->kind == AGG_BIT_AND || an->kind == AGG_BIT_OR || an->kind == AGG_BIT_XOR) {
                attu_error_set(c->err, "42725", e->position, "function %s(unknown) is not unique", an->name);
                goto fail;
            }
            attu_type_id to = an->kind >= AGG_VAR_SAMP && an->kind <= AGG_STDDEV_POP ? ATTU_TYPE_FLOAT64
                              : !strcmp(an->name, "bool_and") || !strcmp(an->name, "every") || !strcmp(an->name, "bool_or") ? ATTU_TYPE_BOOL
                              : ATTU_TYPE_UNKNOWN;
            if (to != ATTU_TYPE_UNKNOWN) {
                if (!(args[i] = coerce(c, args[i], attu_type_make(to), false, e->position))) goto fail;
                continue;
            }
        }
        /* count takes "any": PostgreSQL leaves an untyped parameter
         * there undetermined (42P18 when nothing else types it) */
        if (!(args[i] = x->agg == AGG_COUNT ? resolve_unknown_untracked(c, args[i]) : resolve_unknown(c, args[i])))
            goto fail;
    }
    if (an->kind == AGG_REGR) {
        /* (double precision, double precision): integers, numerics, reals
         * and untyped literals cast implicitly */
        for (int i = 0; i < 2; i++)
            if (!is_numeric(args[i]->type.id) && args[i]->type.id != ATTU_TYPE_UNKNOWN) goto bad;
        for (int i = 0; i < 2; i++)
            if (!(args[i] = coerce(c, args[i], attu_type_make(ATTU_TYPE_FLOAT64), false, e->position))) goto fail;
    }
    bool array_agg = !strcmp(an->name, "array_agg");
    attu_bexpr *array_agg_arg = args[0];
    int json_agg = attu_json_agg_kind(an->name);
    bool bytea_agg = false;
    if (json_agg && e->u.func.distinct) {
        /* its string_agg would dedupe and order the json texts, not the values */
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "DISTINCT is not supported in %s", an->name);
        goto fail;
    }
    if (json_agg && !attu_json_agg_args(c, json_agg, args, &n, e->position,
                                        attu_json_row_names(c, sc, e->u.func.args.items[json_agg >= 3], args[json_agg >= 3])))
        goto fail;
    if (array_agg) {
        if (!(args[0] = attu_array_singleton(c, args[0], e->position))) goto fail;
        if (!(args[1] = attu_bx_new(c->pa, BX_CONST, attu_type_make(ATTU_TYPE_TEXT), e->position)) ||
            !(args[1]->s = attu_pstrdup(c->pa, "", 0))) { attu_error_oom(c->err); goto fail; }
        n = 2;
    }
    /* PostgreSQL's checks of a windowed call, in its order */
    if (window && e->u.func.distinct) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "DISTINCT is not implemented for window functions");
        goto fail;
    }
    if (window && e->u.func.filter && an->kind >= WIN_ROW_NUMBER && !e->u.func.order_by.n) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                       "FILTER is not implemented for non-aggregate window functions");
        goto fail;
    }
    if (e->u.func.distinct) {
        if (x->agg == AGG_COUNT) x->agg = AGG_COUNT_DISTINCT;
        else if (x->agg == AGG_SUM || x->agg == AGG_AVG || x->agg == AGG_MIN || x->agg == AGG_MAX ||
                 (x->agg >= AGG_VAR_SAMP && x->agg <= AGG_BIT_XOR)) x->aux = 1;   /* DISTINCT */
        else {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "DISTINCT is not supported in %s", an->name);
            goto fail;
        }
    }
    /* count(DISTINCT b) of a bpchar without a length counts 'a' and 'a '
     * once, as PostgreSQL (bpchar_key) */
    if (x->agg == AGG_COUNT_DISTINCT && !(args[0] = bpchar_key(c, args[0]))) goto fail;
    if (window && e->u.func.order_by.n) {
        /* PostgreSQL's window executor has no sorted aggregate input */
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "aggregate ORDER BY is not implemented for window functions");
        goto fail;
    }
    if ((!strcmp(an->name, "bool_and") || !strcmp(an->name, "every") || !strcmp(an->name, "bool_or")) &&
        args[0]->type.id != ATTU_TYPE_BOOL) goto bad;
    if (e->u.func.filter) {
        /* agg(x) FILTER (WHERE c) == agg(CASE WHEN c THEN x END); COUNT(*) counts c */
        /* an aggregate or GROUPING() there is "not allowed in FILTER", as
         * PostgreSQL says, not a nested call */
        bool sa = c->allow_agg, si = c->in_agg;
        int8_t sw = c->in_window;
        const char *scl = c->clause;
        c->allow_agg = false; c->in_agg = false; c->in_window = 0; c->clause = "FILTER";
        attu_bexpr *f = bind_expr(c, sc, e->u.func.filter);
        c->allow_agg = sa; c->in_agg = si; c->in_window = sw; c->clause = scl;
        if (!f || !(f = coerce_bool(c, f, "FILTER"))) goto fail;
        if (x->agg == AGG_COUNT_STAR) {
            x->agg = AGG_COUNT;
            args[0] = mk_const_int(c, attu_type_make(ATTU_TYPE_INT32), 1);
            n = 1;
        }
        for (int i = 0; i < n && i < 2; i++) {
            if (an->nargs >= 2 && i == n - 1) break;      /* k stays constant */
            attu_bexpr *cs = attu_bx_new(c->pa, BX_CASE, args[i]->type, e->position);
            if (!cs) goto fail;
            cs->nwhens = 1;
            cs->whens = attu_palloc(c->pa, sizeof(attu_bexpr *));
            cs->thens = attu_palloc(c->pa, sizeof(attu_bexpr *));
            cs->whens[0] = f; cs->thens[0] = args[i];
            args[i] = cs;
        }
    }
    switch (x->agg) {
    case AGG_COUNT_STAR: case AGG_COUNT: case AGG_COUNT_DISTINCT:
        x->type = attu_type_make(ATTU_TYPE_INT64);
        break;
    case AGG_SUM: case AGG_AVG: {
        /* sum(time) and avg(time) are interval's, through time's implicit cast */
        if (args[0]->type.id == ATTU_TYPE_TIME &&
            !(args[0] = mk_call(c, ATTU_OP_IV_OF_TIME, attu_type_make(ATTU_TYPE_INTERVAL), e->position, 1, args[0], NULL, NULL, NULL)))
            goto fail;
        attu_type_id t = args[0]->type.id;
        if (t == ATTU_TYPE_INTERVAL) {
            /* sum of intervals field by field (22008 past a field's range);
             * avg = that sum / the count, as PostgreSQL's interval_avg */
            x->type = args[0]->type;
            if (x->agg == AGG_SUM) break;
            if (window) {
                attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                               "avg of interval is not supported as a window function");
                goto fail;
            }
            x->agg = AGG_SUM;
            x->nargs = 1;
            x->args[0] = args[0];
            attu_bexpr *cnt = attu_bx_new(c->pa, BX_AGG, attu_type_make(ATTU_TYPE_INT64), e->position);
            if (!cnt) { attu_error_oom(c->err); goto fail; }
            *cnt = *x;
            cnt->type = attu_type_make(ATTU_TYPE_INT64);
            cnt->agg = x->aux == 1 ? AGG_COUNT_DISTINCT : AGG_COUNT;
            if (cnt->agg == AGG_COUNT_DISTINCT) cnt->aux = 0;
            c->allow_agg = save_agg; c->allow_window = save_win; c->in_agg = save_in; c->in_window = save_inw; c->clause = save_clause;
            attu_bexpr *sx = attu_bind_agg_level(c, x, denied), *cx = sx ? attu_bind_agg_level(c, cnt, denied) : NULL;
            if (!cx) return NULL;
            attu_type f8 = attu_type_make(ATTU_TYPE_FLOAT64);
            attu_bexpr *cf = mk_call(c, ATTU_OP_CAST_I_F, f8, e->position, 1, cx, NULL, NULL, NULL);
            return cf ? mk_call(c, ATTU_OP_DIV_IV, x->type, e->position, 2, sx, cf, NULL, NULL) : NULL;
        }
        if (!is_numeric(t)) goto bad;
        bool exact = attu_type_mclass(t) != ATTU_MC_FLOAT;
        /* PostgreSQL: avg of integers and numerics, and sum of bigint and
         * numeric (declared DECIMAL(p,s) or computed), are numeric with a
         * per-value scale (avg = sum / count by select_div_scale; the sums
         * are exact past 2^63, to NUMERIC's 36 digits), as plain
         * aggregates and as window functions alike (the CPU reducers and
         * the window executor add such sums as attu_numeric values). */
        if (exact && (x->agg == AGG_AVG || t == ATTU_TYPE_INT64 || t == ATTU_TYPE_DECIMAL || t == ATTU_TYPE_NUMERIC))
            x->type = attu_type_make(ATTU_TYPE_NUMERIC);
        else if (x->agg == AGG_AVG) x->type = attu_type_make(ATTU_TYPE_FLOAT64);
        else if (attu_type_is_int(t)) x->type = attu_type_make(ATTU_TYPE_INT64);
        else x->type = args[0]->type;
        break;
    }
    case AGG_MIN: case AGG_MAX:
        /* json, jsonb, uuid and bytea have no min / max (nor bool_and
         * ...) in PostgreSQL 15 */
        if (attu_type_is_typed_text(args[0]->type) && !attu_type_is_enum(args[0]->type)) goto bad;   /* (enums order: enum_type.h) */
        /* nor record (attu's text of it would order (10) before (2)) */
        if (attu_type_is_record(args[0]->type)) goto bad;
        if (attu_type_is_array(args[0]->type) && attu_type_is_json_any(attu_type_array_elem(args[0]->type))) {
            /* array_smaller / array_larger compare the elements: json has
             * no order (PostgreSQL fails once two values meet); a jsonb[]'s
             * order is its keys', which the aggregate (comparing bytes)
             * reads coded (attu_array_order_code), decoded below */
            if (attu_type_is_json(attu_type_array_elem(args[0]->type))) {
                attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, 0, "could not identify a comparison function for type json");
                goto fail;
            }
            jsonb_arr_type = args[0]->type;
            if (!(args[0] = attu_array_order_code(c, args[0]))) goto fail;
            x->type = args[0]->type;
            break;
        }
        /* min(varchar) is min(text): text (varchar_type.c); a bpchar
         * without a length compares without its trailing blanks: its
         * value coded (bpchar_order_code), decoded below */
        if (attu_type_is_bpchar_any(args[0]->type) && !attu_type_is_bpchar(args[0]->type)) {
            if (!(args[0] = bpchar_order_code(c, args[0]))) goto fail;
            bp_coded = true;
        }
        x->type = varchar_as_text(args[0]->type);
        break;
    case AGG_VAR_SAMP: case AGG_VAR_POP: case AGG_STDDEV_SAMP: case AGG_STDDEV_POP:
        /* double precision (PostgreSQL gives numeric for integer and
         * numeric inputs; attu computes those exactly and rounds once) */
        if (!is_numeric(args[0]->type.id)) goto bad;
        if (window) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "%s is not supported as a window function", an->name);
            goto fail;
        }
        /* integers and numerics: numeric, exactly as PostgreSQL's
         * numeric_stddev_internal (executor_ops.c, finish_var_numeric) */
        x->type = attu_type_make(attu_type_mclass(args[0]->type.id) == ATTU_MC_FLOAT ? ATTU_TYPE_FLOAT64 : ATTU_TYPE_NUMERIC);
        break;
    case AGG_REGR:
        /* the arguments are double precision (above); the result too,
         * regr_count's bigint */
        if (x->aux == 1) {
            /* DISTINCT: PostgreSQL sorts the pairs to find the duplicates
             * and so adds them in (Y, X) order, which the float sums'
             * rounding shows: that order, made explicit */
            if (!(x->order = attu_palloc(c->pa, 2 * sizeof *x->order))) { attu_error_oom(c->err); goto fail; }
            for (int i = 0; i < 2; i++)
                x->order[i] = (attu_sort_item){ .expr = args[i], .desc = false, .nulls_first = false, .implied = true };
            x->norder = 2;
        }
        x->imm = attu_regr_kind_named(an->name);
        x->type = attu_type_make(x->imm == ATTU_REGR_COUNT ? ATTU_TYPE_INT64 : ATTU_TYPE_FLOAT64);
        break;
    case AGG_BIT_AND: case AGG_BIT_OR: case AGG_BIT_XOR: {
        /* smallint, integer and bigint, each of its own type */
        attu_type_id t = args[0]->type.id;
        if (t != ATTU_TYPE_INT16 && t != ATTU_TYPE_INT32 && t != ATTU_TYPE_INT64) goto bad;
        x->type = attu_type_make(t);
        break;
    }
    case AGG_STRING_AGG:
        if (array_agg) {
            if (e->u.func.order_by.n) {
                if (!bind_sort_items(c, sc, &e->u.func.order_by, &x->order)) goto fail;
                x->norder = e->u.func.order_by.n;
                for (int i = 0; i < x->norder && x->aux == 1; i++) {
                    if (!attu_bx_equal(x->order[i].expr, array_agg_arg)) {
                        attu_error_set(c->err, "42P10", e->u.func.order_by.items[i].position,
                                       "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list");
                        goto fail;
                    }
                    x->order[i].expr = args[0];
                }
            }
            if (x->aux == 1 && !distinct_sorted(c, x, args[0])) goto fail;
            /* a bpchar orders without its trailing blanks (bpchar_key), an
             * array of bpchar by its keys; the elements keep them */
            for (int i = 0; i < x->norder; i++) if (!(x->order[i].expr = bpchar_key(c, x->order[i].expr))) goto fail;
            x->type = args[0]->type;
            break;
        }
        /* string_agg(text, text); the separator is evaluated per row. A
         * bpchar without a length is read as text, without its trailing
         * blanks (its cast, bpchar_key), and orders so */
        if (attu_type_is_bytea(args[0]->type)) {
            /* string_agg(bytea, bytea): the hex digits joined as text,
             * made a bytea again below (planner/bytea_bind.c) */
            if (!attu_bytea_agg_args(c, args, e->position)) goto fail;
            bytea_agg = true;
        }
        if (args[0]->type.id != ATTU_TYPE_TEXT || args[1]->type.id != ATTU_TYPE_TEXT || attu_type_is_typed_text(args[0]->type) ||
            attu_type_is_typed_text(args[1]->type))
            goto bad;
        if (!(args[0] = bpchar_key(c, args[0])) || !(args[1] = bpchar_key(c, args[1]))) goto fail;
        if (e->u.func.order_by.n) {
            if (!bind_sort_items(c, sc, &e->u.func.order_by, &x->order)) goto fail;
            x->norder = e->u.func.order_by.n;
            for (int i = 0; i < x->norder; i++) if (!(x->order[i].expr = bpchar_key(c, x->order[i].expr))) goto fail;
            for (int i = 0; i < x->norder && x->aux == 1; i++)
                if (!attu_bx_equal(x->order[i].expr, args[0])) {
                    attu_error_set(c->err, "42P10", e->u.func.order_by.items[i].position,
                                   "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list");
                    goto fail;
                }
        }
        if (x->aux == 1 && !distinct_sorted(c, x, args[0])) goto fail;
        x->type = attu_type_make(ATTU_TYPE_TEXT);
        break;
    case AGG_NTH_SMALLEST: case AGG_NTH_LARGEST: case AGG_NTH_SMALLEST_ARG: case AGG_NTH_LARGEST_ARG: {
        int ki = n - 1;
        if (window) {
            /* the window executor has no top-k accumulator */
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "%s is not supported as a window function", an->name);
            goto fail;
        }
        if (args[ki]->kind != BX_CONST || args[ki]->is_null ||
            !attu_type_is_int(args[ki]->type.id) || args[ki]->i < 1 || args[ki]->i > 1024) {
            attu_error_set(c->err, ATTU_SQLSTATE_INVALID_PARAMETER, args[ki]->position ? args[ki]->position : e->position,
                           "k of %s must be an integer constant between 1 and 1024", an->name);
            goto fail;
        }
        x->imm = args[ki]->i;
        attu_bexpr *val = n == 3 ? args[1] : args[0];
        if (val->type.id == ATTU_TYPE_TEXT || val->type.id == ATTU_TYPE_BOOL || attu_type_is_wide(val->type.id) ||
            attu_type_is_wide(args[0]->type.id)) goto bad;
        x->type = args[0]->type;
        n--;
        break;
    }
    case WIN_ROW_NUMBER: case WIN_RANK: case WIN_DENSE_RANK:
        x->type = attu_type_make(ATTU_TYPE_INT64);
        break;
    case WIN_PERCENT_RANK: case WIN_CUME_DIST:
        x->type = attu_type_make(ATTU_TYPE_FLOAT64);
        break;
    case WIN_FIRST_VALUE: case WIN_LAST_VALUE:
        /* anyelement's result: a varchar without its length (varchar_type.c) */
        x->type = varchar_without_length(args[0]->type);
        break;
    case WIN_NTH_VALUE:
        /* nth_value(anyelement, integer): n is read for each row (NULL
         * gives NULL, below 1 is 22016 where a row meets it, as PostgreSQL
         * reports it when the window runs); a smallint widens, a bigint
         * does not cast to integer implicitly (42883) */
        if (args[1]->type.id != ATTU_TYPE_INT16 && args[1]->type.id != ATTU_TYPE_INT32) goto bad;
        if (!(args[1] = coerce(c, args[1], attu_type_make(ATTU_TYPE_INT32), false, e->position))) goto fail;
        x->type = varchar_without_length(args[0]->type);   /* as first_value's */
        break;
    case WIN_NTILE:
        if (args[0]->type.id == ATTU_TYPE_INT16 &&     /* ntile(integer): smallint widens */
            !(args[0] = coerce(c, args[0], attu_type_make(ATTU_TYPE_INT32), false, e->position))) goto fail;
        if (args[0]->type.id != ATTU_TYPE_INT32 && args[0]->type.id != ATTU_TYPE_UNKNOWN) goto bad;
        if (args[0]->kind == BX_CONST && !args[0]->is_null && args[0]->i < 1) {
            /* PostgreSQL reports it when the window runs (so with no
             * position): invalid_argument_for_ntile_function */
            attu_error_set(c->err, "22014", 0,
                           "argument of ntile must be greater than zero");
            goto fail;
        }
        if (param_placeholder(c, e->u.func.args.items[0])) {
            /* a parameter: an integer, its value with each run */
            if (!(args[0] = coerce(c, args[0], attu_type_make(ATTU_TYPE_INT32), false, e->position))) goto fail;
            x->imm = 1;
            x->type = attu_type_make(ATTU_TYPE_INT32);
            n = 0;
            break;
        }
        if (args[0]->kind != BX_CONST || args[0]->is_null) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "ntile needs a positive integer constant");
            goto fail;
        }
        x->imm = args[0]->i;
        x->type = attu_type_make(ATTU_TYPE_INT32);
        n = 0;
        break;
    case WIN_LAG: case WIN_LEAD:
        x->imm = 1;
        if (n >= 2 && param_placeholder(c, e->u.func.args.items[1])) {
            /* a parameter: an integer, its value with each run */
            if (!(args[1] = coerce(c, args[1], attu_type_make(ATTU_TYPE_INT32), false, e->position))) goto fail;
        } else if (n >= 2) {
            if (args[1]->kind != BX_CONST || args[1]->is_null || !attu_type_is_int(args[1]->type.id)) {
                attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "the offset of %s must be an integer constant", an->name);
                goto fail;
            }
            x->imm = args[1]->i;
        }
        x->type = varchar_without_length(args[0]->type);   /* as first_value's */
        if (n == 3) {
            /* lag(anycompatible, integer, anycompatible): the value and
             * the default meet in their common type (lead(i, 1, 1.5) is
             * numeric, each value with its own scale: mix_type); none is
             * 42883, as PostgreSQL finds no function */
            attu_type t;
            if (!mix_type(args[0]->type, args[2]->type, &t) || t.id == ATTU_TYPE_UNKNOWN) goto bad;
            t = varchar_without_length(t);
            if (!(args[0] = coerce(c, args[0], t, false, e->position))) goto fail;
            x->type = t;
            if (!(args[1] = coerce(c, args[2], t, false, e->position))) goto fail;
            n = 2;
        } else n = 1;
        break;
    default: break;
    }
    x->nargs = n;
    for (int i = 0; i < n; i++) x->args[i] = args[i];
    if (window) {
        const attu_ast_window *w = e->u.func.over;
        c->allow_agg = save_agg;
        c->in_agg = false;
        c->in_window = 2;
        x->npart = w->partition_by.n;
        x->part = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(x->npart + 1));
        for (int i = 0; i < x->npart; i++)
            if (!(x->part[i] = bind_expr(c, sc, w->partition_by.items[i])) || !(x->part[i] = resolve_unknown(c, x->part[i]))) goto fail;
        x->norder = w->order_by.n;
        if (!bind_sort_items(c, sc, &w->order_by, &x->order)) goto fail;
        x->aux = 0;
        if (w->frame_mode != ATTU_FRAME_DEFAULT && !bind_frame(c, sc, w, x)) goto fail;
        /* a bpchar without a length partitions and orders without its
         * trailing blanks, as PostgreSQL (bpchar_key) */
        for (int i = 0; i < x->npart; i++) if (!(x->part[i] = bpchar_key(c, x->part[i]))) goto fail;
        for (int i = 0; i < x->norder; i++) if (!(x->order[i].expr = bpchar_key(c, x->order[i].expr))) goto fail;
        if ((x->agg == WIN_RANK || x->agg == WIN_DENSE_RANK) && x->norder == 0) {
            /* PostgreSQL: every row is a peer; rank 1 everywhere. Allowed. */
        }
    }
    c->allow_agg = save_agg; c->allow_window = save_win; c->in_agg = save_in; c->in_window = save_inw; c->clause = save_clause;
    attu_bexpr *res = window ? x : attu_bind_agg_level(c, x, denied);
    /* array_agg's string_agg joins one-element encodings (engine/array.h) */
    if (array_agg && res && (attu_type_array_shows(res->type) || attu_type_is_array(array_agg_arg->type)))
        return attu_array_canon_expr(c, res, attu_type_is_array(array_agg_arg->type));
    if (json_agg && res) return attu_json_agg_finish(c, json_agg, res, e->position);
    if (bytea_agg && res) return attu_bytea_agg_finish(c, res, e->position);
    if (jsonb_arr_type.id != ATTU_TYPE_UNKNOWN && res) return attu_array_order_decode(c, res, jsonb_arr_type);
    return bp_coded && res ? bpchar_order_decode(c, res) : res;
bad:
    c->allow_agg = save_agg; c->allow_window = save_win; c->in_agg = save_in; c->in_window = save_inw; c->clause = save_clause;
    return attu_no_function(c, e, args, n);
fail:
    c->allow_agg = save_agg; c->allow_window = save_win; c->in_agg = save_in; c->in_window = save_inw; c->clause = save_clause;
    return NULL;
}

typedef struct scalar_fn { const char *name; attu_opcode op; int minargs, maxargs; char kind; } scalar_fn;
/* kind: 'f' float math (args cast to float8), 't' text, 'x' special */
static const scalar_fn scalars[] = {
    { "sqrt", ATTU_OP_SQRT, 1, 1, 'f' }, { "power", ATTU_OP_POWER, 2, 2, 'f' }, { "pow", ATTU_OP_POWER, 2, 2, 'f' },
    { "ln", ATTU_OP_LN, 1, 1, 'f' }, { "log", ATTU_OP_LOG10, 1, 2, 'f' }, { "log10", ATTU_OP_LOG10, 1, 1, 'f' },
    { "exp", ATTU_OP_EXP, 1, 1, 'f' }, { "sin", ATTU_OP_SIN, 1, 1, 'f' }, { "cos", ATTU_OP_COS, 1, 1, 'f' },
    { "tan", ATTU_OP_TAN, 1, 1, 'f' }, { "asin", ATTU_OP_ASIN, 1, 1, 'f' }, { "acos", ATTU_OP_ACOS, 1, 1, 'f' },
    { "sinh", ATTU_OP_SINH, 1, 1, 'f' }, { "cosh", ATTU_OP_COSH, 1, 1, 'f' }, { "tanh", ATTU_OP_TANH, 1, 1, 'f' },
    { "asinh", ATTU_OP_ASINH, 1, 1, 'f' }, { "acosh", ATTU_OP_ACOSH, 1, 1, 'f' }, { "atanh", ATTU_OP_ATANH, 1, 1, 'f' },
    { "atan", ATTU_OP_ATAN, 1, 1, 'f' }, { "atan2", ATTU_OP_ATAN2, 2, 2, 'f' }, { "cot", ATTU_OP_COT, 1, 1, 'f' },
    { "sind", ATTU_OP_SIND, 1, 1, 'f' }, { "cosd", ATTU_OP_COSD, 1, 1, 'f' }, { "tand", ATTU_OP_TAND, 1, 1, 'f' },
    { "cotd", ATTU_OP_COTD, 1, 1, 'f' }, { "asind", ATTU_OP_ASIND, 1, 1, 'f' }, { "acosd", ATTU_OP_ACOSD, 1, 1, 'f' },
    { "atand", ATTU_OP_ATAND, 1, 1, 'f' }, { "atan2d", ATTU_OP_ATAN2D, 2, 2, 'f' },
    { "radians", ATTU_OP_RADIANS, 1, 1, 'f' }, { "degrees", ATTU_OP_DEGREES, 1, 1, 'f' },
    { "pi", ATTU_OP_PI, 0, 0, 'f' }, { "earth_distance", ATTU_OP_EARTH_DISTANCE, 4, 4, 'f' },
    { "haversine", ATTU_OP_EARTH_DISTANCE, 4, 4, 'f' },
    { "lower", ATTU_OP_LOWER, 1, 1, 't' }, { "upper", ATTU_OP_UPPER, 1, 1, 't' },
    { "length", ATTU_OP_LENGTH, 1, 1, 't' }, { "char_length", ATTU_OP_LENGTH, 1, 1, 't' },
    { "character_length", ATTU_OP_LENGTH, 1, 1, 't' }, { "octet_length", ATTU_OP_OCTET_LENGTH, 1, 1, 't' },
    { "substr", ATTU_OP_SUBSTR, 2, 3, 't' }, { "substring", ATTU_OP_SUBSTR, 2, 3, 't' },
    { "btrim", ATTU_OP_TRIM, 1, 2, 't' }, { "trim", ATTU_OP_TRIM, 1, 2, 't' },
    { "ltrim", ATTU_OP_LTRIM, 1, 2, 't' }, { "rtrim", ATTU_OP_RTRIM, 1, 2, 't' },
    { "strpos", ATTU_OP_STRPOS, 2, 2, 't' }, { "position", ATTU_OP_STRPOS, 2, 2, 't' },
    { "replace", ATTU_OP_REPLACE, 3, 3, 't' }, { "left", ATTU_OP_LEFT, 2, 2, 't' }, { "right", ATTU_OP_RIGHT, 2, 2, 't' },
    { "reverse", ATTU_OP_REVERSE, 1, 1, 't' }, { "repeat", ATTU_OP_REPEAT, 2, 2, 't' },
    { "lpad", ATTU_OP_LPAD, 2, 3, 't' }, { "rpad", ATTU_OP_RPAD, 2, 3, 't' },
    { "split_part", ATTU_OP_SPLIT_PART, 3, 3, 't' }, { "initcap", ATTU_OP_INITCAP, 1, 1, 't' },
    { "starts_with", ATTU_OP_STARTS_WITH, 2, 2, 't' }, { "cbrt", ATTU_OP_CBRT, 1, 1, 'f' },
    { "pg_size_bytes", ATTU_OP_PG_SIZE_BYTES, 1, 1, 't' }, { "unistr", ATTU_OP_UNISTR, 1, 1, 't' },
    { "md5", ATTU_OP_MD5, 1, 1, 't' }, { "translate", ATTU_OP_TRANSLATE, 3, 3, 't' },
    { "ascii", ATTU_OP_ASCII, 1, 1, 't' }, { "bit_length", ATTU_OP_BIT_LENGTH, 1, 1, 't' },
    { "overlay", ATTU_OP_OVERLAY, 3, 4, 't' },
    { "div", ATTU_OP_DIV_TRUNC_N, 2, 2, 'x' },
    { "chr", ATTU_OP_CHR, 1, 1, 'x' }, { "to_hex", ATTU_OP_TO_HEX, 1, 1, 'x' },
    { "mod", ATTU_OP_MOD_I, 2, 2, 'x' }, { "concat_ws", ATTU_OP_CONCAT, 2, 100, 'x' },
    { "date_part", ATTU_OP_EXTRACT, 2, 2, 'x' }, { "date_trunc", ATTU_OP_DATE_TRUNC, 2, 2, 'x' },
    { "abs", ATTU_OP_ABS_I, 1, 1, 'x' }, { "round", ATTU_OP_ROUND_D, 1, 2, 'x' },
    { "floor", ATTU_OP_FLOOR_F, 1, 1, 'x' }, { "ceil", ATTU_OP_CEIL_F, 1, 1, 'x' }, { "ceiling", ATTU_OP_CEIL_F, 1, 1, 'x' },
    { "trunc", ATTU_OP_TRUNC_F, 1, 2, 'x' }, { "sign", ATTU_OP_SIGN_F, 1, 1, 'f' },
    { "coalesce", ATTU_OP_COALESCE, 1, 100, 'x' }, { "nullif", ATTU_OP_NULLIF_I, 2, 2, 'x' },
    { "greatest", ATTU_OP_SELECT, 1, 100, 'x' }, { "least", ATTU_OP_SELECT, 1, 100, 'x' },
    { "concat", ATTU_OP_CONCAT, 1, 100, 'x' },
    { "make_date", ATTU_OP_MAKE_DATE, 3, 3, 'x' }, { "make_timestamp", ATTU_OP_MAKE_TIMESTAMP, 6, 6, 'x' },
    { "justify_days", ATTU_OP_JUSTIFY, 1, 1, 'x' }, { "justify_hours", ATTU_OP_JUSTIFY, 1, 1, 'x' },
    { "justify_interval", ATTU_OP_JUSTIFY, 1, 1, 'x' }, { "age", ATTU_OP_AGE, 1, 2, 'x' },
    { "make_interval", ATTU_OP_MAKE_INTERVAL, 0, 7, 'x' },
    { "regexp_replace", ATTU_OP_REGEXP_REPLACE, 3, 6, 'x' }, { "regexp_count", ATTU_OP_REGEXP_COUNT, 2, 4, 'x' },
    { "regexp_instr", ATTU_OP_REGEXP_INSTR, 2, 7, 'x' }, { "regexp_like", ATTU_OP_REGEXP_LIKE, 2, 3, 'x' },
    { "regexp_substr", ATTU_OP_REGEXP_SUBSTR, 2, 6, 'x' },
    { "to_char", ATTU_OP_TO_CHAR_TS, 2, 2, 'x' }, { "to_date", ATTU_OP_TO_DATE, 2, 2, 'x' },
    { "to_number", ATTU_OP_TO_NUMBER, 2, 2, 'x' }, { "to_timestamp", ATTU_OP_TO_TIMESTAMP, 1, 2, 'x' },
};

/* hi * 2^32 + lo + 2^31 as a bigint: two integer arguments of
 * make_timestamp in one register (lo + 2^31 lies in 0 .. 2^32 - 1, so the
 * sum never overflows and the executor recovers both exactly). */
static attu_bexpr *pack_int_pair(bctx *c, attu_bexpr *hi, attu_bexpr *lo, int pos) {
    attu_type i8 = attu_type_make(ATTU_TYPE_INT64);
    if (!(hi = coerce(c, hi, i8, false, pos)) || !(lo = coerce(c, lo, i8, false, pos))) return NULL;
    attu_bexpr *shifted = mk_call(c, ATTU_OP_MUL_I, i8, pos, 2, hi, mk_const_int(c, i8, 4294967296LL), NULL, NULL);
    attu_bexpr *biased = mk_call(c, ATTU_OP_ADD_I, i8, pos, 2, lo, mk_const_int(c, i8, 2147483648LL), NULL, NULL);
    if (!shifted || !biased) return NULL;
    return mk_call(c, ATTU_OP_ADD_I, i8, pos, 2, shifted, biased, NULL, NULL);
}

/* Whether an argument of this type may stand for an integer parameter:
 * PostgreSQL's substr, left, right, repeat, lpad, rpad, split_part,
 * overlay, chr, make_date / make_timestamp and the regexp_* functions take
 * integer positions, lengths and fields, which a smallint or an untyped
 * literal casts to implicitly and a bigint does not (42883). */
static bool int4_argument(attu_type_id t) {
    return t == ATTU_TYPE_INT16 || t == ATTU_TYPE_INT32 || t == ATTU_TYPE_UNKNOWN;
}

/* An integer argument (int4_argument) that the engine reads as a bigint:
 * an untyped literal or parameter is PostgreSQL's integer first, so
 * substr(s, $1) describes $1 as integer and '3000000000' is out of range
 * there as in PostgreSQL. */
static attu_bexpr *int4_arg_as_int8(bctx *c, attu_bexpr *a, int pos) {
    if (a->type.id == ATTU_TYPE_UNKNOWN && !(a = coerce(c, a, attu_type_make(ATTU_TYPE_INT32), false, pos))) return NULL;
    return coerce(c, a, attu_type_make(ATTU_TYPE_INT64), false, pos);
}

/* The regexp_* functions (engine/regexp_functions.h): PostgreSQL 15's
 * signatures, each argument text ('t': text or an untyped literal) or
 * integer ('i': smallint, integer or an untyped literal; bigint does not
 * cast to integer implicitly). Their operands: the string, the pattern
 * with its flags (ATTU_OP_REGEXP_FLAGS), then two packed integer pairs or
 * the replacement; absent arguments take their defaults (start 1, N 1,
 * endoption 0, subexpr 0, no flags). substring(s, pattern) comes here
 * with op ATTU_OP_REGEXP_SUBSTRING. */
static attu_bexpr *bind_regexp(bctx *c, const attu_ast_expr *e, attu_opcode op, attu_bexpr **args, int n, int pos) {
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT), i4 = attu_type_make(ATTU_TYPE_INT32);
    const char *sig;
    switch (op) {
    case ATTU_OP_REGEXP_REPLACE: {
        /* a fourth argument of a string type is the flags (an untyped
         * literal too, as PostgreSQL resolves it), else the start */
        attu_type_id t4 = n >= 4 ? args[3]->type.id : ATTU_TYPE_UNKNOWN;
        sig = n == 3 ? "ttt" : n == 4 ? (t4 == ATTU_TYPE_TEXT || t4 == ATTU_TYPE_UNKNOWN ? "tttt" : "ttti")
            : n == 5 ? "tttii" : "tttiit";
        break;
    }
    case ATTU_OP_REGEXP_COUNT: sig = "ttit"; break;
    case ATTU_OP_REGEXP_INSTR: sig = "ttiiiti"; break;
    case ATTU_OP_REGEXP_LIKE: sig = "ttt"; break;
    case ATTU_OP_REGEXP_SUBSTR: sig = "ttiiti"; break;
    default: sig = "tt"; break;
    }
    for (int i = 0; i < n; i++) {
        attu_type_id t = args[i]->type.id;
        bool want_int = sig[i] == 'i';
        if (want_int ? !int4_argument(t) : !(t == ATTU_TYPE_TEXT || t == ATTU_TYPE_UNKNOWN))
            return attu_no_function(c, e, args, n);
        if (!(args[i] = coerce(c, args[i], want_int ? i4 : txt, false, pos))) return NULL;
    }
    /* the flags argument's place in each signature */
    int fpos = op == ATTU_OP_REGEXP_REPLACE ? (n == 4 && sig[3] == 't' ? 3 : 5) : op == ATTU_OP_REGEXP_COUNT ? 3
             : op == ATTU_OP_REGEXP_INSTR ? 5 : op == ATTU_OP_REGEXP_LIKE ? 2 : op == ATTU_OP_REGEXP_SUBSTR ? 4 : -1;
    attu_bexpr *flags;
    if (fpos >= 0 && fpos < n) flags = args[fpos];
    else {
        if (!(flags = attu_bx_new(c->pa, BX_CONST, txt, pos)) || !(flags->s = attu_pstrdup(c->pa, "", 0)))
            { attu_error_oom(c->err); return NULL; }
    }
    attu_bexpr *pat = mk_call(c, ATTU_OP_REGEXP_FLAGS, txt, pos, 2, flags, args[1], NULL, NULL);
    if (!pat) return NULL;
    /* the integer arguments, defaulted */
    attu_bexpr *iv[4];
    int first_int = op == ATTU_OP_REGEXP_REPLACE ? 3 : 2;
    for (int k = 0; k < 4; k++) {
        int at = first_int + k;
        if (op == ATTU_OP_REGEXP_INSTR && k == 3) at = 6;          /* subexpr after the flags */
        if (op == ATTU_OP_REGEXP_SUBSTR && k == 2) at = 5;
        bool given = at < n && sig[at] == 'i' && !(op == ATTU_OP_REGEXP_REPLACE && n == 4 && sig[3] == 't');
        int64_t dflt = (k == 0 || k == 1) ? 1 : 0;
        if (!(iv[k] = given ? args[at] : mk_const_int(c, i4, dflt))) return NULL;
    }
    attu_type rt = op == ATTU_OP_REGEXP_COUNT || op == ATTU_OP_REGEXP_INSTR ? i4
                 : op == ATTU_OP_REGEXP_LIKE ? attu_type_make(ATTU_TYPE_BOOL) : txt;
    attu_bexpr *x;
    switch (op) {
    case ATTU_OP_REGEXP_REPLACE: {
        attu_bexpr *sn = pack_int_pair(c, iv[0], iv[1], pos);
        if (!sn || !(x = mk_call(c, op, rt, pos, 4, args[0], pat, args[2], sn))) return NULL;
        x->aux = (n >= 5 ? 1 : 0) | (n == 4 && sig[3] == 't' ? 2 : 0);
        return x;
    }
    case ATTU_OP_REGEXP_COUNT: return mk_call(c, op, rt, pos, 3, args[0], pat, iv[0], NULL);
    case ATTU_OP_REGEXP_INSTR: {
        attu_bexpr *sn = pack_int_pair(c, iv[0], iv[1], pos), *es = pack_int_pair(c, iv[2], iv[3], pos);
        if (!sn || !es) return NULL;
        return mk_call(c, op, rt, pos, 4, args[0], pat, sn, es);
    }
    case ATTU_OP_REGEXP_SUBSTR: {
        attu_bexpr *sn = pack_int_pair(c, iv[0], iv[1], pos);
        if (!sn) return NULL;
        return mk_call(c, op, rt, pos, 4, args[0], pat, sn, iv[2]);
    }
    default: return mk_call(c, op, rt, pos, 2, args[0], pat, NULL, NULL);
    }
}

/* An argument of concat / concat_ws as text. They format each value with
 * its type's output function, so a boolean is 't' / 'f' there (a cast to
 * text, and so ||, gives 'true' / 'false'); NULL stays NULL. */
static attu_bexpr *concat_arg(bctx *c, attu_bexpr *a, int pos) {
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT);
    /* their arguments are "any": an untyped parameter stays undetermined
     * there, as in PostgreSQL (42P18 when nothing else types it) */
    if (is_untyped_param(a) && !(a = resolve_unknown_untracked(c, a))) return NULL;
    /* concat prints each argument with its output function: a char(n)
     * with its padding */
    if (a->type.id != ATTU_TYPE_BOOL) return coerce(c, bpchar_padded(c, a, pos), txt, true, pos);
    attu_bexpr *t = attu_bx_new(c->pa, BX_CONST, txt, pos), *f = attu_bx_new(c->pa, BX_CONST, txt, pos);
    if (!t || !f) { attu_error_oom(c->err); return NULL; }
    t->s = "t"; t->slen = 1;
    f->s = "f"; f->slen = 1;
    attu_bexpr *tf = mk_call(c, ATTU_OP_SELECT, txt, pos, 3, t, f, a, NULL);
    return mk_call(c, ATTU_OP_SELECT, txt, pos, 3, tf, mk_const_null(c, txt),
                   mk_call(c, ATTU_OP_IS_NOT_NULL, attu_type_make(ATTU_TYPE_BOOL), pos, 1, a, NULL, NULL, NULL), NULL);
}

attu_bexpr *attu_output_text_arg(bctx *c, attu_bexpr *a, int pos) { return concat_arg(c, a, pos); }

/* How many digits before the point a numeric argument can have: counted
 * for a constant, from the type otherwise (smallint, integer and bigint
 * as numeric(5), numeric(10) and numeric(18)). Sizes the result scale of
 * round / trunc. */
static int numeric_int_digits(const attu_bexpr *a) {
    int sc = a->type.id == ATTU_TYPE_DECIMAL ? a->type.scale : 0;
    if (a->kind == BX_CONST && !a->is_null && attu_type_mclass(a->type.id) == ATTU_MC_INT) {
        int64_t v = a->i;
        for (int i = 0; i < sc; i++) v /= 10;
        int k = 1;
        while (v >= 10 || v <= -10) { v /= 10; k++; }
        return k;
    }
    if (a->type.id == ATTU_TYPE_DECIMAL) return a->type.precision > sc ? a->type.precision - sc : 18 - sc;
    return a->type.id == ATTU_TYPE_INT16 ? 5 : a->type.id == ATTU_TYPE_INT32 ? 10 : 18;
}

/* The name PostgreSQL's regtype output gives the type a value of attu's
 * type t has: a DECIMAL(p,s) is numeric like every numeric typmod, a TEXT
 * with a length is varchar(n) (scale 0) or char(n) (scale 1), whose
 * regtype names are character varying and character; so is a varchar
 * without a length (engine/types.h). */
static const char *pg_type_display_name(attu_type t) {
    if (attu_type_is_record(t)) return "record";
    if (attu_type_is_json(t)) return "json";
    if (attu_type_is_jsonb(t)) return "jsonb";
    if (attu_type_is_uuid(t)) return "uuid";
    if (attu_type_is_bytea(t)) return "bytea";
    if (attu_type_is_jsonpath(t)) return "jsonpath";
    if (attu_type_is_array(t) || attu_type_is_enum(t) || attu_type_is_range(t)) {
        static _Thread_local char buf[80];
        return attu_type_name(t, buf, sizeof buf);
    }
    switch (t.id) {
    case ATTU_TYPE_UNKNOWN: return "unknown";
    case ATTU_TYPE_BOOL: return "boolean";
    case ATTU_TYPE_INT16: return "smallint";
    case ATTU_TYPE_INT32: return "integer";
    case ATTU_TYPE_INT64: return "bigint";
    case ATTU_TYPE_FLOAT32: return "real";
    case ATTU_TYPE_FLOAT64: return "double precision";
    case ATTU_TYPE_DECIMAL: case ATTU_TYPE_NUMERIC: return "numeric";
    case ATTU_TYPE_TEXT: return t.scale ? "character" : attu_type_is_varchar_any(t) ? "character varying" : "text";
    case ATTU_TYPE_DATE: return "date";
    case ATTU_TYPE_TIMESTAMP: return "timestamp without time zone";
    case ATTU_TYPE_TIMESTAMPTZ: return "timestamp with time zone";
    case ATTU_TYPE_TIME: return "time without time zone";
    case ATTU_TYPE_TIMETZ: return "time with time zone";
    case ATTU_TYPE_INTERVAL: return "interval";
    default: return "unknown";
    }
}

/* PostgreSQL 15's data type formatting functions (engine/formatting_functions.h):
 * to_char(timestamp | date | interval | integer | bigint | real |
 * double precision | numeric, text), to_date(text, text) and to_number(text, text). A date is
 * formatted as PostgreSQL's timestamp with time zone (its implicit cast);
 * a smallint as a double precision, as PostgreSQL resolves it; an untyped
 * literal as the value matches several of them (42725). */
static attu_bexpr *bind_formatting(bctx *c, const attu_ast_expr *e, attu_opcode op, attu_bexpr **args, int n, int pos) {
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT), tz = attu_type_make(ATTU_TYPE_TIMESTAMPTZ);
    if (op == ATTU_OP_TO_TIMESTAMP && n == 1) {
        /* to_timestamp(double precision): seconds since the Unix epoch */
        attu_type_id t = args[0]->type.id;
        if (!is_numeric(t) && t != ATTU_TYPE_UNKNOWN) return attu_no_function(c, e, args, n);
        if (!(args[0] = coerce(c, args[0], attu_type_make(ATTU_TYPE_FLOAT64), false, pos))) return NULL;
        return mk_call(c, ATTU_OP_TZ_FROM_EPOCH, tz, pos, 1, args[0], NULL, NULL, NULL);
    }
    if (n != 2) return attu_no_function(c, e, args, n);
    attu_type_id t0 = args[0]->type.id, t1 = args[1]->type.id;
    if (t1 != ATTU_TYPE_TEXT && t1 != ATTU_TYPE_UNKNOWN) return attu_no_function(c, e, args, n);
    if (op != ATTU_OP_TO_CHAR_TS) {
        if (t0 != ATTU_TYPE_TEXT && t0 != ATTU_TYPE_UNKNOWN) return attu_no_function(c, e, args, n);
        if (!(args[0] = coerce(c, args[0], txt, false, pos)) || !(args[1] = coerce(c, args[1], txt, false, pos))) return NULL;
        attu_type rt = attu_type_make(op == ATTU_OP_TO_DATE ? ATTU_TYPE_DATE : ATTU_TYPE_NUMERIC);
        if (op == ATTU_OP_TO_TIMESTAMP) rt = tz;
        attu_bexpr *x = mk_call(c, op, rt, pos, 2, args[0], args[1], NULL, NULL);
        /* to_timestamp reads wall time in the session's zone */
        if (x && op == ATTU_OP_TO_TIMESTAMP) x->imm = attu_tz_id(attu_tz_session());
        return x;
    }
    if (t0 == ATTU_TYPE_UNKNOWN) {
        char b1[64], b2[64];
        attu_error_set(c->err, "42725", pos, "function to_char(%s, %s) is not unique", tname(args[0]->type, b1),
                       tname(args[1]->type, b2));
        attu_error_set_hint(c->err, "Could not choose a best candidate function. You might need to add explicit type casts.");
        return NULL;
    }
    int aux;
    attu_opcode rop = ATTU_OP_TO_CHAR_NUM;
    attu_bexpr *a = args[0];
    switch (t0) {
    case ATTU_TYPE_TIMESTAMP: rop = ATTU_OP_TO_CHAR_TS; aux = 0; break;
    case ATTU_TYPE_TIMESTAMPTZ: rop = ATTU_OP_TO_CHAR_TS; aux = 3; break;
    case ATTU_TYPE_DATE: rop = ATTU_OP_TO_CHAR_TS; aux = 1; break;
    case ATTU_TYPE_INTERVAL: rop = ATTU_OP_TO_CHAR_TS; aux = 2; break;
    case ATTU_TYPE_INT32: aux = ATTU_NUMSRC_INT4; break;
    case ATTU_TYPE_INT64: aux = ATTU_NUMSRC_INT8; break;
    case ATTU_TYPE_FLOAT32: aux = ATTU_NUMSRC_FLOAT4; break;
    case ATTU_TYPE_INT16: case ATTU_TYPE_FLOAT64:
        aux = ATTU_NUMSRC_FLOAT8;
        if (!(a = coerce(c, a, attu_type_make(ATTU_TYPE_FLOAT64), false, pos))) return NULL;
        break;
    case ATTU_TYPE_DECIMAL: case ATTU_TYPE_NUMERIC:
        aux = ATTU_NUMSRC_NUMERIC;
        if (!(a = coerce(c, a, attu_type_make(ATTU_TYPE_NUMERIC), false, pos))) return NULL;
        break;
    default: return attu_no_function(c, e, args, n);
    }
    if (!(args[1] = coerce(c, args[1], txt, false, pos))) return NULL;
    attu_bexpr *x = mk_call(c, rop, txt, pos, 2, a, args[1], NULL, NULL);
    if (x) x->aux = aux;
    /* a timestamptz (and a date, formatted as one) shows the session's zone */
    if (x && (t0 == ATTU_TYPE_TIMESTAMPTZ || t0 == ATTU_TYPE_DATE)) x->imm = attu_tz_id(attu_tz_session());
    return x;
}

/* A call with arguments in named notation (make_interval(days => 3)): the
 * functions that name their parameters take them in order, the missing
 * ones their defaults (make_interval's 0); any other call is PostgreSQL's
 * 42883, a name given twice 42601. NULL with no error: not named. */
static attu_bexpr *bind_named_call(bctx *c, const scope *sc, const attu_ast_expr *e, bool *named) {
    int n = e->u.func.args.n;
    *named = false;
    for (int i = 0; i < n; i++) if (e->u.func.args.items[i]->arg_name) *named = true;
    if (!*named) return NULL;
    if ((!e->u.func.schema || !strcmp(e->u.func.schema, "pg_catalog")) && attu_jsonpath_function_name(e->u.func.name)) {
        attu_ast_expr call;   /* planner/jsonpath_bind.c */
        return attu_jsonpath_named_call(c, sc, e, &call) ? bind_function(c, sc, &call) : NULL;
    }
    static const char *const interval_p[] = { "years", "months", "weeks", "days", "hours", "mins", "secs", NULL };
    static const char *const date_p[] = { "year", "month", "day", NULL };
    static const char *const ts_p[] = { "year", "month", "mday", "hour", "min", "sec", NULL };
    const char *fname = e->u.func.name;
    const char *const *params = NULL;
    bool defaults = false;
    if (!e->u.func.schema || !strcmp(e->u.func.schema, "pg_catalog")) {
        if (!strcmp(fname, "make_interval")) { params = interval_p; defaults = true; }
        else if (!strcmp(fname, "make_date")) params = date_p;
        else if (!strcmp(fname, "make_timestamp")) params = ts_p;
    }
    for (int i = 0; i < n; i++) {
        const char *an = e->u.func.args.items[i]->arg_name;
        for (int j = 0; an && j < i; j++)
            if (e->u.func.args.items[j]->arg_name && !strcmp(e->u.func.args.items[j]->arg_name, an)) {
                attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, e->u.func.args.items[i]->position,
                               "argument name \"%s\" used more than once", an);
                return NULL;
            }
    }
    int np = 0;
    while (params && params[np]) np++;
    const attu_ast_expr *slot[8] = { 0 };
    bool ok = params && n <= np && !e->u.func.star && !e->u.func.distinct && !e->u.func.order_by.n && !e->u.func.filter &&
              !e->u.func.over && !e->u.func.within_group;
    for (int i = 0; ok && i < n; i++) {
        const attu_ast_expr *a = e->u.func.args.items[i];
        int k = i;
        if (a->arg_name) {
            k = -1;
            for (int j = 0; j < np; j++) if (!strcmp(params[j], a->arg_name)) k = j;
        }
        if (k < 0 || slot[k]) ok = false;
        else slot[k] = a;
    }
    /* the arguments in order, each without its name; a missing one is a
     * default (make_interval's trailing zeros) or no such function */
    int last = -1;
    for (int j = 0; ok && j < np; j++) if (slot[j]) last = j;
    attu_ast_expr **items = attu_palloc(c->pa, sizeof(attu_ast_expr *) * (size_t)(np + 1));
    if (!items) { attu_error_oom(c->err); return NULL; }
    for (int j = 0; ok && j <= last; j++) {
        attu_ast_expr *x = attu_palloc(c->pa, sizeof *x);
        if (!x) { attu_error_oom(c->err); return NULL; }
        if (slot[j]) *x = *slot[j];
        else if (defaults) {
            memset(x, 0, sizeof *x);
            x->kind = ATTU_EXPR_LITERAL; x->position = e->position; x->depth = 1;
            x->u.literal.kind = ATTU_LIT_INTEGER; x->u.literal.text = "0"; x->u.literal.len = 1;
        } else ok = false;
        x->arg_name = NULL;
        items[j] = x;
    }
    if (!ok) {
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, e->position,
                       "function %s with arguments in named notation does not exist", fname);
        return NULL;
    }
    attu_ast_expr call = *e;
    call.u.func.args.items = items;
    call.u.func.args.n = last + 1;
    return bind_function(c, sc, &call);
}

/* x COLLATE name (the grammar's " collate" call, the name already checked):
 * x itself, since attu's one collation is the one every collation name it
 * takes stands for; 42804 where x's type has no collation (not text,
 * varchar, char(n) or an array of them), as PostgreSQL says. */
static attu_bexpr *bind_collate(bctx *c, const scope *sc, const attu_ast_expr *e) {
    attu_bexpr *a = bind_expr(c, sc, e->u.func.args.items[0]);
    if (!a) return NULL;
    if (a->type.id == ATTU_TYPE_UNKNOWN) return resolve_unknown(c, a);
    attu_type t = attu_type_is_array(a->type) ? attu_type_array_elem(a->type) : a->type;
    if (t.id != ATTU_TYPE_TEXT) {
        char buf[96];
        attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, e->position, "collations are not supported by type %s",
                       attu_type_name(a->type, buf, sizeof buf));
        return NULL;
    }
    return a;
}

/* A function's or aggregate's result has no typmod in PostgreSQL
 * (exprTypmod -1): a DECIMAL result is numeric without one (engine/types.h
 * no_typmod). coalesce, greatest, least and nullif keep their arguments'
 * common typmod (mix_type, mix_typmod) and COLLATE its
 * argument's, so they mark their own. The node is this call's own. */
static attu_bexpr *bind_function_value(bctx *c, const scope *sc, const attu_ast_expr *e);

/* coalesce / greatest / least's result as its common type t has it: a
 * numeric(p,s) only where every argument is one (mix_type). */
static attu_bexpr *mix_typmod(attu_bexpr *r, attu_type t) {
    if (r && r->type.id == ATTU_TYPE_DECIMAL && t.id == ATTU_TYPE_DECIMAL) r->type = t;
    return r;
}

bool attu_aggregate_in(const attu_ast_expr *e) {
    if (!e) return false;
    switch (e->kind) {
    case ATTU_EXPR_FUNC:
        if (e->u.func.over || e->u.func.within_group || (!e->u.func.schema && find_agg(e->u.func.name))) return true;
        for (int i = 0; i < e->u.func.args.n; i++) if (attu_aggregate_in(e->u.func.args.items[i])) return true;
        return false;
    case ATTU_EXPR_BINARY: return attu_aggregate_in(e->u.binary.left) || attu_aggregate_in(e->u.binary.right);
    case ATTU_EXPR_UNARY: return attu_aggregate_in(e->u.unary.arg);
    case ATTU_EXPR_CAST: return attu_aggregate_in(e->u.cast.arg);
    case ATTU_EXPR_IS: return attu_aggregate_in(e->u.is.arg);
    case ATTU_EXPR_BETWEEN:
        return attu_aggregate_in(e->u.between.arg) || attu_aggregate_in(e->u.between.low) || attu_aggregate_in(e->u.between.high);
    case ATTU_EXPR_IN_LIST:
        if (attu_aggregate_in(e->u.in_list.arg)) return true;
        for (int i = 0; i < e->u.in_list.list.n; i++) if (attu_aggregate_in(e->u.in_list.list.items[i])) return true;
        return false;
    case ATTU_EXPR_LIKE: return attu_aggregate_in(e->u.like.arg) || attu_aggregate_in(e->u.like.pattern);
    case ATTU_EXPR_CASE:
        if (attu_aggregate_in(e->u.case_.operand) || attu_aggregate_in(e->u.case_.else_)) return true;
        for (int i = 0; i < e->u.case_.nwhens; i++)
            if (attu_aggregate_in(e->u.case_.whens[i].when) || attu_aggregate_in(e->u.case_.whens[i].then)) return true;
        return false;
    default: return false;
    }
}

bool attu_string_to_table_args(bctx *c, const scope *sc, const attu_ast_expr *e) {
    int n = e->u.func.args.n;
    attu_bexpr *args[3] = { 0 };
    bool fits = (n == 2 || n == 3) && !e->u.func.star && !e->u.func.distinct;
    for (int i = 0; i < n && i < 3; i++) {
        if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return false;
        attu_type t = args[i]->type;
        fits &= t.id == ATTU_TYPE_UNKNOWN || (t.id == ATTU_TYPE_TEXT && !attu_type_is_typed_text(t) && !attu_type_is_array(t));
    }
    if (!fits) { attu_no_function(c, e, args, n < 3 ? n : 3); return false; }
    return true;
}

bool attu_builtin_function_name(const char *name) {
    if (find_agg(name) || attu_json_function_name(name) || attu_array_function_name(name) ||
        attu_sequence_function_name(name) || attu_session_function_name(name) || !strcmp(name, "generate_series") ||
        !strcmp(name, "unnest") || !strcmp(name, "string_to_table") || !strcmp(name, "generate_subscripts") ||
        !strcmp(name, "make_timestamptz") || !strcmp(name, "isfinite") || !strcmp(name, "num_nulls") ||
        !strcmp(name, "num_nonnulls") ||
        !strcmp(name, "pg_typeof") ||
        !strcmp(name, "current_setting") || !strcmp(name, "set_config") || !strcmp(name, "grouping") ||
        !strncmp(name, "enum_", 5))
        return true;
    for (size_t i = 0; i < sizeof scalars / sizeof *scalars; i++) if (!strcmp(scalars[i].name, name)) return true;
    return false;
}

/* the built-in functions PostgreSQL declares with a VARIADIC parameter,
 * which take f(..., VARIADIC arr) as such */
static bool builtin_variadic_name(const char *name) {
    static const char *const names[] = {
        "format", "concat", "concat_ws", "json_build_array", "json_build_object", "jsonb_build_array",
        "jsonb_build_object", "json_extract_path", "json_extract_path_text", "jsonb_extract_path",
        "jsonb_extract_path_text",
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) if (!strcmp(names[i], name)) return true;
    return false;
}

attu_bexpr *bind_function(bctx *c, const scope *sc, const attu_ast_expr *e) {
    attu_bexpr *r = bind_function_value(c, sc, e);
    const char *name = e->u.func.name;
    if (r && r->type.id == ATTU_TYPE_DECIMAL && strcmp(name, "coalesce") && strcmp(name, "greatest") &&
        strcmp(name, "least") && strcmp(name, "nullif") && strcmp(name, " collate"))
        r->type.no_typmod = 1;
    return r;
}

static attu_bexpr *bind_function_value(bctx *c, const scope *sc, const attu_ast_expr *e) {
    const char *name = e->u.func.name;
    if (!strcmp(name, " collate")) return bind_collate(c, sc, e);
    if (attu_is_row_constructor(e)) return attu_bind_row_value(c, sc, e);   /* planner/row_value.c */
    bool user_fn;
    attu_bexpr *uf = attu_bind_sql_function(c, sc, e, &user_fn);   /* planner/sql_function_bind.c */
    if (user_fn) return uf;
    if (e->u.func.variadic && !builtin_variadic_name(name)) {
        /* PostgreSQL forgets VARIADIC in a call of a function that is not
         * variadic: f(VARIADIC arr) is f(arr) (cardinality(VARIADIC a)
         * works, lower(VARIADIC a) is lower(text[]), 42883) */
        attu_ast_expr *plain = attu_palloc(c->pa, sizeof *plain);
        if (!plain) { attu_error_oom(c->err); return NULL; }
        *plain = *e;
        plain->u.func.variadic = false;
        e = plain;
    }
    bool catalog_fn;
    attu_bexpr *cf = attu_bind_catalog_function(c, sc, e, &catalog_fn);   /* planner/catalog_functions.c */
    if (catalog_fn) return cf;
    bool named;
    attu_bexpr *nb = bind_named_call(c, sc, e, &named);
    if (named) return nb;
    if (!e->u.func.schema && !strcmp(name, "grouping")) return attu_bind_grouping(c, sc, e);   /* planner/grouping_sets.c */
    const agg_name *an = find_agg(name);
    if (an) return bind_aggregate(c, sc, e, an);
    if (e->u.func.within_group) return attu_within_group_misuse(c, sc, e, false, false);
    if (!strcmp(name, "generate_series")) return attu_bind_generate_series(c, sc, e);   /* planner/srf.c */
    if (!strcmp(name, "unnest")) return attu_bind_unnest(c, sc, e);                     /* planner/array_bind.c */
    if (!strcmp(name, "date_trunc") && e->u.func.args.n == 3 && !e->u.func.star && !e->u.func.distinct) {
        /* date_trunc(field, timestamptz, zone): truncated on the zone's
         * wall clock, PostgreSQL's timestamptz_trunc_zone, which is
         * timezone(zone, date_trunc(field, timezone(zone, ts))) */
        attu_bexpr *ts = bind_expr(c, sc, e->u.func.args.items[1]);
        if (!ts) return NULL;
        if (ts->type.id != ATTU_TYPE_TIMESTAMPTZ && ts->type.id != ATTU_TYPE_UNKNOWN && ts->type.id != ATTU_TYPE_DATE &&
            ts->type.id != ATTU_TYPE_TIMESTAMP) {
            attu_bexpr *args[3] = { 0 };
            for (int i = 0; i < 3; i++) if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
            return attu_no_function(c, e, args, 3);
        }
        attu_ast_expr tz_ts = *e, trunc = *e, back = *e;
        attu_ast_expr *a1[2] = { e->u.func.args.items[2], e->u.func.args.items[1] };
        tz_ts.u.func.name = (char *)"timezone";
        tz_ts.u.func.args.items = a1;
        tz_ts.u.func.args.n = 2;
        /* (the timestamptz form: the argument read as one) */
        attu_ast_expr cast = *e->u.func.args.items[1];
        if (ts->type.id != ATTU_TYPE_TIMESTAMPTZ) {
            attu_ast_expr *arg1 = e->u.func.args.items[1];
            memset(&cast, 0, sizeof cast);
            cast.kind = ATTU_EXPR_CAST;
            cast.position = arg1->position;
            cast.depth = arg1->depth + 1;
            cast.u.cast.arg = arg1;
            cast.u.cast.type.name = (char *)"timestamptz";
            cast.u.cast.type.precision = cast.u.cast.type.scale = -1;
            cast.u.cast.type.position = arg1->position;
            cast.u.cast.syntax = ATTU_CAST_FUNCTION;
            a1[1] = &cast;
        }
        attu_ast_expr *a2[2] = { e->u.func.args.items[0], &tz_ts };
        trunc.u.func.args.items = a2;
        trunc.u.func.args.n = 2;
        attu_ast_expr *a3[2] = { e->u.func.args.items[2], &trunc };
        back.u.func.name = (char *)"timezone";
        back.u.func.args.items = a3;
        back.u.func.args.n = 2;
        attu_bexpr *r = bind_expr(c, sc, &back);
        /* (an unknown unit is named for the timestamptz form, as
         * PostgreSQL's executor names it: no position) */
        const char *inner = strstr(c->err->message, " not recognized for type timestamp without time zone");
        if (!r && c->err->set && inner) {
            char unit[128];
            snprintf(unit, sizeof unit, "%.*s", (int)(inner - c->err->message), c->err->message);
            snprintf(c->err->message, sizeof c->err->message, "%s not recognized for type timestamp with time zone", unit);
            c->err->position = 0;
        }
        return r;
    }
    if (!strcmp(name, "make_timestamptz") && !e->u.func.schema) {
        /* make_timestamptz(y, m, d, h, mi, s [, zone]): make_timestamp's
         * wall time read in the zone (the session's without one), as
         * timestamp AT TIME ZONE reads it (PostgreSQL's rule for a time a
         * DST change skips or repeats included) */
        int n = e->u.func.args.n;
        if ((n != 6 && n != 7) || e->u.func.star || e->u.func.distinct) {
            attu_bexpr *args[8] = { 0 };
            for (int i = 0; i < n && i < 8; i++) if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
            return attu_no_function(c, e, args, n < 8 ? n : 8);
        }
        attu_ast_expr ts = *e;
        ts.u.func.name = (char *)"make_timestamp";
        ts.u.func.args.n = 6;
        if (n == 6) {
            attu_ast_expr cast = *e;
            cast.kind = ATTU_EXPR_CAST;
            memset(&cast.u, 0, sizeof cast.u);
            cast.u.cast.arg = &ts;
            cast.u.cast.type.name = (char *)"timestamptz";
            cast.u.cast.type.precision = cast.u.cast.type.scale = -1;
            cast.u.cast.type.position = e->position;
            cast.u.cast.syntax = ATTU_CAST_FUNCTION;
            return bind_expr(c, sc, &cast);
        }
        /* a numeric offset is ISO's here ('+02' east of Greenwich, as in a
         * timestamptz literal) where AT TIME ZONE reads POSIX's (west):
         * a literal one changes sign */
        attu_ast_expr zone = *e->u.func.args.items[6];
        if (zone.kind == ATTU_EXPR_LITERAL && zone.u.literal.kind == ATTU_LIT_STRING && zone.u.literal.text &&
            zone.u.literal.len >= 2 && (zone.u.literal.text[0] == '+' || zone.u.literal.text[0] == '-') &&
            zone.u.literal.text[1] >= '0' && zone.u.literal.text[1] <= '9') {
            size_t len = zone.u.literal.len;
            char *flip = attu_palloc(c->pa, len + 1);
            if (!flip) { attu_error_oom(c->err); return NULL; }
            memcpy(flip, zone.u.literal.text, len);
            flip[len] = 0;
            flip[0] = flip[0] == '+' ? '-' : '+';
            zone.u.literal.text = flip;
        }
        attu_ast_expr *zargs[2] = { &zone, &ts };
        attu_ast_expr at = *e;
        at.u.func.name = (char *)"timezone";
        at.u.func.args.items = zargs;
        at.u.func.args.n = 2;
        return bind_expr(c, sc, &at);
    }
    if (!strcmp(name, "string_to_table")) {
        /* string_to_table(s, d [, null]) is unnest(string_to_array(s, d
         * [, null])), element for element; the column keeps its own name
         * (figure_colname reads e) */
        if (!attu_string_to_table_args(c, sc, e)) return NULL;
        attu_ast_expr inner = *e, outer = *e;
        attu_ast_expr *arg = &inner;
        inner.u.func.name = (char *)"string_to_array";
        outer.u.func.name = (char *)"unnest";
        outer.u.func.args.items = &arg;
        outer.u.func.args.n = 1;
        return attu_bind_unnest(c, sc, &outer);
    }
    if (attu_regexp_srf_name(name)) return attu_bind_regexp_srf(c, sc, e);   /* planner/regexp_setof_bind.c */
    if (!strcmp(name, "generate_subscripts")) return attu_bind_generate_subscripts(c, sc, e, false);
    if (e->u.func.over) {
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, e->position, "function %s is not a window function", name);
        return NULL;
    }
    if (!strcmp(name, " field") || !strcmp(name, " fields")) return attu_bind_field_select(c, sc, e);        /* planner/row_value.c */
    if (attu_json_function_name(name)) return attu_bind_json_call(c, sc, e);     /* planner/json_bind.c */
    if (!e->u.func.schema && attu_bitwise_operator_name(name)) return attu_bind_bitwise(c, sc, e);   /* planner/bitwise_bind.c */
    if (!e->u.func.schema && attu_range_operator_name(name)) return attu_bind_range_operator_call(c, sc, e);   /* planner/range_bind.c */
    if (attu_array_function_name(name)) return attu_bind_array_call(c, sc, e);   /* planner/array_bind.c */
    if ((!e->u.func.schema || !strcmp(e->u.func.schema, "pg_catalog")) && attu_sequence_function_name(name))
        return attu_bind_sequence_call(c, sc, e);   /* planner/sequence_functions.c */
    if ((!e->u.func.schema || !strcmp(e->u.func.schema, "pg_catalog")) && attu_session_function_name(name))
        return attu_bind_session_call(c, sc, e);   /* planner/session_functions.c */
    if ((!e->u.func.schema || !strcmp(e->u.func.schema, "pg_catalog")) && !strcmp(name, "current_setting"))
        return attu_bind_current_setting(c, sc, e);
    if ((!e->u.func.schema || !strcmp(e->u.func.schema, "pg_catalog")) && !strcmp(name, "set_config"))
        return attu_bind_set_config(c, sc, e);
    const scalar_fn *fn = NULL;
    for (size_t i = 0; i < sizeof scalars / sizeof *scalars; i++) if (!strcmp(scalars[i].name, name)) fn = &scalars[i];
    int n = e->u.func.args.n;
    attu_bexpr *args[100] = { 0 };
    if (n > 100) n = 100;
    /* COALESCE evaluates an argument only where the ones before it are NULL */
    bool lazy = !strcmp(name, "coalesce");
    for (int i = 0; i < n; i++) {
        c->cond_depth += lazy && i > 0;
        args[i] = bind_expr(c, sc, e->u.func.args.items[i]);
        c->cond_depth -= lazy && i > 0;
        if (!args[i]) return NULL;
    }
    if ((!strcmp(name, "enum_first") || !strcmp(name, "enum_last") || !strcmp(name, "enum_range")) && n >= 1 && n <= 2 &&
        !e->u.func.star && !e->u.func.distinct && (n == 2 ? !strcmp(name, "enum_range") : true)) {
        /* the enum functions (planner/enum_bind.c): anyenum arguments */
        bool typed = attu_type_is_enum(args[0]->type) || (n == 2 && attu_type_is_enum(args[1]->type));
        if (!typed) {
            return attu_no_function(c, e, args, n);
        }
        if (n == 2 || !strcmp(name, "enum_range")) return attu_enum_range(c, args, n, e->position);
        return attu_enum_first_last(c, args[0], !strcmp(name, "enum_last"), e->position);
    }
    if (!strcmp(name, "pg_typeof") && n == 1 && !e->u.func.star && !e->u.func.distinct) {
        /* pg_typeof(any) never looks at the value, only at the type the
         * argument was bound to, which is fixed here: the result is a text
         * constant (PostgreSQL's result is a regtype, which prints as the
         * same name; attu has no regtype, so the column is text). */
        attu_type txt = attu_type_make(ATTU_TYPE_TEXT);
        const char *tn = pg_type_display_name(args[0]->type);
        /* a domain's value: the domain (a table's column of one, a cast
         * to one; engine/domain_type.h) */
        const attu_ast_expr *ae = e->u.func.args.items[0];
        char dname[ATTU_NAME_MAX + 1];
        if (ae->kind == ATTU_EXPR_COLUMN && c->last_domain) tn = c->last_domain;
        else if (ae->kind == ATTU_EXPR_CAST && ae->u.cast.type.name) {
            const char *n = ae->u.cast.type.name;
            if (!strncmp(n, "public.", 7)) n += 7;
            size_t len = strlen(n);
            bool arr = len > 2 && !strcmp(n + len - 2, "[]");   /* (an array of a domain: "d[]") */
            char en[ATTU_NAME_MAX + 1];
            snprintf(en, sizeof en, "%.*s", (int)(arr ? len - 2 : len), n);
            attu_domain_def *d = attu_domain_find(en);
            if (d) { snprintf(dname, sizeof dname, "%s%s", d->name, arr ? "[]" : ""); tn = dname; }
            attu_domain_def_free(d);
        }
        attu_bexpr *k = attu_bx_new(c->pa, BX_CONST, txt, e->position);
        if (!k || !(k->s = attu_pstrdup(c->pa, tn, strlen(tn)))) { attu_error_oom(c->err); return NULL; }
        k->slen = strlen(tn);
        if (args[0]->kind == BX_CONST) return k;
        /* An argument that reads columns or aggregates stays in the tree,
         * as PostgreSQL keeps it: an aggregate in it still makes the query
         * an aggregate (pg_typeof(count(*)) is one row), an ungrouped
         * column is still 42803, and a row whose argument raises an error
         * raises it. Both arms are the name, so the result is the constant
         * whatever the argument's value, NULL included. */
        attu_bexpr *nn = mk_call(c, ATTU_OP_IS_NOT_NULL, attu_type_make(ATTU_TYPE_BOOL), e->position, 1, args[0], NULL, NULL, NULL);
        return nn ? mk_call(c, ATTU_OP_SELECT, txt, e->position, 3, k, k, nn, NULL) : NULL;
    }
    if (e->u.func.variadic && !attu_type_is_array(args[n - 1]->type)) {
        /* f(..., VARIADIC arr): arr must be an array, as PostgreSQL checks first */
        attu_error_set(c->err, "42804", e->u.func.args.items[n - 1]->position, "VARIADIC argument must be an array");
        return NULL;
    }
    if (e->u.func.variadic && !strcmp(name, "format")) return attu_bind_format(c, e, args, n);
    if (e->u.func.variadic) {
        /* concat(VARIADIC arr), concat_ws(sep, VARIADIC arr): the elements
         * as their output texts, NULLs skipped; NULL for a NULL arr */
        attu_type txt = attu_type_make(ATTU_TYPE_TEXT);
        bool ws = !strcmp(name, "concat_ws");
        if (n != (ws ? 2 : 1) || e->u.func.star || e->u.func.distinct) return attu_no_function(c, e, args, n);
        attu_bexpr *sep = ws ? resolve_unknown(c, args[0]) : attu_bx_new(c->pa, BX_CONST, txt, e->position);
        if (!sep) { attu_error_oom(c->err); return NULL; }
        if (ws && !(sep = concat_arg(c, sep, e->position))) return NULL;
        if (!ws) { sep->s = ""; sep->slen = 0; }
        attu_bexpr *x = mk_call(c, ATTU_OP_ARRAY, txt, e->position, 2, args[n - 1], sep, NULL, NULL);
        if (x) x->aux = ATTU_ARR_TO_STRING;
        return x;
    }
    if (!strcmp(name, "regexp_match") || !strcmp(name, "regexp_split_to_array")) return attu_bind_regexp_array(c, e, args, n);
    if (!strcmp(name, "format")) return attu_bind_format(c, e, args, n);   /* planner/format_bind.c */
    if (fn && strcmp(name, "coalesce") && strcmp(name, "nullif") && strcmp(name, "greatest") && strcmp(name, "least"))
        for (int i = 0; i < n; i++)   /* no function of attu's takes an array otherwise */
            if (attu_type_is_array(args[i]->type)) return attu_no_function(c, e, args, n);
    if ((!e->u.func.schema || !strcmp(e->u.func.schema, "pg_catalog")) && attu_math_function_name(name))
        return attu_bind_math_call(c, sc, e, args, n);   /* planner/math_bind.c */
    if (!e->u.func.star && !e->u.func.distinct) {
        bool handled;
        attu_bexpr *tzr = attu_bind_tz_function(c, e, name, args, n, &handled);   /* planner/timestamptz.c */
        if (handled) return tzr;
        tzr = attu_bind_time_function(c, e, name, args, n, &handled);   /* planner/time_type.c */
        if (handled) return tzr;
        tzr = attu_bind_bytea_function(c, e, name, args, n, &handled);   /* planner/bytea_bind.c */
        if (handled) return tzr;
        tzr = attu_bind_range_function(c, e, name, args, n, &handled);   /* planner/range_bind.c */
        if (handled) return tzr;
    }
    if (!strcmp(name, "isfinite") && n == 1 && !e->u.func.star && !e->u.func.distinct) {
        /* isfinite(date / timestamp / timestamptz): neither infinity
         * (INT32_MAX / INT32_MIN, INT64_MAX / INT64_MIN stand for them);
         * isfinite(interval): true (PostgreSQL 15 has no infinite
         * interval); strict */
        attu_type_id t = args[0]->type.id;
        if (t == ATTU_TYPE_UNKNOWN) return attu_param_not_unique(c, "isfinite", args, 1, e->position);
        if (attu_type_is_array(args[0]->type)) return attu_no_function(c, e, args, n);
        attu_type b = attu_type_make(ATTU_TYPE_BOOL);
        if (t == ATTU_TYPE_INTERVAL) return mk_call(c, ATTU_OP_EQ_IV, b, e->position, 2, args[0], args[0], NULL, NULL);
        if (t != ATTU_TYPE_DATE && t != ATTU_TYPE_TIMESTAMP && t != ATTU_TYPE_TIMESTAMPTZ) return attu_no_function(c, e, args, n);
        bool d = t == ATTU_TYPE_DATE;
        attu_bexpr *hi = mk_const_int(c, args[0]->type, d ? INT32_MAX : INT64_MAX);
        attu_bexpr *lo = mk_const_int(c, args[0]->type, d ? INT32_MIN : INT64_MIN);
        attu_bexpr *a = hi ? mk_call(c, ATTU_OP_NE_I, b, e->position, 2, args[0], hi, NULL, NULL) : NULL;
        attu_bexpr *z = lo ? mk_call(c, ATTU_OP_NE_I, b, e->position, 2, args[0], lo, NULL, NULL) : NULL;
        return a && z ? mk_call(c, ATTU_OP_AND, b, e->position, 2, a, z, NULL, NULL) : NULL;
    }
    if ((!strcmp(name, "num_nulls") || !strcmp(name, "num_nonnulls")) && n >= 1 && !e->u.func.star && !e->u.func.distinct &&
        !e->u.func.variadic) {
        /* num_nulls(a, ...) / num_nonnulls(a, ...): how many arguments
         * are NULL / not, an integer */
        attu_type i4 = attu_type_make(ATTU_TYPE_INT32), b = attu_type_make(ATTU_TYPE_BOOL);
        bool nulls = !strcmp(name, "num_nulls");
        attu_bexpr *sum = NULL;
        for (int i = 0; i < n; i++) {
            attu_bexpr *t = mk_call(c, nulls ? ATTU_OP_IS_NULL : ATTU_OP_IS_NOT_NULL, b, e->position, 1, args[i], NULL, NULL, NULL);
            attu_bexpr *k = t ? coerce(c, t, i4, true, e->position) : NULL;
            if (!k) return NULL;
            sum = sum ? mk_call(c, ATTU_OP_ADD_I, i4, e->position, 2, sum, k, NULL, NULL) : k;
            if (!sum) return NULL;
        }
        return sum;
    }
    if (!fn || n < fn->minargs || n > fn->maxargs || e->u.func.star || e->u.func.distinct) return attu_no_function(c, e, args, n);
    /* json and jsonb have no implicit cast to text: the text functions do
     * not take them (length(jsonb) is 42883, as PostgreSQL) */
    if (fn->kind == 't')
        for (int i = 0; i < n; i++)
            if (attu_type_is_typed_text(args[i]->type)) return attu_no_function(c, e, args, n);
    int pos = e->position;
    if (fn->op >= ATTU_OP_REGEXP_REPLACE && fn->op <= ATTU_OP_REGEXP_SUBSTR) return bind_regexp(c, e, fn->op, args, n, pos);
    if (fn->op >= ATTU_OP_TO_CHAR_TS && fn->op <= ATTU_OP_TO_TIMESTAMP) return bind_formatting(c, e, fn->op, args, n, pos);
    if (fn->op == ATTU_OP_SUBSTR && n == 2 && !strcmp(name, "substring") &&
        (args[1]->type.id == ATTU_TYPE_TEXT || args[1]->type.id == ATTU_TYPE_UNKNOWN))
        /* substring(s FROM pattern), the POSIX regular-expression form
         * (PostgreSQL resolves an untyped second argument to it too) */
        return bind_regexp(c, e, ATTU_OP_REGEXP_SUBSTRING, args, n, pos);
    if (fn->op == ATTU_OP_SUBSTR && n == 3 && !strcmp(name, "substring") &&
        (args[1]->type.id == ATTU_TYPE_TEXT || args[1]->type.id == ATTU_TYPE_UNKNOWN) &&
        (args[2]->type.id == ATTU_TYPE_TEXT || args[2]->type.id == ATTU_TYPE_UNKNOWN)) {
        /* substring(s, pattern, escape) is SQL's SIMILAR form (PostgreSQL
         * resolves untyped literals to it too), not positions
         * (engine/regexp_functions.c) */
        attu_type txt = attu_type_make(ATTU_TYPE_TEXT);
        for (int i = 0; i < 3; i++)
            if (!(args[i] = coerce(c, args[i], txt, false, pos))) return NULL;
        return mk_call(c, ATTU_OP_SIMILAR_SUBSTRING, txt, pos, 3, args[0], args[1], args[2], NULL);
    }
    attu_type f8 = attu_type_make(ATTU_TYPE_FLOAT64), txt = attu_type_make(ATTU_TYPE_TEXT), i4 = attu_type_make(ATTU_TYPE_INT32);
    if (fn->op == ATTU_OP_POWER && n == 2 && is_numeric(args[0]->type.id) && is_numeric(args[1]->type.id) &&
        attu_type_mclass(args[0]->type.id) != ATTU_MC_FLOAT && attu_type_mclass(args[1]->type.id) != ATTU_MC_FLOAT &&
        (args[0]->type.id == ATTU_TYPE_DECIMAL || args[0]->type.id == ATTU_TYPE_NUMERIC ||
         args[1]->type.id == ATTU_TYPE_DECIMAL || args[1]->type.id == ATTU_TYPE_NUMERIC)) {
        /* power(numeric, numeric), as x ^ y */
        attu_type nt = attu_type_make(ATTU_TYPE_NUMERIC);
        if (!(args[0] = coerce(c, args[0], nt, false, pos)) || !(args[1] = coerce(c, args[1], nt, false, pos))) return NULL;
        return mk_call(c, ATTU_OP_POWER_N, nt, pos, 2, args[0], args[1], NULL, NULL);
    }
    if (fn->op == ATTU_OP_LOG10 && n == 2 && attu_type_mclass(args[0]->type.id) != ATTU_MC_FLOAT &&
        attu_type_mclass(args[1]->type.id) != ATTU_MC_FLOAT && is_numeric(args[0]->type.id) && is_numeric(args[1]->type.id)) {
        /* PostgreSQL has log(numeric, numeric) only: exact arguments give
         * a numeric with log_var's scale */
        attu_type nt = attu_type_make(ATTU_TYPE_NUMERIC);
        if (!(args[0] = coerce(c, args[0], nt, false, pos)) || !(args[1] = coerce(c, args[1], nt, false, pos))) return NULL;
        return mk_call(c, ATTU_OP_LOG_N, nt, pos, 2, args[0], args[1], NULL, NULL);
    }
    if (n == 1 && (fn->op == ATTU_OP_SQRT || fn->op == ATTU_OP_LN || fn->op == ATTU_OP_LOG10 || fn->op == ATTU_OP_EXP ||
                   fn->op == ATTU_OP_SIGN_F) &&
        (args[0]->type.id == ATTU_TYPE_DECIMAL || args[0]->type.id == ATTU_TYPE_NUMERIC)) {
        /* PostgreSQL's sqrt(numeric), ln(numeric), log(numeric),
         * log10(numeric), exp(numeric) and sign(numeric): numeric results
         * with their own scale rules */
        attu_type nt = attu_type_make(ATTU_TYPE_NUMERIC);
        if (!(args[0] = coerce(c, args[0], nt, false, pos))) return NULL;
        attu_opcode op = fn->op == ATTU_OP_SQRT ? ATTU_OP_SQRT_N : fn->op == ATTU_OP_LN ? ATTU_OP_LN_N
                       : fn->op == ATTU_OP_EXP ? ATTU_OP_EXP_N : fn->op == ATTU_OP_SIGN_F ? ATTU_OP_SIGN_N
                       : ATTU_OP_LOG10_N;
        return mk_call(c, op, nt, pos, 1, args[0], NULL, NULL, NULL);
    }
    if (fn->kind == 'f') {
        for (int i = 0; i < n; i++) {
            if (!is_numeric(args[i]->type.id) && args[i]->type.id != ATTU_TYPE_UNKNOWN) return attu_no_function(c, e, args, n);
            if (!(args[i] = coerce(c, args[i], f8, false, pos))) return NULL;
        }
        if (fn->op == ATTU_OP_LOG10 && n == 2) {   /* log(b, x) = ln(x) / ln(b) */
            attu_bexpr *lx = mk_call(c, ATTU_OP_LN, f8, pos, 1, args[1], NULL, NULL, NULL);
            attu_bexpr *lb = mk_call(c, ATTU_OP_LN, f8, pos, 1, args[0], NULL, NULL, NULL);
            return mk_call(c, ATTU_OP_DIV_F, f8, pos, 2, lx, lb, NULL, NULL);
        }
        return mk_call(c, fn->op, f8, pos, n, args[0], args[1], args[2], args[3]);
    }
    if (fn->kind == 't') {
        if (args[0]->type.id != ATTU_TYPE_TEXT && args[0]->type.id != ATTU_TYPE_UNKNOWN) return attu_no_function(c, e, args, n);
        /* PostgreSQL's octet_length(bpchar) counts the padding; every other
         * text function takes a char(n) as text, without it */
        if (fn->op == ATTU_OP_OCTET_LENGTH && !(args[0] = bpchar_padded(c, args[0], pos))) return NULL;
        if (!(args[0] = coerce(c, args[0], txt, false, pos))) return NULL;
        attu_type rt = txt;
        switch (fn->op) {
        case ATTU_OP_LENGTH: case ATTU_OP_OCTET_LENGTH: case ATTU_OP_ASCII: case ATTU_OP_BIT_LENGTH: rt = i4; break;
        case ATTU_OP_PG_SIZE_BYTES: rt = attu_type_make(ATTU_TYPE_INT64); break;
        case ATTU_OP_OVERLAY:
            /* overlay(text, text, integer [, integer]): a smallint or an
             * untyped literal casts to integer implicitly, a bigint does
             * not (PostgreSQL has no overlay of bigint positions) */
            if (args[1]->type.id != ATTU_TYPE_TEXT && args[1]->type.id != ATTU_TYPE_UNKNOWN) return attu_no_function(c, e, args, n);
            if (!(args[1] = coerce(c, args[1], txt, false, pos))) return NULL;
            for (int i = 2; i < n; i++) {
                attu_type_id t = args[i]->type.id;
                if (!int4_argument(t)) return attu_no_function(c, e, args, n);
                if (!(args[i] = coerce(c, args[i], i4, false, pos))) return NULL;
            }
            break;
        case ATTU_OP_LPAD: case ATTU_OP_RPAD: case ATTU_OP_SPLIT_PART:
            for (int i = 1; i < n; i++) {
                bool want_int = (fn->op == ATTU_OP_SPLIT_PART) ? i == 2 : i == 1;
                if (want_int && !int4_argument(args[i]->type.id)) return attu_no_function(c, e, args, n);
                if (!(args[i] = want_int ? int4_arg_as_int8(c, args[i], pos) : coerce(c, args[i], txt, false, pos))) return NULL;
            }
            break;
        case ATTU_OP_STARTS_WITH: rt = attu_type_make(ATTU_TYPE_BOOL);
            if (!(args[1] = coerce(c, args[1], txt, false, pos))) return NULL;
            break;
        case ATTU_OP_SUBSTR: case ATTU_OP_LEFT: case ATTU_OP_RIGHT: case ATTU_OP_REPEAT:
            for (int i = 1; i < n; i++) {
                if (!int4_argument(args[i]->type.id)) return attu_no_function(c, e, args, n);
                if (!(args[i] = int4_arg_as_int8(c, args[i], pos))) return NULL;
            }
            break;
        case ATTU_OP_STRPOS: rt = i4; /* fallthrough */
        default:
            for (int i = 1; i < n; i++) {
                if (args[i]->type.id != ATTU_TYPE_TEXT && args[i]->type.id != ATTU_TYPE_UNKNOWN) return attu_no_function(c, e, args, n);
                if (!(args[i] = coerce(c, args[i], txt, false, pos))) return NULL;
            }
        }
        return mk_call(c, fn->op, rt, pos, n, args[0], args[1], args[2], args[3]);
    }
    /* specials */
    if (fn->op == ATTU_OP_DIV_TRUNC_N) {
        /* PostgreSQL has div(numeric, numeric) only: integers and untyped
         * literals cast to numeric implicitly (div(7, 2) is the numeric 3),
         * floats do not (42883), and the result is numeric with scale 0 */
        attu_type nt = attu_type_make(ATTU_TYPE_NUMERIC);
        for (int i = 0; i < 2; i++) {
            attu_type_id t = args[i]->type.id;
            if (!attu_type_is_int(t) && t != ATTU_TYPE_DECIMAL && t != ATTU_TYPE_NUMERIC && t != ATTU_TYPE_UNKNOWN)
                return attu_no_function(c, e, args, n);
        }
        for (int i = 0; i < 2; i++)
            if (!(args[i] = coerce(c, args[i], nt, false, pos))) return NULL;
        return mk_call(c, ATTU_OP_DIV_TRUNC_N, nt, pos, 2, args[0], args[1], NULL, NULL);
    }
    if (fn->op == ATTU_OP_CHR) {
        /* chr(integer) only: a bigint does not cast to integer implicitly */
        attu_type_id t = args[0]->type.id;
        if (!int4_argument(t)) return attu_no_function(c, e, args, n);
        if (!(args[0] = coerce(c, args[0], i4, false, pos))) return NULL;
        return mk_call(c, ATTU_OP_CHR, txt, pos, 1, args[0], NULL, NULL, NULL);
    }
    if (fn->op == ATTU_OP_TO_HEX) {
        /* to_hex(integer) and to_hex(bigint): a smallint or an untyped
         * literal casts to both, which PostgreSQL reports as ambiguous */
        attu_type_id t = args[0]->type.id;
        if (t == ATTU_TYPE_INT16 || t == ATTU_TYPE_UNKNOWN) {
            char tb[64];
            attu_error_set(c->err, "42725", pos, "function to_hex(%s) is not unique", tname(args[0]->type, tb));
            attu_error_set_hint(c->err, "Could not choose a best candidate function. You might need to add explicit type casts.");
            return NULL;
        }
        if (t != ATTU_TYPE_INT32 && t != ATTU_TYPE_INT64) return attu_no_function(c, e, args, n);
        attu_bexpr *x = mk_call(c, ATTU_OP_TO_HEX, txt, pos, 1, args[0], NULL, NULL, NULL);
        if (x) x->aux = t == ATTU_TYPE_INT32 ? 4 : 8;
        return x;
    }
    if (!strcmp(name, "abs")) {
        attu_bexpr *a = args[0];
        if (a->type.id == ATTU_TYPE_UNKNOWN && !(a = coerce(c, a, f8, false, pos))) return NULL;
        if (!is_numeric(a->type.id)) return attu_no_function(c, e, args, n);
        attu_mclass mc = attu_type_mclass(a->type.id);
        return mk_call(c, mc == ATTU_MC_FLOAT ? ATTU_OP_ABS_F : a->type.id == ATTU_TYPE_DECIMAL ? ATTU_OP_ABS_D
                          : a->type.id == ATTU_TYPE_NUMERIC ? ATTU_OP_ABS_N : ATTU_OP_ABS_I,
                       a->type, pos, 1, a, NULL, NULL, NULL);
    }
    if (!strcmp(name, "round") || !strcmp(name, "floor") || !strcmp(name, "ceil") || !strcmp(name, "ceiling") || !strcmp(name, "trunc")) {
        attu_bexpr *a = args[0];
        /* unknown: round(x) and trunc(x) resolve to the double precision
         * ones, round(x, d) and trunc(x, d) to the only ones, numeric's */
        if (a->type.id == ATTU_TYPE_UNKNOWN && !(a = coerce(c, a, n == 2 ? attu_type_make(ATTU_TYPE_NUMERIC) : f8, false, pos)))
            return NULL;
        if (!is_numeric(a->type.id)) return attu_no_function(c, e, args, n);
        bool isround = name[0] == 'r';
        /* round(bigint, d): 19 integer digits do not fit a DECIMAL */
        if (n == 2 && a->type.id == ATTU_TYPE_INT64 && !(a = coerce(c, a, attu_type_make(ATTU_TYPE_NUMERIC), false, pos)))
            return NULL;
        if (a->type.id == ATTU_TYPE_NUMERIC) {
            /* each value keeps max(d, 0) places (round, trunc) or none */
            attu_bexpr *d = NULL;
            if (n == 2 && !(d = coerce(c, args[1], i4, false, pos))) return NULL;
            attu_opcode op = isround ? ATTU_OP_ROUND_N : name[0] == 't' ? ATTU_OP_TRUNC_N
                           : name[0] == 'f' ? ATTU_OP_FLOOR_N : ATTU_OP_CEIL_N;
            return mk_call(c, op, a->type, pos, d ? 2 : 1, a, d, NULL, NULL);
        }
        if (n == 2 || a->type.id == ATTU_TYPE_DECIMAL) {
            /* numeric: round(x, d) and trunc(x, d) keep d digits after the
             * point (d < 0 rounds to tens, hundreds...). PostgreSQL's
             * result has scale max(d, 0); attu's DECIMAL holds 18 digits
             * in all, so a scale the integer digits the input can have
             * leave no room for is computed as NUMERIC (36 digits), and
             * only past that capped (the value is exact, only the trailing
             * zeros are fewer; docs/sql-functions.md). */
            int intd = numeric_int_digits(a);
            if (n == 2 && a->type.id != ATTU_TYPE_DECIMAL) {
                if (attu_type_mclass(a->type.id) == ATTU_MC_FLOAT) return attu_no_function(c, e, args, n);
                if (!(a = coerce(c, a, attu_type_decimal(18, 0), false, pos))) return NULL;
            }
            int digits = 0;
            attu_bexpr *d = NULL;
            if (n == 2) {
                d = coerce(c, args[1], i4, false, pos);
                if (!d) return NULL;
                if (d->kind == BX_CONST && !d->is_null) digits = (int)d->i;
                else digits = a->type.scale;
            }
            int maxsc = 18 - intd < 0 ? 0 : 18 - intd;
            if (maxsc < a->type.scale) maxsc = a->type.scale;
            if (d && (d->kind != BX_CONST ||
                      (!d->is_null && digits > maxsc && digits <= ATTU_NUMERIC_MAX_DIGITS - intd))) {
                /* more places than a DECIMAL leaves beside the integer
                 * digits, or a d that varies by row (each value shows its
                 * own max(d, 0) places): NUMERIC, whose every value
                 * carries its own scale, holds PostgreSQL's result up to
                 * 36 digits in all */
                attu_type nt = attu_type_make(ATTU_TYPE_NUMERIC);
                if (!(a = coerce(c, a, nt, false, pos))) return NULL;
                return mk_call(c, isround ? ATTU_OP_ROUND_N : ATTU_OP_TRUNC_N, nt, pos, 2, a, d, NULL, NULL);
            }
            int sc2 = digits < 0 ? 0 : digits > maxsc ? maxsc : digits;
            /* The result's precision counts the integer digits it can
             * have (one more where rounding up carries: round(99.5) is
             * 100), not 18: an outer round / trunc sizes its cap from it,
             * and round(round(d, 0), 1) of a DECIMAL(12,2) must keep its
             * one place (13855.0, as PostgreSQL), which a precision of 18
             * (no room for any place) dropped. */
            int carry = name[0] == 't' ? 0 : 1;
            attu_type rt = attu_type_decimal(intd + carry + sc2 > 18 ? 18 : intd + carry + sc2, sc2);
            attu_opcode op = isround ? ATTU_OP_ROUND_D : name[0] == 't' ? ATTU_OP_TRUNC_D : (name[0] == 'f' ? ATTU_OP_FLOOR_D : ATTU_OP_CEIL_D);
            if (!isround && name[0] != 't') rt = attu_type_decimal(intd + 1 > 18 ? 18 : intd + 1, 0);
            return mk_call(c, op, rt, pos, d ? 2 : 1, a, d, NULL, NULL);
        }
        if (!(a = coerce(c, a, f8, false, pos))) return NULL;
        attu_opcode op = isround ? ATTU_OP_ROUND_F : name[0] == 'f' ? ATTU_OP_FLOOR_F : name[0] == 't' ? ATTU_OP_TRUNC_F : ATTU_OP_CEIL_F;
        return mk_call(c, op, f8, pos, 1, a, NULL, NULL, NULL);
    }
    if (!strcmp(name, "mod")) {
        attu_ast_expr fake;
        memset(&fake, 0, sizeof fake);
        (void)fake;
        attu_type t;
        if (!is_numeric(args[0]->type.id) && args[0]->type.id != ATTU_TYPE_UNKNOWN) return attu_no_function(c, e, args, n);
        if (!is_numeric(args[1]->type.id) && args[1]->type.id != ATTU_TYPE_UNKNOWN) return attu_no_function(c, e, args, n);
        if (!common_type(args[0]->type, args[1]->type, &t) || attu_type_mclass(t.id) == ATTU_MC_FLOAT) return attu_no_function(c, e, args, n);
        if (t.id == ATTU_TYPE_UNKNOWN || t.id == ATTU_TYPE_TEXT) t = i4;
        if (!(args[0] = coerce(c, args[0], t, false, pos)) || !(args[1] = coerce(c, args[1], t, false, pos))) return NULL;
        return mk_call(c, t.id == ATTU_TYPE_DECIMAL ? ATTU_OP_MOD_D : t.id == ATTU_TYPE_NUMERIC ? ATTU_OP_MOD_N : ATTU_OP_MOD_I,
                       t, pos, 2, args[0], args[1], NULL, NULL);
    }
    if (fn->op == ATTU_OP_MAKE_DATE || fn->op == ATTU_OP_MAKE_TIMESTAMP) {
        /* make_date(int, int, int), make_timestamp(int, int, int, int, int,
         * double precision): smallint and untyped literals cast to integer
         * implicitly, bigint does not (PostgreSQL has no such variant);
         * any number casts to double precision */
        bool ts = fn->op == ATTU_OP_MAKE_TIMESTAMP;
        for (int i = 0; i < n; i++) {
            attu_type_id t = args[i]->type.id;
            bool is_sec = ts && i == 5;
            if (is_sec ? !(is_numeric(t) || t == ATTU_TYPE_UNKNOWN) : !int4_argument(t))
                return attu_no_function(c, e, args, n);
            if (!(args[i] = coerce(c, args[i], is_sec ? f8 : i4, false, pos))) return NULL;
        }
        if (!ts) return mk_call(c, ATTU_OP_MAKE_DATE, attu_type_make(ATTU_TYPE_DATE), pos, 3, args[0], args[1], args[2], NULL);
        attu_bexpr *md = pack_int_pair(c, args[1], args[2], pos), *hm = pack_int_pair(c, args[3], args[4], pos);
        if (!md || !hm) return NULL;
        return mk_call(c, ATTU_OP_MAKE_TIMESTAMP, attu_type_make(ATTU_TYPE_TIMESTAMP), pos, 4, args[0], md, hm, args[5]);
    }
    if (fn->op == ATTU_OP_JUSTIFY || fn->op == ATTU_OP_AGE || fn->op == ATTU_OP_MAKE_INTERVAL) {
        /* justify_*(interval), age(timestamp, timestamp) and
         * make_interval(years, months, weeks, days, hours, mins integer,
         * secs double precision), trailing arguments 0, as PostgreSQL 15 */
        attu_type iv = attu_type_make(ATTU_TYPE_INTERVAL), ts = attu_type_make(ATTU_TYPE_TIMESTAMP);
        if (fn->op == ATTU_OP_JUSTIFY) {
            if (args[0]->type.id != ATTU_TYPE_INTERVAL && args[0]->type.id != ATTU_TYPE_UNKNOWN) return attu_no_function(c, e, args, n);
            if (!(args[0] = coerce(c, args[0], iv, false, pos))) return NULL;
            attu_bexpr *x = mk_call(c, ATTU_OP_JUSTIFY, iv, pos, 1, args[0], NULL, NULL, NULL);
            if (x) x->aux = !strcmp(name, "justify_days") ? 1 : !strcmp(name, "justify_hours") ? 2 : 3;
            return x;
        }
        if (fn->op == ATTU_OP_AGE) {
            if (n == 1) {
                /* age(x) = age(current_date, x): the midnight of the
                 * transaction's day in the session's zone, read once when
                 * the statement is bound */
                int64_t now = attu_tz_txn_start();
                if (!now) now = (int64_t)time(NULL) * 1000000;
                now = attu_tz_to_local_us(attu_tz_session(), now) / 1000000;
                int64_t day = now / 86400 - (now % 86400 < 0);
                args[1] = args[0];
                if (!(args[0] = mk_const_int(c, ts, day * 86400000000LL))) return NULL;
                n = 2;
            }
            for (int i = 0; i < 2; i++) {
                attu_type_id t = args[i]->type.id;
                /* age(timestamptz, timestamptz) counts on the session's wall clock */
                if (t == ATTU_TYPE_TIMESTAMPTZ) {
                    if (!(args[i] = tz_call(c, ATTU_OP_TZ_TO_LOCAL, ts, pos, args[i], NULL))) return NULL;
                    t = ATTU_TYPE_TIMESTAMP;
                }
                if (t != ATTU_TYPE_TIMESTAMP && t != ATTU_TYPE_DATE && t != ATTU_TYPE_UNKNOWN) return attu_no_function(c, e, args, n);
                if (!(args[i] = coerce(c, args[i], ts, false, pos))) return NULL;
            }
            return mk_call(c, ATTU_OP_AGE, iv, pos, 2, args[0], args[1], NULL, NULL);
        }
        attu_bexpr *a[7];
        for (int i = 0; i < 7; i++) {
            if (i >= n) {
                attu_bexpr *z = i == 6 ? attu_bx_new(c->pa, BX_CONST, f8, pos) : mk_const_int(c, i4, 0);
                if (!z) { attu_error_oom(c->err); return NULL; }
                a[i] = z;
                continue;
            }
            attu_type_id t = args[i]->type.id;
            if (i == 6 ? !(is_numeric(t) || t == ATTU_TYPE_UNKNOWN) : !int4_argument(t) && t != ATTU_TYPE_INT32)
                return attu_no_function(c, e, args, n);
            if (!(a[i] = coerce(c, args[i], i == 6 ? f8 : i4, false, pos))) return NULL;
        }
        attu_bexpr *ym = pack_int_pair(c, a[0], a[1], pos), *wd = pack_int_pair(c, a[2], a[3], pos),
                   *hm = pack_int_pair(c, a[4], a[5], pos);
        if (!ym || !wd || !hm) return NULL;
        return mk_call(c, ATTU_OP_MAKE_INTERVAL, iv, pos, 4, ym, wd, hm, a[6]);
    }
    if (!strcmp(name, "date_part") && args[1]->type.id == ATTU_TYPE_INTERVAL) {
        if (args[0]->type.id != ATTU_TYPE_UNKNOWN && args[0]->type.id != ATTU_TYPE_TEXT) return attu_no_function(c, e, args, n);
        if (args[0]->kind != BX_CONST || (!args[0]->s && !args[0]->is_null)) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "the unit of date_part must be a constant");
            return NULL;
        }
        if (args[0]->is_null) return mk_const_null(c, f8);
        return bind_extract(c, args[0]->s, args[1], true, pos);
    }
    if (!strcmp(name, "date_trunc") && args[1]->type.id == ATTU_TYPE_INTERVAL) {
        attu_type iv = attu_type_make(ATTU_TYPE_INTERVAL);
        if (args[0]->type.id != ATTU_TYPE_UNKNOWN && args[0]->type.id != ATTU_TYPE_TEXT) return attu_no_function(c, e, args, n);
        if (args[0]->kind != BX_CONST || (!args[0]->s && !args[0]->is_null)) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "the unit of date_trunc must be a constant");
            return NULL;
        }
        if (args[0]->is_null) return mk_const_null(c, iv);
        int f = interval_unit(c, args[0]->s, true, pos);
        if (f < 0) return NULL;
        attu_bexpr *x = mk_call(c, ATTU_OP_TRUNC_IV, iv, pos, 1, args[1], NULL, NULL, NULL);
        if (x) x->imm = f;
        return x;
    }
    /* date_part and date_trunc of an undeclared parameter: timestamp,
     * timestamptz, interval (and date_part's date) are all candidates */
    if ((!strcmp(name, "date_part") || !strcmp(name, "date_trunc")) && n == 2 && is_untyped_param(args[1]))
        return attu_param_not_unique(c, name, args, n, pos);
    /* their unit is text: a parameter there is a text (a constant when
     * the statement runs with its value) */
    if ((!strcmp(name, "date_part") || !strcmp(name, "date_trunc")) && n == 2 && is_untyped_param(args[0]) &&
        !(args[0] = coerce(c, args[0], attu_type_make(ATTU_TYPE_TEXT), false, pos)))
        return NULL;
    if (!strcmp(name, "date_part")) {
        /* date_part('unit', date or timestamp) -> double precision; the
         * unit must be a constant here (PostgreSQL allows any text) */
        if ((args[0]->type.id != ATTU_TYPE_UNKNOWN && args[0]->type.id != ATTU_TYPE_TEXT) ||
            (args[1]->type.id != ATTU_TYPE_UNKNOWN && args[1]->type.id != ATTU_TYPE_DATE && args[1]->type.id != ATTU_TYPE_TIMESTAMP &&
             args[1]->type.id != ATTU_TYPE_TIMESTAMPTZ && args[1]->type.id != ATTU_TYPE_TIME &&
             args[1]->type.id != ATTU_TYPE_TIMETZ))
            return attu_no_function(c, e, args, n);
        if (args[0]->kind != BX_CONST || (!args[0]->s && !args[0]->is_null)) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "the unit of date_part must be a constant");
            return NULL;
        }
        if (args[0]->is_null) return mk_const_null(c, f8);
        return bind_extract(c, args[0]->s, args[1], true, pos);
    }
    if (!strcmp(name, "date_trunc")) {
        /* date_trunc('unit', timestamp) -> timestamp; the unit must be a
         * constant here (PostgreSQL allows any text). Unit names as
         * EXTRACT's (datetime_unit), fields that are no unit of time
         * (dow, epoch...) 22023, the time zone units 0A000. */
        attu_type ts = attu_type_make(ATTU_TYPE_TIMESTAMP);
        attu_bexpr *a = args[1];
        if (a->type.id == ATTU_TYPE_UNKNOWN && !(a->kind == BX_CONST && a->aux > 0)) {
            /* timestamp, timestamptz and interval all take it (PostgreSQL 15) */
            attu_error_set(c->err, "42725", e->position, "function date_trunc(%s, unknown) is not unique",
                           args[0]->type.id == ATTU_TYPE_TEXT ? "text" : "unknown");
            attu_error_set_hint(c->err, "Could not choose a best candidate function. You might need to add explicit type casts.");
            return NULL;
        }
        if (a->type.id == ATTU_TYPE_UNKNOWN || a->type.id == ATTU_TYPE_DATE || a->type.id == ATTU_TYPE_TIMESTAMPTZ) {
            /* a date or an untyped literal is read as timestamptz, the
             * preferred type of PostgreSQL's candidates */
            attu_type tz = attu_type_make(ATTU_TYPE_TIMESTAMPTZ);
            if ((args[0]->type.id != ATTU_TYPE_UNKNOWN && args[0]->type.id != ATTU_TYPE_TEXT)) return attu_no_function(c, e, args, n);
            if (args[0]->kind != BX_CONST || (!args[0]->s && !args[0]->is_null)) {
                attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "the unit of date_trunc must be a constant");
                return NULL;
            }
            if (!(a = coerce(c, a, tz, false, pos))) return NULL;
            if (args[0]->is_null) return mk_const_null(c, tz);
            return attu_bind_tz_trunc(c, args[0]->s, a, pos);
        }
        if ((args[0]->type.id != ATTU_TYPE_UNKNOWN && args[0]->type.id != ATTU_TYPE_TEXT) || a->type.id != ATTU_TYPE_TIMESTAMP)
            return attu_no_function(c, e, args, n);
        if (args[0]->kind != BX_CONST || (!args[0]->s && !args[0]->is_null)) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "the unit of date_trunc must be a constant");
            return NULL;
        }
        if (args[0]->is_null) return mk_const_null(c, ts);
        char unit[64];
        size_t ul = 0;
        for (const char *q = args[0]->s; *q && ul + 1 < sizeof unit; q++)
            unit[ul++] = (char)(*q >= 'A' && *q <= 'Z' ? *q + 32 : *q);
        unit[ul] = 0;
        int f = datetime_unit(args[0]->s);
        if (f == -2) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos,
                           "unit \"%s\" not supported for type timestamp without time zone", unit);
            return NULL;
        }
        if (f < 0 || f == ATTU_EXTRACT_DOW || f == ATTU_EXTRACT_DOY || f == ATTU_EXTRACT_EPOCH ||
            f == ATTU_EXTRACT_ISOYEAR || f == ATTU_EXTRACT_ISODOW || f == ATTU_EXTRACT_JULIAN) {
            attu_error_set(c->err, ATTU_SQLSTATE_INVALID_PARAMETER, pos,
                           "unit \"%s\" not recognized for type timestamp without time zone", unit);
            return NULL;
        }
        attu_bexpr *x = mk_call(c, ATTU_OP_DATE_TRUNC, ts, pos, 1, a, NULL, NULL, NULL);
        if (x) x->imm = f;
        return x;
    }
    if (!strcmp(name, "concat_ws")) {
        /* the separator is text (concat_ws(text, VARIADIC "any")) */
        attu_bexpr *sep = resolve_unknown(c, args[0]);
        sep = sep ? concat_arg(c, sep, pos) : NULL;
        if (!sep) return NULL;
        /* NULL arguments are skipped: sep goes between non-NULL ones */
        attu_bexpr *acc = NULL;
        attu_type bt = attu_type_make(ATTU_TYPE_BOOL);
        for (int i = 1; i < n; i++) {
            attu_bexpr *a = concat_arg(c, args[i], pos);
            if (!a) return NULL;
            if (!acc) { acc = a; continue; }
            /* acc' = acc || sep || a, or whichever of acc, a is not NULL */
            attu_bexpr *joined = mk_call(c, ATTU_OP_CONCAT, txt, pos, 2, mk_call(c, ATTU_OP_CONCAT, txt, pos, 2, acc, sep, NULL, NULL), a, NULL, NULL);
            acc = mk_call(c, ATTU_OP_COALESCE, txt, pos, 2, joined, mk_call(c, ATTU_OP_COALESCE, txt, pos, 2, acc, a, NULL, NULL), NULL, NULL);
        }
        (void)bt;
        if (!acc) { acc = attu_bx_new(c->pa, BX_CONST, txt, pos); acc->s = ""; }
        attu_bexpr *empty = attu_bx_new(c->pa, BX_CONST, txt, pos);
        empty->s = ""; empty->slen = 0;
        acc = mk_call(c, ATTU_OP_COALESCE, txt, pos, 2, acc, empty, NULL, NULL);
        /* a NULL separator makes the whole result NULL (PostgreSQL) */
        if (sep->kind == BX_CONST && !sep->is_null) return acc;
        return mk_call(c, ATTU_OP_SELECT, txt, pos, 3, acc, mk_const_null(c, txt),
                       mk_call(c, ATTU_OP_IS_NOT_NULL, attu_type_make(ATTU_TYPE_BOOL), pos, 1, sep, NULL, NULL, NULL), NULL);
    }
    if (!strcmp(name, "concat")) {
        attu_bexpr *acc = NULL;
        for (int i = 0; i < n; i++) {
            attu_bexpr *a = concat_arg(c, args[i], pos);
            if (!a) return NULL;
            /* concat() treats NULL as '' */
            attu_bexpr *empty = attu_bx_new(c->pa, BX_CONST, txt, pos);
            empty->s = ""; empty->slen = 0;
            a = mk_call(c, ATTU_OP_COALESCE, txt, pos, 2, a, empty, NULL, NULL);
            acc = acc ? mk_call(c, ATTU_OP_CONCAT, txt, pos, 2, acc, a, NULL, NULL) : a;
        }
        return acc;
    }
    /* coalesce / nullif / greatest / least: a common type */
    attu_type t = attu_type_make(ATTU_TYPE_UNKNOWN);
    for (int i = 0; i < n; i++) {
        attu_type nt;
        if (!(strcmp(name, "nullif") ? mix_type : common_type)(t, args[i]->type, &nt)) {
            char b1[64], b2[64];
            if (!strcmp(name, "nullif")) {   /* PostgreSQL resolves NULLIF as an = operator */
                attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "operator does not exist: %s = %s",
                               tname(t, b1), tname(args[i]->type, b2));
                return NULL;
            }
            return mix_type_error(c, !strcmp(name, "coalesce") ? "COALESCE" : !strcmp(name, "greatest") ? "GREATEST" : "LEAST",
                                  t, args[i]->type, args[i]->position ? args[i]->position : pos);
        }
        if (args[i]->type.id != ATTU_TYPE_UNKNOWN || t.id != ATTU_TYPE_UNKNOWN) t = nt;
    }
    if (t.id == ATTU_TYPE_UNKNOWN) t = txt;
    if (strcmp(name, "nullif") != 0) for (int i = 0; i < n; i++) t = mix_numeric_literal(mix_bpchar_literal(t, args[i]), args[i]);
    /* coalesce's NULL arguments leave varchar(n) its length (varchar_type.c) */
    if (strcmp(name, "nullif") != 0) {
        for (int i = 0; i < n; i++)
            if (strcmp(name, "coalesce") != 0 || !(args[i]->kind == BX_CONST && args[i]->is_null && args[i]->aux == 0))
                t = mix_decimal_typmod(mix_varchar_length(t, args[i]), args[i]);
    } else if (!attu_type_is_bpchar_any(args[0]->type) && !attu_type_is_bpchar_any(args[1]->type))
        t = varchar_as_text(t);   /* nullif(v, x) is text: its = is texteq (varchar_type.c) */
    attu_bexpr *first_arg = args[0], *second_arg = n > 1 ? args[1] : NULL;
    for (int i = 0; i < n; i++) if (!(args[i] = coerce(c, args[i], t, false, pos))) return NULL;
    attu_mclass mc = attu_type_mclass(t.id);
    if (!strcmp(name, "nullif") && t.id == ATTU_TYPE_INTERVAL)
        return mk_call(c, ATTU_OP_NULLIF_IV, t, pos, 2, args[0], args[1], NULL, NULL);
    if (attu_type_is_json(t)) {
        /* json has no equality nor order (42883, as PostgreSQL) */
        if (strcmp(name, "coalesce")) {
            attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "could not identify an equality operator for type json");
            return NULL;
        }
    }
    if (!strcmp(name, "nullif") && attu_type_is_jsonb(t)) {
        /* jsonb is equal by value (engine/json.h): NULL where the keys are */
        attu_bexpr *ka = attu_json_key_expr(c, args[0]), *kb = ka ? attu_json_key_expr(c, args[1]) : NULL;
        attu_bexpr *eq = kb ? mk_call(c, ATTU_OP_EQ_S, attu_type_make(ATTU_TYPE_BOOL), pos, 2, ka, kb, NULL, NULL) : NULL;
        attu_bexpr *nl = eq ? mk_const_null(c, t) : NULL;
        return nl ? mk_call(c, ATTU_OP_SELECT, t, pos, 3, nl, args[0], eq, NULL) : NULL;
    }
    if (!strcmp(name, "nullif")) {
        /* PostgreSQL's NULLIF has the type of its first argument as the
         * comparison's operator takes it: an integer beside a DECIMAL is
         * plain numeric (nullif(0, 1.50) prints 0, not 0.00), a DECIMAL
         * keeps its own scale, a real compared with a double stays real */
        attu_type first = first_arg->type;
        if (t.id == ATTU_TYPE_DECIMAL && !(first.id == ATTU_TYPE_DECIMAL && first.scale == t.scale)) {
            t = attu_type_make(ATTU_TYPE_NUMERIC);
            args[0] = first_arg;
            if (!(args[0] = coerce(c, args[0], t, false, pos)) || !(args[1] = coerce(c, second_arg, t, false, pos))) return NULL;
            mc = attu_type_mclass(t.id);
        }
        attu_bexpr *r = mk_call(c, mc == ATTU_MC_FLOAT ? ATTU_OP_NULLIF_F : mc == ATTU_MC_TEXT ? ATTU_OP_NULLIF_S
                                   : t.id == ATTU_TYPE_NUMERIC ? ATTU_OP_NULLIF_N : ATTU_OP_NULLIF_I, t, pos, 2,
                                args[0], args[1], NULL, NULL);
        if (r && first.id == ATTU_TYPE_FLOAT32 && t.id == ATTU_TYPE_FLOAT64) r = coerce(c, r, first, true, pos);
        /* its values are the first argument's: numeric(p,s) stays so */
        if (r && r->type.id == ATTU_TYPE_DECIMAL && first.id == ATTU_TYPE_DECIMAL && r->type.scale == first.scale)
            r->type = first;
        return r;
    }
    if (!strcmp(name, "coalesce")) {
        /* Only the arguments up to the first non-NULL one are evaluated
         * (coalesce(1, 1/0) is 1). A non-NULL constant ends the list, as
         * PostgreSQL's planner cuts it. When a later argument could fail
         * (anything but a column or a constant), the call becomes CASE
         * WHEN a IS NOT NULL THEN a ... ELSE z END, whose branches run
         * guarded; otherwise the cheaper chain of COALESCE instructions. */
        for (int i = 0; i < n - 1; i++) if (args[i]->kind == BX_CONST && !args[i]->is_null) { n = i + 1; break; }
        bool risky = false;
        for (int i = 1; i < n; i++) if (args[i]->kind != BX_COL && args[i]->kind != BX_CONST) risky = true;
        if (!risky || n == 1) {
            attu_bexpr *acc = args[n - 1];
            for (int i = n - 2; i >= 0; i--) acc = mk_call(c, ATTU_OP_COALESCE, t, pos, 2, args[i], acc, NULL, NULL);
            return mix_typmod(acc, t);
        }
        attu_bexpr *cs = attu_bx_new(c->pa, BX_CASE, t, pos);
        if (!cs) { attu_error_oom(c->err); return NULL; }
        cs->nwhens = n - 1;
        cs->whens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n - 1));
        cs->thens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n - 1));
        if (!cs->whens || !cs->thens) { attu_error_oom(c->err); return NULL; }
        for (int i = 0; i < n - 1; i++) {
            cs->whens[i] = mk_call(c, ATTU_OP_IS_NOT_NULL, attu_type_make(ATTU_TYPE_BOOL), pos, 1, args[i], NULL, NULL, NULL);
            cs->thens[i] = args[i];
            if (!cs->whens[i]) return NULL;
        }
        cs->else_ = args[n - 1];
        return cs;   /* (a BX_CASE keeps t as mix_type marked it) */
    }
    /* greatest / least ignore NULLs */
    bool greatest = !strcmp(name, "greatest");
    attu_bexpr *acc = args[0];
    attu_type b = attu_type_make(ATTU_TYPE_BOOL);
    for (int i = 1; i < n; i++) {
        attu_opcode cmp = (attu_opcode)(cmp_opcode_eq(t.id) + (ATTU_OP_GT_I - ATTU_OP_EQ_I) + (greatest ? 0 : -2));
        /* pick b when acc is NULL or b beats acc */
        /* (jsonb compares by its key: engine/json.h) */
        attu_bexpr *better = attu_type_is_jsonb(t)
            ? mk_call(c, cmp, b, pos, 2, attu_json_key_expr(c, args[i]), attu_json_key_expr(c, acc), NULL, NULL)
            : mk_call(c, cmp, b, pos, 2, args[i], acc, NULL, NULL);
        attu_bexpr *accnull = mk_call(c, ATTU_OP_IS_NULL, b, pos, 1, acc, NULL, NULL, NULL);
        attu_bexpr *cond = mk_call(c, ATTU_OP_OR, b, pos, 2, accnull, better, NULL, NULL);
        attu_bexpr *sel = mk_call(c, ATTU_OP_SELECT, t, pos, 3, args[i], acc, cond, NULL);
        acc = mk_call(c, ATTU_OP_COALESCE, t, pos, 2, sel, acc, NULL, NULL);
    }
    return mix_typmod(acc, t);
}
