/*
 * range.c - the built-in range types: text in and out, the encoding of
 * engine/range.h, make_range's rules, and ATTU_OP_RANGE's functions and
 * operators, as PostgreSQL 15 defines them (its documentation, section
 * 8.17 and 9.20, and its observed answers).
 */
#include "engine/range.h"

#include <ctype.h>
#include <string.h>

#define KEY64_LEN 10

/* tags of the encoding (range.h) */
enum { R_EMPTY = 0x01, R_SOME = 0x02 };
enum { LO_INF = 0x01, LO_VAL = 0x02, LO_INC = 0x01, LO_EXC = 0x02 };
enum { HI_VAL = 0x02, HI_INF = 0x03, HI_EXC = 0x01, HI_INC = 0x02 };
#define SHOW_END 0x01

const char *attu_range_kind_name(attu_range_kind k) {
    static const char *const names[ATTU_RANGE_KINDS_] = { "int4range", "int8range", "numrange",
                                                          "daterange", "tsrange",   "tstzrange" };
    return (unsigned)k < ATTU_RANGE_KINDS_ ? names[k] : "?";
}

static bool kind_is_discrete(attu_range_kind k) {
    return k == ATTU_RANGE_INT4 || k == ATTU_RANGE_INT8 || k == ATTU_RANGE_DATE;
}

/* ---- bound values ---------------------------------------------------------------- */

static int cmp_values(attu_range_kind k, const attu_range_bound *a, const attu_range_bound *b) {
    if (k == ATTU_RANGE_NUM) return attu_numeric_cmp(a->n, b->n);
    return a->i < b->i ? -1 : a->i > b->i;
}

/* PostgreSQL's range_cmp_bounds: a and b are bounds, each a lower one or
 * an upper one (alo, blo), so that an exclusive lower bound sits just
 * above its value and an exclusive upper bound just below it. */
static int cmp_bounds(attu_range_kind k, const attu_range_bound *a, bool alo, const attu_range_bound *b, bool blo) {
    if (a->inf && b->inf) return alo == blo ? 0 : alo ? -1 : 1;
    if (a->inf) return alo ? -1 : 1;
    if (b->inf) return blo ? 1 : -1;
    int c = cmp_values(k, a, b);
    if (c) return c;
    if (!a->inc && !b->inc) return alo == blo ? 0 : alo ? 1 : -1;
    if (!a->inc) return alo ? 1 : -1;
    if (!b->inc) return blo ? -1 : 1;
    return 0;
}

/* The bound values alone (range_cmp_bound_values): infinities at their ends. */
static int cmp_bound_values(attu_range_kind k, const attu_range_bound *a, bool alo, const attu_range_bound *b, bool blo) {
    if (a->inf && b->inf) return alo == blo ? 0 : alo ? -1 : 1;
    if (a->inf) return alo ? -1 : 1;
    if (b->inf) return blo ? 1 : -1;
    return cmp_values(k, a, b);
}

int attu_range_cmp(const attu_range *a, const attu_range *b) {
    if (a->empty || b->empty) return a->empty && b->empty ? 0 : a->empty ? -1 : 1;
    int c = cmp_bounds(a->kind, &a->lo, true, &b->lo, true);
    return c ? c : cmp_bounds(a->kind, &a->hi, false, &b->hi, false);
}

/* One step up of a discrete bound's value (canonicalization): 1 where it
 * moved, 0 for a date bound at infinity, which stays as it is, -1 on
 * overflow. */
static int step_up(attu_range_kind k, attu_range_bound *b, attu_error *err) {
    if (k == ATTU_RANGE_INT4) {
        if (b->i >= INT32_MAX) return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "integer out of range");
    } else if (k == ATTU_RANGE_INT8) {
        if (b->i == INT64_MAX) return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "bigint out of range");
    } else {
        if (b->i == INT32_MIN || b->i == INT32_MAX) return 0;   /* -infinity / infinity stay */
        if (b->i + 1 > ATTU_DATE_MAX_DAYS) return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "date out of range");
    }
    b->i++;
    return 1;
}

