/*
 * db_domain_check.c - a domain's NOT NULL and CHECKs over the values
 * written to its columns (db_domain_check.h).
 *
 * As a table's CHECKs (db_check.c), by one query over the statement's
 * rows: per column of a domain, per rule, the lowest failing rowid, each
 * CHECK's expression with VALUE turned into the column's name (token by
 * token: planner/ident_rename.c). The query runs on whichever backend
 * runs the statement; nothing here is new to the expression evaluators.
 */
#include "db/db_internal.h"
#include "db/db_check.h"
#include "db/db_domain_check.h"
#include "db/db_unique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/column.h"
#include "engine/comments.h"
#include "engine/strbuf.h"
#include "planner/lexer.h"

#define ROWID "\"" ATTU_ROWID_INTERNAL "\""

/* One rule of one column: which -1 NOT NULL, else d's CHECK which. */
typedef struct rule { int col; const attu_domain_def *d; int which; } rule;


/* Appends to b the condition under which column col fails rule (which):
 * "col IS NULL" or "NOT (expr over col)". -1: no memory / bad text. */
static int put_failing(attu_strbuf *b, const char *col, const attu_domain_def *d, int which, attu_error *err) {
    attu_strbuf_puts(b, "min(CASE WHEN ");
    if (which < 0) {
        attu_strbuf_quote_ident(b, col);
        attu_strbuf_puts(b, " IS NULL");
    } else {
        int count = 0;
        char *e = attu_sql_rename_column(d->checks[which].expr, "value", col, &count, err);
        if (!e) return -1;
        attu_strbuf_puts(b, "NOT (\n");
        attu_strbuf_puts(b, e);
        attu_strbuf_puts(b, "\n)");
        free(e);
    }
    attu_strbuf_puts(b, " THEN " ROWID " END)");
    return 0;
}

/* The query of the rules over g (rule k reads g's column rules[k].col) and
 * the first failing rule's error: 23502 for a NOT NULL, 23514 for a CHECK.
 * 0: none fails; -1: the error (or another) set. */
static int run_rules(attu_session *s, attu_table *g, const rule *rules, int nr, attu_error *err) {
    attu_strbuf b = { 0 };
    int rc = -1;
    attu_strbuf_puts(&b, "SELECT ");
    for (int k = 0; k < nr; k++) {
        if (k) attu_strbuf_puts(&b, ", ");
        if (put_failing(&b, g->defs[rules[k].col].name, rules[k].d, rules[k].which, err)) goto out;
    }
    attu_strbuf_puts(&b, " FROM ");
    attu_strbuf_quote_ident(&b, g->name);
    if (b.oom) { attu_error_oom(err); goto out; }
    attu_result *res = db_check_run_over(s, g, b.p, err);
    if (!res) { err->position = 0; goto out; }
    int which = -1;
    int64_t best = db_check_first_failing(res, nr, &which);
    attu_result_free(res);
    rc = 0;
    if (best >= 0) {
        const rule *r = &rules[which];
        if (r->which < 0)
            attu_error_set(err, "23502", 0, "domain %s does not allow null values", r->d->name);
        else
            attu_error_set(err, "23514", 0, "value for domain %s violates check constraint \"%s\"", r->d->name,
                           r->d->checks[r->which].name);
        rc = -1;
    }
out:
    free(b.p);
    return rc;
}

/* The rules of t's columns into *out (NOT NULL, then the CHECKs in
 * attu_domain_rules' order, per column in order), their definitions into defs[ncols] (freed by the
 * caller); the count, or -1 for memory. */
static int gather_rules(attu_session *s, const attu_table *t, attu_domain_def **defs, rule **out) {
    const attu_comments *cs = attu_catalog_comments(db_cat(s)), *cols = db_domain_columns(s, t->name);
    int n = 0, cap = 0;
    rule *r = NULL;
    for (int c = 0; c < t->ncols; c++) {
        const char *dn = attu_domain_of_column(cols, t->name, t->defs[c].name);
        if (!dn || !(defs[c] = attu_domain_rules_in(cs, dn))) continue;
        const attu_domain_def *d = defs[c];
        for (int k = -1; k < d->n; k++) {
            if (k < 0 && !d->not_null) continue;
            if (n == cap) {
                rule *nr = realloc(r, (size_t)(cap = cap ? cap * 2 : 8) * sizeof *nr);
                if (!nr) { free(r); return -1; }
                r = nr;
            }
            r[n++] = (rule){ c, d, k };
        }
    }
    *out = r;
    return n;
}

