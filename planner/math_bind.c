/*
 * math_bind.c - binding PostgreSQL 15's gcd, lcm, factorial, width_bucket,
 * random and setseed.
 *
 * Each resolves its arguments as PostgreSQL's function lookup does among
 * its overloads: gcd and lcm have integer, bigint and numeric forms (an
 * exact match on one argument decides; a smallint or untyped literal
 * beside another is 42725, as PostgreSQL cannot choose; a float is 42883),
 * factorial takes a bigint (any integer), width_bucket a double precision
 * or a numeric operand and bounds (numeric where one is a numeric and
 * none a float, else double precision, PostgreSQL's preferred type) and an
 * integer count, or an operand and a thresholds array
 * (planner/array_bind.c), pg_size_pretty a bigint or a numeric (a bigint
 * or a numeric decides; a smallint, integer or untyped literal reads as
 * either, 42725 as in PostgreSQL). The run-time work is engine/math_functions.h's
 * engine/random.h's and engine/size_units.h's, host only.
 *
 * random() is volatile: every call is its own value per row, never folded
 * (planner/rewrite.c) nor shared with another call (logical_plan.c
 * attu_bx_equal). setseed(x) restarts the session's generator while the
 * statement is bound, as pg_sleep sleeps then (session_functions.c), and
 * gives void's empty text; so it is taken where PostgreSQL calls it once,
 * a SELECT without FROM, and refused over rows (0A000), where PostgreSQL
 * would restart the sequence at every row.
 */
#include "planner/binder_internal.h"
#include "engine/random.h"
#include "planner/lower.h"

#include <string.h>

bool attu_math_function_name(const char *name) {
    return !strcmp(name, "gcd") || !strcmp(name, "lcm") || !strcmp(name, "factorial") || !strcmp(name, "width_bucket") ||
           !strcmp(name, "random") || !strcmp(name, "setseed") || !strcmp(name, "scale") || !strcmp(name, "min_scale") ||
           !strcmp(name, "trim_scale") || !strcmp(name, "pg_size_pretty");
}

static bool exact(attu_type_id t) { return attu_type_is_int(t) || t == ATTU_TYPE_DECIMAL || t == ATTU_TYPE_NUMERIC; }

static attu_bexpr *not_unique(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n) {
    return attu_param_not_unique(c, e->u.func.name, args, n, e->position);
}

/* gcd(a, b) / lcm(a, b): int4, int8 or numeric, as PostgreSQL picks */
static attu_bexpr *bind_gcd(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n, bool lcm) {
    if (n != 2) return attu_no_function(c, e, args, n);
    attu_type_id t0 = args[0]->type.id, t1 = args[1]->type.id;
    for (int i = 0; i < 2; i++)
        if (attu_type_is_array(args[i]->type) || (!exact(args[i]->type.id) && args[i]->type.id != ATTU_TYPE_UNKNOWN))
            return attu_no_function(c, e, args, n);
    attu_type_id to;
    if (t0 == ATTU_TYPE_DECIMAL || t0 == ATTU_TYPE_NUMERIC || t1 == ATTU_TYPE_DECIMAL || t1 == ATTU_TYPE_NUMERIC)
        to = ATTU_TYPE_NUMERIC;
    else if (t0 == ATTU_TYPE_INT64 || t1 == ATTU_TYPE_INT64) to = ATTU_TYPE_INT64;
    else if (t0 == ATTU_TYPE_INT32 || t1 == ATTU_TYPE_INT32) to = ATTU_TYPE_INT32;
    else return not_unique(c, e, args, n);   /* smallints and untyped literals only */
    attu_type t = attu_type_make(to);
    for (int i = 0; i < 2; i++)
        if (!(args[i] = coerce(c, args[i], t, false, e->position))) return NULL;
    attu_opcode op = to == ATTU_TYPE_NUMERIC ? (lcm ? ATTU_OP_LCM_N : ATTU_OP_GCD_N) : (lcm ? ATTU_OP_LCM_I : ATTU_OP_GCD_I);
    return mk_call(c, op, t, e->position, 2, args[0], args[1], NULL, NULL);
}

/* scale(x), min_scale(x) (integers) and trim_scale(x) (numeric) of a
 * numeric: an integer or untyped argument reads as one, a float does not
 * (PostgreSQL has no implicit float -> numeric cast) */
