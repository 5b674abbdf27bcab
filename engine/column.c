/*
 * column.c - fixed-width slots plus an optional validity bitmap (column.h).
 *
 * Invariants: capacity >= length; when validity exists it covers capacity
 * slots rounded up to 64 and bits past length are 1 (valid), so growing a
 * column never exposes stale NULL bits; a NULL row's slot is zero.
 *
 * Shared stores (attu_column_store, attu_column_append_version): an
 * INSERT's new version of a table appends to the buffers of the version
 * it read instead of copying them, when that version is the newest of its
 * store (engine/append_claims.h) and the store has room. The old
 * version keeps reading its own length rows, which nobody writes again;
 * the appender writes only slots past claimed, which no other version
 * reads, and bitmap words no other version reads (own_word). The claim
 * is what makes a second writer from the same base (a savepoint's
 * catalog, say) copy instead. Freeing the newest version gives its rows
 * back, so a rolled-back INSERT does not make the next one copy. A store
 * is freed with the last column that points at it.
 */
#include "engine/column.h"
#include "engine/enum_type.h"
#include "engine/array.h"
#include "engine/range.h"
#include "engine/dictionary.h"
#include "engine/numeric.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

static size_t words_for(size_t n) { return (n + 63) / 64; }

attu_column *attu_column_new(attu_type type, size_t capacity, attu_error *err) {
    attu_column *c = calloc(1, sizeof *c);
    if (!c) return attu_error_oom(err), NULL;
    c->type = type;
    if (attu_column_reserve(c, capacity, err) != 0) {
        free(c);
        return NULL;
    }
    return c;
}

/* The validity bitmap of a column sharing a store is reference counted
 * on its own: versions sharing one data buffer may read different
 * bitmaps. A bitmap is never written where another holder reads it (the
 * words of rows below the appender's claim_base, when someone else holds
 * the bitmap): the appender takes a copy first (own_word), so every
 * version's bits stay exactly what they were, past its length too. */
typedef struct shared_bits {
    int      refs;
    uint64_t bits[];
} shared_bits;

static shared_bits *bits_of(uint64_t *v) { return (shared_bits *)((char *)v - offsetof(shared_bits, bits)); }

/* A bitmap of `words` words held by `refs` (the store and one column):
 * a copy of the first `keep` words of from, all valid after them. */
static uint64_t *bits_new(size_t words, int refs, const uint64_t *from, size_t keep) {
    shared_bits *b = malloc(sizeof *b + (words ? words : 1) * sizeof(uint64_t));
    if (!b) return NULL;
    b->refs = refs;
    if (keep) memcpy(b->bits, from, keep * sizeof(uint64_t));
    if (words > keep) memset(b->bits + keep, 0xff, (words - keep) * sizeof(uint64_t));
    return b->bits;
}

static uint64_t *bits_ref(uint64_t *v) {
    if (v) __atomic_add_fetch(&bits_of(v)->refs, 1, __ATOMIC_ACQ_REL);
    return v;
}

static void bits_unref(uint64_t *v) {
    if (v && __atomic_sub_fetch(&bits_of(v)->refs, 1, __ATOMIC_ACQ_REL) == 0) free(bits_of(v));
}

/* c lets go of its store: the rows it claimed go back when it is still
 * the newest version (nothing was appended after them), and the store's
 * buffers go with its last column. */
static void store_release(attu_column *c) {
    attu_column_store *s = c->store;
    attu_append_claims_give_back(&s->claims, c->claim_base, c->claim_end);
    bits_unref(c->validity);
    if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        free(s->data);
        bits_unref(s->validity);
        free(s);
    }
    c->store = NULL;
    c->data = NULL;
    c->validity = NULL;
    c->capacity = 0;
    c->claim_base = c->claim_end = 0;
}

/* The appending version c may write the bitmap word of row `row` (one of
 * its appended rows): a word past every other holder's rows is its own;
 * one that holds older rows too is, when no other column holds the
 * bitmap (the store and c are its only references); else c and the store
 * move to a copy of the bitmap, and the old one stays as it is for its
 * readers. */
static int own_word(attu_column *c, size_t row, attu_error *err) {
    attu_column_store *s = c->store;
    if ((row >> 6) >= words_for(c->claim_base)) return 0;
    if (__atomic_load_n(&bits_of(c->validity)->refs, __ATOMIC_ACQUIRE) <= 2) return 0;
    size_t nw = words_for(s->capacity);
    uint64_t *v = bits_new(nw, 2, c->validity, nw);
    if (!v) return attu_error_oom(err);
    bits_unref(s->validity);   /* (the store's reference; it held c's bitmap) */
    bits_unref(c->validity);
    s->validity = c->validity = v;
    return 0;
}

