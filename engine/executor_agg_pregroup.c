/*
 * executor_agg_pregroup.c - GROUP BY f(x), grouped by x first.
 *
 * A group key computed from one column of few distinct values (b / 10,
 * date_trunc('month', d), upper(code)) would be evaluated on every row and
 * the rows then grouped by its values. When the aggregates combine (COUNT,
 * SUM and AVG of exact values, MIN and MAX), the rows can instead be
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

/* The aggregates combine from per-x partials: exactly, or (float sums and
 * averages, with floats_any_order) as the dense path would add them
 * anyway. An AVG carries its sum and its count. */
static bool combinable(const attu_stage *s, bool floats_any_order) {
    for (int i = 0; i < s->naggs; i++) {
        const attu_stage_agg *g = &s->aggs[i];
        if (g->count_distinct || g->var || g->norder || g->osa || g->arg >= 0) return false;
        bool exact = exact_sum_input(g->in_type.id), fl = floats_any_order && g->in_type.id == ATTU_TYPE_FLOAT64;
        if (g->avg) {
            if (g->op != ATTU_REDUCE_AVG_SUM || !((exact && g->out_type.id == ATTU_TYPE_NUMERIC) || fl)) return false;
            continue;
        }
        switch (g->op) {
        case ATTU_REDUCE_COUNT_STAR: case ATTU_REDUCE_COUNT: break;
        case ATTU_REDUCE_SUM:
            if (!exact && !fl) return false;
            break;
        case ATTU_REDUCE_MIN: case ATTU_REDUCE_MAX:
            if (g->in_type.id == ATTU_TYPE_TEXT || g->in_type.id == ATTU_TYPE_FLOAT32 ||
                attu_type_is_wide(g->in_type.id))
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
    int nmax = 2 * ng + 1;   /* an AVG's partials are two */
    xcol **args = calloc((size_t)na + 1, sizeof *args);
    attu_reduce_spec *specs = calloc((size_t)nmax, sizeof *specs);
    attu_out *outs = calloc((size_t)nmax, sizeof *outs);
    xcol **res = calloc((size_t)nmax, sizeof *res);
    attu_stage_agg *aggs = calloc((size_t)nmax, sizeof *aggs);
    int *adirect = calloc((size_t)nmax, sizeof *adirect);
    attu_type *types = calloc((size_t)nmax + 1, sizeof *types);
    attu_buf *gidx = NULL;
    rel *xs = NULL, *part = NULL, *ks = NULL, *o = NULL;
    xcol *kv = NULL;
    int nspec = 0;
    size_t np = 0;
    rc = -1;
    if (!args || !specs || !outs || !res || !aggs || !adirect || !types) { attu_error_oom(x->err); goto done; }
    if (eval_exprs(x, &s->args, in, args)) goto done;
    /* 1: grouped by x, the aggregates' partials (agg_specs' columns: one
     * per aggregate, two for an AVG, its sum and count) */
    int drc = agg_dense(x, s, &xk, args, n, &lay, &np, specs, outs, res, &nspec, &gidx);
    if (drc) { rc = drc; goto done; }
    /* 2: f over each group's x */
    {
        rel one = { 1, &xk, n, NULL };
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
    part = rel_new(x, 1 + nspec, np);
    if (!part) goto done;
    part->cols[0] = xcol_ref(kv);
    types[0] = kv->type;
    for (int i = 0; i < nspec; i++) {
        part->cols[1 + i] = xcol_ref(res[i]);
        aggs[i].op = specs[i].op == ATTU_REDUCE_COUNT || specs[i].op == ATTU_REDUCE_COUNT_STAR ||
                             specs[i].op == ATTU_REDUCE_AVG_SUM
                         ? ATTU_REDUCE_SUM : specs[i].op;
        aggs[i].in = i;
        aggs[i].arg = -1;
        aggs[i].in_type = res[i]->type;
        aggs[i].out_type = res[i]->type;
        adirect[i] = 1 + i;
        types[1 + i] = res[i]->type;
    }
    {
        int kdirect = 0;
        attu_stage s2;
        memset(&s2, 0, sizeof s2);
        s2.kind = ATTU_ST_AGG;
        s2.ncols = 1 + nspec;
        s2.types = types;
        s2.keys.n = 1;
        s2.keys.direct = &kdirect;
        s2.args.n = nspec;
        s2.args.direct = adirect;
        s2.naggs = nspec;
        s2.aggs = aggs;
        bool was = x->dense_any_rows;
        x->dense_any_rows = true;
        ks = run_agg(x, &s2, part);
        x->dense_any_rows = was;
        if (!ks) goto done;
    }
    /* the stage's columns: the key, then each aggregate (an AVG finished
     * from its combined sum and count) */
    o = rel_new(x, 1 + ng, ks->nrows);
    if (!o) goto done;
    o->cols[0] = xcol_ref(ks->cols[0]);
    for (int i = 0, j = 1; i < ng; i++) {
        const attu_stage_agg *g = &s->aggs[i];
        if (g->avg) {
            int scale = g->in_type.id == ATTU_TYPE_DECIMAL ? g->in_type.scale : 0;
            o->cols[1 + i] = g->out_type.id == ATTU_TYPE_NUMERIC
                                 ? finish_avg_numeric(x, ks->cols[j], ks->cols[j + 1], ks->nrows)
                                 : finish_avg(x, ks->cols[j], ks->cols[j + 1], ks->nrows, scale);
            if (!o->cols[1 + i]) goto done;
            j += 2;
        } else {
            o->cols[1 + i] = xcol_ref(ks->cols[j]);
            j++;
        }
    }
    *out = o;
    o = NULL;
    s->act_how = "group_dense by the key's input + eval + a group-by of the partials (pregrouped)";
    rc = 0;
done:
    for (int i = 0; i < na && args; i++) xcol_unref(x, args[i]);
    for (int i = 0; i < nspec && res; i++) xcol_unref(x, res[i]);
    for (int i = 0; i < nspec && outs; i++) if (outs[i].dict) attu_dictionary_unref(outs[i].dict);
    free(args); free(specs); free(outs); free(res); free(aggs); free(adirect); free(types);
    free_buf(x, gidx);
    xcol_unref(x, kv);
    rel_free(x, xs); rel_free(x, part); rel_free(x, ks); rel_free(x, o);
    return rc;
}
