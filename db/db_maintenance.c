/*
 * db_maintenance.c - VACUUM, ANALYZE and CHECKPOINT.
 *
 * CHECKPOINT has nothing to flush: a commit with a data directory is on
 * disk when it returns (engine/storage.c).
 *
 * PostgreSQL's VACUUM reclaims the space of dead row versions and its
 * ANALYZE samples columns for the planner's statistics. attu has neither
 * to do: it keeps no dead row versions (an old version goes when no
 * reader holds it, and the data directory compacts a table's appended
 * tails itself: engine/storage.c) and the planner measures selectivity
 * as it plans. Both statements are
 * accepted so that scripts and tools that run them after a load work
 * unchanged, and they check what they name as PostgreSQL does: every
 * table must exist (42P01, before anything else), a view or a sequence
 * is skipped with PostgreSQL's WARNING, and VACUUM cannot run inside a
 * transaction block (25001). The command tag is VACUUM or ANALYZE.
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>

int db_exec_maintenance(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    if (st->u.maintenance.checkpoint) return db_deliver_tag(cb, "CHECKPOINT", err) ? -2 : 0;
    const bool vacuum = st->u.maintenance.vacuum;
    if (vacuum && s->txn != 'I')
        return attu_error_set(err, "25001", 0, "VACUUM cannot run inside a transaction block");
    const attu_ast_name_list *names = &st->u.maintenance.tables;
    /* what each name is: 't' a table, 's' a relation to skip */
    char *kind = calloc((size_t)names->n + 1, 1);
    if (!kind) return attu_error_oom(err);
    int rc = 0;
    for (int i = 0; i < names->n && !rc; i++) {
        const char *name = names->items[i];
        if (db_temp_has(s, name)) { kind[i] = 't'; continue; }
        pthread_rwlock_rdlock(&s->db->lock);
        const attu_table *t = attu_catalog_lookup(db_cat(s), name);
        const attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), name);
        bool seq = !t && !v && db_sequence_exists(s, name);
        pthread_rwlock_unlock(&s->db->lock);
        if (t || (v && v->kind == 'm')) kind[i] = 't';   /* (a materialized view's rows are a table) */
        else if (v || seq) kind[i] = 's';
        else   /* (PostgreSQL's has no position) */
            rc = attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0, "relation \"%s\" does not exist", name);
    }
    for (int i = 0; i < names->n && !rc; i++) {
        if (kind[i] != 's') continue;
        char msg[200];
        snprintf(msg, sizeof msg, "skipping \"%s\" --- cannot %s non-tables or special system tables", names->items[i],
                 vacuum ? "vacuum" : "analyze");
        db_warning(cb, "01000", msg);
    }
    free(kind);
    if (rc) return -1;
    return db_deliver_tag(cb, vacuum ? "VACUUM" : "ANALYZE", err) ? -2 : 0;
}
