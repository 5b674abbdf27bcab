/*
 * db_signal_fill.c - pg_cancel_backend, pg_terminate_backend and
 * pg_notify as whole select-list items of a query over rows:
 *
 *   SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE ...
 *   SELECT pg_notify('jobs', id::text) FROM t
 *
 * The binder calls these functions once, while it binds, with constant
 * arguments (planner/session_functions.c). This file takes the common
 * form over rows, as db_sequence_fill.c does for nextval: an item that is
 * exactly one of these calls, in a plain SELECT, with an argument that is
 * not a literal. The item is bound as a NULL stand-in of the function's
 * type and its arguments as extra items at the end, cast to the
 * function's argument types (integer, bigint, text); once the query has
 * run, the function is called for each result row in order, left to right,
 * its result replaces the stand-in and the extra columns are dropped.
 * PostgreSQL evaluates the select list per output row too, after ORDER BY
 * and LIMIT. Queries where the stand-in would change the rows (DISTINCT,
 * GROUP BY, HAVING, an ORDER BY of the item, OFFSET, `*`) are left alone:
 * the binder refuses them (0A000).
 *
 * Arguments are cast explicitly, so a bigint pid is taken where
 * PostgreSQL's function lookup would refuse it (42883).
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FN_CANCEL = 1, FN_TERMINATE, FN_NOTIFY };

static int fill_kind(const attu_ast_expr *e) {
    if (!e || e->kind != ATTU_EXPR_FUNC || (e->u.func.schema && strcmp(e->u.func.schema, "pg_catalog")) ||
        e->u.func.star || e->u.func.distinct || e->u.func.over || e->u.func.filter || e->u.func.order_by.n)
        return 0;
    int n = e->u.func.args.n;
    if (!strcmp(e->u.func.name, "pg_cancel_backend") && n == 1) return FN_CANCEL;
    if (!strcmp(e->u.func.name, "pg_terminate_backend") && (n == 1 || n == 2)) return FN_TERMINATE;
    if (!strcmp(e->u.func.name, "pg_notify") && n == 2) return FN_NOTIFY;
    return 0;
}

/* Whether the call's arguments are all literals (then the binder calls
 * it, with PostgreSQL's own argument checks). */
static bool literal_args(const attu_ast_expr *e) {
    for (int i = 0; i < e->u.func.args.n; i++) {
        const attu_ast_expr *a = e->u.func.args.items[i];
        while (a->kind == ATTU_EXPR_CAST) a = a->u.cast.arg;
        if (a->kind != ATTU_EXPR_LITERAL) return false;
    }
    return true;
}

static bool orders_by_item(const attu_ast_expr *o, int k, const char *name) {
    if (o->kind == ATTU_EXPR_LITERAL && o->u.literal.kind == ATTU_LIT_INTEGER) return atoi(o->u.literal.text) == k + 1;
    return o->kind == ATTU_EXPR_COLUMN && !o->u.column.qualifier && !strcmp(o->u.column.name, name);
}

static void make_cast(attu_ast_expr *cast, attu_ast_expr *arg, const char *type, int pos) {
    cast->kind = ATTU_EXPR_CAST;
    cast->depth = arg->depth + 1;
    cast->position = pos;
    cast->u.cast.arg = arg;
    cast->u.cast.type.name = (char *)type;
    cast->u.cast.type.precision = -1;
    cast->u.cast.type.scale = -1;
    cast->u.cast.type.position = pos;
}

const attu_ast_query *db_signal_fill_prepare(const attu_ast_query *q, db_signal_fill *f) {
    memset(f, 0, sizeof *f);
    if (!q || q->kind != ATTU_QUERY_SELECT || q->u.select.distinct || q->u.select.distinct_on.n ||
        q->u.select.group_by.n || q->u.select.group_empty || q->u.select.having || q->offset || q->limit_with_ties)
        return q;
    int n = q->u.select.nitems, m = 0, nargs = 0;
    for (int k = 0; k < n; k++) {
        const attu_ast_select_item *it = &q->u.select.items[k];
        if (it->expr->kind == ATTU_EXPR_STAR) return q;
        if (!fill_kind(it->expr) || literal_args(it->expr)) continue;
        const char *name = it->alias ? it->alias : it->expr->u.func.name;
        for (int o = 0; o < q->order_by.n; o++)
            if (orders_by_item(q->order_by.items[o].expr, k, name)) return q;
        m++;
        nargs += it->expr->u.func.args.n;
    }
    if (!m || m > DB_SIGNAL_FILL_MAX) return q;
    f->items = calloc((size_t)(n + nargs) + 1, sizeof *f->items);
    f->exprs = calloc((size_t)(m * 2 + nargs) + 1, sizeof *f->exprs);
    if (!f->items || !f->exprs) { db_signal_fill_free(f); return q; }
    memcpy(f->items, q->u.select.items, sizeof *f->items * (size_t)n);
    int x = 0, extra = n;
    for (int k = 0; k < n; k++) {
        const attu_ast_expr *call = f->items[k].expr;
        int kind = fill_kind(call);
        if (!kind || literal_args(call)) continue;
        /* the stand-in: CAST(NULL AS boolean / text), named as the call */
        attu_ast_expr *cast = &f->exprs[x++], *null = &f->exprs[x++];
        null->kind = ATTU_EXPR_LITERAL;
        null->depth = 1;
        null->position = call->position;
        null->u.literal.kind = ATTU_LIT_NULL;
        null->u.literal.text = (char *)"null";
        null->u.literal.len = 4;
        make_cast(cast, null, kind == FN_NOTIFY ? "text" : "boolean", call->position);
        if (!f->items[k].alias) f->items[k].alias = call->u.func.name;
        f->items[k].expr = cast;
        /* its arguments, cast to the function's parameter types */
        int j = f->n;
        f->col[j] = k;
        f->kind[j] = kind;
        f->first_arg[j] = extra;
        f->nargs[j] = call->u.func.args.n;
        for (int a = 0; a < call->u.func.args.n; a++) {
            attu_ast_expr *ac = &f->exprs[x++];
            const char *type = kind == FN_NOTIFY ? "text" : a == 0 ? "integer" : "bigint";
            make_cast(ac, call->u.func.args.items[a], type, call->u.func.args.items[a]->position);
            f->items[extra].expr = ac;
            f->items[extra].alias = (char *)"?column?";
            extra++;
        }
        f->n++;
    }
    f->nitems = n;
    f->q = *q;
    f->q.u.select.items = f->items;
    f->q.u.select.nitems = extra;
    return &f->q;
}

