/*
 * scram_verifier.c - making SCRAM-SHA-256 verifiers (scram_verifier.h),
 * on OpenSSL's libcrypto (RFC 5802: SaltedPassword = PBKDF2-HMAC-SHA-256,
 * ClientKey = HMAC(SaltedPassword, "Client Key"), StoredKey =
 * SHA-256(ClientKey), ServerKey = HMAC(SaltedPassword, "Server Key")).
 */
#include "engine/scram_verifier.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <string.h>

#define SALT_LEN 16

static void hmac(const uint8_t *key, size_t klen, const void *msg, size_t mlen, uint8_t out[ATTU_SCRAM_KEY_LEN]) {
    unsigned int olen = ATTU_SCRAM_KEY_LEN;
    HMAC(EVP_sha256(), key, (int)klen, msg, mlen, out, &olen);
}

int attu_scram_derive(const char *password, const uint8_t *salt, int salt_len, int iterations,
                      uint8_t stored[ATTU_SCRAM_KEY_LEN], uint8_t server[ATTU_SCRAM_KEY_LEN]) {
    uint8_t salted[ATTU_SCRAM_KEY_LEN], client_key[ATTU_SCRAM_KEY_LEN];
    if (!PKCS5_PBKDF2_HMAC(password, (int)strlen(password), salt, salt_len, iterations, EVP_sha256(),
                           ATTU_SCRAM_KEY_LEN, salted))
        return -1;
    hmac(salted, ATTU_SCRAM_KEY_LEN, "Client Key", 10, client_key);
    SHA256(client_key, ATTU_SCRAM_KEY_LEN, stored);
    hmac(salted, ATTU_SCRAM_KEY_LEN, "Server Key", 10, server);
    OPENSSL_cleanse(salted, sizeof salted);
    OPENSSL_cleanse(client_key, sizeof client_key);
    return 0;
}

int attu_scram_make_verifier(const char *password, int iterations, char *out, size_t cap) {
    uint8_t salt[SALT_LEN], stored[ATTU_SCRAM_KEY_LEN], server[ATTU_SCRAM_KEY_LEN];
    if (RAND_bytes(salt, sizeof salt) != 1) return -1;
    if (attu_scram_derive(password, salt, SALT_LEN, iterations, stored, server)) return -1;
    char s64[64], k1[64], k2[64];
    EVP_EncodeBlock((unsigned char *)s64, salt, SALT_LEN);
    EVP_EncodeBlock((unsigned char *)k1, stored, ATTU_SCRAM_KEY_LEN);
    EVP_EncodeBlock((unsigned char *)k2, server, ATTU_SCRAM_KEY_LEN);
    int n = snprintf(out, cap, "SCRAM-SHA-256$%d:%s$%s:%s", iterations, s64, k1, k2);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

bool attu_scram_is_verifier(const char *s) {
    /* the shape: prefix, iterations, ':', salt, '$', key, ':', key, no blanks */
    if (strncmp(s, "SCRAM-SHA-256$", 14)) return false;
    const char *p = s + 14;
    if (*p < '0' || *p > '9') return false;
    while (*p >= '0' && *p <= '9') p++;
    if (*p != ':') return false;
    const char *d = strchr(p, '$');
    if (!d || !strchr(d, ':')) return false;
    for (const char *q = s; *q; q++) if (*q <= ' ') return false;
    return true;
}
