/*
 * array.c - arrays of one or several dimensions: the order-preserving encoding of
 * engine/array.h, PostgreSQL's text form in and out, and the array
 * functions and operators (ATTU_OP_ARRAY), all on the host.
 */
#include "engine/array.h"
#include "engine/bytea.h"
#include "engine/enum_type.h"
#include "engine/interval.h"
#include "engine/json.h"
#include "engine/numeric.h"
#include "engine/uuid.h"
#include "engine/jsonpath.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* PostgreSQL's MaxArraySize (MaxAllocSize / sizeof(Datum)) */
#define ATTU_ARRAY_MAX_SIZE 134217727
#define TAG_VALUE 0x02
#define TAG_NULL  0x03
#define TAG_SHOW  0x01    /* a numeric, float or bpchar array's show entries follow */
#define SHOW_PLAIN 0x80   /* a display byte that shows nothing beyond the key */
#define SHOW_MORE  0xc0   /* show bytes from here to 0xfe lead a longer entry */
#define SHOW_SHAPE 0xff   /* after TAG_SHOW: the shape, not show bytes */
#define KEY64_LEN 10

int attu_abuf_put(attu_abuf *b, const void *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        while (cap < b->len + n + 1) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) return -1;
        b->p = p; b->cap = cap;
    }
    if (n) memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
    return 0;
}

void attu_abuf_free(attu_abuf *b) { free(b->p); b->p = NULL; b->len = b->cap = 0; }

static int put_byte(attu_abuf *b, unsigned char c) { return attu_abuf_put(b, &c, 1); }

/* ---- element keys -------------------------------------------------------- */

static int put_u64(attu_abuf *b, uint64_t u) {
    unsigned char k[KEY64_LEN];
    k[0] = (unsigned char)(0x80 | (u >> 63));
    for (int i = 1; i < KEY64_LEN; i++) k[i] = (unsigned char)(0x80 | ((u >> (63 - 7 * i)) & 0x7f));
    return attu_abuf_put(b, k, KEY64_LEN);
}

static uint64_t get_u64(const unsigned char *k) {
    uint64_t u = (uint64_t)(k[0] & 1) << 63;
    for (int i = 1; i < KEY64_LEN; i++) u |= (uint64_t)(k[i] & 0x7f) << (63 - 7 * i);
    return u;
}

static uint64_t float_bits(double d) {
    uint64_t u;
    if (isnan(d)) d = NAN;         /* one NaN, above Infinity as PostgreSQL's */
    if (d == 0) d = 0.0;           /* -0 is 0's key; its sign is a display byte */
    memcpy(&u, &d, 8);
    if (isnan(d)) u = 0x7ff8000000000000ull;
    return (u >> 63) ? ~u : u | (1ull << 63);
}

