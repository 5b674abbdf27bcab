/*
 * srf.c - binding set-returning functions (generate_series, unnest, the
 * json functions) in FROM and in the select list, as PostgreSQL 15 does.
 *
 * Both places become one logical node, LP_SRF (logical_plan.h): for each
 * row of its input, the rows of its series side by side. In FROM the input
 * is the FROM items before the function when its arguments read them (a
 * function in FROM is lateral in PostgreSQL), else one empty row. In the
 * select list it is the rows the list is computed over (after GROUP BY
 * and windows), as PostgreSQL's ProjectSet: several functions run in
 * lockstep, the shorter series padded with NULLs, and a function nested in
 * another's arguments runs in a node below it (attu_extract_srfs).
 *
 * In FROM an item may hold several functions (ROWS FROM (f(), g()), and
 * unnest(a, b), which PostgreSQL expands so): each adds its series to the
 * one LP_SRF node, which runs them in lockstep, and a projection above
 * reads each function's columns from its series (unnest's elements, the
 * json functions' values, json_to_record's converted keys); WITH
 * ORDINALITY is one more series numbering the rows.
 *
 * The executor (engine/executor_srf.c) counts and produces the series.
 */
#include "planner/binder_internal.h"
#include "engine/timezone.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/interval.h"
#include "engine/numeric.h"
#include "engine/view.h"
#include "planner/lower.h"
#include "planner/system_catalog_internal.h"

#define OOM_NULL(c) do { attu_error_oom((c)->err); return NULL; } while (0)

/* What an argument can be for overload resolution (PostgreSQL's
 * candidates: int4, int8, numeric, timestamp and timestamptz with an
 * interval step). */
typedef enum arg_class {
    AC_INT2, AC_INT4, AC_INT8, AC_NUMERIC, AC_UNKNOWN, AC_TIMESTAMP, AC_TIMESTAMPTZ, AC_DATE, AC_INTERVAL, AC_OTHER
} arg_class;

static arg_class classify(attu_type t) {
    switch (t.id) {
    case ATTU_TYPE_INT16: return AC_INT2;
    case ATTU_TYPE_INT32: return AC_INT4;
    case ATTU_TYPE_INT64: return AC_INT8;
    case ATTU_TYPE_DECIMAL: case ATTU_TYPE_NUMERIC: return AC_NUMERIC;
    case ATTU_TYPE_UNKNOWN: return AC_UNKNOWN;
    case ATTU_TYPE_TIMESTAMP: return AC_TIMESTAMP;
    case ATTU_TYPE_TIMESTAMPTZ: return AC_TIMESTAMPTZ;
    case ATTU_TYPE_DATE: return AC_DATE;
    case ATTU_TYPE_INTERVAL: return AC_INTERVAL;
    default: return AC_OTHER;
    }
}

/* "integer, unknown" for the 42883 / 42725 messages */
static void arg_list(char *buf, size_t cap, attu_bexpr **args, const bool *is_interval, int n) {
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < n && at + 1 < cap; i++) {
        char tb[64];
        const char *tn = is_interval[i] ? "interval" : tname(args[i]->type, tb);
        int w = snprintf(buf + at, cap - at, "%s%s", i ? ", " : "", tn);
        if (w < 0) break;
        at += (size_t)w;
    }
}

static attu_bexpr *no_such_series(bctx *c, const attu_ast_expr *e, attu_bexpr **args, const bool *is_interval, int n) {
    char list[256];
    arg_list(list, sizeof list, args, is_interval, n);
    attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, e->position, "function generate_series(%s) does not exist", list);
    attu_error_set_hint(c->err, "No function matches the given name and argument types. You might need to add explicit type casts.");
    return NULL;
}

static attu_bexpr *not_unique(bctx *c, const attu_ast_expr *e, attu_bexpr **args, const bool *is_interval, int n) {
    char list[256];
    arg_list(list, sizeof list, args, is_interval, n);
    attu_error_set(c->err, "42725", e->position, "function generate_series(%s) is not unique", list);
    attu_error_set_hint(c->err, "Could not choose a best candidate function. You might need to add explicit type casts.");
    return NULL;
}

/* The interval step of the timestamp form from its text (a string literal
 * or INTERVAL 'text'); errors point at the literal, as PostgreSQL's. */
static bool read_interval(bctx *c, const attu_ast_expr *lit, attu_interval *iv) {
    if (attu_interval_parse(lit->u.literal.text, lit->u.literal.len, iv, c->err)) {
        c->err->position = lit->position;
        return false;
    }
    return true;
}

/* Whether a bound expression reads nothing but constants. */
static bool constant_expr(const attu_bexpr *e) {
    if (e->kind == BX_CONST) return true;
    if (e->kind != BX_CALL) return false;
    for (int i = 0; i < e->nargs; i++) if (e->args[i] && !constant_expr(e->args[i])) return false;
    return true;
}

/* The value of a constant INTERVAL expression (interval '12 hours' * 2,
 * make_interval(days => ...)) as the step: -1 after the error, 1 when it is
 * NULL, 0 with *iv set. */
static int constant_interval(bctx *c, attu_bexpr *e, attu_interval *iv, int pos) {
    if (!constant_expr(e)) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position ? e->position : pos,
                       "generate_series over timestamps takes only a constant interval step in attu");
        return -1;
    }
    attu_stage_exprs ex;
    if (attu_compile_exprs(&e, 1, 0, NULL, &ex, c->err)) { attu_stage_exprs_free(&ex); return -1; }
    attu_slot out;
    char text[64];
    int rc = attu_program_eval_const(ex.prog, &out, text, sizeof text, c->err);
    attu_stage_exprs_free(&ex);
    if (rc) { if (!c->err->position) c->err->position = pos; return -1; }
    if (out.null) return 1;
    memcpy(iv, out.v.s, sizeof *iv);
    return 0;
}

/* Whether e (an AST argument) is written as an interval: INTERVAL 'text',
 * 'text'::interval or CAST(x AS interval). */
static bool written_as_interval(const attu_ast_expr *e) {
    return e->kind == ATTU_EXPR_CAST && e->u.cast.type.name && !strcmp(e->u.cast.type.name, "interval");
}

/* Binds generate_series(args) of call e over scope sc into a BX_SRF
 * expression (its arguments coerced to the chosen form's types). */
