/*
 * json_bind.c - binding PostgreSQL 15's json and jsonb: literals and casts,
 * the operators (-> ->> #> #>> @> <@ ? ?| ?& || - #- and the comparisons of
 * jsonb), the functions, the aggregates json(b)_agg and json(b)_object_agg
 * (string_agg of each row's json text, wrapped), and the set-returning
 * functions (a series over the elements, as unnest). Every run-time piece
 * is one ATTU_OP_JSON instruction (engine/json.h), host only: the GPU
 * expression evaluator declines the opcode, so the host evaluates it.
 */
#include "planner/binder_internal.h"
#include "engine/array.h"
#include "engine/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static attu_bexpr *js_call(bctx *c, attu_json_fn f, attu_type t, int pos, int nargs, attu_bexpr *a0, attu_bexpr *a1,
                           attu_bexpr *a2, attu_bexpr *a3) {
    attu_bexpr *e = mk_call(c, ATTU_OP_JSON, t, pos, nargs, a0, a1, a2, a3);
    if (e) e->aux = f;
    return e;
}
static attu_bexpr *js_call_imm(bctx *c, attu_json_fn f, attu_type t, int pos, int nargs, attu_bexpr *a0,
                               attu_bexpr *a1, int64_t imm) {
    attu_bexpr *e = js_call(c, f, t, pos, nargs, a0, a1, NULL, NULL);
    if (e) e->imm = imm;
    return e;
}

static attu_type text_array_type(void) { return attu_type_array_of(attu_type_make(ATTU_TYPE_TEXT)); }

static attu_bexpr *no_operator(bctx *c, const char *op, attu_bexpr *l, attu_bexpr *r, int pos) {
    char b1[64], b2[64];
    if (c->err->set) attu_error_clear(c->err);
    attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "operator does not exist: %s %s %s",
                   tname(l->type, b1), op, tname(r->type, b2));
    attu_error_set_hint(c->err, "No operator matches the given name and argument types. You might need to add explicit type casts.");
    return NULL;
}

/* ---- literals and casts ----------------------------------------------------------- */

attu_bexpr *attu_json_parse_literal(bctx *c, attu_bexpr *r, const char *s, size_t len) {
    if (attu_type_is_jsonb(r->type)) {
        char *out = NULL;
        size_t n = 0;
        if (attu_jsonb_canonical(s, len, &out, &n, c->err)) out = NULL;
        return mk_const_canonical(c, r, out, n);
    }
    if (attu_json_validate(s, len, c->err)) { c->err->position = r->position; return NULL; }
    r->s = (char *)s; r->slen = len;   /* the literal's own bytes, kept by the plan arena */
    return r;
}

/* json <-> jsonb, json(b) -> text types (explicit; the same bytes), text
 * types -> json(b) (explicit: validated, or made canonical) */
attu_bexpr *attu_json_coerce(bctx *c, attu_bexpr *e, attu_type t, bool explicit_cast, int pos) {
    char b2[64];
    attu_type from = e->type;
    if (e->kind == BX_CONST && e->is_null) { attu_bexpr *n = mk_const_null(c, t); if (n) n->position = e->position; return n; }
    if (attu_type_is_json_any(from) && attu_type_is_json_any(t)) {
        if (attu_type_is_jsonb(from) == attu_type_is_jsonb(t)) return e;
        if (attu_type_is_jsonb(t)) return js_call(c, ATTU_JS_IN, t, pos, 1, e, NULL, NULL, NULL);
        return mk_call(c, ATTU_OP_MOVE, t, pos, 1, e, NULL, NULL, NULL);
    }
    if (attu_type_is_json_any(from) && t.id == ATTU_TYPE_TEXT && !attu_type_is_array(t) && !attu_type_is_record(t)) {
        if (!explicit_cast) return cast_refused(c, from, t, false, pos);
        if (attu_type_is_bpchar(t) || (attu_type_is_varchar_any(t) && t.precision > 0)) {
            /* through text, where the length rule applies */
            attu_bexpr *m = mk_call(c, ATTU_OP_MOVE, attu_type_make(ATTU_TYPE_TEXT), pos, 1, e, NULL, NULL, NULL);
            return m ? coerce(c, m, t, explicit_cast, pos) : NULL;
        }
        return mk_call(c, ATTU_OP_MOVE, t, pos, 1, e, NULL, NULL, NULL);
    }
    if (attu_type_is_json_any(t) && from.id == ATTU_TYPE_TEXT && !attu_type_is_array(from)) {
        if (!explicit_cast) return cast_refused(c, from, t, false, pos);
        if (attu_type_is_bpchar_any(from)) e = coerce(c, e, attu_type_make(ATTU_TYPE_TEXT), true, pos);
        return e ? js_call(c, ATTU_JS_IN, t, pos, 1, e, NULL, NULL, NULL) : NULL;
    }
    if (attu_type_is_jsonb(from) && explicit_cast &&
        (attu_type_is_int(t.id) || t.id == ATTU_TYPE_FLOAT32 || t.id == ATTU_TYPE_FLOAT64 || t.id == ATTU_TYPE_DECIMAL ||
         t.id == ATTU_TYPE_NUMERIC || t.id == ATTU_TYPE_BOOL)) {
        /* jsonb's casts to numbers and boolean: the scalar's text cast on
         * (numbers through numeric, which rounds as PostgreSQL's does) */
        attu_bexpr *tn = mk_const_cstr(c, tname(t, b2), pos);
        attu_bexpr *tx = tn ? js_call_imm(c, ATTU_JS_CAST, attu_type_make(ATTU_TYPE_TEXT), pos, 2, e, tn,
                                          t.id == ATTU_TYPE_BOOL) : NULL;
        if (tx && t.id != ATTU_TYPE_BOOL && t.id != ATTU_TYPE_NUMERIC && t.id != ATTU_TYPE_DECIMAL &&
            attu_type_mclass(t.id) != ATTU_MC_FLOAT)
            tx = coerce(c, tx, attu_type_make(ATTU_TYPE_NUMERIC), true, pos);
        return tx ? coerce(c, tx, t, true, pos) : NULL;
    }
    return cast_refused(c, from, t, explicit_cast, pos);
}

/* ---- keys and comparisons ------------------------------------------------------------ */

attu_bexpr *attu_json_key_expr(bctx *c, attu_bexpr *a) {
    if (!a || !attu_type_is_jsonb(a->type)) return a;
    return js_call(c, ATTU_JS_KEY, attu_type_make(ATTU_TYPE_TEXT), a->position, 1, a, NULL, NULL, NULL);
}

/* an operand of a jsonb operator: an untyped literal read as jsonb */
static attu_bexpr *as_jsonb(bctx *c, attu_bexpr *x, int pos) {
    if (x->type.id == ATTU_TYPE_UNKNOWN) return coerce(c, x, attu_type_json(1), false, pos);
    return attu_type_is_jsonb(x->type) ? x : NULL;
}