static double bits_float(uint64_t u) {
    u = (u >> 63) ? u & ~(1ull << 63) : ~u;
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static bool elem_is_float(attu_type e) { return e.id == ATTU_TYPE_FLOAT32 || e.id == ATTU_TYPE_FLOAT64; }

/* element types whose values show more than their key: a numeric's scale,
 * a float's negative zero, a bpchar's trailing blanks (array.h: display
 * bytes) */
static bool elem_has_show(attu_type e) {
    return e.id == ATTU_TYPE_NUMERIC || e.id == ATTU_TYPE_INTERVAL || elem_is_float(e) || attu_type_is_bpchar_any(e);
}

/* A show entry (array.h) of value v (0: shows nothing beyond the key):
 * one byte 0x80 + v below 64, else v / 64 in digits of base 63 (bytes
 * 0xc0 + digit, most significant first) before the byte 0x80 + v % 64.
 * Every entry ends at its one byte below 0xc0. */
static int put_show_entry(attu_abuf *b, size_t v) {
    unsigned char d[24];
    int n = 0;
    d[n++] = (unsigned char)(SHOW_PLAIN + v % 64);
    for (size_t q = v / 64; q > 0 && n < 24; q /= 63) d[n++] = (unsigned char)(SHOW_MORE + q % 63);
    for (int i = n - 1; i >= 0; i--)
        if (attu_abuf_put(b, &d[i], 1)) return -1;
    return 0;
}

/* The value of the show entry at *p (advanced past it). */
static size_t get_show_entry(const unsigned char **p, const unsigned char *end) {
    size_t q = 0;
    while (*p < end && **p >= SHOW_MORE && **p != SHOW_SHAPE) q = q * 63 + (size_t)(*(*p)++ - SHOW_MORE);
    if (*p >= end || **p < SHOW_PLAIN) return 0;
    return q * 64 + (size_t)(*(*p)++ - SHOW_PLAIN);
}

/* numeric: class bytes */
enum { NK_NEG_INF = 0x20, NK_NEG, NK_ZERO, NK_POS, NK_POS_INF, NK_NAN };
#define NK_TERM_POS 0x21   /* below every digit byte '0'..'9' */
#define NK_TERM_NEG 0x7a   /* above every inverted digit 0x60..0x69 */

static int put_numeric(attu_abuf *b, const void *slot16, size_t *show) {
    attu_numeric n = attu_numeric_unpack(slot16);
    char txt[80];
    int l = attu_numeric_format(n, txt, sizeof txt);
    *show = 0;
    if (attu_numeric_is_special(n)) {
        return put_byte(b, attu_numeric_is_nan(n) ? NK_NAN : attu_numeric_inf_sign(n) > 0 ? NK_POS_INF : NK_NEG_INF);
    }
    bool neg = txt[0] == '-';
    const char *p = txt + neg, *end = txt + l, *dot = memchr(p, '.', (size_t)(end - p));
    const char *ie = dot ? dot : end;
    char digits[80];
    int nd = 0, exp = 0;
    while (p < ie && *p == '0') p++;           /* leading zeros of the integer part */
    if (p < ie) {
        exp = (int)(ie - p);
        for (; p < ie && nd < 79; p++) digits[nd++] = *p;
        if (dot) for (p = dot + 1; p < end && nd < 79; p++) digits[nd++] = *p;
    } else if (dot) {
        p = dot + 1;
        while (p < end && *p == '0') { p++; exp--; }
        for (; p < end && nd < 79; p++) digits[nd++] = *p;
    }
    int dscale = n.dscale;
    while (nd > 0 && digits[nd - 1] == '0') nd--;
    if (nd == 0) {
        if (put_byte(b, NK_ZERO)) return -1;
    } else {
        /* exp: the integer digits from the first significant one (123.4: 3,
         * 0.012: -1) */
        if (put_byte(b, neg ? NK_NEG : NK_POS)) return -1;
        int eb = exp + 0x80;
        if (put_byte(b, (unsigned char)(neg ? 0x100 - eb : eb))) return -1;
        for (int i = 0; i < nd; i++)
            if (put_byte(b, (unsigned char)(neg ? 0x69 - (digits[i] - '0') : digits[i]))) return -1;
        if (put_byte(b, neg ? NK_TERM_NEG : NK_TERM_POS)) return -1;
    }
    *show = (size_t)dscale;
    return 0;
}

/* interval: the key is the span PostgreSQL compares intervals by (a month
 * as 30 days, a day as 24 hours: '1 day' and '24 hours' are equal, as
 * interval_eq has them), a 128-bit integer as two 64-bit keys (the high
 * half signed); the show entry keeps the months and the days (zigzag,
 * 32 bits each), from which and the span the microseconds follow. An
 * interval of time only (no months, no days) shows nothing beyond its key. */
#define DAY_USEC ((__int128)86400000000LL)

static uint64_t zigzag32(int32_t v) { return (uint32_t)(((uint32_t)v << 1) ^ (uint32_t)(v >> 31)); }
static int32_t unzigzag32(uint64_t u) { return (int32_t)((uint32_t)(u >> 1) ^ (uint32_t)-(int32_t)(u & 1)); }

static int put_interval(attu_abuf *b, const void *slot16, size_t *show) {
    attu_interval iv;
    memcpy(&iv, slot16, sizeof iv);
    __int128 span = attu_interval_span(iv);
    uint64_t hi = (uint64_t)(span >> 64) ^ (1ull << 63), lo = (uint64_t)span;
    *show = (size_t)(zigzag32(iv.months) << 32 | zigzag32(iv.days));
    return put_u64(b, hi) || put_u64(b, lo) ? -1 : 0;
}

static void get_interval(const unsigned char *k, size_t show, char *slot16) {
    uint64_t hi = get_u64(k) ^ (1ull << 63), lo = get_u64(k + KEY64_LEN);
    __int128 span = (__int128)(((unsigned __int128)hi << 64) | lo);
    attu_interval iv;
    iv.months = unzigzag32((uint64_t)show >> 32);
    iv.days = unzigzag32((uint64_t)show & 0xffffffffu);
    iv.usec = (int64_t)(span - (__int128)iv.months * 30 * DAY_USEC - (__int128)iv.days * DAY_USEC);
    memcpy(slot16, &iv, sizeof iv);
}

/* The length of a numeric key at k. */
static size_t numeric_key_len(const unsigned char *k, const unsigned char *end) {
    size_t i = 1;
    if (k[0] == NK_NEG || k[0] == NK_POS) {
        unsigned char term = k[0] == NK_NEG ? NK_TERM_NEG : NK_TERM_POS;
        i = 2;
        while (k + i < end && k[i] != term) i++;
        i++;
    }
    return i;
}

int attu_array_numeric_key(attu_abuf *b, const void *slot16) {
    size_t show;
    return put_numeric(b, slot16, &show);
}

size_t attu_array_numeric_key_len(const unsigned char *k, const unsigned char *end) { return numeric_key_len(k, end); }

/* The length of the key at k of a value element of type e. */
static size_t key_len(attu_type e, const unsigned char *k, const unsigned char *end) {
    if (e.id == ATTU_TYPE_NUMERIC) return numeric_key_len(k, end);
    if (e.id == ATTU_TYPE_INTERVAL) return 2 * KEY64_LEN;
    if (e.id != ATTU_TYPE_TEXT) return KEY64_LEN;
    const unsigned char *q = k;
    while (q + 1 < end && !(q[0] == 1 && q[1] == 1)) q += q[0] == 1 ? 2 : 1;
    return (size_t)(q + 2 - k);
}

static int get_numeric(const unsigned char *k, size_t keylen, int dscale, char *slot16) {
    attu_numeric n;
    char txt[128];
    int l = 0;
    switch (k[0]) {
    case NK_NAN: attu_numeric_pack(attu_numeric_nan(), slot16); return 0;
    case NK_POS_INF: attu_numeric_pack(attu_numeric_inf(1), slot16); return 0;
    case NK_NEG_INF: attu_numeric_pack(attu_numeric_inf(-1), slot16); return 0;
    default: break;
    }
    if (k[0] == NK_ZERO) {
        l = snprintf(txt, sizeof txt, "0%s", dscale ? "." : "");
        for (int i = 0; i < dscale && l < 120; i++) txt[l++] = '0';
    } else {
        bool neg = k[0] == NK_NEG;
        int exp = neg ? 0x100 - k[1] - 0x80 : k[1] - 0x80;
        char digits[80];
        int nd = 0;
        for (size_t i = 2; i + 1 < keylen && nd < 79; i++) digits[nd++] = (char)(neg ? '0' + (0x69 - k[i]) : k[i]);
        if (neg) txt[l++] = '-';
        if (exp <= 0) {
            txt[l++] = '0';
        } else {
            for (int i = 0; i < exp; i++) txt[l++] = i < nd ? digits[i] : '0';
        }
        if (dscale > 0) {
            txt[l++] = '.';
            for (int i = 0; i < dscale && l < 120; i++) {
                int pos = exp + i;   /* index into digits of the i-th fraction digit */
                txt[l++] = pos >= 0 && pos < nd ? digits[pos] : '0';
            }
        }
    }
    txt[l] = 0;
    if (attu_numeric_parse(txt, (size_t)l, &n, NULL)) return -1;
    attu_numeric_pack(n, slot16);
    return 0;
}

/* A show entry after its element, as a one-element segment (array.h). */
static int put_show(attu_abuf *out, size_t show) {
    if (!show) return 0;
    return put_byte(out, TAG_SHOW) || put_show_entry(out, show) ? -1 : 0;
}

int attu_array_put(attu_abuf *out, attu_type elem, const attu_slot *v) {
    if (v->null) return put_byte(out, TAG_NULL);
    if (put_byte(out, TAG_VALUE)) return -1;
    size_t show = 0;
    switch (elem.id) {
    case ATTU_TYPE_TEXT: {
        const char *s = v->v.s;
        uint32_t len = v->len;
        if (attu_type_is_bpchar_any(elem)) {
            /* the key without the trailing blanks, which bpchar's
             * comparisons ignore; their count is the show entry */
            uint32_t blanks = 0;
            while (blanks < len && s[len - 1 - blanks] == ' ') blanks++;
            len -= blanks;
            show = blanks;
        }
        for (uint32_t i = 0; i < len; i++) {
            if (s[i] == 1) { if (attu_abuf_put(out, "\x01\x02", 2)) return -1; }
            else if (put_byte(out, (unsigned char)s[i])) return -1;
        }
        return attu_abuf_put(out, "\x01\x01", 2) || put_show(out, show) ? -1 : 0;
    }
    case ATTU_TYPE_NUMERIC: return put_numeric(out, v->v.s, &show) || put_show(out, show) ? -1 : 0;
    case ATTU_TYPE_INTERVAL: return put_interval(out, v->v.s, &show) || put_show(out, show) ? -1 : 0;
    case ATTU_TYPE_FLOAT32: case ATTU_TYPE_FLOAT64:
        if (v->v.f == 0 && signbit(v->v.f)) show = 1;
        return put_u64(out, float_bits(v->v.f)) || put_show(out, show) ? -1 : 0;
    default: return put_u64(out, (uint64_t)v->v.i ^ (1ull << 63));
    }
}

/* One segment of an encoding (array.h): its elements, the shape written
 * after them (has_shape), its show bytes, and where the next begins. */
typedef struct segment {
    const unsigned char *elems_end, *show, *next;
    size_t nvalues, nshow, nelems;
    bool has_shape;
    attu_array_shape shape;
} segment;

static int64_t get_key64(const unsigned char *k) { return (int64_t)(get_u64(k) ^ (1ull << 63)); }

static void parse_segment(attu_type e, const unsigned char *p, const unsigned char *end, segment *sg) {
    memset(sg, 0, sizeof *sg);
    while (p < end && *p != TAG_SHOW) {
        sg->nelems++;
        if (*p++ == TAG_NULL) continue;
        p += key_len(e, p, end);
        sg->nvalues++;
    }
    sg->elems_end = p;
    if (p + 1 < end && p[1] == SHOW_SHAPE) {
        p += 2;
        if (end - p >= KEY64_LEN) { sg->shape.ndims = (int)get_key64(p); p += KEY64_LEN; }
        if (sg->shape.ndims < 0 || sg->shape.ndims > ATTU_ARRAY_MAXDIM) sg->shape.ndims = 0;
        for (int d = 0; d < sg->shape.ndims && end - p >= 2 * KEY64_LEN; d++) {
            sg->shape.dims[d] = (int32_t)get_key64(p);
            sg->shape.lbs[d] = (int32_t)get_key64(p + (size_t)sg->shape.ndims * KEY64_LEN);
            p += KEY64_LEN;
        }
        p += (size_t)sg->shape.ndims * KEY64_LEN;
        if (p > end) p = end;
        sg->has_shape = true;
    }
    if (p + 1 < end && *p == TAG_SHOW && p[1] >= SHOW_PLAIN && p[1] != SHOW_SHAPE) {
        sg->show = ++p;
        for (; p < end && *p >= SHOW_PLAIN && *p != SHOW_SHAPE; p++) sg->nshow += *p < SHOW_MORE;   /* entries */
        if (sg->nshow > sg->nvalues) sg->nshow = sg->nvalues;
    }
    sg->next = p;
}

/* At the start of a segment: its end and show bytes, which belong to its
 * last value elements. */
static void start_segment(attu_array_iter *it) {
    segment sg;
    parse_segment(it->elem, it->p, it->end, &sg);
    it->seg_end = sg.elems_end;
    it->seg_next = sg.next;
    it->show = sg.show;
    it->show_skip = sg.nvalues - sg.nshow;
    it->show_end = sg.next;
    it->seg_value = 0;
}

void attu_array_iter_init(attu_array_iter *it, attu_type elem, const char *s, size_t len) {
    memset(it, 0, sizeof *it);
    it->p = (const unsigned char *)s;
    it->end = it->p + len;
    it->elem = elem;
    start_segment(it);
}

void attu_array_iter_done(attu_array_iter *it) { attu_abuf_free(&it->scratch); }

int attu_array_next(attu_array_iter *it, attu_slot *v) {
    while (it->p < it->end && it->p == it->seg_end) {   /* past a segment's shape and show bytes */
        if (it->seg_next <= it->p) { it->p = it->end; break; }
        it->p = it->seg_next;
        start_segment(it);
    }
    if (it->p >= it->end) return 0;
    const unsigned char *start = it->p;
    memset(v, 0, sizeof *v);
    it->showv = 0;
    if (*it->p++ == TAG_NULL) {
        v->null = 1;
        it->key = start; it->keylen = 1; it->enclen = 1;
        return 1;
    }
    if (it->show && it->seg_value >= it->show_skip) it->showv = get_show_entry(&it->show, it->show_end);
    it->seg_value++;
    const unsigned char *k = it->p;
    switch (it->elem.id) {
    case ATTU_TYPE_TEXT: {
        const unsigned char *q = k;
        bool escaped = false;
        while (q + 1 < it->end && !(q[0] == 1 && q[1] == 1)) {
            if (q[0] == 1) { escaped = true; q += 2; } else q++;
        }
        it->key = k; it->keylen = (size_t)(q + 2 - k);
        it->p = q + 2;
        size_t blanks = it->showv;   /* a bpchar's (0 for text) */
        if (!escaped && !blanks) { v->v.s = (const char *)k; v->len = (uint32_t)(q - k); }
        else {
            it->scratch.len = 0;
            for (const unsigned char *r = k; r < q; r++) {
                if (attu_abuf_put(&it->scratch, r, 1)) return -1;
                if (*r == 1) r++;
            }
            for (size_t b = 0; b < blanks; b++)
                if (attu_abuf_put(&it->scratch, " ", 1)) return -1;
            v->v.s = it->scratch.p; v->len = (uint32_t)it->scratch.len;
        }
        break;
    }
    case ATTU_TYPE_NUMERIC: {
        it->keylen = numeric_key_len(k, it->end);
        it->key = k;
        it->p = k + it->keylen;
        it->scratch.len = 0;
        if (attu_abuf_put(&it->scratch, "0123456789abcdef", 16)) return -1;
        if (get_numeric(k, it->keylen, (int)it->showv, it->scratch.p)) return -1;
        v->v.s = it->scratch.p; v->len = 16;
        break;
    }
    case ATTU_TYPE_INTERVAL: {
        it->keylen = 2 * KEY64_LEN;
        it->key = k;
        it->p = k + it->keylen;
        it->scratch.len = 0;
        if (attu_abuf_put(&it->scratch, "0123456789abcdef", 16)) return -1;
        get_interval(k, it->showv, it->scratch.p);
        v->v.s = it->scratch.p; v->len = 16;
        break;
    }
    default: {
        uint64_t u = get_u64(k);
        it->key = k; it->keylen = KEY64_LEN;
        it->p = k + KEY64_LEN;
        if (elem_is_float(it->elem)) v->v.f = it->showv == 1 ? -0.0 : bits_float(u);
        else v->v.i = (int64_t)(u ^ (1ull << 63));
        break;
    }
    }
    it->enclen = (size_t)(it->p - start);
    return 1;
}

int attu_array_put_current(attu_abuf *out, const attu_array_iter *it) {
    if (attu_abuf_put(out, it->p - it->enclen, it->enclen)) return -1;
    return it->enclen > 1 ? put_show(out, it->showv) : 0;
}

static bool shape_plain(const attu_array_shape *sh) {
    return sh->ndims == 0 || (sh->ndims == 1 && sh->lbs[0] == 1);
}

static int put_shape(attu_abuf *out, const attu_array_shape *sh) {
    unsigned char m[2] = { TAG_SHOW, SHOW_SHAPE };
    if (attu_abuf_put(out, m, 2) || put_u64(out, (uint64_t)sh->ndims ^ (1ull << 63))) return -1;
    for (int d = 0; d < sh->ndims; d++) if (put_u64(out, (uint64_t)(int64_t)sh->dims[d] ^ (1ull << 63))) return -1;
    for (int d = 0; d < sh->ndims; d++) if (put_u64(out, (uint64_t)(int64_t)sh->lbs[d] ^ (1ull << 63))) return -1;
    return 0;
}

int attu_array_finish(attu_type elem, const char *s, size_t len, const attu_array_shape *sh, attu_abuf *out) {
    attu_array_iter it;
    attu_slot v;
    attu_abuf show = { 0 };
    bool any = false;
    int rc = 0;
    size_t n = 0;
    out->len = 0;
    if (attu_abuf_put(out, "", 0)) return -1;
    attu_array_iter_init(&it, elem, s, len);
    while (!rc && (rc = attu_array_next(&it, &v)) == 1) {
        n++;
        rc = attu_abuf_put(out, it.p - it.enclen, it.enclen);
        if (!rc && !v.null && elem_has_show(elem)) {
            any |= it.showv != 0;
            rc = put_show_entry(&show, it.showv);
        }
    }
    attu_array_iter_done(&it);
    if (!rc && sh && n > 0 && !shape_plain(sh)) rc = put_shape(out, sh);
    if (!rc && any) rc = put_byte(out, TAG_SHOW) || attu_abuf_put(out, show.p, show.len) ? -1 : 0;
    attu_abuf_free(&show);
    return rc;
}

int attu_array_canon(attu_type elem, const char *s, size_t len, attu_abuf *out) {
    attu_array_shape sh;
    attu_array_get_shape(elem, s, len, &sh);
    return attu_array_finish(elem, s, len, &sh, out);
}

void attu_array_get_shape(attu_type elem, const char *s, size_t len, attu_array_shape *sh) {
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    segment sg;
    size_t n = 0, nseg = 0;
    memset(sh, 0, sizeof *sh);
    while (p < end) {
        parse_segment(elem, p, end, &sg);
        n += sg.nelems;
        if (nseg++ == 0 && sg.has_shape) *sh = sg.shape;
        if (sg.next <= p) break;
        p = sg.next;
    }
    if (n > 0 && (nseg > 1 || sh->ndims == 0)) {   /* no shape written: one dimension from 1 */
        memset(sh, 0, sizeof *sh);
        sh->ndims = 1; sh->dims[0] = (int32_t)n; sh->lbs[0] = 1;
    }
    if (n == 0) sh->ndims = 0;
}

/* A jsonb array's key: each element's jsonb key (engine/json.h) in its
 * place, as a text element, so that the arrays' byte order is
 * PostgreSQL's jsonb order element by element and equal exactly where
 * the elements are. */
static int jsonb_array_key(const char *s, size_t len, attu_abuf *out) {
    attu_type e = attu_type_json(1), t = attu_type_make(ATTU_TYPE_TEXT);
    attu_abuf raw = { 0 };
    attu_array_iter it;
    attu_array_shape sh;
    attu_slot v, k;
    int rc = attu_abuf_put(&raw, "", 0);
    attu_array_iter_init(&it, e, s, len);
    while (!rc && attu_array_next(&it, &v) == 1) {
        char *key = NULL;
        size_t kl = 0;
        attu_error err = { 0 };
        memset(&k, 0, sizeof k);
        k.null = v.null;
        /* a held jsonb is canonical: its key cannot fail but for memory */
        if (!v.null && attu_jsonb_key(v.v.s, v.len, &key, &kl, &err)) { rc = -1; break; }
        k.v.s = key; k.len = (uint32_t)kl;
        rc = attu_array_put(&raw, t, &k);
        free(key);
    }
    attu_array_iter_done(&it);
    attu_array_get_shape(e, s, len, &sh);
    out->len = 0;
    if (!rc) rc = attu_array_finish(t, raw.p, raw.len, &sh, out);
    attu_abuf_free(&raw);
    return rc;
}

int attu_array_key(attu_type elem, const char *s, size_t len, attu_abuf *out) {
    if (attu_type_is_jsonb(elem)) return jsonb_array_key(s, len, out);
    attu_abuf c = { 0 };
    if (attu_array_canon(elem, s, len, &c)) { attu_abuf_free(&c); return -1; }
    segment sg;
    parse_segment(elem, (const unsigned char *)c.p, (const unsigned char *)c.p + c.len, &sg);
    size_t keep = sg.show ? (size_t)(sg.show - 1 - (const unsigned char *)c.p) : c.len;
    out->len = 0;
    int rc = attu_abuf_put(out, c.p, keep);
    attu_abuf_free(&c);
    return rc;
}

size_t attu_array_count(attu_type elem, const char *s, size_t len) {
    attu_array_iter it;
    attu_slot v;
    size_t n = 0;
    attu_array_iter_init(&it, elem, s, len);
    while (attu_array_next(&it, &v) == 1) n++;
    attu_array_iter_done(&it);
    return n;
}

/* ---- text in and out ------------------------------------------------------ */

/* One element's text as its type's output function writes it. */
static size_t elem_format(attu_type e, const attu_slot *v, char *buf, size_t cap, const char **longp) {
    *longp = NULL;
    union { uint8_t b; int32_t i4; int64_t i8; float f4; double f8; char n16[16]; } slot;
    memset(&slot, 0, sizeof slot);
    switch (e.id) {
    case ATTU_TYPE_TEXT:
        if (attu_type_is_enum(e)) {   /* an enum's image shows its label */
            size_t ll;
            *longp = attu_enum_image_label(v->v.s, v->len, &ll);
            return ll;
        }
        *longp = v->v.s;
        return v->len;
    case ATTU_TYPE_BOOL: slot.b = (uint8_t)v->v.i; break;
    case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: slot.i4 = (int32_t)v->v.i; break;
    case ATTU_TYPE_FLOAT32: slot.f4 = (float)v->v.f; break;
    case ATTU_TYPE_FLOAT64: slot.f8 = v->v.f; break;
    case ATTU_TYPE_NUMERIC: case ATTU_TYPE_INTERVAL: memcpy(slot.n16, v->v.s, 16); break;
    default: slot.i8 = v->v.i; break;
    }
    return attu_value_format(e, &slot, buf, cap);
}

size_t attu_array_elem_text(attu_type elem, const attu_slot *v, char *buf, size_t cap, const char **longp) {
    return elem_format(elem, v, buf, cap, longp);
}

/* A json, jsonb, uuid, bytea or enum element's text made the held form
 * of its type (engine/types.h: json as written once valid, jsonb's and
 * uuid's canonical text, bytea's hex form, an enum label's image), into
 * typed; its input errors. */
static int typed_text_parse(attu_type e, const char *s, size_t len, attu_abuf *typed, attu_slot *v, attu_error *err) {
    char *held = NULL, u[ATTU_UUID_TEXT_LEN];
    size_t n = 0;
    int rc;
    if (attu_type_is_uuid(e)) {
        rc = attu_uuid_canonical(s, len, u, err);
        held = u;
        n = ATTU_UUID_TEXT_LEN;
    } else if (attu_type_is_bytea(e)) {
        rc = attu_bytea_canonical(s, len, &held, &n, err);
    } else if (attu_type_is_enum(e)) {   /* 22P02 for a label the enum has not */
        held = attu_enum_input(e, s, len, &n, err);
        rc = held ? 0 : -1;
    } else if (attu_type_is_jsonb(e)) {
        rc = attu_jsonb_canonical(s, len, &held, &n, err);
    } else if (attu_type_is_jsonpath(e)) {
        rc = attu_jsonpath_canonical(s, len, &held, &n, err);
    } else {
        rc = attu_json_validate(s, len, err);
        held = (char *)s;
        n = len;
    }
    if (rc) return -1;
    typed->len = 0;
    rc = attu_abuf_put(typed, held, n);
    if (held != u && held != s) free(held);
    if (rc) return attu_error_oom(err);
    v->v.s = typed->p;
    v->len = (uint32_t)typed->len;
    return 0;
}

/* An element's text read as type e into the register form (numeric and
 * text into store; json, jsonb, uuid and bytea into typed, in their held
 * form). */
static int elem_parse(attu_type e, const char *s, size_t len, attu_slot *v, char *num16, attu_abuf *typed,
                      attu_error *err) {
    memset(v, 0, sizeof *v);
    if (attu_type_is_typed_text(e)) return typed_text_parse(e, s, len, typed, v, err);
    if (e.id == ATTU_TYPE_TEXT) { v->v.s = s; v->len = (uint32_t)len; return 0; }
    if (e.id == ATTU_TYPE_NUMERIC) {
        attu_numeric n;
        if (attu_numeric_parse(s, len, &n, err)) return -1;
        attu_numeric_pack(n, num16);
        v->v.s = num16; v->len = 16;
        return 0;
    }
    if (e.id == ATTU_TYPE_INTERVAL) {
        attu_interval iv;
        if (attu_interval_parse(s, len, &iv, err)) return -1;
        memcpy(num16, &iv, sizeof iv);
        v->v.s = num16; v->len = 16;
        return 0;
    }
    union { uint8_t b; int32_t i4; int64_t i8; float f4; double f8; } slot;
    memset(&slot, 0, sizeof slot);
    if (attu_value_parse(e, s, len, &slot, err)) return -1;
    switch (e.id) {
    case ATTU_TYPE_BOOL: v->v.i = slot.b; break;
    case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: v->v.i = slot.i4; break;
    case ATTU_TYPE_FLOAT32: v->v.f = slot.f4; break;
    case ATTU_TYPE_FLOAT64: v->v.f = slot.f8; break;
    default: v->v.i = slot.i8; break;
    }
    return 0;
}

static bool is_array_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int malformed(attu_error *err, const char *s, size_t len, const char *detail) {
    attu_error_set(err, "22P02", 0, "malformed array literal: \"%.*s\"", (int)(len > 200 ? 200 : len), s);
    attu_error_set_detail(err, "%s", detail);
    return -1;
}

/* One element's token at s[*i] (quoted or not), into tok; *is_null for an
 * unquoted NULL. Stops at the ',' or '}' after it. */
static int read_token(const char *s, size_t len, size_t *i, attu_abuf *tok, bool *is_null, attu_error *err) {
    bool quoted = false, any_escape = false;
    tok->len = 0;
    if (attu_abuf_put(tok, "", 0)) return attu_error_oom(err);
    if (s[*i] == '"') {
        quoted = true;
        (*i)++;
        for (;;) {
            if (*i >= len) return malformed(err, s, len, "Unexpected end of input.");
            if (s[*i] == '"') { (*i)++; break; }
            if (s[*i] == '\\') {
                (*i)++;
                if (*i >= len) return malformed(err, s, len, "Unexpected end of input.");
            }
            if (attu_abuf_put(tok, s + *i, 1)) return attu_error_oom(err);
            (*i)++;
        }
        while (*i < len && is_array_space(s[*i])) (*i)++;
    } else {
        size_t keep = 0;   /* length up to the last escaped or non-space byte */
        for (;;) {
            if (*i >= len) return malformed(err, s, len, "Unexpected end of input.");
            char ch = s[*i];
            if (ch == ',' || ch == '}') break;
            if (ch == '"' || ch == '{')
                return malformed(err, s, len, ch == '"' ? "Unexpected \"\"\" character." : "Unexpected \"{\" character.");
            if (ch == '\\') {
                (*i)++;
                if (*i >= len) return malformed(err, s, len, "Unexpected end of input.");
                any_escape = true;
                if (attu_abuf_put(tok, s + *i, 1)) return attu_error_oom(err);
                keep = tok->len;
                (*i)++;
                continue;
            }
            if (attu_abuf_put(tok, s + *i, 1)) return attu_error_oom(err);
            if (!is_array_space(ch)) keep = tok->len;
            (*i)++;
        }
        tok->len = keep;
        if (tok->len == 0)
            return malformed(err, s, len, s[*i] == ',' ? "Unexpected \",\" character." : "Unexpected \"}\" character.");
    }
    *is_null = !quoted && !any_escape && tok->len == 4 && !strncasecmp(tok->p, "NULL", 4);
    return 0;
}

/* An integer of a dimension decoration at s[*i]. */
static bool read_bound(const char *s, size_t len, size_t *i, int64_t *v) {
    size_t j = *i;
    bool neg = j < len && (s[j] == '-' || s[j] == '+') ? s[j++] == '-' : false;
    if (j >= len || s[j] < '0' || s[j] > '9') return false;
    int64_t x = 0;
    while (j < len && s[j] >= '0' && s[j] <= '9' && x < 1000000000000LL) x = x * 10 + (s[j++] - '0');
    *v = neg ? -x : x;
    *i = j;
    return true;
}

/* Reads '{...}' (nested for several dimensions) after an optional
 * decoration '[lb:ub]...=' into raw (attu_array_put's form), its shape in
 * *sh. */
static int parse_array_text(attu_type elem, const char *s, size_t len, attu_abuf *raw, attu_array_shape *sh,
                            attu_error *err) {
    size_t i = 0;
    int ndeco = 0;
    int64_t dlb[ATTU_ARRAY_MAXDIM], dub[ATTU_ARRAY_MAXDIM];
    memset(sh, 0, sizeof *sh);
    while (i < len && is_array_space(s[i])) i++;
    while (i < len && s[i] == '[') {
        int64_t a, b;
        i++;
        while (i < len && is_array_space(s[i])) i++;
        if (!read_bound(s, len, &i, &a)) return malformed(err, s, len, "Array bound is not an integer.");
        b = a; a = 1;
        if (i < len && s[i] == ':') {
            i++;
            a = b;
            if (!read_bound(s, len, &i, &b)) return malformed(err, s, len, "Array bound is not an integer.");
        }
        if (i >= len || s[i] != ']') return malformed(err, s, len, "Missing \"]\" after array dimensions.");
        i++;
        if (ndeco >= ATTU_ARRAY_MAXDIM)
            return attu_error_set(err, "54000", 0, "number of array dimensions (%d) exceeds the maximum allowed (%d)",
                                  ndeco + 1, ATTU_ARRAY_MAXDIM);
        if (b < a) return attu_error_set(err, "2202E", 0, "upper bound cannot be less than lower bound");
        if (a < INT32_MIN || b > INT32_MAX) return attu_error_set(err, "54000", 0, "array upper bound is too large: %lld", (long long)b);
        if (b == INT32_MAX) return attu_error_set(err, "54000", 0, "array lower bound is too large: %lld", (long long)a);
        dlb[ndeco] = a; dub[ndeco] = b; ndeco++;
        while (i < len && is_array_space(s[i])) i++;
    }
    if (ndeco) {
        if (i >= len || s[i] != '=') return malformed(err, s, len, "Missing \"=\" after array dimensions.");
        i++;
        while (i < len && is_array_space(s[i])) i++;
    }
    if (i >= len || s[i] != '{') return malformed(err, s, len, "Array value must start with \"{\" or dimension information.");
    attu_abuf tok = { 0 }, typed = { 0 };
    attu_error elem_err;   /* the first element's input error, reported once the structure is read */
    memset(&elem_err, 0, sizeof elem_err);
    char num16[16];
    int32_t cnt[ATTU_ARRAY_MAXDIM], dims[ATTU_ARRAY_MAXDIM];
    bool dimset[ATTU_ARRAY_MAXDIM] = { false };
    int depth = 1, ndim = 0, rc = 0;
    size_t nelems = 0;
    cnt[0] = 0;
    i++;
    while (i < len && is_array_space(s[i])) i++;
    if (i < len && s[i] == '}') { i++; depth = 0; }   /* '{}' */
    bool want_item = depth > 0;
    while (depth > 0 && !rc) {
        while (i < len && is_array_space(s[i])) i++;
        if (i >= len) { rc = malformed(err, s, len, "Unexpected end of input."); break; }
        if (want_item) {
            if (s[i] == '{') {
                if (ndim && depth >= ndim) { rc = malformed(err, s, len, "Unexpected \"{\" character."); break; }
                if (depth >= ATTU_ARRAY_MAXDIM) {
                    rc = attu_error_set(err, "54000", 0, "number of array dimensions (%d) exceeds the maximum allowed (%d)",
                                        depth + 1, ATTU_ARRAY_MAXDIM);
                    break;
                }
                cnt[depth - 1]++;
                cnt[depth++] = 0;
                i++;
                continue;
            }
            if (!ndim) ndim = depth;
            else if (depth != ndim) { rc = malformed(err, s, len, "Unexpected array element."); break; }
            bool is_null = false;
            attu_slot v;
            if ((rc = read_token(s, len, &i, &tok, &is_null, err))) break;
            if (is_null) { memset(&v, 0, sizeof v); v.null = 1; }
            else if (elem_parse(elem, tok.p ? tok.p : "", tok.len, &v, num16, &typed, elem_err.set ? NULL : &elem_err)) {
                /* PostgreSQL reads the whole structure before any element
                 * ('{1,{x}}'::uuid[] is malformed, not a bad uuid): the
                 * first element error waits for the end of the text */
                memset(&v, 0, sizeof v);
                v.null = 1;
            }
            if (attu_array_put(raw, elem, &v)) { rc = attu_error_oom(err); break; }
            cnt[depth - 1]++;
            nelems++;
            want_item = false;
            continue;
        }
        if (s[i] == ',') { i++; want_item = true; continue; }
        if (s[i] != '}') { rc = malformed(err, s, len, "Unexpected array element."); break; }
        int lv = depth - 1;
        if (!dimset[lv]) { dims[lv] = cnt[lv]; dimset[lv] = true; }
        else if (dims[lv] != cnt[lv]) {
            rc = malformed(err, s, len, "Multidimensional arrays must have sub-arrays with matching dimensions.");
            break;
        }
        i++;
        depth--;
    }
    attu_abuf_free(&tok);
    attu_abuf_free(&typed);
    if (rc) return rc;
    while (i < len && is_array_space(s[i])) i++;
    if (i < len) return malformed(err, s, len, "Junk after closing right brace.");
    if (nelems == 0) {
        if (ndeco) return malformed(err, s, len, "Specified array dimensions do not match array contents.");
        return 0;
    }
    if (ndeco && ndeco != ndim) return malformed(err, s, len, "Specified array dimensions do not match array contents.");
    for (int d = 0; d < ndeco; d++)
        if (dub[d] - dlb[d] + 1 != dims[d])
            return malformed(err, s, len, "Specified array dimensions do not match array contents.");
    if (elem_err.set) {
        if (err && !err->set) *err = elem_err;
        return -1;
    }
    sh->ndims = ndim;
    for (int d = 0; d < ndim; d++) { sh->dims[d] = dims[d]; sh->lbs[d] = 1; }
    if (ndeco) {
        if (ndeco != ndim) return malformed(err, s, len, "Specified array dimensions do not match array contents.");
        for (int d = 0; d < ndim; d++) {
            if (dub[d] - dlb[d] + 1 != dims[d])
                return malformed(err, s, len, "Specified array dimensions do not match array contents.");
            sh->lbs[d] = (int32_t)dlb[d];
        }
    }
    return 0;
}

int attu_array_from_text(attu_type elem, const char *s, size_t len, attu_abuf *out, attu_error *err) {
    attu_abuf raw = { 0 };
    attu_array_shape sh;
    out->len = 0;
    if (attu_abuf_put(out, "", 0) || attu_abuf_put(&raw, "", 0)) { attu_abuf_free(&raw); return attu_error_oom(err); }
    int rc = parse_array_text(elem, s, len, &raw, &sh, err);
    if (!rc && attu_array_finish(elem, raw.p, raw.len, &sh, out)) rc = attu_error_oom(err);
    attu_abuf_free(&raw);
    return rc;
}

/* An element's text, quoted where array_in would misread it. */
static int put_elem_text(attu_abuf *out, attu_type elem, const attu_slot *v) {
    if (v->null) return attu_abuf_put(out, "NULL", 4);
    char buf[128];
    const char *lp;
    size_t n = elem_format(elem, v, buf, sizeof buf, &lp);
    const char *t = lp ? lp : buf;
    bool quote = n == 0 || (n == 4 && !strncasecmp(t, "NULL", 4));
    for (size_t k = 0; k < n && !quote; k++)
        quote = t[k] == '"' || t[k] == '\\' || t[k] == '{' || t[k] == '}' || t[k] == ',' || is_array_space(t[k]);
    if (!quote) return attu_abuf_put(out, t, n);
    if (attu_abuf_put(out, "\"", 1)) return -1;
    for (size_t k = 0; k < n; k++) {
        if ((t[k] == '"' || t[k] == '\\') && attu_abuf_put(out, "\\", 1)) return -1;
        if (attu_abuf_put(out, t + k, 1)) return -1;
    }
    return attu_abuf_put(out, "\"", 1);
}

int attu_array_to_text(attu_type elem, const char *s, size_t len, attu_abuf *out) {
    attu_array_iter it;
    attu_array_shape sh;
    attu_slot v;
    int rc;
    int32_t idx[ATTU_ARRAY_MAXDIM] = { 0 };
    out->len = 0;
    attu_array_get_shape(elem, s, len, &sh);
    if (sh.ndims == 0) return attu_abuf_put(out, "{}", 2);
    bool deco = false;
    for (int d = 0; d < sh.ndims; d++) deco |= sh.lbs[d] != 1;
    if (attu_abuf_put(out, "", 0)) return -1;
    for (int d = 0; deco && d < sh.ndims; d++) {
        char b[48];
        int l = snprintf(b, sizeof b, "[%ld:%ld]", (long)sh.lbs[d], (long)sh.lbs[d] + sh.dims[d] - 1);
        if (attu_abuf_put(out, b, (size_t)l)) return -1;
    }
    if (deco && attu_abuf_put(out, "=", 1)) return -1;
    for (int d = 0; d < sh.ndims; d++) if (attu_abuf_put(out, "{", 1)) return -1;
    attu_array_iter_init(&it, elem, s, len);
    while ((rc = attu_array_next(&it, &v)) == 1) {
        if (put_elem_text(out, elem, &v)) goto oom;
        /* the next subscript: close the dimensions it rolls over */
        int d = sh.ndims - 1, closed = 0;
        while (d >= 0 && ++idx[d] == sh.dims[d]) { idx[d] = 0; d--; closed++; }
        for (int k = 0; k < closed; k++) if (attu_abuf_put(out, "}", 1)) goto oom;
        if (d < 0) break;
        if (attu_abuf_put(out, ",", 1)) goto oom;
        for (int k = 0; k < closed; k++) if (attu_abuf_put(out, "{", 1)) goto oom;
    }
    attu_array_iter_done(&it);
    return rc < 0 ? -1 : 0;
oom:
    attu_array_iter_done(&it);
    return -1;
}

/* ---- the functions --------------------------------------------------------- */

/* An element's key (as attu_array_iter's) of value v. */
static int elem_key(attu_type e, const attu_slot *v, attu_abuf *b, size_t *keylen) {
    b->len = 0;
    if (attu_array_put(b, e, v)) return -1;
    if (v->null) { *keylen = 0; return 0; }
    *keylen = key_len(e, (unsigned char *)b->p + 1, (unsigned char *)b->p + b->len);
    return 0;
}

static int key_cmp(const unsigned char *a, size_t al, const unsigned char *b, size_t bl) {
    size_t m = al < bl ? al : bl;
    int c = memcmp(a, b, m);
    return c ? c : (al > bl) - (al < bl);
}

static int emit(attu_slot *o, const char *s, size_t n, char *(*alloc)(void *, size_t), void *ctx, attu_error *err) {
    char *m = alloc(ctx, n + 1);
    if (!m) return attu_error_oom(err);
    if (n) memcpy(m, s, n);
    m[n] = 0;
    o->null = 0; o->v.s = m; o->len = (uint32_t)n;
    return 0;
}

/* An array result in its canonical form (array.h), other results as they are. */
static int emit_out(attu_slot *o, attu_type dt, attu_abuf *out, attu_abuf *canon, char *(*alloc)(void *, size_t),
                    void *ctx, attu_error *err) {
    if (!attu_type_is_array(dt) || !elem_has_show(attu_type_array_elem(dt))) return emit(o, out->p, out->len, alloc, ctx, err);
    if (attu_array_canon(attu_type_array_elem(dt), out->p, out->len, canon)) return attu_error_oom(err);
    return emit(o, canon->p, canon->len, alloc, ctx, err);
}

/* An array result in the shape sh (NULL: one dimension from 1). */
static int emit_shaped(attu_slot *o, attu_type dt, attu_abuf *out, const attu_array_shape *sh, attu_abuf *canon,
                       char *(*alloc)(void *, size_t), void *ctx, attu_error *err) {
    /* PostgreSQL's ArrayCheckBounds: a lower bound plus its length fits an int4 */
    for (int d = 0; sh && d < sh->ndims; d++)
        if ((int64_t)sh->lbs[d] + sh->dims[d] > INT32_MAX)
            return attu_error_set(err, "54000", 0, "array lower bound is too large: %ld", (long)sh->lbs[d]);
    if (attu_array_finish(attu_type_array_elem(dt), out->p, out->len, sh, canon)) return attu_error_oom(err);
    return emit(o, canon->p, canon->len, alloc, ctx, err);
}

static int64_t shape_count(const attu_array_shape *sh) {
    int64_t n = sh->ndims ? 1 : 0;
    for (int d = 0; d < sh->ndims; d++) n *= sh->dims[d];
    return n;
}

static bool shape_equal(const attu_array_shape *a, int da, const attu_array_shape *b, int db, int n) {
    for (int d = 0; d < n; d++)
        if (a->dims[da + d] != b->dims[db + d] || a->lbs[da + d] != b->lbs[db + d]) return false;
    return true;
}

/* The integers of an int[] (subscripts); *any_null when one is NULL.
 * Returns their count (at most max). */
static int read_subscripts(const attu_slot *a, int64_t *v, int max, bool *any_null) {
    attu_array_iter it;
    attu_slot x;
    int n = 0;
    *any_null = false;
    attu_array_iter_init(&it, attu_type_make(ATTU_TYPE_INT32), a->v.s, a->len);
    while (attu_array_next(&it, &x) == 1) {
        if (x.null) *any_null = true;
        if (n < max) v[n] = x.v.i;
        n++;
    }
    attu_array_iter_done(&it);
    return n;
}

/* The element at flat offset off (0-based) of a, into *o (NULL past the end). */
/* Where the last element_at left off: an iterator over the array of the
 * row before, after its element k - 1. unnest is a[k] for k = 1 .. n
 * over rows that share one array's bytes; walking each from the start
 * made it quadratic (2M elements ran for hours, session 17's review), so
 * a row of the same bytes at a later element goes on from there. */
typedef struct elem_cursor {
    const char *s;
    size_t len;
    int64_t k;
    bool live;
    attu_array_iter it;
} elem_cursor;

static int element_at(const attu_slot *a, attu_type e, attu_type dt, int64_t off, attu_slot *o,
                      char *(*alloc)(void *, size_t), void *ctx, attu_error *err, elem_cursor *cur) {
    attu_slot v;
    int rc = 0;
    if (!cur->live || cur->s != a->v.s || cur->len != a->len || off < cur->k) {
        if (cur->live) attu_array_iter_done(&cur->it);
        attu_array_iter_init(&cur->it, e, a->v.s, a->len);
        cur->live = true;
        cur->s = a->v.s;
        cur->len = a->len;
        cur->k = 0;
    }
    while (attu_array_next(&cur->it, &v) == 1) {
        if (cur->k++ < off) continue;
        if (!v.null) {
            *o = v;
            if (dt.id == ATTU_TYPE_TEXT || attu_type_is_wide(dt.id)) rc = emit(o, v.v.s, v.len, alloc, ctx, err);
        }
        break;
    }
    return rc;
}

/* a[i][j]...: the flat offset of the subscripts, -1 outside the array or
 * for a count other than its dimensions'. */
static int64_t subscript_offset(const attu_array_shape *sh, const int64_t *idx, int n) {
    if (n != sh->ndims || n == 0) return -1;
    int64_t off = 0;
    for (int d = 0; d < n; d++) {
        int64_t k = idx[d] - sh->lbs[d];
        if (k < 0 || k >= sh->dims[d]) return -1;
        off = off * sh->dims[d] + k;
    }
    return off;
}

/* a[lo:hi][lo:hi]...: the elements inside the bounds (INT32_MIN / INT32_MAX:
 * a bound left out; dimensions past n whole) into out, the slice's shape
 * (lower bounds 1) into *rs; nothing for a slice with no element. */
static int slice_into(const attu_slot *a, attu_type e, const attu_array_shape *sh, const int64_t *lo, const int64_t *hi,
                      int n, attu_abuf *out, attu_array_shape *rs) {
    int64_t l[ATTU_ARRAY_MAXDIM], h[ATTU_ARRAY_MAXDIM];
    int32_t idx[ATTU_ARRAY_MAXDIM] = { 0 };
    memset(rs, 0, sizeof *rs);
    if (sh->ndims == 0 || n > sh->ndims) return 0;
    for (int d = 0; d < sh->ndims; d++) {
        int64_t ub = (int64_t)sh->lbs[d] + sh->dims[d] - 1;
        l[d] = d < n && lo[d] != INT32_MIN && lo[d] > sh->lbs[d] ? lo[d] : sh->lbs[d];
        h[d] = d < n && hi[d] != INT32_MAX && hi[d] < ub ? hi[d] : ub;
        if (l[d] > h[d]) return 0;
        rs->dims[d] = (int32_t)(h[d] - l[d] + 1);
        rs->lbs[d] = 1;
    }
    rs->ndims = sh->ndims;
    attu_array_iter it;
    attu_slot v;
    int rc = 0;
    attu_array_iter_init(&it, e, a->v.s, a->len);
    while (!rc && attu_array_next(&it, &v) == 1) {
        bool in = true;
        for (int d = 0; d < sh->ndims && in; d++) in = sh->lbs[d] + idx[d] >= l[d] && sh->lbs[d] + idx[d] <= h[d];
        if (in) rc = attu_array_put_current(out, &it);
        for (int d = sh->ndims - 1; d >= 0; d--) {
            if (++idx[d] < sh->dims[d]) break;
            idx[d] = 0;
        }
    }
    attu_array_iter_done(&it);
    return rc;
}

/* a || b of any dimensions, as PostgreSQL's array_cat: arrays of one
 * dimensionality join along their first dimension, an array of one
 * dimension fewer is one more item of the other. */
static int cat_shape(const attu_array_shape *a, const attu_array_shape *b, attu_array_shape *r, attu_error *err) {
    if (a->ndims == b->ndims) {
        if (!shape_equal(a, 1, b, 1, a->ndims - 1)) goto differing_elements;
        *r = *a;
        r->dims[0] = a->dims[0] + b->dims[0];
        return 0;
    }
    if (a->ndims == b->ndims - 1 || b->ndims == a->ndims - 1) {
        const attu_array_shape *big = a->ndims > b->ndims ? a : b, *item = big == a ? b : a;
        if (!shape_equal(big, 1, item, 0, item->ndims)) goto differing;
        *r = *big;
        r->dims[0] = big->dims[0] + 1;
        return 0;
    }
differing:
    attu_error_set(err, "2202E", 0, "cannot concatenate incompatible arrays");
    attu_error_set_detail(err, "Arrays with differing dimensions are not compatible for concatenation.");
    return -1;
differing_elements:
    attu_error_set(err, "2202E", 0, "cannot concatenate incompatible arrays");
    attu_error_set_detail(err, "Arrays with differing element dimensions are not compatible for concatenation.");
    return -1;
}

/* ARRAY[sub-arrays] and array_agg of arrays (ATTU_ARR_NEST_DONE): the
 * segments written by ATTU_ARR_NEST (each a sub-array with its shape) as
 * one array of one more dimension. */
static int nest_shape(attu_type e, const attu_slot *a, bool agg, attu_array_shape *r, bool *empty, attu_error *err) {
    const unsigned char *p = (const unsigned char *)a->v.s, *end = p + a->len;
    segment sg;
    attu_array_shape first;
    int nseg = 0;
    bool any_empty = false, any_full = false, mismatch = false;
    memset(&first, 0, sizeof first);
    while (p < end) {
        parse_segment(e, p, end, &sg);
        if (nseg == 0) first = sg.shape;
        else if (sg.shape.ndims != first.ndims || !shape_equal(&sg.shape, 0, &first, 0, first.ndims)) mismatch = true;
        if (sg.shape.ndims == 0) any_empty = true; else any_full = true;
        nseg++;
        if (sg.next <= p) break;
        p = sg.next;
    }
    *empty = false;
    if (agg && any_empty) return attu_error_set(err, "2202E", 0, "cannot accumulate empty arrays");
    if (agg && mismatch) return attu_error_set(err, "2202E", 0, "cannot accumulate arrays of different dimensionality");
    if (mismatch || (any_empty && any_full))
        return attu_error_set(err, "2202E", 0, "multidimensional arrays must have array expressions with matching dimensions");
    if (!any_full) { *empty = true; return 0; }
    if (first.ndims + 1 > ATTU_ARRAY_MAXDIM)
        return attu_error_set(err, "54000", 0, "number of array dimensions (%d) exceeds the maximum allowed (%d)",
                              first.ndims + 1, ATTU_ARRAY_MAXDIM);
    memset(r, 0, sizeof *r);
    r->ndims = first.ndims + 1;
    r->dims[0] = nseg; r->lbs[0] = 1;
    for (int d = 0; d < first.ndims; d++) { r->dims[d + 1] = first.dims[d]; r->lbs[d + 1] = first.lbs[d]; }
    return 0;
}

/* The elements of s, each as attu_array_put writes it, into bytes; their
 * starts in *offs (n + 1 of them, malloc'd). */
typedef struct elem_list { attu_abuf bytes; size_t *offs, n; } elem_list;

static int elem_list_read(elem_list *l, attu_type e, const char *s, size_t len) {
    attu_array_iter it;
    attu_slot v;
    size_t cap = 16;
    int rc = 0;
    l->bytes.len = 0;
    l->n = 0;
    free(l->offs);
    if (!(l->offs = malloc(sizeof *l->offs * cap)) || attu_abuf_put(&l->bytes, "", 0)) return -1;
    l->offs[0] = 0;
    attu_array_iter_init(&it, e, s, len);
    while (!rc && attu_array_next(&it, &v) == 1) {
        if (l->n + 2 > cap) {
            size_t *no = realloc(l->offs, sizeof *l->offs * (cap *= 2));
            if (!no) { rc = -1; break; }
            l->offs = no;
        }
        rc = attu_array_put_current(&l->bytes, &it);
        l->offs[++l->n] = l->bytes.len;
    }
    attu_array_iter_done(&it);
    return rc;
}

static int elem_list_put(attu_abuf *out, const elem_list *l, size_t i) {
    return attu_abuf_put(out, l->bytes.p + l->offs[i], l->offs[i + 1] - l->offs[i]);
}

static void elem_list_free(elem_list *l) { attu_abuf_free(&l->bytes); free(l->offs); l->offs = NULL; }

#define ARRAY_MAX_ELEMS 134217727   /* PostgreSQL's MaxArraySize */

/* UPDATE SET a[..] = x / a[l:h] = src (ATTU_ARR_ASSIGN), as PostgreSQL's
 * array_set_element / array_set_slice: an empty or NULL array takes the
 * subscripts' shape; one dimension grows either way, NULLs filling a gap;
 * several dimensions take subscripts inside their bounds only. The
 * result's elements go to out, its shape to *rs. */
static int assign_into(attu_type e, const attu_slot *a, const int64_t *bnd, int n, bool slice, const elem_list *src,
                       elem_list *old, attu_abuf *out, attu_array_shape *rs, attu_error *err) {
    attu_array_shape sh = { 0 };
    int64_t l[ATTU_ARRAY_MAXDIM], h[ATTU_ARRAY_MAXDIM];
    if (!a->null) attu_array_get_shape(e, a->v.s, a->len, &sh);
    if (n > ATTU_ARRAY_MAXDIM)
        return attu_error_set(err, "54000", 0, "number of array dimensions (%d) exceeds the maximum allowed (%d)", n,
                              ATTU_ARRAY_MAXDIM);
    if (sh.ndims == 0) {
        int64_t total = 1;
        for (int d = 0; d < n; d++) {
            l[d] = bnd[2 * d]; h[d] = bnd[2 * d + 1];
            if (slice && (l[d] == INT32_MIN || h[d] == INT32_MAX)) {
                attu_error_set(err, "2202E", 0, "array slice subscript must provide both boundaries");
                attu_error_set_detail(err, "When assigning to a slice of an empty array value, slice boundaries must be fully specified.");
                return -1;
            }
            if (h[d] < l[d]) return attu_error_set(err, "2202E", 0, "upper bound cannot be less than lower bound");
            total *= h[d] - l[d] + 1;
            if (total > ARRAY_MAX_ELEMS)
                return attu_error_set(err, "54000", 0, "array size exceeds the maximum allowed (%d)", ARRAY_MAX_ELEMS);
            rs->dims[d] = (int32_t)(h[d] - l[d] + 1); rs->lbs[d] = (int32_t)l[d];
        }
        rs->ndims = n;
        if ((int64_t)src->n < total) return attu_error_set(err, "2202E", 0, "source array too small");
        for (int64_t i = 0; i < total; i++) if (elem_list_put(out, src, (size_t)i)) return attu_error_oom(err);
        return 0;
    }
    if (elem_list_read(old, e, a->v.s, a->len)) return attu_error_oom(err);
    if (n > sh.ndims || (!slice && n != sh.ndims)) return attu_error_set(err, "2202E", 0, "wrong number of array subscripts");
    for (int d = 0; d < sh.ndims; d++) {
        int64_t lb = sh.lbs[d], ub = lb + sh.dims[d] - 1;
        /* INT32_MIN / INT32_MAX: a slice's omitted bound (an element's
         * subscript is never omitted: a[2147483647] is past every array) */
        l[d] = d < n && (!slice || bnd[2 * d] != INT32_MIN) ? bnd[2 * d] : lb;
        h[d] = d < n && (!slice || bnd[2 * d + 1] != INT32_MAX) ? bnd[2 * d + 1] : ub;
        if (h[d] < l[d]) {   /* nothing to assign: the array as it was */
            *rs = sh;
            for (size_t i = 0; i < old->n; i++) if (elem_list_put(out, old, i)) return attu_error_oom(err);
            return 0;
        }
    }
    if (sh.ndims == 1) {
        int64_t lb = sh.lbs[0], ub = lb + sh.dims[0] - 1, nl = l[0] < lb ? l[0] : lb, nu = h[0] > ub ? h[0] : ub;
        if (nu - nl + 1 > ARRAY_MAX_ELEMS)
            return attu_error_set(err, "54000", 0, "array size exceeds the maximum allowed (%d)", ARRAY_MAX_ELEMS);
        if ((int64_t)src->n < h[0] - l[0] + 1) return attu_error_set(err, "2202E", 0, "source array too small");
        for (int64_t k = nl; k <= nu; k++) {
            int rc2 = k >= l[0] && k <= h[0] ? elem_list_put(out, src, (size_t)(k - l[0]))
                      : k >= lb && k <= ub   ? elem_list_put(out, old, (size_t)(k - lb))
                                             : put_byte(out, TAG_NULL);
            if (rc2) return attu_error_oom(err);
        }
        memset(rs, 0, sizeof *rs);
        rs->ndims = 1; rs->lbs[0] = (int32_t)nl; rs->dims[0] = (int32_t)(nu - nl + 1);
        return 0;
    }
    int64_t need = 1;
    for (int d = 0; d < sh.ndims; d++) {
        if (l[d] < sh.lbs[d] || h[d] > (int64_t)sh.lbs[d] + sh.dims[d] - 1)
            return attu_error_set(err, "2202E", 0, "array subscript out of range");
        need *= h[d] - l[d] + 1;
    }
    if ((int64_t)src->n < need) return attu_error_set(err, "2202E", 0, "source array too small");
    int32_t idx[ATTU_ARRAY_MAXDIM] = { 0 };
    size_t next = 0;
    for (size_t i = 0; i < old->n; i++) {
        bool in = true;
        for (int d = 0; d < sh.ndims && in; d++) in = sh.lbs[d] + idx[d] >= l[d] && sh.lbs[d] + idx[d] <= h[d];
        if (in ? elem_list_put(out, src, next++) : elem_list_put(out, old, i)) return attu_error_oom(err);
        for (int d = sh.ndims - 1; d >= 0; d--) {
            if (++idx[d] < sh.dims[d]) break;
            idx[d] = 0;
        }
    }
    *rs = sh;
    return 0;
}

/* One element converted to another element type (ATTU_ARR_CAST), through
 * its text as the element casts of PostgreSQL read it; float and numeric
 * to integers round (half away from zero for numeric, to even for float). */
static int elem_cast(attu_type from, attu_type to, const attu_slot *v, attu_slot *o, char *num16, attu_abuf *tmp,
                     attu_abuf *typed, attu_error *err) {
    if (v->null) { memset(o, 0, sizeof *o); o->null = 1; return 0; }
    char buf[128];
    const char *lp;
    size_t n;
    if ((from.id == ATTU_TYPE_FLOAT32 || from.id == ATTU_TYPE_FLOAT64 || from.id == ATTU_TYPE_NUMERIC) &&
        attu_type_is_int(to.id)) {
        double d = from.id == ATTU_TYPE_NUMERIC ? round(attu_numeric_to_double(attu_numeric_unpack(v->v.s)))
                                                : rint(v->v.f);
        if (!(d > -9.3e18 && d < 9.3e18)) {
            char nb[32];
            attu_type_name(to, nb, sizeof nb);
            return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "%s out of range", nb);
        }
        n = (size_t)snprintf(buf, sizeof buf, "%lld", (long long)d);
        lp = NULL;
    } else {
        n = elem_format(from, v, buf, sizeof buf, &lp);
    }
    /* bpchar to text or varchar loses the trailing blanks, as PostgreSQL's
     * rtrim1 cast */
    if (attu_type_is_bpchar_any(from) && to.id == ATTU_TYPE_TEXT && !attu_type_is_bpchar_any(to))
        while (n > 0 && (lp ? lp : buf)[n - 1] == ' ') n--;
    tmp->len = 0;
    if (attu_abuf_put(tmp, lp ? lp : buf, n)) return attu_error_oom(err);
    if (elem_parse(to, tmp->p, n, o, num16, typed, err)) return -1;
    return 0;
}