static attu_bexpr *bind_series_call(bctx *c, const scope *sc, const attu_ast_expr *e) {
    int n = e->u.func.args.n;
    if (e->u.func.over) {
        attu_error_set(c->err, "42809", e->position, "OVER specified, but generate_series is not a window function nor an aggregate function");
        return NULL;
    }
    if (e->u.func.distinct || e->u.func.order_by.n || e->u.func.filter || e->u.func.star) {
        attu_error_set(c->err, "42809", e->position, "%s specified, but generate_series is not an aggregate function",
                       e->u.func.distinct ? "DISTINCT" : e->u.func.order_by.n ? "ORDER BY" : e->u.func.filter ? "FILTER" : "*");
        if (e->u.func.star) memcpy(c->err->sqlstate, ATTU_SQLSTATE_UNDEFINED_FUNCTION, 6);
        return NULL;
    }
    attu_bexpr *args[3] = { 0 };
    bool is_interval[3] = { false, false, false };
    bool interval_null = false;
    attu_interval iv = { 0, 0, 0 };
    const attu_ast_expr *iv_text = NULL;     /* an untyped literal that may be the interval */
    for (int i = 0; i < n && i < 3; i++) {
        const attu_ast_expr *a = e->u.func.args.items[i];
        if (written_as_interval(a) && a->u.cast.arg->kind == ATTU_EXPR_LITERAL) {
            /* attu has no interval values: a constant step is read here */
            const attu_ast_expr *in = a->u.cast.arg;
            is_interval[i] = true;
            if (!(args[i] = mk_const_null(c, attu_type_make(ATTU_TYPE_UNKNOWN)))) return NULL;
            args[i]->position = a->position;
            if (i != 2) continue;            /* no such candidate: 42883 below */
            if (in->kind == ATTU_EXPR_LITERAL && in->u.literal.kind == ATTU_LIT_STRING) {
                if (!read_interval(c, in, &iv)) return NULL;
            } else if (in->kind == ATTU_EXPR_LITERAL && in->u.literal.kind == ATTU_LIT_NULL) {
                interval_null = true;
            } else {
                attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, a->position,
                               "generate_series over timestamps takes only a constant interval step in attu");
                return NULL;
            }
            continue;
        }
        if (!(args[i] = bind_expr(c, sc, a))) return NULL;
        if (i == 2 && a->kind == ATTU_EXPR_LITERAL && a->u.literal.kind == ATTU_LIT_STRING) iv_text = a;
    }
    if (n < 2 || n > 3) {
        /* PostgreSQL's message lists every argument */
        attu_bexpr *all[100];
        bool alli[100] = { false };
        int m = n > 100 ? 100 : n;
        for (int i = 0; i < m; i++) {
            if (i < 3) { all[i] = args[i]; alli[i] = is_interval[i]; continue; }
            if (!(all[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
        }
        return no_such_series(c, e, all, alli, m);
    }
    arg_class k[3] = { AC_OTHER, AC_OTHER, AC_OTHER };
    for (int i = 0; i < n; i++) k[i] = is_interval[i] ? AC_INTERVAL : classify(args[i]->type);
    int pos = e->position;
    attu_bexpr *x = attu_bx_new(c->pa, BX_SRF, attu_type_make(ATTU_TYPE_INT32), pos);
    if (!x) OOM_NULL(c);
    x->nargs = 3;
    bool stamps = k[0] == AC_TIMESTAMP || k[0] == AC_DATE || k[1] == AC_TIMESTAMP || k[1] == AC_DATE ||
                  k[0] == AC_TIMESTAMPTZ || k[1] == AC_TIMESTAMPTZ || (n == 3 && k[2] == AC_INTERVAL);
    if (stamps) {
        /* generate_series(timestamp, timestamp, interval); dates and
         * untyped literals convert to timestamp. Without a timestamp
         * argument PostgreSQL picks the timestamptz form, which attu
         * lacks. */
        bool ok = n == 3 && (k[2] == AC_INTERVAL || k[2] == AC_UNKNOWN);
        if (ok && k[2] == AC_INTERVAL && !is_interval[2]) {
            /* a step of INTERVAL type other than a literal: a constant one */
            int r = constant_interval(c, args[2], &iv, pos);
            if (r < 0) return NULL;
            interval_null = r == 1;
        }
        for (int i = 0; i < 2; i++)
            ok = ok && (k[i] == AC_TIMESTAMP || k[i] == AC_TIMESTAMPTZ || k[i] == AC_DATE || k[i] == AC_UNKNOWN);
        if (!ok) return no_such_series(c, e, args, is_interval, n);
        if (k[0] == AC_UNKNOWN && k[1] == AC_UNKNOWN) return not_unique(c, e, args, is_interval, n);
        /* the timestamptz form when a timestamptz is given or no
         * timestamp is (dates: timestamptz is the preferred type of
         * PostgreSQL's date/time category); it steps in the session's
         * zone */
        bool tz = k[0] == AC_TIMESTAMPTZ || k[1] == AC_TIMESTAMPTZ || (k[0] != AC_TIMESTAMP && k[1] != AC_TIMESTAMP);
        if (k[2] == AC_UNKNOWN) {
            /* an untyped literal step is read as an interval */
            if (iv_text) { if (!read_interval(c, iv_text, &iv)) return NULL; }
            else if (args[2]->kind == BX_CONST && args[2]->is_null) interval_null = true;
            else {
                attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, args[2]->position ? args[2]->position : pos,
                               "generate_series over timestamps takes only a constant interval step in attu");
                return NULL;
            }
        }
        attu_type ts = attu_type_make(tz ? ATTU_TYPE_TIMESTAMPTZ : ATTU_TYPE_TIMESTAMP);
        x->type = ts;
        if (!(x->args[0] = coerce(c, args[0], ts, false, pos)) || !(x->args[1] = coerce(c, args[1], ts, false, pos))) return NULL;
        /* the step's presence: a NULL interval makes the series empty */
        attu_type i8 = attu_type_make(ATTU_TYPE_INT64);
        if (!(x->args[2] = interval_null ? mk_const_null(c, i8) : mk_const_int(c, i8, 1))) return NULL;
        x->aux = iv.months;
        x->i = iv.days;
        x->imm = iv.usec;
        return x;
    }
    /* the numeric forms: int4, int8, numeric */
    bool any_num = false, any_i8 = false, any_i4 = false, all_unknown = true;
    for (int i = 0; i < n; i++) {
        switch (k[i]) {
        case AC_NUMERIC: any_num = true; break;
        case AC_INT8: any_i8 = true; break;
        case AC_INT4: any_i4 = true; break;
        case AC_INT2: case AC_UNKNOWN: break;
        default: return no_such_series(c, e, args, is_interval, n);
        }
        if (k[i] != AC_UNKNOWN) all_unknown = false;
    }
    if (all_unknown || (!any_num && !any_i8 && !any_i4)) return not_unique(c, e, args, is_interval, n);
    attu_type t = attu_type_make(any_num ? ATTU_TYPE_NUMERIC : any_i8 ? ATTU_TYPE_INT64 : ATTU_TYPE_INT32);
    x->type = t;
    for (int i = 0; i < n; i++)
        if (!(x->args[i] = coerce(c, args[i], t, false, args[i]->position ? args[i]->position : pos))) return NULL;
    if (n == 2 && !(x->args[2] = t.id == ATTU_TYPE_NUMERIC
                        ? coerce(c, mk_const_int(c, attu_type_make(ATTU_TYPE_INT32), 1), t, false, pos)
                        : mk_const_int(c, t, 1)))
        return NULL;
    return x;
}

bool attu_srf_allowed_here(bctx *c, int pos) {
    if (c->in_agg) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos,
                       "aggregate function calls cannot contain set-returning function calls");
        attu_error_set_hint(c->err, "You might be able to move the set-returning function into a LATERAL FROM item.");
        return false;
    }
    if (!c->allow_srf) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos,
                       "set-returning functions are not allowed in %s",
                       c->srf_clause ? c->srf_clause : c->clause ? c->clause : "this context");
        return false;
    }
    return true;
}

attu_bexpr *attu_bind_generate_series(bctx *c, const scope *sc, const attu_ast_expr *e) {
    return attu_srf_allowed_here(c, e->position) ? bind_series_call(c, sc, e) : NULL;
}

/* ---- the LP_SRF node ---------------------------------------------------------- */

/* Rows one input row gives, when the arguments are constants (EXPLAIN's
 * estimate); 1000 otherwise. */
static double series_rows(const attu_bexpr *x) {
    const attu_bexpr *a = x->args[0], *b = x->args[1], *s = x->args[2];
    if (!a || !b || !s || a->kind != BX_CONST || b->kind != BX_CONST || s->kind != BX_CONST) return 1000;
    if (a->is_null || b->is_null || s->is_null) return 0;
    if (attu_type_is_int(x->type.id)) {
        if (s->i == 0) return 1;
        double n = ((double)b->i - (double)a->i) / (double)s->i;
        return n < 0 ? 0 : n + 1;
    }
    return 1000;
}

static attu_lplan *srf_node(bctx *c, attu_lplan *in, attu_bexpr **calls, int n, char **names) {
    attu_lplan *p = attu_lp_new(c->pa, LP_SRF, in->ncols + n);
    if (!p) OOM_NULL(c);
    p->left = in;
    memcpy(p->types, in->types, sizeof(attu_type) * (size_t)in->ncols);
    memcpy(p->names, in->names, sizeof(char *) * (size_t)in->ncols);
    p->srfs = attu_palloc(c->pa, sizeof(attu_srf_spec) * (size_t)n);
    if (!p->srfs) OOM_NULL(c);
    p->nsrfs = n;
    double most = 0;
    for (int i = 0; i < n; i++) {
        const attu_bexpr *x = calls[i];
        attu_srf_spec *s = &p->srfs[i];
        s->type = x->type;
        s->start = x->args[0]; s->stop = x->args[1]; s->step = x->args[2];
        s->step_months = x->aux; s->step_days = (int32_t)x->i; s->step_usec = x->imm;
        s->zone = x->type.id == ATTU_TYPE_TIMESTAMPTZ ? attu_tz_id(attu_tz_session()) : 0;
        p->types[in->ncols + i] = x->type;
        p->names[in->ncols + i] = names ? names[i] : "generate_series";
        double r = series_rows(x);
        if (r > most) most = r;
    }
    p->srf_rows = most;
    p->est_rows = in->est_rows * most;
    p->rowid_col = -1;        /* a row repeats: no longer a key */
    return p;
}

