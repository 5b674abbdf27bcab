/*
 * dictionary.c - sorted string dictionaries (see dictionary.h).
 *
 * Building is: deduplicate the input strings through an open-addressing
 * hash table, sort the distinct ones bytewise, then give every input the
 * rank of its string. Sorting compares an 8-byte big-endian prefix first
 * (one integer compare settles most pairs), and only ties fall back to
 * memcmp. Adding strings to a dictionary (attu_dictionary_add_sorted,
 * attu_dictionary_merge) never re-sorts it: the new strings, sorted, are
 * merged into its order in one walk that copies old's runs between them,
 * and a string it holds already costs one search. New strings that all
 * sort after old's last (a growing key, a fresh name) are appended to
 * buffers old shares with its successor instead (attu_dictionary_store,
 * tail_version): old keeps reading its own count strings, which never
 * change, and the successor writes only past them, as column.c's stores.
 */
#include "engine/dictionary.h"

#include <stdbool.h>
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

/* ---- adding strings to a dictionary ----------------------------------------------- */

/* The first code c in [lo, d->count) whose string is >= s (d->count when
 * none): a gallop from lo (1, 2, 4, ... ahead) and then a binary search
 * in the last step, so that a walk over sorted probes costs O(log of the
 * distance) each: few probes into a big dictionary cost a binary search
 * each, and as many probes as strings cost a linear merge. */
