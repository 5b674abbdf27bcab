/*
 * test_uuid_bytea.c - engine/uuid.h and engine/bytea.h: uuid input forms
 * and errors, the canonical text, gen_random_uuid's version and variant
 * bits; bytea's hex and escape input and errors, the held hex form; and
 * the property the types' storage rests on: the held texts order as
 * PostgreSQL orders the values (uuids as their 16 bytes, bytea bytewise
 * with a shorter prefix first), checked over random values.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bytea.h"
#include "engine/uuid.h"

Test(uuid, input_forms) {
    static const char *const good[] = {
        "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11",
        "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}", "a0eebc999c0b4ef8bb6d6bb9bd380a11",
        "a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11", "{a0eebc99-9c0b4ef8-bb6d6bb9-bd380a11}",
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        char out[ATTU_UUID_TEXT_LEN + 1] = { 0 };
        attu_error err = { 0 };
        cr_assert_eq(attu_uuid_canonical(good[i], strlen(good[i]), out, &err), 0, "%s: %s", good[i], err.message);
        cr_expect_str_eq(out, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "%s", good[i]);
    }
}

Test(uuid, input_errors) {
    static const char *const bad[] = {
        "", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a111",
        "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}",
        " a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11-",
        "a0e-ebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0eebc99--9c0b-4ef8-bb6d-6bb9bd380a11",
        "g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char out[ATTU_UUID_TEXT_LEN];
        attu_error err = { 0 };
        cr_expect_neq(attu_uuid_canonical(bad[i], strlen(bad[i]), out, &err), 0, "%s", bad[i]);
        cr_expect_str_eq(err.sqlstate, "22P02", "%s", bad[i]);
    }
}

Test(uuid, random_version_4) {
    for (int i = 0; i < 1000; i++) {
        uint8_t b[16];
        attu_uuid_random(b);
        cr_assert_eq(b[6] >> 4, 4);
        cr_assert_eq(b[8] >> 6, 2);
    }
}

static int cmp_bytes(const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
    int c = memcmp(a, b, na < nb ? na : nb);
    return c ? c : na < nb ? -1 : na > nb;
}
static int sign(int x) { return (x > 0) - (x < 0); }

Test(uuid, text_orders_as_bytes) {
    srand(11);
    for (int i = 0; i < 20000; i++) {
        uint8_t a[16], b[16];
        for (int k = 0; k < 16; k++) { a[k] = (uint8_t)rand(); b[k] = (uint8_t)(i % 3 ? rand() : a[k]); }
        if (i % 5 == 0) b[15] ^= 1;
        char ta[ATTU_UUID_TEXT_LEN], tb[ATTU_UUID_TEXT_LEN];
        attu_uuid_format(a, ta);
        attu_uuid_format(b, tb);
        cr_assert_eq(sign(memcmp(ta, tb, ATTU_UUID_TEXT_LEN)), sign(memcmp(a, b, 16)));
    }
}

static char *held(const char *s) {
    char *out;
    size_t n;
    attu_error err = { 0 };
    cr_assert_eq(attu_bytea_canonical(s, strlen(s), &out, &n, &err), 0, "%s: %s", s, err.message);
    cr_assert_eq(strlen(out), n);
    return out;
}

Test(bytea, input_formats) {
    static const char *const cases[][2] = {
        { "\\xDEADbeef", "\\xdeadbeef" }, { "\\x", "\\x" }, { "\\x 01 0a\n ff\t", "\\x010aff" },
        { "abc", "\\x616263" }, { "abc\\000def", "\\x61626300646566" }, { "a\\\\b", "\\x615c62" },
        { "\\101\\377", "\\x41ff" }, { "", "\\x" }, { "\xc3\xa9", "\\xc3a9" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *h = held(cases[i][0]);
        cr_expect_str_eq(h, cases[i][1], "%s", cases[i][0]);
        free(h);
    }
}

Test(bytea, input_errors) {
    static const char *const cases[][2] = {
        { "\\x0g", "22023" }, { "\\xabc", "22023" }, { "\\x0 1", "22023" }, { "abc\\", "22P02" },
        { "\\400", "22P02" }, { "\\08", "22P02" }, { "a\\b", "22P02" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *out = NULL;
        size_t n;
        attu_error err = { 0 };
        cr_expect_neq(attu_bytea_canonical(cases[i][0], strlen(cases[i][0]), &out, &n, &err), 0, "%s", cases[i][0]);
        cr_expect_str_eq(err.sqlstate, cases[i][1], "%s", cases[i][0]);
        free(out);
    }
}

Test(bytea, held_text_orders_as_bytes) {
    srand(7);
    for (int i = 0; i < 20000; i++) {
        uint8_t a[8], b[8];
        size_t na = (size_t)rand() % 5, nb = (size_t)rand() % 5;
        for (size_t k = 0; k < 8; k++) { a[k] = (uint8_t)(rand() % 4 * 85); b[k] = i % 2 ? a[k] : (uint8_t)(rand() % 4 * 85); }
        char ha[20], hb[20];
        size_t la = attu_bytea_format(a, na, ha), lb = attu_bytea_format(b, nb, hb);
        cr_assert_eq(strlen(ha), la);
        cr_assert_eq(strlen(hb), lb);
        int t = strcmp(ha, hb);
        cr_assert_eq(sign(t), sign(cmp_bytes(a, na, b, nb)), "%s vs %s", ha, hb);
        uint8_t back[8];
        cr_assert_eq(attu_bytea_unhex(ha, la, back), na);
        cr_assert(na == 0 || !memcmp(back, a, na));
    }
}
