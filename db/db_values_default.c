/*
 * db_values_default.c - DEFAULT items in the VALUES list of an INSERT.
 *
 * `INSERT INTO t VALUES (1, DEFAULT), (DEFAULT, 2)` (PostgreSQL's
 * SetToDefault): an item that is exactly DEFAULT takes its target column's
 * DEFAULT expression, or NULL for a column without one (so a NOT NULL
 * column without a DEFAULT fails with 23502, as in PostgreSQL). DEFAULT
 * anywhere else, even inside an item (`DEFAULT + 1`), is left to the
 * binder, which rejects it with PostgreSQL's 42601 "DEFAULT is not allowed
 * in this context".
 *
 * The INSERT binds a copy of its VALUES query in which each DEFAULT item
 * is replaced, before binding, by the column's stored DEFAULT (kept as SQL
 * text by the catalog, see db_ddl.c) parsed once per statement. So such a
 * value is bound, assigned and checked exactly like the same expression
 * written out, per row. The substituted trees come from another text than
 * the statement's, so their positions are cleared: an error they raise
 * (22012 from `DEFAULT 1/0`, 22001 from a too-long varchar default) has no
 * position, as in PostgreSQL.
 */
#include "db/db_internal.h"
#include "db/db_domain_check.h"
#include "db/db_unique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Clears the position of every node of a stored DEFAULT (a constant
 * expression: no subqueries, see deparse_default in db_ddl.c). */
static void clear_positions(attu_ast_expr *e) {
    if (!e) return;
    e->position = 0;
    switch (e->kind) {
    case ATTU_EXPR_UNARY: clear_positions(e->u.unary.arg); break;
    case ATTU_EXPR_BINARY: clear_positions(e->u.binary.left); clear_positions(e->u.binary.right); break;
    case ATTU_EXPR_IS: clear_positions(e->u.is.arg); break;
    case ATTU_EXPR_BETWEEN:
        clear_positions(e->u.between.arg); clear_positions(e->u.between.low); clear_positions(e->u.between.high);
        break;
    case ATTU_EXPR_IN_LIST:
        clear_positions(e->u.in_list.arg);
        for (int i = 0; i < e->u.in_list.list.n; i++) clear_positions(e->u.in_list.list.items[i]);
        break;
    case ATTU_EXPR_LIKE:
        clear_positions(e->u.like.arg); clear_positions(e->u.like.pattern); clear_positions(e->u.like.escape);
        break;
    case ATTU_EXPR_CASE:
        clear_positions(e->u.case_.operand);
        for (int i = 0; i < e->u.case_.nwhens; i++) {
            clear_positions(e->u.case_.whens[i].when);
            clear_positions(e->u.case_.whens[i].then);
        }
        clear_positions(e->u.case_.else_);
        break;
    case ATTU_EXPR_CAST: clear_positions(e->u.cast.arg); break;
    case ATTU_EXPR_EXTRACT: clear_positions(e->u.extract.arg); break;
    case ATTU_EXPR_FUNC:
        for (int i = 0; i < e->u.func.args.n; i++) clear_positions(e->u.func.args.items[i]);
        break;
    default: break;
    }
}

static bool has_default_item(const attu_ast_query *q) {
    for (int r = 0; r < q->u.values.nrows; r++)
        for (int k = 0; k < q->u.values.rows[r].n; k++)
            if (q->u.values.rows[r].items[k]->kind == ATTU_EXPR_DEFAULT) return true;
    return false;
}

static void free_texts(char **text, int n) {
    for (int k = 0; k < n; k++) free(text[k]);
    free(text);
}

/* Parses the DEFAULTs of the target columns (a domain column's its
 * domain's: db_column_default): dflt[k] is column tcol[k]'s expression,
 * NULL when it has none. *pr owns the trees (NULL when no column has a
 * DEFAULT). */
static int parse_defaults(attu_session *s, const attu_table *base, const int *tcol, int ntarget,
                          attu_ast_expr **dflt, attu_parse_result **pr_out, attu_error *err) {
    *pr_out = NULL;
    size_t len = 16;
    int nd = 0;
    char **text = calloc((size_t)ntarget + 1, sizeof *text);
    if (!text) return attu_error_oom(err);
    for (int k = 0; k < ntarget; k++) {
        text[k] = db_column_default(s, base, tcol[k], err);
        if (!text[k] && err->set) { free_texts(text, ntarget); return -1; }
        if (text[k]) { len += strlen(text[k]) + 2; nd++; }
    }
    if (!nd) { free_texts(text, ntarget); return 0; }
    char *sql = malloc(len);
    if (!sql) { free_texts(text, ntarget); return attu_error_oom(err); }
    size_t n = (size_t)snprintf(sql, len, "VALUES (");
    bool first = true;
    for (int k = 0; k < ntarget; k++) {
        if (!text[k]) continue;
        n += (size_t)snprintf(sql + n, len - n, "%s%s", first ? "" : ", ", text[k]);
        first = false;
    }
    snprintf(sql + n, len - n, ")");
    attu_parse_result *pr = attu_parse(sql, err);
    free(sql);
    if (!pr) { free_texts(text, ntarget); err->position = 0; return -1; }
    const attu_ast_stmt *st = pr->n == 1 ? pr->stmts[0].stmt : NULL;
    const attu_ast_query *q = st && st->kind == ATTU_STMT_SELECT ? st->u.select.query : NULL;
    if (!q || q->kind != ATTU_QUERY_VALUES || q->u.values.nrows != 1 || q->u.values.rows[0].n != nd) {
        attu_parse_free(pr);
        free_texts(text, ntarget);
        return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "stored DEFAULT expressions of \"%s\" do not parse", base->name);
    }
    int j = 0;
    for (int k = 0; k < ntarget; k++) {
        if (!text[k]) continue;
        dflt[k] = q->u.values.rows[0].items[j++];
        clear_positions(dflt[k]);
    }
    free_texts(text, ntarget);
    *pr_out = pr;
    return 0;
}

