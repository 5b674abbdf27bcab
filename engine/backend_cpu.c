/*
 * backend_cpu.c - the CPU backend: every primitive of backend.h on host
 * threads. It is the fallback when no GPU is usable and the reference the
 * GPU backend is tested against, so clarity wins over cleverness here; the
 * loops that carry real work (eval, gather, compact, the reductions and the
 * fused join-aggregate) are split over all cores with attu_parallel_for.
 *
 * Buffers are plain malloc'ed host memory; attu_buf.ptr is used directly.
 */
#include "engine/backend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cpu_threads.h"
#include "engine/expr_program.h"
#include "engine/backend_cpu_reduce.h"

typedef struct cpu_impl {
    int threads;
    char name[64];
} cpu_impl;

#define THREADS(be) (((cpu_impl *)(be)->impl)->threads)
#define I64(b) ((int64_t *)(b)->ptr)
#define CI64(b) ((const int64_t *)(b)->ptr)

/* ---- interrupts ---------------------------------------------------------------- */

double attu_now_ms(void);   /* executor.c */

typedef struct interrupt { volatile int *flag; double deadline; const char *reason; } interrupt;
static _Thread_local interrupt cur_interrupt;

void attu_backend_set_interrupt(volatile int *flag, double deadline_ms, const char *reason) {
    cur_interrupt.flag = flag;
    cur_interrupt.deadline = deadline_ms;
    cur_interrupt.reason = reason;
}

static int check_interrupt(const interrupt *in, attu_error *err) {
    if (in->flag && *in->flag)
        return attu_error_set(err, ATTU_SQLSTATE_QUERY_CANCELED, 0, "canceling statement due to user request");
    if (in->deadline > 0 && attu_now_ms() > in->deadline)
        return attu_error_set(err, ATTU_SQLSTATE_QUERY_CANCELED, 0, "%s",
                              in->reason ? in->reason : "canceling statement due to statement timeout");
    return 0;
}

int attu_backend_interrupted(attu_error *err) { return check_interrupt(&cur_interrupt, err); }

/* ---- memory ---------------------------------------------------------------- */

static attu_buf *cpu_alloc(attu_backend *be, size_t bytes, attu_error *err) {
    attu_buf *b = malloc(sizeof *b);
    if (!b) { attu_error_oom(err); return NULL; }
    b->ptr = malloc(bytes ? bytes : 1);
    if (!b->ptr) { free(b); attu_error_oom(err); return NULL; }
    b->bytes = bytes;
    return b;
}

static void cpu_free(attu_backend *be, attu_buf *b) {
    if (!b) return;
    free(b->ptr);
    free(b);
}

static int cpu_upload(attu_backend *be, attu_buf *dst, size_t off, const void *src,
                      size_t bytes, attu_error *err) {
    if (off + bytes > dst->bytes)
        return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "upload out of bounds");
    if (bytes) memcpy((char *)dst->ptr + off, src, bytes);
    return 0;
}

static int cpu_download(attu_backend *be, void *dst, const attu_buf *src, size_t off,
                        size_t bytes, attu_error *err) {
    if (off + bytes > src->bytes)
        return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "download out of bounds");
    if (bytes) memcpy(dst, (const char *)src->ptr + off, bytes);
    return 0;
}

static int cpu_download_many(attu_backend *be, int n, void *const *host, const attu_buf *const *bufs,
                             const size_t *bytes, attu_error *err) {
    for (int i = 0; i < n; i++)
        if (cpu_download(be, host[i], bufs[i], 0, bytes[i], err)) return -1;
    return 0;
}

static int cpu_fill(attu_backend *be, attu_buf *dst, size_t width, uint64_t value,
                    size_t n, attu_error *err) {
    if (n * width > dst->bytes) return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "fill out of bounds");
    switch (width) {
    case 1: memset(dst->ptr, (int)(uint8_t)value, n); break;
    case 4: for (size_t i = 0; i < n; i++) ((uint32_t *)dst->ptr)[i] = (uint32_t)value; break;
    default: for (size_t i = 0; i < n; i++) ((uint64_t *)dst->ptr)[i] = value; break;
    }
    return 0;
}

static int cpu_iota(attu_backend *be, attu_buf *dst, attu_index start, size_t n, attu_error *err) {
    for (size_t i = 0; i < n; i++) I64(dst)[i] = start + (int64_t)i;
    return 0;
}

/* ---- gather / scatter ------------------------------------------------------ */

typedef struct gather_ctx {
    char *dst; uint8_t *dvalid;
    const char *src; const uint8_t *svalid;
    size_t width; const int64_t *idx;
} gather_ctx;

static void gather_range(void *c, size_t b, size_t e, int w) {
    gather_ctx *g = c;
    for (size_t i = b; i < e; i++) {
        int64_t j = g->idx[i];
        if (j < 0) {
            memset(g->dst + i * g->width, 0, g->width);
            if (g->dvalid) g->dvalid[i] = 0;
            continue;
        }
        switch (g->width) {
        case 1: g->dst[i] = g->src[j]; break;
        case 4: ((uint32_t *)g->dst)[i] = ((const uint32_t *)g->src)[j]; break;
        case 8: ((uint64_t *)g->dst)[i] = ((const uint64_t *)g->src)[j]; break;
        default: memcpy(g->dst + i * g->width, g->src + (size_t)j * g->width, g->width); break;   /* NUMERIC */
        }
        if (g->dvalid) g->dvalid[i] = g->svalid ? g->svalid[j] : 1;
    }
}

static int cpu_gather(attu_backend *be, attu_buf *dst, attu_buf *dst_valid,
                      const attu_buf *src, const attu_buf *src_valid, size_t width,
                      const attu_buf *idx, size_t n, attu_error *err) {
    gather_ctx g = { dst->ptr, dst_valid ? dst_valid->ptr : NULL, src ? src->ptr : NULL,
                     src_valid ? src_valid->ptr : NULL, width, CI64(idx) };
    attu_parallel_range(THREADS(be), n, 1 << 16, gather_range, &g);
    return 0;
}

/* The CPU has no index traffic to share: one gather per column. */
static int cpu_gather_cols(attu_backend *be, const attu_gather_col *cols, int ncols, const attu_buf *idx, size_t n,
                           attu_error *err) {
    for (int c = 0; c < ncols; c++)
        if (cpu_gather(be, cols[c].dst, cols[c].dst_valid, cols[c].src, cols[c].src_valid, cols[c].width, idx, n,
                       err)) return -1;
    return 0;
}

/* partition: a stable counting sort by the digit, one column at a time
 * (the reference of the GPU's radix_partition passes). */
static int cpu_partition(attu_backend *be, const attu_vec *keys, int64_t key_base, size_t n, int shift,
                         attu_buf *keys_out, size_t keys_width, int ncols, const attu_gather_col *cols,
                         attu_error *err) {
    (void)be;
    attu_type_id kt = keys->type.id;
    size_t kw = attu_type_width(kt);
    if (shift < 0 || shift > 23 ||
        (kt != ATTU_TYPE_INT32 && kt != ATTU_TYPE_DATE && kt != ATTU_TYPE_INT64 && !attu_type_is_int64_datetime(kt)) ||
        (keys_width != 8 && (keys_width != 4 || ncols))) return 1;
    for (int c = 0; c < ncols; c++)
        if (cols[c].width != 1 && cols[c].width != 4 && cols[c].width != 8) return 1;
    size_t start[257] = { 0 };
    size_t *pos = malloc((n ? n : 1) * sizeof *pos);
    if (!pos) return attu_error_oom(err);
    const void *kd = keys->data->ptr;
#define PART_KEY(i) ((uint64_t)((kw == 4 ? (int64_t)((const int32_t *)kd)[i] : ((const int64_t *)kd)[i]) - key_base))
    for (size_t i = 0; i < n; i++) start[(PART_KEY(i) >> shift & 255) + 1]++;
    for (int d = 0; d < 256; d++) start[d + 1] += start[d];
    for (size_t i = 0; i < n; i++) pos[i] = start[PART_KEY(i) >> shift & 255]++;
    for (size_t i = 0; keys_out && i < n; i++) {
        if (keys_width == 4) ((int32_t *)keys_out->ptr)[pos[i]] = (int32_t)PART_KEY(i);
        else I64(keys_out)[pos[i]] = (int64_t)PART_KEY(i);
    }
#undef PART_KEY
    for (int c = 0; c < ncols; c++) {
        const attu_gather_col *g = &cols[c];
        const char *src = g->src->ptr;
        char *dst = g->dst->ptr;
        for (size_t i = 0; i < n; i++) memcpy(dst + pos[i] * g->width, src + i * g->width, g->width);
        if (g->src_valid && g->dst_valid)
            for (size_t i = 0; i < n; i++)
                ((uint8_t *)g->dst_valid->ptr)[pos[i]] = ((const uint8_t *)g->src_valid->ptr)[i];
    }
    free(pos);
    return 0;
}

