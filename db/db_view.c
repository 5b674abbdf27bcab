/*
 * db_view.c - CREATE [OR REPLACE] VIEW, DROP VIEW, what DROP TABLE asks of
 * the views that read a table, and the errors of statements that name a
 * view where only a table may stand.
 *
 * A view is kept as the text of its query with the columns CREATE VIEW
 * fixed and the relations its query names (engine/view.h); the binder
 * expands it wherever a query names it (planner/binder.c, bind_view_ref),
 * so both backends run it as any subquery. CREATE VIEW binds the query
 * without running anything (as PostgreSQL only analyses it): errors point
 * into the CREATE statement, the bound columns become the view's, and the
 * relations the binder met become its dependencies. The views of a data
 * directory live in one file (engine/storage.h), rewritten by each change
 * under the write lock; a failed save restores the catalog as it was.
 */
#include "db/db_internal.h"
#include "db/db_domain_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/comments.h"
#include "engine/domain_type.h"
#include "engine/storage.h"
#include "engine/view.h"
#include "planner/lexer.h"

/* ---- dependencies ------------------------------------------------------- */

const char *db_quote_ident(const char *name, char *out, size_t cap) {
    bool plain = (name[0] >= 'a' && name[0] <= 'z') || name[0] == '_';
    for (const char *p = name; *p && plain; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_';
    if (plain && !attu_keyword_needs_quotes(name)) {
        snprintf(out, cap, "%s", name);
        return out;
    }
    size_t k = 0;
    if (k + 1 < cap) out[k++] = '"';
    for (const char *p = name; *p && k + 3 < cap; p++) {
        if (*p == '"') out[k++] = '"';
        out[k++] = *p;
    }
    if (k + 1 < cap) out[k++] = '"';
    out[k] = '\0';
    return out;
}

typedef struct name_set { char **v; int n, cap; bool oom; } name_set;

static bool set_has(const name_set *s, const char *name) {
    for (int i = 0; i < s->n; i++) if (!strcmp(s->v[i], name)) return true;
    return false;
}

static void set_add(name_set *s, const char *name) {
    if (s->oom || set_has(s, name)) return;
    if (s->n == s->cap) {
        int nc = s->cap ? s->cap * 2 : 8;
        char **n = realloc(s->v, sizeof *n * (size_t)nc);
        if (!n) { s->oom = true; return; }
        s->v = n; s->cap = nc;
    }
    if (!(s->v[s->n] = strdup(name))) { s->oom = true; return; }
    s->n++;
}

static void set_free(name_set *s) {
    for (int i = 0; i < s->n; i++) free(s->v[i]);
    free(s->v);
    memset(s, 0, sizeof *s);
}

static void on_relation(void *ctx, const char *name) { set_add(ctx, name); }

static int by_seq(const void *a, const void *b) {
    const attu_view *x = *(const attu_view *const *)a, *y = *(const attu_view *const *)b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* What a DETAIL line calls a relation: "table t", "view v",
 * "materialized view m". */
static void kind_name(const attu_catalog *cat, const char *name, char *out, size_t cap) {
    char q[2 * ATTU_NAME_MAX + 4];
    const attu_view *v = attu_views_find(attu_catalog_views(cat), name);
    snprintf(out, cap, "%s %s", !v ? "table" : v->kind == 'm' ? "materialized view" : "view",
             db_quote_ident(name, q, sizeof q));
}

void db_relation_kind_name(attu_session *s, const char *name, char *out, size_t cap) {
    kind_name(db_cat(s), name, out, cap);
}

typedef struct dep_walk {
    const attu_catalog *cat;
    attu_view         **order;    /* every view, in creation order */
    size_t              nviews;
    const char *const  *dropped;  /* what the DROP names */
    int                 ndropped;
    name_set            found;    /* the dependents, in the order found */
    char                detail[512];
    size_t              dlen;
} dep_walk;

static bool named_by_drop(const dep_walk *w, const char *name) {
    for (int i = 0; i < w->ndropped; i++) if (!strcmp(w->dropped[i], name)) return true;
    return false;
}

/* Depth first from `of`, views in creation order: the order PostgreSQL
 * reports dependent objects in. */
static void walk_dependents(dep_walk *w, const char *of) {
    for (size_t i = 0; i < w->nviews; i++) {
        const attu_view *v = w->order[i];
        if (!attu_view_reads(v, of) || named_by_drop(w, v->name) || set_has(&w->found, v->name)) continue;
        set_add(&w->found, v->name);
        char what[160], self[160];
        kind_name(w->cat, of, what, sizeof what);
        kind_name(w->cat, v->name, self, sizeof self);
        int n = snprintf(w->detail + w->dlen, sizeof w->detail - w->dlen, "%s%s depends on %s",
                         w->dlen ? "\n" : "", self, what);
        if (n > 0) w->dlen = w->dlen + (size_t)n < sizeof w->detail ? w->dlen + (size_t)n : sizeof w->detail - 1;
        walk_dependents(w, v->name);
    }
}

int db_view_drop_dependents(attu_session *s, const char *kind, const char *const *names, int n, bool cascade,
                            const attu_exec_callbacks *cb, char ***out, int *nout, attu_error *err) {
    *out = NULL;
    *nout = 0;
    const attu_views *vs = attu_catalog_views(db_cat(s));
    dep_walk w = { .cat = db_cat(s), .dropped = names, .ndropped = n };
    w.nviews = attu_views_count(vs);
    w.order = calloc(w.nviews + 1, sizeof *w.order);
    if (!w.order) return attu_error_oom(err);
    for (size_t i = 0; i < w.nviews; i++) w.order[i] = attu_views_at(vs, i);
    qsort(w.order, w.nviews, sizeof *w.order, by_seq);
    for (int i = 0; i < n; i++) walk_dependents(&w, names[i]);
    free(w.order);
    if (w.found.oom) { set_free(&w.found); return attu_error_oom(err); }
    if (!w.found.n) return 0;
    if (!cascade) {
        char q[2 * ATTU_NAME_MAX + 4];
        if (n == 1)
            attu_error_set(err, "2BP01", 0, "cannot drop %s %s because other objects depend on it", kind,
                           db_quote_ident(names[0], q, sizeof q));
        else
            attu_error_set(err, "2BP01", 0, "cannot drop desired object(s) because other objects depend on them");
        attu_error_set_detail(err, "%s", w.detail);
        attu_error_set_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
        set_free(&w.found);
        return -1;
    }
    if (cb && cb->on_notice) {
        char msg[200];
        char self[160];
        kind_name(db_cat(s), w.found.v[0], self, sizeof self);
        if (w.found.n == 1)
            snprintf(msg, sizeof msg, "drop cascades to %s", self);
        else snprintf(msg, sizeof msg, "drop cascades to %d other objects", w.found.n);
        cb->on_notice(cb->ctx, "00000", msg);
    }
    *out = w.found.v;
    *nout = w.found.n;
    return 0;
}

int db_view_remove(attu_session *s, char **names, int n, attu_error *err) {
    attu_views *vs = attu_catalog_views(db_cat(s));
    attu_view **gone = calloc((size_t)n + 1, sizeof *gone);
    if (!gone) return attu_error_oom(err);
    for (int i = 0; i < n; i++) gone[i] = attu_views_remove(vs, names[i]);
    if (s->db->data_dir && db_txn_touch_views(s, err)) {
        attu_view *old;
        for (int i = 0; i < n; i++)
            if (gone[i] && attu_views_put(vs, gone[i], &old)) attu_view_free(gone[i]);   /* (out of memory) */
        free(gone);
        return -1;
    }
    /* a materialized view's rows go with it */
    int rc = 0;
    for (int i = 0; i < n; i++) {
        if (gone[i] && gone[i]->kind == 'm') {
            if (s->db->data_dir && db_txn_touch(s, gone[i]->name, err)) rc = -1;
            attu_table_free(attu_catalog_remove(db_cat(s), gone[i]->name, true, NULL));
        }
        if (gone[i]) db_comments_dropped(s, gone[i]->name);   /* (its comments go with it) */
        attu_view_free(gone[i]);
    }
    free(gone);
    return rc;
}

void db_view_names_free(char **names, int n) {
    for (int i = 0; i < n; i++) free(names[i]);
    free(names);
}

/* ---- CREATE VIEW -------------------------------------------------------- */

static const char *query_not_updatable(attu_session *s, const attu_ast_query *q);

/* Whether a replacement's column type is the old one. A numeric of no
 * typmod is one type however attu holds it (a wide NUMERIC, or a DECIMAL
 * marked no_typmod: 1.5, 'NaN'::numeric). DECIMALs match whatever their
 * modifiers: a view saved before the no_typmod mark has its 1.5 column as
 * numeric(18,1), which the same query now gives as numeric. */
static bool same_type(attu_type a, attu_type b) {
    if (a.id == ATTU_TYPE_DECIMAL && b.id == ATTU_TYPE_DECIMAL) return true;
    bool plain_a = a.id == ATTU_TYPE_NUMERIC || attu_type_is_free_decimal(a);
    bool plain_b = b.id == ATTU_TYPE_NUMERIC || attu_type_is_free_decimal(b);
    if (plain_a && plain_b) return true;
    return !memcmp(&a, &b, sizeof a);
}

/* (db_domain_check.h) A view's columns of a domain are kept as a
 * table's (engine/domain_type.h): PostgreSQL types a column whose
 * expression is a column of a domain, or a cast to one, by the domain. */
int db_set_column_domains(attu_session *s, attu_comments *cs, const char *rel, const char *const *names, int ncols,
                          const char *const *domains, int ndomains) {
    bool changed = false;
    int rc = 0;
    for (int i = 0; i < ncols && !rc; i++) {
        const char *dn = domains && ndomains == ncols ? domains[i] : NULL;
        const char *had = attu_domain_of_column(cs, rel, names[i]);
        if (!dn && !had) continue;
        if (had && dn && !strcmp(had, dn)) continue;
        if (attu_domain_set_column(cs, rel, names[i], dn)) rc = -1;
        changed = true;
    }
    if (changed && s->db->data_dir) {
        attu_error e;
        attu_error_clear(&e);
        if (db_txn_touch_comments(s, &e)) rc = -1;
    }
    return rc;
}

/* OR REPLACE of an existing view: PostgreSQL lets the new query add
 * columns at the end and nothing else. */
static int check_replacement(const attu_view *old, int ncols, char *const *names, const attu_type *types,
                             attu_error *err) {
    if (ncols < old->ncols) return attu_error_set(err, "42P16", 0, "cannot drop columns from view");
    for (int i = 0; i < old->ncols; i++) {
        if (strcmp(old->col_names[i], names[i])) {
            attu_error_set(err, "42P16", 0, "cannot change name of view column \"%s\" to \"%s\"", old->col_names[i],
                           names[i]);
            attu_error_set_hint(err, "Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.");
            return -1;
        }
        if (!same_type(old->col_types[i], types[i])) {
            char a[64], b[64];
            return attu_error_set(err, "42P16", 0, "cannot change data type of view column \"%s\" from %s to %s",
                                  names[i], attu_type_name(old->col_types[i], a, sizeof a),
                                  attu_type_name(types[i], b, sizeof b));
        }
    }
    return 0;
}

/* ... nor a column's domain (PostgreSQL compares the types' OIDs: a
 * domain is not its base type); domains the new query's (the binder's). */
static int check_replacement_domains(attu_session *s, const attu_view *old, const attu_type *types,
                                     const char *const *domains, int ndomains, attu_error *err) {
    attu_catalog *cat = db_cat(s);
    const attu_comments *cols = attu_catalog_domain_comments(cat, attu_catalog_view_is_top(cat, old));
    for (int i = 0; i < old->ncols; i++) {
        const char *had = attu_domain_of_column(cols, old->name, old->col_names[i]);
        const char *now = domains && i < ndomains ? domains[i] : NULL;
        if ((!had && !now) || (had && now && !strcmp(had, now))) continue;
        char a[64], b[64];
        return attu_error_set(err, "42P16", 0, "cannot change data type of view column \"%s\" from %s to %s",
                              old->col_names[i], had ? had : attu_type_name(old->col_types[i], a, sizeof a),
                              now ? now : attu_type_name(types[i], b, sizeof b));
    }
    return 0;
}

int db_exec_create_view(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                        attu_error *err) {
    if (st->u.create_view.materialized) return db_exec_create_matview(s, sql, st, cb, err);
    const char *name = st->u.create_view.view;
    const attu_ast_name_list *alias = &st->u.create_view.columns;
    db_write_lock(s);
    attu_views *vs = attu_catalog_views(db_cat(s));
    attu_view *old = attu_views_find(vs, name);
    int rc = -1;
    attu_plan_arena *pa = NULL;
    name_set deps = { 0 };
    char **names = NULL;
    attu_view *v = NULL;
    if (attu_catalog_lookup(db_cat(s), name)) {
        if (st->u.create_view.or_replace) attu_error_set(err, "42809", 0, "\"%s\" is not a view", name);
        else attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0, "relation \"%s\" already exists", name);
        goto out;
    }
    if (!old && (db_sequence_exists(s, name) || attu_catalog_constraint_owner(db_cat(s), name, NULL))) {
        if (st->u.create_view.or_replace) attu_error_set(err, "42809", 0, "\"%s\" is not a view", name);
        else attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0, "relation \"%s\" already exists", name);
        goto out;
    }
    if (old && old->kind == 'm') {
        if (st->u.create_view.or_replace) attu_error_set(err, "42809", 0, "\"%s\" is not a view", name);
        else attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0, "relation \"%s\" already exists", name);
        goto out;
    }
    if (old && !st->u.create_view.or_replace) {
        attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0, "relation \"%s\" already exists", name);
        goto out;
    }
    if (!(pa = attu_plan_arena_new())) { attu_error_oom(err); goto out; }
    /* analysed, not run: no subquery runs, none is folded */
    attu_bind_params bp = db_describe_params(s, NULL, false);
    bp.on_relation = on_relation;
    bp.relation_ctx = &deps;
    const char **domains = NULL;
    int ndomains = 0;
    bp.domains_out = &domains;
    bp.ndomains_out = &ndomains;
    bool reads_temp = false;
    bp.reads_temp = &reads_temp;
    attu_lplan *lp = attu_bind_query(pa, db_cat(s), sql, st->u.create_view.query, &bp, err);
    if (!lp) goto out;
    db_temp_view_reads(s, reads_temp);
    if (deps.oom) { attu_error_oom(err); goto out; }
    if (alias->n > lp->ncols) {
        attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "CREATE VIEW specifies more column names than columns");
        goto out;
    }
    if (!(names = calloc((size_t)lp->ncols + 1, sizeof *names))) { attu_error_oom(err); goto out; }
    for (int i = 0; i < lp->ncols; i++) {
        names[i] = i < alias->n ? alias->items[i] : lp->names[i] ? lp->names[i] : "?column?";
        for (int k = 0; k < i; k++)
            if (!strcmp(names[k], names[i])) {
                attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_COLUMN, 0, "column \"%s\" specified more than once", names[i]);
                goto out;
            }
    }
    for (int i = 0; i < lp->ncols; i++)
        if (attu_type_is_record(lp->types[i])) {
            /* a row value (planner/row_value.c) is no column type */
            attu_error_set(err, "42P16", 0, "column \"%s\" has pseudo-type record", names[i]);
            goto out;
        }
    if (old && (check_replacement(old, lp->ncols, names, lp->types, err) ||
                check_replacement_domains(s, old, lp->types, domains, ndomains, err)))
        goto out;
    if (st->u.create_view.check_option) {
        /* only an automatically updatable view takes a check option */
        attu_error_clear(err);
        const char *why = query_not_updatable(s, st->u.create_view.query);
        if (why) {
            attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                           "WITH CHECK OPTION is supported only on automatically updatable views");
            attu_error_set_hint(err, why);
            goto out;
        }
    }
    if (st->u.create_view.bad_option_kind) {
        /* the WITH (...) options are checked last, as PostgreSQL checks
         * them when it makes the relation */
        const char *on = st->u.create_view.bad_option_name, *ov = st->u.create_view.bad_option;
        switch (st->u.create_view.bad_option_kind) {
        case 'u': attu_error_set(err, "22023", 0, "unrecognized parameter \"%s\"", on); break;
        case 'd': attu_error_set(err, "22023", 0, "parameter \"%s\" specified more than once", on); break;
        case 'b': attu_error_set(err, "22023", 0, "invalid value for boolean option \"%s\": %s", on, ov); break;
        default:
            attu_error_set(err, "22023", 0, "invalid value for enum option \"%s\": %s", on, ov);
            attu_error_set_detail(err, "Valid values are \"local\" and \"cascaded\".");
            break;
        }
        goto out;
    }
    v = attu_view_new(name, st->u.create_view.query_sql, lp->ncols, (const char *const *)names, lp->types, deps.n,
                      (const char *const *)deps.v);
    if (!v) { attu_error_oom(err); goto out; }
    v->check_option = st->u.create_view.check_option == '?' ? 0 : st->u.create_view.check_option;
    /* OR REPLACE keeps the columns' DEFAULTs (ALTER VIEW's), as
     * PostgreSQL keeps the columns */
    for (int k = 0; old && k < old->ncols && k < v->ncols; k++)
        if (old->col_defaults[k] && !(v->col_defaults[k] = strdup(old->col_defaults[k]))) {
            attu_error_oom(err);
            goto out;
        }
    attu_view *prev = NULL;
    if (attu_views_put(vs, v, &prev)) { attu_error_oom(err); goto out; }
    if (s->db->data_dir && db_txn_touch_views(s, err)) {
        /* put the catalog back as it was */
        attu_view *mine = NULL;
        if (prev) attu_views_put(vs, prev, &mine);
        else mine = attu_views_remove(vs, name);
        v = mine;
        goto out;
    }
    v = prev;   /* no reader holds it: the write lock is ours */
    rc = 0;
    attu_catalog *vc = db_cat(s);
    attu_comments *cols = attu_catalog_domain_comments(vc, attu_catalog_view_is_top(vc, attu_views_find(attu_catalog_views(vc), name)));
    if (db_set_column_domains(s, cols, name, (const char *const *)names, lp->ncols, domains, ndomains)) rc = attu_error_oom(err);
