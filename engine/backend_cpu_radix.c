/*
 * backend_cpu_radix.c - the CPU backend's stable sort by radix passes.
 *
 * The comparator merge sort costs n log n comparisons, each a switch on the
 * key's type, and ends in merges on one thread: an ORDER BY of 10M rows took
 * 3.3 s on 2 cores, 100M rows 19 s on 16. Keys whose order is that of an
 * integer image (attu_cpu_key_bits: integers, dates, timestamps, decimals,
 * TEXT codes, booleans, and floats with -0 equal to 0 and one NaN above every
 * number; the row number for top_k's tie key) sort instead by LSD passes of
 * 8 bits over (image, row) pairs, last key first, exactly as the GPU's radix
 * path does: each pass is a stable counting sort, so rows the later keys
 * ordered keep that order within ties, and the result is the merge sort's
 * permutation. Only the bytes in which a key's images differ are passed
 * over (its range, after subtracting the smallest image). A key with NULLs
 * takes one more pass right after its value passes, over the NULL flag
 * alone (its NULL rows tie in the value passes), which puts them first or
 * last as the key says, whatever its direction. Every pass splits the rows
 * among the workers the same way: per-worker counts, then each worker
 * scatters its rows from its own start in every digit (workers in row
 * order, so the pass is stable).
 */
#include "engine/backend_cpu_reduce.h"
#include "engine/cpu_threads.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Below this many rows the merge sort is as fast. */
#define RADIX_MIN_ROWS 4096
#define RADIX_GRAIN (1 << 16)
#define RADIX_MAX_WORKERS 64

typedef struct radix_ctx {
    const attu_sort_key *key;
    int64_t *idx, *idx2;        /* rows in the current order, and the next */
    uint64_t *img, *img2;       /* their images, aligned */
    uint64_t lo[RADIX_MAX_WORKERS], hi[RADIX_MAX_WORKERS];
    int      nulls[RADIX_MAX_WORKERS];
    uint64_t base;              /* the smallest non-NULL image */
    int      shift;             /* this pass's digit: (img - base) >> shift; -1: the NULL flag */
    size_t (*counts)[256];      /* [worker][digit]: counts, then write positions */
    int      step;              /* 0 images, 1 counts, 2 scatter */
} radix_ctx;

/* The key's image of row r, larger = later (desc turned); NULL rows 0. */
static uint64_t image_of(const attu_sort_key *k, int64_t r, int *null) {
    const uint8_t *v = k->col.valid ? k->col.valid->ptr : NULL;
    *null = v && !v[r];
    if (*null) return 0;
    uint64_t u = k->col.data ? (uint64_t)attu_cpu_key_bits(&k->col, r) ^ (1ULL << 63) : (uint64_t)r;
    return k->desc ? ~u : u;
}

static int digit_of(const radix_ctx *c, size_t i) {
    if (c->shift < 0) {
        const uint8_t *v = c->key->col.valid->ptr;
        int null = !v[c->idx[i]];
        return null != c->key->nulls_first;   /* 0 goes first */
    }
    return (int)(((c->img[i] - c->base) >> c->shift) & 0xff);
}

static void radix_range(void *vc, size_t b, size_t e, int w) {
    radix_ctx *c = vc;
    if (c->step == 0) {
        uint64_t lo = UINT64_MAX, hi = 0;
        int nulls = 0;
        for (size_t i = b; i < e; i++) {
            int null;
            uint64_t u = image_of(c->key, c->idx[i], &null);
            c->img[i] = u;
            nulls |= null;
            if (!null) { if (u < lo) lo = u; if (u > hi) hi = u; }
        }
        c->lo[w] = lo; c->hi[w] = hi; c->nulls[w] = nulls;
    } else if (c->step == 1) {
        size_t *cnt = c->counts[w];
        memset(cnt, 0, sizeof c->counts[w]);
        for (size_t i = b; i < e; i++) cnt[digit_of(c, i)]++;
    } else {
        size_t *at = c->counts[w];
        for (size_t i = b; i < e; i++) {
            size_t o = at[digit_of(c, i)]++;
            c->idx2[o] = c->idx[i];
            c->img2[o] = c->img[i];
        }
    }
}

