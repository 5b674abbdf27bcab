/*
 * bytea.c - PostgreSQL's bytea: input, the held hex form, and the
 * functions of bytes (engine/bytea.h).
 */
#include "engine/bytea.h"
#include "engine/md5.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

static int hex_value(unsigned char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* The bytes of one UTF-8 character starting with lead byte ch (1 where ch
 * starts none), as PostgreSQL's error messages show them. */
static size_t utf8_len(unsigned char ch) {
    return ch >= 0xc0 && ch < 0xe0 ? 2 : ch >= 0xe0 && ch < 0xf0 ? 3 : ch >= 0xf0 && ch < 0xf8 ? 4 : 1;
}

static int hex_decode(const char *s, size_t len, uint8_t *out, size_t *n, attu_error *err) {
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r') { i++; continue; }
        int hi = hex_value(ch);
        if (hi < 0) {
            size_t l = utf8_len(ch);
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "invalid hexadecimal digit: \"%.*s\"",
                                  (int)(l < len - i ? l : len - i), s + i);
        }
        if (++i >= len)
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "invalid hexadecimal data: odd number of digits");
        int lo = hex_value((unsigned char)s[i]);
        if (lo < 0) {
            size_t l = utf8_len((unsigned char)s[i]);
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "invalid hexadecimal digit: \"%.*s\"",
                                  (int)(l < len - i ? l : len - i), s + i);
        }
        i++;
        out[o++] = (uint8_t)(hi << 4 | lo);
    }
    *n = o;
    return 0;
}

/* The escape format: \ooo (first digit 0-3) and \\; any other byte as is. */
static int escape_decode(const char *s, size_t len, uint8_t *out, size_t *n, attu_error *err) {
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        if (s[i] != '\\') { out[o++] = (uint8_t)s[i++]; continue; }
        if (i + 3 < len && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' &&
            s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
            out[o++] = (uint8_t)(((s[i + 1] - '0') << 6) | ((s[i + 2] - '0') << 3) | (s[i + 3] - '0'));
            i += 4;
        } else if (i + 1 < len && s[i + 1] == '\\') {
            out[o++] = '\\';
            i += 2;
        } else {
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_TEXT_REP, 0, "invalid input syntax for type bytea");
        }
    }
    *n = o;
    return 0;
}

int attu_bytea_parse(const char *s, size_t len, uint8_t **out, size_t *n, attu_error *err) {
    uint8_t *b = malloc(len + 1);
    if (!b) return attu_error_oom(err);
    int rc = len >= 2 && s[0] == '\\' && s[1] == 'x' ? hex_decode(s + 2, len - 2, b, n, err)
                                                     : escape_decode(s, len, b, n, err);
    if (rc) { free(b); return -1; }
    *out = b;
    return 0;
}

size_t attu_bytea_format(const uint8_t *b, size_t n, char *out) {
    static const char digits[] = "0123456789abcdef";
    out[0] = '\\'; out[1] = 'x';
    for (size_t i = 0; i < n; i++) {
        out[2 + 2 * i] = digits[b[i] >> 4];
        out[3 + 2 * i] = digits[b[i] & 15];
    }
    out[2 + 2 * n] = 0;
    return 2 + 2 * n;
}

size_t attu_bytea_unhex(const char *h, size_t len, uint8_t *out) {
    size_t n = len >= 2 ? (len - 2) / 2 : 0;
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)(hex_value((unsigned char)h[2 + 2 * i]) << 4 | hex_value((unsigned char)h[3 + 2 * i]));
    return n;
}

int attu_bytea_canonical(const char *s, size_t len, char **out, size_t *n, attu_error *err) {
    uint8_t *b;
    size_t nb;
    if (attu_bytea_parse(s, len, &b, &nb, err)) return -1;
    char *h = malloc(2 * nb + 3);
    if (!h) { free(b); return attu_error_oom(err); }
    *n = attu_bytea_format(b, nb, h);
    free(b);
    *out = h;
    return 0;
}

/* ---- SHA-224 / 256 / 384 / 512 ---------------------------------------------------------------- */

/* The digest of nd bytes (28, 32, 48 or 64) of data into out, through
 * OpenSSL's (libcrypto, which the server's SCRAM authentication uses too);
 * -1 if it fails (out of memory). */
