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

#include <stdint.h>
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

/* The one-level path (run_agg_mapped) unless ATTU_PREGROUP_MAPPED=0: the
 * tests run the two-level path that way too. */
static bool mapped_enabled(void) {
    const char *v = getenv("ATTU_PREGROUP_MAPPED");
    return !(v && v[0] == '0');
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

/* ---- one level: f mapped over x's range ------------------------------------------ */

/* Types whose values order as their int64 reading (sign-extended), so
 * that x's range is enumerable and f's values rank by that reading. */
static bool mappable_type(attu_type_id t) {
    switch (t) {
    case ATTU_TYPE_BOOL: case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_INT64: case ATTU_TYPE_DATE:
    case ATTU_TYPE_TIMESTAMP: case ATTU_TYPE_TIMESTAMPTZ: case ATTU_TYPE_TIME:
        return true;
    default:
        return false;
    }
}

static int64_t read_int(const unsigned char *p, size_t width, size_t i) {
    switch (width) {
    case 1: return p[i];
    case 2: { int16_t v; memcpy(&v, p + 2 * i, 2); return v; }
    case 4: { int32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    default: { int64_t v; memcpy(&v, p + 8 * i, 8); return v; }
    }
}

static void write_int(unsigned char *p, size_t width, size_t i, int64_t v) {
    switch (width) {
    case 1: p[i] = (unsigned char)v; break;
    case 2: { int16_t t = (int16_t)v; memcpy(p + 2 * i, &t, 2); break; }
    case 4: { int32_t t = (int32_t)v; memcpy(p + 4 * i, &t, 4); break; }
    default: memcpy(p + 8 * i, &v, 8); break;
    }
}

typedef struct fvalue { int64_t v; int null; int32_t slot; } fvalue;

static int fvalue_cmp(const void *a, const void *b) {
    const fvalue *p = a, *q = b;
    if (p->null != q->null) return p->null - q->null;     /* NULL last */
    if (p->v != q->v) return p->v < q->v ? -1 : 1;
    return p->slot - q->slot;
}

/* f over every slot of x's range, on the host backend (hb): slot i holds
 * min + i, the last one NULL when x has NULLs. Fills map[slot] with the
 * rank of f's value there (sorted, NULL last; equal values share a rank)
 * and returns the number of ranks, their values in fvals / fnull (allocated
 * here); 0 when f raised an error (declined: the plan raises what the rows
 * do), -1 when out of memory. */
static size_t map_over_range(attu_backend *hb, const attu_expr_program *p, attu_type xt, attu_type ft, int64_t min,
                             size_t w, bool nulls, int32_t *map, unsigned char **fvals, unsigned char **fnull) {
    size_t xw = attu_type_width(xt.id), fw = attu_type_width(ft.id), nf = 0;
    attu_error herr;
    attu_error_clear(&herr);
    attu_buf *dv = hb->alloc(hb, w * xw, &herr), *dvalid = nulls ? hb->alloc(hb, w, &herr) : NULL;
    attu_buf *ov = hb->alloc(hb, w * fw, &herr), *ovalid = hb->alloc(hb, w, &herr);
    fvalue *fv = malloc(w * sizeof *fv);
    *fvals = NULL;
    *fnull = NULL;
    bool oom = !dv || (nulls && !dvalid) || !ov || !ovalid || !fv;
    if (!oom) {
        for (size_t i = 0; i < w; i++) write_int(dv->ptr, xw, i, min + (int64_t)i);
        if (nulls) {
            memset(dvalid->ptr, 1, w);
            ((unsigned char *)dvalid->ptr)[w - 1] = 0;
            write_int(dv->ptr, xw, w - 1, min);   /* any value under the NULL */
        }
        attu_vec in = { xt, dv, dvalid, NULL };
        attu_out o = { ft, ov, ovalid, NULL };
        if (hb->eval(hb, p, &in, w, &o, &herr) == 0) {
            const unsigned char *valid = ovalid->ptr;
            for (size_t i = 0; i < w; i++)
                fv[i] = (fvalue){ valid[i] ? read_int(ov->ptr, fw, i) : 0, !valid[i], (int32_t)i };
            qsort(fv, w, sizeof *fv, fvalue_cmp);
            *fvals = malloc(w * fw);
            *fnull = malloc(w);
            if (!*fvals || !*fnull) oom = true;
            for (size_t j = 0; j < w && !oom; j++) {
                if (j == 0 || fv[j].null != fv[j - 1].null || fv[j].v != fv[j - 1].v) {
                    write_int(*fvals, fw, nf, fv[j].v);
                    (*fnull)[nf] = (unsigned char)!fv[j].null;   /* validity */
                    nf++;
                }
                map[fv[j].slot] = (int32_t)(nf - 1);
            }
        }
    }
    if (dv) hb->free(hb, dv);
    if (dvalid) hb->free(hb, dvalid);
    if (ov) hb->free(hb, ov);
    if (ovalid) hb->free(hb, ovalid);
    free(fv);
    if (oom || nf == 0) {
        free(*fvals); free(*fnull);
        *fvals = *fnull = NULL;
        return oom ? (size_t)-1 : 0;
    }
    return nf;
}

/* GROUP BY f(x) in one dense group-by: f is evaluated on the host over
 * x's whole range (a few thousand values at most, not the rows), each x
 * slot mapped to the rank of its f value, and group_dense reduces every
 * row straight into its f group: no partials, no evaluation on the device
 * and no second grouping (on a GPU, some twenty small calls of a
 * thousand partial rows each, 0.3 ms of a 0.9 ms GROUP BY b / 10 over
 * 100M rows). Any aggregate the dense path takes works, float sums
 * included (the rows meet their reducers as in a dense GROUP BY x). f's
 * values at x values no row has are computed and unused; when f raises an
 * error on one (a division by zero at an x the rows lack), this declines
 * and the two-level plan raises exactly what the rows raise. */
static int run_agg_mapped(xctx *x, attu_stage *s, rel *in, xcol *xk, dense_lay *lay, bool nulls, rel **out) {
    const attu_stage_exprs *k = &s->keys;
    const attu_expr_program *p = k->prog;
    attu_backend *hb = x->be->kind == ATTU_DEVICE_KIND_CPU ? x->be : x->be->host;
    attu_type ft = p->reg_types[p->outputs[0]];
    size_t w = (size_t)lay->widths[0], n = in->nrows;
    if (!hb || !mappable_type(xk->type.id) || !mappable_type(ft.id) || w == 0 || w > INT32_MAX) return 1;
    int32_t *map = malloc(w * sizeof *map);
    unsigned char *fvals = NULL, *fnull = NULL;
    if (!map) return attu_error_oom(x->err);
    size_t nf = map_over_range(hb, p, xk->type, ft, lay->mins[0], w, nulls, map, &fvals, &fnull);
    if (nf == (size_t)-1) { free(map); return attu_error_oom(x->err); }
    if (nf == 0) {
        free(map);
        return 1;
    }

    int na = s->args.n, ng = s->naggs, nmax = 2 * ng + 1;
    xcol **args = calloc((size_t)na + 1, sizeof *args);
    attu_reduce_spec *specs = calloc((size_t)nmax, sizeof *specs);
    attu_out *outs = calloc((size_t)nmax, sizeof *outs);
    xcol **res = calloc((size_t)nmax, sizeof *res);
    attu_buf *mbuf = NULL, *kvalid = NULL, *slots = NULL;
    xcol *kcol = NULL;
    rel *o = NULL;
    int nspec = 0, rc = -1;
    size_t np = 0, fw = attu_type_width(ft.id);
    bool fhas_null = !fnull[nf - 1];   /* NULL ranks last */
    if (!args || !specs || !outs || !res) { attu_error_oom(x->err); goto done; }
    /* one upload: the map, then f's ranked values (8-byte aligned) */
    size_t moff = (w * sizeof *map + 7) & ~(size_t)7, mbytes = moff + nf * fw;
    unsigned char *staged = malloc(mbytes);
    if (!staged) { attu_error_oom(x->err); goto done; }
    memcpy(staged, map, w * sizeof *map);
    memcpy(staged + moff, fvals, nf * fw);
    int up = !(mbuf = x->be->alloc(x->be, mbytes, x->err)) || x->be->upload(x->be, mbuf, 0, staged, mbytes, x->err);
    free(staged);
    if (up) goto done;
    if (eval_exprs(x, &s->args, in, args)) goto done;
    dense_lay ml = *lay;
    ml.nslots = nf;
    ml.map = mbuf;
    int drc = agg_dense(x, s, &xk, args, n, &ml, &np, specs, outs, res, &nspec, NULL, &slots);
    if (drc) { rc = drc; goto done; }
    /* the keys: f's ranked values at the occupied ranks */
    if (!(kcol = xcol_new(x, ft, np, fhas_null))) goto done;
    attu_buf kview = view(mbuf, moff, nf * fw);
    if (fhas_null &&
        (!(kvalid = x->be->alloc(x->be, nf, x->err)) || x->be->upload(x->be, kvalid, 0, fnull, nf, x->err)))
        goto done;
    if (np && x->be->gather(x->be, kcol->data, kcol->valid, &kview, kvalid, fw, slots, np, x->err)) goto done;
    if (!(o = rel_new(x, 1 + ng, np))) goto done;
    o->cols[0] = xcol_ref(kcol);
    if (agg_result_cols(x, s, res, outs, args, np, o, 1)) goto done;
    *out = o;
    o = NULL;
    s->act_how = "group_dense through f's ranks over the key's input range (pregrouped, one level)";
    rc = 0;
done:
    for (int i = 0; i < na && args; i++) xcol_unref(x, args[i]);
    for (int i = 0; i < nspec && res; i++) xcol_unref(x, res[i]);
    for (int i = 0; i < nspec && outs; i++) if (outs[i].dict) attu_dictionary_unref(outs[i].dict);
    free(args); free(specs); free(outs); free(res);
    free(map); free(fvals); free(fnull);
    free_buf(x, mbuf); free_buf(x, kvalid); free_buf(x, slots);
    xcol_unref(x, kcol);
    rel_free(x, o);
    return rc;
}

/* ---- two levels: partials by x, then grouped by f(x) ------------------------------ */

int run_agg_pregrouped(xctx *x, attu_stage *s, rel *in, rel **out) {
    const attu_stage_exprs *k = &s->keys;
    size_t n = in->nrows;
    /* (a key that draws random values is one per row, not one per x) */
    if (!x->be->group_dense || k->n != 1 || !k->prog || k->direct[0] >= 0 || k->nin != 1 || k->in_cols[0] < 0 ||
        k->prog->noutputs != 1 || n < dense_min_rows() || attu_program_is_volatile(k->prog))
        return 1;
    int c = k->in_cols[0];
    xcol *xk = in->cols[c];
    dense_lay lay;
    bool nulls = false;
    int rc = dense_layout(x, &xk, 1, n, lay.mins, lay.widths, &lay.nslots, &nulls);
    if (rc) return rc;
    if (lay.nslots > n / pregroup_share()) return 1;
    lay.map = NULL;
    if (mapped_enabled()) {
        rc = run_agg_mapped(x, s, in, xk, &lay, nulls, out);
        if (rc != 1) return rc;
    }
    if (!combinable(s, x->be->kind == ATTU_DEVICE_KIND_GPU)) return 1;

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
    int drc = agg_dense(x, s, &xk, args, n, &lay, &np, specs, outs, res, &nspec, &gidx, NULL);
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
