/*
 * db_alter_view.c - ALTER VIEW, and ALTER TABLE naming a view.
 *
 *     ALTER VIEW [IF EXISTS] v RENAME TO w
 *     ALTER VIEW [IF EXISTS] v RENAME [COLUMN] a TO b
 *     ALTER VIEW [IF EXISTS] v action [, action ...]
 *
 * with the actions ALTER [COLUMN] c SET DEFAULT e / DROP DEFAULT (a
 * default for the INSERTs through the view, db_view_update.c) and SET
 * (check_option = local | cascaded, security_barrier = ..., ...) / RESET
 * (name, ...). As in PostgreSQL, ALTER TABLE does the same to a view,
 * ALTER VIEW of a table (or a materialized view) is 42809 "is not a
 * view", and the actions that are a table's only are 42809 "ALTER action
 * ... cannot be performed on relation" with "This operation is not
 * supported for views." (PostgreSQL's grammar takes them all).
 *
 * A view is its query text plus its fixed columns (engine/view.h): a
 * RENAME COLUMN renames a fixed column (the query stays as it is, its
 * output named by the view's columns), a RENAME TO the view. The views
 * that read it follow either, their text rewritten token by token
 * (db_view_follow_view_rename, as a table's readers follow the table's
 * renames), or the rename is refused (0A000) where attu cannot tell the
 * rewritten text means the same. Everything is put in place at once and
 * saved, or nothing changes.
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/storage.h"
#include "engine/view.h"

static int view_column(const attu_view *v, const char *name) {
    for (int i = 0; i < v->ncols; i++) if (!strcmp(v->col_names[i], name)) return i;
    return -1;
}

/* Puts v (new, or in place of the view named `replaces`) and the
 * rewritten readers made[0..n) in place and saves the views; on failure
 * nothing changes. Takes v and made either way. */
static int install(attu_session *s, const char *replaces, attu_view *v, attu_view **made, int n, attu_error *err) {
    attu_views *vs = attu_catalog_views(db_cat(s));
    attu_view *old = attu_views_remove(vs, replaces), *same = NULL;
    if (attu_views_put(vs, v, &same)) {
        attu_view_free(v);
        if (old) attu_views_put(vs, old, &same);
        for (int i = 0; i < n; i++) attu_view_free(made[i]);
        return attu_error_oom(err);
    }
    if (db_view_install(s, made, n, err)) {
        /* (made[] holds the new readers still: db_view_install put them back) */
        attu_view_free(attu_views_remove(vs, v->name));
        if (old) attu_views_put(vs, old, &same);
        for (int i = 0; i < n; i++) attu_view_free(made[i]);
        return -1;
    }
    attu_view_free(old);
    for (int i = 0; i < n; i++) attu_view_free(made[i]);   /* (the readers as they were) */
    return 0;
}

static int rename_view(attu_session *s, attu_view *v, const char *to, attu_error *err) {
    if (db_relation_exists(s, to))
        return attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0, "relation \"%s\" already exists", to);
    attu_view **made = NULL;
    int n = 0;
    if (db_view_follow_view_rename(s, v, -1, to, &made, &n, err)) return -1;
    attu_view *nv = attu_view_copy(v, to);
    if (!nv) {
        for (int i = 0; i < n; i++) attu_view_free(made[i]);
        free(made);
        return attu_error_oom(err);
    }
    char from[ATTU_NAME_MAX + 1];
    snprintf(from, sizeof from, "%s", v->name);
    int rc = install(s, from, nv, made, n, err);
    free(made);
    if (!rc) db_comments_renamed(s, 'r', NULL, from, to);
    return rc;
}

static int rename_view_column(attu_session *s, attu_view *v, const attu_ast_alter_cmd *cmd, attu_error *err) {
    int col = view_column(v, cmd->column);
    if (col < 0) return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, 0, "column \"%s\" does not exist", cmd->column);
    if (view_column(v, cmd->new_name) >= 0)
        return attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_COLUMN, 0, "column \"%s\" of relation \"%s\" already exists",
                              cmd->new_name, v->name);
    attu_view **made = NULL;
    int n = 0;
    if (db_view_follow_view_rename(s, v, col, cmd->new_name, &made, &n, err)) return -1;
    attu_view *nv = attu_view_copy(v, NULL);
    char *name = strdup(cmd->new_name);
    if (!nv || !name) {
        attu_view_free(nv);
        free(name);
        for (int i = 0; i < n; i++) attu_view_free(made[i]);
        free(made);
        return attu_error_oom(err);
    }
    free(nv->col_names[col]);
    nv->col_names[col] = name;
    char view[ATTU_NAME_MAX + 1];
    snprintf(view, sizeof view, "%s", v->name);
    int rc = install(s, view, nv, made, n, err);   /* (v is freed) */
    free(made);
    if (!rc) db_comments_renamed(s, 'c', view, cmd->column, cmd->new_name);
    return rc;
}

/* SET (options) / RESET (options) on nv: PostgreSQL's errors for a bad
 * option (22023), and a check option only for an automatically updatable
 * view (0A000, as CREATE VIEW says). */