out:
    pthread_rwlock_unlock(&s->db->lock);
    attu_view_free(v);
    free(names);
    set_free(&deps);
    attu_plan_arena_free(pa);
    if (rc) return rc;
    return db_deliver_tag(cb, "CREATE VIEW", err) ? -2 : 0;
}

/* ---- DROP VIEW ------------------------------------------------------------ */

int db_exec_drop_view(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    const attu_ast_name_list *l = &st->u.drop_table.tables;
    bool mat = st->u.drop_table.materialized;
    const char *what = mat ? "materialized view" : "view";
    db_write_lock(s);
    attu_views *vs = attu_catalog_views(db_cat(s));
    const char **found = calloc((size_t)l->n + 1, sizeof *found);
    char **dependents = NULL;
    int nfound = 0, ndependents = 0, rc = -1;
    if (!found) { attu_error_oom(err); goto out; }
    /* every name first, as PostgreSQL: the NOTICE of a missing one comes
     * even when a later name fails */
    for (int i = 0; i < l->n; i++) {
        const char *name = l->items[i];
        const attu_view *v = attu_views_find(vs, name);
        if (v && (v->kind == 'm') == mat) {
            bool twice = false;
            for (int k = 0; k < nfound; k++) twice |= !strcmp(found[k], name);
            if (!twice) found[nfound++] = name;
            continue;
        }
        if (v || attu_catalog_lookup(db_cat(s), name)) {
            attu_error_set(err, "42809", 0, "\"%s\" is not a %s", name, what);
            attu_error_set_hint(err, !v ? "Use DROP TABLE to remove a table."
                                     : v->kind == 'm' ? "Use DROP MATERIALIZED VIEW to remove a materialized view."
                                                      : "Use DROP VIEW to remove a view.");
            goto out;
        }
        if (!st->u.drop_table.if_exists) {
            attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0, "%s \"%s\" does not exist", what, name);
            goto out;
        }
        if (cb && cb->on_notice) {
            char msg[200];
            snprintf(msg, sizeof msg, "%s \"%s\" does not exist, skipping", what, name);
            cb->on_notice(cb->ctx, "00000", msg);
        }
    }
    if (db_view_drop_dependents(s, what, found, nfound, st->u.drop_table.cascade, cb, &dependents, &ndependents, err))
        goto out;
    char **all = calloc((size_t)(nfound + ndependents) + 1, sizeof *all);
    if (!all) { attu_error_oom(err); goto out; }
    for (int i = 0; i < nfound; i++) all[i] = (char *)found[i];
    for (int i = 0; i < ndependents; i++) all[nfound + i] = dependents[i];
    rc = db_view_remove(s, all, nfound + ndependents, err);
    free(all);
