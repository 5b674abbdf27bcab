/*
 * executor_apply.c - the APPLY stage: a correlated subquery evaluated once
 * per distinct binding of the outer values it reads, as PostgreSQL's
 * SubPlan with parameters, and the parameters its expressions read.
 *
 * The stage's keys (over the outer rows) bind parameters params[i]. The
 * outer rows are sorted by the keys and cut into groups of equal keys
 * (NULLs equal each other, as DISTINCT's); for each group the subquery
 * (child 1) runs with the parameters set to the group's values, and its
 * row count and first row are kept. Every outer row then gets its group's
 * count and row. Keys whose equal values may still differ (floats: -0 and
 * 0; NUMERIC: 1.0 and 1.00) are not grouped: each row is its own binding.
 *
 * A parameter is a one-row column in xctx.params[slot]; an expression
 * program reading it (stage_exprs in_cols < 0) gets it broadcast to the
 * rows it runs over (param_column).
 *
 * A LATERAL subquery in FROM (the stage's `all`) keeps every row of each
 * binding instead: each outer row is paired with all of its binding's
 * rows, in the outer rows' order; `residual` (a LEFT JOIN's ON) keeps the
 * pairs it holds TRUE for, and with `outer` an outer row left without a
 * pair gives one row whose subquery columns are NULL (lateral_rows).
 *
 * Invariants: the output keeps the outer rows in their order (planner
 * ordering.c relies on it); a parameter slot set here is restored when the
 * stage ends, so nested APPLY stages see their enclosing bindings.
 */
#include "engine/executor_internal.h"

#include <stdlib.h>
#include <string.h>

/* Bindings evaluated before their first rows are concatenated into one
 * chunk (so a large outer side does not keep one relation per binding). */
#define APPLY_CHUNK 256

static int params_reserve(xctx *x, int slot) {
    if (slot < x->nparams) return 0;
    int n = x->nparams ? x->nparams : 8;
    while (n <= slot) n *= 2;
    xcol **p = realloc(x->params, sizeof *p * (size_t)n);
    if (!p) return attu_error_oom(x->err);
    for (int i = x->nparams; i < n; i++) p[i] = NULL;
    x->params = p;
    x->nparams = n;
    return 0;
}

static attu_buf *upload_i64(xctx *x, const int64_t *v, size_t n) {
    attu_buf *b = buf_i64(x, n);
    if (!b) return NULL;
    if (n && x->be->upload(x->be, b, 0, v, n * sizeof(int64_t), x->err)) { x->be->free(x->be, b); return NULL; }
    return b;
}

xcol *param_column(xctx *x, int slot, size_t n) {
    xcol *p = slot >= 0 && slot < x->nparams ? x->params[slot] : NULL;
    if (!p) {
        attu_error_set(x->err, ATTU_SQLSTATE_INTERNAL, 0, "parameter %d read outside its subquery", slot);
        return NULL;
    }
    /* an all-zero index gathers row 0 onto every row */
    attu_buf *idx = buf_i64(x, n);
    if (!idx) return NULL;
    if (n && x->be->fill(x->be, idx, 8, 0, n, x->err)) { x->be->free(x->be, idx); return NULL; }
    xcol *d = xcol_new(x, p->type, n, true);
    if (d && p->dict) d->dict = attu_dictionary_ref(p->dict);
    if (d && n && x->be->gather(x->be, d->data, d->valid, p->data, p->valid, attu_type_width(p->type.id), idx, n, x->err)) {
        xcol_unref(x, d);
        d = NULL;
    }
    x->be->free(x->be, idx);
    return d;
}

/* The distinct bindings of the keys k over n rows: *ng groups, rep[g] a
 * row of group g, gid[i] the group of row i (both n entries, host). */
