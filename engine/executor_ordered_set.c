/*
 * executor_ordered_set.c - the ordered-set aggregates of a GROUP BY:
 * percentile_cont, percentile_disc and mode() WITHIN GROUP (ORDER BY v),
 * as PostgreSQL 15 computes them.
 *
 * Built from backend primitives only (sort, segment_heads, gather, and
 * transfers of per-group and per-row indices), so every backend runs it:
 *
 *  1. The rows sort by (group keys ascending, NULLs last; v in the WITHIN
 *     GROUP direction, NULLs last). The groups come in the order of the
 *     aggregation's own sort, so its segment offsets hold here too, and
 *     within group s the c[s] non-NULL values (run_agg's COUNT of v) fill
 *     positions off[s] .. off[s] + c[s] - 1 in order.
 *  2. The fraction of each group (the constant, or the fraction column at
 *     one of the group's rows: a direct argument is the same on all of
 *     them; a keyless aggregate over no rows evaluates it alone) must
 *     lie in [0, 1] whenever it is not NULL, rows or none (22003,
 *     "percentile value %g is not between 0 and 1", PostgreSQL's check
 *     before it looks at the rows). A NULL fraction or no non-NULL
 *     value gives NULL.
 *  3. The pick, on the host over per-group numbers: positions in the
 *     sorted order (the permutation stays on the backend, which maps them
 *     to rows):
 *       percentile_disc: the first value whose position reaches the
 *         fraction: 1-based row ceil(f * c), at least 1;
 *       percentile_cont: rows floor(f * (c - 1)) and ceil(...) (0-based),
 *         and lo + (f * (c - 1) - floor) * (hi - lo) between them when they
 *         differ (PostgreSQL's float8 interpolation: -Infinity and
 *         Infinity give NaN, an Infinity beside a number Infinity);
 *       mode: the longest run of equal values (segment_heads over (keys,
 *         v)); a tie goes to the run that comes first in the WITHIN GROUP
 *         order, so the smallest value ascending and the largest
 *         descending.
 *     The picked rows' values are gathered (a text value keeps its
 *     dictionary); percentile_cont's two neighbours come back to be
 *     interpolated in double precision, or for an interval by interval
 *     arithmetic (22008 past its range, as PostgreSQL).
 */
#include "engine/executor_internal.h"
#include "engine/interval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Column c at the rows perm[pos[s]] for s < nseg, pos on the host; a
 * position of n reads perm's extra slot n, -1, so gives NULL. Only the
 * positions go to the backend and the rows stay there. */
static xcol *gather_at(xctx *x, xcol *c, const attu_buf *perm, const int64_t *pos, size_t nseg) {
    attu_buf *idx = buf_i64(x, nseg), *rows = buf_i64(x, nseg);
    xcol *o = NULL;
    if (idx && rows &&
        (!nseg || (!x->be->upload(x->be, idx, 0, pos, nseg * sizeof(int64_t), x->err) &&
                   !x->be->gather(x->be, rows, NULL, perm, NULL, sizeof(int64_t), idx, nseg, x->err)))) {
        rel r = { 1, &c, 0, NULL };
        rel *g = rel_gather(x, &r, rows, nseg, true);
        if (g) { o = xcol_ref(g->cols[0]); rel_free(x, g); }
    }
    free_buf(x, idx); free_buf(x, rows);
    return o;
}

/* A column's n values (width bytes each) and validity on the host
 * (valid[i] = 1 when the column has no validity). */
static int download_vals(xctx *x, const xcol *c, size_t n, size_t width, void *v, uint8_t *valid) {
    if (n && x->be->download(x->be, v, c->data, 0, n * width, x->err)) return -1;
    if (!c->valid) { memset(valid, 1, n); return 0; }
    return n ? x->be->download(x->be, valid, c->valid, 0, n, x->err) : 0;
}

/* PostgreSQL's %g, whose snprintf spells the non-finite values out. */
static void format_percentile(double f, char *buf, size_t size) {
    if (isnan(f)) snprintf(buf, size, "NaN");
    else if (isinf(f)) snprintf(buf, size, f > 0 ? "Infinity" : "-Infinity");
    else snprintf(buf, size, "%g", f);
}

