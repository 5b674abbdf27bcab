/*
 * range_bind.c - binding PostgreSQL 15's built-in range types
 * (engine/range.h): literals, casts (text types <-> a range, explicit or
 * by assignment to text, as PostgreSQL's I/O casts; no cast between two
 * range types), the constructors int4range(a, b [, flags]) .. tstzrange,
 * lower / upper / isempty / lower_inc / upper_inc / lower_inf / upper_inf
 * / range_merge, and the operators @> <@ && << >> &< &> -|- + * -.
 * Comparisons (= <> < <= > >=) are text comparisons of the encoded bytes
 * (their byte order is range_cmp's), numranges by their keys
 * (attu_range_key_expr). Every run-time piece is one ATTU_OP_RANGE
 * instruction, host only (the GPU expression evaluator declines it).
 */
#include "planner/binder_internal.h"
#include "engine/range.h"

#include <stdlib.h>
#include <string.h>

static attu_bexpr *rng_call(bctx *c, attu_range_fn f, attu_type t, int pos, int nargs, attu_bexpr *a0, attu_bexpr *a1,
                            attu_bexpr *a2) {
    attu_bexpr *e = mk_call(c, ATTU_OP_RANGE, t, pos, nargs, a0, a1, a2, NULL);
    if (e) e->aux = f;
    return e;
}

/* ---- literals and casts ------------------------------------------------------------ */

attu_bexpr *attu_range_parse_literal(bctx *c, attu_bexpr *r, const char *s, size_t len) {
    attu_abuf b = { 0 };
    if (attu_range_parse(attu_type_range_kind(r->type), s, len, &b, c->err)) {
        attu_abuf_free(&b);
        c->err->position = r->position;
        return NULL;
    }
    if (!b.p && attu_abuf_put(&b, "", 0)) { attu_error_oom(c->err); return NULL; }
    return mk_const_canonical(c, r, b.p, b.len);   /* (takes b's bytes) */
}

/* A range -> the text types (explicit, or by assignment: range_out at run
 * time); the text types -> a range (explicit only: range_in at run time);
 * nothing else (another range type, a number: 42846 / 42804). */
attu_bexpr *attu_range_coerce(bctx *c, attu_bexpr *e, attu_type t, bool explicit_cast, int pos) {
    attu_type from = e->type;
    if (e->kind == BX_CONST && e->is_null) { attu_bexpr *n = mk_const_null(c, t); if (n) n->position = e->position; return n; }
    bool plain_from = from.id == ATTU_TYPE_TEXT && !attu_type_is_array(from) && !attu_type_is_typed_text(from);
    bool plain_to = t.id == ATTU_TYPE_TEXT && !attu_type_is_array(t) && !attu_type_is_typed_text(t);
    if (attu_type_is_range(from) && plain_to) {
        if (!explicit_cast) return cast_refused(c, from, t, false, pos);
        attu_bexpr *o = rng_call(c, ATTU_RNG_OUT, attu_type_make(ATTU_TYPE_TEXT), pos, 1, e, NULL, NULL);
        if (o && (attu_type_is_bpchar(t) || (attu_type_is_varchar_any(t) && t.precision > 0)))
            return coerce(c, o, t, explicit_cast, pos);   /* the length rule, through text */
        if (o && !attu_type_equal(t, o->type)) o = mk_call(c, ATTU_OP_MOVE, t, pos, 1, o, NULL, NULL, NULL);
        return o;
    }
    if (attu_type_is_range(t) && plain_from) {
        if (!explicit_cast) return cast_refused(c, from, t, false, pos);
        if (attu_type_is_bpchar_any(from)) e = coerce(c, e, attu_type_make(ATTU_TYPE_TEXT), true, pos);
        return e ? rng_call(c, ATTU_RNG_IN, t, pos, 1, e, NULL, NULL) : NULL;
    }
    return cast_refused(c, from, t, explicit_cast, pos);
}