attu_bexpr *attu_json_compare(bctx *c, attu_opcode text_op, const char *opname, attu_bexpr *l, attu_bexpr *r, int pos) {
    attu_bexpr *a = NULL, *b = NULL;
    if (attu_type_is_jsonb(l->type) || attu_type_is_jsonb(r->type)) {
        a = as_jsonb(c, l, pos);
        b = a ? as_jsonb(c, r, pos) : NULL;
        if (c->err->set) return NULL;
    }
    if (!a || !b) return no_operator(c, opname, l, r, pos);
    if (!(a = attu_json_key_expr(c, a)) || !(b = attu_json_key_expr(c, b))) return NULL;
    return mk_call(c, text_op, attu_type_make(ATTU_TYPE_BOOL), pos, 2, a, b, NULL, NULL);
}

/* jsonb || jsonb and jsonb - text / int / text[]: *handled false where l
 * and r are no such operands (the text operators take them) */
attu_bexpr *attu_json_binary(bctx *c, bool concat, attu_bexpr *l, attu_bexpr *r, int pos, bool *handled) {
    *handled = false;
    if (concat) {
        if (!((attu_type_is_jsonb(l->type) && (attu_type_is_jsonb(r->type) || r->type.id == ATTU_TYPE_UNKNOWN)) ||
              (attu_type_is_jsonb(r->type) && l->type.id == ATTU_TYPE_UNKNOWN)))
            return NULL;
        *handled = true;
        attu_bexpr *a = as_jsonb(c, l, pos), *b = a ? as_jsonb(c, r, pos) : NULL;
        if (!b) return NULL;
        return js_call(c, ATTU_JS_CONCAT, attu_type_json(1), pos, 2, a, b, NULL, NULL);
    }
    if (!attu_type_is_json_any(l->type) && !attu_type_is_json_any(r->type)) return NULL;
    *handled = true;
    if (!attu_type_is_jsonb(l->type)) return no_operator(c, "-", l, r, pos);
    attu_bexpr *b = r;
    if (r->type.id == ATTU_TYPE_UNKNOWN || (r->type.id == ATTU_TYPE_TEXT && !attu_type_is_array(r->type) &&
                                            !attu_type_is_json_any(r->type)))
        b = coerce(c, r, attu_type_make(ATTU_TYPE_TEXT), false, pos);
    else if (attu_type_is_int(r->type.id) && r->type.id != ATTU_TYPE_INT64)
        b = coerce(c, r, attu_type_make(ATTU_TYPE_INT32), false, pos);
    else if (attu_type_is_array(r->type) && attu_type_array_elem(r->type).id == ATTU_TYPE_TEXT)
        b = coerce(c, r, text_array_type(), false, pos);
    else return no_operator(c, "-", l, r, pos);
    return b ? js_call(c, ATTU_JS_DELETE, attu_type_json(1), pos, 2, l, b, NULL, NULL) : NULL;
}

/* ---- to_json: any value as json text ---------------------------------------------------- */

static int elem_class(attu_type e) {
    if (attu_type_is_json_any(e)) return ATTU_JSC_JSON;   /* a json[] / jsonb[]'s elements as they are */
    if (e.id == ATTU_TYPE_BOOL) return ATTU_JSC_BOOL;
    if (attu_type_is_int(e.id) || e.id == ATTU_TYPE_FLOAT32 || e.id == ATTU_TYPE_FLOAT64 || e.id == ATTU_TYPE_DECIMAL ||
        e.id == ATTU_TYPE_NUMERIC)
        return ATTU_JSC_NUMBER;
    if (e.id == ATTU_TYPE_TIMESTAMP) return ATTU_JSC_TIMESTAMP;
    if (e.id == ATTU_TYPE_TIMESTAMPTZ || e.id == ATTU_TYPE_TIMETZ) return ATTU_JSC_TIMESTAMPTZ;
    return ATTU_JSC_STRING;
}

/* x as json text (to_json), typed json, or jsonb (to_jsonb) when binary;
 * NULL stays NULL. pretty_arrays: array_to_json's line feeds. */
/* The names of a row value's items, as PostgreSQL's row_to_json keys
 * them: a whole-row reference t (or t.*) names its columns; any other row
 * (ROW(...)) has f1, f2 ... NULL without an error when a is no row. */
/* The names of row x's fields (a written as a); *positional when none
 * were found and they are f1, f2 ... */
static const char **row_names(bctx *c, const scope *sc, const struct attu_ast_expr *a, const attu_bexpr *x,
                              bool *positional, int *count) {
    attu_bexpr **items;
    int n = x && attu_type_is_record(x->type) ? attu_row_value_items(c, x, &items) : -1;
    *positional = false;
    *count = n;
    if (n < 0) return NULL;
    if (a && a->kind == ATTU_EXPR_COLUMN && sc) {
        /* a derived table's row column carrying its fields' names (the
         * column bind_column finds: qualified alike, unhidden) */
        const char *q = a->u.column.qualifier;
        for (int k = 0; k < sc->n; k++) {
            const scope_col *col = &sc->cols[k];
            if (strcmp(col->name, a->u.column.name) || (q && (!col->qual || strcmp(col->qual, q))) ||
                (!q && col->hidden))
                continue;
            if (col->row_names && col->nrow_names == n) return (const char **)col->row_names;
            break;
        }
    }
    const char **names = attu_palloc(c->pa, sizeof(char *) * (size_t)(n + 1));
    if (!names) { attu_error_oom(c->err); return NULL; }
    const char *qual = NULL;
    if (a && a->kind == ATTU_EXPR_COLUMN && !a->u.column.qualifier) qual = a->u.column.name;
    else if (a && a->kind == ATTU_EXPR_STAR && a->u.star.qualifier) qual = a->u.star.qualifier;
    int m = 0;
    if (qual && sc) {
        /* the FROM item's columns in their order (qual_pos), as t.* lists them */
        for (int pos = 0; m < n; pos++) {
            const char *found = NULL;
            bool any = false;
            for (int k = 0; k < sc->n; k++) {
                const scope_col *col = &sc->cols[k];
                if (!col->qual || strcmp(col->qual, qual) || (col->hidden && !col->using_copy)) continue;
                if (col->qual_pos >= pos) any = true;
                if (col->qual_pos == pos) found = col->name;
            }
            if (!any) break;
            if (found) names[m++] = found;
        }
    }
    if (m != n) {
        *positional = true;
        for (int i = 0; i < n; i++) {
            char b[16];
            snprintf(b, sizeof b, "f%d", i + 1);
            if (!(names[i] = attu_pstrdup(c->pa, b, strlen(b)))) { attu_error_oom(c->err); return NULL; }
        }
    }
    return names;
}

const char **attu_json_row_names(bctx *c, const scope *sc, const struct attu_ast_expr *a, const attu_bexpr *x) {
    bool positional;
    int n;
    return row_names(c, sc, a, x, &positional, &n);
}

