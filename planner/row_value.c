/*
 * Row values: a row constructor, ROW(a, b, ...) or (a, b, ...), and a
 * whole-row reference to a FROM item (SELECT t FROM t), used as a value
 * (in the select list, GROUP BY, DISTINCT, CASE, a cast to text,
 * comparisons).
 *
 * Row constructors compared with each other never get here: the parser
 * and row_subquery.c split them into comparisons of the items. A row
 * held as a value is shown, grouped, ordered, told apart and compared
 * (attu_row_compare, below) through its items, so it is bound as the text
 * PostgreSQL's record_out makes of it, built from opcodes both backends
 * already run (no new opcode):
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
 * record comparison: binder.c row_keys), IS NULL tests them, comparisons
 * compare them. A derived table's row column carries them as hidden
 * columns, a CASE / COALESCE of rows derives them from its arms'.
 * DISTINCT compares the text, which is item equality (the quoting makes
 * the text of distinct item lists distinct) but for items equal with
 * different text (1.0 and 1.00), for which SELECT DISTINCT keys by the
 * items instead.
 *
 * The value's type is text marked as a record (types.h
 * attu_type_record): clients are told record (OID 2249), pg_typeof and
 * error messages say record, a cast to text gives plain text.
 */
#include "binder_internal.h"

#include <stdio.h>
#include <string.h>

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
    if (v->type.id == ATTU_TYPE_TEXT && !attu_type_is_array(v->type) && !attu_type_is_enum(v->type) &&
        !attu_type_is_range(v->type))
        return v;
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
    attu_bexpr *bs = mk_const_cstr(c, "\\", pos), *bs2 = mk_const_cstr(c, "\\\\", pos);
    attu_bexpr *dq = mk_const_cstr(c, "\"", pos), *dq2 = mk_const_cstr(c, "\"\"", pos);
    if (!bs || !bs2 || !dq || !dq2) return NULL;
    attu_bexpr *r1 = mk_call(c, ATTU_OP_REPLACE, tx, pos, 3, s, bs, bs2, NULL);
    attu_bexpr *r2 = r1 ? mk_call(c, ATTU_OP_REPLACE, tx, pos, 3, r1, dq, dq2, NULL) : NULL;
    return cat(c, cat(c, dq, r2, pos), dq, pos);
}

/* x, or '' where x is NULL. (A select of the two, not a COALESCE or a
 * CASE: an item may be a set-returning function, ROW(generate_series(1,
 * 3), 5), which PostgreSQL allows there but not under those; both arms
 * are computed, and neither can fail.) */
static attu_bexpr *or_empty(bctx *c, attu_bexpr *x, int pos) {
    attu_bexpr *none = x ? mk_const_cstr(c, "", pos) : NULL;
    attu_bexpr *nn = none ? mk_call(c, ATTU_OP_IS_NOT_NULL, attu_type_make(ATTU_TYPE_BOOL), pos, 1, x, NULL, NULL, NULL) : NULL;
    return nn ? mk_call(c, ATTU_OP_SELECT, x->type, pos, 3, x, none, nn, NULL) : NULL;
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
    attu_bexpr *special = mk_const_cstr(c, ",()\"\\ \t\n\r\v\f", pos);
    attu_bexpr *none = mk_const_cstr(c, "", pos);
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
    /* must ? quoted : s, NULL for NULL (must is: the select takes s);
     * a select rather than a CASE, as or_empty's */
    attu_bexpr *x = mk_call(c, ATTU_OP_SELECT, tx, pos, 3, quoted, s, must, NULL);
    return x ? or_empty(c, x, pos) : NULL;
}

/* Each row value's items, kept for ORDER BY (attu_row_value_items). */
typedef struct row_fields {
    const attu_bexpr  *rec;
    attu_bexpr       **items;
    int                n;
    attu_bexpr        *null_test;   /* a whole-row reference's "is NULL" test, or NULL */
    bool               opaque;      /* rec is no expression of its items (a column, a CASE) */
    struct row_fields *next;
} row_fields;

