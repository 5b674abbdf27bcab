/*
 * test_array.c - engine/array.h: the encoding's byte order is PostgreSQL's
 * array order (checked against a comparator written from array_cmp's
 * rules on random arrays of every element class: the keys always, the
 * whole bytes wherever the arrays differ in value), arrays equal in value
 * ('{1.0}' and '{1.00}', '{-0}' and '{0}') have equal keys, no encoding
 * holds a NUL byte, concatenated encodings read as one array, and text
 * goes in and out as PostgreSQL's array_in / array_out (arrays of uuid,
 * bytea, json and jsonb too, jsonb[]'s keys in jsonb's order).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/array.h"
#include "engine/numeric.h"

/* one element of a reference array */
typedef struct ref_elem { bool null; int64_t i; double f; char s[8]; char num[24]; } ref_elem;
typedef struct ref_array { int n; ref_elem e[12]; } ref_array;

static int cmp_elem(attu_type t, const ref_elem *a, const ref_elem *b) {
    if (a->null || b->null) return a->null - b->null;       /* NULL after every value */
    switch (t.id) {
    case ATTU_TYPE_TEXT: return strcmp(a->s, b->s) < 0 ? -1 : strcmp(a->s, b->s) > 0;
    case ATTU_TYPE_FLOAT64:
        if (isnan(a->f) || isnan(b->f)) return isnan(a->f) - isnan(b->f);
        return (a->f > b->f) - (a->f < b->f);
    case ATTU_TYPE_NUMERIC: {
        attu_numeric x, y;
        cr_assert_eq(attu_numeric_parse(a->num, strlen(a->num), &x, NULL), 0);
        cr_assert_eq(attu_numeric_parse(b->num, strlen(b->num), &y, NULL), 0);
        return attu_numeric_cmp(x, y);   /* equal values of any scales are equal */
    }
    default: return (a->i > b->i) - (a->i < b->i);
    }
}

/* PostgreSQL's array_cmp for one dimension: element by element, then the
 * shorter first */
static int cmp_array(attu_type t, const ref_array *a, const ref_array *b) {
    for (int k = 0; k < a->n && k < b->n; k++) {
        int c = cmp_elem(t, &a->e[k], &b->e[k]);
        if (c) return c;
    }
    return (a->n > b->n) - (a->n < b->n);
}

static void random_array(attu_type t, ref_array *r) {
    static const char *const texts[] = { "", "a", "ab", "b", "a\x01", "\x01", "zz", "a b" };
    static const char *const nums[] = { "0", "0.00", "1.5", "-1.5", "10", "9.99", "-100.25", "0.001", "-0.01", "1.50" };
    static const double floats[] = { 0, 1.5, -1.5, 1e300, -1e300, INFINITY, -INFINITY, NAN, -0.0, -2 };
    static const int64_t ints[] = { 0, 1, -1, INT64_MAX, INT64_MIN, 1000, -1000, 42 };
    memset(r, 0, sizeof *r);
    r->n = rand() % 5;
    for (int k = 0; k < r->n; k++) {
        ref_elem *e = &r->e[k];
        e->null = rand() % 6 == 0;
        e->i = ints[rand() % 8];
        e->f = floats[rand() % 10];
        strcpy(e->s, texts[rand() % 8]);
        strcpy(e->num, nums[rand() % 10]);
    }
}

