/*
 * db_lock_stmt.c - which tables a statement that writes changes, for
 * their write locks (db_lock.c, taken by db_txn_lock_stmt before it
 * runs).
 *
 * INSERT (ON CONFLICT's target is its table), UPDATE, DELETE, COPY FROM
 * and TRUNCATE change the tables they name; through a view, its relation
 * (the view rewritten as db_view_update.c runs it, each level). A table
 * with foreign keys brings every table its keys connect it to, both
 * ways, as far as they go: the referencing tables' ON DELETE / ON UPDATE
 * actions change them, and a referenced table's rows must stay while
 * another transaction adds rows that need them (PostgreSQL's FOR KEY
 * SHARE row locks; here the table's write lock, coarser).
 *
 * Everything else that writes (DDL, SELECT ... FOR UPDATE, COMMENT,
 * REFRESH MATERIALIZED VIEW) takes the whole database: -1. Temporary
 * tables are the session's own and take no lock.
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <string.h>

typedef struct lock_set {
    char (*names)[ATTU_NAME_MAX + 1];
    int    n, cap;
    bool   all;   /* the whole database */
} lock_set;

static bool set_has(const lock_set *ls, const char *name) {
    for (int i = 0; i < ls->n; i++)
        if (!strcmp(ls->names[i], name)) return true;
    return false;
}

static void set_add(lock_set *ls, const char *name) {
    if (set_has(ls, name)) return;
    if (ls->n == ls->cap || strlen(name) > ATTU_NAME_MAX) { ls->all = true; return; }
    snprintf(ls->names[ls->n++], ATTU_NAME_MAX + 1, "%s", name);
}

/* A table st names as its target: by the catalog's name for it (a
 * temporary table: none needed). */
static void add_target(attu_session *s, lock_set *ls, const char *name) {
    if (!name) { ls->all = true; return; }
    if (db_temp_has(s, name)) return;
    pthread_rwlock_rdlock(&s->db->lock);
    const attu_table *t = attu_catalog_lookup(db_cat(s), name);
    char canon[ATTU_NAME_MAX + 1];
    snprintf(canon, sizeof canon, "%s", t ? t->name : name);
    pthread_rwlock_unlock(&s->db->lock);
    set_add(ls, canon);
}

/* Every table the set's foreign keys connect to its tables, until none
 * is added. */
static void add_fkey_closure(attu_session *s, lock_set *ls) {
    pthread_rwlock_rdlock(&s->db->lock);
    const attu_catalog *cat = s->work ? s->work : s->snap ? s->snap : s->db->cat;
    size_t count = attu_catalog_count(cat);
    for (int i = 0; i < ls->n && !ls->all; i++) {
        /* (the tables it references) */
        int nf = 0;
        const attu_fkey *f = attu_catalog_fkeys(cat, ls->names[i], &nf);
        for (int k = 0; k < nf; k++) set_add(ls, f[k].ref_table);
        /* (the tables that reference it) */
        for (size_t j = 0; j < count && !ls->all; j++) {
            const attu_table *t = attu_catalog_at(cat, j);
            int no = 0;
            const attu_fkey *o = attu_catalog_fkeys(cat, t->name, &no);
            for (int k = 0; k < no; k++)
                if (!strcmp(o[k].ref_table, ls->names[i])) { set_add(ls, t->name); break; }
        }
    }
    pthread_rwlock_unlock(&s->db->lock);
}

static void add_stmt(attu_session *s, lock_set *ls, const attu_ast_stmt *st, int depth) {
    switch (st->kind) {
    case ATTU_STMT_EXPLAIN: add_stmt(s, ls, st->u.explain.stmt, depth); return;
    case ATTU_STMT_INSERT: case ATTU_STMT_UPDATE: case ATTU_STMT_DELETE: {
        const char *name = st->kind == ATTU_STMT_INSERT ? st->u.insert.table : st->u.modify.table;
        if (name && db_names_view(s, name)) {
            /* through the view: its relation, one level at a time */
            db_view_rewrite rw;
            const attu_ast_stmt *inner = NULL;
            attu_error e;
            attu_error_clear(&e);
            if (depth < 32 && !db_view_rewrite_dml(s, st, &rw, &inner, &e) && inner) add_stmt(s, ls, inner, depth + 1);
            else ls->all = true;   /* (the statement's own error comes when it runs) */
            db_view_rewrite_free(&rw);
            return;
        }
        add_target(s, ls, name);
        return;
    }
    case ATTU_STMT_COPY:
        if (st->u.copy.is_from) add_target(s, ls, st->u.copy.table);
        else ls->all = true;
        return;
    case ATTU_STMT_TRUNCATE:
        for (int i = 0; i < st->u.truncate.tables.n; i++) add_target(s, ls, st->u.truncate.tables.items[i]);
        return;
    default: ls->all = true; return;
    }
}

int db_lock_stmt_tables(attu_session *s, const attu_ast_stmt *st, char (*names)[ATTU_NAME_MAX + 1], int cap) {
    lock_set ls = { names, 0, cap, false };
    add_stmt(s, &ls, st, 0);
    if (!ls.all) add_fkey_closure(s, &ls);
    return ls.all ? -1 : ls.n;
}