/* Arrays of ranges are not kept (an array's element encodings are
 * engine/array.h's): ARRAY[r], array_agg(r) are 0A000, as a range[] type
 * name is (engine/types.c). true with the error set for a range t. */
bool attu_range_array_refused(bctx *c, attu_type t, int pos) {
    if (!attu_type_is_range(t)) return false;
    attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "arrays of %s are not supported",
                   attu_range_kind_name(attu_type_range_kind(t)));
    return true;
}

/* numrange values compared, grouped or joined by their keys: '[1.0,2)'
 * and '[1.00,2)' are one value to range_eq (engine/range.h); other
 * ranges are their keys already. */
attu_bexpr *attu_range_key_expr(bctx *c, attu_bexpr *a) {
    if (!a || !attu_type_is_range(a->type) || attu_type_range_kind(a->type) != ATTU_RANGE_NUM) return a;
    return rng_call(c, ATTU_RNG_KEY, attu_type_make(ATTU_TYPE_TEXT), a->position, 1, a, NULL, NULL);
}

/* ---- operators ---------------------------------------------------------------------- */

static attu_bexpr *no_operator(bctx *c, const char *op, const attu_bexpr *l, const attu_bexpr *r, int pos) {
    char b1[64], b2[64];
    attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "operator does not exist: %s %s %s",
                   l->type.id == ATTU_TYPE_UNKNOWN ? "unknown" : tname(l->type, b1), op,
                   r->type.id == ATTU_TYPE_UNKNOWN ? "unknown" : tname(r->type, b2));
    attu_error_set_hint(c->err, "No operator matches the given name and argument types. You might need to add explicit type casts.");
    return NULL;
}

/* Whether a value of type t is an element of range kind k as PostgreSQL's
 * anyelement matches it: the subtype itself (a numeric of any typmod for
 * numrange). */
static bool is_element_of(attu_type t, attu_range_kind k) {
    if (attu_type_is_array(t) || attu_type_is_typed_text(t)) return false;
    attu_type s = attu_range_subtype(k);
    if (s.id == ATTU_TYPE_NUMERIC) return t.id == ATTU_TYPE_NUMERIC || t.id == ATTU_TYPE_DECIMAL;
    return t.id == s.id;
}

bool attu_range_operands(const attu_bexpr *l, const attu_bexpr *r) {
    return (l && attu_type_is_range(l->type)) || (r && attu_type_is_range(r->type));
}

/* Both operands as range type t: an untyped literal is read as one. */
static bool both_range(bctx *c, attu_bexpr **l, attu_bexpr **r, attu_type t, int pos) {
    for (int i = 0; i < 2; i++) {
        attu_bexpr **x = i ? r : l;
        if ((*x)->type.id != ATTU_TYPE_UNKNOWN && !attu_type_equal((*x)->type, t)) return false;
        if (!(*x = coerce(c, *x, t, false, pos))) return false;
    }
    return true;
}

