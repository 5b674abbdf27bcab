/*
 * view.c - views by name (view.h).
 */
#include "engine/view.h"

#include <stdlib.h>
#include <string.h>

struct attu_views {
    attu_view **v;
    size_t      n, cap;
    uint64_t    next_seq;
    /* a layer (attu_views_layer_new): its sides, asked at each call */
    attu_views_side_fn side;
    const void        *ctx;
    const int         *mode;
};

/* A layer's side k (0 top, 1 base), or NULL */
static attu_views *L_side(const attu_views *vs, int k) { return vs->side(vs->ctx, k); }
/* Where a change of name goes: the mode's side, or (AUTO, 0) the top
 * when it holds the name, else the base */
static attu_views *L_route(const attu_views *vs, const char *name) {
    attu_views *top = L_side(vs, 0);
    int mode = *vs->mode;
    if (mode == 1 && top) return top;
    if (mode == 2 || !top) return L_side(vs, 1);
    return attu_views_find(top, name) ? top : L_side(vs, 1);
}

attu_views *attu_views_layer_new(attu_views_side_fn side, const void *ctx, const int *mode) {
    attu_views *vs = calloc(1, sizeof *vs);
    if (!vs) return NULL;
    vs->side = side;
    vs->ctx = ctx;
    vs->mode = mode;
    return vs;
}

static char *dup_or_null(const char *s, bool *oom) {
    if (!s) return NULL;
    char *d = strdup(s);
    if (!d) *oom = true;
    return d;
}

attu_view *attu_view_new(const char *name, const char *sql, int ncols, const char *const *col_names,
                         const attu_type *col_types, int ndeps, const char *const *deps) {
    attu_view *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    bool oom = false;
    v->name = dup_or_null(name, &oom);
    v->sql = dup_or_null(sql, &oom);
    v->col_names = calloc((size_t)ncols + 1, sizeof *v->col_names);
    v->col_types = calloc((size_t)ncols + 1, sizeof *v->col_types);
    v->col_defaults = calloc((size_t)ncols + 1, sizeof *v->col_defaults);
    v->deps = calloc((size_t)ndeps + 1, sizeof *v->deps);
    if (oom || !v->col_names || !v->col_types || !v->col_defaults || !v->deps) { attu_view_free(v); return NULL; }
    v->ncols = ncols;
    v->kind = 'v';
    for (int i = 0; i < ncols; i++) {
        v->col_names[i] = dup_or_null(col_names[i], &oom);
        v->col_types[i] = col_types[i];
    }
    /* each relation once, however often the query names it */
    for (int i = 0; i < ndeps; i++) {
        if (attu_view_reads(v, deps[i])) continue;
        v->deps[v->ndeps++] = dup_or_null(deps[i], &oom);
    }
    if (oom) { attu_view_free(v); return NULL; }
    return v;
}

attu_view *attu_view_copy(const attu_view *v, const char *name) {
    attu_view *c = attu_view_new(name ? name : v->name, v->sql, v->ncols, (const char *const *)v->col_names,
                                 v->col_types, v->ndeps, (const char *const *)v->deps);
    if (!c) return NULL;
    c->seq = v->seq;
    c->kind = v->kind;
    c->check_option = v->check_option;
    c->populated = v->populated;
    for (int i = 0; i < v->ncols; i++)
        if (v->col_defaults[i] && !(c->col_defaults[i] = strdup(v->col_defaults[i]))) { attu_view_free(c); return NULL; }
    return c;
}

void attu_view_free(attu_view *v) {
    if (!v) return;
    for (int i = 0; v->col_names && i < v->ncols; i++) free(v->col_names[i]);
    for (int i = 0; v->col_defaults && i < v->ncols; i++) free(v->col_defaults[i]);
    free(v->col_defaults);
    for (int i = 0; i < v->ndeps; i++) free(v->deps[i]);
    free(v->col_names);
    free(v->col_types);
    free(v->deps);
    free(v->name);
    free(v->sql);
    free(v);
}

bool attu_view_reads(const attu_view *v, const char *relation) {
    for (int i = 0; i < v->ndeps; i++)
        if (v->deps[i] && !strcmp(v->deps[i], relation)) return true;
    return false;
}

attu_views *attu_views_new(void) {
    attu_views *vs = calloc(1, sizeof *vs);
    if (vs) vs->next_seq = 1;
    return vs;
}

void attu_views_free(attu_views *vs) {
    if (!vs) return;
    if (vs->side) { free(vs); return; }   /* (a layer owns nothing) */
    for (size_t i = 0; i < vs->n; i++) attu_view_free(vs->v[i]);
    free(vs->v);
    free(vs);
}

/* Index of name, or -(insertion point) - 1. */
static long search(const attu_views *vs, const char *name) {
    size_t lo = 0, hi = vs->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(vs->v[mid]->name, name);
        if (c == 0) return (long)mid;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -(long)lo - 1;
}

