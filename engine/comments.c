/*
 * comments.c - the comments store (comments.h): a plain array, as few
 * objects carry comments and COMMENT ON is rare.
 */
#include "engine/comments.h"

#include <stdlib.h>
#include <string.h>

struct attu_comments {
    attu_comment *c;
    size_t        n, cap;
};

attu_comments *attu_comments_new(void) { return calloc(1, sizeof(attu_comments)); }

attu_comments *attu_comments_clone(const attu_comments *cs) {
    attu_comments *c = attu_comments_new();
    if (!c) return NULL;
    for (size_t i = 0; i < cs->n; i++)
        if (attu_comments_set(c, cs->c[i].kind, cs->c[i].rel, cs->c[i].sub, cs->c[i].text)) {
            attu_comments_free(c);
            return NULL;
        }
    return c;
}

static void comment_clear(attu_comment *c) {
    free(c->rel);
    free(c->sub);
    free(c->text);
}

void attu_comments_free(attu_comments *cs) {
    if (!cs) return;
    for (size_t i = 0; i < cs->n; i++) comment_clear(&cs->c[i]);
    free(cs->c);
    free(cs);
}

static long find(const attu_comments *cs, char kind, const char *rel, const char *sub) {
    for (size_t i = 0; i < cs->n; i++)
        if (cs->c[i].kind == kind && !strcmp(cs->c[i].rel, rel) && !strcmp(cs->c[i].sub, sub)) return (long)i;
    return -1;
}

bool attu_comments_equal(const attu_comments *a, const attu_comments *b) {
    if (a->n != b->n) return false;
    for (size_t i = 0; i < a->n; i++) {
        long k = find(b, a->c[i].kind, a->c[i].rel, a->c[i].sub);
        if (k < 0 || strcmp(a->c[i].text, b->c[k].text)) return false;
    }
    return true;
}

static void remove_at(attu_comments *cs, size_t i) {
    comment_clear(&cs->c[i]);
    memmove(cs->c + i, cs->c + i + 1, (cs->n - i - 1) * sizeof *cs->c);
    cs->n--;
}

int attu_comments_set(attu_comments *cs, char kind, const char *rel, const char *sub, const char *text) {
    long at = find(cs, kind, rel, sub);
    if (!text || !*text) {
        if (at >= 0) remove_at(cs, (size_t)at);
        return 0;
    }
    char *t = strdup(text);
    if (!t) return -1;
    if (at >= 0) {
        free(cs->c[at].text);
        cs->c[at].text = t;
        return 0;
    }
    if (cs->n == cs->cap) {
        size_t nc = cs->cap ? cs->cap * 2 : 8;
        attu_comment *p = realloc(cs->c, nc * sizeof *p);
        if (!p) { free(t); return -1; }
        cs->c = p;
        cs->cap = nc;
    }
    attu_comment c = { kind, strdup(rel), strdup(sub), t };
    if (!c.rel || !c.sub) { comment_clear(&c); return -1; }
    cs->c[cs->n++] = c;
    return 0;
}

const char *attu_comments_get(const attu_comments *cs, char kind, const char *rel, const char *sub) {
    long at = find(cs, kind, rel, sub);
    return at >= 0 ? cs->c[at].text : NULL;
}

/* Replaces *field by a copy of to for each entry match() picks; all or
 * nothing (copies made first). */
static int rename_where(attu_comments *cs, char kind, const char *rel, const char *from, const char *to, bool sub) {
    size_t hits = 0;
    for (size_t i = 0; i < cs->n; i++)
        hits += sub ? cs->c[i].kind == kind && !strcmp(cs->c[i].rel, rel) && !strcmp(cs->c[i].sub, from)
                    : !strcmp(cs->c[i].rel, from);
    if (!hits) return 0;
    char **copies = calloc(hits, sizeof *copies);
    if (!copies) return -1;
    for (size_t k = 0; k < hits; k++)
        if (!(copies[k] = strdup(to))) {
            for (size_t j = 0; j < k; j++) free(copies[j]);
            free(copies);
            return -1;
        }
    /* (a comment under the new name, stale, gives way) */
    for (size_t i = cs->n; i-- > 0;)
        if (sub ? cs->c[i].kind == kind && !strcmp(cs->c[i].rel, rel) && !strcmp(cs->c[i].sub, to)
                : !strcmp(cs->c[i].rel, to))
            remove_at(cs, i);
    size_t k = 0;
    for (size_t i = 0; i < cs->n; i++) {
        char **field = sub ? &cs->c[i].sub : &cs->c[i].rel;
        bool hit = sub ? cs->c[i].kind == kind && !strcmp(cs->c[i].rel, rel) && !strcmp(cs->c[i].sub, from)
                       : !strcmp(cs->c[i].rel, from);
        if (!hit) continue;
        free(*field);
        *field = copies[k++];
    }
    free(copies);
    return 0;
}

int attu_comments_rename_rel(attu_comments *cs, const char *from, const char *to) {
    return rename_where(cs, 0, NULL, from, to, false);
}

int attu_comments_rename_sub(attu_comments *cs, char kind, const char *rel, const char *from, const char *to) {
    return rename_where(cs, kind, rel, from, to, true);
}

bool attu_comments_drop_rel(attu_comments *cs, const char *rel) {
    bool any = false;
    for (size_t i = cs->n; i-- > 0;)
        if (!strcmp(cs->c[i].rel, rel)) { remove_at(cs, i); any = true; }
    return any;
}

bool attu_comments_prune(attu_comments *cs, const char *rel, bool (*keep)(void *ctx, char kind, const char *sub),
                         void *ctx) {
    bool any = false;
    for (size_t i = cs->n; i-- > 0;)
        if (cs->c[i].kind != 'r' && !strcmp(cs->c[i].rel, rel) && !keep(ctx, cs->c[i].kind, cs->c[i].sub)) {
            remove_at(cs, i);
            any = true;
        }
    return any;
}

size_t attu_comments_count(const attu_comments *cs) { return cs->n; }
const attu_comment *attu_comments_at(const attu_comments *cs, size_t i) { return &cs->c[i]; }
