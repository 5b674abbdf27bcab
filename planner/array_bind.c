/*
 * array_bind.c - binding PostgreSQL 15's one-dimensional arrays: ARRAY[...],
 * a[i] and a[i:j], the casts between arrays and text and between element
 * types, the array operators (= < ... on whole arrays, ||, @>, <@, &&,
 * op ANY / ALL (array)) and the array functions. Every run-time piece is
 * one ATTU_OP_ARRAY instruction (engine/array.h), host only; comparisons
 * of whole arrays are the text comparisons of their encoded bytes.
 */
#include "planner/binder_internal.h"
#include "engine/array.h"

#include <stdio.h>
#include <string.h>

static attu_bexpr *arr_call(bctx *c, attu_array_fn f, attu_type t, int pos, int nargs, attu_bexpr *a0,
                            attu_bexpr *a1, attu_bexpr *a2) {
    /* what an array function or operator gives has no element modifier
     * (PostgreSQL's anyarray results: ca || x of a char(3)[] ca is
     * character[]); only ATTU_ARR_TYPMOD gives one */
    if (f != ATTU_ARR_TYPMOD && attu_type_array_has_mod(t)) t = attu_type_array_of(attu_type_array_elem(t));
    attu_bexpr *e = mk_call(c, ATTU_OP_ARRAY, t, pos, nargs, a0, a1, a2, NULL);
    if (e) e->aux = f;
    return e;
}

/* The empty array of type t, a constant. */
static attu_bexpr *empty_array(bctx *c, attu_type t, int pos) {
    attu_bexpr *k = attu_bx_new(c->pa, BX_CONST, t, pos);
    if (!k || !(k->s = attu_pstrdup(c->pa, "", 0))) { attu_error_oom(c->err); return NULL; }
    k->slen = 0;
    return k;
}

/* The type a subscript of an array of t gives: its element's (varchar for
 * varchar elements). */
static attu_type elem_of(attu_type t) {
    attu_type e = attu_type_array_elem(t);
    if (e.id == ATTU_TYPE_TEXT && e.precision && !attu_type_is_enum(e)) return attu_type_varchar_unbounded();
    return e;
}

/* a[i] of an array whose elements have a modifier: typed as the element
 * with it, as PostgreSQL's subscript keeps the array's typmod (a char(3)[]
 * column's a[1] is character(3), kept without its padding as char(n)
 * values are: engine/types.h; varchar(n) only retyped). A numeric(p,s)
 * element stays numeric: the DECIMAL(p,s) slot has no NaN. */
static attu_bexpr *subscript_with_mod(bctx *c, attu_bexpr *r, attu_type at, int pos) {
    if (!r || !attu_type_array_has_mod(at)) return r;
    attu_type mt = attu_type_array_elem_mod(at);
    if (attu_type_is_bpchar(mt)) return mk_call(c, ATTU_OP_RTRIM, mt, pos, 1, r, NULL, NULL, NULL);
    if (attu_type_is_varchar_any(mt)) return mk_call(c, ATTU_OP_MOVE, mt, pos, 1, r, NULL, NULL, NULL);
    return r;
}

/* Parses an array literal's text as type t (an untyped literal read as an
 * array: '{1,2}'::int[], a comparison with an array, an INSERT). An
 * element modifier is the caller's (attu_array_with_mod): PostgreSQL reads
 * the literal without it and then applies it as the context does, cutting
 * a long string in a cast, rejecting it in an assignment. */
attu_bexpr *attu_array_parse_literal(bctx *c, attu_bexpr *r, const char *s, size_t len) {
    attu_abuf b = { 0 };
    int rc = attu_array_from_text(attu_type_array_elem(r->type), s, len, &b, c->err);
    if (rc) {
        attu_abuf_free(&b);
        c->err->position = r->position;
        return NULL;
    }
    r->s = attu_pstrdup(c->pa, b.p ? b.p : "", b.len);
    r->slen = b.len;
    attu_abuf_free(&b);
    if (!r->s) { attu_error_oom(c->err); return NULL; }
    return r;
}

/* e (of t without its element modifier) brought to t's element modifier:
 * explicit_cast cuts long strings, an assignment rejects them (22001). */
attu_bexpr *attu_array_with_mod(bctx *c, attu_bexpr *e, attu_type t, bool explicit_cast, int pos) {
    if (!e || !attu_type_array_has_mod(t)) return e;
    if (e->kind == BX_CONST && e->is_null) return mk_const_null(c, t);
    attu_bexpr *r = arr_call(c, ATTU_ARR_TYPMOD, t, pos, 1, e, NULL, NULL);
    if (r) r->imm = explicit_cast;
    return r;
}

/* An array assigned to a column of type t (INSERT, UPDATE): as a cast,
 * but the element modifier rejects strings too long (22001) as
 * PostgreSQL's assignment does. */
attu_bexpr *attu_array_assign(bctx *c, attu_bexpr *e, attu_type t, int pos) {
    if (!attu_type_array_has_mod(t) || attu_type_array_same(e->type, t)) return coerce(c, e, t, true, pos);
    return attu_array_with_mod(c, coerce(c, e, attu_type_array_of(attu_type_array_elem(t)), true, pos), t, false, pos);
}

/* The scale that makes a TEXT-slot element a type of its own (json,
 * jsonb, uuid, bytea), 0 for text, varchar and bpchar. */
static int typed_kind(attu_type e) { return attu_type_is_typed_text(e) ? e.scale : 0; }

/* Two element types held alike: the same machine type, bpchar or not, and
 * the same json / jsonb / uuid / bytea / enum type or none. */
static bool elem_same_kind(attu_type a, attu_type b) {
    return a.id == b.id && attu_type_is_bpchar_any(a) == attu_type_is_bpchar_any(b) && typed_kind(a) == typed_kind(b) &&
           (!attu_type_is_enum(a) || attu_type_enum_id(a) == attu_type_enum_id(b));   /* mood[] is not color[] */
}

/* Whether array elements of type fe cast to te at all, where either is a
 * json, jsonb, uuid or bytea (those cast only to and from the string
 * types, and json to jsonb and back, as PostgreSQL's pg_cast has them),
 * and only explicitly. */
static bool typed_elem_cast(attu_type fe, attu_type te, bool explicit_cast) {
    bool fs = fe.id == ATTU_TYPE_TEXT && !typed_kind(fe), ts = te.id == ATTU_TYPE_TEXT && !typed_kind(te);
    if (!explicit_cast) return false;
    if (fs || ts) return fe.id == ATTU_TYPE_TEXT && te.id == ATTU_TYPE_TEXT;   /* a string type and one of these */
    return attu_type_is_json_any(fe) && attu_type_is_json_any(te);
}

/* The element key of a jsonb[] (engine/array.h attu_array_key: each
 * element's jsonb key, a text[]), which the element searches and
 * containment compare as jsonb compares (1.0 equals 1); any other array
 * as it is. */
static attu_bexpr *jsonb_elem_keys(bctx *c, attu_bexpr *a) {
    if (!a || !attu_type_is_array(a->type) || !attu_type_is_jsonb(attu_type_array_elem(a->type))) return a;
    return arr_call(c, ATTU_ARR_KEY, attu_type_array_of(attu_type_make(ATTU_TYPE_TEXT)), a->position, 1, a, NULL, NULL);
}

/* json has no equality: PostgreSQL's array_eq, array_cmp, array_position
 * and the containment operators fail on json[] (42883), when they run
 * (so the message has no position). */
