/*
 * executor_ops.c - the operators with more moving parts: concatenation,
 * equi-joins (sort the smaller side + sorted_search + scan + lbs), cross joins, grouped and
 * whole-table aggregation (sort + segment heads + segreduce), the fused
 * join-aggregate (lbs_segreduce), window functions and set operations.
 */
#include "engine/executor_internal.h"
#include "engine/interval.h"
#include "engine/numeric.h"
#include "engine/regr_accum.h"
#include "engine/timezone.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void free_buf(xctx *x, attu_buf *b) { if (b) x->be->free(x->be, b); }

/* ---- host round trips (small bookkeeping the primitives do not cover) ------ */

static void *download_all(xctx *x, const attu_buf *b, size_t bytes) {
    void *h = malloc(bytes ? bytes : 1);
    if (!h) { attu_error_oom(x->err); return NULL; }
    if (bytes && x->be->download(x->be, h, b, 0, bytes, x->err)) { free(h); return NULL; }
    return h;
}

static attu_buf *upload_new(xctx *x, const void *h, size_t bytes) {
    attu_buf *b = x->be->alloc(x->be, bytes ? bytes : 1, x->err);
    if (b && bytes && x->be->upload(x->be, b, 0, h, bytes, x->err)) { free_buf(x, b); return NULL; }
    return b;
}

/* Remaps the codes of a TEXT column through map (host int32 table). */
static xcol *remap_codes(xctx *x, const xcol *c, size_t n, const int32_t *map, attu_dictionary *dict) {
    int32_t *codes = download_all(x, c->data, n * 4);
    uint8_t *valid = c->valid ? download_all(x, c->valid, n) : NULL;
    if (!codes || (c->valid && !valid)) { free(codes); free(valid); return NULL; }
    for (size_t i = 0; i < n; i++) codes[i] = (valid && !valid[i]) ? 0 : map[codes[i]];
    xcol *o = xcol_new(x, c->type, n, c->valid != NULL);
    if (o) {
        if (x->be->upload(x->be, o->data, 0, codes, n * 4, x->err) ||
            (valid && x->be->upload(x->be, o->valid, 0, valid, n, x->err))) { xcol_unref(x, o); o = NULL; }
        else if (dict) o->dict = attu_dictionary_ref(dict);
    }
    free(codes); free(valid);
    return o;
}

/* ---- concatenation ----------------------------------------------------------- */

static int copy_into(xctx *x, xcol *d, size_t off, const xcol *s, size_t n) {
    size_t w = attu_type_width(s->type.id);
    attu_buf *idx = buf_i64(x, n);
    if (!idx || x->be->iota(x->be, idx, 0, n, x->err)) { free_buf(x, idx); return -1; }
    attu_buf dv = view(d->data, off * w, n * w), vv;
    if (d->valid) vv = view(d->valid, off, n);
    int rc = x->be->gather(x->be, &dv, d->valid ? &vv : NULL, s->data, s->valid, w, idx, n, x->err);
    free_buf(x, idx);
    return rc;
}

rel *rel_concat(xctx *x, const rel *a, const rel *b) {
    size_t n = a->nrows + b->nrows;
    rel *o = rel_new(x, a->ncols, n);
    if (!o) return NULL;
    for (int i = 0; i < a->ncols; i++) {
        xcol *ca = a->cols[i], *cb = b->cols[i];
        if (ca->pruned || cb->pruned) { o->cols[i] = xcol_ref(ca->pruned ? ca : cb); continue; }
        xcol *sa = xcol_ref(ca), *sb = xcol_ref(cb);
        attu_dictionary *dict = NULL;
        if (ca->type.id == ATTU_TYPE_TEXT && ca->dict != cb->dict) {
            /* merge the dictionaries: a's strings plus b's */
            const attu_dictionary *db = cb->dict;
            int32_t nb = db ? db->count : 0;
            const char **strs = malloc(sizeof *strs * ((size_t)nb + 1));
            size_t *lens = malloc(sizeof *lens * ((size_t)nb + 1));
            int32_t *bmap = malloc(sizeof *bmap * ((size_t)nb + 1));
            int32_t *amap = malloc(sizeof *amap * ((size_t)(ca->dict ? ca->dict->count : 0) + 1));
            if (!strs || !lens || !bmap || !amap) { free(strs); free(lens); free(bmap); free(amap); xcol_unref(x, sa); xcol_unref(x, sb); attu_error_oom(x->err); rel_free(x, o); return NULL; }
            for (int32_t k = 0; k < nb; k++) strs[k] = attu_dictionary_get(db, k, &lens[k]);
            if (ca->dict) dict = attu_dictionary_merge(ca->dict, strs, lens, (size_t)nb, amap, bmap, x->err);
            else dict = attu_dictionary_build(strs, lens, (size_t)nb, bmap, x->err);
            xcol *na = NULL, *nbx = NULL;
            if (dict) {
                na = ca->dict ? remap_codes(x, ca, a->nrows, amap, dict) : NULL;
                nbx = remap_codes(x, cb, b->nrows, bmap, dict);
            }
            free(strs); free(lens); free(bmap); free(amap);
            xcol_unref(x, sa); xcol_unref(x, sb);
            if (!dict || (ca->dict && !na) || !nbx) { if (dict) attu_dictionary_unref(dict); xcol_unref(x, na); xcol_unref(x, nbx); rel_free(x, o); return NULL; }
            sa = na ? na : xcol_ref(ca);
            sb = nbx;
        } else if (ca->dict) dict = attu_dictionary_ref(ca->dict);
        xcol *d = xcol_new(x, ca->type, n, sa->valid || sb->valid);
        if (!d || copy_into(x, d, 0, sa, a->nrows) || copy_into(x, d, a->nrows, sb, b->nrows)) {
            xcol_unref(x, d); xcol_unref(x, sa); xcol_unref(x, sb); if (dict) attu_dictionary_unref(dict); rel_free(x, o); return NULL;
        }
        d->dict = dict;
        o->cols[i] = d;
        xcol_unref(x, sa); xcol_unref(x, sb);
    }
    return o;
}

/* ---- join keys --------------------------------------------------------------------- */

/* One int64 key per row for both sides, equal exactly when every key is
 * equal and none is NULL. Each key column gives one int64 word per row
 * (key_encode), a NUMERIC key one or two (exec_numeric_join_words: equal
 * values of any display scale give equal words); several words become
 * dense ranks of the sorted union of both sides. skip_left / skip_right
 * (one key column, not NUMERIC) leave that side's image out (NULL):
 * inner_join_pairs reads the column itself when it can, and encodes it
 * only when it must. */
static int join_keys(xctx *x, xcol **lk, xcol **rk, int nk, size_t nl, size_t nr, bool skip_left, bool skip_right,
                     attu_buf **kl_out, attu_buf **kr_out) {
    int nw = 0, cap = nk * 2;
    attu_buf **el = calloc((size_t)cap + 1, sizeof *el), **er = calloc((size_t)cap + 1, sizeof *er);
    int rc = -1;
    attu_buf *all = NULL;
    if (!el || !er) { attu_error_oom(x->err); goto out; }
    for (int k = 0; k < nk; k++) {
        if (attu_type_is_wide(lk[k]->type.id) || attu_type_is_wide(rk[k]->type.id)) {
            /* the binder compares NUMERIC with NUMERIC only (EQ_N), INTERVAL
             * with INTERVAL (EQ_IV) */
            attu_vec lv = vec_of(lk[k]), rv = vec_of(rk[k]);
            int w = 0;
            if (lk[k]->type.id != rk[k]->type.id) {
                attu_error_set(x->err, ATTU_SQLSTATE_INTERNAL, 0, "a numeric join key meets a key of another type");
                goto out;
            }
            if (exec_numeric_join_words(x, &lv, nl, &rv, nr, el + nw, er + nw, &w)) goto out;
            nw += w;
            continue;
        }
        xcol *r = xcol_ref(rk[k]);
        if (lk[k]->type.id == ATTU_TYPE_TEXT && lk[k]->dict != r->dict && r->dict && lk[k]->dict) {
            int32_t *map = malloc(sizeof(int32_t) * ((size_t)r->dict->count + 1));
            if (!map || attu_dictionary_translate(r->dict, lk[k]->dict, map, x->err)) { free(map); xcol_unref(x, r); if (!x->err->set) attu_error_oom(x->err); goto out; }
            xcol *t = remap_codes(x, r, nr, map, lk[k]->dict);
            free(map);
            xcol_unref(x, r);
            if (!t) goto out;
            r = t;
        }
        bool sl = nk == 1 && skip_left, sr = nk == 1 && skip_right;
        el[nw] = sl ? NULL : buf_i64(x, nl);
        er[nw] = sr ? NULL : buf_i64(x, nr);
        attu_vec lv = vec_of(lk[k]), rv = vec_of(r);
        int bad = (!sl && (!el[nw] || x->be->key_encode(x->be, &lv, nl, INT64_MIN, el[nw], x->err))) ||
                  (!sr && (!er[nw] || x->be->key_encode(x->be, &rv, nr, INT64_MIN + 1, er[nw], x->err)));
        nw++;
        xcol_unref(x, r);
        if (bad) goto out;
    }
    if (nw == 1) {
        *kl_out = el[0]; *kr_out = er[0];
        el[0] = er[0] = NULL;
        rc = 0;
        goto out;
    }
    {
        size_t n = nl + nr;
        attu_buf **cat = calloc((size_t)nw + 1, sizeof *cat);
        attu_sort_key *keys = calloc((size_t)nw + 1, sizeof *keys);
        attu_vec *kv = calloc((size_t)nw + 1, sizeof *kv);
        attu_buf *perm = buf_i64(x, n), *heads = NULL, *off = NULL, *seg = NULL, *idx = NULL;
        size_t nh = 0;
        int ok = cat && keys && kv && perm;
        if (!ok && !x->err->set) attu_error_oom(x->err);
        idx = ok ? buf_i64(x, n) : NULL;
        ok = ok && idx && !x->be->iota(x->be, idx, 0, n, x->err);
        for (int k = 0; k < nw && ok; k++) {
            cat[k] = buf_i64(x, n);
            if (!cat[k]) { ok = 0; break; }
            attu_buf a = view(cat[k], 0, nl * 8), b = view(cat[k], nl * 8, nr * 8);
            ok = !x->be->gather(x->be, &a, NULL, el[k], NULL, 8, idx, nl, x->err) &&
                 !x->be->gather(x->be, &b, NULL, er[k], NULL, 8, idx, nr, x->err);
            kv[k] = (attu_vec){ attu_type_make(ATTU_TYPE_INT64), cat[k], NULL, NULL };
            keys[k].col = kv[k];
        }
        ok = ok && !exec_sort(x, keys, nw, n, perm);
        ok = ok && !exec_segment_heads(x, kv, nw, perm, n, &heads, &nh);
        if (ok) {
            off = buf_i64(x, nh + 1);
            int64_t end = (int64_t)n;
            ok = off && !x->be->iota(x->be, idx, 0, nh, x->err);
            attu_buf ov = ok ? view(off, 0, nh * 8) : (attu_buf){ 0 };
            ok = ok && !x->be->gather(x->be, &ov, NULL, heads, NULL, 8, idx, nh, x->err) &&
                 !x->be->upload(x->be, off, nh * 8, &end, 8, x->err);
        }
        seg = ok ? buf_i64(x, n) : NULL;
        ok = ok && seg && !x->be->lbs(x->be, off, nh, n, seg, x->err);
        all = ok ? buf_i64(x, n) : NULL;
        ok = ok && all && !x->be->scatter(x->be, all, seg, 8, perm, n, x->err);
        if (ok) {
            attu_buf *kl = buf_i64(x, nl), *kr = buf_i64(x, nr);
            attu_buf a = view(all, 0, nl * 8), b = view(all, nl * 8, nr * 8);
            ok = kl && kr && !x->be->iota(x->be, idx, 0, n, x->err) &&
                 !x->be->gather(x->be, kl, NULL, &a, NULL, 8, idx, nl, x->err) &&
                 !x->be->gather(x->be, kr, NULL, &b, NULL, 8, idx, nr, x->err);
            if (ok) { *kl_out = kl; *kr_out = kr; rc = 0; }
            else { free_buf(x, kl); free_buf(x, kr); }
        }
        for (int k = 0; k < nw && cat; k++) free_buf(x, cat[k]);
        free(cat); free(keys); free(kv);
        free_buf(x, perm); free_buf(x, heads); free_buf(x, off); free_buf(x, seg); free_buf(x, idx);
    }
out:
    for (int k = 0; k < cap; k++) { if (el) free_buf(x, el[k]); if (er) free_buf(x, er[k]); }
    free(el); free(er);
    free_buf(x, all);
    return rc;
}

/* Sorts an int64 key: *perm (positions -> rows) and the sorted keys. */
static int sort_key(xctx *x, attu_buf *k, size_t n, attu_buf **perm, attu_buf **sorted) {
    attu_sort_key key = { { attu_type_make(ATTU_TYPE_INT64), k, NULL, NULL }, false, false };
    *perm = buf_i64(x, n);
    *sorted = buf_i64(x, n);
    if (!*perm || !*sorted || exec_sort(x, &key, 1, n, *perm) ||
        x->be->gather(x->be, *sorted, NULL, k, NULL, 8, *perm, n, x->err)) {
        free_buf(x, *perm); free_buf(x, *sorted);
        *perm = *sorted = NULL;
        return -1;
    }
    return 0;
}

/* A BOOL mask of the rows whose key columns are all non-NULL, or NULL in
 * *mask_out when no key column can hold NULL. Joins drop NULL keys by this
 * mask rather than trusting key_encode's sentinels, which a BIGINT key can
 * also take (INT64_MIN). */
int keys_valid_mask(xctx *x, xcol **k, int nk, size_t n, attu_buf **mask_out) {
    *mask_out = NULL;
    attu_type bt = attu_type_make(ATTU_TYPE_BOOL);
    attu_type tys[64];
    attu_vec in[64];
    int nv = 0;
    for (int i = 0; i < nk && nv < 64; i++)
        if (k[i]->valid) { tys[nv] = bt; in[nv] = (attu_vec){ bt, k[i]->valid, NULL, NULL }; nv++; }
    if (!nv) return 0;
    attu_expr_program *p = attu_program_new(nv, tys);
    if (!p) return attu_error_oom(x->err);
    int acc = 0;
    for (int i = 1; i < nv; i++) {
        int r = attu_program_reg(p, bt);
        attu_program_emit(p, attu_instr_make(ATTU_OP_AND, r, acc, i));
        acc = r;
    }
    if (nv == 1) {
        acc = attu_program_reg(p, bt);
        attu_program_emit(p, attu_instr_make(ATTU_OP_MOVE, acc, 0, -1));
    }
    attu_program_add_output(p, acc);
    attu_buf *m = x->be->alloc(x->be, n ? n : 1, x->err);
    attu_out o = { bt, m, NULL, NULL };
    int rc = !m || x->be->eval(x->be, p, in, n, &o, x->err);
    attu_program_free(p);
    if (rc) { free_buf(x, m); return -1; }
    *mask_out = m;
    return 0;
}

/* The haystack side of a sorted_search join: the rows whose keys are not
 * NULL (mask, or all), sorted by key image. *perm maps sorted positions to
 * rows, *sorted holds the keys in that order, *ns their number. */
static int sorted_side(xctx *x, attu_buf *k, size_t n, const attu_buf *mask,
                       attu_buf **perm, attu_buf **sorted, size_t *ns) {
    *perm = *sorted = NULL;
    if (!mask) { *ns = n; return sort_key(x, k, n, perm, sorted); }
    attu_vec mv = { attu_type_make(ATTU_TYPE_BOOL), (attu_buf *)mask, NULL, NULL };
    attu_buf *idx = NULL, *kk = NULL, *p2 = NULL;
    size_t cnt = 0;
    int rc = -1;
    if (x->be->compact(x->be, &mv, n, &idx, &cnt, x->err)) return -1;
    kk = buf_i64(x, cnt);
    if (!kk || (cnt && x->be->gather(x->be, kk, NULL, k, NULL, 8, idx, cnt, x->err))) goto done;
    if (sort_key(x, kk, cnt, &p2, sorted)) goto done;
    *perm = buf_i64(x, cnt);
    if (!*perm || (cnt && x->be->gather(x->be, *perm, NULL, idx, NULL, 8, p2, cnt, x->err))) {
        free_buf(x, *perm); free_buf(x, *sorted);
        *perm = *sorted = NULL;
        goto done;
    }
    *ns = cnt;
    rc = 0;
done:
    free_buf(x, idx); free_buf(x, kk); free_buf(x, p2);
    return rc;
}

/* The dense-key table of the sorted keys ss against nn needles, in
 * *bounds_out (NULL when it does not pay). The runs of needle kn[i] in ss,
 * lo[i] / hi[i], take two binary searches per needle in general; when the key range is
 * small next to the work (the sorted keys are dense: their range at most 4
 * x their count, as surrogate keys and SSB's dimension keys are; or the
 * range is at most half the needles, as a filtered dimension's is against
 * its fact table, and at most 2^26 keys), a bounds table over the whole
 * range is built once (a sorted_search of the range's values, themselves
 * sorted) and each needle reads its two bounds from it: two gathers instead
 * of two random walks down the sorted keys. (H100, SSB SF20 q2.1: 120M
 * needles against 40,018 part keys spread over a range of 1M, two
 * sorted_searches took 2.8 ms each.) bounds[j] = lower bound of kmin + j
 * in ss; the run of key k is [bounds[k - kmin], bounds[k - kmin + 1]). */
/* Whether a table over a key range of `range` slots pays for ns keys
 * against nn needles (dense keys, or a filtered dimension against its
 * fact table), within `limit` slots. */
static bool dense_range_pays(int64_t kmin, int64_t kmax, size_t ns, size_t nn, __int128 limit) {
    __int128 range = (__int128)kmax - kmin + 1;
    bool pays = range <= (__int128)4 * ns + 1024 || (range <= (__int128)(nn / 2) && range <= ((__int128)1 << 26));
    return pays && range <= limit;
}

static int bounds_table(xctx *x, size_t nn, attu_buf *ss, size_t ns, attu_buf **bounds_out, int64_t *kmin_out,
                        int64_t *kmax_out) {
    int64_t kmin = 0, kmax = 0;
    *bounds_out = NULL;
    if (ns == 0 || nn < 65536) return 0;
    if (x->be->download(x->be, &kmin, ss, 0, 8, x->err) ||
        x->be->download(x->be, &kmax, ss, (ns - 1) * 8, 8, x->err)) return -1;
    if (!dense_range_pays(kmin, kmax, ns, nn, (__int128)1 << 30)) return 0;
    size_t nb = (size_t)(kmax - kmin) + 2;
    attu_buf *keys = buf_i64(x, nb), *bounds = buf_i64(x, nb);
    if (!keys || !bounds || x->be->iota(x->be, keys, kmin, nb, x->err) ||
        x->be->sorted_search(x->be, keys, nb, ss, ns, false, bounds, x->err)) {
        free_buf(x, keys); free_buf(x, bounds);
        return -1;
    }
    free_buf(x, keys);
    *bounds_out = bounds;
    *kmin_out = kmin;
    *kmax_out = kmax;
    return 0;
}

static int find_runs(xctx *x, attu_buf *kn, size_t nn, attu_buf *ss, size_t ns, attu_buf *lo, attu_buf *hi) {
    attu_buf *bounds = NULL;
    int64_t kmin = 0, kmax = 0;
    if (bounds_table(x, nn, ss, ns, &bounds, &kmin, &kmax)) return -1;
    if (!bounds)
        return x->be->sorted_search(x->be, kn, nn, ss, ns, false, lo, x->err) ||
               x->be->sorted_search(x->be, kn, nn, ss, ns, true, hi, x->err) ? -1 : 0;
    /* needles outside [kmin, kmax] (NULL sentinels too) get an empty run */
    int rc = x->be->dense_runs(x->be, kn, nn, bounds, kmin, kmax, lo, hi, x->err) ? -1 : 0;
    free_buf(x, bounds);
    return rc;
}

/* The lowest and highest valid key of k (int64 images; mask as for the
 * joins): false in *any when no row has a valid key. */
int key_range(xctx *x, attu_buf *k, const attu_buf *mask, size_t n, int64_t *kmin, int64_t *kmax, bool *any) {
    /* MIN and MAX and MIN's validity byte in one 24-byte buffer: one
     * download brings all three */
    attu_reduce_spec rs[2];
    attu_out ro[2];
    attu_type i8 = attu_type_make(ATTU_TYPE_INT64);
    attu_buf *all = x->be->alloc(x->be, 24, x->err);
    if (!all) return -1;
    attu_buf vals[2] = { view(all, 0, 8), view(all, 8, 8) }, valid[2] = { view(all, 16, 1), view(all, 17, 1) };
    memset(rs, 0, sizeof rs);
    for (int i = 0; i < 2; i++) {
        rs[i].op = i ? ATTU_REDUCE_MAX : ATTU_REDUCE_MIN;
        rs[i].in = (attu_vec){ i8, k, mask, NULL };
        rs[i].in_reg = rs[i].arg_reg = -1;
        rs[i].out_type = i8;
        ro[i] = (attu_out){ i8, &vals[i], &valid[i], NULL };
    }
    unsigned char got[24];
    int rc = x->be->reduce(x->be, n, 2, rs, ro, x->err) || x->be->download(x->be, got, all, 0, 24, x->err) ? -1 : 0;
    free_buf(x, all);
    if (rc) return -1;
    *any = got[16] != 0;
    memcpy(kmin, got, 8);
    memcpy(kmax, got + 8, 8);
    return 0;
}

/* The star-join shape, without sorting: the smaller side's keys are
 * unique (a dimension's primary key) and their range is small next to the
 * work (as for the bounds table). A dense index of them (dense_index: one
 * slot per key of the range, the row that has it) is built in one pass,
 * and one compaction over the larger side (dense_probe) gives the pairs,
 * in the larger side's row order as the expansion would. *done is false
 * when the shape does not apply (repeated keys, a wide range): the caller
 * sorts and expands as usual. */
/* The dense index of keys ks over [kmin, kmax] when the range pays;
 * check: the keys may repeat (a repeat leaves *index_out NULL), else they
 * are known unique and nothing is read back. */
static int dense_index_over(xctx *x, attu_buf *ks, const attu_buf *ms, size_t ns, size_t nn, __int128 limit,
                            int64_t kmin, int64_t kmax, bool check, bool *identity_out, attu_buf **index_out) {
    bool unique = true;
    *index_out = NULL;
    if (!ns || !dense_range_pays(kmin, kmax, ns, nn, limit)) return 0;
    attu_buf *index = buf_i64(x, (size_t)(kmax - kmin) + 1);
    if (!index || x->be->dense_index(x->be, ks, ms, ns, kmin, kmax, index, check ? &unique : NULL,
                                     check ? identity_out : NULL, x->err)) {
        free_buf(x, index);
        return -1;
    }
    if (!unique) { free_buf(x, index); return 0; }
    *index_out = index;
    return 0;
}

int unique_dense_index(xctx *x, attu_buf *ks, const attu_buf *ms, size_t ns, size_t nn, __int128 limit,
                       attu_buf **index_out, int64_t *kmin_out, int64_t *kmax_out, bool *identity_out) {
    int64_t kmin = 0, kmax = 0;
    bool any = false;
    *index_out = NULL;
    if (identity_out) *identity_out = false;
    if (!ns) return 0;
    if (key_range(x, ks, ms, ns, &kmin, &kmax, &any)) return -1;
    if (!any) return 0;
    if (dense_index_over(x, ks, ms, ns, nn, limit, kmin, kmax, true, identity_out, index_out)) return -1;
    *kmin_out = kmin;
    *kmax_out = kmax;
    return 0;
}

int known_dense_index(xctx *x, attu_buf *ks, const attu_buf *ms, size_t ns, size_t nn, __int128 limit, int64_t kmin,
                      int64_t kmax, attu_buf **index_out) {
    return dense_index_over(x, ks, ms, ns, nn, limit, kmin, kmax, false, NULL, index_out);
}