int attu_range_make(attu_range *r, attu_error *err) {
    if (!r->empty) {
        if (r->lo.inf) r->lo.inc = false;
        if (r->hi.inf) r->hi.inc = false;
        int c = cmp_bound_values(r->kind, &r->lo, true, &r->hi, false);
        if (c > 0)
            return attu_error_set(err, "22000", 0, "range lower bound must be less than or equal to range upper bound");
        if (c == 0 && !(r->lo.inc && r->hi.inc)) r->empty = true;
    }
    if (!r->empty && kind_is_discrete(r->kind)) {
        /* the canonical form [a,b) */
        if (!r->lo.inf && !r->lo.inc) {
            int s = step_up(r->kind, &r->lo, err);
            if (s < 0) return -1;
            if (s) r->lo.inc = true;
        }
        if (!r->hi.inf && r->hi.inc) {
            int s = step_up(r->kind, &r->hi, err);
            if (s < 0) return -1;
            if (s) r->hi.inc = false;
        }
        if (!r->lo.inf && !r->hi.inf && cmp_values(r->kind, &r->lo, &r->hi) == 0) r->empty = true;
    }
    if (r->empty) {   /* an empty range keeps no bounds (one encoding) */
        memset(&r->lo, 0, sizeof r->lo);
        memset(&r->hi, 0, sizeof r->hi);
    }
    return 0;
}

/* ---- the encoding ---------------------------------------------------------------- */

static int put_byte(attu_abuf *b, unsigned char c) { return attu_abuf_put(b, &c, 1); }

static int put_key64(attu_abuf *b, int64_t v) {
    uint64_t u = (uint64_t)v ^ (1ull << 63);
    unsigned char k[KEY64_LEN];
    k[0] = (unsigned char)(0x80 | (u >> 63));
    for (int i = 1; i < KEY64_LEN; i++) k[i] = (unsigned char)(0x80 | ((u >> (63 - 7 * i)) & 0x7f));
    return attu_abuf_put(b, k, KEY64_LEN);
}

static int64_t get_key64(const unsigned char *k) {
    uint64_t u = (uint64_t)(k[0] & 1) << 63;
    for (int i = 1; i < KEY64_LEN; i++) u |= (uint64_t)(k[i] & 0x7f) << (63 - 7 * i);
    return (int64_t)(u ^ (1ull << 63));
}

static int put_key(attu_range_kind k, attu_abuf *b, const attu_range_bound *v) {
    if (k != ATTU_RANGE_NUM) return put_key64(b, v->i);
    char slot[16];
    attu_numeric_pack(v->n, slot);
    return attu_array_numeric_key(b, slot);
}

int attu_range_encode(const attu_range *r, attu_abuf *out) {
    if (r->empty) return put_byte(out, R_EMPTY);
    int rc = put_byte(out, R_SOME);
    if (r->lo.inf) rc |= put_byte(out, LO_INF);
    else rc |= put_byte(out, LO_VAL) | put_key(r->kind, out, &r->lo) | put_byte(out, r->lo.inc ? LO_INC : LO_EXC);
    if (r->hi.inf) rc |= put_byte(out, HI_INF);
    else rc |= put_byte(out, HI_VAL) | put_key(r->kind, out, &r->hi) | put_byte(out, r->hi.inc ? HI_INC : HI_EXC);
    if (r->kind == ATTU_RANGE_NUM) {
        /* the bounds' own texts, which keep their display scales */
        const attu_range_bound *bs[2] = { &r->lo, &r->hi };
        for (int i = 0; i < 2; i++) {
            if (bs[i]->inf) continue;
            char t[96];
            int l = attu_numeric_format(bs[i]->n, t, (int)sizeof t);
            rc |= attu_abuf_put(out, t, (size_t)l) | put_byte(out, SHOW_END);
        }
    }
    return rc ? -1 : 0;
}

/* Skips a key at *p (k's form), returns its start; NULL where it runs past end. */
static const unsigned char *skip_key(attu_range_kind k, const unsigned char **p, const unsigned char *end) {
    const unsigned char *key = *p;
    size_t n = k == ATTU_RANGE_NUM ? attu_array_numeric_key_len(key, end) : KEY64_LEN;
    if (key >= end || (size_t)(end - key) < n) return NULL;
    *p += n;
    return key;
}

/* The key part of s: its length, and the bound keys' starts (NULL for an
 * infinite bound). -1 for a malformed encoding. */