static int sha2_digest(const uint8_t *data, size_t len, size_t nd, uint8_t *out) {
    const EVP_MD *md = nd == 28 ? EVP_sha224() : nd == 32 ? EVP_sha256() : nd == 48 ? EVP_sha384() : EVP_sha512();
    unsigned int n = 0;
    return EVP_Digest(data, len, out, &n, md, NULL) == 1 && n == nd ? 0 : -1;
}

/* ---- encode / decode ----------------------------------------------------------------- */

typedef struct obuf { char *p; size_t len, cap; bool oom; } obuf;

static void ob_put(obuf *b, const void *s, size_t n) {
    if (b->oom) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (b->len + n + 1 > cap) cap *= 2;
        char *np = realloc(b->p, cap);
        if (!np) { b->oom = true; return; }
        b->p = np; b->cap = cap;
    }
    if (n) memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

static const char b64_digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* The format names of encode / decode, as PostgreSQL spells them (any case). */
static int format_of(const char *s, size_t len) {
    static const char *const names[] = { "hex", "base64", "escape" };
    for (int k = 0; k < 3; k++)
        if (strlen(names[k]) == len && !strncasecmp(names[k], s, len)) return k;
    return -1;
}

static int encode_bytes(const uint8_t *b, size_t n, int fmt, obuf *out) {
    static const char digits[] = "0123456789abcdef";
    if (fmt == 0) {
        for (size_t i = 0; i < n; i++) { char two[2] = { digits[b[i] >> 4], digits[b[i] & 15] }; ob_put(out, two, 2); }
    } else if (fmt == 1) {
        /* lines of 76 characters, as PostgreSQL's base64 */
        size_t line = 0;
        for (size_t i = 0; i < n; i += 3) {
            uint32_t v = (uint32_t)b[i] << 16 | (i + 1 < n ? (uint32_t)b[i + 1] << 8 : 0) | (i + 2 < n ? b[i + 2] : 0);
            char q[4] = { b64_digits[v >> 18 & 63], b64_digits[v >> 12 & 63], i + 1 < n ? b64_digits[v >> 6 & 63] : '=',
                          i + 2 < n ? b64_digits[v & 63] : '=' };
            if (line >= 76) { ob_put(out, "\n", 1); line = 0; }
            ob_put(out, q, 4);
            line += 4;
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            if (b[i] == 0 || b[i] >= 0x80) {
                char o[5];
                snprintf(o, sizeof o, "\\%03o", b[i]);
                ob_put(out, o, 4);
            } else if (b[i] == '\\') ob_put(out, "\\\\", 2);
            else ob_put(out, &b[i], 1);
        }
    }
    return 0;
}

static int b64_value(unsigned char ch) {
    const char *p = ch && ch < 127 ? strchr(b64_digits, ch) : NULL;
    return p ? (int)(p - b64_digits) : -1;
}

static int base64_decode(const char *s, size_t len, uint8_t *out, size_t *n, attu_error *err) {
    uint32_t buf = 0;
    int pos = 0, end = 0;
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        int v;
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') continue;
        if (ch == '=') {
            if (!end) {
                if (pos == 2) end = 1;
                else if (pos == 3) end = 2;
                else return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "unexpected \"=\" while decoding base64 sequence");
            }
            v = 0;
        } else {
            v = b64_value(ch);
            if (v < 0) {
                size_t l = utf8_len(ch);
                return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                                      "invalid symbol \"%.*s\" found while decoding base64 sequence",
                                      (int)(l < len - i ? l : len - i), s + i);
            }
        }
        buf = buf << 6 | (uint32_t)v;
        if (++pos == 4) {
            out[o++] = (uint8_t)(buf >> 16);
            if (!end || end > 1) out[o++] = (uint8_t)(buf >> 8);
            if (!end || end > 2) out[o++] = (uint8_t)buf;
            buf = 0; pos = 0;
        }
    }
    if (pos) {
        attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "invalid base64 end sequence");
        attu_error_set_hint(err, "Input data is missing padding, is truncated, or is otherwise corrupted.");
        return -1;
    }
    *n = o;
    return 0;
}

/* The length of a valid UTF-8 character at s (of at most len bytes), 0
 * where none is (NUL is none: text holds no NUL). */