static attu_bexpr *bind_scale(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n) {
    if (n != 1 || attu_type_is_array(args[0]->type) || (!exact(args[0]->type.id) && args[0]->type.id != ATTU_TYPE_UNKNOWN))
        return attu_no_function(c, e, args, n);
    attu_type nt = attu_type_make(ATTU_TYPE_NUMERIC);
    attu_bexpr *a = coerce(c, args[0], nt, false, e->position);
    if (!a) return NULL;
    const char *name = e->u.func.name;
    if (!strcmp(name, "trim_scale")) return mk_call(c, ATTU_OP_TRIM_SCALE_N, nt, e->position, 1, a, NULL, NULL, NULL);
    return mk_call(c, name[0] == 's' ? ATTU_OP_SCALE_N : ATTU_OP_MIN_SCALE_N, attu_type_make(ATTU_TYPE_INT32), e->position,
                   1, a, NULL, NULL, NULL);
}

/* pg_size_pretty(bigint) / pg_size_pretty(numeric) */
static attu_bexpr *bind_size_pretty(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n) {
    if (n != 1 || attu_type_is_array(args[0]->type)) return attu_no_function(c, e, args, n);
    attu_type_id t = args[0]->type.id;
    if (t == ATTU_TYPE_INT64)
        return mk_call(c, ATTU_OP_PG_SIZE_PRETTY_I, attu_type_make(ATTU_TYPE_TEXT), e->position, 1, args[0], NULL, NULL, NULL);
    if (t == ATTU_TYPE_INT16 || t == ATTU_TYPE_INT32 || t == ATTU_TYPE_UNKNOWN) return not_unique(c, e, args, n);
    if (t != ATTU_TYPE_NUMERIC && t != ATTU_TYPE_DECIMAL) return attu_no_function(c, e, args, n);
    attu_bexpr *a = coerce(c, args[0], attu_type_make(ATTU_TYPE_NUMERIC), false, e->position);
    return a ? mk_call(c, ATTU_OP_PG_SIZE_PRETTY_N, attu_type_make(ATTU_TYPE_TEXT), e->position, 1, a, NULL, NULL, NULL) : NULL;
}

static attu_bexpr *bind_factorial(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n) {
    if (n != 1 || attu_type_is_array(args[0]->type) || (!attu_type_is_int(args[0]->type.id) && args[0]->type.id != ATTU_TYPE_UNKNOWN))
        return attu_no_function(c, e, args, n);
    attu_bexpr *a = coerce(c, args[0], attu_type_make(ATTU_TYPE_INT64), false, e->position);
    return a ? mk_call(c, ATTU_OP_FACTORIAL, attu_type_make(ATTU_TYPE_NUMERIC), e->position, 1, a, NULL, NULL, NULL) : NULL;
}

/* width_bucket(operand, low, high, count) */
static attu_bexpr *bind_width_bucket(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n) {
    if (n == 2) return attu_array_width_bucket(c, e, args, n);   /* the thresholds form */
    if (n != 4) return attu_no_function(c, e, args, n);
    bool any_numeric = false, any_float = false;
    for (int i = 0; i < 4; i++) {
        attu_type_id t = args[i]->type.id;
        if (attu_type_is_array(args[i]->type)) return attu_no_function(c, e, args, n);
        if (i == 3) {
            /* the count is an integer: a bigint or a numeric does not cast
             * to it implicitly */
            if (t != ATTU_TYPE_INT16 && t != ATTU_TYPE_INT32 && t != ATTU_TYPE_UNKNOWN) return attu_no_function(c, e, args, n);
            continue;
        }
        if (!is_numeric(t) && t != ATTU_TYPE_UNKNOWN) return attu_no_function(c, e, args, n);
        any_numeric |= t == ATTU_TYPE_DECIMAL || t == ATTU_TYPE_NUMERIC;
        any_float |= t == ATTU_TYPE_FLOAT32 || t == ATTU_TYPE_FLOAT64;
    }
    /* a numeric beside a float casts to double precision implicitly */
    if (any_float) any_numeric = false;
    attu_type t = attu_type_make(any_numeric ? ATTU_TYPE_NUMERIC : ATTU_TYPE_FLOAT64), i4 = attu_type_make(ATTU_TYPE_INT32);
    for (int i = 0; i < 4; i++)
        if (!(args[i] = coerce(c, args[i], i == 3 ? i4 : t, false, e->position))) return NULL;
    return mk_call(c, any_numeric ? ATTU_OP_WIDTH_BUCKET_N : ATTU_OP_WIDTH_BUCKET_F, i4, e->position, 4, args[0], args[1],
                   args[2], args[3]);
}

