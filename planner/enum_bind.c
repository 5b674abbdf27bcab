/*
 * enum_bind.c - binding PostgreSQL 15's enum types (engine/enum_type.h):
 * literals, casts between an enum and the text types, and enum_first /
 * enum_last / enum_range.
 *
 * A value is a TEXT register holding the label's image (sort key, 0x01,
 * label), so comparisons, sorting, grouping, min / max and joins are
 * text's and follow the declared order. Everything here is made of
 * ordinary string opcodes (no new opcode, nothing the GPU evaluator must
 * learn):
 *   - a literal or a constant text becomes the image at bind time (22P02
 *     for a label the type lacks);
 *   - enum -> text is substr(x, strpos(x, E'\x01') + 1);
 *   - text -> enum at run time is a CASE over the labels whose ELSE
 *     raises 22P02 (ATTU_OP_SUBQUERY_ERROR, its message built from the
 *     value);
 *   - enum_first / enum_last / enum_range(x) depend on the type only and
 *     fold to constants; enum_range(a, b) is a CASE over the pairs.
 */
#include "planner/binder_internal.h"
#include "engine/array.h"
#include "engine/enum_type.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static attu_bexpr *text_const(bctx *c, const char *s, size_t len, attu_type t, int pos) {
    attu_bexpr *k = attu_bx_new(c->pa, BX_CONST, t, pos);
    if (!k || !(k->s = attu_pstrdup(c->pa, s, len))) { attu_error_oom(c->err); return NULL; }
    k->slen = len;
    return k;
}

static attu_enum_def *def_of(bctx *c, attu_type t, int pos) {
    attu_enum_def *d = attu_enum_find_id(attu_type_enum_id(t));
    if (!d) attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_OBJECT, pos, "type with OID %u does not exist", attu_enum_oid(attu_type_enum_id(t)));
    return d;
}

attu_bexpr *attu_enum_parse_literal(bctx *c, attu_bexpr *r, const char *s, size_t len) {
    size_t n = 0;
    char *img = attu_enum_input(r->type, s, len, &n, c->err);
    return mk_const_canonical(c, r, img, n);
}

/* The label of enum value e, as text. */
static attu_bexpr *label_of(bctx *c, attu_bexpr *e, int pos) {
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT), i4 = attu_type_make(ATTU_TYPE_INT32), i8 = attu_type_make(ATTU_TYPE_INT64);
    if (e->kind == BX_CONST && !e->is_null) {
        size_t ll;
        const char *l = attu_enum_image_label(e->s, e->slen, &ll);
        return text_const(c, l, ll, txt, pos);
    }
    char sep = ATTU_ENUM_SEP;
    attu_bexpr *at = mk_call(c, ATTU_OP_STRPOS, i4, pos, 2, e, text_const(c, &sep, 1, txt, pos), NULL, NULL);
    attu_bexpr *from = at ? mk_call(c, ATTU_OP_ADD_I, i4, pos, 2, at, mk_const_int(c, i4, 1), NULL, NULL) : NULL;
    if (from) from = coerce(c, from, i8, false, pos);
    return from ? mk_call(c, ATTU_OP_SUBSTR, txt, pos, 2, e, from, NULL, NULL) : NULL;
}

/* text x (not a constant) as enum type t: a CASE over t's labels. */
static attu_bexpr *enum_in(bctx *c, attu_bexpr *x, attu_type t, int pos) {
    attu_enum_def *d = def_of(c, t, pos);
    if (!d) return NULL;
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT), tb = attu_type_make(ATTU_TYPE_BOOL);
    attu_bexpr *k = attu_bx_new(c->pa, BX_CASE, t, pos);
    int n = d->n;
    if (!k || !(k->whens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n + 1))) ||
        !(k->thens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n + 1)))) {
        attu_enum_def_free(d);
        attu_error_oom(c->err);
        return NULL;
    }
    k->nwhens = n;
    for (int i = 0; i < n; i++) {
        size_t il;
        char *img = attu_enum_image(d, i, &il);
        attu_bexpr *lab = text_const(c, d->labels[i].label, strlen(d->labels[i].label), txt, pos);
        k->whens[i] = lab ? mk_call(c, ATTU_OP_EQ_S, tb, pos, 2, x, lab, NULL, NULL) : NULL;
        k->thens[i] = img ? text_const(c, img, il, t, pos) : NULL;
        free(img);
        if (!k->whens[i] || !k->thens[i]) { attu_enum_def_free(d); if (!c->err->set) attu_error_oom(c->err); return NULL; }
    }
    /* ELSE: NULL stays NULL; any other value raises 22P02 with its text */
    char head[200];
    snprintf(head, sizeof head, "22P02invalid input value for enum %s: \"", d->name);
    attu_enum_def_free(d);
    attu_bexpr *msg = mk_call(c, ATTU_OP_CONCAT, txt, pos, 2, text_const(c, head, strlen(head), txt, pos), x, NULL, NULL);
    if (msg) msg = mk_call(c, ATTU_OP_CONCAT, txt, pos, 2, msg, text_const(c, "\"", 1, txt, pos), NULL, NULL);
    attu_bexpr *raise = msg ? mk_call(c, ATTU_OP_SUBQUERY_ERROR, t, pos, 1, msg, NULL, NULL, NULL) : NULL;
    attu_bexpr *isnull = mk_call(c, ATTU_OP_IS_NULL, tb, pos, 1, x, NULL, NULL, NULL);
    if (!raise || !isnull) return NULL;
    attu_bexpr *outer = attu_bx_new(c->pa, BX_CASE, t, pos);
    if (!outer || !(outer->whens = attu_palloc(c->pa, sizeof(attu_bexpr *))) ||
        !(outer->thens = attu_palloc(c->pa, sizeof(attu_bexpr *)))) { attu_error_oom(c->err); return NULL; }
    outer->nwhens = 1;
    outer->whens[0] = isnull;
    outer->thens[0] = mk_const_null(c, t);
    outer->else_ = raise;
    k->else_ = outer;
    return k;
}

