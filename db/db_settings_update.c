/*
 * db_settings_update.c - UPDATE pg_settings SET setting = value WHERE ...,
 * which PostgreSQL 15 turns into set_config(name, value, false) for each
 * row the WHERE keeps (its rule on the view), so it is a SET.
 *
 * The statement becomes the query SELECT name, value FROM pg_settings
 * [alias] WHERE ..., run as any query (the value may read the row: SET
 * setting = reset_val), and each row's name is set to its value as SET
 * sets it (db_setting_apply: the same checks, the same transaction
 * rules). As PostgreSQL answers, the client gets the rows of new values
 * (a set_config column) and the tag UPDATE 0, as no row of the view
 * itself changed. A statement outside a block that fails half way leaves
 * no change behind (db_settings_end_statement), as PostgreSQL's
 * transaction would.
 */
#include "db/db_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool db_updates_pg_settings(const attu_session *s, const attu_ast_stmt *st) {
    if (st->kind != ATTU_STMT_UPDATE) return false;
    const char *t = st->u.modify.table;
    if (!strcmp(t, "pg_catalog.pg_settings")) return true;
    /* an unqualified name is a user table of that name first */
    return !strcmp(t, "pg_settings") && !attu_catalog_lookup(db_cat(s), t) &&
           !attu_views_find(attu_catalog_views(db_cat(s)), t);
}

static attu_ast_expr *column_ref(const char *qual, const char *name, int pos) {
    attu_ast_expr *x = calloc(1, sizeof *x);
    if (!x) return NULL;
    x->kind = ATTU_EXPR_COLUMN;
    x->position = pos;
    x->depth = 1;
    x->u.column.qualifier = (char *)qual;
    x->u.column.name = (char *)name;
    return x;
}

int db_exec_update_pg_settings(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                               const attu_exec_callbacks *cb, attu_error *err) {
    const attu_ast_expr *value = NULL;
    for (int k = 0; k < st->u.modify.nsets; k++) {
        const attu_ast_set_item *it = &st->u.modify.sets[k];
        if (strcmp(it->column, "setting") != 0 || value || it->value->kind == ATTU_EXPR_DEFAULT)
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, it->position,
                                  "UPDATE of pg_settings changes only its setting column, once: it runs SET");
        value = it->value;
    }
    if (!value || st->u.modify.from.n || st->u.modify.nreturning || st->u.modify.nwith)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, st->position,
                              "UPDATE of pg_settings with FROM, RETURNING or WITH is not supported");
    const char *qual = st->u.modify.alias ? st->u.modify.alias : "pg_settings";
    attu_ast_expr *name = column_ref(qual, "name", st->u.modify.table_position);
    attu_ast_select_item items[2] = { { name, NULL, 0 }, { (attu_ast_expr *)value, "set_config", 0 } };
    attu_ast_from target;
    attu_ast_from *from[1] = { &target };
    attu_ast_query q;
    memset(&target, 0, sizeof target);
    memset(&q, 0, sizeof q);
    if (!name) return attu_error_oom(err);
    target.kind = ATTU_FROM_TABLE;
    target.position = st->u.modify.table_position;
    target.depth = 1;
    target.alias = st->u.modify.alias;
    target.u.table.schema = "pg_catalog";
    target.u.table.name = "pg_settings";
    int depth = value->depth;
    if (st->u.modify.where && st->u.modify.where->depth > depth) depth = st->u.modify.where->depth;
    q.kind = ATTU_QUERY_SELECT;
    q.position = st->position;
    q.depth = depth + 1;
    q.u.select.items = items;
    q.u.select.nitems = 2;
    q.u.select.from.items = from;
    q.u.select.from.n = 1;
    q.u.select.where = st->u.modify.where;
    pthread_rwlock_rdlock(&s->db->lock);
    attu_result *r = db_run_query(s, sql, &q, params, err);
    pthread_rwlock_unlock(&s->db->lock);
    free(name);
    if (!r) return -1;
    /* each row: SET name = value (a NULL value: back to the reset value);
     * the new values are the rows the client gets */
    char **shown = calloc(r->nrows + 1, sizeof *shown);
    if (!shown) { attu_result_free(r); return attu_error_oom(err); }
    int rc = 0;
    size_t nrows = r->nrows;
    for (size_t i = 0; i < nrows && !rc; i++) {
        char n[128], v[512];
        const char *lv = NULL;
        size_t len = attu_column_format(r->cols[0], i, n, sizeof n, &lv);
        if (len == (size_t)-1 || lv || len >= sizeof n) {   /* (names are short and never NULL) */
            rc = attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "unrecognized configuration parameter");
            break;
        }
        n[len] = 0;
        for (char *p = n; *p; p++) *p = (char)tolower((unsigned char)*p);
        lv = NULL;
        len = attu_column_format(r->cols[1], i, v, sizeof v, &lv);
        char *value = len == (size_t)-1 ? NULL : lv ? strndup(lv, len) : strndup(v, len);
        if (len != (size_t)-1 && !value) { rc = attu_error_oom(err); break; }
        rc = db_setting_apply(s, n, value, false, true, &shown[i], err);
        free(value);
    }
    attu_result_free(r);
    if (rc) {
        for (size_t i = 0; i < nrows; i++) free(shown[i]);
        free(shown);
        return -1;
    }
    attu_result *out = db_result_new(1);
    attu_column *c = out ? db_text_column((const char *const *)shown, nrows, err) : NULL;
    for (size_t i = 0; i < nrows; i++) free(shown[i]);
    free(shown);
    if (!c) { attu_result_free(out); return err->set ? -1 : attu_error_oom(err); }
    out->cols[0] = c; out->nrows = nrows; out->returns_rows = true;
    snprintf(out->desc[0].name, sizeof out->desc[0].name, "set_config");
    out->desc[0].type = attu_type_make(ATTU_TYPE_TEXT);
    snprintf(out->tag, sizeof out->tag, "UPDATE 0");
    return db_deliver(cb, out) ? -2 : 0;
}
