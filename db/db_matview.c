/*
 * db_matview.c - materialized views: CREATE MATERIALIZED VIEW, REFRESH
 * MATERIALIZED VIEW, and PostgreSQL's refusals of statements that would
 * change one's rows other than by REFRESH.
 *
 * A materialized view is two things under one name: an ordinary table of
 * the catalog holding its rows (made as CREATE TABLE AS makes one,
 * db_ctas_build, and saved as any table's) and an entry among the views
 * (engine/view.h, kind 'm') keeping its query text, its columns, the
 * relations it reads (DROP TABLE of one: 2BP01 unless CASCADE) and
 * whether it is populated. The binder reads the table wherever a query
 * names it (55000 while it is not populated); DROP MATERIALIZED VIEW
 * (db_view.c) removes both. REFRESH runs the query again into a new
 * version of the table, put in place under the write lock as any
 * statement's new table is.
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/storage.h"
#include "engine/view.h"
#include "planner/parser.h"

bool db_is_matview(attu_session *s, const char *name) {
    const attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), name);
    return v && v->kind == 'm';
}

/* ---- the relations the query reads -------------------------------------- */

typedef struct deps { char **v; int n, cap; bool oom; } deps;

static void on_relation(void *ctx, const char *name) {
    deps *d = ctx;
    if (d->oom) return;
    for (int i = 0; i < d->n; i++) if (!strcmp(d->v[i], name)) return;
    if (d->n == d->cap) {
        int nc = d->cap ? d->cap * 2 : 8;
        char **nv = realloc(d->v, sizeof *nv * (size_t)nc);
        if (!nv) { d->oom = true; return; }
        d->v = nv;
        d->cap = nc;
    }
    if (!(d->v[d->n] = strdup(name))) { d->oom = true; return; }
    d->n++;
}

static void deps_free(deps *d) {
    for (int i = 0; i < d->n; i++) free(d->v[i]);
    free(d->v);
}

/* Binds q (analysed only) for the relations it names. */
static int collect_deps(attu_session *s, const char *sql, const attu_ast_query *q, deps *d, attu_error *err) {
    attu_plan_arena *pa = attu_plan_arena_new();
    if (!pa) return attu_error_oom(err);
    attu_bind_params bp = db_describe_params(s, NULL, false);
    bp.on_relation = on_relation;
    bp.relation_ctx = d;
    bool reads_temp = false;
    bp.reads_temp = &reads_temp;
    attu_lplan *lp = attu_bind_query(pa, db_cat(s), sql, q, &bp, err);
    attu_plan_arena_free(pa);
    if (!lp) return -1;
    db_temp_view_reads(s, reads_temp);
    return d->oom ? attu_error_oom(err) : 0;
}

/* ---- CREATE MATERIALIZED VIEW -------------------------------------------- */