static long key_part(attu_range_kind k, const unsigned char *s, size_t len, const unsigned char **lok,
                     const unsigned char **hik, int *loflag, int *hiflag) {
    const unsigned char *p = s, *end = s + len;
    *lok = *hik = NULL;
    if (len < 1) return -1;
    if (*p++ == R_EMPTY) return 1;
    if (p >= end) return -1;
    if (*p++ == LO_VAL) {
        if (!(*lok = skip_key(k, &p, end)) || p >= end) return -1;
        *loflag = *p++;
    }
    if (p >= end) return -1;
    if (*p++ == HI_VAL) {
        if (!(*hik = skip_key(k, &p, end)) || p >= end) return -1;
        *hiflag = *p++;
    }
    return (long)(p - s);
}

size_t attu_range_key_len(attu_range_kind k, const char *s, size_t len) {
    const unsigned char *a, *b;
    int fa = 0, fb = 0;
    long n = key_part(k, (const unsigned char *)s, len, &a, &b, &fa, &fb);
    return n < 0 ? len : (size_t)n;
}

int attu_range_decode(attu_range_kind k, const char *s, size_t len, attu_range *r) {
    const unsigned char *u = (const unsigned char *)s, *lok, *hik;
    int lof = 0, hif = 0;
    memset(r, 0, sizeof *r);
    r->kind = k;
    long n = key_part(k, u, len, &lok, &hik, &lof, &hif);
    if (n < 0) return -1;
    if (u[0] == R_EMPTY) { r->empty = true; return 0; }
    r->lo.inf = !lok;
    r->hi.inf = !hik;
    r->lo.inc = lok && lof == LO_INC;
    r->hi.inc = hik && hif == HI_INC;
    if (k != ATTU_RANGE_NUM) {
        if (lok) r->lo.i = get_key64(lok);
        if (hik) r->hi.i = get_key64(hik);
        return 0;
    }
    /* numrange: the values from the show texts */
    const char *p = s + n, *end = s + len;
    attu_range_bound *bs[2] = { lok ? &r->lo : NULL, hik ? &r->hi : NULL };
    for (int i = 0; i < 2; i++) {
        if (!bs[i]) continue;
        const char *e = memchr(p, SHOW_END, (size_t)(end - p));
        if (!e || attu_numeric_parse(p, (size_t)(e - p), &bs[i]->n, NULL)) return -1;
        p = e + 1;
    }
    return 0;
}

/* ---- text in and out --------------------------------------------------------------- */

static int malformed(const char *s, size_t len, const char *detail, attu_error *err) {
    attu_error_set(err, ATTU_SQLSTATE_INVALID_TEXT_REP, 0, "malformed range literal: \"%.*s\"", (int)(len > 900 ? 900 : len), s);
    attu_error_set_detail(err, "%s", detail);
    return -1;
}

/* One bound's text as range_parse_bound reads it: up to an unquoted ',',
 * ')' or ']'; double quotes group (a doubled one inside is one), a
 * backslash takes the next character as it is. *infinite where it is
 * empty. Returns the position after it, or -1 (end of input). */
static long parse_bound_text(const char *s, size_t len, size_t at, attu_abuf *out, bool *infinite) {
    size_t i = at;
    out->len = 0;
    if (i < len && (s[i] == ',' || s[i] == ')' || s[i] == ']')) { *infinite = true; return (long)i; }
    if (i >= len) return -1;
    *infinite = false;
    bool inq = false;
    while (inq || !(i < len && (s[i] == ',' || s[i] == ')' || s[i] == ']'))) {
        if (i >= len) return -1;
        char ch = s[i++];
        if (ch == '\\') {
            if (i >= len) return -1;
            if (attu_abuf_put(out, &s[i++], 1)) return -2;
        } else if (ch == '"') {
            if (!inq) inq = true;
            else if (i < len && s[i] == '"') { if (attu_abuf_put(out, &s[i++], 1)) return -2; }
            else inq = false;
        } else if (attu_abuf_put(out, &ch, 1)) return -2;
    }
    return (long)i;
}

/* A bound value from its text (the subtype's input function). */
static int parse_value(attu_range_kind k, const char *s, size_t len, attu_range_bound *b, attu_error *err) {
    if (k == ATTU_RANGE_NUM) return attu_numeric_parse(s, len, &b->n, err);
    attu_type t = attu_range_subtype(k);
    union { int32_t i4; int64_t i8; } slot;
    memset(&slot, 0, sizeof slot);
    if (attu_value_parse(t, s, len, &slot, err)) return -1;
    b->i = (k == ATTU_RANGE_INT4 || k == ATTU_RANGE_DATE) ? slot.i4 : slot.i8;
    return 0;
}