static int bindings(xctx *x, xcol **k, int nk, size_t n, int64_t *rep, int64_t *gid, size_t *ng) {
    bool group = nk > 0 && n > 1;
    for (int i = 0; i < nk; i++) {
        attu_type_id t = k[i]->type.id;
        if (attu_type_mclass(t) == ATTU_MC_FLOAT || attu_type_is_wide(t)) group = false;
    }
    if (!group) {
        for (size_t i = 0; i < n; i++) rep[i] = gid[i] = (int64_t)i;
        *ng = nk > 0 ? n : (n ? 1 : 0);
        if (nk == 0) for (size_t i = 0; i < n; i++) gid[i] = 0;
        return 0;
    }
    attu_sort_key *sk = calloc((size_t)nk, sizeof *sk);
    attu_vec *kv = calloc((size_t)nk, sizeof *kv);
    attu_buf *perm = buf_i64(x, n), *heads = NULL;
    int64_t *hp = malloc(n * sizeof *hp), *hh = NULL;
    size_t nh = 0;
    int rc = (!sk || !kv || !hp) ? attu_error_oom(x->err) : !perm ? -1 : 0;
    for (int i = 0; i < nk && !rc; i++) { kv[i] = vec_of(k[i]); sk[i].col = kv[i]; }
    if (!rc) rc = exec_sort(x, sk, nk, n, perm);
    if (!rc) rc = exec_segment_heads(x, kv, nk, perm, n, &heads, &nh);
    if (!rc) rc = x->be->download(x->be, hp, perm, 0, n * sizeof *hp, x->err);
    if (!rc && !(hh = malloc((nh ? nh : 1) * sizeof *hh))) rc = attu_error_oom(x->err);
    if (!rc && nh) rc = x->be->download(x->be, hh, heads, 0, nh * sizeof *hh, x->err);
    if (!rc) {
        for (size_t g = 0; g < nh; g++) {
            size_t b = (size_t)hh[g], e = g + 1 < nh ? (size_t)hh[g + 1] : n;
            rep[g] = hp[b];
            for (size_t j = b; j < e; j++) gid[hp[j]] = (int64_t)g;
        }
        *ng = nh;
    }
    free(sk); free(kv); free(hp); free(hh);
    if (perm) x->be->free(x->be, perm);
    if (heads) x->be->free(x->be, heads);
    return rc;
}

int64_t defer_binding_error(xctx *x) {
    const char *st = x->err->sqlstate;
    if (!strcmp(st, ATTU_SQLSTATE_DEFERRED)) {
        /* a nested subquery's recorded error: the same entry */
        long long k = attu_error_deferred_index(x->err);
        if (k < 0 || k >= x->ndeferred) return -1;
        attu_error_clear(x->err);
        return k;
    }
    /* resources, cancellation, the system and attu's own faults stop the
     * query wherever they happen */
    if (!strncmp(st, "53", 2) || !strncmp(st, "54", 2) || !strncmp(st, "57", 2) || !strncmp(st, "58", 2) ||
        !strncmp(st, "XX", 2))
        return -1;
    if (x->ndeferred == x->capdeferred) {
        int nc = x->capdeferred ? x->capdeferred * 2 : 8;
        attu_error *d = realloc(x->deferred, sizeof *d * (size_t)nc);
        if (!d) return -1;
        x->deferred = d; x->capdeferred = nc;
    }
    x->deferred[x->ndeferred] = *x->err;
    attu_error_clear(x->err);
    return x->ndeferred++;
}

void resolve_deferred_error(xctx *x) {
    long long k = attu_error_deferred_index(x->err);
    if (k < 0 || k >= x->ndeferred) return;
    *x->err = x->deferred[k];
}

/* Runs the subquery once per binding: rows[g] its row count, *first the
 * first rows (all-NULL for none), ng rows; a binding whose run fails
 * (the scalar, EXISTS and ANY forms, not LATERAL) keeps its error for the
 * rows that use its value, as PostgreSQL runs a SubPlan only for the rows
 * that evaluate it (CASE WHEN id > 100 THEN (SELECT ... LIMIT t.n - 3)
 * END fails only where id > 100): rows[g] is -1 - the deferred error's
 * index and its row all NULL (ATTU_OP_SUBQUERY_ONE raises it); with all (LATERAL), *first is
 * every row of every binding instead, binding g's rows[g] rows after
 * those of the bindings before it. */
static int run_bindings(xctx *x, attu_stage *s, rel *kr, size_t ng, int64_t *rows, rel **first, bool all) {
    int nk = s->keys.n, rc = 0;
    int64_t zero = 0, none = -1;
    attu_buf *i0 = upload_i64(x, &zero, 1), *im = upload_i64(x, &none, 1);
    size_t nchunks = 0, nbuf = 0;
    rel **chunks = calloc(ng / APPLY_CHUNK + 2, sizeof *chunks);
    rel *buf[APPLY_CHUNK];
    if (!i0 || !im || !chunks) rc = i0 && im ? attu_error_oom(x->err) : -1;
    for (size_t g = 0; g < ng && !rc; g++) {
        int64_t gi = (int64_t)g;
        attu_buf *ig = upload_i64(x, &gi, 1);
        rel *pv = ig ? rel_gather(x, kr, ig, 1, false) : NULL;
        if (ig) x->be->free(x->be, ig);
        if (!pv) { rc = -1; break; }
        for (int j = 0; j < nk; j++) {
            int slot = s->params[j];
            xcol_unref(x, x->params[slot]);
            x->params[slot] = xcol_ref(pv->cols[j]);
        }
        rel_free(x, pv);
        rel *r = run_stage(x, s->child[1]);
        int64_t deferred = -1;
        if (!r && !all && x->err->set && (deferred = defer_binding_error(x)) >= 0) r = rel_empty(x, s->child[1]);
        if (!r) { rc = -1; break; }
        rows[g] = deferred >= 0 ? -1 - deferred : (int64_t)r->nrows;
        rel *one = all ? r : rel_gather(x, r, r->nrows ? i0 : im, 1, true);
        if (!all) rel_free(x, r);
        if (!one) { rc = -1; break; }
        buf[nbuf++] = one;
        if (nbuf == APPLY_CHUNK || g + 1 == ng) {
            rel *c = rel_concat_all(x, buf, nbuf);
            nbuf = 0;
            if (!c) { rc = -1; break; }
            chunks[nchunks++] = c;
        }
    }
    for (size_t i = 0; i < nbuf; i++) rel_free(x, buf[i]);
    if (!rc) {
        *first = nchunks ? rel_concat_all(x, chunks, nchunks) : rel_empty(x, s->child[1]);
        if (!*first) rc = -1;
    } else {
        for (size_t i = 0; i < nchunks; i++) rel_free(x, chunks[i]);
    }
    free(chunks);
    if (i0) x->be->free(x->be, i0);
    if (im) x->be->free(x->be, im);
    return rc;
}

