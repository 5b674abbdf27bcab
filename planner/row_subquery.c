/*
 * Row subqueries: a row constructor compared with a subquery of as many
 * columns.
 *
 *   (a, b) [NOT] IN (SELECT x, y ...)     (a, b) op ANY | ALL (SELECT x, y ...)
 *   (a, b) op (SELECT x, y ...)           a scalar row subquery
 *
 * They are rewritten into forms the binder already plans, so that every
 * path of the one-column subqueries (semi / anti joins, the apply form of
 * correlated subqueries, run-once uncorrelated ones) serves n columns:
 *
 *   The subquery becomes a derived table S("?1", ..., "?n") whose column
 *   names no written identifier can reach, and cmp(S) the row comparison
 *   of (a, b, ...) with S's columns, item by item as PostgreSQL's
 *   make_row_comparison_op builds it (ast_build.c's row comparisons).
 *
 *   (a, b) op ANY (S) is, in three-valued logic, the OR of cmp over S's
 *   rows: TRUE when some row compares TRUE, else NULL when some row
 *   compares NULL, else FALSE (also for no rows):
 *     CASE WHEN EXISTS (SELECT FROM S WHERE cmp) THEN TRUE
 *          WHEN EXISTS (SELECT FROM S WHERE (cmp) IS NULL) THEN NULL
 *          ELSE FALSE END
 *   IN is = ANY; NOT IN its negation; op ALL is NOT (negated-op ANY), as
 *   NOT (x op y) is x negated-op y item by item and row by row.
 *
 *   Where only TRUE matters (a WHERE conjunct), IN / ANY is the first
 *   EXISTS alone, and NOT IN / ALL the two NOT EXISTS: the binder turns an
 *   EXISTS whose condition holds equalities with the outer row into a
 *   semi / anti join keyed on them (binder.c's bind_exists_join).
 *
 *   (a, b) op (S) compares the row with S's one row: each item's partner
 *   is the scalar subquery (SELECT "?k" FROM S), which is NULL for no row
 *   and fails with 21000 for more than one, as PostgreSQL's row subquery.
 *
 * The column count is checked first (42601 "subquery has too many / too
 * few columns" at the operator, as PostgreSQL).
 */
#include "binder_internal.h"

#include <stdio.h>
#include <string.h>

#define RS_ALIAS "?row_subquery"

static bool is_row(const attu_ast_expr *e) {
    return e && e->kind == ATTU_EXPR_FUNC && !e->u.func.schema && e->u.func.name &&
           strcmp(e->u.func.name, "row") == 0 && !e->u.func.over && !e->u.func.star;
}

bool attu_is_row_subquery(const attu_ast_expr *e) {
    if (e->kind == ATTU_EXPR_IN_SUBQUERY) return is_row(e->u.in_subquery.arg);
    if (e->kind == ATTU_EXPR_QUANTIFIED) return is_row(e->u.quantified.arg);
    if (e->kind == ATTU_EXPR_BINARY)
        return is_row(e->u.binary.left) && e->u.binary.right->kind == ATTU_EXPR_SUBQUERY &&
               e->u.binary.op >= ATTU_BINOP_EQ && e->u.binary.op <= ATTU_BINOP_GE;
    return false;
}

/* ---- building the rewritten tree (in the plan arena, like the binder's
 * other allocations; the tree lives as long as the statement's binding) */

static int imax(int a, int b) { return a > b ? a : b; }

static attu_ast_expr *node(bctx *c, attu_ast_expr_kind k, int pos, int depth) {
    attu_ast_expr *e = attu_palloc(c->pa, sizeof *e);
    if (!e) { attu_error_oom(c->err); return NULL; }
    e->kind = k;
    e->position = pos;
    e->depth = depth;
    return e;
}

static attu_ast_expr *binary(bctx *c, attu_ast_binary_op op, attu_ast_expr *l, attu_ast_expr *r, int pos) {
    if (!l || !r) return NULL;
    attu_ast_expr *e = node(c, ATTU_EXPR_BINARY, pos, imax(l->depth, r->depth) + 1);
    if (!e) return NULL;
    e->u.binary.op = op;
    e->u.binary.left = l;
    e->u.binary.right = r;
    e->u.binary.op_text = attu_ast_binary_op_name(op);
    return e;
}

