/*
 * binder_expr.c - binding scalar expressions: names, literals, operators,
 * casts, CASE, IN, LIKE, BETWEEN (functions and aggregates are in
 * functions.c). Implicit casts follow PostgreSQL's numeric ladder
 * integer -> bigint -> numeric -> real -> double precision, and date ->
 * timestamp; an untyped literal ('...', NULL, a parameter) takes the type
 * its context asks for and is parsed right here, so a bad literal fails at
 * bind time with its position.
 */
#include "engine/interval.h"
#include "planner/binder_internal.h"
#include "engine/domain_type.h"
#include "engine/numeric.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tname(attu_type t, char *buf) {
    if (t.id == ATTU_TYPE_UNKNOWN) return "unknown";
    if (t.id == ATTU_TYPE_DECIMAL || t.id == ATTU_TYPE_NUMERIC) return "numeric";
    return attu_type_name(t, buf, 64);
}

bool is_numeric(attu_type_id t) {
    return attu_type_is_int(t) || t == ATTU_TYPE_DECIMAL ||
           t == ATTU_TYPE_NUMERIC || t == ATTU_TYPE_FLOAT32 || t == ATTU_TYPE_FLOAT64;
}

attu_opcode cmp_opcode_eq(attu_type_id t) {
    if (t == ATTU_TYPE_INTERVAL) return ATTU_OP_EQ_IV;
    attu_mclass mc = attu_type_mclass(t);
    return mc == ATTU_MC_FLOAT ? ATTU_OP_EQ_F : mc == ATTU_MC_TEXT ? ATTU_OP_EQ_S
         : t == ATTU_TYPE_NUMERIC ? ATTU_OP_EQ_N : ATTU_OP_EQ_I;
}

static int num_rank(attu_type_id t) {
    switch (t) {
    case ATTU_TYPE_INT16: return 1;
    case ATTU_TYPE_INT32: return 2;
    case ATTU_TYPE_INT64: return 3;
    case ATTU_TYPE_DECIMAL: case ATTU_TYPE_NUMERIC: return 4;
    case ATTU_TYPE_FLOAT32: return 5;
    case ATTU_TYPE_FLOAT64: return 6;
    default: return 0;
    }
}

/* ---- how many digits an exact value may have --------------------------------
 *
 * PostgreSQL's numeric arithmetic and comparisons never overflow; attu's
 * DECIMAL (a scaled int64) holds 18 digits. So a DECIMAL result, or a
 * DECIMAL rescaled for a comparison, is used only where its digits provably
 * fit; anything wider is computed as NUMERIC (36 digits, a scale per value).
 * An exact_bounds is an upper bound on the digits before the decimal point
 * (intd) and the scale of an exact operand. */
typedef struct { int intd, scale; } exact_bounds;

/* From the type alone: a DECIMAL(p,s) column, an integer type. NUMERIC and
 * floats get an intd no DECIMAL can hold. */
static exact_bounds type_bounds(attu_type t) {
    exact_bounds b = { 99, 0 };
    switch (t.id) {
    case ATTU_TYPE_INT16: b.intd = 5; break;
    case ATTU_TYPE_INT32: b.intd = 10; break;
    case ATTU_TYPE_INT64: b.intd = 19; break;
    case ATTU_TYPE_DECIMAL:
        b.scale = t.scale;
        b.intd = (t.precision > 0 && t.precision <= 18 ? t.precision : 18) - t.scale;
        if (b.intd < 0) b.intd = 0;
        break;
    default: break;
    }
    return b;
}

/* As type_bounds, but a constant (or the negation of one) counts the
 * digits of its value, so `d * 1000` and `d > 1.5` stay DECIMAL where d's
 * own digits leave room. */
static exact_bounds expr_bounds(const attu_bexpr *e) {
    while (e->kind == BX_CALL && (e->op == ATTU_OP_NEG_D || e->op == ATTU_OP_NEG_I) && e->nargs == 1)
        e = e->args[0];
    exact_bounds b = type_bounds(e->type);
    if (e->kind == BX_CONST && !e->is_null &&
        (attu_type_is_int(e->type.id) || e->type.id == ATTU_TYPE_DECIMAL)) {
        uint64_t v = e->i < 0 ? (uint64_t)0 - (uint64_t)e->i : (uint64_t)e->i;
        int digits = 1;
        while (v >= 10) { v /= 10; digits++; }
        b.intd = digits > b.scale ? digits - b.scale : 0;
    }
    return b;
}

/* Whether exact operands of these bounds, rescaled to `scale` places, stay
 * within a DECIMAL's 18 digits. */
static bool bounds_fit(exact_bounds a, exact_bounds b, int scale) {
    return a.intd + scale <= 18 && b.intd + scale <= 18;
}

bool common_type(attu_type a, attu_type b, attu_type *out) {
    if (a.id == ATTU_TYPE_UNKNOWN) { *out = b.id == ATTU_TYPE_UNKNOWN ? attu_type_make(ATTU_TYPE_TEXT) : b; return true; }
    if (b.id == ATTU_TYPE_UNKNOWN) { *out = a; return true; }
    if (attu_type_is_typed_text(a) || attu_type_is_typed_text(b)) {
        /* json, jsonb, uuid and bytea meet only themselves (no implicit casts) */
        if (!attu_type_equal(a, b)) return false;
        *out = a;
        return true;
    }
    if (attu_type_is_array(a) || attu_type_is_array(b)) {
        /* arrays meet at their elements' common type (CASE, UNION of int[]
         * and bigint[]: bigint[]); an array and a non-array do not */
        attu_type e;
        if (!attu_type_is_array(a) || !attu_type_is_array(b)) return false;
        if (attu_type_array_same(a, b)) { *out = a; return true; }
        if (!common_type(attu_type_array_elem(a), attu_type_array_elem(b), &e)) return false;
        *out = attu_type_array_of(e);
        return true;
    }
    if (is_numeric(a.id) && is_numeric(b.id)) {
        /* a NUMERIC operand makes every exact mix NUMERIC */
        if ((a.id == ATTU_TYPE_NUMERIC || b.id == ATTU_TYPE_NUMERIC) &&
            attu_type_mclass(a.id) != ATTU_MC_FLOAT && attu_type_mclass(b.id) != ATTU_MC_FLOAT) {
            *out = attu_type_make(ATTU_TYPE_NUMERIC);
            return true;
        }
        if (a.id == ATTU_TYPE_DECIMAL && b.id == ATTU_TYPE_DECIMAL) {
            int s = a.scale > b.scale ? a.scale : b.scale;
            /* numeric(18,0) and numeric(18,4) meet as values, not at a
             * scale one of them cannot reach */
            *out = bounds_fit(type_bounds(a), type_bounds(b), s) ? attu_type_decimal(18, s)
                                                                 : attu_type_make(ATTU_TYPE_NUMERIC);
            return true;
        }
        attu_type w = num_rank(a.id) >= num_rank(b.id) ? a : b;
        /* real mixed with anything but real resolves to double precision,
         * PostgreSQL's preferred numeric type */
        if (w.id == ATTU_TYPE_FLOAT32 && a.id != b.id) w = attu_type_make(ATTU_TYPE_FLOAT64);
        if (w.id == ATTU_TYPE_DECIMAL) {
            /* an integer meets a decimal as numeric: a bigint (19 digits)
             * or an integer beside a large scale as NUMERIC */
            attu_type o = a.id == ATTU_TYPE_DECIMAL ? a : b;
            w = bounds_fit(type_bounds(a), type_bounds(b), o.scale) ? attu_type_decimal(18, o.scale)
                                                                   : attu_type_make(ATTU_TYPE_NUMERIC);
        }
        *out = w;
        return true;
    }
    if ((a.id == ATTU_TYPE_DATE && b.id == ATTU_TYPE_TIMESTAMP) || (a.id == ATTU_TYPE_TIMESTAMP && b.id == ATTU_TYPE_DATE)) {
        *out = attu_type_make(ATTU_TYPE_TIMESTAMP);
        return true;
    }
    /* timestamptz is the preferred type of the date/time category: a date
     * or a timestamp beside it becomes one (in the session's zone) */
    if ((a.id == ATTU_TYPE_TIMESTAMPTZ && (b.id == ATTU_TYPE_DATE || b.id == ATTU_TYPE_TIMESTAMP)) ||
        (b.id == ATTU_TYPE_TIMESTAMPTZ && (a.id == ATTU_TYPE_DATE || a.id == ATTU_TYPE_TIMESTAMP))) {
        *out = attu_type_make(ATTU_TYPE_TIMESTAMPTZ);
        return true;
    }
    /* time beside a timetz becomes one (time's implicit cast) */
    if ((a.id == ATTU_TYPE_TIME && b.id == ATTU_TYPE_TIMETZ) || (a.id == ATTU_TYPE_TIMETZ && b.id == ATTU_TYPE_TIME)) {
        *out = attu_type_make(ATTU_TYPE_TIMETZ);
        return true;
    }
    if (a.id == b.id) { *out = a; return true; }
    return false;
}

static bool datetime_category(attu_type t) {
    return t.id == ATTU_TYPE_DATE || t.id == ATTU_TYPE_TIME || t.id == ATTU_TYPE_TIMETZ ||
           t.id == ATTU_TYPE_TIMESTAMP || t.id == ATTU_TYPE_TIMESTAMPTZ;
}

void *mix_type_error(bctx *c, const char *what, attu_type a, attu_type b, int pos) {
    char b1[64], b2[64];
    /* (json and jsonb too: one category, neither preferred, cast to each
     * other only by assignment; and two arrays: one category, A; and two
     * range types: R) */
    if ((datetime_category(a) && datetime_category(b)) || (attu_type_is_json_any(a) && attu_type_is_json_any(b)) ||
        (attu_type_is_array(a) && attu_type_is_array(b)) || (attu_type_is_range(a) && attu_type_is_range(b))) {
        /* the first stays chosen: a later one replaces it only where the
         * first casts to it implicitly, which mix_type would have taken */
        attu_error_set(c->err, "42846", pos, "%s could not convert type %s to %s", strcmp(what, "CASE") ? what : "CASE/WHEN",
                       tname(b, b1), tname(a, b2));
    } else {
        attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, pos, "%s types %s and %s cannot be matched", what,
                       tname(a, b1), tname(b, b2));
    }
    return NULL;
}

/* The type of a column of values from several sources (CASE branches,
 * UNION arms, VALUES rows, coalesce / greatest / least arguments). As
 * common_type, except that exact numbers of different scales (1 and 2.5,
 * numeric(10,2) and numeric(10,3)) meet in NUMERIC, which keeps each
 * value's own display scale as PostgreSQL prints it. */
bool mix_type(attu_type a, attu_type b, attu_type *out) {
    if (!common_type(a, b, out)) return false;
    /* arrays keep an element modifier only where every source has it
     * (select_common_typmod): COALESCE(x::char(2)[], '{x}') reads the
     * literal as character[], unpadded */
    if (attu_type_array_has_mod(*out) && a.id != ATTU_TYPE_UNKNOWN &&
        !(attu_type_is_array(a) && attu_type_is_array(b) && attu_type_array_same(a, b)))
        *out = attu_type_array_of(attu_type_array_elem(*out));
    if (a.id == ATTU_TYPE_TEXT && b.id == ATTU_TYPE_TEXT &&
        (attu_type_is_bpchar_any(a) || attu_type_is_bpchar_any(b)) &&
        !(attu_type_is_bpchar(a) && attu_type_is_bpchar(b) && a.precision == b.precision)) {
        /* char(n) meets text: text; char(n) meets char(m) or bpchar:
         * PostgreSQL's bpchar without a length, whose values keep the
         * padding each had. attu keeps char(n) values without it
         * (engine/types.h) and bpchar without a length shows values as
         * kept, so there the char(n) values show unpadded
         * (docs/sql-reference.md) */
        *out = attu_type_is_bpchar_any(a) && attu_type_is_bpchar_any(b) ? attu_type_bpchar_unbounded()
                                                                         : attu_type_make(ATTU_TYPE_TEXT);
        /* a varchar first stays varchar, as PostgreSQL's first type among
         * mutually castable ones (coalesce(v, c) is character varying);
         * the char(n) values read as varchar lose their blanks, which
         * they are kept without */
        if (attu_type_is_varchar_any(a)) *out = attu_type_varchar_unbounded();
        return true;
    }
    /* PostgreSQL's select_common_type climbs the implicit casts (smallint
     * < integer < bigint < numeric < real < double precision), so real
     * beside an exact number stays real (CASE WHEN .. THEN 1.1::real ELSE
     * 1 END prints 1.1); only an operator's resolution prefers double */
    if (out->id == ATTU_TYPE_FLOAT64 && a.id != b.id &&
        ((a.id == ATTU_TYPE_FLOAT32 && is_numeric(b.id) && attu_type_mclass(b.id) != ATTU_MC_FLOAT) ||
         (b.id == ATTU_TYPE_FLOAT32 && is_numeric(a.id) && attu_type_mclass(a.id) != ATTU_MC_FLOAT))) {
        *out = attu_type_make(ATTU_TYPE_FLOAT32);
        return true;
    }
    if (out->id == ATTU_TYPE_DECIMAL && is_numeric(a.id) && is_numeric(b.id)) {
        int sa = a.id == ATTU_TYPE_DECIMAL ? a.scale : 0, sb = b.id == ATTU_TYPE_DECIMAL ? b.scale : 0;
        if (sa != sb) *out = attu_type_make(ATTU_TYPE_NUMERIC);
        /* numeric(p,s) stays so only where every source is one of that
         * typmod (select_common_typmod); else the values meet as numeric
         * without a typmod, held as a DECIMAL (engine/types.h no_typmod) */
        else if (a.id == ATTU_TYPE_DECIMAL && b.id == ATTU_TYPE_DECIMAL && !a.no_typmod && !b.no_typmod &&
                 a.precision == b.precision && a.scale == b.scale)
            *out = a;
        else out->no_typmod = 1;
    }
    /* intervals of different qualifiers meet as a plain interval, as
     * PostgreSQL's select_common_typmod keeps a typmod only all sources
     * share: CREATE TABLE AS of a UNION must not cut an arm's values to
     * the other's fields, nor a literal arm's ('5:30' read as any
     * interval). An unknown a is the callers' seed (or a NULL first,
     * where PostgreSQL drops the typmod: only the typmod shown differs
     * there, no value) and leaves b's */
    if (out->id == ATTU_TYPE_INTERVAL && a.id != ATTU_TYPE_UNKNOWN &&
        !(a.id == b.id && a.precision == b.precision && a.scale == b.scale))
        *out = attu_type_make(ATTU_TYPE_INTERVAL);
    return true;
}

attu_type mix_decimal_typmod(attu_type t, const attu_bexpr *v) {
    if (t.id == ATTU_TYPE_DECIMAL && (!v || v->type.id == ATTU_TYPE_UNKNOWN)) t.no_typmod = 1;
    return t;
}

/* The types whose equality is not their bytes' (bpchar_key; json and
 * jsonpath have none, which bpchar_key reports). */
bool keyed_by_value(attu_type t) {
    return attu_type_is_json_any(t) || attu_type_is_jsonpath(t) || (attu_type_is_bpchar_any(t) && !attu_type_is_bpchar(t)) ||
           attu_type_array_shows(t) || (attu_type_is_range(t) && attu_type_range_kind(t) == ATTU_RANGE_NUM);
}

/* A bpchar without a length keeps its values' trailing blanks (engine/types.h),
 * which PostgreSQL's bpchar equality and ordering ignore: 'a' and 'a ' are
 * one group, one partition, one count(DISTINCT) value, and sort before
 * 'a\t'. Those keys are the value with the blanks stripped (rtrim strips
 * blanks only, as PostgreSQL: a tab stays), a text, so the engine's text
 * keys (codes, hashes, the GPU's included) need no change; what is shown
 * is still a value as kept. A char(n) is kept stripped already. An array
 * of numeric or float is keyed alike, by its elements' values without
 * their scales or a zero's sign (attu_array_key_expr). */
attu_bexpr *bpchar_key(bctx *c, attu_bexpr *a) {
    if (a && attu_type_is_jsonb(a->type)) return attu_json_key_expr(c, a);   /* its order's key (engine/json.h) */
    if (a && (attu_type_is_json(a->type) || attu_type_is_jsonpath(a->type))) {
        /* json and jsonpath have no equality nor order: PostgreSQL
         * refuses to group, sort or compare them (42883) */
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, a->position, "could not identify an equality operator for type %s",
                       attu_type_is_json(a->type) ? "json" : "jsonpath");
        return NULL;
    }
    if (a && attu_type_is_array(a->type) && attu_type_is_json(attu_type_array_elem(a->type))) {
        /* nor has json[]: its elements have no equality */
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, a->position, "could not identify an equality operator for type json[]");
        return NULL;
    }
    if (a && attu_type_array_shows(a->type)) return attu_array_key_expr(c, a);
    if (a && attu_type_is_range(a->type)) return attu_range_key_expr(c, a);   /* a numrange's key (range_bind.c) */
    if (!a || !attu_type_is_bpchar_any(a->type) || attu_type_is_bpchar(a->type)) return a;
    return mk_call(c, ATTU_OP_RTRIM, attu_type_make(ATTU_TYPE_TEXT), a->position, 1, a, NULL, NULL, NULL);
}

