/*
 * db_create_like.c - CREATE TABLE t (LIKE source [INCLUDING | EXCLUDING
 * option] ..., ...): the source's columns in place of the LIKE element.
 *
 * The grammar leaves a placeholder column entry (attu_ast_column_def.like)
 * where LIKE stands; before CREATE TABLE does anything else,
 * db_create_like_expand gives it a copy of the statement in which every
 * placeholder is the source's columns, in the source's order, as
 * PostgreSQL 15's transformTableLikeClause copies them:
 *
 *   - always: names, types (resolved already: has_type) and NOT NULL;
 *   - INCLUDING DEFAULTS: a column's DEFAULT text, kept as it is (a serial
 *     column's nextval of the source's sequence too, which the new table
 *     does not own); an identity column's DEFAULT is its sequence's, never
 *     copied;
 *   - INCLUDING IDENTITY: an identity column stays one, with a new
 *     sequence of the source sequence's options (type, start, increment,
 *     bounds, cache, cycle);
 *   - INCLUDING GENERATED: a generated column's expression (else the
 *     column is a plain one);
 *   - INCLUDING CONSTRAINTS: the CHECK constraints, under their names;
 *   - INCLUDING INDEXES: the PRIMARY KEY and UNIQUE constraints (named
 *     anew for the new table: t_pkey, t_a_key) and the CREATE INDEX
 *     indexes, given back as CREATE INDEX statements over the new table
 *     for CREATE TABLE to run once it exists (so they are named as CREATE
 *     INDEX names them: t_a_b_idx, t_lower_idx);
 *   - INCLUDING COMMENTS: the columns' comments;
 *   - STORAGE, STATISTICS, COMPRESSION: nothing attu keeps;
 *   - FOREIGN KEYs never.
 *
 * A view's columns come without NOT NULL (a view has none) and, with
 * DEFAULTS, with the DEFAULTs ALTER VIEW gave them; a sequence is 42809,
 * an unknown name 42P01 at the name. A column both copied and written is
 * CREATE TABLE's own 42701 (with no position for a copied one, as
 * PostgreSQL's).
 */
#include "db/db_internal.h"
#include "db/db_domain_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/domain_type.h"
#include "engine/sequence.h"
#include "engine/strbuf.h"

/* One LIKE's source: a table or a view, looked up under the read lock. */
typedef struct like_src {
    const attu_table *t;
    const attu_view  *v;
} like_src;

static void *alloc(attu_ast_arena *a, size_t n, attu_error *err) {
    void *p = attu_ast_alloc(a, n ? n : 1);
    if (!p) attu_error_oom(err);
    else memset(p, 0, n ? n : 1);
    return p;
}

static const char *dup(attu_ast_arena *a, const char *s, bool *oom) {
    if (!s) return NULL;
    char *d = attu_ast_strdup(a, s);
    if (!d) *oom = true;
    return d;
}

static int find_source(attu_session *s, const attu_ast_table_like *l, like_src *src, attu_error *err) {
    memset(src, 0, sizeof *src);
    attu_catalog *cat = db_cat(s);
    src->t = l->schema == ATTU_REL_PUBLIC ? attu_catalog_lookup_shared(cat, l->table) : attu_catalog_lookup(cat, l->table);
    if (src->t && !src->t->unavailable) return 0;
    if (src->t) return attu_error_set(err, "XX001", 0, "table \"%s\" is unavailable", l->table);
    src->v = attu_views_find(attu_catalog_views(cat), l->table);
    if (src->v) return 0;
    if (db_sequence_exists(s, l->table)) {
        attu_error_set(err, "42809", l->position, "relation \"%s\" is invalid in LIKE clause",
                       l->table);
        attu_error_set_detail(err, "This operation is not supported for sequences.");
        return -1;
    }
    return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, l->position, "relation \"%s\" does not exist", l->table);
}

/* The options of the sequence serving identity column table.column, as
 * CREATE would write them all out. */