const char **attu_row_field_names(bctx *c, const scope *sc, const struct attu_ast_expr *a, const attu_bexpr *x, int *n) {
    bool positional;
    const char **names = row_names(c, sc, a, x, &positional, n);
    return positional ? NULL : names;
}

/* A row value as a json object ({"a":1,"b":"x"}, row_to_json's spacing),
 * NULL for a NULL row. */
static attu_bexpr *row_object(bctx *c, attu_bexpr *x, const char **names, bool binary, int pos) {
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT), jt = attu_type_json(binary);
    attu_bexpr **items;
    int n = attu_row_value_items(c, x, &items);
    if (n < 0 || !names) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "to_json of this row value is not supported in attu");
        return NULL;
    }
    attu_bexpr *acc = mk_const_null(c, txt);
    for (int i = 0; i < n && acc; i++) {
        attu_bexpr *v = attu_json_value(c, items[i], binary, pos, NULL);
        attu_bexpr *k = v ? mk_const_cstr(c, names[i], pos) : NULL;
        if (!k || !(v = mk_call(c, ATTU_OP_MOVE, txt, pos, 1, v, NULL, NULL, NULL))) return NULL;
        acc = js_call(c, ATTU_JS_OBJ_ADD, txt, pos, 3, acc, k, v, NULL);
        if (acc) acc->imm = -1;   /* "k":v joined by "," */
    }
    attu_bexpr *r = acc ? js_call(c, ATTU_JS_WRAP_OBJ, jt, pos, 1, acc, NULL, NULL, NULL) : NULL;
    attu_bexpr *nn = r ? mk_call(c, ATTU_OP_IS_NOT_NULL, attu_type_make(ATTU_TYPE_BOOL), pos, 1, x, NULL, NULL, NULL) : NULL;
    attu_bexpr *nl = nn ? mk_const_null(c, jt) : NULL;
    return nl ? mk_call(c, ATTU_OP_SELECT, jt, pos, 3, r, nl, nn, NULL) : NULL;
}

attu_bexpr *attu_json_value(bctx *c, attu_bexpr *x, bool binary, int pos, const char **row_names) {
    attu_type jt = attu_type_json(binary), txt = attu_type_make(ATTU_TYPE_TEXT);
    if (!x) return NULL;
    if (x->type.id == ATTU_TYPE_UNKNOWN && !(x = coerce(c, x, txt, false, pos))) return NULL;
    attu_bexpr *r;
    if (attu_type_is_json_any(x->type)) return coerce(c, x, jt, true, pos);
    if (attu_type_is_record(x->type))
        return row_object(c, x, row_names ? row_names : attu_json_row_names(c, NULL, NULL, x), binary, pos);
    if (attu_type_is_array(x->type)) {
        attu_type e = attu_type_array_elem(x->type);
        attu_bexpr *t = coerce(c, x, txt, true, pos);
        r = t ? js_call_imm(c, ATTU_JS_FROM_ARRAY, binary ? txt : jt, pos, 1, t, NULL, elem_class(e)) : NULL;
        if (r && binary) r = js_call(c, ATTU_JS_IN, jt, pos, 1, r, NULL, NULL, NULL);
        if (r) {
            /* a NULL array is NULL (FROM_ARRAY is not strict) */
            attu_bexpr *nn = mk_call(c, ATTU_OP_IS_NOT_NULL, attu_type_make(ATTU_TYPE_BOOL), pos, 1, x, NULL, NULL, NULL);
            attu_bexpr *nl = mk_const_null(c, jt);
            r = nn && nl ? mk_call(c, ATTU_OP_SELECT, jt, pos, 3, r, nl, nn, NULL) : NULL;
        }
        return r;
    }
    if (x->type.id == ATTU_TYPE_TEXT) {
        if (attu_type_is_bpchar(x->type) && !(x = bpchar_padded(c, x, pos))) return NULL;
        if (attu_type_is_enum(x->type) && !(x = coerce(c, x, txt, true, pos))) return NULL;   /* its label */
        if (attu_type_is_range(x->type) && !(x = coerce(c, x, txt, true, pos))) return NULL;   /* its text */
        if (x->type.id != ATTU_TYPE_TEXT || x->type.scale || x->type.precision)
            x = mk_call(c, ATTU_OP_MOVE, txt, pos, 1, x, NULL, NULL, NULL);
        return x ? js_call(c, ATTU_JS_QUOTE, jt, pos, 1, x, NULL, NULL, NULL) : NULL;
    }
    attu_bexpr *t = coerce(c, x, txt, true, pos);
    if (!t) return NULL;
    switch (x->type.id) {
    case ATTU_TYPE_BOOL: case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_INT64:
        return mk_call(c, ATTU_OP_MOVE, jt, pos, 1, t, NULL, NULL, NULL);
    case ATTU_TYPE_FLOAT32: case ATTU_TYPE_FLOAT64: case ATTU_TYPE_DECIMAL: case ATTU_TYPE_NUMERIC:
        r = js_call_imm(c, ATTU_JS_SCALAR, binary ? txt : jt, pos, 1, t, NULL, 0);
        return r && binary ? js_call(c, ATTU_JS_IN, jt, pos, 1, r, NULL, NULL, NULL) : r;
    case ATTU_TYPE_TIMESTAMP:
        return js_call_imm(c, ATTU_JS_SCALAR, jt, pos, 1, t, NULL, 1);
    case ATTU_TYPE_TIMESTAMPTZ: case ATTU_TYPE_TIMETZ:
        return js_call_imm(c, ATTU_JS_SCALAR, jt, pos, 1, t, NULL, 2);
    default:
        return js_call(c, ATTU_JS_QUOTE, jt, pos, 1, t, NULL, NULL, NULL);
    }
}

/* ---- aggregates ---------------------------------------------------------------------------- */

int attu_json_agg_kind(const char *name) {
    static const char *const names[] = { "json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg" };
    for (int i = 0; i < 4; i++) if (!strcmp(name, names[i])) return i + 1;
    return 0;
}

/* string_agg's arguments for a json aggregate: each row's piece of the
 * text, and the separator */
bool attu_json_agg_args(bctx *c, int kind, attu_bexpr **args, int *n, int pos, const char **row_names) {
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT);
    bool binary = kind == 2 || kind == 4;
    attu_bexpr *piece;
    if (kind <= 2) {
        attu_bexpr *v = attu_json_value(c, args[0], binary, pos, row_names);
        if (!v || !(v = mk_call(c, ATTU_OP_MOVE, txt, pos, 1, v, NULL, NULL, NULL))) return false;
        piece = js_call(c, ATTU_JS_ARR_ADD, txt, pos, 3, mk_const_null(c, txt), mk_const_null(c, txt), v, NULL);
    } else {
        attu_bexpr *k = args[0], *v = attu_json_value(c, args[1], binary, pos, row_names);
        if (!v || !(v = mk_call(c, ATTU_OP_MOVE, txt, pos, 1, v, NULL, NULL, NULL))) return false;
        if (k->type.id == ATTU_TYPE_UNKNOWN || k->type.id != ATTU_TYPE_TEXT || k->type.scale || attu_type_is_array(k->type))
            k = coerce(c, k, txt, true, pos);
        if (!k) return false;
        piece = js_call(c, ATTU_JS_OBJ_ADD, txt, pos, 3, mk_const_null(c, txt), k, v, NULL);
    }
    if (!piece) return false;
    bool arrays = kind == 1 && (attu_type_is_array(args[0]->type) || attu_type_is_record(args[0]->type));
    args[0] = piece;
    /* json_agg puts a line feed before each array after the first, as
     * PostgreSQL's json_agg_transfn does for arrays and rows */
    args[1] = mk_const_cstr(c, arrays ? ", \n " : ", ", pos);
    *n = 2;
    return args[1] != NULL;
}

