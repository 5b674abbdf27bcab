/*
 * db_temp.c - temporary tables: CREATE {TEMP | TEMPORARY} TABLE, CREATE
 * TEMP TABLE ... AS, SELECT ... INTO TEMP, ON COMMIT; temporary views.
 *
 * A session's temporary relations live in a catalog of its own (struct
 * db_temp), never in the catalog the sessions share: no other session can
 * see them, another may make its own of the same names, nothing of them
 * reaches the data directory (db_txn_touch leaves them out) and they go
 * when the session ends. Once the session has one, db_cat(s) answers a
 * layered catalog (engine/catalog.h, attu_catalog_layer_new) that looks in
 * the session's temporary catalog first, then in the shared one: pg_temp
 * comes first in PostgreSQL's search path, so a temporary table shadows a
 * permanent one of its name for its session (SELECT, INSERT, DROP TABLE
 * and the rest reach the temporary one), but public.t is the permanent
 * one and pg_temp.t the temporary one in every statement: the grammar
 * keeps how a statement named its relations (ATTU_REL_*, planner/ast.h),
 * db_temp_stmt_mode turns that into the layer's mode for the statement,
 * and the layer's one lookup follows it (engine/catalog.c,
 * attu_catalog_lookup, which states the rule).
 *
 * Transactions: like the shared catalog, the temporary one has a
 * committed version (cat) and, while a transaction writes, a working copy
 * (work; tables shared, not copied) that COMMIT keeps and ROLLBACK throws
 * away, so a temporary table's creation and changes roll back with their
 * block; savepoints keep copies of it too (db_txn.c calls the
 * db_temp_txn_* hooks). A statement that writes only temporary tables
 * takes no table lock (db_lock_stmt.c), but its transaction's working
 * catalog and the database's lock shared like any writer (its working
 * copy begins with the transaction's); their DDL takes the database's
 * exclusive lock as any DDL.
 *
 * ON COMMIT DELETE ROWS / DROP act when a transaction commits (also the
 * implicit one of a statement outside a block), on the working copy just
 * before it becomes the committed one.
 *
 * A statement runs through db_temp_exec_stmt once the session has a
 * temporary catalog or the statement makes one: CREATE TEMP puts its
 * table in the temporary catalog (the layer's TOP mode), CREATE TABLE of
 * a permanent one in the shared one (BASE mode, even when a temporary
 * table of that name exists, as PostgreSQL's schemas allow), a statement
 * on a temporary relation works in the temporary catalog (TOP mode: its
 * rename, the views depending on it), and a FOREIGN KEY between the two
 * kinds is refused first (42P16). Views live in the same two layers
 * (engine/view.h): CREATE TEMP VIEW makes a temporary one, and a view
 * whose query reads a temporary relation moves there once made, with
 * PostgreSQL's NOTICE.
 */
#include "db/db_internal.h"
#include "db/db_unique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/table_rewrite.h"

typedef struct db_temp_on_commit { char *name; char action; } db_temp_on_commit;

struct db_temp {
    attu_catalog      *cat;     /* the committed temporary relations */
    attu_catalog      *work;    /* the writing transaction's copy; NULL: none */
    db_temp_on_commit *oc;      /* ON COMMIT DELETE ROWS ('d') / DROP ('D') tables */
    int                noc, capoc;
    bool               busy;    /* inside db_temp_exec_stmt */
    bool               creating;   /* (its statement makes a temporary table) */
    bool               scope_temp; /* (its statement works on temporary tables: db_temp_scope) */
    int                number;  /* N of pg_temp_N */
    bool               view_reads_temp;   /* (its CREATE VIEW's query reads a temporary relation) */
    const attu_ast_stmt *running;  /* (the statement inside it) */
};

/* pg_temp_N: one N per session that makes a temporary table (PostgreSQL's
 * is the backend's slot; only its being the session's own matters) */
static int temp_numbers = 2;