/* The characters of UTF-8 text s (its lead bytes). */
static size_t utf8_chars(const char *s, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xc0) != 0x80;
    return c;
}

/* The bytes of s's first k characters. */
static size_t utf8_prefix(const char *s, size_t n, size_t k) {
    size_t i = 0, c = 0;
    for (; i < n; i++) {
        if (((unsigned char)s[i] & 0xc0) != 0x80 && c++ == k) break;
    }
    return i;
}

/* One element brought to the modifier of mt (attu_type_array_elem_mod):
 * numeric(p,s) rounds (22003 past p digits or for an infinity; NaN
 * stays), varchar(n) and char(n) cut at n characters where the rest is
 * blanks or the cast is explicit (22001 otherwise), char(n) pads to n.
 * Text results go to tmp. */
static int elem_apply_mod(attu_type mt, bool explicit_cast, const attu_slot *v, attu_slot *o, char *num16,
                          attu_abuf *tmp, attu_error *err) {
    *o = *v;
    if (v->null) return 0;
    if (mt.id == ATTU_TYPE_DECIMAL) {
        attu_numeric n = attu_numeric_unpack(v->v.s), r;
        if (attu_numeric_is_nan(n)) return 0;
        if (attu_numeric_is_special(n)) return attu_numeric_decimal_special_error(n, mt.precision, mt.scale, err);
        if (attu_numeric_round(n, mt.scale, &r, err)) return -1;
        __int128 lim = 1, m = r.m < 0 ? -r.m : r.m;
        for (int i = 0; i < mt.precision; i++) lim *= 10;
        if (m >= lim) {
            return attu_numeric_field_overflow(mt.precision, mt.scale, err);
        }
        attu_numeric_pack(r, num16);
        o->v.s = num16; o->len = 16;
        return 0;
    }
    if (attu_type_is_qualified_interval(mt)) {   /* interval hour[], interval(0)[]: fields dropped, seconds rounded */
        attu_interval iv;
        memcpy(&iv, v->v.s, sizeof iv);
        attu_interval_qualify(&iv, attu_type_interval_range(mt), attu_type_interval_prec(mt));
        memcpy(num16, &iv, sizeof iv);
        o->v.s = num16; o->len = 16;
        return 0;
    }
    if (mt.id != ATTU_TYPE_TEXT || mt.precision <= 0) return 0;
    size_t n = (size_t)mt.precision, len = v->len, chars = utf8_chars(v->v.s, len);
    bool bp = attu_type_is_bpchar_any(mt);
    if (chars > n) {
        size_t cut = utf8_prefix(v->v.s, len, n);
        if (!explicit_cast)
            for (size_t i = cut; i < len; i++)
                if (v->v.s[i] != ' ')
                    return attu_error_set(err, "22001", 0, "value too long for type %s(%d)",
                                          bp ? "character" : "character varying", mt.precision);
        len = cut;
        chars = n;
    }
    tmp->len = 0;
    if (attu_abuf_put(tmp, v->v.s, len)) return attu_error_oom(err);
    for (; bp && chars < n; chars++)
        if (attu_abuf_put(tmp, " ", 1)) return attu_error_oom(err);
    o->v.s = tmp->p; o->len = (uint32_t)tmp->len;
    return 0;
}