out:
    pthread_rwlock_unlock(&s->db->lock);
    free(found);
    db_view_names_free(dependents, ndependents);
    if (rc) return rc;
    return db_deliver_tag(cb, mat ? "DROP MATERIALIZED VIEW" : "DROP VIEW", err) ? -2 : 0;
}

/* ---- a view where a table must stand ------------------------------------- */

static bool is_aggregate_name(const char *name) {
    static const char *const aggs[] = {
        "count", "sum", "avg", "min", "max", "bool_and", "bool_or", "every", "nth_smallest", "nth_smallest_arg",
        "nth_largest", "nth_largest_arg", "variance", "var_samp", "var_pop", "stddev", "stddev_samp",
        "stddev_pop", "string_agg", "array_agg", "corr", "covar_pop", "covar_samp", "regr_avgx", "regr_avgy",
        "regr_count", "regr_intercept", "regr_r2", "regr_slope", "regr_sxx", "regr_sxy", "regr_syy", "bit_and",
        "bit_or", "bit_xor", "percentile_cont", "percentile_disc", "mode", NULL
    };
    for (int i = 0; aggs[i]; i++) if (!strcmp(aggs[i], name)) return true;
    return false;
}

static bool is_srf_name(const char *name) {
    return !strcmp(name, "generate_series") || !strcmp(name, "unnest") || !strcmp(name, "generate_subscripts");
}

