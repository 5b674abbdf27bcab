/*
 * cte_search_cycle.c - a recursive WITH query's CYCLE clause (PostgreSQL
 * 14's), rewritten at parse time into columns the query's two arms
 * compute, as PostgreSQL's rewriter does:
 *
 *   CYCLE a, b SET c [TO v DEFAULT d] USING p
 *       c: d, then CASE WHEN ROW(a, b) = ANY (t.p) THEN v ELSE d END;
 *       p: ARRAY[ROW(a, b)], then t.p || ROW(a, b);
 *       and the right arm reads only rows whose t.c <> v
 *
 * where a, b are each arm's expressions for those columns and t the right
 * arm's reference to the query; the new columns follow the query's own.
 * The left arm's mark is the CASE of a false condition, so that both arms
 * take the common type of v and d (TRUE and FALSE where not written).
 *
 * SEARCH DEPTH / BREADTH FIRST is refused (0A000): its sequence column is
 * there to be ordered by, and attu orders row values by their text, where
 * PostgreSQL compares them field by field ((10,a) after (9,b)), so the
 * order it gives would be wrong past one digit. The clause's checks come
 * first, as PostgreSQL's.
 */
#include "planner/ast_build.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The name of the arm's column k: an alias, a column's name, else none */
static const char *item_name(const attu_ast_select_item *it) {
    if (it->alias) return it->alias;
    if (it->expr->kind == ATTU_EXPR_COLUMN) return it->expr->u.column.name;
    if (it->expr->kind == ATTU_EXPR_FUNC) return it->expr->u.func.name;
    return "?column?";
}

/* The FROM item of q that reads the WITH query `name` (searched through
 * joins), or NULL */
static const attu_ast_from *self_ref(const attu_ast_from *f, const char *name) {
    if (!f) return NULL;
    if (f->kind == ATTU_FROM_TABLE && !f->u.table.schema && !strcmp(f->u.table.name, name)) return f;
    if (f->kind == ATTU_FROM_JOIN) {
        const attu_ast_from *l = self_ref(f->u.join.left, name);
        return l ? l : self_ref(f->u.join.right, name);
    }
    return NULL;
}

static const attu_ast_from *find_self(const attu_ast_query *q, const char *name) {
    if (q->kind != ATTU_QUERY_SELECT) return NULL;
    for (int i = 0; i < q->u.select.from.n; i++) {
        const attu_ast_from *f = self_ref(q->u.select.from.items[i], name);
        if (f) return f;
    }
    return NULL;
}

static attu_vec *vec_of(attu_parse_ctx *c) { return ab_alloc(c, sizeof(attu_vec)); }
static void push(attu_parse_ctx *c, attu_vec *v, attu_ast_expr *e) { ab_vec_push(c, v, &e, sizeof e); }

/* ROW(cols[k] for the listed columns) */
static attu_ast_expr *row_of(attu_parse_ctx *c, attu_ast_expr **cols, const int *idx, int n, int pos) {
    attu_vec *v = vec_of(c);
    for (int i = 0; i < n; i++) push(c, v, cols[idx[i]]);
    return ab_func(c, NULL, "row", v, pos);
}

static attu_ast_expr *array_of(attu_parse_ctx *c, attu_ast_expr *e, int pos) {
    attu_vec *v = vec_of(c);
    push(c, v, e);
    return ab_func(c, NULL, " array", v, pos);
}

static attu_ast_expr *concat(attu_parse_ctx *c, attu_ast_expr *l, attu_ast_expr *r, int pos) {
    attu_token op = { 0 };
    op.pos = pos;
    return ab_binary(c, ATTU_BINOP_CONCAT, l, r, &op);
}

/* CASE WHEN cond THEN a ELSE b END */
static attu_ast_expr *case_of(attu_parse_ctx *c, attu_ast_expr *cond, attu_ast_expr *a, attu_ast_expr *b, int pos) {
    attu_vec *w = vec_of(c);
    attu_ast_case_when cw = { cond, a };
    ab_vec_push(c, w, &cw, sizeof cw);
    return ab_case(c, NULL, w, b, pos);
}

/* The columns listed (by, n) as indexes into names (nn), or false after
 * PostgreSQL's error (`what`: "search" or "cycle") */
static bool resolve(attu_parse_ctx *c, const attu_ast_name_list *by, const char **names, int nn, int *idx,
                    const char *what, int pos) {
    for (int i = 0; i < by->n; i++) {
        idx[i] = -1;
        for (int k = 0; k < nn && idx[i] < 0; k++)
            if (!strcmp(names[k], by->items[i])) idx[i] = k;
        if (idx[i] < 0) {
            ab_error(c, ATTU_SQLSTATE_SYNTAX, pos, "%s column \"%s\" not in WITH query column list", what, by->items[i]);
            return false;
        }
        for (int j = 0; j < i; j++)
            if (idx[j] == idx[i]) {
                ab_error(c, "42701", pos, "%s column \"%s\" specified more than once", what, by->items[i]);
                return false;
            }
    }
    return true;
}