/* count_keys: the workers add into the one table with relaxed atomic
 * increments (the order of adds does not change a count). */
typedef struct count_keys_ctx {
    const void *keys;
    size_t kw;
    int64_t base;
    int32_t *counts;
} count_keys_ctx;

static void count_keys_range(void *vc, size_t b, size_t e, int w) {
    const count_keys_ctx *c = vc;
    (void)w;
    for (size_t i = b; i < e; i++) {
        int64_t k = (c->kw == 4 ? (int64_t)((const int32_t *)c->keys)[i] : ((const int64_t *)c->keys)[i]) - c->base;
        __atomic_fetch_add(&c->counts[k], 1, __ATOMIC_RELAXED);
    }
}

static int cpu_count_keys(attu_backend *be, const attu_vec *keys, int64_t key_base, size_t n, attu_buf *counts,
                          size_t nkeys, attu_error *err) {
    (void)err;
    attu_type_id kt = keys->type.id;
    if ((kt != ATTU_TYPE_INT32 && kt != ATTU_TYPE_DATE && kt != ATTU_TYPE_INT64 && !attu_type_is_int64_datetime(kt)) ||
        n > 0x7fffffffull - 65536 || nkeys > 0x7fffffffull - 65536) return 1;
    memset(counts->ptr, 0, nkeys * sizeof(int32_t));
    count_keys_ctx c = { keys->data->ptr, attu_type_width(kt), key_base, counts->ptr };
    attu_parallel_range(THREADS(be), n, 1 << 16, count_keys_range, &c);
    return 0;
}

static int cpu_scatter(attu_backend *be, attu_buf *dst, const attu_buf *src, size_t width,
                       const attu_buf *idx, size_t n, attu_error *err) {
    for (size_t i = 0; i < n; i++)
        memcpy((char *)dst->ptr + (size_t)CI64(idx)[i] * width,
               (const char *)src->ptr + i * width, width);
    return 0;
}

/* ---- eval -------------------------------------------------------------------- */

typedef struct eval_ctx {
    interrupt intr;
    const attu_expr_program *prog;
    const attu_vec *inputs;
    attu_out *outputs;
    attu_error errs[64];
    int failed[64];
    /* TEXT outputs: strings copied here (single-threaded when any exist) */
    char **tbytes; size_t *tlen, *tcap;
    size_t **toff;        /* per text output: n+1 offsets */
} eval_ctx;

static int append_text(eval_ctx *c, int o, const char *s, size_t len) {
    if (c->tlen[o] + len > c->tcap[o]) {
        size_t nc = c->tcap[o] ? c->tcap[o] * 2 : 4096;
        while (nc < c->tlen[o] + len) nc *= 2;
        char *nb = realloc(c->tbytes[o], nc);
        if (!nb) return -1;
        c->tbytes[o] = nb;
        c->tcap[o] = nc;
    }
    if (len) memcpy(c->tbytes[o] + c->tlen[o], s, len);
    c->tlen[o] += len;
    return 0;
}

static void eval_range(void *vc, size_t b, size_t e, int w) {
    eval_ctx *c = vc;
    const attu_expr_program *p = c->prog;
    attu_interp *it = attu_interp_new_rows(p, e - b);
    if (!it) { attu_error_oom(&c->errs[w]); c->failed[w] = 1; return; }
    for (size_t base = b; base < e; base += ATTU_INTERP_BATCH) {
        size_t n = e - base < ATTU_INTERP_BATCH ? e - base : ATTU_INTERP_BATCH;
        if (((base - b) & ((ATTU_INTERP_BATCH << 6) - 1)) == 0 && check_interrupt(&c->intr, &c->errs[w])) { c->failed[w] = 1; break; }
        for (int i = 0; i < p->ninputs; i++)
            attu_cpu_load_slots(&c->inputs[i], base, n, attu_interp_input(it, i));
        if (attu_interp_run(it, n, &c->errs[w])) { c->failed[w] = 1; break; }
        for (int o = 0; o < p->noutputs; o++) {
            const attu_slot *s = attu_interp_output(it, o);
            attu_out *out = &c->outputs[o];
            if (out->type.id == ATTU_TYPE_TEXT) {
                for (size_t r = 0; r < n; r++) {
                    if (!s[r].null && append_text(c, o, s[r].v.s, s[r].len)) {
                        attu_error_oom(&c->errs[w]); c->failed[w] = 1; goto done;
                    }
                    c->toff[o][base + r + 1] = c->tlen[o];
                }
                if (out->valid) for (size_t r = 0; r < n; r++) ((uint8_t *)out->valid->ptr)[base + r] = !s[r].null;
                continue;
            }
            attu_cpu_store_slots(out, base, n, s);
        }
    }
done:
    attu_interp_free(it);
}

static int cpu_eval(attu_backend *be, const attu_expr_program *prog, const attu_vec *inputs,
                    size_t n, attu_out *outputs, attu_error *err) {
    eval_ctx *c = calloc(1, sizeof *c);
    if (!c) return attu_error_oom(err);
    c->prog = prog; c->inputs = inputs; c->outputs = outputs;
    c->intr = cur_interrupt;
    int no = prog->noutputs, has_text = 0, rc = 0;
    c->tbytes = calloc((size_t)no + 1, sizeof(char *));
    c->tlen = calloc((size_t)no + 1, sizeof(size_t));
    c->tcap = calloc((size_t)no + 1, sizeof(size_t));
    c->toff = calloc((size_t)no + 1, sizeof(size_t *));
    if (!c->tbytes || !c->tlen || !c->tcap || !c->toff) { rc = attu_error_oom(err); goto out; }
    for (int o = 0; o < no; o++) {
        outputs[o].dict = NULL;
        if (outputs[o].type.id == ATTU_TYPE_TEXT) {
            has_text = 1;
            c->toff[o] = calloc(n + 1, sizeof(size_t));
            if (!c->toff[o]) { rc = attu_error_oom(err); goto out; }
        }
    }
    /* random() draws in row order from the session's generator, on this
     * thread (engine/random.h): one worker for such a program */
    int used = attu_parallel_range(has_text || attu_program_uses_random(prog) ? 1 : THREADS(be), n, 4096, eval_range, c);
    for (int w = 0; w < used; w++)
        if (c->failed[w]) { *err = c->errs[w].set ? c->errs[w] : *err; rc = -1; if (!err->set) attu_error_oom(err); goto out; }
    for (int o = 0; o < no && has_text; o++) {
        if (outputs[o].type.id != ATTU_TYPE_TEXT) continue;
        const char **strs = malloc(sizeof *strs * (n ? n : 1));
        size_t *lens = malloc(sizeof *lens * (n ? n : 1));
        if (!strs || !lens) { free(strs); free(lens); rc = attu_error_oom(err); goto out; }
        for (size_t r = 0; r < n; r++) {
            strs[r] = c->tbytes[o] ? c->tbytes[o] + c->toff[o][r] : "";
            lens[r] = c->toff[o][r + 1] - c->toff[o][r];
        }
        outputs[o].dict = attu_dictionary_build(strs, lens, n, (int32_t *)outputs[o].data->ptr, err);
        free(strs); free(lens);
        if (!outputs[o].dict) { rc = -1; goto out; }
        /* NULL rows got "" codes; keep them zero as column.h wants. */
        if (outputs[o].valid)
            for (size_t r = 0; r < n; r++)
                if (!((uint8_t *)outputs[o].valid->ptr)[r]) ((int32_t *)outputs[o].data->ptr)[r] = 0;
    }
out:
    for (int o = 0; o < no; o++) { if (c->tbytes) free(c->tbytes[o]); if (c->toff) free(c->toff[o]); }
    free(c->tbytes); free(c->tlen); free(c->tcap); free(c->toff);
    free(c);
    return rc;
}

/* ---- compact --------------------------------------------------------------- */

typedef struct compact_ctx {
    const uint8_t *m; const uint8_t *v;
    size_t counts[256], starts[256];
    size_t begins[256];
    int64_t *out;
    int pass;
} compact_ctx;

static void compact_range(void *vc, size_t b, size_t e, int w) {
    compact_ctx *c = vc;
    if (c->pass == 0) {
        size_t k = 0;
        for (size_t i = b; i < e; i++) k += c->m[i] && (!c->v || c->v[i]);
        c->counts[w] = k;
        c->begins[w] = b;
    } else {
        size_t k = c->starts[w];
        for (size_t i = b; i < e; i++) if (c->m[i] && (!c->v || c->v[i])) c->out[k++] = (int64_t)i;
    }
}

