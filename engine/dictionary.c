/*
 * dictionary.c - sorted string dictionaries (see dictionary.h).
 *
 * Building is: deduplicate the input strings through an open-addressing
 * hash table, sort the distinct ones bytewise, then give every input the
 * rank of its string. Sorting compares an 8-byte big-endian prefix first
 * (one integer compare settles most pairs), and only ties fall back to
 * memcmp. A merge is a build over old's strings followed by the new ones, so
 * the old codes' new positions come out of the same pass.
 */
#include "engine/dictionary.h"

#include <stdlib.h>
#include <string.h>

/* ---- a string hash set over borrowed pointers ----------------------------- */

typedef struct strset {
    const char *const *strs;
    const size_t *lens;
    uint32_t *slots;      /* index+1 of the first input with this string; 0 = empty */
    size_t mask;
} strset;

static uint64_t hash_bytes(const char *s, size_t n) {
    /* FNV-1a over 8-byte words, then a final avalanche (murmur3 fmix64). */
    uint64_t h = 0xcbf29ce484222325ULL ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 29;
    }
    uint64_t w = 0;
    memcpy(&w, s + i, n - i);
    h = (h ^ w) * 0x100000001b3ULL;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

typedef struct sortkey {
    uint64_t prefix;   /* first 8 bytes, big-endian, zero padded */
    uint32_t id;       /* index of one input holding the string */
} sortkey;

static uint64_t prefix_of(const char *s, size_t n) {
    unsigned char b[8] = {0};
    memcpy(b, s, n < 8 ? n : 8);
    uint64_t p = 0;
    for (int i = 0; i < 8; i++) p = (p << 8) | b[i];
    return p;
}

static int bytes_cmp(const char *a, size_t la, const char *b, size_t lb) {
    int c = memcmp(a, b, la < lb ? la : lb);
    if (c) return c;
    return la < lb ? -1 : la > lb;
}

/* qsort_r would avoid the globals, but glibc's and the BSDs' disagree on
 * the argument order; a thread-local pair keeps builds reentrant. */
static _Thread_local const char *const *t_strs;
static _Thread_local const size_t *t_lens;

static int key_cmp(const void *pa, const void *pb) {
    const sortkey *a = pa, *b = pb;
    if (a->prefix != b->prefix) return a->prefix < b->prefix ? -1 : 1;
    return bytes_cmp(t_strs[a->id], t_lens[a->id], t_strs[b->id], t_lens[b->id]);
}

/*
 * The shared core: n strings in, a dictionary of the distinct ones out, and
 * codes_out[i] the code of string i.
 */
static attu_dictionary *build_core(const char *const *strs, const size_t *lens,
                                   size_t n, int32_t *codes_out,
                                   attu_error *err) {
    if (n > (size_t)INT32_MAX)
        return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0,
                              "too many strings for one dictionary"), NULL;
    size_t cap = 16;
    while (cap < n * 2) cap <<= 1;
    uint32_t *slots = calloc(cap, sizeof *slots);
    uint32_t *first = malloc((n ? n : 1) * sizeof *first);   /* input -> distinct id */
    sortkey *keys = malloc((n ? n : 1) * sizeof *keys);
    attu_dictionary *d = calloc(1, sizeof *d);
    if (!slots || !first || !keys || !d) goto oom;
    size_t mask = cap - 1, ndistinct = 0, total_bytes = 0;
    for (size_t i = 0; i < n; i++) {
        size_t h = (size_t)hash_bytes(strs[i], lens[i]) & mask;
        for (;;) {
            uint32_t s = slots[h];
            if (s == 0) {
                slots[h] = (uint32_t)ndistinct + 1;
                keys[ndistinct].prefix = prefix_of(strs[i], lens[i]);
                keys[ndistinct].id = (uint32_t)i;
                first[i] = (uint32_t)ndistinct++;
                total_bytes += lens[i];
                break;
            }
            uint32_t j = keys[s - 1].id;
            if (lens[j] == lens[i] && memcmp(strs[j], strs[i], lens[i]) == 0) {
                first[i] = s - 1;
                break;
            }
            h = (h + 1) & mask;
        }
    }
    free(slots);
    slots = NULL;
    t_strs = strs;
    t_lens = lens;
    qsort(keys, ndistinct, sizeof *keys, key_cmp);
    /* rank[distinct id] = code. */
    uint32_t *rank = malloc((ndistinct ? ndistinct : 1) * sizeof *rank);
    d->offsets = malloc((ndistinct + 1) * sizeof *d->offsets);
    d->bytes = malloc(total_bytes ? total_bytes : 1);
    if (!rank || !d->offsets || !d->bytes) { free(rank); goto oom; }
    uint64_t off = 0;
    for (size_t c = 0; c < ndistinct; c++) {
        uint32_t id = keys[c].id;
        rank[first[id]] = (uint32_t)c;
        d->offsets[c] = off;
        memcpy(d->bytes + off, strs[id], lens[id]);
        off += lens[id];
    }
    d->offsets[ndistinct] = off;
    for (size_t i = 0; i < n; i++) codes_out[i] = (int32_t)rank[first[i]];
    free(rank);
    free(first);
    free(keys);
    d->count = (int32_t)ndistinct;
    d->refcount = 1;
    return d;
