/*
 * db_prepared_names.c - a session's named prepared statements.
 *
 * PostgreSQL keeps one table of prepared statements per session: SQL
 * PREPARE and the extended protocol's Parse of a named statement both add
 * to it (42P05 when the name is taken), EXECUTE and Bind read it (26000
 * when it is missing), DEALLOCATE and Close remove from it. The protocol's
 * unnamed statement is not in it: it lives with the connection
 * (server/extended_query.c), and DEALLOCATE ALL leaves it alone, as in
 * PostgreSQL.
 *
 * Each entry holds a reference to its attu_prepared, so a portal (or a
 * running EXECUTE) that took its own keeps the statement alive after the
 * name is dropped.
 */
#include "db/db_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static int find(const attu_session *s, const char *name) {
    for (int i = 0; i < s->nprepared; i++)
        if (!strcmp(s->prepared[i].name, name)) return i;
    return -1;
}

int attu_session_prepared_add(attu_session *s, const char *name, attu_prepared *p, attu_error *err) {
    if (find(s, name) >= 0)
        return attu_error_set(err, "42P05", 0, "prepared statement \"%s\" already exists", name);
    if (s->nprepared == s->capprepared) {
        int cap = s->capprepared ? 2 * s->capprepared : 8;
        db_named_prepared *n = realloc(s->prepared, sizeof *n * (size_t)cap);
        if (!n) return attu_error_oom(err);
        s->prepared = n;
        s->capprepared = cap;
    }
    char *copy = strdup(name);
    if (!copy) return attu_error_oom(err);
    s->prepared[s->nprepared].name = copy;
    s->prepared[s->nprepared].p = attu_prepared_ref(p);
    struct timeval tv;
    gettimeofday(&tv, NULL);
    s->prepared[s->nprepared].added_us = (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
    s->nprepared++;
    return 0;
}

attu_prepared *attu_session_prepared_find(attu_session *s, const char *name) {
    int i = find(s, name);
    return i >= 0 ? s->prepared[i].p : NULL;
}

static void drop_at(attu_session *s, int i) {
    free(s->prepared[i].name);
    attu_prepared_free(s->prepared[i].p);
    s->prepared[i] = s->prepared[--s->nprepared];
}

int attu_session_prepared_drop(attu_session *s, const char *name) {
    if (!name) {
        while (s->nprepared) drop_at(s, s->nprepared - 1);
        return 0;
    }
    int i = find(s, name);
    if (i < 0) return -1;
    drop_at(s, i);
    return 0;
}

void db_prepared_names_free(attu_session *s) {
    attu_session_prepared_drop(s, NULL);
    free(s->prepared);
    s->prepared = NULL;
    s->capprepared = 0;
}

bool db_prepared_at(void *ctx, int i, attu_prepared_info *out) {
    attu_session *s = ctx;
    if (i < 0 || i >= s->nprepared) return false;
    const db_named_prepared *n = &s->prepared[i];
    out->name = n->name;
    out->statement = n->p->sql;
    out->from_sql = n->p->from_sql;
    out->prepare_time_us = n->added_us;
    out->nparams = n->p->nparams;
    out->param_oids = n->p->param_oids;
    return true;
}
