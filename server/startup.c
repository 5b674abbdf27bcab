/*
 * startup.c - the start of a connection, on the loop thread: the first
 * packet (SSLRequest/GSSENCRequest answered 'N', CancelRequest, protocol
 * 3.0 startup), authentication (trust on loopback, SCRAM-SHA-256 with the
 * --users file otherwise), then ParameterStatus, BackendKeyData and the
 * first ReadyForQuery.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "server/log.h"
#include "server/pgwire_decode.h"
#include "server/server.h"

#define SERVER_VERSION "15.0 (attu 0.1.0)"

void startup_fatal(conn *c, const char *sqlstate, const char *fmt, ...) {
    attu_error e;
    memset(&e, 0, sizeof e);
    va_list ap;
    va_start(ap, fmt);
    attu_error_setv(&e, sqlstate, 0, fmt, ap);
    va_end(ap);
    attu_log(ATTU_LOG_INFO, "[conn %u] %s: FATAL %s %s", c->pid, c->peer, e.sqlstate, e.message);
    pg_msg_error(&c->out, "FATAL", &e);
    c->stop_reading = true;
    pthread_mutex_lock(&c->mu);
    c->want_close = true;
    pthread_mutex_unlock(&c->mu);
    conn_send_now(c);
    c->phase = PHASE_CLOSING;
    /* the write callback sees want_close and closes once this is sent */
}

static void startup_complete(conn *c) {
    if (!c->role_can_login) {   /* (after authentication, as PostgreSQL checks it) */
        startup_fatal(c, "28000", "role \"%s\" is not permitted to log in", c->user);
        return;
    }
    c->session = attu_session_new(c->srv->db);
    if (!c->session) {
        startup_fatal(c, ATTU_SQLSTATE_OUT_OF_MEMORY, "out of memory");
        return;
    }
    attu_session_set_identity(c->session, c->user, c->database);
    /* the startup packet's settings: the session's values (source
     * client) that RESET goes back to; one attu does not take this way
     * (unknown, read-only, a bad value) is left out, where PostgreSQL
     * refuses the connection */
    for (size_t at = 0; at < c->startup_params_len;) {
        const char *name = c->startup_params + at, *value = name + strlen(name) + 1;
        attu_session_set_client_setting(c->session, name, value);
        at = (size_t)(value + strlen(value) + 1 - c->startup_params);
    }
    pgbuf *b = &c->out;
    pg_msg_auth(b, 0, NULL, 0);   /* AuthenticationOk */
    /* (the settings a session can change, as the session has them after
     * the startup packet's; the fallback where it has none) */
#define SESSION_VALUE(name, fallback) \
    (attu_session_setting(c->session, name) ? attu_session_setting(c->session, name) : (fallback))
    pg_msg_parameter_status(b, "application_name", SESSION_VALUE("application_name", ""));
    pg_msg_parameter_status(b, "client_encoding", SESSION_VALUE("client_encoding", "UTF8"));
    pg_msg_parameter_status(b, "DateStyle", SESSION_VALUE("DateStyle", "ISO, MDY"));
    pg_msg_parameter_status(b, "default_transaction_read_only", SESSION_VALUE("default_transaction_read_only", "off"));
    pg_msg_parameter_status(b, "in_hot_standby", "off");
    pg_msg_parameter_status(b, "integer_datetimes", "on");
    pg_msg_parameter_status(b, "IntervalStyle", SESSION_VALUE("IntervalStyle", "postgres"));
    pg_msg_parameter_status(b, "is_superuser", SESSION_VALUE("is_superuser", "on"));
    pg_msg_parameter_status(b, "server_encoding", "UTF8");
    pg_msg_parameter_status(b, "server_version", SERVER_VERSION);
    pg_msg_parameter_status(b, "session_authorization", c->user);
    pg_msg_parameter_status(b, "standard_conforming_strings", SESSION_VALUE("standard_conforming_strings", "on"));
#undef SESSION_VALUE
    /* what the client was told of the settings conn_ready reports again
     * when they change */
    for (int i = 0; i < CONN_NREPORTED; i++) {
        const char *v = attu_session_setting(c->session, conn_reported_names[i]);
        snprintf(c->reported[i], sizeof c->reported[i], "%s", v ? v : "");
    }
    /* the startup packet's TimeZone, source client as the others; a zone
     * attu does not know leaves UTC (PostgreSQL refuses the connection) */
    if (c->startup_tz[0]) attu_session_set_client_setting(c->session, "TimeZone", c->startup_tz);
    snprintf(c->reported_tz, sizeof c->reported_tz, "%s", attu_session_timezone(c->session));
    pg_msg_parameter_status(b, "TimeZone", c->reported_tz);
    pg_msg_backend_key(b, c->pid, c->key);
    /* (pg_stat_activity's row, pg_backend_pid(): the same pid) */
    attu_session_set_backend(c->session, c->pid, c->peer_ip[0] && strcmp(c->peer_ip, "?") ? c->peer_ip : NULL,
                             c->peer_port);
    pg_msg_ready(b, 'I');
    c->phase = PHASE_READY;
    attu_log(ATTU_LOG_INFO, "[conn %u] connection authorized: user=%s database=%s host=%s%s",
             c->pid, c->user, c->database, c->peer, c->scram ? " (SCRAM-SHA-256)" : " (trust)");
    scram_free(c->scram);
    c->scram = NULL;
    conn_send_now(c);
}