static int32_t lower_bound_from(const attu_dictionary *d, int32_t lo, const char *s, size_t len) {
    int32_t n = d->count, step = 1, hi = lo;
    while (hi < n) {
        size_t ml;
        const char *m = attu_dictionary_get(d, hi, &ml);
        if (bytes_cmp(m, ml, s, len) >= 0) break;
        lo = hi + 1;
        hi = (n - hi > step) ? hi + step : n;
        step *= 2;
    }
    /* the answer is in [lo, hi]: strings below lo are < s, hi is n or >= s */
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        size_t ml;
        const char *m = attu_dictionary_get(d, mid, &ml);
        if (bytes_cmp(m, ml, s, len) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static attu_dictionary *dictionary_alloc(size_t count, uint64_t bytes, attu_error *err) {
    attu_dictionary *d = calloc(1, sizeof *d);
    if (d) {
        d->offsets = malloc((count + 1) * sizeof *d->offsets);
        d->bytes = malloc(bytes ? bytes : 1);
    }
    if (!d || !d->offsets || !d->bytes) {
        if (d) { free(d->offsets); free(d->bytes); free(d); }
        attu_error_oom(err);
        return NULL;
    }
    d->count = (int32_t)count;
    d->refcount = 1;
    return d;
}

/* A dictionary of old's strings and `added` more (added_bytes bytes) that
 * all sort after old's last, whose offsets and bytes up to old's are
 * old's: old's own store when old is its newest dictionary and it has
 * room, else a copy into a new store with half as much room again. The
 * caller writes the new strings' offsets and bytes. */
static attu_dictionary *tail_version(attu_dictionary *old, size_t added, uint64_t added_bytes, attu_error *err) {
    size_t nold = old ? (size_t)old->count : 0, count = nold + added;
    uint64_t old_bytes = old ? old->offsets[nold] : 0, bytes = old_bytes + added_bytes;
    attu_dictionary *d = calloc(1, sizeof *d);
    if (!d) return attu_error_oom(err), NULL;
    attu_dictionary_store *s = old ? old->store : NULL;
    if (s && bytes <= s->cap_bytes && attu_append_claims_take(&s->claims, nold, count, s->cap_count)) {
        __atomic_add_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);
    } else {
        size_t cc = nold + nold / 2;
        if (cc < count) cc = count;
        if (cc < 16) cc = 16;
        uint64_t cb = old_bytes + old_bytes / 2;
        if (cb < bytes) cb = bytes;
        if (cb < 64) cb = 64;
        s = calloc(1, sizeof *s);
        uint64_t *offs = s ? malloc((cc + 1) * sizeof *offs) : NULL;
        char *b = offs ? malloc(cb) : NULL;
        if (!b) {
            free(offs); free(s); free(d);
            return attu_error_oom(err), NULL;
        }
        if (old) {
            memcpy(offs, old->offsets, (nold + 1) * sizeof *offs);
            memcpy(b, old->bytes, old_bytes);
        } else offs[0] = 0;
        s->refs = 1;
        s->claims.claimed = count;
        s->cap_count = cc;
        s->cap_bytes = cb;
        s->offsets = offs;
        s->bytes = b;
    }
    d->store = s;
    d->offsets = s->offsets;
    d->bytes = s->bytes;
    d->count = (int32_t)count;
    d->claim_base = (int32_t)nold;
    d->claim_end = (int32_t)count;
    d->refcount = 1;
    return d;
}

attu_dictionary *attu_dictionary_add_sorted(attu_dictionary *old, const char *const *strs, const size_t *lens,
                                            size_t n, int32_t *codes_out, int32_t *moved_out, int32_t **remap_out,
                                            attu_error *err) {
    size_t nold = old ? (size_t)old->count : 0;
    *remap_out = NULL;
    *moved_out = (int32_t)nold;
    /* pos[j]: where string j goes among old's codes; newly[j]: it is not there */
    int32_t *pos = malloc((n ? n : 1) * sizeof *pos);
    uint8_t *newly = malloc(n ? n : 1);
    if (!pos || !newly) { free(pos); free(newly); attu_error_oom(err); return NULL; }
    size_t added = 0;
    uint64_t added_bytes = 0;
    int32_t at = 0;
    for (size_t j = 0; j < n; j++) {
        at = old ? lower_bound_from(old, at, strs[j], lens[j]) : 0;
        pos[j] = at;
        size_t ml = 0;
        const char *m = (size_t)at < nold ? attu_dictionary_get(old, at, &ml) : NULL;
        newly[j] = !m || bytes_cmp(m, ml, strs[j], lens[j]) != 0;
        if (newly[j]) { added++; added_bytes += lens[j]; }
    }
    if (nold + added > (size_t)INT32_MAX) {
        free(pos); free(newly);
        return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "too many strings for one dictionary"), NULL;
    }
    if (old && !added) {   /* nothing new: the same dictionary, every old code kept */
        for (size_t j = 0; j < n; j++) codes_out[j] = pos[j];
        free(pos); free(newly);
        return attu_dictionary_ref(old);
    }
    uint64_t old_bytes = old ? old->offsets[nold] : 0;
    int32_t moved = (int32_t)nold;
    for (size_t j = 0; j < n; j++) if (newly[j]) { moved = pos[j]; break; }
    if ((size_t)moved == nold) {
        /* every new string sorts after old's last: old's strings keep
         * their places, the new ones follow in order (in place when old
         * is the newest of a store with room) */
        attu_dictionary *d = tail_version(old, added, added_bytes, err);
        if (!d) { free(pos); free(newly); return NULL; }
        int32_t c = (int32_t)nold;
        uint64_t off = old_bytes;
        for (size_t j = 0; j < n; j++) {
            if (!newly[j]) { codes_out[j] = pos[j]; continue; }
            memcpy(d->bytes + off, strs[j], lens[j]);
            off += lens[j];
            d->offsets[c + 1] = off;
            codes_out[j] = c++;
        }
        free(pos);
        free(newly);
        return d;
    }
    attu_dictionary *d = dictionary_alloc(nold + added, old_bytes + added_bytes, err);
    int32_t *remap = NULL;
    if (d && (size_t)moved < nold && !(remap = malloc((nold - (size_t)moved) * sizeof *remap))) {
        attu_dictionary_unref(d);
        d = NULL;
        attu_error_oom(err);
    }
    if (!d) { free(pos); free(newly); return NULL; }
    /* The codes below the first new string keep their place: one copy. */
    if (moved > 0) {
        memcpy(d->offsets, old->offsets, (size_t)moved * sizeof *d->offsets);
        memcpy(d->bytes, old->bytes, old->offsets[moved]);
    }
    /* Then old's runs between new strings, each shifted by what went in
     * before it (shift strings, sbytes bytes). */
    int32_t c = moved;          /* next old code to place */
    int32_t shift = 0;
    uint64_t sbytes = 0;
    for (size_t j = 0; j <= n; j++) {
        int32_t end = j < n ? pos[j] : (int32_t)nold;
        if (j < n && !newly[j]) { codes_out[j] = pos[j] + shift; continue; }
        if (end > c) {
            memcpy(d->bytes + old->offsets[c] + sbytes, old->bytes + old->offsets[c], old->offsets[end] - old->offsets[c]);
            for (int32_t k = c; k < end; k++) {
                d->offsets[k + shift] = old->offsets[k] + sbytes;
                remap[k - moved] = k + shift;
            }
            c = end;
        }
        if (j == n) break;
        uint64_t off = (old && c < (int32_t)nold ? old->offsets[c] : old_bytes) + sbytes;
        d->offsets[c + shift] = off;
        memcpy(d->bytes + off, strs[j], lens[j]);
        codes_out[j] = c + shift;
        shift++;
        sbytes += lens[j];
    }
    d->offsets[nold + added] = old_bytes + added_bytes;
    free(pos);
    free(newly);
    *moved_out = moved;
    *remap_out = remap;
    return d;
}