/* enum <-> text types (enum -> text explicit or by assignment, text ->
 * enum explicit only, as PostgreSQL's I/O casts); another enum or any
 * other type: 42846 (explicit) / 42804. */
attu_bexpr *attu_enum_coerce(bctx *c, attu_bexpr *e, attu_type t, bool explicit_cast, int pos) {
    attu_type from = e->type;
    if (e->kind == BX_CONST && e->is_null) { attu_bexpr *n = mk_const_null(c, t); if (n) n->position = e->position; return n; }
    bool plain_from = from.id == ATTU_TYPE_TEXT && !attu_type_is_array(from) && !attu_type_is_typed_text(from) &&
                      !attu_type_is_enum(from) && !attu_type_is_record(from);
    bool plain_to = t.id == ATTU_TYPE_TEXT && !attu_type_is_array(t) && !attu_type_is_typed_text(t) && !attu_type_is_enum(t);
    if (attu_type_is_enum(from) && plain_to) {
        if (!explicit_cast) return cast_refused(c, from, t, false, pos);
        attu_bexpr *l = label_of(c, e, pos);
        return l ? coerce(c, l, t, explicit_cast, pos) : NULL;
    }
    if (attu_type_is_enum(t) && plain_from) {
        if (!explicit_cast) return cast_refused(c, from, t, false, pos);
        if (attu_type_is_bpchar_any(from)) e = coerce(c, e, attu_type_make(ATTU_TYPE_TEXT), true, pos);
        if (!e) return NULL;
        if (e->kind == BX_CONST) {
            attu_bexpr *r = attu_bx_new(c->pa, BX_CONST, t, e->position ? e->position : pos);
            if (!r) { attu_error_oom(c->err); return NULL; }
            return attu_enum_parse_literal(c, r, e->s, e->slen);
        }
        return enum_in(c, e, t, pos);
    }
    return cast_refused(c, from, t, explicit_cast, pos);
}

/* enum_first(x), enum_last(x): the type's first / last value (55000 when
 * it has none); x's value is never read. */
attu_bexpr *attu_enum_first_last(bctx *c, attu_bexpr *x, bool last, int pos) {
    attu_enum_def *d = def_of(c, x->type, pos);
    if (!d) return NULL;
    if (!d->n) {
        attu_error_set(c->err, "55000", 0, "enum %s contains no values", d->name);
        attu_enum_def_free(d);
        return NULL;
    }
    size_t il;
    char *img = attu_enum_image(d, last ? d->n - 1 : 0, &il);
    attu_enum_def_free(d);
    if (!img) { attu_error_oom(c->err); return NULL; }
    attu_bexpr *k = text_const(c, img, il, x->type, pos);
    free(img);
    return k;
}

/* The labels lo..hi of d as PostgreSQL's text of an array ("{a,b}"),
 * quoting labels as array_out does. */
static void range_text(const attu_enum_def *d, int lo, int hi, char **out, size_t *len) {
    size_t cap = 3;
    for (int i = lo; i <= hi; i++) cap += 2 * strlen(d->labels[i].label) + 4;
    char *s = malloc(cap), *p = s;
    if (!s) { *out = NULL; return; }
    *p++ = '{';
    for (int i = lo; i <= hi; i++) {
        const char *l = d->labels[i].label;
        bool quote = !*l || !strcasecmp(l, "null");
        for (const char *q = l; *q; q++)
            if (strchr("{},\"\\ \t\n\r\v\f", *q)) quote = true;
        if (i > lo) *p++ = ',';
        if (quote) *p++ = '"';
        for (const char *q = l; *q; q++) {
            if (quote && (*q == '"' || *q == '\\')) *p++ = '\\';
            *p++ = *q;
        }
        if (quote) *p++ = '"';
    }
    *p++ = '}';
    *p = 0;
    *out = s;
    *len = (size_t)(p - s);
}

/* The enum array t[] of labels lo..hi of d (lo > hi: the empty array), a
 * constant: the labels' text read as the array (engine/array.h). */