/* One setting of the startup packet, kept for startup_complete (which
 * applies them; TimeZone after the ParameterStatus of the others); past
 * 2 kB of them the rest is left out. */
static void startup_param(conn *c, const char *name, const char *value) {
    if (!strcasecmp(name, "TimeZone")) { snprintf(c->startup_tz, sizeof c->startup_tz, "%s", value); return; }
    size_t nn = strlen(name) + 1, nv = strlen(value) + 1;
    if (c->startup_params_len + nn + nv > sizeof c->startup_params) return;
    memcpy(c->startup_params + c->startup_params_len, name, nn);
    memcpy(c->startup_params + c->startup_params_len + nn, value, nv);
    c->startup_params_len += nn + nv;
}

static bool opt_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v'; }

/* The startup packet's options (libpq's options=, PGOPTIONS; psycopg's
 * connect(options="-c search_path=x")): words split at unescaped white
 * space, a backslash taking the next character as it is (pg_split_opts);
 * "-c name=value", "-cname=value" and "--name=value" are settings, a '-'
 * in the name read as '_' (ParseLongOption). Other switches (the
 * server's command-line flags) are ignored; what does not fit 2 kB or
 * 64 words is left out. */
static void startup_options(conn *c, const char *opts) {
    char words[2048];
    char *argv[64];
    size_t n = 0;
    int argc = 0;
    for (const char *p = opts; argc < 64;) {
        while (opt_space(*p)) p++;
        if (!*p) break;
        argv[argc++] = words + n;
        while (*p && !opt_space(*p)) {
            if (*p == '\\' && p[1]) p++;
            if (n + 1 < sizeof words) words[n++] = *p;
            p++;
        }
        if (n + 1 >= sizeof words) { argc--; break; }   /* (cut: not applied) */
        words[n++] = 0;
    }
    for (int i = 0; i < argc; i++) {
        char *set = NULL;
        if (!strcmp(argv[i], "-c") && i + 1 < argc) set = argv[++i];
        else if (!strncmp(argv[i], "-c", 2) && argv[i][2]) set = argv[i] + 2;
        else if (!strncmp(argv[i], "--", 2) && argv[i][2]) set = argv[i] + 2;
        char *eq = set ? strchr(set, '=') : NULL;
        if (!eq) continue;
        *eq = 0;
        for (char *q = set; *q; q++) if (*q == '-') *q = '_';
        startup_param(c, set, eq + 1);
    }
}