static void encode(attu_type t, const ref_array *r, attu_abuf *out) {
    attu_abuf raw = { 0 };
    cr_assert_eq(attu_abuf_put(&raw, "", 0), 0);
    for (int k = 0; k < r->n; k++) {
        const ref_elem *e = &r->e[k];
        attu_slot v;
        char slot16[16];
        memset(&v, 0, sizeof v);
        v.null = e->null;
        switch (t.id) {
        case ATTU_TYPE_TEXT: v.v.s = e->s; v.len = (uint32_t)strlen(e->s); break;
        case ATTU_TYPE_FLOAT64: v.v.f = e->f; break;
        case ATTU_TYPE_NUMERIC: {
            attu_numeric n;
            cr_assert_eq(attu_numeric_parse(e->num, strlen(e->num), &n, NULL), 0);
            attu_numeric_pack(n, slot16);
            v.v.s = slot16;
            v.len = 16;
            break;
        }
        default: v.v.i = e->i; break;
        }
        cr_assert_eq(attu_array_put(&raw, t, &v), 0);   /* one-element segments */
    }
    cr_assert_eq(attu_array_canon(t, raw.p, raw.len, out), 0);
    cr_assert_eq(memchr(out->p, 0, out->len), NULL, "an encoding holds a NUL byte");
    attu_abuf_free(&raw);
}

static int sign(int c) { return (c > 0) - (c < 0); }

static int bytes_cmp(const attu_abuf *a, const attu_abuf *b) {
    size_t m = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->p, b->p, m);
    return c ? c : (a->len > b->len) - (a->len < b->len);
}

static void check_order(attu_type t) {
    srand(7 + t.id);
    attu_abuf ea = { 0 }, eb = { 0 }, ka = { 0 }, kb = { 0 }, cat = { 0 }, canon = { 0 };
    for (int round = 0; round < 20000; round++) {
        ref_array a, b;
        random_array(t, &a);
        random_array(t, &b);
        encode(t, &a, &ea);
        encode(t, &b, &eb);
        int want = cmp_array(t, &a, &b);
        cr_assert_eq(attu_array_key(t, ea.p, ea.len, &ka), 0);
        cr_assert_eq(attu_array_key(t, eb.p, eb.len, &kb), 0);
        cr_assert_eq(sign(bytes_cmp(&ka, &kb)), want, "keys, round %d", round);
        if (want) cr_assert_eq(sign(bytes_cmp(&ea, &eb)), want, "round %d", round);
        cr_assert_eq(attu_array_count(t, ea.p, ea.len), (size_t)a.n);
        /* a || b as bytes (array_agg's form) reads as the concatenation */
        cat.len = 0;
        cr_assert_eq(attu_abuf_put(&cat, ea.p, ea.len) || attu_abuf_put(&cat, eb.p, eb.len), 0);
        cr_assert_eq(attu_array_canon(t, cat.p, cat.len, &canon), 0);
        ref_array ab = a;
        for (int k = 0; k < b.n; k++) ab.e[ab.n++] = b.e[k];
        attu_abuf want_ab = { 0 };
        encode(t, &ab, &want_ab);
        cr_assert_eq(canon.len, want_ab.len, "concatenation, round %d", round);
        cr_assert_eq(memcmp(canon.p, want_ab.p, canon.len), 0, "concatenation, round %d", round);
        attu_abuf_free(&want_ab);
    }
    attu_abuf_free(&ea);
    attu_abuf_free(&eb);
    attu_abuf_free(&ka);
    attu_abuf_free(&kb);
    attu_abuf_free(&cat);
    attu_abuf_free(&canon);
}

Test(array, order_int) { check_order(attu_type_make(ATTU_TYPE_INT64)); }
Test(array, order_float) { check_order(attu_type_make(ATTU_TYPE_FLOAT64)); }
Test(array, order_text) { check_order(attu_type_make(ATTU_TYPE_TEXT)); }
Test(array, order_numeric) { check_order(attu_type_make(ATTU_TYPE_NUMERIC)); }

static void roundtrip(attu_type t, const char *in, const char *want) {
    attu_abuf enc = { 0 }, txt = { 0 };
    attu_error err = { 0 };
    cr_assert_eq(attu_array_from_text(t, in, strlen(in), &enc, &err), 0, "%s: %s", in, err.message);
    cr_assert_eq(attu_array_to_text(t, enc.p, enc.len, &txt), 0);
    cr_assert_str_eq(txt.p, want);
    attu_abuf_free(&enc);
    attu_abuf_free(&txt);
}

