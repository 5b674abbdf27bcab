/*
 * db_explain_write.c - EXPLAIN [ANALYZE] of the writes whose new table
 * version is built on the host: UPDATE / DELETE (db_modify.c) and MERGE
 * (db_merge.c).
 *
 * Their plan is that of the query that finds the rows and computes the
 * values ("Update on t", "Merge on t" over it). ANALYZE runs the statement
 * first, as EXPLAIN ANALYZE INSERT does (the rows change), keeping only its
 * tag and its time; the stages are not instrumented on that path. The
 * callers bind and lower their own query; what they share is here.
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/explain.h"
#include "planner/lower.h"
#include "planner/rewrite.h"

typedef struct ran {
    const attu_exec_callbacks *outer;
    char                       tag[64];
} ran;

static int ran_result(void *ctx, attu_result *r) {
    snprintf(((ran *)ctx)->tag, sizeof ((ran *)ctx)->tag, "%s", r->tag);
    return 0;   /* RETURNING's rows are not shown */
}

static void ran_notice(void *ctx, const char *sqlstate, const char *message) {
    ran *x = ctx;
    if (x->outer && x->outer->on_notice) x->outer->on_notice(x->outer->ctx, sqlstate, message);
}

int db_explain_write_run(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                         const attu_exec_callbacks *cb, db_write_fn run, db_explain_write *w, attu_error *err) {
    ran r = { cb, "" };
    attu_exec_callbacks rcb;
    memset(&rcb, 0, sizeof rcb);
    rcb.ctx = &r;
    rcb.on_result = ran_result;
    rcb.on_notice = ran_notice;
    double t0 = attu_now_ms();
    int rc = run(s, sql, st, params, &rcb, err);
    w->ms = attu_now_ms() - t0;
    snprintf(w->tag, sizeof w->tag, "%s", r.tag);
    w->ran = true;
    return rc;
}

/* Inserts text as line at of *lines. */
static int push_line(char ***lines, int *nl, int at, const char *text) {
    char **n = realloc(*lines, sizeof(char *) * (size_t)(*nl + 1));
    if (!n) return -1;
    *lines = n;
    char *l = strdup(text);
    if (!l) return -1;
    memmove(n + at + 1, n + at, sizeof(char *) * (size_t)(*nl - at));
    n[at] = l;
    (*nl)++;
    return 0;
}

int db_explain_write_lines(attu_session *s, attu_plan_arena *pa, attu_lplan *lp, const char *head,
                           db_explain_write *w, attu_error *err) {
    if (!(lp = attu_rewrite(pa, lp, err))) return -1;
    attu_stage *stg = attu_lower(lp, err);
    if (!stg) return -1;
    int bad = attu_explain(stg, false, s->db->be->kind == ATTU_DEVICE_KIND_GPU ? "GPU" : "CPU", &w->lines, &w->nl) < 0;
    attu_stage_free(stg);
    if (bad || push_line(&w->lines, &w->nl, 0, head)) return attu_error_oom(err);
    if (w->ran) {
        char buf[160];
        snprintf(buf, sizeof buf, "%s (the statement ran)", w->tag);
        if (push_line(&w->lines, &w->nl, 0, buf)) return attu_error_oom(err);
        snprintf(buf, sizeof buf, "Execution Time: %.3f ms on %s", w->ms, s->db->be->name);
        if (push_line(&w->lines, &w->nl, w->nl, buf)) return attu_error_oom(err);
    }
    return 0;
}

int db_explain_write_finish(const attu_exec_callbacks *cb, db_explain_write *w, int rc, attu_error *err) {
    attu_result *r = NULL;
    if (!rc && !(r = db_explain_result(w->lines, w->nl, err))) rc = -1;
    for (int i = 0; i < w->nl; i++) free(w->lines[i]);
    free(w->lines);
    w->lines = NULL;
    w->nl = 0;
    if (rc) return rc;
    return db_deliver(cb, r) ? -2 : 0;
}