static int cpu_compact(attu_backend *be, const attu_vec *mask, size_t n, attu_buf **idx_out,
                       size_t *count_out, attu_error *err) {
    compact_ctx c;
    memset(&c, 0, sizeof c);
    c.m = mask->data->ptr;
    c.v = mask->valid ? mask->valid->ptr : NULL;
    int threads = THREADS(be) > 256 ? 256 : THREADS(be);
    int used = attu_parallel_range(threads, n, 1 << 16, compact_range, &c);
    size_t total = 0;
    for (int w = 0; w < used; w++) { c.starts[w] = total; total += c.counts[w]; }
    attu_buf *out = cpu_alloc(be, total * sizeof(int64_t), err);
    if (!out) return -1;
    c.out = out->ptr;
    c.pass = 1;
    attu_parallel_range(threads, n, 1 << 16, compact_range, &c);
    *idx_out = out;
    *count_out = total;
    return 0;
}

/* ---- sorting ----------------------------------------------------------------- */

/* Compares rows i and j by the keys (NULL placement, direction); ties 0. */
static int key_cmp(const attu_sort_key *keys, int nkeys, int64_t i, int64_t j) {
    for (int k = 0; k < nkeys; k++) {
        const attu_sort_key *key = &keys[k];
        if (!key->col.data) {   /* the row number (top_k's tie key) */
            int c = (i > j) - (i < j);
            if (c) return key->desc ? -c : c;
            continue;
        }
        const uint8_t *v = key->col.valid ? key->col.valid->ptr : NULL;
        int ni = v && !v[i], nj = v && !v[j];
        if (ni || nj) {
            if (ni && nj) continue;
            int c = ni ? 1 : -1;               /* NULL greater ... */
            if (key->nulls_first) c = -c;      /* ... unless placed first */
            return c;
        }
        int c = attu_cpu_value_cmp(&key->col, i, j);
        if (c) return key->desc ? -c : c;
    }
    return 0;
}

typedef struct sort_job { const attu_sort_key *keys; int nkeys; } sort_job;

/* Stable merge sort of idx[0..n) using tmp. */
static void merge_sort(const sort_job *sj, int64_t *idx, int64_t *tmp, size_t n) {
    if (n < 16) {
        for (size_t i = 1; i < n; i++) {
            int64_t x = idx[i];
            size_t j = i;
            while (j > 0 && key_cmp(sj->keys, sj->nkeys, idx[j - 1], x) > 0) { idx[j] = idx[j - 1]; j--; }
            idx[j] = x;
        }
        return;
    }
    size_t h = n / 2;
    merge_sort(sj, idx, tmp, h);
    merge_sort(sj, idx + h, tmp + h, n - h);
    if (key_cmp(sj->keys, sj->nkeys, idx[h - 1], idx[h]) <= 0) return;
    memcpy(tmp, idx, n * sizeof *idx);
    size_t a = 0, b = h, o = 0;
    while (a < h && b < n) idx[o++] = key_cmp(sj->keys, sj->nkeys, tmp[b], tmp[a]) < 0 ? tmp[b++] : tmp[a++];
    while (a < h) idx[o++] = tmp[a++];
    while (b < n) idx[o++] = tmp[b++];
}

typedef struct psort_ctx { const sort_job *sj; int64_t *idx, *tmp; size_t bounds[257]; } psort_ctx;

static void psort_range(void *vc, size_t b, size_t e, int w) {
    psort_ctx *c = vc;
    merge_sort(c->sj, c->idx + b, c->tmp + b, e - b);
    c->bounds[w] = b;
    c->bounds[w + 1] = e;
}

static void merge_runs(const sort_job *sj, int64_t *idx, int64_t *tmp, size_t a0, size_t a1, size_t b1) {
    memcpy(tmp + a0, idx + a0, (b1 - a0) * sizeof *idx);
    size_t a = a0, b = a1, o = a0;
    while (a < a1 && b < b1) idx[o++] = key_cmp(sj->keys, sj->nkeys, tmp[b], tmp[a]) < 0 ? tmp[b++] : tmp[a++];
    while (a < a1) idx[o++] = tmp[a++];
    while (b < b1) idx[o++] = tmp[b++];
}

static int sort_indices(attu_backend *be, const attu_sort_key *keys, int nkeys, int64_t *idx,
                        size_t n, attu_error *err) {
    if (attu_cpu_radix_sortable(keys, nkeys, n) && !getenv("ATTU_CPU_MERGE_SORT"))
        return attu_cpu_radix_sort(THREADS(be), keys, nkeys, idx, n, err);
    int64_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp) return attu_error_oom(err);
    sort_job sj = { keys, nkeys };
    psort_ctx c;
    memset(&c, 0, sizeof c);
    c.sj = &sj; c.idx = idx; c.tmp = tmp;
    int threads = THREADS(be) > 64 ? 64 : THREADS(be);
    int used = attu_parallel_range(threads, n, 1 << 15, psort_range, &c);
    /* merge the sorted runs pairwise (sequential; runs are few) */
    size_t runs[66];
    int nr = used;
    for (int w = 0; w <= used; w++) runs[w] = c.bounds[w];
    runs[used] = n;
    runs[0] = 0;
    while (nr > 1) {
        int k = 0;
        for (int r = 0; r + 1 < nr; r += 2) {
            merge_runs(&sj, idx, tmp, runs[r], runs[r + 1], runs[r + 2]);
            runs[k++] = runs[r];
        }
        if (nr % 2) runs[k++] = runs[nr - 1];
        runs[k] = n;
        nr = k;
    }
    free(tmp);
    return 0;
}

static int cpu_sort(attu_backend *be, const attu_sort_key *keys, int nkeys, size_t n,
                    attu_buf *perm, attu_error *err) {
    int64_t *idx = I64(perm);
    for (size_t i = 0; i < n; i++) idx[i] = (int64_t)i;
    return sort_indices(be, keys, nkeys, idx, n, err);
}

static int cpu_top_k(attu_backend *be, const attu_sort_key *keys, int nkeys, size_t n,
                     size_t k, attu_buf *perm, attu_error *err) {
    /* A bounded insertion buffer for small k, a full sort otherwise. */
    if (k == 0) return 0;
    if (k > 1024 || k * 8 > n) {
        int64_t *all = malloc((n ? n : 1) * sizeof *all);
        if (!all) return attu_error_oom(err);
        for (size_t i = 0; i < n; i++) all[i] = (int64_t)i;
        if (sort_indices(be, keys, nkeys, all, n, err)) { free(all); return -1; }
        memcpy(perm->ptr, all, k * sizeof *all);
        free(all);
        return 0;
    }
    int64_t *best = I64(perm);
    size_t have = 0;
    for (size_t i = 0; i < n; i++) {
        if (have == k && key_cmp(keys, nkeys, (int64_t)i, best[k - 1]) >= 0) continue;
        size_t j = have < k ? have++ : k - 1;
        while (j > 0 && key_cmp(keys, nkeys, (int64_t)i, best[j - 1]) < 0) { best[j] = best[j - 1]; j--; }
        best[j] = (int64_t)i;
    }
    return 0;
}

/* ---- a window of the order by sampling ------------------------------------------ */

/* Rows at positions [start, start + cnt) of the sort's order without sorting
 * every row (LIMIT / OFFSET anywhere in an ORDER BY). The order is made
 * total by the row number after the keys (the stable sort's tie), so two
 * sampled rows lo < hi bracket exactly the rows between them: a sorted
 * random sample picks lo and hi a margin of five standard deviations of a
 * sample rank outside the window (as the GPU backend does on the first
 * key's image), one parallel pass counts the rows before lo and keeps the
 * rows within [lo, hi] in row order, and when the window falls among them
 * they are sorted (stable, by the keys) and the window read off. A sample
 * that misses (about once in millions) declines, and the caller sorts. */
#define WINDOW_WORKERS 256

typedef struct window_ctx {
    const attu_sort_key *keys;
    int      nkeys;
    int64_t  lo, hi;              /* bracket rows; -1: that side open */
    size_t   below[WINDOW_WORKERS], count[WINDOW_WORKERS];
    int64_t *cand[WINDOW_WORKERS];
    bool     oom;
} window_ctx;

static int total_cmp(const attu_sort_key *keys, int nkeys, int64_t i, int64_t j) {
    int c = key_cmp(keys, nkeys, i, j);
    return c ? c : (i > j) - (i < j);
}