static db_temp *temp_state(attu_session *s, attu_error *err) {
    if (s->temp) return s->temp;
    db_temp *t = calloc(1, sizeof *t);
    if (!t || !(t->cat = attu_catalog_new())) {
        free(t);
        attu_error_oom(err);
        return NULL;
    }
    t->number = __atomic_add_fetch(&temp_numbers, 1, __ATOMIC_SEQ_CST);
    char schema[32];
    snprintf(schema, sizeof schema, "pg_temp_%d", t->number);
    /* (the namespace's oid: above the catalogs', below the tables') */
    s->temp_layer = attu_catalog_layer_new(&t->work, &t->cat, &s->work, &s->snap, &s->db->cat, schema,
                                           (unsigned)(16000 + t->number % 300));
    if (!s->temp_layer) {
        attu_catalog_free(t->cat);
        free(t);
        attu_error_oom(err);
        return NULL;
    }
    s->temp = t;
    /* a transaction already writing: the new catalog joins it */
    if (s->work && !(t->work = attu_catalog_clone(t->cat))) {
        attu_error_oom(err);
        return NULL;
    }
    return t;
}

void db_temp_view_reads(attu_session *s, bool temp) {
    if (s->temp) s->temp->view_reads_temp = temp;
}

bool db_temp_creating(const attu_session *s) { return s->temp && s->temp->busy && s->temp->creating; }

bool db_temp_scope(const attu_session *s, const char *table) {
    return s->temp && (s->temp->scope_temp || attu_catalog_top_has(s->temp_layer, table));
}

bool db_temp_has(const attu_session *s, const char *name) {
    return s->temp && attu_catalog_top_has(s->temp_layer, name);
}

/* ---- transactions ---------------------------------------------------------------------- */

int db_temp_txn_begin(attu_session *s) {
    db_temp *t = s->temp;
    if (!t || t->work) return 0;
    return (t->work = attu_catalog_clone(t->cat)) ? 0 : -1;
}

void db_temp_txn_rollback(attu_session *s) {
    db_temp *t = s->temp;
    if (!t || !t->work) return;
    db_unique_rollback_catalog(t->work, t->cat);   /* (the key sets back: db_txn_rollback's) */
    attu_catalog_free(t->work);
    t->work = NULL;
}

/* The temporary views of cat that read relation name go (ON COMMIT DROP
 * drops with CASCADE, as PostgreSQL's does; DISCARD TEMP drops them all:
 * name NULL). */
static void drop_views(attu_catalog *cat, const char *name) {
    attu_views *vs = attu_catalog_views(cat);
    for (size_t i = attu_views_count(vs); i-- > 0;) {
        const attu_view *v = attu_views_at(vs, i);
        if (!name || attu_view_reads(v, name)) attu_view_free(attu_views_remove(vs, v->name));
    }
}

/* ON COMMIT's actions on the working copy: DROP's tables go, DELETE
 * ROWS's are emptied; entries whose table is gone (rolled back, dropped,
 * renamed) are forgotten. */
static void on_commit_actions(attu_session *s, attu_catalog *cat) {
    db_temp *t = s->temp;
    int keep = 0;
    for (int i = 0; i < t->noc; i++) {
        db_temp_on_commit *o = &t->oc[i];
        attu_table *tb = attu_catalog_lookup(cat, o->name);
        if (tb && o->action == 'D') {
            attu_error e;
            attu_error_clear(&e);
            t->scope_temp = true;
            db_sequences_drop_owned(s, o->name, &e);
            t->scope_temp = false;
            attu_table_free(attu_catalog_remove(cat, o->name, true, NULL));
            drop_views(cat, o->name);
            tb = NULL;
        } else if (tb && o->action == 'd' && tb->nrows > 0) {
            attu_error e;
            attu_error_clear(&e);
            attu_table *empty = attu_table_truncated(tb, &e);
            if (empty) attu_table_free(attu_catalog_replace(cat, empty));
        }
        if (tb) t->oc[keep++] = *o;
        else free(o->name);
    }
    t->noc = keep;
}

void db_temp_txn_precommit(attu_session *s) {
    if (s->temp && s->temp->work) on_commit_actions(s, s->temp->work);
}

void db_temp_txn_commit(attu_session *s) {
    db_temp *t = s->temp;
    if (!t || !t->work) return;
    /* (the undo logs of the key sets of what it changed go: db_txn_commit's) */
    db_unique_forget_changed(t->work, t->cat);
    attu_catalog_free(t->cat);
    t->cat = t->work;
    t->work = NULL;
}

