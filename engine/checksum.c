/*
 * checksum.c - CRC-32C, portable slicing-by-8 and SSE4.2 (checksum.h).
 *
 * Reflected polynomial 0x82F63B78; the register is inverted on entry and
 * exit, so attu_crc32c(0, "123456789", 9) == 0xE3069283 (the standard check
 * value).
 */
#include "engine/checksum.h"

#include <pthread.h>
#include <string.h>

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void init_table(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
        table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int t = 1; t < 8; t++)
            table[t][i] = (table[t - 1][i] >> 8) ^ table[0][table[t - 1][i] & 0xff];
}

uint32_t attu_crc32c_portable(uint32_t crc, const void *data, size_t n) {
    pthread_once(&table_once, init_table);
    const unsigned char *p = data;
    uint32_t c = ~crc;
    while (n && ((uintptr_t)p & 7)) { c = (c >> 8) ^ table[0][(c ^ *p++) & 0xff]; n--; }
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);   /* little-endian hosts only (x86-64, aarch64) */
        w ^= c;
        c = table[7][w & 0xff] ^ table[6][(w >> 8) & 0xff] ^
            table[5][(w >> 16) & 0xff] ^ table[4][(w >> 24) & 0xff] ^
            table[3][(w >> 32) & 0xff] ^ table[2][(w >> 40) & 0xff] ^
            table[1][(w >> 48) & 0xff] ^ table[0][w >> 56];
        p += 8;
        n -= 8;
    }
    while (n--) c = (c >> 8) ^ table[0][(c ^ *p++) & 0xff];
    return ~c;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("sse4.2")))
static uint32_t crc32c_hw(uint32_t crc, const void *data, size_t n) {
    const unsigned char *p = data;
    uint64_t c = ~crc;
    while (n && ((uintptr_t)p & 7)) { c = __builtin_ia32_crc32qi((uint32_t)c, *p++); n--; }
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        c = __builtin_ia32_crc32di(c, w);
        p += 8;
        n -= 8;
    }
    while (n--) c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
    return ~(uint32_t)c;
}

uint32_t attu_crc32c(uint32_t crc, const void *data, size_t n) {
    /* Probed once; racing first callers store the same answer. */
    static int probed = -1;
    int have = __atomic_load_n(&probed, __ATOMIC_RELAXED);
    if (have < 0) {
        __builtin_cpu_init();
        have = __builtin_cpu_supports("sse4.2") ? 1 : 0;
        __atomic_store_n(&probed, have, __ATOMIC_RELAXED);
    }
    return have ? crc32c_hw(crc, data, n) : attu_crc32c_portable(crc, data, n);
}
#else
uint32_t attu_crc32c(uint32_t crc, const void *data, size_t n) {
    return attu_crc32c_portable(crc, data, n);
}
#endif