enum { HAS_AGG = 1, HAS_WINDOW = 2, HAS_SRF = 4 };

/* Which of aggregates, window functions and set-returning functions e
 * calls at its own query level (a subquery's are its own). */
static int calls_in(const attu_ast_expr *e) {
    if (!e) return 0;
    int f = 0;
    switch (e->kind) {
    case ATTU_EXPR_FUNC:
        if (e->u.func.over) f |= HAS_WINDOW;
        else if (e->u.func.star || e->u.func.within_group || is_aggregate_name(e->u.func.name)) f |= HAS_AGG;
        else if (is_srf_name(e->u.func.name)) f |= HAS_SRF;
        for (int i = 0; i < e->u.func.args.n; i++) f |= calls_in(e->u.func.args.items[i]);
        return f;
    case ATTU_EXPR_UNARY: return calls_in(e->u.unary.arg);
    case ATTU_EXPR_BINARY: return calls_in(e->u.binary.left) | calls_in(e->u.binary.right);
    case ATTU_EXPR_IS: return calls_in(e->u.is.arg);
    case ATTU_EXPR_BETWEEN: return calls_in(e->u.between.arg) | calls_in(e->u.between.low) | calls_in(e->u.between.high);
    case ATTU_EXPR_IN_LIST:
        f = calls_in(e->u.in_list.arg);
        for (int i = 0; i < e->u.in_list.list.n; i++) f |= calls_in(e->u.in_list.list.items[i]);
        return f;
    case ATTU_EXPR_IN_SUBQUERY: return calls_in(e->u.in_subquery.arg);
    case ATTU_EXPR_QUANTIFIED: return calls_in(e->u.quantified.arg);
    case ATTU_EXPR_LIKE: return calls_in(e->u.like.arg) | calls_in(e->u.like.pattern) | calls_in(e->u.like.escape);
    case ATTU_EXPR_CASE:
        f = calls_in(e->u.case_.operand) | calls_in(e->u.case_.else_);
        for (int i = 0; i < e->u.case_.nwhens; i++)
            f |= calls_in(e->u.case_.whens[i].when) | calls_in(e->u.case_.whens[i].then);
        return f;
    case ATTU_EXPR_CAST: return calls_in(e->u.cast.arg);
    case ATTU_EXPR_EXTRACT: return calls_in(e->u.extract.arg);
    default: return 0;
    }
}