static bool json_elems_refused(bctx *c, const attu_bexpr *a) {
    if (!a || !attu_type_is_array(a->type) || !attu_type_is_json(attu_type_array_elem(a->type))) return false;
    attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, 0, "could not identify an equality operator for type json");
    return true;
}

/* coerce() of an array value or to an array type. */
attu_bexpr *attu_array_coerce(bctx *c, attu_bexpr *e, attu_type t, bool explicit_cast, int pos) {
    char b1[64], b2[64];
    bool ea = attu_type_is_array(e->type), ta = attu_type_is_array(t);
    if (ea && ta) {
        if (attu_type_array_same(e->type, t)) return e;
        attu_type u = attu_type_array_of(attu_type_array_elem(t));   /* t without its modifier */
        if (attu_type_array_has_mod(t))
            return attu_array_with_mod(c, attu_array_coerce(c, e, u, explicit_cast, pos), t, explicit_cast, pos);
        attu_type fe = attu_type_array_elem(e->type), te = attu_type_array_elem(t);
        /* text and varchar elements, and one modifier or none of the
         * same type: the same bytes */
        if (elem_same_kind(fe, te))
            return mk_call(c, ATTU_OP_MOVE, t, pos, 1, e, NULL, NULL, NULL);
        if (typed_kind(fe) || typed_kind(te)) {
            /* uuid[] -> text[], text[] -> bytea[], json[] -> jsonb[]: each
             * element through its text, read by the target's input */
            if (typed_elem_cast(fe, te, explicit_cast)) {
                if (e->kind == BX_CONST && e->is_null) return mk_const_null(c, t);
                return arr_call(c, ATTU_ARR_CAST, t, pos, 1, e, NULL, NULL);
            }
            goto fail;
        }
        bool ok = true;   /* bpchar to text or varchar and back: implicit both ways */
        int op = fe.id == ATTU_TYPE_TEXT && te.id == ATTU_TYPE_TEXT ? 0 : attu_cast_opcode(fe, te, &ok);
        if (op >= 0 && (ok || explicit_cast)) {
            if (e->kind == BX_CONST && e->is_null) return mk_const_null(c, t);
            return arr_call(c, ATTU_ARR_CAST, t, pos, 1, e, NULL, NULL);
        }
    } else if (ea && t.id == ATTU_TYPE_TEXT && !attu_type_is_bpchar(t) && explicit_cast) {
        return arr_call(c, ATTU_ARR_TO_TEXT, t, pos, 1, e, NULL, NULL);
    } else if (ta && e->type.id == ATTU_TYPE_TEXT && explicit_cast) {
        /* text read as the array without its modifier, which the cast
         * then applies (PostgreSQL's I/O conversion and length coercion) */
        attu_type u = attu_type_array_of(attu_type_array_elem(t));
        return attu_array_with_mod(c, arr_call(c, ATTU_ARR_FROM_TEXT, u, pos, 1, e, NULL, NULL), t, true, pos);
    } else if (ta && e->kind == BX_CONST && e->is_null) {
        return mk_const_null(c, t);
    }
fail:
    if (explicit_cast)
        attu_error_set(c->err, "42846", pos, "cannot cast type %s to %s", tname(e->type, b1), tname(t, b2));
    else
        attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, pos, "%s is of type %s but expression is of type %s",
                       "value", tname(t, b2), tname(e->type, b1));
    return NULL;
}

/* Two operands of an array operator brought to one array type: an untyped
 * side reads as the other's type; arrays of different elements meet at
 * their elements' common type. NULL (an error set) when they cannot. */
static bool array_pair(bctx *c, attu_bexpr **l, attu_bexpr **r, int pos, bool compatible) {
    attu_bexpr *a = *l, *b = *r;
    bool aa = attu_type_is_array(a->type), ba = attu_type_is_array(b->type);
    if (aa && b->type.id == ATTU_TYPE_UNKNOWN) return (*r = coerce(c, b, a->type, false, pos)) != NULL;
    if (ba && a->type.id == ATTU_TYPE_UNKNOWN) return (*l = coerce(c, a, b->type, false, pos)) != NULL;
    if (!aa || !ba) return false;
    attu_type ae = attu_type_array_elem(a->type), be = attu_type_array_elem(b->type), ce;
    /* text[], varchar[] and character[] are three types to anyarray's
     * operators (varchar[] = text[] is 42883), one family to || */
    if (elem_same_kind(ae, be) && (compatible || attu_type_is_varchar_any(ae) == attu_type_is_varchar_any(be)))
        return true;
    /* anyarray operators (=, <, @>) take one array type; array_cat and ||
     * take anycompatiblearray, whose elements meet at a common type */
    if (!compatible || !common_type(ae, be, &ce)) return false;
    attu_type t = attu_type_array_of(ce);
    *l = coerce(c, a, t, false, pos);
    *r = *l ? coerce(c, b, t, false, pos) : NULL;
    return *l && *r;
}

static attu_bexpr *op_missing(bctx *c, const char *op, attu_bexpr *l, attu_bexpr *r, int pos) {
    char b1[64], b2[64];
    if (c->err->set) attu_error_clear(c->err);
    attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "operator does not exist: %s %s %s",
                   tname(l->type, b1), op, tname(r->type, b2));
    attu_error_set_hint(c->err, "No operator matches the given name and argument types. You might need to add explicit type casts.");
    return NULL;
}

/* The keys of a numeric or float array (engine/array.h), text that
 * compares as PostgreSQL's array_eq and array_cmp: '{1.0}' and '{1.00}'
 * one key. Other arrays are their own keys. */
attu_bexpr *attu_array_key_expr(bctx *c, attu_bexpr *a) {
    if (!a || !attu_type_array_shows(a->type)) return a;
    if (json_elems_refused(c, a)) return NULL;
    return arr_call(c, ATTU_ARR_KEY, attu_type_make(ATTU_TYPE_TEXT), a->position, 1, a, NULL, NULL);
}

/* min / max of a jsonb[]: the aggregate compares bytes, so it reads the
 * array coded as its key first (ATTU_ARR_ORDER_CODE) and the result is
 * decoded back (attu_array_order_decode). */
attu_bexpr *attu_array_order_code(bctx *c, attu_bexpr *a) {
    return arr_call(c, ATTU_ARR_ORDER_CODE, attu_type_make(ATTU_TYPE_TEXT), a->position, 1, a, NULL, NULL);
}

attu_bexpr *attu_array_order_decode(bctx *c, attu_bexpr *d, attu_type t) {
    return arr_call(c, ATTU_ARR_ORDER_DECODE, t, d->position, 1, d, NULL, NULL);
}

/* A concatenation of encodings (array_agg's) in its canonical form; of
 * nested ones (array_agg of arrays, nested) one array of one more dimension. */
attu_bexpr *attu_array_canon_expr(bctx *c, attu_bexpr *a, bool nested) {
    attu_bexpr *r = arr_call(c, nested ? ATTU_ARR_NEST_DONE : ATTU_ARR_CANON, a->type, a->position, 1, a, NULL, NULL);
    if (r && nested) r->imm = 1;
    return r;
}

/* = <> < <= > >= of whole arrays: their encoded keys compare as
 * PostgreSQL's array_cmp orders (engine/array.h). */
