/*
 * db_discard.c - DEALLOCATE and DISCARD, the statements connection pools
 * (pgbouncer, pgpool, JDBC and Python pools) send when a server connection
 * passes to another client.
 *
 * Prepared statements (SQL PREPARE's and the protocol's named ones) are
 * the session's (db_prepared_names.c): DEALLOCATE name drops one (26000
 * when there is none), DEALLOCATE ALL every one. The protocol's unnamed
 * statement is not among them and stays, as in PostgreSQL.
 *
 * DISCARD ALL is, as in PostgreSQL, DEALLOCATE ALL plus RESET ALL (the
 * WITH HOLD cursors closed, as CLOSE ALL, UNLISTEN *,
 * pg_advisory_unlock_all(), and SET SESSION AUTHORIZATION DEFAULT with
 * RESET ROLE, which RESET ALL leaves; the rest of PostgreSQL's list has
 * nothing to undo here: no cached plans or session-temporary tables;
 * TEMP tables are ordinary ones). Like PostgreSQL it refuses to run inside a transaction
 * block, including a multi-statement query string (25001). DISCARD PLANS,
 * SEQUENCES and TEMP have nothing to discard and succeed.
 */
#include "db/db_internal.h"

#include <string.h>

static int deallocate(attu_session *s, const char *name, attu_error *err) {
    if (attu_session_prepared_drop(s, name) == 0) return 0;
    return attu_error_set(err, "26000", 0, "prepared statement \"%s\" does not exist", name ? name : "");
}

int db_exec_discard(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    if (st->kind == ATTU_STMT_DEALLOCATE) {
        if (deallocate(s, st->u.deallocate.name, err)) return -1;
        return db_deliver_tag(cb, st->u.deallocate.name ? "DEALLOCATE" : "DEALLOCATE ALL", err) ? -2 : 0;
    }
    switch (st->u.discard.what) {
    case ATTU_DISCARD_ALL: {
        if (s->txn != 'I' || s->implicit_block)
            return attu_error_set(err, "25001", 0, "DISCARD ALL cannot run inside a transaction block");
        /* SET SESSION AUTHORIZATION DEFAULT and RESET ROLE (which RESET
         * ALL leaves), then RESET ALL, without their own command tags */
        if (db_setting_apply(s, "role", NULL, false, false, NULL, err) ||
            db_setting_apply(s, "session_authorization", NULL, false, false, NULL, err))
            return -1;
        attu_ast_stmt reset;
        memset(&reset, 0, sizeof reset);
        reset.kind = ATTU_STMT_RESET;
        reset.position = st->position;
        attu_exec_callbacks quiet;
        memset(&quiet, 0, sizeof quiet);
        if (db_exec_setting(s, &reset, &quiet, err)) return -1;
        if (deallocate(s, NULL, err)) return -1;
        db_seq_session_free(s);   /* DISCARD SEQUENCES too */
        db_cursors_free(s);       /* and CLOSE ALL (the WITH HOLD cursors) */
        db_notify_unlisten_all(s);   /* and UNLISTEN * */
        db_advisory_session_end(s);  /* and pg_advisory_unlock_all() */
        return db_deliver_tag(cb, "DISCARD ALL", err) ? -2 : 0;
    }
    case ATTU_DISCARD_PLANS: return db_deliver_tag(cb, "DISCARD PLANS", err) ? -2 : 0;
    case ATTU_DISCARD_SEQUENCES:
        /* the session forgets its currval / lastval values */
        db_seq_session_free(s);
        return db_deliver_tag(cb, "DISCARD SEQUENCES", err) ? -2 : 0;
    case ATTU_DISCARD_TEMP: return db_deliver_tag(cb, "DISCARD TEMP", err) ? -2 : 0;
    }
    return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, st->position, "unknown DISCARD");
}