static int direct_index_pairs(xctx *x, attu_buf *ks, size_t ns, const attu_buf *ms, const attu_vec *kn, size_t nn,
                              const attu_buf *mn, const attu_key_stats *known, bool no_hits, attu_buf **needle_rows,
                              attu_buf **build_rows, size_t *np, bool *done) {
    int64_t kmin = 0, kmax = 0;
    attu_buf *index = NULL;
    *done = false;
    if (!x->be->dense_index || !x->be->dense_probe || nn < 65536) return 0;
    /* an index of at most 2^27 slots (1 GB): wider ranges sort and expand */
    bool identity = false;
    if (known) {
        /* the smaller side is a whole table column loaded in key order
         * (run_join read its kept statistics): no images, range or index */
        kmin = known->kmin;
        kmax = known->kmax;
        identity = true;
    } else {
        if (unique_dense_index(x, ks, ms, ns, nn, (__int128)1 << 27, &index, &kmin, &kmax, &identity)) return -1;
        if (!index) return 0;
    }
    /* keys in row order (a table loaded by its key): the probe reads no index */
    if (identity) { free_buf(x, index); index = NULL; }
    attu_dense_dim dim = { *kn, mn, NULL, index, kmin, kmax, NULL, no_hits, 0, identity };
    int rc = x->be->dense_probe(x->be, 1, &dim, nn, needle_rows, np, x->err) ? -1 : 0;
    *build_rows = dim.hits;
    *done = rc == 0;
    free_buf(x, index);
    return rc;
}

/* For each needle key, the start of its run of equal keys in the sorted
 * haystack (*lo) and the run's length (*cnt; 0 for a NULL-key needle per
 * mask), plus the exclusive scan of the lengths (*off, nn + 1 entries) and
 * their *total. */
static int match_runs(xctx *x, attu_buf *kn, size_t nn, const attu_buf *mask, attu_buf *ss, size_t ns,
                      attu_buf **lo_out, attu_buf **off_out, int64_t *total) {
    attu_type i8 = attu_type_make(ATTU_TYPE_INT64), bt = attu_type_make(ATTU_TYPE_BOOL);
    attu_buf *lo = buf_i64(x, nn), *hi = buf_i64(x, nn), *cnt = buf_i64(x, nn), *off = buf_i64(x, nn + 1);
    int rc = -1;
    if (!lo || !hi || !cnt || !off) goto done;
    if (find_runs(x, kn, nn, ss, ns, lo, hi)) goto done;
    {
        attu_type tys[3] = { i8, i8, bt };
        attu_expr_program *p = attu_program_new(mask ? 3 : 2, tys);
        if (!p) { attu_error_oom(x->err); goto done; }
        int d = attu_program_reg(p, i8);
        attu_program_emit(p, attu_instr_make(ATTU_OP_SUB_I, d, 1, 0));
        if (mask) {
            /* a NULL key matches nothing */
            int z = attu_program_reg(p, i8), r = attu_program_reg(p, i8);
            attu_program_emit(p, attu_instr_make(ATTU_OP_CONST, z, -1, -1));
            attu_instr sel = attu_instr_make(ATTU_OP_SELECT, r, d, z);
            sel.c = 2;
            attu_program_emit(p, sel);
            d = r;
        }
        attu_program_add_output(p, d);
        attu_vec in[3] = { { i8, lo, NULL, NULL }, { i8, hi, NULL, NULL }, { bt, (attu_buf *)mask, NULL, NULL } };
        attu_out o = { i8, cnt, NULL, NULL };
        int e = x->be->eval(x->be, p, in, nn, &o, x->err);
        attu_program_free(p);
        if (e || x->be->scan(x->be, cnt, off, nn, false, total, x->err) ||
            x->be->upload(x->be, off, nn * 8, total, 8, x->err)) goto done;
    }
    *lo_out = lo; *off_out = off;
    lo = off = NULL;
    rc = 0;
done:
    free_buf(x, lo); free_buf(x, hi); free_buf(x, cnt); free_buf(x, off);
    return rc;
}

/* The host memory the kernel says it can still give (MemAvailable), or
 * 0 when unknown. */
double host_available_bytes(void) {
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0;
    char line[128];
    double kb = 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "MemAvailable:", 13)) { kb = strtod(line + 13, NULL); break; }
    fclose(f);
    return kb * 1024.0;
}

/* On the CPU backend a join whose row pairs would not fit in the memory
 * left fails with 53200 before it allocates them: the kernel would
 * otherwise end the whole daemon (an inequality join of two large inputs,
 * a cross product written as a join). The GPU backend's allocations fail
 * by themselves. */
static int check_pairs_fit(xctx *x, int64_t pairs, size_t pair_bytes) {
    if (x->be->kind != ATTU_DEVICE_KIND_CPU || pairs < (1 << 20)) return 0;
    double need = (double)pairs * (double)pair_bytes, avail = host_available_bytes();
    if (avail <= 0 || need <= avail * 0.8) return 0;
    attu_error_set(x->err, ATTU_SQLSTATE_OUT_OF_MEMORY, 0, "out of memory");
    attu_error_set_detail(x->err, "A join would produce %lld row pairs (about %.0f MB); %.0f MB of memory are available.",
                          (long long)pairs, need / 1048576.0, avail / 1048576.0);
    return -1;
}

/* The pairs of an equi-join of int64 key images, without sorting the larger
 * side: the smaller side's non-NULL keys are sorted once, each key of the
 * larger side finds its run of partners with a lower and an upper
 * sorted_search, and the scan of the run lengths plus a load-balancing search
 * expand the pairs (DESIGN.md: sorted_search -> lbs). A star join's fact
 * table is thus read, never sorted. Pairs come out in the larger side's row
 * order, the partners of one row in the smaller side's stable key order;
 * NULL keys (ml / mr masks) never match. */
/* Whether every probing key raw (a whole table column of nn rows) lies
 * in the dimension's key range [kmin, kmax] with no NULL, by the column's
 * kept value range (measured here on first use, as dense_layout keeps
 * it): a dimension in key order then has exactly one partner for every
 * probing row and the probe has nothing to find. */
static attu_column *whole_table_column(const xcol *c, size_t n);
static bool needles_within(xctx *x, const xcol *raw, size_t nn, const attu_key_stats *known) {
    attu_column *tc = whole_table_column(raw, nn);
    if (!tc || attu_type_is_int64_datetime(raw->type.id) || !known->identity) return false;
    if (__atomic_load_n(&tc->range.state, __ATOMIC_ACQUIRE) != 2) {
        xcol *k = (xcol *)raw;
        int64_t mins[1], widths[1];
        size_t ns = 0;
        if (dense_layout(x, &k, 1, nn, mins, widths, &ns, NULL) < 0) return false;
        if (__atomic_load_n(&tc->range.state, __ATOMIC_ACQUIRE) != 2) return false;
    }
    const attu_value_range *r = &tc->range;
    return r->any && !r->nulls && r->min >= known->kmin && r->max <= known->kmax;
}

/* raw (or NULL): the larger side's key column when join_keys left its
 * image out (kl or kr NULL); an INT32 / DATE / BIGINT / TIMESTAMP column is
 * its own key image. identity_ok: the caller takes a NULL *li_out /
 * *ri_out for the side *identity_out names (its rows 0..np-1, which
 * dense_probe may leave unwritten); otherwise they are written here. */
static int inner_join_pairs(xctx *x, attu_buf *kl, size_t nl, const attu_buf *ml, attu_buf *kr, size_t nr,
                            const attu_buf *mr, const xcol *raw, const attu_key_stats *known, bool no_hits,
                            size_t pair_bytes, bool identity_ok, attu_buf **li_out, attu_buf **ri_out,
                            size_t *np_out, int *identity_out, bool *unprobed_out) {
    bool swap = nl < nr;              /* sort the left side, search the right */
    attu_buf *ks = swap ? kl : kr, *kn = swap ? kr : kl, *kn_own = NULL;
    const attu_buf *ms = swap ? ml : mr, *mn = swap ? mr : ml;
    size_t ns0 = swap ? nl : nr, nn = swap ? nr : nl, ns = 0;
    attu_buf *ps = NULL, *ss = NULL, *lo = NULL, *off = NULL;
    attu_buf *seg = NULL, *glo = NULL, *goff = NULL, *it = NULL, *pos = NULL, *part = NULL;
    attu_type i8 = attu_type_make(ATTU_TYPE_INT64);
    int rc = -1;
    int64_t total = 0;
    *identity_out = -1;
    {
        bool fast = false;
        size_t np = 0;
        attu_vec kv = kn ? (attu_vec){ attu_type_make(ATTU_TYPE_INT64), kn, NULL, NULL } : vec_of(raw);
        if (known && no_hits && identity_ok && !kn && raw && needles_within(x, raw, nn, known)) {
            *unprobed_out = true;
            *np_out = nn;
            *identity_out = swap ? 1 : 0;
            rc = 0;
            goto done;
        }
        if (x->err->set) goto done;
        if (direct_index_pairs(x, ks, ns0, ms, &kv, nn, mn, known, no_hits, &seg, &part, &np, &fast)) goto done;
        if (fast && no_hits && np != nn) {
            /* the partners were to be the probing keys less kmin, which
             * holds only when every probing row has one: probe again for
             * the kept rows' partners */
            free_buf(x, seg);
            seg = NULL;
            if (direct_index_pairs(x, ks, ns0, ms, &kv, nn, mn, known, false, &seg, &part, &np, &fast)) goto done;
        }
        if (known && !fast) {
            attu_error_set(x->err, ATTU_SQLSTATE_INTERNAL, 0, "a join by a key in row order took no probe");
            goto done;
        }
        if (fast) {
            if (!seg && np != nn) {
                attu_error_set(x->err, ATTU_SQLSTATE_INTERNAL, 0, "dense_probe left its rows out but kept %zu of %zu", np, nn);
                goto done;
            }
            if (!seg && !identity_ok && (!(seg = buf_i64(x, np)) || x->be->iota(x->be, seg, 0, np, x->err))) goto done;
            *li_out = swap ? part : seg;
            *ri_out = swap ? seg : part;
            part = seg = NULL;
            *np_out = np;
            /* the probe keeps needle rows ascending, each at most once (the
             * other side's keys are unique): all of them kept is 0..nn-1 */
            if (np == nn) *identity_out = swap ? 1 : 0;
            rc = 0;
            goto done;
        }
    }
    if (sorted_side(x, ks, ns0, ms, &ps, &ss, &ns)) goto done;
    if (!kn) {
        attu_vec rv = vec_of(raw);
        kn = kn_own = buf_i64(x, nn);
        if (!kn || x->be->key_encode(x->be, &rv, nn, swap ? INT64_MIN + 1 : INT64_MIN, kn, x->err)) goto done;
    }
    if (match_runs(x, kn, nn, mn, ss, ns, &lo, &off, &total)) goto done;
    if (check_stop(x) || check_pairs_fit(x, total, pair_bytes)) goto done;
    {
        size_t np = (size_t)total;
        seg = buf_i64(x, np); glo = buf_i64(x, np); goff = buf_i64(x, np); it = buf_i64(x, np);
        pos = buf_i64(x, np); part = buf_i64(x, np);
        if (!seg || !glo || !goff || !it || !pos || !part) goto done;
        if (np && (x->be->lbs(x->be, off, nn, np, seg, x->err) ||
                   x->be->gather(x->be, glo, NULL, lo, NULL, 8, seg, np, x->err) ||
                   x->be->gather(x->be, goff, NULL, off, NULL, 8, seg, np, x->err) ||
                   x->be->iota(x->be, it, 0, np, x->err))) goto done;
        if (np) {
            /* pair p pairs needle row seg[p] with sorted position lo[seg] + p - off[seg] */
            attu_type tys[3] = { i8, i8, i8 };
            attu_expr_program *p = attu_program_new(3, tys);
            if (!p) { attu_error_oom(x->err); goto done; }
            int a = attu_program_reg(p, i8), b = attu_program_reg(p, i8);
            attu_program_emit(p, attu_instr_make(ATTU_OP_ADD_I, a, 0, 1));
            attu_program_emit(p, attu_instr_make(ATTU_OP_SUB_I, b, a, 2));
            attu_program_add_output(p, b);
            attu_vec in[3] = { { i8, glo, NULL, NULL }, { i8, it, NULL, NULL }, { i8, goff, NULL, NULL } };
            attu_out o = { i8, pos, NULL, NULL };
            int e = x->be->eval(x->be, p, in, np, &o, x->err);
            attu_program_free(p);
            if (e || x->be->gather(x->be, part, NULL, ps, NULL, 8, pos, np, x->err)) goto done;
        }
        *li_out = swap ? part : seg;
        *ri_out = swap ? seg : part;
        part = seg = NULL;
        *np_out = np;
        rc = 0;
    }
done:
    free_buf(x, ps); free_buf(x, ss); free_buf(x, lo); free_buf(x, off); free_buf(x, kn_own);
    free_buf(x, seg); free_buf(x, glo); free_buf(x, goff); free_buf(x, it); free_buf(x, pos); free_buf(x, part);
    return rc;
}

static rel *rel_cat_cols(xctx *x, rel *a, rel *b) {
    rel *o = rel_new(x, a->ncols + b->ncols, a->nrows);
    if (!o) return NULL;
    for (int i = 0; i < a->ncols; i++) o->cols[i] = xcol_ref(a->cols[i]);
    for (int i = 0; i < b->ncols; i++) o->cols[a->ncols + i] = xcol_ref(b->cols[i]);
    return o;
}

/* Marks, over left ++ right (r NULL: left alone), the columns the
 * expressions read; whether they read any. */
static bool mark_read(const attu_stage_exprs *ex, bool *l, int nl, bool *r) {
    bool any = false;
    for (int i = 0; i < ex->n + ex->nin; i++) {
        int c = i < ex->n ? ex->direct[i] : ex->in_cols[i - ex->n];
        if (c < 0) continue;
        if (c < nl) l[c] = true;
        else r[c - nl] = true;
        any = true;
    }
    return any;
}

/* Materializes the lazy columns of r that the expressions read. */
int materialize_read(xctx *x, rel *r, const attu_stage_exprs *ex) {
    bool *only = calloc((size_t)r->ncols + 1, sizeof *only);
    if (!only) return attu_error_oom(x->err);
    int rc = mark_read(ex, only, r->ncols, NULL) ? rel_materialize(x, r, only) : 0;
    free(only);
    return rc;
}

/* One side of an inner join's output, not gathered (late
 * materialization): each column becomes a lazy column of the side's rows
 * idx. A column that is already lazy composes its index with idx (one
 * int64 gather per distinct index, shared by its columns), so a fact
 * table's columns travel through a chain of joins as one index that
 * shrinks with each join, and only the columns a stage reads are gathered,
 * once, at the size they have there. need (NULL: every column) is indexed
 * by o's columns: the ones a later stage reads; the others become
 * placeholders. */
int lazy_side(xctx *x, rel *o, int at, const rel *in, xcol *idx, size_t np, const bool *need) {
    /* from[m] -> to[m]: an input index and its composition with idx (at
     * most one per column) */
    xcol **from = calloc((size_t)in->ncols + 1, sizeof *from), **to = calloc((size_t)in->ncols + 1, sizeof *to);
    int nmap = 0, rc = from && to ? 0 : attu_error_oom(x->err);
    for (int i = 0; i < in->ncols && !rc; i++) {
        xcol *c = in->cols[i];
        if (c->pruned) { o->cols[at + i] = xcol_ref(c); continue; }
        /* read by no later stage (a join key the join itself consumed):
         * a placeholder, so that no one gathers it */
        if (need && !need[at + i]) {
            if (!(o->cols[at + i] = xcol_pruned(x, c->type))) rc = -1;
            continue;
        }
        xcol *src = c, *ix = idx;
        if (c->lazy_src) {
            src = c->lazy_src;
            int m = 0;
            while (m < nmap && from[m] != c->lazy_idx) m++;
            if (m == nmap) {
                xcol *t = xcol_new(x, attu_type_make(ATTU_TYPE_INT64), np, false);
                if (!t || (np && x->be->gather(x->be, t->data, NULL, c->lazy_idx->data, NULL, 8, idx->data, np,
                                               x->err))) {
                    xcol_unref(x, t);
                    rc = -1;
                    break;
                }
                from[nmap] = c->lazy_idx;
                to[nmap++] = t;
            }
            ix = to[m];
        }
        if (!(o->cols[at + i] = xcol_new_lazy(x, src, ix))) rc = -1;
    }
    for (int m = 0; m < nmap; m++) xcol_unref(x, to[m]);
    free(from); free(to);
    return rc;
}

/* r's columns where keep[i], placeholders for the others (no one reads them). */
static rel *rel_keep(xctx *x, const rel *r, const bool *keep) {
    rel *o = rel_new(x, r->ncols, r->nrows);
    for (int i = 0; o && i < r->ncols; i++)
        if (!(o->cols[i] = keep[i] ? xcol_ref(r->cols[i]) : xcol_pruned(x, r->cols[i]->type))) {
            rel_free(x, o);
            o = NULL;
        }
    return o;
}

/* The partner rows of a join whose every probing row found one in a table
 * in key order: its keys less kmin, as int64 (when the pairs were to be
 * partitioned and were not after all, the probe having written none). */
int identity_partners(xctx *x, const xcol *keys, size_t n, int64_t kmin, attu_buf **out) {
    attu_type i8 = attu_type_make(ATTU_TYPE_INT64);
    attu_expr_program *p = attu_program_new(1, &keys->type);
    attu_buf *b = buf_i64(x, n);
    int rc = -1;
    if (!p || !b) { if (!p) attu_error_oom(x->err); goto done; }
    int w = 0;   /* the key as int64: an 8-byte key is its own, a 4-byte one is cast */
    if (keys->type.id != ATTU_TYPE_INT64 && !attu_type_is_int64_datetime(keys->type.id)) {
        w = attu_program_reg(p, i8);
        attu_program_emit(p, attu_instr_make(ATTU_OP_CAST_I_I, w, 0, -1));
    }
    int c = attu_program_reg(p, i8), d = attu_program_reg(p, i8);
    attu_instr k = attu_instr_make(ATTU_OP_CONST, c, -1, -1);
    k.imm_i = kmin;
    attu_program_emit(p, k);
    attu_program_emit(p, attu_instr_make(ATTU_OP_SUB_I, d, w, c));
    attu_program_add_output(p, d);
    attu_vec in = { keys->type, keys->data, NULL, NULL };
    attu_out o = { i8, b, NULL, NULL };
    if (n && x->be->eval(x->be, p, &in, n, &o, x->err)) goto done;
    *out = b;
    b = NULL;
    rc = 0;
done:
    attu_program_free(p);
    free_buf(x, b);
    return rc;
}

/* The partitioned inner join. When every row of the probing side P found
 * exactly one partner in the other side B (B's keys are unique; the probe
 * kept P's rows in order), the stages above read B's columns at P's
 * partners: at random, and from columns larger than a GPU's L2 every read
 * is a trip to memory (bench_query's join: 100M reads of t2.y, 3.4 of its
 * 5.6 ms). Here the pairs are put in partner order by the partners' top 8
 * bits first (backend partition, one radix pass), carrying the P columns
 * a later stage reads: B's columns are then read in 256 slices of 1/256 of
 * each, and the slices a GPU works on at once stay in its L2. A join's
 * output has no order, so this changes nothing a query can rely on.
 * ATTU_JOIN_PARTITION_MIN_ROWS: the pairs (and partner rows) from which it
 * runs, 0 for always (the tests); by default 2^24 pairs against 2^22 rows
 * on a GPU and never on the CPU, whose caches this does not help measurably.
 * (partition_pays, partitioned_join; identity_partners above.) */

/* Whether partitioned_join takes a join of np pairs whose probing side is
 * L (p_left) or R: the sizes (ATTU_JOIN_PARTITION_MIN_ROWS, above), a
 * column of the partner side read above, and every probing column read
 * above movable (in place, 1, 4 or 8 bytes). */
static bool partition_pays(xctx *x, const rel *L, const rel *R, bool p_left, size_t np, const bool *need) {
    const rel *P = p_left ? L : R, *B = p_left ? R : L;
    int poff = p_left ? 0 : L->ncols, boff = p_left ? L->ncols : 0;
    const char *env = getenv("ATTU_JOIN_PARTITION_MIN_ROWS");
    size_t min_pairs = (size_t)1 << 24, min_build = (size_t)1 << 22;
    if (env && *env) min_pairs = min_build = (size_t)strtoull(env, NULL, 10);
    else if (x->be->kind == ATTU_DEVICE_KIND_CPU) return false;
    if (!x->be->partition || np < min_pairs || np < 2 || B->nrows < min_build || B->nrows < 2) return false;
    bool reads_b = false;
    for (int i = 0; i < B->ncols; i++) reads_b |= (!need || need[boff + i]) && !B->cols[i]->pruned;
    if (!reads_b) return false;
    for (int i = 0; i < P->ncols; i++) {
        const xcol *c = P->cols[i];
        if (c->pruned || (need && !need[poff + i])) continue;
        size_t w = attu_type_width(c->type.id);
        if (c->lazy_src || (w != 1 && w != 4 && w != 8)) return false;
    }
    return true;
}

/* partner: the partner row of each pair, as keys less key_base (an INT64
 * row index with base 0, or the probing keys less kmin when the partner
 * side is a table in key order); p_left: P is the left side. Returns 1
 * when it does not apply (the caller builds the usual lazy output), 0 with
 * *out_rel, -1 on error. */
static int partitioned_join(xctx *x, rel *L, rel *R, bool p_left, const attu_vec *partner, int64_t key_base,
                            size_t np, const bool *need, rel **out_rel) {
    rel *P = p_left ? L : R, *B = p_left ? R : L;
    int poff = p_left ? 0 : L->ncols, boff = p_left ? L->ncols : 0;
    *out_rel = NULL;
    if (!partner->data || !partition_pays(x, L, R, p_left, np, need)) return 1;
    int nmove = 0;
    for (int i = 0; i < P->ncols; i++) nmove += !P->cols[i]->pruned && (!need || need[poff + i]);
    int bits = 64 - __builtin_clzll((unsigned long long)(B->nrows - 1));
    int shift = bits > 8 ? bits - 8 : 0;
    attu_gather_col *cols = calloc((size_t)nmove + 1, sizeof *cols);
    xcol **moved = calloc((size_t)P->ncols + 1, sizeof *moved);
    attu_buf *keys = buf_i64(x, np);
    rel *out = NULL;
    int rc = -1, m = 0;
    bool moved_all = false;   /* past the partition's own allocations */
    if (!cols || !moved) { attu_error_oom(x->err); goto done; }
    if (!keys) goto done;
    for (int i = 0; i < P->ncols; i++) {
        const xcol *c = P->cols[i];
        if (c->pruned || (need && !need[poff + i])) continue;
        if (!(moved[i] = xcol_new(x, c->type, np, c->valid != NULL))) goto done;
        if (c->dict) moved[i]->dict = attu_dictionary_ref(c->dict);
        cols[m++] = (attu_gather_col){ moved[i]->data, moved[i]->valid, c->data, c->valid,
                                       attu_type_width(c->type.id) };
    }
    int e = x->be->partition(x->be, partner, key_base, np, shift, keys, 8, nmove, cols, x->err);
    if (e) { rc = e > 0 ? 1 : -1; goto done; }
    moved_all = true;
    if (!(out = rel_new(x, L->ncols + R->ncols, np))) goto done;
    for (int i = 0; i < P->ncols; i++)
        if (!(out->cols[poff + i] = moved[i] ? xcol_ref(moved[i]) : xcol_pruned(x, P->cols[i]->type))) goto done;
    xcol *kx = index_column(x, keys);
    if (!kx) goto done;
    keys = NULL;
    int lz = lazy_side(x, out, boff, B, kx, np, need);
    xcol_unref(x, kx);
    if (lz) goto done;
    *out_rel = out;
    out = NULL;
    rc = 0;
done:
    /* the partitioned copies did not fit the memory: the join goes on
     * unpartitioned, as it would have without this (it needs none of them) */
    if (rc < 0 && !moved_all && !strcmp(x->err->sqlstate, ATTU_SQLSTATE_OUT_OF_MEMORY)) {
        attu_error_clear(x->err);
        rc = 1;
    }
    if (out) rel_free(x, out);
    for (int i = 0; moved && i < P->ncols; i++) xcol_unref(x, moved[i]);
    free(cols); free(moved);
    free_buf(x, keys);
    return rc;
}

/* The split relation both forms of split_join hand the aggregate above:
 * P's columns as they are, and B's either lazy through the partners in
 * partition order (kx) or, counted (counts: each B row's number of
 * partners), placeholders (the aggregate reads B's own rows). Takes kx's
 * reference, counts and (on success) *hits. Returns 0 with *out_rel, -1 on
 * error. */