attu_catalog *db_temp_savepoint_take(attu_session *s) {
    db_temp *t = s->temp;
    return t && t->work ? attu_catalog_clone(t->work) : NULL;
}

int db_temp_savepoint_restore(attu_session *s, const attu_catalog *kept) {
    db_temp *t = s->temp;
    if (!t) return 0;
    attu_catalog *c = kept ? attu_catalog_clone(kept) : attu_catalog_clone(t->cat);
    if (!c) return -1;
    db_unique_rollback_catalog(t->work, c);
    attu_catalog_free(t->work);
    t->work = c;
    return 0;
}

/* ---- the session's end ------------------------------------------------------------------ */

void db_temp_session_end(attu_session *s) {
    db_temp *t = s->temp;
    if (!t) return;
    /* serial columns' sequences live with the shared ones: DROP TABLE
     * takes them along, as a transaction of its own */
    for (size_t i = attu_catalog_count(t->cat); i-- > 0;) {
        const attu_table *tb = attu_catalog_at(t->cat, i);
        bool serial = false;
        for (int c = 0; c < tb->ncols && !serial; c++) {
            const char *d = attu_catalog_default(t->cat, tb->name, c);
            serial = d && strstr(d, "nextval(");
        }
        if (!serial) continue;
        attu_error e;
        attu_error_clear(&e);
        if (db_txn_begin_write(s, &e) == 0) {
            t->scope_temp = true;
            db_sequences_drop_owned(s, tb->name, &e);
            t->scope_temp = false;
            attu_error_clear(&e);
            db_txn_commit(s, &e);
        }
    }
    /* its temporary sequences (CREATE TEMP SEQUENCE) go the same way */
    if (db_sequences_has_temp(s)) {
        attu_error e;
        attu_error_clear(&e);
        if (db_txn_begin_write(s, &e) == 0) {
            db_sequences_drop_temp(s, &e);
            attu_error_clear(&e);
            db_txn_commit(s, &e);
        }
    }
    attu_catalog_free(s->temp_layer);
    s->temp_layer = NULL;
    attu_catalog_free(t->work);
    attu_catalog_free(t->cat);   /* (frees the versions, device copies with them) */
    for (int i = 0; i < t->noc; i++) free(t->oc[i].name);
    free(t->oc);
    free(t);
    s->temp = NULL;
}

/* DISCARD TEMP / DISCARD ALL: every temporary table goes, as a change of
 * the transaction. */
int db_temp_discard(attu_session *s, attu_error *err) {
    db_temp *t = s->temp;
    attu_catalog *now = t ? (t->work ? t->work : t->cat) : NULL;
    if (!t || (attu_catalog_count(now) == 0 && attu_views_count(attu_catalog_views(now)) == 0 && !db_sequences_has_temp(s)))
        return 0;
    if (db_txn_begin_write(s, err)) return -1;
    if (db_temp_txn_begin(s)) return attu_error_oom(err);
    for (size_t i = attu_catalog_count(t->work); i-- > 0;) {
        const attu_table *tb = attu_catalog_at(t->work, i);
        char *name = strdup(tb->name);
        if (!name) return attu_error_oom(err);
        t->scope_temp = true;
        db_sequences_drop_owned(s, name, err);
        t->scope_temp = false;
        attu_table_free(attu_catalog_remove(t->work, name, true, NULL));
        free(name);
    }
    drop_views(t->work, NULL);
    return db_sequences_drop_temp(s, err);
}

/* ---- statements ------------------------------------------------------------------------- */

static int note_on_commit(db_temp *t, const char *name, char action, attu_error *err) {
    for (int i = 0; i < t->noc; i++)
        if (!strcmp(t->oc[i].name, name)) {
            t->oc[i].action = action;
            return 0;
        }
    if (t->noc == t->capoc) {
        int nc = t->capoc ? t->capoc * 2 : 4;
        db_temp_on_commit *n = realloc(t->oc, sizeof *n * (size_t)nc);
        if (!n) return attu_error_oom(err);
        t->oc = n;
        t->capoc = nc;
    }
    if (!(t->oc[t->noc].name = strdup(name))) return attu_error_oom(err);
    t->oc[t->noc++].action = action;
    return 0;
}

