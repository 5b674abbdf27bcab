/*
 * array.c - one-dimensional arrays: the order-preserving encoding of
 * engine/array.h, PostgreSQL's text form in and out, and the array
 * functions and operators (ATTU_OP_ARRAY), all on the host.
 */
#include "engine/array.h"
#include "engine/numeric.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* PostgreSQL's MaxArraySize (MaxAllocSize / sizeof(Datum)) */
#define ATTU_ARRAY_MAX_SIZE 134217727
#define TAG_VALUE 0x02
#define TAG_NULL  0x03
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

/* numeric: class bytes */
enum { NK_NEG_INF = 0x20, NK_NEG, NK_ZERO, NK_POS, NK_POS_INF, NK_NAN };
#define NK_TERM_POS 0x21   /* below every digit byte '0'..'9' */
#define NK_TERM_NEG 0x7a   /* above every inverted digit 0x60..0x69 */

static int put_numeric(attu_abuf *b, const void *slot16) {
    attu_numeric n = attu_numeric_unpack(slot16);
    char txt[80];
    int l = attu_numeric_format(n, txt, sizeof txt);
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
    return put_byte(b, (unsigned char)(0x80 + dscale));
}

/* The length of a numeric key at k (scale byte excluded), its total in *total. */
static size_t numeric_key_len(const unsigned char *k, const unsigned char *end, size_t *total) {
    size_t i = 1;
    if (k[0] == NK_NEG || k[0] == NK_POS) {
        unsigned char term = k[0] == NK_NEG ? NK_TERM_NEG : NK_TERM_POS;
        i = 2;
        while (k + i < end && k[i] != term) i++;
        i++;
    }
    bool has_scale = k[0] == NK_NEG || k[0] == NK_POS || k[0] == NK_ZERO;
    *total = i + has_scale;
    return i;
}

static int get_numeric(const unsigned char *k, size_t keylen, size_t total, char *slot16) {
    attu_numeric n;
    char txt[128];
    int l = 0;
    switch (k[0]) {
    case NK_NAN: attu_numeric_pack(attu_numeric_nan(), slot16); return 0;
    case NK_POS_INF: attu_numeric_pack(attu_numeric_inf(1), slot16); return 0;
    case NK_NEG_INF: attu_numeric_pack(attu_numeric_inf(-1), slot16); return 0;
    default: break;
    }
    int dscale = total > keylen ? k[keylen] - 0x80 : 0;
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

int attu_array_put(attu_abuf *out, attu_type elem, const attu_slot *v) {
    if (v->null) return put_byte(out, TAG_NULL);
    if (put_byte(out, TAG_VALUE)) return -1;
    switch (elem.id) {
    case ATTU_TYPE_TEXT: {
        const char *s = v->v.s;
        for (uint32_t i = 0; i < v->len; i++) {
            if (s[i] == 1) { if (attu_abuf_put(out, "\x01\x02", 2)) return -1; }
            else if (put_byte(out, (unsigned char)s[i])) return -1;
        }
        return attu_abuf_put(out, "\x01\x01", 2);
    }
    case ATTU_TYPE_NUMERIC: return put_numeric(out, v->v.s);
    case ATTU_TYPE_FLOAT32: case ATTU_TYPE_FLOAT64: return put_u64(out, float_bits(v->v.f));
    default: return put_u64(out, (uint64_t)v->v.i ^ (1ull << 63));
    }
}

void attu_array_iter_init(attu_array_iter *it, attu_type elem, const char *s, size_t len) {
    memset(it, 0, sizeof *it);
    it->p = (const unsigned char *)s;
    it->end = it->p + len;
    it->elem = elem;
}

void attu_array_iter_done(attu_array_iter *it) { attu_abuf_free(&it->scratch); }

int attu_array_next(attu_array_iter *it, attu_slot *v) {
    if (it->p >= it->end) return 0;
    const unsigned char *start = it->p;
    memset(v, 0, sizeof *v);
    if (*it->p++ == TAG_NULL) {
        v->null = 1;
        it->key = start; it->keylen = 1; it->enclen = 1;
        return 1;
    }
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
        if (!escaped) { v->v.s = (const char *)k; v->len = (uint32_t)(q - k); }
        else {
            it->scratch.len = 0;
            for (const unsigned char *r = k; r < q; r++) {
                if (attu_abuf_put(&it->scratch, r, 1)) return -1;
                if (*r == 1) r++;
            }
            v->v.s = it->scratch.p; v->len = (uint32_t)it->scratch.len;
        }
        break;
    }
    case ATTU_TYPE_NUMERIC: {
        size_t total;
        it->keylen = numeric_key_len(k, it->end, &total);
        it->key = k;
        it->p = k + total;
        it->scratch.len = 0;
        if (attu_abuf_put(&it->scratch, "0123456789abcdef", 16)) return -1;
        if (get_numeric(k, it->keylen, total, it->scratch.p)) return -1;
        v->v.s = it->scratch.p; v->len = 16;
        break;
    }
    default: {
        uint64_t u = get_u64(k);
        it->key = k; it->keylen = KEY64_LEN;
        it->p = k + KEY64_LEN;
        if (elem_is_float(it->elem)) v->v.f = bits_float(u);
        else v->v.i = (int64_t)(u ^ (1ull << 63));
        break;
    }
    }
    it->enclen = (size_t)(it->p - start);
    return 1;
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
    case ATTU_TYPE_TEXT: *longp = v->v.s; return v->len;
    case ATTU_TYPE_BOOL: slot.b = (uint8_t)v->v.i; break;
    case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: slot.i4 = (int32_t)v->v.i; break;
    case ATTU_TYPE_FLOAT32: slot.f4 = (float)v->v.f; break;
    case ATTU_TYPE_FLOAT64: slot.f8 = v->v.f; break;
    case ATTU_TYPE_NUMERIC: memcpy(slot.n16, v->v.s, 16); break;
    default: slot.i8 = v->v.i; break;
    }
    return attu_value_format(e, &slot, buf, cap);
}

