/*
 * pg_backed_db.c - the part of db/database.h that sqllogictest uses,
 * implemented by forwarding SQL to a PostgreSQL server through libpq.
 *
 * It exists to test the runner itself: linked with sqllogictest.c instead of
 * attu_db (target sqllogictest_pg), every tests/sql file must pass, because
 * the expected results came from PostgreSQL. Result values arrive as
 * PostgreSQL's text and are kept in TEXT columns; the result description
 * carries the attu type that matches each column's OID, so the runner's
 * type-letter checks see what attu would report.
 *
 * The server comes from $ATTU_PG_DSN (default: the private server of
 * docs/testing.md). Each attu_db_open creates a fresh database and
 * attu_db_close drops it, like an in-memory attu database.
 */
#include <libpq-fe.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/database.h"
#include "engine/column.h"
#include "engine/dictionary.h"

struct attu_db {
    PGconn *admin;
    PGconn *conn;
    char    dbname[64];
};

struct attu_session {
    attu_db *db;
};

static const char *default_dsn(void) {
    const char *d = getenv("ATTU_PG_DSN");
    return d ? d : "host=/tmp port=55433 dbname=postgres user=pgtest";
}

attu_db *attu_db_open(const attu_db_config *cfg, attu_error *err) {
    if (cfg->device == ATTU_DEVICE_GPU) {
        attu_error_set(err, "58000", 0, "the PostgreSQL stand-in has no GPU");
        return NULL;
    }
    attu_db *db = calloc(1, sizeof *db);
    if (!db) { attu_error_oom(err); return NULL; }
    db->admin = PQconnectdb(default_dsn());
    if (PQstatus(db->admin) != CONNECTION_OK) {
        attu_error_set(err, "08006", 0, "%s", PQerrorMessage(db->admin));
        PQfinish(db->admin);
        free(db);
        return NULL;
    }
    static int seq;
    snprintf(db->dbname, sizeof db->dbname, "sltpg_%d_%d", (int)getpid(), seq++);
    char sql[128];
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", db->dbname);
    PQclear(PQexec(db->admin, sql));
    char dsn[512];
    snprintf(dsn, sizeof dsn, "%s dbname=%s", default_dsn(), db->dbname);
    db->conn = PQconnectdb(dsn);
    if (PQstatus(db->conn) != CONNECTION_OK) {
        attu_error_set(err, "08006", 0, "%s", PQerrorMessage(db->conn));
        attu_db_close(db);
        return NULL;
    }
    PQclear(PQexec(db->conn, "SET datestyle = 'ISO, MDY'; SET TimeZone = 'UTC'; "
                             "SET client_min_messages = warning"));
    return db;
}

void attu_db_close(attu_db *db) {
    if (!db) return;
    if (db->conn) PQfinish(db->conn);
    char sql[128];
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", db->dbname);
    PQclear(PQexec(db->admin, sql));
    PQfinish(db->admin);
    free(db);
}

const char *attu_db_device_description(const attu_db *db) {
    return "PostgreSQL (stand-in for tests of the runner)";
}

attu_session *attu_session_new(attu_db *db) {
    attu_session *s = calloc(1, sizeof *s);
    if (s) s->db = db;
    return s;
}

void attu_session_free(attu_session *s) { free(s); }

void attu_result_free(attu_result *res) {
    if (!res) return;
    for (int c = 0; c < res->ncols; c++) attu_column_free(res->cols[c]);
    free(res->cols);
    free(res->desc);
}

static attu_type type_of_oid(Oid oid) {
    switch (oid) {
    case 16:   return attu_type_make(ATTU_TYPE_BOOL);
    case 21:   return attu_type_make(ATTU_TYPE_INT16);
    case 23:   return attu_type_make(ATTU_TYPE_INT32);
    case 20:   return attu_type_make(ATTU_TYPE_INT64);
    case 700:  return attu_type_make(ATTU_TYPE_FLOAT32);
    case 701:  return attu_type_make(ATTU_TYPE_FLOAT64);
    case 1700: return attu_type_decimal(18, 6);   /* scale unknown: not 0 */
    case 1082: return attu_type_make(ATTU_TYPE_DATE);
    case 1114: return attu_type_make(ATTU_TYPE_TIMESTAMP);
    case 1184: return attu_type_make(ATTU_TYPE_TIMESTAMPTZ);
    case 1083: return attu_type_make(ATTU_TYPE_TIME);
    case 1266: return attu_type_make(ATTU_TYPE_TIMETZ);
    default:   return attu_type_make(ATTU_TYPE_TEXT);
    }
}