static bool identity_options(attu_session *s, const char *table, const char *column, attu_sequence_options *o) {
    attu_sequence **seqs = NULL;
    int n = 0;
    bool found = false;
    if (db_sequences_list(s, &seqs, &n)) return false;
    for (int i = 0; i < n; i++) {
        const attu_sequence *q = seqs[i];
        if (!found && q->identity && q->owner_table && q->owner_column && !strcmp(q->owner_table, table) &&
            !strcmp(q->owner_column, column)) {
            memset(o, 0, sizeof *o);
            o->type = q->type;
            o->has_increment = o->has_min = o->has_max = o->has_start = o->has_cache = o->has_cycle = true;
            o->increment = q->increment;
            o->min = q->min;
            o->max = q->max;
            o->start = q->start;
            o->cache = q->cache;
            o->cycle = q->cycle;
            found = true;
        }
        attu_sequence_free(seqs[i]);
    }
    free(seqs);
    return found;
}

/* Whether an index expression's text is one function call, name(...),
 * which CREATE INDEX takes without parentheses of its own (and prints so). */
static bool one_call(const char *e) {
    const char *p = e;
    while (*p && *p != '(' && *p != ' ' && *p != '\'' && *p != '"') p++;
    if (*p != '(' || p == e) return false;
    int depth = 0;
    bool quoted = false;
    for (; *p; p++) {
        if (*p == '\'') quoted = !quoted;
        if (quoted) continue;
        if (*p == '(') depth++;
        else if (*p == ')' && --depth == 0) return p[1] == '\0';
    }
    return false;
}

/* An index of the source as CREATE INDEX over the new table (the keys by
 * name, so they find their columns wherever the LIKE put them). */
static char *index_sql(const attu_table *src, const attu_index_def *ix, const char *table, attu_error *err) {
    attu_strbuf b = { 0 };
    attu_strbuf_puts(&b, ix->unique ? "CREATE UNIQUE INDEX ON " : "CREATE INDEX ON ");
    attu_strbuf_quote_ident(&b, table);
    attu_strbuf_printf(&b, " USING %s (", ix->method[0] ? ix->method : "btree");
    for (int k = 0; k < ix->ncols; k++) {
        if (k == ix->nkeys) attu_strbuf_puts(&b, ") INCLUDE (");
        else if (k) attu_strbuf_puts(&b, ", ");
        if (ix->cols[k] >= 0 && ix->cols[k] < src->ncols) attu_strbuf_quote_ident(&b, src->defs[ix->cols[k]].name);
        else if (ix->expr[k] && one_call(ix->expr[k])) attu_strbuf_puts(&b, ix->expr[k]);
        else attu_strbuf_printf(&b, "(%s)", ix->expr[k] ? ix->expr[k] : "NULL");
        if (k >= ix->nkeys) continue;
        if (ix->suffix[k]) attu_strbuf_puts(&b, ix->suffix[k]);
        if (ix->order[k] & ATTU_INDEX_DESC) attu_strbuf_puts(&b, " DESC");
        if (ix->order[k] & ATTU_INDEX_NULLS_FIRST) attu_strbuf_puts(&b, " NULLS FIRST");
        if (ix->order[k] & ATTU_INDEX_NULLS_LAST) attu_strbuf_puts(&b, " NULLS LAST");
    }
    attu_strbuf_puts(&b, ")");
    if (ix->nulls_not_distinct) attu_strbuf_puts(&b, " NULLS NOT DISTINCT");
    if (ix->options) attu_strbuf_printf(&b, " WITH (%s)", ix->options);
    if (ix->where) attu_strbuf_printf(&b, " WHERE %s", ix->where);
    if (b.oom) { free(b.p); attu_error_oom(err); return NULL; }
    return b.p;
}

static bool has_like(const attu_ast_stmt *st) {
    for (int i = 0; i < st->u.create_table.ncolumns; i++)
        if (st->u.create_table.columns[i].like) return true;
    return false;
}

/* Copies source src's columns (and what the options bring) into the
 * statement being built: cols from *nc on, uniques from *nu on. */
