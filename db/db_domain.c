/*
 * db_domain.c - domains: CREATE DOMAIN, ALTER DOMAIN, DROP DOMAIN, as
 * PostgreSQL 15 (engine/domain_type.h says how a domain is kept).
 *
 * A statement here changes the working catalog's comments store under the
 * write lock and marks the comments file for COMMIT, as the enum types'
 * statements do (db_type.c), so a ROLLBACK forgets it. A CHECK is
 * validated as a table's is (db_check_define), over a stand-in table of
 * one column named value of the base type: the same errors (0A000
 * subquery, 42803 aggregate, 42703 another name, 42804 not boolean) and
 * positions. What existing rows must satisfy (ADD CONSTRAINT, SET NOT
 * NULL, VALIDATE CONSTRAINT) is checked by db_domain_check.c.
 */
#include "db/db_internal.h"
#include "db/db_check.h"
#include "db/db_domain_check.h"
#include "db/db_unique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/comments.h"
#include "engine/domain_type.h"
#include "engine/enum_type.h"
#include "engine/view.h"

static int no_type(const char *name, attu_error *err) {
    return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "type \"%s\" does not exist", name);
}

/* 42809 for a built-in type named where a domain must be (0: name is no
 * built-in type). DROP names it as the grammar resolves the name (the
 * SQL keywords' types qualified: "pg_catalog.int4"), ALTER as
 * format_type does ("integer"), as PostgreSQL's messages. */
static int not_a_domain(const char *name, bool drop, attu_error *err) {
    static const struct { const char *word, *pg; } kw[] = {
        { "int", "int4" }, { "integer", "int4" }, { "smallint", "int2" }, { "bigint", "int8" },
        { "real", "float4" }, { "float", "float8" }, { "double precision", "float8" }, { "decimal", "numeric" },
        { "numeric", "numeric" }, { "boolean", "bool" }, { "char", "bpchar" }, { "character", "bpchar" },
        { "varchar", "varchar" }, { "character varying", "varchar" }, { "timestamp", "timestamp" },
        { "timestamp without time zone", "timestamp" }, { "timestamp with time zone", "timestamptz" },
        { "time", "time" }, { "time without time zone", "time" }, { "time with time zone", "timetz" },
        { "interval", "interval" },
    };
    attu_type t;
    attu_error e2;
    attu_error_clear(&e2);
    if (attu_type_from_name(name, -1, -1, &t, &e2)) return 0;
    if (!drop) {
        /* (ALTER DOMAIN looks the name up as pg_type's typname: "int" is
         * no type there, 42704) */
        static const char *const typnames[] = { "bool", "int2", "int4", "int8", "float4", "float8", "numeric", "text",
                                                "varchar", "bpchar", "date", "time", "timetz", "timestamp",
                                                "timestamptz", "interval", "json", "jsonb", "uuid", "bytea" };
        bool typname = false;
        for (size_t i = 0; i < sizeof typnames / sizeof typnames[0]; i++) typname |= !strcmp(name, typnames[i]);
        if (!typname) return 0;
        char buf[96];
        return attu_error_set(err, "42809", 0, "%s is not a domain",
                              t.id == ATTU_TYPE_DECIMAL ? "numeric" : attu_type_name(t, buf, sizeof buf));
    }
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if (!strcmp(name, kw[i].word)) return attu_error_set(err, "42809", 0, "\"pg_catalog.%s\" is not a domain", kw[i].pg);
    return attu_error_set(err, "42809", 0, "\"%s\" is not a domain", name);
}

static void notice(const attu_exec_callbacks *cb, const char *msg) {
    if (cb && cb->on_notice) cb->on_notice(cb->ctx, "00000", msg);
}

bool db_type_name_used(attu_session *s, const char *name) {
    const attu_comments *cs = attu_catalog_comments(db_cat(s));
    attu_enum_def *e = attu_enum_find_in(cs, name);
    attu_domain_def *d = attu_domain_find_in(cs, name);
    bool used = e || d;
    attu_enum_def_free(e);
    attu_domain_def_free(d);
    return used;
}

/* The name is taken by a type or by a relation (whose row type PostgreSQL
 * names alike): 42710. */