int attu_row_value_items(const bctx *c, const attu_bexpr *rec, attu_bexpr ***items) {
    for (const row_fields *f = c->row_fields; f; f = f->next)
        if (f->rec == rec) { *items = f->items; return f->n; }
    return -1;
}

bool attu_row_value_opaque(const bctx *c, const attu_bexpr *rec) {
    for (const row_fields *f = c->row_fields; f; f = f->next)
        if (f->rec == rec) return f->opaque;
    return false;
}

attu_bexpr *attu_row_value_null_test(const bctx *c, const attu_bexpr *rec) {
    for (const row_fields *f = c->row_fields; f; f = f->next)
        if (f->rec == rec) return f->null_test;
    return NULL;
}

/* The record text of the n bound items v; NULL where guard (when given)
 * is NULL. */
static attu_bexpr *record_of(bctx *c, attu_bexpr **v, int n, attu_bexpr *guard, int pos) {
    attu_bexpr *acc = mk_const_cstr(c, "(", pos);
    for (int i = 0; i < n && acc; i++) {
        if (i > 0) acc = cat(c, acc, mk_const_cstr(c, ",", pos), pos);
        if (item_too_complex(c, v[i], pos)) return NULL;
        attu_bexpr *s = acc ? item_text(c, v[i], pos) : NULL;
        acc = s ? cat(c, acc, item_quoted(c, v[i], s, pos), pos) : NULL;
    }
    acc = acc ? cat(c, acc, mk_const_cstr(c, ")", pos), pos) : NULL;
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
    f->rec = acc; f->items = v; f->n = n; f->opaque = false; f->next = c->row_fields;
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
        /* a derived table's row column: its items (moved as the column) */
        attu_row_column_items(c, sc, order[i], v[i]);
        attu_row_value_shift(c, v[i], col_base);
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

attu_bexpr *attu_row_value_of(bctx *c, attu_bexpr **items, int n, attu_bexpr *guard, int pos) {
    return record_of(c, items, n, guard, pos);
}

attu_bexpr *attu_bind_whole_row(bctx *c, const scope *sc, const char *qual, int pos, int col_base, bool *found) {
    attu_bexpr **v, *guard;
    int m = qual_items(c, sc, qual, pos, col_base, &v, &guard);
    *found = m != -1;
    if (m == 1) {
        /* a function returning a scalar: its whole row is the value */
        for (int k = 0; k < sc->n; k++)
            if (sc->cols[k].qual && !strcmp(sc->cols[k].qual, qual) && !sc->cols[k].hidden && sc->cols[k].scalar_row) return v[0];
    }
    return m >= 0 ? record_of(c, v, m, guard, pos) : NULL;
}

/* ---- comparing rows held as values --------------------------------------
 *
 * A row value compared with another (t = u, t < ROW(1, 'x'::text), t IS
 * DISTINCT FROM u) is PostgreSQL's record comparison (record_eq,
 * record_cmp), which differs from the row constructors' comparison the
 * parser makes: two NULL items are equal, a NULL item sorts after any
 * value, and only a NULL row (a table's on an outer join's missing side)
 * makes the result NULL. It is rewritten here into comparisons of the
 * items the binder keeps for both sides (no new opcode):
 *   E_k  x_k IS NOT DISTINCT FROM y_k
 *   L_k  coalesce(x_k < y_k, x_k IS NOT NULL AND y_k IS NULL)
 *   =    E_1 AND ... AND E_n          <> its negation
 *   <    L_1 OR (E_1 AND (L_2 OR ... (E_n-1 AND L_n)))
 *   <=   the same ending in (L_n OR E_n); > and >= swap the sides
 * each under CASE WHEN either row is NULL THEN NULL. PostgreSQL checks
 * the items' types as it reaches them at run time; they are checked here
 * when binding, all of them, with its messages. */

static attu_bexpr *case1(bctx *c, attu_bexpr *when, attu_bexpr *then, attu_bexpr *else_, int pos) {
    if (!when || !then || !else_) return NULL;
    attu_bexpr *x = attu_bx_new(c->pa, BX_CASE, else_->type, pos);
    attu_bexpr **w = attu_palloc(c->pa, sizeof *w), **t = attu_palloc(c->pa, sizeof *t);
    if (!x || !w || !t) { attu_error_oom(c->err); return NULL; }
    w[0] = when; t[0] = then;
    x->nwhens = 1; x->whens = w; x->thens = t; x->else_ = else_;
    return x;
}

static attu_bexpr *bool_call(bctx *c, attu_opcode op, attu_bexpr *a, attu_bexpr *b, int pos) {
    bool unary = op == ATTU_OP_NOT || op == ATTU_OP_IS_NULL || op == ATTU_OP_IS_NOT_NULL || op == ATTU_OP_IS_TRUE;
    if (!a || (!unary && !b)) return NULL;
    return mk_call(c, op, attu_type_make(ATTU_TYPE_BOOL), pos, unary ? 1 : 2, a, b, NULL, NULL);
}

/* The type's name as record_cmp's message gives it: without its modifier
 * (character varying, not character varying(5)). */
static const char *base_type_name(attu_type t, char *buf) {
    const char *n = tname(t, buf);
    if (n != buf) { snprintf(buf, 64, "%s", n); n = buf; }
    char *p = strchr(buf, '(');
    if (p && p > buf && p[-1] != ' ' && strcmp(p, "()")) *p = '\0';
    return buf;
}

/* x IS NOT DISTINCT FROM y for items of one type */
static attu_bexpr *item_same(bctx *c, attu_bexpr *x, attu_bexpr *y, int pos) {
    attu_bexpr *eq = bind_compare_op(c, ATTU_BINOP_EQ, x, y, pos);
    attu_bexpr *t1 = eq ? bool_call(c, ATTU_OP_IS_TRUE, eq, NULL, pos) : NULL;
    attu_bexpr *bn = t1 ? bool_call(c, ATTU_OP_AND, bool_call(c, ATTU_OP_IS_NULL, x, NULL, pos),
                                    bool_call(c, ATTU_OP_IS_NULL, y, NULL, pos), pos) : NULL;
    return bn ? bool_call(c, ATTU_OP_OR, t1, bn, pos) : NULL;
}

/* x before y in record order (NULL last): never NULL */
static attu_bexpr *item_before(bctx *c, attu_bexpr *x, attu_bexpr *y, int pos) {
    attu_bexpr *lt = bind_compare_op(c, ATTU_BINOP_LT, x, y, pos);
    attu_bexpr *nn = lt ? bool_call(c, ATTU_OP_AND, bool_call(c, ATTU_OP_IS_NOT_NULL, x, NULL, pos),
                                    bool_call(c, ATTU_OP_IS_NULL, y, NULL, pos), pos) : NULL;
    return nn ? mk_call(c, ATTU_OP_COALESCE, attu_type_make(ATTU_TYPE_BOOL), pos, 2, lt, nn, NULL, NULL) : NULL;
}

/* x < y (or <= where or_equal) over n items, record order */
static attu_bexpr *rows_before(bctx *c, attu_bexpr **x, attu_bexpr **y, int n, bool or_equal, int pos) {
    attu_bexpr *acc = item_before(c, x[n - 1], y[n - 1], pos);
    if (or_equal) acc = bool_call(c, ATTU_OP_OR, acc, item_same(c, x[n - 1], y[n - 1], pos), pos);
    for (int k = n - 2; k >= 0 && acc; k--)
        acc = bool_call(c, ATTU_OP_OR, item_before(c, x[k], y[k], pos),
                        bool_call(c, ATTU_OP_AND, item_same(c, x[k], y[k], pos), acc, pos), pos);
    return acc;
}

/* How deep rows nest in rec (0: no row item). A nested pair is compared
 * twice a level (its order and its equality), so the comparison grows as
 * 2^depth: bounded. */
#define ROW_COMPARE_DEPTH_MAX 10

static int nest_depth(const bctx *c, const attu_bexpr *rec, int limit) {
    attu_bexpr **f;
    int n = attu_row_value_items(c, rec, &f), d = 0;
    for (int k = 0; k < n && d <= limit; k++)
        if (attu_type_is_record(f[k]->type)) {
            int e = 1 + nest_depth(c, f[k], limit - 1);
            if (e > d) d = e;
        }
    return d;
}

attu_bexpr *attu_row_compare(bctx *c, attu_ast_binary_op op, attu_bexpr *l, attu_bexpr *r, int pos) {
    static const char *names[] = { [ATTU_BINOP_EQ] = "=", [ATTU_BINOP_NE] = "<>", [ATTU_BINOP_LT] = "<",
                                   [ATTU_BINOP_LE] = "<=", [ATTU_BINOP_GT] = ">", [ATTU_BINOP_GE] = ">=",
                                   [ATTU_BINOP_IS_DISTINCT] = "=", [ATTU_BINOP_IS_NOT_DISTINCT] = "=" };
    char b1[64], b2[64];
    if (attu_type_is_record(l->type) != attu_type_is_record(r->type)) {
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "operator does not exist: %s %s %s",
                       tname(l->type, b1), names[op], tname(r->type, b2));
        return NULL;
    }
    attu_bexpr **x = NULL, **y = NULL;
    int n = attu_row_value_items(c, l, &x), m = attu_row_value_items(c, r, &y);
    if (n < 0 || m < 0) {
        /* a row whose items the binder does not know (a CASE of rows, a
         * row read from a derived table's column): its text is no record
         * order, so it is refused rather than compared wrongly */
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos,
                       "comparing a row held in a column or made by CASE / COALESCE is not supported; compare its items");
        return NULL;
    }
    for (int k = 0; k < n && k < m; k++) {
        const char *a = base_type_name(x[k]->type, b1), *b = base_type_name(y[k]->type, b2);
        if (strcmp(a, b)) {
            attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, 0,
                           "cannot compare dissimilar column types %s and %s at record column %d", a, b, k + 1);
            return NULL;
        }
    }
    if (n != m) {
        attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, 0,
                       "cannot compare record types with different numbers of columns");
        return NULL;
    }
    if (n == 0) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "cannot compare rows of zero length");
        return NULL;
    }
    if (nest_depth(c, l, ROW_COMPARE_DEPTH_MAX) > ROW_COMPARE_DEPTH_MAX) {
        attu_error_set(c->err, "54001", pos, "row comparison too complex: rows nested more than %d deep", ROW_COMPARE_DEPTH_MAX);
        return NULL;
    }
    attu_bexpr *res = NULL;
    switch (op) {
    case ATTU_BINOP_EQ: case ATTU_BINOP_NE: case ATTU_BINOP_IS_DISTINCT: case ATTU_BINOP_IS_NOT_DISTINCT:
        res = item_same(c, x[0], y[0], pos);
        for (int k = 1; k < n && res; k++) res = bool_call(c, ATTU_OP_AND, res, item_same(c, x[k], y[k], pos), pos);
        if (op == ATTU_BINOP_NE || op == ATTU_BINOP_IS_DISTINCT) res = bool_call(c, ATTU_OP_NOT, res, NULL, pos);
        break;
    case ATTU_BINOP_LT: case ATTU_BINOP_LE:
        res = rows_before(c, x, y, n, op == ATTU_BINOP_LE, pos);
        break;
    default:
        res = rows_before(c, y, x, n, op == ATTU_BINOP_GE, pos);
        break;
    }
    if (!res) return NULL;
    /* a NULL row (only a table's whole-row reference can be one) */
    attu_bexpr *nl = attu_row_value_null_test(c, l), *nr = attu_row_value_null_test(c, r);
    if (!nl && !nr) return res;
    attu_bexpr *either = nl && nr ? bool_call(c, ATTU_OP_OR, nl, nr, pos) : nl ? nl : nr;
    if (op == ATTU_BINOP_IS_DISTINCT || op == ATTU_BINOP_IS_NOT_DISTINCT) {
        /* both NULL: not distinct; one NULL: distinct */
        bool distinct = op == ATTU_BINOP_IS_DISTINCT;
        attu_bexpr *yes = mk_const_int(c, attu_type_make(ATTU_TYPE_BOOL), 1);
        attu_bexpr *no = mk_const_int(c, attu_type_make(ATTU_TYPE_BOOL), 0);
        attu_bexpr *both = nl && nr ? bool_call(c, ATTU_OP_AND, nl, nr, pos) : NULL;
        attu_bexpr *one = case1(c, either, distinct ? yes : no, res, pos);
        return both ? case1(c, both, distinct ? no : yes, one, pos) : one;
    }
    return case1(c, either, mk_const_null(c, attu_type_make(ATTU_TYPE_BOOL)), res, pos);
}