static int copy_source(attu_session *s, const attu_ast_table_like *l, const like_src *src, attu_ast_arena *a,
                       const char *table, attu_ast_column_def *cols, int *nc, attu_ast_unique_def *uniques, int *nu,
                       db_create_like *out, attu_error *err) {
    attu_catalog *cat = db_cat(s);
    unsigned inc = l->including;
    bool oom = false;
    int ncols = src->t ? src->t->ncols : src->v->ncols;
    const char *rel = src->t ? src->t->name : src->v->name;
    int first = *nc;
    for (int k = 0; k < ncols; k++) {
        attu_ast_column_def *d = &cols[(*nc)++];
        memset(d, 0, sizeof *d);
        const char *name = src->t ? src->t->defs[k].name : src->v->col_names[k];
        d->name = (char *)dup(a, name, &oom);
        d->has_type = true;
        d->resolved = src->t ? src->t->defs[k].type : src->v->col_types[k];
        d->type.name = (char *)"";
        d->type.precision = d->type.scale = -1;
        /* a column of a domain stays one: its type by the domain's name,
         * which CREATE TABLE resolves and records as it does a written one */
        const char *dom = attu_domain_of_column(db_domain_columns(s, rel), rel, name);
        if (dom) {
            d->has_type = false;
            d->type.name = (char *)dup(a, dom, &oom);
        }
        if (src->v) {
            if (inc & ATTU_LIKE_DEFAULTS) d->default_sql = dup(a, src->v->col_defaults[k], &oom);
        } else {
            const attu_table *t = src->t;
            d->not_null = t->defs[k].not_null;
            const char *dflt = attu_catalog_default(cat, t->name, k);
            char id = db_sequence_identity(s, t->name, name);
            if (t->defs[k].generated) {
                if (inc & ATTU_LIKE_GENERATED) d->generated_sql = dup(a, dflt, &oom);
            } else if (id) {
                if ((inc & ATTU_LIKE_IDENTITY) && identity_options(s, t->name, name, &d->identity_options)) {
                    d->identity = id;
                    d->identity_as.name = NULL;
                }
            } else if (inc & ATTU_LIKE_DEFAULTS) d->default_sql = dup(a, dflt, &oom);
        }
        if (inc & ATTU_LIKE_COMMENTS)
            d->comment = dup(a, attu_comments_get(attu_catalog_comments(cat), 'c', rel, name), &oom);
    }
    if (oom) return attu_error_oom(err);
    if (!src->t) return 0;
    const attu_table *t = src->t;
    if (inc & ATTU_LIKE_CONSTRAINTS) {
        int n = 0;
        const attu_check *cs = attu_catalog_checks(cat, t->name, &n);
        for (int i = 0; i < n; i++) {
            attu_ast_unique_def *u = &uniques[(*nu)++];
            memset(u, 0, sizeof *u);
            u->name = (char *)dup(a, cs[i].name, &oom);
            u->check_text = (char *)dup(a, cs[i].expr, &oom);
            /* (only its text is read: the expression stands for "a CHECK") */
            if (!(u->check = alloc(a, sizeof *u->check, err))) return -1;
            u->check->kind = ATTU_EXPR_LITERAL;
            u->check->u.literal.kind = ATTU_LIT_BOOL;
            u->check->u.literal.text = (char *)"true";
        }
    }
    if (inc & ATTU_LIKE_INDEXES) {
        int n = 0;
        const attu_unique *us = attu_catalog_uniques(cat, t->name, &n);
        for (int i = 0; i < n; i++) {
            if (us[i].index) continue;   /* (a CREATE UNIQUE INDEX's: with the indexes below) */
            attu_ast_unique_def *u = &uniques[(*nu)++];
            memset(u, 0, sizeof *u);
            u->primary = us[i].primary;
            u->deferrable = us[i].deferrable;
            u->initially_deferred = us[i].initially_deferred;
            u->columns.n = us[i].ncols;
            if (!(u->columns.items = alloc(a, sizeof(char *) * (size_t)us[i].ncols, err)) ||
                !(u->columns.positions = alloc(a, sizeof(int) * (size_t)us[i].ncols, err)))
                return -1;
            for (int j = 0; j < us[i].ncols; j++) {
                const char *cn = t->defs[us[i].cols[j]].name;
                u->columns.items[j] = (char *)dup(a, cn, &oom);
                /* a primary key's columns are NOT NULL (the copies of
                 * them are first + their source column number) */
                if (u->primary) {
                    cols[first + us[i].cols[j]].primary_key = true;
                    cols[first + us[i].cols[j]].not_null = true;
                }
            }
        }
        int ni = 0;
        const attu_index_def *ix = attu_catalog_indexes(cat, t->name, &ni);
        for (int i = 0; i < ni; i++) {
            char **grown = realloc(out->index_sql, sizeof *grown * (size_t)(out->nindex + 1));
            if (!grown) return attu_error_oom(err);
            out->index_sql = grown;
            if (!(out->index_sql[out->nindex] = index_sql(t, &ix[i], table, err))) return -1;
            out->nindex++;
        }
    }
    if (oom) return attu_error_oom(err);
    return 0;
}