int attu_range_parse(attu_range_kind k, const char *s, size_t len, attu_abuf *out, attu_error *err) {
    attu_range r;
    memset(&r, 0, sizeof r);
    r.kind = k;
    size_t i = 0;
    while (i < len && isspace((unsigned char)s[i])) i++;
    if (len - i >= 5 && !strncasecmp(s + i, "empty", 5)) {
        i += 5;
        while (i < len && isspace((unsigned char)s[i])) i++;
        if (i < len) return malformed(s, len, "Junk after \"empty\" key word.", err);
        r.empty = true;
        return attu_range_encode(&r, out) ? attu_error_oom(err) : 0;
    }
    bool lo_inc;
    if (i < len && s[i] == '[') lo_inc = true;
    else if (i < len && s[i] == '(') lo_inc = false;
    else return malformed(s, len, "Missing left parenthesis or bracket.", err);
    i++;
    attu_abuf lt = { 0 }, ut = { 0 };
    bool lo_inf = false, hi_inf = false;
    long at = parse_bound_text(s, len, i, &lt, &lo_inf);
    int rc = -1;
    if (at == -2) { attu_error_oom(err); goto done; }
    if (at < 0) { malformed(s, len, "Unexpected end of input.", err); goto done; }
    i = (size_t)at;
    if (i < len && s[i] == ',') i++;
    else { malformed(s, len, "Missing comma after lower bound.", err); goto done; }
    at = parse_bound_text(s, len, i, &ut, &hi_inf);
    if (at == -2) { attu_error_oom(err); goto done; }
    if (at < 0) { malformed(s, len, "Unexpected end of input.", err); goto done; }
    i = (size_t)at;
    bool hi_inc;
    if (i < len && s[i] == ']') hi_inc = true;
    else if (i < len && s[i] == ')') hi_inc = false;
    else { malformed(s, len, "Too many commas.", err); goto done; }
    i++;
    while (i < len && isspace((unsigned char)s[i])) i++;
    if (i < len) { malformed(s, len, "Junk after right parenthesis or bracket.", err); goto done; }
    r.lo.inf = lo_inf; r.lo.inc = lo_inc;
    r.hi.inf = hi_inf; r.hi.inc = hi_inc;
    if (!lo_inf && parse_value(k, lt.p ? lt.p : "", lt.len, &r.lo, err)) goto done;
    if (!hi_inf && parse_value(k, ut.p ? ut.p : "", ut.len, &r.hi, err)) goto done;
    if (attu_range_make(&r, err)) goto done;
    if (attu_range_encode(&r, out)) { attu_error_oom(err); goto done; }
    rc = 0;
done:
    attu_abuf_free(&lt);
    attu_abuf_free(&ut);
    return rc;
}

/* A bound's text as range_out writes it: quoted where it is empty or holds
 * a quote, a backslash, a parenthesis, a bracket, a comma or white space,
 * with quotes and backslashes doubled inside. */
static int put_bound_text(attu_range_kind k, const attu_range_bound *b, attu_abuf *out) {
    char t[128];
    size_t l;
    if (k == ATTU_RANGE_NUM) l = (size_t)attu_numeric_format(b->n, t, (int)sizeof t);
    else {
        union { int32_t i4; int64_t i8; } slot;
        if (k == ATTU_RANGE_INT4 || k == ATTU_RANGE_DATE) slot.i4 = (int32_t)b->i;
        else slot.i8 = b->i;
        l = attu_value_format(attu_range_subtype(k), &slot, t, sizeof t);
    }
    bool quote = l == 0;
    for (size_t i = 0; i < l && !quote; i++)
        quote = strchr("\"\\(),[]", t[i]) != NULL || isspace((unsigned char)t[i]);
    if (!quote) return attu_abuf_put(out, t, l);
    int rc = put_byte(out, '"');
    for (size_t i = 0; i < l; i++) {
        if (t[i] == '"' || t[i] == '\\') rc |= put_byte(out, (unsigned char)t[i]);
        rc |= put_byte(out, (unsigned char)t[i]);
    }
    return rc | put_byte(out, '"');
}