int attu_array_apply_mod(attu_type at, const char *s, size_t len, bool explicit_cast, attu_abuf *out,
                         attu_error *err) {
    attu_type e = attu_type_array_elem(at), mt = attu_type_array_elem_mod(at);
    attu_abuf raw = { 0 }, tmp = { 0 };
    attu_array_iter it;
    attu_array_shape sh;
    attu_slot v, w;
    char num16[16];
    int rc = attu_abuf_put(&raw, "", 0) ? attu_error_oom(err) : 0;
    attu_array_iter_init(&it, e, s, len);
    while (!rc && attu_array_next(&it, &v) == 1) {
        if (elem_apply_mod(mt, explicit_cast, &v, &w, num16, &tmp, err)) rc = -1;
        else if (attu_array_put(&raw, e, &w)) rc = attu_error_oom(err);
    }
    attu_array_iter_done(&it);
    attu_array_get_shape(e, s, len, &sh);
    out->len = 0;
    if (!rc && attu_array_finish(e, raw.p, raw.len, &sh, out)) rc = attu_error_oom(err);
    attu_abuf_free(&raw);
    attu_abuf_free(&tmp);
    return rc;
}

/* The int4 elements of a dims or lower-bounds argument of array_fill into
 * v (at most ATTU_ARRAY_MAXDIM + 1 of them are kept: enough to report too
 * many), their count into *count; PostgreSQL's checks of such an array. */