attu_bexpr *attu_range_operator(bctx *c, const char *op, attu_bexpr *l, attu_bexpr *r, int pos) {
    attu_type rt = attu_type_is_range(l->type) ? l->type : r->type;
    attu_range_kind k = attu_type_range_kind(rt);
    attu_type b = attu_type_make(ATTU_TYPE_BOOL);
    bool contains = !strcmp(op, "@>"), contained = !strcmp(op, "<@");
    if (contains || contained) {
        attu_bexpr *rg = contains ? l : r, *x = contains ? r : l;
        if (attu_type_is_range(rg->type) && !attu_type_is_range(x->type) && x->type.id != ATTU_TYPE_UNKNOWN) {
            /* range @> element, element <@ range */
            if (!is_element_of(x->type, k)) return no_operator(c, op, l, r, pos);
            if (!(x = coerce(c, x, attu_range_subtype(k), false, pos))) return NULL;
            return rng_call(c, ATTU_RNG_CONTAINS_ELEM, b, pos, 2, rg, x, NULL);
        }
        if (!both_range(c, &l, &r, rt, pos)) return c->err->set ? NULL : no_operator(c, op, l, r, pos);
        return contains ? rng_call(c, ATTU_RNG_CONTAINS, b, pos, 2, l, r, NULL)
                        : rng_call(c, ATTU_RNG_CONTAINS, b, pos, 2, r, l, NULL);
    }
    static const struct { const char *op; attu_range_fn f; bool to_bool; } ops[] = {
        { "&&", ATTU_RNG_OVERLAPS, true }, { "<<", ATTU_RNG_BEFORE, true }, { ">>", ATTU_RNG_AFTER, true },
        { "&<", ATTU_RNG_OVERLEFT, true }, { "&>", ATTU_RNG_OVERRIGHT, true }, { "-|-", ATTU_RNG_ADJACENT, true },
        { "+", ATTU_RNG_UNION, false }, { "*", ATTU_RNG_INTERSECT, false }, { "-", ATTU_RNG_MINUS, false },
    };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        if (strcmp(ops[i].op, op)) continue;
        attu_bexpr *l0 = l, *r0 = r;
        if (!both_range(c, &l, &r, rt, pos)) return c->err->set ? NULL : no_operator(c, op, l0, r0, pos);
        return rng_call(c, ops[i].f, ops[i].to_bool ? b : rt, pos, 2, l, r, NULL);
    }
    return no_operator(c, op, l, r, pos);
}

bool attu_range_operator_name(const char *name) {
    return !strcmp(name, " -|-") || !strcmp(name, " &<") || !strcmp(name, " &>");
}

/* a -|- b, a &< b, a &> b: the parser's calls of " -|-", " &<", " &>"
 * (planner/ast_build.c); ranges only. */
attu_bexpr *attu_bind_range_operator_call(bctx *c, const scope *sc, const attu_ast_expr *e) {
    if (e->u.func.args.n != 2) return NULL;
    attu_bexpr *l = bind_expr(c, sc, e->u.func.args.items[0]);
    attu_bexpr *r = l ? bind_expr(c, sc, e->u.func.args.items[1]) : NULL;
    if (!r) return NULL;
    if (!attu_range_operands(l, r)) return no_operator(c, e->u.func.name + 1, l, r, e->position);
    return attu_range_operator(c, e->u.func.name + 1, l, r, e->position);
}

/* ---- functions ---------------------------------------------------------------------- */

static int kind_of_name(const char *name) {
    for (int k = 0; k < ATTU_RANGE_KINDS_; k++)
        if (!strcmp(name, attu_range_kind_name((attu_range_kind)k))) return k;
    return -1;
}

/* a as the constructor's bound argument of subtype s: an untyped literal
 * read as s, an implicit cast (integer to bigint, date to timestamptz,
 * integer to numeric); false where none exists. */
static bool bound_arg(bctx *c, attu_bexpr **a, attu_type s, int pos) {
    attu_type at = (*a)->type;
    if (attu_type_is_array(at) || attu_type_is_typed_text(at)) return false;
    bool ok = at.id == ATTU_TYPE_UNKNOWN || at.id == s.id;
    if (!ok) {
        switch (s.id) {
        case ATTU_TYPE_INT32: ok = at.id == ATTU_TYPE_INT16; break;
        case ATTU_TYPE_INT64: ok = at.id == ATTU_TYPE_INT16 || at.id == ATTU_TYPE_INT32; break;
        case ATTU_TYPE_NUMERIC: ok = attu_type_is_int(at.id) || at.id == ATTU_TYPE_DECIMAL; break;
        case ATTU_TYPE_TIMESTAMP: ok = at.id == ATTU_TYPE_DATE; break;
        case ATTU_TYPE_TIMESTAMPTZ: ok = at.id == ATTU_TYPE_DATE || at.id == ATTU_TYPE_TIMESTAMP; break;
        default: break;
        }
    }
    if (!ok) return false;
    *a = coerce(c, *a, s, false, pos);
    return true;
}