/* The layer's side of a relation named so (ATTU_REL_*) */
static int side_mode(char schema) {
    return schema == ATTU_REL_TEMP ? ATTU_LAYER_TOP : schema == ATTU_REL_PUBLIC ? ATTU_LAYER_BASE : ATTU_LAYER_AUTO;
}

/* A FOREIGN KEY between a temporary and a permanent table: PostgreSQL's
 * 42P16, before anything else about the key is checked. temp: whether
 * the referencing table is temporary; self: its name (a key may
 * reference its own table). */
static int check_fkey(attu_session *s, const attu_ast_unique_def *u, bool temp, const char *self, attu_error *err) {
    if (!u->fkey || !u->fkey->ref_table || (!u->fkey->ref_schema && !strcmp(u->fkey->ref_table, self))) return 0;
    attu_catalog *cat = db_cat(s);
    /* (REFERENCES public.t, pg_temp.t: that side's t, whatever hides it) */
    char rs = u->fkey->ref_schema;
    const attu_table *r = attu_catalog_lookup_side(cat, u->fkey->ref_table, side_mode(rs));
    if (!r && rs == ATTU_REL_TEMP)
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, u->fkey->ref_position, "relation \"pg_temp.%s\" does not exist",
                              u->fkey->ref_table);
    if (!r || attu_catalog_is_top(cat, r) == temp) return 0;
    return attu_error_set(err, "42P16", 0,
                          temp ? "constraints on temporary tables may reference only temporary tables"
                               : "constraints on permanent tables may reference only permanent tables");
}

static int check_fkeys(attu_session *s, const attu_ast_stmt *st, bool temp, attu_error *err) {
    if (st->kind == ATTU_STMT_CREATE_TABLE) {
        for (int i = 0; i < st->u.create_table.nuniques; i++)
            if (check_fkey(s, &st->u.create_table.uniques[i], temp, st->u.create_table.table, err)) return -1;
        for (int c = 0; c < st->u.create_table.ncolumns; c++) {
            const attu_ast_column_def *cd = &st->u.create_table.columns[c];
            for (int i = 0; i < cd->nuniques; i++)
                if (check_fkey(s, &cd->uniques[i], temp, st->u.create_table.table, err)) return -1;
        }
    } else if (st->kind == ATTU_STMT_ALTER_TABLE && !st->u.alter_table.view && !st->u.alter_table.sequence) {
        bool t = db_temp_has(s, st->u.alter_table.table);
        for (int k = 0; k < st->u.alter_table.ncmds; k++) {
            const attu_ast_alter_cmd *c = &st->u.alter_table.cmds[k];
            if (c->key && check_fkey(s, c->key, t, st->u.alter_table.table, err)) return -1;
            for (int i = 0; i < c->def.nuniques; i++)
                if (check_fkey(s, &c->def.uniques[i], t, st->u.alter_table.table, err)) return -1;
        }
    }
    return 0;
}

/* Whether name is one of the session's temporary relations (a table or
 * a view) */
static bool temp_relation(attu_session *s, const char *name) {
    attu_catalog *cat = db_cat(s);
    return db_temp_has(s, name) || attu_catalog_view_is_top(cat, attu_views_find(attu_catalog_views(cat), name));
}

/* A view over a temporary relation is temporary (moved into the session's
 * catalog, with PostgreSQL's NOTICE); a materialized one is refused (the
 * view made goes with the statement's transaction). */