attu_bexpr *attu_array_compare(bctx *c, attu_opcode text_op, const char *opname, attu_bexpr *l, attu_bexpr *r,
                               int pos) {
    if (!array_pair(c, &l, &r, pos, false)) return c->err->set ? NULL : op_missing(c, opname, l, r, pos);
    if (!(l = attu_array_key_expr(c, l)) || !(r = attu_array_key_expr(c, r))) return NULL;
    return mk_call(c, text_op, attu_type_make(ATTU_TYPE_BOOL), pos, 2, l, r, NULL, NULL);
}

/* A char(n) value going into an array of bpchar: its padded bytes, as
 * PostgreSQL keeps a char(n) value (attu keeps it without the padding:
 * engine/types.h), typed bpchar without a length, whose trailing blanks
 * the array keeps beside the element's key (engine/array.h). */
static attu_bexpr *bpchar_elem(bctx *c, attu_bexpr *x, int pos) {
    if (!x || !attu_type_is_bpchar(x->type)) return x;
    attu_bexpr *p = bpchar_padded(c, x, pos);
    return p ? mk_call(c, ATTU_OP_MOVE, attu_type_bpchar_unbounded(), pos, 1, p, NULL, NULL, NULL) : NULL;
}

/* An element operand coerced to an array's element type (NULL and no error
 * set when there is no implicit cast). */
static attu_bexpr *as_elem(bctx *c, attu_bexpr *x, attu_type arr, int pos) {
    attu_type et = attu_type_array_elem(arr);
    if (et.id == ATTU_TYPE_TEXT && x->type.id == ATTU_TYPE_TEXT && !attu_type_is_array(x->type) &&
        typed_kind(et) == typed_kind(x->type))
        return attu_type_is_bpchar_any(et) ? bpchar_elem(c, x, pos) : x;
    if (attu_type_is_array(x->type)) return NULL;
    attu_bexpr *r = coerce(c, x, et, false, pos);
    if (!r && x->type.id != ATTU_TYPE_UNKNOWN) attu_error_clear(c->err);
    return r;
}

/* An element beside an array where PostgreSQL 15 takes anycompatiblearray
 * and anycompatible (||, array_append, array_prepend, array_position(s),
 * array_remove, array_replace):
 * both meet at the common type of the element types (ARRAY[1] || 2.5 is
 * numeric[]); *arr is recast when its elements change. NULL and no error
 * set when they do not meet. */
static attu_bexpr *compat_elem(bctx *c, attu_bexpr **arr, attu_bexpr *x, int pos) {
    attu_type et = attu_type_array_elem((*arr)->type), ct;
    if (x->type.id == ATTU_TYPE_UNKNOWN || attu_type_is_array(x->type) || x->type.id == et.id)
        return as_elem(c, x, (*arr)->type, pos);
    if (!common_type(et, x->type, &ct)) return NULL;
    if (ct.id == ATTU_TYPE_DECIMAL) ct = attu_type_make(ATTU_TYPE_NUMERIC);
    if (attu_type_is_bpchar_any(ct)) ct = attu_type_bpchar_unbounded();
    if (attu_type_is_bpchar_any(ct)) x = bpchar_elem(c, x, pos);
    if (ct.id != et.id && !(*arr = coerce(c, *arr, attu_type_array_of(ct), false, pos))) return NULL;
    return coerce(c, x, ct, false, pos);
}

/* a || b with an array on either side. */
attu_bexpr *attu_array_concat(bctx *c, attu_bexpr *l, attu_bexpr *r, int pos) {
    bool la = attu_type_is_array(l->type), ra = attu_type_is_array(r->type);
    /* an untyped side is an array, as PostgreSQL resolves anyarray ||
     * unknown to array_cat (ARRAY['a'] || 'b' is 22P02) */
    if ((la && ra) || (la && r->type.id == ATTU_TYPE_UNKNOWN) || (ra && l->type.id == ATTU_TYPE_UNKNOWN)) {
        if (!array_pair(c, &l, &r, pos, true)) return c->err->set ? NULL : op_missing(c, "||", l, r, pos);
        return arr_call(c, ATTU_ARR_CAT, l->type, pos, 2, l, r, NULL);
    }
    attu_bexpr *l0 = l, *r0 = r;
    if (la) {
        attu_bexpr *x = compat_elem(c, &l, r, pos);
        if (!x) return c->err->set ? NULL : op_missing(c, "||", l0, r0, pos);
        return arr_call(c, ATTU_ARR_APPEND, l->type, pos, 2, l, x, NULL);
    }
    attu_bexpr *x = compat_elem(c, &r, l, pos);
    if (!x) return c->err->set ? NULL : op_missing(c, "||", l0, r0, pos);
    return arr_call(c, ATTU_ARR_PREPEND, r->type, pos, 2, x, r, NULL);
}

static attu_bexpr *need_array(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n, int which) {
    attu_bexpr *a = args[which];
    if (a->type.id == ATTU_TYPE_UNKNOWN) {
        attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, e->position,
                       "could not determine polymorphic type because input has type unknown");
        return NULL;
    }
    if (!attu_type_is_array(a->type)) return attu_no_function(c, e, args, n);
    return a;
}

static attu_bexpr *int_arg(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n, int i) {
    attu_bexpr *a = args[i];
    if (a->type.id != ATTU_TYPE_UNKNOWN && !attu_type_is_int(a->type.id)) return attu_no_function(c, e, args, n);
    return coerce(c, a, attu_type_make(ATTU_TYPE_INT32), true, e->position);
}

static attu_bexpr *text_arg(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n, int i) {
    attu_bexpr *a = args[i];
    if (a->type.id != ATTU_TYPE_UNKNOWN && (a->type.id != ATTU_TYPE_TEXT || attu_type_is_array(a->type)))
        return attu_no_function(c, e, args, n);
    return coerce(c, a, attu_type_make(ATTU_TYPE_TEXT), false, e->position);
}

/* An int[] argument (array_fill's dimensions and lower bounds): an
 * integer or smallint array (cast element by element, as PostgreSQL's
 * implicit array coercion) or an untyped literal read as one; a bigint[]
 * has no implicit cast (42883). */
static attu_bexpr *int_array_arg(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n, int i) {
    attu_type ia = attu_type_array_of(attu_type_make(ATTU_TYPE_INT32));
    attu_bexpr *a = args[i];
    if (a->type.id != ATTU_TYPE_UNKNOWN &&
        !(attu_type_is_array(a->type) && (attu_type_array_elem(a->type).id == ATTU_TYPE_INT32 ||
                                          attu_type_array_elem(a->type).id == ATTU_TYPE_INT16)))
        return attu_no_function(c, e, args, n);
    return coerce(c, a, ia, false, e->position);
}

/* array_fill(value anyelement, dims int[] [, lbounds int[]]) -> anyarray:
 * the value's type decides the array's (an untyped literal cannot, 42804;
 * an array has no array type of its own, 42704); the value is carried as
 * its one-element array (a char(n) with its padding, a NULL as a NULL
 * element), repeated by ATTU_ARR_FILL in the shape asked for. */
static attu_bexpr *bind_array_fill(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n) {
    attu_bexpr *x = args[0];
    if (x->type.id == ATTU_TYPE_UNKNOWN) {
        attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, 0,
                       "could not determine polymorphic type because input has type unknown");
        return NULL;
    }
    if (attu_type_is_array(x->type)) {
        char b1[64];
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "could not find array type for data type %s", tname(x->type, b1));
        return NULL;
    }
    if (attu_type_is_record(x->type)) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "array_fill of a record is not supported");
        return NULL;
    }
    attu_bexpr *d = int_array_arg(c, e, args, n, 1), *l = NULL;
    if (!d || (n == 3 && !(l = int_array_arg(c, e, args, n, 2)))) return NULL;
    attu_bexpr *one = attu_array_singleton(c, x, e->position);
    if (!one) return NULL;
    return arr_call(c, ATTU_ARR_FILL, one->type, e->position, n, one, d, l);
}