int attu_range_to_text(attu_range_kind k, const char *s, size_t len, attu_abuf *out) {
    attu_range r;
    if (attu_range_decode(k, s, len, &r)) return -1;
    if (r.empty) return attu_abuf_put(out, "empty", 5);
    int rc = put_byte(out, r.lo.inc ? '[' : '(');
    if (!r.lo.inf) rc |= put_bound_text(k, &r.lo, out);
    rc |= put_byte(out, ',');
    if (!r.hi.inf) rc |= put_bound_text(k, &r.hi, out);
    rc |= put_byte(out, r.hi.inc ? ']' : ')');
    return rc ? -1 : 0;
}

/* ---- functions and operators ------------------------------------------------------- */

static bool contains(const attu_range *a, const attu_range *b) {
    if (b->empty) return true;
    if (a->empty) return false;
    return cmp_bounds(a->kind, &a->lo, true, &b->lo, true) <= 0 && cmp_bounds(a->kind, &a->hi, false, &b->hi, false) >= 0;
}

static bool contains_elem(const attu_range *a, const attu_range_bound *v) {
    if (a->empty) return false;
    if (!a->lo.inf) {
        int c = cmp_values(a->kind, &a->lo, v);
        if (c > 0 || (c == 0 && !a->lo.inc)) return false;
    }
    if (!a->hi.inf) {
        int c = cmp_values(a->kind, &a->hi, v);
        if (c < 0 || (c == 0 && !a->hi.inc)) return false;
    }
    return true;
}

static bool overlaps(const attu_range *a, const attu_range *b) {
    if (a->empty || b->empty) return false;
    attu_range_kind k = a->kind;
    if (cmp_bounds(k, &a->lo, true, &b->lo, true) >= 0 && cmp_bounds(k, &a->lo, true, &b->hi, false) <= 0) return true;
    if (cmp_bounds(k, &b->lo, true, &a->lo, true) >= 0 && cmp_bounds(k, &b->lo, true, &a->hi, false) <= 0) return true;
    return false;
}

/* An upper bound u right before a lower bound l with no value between
 * (bounds_adjacent): the same value, one of them inclusive. (Discrete
 * ranges are canonical, [a,b), so a gap of values is never empty there.) */
static bool bounds_adjacent(attu_range_kind k, const attu_range_bound *u, const attu_range_bound *l) {
    return cmp_bound_values(k, u, false, l, true) == 0 && u->inc != l->inc;
}

static bool adjacent(const attu_range *a, const attu_range *b) {
    if (a->empty || b->empty) return false;
    return bounds_adjacent(a->kind, &a->hi, &b->lo) || bounds_adjacent(a->kind, &b->hi, &a->lo);
}

static int union_of(const attu_range *a, const attu_range *b, bool strict, attu_range *out, attu_error *err) {
    if (a->empty) { *out = *b; return 0; }
    if (b->empty) { *out = *a; return 0; }
    if (strict && !overlaps(a, b) && !adjacent(a, b))
        return attu_error_set(err, "22000", 0, "result of range union would not be contiguous");
    *out = *a;
    out->lo = cmp_bounds(a->kind, &a->lo, true, &b->lo, true) <= 0 ? a->lo : b->lo;
    out->hi = cmp_bounds(a->kind, &a->hi, false, &b->hi, false) >= 0 ? a->hi : b->hi;
    return attu_range_make(out, err);
}

static int intersect_of(const attu_range *a, const attu_range *b, attu_range *out, attu_error *err) {
    *out = *a;
    if (a->empty || b->empty || !overlaps(a, b)) { out->empty = true; return attu_range_make(out, err); }
    out->lo = cmp_bounds(a->kind, &a->lo, true, &b->lo, true) >= 0 ? a->lo : b->lo;
    out->hi = cmp_bounds(a->kind, &a->hi, false, &b->hi, false) <= 0 ? a->hi : b->hi;
    return attu_range_make(out, err);
}

static int minus_of(const attu_range *a, const attu_range *b, attu_range *out, attu_error *err) {
    attu_range_kind k = a->kind;
    *out = *a;
    if (a->empty || b->empty) return 0;
    int l1l2 = cmp_bounds(k, &a->lo, true, &b->lo, true), l1u2 = cmp_bounds(k, &a->lo, true, &b->hi, false);
    int u1l2 = cmp_bounds(k, &a->hi, false, &b->lo, true), u1u2 = cmp_bounds(k, &a->hi, false, &b->hi, false);
    if (l1l2 < 0 && u1u2 > 0) return attu_error_set(err, "22000", 0, "result of range difference would not be contiguous");
    if (l1u2 > 0 || u1l2 < 0) return 0;
    if (l1l2 >= 0 && u1u2 <= 0) { out->empty = true; return attu_range_make(out, err); }
    if (l1l2 <= 0 && u1l2 >= 0 && u1u2 <= 0) {
        /* b cuts a's top: a's lower bound up to b's lower one, flipped */
        out->hi = b->lo;
        out->hi.inc = !b->lo.inc;
        return attu_range_make(out, err);
    }
    /* b cuts a's bottom */
    out->lo = b->hi;
    out->lo.inc = !b->hi.inc;
    return attu_range_make(out, err);
}

