/*
 * bytea_bind.c - binding PostgreSQL 15's uuid and bytea: literals, casts
 * (text types <-> uuid / bytea, explicit or by assignment to text as
 * PostgreSQL's I/O casts), bytea || bytea, gen_random_uuid() and the
 * functions of bytea. Values are TEXT registers holding their canonical
 * text (engine/types.h), so comparisons, sorting, grouping and joins are
 * text's; the run-time pieces are ATTU_OP_UUID / ATTU_OP_BYTEA, host only
 * (the GPU expression evaluator declines them).
 */
#include "planner/binder_internal.h"
#include "engine/bytea.h"
#include "engine/uuid.h"

#include <stdlib.h>
#include <string.h>

static attu_bexpr *by_call(bctx *c, attu_bytea_fn f, attu_type t, int pos, int nargs, attu_bexpr *a0, attu_bexpr *a1,
                           attu_bexpr *a2, attu_bexpr *a3) {
    attu_bexpr *e = mk_call(c, ATTU_OP_BYTEA, t, pos, nargs, a0, a1, a2, a3);
    if (e) e->aux = f;
    return e;
}

/* ---- literals and casts ------------------------------------------------------------ */

attu_bexpr *attu_bytea_parse_literal(bctx *c, attu_bexpr *r, const char *s, size_t len) {
    if (attu_type_is_uuid(r->type)) {
        char out[ATTU_UUID_TEXT_LEN];
        if (attu_uuid_canonical(s, len, out, c->err)) { c->err->position = r->position; return NULL; }
        if (!(r->s = attu_pstrdup(c->pa, out, ATTU_UUID_TEXT_LEN))) { attu_error_oom(c->err); return NULL; }
        r->slen = ATTU_UUID_TEXT_LEN;
        return r;
    }
    char *out = NULL;
    size_t n = 0;
    if (attu_bytea_canonical(s, len, &out, &n, c->err)) out = NULL;
    return mk_const_canonical(c, r, out, n);
}

/* uuid / bytea -> text types (explicit, or by assignment: the same bytes,
 * their output text); text types -> uuid / bytea (explicit only: the
 * input function at run time); nothing else. */
attu_bexpr *attu_bytea_coerce(bctx *c, attu_bexpr *e, attu_type t, bool explicit_cast, int pos) {
    attu_type from = e->type;
    if (e->kind == BX_CONST && e->is_null) { attu_bexpr *n = mk_const_null(c, t); if (n) n->position = e->position; return n; }
    bool from_own = attu_type_is_uuid(from) || attu_type_is_bytea(from);
    bool to_own = attu_type_is_uuid(t) || attu_type_is_bytea(t);
    bool plain_from = from.id == ATTU_TYPE_TEXT && !attu_type_is_array(from) && !attu_type_is_typed_text(from);
    bool plain_to = t.id == ATTU_TYPE_TEXT && !attu_type_is_array(t) && !attu_type_is_typed_text(t);
    if (from_own && plain_to) {
        if (!explicit_cast) return cast_refused(c, from, t, false, pos);
        if (attu_type_is_bpchar(t) || (attu_type_is_varchar_any(t) && t.precision > 0)) {
            /* through text, where the length rule applies */
            attu_bexpr *m = mk_call(c, ATTU_OP_MOVE, attu_type_make(ATTU_TYPE_TEXT), pos, 1, e, NULL, NULL, NULL);
            return m ? coerce(c, m, t, explicit_cast, pos) : NULL;
        }
        return mk_call(c, ATTU_OP_MOVE, t, pos, 1, e, NULL, NULL, NULL);
    }
    if (to_own && plain_from) {
        if (!explicit_cast) return cast_refused(c, from, t, false, pos);
        if (attu_type_is_bpchar_any(from)) e = coerce(c, e, attu_type_make(ATTU_TYPE_TEXT), true, pos);
        if (!e) return NULL;
        if (attu_type_is_uuid(t)) {
            attu_bexpr *u = mk_call(c, ATTU_OP_UUID, t, pos, 1, e, NULL, NULL, NULL);
            if (u) u->aux = ATTU_UUID_IN;
            return u;
        }
        return by_call(c, ATTU_BY_IN, t, pos, 1, e, NULL, NULL, NULL);
    }
    return cast_refused(c, from, t, explicit_cast, pos);
}

/* ---- operators ---------------------------------------------------------------------- */

/* bytea || bytea (an untyped literal beside a bytea is one); uuid has no ||
 * but through text. Sets *handled where the operands are theirs. */
