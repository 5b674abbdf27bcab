/*
 * enum_type.c - enum types' definitions, sort keys and images
 * (enum_type.h says how they are kept and why).
 *
 * A definition's text in the comments store:
 *
 *     <id>\n
 *     <key>\t<enumsortorder %.9g>\t<label in hex>\n     (one per label, in order)
 *
 * (hex: a label may hold any byte but NUL, tabs and newlines included).
 */
#include "engine/enum_type.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/catalog.h"
#include "engine/comments.h"
#include "engine/strbuf.h"

static _Thread_local attu_enum_source enum_src;

attu_enum_source attu_enum_use(attu_enum_source src) {
    attu_enum_source old = enum_src;
    enum_src = src;
    return old;
}

attu_enum_source attu_enum_current(void) { return enum_src; }

static const attu_comments *current_store(void) {
    struct attu_catalog *cat = enum_src.fn ? enum_src.fn(enum_src.ctx) : NULL;
    return cat ? attu_catalog_comments(cat) : NULL;
}

void attu_enum_def_free(attu_enum_def *d) {
    if (!d) return;
    for (int i = 0; i < d->n; i++) { free(d->labels[i].label); free(d->labels[i].key); }
    free(d->labels);
    free(d->name);
    free(d);
}

static int hexval(int c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Parses a definition's text; NULL when it is damaged or memory ran out. */
static attu_enum_def *parse_def(const char *name, const char *text) {
    attu_enum_def *d = calloc(1, sizeof *d);
    if (!d || !(d->name = strdup(name))) { attu_enum_def_free(d); return NULL; }
    const char *p = text;
    d->id = atoi(p);
    int cap = 0;
    while ((p = strchr(p, '\n')) && *++p) {
        const char *t1 = strchr(p, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL, *nl = t2 ? strchr(t2, '\n') : NULL;
        if (!nl) break;
        if (d->n == cap) {
            cap = cap ? cap * 2 : 8;
            attu_enum_label *nl2 = realloc(d->labels, (size_t)cap * sizeof *nl2);
            if (!nl2) { attu_enum_def_free(d); return NULL; }
            d->labels = nl2;
        }
        attu_enum_label *l = &d->labels[d->n];
        l->key = strndup(p, (size_t)(t1 - p));
        l->order = strtof(t1 + 1, NULL);
        size_t hl = (size_t)(nl - t2 - 1) / 2;
        l->label = malloc(hl + 1);
        if (!l->key || !l->label) { free(l->key); free(l->label); attu_enum_def_free(d); return NULL; }
        for (size_t i = 0; i < hl; i++) l->label[i] = (char)(hexval(t2[1 + 2 * i]) * 16 + hexval(t2[2 + 2 * i]));
        l->label[hl] = 0;
        d->n++;
        p = nl;
    }
    return d;
}

/* The store's key of a type name: "\x01" + name (no relation's comment
 * has one, so renames and drops of relations never touch it). */
static void store_key(const char *name, char *buf, size_t cap) { snprintf(buf, cap, "\001%s", name); }

attu_enum_def *attu_enum_find_in(const attu_comments *cs, const char *name) {
    if (!cs) return NULL;
    char k[80];
    if (strlen(name) > 70) return NULL;
    store_key(name, k, sizeof k);
    const char *text = attu_comments_get(cs, ATTU_ENUM_COMMENT_KIND, k, "");
    return text ? parse_def(name, text) : NULL;
}

attu_enum_def *attu_enum_find(const char *name) { return attu_enum_find_in(current_store(), name); }

attu_enum_def *attu_enum_find_id(int id) {
    const attu_comments *cs = current_store();
    if (!cs) return NULL;
    for (size_t i = 0; i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        if (c->kind == ATTU_ENUM_COMMENT_KIND && atoi(c->text) == id) return parse_def(c->rel + 1, c->text);
    }
    return NULL;
}

const char *attu_enum_name(int id, char *buf, size_t cap) {
    const attu_comments *cs = current_store();
    for (size_t i = 0; cs && i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        if (c->kind == ATTU_ENUM_COMMENT_KIND && atoi(c->text) == id) {
            snprintf(buf, cap, "%s", c->rel + 1);
            return buf;
        }
    }
    snprintf(buf, cap, "enum");
    return buf;
}

int attu_enum_store(attu_comments *cs, const attu_enum_def *d) {
    attu_strbuf b = { 0 };
    attu_strbuf_printf(&b, "%d\n", d->id);
    for (int i = 0; i < d->n; i++) {
        attu_strbuf_printf(&b, "%s\t%.9g\t", d->labels[i].key, (double)d->labels[i].order);
        for (const unsigned char *s = (const unsigned char *)d->labels[i].label; *s; s++) attu_strbuf_printf(&b, "%02x", *s);
        attu_strbuf_add(&b, "\n", 1);
    }
    char k[80];
    store_key(d->name, k, sizeof k);
    int rc = b.p ? attu_comments_set(cs, ATTU_ENUM_COMMENT_KIND, k, "", b.p) : -1;
    free(b.p);
    return rc;
}

void attu_enum_remove(attu_comments *cs, const char *name) {
    char k[80];
    store_key(name, k, sizeof k);
    attu_comments_set(cs, ATTU_ENUM_COMMENT_KIND, k, "", NULL);
}

int attu_enum_next_id(const attu_comments *cs) {
    int top = 0;
    for (size_t i = 0; i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        if (c->kind == ATTU_ENUM_COMMENT_KIND && atoi(c->text) > top) top = atoi(c->text);
    }
    return top + 1;
}

void attu_enum_each(const attu_comments *cs, void (*fn)(void *ctx, const attu_enum_def *d), void *ctx) {
    for (size_t i = 0; cs && i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        if (c->kind != ATTU_ENUM_COMMENT_KIND) continue;
        attu_enum_def *d = parse_def(c->rel + 1, c->text);
        if (d) fn(ctx, d);
        attu_enum_def_free(d);
    }
}

/* ---- keys ---------------------------------------------------------------
 * Digits 0..93 are the bytes '!'..'~'. A key never ends in digit 0, so
 * there is always room below it; between two keys there is always a
 * third (the midpoint of fractions in base 94). */

#define KEY_BASE 94
#define KEY_ZERO '!'

static int digit_at(const char *s, size_t i) {
    return s && i < strlen(s) ? (unsigned char)s[i] - KEY_ZERO : 0;
}

static void key_mid(attu_strbuf *out, const char *lo, const char *hi) {
    if (hi) {
        size_t n = 0;
        while (hi[n] && digit_at(lo, n) == (unsigned char)hi[n] - KEY_ZERO) n++;
        if (n) {
            attu_strbuf_add(out, hi, n);
            key_mid(out, lo && strlen(lo) > n ? lo + n : "", hi + n);
            return;
        }
    }
    int a = digit_at(lo, 0), b = hi ? (unsigned char)hi[0] - KEY_ZERO : KEY_BASE;
    if (b - a > 1) {
        char c = (char)(KEY_ZERO + (a + b) / 2);
        attu_strbuf_add(out, &c, 1);
        return;
    }
    if (hi && strlen(hi) > 1) {   /* hi's first digit alone: above lo, below hi */
        attu_strbuf_add(out, hi, 1);
        return;
    }
    char c = (char)(KEY_ZERO + a);
    attu_strbuf_add(out, &c, 1);
    key_mid(out, lo && *lo ? lo + 1 : "", NULL);
}

char *attu_enum_key_between(const char *lo, const char *hi) {
    attu_strbuf b = { 0 };
    key_mid(&b, lo ? lo : "", hi);
    return b.p;
}

int attu_enum_keys_initial(int n, char **keys) {
    /* w digits, spaced step apart (at least 2, so that nudging a value
     * off a trailing zero digit never meets the next) */
    int w = 1;
    long long span = KEY_BASE;
    while (span / (n + 1) < 2) { w++; span *= KEY_BASE; }
    long long step = span / (n + 1);
    for (int i = 0; i < n; i++) {
        long long v = (long long)(i + 1) * step;
        if (v % KEY_BASE == 0) v++;
        char *k = malloc((size_t)w + 1);
        if (!k) { while (i--) free(keys[i]); return -1; }
        for (int j = w - 1; j >= 0; j--) { k[j] = (char)(KEY_ZERO + v % KEY_BASE); v /= KEY_BASE; }
        k[w] = 0;
        keys[i] = k;
    }
    return 0;
}

/* ---- images ------------------------------------------------------------- */

char *attu_enum_image(const attu_enum_def *d, int i, size_t *len) {
    size_t kl = strlen(d->labels[i].key), ll = strlen(d->labels[i].label);
    char *s = malloc(kl + ll + 2);
    if (!s) return NULL;
    memcpy(s, d->labels[i].key, kl);
    s[kl] = ATTU_ENUM_SEP;
    memcpy(s + kl + 1, d->labels[i].label, ll);
    s[kl + 1 + ll] = 0;
    *len = kl + 1 + ll;
    return s;
}

const char *attu_enum_image_label(const char *s, size_t len, size_t *label_len) {
    const char *sep = memchr(s, ATTU_ENUM_SEP, len);
    if (!sep) { *label_len = len; return s; }
    *label_len = len - (size_t)(sep + 1 - s);
    return sep + 1;
}

int attu_enum_label_index(const attu_enum_def *d, const char *s, size_t len) {
    for (int i = 0; i < d->n; i++)
        if (strlen(d->labels[i].label) == len && !memcmp(d->labels[i].label, s, len)) return i;
    return -1;
}

char *attu_enum_input(attu_type t, const char *s, size_t len, size_t *out_len, attu_error *err) {
    attu_enum_def *d = attu_enum_find_id(attu_type_enum_id(t));
    if (!d) { attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "type with OID %u does not exist", attu_enum_oid(attu_type_enum_id(t))); return NULL; }
    int i = attu_enum_label_index(d, s, len);
    char *img = NULL;
    if (i < 0)
        attu_error_set(err, ATTU_SQLSTATE_INVALID_TEXT_REP, 0, "invalid input value for enum %s: \"%.*s\"", d->name,
                       (int)(len > 200 ? 200 : len), s);
    else if (!(img = attu_enum_image(d, i, out_len))) attu_error_oom(err);
    attu_enum_def_free(d);
    return img;
}
