/*
 * extended_query.c - the extended query protocol on a worker thread:
 * Parse, Bind, Describe, Execute (with row limits and PortalSuspended),
 * Close. Sync and Flush are in dispatch.c.
 *
 * A statement is an attu_prepared. The unnamed one is the connection's;
 * named ones are the session's (attu_session_prepared_*), in the one
 * namespace SQL PREPARE / EXECUTE / DEALLOCATE use too, as in PostgreSQL.
 * A portal holds a reference to its statement, its parameters as text
 * (a binary value is turned into its text by the type the statement gives
 * the parameter, a text value checked against that type) and result
 * formats; its first Execute runs the statement and keeps the
 * materialized result (ATTU_RESULT_KEEP), later Executes page through it
 * (PortalSuspended after each that sent its row limit, as PostgreSQL's).
 * A portal lasts until Close, the end of its transaction block (COMMIT,
 * ROLLBACK) or, outside a block, the Sync that ends the implicit
 * transaction. After any error, messages are skipped until Sync, as in
 * PostgreSQL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/log.h"
#include "server/pgwire_binary_param.h"
#include "server/pgwire_decode.h"
#include "server/server.h"

struct portal {
    portal      *next;
    char        *name;
    attu_prepared *stmt;       /* a reference of its own */
    int          nvalues;
    char       **values;
    int          ncols;
    int16_t     *formats;      /* ncols entries, or NULL = all text */
    bool         executed;
    bool         done;
    bool         rows;         /* its statement returned rows (kept in res) */
    uint64_t     block;        /* attu_session_blocks_ended when bound */
    attu_result *res;
    size_t       pos;
    char         tag[64];
};

static void portal_free(portal *p) {
    if (p->res) attu_result_free(p->res);
    for (int i = 0; i < p->nvalues; i++) free(p->values[i]);
    free(p->values);
    free(p->formats);
    free(p->name);
    attu_prepared_free(p->stmt);
    free(p);
}

/* The statement a message names: the unnamed one is the connection's,
 * named ones the session's. */
static attu_prepared *find_stmt(conn *c, const char *name) {
    return name[0] ? attu_session_prepared_find(c->session, name) : c->unnamed;
}

/* A portal lives until Close, its transaction's end (a COMMIT or
 * ROLLBACK since its Bind: it is gone then, and found as gone here) or,
 * outside a block, the Sync that ends the implicit transaction. */
static portal *find_portal(conn *c, const char *name, portal ***link) {
    uint64_t block = attu_session_blocks_ended(c->session);
    for (portal **pp = &c->portals; *pp;) {
        portal *p = *pp;
        if (p->block != block && p != c->cur_portal) {
            *pp = p->next;
            portal_free(p);
            continue;
        }
        if (!strcmp(p->name, name)) { if (link) *link = pp; return p; }
        pp = &p->next;
    }
    return NULL;
}

static void drop_portal(conn *c, const char *name) {
    portal **link;
    portal *p = find_portal(c, name, &link);
    if (p) { *link = p->next; portal_free(p); }
}

/* Close of a statement; a missing one is no error (a portal running the
 * statement keeps its own reference). */
static void drop_stmt(conn *c, const char *name) {
    if (name[0]) { attu_session_prepared_drop(c->session, name); return; }
    attu_prepared_free(c->unnamed);
    c->unnamed = NULL;
}

/* "a simple Query message also destroys the unnamed statement" (and the
 * unnamed portal), as PostgreSQL's protocol says */
void ext_drop_unnamed(conn *c) {
    drop_portal(c, "");
    drop_stmt(c, "");
}

/* 26000 for a statement a message names that is not there */
static void missing_stmt(attu_error *err, const char *name) {
    if (name[0]) attu_error_set(err, "26000", 0, "prepared statement \"%s\" does not exist", name);
    else attu_error_set(err, "26000", 0, "unnamed prepared statement does not exist");
}

void ext_free_all(conn *c) {
    while (c->portals) { portal *p = c->portals; c->portals = p->next; portal_free(p); }
    drop_stmt(c, "");
}

void ext_sync(conn *c) {
    /* the implicit transaction since the last Sync ends (commits) */
    attu_error err;
    memset(&err, 0, sizeof err);
    if (attu_session_sync(c->session, &err)) conn_send_error(c, &err);
    /* Portals live until the end of the transaction; outside a block every
     * statement is its own transaction, so Sync ends them. */
    if (attu_session_txn_status(c->session) == 'I')
        while (c->portals) { portal *p = c->portals; c->portals = p->next; portal_free(p); }
}

static void ext_error(conn *c, const attu_error *err) {
    /* a failed Parse or Bind aborts an open block too, as in PostgreSQL */
    attu_session_txn_failed(c->session);
    conn_send_error(c, err);
    c->skip_till_sync = true;
}