/* PostgreSQL's reason a view is not automatically updatable (the DETAIL
 * of 55000), in the order it checks them; NULL when it is. */
static const char *not_updatable_reason(const attu_ast_query *q) {
    if (q->kind == ATTU_QUERY_SELECT && (q->u.select.distinct || q->u.select.distinct_on.n))
        return "Views containing DISTINCT are not automatically updatable.";
    if (q->kind == ATTU_QUERY_SELECT && (q->u.select.group_by.n || q->u.select.group_empty))
        return "Views containing GROUP BY are not automatically updatable.";
    if (q->kind == ATTU_QUERY_SELECT && q->u.select.having)
        return "Views containing HAVING are not automatically updatable.";
    if (q->with.n) return "Views containing WITH are not automatically updatable.";
    if (q->kind == ATTU_QUERY_SETOP) return "Views containing UNION, INTERSECT, or EXCEPT are not automatically updatable.";
    if (q->limit || q->offset) return "Views containing LIMIT or OFFSET are not automatically updatable.";
    if (q->kind != ATTU_QUERY_SELECT) return "Views that do not select from a single table or view are not automatically updatable.";
    int f = 0;
    for (int i = 0; i < q->u.select.nitems; i++) f |= calls_in(q->u.select.items[i].expr);
    for (int i = 0; i < q->order_by.n; i++) f |= calls_in(q->order_by.items[i].expr);
    if (f & HAS_AGG) return "Views that return aggregate functions are not automatically updatable.";
    if (f & HAS_WINDOW) return "Views that return window functions are not automatically updatable.";
    if (f & HAS_SRF) return "Views that return set-returning functions are not automatically updatable.";
    if (q->u.select.from.n != 1 || q->u.select.from.items[0]->kind != ATTU_FROM_TABLE)
        return "Views that do not select from a single table or view are not automatically updatable.";
    return NULL;
}

/* not_updatable_reason, and a materialized view is no base relation of
 * an updatable view (PostgreSQL's: neither a table nor a view). Lock held. */
static const char *query_not_updatable(attu_session *s, const attu_ast_query *q) {
    const char *why = not_updatable_reason(q);
    if (why) return why;
    const attu_view *base = attu_views_find(attu_catalog_views(db_cat(s)), q->u.select.from.items[0]->u.table.name);
    if (base && base->kind == 'm')
        return "Views that do not select from a single table or view are not automatically updatable.";
    return NULL;
}

int db_view_updatable_reason(attu_session *s, const char *name, attu_ast_stmt_kind kind, attu_error *err) {
    const attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), name);
    if (!v || v->kind == 'm') return 0;
    attu_error perr;
    attu_error_clear(&perr);
    attu_parse_result *pr = attu_parse(v->sql, &perr);
    if (!pr) {
        attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "the query of view \"%s\" no longer parses: %s", name, perr.message);
        return -1;
    }
    const char *why = pr->n == 1 && pr->stmts[0].stmt->kind == ATTU_STMT_SELECT
                      ? query_not_updatable(s, pr->stmts[0].stmt->u.select.query)
                      : "Views that do not select from a single table or view are not automatically updatable.";
    attu_parse_free(pr);
    if (!why) return 0;
    const char *verb = kind == ATTU_STMT_INSERT ? "insert into" : kind == ATTU_STMT_UPDATE ? "update" : "delete from";
    const char *noun = kind == ATTU_STMT_INSERT ? "INSERT" : kind == ATTU_STMT_UPDATE ? "UPDATE" : "DELETE";
    const char *gerund = kind == ATTU_STMT_INSERT ? "inserting into" : kind == ATTU_STMT_UPDATE ? "updating" : "deleting from";
    attu_error_set(err, "55000", 0, "cannot %s view \"%s\"", verb, name);
    attu_error_set_detail(err, "%s", why);
    char hint[200];
    snprintf(hint, sizeof hint, "To enable %s the view, provide an INSTEAD OF %s trigger or an unconditional ON %s DO INSTEAD rule.",
             gerund, noun, noun);
    attu_error_set_hint(err, hint);
    return -1;
}