static void window_range(void *vc, size_t b, size_t e, int w) {
    window_ctx *c = vc;
    size_t below = 0, m = 0, cap = 0;
    int64_t *out = NULL;
    for (size_t i = b; i < e; i++) {
        if (c->lo >= 0 && total_cmp(c->keys, c->nkeys, (int64_t)i, c->lo) < 0) { below++; continue; }
        if (c->hi >= 0 && total_cmp(c->keys, c->nkeys, (int64_t)i, c->hi) > 0) continue;
        if (m == cap) {
            size_t ncap = cap ? cap * 2 : 1024;
            int64_t *t = realloc(out, ncap * sizeof *t);
            if (!t) { c->oom = true; break; }
            out = t;
            cap = ncap;
        }
        out[m++] = (int64_t)i;
    }
    c->below[w] = below;
    c->count[w] = m;
    c->cand[w] = out;
}

/* select_window_set: the CPU has no cheaper way to the set than to the
 * order (its select_window's bracket pays on narrow windows only): the
 * window of the sort, in order, which is one of the orders a set allows. */
static int cpu_select_window_set(attu_backend *be, const attu_sort_key *keys, int nkeys, size_t n, size_t start,
                                 size_t cnt, attu_buf *perm, bool *done, attu_error *err) {
    *done = false;
    if (start >= n || cnt == 0) { *done = true; return 0; }
    if (cnt > n - start) cnt = n - start;
    int64_t *idx = malloc(n * sizeof *idx);
    if (!idx) return attu_error_oom(err);
    for (size_t i = 0; i < n; i++) idx[i] = (int64_t)i;
    if (sort_indices(be, keys, nkeys, idx, n, err)) { free(idx); return -1; }
    memcpy(perm->ptr, idx + start, cnt * sizeof *idx);
    free(idx);
    *done = true;
    return 0;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int cpu_select_window(attu_backend *be, const attu_sort_key *keys, int nkeys, size_t n, size_t start,
                             size_t cnt, attu_buf *perm, bool *done, attu_error *err) {
    *done = false;
    if (start >= n || cnt == 0) { *done = true; return 0; }
    if (cnt > n - start) cnt = n - start;
    if (n < 65536 || cnt > n / 8) return 0;
    const size_t s = n / 16 < ((size_t)1 << 18) ? n / 16 : (size_t)1 << 18;   /* >= 4096 here */
    const char *zv = getenv("ATTU_CPU_WINDOW_Z");   /* the tests narrow it to see misses declined */
    const double z = zv && *zv ? atof(zv) : 5.0;
    double plo = (double)start / (double)n, phi = (double)(start + cnt) / (double)n;
    long long jl = (long long)floor(plo * (double)s - (z * sqrt((double)s * plo * (1 - plo)) + 2));
    long long ju = (long long)ceil(phi * (double)s + (z * sqrt((double)s * phi * (1 - phi)) + 2));
    double expect = (double)n * (double)((ju < (long long)s ? ju : (long long)s) - (jl > 0 ? jl : 0)) / (double)s;
    if (2 * expect + (double)cnt > (double)n / 4) return 0;   /* a bracket this wide saves little */
    /* the sample: splitmix64 of the sample's number, rows in ascending
     * order so that the stable sort by the keys orders it totally */
    int64_t *smp = malloc(s * sizeof *smp);
    if (!smp) return attu_error_oom(err);
    for (size_t j = 0; j < s; j++) {
        uint64_t x = (uint64_t)j * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
        x ^= x >> 31;
        smp[j] = (int64_t)(x % n);
    }
    qsort(smp, s, sizeof *smp, cmp_i64);
    if (sort_indices(be, keys, nkeys, smp, s, err)) { free(smp); return -1; }
    window_ctx *c = calloc(1, sizeof *c);
    if (!c) { free(smp); return attu_error_oom(err); }
    c->keys = keys;
    c->nkeys = nkeys;
    c->lo = jl < 0 ? -1 : smp[jl];
    c->hi = ju >= (long long)s ? -1 : smp[ju];
    free(smp);
    int threads = THREADS(be) > WINDOW_WORKERS ? WINDOW_WORKERS : THREADS(be);
    int used = attu_parallel_range(threads, n, 1 << 16, window_range, c);
    size_t below = 0, m = 0;
    for (int w = 0; w < used; w++) { below += c->below[w]; m += c->count[w]; }
    int rc = 0;
    int64_t *cand = NULL;
    if (c->oom) { rc = attu_error_oom(err); goto out; }
    if (below > start || below + m < start + cnt) goto out;   /* the sample missed: decline */
    cand = malloc((m ? m : 1) * sizeof *cand);
    if (!cand) { rc = attu_error_oom(err); goto out; }
    size_t o = 0;
    for (int w = 0; w < used; w++) {
        if (!c->count[w]) continue;   /* a worker that kept none has no array */
        memcpy(cand + o, c->cand[w], c->count[w] * sizeof *cand);
        o += c->count[w];
    }
    /* in row order: the stable sort by the keys is the total order */
    if (sort_indices(be, keys, nkeys, cand, m, err)) { rc = -1; goto out; }
    memcpy(perm->ptr, cand + (start - below), cnt * sizeof *cand);
    *done = true;
out:
    for (int w = 0; w < used; w++) free(c->cand[w]);
    free(c);
    free(cand);
    return rc;
}

static int cpu_segmented_sort(attu_backend *be, const attu_sort_key *keys, int nkeys,
                              const attu_buf *offsets, size_t nseg, attu_buf *perm, size_t n,
                              attu_error *err) {
    int64_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp) return attu_error_oom(err);
    sort_job sj = { keys, nkeys };
    for (size_t s = 0; s < nseg; s++) {
        int64_t b = CI64(offsets)[s], e = CI64(offsets)[s + 1];
        merge_sort(&sj, I64(perm) + b, tmp + b, (size_t)(e - b));
    }
    free(tmp);
    return 0;
}

static int cpu_segment_heads(attu_backend *be, const attu_vec *keys, int nkeys, const attu_buf *perm,
                             size_t n, attu_buf **heads_out, size_t *nheads_out, attu_error *err) {
    attu_buf *h = cpu_alloc(be, (n ? n : 1) * sizeof(int64_t), err);
    if (!h) return -1;
    const int64_t *p = perm ? CI64(perm) : NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int head = i == 0;
        int64_t a = p ? p[i] : (int64_t)i, b = i ? (p ? p[i - 1] : (int64_t)i - 1) : 0;
        for (int c = 0; c < nkeys && !head; c++) {
            const uint8_t *v = keys[c].valid ? keys[c].valid->ptr : NULL;
            int na = v && !v[a], nb = v && !v[b];
            if (na != nb) head = 1;
            else if (!na && attu_cpu_value_cmp(&keys[c], a, b) != 0) head = 1;
        }
        if (head) I64(h)[k++] = (int64_t)i;
    }
    *heads_out = h;
    *nheads_out = k;
    return 0;
}

/* ---- reductions ------------------------------------------------------------- */

typedef struct segred_ctx {
    const int64_t *off; const int64_t *perm;
    int nreduce; const attu_reduce_spec *specs; attu_out *outs;
    char **txt[64]; size_t *tlen[64];   /* STRING_AGG outputs: each segment's text */
    attu_error errs[256]; int failed[256];
} segred_ctx;

static void segred_range(void *vc, size_t b, size_t e, int w) {
    segred_ctx *c = vc;
    attu_reducer *rs[64];
    int nr = c->nreduce;
    for (int k = 0; k < nr; k++) rs[k] = attu_reducer_new(&c->specs[k]);
    for (int k = 0; k < nr; k++) if (!rs[k]) { attu_error_oom(&c->errs[w]); c->failed[w] = 1; goto done; }
    for (size_t s = b; s < e; s++) {
        for (int k = 0; k < nr; k++) attu_reducer_reset(rs[k]);
        for (int64_t pos = c->off[s]; pos < c->off[s + 1]; pos++) {
            int64_t row = c->perm ? c->perm[pos] : pos;
            for (int k = 0; k < nr; k++) {
                if (attu_reducer_add_row(rs[k], &c->specs[k], row, &c->errs[w])) { c->failed[w] = 1; goto done; }
            }
        }
        for (int k = 0; k < nr; k++) {
            attu_reducer_store(rs[k], &c->outs[k], s);
            if (c->txt[k]) {
                const char *t;
                size_t l;
                if (attu_reducer_text(rs[k], &t, &l)) {
                    if (!(c->txt[k][s] = malloc(l ? l : 1))) { attu_error_oom(&c->errs[w]); c->failed[w] = 1; goto done; }
                    memcpy(c->txt[k][s], t, l);
                    c->tlen[k][s] = l;
                }
            }
        }
    }
done:
    for (int k = 0; k < nr; k++) attu_reducer_free(rs[k]);
}