/* min / max of a bpchar without a length: PostgreSQL's bpchar_smaller /
 * bpchar_larger compare without the trailing blanks ('a ' is below 'a\t')
 * and keep a value with its own. The engine's text min / max compare
 * bytes, so the aggregate reads the value coded as its key, a 0x01 and
 * its blanks (bpchar_order_code), whose byte order is the key's order,
 * then within one key the fewer blanks first; bpchar_order_decode makes
 * the value again (the 0x01 is the code's last byte before its blanks).
 * A key that itself holds a 0x01 may sort out of place: no text a
 * PostgreSQL client writes by hand has one. */
static attu_bexpr *blank_count(bctx *c, attu_bexpr *a, attu_bexpr *trimmed, int pos) {
    attu_type i8 = attu_type_make(ATTU_TYPE_INT64), tx = attu_type_make(ATTU_TYPE_TEXT);
    attu_bexpr *la = mk_call(c, ATTU_OP_OCTET_LENGTH, i8, pos, 1, a, NULL, NULL, NULL);
    attu_bexpr *lt = la ? mk_call(c, ATTU_OP_OCTET_LENGTH, i8, pos, 1, trimmed, NULL, NULL, NULL) : NULL;
    attu_bexpr *nb = lt ? mk_call(c, ATTU_OP_SUB_I, i8, pos, 2, la, lt, NULL, NULL) : NULL;
    attu_bexpr *sp = nb ? attu_bx_new(c->pa, BX_CONST, tx, pos) : NULL;
    if (!sp) { attu_error_oom(c->err); return NULL; }
    sp->s = " "; sp->slen = 1;
    return mk_call(c, ATTU_OP_REPEAT, tx, pos, 2, sp, nb, NULL, NULL);
}

attu_bexpr *bpchar_order_code(bctx *c, attu_bexpr *a) {
    if (!a || !attu_type_is_bpchar_any(a->type) || attu_type_is_bpchar(a->type)) return a;
    attu_type tx = attu_type_make(ATTU_TYPE_TEXT);
    attu_bexpr *key = bpchar_key(c, a);
    attu_bexpr *blanks = key ? blank_count(c, a, key, a->position) : NULL;
    attu_bexpr *mark = blanks ? attu_bx_new(c->pa, BX_CONST, tx, a->position) : NULL;
    if (!mark) { attu_error_oom(c->err); return NULL; }
    mark->s = "\x01"; mark->slen = 1;
    attu_bexpr *km = mk_call(c, ATTU_OP_CONCAT, tx, a->position, 2, key, mark, NULL, NULL);
    return km ? mk_call(c, ATTU_OP_CONCAT, tx, a->position, 2, km, blanks, NULL, NULL) : NULL;
}

attu_bexpr *bpchar_order_decode(bctx *c, attu_bexpr *d) {
    attu_type tx = attu_type_make(ATTU_TYPE_TEXT);
    int pos = d->position;
    attu_bexpr *km = mk_call(c, ATTU_OP_RTRIM, tx, pos, 1, d, NULL, NULL, NULL);   /* key and 0x01 */
    attu_bexpr *m1 = km ? mk_const_int(c, attu_type_make(ATTU_TYPE_INT64), -1) : NULL;
    attu_bexpr *key = m1 ? mk_call(c, ATTU_OP_LEFT, tx, pos, 2, km, m1, NULL, NULL) : NULL;
    attu_bexpr *blanks = key ? blank_count(c, d, km, pos) : NULL;
    return blanks ? mk_call(c, ATTU_OP_CONCAT, attu_type_bpchar_unbounded(), pos, 2, key, blanks, NULL, NULL) : NULL;
}

attu_bexpr *bpchar_padded(bctx *c, attu_bexpr *a, int pos) {
    /* char(n) values are kept without their trailing spaces (engine/
     * types.h); rpad(a, n) gives the padded bytes PostgreSQL's LIKE,
     * octet_length and concat read */
    if (a && attu_type_is_bpchar_any(a->type) && !attu_type_is_bpchar(a->type))   /* its own spaces kept */
        return mk_call(c, ATTU_OP_MOVE, attu_type_make(ATTU_TYPE_TEXT), pos, 1, a, NULL, NULL, NULL);
    if (!a || !attu_type_is_bpchar(a->type)) return a;
    attu_bexpr *n = mk_const_int(c, attu_type_make(ATTU_TYPE_INT64), a->type.precision);
    return n ? mk_call(c, ATTU_OP_RPAD, attu_type_make(ATTU_TYPE_TEXT), pos, 2, a, n, NULL, NULL) : NULL;
}

attu_type mix_bpchar_literal(attu_type t, const attu_bexpr *v) {
    /* a string literal among char(n) values makes PostgreSQL's bpchar
     * without a length, where the literal keeps its own spaces ('b' shows
     * as 'b', not 'b  '): so here too (mix_type says what the char(n)
     * values show); a NULL keeps char(n) */
    if (v && attu_type_is_bpchar(t) && v->type.id == ATTU_TYPE_UNKNOWN && !(v->kind == BX_CONST && v->is_null))
        return attu_type_bpchar_unbounded();
    return t;
}

attu_type mix_numeric_literal(attu_type t, const attu_bexpr *v) {
    /* a string literal 'NaN' or 'Infinity' beside a DECIMAL (1::numeric,
     * a numeric(p,s) column) makes the NUMERIC that holds it, where
     * PostgreSQL's numeric holds both: the DECIMAL could not; so does one
     * of another scale ('1.5' beside a numeric(10,2) column), which
     * PostgreSQL's numeric of no typmod shows with its own (1.5, not 1.50) */
    attu_numeric n;
    if (t.id == ATTU_TYPE_DECIMAL && v && v->kind == BX_CONST && v->type.id == ATTU_TYPE_UNKNOWN && !v->is_null &&
        v->aux <= 0 && v->s && !attu_numeric_parse(v->s, v->slen, &n, NULL) &&
        (attu_numeric_is_special(n) || n.dscale != t.scale))
        return attu_type_make(ATTU_TYPE_NUMERIC);
    return t;
}

attu_bexpr *mk_call(bctx *c, attu_opcode op, attu_type t, int pos, int nargs, attu_bexpr *a0,
                    attu_bexpr *a1, attu_bexpr *a2, attu_bexpr *a3) {
    /* PostgreSQL's operators and functions give a numeric without a
     * typmod (exprTypmod is -1 but for a length coercion, which bind_cast
     * marks back): a DECIMAL result is attu's holding of such a numeric */
    if (t.id == ATTU_TYPE_DECIMAL) t.no_typmod = 1;
    attu_bexpr *e = attu_bx_new(c->pa, BX_CALL, t, pos);
    if (!e) { attu_error_oom(c->err); return NULL; }
    e->op = op; e->nargs = nargs;
    e->args[0] = a0; e->args[1] = a1; e->args[2] = a2; e->args[3] = a3;
    return e;
}

attu_bexpr *mk_const_int(bctx *c, attu_type t, int64_t v) {
    attu_bexpr *e = attu_bx_new(c->pa, BX_CONST, t, 0);
    if (!e) { attu_error_oom(c->err); return NULL; }
    e->i = v;
    e->f = (double)v;
    return e;
}

attu_bexpr *mk_const_text(bctx *c, const char *s, size_t len, int pos) {
    attu_bexpr *k = attu_bx_new(c->pa, BX_CONST, attu_type_make(ATTU_TYPE_TEXT), pos);
    if (!k || !(k->s = attu_pstrdup(c->pa, s, len))) { attu_error_oom(c->err); return NULL; }
    k->slen = len;
    return k;
}

attu_bexpr *mk_const_cstr(bctx *c, const char *s, int pos) { return mk_const_text(c, s, strlen(s), pos); }

attu_bexpr *mk_const_null(bctx *c, attu_type t) {
    attu_bexpr *e = attu_bx_new(c->pa, BX_CONST, t, 0);
    if (!e) { attu_error_oom(c->err); return NULL; }
    e->is_null = true;
    return e;
}

/* v[0] op v[1] op ... op v[n-1] (n >= 1; AND / OR) as a balanced tree:
 * pairwise rounds, neighbours first, so the tree keeps the list's order
 * and its depth is log n (a left-deep chain of an IN list of thousands of
 * values overflowed the stack of every recursive pass over it). v is
 * overwritten. NULL on no memory. */
attu_bexpr *fold_pairwise(bctx *c, attu_opcode op, attu_bexpr **v, int n, int pos) {
    for (int m = n; m > 1; m = (m + 1) / 2) {
        for (int i = 0; i < m / 2; i++)
            if (!(v[i] = mk_call(c, op, attu_type_make(ATTU_TYPE_BOOL), pos, 2, v[2 * i], v[2 * i + 1], NULL, NULL)))
                return NULL;
        if (m % 2) v[m / 2] = v[m - 1];
    }
    return v[0];
}

/* A constant whose text an input function made canonical: r's text becomes
 * a copy of out[0, n) in the plan arena; out (malloc'd) is freed. NULL when
 * out is NULL (the function's error, at r's position) or on no memory. */
attu_bexpr *cast_refused(bctx *c, attu_type from, attu_type t, bool explicit_cast, int pos) {
    char b1[64], b2[64];
    if (explicit_cast)
        attu_error_set(c->err, "42846", pos, "cannot cast type %s to %s", tname(from, b1), tname(t, b2));
    else
        attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, pos, "%s is of type %s but expression is of type %s",
                       "value", tname(t, b2), tname(from, b1));
    return NULL;
}

attu_bexpr *mk_const_canonical(bctx *c, attu_bexpr *r, char *out, size_t n) {
    if (!out) { c->err->position = r->position; return NULL; }
    r->s = attu_pstrdup(c->pa, out, n);
    free(out);
    if (!r->s) { attu_error_oom(c->err); return NULL; }
    r->slen = n;
    return r;
}

/* Which opcode casts from -> to, or -1; *implicit_ok says whether the cast
 * may be applied silently. */
static int cast_opcode(attu_type from, attu_type to, bool *implicit_ok) {
    attu_type_id f = from.id, t = to.id;
    *implicit_ok = false;
    if (f == t && f != ATTU_TYPE_DECIMAL && f != ATTU_TYPE_FLOAT32) { *implicit_ok = true; return ATTU_OP_MOVE; }
    if (t == ATTU_TYPE_TEXT) return f == ATTU_TYPE_BOOL ? ATTU_OP_CAST_BOOL_S : ATTU_OP_CAST_X_S;
    if (f == ATTU_TYPE_TEXT) return ATTU_OP_CAST_S_X;
    bool fi = attu_type_is_int(f), ti = attu_type_is_int(t);
    bool ff = f == ATTU_TYPE_FLOAT32 || f == ATTU_TYPE_FLOAT64, tf = t == ATTU_TYPE_FLOAT32 || t == ATTU_TYPE_FLOAT64;
    if (fi && ti) { *implicit_ok = num_rank(f) <= num_rank(t); return ATTU_OP_CAST_I_I; }
    if (fi && tf) { *implicit_ok = true; return ATTU_OP_CAST_I_F; }
    if (fi && t == ATTU_TYPE_DECIMAL) { *implicit_ok = true; return ATTU_OP_CAST_I_D; }
    if (ff && ti) return ATTU_OP_CAST_F_I;
    if (ff && tf) { *implicit_ok = num_rank(f) <= num_rank(t); return ATTU_OP_CAST_F_F; }
    if (ff && t == ATTU_TYPE_DECIMAL) return ATTU_OP_CAST_F_D;
    if (f == ATTU_TYPE_DECIMAL && ti) return ATTU_OP_CAST_D_I;
    if (f == ATTU_TYPE_DECIMAL && tf) { *implicit_ok = true; return ATTU_OP_CAST_D_F; }
    if (f == ATTU_TYPE_DECIMAL && t == ATTU_TYPE_DECIMAL) { *implicit_ok = true; return ATTU_OP_CAST_D_D; }
    if (t == ATTU_TYPE_NUMERIC) {
        if (fi) { *implicit_ok = true; return ATTU_OP_CAST_I_N; }
        if (f == ATTU_TYPE_DECIMAL) { *implicit_ok = true; return ATTU_OP_CAST_D_N; }
        if (f == ATTU_TYPE_FLOAT64 || f == ATTU_TYPE_FLOAT32) return ATTU_OP_CAST_F_N;
    }
    if (f == ATTU_TYPE_NUMERIC) {
        if (ti) return ATTU_OP_CAST_N_I;
        if (t == ATTU_TYPE_DECIMAL) { *implicit_ok = true; return ATTU_OP_CAST_N_D; }
        if (tf) { *implicit_ok = true; return ATTU_OP_CAST_N_F; }
    }
    if (f == ATTU_TYPE_BOOL && t == ATTU_TYPE_INT32) return ATTU_OP_CAST_I_I;
    if (f == ATTU_TYPE_INT32 && t == ATTU_TYPE_BOOL) return ATTU_OP_CAST_I_I;
    if (f == ATTU_TYPE_DATE && t == ATTU_TYPE_TIMESTAMP) { *implicit_ok = true; return ATTU_OP_CAST_DATE_TS; }
    if (f == ATTU_TYPE_TIMESTAMP && t == ATTU_TYPE_DATE) return ATTU_OP_CAST_TS_DATE;
    /* (date <-> timestamptz go through timestamp: coerce) */
    if (f == ATTU_TYPE_TIMESTAMP && t == ATTU_TYPE_TIMESTAMPTZ) { *implicit_ok = true; return ATTU_OP_TZ_FROM_LOCAL; }
    if (f == ATTU_TYPE_TIMESTAMPTZ && t == ATTU_TYPE_TIMESTAMP) return ATTU_OP_TZ_TO_LOCAL;
    if (f == ATTU_TYPE_DATE && t == ATTU_TYPE_TIMESTAMPTZ) { *implicit_ok = true; return ATTU_OP_TZ_FROM_LOCAL; }
    if (f == ATTU_TYPE_TIMESTAMPTZ && t == ATTU_TYPE_DATE) return ATTU_OP_TZ_TO_LOCAL;
    /* time: of a timestamp (a timestamptz's through its wall time: coerce)
     * or an interval on assignment; to an interval implicitly */
    if (f == ATTU_TYPE_TIMESTAMP && t == ATTU_TYPE_TIME) return ATTU_OP_TIME_OF_TS;
    if (f == ATTU_TYPE_TIMESTAMPTZ && t == ATTU_TYPE_TIME) return ATTU_OP_TIME_OF_TS;
    if (f == ATTU_TYPE_INTERVAL && t == ATTU_TYPE_TIME) return ATTU_OP_TIME_OF_IV;
    if (f == ATTU_TYPE_TIME && t == ATTU_TYPE_INTERVAL) { *implicit_ok = true; return ATTU_OP_IV_OF_TIME; }
    /* timetz: of a time (implicit, in the session's zone) or a timestamptz;
     * to a time on assignment (coerce gives them the zone) */
    if (f == ATTU_TYPE_TIME && t == ATTU_TYPE_TIMETZ) { *implicit_ok = true; return ATTU_OP_TIMETZ_OF_TIME; }
    if (f == ATTU_TYPE_TIMESTAMPTZ && t == ATTU_TYPE_TIMETZ) return ATTU_OP_TIMETZ_OF_TSTZ;
    if (f == ATTU_TYPE_TIMETZ && t == ATTU_TYPE_TIME) return ATTU_OP_TIME_OF_TIMETZ;
    return -1;
}

int attu_cast_opcode(attu_type from, attu_type to, bool *implicit_ok) { return cast_opcode(from, to, implicit_ok); }

