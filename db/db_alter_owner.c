/*
 * db_alter_owner.c - OWNER TO and SET SCHEMA of a relation.
 *
 *     ALTER {TABLE | VIEW | MATERIALIZED VIEW | SEQUENCE} [IF EXISTS] name
 *         OWNER TO {role | CURRENT_USER | CURRENT_ROLE | SESSION_USER}
 *     ALTER {TABLE | VIEW | MATERIALIZED VIEW | SEQUENCE} [IF EXISTS] name
 *         SET SCHEMA schema
 *
 * attu has one role, the connected user (what pg_roles shows, owning every
 * relation), and one schema for the user's relations, public. So OWNER TO
 * that role and SET SCHEMA public are already true and change nothing;
 * any other role or schema does not exist (PostgreSQL's 42704 / 3F000).
 * The relation is checked first, as PostgreSQL does: 42P01 (a NOTICE with
 * IF EXISTS), and 42809 where the statement names another kind (ALTER
 * TABLE takes any of them, as PostgreSQL's does).
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <string.h>

/* 't' table, 'v' view, 'm' materialized view, 's' sequence, 0 none */
static char relation_kind(attu_session *s, const char *name) {
    char kind = 0;
    pthread_rwlock_rdlock(&s->db->lock);
    const attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), name);
    if (v) kind = v->kind == 'm' ? 'm' : 'v';
    else if (attu_catalog_lookup(db_cat(s), name)) kind = 't';
    else if (db_sequence_exists(s, name)) kind = 's';
    pthread_rwlock_unlock(&s->db->lock);
    return kind;
}

int db_exec_alter_owner(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    const char *name = st->u.alter_table.table;
    const attu_ast_alter_cmd *c = &st->u.alter_table.cmds[0];
    char want = st->u.alter_table.sequence ? 's' : st->u.alter_table.materialized ? 'm'
              : st->u.alter_table.view ? 'v' : 0;
    const char *tag = want == 's' ? "ALTER SEQUENCE" : want == 'm' ? "ALTER MATERIALIZED VIEW"
                    : want == 'v' ? "ALTER VIEW" : "ALTER TABLE";
    char kind = relation_kind(s, name);
    if (!kind) {
        if (!st->u.alter_table.if_exists)
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0, "relation \"%s\" does not exist", name);
        if (cb && cb->on_notice) {
            char msg[160];
            snprintf(msg, sizeof msg, "relation \"%s\" does not exist, skipping", name);
            cb->on_notice(cb->ctx, "00000", msg);
        }
        return db_deliver_tag(cb, tag, err) ? -2 : 0;
    }
    if (want && kind != want)
        return attu_error_set(err, "42809", 0, "\"%s\" is not a %s", name,
                              want == 's' ? "sequence" : want == 'm' ? "materialized view" : "view");
    if (c->kind == ATTU_ALTER_OWNER) {
        /* (NULL: CURRENT_USER and its kin, the connected user itself) */
        const char *user = s->user[0] ? s->user : "attu";
        if (c->new_name && strcmp(c->new_name, user))
            return attu_error_set(err, "42704", 0, "role \"%s\" does not exist", c->new_name);
    } else if (strcmp(c->new_name, "public")) {
        /* PostgreSQL moves a relation into its system schemas for a
         * superuser; attu keeps them to its own catalog */
        if (!strcmp(c->new_name, "pg_catalog") || !strcmp(c->new_name, "information_schema"))
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                                  "moving a relation into schema \"%s\" is not supported", c->new_name);
        return attu_error_set(err, "3F000", 0, "schema \"%s\" does not exist", c->new_name);
    }
    return db_deliver_tag(cb, tag, err) ? -2 : 0;
}
