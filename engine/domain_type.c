/*
 * domain_type.c - domains' definitions in the comments store
 * (domain_type.h says how they are kept and why).
 *
 * A definition's text:
 *
 *     <id>\n
 *     <base type id> <precision> <scale> <no_typmod>\n
 *     <not null: 0 or 1>\n
 *     <DEFAULT's text in hex, or ->\n
 *     <parent domain's name in hex, or ->\n
 *     <not valid: 0 or 1>\t<name in hex>\t<expression in hex>\n   (one per CHECK)
 *
 * (hex: the texts may hold tabs and newlines).
 */
#include "engine/domain_type.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/catalog.h"
#include "engine/comments.h"
#include "engine/enum_type.h"
#include "engine/strbuf.h"

static const attu_comments *current_store(void) {
    attu_enum_source src = attu_enum_current();   /* (the session's catalog: enum_type.h) */
    struct attu_catalog *cat = src.fn ? src.fn(src.ctx) : NULL;
    return cat ? attu_catalog_comments(cat) : NULL;
}

void attu_domain_def_free(attu_domain_def *d) {
    if (!d) return;
    for (int i = 0; i < d->n; i++) { free(d->checks[i].name); free(d->checks[i].expr); }
    free(d->checks);
    free(d->dflt);
    free(d->parent);
    free(d->name);
    free(d);
}