/* The columns of a relation (a table or a view), -1 when none is named so. */
static int relation_width(attu_session *s, const char *name) {
    const attu_table *t = attu_catalog_lookup(db_cat(s), name);
    if (t) return t->ncols;
    const attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), name);
    return v ? v->ncols : -1;
}

bool db_view_updatable(void *ctx, const char *view, bool *cols, int ncols) {
    attu_session *s = ctx;
    for (int k = 0; cols && k < ncols; k++) cols[k] = false;
    attu_error e;
    attu_error_clear(&e);
    if (!attu_views_find(attu_catalog_views(db_cat(s)), view) || db_view_updatable_reason(s, view, ATTU_STMT_INSERT, &e))
        return false;
    if (!cols) return true;
    /* updatable, so one SELECT from one relation: a column is updatable
     * when its item is a plain column reference (PostgreSQL's simple Var);
     * a * stands for every column of the relation */
    const attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), view);
    attu_error perr;
    attu_error_clear(&perr);
    attu_parse_result *pr = attu_parse(v->sql, &perr);
    if (!pr) return false;
    const attu_ast_query *q = pr->stmts[0].stmt->u.select.query;
    int k = 0;
    for (int i = 0; i < q->u.select.nitems && k < ncols; i++) {
        const attu_ast_expr *x = q->u.select.items[i].expr;
        if (x->kind == ATTU_EXPR_STAR) {
            int w = relation_width(s, q->u.select.from.items[0]->u.table.name);
            for (int j = 0; j < w && k < ncols; j++) cols[k++] = true;
        } else cols[k++] = x->kind == ATTU_EXPR_COLUMN;
    }
    attu_parse_free(pr);
    return true;
}

int db_view_dml_error(attu_session *s, const char *name, attu_ast_stmt_kind kind, attu_error *err) {
    if (!attu_views_find(attu_catalog_views(db_cat(s)), name)) return 0;
    if (db_view_updatable_reason(s, name, kind, err)) return -1;
    /* an updatable view reached by a path that does not rewrite (EXPLAIN,
     * PREPARE's analysis) */
    return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                          "changing rows through view \"%s\" is not supported here", name);
}

bool db_names_view(attu_session *s, const char *name) {
    pthread_rwlock_rdlock(&s->db->lock);
    const attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), name);
    bool is = v && v->kind == 'v';
    pthread_rwlock_unlock(&s->db->lock);
    return is;
}

int db_view_not_table(attu_session *s, const char *name, attu_error *err) {
    if (!attu_views_find(attu_catalog_views(db_cat(s)), name)) return 0;
    return attu_error_set(err, "42809", 0, "\"%s\" is not a table", name);
}

/* ---- which views use a column (ALTER TABLE) -------------------------------- */

/* The view's query bound against the catalog as it stands, described
 * only: its output columns' names and types as one string (NULL when it
 * does not bind). */
static char *view_shape(attu_session *s, const attu_view *v) {
    attu_error e;
    attu_error_clear(&e);
    attu_parse_result *pr = attu_parse(v->sql, &e);
    char *out = NULL;
    attu_plan_arena *pa = attu_plan_arena_new();
    if (pr && pa && pr->n == 1 && pr->stmts[0].stmt->kind == ATTU_STMT_SELECT) {
        attu_bind_params bp = db_describe_params(s, NULL, true);
        attu_lplan *lp = attu_bind_query(pa, db_cat(s), v->sql, pr->stmts[0].stmt->u.select.query, &bp, &e);
        if (lp) {
            size_t cap = 64, len = 0;
            for (int i = 0; i < lp->ncols; i++) cap += (lp->names[i] ? strlen(lp->names[i]) : 0) + 32;
            if ((out = malloc(cap)))
                for (int i = 0; i < lp->ncols; i++) {
                    char tn[96];
                    len += (size_t)snprintf(out + len, cap - len, "%s:%s;", lp->names[i] ? lp->names[i] : "",
                                            attu_type_name(lp->types[i], tn, sizeof tn));
                }
            if (out && !lp->ncols) out[0] = 0;
        }
    }
    attu_plan_arena_free(pa);
    attu_parse_free(pr);
    return out;
}

int db_view_column_users(attu_session *s, attu_table *t, int col, char ***out, int *nout, attu_error *err) {
    *out = NULL;
    *nout = 0;
    const attu_views *vs = attu_catalog_views(db_cat(s));
    size_t nv = attu_views_count(vs);
    attu_view **order = calloc(nv + 1, sizeof *order);
    if (!order) return attu_error_oom(err);
    for (size_t i = 0; i < nv; i++) order[i] = attu_views_at(vs, i);
    qsort(order, nv, sizeof *order, by_seq);
    name_set users = { 0 };
    /* A view uses the column when its query no longer binds to the same
     * columns once the column has another name: a name no query can
     * write (the write lock is held: no reader sees it). */
    char saved[sizeof t->defs[col].name];
    memcpy(saved, t->defs[col].name, sizeof saved);
    for (size_t i = 0; i < nv; i++) {
        const attu_view *v = order[i];
        if (!attu_view_reads(v, t->name)) continue;
        char *before = view_shape(s, v);
        if (!before) continue;   /* (stale already: nothing to protect) */
        snprintf(t->defs[col].name, sizeof t->defs[col].name, "\001probe");
        char *after = view_shape(s, v);
        memcpy(t->defs[col].name, saved, sizeof saved);
        if (!after || strcmp(before, after)) set_add(&users, v->name);
        free(before);
        free(after);
    }
    free(order);
    if (users.oom) { set_free(&users); return attu_error_oom(err); }
    *out = users.v;
    *nout = users.n;
    return 0;
}