static int cpu_segreduce(attu_backend *be, const attu_buf *offsets, size_t nseg, const attu_buf *perm,
                         int nreduce, const attu_reduce_spec *specs, attu_out *outs, attu_error *err) {
    if (nreduce > 64) return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "too many aggregates in one query (at most 64)");
    segred_ctx *c = calloc(1, sizeof *c);
    if (!c) return attu_error_oom(err);
    c->off = CI64(offsets); c->perm = perm ? CI64(perm) : NULL;
    c->nreduce = nreduce; c->specs = specs; c->outs = outs;
    int rc = 0;
    for (int k = 0; k < nreduce; k++) {
        if (specs[k].op != ATTU_REDUCE_STRING_AGG) continue;
        outs[k].dict = NULL;
        c->txt[k] = calloc(nseg ? nseg : 1, sizeof(char *));
        c->tlen[k] = calloc(nseg ? nseg : 1, sizeof(size_t));
        if (!c->txt[k] || !c->tlen[k]) { rc = attu_error_oom(err); goto out; }
    }
    int threads = THREADS(be) > 256 ? 256 : THREADS(be);
    /* at least ~64K rows a worker, however few the segments (a GROUP BY of
     * 100 groups over 100M rows ran on one thread with 256 segments a
     * worker); each segment is still reduced whole, in order, by one */
    size_t rows = nseg ? (size_t)(c->off[nseg] - c->off[0]) : 0;
    size_t grain = nseg ? ((size_t)1 << 16) / (rows / nseg + 1) : 1;
    if (grain < 1) grain = 1;
    if (grain > 256) grain = 256;
    int used = attu_parallel_range(threads, nseg, grain, segred_range, c);
    for (int w = 0; w < used; w++) if (c->failed[w]) { *err = c->errs[w]; rc = -1; break; }
    /* STRING_AGG: one new dictionary over the segments' texts (NULL rows
     * keep code 0, as column.h wants) */
    for (int k = 0; k < nreduce && !rc; k++) {
        if (!c->txt[k]) continue;
        const char **strs = malloc(sizeof *strs * (nseg ? nseg : 1));
        if (!strs) { rc = attu_error_oom(err); break; }
        for (size_t s = 0; s < nseg; s++) strs[s] = c->txt[k][s] ? c->txt[k][s] : "";
        outs[k].dict = attu_dictionary_build(strs, c->tlen[k], nseg, (int32_t *)outs[k].data->ptr, err);
        free(strs);
        if (!outs[k].dict) { rc = -1; break; }
        if (outs[k].valid)
            for (size_t s = 0; s < nseg; s++)
                if (!((uint8_t *)outs[k].valid->ptr)[s]) ((int32_t *)outs[k].data->ptr)[s] = 0;
    }
out:
    for (int k = 0; k < nreduce; k++) {
        if (c->txt[k]) for (size_t s = 0; s < nseg; s++) free(c->txt[k][s]);
        free(c->txt[k]); free(c->tlen[k]);
    }
    free(c);
    return rc;
}

static int cpu_reduce(attu_backend *be, size_t n, int nreduce, const attu_reduce_spec *specs,
                      attu_out *outs, attu_error *err) {
    int64_t off[2] = { 0, (int64_t)n };
    attu_buf ob = { off, sizeof off };
    return cpu_segreduce(be, &ob, 1, NULL, nreduce, specs, outs, err);
}

/* The fused aggregate on the CPU is the two calls it fuses: the inputs read
 * through their rows are gathered, the program runs into temporaries and
 * reduce reads them. Nothing is saved here (the CPU streams each column
 * through its caches either way), but the executor's fused path then runs,
 * and is tested, on both backends. */
static int cpu_eval_reduce(attu_backend *be, const attu_expr_program *prog, const attu_vec *inputs,
                           const attu_vec *rows, size_t n, int nreduce, const attu_reduce_spec *specs,
                           attu_out *outs, attu_error *err) {
    int nin = prog->ninputs, no = prog->noutputs, rc = -1;
    for (int o = 0; o < no; o++)
        if (prog->reg_types[prog->outputs[o]].id == ATTU_TYPE_TEXT) return 1;   /* dictionaries: not fused */
    attu_vec *ins = calloc((size_t)nin + 1, sizeof *ins);
    attu_buf **own = calloc((size_t)(3 * nin + 2 * no) + 1, sizeof *own);
    attu_out *eo = calloc((size_t)no + 1, sizeof *eo);
    attu_reduce_spec *rs = calloc((size_t)nreduce + 1, sizeof *rs);
    int nown = 0;
    if (!ins || !own || !eo || !rs) { attu_error_oom(err); goto done; }
    for (int i = 0; i < nin; i++) {
        ins[i] = inputs[i];
        if (!rows || !rows[i].data) continue;
        size_t w = attu_type_width(inputs[i].type.id);
        attu_buf *d = cpu_alloc(be, n * w + 1, err), *v = inputs[i].valid ? cpu_alloc(be, n + 1, err) : NULL;
        if (!d || (inputs[i].valid && !v)) { cpu_free(be, d); cpu_free(be, v); goto done; }
        own[nown++] = d;
        if (v) own[nown++] = v;
        const attu_buf *ix = rows[i].data;
        if (rows[i].type.id == ATTU_TYPE_INT32) {
            /* int32 rows (a split join's partners): widened for the gather */
            attu_buf *w8 = cpu_alloc(be, n * 8 + 1, err);
            if (!w8) goto done;
            own[nown++] = w8;
            for (size_t r = 0; r < n; r++) I64(w8)[r] = ((const int32_t *)ix->ptr)[r];
            ix = w8;
        }
        if (cpu_gather(be, d, v, inputs[i].data, inputs[i].valid, w, ix, n, err)) goto done;
        ins[i].data = d;
        ins[i].valid = v;
    }
    for (int o = 0; o < no; o++) {
        attu_type t = prog->reg_types[prog->outputs[o]];
        attu_buf *d = cpu_alloc(be, n * attu_type_width(t.id) + 1, err), *v = d ? cpu_alloc(be, n + 1, err) : NULL;
        if (!d || !v) { cpu_free(be, d); cpu_free(be, v); goto done; }
        own[nown++] = d;
        own[nown++] = v;
        eo[o] = (attu_out){ t, d, v, NULL };
    }
    if (cpu_eval(be, prog, ins, n, eo, err)) goto done;
    for (int k = 0; k < nreduce; k++) {
        rs[k] = specs[k];
        if (specs[k].in_reg >= 0) rs[k].in = (attu_vec){ eo[specs[k].in_reg].type, eo[specs[k].in_reg].data,
                                                         eo[specs[k].in_reg].valid, NULL };
    }
    rc = cpu_reduce(be, n, nreduce, rs, outs, err);
done:
    for (int i = 0; i < nown; i++) cpu_free(be, own[i]);
    free(ins); free(own); free(eo); free(rs);
    return rc;
}

static int cpu_scan(attu_backend *be, const attu_buf *in, attu_buf *out, size_t n, bool inclusive,
                    int64_t *total, attu_error *err) {
    int64_t s = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t v = CI64(in)[i];
        if (inclusive) { s += v; I64(out)[i] = s; }
        else { I64(out)[i] = s; s += v; }
    }
    if (total) *total = s;
    return 0;
}

static size_t bound(const int64_t *h, size_t nh, int64_t x, bool upper) {
    size_t lo = 0, hi = nh;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (upper ? h[mid] <= x : h[mid] < x) lo = mid + 1; else hi = mid;
    }
    return lo;
}

typedef struct ss_ctx { const int64_t *nd, *h; size_t nh; bool upper; int64_t *out; } ss_ctx;
static void ss_range(void *vc, size_t b, size_t e, int w) {
    ss_ctx *c = vc;
    for (size_t i = b; i < e; i++) c->out[i] = (int64_t)bound(c->h, c->nh, c->nd[i], c->upper);
}

static int cpu_sorted_search(attu_backend *be, const attu_buf *needles, size_t nn, const attu_buf *hay,
                             size_t nh, bool upper, attu_buf *out, attu_error *err) {
    ss_ctx c = { CI64(needles), CI64(hay), nh, upper, I64(out) };
    attu_parallel_range(THREADS(be), nn, 1 << 14, ss_range, &c);
    return 0;
}