void attu_column_free(attu_column *c) {
    if (!c) return;
    if (__atomic_load_n(&c->shares, __ATOMIC_ACQUIRE) > 0 && __atomic_fetch_sub(&c->shares, 1, __ATOMIC_ACQ_REL) > 0)
        return;   /* another owner keeps it (and its device copy) */
    attu_column_invalidate_device(c);
    if (c->store) store_release(c);
    else {
        free(c->data);
        free(c->validity);
    }
    attu_dictionary_unref(c->dict);
    free(c);
}

/* A column sharing a store takes a private copy of its rows, with room for
 * at least n slots, before anything grows or marks it in place: a clone's
 * buffers (attu_column_clone_reserve; the clone owns no store), moved into c. */
static int unshare(attu_column *c, size_t n, attu_error *err) {
    attu_column *copy = attu_column_clone_reserve(c, n, err);
    if (!copy) return -1;
    store_release(c);
    c->data = copy->data;
    c->validity = copy->validity;
    c->capacity = copy->capacity;
    attu_dictionary_unref(copy->dict);
    free(copy);
    return 0;
}

attu_column *attu_column_share(attu_column *c) {
    if (c) __atomic_fetch_add(&c->shares, 1, __ATOMIC_ACQ_REL);
    return c;
}

/* Room for n slots; new slots from zero_from on are zeroed (NULL rows
 * and rows not yet written read as 0), those before it are the caller's
 * to write (a clone's copy: zeroing them first cost a pass over the whole
 * buffer, and its page faults, on every INSERT's new version). */
static int reserve_slots(attu_column *c, size_t n, size_t zero_from, attu_error *err) {
    if (c->store) return unshare(c, n, err);
    if (n <= c->capacity && c->data) return 0;
    size_t w = attu_type_width(c->type.id);
    if (n && n > SIZE_MAX / w) return attu_error_oom(err);
    size_t cap = n ? n : 1;
    void *d = realloc(c->data, cap * w);
    if (!d) return attu_error_oom(err);
    if (zero_from < c->capacity) zero_from = c->capacity;
    if (zero_from < cap) memset((char *)d + zero_from * w, 0, (cap - zero_from) * w);
    c->data = d;
    if (c->validity) {
        size_t ow = words_for(c->capacity), nw = words_for(cap);
        uint64_t *v = realloc(c->validity, nw * sizeof *v);
        if (!v) return attu_error_oom(err);
        if (nw > ow) memset(v + ow, 0xff, (nw - ow) * sizeof *v);
        c->validity = v;
    }
    c->capacity = cap;
    return 0;
}

int attu_column_reserve(attu_column *c, size_t n, attu_error *err) {
    return reserve_slots(c, n, 0, err);
}

int attu_column_ensure_validity(attu_column *c, attu_error *err) {
    if (c->validity && !c->store) return 0;
    if (c->store && unshare(c, c->length ? c->length : 1, err) != 0) return -1;
    if (c->validity) return 0;
    size_t nw = words_for(c->capacity ? c->capacity : 1);
    uint64_t *v = malloc(nw * sizeof *v);
    if (!v) return attu_error_oom(err);
    memset(v, 0xff, nw * sizeof *v);
    c->validity = v;
    return 0;
}

void attu_column_set_null(attu_column *c, size_t row, bool is_null) {
    /* (a column sharing its rows takes its own copy first: another
     * version may read this word) */
    if (c->store && unshare(c, c->length ? c->length : 1, NULL) != 0) return;
    if (!c->validity) {
        if (!is_null) return;
        /* Callers that record NULLs call ensure_validity first; without a
         * bitmap there is nowhere to record one. */
        if (attu_column_ensure_validity(c, NULL) != 0) return;
    }
    uint64_t bit = 1ULL << (row & 63);
    if (is_null) {
        c->validity[row >> 6] &= ~bit;
        size_t w = attu_type_width(c->type.id);
        memset((char *)c->data + row * w, 0, w);
    } else {
        c->validity[row >> 6] |= bit;
    }
}

attu_column *attu_column_clone(const attu_column *c, attu_error *err) {
    return attu_column_clone_reserve(c, c->length, err);
}

