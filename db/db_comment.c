/*
 * db_comment.c - COMMENT ON, and keeping comments with their objects.
 *
 *     COMMENT ON { TABLE t | VIEW v | MATERIALIZED VIEW m | COLUMN r.c |
 *                  CONSTRAINT k ON t | FUNCTION f[(types)] } IS 'text' | NULL
 *
 * (a function's comment is kept in its definition: engine/sql_function.h)
 *
 * The comments live in the catalog's store by name (engine/comments.h),
 * kept in the data directory's attu.comments. As PostgreSQL's follow
 * their objects by OID, the statements that rename or drop an object
 * move or drop its comments here (db_comments_*, called under the write
 * lock once the statement has succeeded): a comment is metadata, so a
 * failure to save the file then is not the statement's (the store in
 * memory is right; the file catches up at the next save).
 */
#include "db/db_internal.h"
#include "db/db_domain_check.h"
#include "engine/domain_type.h"
#include "db/db_unique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/comments.h"
#include "engine/storage.h"
#include "engine/view.h"

static void save(attu_session *s) {
    if (!s->db->data_dir) return;
    attu_error e;
    attu_error_clear(&e);
    db_txn_touch_comments(s, &e);
}

/* The relation kind PostgreSQL names in "is not a ...". */
static int not_a(attu_error *err, const char *name, const char *what) {
    return attu_error_set(err, "42809", 0, "\"%s\" is not a %s", name, what);
}

static bool has_constraint(attu_session *s, const char *table, const char *name) {
    int n = 0;
    const attu_unique *u = attu_catalog_uniques(db_cat(s), table, &n);
    for (int k = 0; k < n; k++) if (!u[k].index && !strcmp(u[k].name, name)) return true;
    const attu_check *c = attu_catalog_checks(db_cat(s), table, &n);
    for (int k = 0; k < n; k++) if (!strcmp(c[k].name, name)) return true;
    const attu_fkey *f = attu_catalog_fkeys(db_cat(s), table, &n);
    for (int k = 0; k < n; k++) if (!strcmp(f[k].name, name)) return true;
    return false;
}

/* 0 when the statement's object exists; else PostgreSQL's error. */
static int find_object(attu_session *s, const attu_ast_stmt *st, attu_error *err) {
    const char *name = st->u.comment.rel;
    const attu_table *t = attu_catalog_lookup(db_cat(s), name);
    const attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), name);
    bool exists = db_relation_exists(s, name);
    switch (st->u.comment.object) {
    case 't':
        if (t && !v) return 0;
        return exists ? not_a(err, name, "table") : db_no_such_table(s, name, 0, err);
    case 'v':
        if (v && v->kind == 'v') return 0;
        return exists ? not_a(err, name, "view") : db_no_such_table(s, name, 0, err);
    case 'm':
        if (v && v->kind == 'm') return 0;
        return exists ? not_a(err, name, "materialized view") : db_no_such_table(s, name, 0, err);
    case 'c': {
        const char *col = st->u.comment.sub;
        bool found = false;
        if (v && v->kind == 'v')
            for (int k = 0; k < v->ncols && !found; k++) found = !strcmp(v->col_names[k], col);
        else if (t)
            found = attu_table_find_column(t, col) >= 0;
        else
            return exists ? not_a(err, name, "table") : db_no_such_table(s, name, 0, err);
        if (found) return 0;
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, 0, "column \"%s\" of relation \"%s\" does not exist",
                              col, name);
    }
    case 'i':   /* an index: CREATE INDEX's or a constraint's */
        if (attu_catalog_constraint_owner(db_cat(s), name, NULL)) return 0;
        if (exists) return attu_error_set(err, "42809", 0, "\"%s\" is not an index", name);
        return db_no_such_table(s, name, 0, err);
    default:   /* 'k' */
        if (!exists) return db_no_such_table(s, name, 0, err);
        if (t && !v && has_constraint(s, name, st->u.comment.sub)) return 0;
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "constraint \"%s\" for table \"%s\" does not exist",
                              st->u.comment.sub, name);
    }
}

int db_exec_comment(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    db_write_lock(s);
    if (st->u.comment.object == 'f') {
        /* a function's comment is part of its definition (db_function.c),
         * so it goes with the function */
        int rc = db_comment_function(s, st->u.comment.fn, st->u.comment.text, err);
        if (!rc && s->db->data_dir) rc = db_txn_touch_comments(s, err);
        pthread_rwlock_unlock(&s->db->lock);
        if (rc) return rc;
        return db_deliver_tag(cb, "COMMENT", err) ? -2 : 0;
    }
    int rc = find_object(s, st, err);
    if (!rc) {
        char kind = st->u.comment.object == 'c' ? 'c' : st->u.comment.object == 'k' ? 'k' : 'r';
        const char *sub = kind == 'r' ? "" : st->u.comment.sub;
        attu_comments *cs = attu_catalog_comments(db_cat(s));
        /* (the old one kept to put back should the file not be written) */
        const char *had = attu_comments_get(cs, kind, st->u.comment.rel, sub);
        char *old = had ? strdup(had) : NULL;
        if (had && !old) rc = attu_error_oom(err);
        else if (attu_comments_set(cs, kind, st->u.comment.rel, sub, st->u.comment.text)) rc = attu_error_oom(err);
        else if (s->db->data_dir && db_txn_touch_comments(s, err)) {
            attu_comments_set(cs, kind, st->u.comment.rel, sub, old);
            rc = -1;
        }
        free(old);
    }
    pthread_rwlock_unlock(&s->db->lock);
    if (rc) return rc;
    return db_deliver_tag(cb, "COMMENT", err) ? -2 : 0;
}