/* The output rows of a LATERAL apply from f (left row, subquery row)
 * pairs: in's row inrow[i] ++ all's row src[i] (-1: NULLs). */
static rel *pair_rows(xctx *x, const attu_stage *s, const rel *in, const rel *all, const int64_t *inrow,
                      const int64_t *src, size_t f) {
    if (f == 0) return rel_empty(x, s);
    attu_buf *ib = upload_i64(x, inrow, f), *sb = ib ? upload_i64(x, src, f) : NULL;
    rel *g = sb ? rel_gather(x, in, ib, f, false) : NULL, *h = g ? rel_gather(x, all, sb, f, true) : NULL;
    rel *res = h ? rel_new(x, in->ncols + all->ncols, f) : NULL;
    if (res) {
        for (int i = 0; i < in->ncols; i++) { res->cols[i] = g->cols[i]; g->cols[i] = NULL; }
        for (int i = 0; i < all->ncols; i++) { res->cols[in->ncols + i] = h->cols[i]; h->cols[i] = NULL; }
    }
    rel_free(x, g); rel_free(x, h);
    free_buf(x, ib); free_buf(x, sb);
    return res;
}

/* LATERAL: each row i of in (n rows, binding gid[i]) paired with every
 * row of its binding in all (binding g's rows[g] rows from off[g]), in
 * in's order. The stage's residual (a LEFT JOIN's ON) keeps the pairs it
 * holds TRUE for; with outer, a row of in left without a pair gives one
 * row whose subquery columns are NULL. */