static size_t utf8_valid(const uint8_t *s, size_t len) {
    uint8_t c = s[0];
    if (c == 0) return 0;
    if (c < 0x80) return 1;
    size_t l = utf8_len(c);
    if (l == 1 || l > len) return 0;
    for (size_t k = 1; k < l; k++) if ((s[k] & 0xc0) != 0x80) return 0;
    if (l == 2 && c < 0xc2) return 0;
    if (l == 3 && ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0))) return 0;
    if (l == 4 && ((c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] >= 0x90) || c > 0xf4)) return 0;
    return l;
}

/* Whether an encoding name is UTF8 (PostgreSQL's spellings: utf8, UTF-8,
 * unicode ...; the server encoding is UTF8, the only one attu holds). */
static bool is_utf8_name(const char *s, size_t len) {
    char b[16];
    size_t n = 0;
    for (size_t i = 0; i < len && n < sizeof b - 1; i++)
        if ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9')) b[n++] = s[i];
        else if (s[i] >= 'A' && s[i] <= 'Z') b[n++] = (char)(s[i] - 'A' + 'a');
    b[n] = 0;
    return !strcmp(b, "utf8") || !strcmp(b, "unicode");
}

/* ---- LIKE ---------------------------------------------------------------------------- */

/* Whether bytes s match the LIKE pattern p (% any run, _ one byte, \\ the
 * next byte as itself), as PostgreSQL's bytea LIKE; -1 with 22025 for a
 * pattern ending in the escape. The star's last position is kept, so the
 * match is linear in s per star (the classic backtracking of one star). */
static int like_bytes(const uint8_t *s, size_t ns, const uint8_t *p, size_t np, attu_error *err) {
    size_t i = 0, j = 0, star_j = (size_t)-1, star_i = 0;
    for (size_t k = 0; k < np; k++)
        if (p[k] == '\\') {
            if (k + 1 == np)
                return attu_error_set(err, "22025", 0, "LIKE pattern must not end with escape character");
            k++;
        }
    while (i < ns) {
        if (j < np && p[j] == '%') { star_j = j++; star_i = i; continue; }
        if (j < np && (p[j] == '_' || (p[j] == '\\' ? p[j + 1] == s[i] : p[j] == s[i]))) {
            j += p[j] == '\\' ? 2 : 1;
            i++;
            continue;
        }
        if (star_j == (size_t)-1) return 0;
        j = star_j + 1;
        i = ++star_i;
    }
    while (j < np && p[j] == '%') j++;
    return j == np;
}

/* ---- the run ------------------------------------------------------------------------ */

/* substr of n bytes from start (1-based), count bytes (count < 0: none given) */
static int sub_range(size_t n, int64_t start, int64_t count, bool has_count, size_t *from, size_t *to, attu_error *err) {
    if (has_count && count < 0)
        return attu_error_set(err, "22011", 0, "negative substring length not allowed");
    int64_t s = start < 1 ? 1 : start;
    int64_t e = has_count ? start + count : (int64_t)n + 1;   /* one past the last */
    if (e > (int64_t)n + 1) e = (int64_t)n + 1;
    if (s > (int64_t)n + 1) s = (int64_t)n + 1;
    if (e < s) e = s;
    *from = (size_t)(s - 1);
    *to = (size_t)(e - 1);
    return 0;
}