attu_bexpr *attu_json_agg_finish(bctx *c, int kind, attu_bexpr *res, int pos) {
    bool binary = kind == 2 || kind == 4;
    bool obj = kind >= 3;
    attu_bexpr *r = js_call(c, obj ? ATTU_JS_WRAP_OBJ : ATTU_JS_WRAP_ARR, attu_type_json(binary), pos, 1, res, NULL, NULL, NULL);
    if (r) r->imm = obj ? 3 : 2;
    return r;
}

/* ---- functions and operators ------------------------------------------------------------------ */

static const char *const json_names[] = {
    " ->", " ->>", " #>", " #>>", " ?", " ?|", " ?&", " #-",
    "to_json", "to_jsonb", "array_to_json", "json_build_object", "jsonb_build_object", "json_build_array",
    "jsonb_build_array", "json_object", "jsonb_object", "json_typeof", "jsonb_typeof", "json_array_length",
    "jsonb_array_length", "json_extract_path", "json_extract_path_text", "jsonb_extract_path",
    "jsonb_extract_path_text", "json_strip_nulls", "jsonb_strip_nulls", "jsonb_set", "jsonb_insert", "jsonb_pretty",
    "json_array_elements", "json_array_elements_text", "jsonb_array_elements", "jsonb_array_elements_text",
    "json_each", "json_each_text", "jsonb_each", "jsonb_each_text", "json_object_keys", "jsonb_object_keys",
    "row_to_json", "json_to_record", "jsonb_to_record", "json_to_recordset", "jsonb_to_recordset",
    "json_populate_record", "jsonb_populate_record", "json_populate_recordset", "jsonb_populate_recordset",
};

bool attu_json_function_name(const char *name) {
    if (attu_jsonpath_function_name(name) || !strcmp(name, " @?") || !strcmp(name, " @@")) return true;
    for (size_t i = 0; i < sizeof json_names / sizeof *json_names; i++) if (!strcmp(json_names[i], name)) return true;
    return false;
}

/* the json argument i of a json (jsonb: binary 1, json: 0, either: -1)
 * function, an untyped literal read as json (jsonb where binary) */
static attu_bexpr *json_arg(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n, int i, int binary) {
    attu_bexpr *x = args[i];
    if (x->type.id == ATTU_TYPE_UNKNOWN) return coerce(c, x, attu_type_json(binary != 0), false, x->position ? x->position : e->position);
    if (binary < 0 ? attu_type_is_json_any(x->type) : binary ? attu_type_is_jsonb(x->type) : attu_type_is_json(x->type))
        return x;
    attu_no_function(c, e, args, n);
    return NULL;
}

static attu_bexpr *text_arg(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n, int i) {
    attu_bexpr *x = args[i];
    if (x->type.id == ATTU_TYPE_UNKNOWN || (x->type.id == ATTU_TYPE_TEXT && !attu_type_is_array(x->type) &&
                                            !attu_type_is_json_any(x->type) && !attu_type_is_record(x->type)))
        return coerce(c, x, attu_type_make(ATTU_TYPE_TEXT), false, e->position);
    attu_no_function(c, e, args, n);
    return NULL;
}

static attu_bexpr *text_array_arg(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n, int i) {
    attu_bexpr *x = args[i];
    if (x->type.id == ATTU_TYPE_UNKNOWN ||
        (attu_type_is_array(x->type) && attu_type_array_elem(x->type).id == ATTU_TYPE_TEXT))
        return coerce(c, x, text_array_type(), false, e->position);
    attu_no_function(c, e, args, n);
    return NULL;
}

static attu_bexpr *bool_arg(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n, int i) {
    attu_bexpr *x = args[i];
    if (x->type.id == ATTU_TYPE_UNKNOWN || x->type.id == ATTU_TYPE_BOOL)
        return coerce(c, x, attu_type_make(ATTU_TYPE_BOOL), false, e->position);
    attu_no_function(c, e, args, n);
    return NULL;
}

/* json_build_object / json_build_array of n values */
static attu_bexpr *build(bctx *c, const scope *sc, const attu_ast_expr *e, attu_bexpr **args, int n, bool obj, bool binary) {
    int pos = e->position;
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT);
    if (obj && n % 2) {
        attu_error_set(c->err, ATTU_SQLSTATE_INVALID_PARAMETER, pos, "argument list must have even number of elements");
        attu_error_set_hint(c->err, binary ? "The arguments of jsonb_build_object() must consist of alternating keys and values."
                                           : "The arguments of json_build_object() must consist of alternating keys and values.");
        return NULL;
    }
    attu_bexpr *acc = mk_const_null(c, txt);
    for (int i = 0; acc && i < n; i += obj ? 2 : 1) {
        attu_bexpr *v = attu_json_value(c, args[i + obj], false, pos,
                                        attu_json_row_names(c, sc, e->u.func.args.items[i + obj], args[i + obj]));
        if (!v || !(v = mk_call(c, ATTU_OP_MOVE, txt, pos, 1, v, NULL, NULL, NULL))) return NULL;
        if (obj) {
            attu_bexpr *k = args[i];

            if (attu_type_is_json_any(k->type) || attu_type_is_array(k->type) || attu_type_is_record(k->type)) {
                attu_error_set(c->err, ATTU_SQLSTATE_INVALID_PARAMETER, pos,
                               "key value must be scalar, not array, composite, or json");
                return NULL;
            }
            if (!(k = coerce(c, k, txt, true, pos))) return NULL;
            acc = js_call(c, ATTU_JS_OBJ_ADD, txt, pos, 3, acc, k, v, NULL);
            if (acc) acc->imm = i + 1 + (binary ? 1000 : 0);   /* the key's argument number, for its error */
        } else acc = js_call(c, ATTU_JS_ARR_ADD, txt, pos, 3, acc, mk_const_null(c, txt), v, NULL);
    }
    if (!acc) return NULL;
    return js_call(c, obj ? ATTU_JS_WRAP_OBJ : ATTU_JS_WRAP_ARR, attu_type_json(binary), pos, 1, acc, NULL, NULL, NULL);
}

/* the parts of a set-returning json function: the series of its rows
 * (mode: ATTU_JS_COUNT's imm_i) */
