/*
 * role.h - the roles CREATE ROLE makes and the memberships GRANT role TO
 * role gives (pg_authid's and pg_auth_members' rows).
 *
 * Catalog. A role is kept as text in the catalog's comments store
 * (comments.h) under kind ATTU_ROLE_COMMENT_KIND and the name "\x01" +
 * the role's name, as enum types are (engine/enum_type.h says why there:
 * the store follows transactions, is cloned with the catalog and saved in
 * the data directory's attu.comments; the "\x01" keeps a role apart from
 * a relation of its name, whose comments a DROP TABLE removes). A
 * membership is kept under kind ATTU_ROLE_MEMBER_KIND, name "\x01" + the
 * granted role's OID, sub the member's OID, text "<grantor OID> <t|f>"
 * (t: WITH ADMIN OPTION): by OID, so a rename touches the role's own
 * entry alone. Readers of the store (pg_description) skip both kinds.
 *
 * The bootstrap superuser. A client that connects with a name that is
 * no created role is attu's bootstrap superuser, OID 10, as before roles
 * existed (it owns everything); the role it is in one session is named as
 * that session's user. Created roles get OIDs from 16384 up.
 */
#ifndef ATTU_ENGINE_ROLE_H
#define ATTU_ENGINE_ROLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct attu_comments;

#define ATTU_ROLE_COMMENT_KIND 'R'
#define ATTU_ROLE_MEMBER_KIND  'M'
#define ATTU_ROLE_NAME_MAX     63          /* NAMEDATALEN - 1 */
#define ATTU_ROLE_BOOTSTRAP_OID 10u
#define ATTU_ROLE_FIRST_OID    16384u

typedef struct attu_role {
    char     name[ATTU_ROLE_NAME_MAX + 1];
    unsigned oid;
    bool     super, inherit, createrole, createdb, login, replication, bypassrls;
    int      connlimit;              /* -1: no limit */
    char    *password;               /* a SCRAM-SHA-256 verifier; NULL: none */
    bool     has_valid_until;
    int64_t  valid_until;            /* UTC microseconds (INT64_MAX: infinity) */
} attu_role;

/* The role of that name (or OID), parsed into *out (free its password
 * with attu_role_clear); false when there is none (or out of memory). */
bool attu_role_find(const struct attu_comments *cs, const char *name, attu_role *out);
bool attu_role_find_oid(const struct attu_comments *cs, unsigned oid, attu_role *out);
void attu_role_clear(attu_role *r);
/* Writes r under its name (replacing one of that name); -1: out of memory. */
int attu_role_store(struct attu_comments *cs, const attu_role *r);
void attu_role_remove(struct attu_comments *cs, const char *name);
/* An OID no role has. */
unsigned attu_role_next_oid(const struct attu_comments *cs);
/* Every role, in the store's order; r is valid during the call. */
void attu_role_each(const struct attu_comments *cs, void (*fn)(void *ctx, const attu_role *r), void *ctx);

/* Memberships: member is in role, granted by grantor. get: whether one
 * exists (grantor and admin then set when not NULL). set: -1 out of
 * memory. remove: whether there was one. */
bool attu_role_member_get(const struct attu_comments *cs, unsigned role, unsigned member, unsigned *grantor,
                          bool *admin);
int attu_role_member_set(struct attu_comments *cs, unsigned role, unsigned member, unsigned grantor, bool admin);
bool attu_role_member_remove(struct attu_comments *cs, unsigned role, unsigned member);
/* Removes every membership of oid (as the role or as the member). */
void attu_role_member_drop_all(struct attu_comments *cs, unsigned oid);
typedef struct attu_role_member {
    unsigned role, member, grantor;
    bool     admin;
} attu_role_member;
void attu_role_member_each(const struct attu_comments *cs, void (*fn)(void *ctx, const attu_role_member *m),
                           void *ctx);
/* Whether member is role or in it through memberships, directly or not
 * (inherit_only: only through members that have INHERIT, as privileges
 * pass; the bootstrap role counts as INHERIT). */
bool attu_role_is_member(const struct attu_comments *cs, unsigned member, unsigned role, bool inherit_only);

#endif