static int fill_bounds(const attu_slot *a, int32_t *v, int *count, attu_error *err) {
    attu_type i4 = attu_type_make(ATTU_TYPE_INT32);
    attu_array_shape sh;
    attu_array_get_shape(i4, a->v.s, a->len, &sh);
    if (sh.ndims > 1) {
        attu_error_set(err, "2202E", 0, "wrong number of array subscripts");
        attu_error_set_detail(err, "Dimension array must be one dimensional.");
        return -1;
    }
    attu_array_iter it;
    attu_slot x;
    int k = 0, rc = 0;
    attu_array_iter_init(&it, i4, a->v.s, a->len);
    while (attu_array_next(&it, &x) == 1) {
        if (x.null) { rc = attu_error_set(err, "22004", 0, "dimension values cannot be null"); break; }
        if (k <= ATTU_ARRAY_MAXDIM) v[k] = (int32_t)x.v.i;
        k++;
    }
    attu_array_iter_done(&it);
    *count = k;
    return rc;
}

/* array_fill(value, dims [, lbs]) as PostgreSQL's array_fill_internal: its
 * checks in its order, then the value repeated in the shape. s is the
 * one-element array of the value. */
static int arr_fill(attu_type dt, const attu_slot *s, const attu_slot *dims, const attu_slot *lbs, attu_abuf *out,
                    attu_array_shape *sh, attu_error *err) {
    if (dims->null || (lbs && lbs->null))
        return attu_error_set(err, "22004", 0, "dimension array or low bound array cannot be null");
    int32_t dv[ATTU_ARRAY_MAXDIM + 1], lv[ATTU_ARRAY_MAXDIM + 1];
    int nd, nl;
    if (fill_bounds(dims, dv, &nd, err)) return -1;
    if (nd > ATTU_ARRAY_MAXDIM)
        return attu_error_set(err, "54000", 0, "number of array dimensions (%d) exceeds the maximum allowed (%d)", nd,
                              ATTU_ARRAY_MAXDIM);
    if (lbs) {
        if (fill_bounds(lbs, lv, &nl, err)) return -1;
        if (nl != nd) {
            attu_error_set(err, "2202E", 0, "wrong number of array subscripts");
            attu_error_set_detail(err, "Low bound array has different size than dimensions array.");
            return -1;
        }
    } else for (int d = 0; d < nd; d++) lv[d] = 1;
    /* PostgreSQL's ArrayGetNItems (a negative length, or more than
     * MaxArraySize elements) and ArrayCheckBounds, before an empty result */
    const int64_t max_items = 134217727;
    int64_t items = nd ? 1 : 0;
    for (int d = 0; d < nd; d++) {
        if (dv[d] < 0 || (items *= dv[d]) > max_items)
            return attu_error_set(err, "54000", 0, "array size exceeds the maximum allowed (%lld)", (long long)max_items);
    }
    for (int d = 0; d < nd; d++)
        if ((int64_t)dv[d] + lv[d] > INT32_MAX || (int64_t)dv[d] + lv[d] < INT32_MIN)
            return attu_error_set(err, "54000", 0, "array lower bound is too large: %ld", (long)lv[d]);
    sh->ndims = 0;
    if (items == 0) return 0;   /* '{}', whatever the bounds */
    attu_type e = attu_type_array_elem(dt);
    attu_array_iter it;
    attu_slot v;
    int rc = 0;
    attu_array_iter_init(&it, e, s->v.s, s->len);
    if (attu_array_next(&it, &v) == 1) {
        /* the value's encoding once, then copies of it. The result may be
         * large (PostgreSQL allows 2^27 elements, in at most 1 GB); the
         * encoding is copied twice more on its way out (canonical form,
         * the row's slot), so attu keeps it to 256 MB */
        if (attu_array_put_current(out, &it)) rc = attu_error_oom(err);
        size_t one = out->len;
        const uint64_t max_bytes = (uint64_t)1 << 28;
        if (!rc && (uint64_t)one * (uint64_t)items > max_bytes)
            rc = attu_error_set(err, "54000", 0, "array_fill result of %llu bytes exceeds the maximum allowed (%llu)",
                                (unsigned long long)one * (unsigned long long)items, (unsigned long long)max_bytes);
        char *elem = rc ? NULL : malloc(one + 1);
        if (!rc && !elem) rc = attu_error_oom(err);
        if (!rc) memcpy(elem, out->p, one);   /* (out moves as it grows) */
        for (int64_t k = 1; !rc && k < items; k++)
            if (attu_abuf_put(out, elem, one)) rc = attu_error_oom(err);
        free(elem);
    }
    attu_array_iter_done(&it);
    if (rc) return rc;
    sh->ndims = nd;
    for (int d = 0; d < nd; d++) { sh->dims[d] = dv[d]; sh->lbs[d] = lv[d]; }
    return 0;
}