void db_comments_renamed(attu_session *s, char kind, const char *rel, const char *from, const char *to) {
    attu_comments *cs = attu_catalog_comments(db_cat(s));
    /* a temporary relation (renamed: now to): its columns' domains are in
     * its layer's store (db_domain_columns), and the shared store's under
     * its name, if any, are a permanent table's, which stay */
    const char *now = kind == 'r' ? to : rel;
    attu_comments *cols = db_domain_columns(s, now);
    int rc = 0;
    if (cols != cs) {
        if (kind == 'r') rc = attu_comments_rename_rel(cols, from, to);
        else if (kind == 'c') rc = attu_comments_rename_sub(cols, ATTU_DOMAIN_COLUMN_KIND, rel, from, to);
        if (!rc && !(kind == 'r' && attu_domain_rel_has_columns(cs, from)))
            rc = kind == 'r' ? attu_comments_rename_rel(cs, from, to) : attu_comments_rename_sub(cs, kind, rel, from, to);
        if (!rc) save(s);
        return;
    }
    rc = kind == 'r' ? attu_comments_rename_rel(cs, from, to) : attu_comments_rename_sub(cs, kind, rel, from, to);
    /* a column's domain follows the column (engine/domain_type.h) */
    if (!rc && kind == 'c') rc = attu_comments_rename_sub(cs, ATTU_DOMAIN_COLUMN_KIND, rel, from, to);
    if (!rc) save(s);
}

void db_comments_dropped(attu_session *s, const char *rel) {
    if (attu_comments_drop_rel(attu_catalog_comments(db_cat(s)), rel)) save(s);
}

/* A temporary table's comments go, but not the columns' domains of the
 * permanent table of its name (engine/domain_type.h: a temporary table
 * has none of its own). */
static bool keep_domains(void *ctx, char kind, const char *sub) {
    (void)ctx;
    (void)sub;
    return kind == ATTU_DOMAIN_COLUMN_KIND;
}

void db_comments_dropped_temp(attu_session *s, const char *rel) {
    attu_comments *cs = attu_catalog_comments(db_cat(s));
    /* its columns' domains, in its layer's store, go with it */
    attu_comments *top = attu_catalog_domain_comments(db_cat(s), true);
    if (top != cs) attu_comments_drop_rel(top, rel);
    bool any = attu_comments_get(cs, 'r', rel, "") != NULL;
    if (any) attu_comments_set(cs, 'r', rel, "", NULL);
    if (attu_comments_prune(cs, rel, keep_domains, NULL) || any) save(s);
}

static bool still_there(void *ctx, char kind, const char *sub) {
    attu_session *s = ((void **)ctx)[0];
    const char *rel = ((void **)ctx)[1];
    if (kind == 'k') return has_constraint(s, rel, sub);
    /* (a temporary table shadowing the permanent one has no domains) */
    if (kind == ATTU_DOMAIN_COLUMN_KIND && db_temp_has(s, rel)) return true;
    const attu_table *t = attu_catalog_lookup(db_cat(s), rel);
    const attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), rel);
    if (v && v->kind == 'v') {
        for (int k = 0; k < v->ncols; k++) if (!strcmp(v->col_names[k], sub)) return true;
        return false;
    }
    return t && attu_table_find_column(t, sub) >= 0;
}

/* A temporary table's columns' domains: those of its columns. */
static bool temp_column_there(void *ctx, char kind, const char *sub) {
    (void)kind;
    const attu_table *t = ctx;
    return t && attu_table_find_column(t, sub) >= 0;
}

void db_comments_prune(attu_session *s, const char *rel) {
    void *ctx[2] = { s, (void *)rel };
    if (db_temp_has(s, rel)) {
        attu_comments *top = attu_catalog_domain_comments(db_cat(s), true);
        if (top != attu_catalog_comments(db_cat(s)))
            attu_comments_prune(top, rel, temp_column_there, attu_catalog_lookup(db_cat(s), rel));
    }
    if (attu_comments_prune(attu_catalog_comments(db_cat(s)), rel, still_there, ctx)) save(s);
}
