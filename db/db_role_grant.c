/*
 * db_role_grant.c - role membership: GRANT role, ... TO role, ... [WITH
 * ADMIN OPTION], REVOKE [ADMIN OPTION FOR] role, ... FROM role, ..., and
 * ALTER GROUP g ADD / DROP USER u, ..., as PostgreSQL 15 (pg_auth_members).
 *
 * The members are resolved first, then each granted role, as
 * PostgreSQL's GrantRole does (so the first unknown name is the one its
 * 42704 names). A grant that would make a role a member of itself,
 * directly or through others, is 0LP01; one that is there already is a
 * NOTICE (unless it adds the ADMIN OPTION), a revoke of one that is not
 * there a WARNING. db_exec_role (db_role.c) runs this under the write
 * lock and puts the store back should it fail midway.
 */
#include "db/db_internal.h"
#include "db/db_role.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/comments.h"

bool db_role_can_grant(attu_session *s, unsigned oid, const char *name, attu_error *err) {
    if (db_role_is_superuser(s)) return true;
    attu_role r;
    bool super = oid == ATTU_ROLE_BOOTSTRAP_OID;
    if (!super && attu_role_find_oid(db_role_store(s), oid, &r)) {
        super = r.super;
        attu_role_clear(&r);
    }
    if (super) {
        attu_error_set(err, "42501", 0, "must be superuser to alter superusers");
        return false;
    }
    if (db_role_has_createrole(s)) return true;
    bool admin = false;
    if (attu_role_member_get(db_role_store(s), oid, db_role_current_oid(s), NULL, &admin) && admin) return true;
    attu_error_set(err, "42501", 0, "must have admin option on role \"%s\"", name);
    return false;
}

int db_role_grant(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    const attu_ast_name_list *roles = &st->u.role.names, *members = &st->u.role.members;
    bool grant = st->u.role.action == 'g';
    typedef struct { unsigned oid; char name[ATTU_ROLE_NAME_MAX + 1]; } named;
    named *m = calloc((size_t)members->n + 1, sizeof *m), *r = calloc((size_t)roles->n + 1, sizeof *r);
    int rc = m && r ? 0 : attu_error_oom(err);
    for (int i = 0; i < members->n && !rc; i++)
        rc = db_role_resolve(s, members->items[i], 0, &m[i].oid, m[i].name, sizeof m[i].name, err);
    attu_comments *cs = db_role_store(s);
    unsigned me = db_role_current_oid(s);
    for (int k = 0; k < roles->n && !rc; k++) {
        rc = db_role_resolve(s, roles->items[k], 0, &r[k].oid, r[k].name, sizeof r[k].name, err);
        if (!rc && !db_role_can_grant(s, r[k].oid, r[k].name, err)) rc = -1;
        for (int i = 0; i < members->n && !rc; i++) {
            unsigned grantor;
            bool admin = false, is = attu_role_member_get(cs, r[k].oid, m[i].oid, &grantor, &admin);
            char msg[200];
            if (grant) {
                /* (the member inside the role already, or the role itself:
                 * a cycle) */
                if (attu_role_is_member(cs, r[k].oid, m[i].oid, false)) {
                    rc = attu_error_set(err, "0LP01", 0, "role \"%s\" is a member of role \"%s\"", r[k].name, m[i].name);
                    break;
                }
                if (is && (!st->u.role.admin_option || admin)) {
                    snprintf(msg, sizeof msg, "role \"%s\" is already a member of role \"%s\"", m[i].name, r[k].name);
                    if (cb && cb->on_notice) cb->on_notice(cb->ctx, "00000", msg);
                    continue;
                }
                if (attu_role_member_set(cs, r[k].oid, m[i].oid, me, st->u.role.admin_option)) rc = attu_error_oom(err);
            } else {
                if (!is) {
                    snprintf(msg, sizeof msg, "role \"%s\" is not a member of role \"%s\"", m[i].name, r[k].name);
                    db_warning(cb, "01000", msg);
                    continue;
                }
                if (st->u.role.admin_option) {
                    if (attu_role_member_set(cs, r[k].oid, m[i].oid, grantor, false)) rc = attu_error_oom(err);
                } else attu_role_member_remove(cs, r[k].oid, m[i].oid);
            }
        }
    }
    free(m);
    free(r);
    return rc;
}