/* ---- a row read from a derived table's column --------------------------
 *
 * SELECT s.r FROM (SELECT ROW(a, b) AS r FROM t) s: the outer query sees r
 * as a column, its text. For ORDER BY, GROUP BY, IS NULL and comparisons
 * of s.r to go item by item, the derived table also outputs r's items, as
 * hidden columns after its own (bind_select appends them to its list
 * before the aggregation and window rewrites, which they go through as
 * the list does); the binder then keeps them as s.r's items
 * (attu_row_column_items). A row whose items are not known (a CASE of
 * rows, a nested derived table's under DISTINCT or UNION) carries none
 * and stays its text. */

bool attu_row_value_carry(bctx *c, attu_bexpr ***items, char ***names, int *n, int *cap, int n0) {
    /* the list's columns, then the items appended, each a row's perhaps
     * (a nested row's items follow too) */
    int room = *cap;
    int *at = attu_palloc(c->pa, sizeof *at * (size_t)room), *cnt = attu_palloc(c->pa, sizeof *cnt * (size_t)room);
    if (!at || !cnt) { attu_error_oom(c->err); return false; }
    for (int i = 0; i < *n; i++) {
        attu_bexpr **f;
        int k = i < n0 || attu_type_is_record((*items)[i]->type) ? attu_row_value_items(c, (*items)[i], &f) : 0;
        if (k < 0) k = 0;
        if (*n + k + 1 >= *cap) {
            int ncap = (*n + k + 1) * 2;
            attu_bexpr **ni = attu_palloc(c->pa, sizeof *ni * (size_t)ncap);
            char **nn = attu_palloc(c->pa, sizeof *nn * (size_t)ncap);
            if (!ni || !nn) { attu_error_oom(c->err); return false; }
            memcpy(ni, *items, sizeof *ni * (size_t)*n); memcpy(nn, *names, sizeof *nn * (size_t)*n);
            *items = ni; *names = nn; *cap = ncap;
        }
        if (*cap > room) {
            int *na = attu_palloc(c->pa, sizeof *na * (size_t)*cap), *nc = attu_palloc(c->pa, sizeof *nc * (size_t)*cap);
            if (!na || !nc) { attu_error_oom(c->err); return false; }
            memcpy(na, at, sizeof *na * (size_t)i); memcpy(nc, cnt, sizeof *nc * (size_t)i);
            at = na; cnt = nc; room = *cap;
        }
        cnt[i] = k;
        at[i] = *n;
        for (int j = 0; j < k; j++) {
            attu_bexpr *v = resolve_unknown(c, f[j]);
            if (!v) return false;
            (*items)[*n] = v;
            (*names)[(*n)++] = (char *)"?row item?";
        }
    }
    c->carry_at = at; c->carry_cnt = cnt; c->carry_n0 = n0; c->carry_total = *n;
    return true;
}