int db_exec_create_matview(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                           attu_error *err) {
    const char *name = st->u.create_view.view;
    bool no_data = st->u.create_view.with_no_data;
    db_write_lock(s);
    if (db_relation_exists(s, name) || attu_catalog_constraint_owner(db_cat(s), name, NULL)) {
        pthread_rwlock_unlock(&s->db->lock);
        if (!st->u.create_view.if_not_exists)
            return attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0, "relation \"%s\" already exists", name);
        if (cb && cb->on_notice) {
            char msg[160];
            snprintf(msg, sizeof msg, "relation \"%s\" already exists, skipping", name);
            cb->on_notice(cb->ctx, "42P07", msg);
        }
        return db_deliver_tag(cb, "CREATE MATERIALIZED VIEW", err) ? -2 : 0;
    }
    int rc = -1;
    deps d = { 0 };
    attu_table *t = NULL;
    attu_view *v = NULL;
    const char **names = NULL;
    attu_type *types = NULL;
    size_t n = 0;
    if (collect_deps(s, sql, st->u.create_view.query, &d, err)) goto out;
    t = db_ctas_build(s, sql, name, st->u.create_view.query, &st->u.create_view.columns, no_data, 0, 0, NULL, &n, err);
    if (!t) goto out;
    names = calloc((size_t)t->ncols + 1, sizeof *names);
    types = calloc((size_t)t->ncols + 1, sizeof *types);
    if (!names || !types) { attu_error_oom(err); goto out; }
    for (int i = 0; i < t->ncols; i++) { names[i] = t->defs[i].name; types[i] = t->defs[i].type; }
    v = attu_view_new(name, st->u.create_view.query_sql, t->ncols, names, types, d.n, (const char *const *)d.v);
    if (!v) { attu_error_oom(err); goto out; }
    v->kind = 'm';
    v->populated = !no_data;
    if (db_save_table(s, t, err)) goto out;
    if (attu_catalog_add(db_cat(s), t, err)) {
        if (s->db->data_dir) db_txn_touch(s, name, NULL);
        goto out;
    }
    attu_view *prev = NULL;
    attu_views *vs = attu_catalog_views(db_cat(s));
    if (attu_views_put(vs, v, &prev) ||
        (s->db->data_dir && db_txn_touch_views(s, err))) {
        /* put everything back as it was */
        if (!err->set) attu_error_oom(err);
        if (attu_views_find(vs, name) == v) attu_views_remove(vs, name);
        attu_catalog_remove(db_cat(s), name, true, NULL);
        if (s->db->data_dir) db_txn_touch(s, name, NULL);
        goto out;
    }
    v = NULL;
    t = NULL;
    rc = 0;
out:
    pthread_rwlock_unlock(&s->db->lock);
    attu_view_free(v);
    attu_table_free(t);
    free(names);
    free(types);
    deps_free(&d);
    if (rc) return rc;
    char tag[64];
    if (no_data) snprintf(tag, sizeof tag, "CREATE MATERIALIZED VIEW");
    else snprintf(tag, sizeof tag, "SELECT %zu", n);
    return db_deliver_tag(cb, tag, err) ? -2 : 0;
}

/* ---- REFRESH MATERIALIZED VIEW ------------------------------------------- */

int db_exec_refresh_matview(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                            attu_error *err) {
    (void)sql;
    const char *name = st->u.drop_table.tables.items[0];
    bool no_data = st->u.drop_table.materialized;
    db_write_lock(s);
    int rc = -1;
    attu_parse_result *pr = NULL;
    attu_table *t = NULL;
    attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), name);
    if (!v || v->kind != 'm') {
        /* PostgreSQL's two: a table is no materialized view (0A000), any
         * other relation not even a table (42809) */
        if (attu_catalog_lookup(db_cat(s), name))
            attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "\"%s\" is not a materialized view", name);
        else if (v || db_relation_exists(s, name) || attu_catalog_constraint_owner(db_cat(s), name, NULL))
            attu_error_set(err, "42809", 0, "\"%s\" is not a table or materialized view", name);
        else
            attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE,
                           st->u.drop_table.tables.positions ? st->u.drop_table.tables.positions[0] : 0,
                           "relation \"%s\" does not exist", name);
        goto out;
    }
    if (!(pr = attu_parse(v->sql, err))) goto out;
    if (pr->n != 1 || pr->stmts[0].stmt->kind != ATTU_STMT_SELECT) {
        attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "the query of materialized view \"%s\" is not one query", name);
        goto out;
    }
    /* the columns keep the names the view has (ALTER ... RENAME COLUMN),
     * and only those: a * meets the columns a table gained since, which
     * PostgreSQL's stored query, * expanded, does not have */
    attu_ast_name_list cols = { .items = v->col_names, .n = v->ncols };
    size_t n = 0;
    /* (the view stands unpopulated while its query runs: a query that
     * reads the view itself cannot be, its dependencies forbid it) */
    t = db_ctas_build(s, v->sql, name, pr->stmts[0].stmt->u.select.query, &cols, no_data, v->ncols, 0, NULL, &n,
                      err);
    if (!t) goto out;
    if (t->ncols != v->ncols) {
        attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "the query of materialized view \"%s\" changed its columns", name);
        goto out;
    }
    if (db_save_table(s, t, err)) goto out;
    bool was = v->populated;
    v->populated = !no_data;
    if (was != v->populated && s->db->data_dir &&
        db_txn_touch_views(s, err)) {
        v->populated = was;
        attu_table *old = attu_catalog_lookup(db_cat(s), name);
        if (old) db_save_table(s, old, NULL);   /* (the rows as they were) */
        goto out;
    }
    /* no reader holds the old version: the write lock is ours */
    attu_table_free(attu_catalog_replace(db_cat(s), t));
    t = NULL;
    rc = 0;