/* width_bucket(operand anycompatible, thresholds anycompatiblearray) ->
 * integer: the operand and the elements meet at their common type (an
 * untyped thresholds literal is an array of the operand's type). */
attu_bexpr *attu_array_width_bucket(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n) {
    attu_bexpr *x = args[0], *a = args[1];
    int pos = e->position;
    if (attu_type_is_array(x->type)) return attu_no_function(c, e, args, n);
    if (a->type.id == ATTU_TYPE_UNKNOWN) {
        /* both untyped: text, as PostgreSQL resolves anycompatible */
        if (x->type.id == ATTU_TYPE_UNKNOWN && !(x = resolve_unknown(c, x))) return NULL;
        attu_type xt = x->type;
        if (xt.id == ATTU_TYPE_DECIMAL) xt = attu_type_make(ATTU_TYPE_NUMERIC);
        if (!(a = coerce(c, a, attu_type_array_of(varchar_as_text(xt)), false, pos))) return NULL;
    }
    if (!attu_type_is_array(a->type)) return attu_no_function(c, e, args, n);
    if (!(x = compat_elem(c, &a, x, pos))) return c->err->set ? NULL : attu_no_function(c, e, args, n);
    attu_type et = attu_type_array_elem(a->type);
    if (attu_type_is_json(et)) {
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, 0, "could not identify a comparison function for type json");
        return NULL;
    }
    if (attu_type_is_jsonb(et) || attu_type_is_enum(et)) {
        char b1[64];
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "width_bucket of %s thresholds is not supported",
                       tname(a->type, b1));
        return NULL;
    }
    return arr_call(c, ATTU_ARR_WIDTH_BUCKET, attu_type_make(ATTU_TYPE_INT32), pos, 2, x, a, NULL);
}

static bool is_omitted(const attu_ast_expr *x) {
    return x->kind == ATTU_EXPR_FUNC && !strcmp(x->u.func.name, " omitted");
}

bool attu_array_function_name(const char *name) {
    static const char *const names[] = {
        "array_length", "cardinality", "array_lower", "array_upper", "array_ndims", "array_dims",
        "array_position", "array_positions", "array_remove", "array_replace", "array_append",
        "array_prepend", "array_cat", "array_to_string", "string_to_array", "trim_array", "array_fill",
    };
    if (name[0] == ' ') return strcmp(name, " omitted") != 0;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i])) return true;
    return false;
}

/* The string type text-like elements meet at in ARRAY[...]: the first's
 * family, as select_common_type keeps the first of two types that cast
 * implicitly both ways (text, varchar and bpchar do): ARRAY[c, t] of a
 * char(4) c and a text t is character[], ARRAY[t, c] text[]. (CASE lists
 * its ELSE first, so there char(n) meets text as text: mix_type.) t is
 * the common type mix_type gave, first the first non-untyped type. */
static attu_type first_string_family(attu_type t, attu_type first) {
    if (t.id != ATTU_TYPE_TEXT || attu_type_is_array(t) || first.id != ATTU_TYPE_TEXT || attu_type_is_array(first))
        return t;
    if (attu_type_is_bpchar_any(first))
        return attu_type_is_bpchar_any(t) ? t : attu_type_bpchar_unbounded();
    if (attu_type_is_bpchar_any(t))
        return attu_type_is_varchar_any(first) ? attu_type_varchar_unbounded() : attu_type_make(ATTU_TYPE_TEXT);
    return t;
}

/* ARRAY[...]: the elements' common type, as PostgreSQL's ARRAY[] resolves
 * it (select_common_type: ARRAY[1, 2.5] is numeric[]) */
/* ARRAY[sub-arrays] (ARRAY[ARRAY[1,2], ARRAY[3,4]], ARRAY[a, b] of array
 * columns): one array of one more dimension, its elements' type the
 * sub-arrays' common element type; each sub-array a segment of its own
 * (ATTU_ARR_NEST), checked and joined by ATTU_ARR_NEST_DONE (2202E for
 * sub-arrays of different dimensions or a NULL one, as PostgreSQL's). */
static attu_bexpr *bind_array_nest(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n) {
    attu_type t = attu_type_make(ATTU_TYPE_UNKNOWN);
    for (int i = 0; i < n; i++) {
        if (args[i]->type.id == ATTU_TYPE_UNKNOWN) continue;
        attu_type m, et = attu_type_array_elem(args[i]->type);
        if (!attu_type_is_array(args[i]->type) || !mix_type(t, et, &m)) {
            char b1[64], b2[64];
            int epos = args[i]->position ? args[i]->position : e->position;
            if (attu_type_is_array(args[i]->type))   /* two arrays: mix_type_error's 42846 */
                return mix_type_error(c, "ARRAY", attu_type_array_of(t), args[i]->type, epos);
            attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, epos,
                           "ARRAY types %s and %s cannot be matched", tname(attu_type_array_of(t), b1), tname(args[i]->type, b2));
            return NULL;
        }
        t = first_string_family(m, t.id == ATTU_TYPE_UNKNOWN ? et : t);
    }
    if (t.id == ATTU_TYPE_DECIMAL) t = attu_type_make(ATTU_TYPE_NUMERIC);
    attu_type at = attu_type_array_of(t);
    attu_bexpr *acc = empty_array(c, at, e->position);
    for (int i = 0; i < n && acc; i++) {
        attu_bexpr *x = coerce(c, args[i], at, false, e->position);
        if (!x) return NULL;
        acc = arr_call(c, ATTU_ARR_NEST, at, e->position, 2, acc, x, NULL);
    }
    return acc ? arr_call(c, ATTU_ARR_NEST_DONE, at, e->position, 1, acc, NULL, NULL) : NULL;
}

static attu_bexpr *bind_array_ctor(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n) {
    if (n == 0) {
        attu_error_set(c->err, "42P18", e->position, "cannot determine type of empty array");
        attu_error_set_hint(c->err, "Explicitly cast to the desired type, for example ARRAY[]::integer[].");
        return NULL;
    }
    for (int i = 0; i < n; i++) if (attu_type_is_array(args[i]->type)) return bind_array_nest(c, e, args, n);
    attu_type t = attu_type_make(ATTU_TYPE_UNKNOWN);
    for (int i = 0; i < n; i++) {
        attu_type m;
        if (!mix_type(t, args[i]->type, &m))
            return mix_type_error(c, "ARRAY", t, args[i]->type, args[i]->position ? args[i]->position : e->position);
        /* untyped elements (a literal, NULL, a parameter) take the others'
         * type, as in CASE: two of them meeting made text, and then
         * ARRAY['1', 2] or a prepared ARRAY[$1, ts] was 42804 */
        if (args[i]->type.id != ATTU_TYPE_UNKNOWN || t.id != ATTU_TYPE_UNKNOWN)
            t = first_string_family(m, t.id == ATTU_TYPE_UNKNOWN ? args[i]->type : t);
    }
    if (t.id == ATTU_TYPE_UNKNOWN) t = attu_type_make(ATTU_TYPE_TEXT);
    if (t.id == ATTU_TYPE_DECIMAL) t = attu_type_make(ATTU_TYPE_NUMERIC);
    if (attu_range_array_refused(c, t, e->position)) return NULL;
    attu_type at = attu_type_array_of(t);
    attu_type et = attu_type_array_elem(at);
    attu_bexpr *acc = empty_array(c, at, e->position);
    for (int i = 0; i < n && acc; i++) {
        attu_bexpr *x = coerce(c, attu_type_is_bpchar_any(et) ? bpchar_elem(c, args[i], e->position) : args[i], et,
                               false, e->position);
        if (!x) return NULL;
        acc = arr_call(c, ATTU_ARR_APPEND, at, e->position, 2, acc, x, NULL);
    }
    return acc;
}