void attu_row_column_items(bctx *c, const scope *sc, int found, attu_bexpr *b) {
    const scope_col *col = &sc->cols[found];
    if (col->row_items <= 0) return;
    attu_bexpr **v = attu_palloc(c->pa, sizeof *v * (size_t)col->row_items);
    row_fields *f = attu_palloc(c->pa, sizeof *f);
    attu_bexpr *nt = mk_call(c, ATTU_OP_IS_NULL, attu_type_make(ATTU_TYPE_BOOL), b->position, 1, b, NULL, NULL, NULL);
    if (!v || !f || !nt) { attu_error_oom(c->err); return; }
    for (int j = 0; j < col->row_items; j++) {
        int k = found + col->row_items_at + j;
        if (!(v[j] = attu_bx_col(c->pa, k, sc->cols[k].type))) { attu_error_oom(c->err); return; }
        v[j]->position = b->position;
        attu_row_column_items(c, sc, k, v[j]);   /* a nested row's */
    }
    f->rec = b; f->items = v; f->n = col->row_items; f->null_test = nt; f->opaque = true; f->next = c->row_fields;
    c->row_fields = f;
}

void attu_row_value_shift(bctx *c, const attu_bexpr *rec, int by) {
    attu_bexpr **items;
    int n = attu_row_value_items(c, rec, &items);
    for (int j = 0; j < n; j++)
        if (items[j]->kind == BX_COL) { items[j]->col += by; attu_row_value_shift(c, items[j], by); }
}