/* One stable counting pass by c->shift's digit; false when every row has
 * the same digit (nothing moves). */
static bool radix_pass(radix_ctx *c, int threads, size_t n) {
    c->step = 1;
    int used = attu_parallel_range(threads, n, RADIX_GRAIN, radix_range, c);
    size_t at = 0;
    for (int d = 0; d < 256; d++) {
        size_t here = 0;
        for (int w = 0; w < used; w++) here += c->counts[w][d];
        if (here == n) return false;
        for (int w = 0; w < used; w++) {
            size_t k = c->counts[w][d];
            c->counts[w][d] = at;
            at += k;
        }
    }
    c->step = 2;
    attu_parallel_range(threads, n, RADIX_GRAIN, radix_range, c);
    int64_t *ti = c->idx; c->idx = c->idx2; c->idx2 = ti;
    uint64_t *tg = c->img; c->img = c->img2; c->img2 = tg;
    return true;
}

bool attu_cpu_radix_sortable(const attu_sort_key *keys, int nkeys, size_t n) {
    if (n < RADIX_MIN_ROWS || nkeys < 1) return false;
    for (int k = 0; k < nkeys; k++) {
        if (!keys[k].col.data) continue;   /* the row number */
        switch (keys[k].col.type.id) {
        case ATTU_TYPE_BOOL: case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE:
        case ATTU_TYPE_TEXT: case ATTU_TYPE_INT64: case ATTU_TYPE_TIMESTAMP: case ATTU_TYPE_TIMESTAMPTZ: case ATTU_TYPE_TIME: case ATTU_TYPE_TIMETZ: case ATTU_TYPE_DECIMAL:
        case ATTU_TYPE_FLOAT32: case ATTU_TYPE_FLOAT64: break;
        default: return false;
        }
    }
    return true;
}

int attu_cpu_radix_sort(int threads, const attu_sort_key *keys, int nkeys, int64_t *idx, size_t n,
                        attu_error *err) {
    if (threads > RADIX_MAX_WORKERS) threads = RADIX_MAX_WORKERS;
    if (threads < 1) threads = 1;
    radix_ctx c;
    memset(&c, 0, sizeof c);
    c.idx = idx;
    c.idx2 = malloc(n * sizeof *c.idx2);
    c.img = malloc(n * sizeof *c.img);
    c.img2 = malloc(n * sizeof *c.img2);
    c.counts = malloc(sizeof *c.counts * RADIX_MAX_WORKERS);
    if (!c.idx2 || !c.img || !c.img2 || !c.counts) {
        free(c.idx2); free(c.img); free(c.img2); free(c.counts);
        return attu_error_oom(err);
    }
    int64_t *own = c.idx2;   /* the buffer to free (the two swap) */
    for (int k = nkeys - 1; k >= 0; k--) {
        c.key = &keys[k];
        c.step = 0;
        int used = attu_parallel_range(threads, n, RADIX_GRAIN, radix_range, &c);
        uint64_t lo = UINT64_MAX, hi = 0;
        int nulls = 0;
        for (int w = 0; w < used; w++) {
            if (c.lo[w] < lo) lo = c.lo[w];
            if (c.hi[w] > hi) hi = c.hi[w];
            nulls |= c.nulls[w];
        }
        if (lo <= hi) {
            c.base = lo;
            uint64_t span = hi - lo;
            for (int shift = 0; shift < 64 && (span >> shift) != 0; shift += 8) {
                c.shift = shift;
                radix_pass(&c, threads, n);
            }
        }
        if (nulls) {
            c.shift = -1;
            radix_pass(&c, threads, n);
        }
    }
    /* the rows in order are in c.idx: idx itself or the other buffer */
    if (c.idx != idx) {
        memcpy(idx, c.idx, n * sizeof *idx);
        own = c.idx;
    }
    free(own); free(c.img); free(c.img2); free(c.counts);
    return 0;
}
