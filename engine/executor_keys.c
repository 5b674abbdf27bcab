/*
 * executor_keys.c - sorting and segmenting by NUMERIC and INTERVAL keys.
 *
 * An INTERVAL key is handled as a NUMERIC one, with its span (months as 30
 * days, days as 24 hours, in microseconds: attu_interval_span) as both its
 * order image and its canonical image, so '1 mon' and '30 days' sort,
 * group and join as equal, as PostgreSQL compares intervals.
 *
 * The backends' sorts, top-k and segment heads compare keys of at most 8
 * bytes (the GPU's comparators and radix passes read one int64 image per
 * value), so a NUMERIC key (a 16-byte slot, engine/numeric.h) never reaches
 * them as it is. Instead it becomes two INT64 keys with the same direction
 * and NULLs: the halves of its order image (order_image: sign, decimal
 * weight and left-aligned digits in 128 bits, so no common scale is
 * needed and no value is too wide). Lexicographic order of the pair is the
 * values' order, and equal values of different scales (1.0 and 1) become
 * equal keys, one group, as PostgreSQL compares numerics. Keys of other types pass through
 * unchanged; without a NUMERIC key the backend is called directly.
 *
 * Equi-join keys need equality only, not order, and both sides must agree:
 * there a NUMERIC value becomes its canonical image, the value with its
 * trailing fractional zeros dropped (1.50 -> 15 at scale 1, 0.00 -> 0 at
 * scale 0) packed as a slot is (m * 64 + scale). Equal values have one
 * canonical form, so equal images; no common scale is needed, so no value
 * is too wide for it.
 */
#include "engine/executor_internal.h"
#include "engine/interval.h"
#include "engine/numeric.h"

#include <stdlib.h>
#include <string.h>

typedef struct expanded {
    attu_sort_key *keys;
    int            nkeys;
    attu_buf     **owned;       /* the INT64 words made here */
    int            nowned;
} expanded;

static bool any_numeric(const attu_sort_key *keys, int nkeys) {
    for (int i = 0; i < nkeys; i++) if (attu_type_is_wide(keys[i].col.type.id)) return true;
    return false;
}

static void expanded_free(xctx *x, expanded *e) {
    for (int i = 0; i < e->nowned; i++) x->be->free(x->be, e->owned[i]);
    free(e->owned);
    free(e->keys);
    memset(e, 0, sizeof *e);
}

/* The 16-byte slots of a NUMERIC or INTERVAL column of n rows and its validity (NULL
 * when the column has none), brought to the host: new arrays. */
static int download_numeric(xctx *x, const attu_vec *v, size_t n, char **d_out, uint8_t **valid_out) {
    char *d = malloc(n ? n * 16 : 1);
    uint8_t *valid = v->valid ? malloc(n ? n : 1) : NULL;
    if (!d || (v->valid && !valid)) { free(d); free(valid); return attu_error_oom(x->err); }
    if (n && (x->be->download(x->be, d, v->data, 0, n * 16, x->err) ||
              (valid && x->be->download(x->be, valid, v->valid, 0, n, x->err)))) { free(d); free(valid); return -1; }
    *d_out = d; *valid_out = valid;
    return 0;
}

/* Uploads n int64 words into a new backend buffer. */
static attu_buf *upload_words(xctx *x, const int64_t *w, size_t n) {
    attu_buf *b = x->be->alloc(x->be, n ? n * 8 : 8, x->err);
    if (b && n && x->be->upload(x->be, b, 0, w, n * 8, x->err)) { x->be->free(x->be, b); return NULL; }
    return b;
}

/* The order image of a NUMERIC slot: an unsigned 128-bit integer whose
 * order is the values' order, equal for equal values of any dscale. A
 * nonzero |v| with k digits in m and weight e = k - dscale (-35..36) is
 * P = (e + 64) << 120 | M, M = |m| * 10^(36 - k) its digits left-aligned
 * (10^35 <= M < 10^36 < 2^120): a larger weight is a larger magnitude, and
 * at one weight the digits decide. Positive values map to 2^127 + P, zero
 * to 2^127, negative ones to 2^127 - 1 - P (reversed). */