/* Turns one PGresult into an attu_result of TEXT columns. */
static int deliver(PGresult *pr, const attu_exec_callbacks *cb, attu_error *err) {
    attu_result res;
    memset(&res, 0, sizeof res);
    res.returns_rows = true;
    res.ncols = PQnfields(pr);
    res.nrows = (size_t)PQntuples(pr);
    res.desc = calloc((size_t)res.ncols + 1, sizeof *res.desc);
    res.cols = calloc((size_t)res.ncols + 1, sizeof *res.cols);
    if (!res.desc || !res.cols) { attu_result_free(&res); return attu_error_oom(err); }
    for (int c = 0; c < res.ncols; c++) {
        snprintf(res.desc[c].name, sizeof res.desc[c].name, "%s", PQfname(pr, c));
        res.desc[c].type = type_of_oid(PQftype(pr, c));
        size_t n = res.nrows;
        const char **strs = calloc(n + 1, sizeof *strs);
        size_t *lens = calloc(n + 1, sizeof *lens);
        int32_t *codes = calloc(n + 1, sizeof *codes);
        attu_column *col = attu_column_new(attu_type_make(ATTU_TYPE_TEXT), n, err);
        if (!strs || !lens || !codes || !col) {
            free(strs); free(lens); free(codes); attu_column_free(col);
            attu_result_free(&res);
            return attu_error_oom(err);
        }
        for (size_t r = 0; r < n; r++) {
            strs[r] = PQgetisnull(pr, (int)r, c) ? "" : PQgetvalue(pr, (int)r, c);
            lens[r] = strlen(strs[r]);
        }
        col->dict = attu_dictionary_build(strs, lens, n, codes, err);
        col->length = n;
        if (n) memcpy(col->data, codes, n * sizeof *codes);
        for (size_t r = 0; r < n; r++) {
            if (PQgetisnull(pr, (int)r, c)) {
                attu_column_ensure_validity(col, err);
                attu_column_set_null(col, r, true);
            }
        }
        free(strs); free(lens); free(codes);
        res.cols[c] = col;
    }
    if (cb->on_result && cb->on_result(cb->ctx, &res) == ATTU_RESULT_KEEP) return 0;
    attu_result_free(&res);
    return 0;
}

int attu_session_exec(attu_session *s, const char *sql, const attu_exec_callbacks *cb) {
    attu_error err;
    attu_error_clear(&err);
    if (!PQsendQuery(s->db->conn, sql)) {
        attu_error_set(&err, "08006", 0, "%s", PQerrorMessage(s->db->conn));
        if (cb->on_error) cb->on_error(cb->ctx, &err);
        return -1;
    }
    PGresult *pr;
    int rc = 0;
    while ((pr = PQgetResult(s->db->conn)) != NULL) {
        ExecStatusType st = PQresultStatus(pr);
        if (st == PGRES_TUPLES_OK && rc == 0) {
            if (deliver(pr, cb, &err) != 0) rc = -1;
        } else if ((st == PGRES_FATAL_ERROR || st == PGRES_NONFATAL_ERROR) && rc == 0 &&
                   st == PGRES_FATAL_ERROR) {
            const char *state = PQresultErrorField(pr, PG_DIAG_SQLSTATE);
            const char *msg = PQresultErrorField(pr, PG_DIAG_MESSAGE_PRIMARY);
            attu_error_set(&err, state ? state : "XX000", 0, "%s", msg ? msg : "error");
            rc = -1;
        }
        PQclear(pr);
    }
    if (rc != 0 && cb->on_error) cb->on_error(cb->ctx, &err);
    return rc;
}
