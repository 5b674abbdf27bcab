/*
 * auth_scram.c - SCRAM-SHA-256 server side, on OpenSSL's libcrypto.
 */
#include "server/auth_scram.h"

#include "engine/scram_verifier.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEY_LEN    32
#define SALT_LEN   16
#define NONCE_LEN  18
#define DEFAULT_ITER 4096

typedef struct scram_user {
    char   *name;
    int     iterations;
    uint8_t salt[64];
    int     salt_len;
    uint8_t stored_key[KEY_LEN];
    uint8_t server_key[KEY_LEN];
} scram_user;

struct scram_users {
    scram_user *v;
    int n, cap;
};

struct scram_state {
    scram_user  user;          /* a copy (or the mock one) */
    bool        known;
    int         step;          /* 0 before client-first, 1 before client-final, 2 done */
    char        gs2[64];       /* the GS2 header the client sent ("n,,") */
    char       *client_first_bare;
    char       *server_first;
    char       *nonce;         /* client nonce + server nonce */
};

/* ---- helpers ------------------------------------------------------------ */

static int b64_encode(const uint8_t *in, int n, char *out, size_t cap) {
    if ((size_t)(4 * ((n + 2) / 3) + 1) > cap) return -1;
    return EVP_EncodeBlock((unsigned char *)out, in, n);
}

/* Decodes standard base64 (with padding); returns bytes or -1. */
static int b64_decode(const char *in, size_t n, uint8_t *out, size_t cap) {
    if (n == 0 || n % 4 || n / 4 * 3 > cap) return -1;
    for (size_t i = 0; i < n; i++) {
        char ch = in[i];
        if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
              (ch >= '0' && ch <= '9') || ch == '+' || ch == '/' || ch == '='))
            return -1;
    }
    int m = EVP_DecodeBlock(out, (const unsigned char *)in, (int)n);
    if (m < 0) return -1;
    if (in[n - 1] == '=') m--;
    if (in[n - 2] == '=') m--;
    return m;
}

static void hmac(const uint8_t *key, size_t klen, const void *msg, size_t mlen,
                 uint8_t out[KEY_LEN]) {
    unsigned int olen = KEY_LEN;
    HMAC(EVP_sha256(), key, (int)klen, msg, mlen, out, &olen);
}

static int derive(const char *password, const uint8_t *salt, int salt_len,
                  int iterations, uint8_t stored[KEY_LEN], uint8_t server[KEY_LEN]) {
    return attu_scram_derive(password, salt, salt_len, iterations, stored, server);
}

int scram_make_verifier(const char *password, int iterations, char *out, size_t cap) {
    return attu_scram_make_verifier(password, iterations, out, cap);
}

/* Parses "SCRAM-SHA-256$iter:salt$stored:server". */
static int parse_verifier(const char *v, scram_user *u) {
    const char *p = v + strlen("SCRAM-SHA-256$");
    char *end;
    long iter = strtol(p, &end, 10);
    if (*end != ':' || iter <= 0 || iter > 10000000) return -1;
    const char *salt = end + 1;
    const char *dollar = strchr(salt, '$');
    if (!dollar) return -1;
    const char *stored = dollar + 1;
    const char *colon = strchr(stored, ':');
    if (!colon) return -1;
    const char *server = colon + 1;
    u->iterations = (int)iter;
    u->salt_len = b64_decode(salt, (size_t)(dollar - salt), u->salt, sizeof u->salt);
    uint8_t k[48];
    if (u->salt_len <= 0) return -1;
    if (b64_decode(stored, (size_t)(colon - stored), k, sizeof k) != KEY_LEN) return -1;
    memcpy(u->stored_key, k, KEY_LEN);
    if (b64_decode(server, strlen(server), k, sizeof k) != KEY_LEN) return -1;
    memcpy(u->server_key, k, KEY_LEN);
    return 0;
}