/* ---- a CASE / COALESCE of rows -------------------------------------------
 *
 * CASE WHEN c THEN ROW(a, b) ELSE t END is a row whose items are CASE WHEN
 * c THEN a ELSE t.a END and so on, where every arm's items are known, as
 * many and of the same types; a NULL arm (no ELSE) gives NULL items.
 * coalesce(r1, r2) is CASE WHEN r1 IS NOT NULL THEN r1 ELSE r2 END. The
 * row is NULL where its text is (a NULL arm, a NULL whole row). */

static int derived_items(bctx *c, attu_bexpr *x, attu_bexpr ***items);

/* one arm's items: n of them (-1 for a NULL arm: any count), -2 unknown */
static int arm_items(bctx *c, attu_bexpr *a, attu_bexpr ***items) {
    if (!a || (a->kind == BX_CONST && a->is_null)) return -1;
    int n = attu_row_value_items(c, a, items);
    if (n < 0) n = derived_items(c, a, items);
    return n < 0 ? -2 : n;
}

/* CASE WHEN whens[i] THEN arms[i] ... ELSE arms[nw] END, item k of each */
static attu_bexpr *item_case(bctx *c, attu_bexpr **whens, int nw, attu_bexpr ***arm_it, attu_type t, int k, int pos) {
    attu_bexpr *x = attu_bx_new(c->pa, BX_CASE, t, pos);
    attu_bexpr **w = attu_palloc(c->pa, sizeof *w * (size_t)nw), **th = attu_palloc(c->pa, sizeof *th * (size_t)nw);
    if (!x || !w || !th) { attu_error_oom(c->err); return NULL; }
    for (int i = 0; i <= nw; i++) {
        attu_bexpr *v = arm_it[i] ? arm_it[i][k] : mk_const_null(c, t);
        if (!v) return NULL;
        if (i < nw) { w[i] = whens[i]; th[i] = v; } else x->else_ = v;
    }
    x->nwhens = nw; x->whens = w; x->thens = th;
    return x;
}