attu_column *attu_column_clone_reserve(const attu_column *c, size_t capacity, attu_error *err) {
    attu_column *n = calloc(1, sizeof *n);
    if (!n) return attu_error_oom(err), NULL;
    n->type = c->type;
    if (capacity < c->length) capacity = c->length;
    if (reserve_slots(n, capacity, c->length, err) != 0) {   /* the first length slots are copied below */
        free(n);
        return NULL;
    }
    size_t w = attu_type_width(c->type.id);
    if (c->length) memcpy(n->data, c->data, c->length * w);
    n->length = c->length;
    if (c->validity) {
        if (attu_column_ensure_validity(n, err) != 0) {
            attu_column_free(n);
            return NULL;
        }
        memcpy(n->validity, c->validity, words_for(c->length) * sizeof(uint64_t));
        /* Bits past length stay 1 (the invariant), whatever c held there. */
        if (c->length & 63)
            n->validity[c->length >> 6] |= ~0ULL << (c->length & 63);
    }
    n->dict = attu_dictionary_ref(c->dict);
    n->dict_unused = c->dict_unused;
    return n;
}

/* Marks the appended rows [from, to) of c valid (a rolled-back append
 * may have left NULL bits there): only the first word can hold older
 * rows, and it is written only when a bit is missing (own_word). */
static int mark_valid(attu_column *c, size_t from, size_t to, attu_error *err) {
    if (from < to && (from & 63)) {
        size_t end = (from | 63) + 1 < to ? (from | 63) + 1 : to;
        uint64_t mask = (end - from == 64 ? ~0ULL : ((1ULL << (end - from)) - 1)) << (from & 63);
        if ((c->validity[from >> 6] & mask) != mask) {
            if (own_word(c, from, err)) return -1;
            c->validity[from >> 6] |= mask;
        }
        from = end;
    }
    if (from < to) memset(c->validity + (from >> 6), 0xff, words_for(to - from) * sizeof(uint64_t));
    return 0;
}

attu_column *attu_column_append_version(const attu_column *c, size_t n, bool private_copy, attu_error *err) {
    size_t old = c->length, total = old + n, w = attu_type_width(c->type.id);
    if (n > SIZE_MAX / 2 - old) return attu_error_oom(err), NULL;
    attu_column *nc = calloc(1, sizeof *nc);
    if (!nc) return attu_error_oom(err), NULL;
    nc->type = c->type;
    attu_column_store *s = c->store;
    if (!private_copy && s && attu_append_claims_take(&s->claims, old, total, s->capacity)) {
        /* c is the newest version and the store has room: append in place */
        __atomic_add_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);
        nc->store = s;
        nc->data = s->data;
        nc->capacity = s->capacity;
        /* the store's bitmap: right for every row below claimed (c
         * without a bitmap held no NULL, and every append marks its rows
         * valid first) */
        nc->validity = bits_ref(s->validity);
        nc->claim_base = old;
        nc->claim_end = total;
    } else {
        /* a copy with room to append into next time: half as much again */
        size_t cap = old + old / 2;
        if (cap < total) cap = total;
        if (cap < 16) cap = 16;
        if (cap > SIZE_MAX / w) cap = total;
        attu_column_store *ns = calloc(1, sizeof *ns);
        void *data = ns ? malloc(cap * w) : NULL;
        uint64_t *v = data && c->validity ? bits_new(words_for(cap), 2, c->validity, words_for(old)) : NULL;
        if (!ns || !data || (c->validity && !v)) {
            free(ns); free(data); free(v ? bits_of(v) : NULL); free(nc);
            return attu_error_oom(err), NULL;
        }
        if (old) memcpy(data, c->data, old * w);
        if (v && (old & 63)) v[old >> 6] |= ~0ULL << (old & 63);
        ns->refs = 1;
        ns->claims.claimed = total;
        ns->capacity = cap;
        ns->data = data;
        ns->validity = v;
        nc->store = ns;
        nc->data = data;
        nc->capacity = cap;
        nc->validity = v;
        nc->claim_base = old;
        nc->claim_end = total;
    }
    nc->length = total;
    nc->dict = attu_dictionary_ref(c->dict);
    nc->dict_unused = c->dict_unused;
    /* the new rows start zero and valid (a rolled-back append may have
     * left its values there) */
    if (n) memset((char *)nc->data + old * w, 0, n * w);
    if (nc->validity && mark_valid(nc, old, total, err)) {
        attu_column_free(nc);
        return NULL;
    }
    return nc;
}