/* A projection of ncols columns over p (a series of subscripts, the
 * input's columns before it), its first p->ncols passing p's columns
 * through; room for p->ncols + extra expressions. */
static attu_lplan *project_over_series(bctx *c, attu_lplan *p, int ncols, int extra) {
    attu_lplan *pr = attu_lp_new(c->pa, LP_PROJECT, ncols);
    if (!pr) OOM_NULL(c);
    pr->left = p;
    pr->exprs = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(p->ncols + extra));
    if (!pr->exprs) OOM_NULL(c);
    for (int i = 0; i < p->ncols; i++) {
        attu_bexpr *col = attu_bx_col(c->pa, i, p->types[i]);
        if (!col) OOM_NULL(c);
        pr->exprs[i] = col;
        pr->types[i] = p->types[i];
        pr->names[i] = p->names[i];
    }
    return pr;
}

/* ---- FROM ---------------------------------------------------------------------- */

static bool reads_input(const attu_bexpr *e) {
    if (!e) return false;
    if (e->kind == BX_COL) return e->col < OUTER_BASE;
    for (int i = 0; i < e->nargs; i++) if (reads_input(e->args[i])) return true;
    for (int i = 0; i < e->nwhens; i++) if (reads_input(e->whens[i]) || reads_input(e->thens[i])) return true;
    return reads_input(e->else_);
}

/* One function of a FROM item (ROWS FROM and unnest(a, b, ...) have
 * several): the series it adds to the item's LP_SRF node, which runs them
 * all in lockstep (the shorter padded with NULLs), and how its columns are
 * read from them in the projection above. */
typedef enum fp_kind { FP_SERIES, FP_UNNEST, FP_JSON, FP_RECORD, FP_REGEXP, FP_OPTIONS, FP_EXPAND } fp_kind;

typedef struct from_part {
    fp_kind               kind;
    const attu_ast_expr  *call;
    const char           *fname;
    int                   nser;      /* series (unnest: one an array) */
    attu_bexpr          **ser;
    attu_bexpr          **args;      /* unnest: the arrays; json: [0] the json value;
                                        regexp: [0] what its rows are read from */
    int                   ncols;
    attu_type            *types;     /* records: the definition list's types */
    const char          **names;     /* records: its names (the json keys) */
    bool                  set;       /* json_to_recordset: a row an element */
    const char *const    *col_names; /* a catalog function's columns, when it
                                        stands for one (pg_partition_tree) */
    attu_bexpr          **base;      /* json_populate_record: the base row's items
                                        (over the FROM items before it), or NULL */
} from_part;

/* Whether call is pg_catalog's function name (unqualified or so
 * qualified) with nargs arguments. */
static bool catalog_call(const attu_ast_expr *call, const char *name, int nargs) {
    return !strcmp(call->u.func.name, name) && (!call->u.func.schema || !strcmp(call->u.func.schema, "pg_catalog")) &&
           call->u.func.args.n == nargs;
}

static bool one_series(bctx *c, from_part *p, attu_bexpr *x) {
    p->ser = attu_palloc(c->pa, sizeof(attu_bexpr *));
    if (!p->ser) { attu_error_oom(c->err); return false; }
    p->ser[0] = x;
    p->nser = 1;
    return true;
}

/* A catalog function of one array argument in FROM whose rows are the
 * array's elements (unnest's series) and whose two columns part_column
 * derives from each (kind): the argument bound (text_elements: a text
 * array, an untyped literal read as one; else any array), 42883 for any
 * other. */
static bool array_rows_part(bctx *c, const scope *sc, const attu_ast_expr *call, from_part *p, fp_kind kind,
                            const char *fname, const char *const *columns, bool text_elements) {
    attu_bexpr **args = attu_palloc(c->pa, sizeof(attu_bexpr *));
    if (!args) { attu_error_oom(c->err); return false; }
    attu_bexpr *a = bind_expr(c, sc, call->u.func.args.items[0]);
    if (!a) return false;
    const bool array = attu_type_is_array(a->type);
    const attu_type e = array ? attu_type_array_elem(a->type) : a->type;
    if (text_elements && a->type.id == ATTU_TYPE_UNKNOWN) {
        a = coerce(c, a, attu_type_array_of(attu_type_make(ATTU_TYPE_TEXT)), false, call->position);
        if (!a) return false;
    } else if (!array || (text_elements && (e.id != ATTU_TYPE_TEXT || attu_type_is_typed_text(e))) ||
               call->u.func.star || call->u.func.distinct) {
        attu_no_function(c, call, &a, 1);
        return false;
    }
    args[0] = a;
    p->kind = kind;
    p->fname = fname;
    p->args = args;
    p->ncols = 2;
    p->col_names = columns;
    attu_bexpr *x = attu_unnest_series(c, a, call->position);
    return x && one_series(c, p, x);
}

/* Whether call is information_schema._pg_expandarray(a) (so qualified:
 * information_schema is not on the search path): PostgreSQL's helper of
 * information_schema and of pgJDBC's getPrimaryKeys / getIndexInfo, a
 * row (x, n) an element: the element and its 1-based position. */
static bool expandarray_call(const attu_ast_expr *call) {
    return call && call->kind == ATTU_EXPR_FUNC && !strcmp(call->u.func.name, "_pg_expandarray") &&
           call->u.func.schema && !strcmp(call->u.func.schema, "information_schema") && call->u.func.args.n == 1 &&
           !call->u.func.star && !call->u.func.distinct && !call->u.func.over && !call->u.func.filter &&
           !call->u.func.order_by.n && !call->u.func.within_group;
}

/* _pg_expandarray(a) in FROM: a row an element (array_rows_part), its
 * two columns expand_column's. */
static bool bind_expand_part(bctx *c, const scope *sc, const attu_ast_expr *call, from_part *p) {
    static const char *const columns[] = { "x", "n" };
    return array_rows_part(c, sc, call, p, FP_EXPAND, "_pg_expandarray", columns, false);
}

/* Column j of _pg_expandarray's row k: the element (x) or k itself (n:
 * elements in storage order, numbered from 1 whatever the lower bound). */
static attu_bexpr *expand_column(bctx *c, attu_bexpr *arr, attu_bexpr *k, int j, int pos) {
    return j == 0 ? attu_unnest_element(c, arr, k, pos) : k;
}

/* pg_options_to_table(options text[]): a row an element of the array (a
 * catalog's srvoptions, ftoptions ...: 'name=value'), split at its first
 * '=' into option_name and option_value, the value NULL where there is no
 * '=' (PostgreSQL's): array_rows_part's rows, options_column's columns. */
static bool bind_options_part(bctx *c, const scope *sc, const attu_ast_expr *call, from_part *p) {
    static const char *const columns[] = { "option_name", "option_value" };
    return array_rows_part(c, sc, call, p, FP_OPTIONS, "pg_options_to_table", columns, true);
}

/* Column j of pg_options_to_table's row of element k: split_part(el, '=',
 * 1) (all of it when there is no '='), or the text after the first '='
 * (NULL when there is none; its substr is of the whole element then, so
 * the unchosen arm never fails). */
