/*
 * duckdb_engine: the SSB runner's DuckDB engine, through DuckDB's C API.
 *
 * libduckdb.so comes from npm (@duckdb/node-bindings-linux-x64, see
 * install.sh) and is loaded at run time with dlopen, so nothing in the build
 * depends on DuckDB. We declare the handful of C API functions and the one
 * struct we use ourselves, from DuckDB's public duckdb.h (stable C API, v1.x):
 * a duckdb_result is passed by pointer but allocated by the caller, so its
 * layout (six pointer-sized fields) must match.
 *
 * Loading: the same schema.sql as the server, then COPY <table> FROM '<csv>'
 * (DuckDB reads the file in parallel). Queries run with `threads` workers
 * (all cores by default).
 */
#include "../ssb_engine.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t idx_t;
typedef void *duckdb_database;
typedef void *duckdb_connection;
typedef enum { DuckDBSuccess = 0, DuckDBError = 1 } duckdb_state;
typedef struct {
    idx_t deprecated_column_count;
    idx_t deprecated_row_count;
    idx_t deprecated_rows_changed;
    void *deprecated_columns;
    char *deprecated_error_message;
    void *internal_data;
} duckdb_result;

typedef struct {
    void *lib;
    duckdb_database db;
    duckdb_connection conn;
    duckdb_state (*open)(const char *, duckdb_database *);
    duckdb_state (*connect)(duckdb_database, duckdb_connection *);
    duckdb_state (*query)(duckdb_connection, const char *, duckdb_result *);
    const char *(*result_error)(duckdb_result *);
    idx_t (*column_count)(duckdb_result *);
    idx_t (*row_count)(duckdb_result *);
    char *(*value_varchar)(duckdb_result *, idx_t col, idx_t row);
    _Bool (*value_is_null)(duckdb_result *, idx_t col, idx_t row);
    void (*destroy_result)(duckdb_result *);
    void (*disconnect)(duckdb_connection *);
    void (*close)(duckdb_database *);
    void (*free)(void *);
    const char *(*library_version)(void);
} duck_t;

static int run(duck_t *d, const char *sql) {
    duckdb_result r;
    memset(&r, 0, sizeof r);
    int rc = 0;
    if (d->query(d->conn, sql, &r) != DuckDBSuccess) {
        fprintf(stderr, "ssb: duckdb: %s: %s\n", sql, d->result_error(&r));
        rc = -1;
    }
    d->destroy_result(&r);
    return rc;
}

static int duck_exec_cb(void *arg, const char *sql) { return run(arg, sql); }

static int duck_load(ssb_engine_t *e, const char *schema, const char *data_dir) {
    duck_t *d = e->impl;
    for (int i = 0; i < 5; i++) {
        char sql[128];
        snprintf(sql, sizeof sql, "DROP TABLE IF EXISTS %s", ssb_tables[i]);
        if (run(d, sql) != 0) return -1;
    }
    if (ssb_exec_script(duck_exec_cb, d, schema) != 0) return -1;
    for (int i = 0; i < 5; i++) {
        char sql[4400];
        snprintf(sql, sizeof sql,
                 "COPY %s FROM '%s/%s.csv' (FORMAT csv, HEADER false)",
                 ssb_tables[i], data_dir, ssb_tables[i]);
        double t0 = ssb_now();
        if (run(d, sql) != 0) return -1;
        fprintf(stderr, "ssb: duckdb: loaded %s in %.2f s\n", ssb_tables[i],
                ssb_now() - t0);
    }
    return 0;
}

static ssb_result_t *duck_query(ssb_engine_t *e, const char *sql) {
    duck_t *d = e->impl;
    duckdb_result r;
    memset(&r, 0, sizeof r);
    if (d->query(d->conn, sql, &r) != DuckDBSuccess) {
        ssb_result_t *res = ssb_result_error(d->result_error(&r));
        d->destroy_result(&r);
        return res;
    }
    idx_t nc = d->column_count(&r), nr = d->row_count(&r);
    ssb_result_t *res = ssb_result_new((int)nc);
    char **vals = calloc(nc + 1, sizeof *vals);
    for (idx_t i = 0; i < nr; i++) {
        for (idx_t j = 0; j < nc; j++)
            vals[j] = d->value_is_null(&r, j, i) ? NULL : d->value_varchar(&r, j, i);
        ssb_result_add_row(res, (const char *const *)vals);
        for (idx_t j = 0; j < nc; j++)
            if (vals[j]) d->free(vals[j]);
    }
    free(vals);
    d->destroy_result(&r);
    return res;
}

static void duck_close(ssb_engine_t *e) {
    duck_t *d = e->impl;
    d->disconnect(&d->conn);
    d->close(&d->db);
    /* The library stays mapped: DuckDB's static destructors run at exit. */
    free(d);
    free(e);
}

ssb_engine_t *ssb_duckdb_open(const char *lib_path, int threads) {
    void *lib = dlopen(lib_path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "ssb: cannot load DuckDB: %s\n"
                        "     (install it with bench/ssb/duckdb/install.sh)\n",
                dlerror());
        return NULL;
    }
    duck_t *d = calloc(1, sizeof *d);
    d->lib = lib;
    struct { const char *name; void **slot; } syms[] = {
        {"duckdb_open", (void **)&d->open},
        {"duckdb_connect", (void **)&d->connect},
        {"duckdb_query", (void **)&d->query},
        {"duckdb_result_error", (void **)&d->result_error},
        {"duckdb_column_count", (void **)&d->column_count},
        {"duckdb_row_count", (void **)&d->row_count},
        {"duckdb_value_varchar", (void **)&d->value_varchar},
        {"duckdb_value_is_null", (void **)&d->value_is_null},
        {"duckdb_destroy_result", (void **)&d->destroy_result},
        {"duckdb_disconnect", (void **)&d->disconnect},
        {"duckdb_close", (void **)&d->close},
        {"duckdb_free", (void **)&d->free},
        {"duckdb_library_version", (void **)&d->library_version},
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
        *syms[i].slot = dlsym(lib, syms[i].name);
        if (!*syms[i].slot) {
            fprintf(stderr, "ssb: %s lacks %s\n", lib_path, syms[i].name);
            free(d);
            return NULL;
        }
    }
    if (d->open(NULL, &d->db) != DuckDBSuccess ||
        d->connect(d->db, &d->conn) != DuckDBSuccess) {
        fprintf(stderr, "ssb: cannot open a DuckDB database\n");
        free(d);
        return NULL;
    }
    if (threads > 0) {
        char sql[64];
        snprintf(sql, sizeof sql, "SET threads = %d", threads);
        run(d, sql);
    }
    fprintf(stderr, "ssb: DuckDB %s\n", d->library_version());
    ssb_engine_t *e = calloc(1, sizeof *e);
    e->name = "duckdb";
    e->load = duck_load;
    e->query = duck_query;
    e->close = duck_close;
    e->impl = d;
    return e;
}