scram_users *scram_users_load(const char *path, attu_error *err) {
    FILE *f = fopen(path, "r");
    if (!f) {
        attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_FILE, 0,
                       "could not open users file \"%s\"", path);
        return NULL;
    }
    scram_users *us = calloc(1, sizeof *us);
    char line[1024];
    int lineno = 0;
    while (us && fgets(line, sizeof line, f)) {
        lineno++;
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        if (!n || line[0] == '#') continue;
        char *colon = strchr(line, ':');
        if (!colon || colon == line) {
            attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                           "%s:%d: expected user:password or user:SCRAM-SHA-256$...",
                           path, lineno);
            goto fail;
        }
        *colon = 0;
        const char *secret = colon + 1;
        if (us->n == us->cap) {
            int cap = us->cap ? us->cap * 2 : 8;
            scram_user *v = realloc(us->v, (size_t)cap * sizeof *v);
            if (!v) { attu_error_oom(err); goto fail; }
            us->v = v;
            us->cap = cap;
        }
        scram_user *u = &us->v[us->n];
        memset(u, 0, sizeof *u);
        if (!strncmp(secret, "SCRAM-SHA-256$", 14)) {
            if (parse_verifier(secret, u)) {
                attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                               "%s:%d: malformed SCRAM-SHA-256 verifier", path, lineno);
                goto fail;
            }
        } else {
            u->iterations = DEFAULT_ITER;
            u->salt_len = SALT_LEN;
            if (RAND_bytes(u->salt, SALT_LEN) != 1 ||
                derive(secret, u->salt, SALT_LEN, DEFAULT_ITER, u->stored_key, u->server_key)) {
                attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "could not hash a password");
                goto fail;
            }
        }
        u->name = strdup(line);
        if (!u->name) { attu_error_oom(err); goto fail; }
        us->n++;
    }
    fclose(f);
    return us;
fail:
    fclose(f);
    scram_users_free(us);
    return NULL;
}

void scram_users_free(scram_users *u) {
    if (!u) return;
    for (int i = 0; i < u->n; i++) free(u->v[i].name);
    OPENSSL_cleanse(u->v, (size_t)u->cap * sizeof *u->v);
    free(u->v);
    free(u);
}

int scram_users_count(const scram_users *u) { return u ? u->n : 0; }

bool scram_users_has(const scram_users *u, const char *user) {
    for (int i = 0; u && i < u->n; i++)
        if (!strcmp(u->v[i].name, user)) return true;
    return false;
}

scram_state *scram_begin(const scram_users *u, const char *user) {
    scram_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    for (int i = 0; u && i < u->n; i++) {
        if (!strcmp(u->v[i].name, user)) {
            s->user = u->v[i];
            s->known = true;
            break;
        }
    }
    if (!s->known) {   /* mock verifier: random keys nobody can match */
        s->user.iterations = DEFAULT_ITER;
        s->user.salt_len = SALT_LEN;
        RAND_bytes(s->user.salt, SALT_LEN);
        RAND_bytes(s->user.stored_key, KEY_LEN);
        RAND_bytes(s->user.server_key, KEY_LEN);
    }
    s->user.name = NULL;   /* never freed through the state */
    return s;
}

scram_state *scram_begin_verifier(const char *verifier) {
    scram_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    if (verifier && !parse_verifier(verifier, &s->user)) s->known = true;
    else {   /* no password: the mock verifier, which no proof matches */
        s->user.iterations = DEFAULT_ITER;
        s->user.salt_len = SALT_LEN;
        RAND_bytes(s->user.salt, SALT_LEN);
        RAND_bytes(s->user.stored_key, KEY_LEN);
        RAND_bytes(s->user.server_key, KEY_LEN);
    }
    s->user.name = NULL;
    return s;
}

void scram_free(scram_state *s) {
    if (!s) return;
    free(s->client_first_bare);
    free(s->server_first);
    free(s->nonce);
    OPENSSL_cleanse(s, sizeof *s);
    free(s);
}

static int bad(attu_error *err, const char *what) {
    return attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
                          "malformed SCRAM message (%s)", what);
}

/* Printable ASCII except ',' (RFC 5802 "printable"). */
static bool printable_nonce(const char *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i] < 0x21 || p[i] > 0x7e || p[i] == ',') return false;
    return n > 0;
}