static int name_taken(attu_session *s, const char *name, attu_error *err) {
    bool type = db_type_name_used(s, name), rel = db_relation_exists(s, name);
    if (!type && !rel) return 0;
    attu_error_set(err, "42710", 0, "type \"%s\" already exists", name);
    if (rel && !type)
        attu_error_set_hint(err, "A relation has an associated type of the same name, so you must use a name that "
                                 "doesn't conflict with any existing type.");
    return -1;
}

attu_domain_def *db_domain_of_typename(attu_session *s, const attu_ast_typename *tn) {
    if (!tn || !tn->name) return NULL;
    const char *n = tn->name;
    if (!strncmp(n, "public.", 7)) n += 7;
    return attu_domain_find_in(attu_catalog_comments(db_cat(s)), n);
}

char *db_domain_column_text(attu_session *s, const attu_ast_typename *tn) {
    attu_domain_def *d = db_domain_of_typename(s, tn);
    char *r = NULL;
    if (d) {
        r = strdup(d->name);
    } else if (tn && tn->name) {
        /* an array of a domain, "d[]" (int[][] is int[] in PostgreSQL) */
        const char *n = !strncmp(tn->name, "public.", 7) ? tn->name + 7 : tn->name;
        size_t len = strlen(n);
        while (len > 2 && !strncmp(n + len - 2, "[]", 2)) len -= 2;
        char en[ATTU_NAME_MAX + 1];
        if (len < strlen(n) && len < sizeof en) {
            memcpy(en, n, len);
            en[len] = 0;
            d = attu_domain_find_in(attu_catalog_comments(db_cat(s)), en);
            if (d && (r = malloc(strlen(d->name) + 3))) sprintf(r, "%s[]", d->name);
        }
    }
    attu_domain_def_free(d);
    return r;
}

/* PostgreSQL's name of a domain's unnamed CHECK: d_check, d_check1, ...
 * past the names its checks have. */
static void choose_check_name(const attu_domain_def *d, char *out) {
    for (int pass = 0;; pass++) {
        char label[32];
        if (pass) snprintf(label, sizeof label, "check%d", pass);
        else snprintf(label, sizeof label, "check");
        db_object_name(d->name, NULL, label, out);
        bool taken = false;
        for (int i = 0; i < d->n && !taken; i++) taken = !strcmp(d->checks[i].name, out);
        if (!taken) return;
    }
}

/* Validates the CHECKs ds[0..n) of d and appends them to d's (named);
 * 0, or -1 with err. */
static int add_checks(attu_session *s, attu_domain_def *d, const attu_ast_unique_def *ds, int n, attu_error *err) {
    if (!n) return 0;
    attu_column_def col;
    memset(&col, 0, sizeof col);
    snprintf(col.name, sizeof col.name, "value");
    col.type = d->base;
    /* (a name no one writes: d.value is PostgreSQL's 42P01, not the
     * stand-in's column) */
    attu_table *t = attu_table_new(DB_DOMAIN_STAND_IN, 1, &col, err);
    if (!t) return -1;
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        const attu_ast_unique_def *u = &ds[i];
        if (u->name)
            for (int k = 0; k < d->n; k++)
                if (!strcmp(d->checks[k].name, u->name)) {
                    rc = attu_error_set(err, "42710", 0, "constraint \"%s\" for domain \"%s\" already exists", u->name, d->name);
                    break;
                }
        if (rc) break;
        attu_check *out = NULL;
        int nout = 0;
        const attu_ast_unique_def *one[1] = { u };
        if (db_check_define(s, t, one, 1, NULL, 0, false, false, &out, &nout, err)) { rc = -1; break; }
        attu_domain_check *nc = realloc(d->checks, (size_t)(d->n + 1) * sizeof *nc);
        if (!nc) { db_check_free(out, nout); rc = attu_error_oom(err); break; }
        d->checks = nc;
        char name[ATTU_NAME_MAX + 1];
        if (u->name) snprintf(name, sizeof name, "%s", u->name);
        else choose_check_name(d, name);
        nc[d->n].name = strdup(name);
        nc[d->n].expr = strdup(out[0].expr);
        nc[d->n].not_valid = u->not_valid;
        db_check_free(out, nout);
        d->n++;
        if (!nc[d->n - 1].name || !nc[d->n - 1].expr) rc = attu_error_oom(err);
    }
    attu_table_free(t);
    return rc;
}