/* Parses an untyped literal's text as type t at bind time. */
static attu_bexpr *parse_literal(bctx *c, attu_bexpr *e, attu_type t, int pos) {
    attu_bexpr *r = attu_bx_new(c->pa, BX_CONST, t, e->position ? e->position : pos);
    if (!r) { attu_error_oom(c->err); return NULL; }
    if (e->is_null) { r->is_null = true; return r; }
    if (attu_type_is_array(t)) return attu_array_parse_literal(c, r, e->s, e->slen);
    if (attu_type_is_json_any(t)) return attu_json_parse_literal(c, r, e->s, e->slen);
    if (attu_type_is_uuid(t) || attu_type_is_bytea(t)) return attu_bytea_parse_literal(c, r, e->s, e->slen);
    if (attu_type_is_jsonpath(t)) return attu_jsonpath_parse_literal(c, r, e->s, e->slen);   /* planner/jsonpath_bind.c */
    if (attu_type_is_range(t)) return attu_range_parse_literal(c, r, e->s, e->slen);   /* planner/range_bind.c */
    if (attu_type_is_enum(t)) return attu_enum_parse_literal(c, r, e->s, e->slen);   /* planner/enum_bind.c */
    if (t.id == ATTU_TYPE_TEXT) {
        r->s = e->s; r->slen = e->slen;
        /* a literal read as char(n) (compared with a char(n) value, or in
         * its IN list) loses its trailing spaces, as char(n) values are
         * kept (engine/types.h): 'a  ' equals the char(3) 'a' */
        if (attu_type_is_bpchar(t)) while (r->slen > 0 && r->s[r->slen - 1] == ' ') r->slen--;
        return r;
    }
    if (t.id == ATTU_TYPE_INTERVAL) {
        /* INTERVAL constants are kept as their 16-byte slot (bytes class) */
        char *slot = attu_palloc(c->pa, 17);
        if (!slot) { attu_error_oom(c->err); return NULL; }
        memset(slot, 0, 17);
        if (attu_value_parse(t, e->s, e->slen, slot, c->err)) { c->err->position = r->position; return NULL; }
        r->s = slot; r->slen = 16;
        return r;
    }
    if (t.id == ATTU_TYPE_NUMERIC) {
        /* NUMERIC constants are kept as their canonical text */
        attu_numeric n;
        char buf[64];
        if (attu_numeric_parse(e->s, e->slen, &n, c->err)) { c->err->position = r->position; return NULL; }
        int l = attu_numeric_format(n, buf, sizeof buf);
        if (!(r->s = attu_pstrdup(c->pa, buf, (size_t)l))) { attu_error_oom(c->err); return NULL; }
        r->slen = (size_t)l;
        return r;
    }
    union { uint8_t b; int32_t i4; int64_t i8; float f4; double f8; } slot;
    memset(&slot, 0, sizeof slot);
    if (attu_value_parse(t, e->s, e->slen, &slot, c->err)) {
        c->err->position = r->position;
        return NULL;
    }
    switch (t.id) {
    case ATTU_TYPE_BOOL: r->i = slot.b; break;
    case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: r->i = slot.i4; break;
    case ATTU_TYPE_FLOAT32: r->f = slot.f4; break;
    case ATTU_TYPE_FLOAT64: r->f = slot.f8; break;
    default: r->i = slot.i8; break;
    }
    return r;
}

attu_bexpr *coerce(bctx *c, attu_bexpr *e, attu_type t, bool explicit_cast, int pos) {
    if (!e) return NULL;
    /* PostgreSQL's operators and functions take a plain interval: an
     * unknown literal beside a column of interval hour is read as any
     * interval ('2' is 2 seconds); only casts and assignments apply a
     * qualifier (bind_interval_qualified) */
    if (attu_type_is_qualified_interval(t)) t = attu_type_make(ATTU_TYPE_INTERVAL);
    if (e->type.id == ATTU_TYPE_UNKNOWN) {
        /* an undeclared parameter ($k: aux) takes the type its first
         * context gives it, as PostgreSQL infers it (params->inferred),
         * without a modifier: `c = $1` with c char(3) is a bpchar $1 */
        const attu_bind_params *bp = c->params;
        if (e->kind == BX_CONST && e->aux > 0 && bp && bp->inferred && e->aux <= bp->n &&
            bp->inferred[e->aux - 1].id == ATTU_TYPE_UNKNOWN)
            bp->inferred[e->aux - 1] = attu_type_param_plain(t);
        if (e->kind == BX_CONST && attu_type_array_has_mod(t)) {
            /* read without the element modifier; a cast then applies it
             * (an assignment too: attu_array_assign), where an operator's
             * operand keeps none, as PostgreSQL's ('{abcd}' beside a
             * char(3)[] is character[]: compared, not cut) */
            attu_bexpr *u = parse_literal(c, e, attu_type_array_of(attu_type_array_elem(t)), pos);
            return explicit_cast ? attu_array_with_mod(c, u, t, true, pos) : u;
        }
        if (e->kind == BX_CONST) return parse_literal(c, e, t, pos);
        e->type = t;
        return e;
    }
    if (attu_type_is_array(e->type) || attu_type_is_array(t)) return attu_array_coerce(c, e, t, explicit_cast, pos);
    if ((attu_type_is_enum(e->type) || attu_type_is_enum(t)) && !attu_type_equal(e->type, t) && !attu_type_is_record(t))
        return attu_enum_coerce(c, e, t, explicit_cast, pos);   /* planner/enum_bind.c */
    if ((attu_type_is_jsonpath(e->type) || attu_type_is_jsonpath(t)) && !attu_type_is_record(e->type) && !attu_type_is_record(t))
        return attu_jsonpath_coerce(c, e, t, explicit_cast, pos);   /* planner/jsonpath_bind.c */
    if ((attu_type_is_range(e->type) || attu_type_is_range(t)) && !attu_type_equal(e->type, t) &&
        !attu_type_is_record(e->type) && !attu_type_is_record(t))
        return attu_range_coerce(c, e, t, explicit_cast, pos);   /* planner/range_bind.c */
    if ((attu_type_is_json_any(e->type) || attu_type_is_json_any(t)) && !attu_type_is_record(e->type) &&
        !attu_type_is_record(t))
        return attu_json_coerce(c, e, t, explicit_cast, pos);   /* planner/json_bind.c */
    if ((attu_type_is_uuid(e->type) || attu_type_is_bytea(e->type) || attu_type_is_uuid(t) || attu_type_is_bytea(t)) &&
        !attu_type_equal(e->type, t) && !attu_type_is_record(e->type) && !attu_type_is_record(t))
        return attu_bytea_coerce(c, e, t, explicit_cast, pos);   /* planner/bytea_bind.c */
    if (attu_type_is_bpchar_any(e->type) && !attu_type_is_bpchar(e->type) && t.id == ATTU_TYPE_TEXT && t.scale == 0)
        /* bpchar without a length keeps its values' spaces (engine/types.h);
         * read as text they go, as PostgreSQL's cast does (a char(n) value
         * is kept without them already) */
        return mk_call(c, ATTU_OP_RTRIM, t, pos, 1, e, NULL, NULL, NULL);
    int op = -1;   /* (-1 at no_cast from the record case: no cast exists) */
    bool ok = false;
    if (attu_type_is_record(e->type) != attu_type_is_record(t) && t.id == ATTU_TYPE_TEXT && !attu_type_is_array(t)) {
        /* a record read as text (its cast, a text operator's operand)
         * is the same bytes; text is never made a record */
        if (attu_type_is_record(t)) goto no_cast;
        return mk_call(c, ATTU_OP_MOVE, t, pos, 1, e, NULL, NULL, NULL);
    }
    if (attu_type_equal(e->type, t)) return e;
    if (e->kind == BX_CONST && e->is_null) { attu_bexpr *n = mk_const_null(c, t); if (n) n->position = e->position; return n; }
    if (e->kind == BX_CONST && attu_type_is_int(e->type.id) && attu_type_is_int(t.id) &&
        e->i >= (t.id == ATTU_TYPE_INT16 ? INT16_MIN : t.id == ATTU_TYPE_INT32 ? INT32_MIN : INT64_MIN) &&
        e->i <= (t.id == ATTU_TYPE_INT16 ? INT16_MAX : t.id == ATTU_TYPE_INT32 ? INT32_MAX : INT64_MAX)) {
        /* an integer constant that fits stays a constant of the new type,
         * so LIMIT 2::smallint and lead(x, 1::int2) see a constant; one
         * that does not fit is left to the cast, which fails where
         * PostgreSQL's does (not in a CASE branch constant-false) */
        attu_bexpr *k = mk_const_int(c, t, e->i);
        if (k) k->position = e->position;
        return k;
    }
    op = cast_opcode(e->type, t, &ok);
    if (op < 0 || (!ok && !explicit_cast)) {
    no_cast:;
        char b1[64], b2[64];
        if (op < 0 && explicit_cast)
            attu_error_set(c->err, "42846", pos, "cannot cast type %s to %s", tname(e->type, b1), tname(t, b2));
        else
            attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, pos, "%s is of type %s but expression is of type %s",
                           "value", tname(t, b2), tname(e->type, b1));
        return NULL;
    }
    if (op == ATTU_OP_MOVE) { attu_bexpr *m = mk_call(c, ATTU_OP_MOVE, t, pos, 1, e, NULL, NULL, NULL); return m; }
    if (t.id == ATTU_TYPE_TIMETZ && (op == ATTU_OP_CAST_S_X || op == ATTU_OP_TIMETZ_OF_TIME || op == ATTU_OP_TIMETZ_OF_TSTZ))
        return tz_call(c, (attu_opcode)op, t, pos, e, NULL);   /* the session's zone in aux */
    if (e->type.id == ATTU_TYPE_TIMESTAMPTZ && t.id == ATTU_TYPE_TIME) {
        /* the time on the session zone's wall clock */
        attu_bexpr *l = tz_call(c, ATTU_OP_TZ_TO_LOCAL, attu_type_make(ATTU_TYPE_TIMESTAMP), pos, e, NULL);
        return l ? mk_call(c, ATTU_OP_TIME_OF_TS, t, pos, 1, l, NULL, NULL, NULL) : NULL;
    }
    if (e->type.id == ATTU_TYPE_TIMESTAMPTZ || t.id == ATTU_TYPE_TIMESTAMPTZ) {
        /* the session's zone rides in aux (planner/timestamptz.c); a date
         * is midnight of its day there */
        attu_type ts = attu_type_make(ATTU_TYPE_TIMESTAMP);
        if (e->type.id == ATTU_TYPE_DATE) e = mk_call(c, ATTU_OP_CAST_DATE_TS, ts, pos, 1, e, NULL, NULL, NULL);
        if (t.id == ATTU_TYPE_DATE) {
            attu_bexpr *l = tz_call(c, ATTU_OP_TZ_TO_LOCAL, ts, pos, e, NULL);
            return l ? mk_call(c, ATTU_OP_CAST_TS_DATE, t, pos, 1, l, NULL, NULL, NULL) : NULL;
        }
        return e ? tz_call(c, (attu_opcode)op, t, pos, e, NULL) : NULL;
    }
    return mk_call(c, (attu_opcode)op, t, pos, 1, e, NULL, NULL, NULL);
}

attu_bexpr *resolve_unknown(bctx *c, attu_bexpr *e) {
    if (e && e->type.id == ATTU_TYPE_UNKNOWN) return coerce(c, e, attu_type_make(ATTU_TYPE_TEXT), false, e->position);
    return e;
}

/* An undeclared parameter's expression read again after a use typed it
 * (the same bound node compared twice): the type that use gave it. */
static attu_bexpr *settle_param(bctx *c, attu_bexpr *e) {
    const attu_bind_params *bp = c->params;
    if (e && is_untyped_param(e) && bp && bp->inferred && e->aux <= bp->n &&
        bp->inferred[e->aux - 1].id != ATTU_TYPE_UNKNOWN)
        return coerce(c, e, bp->inferred[e->aux - 1], true, e->position);
    return e;
}

attu_bexpr *resolve_unknown_untracked(bctx *c, attu_bexpr *e) {
    if (e && is_untyped_param(e)) {
        const attu_bind_params *bp = c->params;
        if (bp && bp->undetermined_uses && e->aux <= bp->n) bp->undetermined_uses[e->aux - 1]++;
        attu_bexpr *copy = attu_bx_new(c->pa, BX_CONST, e->type, e->position);
        if (!copy) { attu_error_oom(c->err); return NULL; }
        *copy = *e;
        copy->aux = 0;
        e = copy;
    }
    return resolve_unknown(c, e);
}

attu_bexpr *coerce_bool(bctx *c, attu_bexpr *e, const char *what) {
    if (!e) return NULL;
    if (e->type.id == ATTU_TYPE_BOOL) return e;
    if (e->type.id == ATTU_TYPE_UNKNOWN) return coerce(c, e, attu_type_make(ATTU_TYPE_BOOL), false, e->position);
    char b[64];
    attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, e->position,
                   "argument of %s must be type boolean, not type %s", what, tname(e->type, b));
    return NULL;
}

/* ---- names ------------------------------------------------------------------ */

static attu_bexpr *bind_column(bctx *c, const scope *sc, const attu_ast_expr *e) {
    const char *q = e->u.column.qualifier, *name = e->u.column.name;
    if (c->domain_value && !q && !strcmp(name, "value")) return c->domain_value;   /* (domain_bind.c) */
    c->last_domain = NULL;
    c->last_vector = false;
    int found = -1;
    bool qual_seen = false;
    /* ATTU_ROWID_INTERNAL finds only a hidden rowid: DELETE and UPDATE
     * name their target's rows by it, even in a table with a column of
     * its own called rowid (which plain `t.rowid` finds first) */
    bool internal = !strcmp(name, ATTU_ROWID_INTERNAL);
    if (internal) name = "rowid";
    for (int i = 0; i < sc->n; i++) {
        const scope_col *sc_ = &sc->cols[i];
        if (internal && !sc_->is_rowid) continue;
        if (q) {
            if (!sc_->qual || strcmp(sc_->qual, q)) continue;
            qual_seen = true;
        } else if ((sc_->hidden && !sc_->is_rowid && !sc_->system) || (sc_->system && sc_->in_join)) continue;
        if (strcmp(sc_->name, name)) continue;
        if (sc_->is_rowid && !q && found >= 0) continue;
        if (found >= 0 && !(sc->cols[found].is_rowid)) {
            if (sc_->is_rowid) continue;
            attu_error_set(c->err, ATTU_SQLSTATE_AMBIGUOUS_COLUMN, e->position,
                           "column reference \"%s\" is ambiguous", name);
            return NULL;
        }
        found = i;
    }
    if (found < 0 && !q && !internal) {
        /* no column of that name: a FROM item's, as a whole-row value
         * (PostgreSQL tries the column first, then the relation) */
        bool rel;
        attu_bexpr *w = attu_bind_whole_row(c, sc, name, e->position, 0, &rel);
        if (rel) return w;
    }
    if (found < 0 && !internal && (c->sql_fn || (c->params && c->params->param_names))) {
        /* a SQL function's parameter, after the body's own columns and
         * before the calling query's (planner/sql_function_bind.c) */
        bool handled;
        attu_bexpr *a = attu_sql_function_param(c, sc, e, false, &handled);
        if (handled) return a;
    }
    if (found < 0 && !internal && !strcmp(name, "tableoid")) {
        /* a user table's system column (PostgreSQL's; a catalog table's
         * is a hidden column of its own, found above) */
        bool hit;
        attu_bexpr *t = attu_bind_user_tableoid(c, sc, q, e->position, &hit);
        if (hit) {
            if (t) t->position = e->position;
            return t;
        }
    }
    if (found < 0 && c->outer && c->outer != sc) {
        /* a correlated reference to the enclosing query */
        const scope *save = c->outer;
        attu_error saved = *c->err;
        c->outer = NULL;
        attu_bexpr *o = bind_column(c, save, e);
        c->outer = save;
        /* a whole-row reference out there: bound again with its items'
         * columns moved (the row's text is no column to move) */
        bool rel = false;
        if (o && attu_type_is_record(o->type) && o->kind != BX_COL)
            o = attu_bind_whole_row(c, save, name, e->position, OUTER_BASE, &rel);
        const bool outer_tableoid = o && o->kind == BX_CONST && !strcmp(name, "tableoid");
        if (outer_tableoid) return o;   /* (an outer table's: a constant) */
        if (o) {
            if (!rel) { o->col += OUTER_BASE; attu_row_value_shift(c, o, OUTER_BASE); }
            c->saw_outer = true;
            return o;
        }
        *c->err = saved;
        /* a query two or more levels out: column k of the query `level`
         * levels out is OUTER_BASE * level + k (the parameterised apply
         * form takes such a subquery, binder.c decorrelate_param) */
        int level = 2;
        for (const outer_link *up = c->outer_up; up; up = up->next, level++) {
            const outer_link *save_up = c->outer_up;
            c->outer = NULL; c->outer_up = NULL;
            o = bind_column(c, up->sc, e);
            c->outer = save; c->outer_up = save_up;
            *c->err = saved;
            bool rel = false;
            if (o && attu_type_is_record(o->type) && o->kind != BX_COL)
                o = attu_bind_whole_row(c, up->sc, name, e->position, OUTER_BASE * level, &rel);
            if (o && o->kind == BX_CONST && !strcmp(name, "tableoid")) return o;
            if (o) {
                if (level >= OUTER_LEVELS_MAX) {
                    attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                                   "a subquery may refer to queries at most %d levels out", OUTER_LEVELS_MAX - 1);
                    return NULL;
                }
                if (!rel) { o->col += OUTER_BASE * level; attu_row_value_shift(c, o, OUTER_BASE * level); }
                c->saw_outer = true;
                return o;
            }
        }
    }
    if (found < 0) {
        if (q && !qual_seen)
            attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_TABLE, e->position,
                           "missing FROM-clause entry for table \"%s\"", q);
        else if (q)
            attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_COLUMN, e->position,
                           "column %s.%s does not exist", q, name);
        else
            attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_COLUMN, e->position,
                           "column \"%s\" does not exist", name);
        return NULL;
    }
    attu_bexpr *b = attu_bx_col(c->pa, found, sc->cols[found].type);
    if (!b) { attu_error_oom(c->err); return NULL; }
    c->last_domain = sc->cols[found].domain;
    c->last_vector = sc->cols[found].vector;
    b->position = e->position;
    attu_row_column_items(c, sc, found, b);   /* a derived table's row column */
    return b;
}