/* Appends k new items to a SELECT arm (exprs e[0..k), aliases names) */
static void add_items(attu_parse_ctx *c, attu_ast_query *q, attu_ast_expr **e, char **names, int k) {
    int n = q->u.select.nitems;
    attu_ast_select_item *items = ab_alloc(c, sizeof *items * (size_t)(n + k));
    if (!items) return;
    if (n) memcpy(items, q->u.select.items, sizeof *items * (size_t)n);
    for (int i = 0; i < k; i++) {
        memset(&items[n + i], 0, sizeof items[n + i]);
        items[n + i].expr = e[i];
        items[n + i].alias = names[i];
    }
    q->u.select.items = items;
    q->u.select.nitems = n + k;
}

/* Appends k values to each row of a VALUES arm */
static void add_values(attu_parse_ctx *c, attu_ast_query *q, attu_ast_expr ***per_row, int k) {
    for (int r = 0; r < q->u.values.nrows; r++) {
        attu_ast_expr_list *row = &q->u.values.rows[r];
        attu_ast_expr **items = ab_alloc(c, sizeof *items * (size_t)(row->n + k));
        if (!items) return;
        if (row->n) memcpy(items, row->items, sizeof *items * (size_t)row->n);
        for (int i = 0; i < k; i++) items[row->n + i] = per_row[r][i];
        row->items = items;
        row->n += k;
    }
}

/* The mark and path columns' expressions for one arm whose own columns
 * are cols[] (right: self names the query's reference) */
static int new_columns(attu_parse_ctx *c, const attu_ast_cte *cte, attu_ast_expr **cols, const int *cidx,
                       const char *self, attu_ast_expr **out) {
    const attu_ast_cte_cycle *cy = &cte->cycle;
    int k = 0, cp = cy->position;
    if (cy->present) {
        attu_ast_expr *to = cy->to ? cy->to : ab_literal_text(c, ATTU_LIT_BOOL, "true", cp);
        attu_ast_expr *dflt = cy->dflt ? cy->dflt : ab_literal_text(c, ATTU_LIT_BOOL, "false", cp);
        attu_ast_expr *row = row_of(c, cols, cidx, cy->cols.n, cp);
        attu_ast_expr *seen = self ? ab_func2(c, " any=", row, ab_column(c, self, cy->path, cp), cp)
                                   : ab_literal_text(c, ATTU_LIT_BOOL, "false", cp);
        out[k++] = case_of(c, seen, to, dflt, cp);
        out[k++] = self ? concat(c, ab_column(c, self, cy->path, cp), row, cp) : array_of(c, row, cp);
    }
    return k;
}

