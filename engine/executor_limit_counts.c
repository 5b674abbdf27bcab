/*
 * executor_limit_counts.c - the counts of a LIMIT stage that reads the
 * enclosing query's row (LIMIT t1.n in a correlated or LATERAL subquery).
 *
 * Such counts are known only once the APPLY stage around the subquery has
 * bound its parameters, so they are computed each time the stage runs, as
 * PostgreSQL's Limit node computes them when it starts (recompute_limits):
 * the OFFSET first, checked before the LIMIT is computed; NULL is no
 * offset / no limit (WITH TIES too: only a literal NULL is an error, which
 * the binder raises); a negative count is an error even when the input has
 * no row, since the node checks before it reads one. A generate_series or
 * WITH RECURSIVE read only through the LIMIT (stop_per_run) is told where
 * it may stop, as a constant LIMIT tells it at plan time.
 */
#include "engine/executor_internal.h"

#include <stdint.h>

/* Count k of s (0 OFFSET, 1 LIMIT) into *v; *null when NULL. */
static int count_value(xctx *x, const attu_stage *s, int k, int64_t *v, bool *null) {
    const attu_stage_exprs *ex = &s->counts[k];
    rel one = { 0, NULL, 1, NULL };    /* no columns: the parameters broadcast to its one row */
    xcol *o = NULL;
    uint8_t valid = 1;
    if (ex->n != 1)
        return attu_error_set(x->err, ATTU_SQLSTATE_INTERNAL, 0, "a LIMIT stage without its count programs");
    if (eval_exprs(x, ex, &one, &o)) return -1;
    int rc = x->be->download(x->be, v, o->data, 0, sizeof *v, x->err);
    if (!rc && o->valid) rc = x->be->download(x->be, &valid, o->valid, 0, 1, x->err);
    xcol_unref(x, o);
    *null = !valid;
    return rc;
}

int limit_counts_now(xctx *x, attu_stage *s) {
    int64_t off = 0, lim = 0;
    bool off_null = true, lim_null = true;
    if (count_value(x, s, 0, &off, &off_null)) return -1;
    if (!off_null && off < 0) return attu_error_set(x->err, "2201X", 0, "OFFSET must not be negative");
    if (count_value(x, s, 1, &lim, &lim_null)) return -1;
    if (!lim_null && lim < 0) return attu_error_set(x->err, "2201W", 0, "LIMIT must not be negative");
    /* this run's counts, where the rest of the LIMIT code reads them (per
     * run state, as act_rows; every run sets them before reading them) */
    s->offset = off_null ? 0 : off;
    s->limit = lim_null ? -1 : lim;
    /* a generate_series or WITH RECURSIVE read only through this LIMIT
     * (planner/rewrite.c's topk) stops once it has the rows kept, as
     * PostgreSQL's pulls from it do */
    attu_stage *r = s->child[0];
    while (r && r->kind == ATTU_ST_PROJECT) r = r->child[0];
    if (r && r->stop_per_run)
        r->limit = s->limit < 0 ? -1 : s->offset > INT64_MAX - s->limit ? INT64_MAX : s->offset + s->limit;
    return 0;
}
