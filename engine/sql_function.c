/*
 * sql_function.c - SQL functions' definitions in the comments store
 * (sql_function.h says how they are kept and why).
 *
 * A definition's text:
 *
 *     <id>\n
 *     <volatility> <strict 0/1> <parallel> <leakproof 0/1> <SQL-standard body: 0, 1 RETURN, 2 BEGIN ATOMIC> <set-returning 0/1>[ <variadic 0/1> <comment in hex, or ->]\n
 *     <result type id> <precision> <scale> <no_typmod>\n
 *     <type id> <precision> <scale> <no_typmod>\t<name in hex, or ->\t<DEFAULT in hex, or ->\n   (one per argument)
 *     o <type id> <precision> <scale> <no_typmod>\t<name in hex>\n   (one per RETURNS TABLE column)
 *     <body in hex>\n
 *
 * (hex: the texts may hold tabs and newlines; definitions written before
 * VARIADIC and COMMENT ON FUNCTION lack the bracketed fields). The key holds the name and
 * the argument types, so two signatures of one name are two entries.
 */
#include "engine/sql_function.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/comments.h"
#include "engine/strbuf.h"

void attu_sql_function_free(attu_sql_function *f) {
    if (!f) return;
    for (int i = 0; i < f->nargs; i++) {
        if (f->arg_names) free(f->arg_names[i]);
        if (f->arg_defaults) free(f->arg_defaults[i]);
    }
    for (int i = 0; i < f->nout; i++) free(f->out_names[i]);
    free(f->out_names);
    free(f->out_types);
    free(f->arg_names);
    free(f->arg_defaults);
    free(f->arg_types);
    free(f->body);
    free(f->comment);
    free(f->name);
    free(f);
}

int attu_sql_function_ndefaults(const attu_sql_function *f) {
    int n = 0;
    for (int i = f->nargs - 1; i >= 0 && f->arg_defaults[i]; i--) n++;
    return n;
}