Test(array, text_in_out) {
    attu_type i4 = attu_type_make(ATTU_TYPE_INT32), tx = attu_type_make(ATTU_TYPE_TEXT),
              nm = attu_type_make(ATTU_TYPE_NUMERIC), bo = attu_type_make(ATTU_TYPE_BOOL);
    roundtrip(i4, "{}", "{}");
    roundtrip(i4, " { 1 , -2,NULL } ", "{1,-2,NULL}");
    roundtrip(tx, "{\"a b\",c,\"\",null,\"NULL\",\"x\\\"y\",a\\,b}", "{\"a b\",c,\"\",NULL,\"NULL\",\"x\\\"y\",\"a,b\"}");
    roundtrip(tx, "{\"{\",\"}\",\"\\\\\"}", "{\"{\",\"}\",\"\\\\\"}");
    roundtrip(nm, "{1.50,-0.001,100,0.00,123456789012345678901234567890.5}",
              "{1.50,-0.001,100,0.00,123456789012345678901234567890.5}");
    roundtrip(bo, "{t,false,yes}", "{t,f,t}");
    roundtrip(nm, "{1.0,NULL,1.00,-0.0,NaN,-Infinity,2}", "{1.0,NULL,1.00,0.0,NaN,-Infinity,2}");
    roundtrip(attu_type_make(ATTU_TYPE_FLOAT64), "{-0,0,NULL,-1.5}", "{-0,0,NULL,-1.5}");
}

/* '{1.0}' and '{1.00}' (and '{-0}' and '{0}') differ in their bytes, which
 * keep what they show, and have one key. */
Test(array, equal_values_one_key) {
    static const char *const pairs[][3] = { { "{1.0,2}", "{1.00,2.000}", "n" }, { "{0.0,NULL}", "{0,NULL}", "n" },
                                            { "{-0,1}", "{0,1}", "f" } };
    for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++) {
        attu_type t = attu_type_make(pairs[k][2][0] == 'n' ? ATTU_TYPE_NUMERIC : ATTU_TYPE_FLOAT64);
        attu_abuf a = { 0 }, b = { 0 }, ka = { 0 }, kb = { 0 };
        attu_error err = { 0 };
        cr_assert_eq(attu_array_from_text(t, pairs[k][0], strlen(pairs[k][0]), &a, &err), 0);
        cr_assert_eq(attu_array_from_text(t, pairs[k][1], strlen(pairs[k][1]), &b, &err), 0);
        cr_assert(a.len != b.len || memcmp(a.p, b.p, a.len), "%s", pairs[k][0]);
        cr_assert_eq(attu_array_key(t, a.p, a.len, &ka), 0);
        cr_assert_eq(attu_array_key(t, b.p, b.len, &kb), 0);
        cr_assert(ka.len == kb.len && !memcmp(ka.p, kb.p, ka.len), "%s", pairs[k][0]);
        attu_abuf_free(&a); attu_abuf_free(&b); attu_abuf_free(&ka); attu_abuf_free(&kb);
    }
}

Test(array, malformed) {
    /* one dimension, then several dimensions and lower bounds */
    static const char *const bad[] = { "", "1", "{1", "{1,}", "{,1}", "{1}x", "{\"a}", "{a\"b\"}", "{1,,2}",
                                       "{{1},2}", "{1,{2}}", "{{1,2},{3}}", "{{1},{2,3}}", "[1:2]={1}", "[1:2]{1,2}",
                                       "[0:1]={{1},{2}}" };
    attu_type i4 = attu_type_make(ATTU_TYPE_INT32);
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        attu_abuf enc = { 0 };
        attu_error err = { 0 };
        cr_assert_neq(attu_array_from_text(i4, bad[k], strlen(bad[k]), &enc, &err), 0, "%s", bad[k]);
        cr_assert_str_eq(err.sqlstate, "22P02", "%s: %s", bad[k], err.sqlstate);
        attu_abuf_free(&enc);
    }
}