/* Whether e is made of constants alone (a cast of one, arithmetic). */
static bool constant_expr(const attu_bexpr *e) {
    if (!e || e->kind == BX_CONST) return true;
    if (e->kind != BX_CALL && e->kind != BX_CASE) return false;
    for (int i = 0; i < e->nargs; i++) if (!constant_expr(e->args[i])) return false;
    for (int i = 0; i < e->nwhens; i++) if (!constant_expr(e->whens[i]) || !constant_expr(e->thens[i])) return false;
    return constant_expr(e->else_);
}

static attu_bexpr *bind_setseed(bctx *c, const scope *sc, const attu_ast_expr *e, attu_bexpr **args, int n) {
    if (n != 1 || attu_type_is_array(args[0]->type) || (!is_numeric(args[0]->type.id) && args[0]->type.id != ATTU_TYPE_UNKNOWN))
        return attu_no_function(c, e, args, n);
    attu_bexpr *a = coerce(c, args[0], attu_type_make(ATTU_TYPE_FLOAT64), false, e->position);
    if (!a) return NULL;
    if (!constant_expr(a) || (sc && sc->n > 0) || (c->outer && c->outer->n > 0)) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                       "setseed() over the rows of a query is not supported: attu calls it once, with a constant, in a "
                       "SELECT without FROM");
        return NULL;
    }
    /* the argument's value, now (a cast or arithmetic of constants) */
    attu_stage_exprs ex;
    attu_slot v;
    char text[64];
    memset(&ex, 0, sizeof ex);
    int rc = attu_compile_exprs(&a, 1, 0, NULL, &ex, c->err);
    if (!rc) rc = attu_program_eval_const(ex.prog, &v, text, sizeof text, c->err);
    attu_stage_exprs_free(&ex);
    if (rc) return NULL;
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT);
    if (v.null) return mk_const_null(c, txt);   /* strict */
    double seed = v.v.f;
    if (c->params && !c->params->no_side_effects && !c->params->describe_only &&
        attu_random_setseed(attu_random_current(), seed, c->err)) {
        c->err->position = 0;   /* (PostgreSQL's error, raised when it runs, has none) */
        return NULL;
    }
    /* void: an empty text, as pg_sleep's (session_functions.c) */
    attu_bexpr *k = attu_bx_new(c->pa, BX_CONST, txt, e->position);
    if (!k || !(k->s = attu_pstrdup(c->pa, "", 0))) { attu_error_oom(c->err); return NULL; }
    k->slen = 0;
    return k;
}

attu_bexpr *attu_bind_math_call(bctx *c, const scope *sc, const attu_ast_expr *e, attu_bexpr **args, int n) {
    const char *name = e->u.func.name;
    if (e->u.func.star || e->u.func.distinct) return attu_no_function(c, e, args, n);
    if (!strcmp(name, "gcd") || !strcmp(name, "lcm")) return bind_gcd(c, e, args, n, name[0] == 'l');
    if (!strcmp(name, "factorial")) return bind_factorial(c, e, args, n);
    if (!strcmp(name, "scale") || !strcmp(name, "min_scale") || !strcmp(name, "trim_scale")) return bind_scale(c, e, args, n);
    if (!strcmp(name, "width_bucket")) return bind_width_bucket(c, e, args, n);
    if (!strcmp(name, "pg_size_pretty")) return bind_size_pretty(c, e, args, n);
    if (!strcmp(name, "setseed")) return bind_setseed(c, sc, e, args, n);
    /* random() */
    if (n != 0) return attu_no_function(c, e, args, n);
    if (c->seq_cte && c->seq_cte->seq_replay) {
        /* a WITH query read twice is bound and run twice here, where
         * PostgreSQL runs it once: its readings would disagree (as
         * gen_random_uuid's, planner/bytea_bind.c) */
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                       "random() in a WITH query that is read more than once is not supported");
        return NULL;
    }
    return mk_call(c, ATTU_OP_RANDOM, attu_type_make(ATTU_TYPE_FLOAT64), e->position, 0, NULL, NULL, NULL, NULL);
}