static int cpu_inner_join(attu_backend *be, const attu_buf *a, size_t na, const attu_buf *b, size_t nb,
                          bool left, attu_buf **a_idx, attu_buf **b_idx, size_t *npairs, attu_error *err) {
    /* sorted_search lower/upper, scan of the match counts, then the
     * load-balanced expansion into pairs: the GPU's decomposition. */
    int64_t *lo = malloc((na ? na : 1) * sizeof *lo), *cnt = malloc((na + 1) * sizeof *cnt);
    if (!lo || !cnt) { free(lo); free(cnt); return attu_error_oom(err); }
    size_t total = 0;
    for (size_t i = 0; i < na; i++) {
        int64_t x = CI64(a)[i];
        size_t l = bound(CI64(b), nb, x, false), u = bound(CI64(b), nb, x, true);
        lo[i] = (int64_t)l;
        size_t c = u - l;
        if (!c && left) c = 1, lo[i] = -1;
        cnt[i] = (int64_t)total;
        total += c;
    }
    cnt[na] = (int64_t)total;
    attu_buf *ai = cpu_alloc(be, (total ? total : 1) * sizeof(int64_t), err);
    attu_buf *bi = ai ? cpu_alloc(be, (total ? total : 1) * sizeof(int64_t), err) : NULL;
    if (!ai || !bi) { cpu_free(be, ai); free(lo); free(cnt); return -1; }
    for (size_t i = 0; i < na; i++)
        for (int64_t k = cnt[i]; k < cnt[i + 1]; k++) {
            I64(ai)[k] = (int64_t)i;
            I64(bi)[k] = lo[i] < 0 ? -1 : lo[i] + (k - cnt[i]);
        }
    free(lo); free(cnt);
    *a_idx = ai; *b_idx = bi; *npairs = total;
    return 0;
}

static int cpu_lbs(attu_backend *be, const attu_buf *offsets, size_t nseg, size_t total,
                   attu_buf *seg_out, attu_error *err) {
    size_t s = 0;
    for (size_t i = 0; i < total; i++) {
        while (s + 1 < nseg && (size_t)CI64(offsets)[s + 1] <= i) s++;
        I64(seg_out)[i] = (int64_t)s;
    }
    return 0;
}

/* ---- the fused join-aggregate ------------------------------------------------ */

typedef struct lbsr_ctx {
    const attu_lbs_segreduce_args *a;
    interrupt intr;
    attu_error errs[256]; int failed[256];
} lbsr_ctx;

static void lbsr_range(void *vc, size_t b, size_t e, int w) {
    lbsr_ctx *c = vc;
    const attu_lbs_segreduce_args *a = c->a;
    const attu_expr_program *p = a->prog;
    attu_interp *it = attu_interp_new(p);
    attu_reducer *rs[64];
    int nr = a->nreduce;
    int64_t rows[ATTU_INTERP_BATCH];
    for (int k = 0; k < nr; k++) rs[k] = attu_reducer_new(&a->reduce[k]);
    if (!it) { attu_error_oom(&c->errs[w]); c->failed[w] = 1; goto done; }
    for (int k = 0; k < nr; k++) if (!rs[k]) { attu_error_oom(&c->errs[w]); c->failed[w] = 1; goto done; }
    const int64_t *off = CI64(a->seg_offsets), *base = CI64(a->seg_base), *map = CI64(a->right_map);
    for (size_t s = b; s < e; s++) {
        if ((s & 63) == 0 && check_interrupt(&c->intr, &c->errs[w])) { c->failed[w] = 1; goto done; }
        int64_t lrow = a->left_rows ? CI64(a->left_rows)[s] : (int64_t)s;
        int64_t cnt = off[s + 1] - off[s];
        for (int k = 0; k < nr; k++) attu_reducer_reset(rs[k]);
        bool left_loaded = false;
        int64_t passed = 0;
        for (int64_t r0 = 0; r0 < cnt; r0 += ATTU_INTERP_BATCH) {
            size_t n = (size_t)(cnt - r0 < ATTU_INTERP_BATCH ? cnt - r0 : ATTU_INTERP_BATCH);
            if (!left_loaded || n != ATTU_INTERP_BATCH) {
                for (int i = 0; i < a->nleft; i++)
                    attu_cpu_broadcast_slot(&a->left[i], lrow, n, attu_interp_input(it, i));
                left_loaded = n == ATTU_INTERP_BATCH;
            }
            for (size_t k = 0; k < n; k++) rows[k] = map[base[s] + r0 + (int64_t)k];
            for (int i = 0; i < a->nright; i++)
                attu_cpu_load_slots_idx(&a->right[i], rows, n, attu_interp_input(it, a->nleft + i));
            if (attu_interp_run(it, n, &c->errs[w])) { c->failed[w] = 1; goto done; }
            const attu_slot *filt = a->filter_reg >= 0 ? attu_interp_output(it, a->filter_reg) : NULL;
            for (int k = 0; k < nr; k++) {
                const attu_reduce_spec *sp = &a->reduce[k];
                const attu_slot *in = sp->in_reg >= 0 ? attu_interp_output(it, sp->in_reg) : NULL;
                const attu_slot *arg = sp->arg_reg >= 0 ? attu_interp_output(it, sp->arg_reg) : NULL;
                /* a TEXT arg that is a right input keeps its dictionary code */
                int arg_input = -1;
                if (arg && sp->out_type.id == ATTU_TYPE_TEXT) {
                    int reg = p->outputs[sp->arg_reg];
                    if (reg >= a->nleft && reg < a->nleft + a->nright) arg_input = reg - a->nleft;
                }
                for (size_t q = 0; q < n; q++) {
                    if (filt && (filt[q].null || !filt[q].v.i)) continue;
                    if (k == 0) passed++;
                    int64_t payload;
                    if (arg_input >= 0) payload = ((const int32_t *)a->right[arg_input].data->ptr)[rows[q]];
                    else payload = arg ? arg[q].v.i : 0;
                    int argnull = arg ? arg[q].null : 0;
                    if (attu_reducer_add_slot(rs[k], sp, in ? &in[q] : NULL, payload, argnull, &c->errs[w])) {
                        c->failed[w] = 1; goto done;
                    }
                }
            }
        }
        if (a->outer && (nr == 0 ? 0 : passed == 0)) {
            /* no partner: one item with the right side NULL */
            int64_t none = -1;
            for (int i = 0; i < a->nleft; i++) attu_cpu_broadcast_slot(&a->left[i], lrow, 1, attu_interp_input(it, i));
            for (int i = 0; i < a->nright; i++) attu_cpu_load_slots_idx(&a->right[i], &none, 1, attu_interp_input(it, a->nleft + i));
            if (attu_interp_run(it, 1, &c->errs[w])) { c->failed[w] = 1; goto done; }
            for (int k = 0; k < nr; k++) {
                const attu_reduce_spec *sp = &a->reduce[k];
                const attu_slot *in = sp->in_reg >= 0 ? attu_interp_output(it, sp->in_reg) : NULL;
                const attu_slot *arg = sp->arg_reg >= 0 ? attu_interp_output(it, sp->arg_reg) : NULL;
                if (attu_reducer_add_slot(rs[k], sp, in, arg ? arg->v.i : 0, arg ? arg->null : 1, &c->errs[w])) { c->failed[w] = 1; goto done; }
            }
        }
        for (int k = 0; k < nr; k++) attu_reducer_store(rs[k], &a->out[k], s);
    }
done:
    for (int k = 0; k < nr; k++) attu_reducer_free(rs[k]);
    attu_interp_free(it);
}

static int cpu_lbs_segreduce(attu_backend *be, const attu_lbs_segreduce_args *a, attu_error *err) {
    if (a->nreduce > 64) return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "too many aggregates");
    lbsr_ctx *c = calloc(1, sizeof *c);
    if (!c) return attu_error_oom(err);
    c->a = a;
    c->intr = cur_interrupt;
    int threads = THREADS(be) > 256 ? 256 : THREADS(be);
    if (attu_program_uses_random(a->prog)) threads = 1;   /* (as cpu_eval) */
    int used = attu_parallel_range(threads, a->nseg, 64, lbsr_range, c);
    int rc = 0;
    for (int w = 0; w < used; w++) if (c->failed[w]) { *err = c->errs[w]; rc = -1; break; }
    free(c);
    return rc;
}

/* ---- key encoding ------------------------------------------------------------ */

/* The counting sort's passes over the rows, one range a worker: 0 the
 * slots and each worker's count of every slot, 1 the stable scatter from
 * each worker's start in every slot (workers in row order, so the
 * permutation is the sequential one). */
