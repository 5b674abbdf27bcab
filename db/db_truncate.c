/*
 * db_truncate.c - TRUNCATE [TABLE] t, ...
 *
 * Every named table is first looked up (42P01 before anything changes),
 * then each gets an empty new version (engine/table_rewrite.h), saved and
 * swapped in under the write lock as INSERT's new versions are, so
 * queries running beside it see the rows or none. A table named twice is
 * emptied once. With a data directory, the versions are saved one table
 * at a time: should a save fail, the tables before it stay empty (on disk
 * and in the catalog, which are never out of step) and the error is
 * reported.
 */
#include "db/db_internal.h"
#include "db/db_fkey.h"
#include "db/db_unique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/table_rewrite.h"

int db_exec_truncate(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    const attu_ast_name_list *names = &st->u.truncate.tables;
    db_write_lock(s);
    for (int i = 0; i < names->n; i++) {
        const attu_table *t = attu_catalog_lookup(db_cat(s), names->items[i]);
        if (!t && db_sequence_exists(s, names->items[i])) {
            attu_error_set(err, "42809", 0, "\"%s\" is not a table", names->items[i]);
            pthread_rwlock_unlock(&s->db->lock);
            return -1;
        }
        if (!t) {
            int pos = names->positions ? names->positions[i] : st->position;
            if (attu_catalog_constraint_owner(db_cat(s), names->items[i], NULL))
                attu_error_set(err, "42809", pos, "\"%s\" is not a table", names->items[i]);
            else if (!db_view_not_table(s, names->items[i], err))
                attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, pos, "relation \"%s\" does not exist", names->items[i]);
            pthread_rwlock_unlock(&s->db->lock);
            return -1;
        }
        /* (deferred checks wait on its rows: db_defer.c) */
        if (db_defer_in_use(s, names->items[i], "TRUNCATE", err)) {
            pthread_rwlock_unlock(&s->db->lock);
            return -1;
        }
    }
    /* a table a FOREIGN KEY of a table not listed references: 0A000, or
     * (CASCADE) that table is emptied too (db_fkey.c) */
    char **more = NULL;
    int nmore = 0;
    if (db_fkey_truncate(s, (const char *const *)names->items, names->n, st->u.truncate.cascade, &more, &nmore, err)) {
        pthread_rwlock_unlock(&s->db->lock);
        return -1;
    }
    for (int i = 0; i < nmore && cb->on_notice; i++) {
        char msg[160];
        snprintf(msg, sizeof msg, "truncate cascades to table \"%s\"", more[i]);
        cb->on_notice(cb->ctx, "00000", msg);
    }
    int rc = 0;
    for (int i = 0; i < names->n + nmore && !rc; i++) {
        const char *name = i < names->n ? names->items[i] : more[i - names->n];
        bool seen = false;
        for (int j = 0; j < i && j < names->n; j++) seen |= !strcmp(names->items[j], name);
        const attu_table *old = attu_catalog_lookup(db_cat(s), name);
        /* RESTART IDENTITY: the table's serial and identity sequences
         * start over (CONTINUE IDENTITY, the default, leaves them) */
        if (!seen && st->u.truncate.restart_identity && db_sequences_restart_owned(s, name, err)) { rc = -1; break; }
        if (seen || (old->nrows == 0 && !old->unavailable)) continue;
        attu_table *t = attu_table_truncated(old, err);
        if (!t) { rc = -1; break; }
        if (db_save_table(s, t, err)) { attu_table_free(t); rc = -1; break; }
        attu_table_free(attu_catalog_replace(db_cat(s), t));
    }
    pthread_rwlock_unlock(&s->db->lock);
    for (int i = 0; i < nmore; i++) free(more[i]);
    free(more);
    if (rc) return rc;
    return db_deliver_tag(cb, "TRUNCATE TABLE", err) ? -2 : 0;
}