static int split_relation(xctx *x, rel *L, rel *R, bool p_left, int64_t key_base, attu_buf **hits,
                          const xcol *key_col, size_t np, const bool *need, xcol *kx, attu_buf *counts,
                          rel **out_rel) {
    rel *P = p_left ? L : R, *B = p_left ? R : L;
    int poff = p_left ? 0 : L->ncols, boff = p_left ? L->ncols : 0;
    rel *out = NULL, *bref = NULL;
    rel_split *sp = NULL;
    int rc = -1;
    if (!(out = rel_new(x, L->ncols + R->ncols, np)) || !(bref = rel_new(x, B->ncols, B->nrows))) goto done;
    if (!(sp = calloc(1, sizeof *sp))) { attu_error_oom(x->err); goto done; }
    if (need) {
        if (!(sp->need = malloc((size_t)(L->ncols + R->ncols)))) { attu_error_oom(x->err); goto done; }
        memcpy(sp->need, need, (size_t)(L->ncols + R->ncols));
    }
    for (int i = 0; i < P->ncols; i++) out->cols[poff + i] = xcol_ref(P->cols[i]);
    for (int i = 0; i < B->ncols; i++) {
        bref->cols[i] = xcol_ref(B->cols[i]);
        if (counts && !(out->cols[boff + i] = xcol_pruned(x, B->cols[i]->type))) goto done;
    }
    if (!counts && lazy_side(x, out, boff, B, kx, np, need)) goto done;
    sp->p_left = p_left;
    sp->nleft = L->ncols;
    sp->boff = boff;
    sp->B = bref; bref = NULL;
    sp->base = key_base;
    sp->counts = counts; counts = NULL;
    if (*hits) { sp->hits = *hits; *hits = NULL; }
    else sp->partner_col = xcol_ref((xcol *)key_col);
    out->split = sp; sp = NULL;
    *out_rel = out;
    out = NULL;
    rc = 0;
done:
    xcol_unref(x, kx);
    free_buf(x, counts);
    if (sp) { free(sp->need); free(sp); }
    rel_free(x, bref);
    rel_free(x, out);
    return rc;
}

/* The split form of partitioned_join for the aggregate above that asked
 * for it (executor_split_sum.c): P's columns stay as they are; B's rows
 * are counted (each B row's number of partners, backend count_keys) when
 * the aggregate reads B only in a + b (split_sum_shape's counted), else only the
 * partners are partitioned (a keys-only pass) and B's columns are lazy
 * through them in partition order. hits: the partner rows the probe
 * wrote, taken over on success (else partner is P's key column less
 * key_base, kept by reference to line the pairs up again). Returns as
 * partitioned_join. */
static int split_join(xctx *x, rel *L, rel *R, bool p_left, const attu_vec *partner, int64_t key_base,
                      attu_buf **hits, const xcol *key_col, size_t np, const bool *need, rel **out_rel) {
    rel *B = p_left ? R : L;
    *out_rel = NULL;
    if (!partner->data || !partition_pays(x, L, R, p_left, np, need)) return 1;
    const char *ce = getenv("ATTU_SPLIT_COUNTS");
    bool counted = x->be->count_keys && !(ce && !strcmp(ce, "0")) &&
                   (x->split_counted & (p_left ? SPLIT_COUNTED_P_LEFT : SPLIT_COUNTED_P_RIGHT));
    int bits = 64 - __builtin_clzll((unsigned long long)(B->nrows - 1));
    int shift = bits > 8 ? bits - 8 : 0;
    /* the partners as int32 rows (half the bytes to write and read back)
     * when B's columns are its own; a lazy one composes its index with
     * them, which takes int64 */
    bool k32 = true;
    for (int i = 0; i < B->ncols; i++) k32 &= !B->cols[i]->lazy_src;
    attu_buf *counts = NULL, *keys = NULL;
    xcol *kx = NULL;
    int rc = -1;
    if (counted) {
        if (!(counts = x->be->alloc(x->be, (B->nrows ? B->nrows : 1) * 4, x->err))) goto done;
        int e = x->be->count_keys(x->be, partner, key_base, np, counts, B->nrows, x->err);
        if (e < 0) goto done;
        if (e > 0) { free_buf(x, counts); counts = NULL; counted = false; }   /* declined: the partition form */
    }
    if (!counted) {
        keys = k32 ? x->be->alloc(x->be, (np ? np : 1) * 4, x->err) : buf_i64(x, np);
        if (!keys) goto done;
        int e = x->be->partition(x->be, partner, key_base, np, shift, keys, k32 ? 4 : 8, 0, NULL, x->err);
        if (e) { rc = e > 0 ? 1 : -1; goto done; }
        if (!(kx = index_column(x, keys))) goto done;
        keys = NULL;
        if (k32) kx->type = attu_type_make(ATTU_TYPE_INT32);
    }
    rc = split_relation(x, L, R, p_left, key_base, hits, key_col, np, need, kx, counts, out_rel);
    kx = NULL;
    counts = NULL;
done:
    /* no room for the counts or the partitioned partners: the join goes on as usual */
    if (rc < 0 && !strcmp(x->err->sqlstate, ATTU_SQLSTATE_OUT_OF_MEMORY) && !*out_rel) {
        attu_error_clear(x->err);
        rc = 1;
    }
    xcol_unref(x, kx);
    free_buf(x, keys);
    free_buf(x, counts);
    return rc;
}

rel *run_join(xctx *x, attu_stage *s, rel *L, rel *R, const bool *need) {
    int nk = s->keys.n;
    xcol **lk = calloc((size_t)nk + 1, sizeof *lk), **rk = calloc((size_t)nk + 1, sizeof *rk);
    attu_buf *kl = NULL, *kr = NULL, *li = NULL, *ri = NULL, *ml = NULL, *mr = NULL;
    rel *out = NULL, *pairs = NULL, *lp = NULL, *rp = NULL, *Lall = L, *Rall = R;
    bool *keepl = NULL, *keepr = NULL;
    size_t np = 0;
    /* an inner join without a residual condition passes its inputs' other
     * columns on unread (lazy_side); the other kinds gather every column a
     * later stage or the residual reads (all of them without `need`) */
    bool lazy = s->jk == ATTU_SJ_INNER && !s->residual.n;
    if (!lk || !rk) { attu_error_oom(x->err); goto done; }
    if (!lazy && need && (s->jk == ATTU_SJ_INNER || s->jk == ATTU_SJ_LEFT || s->jk == ATTU_SJ_FULL)) {
        keepl = calloc((size_t)L->ncols + 1, 1);
        keepr = calloc((size_t)R->ncols + 1, 1);
        if (!keepl || !keepr) { attu_error_oom(x->err); goto done; }
        for (int i = 0; i < L->ncols; i++) keepl[i] = need[i];
        for (int i = 0; i < R->ncols; i++) keepr[i] = need[L->ncols + i];
        mark_read(&s->residual, keepl, L->ncols, keepr);
    }
    if (lazy ? materialize_read(x, L, &s->keys) || materialize_read(x, R, &s->rkeys)
             : keepl ? materialize_read(x, L, &s->keys) || materialize_read(x, R, &s->rkeys) ||
                       rel_materialize(x, L, keepl) || rel_materialize(x, R, keepr)
                     : rel_materialize(x, L, NULL) || rel_materialize(x, R, NULL)) goto done;
    if (eval_exprs(x, &s->keys, L, lk) || eval_exprs(x, &s->rkeys, R, rk)) goto done;
    if (keepl) {
        /* from here on the sides are read through views without the
         * columns nothing reads (lazy or not, they stay ungathered) */
        L = rel_keep(x, Lall, keepl);
        R = L ? rel_keep(x, Rall, keepr) : NULL;
        if (!L || !R) { attu_error_oom(x->err); goto done; }
    }
    /* a single integer key of the same type on both sides: the larger
     * side's column is its own key image, read in place when the join
     * takes the dense_probe path (the star join's fact table) */
    const xcol *raw = NULL;
    bool skip_l = false, skip_r = false;
    if (nk == 1 && lk[0]->type.id == rk[0]->type.id && x->be->dense_probe &&
        (lk[0]->type.id == ATTU_TYPE_INT32 || lk[0]->type.id == ATTU_TYPE_DATE ||
         lk[0]->type.id == ATTU_TYPE_INT64 || attu_type_is_int64_datetime(lk[0]->type.id))) {
        skip_l = L->nrows >= R->nrows;
        skip_r = !skip_l;
        raw = skip_l ? lk[0] : rk[0];
    }
    /* the smaller side's key a whole table column loaded in key order (its
     * kept statistics say identity: a dimension with a serial key): the
     * partner of key k is row k - kmin, so neither that side's key images
     * nor their range nor an index are made, query after query */
    attu_key_stats kst;
    const attu_key_stats *known = NULL;
    if (raw) {
        bool small_left = !skip_l;
        xcol *c = small_left ? lk[0] : rk[0];
        size_t ns = small_left ? L->nrows : R->nrows, nbig = small_left ? R->nrows : L->nrows;
        bool got = false;
        if (nbig >= 65536 && c->tcol && !c->lazy_src && c->tcol->length == ns &&
            rows_of_one_table(s->child[small_left ? 0 : 1]) && probe_key_type(c->type.id, c->type.id)) {
            if (table_key_stats(x, c, c->tcol, &kst, &got)) goto done;
            if (got && kst.any && kst.identity) known = &kst;
        }
        if (known && small_left) skip_l = true;
        if (known && !small_left) skip_r = true;
    }
    if (join_keys(x, lk, rk, nk, L->nrows, R->nrows, skip_l, skip_r, &kl, &kr)) goto done;
    /* the matching pairs (every join kind starts from them: LEFT / FULL add
     * the unmatched rows, SEMI / ANTI mark the left rows) */
    if (keys_valid_mask(x, lk, nk, L->nrows, &ml) || keys_valid_mask(x, rk, nk, R->nrows, &mr)) goto done;
    /* per pair: the expansion's six index arrays, then (when the pairs
     * are materialized) a value and a validity byte of every column */
    bool pairs_kept = s->jk == ATTU_SJ_INNER || s->jk == ATTU_SJ_LEFT || s->jk == ATTU_SJ_FULL || s->residual.n;
    size_t pair_bytes = 48 + (pairs_kept ? 9 * (size_t)(L->ncols + R->ncols) : 0);
    int identity = -1;  /* 0 / 1: li / ri is 0..np-1, that side's rows unchanged */
    /* a dimension in key order that the pairs will be partitioned by: the
     * probe only counts, the partners being the probing keys less kmin */
    bool probe_left = L->nrows >= R->nrows;   /* inner_join_pairs probes with the larger side */
    bool no_hits = known && lazy && partition_pays(x, L, R, probe_left, probe_left ? L->nrows : R->nrows, need);
    bool unprobed = false;   /* the kept ranges showed every partner: no probe ran */
    if (inner_join_pairs(x, kl, L->nrows, ml, kr, R->nrows, mr, raw, known, no_hits, pair_bytes, lazy, &li, &ri,
                         &np, &identity, &unprobed))
        goto done;
    if (check_stop(x)) goto done;
    if (known) s->act_how = "dense_probe (key = row)";
    if (lazy && identity >= 0) {
        /* one partner per probing row: in partner order when that pays */
        attu_buf *hits = identity == 0 ? ri : li;
        attu_vec partner = hits ? (attu_vec){ attu_type_make(ATTU_TYPE_INT64), hits, NULL, NULL } : vec_of(raw);
        int64_t base = hits ? 0 : known->kmin;
        if (x->split_join == s) {
            /* the aggregate above sums each side apart: partners only */
            attu_buf **hp = identity == 0 ? &ri : &li;
            int src = split_join(x, L, R, identity == 0, &partner, base, hp, raw, np, need, &out);
            if (src < 0) goto done;
            if (src == 0) {
                bool counted = out->split && out->split->counts;
                s->act_how = counted ? (!known   ? "dense_index + dense_probe + partner counts (split)"
                                        : hits     ? "dense_probe (key = row) + partner counts (split)"
                                        : unprobed ? "kept key ranges (key = row, no probe) + partner counts (split)"
                                                   : "dense_probe (key = row, counted) + partner counts (split)")
                             : !known   ? "dense_index + dense_probe + partition of the partners (split)"
                             : hits     ? "dense_probe (key = row) + partition of the partners (split)"
                             : unprobed ? "kept key ranges (key = row, no probe) + partition of the partners (split)"
                                        : "dense_probe (key = row, counted) + partition of the partners (split)";
                goto done;
            }
        }
        int prc = partitioned_join(x, L, R, identity == 0, &partner, base, np, need, &out);
        if (prc > 0 && !hits && identity_partners(x, raw, np, known->kmin, identity == 0 ? &ri : &li)) goto done;
        if (prc < 0) goto done;
        if (prc == 0) {
            s->act_how = !known   ? "dense_index + dense_probe + partition"
                         : hits     ? "dense_probe (key = row) + partition"
                         : unprobed ? "kept key ranges (key = row, no probe) + partition by key"
                                    : "dense_probe (key = row, counted) + partition by key";
            goto done;
        }
    }
    if (lazy) {
        /* li or ri is NULL for the side identity names where the probe left
         * its rows 0..np-1 unwritten: that side passes on as it is */
        xcol *lx = index_column(x, li), *rx = lx ? index_column(x, ri) : NULL;
        if (lx) li = NULL;
        if (rx) ri = NULL;
        out = lx && rx ? rel_new(x, L->ncols + R->ncols, np) : NULL;
        /* a side whose every row is kept, in order, passes its columns on
         * as they are (a foreign key's join: no index to gather through) */
        if (out && identity == 0)
            for (int i = 0; i < L->ncols; i++) out->cols[i] = xcol_ref(L->cols[i]);
        if (out && identity == 1)
            for (int i = 0; i < R->ncols; i++) out->cols[L->ncols + i] = xcol_ref(R->cols[i]);
        if (out && ((identity != 0 && lazy_side(x, out, 0, L, lx, np, need)) ||
                    (identity != 1 && lazy_side(x, out, L->ncols, R, rx, np, need)))) {
            rel_free(x, out);
            out = NULL;
        }
        xcol_unref(x, lx);
        xcol_unref(x, rx);
        goto done;
    }
    if (pairs_kept) {
        lp = rel_gather(x, L, li, np, false);
        rp = lp ? rel_gather(x, R, ri, np, false) : NULL;
        pairs = rp ? rel_cat_cols(x, lp, rp) : NULL;
        if (!pairs) goto done;
        if (s->residual.n) {
            xcol *m;
            if (eval_exprs(x, &s->residual, pairs, &m)) goto done;
            attu_vec mv = vec_of(m);
            attu_buf *idx = NULL;
            size_t cnt = 0;
            int rc = x->be->compact(x->be, &mv, np, &idx, &cnt, x->err);
            xcol_unref(x, m);
            if (rc) goto done;
            rel *f = rel_gather(x, pairs, idx, cnt, false);
            attu_buf *li2 = buf_i64(x, cnt), *ri2 = buf_i64(x, cnt);
            rc = !f || !li2 || !ri2 || x->be->gather(x->be, li2, NULL, li, NULL, 8, idx, cnt, x->err) ||
                 x->be->gather(x->be, ri2, NULL, ri, NULL, 8, idx, cnt, x->err);
            free_buf(x, idx);
            if (rc) { rel_free(x, f); free_buf(x, li2); free_buf(x, ri2); goto done; }
            rel_free(x, pairs); pairs = f;
            free_buf(x, li); li = li2;
            free_buf(x, ri); ri = ri2;
            np = cnt;
        }
    }
    if (s->jk == ATTU_SJ_INNER) { out = pairs; pairs = NULL; goto done; }
    {
        /* marks over left rows: which found a partner */
        bool keep_matched = s->jk == ATTU_SJ_SEMI;
        xcol *marks = xcol_new(x, attu_type_make(ATTU_TYPE_BOOL), L->nrows, false);
        attu_buf *vals = x->be->alloc(x->be, np ? np : 1, x->err);
        int rc = !marks || !vals || x->be->fill(x->be, marks->data, 1, keep_matched ? 0 : 1, L->nrows, x->err) ||
                 x->be->fill(x->be, vals, 1, keep_matched ? 1 : 0, np, x->err) ||
                 x->be->scatter(x->be, marks->data, vals, 1, li, np, x->err);
        free_buf(x, vals);
        if (rc) { xcol_unref(x, marks); goto done; }
        rel *sel = filter_by_mask(x, L, marks);
        xcol_unref(x, marks);
        if (!sel) goto done;
        if (s->jk != ATTU_SJ_LEFT && s->jk != ATTU_SJ_FULL) { out = sel; goto done; }
        /* LEFT: unmatched left rows with the right side NULL */
        attu_buf *none = buf_i64(x, sel->nrows);
        rel *pad = none && !x->be->fill(x->be, none, 8, (uint64_t)-1, sel->nrows, x->err) ? rel_gather(x, R, none, sel->nrows, true) : NULL;
        free_buf(x, none);
        rel *padded = pad ? rel_cat_cols(x, sel, pad) : NULL;
        rel_free(x, sel); rel_free(x, pad);
        if (!padded) goto done;
        out = rel_concat(x, pairs, padded);
        rel_free(x, padded);
        if (out && s->jk == ATTU_SJ_FULL) {
            /* FULL: also the right rows without a partner, left side NULL */
            xcol *rm = xcol_new(x, attu_type_make(ATTU_TYPE_BOOL), R->nrows, false);
            attu_buf *zeros = x->be->alloc(x->be, np ? np : 1, x->err);
            int bad = !rm || !zeros || x->be->fill(x->be, rm->data, 1, 1, R->nrows, x->err) ||
                      x->be->fill(x->be, zeros, 1, 0, np, x->err) || x->be->scatter(x->be, rm->data, zeros, 1, ri, np, x->err);
            free_buf(x, zeros);
            rel *rsel = bad ? NULL : filter_by_mask(x, R, rm);
            xcol_unref(x, rm);
            attu_buf *none2 = rsel ? buf_i64(x, rsel->nrows) : NULL;
            rel *lpad = none2 && !x->be->fill(x->be, none2, 8, (uint64_t)-1, rsel->nrows, x->err) ? rel_gather(x, L, none2, rsel->nrows, true) : NULL;
            free_buf(x, none2);
            rel *rpadded = lpad ? rel_cat_cols(x, lpad, rsel) : NULL;
            rel_free(x, lpad); rel_free(x, rsel);
            rel *all = rpadded ? rel_concat(x, out, rpadded) : NULL;
            rel_free(x, rpadded);
            rel_free(x, out);
            out = all;
        }
    }
done:
    for (int i = 0; i < nk; i++) { if (lk) xcol_unref(x, lk[i]); if (rk) xcol_unref(x, rk[i]); }
    free(lk); free(rk);
    if (L != Lall) rel_free(x, L);
    if (R != Rall) rel_free(x, R);
    free(keepl); free(keepr);
    free_buf(x, kl); free_buf(x, kr); free_buf(x, li); free_buf(x, ri); free_buf(x, ml); free_buf(x, mr);
    rel_free(x, pairs); rel_free(x, lp); rel_free(x, rp);
    return out;
}

rel *run_cross(xctx *x, attu_stage *s, rel *L, rel *R) {
    size_t nl = L->nrows, nr = R->nrows, n = nl * nr;
    if (nr && n / nr != nl) { attu_error_set(x->err, ATTU_SQLSTATE_OUT_OF_MEMORY, 0, "cross join too large"); return NULL; }
    if (n <= (size_t)INT64_MAX && check_pairs_fit(x, (int64_t)n, 24 + 9 * (size_t)(L->ncols + R->ncols))) return NULL;
    attu_type i8 = attu_type_make(ATTU_TYPE_INT64);
    attu_expr_program *p = attu_program_new(1, &i8);
    rel *out = NULL;
    xcol *pos = xcol_new(x, i8, n, false);
    attu_buf *li = NULL, *ri = NULL;
    if (!p || !pos) { if (!x->err->set) attu_error_oom(x->err); goto done; }
    int cm = attu_program_reg(p, i8), rl = attu_program_reg(p, i8), rr = attu_program_reg(p, i8);
    attu_instr c = attu_instr_make(ATTU_OP_CONST, cm, -1, -1);
    c.imm_i = (int64_t)(nr ? nr : 1);
    attu_program_emit(p, c);
    attu_program_emit(p, attu_instr_make(ATTU_OP_DIV_I, rl, 0, cm));
    attu_program_emit(p, attu_instr_make(ATTU_OP_MOD_I, rr, 0, cm));
    attu_program_add_output(p, rl);
    attu_program_add_output(p, rr);
    li = buf_i64(x, n); ri = buf_i64(x, n);
    if (!li || !ri || x->be->iota(x->be, pos->data, 0, n, x->err)) goto done;
    attu_vec in = vec_of(pos);
    attu_out outs[2] = { { i8, li, NULL, NULL }, { i8, ri, NULL, NULL } };
    if (x->be->eval(x->be, p, &in, n, outs, x->err)) goto done;
    rel *a = rel_gather(x, L, li, n, false), *b = a ? rel_gather(x, R, ri, n, false) : NULL;
    if (b) out = rel_cat_cols(x, a, b);
    rel_free(x, a); rel_free(x, b);
done:
    attu_program_free(p);
    xcol_unref(x, pos);
    free_buf(x, li); free_buf(x, ri);
    return out;
}

/* ---- aggregation -------------------------------------------------------------------- */

static attu_dictionary *agg_dict(const attu_stage_agg *g, xcol **args) {
    if (g->out_type.id != ATTU_TYPE_TEXT) return NULL;
    int src = g->arg >= 0 ? g->arg : g->in;
    return src >= 0 && args[src]->dict ? attu_dictionary_ref(args[src]->dict) : NULL;
}

/* The finishing programs of avg and the variances read a value (input 0)
 * and its count (input 1, int64) and have one output of type t: run p over
 * n rows into a new column, and free p. */
static xcol *run_finish(xctx *x, attu_expr_program *p, xcol *val, xcol *cnt, size_t n, attu_type t) {
    xcol *o = xcol_new(x, t, n, true);
    if (!o) { attu_program_free(p); return NULL; }
    attu_vec in[2] = { vec_of(val), vec_of(cnt) };
    attu_out out = { t, o->data, o->valid, NULL };
    int rc = x->be->eval(x->be, p, in, n, &out, x->err);
    attu_program_free(p);
    if (rc) { xcol_unref(x, o); return NULL; }
    return o;
}

/* avg = sum / count (NULL when count is 0), scaled for decimals. The sum
 * gets + 0.0 first: PostgreSQL's float8_accum starts its sum at +0, so the
 * avg of negative zeros is +0, while a backend's float sum may start at -0
 * (the identity of IEEE addition, which sum() itself needs: a sum of -0s is
 * -0). */
xcol *finish_avg(xctx *x, xcol *sum, xcol *cnt, size_t n, int scale) {
    attu_type f8 = attu_type_make(ATTU_TYPE_FLOAT64), i8 = attu_type_make(ATTU_TYPE_INT64);
    attu_type tys[2] = { f8, i8 };
    attu_expr_program *p = attu_program_new(2, tys);
    if (!p) { attu_error_oom(x->err); return NULL; }
    int cf = attu_program_reg(p, f8), q = attu_program_reg(p, f8), k = attu_program_reg(p, f8), r = attu_program_reg(p, f8);
    int z = attu_program_reg(p, f8), s = attu_program_reg(p, f8);
    attu_instr zero = attu_instr_make(ATTU_OP_CONST, z, -1, -1);
    zero.imm_f = 0.0;
    attu_program_emit(p, zero);
    attu_program_emit(p, attu_instr_make(ATTU_OP_ADD_F, s, 0, z));
    attu_program_emit(p, attu_instr_make(ATTU_OP_CAST_I_F, cf, 1, -1));
    attu_program_emit(p, attu_instr_make(ATTU_OP_DIV_F, q, s, cf));
    attu_instr c = attu_instr_make(ATTU_OP_CONST, k, -1, -1);
    c.imm_f = pow(10, scale);
    attu_program_emit(p, c);
    attu_program_emit(p, attu_instr_make(ATTU_OP_DIV_F, r, q, k));
    attu_program_add_output(p, r);
    return run_finish(x, p, sum, cnt, n, f8);
}

/* avg of integers and numerics: the NUMERIC sum / count by PostgreSQL's
 * division scale (NULL when count is 0: the sum is NULL then). */
xcol *finish_avg_numeric(xctx *x, xcol *sum, xcol *cnt, size_t n) {
    attu_type nt = attu_type_make(ATTU_TYPE_NUMERIC), i8 = attu_type_make(ATTU_TYPE_INT64);
    attu_type tys[2] = { nt, i8 };
    attu_expr_program *p = attu_program_new(2, tys);
    if (!p) { attu_error_oom(x->err); return NULL; }
    int cn = attu_program_reg(p, nt), q = attu_program_reg(p, nt);
    attu_program_emit(p, attu_instr_make(ATTU_OP_CAST_I_N, cn, 1, -1));
    attu_program_emit(p, attu_instr_make(ATTU_OP_DIV_N, q, 0, cn));
    attu_program_add_output(p, q);
    return run_finish(x, p, sum, cnt, n, nt);
}

