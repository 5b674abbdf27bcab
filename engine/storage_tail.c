/*
 * storage_tail.c - a tail segment of a stored table: the rows an
 * append-only commit added (engine/storage.c), every column's in one
 * payload, which storage.c wraps in the usual 32-byte checked header as
 * the generation's file "tail".
 *
 * Payload (host byte order, as every file of the data directory):
 *
 *   u64 first, u64 count, u64 ncols        rows [first, first + count)
 *   per column:
 *     u64 width, u64 flags                 bit 0: validity, bit 1: dictionary
 *     values                               count * width bytes
 *     validity (flag 0)                    (count + 63) / 64 u64 words, bit
 *                                          r - first of row r, 1 = a value
 *     dictionary (flag 1)                  u64 n, u64 offsets[n + 1], bytes:
 *                                          the distinct strings of these rows
 *                                          in byte order; the values are
 *                                          codes into it (NULL rows: 0)
 *
 * A dictionary-coded column (TEXT) cannot store the table's codes: an
 * append may renumber the old rows' codes (the dictionary is sorted, a new
 * string sorting among the old ones moves them), and the old rows on disk
 * keep the codes of the dictionary they were written with. So a tail
 * carries its rows' strings as a small dictionary of its own, and loading
 * merges it into the column's (attu_dictionary_add_sorted) and renumbers
 * the rows read so far, which is what the INSERT did in memory.
 */
#include "engine/storage_internal.h"

#include <stdlib.h>
#include <string.h>

enum { TAIL_VALIDITY = 1, TAIL_DICT = 2 };

static void put_u64(attu_strbuf *b, uint64_t v) { attu_strbuf_add(b, &v, sizeof v); }

static int cmp_i32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Column c's rows [first, first + count) coded against their own
 * dictionary: the distinct codes they use, in order (the table's
 * dictionary is sorted, so in byte order too), become codes 0, 1, ...
 * The local codes go into b; *used_out (malloc'd) and *nused_out keep the
 * table codes behind them for put_dict_strings. */
static int put_local_codes(attu_strbuf *b, const attu_column *c, size_t first, size_t count, int32_t **used_out,
                           size_t *nused_out, attu_error *err) {
    const int32_t *codes = (const int32_t *)c->data + first;
    int32_t *used = malloc(sizeof *used * (count ? count : 1));
    int32_t *local = malloc(sizeof *local * (count ? count : 1));
    if (!used || !local) { free(used); free(local); return attu_error_oom(err); }
    size_t nu = 0;
    for (size_t r = 0; r < count; r++)
        if (!attu_column_is_null(c, first + r)) used[nu++] = codes[r];
    qsort(used, nu, sizeof *used, cmp_i32);
    size_t nd = 0;
    for (size_t k = 0; k < nu; k++)
        if (!nd || used[nd - 1] != used[k]) used[nd++] = used[k];
    for (size_t r = 0; r < count; r++) {
        local[r] = 0;
        if (attu_column_is_null(c, first + r)) continue;
        const int32_t *at = bsearch(&codes[r], used, nd, sizeof *used, cmp_i32);
        local[r] = (int32_t)(at - used);
    }
    attu_strbuf_add(b, local, count * sizeof *local);
    free(local);
    *used_out = used;
    *nused_out = nd;
    return 0;
}

/* The strings behind used[0..nd) (table codes, ascending): n, offsets,
 * bytes. */
static void put_dict_strings(attu_strbuf *b, const attu_dictionary *d, const int32_t *used, size_t nd) {
    put_u64(b, nd);
    uint64_t off = 0;
    put_u64(b, off);
    for (size_t k = 0; k < nd; k++) {
        size_t len;
        attu_dictionary_get(d, used[k], &len);
        off += len;
        put_u64(b, off);
    }
    for (size_t k = 0; k < nd; k++) {
        size_t len;
        const char *s = attu_dictionary_get(d, used[k], &len);
        attu_strbuf_add(b, s, len);
    }
}

int storage_tail_payload(const attu_table *t, size_t first, attu_strbuf *b, attu_error *err) {
    size_t count = t->nrows - first;
    put_u64(b, first);
    put_u64(b, count);
    put_u64(b, (uint64_t)t->ncols);
    for (int i = 0; i < t->ncols; i++) {
        const attu_column *c = t->cols[i];
        size_t w = attu_type_width(c->type.id);
        bool nulls = false;
        for (size_t r = first; c->validity && r < t->nrows && !nulls; r++) nulls = attu_column_is_null(c, r);
        bool dict = c->dict != NULL;
        if (dict && w != sizeof(int32_t))
            return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "dictionary column of %zu-byte slots", w);
        put_u64(b, w);
        put_u64(b, (nulls ? TAIL_VALIDITY : 0) | (dict ? TAIL_DICT : 0));
        int32_t *used = NULL;
        size_t nused = 0;
        if (dict) {
            if (put_local_codes(b, c, first, count, &used, &nused, err)) return -1;
        } else {
            attu_strbuf_add(b, (const char *)c->data + first * w, count * w);
        }
        if (nulls) {
            size_t nw = (count + 63) / 64;
            uint64_t *v = calloc(nw ? nw : 1, sizeof *v);
            if (!v) { free(used); return attu_error_oom(err); }
            for (size_t r = 0; r < count; r++)
                if (!attu_column_is_null(c, first + r)) v[r >> 6] |= 1ULL << (r & 63);
            attu_strbuf_add(b, v, nw * sizeof *v);
            free(v);
        }
        if (dict) put_dict_strings(b, c->dict, used, nused);
        free(used);
    }
    return b->oom ? attu_error_oom(err) : 0;
}