static int set_options(attu_session *s, attu_view *nv, const attu_ast_alter_cmd *cmd, attu_error *err) {
    const char *on = cmd->bad_option_name, *ov = cmd->bad_option;
    switch (cmd->bad_option_kind) {
    case 0: break;
    case 'u': return attu_error_set(err, "22023", 0, "unrecognized parameter \"%s\"", on);
    case 'd': return attu_error_set(err, "22023", 0, "parameter \"%s\" specified more than once", on);
    case 'b': return attu_error_set(err, "22023", 0, "invalid value for boolean option \"%s\": %s", on, ov);
    default:
        attu_error_set(err, "22023", 0, "invalid value for enum option \"%s\": %s", on, ov);
        attu_error_set_detail(err, "Valid values are \"local\" and \"cascaded\".");
        return -1;
    }
    if (cmd->check_option == 'r') nv->check_option = 0;
    else if (cmd->check_option) {
        attu_error e2;
        attu_error_clear(&e2);
        if (db_view_updatable_reason(s, nv->name, ATTU_STMT_INSERT, &e2)) {
            if (strcmp(e2.sqlstate, "55000")) { *err = e2; return -1; }
            attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                           "WITH CHECK OPTION is supported only on automatically updatable views");
            attu_error_set_hint(err, e2.detail);
            return -1;
        }
        nv->check_option = cmd->check_option;
    }
    return 0;
}

/* The actions of a list, applied to a copy of v put in place once all
 * have run. */
static int alter_actions(attu_session *s, const char *sql, attu_view *v, const attu_ast_stmt *st, attu_error *err) {
    /* the actions a view refuses first, as PostgreSQL checks each before
     * running any */
    for (int i = 0; i < st->u.alter_table.ncmds; i++) {
        const attu_ast_alter_cmd *c = &st->u.alter_table.cmds[i];
        switch (c->kind) {
        case ATTU_ALTER_SET_DEFAULT: case ATTU_ALTER_DROP_DEFAULT: case ATTU_ALTER_SET_OPTIONS:
        case ATTU_ALTER_RESET_OPTIONS:
            continue;
        default: break;
        }
        const char *what = db_alter_action_name(c->kind);
        attu_error_set(err, "42809", 0, "ALTER action %s cannot be performed on relation \"%s\"", what ? what : "?",
                       v->name);
        attu_error_set_detail(err, "This operation is not supported for views.");
        return -1;
    }
    attu_view *nv = attu_view_copy(v, NULL);
    if (!nv) return attu_error_oom(err);
    for (int i = 0; i < st->u.alter_table.ncmds; i++) {
        const attu_ast_alter_cmd *c = &st->u.alter_table.cmds[i];
        if (c->kind == ATTU_ALTER_SET_OPTIONS || c->kind == ATTU_ALTER_RESET_OPTIONS) {
            if (set_options(s, nv, c, err)) { attu_view_free(nv); return -1; }
            continue;
        }
        /* SET / DROP DEFAULT: checked as a table column's DEFAULT is
         * (against the view column's type), kept as text */
        int col = view_column(nv, c->column);
        if (col < 0) {
            attu_view_free(nv);
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, 0, "column \"%s\" of relation \"%s\" does not exist",
                                  c->column, v->name);
        }
        char *text = NULL;
        if (c->kind == ATTU_ALTER_SET_DEFAULT && c->expr) {
            attu_ast_column_def cd;
            memset(&cd, 0, sizeof cd);
            cd.name = nv->col_names[col];
            cd.position = c->position;
            cd.default_ = c->expr;
            attu_column_def def;
            memset(&def, 0, sizeof def);
            snprintf(def.name, sizeof def.name, "%s", nv->col_names[col]);
            def.type = nv->col_types[col];
            if (!(text = db_check_default(s, sql, &cd, &def, err))) {
                err->position = 0;   /* (as ALTER TABLE's) */
                attu_view_free(nv);
                return -1;
            }
        }
        free(nv->col_defaults[col]);
        nv->col_defaults[col] = text;
    }
    return install(s, v->name, nv, NULL, 0, err);
}

int db_exec_alter_view(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                       attu_error *err) {
    const char *name = st->u.alter_table.table;
    const char *tag = st->u.alter_table.view ? "ALTER VIEW" : "ALTER TABLE";
    db_write_lock(s);
    attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), name);
    int rc = -1;
    if (!v || v->kind != 'v') {
        if (v || db_relation_exists(s, name)) {
            attu_error_set(err, "42809", 0, "\"%s\" is not a view", name);
        } else if (!st->u.alter_table.if_exists) {
            attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0, "relation \"%s\" does not exist", name);
        } else {
            if (cb && cb->on_notice) {
                char msg[160];
                snprintf(msg, sizeof msg, "relation \"%s\" does not exist, skipping", name);
                cb->on_notice(cb->ctx, "00000", msg);
            }
            rc = 0;
        }
        goto out;
    }
    const attu_ast_alter_cmd *c = &st->u.alter_table.cmds[0];
    switch (c->kind) {
    case ATTU_ALTER_RENAME_TABLE: rc = rename_view(s, v, c->new_name, err); break;
    case ATTU_ALTER_RENAME_COLUMN: rc = rename_view_column(s, v, c, err); break;
    case ATTU_ALTER_RENAME_CONSTRAINT:
        /* (a view has none) */
        attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "constraint \"%s\" for table \"%s\" does not exist",
                       c->column, name);
        break;
    default: rc = alter_actions(s, sql, v, st, err); break;
    }
out:
    pthread_rwlock_unlock(&s->db->lock);
    if (rc) return rc;
    return db_deliver_tag(cb, tag, err) ? -2 : 0;
}