static int derived_items(bctx *c, attu_bexpr *x, attu_bexpr ***items) {
    attu_bexpr *arms[2], **whens, *cond;
    int nw;
    if (x->kind == BX_CASE) {
        nw = x->nwhens;
        whens = x->whens;
    } else if (x->kind == BX_CALL && x->op == ATTU_OP_COALESCE && x->nargs == 2) {
        cond = mk_call(c, ATTU_OP_IS_NOT_NULL, attu_type_make(ATTU_TYPE_BOOL), x->position, 1, x->args[0], NULL, NULL, NULL);
        if (!cond) return -2;
        nw = 1;
        whens = &cond;
        arms[0] = x->args[0]; arms[1] = x->args[1];
    } else {
        return -2;
    }
    attu_bexpr ***arm_it = attu_palloc(c->pa, sizeof *arm_it * (size_t)(nw + 1));
    if (!arm_it) { attu_error_oom(c->err); return -2; }
    int n = -1, ref = -1;
    for (int i = 0; i <= nw; i++) {
        attu_bexpr *a = x->kind == BX_CASE ? (i < nw ? x->thens[i] : x->else_) : arms[i];
        int m = arm_items(c, a, &arm_it[i]);
        if (m == -2) return -2;
        if (m == -1) { arm_it[i] = NULL; continue; }
        if (n >= 0 && m != n) return -2;
        n = m;
        if (ref < 0) { ref = i; continue; }
        for (int k = 0; k < n; k++)
            if (!attu_type_equal(arm_it[i][k]->type, arm_it[ref][k]->type)) return -2;
    }
    if (n < 0) return -2;
    attu_bexpr **v = attu_palloc(c->pa, sizeof *v * (size_t)(n ? n : 1));
    row_fields *f = attu_palloc(c->pa, sizeof *f);
    attu_bexpr *nt = mk_call(c, ATTU_OP_IS_NULL, attu_type_make(ATTU_TYPE_BOOL), x->position, 1, x, NULL, NULL, NULL);
    if (!v || !f || !nt) { attu_error_oom(c->err); return -2; }
    for (int k = 0; k < n; k++) {
        if (!(v[k] = item_case(c, whens, nw, arm_it, arm_it[ref][k]->type, k, x->position))) return -2;
        if (!attu_row_value_derive(c, v[k])) return -2;   /* a nested row's items */
    }
    f->rec = x; f->items = v; f->n = n; f->null_test = nt; f->opaque = true; f->next = c->row_fields;
    c->row_fields = f;
    *items = v;
    return n;
}

