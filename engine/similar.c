/*
 * similar.c - SIMILAR TO (see similar.h), translated to a POSIX extended
 * regular expression as PostgreSQL's similar_escape translates it to its
 * own regex dialect.
 *
 * attud runs in the C locale, so the regex engine sees bytes: one
 * character of UTF-8 text (_) is spelled out as the byte sequences of one
 * UTF-8 character, and % as any bytes. Characters inside a [...] class
 * are bytes (a class of ASCII characters behaves as PostgreSQL's). The
 * escapes \d \D \s \S \w \W, which PostgreSQL's regex dialect gives to an
 * escaped letter, become the equivalent classes; other escaped letters
 * are taken literally.
 */
#include "engine/similar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One UTF-8 character (PostgreSQL's server encoding): ASCII, or a lead
 * byte and its continuation bytes. */
#define UTF8_CHAR "([\x01-\x7f]|[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf][\x80-\xbf]|[\xf0-\xf4][\x80-\xbf][\x80-\xbf][\x80-\xbf])"

typedef struct sbuf {
    char  *s;
    size_t n, cap;
} sbuf;

static bool put(sbuf *b, const char *t, size_t n) {
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 64) + n;
        char *s = realloc(b->s, cap);
        if (!s) return false;
        b->s = s;
        b->cap = cap;
    }
    memcpy(b->s + b->n, t, n);
    b->n += n;
    b->s[b->n] = '\0';
    return true;
}
static bool putc_(sbuf *b, char c) { return put(b, &c, 1); }
static bool puts__(sbuf *b, const char *t) { return put(b, t, strlen(t)); }

/* The escaped character c outside a class, as the regex spells it. */
static bool put_escaped(sbuf *b, char c) {
    switch (c) {
    case 'd': return puts__(b, "[0-9]");
    case 'D': return puts__(b, "[^0-9]");
    case 's': return puts__(b, "[[:space:]]");
    case 'S': return puts__(b, "[^[:space:]]");
    case 'w': return puts__(b, "[[:alnum:]_]");
    case 'W': return puts__(b, "[^[:alnum:]_]");
    default: break;
    }
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || (unsigned char)c >= 0x80)
        return putc_(b, c);                 /* a letter or digit: itself */
    return putc_(b, '\\') && putc_(b, c);   /* punctuation: literal */
}

static int translate(const char *p, size_t plen, int esc, sbuf *b, attu_error *err) {
    bool ok = puts__(b, "^(");
    bool after_esc = false, in_class = false;
    size_t class_pos = 0;
    for (size_t i = 0; i < plen && ok; i++) {
        char c = p[i];
        if (after_esc) {
            if (c == '"' && !in_class)
                return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                                      "SIMILAR TO patterns with escape-double-quote are not supported");
            ok = in_class ? (c == '\\' ? puts__(b, "\\\\") : putc_(b, c)) : put_escaped(b, c);
            after_esc = false;
        } else if (esc >= 0 && (unsigned char)c == (unsigned)esc) {
            after_esc = true;
        } else if (in_class) {
            /* a class ends at ] unless the ] is its first member */
            ok = putc_(b, c);
            class_pos++;
            if (c == ']' && class_pos > 1 && !(class_pos == 2 && p[i - 1] == '^')) in_class = false;
        } else if (c == '[') {
            ok = putc_(b, c);
            in_class = true;
            class_pos = 0;
        } else if (c == '%') {
            ok = puts__(b, ".*");
        } else if (c == '_') {
            ok = puts__(b, UTF8_CHAR);
        } else if (c == '\\' || c == '.' || c == '^' || c == '$') {
            ok = putc_(b, '\\') && putc_(b, c);
        } else {
            ok = putc_(b, c);
        }
    }
    /* a trailing escape character is dropped, as PostgreSQL drops it */
    if (!ok || !puts__(b, ")$")) return attu_error_oom(err);
    return 0;
}

int attu_similar_prepare(attu_similar *s, const char *pat, size_t plen, const char *esc, size_t elen,
                         bool has_esc, attu_error *err) {
    if (s->compiled && s->plen == plen && !memcmp(s->pat, pat, plen) && s->has_esc == has_esc &&
        (!has_esc || (s->elen == elen && !memcmp(s->esc, esc, elen))))
        return 0;
    attu_similar_free(s);
    int e = '\\';
    if (has_esc) {
        /* one UTF-8 character: its length from the lead byte */
        unsigned char l = elen ? (unsigned char)esc[0] : 0;
        size_t one = l < 0x80 ? 1 : l >= 0xf0 ? 4 : l >= 0xe0 ? 3 : 2;
        if (elen > 1 && elen == one)
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "a non-ASCII ESCAPE character is not supported");
        if (elen > 1) {
            attu_error_set(err, "22025", 0, "invalid escape string");
            attu_error_set_hint(err, "Escape string must be empty or one character.");
            return -1;
        }
        e = elen ? l : -1;
    }
    sbuf b = { NULL, 0, 0 };
    if (translate(pat, plen, e, &b, err)) { free(b.s); return -1; }
    int rc = regcomp(&s->re, b.s, REG_EXTENDED | REG_NOSUB);
    free(b.s);
    if (rc) {
        /* PostgreSQL's wording for the errors both engines know */
        char msg[128];
        const char *pg = rc == REG_EPAREN ? "parentheses () not balanced" : rc == REG_EBRACK ? "brackets [] not balanced"
                       : rc == REG_EBRACE ? "braces {} not balanced" : rc == REG_BADRPT ? "quantifier operand invalid"
                       : rc == REG_ERANGE ? "invalid character range" : rc == REG_BADBR ? "invalid repetition count(s)"
                       : rc == REG_ECTYPE ? "invalid character class" : rc == REG_EESCAPE ? "invalid escape \\ sequence" : NULL;
        if (!pg) { regerror(rc, &s->re, msg, sizeof msg); pg = msg; }
        regfree(&s->re);
        return attu_error_set(err, "2201B", 0, "invalid regular expression: %s", pg);
    }
    s->pat = malloc(plen + 1);
    s->esc = malloc(elen + 1);
    if (!s->pat || !s->esc) { regfree(&s->re); free(s->pat); free(s->esc); s->pat = s->esc = NULL; return attu_error_oom(err); }
    if (plen) memcpy(s->pat, pat, plen);
    if (elen) memcpy(s->esc, esc, elen);
    s->plen = plen; s->elen = elen; s->has_esc = has_esc;
    s->compiled = true;
    return 0;
}

bool attu_similar_match(const attu_similar *s, const char *str, size_t len) {
    char small[256];
    char *buf = len < sizeof small ? small : malloc(len + 1);
    if (!buf) return false;
    if (len) memcpy(buf, str, len);
    buf[len] = '\0';
    bool m = regexec(&s->re, buf, 0, NULL, 0) == 0;
    if (buf != small) free(buf);
    return m;
}

void attu_similar_free(attu_similar *s) {
    if (s->compiled) regfree(&s->re);
    free(s->pat);
    free(s->esc);
    memset(s, 0, sizeof *s);
}
