/*
 * catalog.c - tables by name (catalog.h).
 *
 * A sorted array of table pointers: lookups binary-search, the list comes
 * out in name order for free, and catalogs hold tens of tables, not
 * millions, so the O(n) insert does not matter.
 */
#include "engine/catalog.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* A table's column DEFAULT expressions (SQL text; NULL where a column has
 * none), kept in an array parallel to tables[] so they move with their
 * table on add and remove and stay through replace. */
typedef struct col_defaults {
    int    n;
    char **sql;
    /* (and the table's PRIMARY KEY / UNIQUE constraints, which travel the
     * same way) */
    int          nuniques;
    attu_unique *uniques;
    int          nchecks;   /* (and its CHECK constraints) */
    attu_check  *checks;
    int          nfkeys;    /* (and its FOREIGN KEY constraints) */
    attu_fkey   *fkeys;
    int          nindexes;  /* (and its CREATE INDEX indexes, index.h) */
    attu_index_def  *indexes;
    /* Which change of all of these this is: a number no other change
     * has (next_stamp), given by every set_* and by add, kept by clone.
     * Two catalogs whose entries for a name hold the same table version
     * and stamp hold the same relation (attu_catalog_same_relation). */
    uint64_t     stamp;
} col_defaults;

static uint64_t stamps;   /* (atomic: catalogs of every session draw from it) */
static uint64_t next_stamp(void) { return __atomic_add_fetch(&stamps, 1, __ATOMIC_RELAXED); }

struct attu_catalog {
    attu_table  **tables;
    col_defaults *defaults;
    size_t count, cap;
    attu_views   *views;    /* view.h: same namespace as the tables */
    attu_comments *comments;   /* comments.h: COMMENT ON's */
    /* A layered catalog (attu_catalog_layer_new) holds nothing itself: it
     * routes every call to its top or its base (catalog.h). */
    attu_catalog *const *top_ref[3], *const *base_ref[3];
    bool          layered;
    int           mode;   /* ATTU_LAYER_* */
    char          schema[64];
    unsigned      schema_oid;
    attu_views   *lviews;   /* (a layer's views: its top's over its base's) */
};

/* A layer's catalogs: the first of each pair that is not NULL. */
static attu_catalog *layer_pick(attu_catalog *const *const ref[3]) {
    for (int k = 0; k < 3; k++)
        if (ref[k] && *ref[k]) return *ref[k];
    return NULL;
}
static attu_catalog *L_top(const attu_catalog *cat) { return layer_pick(cat->top_ref); }
static attu_catalog *L_base(const attu_catalog *cat) { return layer_pick(cat->base_ref); }

/* Where a call about relation name goes: the top where the mode says so
 * or (ATTU_LAYER_AUTO) where the top holds a table of that name. */
static attu_catalog *L_route_mode(const attu_catalog *cat, const char *name, int mode) {
    attu_catalog *top = L_top(cat);
    if (mode == ATTU_LAYER_TOP && top) return top;
    if (mode == ATTU_LAYER_BASE || !top) return L_base(cat);
    return name && attu_catalog_lookup(top, name) ? top : L_base(cat);
}
/* (what changes a relation follows the mode; what reads one finds it
 * where a lookup does) */
static attu_catalog *L_route(const attu_catalog *cat, const char *name) { return L_route_mode(cat, name, cat->mode); }
static attu_catalog *L_get(const attu_catalog *cat, const char *name) {
    return L_route_mode(cat, name, cat->mode);
}

static void defaults_free(col_defaults *d) {
    for (int i = 0; i < d->n; i++) free(d->sql[i]);
    free(d->sql);
    d->sql = NULL;
    d->n = 0;
    free(d->uniques);
    d->uniques = NULL;
    d->nuniques = 0;
    for (int k = 0; k < d->nchecks; k++) free(d->checks[k].expr);
    free(d->checks);
    d->checks = NULL;
    d->nchecks = 0;
    free(d->fkeys);
    d->fkeys = NULL;
    d->nfkeys = 0;
    for (int k = 0; k < d->nindexes; k++) attu_index_clear(&d->indexes[k]);
    free(d->indexes);
    d->indexes = NULL;
    d->nindexes = 0;
}