/* ---- literals ---------------------------------------------------------------- */

static attu_bexpr *bind_literal(bctx *c, const attu_ast_expr *e) {
    const char *txt = e->u.literal.text;
    attu_bexpr *b = attu_bx_new(c->pa, BX_CONST, attu_type_make(ATTU_TYPE_UNKNOWN), e->position);
    if (!b) { attu_error_oom(c->err); return NULL; }
    switch (e->u.literal.kind) {
    case ATTU_LIT_NULL: b->is_null = true; return b;
    case ATTU_LIT_BOOL: b->type = attu_type_make(ATTU_TYPE_BOOL); b->i = txt[0] == 't'; return b;
    case ATTU_LIT_STRING: b->s = e->u.literal.text; b->slen = e->u.literal.len; return b;
    case ATTU_LIT_INTEGER: {
        errno = 0;
        char *end;
        long long v = strtoll(txt, &end, 10);
        if (errno == 0 && *end == 0) {
            b->i = v; b->f = (double)v;
            b->type = attu_type_make(v >= INT32_MIN && v <= INT32_MAX ? ATTU_TYPE_INT32 : ATTU_TYPE_INT64);
            return b;
        }
    }
    /* fall through: too big for bigint -> numeric */
    /* fallthrough */
    case ATTU_LIT_NUMERIC: {
        const char *dot = strchr(txt, '.');
        bool has_exp = strpbrk(txt, "eE") != NULL;
        int scale = 0, digits = 0;
        for (const char *p = txt; *p; p++) if (*p >= '0' && *p <= '9') digits++;
        if (dot) for (const char *p = dot + 1; *p >= '0' && *p <= '9'; p++) scale++;
        if (!has_exp && digits <= 18) {
            attu_type t = attu_type_decimal(18, scale);
            int64_t v;
            if (attu_value_parse(t, txt, strlen(txt), &v, c->err)) { c->err->position = e->position; return NULL; }
            b->type = t; b->i = v;
            b->type.no_typmod = 1;   /* PostgreSQL's literal is numeric, typmod -1 */
            return b;
        }
        {
            /* wider than a DECIMAL, or written with an exponent (1.5e3 is
             * numeric 1500, 1e-3 numeric 0.001, as PostgreSQL's
             * numeric_in scales it): a DECIMAL constant where its digits
             * fit, else a NUMERIC one (its canonical text), up to 36 digits */
            attu_numeric n;
            attu_error scratch = { 0 };
            /* (an exponent asking for more than 36 places, 1e-300, would
             * round to 0 here: such a literal stays a double) */
            long places = has_exp ? scale - strtol(strpbrk(txt, "eE") + 1, NULL, 10) : 0;
            if (places > ATTU_NUMERIC_MAX_DIGITS) goto as_double;
            if (!attu_numeric_parse(txt, strlen(txt), &n, &scratch) && has_exp && n.dscale <= 18 &&
                n.m < (__int128)1000000000000000000 && n.m > -(__int128)1000000000000000000) {
                b->type = attu_type_decimal_free(18, n.dscale);
                b->i = (int64_t)n.m;
                return b;
            }
            memset(&scratch, 0, sizeof scratch);
            if (!attu_numeric_parse(txt, strlen(txt), &n, &scratch)) {
                char buf[64];
                int l = attu_numeric_format(n, buf, sizeof buf);
                if (!(b->s = attu_pstrdup(c->pa, buf, (size_t)l))) { attu_error_oom(c->err); return NULL; }
                b->slen = (size_t)l;
                b->type = attu_type_make(ATTU_TYPE_NUMERIC);
                return b;
            }
        }
    as_double:
        b->type = attu_type_make(ATTU_TYPE_FLOAT64);
        errno = 0;
        b->f = strtod(txt, NULL);
        /* beyond double precision (1e400, 1e-400): an error, as float8's
         * input gives one, not Infinity or 0 */
        if (errno == ERANGE && (b->f == 0 || isinf(b->f))) {
            attu_error_set(c->err, ATTU_SQLSTATE_NUMERIC_RANGE, e->position, "\"%s\" is out of range for type double precision",
                           txt);
            return NULL;
        }
        return b;
    }
    }
    return b;
}

/* ---- operators ---------------------------------------------------------------- */

static attu_bexpr *op_error(bctx *c, const char *opname, attu_bexpr *l, attu_bexpr *r, int pos) {
    char b1[64], b2[64];
    if (l)
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "operator does not exist: %s %s %s",
                       tname(l->type, b1), opname, tname(r->type, b2));
    else
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "operator does not exist: %s %s",
                       opname, tname(r->type, b2));
    return NULL;
}

/* PostgreSQL's 42725: several operators take these operand types */
static attu_bexpr *not_unique(bctx *c, const char *opname, attu_bexpr *l, attu_bexpr *r, int pos) {
    char b1[64], b2[64];
    if (l)
        attu_error_set(c->err, "42725", pos, "operator is not unique: %s %s %s", tname(l->type, b1), opname, tname(r->type, b2));
    else
        attu_error_set(c->err, "42725", pos, "operator is not unique: %s %s", opname, tname(r->type, b2));
    return NULL;
}

bool param_placeholder(const bctx *c, const attu_ast_expr *e) {
    return e && e->kind == ATTU_EXPR_PARAM && c->params && !c->params->values;
}

bool is_untyped_param(const attu_bexpr *b) {
    return b->kind == BX_CONST && b->type.id == ATTU_TYPE_UNKNOWN && b->aux > 0;
}

attu_bexpr *bind_compare_op(bctx *c, attu_ast_binary_op op, attu_bexpr *l, attu_bexpr *r, int pos) {
    static const char *names[] = { [ATTU_BINOP_EQ] = "=", [ATTU_BINOP_NE] = "<>", [ATTU_BINOP_LT] = "<",
                                   [ATTU_BINOP_LE] = "<=", [ATTU_BINOP_GT] = ">", [ATTU_BINOP_GE] = ">=" };
    attu_type t;
    /* a row value is kept as its text (row_value.c), whose order is not
     * the record order: compared item by item there. Row constructors
     * compared with each other never get here (the parser compares their
     * items). */
    if (attu_type_is_record(l->type) || attu_type_is_record(r->type)) return attu_row_compare(c, op, l, r, pos);
    /* a time beside an interval compares as one (time's implicit cast) */
    if ((l->type.id == ATTU_TYPE_TIME && r->type.id == ATTU_TYPE_INTERVAL) ||
        (l->type.id == ATTU_TYPE_INTERVAL && r->type.id == ATTU_TYPE_TIME)) {
        attu_type iv = attu_type_make(ATTU_TYPE_INTERVAL);
        if (!(l = coerce(c, l, iv, false, pos)) || !(r = coerce(c, r, iv, false, pos))) return NULL;
    }
    if (attu_type_is_array(l->type) || attu_type_is_array(r->type))
        return attu_array_compare(c, (attu_opcode)(ATTU_OP_EQ_S + (op - ATTU_BINOP_EQ)), names[op], l, r, pos);
    if (attu_type_is_jsonpath(l->type) || attu_type_is_jsonpath(r->type))   /* no jsonpath operators (PostgreSQL) */
        return op_error(c, names[op], l, r, pos);
    if (attu_type_is_json_any(l->type) || attu_type_is_json_any(r->type))   /* jsonb by its key (json_bind.c) */
        return attu_json_compare(c, (attu_opcode)(ATTU_OP_EQ_S + (op - ATTU_BINOP_EQ)), names[op], l, r, pos);
    if (l->type.id == ATTU_TYPE_UNKNOWN && r->type.id == ATTU_TYPE_UNKNOWN) t = attu_type_make(ATTU_TYPE_TEXT);
    else if (!common_type(l->type, r->type, &t)) return op_error(c, names[op], l, r, pos);
    t = mix_numeric_literal(mix_numeric_literal(t, l), r);
    /* Exact values of different scales compare at the larger scale as
     * DECIMALs where both provably fit 18 digits there; common_type judged
     * by the types alone, a constant's own digits may leave room (a
     * numeric(18,2) column against 1.5). Otherwise they compare as NUMERIC
     * values, which never overflow here (PostgreSQL compares any two
     * numerics: a bigint with 1.5, numeric(18,0) with numeric(18,4)). */
    if (t.id == ATTU_TYPE_NUMERIC && l->type.id != ATTU_TYPE_NUMERIC && r->type.id != ATTU_TYPE_NUMERIC &&
        (l->type.id == ATTU_TYPE_DECIMAL || r->type.id == ATTU_TYPE_DECIMAL) &&
        (l->type.id == ATTU_TYPE_DECIMAL || attu_type_is_int(l->type.id)) &&
        (r->type.id == ATTU_TYPE_DECIMAL || attu_type_is_int(r->type.id))) {
        exact_bounds lb = expr_bounds(l), rb = expr_bounds(r);
        int s = lb.scale > rb.scale ? lb.scale : rb.scale;
        if (bounds_fit(lb, rb, s)) t = attu_type_decimal(18, s);
    }
    /* PostgreSQL compares varchars with text's operators (texteq), so an
     * untyped parameter beside a varchar is text (varchar_type.c) */
    t = varchar_as_text(t);
    l = coerce(c, l, t, false, pos);
    r = l ? coerce(c, r, t, false, pos) : NULL;
    if (!l || !r) return NULL;
    if (t.id == ATTU_TYPE_TEXT) {
        /* char(n) against varchar(m) or varchar: PostgreSQL casts the varchar to
         * bpchar, losing its trailing spaces ('bb'::char(3) = 'bb '::
         * varchar(5)); against text the char(n) becomes text instead,
         * which its kept value already is (engine/types.h). A bpchar
         * without a length keeps its values' spaces, which neither its
         * own comparisons nor its cast to text see: they go here. */
        bool lc = attu_type_is_bpchar_any(l->type), rc = attu_type_is_bpchar_any(r->type);
        bool lv = attu_type_is_varchar_any(l->type), rv = attu_type_is_varchar_any(r->type);
        bool lu = lc && !attu_type_is_bpchar(l->type), ru = rc && !attu_type_is_bpchar(r->type);
        if (lu || (rc && lv)) l = mk_call(c, ATTU_OP_RTRIM, attu_type_make(ATTU_TYPE_TEXT), pos, 1, l, NULL, NULL, NULL);
        if (ru || (lc && rv)) r = l ? mk_call(c, ATTU_OP_RTRIM, attu_type_make(ATTU_TYPE_TEXT), pos, 1, r, NULL, NULL, NULL) : NULL;
        if (!l || !r) return NULL;
    }
    if (attu_type_is_range(t) && attu_type_range_kind(t) == ATTU_RANGE_NUM) {
        /* numranges compare by their keys, without the bounds' display
         * scales (engine/range.h) */
        if (!(l = attu_range_key_expr(c, l)) || !(r = attu_range_key_expr(c, r))) return NULL;
    }
    int base = op - ATTU_BINOP_EQ;
    attu_opcode o = (attu_opcode)(cmp_opcode_eq(t.id) + base);
    return mk_call(c, o, attu_type_make(ATTU_TYPE_BOOL), pos, 2, l, r, NULL, NULL);
}

/* An exact operand as a DECIMAL of `scale` places for ADD_D .. MOD_D,
 * which read scaled int64s whatever their precision: a DECIMAL already at
 * that scale is used as it is. */
static attu_bexpr *decimal_at_scale(bctx *c, attu_bexpr *e, int scale, int pos) {
    if (e->type.id == ATTU_TYPE_DECIMAL && e->type.scale == scale) return e;
    return coerce(c, e, attu_type_decimal(18, scale), false, pos);
}

/* The operators of INTERVAL, as PostgreSQL 15 has them: timestamp -
 * timestamp (a date read as a timestamp; an untyped literal beside a
 * timestamp is one), timestamp or date +- interval and interval +
 * timestamp or date (-> timestamp), interval +- interval, interval * / a
 * number and a number * interval (as float8). *done says whether the
 * operands were INTERVAL's; a NULL result with *done is an error. */
static attu_bexpr *bind_interval_arith(bctx *c, attu_ast_binary_op op, attu_bexpr *l, attu_bexpr *r, int pos,
                                       const char *opname, bool *done) {
    attu_type_id lt = l->type.id, rt = r->type.id;
    attu_type iv = attu_type_make(ATTU_TYPE_INTERVAL), ts = attu_type_make(ATTU_TYPE_TIMESTAMP),
              f8 = attu_type_make(ATTU_TYPE_FLOAT64);
    bool add = op == ATTU_BINOP_ADD, sub = op == ATTU_BINOP_SUB, mul = op == ATTU_BINOP_MUL, div = op == ATTU_BINOP_DIV;
    bool ldt = lt == ATTU_TYPE_DATE || lt == ATTU_TYPE_TIMESTAMP, rdt = rt == ATTU_TYPE_DATE || rt == ATTU_TYPE_TIMESTAMP;
    *done = true;
    if (lt == ATTU_TYPE_TIMESTAMPTZ || rt == ATTU_TYPE_TIMESTAMPTZ) {
        /* timestamptz - timestamptz (a date, a timestamp or an untyped
         * literal beside one read as one) -> interval; timestamptz +-
         * interval and interval + timestamptz -> timestamptz, in the
         * session's zone */
        attu_type tz = attu_type_make(ATTU_TYPE_TIMESTAMPTZ);
        bool lz = lt == ATTU_TYPE_TIMESTAMPTZ, rz = rt == ATTU_TYPE_TIMESTAMPTZ;
        if (sub && ((lz && (rz || rdt || rt == ATTU_TYPE_UNKNOWN)) || (rz && (ldt || lt == ATTU_TYPE_UNKNOWN)))) {
            l = coerce(c, l, tz, false, pos);
            r = l ? coerce(c, r, tz, false, pos) : NULL;
            return r ? mk_call(c, ATTU_OP_TS_DIFF, iv, pos, 2, l, r, NULL, NULL) : NULL;
        }
        if (lz && rt == ATTU_TYPE_UNKNOWN && add) { if (!(r = coerce(c, r, iv, false, pos))) return NULL; rt = ATTU_TYPE_INTERVAL; }
        if (rz && lt == ATTU_TYPE_UNKNOWN && add) { if (!(l = coerce(c, l, iv, false, pos))) return NULL; lt = ATTU_TYPE_INTERVAL; }
        if (lz && rt == ATTU_TYPE_INTERVAL && (add || sub))
            return tz_call(c, add ? ATTU_OP_TZ_ADD_IV : ATTU_OP_TZ_SUB_IV, tz, pos, l, r);
        if (rz && lt == ATTU_TYPE_INTERVAL && add) return tz_call(c, ATTU_OP_TZ_ADD_IV, tz, pos, r, l);
        return op_error(c, opname, l, r, pos);
    }
    if (sub && ((lt == ATTU_TYPE_TIMESTAMP && (rdt || rt == ATTU_TYPE_UNKNOWN)) ||
                (lt == ATTU_TYPE_DATE && rt == ATTU_TYPE_TIMESTAMP) || (lt == ATTU_TYPE_UNKNOWN && rt == ATTU_TYPE_TIMESTAMP))) {
        l = coerce(c, l, ts, false, pos);
        r = l ? coerce(c, r, ts, false, pos) : NULL;
        return r ? mk_call(c, ATTU_OP_TS_DIFF, iv, pos, 2, l, r, NULL, NULL) : NULL;
    }
    if (lt == ATTU_TYPE_TIMESTAMP && rt == ATTU_TYPE_UNKNOWN && add) {
        r = coerce(c, r, iv, false, pos);
        rt = ATTU_TYPE_INTERVAL;
        if (!r) return NULL;
    }
    if (lt != ATTU_TYPE_INTERVAL && rt != ATTU_TYPE_INTERVAL) { *done = false; return NULL; }
    if (lt == ATTU_TYPE_INTERVAL && rt == ATTU_TYPE_UNKNOWN) {
        r = coerce(c, r, add || sub ? iv : f8, false, pos);
        if (!r) return NULL;
        rt = r->type.id;
        rdt = false;
    }
    if (rt == ATTU_TYPE_INTERVAL && lt == ATTU_TYPE_UNKNOWN) {
        l = coerce(c, l, add || sub ? iv : f8, false, pos);
        if (!l) return NULL;
        lt = l->type.id;
        ldt = false;
    }
    if (lt == ATTU_TYPE_INTERVAL && rt == ATTU_TYPE_INTERVAL && (add || sub))
        return mk_call(c, add ? ATTU_OP_ADD_IV : ATTU_OP_SUB_IV, iv, pos, 2, l, r, NULL, NULL);
    if (ldt && rt == ATTU_TYPE_INTERVAL && (add || sub)) {
        l = coerce(c, l, ts, false, pos);
        return l ? mk_call(c, add ? ATTU_OP_TS_ADD_IV : ATTU_OP_TS_SUB_IV, ts, pos, 2, l, r, NULL, NULL) : NULL;
    }
    if (lt == ATTU_TYPE_INTERVAL && rdt && add) {
        r = coerce(c, r, ts, false, pos);
        return r ? mk_call(c, ATTU_OP_TS_ADD_IV, ts, pos, 2, r, l, NULL, NULL) : NULL;
    }
    if (lt == ATTU_TYPE_INTERVAL && is_numeric(rt) && (mul || div)) {
        r = coerce(c, r, f8, false, pos);
        return r ? mk_call(c, mul ? ATTU_OP_MUL_IV : ATTU_OP_DIV_IV, iv, pos, 2, l, r, NULL, NULL) : NULL;
    }
    if (rt == ATTU_TYPE_INTERVAL && is_numeric(lt) && mul) {
        l = coerce(c, l, f8, false, pos);
        return l ? mk_call(c, ATTU_OP_MUL_IV, iv, pos, 2, r, l, NULL, NULL) : NULL;
    }
    return op_error(c, opname, l, r, pos);
}