attu_view *attu_views_find(const attu_views *vs, const char *name) {
    if (!vs) return NULL;
    if (vs->side) {
        /* the mode's side alone, or (AUTO) the top then the base: as
         * attu_catalog_lookup finds tables (engine/catalog.c) */
        int mode = *vs->mode;
        attu_views *top = L_side(vs, 0);
        if (mode == 1 && top) return attu_views_find(top, name);
        attu_view *v = mode == 2 ? NULL : attu_views_find(top, name);
        return v ? v : attu_views_find(L_side(vs, 1), name);
    }
    long i = search(vs, name);
    return i >= 0 ? vs->v[i] : NULL;
}

int attu_views_put(attu_views *vs, attu_view *v, attu_view **old) {
    if (vs->side) return attu_views_put(L_route(vs, v->name), v, old);
    long i = search(vs, v->name);
    *old = NULL;
    if (i >= 0) {
        *old = vs->v[i];
        v->seq = (*old)->seq;
        vs->v[i] = v;
        return 0;
    }
    if (vs->n == vs->cap) {
        size_t nc = vs->cap ? vs->cap * 2 : 8;
        attu_view **n = realloc(vs->v, nc * sizeof *n);
        if (!n) return -1;
        vs->v = n;
        vs->cap = nc;
    }
    size_t at = (size_t)(-i - 1);
    memmove(vs->v + at + 1, vs->v + at, (vs->n - at) * sizeof *vs->v);
    vs->v[at] = v;
    vs->n++;
    if (!v->seq) v->seq = vs->next_seq;
    if (v->seq >= vs->next_seq) vs->next_seq = v->seq + 1;
    return 0;
}

attu_views *attu_views_clone(const attu_views *vs) {
    if (vs->side) return attu_views_clone(L_side(vs, 1));
    attu_views *c = attu_views_new();
    if (!c) return NULL;
    for (size_t i = 0; i < vs->n; i++) {
        attu_view *v = attu_view_copy(vs->v[i], NULL), *old;
        if (!v || attu_views_put(c, v, &old)) { attu_view_free(v); attu_views_free(c); return NULL; }
    }
    c->next_seq = vs->next_seq;
    return c;
}

static bool same_text(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

static bool same_view(const attu_view *a, const attu_view *b) {
    if (!same_text(a->name, b->name) || !same_text(a->sql, b->sql) || a->ncols != b->ncols || a->ndeps != b->ndeps ||
        a->seq != b->seq || a->kind != b->kind || a->check_option != b->check_option || a->populated != b->populated)
        return false;
    for (int i = 0; i < a->ncols; i++) {
        const char *da = a->col_defaults ? a->col_defaults[i] : NULL, *db = b->col_defaults ? b->col_defaults[i] : NULL;
        if (!same_text(a->col_names[i], b->col_names[i]) || !same_text(da, db) ||
            memcmp(&a->col_types[i], &b->col_types[i], sizeof a->col_types[i]))
            return false;
    }
    for (int i = 0; i < a->ndeps; i++)
        if (!same_text(a->deps[i], b->deps[i])) return false;
    return true;
}

bool attu_views_equal(const attu_views *a, const attu_views *b) {
    if (a->side) a = L_side(a, 1);
    if (b->side) b = L_side(b, 1);
    if (!a || !b) return a == b;
    if (a->n != b->n) return false;
    for (size_t i = 0; i < a->n; i++)   /* (both in name order) */
        if (!same_view(a->v[i], b->v[i])) return false;
    return true;
}

attu_view *attu_views_remove(attu_views *vs, const char *name) {
    if (vs->side) return attu_views_remove(L_route(vs, name), name);
    long i = search(vs, name);
    if (i < 0) return NULL;
    attu_view *v = vs->v[i];
    memmove(vs->v + i, vs->v + i + 1, (vs->n - (size_t)i - 1) * sizeof *vs->v);
    vs->n--;
    return v;
}

size_t attu_views_count(const attu_views *vs) {
    if (vs && vs->side) {
        int mode = *vs->mode;
        attu_views *top = L_side(vs, 0);
        if (mode == 1 && top) return attu_views_count(top);
        size_t nb = attu_views_count(L_side(vs, 1));
        return mode == 2 ? nb : nb + attu_views_count(top);
    }
    return vs ? vs->n : 0;
}

attu_view *attu_views_at(const attu_views *vs, size_t i) {
    if (vs && vs->side) {
        int mode = *vs->mode;
        attu_views *top = L_side(vs, 0), *base = L_side(vs, 1);
        if (mode == 1 && top) return attu_views_at(top, i);
        size_t nb = attu_views_count(base);
        return i < nb ? attu_views_at(base, i) : mode == 2 ? NULL : attu_views_at(top, i - nb);
    }
    return vs && i < vs->n ? vs->v[i] : NULL;
}