attu_catalog *attu_catalog_new(void) {
    attu_catalog *cat = calloc(1, sizeof(attu_catalog));
    if (cat && !(cat->views = attu_views_new())) { free(cat); return NULL; }
    if (cat && !(cat->comments = attu_comments_new())) { attu_views_free(cat->views); free(cat); return NULL; }
    return cat;
}

void attu_catalog_free(attu_catalog *cat) {
    if (!cat) return;
    if (cat->layered) { attu_views_free(cat->lviews); free(cat); return; }   /* (it owns nothing) */
    for (size_t i = 0; i < cat->count; i++) {
        attu_table_free(cat->tables[i]);
        defaults_free(&cat->defaults[i]);
    }
    free(cat->tables);
    free(cat->defaults);
    attu_views_free(cat->views);
    attu_comments_free(cat->comments);
    free(cat);
}

/* A deep copy of d into *o (zeroed on failure): -1 when out of memory. */
static int defaults_copy(col_defaults *o, const col_defaults *d) {
    memset(o, 0, sizeof *o);
    o->stamp = d->stamp;
    bool ok = true;
    if (d->n && (ok = (o->sql = calloc((size_t)d->n, sizeof *o->sql)) != NULL)) {
        o->n = d->n;
        for (int i = 0; ok && i < d->n; i++) ok = !d->sql[i] || (o->sql[i] = strdup(d->sql[i]));
    }
    if (ok && d->nuniques && (ok = (o->uniques = malloc((size_t)d->nuniques * sizeof *o->uniques)) != NULL)) {
        memcpy(o->uniques, d->uniques, (size_t)d->nuniques * sizeof *o->uniques);
        o->nuniques = d->nuniques;
    }
    if (ok && d->nchecks && (ok = (o->checks = calloc((size_t)d->nchecks, sizeof *o->checks)) != NULL)) {
        for (int k = 0; ok && k < d->nchecks; k++) {
            o->checks[k] = d->checks[k];
            ok = (o->checks[k].expr = d->checks[k].expr ? strdup(d->checks[k].expr) : NULL) || !d->checks[k].expr;
            o->nchecks = k + 1;
        }
    }
    if (ok && d->nfkeys && (ok = (o->fkeys = malloc((size_t)d->nfkeys * sizeof *o->fkeys)) != NULL)) {
        memcpy(o->fkeys, d->fkeys, (size_t)d->nfkeys * sizeof *o->fkeys);
        o->nfkeys = d->nfkeys;
    }
    if (ok && d->nindexes && (ok = (o->indexes = calloc((size_t)d->nindexes, sizeof *o->indexes)) != NULL)) {
        for (int k = 0; ok && k < d->nindexes; k++) {
            ok = !attu_index_copy(&o->indexes[k], &d->indexes[k]);
            if (ok) o->nindexes = k + 1;
        }
    }
    if (!ok) defaults_free(o);
    return ok ? 0 : -1;
}

attu_catalog *attu_catalog_clone(const attu_catalog *cat) {
    if (cat->layered) cat = L_base(cat);
    attu_catalog *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    size_t cap = cat->count ? cat->count : 1;
    c->tables = calloc(cap, sizeof *c->tables);
    c->defaults = calloc(cap, sizeof *c->defaults);
    c->cap = cap;
    c->views = attu_views_clone(cat->views);
    c->comments = attu_comments_clone(cat->comments);
    if (!c->tables || !c->defaults || !c->views || !c->comments) { attu_catalog_free(c); return NULL; }
    for (size_t i = 0; i < cat->count; i++) {
        if (defaults_copy(&c->defaults[i], &cat->defaults[i])) { attu_catalog_free(c); return NULL; }
        c->tables[i] = attu_table_share(cat->tables[i]);
        c->count = i + 1;
    }
    return c;
}

