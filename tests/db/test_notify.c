/* test_notify.c - sessions through the library (db/db_activity.c,
 * db/db_notify.c): pg_stat_activity lists each session of the db with the
 * pid attu_session_set_backend gave it; a committed NOTIFY reaches the
 * inboxes of the listeners (the notifier's own too) and asks the signal
 * hook to wake the others; nothing before COMMIT or after ROLLBACK;
 * pg_cancel_backend / pg_terminate_backend call the hook with the pid;
 * many threads notifying while listeners come and go (run under ASan:
 * no race on the lists, nothing leaked). */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"

static attu_db *db;

static void setup(void) { db = tdb_open(); }
static void teardown(void) { attu_db_close(db); }

TestSuite(notify, .init = setup, .fini = teardown);

/* what the signal hook was asked, last first */
static pthread_mutex_t sig_mu = PTHREAD_MUTEX_INITIALIZER;
static uint32_t sig_pid[64];
static attu_backend_signal sig_kind[64];
static int nsig;

static void hook(void *ctx, uint32_t pid, attu_backend_signal sig) {
    (void)ctx;
    pthread_mutex_lock(&sig_mu);
    if (nsig < 64) { sig_pid[nsig] = pid; sig_kind[nsig] = sig; nsig++; }
    pthread_mutex_unlock(&sig_mu);
}

static int count_notes(attu_notification *n, const char *payload) {
    int k = 0;
    for (; n; n = n->next) if (!payload || !strcmp(n->payload, payload)) k++;
    return k;
}

Test(notify, activity_lists_sessions) {
    attu_session *a = attu_session_new(db), *b = attu_session_new(db);
    attu_session_set_backend(a, 4242, "127.0.0.1", 5000);
    attu_session_set_backend(b, 4343, NULL, 0);
    cr_assert_str_eq(tdb_rows(a, "SELECT count(*) FROM pg_stat_activity"), "2\n");
    cr_assert_str_eq(tdb_rows(a, "SELECT pg_backend_pid()"), "4242\n");
    cr_assert_str_eq(tdb_rows(b, "SELECT client_addr, client_port, state FROM pg_stat_activity WHERE pid = 4242"),
                     "127.0.0.1|5000|idle\n");
    cr_assert_str_eq(tdb_rows(a, "SELECT client_addr IS NULL, state FROM pg_stat_activity WHERE pid = 4343"),
                     "t|idle\n");
    tdb_exec_ok(b, "BEGIN");
    cr_assert_str_eq(tdb_rows(a, "SELECT state, query FROM pg_stat_activity WHERE pid = 4343"),
                     "idle in transaction|BEGIN\n");
    attu_session_free(b);
    cr_assert_str_eq(tdb_rows(a, "SELECT count(*) FROM pg_stat_activity"), "1\n");
    attu_session_free(a);
}

Test(notify, delivered_at_commit) {
    nsig = 0;
    attu_db_set_signal_hook(db, hook, NULL);
    attu_session *a = attu_session_new(db), *b = attu_session_new(db);
    attu_session_set_backend(a, 100, NULL, 0);
    attu_session_set_backend(b, 200, NULL, 0);
    tdb_exec_ok(b, "LISTEN ch");
    tdb_exec_ok(a, "BEGIN");
    tdb_exec_ok(a, "NOTIFY ch, 'one'");
    tdb_exec_ok(a, "NOTIFY ch, 'one'");
    tdb_exec_ok(a, "SELECT pg_notify('ch', 'two')");
    cr_assert_null(attu_session_take_notifications(b), "nothing before COMMIT");
    tdb_exec_ok(a, "COMMIT");
    attu_notification *n = attu_session_take_notifications(b);
    cr_assert_eq(count_notes(n, NULL), 2, "folded");
    cr_assert_str_eq(n->payload, "one");
    cr_assert_eq(n->pid, 100u);
    cr_assert_str_eq(n->next->payload, "two");
    attu_notifications_free(n);
    cr_assert_eq(nsig, 1);
    cr_assert_eq(sig_pid[0], 200u);
    cr_assert_eq(sig_kind[0], ATTU_SIGNAL_NOTIFY);
    tdb_exec_ok(a, "BEGIN");
    tdb_exec_ok(a, "NOTIFY ch, 'gone'");
    tdb_exec_ok(a, "ROLLBACK");
    cr_assert_null(attu_session_take_notifications(b), "nothing after ROLLBACK");
    /* its own: in its inbox, no signal */
    tdb_exec_ok(b, "NOTIFY ch, 'self'");
    n = attu_session_take_notifications(b);
    cr_assert_eq(count_notes(n, "self"), 1);
    attu_notifications_free(n);
    cr_assert_eq(nsig, 1);
    attu_db_set_signal_hook(db, NULL, NULL);
    attu_session_free(a);
    attu_session_free(b);
}