attu_comments *db_domain_columns(attu_session *s, const char *rel) {
    return attu_catalog_domain_comments_of(db_cat(s), rel);
}

/* The columns of g (the written rows) that are arrays of a domain (kept
 * as "d[]"): each element checked by the cast to d[], which raises the
 * first failing element's error (planner/domain_bind.c), row by row. */
static int check_array_columns(attu_session *s, attu_table *g, attu_error *err) {
    const attu_comments *cols = db_domain_columns(s, g->name);
    attu_strbuf b = { 0 };
    int n = 0;
    attu_strbuf_puts(&b, "SELECT ");
    for (int c = 0; c < g->ncols; c++) {
        const char *dn = attu_domain_of_column(cols, g->name, g->defs[c].name);
        size_t len = dn ? strlen(dn) : 0;
        if (len < 3 || strcmp(dn + len - 2, "[]")) continue;
        if (n++) attu_strbuf_puts(&b, ", ");
        attu_strbuf_puts(&b, "count(");
        attu_strbuf_quote_ident(&b, g->defs[c].name);
        attu_strbuf_puts(&b, "::");
        char en[ATTU_NAME_MAX + 1];
        snprintf(en, sizeof en, "%.*s", (int)(len - 2), dn);
        attu_strbuf_quote_ident(&b, en);
        attu_strbuf_puts(&b, "[])");
    }
    attu_strbuf_puts(&b, " FROM ");
    attu_strbuf_quote_ident(&b, g->name);
    int rc = 0;
    if (b.oom) rc = attu_error_oom(err);
    else if (n) {
        attu_result *res = db_check_run_over(s, g, b.p, err);
        if (!res) { err->position = 0; rc = -1; }
        attu_result_free(res);
    }
    free(b.p);
    return rc;
}

int db_domain_check_rows(attu_session *s, attu_table *t, size_t first, const uint8_t *changed, attu_error *err) {
    /* (a temporary table's columns are in its layer's store: the entries
     * of a permanent table its name shadows are not its) */
    if (!attu_domain_rel_has_columns(db_domain_columns(s, t->name), t->name)) return 0;
    size_t n = 0, *rows = NULL;
    if (changed) {
        for (size_t r = 0; r < t->nrows; r++) n += changed[r] != 0;
    } else n = first < t->nrows ? t->nrows - first : 0;
    if (!n) return 0;
    attu_domain_def **defs = calloc((size_t)t->ncols + 1, sizeof *defs);
    rule *rules = NULL;
    int nr = defs ? gather_rules(s, t, defs, &rules) : -1, rc = -1;
    attu_table *g = t;
    if (nr < 0) { attu_error_oom(err); goto out; }
    if (changed || first > 0) {
        if (!(rows = malloc(sizeof *rows * n))) { attu_error_oom(err); goto out; }
        size_t k = 0;
        for (size_t r = changed ? 0 : first; r < t->nrows; r++)
            if (!changed || changed[r]) rows[k++] = r;
        if (!(g = db_gather_rows(t, rows, n, t->name, err))) { g = t; goto out; }
    }
    rc = run_rules(s, g, rules, nr, err);
    if (!rc) rc = check_array_columns(s, g, err);
out:
    if (g != t) attu_table_free(g);
    free(rows);
    free(rules);
    for (int c = 0; defs && c < t->ncols; c++) attu_domain_def_free(defs[c]);
    free(defs);
    return rc;
}

static int check_existing_in(attu_session *s, const attu_comments *cols, const attu_domain_def *d, int which,
                             attu_error *err);

int db_domain_check_existing(attu_session *s, const attu_domain_def *d, int which, attu_error *err) {
    const attu_comments *cs = attu_catalog_comments(db_cat(s));
    int rc = check_existing_in(s, cs, d, which, err);
    const attu_comments *top = attu_catalog_domain_comments(db_cat(s), true);
    if (!rc && top != cs) rc = check_existing_in(s, top, d, which, err);   /* (the temporary tables') */
    return rc;
}