int scram_client_first(scram_state *s, const char *msg, size_t len,
                       char **out, attu_error *err) {
    *out = NULL;
    if (s->step != 0) return bad(err, "unexpected client-first message");
    char *m = strndup(msg, len);
    if (!m) return attu_error_oom(err);
    if (strlen(m) != len) { free(m); return bad(err, "NUL byte"); }
    /* gs2-header: cbind-flag "," [authzid] "," */
    if (m[0] == 'p') { free(m); return attu_error_set(err, ATTU_SQLSTATE_PROTOCOL_VIOLATION, 0,
        "channel binding is not supported (no SSL)"); }
    if ((m[0] != 'n' && m[0] != 'y') || m[1] != ',') { free(m); return bad(err, "gs2 flag"); }
    char *c2 = strchr(m + 2, ',');
    if (!c2 || (size_t)(c2 + 1 - m) >= sizeof s->gs2) { free(m); return bad(err, "gs2 header"); }
    memcpy(s->gs2, m, (size_t)(c2 + 1 - m));
    s->gs2[c2 + 1 - m] = 0;
    char *bare = c2 + 1;
    /* n=<user>,r=<nonce>[,ext...]; PostgreSQL uses the startup user name. */
    if (strncmp(bare, "n=", 2)) { free(m); return bad(err, "user name"); }
    char *r = strstr(bare, ",r=");
    if (!r) { free(m); return bad(err, "nonce"); }
    char *nonce = r + 3;
    size_t nlen = strcspn(nonce, ",");
    if (!printable_nonce(nonce, nlen)) { free(m); return bad(err, "nonce"); }
    uint8_t raw[NONCE_LEN];
    char snonce[64], salt64[128];
    if (RAND_bytes(raw, sizeof raw) != 1) { free(m); return attu_error_oom(err); }
    b64_encode(raw, NONCE_LEN, snonce, sizeof snonce);
    b64_encode(s->user.salt, s->user.salt_len, salt64, sizeof salt64);
    size_t full = nlen + strlen(snonce);
    s->nonce = malloc(full + 1);
    s->client_first_bare = strdup(bare);
    size_t cap = full + strlen(salt64) + 64;
    s->server_first = malloc(cap);
    if (!s->nonce || !s->client_first_bare || !s->server_first) { free(m); return attu_error_oom(err); }
    memcpy(s->nonce, nonce, nlen);
    strcpy(s->nonce + nlen, snonce);
    snprintf(s->server_first, cap, "r=%s,s=%s,i=%d", s->nonce, salt64, s->user.iterations);
    free(m);
    *out = strdup(s->server_first);
    if (!*out) return attu_error_oom(err);
    s->step = 1;
    return 0;
}

int scram_client_final(scram_state *s, const char *msg, size_t len,
                       char **out, attu_error *err) {
    *out = NULL;
    if (s->step != 1) return bad(err, "unexpected client-final message");
    char *m = strndup(msg, len);
    if (!m) return attu_error_oom(err);
    int rc = -1;
    if (strlen(m) != len) { bad(err, "NUL byte"); goto done; }
    /* c=<b64 gs2 header>,r=<nonce>[,ext...],p=<proof> */
    char *p = strstr(m, ",p=");
    if (strncmp(m, "c=", 2) || !p) { bad(err, "client-final"); goto done; }
    char *rr = strstr(m, ",r=");
    if (!rr || rr > p) { bad(err, "client-final nonce"); goto done; }
    char cbind[96];
    b64_encode((const uint8_t *)s->gs2, (int)strlen(s->gs2), cbind, sizeof cbind);
    size_t clen = (size_t)(rr - (m + 2));
    if (clen != strlen(cbind) || memcmp(m + 2, cbind, clen)) {
        bad(err, "channel binding"); goto done;
    }
    char *nonce = rr + 3;
    size_t nlen = strcspn(nonce, ",");
    if (nlen != strlen(s->nonce) || memcmp(nonce, s->nonce, nlen)) {
        bad(err, "nonce mismatch"); goto done;
    }
    uint8_t proof[48];
    if (b64_decode(p + 3, strlen(p + 3), proof, sizeof proof) != KEY_LEN) {
        bad(err, "proof"); goto done;
    }
    /* AuthMessage = client-first-bare "," server-first "," client-final-without-proof */
    size_t wlen = (size_t)(p - m);
    size_t alen = strlen(s->client_first_bare) + strlen(s->server_first) + wlen + 3;
    char *auth = malloc(alen);
    if (!auth) { attu_error_oom(err); goto done; }
    int an = snprintf(auth, alen, "%s,%s,%.*s", s->client_first_bare, s->server_first,
                      (int)wlen, m);
    uint8_t sig[KEY_LEN], client_key[KEY_LEN], check[KEY_LEN], server_sig[KEY_LEN];
    hmac(s->user.stored_key, KEY_LEN, auth, (size_t)an, sig);
    for (int i = 0; i < KEY_LEN; i++) client_key[i] = proof[i] ^ sig[i];
    SHA256(client_key, KEY_LEN, check);
    hmac(s->user.server_key, KEY_LEN, auth, (size_t)an, server_sig);
    free(auth);
    if (!s->known || CRYPTO_memcmp(check, s->user.stored_key, KEY_LEN)) {
        attu_error_set(err, ATTU_SQLSTATE_INVALID_PASSWORD, 0, "password authentication failed");
        goto done;
    }
    char v[64];
    b64_encode(server_sig, KEY_LEN, v, sizeof v);
    size_t olen = strlen(v) + 3;
    *out = malloc(olen);
    if (!*out) { attu_error_oom(err); goto done; }
    snprintf(*out, olen, "v=%s", v);
    s->step = 2;
    rc = 0;
done:
    free(m);
    return rc;
}