typedef struct gdense_ctx {
    const attu_vec *keys;
    const int64_t *mins, *widths;
    int nkeys;
    size_t nslots;
    const int32_t *map;  /* group_dense's slot_map, or NULL */
    uint32_t *slot;
    int64_t *counts;   /* [worker][slot]: pass 0 counts, then each worker's next position */
    int64_t *perm;
    int pass;
} gdense_ctx;

/* Row i's dense slot (backend.h, group_dense): the last key varies fastest. */
static uint64_t dense_slot(const attu_vec *keys, const int64_t *mins, const int64_t *widths, int nkeys, size_t i) {
    uint64_t sl = 0;
    for (int k = 0; k < nkeys; k++) {
        const attu_vec *v = &keys[k];
        bool null = v->valid && !((const uint8_t *)v->valid->ptr)[i];
        int64_t x = null ? widths[k] - 1 : attu_cpu_key_bits(v, (int64_t)i) - mins[k];
        sl = sl * (uint64_t)widths[k] + (uint64_t)x;
    }
    return sl;
}

static void gdense_range(void *vc, size_t b, size_t e, int w) {
    gdense_ctx *c = vc;
    int64_t *mine = c->counts + (size_t)w * c->nslots;
    if (c->pass == 0) {
        for (size_t i = b; i < e; i++) {
            uint64_t sl = dense_slot(c->keys, c->mins, c->widths, c->nkeys, i);
            if (c->map) sl = (uint64_t)c->map[sl];
            c->slot[i] = (uint32_t)sl;
            mine[sl]++;
        }
    } else {
        for (size_t i = b; i < e; i++) c->perm[mine[c->slot[i]]++] = (int64_t)i;
    }
}

/* group_dense: a stable counting sort of the rows by slot, then segreduce
 * over the slots in that order: the rows of each group meet the reducers
 * in row order, exactly as after the comparison sort, in O(n + nslots). */
static int cpu_group_dense(attu_backend *be, const attu_vec *keys, const int64_t *mins,
                           const int64_t *widths, int nkeys, size_t n, size_t nslots,
                           const attu_buf *slot_map, int nreduce, const attu_reduce_spec *specs, attu_out *outs,
                           attu_buf *occupied, attu_buf *first_row, attu_buf **used_out, size_t *nused_out,
                           attu_error *err) {
    int threads = THREADS(be) > 64 ? 64 : THREADS(be);
    uint32_t *slot = malloc(sizeof *slot * (n ? n : 1));
    int64_t *off = calloc(nslots + 1, sizeof *off);
    int64_t *perm = malloc(sizeof *perm * (n ? n : 1));
    int64_t *counts = calloc((size_t)(threads > 0 ? threads : 1) * nslots + 1, sizeof *counts);
    int rc = 0;
    if (!slot || !off || !perm || !counts) { rc = attu_error_oom(err); goto out; }
    gdense_ctx c = { keys, mins, widths, nkeys, nslots, slot_map ? slot_map->ptr : NULL, slot, counts, perm, 0 };
    /* both passes split the rows the same way (same n, grain and threads) */
    int used = attu_parallel_range(threads, n, 1 << 16, gdense_range, &c);
    /* off: each slot's start; counts[w][s]: worker w's first position in s */
    int64_t at = 0;
    for (size_t s = 0; s < nslots; s++) {
        off[s] = at;
        for (int w = 0; w < used; w++) {
            int64_t k = counts[(size_t)w * nslots + s];
            counts[(size_t)w * nslots + s] = at;
            at += k;
        }
    }
    off[nslots] = at;
    c.pass = 1;
    attu_parallel_range(threads, n, 1 << 16, gdense_range, &c);
    uint8_t *occ = occupied->ptr;
    int64_t *first = first_row->ptr;
    for (size_t s = 0; s < nslots; s++) {
        occ[s] = off[s + 1] > off[s];
        first[s] = occ[s] ? perm[off[s]] : -1;
    }
    attu_buf ob = { off, sizeof *off * (nslots + 1) }, pb = { perm, sizeof *perm * (n ? n : 1) };
    rc = cpu_segreduce(be, &ob, nslots, &pb, nreduce, specs, outs, err);
    if (!rc && used_out) {
        size_t used = 0;
        for (size_t s = 0; s < nslots; s++) used += occ[s];
        attu_buf *u = be->alloc(be, (used ? used : 1) * sizeof(int64_t), err);
        if (!u) { rc = -1; goto out; }
        int64_t *up = u->ptr;
        for (size_t s = 0, j = 0; s < nslots; s++) if (occ[s]) up[j++] = (int64_t)s;
        *used_out = u;
        *nused_out = used;
    }
out:
    free(slot); free(off); free(perm); free(counts);
    return rc;
}

/* partition_first: each worker keeps the first row of every slot over its
 * range of rows (a strictly smaller key replaces it, so ties keep the lower
 * row); the workers' ranges follow row order, so merging their winners in
 * worker order with the same rule gives the sequential answer. */
typedef struct pfirst_ctx {
    const attu_vec *keys;
    const int64_t *mins, *widths;
    int nkeys;
    size_t nslots;
    const attu_sort_key *order;
    int norder;
    int64_t *best;     /* [worker][slot], -1 = no row yet */
} pfirst_ctx;

static void pfirst_range(void *vc, size_t b, size_t e, int w) {
    pfirst_ctx *c = vc;
    int64_t *mine = c->best + (size_t)w * c->nslots;
    for (size_t i = b; i < e; i++) {
        uint64_t sl = dense_slot(c->keys, c->mins, c->widths, c->nkeys, i);
        if (mine[sl] < 0 || key_cmp(c->order, c->norder, (int64_t)i, mine[sl]) < 0) mine[sl] = (int64_t)i;
    }
}

static int cpu_partition_first(attu_backend *be, const attu_vec *keys, const int64_t *mins,
                               const int64_t *widths, int nkeys, size_t n, size_t nslots,
                               const attu_sort_key *order, int norder, attu_buf **rows_out,
                               size_t *nrows_out, attu_error *err) {
    for (int k = 0; k < norder; k++)
        if (!order[k].col.data || attu_type_is_wide(order[k].col.type.id)) return 1;
    int threads = THREADS(be) > 64 ? 64 : THREADS(be);
    if (threads < 1) threads = 1;
    if (nslots == 0) nslots = 1;
    int64_t *best = malloc(sizeof *best * (size_t)threads * nslots);
    if (!best) return attu_error_oom(err);
    memset(best, 0xff, sizeof *best * (size_t)threads * nslots);   /* -1 */
    pfirst_ctx c = { keys, mins, widths, nkeys, nslots, order, norder, best };
    int used = attu_parallel_range(threads, n, 1 << 16, pfirst_range, &c);
    size_t cnt = 0;
    for (size_t s = 0; s < nslots; s++) {
        int64_t cur = -1;
        for (int w = 0; w < used; w++) {
            int64_t r = best[(size_t)w * nslots + s];
            if (r >= 0 && (cur < 0 || key_cmp(order, norder, r, cur) < 0)) cur = r;
        }
        if (cur >= 0) best[cnt++] = cur;   /* cnt <= s: slot s's entries are read already */
    }
    attu_buf *out = cpu_alloc(be, (cnt ? cnt : 1) * sizeof(int64_t), err);
    if (!out) { free(best); return -1; }
    memcpy(out->ptr, best, cnt * sizeof(int64_t));
    free(best);
    *rows_out = out;
    *nrows_out = cnt;
    return 0;
}

/* dense_runs */
typedef struct runs_ctx {
    const int64_t *needles, *bounds;
    int64_t kmin, kmax;
    int64_t *lo, *hi;
} runs_ctx;

static void runs_range(void *c, size_t b, size_t e, int w) {
    runs_ctx *r = c;
    (void)w;
    for (size_t i = b; i < e; i++) {
        int64_t k = r->needles[i];
        bool in = k >= r->kmin && k <= r->kmax;
        size_t j = in ? (size_t)(k - r->kmin) : 0;
        r->lo[i] = r->bounds[j];
        r->hi[i] = in ? r->bounds[j + 1] : r->bounds[0];
    }
}

static int cpu_dense_runs(attu_backend *be, const attu_buf *needles, size_t nn, const attu_buf *bounds,
                          int64_t kmin, int64_t kmax, attu_buf *lo, attu_buf *hi, attu_error *err) {
    (void)err;
    runs_ctx r = { CI64(needles), CI64(bounds), kmin, kmax, lo->ptr, hi->ptr };
    attu_parallel_range(THREADS(be), nn, 1 << 16, runs_range, &r);
    return 0;
}