/* The DEFAULT e of d, checked as a column's (its text kept). */
static int set_default(attu_session *s, const char *sql, attu_domain_def *d, attu_ast_expr *e, attu_error *err) {
    free(d->dflt);
    d->dflt = NULL;
    if (!e || (e->kind == ATTU_EXPR_LITERAL && e->u.literal.kind == ATTU_LIT_NULL)) return 0;
    attu_ast_column_def cd;
    memset(&cd, 0, sizeof cd);
    cd.name = d->name;
    cd.default_ = e;
    attu_column_def def;
    memset(&def, 0, sizeof def);
    snprintf(def.name, sizeof def.name, "%s", d->name);
    def.type = d->base;
    if (!(d->dflt = db_check_default(s, sql, &cd, &def, err))) return -1;
    /* (PostgreSQL's deparser writes the boolean constants in lower case) */
    if (!strcmp(d->dflt, "TRUE") || !strcmp(d->dflt, "FALSE"))
        for (char *p = d->dflt; *p; p++) *p = (char)(*p - 'A' + 'a');
    return 0;
}

static int create_domain(attu_session *s, const char *sql, const attu_ast_stmt *st, attu_error *err) {
    const char *name = st->u.type_stmt.name;
    if (name_taken(s, name, err)) return -1;
    if (strlen(name) > ATTU_NAME_MAX) return attu_error_set(err, "42622", 0, "type name \"%s\" is too long", name);
    /* a domain over a domain: its parent's base type and DEFAULT (as
     * PostgreSQL copies it), the parent's rules checked with its own */
    attu_domain_def *over = db_domain_of_typename(s, &st->u.type_stmt.base);
    attu_domain_def *d = calloc(1, sizeof *d);
    if (!d || !(d->name = strdup(name)) || (over && !(d->parent = strdup(over->name))) ||
        (over && over->dflt && !(d->dflt = strdup(over->dflt)))) {
        attu_domain_def_free(over);
        attu_domain_def_free(d);
        return attu_error_oom(err);
    }
    attu_domain_def_free(over);
    int rc = 0;
    if (db_column_type(&st->u.type_stmt.base, &d->base, err)) rc = -1;
    else if (db_serial_type(st->u.type_stmt.base.name, st->u.type_stmt.base.precision))
        rc = attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, st->u.type_stmt.base.position, "type \"%s\" does not exist",
                            st->u.type_stmt.base.name);
    if (!rc) {
        d->id = attu_domain_next_id(attu_catalog_comments(db_cat(s)));
        d->not_null = st->u.type_stmt.not_null;
        if ((st->u.type_stmt.dflt && set_default(s, sql, d, st->u.type_stmt.dflt, err)) ||
            add_checks(s, d, st->u.type_stmt.checks, st->u.type_stmt.nchecks, err))
            rc = -1;
        else if (attu_domain_store(attu_catalog_comments(db_cat(s)), d))
            rc = attu_error_oom(err);
    }
    attu_domain_def_free(d);
    return rc;
}

/* The columns of domain name: (table, column) pairs, malloc'd strings
 * in one array of 2 * *n; NULL with *n 0 when none (or no memory: -1). */
/* Whether a column's store text (its domain: "d", or "d[]" for an array
 * of d) is of domain name. */
static bool is_of(const char *text, const char *name) {
    size_t n = strlen(name);
    return !strncmp(text, name, n) && (!text[n] || !strcmp(text + n, "[]"));
}

static bool is_array_text(const char *text) {
    size_t n = strlen(text);
    return n > 2 && !strcmp(text + n - 2, "[]");
}

static char **users_in(const attu_comments *cs, const char *name, char **v, int *n) {
    int k = *n;
    for (size_t i = 0; i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        if (c->kind != ATTU_DOMAIN_COLUMN_KIND || !is_of(c->text, name)) continue;
        char **nv = realloc(v, (size_t)(k + 1) * 2 * sizeof *nv);
        if (!nv) goto oom;
        v = nv;
        v[2 * k] = strdup(c->rel);
        v[2 * k + 1] = strdup(c->sub);
        k++;
        if (!v[2 * k - 2] || !v[2 * k - 1]) goto oom;
    }
    *n = k;
    return v;
oom:
    for (int i = 0; i < 2 * k; i++) free(v[i]);
    free(v);
    *n = -1;
    return NULL;
}

/* The session's temporary tables' store of columns' domains (NULL: it
 * has none of its own: engine/catalog.h). */
static attu_comments *temp_columns(attu_session *s) {
    attu_comments *top = attu_catalog_domain_comments(db_cat(s), true);
    return top == attu_catalog_comments(db_cat(s)) ? NULL : top;
}

