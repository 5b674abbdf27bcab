/*
 * db_role.c - CREATE ROLE / USER / GROUP, ALTER ROLE (options, RENAME TO),
 * DROP ROLE, as PostgreSQL 15; and who a session is (the bootstrap
 * superuser or a created role).
 *
 * Roles live in the catalog's comments store (engine/role.h says why
 * there): a statement here changes the working catalog's store under the
 * write lock and marks the comments file for COMMIT, so a ROLLBACK
 * forgets it and a COMMIT keeps it in the data directory, as CREATE TYPE
 * does. Every check runs before the first change, so a failed statement
 * leaves nothing behind.
 *
 * Who may do what, as PostgreSQL 15 (user.c): a superuser anything; a
 * role with CREATEROLE creates, alters, renames and drops roles that are
 * no superusers; any role may change its own password. The bootstrap
 * superuser (a session whose user is no created role: engine/role.h) is
 * a superuser whose attributes are fixed: ALTER ROLE on it is refused
 * (PostgreSQL lets its own be altered, even out of SUPERUSER).
 */
#include "db/db_internal.h"
#include "db/db_role.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/comments.h"
#include "engine/scram_verifier.h"
#include "engine/timezone.h"
#include "engine/types.h"

/* ---- who the session is ---------------------------------------------- */

attu_comments *db_role_store(attu_session *s) { return attu_catalog_comments(db_cat(s)); }

/* SET SESSION AUTHORIZATION's user, else the connected one ("attu"
 * without one). */
const char *db_session_user_name(attu_session *s) {
    const char *sa = attu_session_setting(s, "session_authorization");
    if (sa && *sa) return sa;
    return s->user[0] ? s->user : "attu";
}

/* SET ROLE's role, else the session user. */
const char *db_current_user_name(attu_session *s) {
    const char *r = attu_session_setting(s, "role");
    if (r && *r && strcmp(r, "none") != 0) return r;
    return db_session_user_name(s);
}

/* Whether the connected user is a created role. */
static bool login_is_role(attu_session *s) {
    attu_role r;
    if (!s->user[0] || !attu_role_find(db_role_store(s), s->user, &r)) return false;
    attu_role_clear(&r);
    return true;
}

/* A name to its role: a created role, or the bootstrap superuser's name;
 * false for neither. */
static bool role_by_name(attu_session *s, const char *name, unsigned *oid, bool *super) {
    attu_role r;
    if (attu_role_find(db_role_store(s), name, &r)) {
        *oid = r.oid;
        *super = r.super;
        attu_role_clear(&r);
        return true;
    }
    if (!strcmp(name, db_role_bootstrap_name(s))) {
        *oid = ATTU_ROLE_BOOTSTRAP_OID;
        *super = true;
        return true;
    }
    return false;
}

int db_role_check_set_role(attu_session *s, const char *name, attu_error *err) {
    unsigned oid, session_oid;
    bool super, session_super;
    if (!role_by_name(s, name, &oid, &super))
        return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "role \"%s\" does not exist", name);
    /* PostgreSQL's check_role: the session user must be a member of the
     * role (a superuser is a member of every role) */
    if (!role_by_name(s, db_session_user_name(s), &session_oid, &session_super)) session_super = true;
    if (!session_super && session_oid != oid && !attu_role_is_member(db_role_store(s), session_oid, oid, false))
        return attu_error_set(err, "42501", 0, "permission denied to set role \"%s\"", name);
    return 0;
}

int db_role_check_session_authorization(attu_session *s, const char *name, attu_error *err) {
    unsigned oid;
    bool super;
    if (!role_by_name(s, name, &oid, &super))
        return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "role \"%s\" does not exist", name);
    /* only a superuser that connected may be someone else (what it was
     * at login, as PostgreSQL's AuthenticatedUserIsSuperuser) */
    if (s->login_not_super && strcmp(name, s->user) != 0)
        return attu_error_set(err, "42501", 0, "permission denied to set session authorization");
    return 0;
}