/* An element's text read as type e into the register form (numeric and
 * text into store). */
static int elem_parse(attu_type e, const char *s, size_t len, attu_slot *v, char *num16, attu_error *err) {
    memset(v, 0, sizeof *v);
    if (e.id == ATTU_TYPE_TEXT) { v->v.s = s; v->len = (uint32_t)len; return 0; }
    if (e.id == ATTU_TYPE_NUMERIC) {
        attu_numeric n;
        if (attu_numeric_parse(s, len, &n, err)) return -1;
        attu_numeric_pack(n, num16);
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

int attu_array_from_text(attu_type elem, const char *s, size_t len, attu_abuf *out, attu_error *err) {
    size_t i = 0;
    attu_abuf tok = { 0 };
    char num16[16];
    out->len = 0;
    if (attu_abuf_put(out, "", 0)) return attu_error_oom(err);
    while (i < len && is_array_space(s[i])) i++;
    if (i < len && s[i] == '[')
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "array dimension decorations are not supported: \"%.*s\"", (int)(len > 200 ? 200 : len), s);
    if (i >= len || s[i] != '{')
        return malformed(err, s, len, "Array value must start with \"{\" or dimension information.");
    i++;
    while (i < len && is_array_space(s[i])) i++;
    if (i < len && s[i] == '}') {
        i++;
        goto tail;
    }
    for (;;) {
        while (i < len && is_array_space(s[i])) i++;
        if (i >= len) { attu_abuf_free(&tok); return malformed(err, s, len, "Unexpected end of input."); }
        if (s[i] == '{') {
            attu_abuf_free(&tok);
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                                  "multidimensional arrays are not supported");
        }
        tok.len = 0;
        if (attu_abuf_put(&tok, "", 0)) return attu_error_oom(err);
        bool quoted = false, any_escape = false;
        if (s[i] == '"') {
            quoted = true;
            i++;
            for (;;) {
                if (i >= len) { attu_abuf_free(&tok); return malformed(err, s, len, "Unexpected end of input."); }
                if (s[i] == '"') { i++; break; }
                if (s[i] == '\\') {
                    i++;
                    if (i >= len) { attu_abuf_free(&tok); return malformed(err, s, len, "Unexpected end of input."); }
                }
                if (attu_abuf_put(&tok, s + i, 1)) return attu_error_oom(err);
                i++;
            }
            while (i < len && is_array_space(s[i])) i++;
        } else {
            size_t keep = 0;   /* length up to the last escaped or non-space byte */
            for (;;) {
                if (i >= len) { attu_abuf_free(&tok); return malformed(err, s, len, "Unexpected end of input."); }
                char ch = s[i];
                if (ch == ',' || ch == '}') break;
                if (ch == '"' || ch == '{') {
                    attu_abuf_free(&tok);
                    return malformed(err, s, len, ch == '"' ? "Unexpected \"\"\" character." : "Unexpected \"{\" character.");
                }
                if (ch == '\\') {
                    i++;
                    if (i >= len) { attu_abuf_free(&tok); return malformed(err, s, len, "Unexpected end of input."); }
                    any_escape = true;
                    if (attu_abuf_put(&tok, s + i, 1)) return attu_error_oom(err);
                    keep = tok.len;
                    i++;
                    continue;
                }
                if (attu_abuf_put(&tok, s + i, 1)) return attu_error_oom(err);
                if (!is_array_space(ch)) keep = tok.len;
                i++;
            }
            tok.len = keep;
            if (tok.len == 0) {
                attu_abuf_free(&tok);
                return malformed(err, s, len, s[i] == ',' ? "Unexpected \",\" character." : "Unexpected \"}\" character.");
            }
        }
        attu_slot v;
        if (!quoted && !any_escape && tok.len == 4 && !strncasecmp(tok.p, "NULL", 4)) {
            memset(&v, 0, sizeof v);
            v.null = 1;
        } else if (elem_parse(elem, tok.p ? tok.p : "", tok.len, &v, num16, err)) {
            attu_abuf_free(&tok);
            return -1;
        }
        if (attu_array_put(out, elem, &v)) { attu_abuf_free(&tok); return attu_error_oom(err); }
        if (i >= len) { attu_abuf_free(&tok); return malformed(err, s, len, "Unexpected end of input."); }
        if (s[i] == ',') { i++; continue; }
        if (s[i] == '}') { i++; break; }
        attu_abuf_free(&tok);
        return malformed(err, s, len, "Unexpected array element.");
    }
    attu_abuf_free(&tok);
tail:
    while (i < len && is_array_space(s[i])) i++;
    if (i < len) return malformed(err, s, len, "Junk after closing right brace.");
    return 0;
}

