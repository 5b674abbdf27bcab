/*
 * ssb_engine: the few things the SSB runner asks of an engine: create and
 * load the five tables from ssbgen's CSV files, and answer a query as text.
 * Three engines implement it: ssb_pg.c (attud or PostgreSQL over libpq),
 * ssb_inproc.c (attu linked in) and duckdb/duckdb_engine.c (DuckDB's C
 * library, loaded with dlopen).
 */
#ifndef ATTU_SSB_ENGINE_H
#define ATTU_SSB_ENGINE_H

#include "ssb_result.h"

typedef struct ssb_engine ssb_engine_t;

struct ssb_engine {
    const char *name;
    /* Drops (if present), creates and loads the tables. schema is the text of
     * schema.sql; data_dir holds <table>.csv. Returns 0, or -1 with a message
     * on stderr. progress: print per-table load times. */
    int (*load)(ssb_engine_t *e, const char *schema, const char *data_dir);
    /* Runs one statement and returns its answer (or an error result). */
    ssb_result_t *(*query)(ssb_engine_t *e, const char *sql);
    void (*close)(ssb_engine_t *e);
    void *impl;
    /* Seconds a query may run before it is cancelled and reported as failed
     * (0: no limit). Only the server engine honours it. */
    double timeout_s;
};

/* Connects with a libpq conninfo string; NULL (message on stderr) on failure. */
ssb_engine_t *ssb_pg_open(const char *conninfo);
/* attu linked into this process (db/database.h) on device "cpu", "gpu" or
 * "auto", in memory; NULL (message on stderr) when it cannot open. Built
 * when ATTU_SSB_INPROC is defined (the library is part of the build). */
ssb_engine_t *ssb_inproc_open(const char *device);
/* Loads libduckdb.so from lib_path and opens an in-memory database using
 * threads worker threads (0: DuckDB's default, all cores). */
ssb_engine_t *ssb_duckdb_open(const char *lib_path, int threads);

/* The five tables in load order, and the number of them. */
extern const char *const ssb_tables[5];

/* Runs each ';'-terminated statement of script through exec(arg, stmt),
 * skipping comment-only pieces; stops at the first failure (-1). schema.sql
 * has no ';' inside strings or comments, which this relies on. */
int ssb_exec_script(int (*exec)(void *, const char *), void *arg,
                    const char *script);

/* Seconds on a monotonic clock. */
double ssb_now(void);

#endif
