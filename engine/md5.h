/*
 * md5.h - MD5 message digests (RFC 1321) for SQL's md5(text).
 *
 * PostgreSQL's md5() returns the digest of the value's bytes (its UTF-8
 * encoding here) as 32 lowercase hexadecimal digits. MD5 is no longer a
 * secure hash; it is here because queries use md5() to fingerprint values.
 */
#ifndef ATTU_ENGINE_MD5_H
#define ATTU_ENGINE_MD5_H

#include <stddef.h>

/* Writes the digest of data[0..len) as 32 lowercase hex digits (no NUL)
 * into hex. */
void attu_md5_hex(const void *data, size_t len, char hex[32]);

#endif