/* ---- reading one back --------------------------------------------------------- */

typedef struct reader {
    const char *p;
    size_t left;
} reader;

static const void *take(reader *rd, size_t n) {
    if (n > rd->left) return NULL;
    const void *at = rd->p;
    rd->p += n;
    rd->left -= n;
    return at;
}

static bool take_u64(reader *rd, uint64_t *v) {
    const void *at = take(rd, sizeof *v);
    if (at) memcpy(v, at, sizeof *v);
    return at != NULL;
}

static int bytes_cmp(const char *a, size_t la, const char *b, size_t lb) {
    int c = memcmp(a, b, la < lb ? la : lb);
    return c ? c : (la > lb) - (la < lb);
}

/* Merges a tail's dictionary (n strings at offs/bytes, checked sorted and
 * distinct) into c's, renumbering c's first `old` rows, then gives the
 * tail's rows [old, old + count) (local codes, already copied in) their
 * codes in the merged one. */
static const char *merge_dict(attu_column *c, size_t old, size_t count, uint64_t n, const uint64_t *offs,
                              const char *bytes) {
    if (n > (uint64_t)INT32_MAX) return "malformed tail dictionary";
    const char **strs = malloc(sizeof *strs * (n ? n : 1));
    size_t *lens = malloc(sizeof *lens * (n ? n : 1));
    int32_t *codes_out = malloc(sizeof *codes_out * (n ? n : 1));
    const char *why = NULL;
    if (!strs || !lens || !codes_out) why = "out of memory";
    for (uint64_t k = 0; !why && k < n; k++) {
        strs[k] = bytes + offs[k];
        lens[k] = (size_t)(offs[k + 1] - offs[k]);
        if (k && bytes_cmp(strs[k - 1], lens[k - 1], strs[k], lens[k]) >= 0) why = "malformed tail dictionary";
    }
    int32_t *codes = c->data;
    for (size_t r = old; !why && r < old + count; r++)
        if (!attu_column_is_null(c, r) && (codes[r] < 0 || (uint64_t)codes[r] >= n)) why = "text code outside its dictionary";
    attu_dictionary *d = NULL;
    int32_t moved = 0, *remap = NULL;
    if (!why && n) {
        attu_error scratch;
        attu_error_clear(&scratch);
        d = attu_dictionary_add_sorted(c->dict, strs, lens, (size_t)n, codes_out, &moved, &remap, &scratch);
        if (!d) why = "out of memory";
    }
    if (!why && d) {
        if (remap)   /* a new string sorts among the old ones: their codes move up */
            for (size_t r = 0; r < old; r++)
                if (!attu_column_is_null(c, r) && codes[r] >= moved) codes[r] = remap[codes[r] - moved];
        for (size_t r = old; r < old + count; r++)
            codes[r] = attu_column_is_null(c, r) ? 0 : codes_out[codes[r]];
        attu_dictionary_unref(c->dict);   /* (d is c->dict again, one more reference, when nothing was new) */
        c->dict = d;
    }
    free(remap);
    free(strs);
    free(lens);
    free(codes_out);
    return why;
}

