/*
 * differential.c - random queries on attu and on PostgreSQL 15, compared.
 *
 * PostgreSQL is the oracle: attu follows its semantics, so for every
 * random query of the supported grammar (random_sql.h) both engines must
 * return the same rows (as a multiset unless ORDER BY covers every column;
 * floats within 1e-9 relative, integers and numerics exactly as printed,
 * see row_set.h), or fail with the same
 * SQLSTATE; attu's 0A000 (a documented refusal) is accepted whatever
 * PostgreSQL does ($ATTU_DIFF_STRICT_0A000 counts it as a difference). attu runs in process through db/database.h, on the CPU backend
 * and, when one opens, the GPU backend; PostgreSQL is a private server this
 * program starts and stops (pg_server.h), or $ATTU_PG_DSN.
 *
 *   differential [--seed N] [--queries N] [--seconds S] [--rows N]
 *                [--backend cpu|gpu|all] [--only I] [--max-failures N] [-v]
 *                [--trace]   (each query on stderr before it runs)
 *   differential --seed N [--rows N] --dump-setup   (the tables' SQL, to
 *                replay a difference by hand in psql and in attu)
 *
 * The ctest run uses a fixed seed and a few hundred queries. For a long
 * run, e.g. `differential --seed $RANDOM --queries 0 --seconds 1800`
 * (0 = no limit on the count). Every query i of seed s is generated from
 * (s, i) alone, so `--seed s --only i` replays a failure.
 *
 * Exit status: 0 all agreed, 1 some differed (or setup failed), 77 skipped
 * (no PostgreSQL server binaries), 2 usage.
 */
#include <libpq-fe.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db/database.h"
#include "pg_server.h"
#include "random_sql.h"
#include "row_set.h"

#define SKIP_EXIT 77

/* One side's outcome: rows, or an error. */
typedef struct outcome {
    bool    failed;
    char    sqlstate[6];
    char    message[512];
    bool    have_rows;
    row_set rows;
} outcome;

static void outcome_free(outcome *o) {
    row_set_free(&o->rows);
    memset(o, 0, sizeof *o);
}