attu_bexpr *attu_row_value_derive(bctx *c, attu_bexpr *x) {
    if (!x || !attu_type_is_record(x->type)) return x;
    attu_bexpr **items;
    if (attu_row_value_items(c, x, &items) < 0) (void)derived_items(c, x, &items);
    return c->err->set ? NULL : x;
}

/* ---- SELECT DISTINCT of rows ------------------------------------------------
 *
 * DISTINCT compares a row's text, which tells equal items apart where
 * their text differs: numerics of different scales ((1.0), (1.00)), a
 * float's -0 and 0. PostgreSQL's record equality makes those rows one, so
 * a list with such a row keeps one row per key of its items, as the
 * bpchar case does (binder.c bp_distinct). */

static bool text_tells_apart(bctx *c, const attu_bexpr *x, int depth) {
    attu_bexpr **f;
    int n = attu_row_value_items(c, x, &f);
    for (int k = 0; k < n && depth < 64; k++) {
        attu_type_id t = f[k]->type.id;
        if (t == ATTU_TYPE_NUMERIC || t == ATTU_TYPE_DECIMAL || t == ATTU_TYPE_FLOAT32 || t == ATTU_TYPE_FLOAT64)
            return true;
        if (attu_type_is_record(f[k]->type) && text_tells_apart(c, f[k], depth + 1)) return true;
    }
    return false;
}

bool attu_row_value_distinct_by_items(bctx *c, const attu_bexpr *x) {
    return attu_type_is_record(x->type) && text_tells_apart(c, x, 0);
}

int attu_row_value_keys(bctx *c, attu_bexpr *x, attu_bexpr **out) {
    attu_bexpr **f;
    int n = attu_row_value_items(c, x, &f);
    if (n < 0) { if (out) out[0] = x; return 1; }
    int m = 0;
    attu_bexpr *nt = attu_row_value_null_test(c, x);
    if (nt) { if (out) out[m] = nt; m++; }
    for (int k = 0; k < n; k++) m += attu_row_value_keys(c, f[k], out ? out + m : NULL);
    return m;
}