int attu_column_append_null(attu_column *c, size_t row, attu_error *err) {
    attu_column_store *s = c->store;
    if (!s) {
        if (attu_column_ensure_validity(c, err)) return -1;
        attu_column_set_null(c, row, true);
        return 0;
    }
    if (!c->validity) {
        if (!s->validity) {   /* the store's first NULL: a bitmap, all valid */
            if (!(s->validity = bits_new(words_for(s->capacity), 1, NULL, 0))) return attu_error_oom(err);
        }
        c->validity = bits_ref(s->validity);
    }
    if (own_word(c, row, err)) return -1;
    c->validity[row >> 6] &= ~(1ULL << (row & 63));
    size_t w = attu_type_width(c->type.id);
    memset((char *)c->data + row * w, 0, w);
    return 0;
}

size_t attu_column_null_count(const attu_column *c) {
    if (!c->validity) return 0;
    size_t full = c->length / 64, nulls = 0;
    for (size_t i = 0; i < full; i++)
        nulls += (size_t)__builtin_popcountll(~c->validity[i]);
    if (c->length & 63) {
        uint64_t mask = (1ULL << (c->length & 63)) - 1;
        nulls += (size_t)__builtin_popcountll(~c->validity[full] & mask);
    }
    return nulls;
}

/* A char(n) value (stored without its trailing spaces, types.h) as
 * PostgreSQL shows it: padded with spaces to n characters. When the padded
 * value does not fit buf, it is built in a buffer of this thread's that
 * lives until the thread's next call (callers copy *long_out at once); the
 * buffer is thread-specific data, freed when its thread ends. */
typedef struct pad_buffer { size_t cap; char bytes[]; } pad_buffer;
static tss_t pad_key;
static once_flag pad_once = ONCE_FLAG_INIT;
static int pad_key_ok;
static void pad_key_init(void) { pad_key_ok = tss_create(&pad_key, free) == thrd_success; }

static size_t format_bpchar(const char *s, size_t len, int n, char *buf, size_t cap, const char **long_out) {
    size_t chars = 0;
    for (size_t i = 0; i < len; i++) chars += ((unsigned char)s[i] & 0xC0) != 0x80;
    size_t pad = chars < (size_t)n ? (size_t)n - chars : 0, total = len + pad;
    char *out = buf;
    if (cap == 0 || total > cap - 1) {
        call_once(&pad_once, pad_key_init);
        pad_buffer *pb = pad_key_ok ? tss_get(pad_key) : NULL;
        if (pad_key_ok && (!pb || pb->cap < total + 1)) {
            pad_buffer *nb = realloc(pb, sizeof *nb + total + 1);
            if (nb && tss_set(pad_key, nb) == thrd_success) { pb = nb; pb->cap = total + 1; }
            else { free(nb ? nb : pb); tss_set(pad_key, NULL); pb = NULL; }
        }
        if (!pb) {   /* no memory for the padding: the value unpadded */
            if (long_out) *long_out = s;
            return len;
        }
        out = pb->bytes;
        if (long_out) *long_out = out;
    } else if (long_out) {
        *long_out = NULL;
    }
    memcpy(out, s, len);
    memset(out + len, ' ', pad);
    out[total] = '\0';
    return total;
}

/* An array's or a range's text (engine/array.h, range.h), in buf or, when longer, in the
 * thread's buffer that format_bpchar uses. */
static size_t format_array(attu_type t, const char *s, size_t len, char *buf, size_t cap, const char **long_out) {
    attu_abuf txt = { 0 };
    /* (a range's text too: engine/range.h) */
    if (attu_type_is_range(t) ? attu_range_to_text(attu_type_range_kind(t), s, len, &txt)
                              : attu_array_to_text(attu_type_array_elem(t), s, len, &txt)) {
        attu_abuf_free(&txt);
        if (long_out) *long_out = "";
        return 0;
    }
    size_t n = txt.len;
    if (cap > 0 && n <= cap - 1) {
        memcpy(buf, txt.p, n);
        buf[n] = 0;
        if (long_out) *long_out = NULL;
        attu_abuf_free(&txt);
        return n;
    }
    call_once(&pad_once, pad_key_init);
    pad_buffer *pb = pad_key_ok ? tss_get(pad_key) : NULL;
    if (pad_key_ok && (!pb || pb->cap < n + 1)) {
        pad_buffer *nb = realloc(pb, sizeof *nb + n + 1);
        if (nb && tss_set(pad_key, nb) == thrd_success) { pb = nb; pb->cap = n + 1; }
        else { free(nb ? nb : pb); tss_set(pad_key, NULL); pb = NULL; }
    }
    if (!pb) { attu_abuf_free(&txt); if (long_out) *long_out = ""; return 0; }
    memcpy(pb->bytes, txt.p, n + 1);
    attu_abuf_free(&txt);
    if (long_out) *long_out = pb->bytes;
    return n;
}