static void ext_errorf(conn *c, const char *sqlstate, const char *fmt, const char *arg) {
    attu_error e;
    memset(&e, 0, sizeof e);
    attu_error_set(&e, sqlstate, 0, fmt, arg);
    ext_error(c, &e);
}

void ext_parse(conn *c, inmsg *m) {
    pg_parse_msg pm;
    attu_error err;
    memset(&err, 0, sizeof err);
    if (pg_parse_parse(m->data, m->len, &pm, &err)) {
        pg_parse_msg_free(&pm);
        ext_error(c, &err);
        return;
    }
    /* the name is taken by a Parse or a SQL PREPARE alike (42P05) */
    if (pm.name[0] && find_stmt(c, pm.name)) {
        ext_errorf(c, "42P05", "prepared statement \"%s\" already exists", pm.name);
        pg_parse_msg_free(&pm);
        return;
    }
    attu_exec_callbacks ncb = conn_callbacks_template;
    ncb.ctx = c;
    attu_prepared *prep = attu_prepare_notify(c->session, pm.query, pm.nparams, pm.param_oids, &err, &ncb);
    if (!prep) {
        if (!err.set) attu_error_set(&err, ATTU_SQLSTATE_INTERNAL, 0, "could not prepare");
        ext_error(c, &err);
        pg_parse_msg_free(&pm);
        return;
    }
    if (pm.name[0]) {
        int r = attu_session_prepared_add(c->session, pm.name, prep, &err);
        attu_prepared_free(prep);
        pg_parse_msg_free(&pm);
        if (r) { ext_error(c, &err); return; }
    } else {
        pg_parse_msg_free(&pm);
        drop_stmt(c, "");
        c->unnamed = prep;
    }
    pg_msg_simple(&c->out, '1');   /* ParseComplete */
}

void ext_bind(conn *c, inmsg *m) {
    pg_bind_msg b;
    attu_error err;
    memset(&err, 0, sizeof err);
    portal *p = NULL;
    if (pg_parse_bind(m->data, m->len, &b, &err)) goto fail;
    attu_prepared *s = find_stmt(c, b.stmt);
    if (!s) {
        missing_stmt(&err, b.stmt);
        goto fail;
    }
    int want = attu_prepared_param_count(s);
    if (b.nparams != want) {
        attu_error_set(&err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                       "bind message supplies %d parameters, but prepared statement \"%s\" requires %d",
                       b.nparams, b.stmt, want);
        goto fail;
    }
    if (b.portal[0] && find_portal(c, b.portal, NULL)) {
        attu_error_set(&err, "42P03", 0, "portal \"%s\" already exists", b.portal);
        goto fail;
    }
    const attu_result_column *cols = NULL;
    int ncols = attu_prepared_describe(s, &cols);
    if (b.nresult_formats > 1 && b.nresult_formats != ncols) {
        attu_error_set(&err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                       "bind message has %d result formats but query has %d columns",
                       b.nresult_formats, ncols);
        goto fail;
    }
    p = calloc(1, sizeof *p);
    if (!p || !(p->name = strdup(b.portal))) { attu_error_oom(&err); goto fail; }
    if (b.nparams) {
        p->values = calloc((size_t)b.nparams, sizeof *p->values);
        if (!p->values) { attu_error_oom(&err); goto fail; }
    }
    p->nvalues = b.nparams;
    for (int i = 0; i < b.nparams; i++) {
        if (!b.param_vals[i]) continue;   /* NULL */
        int fmt = b.nparam_formats == 0 ? 0 :
                  b.param_formats[b.nparam_formats == 1 ? 0 : i];
        if (fmt == 1) {
            p->values[i] = pg_binary_param_to_text(attu_prepared_param_oid(s, i),
                                                   b.param_vals[i], b.param_lens[i], i + 1, &err);
            if (!p->values[i]) goto fail;
            /* what the value reads as must be attu's too: a numeric wider
             * than attu's, a timestamp past its end fail the Bind here, as
             * the same text would, rather than the run */
            if (attu_prepared_check_param(s, i, p->values[i], strlen(p->values[i]), &err)) goto fail;
        } else {
            if (pg_utf8_check(b.param_vals[i], b.param_lens[i], &err)) goto fail;
            /* the value must read as its parameter's type now, as
             * PostgreSQL's Bind runs the type's input function: a bad one
             * fails the Bind (22P02 ...), before anything runs */
            if (attu_prepared_check_param(s, i, b.param_vals[i], (size_t)b.param_lens[i], &err)) goto fail;
            p->values[i] = strndup(b.param_vals[i], (size_t)b.param_lens[i]);
            if (!p->values[i]) { attu_error_oom(&err); goto fail; }
        }
    }
    p->ncols = ncols;
    bool any_binary = false;
    for (int i = 0; i < b.nresult_formats; i++) any_binary |= b.result_formats[i] == 1;
    if (any_binary && ncols > 0) {
        p->formats = calloc((size_t)ncols, sizeof *p->formats);
        if (!p->formats) { attu_error_oom(&err); goto fail; }
        for (int i = 0; i < ncols; i++) {
            p->formats[i] = b.result_formats[b.nresult_formats == 1 ? 0 : i];
            if (p->formats[i] == 1 && !pg_binary_supported(cols[i].type)) {
                char tn[64];
                attu_error_set(&err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                               "binary output format is not supported for type %s (column \"%.64s\"); use text format",
                               attu_type_name(cols[i].type, tn, sizeof tn), cols[i].name);
                goto fail;
            }
        }
    }
    p->stmt = attu_prepared_ref(s);
    p->block = attu_session_blocks_ended(c->session);
    if (!p->name[0]) drop_portal(c, "");
    p->next = c->portals;
    c->portals = p;
    pg_bind_msg_free(&b);
    pg_msg_simple(&c->out, '2');   /* BindComplete */
    return;
fail:
    if (p) portal_free(p);
    pg_bind_msg_free(&b);
    ext_error(c, &err);
}