/* A bound value from a register of the subtype. */
static void bound_of_slot(attu_range_kind k, const attu_slot *v, attu_range_bound *b) {
    if (k == ATTU_RANGE_NUM) b->n = attu_numeric_unpack(v->v.s);
    else b->i = v->v.i;
}

/* PostgreSQL's range_parse_flags: "[)" and the like, exactly two characters. */
static int parse_flags(const char *s, size_t len, bool *lo_inc, bool *hi_inc, attu_error *err) {
    if (len != 2 || (s[0] != '[' && s[0] != '(') || (s[1] != ']' && s[1] != ')')) {
        attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "invalid range bound flags");
        attu_error_set_hint(err, "Valid values are \"[]\", \"[)\", \"(]\", and \"()\".");
        return -1;
    }
    *lo_inc = s[0] == '[';
    *hi_inc = s[1] == ']';
    return 0;
}

static int emit_range(const attu_range *r, attu_slot *o, attu_abuf *buf, char *(*alloc)(void *, size_t), void *ctx,
                      attu_error *err) {
    buf->len = 0;
    if (attu_range_encode(r, buf)) return attu_error_oom(err);
    char *m = alloc(ctx, buf->len + 1);
    if (!m) return attu_error_oom(err);
    memcpy(m, buf->p, buf->len);
    m[buf->len] = 0;
    o->null = 0; o->v.s = m; o->len = (uint32_t)buf->len;
    return 0;
}

static int emit_bytes(const char *s, size_t len, attu_slot *o, char *(*alloc)(void *, size_t), void *ctx, attu_error *err) {
    char *m = alloc(ctx, len + 1);
    if (!m) return attu_error_oom(err);
    memcpy(m, s, len);
    m[len] = 0;
    o->null = 0; o->v.s = m; o->len = (uint32_t)len;
    return 0;
}

