/*
 * db_insert_returning.c - INSERT ... RETURNING.
 *
 * RETURNING reads the rows as they were inserted (DEFAULTs filled in, the
 * assignment casts done), which are the rows the new version of the table
 * appends: rowid n0 and up, n0 the old version's row count. So once
 * INSERT has built its new table, and before it is saved, it is put in
 * the catalog for the time of one query (the write lock is held: no other
 * session sees it) and
 *
 *     SELECT <RETURNING items> FROM t WHERE t.<rowid> >= n0
 *
 * runs over it; then the old table is put back and INSERT goes on as
 * without RETURNING (save, swap). An error in RETURNING fails the INSERT
 * with nothing changed. The rows come in insertion order.
 *
 * INSERT ... ON CONFLICT returns rows that are not all appended ones (the
 * updated rows too): those rows, gathered in order into a table of their
 * own under a hidden name, are read as the INSERT's table (its alias or
 * name) while the table itself stays as it was, so that a subquery of
 * RETURNING reads the table as the statement found it, as PostgreSQL's
 * snapshot does.
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The query above, its nodes from arena. */
/* source: the table read (NULL: the INSERT's), named as the INSERT's. */
static attu_ast_query *returning_query(attu_ast_arena *a, const attu_ast_stmt *st, const char *source, size_t n0,
                                       attu_error *err) {
    if (db_check_dml_items(NULL, 0, st->u.insert.returning, st->u.insert.nreturning, err)) return NULL;
    attu_ast_query *q = attu_ast_alloc(a, sizeof *q);
    attu_ast_from *f = attu_ast_alloc(a, sizeof *f);
    attu_ast_from **from = attu_ast_alloc(a, sizeof *from);
    attu_ast_expr *rowid = attu_ast_alloc(a, sizeof *rowid), *lit = attu_ast_alloc(a, sizeof *lit),
                  *ge = attu_ast_alloc(a, sizeof *ge);
    char num[32];
    snprintf(num, sizeof num, "%zu", n0);
    char *text = attu_ast_strdup(a, num);
    if (!q || !f || !from || !rowid || !lit || !ge || !text) { attu_error_oom(err); return NULL; }
    int pos = st->u.insert.table_position;
    f->kind = ATTU_FROM_TABLE;
    f->position = pos;
    f->depth = 1;
    f->u.table.name = source ? (char *)source : st->u.insert.table;
    f->u.table.schema = source ? NULL : db_rel_schema(st);
    f->alias = st->u.insert.alias ? st->u.insert.alias : source ? st->u.insert.table : NULL;
    from[0] = f;
    rowid->kind = ATTU_EXPR_COLUMN;
    rowid->position = pos;
    rowid->depth = 1;
    rowid->u.column.qualifier = st->u.insert.alias ? st->u.insert.alias : st->u.insert.table;
    rowid->u.column.name = ATTU_ROWID_INTERNAL;
    lit->kind = ATTU_EXPR_LITERAL;
    lit->position = pos;
    lit->depth = 1;
    lit->u.literal.kind = ATTU_LIT_INTEGER;
    lit->u.literal.text = text;
    lit->u.literal.len = strlen(text);
    ge->kind = ATTU_EXPR_BINARY;
    ge->position = pos;
    ge->depth = 2;
    ge->u.binary.op = ATTU_BINOP_GE;
    ge->u.binary.left = rowid;
    ge->u.binary.right = lit;
    ge->u.binary.op_text = ">=";
    int depth = 2;
    for (int i = 0; i < st->u.insert.nreturning; i++)
        if (st->u.insert.returning[i].expr->depth > depth) depth = st->u.insert.returning[i].expr->depth;
    q->kind = ATTU_QUERY_SELECT;
    q->position = st->u.insert.returning_position;
    q->depth = depth + 1;
    q->u.select.items = st->u.insert.returning;
    q->u.select.nitems = st->u.insert.nreturning;
    q->u.select.from.items = from;
    q->u.select.from.n = 1;
    q->u.select.where = ge;
    return q;
}

/* RETURNING reads the rows just written: the new version, never the one
 * a statement with data-modifying WITH queries started from
 * (attu_bind_params.read_version). */
static attu_bind_params reading_new_rows(const attu_bind_params *params) {
    attu_bind_params bp;
    memset(&bp, 0, sizeof bp);
    if (params) bp = *params;
    bp.read_version = NULL;
    return bp;
}

attu_result *db_insert_returning(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                                 attu_table *t, size_t n0, attu_error *err) {
    attu_bind_params bp = reading_new_rows(params);
    params = &bp;
    attu_ast_arena *a = attu_ast_arena_new();
    if (!a) { attu_error_oom(err); return NULL; }
    attu_ast_query *q = returning_query(a, st, NULL, n0, err);
    attu_result *res = NULL;
    if (q) {
        attu_table *old = attu_catalog_replace(db_cat(s), t);
        res = db_run_query(s, sql, q, params, err);
        attu_catalog_replace(db_cat(s), old);
    }
    attu_ast_arena_free(a);
    return res;
}

attu_result *db_insert_returning_rows(attu_session *s, const char *sql, const attu_ast_stmt *st,
                                      const attu_bind_params *params, attu_table *rows, attu_error *err) {
    attu_bind_params bp = reading_new_rows(params);
    params = &bp;
    attu_ast_arena *a = attu_ast_arena_new();
    if (!a) { attu_error_oom(err); return NULL; }
    attu_ast_query *q = returning_query(a, st, rows->name, 0, err);
    attu_result *res = NULL;
    if (q && !attu_catalog_add(db_cat(s), rows, err)) {
        res = db_run_query(s, sql, q, params, err);
        attu_catalog_remove(db_cat(s), rows->name, true, NULL);
    }
    attu_ast_arena_free(a);
    return res;
}

int db_insert_returning_describe(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                                 int *ncols, attu_result_column **cols, attu_error *err) {
    attu_ast_arena *a = attu_ast_arena_new();
    attu_plan_arena *pa = attu_plan_arena_new();
    int rc = -1;
    pthread_rwlock_rdlock(&s->db->lock);
    attu_ast_query *q = a && pa ? returning_query(a, st, NULL, 0, err) : NULL;
    if (!a || !pa) attu_error_oom(err);
    attu_bind_params bp = db_params(s, params);
    bp.no_side_effects = true;   /* described, not run: no nextval */
    attu_lplan *lp = q ? attu_bind_query(pa, db_cat(s), sql, q, &bp, err) : NULL;
    attu_result_column *c = lp ? calloc((size_t)lp->ncols + 1, sizeof *c) : NULL;
    if (lp && !c) attu_error_oom(err);
    if (c) {
        for (int i = 0; i < lp->ncols; i++) {
            snprintf(c[i].name, sizeof c[i].name, "%s", lp->names[i] ? lp->names[i] : "?column?");
            c[i].type = lp->types[i];
        }
        free(*cols);
        *cols = c;
        *ncols = lp->ncols;
        rc = 0;
    }
    pthread_rwlock_unlock(&s->db->lock);
    attu_plan_arena_free(pa);
    attu_ast_arena_free(a);
    return rc;
}