static attu_bexpr *bind_arith(bctx *c, attu_ast_binary_op op, attu_bexpr *l, attu_bexpr *r, int pos) {
    static const char *names[] = { [ATTU_BINOP_ADD] = "+", [ATTU_BINOP_SUB] = "-", [ATTU_BINOP_MUL] = "*",
                                   [ATTU_BINOP_DIV] = "/", [ATTU_BINOP_MOD] = "%", [ATTU_BINOP_POW] = "^" };
    bool iv_done;
    attu_bexpr *tm_res = attu_bind_time_arith(c, op, l, r, pos, names[op], &iv_done);   /* planner/time_type.c */
    if (iv_done) return tm_res;
    attu_bexpr *iv_res = bind_interval_arith(c, op, l, r, pos, names[op], &iv_done);
    if (iv_done) return iv_res;
    attu_type_id lt = l->type.id, rt = r->type.id;
    /* dates */
    if (lt == ATTU_TYPE_DATE || rt == ATTU_TYPE_DATE || lt == ATTU_TYPE_TIMESTAMP) {
        if (lt == ATTU_TYPE_DATE && rt == ATTU_TYPE_UNKNOWN && op == ATTU_BINOP_SUB) {
            r = coerce(c, r, attu_type_make(ATTU_TYPE_DATE), false, pos);
            if (!r) return NULL;
            rt = ATTU_TYPE_DATE;
        }
        /* date + unknown: date + integer, + interval, + time are all
         * PostgreSQL's candidates (42725), for a literal and an untyped
         * parameter alike */
        if (((lt == ATTU_TYPE_DATE && rt == ATTU_TYPE_UNKNOWN) ||
             (rt == ATTU_TYPE_DATE && lt == ATTU_TYPE_UNKNOWN)) && op == ATTU_BINOP_ADD)
            return not_unique(c, names[op], l, r, pos);
        /* timestamp + integer has no operator in PostgreSQL (42883) */
        if (lt == ATTU_TYPE_DATE && (attu_type_is_int(rt) || rt == ATTU_TYPE_UNKNOWN) &&
            (op == ATTU_BINOP_ADD || op == ATTU_BINOP_SUB)) {
            r = coerce(c, r, attu_type_make(ATTU_TYPE_INT32), false, pos);
            if (!r) return NULL;
            return mk_call(c, op == ATTU_BINOP_ADD ? ATTU_OP_DATE_ADD : ATTU_OP_DATE_SUB, l->type, pos, 2, l, r, NULL, NULL);
        }
        if (rt == ATTU_TYPE_DATE && (lt == ATTU_TYPE_INT32 || lt == ATTU_TYPE_INT16) && op == ATTU_BINOP_ADD) {
            l = coerce(c, l, attu_type_make(ATTU_TYPE_INT32), false, pos);
            return l ? mk_call(c, ATTU_OP_DATE_ADD, r->type, pos, 2, r, l, NULL, NULL) : NULL;
        }
        if (lt == ATTU_TYPE_DATE && rt == ATTU_TYPE_DATE && op == ATTU_BINOP_SUB)
            return mk_call(c, ATTU_OP_DATE_DIFF, attu_type_make(ATTU_TYPE_INT32), pos, 2, l, r, NULL, NULL);
        return op_error(c, names[op], l, r, pos);
    }
    if (lt == ATTU_TYPE_UNKNOWN && rt == ATTU_TYPE_UNKNOWN) {
        /* ^ has only numeric-category candidates (float8, numeric): the
         * preferred float8 wins; + - * / % have others too (42725) */
        if (op == ATTU_BINOP_POW) {
            attu_type f8 = attu_type_make(ATTU_TYPE_FLOAT64);
            l = coerce(c, l, f8, false, pos); r = l ? coerce(c, r, f8, false, pos) : NULL;
            return r ? mk_call(c, ATTU_OP_POWER, f8, pos, 2, l, r, NULL, NULL) : NULL;
        }
        return not_unique(c, names[op], l, r, pos);
    }
    if (lt == ATTU_TYPE_UNKNOWN) { l = coerce(c, l, is_numeric(rt) ? mix_numeric_literal(r->type, l) : attu_type_make(ATTU_TYPE_FLOAT64), false, pos); if (!l) return NULL; lt = l->type.id; }
    if (rt == ATTU_TYPE_UNKNOWN) { r = coerce(c, r, is_numeric(lt) ? mix_numeric_literal(l->type, r) : attu_type_make(ATTU_TYPE_FLOAT64), false, pos); if (!r) return NULL; rt = r->type.id; }
    if (!is_numeric(lt) || !is_numeric(rt)) return op_error(c, names[op], l, r, pos);
    bool exact = attu_type_mclass(lt) != ATTU_MC_FLOAT && attu_type_mclass(rt) != ATTU_MC_FLOAT;
    bool has_num = lt == ATTU_TYPE_DECIMAL || lt == ATTU_TYPE_NUMERIC || rt == ATTU_TYPE_DECIMAL || rt == ATTU_TYPE_NUMERIC;
    if (exact && has_num && (op == ATTU_BINOP_POW || op == ATTU_BINOP_DIV ||
                             lt == ATTU_TYPE_NUMERIC || rt == ATTU_TYPE_NUMERIC)) {
        /* numeric ^ and / choose their result scale from the values
         * (power_var, select_div_scale), and a NUMERIC operand carries
         * its own: all compute in NUMERIC */
        attu_type nt = attu_type_make(ATTU_TYPE_NUMERIC);
        l = coerce(c, l, nt, false, pos);
        r = l ? coerce(c, r, nt, false, pos) : NULL;
        if (!r) return NULL;
        attu_opcode o;
        switch (op) {
        case ATTU_BINOP_ADD: o = ATTU_OP_ADD_N; break;
        case ATTU_BINOP_SUB: o = ATTU_OP_SUB_N; break;
        case ATTU_BINOP_MUL: o = ATTU_OP_MUL_N; break;
        case ATTU_BINOP_DIV: o = ATTU_OP_DIV_N; break;
        case ATTU_BINOP_POW: o = ATTU_OP_POWER_N; break;
        default: o = ATTU_OP_MOD_N; break;
        }
        return mk_call(c, o, nt, pos, 2, l, r, NULL, NULL);
    }
    if (op == ATTU_BINOP_POW) {
        attu_type f8 = attu_type_make(ATTU_TYPE_FLOAT64);
        l = coerce(c, l, f8, false, pos); r = l ? coerce(c, r, f8, false, pos) : NULL;
        return r ? mk_call(c, ATTU_OP_POWER, f8, pos, 2, l, r, NULL, NULL) : NULL;
    }
    if (exact && has_num) {
        /* + - * % of DECIMALs (and integers): PostgreSQL's result is an
         * unconstrained numeric, so a DECIMAL result (scaled int64) is
         * used only where its declared precision provably fits 18 digits,
         * typed with that precision; a wider one is NUMERIC. Scales as
         * PostgreSQL: + - % the larger, * the sum. */
        exact_bounds lb = expr_bounds(l), rb = expr_bounds(r);
        int s = lb.scale > rb.scale ? lb.scale : rb.scale, p;
        switch (op) {
        case ATTU_BINOP_MUL: s = lb.scale + rb.scale; p = lb.intd + rb.intd + s; break;
        case ATTU_BINOP_MOD: p = (lb.intd < rb.intd ? lb.intd : rb.intd) + s; break;
        default: p = (lb.intd > rb.intd ? lb.intd : rb.intd) + 1 + s; break;
        }
        if (p > 18 || !bounds_fit(lb, rb, op == ATTU_BINOP_MUL ? 0 : s)) {
            attu_type nt = attu_type_make(ATTU_TYPE_NUMERIC);
            l = coerce(c, l, nt, false, pos);
            r = l ? coerce(c, r, nt, false, pos) : NULL;
            if (!r) return NULL;
            attu_opcode o = op == ATTU_BINOP_ADD ? ATTU_OP_ADD_N : op == ATTU_BINOP_SUB ? ATTU_OP_SUB_N
                          : op == ATTU_BINOP_MUL ? ATTU_OP_MUL_N : ATTU_OP_MOD_N;
            return mk_call(c, o, nt, pos, 2, l, r, NULL, NULL);
        }
        attu_type rt = attu_type_decimal(p < 1 ? 1 : p, s);
        if (op == ATTU_BINOP_MUL) {
            /* MUL_D multiplies the scaled values: the scales add */
            l = decimal_at_scale(c, l, lb.scale, pos);
            r = l ? decimal_at_scale(c, r, rb.scale, pos) : NULL;
            return r ? mk_call(c, ATTU_OP_MUL_D, rt, pos, 2, l, r, NULL, NULL) : NULL;
        }
        l = decimal_at_scale(c, l, s, pos);
        r = l ? decimal_at_scale(c, r, s, pos) : NULL;
        if (!r) return NULL;
        attu_opcode o = op == ATTU_BINOP_ADD ? ATTU_OP_ADD_D : op == ATTU_BINOP_SUB ? ATTU_OP_SUB_D : ATTU_OP_MOD_D;
        return mk_call(c, o, rt, pos, 2, l, r, NULL, NULL);
    }
    attu_type t;
    common_type(l->type, r->type, &t);
    attu_mclass mc = attu_type_mclass(t.id);
    l = coerce(c, l, t, false, pos);
    r = l ? coerce(c, r, t, false, pos) : NULL;
    if (!r) return NULL;
    attu_opcode o;
    switch (op) {
    case ATTU_BINOP_ADD: o = mc == ATTU_MC_FLOAT ? ATTU_OP_ADD_F : ATTU_OP_ADD_I; break;
    case ATTU_BINOP_SUB: o = mc == ATTU_MC_FLOAT ? ATTU_OP_SUB_F : ATTU_OP_SUB_I; break;
    case ATTU_BINOP_MUL: o = mc == ATTU_MC_FLOAT ? ATTU_OP_MUL_F : ATTU_OP_MUL_I; break;
    case ATTU_BINOP_DIV: o = mc == ATTU_MC_FLOAT ? ATTU_OP_DIV_F : ATTU_OP_DIV_I; break;
    default: o = mc == ATTU_MC_FLOAT ? ATTU_OP_MOD_F : ATTU_OP_MOD_I; break;
    }
    return mk_call(c, o, t, pos, 2, l, r, NULL, NULL);
}

/* A row compared with a value that is not a row (rows with rows the
 * parser already split into pairs): PostgreSQL has no such operator,
 * record = integer, and says so at the operator after binding the other
 * side (whose own errors come first). */
static bool row_operand(const attu_ast_expr *e) {
    return e->kind == ATTU_EXPR_FUNC && !e->u.func.schema && e->u.func.name && !strcmp(e->u.func.name, "row");
}

static attu_bexpr *record_operator_error(bctx *c, const scope *sc, const attu_ast_expr *e) {
    bool left_row = row_operand(e->u.binary.left);
    attu_bexpr *other = bind_expr(c, sc, left_row ? e->u.binary.right : e->u.binary.left);
    if (!other) return NULL;
    if (attu_type_is_record(other->type)) {
        /* a whole-row reference or a row column beside a constructor:
         * record comparison (row_value.c) */
        attu_bexpr *row = bind_expr(c, sc, left_row ? e->u.binary.left : e->u.binary.right);
        if (!row) return NULL;
        return attu_row_compare(c, e->u.binary.op, left_row ? row : other, left_row ? other : row, e->position);
    }
    char buf[64];
    const char *tn = tname(other->type, buf);
    attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, e->position, "operator does not exist: %s %s %s",
                   left_row ? "record" : tn, e->u.binary.op_text ? e->u.binary.op_text : attu_ast_binary_op_name(e->u.binary.op),
                   left_row ? tn : "record");
    return NULL;
}

static attu_bexpr *bind_binary(bctx *c, const scope *sc, const attu_ast_expr *e) {
    if (e->u.binary.op >= ATTU_BINOP_EQ && e->u.binary.op <= ATTU_BINOP_GE) {
        if (attu_is_row_subquery(e)) return attu_bind_row_subquery(c, sc, e);
        if (row_operand(e->u.binary.left) != row_operand(e->u.binary.right)) return record_operator_error(c, sc, e);
    }
    /* AND / OR: either operand may go unevaluated for a row (the second
     * where the first decides; in a filter PostgreSQL runs the cheaper
     * conjuncts first, so a subquery's may be the one skipped) */
    bool lazy = e->u.binary.op == ATTU_BINOP_AND || e->u.binary.op == ATTU_BINOP_OR;
    c->cond_depth += lazy;
    attu_bexpr *l = bind_expr(c, sc, e->u.binary.left);
    attu_bexpr *r = l ? bind_expr(c, sc, e->u.binary.right) : NULL;
    c->cond_depth -= lazy;
    if (!r) return NULL;
    int pos = e->position;
    attu_type b = attu_type_make(ATTU_TYPE_BOOL);
    switch (e->u.binary.op) {
    case ATTU_BINOP_AND: case ATTU_BINOP_OR:
        l = coerce_bool(c, l, e->u.binary.op == ATTU_BINOP_AND ? "AND" : "OR");
        r = l ? coerce_bool(c, r, e->u.binary.op == ATTU_BINOP_AND ? "AND" : "OR") : NULL;
        return r ? mk_call(c, e->u.binary.op == ATTU_BINOP_AND ? ATTU_OP_AND : ATTU_OP_OR, b, pos, 2, l, r, NULL, NULL) : NULL;
    case ATTU_BINOP_EQ: case ATTU_BINOP_NE: case ATTU_BINOP_LT: case ATTU_BINOP_LE: case ATTU_BINOP_GT: case ATTU_BINOP_GE:
        /* (an OID compared with 'name'::regproc: the function's OID) */
        if (!attu_bind_regproc_operands(c, sc, e, &l, &r)) return NULL;
        return bind_compare_op(c, e->u.binary.op, l, r, pos);
    case ATTU_BINOP_IS_DISTINCT: case ATTU_BINOP_IS_NOT_DISTINCT: {
        if (attu_type_is_record(l->type) || attu_type_is_record(r->type))
            return attu_row_compare(c, e->u.binary.op, l, r, pos);
        attu_bexpr *eq = bind_compare_op(c, ATTU_BINOP_EQ, l, r, pos);
        if (!eq) return NULL;
        l = eq->args[0]; r = eq->args[1];
        attu_bexpr *t1 = mk_call(c, ATTU_OP_IS_TRUE, b, pos, 1, eq, NULL, NULL, NULL);
        attu_bexpr *bn = mk_call(c, ATTU_OP_AND, b, pos, 2, mk_call(c, ATTU_OP_IS_NULL, b, pos, 1, l, NULL, NULL, NULL),
                                 mk_call(c, ATTU_OP_IS_NULL, b, pos, 1, r, NULL, NULL, NULL), NULL, NULL);
        attu_bexpr *nd = mk_call(c, ATTU_OP_OR, b, pos, 2, t1, bn, NULL, NULL);
        if (e->u.binary.op == ATTU_BINOP_IS_NOT_DISTINCT) return nd;
        return mk_call(c, ATTU_OP_NOT, b, pos, 1, nd, NULL, NULL, NULL);
    }
    case ATTU_BINOP_CONCAT: {
        attu_type t = attu_type_make(ATTU_TYPE_TEXT);
        bool handled;
        attu_bexpr *jc = attu_json_binary(c, true, l, r, pos, &handled);
        if (handled) return jc;
        if (attu_type_is_array(l->type) || attu_type_is_array(r->type)) return attu_array_concat(c, l, r, pos);
        jc = attu_bytea_concat(c, l, r, pos, &handled);   /* bytea || bytea (planner/bytea_bind.c) */
        if (handled) return jc;
        /* uuid || uuid has no operator either: one side must be text */
        if ((l->type.id != ATTU_TYPE_TEXT || attu_type_is_typed_text(l->type)) &&
            (r->type.id != ATTU_TYPE_TEXT || attu_type_is_typed_text(r->type)) && l->type.id != ATTU_TYPE_UNKNOWN &&
            r->type.id != ATTU_TYPE_UNKNOWN)
            return op_error(c, "||", l, r, pos);
        /* PostgreSQL's || of non-strings takes text on one side (text ||
         * anynonarray, anynonarray || text): two non-text operands have
         * no operator (integer || integer, 42883) */
        if (l->type.id != ATTU_TYPE_TEXT && l->type.id != ATTU_TYPE_UNKNOWN &&
            r->type.id != ATTU_TYPE_TEXT && r->type.id != ATTU_TYPE_UNKNOWN)
            return op_error(c, "||", l, r, pos);
        l = coerce(c, l, t, true, pos);
        r = l ? coerce(c, r, t, true, pos) : NULL;
        return r ? mk_call(c, ATTU_OP_CONCAT, t, pos, 2, l, r, NULL, NULL) : NULL;
    }
    default:
        if (attu_range_operands(l, r) &&
            (e->u.binary.op == ATTU_BINOP_ADD || e->u.binary.op == ATTU_BINOP_SUB || e->u.binary.op == ATTU_BINOP_MUL ||
             e->u.binary.op == ATTU_BINOP_DIV || e->u.binary.op == ATTU_BINOP_MOD))   /* union, difference, intersection */
            return attu_range_operator(c, attu_ast_binary_op_name(e->u.binary.op), l, r, pos);
        if (e->u.binary.op == ATTU_BINOP_SUB) {
            bool handled;
            attu_bexpr *jd = attu_json_binary(c, false, l, r, pos, &handled);   /* jsonb - key */
            if (handled) return jd;
        }
        return bind_arith(c, e->u.binary.op, l, r, pos);
    }
}