static int hexval(int c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The text of the hex digits p[0..n) (malloc'd). */
static char *unhex(const char *p, size_t n) {
    char *s = malloc(n / 2 + 1);
    if (!s) return NULL;
    for (size_t i = 0; i < n / 2; i++) s[i] = (char)(hexval(p[2 * i]) * 16 + hexval(p[2 * i + 1]));
    s[n / 2] = 0;
    return s;
}

static void put_hex(attu_strbuf *b, const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) attu_strbuf_printf(b, "%02x", *p);
}

/* Parses a definition's text; NULL when it is damaged or memory ran out. */
static attu_domain_def *parse_def(const char *name, const char *text) {
    attu_domain_def *d = calloc(1, sizeof *d);
    if (!d || !(d->name = strdup(name))) { attu_domain_def_free(d); return NULL; }
    int id = 0, bid = 0, prec = 0, scale = 0, notyp = 0, nn = 0, used = 0;
    if (sscanf(text, "%d\n%d %d %d %d\n%d\n%n", &id, &bid, &prec, &scale, &notyp, &nn, &used) < 6 || !used) {
        attu_domain_def_free(d);
        return NULL;
    }
    d->id = id;
    d->base.id = (attu_type_id)bid;
    d->base.precision = (int16_t)prec;
    d->base.scale = (int16_t)scale;
    d->base.no_typmod = notyp;
    d->not_null = nn != 0;
    const char *p = text + used, *nl = strchr(p, '\n');
    if (!nl) { attu_domain_def_free(d); return NULL; }
    if (*p != '-' && !(d->dflt = unhex(p, (size_t)(nl - p)))) { attu_domain_def_free(d); return NULL; }
    p = nl + 1;
    if (!(nl = strchr(p, '\n'))) { attu_domain_def_free(d); return NULL; }
    if (*p != '-' && !(d->parent = unhex(p, (size_t)(nl - p)))) { attu_domain_def_free(d); return NULL; }
    p = nl + 1;
    int cap = 0;
    while (*p) {
        const char *t1 = strchr(p, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        nl = t2 ? strchr(t2, '\n') : NULL;
        if (!nl) break;
        if (d->n == cap) {
            cap = cap ? cap * 2 : 4;
            attu_domain_check *nc = realloc(d->checks, (size_t)cap * sizeof *nc);
            if (!nc) { attu_domain_def_free(d); return NULL; }
            d->checks = nc;
        }
        attu_domain_check *c = &d->checks[d->n];
        c->not_valid = *p == '1';
        c->name = unhex(t1 + 1, (size_t)(t2 - t1 - 1));
        c->expr = unhex(t2 + 1, (size_t)(nl - t2 - 1));
        d->n++;
        if (!c->name || !c->expr) { attu_domain_def_free(d); return NULL; }
        p = nl + 1;
    }
    return d;
}

/* The store's key of a domain name: "\x01" + name (as an enum type's,
 * under its own kind). */
static void store_key(const char *name, char *buf, size_t cap) { snprintf(buf, cap, "\001%s", name); }

attu_domain_def *attu_domain_find_in(const attu_comments *cs, const char *name) {
    if (!cs || !name || strlen(name) > 70) return NULL;
    char k[80];
    store_key(name, k, sizeof k);
    const char *text = attu_comments_get(cs, ATTU_DOMAIN_COMMENT_KIND, k, "");
    return text ? parse_def(name, text) : NULL;
}

attu_domain_def *attu_domain_find(const char *name) { return attu_domain_find_in(current_store(), name); }

static int cmp_check_name(const void *a, const void *b) {
    return strcmp(((const attu_domain_check *)a)->name, ((const attu_domain_check *)b)->name);
}

attu_domain_def *attu_domain_rules_in(const attu_comments *cs, const char *name) {
    attu_domain_def *r = attu_domain_find_in(cs, name);
    if (!r) return NULL;
    /* (qsort and memcpy only over checks there are: a domain without any
     * has no array) */
    if (r->n > 1) qsort(r->checks, (size_t)r->n, sizeof *r->checks, cmp_check_name);
    /* each parent's checks go before what is there (a chain longer than
     * the store is a cycle, which CREATE DOMAIN never makes) */
    char *up = r->parent ? strdup(r->parent) : NULL;
    for (size_t depth = 0; up && depth <= attu_comments_count(cs); depth++) {
        attu_domain_def *p = attu_domain_find_in(cs, up);
        free(up);
        up = NULL;
        if (!p) break;
        if (p->n > 1) qsort(p->checks, (size_t)p->n, sizeof *p->checks, cmp_check_name);
        attu_domain_check *all = realloc(p->checks, (size_t)(p->n + r->n + 1) * sizeof *all);
        if (!all) { attu_domain_def_free(p); attu_domain_def_free(r); return NULL; }
        if (r->n) memcpy(all + p->n, r->checks, (size_t)r->n * sizeof *all);
        free(r->checks);
        r->checks = all;
        r->n += p->n;
        p->checks = NULL;
        p->n = 0;
        r->not_null |= p->not_null;
        up = p->parent;
        p->parent = NULL;
        attu_domain_def_free(p);
    }
    free(up);
    return r;
}

attu_domain_def *attu_domain_rules(const char *name) { return attu_domain_rules_in(current_store(), name); }

bool attu_domain_derives(const attu_comments *cs, const char *name, const char *ancestor) {
    char *cur = strdup(name);
    for (size_t depth = 0; cur && depth <= attu_comments_count(cs); depth++) {
        if (!strcmp(cur, ancestor)) { free(cur); return true; }
        attu_domain_def *d = attu_domain_find_in(cs, cur);
        free(cur);
        cur = d && d->parent ? strdup(d->parent) : NULL;
        attu_domain_def_free(d);
    }
    free(cur);
    return false;
}

int attu_domain_store(attu_comments *cs, const attu_domain_def *d) {
    attu_strbuf b = { 0 };
    attu_strbuf_printf(&b, "%d\n%d %d %d %d\n%d\n", d->id, (int)d->base.id, d->base.precision, d->base.scale,
                       (int)d->base.no_typmod, d->not_null ? 1 : 0);
    if (d->dflt) put_hex(&b, d->dflt);
    else attu_strbuf_putc(&b, '-');
    attu_strbuf_putc(&b, '\n');
    if (d->parent) put_hex(&b, d->parent);
    else attu_strbuf_putc(&b, '-');
    attu_strbuf_putc(&b, '\n');
    for (int i = 0; i < d->n; i++) {
        attu_strbuf_printf(&b, "%d\t", d->checks[i].not_valid ? 1 : 0);
        put_hex(&b, d->checks[i].name);
        attu_strbuf_putc(&b, '\t');
        put_hex(&b, d->checks[i].expr);
        attu_strbuf_putc(&b, '\n');
    }
    char k[80];
    store_key(d->name, k, sizeof k);
    int rc = b.p && !b.oom ? attu_comments_set(cs, ATTU_DOMAIN_COMMENT_KIND, k, "", b.p) : -1;
    free(b.p);
    return rc;
}

void attu_domain_remove(attu_comments *cs, const char *name) {
    char k[80];
    store_key(name, k, sizeof k);
    attu_comments_set(cs, ATTU_DOMAIN_COMMENT_KIND, k, "", NULL);
}

int attu_domain_next_id(const attu_comments *cs) {
    int top = 0;
    for (size_t i = 0; i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        if (c->kind == ATTU_DOMAIN_COMMENT_KIND && atoi(c->text) > top) top = atoi(c->text);
    }
    return top + 1;
}

void attu_domain_each(const attu_comments *cs, void (*fn)(void *ctx, const attu_domain_def *d), void *ctx) {
    for (size_t i = 0; cs && i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        if (c->kind != ATTU_DOMAIN_COMMENT_KIND) continue;
        attu_domain_def *d = parse_def(c->rel + 1, c->text);
        if (d) fn(ctx, d);
        attu_domain_def_free(d);
    }
}

const char *attu_domain_of_column(const attu_comments *cs, const char *rel, const char *col) {
    return cs ? attu_comments_get(cs, ATTU_DOMAIN_COLUMN_KIND, rel, col) : NULL;
}

bool attu_domain_rel_has_columns(const attu_comments *cs, const char *rel) {
    for (size_t i = 0; cs && i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        if (c->kind == ATTU_DOMAIN_COLUMN_KIND && !strcmp(c->rel, rel)) return true;
    }
    return false;
}

int attu_domain_set_column(attu_comments *cs, const char *rel, const char *col, const char *domain) {
    return attu_comments_set(cs, ATTU_DOMAIN_COLUMN_KIND, rel, col, domain);
}
