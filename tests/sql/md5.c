/*
 * md5.c - MD5 as RFC 1321 describes it: 64-byte blocks, four rounds of
 * sixteen steps, little-endian words, length in bits appended at the end.
 */
#include "md5.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Per-step left rotations, round by round. */
static const uint8_t md5_shift[64] = {
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
    5,  9, 14, 20, 5,  9, 14, 20, 5,  9, 14, 20, 5,  9, 14, 20,
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
    6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
};

/* floor(abs(sin(i + 1)) * 2^32), computed once. */
static uint32_t md5_k[64];
static int md5_k_ready;

static void md5_make_k(void) {
    for (int i = 0; i < 64; i++)
        md5_k[i] = (uint32_t)(fabs(sin((double)(i + 1))) * 4294967296.0);
    md5_k_ready = 1;
}

static uint32_t rotl32(uint32_t x, unsigned n) {
    return (x << n) | (x >> (32 - n));
}

static void md5_block(md5_ctx *c, const uint8_t *p) {
    uint32_t m[16];
    for (int i = 0; i < 16; i++)
        m[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
               (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
    uint32_t a = c->state[0], b = c->state[1], cc = c->state[2], d = c->state[3];
    for (int i = 0; i < 64; i++) {
        uint32_t f;
        int g;
        if (i < 16)      { f = (b & cc) | (~b & d);  g = i; }
        else if (i < 32) { f = (d & b) | (~d & cc);  g = (5 * i + 1) & 15; }
        else if (i < 48) { f = b ^ cc ^ d;           g = (3 * i + 5) & 15; }
        else             { f = cc ^ (b | ~d);        g = (7 * i) & 15; }
        uint32_t t = d;
        d = cc;
        cc = b;
        b = b + rotl32(a + f + md5_k[i] + m[g], md5_shift[i]);
        a = t;
    }
    c->state[0] += a;
    c->state[1] += b;
    c->state[2] += cc;
    c->state[3] += d;
}

void md5_init(md5_ctx *c) {
    if (!md5_k_ready) md5_make_k();
    c->state[0] = 0x67452301u;
    c->state[1] = 0xefcdab89u;
    c->state[2] = 0x98badcfeu;
    c->state[3] = 0x10325476u;
    c->length = 0;
}

void md5_update(md5_ctx *c, const void *data, size_t len) {
    const uint8_t *p = data;
    size_t used = (size_t)(c->length & 63);
    c->length += len;
    if (used) {
        size_t take = 64 - used < len ? 64 - used : len;
        memcpy(c->block + used, p, take);
        p += take;
        len -= take;
        if (used + take < 64) return;
        md5_block(c, c->block);
    }
    for (; len >= 64; p += 64, len -= 64) md5_block(c, p);
    memcpy(c->block, p, len);
}

void md5_final_hex(md5_ctx *c, char hex[33]) {
    uint64_t bits = c->length * 8;
    uint8_t pad[72] = { 0x80 };
    size_t used = (size_t)(c->length & 63);
    size_t padlen = used < 56 ? 56 - used : 120 - used;
    md5_update(c, pad, padlen);
    uint8_t lenle[8];
    for (int i = 0; i < 8; i++) lenle[i] = (uint8_t)(bits >> (8 * i));
    md5_update(c, lenle, 8);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            snprintf(hex + 8 * i + 2 * j, 3, "%02x",
                     (unsigned)((c->state[i] >> (8 * j)) & 0xff));
}