static attu_bexpr *options_column(bctx *c, attu_bexpr *arr, attu_bexpr *k, int j, int pos) {
    const attu_type txt = attu_type_make(ATTU_TYPE_TEXT), i4 = attu_type_make(ATTU_TYPE_INT32),
                    i8 = attu_type_make(ATTU_TYPE_INT64), b = attu_type_make(ATTU_TYPE_BOOL);
    attu_bexpr *el = attu_unnest_element(c, arr, k, pos);
    if (el && !attu_type_equal(el->type, txt)) el = coerce(c, el, txt, true, pos);
    attu_bexpr *eq = el ? mk_const_text(c, "=", 1, pos) : NULL;
    if (!eq) return NULL;
    if (j == 0) return mk_call(c, ATTU_OP_SPLIT_PART, txt, pos, 3, el, eq, mk_const_int(c, i8, 1), NULL);
    attu_bexpr *at = mk_call(c, ATTU_OP_STRPOS, i4, pos, 2, el, eq, NULL, NULL);
    attu_bexpr *has = at ? mk_call(c, ATTU_OP_GT_I, b, pos, 2, at, mk_const_int(c, i4, 0), NULL, NULL) : NULL;
    attu_bexpr *after = has ? mk_call(c, ATTU_OP_ADD_I, i4, pos, 2, at, mk_const_int(c, i4, 1), NULL, NULL) : NULL;
    if (after) after = coerce(c, after, i8, false, pos);
    attu_bexpr *v = after ? mk_call(c, ATTU_OP_SUBSTR, txt, pos, 2, el, after, NULL, NULL) : NULL;
    attu_bexpr *none = v ? mk_const_null(c, txt) : NULL;
    return none ? mk_call(c, ATTU_OP_SELECT, txt, pos, 3, v, none, has, NULL) : NULL;
}

/* "function pg_catalog.unnest(integer) does not exist": PostgreSQL splits
 * unnest(a, b, ...) into one call an array, and names the failing one */
static void unnest_arg_error(bctx *c, const attu_ast_expr *call, attu_bexpr *a) {
    char tb[64];
    if (a->type.id == ATTU_TYPE_UNKNOWN) {
        attu_error_set(c->err, "42725", call->position, "function pg_catalog.unnest(unknown) is not unique");
        attu_error_set_hint(c->err, "Could not choose a best candidate function. You might need to add explicit type casts.");
        return;
    }
    attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, call->position, "function pg_catalog.unnest(%s) does not exist",
                   tname(a->type, tb));
    attu_error_set_hint(c->err, "No function matches the given name and argument types. You might need to add explicit type casts.");
}

/* The named row type of the FROM item called qual in sc (or the
 * enclosing query's scope), a table's or a view's, and its n columns'
 * names in that type, in qual.*'s order (the items' order): NULL for a
 * derived table's or a WITH query's record, or when the items are not
 * those columns. */
const char *attu_row_type_of(bctx *c, const scope *sc, const char *qual, int n, const char ***names) {
    for (const scope *s = sc; s; s = s == sc ? c->outer : NULL) {
        int m = 0;
        const char *rt = NULL;
        for (int k = 0; k < s->n; k++) {
            const scope_col *col = &s->cols[k];
            if (!col->qual || strcmp(col->qual, qual) || (col->hidden && !col->using_copy)) continue;
            if (!col->row_type) return NULL;
            rt = col->row_type;
            m++;
        }
        if (!m) continue;
        if (m != n) return NULL;
        const char **nm = attu_palloc(c->pa, sizeof(char *) * (size_t)(n + 1));
        if (!nm) { attu_error_oom(c->err); return NULL; }
        int o = 0;
        for (int pos = 0; o < n; pos++) {
            bool any = false;
            for (int k = 0; k < s->n; k++) {
                const scope_col *col = &s->cols[k];
                if (!col->qual || strcmp(col->qual, qual) || (col->hidden && !col->using_copy)) continue;
                if (col->qual_pos >= pos) any = true;
                if (col->qual_pos == pos) nm[o++] = col->type_col;
            }
            if (!any) break;
        }
        if (o != n) return NULL;
        if (names) *names = nm;
        return rt;
    }
    return NULL;
}

bool attu_json_populate_base(bctx *c, const scope *sc, const attu_ast_expr *call, bool in_from, int *ncols,
                             attu_type **types, const char ***names, attu_bexpr ***base, attu_bexpr **row_null) {
    const attu_ast_expr *b = call->u.func.args.items[0];
    const char *fname = call->u.func.name;
    *base = NULL;
    *row_null = NULL;
    if (b->kind == ATTU_EXPR_CAST && b->u.cast.type.name && b->u.cast.arg->kind == ATTU_EXPR_LITERAL &&
        b->u.cast.arg->u.literal.kind == ATTU_LIT_NULL) {
        /* NULL::t: t's columns, every absent key NULL */
        attu_type t;
        attu_error scratch = { 0 };
        const attu_table *tab = attu_type_from_name(b->u.cast.type.name, b->u.cast.type.precision, b->u.cast.type.scale, &t,
                                                    &scratch) && c->cat
                                    ? attu_catalog_lookup(c->cat, b->u.cast.type.name) : NULL;
        if (tab) {
            *ncols = tab->ncols;
            attu_type *ty = attu_palloc(c->pa, sizeof(attu_type) * (size_t)(tab->ncols + 1));
            const char **nm = attu_palloc(c->pa, sizeof(char *) * (size_t)(tab->ncols + 1));
            if (!ty || !nm) { attu_error_oom(c->err); return false; }
            for (int i = 0; i < tab->ncols; i++) {
                ty[i] = tab->defs[i].type;
                if (!(nm[i] = attu_pstrdup(c->pa, tab->defs[i].name, strlen(tab->defs[i].name)))) {
                    attu_error_oom(c->err);
                    return false;
                }
            }
            *types = ty; *names = nm;
            return true;
        }
        if (!scratch.set) {
            attu_error_set(c->err, "42804", 0, "first argument of %s must be a row type", fname);
            return false;
        }
        /* NULL::v of a view: the view's row type */
        const attu_view *v = c->cat ? attu_views_find(attu_catalog_views(c->cat), b->u.cast.type.name) : NULL;
        if (v) {
            attu_type *ty = attu_palloc(c->pa, sizeof(attu_type) * (size_t)(v->ncols + 1));
            const char **nm = attu_palloc(c->pa, sizeof(char *) * (size_t)(v->ncols + 1));
            if (!ty || !nm) { attu_error_oom(c->err); return false; }
            for (int i = 0; i < v->ncols; i++) {
                ty[i] = v->col_types[i];
                if (!(nm[i] = attu_pstrdup(c->pa, v->col_names[i], strlen(v->col_names[i])))) { attu_error_oom(c->err); return false; }
            }
            *ncols = v->ncols; *types = ty; *names = nm;
            return true;
        }
        attu_error_set(c->err, "42704", b->u.cast.type.position ? b->u.cast.type.position : b->position,
                       "type \"%s\" does not exist", b->u.cast.type.name);
        return false;
    }
    /* a row value: a table's or view's whole row (t, t.*), whose row type
     * is the table's or view's (in the select list also a ROW(...), an
     * anonymous record); its items are the base row's values */
    const char *qual = b->kind == ATTU_EXPR_COLUMN && !b->u.column.qualifier ? b->u.column.name
                       : b->kind == ATTU_EXPR_STAR && b->u.star.qualifier ? b->u.star.qualifier : NULL;
    attu_bexpr *rec;
    if (b->kind == ATTU_EXPR_STAR) {
        bool found = false;
        if (!qual) {
            attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, b->position, "syntax error at or near \"*\"");
            return false;
        }
        rec = attu_bind_whole_row(c, sc, qual, b->position, 0, &found);
        if (!found && !c->err->set)
            attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_TABLE, b->position, "missing FROM-clause entry for table \"%s\"", qual);
    } else {
        rec = bind_expr(c, sc, b);
    }
    if (!rec) return false;
    if (rec->type.id == ATTU_TYPE_UNKNOWN) {
        /* NULL or 'text' untyped: PostgreSQL cannot resolve anyelement */
        attu_error_set(c->err, "42804", 0, "could not determine polymorphic type because input has type unknown");
        return false;
    }
    if (!attu_type_is_record(rec->type)) {
        attu_error_set(c->err, "42804", 0, "first argument of %s must be a row type", fname);
        return false;
    }
    attu_bexpr **items;
    int n = attu_row_value_items(c, rec, &items);
    const char **type_names = NULL;
    bool table = qual && n >= 0 && attu_row_type_of(c, sc, qual, n, &type_names);
    if (c->err->set) return false;
    if (n < 0 || (in_from && !table)) {
        /* PostgreSQL: a record of no named type needs a definition list
         * in FROM; attu has none for these functions */
        if (in_from) {
            attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, call->position,
                           "a column definition list is required for functions returning \"record\"");
            return false;
        }
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, b->position ? b->position : call->position,
                       "%s takes a table's row, NULL::table or ROW(...) as its first argument in attu", fname);
        return false;
    }
    /* a table's columns' names; f1, f2, ... for ROW(...) as PostgreSQL's
     * anonymous record */
    const char **nm = table ? type_names : NULL;
    attu_type *ty = attu_palloc(c->pa, sizeof(attu_type) * (size_t)(n + 1));
    if (!ty || (!nm && !(nm = attu_palloc(c->pa, sizeof(char *) * (size_t)(n + 1))))) { attu_error_oom(c->err); return false; }
    for (int i = 0; i < n; i++) {
        ty[i] = items[i]->type;
        if (ty[i].id == ATTU_TYPE_UNKNOWN) {
            /* ROW('x'): PostgreSQL's record holds text */
            if (!(items[i] = coerce(c, items[i], attu_type_make(ATTU_TYPE_TEXT), false, call->position))) return false;
            ty[i] = items[i]->type;
        }
        if (!table) {
            char f[16];
            snprintf(f, sizeof f, "f%d", i + 1);
            if (!(nm[i] = attu_pstrdup(c->pa, f, strlen(f)))) { attu_error_oom(c->err); return false; }
        }
    }
    *ncols = n; *types = ty; *names = nm; *base = items;
    *row_null = attu_row_value_null_test(c, rec);
    return true;
}