/* The one-element array of x (array_agg's input), NULL x a NULL element;
 * of an array x, x as one segment (ATTU_ARR_NEST) for ATTU_ARR_NEST_DONE. */
attu_bexpr *attu_array_singleton(bctx *c, attu_bexpr *x, int pos) {
    if (!(x = resolve_unknown(c, x))) return NULL;
    attu_type t = x->type;
    if (attu_range_array_refused(c, t, pos)) return NULL;
    if (attu_type_is_array(t)) {   /* array_agg of arrays: a segment of its own each */
        attu_bexpr *k = empty_array(c, t, pos), *r = k ? arr_call(c, ATTU_ARR_NEST, t, pos, 2, k, x, NULL) : NULL;
        if (r) r->imm = 1;
        return r;
    }
    if (t.id == ATTU_TYPE_DECIMAL) t = attu_type_make(ATTU_TYPE_NUMERIC);
    if (attu_type_is_bpchar_any(t)) { t = attu_type_bpchar_unbounded(); x = bpchar_elem(c, x, pos); }
    if (t.id == ATTU_TYPE_UNKNOWN) {
        char b1[64];
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "arrays of type %s are not supported", tname(t, b1));
        return NULL;
    }
    attu_type at = attu_type_array_of(t);
    if (!(x = coerce(c, x, attu_type_array_elem(at), false, pos))) return NULL;
    attu_bexpr *k = empty_array(c, at, pos);
    return k ? arr_call(c, ATTU_ARR_APPEND, at, pos, 2, k, x, NULL) : NULL;
}

/* ARRAY[x, y]::t[]: PostgreSQL casts each element to t (ARRAY[2.5]::int[]
 * rounds the numeric 2.5, not a float8 array's element) */
attu_bexpr *attu_bind_array_ctor_cast(bctx *c, const scope *sc, const attu_ast_expr *ae, attu_type mt, int pos) {
    attu_type t = attu_type_array_of(attu_type_array_elem(mt));   /* built without the modifier, then given it */
    attu_type et = attu_type_array_elem(t);
    attu_bexpr *acc = empty_array(c, t, ae->position);
    int n = ae->u.func.args.n, narr = 0;
    attu_bexpr **xs = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n + 1));
    if (!xs) { attu_error_oom(c->err); return NULL; }
    for (int i = 0; i < n; i++) {
        if (!(xs[i] = bind_expr(c, sc, ae->u.func.args.items[i]))) return NULL;
        narr += attu_type_is_array(xs[i]->type);
    }
    /* ARRAY[ARRAY[...], ...]::t[]: each sub-array cast to t[] */
    for (int i = 0; i < n && acc; i++) {
        attu_bexpr *xi = !narr && attu_type_is_bpchar_any(et) ? bpchar_elem(c, xs[i], pos) : xs[i];
        attu_bexpr *x = coerce(c, xi, narr ? t : et, true, pos);
        if (!x) return NULL;
        acc = arr_call(c, narr ? ATTU_ARR_NEST : ATTU_ARR_APPEND, t, ae->position, 2, acc, x, NULL);
    }
    if (narr && acc) acc = arr_call(c, ATTU_ARR_NEST_DONE, t, ae->position, 1, acc, NULL, NULL);
    return attu_array_with_mod(c, acc, mt, true, pos);
}

/* x op ANY / ALL (array) */
static attu_bexpr *bind_any(bctx *c, const attu_ast_expr *e, attu_bexpr *x, attu_bexpr *arr) {
    const char *name = e->u.func.name;
    bool all = !strncmp(name, " all", 4);
    const char *op = name + 4;
    static const char *const ops[] = { "=", "<>", "<", "<=", ">", ">=", "!=" };
    int k = -1;
    for (int i = 0; i < 7; i++) if (!strcmp(op, ops[i])) k = i == 6 ? 1 : i;
    int pos = e->position;
    if (arr->type.id == ATTU_TYPE_UNKNOWN) {
        attu_bexpr *xr = x->type.id == ATTU_TYPE_UNKNOWN ? coerce(c, x, attu_type_make(ATTU_TYPE_TEXT), false, pos) : x;
        if (!xr) return NULL;
        x = xr;
        attu_type xt = x->type;
        if (xt.id == ATTU_TYPE_DECIMAL) xt = attu_type_make(ATTU_TYPE_NUMERIC);
        if (attu_type_is_bpchar_any(xt)) xt = attu_type_bpchar_unbounded();
        /* varchar has no operators of its own: PostgreSQL's = is text's,
         * and the array parameter a text[] */
        if (attu_type_is_varchar_any(xt)) xt = attu_type_make(ATTU_TYPE_TEXT);
        if (!(arr = coerce(c, arr, attu_type_array_of(xt), false, pos))) return NULL;
    }
    if (!attu_type_is_array(arr->type)) {
        attu_error_set(c->err, "42809", pos, "op ANY/ALL (array) requires array on right side");
        return NULL;
    }
    attu_type et = attu_type_array_elem(arr->type);
    /* text beside a bpchar array, or a bpchar beside a text array: PostgreSQL
     * picks text's = (text is the preferred string type), the bpchar side
     * read as text, without its trailing blanks */
    if (x->type.id == ATTU_TYPE_TEXT && !attu_type_is_array(x->type) && et.id == ATTU_TYPE_TEXT &&
        attu_type_is_bpchar_any(x->type) != attu_type_is_bpchar_any(et)) {
        attu_type tx = attu_type_make(ATTU_TYPE_TEXT);
        if (attu_type_is_bpchar_any(et)) {
            if (!(arr = coerce(c, arr, attu_type_array_of(tx), false, pos))) return NULL;
            et = tx;
        } else if (!(x = coerce(c, x, tx, false, pos))) {
            return NULL;
        }
    }
    if (k < 0) {
        char b1[64], b2[64];
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "operator does not exist: %s %s %s",
                       tname(x->type, b1), op, tname(et, b2));
        return NULL;
    }
    if (x->type.id == ATTU_TYPE_UNKNOWN) {
        if (!(x = coerce(c, x, et, false, pos))) return NULL;
    } else if (!(x->type.id == ATTU_TYPE_TEXT && et.id == ATTU_TYPE_TEXT && !attu_type_is_array(x->type) &&
                 typed_kind(x->type) == typed_kind(et))) {
        attu_type ct;
        if (attu_type_is_array(x->type) || !common_type(x->type, et, &ct)) {
            char b1[64], b2[64];
            attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "operator does not exist: %s %s %s",
                           tname(x->type, b1), ops[k], tname(et, b2));
            attu_error_set_hint(c->err, "No operator matches the given name and argument types. You might need to add explicit type casts.");
            return NULL;
        }
        if (ct.id == ATTU_TYPE_DECIMAL) ct = attu_type_make(ATTU_TYPE_NUMERIC);
        if (!(x = coerce(c, x, ct, false, pos))) return NULL;
        if (!(arr = coerce(c, arr, attu_type_array_of(ct), false, pos))) return NULL;
    }
    if (attu_type_is_json(attu_type_array_elem(arr->type))) {
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "operator does not exist: json %s json", ops[k]);
        attu_error_set_hint(c->err, "No operator matches the given name and argument types. You might need to add explicit type casts.");
        return NULL;
    }
    if (attu_type_is_jsonb(attu_type_array_elem(arr->type))) {
        /* compared as jsonb compares: the key of x among the elements' keys */
        if (!(arr = jsonb_elem_keys(c, arr)) || !(x = attu_json_key_expr(c, x))) return NULL;
    }
    attu_bexpr *r = arr_call(c, ATTU_ARR_ANY, attu_type_make(ATTU_TYPE_BOOL), pos, 2, x, arr, NULL);
    if (r) r->imm = k + (all ? 8 : 0);
    return r;
}