static attu_ast_expr *not_(bctx *c, attu_ast_expr *x, int pos) {
    if (!x) return NULL;
    attu_ast_expr *e = node(c, ATTU_EXPR_UNARY, pos, x->depth + 1);
    if (!e) return NULL;
    e->u.unary.op = ATTU_UNOP_NOT;
    e->u.unary.arg = x;
    e->u.unary.op_text = "NOT";
    return e;
}

static attu_ast_expr *literal(bctx *c, attu_ast_literal_kind k, const char *text, int pos) {
    attu_ast_expr *e = node(c, ATTU_EXPR_LITERAL, pos, 1);
    if (!e) return NULL;
    e->u.literal.kind = k;
    e->u.literal.text = (char *)text;
    e->u.literal.len = strlen(text);
    return e;
}

static char *col_name(bctx *c, int k) {
    char buf[16];
    int n = snprintf(buf, sizeof buf, "?%d", k + 1);
    return attu_pstrdup(c->pa, buf, (size_t)n);
}

static attu_ast_expr *s_col(bctx *c, int k, int pos) {
    attu_ast_expr *e = node(c, ATTU_EXPR_COLUMN, pos, 1);
    if (!e) return NULL;
    e->u.column.qualifier = RS_ALIAS;
    if (!(e->u.column.name = col_name(c, k))) { attu_error_oom(c->err); return NULL; }
    return e;
}

/* SELECT item FROM (q) AS "?row_subquery"("?1", ..., "?n") [WHERE where] */
static attu_ast_query *select_from_s(bctx *c, const attu_ast_query *q, int n, attu_ast_expr *item,
                                     attu_ast_expr *where, int pos) {
    if (!item) return NULL;
    attu_ast_query *s = attu_palloc(c->pa, sizeof *s);
    attu_ast_from *f = attu_palloc(c->pa, sizeof *f);
    attu_ast_from **fl = attu_palloc(c->pa, sizeof *fl);
    attu_ast_select_item *it = attu_palloc(c->pa, sizeof *it);
    char **names = attu_palloc(c->pa, sizeof *names * (size_t)n);
    int *npos = attu_palloc(c->pa, sizeof *npos * (size_t)n);
    if (!s || !f || !fl || !it || !names || !npos) { attu_error_oom(c->err); return NULL; }
    for (int k = 0; k < n; k++) {
        if (!(names[k] = col_name(c, k))) { attu_error_oom(c->err); return NULL; }
        npos[k] = pos;
    }
    f->kind = ATTU_FROM_SUBQUERY;
    f->position = pos;
    f->depth = q->depth + 1;
    f->alias = RS_ALIAS;
    f->column_aliases.items = names;
    f->column_aliases.positions = npos;
    f->column_aliases.n = n;
    f->u.subquery.query = (attu_ast_query *)q;
    fl[0] = f;
    it->expr = item;
    s->kind = ATTU_QUERY_SELECT;
    s->position = pos;
    s->u.select.items = it;
    s->u.select.nitems = 1;
    s->u.select.from.items = fl;
    s->u.select.from.n = 1;
    s->u.select.where = where;
    s->lift_aggs = where != NULL;
    s->depth = imax(f->depth, imax(item->depth, where ? where->depth : 0)) + 1;
    return s;
}

static attu_ast_expr *subquery_expr(bctx *c, attu_ast_expr_kind k, attu_ast_query *q, int pos) {
    if (!q) return NULL;
    attu_ast_expr *e = node(c, k, pos, q->depth + 1);
    if (!e) return NULL;
    e->u.subquery.query = q;
    return e;
}

/* The row comparison of items a[0..n) with b[0..n), as ast_build.c's
 * row_pairs: = every pair equal, <> some pair different, the ordering
 * operators decided by the first pair that is not equal. */