/* Binds one function of a FROM item (call, with its column definition
 * list defs) over scope sc into p. */
static bool bind_part(bctx *c, const scope *sc, const attu_ast_expr *call, const attu_ast_coldefs *defs, from_part *p) {
    memset(p, 0, sizeof *p);
    if (attu_jsonpath_function_name(call->u.func.name)) {
        /* jsonb_path_query(..., silent => true): positional (planner/jsonpath_bind.c) */
        attu_ast_expr *named = attu_palloc(c->pa, sizeof *named);
        if (!named) { attu_error_oom(c->err); return false; }
        if (!attu_jsonpath_named_call(c, sc, call, named)) return false;
        call = named;
    }
    p->call = call;
    const char *name = call->u.func.name;
    if (catalog_call(call, "pg_options_to_table", 1)) return bind_options_part(c, sc, call, p);
    if (expandarray_call(call)) return bind_expand_part(c, sc, call, p);
    bool unnest = !strcmp(name, "unnest"), subs = !strcmp(name, "generate_subscripts");
    bool json = attu_json_srf_name(name);   /* json_each ... (planner/json_bind.c) */
    bool rec = attu_json_record_name(name); /* json_to_record ... */
    bool regexp = attu_regexp_srf_name(name);   /* regexp_matches, regexp_split_to_table */
    bool split = !strcmp(name, "string_to_table");
    if ((strcmp(name, "generate_series") && !unnest && !subs && !json && !rec && !regexp && !split) ||
        (call->u.func.schema && strcmp(call->u.func.schema, "pg_catalog"))) {
        if (!attu_builtin_function_name(name) && call->u.func.args.n <= 100) {
            /* no function of the name at all: PostgreSQL's 42883, naming
             * the arguments' types */
            attu_bexpr *args[100];
            int n = call->u.func.args.n;
            for (int i = 0; i < n; i++) if (!(args[i] = bind_expr(c, sc, call->u.func.args.items[i]))) return false;
            attu_no_function(c, call, args, n);
            return false;
        }
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, call->position,
                       "function %s in FROM is not supported (attu has generate_series, generate_subscripts, unnest, "
                       "string_to_table, regexp_matches, regexp_split_to_table and the json functions only)", name);
        return false;
    }
    p->fname = name;
    bool populate = rec && strstr(name, "populate");
    if (defs && defs->n && (!rec || populate)) {
        attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, defs->positions[0],
                       "a column definition list is only allowed for functions returning \"record\"");
        return false;
    }
    if (rec && !populate && !(defs && defs->n)) {
        attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, call->position,
                       "a column definition list is required for functions returning \"record\"");
        return false;
    }
    int n = call->u.func.args.n;
    if (split) {
        /* string_to_table(s, d [, null]): unnest(string_to_array(...)) */
        if (!attu_string_to_table_args(c, sc, call)) return false;
        attu_ast_expr inner = *call;
        inner.u.func.name = (char *)"string_to_array";
        attu_bexpr *arr = bind_expr(c, sc, &inner);
        if (!arr) return false;
        attu_bexpr **args = attu_palloc(c->pa, sizeof(attu_bexpr *) * 2);
        p->ser = attu_palloc(c->pa, sizeof(attu_bexpr *));
        if (!args || !p->ser) { attu_error_oom(c->err); return false; }
        args[0] = arr;
        p->args = args;
        p->kind = FP_UNNEST;
        p->ncols = 1;
        p->nser = 1;
        return (p->ser[0] = attu_unnest_series(c, arr, call->position)) != NULL;
    }
    if (regexp) {
        attu_bexpr **args = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n + 1));
        if (!args) { attu_error_oom(c->err); return false; }
        for (int i = 0; i < n; i++)
            if (!(args[i] = bind_expr(c, sc, call->u.func.args.items[i]))) return false;
        attu_bexpr *x = attu_regexp_srf_series(c, call, args, n, &args[0]);
        if (!x) return false;
        p->kind = FP_REGEXP;
        p->ncols = 1;
        p->args = args;
        return one_series(c, p, x);
    }
    if (unnest || json || rec) {
        /* bind every argument first: 42883 lists their types */
        attu_bexpr **args = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n + 1));
        if (!args) { attu_error_oom(c->err); return false; }
        int want = populate ? 2 : 1;
        bool path = json && attu_jsonpath_function_name(name);   /* jsonb_path_query (planner/jsonpath_bind.c) */
        bool fits = (unnest ? n >= 1 : path ? n >= 2 && n <= 4 : n == want) && !call->u.func.star && !call->u.func.distinct;
        if (populate && fits) {
            /* the row type first: NULL::t is no value attu binds */
            attu_bexpr *row_null;
            if (!attu_json_populate_base(c, sc, call, true, &p->ncols, &p->types, &p->names, &p->base, &row_null)) return false;
            if (!(args[0] = mk_const_null(c, attu_type_make(ATTU_TYPE_UNKNOWN)))) return false;
        }
        for (int i = populate && fits ? 1 : 0; i < n; i++) {
            const attu_ast_expr *a = call->u.func.args.items[i];
            if (populate && i == 0 && a->kind == ATTU_EXPR_CAST) {
                /* json_populate_record(NULL::t): 42883 names t */
                char *tn = a->u.cast.type.name;
                attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, call->position, "function %s(%s%s) does not exist",
                               name, tn ? tn : "?", n > 1 ? ", ..." : "");
                attu_error_set_hint(c->err, "No function matches the given name and argument types. You might need to add explicit type casts.");
                return false;
            }
            if (!(args[i] = bind_expr(c, sc, a))) return false;
        }
        if (!fits) {
            attu_no_function(c, call, args, n);
            return false;
        }
        p->args = args;
        if (unnest) {
            /* unnest(a): the series of a's subscripts, then a[k]
             * (array_bind.c); unnest(a, b, ...): one series an array */
            p->kind = FP_UNNEST;
            p->ncols = n;
            p->nser = n;
            p->ser = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)n);
            if (!p->ser) { attu_error_oom(c->err); return false; }
            for (int i = 0; i < n; i++) {
                attu_bexpr *a = args[i];
                if (n == 1 && a->type.id == ATTU_TYPE_UNKNOWN) { attu_param_not_unique(c, "unnest", &a, 1, call->position); return false; }
                if (n == 1 && !attu_type_is_array(a->type)) { attu_no_function(c, call, &a, 1); return false; }
                if (!attu_type_is_array(a->type)) { unnest_arg_error(c, call, a); return false; }
                if (!(p->ser[i] = attu_unnest_series(c, a, call->position))) return false;
            }
            return true;
        }
        if (json) {
            int cols = 1;
            attu_bexpr *x = path ? attu_jsonpath_srf_series(c, call, args, n, &cols) : attu_json_srf_series(c, call, args[0], &cols);
            if (!x) return false;
            p->kind = FP_JSON;
            p->ncols = cols;
            args[0] = x->args[1]->args[0];   /* the json argument as bound (an untyped literal made json) */
            return one_series(c, p, x);
        }
        /* json(b)_to_record(set) / json(b)_populate_record(set) */
        p->kind = FP_RECORD;
        p->set = strstr(name, "recordset") != NULL;
        if (!populate) {
            p->ncols = defs->n;
            p->types = attu_palloc(c->pa, sizeof(attu_type) * (size_t)defs->n);
            p->names = attu_palloc(c->pa, sizeof(char *) * (size_t)defs->n);
            if (!p->types || !p->names) { attu_error_oom(c->err); return false; }
            for (int i = 0; i < defs->n; i++) {
                for (int k = 0; k < i; k++)
                    if (!strcmp(defs->names[k], defs->names[i])) {
                        attu_error_set(c->err, "42701", 0, "column name \"%s\" specified more than once", defs->names[i]);
                        return false;
                    }
                const attu_ast_typename *tn = &defs->types[i];
                if (attu_type_from_name(tn->name, tn->precision, tn->scale, &p->types[i], c->err)) {
                    if (!c->err->position) c->err->position = tn->position;
                    return false;
                }
                p->types[i] = attu_type_array_interval_qualified(p->types[i], tn->ivrange, tn->precision);
                /* numeric without a typmod: the scale each value is written with */
                if (p->types[i].id == ATTU_TYPE_DECIMAL && tn->precision < 0) p->types[i] = attu_type_make(ATTU_TYPE_NUMERIC);
                p->names[i] = defs->names[i];
            }
        }
        attu_bexpr *j = attu_json_record_arg(c, call, args, n, populate ? 1 : 0);
        if (!j) return false;
        args[0] = j;
        attu_bexpr *x = attu_json_record_series(c, call, j, p->set);
        return x && one_series(c, p, x);
    }
    attu_bexpr *x = subs ? attu_bind_generate_subscripts(c, sc, call, true) : bind_series_call(c, sc, call);
    if (!x) return false;
    p->kind = FP_SERIES;
    p->ncols = 1;
    return one_series(c, p, x);
}