/* ---- field selection ----------------------------------------------------
 *
 * (r).name and (r).*, PostgreSQL's field selection: the item of the row
 * value r named name, or all of them (a select-list item only). The names
 * are those of a whole-row reference's FROM item ((t).a), of
 * json_populate_record's row type, or f1, f2, ... of a row constructor
 * (PostgreSQL finds no names in the record a function returns from a
 * ROW(...) base). NULL where the row is NULL: the items are then. */

/* r's items and their names for (r).field (field NULL: (r).*);
 * *type_name the named row type's name for the messages, *anonymous for
 * a function's record of no named type; -1 after an error. */
static int fields_of(bctx *c, const scope *sc, const attu_ast_expr *r, const char *field, attu_bexpr ***items,
                     const char ***names, const char **type_name, bool *anonymous) {
    attu_bexpr *guard = NULL;
    *type_name = NULL;
    *anonymous = false;
    if (attu_json_populate_call(r)) {
        int n = attu_json_populate_items(c, sc, r, items, names, &guard);
        if (n < 0) return -1;
        const attu_ast_expr *b = r->u.func.args.items[0];
        const char *qual = b->kind == ATTU_EXPR_COLUMN && !b->u.column.qualifier ? b->u.column.name
                           : b->kind == ATTU_EXPR_STAR ? b->u.star.qualifier : NULL;
        if (b->kind == ATTU_EXPR_CAST) *type_name = b->u.cast.type.name;
        else if (qual && !(*type_name = attu_row_type_of(c, sc, qual, n, NULL))) *type_name = qual;
        else if (!qual) *anonymous = true;
        return n;
    }
    attu_bexpr *rec = bind_expr(c, sc, r);
    if (!rec) return -1;
    int n = attu_type_is_record(rec->type) ? attu_row_value_items(c, rec, items) : -1;
    if (n < 0 && attu_type_is_record(rec->type)) {
        *anonymous = true;
        return 0;
    }
    if (n < 0) {
        char tb[64];
        if (field)
            attu_error_set(c->err, "42809", r->position, "column notation .%s applied to type %s, which is not a composite type",
                           field, tname(rec->type, tb));
        else
            attu_error_set(c->err, "42809", r->position, "type %s is not composite", tname(rec->type, tb));
        return -1;
    }
    if (r->kind == ATTU_EXPR_COLUMN && !r->u.column.qualifier) *type_name = r->u.column.name;
    if (!(*names = attu_json_row_names(c, sc, r, rec))) return -1;
    return n;
}

attu_bexpr *attu_bind_field_select(bctx *c, const scope *sc, const attu_ast_expr *e) {
    const attu_ast_expr *r = e->u.func.args.items[0];
    if (!strcmp(e->u.func.name, " fields")) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, r->position, "row expansion via \"*\" is not supported here");
        return NULL;
    }
    const char *field = e->u.func.args.items[1]->u.literal.text, *type_name;
    attu_bexpr **items;
    const char **names;
    bool anonymous;
    int n = fields_of(c, sc, r, field, &items, &names, &type_name, &anonymous);
    if (n < 0) return NULL;
    for (int i = 0; i < n && !anonymous; i++)
        if (!strcmp(names[i], field)) return items[i];
    if (type_name && !anonymous && r->kind == ATTU_EXPR_COLUMN)
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_COLUMN, r->position, "column %s.%s does not exist", type_name, field);
    else if (type_name && !anonymous)
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_COLUMN, r->position, "column \"%s\" not found in data type %s", field,
                       type_name);
    else
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_COLUMN, r->position, "could not identify column \"%s\" in record data type",
                       field);
    return NULL;
}

int attu_row_fields_expand(bctx *c, const scope *sc, const attu_ast_expr *e, attu_bexpr ***items, const char ***names) {
    const attu_ast_expr *r = e->u.func.args.items[0];
    const char *type_name;
    bool anonymous;
    int n = fields_of(c, sc, r, NULL, items, names, &type_name, &anonymous);
    if (n < 0) return -1;
    if (anonymous) {
        attu_error_set(c->err, "42809", r->position, "record type has not been registered");
        return -1;
    }
    return n;
}