int db_values_defaults(attu_session *s, const attu_table *base, const int *tcol, int ntarget,
                       const attu_ast_query *src, db_values_copy *out, attu_error *err) {
    memset(out, 0, sizeof *out);
    out->q = src;
    if (!src || src->kind != ATTU_QUERY_VALUES || !has_default_item(src)) return 0;
    attu_ast_expr **dflt = calloc((size_t)ntarget + 1, sizeof *dflt);
    if (!dflt) return attu_error_oom(err);
    if (parse_defaults(s, base, tcol, ntarget, dflt, &out->parsed, err)) { free(dflt); return -1; }
    int nrows = src->u.values.nrows;
    attu_ast_query *q = malloc(sizeof *q);
    attu_ast_expr_list *rows = calloc((size_t)nrows, sizeof *rows);
    size_t nitems = 0;
    for (int r = 0; r < nrows; r++) nitems += (size_t)src->u.values.rows[r].n;
    attu_ast_expr **items = calloc(nitems + 1, sizeof *items);
    attu_ast_expr *nulls = calloc(nitems + 1, sizeof *nulls);   /* NULL literals, one per DEFAULT item at most */
    out->blocks[0] = q; out->blocks[1] = rows; out->blocks[2] = items; out->blocks[3] = nulls;
    if (!q || !rows || !items || !nulls) { free(dflt); db_values_copy_free(out); return attu_error_oom(err); }
    *q = *src;
    q->u.values.rows = rows;
    size_t at = 0, nn = 0;
    for (int r = 0; r < nrows; r++) {
        const attu_ast_expr_list *sr = &src->u.values.rows[r];
        rows[r].n = sr->n;
        rows[r].items = items + at;
        for (int k = 0; k < sr->n; k++) {
            attu_ast_expr *e = sr->items[k];
            if (e->kind == ATTU_EXPR_DEFAULT) {
                /* a row of the wrong length fails on its length anyway
                 * (42601, at the DEFAULT's position when it comes first) */
                if (sr->n == ntarget && dflt[k]) e = dflt[k];
                else {
                    attu_ast_expr *z = &nulls[nn++];
                    z->kind = ATTU_EXPR_LITERAL;
                    z->position = sr->n == ntarget ? 0 : e->position;
                    z->depth = 1;
                    z->u.literal.kind = ATTU_LIT_NULL;
                    z->u.literal.text = (char *)"null";
                    z->u.literal.len = 4;
                    e = z;
                }
            }
            items[at++] = e;
        }
    }
    free(dflt);
    out->q = q;
    return 0;
}

void db_values_copy_free(db_values_copy *c) {
    if (!c) return;
    attu_parse_free(c->parsed);
    for (int i = 0; i < 4; i++) free(c->blocks[i]);
    memset(c, 0, sizeof *c);
}

/* EXPLAIN INSERT: the plan shown is the source query's, so the DEFAULT
 * items of a VALUES list take the same substitutes the INSERT itself would
 * use (target k is the k-th listed column, or the k-th table column
 * without a list), and DEFAULT VALUES is one row. A table that does not
 * exist is 42P01 and an unknown listed column 42703, as for the INSERT. */
int db_insert_values_defaults(attu_session *s, const attu_ast_stmt *st, db_values_copy *out, attu_error *err) {
    memset(out, 0, sizeof *out);
    const attu_ast_query *src = st->u.insert.source;
    out->q = src;
    const attu_table *base = attu_catalog_lookup(db_cat(s), st->u.insert.table);
    if (!base)
        return db_no_such_table(s, st->u.insert.table, st->u.insert.table_position, err);
    if (src && (src->kind != ATTU_QUERY_VALUES || !has_default_item(src))) return 0;
    if (!src) {
        /* DEFAULT VALUES: the one row (its DEFAULTs are constants, folded
         * as the INSERT folds them), shown as a SELECT of no columns */
        attu_parse_result *pr = attu_parse("SELECT", err);
        const attu_ast_stmt *one = pr && pr->n == 1 ? pr->stmts[0].stmt : NULL;
        if (!one || one->kind != ATTU_STMT_SELECT) {
            attu_parse_free(pr);
            return err->set ? -1 : attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "cannot plan DEFAULT VALUES");
        }
        out->parsed = pr;
        out->q = one->u.select.query;
        return 0;
    }
    int ntarget = st->u.insert.columns.n ? st->u.insert.columns.n : base->ncols;
    if (!st->u.insert.columns.n && src->u.values.nrows > 0 && src->u.values.rows[0].n < ntarget) ntarget = src->u.values.rows[0].n;
    int *tcol = malloc(sizeof(int) * ((size_t)ntarget + 1));
    if (!tcol) return attu_error_oom(err);
    for (int k = 0; k < ntarget; k++) {
        int c = st->u.insert.columns.n ? attu_table_find_column(base, st->u.insert.columns.items[k]) : k;
        if (c < 0) {
            free(tcol);
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN,
                                  st->u.insert.columns.positions ? st->u.insert.columns.positions[k] : st->position,
                                  "column \"%s\" of relation \"%s\" does not exist", st->u.insert.columns.items[k], base->name);
        }
        tcol[k] = c;
    }
    int rc = db_values_defaults(s, base, tcol, ntarget, src, out, err);
    free(tcol);
    return rc;
}