static bool is_subscript_call(const attu_ast_expr *x) {
    return x->kind == ATTU_EXPR_FUNC && (!strcmp(x->u.func.name, " subscript") || !strcmp(x->u.func.name, " slice"));
}

/* A bound subscript: integer, or untyped (42804 otherwise). */
static attu_bexpr *subscript_arg(bctx *c, const scope *sc, const attu_ast_expr *x, int32_t omitted, int pos) {
    attu_type i4 = attu_type_make(ATTU_TYPE_INT32);
    attu_bexpr *b = is_omitted(x) ? mk_const_int(c, i4, omitted) : bind_expr(c, sc, x);
    if (!b) return NULL;
    if (b->type.id != ATTU_TYPE_UNKNOWN && !is_numeric(b->type.id)) {
        attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, b->position ? b->position : pos,
                       "array subscript must have type integer");
        return NULL;
    }
    return coerce(c, b, i4, true, pos);
}

/* a[i][j]... and a[i:j][k:l]... (several subscripts, as the grammar nests
 * them): one element, NULL unless there is a subscript for each dimension;
 * with any slice among them a slice, where a lone subscript i is 1:i as
 * PostgreSQL's. The subscripts travel as int[]s (ATTU_ARR_SUBSCRIPT_N,
 * ATTU_ARR_SLICE_N). */
static bool bind_subscripts(bctx *c, const scope *sc, const attu_ast_expr *e, bool pairs, attu_bexpr **base,
                            attu_bexpr **lo, attu_bexpr **hi, bool *slice) {
    const attu_ast_expr *chain[ATTU_ARRAY_MAXDIM + 2];
    int n = 0, pos = e->position;
    *slice = false;
    const attu_ast_expr *x = e;
    while (is_subscript_call(x)) {
        if (n == ATTU_ARRAY_MAXDIM) {
            attu_error_set(c->err, "54000", pos, "number of array dimensions (%d) exceeds the maximum allowed (%d)",
                           n + 1, ATTU_ARRAY_MAXDIM);
            return false;
        }
        chain[n++] = x;
        *slice |= !strcmp(x->u.func.name, " slice");
        x = x->u.func.args.items[0];
    }
    attu_bexpr *a = *base = bind_expr(c, sc, x);
    if (!a) return false;
    if (!attu_type_is_array(a->type)) {
        char b1[64];
        attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, a->position ? a->position : pos,
                       "cannot subscript type %s because it does not support subscripting", tname(a->type, b1));
        return false;
    }
    attu_type i4 = attu_type_make(ATTU_TYPE_INT32), ia = attu_type_array_of(i4);
    *lo = empty_array(c, ia, pos);
    *hi = *slice && !pairs ? empty_array(c, ia, pos) : NULL;
    for (int k = n - 1; k >= 0 && *lo; k--) {   /* innermost call first: a[i] is chain[n - 1] */
        const attu_ast_expr *s = chain[k];
        bool is_slice = !strcmp(s->u.func.name, " slice");
        attu_bexpr *l, *h;
        if (is_slice) {
            l = subscript_arg(c, sc, s->u.func.args.items[1], INT32_MIN, pos);
            h = l ? subscript_arg(c, sc, s->u.func.args.items[2], INT32_MAX, pos) : NULL;
        } else {
            h = subscript_arg(c, sc, s->u.func.args.items[1], INT32_MAX, pos);
            l = h && *slice ? mk_const_int(c, i4, 1) : h;
        }
        if (!l || !h) return false;
        *lo = arr_call(c, ATTU_ARR_APPEND, ia, pos, 2, *lo, l, NULL);
        if (pairs) { if (*lo) *lo = arr_call(c, ATTU_ARR_APPEND, ia, pos, 2, *lo, h, NULL); }
        else if (*slice && !(*hi = arr_call(c, ATTU_ARR_APPEND, ia, pos, 2, *hi, h, NULL))) return false;
    }
    return *lo != NULL;
}

/* a[i][j]... and a[i:j][k:l]... (several subscripts, as the grammar nests
 * them): one element, NULL unless there is a subscript for each dimension;
 * with any slice among them a slice, where a lone subscript i is 1:i as
 * PostgreSQL's. The subscripts travel as int[]s (ATTU_ARR_SUBSCRIPT_N,
 * ATTU_ARR_SLICE_N). */
static attu_bexpr *bind_subscript_chain(bctx *c, const scope *sc, const attu_ast_expr *e) {
    attu_bexpr *a, *lo, *hi;
    bool slice;
    if (!bind_subscripts(c, sc, e, false, &a, &lo, &hi, &slice)) return NULL;
    if (slice) return arr_call(c, ATTU_ARR_SLICE_N, a->type, e->position, 3, a, lo, hi);
    return subscript_with_mod(c, arr_call(c, ATTU_ARR_SUBSCRIPT_N, elem_of(a->type), e->position, 2, a, lo, NULL),
                              a->type, e->position);
}

/* UPDATE ... SET a[i] = v, a[i][j] = v, a[i:j] = array (" array_assign" of
 * the subscripted column and the value): ATTU_ARR_ASSIGN with the bounds
 * as one int[] (low, high of each subscript), imm 1 for a slice. */
static attu_bexpr *bind_array_assign(bctx *c, const scope *sc, const attu_ast_expr *e) {
    attu_bexpr *a, *bounds, *hi, *x;
    bool slice;
    if (!bind_subscripts(c, sc, e->u.func.args.items[0], true, &a, &bounds, &hi, &slice)) return NULL;
    if (!(x = bind_expr(c, sc, e->u.func.args.items[1]))) return NULL;
    if (!(x = coerce(c, x, slice ? a->type : attu_type_array_elem(a->type), true, e->position))) return NULL;
    attu_bexpr *r = arr_call(c, ATTU_ARR_ASSIGN, a->type, e->position, 3, a, bounds, x);
    if (r) r->imm = slice;
    return r;
}