static unsigned __int128 order_image(const char *slot) {
    const unsigned __int128 top = (unsigned __int128)1 << 127;
    attu_numeric a = attu_numeric_unpack(slot);
    /* NaN above Infinity above every number (P < 101 << 120), -Infinity
     * below them */
    if (attu_numeric_is_special(a))
        return attu_numeric_is_nan(a) ? top + ((unsigned __int128)127 << 120)
               : a.m > 0 ? top + ((unsigned __int128)126 << 120) : top - 1 - ((unsigned __int128)126 << 120);
    if (a.m == 0) return top;
    unsigned __int128 M = a.m < 0 ? (unsigned __int128)0 - (unsigned __int128)a.m : (unsigned __int128)a.m;
    int k = 0;
    for (unsigned __int128 t = M; t; t /= 10) k++;
    for (int j = k; j < ATTU_NUMERIC_MAX_DIGITS; j++) M *= 10;
    unsigned __int128 P = ((unsigned __int128)(k - a.dscale + 64) << 120) | M;
    return a.m > 0 ? top + P : top - 1 - P;
}

/* An INTERVAL slot's span, the order and the canonical image of both. */
static __int128 interval_image(const char *slot) {
    attu_interval v;
    memcpy(&v, slot, sizeof v);
    return attu_interval_span(v);
}

/* The two words of one NUMERIC or INTERVAL column of n rows: its order
 * images' high and low halves, each with the sign bit flipped (so that
 * signed order is the halves' unsigned order). */
static int split_words(xctx *x, const attu_vec *v, size_t n, attu_buf **hi_out, attu_buf **lo_out) {
    int rc = -1;
    char *d = NULL;
    uint8_t *valid = NULL;
    int64_t *hi = malloc(n ? n * 8 : 8), *lo = malloc(n ? n * 8 : 8);
    attu_buf *bh = NULL, *bl = NULL;
    if (!hi || !lo) { attu_error_oom(x->err); goto out; }
    if (download_numeric(x, v, n, &d, &valid)) goto out;
    for (size_t i = 0; i < n; i++) {
        hi[i] = lo[i] = 0;
        if (valid && !valid[i]) continue;
        unsigned __int128 u = v->type.id == ATTU_TYPE_INTERVAL
                                  ? (unsigned __int128)interval_image(d + i * 16) ^ ((unsigned __int128)1 << 127)
                                  : order_image(d + i * 16);
        hi[i] = (int64_t)((uint64_t)(u >> 64) ^ (1ULL << 63));
        lo[i] = (int64_t)((uint64_t)u ^ (1ULL << 63));
    }
    bh = upload_words(x, hi, n);
    bl = bh ? upload_words(x, lo, n) : NULL;
    if (!bh || !bl) goto out;
    *hi_out = bh; *lo_out = bl;
    bh = bl = NULL;
    rc = 0;
out:
    if (bh) x->be->free(x->be, bh);
    if (bl) x->be->free(x->be, bl);
    free(d); free(valid); free(hi); free(lo);
    return rc;
}

/* The canonical image of a NUMERIC slot (see the top of this file). */
static __int128 canonical_image(const char *slot) {
    attu_numeric a = attu_numeric_unpack(slot);
    if (attu_numeric_is_special(a)) return a.m * 64 + a.dscale;   /* no number's */
    if (a.m == 0) a.dscale = 0;
    while (a.dscale > 0 && a.m % 10 == 0) { a.m /= 10; a.dscale--; }
    return a.m * 64 + a.dscale;     /* |m| < 10^36: inside 128 bits */
}

