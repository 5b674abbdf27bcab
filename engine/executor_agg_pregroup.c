/*
 * executor_agg_pregroup.c - GROUP BY f(x), grouped by x first.
 *
 * A group key computed from one column of few distinct values (b / 10,
 * date_trunc('month', d), upper(code)) would be evaluated on every row and
 * the rows then grouped by its values. When the aggregates combine (COUNT,
 * SUM of exact values, MIN and MAX), the rows can instead be
 * grouped by x itself, on the dense path (no sort, and no pass writing the
 * key), and f evaluated once per distinct x; the partial results are then
 * grouped by f(x), a few thousand rows at most. Every row's x meets f, so an
 * error f raises (a division by zero) is raised as before; the groups, their
 * order (f's values sorted, NULLs last) and the values are those of the
 * plan as written. Float sums are pregrouped only on a GPU, whose dense
 * group-by adds floats in the order its warps arrive anyway; the CPU adds
 * them in row order, as PostgreSQL does, and keeps the plan.
 */
#include "engine/executor_internal.h"

#include <stdlib.h>
#include <string.h>

/* Partial rows at most 1/share of the input: below, evaluating f on every
 * row costs less than the second grouping (ATTU_PREGROUP_SHARE overrides;
 * 1 takes the path whenever x has no more values than rows, the
 * differential tests' setting). */
#define PREGROUP_MAX_SHARE 64

static size_t pregroup_share(void) {
    const char *v = getenv("ATTU_PREGROUP_SHARE");
    size_t s = v && *v ? (size_t)strtoull(v, NULL, 10) : PREGROUP_MAX_SHARE;
    return s ? s : 1;
}

static bool exact_sum_input(attu_type_id t) {
    return t == ATTU_TYPE_INT16 || t == ATTU_TYPE_INT32 || t == ATTU_TYPE_INT64 || t == ATTU_TYPE_DECIMAL;
}

/* The aggregates combine from per-x partials: exactly, or (float sums,
 * with floats_any_order) as the dense path would add them anyway. */
static bool combinable(const attu_stage *s, bool floats_any_order) {
    for (int i = 0; i < s->naggs; i++) {
        const attu_stage_agg *g = &s->aggs[i];
        if (g->count_distinct || g->var || g->avg || g->norder || g->arg >= 0) return false;
        switch (g->op) {
        case ATTU_REDUCE_COUNT_STAR: case ATTU_REDUCE_COUNT: break;
        case ATTU_REDUCE_SUM:
            if (!exact_sum_input(g->in_type.id) && !(floats_any_order && g->in_type.id == ATTU_TYPE_FLOAT64))
                return false;
            break;
        case ATTU_REDUCE_MIN: case ATTU_REDUCE_MAX:
            if (g->in_type.id == ATTU_TYPE_TEXT || g->in_type.id == ATTU_TYPE_FLOAT32 ||
                g->in_type.id == ATTU_TYPE_NUMERIC)
                return false;
            break;
        default: return false;
        }
    }
    return true;
}

int run_agg_pregrouped(xctx *x, attu_stage *s, rel *in, rel **out) {
    const attu_stage_exprs *k = &s->keys;
    size_t n = in->nrows;
    if (!x->be->group_dense || k->n != 1 || !k->prog || k->direct[0] >= 0 || k->nin != 1 || k->in_cols[0] < 0 ||
        k->prog->noutputs != 1 || n < dense_min_rows() || !combinable(s, x->be->kind == ATTU_DEVICE_KIND_GPU))
        return 1;
    int c = k->in_cols[0];
    xcol *xk = in->cols[c];
    dense_lay lay;
    int rc = dense_layout(x, &xk, 1, n, lay.mins, lay.widths, &lay.nslots);
    if (rc) return rc;
    if (lay.nslots > n / pregroup_share()) return 1;

    int na = s->args.n, ng = s->naggs;
    xcol **args = calloc((size_t)na + 1, sizeof *args);
    attu_reduce_spec *specs = calloc((size_t)ng + 1, sizeof *specs);
    attu_out *outs = calloc((size_t)ng + 1, sizeof *outs);
    xcol **res = calloc((size_t)ng + 1, sizeof *res);
    attu_stage_agg *aggs = calloc((size_t)ng + 1, sizeof *aggs);
    int *adirect = calloc((size_t)ng + 1, sizeof *adirect);
    attu_buf *gidx = NULL;
    rel *xs = NULL, *part = NULL, *ks = NULL;
    xcol *kv = NULL;
    int nspec = 0;
    size_t np = 0;
    rc = -1;
    if (!args || !specs || !outs || !res || !aggs || !adirect) { attu_error_oom(x->err); goto done; }
    if (eval_exprs(x, &s->args, in, args)) goto done;
    /* 1: grouped by x, the aggregates' partials (their final types) */
    int drc = agg_dense(x, s, &xk, args, n, &lay, &np, specs, outs, res, &nspec, &gidx);
    if (drc) { rc = drc; goto done; }
    /* 2: f over each group's x */
    {
        rel one = { 1, &xk, n };
        rel *xg = rel_gather(x, &one, gidx, np, false);
        if (!xg) goto done;
        xs = rel_new(x, in->ncols, np);
        if (!xs) { rel_free(x, xg); goto done; }
        for (int i = 0; i < in->ncols; i++)
            xs->cols[i] = i == c ? xcol_ref(xg->cols[0]) : xcol_pruned(x, in->cols[i]->type);
        rel_free(x, xg);
        for (int i = 0; i < in->ncols; i++) if (!xs->cols[i]) goto done;
        if (eval_exprs(x, k, xs, &kv)) goto done;
    }
    /* 3: the partials grouped by f(x): counts add up, sums, minima and
     * maxima combine as themselves, into the final types */
    part = rel_new(x, 1 + ng, np);
    if (!part) goto done;
    part->cols[0] = xcol_ref(kv);
    for (int i = 0; i < ng; i++) part->cols[1 + i] = xcol_ref(res[i]);
    {
        int kdirect = 0;
        attu_stage s2;
        memset(&s2, 0, sizeof s2);
        s2.kind = ATTU_ST_AGG;
        s2.ncols = s->ncols;
        s2.types = s->types;
        s2.keys.n = 1;
        s2.keys.direct = &kdirect;
        for (int i = 0; i < ng; i++) {
            aggs[i] = s->aggs[i];
            adirect[i] = 1 + i;
            aggs[i].in = i;
            aggs[i].in_type = res[i]->type;
            if (aggs[i].op == ATTU_REDUCE_COUNT || aggs[i].op == ATTU_REDUCE_COUNT_STAR) aggs[i].op = ATTU_REDUCE_SUM;
        }
        s2.args.n = ng;
        s2.args.direct = adirect;
        s2.naggs = ng;
        s2.aggs = aggs;
        ks = run_agg(x, &s2, part);
        if (!ks) goto done;
    }
    *out = ks;
    ks = NULL;
    s->act_how = "group_dense by the key's input + eval + sort (pregrouped)";
    rc = 0;
done:
    for (int i = 0; i < na && args; i++) xcol_unref(x, args[i]);
    for (int i = 0; i < nspec && res; i++) xcol_unref(x, res[i]);
    for (int i = 0; i < nspec && outs; i++) if (outs[i].dict) attu_dictionary_unref(outs[i].dict);
    free(args); free(specs); free(outs); free(res); free(aggs); free(adirect);
    free_buf(x, gidx);
    xcol_unref(x, kv);
    rel_free(x, xs); rel_free(x, part); rel_free(x, ks);
    return rc;
}