attu_dictionary *attu_dictionary_subset(const attu_dictionary *d, const uint8_t *keep, attu_error *err) {
    size_t count = 0;
    uint64_t bytes = 0;
    for (int32_t c = 0; c < d->count; c++)
        if (keep[c]) { count++; bytes += d->offsets[c + 1] - d->offsets[c]; }
    attu_dictionary *s = dictionary_alloc(count, bytes, err);
    if (!s) return NULL;
    /* Runs of kept codes are contiguous in d's bytes: one copy a run. */
    size_t k = 0;
    uint64_t off = 0;
    for (int32_t c = 0; c < d->count;) {
        if (!keep[c]) { c++; continue; }
        int32_t e = c;
        while (e < d->count && keep[e]) {
            s->offsets[k++] = off + (d->offsets[e] - d->offsets[c]);
            e++;
        }
        uint64_t run = d->offsets[e] - d->offsets[c];
        memcpy(s->bytes + off, d->bytes + d->offsets[c], run);
        off += run;
        c = e;
    }
    s->offsets[count] = off;
    return s;
}

attu_dictionary *attu_dictionary_add(attu_dictionary *old, const char *const *strs, const size_t *lens, size_t n,
                                     int32_t *codes_out, int32_t *moved_out, int32_t **remap_out, attu_error *err) {
    /* The new strings sorted and distinct (a dictionary of their own),
     * then merged into old in one ordered walk: old's strings are never
     * hashed or sorted again. */
    *remap_out = NULL;
    int32_t *local = malloc((n ? n : 1) * sizeof *local);
    if (!local) { attu_error_oom(err); return NULL; }
    attu_dictionary *b = build_core(strs, lens, n, local, err);
    if (!b) { free(local); return NULL; }
    const char **bs = malloc(((size_t)b->count + 1) * sizeof *bs);
    size_t *bl = malloc(((size_t)b->count + 1) * sizeof *bl);
    int32_t *bcodes = malloc(((size_t)b->count + 1) * sizeof *bcodes);
    attu_dictionary *d = NULL;
    if (!bs || !bl || !bcodes) attu_error_oom(err);
    else {
        for (int32_t k = 0; k < b->count; k++) bs[k] = attu_dictionary_get(b, k, &bl[k]);
        d = attu_dictionary_add_sorted(old, bs, bl, (size_t)b->count, bcodes, moved_out, remap_out, err);
    }
    if (d && codes_out) for (size_t i = 0; i < n; i++) codes_out[i] = bcodes[local[i]];
    free(bs); free(bl); free(bcodes); free(local);
    attu_dictionary_unref(b);
    return d;
}

attu_dictionary *attu_dictionary_merge(const attu_dictionary *old,
                                       const char *const *strs,
                                       const size_t *lens, size_t n,
                                       int32_t *old_remap, int32_t *codes_out,
                                       attu_error *err) {
    size_t nold = old ? (size_t)old->count : 0;
    int32_t moved = 0, *remap = NULL;
    /* (old is only read: a new reference to it is the one change) */
    attu_dictionary *d = attu_dictionary_add((attu_dictionary *)old, strs, lens, n, codes_out, &moved, &remap, err);
    if (d && old_remap) {
        for (int32_t c = 0; c < moved; c++) old_remap[c] = c;
        for (size_t c = (size_t)moved; c < nold; c++) old_remap[c] = remap[c - (size_t)moved];
    }
    free(remap);
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
        attu_dictionary_store *s = d->store;
        if (!s) {
            free(d->offsets);
            free(d->bytes);
        } else {
            /* the strings it added go back while it is still the newest
             * (a rolled-back INSERT's), so the next adder adds in place */
            attu_append_claims_give_back(&s->claims, (size_t)d->claim_base, (size_t)d->claim_end);
            if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0) {
                free(s->offsets);
                free(s->bytes);
                free(s);
            }
        }
        free(d);
    }
}