/* Part p's column j, its series' columns k[0..p->nser). */
static attu_bexpr *part_column(bctx *c, const from_part *p, attu_bexpr **k, int j) {
    int pos = p->call->position;
    switch (p->kind) {
    case FP_SERIES: return k[0];
    case FP_UNNEST: return attu_unnest_element(c, p->args[j], k[j], pos);
    case FP_JSON: return attu_json_srf_column(c, p->fname, p->args[0], k[0], j, pos);
    case FP_REGEXP: return attu_regexp_srf_element(c, p->args[0], k[0], pos);
    case FP_OPTIONS: return options_column(c, p->args[0], k[0], j, pos);
    case FP_EXPAND: return expand_column(c, p->args[0], k[0], j, pos);
    case FP_RECORD: {
        attu_bexpr *obj = attu_json_record_object(c, p->args[0], k[0], p->set, pos);
        if (obj && !p->set) {
            /* json_to_record's one row: NULL past it in ROWS FROM's lockstep */
            attu_bexpr *nn = mk_call(c, ATTU_OP_IS_NOT_NULL, attu_type_make(ATTU_TYPE_BOOL), pos, 1, k[0], NULL, NULL, NULL);
            attu_bexpr *nl = nn ? mk_const_null(c, obj->type) : NULL;
            obj = nl ? mk_call(c, ATTU_OP_SELECT, obj->type, pos, 3, obj, nl, nn, NULL) : NULL;
        }
        if (!obj) return NULL;
        attu_bexpr *v = attu_json_populate_field(c, obj, p->names[j], p->types[j], p->base ? p->base[j] : NULL, pos);
        if (v && p->base) {
            /* a row past the series (a LEFT JOIN's pad, ROWS FROM's
             * lockstep) is NULL, not the base row */
            attu_bexpr *nn = mk_call(c, ATTU_OP_IS_NOT_NULL, attu_type_make(ATTU_TYPE_BOOL), pos, 1, k[0], NULL, NULL, NULL);
            attu_bexpr *nl = nn ? mk_const_null(c, v->type) : NULL;
            v = nl ? mk_call(c, ATTU_OP_SELECT, v->type, pos, 3, v, nl, nn, NULL) : NULL;
        }
        return v;
    }
    }
    return NULL;
}

/* PostgreSQL's name of part p's column j (before the aliases). */
static const char *part_column_name(const from_part *p, int j) {
    if (p->col_names) return p->col_names[j];
    switch (p->kind) {
    case FP_JSON:
        if (p->ncols == 2) return j == 0 ? "key" : "value";
        /* (jsonb_path_query's column is named after the function) */
        return strstr(p->fname, "object_keys") || attu_jsonpath_function_name(p->fname) ? p->fname : "value";
    case FP_RECORD: return p->names[j];
    default: return p->fname;
    }
}