/* variance / stddev of integers and numerics as PostgreSQL's
 * numeric_stddev_internal: num = n * sum(x^2) - sum(x)^2 (exact, from
 * VAR_M2's NUMERIC form), variance = num / (n(n-1)) or num / n^2 at
 * select_div_scale, stddev its square root at the same scale; a negative
 * num (impossible when exact) gives 0, too few rows NULL. kind as
 * finish_var. */
static xcol *finish_var_numeric(xctx *x, xcol *num, xcol *cnt, size_t n, int kind) {
    attu_type nt = attu_type_make(ATTU_TYPE_NUMERIC), i8 = attu_type_make(ATTU_TYPE_INT64);
    attu_type b1 = attu_type_make(ATTU_TYPE_BOOL);
    attu_type tys[2] = { nt, i8 };
    attu_expr_program *p = attu_program_new(2, tys);
    if (!p) { attu_error_oom(x->err); return NULL; }
    bool samp = kind == 1 || kind == 3;
    int one = attu_program_reg(p, i8), m = attu_program_reg(p, i8), zero = attu_program_reg(p, i8);
    int ok = attu_program_reg(p, b1), den = attu_program_reg(p, i8), dn = attu_program_reg(p, nt);
    int q = attu_program_reg(p, nt), s = attu_program_reg(p, nt);
    attu_instr c1 = attu_instr_make(ATTU_OP_CONST, one, -1, -1);
    c1.imm_i = samp ? 1 : 0;
    attu_program_emit(p, c1);
    attu_program_emit(p, attu_instr_make(ATTU_OP_SUB_I, m, 1, one));          /* n - 1 or n */
    attu_instr c0 = attu_instr_make(ATTU_OP_CONST, zero, -1, -1);
    c0.imm_i = 0;
    attu_program_emit(p, c0);
    attu_program_emit(p, attu_instr_make(ATTU_OP_GT_I, ok, m, zero));
    attu_instr mu = attu_instr_make(ATTU_OP_MUL_I, den, 1, m);
    mu.guard = (int16_t)ok;
    attu_program_emit(p, mu);
    attu_program_emit(p, attu_instr_make(ATTU_OP_CAST_I_N, dn, den, -1));
    attu_instr dv = attu_instr_make(ATTU_OP_DIV_N, q, 0, dn);
    dv.guard = (int16_t)ok;                       /* NULL where n is too small */
    attu_program_emit(p, dv);
    int res = q;
    if (kind >= 3) {
        attu_program_emit(p, attu_instr_make(ATTU_OP_SQRT_AT_N, s, q, -1));
        res = s;
    }
    /* a numerator of 0 (all values equal) is PostgreSQL's plain 0 */
    int z = attu_program_reg(p, nt), isz = attu_program_reg(p, b1), fin = attu_program_reg(p, nt);
    attu_program_emit(p, attu_instr_make(ATTU_OP_CONST, z, -1, -1));
    attu_program_emit(p, attu_instr_make(ATTU_OP_LE_N, isz, 0, z));
    attu_instr sel = attu_instr_make(ATTU_OP_SELECT, fin, z, res);
    sel.c = (int16_t)isz;
    sel.guard = (int16_t)ok;
    attu_program_emit(p, sel);
    attu_program_add_output(p, fin);
    return run_finish(x, p, num, cnt, n, nt);
}

/* variance / stddev from the sum of squared deviations m2 and the count:
 * var_samp = m2 / (n - 1) (NULL unless n > 1), var_pop = m2 / n (NULL when
 * n = 0), stddev = the square root; a decimal input's m2 is in units of
 * 10^(-2 * scale). kind: 1 var_samp, 2 var_pop, 3 stddev_samp, 4 stddev_pop. */
static xcol *finish_var(xctx *x, xcol *m2, xcol *cnt, size_t n, int kind, int scale) {
    attu_type f8 = attu_type_make(ATTU_TYPE_FLOAT64), i8 = attu_type_make(ATTU_TYPE_INT64);
    attu_type b1 = attu_type_make(ATTU_TYPE_BOOL);
    attu_type tys[2] = { f8, i8 };
    attu_expr_program *p = attu_program_new(2, tys);
    if (!p) { attu_error_oom(x->err); return NULL; }
    bool samp = kind == 1 || kind == 3;
    int cf = attu_program_reg(p, f8), one = attu_program_reg(p, f8), den = attu_program_reg(p, f8);
    int zero = attu_program_reg(p, f8), ok = attu_program_reg(p, b1), q = attu_program_reg(p, f8);
    int k = attu_program_reg(p, f8), r = attu_program_reg(p, f8), s = attu_program_reg(p, f8);
    attu_program_emit(p, attu_instr_make(ATTU_OP_CAST_I_F, cf, 1, -1));
    attu_instr c1 = attu_instr_make(ATTU_OP_CONST, one, -1, -1);
    c1.imm_f = samp ? 1 : 0;
    attu_program_emit(p, c1);
    attu_program_emit(p, attu_instr_make(ATTU_OP_SUB_F, den, cf, one));
    attu_instr c0 = attu_instr_make(ATTU_OP_CONST, zero, -1, -1);
    c0.imm_f = 0;
    attu_program_emit(p, c0);
    attu_program_emit(p, attu_instr_make(ATTU_OP_GT_F, ok, den, zero));
    attu_instr dv = attu_instr_make(ATTU_OP_DIV_F, q, 0, den);
    dv.guard = (int16_t)ok;                       /* NULL where n is too small */
    attu_program_emit(p, dv);
    attu_instr ck = attu_instr_make(ATTU_OP_CONST, k, -1, -1);
    ck.imm_f = pow(10, 2 * scale);
    attu_program_emit(p, ck);
    attu_program_emit(p, attu_instr_make(ATTU_OP_DIV_F, r, q, k));
    int res = r;
    if (kind >= 3) {
        attu_program_emit(p, attu_instr_make(ATTU_OP_SQRT, s, r, -1));
        res = s;
    }
    attu_program_add_output(p, res);
    return run_finish(x, p, m2, cnt, n, f8);
}

/* COUNT(DISTINCT a) within groups: a copy of val (a itself, or the value
 * a is the key of: stage_plan.h distinct_by) that is NULL except at the
 * first row of each (group keys, a, tup...) value. The tuple's further
 * items are sort keys like a, so they are equal where the sort has them
 * peers (NULLs too); only a's NULLs stay uncounted. */
static xcol *first_occurrence(xctx *x, xcol **keys, int nk, xcol *a, xcol **tup, int nt, size_t n, xcol *val) {
    attu_sort_key *sk = calloc((size_t)(nk + nt) + 2, sizeof *sk);
    attu_vec *kv = calloc((size_t)(nk + nt) + 2, sizeof *kv);
    attu_buf *perm = buf_i64(x, n), *heads = NULL;
    size_t nh = 0;
    xcol *o = NULL;
    uint8_t *mark = NULL, *av = NULL;
    int64_t *hp = NULL, *pp = NULL;
    if (!sk || !kv || !perm) { if (!x->err->set) attu_error_oom(x->err); goto done; }
    for (int i = 0; i < nk; i++) { kv[i] = vec_of(keys[i]); sk[i].col = kv[i]; }
    kv[nk] = vec_of(a); sk[nk].col = kv[nk];
    for (int i = 0; i < nt; i++) { kv[nk + 1 + i] = vec_of(tup[i]); sk[nk + 1 + i].col = kv[nk + 1 + i]; }
    int nall = nk + 1 + nt;
    if (exec_sort(x, sk, nall, n, perm) || exec_segment_heads(x, kv, nall, perm, n, &heads, &nh)) goto done;
    hp = download_all(x, heads, nh * 8);
    pp = download_all(x, perm, n * 8);
    mark = calloc(n ? n : 1, 1);
    av = a->valid ? download_all(x, a->valid, n) : NULL;
    if (!hp || !pp || !mark || (a->valid && !av)) { if (!x->err->set) attu_error_oom(x->err); goto done; }
    for (size_t h = 0; h < nh; h++) { int64_t row = pp[hp[h]]; mark[row] = av ? av[row] : 1; }
    o = calloc(1, sizeof *o);
    if (!o) { attu_error_oom(x->err); goto done; }
    o->refs = 1; o->type = val->type; o->data = val->data; o->dict = val->dict ? attu_dictionary_ref(val->dict) : NULL;
    o->valid = upload_new(x, mark, n);
    o->owns_valid = true;
    if (!o->valid) { xcol_unref(x, o); o = NULL; }
done:
    free(sk); free(kv); free(mark); free(av); free(hp); free(pp);
    free_buf(x, perm); free_buf(x, heads);
    return o;
}

/* The reductions of a grouped aggregate over nseg segments: one spec and
 * one result column per aggregate, plus a COUNT for avg and the variances.
 * dargs[i]: COUNT(DISTINCT)'s input, already reduced to first occurrences. */
int agg_specs(xctx *x, const attu_stage *s, xcol **args, xcol **dargs, size_t nseg,
                     attu_reduce_spec *specs, attu_out *outs, xcol **res, int *nspec_out,
                     const attu_expr_program *prog, const int *agg_reg) {
    int nspec = 0;
    for (int i = 0; i < s->naggs; i++) {
        const attu_stage_agg *g = &s->aggs[i];
        attu_reduce_spec *sp = &specs[nspec];
        memset(sp, 0, sizeof *sp);
        sp->op = g->op; sp->k = g->k; sp->in_reg = sp->arg_reg = -1;
        if (agg_reg) {
            /* the fused aggregate: the input is program output agg_reg[i] */
            sp->in_reg = agg_reg[i];
            sp->in.type = agg_reg[i] >= 0 ? prog->reg_types[prog->outputs[agg_reg[i]]] : attu_type_make(ATTU_TYPE_INT64);
        } else {
            xcol *a = g->count_distinct ? dargs[i] : g->in >= 0 ? args[g->in] : NULL;
            if (a) sp->in = vec_of(a);
            else sp->in.type = attu_type_make(ATTU_TYPE_INT64);
            if (g->arg >= 0) sp->arg = vec_of(args[g->arg]);
        }
        attu_type ot = g->avg || g->var ? attu_type_make(ATTU_TYPE_FLOAT64)
                     : g->osa ? attu_type_make(ATTU_TYPE_INT64)     /* its count (ordered_set_agg) */
                     : g->out_type;
        if ((g->avg || g->var) && g->out_type.id == ATTU_TYPE_NUMERIC) {
            /* exact: avg from the NUMERIC sum, the variances from
             * n * sum(x^2) - sum(x)^2 (finish_avg_numeric, finish_var_numeric) */
            ot = g->out_type;
            if (g->avg) sp->op = ATTU_REDUCE_SUM;
        }
        sp->out_type = ot;
        if (!(res[nspec] = xcol_new(x, ot, nseg, true))) { *nspec_out = nspec; return -1; }
        outs[nspec] = (attu_out){ ot, res[nspec]->data, res[nspec]->valid, NULL };
        nspec++;
        if (g->avg || g->var) {
            attu_reduce_spec *c = &specs[nspec];
            memset(c, 0, sizeof *c);
            c->op = ATTU_REDUCE_COUNT; c->in = sp->in; c->in_reg = sp->in_reg; c->arg_reg = -1;
            c->out_type = attu_type_make(ATTU_TYPE_INT64);
            if (!(res[nspec] = xcol_new(x, c->out_type, nseg, true))) { *nspec_out = nspec; return -1; }
            outs[nspec] = (attu_out){ c->out_type, res[nspec]->data, res[nspec]->valid, NULL };
            nspec++;
        }
    }
    *nspec_out = nspec;
    return 0;
}

/* The aggregates' result columns from agg_specs' outputs over nseg groups,
 * into out's columns from at on: avg and the variances finished from their
 * sum and count, string_agg and MIN / MAX of text with their dictionaries
 * (args NULL: no text aggregate). */
int agg_result_cols(xctx *x, const attu_stage *s, xcol **res, attu_out *outs, xcol **args, size_t nseg,
                           rel *out, int at) {
    for (int i = 0, k = 0; i < s->naggs; i++) {
        const attu_stage_agg *g = &s->aggs[i];
        if (g->avg) {
            int scale = g->in_type.id == ATTU_TYPE_DECIMAL ? g->in_type.scale : 0;
            xcol *avg = g->out_type.id == ATTU_TYPE_NUMERIC ? finish_avg_numeric(x, res[k], res[k + 1], nseg)
                                                            : finish_avg(x, res[k], res[k + 1], nseg, scale);
            if (!avg) return -1;
            out->cols[at + i] = avg;
            k += 2;
        } else if (g->var) {
            int scale = g->in_type.id == ATTU_TYPE_DECIMAL ? g->in_type.scale : 0;
            xcol *v = g->out_type.id == ATTU_TYPE_NUMERIC ? finish_var_numeric(x, res[k], res[k + 1], nseg, g->var)
                                                          : finish_var(x, res[k], res[k + 1], nseg, g->var, scale);
            if (!v) return -1;
            out->cols[at + i] = v;
            k += 2;
        } else {
            /* string_agg's output carries the new dictionary segreduce built */
            if (g->op == ATTU_REDUCE_STRING_AGG) { res[k]->dict = outs[k].dict; outs[k].dict = NULL; }
            else if (args && !g->osa) res[k]->dict = agg_dict(g, args);
            out->cols[at + i] = xcol_ref(res[k]);
            k++;
        }
    }
    return 0;
}

/* Rows from which the dense group-by pays: below, sorting is cheap, and
 * the tests keep both paths busy (ATTU_DENSE_GROUP_MIN_ROWS overrides). */
#define DENSE_GROUP_MIN_ROWS 65536
/* At most this many slots (the product of the keys' value ranges). */
#define DENSE_GROUP_MAX_SLOTS 65536
/* TEXT and BOOL keys take their ranges from their types up to this many
 * slots (dense_layout). */
#define DENSE_KNOWN_MAX_SLOTS 1024

size_t dense_min_rows(void) {
    const char *v = getenv("ATTU_DENSE_GROUP_MIN_ROWS");
    return v && *v ? (size_t)strtoull(v, NULL, 10) : DENSE_GROUP_MIN_ROWS;
}

/* The table column key c is, whole (n rows, not gathered), else NULL. */
static attu_column *whole_table_column(const xcol *c, size_t n) {
    return c->tcol && !c->lazy_src && c->tcol->length == n ? c->tcol : NULL;
}

/* A key's slots from its range (any: a non-NULL value; nulls: a NULL slot
 * more): *min, *width, and *nslots times the width. 1 when the range
 * goes beyond the slot limit (or overflows). */
static int range_slots(bool any, int64_t min, int64_t max, bool nulls, int64_t *min_out, int64_t *width_out,
                       size_t *nslots) {
    if (!any) { min = 0; max = -1; }   /* all NULL: no values, one NULL slot */
    uint64_t span = (uint64_t)max - (uint64_t)min + 1 + (nulls ? 1 : 0);
    if (any && (max < min || span > DENSE_GROUP_MAX_SLOTS)) return 1;
    *min_out = min;
    *width_out = (int64_t)span;
    if (*nslots * span > DENSE_GROUP_MAX_SLOTS) return 1;
    *nslots *= span;
    return 0;
}

/* The dense layout of group keys (group_dense's mins and widths, and the
 * slot count): each key's MIN, MAX and COUNT, and MIN's validity (an
 * all-NULL key leaves MIN undefined), in one reduce and one download.
 * Returns 0, 1 when a key's type or the ranges do not qualify (more than
 * DENSE_GROUP_MAX_SLOTS slots), -1 on error. */