attu_bexpr *attu_bind_array_call(bctx *c, const scope *sc, const attu_ast_expr *e) {
    const char *name = e->u.func.name;
    int n = e->u.func.args.n, pos = e->position;
    attu_bexpr *args[100] = { 0 };
    if (n > 100) n = 100;
    if (e->u.func.star || e->u.func.distinct || e->u.func.over) {
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "function %s is not an aggregate function", name);
        return NULL;
    }
    attu_type i4 = attu_type_make(ATTU_TYPE_INT32), txt = attu_type_make(ATTU_TYPE_TEXT);
    if ((!strcmp(name, " slice") || !strcmp(name, " subscript")) && is_subscript_call(e->u.func.args.items[0]))
        return bind_subscript_chain(c, sc, e);
    if (!strcmp(name, " array_assign")) return bind_array_assign(c, sc, e);
    if (!strcmp(name, " slice")) {
        attu_bexpr *a = bind_expr(c, sc, e->u.func.args.items[0]);
        if (!a) return NULL;
        attu_bexpr *b[2];
        for (int i = 0; i < 2; i++) {
            const attu_ast_expr *x = e->u.func.args.items[i + 1];
            b[i] = is_omitted(x) ? mk_const_int(c, i4, i ? INT32_MAX : INT32_MIN) : bind_expr(c, sc, x);
            if (!b[i]) return NULL;
            if (b[i]->type.id != ATTU_TYPE_UNKNOWN && !is_numeric(b[i]->type.id)) {
                attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, b[i]->position ? b[i]->position : pos,
                               "array subscript must have type integer");
                return NULL;
            }
            if (!(b[i] = coerce(c, b[i], i4, true, pos))) return NULL;
        }
        if (!attu_type_is_array(a->type)) {
            char b1[64];
            attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, a->position ? a->position : pos,
                           "cannot subscript type %s because it does not support subscripting", tname(a->type, b1));
            return NULL;
        }
        return arr_call(c, ATTU_ARR_SLICE, a->type, pos, 3, a, b[0], b[1]);
    }
    for (int i = 0; i < n; i++) if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
    if (!strcmp(name, " array")) return bind_array_ctor(c, e, args, n);
    if (!strcmp(name, " array_query")) {
        /* ARRAY(SELECT ...): the scalar subquery of array_agg, '{}' for no rows */
        attu_bexpr *x = args[0], *k = attu_type_is_array(x->type) ? empty_array(c, x->type, pos) : NULL;
        return k ? mk_call(c, ATTU_OP_COALESCE, x->type, pos, 2, x, k, NULL, NULL) : NULL;
    }
    if (!strncmp(name, " any", 4) || !strncmp(name, " all", 4)) return bind_any(c, e, args[0], args[1]);
    if (!strcmp(name, " subscript")) {
        attu_bexpr *a = args[0], *i = args[1];
        if (!attu_type_is_array(a->type)) {
            char b1[64];
            attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, a->position ? a->position : pos,
                           "cannot subscript type %s because it does not support subscripting", tname(a->type, b1));
            return NULL;
        }
        if (i->type.id != ATTU_TYPE_UNKNOWN && !is_numeric(i->type.id)) {
            attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, i->position ? i->position : pos,
                           "array subscript must have type integer");
            return NULL;
        }
        if (!(i = coerce(c, i, i4, true, pos))) return NULL;
        return subscript_with_mod(c, arr_call(c, ATTU_ARR_SUBSCRIPT, elem_of(a->type), pos, 2, a, i, NULL), a->type,
                                  pos);
    }
    if (!strcmp(name, " @>") || !strcmp(name, " <@") || !strcmp(name, " &&")) {
        attu_bexpr *l = args[0], *r = args[1];
        if (attu_range_operands(l, r)) return attu_range_operator(c, name + 1, l, r, pos);   /* planner/range_bind.c */
        if (name[1] != '&' && (attu_type_is_jsonb(l->type) || attu_type_is_jsonb(r->type))) {
            /* jsonb containment (planner/json_bind.c) */
            if (!strcmp(name, " <@")) { attu_bexpr *t = l; l = r; r = t; }
            return attu_json_contains(c, l, r, pos);
        }
        if (!array_pair(c, &l, &r, pos, false)) return c->err->set ? NULL : op_missing(c, name + 1, args[0], args[1], pos);
        if (json_elems_refused(c, l)) return NULL;
        if (!(l = jsonb_elem_keys(c, l)) || !(r = jsonb_elem_keys(c, r))) return NULL;
        if (!strcmp(name, " <@")) { attu_bexpr *t = l; l = r; r = t; }
        return arr_call(c, name[1] == '&' ? ATTU_ARR_OVERLAP : ATTU_ARR_CONTAINS, attu_type_make(ATTU_TYPE_BOOL), pos, 2,
                        l, r, NULL);
    }
    /* the named functions */
    struct { const char *name; attu_array_fn f; int min, max; } fns[] = {
        { "array_length", ATTU_ARR_LENGTH, 2, 2 }, { "cardinality", ATTU_ARR_CARDINALITY, 1, 1 },
        { "array_lower", ATTU_ARR_LOWER, 2, 2 }, { "array_upper", ATTU_ARR_UPPER, 2, 2 },
        { "array_ndims", ATTU_ARR_NDIMS, 1, 1 }, { "array_dims", ATTU_ARR_DIMS, 1, 1 },
        { "array_position", ATTU_ARR_POSITION, 2, 3 }, { "array_positions", ATTU_ARR_POSITIONS, 2, 2 },
        { "array_remove", ATTU_ARR_REMOVE, 2, 2 }, { "array_replace", ATTU_ARR_REPLACE, 3, 3 },
        { "array_append", ATTU_ARR_APPEND, 2, 2 }, { "array_prepend", ATTU_ARR_PREPEND, 2, 2 },
        { "array_cat", ATTU_ARR_CAT, 2, 2 }, { "array_to_string", ATTU_ARR_TO_STRING, 2, 3 },
        { "string_to_array", ATTU_ARR_FROM_STRING, 2, 3 }, { "trim_array", ATTU_ARR_TRIM, 2, 2 },
        { "array_fill", ATTU_ARR_FILL, 2, 3 },
    };
    int k = -1;
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) if (!strcmp(fns[i].name, name)) k = (int)i;
    if (k < 0 || n < fns[k].min || n > fns[k].max) return attu_no_function(c, e, args, n);
    attu_array_fn f = fns[k].f;
    attu_bexpr *a, *b, *x = NULL;
    switch (f) {
    case ATTU_ARR_LENGTH: case ATTU_ARR_LOWER: case ATTU_ARR_UPPER:
        if (!(a = need_array(c, e, args, n, 0)) || !(b = int_arg(c, e, args, n, 1))) return NULL;
        return arr_call(c, f, i4, pos, 2, a, b, NULL);
    case ATTU_ARR_TRIM:
        if (!(a = need_array(c, e, args, n, 0)) || !(b = int_arg(c, e, args, n, 1))) return NULL;
        return arr_call(c, f, a->type, pos, 2, a, b, NULL);
    case ATTU_ARR_CARDINALITY: case ATTU_ARR_NDIMS: case ATTU_ARR_DIMS:
        if (!(a = need_array(c, e, args, n, 0))) return NULL;
        return arr_call(c, f, f == ATTU_ARR_DIMS ? txt : i4, pos, 1, a, NULL, NULL);
    case ATTU_ARR_POSITION: case ATTU_ARR_POSITIONS: case ATTU_ARR_REMOVE: case ATTU_ARR_REPLACE:
        if (!(a = need_array(c, e, args, n, 0))) return NULL;
        if (!(x = compat_elem(c, &a, args[1], pos))) return c->err->set ? NULL : attu_no_function(c, e, args, n);
        if (json_elems_refused(c, a)) return NULL;   /* (jsonb's elements match by their keys: engine/array.c) */
        if (f == ATTU_ARR_REPLACE) {
            attu_bexpr *y = compat_elem(c, &a, args[2], pos);
            if (!y) return c->err->set ? NULL : attu_no_function(c, e, args, n);
            /* y may have widened the elements past x's type */
            if (!(x = coerce(c, x, attu_type_array_elem(a->type), false, pos))) return NULL;
            return arr_call(c, f, a->type, pos, 3, a, x, y);
        }
        if (f == ATTU_ARR_POSITION) {
            attu_bexpr *s = n == 3 ? int_arg(c, e, args, n, 2) : NULL;
            if (n == 3 && !s) return NULL;
            return arr_call(c, f, i4, pos, n, a, x, s);
        }
        return arr_call(c, f, f == ATTU_ARR_POSITIONS ? attu_type_array_of(i4) : a->type, pos, 2, a, x, NULL);
    case ATTU_ARR_APPEND:
        if (!(a = need_array(c, e, args, n, 0))) return NULL;
        if (!(x = compat_elem(c, &a, args[1], pos))) return c->err->set ? NULL : attu_no_function(c, e, args, n);
        return arr_call(c, f, a->type, pos, 2, a, x, NULL);
    case ATTU_ARR_PREPEND:
        if (!(a = need_array(c, e, args, n, 1))) return NULL;
        if (!(x = compat_elem(c, &a, args[0], pos))) return c->err->set ? NULL : attu_no_function(c, e, args, n);
        return arr_call(c, f, a->type, pos, 2, x, a, NULL);
    case ATTU_ARR_CAT: {
        attu_bexpr *l = args[0], *r = args[1];
        if (l->type.id == ATTU_TYPE_UNKNOWN && r->type.id == ATTU_TYPE_UNKNOWN)
            return need_array(c, e, args, n, 0);
        if (!array_pair(c, &l, &r, pos, true)) return c->err->set ? NULL : attu_no_function(c, e, args, n);
        return arr_call(c, f, l->type, pos, 2, l, r, NULL);
    }
    case ATTU_ARR_TO_STRING:
        if (!(a = need_array(c, e, args, n, 0)) || !(b = text_arg(c, e, args, n, 1))) return NULL;
        if (n == 3 && !(x = text_arg(c, e, args, n, 2))) return NULL;
        return arr_call(c, f, txt, pos, n, a, b, n == 3 ? x : NULL);
    case ATTU_ARR_FILL: return bind_array_fill(c, e, args, n);
    case ATTU_ARR_FROM_STRING:
        if (!(a = text_arg(c, e, args, n, 0)) || !(b = text_arg(c, e, args, n, 1))) return NULL;
        if (n == 3 && !(x = text_arg(c, e, args, n, 2))) return NULL;
        return arr_call(c, f, attu_type_array_of(txt), pos, n, a, b, n == 3 ? x : NULL);
    default:
        return attu_no_function(c, e, args, n);
    }
}

