/*
 * scram_verifier.h - SCRAM-SHA-256 verifiers as PostgreSQL stores them in
 * pg_authid.rolpassword:
 *
 *     SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>
 *
 * (base64 salt and keys). CREATE / ALTER ROLE ... PASSWORD makes one here
 * (db/db_role.c); the server's SCRAM exchange (server/auth_scram.c)
 * derives its keys with attu_scram_derive too.
 */
#ifndef ATTU_ENGINE_SCRAM_VERIFIER_H
#define ATTU_ENGINE_SCRAM_VERIFIER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ATTU_SCRAM_KEY_LEN     32
#define ATTU_SCRAM_ITERATIONS  4096   /* PostgreSQL's scram_iterations */

/* The StoredKey and ServerKey of password under salt; -1 on failure. */
int attu_scram_derive(const char *password, const uint8_t *salt, int salt_len, int iterations,
                      uint8_t stored[ATTU_SCRAM_KEY_LEN], uint8_t server[ATTU_SCRAM_KEY_LEN]);
/* A verifier for password with a random 16-byte salt, into out; -1 on
 * failure (cap too small: 160 bytes are enough). */
int attu_scram_make_verifier(const char *password, int iterations, char *out, size_t cap);
/* Whether s is written as a verifier (PostgreSQL then stores such a
 * "password" as it is). */
bool attu_scram_is_verifier(const char *s);

#endif
