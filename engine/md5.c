/*
 * md5.c - MD5 as RFC 1321 describes it (see md5.h).
 *
 * The message is padded with a 1 bit, zeros up to 56 bytes past a multiple
 * of 64, and its length in bits as a little-endian 64-bit number; each
 * 64-byte block, read as sixteen little-endian 32-bit words, goes through
 * four rounds of sixteen steps that update the state words A B C D. The
 * digest is A B C D, each little-endian.
 *
 * The whole value is in memory (a TEXT slot), so there is no streaming
 * interface: one call pads and hashes.
 */
#include "engine/md5.h"

#include <stdint.h>
#include <string.h>

/* T[i] = floor(2^32 * |sin(i + 1)|), i counted from 0 (the RFC's T[1..64]). */
static const uint32_t T[64] = {
    0xd76aa478u, 0xe8c7b756u, 0x242070dbu, 0xc1bdceeeu,
    0xf57c0fafu, 0x4787c62au, 0xa8304613u, 0xfd469501u,
    0x698098d8u, 0x8b44f7afu, 0xffff5bb1u, 0x895cd7beu,
    0x6b901122u, 0xfd987193u, 0xa679438eu, 0x49b40821u,
    0xf61e2562u, 0xc040b340u, 0x265e5a51u, 0xe9b6c7aau,
    0xd62f105du, 0x02441453u, 0xd8a1e681u, 0xe7d3fbc8u,
    0x21e1cde6u, 0xc33707d6u, 0xf4d50d87u, 0x455a14edu,
    0xa9e3e905u, 0xfcefa3f8u, 0x676f02d9u, 0x8d2a4c8au,
    0xfffa3942u, 0x8771f681u, 0x6d9d6122u, 0xfde5380cu,
    0xa4beea44u, 0x4bdecfa9u, 0xf6bb4b60u, 0xbebfbc70u,
    0x289b7ec6u, 0xeaa127fau, 0xd4ef3085u, 0x04881d05u,
    0xd9d4d039u, 0xe6db99e5u, 0x1fa27cf8u, 0xc4ac5665u,
    0xf4292244u, 0x432aff97u, 0xab9423a7u, 0xfc93a039u,
    0x655b59c3u, 0x8f0ccc92u, 0xffeff47du, 0x85845dd1u,
    0x6fa87e4fu, 0xfe2ce6e0u, 0xa3014314u, 0x4e0811a1u,
    0xf7537e82u, 0xbd3af235u, 0x2ad7d2bbu, 0xeb86d391u,
};

/* Left rotation amounts: four per round, repeated over its sixteen steps. */
static const unsigned S[4][4] = {
    { 7, 12, 17, 22 }, { 5, 9, 14, 20 }, { 4, 11, 16, 23 }, { 6, 10, 15, 21 },
};

static uint32_t rotl(uint32_t x, unsigned s) { return (x << s) | (x >> (32 - s)); }

static void md5_block(uint32_t st[4], const unsigned char *blk) {
    uint32_t X[16];
    for (int j = 0; j < 16; j++)
        X[j] = (uint32_t)blk[4 * j] | (uint32_t)blk[4 * j + 1] << 8 |
               (uint32_t)blk[4 * j + 2] << 16 | (uint32_t)blk[4 * j + 3] << 24;
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
    for (int i = 0; i < 64; i++) {
        int round = i / 16;
        uint32_t f;
        int k;
        /* the round's auxiliary function and the word order the RFC gives:
         * in order, then (1 + 5i), (5 + 3i) and 7i, all mod 16 */
        switch (round) {
        case 0: f = (b & c) | (~b & d); k = i; break;
        case 1: f = (b & d) | (c & ~d); k = (1 + 5 * i) % 16; break;
        case 2: f = b ^ c ^ d; k = (5 + 3 * i) % 16; break;
        default: f = c ^ (b | ~d); k = (7 * i) % 16; break;
        }
        /* a = b + ((a + f + X[k] + T[i]) <<< s), then the words turn:
         * the RFC's steps name (a b c d), (d a b c), (c d a b), (b c d a) */
        uint32_t t = d;
        d = c;
        c = b;
        b = b + rotl(a + f + X[k] + T[i], S[round][i % 4]);
        a = t;
    }
    st[0] += a; st[1] += b; st[2] += c; st[3] += d;
}

void attu_md5_hex(const void *data, size_t len, char hex[32]) {
    uint32_t st[4] = { 0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u };
    const unsigned char *p = data;
    size_t full = len / 64 * 64;
    for (size_t off = 0; off < full; off += 64) md5_block(st, p + off);
    /* the tail, the 0x80 byte, zeros and the bit length: one block, or two
     * when fewer than 9 bytes of the first are left */
    unsigned char tail[128];
    size_t rest = len - full;
    memset(tail, 0, sizeof tail);
    if (rest) memcpy(tail, p + full, rest);
    tail[rest] = 0x80;
    size_t tlen = rest + 1 + 8 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8u;
    for (int j = 0; j < 8; j++) tail[tlen - 8 + (size_t)j] = (unsigned char)(bits >> (8 * j));
    md5_block(st, tail);
    if (tlen == 128) md5_block(st, tail + 64);
    static const char digits[] = "0123456789abcdef";
    for (int w = 0; w < 4; w++)
        for (int j = 0; j < 4; j++) {
            unsigned byte = (st[w] >> (8 * j)) & 0xffu;
            hex[8 * w + 2 * j] = digits[byte >> 4];
            hex[8 * w + 2 * j + 1] = digits[byte & 15];
        }
}