size_t attu_column_format(const attu_column *c, size_t row, char *buf,
                          size_t cap, const char **long_out) {
    if (attu_column_is_null(c, row)) return (size_t)-1;
    size_t w = attu_type_width(c->type.id);
    const void *slot = (const char *)c->data + row * w;
    if (c->type.id == ATTU_TYPE_TEXT) {
        size_t len = 0;
        const char *s = "";
        if (c->dict) s = attu_dictionary_get(c->dict, *(const int32_t *)slot, &len);
        if (attu_type_is_bpchar(c->type)) return format_bpchar(s, len, c->type.precision, buf, cap, long_out);
        if (attu_type_is_array(c->type) || attu_type_is_range(c->type)) return format_array(c->type, s, len, buf, cap, long_out);
        if (attu_type_is_enum(c->type)) s = attu_enum_image_label(s, len, &len);   /* its label (enum_type.h) */
        if (cap == 0 || len > cap - 1) {
            if (long_out) *long_out = s;
            return len;
        }
        memcpy(buf, s, len);
        buf[len] = '\0';
        if (long_out) *long_out = NULL;
        return len;
    }
    if (long_out) *long_out = NULL;
    return attu_value_format(c->type, slot, buf, cap);
}

int attu_column_array_each(const attu_column *c, size_t row,
                           void (*fn)(void *ctx, attu_type elem, const attu_slot *v, const char *num, size_t num_len),
                           void *ctx) {
    if (!attu_type_is_array(c->type) || attu_column_is_null(c, row)) return -1;
    size_t len = 0;
    const char *s = "";
    if (c->dict) s = attu_dictionary_get(c->dict, *(const int32_t *)((const char *)c->data + row * 4), &len);
    attu_type e = attu_type_array_elem(c->type);
    attu_array_iter it;
    attu_slot v;
    int n = 0;
    attu_array_iter_init(&it, e, s, len);
    while (attu_array_next(&it, &v) == 1) {
        char num[80];
        int nl = 0;
        if (e.id == ATTU_TYPE_NUMERIC && !v.null) nl = attu_numeric_format(attu_numeric_unpack(v.v.s), num, sizeof num);
        fn(ctx, e, &v, nl ? num : NULL, (size_t)nl);
        n++;
    }
    attu_array_iter_done(&it);
    return n;
}

int attu_column_array_dims(const attu_column *c, size_t row, int32_t *dims, int32_t *lbs) {
    if (!attu_type_is_array(c->type) || attu_column_is_null(c, row)) return -1;
    size_t len = 0;
    const char *s = "";
    if (c->dict) s = attu_dictionary_get(c->dict, *(const int32_t *)((const char *)c->data + row * 4), &len);
    attu_array_shape sh;
    attu_array_get_shape(attu_type_array_elem(c->type), s, len, &sh);
    for (int d = 0; d < sh.ndims; d++) { dims[d] = sh.dims[d]; lbs[d] = sh.lbs[d]; }
    return sh.ndims;
}

int attu_column_range_get(const attu_column *c, size_t row, int *flags, int64_t v[2], char num[2][96]) {
    if (!attu_type_is_range(c->type) || attu_column_is_null(c, row)) return -1;
    size_t len = 0;
    const char *s = "";
    if (c->dict) s = attu_dictionary_get(c->dict, *(const int32_t *)((const char *)c->data + row * 4), &len);
    attu_range r;
    if (attu_range_decode(attu_type_range_kind(c->type), s, len, &r)) return -1;
    *flags = r.empty ? 0x01 : (r.lo.inc ? 0x02 : 0) | (r.hi.inc ? 0x04 : 0) | (r.lo.inf ? 0x08 : 0) | (r.hi.inf ? 0x10 : 0);
    const attu_range_bound *bs[2] = { &r.lo, &r.hi };
    for (int i = 0; i < 2; i++) {
        v[i] = bs[i]->i;
        num[i][0] = 0;
        if (!r.empty && !bs[i]->inf && r.kind == ATTU_RANGE_NUM) attu_numeric_format(bs[i]->n, num[i], 96);
    }
    return 0;
}

void attu_column_invalidate_device(attu_column *c) {
    if (c->device && c->device_free) c->device_free(c->device);
    c->device = NULL;
    c->key_stats.state = 0;   /* the host data changed */
    c->range.state = 0;
}
