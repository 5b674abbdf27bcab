/*
 * db_xact_id.c - transaction ids for txid_current() and
 * pg_current_xact_id() (planner/session_functions.c binds the calls).
 *
 * attu's transactions need no ids of their own (a commit is ordered by
 * db->commits); these functions give one the first time a transaction
 * asks, from a counter of the database, and the same id until the
 * transaction ends (db_session_txn_ended). The counter starts at the
 * microseconds since 1970 of the database's opening, so ids given after a
 * restart are larger than those before it, as PostgreSQL's (unless more
 * than one a microsecond was given).
 */
#include "db/db_internal.h"

#include <time.h>

int64_t db_xact_id(void *ctx, bool assign) {
    attu_session *s = ctx;
    attu_db *db = s->db;
    if (!s->xid && assign) {
        uint64_t last = __atomic_load_n(&db->last_xid, __ATOMIC_RELAXED);
        if (!last) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            uint64_t seed = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
            uint64_t zero = 0;
            __atomic_compare_exchange_n(&db->last_xid, &zero, seed, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        }
        s->xid = __atomic_add_fetch(&db->last_xid, 1, __ATOMIC_SEQ_CST);
    }
    return (int64_t)s->xid;
}
