/*
 * column.c - fixed-width slots plus an optional validity bitmap (column.h).
 *
 * Invariants: capacity >= length; when validity exists it covers capacity
 * slots rounded up to 64 and bits past length are 1 (valid), so growing a
 * column never exposes stale NULL bits; a NULL row's slot is zero.
 */
#include "engine/column.h"
#include "engine/enum_type.h"
#include "engine/array.h"
#include "engine/dictionary.h"
#include "engine/numeric.h"

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

void attu_column_free(attu_column *c) {
    if (!c) return;
    if (__atomic_load_n(&c->shares, __ATOMIC_ACQUIRE) > 0 && __atomic_fetch_sub(&c->shares, 1, __ATOMIC_ACQ_REL) > 0)
        return;   /* another owner keeps it (and its device copy) */
    attu_column_invalidate_device(c);
    free(c->data);
    free(c->validity);
    attu_dictionary_unref(c->dict);
    free(c);
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
    if (c->validity) return 0;
    size_t nw = words_for(c->capacity ? c->capacity : 1);
    uint64_t *v = malloc(nw * sizeof *v);
    if (!v) return attu_error_oom(err);
    memset(v, 0xff, nw * sizeof *v);
    c->validity = v;
    return 0;
}

void attu_column_set_null(attu_column *c, size_t row, bool is_null) {
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
    return n;
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

/* An array's text (engine/array.h), in buf or, when longer, in the
 * thread's buffer that format_bpchar uses. */
static size_t format_array(attu_type t, const char *s, size_t len, char *buf, size_t cap, const char **long_out) {
    attu_abuf txt = { 0 };
    if (attu_array_to_text(attu_type_array_elem(t), s, len, &txt)) {
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
        if (attu_type_is_array(c->type)) return format_array(c->type, s, len, buf, cap, long_out);
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

void attu_column_invalidate_device(attu_column *c) {
    if (c->device && c->device_free) c->device_free(c->device);
    c->device = NULL;
    c->key_stats.state = 0;   /* the host data changed */
    c->range.state = 0;
}
