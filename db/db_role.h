/*
 * db_role.h - roles inside the db layer (db_role.c, db_role_grant.c):
 * who a session is and the role statements.
 */
#ifndef ATTU_DB_ROLE_H
#define ATTU_DB_ROLE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/role.h"

struct attu_session;
struct attu_comments;
struct attu_ast_stmt;
struct attu_exec_callbacks;

/* The store the roles are in (the session's catalog's comments). */
struct attu_comments *db_role_store(struct attu_session *s);
/* The session user (SET SESSION AUTHORIZATION's, else the connected
 * one) and the current user (SET ROLE's, else the session user). */
const char *db_session_user_name(struct attu_session *s);
const char *db_current_user_name(struct attu_session *s);
/* SET ROLE's and SET SESSION AUTHORIZATION's checks, as PostgreSQL 15's:
 * the role must exist (22023); the session user must be a member of the
 * role, and only a connected superuser may become another user (42501). */
int db_role_check_set_role(struct attu_session *s, const char *name, attu_error *err);
int db_role_check_session_authorization(struct attu_session *s, const char *name, attu_error *err);
/* Whether the session's current user is a created role (then *out, when
 * not NULL, is it: attu_role_clear it). */
bool db_role_session(struct attu_session *s, attu_role *out);
/* The name the bootstrap superuser (OID 10) has in this session: its
 * user, or "attu" where that is a created role. */
const char *db_role_bootstrap_name(struct attu_session *s);
unsigned db_role_current_oid(struct attu_session *s);
bool db_role_is_superuser(struct attu_session *s);
bool db_role_has_createrole(struct attu_session *s);
/* A role's name by OID into buf; NULL when there is none. */
const char *db_role_name_of(struct attu_session *s, unsigned oid, char *buf, size_t cap);
/* name (a role, or "\001current_user" and its kin) to its OID, and its
 * name into canon when not NULL; 42704 at pos when there is none. */
int db_role_resolve(struct attu_session *s, const char *name, int pos, unsigned *oid, char *canon, size_t cap,
                    attu_error *err);
/* Whether the session may grant role (oid, named name) to others: a
 * superuser, a CREATEROLE role for a role that is no superuser, or a
 * member WITH ADMIN OPTION; false with PostgreSQL's 42501 otherwise. */
bool db_role_can_grant(struct attu_session *s, unsigned oid, const char *name, attu_error *err);
/* 2BP01 when the role still owns objects or holds privileges. */
int db_role_check_dependents(struct attu_session *s, unsigned oid, const char *name, attu_error *err);
/* GRANT / REVOKE role, ALTER GROUP ADD / DROP USER (db_role_grant.c). */
int db_role_grant(struct attu_session *s, const struct attu_ast_stmt *st, const struct attu_exec_callbacks *cb,
                  attu_error *err);
/* Puts the roles and memberships of before back into cs. */
void db_role_restore_store(struct attu_comments *cs, const struct attu_comments *before);

#endif