bool db_role_session(attu_session *s, attu_role *out) {
    attu_role r;
    const char *u = db_current_user_name(s);
    bool is = u[0] && attu_role_find(db_role_store(s), u, &r);
    if (is && out) *out = r;
    else if (is) attu_role_clear(&r);
    return is;
}

const char *db_role_bootstrap_name(attu_session *s) {
    if (!s->user[0]) return "attu";
    return login_is_role(s) ? "attu" : s->user;
}

/* Whether the current user, being no created role, is the bootstrap
 * superuser: otherwise it is a role dropped (by another session) while
 * SET ROLE or SET SESSION AUTHORIZATION named it, which has nothing. */
static bool current_is_bootstrap(attu_session *s) {
    return !strcmp(db_current_user_name(s), db_role_bootstrap_name(s));
}

unsigned db_role_current_oid(attu_session *s) {
    attu_role r;
    if (!db_role_session(s, &r)) return current_is_bootstrap(s) ? ATTU_ROLE_BOOTSTRAP_OID : 0;
    attu_role_clear(&r);
    return r.oid;
}

bool db_role_is_superuser(attu_session *s) {
    attu_role r;
    if (!db_role_session(s, &r)) return current_is_bootstrap(s);
    attu_role_clear(&r);
    return r.super;
}

const char *db_role_name_of(attu_session *s, unsigned oid, char *buf, size_t cap) {
    if (oid == ATTU_ROLE_BOOTSTRAP_OID) {
        snprintf(buf, cap, "%s", db_role_bootstrap_name(s));
        return buf;
    }
    attu_role r;
    if (!attu_role_find_oid(db_role_store(s), oid, &r)) return NULL;
    snprintf(buf, cap, "%s", r.name);
    attu_role_clear(&r);
    return buf;
}

int db_role_resolve(attu_session *s, const char *name, int pos, unsigned *oid, char *canon, size_t cap,
                    attu_error *err) {
    if (name[0] == '\001') {   /* CURRENT_USER, CURRENT_ROLE, SESSION_USER */
        *oid = db_role_current_oid(s);
        if (canon) db_role_name_of(s, *oid, canon, cap);
        return 0;
    }
    if (!strcmp(name, db_role_bootstrap_name(s))) {
        *oid = ATTU_ROLE_BOOTSTRAP_OID;
    } else {
        attu_role r;
        if (!attu_role_find(db_role_store(s), name, &r))
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, pos, "role \"%s\" does not exist", name);
        *oid = r.oid;
        attu_role_clear(&r);
    }
    if (canon) snprintf(canon, cap, "%s", name);
    return 0;
}

bool db_role_has_createrole(attu_session *s) {
    attu_role r;
    if (!db_role_session(s, &r)) return current_is_bootstrap(s);
    attu_role_clear(&r);
    return r.super || r.createrole;
}

int attu_db_role_login(attu_db *db, const char *user, attu_role_login *out) {
    memset(out, 0, sizeof *out);
    attu_role r;
    pthread_rwlock_rdlock(&db->lock);
    bool is = user && *user && attu_role_find(attu_catalog_comments(db->cat), user, &r);
    pthread_rwlock_unlock(&db->lock);
    if (!is) return 0;
    out->can_login = r.login;
    out->verifier = r.password;   /* (handed over) */
    out->has_valid_until = r.has_valid_until;
    out->valid_until = r.valid_until;
    return 1;
}

/* ---- the statements ---------------------------------------------------- */

static void notice(const attu_exec_callbacks *cb, const char *msg) {
    if (cb && cb->on_notice) cb->on_notice(cb->ctx, "00000", msg);
}

static int reserved_name(const char *name, attu_error *err) {
    if (strncmp(name, "pg_", 3)) return 0;
    attu_error_set(err, "42939", 0, "role name \"%s\" is reserved", name);
    attu_error_set_detail(err, "Role names starting with \"pg_\" are reserved.");
    return -1;
}

/* The options as PostgreSQL's DefElems: one slot per name, a second
 * option of a name is 42601 at its place. */
