/*
 * Row values: a row constructor, ROW(a, b, ...) or (a, b, ...), and a
 * whole-row reference to a FROM item (SELECT t FROM t), used as a value
 * (in the select list, GROUP BY, DISTINCT, CASE, a cast to text).
 *
 * Row comparisons never get here: the parser and row_subquery.c split
 * them into comparisons of the items. What is left is a value whose only
 * use is to be shown, grouped or told apart, so a row is bound as the
 * text PostgreSQL's record_out makes of it, built from opcodes both
 * backends already run (no new opcode):
 *
 *   '(' || f1 || ',' || f2 || ... || ')'
 *
 * where each fk is the item's text output, '' for NULL, and in double
 * quotes, its '"' and '\' doubled, when it is empty or holds a ',', '(',
 * ')', '"', '\' or white space (record_out's rule). An item's text output
 * is its cast to text, except for a boolean ('t' / 'f', boolout's, where
 * the cast says 'true') and a char(n) (padded, as bpcharout shows it). A
 * nested row is text already and gets quoted as PostgreSQL quotes it.
 *
 * The binder keeps each row's items beside it (attu_row_value_items):
 * GROUP BY a row groups by its items, ORDER BY a row orders by them (as
 * record comparison: binder.c row_keys), IS NULL tests them. DISTINCT
 * compares the text, which is item equality (the quoting makes the text
 * of distinct item lists distinct) but for items equal with different
 * text (1.0 and 1.00 stay apart).
 *
 * The value's type is text marked as a record (types.h
 * attu_type_record): clients are told record (OID 2249), pg_typeof and
 * error messages say record, a cast to text gives plain text.
 */
#include "binder_internal.h"

#include <string.h>

/* a text constant of n bytes (kept in the plan arena by the caller's
 * literal: the strings here are static) */
static attu_bexpr *text_const(bctx *c, const char *s, int pos) {
    attu_bexpr *k = attu_bx_new(c->pa, BX_CONST, attu_type_make(ATTU_TYPE_TEXT), pos);
    if (!k) { attu_error_oom(c->err); return NULL; }
    k->s = (char *)s;
    k->slen = strlen(s);
    return k;
}

static attu_bexpr *cat(bctx *c, attu_bexpr *l, attu_bexpr *r, int pos) {
    if (!l || !r) return NULL;
    return mk_call(c, ATTU_OP_CONCAT, attu_type_make(ATTU_TYPE_TEXT), pos, 2, l, r, NULL, NULL);
}

/* The item's text output, as record_out reads it (NULL stays NULL). */
static attu_bexpr *item_text(bctx *c, attu_bexpr *v, int pos) {
    attu_type tx = attu_type_make(ATTU_TYPE_TEXT);
    if (v->type.id == ATTU_TYPE_UNKNOWN && !(v = resolve_unknown(c, v))) return NULL;
    if (v->type.id == ATTU_TYPE_BOOL) {
        /* boolout's 't' / 'f': the first letter of the cast's 'true' /
         * 'false' (v once; NULL stays NULL) */
        attu_bexpr *one = mk_const_int(c, attu_type_make(ATTU_TYPE_INT64), 1);
        attu_bexpr *word = one ? coerce(c, v, tx, true, pos) : NULL;
        return word ? mk_call(c, ATTU_OP_LEFT, tx, pos, 2, word, one, NULL, NULL) : NULL;
    }
    if (attu_type_is_record(v->type))
        return mk_call(c, ATTU_OP_MOVE, tx, pos, 1, v, NULL, NULL, NULL);
    if (attu_type_is_bpchar_any(v->type)) return bpchar_padded(c, v, pos);
    if (v->type.id == ATTU_TYPE_TEXT && !attu_type_is_array(v->type)) return v;
    return coerce(c, v, tx, true, pos);
}

/* The nodes of e counted as a tree (shared subtrees once per use), up to
 * limit. */
static int tree_size(const attu_bexpr *e, int limit) {
    if (!e) return 0;
    int n = 1;
    for (int i = 0; i < e->nargs && n <= limit; i++) n += tree_size(e->args[i], limit - n);
    for (int i = 0; i < e->nwhens && n <= limit; i++)
        n += tree_size(e->whens[i], limit - n) + tree_size(e->thens[i], limit - n);
    if (n <= limit) n += tree_size(e->else_, limit - n);
    return n;
}

