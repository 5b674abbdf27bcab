/*
 * md5.h - a small MD5 (RFC 1321) for hashing large query results in the
 * SQL logic tests ("N values hashing to <md5>"). Not for security.
 */
#ifndef ATTU_TESTS_SQL_MD5_H
#define ATTU_TESTS_SQL_MD5_H

#include <stddef.h>
#include <stdint.h>

typedef struct md5_ctx {
    uint32_t state[4];
    uint64_t length;        /* bytes hashed so far */
    uint8_t  block[64];     /* pending input, length % 64 bytes of it used */
} md5_ctx;

void md5_init(md5_ctx *c);
void md5_update(md5_ctx *c, const void *data, size_t len);
/* Writes 32 lowercase hex digits and a NUL into hex[33]. */
void md5_final_hex(md5_ctx *c, char hex[33]);

#endif