static rel *lateral_rows(xctx *x, const attu_stage *s, const rel *in, const rel *all, const int64_t *rows,
                         size_t ng, const int64_t *gid, size_t n) {
    int64_t *off = malloc(sizeof(int64_t) * (ng + 1)), *inrow = NULL, *src = NULL;
    uint8_t *pass = NULL, *pvalid = NULL;
    xcol *m = NULL;
    rel *pairs = NULL, *res = NULL;
    if (!off) { attu_error_oom(x->err); return NULL; }
    off[0] = 0;
    for (size_t g = 0; g < ng; g++) off[g + 1] = off[g] + rows[g];
    size_t np = 0;
    for (size_t i = 0; i < n; i++) np += (size_t)rows[gid[i]];
    size_t cap = np + (s->outer ? n : 0);
    if (!(inrow = malloc(sizeof(int64_t) * (cap ? cap : 1))) || !(src = malloc(sizeof(int64_t) * (cap ? cap : 1)))) {
        attu_error_oom(x->err);
        goto done;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (int64_t j = 0; j < rows[gid[i]]; j++) { inrow[k] = (int64_t)i; src[k++] = off[gid[i]] + j; }
    if (check_stop(x)) goto done;
    if (!s->residual.n && !s->outer) { res = pair_rows(x, s, in, all, inrow, src, np); goto done; }
    if (s->residual.n && np) {
        /* the ON condition over every pair */
        if (!(pairs = pair_rows(x, s, in, all, inrow, src, np)) || eval_exprs(x, &s->residual, pairs, &m)) goto done;
        if (!(pass = malloc(np)) || (m->valid && !(pvalid = malloc(np)))) { attu_error_oom(x->err); goto done; }
        if (x->be->download(x->be, pass, m->data, 0, np, x->err)) goto done;
        if (m->valid && x->be->download(x->be, pvalid, m->valid, 0, np, x->err)) goto done;
    }
    /* the pairs kept, in place (a row's pairs are consecutive), and a pad
     * after each row of in that kept none */
    size_t f = 0, p = 0;
    int64_t *kin = malloc(sizeof(int64_t) * (cap ? cap : 1)), *ksrc = malloc(sizeof(int64_t) * (cap ? cap : 1));
    if (!kin || !ksrc) { free(kin); free(ksrc); attu_error_oom(x->err); goto done; }
    for (size_t i = 0; i < n; i++) {
        size_t f0 = f;
        for (int64_t j = 0; j < rows[gid[i]]; j++, p++)
            if (!pass || (pass[p] && (!pvalid || pvalid[p]))) { kin[f] = inrow[p]; ksrc[f++] = src[p]; }
        if (f == f0 && s->outer) { kin[f] = (int64_t)i; ksrc[f++] = -1; }
    }
    res = pair_rows(x, s, in, all, kin, ksrc, f);
    free(kin); free(ksrc);
done:
    xcol_unref(x, m);
    rel_free(x, pairs);
    free(off); free(inrow); free(src); free(pass); free(pvalid);
    if (x->err->set) { rel_free(x, res); return NULL; }
    return res;
}

rel *run_apply(xctx *x, attu_stage *s) {
    rel *in = run_stage(x, s->child[0]);
    if (!in) return NULL;
    int nk = s->keys.n, ns = s->child[1]->ncols;
    size_t n = in->nrows, ng = 0;
    xcol **k = calloc((size_t)nk + 1, sizeof *k);
    xcol **saved = calloc((size_t)nk + 1, sizeof *saved);
    int64_t *rep = malloc((n ? n : 1) * sizeof *rep), *gid = malloc((n ? n : 1) * sizeof *gid);
    int64_t *rows = malloc((n ? n : 1) * sizeof *rows);
    rel *kr = NULL, *first = NULL, *res = NULL, *out = NULL;
    attu_buf *rb = NULL, *gb = NULL;
    int rc = (!k || !saved || !rep || !gid || !rows) ? attu_error_oom(x->err) : 0;
    for (int j = 0; j < nk && !rc; j++) rc = params_reserve(x, s->params[j]);
    /* the enclosing bindings of these slots (none unless nested in itself) */
    for (int j = 0; j < nk && !rc; j++) { saved[j] = x->params[s->params[j]]; x->params[s->params[j]] = NULL; }
    bool swapped = !rc;
    if (!rc) rc = eval_exprs(x, &s->keys, in, k);
    if (!rc) rc = bindings(x, k, nk, n, rep, gid, &ng);
    if (!rc) {
        rel kv = { nk, k, n, NULL };
        if (!(rb = upload_i64(x, rep, ng)) || !(kr = rel_gather(x, &kv, rb, ng, false))) rc = -1;
    }
    if (!rc) rc = run_bindings(x, s, kr, ng, rows, &first, s->all);
    if (!rc && s->all) {
        /* LATERAL: every row of each binding */
        if (!(out = lateral_rows(x, s, in, first, rows, ng, gid, n))) rc = -1;
        goto finish;
    }
    /* rows ++ first row, one entry per binding, then per outer row */
    if (!rc && !(res = rel_new(x, ns + 1, ng))) rc = -1;
    if (!rc) {
        xcol *rc8 = xcol_new(x, attu_type_make(ATTU_TYPE_INT64), ng, false);
        res->cols[0] = rc8;
        if (!rc8 || (ng && x->be->upload(x->be, rc8->data, 0, rows, ng * sizeof *rows, x->err))) rc = -1;
        for (int i = 0; i < ns && !rc; i++) res->cols[1 + i] = xcol_ref(first->cols[i]);
    }
    rel *per = NULL;
    if (!rc && (!(gb = upload_i64(x, gid, n)) || !(per = rel_gather(x, res, gb, n, false)))) rc = -1;
    if (!rc && !(out = rel_new(x, in->ncols + 1 + ns, n))) rc = -1;
    if (!rc) {
        for (int i = 0; i < in->ncols; i++) out->cols[i] = xcol_ref(in->cols[i]);
        for (int i = 0; i <= ns; i++) out->cols[in->ncols + i] = xcol_ref(per->cols[i]);
    }
    rel_free(x, per);
finish:
    if (swapped)
        for (int j = 0; j < nk; j++) { xcol_unref(x, x->params[s->params[j]]); x->params[s->params[j]] = saved[j]; }
    if (k) for (int j = 0; j < nk; j++) xcol_unref(x, k[j]);
    free(k); free(saved); free(rep); free(gid); free(rows);
    rel_free(x, kr); rel_free(x, first); rel_free(x, res); rel_free(x, in);
    if (rb) x->be->free(x->be, rb);
    if (gb) x->be->free(x->be, gb);
    if (rc) { rel_free(x, out); return NULL; }
    return out;
}