/* An item's expression appears up to four times in what shows it (the
 * test, the quoted and the plain text): bounded here, as an item holding
 * a row holding such an item would grow fourfold a level. A nested row
 * appears once (item_quoted). */
#define ROW_ITEM_TREE_MAX 1000

/* Whether v is a row's text: a row, or a row cast to text (which always
 * starts with '(', so is always quoted). */
static bool is_row_text(const attu_bexpr *v) {
    while (v->kind == BX_CALL && v->op == ATTU_OP_MOVE && v->nargs == 1 && v->type.id == ATTU_TYPE_TEXT) {
        if (attu_type_is_record(v->type)) return true;
        v = v->args[0];
    }
    return attu_type_is_record(v->type);
}

/* Whether v's type's output never needs quoting: never empty, never a
 * space, comma, parenthesis, quote or backslash in it (a date can be
 * '0044-03-15 BC', a timestamp has a space, an interval spaces). */
static bool plain_output(const attu_bexpr *v) {
    switch (v->type.id) {
    case ATTU_TYPE_BOOL: case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_INT64:
    case ATTU_TYPE_FLOAT32: case ATTU_TYPE_FLOAT64: case ATTU_TYPE_DECIMAL: case ATTU_TYPE_NUMERIC:
    case ATTU_TYPE_TIME: case ATTU_TYPE_TIMETZ:
        return true;
    default:
        return false;
    }
}

static bool item_too_complex(bctx *c, const attu_bexpr *v, int pos) {
    if (is_row_text(v) || plain_output(v)) return false;
    if (tree_size(v, ROW_ITEM_TREE_MAX) <= ROW_ITEM_TREE_MAX) return false;
    attu_error_set(c->err, "54001", pos, "row item too complex: write it as a column of a subquery");
    return true;
}

/* '"' || replace(replace(s, '\', '\\'), '"', '""') || '"' */
static attu_bexpr *quoted_text(bctx *c, attu_bexpr *s, int pos) {
    attu_type tx = attu_type_make(ATTU_TYPE_TEXT);
    attu_bexpr *bs = text_const(c, "\\", pos), *bs2 = text_const(c, "\\\\", pos);
    attu_bexpr *dq = text_const(c, "\"", pos), *dq2 = text_const(c, "\"\"", pos);
    if (!bs || !bs2 || !dq || !dq2) return NULL;
    attu_bexpr *r1 = mk_call(c, ATTU_OP_REPLACE, tx, pos, 3, s, bs, bs2, NULL);
    attu_bexpr *r2 = r1 ? mk_call(c, ATTU_OP_REPLACE, tx, pos, 3, r1, dq, dq2, NULL) : NULL;
    return cat(c, cat(c, dq, r2, pos), dq, pos);
}

/* x, or '' where x is NULL */
static attu_bexpr *or_empty(bctx *c, attu_bexpr *x, int pos) {
    attu_bexpr *none = x ? text_const(c, "", pos) : NULL;
    return none ? mk_call(c, ATTU_OP_COALESCE, x->type, pos, 2, x, none, NULL, NULL) : NULL;
}

/* s, the text of item v, as record_out writes an item: '' for NULL,
 * quoted where it must be */
