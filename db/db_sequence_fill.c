/*
 * db_sequence_fill.c - nextval('s') as a whole select-list item of a query
 * over rows: SELECT nextval('s'), x FROM t, INSERT INTO u SELECT
 * nextval('s'), x FROM t, CREATE TABLE u AS SELECT ...
 *
 * The binder calls sequence functions once, while it binds
 * (planner/sequence_functions.c), and refuses nextval where PostgreSQL
 * calls it once per row. This file takes the one common form of that: an
 * item that is exactly nextval of a constant name, in a plain SELECT with
 * FROM. The item is bound as a NULL stand-in (a bigint, or the INSERT
 * target's integer type) and, once the query has run, its column is filled
 * with one number per result row, drawn in result order, row by row and
 * left to right (db_sequence_draw). That is PostgreSQL's result: it
 * evaluates the select list per output row, and since 9.6 after ORDER BY
 * and LIMIT, so numbers follow the sorted order and rows cut by LIMIT draw
 * none. Where the stand-in would change the rows (DISTINCT, GROUP BY,
 * HAVING, an ORDER BY of the item itself) or OFFSET would (PostgreSQL
 * draws for the rows it skips), the query is left alone and the binder
 * refuses it (0A000). A `*` among the items is left alone too (the item's
 * column is not known before binding).
 */
#include "db/db_internal.h"

#include <stdlib.h>
#include <string.h>

/* The string literal of an item nextval('s') / nextval('s'::regclass), or
 * NULL. */
static const attu_ast_expr *nextval_literal(const attu_ast_expr *e) {
    if (!e || e->kind != ATTU_EXPR_FUNC || e->u.func.schema || strcmp(e->u.func.name, "nextval") || e->u.func.args.n != 1 ||
        e->u.func.star || e->u.func.distinct || e->u.func.over || e->u.func.filter || e->u.func.order_by.n)
        return NULL;
    const attu_ast_expr *a = e->u.func.args.items[0];
    if (a->kind == ATTU_EXPR_CAST && a->u.cast.type.name && !strcmp(a->u.cast.type.name, "regclass")) a = a->u.cast.arg;
    return a->kind == ATTU_EXPR_LITERAL && a->u.literal.kind == ATTU_LIT_STRING ? a : NULL;
}

/* Whether ORDER BY item o names select item k (1-based position, or its
 * output name). */
static bool orders_by_item(const attu_ast_expr *o, int k, const char *name) {
    if (o->kind == ATTU_EXPR_LITERAL && o->u.literal.kind == ATTU_LIT_INTEGER) return atoi(o->u.literal.text) == k + 1;
    return o->kind == ATTU_EXPR_COLUMN && !o->u.column.qualifier && !strcmp(o->u.column.name, name);
}

static bool int_type(attu_type_id t) { return t == ATTU_TYPE_INT16 || t == ATTU_TYPE_INT32 || t == ATTU_TYPE_INT64; }

const attu_ast_query *db_seq_fill_prepare(attu_session *s, const attu_ast_query *q, const attu_type *targets, int ntargets,
                                          db_seq_fill *f) {
    memset(f, 0, sizeof *f);
    if (!q || q->kind != ATTU_QUERY_SELECT || !q->u.select.from.n || q->u.select.distinct || q->u.select.distinct_on.n ||
        q->u.select.group_by.n || q->u.select.group_empty || q->u.select.having || q->offset || q->limit_with_ties)
        return q;
    int n = q->u.select.nitems, m = 0;
    for (int k = 0; k < n; k++) {
        const attu_ast_select_item *it = &q->u.select.items[k];
        if (it->expr->kind == ATTU_EXPR_STAR) return q;
        if (!nextval_literal(it->expr)) continue;
        /* an INSERT's target must take an integer (or there is none: the
         * binder's count error) */
        if (targets && (k >= ntargets || !int_type(targets[k].id) || attu_type_is_array(targets[k]))) return q;
        const char *name = it->alias ? it->alias : "nextval";
        for (int o = 0; o < q->order_by.n; o++)
            if (orders_by_item(q->order_by.items[o].expr, k, name)) return q;
        m++;
    }
    if (!m || m > DB_SEQ_FILL_MAX) return q;
    f->items = calloc((size_t)n + 1, sizeof *f->items);
    f->exprs = calloc((size_t)m * 2 + 1, sizeof *f->exprs);
    if (!f->items || !f->exprs) { db_seq_fill_free(f); return q; }
    memcpy(f->items, q->u.select.items, sizeof *f->items * (size_t)n);
    for (int k = 0; k < n; k++) {
        const attu_ast_expr *lit = nextval_literal(f->items[k].expr);
        if (!lit) continue;
        char *seq = db_sequence_fold(lit->u.literal.text, lit->u.literal.len);
        if (!seq || !db_sequence_exists(s, seq)) {
            /* (an unknown name: left to the binder's 42P01 at the argument) */
            free(seq);
            db_seq_fill_free(f);
            return q;
        }
        /* CAST(NULL AS bigint), named as the call would be */
        attu_ast_expr *cast = &f->exprs[2 * f->n], *null = &f->exprs[2 * f->n + 1];
        null->kind = ATTU_EXPR_LITERAL;
        null->depth = 1;
        null->position = f->items[k].expr->position;
        null->u.literal.kind = ATTU_LIT_NULL;
        null->u.literal.text = (char *)"null";
        null->u.literal.len = 4;
        cast->kind = ATTU_EXPR_CAST;
        cast->depth = 2;
        cast->position = null->position;
        cast->u.cast.arg = null;
        cast->u.cast.type.name = (char *)"bigint";
        cast->u.cast.type.precision = -1;
        cast->u.cast.type.scale = -1;
        cast->u.cast.type.position = null->position;
        if (!f->items[k].alias) f->items[k].alias = (char *)"nextval";
        f->items[k].expr = cast;
        f->col[f->n] = k;
        f->name[f->n] = seq;
        f->n++;
    }
    f->q = *q;
    f->q.u.select.items = f->items;
    return &f->q;
}

int db_seq_fill_apply(attu_session *s, const db_seq_fill *f, attu_column **cols, size_t nrows, attu_error *err) {
    if (!f->n) return 0;
    int64_t *v = malloc(sizeof *v * (nrows * (size_t)f->n + 1));
    if (!v) return attu_error_oom(err);
    int rc = db_sequence_draw(s, f->name, f->n, nrows, v, err);
    for (size_t r = 0; r < nrows && !rc; r++)
        for (int j = 0; j < f->n && !rc; j++) rc = db_sequence_store(cols[f->col[j]], r, v[r * (size_t)f->n + (size_t)j], err);
    /* the host data changed: a device copy a backend kept is stale */
    for (int j = 0; j < f->n; j++) attu_column_invalidate_device(cols[f->col[j]]);
    free(v);
    return rc;
}

void db_seq_fill_free(db_seq_fill *f) {
    for (int j = 0; j < f->n; j++) free(f->name[j]);
    free(f->items);
    free(f->exprs);
    memset(f, 0, sizeof *f);
}