int dense_layout(xctx *x, xcol **keys, int nk, size_t n, int64_t *mins, int64_t *widths, size_t *nslots_out,
                 bool *nulls_out) {
    bool nulls_own[8];
    bool *nulls = nulls_out ? nulls_out : nulls_own;
    if (nk > 8) return 1;
    for (int i = 0; i < nk; i++) {
        switch (keys[i]->type.id) {
        case ATTU_TYPE_BOOL: case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_INT64:
        case ATTU_TYPE_DATE: case ATTU_TYPE_TEXT: break;
        default: return 1;
        }
    }
    if (nk == 0) { *nslots_out = 1; return 0; }
    /* TEXT codes lie in [0, the dictionary's size) and BOOLs in [0, 2):
     * keys of those types need no pass over the rows (a validity buffer
     * reserves the NULL slot, occupied or not) when the dictionaries are
     * small; a large one is better measured, since filtered rows may use
     * a narrow range of its codes (SSB q3.3: two cities of 250) */
    bool known = true;
    size_t slots = 1;
    for (int k = 0; k < nk && known; k++) {
        known = keys[k]->type.id == ATTU_TYPE_BOOL || (keys[k]->type.id == ATTU_TYPE_TEXT && keys[k]->dict);
        if (!known) break;
        int64_t w = keys[k]->type.id == ATTU_TYPE_BOOL ? 2 : keys[k]->dict->count;
        w += keys[k]->valid ? 1 : 0;
        nulls[k] = keys[k]->valid != NULL;
        if (w < 1) w = 1;
        mins[k] = 0;
        widths[k] = w;
        slots *= (size_t)w;
        known = slots <= DENSE_KNOWN_MAX_SLOTS;
    }
    if (known) {
        *nslots_out = slots;
        return 0;
    }
    /* keys that are whole table columns keep their ranges on the column
     * (attu_value_range): measured once, then no pass over the rows */
    bool cached = true;
    for (int k = 0; k < nk && cached; k++) {
        const attu_column *tc = whole_table_column(keys[k], n);
        cached = tc && __atomic_load_n(&tc->range.state, __ATOMIC_ACQUIRE) == 2;
    }
    if (cached) {
        size_t nslots = 1;
        for (int k = 0; k < nk; k++) {
            const attu_value_range *r = &whole_table_column(keys[k], n)->range;
            nulls[k] = r->nulls;
            if (range_slots(r->any, r->min, r->max, r->nulls, &mins[k], &widths[k], &nslots)) return 1;
        }
        *nslots_out = nslots;
        return 0;
    }
    /* one buffer: one download brings them all (as key_range) */
    attu_reduce_spec rs[24];
    attu_out ro[24];
    attu_buf vals[24], valid[24];
    size_t nslots = 1;
    int rc = -1;
    const size_t nr = (size_t)(3 * nk), bytes = nr * 8 + nr;
    attu_buf *all = x->be->alloc(x->be, bytes, x->err);
    if (!all) return -1;
    memset(rs, 0, sizeof rs);
    for (int i = 0; i < 3 * nk; i++) {
        attu_reduce_op ops[3] = { ATTU_REDUCE_MIN, ATTU_REDUCE_MAX, ATTU_REDUCE_COUNT };
        attu_type t = i % 3 == 2 ? attu_type_make(ATTU_TYPE_INT64) : keys[i / 3]->type;
        rs[i].op = ops[i % 3]; rs[i].in = vec_of(keys[i / 3]); rs[i].in_reg = rs[i].arg_reg = -1;
        rs[i].out_type = t;
        vals[i] = view(all, (size_t)i * 8, 8);
        valid[i] = view(all, nr * 8 + (size_t)i, 1);
        ro[i] = (attu_out){ t, &vals[i], i % 3 == 2 ? NULL : &valid[i], NULL };
    }
    unsigned char got[24 * 8 + 24];
    if (x->be->reduce(x->be, n, 3 * nk, rs, ro, x->err) || x->be->download(x->be, got, all, 0, bytes, x->err))
        goto out;
    rc = 1;
    for (int k = 0; k < nk; k++) {
        int64_t v[3] = { 0, 0, 0 };
        uint8_t has = got[nr * 8 + (size_t)(3 * k)];
        size_t w = attu_type_width(keys[k]->type.id);
        for (int j = 0; j < 3; j++) {
            int64_t raw = 0;
            memcpy(&raw, got + (size_t)(3 * k + j) * 8, j == 2 ? 8 : w);
            if (j == 2) v[j] = raw;
            else if (w == 1) v[j] = (uint8_t)raw;
            else if (w == 2) v[j] = (int16_t)raw;
            else if (w == 4) v[j] = (int32_t)raw;
            else v[j] = raw;
        }
        nulls[k] = (size_t)v[2] < n;
        attu_column *tc = whole_table_column(keys[k], n);
        if (tc) {
            int idle = 0;
            if (__atomic_compare_exchange_n(&tc->range.state, &idle, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                tc->range.any = has;
                tc->range.nulls = nulls[k];
                tc->range.min = v[0];
                tc->range.max = v[1];
                __atomic_store_n(&tc->range.state, 2, __ATOMIC_RELEASE);
            }
        }
        if (range_slots(has, v[0], v[1], nulls[k], &mins[k], &widths[k], &nslots)) goto out;
    }
    *nslots_out = nslots;
    rc = 0;
out:
    free_buf(x, all);
    return rc;
}

/* GROUP BY over keys with small value ranges without sorting: each row's
 * slot comes from its keys' offsets in their ranges (found by one reduce),
 * group_dense reduces every slot and lists the occupied ones, in
 * slot order = the sorted order of the keys (NULLs last), so the result
 * equals the sort path's. Returns 0 with *nseg_out groups, the reductions in
 * res (nspec of them), each group's first row in *gidx_out (when not NULL)
 * and its slot in *slots_out (when not NULL); 1 when the
 * keys, aggregates or ranges do not qualify (nothing allocated); -1 on
 * error. */
int agg_dense(xctx *x, const attu_stage *s, xcol **keys, xcol **args, size_t n, const dense_lay *lay,
              size_t *nseg_out, attu_reduce_spec *specs, attu_out *outs, xcol **res, int *nspec_out,
              attu_buf **gidx_out, attu_buf **slots_out) {
    int nk = s->keys.n;
    if (!x->be->group_dense || (n < dense_min_rows() && !x->dense_any_rows) || nk > 8) return 1;
    for (int i = 0; i < s->naggs; i++) {
        const attu_stage_agg *g = &s->aggs[i];
        if (g->count_distinct || g->var || g->norder || g->osa) return 1;
        switch (g->op) {
        case ATTU_REDUCE_COUNT_STAR: case ATTU_REDUCE_COUNT: case ATTU_REDUCE_AVG_SUM: break;
        case ATTU_REDUCE_SUM: case ATTU_REDUCE_MIN: case ATTU_REDUCE_MAX:
            if (args[g->in]->type.id == ATTU_TYPE_TEXT || args[g->in]->type.id == ATTU_TYPE_FLOAT32) return 1;
            break;
        default: return 1;
        }
    }
    dense_lay own;
    if (!lay) {
        int lrc = dense_layout(x, keys, nk, n, own.mins, own.widths, &own.nslots, NULL);
        if (lrc) return lrc;
        own.map = NULL;
        lay = &own;
    }
    const int64_t *mins = lay->mins, *widths = lay->widths;
    size_t nslots = lay->nslots;
    xcol *occ = NULL, *first = NULL;
    attu_buf *idx = NULL;
    size_t ng = 0;
    int rc;
    rc = 1;
    if (nslots > n) goto out;     /* sparse: sorting is no worse */
    /* reduce every slot */
    rc = -1;
    if (agg_specs(x, s, args, NULL, nslots, specs, outs, res, nspec_out, NULL, NULL)) goto out;
    occ = xcol_new(x, attu_type_make(ATTU_TYPE_BOOL), nslots, false);
    first = xcol_new(x, attu_type_make(ATTU_TYPE_INT64), nslots, false);
    if (!occ || !first) goto out;
    {
        attu_vec kv[8];
        for (int k = 0; k < nk; k++) kv[k] = vec_of(keys[k]);
        int grc = x->be->group_dense(x->be, kv, mins, widths, nk, n, nslots, lay->map, *nspec_out, specs, outs,
                                     occ->data, first->data, &idx, &ng, x->err);
        if (grc < 0) goto out;
        if (grc == 1) {
            for (int i = 0; i < *nspec_out; i++) { xcol_unref(x, res[i]); res[i] = NULL; }
            *nspec_out = 0;
            rc = 1;
            goto out;
        }
    }
    /* the occupied slots, in slot order (idx, from group_dense) */
    {
        rel rr = { *nspec_out, res, nslots, NULL };
        rel *g = rel_gather(x, &rr, idx, ng, false);
        if (!g) goto out;
        for (int i = 0; i < *nspec_out; i++) {
            xcol_unref(x, res[i]);
            res[i] = xcol_ref(g->cols[i]);
            outs[i].data = res[i]->data;
            outs[i].valid = res[i]->valid;
        }
        rel_free(x, g);
        if (gidx_out) {   /* (the one-level GROUP BY f(x) has its keys without them) */
            attu_buf *gi = buf_i64(x, ng);
            if (!gi || x->be->gather(x->be, gi, NULL, first->data, NULL, 8, idx, ng, x->err)) { free_buf(x, gi); goto out; }
            *gidx_out = gi;
        }
        if (slots_out) { *slots_out = idx; idx = NULL; }
    }
    *nseg_out = ng;
    rc = 0;
out:
    xcol_unref(x, occ); xcol_unref(x, first);
    free_buf(x, idx);
    return rc;
}

/* One reduce (whole column) or segreduce call over the specs. */
static int reduce_call(xctx *x, bool segmented, attu_buf *off, size_t nseg, attu_buf *perm, size_t n, int nspec,
                       const attu_reduce_spec *specs, attu_out *outs) {
    return segmented ? x->be->segreduce(x->be, off, nseg, perm, nspec, specs, outs, x->err)
                     : x->be->reduce(x->be, n, nspec, specs, outs, x->err);
}

/* Whether spec k is a sum of integers or decimals with a NUMERIC result
 * (sum of bigint or decimal, avg of integers and decimals). */
static bool narrowable_sum(const attu_reduce_spec *sp) {
    return sp->op == ATTU_REDUCE_SUM && sp->out_type.id == ATTU_TYPE_NUMERIC &&
           (attu_type_is_int(sp->in.type.id) || sp->in.type.id == ATTU_TYPE_DECIMAL);
}

/* The reduce of run_agg. A sum with a NUMERIC result (PostgreSQL's sum of
 * bigint and numeric, and the exact sum under avg) is 128-bit exact on the
 * host, but the GPU backend reduces NUMERIC slots only there: the column
 * would leave the device. Most such sums fit in 64 bits, so on a GPU they
 * are first reduced on the device as bigint / decimal(18, s) sums, which
 * raise 22003 when a total leaves 64 bits, and then cast to numeric (the
 * value and its scale are exact); only after a 22003 does the exact host
 * reduce run. The CPU backend reduces exactly in one go. */
static int reduce_sums_narrow_first(xctx *x, bool segmented, attu_buf *off, size_t nseg, attu_buf *perm, size_t n,
                                    int nspec, attu_reduce_spec *specs, attu_out *outs) {
    int nnarrow = 0;
    for (int k = 0; k < nspec; k++) nnarrow += narrowable_sum(&specs[k]);
    if (x->be->kind == ATTU_DEVICE_KIND_CPU || nnarrow == 0)
        return reduce_call(x, segmented, off, nseg, perm, n, nspec, specs, outs);
    attu_reduce_spec *sp2 = calloc((size_t)nspec, sizeof *sp2);
    attu_out *out2 = calloc((size_t)nspec, sizeof *out2);
    xcol **tmp = calloc((size_t)nspec, sizeof *tmp);
    int rc = -1;
    if (!sp2 || !out2 || !tmp) { attu_error_oom(x->err); goto out; }
    for (int k = 0; k < nspec; k++) {
        sp2[k] = specs[k];
        out2[k] = outs[k];
        if (!narrowable_sum(&specs[k])) continue;
        attu_type nt = specs[k].in.type.id == ATTU_TYPE_DECIMAL ? attu_type_decimal(18, specs[k].in.type.scale)
                                                                : attu_type_make(ATTU_TYPE_INT64);
        if (!(tmp[k] = xcol_new(x, nt, nseg, true))) goto out;
        sp2[k].out_type = nt;
        out2[k] = (attu_out){ nt, tmp[k]->data, tmp[k]->valid, NULL };
    }
    if (reduce_call(x, segmented, off, nseg, perm, n, nspec, sp2, out2)) {
        if (strcmp(x->err->sqlstate, ATTU_SQLSTATE_NUMERIC_RANGE) != 0) goto out;
        attu_error_clear(x->err);   /* a total past 64 bits: the exact reduce */
        for (int k = 0; k < nspec; k++)
            if (out2[k].dict) { attu_dictionary_unref(out2[k].dict); out2[k].dict = NULL; }
        rc = reduce_call(x, segmented, off, nseg, perm, n, nspec, specs, outs);
        goto out;
    }
    /* a string_agg's new dictionary came back in its copy of the output */
    for (int k = 0; k < nspec; k++) {
        outs[k].dict = out2[k].dict;
        out2[k].dict = NULL;
    }
    for (int k = 0; k < nspec; k++) {
        if (!tmp[k]) continue;
        attu_type nt = attu_type_make(ATTU_TYPE_NUMERIC);
        attu_expr_program *p = attu_program_new(1, &tmp[k]->type);
        if (!p) { attu_error_oom(x->err); goto out; }
        int r = attu_program_reg(p, nt);
        attu_program_emit(p, attu_instr_make(tmp[k]->type.id == ATTU_TYPE_DECIMAL ? ATTU_OP_CAST_D_N : ATTU_OP_CAST_I_N,
                                             r, 0, -1));
        attu_program_add_output(p, r);
        attu_vec in = vec_of(tmp[k]);
        int e = x->be->eval(x->be, p, &in, nseg, &outs[k], x->err);
        attu_program_free(p);
        if (e) goto out;
    }
    rc = 0;
out:
    for (int k = 0; k < nspec && tmp; k++) xcol_unref(x, tmp[k]);
    free(sp2); free(out2); free(tmp);
    return rc;
}

/* The fused aggregate's program (run_agg_fused, run_agg_split): the
 * stage's own, or, when every aggregate reads a plain column, one that
 * passes those columns on (*own, input j = output j = column
 * (*own_cols)[j], typed as in's columns, or as the aggregates' inputs
 * when in is NULL). agg_out[i]: the program output aggregate i reads, -1
 * for none. 0; 1 when the stage is not a fused shape (aggregates other
 * than count / sum / avg / min / max of a number, APPLY parameters, a
 * plain column beside a program, whose inputs would have to be
 * renumbered to take it); -1 out of memory. */
int fused_agg_program(const attu_stage *s, const rel *in, attu_expr_program **own, int **own_cols,
                      const attu_expr_program **p, int *nin, const int **in_cols, int *agg_out) {
    const attu_stage_exprs *ex = &s->args;
    *own = NULL; *own_cols = NULL;
    *p = ex->prog; *nin = ex->nin; *in_cols = ex->in_cols;
    for (int i = 0; *p && i < ex->nin; i++) if (ex->in_cols[i] < 0) return 1;   /* APPLY parameters */
    for (int i = 0; i < s->naggs; i++) {
        const attu_stage_agg *g = &s->aggs[i];
        if (g->count_distinct || g->norder || g->var || g->osa || g->arg >= 0 || g->out_type.id == ATTU_TYPE_TEXT) return 1;
        if (g->op != ATTU_REDUCE_COUNT_STAR && g->op != ATTU_REDUCE_COUNT && g->op != ATTU_REDUCE_SUM &&
            g->op != ATTU_REDUCE_AVG_SUM && g->op != ATTU_REDUCE_MIN && g->op != ATTU_REDUCE_MAX) return 1;
        if (*p && g->in >= 0 && ex->direct[g->in] >= 0) return 1;
    }
    if (*p) {
        for (int i = 0; i < s->naggs; i++) agg_out[i] = s->aggs[i].in >= 0 ? -ex->direct[s->aggs[i].in] - 1 : -1;
        return 0;
    }
    int *cols = calloc((size_t)s->naggs + 1, sizeof *cols);
    attu_type *tys = calloc((size_t)s->naggs + 1, sizeof *tys);
    int k = 0;
    if (!cols || !tys) { free(cols); free(tys); return -1; }
    for (int i = 0; i < s->naggs; i++) {
        const attu_stage_agg *g = &s->aggs[i];
        agg_out[i] = -1;
        if (g->in < 0) continue;
        int c = ex->direct[g->in], j = 0;
        while (j < k && cols[j] != c) j++;
        if (j == k) { cols[k] = c; tys[k] = in ? in->cols[c]->type : g->in_type; k++; }
        agg_out[i] = j;
    }
    attu_expr_program *q = attu_program_new(k, tys);
    for (int j = 0; q && j < k; j++)
        if (attu_program_add_output(q, j) < 0) { attu_program_free(q); q = NULL; }
    free(tys);
    if (!q) { free(cols); return -1; }
    *own = q; *own_cols = cols;
    *p = q; *nin = k; *in_cols = cols;
    return 0;
}

/* The inputs of a fused program over in: input i is column
 * in_cols[pick ? pick[i] : i], read through its join's rows (rows[i])
 * when it is lazy. Returns whether any is. */
bool fused_inputs(const rel *in, const int *in_cols, const int *pick, int n, attu_vec *ins, attu_vec *rows) {
    bool through = false;
    for (int i = 0; i < n; i++) {
        const xcol *c = in->cols[in_cols[pick ? pick[i] : i]];
        rows[i] = (attu_vec){ attu_type_make(ATTU_TYPE_INT64), NULL, NULL, NULL };
        if (c->lazy_src) {
            ins[i] = vec_of(c->lazy_src);
            rows[i] = vec_of(c->lazy_idx);
            through = true;
        } else {
            ins[i] = vec_of(c);
        }
    }
    return through;
}

/* Whether aggregates a and b order their rows alike. */
static bool same_agg_order(const attu_stage_agg *a, const attu_stage_agg *b) {
    if (a->norder != b->norder) return false;
    for (int q = 0; q < a->norder; q++)
        if (a->order[q] != b->order[q] || a->desc[q] != b->desc[q] || a->nulls_first[q] != b->nulls_first[q]) return false;
    return true;
}

/* reduce_sums_narrow_first over the specs whose take[] is set (each
 * spec's output column is written in place; a string_agg's dictionary
 * comes back into outs). */
static int reduce_some(xctx *x, attu_buf *off, size_t nseg, attu_buf *perm, size_t n, int nspec,
                       attu_reduce_spec *specs, attu_out *outs, const bool *take) {
    int m = 0;
    for (int k = 0; k < nspec; k++) m += take[k];
    if (m == nspec) return reduce_sums_narrow_first(x, true, off, nseg, perm, n, nspec, specs, outs);
    if (m == 0) return 0;
    attu_reduce_spec *sp = calloc((size_t)m, sizeof *sp);
    attu_out *op = calloc((size_t)m, sizeof *op);
    int rc = sp && op ? 0 : attu_error_oom(x->err);
    for (int k = 0, j = 0; k < nspec && !rc; k++)
        if (take[k]) { sp[j] = specs[k]; op[j++] = outs[k]; }
    if (!rc) rc = reduce_sums_narrow_first(x, true, off, nseg, perm, n, m, sp, op);
    for (int k = 0, j = 0; k < nspec && op; k++)
        if (take[k]) { outs[k].dict = op[j].dict; op[j++].dict = NULL; }
    free(sp); free(op);
    return rc;
}

/* The reductions of an aggregate stage whose rows perm sorts by the group
 * keys and og's order (segments off): each aggregate with an order of
 * its own (string_agg(x ORDER BY y) beside array_agg(x ORDER BY x DESC),
 * array_agg(DISTINCT x)'s implied one) reduces over a sort of the rows by
 * the keys and that order, as PostgreSQL sorts each ordered aggregate's
 * input apart; the groups come in the same order (the keys sort first
 * and alike), so the segments are off's. The others reduce over perm. */
static int other_order_reduce(xctx *x, const attu_stage *s, const attu_stage_agg *og, xcol **keys, int nk, xcol **args,
                              attu_buf *off, size_t nseg, attu_buf *perm, size_t n, int nspec,
                              attu_reduce_spec *specs, attu_out *outs) {
    int ng = s->naggs, maxo = 0;
    int *spec_of = calloc((size_t)ng + 1, sizeof *spec_of);
    bool *take = calloc((size_t)nspec + 1, sizeof *take), *done = calloc((size_t)ng + 1, sizeof *done);
    for (int i = 0; i < ng; i++) if (s->aggs[i].norder > maxo) maxo = s->aggs[i].norder;
    attu_sort_key *sk = calloc((size_t)(nk + maxo) + 1, sizeof *sk);
    attu_buf *p2 = NULL;
    int rc = spec_of && take && done && sk ? 0 : attu_error_oom(x->err);
    for (int i = 0, k = 0; i < ng && !rc; i++) {
        spec_of[i] = k;
        k += s->aggs[i].avg || s->aggs[i].var ? 2 : 1;
    }
    /* og's order and the aggregates that have none */
    for (int i = 0; i < ng && !rc; i++) {
        const attu_stage_agg *g = &s->aggs[i];
        done[i] = !g->norder || same_agg_order(g, og);
        take[spec_of[i]] = done[i];
        if (done[i] && (g->avg || g->var)) take[spec_of[i] + 1] = true;
    }
    if (!rc) rc = reduce_some(x, off, nseg, perm, n, nspec, specs, outs, take);
    for (int i = 0; i < nk && !rc; i++) sk[i].col = vec_of(keys[i]);
    for (int i = 0; i < ng && !rc; i++) {
        if (done[i]) continue;
        const attu_stage_agg *g = &s->aggs[i];
        /* this order's sort, for every aggregate that shares it */
        for (int q = 0; q < g->norder; q++) {
            sk[nk + q].col = vec_of(args[g->order[q]]);
            sk[nk + q].desc = g->desc[q];
            sk[nk + q].nulls_first = g->nulls_first[q];
        }
        if (!(p2 = buf_i64(x, n)) || exec_sort(x, sk, nk + g->norder, n, p2)) { rc = -1; break; }
        memset(take, 0, (size_t)nspec * sizeof *take);
        for (int j = i; j < ng; j++)
            if (!done[j] && s->aggs[j].norder && same_agg_order(&s->aggs[j], g)) { done[j] = true; take[spec_of[j]] = true; }
        rc = reduce_some(x, off, nseg, p2, n, nspec, specs, outs, take);
        free_buf(x, p2);
        p2 = NULL;
    }
    free_buf(x, p2);
    free(spec_of); free(take); free(done); free(sk);
    return rc;
}

/* The fused aggregate: an aggregate without GROUP BY whose every input is
 * an output of its argument program (sum(t1.x + t2.y), count(*)) is one
 * backend call, eval_reduce, instead of eval writing each argument out and
 * reduce reading it back; a join's lazy columns are read through their
 * pairs there rather than gathered first (a GPU then reads t2.y at each
 * pair inside the reduction's kernel). Returns 1 when the shape is not
 * this one or the backend declines (run_agg then materializes its input
 * and reduces as usual), 0 with *out_rel, -1 on error.
 * ATTU_FUSED_AGG_MIN_ROWS: rows below which the usual path runs (default
 * 0: the CPU's eval_reduce is the same two calls, and a GPU declines what
 * is too small to compile for). */
static int run_agg_fused(xctx *x, attu_stage *s, rel *in, rel **out_rel) {
    const attu_stage_exprs *ex = &s->args;
    const attu_expr_program *p = ex->prog;
    int ng = s->naggs, nspec = 0, rc = -1, nin = ex->nin;
    const int *in_cols = ex->in_cols;
    size_t n = in->nrows;
    const char *env = getenv("ATTU_FUSED_AGG_MIN_ROWS");
    size_t min_rows = env && *env ? (size_t)strtoull(env, NULL, 10) : 0;
    *out_rel = NULL;
    if (!x->be->eval_reduce || s->keys.n || ng < 1 || n < min_rows) return 1;
    attu_expr_program *own = NULL;
    int *own_cols = NULL, *agg_out = calloc((size_t)ng + 1, sizeof *agg_out);
    if (!agg_out) return attu_error_oom(x->err);
    int sh = fused_agg_program(s, in, &own, &own_cols, &p, &nin, &in_cols, agg_out);
    if (sh || (own && nin == 0)) {
        /* not a fused shape, or count(*) alone: nothing to fuse */
        attu_program_free(own);
        free(own_cols); free(agg_out);
        return sh < 0 ? attu_error_oom(x->err) : 1;
    }
    attu_reduce_spec *specs = calloc((size_t)ng * 2 + 1, sizeof *specs);
    attu_out *outs = calloc((size_t)ng * 2 + 1, sizeof *outs);
    xcol **res = calloc((size_t)ng * 2 + 1, sizeof *res);
    attu_vec *ins = calloc((size_t)nin + 1, sizeof *ins);
    attu_vec *rows = calloc((size_t)nin + 1, sizeof *rows);
    rel *out = NULL;
    if (!specs || !outs || !res || !ins || !rows) { attu_error_oom(x->err); goto done; }
    if (agg_specs(x, s, NULL, NULL, 1, specs, outs, res, &nspec, p, agg_out)) goto done;
    bool through = fused_inputs(in, in_cols, NULL, nin, ins, rows);
    int e = x->be->eval_reduce(x->be, p, ins, through ? rows : NULL, n, nspec, specs, outs, x->err);
    if (e) { rc = e > 0 ? 1 : -1; goto done; }
    if (!(out = rel_new(x, ng, 1)) || agg_result_cols(x, s, res, outs, NULL, 1, out, 0)) goto done;
    s->act_how = "eval_reduce (fused)";
    *out_rel = out;
    out = NULL;
    rc = 0;
done:
    if (out) rel_free(x, out);
    for (int i = 0; i < nspec; i++) xcol_unref(x, res[i]);
    free(specs); free(outs); free(res); free(ins); free(rows);
    free(agg_out); free(own_cols);
    attu_program_free(own);
    return rc;
}

rel *run_agg(xctx *x, attu_stage *s, rel *in) {
    rel *fused = NULL;
    if (in->split) {
        /* the join above split its pairs for this aggregate: each side
         * summed apart, or the pairs lined up again when that does not stand */
        int src = run_agg_split(x, s, in, &fused);
        if (src <= 0) return fused;
        if (rel_split_realign(x, in)) return NULL;
    }
    int frc = run_agg_fused(x, s, in, &fused);
    if (frc <= 0) return fused;
    /* every other path reads materialized columns (run_stage hands this
     * stage its input's lazy columns for run_agg_fused): those its
     * expressions read (count(*) over a window of an order reads none) */
    bool *read = calloc((size_t)in->ncols + 1, sizeof *read);
    if (!read) { attu_error_oom(x->err); return NULL; }
    mark_read(&s->keys, read, in->ncols, NULL);
    mark_read(&s->args, read, in->ncols, NULL);
    mark_read(&s->osa_fracs, read, in->ncols, NULL);
    mark_read(&s->exprs, read, in->ncols, NULL);
    int mrc = rel_materialize(x, in, read);
    free(read);
    if (mrc) return NULL;
    /* GROUP BY f(x) of one dense column: grouped by x first */
    rel *pre = NULL;
    int prc = run_agg_pregrouped(x, s, in, &pre);
    if (prc <= 0) return pre;
    int nk = s->keys.n, na = s->args.n, ng = s->naggs;
    size_t n = in->nrows;
    xcol **keys = calloc((size_t)nk + 1, sizeof *keys), **args = calloc((size_t)na + 1, sizeof *args);
    xcol **dargs = calloc((size_t)ng + 1, sizeof *dargs);
    attu_reduce_spec *specs = calloc((size_t)ng * 2 + 1, sizeof *specs);
    attu_out *outs = calloc((size_t)ng * 2 + 1, sizeof *outs);
    xcol **res = calloc((size_t)ng * 2 + 1, sizeof *res);
    /* string_agg(... ORDER BY ...): rows sort by the group keys, then by
     * its order keys, so each segment arrives in that order. The first
     * written order is the sort's (else an implied one: array_agg(DISTINCT
     * x)'s); an aggregate with another order reduces over a sort of its
     * own (other_order_reduce), whose groups come in the same order */
    const attu_stage_agg *og = NULL;
    for (int pass = 0; pass < 2 && !og; pass++)
        for (int i = 0; i < ng && !og; i++)
            if (s->aggs[i].norder && s->aggs[i].order_implied == (pass == 1)) og = &s->aggs[i];
    int nok = og ? og->norder : 0;
    attu_sort_key *sk = calloc((size_t)(nk + nok) + 1, sizeof *sk);
    attu_vec *kv = calloc((size_t)nk + 1, sizeof *kv);
    attu_buf *perm = NULL, *heads = NULL, *off = NULL, *gidx = NULL, *idx = NULL;
    rel *out = NULL;
    size_t nseg = 1;
    int nspec = 0;
    bool dense = false;     /* grouped by agg_dense: specs, res and gidx are set */
    if (!keys || !args || !dargs || !specs || !outs || !res || !sk || !kv) { attu_error_oom(x->err); goto done; }
    if (eval_exprs(x, &s->keys, in, keys) || eval_exprs(x, &s->args, in, args)) goto done;
    s->act_how = NULL;
    if (nk && !nok) {
        int drc = agg_dense(x, s, keys, args, n, NULL, &nseg, specs, outs, res, &nspec, &gidx, NULL);
        if (drc < 0) goto done;
        dense = drc == 0;
        if (dense) s->act_how = "reduce + group_dense + compact + gather";
    }
    for (int q = 0; q < nok; q++) {
        sk[nk + q].col = vec_of(args[og->order[q]]);
        sk[nk + q].desc = og->desc[q];
        sk[nk + q].nulls_first = og->nulls_first[q];
    }
    if (!nk && nok) {
        /* one segment, in the aggregate's order */
        int64_t bounds[2] = { 0, (int64_t)n };
        perm = buf_i64(x, n);
        off = buf_i64(x, 2);
        if (!perm || !off || exec_sort(x, sk, nok, n, perm) ||
            x->be->upload(x->be, off, 0, bounds, 16, x->err)) goto done;
    }
    if (nk && !dense) {
        bool numeric = false;
        for (int i = 0; i < nk; i++) {
            kv[i] = vec_of(keys[i]);
            sk[i].col = kv[i];
            numeric |= attu_type_is_wide(keys[i]->type.id);
        }
        perm = buf_i64(x, n);
        if (!perm) goto done;
        /* the groups' heads with the sort when the backend can (a GPU reads
         * them off its sorted key image); ordered aggregates' extra keys and
         * NUMERIC keys (sorted by their expanded images) take the two calls */
        if (nok == 0 && !numeric && x->be->sort_heads) {
            if (x->be->sort_heads(x->be, sk, nk, n, perm, &heads, &nseg, x->err)) goto done;
        } else if (exec_sort(x, sk, nk + nok, n, perm) || exec_segment_heads(x, kv, nk, perm, n, &heads, &nseg)) {
            goto done;
        }
        off = buf_i64(x, nseg + 1);
        idx = buf_i64(x, nseg);
        int64_t end = (int64_t)n;
        attu_buf ov = off ? view(off, 0, nseg * 8) : (attu_buf){ 0 };
        if (!off || !idx || x->be->iota(x->be, idx, 0, nseg, x->err) ||
            x->be->gather(x->be, &ov, NULL, heads, NULL, 8, idx, nseg, x->err) ||
            x->be->upload(x->be, off, nseg * 8, &end, 8, x->err)) goto done;
    }
    if (!dense) {
        for (int i = 0; i < ng; i++) {
            const attu_stage_agg *g = &s->aggs[i];
            if (g->count_distinct) {
                xcol **tup = calloc((size_t)g->ntuple + 1, sizeof *tup);
                if (!tup) { attu_error_oom(x->err); goto done; }
                for (int q = 0; q < g->ntuple; q++) tup[q] = args[g->tuple[q]];
                xcol *by = g->distinct_by >= 0 ? args[g->distinct_by] : args[g->in];
                dargs[i] = first_occurrence(x, keys, nk, by, tup, g->ntuple, n, args[g->in]);
                free(tup);
                if (!dargs[i]) goto done;
            }
        }
        if (agg_specs(x, s, args, dargs, nseg, specs, outs, res, &nspec, NULL, NULL)) goto done;
        if (og) {
            if (other_order_reduce(x, s, og, keys, nk, args, off, nseg, perm, n, nspec, specs, outs)) goto done;
        } else if (reduce_sums_narrow_first(x, nk || nok, off, nseg, perm, n, nspec, specs, outs)) {
            goto done;
        }
    }
    out = rel_new(x, nk + ng, nseg);
    if (!out) goto done;
    if (nk) {
        if (!dense) gidx = buf_i64(x, nseg);
        if (!gidx || (!dense && x->be->gather(x->be, gidx, NULL, perm, NULL, 8, heads, nseg, x->err))) goto done;
        rel kr = { nk, keys, n, NULL };
        rel *g = rel_gather(x, &kr, gidx, nseg, false);
        if (!g) goto done;
        for (int i = 0; i < nk; i++) out->cols[i] = xcol_ref(g->cols[i]);
        rel_free(x, g);
    }
    if (agg_result_cols(x, s, res, outs, args, nseg, out, nk)) goto done;
    /* the ordered-set aggregates, from their counts (set above) and their
     * own sort of the rows (groups in the same order as perm's) */
    for (int i = 0; i < ng; i++) {
        const attu_stage_agg *g = &s->aggs[i];
        if (!g->osa) continue;
        xcol *frac = g->frac_arg >= 0 ? args[g->frac_arg] : NULL, *alone = NULL;
        if (frac && !nk && !n && !(alone = ordered_set_fraction_alone(x, s, g->frac_out)) && x->err->set) goto done;
        xcol *r = ordered_set_agg(x, g, keys, nk, args[g->in], g->osa_key >= 0 ? args[g->osa_key] : NULL, alone ? alone : frac,
                                  alone != NULL, n, nk ? off : NULL, nseg, out->cols[nk + i]);
        if (alone) xcol_unref(x, alone);
        if (!r) goto done;
        xcol_unref(x, out->cols[nk + i]);
        out->cols[nk + i] = r;
    }
done:
    if (x->err->set && out) { rel_free(x, out); out = NULL; }
    for (int i = 0; i < nk && keys; i++) xcol_unref(x, keys[i]);
    for (int i = 0; i < na && args; i++) xcol_unref(x, args[i]);
    for (int i = 0; i < ng && dargs; i++) xcol_unref(x, dargs[i]);
    for (int i = 0; i < nspec && res; i++) xcol_unref(x, res[i]);
    for (int i = 0; i < nspec && outs; i++) if (outs[i].dict) attu_dictionary_unref(outs[i].dict);
    free(keys); free(args); free(dargs); free(specs); free(outs); free(res); free(sk); free(kv);
    free_buf(x, perm); free_buf(x, heads); free_buf(x, off); free_buf(x, gidx); free_buf(x, idx);
    return out;
}

/* ---- the fused join-aggregate ------------------------------------------------------------- */

rel *run_join_agg(xctx *x, attu_stage *s, rel *L, rel *R) {
    int nk = s->keys.n, ng = s->naggs;
    size_t nl = L->nrows, nr = R->nrows;
    xcol **lk = calloc((size_t)nk + 1, sizeof *lk), **rk = calloc((size_t)nk + 1, sizeof *rk);
    attu_buf *kl = NULL, *kr = NULL, *pr = NULL, *sr = NULL, *lo = NULL, *off = NULL;
    attu_vec *left = NULL, *right = NULL;
    attu_reduce_spec *specs = calloc((size_t)ng + 1, sizeof *specs);
    attu_out *outs = calloc((size_t)ng + 1, sizeof *outs);
    xcol **res = calloc((size_t)ng + 1, sizeof *res);
    rel *out = NULL;
    int64_t items = 0;
    if (!lk || !rk || !specs || !outs || !res) { attu_error_oom(x->err); goto done; }
    if (eval_exprs(x, &s->keys, L, lk) || eval_exprs(x, &s->rkeys, R, rk)) goto done;
    if (join_keys(x, lk, rk, nk, nl, nr, false, false, &kl, &kr)) goto done;
    {
        /* the right side's non-NULL keys sorted; each left row's run of
         * partners (none for a NULL key) and the runs' scan */
        attu_buf *ml = NULL, *mr = NULL;
        size_t nrs = 0;
        int64_t total = 0;
        int rc = keys_valid_mask(x, lk, nk, nl, &ml) || keys_valid_mask(x, rk, nk, nr, &mr) ||
                 sorted_side(x, kr, nr, mr, &pr, &sr, &nrs) ||
                 match_runs(x, kl, nl, ml, sr, nrs, &lo, &off, &total);
        items = total;
        free_buf(x, ml); free_buf(x, mr);
        if (rc) goto done;
    }
    /* program inputs: left columns first, then right ones */
    const attu_stage_exprs *ex = &s->args;
    int nleft = 0;
    for (int i = 0; i < ex->nin; i++) if (ex->in_cols[i] < L->ncols) nleft++;
    left = calloc((size_t)nleft + 1, sizeof *left);
    right = calloc((size_t)(ex->nin - nleft) + 1, sizeof *right);
    if (!left || !right) { attu_error_oom(x->err); goto done; }
    for (int i = 0; i < ex->nin; i++) {
        int c = ex->in_cols[i];
        if (i < nleft) left[i] = vec_of(L->cols[c]);
        else right[i - nleft] = vec_of(R->cols[c - L->ncols]);
    }
    for (int i = 0; i < ng; i++) {
        const attu_stage_agg *g = &s->aggs[i];
        attu_reduce_spec *sp = &specs[i];
        sp->op = g->op; sp->k = g->k;
        sp->in_reg = g->in >= 0 ? -ex->direct[g->in] - 1 : -1;
        sp->arg_reg = g->arg >= 0 ? -ex->direct[g->arg] - 1 : -1;
        sp->in.type = g->in >= 0 ? ex->prog->reg_types[ex->prog->outputs[sp->in_reg]] : attu_type_make(ATTU_TYPE_INT64);
        sp->out_type = g->out_type;
        if (!(res[i] = xcol_new(x, g->out_type, nl, true))) goto done;
        outs[i] = (attu_out){ g->out_type, res[i]->data, res[i]->valid, NULL };
        if (g->out_type.id == ATTU_TYPE_TEXT) {
            int reg = sp->arg_reg >= 0 ? ex->prog->outputs[sp->arg_reg] : ex->prog->outputs[sp->in_reg];
            if (reg < nleft || reg >= ex->nin) {
                attu_error_set(x->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "a joined aggregate of text must return a column of the joined table");
                goto done;
            }
            const attu_dictionary *d = right[reg - nleft].dict;
            if (d) res[i]->dict = attu_dictionary_ref((attu_dictionary *)d);
        }
    }
    attu_lbs_segreduce_args a;
    memset(&a, 0, sizeof a);
    a.nseg = nl; a.seg_offsets = off; a.seg_base = lo; a.right_map = pr; a.left_rows = NULL;
    a.prog = ex->prog; a.nleft = nleft; a.left = left; a.nright = ex->nin - nleft; a.right = right;
    a.filter_reg = s->has_filter ? -ex->direct[s->filter_index] - 1 : -1;
    a.nreduce = ng; a.reduce = specs; a.out = outs; a.outer = s->outer;
    a.total_items = items;
    if (x->be->lbs_segreduce(x->be, &a, x->err)) goto done;
    out = rel_new(x, s->nleft_groups + ng, nl);
    if (!out) goto done;
    for (int i = 0; i < s->nleft_groups; i++) out->cols[i] = xcol_ref(L->cols[s->group_cols[i]]);
    for (int i = 0; i < ng; i++) out->cols[s->nleft_groups + i] = xcol_ref(res[i]);
done:
    for (int i = 0; i < nk; i++) { if (lk) xcol_unref(x, lk[i]); if (rk) xcol_unref(x, rk[i]); }
    for (int i = 0; i < ng && res; i++) xcol_unref(x, res[i]);
    free(lk); free(rk); free(specs); free(outs); free(res); free(left); free(right);
    free_buf(x, kl); free_buf(x, kr); free_buf(x, pr); free_buf(x, sr);
    free_buf(x, lo); free_buf(x, off);
    return out;
}

/* ---- window functions ------------------------------------------------------------------------ */

static double load_f(const void *d, attu_type_id t, size_t i) {
    switch (t) {
    case ATTU_TYPE_FLOAT32: return ((const float *)d)[i];
    case ATTU_TYPE_FLOAT64: return ((const double *)d)[i];
    case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: case ATTU_TYPE_TEXT: return ((const int32_t *)d)[i];
    case ATTU_TYPE_BOOL: return ((const uint8_t *)d)[i];
    default: return (double)((const int64_t *)d)[i];
    }
}
static int64_t load_i(const void *d, attu_type_id t, size_t i) {
    switch (t) {
    case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: case ATTU_TYPE_TEXT: return ((const int32_t *)d)[i];
    case ATTU_TYPE_BOOL: return ((const uint8_t *)d)[i];
    default: return ((const int64_t *)d)[i];
    }
}

/* Aggregate state over one frame, or the running state of the default frames.
 * Sums with a NUMERIC result (avg of exact numbers; sum of bigint, decimal
 * or NUMERIC) are exact: ns, an attu_numeric whose dscale is the largest
 * among the frame's values (PostgreSQL's sum), raising 22003 past NUMERIC's
 * 36 digits as the plain aggregate does; nscale counts the frame's values
 * of each dscale, so that a sliding frame can drop its largest scale when
 * the last value of that scale leaves it. min / max of NUMERIC keep their
 * value (with its own dscale) in ns too. A sum counts its NaN, Infinity
 * and -Infinity values apart (nspecial), as PostgreSQL's do_numeric_accum,
 * so that a sliding frame finds its sum again once they leave it; ns sums
 * the numbers (win_acc_sum). */
typedef struct win_acc {
    int64_t cnt, si; double sf, sxx; bool has;
    attu_numeric ns;
    attu_interval iv;     /* sum, min, max of INTERVAL */
    int64_t nscale[ATTU_NUMERIC_MAX_DIGITS + 1];
    int64_t nspecial[3];  /* NaN, Infinity, -Infinity in a NUMERIC sum */
    attu_regr_state rs;   /* corr / covar_* / regr_*: float8_regr_accum's state */
} win_acc;

/* NaN 0, Infinity 1, -Infinity 2; a number -1 */
static int special_slot(attu_numeric v) {
    return !attu_numeric_is_special(v) ? -1 : attu_numeric_is_nan(v) ? 0 : v.m > 0 ? 1 : 2;
}

/* A NUMERIC sum's value: NaN with a NaN or both infinities, else the
 * infinity, else the numbers' sum */
static attu_numeric win_acc_sum(const win_acc *acc) {
    if (acc->nspecial[0] || (acc->nspecial[1] && acc->nspecial[2])) return attu_numeric_nan();
    if (acc->nspecial[1]) return attu_numeric_inf(1);
    if (acc->nspecial[2]) return attu_numeric_inf(-1);
    return acc->ns;
}

static void win_acc_reset(win_acc *acc) { memset(acc, 0, sizeof *acc); }

/* The outcome of adding a row to a window aggregate. */
enum { WIN_OK = 0, WIN_INT_OVERFLOW, WIN_FLOAT_OVERFLOW, WIN_ERROR_SET };

/* PostgreSQL's float accumulation, one float input v: a sum adds as float8pl
 * (float4pl, rounding each step, for real) and an average keeps
 * float8_accum's Sx and Sxx; an infinite result from finite inputs is an
 * overflow (22003), an infinite input is not. n counts the inputs including
 * v; *sx is 0 and has false before the first. */
static int win_float_add(int op, bool f4, int64_t n, double *sx, double *sxx, bool has, double v) {
    if (op == ATTU_REDUCE_SUM) {
        double s = has ? *sx + v : v;
        if (f4) s = (float)s;
        if (isinf(s) && !isinf(v) && !(has && isinf(*sx))) return WIN_FLOAT_OVERFLOW;
        *sx = s;
        return WIN_OK;
    }
    double osx = *sx, nn = (double)n;
    *sx += v;
    if (n > 1) {
        double t = v * nn - *sx;
        *sxx += t * t / (nn * (nn - 1));
        if (isinf(*sx) || isinf(*sxx)) {
            if (!isinf(osx) && !isinf(v)) return WIN_FLOAT_OVERFLOW;
            *sxx = NAN;
        }
    } else *sxx = (isinf(v) || isnan(v)) ? NAN : 0;
    return WIN_OK;
}

static int win_error(xctx *x, int rc) {
    if (rc == WIN_ERROR_SET) return -1;     /* the numeric arithmetic has set it */
    return attu_error_set(x->err, ATTU_SQLSTATE_NUMERIC_RANGE, 0,
                          rc == WIN_FLOAT_OVERFLOW ? "value out of range: overflow" : "bigint out of range");
}

/* Whether aggregate g adds its argument exactly, as a numeric: avg of an
 * integer or decimal, any aggregate of a NUMERIC argument, and sums with a
 * NUMERIC result (of bigint and decimal). */
static bool win_numeric(const attu_stage_agg *g, const xcol *a) {
    if (!a || g->op == ATTU_REDUCE_COUNT || g->op == ATTU_REDUCE_COUNT_STAR) return false;
    if (attu_type_mclass(a->type.id) == ATTU_MC_FLOAT) return false;
    return a->type.id == ATTU_TYPE_NUMERIC || g->op == ATTU_REDUCE_AVG_SUM || g->out_type.id == ATTU_TYPE_NUMERIC;
}

/* The exact argument at row as a numeric (a DECIMAL keeps its scale). */
static attu_numeric win_num(const xcol *a, const void *ad, size_t row) {
    if (a->type.id == ATTU_TYPE_NUMERIC) return attu_numeric_unpack((const char *)ad + row * 16);
    return attu_numeric_from_decimal(load_i(ad, a->type.id, row), a->type.id == ATTU_TYPE_DECIMAL ? a->type.scale : 0);
}

/* Whether a comes after b in PostgreSQL's order of floats, where NaN
 * follows every number and equals NaN. */
static bool float_above(double a, double b) {
    if (isnan(a)) return !isnan(b);
    return !isnan(b) && a > b;
}

/* Adds the row `row` to acc for aggregate g over the argument column a
 * (data ad, validity av; REGR's X, a float64 column, in bd / bv). Returns
 * WIN_OK or the overflow met (with WIN_ERROR_SET, err holds it). */
static int win_acc_add(win_acc *acc, const attu_stage_agg *g, const xcol *a, const void *ad, const uint8_t *av,
                       const void *bd, const uint8_t *bv, size_t row, attu_error *err) {
    if (g->op == ATTU_REDUCE_COUNT_STAR) { acc->cnt++; return WIN_OK; }
    if (av && !av[row]) return WIN_OK;
    if (g->op == ATTU_REDUCE_REGR) {
        /* a (Y, X) pair counts where X is non-NULL too */
        if (bv && !bv[row]) return WIN_OK;
        if (attu_regr_accum(&acc->rs, load_f(ad, a->type.id, row), load_f(bd, ATTU_TYPE_FLOAT64, row), err))
            return WIN_ERROR_SET;
        acc->cnt++;
        acc->has = true;
        return WIN_OK;
    }
    acc->cnt++;
    if (g->op == ATTU_REDUCE_COUNT) return WIN_OK;
    if (a->type.id == ATTU_TYPE_INTERVAL) {
        /* interval_pl (22008), and interval_smaller / interval_larger, which
         * keep the later of equal spans, as the plain aggregates */
        attu_interval v;
        memcpy(&v, (const char *)ad + row * 16, sizeof v);
        if (g->op == ATTU_REDUCE_SUM) {
            if (!acc->has) acc->iv = v;
            else if (attu_interval_add(acc->iv, v, &acc->iv, err)) return WIN_ERROR_SET;
        } else if (g->op == ATTU_REDUCE_MIN || g->op == ATTU_REDUCE_MAX) {
            int c = acc->has ? attu_interval_cmp(v, acc->iv) : 0;
            if (!acc->has || (g->op == ATTU_REDUCE_MAX ? c >= 0 : c <= 0)) acc->iv = v;
        }
        acc->has = true;
        return WIN_OK;
    }
    if (win_numeric(g, a)) {
        attu_numeric v = win_num(a, ad, row);
        if (g->op == ATTU_REDUCE_SUM || g->op == ATTU_REDUCE_AVG_SUM) {
            int sp = special_slot(v);
            if (sp >= 0) {
                acc->nspecial[sp]++;
                if (!acc->has) { acc->ns.m = 0; acc->ns.dscale = 0; }
                acc->has = true;
                return WIN_OK;
            }
            if (!acc->has) acc->ns = v;
            else if (attu_numeric_add(acc->ns, v, &acc->ns, err)) return WIN_ERROR_SET;
            acc->nscale[v.dscale]++;
        } else if (g->op == ATTU_REDUCE_MIN || g->op == ATTU_REDUCE_MAX) {
            /* PostgreSQL's numeric_smaller / numeric_larger keep the later
             * of equal values (1.0, then 1.00: 1.00) */
            int c = acc->has ? attu_numeric_cmp(v, acc->ns) : 0;
            if (!acc->has || (g->op == ATTU_REDUCE_MAX ? c >= 0 : c <= 0)) acc->ns = v;
        }
        acc->has = true;
        return WIN_OK;
    }
    bool afl = attu_type_mclass(a->type.id) == ATTU_MC_FLOAT;
    if (g->op == ATTU_REDUCE_SUM || g->op == ATTU_REDUCE_AVG_SUM) {
        if (afl) {
            int rc = win_float_add(g->op, a->type.id == ATTU_TYPE_FLOAT32, acc->cnt, &acc->sf, &acc->sxx, acc->has,
                                   load_f(ad, a->type.id, row));
            if (rc) return rc;
        } else if (__builtin_add_overflow(acc->si, load_i(ad, a->type.id, row), &acc->si)) return WIN_INT_OVERFLOW;
        acc->has = true;
    } else if (g->op == ATTU_REDUCE_MIN || g->op == ATTU_REDUCE_MAX) {
        bool mx = g->op == ATTU_REDUCE_MAX;
        if (afl) {
            /* PostgreSQL's order: NaN above every number (float8larger
             * / float8smaller), so a frame with a NaN has max NaN */
            double v = load_f(ad, a->type.id, row);
            if (!acc->has || (mx ? float_above(v, acc->sf) : float_above(acc->sf, v))) acc->sf = v;
        }
        else { int64_t v = load_i(ad, a->type.id, row); if (!acc->has || (mx ? v > acc->si : v < acc->si)) acc->si = v; }
        acc->has = true;
    } else if (g->op == ATTU_REDUCE_BIT_AND || g->op == ATTU_REDUCE_BIT_OR || g->op == ATTU_REDUCE_BIT_XOR) {
        int64_t v = load_i(ad, a->type.id, row);
        acc->si = !acc->has ? v : g->op == ATTU_REDUCE_BIT_AND ? acc->si & v : g->op == ATTU_REDUCE_BIT_OR ? acc->si | v : acc->si ^ v;
        acc->has = true;
    }
    return WIN_OK;
}

/* Whether a sliding frame can take rows out of aggregate g's state
 * (win_acc_remove): counts, and sums of exact arguments. */
static bool win_slides(const attu_stage_agg *g, const xcol *a) {
    if (g->op == ATTU_REDUCE_COUNT || g->op == ATTU_REDUCE_COUNT_STAR) return true;
    return (g->op == ATTU_REDUCE_SUM || g->op == ATTU_REDUCE_AVG_SUM) && a && attu_type_mclass(a->type.id) != ATTU_MC_FLOAT &&
           a->type.id != ATTU_TYPE_INTERVAL;   /* interval sums are recomputed per frame */
}

/* Takes the row `row`, added earlier, out of acc (win_slides aggregates
 * only). An exact sum keeps the dscale of the values still in the frame:
 * when the last value of the largest dscale leaves, the sum (whose digits
 * past the next largest dscale are then zeros) is rescaled down to it, as
 * PostgreSQL's do_numeric_discard restarts the sum. */
static int win_acc_remove(win_acc *acc, const attu_stage_agg *g, const xcol *a, const void *ad, const uint8_t *av, size_t row,
                          attu_error *err) {
    if (g->op == ATTU_REDUCE_COUNT_STAR) { acc->cnt--; return WIN_OK; }
    if (av && !av[row]) return WIN_OK;
    acc->cnt--;
    if (g->op == ATTU_REDUCE_COUNT) return WIN_OK;
    acc->has = acc->cnt > 0;
    if (!win_numeric(g, a)) { acc->si -= load_i(ad, a->type.id, row); return WIN_OK; }   /* sum(integer): stays in bigint */
    attu_numeric v = win_num(a, ad, row);
    int sp = special_slot(v);
    if (sp >= 0) acc->nspecial[sp]--;
    else acc->nscale[v.dscale]--;
    if (!acc->has) { acc->ns.m = 0; acc->ns.dscale = 0; return WIN_OK; }
    if (sp >= 0) return WIN_OK;
    if (attu_numeric_sub(acc->ns, v, &acc->ns, err)) return WIN_ERROR_SET;
    int d = acc->ns.dscale;
    while (d > 0 && acc->nscale[d] == 0) d--;
    for (; acc->ns.dscale > d; acc->ns.dscale--) acc->ns.m /= 10;
    return WIN_OK;
}

/* RANGE with offsets: the order key (data kd of type kt, validity kv; a
 * DECIMAL's scale kscale) of the row at each ordered position (pp), and its
 * direction. */
typedef struct win_rkey {
    const void *kd; const uint8_t *kv; attu_type_id kt; int kscale; const int64_t *pp; bool desc, nulls_first;
} win_rkey;

/* A DECIMAL or NUMERIC order key at data row i as a numeric value, negated
 * when the order is DESC. NaN, which sorts last, negated is NEG_NAN (m -2
 * of the special dscale), which win_num_cmp puts below -Infinity: so the
 * keys ascend along the ordered rows either way. */
#define WIN_NEG_NAN_M (-2)
static attu_numeric win_rkey_numeric(const win_rkey *rk, size_t i) {
    attu_numeric v = rk->kt == ATTU_TYPE_NUMERIC ? attu_numeric_unpack((const char *)rk->kd + 16 * i)
                   : attu_numeric_from_decimal(((const int64_t *)rk->kd)[i], rk->kscale);
    if (rk->desc) v.m = attu_numeric_is_nan(v) ? WIN_NEG_NAN_M : -v.m;
    return v;
}

/* attu_numeric_cmp, with a negated NaN below every value */
static int win_num_cmp(attu_numeric a, attu_numeric b) {
    bool na = attu_numeric_is_special(a) && a.m == WIN_NEG_NAN_M, nb = attu_numeric_is_special(b) && b.m == WIN_NEG_NAN_M;
    if (na || nb) return na == nb ? 0 : na ? -1 : 1;
    return attu_numeric_cmp(a, b);
}

/* Date, timestamp and timestamptz order keys take an interval offset. */
static bool win_datetime_key(attu_type_id t) {
    return t == ATTU_TYPE_DATE || t == ATTU_TYPE_TIMESTAMP || t == ATTU_TYPE_TIMESTAMPTZ;
}

/* The datetime key at data row i in microseconds: a date as its midnight
 * (its infinities as the timestamp's), as PostgreSQL's in_range for dates
 * compares them */
static int64_t win_datetime_at(const win_rkey *rk, size_t i) {
    int64_t v = load_i(rk->kd, rk->kt, i);
    if (rk->kt != ATTU_TYPE_DATE) return v;
    if (v == INT32_MAX) return INT64_MAX;
    if (v == INT32_MIN) return INT64_MIN;
    return v * 86400000000LL;
}

/* PostgreSQL's in_range for float keys (offset >= 0, not NaN): whether
 * val lies on the frame's side of base -/+ offset (sub: minus; less: val
 * <= the bound, else >=). NaN sorts after every number and equals NaN, so
 * the offset cannot move a bound across it; where base and offset are
 * both infinite (inf - inf would be NaN) every value is taken as in range,
 * as PostgreSQL chooses; otherwise the sum's infinities compare as they
 * fall. */
static bool float_in_range(double val, double base, double offset, bool sub, bool less) {
    if (isnan(val)) return isnan(base) ? true : !less;
    if (isnan(base)) return less;
    if (isinf(offset) && isinf(base) && (sub ? base > 0 : base < 0)) return true;
    double bound = sub ? base - offset : base + offset;
    return less ? val <= bound : val >= bound;
}

/* RANGE offset bound of the row at position q in partition [b, e) (peer
 * group [pb, pe)): with u = the key (negated when DESC), the start is the
 * first row with u >= u(q) -/+ offset, the end the first row with u >
 * u(q) -/+ offset, among the rows with a key; a row without one (NULL)
 * gets its peer group, as PostgreSQL does. */
static size_t win_range_bound(const attu_stage_agg *g, const win_rkey *rk, int which, size_t b, size_t e, size_t pb, size_t pe, size_t q) {
    const int64_t *pp = rk->pp;
    #define RK_NULL(pos) (rk->kv && !rk->kv[pp[pos]])
    if (RK_NULL(q)) return which ? pe : pb;
    /* the rows with keys: nulls are a prefix (NULLS FIRST) or a suffix */
    size_t lo = b, hi = e;
    while (lo < hi) {   /* first position whose null-ness is "after" */
        size_t mid = lo + (hi - lo) / 2;
        bool after = rk->nulls_first ? !RK_NULL(mid) : RK_NULL(mid);
        if (after) hi = mid; else lo = mid + 1;
    }
    size_t nb = rk->nulls_first ? lo : b, ne = rk->nulls_first ? e : lo;
    bool preceding = g->frame_kind[which] == ATTU_WB_PRECEDING, strict = which == 1;
    bool flt = attu_type_mclass(rk->kt) == ATTU_MC_FLOAT;
    bool num = rk->kt == ATTU_TYPE_DECIMAL || rk->kt == ATTU_TYPE_NUMERIC;
    bool dtk = win_datetime_key(rk->kt);
    double tf = 0; __int128 ti = 0;
    /* DECIMAL / NUMERIC keys: the target as a numeric value (the offset is
     * frame_off / 10^frame_off_scale); one past NUMERIC's 36 digits lies
     * beyond every key (tinf -1 below all, +1 above all), as PostgreSQL's
     * unbounded numerics would have it */
    attu_numeric tn = { 0, 0 };
    int tinf = 0;
    if (num) {
        attu_numeric u = win_rkey_numeric(rk, (size_t)pp[q]);
        attu_numeric off = attu_numeric_from_decimal(g->frame_off[which], g->frame_off_scale[which]);
        attu_error scratch = { 0 };
        /* a NaN or infinite key is its own bound (PostgreSQL's
         * in_range_numeric_numeric: NaN is in range of NaN only, and a
         * finite offset does not move an infinity) */
        if (attu_numeric_is_special(u)) tn = u;
        else if ((preceding ? attu_numeric_sub(u, off, &tn, &scratch) : attu_numeric_add(u, off, &tn, &scratch)) != 0)
            tinf = preceding ? -1 : 1;
    } else if (flt) {
        /* floats follow PostgreSQL's in_range rules (NaN and infinities
         * below), not u -/+ offset: the key itself, unnegated */
        tf = load_f(rk->kd, rk->kt, (size_t)pp[q]);
    } else if (dtk) {
        /* date / timestamp keys: the key (a date as its midnight) plus or
         * minus the interval on the calendar, as PostgreSQL's
         * in_range_timestamp_interval: DESC swaps the side. An infinite
         * key is its own bound; a bound past the timestamp range lies
         * beyond every key on its side. */
        bool sub = preceding != rk->desc;
        int64_t base = win_datetime_at(rk, (size_t)pp[q]), t;
        attu_interval iv = { g->frame_off_months[which], g->frame_off_days[which], g->frame_off[which] };
        attu_error scratch = { 0 };
        const attu_tz *zone = rk->kt == ATTU_TYPE_TIMESTAMPTZ ? attu_tz_by_id(g->frame_off_zone) : NULL;
        if (base == INT64_MAX || base == INT64_MIN) t = base;
        else if ((sub && attu_interval_neg(iv, &iv, &scratch)) ||
                 (zone ? attu_timestamptz_add_interval(zone, base, iv, &t) : attu_timestamp_add_interval(base, iv, &t)))
            tinf = (sub ? -1 : 1) * (rk->desc ? -1 : 1);
        if (!tinf) ti = rk->desc ? -(__int128)t : (__int128)t;
    } else {
        __int128 u = load_i(rk->kd, rk->kt, (size_t)pp[q]); if (rk->desc) u = -u;
        ti = preceding ? u - g->frame_off[which] : u + g->frame_off[which];
    }
    lo = nb; hi = ne;
    while (lo < hi) {   /* first position with u >= target (start) or u > target (end) */
        size_t mid = lo + (hi - lo) / 2;
        bool past;
        if (num) {
            int cmp = tinf ? -tinf : win_num_cmp(win_rkey_numeric(rk, (size_t)pp[mid]), tn);
            past = strict ? cmp > 0 : cmp >= 0;
        } else if (dtk) {
            __int128 u = win_datetime_at(rk, (size_t)pp[mid]);
            if (rk->desc) u = -u;
            int cmp = tinf ? -tinf : (u > ti) - (u < ti);
            past = strict ? cmp > 0 : cmp >= 0;
        } else if (flt) {
            /* PostgreSQL's frame: the start is the first row in range
             * (val >= base - offset, flipped when DESC), the end the
             * first row past it (val <= base + offset no longer holds) */
            double val = load_f(rk->kd, rk->kt, (size_t)pp[mid]);
            bool sub = preceding, less = strict;
            if (rk->desc) { sub = !sub; less = !less; }
            bool in = float_in_range(val, tf, g->frame_offf[which], sub, less);
            past = strict ? !in : in;
        }
        else { __int128 u = load_i(rk->kd, rk->kt, (size_t)pp[mid]); if (rk->desc) u = -u; past = strict ? u > ti : u >= ti; }
        if (past) hi = mid; else lo = mid + 1;
    }
    #undef RK_NULL
    return lo;
}

/* GROUPS frames: the peer group number of each ordered position (counted
 * over all partitions) and the position of each group's head. */
typedef struct win_grp { const int64_t *gno, *ghead; } win_grp;

/* Whether the frame row at position f is left out by the frame's EXCLUDE
 * clause, for the current row at q whose peer group is [pb, pe). */
static bool win_excluded(const attu_stage_agg *g, size_t pb, size_t pe, size_t q, size_t f) {
    switch (g->frame_excl) {
    case 1: return f == q;                              /* CURRENT ROW */
    case 2: return f >= pb && f < pe;                   /* GROUP */
    case 3: return f != q && f >= pb && f < pe;         /* TIES */
    default: return false;
    }
}

/* The frame [*fs, *fe) of the row at ordered position q, for the general
 * frames (g->frame 3: ROWS, 4: RANGE, 5: GROUPS; rk: the order key for
 * RANGE offsets; gr: the peer groups for GROUPS), in the partition [b, e)
 * where q's peer group is [pb, pe). An empty frame has *fs == *fe; rows of
 * an EXCLUDE clause are left out by the caller (win_excluded). */
static void win_frame(const attu_stage_agg *g, const win_rkey *rk, const win_grp *gr, size_t b, size_t e, size_t pb, size_t pe, size_t q, size_t *fs, size_t *fe) {
    bool rows = g->frame == 3;
    if (g->frame == 5 && gr) {
        /* offsets count peer groups: k the group of q, [kb, kl] the partition's */
        int64_t k = gr->gno[q], kb = gr->gno[b], kl = gr->gno[e - 1];
        int64_t o0 = g->frame_off[0], o1 = g->frame_off[1];
        size_t s2, t2;
        switch (g->frame_kind[0]) {
        case ATTU_WB_UNBOUNDED_PRECEDING: s2 = b; break;
        case ATTU_WB_PRECEDING: s2 = o0 > k - kb ? b : (size_t)gr->ghead[k - o0]; break;
        case ATTU_WB_CURRENT_ROW: s2 = pb; break;
        case ATTU_WB_FOLLOWING: s2 = o0 > kl - k ? e : (size_t)gr->ghead[k + o0]; break;
        default: s2 = e; break;
        }
        switch (g->frame_kind[1]) {
        /* (0 PRECEDING ends with the row's own group: ghead[k + 1] would
         * be past the last group's head when k is the last group) */
        case ATTU_WB_PRECEDING: t2 = o1 > k - kb ? b : o1 == 0 ? pe : (size_t)gr->ghead[k - o1 + 1]; break;
        case ATTU_WB_CURRENT_ROW: t2 = pe; break;
        case ATTU_WB_FOLLOWING: t2 = o1 >= kl - k ? e : (size_t)gr->ghead[k + o1 + 1]; break;
        default: t2 = e; break;
        }
        if (t2 < s2) t2 = s2;
        *fs = s2; *fe = t2;
        return;
    }
    if (!rows && rk) {
        size_t s2 = g->frame_kind[0] == ATTU_WB_UNBOUNDED_PRECEDING ? b : g->frame_kind[0] == ATTU_WB_CURRENT_ROW ? pb
                  : win_range_bound(g, rk, 0, b, e, pb, pe, q);
        size_t t2 = g->frame_kind[1] == ATTU_WB_UNBOUNDED_FOLLOWING ? e : g->frame_kind[1] == ATTU_WB_CURRENT_ROW ? pe
                  : win_range_bound(g, rk, 1, b, e, pb, pe, q);
        if (t2 < s2) t2 = s2;
        *fs = s2; *fe = t2;
        return;
    }
    int64_t lo = (int64_t)b, hi = (int64_t)e, s, t;
    int64_t sq = (int64_t)q;
    switch (g->frame_kind[0]) {
    case ATTU_WB_UNBOUNDED_PRECEDING: s = lo; break;
    case ATTU_WB_PRECEDING: s = g->frame_off[0] > sq - lo ? lo : sq - g->frame_off[0]; break;
    case ATTU_WB_CURRENT_ROW: s = rows ? sq : (int64_t)pb; break;
    case ATTU_WB_FOLLOWING: s = g->frame_off[0] > hi - sq ? hi : sq + g->frame_off[0]; break;
    default: s = hi; break;
    }
    switch (g->frame_kind[1]) {
    case ATTU_WB_PRECEDING: t = g->frame_off[1] > sq - lo ? lo : sq - g->frame_off[1] + 1; break;
    case ATTU_WB_CURRENT_ROW: t = rows ? sq + 1 : (int64_t)pe; break;
    case ATTU_WB_FOLLOWING: t = g->frame_off[1] >= hi - sq ? hi : sq + g->frame_off[1] + 1; break;
    default: t = hi; break;
    }
    if (t < s) t = s;
    *fs = (size_t)s; *fe = (size_t)t;
}

/* string_agg(x, sep) and array_agg(x) (its one-element encodings joined with
 * an empty separator, planner/array_bind.c) as window functions: each row's
 * text is its frame's non-NULL inputs in window order, each but the first
 * preceded by its own row's separator (a NULL separator adds nothing), as
 * PostgreSQL's string_agg_transfn; NULL when the frame holds none. The
 * frame of a row: the partition without ORDER BY or for frame 1, the rows
 * up to its last peer for the default frame, up to itself for frame 2, and
 * win_frame's range less the EXCLUDE rows for the general frames. A frame
 * that only grows from the same head extends the text so far (running
 * frames stay linear in the output); rows with the frame of the row before
 * share its string; others are built afresh, O(frame) per row, as
 * PostgreSQL restarts an aggregate without an inverse. The texts are joined
 * on the host and get one new dictionary, on either backend. */
static xcol *win_string_agg(xctx *x, const attu_stage_agg *g, const xcol *a, const int32_t *codes, const uint8_t *av,
                            const xcol *sepc, const win_rkey *rk, const win_grp *gr, const int64_t *hp, size_t nph,
                            const int64_t *pp, const uint8_t *ph8, size_t n) {
    xcol *o = NULL;
    int32_t *sc = NULL, *ucodes = NULL, *out = NULL;
    uint8_t *sv = NULL, *vv = NULL;
    int64_t *which = calloc(n + 1, sizeof *which);
    char **strs = NULL, *buf = NULL;
    size_t *lens = NULL, ns = 0, cap = 0, blen = 0, bcap = 0;
    attu_dictionary *dict = NULL;
    if (!which) { attu_error_oom(x->err); goto done; }
    if (n && (!a->dict || (sepc && !sepc->dict))) {   /* (no rows: an empty dictionary) */
        attu_error_set(x->err, ATTU_SQLSTATE_INTERNAL, 0, "string_agg over a window: a text input without its dictionary");
        goto done;
    }
    if (sepc) {
        sc = download_all(x, sepc->data, n * 4);
        sv = sepc->valid ? download_all(x, sepc->valid, n) : NULL;
        if (!sc || (sepc->valid && !sv)) goto done;
    }
    for (size_t s = 0; s < nph; s++) {
        size_t b = (size_t)hp[s], e = s + 1 < nph ? (size_t)hp[s + 1] : n;
        /* buf holds the text of [wfs, wfe) (whas: any input in it); the
         * last string pushed is that of the frame [lfs, lfe) */
        size_t wfs = b, wfe = b, lfs = b, lfe = b;
        bool whas = false, lvalid = false, fresh = true;
        blen = 0;
        size_t pos = b;
        while (pos < e) {
            size_t pe = pos + 1;
            if (g->norder && g->frame != 1) while (pe < e && !ph8[pe]) pe++;
            else pe = e;
            for (size_t q = pos; q < pe; q++) {
                size_t row = (size_t)pp[q], fs = b, fe = e;
                switch (g->frame) {
                case 0: fe = g->norder ? pe : e; break;
                case 1: break;
                case 2: fe = q + 1; break;
                default: win_frame(g, rk, gr, b, e, pos, pe, q, &fs, &fe); break;
                }
                if (!g->frame_excl && !fresh && fs == lfs && fe == lfe) {   /* the row before's frame */
                    which[row] = lvalid ? (int64_t)ns - 1 : -1;
                    continue;
                }
                if (g->frame_excl || fs != wfs || fe < wfe) { wfs = wfe = fs; whas = false; blen = 0; }
                for (size_t f = wfe; f < fe; f++) {
                    if (g->frame_excl && win_excluded(g, pos, pe, q, f)) continue;
                    size_t r = (size_t)pp[f], vl, sl = 0;
                    if (av && !av[r]) continue;
                    const char *v = attu_dictionary_get(a->dict, codes[r], &vl), *sp = NULL;
                    if (whas && sepc && !(sv && !sv[r])) sp = attu_dictionary_get(sepc->dict, sc[r], &sl);
                    if (blen + sl + vl + 1 > bcap) {
                        size_t nc = (blen + sl + vl + 1) * 2;
                        char *nb = realloc(buf, nc);
                        if (!nb) { attu_error_oom(x->err); goto done; }
                        buf = nb; bcap = nc;
                    }
                    if (sl) memcpy(buf + blen, sp, sl);
                    memcpy(buf + blen + sl, v, vl);
                    blen += sl + vl;
                    whas = true;
                }
                wfe = fe;
                fresh = false;
                lfs = fs; lfe = fe; lvalid = whas;
                if (!whas) { which[row] = -1; continue; }
                if (ns == cap) {
                    size_t nc = cap ? cap * 2 : 64;
                    char **ns2 = realloc(strs, nc * sizeof *strs);
                    if (ns2) strs = ns2;
                    size_t *nl2 = ns2 ? realloc(lens, nc * sizeof *lens) : NULL;
                    if (!ns2 || !nl2) { attu_error_oom(x->err); goto done; }
                    lens = nl2; cap = nc;
                }
                if (!(strs[ns] = malloc(blen + 1))) { attu_error_oom(x->err); goto done; }
                memcpy(strs[ns], buf, blen);
                lens[ns] = blen;
                which[row] = (int64_t)ns++;
            }
            pos = pe;
        }
    }
    ucodes = malloc((ns + 1) * sizeof *ucodes);
    out = calloc(n + 1, sizeof *out);
    vv = calloc(n + 1, 1);
    if (!ucodes || !out || !vv) { attu_error_oom(x->err); goto done; }
    if (!(dict = attu_dictionary_build((const char *const *)strs, lens, ns, ucodes, x->err))) goto done;
    for (size_t i = 0; i < n; i++)
        if (which[i] >= 0) { out[i] = ucodes[which[i]]; vv[i] = 1; }    /* NULL rows keep code 0 */
    if (!(o = xcol_new(x, g->out_type, n, true))) goto done;
    if (x->be->upload(x->be, o->data, 0, out, n * 4, x->err) || x->be->upload(x->be, o->valid, 0, vv, n, x->err)) {
        xcol_unref(x, o);
        o = NULL;
        goto done;
    }
    o->dict = dict;
    dict = NULL;
done:
    if (dict) attu_dictionary_unref(dict);
    for (size_t i = 0; i < ns; i++) free(strs[i]);
    free(strs); free(lens); free(buf); free(which); free(sc); free(sv); free(ucodes); free(out); free(vv);
    return o;
}

/* One window call: partitions by sort + segment heads, order within each
 * partition by segmented_sort; ranking functions then come from
 * window_rank on the backend, the other functions from host loops over the
 * ordered positions. */
static xcol *window_call(xctx *x, const attu_stage_agg *g, xcol **keys, xcol **args, size_t n) {
    int np = g->npart, no = g->norder;
    attu_sort_key *sk = calloc((size_t)(np + no) + 1, sizeof *sk);
    attu_vec *kv = calloc((size_t)(np + no) + 1, sizeof *kv);
    attu_buf *perm = buf_i64(x, n), *ph = NULL, *peer = NULL, *off = NULL;
    size_t nph = 0, npeer = 0;
    int64_t *pp = NULL, *hp = NULL, *peerp = NULL;
    void *ad = NULL; uint8_t *av = NULL;
    xcol *o = NULL;
    int64_t *vi = NULL; double *vf = NULL; uint8_t *vv = NULL;
    unsigned char *nv = NULL;   /* NUMERIC results (packed 16-byte slots) */
    void *dd = NULL;
    uint8_t *dv = NULL;
    void *nthd = NULL; uint8_t *nthv = NULL;   /* nth_value's n */
    void *bd = NULL; uint8_t *bv = NULL;       /* corr / regr_*'s X */
    void *rkd = NULL; uint8_t *rkv = NULL;     /* RANGE offsets: the order key */
    win_rkey rk, *rkp = NULL;
    int64_t *gno = NULL, *ghead = NULL;        /* GROUPS frames: the peer groups */
    win_grp gr = { NULL, NULL };
    if (!sk || !kv || !perm) { if (!x->err->set) attu_error_oom(x->err); goto done; }
    if (win_negative_range(g) && n) {
        /* A negative (or NaN) RANGE offset is PostgreSQL's in_range error,
         * raised where it first compares a key with it: at a row whose
         * order key is not NULL, whatever the function (row_number too).
         * Over no such row (no rows, or only NULL keys) there is none;
         * the planner keeps the offset for this check
         * (planner/functions.c). */
        const xcol *kc = keys[g->order[0]];
        uint8_t *v = kc->valid ? download_all(x, kc->valid, n) : NULL;
        if (kc->valid && !v) goto done;
        bool any = !v;
        for (size_t i = 0; v && !any && i < n; i++) any = v[i] != 0;
        free(v);
        if (any) { attu_error_set(x->err, "22013", 0, "invalid preceding or following size in window function"); goto done; }
    }
    for (int i = 0; i < np; i++) { kv[i] = vec_of(keys[g->part[i]]); sk[i].col = kv[i]; }
    for (int i = 0; i < no; i++) {
        kv[np + i] = vec_of(keys[g->order[i]]);
        sk[np + i].col = kv[np + i]; sk[np + i].desc = g->desc[i]; sk[np + i].nulls_first = g->nulls_first[i];
    }
    /* (avg: double precision of floats, NUMERIC of integers and decimals) */
    attu_type ot = g->out_type;
    bool fl = attu_type_mclass(ot.id) == ATTU_MC_FLOAT;
    /* One stable sort by the partition keys and then the order keys gives
     * each partition's rows in window order, as a sort by the partition
     * keys and a segmented sort of each partition by the order keys does
     * (both keep ties in row order). On an H100 the cities query's window
     * (52 states, d3 DESC NULLS LAST) sorts in 0.26 ms that way, where the
     * state sort, its heads and the segmented sort took 0.34 ms (1.50
     * against 1.56 ms for the query). ATTU_WINDOW_SEGMENTED_SORT=1 takes
     * the segmented sort. */
    const char *seg_env = getenv("ATTU_WINDOW_SEGMENTED_SORT");
    bool segmented = no && seg_env && *seg_env == '1';
    if (exec_sort(x, sk, segmented ? np : np + no, n, perm)) goto done;
    /* The partition offsets (heads, then n) are built on the backend, so
     * the ranking path below never brings rows to the host. */
    int64_t end = (int64_t)n;
    if (np) {
        if (exec_segment_heads(x, kv, np, perm, n, &ph, &nph)) goto done;
        off = buf_i64(x, nph + 1);
        attu_buf *idx = buf_i64(x, nph);
        attu_buf ov = off ? view(off, 0, nph * 8) : (attu_buf){ 0 };
        int rc = !off || !idx || x->be->iota(x->be, idx, 0, nph, x->err) ||
                 x->be->gather(x->be, &ov, NULL, ph, NULL, 8, idx, nph, x->err) ||
                 x->be->upload(x->be, off, nph * 8, &end, 8, x->err);
        free_buf(x, idx);
        if (rc) goto done;
    } else {
        int64_t b2[2] = { 0, end };
        nph = n ? 1 : 0;
        off = buf_i64(x, 2);
        if (!off || x->be->upload(x->be, off, 0, n ? b2 : b2 + 1, (nph + 1) * 8, x->err)) goto done;
    }
    if (segmented && exec_segmented_sort(x, sk + np, no, off, nph, perm, n)) goto done;
    int rank_kind = g->win == ATTU_WIN_ROW_NUMBER ? ATTU_RANK_ROW_NUMBER
                  : g->win == ATTU_WIN_RANK ? ATTU_RANK_RANK
                  : g->win == ATTU_WIN_DENSE_RANK ? ATTU_RANK_DENSE_RANK : -1;
    if (rank_kind >= 0 && x->be->window_rank && ot.id == ATTU_TYPE_INT64) {
        /* ranking functions: computed where the rows are (window_rank) */
        if (rank_kind != ATTU_RANK_ROW_NUMBER &&
            exec_segment_heads(x, kv, np + no, perm, n, &peer, &npeer)) goto done;
        xcol *r = xcol_new(x, ot, n, false);
        if (!r) goto done;
        if (x->be->window_rank(x->be, (attu_rank_kind)rank_kind, perm, n, off, nph, peer, npeer, r->data, x->err)) {
            xcol_unref(x, r);
            goto done;
        }
        o = r;
        goto done;
    }
    hp = download_all(x, off, nph * 8);
    if (!hp) goto done;
    if (exec_segment_heads(x, kv, np + no, perm, n, &peer, &npeer)) goto done;
    pp = download_all(x, perm, n * 8);
    peerp = download_all(x, peer, npeer * 8);
    if (!pp || !peerp) goto done;
    vi = calloc(n + 1, sizeof *vi); vf = calloc(n + 1, sizeof *vf); vv = calloc(n + 1, 1);
    if (attu_type_is_wide(ot.id) && !(nv = calloc(n + 1, 16))) { attu_error_oom(x->err); goto done; }
    if (!vi || !vf || !vv) { attu_error_oom(x->err); goto done; }
    xcol *a = g->in >= 0 ? args[g->in] : NULL;
    xcol *dflt = g->arg >= 0 && (g->win == ATTU_WIN_LAG || g->win == ATTU_WIN_LEAD) ? args[g->arg] : NULL;
    if (dflt && ot.id == ATTU_TYPE_TEXT && dflt->dict != a->dict) {
        attu_error_set(x->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "a text default of lag/lead must come from the same column");
        goto done;
    }
    if (a) {
        ad = download_all(x, a->data, n * attu_type_width(a->type.id));
        av = a->valid ? download_all(x, a->valid, n) : NULL;
        if (!ad || (a->valid && !av)) goto done;
    }
    if (dflt) {
        dd = download_all(x, dflt->data, n * attu_type_width(dflt->type.id));
        dv = dflt->valid ? download_all(x, dflt->valid, n) : NULL;
        if (!dd || (dflt->valid && !dv)) goto done;
    }
    if (g->win == ATTU_WIN_AGG && g->op == ATTU_REDUCE_REGR) {
        /* X, float64 as bound (Y is a) */
        const xcol *xc = args[g->arg];
        bd = download_all(x, xc->data, n * attu_type_width(xc->type.id));
        bv = xc->valid ? download_all(x, xc->valid, n) : NULL;
        if (!bd || (xc->valid && !bv)) goto done;
    }
    if (g->win == ATTU_WIN_NTH_VALUE) {
        /* nth_value's n, an integer for each row */
        const xcol *nc = args[g->arg];
        nthd = download_all(x, nc->data, n * attu_type_width(nc->type.id));
        nthv = nc->valid ? download_all(x, nc->valid, n) : NULL;
        if (!nthd || (nc->valid && !nthv)) goto done;
    }
    /* is_peer_head[pos] */
    if (g->frame == 4 && no == 1 && (g->frame_kind[0] == ATTU_WB_PRECEDING || g->frame_kind[0] == ATTU_WB_FOLLOWING ||
                                     g->frame_kind[1] == ATTU_WB_PRECEDING || g->frame_kind[1] == ATTU_WB_FOLLOWING)) {
        const xcol *kc = keys[g->order[0]];
        rkd = download_all(x, kc->data, n * attu_type_width(kc->type.id));
        rkv = kc->valid ? download_all(x, kc->valid, n) : NULL;
        if (!rkd || (kc->valid && !rkv)) goto done;
        rk = (win_rkey){ .kd = rkd, .kv = rkv, .kt = kc->type.id, .kscale = kc->type.scale, .pp = pp, .desc = g->desc[0], .nulls_first = g->nulls_first[0] };
        rkp = &rk;
    }
    uint8_t *ph8 = calloc(n + 1, 1);
    if (!ph8) { attu_error_oom(x->err); goto done; }
    for (size_t i = 0; i < npeer; i++) ph8[peerp[i]] = 1;
    if (g->frame == 5 && n) {
        gno = malloc(n * sizeof *gno); ghead = malloc(n * sizeof *ghead);
        if (!gno || !ghead) { free(ph8); attu_error_oom(x->err); goto done; }
        int64_t k = -1;
        for (size_t q = 0; q < n; q++) {
            if (q == 0 || ph8[q]) ghead[++k] = (int64_t)q;
            gno[q] = k;
        }
        gr = (win_grp){ gno, ghead };
    }
    if (g->win == ATTU_WIN_AGG && g->op == ATTU_REDUCE_STRING_AGG) {
        o = win_string_agg(x, g, a, ad, av, g->arg >= 0 ? args[g->arg] : NULL, rkp, &gr, hp, nph, pp, ph8, n);
        free(ph8);
        goto done;
    }
    for (size_t s = 0; s < nph; s++) {
        size_t b = (size_t)hp[s], e = s + 1 < nph ? (size_t)hp[s + 1] : n;
        int64_t rank = 0, dense = 0;
        /* run: the running state of the default frames; wacc: the state of
         * the general frame [wfs, wfe) last aggregated; tmp: a frame
         * aggregated afresh. cur points at the state the rows read. */
        win_acc run, wacc, tmp;
        win_acc_reset(&run); win_acc_reset(&wacc);
        const win_acc *cur = &run;
        int wrc;
        size_t wfs = b, wfe = b;
        size_t pos = b;
        if (g->win == ATTU_WIN_AGG && g->frame == 1) {
            /* the whole partition is the frame of every row */
            ph8[b] = 1;
            for (size_t q = b + 1; q < e; q++) ph8[q] = 0;
        }
        while (pos < e) {
            size_t pe = pos + 1;
            if (g->win == ATTU_WIN_AGG && g->frame == 2) pe = pos + 1;          /* ROWS: one row at a time */
            else if (no && !(g->win == ATTU_WIN_AGG && g->frame == 1)) while (pe < e && !ph8[pe]) pe++;
            else pe = e;      /* no ORDER BY (or the whole frame): one peer group */
            dense++;
            rank = (int64_t)(pos - b) + 1;
            if (g->win == ATTU_WIN_AGG && g->frame < 3)
                for (size_t q = pos; q < pe; q++)
                    if ((wrc = win_acc_add(&run, g, a, ad, av, bd, bv, (size_t)pp[q], x->err))) { free(ph8); win_error(x, wrc); goto done; }
            for (size_t q = pos; q < pe; q++) {
                size_t row = (size_t)pp[q];
                size_t fs = b, fe = e;     /* general frames (3, 4): this row's frame */
                if (g->frame >= 3) win_frame(g, rkp, &gr, b, e, pos, pe, q, &fs, &fe);
                if (g->frame >= 3 && g->win == ATTU_WIN_AGG) {
                    /* Both ends of the frame only move forward. With the head
                     * fixed (UNBOUNDED PRECEDING) rows are only added; counts
                     * and exact sums slide (win_acc_remove); other
                     * aggregates are recomputed over each frame, O(frame) per
                     * row, as PostgreSQL does for aggregates without an
                     * inverse (so float sums add in the same order). */
                    if (g->frame_excl) {
                        /* EXCLUDE: the frame less the excluded rows, in order */
                        win_acc_reset(&tmp);
                        for (size_t f = fs; f < fe; f++)
                            if (!win_excluded(g, pos, pe, q, f) && (wrc = win_acc_add(&tmp, g, a, ad, av, bd, bv, (size_t)pp[f], x->err))) {
                                free(ph8); win_error(x, wrc); goto done;
                            }
                        cur = &tmp;
                    } else if (g->frame_kind[0] == ATTU_WB_UNBOUNDED_PRECEDING || win_slides(g, a)) {
                        if (fs >= wfe) { win_acc_reset(&wacc); wfs = wfe = fs; }   /* no overlap: start afresh */
                        for (; wfs < fs; wfs++)
                            if ((wrc = win_acc_remove(&wacc, g, a, ad, av, (size_t)pp[wfs], x->err))) {
                                free(ph8); win_error(x, wrc); goto done;
                            }
                        for (; wfe < fe; wfe++)
                            if ((wrc = win_acc_add(&wacc, g, a, ad, av, bd, bv, (size_t)pp[wfe], x->err))) {
                                free(ph8); win_error(x, wrc); goto done;
                            }
                        cur = &wacc;
                    } else {
                        win_acc_reset(&tmp);
                        for (size_t f = fs; f < fe; f++)
                            if ((wrc = win_acc_add(&tmp, g, a, ad, av, bd, bv, (size_t)pp[f], x->err))) {
                                free(ph8); win_error(x, wrc); goto done;
                            }
                        cur = &tmp;
                    }
                }
                vv[row] = 1;
                switch (g->win) {
                case ATTU_WIN_ROW_NUMBER: vi[row] = (int64_t)(q - b) + 1; break;
                case ATTU_WIN_RANK: vi[row] = rank; break;
                case ATTU_WIN_DENSE_RANK: vi[row] = dense; break;
                case ATTU_WIN_PERCENT_RANK: vf[row] = e - b > 1 ? (double)(rank - 1) / (double)(e - b - 1) : 0; break;
                case ATTU_WIN_CUME_DIST: vf[row] = (double)(pe - b) / (double)(e - b); break;
                case ATTU_WIN_NTILE: {
                    int64_t N = (int64_t)(e - b), nb = g->k, i = (int64_t)(q - b);
                    int64_t per = N / nb, rem = N % nb;
                    vi[row] = i < rem * (per + 1) ? i / (per + 1) + 1 : rem + (per ? (i - rem * (per + 1)) / per : 0) + 1;
                    break;
                }
                case ATTU_WIN_LAG: case ATTU_WIN_LEAD: case ATTU_WIN_FIRST_VALUE: case ATTU_WIN_LAST_VALUE: {
                    int64_t src;
                    if (g->win == ATTU_WIN_LAG) src = (int64_t)q - g->k;
                    else if (g->win == ATTU_WIN_LEAD) src = (int64_t)q + g->k;
                    else if (g->frame >= 3) {
                        if (g->frame_excl) {     /* skip the excluded rows */
                            if (g->win == ATTU_WIN_FIRST_VALUE) while (fs < fe && win_excluded(g, pos, pe, q, fs)) fs++;
                            else while (fe > fs && win_excluded(g, pos, pe, q, fe - 1)) fe--;
                        }
                        if (fs == fe) { vv[row] = 0; break; }     /* empty frame: NULL */
                        src = g->win == ATTU_WIN_FIRST_VALUE ? (int64_t)fs : (int64_t)fe - 1;
                    }
                    else if (g->win == ATTU_WIN_FIRST_VALUE) src = (int64_t)b;
                    else src = g->frame == 1 || !no ? (int64_t)e - 1 : g->frame == 2 ? (int64_t)q : (int64_t)pe - 1;
                    const void *vd = ad; const uint8_t *vn = av; attu_type_id vt = a->type.id;
                    size_t srow;
                    if (src < (int64_t)b || src >= (int64_t)e) {
                        if (!dflt) { vv[row] = 0; break; }
                        vd = dd; vn = dv; vt = dflt->type.id; srow = row;
                    } else srow = (size_t)pp[src];
                    if (vn && !vn[srow]) { vv[row] = 0; break; }
                    if (nv) memcpy(nv + row * 16, (const char *)vd + srow * 16, 16);   /* NUMERIC, INTERVAL: value and default both are */
                    else if (fl) vf[row] = load_f(vd, vt, srow);
                    else vi[row] = load_i(vd, vt, srow);
                    break;
                }
                case ATTU_WIN_NTH_VALUE: {
                    /* PostgreSQL's nth_value: the n-th row of the row's
                     * frame (the default frame ends at the row's last
                     * peer), counting from the frame's head and skipping
                     * the rows an EXCLUDE leaves out; NULL past its end
                     * or for a NULL n, 22016 for n below 1 */
                    if (nthv && !nthv[row]) { vv[row] = 0; break; }
                    int64_t nth = load_i(nthd, args[g->arg]->type.id, row);
                    if (nth <= 0) {
                        free(ph8);
                        attu_error_set(x->err, "22016", 0, "argument of nth_value must be greater than zero");
                        goto done;
                    }
                    if (g->frame < 3) {
                        fs = b;
                        fe = g->frame == 1 ? e : g->frame == 2 ? q + 1 : pe;
                    }
                    size_t at = fe;
                    if (g->frame >= 3 && g->frame_excl) {
                        int64_t k = 0;
                        for (size_t f = fs; f < fe && at == fe; f++)
                            if (!win_excluded(g, pos, pe, q, f) && ++k == nth) at = f;
                    } else if ((uint64_t)nth <= (uint64_t)(fe - fs)) at = fs + (size_t)nth - 1;
                    if (at >= fe) { vv[row] = 0; break; }
                    size_t srow = (size_t)pp[at];
                    if (av && !av[srow]) { vv[row] = 0; break; }
                    if (nv) memcpy(nv + row * 16, (const char *)ad + srow * 16, 16);
                    else if (fl) vf[row] = load_f(ad, a->type.id, srow);
                    else vi[row] = load_i(ad, a->type.id, srow);
                    break;
                }
                default:
                    if (g->op == ATTU_REDUCE_COUNT || g->op == ATTU_REDUCE_COUNT_STAR) { vi[row] = cur->cnt; break; }
                    if (g->op == ATTU_REDUCE_REGR) {
                        /* the final function's value (k: attu_regr_kind) */
                        if ((attu_regr_kind)g->k == ATTU_REGR_COUNT) vi[row] = cur->cnt;
                        else if (!attu_regr_final(&cur->rs, (attu_regr_kind)g->k, &vf[row])) vv[row] = 0;
                        break;
                    }
                    if (!cur->has) { vv[row] = 0; break; }
                    if (ot.id == ATTU_TYPE_INTERVAL) { memcpy(nv + row * 16, &cur->iv, 16); break; }
                    if (g->avg && nv) {
                        /* PostgreSQL's numeric avg: the exact sum / count
                         * at select_div_scale */
                        attu_numeric avg;
                        if (attu_numeric_div(win_acc_sum(cur), attu_numeric_from_int64(cur->cnt), &avg, x->err)) { free(ph8); goto done; }
                        attu_numeric_pack(avg, nv + row * 16);
                    } else if (g->avg) {
                        vf[row] = cur->sf / (double)cur->cnt;   /* floats */
                    } else if (nv) {
                        /* exact sums, NUMERIC min / max */
                        attu_numeric_pack(g->op == ATTU_REDUCE_SUM ? win_acc_sum(cur) : cur->ns, nv + row * 16);
                    } else if (fl) vf[row] = attu_type_mclass(a->type.id) == ATTU_MC_FLOAT ? cur->sf : (double)cur->si;
                    else vi[row] = cur->si;
                }
            }
            pos = pe;
        }
    }
    free(ph8);
    o = xcol_new(x, ot, n, true);
    if (!o) goto done;
    {
        size_t w = attu_type_width(ot.id);
        char *buf = malloc(n * w + 1);
        if (!buf) { attu_error_oom(x->err); xcol_unref(x, o); o = NULL; goto done; }
        for (size_t i = 0; i < n; i++) {
            switch (ot.id) {
            case ATTU_TYPE_FLOAT64: ((double *)buf)[i] = vf[i]; break;
            case ATTU_TYPE_FLOAT32: ((float *)buf)[i] = (float)vf[i]; break;
            case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: case ATTU_TYPE_TEXT: ((int32_t *)buf)[i] = (int32_t)vi[i]; break;
            case ATTU_TYPE_BOOL: ((uint8_t *)buf)[i] = (uint8_t)vi[i]; break;
            case ATTU_TYPE_NUMERIC: case ATTU_TYPE_INTERVAL: memcpy(buf + i * 16, nv + i * 16, 16); break;
            default: ((int64_t *)buf)[i] = vi[i]; break;
            }
        }
        int rc = x->be->upload(x->be, o->data, 0, buf, n * w, x->err) || x->be->upload(x->be, o->valid, 0, vv, n, x->err);
        free(buf);
        if (rc) { xcol_unref(x, o); o = NULL; goto done; }
        if (ot.id == ATTU_TYPE_TEXT && a && a->dict) o->dict = attu_dictionary_ref(a->dict);
    }

done:
    free(dd); free(dv); free(nthd); free(nthv); free(bd); free(bv); free(rkd); free(rkv); free(gno); free(ghead);
    free(sk); free(kv); free(pp); free(hp); free(peerp); free(ad); free(av); free(vi); free(vf); free(vv); free(nv);
    free_buf(x, perm); free_buf(x, ph); free_buf(x, peer); free_buf(x, off);
    return o;
}

rel *run_window(xctx *x, attu_stage *s, rel *in) {
    int nk = s->keys.n, na = s->args.n;
    xcol **keys = calloc((size_t)nk + 1, sizeof *keys), **args = calloc((size_t)na + 1, sizeof *args);
    rel *out = NULL;
    if (!keys || !args) { attu_error_oom(x->err); goto done; }
    if (eval_exprs(x, &s->keys, in, keys) || eval_exprs(x, &s->args, in, args)) goto done;
    out = rel_new(x, in->ncols + s->naggs, in->nrows);
    if (!out) goto done;
    for (int i = 0; i < in->ncols; i++) out->cols[i] = xcol_ref(in->cols[i]);
    for (int i = 0; i < s->naggs; i++) {
        if (!(out->cols[in->ncols + i] = window_call(x, &s->aggs[i], keys, args, in->nrows))) { rel_free(x, out); out = NULL; goto done; }
    }
done:
    for (int i = 0; i < nk && keys; i++) xcol_unref(x, keys[i]);
    for (int i = 0; i < na && args; i++) xcol_unref(x, args[i]);
    free(keys); free(args);
    return out;
}

/* ---- set operations ------------------------------------------------------------------------------ */

rel *run_setop(xctx *x, attu_stage *s, rel *L, rel *R) {
    /* rows are duplicates when equal in their first ncmp columns; the
     * others ride along (a bpchar without a length's values, its keys
     * in front: planner/binder.c) */
    int ncmp = s->setop_ncmp > 0 && s->setop_ncmp < L->ncols ? s->setop_ncmp : L->ncols;
    if (s->setop == 1) {
        rel *c = rel_concat(x, L, R);
        if (!c || s->all) return c;
        rel *d = rel_distinct_by(x, c, ncmp);
        rel_free(x, c);
        return d;
    }
    /* Rows are tagged by side (position below nl: left), sorted by their
     * columns and cut into groups of equal rows (NULLs equal, as set
     * operations compare). Without ALL each side is made distinct first and
     * a group is kept once; with ALL a group of cl left and cr right rows is
     * kept min(cl, cr) times (INTERSECT ALL) or max(cl - cr, 0) times
     * (EXCEPT ALL), as PostgreSQL does. */
    rel *dl = s->all ? L : rel_distinct_by(x, L, ncmp), *dr = !dl ? NULL : s->all ? R : rel_distinct_by(x, R, ncmp);
    rel *c = dr ? rel_concat(x, dl, dr) : NULL;
    size_t nl = dl ? dl->nrows : 0;
    if (!s->all) { rel_free(x, dl); rel_free(x, dr); }
    if (!c) return NULL;
    size_t n = c->nrows;
    int nk = ncmp;
    attu_sort_key *sk = calloc((size_t)nk + 1, sizeof *sk);
    attu_vec *kv = calloc((size_t)nk + 1, sizeof *kv);
    attu_buf *perm = buf_i64(x, n), *heads = NULL, *sel = NULL;
    int64_t *pp = NULL, *hp = NULL, *keep = NULL;
    size_t nh = 0, nk2 = 0;
    rel *out = NULL;
    if (!sk || !kv || !perm) { if (!x->err->set) attu_error_oom(x->err); goto done; }
    for (int i = 0; i < nk; i++) { kv[i] = vec_of(c->cols[i]); sk[i].col = kv[i]; }
    if (exec_sort(x, sk, nk, n, perm) || exec_segment_heads(x, kv, nk, perm, n, &heads, &nh)) goto done;
    pp = download_all(x, perm, n * 8);
    hp = download_all(x, heads, nh * 8);
    keep = malloc(sizeof(int64_t) * (n + 1));
    if (!pp || !hp || !keep) { if (!x->err->set) attu_error_oom(x->err); goto done; }
    for (size_t h = 0; h < nh; h++) {
        size_t b = (size_t)hp[h], e = h + 1 < nh ? (size_t)hp[h + 1] : n;
        size_t cl = 0, cr = 0;
        for (size_t q = b; q < e; q++) { if ((size_t)pp[q] < nl) cl++; else cr++; }
        size_t copies = s->setop == 2 ? (cl < cr ? cl : cr) : (cl > cr ? cl - cr : 0);
        if (!s->all && copies) copies = 1;
        for (size_t q = b; q < e && copies; q++)
            if ((size_t)pp[q] < nl) { keep[nk2++] = pp[q]; copies--; }
    }
    sel = upload_new(x, keep, nk2 * 8);
    if (sel) out = rel_gather(x, c, sel, nk2, false);
done:
    rel_free(x, c);
    free(sk); free(kv); free(pp); free(hp); free(keep);
    free_buf(x, perm); free_buf(x, heads); free_buf(x, sel);
    return out;
}

/* ---- WITH RECURSIVE ---------------------------------------------------------------------------
 * The non-recursive term runs once; its rows (made distinct for UNION) are
 * the first working table. Then the recursive term runs with WORKTABLE
 * stages reading the working table; its new rows (for UNION: those not
 * seen before, made distinct) become the next working table, until a round
 * adds none. PostgreSQL has no limit on the rounds; here a query still
 * producing rows after ATTU_RECURSION_MAX_ROUNDS rounds, or holding more
 * rows than the session's attu.max_recursive_rows, fails with 54000 (the
 * statement timeout and cancellation also stop it, via check_stop). */

#define ATTU_RECURSION_MAX_ROUNDS 100000

/* a new rel sharing r's columns */
static rel *rel_share(xctx *x, const rel *r) {
    rel *o = rel_new(x, r->ncols, r->nrows);
    if (!o) return NULL;
    for (int i = 0; i < r->ncols; i++) o->cols[i] = xcol_ref(r->cols[i]);
    return o;
}

/* Concatenates parts[0..n) (each freed) pairwise, so each row is copied
 * O(log n) times. */
rel *rel_concat_all(xctx *x, rel **parts, size_t n) {
    while (n > 1) {
        size_t m = 0;
        for (size_t i = 0; i < n; i += 2) {
            if (i + 1 == n) { parts[m++] = parts[i]; continue; }
            rel *c = x->err->set ? NULL : rel_concat(x, parts[i], parts[i + 1]);
            rel_free(x, parts[i]); rel_free(x, parts[i + 1]);
            parts[m++] = c;
            if (!c && !x->err->set) attu_error_oom(x->err);
        }
        n = m;
        if (x->err->set) { for (size_t i = 0; i < n; i++) rel_free(x, parts[i]); return NULL; }
    }
    return n ? parts[0] : NULL;
}

/* SHARED: child 0's rows computed once, and child 1 run once over them
 * (its WORKTABLE stages of this id read them: grouping sets aggregate the
 * same FROM rows once per set). */
rel *run_shared(xctx *x, attu_stage *s) {
    rel *in = run_stage(x, s->child[0]);
    if (!in) return NULL;
    xwork w = { s->worktable, in, x->work };
    x->work = &w;
    rel *out = run_stage(x, s->child[1]);
    x->work = w.next;
    rel_free(x, in);
    return out;
}

rel *run_worktable(xctx *x, attu_stage *s) {
    for (xwork *w = x->work; w; w = w->next)
        if (w->id == s->worktable) return rel_share(x, w->rows);
    attu_error_set(x->err, ATTU_SQLSTATE_INTERNAL, 0, "work table scan outside its recursive query");
    return NULL;
}

/* Fails the query once a recursion holds more rows than the session's
 * attu.max_recursive_rows (PostgreSQL would run on until memory ends). */
static bool recursive_cap_exceeded(xctx *x, size_t total) {
    int64_t cap = x->ctx->max_recursive_rows ? x->ctx->max_recursive_rows : ATTU_RECURSIVE_ROWS_DEFAULT;
    if (cap < 0 || total <= (size_t)cap) return false;
    attu_error_set(x->err, "54000", 0, "recursive query produced more than %lld rows", (long long)cap);
    attu_error_set_hint(x->err, "Check that the recursive term stops adding rows, or raise the limit with SET "
                                "attu.max_recursive_rows (0: no limit).");
    return true;
}

/* The columns cols[0..n) of r, shared (a keyed recursive union's values). */
static rel *rel_pick(xctx *x, const rel *r, const int *cols, int n) {
    rel *o = rel_new(x, n, r->nrows);
    if (!o) return NULL;
    for (int i = 0; i < n; i++) o->cols[i] = xcol_ref(r->cols[cols[i]]);
    return o;
}

rel *run_recursive(xctx *x, attu_stage *s) {
    /* keyed (setop_ncmp: a bpchar without a length, planner keyed_arm):
     * the terms give keys, then values; rows are duplicates by the keys,
     * and the work table and the output are the values (work_cols) */
    bool keyed = s->setop_ncmp > 0 && s->work_cols;
    rel *first = run_stage(x, s->child[0]);
    if (!first) return NULL;
    if (!s->all) {
        rel *d = keyed ? rel_distinct_by(x, first, s->setop_ncmp) : rel_distinct(x, first);
        rel_free(x, first);
        if (!(first = d)) return NULL;
    }
    rel *seen = s->all ? NULL : rel_share(x, first);     /* UNION: every row output so far */
    if (keyed) {
        rel *v = rel_pick(x, first, s->work_cols, s->ncols);
        rel_free(x, first);
        if (!(first = v)) { rel_free(x, seen); return NULL; }
    }
    size_t nparts = 0, cap = 16;
    rel **parts = malloc(sizeof *parts * cap);
    xwork w = { s->worktable, first, x->work };
    if (!parts || (!s->all && !seen)) { if (!x->err->set) attu_error_oom(x->err); rel_free(x, first); rel_free(x, seen); free(parts); return NULL; }
    parts[nparts++] = rel_share(x, first);
    size_t total = first->nrows;
    x->work = &w;
    if (!(s->limit >= 0 && total >= (size_t)s->limit)) recursive_cap_exceeded(x, total);
    for (long round = 0; w.rows->nrows > 0 && !x->err->set; round++) {
        if (s->limit >= 0 && total >= (size_t)s->limit) break;     /* a LIMIT above keeps no more */
        if (round >= ATTU_RECURSION_MAX_ROUNDS) {
            attu_error_set(x->err, "54000", 0, "recursive query still produces rows after %d iterations", ATTU_RECURSION_MAX_ROUNDS);
            attu_error_set_hint(x->err, "Check that the recursive term stops adding rows.");
            break;
        }
        rel *n = run_stage(x, s->child[1]);
        if (!n) break;
        if (!s->all) {
            /* new rows: distinct, and not output before */
            attu_stage except = { 0 };
            except.setop = 3;
            except.setop_ncmp = keyed ? s->setop_ncmp : 0;
            rel *d = run_setop(x, &except, n, seen);
            rel_free(x, n);
            if (!(n = d)) break;
            if (n->nrows) {
                rel *c = rel_concat(x, seen, n);
                if (!c) { rel_free(x, n); break; }
                rel_free(x, seen);
                seen = c;
            }
            if (keyed) {
                rel *v = rel_pick(x, n, s->work_cols, s->ncols);
                rel_free(x, n);
                if (!(n = v)) break;
            }
        }
        if (nparts == cap) {
            rel **np = realloc(parts, sizeof *parts * cap * 2);
            if (!np) { attu_error_oom(x->err); rel_free(x, n); break; }
            parts = np; cap *= 2;
        }
        parts[nparts] = rel_share(x, n);
        if (!parts[nparts]) { rel_free(x, n); break; }
        nparts++;
        total += n->nrows;
        rel_free(x, w.rows);
        w.rows = n;
        if (!(s->limit >= 0 && total >= (size_t)s->limit) && recursive_cap_exceeded(x, total)) break;
    }
    x->work = w.next;
    rel_free(x, w.rows);
    rel_free(x, seen);
    if (x->err->set) { for (size_t i = 0; i < nparts; i++) rel_free(x, parts[i]); free(parts); return NULL; }
    rel *out = rel_concat_all(x, parts, nparts);
    free(parts);
    return out;
}