int attu_bytea_run(const attu_instr *in, const attu_slot *A, const attu_slot *B, const attu_slot *C,
                   const attu_slot *Dd, const attu_slot *G, attu_slot *D, size_t n,
                   char *(*alloc)(void *ctx, size_t n), void *ctx, attu_error *err) {
    attu_bytea_fn f = (attu_bytea_fn)in->aux;
    obuf res = { 0 };
    uint8_t *ba = NULL, *bb = NULL;
    int rc = 0;
    for (size_t r = 0; r < n && !rc; r++) {
        attu_slot *o = &D[r];
        memset(o, 0, sizeof *o);
        o->null = 1;
        if (G && (G[r].null || !G[r].v.i)) continue;
        if ((A && A[r].null) || (B && B[r].null) || (C && C[r].null) || (Dd && Dd[r].null)) continue;
        free(ba); free(bb); ba = bb = NULL;
        res.len = 0;
        ob_put(&res, "", 0);
        bool as_bytea = false, as_text = false;
        size_t na = 0, nb = 0;
        /* the bytea operands decoded */
        bool a_bytes = f != ATTU_BY_IN && f != ATTU_BY_DECODE && f != ATTU_BY_CONVERT_TO;
        bool b_bytes = f == ATTU_BY_CONCAT || f == ATTU_BY_POSITION || f == ATTU_BY_OVERLAY || f == ATTU_BY_LIKE ||
                       f == ATTU_BY_TRIM;
        if (a_bytes) {
            if (!(ba = malloc(A[r].len / 2 + 1))) { rc = attu_error_oom(err); break; }
            na = attu_bytea_unhex(A[r].v.s, A[r].len, ba);
        }
        if (b_bytes) {
            if (!(bb = malloc(B[r].len / 2 + 1))) { rc = attu_error_oom(err); break; }
            nb = attu_bytea_unhex(B[r].v.s, B[r].len, bb);
        }
        switch (f) {
        case ATTU_BY_IN: {
            uint8_t *x;
            size_t nx;
            if (attu_bytea_parse(A[r].v.s, A[r].len, &x, &nx, err)) { rc = -1; break; }
            ob_put(&res, x, nx);
            free(x);
            as_bytea = true;
            break;
        }
        case ATTU_BY_CONCAT:
            ob_put(&res, ba, na);
            ob_put(&res, bb, nb);
            as_bytea = true;
            break;
        case ATTU_BY_LENGTH:
            o->null = 0; o->v.i = (int64_t)na * (in->imm_i ? in->imm_i : 1);
            break;
        case ATTU_BY_LIKE: {
            int m = like_bytes(ba, na, bb, nb, err);
            if (m < 0) { rc = -1; break; }
            o->null = 0; o->v.i = m;
            break;
        }
        case ATTU_BY_TRIM: {
            /* the bytes of b stripped from a's ends */
            size_t from = 0, to = na;
            if (in->imm_i & 1) while (from < to && memchr(bb, ba[from], nb)) from++;
            if (in->imm_i & 2) while (to > from && memchr(bb, ba[to - 1], nb)) to--;
            ob_put(&res, ba + from, to - from);
            as_bytea = true;
            break;
        }
        case ATTU_BY_SUBSTR: {
            size_t from = 0, to = 0;
            if (sub_range(na, B[r].v.i, C ? C[r].v.i : 0, C != NULL, &from, &to, err)) { rc = -1; break; }
            ob_put(&res, ba + from, to - from);
            as_bytea = true;
            break;
        }
        case ATTU_BY_POSITION: {
            int64_t at = 0;
            if (nb == 0) at = 1;
            else
                for (size_t i = 0; i + nb <= na; i++)
                    if (!memcmp(ba + i, bb, nb)) { at = (int64_t)i + 1; break; }
            o->null = 0; o->v.i = at;
            break;
        }
        case ATTU_BY_OVERLAY: {
            int64_t sp = C[r].v.i, sl = Dd ? Dd[r].v.i : (int64_t)nb;
            size_t f1 = 0, t1 = 0, f2 = 0, t2 = 0;
            if (sub_range(na, 1, sp - 1, true, &f1, &t1, err) || sub_range(na, sp + sl, 0, false, &f2, &t2, err)) {
                rc = -1;
                break;
            }
            ob_put(&res, ba + f1, t1 - f1);
            ob_put(&res, bb, nb);
            ob_put(&res, ba + f2, t2 - f2);
            as_bytea = true;
            break;
        }
        case ATTU_BY_GET_BYTE: case ATTU_BY_SET_BYTE: {
            int64_t k = B[r].v.i;
            if (k < 0 || (size_t)k >= na) {
                rc = attu_error_set(err, "2202E", 0, "index %lld out of valid range, 0..%lld", (long long)k, (long long)na - 1);
                break;
            }
            if (f == ATTU_BY_GET_BYTE) { o->null = 0; o->v.i = ba[k]; break; }
            ba[k] = (uint8_t)C[r].v.i;
            ob_put(&res, ba, na);
            as_bytea = true;
            break;
        }
        case ATTU_BY_GET_BIT: case ATTU_BY_SET_BIT: {
            int64_t k = B[r].v.i;
            if (k < 0 || (uint64_t)k >= (uint64_t)na * 8) {
                rc = attu_error_set(err, "2202E", 0, "index %lld out of valid range, 0..%lld", (long long)k,
                                    (long long)na * 8 - 1);
                break;
            }
            int bit = (int)(k % 8);
            if (f == ATTU_BY_GET_BIT) { o->null = 0; o->v.i = (ba[k / 8] >> bit) & 1; break; }
            if (C[r].v.i != 0 && C[r].v.i != 1) {
                rc = attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "new bit must be 0 or 1");
                break;
            }
            ba[k / 8] = (uint8_t)((ba[k / 8] & ~(1u << bit)) | ((unsigned)C[r].v.i << bit));
            ob_put(&res, ba, na);
            as_bytea = true;
            break;
        }
        case ATTU_BY_MD5: {
            char hex[32];
            attu_md5_hex(ba, na, hex);
            ob_put(&res, hex, 32);
            as_text = true;
            break;
        }
        case ATTU_BY_SHA256: {
            /* imm_i: the digest's bits, 224, 256 (the default), 384 or 512 */
            uint8_t d[64];
            size_t nd = in->imm_i ? (size_t)in->imm_i / 8 : 32;
            if (sha2_digest(ba, na, nd, d)) { rc = attu_error_oom(err); break; }
            ob_put(&res, d, nd);
            as_bytea = true;
            break;
        }
        case ATTU_BY_ENCODE: case ATTU_BY_DECODE: {
            int fmt = format_of(B[r].v.s, B[r].len);
            if (fmt < 0) {
                rc = attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "unrecognized encoding: \"%.*s\"", (int)B[r].len, B[r].v.s);
                break;
            }
            if (f == ATTU_BY_ENCODE) { encode_bytes(ba, na, fmt, &res); as_text = true; break; }
            uint8_t *x = malloc(A[r].len + 1);
            size_t nx = 0;
            if (!x) { rc = attu_error_oom(err); break; }
            rc = fmt == 0 ? hex_decode(A[r].v.s, A[r].len, x, &nx, err) : fmt == 1 ? base64_decode(A[r].v.s, A[r].len, x, &nx, err)
                                                                     : escape_decode(A[r].v.s, A[r].len, x, &nx, err);
            if (!rc) ob_put(&res, x, nx);
            free(x);
            as_bytea = true;
            break;
        }
        case ATTU_BY_CONVERT_FROM: case ATTU_BY_CONVERT_TO:
            if (!is_utf8_name(B[r].v.s, B[r].len)) {
                rc = attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "invalid %s encoding name \"%.*s\"",
                                    f == ATTU_BY_CONVERT_FROM ? "source" : "destination", (int)B[r].len, B[r].v.s);
                break;
            }
            if (f == ATTU_BY_CONVERT_TO) { ob_put(&res, A[r].v.s, A[r].len); as_bytea = true; break; }
            for (size_t i = 0; i < na;) {
                size_t l = utf8_valid(ba + i, na - i);
                if (!l) {
                    char shown[32] = "";
                    size_t sl = utf8_len(ba[i]);
                    if (sl > na - i) sl = na - i;
                    for (size_t k = 0; k < sl; k++)
                        snprintf(shown + strlen(shown), sizeof shown - strlen(shown), "%s0x%02x", k ? " " : "", ba[i + k]);
                    rc = attu_error_set(err, ATTU_SQLSTATE_CHARACTER_NOT_IN_REPERTOIRE, 0,
                                        "invalid byte sequence for encoding \"UTF8\": %s", shown);
                    break;
                }
                i += l;
            }
            if (!rc) { ob_put(&res, ba, na); as_text = true; }
            break;
        }
        if (rc) break;
        if (res.oom) { rc = attu_error_oom(err); break; }
        if (!as_bytea && !as_text) continue;
        size_t len = as_bytea ? 2 * res.len + 2 : res.len;
        if (len >= ((size_t)1 << 30)) { rc = attu_error_set(err, "54000", 0, "invalid memory alloc request size %zu", len + 1); break; }
        char *m = alloc(ctx, len + 1);
        if (!m) { rc = attu_error_oom(err); break; }
        if (as_bytea) attu_bytea_format((const uint8_t *)res.p, res.len, m);
        else { memcpy(m, res.p, res.len); m[res.len] = 0; }
        o->null = 0; o->v.s = m; o->len = (uint32_t)len;
    }
    free(ba); free(bb); free(res.p);
    return rc;
}