/* several dimensions and lower bounds, in and out as PostgreSQL's */
Test(array, text_dims) {
    attu_type i4 = attu_type_make(ATTU_TYPE_INT32), nm = attu_type_make(ATTU_TYPE_NUMERIC);
    roundtrip(i4, "{{1,2},{3,4}}", "{{1,2},{3,4}}");
    roundtrip(i4, " { { 1 } , { NULL } } ", "{{1},{NULL}}");
    roundtrip(i4, "{{{1,2},{3,4}},{{5,6},{7,8}}}", "{{{1,2},{3,4}},{{5,6},{7,8}}}");
    roundtrip(i4, "[0:2]={1,2,3}", "[0:2]={1,2,3}");
    roundtrip(i4, "[1:3]={1,2,3}", "{1,2,3}");
    roundtrip(i4, "[3]={1,2,3}", "{1,2,3}");
    roundtrip(i4, "[-1:0][1:2]={{1,2},{3,4}}", "[-1:0][1:2]={{1,2},{3,4}}");
    roundtrip(nm, "{{1.0,2.00},{-0.0,NULL}}", "{{1.0,2.00},{0.0,NULL}}");
}

/* PostgreSQL's array_cmp for several dimensions: the elements in storage
 * order, then the element count, the number of dimensions, the lengths,
 * the lower bounds (those of one dimension from 1 first here) */
Test(array, order_dims) {
    static const char *const sorted[] = { "{1,2}", "{{1,2}}", "{{1},{2}}", "{1,2,3}", "{{1,2,3}}", "{{1,2},{3,4}}",
                                          "{{1,2},{3,5}}", "{2}" };
    attu_type i4 = attu_type_make(ATTU_TYPE_INT32);
    size_t n = sizeof sorted / sizeof *sorted;
    attu_abuf enc[8] = { { 0 } };
    attu_error err = { 0 };
    for (size_t k = 0; k < n; k++) cr_assert_eq(attu_array_from_text(i4, sorted[k], strlen(sorted[k]), &enc[k], &err), 0);
    for (size_t k = 0; k + 1 < n; k++) cr_assert_lt(bytes_cmp(&enc[k], &enc[k + 1]), 0, "%s < %s", sorted[k], sorted[k + 1]);
    for (size_t k = 0; k < n; k++) attu_abuf_free(&enc[k]);
}

/* Random text of array syntax: array_in either refuses it (22P02, 54000,
 * 2202E) or reads an array whose output reads back to the same bytes. */
Test(array, text_fuzz) {
    static const char alphabet[] = "{{}},,[]:=-0123 \"\\NnULl.";
    attu_type types[] = { attu_type_make(ATTU_TYPE_INT32), attu_type_make(ATTU_TYPE_TEXT),
                          attu_type_make(ATTU_TYPE_NUMERIC), attu_type_make(ATTU_TYPE_FLOAT64) };
    srand(11);
    attu_abuf enc = { 0 }, txt = { 0 }, again = { 0 };
    for (int round = 0; round < 40000; round++) {
        char in[24];
        int n = rand() % 23;
        for (int k = 0; k < n; k++) in[k] = alphabet[rand() % (sizeof alphabet - 1)];
        in[n] = 0;
        attu_type t = types[rand() % 4];
        attu_error err = { 0 };
        if (attu_array_from_text(t, in, (size_t)n, &enc, &err)) {
            cr_assert(!strcmp(err.sqlstate, "22P02") || !strcmp(err.sqlstate, "54000") || !strcmp(err.sqlstate, "2202E") ||
                          !strcmp(err.sqlstate, "22003"),
                      "%s: %s", in, err.sqlstate);
            continue;
        }
        cr_assert_eq(attu_array_to_text(t, enc.p, enc.len, &txt), 0);
        cr_assert_eq(attu_array_from_text(t, txt.p, txt.len, &again, &err), 0, "%s -> %s: %s", in, txt.p, err.message);
        cr_assert(again.len == enc.len && !memcmp(again.p, enc.p, enc.len), "%s -> %s", in, txt.p);
    }
    attu_abuf_free(&enc);
    attu_abuf_free(&txt);
    attu_abuf_free(&again);
}