typedef struct role_opts {
    const attu_ast_role_option *super, *createrole, *createdb, *login, *replication, *bypassrls, *inherit,
                               *password, *connlimit, *valid, *in_role, *members, *admins;
} role_opts;

/* The text of the token at 1-based pos of sql (a keyword as written),
 * for a syntax error there. */
static int syntax_at(const char *sql, int pos, attu_error *err) {
    const char *p = sql + pos - 1;
    int n = 0;
    while (p[n] && ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') || p[n] == '_')) n++;
    return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, pos, "syntax error at or near \"%.*s\"", n, p);
}

static int collect(const char *sql, const attu_ast_stmt *st, role_opts *o, attu_error *err) {
    memset(o, 0, sizeof *o);
    for (int i = 0; i < st->u.role.noptions; i++) {
        const attu_ast_role_option *op = &st->u.role.options[i];
        const attu_ast_role_option **slot = NULL;
        if (st->u.role.action == 'a' && strchr("ira", op->kind))   /* (ALTER ROLE takes none of these) */
            return syntax_at(sql, op->kind == 'i' ? op->pos2 : op->pos, err);
        switch (op->kind) {
        case 'f': {
            const char *w = op->word;
            const char *base = !strncmp(w, "no", 2) ? w + 2 : w;   /* (NOLOGIN: LOGIN's slot) */
            if (!strcmp(base, "superuser")) slot = &o->super;
            else if (!strcmp(base, "createrole")) slot = &o->createrole;
            else if (!strcmp(base, "createdb")) slot = &o->createdb;
            else if (!strcmp(base, "login")) slot = &o->login;
            else if (!strcmp(base, "replication")) slot = &o->replication;
            else if (!strcmp(base, "bypassrls")) slot = &o->bypassrls;
            else slot = &o->inherit;
            break;
        }
        case 'p': slot = &o->password; break;
        case 'c': slot = &o->connlimit; break;
        case 'v': slot = &o->valid; break;
        case 'i': slot = &o->in_role; break;
        case 'r': slot = &o->members; break;
        default:  slot = &o->admins; break;
        }
        if (*slot) return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, op->pos, "conflicting or redundant options");
        *slot = op;
    }
    return 0;
}

static bool flag(const attu_ast_role_option *op) { return strncmp(op->word, "no", 2) != 0; }

/* The options' values into r (every one checked; nothing else changes). */
static int apply(attu_session *s, const role_opts *o, attu_role *r, const attu_exec_callbacks *cb, attu_error *err) {
    if (o->super) r->super = flag(o->super);
    if (o->createrole) r->createrole = flag(o->createrole);
    if (o->createdb) r->createdb = flag(o->createdb);
    if (o->login) r->login = flag(o->login);
    if (o->replication) r->replication = flag(o->replication);
    if (o->bypassrls) r->bypassrls = flag(o->bypassrls);
    if (o->inherit) r->inherit = flag(o->inherit);
    if (o->connlimit) {
        if (o->connlimit->num < -1)
            return attu_error_set(err, "22023", 0, "invalid connection limit: %d", (int)o->connlimit->num);
        r->connlimit = (int)o->connlimit->num;
    }
    if (o->valid) {
        int64_t us;
        if (attu_timestamptz_parse(o->valid->str, strlen(o->valid->str), attu_tz_session(), &us, err)) return -1;
        r->has_valid_until = true;
        r->valid_until = us;
    }
    if (o->password) {
        free(r->password);
        r->password = NULL;
        const char *pw = o->password->str;
        if (pw && !*pw) notice(cb, "empty string is not a valid password, clearing password");
        else if (pw && attu_scram_is_verifier(pw)) {
            if (!(r->password = strdup(pw))) return attu_error_oom(err);
        } else if (pw) {
            char v[256];
            if (attu_scram_make_verifier(pw, ATTU_SCRAM_ITERATIONS, v, sizeof v))
                return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "could not encrypt password");
            if (!(r->password = strdup(v))) return attu_error_oom(err);
        }
    }
    (void)s;
    return 0;
}