out:
    pthread_rwlock_unlock(&s->db->lock);
    attu_parse_free(pr);
    attu_table_free(t);
    if (rc) return rc;
    return db_deliver_tag(cb, "REFRESH MATERIALIZED VIEW", err) ? -2 : 0;
}

/* ---- statements a materialized view refuses ------------------------------- */

const char *db_alter_action_name(attu_ast_alter_kind k) {
    switch (k) {
    case ATTU_ALTER_ADD_COLUMN: return "ADD COLUMN";
    case ATTU_ALTER_DROP_COLUMN: return "DROP COLUMN";
    case ATTU_ALTER_SET_DEFAULT: case ATTU_ALTER_DROP_DEFAULT: return "ALTER COLUMN ... SET DEFAULT";
    case ATTU_ALTER_SET_NOT_NULL: return "ALTER COLUMN ... SET NOT NULL";
    case ATTU_ALTER_DROP_NOT_NULL: return "ALTER COLUMN ... DROP NOT NULL";
    case ATTU_ALTER_TYPE: return "ALTER COLUMN ... SET DATA TYPE";
    case ATTU_ALTER_ADD_CONSTRAINT: return "ADD CONSTRAINT";
    case ATTU_ALTER_DROP_CONSTRAINT: return "DROP CONSTRAINT";
    case ATTU_ALTER_VALIDATE_CONSTRAINT: return "VALIDATE CONSTRAINT";
    case ATTU_ALTER_ALTER_CONSTRAINT: return "ALTER CONSTRAINT";
    case ATTU_ALTER_ADD_IDENTITY: return "ALTER COLUMN ... ADD IDENTITY";
    case ATTU_ALTER_SET_IDENTITY: return "ALTER COLUMN ... SET";
    case ATTU_ALTER_DROP_IDENTITY: return "ALTER COLUMN ... DROP IDENTITY";
    case ATTU_ALTER_SET_OPTIONS: return "SET (...)";
    case ATTU_ALTER_RESET_OPTIONS: return "RESET (...)";
    default: return NULL;
    }
}

static int refuse_locked(attu_session *s, const attu_ast_stmt *st, attu_error *err) {
    switch (st->kind) {
    case ATTU_STMT_INSERT: case ATTU_STMT_UPDATE: case ATTU_STMT_DELETE: {
        const char *name = st->kind == ATTU_STMT_INSERT ? st->u.insert.table : st->u.modify.table;
        if (db_is_matview(s, name))
            return attu_error_set(err, "42809", 0, "cannot change materialized view \"%s\"", name);
        return 0;
    }
    case ATTU_STMT_MERGE:
        if (!db_is_matview(s, st->u.modify.table)) return 0;
        attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "cannot execute MERGE on relation \"%s\"",
                       st->u.modify.table);
        attu_error_set_detail(err, "This operation is not supported for materialized views.");
        return -1;
    case ATTU_STMT_EXPLAIN: return st->u.explain.stmt ? refuse_locked(s, st->u.explain.stmt, err) : 0;
    case ATTU_STMT_TRUNCATE:
        for (int i = 0; i < st->u.truncate.tables.n; i++) {
            const char *name = st->u.truncate.tables.items[i];
            if (!db_relation_exists(s, name)) return 0;   /* (its 42P01 first) */
            if (db_is_matview(s, name)) return attu_error_set(err, "42809", 0, "\"%s\" is not a table", name);
        }
        return 0;
    case ATTU_STMT_COPY:
        if (!st->u.copy.table || !db_is_matview(s, st->u.copy.table)) return 0;
        if (st->u.copy.is_from)
            return attu_error_set(err, "42809", 0, "cannot copy to materialized view \"%s\"", st->u.copy.table);
        attu_error_set(err, "42809", 0, "cannot copy from materialized view \"%s\"", st->u.copy.table);
        attu_error_set_hint(err, "Try the COPY (SELECT ...) TO variant.");
        return -1;
    case ATTU_STMT_ALTER_TABLE: {
        const char *name = st->u.alter_table.table;
        if (!db_is_matview(s, name)) {
            /* (a missing one: db_alter.c's 42P01, or IF EXISTS' NOTICE) */
            if (st->u.alter_table.materialized && (db_relation_exists(s, name) ||
                                                   attu_catalog_constraint_owner(db_cat(s), name, NULL)))
                return attu_error_set(err, "42809", 0, "\"%s\" is not a materialized view", name);
            return 0;
        }
        for (int i = 0; i < st->u.alter_table.ncmds; i++) {
            const char *what = db_alter_action_name(st->u.alter_table.cmds[i].kind);
            if (!what) continue;   /* RENAME TO, RENAME COLUMN: as a table's */
            attu_error_set(err, "42809", 0, "ALTER action %s cannot be performed on relation \"%s\"", what, name);
            attu_error_set_detail(err, "This operation is not supported for materialized views.");
            return -1;
        }
        return 0;
    }
    default: return 0;
    }
}