static attu_bexpr *range_const(bctx *c, const attu_enum_def *d, attu_type t, int lo, int hi, int pos) {
    char *s;
    size_t len;
    if (lo > hi) { s = strdup("{}"); len = 2; }
    else range_text(d, lo, hi, &s, &len);
    if (!s) { attu_error_oom(c->err); return NULL; }
    attu_abuf a = { 0 };
    attu_bexpr *r = NULL;
    if (!attu_array_from_text(t, s, len, &a, c->err)) r = text_const(c, a.p, a.len, attu_type_array_of(t), pos);
    attu_abuf_free(&a);
    free(s);
    return r;
}

/* enum_range(x) and enum_range(a, b): an array of the enum, as
 * PostgreSQL's. enum_range(a, b) of non-constant values: a CASE over
 * every (a, b) pair. */
attu_bexpr *attu_enum_range(bctx *c, attu_bexpr **args, int n, int pos) {
    attu_type t = args[0]->type.id == ATTU_TYPE_UNKNOWN && n == 2 ? args[1]->type : args[0]->type;
    if (n == 2 && args[0]->type.id != ATTU_TYPE_UNKNOWN && args[1]->type.id != ATTU_TYPE_UNKNOWN &&
        !attu_type_equal(args[0]->type, args[1]->type)) {
        char b1[64], b2[64];
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "function enum_range(%s, %s) does not exist",
                       tname(args[0]->type, b1), tname(args[1]->type, b2));
        attu_error_set_hint(c->err, "No function matches the given name and argument types. You might need to add explicit type casts.");
        return NULL;
    }
    for (int i = 0; i < n; i++)
        if (args[i]->type.id == ATTU_TYPE_UNKNOWN && !(args[i] = coerce(c, args[i], t, false, pos))) return NULL;
    attu_enum_def *d = def_of(c, t, pos);
    if (!d) return NULL;
    attu_type arr = attu_type_array_of(t);
    if (n == 1) {
        attu_bexpr *res = range_const(c, d, t, 0, d->n - 1, pos);
        attu_enum_def_free(d);
        return res;
    }
    /* index of a value: a CASE; the answer a CASE over the pairs */
    attu_bexpr *idx[2];
    attu_type i4 = attu_type_make(ATTU_TYPE_INT32), tb = attu_type_make(ATTU_TYPE_BOOL);
    for (int a = 0; a < 2; a++) {
        attu_bexpr *k = attu_bx_new(c->pa, BX_CASE, i4, pos);
        if (!k || !(k->whens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(d->n + 1))) ||
            !(k->thens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(d->n + 1)))) goto oom;
        k->nwhens = d->n;
        for (int i = 0; i < d->n; i++) {
            size_t il;
            char *img = attu_enum_image(d, i, &il);
            attu_bexpr *v = img ? text_const(c, img, il, t, pos) : NULL;
            free(img);
            k->whens[i] = v ? mk_call(c, ATTU_OP_EQ_S, tb, pos, 2, args[a], v, NULL, NULL) : NULL;
            k->thens[i] = mk_const_int(c, i4, i);
            if (!k->whens[i] || !k->thens[i]) goto oom;
        }
        /* NULL: the type's end on that side */
        k->else_ = mk_const_int(c, i4, a == 0 ? 0 : d->n - 1);
        idx[a] = k;
    }
    /* a range from lo to hi is the labels between, in order; lo after hi
     * gives the empty array */
    int pairs = d->n * d->n;
    attu_bexpr *k = attu_bx_new(c->pa, BX_CASE, arr, pos);
    if (!k || !(k->whens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(pairs + 1))) ||
        !(k->thens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(pairs + 1)))) goto oom;
    attu_type i8 = attu_type_make(ATTU_TYPE_INT64);
    attu_bexpr *code = mk_call(c, ATTU_OP_ADD_I, i8, pos, 2,
                               mk_call(c, ATTU_OP_MUL_I, i8, pos, 2, coerce(c, idx[0], i8, false, pos), mk_const_int(c, i8, d->n), NULL, NULL),
                               coerce(c, idx[1], i8, false, pos), NULL, NULL);
    if (!code) goto oom;
    int w = 0;
    for (int lo = 0; lo < d->n; lo++)
        for (int hi = 0; hi < d->n; hi++) {
            attu_bexpr *v = range_const(c, d, t, lo, hi, pos);
            if (!v) goto oom;
            k->whens[w] = v ? mk_call(c, ATTU_OP_EQ_I, tb, pos, 2, code, mk_const_int(c, i8, (int64_t)lo * d->n + hi), NULL, NULL) : NULL;
            k->thens[w] = v;
            if (!k->whens[w]) goto oom;
            w++;
        }
    k->nwhens = w;
    k->else_ = text_const(c, "", 0, arr, pos);   /* '{}' is the empty string */
    attu_enum_def_free(d);
    /* (both NULL: PostgreSQL's whole range; that is what the ends give) */
    return k;
oom:
    attu_enum_def_free(d);
    if (!c->err->set) attu_error_oom(c->err);
    return NULL;
}