/* Arrays of uuid, bytea, json and jsonb: each element read by its type's
 * input and kept in the scalar's held form (uuid and jsonb canonical,
 * bytea as "\x" and hex, json as written); a bad element is its type's
 * error, but only once the literal's structure is read (array_in). */
Test(array, typed_text_in_out) {
    roundtrip(attu_type_uuid(), "{A0EEBC99-9C0B4EF8-BB6D6BB9-BD380A11,NULL}", "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,NULL}");
    roundtrip(attu_type_bytea(), "{abc,\"\\\\x00ff\",\"\"}", "{\"\\\\x616263\",\"\\\\x00ff\",\"\\\\x\"}");
    roundtrip(attu_type_json(0), "{\"{\\\"b\\\": 1}\",1.50}", "{\"{\\\"b\\\": 1}\",1.50}");
    roundtrip(attu_type_json(1), "{\"{\\\"b\\\":1,\\\"a\\\":2}\",1.50}", "{\"{\\\"a\\\": 2, \\\"b\\\": 1}\",1.50}");
    static const struct { const char *in, *state; } bad[] = { { "{zz}", "22P02" }, { "{zz,{x}}", "22P02" } };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        attu_abuf enc = { 0 };
        attu_error err = { 0 };
        cr_assert_neq(attu_array_from_text(attu_type_uuid(), bad[k].in, strlen(bad[k].in), &enc, &err), 0);
        cr_assert_str_eq(err.sqlstate, bad[k].state);
        cr_assert(strstr(err.message, k == 0 ? "type uuid" : "malformed array literal"), "%s", err.message);
        attu_abuf_free(&enc);
    }
}

/* A jsonb[]'s key holds each element's jsonb key: arrays PostgreSQL finds
 * equal ('{1.0}' and '{1}') have one key, and keys order as jsonb orders
 * (a number below an array below an object; 9 below 10). */
Test(array, jsonb_keys) {
    static const char *const order[] = { "{}", "{\"\\\"z\\\"\"}", "{9}", "{10}", "{10,NULL}", "{\"[1]\"}", "{\"{}\"}" };
    attu_type jb = attu_type_json(1);
    attu_abuf prev = { 0 };
    for (size_t k = 0; k < sizeof order / sizeof *order; k++) {
        attu_abuf a = { 0 }, ka = { 0 };
        attu_error err = { 0 };
        cr_assert_eq(attu_array_from_text(jb, order[k], strlen(order[k]), &a, &err), 0, "%s", order[k]);
        cr_assert_eq(attu_array_key(jb, a.p, a.len, &ka), 0);
        if (k) {
            size_t m = prev.len < ka.len ? prev.len : ka.len;
            int c = memcmp(prev.p, ka.p, m);
            cr_assert(c < 0 || (c == 0 && prev.len < ka.len), "%s before %s", order[k - 1], order[k]);
        }
        attu_abuf_free(&prev);
        prev = ka;
        attu_abuf_free(&a);
    }
    attu_abuf_free(&prev);
    attu_abuf a = { 0 }, b = { 0 }, ka = { 0 }, kb = { 0 };
    attu_error err = { 0 };
    cr_assert_eq(attu_array_from_text(jb, "{1.0,2}", 7, &a, &err), 0);
    cr_assert_eq(attu_array_from_text(jb, "{1,2.00}", 8, &b, &err), 0);
    cr_assert_eq(attu_array_key(jb, a.p, a.len, &ka), 0);
    cr_assert_eq(attu_array_key(jb, b.p, b.len, &kb), 0);
    cr_assert(ka.len == kb.len && !memcmp(ka.p, kb.p, ka.len));
    attu_abuf_free(&a); attu_abuf_free(&b); attu_abuf_free(&ka); attu_abuf_free(&kb);
}