/* A value of column c at row r as text (NULL: SQL NULL); buf holds it
 * unless the column's own bytes do. */
static const char *value_text(const attu_column *c, size_t r, char *buf, size_t cap, size_t *len) {
    const char *lng = NULL;
    size_t n = attu_column_format(c, r, buf, cap, &lng);
    if (n == (size_t)-1) return NULL;
    *len = n;
    if (lng) return lng;
    if (n < cap) buf[n] = 0;
    return buf;
}

int db_signal_fill_apply(attu_session *s, const db_signal_fill *f, attu_result *r, attu_error *err) {
    if (!f->n) return 0;
    size_t nrows = r->nrows;
    attu_column *out[DB_SIGNAL_FILL_MAX] = { 0 };
    const char **empty = NULL;
    int rc = 0;
    for (int j = 0; j < f->n && !rc; j++) {
        if (f->kind[j] == FN_NOTIFY) {
            if (!empty && !(empty = calloc(nrows ? nrows : 1, sizeof *empty))) { rc = attu_error_oom(err); break; }
            for (size_t i = 0; i < nrows; i++) empty[i] = "";
            if (!(out[j] = db_text_column(empty, nrows, err))) rc = -1;
        } else {
            if (!(out[j] = attu_column_new(attu_type_make(ATTU_TYPE_BOOL), nrows ? nrows : 1, err))) rc = -1;
            else out[j]->length = nrows;
        }
    }
    free(empty);
    char buf[2][8200];
    for (size_t i = 0; i < nrows && !rc; i++) {
        for (int j = 0; j < f->n && !rc; j++) {
            const char *v[2] = { NULL, NULL };
            size_t len[2] = { 0, 0 };
            char *copy[2] = { NULL, NULL };
            for (int a = 0; a < f->nargs[j]; a++) {
                v[a] = value_text(r->cols[f->first_arg[j] + a], i, buf[a], sizeof buf[a], &len[a]);
                /* (a long payload: a NUL-terminated copy, which the length check then refuses) */
                if (v[a] && len[a] >= sizeof buf[a]) {
                    if (!(copy[a] = strndup(v[a], len[a]))) rc = attu_error_oom(err);
                    v[a] = copy[a];
                }
            }
            if (rc) { free(copy[0]); free(copy[1]); break; }
            if (f->kind[j] == FN_NOTIFY) {
                rc = db_notify_call(s, v[0] ? v[0] : "", v[1] ? v[1] : "", err);
            } else if (!v[0] || (f->nargs[j] == 2 && !v[1])) {   /* strict: NULL */
                if (attu_column_ensure_validity(out[j], err)) rc = -1;
                else attu_column_set_null(out[j], i, true);
                ((uint8_t *)out[j]->data)[i] = 0;
            } else {
                bool ok = false;
                rc = db_signal_backend(s, strtoll(v[0], NULL, 10), f->kind[j] == FN_TERMINATE,
                                       f->nargs[j] == 2 ? strtoll(v[1], NULL, 10) : 0, &ok, err);
                ((uint8_t *)out[j]->data)[i] = ok;
            }
            free(copy[0]);
            free(copy[1]);
        }
    }
    if (rc) {
        for (int j = 0; j < f->n; j++) attu_column_free(out[j]);
        return -1;
    }
    for (int j = 0; j < f->n; j++) {
        attu_column_free(r->cols[f->col[j]]);
        r->cols[f->col[j]] = out[j];
    }
    /* the arguments' columns go */
    for (int k = f->nitems; k < r->ncols; k++) {
        attu_column_free(r->cols[k]);
        r->cols[k] = NULL;
    }
    r->ncols = f->nitems;
    return 0;
}

void db_signal_fill_free(db_signal_fill *f) {
    free(f->items);
    free(f->exprs);
    memset(f, 0, sizeof *f);
}