static attu_bexpr *srf_series_mode(bctx *c, attu_bexpr *j, int mode, const char *fname, int pos) {
    attu_type i4 = attu_type_make(ATTU_TYPE_INT32);
    attu_bexpr *x = attu_bx_new(c->pa, BX_SRF, i4, pos);
    if (!x) { attu_error_oom(c->err); return NULL; }
    attu_bexpr *fn = mk_const_cstr(c, fname, pos);
    attu_bexpr *cnt = fn ? js_call_imm(c, ATTU_JS_COUNT, i4, pos, 2, j, fn, mode) : NULL;
    x->nargs = 3;
    x->args[0] = mk_const_int(c, i4, 1);
    x->args[1] = cnt;
    x->args[2] = mk_const_int(c, i4, 1);
    if (!x->args[0] || !x->args[1] || !x->args[2]) return NULL;
    return x;
}

/* (for planner/jsonpath_bind.c: jsonb_path_query's rows are the elements
 * of jsonb_path_query_array's result) */
attu_bexpr *attu_json_srf_series_mode(bctx *c, attu_bexpr *j, int mode, const char *fname, int pos) {
    return srf_series_mode(c, j, mode, fname, pos);
}

static attu_bexpr *srf_series(bctx *c, attu_bexpr *j, bool objects, const char *fname, int pos) {
    return srf_series_mode(c, j, objects ? 1 : 0, fname, pos);
}

/* What a set-returning json function gives for the series' k: column 0
 * (the value, or the key for json_each and json_object_keys) or 1 (the
 * value of json_each). */
attu_bexpr *attu_json_srf_column(bctx *c, const char *name, attu_bexpr *j, attu_bexpr *k, int col, int pos) {
    bool as_text = strstr(name, "_text") != NULL, binary = !strncmp(name, "jsonb", 5);
    bool each = strstr(name, "_each") != NULL, keys = strstr(name, "object_keys") != NULL;
    attu_type rt = as_text ? attu_type_make(ATTU_TYPE_TEXT) : attu_type_json(binary);
    if (keys || (each && col == 0)) return js_call_imm(c, ATTU_JS_NTH, attu_type_make(ATTU_TYPE_TEXT), pos, 2, j, k, 1);
    return js_call_imm(c, ATTU_JS_NTH, rt, pos, 2, j, k, as_text ? 2 : 0);
}

/* ---- json_to_record and json_populate_record (FROM, planner/srf.c) -------------------- */

bool attu_json_record_name(const char *name) {
    return attu_json_function_name(name) && strstr(name, "_record") != NULL;
}

/* The json argument of a record function (call), an untyped literal read
 * as json (jsonb for the jsonb_ functions). */
attu_bexpr *attu_json_record_arg(bctx *c, const attu_ast_expr *call, attu_bexpr **args, int n, int i) {
    return json_arg(c, call, args, n, i, !strncmp(call->u.func.name, "jsonb", 5));
}

/* The rows of json_to_recordset(j): its elements, every one an object
 * (PostgreSQL's 22023 otherwise); of json_to_record(j): one. */
attu_bexpr *attu_json_record_series(bctx *c, const attu_ast_expr *call, attu_bexpr *j, bool set) {
    int pos = call->position;
    if (set) return srf_series_mode(c, j, 2, call->u.func.name, pos);
    attu_type i4 = attu_type_make(ATTU_TYPE_INT32);
    attu_bexpr *x = attu_bx_new(c->pa, BX_SRF, i4, pos);
    if (!x) { attu_error_oom(c->err); return NULL; }
    x->nargs = 3;
    x->args[0] = mk_const_int(c, i4, 1);
    x->args[1] = mk_const_int(c, i4, 1);
    x->args[2] = mk_const_int(c, i4, 1);
    if (!x->args[0] || !x->args[1] || !x->args[2]) return NULL;
    return x;
}

/* The object of row k of json_to_recordset(j) (j itself for json_to_record). */
attu_bexpr *attu_json_record_object(bctx *c, attu_bexpr *j, attu_bexpr *k, bool set, int pos) {
    return set ? js_call_imm(c, ATTU_JS_NTH, j->type, pos, 2, j, k, 0) : j;
}

/* Column key of type t from obj, converted as PostgreSQL's
 * populate_record_field: json and jsonb columns take the value itself,
 * array columns a JSON array element by element (a string through the
 * array's input), any other type the value's text through its input
 * function (a string unquoted): 22P02 and the like for bad values. */
attu_bexpr *attu_json_record_field(bctx *c, attu_bexpr *obj, const char *key, attu_type t, int pos) {
    attu_bexpr *kc = mk_const_cstr(c, key, pos);
    if (!kc) return NULL;
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT);
    if (attu_type_is_json_any(t)) {
        attu_bexpr *v = js_call_imm(c, ATTU_JS_REC_FIELD, obj->type, pos, 2, obj, kc, 0);
        return v ? coerce(c, v, t, true, pos) : NULL;
    }
    if (attu_type_is_array(t)) {
        bool json_elems = attu_type_is_json_any(attu_type_array_elem(t));
        attu_bexpr *v = js_call_imm(c, ATTU_JS_REC_FIELD, txt, pos, 2, obj, kc, 2 + (json_elems ? 4 : 0));
        /* the elements' modifier as their input applies it (varchar(2)[]: 22001) */
        return v ? attu_array_assign(c, v, t, pos) : NULL;
    }
    attu_bexpr *v = js_call_imm(c, ATTU_JS_REC_FIELD, txt, pos, 2, obj, kc, 1);
    if (!v) return NULL;
    if (t.id == ATTU_TYPE_TEXT && !attu_type_is_record(t) && !attu_type_is_typed_text(t)) {
        /* varchar(n) / char(n): the input function's 22001, not a cast's cut */
        return attu_bind_coerce_assign(c->pa, v, t, key, c->err);
    }
    return coerce(c, v, t, true, pos);
}

/* json_populate_record's column: the key's value converted as
 * attu_json_record_field when obj has the key (a JSON null as NULL), else
 * the base row's item (NULL for a NULL::t base), as PostgreSQL's
 * populate_record keeps a non-NULL base row's value for an absent key. */
attu_bexpr *attu_json_populate_field(bctx *c, attu_bexpr *obj, const char *key, attu_type t, attu_bexpr *base, int pos) {
    attu_bexpr *v = attu_json_record_field(c, obj, key, t, pos);
    if (!v || !base) return v;
    attu_bexpr *kc = mk_const_cstr(c, key, pos);
    attu_bexpr *has = kc ? js_call_imm(c, ATTU_JS_REC_FIELD, attu_type_make(ATTU_TYPE_TEXT), pos, 2, obj, kc, 3) : NULL;
    attu_bexpr *test = has ? mk_call(c, ATTU_OP_IS_NOT_NULL, attu_type_make(ATTU_TYPE_BOOL), pos, 1, has, NULL, NULL, NULL) : NULL;
    if (!test) return NULL;
    if (!attu_type_equal(base->type, t) && !(base = coerce(c, base, t, true, pos))) return NULL;
    return mk_call(c, ATTU_OP_SELECT, t, pos, 3, v, base, test, NULL);
}