static bool one_range(attu_bexpr **args, int n) { return n >= 1 && attu_type_is_range(args[0]->type); }

attu_bexpr *attu_bind_range_function(bctx *c, const attu_ast_expr *e, const char *name, attu_bexpr **args, int n,
                                     bool *handled) {
    int pos = e->position;
    attu_type b = attu_type_make(ATTU_TYPE_BOOL);
    *handled = true;
    int k = kind_of_name(name);
    if (k >= 0) {
        /* the constructors: (lower, upper [, flags text]) */
        attu_type s = attu_range_subtype((attu_range_kind)k), t = attu_type_range((attu_range_kind)k);
        if (n < 2 || n > 3) return attu_no_function(c, e, args, n);
        for (int i = 0; i < 2; i++)
            if (!bound_arg(c, &args[i], s, pos)) return c->err->set ? NULL : attu_no_function(c, e, args, n);
        if (!args[0] || !args[1]) return NULL;
        attu_bexpr *fl = NULL;
        if (n == 3) {
            attu_type at = args[2]->type;
            if (at.id != ATTU_TYPE_TEXT || attu_type_is_array(at) || attu_type_is_typed_text(at)) {
                if (at.id != ATTU_TYPE_UNKNOWN) return attu_no_function(c, e, args, n);
            }
            if (!(fl = coerce(c, args[2], attu_type_make(ATTU_TYPE_TEXT), true, pos))) return NULL;
        }
        return rng_call(c, ATTU_RNG_MAKE, t, pos, fl ? 3 : 2, args[0], args[1], fl);
    }
    static const struct { const char *name; attu_range_fn f; } fns[] = {
        { "lower", ATTU_RNG_LOWER }, { "upper", ATTU_RNG_UPPER }, { "isempty", ATTU_RNG_ISEMPTY },
        { "lower_inc", ATTU_RNG_LOWER_INC }, { "upper_inc", ATTU_RNG_UPPER_INC },
        { "lower_inf", ATTU_RNG_LOWER_INF }, { "upper_inf", ATTU_RNG_UPPER_INF }, { "range_merge", ATTU_RNG_MERGE },
    };
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
        if (strcmp(fns[i].name, name)) continue;
        attu_range_fn f = fns[i].f;
        bool own = one_range(args, n) || (n == 2 && attu_type_is_range(args[1]->type));
        /* lower and upper of a text are the string functions */
        if (!own && (f == ATTU_RNG_LOWER || f == ATTU_RNG_UPPER)) { *handled = false; return NULL; }
        if (f == ATTU_RNG_MERGE) {
            if (n == 2 && args[0]->type.id == ATTU_TYPE_UNKNOWN && args[1]->type.id == ATTU_TYPE_UNKNOWN) {
                /* anyrange from two untyped literals: PostgreSQL's 42804 */
                attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, pos,
                               "could not determine polymorphic type because input has type unknown");
                return NULL;
            }
            if (n != 2 || !own) return attu_no_function(c, e, args, n);
            attu_type rt = attu_type_is_range(args[0]->type) ? args[0]->type : args[1]->type;
            if (!both_range(c, &args[0], &args[1], rt, pos)) return c->err->set ? NULL : attu_no_function(c, e, args, n);
            return rng_call(c, f, rt, pos, 2, args[0], args[1], NULL);
        }
        /* an untyped literal fits the range and the multirange forms alike */
        if (n == 1 && args[0]->type.id == ATTU_TYPE_UNKNOWN) return attu_param_not_unique(c, name, args, n, pos);
        if (n != 1 || !own) return attu_no_function(c, e, args, n);
        attu_type rt = f == ATTU_RNG_LOWER || f == ATTU_RNG_UPPER ? attu_range_subtype(attu_type_range_kind(args[0]->type)) : b;
        return rng_call(c, f, rt, pos, 1, args[0], NULL, NULL);
    }
    *handled = false;
    return NULL;
}