/* width_bucket(x, thresholds) as PostgreSQL's width_bucket_array: one
 * dimension (2202E), no NULL (22004), then the binary search for the first
 * threshold above x, comparing the elements' keys (array.h), which order
 * as their values do. */
static int arr_width_bucket(attu_type e, const attu_slot *x, const attu_slot *a, attu_abuf *key, int64_t *out,
                            attu_error *err) {
    attu_array_shape sh;
    attu_array_get_shape(e, a->v.s, a->len, &sh);
    if (sh.ndims > 1) return attu_error_set(err, "2202E", 0, "thresholds must be one-dimensional array");
    size_t n = attu_array_count(e, a->v.s, a->len);
    const unsigned char **keys = malloc(sizeof *keys * (n + 1));
    size_t *lens = malloc(sizeof *lens * (n + 1));
    int rc = 0;
    if (!keys || !lens) { free(keys); free(lens); return attu_error_oom(err); }
    attu_array_iter it;
    attu_slot v;
    size_t k = 0;
    attu_array_iter_init(&it, e, a->v.s, a->len);
    while (k < n && attu_array_next(&it, &v) == 1) {
        if (v.null) { rc = attu_error_set(err, "22004", 0, "thresholds array must not contain NULLs"); break; }
        keys[k] = it.key;   /* (a key lies in the array's own bytes) */
        lens[k++] = it.keylen;
    }
    attu_array_iter_done(&it);
    size_t xlen;
    if (!rc && elem_key(e, x, key, &xlen)) rc = attu_error_oom(err);
    if (!rc) {
        size_t left = 0, right = k;
        const unsigned char *xk = (const unsigned char *)key->p + 1;
        while (left < right) {
            size_t mid = (left + right) / 2;
            if (key_cmp(xk, xlen, keys[mid], lens[mid]) < 0) right = mid;
            else left = mid + 1;
        }
        *out = (int64_t)left;
    }
    free(keys);
    free(lens);
    return rc;
}