int attu_array_to_text(attu_type elem, const char *s, size_t len, attu_abuf *out) {
    attu_array_iter it;
    attu_slot v;
    int rc;
    bool first = true;
    out->len = 0;
    if (attu_abuf_put(out, "{", 1)) return -1;
    attu_array_iter_init(&it, elem, s, len);
    while ((rc = attu_array_next(&it, &v)) == 1) {
        if (!first && attu_abuf_put(out, ",", 1)) goto oom;
        first = false;
        if (v.null) { if (attu_abuf_put(out, "NULL", 4)) goto oom; continue; }
        char buf[128];
        const char *lp;
        size_t n = elem_format(elem, &v, buf, sizeof buf, &lp);
        const char *t = lp ? lp : buf;
        bool quote = n == 0 || (n == 4 && !strncasecmp(t, "NULL", 4));
        for (size_t k = 0; k < n && !quote; k++)
            quote = t[k] == '"' || t[k] == '\\' || t[k] == '{' || t[k] == '}' || t[k] == ',' || is_array_space(t[k]);
        if (!quote) { if (attu_abuf_put(out, t, n)) goto oom; continue; }
        if (attu_abuf_put(out, "\"", 1)) goto oom;
        for (size_t k = 0; k < n; k++) {
            if ((t[k] == '"' || t[k] == '\\') && attu_abuf_put(out, "\\", 1)) goto oom;
            if (attu_abuf_put(out, t + k, 1)) goto oom;
        }
        if (attu_abuf_put(out, "\"", 1)) goto oom;
    }
    attu_array_iter_done(&it);
    if (rc < 0) return -1;
    return attu_abuf_put(out, "}", 1);
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
    if (e.id == ATTU_TYPE_NUMERIC) { size_t total; *keylen = numeric_key_len((unsigned char *)b->p + 1, (unsigned char *)b->p + b->len, &total); }
    else *keylen = b->len - 1;
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

/* One element converted to another element type (ATTU_ARR_CAST), through
 * its text as the element casts of PostgreSQL read it; float and numeric
 * to integers round (half away from zero for numeric, to even for float). */
static int elem_cast(attu_type from, attu_type to, const attu_slot *v, attu_slot *o, char *num16, attu_abuf *tmp,
                     attu_error *err) {
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
    tmp->len = 0;
    if (attu_abuf_put(tmp, lp ? lp : buf, n)) return attu_error_oom(err);
    if (elem_parse(to, tmp->p, n, o, num16, err)) return -1;
    return 0;
}

int attu_array_run(const attu_expr_program *p, const attu_instr *in, const attu_slot *A, const attu_slot *B,
                   const attu_slot *C, const attu_slot *G, attu_slot *D, size_t n,
                   char *(*alloc)(void *ctx, size_t n), void *ctx, attu_error *err) {
    attu_type dt = p->reg_types[in->dst];
    attu_type at = in->a >= 0 ? p->reg_types[in->a] : dt;
    attu_type bt = in->b >= 0 ? p->reg_types[in->b] : dt;
    attu_abuf out = { 0 }, key = { 0 }, tmp = { 0 };
    attu_array_iter it, it2;
    attu_slot v, w;
    int rc = 0;
    /* ATTU_ARR_SUBSCRIPT's place in the array of the row before: its bytes,
     * the position after element sub_k */
    const char *sub_s = NULL;
    size_t sub_len = 0;
    const unsigned char *sub_p = NULL;
    int64_t sub_k = 0;
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
            rc = emit(o, out.p, out.len, alloc, ctx, err);
            break;
        case ATTU_ARR_TO_TEXT:
            if (an) break;
            if (attu_array_to_text(attu_type_array_elem(at), A[r].v.s, A[r].len, &out)) { rc = attu_error_oom(err); break; }
            rc = emit(o, out.p, out.len, alloc, ctx, err);
            break;
        case ATTU_ARR_APPEND:
            if (!an && attu_abuf_put(&out, A[r].v.s, A[r].len)) { rc = attu_error_oom(err); break; }
            if (attu_array_put(&out, attu_type_array_elem(dt), &B[r])) { rc = attu_error_oom(err); break; }
            rc = emit(o, out.p, out.len, alloc, ctx, err);
            break;
        case ATTU_ARR_PREPEND:
            if (attu_array_put(&out, attu_type_array_elem(dt), &A[r])) { rc = attu_error_oom(err); break; }
            if (!bn && attu_abuf_put(&out, B[r].v.s, B[r].len)) { rc = attu_error_oom(err); break; }
            rc = emit(o, out.p, out.len, alloc, ctx, err);
            break;
        case ATTU_ARR_CAT:
            if (an && bn) break;
            if (!an && attu_abuf_put(&out, A[r].v.s, A[r].len)) { rc = attu_error_oom(err); break; }
            if (!bn && attu_abuf_put(&out, B[r].v.s, B[r].len)) { rc = attu_error_oom(err); break; }
            rc = emit(o, out.p, out.len, alloc, ctx, err);
            break;
        case ATTU_ARR_SUBSCRIPT: {
            if (an || bn) break;
            int64_t want = B[r].v.i, k = 0;
            attu_array_iter_init(&it, attu_type_array_elem(at), A[r].v.s, A[r].len);
            /* unnest is a[k] for k = 1 .. n over rows that share a's bytes:
             * walking from the start each time made it quadratic (2M
             * elements ran for hours), so a row of the same array (the same
             * bytes of this batch) at a later subscript goes on from where
             * the row before stopped */
            if (A[r].v.s == sub_s && A[r].len == sub_len && want > sub_k) {
                it.p = sub_p;
                k = sub_k;
            }
            while (attu_array_next(&it, &v) == 1) {
                if (++k < want) continue;
                if (k == want) {
                    sub_s = A[r].v.s; sub_len = A[r].len; sub_p = it.p; sub_k = k;
                    if (!v.null) {
                        *o = v;
                        if (dt.id == ATTU_TYPE_TEXT || dt.id == ATTU_TYPE_NUMERIC) rc = emit(o, v.v.s, v.len, alloc, ctx, err);
                    }
                }
                break;
            }
            attu_array_iter_done(&it);
            break;
        }
        case ATTU_ARR_SLICE: {
            if (an || bn || cn) break;
            int64_t lo = B ? B[r].v.i : 1, hi = C ? C[r].v.i : INT64_MAX, k = 0;
            attu_array_iter_init(&it, attu_type_array_elem(at), A[r].v.s, A[r].len);
            while (attu_array_next(&it, &v) == 1) {
                k++;
                if (k >= lo && k <= hi && attu_abuf_put(&out, (const char *)it.p - it.enclen, it.enclen)) {
                    rc = attu_error_oom(err);
                    break;
                }
            }
            attu_array_iter_done(&it);
            if (!rc) rc = emit(o, out.p, out.len, alloc, ctx, err);
            break;
        }
        case ATTU_ARR_LENGTH: case ATTU_ARR_LOWER: case ATTU_ARR_UPPER: case ATTU_ARR_CARDINALITY:
        case ATTU_ARR_NDIMS: case ATTU_ARR_DIMS: {
            if (an || bn) break;
            size_t cnt = attu_array_count(attu_type_array_elem(at), A[r].v.s, A[r].len);
            attu_array_fn f = (attu_array_fn)in->aux;
            if (f == ATTU_ARR_CARDINALITY) { o->null = 0; o->v.i = (int64_t)cnt; break; }
            if (cnt == 0 || (B && B[r].v.i != 1)) break;
            if (f == ATTU_ARR_DIMS) {
                char buf[48];
                int l = snprintf(buf, sizeof buf, "[1:%zu]", cnt);
                rc = emit(o, buf, (size_t)l, alloc, ctx, err);
                break;
            }
            o->null = 0;
            o->v.i = f == ATTU_ARR_LOWER || f == ATTU_ARR_NDIMS ? 1 : (int64_t)cnt;
            break;
        }
        case ATTU_ARR_POSITION: case ATTU_ARR_POSITIONS: case ATTU_ARR_REMOVE: case ATTU_ARR_REPLACE: {
            if (an) break;
            attu_type e = attu_type_array_elem(at);
            attu_array_fn f = (attu_array_fn)in->aux;
            int64_t start = 1, k = 0;
            if (f == ATTU_ARR_POSITION && C) {
                if (cn) { rc = attu_error_set(err, "22004", 0, "initial position must not be null"); break; }
                start = C[r].v.i;
            }
            size_t klen;
            if (elem_key(e, &B[r], &key, &klen)) { rc = attu_error_oom(err); break; }
            attu_array_iter_init(&it, e, A[r].v.s, A[r].len);
            while (!rc && attu_array_next(&it, &v) == 1) {
                k++;
                bool match = v.null ? (bool)bn
                                    : !bn && !key_cmp(it.key, it.keylen, (const unsigned char *)key.p + 1, klen);
                const char *enc = (const char *)it.p - it.enclen;
                if (f == ATTU_ARR_POSITION) {
                    if (match && k >= start) { o->null = 0; o->v.i = k; break; }
                } else if (f == ATTU_ARR_POSITIONS) {
                    if (match) {
                        attu_slot kv = { .v.i = k };
                        if (attu_array_put(&out, attu_type_make(ATTU_TYPE_INT32), &kv)) rc = attu_error_oom(err);
                    }
                } else if (f == ATTU_ARR_REMOVE) {
                    if (!match && attu_abuf_put(&out, enc, it.enclen)) rc = attu_error_oom(err);
                } else {
                    if (match) { if (attu_array_put(&out, e, &C[r])) rc = attu_error_oom(err); }
                    else if (attu_abuf_put(&out, enc, it.enclen)) rc = attu_error_oom(err);
                }
            }
            attu_array_iter_done(&it);
            if (!rc && f != ATTU_ARR_POSITION) rc = emit(o, out.p, out.len, alloc, ctx, err);
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
            if (!rc) rc = emit(o, out.p, out.len, alloc, ctx, err);
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
            if (!rc) rc = emit(o, out.p, out.len, alloc, ctx, err);
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
        case ATTU_ARR_SET: {
            if (bn) { rc = attu_error_set(err, "22004", 0, "array subscript in assignment must not be null"); break; }
            attu_type e = attu_type_array_elem(at);
            int64_t want = B[r].v.i, k = 0;
            if (want < 1 || ((an || A[r].len == 0) && want != 1)) {
                rc = attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                                    "array lower bounds other than 1 are not supported (subscript %lld)", (long long)want);
                break;
            }
            /* PostgreSQL's MaxArraySize: a[2147483647] = v would write two
             * billion NULLs (gigabytes, most of a minute) where PostgreSQL
             * refuses */
            if (want > ATTU_ARRAY_MAX_SIZE) {
                rc = attu_error_set(err, "54000", 0, "array size exceeds the maximum allowed (%d)", ATTU_ARRAY_MAX_SIZE);
                break;
            }
            if (!an) {
                attu_array_iter_init(&it, e, A[r].v.s, A[r].len);
                while (!rc && attu_array_next(&it, &v) == 1) {
                    if (++k == want) { if (attu_array_put(&out, e, &C[r])) rc = attu_error_oom(err); }
                    else if (attu_abuf_put(&out, (const char *)it.p - it.enclen, it.enclen)) rc = attu_error_oom(err);
                }
                attu_array_iter_done(&it);
            }
            attu_slot nul = { .null = 1 };
            for (; !rc && k + 1 < want; k++)
                if (attu_array_put(&out, e, &nul)) rc = attu_error_oom(err);
            if (!rc && k < want && attu_array_put(&out, e, &C[r])) rc = attu_error_oom(err);
            if (!rc) rc = emit(o, out.p, out.len, alloc, ctx, err);
            break;
        }
        case ATTU_ARR_TRIM: {
            if (an || bn) break;
            attu_type e = attu_type_array_elem(at);
            int64_t cnt = (int64_t)attu_array_count(e, A[r].v.s, A[r].len), keep = cnt - B[r].v.i, k = 0;
            if (B[r].v.i < 0 || B[r].v.i > cnt) {
                rc = attu_error_set(err, "2202E", 0, "number of elements to trim must be between 0 and %lld", (long long)cnt);
                break;
            }
            attu_array_iter_init(&it, e, A[r].v.s, A[r].len);
            while (!rc && k++ < keep && attu_array_next(&it, &v) == 1)
                if (attu_abuf_put(&out, (const char *)it.p - it.enclen, it.enclen)) rc = attu_error_oom(err);
            attu_array_iter_done(&it);
            if (!rc) rc = emit(o, out.p, out.len, alloc, ctx, err);
            break;
        }
        case ATTU_ARR_CAST: {
            if (an) break;
            attu_type from = attu_type_array_elem(at), to = attu_type_array_elem(dt);
            char num16[16];
            attu_array_iter_init(&it, from, A[r].v.s, A[r].len);
            while (attu_array_next(&it, &v) == 1) {
                if (elem_cast(from, to, &v, &w, num16, &tmp, err)) { rc = -1; break; }
                if (attu_array_put(&out, to, &w)) { rc = attu_error_oom(err); break; }
            }
            attu_array_iter_done(&it);
            if (!rc) rc = emit(o, out.p, out.len, alloc, ctx, err);
            break;
        }
        }
    }
    attu_abuf_free(&out);
    attu_abuf_free(&key);
    attu_abuf_free(&tmp);
    return rc;
}