int db_create_like_expand(attu_session *s, const attu_ast_stmt *st, db_create_like *out, attu_error *err) {
    memset(out, 0, sizeof *out);
    out->st = (attu_ast_stmt *)st;
    if (!has_like(st)) return 0;
    int n = st->u.create_table.ncolumns;
    like_src *srcs = calloc((size_t)n + 1, sizeof *srcs);
    if (!srcs) return attu_error_oom(err);
    int rc = -1;
    pthread_rwlock_rdlock(&s->db->lock);
    /* the sizes first: every column and constraint each source brings */
    int ncols = 0, nuniques = st->u.create_table.nuniques;
    for (int i = 0; i < n; i++) {
        const attu_ast_column_def *d = &st->u.create_table.columns[i];
        if (!d->like) { ncols++; continue; }
        if (find_source(s, d->like, &srcs[i], err)) goto out;
        if (srcs[i].v) { ncols += srcs[i].v->ncols; continue; }
        int k = 0;
        ncols += srcs[i].t->ncols;
        attu_catalog_checks(db_cat(s), srcs[i].t->name, &k);
        nuniques += k;
        attu_catalog_uniques(db_cat(s), srcs[i].t->name, &k);
        nuniques += k;
    }
    if (!(out->arena = attu_ast_arena_new())) { attu_error_oom(err); goto out; }
    attu_ast_stmt *copy = alloc(out->arena, sizeof *copy, err);
    attu_ast_column_def *cols = copy ? alloc(out->arena, sizeof *cols * (size_t)(ncols + 1), err) : NULL;
    attu_ast_unique_def *uniques = cols ? alloc(out->arena, sizeof *uniques * (size_t)(nuniques + 1), err) : NULL;
    if (!uniques) goto out;
    *copy = *st;
    int nc = 0, nu = 0;
    /* the constraints written first: a LIKE's come after them, as
     * PostgreSQL adds them (its primary key is then the second one) */
    for (int i = 0; i < st->u.create_table.nuniques; i++) uniques[nu++] = st->u.create_table.uniques[i];
    for (int i = 0; i < n; i++) {
        const attu_ast_column_def *d = &st->u.create_table.columns[i];
        if (!d->like) { cols[nc++] = *d; continue; }
        if (copy_source(s, d->like, &srcs[i], out->arena, st->u.create_table.table, cols, &nc, uniques, &nu, out, err))
            goto out;
    }
    /* a written PRIMARY KEY's columns, wherever they came from, are NOT
     * NULL (the grammar could not find a copied one) */
    for (int i = 0; i < st->u.create_table.nuniques; i++) {
        const attu_ast_unique_def *u = &st->u.create_table.uniques[i];
        if (!u->primary) continue;
        for (int j = 0; j < u->columns.n; j++)
            for (int k = 0; k < nc; k++)
                if (!strcmp(cols[k].name, u->columns.items[j])) cols[k].primary_key = cols[k].not_null = true;
    }
    copy->u.create_table.columns = cols;
    copy->u.create_table.ncolumns = nc;
    copy->u.create_table.uniques = uniques;
    copy->u.create_table.nuniques = nu;
    out->st = copy;
    rc = 0;
out:
    pthread_rwlock_unlock(&s->db->lock);
    free(srcs);
    if (rc) db_create_like_free(out);
    return rc;
}

void db_create_like_free(db_create_like *l) {
    for (int i = 0; i < l->nindex; i++) free(l->index_sql[i]);
    free(l->index_sql);
    if (l->arena) attu_ast_arena_free(l->arena);
    memset(l, 0, sizeof *l);
}