/* Index of name, or -(insertion point) - 1. */
static long search(const attu_catalog *cat, const char *name) {
    size_t lo = 0, hi = cat->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(cat->tables[mid]->name, name);
        if (c == 0) return (long)mid;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -(long)lo - 1;
}

attu_table *attu_catalog_lookup(const attu_catalog *cat, const char *name) {
    /* Which relation a name reaches, as PostgreSQL's schemas decide: a
     * statement's relation named t (AUTO) is the session's temporary one
     * first (pg_temp leads the search path), then the shared one; named
     * public.t (BASE) the shared one only, even where a temporary t hides
     * it; pg_temp.t (TOP) the temporary one only. db/db_temp.c sets the
     * mode for each statement from how it named its relation
     * (db_temp_stmt_mode), so every lookup of the db layer follows it; the
     * binder resolves each relation of FROM by its own qualification
     * (attu_catalog_lookup_side; planner/binder.c, bind_table_ref). */
    return attu_catalog_lookup_side(cat, name, cat->layered ? cat->mode : ATTU_LAYER_AUTO);
}

attu_table *attu_catalog_lookup_side(const attu_catalog *cat, const char *name, int side) {
    if (cat->layered) {
        attu_catalog *top = L_top(cat);
        attu_table *t = top && side != ATTU_LAYER_BASE ? attu_catalog_lookup(top, name) : NULL;
        if (t || (side == ATTU_LAYER_TOP && top)) return t;
        return attu_catalog_lookup(L_base(cat), name);
    }
    long i = search(cat, name);
    return i >= 0 ? cat->tables[i] : NULL;
}

int attu_catalog_add(attu_catalog *cat, attu_table *t, attu_error *err) {
    if (cat->layered) {
        attu_catalog *top = L_top(cat);
        return attu_catalog_add(cat->mode == ATTU_LAYER_TOP && top ? top : L_base(cat), t, err);
    }
    long i = search(cat, t->name);
    if (i >= 0 || attu_views_find(cat->views, t->name))
        return attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0,
                              "relation \"%s\" already exists", t->name);
    size_t at = (size_t)(-i - 1);
    if (cat->count == cat->cap) {
        size_t nc = cat->cap ? cat->cap * 2 : 8;
        attu_table **n = realloc(cat->tables, nc * sizeof *n);
        if (!n) return attu_error_oom(err);
        cat->tables = n;
        col_defaults *d = realloc(cat->defaults, nc * sizeof *d);
        if (!d) return attu_error_oom(err);
        cat->defaults = d;
        cat->cap = nc;
    }
    memmove(cat->tables + at + 1, cat->tables + at,
            (cat->count - at) * sizeof *cat->tables);
    memmove(cat->defaults + at + 1, cat->defaults + at,
            (cat->count - at) * sizeof *cat->defaults);
    cat->tables[at] = t;
    cat->defaults[at] = (col_defaults){ 0 };
    cat->defaults[at].stamp = next_stamp();
    cat->count++;
    return 0;
}

attu_table *attu_catalog_replace(attu_catalog *cat, attu_table *t) {
    if (cat->layered) return attu_catalog_replace(L_route(cat, t->name), t);
    long i = search(cat, t->name);
    if (i < 0) {
        /* Nothing to replace: behave as add (cannot fail but for OOM,
         * reported by returning t itself so the caller still owns it). */
        if (attu_catalog_add(cat, t, NULL) != 0) return t;
        return NULL;
    }
    attu_table *old = cat->tables[i];
    cat->tables[i] = t;
    return old;
}

