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
 * NOWAIT fails at once (55P03) where the lock would wait. A temporary
 * table is the session's own: nothing to lock. A view: its check only
 * (42P01 otherwise); PostgreSQL also locks the view's tables, attu none.
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int db_exec_lock_table(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    if (s->txn == 'I') return attu_error_set(err, "25P01", 0, "LOCK TABLE can only be used in transaction blocks");
    const attu_ast_name_list *names = &st->u.lock.tables;
    char (*take)[ATTU_NAME_MAX + 1] = malloc(sizeof *take * (size_t)(names->n ? names->n : 1));
    if (!take) return attu_error_oom(err);
    int n = 0, rc = 0;
    /* every name first (42P01 before anything is locked) */
    for (int i = 0; i < names->n && !rc; i++) {
        const char *name = names->items[i];
        int pos = names->positions ? names->positions[i] : st->position;
        if (db_temp_has(s, name)) continue;
        pthread_rwlock_rdlock(&s->db->lock);
        const attu_table *t = attu_catalog_lookup(db_cat(s), name);
        if (t) snprintf(take[n++], ATTU_NAME_MAX + 1, "%s", t->name);
        bool seq = !t && db_sequence_exists(s->db, name);
        pthread_rwlock_unlock(&s->db->lock);
        if (t) continue;
        if (seq) {
            rc = attu_error_set(err, "42809", 0, "cannot lock relation \"%s\"", name);
            attu_error_set_detail(err, "This operation is not supported for sequences.");
        }
        else if (!db_names_view(s, name))
            rc = attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, pos, "relation \"%s\" does not exist", name);
    }
    /* ROW EXCLUSIVE (3) and stronger: the tables' write locks */
    if (!rc && n && st->u.lock.mode >= 3) rc = db_txn_lock_tables(s, take, n, st->u.lock.mode, st->u.lock.nowait, err);
    free(take);
    if (rc) return -1;
    return db_deliver_tag(cb, "LOCK TABLE", err) ? -2 : 0;
}