int exec_numeric_join_words(xctx *x, const attu_vec *l, size_t nl, const attu_vec *r, size_t nr,
                            attu_buf **lw, attu_buf **rw, int *nwords) {
    int rc = -1;
    const attu_vec *side[2] = { l, r };
    size_t cnt[2] = { nl, nr };
    char *d[2] = { NULL, NULL };
    uint8_t *valid[2] = { NULL, NULL };
    __int128 *img[2] = { NULL, NULL };
    int64_t *w = NULL;
    attu_buf *out[2][2] = { { NULL, NULL }, { NULL, NULL } };
    bool narrow = true;      /* every image fits one int64 */
    for (int s = 0; s < 2; s++) {
        size_t n = cnt[s];
        if (download_numeric(x, side[s], n, &d[s], &valid[s])) goto done;
        if (!(img[s] = malloc((n ? n : 1) * sizeof(__int128)))) { attu_error_oom(x->err); goto done; }
        for (size_t i = 0; i < n; i++) {
            img[s][i] = valid[s] && !valid[s][i] ? 0
                      : side[s]->type.id == ATTU_TYPE_INTERVAL ? interval_image(d[s] + i * 16)
                                                               : canonical_image(d[s] + i * 16);
            if (img[s][i] < INT64_MIN || img[s][i] > INT64_MAX) narrow = false;
        }
    }
    int nw = narrow ? 1 : 2;
    for (int s = 0; s < 2; s++) {
        size_t n = cnt[s];
        if (!(w = malloc((n ? n : 1) * 8))) { attu_error_oom(x->err); goto done; }
        for (int k = 0; k < nw; k++) {
            /* narrow: the image; else its high word, then its low bits */
            for (size_t i = 0; i < n; i++)
                w[i] = narrow ? (int64_t)img[s][i] : k == 0 ? (int64_t)(img[s][i] >> 64) : (int64_t)(uint64_t)img[s][i];
            if (!(out[s][k] = upload_words(x, w, n))) goto done;
        }
        free(w);
        w = NULL;
    }
    for (int k = 0; k < nw; k++) { lw[k] = out[0][k]; rw[k] = out[1][k]; out[0][k] = out[1][k] = NULL; }
    *nwords = nw;
    rc = 0;
done:
    for (int s = 0; s < 2; s++) {
        free(d[s]); free(valid[s]); free(img[s]);
        for (int k = 0; k < 2; k++) if (out[s][k]) x->be->free(x->be, out[s][k]);
    }
    free(w);
    return rc;
}

static int expand(xctx *x, const attu_sort_key *keys, int nkeys, size_t n, expanded *e) {
    memset(e, 0, sizeof *e);
    e->keys = calloc((size_t)nkeys * 2 + 1, sizeof *e->keys);
    e->owned = calloc((size_t)nkeys * 2 + 1, sizeof *e->owned);
    if (!e->keys || !e->owned) { expanded_free(x, e); return attu_error_oom(x->err); }
    for (int i = 0; i < nkeys; i++) {
        if (!attu_type_is_wide(keys[i].col.type.id)) { e->keys[e->nkeys++] = keys[i]; continue; }
        attu_buf *hi = NULL, *lo = NULL;
        if (split_words(x, &keys[i].col, n, &hi, &lo)) { expanded_free(x, e); return -1; }
        e->owned[e->nowned++] = hi;
        e->owned[e->nowned++] = lo;
        attu_sort_key k = keys[i];
        k.col.type = attu_type_make(ATTU_TYPE_INT64);
        k.col.dict = NULL;
        k.col.data = hi;
        e->keys[e->nkeys++] = k;
        k.col.data = lo;
        e->keys[e->nkeys++] = k;
    }
    return 0;
}

int exec_sort(xctx *x, const attu_sort_key *keys, int nkeys, size_t n, attu_buf *perm) {
    if (!any_numeric(keys, nkeys)) return x->be->sort(x->be, keys, nkeys, n, perm, x->err);
    expanded e;
    if (expand(x, keys, nkeys, n, &e)) return -1;
    int rc = x->be->sort(x->be, e.keys, e.nkeys, n, perm, x->err);
    expanded_free(x, &e);
    return rc;
}