attu_table *attu_catalog_remove(attu_catalog *cat, const char *name,
                                bool if_exists, attu_error *err) {
    if (cat->layered) return attu_catalog_remove(L_route(cat, name), name, if_exists, err);
    long i = search(cat, name);
    if (i < 0) {
        if (!if_exists)
            attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0,
                           "table \"%s\" does not exist", name);
        return NULL;
    }
    attu_table *t = cat->tables[i];
    defaults_free(&cat->defaults[i]);
    memmove(cat->tables + i, cat->tables + i + 1,
            (cat->count - (size_t)i - 1) * sizeof *cat->tables);
    memmove(cat->defaults + i, cat->defaults + i + 1,
            (cat->count - (size_t)i - 1) * sizeof *cat->defaults);
    cat->count--;
    return t;
}

size_t attu_catalog_count(const attu_catalog *cat) {
    if (cat->layered) {
        attu_catalog *top = L_top(cat);
        return attu_catalog_count(L_base(cat)) + (top ? attu_catalog_count(top) : 0);
    }
    return cat->count;
}

attu_table *attu_catalog_at(const attu_catalog *cat, size_t i) {
    if (cat->layered) {
        /* the shared tables in name order, then the session's */
        attu_catalog *base = L_base(cat), *top = L_top(cat);
        size_t nb = attu_catalog_count(base);
        return i < nb ? attu_catalog_at(base, i) : top ? attu_catalog_at(top, i - nb) : NULL;
    }
    return i < cat->count ? cat->tables[i] : NULL;
}

int attu_catalog_set_default(attu_catalog *cat, const char *table, int col,
                             const char *sql, attu_error *err) {
    if (cat->layered) return attu_catalog_set_default(L_route(cat, table), table, col, sql, err);
    long i = search(cat, table);
    if (i < 0)
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0,
                              "relation \"%s\" does not exist", table);
    const attu_table *t = cat->tables[i];
    col_defaults *d = &cat->defaults[i];
    if (col < 0 || col >= t->ncols)
        return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0,
                              "no column %d in relation \"%s\"", col, table);
    if (d->n < t->ncols) {
        char **n = realloc(d->sql, (size_t)t->ncols * sizeof *n);
        if (!n) return attu_error_oom(err);
        for (int k = d->n; k < t->ncols; k++) n[k] = NULL;
        d->sql = n;
        d->n = t->ncols;
    }
    char *copy = NULL;
    if (sql && !(copy = strdup(sql))) return attu_error_oom(err);
    free(d->sql[col]);
    d->sql[col] = copy;
    d->stamp = next_stamp();
    return 0;
}

const char *attu_catalog_default(const attu_catalog *cat, const char *table,
                                 int col) {
    if (cat->layered) return attu_catalog_default(L_get(cat, table), table, col);
    long i = search(cat, table);
    if (i < 0 || col < 0 || col >= cat->defaults[i].n) return NULL;
    return cat->defaults[i].sql[col];
}

int attu_catalog_set_uniques(attu_catalog *cat, const char *table,
                             const attu_unique *u, int n, attu_error *err) {
    if (cat->layered) return attu_catalog_set_uniques(L_route(cat, table), table, u, n, err);
    long i = search(cat, table);
    if (i < 0)
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0,
                              "relation \"%s\" does not exist", table);
    attu_unique *copy = NULL;
    if (n > 0) {
        if (!(copy = malloc((size_t)n * sizeof *copy))) return attu_error_oom(err);
        memcpy(copy, u, (size_t)n * sizeof *copy);
    }
    free(cat->defaults[i].uniques);
    cat->defaults[i].uniques = copy;
    cat->defaults[i].nuniques = n > 0 ? n : 0;
    cat->defaults[i].stamp = next_stamp();
    return 0;
}

const attu_unique *attu_catalog_uniques(const attu_catalog *cat,
                                        const char *table, int *n) {
    if (cat->layered) return attu_catalog_uniques(L_get(cat, table), table, n);
    long i = search(cat, table);
    *n = i >= 0 ? cat->defaults[i].nuniques : 0;
    return *n ? cat->defaults[i].uniques : NULL;
}