attu_bexpr *attu_bytea_concat(bctx *c, attu_bexpr *l, attu_bexpr *r, int pos, bool *handled) {
    bool lb = attu_type_is_bytea(l->type), rb = attu_type_is_bytea(r->type);
    *handled = false;
    if (!(lb && (rb || r->type.id == ATTU_TYPE_UNKNOWN)) && !(rb && l->type.id == ATTU_TYPE_UNKNOWN)) return NULL;
    *handled = true;
    attu_type t = attu_type_bytea();
    if (!(l = coerce(c, l, t, false, pos)) || !(r = coerce(c, r, t, false, pos))) return NULL;
    return by_call(c, ATTU_BY_CONCAT, t, pos, 2, l, r, NULL, NULL);
}

/* string_agg(bytea, bytea): each value and separator as its hex digits
 * (plain text, the held form after "\\x"), which string_agg joins. */
bool attu_bytea_agg_args(bctx *c, attu_bexpr **args, int pos) {
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT);
    attu_bexpr *sep = args[1];
    if (sep->kind == BX_CONST && !sep->is_null && sep->type.id == ATTU_TYPE_TEXT && !attu_type_is_typed_text(sep->type) &&
        !attu_type_is_array(sep->type) && !sep->aux) {
        /* a string literal separator is read as a bytea, as PostgreSQL's
         * unknown literal is */
        attu_bexpr *r = attu_bx_new(c->pa, BX_CONST, attu_type_bytea(), sep->position);
        if (!r) { attu_error_oom(c->err); return false; }
        if (!(args[1] = attu_bytea_parse_literal(c, r, sep->s ? sep->s : "", sep->slen))) return false;
    } else if (!(args[1] = coerce(c, args[1], attu_type_bytea(), false, pos))) return false;
    for (int i = 0; i < 2; i++) {
        attu_bexpr *three = mk_const_int(c, attu_type_make(ATTU_TYPE_INT32), 3);
        attu_bexpr *m = three ? mk_call(c, ATTU_OP_MOVE, txt, pos, 1, args[i], NULL, NULL, NULL) : NULL;
        if (!m || !(args[i] = mk_call(c, ATTU_OP_SUBSTR, txt, pos, 2, m, three, NULL, NULL))) return false;
    }
    return true;
}

/* The joined hex digits made a bytea: "\\x" before them (NULL stays NULL). */
attu_bexpr *attu_bytea_agg_finish(bctx *c, attu_bexpr *res, int pos) {
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT);
    attu_bexpr *k = attu_bx_new(c->pa, BX_CONST, txt, pos);
    if (!k || !(k->s = attu_pstrdup(c->pa, "\\x", 2))) { attu_error_oom(c->err); return NULL; }
    k->slen = 2;
    attu_bexpr *cat = mk_call(c, ATTU_OP_CONCAT, txt, pos, 2, k, res, NULL, NULL);
    return cat ? mk_call(c, ATTU_OP_MOVE, attu_type_bytea(), pos, 1, cat, NULL, NULL, NULL) : NULL;
}

/* a LIKE p (NOT LIKE: negated) of a bytea a: bytewise, an untyped pattern a
 * bytea; ILIKE, SIMILAR TO and ~ have no bytea form (42883), nor do other
 * operands of uuid or bytea. Sets *handled where an operand is theirs. */
attu_bexpr *attu_bytea_like(bctx *c, attu_bexpr *a, attu_bexpr *p, const char *opname, bool plain_like, bool negated,
                            bool has_escape, int pos, bool *handled) {
    char b1[64], b2[64];
    bool own = attu_type_is_uuid(a->type) || attu_type_is_bytea(a->type) || attu_type_is_uuid(p->type) ||
               attu_type_is_bytea(p->type) || attu_type_is_enum(a->type) || attu_type_is_enum(p->type);   /* (an enum has none either) */
    *handled = own;
    if (!own) return NULL;
    /* (ESCAPE makes the pattern a text: like_escape's result, no bytea form) */
    if (plain_like && !has_escape &&
        ((attu_type_is_bytea(a->type) && (attu_type_is_bytea(p->type) || p->type.id == ATTU_TYPE_UNKNOWN)) ||
         (a->type.id == ATTU_TYPE_UNKNOWN && attu_type_is_bytea(p->type)))) {
        /* an untyped operand is read as a bytea, as PostgreSQL's */
        if (!(a = coerce(c, a, attu_type_bytea(), false, pos)) || !(p = coerce(c, p, attu_type_bytea(), false, pos)))
            return NULL;
        attu_type b = attu_type_make(ATTU_TYPE_BOOL);
        attu_bexpr *m = by_call(c, ATTU_BY_LIKE, b, pos, 2, a, p, NULL, NULL);
        return m && negated ? mk_call(c, ATTU_OP_NOT, b, pos, 1, m, NULL, NULL, NULL) : m;
    }
    attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "operator does not exist: %s %s %s", tname(a->type, b1),
                   opname, has_escape ? "text" : p->type.id == ATTU_TYPE_UNKNOWN ? "unknown" : tname(p->type, b2));
    attu_error_set_hint(c->err, "No operator matches the given name and argument types. You might need to add explicit type casts.");
    return NULL;
}