/* unnest(a) in the select list: a[k] over k = 1 .. cardinality(a), the
 * series a set-returning generate_series would give (planner/srf.c moves
 * the series into its LP_SRF node and the subscript reads its column), so
 * '{}' and NULL give no rows, as PostgreSQL's unnest. */
attu_bexpr *attu_bind_unnest(bctx *c, const scope *sc, const attu_ast_expr *e) {
    int pos = e->position;
    if (!attu_srf_allowed_here(c, pos)) return NULL;
    int n = e->u.func.args.n;
    attu_bexpr *args[100] = { 0 };
    if (n > 100) n = 100;
    for (int i = 0; i < n; i++) if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
    if (n != 1 || e->u.func.star || e->u.func.distinct || e->u.func.over) return attu_no_function(c, e, args, n);
    attu_bexpr *a = args[0];
    if (a->type.id == ATTU_TYPE_UNKNOWN) return attu_param_not_unique(c, "unnest", args, 1, pos);
    if (!attu_type_is_array(a->type)) return attu_no_function(c, e, args, n);
    attu_bexpr *x = attu_unnest_series(c, a, pos);
    return x ? attu_unnest_element(c, a, x, pos) : NULL;
}

/* unnest's parts: the series of a's subscripts (a BX_SRF) and the element
 * of subscript k. */
attu_bexpr *attu_unnest_series(bctx *c, attu_bexpr *a, int pos) {
    attu_type i4 = attu_type_make(ATTU_TYPE_INT32);
    attu_bexpr *x = attu_bx_new(c->pa, BX_SRF, i4, pos);
    if (!x) { attu_error_oom(c->err); return NULL; }
    x->nargs = 3;
    x->args[0] = mk_const_int(c, i4, 1);
    x->args[1] = arr_call(c, ATTU_ARR_CARDINALITY, i4, pos, 1, a, NULL, NULL);
    x->args[2] = mk_const_int(c, i4, 1);
    if (!x->args[0] || !x->args[1] || !x->args[2]) return NULL;
    return x;
}

attu_bexpr *attu_array_to_string(bctx *c, attu_bexpr *a, attu_bexpr *sep, int pos) {
    return arr_call(c, ATTU_ARR_TO_STRING, attu_type_make(ATTU_TYPE_TEXT), pos, 2, a, sep, NULL);
}

attu_bexpr *attu_unnest_element(bctx *c, attu_bexpr *a, attu_bexpr *k, int pos) {
    return arr_call(c, ATTU_ARR_NTH, elem_of(a->type), pos, 2, a, k, NULL);   /* storage order, every dimension */
}

/* generate_subscripts(a, dim [, reverse]): the series array_lower(a, dim)
 * .. array_upper(a, dim) (reversed: downwards), a set-returning function as
 * generate_series; '{}', NULL and a dimension a lacks give no rows. */
attu_bexpr *attu_bind_generate_subscripts(bctx *c, const scope *sc, const attu_ast_expr *e, bool in_from) {
    int pos = e->position;
    if (!in_from && !attu_srf_allowed_here(c, pos)) return NULL;
    int n = e->u.func.args.n;
    attu_bexpr *args[100] = { 0 };
    if (n > 100) n = 100;
    for (int i = 0; i < n; i++) if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
    if (n < 2 || n > 3 || e->u.func.star || e->u.func.distinct || e->u.func.over) return attu_no_function(c, e, args, n);
    attu_bexpr *a = need_array(c, e, args, n, 0), *d = a ? int_arg(c, e, args, n, 1) : NULL, *rev = NULL;
    if (!d) return NULL;
    bool reverse = false;
    if (n == 3) {
        if (!(rev = coerce_bool(c, args[2], "generate_subscripts"))) return NULL;
        if (rev->kind != BX_CONST) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos,
                           "generate_subscripts takes only a constant reverse flag in attu");
            return NULL;
        }
        reverse = !rev->is_null && rev->i;
    }
    attu_type i4 = attu_type_make(ATTU_TYPE_INT32);
    attu_bexpr *x = attu_bx_new(c->pa, BX_SRF, i4, pos);
    if (!x) { attu_error_oom(c->err); return NULL; }
    /* array_lower .. array_upper of the dimension (NULL, no rows, outside) */
    attu_bexpr *lo = arr_call(c, ATTU_ARR_LOWER, i4, pos, 2, a, d, NULL);
    attu_bexpr *hi = lo ? arr_call(c, ATTU_ARR_UPPER, i4, pos, 2, a, d, NULL) : NULL;
    x->nargs = 3;
    x->args[0] = reverse ? hi : lo;
    x->args[1] = reverse ? lo : hi;
    x->args[2] = mk_const_int(c, i4, reverse ? -1 : 1);
    if (!x->args[0] || !x->args[1] || !x->args[2]) return NULL;
    return x;
}