int attu_catalog_set_checks(attu_catalog *cat, const char *table,
                            const attu_check *c, int n, attu_error *err) {
    if (cat->layered) return attu_catalog_set_checks(L_route(cat, table), table, c, n, err);
    long i = search(cat, table);
    if (i < 0)
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0,
                              "relation \"%s\" does not exist", table);
    attu_check *copy = NULL;
    if (n > 0) {
        if (!(copy = calloc((size_t)n, sizeof *copy))) return attu_error_oom(err);
        for (int k = 0; k < n; k++) {
            copy[k] = c[k];
            if (!(copy[k].expr = strdup(c[k].expr ? c[k].expr : "true"))) {
                for (int j = 0; j < k; j++) free(copy[j].expr);
                free(copy);
                return attu_error_oom(err);
            }
        }
    }
    col_defaults *d = &cat->defaults[i];
    for (int k = 0; k < d->nchecks; k++) free(d->checks[k].expr);
    free(d->checks);
    d->checks = copy;
    d->nchecks = n > 0 ? n : 0;
    d->stamp = next_stamp();
    return 0;
}

const attu_check *attu_catalog_checks(const attu_catalog *cat,
                                      const char *table, int *n) {
    if (cat->layered) return attu_catalog_checks(L_get(cat, table), table, n);
    long i = search(cat, table);
    *n = i >= 0 ? cat->defaults[i].nchecks : 0;
    return *n ? cat->defaults[i].checks : NULL;
}

int attu_catalog_set_fkeys(attu_catalog *cat, const char *table,
                           const attu_fkey *f, int n, attu_error *err) {
    if (cat->layered) return attu_catalog_set_fkeys(L_route(cat, table), table, f, n, err);
    long i = search(cat, table);
    if (i < 0)
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0,
                              "relation \"%s\" does not exist", table);
    attu_fkey *copy = NULL;
    if (n > 0) {
        if (!(copy = malloc((size_t)n * sizeof *copy))) return attu_error_oom(err);
        memcpy(copy, f, (size_t)n * sizeof *copy);
    }
    free(cat->defaults[i].fkeys);
    cat->defaults[i].fkeys = copy;
    cat->defaults[i].nfkeys = n > 0 ? n : 0;
    cat->defaults[i].stamp = next_stamp();
    return 0;
}

const attu_fkey *attu_catalog_fkeys(const attu_catalog *cat,
                                    const char *table, int *n) {
    if (cat->layered) return attu_catalog_fkeys(L_get(cat, table), table, n);
    long i = search(cat, table);
    *n = i >= 0 ? cat->defaults[i].nfkeys : 0;
    return *n ? cat->defaults[i].fkeys : NULL;
}

/* A layer's catalogs in the order a name is looked for: the mode's one
 * alone, or the top then the base. */
static int L_order(const attu_catalog *cat, attu_catalog *out[2]) {
    attu_catalog *top = L_top(cat), *base = L_base(cat);
    if (cat->mode == ATTU_LAYER_TOP && top) { out[0] = top; return 1; }
    if (cat->mode == ATTU_LAYER_BASE || !top) { out[0] = base; return 1; }
    out[0] = top;
    out[1] = base;
    return 2;
}

attu_table *attu_catalog_constraint_owner(const attu_catalog *cat,
                                          const char *name, int *which) {
    if (cat->layered) {
        attu_catalog *c[2];
        int n = L_order(cat, c);
        for (int k = 0; k < n; k++) {
            attu_table *t = attu_catalog_constraint_owner(c[k], name, which);
            if (t) return t;
        }
        return NULL;
    }
    for (size_t i = 0; i < cat->count; i++)
        for (int k = 0; k < cat->defaults[i].nuniques; k++)
            if (!strcmp(cat->defaults[i].uniques[k].name, name)) {
                if (which) *which = k;
                return cat->tables[i];
            }
    attu_table *t = attu_catalog_index_owner(cat, name, NULL);
    if (t && which) *which = -1;
    return t;
}