static attu_bexpr *bind_case(bctx *c, const scope *sc, const attu_ast_expr *e) {
    int n = e->u.case_.nwhens;
    attu_bexpr *x = attu_bx_new(c->pa, BX_CASE, attu_type_make(ATTU_TYPE_UNKNOWN), e->position);
    if (!x) { attu_error_oom(c->err); return NULL; }
    x->nwhens = n;
    x->whens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)n);
    x->thens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)n);
    attu_bexpr *operand = NULL;
    if (e->u.case_.operand && !(operand = bind_expr(c, sc, e->u.case_.operand))) return NULL;
    /* an untyped literal or parameter as the operand is text, as
     * PostgreSQL's (CASE '1' WHEN 1 is text = integer, 42883) */
    if (operand && operand->type.id == ATTU_TYPE_UNKNOWN &&
        !(operand = coerce(c, operand, attu_type_make(ATTU_TYPE_TEXT), false, operand->position)))
        return NULL;
    attu_type t = attu_type_make(ATTU_TYPE_UNKNOWN);
    for (int i = 0; i < n; i++) {
        /* only the first condition runs for every row */
        c->cond_depth += i > 0;
        attu_bexpr *w = bind_expr(c, sc, e->u.case_.whens[i].when);
        c->cond_depth -= i > 0;
        if (!w) return NULL;
        if (operand) { if (!(w = bind_compare_op(c, ATTU_BINOP_EQ, operand, w, e->u.case_.whens[i].when->position))) return NULL; }
        else if (!(w = coerce_bool(c, w, "CASE/WHEN"))) return NULL;
        x->whens[i] = w;
        c->cond_depth++;
        x->thens[i] = bind_expr(c, sc, e->u.case_.whens[i].then);
        c->cond_depth--;
        if (!x->thens[i]) return NULL;
    }
    c->cond_depth++;
    if (e->u.case_.else_) x->else_ = bind_expr(c, sc, e->u.case_.else_);
    c->cond_depth--;
    if (e->u.case_.else_ && !x->else_) return NULL;
    /* the ELSE first, as PostgreSQL's transformCaseExpr lists the results:
     * the first of text and varchar decides (CASE WHEN .. THEN v ELSE t
     * END is text, THEN t ELSE v varchar: varchar_type.c) */
    for (int k = 0; k <= n; k++) {
        attu_bexpr *v = k == 0 ? x->else_ : x->thens[k - 1];
        if (!v) continue;
        attu_type nt;
        if (!mix_type(t, v->type, &nt) && v->type.id != ATTU_TYPE_UNKNOWN) return mix_type_error(c, "CASE", t, v->type, v->position);
        if (v->type.id != ATTU_TYPE_UNKNOWN || t.id != ATTU_TYPE_UNKNOWN) t = nt;
    }
    if (t.id == ATTU_TYPE_UNKNOWN) t = attu_type_make(ATTU_TYPE_TEXT);
    for (int i = 0; i <= n; i++) t = mix_numeric_literal(mix_bpchar_literal(t, i < n ? x->thens[i] : x->else_), i < n ? x->thens[i] : x->else_);
    for (int i = 0; i <= n; i++) t = mix_decimal_typmod(mix_varchar_length(t, i < n ? x->thens[i] : x->else_), i < n ? x->thens[i] : x->else_);
    for (int i = 0; i < n; i++) if (!(x->thens[i] = coerce(c, x->thens[i], t, false, x->thens[i]->position))) return NULL;
    if (x->else_ && !(x->else_ = coerce(c, x->else_, t, false, x->else_->position))) return NULL;
    x->type = t;
    return x;
}

/* x IN (v1, ..., vn) is the OR of the n comparisons (three-valued: TRUE
 * when one matches, else NULL when x or some v is NULL, else FALSE). The
 * ORs form a balanced tree, log2(n) deep: a chain of 20,000 (a long IN
 * list) made every later walk of the expression recurse 20,000 deep, past
 * the worker's stack. */
static attu_bexpr *bind_in_list(bctx *c, const scope *sc, const attu_ast_expr *e) {
    attu_bexpr *arg = bind_expr(c, sc, e->u.in_list.arg);
    if (!arg) return NULL;
    int n = e->u.in_list.list.n;
    attu_bexpr **eqs = attu_palloc(c->pa, sizeof *eqs * (size_t)(n > 0 ? n : 1));
    if (!eqs) { attu_error_oom(c->err); return NULL; }
    for (int i = 0; i < n; i++) {
        attu_bexpr *v = bind_expr(c, sc, e->u.in_list.list.items[i]);
        if (!v) return NULL;
        /* PostgreSQL gives an IN list its arguments' common type before
         * comparing, so an untyped parameter in a varchar's list is a
         * varchar (= alone would make it text: bind_compare_op, and so
         * does a list of one, which PostgreSQL reads as =) */
        if (attu_type_is_varchar_any(arg->type) && is_untyped_param(v) && n > 1 &&
            !(v = coerce(c, v, attu_type_varchar_unbounded(), false, e->position)))
            return NULL;
        if (!(eqs[i] = bind_compare_op(c, ATTU_BINOP_EQ, arg, v, e->position))) return NULL;
    }
    attu_bexpr *acc = n > 0 ? fold_pairwise(c, ATTU_OP_OR, eqs, n, e->position) : NULL;
    if (n > 0 && !acc) return NULL;
    if (acc && e->u.in_list.negated)
        acc = mk_call(c, ATTU_OP_NOT, attu_type_make(ATTU_TYPE_BOOL), e->position, 1, acc, NULL, NULL, NULL);
    return acc;
}

/* a as plain text, as an explicit cast would make it */
static attu_bexpr *bind_cast_plain_text(bctx *c, attu_bexpr *a, int pos) {
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT);
    if (attu_type_is_record(a->type)) return mk_call(c, ATTU_OP_MOVE, txt, pos, 1, a, NULL, NULL, NULL);
    /* a bpchar without a length keeps its trailing blanks: its text, as
     * PostgreSQL's cast, is without them (('ab  '::bpchar)::varchar(3) is
     * 'ab') */
    if (attu_type_is_bpchar_any(a->type) && !attu_type_is_bpchar(a->type))
        return mk_call(c, ATTU_OP_RTRIM, txt, pos, 1, a, NULL, NULL, NULL);
    if (a->type.id == ATTU_TYPE_TEXT && !attu_type_is_enum(a->type) && !attu_type_is_range(a->type)) return a;
    return coerce(c, a, txt, true, pos);
}

/* The scale numeric_in gives a text literal: its places after the point
 * less its exponent (' 1.5 ' is 1.5, '1.5e3' 1500), 0 for text that is no
 * number (the cast reports it). Counting the characters after the point
 * took trailing spaces and exponents for places (' 1.5 '::numeric was
 * 1.50). */
static int text_literal_scale(const char *s, size_t len) {
    attu_numeric n;
    attu_error scratch = { 0 };
    if (attu_numeric_parse(s, len, &n, &scratch) || attu_numeric_is_special(n)) return 0;
    return n.dscale;
}

/* Whether a text literal is a number of more digits than a DECIMAL holds
 * ('1.5e30'::numeric), NaN or an infinity: it becomes a NUMERIC, as a
 * text column does. */
static bool text_literal_wide(const char *s, size_t len) {
    attu_numeric n;
    attu_error scratch = { 0 };
    if (attu_numeric_parse(s, len, &n, &scratch)) return false;
    if (attu_numeric_is_special(n)) return true;
    return n.m >= (__int128)1000000000000000000 || n.m <= -(__int128)1000000000000000000;
}

/* A value as an interval of the fields range (ATTU_IVF_* bits, 0: all)
 * and prec fractional-second digits (-1: all): a cast (INTERVAL '...' DAY
 * TO HOUR, x::interval second(2)) or an assignment to a qualified column.
 * The result's type carries the qualifier (types.h attu_type_interval), as
 * PostgreSQL's typmod. Constants are done at bind time, a literal's text
 * read by the fields (its bare numbers in the last one: '2' HOUR is two
 * hours); any other value becomes a plain interval first (text as any
 * interval, '2' two seconds, as PostgreSQL's cast through interval_in
 * then its length coercion), then QUALIFY_IV drops the fields below the
 * last toward zero and rounds the seconds. */
attu_bexpr *bind_interval_qualified(bctx *c, attu_bexpr *a, int range, int prec, int pos) {
    attu_type t = attu_type_interval(range, prec);
    bool param = a->kind == BX_CONST && a->type.id == ATTU_TYPE_UNKNOWN && a->aux > 0;   /* an untyped $k */
    if (a->kind != BX_CONST || param || (a->type.id != ATTU_TYPE_UNKNOWN && a->type.id != ATTU_TYPE_TEXT &&
                                         a->type.id != ATTU_TYPE_INTERVAL)) {
        if (!(a = coerce(c, a, attu_type_make(ATTU_TYPE_INTERVAL), true, pos))) return NULL;
        return mk_call(c, ATTU_OP_QUALIFY_IV, t, pos, 1, a, NULL, NULL, NULL);
    }
    attu_bexpr *r = attu_bx_new(c->pa, BX_CONST, t, a->position ? a->position : pos);
    if (!r) { attu_error_oom(c->err); return NULL; }
    if (a->is_null) { r->is_null = true; return r; }
    attu_interval iv;
    if (a->type.id == ATTU_TYPE_INTERVAL) {
        memcpy(&iv, a->s, sizeof iv);
        attu_interval_qualify(&iv, range, prec);
    } else if (attu_interval_parse_qualified(a->s, a->slen, range, prec, &iv, c->err)) {
        c->err->position = r->position;
        return NULL;
    }
    char *slot = attu_palloc(c->pa, 17);
    if (!slot) { attu_error_oom(c->err); return NULL; }
    memset(slot, 0, 17);
    memcpy(slot, &iv, sizeof iv);
    r->s = slot; r->slen = 16;
    return r;
}