/* Every name of a list resolved (42704 for the first unknown one). */
static int resolve_list(attu_session *s, const attu_ast_name_list *l, unsigned *oids, attu_error *err) {
    for (int i = 0; l && i < l->n; i++)
        if (db_role_resolve(s, l->items[i], 0, &oids[i], NULL, 0, err)) return -1;
    return 0;
}

static int exec_create(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                       attu_error *err) {
    role_opts o;
    if (collect(sql, st, &o, err)) return -1;
    bool want_super = o.super && flag(o.super);
    if (!db_role_is_superuser(s)) {
        if (want_super) return attu_error_set(err, "42501", 0, "must be superuser to create superusers");
        if (o.replication && flag(o.replication))
            return attu_error_set(err, "42501", 0, "must be superuser to create replication users");
        if (o.bypassrls && flag(o.bypassrls))
            return attu_error_set(err, "42501", 0, "must be superuser to create bypassrls users");
        if (!db_role_has_createrole(s)) return attu_error_set(err, "42501", 0, "permission denied to create role");
    }
    const char *name = st->u.role.name;
    if (reserved_name(name, err)) return -1;
    unsigned oid = 0;
    attu_error probe;
    attu_error_clear(&probe);
    if (!db_role_resolve(s, name, 0, &oid, NULL, 0, &probe))
        return attu_error_set(err, "42710", 0, "role \"%s\" already exists", name);
    attu_role r;
    memset(&r, 0, sizeof r);
    snprintf(r.name, sizeof r.name, "%s", name);
    r.inherit = true;
    r.login = st->u.role.word == 'u';
    r.connlimit = -1;
    int rc = apply(s, &o, &r, cb, err);
    /* the lists: IN ROLE (the new role joins them), ROLE / USER (they
     * join it), ADMIN (they join it WITH ADMIN OPTION) */
    const attu_ast_name_list *lists[3] = { o.in_role ? o.in_role->names : NULL, o.admins ? o.admins->names : NULL,
                                           o.members ? o.members->names : NULL };
    unsigned *ids[3] = { NULL, NULL, NULL };
    for (int k = 0; k < 3 && !rc; k++) {
        if (!lists[k] || !lists[k]->n) continue;
        if (!(ids[k] = calloc((size_t)lists[k]->n, sizeof *ids[k]))) rc = attu_error_oom(err);
        else rc = resolve_list(s, lists[k], ids[k], err);
        for (int i = 0; !rc && k == 0 && i < lists[k]->n; i++)
            if (!db_role_can_grant(s, ids[k][i], lists[k]->items[i], err)) rc = -1;
    }
    if (!rc) {
        attu_comments *cs = db_role_store(s);
        r.oid = attu_role_next_oid(cs);
        unsigned me = db_role_current_oid(s);
        if (attu_role_store(cs, &r)) rc = attu_error_oom(err);
        for (int k = 0; k < 3 && !rc; k++)
            for (int i = 0; lists[k] && i < lists[k]->n && !rc; i++) {
                unsigned role = k == 0 ? ids[k][i] : r.oid, member = k == 0 ? r.oid : ids[k][i];
                bool had_admin = false;
                attu_role_member_get(cs, role, member, NULL, &had_admin);
                if (attu_role_member_set(cs, role, member, me, k == 1 || had_admin)) rc = attu_error_oom(err);
            }
        if (rc) {   /* (out of memory midway: take it all back) */
            attu_role_member_drop_all(cs, r.oid);
            attu_role_remove(cs, r.name);
        }
    }
    for (int k = 0; k < 3; k++) free(ids[k]);
    attu_role_clear(&r);
    return rc;
}