/* ---- views follow a rename (ALTER TABLE ... RENAME) ------------------------ */

/* The types of the columns the query text gives, bound against the
 * catalog as it stands (NULL when it does not bind). */
static char *text_types(attu_session *s, const char *sql) {
    attu_view tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.sql = (char *)sql;
    char *shape = view_shape(s, &tmp);
    if (!shape) return NULL;
    /* keep "type;" of each "name:type;" */
    char *out = malloc(strlen(shape) + 1), *o = out;
    const char *p = shape;
    while (out && *p) {
        const char *colon = strchr(p, ':'), *semi = colon ? strchr(colon, ';') : NULL;
        if (!semi) break;
        memcpy(o, colon + 1, (size_t)(semi - colon));
        o += semi - colon;
        p = semi + 1;
    }
    if (out) *o = 0;
    free(shape);
    return out;
}

/* Whether relation `rel` (a table or a view of the catalog) has a column
 * named name. */
static bool relation_has_column(attu_session *s, const char *rel, const char *name) {
    const attu_table *t = attu_catalog_lookup(db_cat(s), rel);
    if (t) return attu_table_find_column(t, name) >= 0;
    const attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), rel);
    for (int i = 0; v && i < v->ncols; i++) if (!strcmp(v->col_names[i], name)) return true;
    return false;
}

static bool is_type_name(const char *name) {
    attu_type t;
    attu_error e;
    attu_error_clear(&e);
    return attu_type_from_name(name, -1, -1, &t, &e) == 0;
}

/* v's query with `from` renamed to `to` token by token (NULL and *why
 * when attu cannot tell that means the same): no other relation the
 * query names has a column or a name that is either name, nor (RENAME
 * TO) has the table a column of either name, neither name is a type's,
 * and the name never stands as a function's. With those, every token of
 * the name is the renamed column or table, or an alias or a WITH name
 * renamed throughout; the caller binds the new text as the last check. */
static char *renamed_text(attu_session *s, const attu_view *v, const char *table, const char *from, const char *to,
                          bool column, const char **why, attu_error *err) {
    *why = NULL;
    for (int i = 0; i < v->ndeps; i++) {
        const char *d = v->deps[i];
        if (!strcmp(d, table)) continue;
        if (!strcmp(d, from) || !strcmp(d, to) || relation_has_column(s, d, from) || relation_has_column(s, d, to)) {
            *why = "another relation it reads has the name";
            return NULL;
        }
    }
    if (!column && (relation_has_column(s, table, from) || relation_has_column(s, table, to))) {
        *why = "a column of the table has the name";
        return NULL;
    }
    if (is_type_name(from) || is_type_name(to)) {
        *why = "the name is a type's";
        return NULL;
    }
    int count = 0;
    bool doubtful = false;
    char *text = attu_sql_rename_ident(v->sql, from, to, &count, &doubtful, err);
    if (!text) return NULL;
    if (doubtful) {
        *why = "its query holds the name otherwise";
        free(text);
        return NULL;
    }
    return text;
}

int db_view_follow_rename(attu_session *s, attu_table *t, int col, const char *to, attu_view ***out, int *nout,
                          attu_error *err) {
    *out = NULL;
    *nout = 0;
    const attu_views *vs = attu_catalog_views(db_cat(s));
    size_t nv = attu_views_count(vs);
    attu_view **made = calloc(nv + 1, sizeof *made);
    if (!made) return attu_error_oom(err);
    int n = 0, rc = 0;
    bool column = col >= 0;
    const char *from = column ? t->defs[col].name : t->name;
    char saved[sizeof t->defs[0].name];
    /* (for RENAME TO the table stands under its new name as well, a
     * shallow copy sharing its columns, while the views are bound) */
    attu_table *alias = NULL;
    if (!column) {
        if (!(alias = calloc(1, sizeof *alias))) { free(made); return attu_error_oom(err); }
        *alias = *t;
        snprintf(alias->name, sizeof alias->name, "%s", to);
        if (attu_catalog_add(db_cat(s), alias, err)) { free(alias); free(made); return -1; }
    }
    /* RENAME COLUMN: the views that use the column are rewritten; the
     * others keep their text, which must still bind the same (a name
     * the rename makes ambiguous) */
    char **users = NULL;
    int nusers = 0;
    if (column && db_view_column_users(s, t, col, &users, &nusers, err)) { free(made); return -1; }
    for (size_t i = 0; i < nv && !rc; i++) {
        const attu_view *v = attu_views_at(vs, i);
        if (!attu_view_reads(v, t->name)) continue;
        bool uses = !column;
        for (int k = 0; k < nusers && !uses; k++) uses = !strcmp(users[k], v->name);
        char *before = NULL, *text = NULL, *after = NULL;
        const char *why = NULL;
        if (!(before = text_types(s, v->sql))) continue;   /* (stale already: left as it is) */
        text = uses ? renamed_text(s, v, t->name, from, to, column, &why, err) : strdup(v->sql);
        if (!text && !why) { free(before); if (!err->set) attu_error_oom(err); rc = -1; break; }
        if (text) {
            if (column) {
                memcpy(saved, t->defs[col].name, sizeof saved);
                snprintf(t->defs[col].name, sizeof t->defs[col].name, "%s", to);
            }
            after = text_types(s, text);
            if (column) memcpy(t->defs[col].name, saved, sizeof saved);
            if (!after || strcmp(before, after)) why = "its query would not read the same columns";
        }
        if (why) {
            if (column)
                attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                               "cannot rename column \"%s\" of table \"%s\": view \"%s\" uses it and cannot follow "
                               "the rename (%s)", from, t->name, v->name, why);
            else
                attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                               "cannot rename table \"%s\": view \"%s\" reads it and cannot follow the rename (%s)",
                               from, v->name, why);
            attu_error_set_hint(err, "Drop the view, rename, then create the view again.");
            rc = -1;
        } else if (uses) {
            /* the same view, its text (and, for RENAME TO, its
             * dependency) renamed */
            const char **deps = calloc((size_t)v->ndeps + 1, sizeof *deps);
            if (!deps) rc = attu_error_oom(err);
            else {
                for (int k = 0; k < v->ndeps; k++) deps[k] = !column && !strcmp(v->deps[k], from) ? to : v->deps[k];
                attu_view *nvw = attu_view_new(v->name, text, v->ncols, (const char *const *)v->col_names, v->col_types,
                                               v->ndeps, deps);
                free(deps);
                if (!nvw) rc = attu_error_oom(err);
                else {
                    nvw->seq = v->seq;
                    nvw->kind = v->kind;
                    nvw->check_option = v->check_option;
                    nvw->populated = v->populated;
                    for (int k = 0; k < v->ncols && !rc; k++)   /* (its DEFAULTs, ALTER VIEW's) */
                        if (v->col_defaults[k] && !(nvw->col_defaults[k] = strdup(v->col_defaults[k])))
                            rc = attu_error_oom(err);
                    made[n++] = nvw;
                }
            }
        }
        free(before);
        free(text);
        free(after);
    }
    if (alias) {
        attu_catalog_remove(db_cat(s), to, true, NULL);
        free(alias);   /* (its columns are t's) */
    }
    db_view_names_free(users, nusers);
    if (rc) {
        for (int i = 0; i < n; i++) attu_view_free(made[i]);
        free(made);
        return -1;
    }
    *out = made;
    *nout = n;
    return 0;
}