/* ... the columns cols keeps (the shared store, or the session's
 * temporary tables'; a permanent table a temporary one shadows is not
 * reached by its name: left out) */
static int check_existing_in(attu_session *s, const attu_comments *cols, const attu_domain_def *d, int which,
                             attu_error *err) {
    const attu_comments *cs = attu_catalog_comments(db_cat(s));
    bool shared = cols == cs;
    for (size_t i = 0; i < attu_comments_count(cols); i++) {
        const attu_comment *c = attu_comments_at(cols, i);
        if (c->kind != ATTU_DOMAIN_COLUMN_KIND) continue;
        size_t tl = strlen(c->text);
        if (tl > 2 && !strcmp(c->text + tl - 2, "[]")) {
            /* an array of it (or of a domain over it): PostgreSQL does
             * not look into arrays here, it refuses */
            char en[ATTU_NAME_MAX + 1];
            snprintf(en, sizeof en, "%.*s", (int)(tl - 2), c->text);
            if (attu_domain_derives(cs, en, d->name) && !(shared && db_temp_has(s, c->rel)))
                return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                                      "cannot alter type \"%s\" because column \"%s.%s\" uses it", en, c->rel, c->sub);
            continue;
        }
        /* (the columns of the domains over it too: theirs are its values) */
        if (!attu_domain_derives(cs, c->text, d->name)) continue;
        if (shared && db_temp_has(s, c->rel)) continue;
        attu_table *t = attu_catalog_lookup(db_cat(s), c->rel);
        if (!t || attu_table_find_column(t, c->sub) < 0) continue;
        attu_strbuf b = { 0 };
        attu_strbuf_puts(&b, "SELECT ");
        if (put_failing(&b, c->sub, d, which, err)) { free(b.p); return -1; }
        attu_strbuf_puts(&b, " FROM ");
        attu_strbuf_quote_ident(&b, t->name);
        if (b.oom) { free(b.p); return attu_error_oom(err); }
        attu_result *res = db_check_run_over(s, t, b.p, err);
        free(b.p);
        if (!res) { err->position = 0; return -1; }
        int w = -1;
        int64_t best = db_check_first_failing(res, 1, &w);
        attu_result_free(res);
        if (best < 0) continue;
        if (which < 0)
            return attu_error_set(err, "23502", 0, "column \"%s\" of table \"%s\" contains null values", c->sub, c->rel);
        return attu_error_set(err, "23514", 0, "column \"%s\" of table \"%s\" contains values that violate the new constraint",
                              c->sub, c->rel);
    }
    return 0;
}

int db_domain_check_values(attu_session *s, const attu_domain_def *dom, attu_type t, attu_column *col, size_t nrows,
                           attu_error *err) {
    attu_domain_def *d = attu_domain_rules_in(attu_catalog_comments(db_cat(s)), dom->name);
    if (!d) return attu_error_oom(err);
    if (!d->not_null && !d->n) { attu_domain_def_free(d); return 0; }
    /* a stand-in table of one column, the column being col itself */
    attu_column_def def;
    memset(&def, 0, sizeof def);
    snprintf(def.name, sizeof def.name, "value");
    def.type = t;
    attu_table *g = attu_table_new(DB_DOMAIN_STAND_IN, 1, &def, err);
    if (!g) { attu_domain_def_free(d); return -1; }
    attu_column_free(g->cols[0]);
    g->cols[0] = attu_column_share(col);
    g->nrows = nrows;
    rule *rules = NULL;
    int nr = 0, rc = -1;
    /* the rules as gather_rules orders them, over the column "value" */
    if (!(rules = calloc((size_t)d->n + 1, sizeof *rules))) { attu_error_oom(err); goto out; }
    if (d->not_null) rules[nr++] = (rule){ 0, d, -1 };
    for (int k = 0; k < d->n; k++) rules[nr++] = (rule){ 0, d, k };
    rc = run_rules(s, g, rules, nr, err);
out:
    free(rules);
    attu_table_free(g);
    attu_domain_def_free(d);
    return rc;
}