static attu_bexpr *item_quoted(bctx *c, const attu_bexpr *v, attu_bexpr *s, int pos) {
    attu_type tx = attu_type_make(ATTU_TYPE_TEXT), i8 = attu_type_make(ATTU_TYPE_INT64);
    if (is_row_text(v)) {
        /* a nested row's text always starts with '(': quoted, s once (a
         * NULL row is '': the quoting keeps NULL) */
        return or_empty(c, quoted_text(c, s, pos), pos);
    }
    if (plain_output(v)) return or_empty(c, s, pos);   /* s once */
    /* the characters that make record_out quote (isspace's six among them) */
    attu_bexpr *special = text_const(c, ",()\"\\ \t\n\r\v\f", pos);
    attu_bexpr *none = text_const(c, "", pos);
    attu_bexpr *len = mk_call(c, ATTU_OP_OCTET_LENGTH, i8, pos, 1, s, NULL, NULL, NULL);
    attu_bexpr *stripped = special && none ? mk_call(c, ATTU_OP_TRANSLATE, tx, pos, 3, s, special, none, NULL) : NULL;
    attu_bexpr *slen = stripped ? mk_call(c, ATTU_OP_OCTET_LENGTH, i8, pos, 1, stripped, NULL, NULL, NULL) : NULL;
    attu_bexpr *zero = mk_const_int(c, i8, 0);
    if (!len || !slen || !zero) return NULL;
    attu_bexpr *empty = bind_compare_op(c, ATTU_BINOP_EQ, len, zero, pos);
    attu_bexpr *has_special = empty ? bind_compare_op(c, ATTU_BINOP_LT, slen, len, pos) : NULL;
    attu_bexpr *must = has_special ? mk_call(c, ATTU_OP_OR, attu_type_make(ATTU_TYPE_BOOL), pos, 2, empty, has_special, NULL, NULL) : NULL;
    attu_bexpr *quoted = must ? quoted_text(c, s, pos) : NULL;
    if (!quoted) return NULL;
    /* CASE WHEN must THEN quoted ELSE s END, NULL for NULL (must is) */
    attu_bexpr *x = attu_bx_new(c->pa, BX_CASE, tx, pos);
    attu_bexpr **w = attu_palloc(c->pa, sizeof *w), **t = attu_palloc(c->pa, sizeof *t);
    if (!x || !w || !t) { attu_error_oom(c->err); return NULL; }
    w[0] = must; t[0] = quoted;
    x->nwhens = 1; x->whens = w; x->thens = t;
    x->else_ = s;
    return or_empty(c, x, pos);
}

/* Each row value's items, kept for ORDER BY (attu_row_value_items). */
typedef struct row_fields {
    const attu_bexpr  *rec;
    attu_bexpr       **items;
    int                n;
    attu_bexpr        *null_test;   /* a whole-row reference's "is NULL" test, or NULL */
    struct row_fields *next;
} row_fields;

int attu_row_value_items(const bctx *c, const attu_bexpr *rec, attu_bexpr ***items) {
    for (const row_fields *f = c->row_fields; f; f = f->next)
        if (f->rec == rec) { *items = f->items; return f->n; }
    return -1;
}

attu_bexpr *attu_row_value_null_test(const bctx *c, const attu_bexpr *rec) {
    for (const row_fields *f = c->row_fields; f; f = f->next)
        if (f->rec == rec) return f->null_test;
    return NULL;
}

/* The record text of the n bound items v; NULL where guard (when given)
 * is NULL. */
static attu_bexpr *record_of(bctx *c, attu_bexpr **v, int n, attu_bexpr *guard, int pos) {
    attu_bexpr *acc = text_const(c, "(", pos);
    for (int i = 0; i < n && acc; i++) {
        if (i > 0) acc = cat(c, acc, text_const(c, ",", pos), pos);
        if (item_too_complex(c, v[i], pos)) return NULL;
        attu_bexpr *s = acc ? item_text(c, v[i], pos) : NULL;
        acc = s ? cat(c, acc, item_quoted(c, v[i], s, pos), pos) : NULL;
    }
    acc = acc ? cat(c, acc, text_const(c, ")", pos), pos) : NULL;
    if (!acc) return NULL;
    acc->type = attu_type_record();
    if (guard) {
        attu_bexpr *x = attu_bx_new(c->pa, BX_CASE, acc->type, pos);
        attu_bexpr **w = attu_palloc(c->pa, sizeof *w), **t = attu_palloc(c->pa, sizeof *t);
        if (!x || !w || !t) { attu_error_oom(c->err); return NULL; }
        w[0] = mk_call(c, ATTU_OP_IS_NULL, attu_type_make(ATTU_TYPE_BOOL), pos, 1, guard, NULL, NULL, NULL);
        t[0] = mk_const_null(c, acc->type);
        if (!w[0] || !t[0]) return NULL;
        x->nwhens = 1; x->whens = w; x->thens = t; x->else_ = acc;
        acc = x;
    }
    row_fields *f = attu_palloc(c->pa, sizeof *f);
    if (!f) { attu_error_oom(c->err); return NULL; }
    f->rec = acc; f->items = v; f->n = n; f->next = c->row_fields;
    f->null_test = guard ? acc->whens[0] : NULL;
    c->row_fields = f;
    return acc;
}

bool attu_is_row_constructor(const attu_ast_expr *e) {
    return e && e->kind == ATTU_EXPR_FUNC && !e->u.func.schema && e->u.func.name &&
           !strcmp(e->u.func.name, "row") && !e->u.func.over && !e->u.func.star;
}