void startup_packet(conn *c, const char *pkt, size_t len) {
    server *srv = c->srv;
    pg_startup st;
    attu_error err;
    memset(&err, 0, sizeof err);
    if (pg_startup_parse(pkt, len, &st, &err)) {
        startup_fatal(c, err.sqlstate, "%s", err.message);
        return;
    }
    switch (st.code) {
    case PG_SSL_REQUEST:
    case PG_GSSENC_REQUEST:
        /* TLS and GSS encryption are not offered: the client goes on in
         * plain text with a fresh startup packet. */
        pgbuf_put_u8(&c->out, 'N');
        conn_send_now(c);
        return;
    case PG_CANCEL_REQUEST:
        cancel_request(srv, st.pid, st.key);
        /* no reply: the requester just sees the connection close */
        c->stop_reading = true;
        conn_finish(c);
        return;
    default:
        break;
    }
    snprintf(c->user, sizeof c->user, "%s", st.user);
    snprintf(c->database, sizeof c->database, "%s", st.database ? st.database : st.user);
    if (srv->shutting_down) {
        startup_fatal(c, "57P03", "the database system is shutting down");
        return;
    }
    if (srv->nsessions >= srv->cfg.max_connections) {
        startup_fatal(c, ATTU_SQLSTATE_TOO_MANY_CONNECTIONS, "sorry, too many clients already");
        return;
    }
    c->startup_params_len = 0;
    /* options' -c settings first, as PostgreSQL applies them: the
     * packet's own parameters then override them */
    if (st.options) startup_options(c, st.options);
    for (int i = 0; i < st.nparams; i++) {
        if (!strcmp(st.names[i], "user") || !strcmp(st.names[i], "database") || !strcmp(st.names[i], "options")) continue;
        startup_param(c, st.names[i], st.values[i]);
    }
    c->counted = true;
    srv->nsessions++;
    /* a created role (CREATE ROLE, db/db_role.c) authenticates with its
     * own password; any other name is the bootstrap superuser, as before
     * roles (the --users file's, or trusted on loopback) */
    attu_role_login role;
    c->is_role = attu_db_role_login(srv->db, c->user, &role) == 1;
    c->role_expired = false;
    if (c->is_role && role.has_valid_until) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        c->role_expired = role.valid_until < (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
    }
    c->role_can_login = !c->is_role || role.can_login;
    if (c->loopback) {
        free(role.verifier);
        startup_complete(c);
        return;
    }
    if (c->is_role && (role.verifier || !scram_users_has(srv->users, c->user))) {
        /* (the role's password; one without any lets no proof in) */
        c->scram = scram_begin_verifier(role.verifier);
        free(role.verifier);
        if (!c->scram) { startup_fatal(c, ATTU_SQLSTATE_OUT_OF_MEMORY, "out of memory"); return; }
        static const char mechs[] = "SCRAM-SHA-256\0";   /* list ends with an empty name */
        pg_msg_auth(&c->out, 10, mechs, sizeof mechs);
        conn_send_now(c);
        c->phase = PHASE_SASL_FIRST;
        return;
    }
    free(role.verifier);
    if (!srv->users) {
        startup_fatal(c, "28000",
                      "no authentication method for host \"%s\", user \"%s\": "
                      "connections from other hosts need SCRAM-SHA-256 users (attud --users FILE)",
                      c->peer, c->user);
        return;
    }
    c->scram = scram_begin(srv->users, c->user);
    if (!c->scram) { startup_fatal(c, ATTU_SQLSTATE_OUT_OF_MEMORY, "out of memory"); return; }
    static const char mechs[] = "SCRAM-SHA-256\0";   /* list ends with an empty name */
    pg_msg_auth(&c->out, 10, mechs, sizeof mechs);
    conn_send_now(c);
    c->phase = PHASE_SASL_FIRST;
}

void startup_sasl(conn *c, const char *payload, size_t len) {
    attu_error err;
    memset(&err, 0, sizeof err);
    char *reply = NULL;
    if (c->phase == PHASE_SASL_FIRST) {
        const char *mech, *data;
        size_t dlen;
        if (pg_parse_sasl_initial(payload, len, &mech, &data, &dlen, &err)) {
            startup_fatal(c, err.sqlstate, "%s", err.message);
            return;
        }
        if (strcmp(mech, "SCRAM-SHA-256")) {
            startup_fatal(c, ATTU_SQLSTATE_PROTOCOL_VIOLATION,
                          "client selected an invalid SASL authentication mechanism");
            return;
        }
        if (!data || scram_client_first(c->scram, data, dlen, &reply, &err)) {
            if (!err.set)
                attu_error_set(&err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0, "malformed SCRAM message");
            startup_fatal(c, err.sqlstate, "%s", err.message);
            return;
        }
        pg_msg_auth(&c->out, 11, reply, strlen(reply));   /* SASLContinue */
        free(reply);
        c->phase = PHASE_SASL_FINAL;
        conn_send_now(c);
        return;
    }
    if (scram_client_final(c->scram, payload, len, &reply, &err)) {
        if (!strcmp(err.sqlstate, ATTU_SQLSTATE_INVALID_PASSWORD))
            startup_fatal(c, err.sqlstate, "password authentication failed for user \"%s\"",
                          c->user);
        else
            startup_fatal(c, err.sqlstate, "%s", err.message);
        return;
    }
    if (c->role_expired) {   /* (VALID UNTIL passed: the password no longer counts, as PostgreSQL's) */
        free(reply);
        startup_fatal(c, ATTU_SQLSTATE_INVALID_PASSWORD, "password authentication failed for user \"%s\"", c->user);
        return;
    }
    pg_msg_auth(&c->out, 12, reply, strlen(reply));       /* SASLFinal */
    free(reply);
    startup_complete(c);
}
