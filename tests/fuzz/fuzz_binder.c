/*
 * fuzz_binder.c - fuzz target for the whole front end: lexer, grammar,
 * binder, rewrites, lowering and EXPLAIN, through db/database.h. Each input
 * is run as `EXPLAIN <input>` against an in-memory database holding a few
 * small tables, so every name, type, function, aggregate, window and
 * subquery rule of the binder is reachable while nothing executes (the
 * fuzzer cannot start a cross join of big tables or write files).
 *
 * Invariants beyond "no crash, no leak, no sanitizer report": a failure
 * always carries a five-character SQLSTATE and a message, and its position
 * lies inside the statement or one past its end.
 *
 * With clang this is a libFuzzer binary; with gcc fuzz_replay.c drives it
 * over the parser's seed corpus and deterministic mutations of it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db/database.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static attu_db *db;
static attu_session *session;

typedef struct outcome {
    int failed;
    attu_error err;
} outcome;

static void on_error(void *ctx, const attu_error *e) {
    outcome *o = ctx;
    o->failed = 1;
    o->err = *e;
}

static void setup(void) {
    attu_db_config cfg = { 0 };
    cfg.device = ATTU_DEVICE_CPU;
    cfg.threads = 1;
    cfg.load_dir = "/nonexistent-attu-fuzz";   /* COPY from files always refused */
    attu_error err;
    attu_error_clear(&err);
    db = attu_db_open(&cfg, &err);
    CHECK(db != NULL);
    session = attu_session_new(db);
    outcome o = { 0 };
    attu_exec_callbacks cb = { .ctx = &o, .on_error = on_error };
    attu_session_exec(session,
        "CREATE TABLE t (a INTEGER, b TEXT, c DOUBLE PRECISION, d DATE, e BIGINT, f NUMERIC(10,2), g BOOLEAN);"
        "INSERT INTO t VALUES (1, 'x', 1.5, DATE '2024-01-02', 10, 3.25, true),"
        " (2, NULL, -2.0, NULL, NULL, 0.5, false), (NULL, 'y', NULL, DATE '1999-12-31', 7, NULL, NULL);"
        "CREATE TABLE u (a INTEGER, name TEXT, ts TIMESTAMP, r REAL);"
        "INSERT INTO u VALUES (1, 'one', TIMESTAMP '2024-01-01 10:00:00', 0.5), (3, 'three', NULL, NULL);"
        "CREATE TABLE cities (state TEXT, name TEXT, lat DOUBLE PRECISION, lon DOUBLE PRECISION);"
        "INSERT INTO cities VALUES ('AK', 'Adak', 51.88, -176.65), ('AK', 'Atka', 52.2, -174.2)",
        &cb);
    CHECK(!o.failed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!db) setup();
    if (size > 1 << 16) return 0;
    /* "EXPLAIN " + input, NUL-terminated; an embedded NUL ends the text,
     * as it would for a client. */
    static const char prefix[] = "EXPLAIN ";
    char *sql = malloc(sizeof prefix + size);
    CHECK(sql != NULL);
    memcpy(sql, prefix, sizeof prefix - 1);
    memcpy(sql + sizeof prefix - 1, data, size);
    sql[sizeof prefix - 1 + size] = '\0';
    size_t len = strlen(sql);
    outcome o = { 0 };
    attu_exec_callbacks cb = { .ctx = &o, .on_error = on_error };
    attu_session_exec(session, sql, &cb);
    if (o.failed) {
        CHECK(strlen(o.err.sqlstate) == 5);
        CHECK(o.err.message[0] != '\0');
        CHECK(o.err.position >= 0 && (size_t)o.err.position <= len + 1);
    }
    /* A failed transaction block would turn every later input into 25P02:
     * leave it, so each input starts clean. */
    if (attu_session_txn_status(session) != 'I') {
        outcome o2 = { 0 };
        attu_exec_callbacks cb2 = { .ctx = &o2, .on_error = on_error };
        attu_session_exec(session, "ROLLBACK", &cb2);
    }
    free(sql);
    return 0;
}