static int exec_alter(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                      attu_error *err) {
    role_opts o;
    if (collect(sql, st, &o, err)) return -1;
    unsigned oid = 0;
    char name[ATTU_ROLE_NAME_MAX + 1];
    if (db_role_resolve(s, st->u.role.name, 0, &oid, name, sizeof name, err)) return -1;
    if (oid == ATTU_ROLE_BOOTSTRAP_OID) {
        if (!st->u.role.noptions) return 0;
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "the attributes of the bootstrap superuser \"%s\" cannot be changed", name);
    }
    attu_comments *cs = db_role_store(s);
    attu_role r;
    if (!attu_role_find_oid(cs, oid, &r)) return attu_error_oom(err);
    int rc = 0;
    if (!db_role_is_superuser(s)) {
        bool only_password = o.password && st->u.role.noptions == 1;
        if (r.super || (o.super && flag(o.super)))
            rc = attu_error_set(err, "42501", 0, "must be superuser to alter superuser roles or change superuser attribute");
        else if (r.replication || o.replication)
            rc = attu_error_set(err, "42501", 0, "must be superuser to alter replication roles or change replication attribute");
        else if (o.bypassrls)
            rc = attu_error_set(err, "42501", 0, "must be superuser to change bypassrls attribute");
        else if (!db_role_has_createrole(s) && !(only_password && oid == db_role_current_oid(s)))
            rc = attu_error_set(err, "42501", 0, "permission denied");
    }
    if (!rc) rc = apply(s, &o, &r, cb, err);
    if (!rc && attu_role_store(cs, &r)) rc = attu_error_oom(err);
    attu_role_clear(&r);
    return rc;
}

static int exec_rename(attu_session *s, const attu_ast_stmt *st, attu_error *err) {
    unsigned oid = 0;
    char name[ATTU_ROLE_NAME_MAX + 1];
    if (db_role_resolve(s, st->u.role.name, 0, &oid, name, sizeof name, err)) return -1;
    if (oid == ATTU_ROLE_BOOTSTRAP_OID && !strcmp(name, db_role_bootstrap_name(s)) && !db_role_session(s, NULL))
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "session user cannot be renamed");
    if (oid == db_role_current_oid(s))
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "session user cannot be renamed");
    if (oid == ATTU_ROLE_BOOTSTRAP_OID)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "the bootstrap superuser cannot be renamed");
    const char *to = st->u.role.new_name;
    unsigned other;
    attu_error probe;
    attu_error_clear(&probe);
    if (!db_role_resolve(s, to, 0, &other, NULL, 0, &probe))
        return attu_error_set(err, "42710", 0, "role \"%s\" already exists", to);
    if (reserved_name(to, err)) return -1;
    attu_comments *cs = db_role_store(s);
    attu_role r;
    if (!attu_role_find_oid(cs, oid, &r)) return attu_error_oom(err);
    int rc = 0;
    if (!db_role_is_superuser(s)) {
        if (r.super) rc = attu_error_set(err, "42501", 0, "must be superuser to rename superusers");
        else if (!db_role_has_createrole(s)) rc = attu_error_set(err, "42501", 0, "permission denied to rename role");
    }
    if (!rc) {
        attu_role was = r;
        snprintf(r.name, sizeof r.name, "%s", to);
        if (attu_role_store(cs, &r)) rc = attu_error_oom(err);
        else attu_role_remove(cs, was.name);
    }
    attu_role_clear(&r);
    return rc;
}