static int hexval(int c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The text of the hex digits p[0..n) (malloc'd); NULL for "-". */
static char *unhex(const char *p, size_t n, bool *oom) {
    if (n == 1 && *p == '-') return NULL;
    char *s = malloc(n / 2 + 1);
    if (!s) { *oom = true; return NULL; }
    for (size_t i = 0; i < n / 2; i++) s[i] = (char)(hexval(p[2 * i]) * 16 + hexval(p[2 * i + 1]));
    s[n / 2] = 0;
    return s;
}

static void put_hex(attu_strbuf *b, const char *s) {
    if (!s) { attu_strbuf_putc(b, '-'); return; }
    if (!*s) return;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) attu_strbuf_printf(b, "%02x", *p);
}

static void put_type(attu_strbuf *b, attu_type t) {
    attu_strbuf_printf(b, "%d %d %d %d", (int)t.id, t.precision, t.scale, (int)t.no_typmod);
}

static const char *get_type(const char *p, attu_type *t) {
    int id = 0, prec = 0, scale = 0, notyp = 0, used = 0;
    if (sscanf(p, "%d %d %d %d%n", &id, &prec, &scale, &notyp, &used) < 4 || !used) return NULL;
    memset(t, 0, sizeof *t);
    t->id = (attu_type_id)id;
    t->precision = (int16_t)prec;
    t->scale = (int16_t)scale;
    t->no_typmod = notyp;
    return p + used;
}

/* The key's argument part: "(oid,oid,...)", the types' PostgreSQL OIDs
 * (text, varchar and char are three types sharing attu's TEXT; typmods do
 * not tell signatures apart, as in PostgreSQL). */
static void put_key(attu_strbuf *b, const char *name, int nargs, const attu_type *types) {
    attu_strbuf_printf(b, "\001%s(", name);
    for (int i = 0; i < nargs; i++) attu_strbuf_printf(b, "%s%u", i ? "," : "", attu_type_pg_oid(types[i]));
    attu_strbuf_putc(b, ')');
}

/* Parses a definition (key's name, text); NULL when damaged or out of
 * memory. */
static attu_sql_function *parse_def(const char *key, const char *text) {
    const char *paren = strrchr(key + 1, '(');   /* (the last: a quoted name may hold one) */
    if (!paren) return NULL;
    attu_sql_function *f = calloc(1, sizeof *f);
    if (!f || !(f->name = strndup(key + 1, (size_t)(paren - key - 1)))) { free(f); return NULL; }
    int id = 0, strict = 0, leak = 0, std = 0, set = 0, used = 0;
    char vol = 'v', par = 'u';
    bool oom = false;
    if (sscanf(text, "%d\n%c %d %c %d %d %d%n", &id, &vol, &strict, &par, &leak, &std, &set, &used) < 7 || !used)
        goto bad;
    if (text[used] == ' ') {
        int var = 0, more = 0;
        if (sscanf(text + used, " %d%n", &var, &more) < 1 || !more || text[used + more] != ' ') goto bad;
        f->variadic = var != 0;
        used += more + 1;
        size_t cl = strcspn(text + used, "\n");
        f->comment = unhex(text + used, cl, &oom);
        if (oom) goto bad;
        used += (int)cl;
    }
    if (text[used] != '\n') goto bad;
    used++;
    f->sql_body = std;
    f->retset = set != 0;
    f->id = id;
    f->volatility = vol;
    f->strict = strict != 0;
    f->parallel = par;
    f->leakproof = leak != 0;
    const char *p = get_type(text + used, &f->ret);
    if (!p || *p != '\n') goto bad;
    p++;
    /* the arguments: one line each until the body's (no tab) */
    int cap = 0;
    for (;;) {
        const char *nl = strchr(p, '\n');
        const char *t1 = strchr(p, '\t');
        if (!nl) goto bad;
        if (!t1 || t1 > nl) break;
        if (*p == 'o') {
            /* a RETURNS TABLE column */
            attu_type *nt = realloc(f->out_types, (size_t)(f->nout + 1) * sizeof *nt);
            if (nt) f->out_types = nt;
            char **nn = realloc(f->out_names, (size_t)(f->nout + 1) * sizeof *nn);
            if (nn) f->out_names = nn;
            if (!nt || !nn || !get_type(p + 2, &f->out_types[f->nout])) goto bad;
            f->out_names[f->nout] = unhex(t1 + 1, (size_t)(nl - t1 - 1), &oom);
            if (oom || !f->out_names[f->nout]) goto bad;
            f->nout++;
            p = nl + 1;
            continue;
        }
        const char *t2 = strchr(t1 + 1, '\t');
        if (!t2 || t2 > nl) goto bad;
        if (f->nargs == cap) {
            cap = cap ? cap * 2 : 4;
            attu_type *nt = realloc(f->arg_types, (size_t)cap * sizeof *nt);
            if (nt) f->arg_types = nt;
            char **nn = realloc(f->arg_names, (size_t)cap * sizeof *nn);
            if (nn) f->arg_names = nn;
            char **nd = realloc(f->arg_defaults, (size_t)cap * sizeof *nd);
            if (nd) f->arg_defaults = nd;
            if (!nt || !nn || !nd) goto bad;
        }
        int k = f->nargs++;
        f->arg_names[k] = f->arg_defaults[k] = NULL;
        if (!get_type(p, &f->arg_types[k])) goto bad;
        f->arg_names[k] = unhex(t1 + 1, (size_t)(t2 - t1 - 1), &oom);
        f->arg_defaults[k] = unhex(t2 + 1, (size_t)(nl - t2 - 1), &oom);
        if (oom) goto bad;
        p = nl + 1;
    }
    const char *nl = strchr(p, '\n');
    f->body = unhex(p, (size_t)(nl - p), &oom);
    if (oom || !f->body) goto bad;
    return f;
bad:
    attu_sql_function_free(f);
    return NULL;
}

static bool key_named(const char *key, const char *name) {
    size_t n = strlen(name);
    return key[0] == '\001' && !strncmp(key + 1, name, n) && key[1 + n] == '(';
}

attu_sql_function **attu_sql_functions_named(const attu_comments *cs, const char *name, int *n) {
    *n = 0;
    attu_sql_function **v = NULL;
    for (size_t i = 0; cs && i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        if (c->kind != ATTU_FUNCTION_COMMENT_KIND || !key_named(c->rel, name)) continue;
        attu_sql_function *f = parse_def(c->rel, c->text);
        attu_sql_function **nv = f ? realloc(v, (size_t)(*n + 1) * sizeof *nv) : NULL;
        if (!nv) {
            attu_sql_function_free(f);
            for (int k = 0; k < *n; k++) attu_sql_function_free(v[k]);
            free(v);
            *n = -1;
            return NULL;
        }
        v = nv;
        v[(*n)++] = f;
    }
    return v;
}

bool attu_sql_function_exists(const attu_comments *cs, const char *name) {
    for (size_t i = 0; cs && i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        if (c->kind == ATTU_FUNCTION_COMMENT_KIND && key_named(c->rel, name)) return true;
    }
    return false;
}

attu_sql_function *attu_sql_function_find(const attu_comments *cs, const char *name, int nargs,
                                          const attu_type *types) {
    if (!cs) return NULL;
    attu_strbuf k = { 0 };
    put_key(&k, name, nargs, types);
    const char *text = k.p && !k.oom ? attu_comments_get(cs, ATTU_FUNCTION_COMMENT_KIND, k.p, "") : NULL;
    attu_sql_function *f = text ? parse_def(k.p, text) : NULL;
    free(k.p);
    return f;
}

int attu_sql_function_store(attu_comments *cs, const attu_sql_function *f) {
    attu_strbuf b = { 0 }, k = { 0 };
    attu_strbuf_printf(&b, "%d\n%c %d %c %d %d %d %d ", f->id, f->volatility, f->strict ? 1 : 0, f->parallel,
                       f->leakproof ? 1 : 0, f->sql_body, f->retset ? 1 : 0, f->variadic ? 1 : 0);
    put_hex(&b, f->comment);
    attu_strbuf_putc(&b, '\n');
    put_type(&b, f->ret);
    attu_strbuf_putc(&b, '\n');
    for (int i = 0; i < f->nargs; i++) {
        put_type(&b, f->arg_types[i]);
        attu_strbuf_putc(&b, '\t');
        put_hex(&b, f->arg_names[i]);
        attu_strbuf_putc(&b, '\t');
        put_hex(&b, f->arg_defaults[i]);
        attu_strbuf_putc(&b, '\n');
    }
    for (int i = 0; i < f->nout; i++) {
        attu_strbuf_puts(&b, "o ");
        put_type(&b, f->out_types[i]);
        attu_strbuf_putc(&b, '\t');
        put_hex(&b, f->out_names[i]);
        attu_strbuf_putc(&b, '\n');
    }
    put_hex(&b, f->body);
    attu_strbuf_putc(&b, '\n');
    put_key(&k, f->name, f->nargs, f->arg_types);
    int rc = b.p && !b.oom && k.p && !k.oom ? attu_comments_set(cs, ATTU_FUNCTION_COMMENT_KIND, k.p, "", b.p) : -1;
    free(b.p);
    free(k.p);
    return rc;
}

void attu_sql_function_remove(attu_comments *cs, const attu_sql_function *f) {
    attu_strbuf k = { 0 };
    put_key(&k, f->name, f->nargs, f->arg_types);
    if (k.p && !k.oom) attu_comments_set(cs, ATTU_FUNCTION_COMMENT_KIND, k.p, "", NULL);
    free(k.p);
}

int attu_sql_function_next_id(const attu_comments *cs) {
    int top = 0;
    for (size_t i = 0; cs && i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        if (c->kind == ATTU_FUNCTION_COMMENT_KIND && atoi(c->text) > top) top = atoi(c->text);
    }
    return top + 1;
}

void attu_sql_function_each(const attu_comments *cs, void (*fn)(void *ctx, const attu_sql_function *f), void *ctx) {
    for (size_t i = 0; cs && i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        if (c->kind != ATTU_FUNCTION_COMMENT_KIND) continue;
        attu_sql_function *f = parse_def(c->rel, c->text);
        if (f) fn(ctx, f);
        attu_sql_function_free(f);
    }
}