int attu_range_run(const attu_expr_program *p, const attu_instr *in, const attu_slot *A, const attu_slot *B,
                   const attu_slot *C, const attu_slot *G, attu_slot *D, size_t n,
                   char *(*alloc)(void *ctx, size_t n), void *ctx, attu_error *err) {
    attu_range_fn f = (attu_range_fn)in->aux;
    attu_type dt = p->reg_types[in->dst];
    attu_type at = in->a >= 0 ? p->reg_types[in->a] : dt;
    /* the range kind: the result's for IN and MAKE, else the first operand's */
    attu_range_kind k = (f == ATTU_RNG_IN || f == ATTU_RNG_MAKE) ? attu_type_range_kind(dt) : attu_type_range_kind(at);
    attu_abuf buf = { 0 };
    int rc = -1;
    for (size_t r = 0; r < n; r++) {
        attu_slot *o = &D[r];
        memset(o, 0, sizeof *o);
        o->null = 1;
        if (G && (G[r].null || !G[r].v.i)) continue;
        if (f == ATTU_RNG_MAKE) {
            attu_range x;
            memset(&x, 0, sizeof x);
            x.kind = k;
            x.lo.inc = true;
            if (C) {
                if (C[r].null) { attu_error_set(err, "22000", 0, "range constructor flags argument must not be null"); goto out; }
                if (parse_flags(C[r].v.s, C[r].len, &x.lo.inc, &x.hi.inc, err)) goto out;
            }
            x.lo.inf = A[r].null;
            x.hi.inf = B[r].null;
            if (!A[r].null) bound_of_slot(k, &A[r], &x.lo);
            if (!B[r].null) bound_of_slot(k, &B[r], &x.hi);
            if (attu_range_make(&x, err) || emit_range(&x, o, &buf, alloc, ctx, err)) goto out;
            continue;
        }
        if (!A || A[r].null || (B && B[r].null)) continue;
        if (f == ATTU_RNG_IN) {
            buf.len = 0;
            if (attu_range_parse(k, A[r].v.s, A[r].len, &buf, err)) goto out;
            if (emit_bytes(buf.p, buf.len, o, alloc, ctx, err)) goto out;
            continue;
        }
        if (f == ATTU_RNG_KEY) {
            if (emit_bytes(A[r].v.s, attu_range_key_len(k, A[r].v.s, A[r].len), o, alloc, ctx, err)) goto out;
            continue;
        }
        attu_range a, b, res;
        if (attu_range_decode(k, A[r].v.s, A[r].len, &a)) {
            attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "corrupt %s value", attu_range_kind_name(k));
            goto out;
        }
        if (f == ATTU_RNG_OUT) {
            buf.len = 0;
            if (attu_range_to_text(k, A[r].v.s, A[r].len, &buf)) { attu_error_oom(err); goto out; }
            if (emit_bytes(buf.p ? buf.p : "", buf.len, o, alloc, ctx, err)) goto out;
            continue;
        }
        if (f == ATTU_RNG_CONTAINS_ELEM) {
            attu_range_bound v;
            memset(&v, 0, sizeof v);
            bound_of_slot(k, &B[r], &v);
            o->null = 0; o->v.i = contains_elem(&a, &v);
            continue;
        }
        if (f == ATTU_RNG_LOWER || f == ATTU_RNG_UPPER) {
            const attu_range_bound *bd = f == ATTU_RNG_LOWER ? &a.lo : &a.hi;
            if (a.empty || bd->inf) continue;
            if (k == ATTU_RANGE_NUM) {
                char *m = alloc(ctx, 16);
                if (!m) { attu_error_oom(err); goto out; }
                attu_numeric_pack(bd->n, m);
                o->v.s = m;
            } else o->v.i = bd->i;
            o->null = 0;
            continue;
        }
        if (f >= ATTU_RNG_ISEMPTY && f <= ATTU_RNG_UPPER_INF) {
            o->null = 0;
            o->v.i = f == ATTU_RNG_ISEMPTY ? a.empty : f == ATTU_RNG_LOWER_INC ? (!a.empty && a.lo.inc)
                   : f == ATTU_RNG_UPPER_INC ? (!a.empty && a.hi.inc) : f == ATTU_RNG_LOWER_INF ? (!a.empty && a.lo.inf)
                   : (!a.empty && a.hi.inf);
            continue;
        }
        if (!B || attu_range_decode(k, B[r].v.s, B[r].len, &b)) {
            attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "corrupt %s value", attu_range_kind_name(k));
            goto out;
        }
        bool empty_either = a.empty || b.empty;
        switch (f) {
        case ATTU_RNG_CONTAINS: o->null = 0; o->v.i = contains(&a, &b); continue;
        case ATTU_RNG_OVERLAPS: o->null = 0; o->v.i = overlaps(&a, &b); continue;
        case ATTU_RNG_BEFORE:
            o->null = 0; o->v.i = !empty_either && cmp_bounds(k, &a.hi, false, &b.lo, true) < 0; continue;
        case ATTU_RNG_AFTER:
            o->null = 0; o->v.i = !empty_either && cmp_bounds(k, &a.lo, true, &b.hi, false) > 0; continue;
        case ATTU_RNG_OVERLEFT:
            o->null = 0; o->v.i = !empty_either && cmp_bounds(k, &a.hi, false, &b.hi, false) <= 0; continue;
        case ATTU_RNG_OVERRIGHT:
            o->null = 0; o->v.i = !empty_either && cmp_bounds(k, &a.lo, true, &b.lo, true) >= 0; continue;
        case ATTU_RNG_ADJACENT: o->null = 0; o->v.i = adjacent(&a, &b); continue;
        case ATTU_RNG_UNION: case ATTU_RNG_MERGE:
            if (union_of(&a, &b, f == ATTU_RNG_UNION, &res, err)) goto out;
            break;
        case ATTU_RNG_INTERSECT:
            if (intersect_of(&a, &b, &res, err)) goto out;
            break;
        case ATTU_RNG_MINUS:
            if (minus_of(&a, &b, &res, err)) goto out;
            break;
        default:
            attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "unknown range function %d", (int)f);
            goto out;
        }
        if (emit_range(&res, o, &buf, alloc, ctx, err)) goto out;
    }
    rc = 0;
out:
    attu_abuf_free(&buf);
    return rc;
}