static int check_view(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    attu_catalog *cat = db_cat(s);
    attu_views *vs = attu_catalog_views(cat);
    const char *name = st->u.create_view.view;
    const attu_view *v = attu_views_find(vs, name);
    if (!v || attu_catalog_view_is_top(cat, v)) return 0;
    /* (as its query's names resolved: public.t is the permanent t even
     * where a temporary t hides it) */
    if (!s->temp->view_reads_temp) return 0;
    if (st->u.create_view.materialized)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "materialized views must not use temporary tables or views");
    int old = attu_catalog_layer_mode(s->temp_layer, ATTU_LAYER_BASE);
    attu_view *moved = attu_views_remove(vs, name);
    attu_catalog_layer_mode(s->temp_layer, ATTU_LAYER_TOP);
    attu_view *gone = NULL;
    int rc = moved ? attu_views_put(vs, moved, &gone) : 0;
    attu_catalog_layer_mode(s->temp_layer, old);
    attu_view_free(gone);
    if (rc) { attu_view_free(moved); return attu_error_oom(err); }
    if (cb && cb->on_notice) {
        char msg[200];
        snprintf(msg, sizeof msg, "view \"%s\" will be a temporary view", name);
        cb->on_notice(cb->ctx, "00000", msg);
    }
    /* (CREATE VIEW public.v: the schema says permanent; the statement
     * undoes the view) */
    if (st->schema == ATTU_REL_PUBLIC)
        return attu_error_set(err, "42P16", 0, "cannot create temporary relation in non-temporary schema");
    return 0;
}

/* The relations st names in a list (DROP, TRUNCATE, LOCK), or NULL */
static const attu_ast_name_list *stmt_list(const attu_ast_stmt *st) {
    switch (st->kind) {
    case ATTU_STMT_DROP_TABLE: case ATTU_STMT_DROP_VIEW: case ATTU_STMT_DROP_INDEX: return &st->u.drop_table.tables;
    case ATTU_STMT_TRUNCATE: return &st->u.truncate.tables;
    case ATTU_STMT_LOCK: return &st->u.lock.tables;
    case ATTU_STMT_MAINTENANCE: return &st->u.maintenance.tables;
    default: return NULL;
    }
}

static bool refs_temp(const attu_ast_unique_def *u, int n) {
    for (int i = 0; i < n; i++)
        if (u[i].fkey && u[i].fkey->ref_schema == ATTU_REL_TEMP) return true;
    return false;
}

/* Whether st names a relation pg_temp.x (its subject, one of its list, a
 * REFERENCES) */
static bool names_temp(const attu_ast_stmt *st) {
    const attu_ast_name_list *l = stmt_list(st);
    for (int i = 0; l && l->schemas && i < l->n; i++)
        if (l->schemas[i] == ATTU_REL_TEMP) return true;
    if (st->kind == ATTU_STMT_CREATE_TABLE) {
        if (refs_temp(st->u.create_table.uniques, st->u.create_table.nuniques)) return true;
        for (int c = 0; c < st->u.create_table.ncolumns; c++)
            if (refs_temp(st->u.create_table.columns[c].uniques, st->u.create_table.columns[c].nuniques)) return true;
    } else if (st->kind == ATTU_STMT_ALTER_TABLE) {
        for (int k = 0; k < st->u.alter_table.ncmds; k++) {
            const attu_ast_alter_cmd *c = &st->u.alter_table.cmds[k];
            if ((c->key && refs_temp(c->key, 1)) || refs_temp(c->def.uniques, c->def.nuniques)) return true;
        }
    }
    return st->schema == ATTU_REL_TEMP;
}

/* pg_temp.x before the session has a temporary schema (none is made for
 * it): PostgreSQL's INSERT, UPDATE, DELETE and MERGE find no relation
 * (42P01, at the name); any other statement no schema (3F000), but where
 * IF EXISTS lets it pass by (0: on with a schema made). */
static int no_temp_schema(const attu_ast_stmt *st, attu_error *err) {
    switch (st->kind) {
    case ATTU_STMT_INSERT:
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, st->u.insert.table_position,
                              "relation \"pg_temp.%s\" does not exist", st->u.insert.table);
    case ATTU_STMT_UPDATE: case ATTU_STMT_DELETE: case ATTU_STMT_MERGE:
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, st->u.modify.table_position,
                              "relation \"pg_temp.%s\" does not exist", st->u.modify.table);
    case ATTU_STMT_DROP_TABLE: case ATTU_STMT_DROP_VIEW: case ATTU_STMT_DROP_INDEX:
        if (st->u.drop_table.if_exists) return 0;
        break;
    case ATTU_STMT_ALTER_TABLE:
        if (st->u.alter_table.if_exists) return 0;
        break;
    case ATTU_STMT_ALTER_SEQUENCE:
        if (st->u.create_sequence.if_exists) return 0;
        break;
    default: break;
    }
    return attu_error_set(err, "3F000", 0, "schema \"pg_temp\" does not exist");
}