/* dense_index: one pass in row order; a key seen twice ends it. */
static int cpu_dense_index(attu_backend *be, const attu_buf *keys, const attu_buf *mask, size_t n, int64_t kmin,
                           int64_t kmax, attu_buf *table, bool *unique_out, bool *identity_out, attu_error *err) {
    (void)be; (void)err;
    const int64_t *k = CI64(keys);
    const uint8_t *m = mask ? mask->ptr : NULL;
    int64_t *t = table->ptr;
    size_t nb = (size_t)(kmax - kmin) + 1;
    for (size_t j = 0; j < nb; j++) t[j] = -1;
    if (unique_out) *unique_out = true;
    if (identity_out) *identity_out = unique_out && n == nb;
    for (size_t i = 0; i < n; i++) {
        if (identity_out && ((m && !m[i]) || k[i] != kmin + (int64_t)i)) *identity_out = false;
        if ((m && !m[i]) || k[i] < kmin || k[i] > kmax) continue;
        int64_t *slot = t + (k[i] - kmin);
        if (*slot >= 0 && unique_out) {
            *unique_out = false;
            if (identity_out) *identity_out = false;
            return 0;
        }
        *slot = (int64_t)i;
    }
    return 0;
}

/* dense_probe: compact's two passes (count per worker, then write from
 * each worker's start), keeping rows whose key has a row in every index. */
typedef struct probe_ctx {
    int nd;
    const attu_dense_dim *dims;
    size_t counts[256], starts[256];
    int64_t *rows, *hits[ATTU_DENSE_PROBE_MAX_DIMS];
    int pass;
} probe_ctx;

/* The slot row i finds in dims[d], or -1. */
static int64_t probe_slot(const attu_dense_dim *dm, size_t i) {
    int64_t key = attu_type_width(dm->needles.type.id) == 4 ? ((const int32_t *)dm->needles.data->ptr)[i]
                                                             : CI64(dm->needles.data)[i];
    const uint8_t *m = dm->mask ? dm->mask->ptr : NULL;
    const uint8_t *mv = dm->mask && dm->mask_valid ? dm->mask_valid->ptr : NULL;
    if (key < dm->kmin || key > dm->kmax || (m && !m[i]) || (mv && !mv[i])) return -1;
    return dm->identity ? key - dm->kmin : CI64(dm->table)[key - dm->kmin];
}

static void probe_range(void *vc, size_t b, size_t e, int w) {
    probe_ctx *c = vc;
    size_t k = c->pass ? c->starts[w] : 0;
    int64_t hit[ATTU_DENSE_PROBE_MAX_DIMS];
    for (size_t i = b; i < e; i++) {
        int d = 0;
        while (d < c->nd && (hit[d] = probe_slot(&c->dims[d], i)) >= 0) d++;
        if (d < c->nd) continue;
        if (c->pass) {
            if (c->rows) c->rows[k] = (int64_t)i;
            for (d = 0; d < c->nd; d++)
                if (c->hits[d]) c->hits[d][k] = hit[d];
        }
        k++;
    }
    if (!c->pass) c->counts[w] = k;
}

static int cpu_dense_probe(attu_backend *be, int nd, attu_dense_dim *dims, size_t nn, attu_buf **rows_out,
                           size_t *count_out, attu_error *err) {
    if (nd < 1 || nd > ATTU_DENSE_PROBE_MAX_DIMS)
        return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "dense_probe of %d indexes", nd);
    probe_ctx c;
    memset(&c, 0, sizeof c);
    c.nd = nd;
    c.dims = dims;
    int threads = THREADS(be) > 256 ? 256 : THREADS(be);
    int used = attu_parallel_range(threads, nn, 1 << 16, probe_range, &c);
    size_t total = 0;
    for (int w = 0; w < used; w++) { c.starts[w] = total; total += c.counts[w]; }
    /* every needle kept: the rows are 0..nn-1, left unwritten (backend.h) */
    bool all = total == nn && nn > 0;
    attu_buf *rows = all ? NULL : cpu_alloc(be, total * sizeof(int64_t), err);
    int d = 0;
    for (; (rows || all) && d < nd; d++)
        if (!dims[d].no_hits && !(dims[d].hits = cpu_alloc(be, total * sizeof(int64_t), err))) break;
    if ((!rows && !all) || d < nd) {
        cpu_free(be, rows);
        while (d-- > 0) { cpu_free(be, dims[d].hits); dims[d].hits = NULL; }
        return -1;
    }
    c.rows = rows ? rows->ptr : NULL;
    for (d = 0; d < nd; d++) c.hits[d] = dims[d].hits ? dims[d].hits->ptr : NULL;
    c.pass = 1;
    attu_parallel_range(threads, nn, 1 << 16, probe_range, &c);
    *rows_out = rows;
    *count_out = total;
    return 0;
}

/* window_rank: partitions and peer groups walk forward with q, so one pass
 * keeps the current partition head and peer head. */
static int cpu_window_rank(attu_backend *be, attu_rank_kind kind, const attu_buf *perm, size_t n,
                           const attu_buf *part_heads, size_t npart, const attu_buf *peer_heads,
                           size_t npeer, attu_buf *out, attu_error *err) {
    (void)be; (void)err;
    const int64_t *pm = perm->ptr, *ph = part_heads->ptr;
    const int64_t *pe = peer_heads ? peer_heads->ptr : NULL;
    int64_t *o = out->ptr;
    size_t s = 0, p = 0;
    int64_t b = 0, pb = 0, dense = 0;
    for (size_t q = 0; q < n; q++) {
        if (s < npart && (size_t)ph[s] == q) { b = (int64_t)q; s++; dense = 0; }
        if (pe && p < npeer && (size_t)pe[p] == q) { pb = (int64_t)q; p++; dense++; }
        int64_t v = kind == ATTU_RANK_ROW_NUMBER ? (int64_t)q - b + 1
                  : kind == ATTU_RANK_RANK ? pb - b + 1 : dense;
        o[pm[q]] = v;
    }
    return 0;
}

static int cpu_key_encode(attu_backend *be, const attu_vec *col, size_t n, int64_t null_value,
                          attu_buf *out, attu_error *err) {
    const uint8_t *v = col->valid ? col->valid->ptr : NULL;
    for (size_t i = 0; i < n; i++) {
        if (v && !v[i]) { I64(out)[i] = null_value; continue; }
        I64(out)[i] = attu_cpu_key_bits(col, (int64_t)i);
    }
    return 0;
}

static void cpu_destroy(attu_backend *be) {
    if (!be) return;
    free(be->impl);
    free(be);
}

attu_backend *attu_backend_cpu_new(int threads, attu_error *err) {
    attu_backend *be = calloc(1, sizeof *be);
    cpu_impl *im = calloc(1, sizeof *im);
    if (!be || !im) { free(be); free(im); attu_error_oom(err); return NULL; }
    im->threads = threads > 0 ? threads : attu_cpu_count();
    snprintf(im->name, sizeof im->name, "CPU (%d threads)", im->threads);
    be->kind = ATTU_DEVICE_KIND_CPU;
    be->name = im->name;
    be->impl = im;
    be->alloc = cpu_alloc; be->free = cpu_free;
    be->upload = cpu_upload; be->download = cpu_download;
    be->download_many = cpu_download_many;
    be->fill = cpu_fill; be->iota = cpu_iota;
    be->gather = cpu_gather; be->scatter = cpu_scatter;
    be->gather_cols = cpu_gather_cols;
    be->eval = cpu_eval; be->compact = cpu_compact;
    be->dense_index = cpu_dense_index; be->dense_probe = cpu_dense_probe;
    be->sort = cpu_sort; be->top_k = cpu_top_k; be->select_window = cpu_select_window;
    be->select_window_set = cpu_select_window_set;
    be->segment_heads = cpu_segment_heads; be->segreduce = cpu_segreduce;
    be->scan = cpu_scan; be->reduce = cpu_reduce; be->eval_reduce = cpu_eval_reduce; be->partition = cpu_partition;
    be->count_keys = cpu_count_keys;
    be->sorted_search = cpu_sorted_search; be->inner_join = cpu_inner_join;
    be->lbs = cpu_lbs; be->lbs_segreduce = cpu_lbs_segreduce;
    be->segmented_sort = cpu_segmented_sort; be->key_encode = cpu_key_encode;
    be->window_rank = cpu_window_rank; be->group_dense = cpu_group_dense;
    be->partition_first = cpu_partition_first;
    be->dense_runs = cpu_dense_runs;
    be->destroy = cpu_destroy;
    return be;
}

attu_buf *attu_be_alloc(attu_backend *be, size_t bytes, attu_error *err) {
    return be->alloc(be, bytes, err);
}
void attu_be_free(attu_backend *be, attu_buf *buf) {
    if (buf) be->free(be, buf);
}