attu_table *attu_catalog_index_owner(const attu_catalog *cat, const char *name, int *which) {
    if (cat->layered) {
        attu_catalog *c[2];
        int n = L_order(cat, c);
        for (int k = 0; k < n; k++) {
            attu_table *t = attu_catalog_index_owner(c[k], name, which);
            if (t) return t;
        }
        return NULL;
    }
    for (size_t i = 0; i < cat->count; i++)
        for (int k = 0; k < cat->defaults[i].nindexes; k++)
            if (!strcmp(cat->defaults[i].indexes[k].name, name)) {
                if (which) *which = k;
                return cat->tables[i];
            }
    return NULL;
}

int attu_catalog_set_indexes(attu_catalog *cat, const char *table, const attu_index_def *ix, int n, attu_error *err) {
    if (cat->layered) return attu_catalog_set_indexes(L_route(cat, table), table, ix, n, err);
    long i = search(cat, table);
    if (i < 0)
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0,
                              "relation \"%s\" does not exist", table);
    attu_index_def *copy = NULL;
    if (n > 0) {
        if (!(copy = calloc((size_t)n, sizeof *copy))) return attu_error_oom(err);
        for (int k = 0; k < n; k++)
            if (attu_index_copy(&copy[k], &ix[k])) {
                for (int j = 0; j < k; j++) attu_index_clear(&copy[j]);
                free(copy);
                return attu_error_oom(err);
            }
    }
    col_defaults *d = &cat->defaults[i];
    for (int k = 0; k < d->nindexes; k++) attu_index_clear(&d->indexes[k]);
    free(d->indexes);
    d->indexes = copy;
    d->nindexes = n > 0 ? n : 0;
    d->stamp = next_stamp();
    return 0;
}

const attu_index_def *attu_catalog_indexes(const attu_catalog *cat, const char *table, int *n) {
    if (cat->layered) return attu_catalog_indexes(L_get(cat, table), table, n);
    long i = search(cat, table);
    *n = i >= 0 ? cat->defaults[i].nindexes : 0;
    return *n ? cat->defaults[i].indexes : NULL;
}

attu_views *attu_catalog_views(const attu_catalog *cat) {
    return cat->layered ? cat->lviews : cat->views;
}
attu_comments *attu_catalog_comments(const attu_catalog *cat) {
    return cat->layered ? attu_catalog_comments(L_base(cat)) : cat->comments;
}

bool attu_catalog_relation_exists(const attu_catalog *cat, const char *name) {
    if (cat->layered) {
        attu_catalog *c[2];
        int n = L_order(cat, c);
        for (int k = 0; k < n; k++)
            if (attu_catalog_relation_exists(c[k], name)) return true;
        return false;
    }
    return search(cat, name) >= 0 || attu_views_find(cat->views, name) ||
           attu_catalog_constraint_owner(cat, name, NULL) != NULL;
}

int attu_catalog_set_defaults(attu_catalog *cat, const char *table, int n,
                              const char *const *sql, attu_error *err) {
    if (cat->layered) return attu_catalog_set_defaults(L_route(cat, table), table, n, sql, err);
    long i = search(cat, table);
    if (i < 0)
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0,
                              "relation \"%s\" does not exist", table);
    col_defaults d = { 0 };
    d.n = n;
    d.sql = n ? calloc((size_t)n, sizeof(char *)) : NULL;
    if (n && !d.sql) return attu_error_oom(err);
    for (int k = 0; k < n; k++)
        if (sql[k] && !(d.sql[k] = strdup(sql[k]))) {
            defaults_free(&d);
            return attu_error_oom(err);
        }
    /* the constraints stay: only the DEFAULTs are replaced */
    d.uniques = cat->defaults[i].uniques;
    d.nuniques = cat->defaults[i].nuniques;
    cat->defaults[i].uniques = NULL;
    cat->defaults[i].nuniques = 0;
    d.checks = cat->defaults[i].checks;
    d.nchecks = cat->defaults[i].nchecks;
    cat->defaults[i].checks = NULL;
    cat->defaults[i].nchecks = 0;
    d.fkeys = cat->defaults[i].fkeys;
    d.nfkeys = cat->defaults[i].nfkeys;
    cat->defaults[i].fkeys = NULL;
    cat->defaults[i].nfkeys = 0;
    d.indexes = cat->defaults[i].indexes;
    d.nindexes = cat->defaults[i].nindexes;
    cat->defaults[i].indexes = NULL;
    cat->defaults[i].nindexes = 0;
    defaults_free(&cat->defaults[i]);
    d.stamp = next_stamp();
    cat->defaults[i] = d;
    return 0;
}