/* ... the shared tables' and views', then the session's temporary
 * tables' */
static char **users(attu_session *s, const char *name, int *n) {
    *n = 0;
    char **v = users_in(attu_catalog_comments(db_cat(s)), name, NULL, n);
    attu_comments *top = temp_columns(s);
    if (*n >= 0 && top) v = users_in(top, name, v, n);
    return v;
}

static void users_free(char **v, int n) {
    for (int i = 0; i < 2 * n; i++) free(v[i]);
    free(v);
}

static int swallow_result(void *ctx, attu_result *res) { (void)ctx; (void)res; return 0; }

/* Whether rel is a view (whose columns of a domain CREATE VIEW recorded);
 * the caller holds the lock. */
static bool is_view(attu_session *s, const char *rel) {
    const attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), rel);
    return v && v->kind == 'v';
}

/* DROP DOMAIN: RESTRICT refuses a domain in use (2BP01, PostgreSQL's
 * DETAIL and HINT); CASCADE drops its columns first, each by ALTER TABLE
 * t DROP COLUMN c CASCADE (views over them go along), as PostgreSQL's. */
static int drop_domains(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    const attu_ast_name_list *l = &st->u.type_stmt.labels;
    attu_comments *cs = attu_catalog_comments(db_cat(s));
    for (int i = 0; i < l->n; i++) {
        attu_domain_def *d = attu_domain_find_in(cs, l->items[i]);
        if (!d) {
            /* (a type that is no domain is 42809 even with IF EXISTS) */
            attu_enum_def *e = attu_enum_find_in(cs, l->items[i]);
            attu_enum_def_free(e);
            if (e) return attu_error_set(err, "42809", 0, "\"%s\" is not a domain", l->items[i]);
            if (not_a_domain(l->items[i], true, err)) return -1;
            if (st->u.type_stmt.if_exists) continue;
            return no_type(l->items[i], err);
        }
        attu_domain_def_free(d);
        int n = 0;
        char **u = users(s, l->items[i], &n);
        if (n < 0) return attu_error_oom(err);
        /* a domain over it (CASCADE dropped those first) */
        for (size_t k = 0; k < attu_comments_count(cs) && !n; k++) {
            const attu_comment *c = attu_comments_at(cs, k);
            attu_domain_def *sub = c->kind == ATTU_DOMAIN_COMMENT_KIND ? attu_domain_find_in(cs, c->rel + 1) : NULL;
            bool over = sub && sub->parent && !strcmp(sub->parent, l->items[i]);
            bool listed = false;   /* (dropped by the same statement) */
            for (int j = 0; over && j < l->n; j++) listed |= !strcmp(l->items[j], sub->name);
            if (over && !listed) {
                attu_error_set(err, "2BP01", 0, "cannot drop type %s because other objects depend on it", l->items[i]);
                attu_error_set_detail(err, "type %s depends on type %s", sub->name, l->items[i]);
                attu_error_set_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
                attu_domain_def_free(sub);
                users_free(u, n);
                return -1;
            }
            attu_domain_def_free(sub);
        }
        if (n) {   /* (CASCADE dropped them first: cascade_columns) */
            attu_error_set(err, "2BP01", 0, "cannot drop type %s because other objects depend on it", l->items[i]);
            char detail[1024] = "";
            size_t at = 0;
            for (int k = 0; k < n && at < sizeof detail; k++) {
                /* a view's column: the view depends on the type */
                if (is_view(s, u[2 * k])) {
                    if (k && !strcmp(u[2 * k - 2], u[2 * k])) continue;
                    at += (size_t)snprintf(detail + at, sizeof detail - at, "%sview %s depends on type %s",
                                           at ? "\n" : "", u[2 * k], l->items[i]);
                    continue;
                }
                const char *text = attu_domain_of_column(db_domain_columns(s, u[2 * k]), u[2 * k], u[2 * k + 1]);
                at += (size_t)snprintf(detail + at, sizeof detail - at, "%scolumn %s of table %s depends on type %s%s",
                                       at ? "\n" : "", u[2 * k + 1], u[2 * k], l->items[i],
                                       text && is_array_text(text) ? "[]" : "");
            }
            attu_error_set_detail(err, "%s", detail);
            attu_error_set_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
            users_free(u, n);
            return -1;
        }
        users_free(u, n);
    }
    for (int i = 0; i < l->n; i++) {
        attu_domain_def *d = attu_domain_find_in(cs, l->items[i]);
        if (!d) {
            char msg[200];
            snprintf(msg, sizeof msg, "type \"%s\" does not exist, skipping", l->items[i]);
            notice(cb, msg);
            continue;
        }
        attu_domain_remove(cs, l->items[i]);
        attu_domain_def_free(d);
    }
    return 0;
}