attu_lplan *attu_bind_from_function(bctx *c, const attu_ast_from *f, const scope *left_sc, attu_lplan *left,
                                    bool *lateral, const char **qual, const char ***colnames, int *nnew, bool *scalar) {
    *lateral = false;
    *scalar = false;
    const attu_ast_from_call one = { f->u.function.call, f->u.function.coldefs };
    const attu_ast_from_call *calls = f->u.function.ncalls ? f->u.function.calls : &one;
    int ncalls = f->u.function.ncalls ? f->u.function.ncalls : 1;
    bool rows_from = f->u.function.ncalls > 0;
    bool ord = f->u.function.ordinality;
    if (rows_from && f->u.function.coldefs.n) {
        attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, f->u.function.coldefs.positions[0],
                       ncalls > 1 ? "ROWS FROM() with multiple functions cannot have a column definition list"
                                  : "a column definition list is only allowed for functions returning \"record\"");
        if (ncalls > 1) attu_error_set_hint(c->err, "Put a separate column definition list for each function inside ROWS FROM().");
        return NULL;
    }
    if (!rows_from && ord && f->u.function.coldefs.n) {
        attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, f->u.function.coldefs.positions[0],
                       "WITH ORDINALITY cannot be used with a column definition list");
        attu_error_set_hint(c->err, "Put the column definition list inside ROWS FROM().");
        return NULL;
    }
    from_part *parts = attu_palloc(c->pa, sizeof(from_part) * (size_t)ncalls);
    if (!parts) OOM_NULL(c);
    scope none = { 0, NULL, 0 };
    const char *save_clause = c->clause;
    bool sa = c->allow_agg, sw = c->allow_window, ss = c->allow_srf;
    /* a subquery of the arguments correlated with the items before the
     * function is joined to them here (its value a hidden column the
     * binding pushed on left_sc), so the function reads it as a column */
    pending_join *save_pending = c->pending;
    int save_npending = c->npending;
    c->pending = NULL; c->npending = 0;
    c->clause = "functions in FROM";
    c->allow_agg = false; c->allow_window = false; c->allow_srf = false;
    bool ok = true;
    int nser = 0, ncols = 0;
    for (int i = 0; i < ncalls && ok; i++) {
        const attu_ast_expr *call = calls[i].call;
        /* catalog functions that stand for an unnest (system_catalog_internal.h);
         * the relation argument it drops is bound for its errors (42P01 of
         * 'nosuch'::regclass, as PostgreSQL) */
        const bool ancestors = catalog_call(call, "pg_partition_ancestors", 1);
        bool tree = catalog_call(call, "pg_partition_tree", 1);
        if ((ancestors || tree) && !bind_expr(c, left_sc ? left_sc : &none, call->u.func.args.items[0])) ok = false;
        if (ok && ancestors && !(call = syscat_no_ancestors(c))) ok = false;
        /* the channels the session listens on: an unnest of their names,
         * named as the function */
        bool listening = ok && catalog_call(call, "pg_listening_channels", 0);
        if (listening && !(call = syscat_listening_channels(c))) ok = false;
        tree = tree && ok;
        if (tree && !(call = syscat_no_partition_tree(c))) ok = false;
        ok = ok && bind_part(c, left_sc ? left_sc : &none, call, &calls[i].coldefs, &parts[i]);
        if (ok && listening) parts[i].fname = "pg_listening_channels";
        if (ok && tree) {
            static const char *const tree_columns[] = { "relid", "parentrelid", "isleaf", "level" };
            parts[i].fname = "pg_partition_tree";
            parts[i].col_names = tree_columns;
        }
        if (ok) { nser += parts[i].nser; ncols += parts[i].ncols; }
    }
    c->clause = save_clause; c->allow_agg = sa; c->allow_window = sw; c->allow_srf = ss;
    if (ok && !c->err->set && c->npending && left) left = attu_apply_pending(c, left);
    else if (ok && c->npending) { attu_error_set(c->err, ATTU_SQLSTATE_INTERNAL, f->position, "correlated subquery without its rows"); ok = false; }
    c->pending = save_pending; c->npending = save_npending;
    if (!ok || c->err->set) return NULL;
    int avail = ncols + ord;
    const char *fname0 = parts[0].fname;
    if (f->column_aliases.n > avail) {
        attu_error_set(c->err, "42P10", f->position, "table \"%s\" has %d columns available but %d columns specified",
                       f->alias ? f->alias : fname0, avail, f->column_aliases.n);
        return NULL;
    }
    /* every series of every part, in order, then WITH ORDINALITY's */
    attu_bexpr **ser = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(nser + 1));
    const char **names = attu_palloc(c->pa, sizeof(char *) * (size_t)(avail + 1));
    if (!ser || !names) OOM_NULL(c);
    bool lat = false;
    for (int i = 0, s = 0; i < ncalls; i++)
        for (int k = 0; k < parts[i].nser; k++, s++) {
            attu_bexpr *x = ser[s] = parts[i].ser[k];
            lat |= reads_input(x->args[0]) || reads_input(x->args[1]) || reads_input(x->args[2]);
        }
    for (int i = 0; i < ncalls; i++) {
        if (parts[i].kind == FP_RECORD || parts[i].kind == FP_JSON) lat |= reads_input(parts[i].args[0]);
        for (int j = 0; parts[i].base && j < parts[i].ncols; j++) lat |= reads_input(parts[i].base[j]);
    }
    lat = lat && left;
    attu_lplan *in = left;
    if (!lat) {
        /* no argument reads the rows before it: one evaluation */
        in = attu_lp_new(c->pa, LP_VALUES, 0);
        if (!in) OOM_NULL(c);
        in->nrows = 1;
        in->est_rows = 1;
    }
    /* the columns' names: PostgreSQL names a scalar function's column
     * after the alias when only the table alias is written */
    for (int i = 0, o = 0; i < ncalls; i++)
        for (int j = 0; j < parts[i].ncols; j++, o++) names[o] = part_column_name(&parts[i], j);
    if (ord) names[ncols] = "ordinality";
    if (ncalls == 1 && ncols == 1 && f->alias &&
        (parts[0].kind == FP_SERIES || parts[0].kind == FP_UNNEST || parts[0].kind == FP_REGEXP ||
         (parts[0].kind == FP_JSON && strstr(parts[0].fname, "object_keys"))))
        names[0] = f->alias;
    for (int i = 0; i < f->column_aliases.n; i++) names[i] = f->column_aliases.items[i];
    *lateral = lat;
    *scalar = ncalls == 1 && !ord && ncols == 1 && parts[0].kind != FP_RECORD;
    *qual = f->alias ? f->alias : fname0;
    *colnames = names;
    *nnew = avail;
    if (ord) {
        /* the ordinal: a series the executor numbers 1, 2, ... as long as
         * the longest of the others (its arguments unread) */
        attu_type i8 = attu_type_make(ATTU_TYPE_INT64);
        attu_bexpr *o = attu_bx_new(c->pa, BX_SRF, i8, f->position);
        if (!o) OOM_NULL(c);
        o->nargs = 3;
        for (int a = 0; a < 3; a++) if (!(o->args[a] = mk_const_int(c, i8, 1))) return NULL;
        ser[nser] = o;
    }
    attu_lplan *p = srf_node(c, in, ser, nser + ord, (char **)names);
    if (!p) return NULL;
    if (ord) p->srfs[nser].ordinal = true;
    if (ncalls == 1 && parts[0].kind == FP_SERIES && !ord) return p;   /* the series is the column */
    /* the columns read from the series: a projection over them, the
     * input's columns passed through (the arguments may read them) */
    attu_lplan *pr = project_over_series(c, p, in->ncols + avail, avail);
    if (!pr) return NULL;
    attu_bexpr **k = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(nser + 1));
    if (!k) OOM_NULL(c);
    for (int s = 0; s < nser + ord; s++) k[s] = pr->exprs[in->ncols + s];
    for (int i = 0, s = 0, o = in->ncols; i < ncalls; s += parts[i].nser, i++) {
        for (int j = 0; j < parts[i].ncols; j++, o++) {
            attu_bexpr *el = part_column(c, &parts[i], k + s, j);
            if (!el) return NULL;
            pr->exprs[o] = el;
            pr->types[o] = el->type;
            pr->names[o] = (char *)names[o - in->ncols];
        }
    }
    if (ord) {
        pr->exprs[in->ncols + ncols] = k[nser];
        pr->types[in->ncols + ncols] = k[nser]->type;
        pr->names[in->ncols + ncols] = (char *)names[ncols];
    }
    pr->est_rows = p->est_rows;
    return pr;
}

/* ---- the select list -------------------------------------------------------------- */

static bool has_srf(const attu_bexpr *e) {
    if (!e) return false;
    if (e->kind == BX_SRF) return true;
    for (int i = 0; i < e->nargs; i++) if (has_srf(e->args[i])) return true;
    for (int i = 0; i < e->nwhens; i++) if (has_srf(e->whens[i]) || has_srf(e->thens[i])) return true;
    if (has_srf(e->else_)) return true;
    for (int i = 0; i < e->npart; i++) if (has_srf(e->part[i])) return true;
    for (int i = 0; i < e->norder; i++) if (has_srf(e->order[i].expr)) return true;
    return false;
}

bool attu_bx_has_srf(const attu_bexpr *e) { return has_srf(e); }

/* The position of the first set-returning call in e (-1: none). */
static int srf_position(const attu_bexpr *e) {
    if (!e) return -1;
    if (e->kind == BX_SRF) return e->position;
    int p = -1;
    for (int i = 0; i < e->nargs && p < 0; i++) p = srf_position(e->args[i]);
    for (int i = 0; i < e->nwhens && p < 0; i++) {
        p = srf_position(e->whens[i]);
        if (p < 0) p = srf_position(e->thens[i]);
    }
    return p < 0 ? srf_position(e->else_) : p;
}

/* PostgreSQL's refusals of a set-returning function under a construct that
 * would evaluate it conditionally or per window (CASE and COALESCE point
 * at the function, as there). */
static bool check_placement(bctx *c, const attu_bexpr *e) {
    if (!e) return true;
    if ((e->kind == BX_CASE && has_srf(e)) ||
        (e->kind == BX_CALL && (e->op == ATTU_OP_COALESCE) && has_srf(e))) {
        const int at = srf_position(e);
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, at > 0 ? at : e->position,
                       "set-returning functions are not allowed in %s", e->kind == BX_CASE ? "CASE" : "COALESCE");
        attu_error_set_hint(c->err, "You might be able to move the set-returning function into a LATERAL FROM item.");
        return false;
    }
    if ((e->kind == BX_WINDOW || e->kind == BX_AGG) && has_srf(e)) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "%s function calls cannot contain set-returning function calls",
                       e->kind == BX_WINDOW ? "window" : "aggregate");
        attu_error_set_hint(c->err, "You might be able to move the set-returning function into a LATERAL FROM item.");
        return false;
    }
    for (int i = 0; i < e->nargs; i++) if (!check_placement(c, e->args[i])) return false;
    return true;
}