/* Whether name is one of the session's temporary relations: a table, a
 * view, an index or constraint of a temporary table (DROP INDEX) */
static bool temp_named(attu_session *s, const char *name) {
    attu_catalog *top = attu_catalog_top(db_cat(s));
    return temp_relation(s, name) || (top && attu_catalog_constraint_owner(top, name, NULL));
}

/* The side (ATTU_LAYER_TOP, _BASE) the i-th name of list l reaches: as
 * written (public.x, pg_temp.x), or its bare name's (name_path) */
static int name_path(attu_session *s, const attu_ast_name_list *l, int i) {
    return s->temp && temp_named(s, l->items[i]) ? ATTU_LAYER_TOP : ATTU_LAYER_BASE;
}
static int name_side(attu_session *s, const attu_ast_name_list *l, int i) {
    return l->schemas && l->schemas[i] ? side_mode(l->schemas[i]) : name_path(s, l, i);
}

/* The name of the one relation st works on, or NULL */
static const char *stmt_subject(const attu_ast_stmt *st) {
    switch (st->kind) {
    case ATTU_STMT_INSERT: return st->u.insert.table;
    case ATTU_STMT_UPDATE: case ATTU_STMT_DELETE: case ATTU_STMT_MERGE: return st->u.modify.table;
    case ATTU_STMT_COPY: return st->u.copy.table;
    case ATTU_STMT_CREATE_INDEX: return st->u.create_index.table;
    case ATTU_STMT_COMMENT: return st->u.comment.object == 'f' ? NULL : st->u.comment.rel;   /* (a function: no relation) */
    default: return NULL;
    }
}

/* The layer's mode for statement st whose relations are named as written
 * (ATTU_REL_*; CREATE's own cases aside): public.t works on the shared
 * catalog alone (BASE), pg_temp.t on the temporary one alone (TOP), so
 * that every lookup of the statement's relation (and of the relations it
 * implies: a foreign key's, a view's table) stays on that side
 * (engine/catalog.c, attu_catalog_lookup); a name written bare keeps the
 * search path (AUTO: the temporary relation first). A list whose names
 * reach both sides runs AUTO when each name written qualified is the one
 * its bare name would reach; else it is DB_TEMP_SPLIT: db_temp_exec_stmt
 * runs it a side at a time (exec_split). */
int db_temp_stmt_mode(attu_session *s, const attu_ast_stmt *st) {
    const attu_ast_name_list *l = stmt_list(st);
    if (!l || !l->n) {
        const char *name = stmt_subject(st);
        if (name) {
            if (st->schema) return side_mode(st->schema);
            /* (a bare name of a permanent table: the shared side too, so
             * that what it implies by name, its foreign keys' tables, is
             * not a temporary relation of that name either) */
            return s->temp && !temp_named(s, name) ? ATTU_LAYER_BASE : ATTU_LAYER_AUTO;
        }
        /* (ALTER, REFRESH, CREATE VIEW: as written; ALTER of a bare name
         * below) */
        return side_mode(st->schema);
    }
    int mode = -1;
    bool agree = true;   /* (each qualified name is what its bare name finds) */
    for (int i = 0; i < l->n; i++) {
        int path = name_path(s, l, i), want = name_side(s, l, i);
        if (want != path) agree = false;
        mode = mode < 0 || mode == want ? want : ATTU_LAYER_AUTO;
    }
    /* (all temporary: their side alone, so that what depends on them is
     * the temporary views only; all shared: that side too (an index's
     * table, a truncated table's keys are looked for by name), but DROP
     * TABLE / VIEW of names no temporary relation hides keep the search
     * path, so that a temporary view reading one depends on it) */
    if (mode == ATTU_LAYER_BASE && agree && (st->kind == ATTU_STMT_DROP_TABLE || st->kind == ATTU_STMT_DROP_VIEW))
        return ATTU_LAYER_AUTO;
    if (mode != ATTU_LAYER_AUTO) return mode;
    return agree ? ATTU_LAYER_AUTO : DB_TEMP_SPLIT;
}