int attu_array_run(const attu_expr_program *p, const attu_instr *in, const attu_slot *A, const attu_slot *B,
                   const attu_slot *C, const attu_slot *G, attu_slot *D, size_t n,
                   char *(*alloc)(void *ctx, size_t n), void *ctx, attu_error *err) {
    attu_type dt = p->reg_types[in->dst];
    attu_type at = in->a >= 0 ? p->reg_types[in->a] : dt;
    attu_type bt = in->b >= 0 ? p->reg_types[in->b] : dt;
    attu_abuf out = { 0 }, key = { 0 }, tmp = { 0 }, canon = { 0 }, typed = { 0 };
    attu_array_iter it, it2;
    attu_slot v, w;
    int rc = 0;
    elem_cursor cur;   /* element_at's place in the array of the row before */
    memset(&cur, 0, sizeof cur);
    const char *canon_in_s = NULL;   /* ATTU_ARR_CANON's input and result of the row before */
    size_t canon_in_len = 0;
    attu_slot canon_out;
    memset(&canon_out, 0, sizeof canon_out);
    memset(&it, 0, sizeof it);
    memset(&it2, 0, sizeof it2);
    for (size_t r = 0; r < n && !rc; r++) {
        attu_slot *o = &D[r];
        memset(o, 0, sizeof *o);
        o->null = 1;
        if (G && (G[r].null || !G[r].v.i)) continue;
        bool an = A && A[r].null, bn = B && B[r].null, cn = C && C[r].null;
        out.len = 0;
        if (attu_abuf_put(&out, "", 0)) { rc = attu_error_oom(err); break; }
        switch ((attu_array_fn)in->aux) {
        case ATTU_ARR_FROM_TEXT:
            if (an) break;
            if (attu_array_from_text(attu_type_array_elem(dt), A[r].v.s, A[r].len, &out, err)) { rc = -1; break; }
            rc = emit_out(o, dt, &out, &canon, alloc, ctx, err);
            break;
        case ATTU_ARR_KEY:
            if (an) break;
            if (attu_array_key(attu_type_array_elem(at), A[r].v.s, A[r].len, &out)) { rc = attu_error_oom(err); break; }
            rc = emit(o, out.p, out.len, alloc, ctx, err);
            break;
        case ATTU_ARR_ORDER_CODE:
            /* key, 0x01, value, length: the key decides the order (a key
             * that is a prefix of another is a whole array of fewer
             * elements, whose 0x01 here sorts below the other's next tag,
             * or its shape's 0x01 0xff above every value's first byte) */
            if (an) break;
            if (attu_array_key(attu_type_array_elem(at), A[r].v.s, A[r].len, &out) || put_byte(&out, 0x01) ||
                attu_abuf_put(&out, A[r].v.s, A[r].len) || put_u64(&out, (uint64_t)A[r].len)) {
                rc = attu_error_oom(err);
                break;
            }
            rc = emit(o, out.p, out.len, alloc, ctx, err);
            break;
        case ATTU_ARR_ORDER_DECODE: {
            if (an || A[r].len < KEY64_LEN) break;
            uint64_t vl = get_u64((const unsigned char *)A[r].v.s + A[r].len - KEY64_LEN);
            if (vl > A[r].len - KEY64_LEN) break;
            rc = emit(o, A[r].v.s + A[r].len - KEY64_LEN - vl, (size_t)vl, alloc, ctx, err);
            break;
        }
        case ATTU_ARR_CANON:
            if (an) break;
            /* the same bytes as the row before (an array_agg's result read by
             * each row of its unnest): the same result, not a fresh copy, so
             * the element reads after it keep their place (elem_cursor) */
            if (canon_in_s == A[r].v.s && canon_in_len == A[r].len) { *o = canon_out; break; }
            if (attu_abuf_put(&out, A[r].v.s, A[r].len)) { rc = attu_error_oom(err); break; }
            rc = emit_out(o, dt, &out, &canon, alloc, ctx, err);
            if (!rc) { canon_in_s = A[r].v.s; canon_in_len = A[r].len; canon_out = *o; }
            break;
        case ATTU_ARR_TO_TEXT:
            if (an) break;
            if (attu_array_to_text(attu_type_array_elem(at), A[r].v.s, A[r].len, &out)) { rc = attu_error_oom(err); break; }
            rc = emit_out(o, dt, &out, &canon, alloc, ctx, err);
            break;
        case ATTU_ARR_APPEND: case ATTU_ARR_PREPEND: {
            attu_type e = attu_type_array_elem(dt);
            bool app = in->aux == ATTU_ARR_APPEND, arr_null = app ? an : bn;
            const attu_slot *arr = app ? &A[r] : &B[r], *x = app ? &B[r] : &A[r];
            attu_array_shape sh = { 0 }, rs = { 0 };
            if (!arr_null) attu_array_get_shape(e, arr->v.s, arr->len, &sh);
            if (sh.ndims > 1) { rc = attu_error_set(err, "22000", 0, "argument must be empty or one-dimensional array"); break; }
            if (!app && attu_array_put(&out, e, x)) { rc = attu_error_oom(err); break; }
            if (!arr_null && attu_abuf_put(&out, arr->v.s, arr->len)) { rc = attu_error_oom(err); break; }
            if (app && attu_array_put(&out, e, x)) { rc = attu_error_oom(err); break; }
            rs.ndims = 1; rs.dims[0] = (sh.ndims ? sh.dims[0] : 0) + 1; rs.lbs[0] = sh.ndims ? sh.lbs[0] : 1;
            if (sh.ndims && !app) rs.lbs[0] = sh.lbs[0];
            rc = emit_shaped(o, dt, &out, &rs, &canon, alloc, ctx, err);
            break;
        }
        case ATTU_ARR_CAT: {
            if (an && bn) break;
            attu_type e = attu_type_array_elem(dt);
            attu_array_shape sa = { 0 }, sb = { 0 }, rs;
            if (!an) attu_array_get_shape(e, A[r].v.s, A[r].len, &sa);
            if (!bn) attu_array_get_shape(e, B[r].v.s, B[r].len, &sb);
            if (sa.ndims == 0 || sb.ndims == 0) rs = sa.ndims ? sa : sb;
            else if (cat_shape(&sa, &sb, &rs, err)) { rc = -1; break; }
            if (!an && attu_abuf_put(&out, A[r].v.s, A[r].len)) { rc = attu_error_oom(err); break; }
            if (!bn && attu_abuf_put(&out, B[r].v.s, B[r].len)) { rc = attu_error_oom(err); break; }
            rc = emit_shaped(o, dt, &out, &rs, &canon, alloc, ctx, err);
            break;
        }
        case ATTU_ARR_SUBSCRIPT: case ATTU_ARR_SUBSCRIPT_N: case ATTU_ARR_NTH: {
            if (an || bn) break;
            attu_type e = attu_type_array_elem(at);
            attu_array_shape sh;
            int64_t idx[ATTU_ARRAY_MAXDIM + 1], off;
            int n = 1;
            bool sub_null = false;
            if (in->aux == ATTU_ARR_NTH) off = B[r].v.i - 1;
            else {
                attu_array_get_shape(e, A[r].v.s, A[r].len, &sh);
                if (in->aux == ATTU_ARR_SUBSCRIPT) idx[0] = B[r].v.i;
                else n = read_subscripts(&B[r], idx, ATTU_ARRAY_MAXDIM + 1, &sub_null);
                if (sub_null) break;
                off = subscript_offset(&sh, idx, n);
            }
            if (off >= 0) rc = element_at(&A[r], e, dt, off, o, alloc, ctx, err, &cur);
            break;
        }
        case ATTU_ARR_SLICE: case ATTU_ARR_SLICE_N: {
            if (an || bn || cn) break;
            attu_type e = attu_type_array_elem(at);
            attu_array_shape sh, rs;
            int64_t lo[ATTU_ARRAY_MAXDIM + 1], hi[ATTU_ARRAY_MAXDIM + 1];
            int n = 1;
            bool lnull = false, hnull = false;
            if (in->aux == ATTU_ARR_SLICE) { lo[0] = B[r].v.i; hi[0] = C[r].v.i; }
            else {
                n = read_subscripts(&B[r], lo, ATTU_ARRAY_MAXDIM + 1, &lnull);
                read_subscripts(&C[r], hi, ATTU_ARRAY_MAXDIM + 1, &hnull);
                if (lnull || hnull) break;
            }
            attu_array_get_shape(e, A[r].v.s, A[r].len, &sh);
            if (slice_into(&A[r], e, &sh, lo, hi, n, &out, &rs)) { rc = attu_error_oom(err); break; }
            rc = emit_shaped(o, dt, &out, &rs, &canon, alloc, ctx, err);
            break;
        }
        case ATTU_ARR_NEST: {
            /* acc a (NULL: none) with the sub-array b as one segment, its
             * shape written even where the canonical form leaves it out */
            attu_type e = attu_type_array_elem(dt);
            if (bn) {
                rc = in->imm_i ? attu_error_set(err, "22004", 0, "cannot accumulate null arrays")
                               : attu_error_set(err, "2202E", 0, "multidimensional arrays must have array expressions with matching dimensions");
                break;
            }
            attu_array_shape sh;
            attu_array_get_shape(e, B[r].v.s, B[r].len, &sh);
            if (!an && attu_abuf_put(&out, A[r].v.s, A[r].len)) { rc = attu_error_oom(err); break; }
            attu_array_iter_init(&it, e, B[r].v.s, B[r].len);
            while (!rc && attu_array_next(&it, &v) == 1)
                if (attu_abuf_put(&out, it.p - it.enclen, it.enclen)) rc = attu_error_oom(err);
            attu_array_iter_done(&it);
            if (!rc && put_shape(&out, &sh)) rc = attu_error_oom(err);
            /* its show bytes as a show section of this segment */
            bool any = false;
            tmp.len = 0;
            attu_array_iter_init(&it, e, B[r].v.s, B[r].len);
            while (!rc && attu_array_next(&it, &v) == 1)
                if (!v.null && elem_has_show(e)) { any |= it.showv != 0; if (put_show_entry(&tmp, it.showv)) rc = attu_error_oom(err); }
            attu_array_iter_done(&it);
            if (!rc && any && (put_byte(&out, TAG_SHOW) || attu_abuf_put(&out, tmp.p, tmp.len))) rc = attu_error_oom(err);
            if (!rc) rc = emit(o, out.p, out.len, alloc, ctx, err);
            break;
        }
        case ATTU_ARR_ASSIGN: {
            attu_type e = attu_type_array_elem(dt);
            bool slice = in->imm_i != 0, sub_null;
            int64_t bnd[2 * (ATTU_ARRAY_MAXDIM + 1)];
            int nb = bn ? 0 : read_subscripts(&B[r], bnd, 2 * (ATTU_ARRAY_MAXDIM + 1), &sub_null);
            if (bn || sub_null) { rc = attu_error_set(err, "22004", 0, "array subscript in assignment must not be null"); break; }
            if (slice && cn) {   /* a NULL source leaves the array as it was */
                if (!an) rc = emit(o, A[r].v.s, A[r].len, alloc, ctx, err);
                break;
            }
            elem_list src = { 0 }, old = { 0 };
            attu_array_shape rs = { 0 };
            if (slice) rc = elem_list_read(&src, e, C[r].v.s, C[r].len) ? attu_error_oom(err) : 0;
            else {
                tmp.len = 0;
                if (attu_array_put(&tmp, e, &C[r])) rc = attu_error_oom(err);
                else rc = elem_list_read(&src, e, tmp.p, tmp.len) ? attu_error_oom(err) : 0;
            }
            attu_slot av = an ? (attu_slot){ .null = 1 } : A[r];
            if (!rc) rc = assign_into(e, &av, bnd, nb / 2, slice, &src, &old, &out, &rs, err);
            elem_list_free(&src);
            elem_list_free(&old);
            if (!rc) rc = emit_shaped(o, dt, &out, &rs, &canon, alloc, ctx, err);
            break;
        }
        case ATTU_ARR_NEST_DONE: {
            if (an) break;
            attu_type e = attu_type_array_elem(dt);
            attu_array_shape rs;
            bool empty;
            if (nest_shape(e, &A[r], in->imm_i != 0, &rs, &empty, err)) { rc = -1; break; }
            if (empty) { rc = emit(o, "", 0, alloc, ctx, err); break; }
            if (attu_abuf_put(&out, A[r].v.s, A[r].len)) { rc = attu_error_oom(err); break; }
            rc = emit_shaped(o, dt, &out, &rs, &canon, alloc, ctx, err);
            break;
        }
        case ATTU_ARR_LENGTH: case ATTU_ARR_LOWER: case ATTU_ARR_UPPER: case ATTU_ARR_CARDINALITY:
        case ATTU_ARR_NDIMS: case ATTU_ARR_DIMS: {
            if (an || bn) break;
            attu_array_shape sh;
            attu_array_get_shape(attu_type_array_elem(at), A[r].v.s, A[r].len, &sh);
            attu_array_fn f = (attu_array_fn)in->aux;
            if (f == ATTU_ARR_CARDINALITY) { o->null = 0; o->v.i = shape_count(&sh); break; }
            if (sh.ndims == 0) break;
            if (f == ATTU_ARR_NDIMS) { o->null = 0; o->v.i = sh.ndims; break; }
            if (f == ATTU_ARR_DIMS) {
                char buf[256];
                int l = 0;
                for (int d = 0; d < sh.ndims; d++)
                    l += snprintf(buf + l, sizeof buf - (size_t)l, "[%ld:%ld]", (long)sh.lbs[d], (long)sh.lbs[d] + sh.dims[d] - 1);
                rc = emit(o, buf, (size_t)l, alloc, ctx, err);
                break;
            }
            int64_t d = B[r].v.i;
            if (d < 1 || d > sh.ndims) break;
            o->null = 0;
            o->v.i = f == ATTU_ARR_LENGTH ? sh.dims[d - 1] : f == ATTU_ARR_LOWER ? sh.lbs[d - 1]
                                                                                : (int64_t)sh.lbs[d - 1] + sh.dims[d - 1] - 1;
            break;
        }
        case ATTU_ARR_POSITION: case ATTU_ARR_POSITIONS: case ATTU_ARR_REMOVE: case ATTU_ARR_REPLACE: {
            if (an) break;
            attu_type e = attu_type_array_elem(at);
            attu_array_fn f = (attu_array_fn)in->aux;
            attu_array_shape sh;
            attu_array_get_shape(e, A[r].v.s, A[r].len, &sh);
            if (sh.ndims > 1 && f != ATTU_ARR_REPLACE) {
                rc = attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                                    f == ATTU_ARR_REMOVE ? "removing elements from multidimensional arrays is not supported"
                                                         : "searching for elements in multidimensional arrays is not supported");
                break;
            }
            int64_t start = sh.ndims ? sh.lbs[0] : 1, k = start - 1;
            if (f == ATTU_ARR_POSITION && C) {
                if (cn) { rc = attu_error_set(err, "22004", 0, "initial position must not be null"); break; }
                start = C[r].v.i;
            }
            size_t klen;
            if (elem_key(e, &B[r], &key, &klen)) { rc = attu_error_oom(err); break; }
            /* jsonb elements are equal as jsonb values (1.0 and 1): their
             * jsonb keys compare (engine/json.h), not their texts */
            bool jb = attu_type_is_jsonb(e);
            char *xk = NULL;
            size_t xkl = 0;
            if (jb && !bn && attu_jsonb_key(B[r].v.s, B[r].len, &xk, &xkl, err)) { rc = -1; break; }
            attu_array_iter_init(&it, e, A[r].v.s, A[r].len);
            while (!rc && attu_array_next(&it, &v) == 1) {
                k++;
                bool match;
                if (v.null || bn) match = v.null && bn;
                else if (jb) {
                    char *vk = NULL;
                    size_t vkl = 0;
                    if (attu_jsonb_key(v.v.s, v.len, &vk, &vkl, err)) { rc = -1; break; }
                    match = vkl == xkl && !memcmp(vk, xk, vkl);
                    free(vk);
                } else match = !key_cmp(it.key, it.keylen, (const unsigned char *)key.p + 1, klen);
                if (f == ATTU_ARR_POSITION) {
                    if (match && k >= start) { o->null = 0; o->v.i = k; break; }
                } else if (f == ATTU_ARR_POSITIONS) {
                    if (match) {
                        attu_slot kv = { .v.i = k };
                        if (attu_array_put(&out, attu_type_make(ATTU_TYPE_INT32), &kv)) rc = attu_error_oom(err);
                    }
                } else if (f == ATTU_ARR_REMOVE) {
                    if (!match && attu_array_put_current(&out, &it)) rc = attu_error_oom(err);
                } else {
                    if (match) { if (attu_array_put(&out, e, &C[r])) rc = attu_error_oom(err); }
                    else if (attu_array_put_current(&out, &it)) rc = attu_error_oom(err);
                }
            }
            attu_array_iter_done(&it);
            free(xk);
            if (!rc && f == ATTU_ARR_REPLACE) rc = emit_shaped(o, dt, &out, &sh, &canon, alloc, ctx, err);
            else if (!rc && f == ATTU_ARR_REMOVE) {
                attu_array_shape rs = sh;
                rs.dims[0] = (int32_t)attu_array_count(e, out.p, out.len);
                rs.ndims = rs.dims[0] ? 1 : 0;
                rc = emit_shaped(o, dt, &out, &rs, &canon, alloc, ctx, err);
            } else if (!rc && f != ATTU_ARR_POSITION) rc = emit_out(o, dt, &out, &canon, alloc, ctx, err);
            break;
        }
        case ATTU_ARR_TO_STRING: {
            if (an || bn) break;
            attu_type e = attu_type_array_elem(at);
            bool first = true;
            attu_array_iter_init(&it, e, A[r].v.s, A[r].len);
            while (!rc && attu_array_next(&it, &v) == 1) {
                if (v.null && (!C || cn)) continue;
                if (!first && attu_abuf_put(&out, B[r].v.s, B[r].len)) { rc = attu_error_oom(err); break; }
                first = false;
                if (v.null) { if (attu_abuf_put(&out, C[r].v.s, C[r].len)) rc = attu_error_oom(err); continue; }
                char buf[128];
                const char *lp;
                size_t l = elem_format(e, &v, buf, sizeof buf, &lp);
                if (attu_abuf_put(&out, lp ? lp : buf, l)) rc = attu_error_oom(err);
            }
            attu_array_iter_done(&it);
            if (!rc) rc = emit_out(o, dt, &out, &canon, alloc, ctx, err);
            break;
        }
        case ATTU_ARR_FROM_STRING: {
            if (an) break;
            attu_type e = attu_type_array_elem(dt);
            const char *s = A[r].v.s;
            size_t len = A[r].len, i = 0;
            while (len > 0 && i <= len) {
                size_t j;
                if (bn) j = i + 1;    /* no separator: each character (UTF-8) */
                else if (B[r].len == 0) j = len;
                else {
                    j = i;
                    while (j + B[r].len <= len && memcmp(s + j, B[r].v.s, B[r].len)) j++;
                    if (j + B[r].len > len) j = len;
                }
                if (bn) while (j < len && ((unsigned char)s[j] & 0xC0) == 0x80) j++;
                attu_slot ev = { .v.s = s + i, .len = (uint32_t)(j - i) };
                if (C && !cn && C[r].len == j - i && !memcmp(s + i, C[r].v.s, j - i)) ev.null = 1;
                if (attu_array_put(&out, e, &ev)) { rc = attu_error_oom(err); break; }
                if (j >= len) break;
                i = bn ? j : j + B[r].len;
                if (!bn && i == len) {   /* a trailing separator: one empty element */
                    attu_slot emp = { .v.s = s + len, .len = 0 };
                    if (C && !cn && C[r].len == 0) emp.null = 1;
                    if (attu_array_put(&out, e, &emp)) rc = attu_error_oom(err);
                    break;
                }
            }
            if (!rc) rc = emit_out(o, dt, &out, &canon, alloc, ctx, err);
            break;
        }
        case ATTU_ARR_CONTAINS: case ATTU_ARR_OVERLAP: {
            if (an || bn) break;
            attu_type e = attu_type_array_elem(at);
            bool contains = in->aux == ATTU_ARR_CONTAINS, result = contains;
            /* for each element of b: is it in a? (quadratic; arrays are short) */
            attu_array_iter_init(&it2, e, B[r].v.s, B[r].len);
            while (attu_array_next(&it2, &w) == 1) {
                bool in_a = false;
                if (!w.null) {
                    attu_array_iter_init(&it, e, A[r].v.s, A[r].len);
                    while (!in_a && attu_array_next(&it, &v) == 1)
                        in_a = !v.null && !key_cmp(it.key, it.keylen, it2.key, it2.keylen);
                    attu_array_iter_done(&it);
                }
                if (contains && !in_a) { result = false; break; }
                if (!contains && in_a) { result = true; break; }
            }
            attu_array_iter_done(&it2);
            o->null = 0; o->v.i = result;
            break;
        }
        case ATTU_ARR_ANY: {
            if (bn) break;
            attu_type e = attu_type_array_elem(bt);
            bool all = (in->imm_i & 8) != 0, saw_null = false, decided = false;
            int cmp = (int)(in->imm_i & 7);
            size_t klen = 0;
            if (!an && elem_key(e, &A[r], &key, &klen)) { rc = attu_error_oom(err); break; }
            attu_array_iter_init(&it, e, B[r].v.s, B[r].len);
            while (!decided && attu_array_next(&it, &v) == 1) {
                if (an || v.null) { saw_null = true; continue; }
                int c = key_cmp((const unsigned char *)key.p + 1, klen, it.key, it.keylen);
                bool t = cmp == 0 ? c == 0 : cmp == 1 ? c != 0 : cmp == 2 ? c < 0 : cmp == 3 ? c <= 0 : cmp == 4 ? c > 0 : c >= 0;
                if (all ? !t : t) decided = true;
            }
            attu_array_iter_done(&it);
            if (decided) { o->null = 0; o->v.i = !all; }
            else if (saw_null) o->null = 1;
            else { o->null = 0; o->v.i = all; }
            break;
        }
        case ATTU_ARR_TRIM: {
            /* without the last b items of the first dimension (of one
             * dimension, elements), lower bounds 1 as PostgreSQL's slice */
            if (an || bn) break;
            attu_type e = attu_type_array_elem(at);
            attu_array_shape sh;
            attu_array_get_shape(e, A[r].v.s, A[r].len, &sh);
            int64_t items = sh.ndims ? sh.dims[0] : 0, per = 1;
            if (B[r].v.i < 0 || B[r].v.i > items) {
                rc = attu_error_set(err, "2202E", 0, "number of elements to trim must be between 0 and %lld", (long long)items);
                break;
            }
            for (int d = 1; d < sh.ndims; d++) per *= sh.dims[d];
            int64_t keep = (items - B[r].v.i) * per, k = 0;
            attu_array_iter_init(&it, e, A[r].v.s, A[r].len);
            while (!rc && k++ < keep && attu_array_next(&it, &v) == 1)
                if (attu_array_put_current(&out, &it)) rc = attu_error_oom(err);
            attu_array_iter_done(&it);
            attu_array_shape rs = sh;
            if (rs.ndims) rs.dims[0] = (int32_t)(items - B[r].v.i);
            for (int d = 0; d < rs.ndims; d++) rs.lbs[d] = 1;
            if (rs.ndims && rs.dims[0] == 0) rs.ndims = 0;
            if (!rc) rc = emit_shaped(o, dt, &out, &rs, &canon, alloc, ctx, err);
            break;
        }
        case ATTU_ARR_FILL: {
            attu_array_shape sh;
            if (arr_fill(dt, &A[r], &B[r], C ? &C[r] : NULL, &out, &sh, err)) { rc = -1; break; }
            rc = emit_shaped(o, dt, &out, &sh, &canon, alloc, ctx, err);
            break;
        }
        case ATTU_ARR_WIDTH_BUCKET: {
            if (an || bn) break;
            int64_t k = 0;
            if (arr_width_bucket(attu_type_array_elem(bt), &A[r], &B[r], &key, &k, err)) { rc = -1; break; }
            o->null = 0;
            o->v.i = k;
            break;
        }
        case ATTU_ARR_TYPMOD:
            if (an) break;
            if (attu_array_apply_mod(dt, A[r].v.s, A[r].len, in->imm_i != 0, &out, err)) { rc = -1; break; }
            rc = emit(o, out.p, out.len, alloc, ctx, err);
            break;
        case ATTU_ARR_CAST: {
            if (an) break;
            attu_type from = attu_type_array_elem(at), to = attu_type_array_elem(dt);
            char num16[16];
            attu_array_iter_init(&it, from, A[r].v.s, A[r].len);
            while (attu_array_next(&it, &v) == 1) {
                if (elem_cast(from, to, &v, &w, num16, &tmp, &typed, err)) { rc = -1; break; }
                if (attu_array_put(&out, to, &w)) { rc = attu_error_oom(err); break; }
            }
            attu_array_iter_done(&it);
            attu_array_shape sh;
            attu_array_get_shape(from, A[r].v.s, A[r].len, &sh);
            if (!rc) rc = emit_shaped(o, dt, &out, &sh, &canon, alloc, ctx, err);
            break;
        }
        }
    }
    if (cur.live) attu_array_iter_done(&cur.it);
    attu_abuf_free(&out);
    attu_abuf_free(&key);
    attu_abuf_free(&tmp);
    attu_abuf_free(&canon);
    attu_abuf_free(&typed);
    return rc;
}
