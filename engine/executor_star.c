/*
 * executor_star.c - the star join: a chain of inner equi-joins that all
 * probe one fact input, run as one pass over the fact rows.
 *
 * "from lineorder, customer, supplier, part where lo_custkey = c_custkey
 * and lo_suppkey = s_suppkey and ..." lowers into a left-deep chain of
 * JOIN stages with the fact input at the bottom. Joined one at a time,
 * each join compacts the fact rows the last one kept, gathers the next
 * key through their row indices, and composes every lazy column's index
 * with its pairs: a pass and a handful of gathers per dimension. When
 * every join's fact-side key is a column of the fact input itself and
 * every dimension's key is unique over a dense range (dense_index says
 * so), the chain is one dense_probe over the fact rows against all the
 * dimensions' indexes: each row's keys are tested dimension by dimension
 * and only the rows that pass them all are written, with the dimension
 * row each one matched. That is the relation the chain gives (every fact
 * row with its one partner in each dimension, in fact row order, as the
 * dense path of one join gives them), with every column passed on lazily.
 *
 * When the shape fails at run time (a repeated or sparse dimension key,
 * a dimension larger than the fact input, keys of other types), the joins
 * run one at a time on the inputs already computed: the same answer.
 */
#include "engine/executor_internal.h"

#include <stdlib.h>
#include <string.h>

/* A join of the chain: inner, no residual condition, one key. */
static bool chain_link(const attu_stage *s) {
    return s->kind == ATTU_ST_JOIN && s->jk == ATTU_SJ_INNER && !s->residual.n && s->keys.n == 1 &&
           s->rkeys.n == 1 && s->child[0] && s->child[1];
}

/* Whether the join's left key is one of the first nf columns of its
 * input (the fact input's). Not an expression over them: the chain
 * would evaluate it over the rows the joins below it kept, the probe
 * over every fact row, and a row the chain never reaches must not raise
 * an error (a division by zero) the chain would not. */
static bool keys_on_fact(const attu_stage *s, int nf) {
    return s->keys.direct[0] >= 0 && s->keys.direct[0] < nf;
}

bool star_shape(attu_stage *s, star_chain *st) {
    attu_stage *down[ATTU_DENSE_PROBE_MAX_DIMS];   /* s and the joins under it, top first */
    int n = 0;
    for (attu_stage *t = s; t && chain_link(t) && n < ATTU_DENSE_PROBE_MAX_DIMS; t = t->child[0]) down[n++] = t;
    /* the longest chain whose joins all key on the fact input's columns
     * (a key on an earlier dimension's column - a snowflake - ends it) */
    for (int b = n - 1; b >= 1; b--) {
        int nf = down[b]->child[0]->ncols;
        bool ok = true;
        for (int j = 0; j <= b && ok; j++) ok = keys_on_fact(down[j], nf);
        if (!ok) continue;
        st->k = b + 1;
        for (int j = 0; j <= b; j++) st->join[j] = down[b - j];
        st->fact = down[b]->child[0];
        return true;
    }
    /* One join is a star of one dimension when its fact input is a
     * filter straight over a large table: the probe then tests the
     * filter's mask where the table's keys lie, instead of the filter
     * compacting the table and the join gathering the kept rows' keys
     * (SSB's flight 1). Any other single join runs as run_join. */
    if (n >= 1) {
        const attu_stage *fs = down[0]->child[0];
        if (fs->kind == ATTU_ST_FILTER && fs->child[0]->kind == ATTU_ST_SCAN && fs->child[0]->table &&
            fs->child[0]->table->nrows >= 65536 && keys_on_fact(down[0], fs->ncols)) {
            st->k = 1;
            st->join[0] = down[0];
            st->fact = down[0]->child[0];
            return true;
        }
    }
    return false;
}

/* A fact or dimension key the probe reads as it is (as dense_probe takes
 * needles: INT32 / DATE values, or 8-byte integers), the same type on
 * both sides. */
bool probe_key_type(attu_type_id a, attu_type_id b) {
    return a == b && (a == ATTU_TYPE_INT32 || a == ATTU_TYPE_DATE || a == ATTU_TYPE_INT64 || attu_type_is_int64_datetime(a));
}

/* The share of its table's rows a dimension input kept (its filter's
 * selectivity): the probe tests the most selective dimension first, so
 * the fewest rows load the next keys. 1 when no table lies under it. */