void ext_describe(conn *c, inmsg *m) {
    pg_target_msg t;
    attu_error err;
    memset(&err, 0, sizeof err);
    if (pg_parse_target(m->data, m->len, &t, &err)) { ext_error(c, &err); return; }
    const attu_result_column *cols = NULL;
    int ncols = 0;
    const int16_t *formats = NULL;
    if (t.kind == 'S') {
        attu_prepared *s = find_stmt(c, t.name);
        if (!s) { missing_stmt(&err, t.name); ext_error(c, &err); return; }
        int n = attu_prepared_param_count(s);
        uint32_t oids_small[64];
        uint32_t *oids = n <= 64 ? oids_small : malloc((size_t)n * sizeof *oids);
        if (!oids) { attu_error_oom(&err); ext_error(c, &err); return; }
        for (int i = 0; i < n; i++) {
            oids[i] = attu_prepared_param_oid(s, i);
            if (!oids[i]) oids[i] = ATTU_PG_OID_UNKNOWN;   /* type comes from context */
        }
        pg_msg_parameter_description(&c->out, n, oids);
        if (oids != oids_small) free(oids);
        ncols = attu_prepared_describe(s, &cols);
    } else {
        portal *p = find_portal(c, t.name, NULL);
        if (!p && t.name[0]) {
            /* a SQL cursor: DECLARE's portal, in PostgreSQL (psycopg 3's
             * named cursors describe it); its columns in text, all binary
             * for DECLARE ... BINARY */
            attu_result_column *ccols;
            bool binary;
            int found = attu_session_cursor_describe(c->session, t.name, &ncols, &ccols, &binary);
            if (found < 0) { attu_error_oom(&err); ext_error(c, &err); return; }
            if (found) {
                int16_t *bin = binary && ncols > 0 ? malloc((size_t)ncols * sizeof *bin) : NULL;
                for (int i = 0; bin && i < ncols; i++) bin[i] = 1;
                if (binary && ncols > 0 && !bin) { free(ccols); attu_error_oom(&err); ext_error(c, &err); return; }
                if (ncols > 0) pg_msg_row_description(&c->out, ncols, ccols, bin);
                else pg_msg_simple(&c->out, 'n');   /* NoData */
                free(bin);
                free(ccols);
                return;
            }
        }
        if (!p) { ext_errorf(c, "34000", "portal \"%s\" does not exist", t.name); return; }
        ncols = attu_prepared_describe(p->stmt, &cols);
        formats = p->formats;
    }
    if (ncols > 0) pg_msg_row_description(&c->out, ncols, cols, formats);
    else pg_msg_simple(&c->out, 'n');   /* NoData */
}

static int portal_on_result(void *ctx, attu_result *res) {
    conn *c = ctx;
    portal *q = c->cur_portal;
    if (c->in_copy_out) {
        pg_msg_simple(&c->out, 'c');   /* CopyDone */
        c->in_copy_out = false;
    }
    if (!q) return 0;
    snprintf(q->tag, sizeof q->tag, "%s", res->tag);
    if (res->returns_rows || res->ncols > 0) {
        if (q->res) attu_result_free(q->res);
        q->res = res;
        q->rows = true;
        return ATTU_RESULT_KEEP;
    }
    return 0;
}

/* tag with its last word, a row count, made n ("SELECT 5" -> "SELECT 2");
 * a tag without a count ("SHOW", "EXPLAIN") stays as it is */
