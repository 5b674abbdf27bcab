/*
 * auth_scram.h - SCRAM-SHA-256 (RFC 5802 / RFC 7677) as PostgreSQL speaks it.
 *
 * The users file holds one user per line, `name:secret`, where secret is
 * either a plain password (hashed once at load with a random salt) or a
 * PostgreSQL verifier as pg_authid stores it:
 *   SCRAM-SHA-256$<iterations>:<salt base64>$<StoredKey base64>:<ServerKey base64>
 * Blank lines and lines starting with '#' are ignored.
 *
 * An exchange is two round trips: client-first -> server-first, then
 * client-final (with the proof) -> server-final (the server's signature).
 * An unknown user runs the same exchange against a made-up verifier and
 * fails at the proof, so a client cannot tell unknown users apart.
 */
#ifndef ATTU_SERVER_AUTH_SCRAM_H
#define ATTU_SERVER_AUTH_SCRAM_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/error.h"

typedef struct scram_users scram_users;
typedef struct scram_state scram_state;

scram_users *scram_users_load(const char *path, attu_error *err);
void scram_users_free(scram_users *u);
int scram_users_count(const scram_users *u);
/* Whether the file has a line for user. */
bool scram_users_has(const scram_users *u, const char *user);

/* Starts an exchange for `user` (the startup packet's user name). */
scram_state *scram_begin(const scram_users *u, const char *user);
/* The same against one verifier (a created role's rolpassword,
 * engine/role.h); NULL verifier: a role without a password, whom no
 * proof lets in. */
scram_state *scram_begin_verifier(const char *verifier);
void scram_free(scram_state *s);

/* client-first-message in, server-first-message out (NUL-terminated,
 * malloc'ed into *out). Returns 0 or -1 with err (08P01 / 28P01). */
int scram_client_first(scram_state *s, const char *msg, size_t len,
                       char **out, attu_error *err);
/* client-final-message in, server-final-message out. Returns 0 when the
 * proof is right, -1 with 28P01 otherwise. */
int scram_client_final(scram_state *s, const char *msg, size_t len,
                       char **out, attu_error *err);

/* Makes a verifier string for password (used by tests and --users files). */
int scram_make_verifier(const char *password, int iterations, char *out, size_t cap);

#endif
