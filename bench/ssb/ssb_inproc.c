/*
 * ssb_inproc: the SSB engine that is attu itself, linked in (db/database.h),
 * with no server and no socket in between.
 *
 * It measures the engine alone (ssb_run --inproc gpu reports what a query
 * costs inside attud, without the wire), and it makes the whole benchmark
 * one process that exits, which is what profilers such as Nsight Compute
 * need: they cannot wait on a daemon. The tables load with server-side
 * COPY ... FROM 'file' (the library reads the CSV itself).
 */
#include "ssb_engine.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/database.h"

typedef struct {
    attu_db *db;
    attu_session *s;
} inproc_t;

/* What a statement left: its answer as text, or its error. */
typedef struct {
    ssb_result_t *res;
    char error[600];
} collect_t;

static int on_result(void *ctx, attu_result *r) {
    collect_t *c = ctx;
    if (!r->returns_rows) return 0;
    ssb_result_free(c->res);
    c->res = ssb_result_new(r->ncols);
    char **vals = calloc((size_t)r->ncols ? (size_t)r->ncols : 1, sizeof *vals);
    char(*bufs)[128] = calloc((size_t)r->ncols ? (size_t)r->ncols : 1, sizeof *bufs);
    for (size_t row = 0; row < r->nrows; row++) {
        for (int j = 0; j < r->ncols; j++) {
            const char *lng = NULL;
            size_t n = attu_column_format(r->cols[j], row, bufs[j], sizeof bufs[j] - 1, &lng);
            if (n == (size_t)-1) { vals[j] = NULL; continue; }
            if (lng) {
                /* a value longer than the buffer: copy it whole */
                vals[j] = strndup(lng, n);
            } else {
                bufs[j][n] = 0;
                vals[j] = bufs[j];
            }
        }
        ssb_result_add_row(c->res, (const char *const *)vals);
        for (int j = 0; j < r->ncols; j++)
            if (vals[j] && vals[j] != bufs[j]) free(vals[j]);
    }
    free(vals);
    free(bufs);
    return 0;
}

static void on_error(void *ctx, const attu_error *err) {
    collect_t *c = ctx;
    snprintf(c->error, sizeof c->error, "%s: %s", err->sqlstate, err->message);
}

/* Runs sql; the answer of its last row-returning statement, or its error. */
static ssb_result_t *run(inproc_t *p, const char *sql) {
    collect_t c = {0};
    attu_exec_callbacks cb = {.ctx = &c, .on_result = on_result, .on_error = on_error};
    int rc = attu_session_exec(p->s, sql, &cb);
    if (rc < 0 || c.error[0]) {
        ssb_result_free(c.res);
        return ssb_result_error(c.error[0] ? c.error : "failed");
    }
    return c.res ? c.res : ssb_result_new(0);
}

static int exec_cb(void *arg, const char *sql) {
    ssb_result_t *r = run(arg, sql);
    int rc = r->error ? -1 : 0;
    if (rc) fprintf(stderr, "ssb: %s\n", r->error);
    ssb_result_free(r);
    return rc;
}

static int inproc_load(ssb_engine_t *e, const char *schema, const char *data_dir) {
    inproc_t *p = e->impl;
    for (int t = 0; t < 5; t++) {
        char sql[PATH_MAX + 64];
        snprintf(sql, sizeof sql, "DROP TABLE IF EXISTS %s", ssb_tables[t]);
        if (exec_cb(p, sql)) return -1;
    }
    if (ssb_exec_script(exec_cb, p, schema)) return -1;
    char abs[PATH_MAX];
    if (!realpath(data_dir, abs)) {
        fprintf(stderr, "ssb: cannot find %s\n", data_dir);
        return -1;
    }
    for (int t = 0; t < 5; t++) {
        char sql[2 * PATH_MAX];
        double t0 = ssb_now();
        snprintf(sql, sizeof sql, "COPY %s FROM '%s/%s.csv' WITH (FORMAT csv)", ssb_tables[t], abs, ssb_tables[t]);
        if (exec_cb(p, sql)) return -1;
        fprintf(stderr, "ssb: loaded %s in %.1f s\n", ssb_tables[t], ssb_now() - t0);
    }
    return 0;
}

static ssb_result_t *inproc_query(ssb_engine_t *e, const char *sql) { return run(e->impl, sql); }

static void inproc_close(ssb_engine_t *e) {
    inproc_t *p = e->impl;
    attu_session_free(p->s);
    attu_db_close(p->db);
    free(p);
    free(e);
}

ssb_engine_t *ssb_inproc_open(const char *device) {
    attu_db_config cfg = {0};
    if (!strcmp(device, "gpu")) cfg.device = ATTU_DEVICE_GPU;
    else if (!strcmp(device, "cpu")) cfg.device = ATTU_DEVICE_CPU;
    else if (!strcmp(device, "auto")) cfg.device = ATTU_DEVICE_AUTO;
    else {
        fprintf(stderr, "ssb: --inproc takes cpu, gpu or auto, not %s\n", device);
        return NULL;
    }
    attu_error err = {0};
    inproc_t *p = calloc(1, sizeof *p);
    ssb_engine_t *e = calloc(1, sizeof *e);
    if (!p || !e || !(p->db = attu_db_open(&cfg, &err))) {
        fprintf(stderr, "ssb: cannot open attu in process: %s\n", err.message);
        free(p);
        free(e);
        return NULL;
    }
    p->s = attu_session_new(p->db);
    fprintf(stderr, "ssb: attu in process on %s\n", attu_db_device_description(p->db));
    e->name = "attu (in process)";
    e->load = inproc_load;
    e->query = inproc_query;
    e->close = inproc_close;
    e->impl = p;
    return e;
}