int db_view_follow_view_rename(attu_session *s, attu_view *v, int col, const char *to, attu_view ***out, int *nout,
                               attu_error *err) {
    *out = NULL;
    *nout = 0;
    attu_views *vs = attu_catalog_views(db_cat(s));
    size_t nv = attu_views_count(vs);
    attu_view **made = calloc(nv + 1, sizeof *made);
    if (!made) return attu_error_oom(err);
    bool column = col >= 0;
    const char *from = column ? v->col_names[col] : v->name;
    /* (RENAME TO: the view stands under its new name as well while the
     * readers' new texts are bound) */
    attu_view *alias = NULL;
    if (!column) {
        attu_view *old = NULL;
        if (!(alias = attu_view_copy(v, to)) || attu_views_put(vs, alias, &old)) {
            attu_view_free(alias);
            free(made);
            return attu_error_oom(err);
        }
    }
    char *renamed = column ? strdup(to) : NULL;
    int n = 0, rc = column && !renamed ? attu_error_oom(err) : 0;
    nv = attu_views_count(vs);
    for (size_t i = 0; i < nv && !rc; i++) {
        const attu_view *w = attu_views_at(vs, i);
        if (w == alias || w == v || !attu_view_reads(w, v->name)) continue;
        char *before = NULL, *text = NULL, *after = NULL;
        const char *why = NULL;
        if (!(before = text_types(s, w->sql))) continue;   /* (stale already: left as it is) */
        text = renamed_text(s, w, v->name, from, to, column, &why, err);
        if (!text && !why) { free(before); if (!err->set) attu_error_oom(err); rc = -1; break; }
        if (text) {
            char *saved = NULL;
            if (column) { saved = v->col_names[col]; v->col_names[col] = renamed; }
            after = text_types(s, text);
            if (column) v->col_names[col] = saved;
            if (!after || strcmp(before, after)) why = "its query would not read the same columns";
        }
        if (why) {
            if (column)
                attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                               "cannot rename column \"%s\" of view \"%s\": view \"%s\" reads it and cannot follow "
                               "the rename (%s)", from, v->name, w->name, why);
            else
                attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                               "cannot rename view \"%s\": view \"%s\" reads it and cannot follow the rename (%s)",
                               from, w->name, why);
            attu_error_set_hint(err, "Drop the view, rename, then create the view again.");
            rc = -1;
        } else {
            attu_view *nw = attu_view_copy(w, NULL);
            if (!nw) rc = attu_error_oom(err);
            else {
                free(nw->sql);
                nw->sql = text;
                text = NULL;
                for (int k = 0; !column && k < nw->ndeps; k++)
                    if (!strcmp(nw->deps[k], from)) {
                        char *d = strdup(to);
                        if (!d) { rc = attu_error_oom(err); break; }
                        free(nw->deps[k]);
                        nw->deps[k] = d;
                    }
                made[n++] = nw;
            }
        }
        free(before);
        free(text);
        free(after);
    }
    if (alias) attu_view_free(attu_views_remove(vs, to));
    free(renamed);
    if (rc) {
        for (int i = 0; i < n; i++) attu_view_free(made[i]);
        free(made);
        return -1;
    }
    *out = made;
    *nout = n;
    return 0;
}

int db_view_install(attu_session *s, attu_view **views, int n, attu_error *err) {
    attu_views *vs = attu_catalog_views(db_cat(s));
    for (int i = 0; i < n; i++) {
        attu_view *old = NULL;
        if (attu_views_put(vs, views[i], &old)) {
            /* (out of memory: put back the ones swapped so far) */
            for (int k = i - 1; k >= 0; k--) {
                attu_view *mine = NULL;
                attu_views_put(vs, views[k], &mine);
                views[k] = mine;
            }
            return attu_error_oom(err);
        }
        views[i] = old;   /* the caller's now: to free, or to put back */
    }
    if (s->db->data_dir && db_txn_touch_views(s, err)) {
        for (int i = 0; i < n; i++) {
            attu_view *mine = NULL;
            attu_views_put(vs, views[i], &mine);
            views[i] = mine;
        }
        return -1;
    }
    return 0;
}