int db_domain_check_array_values(attu_session *s, const char *domain, attu_type t, attu_column *col, size_t nrows,
                                 attu_error *err) {
    attu_column_def def;
    memset(&def, 0, sizeof def);
    snprintf(def.name, sizeof def.name, "value");
    def.type = t;
    attu_table *g = attu_table_new(DB_DOMAIN_STAND_IN, 1, &def, err);
    if (!g) return -1;
    attu_column_free(g->cols[0]);
    g->cols[0] = attu_column_share(col);
    g->nrows = nrows;
    /* (each element through the cast to d[]: planner/domain_bind.c) */
    attu_strbuf b = { 0 };
    attu_strbuf_puts(&b, "SELECT count(\"value\"::");
    attu_strbuf_quote_ident(&b, domain);
    attu_strbuf_puts(&b, "[]) FROM ");
    attu_strbuf_quote_ident(&b, g->name);
    int rc = 0;
    if (b.oom) rc = attu_error_oom(err);
    else {
        attu_result *res = db_check_run_over(s, g, b.p, err);
        if (!res) { err->position = 0; rc = -1; }
        attu_result_free(res);
    }
    free(b.p);
    attu_table_free(g);
    return rc;
}

char *db_domain_default_of(attu_session *s, const attu_ast_typename *tn, attu_error *err) {
    attu_domain_def *d = db_domain_of_typename(s, tn);
    char *r = d && d->dflt ? strdup(d->dflt) : NULL;
    if (d && d->dflt && !r) attu_error_oom(err);
    attu_domain_def_free(d);
    return r;
}

char *db_column_default(attu_session *s, const attu_table *t, int col, attu_error *err) {
    /* a generated column's text is its expression, which no statement
     * takes as a value: such a column starts NULL, and
     * db_generated_fill computes it over the row (db_generated.c) */
    if (t->defs[col].generated) return NULL;
    const char *own = attu_catalog_default(db_cat(s), t->name, col);
    if (own) {
        char *r = strdup(own);
        if (!r) attu_error_oom(err);
        return r;
    }
    /* no DEFAULT of its own: its domain's as the domain has it now
     * (PostgreSQL's build_column_default reads the type's typdefault at
     * each INSERT; a domain over a domain got its parent's at CREATE
     * DOMAIN, so the column's own domain is the only one read) */
    const attu_comments *cs = attu_catalog_comments(db_cat(s));
    const char *dn = attu_domain_of_column(db_domain_columns(s, t->name), t->name, t->defs[col].name);
    attu_domain_def *d = dn ? attu_domain_find_in(cs, dn) : NULL;
    char *r = d && d->dflt ? strdup(d->dflt) : NULL;
    if (d && d->dflt && !r) attu_error_oom(err);
    attu_domain_def_free(d);
    return r;
}

int db_domain_null_message(attu_session *s, int rc, attu_error *err) {
    static const char head[] = "null value in column \"", mid[] = "\" of relation \"";
    if (rc >= 0 || strcmp(err->sqlstate, "23502") || strncmp(err->message, head, sizeof head - 1)) return rc;
    char col[ATTU_NAME_MAX + 1], rel[ATTU_NAME_MAX + 1];
    const char *c = err->message + sizeof head - 1, *m = strstr(c, mid);
    if (!m || (size_t)(m - c) > ATTU_NAME_MAX) return rc;
    const char *r = m + sizeof mid - 1, *e = strchr(r, '"');
    if (!e || (size_t)(e - r) > ATTU_NAME_MAX) return rc;
    snprintf(col, sizeof col, "%.*s", (int)(m - c), c);
    snprintf(rel, sizeof rel, "%.*s", (int)(e - r), r);
    pthread_rwlock_rdlock(&s->db->lock);
    const attu_comments *cs = attu_catalog_comments(db_cat(s));
    const char *dn = attu_domain_of_column(db_domain_columns(s, rel), rel, col);
    attu_domain_def *d = dn ? attu_domain_rules_in(cs, dn) : NULL;
    if (d && d->not_null) {
        attu_error_clear(err);
        attu_error_set(err, "23502", 0, "domain %s does not allow null values", d->name);
    }
    attu_domain_def_free(d);
    pthread_rwlock_unlock(&s->db->lock);
    return rc;
}