/* DROP DOMAIN ... CASCADE: the columns of the domains go first, each by
 * ALTER TABLE t DROP COLUMN c CASCADE (views over them go along; the
 * column's domain entry goes with the column), as PostgreSQL drops the
 * dependent columns; a NOTICE names them. Runs before the statement's
 * lock (ALTER TABLE takes it). */
static int cascade_columns(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    const attu_ast_name_list *l = &st->u.type_stmt.labels;
    for (int i = 0; i < l->n; i++) {
        db_write_lock(s);
        int n = 0;
        char **u = users(s, l->items[i], &n);
        bool *view = n > 0 ? calloc((size_t)n, sizeof *view) : NULL;
        for (int k = 0; view && k < n; k++) view[k] = is_view(s, u[2 * k]);
        pthread_rwlock_unlock(&s->db->lock);
        if (n < 0) return attu_error_oom(err);
        if (n > 0 && !view) { users_free(u, n); return attu_error_oom(err); }
        if (n) {
            char msg[300];
            int objects = 0;   /* (a view counts once, however many of its columns) */
            for (int k = 0; k < n; k++) objects += !(k && view[k] && !strcmp(u[2 * k - 2], u[2 * k]));
            if (objects == 1 && view[0]) snprintf(msg, sizeof msg, "drop cascades to view %s", u[0]);
            else if (objects == 1) snprintf(msg, sizeof msg, "drop cascades to column %s of table %s", u[1], u[0]);
            else snprintf(msg, sizeof msg, "drop cascades to %d other objects", objects);
            notice(cb, msg);
            attu_exec_callbacks quiet = { 0 };
            if (cb) quiet = *cb;
            quiet.on_result = swallow_result;
            quiet.on_notice = NULL;
            for (int k = 0; k < n; k++) {
                if (view[k]) {
                    /* a view's column of the domain: the view goes (with
                     * what reads it), as PostgreSQL drops it */
                    attu_ast_stmt dv;
                    memset(&dv, 0, sizeof dv);
                    dv.kind = ATTU_STMT_DROP_VIEW;
                    dv.position = st->position;
                    dv.u.drop_table.tables.items = &u[2 * k];
                    dv.u.drop_table.tables.n = 1;
                    dv.u.drop_table.if_exists = true;   /* (dropped already, by another column's cascade) */
                    dv.u.drop_table.cascade = true;
                    if (db_exec_drop_view(s, &dv, &quiet, err) < 0) { users_free(u, n); free(view); return -1; }
                    continue;
                }
                attu_ast_alter_cmd cmd;
                memset(&cmd, 0, sizeof cmd);
                cmd.kind = ATTU_ALTER_DROP_COLUMN;
                cmd.column = u[2 * k + 1];
                cmd.cascade = true;
                attu_ast_stmt alt;
                memset(&alt, 0, sizeof alt);
                alt.kind = ATTU_STMT_ALTER_TABLE;
                alt.position = st->position;
                alt.u.alter_table.table = u[2 * k];
                alt.u.alter_table.cmds = &cmd;
                alt.u.alter_table.ncmds = 1;
                if (db_exec_alter(s, "", &alt, &quiet, err) < 0) { users_free(u, n); free(view); return -1; }
            }
        }
        users_free(u, n);
        free(view);
    }
    return 0;
}

static int find_check(const attu_domain_def *d, const char *name) {
    for (int i = 0; i < d->n; i++)
        if (!strcmp(d->checks[i].name, name)) return i;
    return -1;
}