/* qual's columns in qual.*'s order (USING's copies included), in *out,
 * their column numbers moved by col_base; *guard (when asked) the hidden
 * rowid of a table's. -1 where no FROM item is called qual, -2 on error. */
static int qual_items(bctx *c, const scope *sc, const char *qual, int pos, int col_base, attu_bexpr ***out,
                      attu_bexpr **guard) {
    int n = 0;
    for (int k = 0; k < sc->n; k++)
        if (sc->cols[k].qual && !strcmp(sc->cols[k].qual, qual)) n++;
    if (n == 0) return -1;
    int *order = attu_palloc(c->pa, sizeof *order * (size_t)n);
    attu_bexpr **v = attu_palloc(c->pa, sizeof *v * (size_t)n);
    if (!order || !v) { attu_error_oom(c->err); return -2; }
    int m = 0;
    for (int k = 0; k < sc->n; k++) {
        const scope_col *col = &sc->cols[k];
        if (!col->qual || strcmp(col->qual, qual)) continue;
        if (col->hidden && !col->using_copy) continue;
        int p = m++;
        while (p > 0 && sc->cols[order[p - 1]].qual_pos > col->qual_pos) { order[p] = order[p - 1]; p--; }
        order[p] = k;
    }
    if (guard) {
        /* a table's row is NULL, not a row of NULLs, where an outer join
         * found no partner for it (PostgreSQL's whole-row Var): its
         * hidden rowid, never NULL in a stored row, tells them apart. A
         * subquery's has none, and shows (,) there. */
        *guard = NULL;
        for (int k = 0; k < sc->n && !*guard; k++)
            if (sc->cols[k].is_rowid && sc->cols[k].qual && !strcmp(sc->cols[k].qual, qual) &&
                !(*guard = attu_bx_col(c->pa, k + col_base, sc->cols[k].type))) { attu_error_oom(c->err); return -2; }
    }
    for (int i = 0; i < m; i++) {
        if (!(v[i] = attu_bx_col(c->pa, order[i] + col_base, sc->cols[order[i]].type))) { attu_error_oom(c->err); return -2; }
        v[i]->position = pos;
    }
    *out = v;
    return m;
}

attu_bexpr *attu_bind_row_value(bctx *c, const scope *sc, const attu_ast_expr *e) {
    int n = e->u.func.args.n, cap = n > 0 ? n : 1, m = 0;
    attu_bexpr **v = attu_palloc(c->pa, sizeof *v * (size_t)cap);
    if (!v) { attu_error_oom(c->err); return NULL; }
    for (int i = 0; i < n; i++) {
        const attu_ast_expr *a = e->u.func.args.items[i];
        attu_bexpr **add, *one;
        int k = 1;
        if (a->kind == ATTU_EXPR_STAR) {
            /* ROW(t.*, x): t's columns as items, as PostgreSQL expands them */
            if (!a->u.star.qualifier) {
                attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, a->position, "syntax error at or near \"*\"");
                return NULL;
            }
            k = qual_items(c, sc, a->u.star.qualifier, a->position, 0, &add, NULL);
            if (k == -2) return NULL;
            if (k < 0) {
                attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_TABLE, a->position,
                               "missing FROM-clause entry for table \"%s\"", a->u.star.qualifier);
                return NULL;
            }
        } else {
            if (!(one = bind_expr(c, sc, a))) return NULL;
            add = &one;
        }
        if (m + k > cap) {
            int ncap = (m + k) * 2;
            attu_bexpr **nv = attu_palloc(c->pa, sizeof *nv * (size_t)ncap);
            if (!nv) { attu_error_oom(c->err); return NULL; }
            memcpy(nv, v, sizeof *v * (size_t)m);
            v = nv; cap = ncap;
        }
        for (int j = 0; j < k; j++) v[m++] = add[j];
    }
    return record_of(c, v, m, NULL, e->position);
}

attu_bexpr *attu_bind_whole_row(bctx *c, const scope *sc, const char *qual, int pos, int col_base, bool *found) {
    attu_bexpr **v, *guard;
    int m = qual_items(c, sc, qual, pos, col_base, &v, &guard);
    *found = m != -1;
    return m >= 0 ? record_of(c, v, m, guard, pos) : NULL;
}