int db_matview_refuse(attu_session *s, const attu_ast_stmt *st, attu_error *err) {
    switch (st->kind) {
    case ATTU_STMT_INSERT: case ATTU_STMT_UPDATE: case ATTU_STMT_DELETE: case ATTU_STMT_EXPLAIN: case ATTU_STMT_MERGE:
    case ATTU_STMT_TRUNCATE: case ATTU_STMT_COPY: case ATTU_STMT_ALTER_TABLE: break;
    default: return 0;
    }
    pthread_rwlock_rdlock(&s->db->lock);
    int rc = attu_views_count(attu_catalog_views(db_cat(s))) ? refuse_locked(s, st, err) : 0;
    pthread_rwlock_unlock(&s->db->lock);
    return rc;
}

/* ---- ALTER ... RENAME of one (db_alter.c) ---------------------------------- */

int db_matview_renamed(attu_session *s, const char *from, const char *to, attu_error *err) {
    attu_views *vs = attu_catalog_views(db_cat(s));
    attu_view *v = attu_views_find(vs, from);
    if (!v || v->kind != 'm') return 0;
    attu_view *n = attu_view_new(to, v->sql, v->ncols, (const char *const *)v->col_names, v->col_types, v->ndeps,
                                 (const char *const *)v->deps);
    if (!n) return attu_error_oom(err);
    n->seq = v->seq;
    n->kind = v->kind;
    n->populated = v->populated;
    attu_view *old = NULL;
    attu_views_remove(vs, from);
    if (attu_views_put(vs, n, &old) || (s->db->data_dir && db_txn_touch_views(s, err))) {
        if (!err->set) attu_error_oom(err);
        if (attu_views_find(vs, to) == n) attu_views_remove(vs, to);
        attu_view_free(n);
        attu_views_put(vs, v, &old);   /* (its slot was just freed: no allocation) */
        return -1;
    }
    attu_view_free(v);
    return 0;
}

int db_matview_renamed_column(attu_session *s, const char *name, const char *from, const char *to, attu_error *err) {
    attu_views *vs = attu_catalog_views(db_cat(s));
    attu_view *v = attu_views_find(vs, name);
    if (!v || v->kind != 'm') return 0;
    for (int i = 0; i < v->ncols; i++) {
        if (strcmp(v->col_names[i], from)) continue;
        char *nn = strdup(to);
        if (!nn) return attu_error_oom(err);
        char *was = v->col_names[i];
        v->col_names[i] = nn;
        if (s->db->data_dir && db_txn_touch_views(s, err)) {
            v->col_names[i] = was;
            free(nn);
            return -1;
        }
        free(was);
        return 0;
    }
    return 0;
}