/* ---- layered catalogs ---------------------------------------------------------------------- */

/* (attu_views_layer_new's sides: the top's views, the base's) */
static attu_views *layer_views(const void *ctx, int side) {
    const attu_catalog *cat = ctx;
    attu_catalog *c = side == 0 ? L_top(cat) : L_base(cat);
    return c ? c->views : NULL;
}

attu_catalog *attu_catalog_layer_new(attu_catalog *const *top_first, attu_catalog *const *top_then,
                                     attu_catalog *const *base_first, attu_catalog *const *base_second,
                                     attu_catalog *const *base_then, const char *schema, unsigned schema_oid) {
    attu_catalog *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->layered = true;
    c->top_ref[0] = top_first;
    c->top_ref[1] = top_then;
    c->base_ref[0] = base_first;
    c->base_ref[1] = base_second;
    c->base_ref[2] = base_then;
    snprintf(c->schema, sizeof c->schema, "%s", schema);
    c->schema_oid = schema_oid;
    if (!(c->lviews = attu_views_layer_new(layer_views, c, &c->mode))) { free(c); return NULL; }
    return c;
}

bool attu_catalog_view_is_top(const attu_catalog *cat, const attu_view *v) {
    if (!cat || !cat->layered || !v) return false;
    attu_catalog *top = L_top(cat);
    return top && attu_views_find(top->views, v->name) == v;
}

int attu_catalog_layer_mode(attu_catalog *cat, int mode) {
    if (!cat || !cat->layered) return ATTU_LAYER_AUTO;
    int old = cat->mode;
    cat->mode = mode;
    return old;
}

attu_comments *attu_catalog_domain_comments(const attu_catalog *cat, bool top) {
    if (!cat->layered) return cat->comments;
    attu_catalog *t = top ? L_top(cat) : NULL;
    return t ? t->comments : attu_catalog_comments(L_base(cat));
}

attu_comments *attu_catalog_domain_comments_of(const attu_catalog *cat, const char *rel) {
    if (!cat->layered) return cat->comments;
    attu_catalog *top = L_top(cat);
    bool in_top = top && (attu_catalog_lookup(top, rel) || attu_views_find(top->views, rel));
    return attu_catalog_domain_comments(cat, in_top);
}

bool attu_catalog_is_top(const attu_catalog *cat, const attu_table *t) {
    if (!cat || !cat->layered || !t) return false;
    attu_catalog *top = L_top(cat);
    return top && attu_catalog_lookup(top, t->name) == t;
}

bool attu_catalog_top_has(const attu_catalog *cat, const char *name) {
    if (!cat || !cat->layered) return false;
    attu_catalog *top = L_top(cat);
    return top && attu_catalog_lookup(top, name);
}

const char *attu_catalog_top_schema(const attu_catalog *cat, unsigned *oid) {
    if (!cat || !cat->layered) return NULL;
    if (oid) *oid = cat->schema_oid;
    return cat->schema;
}

attu_table *attu_catalog_lookup_shared(const attu_catalog *cat, const char *name) {
    return attu_catalog_lookup(cat->layered ? L_base(cat) : cat, name);
}

attu_catalog *attu_catalog_shared(const attu_catalog *cat) { return cat->layered ? L_base(cat) : (attu_catalog *)cat; }

attu_catalog *attu_catalog_top(const attu_catalog *cat) { return cat && cat->layered ? L_top(cat) : NULL; }

/* ---- snapshots: relations compared, a transaction's changes carried over ------------------ */