static char *dup_or_null(const char *s, size_t len) {
    char *d = malloc(len + 1);
    if (!d) abort();
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

/* ---- PostgreSQL side ----------------------------------------------------------- */

/* Only floats compare within a tolerance (the engines may add them in
 * another order); integers and NUMERIC are exact in both engines, so their
 * text, display scale included, must match byte for byte. */
static bool oid_is_numeric(Oid oid) {
    return oid == 700 || oid == 701 || (getenv("ATTU_DIFF_LOOSE_NUMERIC") &&
                                        (oid == 20 || oid == 21 || oid == 23 || oid == 1700));
}

static void pg_run(PGconn *conn, const char *sql, outcome *o) {
    memset(o, 0, sizeof *o);
    PGresult *res = PQexec(conn, sql);
    ExecStatusType st = PQresultStatus(res);
    if (st == PGRES_TUPLES_OK) {
        o->have_rows = true;
        row_set *rs = &o->rows;
        rs->ncols = PQnfields(res);
        rs->nrows = (size_t)PQntuples(res);
        rs->vals = calloc(rs->nrows * (size_t)rs->ncols + 1, sizeof *rs->vals);
        rs->numeric = calloc((size_t)rs->ncols + 1, sizeof *rs->numeric);
        if (!rs->vals || !rs->numeric) abort();
        for (int c = 0; c < rs->ncols; c++) rs->numeric[c] = oid_is_numeric(PQftype(res, c));
        for (size_t r = 0; r < rs->nrows; r++)
            for (int c = 0; c < rs->ncols; c++)
                if (!PQgetisnull(res, (int)r, c))
                    rs->vals[r * (size_t)rs->ncols + (size_t)c] =
                        dup_or_null(PQgetvalue(res, (int)r, c), (size_t)PQgetlength(res, (int)r, c));
    } else if (st != PGRES_COMMAND_OK) {
        o->failed = true;
        const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
        const char *msg = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
        snprintf(o->sqlstate, sizeof o->sqlstate, "%s", state ? state : "XX000");
        snprintf(o->message, sizeof o->message, "%s", msg ? msg : PQerrorMessage(conn));
    }
    PQclear(res);
}

/* ---- attu side -------------------------------------------------------------------- */

static int attu_on_result(void *ctx, attu_result *res) {
    outcome *o = ctx;
    if (!res->returns_rows) return 0;
    row_set_free(&o->rows);
    o->have_rows = true;
    row_set *rs = &o->rows;
    rs->ncols = res->ncols;
    rs->nrows = res->nrows;
    rs->vals = calloc(rs->nrows * (size_t)rs->ncols + 1, sizeof *rs->vals);
    rs->numeric = calloc((size_t)rs->ncols + 1, sizeof *rs->numeric);
    if (!rs->vals || !rs->numeric) abort();
    char buf[256];
    for (size_t r = 0; r < rs->nrows; r++) {
        for (int c = 0; c < rs->ncols; c++) {
            const char *longv = NULL;
            size_t len = attu_column_format(res->cols[c], r, buf, sizeof buf, &longv);
            if (len != (size_t)-1)
                rs->vals[r * (size_t)rs->ncols + (size_t)c] = dup_or_null(longv ? longv : buf, len);
        }
    }
    return 0;
}

static void attu_on_error(void *ctx, const attu_error *err) {
    outcome *o = ctx;
    o->failed = true;
    snprintf(o->sqlstate, sizeof o->sqlstate, "%s", err->sqlstate);
    snprintf(o->message, sizeof o->message, "%s", err->message);
}

static void attu_run(attu_session *s, const char *sql, outcome *o) {
    memset(o, 0, sizeof *o);
    attu_exec_callbacks cb = { 0 };
    cb.ctx = o;
    cb.on_result = attu_on_result;
    cb.on_error = attu_on_error;
    if (attu_session_exec(s, sql, &cb) < 0 && !o->failed) {
        o->failed = true;
        snprintf(o->sqlstate, sizeof o->sqlstate, "XX000");
        snprintf(o->message, sizeof o->message, "attu_session_exec failed without on_error");
    }
}

/* ---- one backend under test -------------------------------------------------------- */

typedef struct backend {
    const char   *name;
    attu_db      *db;
    attu_session *session;
    long agreed, both_failed, differed, refused;
} backend;

static bool open_backend(backend *b, const char *name, bool required) {
    memset(b, 0, sizeof *b);
    b->name = name;
    attu_db_config cfg = { 0 };
    cfg.device = strcmp(name, "gpu") == 0 ? ATTU_DEVICE_GPU : ATTU_DEVICE_CPU;
    attu_error err;
    attu_error_clear(&err);
    b->db = attu_db_open(&cfg, &err);
    if (!b->db) {
        printf("%s: %s backend not available: %s: %s\n", required ? "FAIL" : "note", name,
               err.sqlstate, err.message);
        return false;
    }
    b->session = attu_session_new(b->db);
    if (!b->session) {
        printf("FAIL: %s: cannot open a session\n", name);
        attu_db_close(b->db);
        b->db = NULL;
        return false;
    }
    printf("%s backend: %s\n", name, attu_db_device_description(b->db));
    return true;
}

static void close_backend(backend *b) {
    if (b->session) attu_session_free(b->session);
    if (b->db) attu_db_close(b->db);
    b->session = NULL;
    b->db = NULL;
}

/* Compares attu's outcome with PostgreSQL's; prints a report on difference. */
static bool judge(backend *b, long index, uint64_t seed, const char *sql, bool ordered,
                  outcome *pg, outcome *at, bool verbose) {
    char why[1200] = "";
    bool ok;
    if (at->failed && strcmp(at->sqlstate, "0A000") == 0 && !getenv("ATTU_DIFF_STRICT_0A000")) {
        /* attu refuses some inputs on purpose (regular expressions whose
         * answer glibc's matcher might give otherwise than PostgreSQL's,
         * docs/sql-functions.md): a refusal is no wrong answer, whatever
         * PostgreSQL did. Counted apart, listed under -v. */
        b->refused++;
        b->agreed++;
        if (verbose) printf("refused %ld [%s]: %s: %s\n", index, b->name, sql, at->message);
        return true;
    }
    if (pg->failed || at->failed) {
        ok = pg->failed && at->failed && strcmp(pg->sqlstate, at->sqlstate) == 0;
        if (!ok) {
            if (pg->failed && at->failed)
                snprintf(why, sizeof why, "PostgreSQL: %s %s; attu: %s %s", pg->sqlstate,
                         pg->message, at->sqlstate, at->message);
            else if (pg->failed)
                snprintf(why, sizeof why, "PostgreSQL failed (%s %s), attu succeeded",
                         pg->sqlstate, pg->message);
            else
                snprintf(why, sizeof why, "attu failed (%s %s), PostgreSQL succeeded",
                         at->sqlstate, at->message);
        }
    } else if (!pg->have_rows || !at->have_rows) {
        ok = pg->have_rows == at->have_rows;
        if (!ok) snprintf(why, sizeof why, "only one side returned rows");
    } else {
        /* attu's result compares column by column as PostgreSQL's types say. */
        if (at->rows.ncols == pg->rows.ncols)
            memcpy(at->rows.numeric, pg->rows.numeric, sizeof(bool) * (size_t)pg->rows.ncols);
        if (!ordered) {
            row_set_sort(&pg->rows);
            row_set_sort(&at->rows);
        }
        ok = row_set_equal(&pg->rows, &at->rows, why, sizeof why);
    }
    if (ok) {
        if (pg->failed) b->both_failed++;
        b->agreed++;
        if (verbose && pg->failed) printf("ok %ld [%s] (both %s %s): %s\n", index, b->name, pg->sqlstate, pg->message, sql);
        else if (verbose) printf("ok %ld [%s]: %s\n", index, b->name, sql);
        return true;
    }
    b->differed++;
    printf("DIFF query %ld [%s] (replay: --seed %llu --only %ld)\n  sql: %s\n  %s\n", index,
           b->name, (unsigned long long)seed, index, sql, why);
    if (pg->have_rows) {
        printf("  PostgreSQL (%zu rows):\n", pg->rows.nrows);
        row_set_print(&pg->rows, "    ", 10);
    }
    if (at->have_rows) {
        printf("  attu (%zu rows):\n", at->rows.nrows);
        row_set_print(&at->rows, "    ", 10);
    }
    return false;
}

/* ---- main ------------------------------------------------------------------------------- */

static void usage(void) {
    fprintf(stderr, "usage: differential [--seed N] [--queries N] [--seconds S] [--rows N]\n"
                    "                    [--backend cpu|gpu|all] [--only I] [--max-failures N] [-v] [--trace]\n"
                    "       differential --seed N [--rows N] --dump-setup\n");
}

int main(int argc, char **argv) {
    uint64_t seed = 1;
    long queries = 300, only = -1, max_failures = 20;
    double seconds = 0;
    int rows = 120;
    const char *backend_opt = "all";
    bool verbose = false, dump_setup = false, trace = false;
    for (int a = 1; a < argc; a++) {
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (strcmp(argv[a], "--seed") == 0 && v) { seed = strtoull(v, NULL, 10); a++; }
        else if (strcmp(argv[a], "--queries") == 0 && v) { queries = atol(v); a++; }
        else if (strcmp(argv[a], "--seconds") == 0 && v) { seconds = atof(v); a++; }
        else if (strcmp(argv[a], "--rows") == 0 && v) { rows = atoi(v); a++; }
        else if (strcmp(argv[a], "--backend") == 0 && v) { backend_opt = v; a++; }
        else if (strcmp(argv[a], "--only") == 0 && v) { only = atol(v); a++; }
        else if (strcmp(argv[a], "--max-failures") == 0 && v) { max_failures = atol(v); a++; }
        else if (strcmp(argv[a], "-v") == 0) verbose = true;
        else if (strcmp(argv[a], "--trace") == 0) trace = true;
        else if (strcmp(argv[a], "--dump-setup") == 0) dump_setup = true;
        else { usage(); return 2; }
    }
    if (dump_setup) {
        rng dr;
        rng_seed(&dr, seed);
        char **setup = random_sql_setup(&dr, rows);
        for (char **st = setup; *st; st++) printf("%s;\n", *st);
        random_sql_free_list(setup);
        return 0;
    }

    pg_server srv;
    char why[512] = "";
    int rc = pg_server_start(&srv, why, sizeof why);
    if (rc == 1) {
        printf("SKIP: %s\n", why);
        return SKIP_EXIT;
    }
    if (rc != 0) {
        printf("FAIL: cannot start PostgreSQL: %s\n", why);
        return 1;
    }
    PGconn *pg = PQconnectdb(srv.dsn);
    if (PQstatus(pg) != CONNECTION_OK) {
        printf("FAIL: cannot connect to PostgreSQL (%s): %s\n", srv.dsn, PQerrorMessage(pg));
        PQfinish(pg);
        pg_server_stop(&srv);
        return 1;
    }
    PQclear(PQexec(pg, "SET datestyle = 'ISO, MDY'; SET TimeZone = 'UTC'; "
                       "SET client_min_messages = warning; SET statement_timeout = '20s'; "
                       "DROP TABLE IF EXISTS t0, t1, t2"));
    printf("PostgreSQL: %s\n", PQparameterStatus(pg, "server_version"));

    backend backends[2];
    int nb = 0;
    bool want_cpu = strcmp(backend_opt, "cpu") == 0 || strcmp(backend_opt, "all") == 0;
    bool want_gpu = strcmp(backend_opt, "gpu") == 0 || strcmp(backend_opt, "all") == 0;
    int status = 0;
    if (want_cpu) {
        if (open_backend(&backends[nb], "cpu", true)) nb++;
        else status = 1;
    }
    if (want_gpu) {
        bool required = strcmp(backend_opt, "gpu") == 0;
        if (open_backend(&backends[nb], "gpu", required)) nb++;
        else if (required) status = 1;
    }

    /* The tables: the same statements on every side. */
    rng setup_rng;
    rng_seed(&setup_rng, seed);
    char **setup = random_sql_setup(&setup_rng, rows);
    for (char **st = setup; *st && status == 0; st++) {
        outcome o;
        pg_run(pg, *st, &o);
        if (o.failed) {
            printf("FAIL: setup failed on PostgreSQL: %s %s\n  sql: %.200s\n", o.sqlstate, o.message, *st);
            status = 1;
        }
        outcome_free(&o);
        for (int b = 0; b < nb && status == 0; b++) {
            attu_run(backends[b].session, *st, &o);
            if (o.failed) {
                printf("FAIL: setup failed on attu [%s]: %s %s\n  sql: %.200s\n", backends[b].name,
                       o.sqlstate, o.message, *st);
                status = 1;
            }
            outcome_free(&o);
        }
    }
    random_sql_free_list(setup);

    long ran = 0;
    time_t start = time(NULL);
    long total_diff = 0;
    for (long i = (only >= 0 ? only : 0); status == 0; i++) {
        if (only >= 0 && i > only) break;
        if (only < 0 && queries > 0 && i >= queries) break;
        if (seconds > 0 && difftime(time(NULL), start) >= seconds) break;
        if (total_diff >= max_failures) {
            printf("stopping after %ld differences (--max-failures)\n", total_diff);
            break;
        }
        rng qr;
        rng_seed(&qr, seed * 1000003u + (uint64_t)i);
        bool ordered;
        char *sql = random_sql_query(&qr, &ordered);
        if (trace) {   /* before it runs, so a crash names its query */
            fprintf(stderr, "run %ld: %s\n", i, sql);
            fflush(stderr);
        }
        outcome po;
        pg_run(pg, sql, &po);
        for (int b = 0; b < nb; b++) {
            outcome ao;
            attu_run(backends[b].session, sql, &ao);
            if (!judge(&backends[b], i, seed, sql, ordered, &po, &ao, verbose)) total_diff++;
            outcome_free(&ao);
        }
        outcome_free(&po);
        free(sql);
        ran++;
    }

    for (int b = 0; b < nb; b++) {
        printf("%s: %ld queries, %ld agreed with PostgreSQL (%ld of them errors on both sides, %ld refused by attu "
               "with 0A000), %ld differed\n",
               backends[b].name, ran, backends[b].agreed, backends[b].both_failed, backends[b].refused,
               backends[b].differed);
        if (backends[b].differed) status = 1;
        close_backend(&backends[b]);
    }
    PQfinish(pg);
    pg_server_stop(&srv);
    printf("%s (seed %llu)\n", status == 0 ? "PASS" : "FAIL", (unsigned long long)seed);
    return status;
}