oom:
    free(slots);
    free(first);
    free(keys);
    if (d) { free(d->offsets); free(d->bytes); free(d); }
    attu_error_oom(err);
    return NULL;
}

attu_dictionary *attu_dictionary_build(const char *const *strs,
                                       const size_t *lens, size_t n,
                                       int32_t *codes_out, attu_error *err) {
    return build_core(strs, lens, n, codes_out, err);
}

attu_dictionary *attu_dictionary_merge(const attu_dictionary *old,
                                       const char *const *strs,
                                       const size_t *lens, size_t n,
                                       int32_t *old_remap, int32_t *codes_out,
                                       attu_error *err) {
    size_t nold = old ? (size_t)old->count : 0;
    size_t total = nold + n;
    const char **all = malloc((total ? total : 1) * sizeof *all);
    size_t *all_lens = malloc((total ? total : 1) * sizeof *all_lens);
    int32_t *codes = malloc((total ? total : 1) * sizeof *codes);
    if (!all || !all_lens || !codes) {
        free(all); free(all_lens); free(codes);
        attu_error_oom(err);
        return NULL;
    }
    for (size_t i = 0; i < nold; i++) all[i] = attu_dictionary_get(old, (int32_t)i, &all_lens[i]);
    if (n) {
        memcpy(all + nold, strs, n * sizeof *all);
        memcpy(all_lens + nold, lens, n * sizeof *all_lens);
    }
    attu_dictionary *d = build_core(all, all_lens, total, codes, err);
    if (d) {
        if (old_remap && nold) memcpy(old_remap, codes, nold * sizeof *codes);
        if (codes_out && n) memcpy(codes_out, codes + nold, n * sizeof *codes);
    }
    free(all);
    free(all_lens);
    free(codes);
    return d;
}

int32_t attu_dictionary_find(const attu_dictionary *d, const char *s, size_t len) {
    int32_t lo = 0, hi = d ? d->count : 0;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        size_t ml;
        const char *m = attu_dictionary_get(d, mid, &ml);
        int c = bytes_cmp(m, ml, s, len);
        if (c == 0) return mid;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -lo - 1;
}

int attu_dictionary_translate(const attu_dictionary *from,
                              const attu_dictionary *to, int32_t *map_out,
                              attu_error *err) {
    (void)err;
    /* Both sides are sorted: one merge-like walk instead of a search per
     * code. */
    int32_t j = 0, nto = to ? to->count : 0;
    for (int32_t i = 0; i < (from ? from->count : 0); i++) {
        size_t la;
        const char *a = attu_dictionary_get(from, i, &la);
        int c = -1;
        while (j < nto) {
            size_t lb;
            const char *b = attu_dictionary_get(to, j, &lb);
            c = bytes_cmp(b, lb, a, la);
            if (c >= 0) break;
            j++;
        }
        map_out[i] = (j < nto && c == 0) ? j : -1;
    }
    return 0;
}

attu_dictionary *attu_dictionary_ref(attu_dictionary *d) {
    if (d) __atomic_add_fetch(&d->refcount, 1, __ATOMIC_RELAXED);
    return d;
}

void attu_dictionary_unref(attu_dictionary *d) {
    if (!d) return;
    if (__atomic_sub_fetch(&d->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
        free(d->offsets);
        free(d->bytes);
        free(d);
    }
}