void ab_cte_search_cycle(attu_parse_ctx *c, attu_ast_cte *cte, bool recursive) {
    attu_ast_cte_search *sr = &cte->search;
    attu_ast_cte_cycle *cy = &cte->cycle;
    if (c->failed || (!sr->kind && !cy->present)) return;
    attu_ast_query *q = cte->query;
    if (!recursive || !q || q->kind != ATTU_QUERY_SETOP) {
        ab_error(c, ATTU_SQLSTATE_SYNTAX, cte->position, "WITH query is not recursive");
        return;
    }
    if (q->u.setop.op != ATTU_SETOP_UNION) return;   /* the binder's 42P19 */
    attu_ast_query *left = q->u.setop.left, *right = q->u.setop.right;
    if (right->kind != ATTU_QUERY_SELECT) {
        if (find_self(left, cte->name) || right->kind == ATTU_QUERY_SETOP)
            ab_error(c, ATTU_SQLSTATE_SYNTAX, 0, "with a SEARCH or CYCLE clause, the right side of the UNION must be a SELECT");
        else ab_error(c, ATTU_SQLSTATE_SYNTAX, cte->position, "WITH query is not recursive");
        return;
    }
    const attu_ast_from *self = find_self(right, cte->name);
    if (!self) {
        ab_error(c, ATTU_SQLSTATE_SYNTAX, cte->position, "WITH query is not recursive");
        return;
    }
    if (left->kind != ATTU_QUERY_SELECT && left->kind != ATTU_QUERY_VALUES) {
        ab_error(c, ATTU_SQLSTATE_SYNTAX, 0, "with a SEARCH or CYCLE clause, the left side of the UNION must be a SELECT");
        return;
    }
    /* the query's column names: its list, else the left arm's */
    int nn = left->kind == ATTU_QUERY_SELECT ? left->u.select.nitems : left->u.values.rows[0].n;
    const char **names = ab_alloc(c, sizeof *names * (size_t)(nn + 1));
    if (!names) return;
    for (int k = 0; k < nn; k++) {
        if (k < cte->columns.n) names[k] = cte->columns.items[k];
        else if (left->kind == ATTU_QUERY_SELECT) {
            if (left->u.select.items[k].expr->kind == ATTU_EXPR_STAR) {
                ab_error(c, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, sr->kind ? sr->position : cy->position,
                         "SEARCH or CYCLE over a select list with * is not supported");
                return;
            }
            names[k] = item_name(&left->u.select.items[k]);
        } else {
            char buf[24];
            int len = snprintf(buf, sizeof buf, "column%d", k + 1);
            names[k] = ab_strndup(c, buf, (size_t)len);
        }
    }
    int *sidx = ab_alloc(c, sizeof *sidx * (size_t)(sr->by.n + 1)), *cidx = ab_alloc(c, sizeof *cidx * (size_t)(cy->cols.n + 1));
    if (!sidx || !cidx) return;
    if (sr->kind && !resolve(c, &sr->by, names, nn, sidx, "search", sr->position)) return;
    if (cy->present && !resolve(c, &cy->cols, names, nn, cidx, "cycle", cy->position)) return;
    if (sr->kind && cy->present && !strcmp(sr->set, cy->mark)) {
        ab_error(c, ATTU_SQLSTATE_SYNTAX, sr->position, "search sequence column name and cycle mark column name are the same");
        return;
    }
    if (sr->kind && cy->present && !strcmp(sr->set, cy->path)) {
        ab_error(c, ATTU_SQLSTATE_SYNTAX, sr->position, "search sequence column name and cycle path column name are the same");
        return;
    }
    if (cy->present && !strcmp(cy->mark, cy->path)) {
        ab_error(c, ATTU_SQLSTATE_SYNTAX, cy->position, "cycle mark column name and cycle path column name are the same");
        return;
    }
    if (sr->kind) {
        ab_error(c, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, sr->position,
                 "SEARCH %s FIRST is not supported", sr->kind == 1 ? "DEPTH" : "BREADTH");
        attu_error_set_detail(c->err, "attu orders row values by their text, not field by field as PostgreSQL.");
        return;
    }
    char *added[2] = { cy->mark, cy->path };
    int nadd = 2;
    /* the right arm: its columns, the new ones over its reference */
    const char *ref = self->alias ? self->alias : cte->name;
    attu_ast_expr **rcols = ab_alloc(c, sizeof *rcols * (size_t)(right->u.select.nitems + 1));
    attu_ast_expr *out[2];
    if (!rcols) return;
    if (right->u.select.nitems != nn) return;   /* (the binder's column count error) */
    for (int k = 0; k < nn; k++) {
        if (right->u.select.items[k].expr->kind == ATTU_EXPR_STAR) {
            ab_error(c, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, sr->kind ? sr->position : cy->position,
                     "SEARCH or CYCLE over a select list with * is not supported");
            return;
        }
        rcols[k] = right->u.select.items[k].expr;
    }
    new_columns(c, cte, rcols, cidx, ref, out);
    add_items(c, right, out, added, nadd);
    if (cy->present) {
        /* rows already marked end the recursion */
        attu_token ne = { 0 }, and = { 0 };
        ne.pos = and.pos = cy->position;
        attu_ast_expr *to = cy->to ? cy->to : ab_literal_text(c, ATTU_LIT_BOOL, "true", cy->position);
        attu_ast_expr *go = ab_binary(c, ATTU_BINOP_NE, ab_column(c, ref, cy->mark, cy->position), to, &ne);
        right->u.select.where = right->u.select.where ? ab_binary(c, ATTU_BINOP_AND, right->u.select.where, go, &and) : go;
    }
    /* the left arm */
    if (left->kind == ATTU_QUERY_SELECT) {
        attu_ast_expr **lcols = ab_alloc(c, sizeof *lcols * (size_t)(nn + 1));
        if (!lcols) return;
        for (int k = 0; k < nn; k++) lcols[k] = left->u.select.items[k].expr;
        new_columns(c, cte, lcols, cidx, NULL, out);
        add_items(c, left, out, added, nadd);
    } else {
        attu_ast_expr ***per_row = ab_alloc(c, sizeof *per_row * (size_t)left->u.values.nrows);
        if (!per_row) return;
        for (int r = 0; r < left->u.values.nrows; r++) {
            per_row[r] = ab_alloc(c, sizeof **per_row * 2);
            if (!per_row[r]) return;
            new_columns(c, cte, left->u.values.rows[r].items, cidx, NULL, per_row[r]);
        }
        add_values(c, left, per_row, nadd);
    }
    /* the query's column list, where it has one, names them too */
    if (cte->columns.n) {
        int n = cte->columns.n;
        char **items = ab_alloc(c, sizeof *items * (size_t)(n + nadd));
        int *pos = ab_alloc(c, sizeof *pos * (size_t)(n + nadd));
        if (!items || !pos) return;
        memcpy(items, cte->columns.items, sizeof *items * (size_t)n);
        if (cte->columns.positions) memcpy(pos, cte->columns.positions, sizeof *pos * (size_t)n);
        else memset(pos, 0, sizeof *pos * (size_t)n);
        for (int i = 0; i < nadd; i++) { items[n + i] = added[i]; pos[n + i] = cy->position; }
        cte->columns.items = items;
        cte->columns.positions = pos;
        cte->columns.n = n + nadd;
    }
}