/* ---- functions ---------------------------------------------------------------------- */

/* a to type t where an argument of that type is wanted: an untyped literal
 * is read as t, an integer widened or narrowed as PostgreSQL's implicit
 * casts go; false where a has another type (no such function). */
static bool arg_as(bctx *c, attu_bexpr **a, attu_type t, int pos) {
    attu_type at = (*a)->type;
    if (at.id == ATTU_TYPE_UNKNOWN || attu_type_equal(at, t)) {
        *a = coerce(c, *a, t, false, pos);
        return *a != NULL;
    }
    if ((t.id == ATTU_TYPE_INT32 && (at.id == ATTU_TYPE_INT16 || at.id == ATTU_TYPE_INT32)) ||
        (t.id == ATTU_TYPE_INT64 && attu_type_is_int(at.id))) {
        *a = coerce(c, *a, t, false, pos);
        return *a != NULL;
    }
    if (t.id == ATTU_TYPE_TEXT && !attu_type_is_typed_text(t) && at.id == ATTU_TYPE_TEXT && !attu_type_is_array(at) &&
        !attu_type_is_typed_text(at)) {
        *a = coerce(c, *a, t, true, pos);
        return *a != NULL;
    }
    return false;
}

static bool any_own(attu_bexpr **args, int n) {
    for (int i = 0; i < n; i++)
        if (attu_type_is_bytea(args[i]->type) || attu_type_is_uuid(args[i]->type)) return true;
    return false;
}

