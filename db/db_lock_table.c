/*
 * db_lock_table.c - LOCK [TABLE] [ONLY] t, ... [IN mode MODE] [NOWAIT].
 *
 * PostgreSQL's eight table lock modes onto attu's locks (db_lock.c), the
 * conservative way:
 *
 *   ACCESS SHARE, ROW SHARE: nothing to take (attu's readers never wait,
 *   and these modes conflict only with EXCLUSIVE / ACCESS EXCLUSIVE);
 *
 *   ROW EXCLUSIVE and stronger: the table's write lock until the block
 *   ends, as the block's first change of the table would take it: other
 *   writers of the table wait (PostgreSQL's SHARE ROW EXCLUSIVE and
 *   EXCLUSIVE; for ROW EXCLUSIVE and SHARE UPDATE EXCLUSIVE more than
 *   PostgreSQL, whose writers of the table would go on). ACCESS
 *   EXCLUSIVE takes the same: attu's readers still read (PostgreSQL's
 *   would wait).
 *
 * A view is locked as PostgreSQL 15 locks one (LockViewRecurse): the view
 * itself, then every table and view its query names (in joins,
 * subqueries, CTEs: the dependencies CREATE VIEW recorded), a view's in
 * turn, each once, in the same mode; a materialized view it reads is left
 * alone, as there. The view's own lock keeps another LOCK of it waiting
 * and is pg_locks' row for it; its tables' locks keep their writers
 * waiting, through the view or not.
 *
 * NOWAIT fails at once (55P03) where a lock would wait, naming the
 * relation. A temporary table or view is the session's own: nothing to
 * lock (a temporary view's shared tables are locked). A materialized
 * view is 42809, as in PostgreSQL.
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The relations to lock, each once, in order. */
typedef struct lock_list {
    char (*names)[ATTU_NAME_MAX + 1];
    int    n, cap;
} lock_list;

static bool list_has(const lock_list *l, const char *name) {
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->names[i], name)) return true;
    return false;
}

/* Adds name unless there: 1 added, 0 there already, -1 out of memory. */
static int list_add(lock_list *l, const char *name) {
    if (list_has(l, name)) return 0;
    if (l->n == l->cap) {
        int nc = l->cap ? l->cap * 2 : 8;
        char (*nn)[ATTU_NAME_MAX + 1] = realloc(l->names, sizeof *nn * (size_t)nc);
        if (!nn) return -1;
        l->names = nn;
        l->cap = nc;
    }
    snprintf(l->names[l->n++], ATTU_NAME_MAX + 1, "%s", name);
    return 1;
}

typedef struct named { lock_list *l; bool oom; } named;

static void on_relation(void *ctx, const char *name) {
    named *n = ctx;
    if (list_add(n->l, name) < 0) n->oom = true;
}

/* The relations v's query names itself (not those of the views it reads),
 * found by binding it, analysed only, as CREATE VIEW found them: the
 * catalog as it is now, temporary relations too (a view's recorded
 * dependencies leave out a temporary view's shared tables). A query that
 * no longer binds gives its recorded dependencies. */
static int view_names(attu_session *s, const attu_view *v, lock_list *out, attu_error *err) {
    named n = { out, false };
    attu_error e;
    attu_error_clear(&e);
    attu_parse_result *pr = attu_parse(v->sql, &e);
    attu_plan_arena *pa = attu_plan_arena_new();
    bool bound = false;
    if (pr && pa && pr->n == 1 && pr->stmts[0].stmt->kind == ATTU_STMT_SELECT) {
        attu_bind_params bp = db_describe_params(s, NULL, true);
        bp.on_relation = on_relation;
        bp.relation_ctx = &n;
        bound = attu_bind_query(pa, db_cat(s), v->sql, pr->stmts[0].stmt->u.select.query, &bp, &e) != NULL;
    }
    attu_plan_arena_free(pa);
    attu_parse_free(pr);
    for (int i = 0; !bound && i < v->ndeps; i++) on_relation(&n, v->deps[i]);
    return n.oom ? attu_error_oom(err) : 0;
}

/* The relations view v's query names, and theirs (under the db's read
 * lock), into l: tables and views, not materialized views, not the
 * session's temporary tables. */
static int add_view_relations(attu_session *s, const attu_view *v, lock_list *l, int depth, attu_error *err) {
    lock_list names = { 0 };
    int rc = depth > 64 ? 0 : view_names(s, v, &names, err);   /* (attu refuses a view that reads itself) */
    for (int i = 0; !rc && i < names.n; i++) {
        const char *d = names.names[i];
        if (db_temp_has(s, d)) continue;   /* (the session's own) */
        const attu_view *dv = attu_views_find(attu_catalog_views(db_cat(s)), d);
        if (dv && dv->kind != 'v') continue;   /* (a materialized view: PostgreSQL leaves it) */
        if (!dv && !attu_catalog_lookup(db_cat(s), d)) continue;
        /* (a temporary view takes no lock of its own: only its tables') */
        int added = dv && attu_catalog_view_is_top(db_cat(s), dv) ? 1 : list_add(l, d);
        if (added < 0) rc = attu_error_oom(err);
        else if (added && dv) rc = add_view_relations(s, dv, l, depth + 1, err);
    }
    free(names.names);
    return rc;
}

int db_exec_lock_table(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    if (s->txn == 'I') return attu_error_set(err, "25P01", 0, "LOCK TABLE can only be used in transaction blocks");
    const attu_ast_name_list *names = &st->u.lock.tables;
    lock_list take = { 0 };
    int rc = 0;
    /* every name first (42P01 before anything is locked) */
    for (int i = 0; i < names->n && !rc; i++) {
        const char *name = names->items[i];
        int pos = names->positions ? names->positions[i] : st->position;
        if (db_temp_has(s, name)) continue;
        pthread_rwlock_rdlock(&s->db->lock);
        const attu_table *t = attu_catalog_lookup(db_cat(s), name);
        const attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), name);
        bool seq = !t && !v && db_sequence_exists(s, name);
        if (v && v->kind == 'm') {
            rc = attu_error_set(err, "42809", 0, "cannot lock relation \"%s\"", name);
            attu_error_set_detail(err, "This operation is not supported for materialized views.");
        } else if (t || v) {
            bool own = v && attu_catalog_view_is_top(db_cat(s), v);   /* (a temporary view's lock: none) */
            if (!own && list_add(&take, t ? t->name : v->name) < 0) rc = attu_error_oom(err);
            else if (v) rc = add_view_relations(s, v, &take, 0, err);
        }
        pthread_rwlock_unlock(&s->db->lock);
        if (rc || t || v) continue;
        if (seq) {
            rc = attu_error_set(err, "42809", 0, "cannot lock relation \"%s\"", name);
            attu_error_set_detail(err, "This operation is not supported for sequences.");
        } else rc = attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, pos, "relation \"%s\" does not exist", name);
    }
    /* ROW EXCLUSIVE (3) and stronger: the tables' write locks */
    if (!rc && take.n && st->u.lock.mode >= 3)
        rc = db_txn_lock_tables(s, take.names, take.n, st->u.lock.mode, st->u.lock.nowait, err);
    free(take.names);
    if (rc) return -1;
    return db_deliver_tag(cb, "LOCK TABLE", err) ? -2 : 0;
}