xcol *ordered_set_fraction_alone(xctx *x, const attu_stage *s, int k) {
    const attu_stage_exprs *ex = &s->osa_fracs;
    if (k < 0 || k >= ex->n) return NULL;
    for (int i = 0; i < ex->nin; i++) if (ex->in_cols[i] >= 0) return NULL;   /* reads a row */
    if (ex->direct[k] >= 0) return NULL;
    xcol **o = calloc((size_t)ex->n + 1, sizeof *o);
    if (!o) { attu_error_oom(x->err); return NULL; }
    rel one = { 0, NULL, 1, NULL };      /* no columns: parameters broadcast to its one row */
    xcol *f = NULL;
    if (!eval_exprs(x, ex, &one, o)) f = xcol_ref(o[k]);
    for (int i = 0; i < ex->n; i++) if (o[i]) xcol_unref(x, o[i]);
    free(o);
    return f;
}

xcol *ordered_set_agg(xctx *x, const attu_stage_agg *g, xcol **keys, int nk, xcol *val, xcol *vkey, xcol *frac, bool frac_per_group,
                      size_t n, const attu_buf *off, size_t nseg, const xcol *cnt) {
    attu_backend *be = x->be;
    xcol *out = NULL, *lo = NULL, *hi = NULL;
    attu_buf *perm = NULL, *heads = NULL;
    attu_sort_key *sk = calloc((size_t)nk + 1, sizeof *sk);
    attu_vec *kv = calloc((size_t)nk + 1, sizeof *kv);
    int64_t *offs = malloc((nseg + 1) * sizeof *offs), *cnts = malloc((nseg + 1) * sizeof *cnts);
    int64_t *hp = NULL, none = (int64_t)n;     /* the position that reads no row */
    int64_t *pick = malloc((nseg + 1) * sizeof *pick), *pick2 = malloc((nseg + 1) * sizeof *pick2);
    double *fr = malloc((nseg + 1) * sizeof *fr), *w = malloc((nseg + 1) * sizeof *w);
    uint8_t *frv = malloc(nseg + 1);
    size_t nh = 0;
    if (!sk || !kv || !offs || !cnts || !pick || !pick2 || !fr || !w || !frv) { attu_error_oom(x->err); goto done; }

    /* 1. the groups' extents and counts; the rows in (keys, v) order */
    if (off) {
        if (be->download(be, offs, off, 0, (nseg + 1) * sizeof *offs, x->err)) goto done;
    } else {
        offs[0] = 0;
        for (size_t s = 0; s < nseg; s++) offs[s + 1] = (int64_t)n;   /* one group of all the rows */
    }
    if (nseg && be->download(be, cnts, cnt->data, 0, nseg * sizeof *cnts, x->err)) goto done;
    for (int i = 0; i < nk; i++) { kv[i] = vec_of(keys[i]); sk[i].col = kv[i]; }
    kv[nk] = vec_of(vkey ? vkey : val);     /* the value's order key (g->osa_key), else itself */
    sk[nk].col = kv[nk];
    sk[nk].desc = g->osa_desc;
    sk[nk].nulls_first = false;
    if (!(perm = buf_i64(x, n + 1)) || exec_sort(x, sk, nk + 1, n, perm) ||
        be->upload(be, perm, n * sizeof(int64_t), &(int64_t){ -1 }, sizeof(int64_t), x->err)) goto done;

    /* 2. each group's fraction, checked */
    if (g->osa != 3) {
        if (!frac) {
            for (size_t s = 0; s < nseg; s++) { fr[s] = g->frac; frv[s] = !g->frac_null; }
        } else if (frac_per_group) {
            if (download_vals(x, frac, nseg, sizeof *fr, fr, frv)) goto done;
        } else {
            /* a group without rows (the keyless aggregate of none, when
             * ordered_set_fraction_alone cannot say) has no row to read
             * the fraction at: NULL */
            for (size_t s = 0; s < nseg; s++) pick[s] = offs[s] < offs[s + 1] ? offs[s] : none;
            xcol *f = gather_at(x, frac, perm, pick, nseg);
            int rc = f ? download_vals(x, f, nseg, sizeof *fr, fr, frv) : -1;
            if (f) xcol_unref(x, f);
            if (rc) goto done;
        }
        for (size_t s = 0; s < nseg; s++)
            if (frv[s] && !(fr[s] >= 0 && fr[s] <= 1)) {
                char b[64];
                format_percentile(fr[s], b, sizeof b);
                attu_error_set(x->err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "percentile value %s is not between 0 and 1", b);
                goto done;
            }
    }

    /* 3. the positions (in perm's order) each group's result comes from */
    if (g->osa == 3) {
        if (exec_segment_heads(x, kv, nk + 1, perm, n, &heads, &nh)) goto done;
        if (!(hp = malloc((nh + 1) * sizeof *hp))) { attu_error_oom(x->err); goto done; }
        if (nh && be->download(be, hp, heads, 0, nh * sizeof *hp, x->err)) goto done;
    }
    size_t h = 0;
    for (size_t s = 0; s < nseg; s++) {
        int64_t base = offs[s], c = cnts[s];
        pick[s] = pick2[s] = none;
        w[s] = 0;
        if (c <= 0 || (g->osa != 3 && !frv[s])) continue;
        if (g->osa == 1) {
            double pos = fr[s] * (double)(c - 1), f0 = floor(pos), f1 = ceil(pos);
            pick[s] = base + (int64_t)f0;
            pick2[s] = base + (int64_t)f1;
            w[s] = f1 > f0 ? pos - f0 : -1;      /* -1: one row, no interpolation */
        } else if (g->osa == 2) {
            int64_t rownum = (int64_t)ceil(fr[s] * (double)c);
            pick[s] = base + (rownum > 1 ? rownum - 1 : 0);
        } else {
            /* the runs of equal values in [base, base + c): NULLs follow */
            int64_t end = base + c, best = 0, at = base;
            while (h < nh && hp[h] < base) h++;
            for (; h < nh && hp[h] < end; h++) {
                int64_t next = h + 1 < nh ? hp[h + 1] : (int64_t)n;
                int64_t len = (next < end ? next : end) - hp[h];
                if (len > best) { best = len; at = hp[h]; }
            }
            pick[s] = at;
        }
    }

    /* 4. the values */
    if (g->osa != 1) {
        out = gather_at(x, val, perm, pick, nseg);
        goto done;
    }
    if (!(lo = gather_at(x, val, perm, pick, nseg)) || !(hi = gather_at(x, val, perm, pick2, nseg))) goto done;
    {
        /* lo + w * (hi - lo), in double precision or (interval) by
         * interval arithmetic, as PostgreSQL's interval_mi, interval_mul
         * and interval_pl */
        bool iv = val->type.id == ATTU_TYPE_INTERVAL;
        size_t width = iv ? sizeof(attu_interval) : sizeof(double);
        char *lv = malloc((nseg + 1) * width), *hv = malloc((nseg + 1) * width);
        uint8_t *lok = malloc(nseg + 1), *hok = malloc(nseg + 1);
        int rc = -1;
        if (!lv || !hv || !lok || !hok) attu_error_oom(x->err);
        else if (!download_vals(x, lo, nseg, width, lv, lok) && !download_vals(x, hi, nseg, width, hv, hok)) {
            rc = 0;
            for (size_t s = 0; s < nseg && !rc; s++) {
                if (!lok[s] || w[s] < 0) continue;
                if (iv) {
                    attu_interval *l = (attu_interval *)lv + s, *u = (attu_interval *)hv + s, d;
                    rc = attu_interval_sub(*u, *l, &d, x->err) || attu_interval_mul(d, w[s], &d, x->err) ||
                         attu_interval_add(*l, d, l, x->err);
                } else {
                    double *l = (double *)lv + s, u = ((double *)hv)[s];
                    *l = *l + w[s] * (u - *l);
                }
            }
            if (!rc) {
                out = xcol_new(x, val->type, nseg, true);
                rc = out && nseg ? be->upload(be, out->data, 0, lv, nseg * width, x->err) ||
                                       be->upload(be, out->valid, 0, lok, nseg, x->err)
                                 : out ? 0 : -1;
            }
        }
        free(lv); free(hv); free(lok); free(hok);
        if (rc && out) { xcol_unref(x, out); out = NULL; }
    }
done:
    if (x->err->set && out) { xcol_unref(x, out); out = NULL; }
    if (lo) xcol_unref(x, lo);
    if (hi) xcol_unref(x, hi);
    free_buf(x, perm); free_buf(x, heads);
    free(sk); free(kv); free(offs); free(cnts); free(hp); free(pick); free(pick2);
    free(fr); free(w); free(frv);
    return out;
}