int exec_top_k(xctx *x, const attu_sort_key *keys, int nkeys, size_t n, size_t k, attu_buf *perm) {
    if (!any_numeric(keys, nkeys)) return x->be->top_k(x->be, keys, nkeys, n, k, perm, x->err);
    expanded e;
    if (expand(x, keys, nkeys, n, &e)) return -1;
    int rc = x->be->top_k(x->be, e.keys, e.nkeys, n, k, perm, x->err);
    expanded_free(x, &e);
    return rc;
}

int exec_select_window(xctx *x, const attu_sort_key *keys, int nkeys, size_t n, size_t start, size_t cnt,
                       attu_buf *perm, bool *done) {
    *done = false;
    if (!x->be->select_window) return 0;
    if (!any_numeric(keys, nkeys))
        return x->be->select_window(x->be, keys, nkeys, n, start, cnt, perm, done, x->err);
    expanded e;
    if (expand(x, keys, nkeys, n, &e)) return -1;
    int rc = x->be->select_window(x->be, e.keys, e.nkeys, n, start, cnt, perm, done, x->err);
    expanded_free(x, &e);
    return rc;
}

int exec_select_window_set(xctx *x, const attu_sort_key *keys, int nkeys, size_t n, size_t start, size_t cnt,
                           attu_buf *perm, bool *done) {
    *done = false;
    if (!x->be->select_window_set) return 0;
    if (!any_numeric(keys, nkeys))
        return x->be->select_window_set(x->be, keys, nkeys, n, start, cnt, perm, done, x->err);
    expanded e;
    if (expand(x, keys, nkeys, n, &e)) return -1;
    int rc = x->be->select_window_set(x->be, e.keys, e.nkeys, n, start, cnt, perm, done, x->err);
    expanded_free(x, &e);
    return rc;
}

int exec_segmented_sort(xctx *x, const attu_sort_key *keys, int nkeys, const attu_buf *offsets,
                        size_t nseg, attu_buf *perm, size_t n) {
    if (!any_numeric(keys, nkeys)) return x->be->segmented_sort(x->be, keys, nkeys, offsets, nseg, perm, n, x->err);
    expanded e;
    if (expand(x, keys, nkeys, n, &e)) return -1;
    int rc = x->be->segmented_sort(x->be, e.keys, e.nkeys, offsets, nseg, perm, n, x->err);
    expanded_free(x, &e);
    return rc;
}

int exec_segment_heads(xctx *x, const attu_vec *keys, int nkeys, const attu_buf *perm, size_t n,
                       attu_buf **heads_out, size_t *nheads_out) {
    bool num = false;
    for (int i = 0; i < nkeys; i++) if (attu_type_is_wide(keys[i].type.id)) num = true;
    if (!num) return x->be->segment_heads(x->be, keys, nkeys, perm, n, heads_out, nheads_out, x->err);
    attu_sort_key *sk = calloc((size_t)nkeys + 1, sizeof *sk);
    if (!sk) return attu_error_oom(x->err);
    for (int i = 0; i < nkeys; i++) sk[i].col = keys[i];
    expanded e;
    int rc = expand(x, sk, nkeys, n, &e);
    free(sk);
    if (rc) return -1;
    attu_vec *kv = calloc((size_t)e.nkeys + 1, sizeof *kv);
    if (!kv) { expanded_free(x, &e); return attu_error_oom(x->err); }
    for (int i = 0; i < e.nkeys; i++) kv[i] = e.keys[i].col;
    rc = x->be->segment_heads(x->be, kv, e.nkeys, perm, n, heads_out, nheads_out, x->err);
    free(kv);
    expanded_free(x, &e);
    return rc;
}