/* ALTER DOMAIN; *skipped when nothing changed (no save). */
static int alter_domain(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                        bool *skipped, attu_error *err) {
    attu_comments *cs = attu_catalog_comments(db_cat(s));
    const char *name = st->u.type_stmt.name, *label = st->u.type_stmt.label, *to = st->u.type_stmt.nbr;
    attu_domain_def *d = attu_domain_find_in(cs, name);
    if (!d) {
        attu_enum_def *e = attu_enum_find_in(cs, name);
        attu_enum_def_free(e);
        if (e) return attu_error_set(err, "42809", 0, "%s is not a domain", name);
        if (not_a_domain(name, false, err)) return -1;
        return no_type(name, err);
    }
    int rc = 0, k = label ? find_check(d, label) : -1;
    switch (st->u.type_stmt.sub) {
    case 'd': rc = set_default(s, sql, d, st->u.type_stmt.dflt, err); break;
    case 'e': free(d->dflt); d->dflt = NULL; break;
    case 'n':
        if (d->not_null) { *skipped = true; break; }
        d->not_null = true;
        rc = db_domain_check_existing(s, d, -1, err);
        break;
    case 'm': d->not_null = false; break;
    case 'c':
        if (add_checks(s, d, st->u.type_stmt.checks, 1, err)) rc = -1;
        else if (!d->checks[d->n - 1].not_valid) rc = db_domain_check_existing(s, d, d->n - 1, err);
        break;
    case 'x':
        if (k < 0) {
            if (st->u.type_stmt.if_exists) {
                char msg[300];
                snprintf(msg, sizeof msg, "constraint \"%s\" of domain \"%s\" does not exist, skipping", label, name);
                notice(cb, msg);
                *skipped = true;
            } else
                rc = attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "constraint \"%s\" of domain \"%s\" does not exist",
                                    label, name);
            break;
        }
        free(d->checks[k].name);
        free(d->checks[k].expr);
        memmove(&d->checks[k], &d->checks[k + 1], (size_t)(d->n - k - 1) * sizeof *d->checks);
        d->n--;
        break;
    case 'k':
        if (k < 0) {
            rc = attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "constraint \"%s\" for domain %s does not exist", label, name);
            break;
        }
        if (find_check(d, to) >= 0) {
            rc = attu_error_set(err, "42710", 0, "constraint \"%s\" for domain %s already exists", to, name);
            break;
        }
        {
            char *nn = strdup(to);
            if (!nn) { rc = attu_error_oom(err); break; }
            free(d->checks[k].name);
            d->checks[k].name = nn;
        }
        break;
    case 'v':
        if (k < 0) {
            rc = attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "constraint \"%s\" of domain \"%s\" does not exist", label, name);
            break;
        }
        if (!d->checks[k].not_valid) { *skipped = true; break; }
        d->checks[k].not_valid = false;
        rc = db_domain_check_existing(s, d, k, err);
        break;
    case 'r': {
        if (!strcmp(to, name) || name_taken(s, to, err)) {
            if (!err->set) attu_error_set(err, "42710", 0, "type \"%s\" already exists", to);
            rc = -1;
            break;
        }
        int n = 0, nt = 0;
        attu_comments *top = temp_columns(s);
        char **u = users_in(cs, name, NULL, &n);
        char **ut = top && n >= 0 ? users_in(top, name, NULL, &nt) : NULL;
        if (n < 0 || nt < 0) { users_free(u, n); users_free(ut, nt); rc = attu_error_oom(err); break; }
        char *nn = strdup(to);
        if (!nn) { users_free(u, n); users_free(ut, nt); rc = attu_error_oom(err); break; }
        attu_domain_remove(cs, name);
        free(d->name);
        d->name = nn;
        /* (an array column's "d[]" becomes "to[]") */
        char toa[ATTU_NAME_MAX + 3];
        snprintf(toa, sizeof toa, "%s[]", to);
        for (int i = 0; i < n && !rc; i++) {
            const char *text = attu_domain_of_column(cs, u[2 * i], u[2 * i + 1]);
            if (attu_domain_set_column(cs, u[2 * i], u[2 * i + 1], text && is_array_text(text) ? toa : to))
                rc = attu_error_oom(err);
        }
        for (int i = 0; i < nt && !rc; i++) {   /* (the temporary tables' columns) */
            const char *text = attu_domain_of_column(top, ut[2 * i], ut[2 * i + 1]);
            if (attu_domain_set_column(top, ut[2 * i], ut[2 * i + 1], text && is_array_text(text) ? toa : to))
                rc = attu_error_oom(err);
        }
        users_free(u, n);
        users_free(ut, nt);
        /* the domains over it follow */
        for (size_t i = 0; i < attu_comments_count(cs) && !rc; i++) {
            const attu_comment *c = attu_comments_at(cs, i);
            attu_domain_def *sub = c->kind == ATTU_DOMAIN_COMMENT_KIND ? attu_domain_find_in(cs, c->rel + 1) : NULL;
            if (sub && sub->parent && !strcmp(sub->parent, name)) {
                char *np = strdup(to);
                if (!np) rc = attu_error_oom(err);
                else {
                    free(sub->parent);
                    sub->parent = np;
                    if (attu_domain_store(cs, sub)) rc = attu_error_oom(err);
                }
            }
            attu_domain_def_free(sub);
        }
        break;
    }
    default: {   /* OWNER TO / SET SCHEMA: attu's one role and schema, as db_type.c's */
        *skipped = true;
        const char *user = s->user[0] ? s->user : "attu";
        if (st->u.type_stmt.sub == 'o') {
            if (to && strcmp(to, user)) rc = attu_error_set(err, "42704", 0, "role \"%s\" does not exist", to);
        } else if (!strcmp(to, "pg_catalog") || !strcmp(to, "information_schema"))
            rc = attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "moving a type into schema \"%s\" is not supported", to);
        else if (strcmp(to, "public"))
            rc = attu_error_set(err, "3F000", 0, "schema \"%s\" does not exist", to);
        break;
    }
    }
    if (!rc && !*skipped && attu_domain_store(cs, d)) rc = attu_error_oom(err);
    attu_domain_def_free(d);
    return rc;
}