/* the series of a json SRF in FROM (planner/srf.c), its argument bound */
attu_bexpr *attu_json_srf_series(bctx *c, const attu_ast_expr *call, attu_bexpr *arg, int *ncols) {
    const char *name = call->u.func.name;
    bool binary = !strncmp(name, "jsonb", 5);
    attu_bexpr *args[1] = { arg };
    attu_bexpr *j = json_arg(c, call, args, 1, 0, binary);
    if (!j) return NULL;
    bool objects = strstr(name, "_each") || strstr(name, "object_keys");
    *ncols = strstr(name, "_each") ? 2 : 1;
    return srf_series(c, j, objects, name, call->position);
}
bool attu_json_srf_name(const char *name) {
    if (!strcmp(name, "jsonb_path_query") || !strcmp(name, "jsonb_path_query_tz")) return true;
    return attu_json_function_name(name) && (strstr(name, "_elements") || strstr(name, "_each") || strstr(name, "object_keys"));
}

bool attu_json_populate_call(const struct attu_ast_expr *e) {
    return e && e->kind == ATTU_EXPR_FUNC && !e->u.func.schema && attu_json_record_name(e->u.func.name) &&
           strstr(e->u.func.name, "populate") && !strstr(e->u.func.name, "recordset") && e->u.func.args.n == 2 &&
           !e->u.func.star && !e->u.func.distinct && !e->u.func.over && !e->u.func.order_by.n && !e->u.func.filter;
}

int attu_json_populate_items(bctx *c, const scope *sc, const attu_ast_expr *e, attu_bexpr ***out, const char ***out_names,
                             attu_bexpr **out_guard) {
    int pos = e->position, ncols;
    attu_type *types;
    const char **names;
    attu_bexpr **base, *row_null, *args[2];
    if (!attu_json_populate_base(c, sc, e, false, &ncols, &types, &names, &base, &row_null)) return -1;
    if (!(args[0] = mk_const_null(c, attu_type_make(ATTU_TYPE_UNKNOWN))) ||
        !(args[1] = bind_expr(c, sc, e->u.func.args.items[1])))
        return -1;
    attu_bexpr *j = attu_json_record_arg(c, e, args, 2, 1);
    attu_bexpr **items = j ? attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(ncols + 1)) : NULL;
    if (!items) { if (!c->err->set) attu_error_oom(c->err); return -1; }
    for (int i = 0; i < ncols; i++)
        if (!(items[i] = attu_json_populate_field(c, j, names[i], types[i], base ? base[i] : NULL, pos))) return -1;
    attu_bexpr *guard = NULL;
    attu_type bo = attu_type_make(ATTU_TYPE_BOOL), i4 = attu_type_make(ATTU_TYPE_INT32);
    if (!base) {
        guard = j;                                      /* NULL::t: NULL for a NULL j */
    } else if (row_null) {
        /* a base row that may be NULL (an outer join's missing side):
         * NULL when j is NULL too */
        attu_bexpr *jn = mk_call(c, ATTU_OP_IS_NULL, bo, pos, 1, j, NULL, NULL, NULL);
        attu_bexpr *both = jn ? mk_call(c, ATTU_OP_AND, bo, pos, 2, jn, row_null, NULL, NULL) : NULL;
        attu_bexpr *one = both ? mk_const_int(c, i4, 1) : NULL, *nl = one ? mk_const_null(c, i4) : NULL;
        if (!nl || !(guard = mk_call(c, ATTU_OP_SELECT, i4, pos, 3, nl, one, both, NULL))) return -1;
    }
    *out = items;
    *out_names = names;
    *out_guard = guard;
    return ncols;
}

/* json(b)_populate_record(base, j) in an expression: the row value of its
 * columns (PostgreSQL prints it as (1,x)); NULL when j is NULL and so is
 * the base row (NULL::t), the base row itself when only j is. */
static attu_bexpr *populate_value(bctx *c, const scope *sc, const attu_ast_expr *e) {
    attu_bexpr **items, *guard;
    const char **names;
    int n = attu_json_populate_items(c, sc, e, &items, &names, &guard);
    return n < 0 ? NULL : attu_row_value_of(c, items, n, guard, e->position);
}

/* f(..., VARIADIC arr) of the json functions PostgreSQL declares variadic:
 * json(b)_build_array / _object (VARIADIC "any": arr's elements, of every
 * dimension, are the arguments; a NULL arr gives NULL) and
 * json(b)_extract_path(_text) (VARIADIC text[]: arr is the path). Any
 * other json function is not variadic, and the caller has dropped the
 * VARIADIC of its call, as PostgreSQL does. */
static attu_bexpr *variadic_call(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n, bool binary) {
    const char *name = e->u.func.name;
    int pos = e->position;
    attu_bexpr *arr = args[n - 1];
    bool build = strstr(name, "_build_") != NULL;
    if (build && !attu_type_is_array(arr->type)) {
        attu_error_set(c->err, "42804", e->u.func.args.items[n - 1]->position, "VARIADIC argument must be an array");
        return NULL;
    }
    if (build) {
        /* "any" takes the array as the only argument */
        if (n != 1) return attu_no_function(c, e, args, n);
        bool obj = strstr(name, "_object") != NULL;
        attu_type et = attu_type_array_elem(arr->type);
        if (obj && (attu_type_is_json_any(et) || attu_type_is_record(et))) {
            attu_error_set(c->err, ATTU_SQLSTATE_INVALID_PARAMETER, pos, "key value must be scalar, not array, composite, or json");
            return NULL;
        }
        attu_bexpr *t = coerce(c, arr, attu_type_make(ATTU_TYPE_TEXT), true, pos);
        return t ? js_call_imm(c, ATTU_JS_FROM_ARRAY, attu_type_json(binary), pos, 1, t, NULL,
                               elem_class(et) + (obj ? 64 : 32))
                 : NULL;
    }
    /* json(b)_extract_path(_text)(from, VARIADIC path text[]) */
    if (n != 2 || !(arr->type.id == ATTU_TYPE_UNKNOWN ||
                    (attu_type_is_array(arr->type) && attu_type_array_elem(arr->type).id == ATTU_TYPE_TEXT &&
                     !attu_type_is_json_any(attu_type_array_elem(arr->type)))))
        return attu_no_function(c, e, args, n);
    attu_bexpr *j = json_arg(c, e, args, n, 0, binary);
    attu_bexpr *path = j ? text_array_arg(c, e, args, n, 1) : NULL;
    if (!path) return NULL;
    bool as_text = strstr(name, "_text") != NULL;
    return js_call_imm(c, ATTU_JS_GET_PATH, as_text ? attu_type_make(ATTU_TYPE_TEXT) : j->type, pos, 2, j, path, as_text);
}