const char *storage_tail_apply(attu_table *t, size_t first, size_t count, const void *payload, size_t len) {
    reader rd = { payload, len };
    uint64_t f, n, ncols;
    if (!take_u64(&rd, &f) || !take_u64(&rd, &n) || !take_u64(&rd, &ncols)) return "wrong length";
    if (f != first || n != count || ncols != (uint64_t)t->ncols) return "tail does not match its schema";
    for (int i = 0; i < t->ncols; i++) {
        attu_column *c = t->cols[i];
        size_t w = attu_type_width(c->type.id);
        uint64_t cw, flags;
        if (!take_u64(&rd, &cw) || !take_u64(&rd, &flags)) return "wrong length";
        if (cw != w || (flags & ~(uint64_t)(TAIL_VALIDITY | TAIL_DICT))) return "tail does not match its schema";
        if (c->length != first) return "tail does not follow the rows before it";
        if (count > (SIZE_MAX - first) / (w ? w : 1)) return "wrong length";
        const void *vals = take(&rd, count * w);
        if (!vals) return "wrong length";
        attu_error scratch;
        attu_error_clear(&scratch);
        if (attu_column_reserve(c, first + count, &scratch)) return "out of memory";
        memcpy((char *)c->data + first * w, vals, count * w);
        c->length = first + count;
        if (flags & TAIL_VALIDITY) {
            size_t nw = (count + 63) / 64;
            const uint64_t *v = take(&rd, nw * sizeof *v);
            if (!v) return "wrong length";
            if (attu_column_ensure_validity(c, &scratch)) return "out of memory";
            for (size_t r = 0; r < count; r++) {
                uint64_t word;
                memcpy(&word, v + (r >> 6), sizeof word);
                if (!((word >> (r & 63)) & 1)) attu_column_set_null(c, first + r, true);
            }
        }
        if (flags & TAIL_DICT) {
            if (w != sizeof(int32_t)) return "tail does not match its schema";
            uint64_t nd;
            if (!take_u64(&rd, &nd) || nd >= (rd.left / sizeof(uint64_t))) return "wrong length";
            const void *offs_at = take(&rd, (size_t)(nd + 1) * sizeof(uint64_t));
            if (!offs_at) return "wrong length";
            uint64_t *offs = malloc((size_t)(nd + 1) * sizeof *offs);
            if (!offs) return "out of memory";
            memcpy(offs, offs_at, (size_t)(nd + 1) * sizeof *offs);
            bool ok = offs[0] == 0;
            for (uint64_t k = 0; ok && k < nd; k++) ok = offs[k] <= offs[k + 1];
            const char *bytes = ok ? take(&rd, (size_t)offs[nd]) : NULL;
            const char *why = !ok ? "malformed tail dictionary"
                              : !bytes ? "wrong length" : merge_dict(c, first, count, nd, offs, bytes);
            free(offs);
            if (why) return why;
        } else if (c->dict || c->type.id == ATTU_TYPE_TEXT) {
            /* no strings: every row of a coded column must be NULL */
            for (size_t r = first; r < first + count; r++)
                if (!attu_column_is_null(c, r)) return "text code outside its dictionary";
        }
    }
    if (rd.left) return "wrong length";
    return NULL;
}