Test(notify, signals_go_to_the_hook) {
    nsig = 0;
    attu_db_set_signal_hook(db, hook, NULL);
    attu_session *a = attu_session_new(db), *b = attu_session_new(db);
    attu_session_set_backend(a, 300, NULL, 0);
    attu_session_set_backend(b, 400, NULL, 0);
    cr_assert_str_eq(tdb_rows(a, "SELECT pg_cancel_backend(400)"), "t\n");
    cr_assert_str_eq(tdb_rows(a, "SELECT pg_terminate_backend(400)"), "t\n");
    cr_assert_str_eq(tdb_rows(a, "SELECT pg_cancel_backend(401)"), "f\n");
    cr_assert_eq(nsig, 2);
    cr_assert(sig_pid[0] == 400 && sig_kind[0] == ATTU_SIGNAL_CANCEL);
    cr_assert(sig_pid[1] == 400 && sig_kind[1] == ATTU_SIGNAL_TERMINATE);
    /* over rows: once per row, in order */
    cr_assert_str_eq(tdb_rows(a, "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()"),
                     "t\n");
    cr_assert_eq(nsig, 3);
    attu_db_set_signal_hook(db, NULL, NULL);
    attu_session_free(a);
    attu_session_free(b);
}

typedef struct worker_arg { int id; int errors; } worker_arg;

static void *notifier(void *p) {
    worker_arg *w = p;
    attu_session *s = attu_session_new(db);
    for (int i = 0; i < 200; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "NOTIFY storm, '%d-%d'", w->id, i);
        tres r;
        memset(&r, 0, sizeof r);
        if (tdb_exec(s, sql, &r)) w->errors++;
        tres_free(&r);
    }
    attu_session_free(s);
    return NULL;
}

static void *listener(void *p) {
    worker_arg *w = p;
    for (int k = 0; k < 20; k++) {
        attu_session *s = attu_session_new(db);
        tres r;
        memset(&r, 0, sizeof r);
        if (tdb_exec(s, "LISTEN storm", &r)) w->errors++;
        tres_free(&r);
        attu_notifications_free(attu_session_take_notifications(s));
        attu_session_free(s);   /* (with notifications waiting, maybe) */
    }
    return NULL;
}

Test(notify, storm_with_listeners_coming_and_going) {
    attu_session *keep = attu_session_new(db);
    tdb_exec_ok(keep, "LISTEN storm");
    pthread_t th[6];
    worker_arg wa[6];
    for (int i = 0; i < 6; i++) {
        wa[i] = (worker_arg){ i, 0 };
        pthread_create(&th[i], NULL, i < 3 ? notifier : listener, &wa[i]);
    }
    for (int i = 0; i < 6; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < 6; i++) cr_assert_eq(wa[i].errors, 0);
    attu_notification *n = attu_session_take_notifications(keep);
    cr_assert_eq(count_notes(n, NULL), 600);
    attu_notifications_free(n);
    attu_session_free(keep);
}