static int exec_drop(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    const attu_ast_name_list *l = &st->u.role.names;
    if (!db_role_has_createrole(s)) return attu_error_set(err, "42501", 0, "permission denied to drop role");
    unsigned *oids = calloc((size_t)l->n + 1, sizeof *oids);
    if (!oids) return attu_error_oom(err);
    int rc = 0;
    /* every check first: nothing goes unless all of them can */
    for (int i = 0; i < l->n && !rc; i++) {
        const char *name = l->items[i];
        if (name[0] == '\001') {
            rc = attu_error_set(err, "22023", 0, "cannot use special role specifier in DROP ROLE");
            break;
        }
        attu_error probe;
        attu_error_clear(&probe);
        if (db_role_resolve(s, name, 0, &oids[i], NULL, 0, &probe)) {
            oids[i] = 0;
            if (!st->u.role.if_exists) { *err = probe; rc = -1; break; }
            char msg[160];
            snprintf(msg, sizeof msg, "role \"%s\" does not exist, skipping", name);
            notice(cb, msg);
            continue;
        }
        if (oids[i] == db_role_current_oid(s)) {
            rc = attu_error_set(err, "55006", 0, "%s user cannot be dropped",
                                oids[i] == ATTU_ROLE_BOOTSTRAP_OID || db_role_session(s, NULL) ? "current" : "session");
            break;
        }
        if (oids[i] == ATTU_ROLE_BOOTSTRAP_OID) {
            rc = attu_error_set(err, "2BP01", 0, "cannot drop role %s because it is required by the database system",
                                name);
            break;
        }
        attu_role r;
        if (attu_role_find_oid(db_role_store(s), oids[i], &r)) {
            if (r.super && !db_role_is_superuser(s)) rc = attu_error_set(err, "42501", 0, "must be superuser to drop superusers");
            attu_role_clear(&r);
        }
        if (!rc) rc = db_role_check_dependents(s, oids[i], name, err);
    }
    for (int i = 0; i < l->n && !rc; i++) {
        if (!oids[i]) continue;
        char name[ATTU_ROLE_NAME_MAX + 1];
        if (!db_role_name_of(s, oids[i], name, sizeof name)) continue;   /* (named twice) */
        attu_role_member_drop_all(db_role_store(s), oids[i]);
        attu_role_remove(db_role_store(s), name);
    }
    free(oids);
    return rc;
}

int db_role_check_dependents(attu_session *s, unsigned oid, const char *name, attu_error *err) {
    (void)s; (void)oid; (void)name; (void)err;
    /* (roles own nothing and hold no privileges yet: every relation is
     * the bootstrap superuser's) */
    return 0;
}

int db_exec_role(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                 attu_error *err) {
    db_write_lock(s);
    /* the store before, put back whole should the statement fail midway
     * (a failed statement leaves nothing behind) */
    attu_comments *cs = db_role_store(s);
    attu_comments *before = attu_comments_clone(cs);
    int rc = before ? 0 : attu_error_oom(err);
    const char *tag = "CREATE ROLE";
    if (!rc) {
        switch (st->u.role.action) {
        case 'c': rc = exec_create(s, sql, st, cb, err); break;
        case 'a': rc = exec_alter(s, sql, st, cb, err); tag = "ALTER ROLE"; break;
        case 'r': rc = exec_rename(s, st, err); tag = "ALTER ROLE"; break;
        case 'd': rc = exec_drop(s, st, cb, err); tag = "DROP ROLE"; break;
        default:
            rc = db_role_grant(s, st, cb, err);
            tag = st->u.role.word == 'g' ? "ALTER ROLE" : st->u.role.action == 'g' ? "GRANT ROLE" : "REVOKE ROLE";
            break;
        }
    }
    if (!rc && s->db->data_dir) rc = db_txn_touch_comments(s, err);
    if (rc && before) db_role_restore_store(cs, before);
    attu_comments_free(before);
    pthread_rwlock_unlock(&s->db->lock);
    if (rc) return rc;
    return db_deliver_tag(cb, tag, err) ? -2 : 0;
}

void db_role_restore_store(attu_comments *cs, const attu_comments *before) {
    /* (every role and membership entry of cs put back to before's: the
     * statement touched no other kind) */
    for (size_t i = 0; i < attu_comments_count(cs);) {
        const attu_comment *c = attu_comments_at(cs, i);
        if ((c->kind == ATTU_ROLE_COMMENT_KIND || c->kind == ATTU_ROLE_MEMBER_KIND) &&
            !attu_comments_get(before, c->kind, c->rel, c->sub)) {
            attu_comments_set(cs, c->kind, c->rel, c->sub, NULL);
            i = 0;
        } else i++;
    }
    for (size_t i = 0; i < attu_comments_count(before); i++) {
        const attu_comment *c = attu_comments_at(before, i);
        if (c->kind == ATTU_ROLE_COMMENT_KIND || c->kind == ATTU_ROLE_MEMBER_KIND)
            attu_comments_set(cs, c->kind, c->rel, c->sub, c->text);
    }
}
