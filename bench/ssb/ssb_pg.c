/*
 * ssb_pg: the SSB runner's engine over the PostgreSQL wire protocol (libpq).
 * It drives attud, or a real PostgreSQL server as a reference. Loading sends
 * schema.sql's CREATE TABLEs, then streams each CSV with COPY ... FROM STDIN,
 * so the data travels over the wire exactly as a client's would.
 */
#include "ssb_engine.h"

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/select.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const ssb_tables[5] = {"date", "customer", "supplier", "part",
                                   "lineorder"};

double ssb_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static PGconn *conn_of(ssb_engine_t *e) { return e->impl; }

/* Runs a statement that returns no rows; prints and fails on error. */
static int exec_ok(PGconn *c, const char *sql, int quiet_errors) {
    PGresult *r = PQexec(c, sql);
    ExecStatusType st = PQresultStatus(r);
    int ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
    if (!ok && !quiet_errors)
        fprintf(stderr, "ssb: %s: %s", sql, PQerrorMessage(c));
    PQclear(r);
    return ok ? 0 : -1;
}

static int copy_file(PGconn *c, const char *table, const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "ssb: cannot open %s\n", path);
        return -1;
    }
    char sql[256];
    snprintf(sql, sizeof sql, "COPY %s FROM STDIN WITH (FORMAT csv)", table);
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COPY_IN) {
        fprintf(stderr, "ssb: %s: %s", sql, PQerrorMessage(c));
        PQclear(r);
        fclose(f);
        return -1;
    }
    PQclear(r);
    static char buf[1 << 20];
    size_t n;
    int rc = 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if (PQputCopyData(c, buf, (int)n) != 1) { rc = -1; break; }
    fclose(f);
    if (PQputCopyEnd(c, rc ? "client read error" : NULL) != 1) rc = -1;
    while ((r = PQgetResult(c)) != NULL) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK) {
            fprintf(stderr, "ssb: COPY %s: %s", table, PQerrorMessage(c));
            rc = -1;
        }
        PQclear(r);
    }
    return rc;
}

int ssb_exec_script(int (*exec)(void *, const char *), void *arg,
                    const char *script) {
    char *copy = strdup(script);
    int rc = 0;
    char *save = NULL;
    for (char *s = strtok_r(copy, ";", &save); s; s = strtok_r(NULL, ";", &save)) {
        /* Skip statements that hold only comments and blanks. */
        const char *p = s;
        int empty = 1;
        while (*p) {
            if (p[0] == '-' && p[1] == '-') { p = strchr(p, '\n'); if (!p) break; continue; }
            if (!strchr(" \t\r\n", *p)) { empty = 0; break; }
            p++;
        }
        if (!empty && exec(arg, s) != 0) { rc = -1; break; }
    }
    free(copy);
    return rc;
}

static int pg_exec_cb(void *arg, const char *sql) { return exec_ok(arg, sql, 0); }

static int pg_load(ssb_engine_t *e, const char *schema, const char *data_dir) {
    PGconn *c = conn_of(e);
    for (int i = 0; i < 5; i++) {
        char sql[128];
        snprintf(sql, sizeof sql, "DROP TABLE IF EXISTS %s", ssb_tables[i]);
        exec_ok(c, sql, 1); /* a missing table is fine */
    }
    if (ssb_exec_script(pg_exec_cb, c, schema) != 0) return -1;
    for (int i = 0; i < 5; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.csv", data_dir, ssb_tables[i]);
        double t0 = ssb_now();
        if (copy_file(c, ssb_tables[i], path) != 0) return -1;
        fprintf(stderr, "ssb: %s: loaded %s in %.2f s\n", e->name, ssb_tables[i],
                ssb_now() - t0);
    }
    return 0;
}

/* Waits for the query's results, cancelling it once it has run longer than
 * the engine's timeout. A server that ignores the cancel for another 10 s is
 * given up on: the connection is closed and later queries fail at once. */
static PGresult *wait_result(ssb_engine_t *e, bool *timed_out) {
    PGconn *c = conn_of(e);
    double start = ssb_now(), give_up = 0;
    while (PQisBusy(c)) {
        int sock = PQsocket(c);
        fd_set rd;
        FD_ZERO(&rd);
        FD_SET(sock, &rd);
        struct timeval tv = {0, 200000};
        select(sock + 1, &rd, NULL, NULL, &tv);
        if (!PQconsumeInput(c)) break;
        double now = ssb_now();
        if (e->timeout_s > 0 && !*timed_out && now - start > e->timeout_s) {
            char err[256];
            PGcancel *cn = PQgetCancel(c);
            if (cn) PQcancel(cn, err, sizeof err);
            PQfreeCancel(cn);
            *timed_out = true;
            give_up = now + 10;
        }
        if (give_up && now > give_up) return NULL;
    }
    PGresult *last = NULL, *r;
    while ((r = PQgetResult(c)) != NULL) {
        PQclear(last);
        last = r;
    }
    return last;
}

static ssb_result_t *pg_query(ssb_engine_t *e, const char *sql) {
    PGconn *c = conn_of(e);
    if (!c || PQstatus(c) != CONNECTION_OK) return ssb_result_error("no connection to the server");
    bool timed_out = false;
    if (!PQsendQuery(c, sql)) return ssb_result_error(PQerrorMessage(c));
    PGresult *r = wait_result(e, &timed_out);
    if (!r) {
        char msg[128];
        snprintf(msg, sizeof msg, "timed out after %.0f s; the server ignored the cancel", e->timeout_s);
        PQfinish(c);
        e->impl = NULL;
        return ssb_result_error(msg);
    }
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        char msg[1024];
        const char *m = PQresultErrorMessage(r);
        if (timed_out)
            snprintf(msg, sizeof msg, "timed out after %.0f s (cancelled)", e->timeout_s);
        else
            snprintf(msg, sizeof msg, "%s", m && *m ? m : PQerrorMessage(c));
        PQclear(r);
        return ssb_result_error(msg);
    }
    int nc = PQnfields(r);
    ssb_result_t *res = ssb_result_new(nc);
    const char **vals = calloc((size_t)nc + 1, sizeof *vals);
    for (int i = 0; i < PQntuples(r); i++) {
        for (int j = 0; j < nc; j++)
            vals[j] = PQgetisnull(r, i, j) ? NULL : PQgetvalue(r, i, j);
        ssb_result_add_row(res, vals);
    }
    free(vals);
    PQclear(r);
    return res;
}

static void pg_close(ssb_engine_t *e) {
    if (conn_of(e)) PQfinish(conn_of(e));
    free(e);
}

ssb_engine_t *ssb_pg_open(const char *conninfo) {
    PGconn *c = PQconnectdb(conninfo);
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "ssb: cannot connect (%s): %s", conninfo, PQerrorMessage(c));
        PQfinish(c);
        return NULL;
    }
    /* Keep server notices (e.g. "table does not exist, skipping") quiet. */
    exec_ok(c, "SET client_min_messages = warning", 1);
    ssb_engine_t *e = calloc(1, sizeof *e);
    e->name = "server";
    e->load = pg_load;
    e->query = pg_query;
    e->close = pg_close;
    e->impl = c;
    return e;
}