static attu_bexpr *bind_cast_value(bctx *c, const scope *sc, const attu_ast_expr *e) {
    const attu_ast_expr *ae = e->u.cast.arg;
    attu_type t;
    const attu_ast_typename *tn = &e->u.cast.type;
    attu_ast_typename dtn;
    {
        /* a domain over numeric(p,s): the cast is to numeric(p,s), not to
         * numeric without a typmod (engine/domain_type.h) */
        const char *n = tn->name && !strncmp(tn->name, "public.", 7) ? tn->name + 7 : tn->name;
        attu_domain_def *d = n ? attu_domain_find(n) : NULL;
        if (d && d->base.id == ATTU_TYPE_DECIMAL && !d->base.no_typmod) {
            dtn = *tn;
            dtn.precision = d->base.precision;
            dtn.scale = d->base.scale;
            tn = &dtn;
        }
        attu_domain_def_free(d);
    }
    if (ae->kind == ATTU_EXPR_FUNC && !strcmp(ae->u.func.name, " array") && ae->u.func.args.n == 0 &&
        !attu_type_from_name(tn->name, tn->precision, tn->scale, &t, c->err) && attu_type_is_array(t)) {
        /* ARRAY[]::int[]: the cast gives the empty array its type */
        attu_bexpr *k = attu_bx_new(c->pa, BX_CONST, t, ae->position);
        if (!k || !(k->s = attu_pstrdup(c->pa, "", 0))) { attu_error_oom(c->err); return NULL; }
        return k;
    }
    attu_error_clear(c->err);
    if (ae->kind == ATTU_EXPR_FUNC && !strcmp(ae->u.func.name, " array") &&
        !attu_type_from_name(tn->name, tn->precision, tn->scale, &t, c->err) && attu_type_is_array(t))
        return attu_bind_array_ctor_cast(c, sc, ae, attu_type_array_interval_qualified(t, tn->ivrange, tn->precision),
                                         e->position);
    attu_error_clear(c->err);
    bool catalog_type;
    attu_bexpr *k = attu_bind_catalog_cast(c, sc, e, &catalog_type);
    if (catalog_type) return k;
    attu_bexpr *a = bind_expr(c, sc, e->u.cast.arg);
    if (!a) return NULL;
    const bool vector = ae->kind == ATTU_EXPR_COLUMN && c->last_vector && attu_type_is_array(a->type);
    if (attu_type_from_name(tn->name, tn->precision, tn->scale, &t, c->err)) {
        c->err->position = tn->position ? tn->position : e->position;
        return NULL;
    }
    t = attu_type_array_interval_qualified(t, tn->ivrange, tn->precision);
    if (vector && t.id == ATTU_TYPE_TEXT && !attu_type_is_array(t) && !attu_type_is_typed_text(t)) {
        /* a catalog's int2vector / oidvector to text, varchar, name:
         * PostgreSQL's vector text, '1 3' (SQLAlchemy reads
         * pg_index.indkey::varchar so) */
        attu_bexpr *sep = mk_const_text(c, " ", 1, e->position);
        a = sep ? attu_array_to_string(c, a, sep, e->position) : NULL;
        return a ? coerce(c, a, t, true, e->position) : NULL;
    }
    if ((attu_type_is_enum(a->type) || attu_type_is_enum(t)) && !attu_type_equal(a->type, t) && a->type.id != ATTU_TYPE_UNKNOWN) {
        /* enum <-> text (planner/enum_bind.c); to varchar(n) / char(n)
         * through text, cut as any text is */
        if (attu_type_is_enum(a->type) && t.id == ATTU_TYPE_TEXT && t.precision > 0 && !attu_type_is_typed_text(t) &&
            !attu_type_is_array(t) && !(a = coerce(c, a, attu_type_make(ATTU_TYPE_TEXT), true, e->position)))
            return NULL;
        if (attu_type_is_enum(a->type) || attu_type_is_enum(t)) return coerce(c, a, t, true, e->position);
    }
    if (attu_type_is_array(a->type) && t.id == ATTU_TYPE_TEXT && !attu_type_is_array(t) &&
        (t.precision > 0 || attu_type_is_bpchar_any(t))) {
        /* an array to varchar(n), char(n) or bpchar: its text (array_out),
         * then that text cast so, cut at n as PostgreSQL's I/O conversion */
        if (!(a = coerce(c, a, attu_type_make(ATTU_TYPE_TEXT), true, e->position))) return NULL;
    } else if (attu_type_is_array(t) || attu_type_is_array(a->type)) {
        return coerce(c, a, t, true, e->position);
    }
    if (t.id == ATTU_TYPE_DECIMAL && tn->precision < 0 &&
        (attu_type_mclass(a->type.id) == ATTU_MC_FLOAT || a->type.id == ATTU_TYPE_NUMERIC ||
         a->type.id == ATTU_TYPE_TEXT || a->type.id == ATTU_TYPE_INT64 ||
         (a->type.id == ATTU_TYPE_UNKNOWN && a->kind == BX_CONST && a->s && text_literal_wide(a->s, a->slen)))) {
        /* float8 -> numeric keeps 15 significant digits, and text keeps
         * the digits each value is written with: the scale follows the
         * value, NUMERIC; a bigint can have 19 digits, one more than a
         * DECIMAL holds (9000000000000000000::numeric is no overflow) */
        t = attu_type_make(ATTU_TYPE_NUMERIC);
    } else if (t.id == ATTU_TYPE_DECIMAL && tn->precision < 0) {
        /* numeric without a typmod: keep the decimal's scale */
        int sc = a->type.id == ATTU_TYPE_DECIMAL ? a->type.scale
               : attu_type_mclass(a->type.id) == ATTU_MC_FLOAT ? 6
               : a->type.id == ATTU_TYPE_UNKNOWN && a->kind == BX_CONST && a->s ? text_literal_scale(a->s, a->slen) : 0;
        if (sc > 18) sc = 18;
        /* the precision bounds the integer digits (the value is the
         * same): an integer keeps its type's digits and a decimal its own
         * precision, so round(i::numeric, 1) finds room for its place */
        int p = a->type.id == ATTU_TYPE_DECIMAL && a->type.precision > 0 ? a->type.precision
              : a->type.id == ATTU_TYPE_INT16 ? 5 : a->type.id == ATTU_TYPE_INT32 ? 10 : 18;
        t = attu_type_decimal(p, sc);
    }
    if (t.id == ATTU_TYPE_DECIMAL && t.precision > 18) t.precision = 18;
    int pos = e->position;
    if (t.id == ATTU_TYPE_INTERVAL && (tn->ivrange || tn->precision >= 0))
        return bind_interval_qualified(c, a, tn->ivrange, tn->precision, pos);
    if (t.id == ATTU_TYPE_TEXT && t.precision > 0 && !attu_type_is_array(t)) {
        /* an explicit cast to varchar(n) / char(n) silently keeps the first
         * n characters, as PostgreSQL; char(n) then drops its trailing
         * spaces, as every char(n) value is kept (engine/types.h) */
        /* an untyped parameter cast so is a varchar or bpchar parameter
         * (PostgreSQL: $1::varchar(3) describes $1 as character varying) */
        /* to its own type (a varchar(5) to varchar(5)): no cast at all, as
         * in PostgreSQL, where the value is the same expression (ORDER BY
         * a name it shares with the column is then not ambiguous) */
        if (!is_untyped_param(a) && !memcmp(&a->type, &t, sizeof t)) return a;
        attu_type plain = attu_type_is_bpchar(t) ? attu_type_bpchar_unbounded() : attu_type_varchar_unbounded();
        attu_bexpr *x = is_untyped_param(a) ? coerce(c, a, plain, true, pos) : bind_cast_plain_text(c, a, pos);
        if (!x) return NULL;
        attu_bexpr *n = mk_const_int(c, attu_type_make(ATTU_TYPE_INT32), t.precision);
        if (!n) return NULL;
        if (!attu_type_is_bpchar(t)) return mk_call(c, ATTU_OP_LEFT, t, pos, 2, x, n, NULL, NULL);
        attu_bexpr *cut = mk_call(c, ATTU_OP_LEFT, attu_type_make(ATTU_TYPE_TEXT), pos, 2, x, n, NULL, NULL);
        return cut ? mk_call(c, ATTU_OP_RTRIM, t, pos, 1, cut, NULL, NULL, NULL) : NULL;
    }
    if (attu_type_is_bpchar_any(a->type) && !attu_type_is_bpchar(a->type) && t.id == ATTU_TYPE_TEXT && t.scale == 0)
        /* bpchar without a length to text or varchar: its values keep
         * their trailing blanks (engine/types.h), which PostgreSQL's cast
         * strips; attu_type_equal would take the two for one type and
         * drop the cast, leaving a bpchar (pg_typeof character, ARRAY[]
         * of it 0A000) */
        return mk_call(c, ATTU_OP_RTRIM, t, pos, 1, a, NULL, NULL, NULL);
    if (attu_type_is_record(a->type) && t.id == ATTU_TYPE_TEXT && !attu_type_is_array(t))
        /* a row value to text: its record_out text as it is (row_value.c) */
        return mk_call(c, ATTU_OP_MOVE, t, pos, 1, a, NULL, NULL, NULL);
    if (a->type.id == ATTU_TYPE_TEXT && t.id == ATTU_TYPE_TEXT && a->type.scale != t.scale &&
        (attu_type_is_bpchar(a->type) || t.scale == 1))
        /* char(n) to text: the value as kept, without its padding, which
         * PostgreSQL's cast strips; text to bpchar: the value as it is
         * (engine/types.h). Only the type changes. */
        return mk_call(c, ATTU_OP_MOVE, t, pos, 1, a, NULL, NULL, NULL);
    if (a->type.id == ATTU_TYPE_TEXT && t.id == ATTU_TYPE_TEXT && !attu_type_is_bpchar_any(a->type) &&
        !attu_type_is_range(a->type) && t.scale == 0 && a->type.precision != t.precision)
        /* text, varchar(n) and varchar among themselves: the same values
         * under another reported type (engine/types.h; a length to cut to
         * was handled above) */
        return mk_call(c, ATTU_OP_MOVE, t, pos, 1, a, NULL, NULL, NULL);
    if (a->kind == BX_CONST && a->type.id == ATTU_TYPE_UNKNOWN) {
        attu_bexpr *r = coerce(c, a, t, true, pos);
        return r;
    }
    if (a->type.id == ATTU_TYPE_DECIMAL && t.id == ATTU_TYPE_DECIMAL && attu_type_equal(a->type, t)) return a;
    if (attu_type_equal(a->type, t)) return a;
    return coerce(c, a, t, true, pos);
}

/* A cast, its DECIMAL result marked as PostgreSQL types it: x::numeric(p,s)
 * keeps the typmod (a length coercion), x::numeric has none, whatever
 * attu's DECIMAL holding of the value (engine/types.h no_typmod). The
 * result may be the argument itself where no conversion was needed
 * (1.5::numeric(18,1)): it is this expression's own node, so marking it
 * in place is safe. */
static attu_bexpr *bind_cast(bctx *c, const scope *sc, const attu_ast_expr *e) {
    attu_bexpr *r;
    if (attu_domain_array_cast(c, sc, e, &r)) return r;   /* x::d[]: each element checked */
    r = bind_cast_value(c, sc, e);
    if (r && r->type.id == ATTU_TYPE_DECIMAL) r->type.no_typmod = e->u.cast.type.precision < 0;
    /* a cast to a domain checks its rules (domain_bind.c) */
    if (r && e->u.cast.type.name) r = attu_domain_guard(c, sc, r, e->u.cast.type.name, e->position);
    return r;
}

static attu_bexpr *bind_param(bctx *c, const attu_ast_expr *e) {
    int k = e->u.param.number;
    const attu_bind_params *p = c->params;
    if (!p || k < 1 || k > p->n) {
        attu_error_set(c->err, "42P02", e->position, "there is no parameter $%d", k);
        return NULL;
    }
    attu_bexpr *b = attu_bx_new(c->pa, BX_CONST, attu_type_make(ATTU_TYPE_UNKNOWN), e->position);
    if (!b) { attu_error_oom(c->err); return NULL; }
    b->aux = k;    /* remember the parameter for type inference */
    if (!p->values || !p->values[k - 1]) b->is_null = true;
    else { b->s = (char *)p->values[k - 1]; b->slen = strlen(p->values[k - 1]); }
    /* a parameter typed by its first use keeps that type at the next,
     * as PostgreSQL's analysis carries it (`$1 = 1 AND $1 = 'a'` reads 'a'
     * as an integer; `i = $1 AND x = $1` is integer = text, 42883) */
    attu_type t = p->types ? p->types[k - 1] : attu_type_make(ATTU_TYPE_UNKNOWN);
    if (t.id == ATTU_TYPE_UNKNOWN && p->inferred) t = p->inferred[k - 1];
    if (t.id != ATTU_TYPE_UNKNOWN) {
        if (!p->values) { b->type = t; b->is_null = true; return b; }
        return coerce(c, b, t, true, e->position);
    }
    if (p->open_uses) p->open_uses[k - 1]++;
    return b;
}

attu_bexpr *bind_expr(bctx *c, const scope *sc, const attu_ast_expr *e) {
    if (c->macro && e->kind == ATTU_EXPR_COLUMN) {
        bool handled;
        attu_bexpr *a = attu_syscat_macro_arg(c, e, &handled);
        if (handled) return a;
    }
    if (c->sql_fn && (e->kind == ATTU_EXPR_PARAM || e->kind == ATTU_EXPR_COLUMN)) {
        bool handled;
        attu_bexpr *a = attu_sql_function_param(c, sc, e, true, &handled);
        if (handled) return a;
    }
    if (c->err->set) return NULL;
    attu_type b = attu_type_make(ATTU_TYPE_BOOL);
    switch (e->kind) {
    case ATTU_EXPR_LITERAL: return bind_literal(c, e);
    case ATTU_EXPR_COLUMN: return bind_column(c, sc, e);
    case ATTU_EXPR_PARAM: return bind_param(c, e);
    case ATTU_EXPR_STAR:
        if (e->u.star.qualifier) {
            /* t.* in an expression is t's whole row, as PostgreSQL reads
             * it (WHERE t.* = ROW(...), ORDER BY t.*): the FROM item
             * first, then as the name t (an enclosing query's item) */
            bool rel;
            attu_bexpr *w = attu_bind_whole_row(c, sc, e->u.star.qualifier, e->position, 0, &rel);
            if (rel) return w;
            attu_ast_expr col = *e;
            col.kind = ATTU_EXPR_COLUMN;
            memset(&col.u, 0, sizeof col.u);
            col.u.column.name = e->u.star.qualifier;
            attu_error saved = *c->err;
            attu_bexpr *o = bind_column(c, sc, &col);
            if (!o && !strcmp(c->err->sqlstate, ATTU_SQLSTATE_UNDEFINED_COLUMN)) {
                *c->err = saved;
                attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_TABLE, e->position,
                               "missing FROM-clause entry for table \"%s\"", e->u.star.qualifier);
            }
            return o;
        }
        attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, e->position, "* is not allowed here");
        return NULL;
    case ATTU_EXPR_UNARY: {
        attu_bexpr *a = bind_expr(c, sc, e->u.unary.arg);
        if (!a) return NULL;
        if (e->u.unary.op == ATTU_UNOP_NOT) {
            a = coerce_bool(c, a, "NOT");
            return a ? mk_call(c, ATTU_OP_NOT, b, e->position, 1, a, NULL, NULL, NULL) : NULL;
        }
        /* prefix - of an untyped literal: - interval and the numeric
         * types' are all candidates (42725); + has only numeric ones */
        if (a->type.id == ATTU_TYPE_UNKNOWN && e->u.unary.op == ATTU_UNOP_NEG)
            return not_unique(c, "-", NULL, a, e->position);
        if (a->type.id == ATTU_TYPE_UNKNOWN) a = coerce(c, a, attu_type_make(ATTU_TYPE_FLOAT64), false, e->position);
        if (!a) return NULL;
        if (a->type.id == ATTU_TYPE_INTERVAL && e->u.unary.op == ATTU_UNOP_NEG)   /* PostgreSQL has no + interval */
            return mk_call(c, ATTU_OP_NEG_IV, a->type, e->position, 1, a, NULL, NULL, NULL);
        if (!is_numeric(a->type.id)) return op_error(c, e->u.unary.op == ATTU_UNOP_NEG ? "-" : "+", NULL, a, e->position);
        if (e->u.unary.op == ATTU_UNOP_PLUS) return a;
        attu_mclass mc = attu_type_mclass(a->type.id);
        return mk_call(c, mc == ATTU_MC_FLOAT ? ATTU_OP_NEG_F : a->type.id == ATTU_TYPE_DECIMAL ? ATTU_OP_NEG_D
                          : a->type.id == ATTU_TYPE_NUMERIC ? ATTU_OP_NEG_N : ATTU_OP_NEG_I,
                       a->type, e->position, 1, a, NULL, NULL, NULL);
    }
    case ATTU_EXPR_BINARY: return bind_binary(c, sc, e);
    case ATTU_EXPR_IS: {
        attu_bexpr *a = bind_expr(c, sc, e->u.is.arg);
        if (!a) return NULL;
        attu_bexpr *r;
        switch (e->u.is.what) {
        case ATTU_IS_NULL: case ATTU_IS_UNKNOWN:
            if (e->u.is.what == ATTU_IS_UNKNOWN && !(a = coerce_bool(c, a, "IS UNKNOWN"))) return NULL;
            /* IS NULL types no parameter: PostgreSQL leaves `$1 IS NULL`'s
             * $1 undetermined (42P18 when nothing else types it) */
            a = resolve_unknown_untracked(c, a);
            if (e->u.is.what == ATTU_IS_NULL && attu_type_is_record(a->type)) {
                /* a row IS NULL when every item is, IS NOT NULL when no
                 * item is (so both can be false), as PostgreSQL's */
                attu_bexpr **items;
                int n = attu_row_value_items(c, a, &items);
                if (n >= 0) {
                    r = n == 0 ? mk_const_int(c, b, 1) : NULL;   /* ROW(): both true */
                    for (int i = 0; i < n; i++) {
                        attu_bexpr *t = mk_call(c, e->u.is.negated ? ATTU_OP_IS_NOT_NULL : ATTU_OP_IS_NULL, b, e->position, 1,
                                                items[i], NULL, NULL, NULL);
                        r = !t ? NULL : i == 0 ? t : mk_call(c, ATTU_OP_AND, b, e->position, 2, r, t, NULL, NULL);
                        if (!r) return NULL;
                    }
                    return r;
                }
            }
            r = mk_call(c, e->u.is.negated ? ATTU_OP_IS_NOT_NULL : ATTU_OP_IS_NULL, b, e->position, 1, a, NULL, NULL, NULL);
            return r;
        case ATTU_IS_TRUE: case ATTU_IS_FALSE:
            if (!(a = coerce_bool(c, a, e->u.is.what == ATTU_IS_TRUE ? "IS TRUE" : "IS FALSE"))) return NULL;
            r = mk_call(c, e->u.is.what == ATTU_IS_TRUE ? ATTU_OP_IS_TRUE : ATTU_OP_IS_FALSE, b, e->position, 1, a, NULL, NULL, NULL);
            if (e->u.is.negated) r = mk_call(c, ATTU_OP_NOT, b, e->position, 1, r, NULL, NULL, NULL);
            return r;
        }
        return NULL;
    }
    case ATTU_EXPR_BETWEEN: {
        attu_bexpr *a = bind_expr(c, sc, e->u.between.arg);
        attu_bexpr *lo = a ? bind_expr(c, sc, e->u.between.low) : NULL;
        attu_bexpr *hi = lo ? bind_expr(c, sc, e->u.between.high) : NULL;
        if (!hi) return NULL;
        attu_bexpr *g = bind_compare_op(c, ATTU_BINOP_GE, a, lo, e->position);
        /* an undeclared parameter as the argument has the type >= gave it
         * (PostgreSQL: `$1 BETWEEN 1 AND $2` is two integers) */
        if (g) a = settle_param(c, a);
        attu_bexpr *l = g && a ? bind_compare_op(c, ATTU_BINOP_LE, a, hi, e->position) : NULL;
        if (!l) return NULL;
        attu_bexpr *r = mk_call(c, ATTU_OP_AND, b, e->position, 2, g, l, NULL, NULL);
        if (e->u.between.symmetric) {
            attu_bexpr *g2 = bind_compare_op(c, ATTU_BINOP_GE, a, hi, e->position);
            attu_bexpr *l2 = g2 ? bind_compare_op(c, ATTU_BINOP_LE, a, lo, e->position) : NULL;
            if (!l2) return NULL;
            r = mk_call(c, ATTU_OP_OR, b, e->position, 2, r, mk_call(c, ATTU_OP_AND, b, e->position, 2, g2, l2, NULL, NULL), NULL, NULL);
        }
        if (e->u.between.negated) r = mk_call(c, ATTU_OP_NOT, b, e->position, 1, r, NULL, NULL, NULL);
        return r;
    }
    case ATTU_EXPR_IN_LIST: return bind_in_list(c, sc, e);
    case ATTU_EXPR_LIKE: {
        attu_type t = attu_type_make(ATTU_TYPE_TEXT);
        attu_bexpr *a = bind_expr(c, sc, e->u.like.arg);
        attu_bexpr *p = a ? bind_expr(c, sc, e->u.like.pattern) : NULL;
        if (!p) return NULL;
        /* PostgreSQL turns a SIMILAR TO pattern into text (similar_to_escape) */
        if (e->u.like.similar && !(p = resolve_unknown(c, p))) return NULL;
        const char *opname = e->u.like.similar ? "~" : e->u.like.case_insensitive ? "~~*" : "~~";
        if (e->u.like.regex)
            opname = e->u.like.negated ? (e->u.like.case_insensitive ? "!~*" : "!~") : (e->u.like.case_insensitive ? "~*" : "~");
        if ((a->type.id != ATTU_TYPE_TEXT && a->type.id != ATTU_TYPE_UNKNOWN) ||
            (p->type.id != ATTU_TYPE_TEXT && p->type.id != ATTU_TYPE_UNKNOWN) ||
            attu_type_is_array(a->type) || attu_type_is_array(p->type))
            return op_error(c, opname, a, p, e->position);
        bool handled;   /* bytea LIKE bytea; no other of uuid / bytea (planner/bytea_bind.c) */
        attu_bexpr *bl = attu_bytea_like(c, a, p, e->u.like.negated && !e->u.like.regex ? (e->u.like.case_insensitive ? "!~~*" : "!~~") : opname,
                                         !e->u.like.regex && !e->u.like.similar && !e->u.like.case_insensitive,
                                         e->u.like.negated, e->u.like.escape != NULL, e->position, &handled);
        if (handled) return bl;
        /* LIKE, SIMILAR TO and ~ read a char(n) value with its padding, as
         * PostgreSQL's (its bpchar operators match the padded bytes) */
        a = coerce(c, bpchar_padded(c, a, e->position), t, false, e->position);
        p = a ? coerce(c, p, t, false, e->position) : NULL;
        if (!p) return NULL;
        if (e->u.like.regex) {
            /* a ~ b: matched at run time (engine/similar.h), any pattern;
             * !~ is NOT of it, NULL staying NULL */
            attu_bexpr *r = mk_call(c, ATTU_OP_REGEX, b, e->position, 2, a, p, NULL, NULL);
            if (r) r->aux = e->u.like.case_insensitive;
            if (r && e->u.like.negated) r = mk_call(c, ATTU_OP_NOT, b, e->position, 1, r, NULL, NULL, NULL);
            return r;
        }
        if (e->u.like.similar) {
            /* SIMILAR TO: matched at run time (engine/similar.h), any
             * pattern and escape, NULL in gives NULL */
            attu_bexpr *esc = NULL;
            if (e->u.like.escape) {
                if (!(esc = bind_expr(c, sc, e->u.like.escape)) || !(esc = coerce(c, esc, t, false, e->position))) return NULL;
            }
            attu_bexpr *r = mk_call(c, ATTU_OP_SIMILAR, b, e->position, esc ? 3 : 2, a, p, esc, NULL);
            if (r && e->u.like.negated) r = mk_call(c, ATTU_OP_NOT, b, e->position, 1, r, NULL, NULL, NULL);
            return r;
        }
        if (e->u.like.escape) {
            /* LIKE ... ESCAPE 'c': rewrite a constant pattern to backslash escapes */
            attu_bexpr *esc = bind_expr(c, sc, e->u.like.escape);
            if (!esc) return NULL;
            /* a pattern or escape that is a parameter: constants when the
             * statement runs; prepared, the escape is a text */
            if (param_placeholder(c, e->u.like.pattern) || param_placeholder(c, e->u.like.escape)) {
                if (!coerce(c, esc, t, false, e->position)) return NULL;
                attu_bexpr *r = mk_call(c, e->u.like.case_insensitive ? ATTU_OP_ILIKE : ATTU_OP_LIKE, b, e->position, 2,
                                        a, p, NULL, NULL);
                if (r && e->u.like.negated) r = mk_call(c, ATTU_OP_NOT, b, e->position, 1, r, NULL, NULL, NULL);
                return r;
            }
            if (esc->kind != BX_CONST || p->kind != BX_CONST || esc->is_null || p->is_null || !esc->s || esc->slen > 1) {
                attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "ESCAPE needs a constant pattern and a one-character escape");
                return NULL;
            }
            char ec = esc->slen ? esc->s[0] : 0;
            char *np = attu_palloc(c->pa, p->slen * 2 + 1);
            size_t k = 0;
            for (size_t i = 0; i < p->slen; i++) {
                char ch = p->s[i];
                if (ec && ch == ec && i + 1 < p->slen) { np[k++] = '\\'; np[k++] = p->s[++i]; }
                else if (ch == '\\') { np[k++] = '\\'; np[k++] = '\\'; }
                else np[k++] = ch;
            }
            attu_bexpr *q = attu_bx_new(c->pa, BX_CONST, t, p->position);
            q->s = np; q->slen = k;
            p = q;
        }
        attu_bexpr *r = mk_call(c, e->u.like.case_insensitive ? ATTU_OP_ILIKE : ATTU_OP_LIKE, b, e->position, 2, a, p, NULL, NULL);
        if (e->u.like.negated) r = mk_call(c, ATTU_OP_NOT, b, e->position, 1, r, NULL, NULL, NULL);
        return r;
    }
    case ATTU_EXPR_CASE: return attu_row_value_derive(c, bind_case(c, sc, e));
    case ATTU_EXPR_CAST: return bind_cast(c, sc, e);
    case ATTU_EXPR_FUNC: return attu_row_value_derive(c, bind_function(c, sc, e));
    case ATTU_EXPR_EXTRACT: {
        attu_bexpr *a = bind_expr(c, sc, e->u.extract.arg);
        if (!a) return NULL;
        if (is_untyped_param(a)) {   /* PostgreSQL names the field unknown too */
            attu_bexpr *fa[2] = { attu_bx_new(c->pa, BX_CONST, attu_type_make(ATTU_TYPE_UNKNOWN), e->position), a };
            if (!fa[0]) { attu_error_oom(c->err); return NULL; }
            return attu_param_not_unique(c, "pg_catalog.extract", fa, 2, e->position);
        }
        return bind_extract(c, e->u.extract.field, a, false, e->position);
    }
    case ATTU_EXPR_SUBQUERY: case ATTU_EXPR_EXISTS: case ATTU_EXPR_IN_SUBQUERY: case ATTU_EXPR_QUANTIFIED:
        if (attu_is_row_subquery(e)) return attu_bind_row_subquery(c, sc, e);
        return attu_bind_subquery_expr(c, sc, e);
    case ATTU_EXPR_DEFAULT:
        /* an INSERT's VALUES replaces its DEFAULT items before binding
         * (db_exec_insert); any other is PostgreSQL's error */
        attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, e->position, "DEFAULT is not allowed in this context");
        return NULL;
    }
    attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "expression not supported");
    return NULL;
}