/* PostgreSQL names a missing relation as the statement wrote it
 * (relation "public.t" does not exist): the db layer's message, which
 * knows the name alone, takes the schema of st's relation of that name */
static void name_as_written(const attu_ast_stmt *st, attu_error *err) {
    if (strcmp(err->sqlstate, ATTU_SQLSTATE_UNDEFINED_TABLE) || strncmp(err->message, "relation \"", 10)) return;
    const attu_ast_name_list *l = stmt_list(st);
    const char *name = l ? NULL
                     : st->kind == ATTU_STMT_ALTER_TABLE ? st->u.alter_table.table
                     : st->kind == ATTU_STMT_REFRESH_MATVIEW && st->u.drop_table.tables.n ? st->u.drop_table.tables.items[0]
                     : stmt_subject(st);
    char schema = st->schema;
    for (int i = 0; l && l->schemas && i < l->n && !name; i++) {
        char want[ATTU_NAME_MAX + 40];
        snprintf(want, sizeof want, "relation \"%s\" does not exist", l->items[i]);
        if (l->schemas[i] && !strcmp(err->message, want)) { name = l->items[i]; schema = l->schemas[i]; }
    }
    if (!name || !schema) return;
    char was[ATTU_NAME_MAX + 40];
    snprintf(was, sizeof was, "relation \"%s\" does not exist", name);
    if (strcmp(err->message, was)) return;
    snprintf(err->message, sizeof err->message, "relation \"%s.%s\" does not exist",
             schema == ATTU_REL_TEMP ? "pg_temp" : "public", name);
}

/* A list whose names reach both sides otherwise than their bare names
 * would (TRUNCATE public.t, pg_temp.u where a temporary t exists): a
 * statement per run of names of one side, each in that side's mode
 * (their names marked as qualified: the side was decided before any ran),
 * all in the statement's transaction, so that an error in any undoes
 * them all; the command's tag comes once, from the last. */
static int exec_split(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                      const attu_exec_callbacks *cb, attu_error *err) {
    const attu_ast_name_list *l = stmt_list(st);
    char *sides = malloc((size_t)l->n + 1);
    if (!sides) return attu_error_oom(err);
    for (int i = 0; i < l->n; i++) sides[i] = name_side(s, l, i) == ATTU_LAYER_TOP ? ATTU_REL_TEMP : ATTU_REL_PUBLIC;
    attu_exec_callbacks quiet;
    memset(&quiet, 0, sizeof quiet);
    if (cb) { quiet = *cb; quiet.on_result = NULL; }
    int rc = 0;
    for (int i = 0, j; !rc && i < l->n; i = j) {
        for (j = i + 1; j < l->n && sides[j] == sides[i]; j++) {}
        attu_ast_stmt part = *st;
        attu_ast_name_list *pl = (attu_ast_name_list *)stmt_list(&part);
        pl->items = l->items + i;
        pl->positions = l->positions ? l->positions + i : NULL;
        pl->schemas = sides + i;
        pl->n = j - i;
        rc = db_temp_exec_stmt(s, sql, &part, params, j == l->n ? cb : &quiet, err);
    }
    free(sides);
    return rc;
}

bool db_temp_stmt_wants(const attu_session *s, const attu_ast_stmt *st) {
    /* (a change that another statement runs, EXECUTE's, EXPLAIN
     * ANALYZE's, a view's rewritten onto its table, takes the side its
     * own names say) */
    if (s->temp)
        return !s->temp->busy ||
               (st != s->temp->running && (st->kind == ATTU_STMT_INSERT || st->kind == ATTU_STMT_UPDATE ||
                                           st->kind == ATTU_STMT_DELETE || st->kind == ATTU_STMT_MERGE));
    return (st->kind == ATTU_STMT_CREATE_TABLE && st->u.create_table.temp) ||
           (st->kind == ATTU_STMT_CREATE_TABLE_AS && st->u.create_table_as.temp) ||
           (st->kind == ATTU_STMT_CREATE_VIEW && st->u.create_view.temp && !st->u.create_view.materialized) ||
           (st->kind == ATTU_STMT_CREATE_SEQUENCE && st->u.create_sequence.temp) ||
           names_temp(st);   /* (pg_temp.t: the session's schema, empty till now) */
}