static attu_ast_expr *row_cmp(bctx *c, attu_ast_binary_op op, attu_ast_expr **a, attu_ast_expr **b, int n, int pos) {
    if (n == 1) return binary(c, op, a[0], b[0], pos);
    attu_ast_expr *rest = row_cmp(c, op, a + 1, b + 1, n - 1, pos);
    switch (op) {
    case ATTU_BINOP_EQ: return binary(c, ATTU_BINOP_AND, binary(c, op, a[0], b[0], pos), rest, pos);
    case ATTU_BINOP_NE: return binary(c, ATTU_BINOP_OR, binary(c, op, a[0], b[0], pos), rest, pos);
    default: {
        attu_ast_binary_op strict = op == ATTU_BINOP_LE ? ATTU_BINOP_LT : op == ATTU_BINOP_GE ? ATTU_BINOP_GT : op;
        attu_ast_expr *tie = binary(c, ATTU_BINOP_AND, binary(c, ATTU_BINOP_EQ, a[0], b[0], pos), rest, pos);
        return binary(c, ATTU_BINOP_OR, binary(c, strict, a[0], b[0], pos), tie, pos);
    }
    }
}

static attu_ast_binary_op negated_op(attu_ast_binary_op op) {
    switch (op) {
    case ATTU_BINOP_EQ: return ATTU_BINOP_NE;
    case ATTU_BINOP_NE: return ATTU_BINOP_EQ;
    case ATTU_BINOP_LT: return ATTU_BINOP_GE;
    case ATTU_BINOP_LE: return ATTU_BINOP_GT;
    case ATTU_BINOP_GT: return ATTU_BINOP_LE;
    default:            return ATTU_BINOP_LT;   /* GE */
    }
}

/* The number of columns q returns, from the tree where it says (-1 where
 * a * must be expanded first). */
static int written_columns(const attu_ast_query *q) {
    switch (q->kind) {
    case ATTU_QUERY_SELECT:
        for (int i = 0; i < q->u.select.nitems; i++)
            if (q->u.select.items[i].expr->kind == ATTU_EXPR_STAR) return -1;
        return q->u.select.nitems;
    case ATTU_QUERY_VALUES: return q->u.values.rows[0].n;
    default: return written_columns(q->u.setop.left);
    }
}

static int query_columns(bctx *c, const scope *sc, const attu_ast_query *q) {
    int n = written_columns(q);
    if (n >= 0) return n;
    attu_lplan *p = attu_bind_sub_plan(c, sc, q);
    return p ? p->ncols : -1;
}

/* The parts of one row subquery: its row items, query, operator and
 * form. */
typedef struct row_sub {
    attu_ast_expr       **items;
    int                   n;
    const attu_ast_query *q;
    attu_ast_binary_op    op;
    bool                  all;       /* op ALL */
    bool                  negated;   /* NOT IN */
    bool                  scalar;    /* (a, b) op (SELECT ...) */
    int                   pos;
} row_sub;

static bool parts_of(bctx *c, const scope *sc, const attu_ast_expr *e, row_sub *r) {
    memset(r, 0, sizeof *r);
    const attu_ast_expr *row;
    r->pos = e->position;
    if (e->kind == ATTU_EXPR_IN_SUBQUERY) {
        row = e->u.in_subquery.arg; r->q = e->u.in_subquery.query;
        r->op = ATTU_BINOP_EQ; r->negated = e->u.in_subquery.negated;
    } else if (e->kind == ATTU_EXPR_QUANTIFIED) {
        row = e->u.quantified.arg; r->q = e->u.quantified.query;
        r->op = e->u.quantified.op; r->all = e->u.quantified.all;
        if (r->op < ATTU_BINOP_EQ || r->op > ATTU_BINOP_GE) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                           "operator %s is not supported with ANY / ALL", e->u.quantified.op_text ? e->u.quantified.op_text : "?");
            return false;
        }
    } else {
        row = e->u.binary.left; r->q = e->u.binary.right->u.subquery.query;
        r->op = e->u.binary.op; r->scalar = true;
    }
    r->items = row->u.func.args.items;
    r->n = row->u.func.args.n;
    if (r->n == 0) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, r->pos, "cannot compare rows of zero length");
        return false;
    }
    int m = query_columns(c, sc, r->q);
    if (m < 0) return false;
    if (m != r->n) {
        attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, r->pos, m > r->n ? "subquery has too many columns" : "subquery has too few columns");
        return false;
    }
    return true;
}