static void retag(char *out, size_t cap, const char *tag, size_t n) {
    const char *sp = strrchr(tag, ' ');
    bool counted = sp && sp[1];
    for (const char *d = sp ? sp + 1 : ""; counted && *d; d++) counted = *d >= '0' && *d <= '9';
    if (counted) snprintf(out, cap, "%.*s %zu", (int)(sp - tag), tag, n);
    else snprintf(out, cap, "%s", tag);
}

void ext_execute(conn *c, inmsg *m) {
    pg_execute_msg e;
    attu_error err;
    memset(&err, 0, sizeof err);
    if (pg_parse_execute(m->data, m->len, &e, &err)) { ext_error(c, &err); return; }
    portal *p = find_portal(c, e.portal, NULL);
    if (!p) { ext_errorf(c, "34000", "portal \"%s\" does not exist", e.portal); return; }
    if (attu_prepared_empty(p->stmt)) { pg_msg_empty_query(&c->out); return; }
    /* the rest of a portal that ran before its block failed: 25P02, as
     * any statement then (a first run gets it from the session) */
    if (p->executed && attu_session_txn_status(c->session) == 'E') {
        ext_errorf(c, "25P02", "%s", "current transaction is aborted, commands ignored until end of transaction block");
        return;
    }
    /* a command runs once: PostgreSQL marks its portal done (a portal of
     * rows answers its rest, then 0 rows) */
    if (p->done && !p->rows) {
        ext_errorf(c, "55000", "portal \"%s\" cannot be run", p->name);
        return;
    }
    bool first = !p->executed;
    if (first) {
        uint64_t t0 = now_us();
        p->executed = true;
        conn_stmt_begin(c);
        attu_exec_callbacks cb = conn_callbacks_template;
        cb.ctx = c;
        cb.on_result = portal_on_result;
        c->cur_portal = p;
        int rc = attu_prepared_execute(c->session, p->stmt, p->nvalues,
                                       (const char *const *)p->values, &cb);
        c->cur_portal = NULL;
        if (rc < 0 || c->error_sent) {
            conn_stmt_end(c, rc < 0 ? rc : -1);
            p->done = true;
            c->skip_till_sync = true;
            conn_log_query(c, "execute", attu_prepared_sql(p->stmt), t0, -1);
            return;
        }
        conn_stmt_end(c, rc);
        /* the rows the statement produced (Executes may page through them) */
        c->rows_out = p->res ? p->res->nrows : 0;
        conn_log_query(c, "execute", attu_prepared_sql(p->stmt), t0, rc);
    }
    if (!p->res) {   /* no rows: a command (or a finished portal) */
        pg_msg_command_complete(&c->out, p->tag[0] ? p->tag : "SELECT 0");
        p->done = true;
        return;
    }
    size_t end = p->res->nrows;
    if (e.max_rows > 0 && p->pos + (size_t)e.max_rows < end) end = p->pos + (size_t)e.max_rows;
    size_t from = p->pos;
    /* PostgreSQL's portal learns it is done only when a read comes back
     * short: an Execute that sends exactly its max_rows suspends, and the
     * next one completes with 0 rows */
    bool suspend = e.max_rows > 0 && end - from == (size_t)e.max_rows;
    c->rows_out = 0;
    if (conn_on_result_rows(c, p->res, from, end, p->formats)) {
        attu_error ce;
        memset(&ce, 0, sizeof ce);
        attu_error_set(&ce, ATTU_SQLSTATE_QUERY_CANCELED, 0,
                       atomic_load(&c->timed_out) ? "canceling statement due to statement timeout"
                                                  : "canceling statement due to user request");
        ext_error(c, &ce);
        p->done = true;
        return;
    }
    p->pos = end;
    if (suspend) {
        pg_msg_simple(&c->out, 's');   /* PortalSuspended */
        return;
    }
    /* the tag counts this Execute's rows: "SELECT 2", "FETCH 2",
     * "INSERT 0 2" (PostgreSQL's tag with its count replaced) */
    char tag[64];
    if (first && from == 0) snprintf(tag, sizeof tag, "%s", p->tag);
    else retag(tag, sizeof tag, p->tag, end - from);
    pg_msg_command_complete(&c->out, tag);
    attu_result_free(p->res);
    p->res = NULL;
    retag(p->tag, sizeof p->tag, tag, 0);   /* what a finished portal answers */
    p->done = true;
}

void ext_close(conn *c, inmsg *m) {
    pg_target_msg t;
    attu_error err;
    memset(&err, 0, sizeof err);
    if (pg_parse_target(m->data, m->len, &t, &err)) { ext_error(c, &err); return; }
    if (t.kind == 'S') drop_stmt(c, t.name);
    else drop_portal(c, t.name);
    pg_msg_simple(&c->out, '3');   /* CloseComplete */
}