int db_temp_exec_stmt(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                      const attu_exec_callbacks *cb, attu_error *err) {
    bool temp = (st->kind == ATTU_STMT_CREATE_TABLE && st->u.create_table.temp) ||
                (st->kind == ATTU_STMT_CREATE_TABLE_AS && st->u.create_table_as.temp) ||
                (st->kind == ATTU_STMT_CREATE_VIEW && st->u.create_view.temp && !st->u.create_view.materialized) ||
                (st->kind == ATTU_STMT_CREATE_SEQUENCE && st->u.create_sequence.temp);
    char on_commit = st->kind == ATTU_STMT_CREATE_TABLE ? st->u.create_table.on_commit
                   : st->kind == ATTU_STMT_CREATE_TABLE_AS ? st->u.create_table_as.on_commit : 0;
    if (!s->temp && !temp && names_temp(st) && no_temp_schema(st, err)) return -1;
    db_temp *t = temp || names_temp(st) ? temp_state(s, err) : s->temp;
    if (!t) return -1;
    int mode = db_temp_stmt_mode(s, st);
    if (mode == DB_TEMP_SPLIT) return exec_split(s, sql, st, params, cb, err);
    if (st->kind == ATTU_STMT_CREATE_TABLE || st->kind == ATTU_STMT_CREATE_TABLE_AS || st->kind == ATTU_STMT_CREATE_SEQUENCE)
        mode = temp ? ATTU_LAYER_TOP : ATTU_LAYER_BASE;
    else if (st->kind == ATTU_STMT_CREATE_VIEW && temp)
        mode = ATTU_LAYER_TOP;
    else if (mode != ATTU_LAYER_AUTO)
        ;   /* (public.t, pg_temp.t) */
    else if (st->kind == ATTU_STMT_ALTER_TABLE)
        /* (RENAME re-adds the table: it stays on its side, where alone its
         * new name must be free; a permanent table's foreign keys are to
         * permanent tables) */
        mode = temp_relation(s, st->u.alter_table.table) ? ATTU_LAYER_TOP : ATTU_LAYER_BASE;
    if (check_fkeys(s, st, temp, err)) return -1;
    /* DISCARD TEMP, DISCARD ALL (outside a block: else its 25001 below)
     * drop every temporary table */
    if (st->kind == ATTU_STMT_DISCARD &&
        (st->u.discard.what == ATTU_DISCARD_TEMP ||
         (st->u.discard.what == ATTU_DISCARD_ALL && s->txn == 'I' && !s->implicit_block)) &&
        db_temp_discard(s, err))
        return -1;
    int old = attu_catalog_layer_mode(s->temp_layer, mode);
    db_temp outer = *t;   /* (a statement inside another: the outer's state back after it) */
    t->busy = true;
    t->running = st;
    t->creating = temp;
    t->view_reads_temp = false;
    /* (a statement on a temporary table works on its sequences: the table
     * may be gone or renamed before they are looked for) */
    t->scope_temp = temp || mode == ATTU_LAYER_TOP ||
                    (mode == ATTU_LAYER_AUTO && st->kind == ATTU_STMT_DROP_TABLE && st->u.drop_table.tables.n &&
                     db_temp_has(s, st->u.drop_table.tables.items[0]));
    int rc = db_exec_stmt(s, sql, st, params, cb, err);
    if (rc == -1) name_as_written(st, err);
    t = s->temp;   /* (still the session's: only its end frees it) */
    bool reads_temp = t->view_reads_temp;
    t->busy = outer.busy;
    t->running = outer.running;
    t->creating = outer.creating;
    t->scope_temp = outer.scope_temp;
    t->view_reads_temp = outer.busy ? outer.view_reads_temp : reads_temp;
    attu_catalog_layer_mode(s->temp_layer, old);
    if (!rc && st->kind == ATTU_STMT_CREATE_VIEW) rc = check_view(s, st, cb, err);
    if (!rc && temp && on_commit && on_commit != 'p') {
        const char *tn = st->kind == ATTU_STMT_CREATE_TABLE ? st->u.create_table.table : st->u.create_table_as.table;
        rc = note_on_commit(t, tn, on_commit, err);
    }
    return rc;
}