static double kept_share(const attu_stage *s, size_t rows) {
    while (s && s->kind != ATTU_ST_SCAN) s = s->child[0];
    if (!s || !s->table || !s->table->nrows) return 1.0;
    return (double)rows / (double)s->table->nrows;
}

/* Whether every row of the stage's result is a distinct row of one
 * table: only filters and projections between it and a scan (a join
 * below could repeat a row). Then a key unique over the table is unique
 * over the result too. */
bool rows_of_one_table(const attu_stage *s) {
    while (s && (s->kind == ATTU_ST_FILTER || s->kind == ATTU_ST_PROJECT)) s = s->child[0];
    return s && s->kind == ATTU_ST_SCAN;
}

/* The key statistics of table column tc (base: its resident column), as
 * the star join's dense index needs them: computed on first use (key
 * images of the whole column, their range, and a dense index of them to
 * see whether a value repeats, when the range allows one) and kept on the
 * column. *known false when another query is computing them right now.
 * A dimension's key then costs neither a range reduce nor a repeat check
 * with their waits for the device, query after query; a key that is its
 * row number plus kmin (identity) lets a plain join skip its index too
 * (run_join). */
int table_key_stats(xctx *x, xcol *base, attu_column *tc, attu_key_stats *out, bool *known) {
    *known = false;
    if (__atomic_load_n(&tc->key_stats.state, __ATOMIC_ACQUIRE) == 2) {
        *out = tc->key_stats;
        *known = true;
        return 0;
    }
    int idle = 0;
    if (!__atomic_compare_exchange_n(&tc->key_stats.state, &idle, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return 0;
    size_t n = tc->length;
    attu_key_stats ks = { 0 };
    attu_buf *img = n ? buf_i64(x, n) : NULL, *mask = NULL, *index = NULL;
    attu_vec bv = vec_of(base);
    xcol *one[1] = { base };
    int rc = n && (!img || x->be->key_encode(x->be, &bv, n, INT64_MIN + 1, img, x->err) ||
                   keys_valid_mask(x, one, 1, n, &mask) || key_range(x, img, mask, n, &ks.kmin, &ks.kmax, &ks.any));
    if (!rc && ks.any && (__int128)ks.kmax - ks.kmin < ((__int128)1 << 27)) {
        index = buf_i64(x, (size_t)(ks.kmax - ks.kmin) + 1);
        rc = !index || x->be->dense_index(x->be, img, mask, n, ks.kmin, ks.kmax, index, &ks.unique, &ks.identity, x->err);
    }
    free_buf(x, img);
    free_buf(x, mask);
    free_buf(x, index);
    if (rc && !strcmp(x->err->sqlstate, ATTU_SQLSTATE_OUT_OF_MEMORY)) {
        /* the whole column's index did not fit the memory budget: the
         * star join goes on without the statistics (its own index covers
         * only the dimension's rows), and later ones do not try again */
        attu_error_clear(x->err);
        ks.unique = false;
        rc = 0;
    }
    if (rc) {
        __atomic_store_n(&tc->key_stats.state, 0, __ATOMIC_RELEASE);
        return -1;
    }
    tc->key_stats.any = ks.any;
    tc->key_stats.unique = ks.unique;
    tc->key_stats.identity = ks.unique && ks.identity;
    tc->key_stats.kmin = ks.kmin;
    tc->key_stats.kmax = ks.kmax;
    __atomic_store_n(&tc->key_stats.state, 2, __ATOMIC_RELEASE);
    ks.state = 2;
    *out = ks;
    *known = true;
    return 0;
}

/* Whether a stage above the chain reads any column of dimension j (the
 * top join's out_need over its output: the fact input's columns, then
 * each dimension's in chain order). A dimension that only filters needs
 * no row index out of the probe, and its columns stay placeholders. */
static bool dim_read_above(const star_chain *st, const rel *f, rel **d, int j) {
    const bool *need = st->join[st->k - 1]->out_need;
    if (!need) return true;
    int at = f->ncols;
    for (int i = 0; i < j; i++) at += d[i]->ncols;
    for (int c = 0; c < d[j]->ncols; c++)
        if (need[at + c]) return true;
    return false;
}

/* One dense_probe over the fact rows against the index of every
 * dimension that allows one (use[j]: its key of the fact key's type, at
 * most as many rows as the fact input, unique over a dense range): the
 * relation [f, d[j] for each used j] with every column lazy, or NULL with
 * *nused 0 (and no error) when no dimension allows it. */
static rel *star_probe(xctx *x, const star_chain *st, rel *f, const xcol *pred, rel **d, bool *use, int *nused) {
    enum { MAXD = ATTU_DENSE_PROBE_MAX_DIMS };
    int k = st->k, nu = 0;
    attu_dense_dim dims[MAXD];
    attu_buf *index[MAXD] = { 0 }, *fmask[MAXD] = { 0 }, *dmask[MAXD] = { 0 }, *rows = NULL;
    xcol *hitx[MAXD] = { 0 }, *rowx = NULL, *fk[MAXD] = { 0 }, *dk[MAXD] = { 0 }, *basex[MAXD] = { 0 };
    rel *out = NULL;
    size_t np = 0;
    int64_t slots = 0;
    double share[MAXD];
    int dimof[MAXD];   /* dims[u] probes dimension dimof[u] */
    *nused = 0;
    memset(dims, 0, sizeof dims);
    for (int j = 0; j < k; j++) use[j] = false;
    if (!x->be->dense_index || !x->be->dense_probe) return NULL;
    for (int j = 0; j < k; j++) {
        const attu_stage *s = st->join[j];
        /* the table column under the dimension's key, when it is one and
         * the dimension's rows are distinct rows of its table (before the
         * key is gathered, which forgets where it came from) */
        xcol *base = NULL;
        if (s->rkeys.direct[0] >= 0 && rows_of_one_table(s->child[1])) {
            xcol *c = d[j]->cols[s->rkeys.direct[0]];
            base = c->lazy_src ? c->lazy_src : c;
            if (!base->tcol || base->lazy_src || !probe_key_type(base->type.id, base->type.id)) base = NULL;
            /* held: gathering the key may drop the last other reference */
            basex[j] = base = base ? xcol_ref(base) : NULL;
        }
        /* both sides' keys (the dimension's may be an expression over its
         * rows: a cast of INTEGER to BIGINT, say) */
        if (materialize_read(x, f, &s->keys) || eval_exprs(x, &s->keys, f, &fk[j]) ||
            materialize_read(x, d[j], &s->rkeys) || eval_exprs(x, &s->rkeys, d[j], &dk[j])) goto done;
        if (!probe_key_type(fk[j]->type.id, dk[j]->type.id) || d[j]->nrows > f->nrows) continue;
        /* the dimension's index over its keys' images: a dimension the
         * dense table does not pay for (at most 2^27 slots each, 2^28 in
         * all), an empty one or one with a repeated key joins after the
         * probe */
        size_t nd = d[j]->nrows;
        attu_buf *img = buf_i64(x, nd);
        attu_vec bv = vec_of(dk[j]);
        int64_t kmin = 0, kmax = 0;
        __int128 room = ((__int128)1 << 28) - slots;
        __int128 limit = room < ((__int128)1 << 27) ? room : (__int128)1 << 27;
        attu_key_stats ks;
        bool known = false;
        if (base && table_key_stats(x, base, base->tcol, &ks, &known)) { free_buf(x, img); goto done; }
        int rc = !img || (nd && x->be->key_encode(x->be, &bv, nd, INT64_MIN + 1, img, x->err)) ||
                 keys_valid_mask(x, &dk[j], 1, nd, &dmask[j]);
        if (!rc && known && ks.unique) {
            /* the table's range and uniqueness hold for its rows here */
            kmin = ks.kmin;
            kmax = ks.kmax;
            rc = ks.any && known_dense_index(x, img, dmask[j], nd, f->nrows, limit, kmin, kmax, &index[j]);
        } else if (!rc) {
            rc = unique_dense_index(x, img, dmask[j], nd, f->nrows, limit, &index[j], &kmin, &kmax, NULL);
        }
        free_buf(x, img);
        if (rc) goto done;
        if (!index[j]) continue;
        slots += kmax - kmin + 1;
        if (keys_valid_mask(x, &fk[j], 1, f->nrows, &fmask[j])) goto done;
        dims[nu].needles = vec_of(fk[j]);
        dims[nu].needles.valid = NULL;
        dims[nu].mask = fmask[j];
        dims[nu].table = index[j];
        dims[nu].kmin = kmin;
        dims[nu].kmax = kmax;
        dims[nu].no_hits = !dim_read_above(st, f, d, j);
        share[nu] = dims[nu].share = kept_share(st->join[j]->child[1], nd);
        dimof[nu] = j;
        use[j] = true;
        nu++;
    }
    /* the most selective dimension first (the result does not depend on
     * the order: a row is kept when every index has its key) */
    for (int u = 1; u < nu; u++)
        for (int v = u; v > 0 && share[v] < share[v - 1]; v--) {
            attu_dense_dim t = dims[v]; dims[v] = dims[v - 1]; dims[v - 1] = t;
            double ts = share[v]; share[v] = share[v - 1]; share[v - 1] = ts;
            int tj = dimof[v]; dimof[v] = dimof[v - 1]; dimof[v - 1] = tj;
        }
    /* the fact input's own filter, when it comes unapplied, is one more
     * mask of the probe, on the first index that has none (when every
     * index has one, of NULL keys, the caller filters first) */
    if (pred && nu) {
        int u = 0;
        while (u < nu && dims[u].mask) u++;
        if (u == nu) nu = 0;
        else { dims[u].mask = pred->data; dims[u].mask_valid = pred->valid; }
    }
    if (!nu || check_stop(x) || x->be->dense_probe(x->be, nu, dims, f->nrows, &rows, &np, x->err)) goto done;
    /* every fact row kept: the probe may leave the rows 0..np-1 unwritten,
     * and the fact's columns pass on as they are */
    if (!rows && np != f->nrows) { attu_error_set(x->err, ATTU_SQLSTATE_INTERNAL, 0, "dense_probe left its rows out but kept %zu of %zu", np, f->nrows); goto done; }
    if (!(rowx = index_column(x, rows))) goto done;
    rows = NULL;
    for (int u = 0; u < nu; u++) {
        if (dims[u].no_hits) continue;
        if (!(hitx[dimof[u]] = index_column(x, dims[u].hits))) goto done;
        dims[u].hits = NULL;
    }
    {
        int ncols = f->ncols;
        for (int j = 0; j < k; j++) ncols += use[j] ? d[j]->ncols : 0;
        out = rel_new(x, ncols, np);
        int at = f->ncols, rc = !out;
        if (!rc && !rowx->data)
            for (int c = 0; c < f->ncols; c++) out->cols[c] = xcol_ref(f->cols[c]);
        else if (!rc)
            rc = lazy_side(x, out, 0, f, rowx, np, NULL);
        for (int j = 0; j < k && !rc; j++) {
            if (!use[j]) continue;
            if (hitx[j]) {
                rc = lazy_side(x, out, at, d[j], hitx[j], np, NULL);
            } else {
                /* read by no stage above: placeholders */
                for (int c = 0; c < d[j]->ncols && !rc; c++)
                    if (!(out->cols[at + c] = xcol_pruned(x, d[j]->cols[c]->type))) rc = -1;
            }
            at += d[j]->ncols;
        }
        if (rc) { rel_free(x, out); out = NULL; }
    }
    if (out) *nused = nu;
done:
    for (int j = 0; j < k; j++) {
        free_buf(x, index[j]); free_buf(x, fmask[j]); free_buf(x, dmask[j]); free_buf(x, dims[j].hits);
        xcol_unref(x, hitx[j]); xcol_unref(x, fk[j]); xcol_unref(x, dk[j]); xcol_unref(x, basex[j]);
    }
    free_buf(x, rows);
    xcol_unref(x, rowx);
    return out;
}

static void mark(attu_stage *s, size_t rows, double ms, const char *how) {
    s->executed = true;
    s->act_rows = rows;
    s->act_ms = ms;
    if (how) s->act_how = how;
}

/* The chain one join at a time (no dimension allows the probe). */
static rel *run_chain(xctx *x, const star_chain *st, rel *cur, rel **d) {
    for (int j = 0; j < st->k && cur; j++) {
        attu_stage *s = st->join[j];
        double t0 = attu_now_ms();
        rel *o = check_stop(x) ? NULL : run_join(x, s, cur, d[j], NULL);
        rel_free(x, cur);
        rel_free(x, d[j]);
        d[j] = NULL;
        if (o && check_stage_cols(x, s, o)) { rel_free(x, o); o = NULL; }
        if (o) mark(s, o->nrows, attu_now_ms() - t0, NULL);
        cur = o;
    }
    return cur;
}

rel *run_star(xctx *x, const star_chain *st) {
    enum { MAXD = ATTU_DENSE_PROBE_MAX_DIMS };
    int k = st->k, nused = 0;
    bool use[MAXD];
    int pos[MAXD];   /* where d[j]'s columns sit in out */
    rel *f = NULL, *d[MAXD] = { 0 }, *out = NULL;
    xcol *pred = NULL;
    attu_stage *fs = st->fact;
    double tf = attu_now_ms();
    if (fs->kind == ATTU_ST_FILTER && fs->child[0]->kind == ATTU_ST_SCAN) {
        /* a filter straight over the fact table (SSB's flight 1) is not
         * compacted: its predicate, evaluated over the table's rows, is
         * one more mask of the probe, which then reads the table's keys
         * where they lie instead of gathering the kept rows' keys */
        if (!(f = run_stage_lazy(x, fs->child[0]))) return NULL;
        if (eval_exprs(x, &fs->exprs, f, &pred)) goto done;
    } else if (!(f = run_stage_lazy(x, fs))) {
        return NULL;
    }
    /* the dimensions in the order the chain would run them */
    for (int j = 0; j < k; j++)
        if (!(d[j] = run_stage_lazy(x, st->join[j]->child[1]))) goto done;
    double t0 = attu_now_ms();
    out = star_probe(x, st, f, pred, d, use, &nused);
    if (x->err->set) { rel_free(x, out); out = NULL; goto done; }
    if (!nused) {
        if (pred) {
            /* no probe after all: the fact input's filter first */
            rel *g = filter_lazy(x, f, pred);
            rel_free(x, f);
            if (!(f = g)) goto done;
            mark(fs, f->nrows, attu_now_ms() - tf, NULL);
        }
        out = run_chain(x, st, f, d);
        f = NULL;
        goto done;
    }
    if (pred) mark(fs, out->nrows, 0, "eval: its mask tested in the star join's probe (rows: the probe's)");
    for (int j = 0, at = f->ncols; j < k; j++)
        if (use[j]) { pos[j] = at; at += d[j]->ncols; }
    size_t probed = out->nrows;
    double probe_ms = attu_now_ms() - t0;
    /* the other dimensions, one join each, after the probe: their keys
     * are fact columns, which keep their places at the front */
    for (int j = 0; j < k; j++) {
        if (use[j]) continue;
        double tj = attu_now_ms();
        rel *o = check_stop(x) ? NULL : run_join(x, st->join[j], out, d[j], NULL);
        pos[j] = out->ncols;
        rel_free(x, out);
        out = o;
        if (!o) goto done;
        mark(st->join[j], o->nrows, attu_now_ms() - tj, "joined after the star join's probe");
    }
    /* the columns in the chain's order: f, then each dimension's */
    {
        int ncols = f->ncols;
        for (int j = 0; j < k; j++) ncols += d[j]->ncols;
        rel *r = rel_new(x, ncols, out->nrows);
        if (!r) { rel_free(x, out); out = NULL; goto done; }
        int at = 0;
        for (int c = 0; c < f->ncols; c++) r->cols[at++] = xcol_ref(out->cols[c]);
        for (int j = 0; j < k; j++)
            for (int c = 0; c < d[j]->ncols; c++) r->cols[at++] = xcol_ref(out->cols[pos[j] + c]);
        rel_free(x, out);
        out = r;
    }
    if (check_stage_cols(x, st->join[k - 1], out)) { rel_free(x, out); out = NULL; goto done; }
    /* EXPLAIN ANALYZE: the highest probed join shows the probe */
    for (int j = k - 1, shown = 0; j >= 0; j--) {
        if (!use[j]) continue;
        mark(st->join[j], j == k - 1 ? out->nrows : probed, shown ? 0 : probe_ms,
             shown ? "probed in the star join above" : "star: key_range + dense_index per dimension + one dense_probe");
        shown = 1;
    }
done:
    xcol_unref(x, pred);
    rel_free(x, f);
    for (int j = 0; j < k; j++) rel_free(x, d[j]);
    return out;
}