/* e with every occurrence of calls[k] replaced by column base + k. */
static attu_bexpr *replace_calls(bctx *c, attu_bexpr *e, attu_bexpr **calls, int n, int base) {
    if (!e || c->err->set) return e;
    for (int k = 0; k < n; k++)
        if (attu_bx_equal(e, calls[k])) {
            attu_bexpr *r = attu_bx_col(c->pa, base + k, e->type);
            if (!r) OOM_NULL(c);
            r->position = e->position;
            return r;
        }
    if (!has_srf(e)) return e;
    attu_bexpr *x = attu_palloc(c->pa, sizeof *x);
    if (!x) OOM_NULL(c);
    *x = *e;
    for (int i = 0; i < e->nargs; i++) x->args[i] = replace_calls(c, e->args[i], calls, n, base);
    return x;
}

/* The calls of e none of whose arguments holds another (the innermost
 * level), appended to calls[] without repeats. */
static bool leaf_calls(bctx *c, attu_bexpr *e, attu_bexpr ***calls, int *n, int *cap) {
    if (!e) return true;
    bool nested = false;
    for (int i = 0; i < e->nargs; i++) nested |= has_srf(e->args[i]);
    if (e->kind == BX_SRF && !nested) {
        for (int k = 0; k < *n; k++) if (attu_bx_equal((*calls)[k], e)) return true;
        if (*n == *cap) {
            int nc = *cap ? *cap * 2 : 8;
            attu_bexpr **m = attu_palloc(c->pa, sizeof *m * (size_t)nc);
            if (!m) { attu_error_oom(c->err); return false; }
            if (*n) memcpy(m, *calls, sizeof *m * (size_t)*n);
            *calls = m; *cap = nc;
        }
        (*calls)[(*n)++] = e;
        return true;
    }
    for (int i = 0; i < e->nargs; i++) if (!leaf_calls(c, e->args[i], calls, n, cap)) return false;
    return true;
}

bool attu_check_srf_placement(bctx *c, attu_bexpr *const *items, int n) {
    for (int i = 0; i < n; i++) if (has_srf(items[i]) && !check_placement(c, items[i])) return false;
    return true;
}

attu_lplan *attu_extract_srfs(bctx *c, attu_lplan *p, attu_bexpr **items, int n) {
    bool any = false;
    for (int i = 0; i < n; i++) any |= has_srf(items[i]);
    if (!any) return p;
    /* one LP_SRF per nesting level, innermost first: the calls of a level
     * run in lockstep over the rows the level below made */
    for (int level = 0; level < 64; level++) {
        attu_bexpr **calls = NULL;
        int ncalls = 0, cap = 0;
        for (int i = 0; i < n; i++) if (!leaf_calls(c, items[i], &calls, &ncalls, &cap)) return NULL;
        if (!ncalls) return p;
        int base = p->ncols;
        attu_lplan *s = srf_node(c, p, calls, ncalls, NULL);
        if (!s) return NULL;
        for (int i = 0; i < n; i++) if (!(items[i] = replace_calls(c, items[i], calls, ncalls, base))) return NULL;
        p = s;
    }
    attu_error_set(c->err, "54001", 0, "set-returning functions nested too deeply");
    return NULL;
}

/* ---- _pg_expandarray in the select list --------------------------------------------- */

/* Whether e is _pg_expandarray(a) itself (*field NULL) or (that).field. */
static const attu_ast_expr *expandarray_use(const attu_ast_expr *e, const char **field) {
    *field = NULL;
    if (expandarray_call(e)) return e;
    if (e->kind == ATTU_EXPR_FUNC && !strcmp(e->u.func.name, " field") && e->u.func.args.n == 2 &&
        expandarray_call(e->u.func.args.items[0])) {
        *field = e->u.func.args.items[1]->u.literal.text;
        return e->u.func.args.items[0];
    }
    return NULL;
}

/* Two calls' arguments written alike: the same column (qualified alike). */
static bool same_column_arg(const attu_ast_expr *a, const attu_ast_expr *b) {
    const attu_ast_expr *x = a->u.func.args.items[0], *y = b->u.func.args.items[0];
    if (x->kind != ATTU_EXPR_COLUMN || y->kind != ATTU_EXPR_COLUMN || strcmp(x->u.column.name, y->u.column.name))
        return false;
    const char *qx = x->u.column.qualifier, *qy = y->u.column.qualifier;
    return (!qx && !qy) || (qx && qy && !strcmp(qx, qy));
}

attu_ast_query *attu_select_with_lateral_call(bctx *c, const attu_ast_query *q, const attu_ast_expr *call,
                                              const char *alias, attu_ast_select_item **items) {
    const typeof(q->u.select) *s = &q->u.select;
    attu_ast_query *nq = attu_palloc(c->pa, sizeof *nq);
    attu_ast_select_item *it = attu_palloc(c->pa, sizeof *it * (size_t)(s->nitems + 1));
    attu_ast_from **from = attu_palloc(c->pa, sizeof *from * (size_t)(s->from.n + 1));
    attu_ast_from *fi = attu_palloc(c->pa, sizeof *fi);
    if (!nq || !it || !from || !fi) { attu_error_oom(c->err); return NULL; }
    *nq = *q;
    memcpy(it, s->items, sizeof *it * (size_t)s->nitems);
    if (s->from.n) memcpy(from, s->from.items, sizeof *from * (size_t)s->from.n);
    memset(fi, 0, sizeof *fi);
    fi->kind = ATTU_FROM_FUNCTION;
    fi->position = call->position;
    fi->depth = call->depth + 1;
    fi->alias = (char *)alias;
    fi->u.function.call = (attu_ast_expr *)call;
    fi->u.function.lateral = true;
    from[s->from.n] = fi;
    nq->u.select.items = it;
    nq->u.select.from.items = from;
    nq->u.select.from.n = s->from.n + 1;
    nq->depth = (q->depth > fi->depth ? q->depth : fi->depth) + 1;
    *items = it;
    return nq;
}

const attu_ast_query *attu_expandarray_select_srf(bctx *c, const attu_ast_query *q) {
    if (q->kind != ATTU_QUERY_SELECT) return q;
    const typeof(q->u.select) *s = &q->u.select;
    const attu_ast_expr *call = NULL;
    const char *field;
    for (int i = 0; i < s->nitems; i++) {
        const attu_ast_expr *u = expandarray_use(s->items[i].expr, &field);
        if (!u) continue;
        if (call && u != call && !same_column_arg(call, u)) return q;   /* two different arrays: lockstep, not here */
        call = u;
        if (field && strcmp(field, "x") && strcmp(field, "n")) {
            attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_COLUMN, s->items[i].expr->u.func.args.items[0]->position,
                           "could not identify column \"%s\" in record data type", field);
            return NULL;
        }
    }
    if (!call) return q;
    /* only where the function's rows are all the expansion does (as
     * attu_sql_function_select_srf) */
    if (s->group_by.n || s->group_empty || s->having || s->distinct || s->distinct_on.n || s->nwindows) return q;
    for (int i = 0; i < s->nitems; i++) {
        const attu_ast_expr *x = s->items[i].expr;
        if ((x->kind == ATTU_EXPR_STAR && !x->u.star.qualifier) || attu_aggregate_in(x)) return q;
    }
    static const char alias[] = "\001expandarray";
    attu_ast_select_item *items;
    attu_ast_query *nq = attu_select_with_lateral_call(c, q, call, alias, &items);
    if (!nq) return NULL;
    /* each use: the whole row (the FROM item by its name, its columns x
     * and n naming the row's fields) or its column */
    for (int i = 0; i < s->nitems; i++) {
        const attu_ast_expr *u = expandarray_use(s->items[i].expr, &field);
        if (!u) continue;
        attu_ast_expr *col = attu_palloc(c->pa, sizeof *col);
        if (!col) { attu_error_oom(c->err); return NULL; }
        memset(col, 0, sizeof *col);
        col->kind = ATTU_EXPR_COLUMN;
        col->position = s->items[i].expr->position;
        col->depth = 1;
        col->u.column.qualifier = field ? (char *)alias : NULL;
        col->u.column.name = field ? (char *)field : (char *)alias;
        if (!items[i].alias) items[i].alias = field ? (char *)field : (char *)"_pg_expandarray";
        items[i].expr = col;
    }
    return nq;
}