attu_bexpr *attu_bind_json_call(bctx *c, const scope *sc, const attu_ast_expr *e) {
    const char *name = e->u.func.name;
    int pos = e->position;
    int n = e->u.func.args.n;
    if (attu_json_populate_call(e)) return populate_value(c, sc, e);
    if (attu_jsonpath_function_name(name)) return attu_bind_jsonpath_call(c, sc, e);   /* planner/jsonpath_bind.c */
    if (attu_json_record_name(name) && strstr(name, "populate") && n != 2 && !e->u.func.star) {
        /* no such function: 42883 with the arguments' types (NULL::t
         * stands for its row type's name, as PostgreSQL's message has it) */
        attu_bexpr *args[100] = { 0 };
        int m = n > 100 ? 100 : n;
        for (int i = 0; i < m; i++) {
            const attu_ast_expr *a = e->u.func.args.items[i];
            if (i == 0 && a->kind == ATTU_EXPR_CAST && a->u.cast.arg->kind == ATTU_EXPR_LITERAL &&
                a->u.cast.arg->u.literal.kind == ATTU_LIT_NULL) {
                args[i] = mk_const_null(c, attu_type_make(ATTU_TYPE_UNKNOWN));
                continue;
            }
            if (!(args[i] = bind_expr(c, sc, a))) return NULL;
        }
        return attu_no_function(c, e, args, m);
    }
    if (attu_json_record_name(name) && strstr(name, "populate") && strstr(name, "recordset")) {
        /* before the arguments: NULL::t is no value attu binds */
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos,
                       "%s in the select list is not supported in attu (call it in FROM)", name);
        return NULL;
    }
    attu_bexpr *args[100] = { 0 };
    if (n > 100) n = 100;
    for (int i = 0; i < n; i++) if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
    if (e->u.func.star || e->u.func.distinct || e->u.func.over) return attu_no_function(c, e, args, n);
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT), i4 = attu_type_make(ATTU_TYPE_INT32), bo = attu_type_make(ATTU_TYPE_BOOL);
    bool binary = !strncmp(name, "jsonb", 5) || !strcmp(name, "to_jsonb");
    if (e->u.func.variadic) return variadic_call(c, e, args, n, binary);
    if (name[0] == ' ') {
        /* the operators */
        const char *op = name + 1;
        attu_bexpr *l = args[0], *r = args[1];
        if (!strcmp(op, "->") || !strcmp(op, "->>")) {
            if (!attu_type_is_json_any(l->type)) return no_operator(c, op, l, r, pos);
            bool as_text = op[2] == '>';
            attu_bexpr *k;
            if (r->type.id == ATTU_TYPE_UNKNOWN || (r->type.id == ATTU_TYPE_TEXT && !attu_type_is_array(r->type) &&
                                                    !attu_type_is_json_any(r->type)))
                k = coerce(c, r, txt, false, pos);
            else if (attu_type_is_int(r->type.id) && r->type.id != ATTU_TYPE_INT64) k = coerce(c, r, i4, false, pos);
            else return no_operator(c, op, l, r, pos);
            if (!k) return NULL;
            return js_call_imm(c, ATTU_JS_GET, as_text ? txt : l->type, pos, 2, l, k, as_text);
        }
        if (!strcmp(op, "#>") || !strcmp(op, "#>>")) {
            if (!attu_type_is_json_any(l->type)) return no_operator(c, op, l, r, pos);
            if (!(r->type.id == ATTU_TYPE_UNKNOWN ||
                  (attu_type_is_array(r->type) && attu_type_array_elem(r->type).id == ATTU_TYPE_TEXT)))
                return no_operator(c, op, l, r, pos);
            attu_bexpr *p = coerce(c, r, text_array_type(), false, pos);
            bool as_text = op[2] == '>';
            return p ? js_call_imm(c, ATTU_JS_GET_PATH, as_text ? txt : l->type, pos, 2, l, p, as_text) : NULL;
        }
        if (!strcmp(op, "?") || !strcmp(op, "?|") || !strcmp(op, "?&")) {
            if (!attu_type_is_jsonb(l->type)) return no_operator(c, op, l, r, pos);
            attu_bexpr *k;
            if (op[1]) {
                if (!(r->type.id == ATTU_TYPE_UNKNOWN ||
                      (attu_type_is_array(r->type) && attu_type_array_elem(r->type).id == ATTU_TYPE_TEXT)))
                    return no_operator(c, op, l, r, pos);
                k = coerce(c, r, text_array_type(), false, pos);
            } else {
                if (!(r->type.id == ATTU_TYPE_UNKNOWN || (r->type.id == ATTU_TYPE_TEXT && !attu_type_is_array(r->type) &&
                                                         !attu_type_is_json_any(r->type))))
                    return no_operator(c, op, l, r, pos);
                k = coerce(c, r, txt, false, pos);
            }
            if (!k) return NULL;
            return js_call(c, !op[1] ? ATTU_JS_EXISTS : op[1] == '|' ? ATTU_JS_EXISTS_ANY : ATTU_JS_EXISTS_ALL, bo, pos, 2, l,
                           k, NULL, NULL);
        }
        if (!strcmp(op, "@?") || !strcmp(op, "@@")) return attu_jsonpath_operator(c, op[1] == '@', l, r, pos);
        if (!strcmp(op, "#-")) {
            if (!attu_type_is_jsonb(l->type)) return no_operator(c, op, l, r, pos);
            if (!(r->type.id == ATTU_TYPE_UNKNOWN ||
                  (attu_type_is_array(r->type) && attu_type_array_elem(r->type).id == ATTU_TYPE_TEXT)))
                return no_operator(c, op, l, r, pos);
            attu_bexpr *p = coerce(c, r, text_array_type(), false, pos);
            return p ? js_call(c, ATTU_JS_DELETE_PATH, l->type, pos, 2, l, p, NULL, NULL) : NULL;
        }
        return attu_no_function(c, e, args, n);
    }
    if (!strcmp(name, "to_json") || !strcmp(name, "to_jsonb")) {
        if (n != 1) return attu_no_function(c, e, args, n);
        return attu_json_value(c, args[0], binary, pos, attu_json_row_names(c, sc, e->u.func.args.items[0], args[0]));
    }
    if (!strcmp(name, "array_to_json")) {
        if (n < 1 || n > 2 || !attu_type_is_array(args[0]->type)) {
            if (n >= 1 && args[0]->type.id == ATTU_TYPE_UNKNOWN) {
                attu_error_set(c->err, "42P18", pos, "could not determine polymorphic type because input has type unknown");
                return NULL;
            }
            return attu_no_function(c, e, args, n);
        }
        bool pretty = false;
        if (n == 2) {
            attu_bexpr *p = bool_arg(c, e, args, n, 1);
            if (!p) return NULL;
            if (p->kind != BX_CONST) {
                attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "array_to_json takes only a constant pretty flag in attu");
                return NULL;
            }
            pretty = !p->is_null && p->i;
        }
        attu_bexpr *t = coerce(c, args[0], txt, true, pos);
        attu_bexpr *r = t ? js_call_imm(c, ATTU_JS_FROM_ARRAY, attu_type_json(0), pos, 1, t, NULL,
                                        elem_class(attu_type_array_elem(args[0]->type)) + (pretty ? 16 : 0)) : NULL;
        attu_bexpr *nn = r ? mk_call(c, ATTU_OP_IS_NOT_NULL, bo, pos, 1, args[0], NULL, NULL, NULL) : NULL;
        attu_bexpr *nl = nn ? mk_const_null(c, attu_type_json(0)) : NULL;
        return nl ? mk_call(c, ATTU_OP_SELECT, attu_type_json(0), pos, 3, r, nl, nn, NULL) : NULL;
    }
    if (!strcmp(name, "json_build_object") || !strcmp(name, "jsonb_build_object"))
        return build(c, sc, e, args, n, true, binary);
    if (!strcmp(name, "json_build_array") || !strcmp(name, "jsonb_build_array"))
        return build(c, sc, e, args, n, false, binary);
    if (!strcmp(name, "json_object") || !strcmp(name, "jsonb_object")) {
        if (n < 1 || n > 2) return attu_no_function(c, e, args, n);
        attu_bexpr *a = text_array_arg(c, e, args, n, 0), *b = a && n == 2 ? text_array_arg(c, e, args, n, 1) : NULL;
        if (!a || (n == 2 && !b)) return NULL;
        return js_call(c, ATTU_JS_OBJECT, attu_type_json(binary), pos, n, a, b, NULL, NULL);
    }
    if (!strcmp(name, "json_typeof") || !strcmp(name, "jsonb_typeof") || !strcmp(name, "json_array_length") ||
        !strcmp(name, "jsonb_array_length") || !strcmp(name, "json_strip_nulls") || !strcmp(name, "jsonb_strip_nulls") ||
        !strcmp(name, "jsonb_pretty")) {
        if (n != 1) return attu_no_function(c, e, args, n);
        attu_bexpr *j = json_arg(c, e, args, n, 0, binary);
        if (!j) return NULL;
        if (strstr(name, "typeof")) return js_call(c, ATTU_JS_TYPEOF, txt, pos, 1, j, NULL, NULL, NULL);
        if (strstr(name, "length")) return js_call(c, ATTU_JS_ARRAY_LENGTH, i4, pos, 1, j, NULL, NULL, NULL);
        if (strstr(name, "pretty")) return js_call(c, ATTU_JS_PRETTY, txt, pos, 1, j, NULL, NULL, NULL);
        return js_call(c, ATTU_JS_STRIP_NULLS, j->type, pos, 1, j, NULL, NULL, NULL);
    }
    if (strstr(name, "_extract_path")) {
        /* variadic text path: the elements as one text[] (ARRAY[...]) */
        if (n < 2) return attu_no_function(c, e, args, n);
        attu_bexpr *j = json_arg(c, e, args, n, 0, binary);
        if (!j) return NULL;
        attu_bexpr *arr = mk_const_null(c, text_array_type());
        attu_bexpr *empty = attu_bx_new(c->pa, BX_CONST, text_array_type(), pos);
        if (!empty || !(empty->s = attu_pstrdup(c->pa, "", 0))) { attu_error_oom(c->err); return NULL; }
        empty->slen = 0;
        arr = empty;
        for (int i = 1; i < n; i++) {
            attu_bexpr *t = text_arg(c, e, args, n, i);
            if (!t) return NULL;
            attu_bexpr *ap = mk_call(c, ATTU_OP_ARRAY, text_array_type(), pos, 2, arr, t, NULL, NULL);
            if (!ap) return NULL;
            ap->aux = ATTU_ARR_APPEND;
            arr = ap;
        }
        bool as_text = strstr(name, "_text") != NULL;
        return js_call_imm(c, ATTU_JS_GET_PATH, as_text ? txt : j->type, pos, 2, j, arr, as_text);
    }
    if (!strcmp(name, "jsonb_set") || !strcmp(name, "jsonb_insert")) {
        if (n < 3 || n > 4) return attu_no_function(c, e, args, n);
        attu_bexpr *j = json_arg(c, e, args, n, 0, 1), *p = j ? text_array_arg(c, e, args, n, 1) : NULL;
        attu_bexpr *v = p ? json_arg(c, e, args, n, 2, 1) : NULL, *f = NULL;
        if (!v) return NULL;
        if (n == 4 && !(f = bool_arg(c, e, args, n, 3))) return NULL;
        return js_call(c, name[6] == 's' ? ATTU_JS_SET : ATTU_JS_INSERT, attu_type_json(1), pos, n, j, p, v, f);
    }
    if (attu_json_record_name(name)) {
        if (strstr(name, "populate") && strstr(name, "recordset")) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos,
                           "%s in the select list is not supported in attu (call it in FROM)", name);
            return NULL;
        }
        /* PostgreSQL's: no row type without a column definition list */
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "could not determine row type for result of %s", name);
        attu_error_set_hint(c->err, "Provide a non-null record argument, or call the function in the FROM clause using a column definition list.");
        return NULL;
    }
    if (attu_json_srf_name(name)) {
        if (n != 1) return attu_no_function(c, e, args, n);
        if (strstr(name, "_each")) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos,
                           "%s in the select list is not supported in attu (call it in FROM)", name);
            return NULL;
        }
        if (!attu_srf_allowed_here(c, pos)) return NULL;
        attu_bexpr *j = json_arg(c, e, args, n, 0, binary);
        if (!j) return NULL;
        attu_bexpr *x = srf_series(c, j, strstr(name, "object_keys") != NULL, name, pos);
        return x ? attu_json_srf_column(c, name, j, x, 0, pos) : NULL;
    }
    if (!strcmp(name, "row_to_json")) {
        if (n < 1 || n > 2 || !attu_type_is_record(args[0]->type)) return attu_no_function(c, e, args, n);
        if (n == 2) {
            attu_bexpr *p = bool_arg(c, e, args, n, 1);
            if (!p) return NULL;
            if (p->kind != BX_CONST || (!p->is_null && p->i)) {
                attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "row_to_json takes only a constant false pretty flag in attu");
                return NULL;
            }
        }
        return attu_json_value(c, args[0], false, pos, attu_json_row_names(c, sc, e->u.func.args.items[0], args[0]));
    }
    return attu_no_function(c, e, args, n);
}

/* jsonb @> jsonb (l <@ r swapped by the caller) */
attu_bexpr *attu_json_contains(bctx *c, attu_bexpr *l, attu_bexpr *r, int pos) {
    attu_bexpr *a = as_jsonb(c, l, pos), *b = a ? as_jsonb(c, r, pos) : NULL;
    if (c->err->set) return NULL;
    if (!a || !b) return no_operator(c, "@>", l, r, pos);
    return js_call(c, ATTU_JS_CONTAINS, attu_type_make(ATTU_TYPE_BOOL), pos, 2, a, b, NULL, NULL);
}