/* EXISTS (SELECT 1 FROM S WHERE cmp) or, with unknown, WHERE (cmp) IS NULL */
static attu_ast_expr *exists_cmp(bctx *c, const row_sub *r, attu_ast_binary_op op, bool unknown) {
    attu_ast_expr **cols = attu_palloc(c->pa, sizeof *cols * (size_t)r->n);
    if (!cols) { attu_error_oom(c->err); return NULL; }
    for (int k = 0; k < r->n; k++)
        if (!(cols[k] = s_col(c, k, r->pos))) return NULL;
    attu_ast_expr *cmp = row_cmp(c, op, r->items, cols, r->n, r->pos);
    if (!cmp) return NULL;
    if (unknown) {
        attu_ast_expr *is = node(c, ATTU_EXPR_IS, r->pos, cmp->depth + 1);
        if (!is) return NULL;
        is->u.is.arg = cmp;
        is->u.is.what = ATTU_IS_NULL;
        cmp = is;
    }
    return subquery_expr(c, ATTU_EXPR_EXISTS,
                         select_from_s(c, r->q, r->n, literal(c, ATTU_LIT_INTEGER, "1", r->pos), cmp, r->pos), r->pos);
}

/* (a, b) op ANY (S), three-valued */
static attu_ast_expr *any_expr(bctx *c, const row_sub *r, attu_ast_binary_op op) {
    attu_ast_expr *match = exists_cmp(c, r, op, false), *unknown = exists_cmp(c, r, op, true);
    attu_ast_case_when *w = attu_palloc(c->pa, sizeof *w * 2);
    if (!match || !unknown || !w) { if (!w) attu_error_oom(c->err); return NULL; }
    w[0].when = match; w[0].then = literal(c, ATTU_LIT_BOOL, "true", r->pos);
    w[1].when = unknown; w[1].then = literal(c, ATTU_LIT_NULL, "null", r->pos);
    attu_ast_expr *e = node(c, ATTU_EXPR_CASE, r->pos, imax(match->depth, unknown->depth) + 1);
    if (!e || !w[0].then || !w[1].then) return NULL;
    e->u.case_.whens = w;
    e->u.case_.nwhens = 2;
    e->u.case_.else_ = literal(c, ATTU_LIT_BOOL, "false", r->pos);
    return e->u.case_.else_ ? e : NULL;
}

static attu_ast_expr *rewrite(bctx *c, const row_sub *r) {
    if (r->scalar) {
        attu_ast_expr **vals = attu_palloc(c->pa, sizeof *vals * (size_t)r->n);
        if (!vals) { attu_error_oom(c->err); return NULL; }
        for (int k = 0; k < r->n; k++)
            if (!(vals[k] = subquery_expr(c, ATTU_EXPR_SUBQUERY,
                                          select_from_s(c, r->q, r->n, s_col(c, k, r->pos), NULL, r->pos), r->pos)))
                return NULL;
        return row_cmp(c, r->op, r->items, vals, r->n, r->pos);
    }
    if (r->all) return not_(c, any_expr(c, r, negated_op(r->op)), r->pos);
    attu_ast_expr *any = any_expr(c, r, r->op);
    return r->negated ? not_(c, any, r->pos) : any;
}

attu_bexpr *attu_bind_row_subquery(bctx *c, const scope *sc, const attu_ast_expr *e) {
    row_sub r;
    if (!parts_of(c, sc, e, &r)) return NULL;
    attu_ast_expr *x = rewrite(c, &r);
    return x ? bind_expr(c, sc, x) : NULL;
}

int attu_row_subquery_where(bctx *c, const scope *sc, const attu_ast_expr *e, const attu_ast_expr **out) {
    row_sub r;
    if (!parts_of(c, sc, e, &r)) return -1;
    if (r.scalar) {
        if (!(out[0] = rewrite(c, &r))) return -1;
        return 1;
    }
    /* only TRUE keeps a row: IN / ANY is "some row compares TRUE"; NOT IN
     * and ALL are "no row compares TRUE or NULL" under the negated form */
    if (!r.negated && !r.all) return (out[0] = exists_cmp(c, &r, r.op, false)) ? 1 : -1;
    attu_ast_binary_op op = r.all ? negated_op(r.op) : r.op;
    out[0] = not_(c, exists_cmp(c, &r, op, false), r.pos);
    out[1] = out[0] ? not_(c, exists_cmp(c, &r, op, true), r.pos) : NULL;
    return out[1] ? 2 : -1;
}
