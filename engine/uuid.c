/*
 * uuid.c - PostgreSQL's uuid: input, canonical text, gen_random_uuid()
 * (engine/uuid.h).
 */
#include "engine/uuid.h"

#include <stdbool.h>
#include <string.h>
#include <sys/random.h>

static int hex_value(char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

int attu_uuid_parse(const char *s, size_t len, uint8_t out[16], attu_error *err) {
    size_t i = 0;
    bool braces = len > 0 && s[0] == '{';
    if (braces) i++;
    for (int k = 0; k < 16; k++) {
        int hi = i < len ? hex_value(s[i]) : -1, lo = i + 1 < len ? hex_value(s[i + 1]) : -1;
        if (hi < 0 || lo < 0) goto bad;
        out[k] = (uint8_t)(hi << 4 | lo);
        i += 2;
        /* a hyphen may follow any group of four digits but the last */
        if (i < len && s[i] == '-' && (k % 2) == 1 && k < 15) i++;
    }
    if (braces) {
        if (i >= len || s[i] != '}') goto bad;
        i++;
    }
    if (i != len) goto bad;
    return 0;
bad:
    return attu_error_set(err, ATTU_SQLSTATE_INVALID_TEXT_REP, 0, "invalid input syntax for type uuid: \"%.*s\"",
                          (int)len, s);
}

void attu_uuid_format(const uint8_t b[16], char out[ATTU_UUID_TEXT_LEN]) {
    static const char digits[] = "0123456789abcdef";
    size_t o = 0;
    for (int k = 0; k < 16; k++) {
        if (k == 4 || k == 6 || k == 8 || k == 10) out[o++] = '-';
        out[o++] = digits[b[k] >> 4];
        out[o++] = digits[b[k] & 15];
    }
}

int attu_uuid_canonical(const char *s, size_t len, char out[ATTU_UUID_TEXT_LEN], attu_error *err) {
    uint8_t b[16];
    if (attu_uuid_parse(s, len, b, err)) return -1;
    attu_uuid_format(b, out);
    return 0;
}

void attu_uuid_random(uint8_t out[16]) {
    size_t got = 0;
    while (got < 16) {
        ssize_t r = getrandom(out + got, 16 - got, 0);
        if (r > 0) got += (size_t)r;
    }
    out[6] = (uint8_t)((out[6] & 0x0f) | 0x40);   /* version 4 */
    out[8] = (uint8_t)((out[8] & 0x3f) | 0x80);   /* the RFC 4122 variant */
}

int attu_uuid_run(const attu_instr *in, const attu_slot *A, const attu_slot *G, attu_slot *D, size_t n,
                  char *(*alloc)(void *ctx, size_t n), void *ctx, attu_error *err) {
    for (size_t r = 0; r < n; r++) {
        attu_slot *o = &D[r];
        memset(o, 0, sizeof *o);
        o->null = 1;
        if (G && (G[r].null || !G[r].v.i)) continue;
        uint8_t b[16];
        if (in->aux == ATTU_UUID_IN) {
            if (!A || A[r].null) continue;
            if (attu_uuid_parse(A[r].v.s, A[r].len, b, err)) return -1;
        } else {
            attu_uuid_random(b);
        }
        char *m = alloc(ctx, ATTU_UUID_TEXT_LEN + 1);
        if (!m) return attu_error_oom(err);
        attu_uuid_format(b, m);
        m[ATTU_UUID_TEXT_LEN] = 0;
        o->null = 0; o->v.s = m; o->len = ATTU_UUID_TEXT_LEN;
    }
    return 0;
}