/* DROP DOMAIN ... CASCADE: the names with every domain over them (their
 * columns and they go too, as PostgreSQL's); *out malloc'd (its items
 * the store's copies), NULL for memory. */
static char **with_derived(attu_session *s, const attu_ast_name_list *l, int *n) {
    db_write_lock(s);
    const attu_comments *cs = attu_catalog_comments(db_cat(s));
    size_t cap = (size_t)l->n + attu_comments_count(cs) + 1;
    char **v = calloc(cap, sizeof *v);
    *n = 0;
    for (int i = 0; v && i < l->n; i++) v[(*n)++] = strdup(l->items[i]);
    for (size_t k = 0; v && k < attu_comments_count(cs); k++) {
        const attu_comment *c = attu_comments_at(cs, k);
        if (c->kind != ATTU_DOMAIN_COMMENT_KIND) continue;
        bool take = false, listed = false;
        for (int i = 0; i < l->n; i++) {
            listed |= !strcmp(c->rel + 1, l->items[i]);
            take |= attu_domain_derives(cs, c->rel + 1, l->items[i]);
        }
        if (take && !listed) v[(*n)++] = strdup(c->rel + 1);
    }
    pthread_rwlock_unlock(&s->db->lock);
    for (int i = 0; v && i < *n; i++)
        if (!v[i]) { for (int j = 0; j < *n; j++) free(v[j]); free(v); return NULL; }
    return v;
}

int db_exec_domain(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                   attu_error *err) {
    if (st->u.type_stmt.action == 'D' && st->u.type_stmt.cascade) {
        int n = 0;
        char **names = with_derived(s, &st->u.type_stmt.labels, &n);
        if (!names) return attu_error_oom(err);
        attu_ast_stmt wide = *st;
        wide.u.type_stmt.labels.items = names;
        wide.u.type_stmt.labels.n = n;
        wide.u.type_stmt.labels.positions = NULL;
        wide.u.type_stmt.cascade = false;   /* (its columns gone, nothing is left to cascade to) */
        int rc = cascade_columns(s, &wide, cb, err);
        if (!rc) rc = db_exec_domain(s, sql, &wide, cb, err);
        for (int i = 0; i < n; i++) free(names[i]);
        free(names);
        return rc;
    }
    db_write_lock(s);
    int rc;
    bool skipped = false;
    const char *tag = "ALTER DOMAIN";
    switch (st->u.type_stmt.action) {
    case 'C': rc = create_domain(s, sql, st, err); tag = "CREATE DOMAIN"; break;
    case 'D': rc = drop_domains(s, st, cb, err); tag = "DROP DOMAIN"; break;
    default: rc = alter_domain(s, sql, st, cb, &skipped, err); break;
    }
    if (!rc && !skipped && s->db->data_dir) rc = db_txn_touch_comments(s, err);
    pthread_rwlock_unlock(&s->db->lock);
    if (rc) return rc;
    return db_deliver_tag(cb, tag, err) ? -2 : 0;
}