attu_bexpr *attu_bind_bytea_function(bctx *c, const attu_ast_expr *e, const char *name, attu_bexpr **args, int n,
                                     bool *handled) {
    int pos = e->position;
    attu_type by = attu_type_bytea(), txt = attu_type_make(ATTU_TYPE_TEXT), i4 = attu_type_make(ATTU_TYPE_INT32);
    *handled = true;
    if (!strcmp(name, "gen_random_uuid")) {
        if (n != 0) return attu_no_function(c, e, args, n);
        if (c->seq_cte && c->seq_cte->seq_replay) {
            /* a WITH query read twice is bound and run twice here, where
             * PostgreSQL runs it once: its readings would disagree */
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos,
                           "gen_random_uuid() in a WITH query that is read more than once is not supported");
            return NULL;
        }
        attu_bexpr *u = mk_call(c, ATTU_OP_UUID, attu_type_uuid(), pos, 0, NULL, NULL, NULL, NULL);
        if (u) u->aux = ATTU_UUID_RANDOM;
        return u;
    }
    /* the functions only bytea has take an untyped literal as bytea */
    bool bytea_only = !strcmp(name, "get_byte") || !strcmp(name, "set_byte") || !strcmp(name, "get_bit") ||
                      !strcmp(name, "set_bit") || !strcmp(name, "encode") ||
                      !strcmp(name, "sha224") || !strcmp(name, "sha256") || !strcmp(name, "sha384") ||
                      !strcmp(name, "sha512") || !strcmp(name, "convert_from");
    bool text_first = !strcmp(name, "decode") || !strcmp(name, "convert_to");
    if (!bytea_only && !text_first && !any_own(args, n)) { *handled = false; return NULL; }
    if (bytea_only || text_first) {
        if (!strcmp(name, "encode") || !strcmp(name, "convert_from")) {
            if (n != 2 || !arg_as(c, &args[0], by, pos) || !arg_as(c, &args[1], txt, pos)) goto none;
            return by_call(c, name[0] == 'e' ? ATTU_BY_ENCODE : ATTU_BY_CONVERT_FROM, txt, pos, 2, args[0], args[1], NULL, NULL);
        }
        if (text_first) {
            if (n != 2 || !arg_as(c, &args[0], txt, pos) || !arg_as(c, &args[1], txt, pos)) goto none;
            return by_call(c, name[0] == 'd' ? ATTU_BY_DECODE : ATTU_BY_CONVERT_TO, by, pos, 2, args[0], args[1], NULL, NULL);
        }
        if (!strncmp(name, "sha", 3)) {
            if (n != 1 || !arg_as(c, &args[0], by, pos)) goto none;
            attu_bexpr *h = by_call(c, ATTU_BY_SHA256, by, pos, 1, args[0], NULL, NULL, NULL);
            if (h) h->imm = atoi(name + 3);   /* the digest's bits */
            return h;
        }
        bool set = name[0] == 's', bit = !strcmp(name + 4, "bit");
        /* get_bit / set_bit take a bigint offset, as PostgreSQL 14 on */
        if (n != 2 + set || !arg_as(c, &args[0], by, pos) ||
            !arg_as(c, &args[1], bit ? attu_type_make(ATTU_TYPE_INT64) : i4, pos) || (set && !arg_as(c, &args[2], i4, pos)))
            goto none;
        attu_bytea_fn f = bit ? (set ? ATTU_BY_SET_BIT : ATTU_BY_GET_BIT) : (set ? ATTU_BY_SET_BYTE : ATTU_BY_GET_BYTE);
        return by_call(c, f, set ? by : i4, pos, 2 + set, args[0], args[1], set ? args[2] : NULL, NULL);
    }
    /* the text functions that have a bytea form, called with a bytea */
    if (!strcmp(name, "length") || !strcmp(name, "octet_length")) {
        if (n != 1 || !attu_type_is_bytea(args[0]->type)) goto none;
        return by_call(c, ATTU_BY_LENGTH, i4, pos, 1, args[0], NULL, NULL, NULL);
    }
    if (!strcmp(name, "bit_length")) {
        if (n != 1 || !attu_type_is_bytea(args[0]->type)) goto none;
        attu_bexpr *l = by_call(c, ATTU_BY_LENGTH, i4, pos, 1, args[0], NULL, NULL, NULL);
        if (l) l->imm = 8;
        return l;
    }
    if (!strcmp(name, "btrim") || !strcmp(name, "trim") || !strcmp(name, "ltrim") || !strcmp(name, "rtrim")) {
        /* (bytea, bytea) only: PostgreSQL 15 has no one-argument form */
        if (n != 2 || !attu_type_is_bytea(args[0]->type) || !arg_as(c, &args[1], by, pos)) goto none;
        attu_bexpr *t = by_call(c, ATTU_BY_TRIM, by, pos, 2, args[0], args[1], NULL, NULL);
        if (t) t->imm = name[0] == 'l' ? 1 : name[0] == 'r' ? 2 : 3;
        return t;
    }
    if (!strcmp(name, "md5")) {
        if (n != 1 || !attu_type_is_bytea(args[0]->type)) goto none;
        return by_call(c, ATTU_BY_MD5, txt, pos, 1, args[0], NULL, NULL, NULL);
    }
    if (!strcmp(name, "substr") || !strcmp(name, "substring")) {
        if (n < 2 || n > 3 || !attu_type_is_bytea(args[0]->type) || !arg_as(c, &args[1], i4, pos) ||
            (n == 3 && !arg_as(c, &args[2], i4, pos)))
            goto none;
        return by_call(c, ATTU_BY_SUBSTR, by, pos, n, args[0], args[1], n == 3 ? args[2] : NULL, NULL);
    }
    if (!strcmp(name, "position")) {
        if (n != 2 || !arg_as(c, &args[0], by, pos) || !arg_as(c, &args[1], by, pos)) goto none;
        return by_call(c, ATTU_BY_POSITION, i4, pos, 2, args[0], args[1], NULL, NULL);
    }
    if (!strcmp(name, "overlay")) {
        if (n < 3 || n > 4 || !arg_as(c, &args[0], by, pos) || !arg_as(c, &args[1], by, pos) ||
            !arg_as(c, &args[2], i4, pos) || (n == 4 && !arg_as(c, &args[3], i4, pos)))
            goto none;
        return by_call(c, ATTU_BY_OVERLAY, by, pos, n, args[0], args[1], args[2], n == 4 ? args[3] : NULL);
    }
    /* other functions: the caller's (a text function refuses a uuid or a
     * bytea: no implicit cast to text) */
    *handled = false;
    return NULL;
none:
    if (c->err->set) return NULL;
    return attu_no_function(c, e, args, n);
}