/* Whether entry ia of a and entry ib of b (-1: none) are the same
 * relation: both absent, or one table version with one stamp. */
static bool same_entry(const attu_catalog *a, long ia, const attu_catalog *b, long ib) {
    if (ia < 0 || ib < 0) return ia < 0 && ib < 0;
    return a->tables[ia] == b->tables[ib] && a->defaults[ia].stamp == b->defaults[ib].stamp;
}

bool attu_catalog_same_relation(const attu_catalog *a, const attu_catalog *b, const char *name) {
    a = attu_catalog_shared(a);
    b = attu_catalog_shared(b);
    return same_entry(a, search(a, name), b, search(b, name));
}

/* Makes out's entry for name what mine's is (mine's table version shared,
 * its DEFAULTs, constraints and indexes copied; none when mine has none). */
static int carry_entry(attu_catalog *out, const attu_catalog *mine, const char *name, attu_error *err) {
    long im = search(mine, name);
    long io = search(out, name);
    if (io >= 0) attu_table_free(attu_catalog_remove(out, name, false, err));
    if (im < 0) return 0;
    attu_table *t = attu_table_share(mine->tables[im]);
    if (attu_catalog_add(out, t, err)) {   /* (a view of that name: came after the snapshot) */
        attu_table_free(t);
        return -1;
    }
    io = search(out, name);
    if (defaults_copy(&out->defaults[io], &mine->defaults[im])) {
        out->defaults[io] = (col_defaults){ 0 };
        return attu_error_oom(err);
    }
    return 0;
}

static int serialize_error(attu_error *err) {
    return attu_error_set(err, "40001", 0, "could not serialize access due to concurrent update");
}

attu_catalog *attu_catalog_rebase(const attu_catalog *snap, const attu_catalog *mine, const attu_catalog *base,
                                  attu_error *err) {
    snap = attu_catalog_shared(snap);
    mine = attu_catalog_shared(mine);
    base = attu_catalog_shared(base);
    attu_catalog *out = attu_catalog_clone(base);
    if (!out) { attu_error_oom(err); return NULL; }
    /* the views and the comments, each as a whole (first: a table of mine
     * may take the name of a view mine dropped) */
    if (!attu_views_equal(mine->views, snap->views)) {
        attu_views *v = attu_views_equal(base->views, snap->views) ? attu_views_clone(mine->views) : NULL;
        if (!v) {
            attu_catalog_free(out);
            if (attu_views_equal(base->views, snap->views)) attu_error_oom(err);
            else serialize_error(err);
            return NULL;
        }
        attu_views_free(out->views);
        out->views = v;
    }
    if (!attu_comments_equal(mine->comments, snap->comments)) {
        attu_comments *c = attu_comments_equal(base->comments, snap->comments) ? attu_comments_clone(mine->comments) : NULL;
        if (!c) {
            attu_catalog_free(out);
            if (attu_comments_equal(base->comments, snap->comments)) attu_error_oom(err);
            else serialize_error(err);
            return NULL;
        }
        attu_comments_free(out->comments);
        out->comments = c;
    }
    /* every relation of the snapshot, then those mine made */
    for (int pass = 0; pass < 2; pass++) {
        const attu_catalog *from = pass == 0 ? snap : mine;
        for (size_t i = 0; i < from->count; i++) {
            const char *name = from->tables[i]->name;
            if (pass == 1 && search(snap, name) >= 0) continue;   /* (seen) */
            long is = search(snap, name);
            if (same_entry(mine, search(mine, name), snap, is)) continue;   /* not mine to carry */
            if (!same_entry(base, search(base, name), snap, is)) {   /* changed on both sides */
                attu_catalog_free(out);
                serialize_error(err);
                return NULL;
            }
            if (carry_entry(out, mine, name, err)) {
                attu_catalog_free(out);
                if (!strcmp(err->sqlstate, ATTU_SQLSTATE_DUPLICATE_TABLE)) { attu_error_clear(err); serialize_error(err); }
                return NULL;
            }
        }
    }
    return out;
}