/* PostgreSQL's names of date/time units, as EXTRACT and date_part take
 * them (datetime.c's deltatktbl and datetktbl): matched in lower case on
 * at most 10 characters, as PostgreSQL's TOKMAXLEN. -2: a unit known to
 * PostgreSQL that a timestamp without time zone does not have. */
int datetime_unit(const char *name) {
    static const struct { const char *name; int field; } units[] = {
        { "y", ATTU_EXTRACT_YEAR }, { "year", ATTU_EXTRACT_YEAR }, { "years", ATTU_EXTRACT_YEAR },
        { "yr", ATTU_EXTRACT_YEAR }, { "yrs", ATTU_EXTRACT_YEAR },
        { "mon", ATTU_EXTRACT_MONTH }, { "mons", ATTU_EXTRACT_MONTH }, { "month", ATTU_EXTRACT_MONTH },
        { "months", ATTU_EXTRACT_MONTH },
        { "d", ATTU_EXTRACT_DAY }, { "day", ATTU_EXTRACT_DAY }, { "days", ATTU_EXTRACT_DAY },
        { "h", ATTU_EXTRACT_HOUR }, { "hour", ATTU_EXTRACT_HOUR }, { "hours", ATTU_EXTRACT_HOUR },
        { "hr", ATTU_EXTRACT_HOUR }, { "hrs", ATTU_EXTRACT_HOUR },
        { "m", ATTU_EXTRACT_MINUTE }, { "min", ATTU_EXTRACT_MINUTE }, { "mins", ATTU_EXTRACT_MINUTE },
        { "minute", ATTU_EXTRACT_MINUTE }, { "minutes", ATTU_EXTRACT_MINUTE },
        { "s", ATTU_EXTRACT_SECOND }, { "sec", ATTU_EXTRACT_SECOND }, { "secs", ATTU_EXTRACT_SECOND },
        { "second", ATTU_EXTRACT_SECOND }, { "seconds", ATTU_EXTRACT_SECOND },
        { "ms", ATTU_TRUNC_MILLISECONDS }, { "msec", ATTU_TRUNC_MILLISECONDS }, { "msecs", ATTU_TRUNC_MILLISECONDS },
        { "msecond", ATTU_TRUNC_MILLISECONDS }, { "mseconds", ATTU_TRUNC_MILLISECONDS },
        { "millisecon", ATTU_TRUNC_MILLISECONDS },
        { "us", ATTU_TRUNC_MICROSECONDS }, { "usec", ATTU_TRUNC_MICROSECONDS }, { "usecs", ATTU_TRUNC_MICROSECONDS },
        { "usecond", ATTU_TRUNC_MICROSECONDS }, { "useconds", ATTU_TRUNC_MICROSECONDS },
        { "microsecon", ATTU_TRUNC_MICROSECONDS },
        { "w", ATTU_EXTRACT_WEEK }, { "week", ATTU_EXTRACT_WEEK }, { "weeks", ATTU_EXTRACT_WEEK },
        { "qtr", ATTU_EXTRACT_QUARTER }, { "quarter", ATTU_EXTRACT_QUARTER },
        { "dec", ATTU_TRUNC_DECADE }, { "decs", ATTU_TRUNC_DECADE }, { "decade", ATTU_TRUNC_DECADE },
        { "decades", ATTU_TRUNC_DECADE },
        { "c", ATTU_TRUNC_CENTURY }, { "cent", ATTU_TRUNC_CENTURY }, { "century", ATTU_TRUNC_CENTURY },
        { "centuries", ATTU_TRUNC_CENTURY },
        { "mil", ATTU_TRUNC_MILLENNIUM }, { "mils", ATTU_TRUNC_MILLENNIUM }, { "millennium", ATTU_TRUNC_MILLENNIUM },
        { "millennia", ATTU_TRUNC_MILLENNIUM },
        { "dow", ATTU_EXTRACT_DOW }, { "doy", ATTU_EXTRACT_DOY }, { "isodow", ATTU_EXTRACT_ISODOW },
        { "isoyear", ATTU_EXTRACT_ISOYEAR }, { "epoch", ATTU_EXTRACT_EPOCH },
        { "j", ATTU_EXTRACT_JULIAN }, { "julian", ATTU_EXTRACT_JULIAN },
        { "timezone", -2 }, { "timezone_h", -2 }, { "timezone_m", -2 },
    };
    char low[11];
    size_t n = 0;
    for (; name[n] && n < 10; n++) low[n] = (char)(name[n] >= 'A' && name[n] <= 'Z' ? name[n] + 32 : name[n]);
    low[n] = 0;
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) if (!strcmp(units[i].name, low)) return units[i].field;
    return -1;
}

/* EXTRACT(field FROM a) (as_float false: numeric, as PostgreSQL 14+) or
 * date_part('field', a) (as_float true: double precision; a date is read
 * as a timestamp at midnight, as PostgreSQL casts it). Unknown units are
 * 22023, units the type does not have 0A000, as PostgreSQL reports them.
 * Infinite dates and timestamps give +-Infinity for year, decade, century,
 * millennium, isoyear, epoch and julian, NULL for the other fields. */
/* The unit names of a date_part / EXTRACT / date_trunc of an interval:
 * the field, or -1 after the error (22023 not a unit, 0A000 one an
 * interval has not: dow, week...). */
int interval_unit(bctx *c, const char *field, bool trunc, int pos) {
    int f = datetime_unit(field);
    char low[64];
    size_t ln = 0;
    for (; field[ln] && ln + 1 < sizeof low; ln++) low[ln] = (char)(field[ln] >= 'A' && field[ln] <= 'Z' ? field[ln] + 32 : field[ln]);
    low[ln] = 0;
    bool known = f >= 0 && f != ATTU_EXTRACT_DOW && f != ATTU_EXTRACT_DOY && f != ATTU_EXTRACT_WEEK &&
                 f != ATTU_EXTRACT_ISOYEAR && f != ATTU_EXTRACT_ISODOW && f != ATTU_EXTRACT_JULIAN;
    if (trunc && f == ATTU_EXTRACT_EPOCH) known = false;
    if (known) return f;
    if (f == -1 || (trunc && f != ATTU_EXTRACT_WEEK && f != -2)) {
        attu_error_set(c->err, ATTU_SQLSTATE_INVALID_PARAMETER, pos, "unit \"%s\" not recognized for type interval", low);
        return -1;
    }
    attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "unit \"%s\" not supported for type interval", low);
    if (trunc && f == ATTU_EXTRACT_WEEK) attu_error_set_detail(c->err, "Months usually have fractional weeks.");
    return -1;
}

attu_bexpr *bind_extract(bctx *c, const char *field, attu_bexpr *a, bool as_float, int pos) {
    if (a->type.id == ATTU_TYPE_UNKNOWN && !(a = coerce(c, a, attu_type_make(ATTU_TYPE_TIMESTAMP), false, pos))) return NULL;
    if (a->type.id == ATTU_TYPE_TIMESTAMPTZ) return attu_bind_tz_extract(c, field, a, as_float, pos);
    if (a->type.id == ATTU_TYPE_TIME || a->type.id == ATTU_TYPE_TIMETZ) return attu_bind_time_extract(c, field, a, as_float, pos);
    if (a->type.id == ATTU_TYPE_INTERVAL) {
        /* numeric (EXTRACT) or double precision (date_part), as PostgreSQL 15 */
        int f = interval_unit(c, field, false, pos);
        if (f < 0) return NULL;
        attu_bexpr *r = mk_call(c, ATTU_OP_EXTRACT_IV, attu_type_make(as_float ? ATTU_TYPE_FLOAT64 : ATTU_TYPE_NUMERIC),
                                pos, 1, a, NULL, NULL, NULL);
        if (r) r->imm = f;
        return r;
    }
    if (a->type.id != ATTU_TYPE_DATE && a->type.id != ATTU_TYPE_TIMESTAMP) {
        char b1[64];
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "function %s(unknown, %s) does not exist",
                       as_float ? "date_part" : "extract", tname(a->type, b1));
        attu_error_set_hint(c->err, "No function matches the given name and argument types. You might need to add explicit type casts.");
        return NULL;
    }
    bool ts = a->type.id == ATTU_TYPE_TIMESTAMP;
    const char *tn = ts || as_float ? "timestamp without time zone" : "date";
    int f = datetime_unit(field);
    char low[64];   /* PostgreSQL's messages show the unit in lower case */
    size_t ln = 0;
    for (; field[ln] && ln + 1 < sizeof low; ln++) low[ln] = (char)(field[ln] >= 'A' && field[ln] <= 'Z' ? field[ln] + 32 : field[ln]);
    low[ln] = 0;
    if (f == -1) {
        attu_error_set(c->err, ATTU_SQLSTATE_INVALID_PARAMETER, pos, "unit \"%s\" not recognized for type %s", low, tn);
        return NULL;
    }
    bool timeunit = f == ATTU_EXTRACT_HOUR || f == ATTU_EXTRACT_MINUTE || f == ATTU_EXTRACT_SECOND ||
                    f == ATTU_TRUNC_MILLISECONDS || f == ATTU_TRUNC_MICROSECONDS;
    if (f == -2 || (!ts && !as_float && timeunit)) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "unit \"%s\" not supported for type %s", low, tn);
        return NULL;
    }
    if (ts && !as_float && f == ATTU_EXTRACT_JULIAN) {
        /* PostgreSQL shows the fraction of the day with 20 digits, more
         * than attu's 18-digit numeric holds */
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos,
                       "EXTRACT(julian FROM timestamp) is not supported; use date_part('julian', ...)");
        return NULL;
    }
    /* numeric scale: fractional seconds for timestamps */
    int scale = 0;
    if (ts && (f == ATTU_EXTRACT_SECOND || f == ATTU_EXTRACT_EPOCH)) scale = 6;
    if (ts && f == ATTU_TRUNC_MILLISECONDS) scale = 3;
    attu_type rt = as_float ? attu_type_make(ATTU_TYPE_FLOAT64) : attu_type_decimal(18, scale);
    attu_bexpr *r = mk_call(c, ATTU_OP_EXTRACT, rt, pos, 1, a, NULL, NULL, NULL);
    if (r) { r->imm = f; r->aux = ts; }
    return r;
}
