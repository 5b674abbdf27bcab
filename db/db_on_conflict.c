/*
 * db_on_conflict.c - INSERT ... ON CONFLICT [ (a, b) | ON CONSTRAINT c ]
 * DO NOTHING | DO UPDATE SET ... [WHERE ...].
 *
 * INSERT has already built t: the table's rows, then every proposed row
 * (DEFAULTs filled in). The arbiters are the constraints the target names
 * (every constraint for DO NOTHING without one). For each arbiter
 * db_unique_groups (through the constraint's key index) names each
 * proposed row's key by the smallest row that holds it: an old row (a
 * conflict with the table) or the first proposed row with that key. A
 * pass over the proposed rows in order, on the host and over them only,
 * then replays PostgreSQL's row-by-row logic with one holder per key
 * (struct holders):
 *
 *   - DO NOTHING: a row whose key is held by an old row, or by a proposed
 *     row inserted before it, is skipped;
 *   - DO UPDATE: such a row updates the old row (when the WHERE holds for
 *     it), which then holds its new key instead of its old one; a proposal
 *     for a row this command inserted or updated is 21000 "ON CONFLICT DO
 *     UPDATE command cannot affect row a second time", a new key already
 *     held 23505, as in PostgreSQL.
 *
 * The SET values and the WHERE of DO UPDATE are one query over the pairs
 * (old row, proposed row): a table of row numbers joined to the pairs'
 * old rows (gathered into a table of their own, named by INSERT's alias
 * or the table's name: the join reads those few rows, not the table) and
 * to the proposed rows, gathered likewise, as EXCLUDED, so the
 * expressions bind as PostgreSQL binds them (an unqualified column that
 * both hold is 42702 "ambiguous", as there) and a subquery over the
 * table reads it as the statement found it. The new version is then the old rows with the updates, plus the
 * inserted rows, checked against every constraint (a non-arbiter
 * collision is 23505) like a plain INSERT. RETURNING reads the inserted
 * and updated rows in the order proposed. SET DEFAULT is not supported.
 */
#include "db/db_internal.h"
#include "db/db_generated.h"
#include "db/db_check.h"
#include "db/db_unique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/table_rewrite.h"
#include "planner/lower.h"
#include "planner/rewrite.h"

/* ---- arbiters ------------------------------------------------------------------------------- */

/* The arbiter constraints of oc over the table's nu constraints:
 * arbiter[k] set for each. */
static int choose_arbiters(const attu_table *base, const attu_ast_on_conflict *oc, const attu_unique *us, int nu,
                           bool *arbiter, attu_error *err) {
    if (oc->constraint) {
        for (int k = 0; k < nu; k++)
            if (!us[k].index && !strcmp(us[k].name, oc->constraint)) { arbiter[k] = true; return 0; }
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, oc->constraint_position,
                              "constraint \"%s\" for table \"%s\" does not exist", oc->constraint, base->name);
    }
    if (!oc->columns.n) {
        if (oc->update) {
            attu_error_set(err, ATTU_SQLSTATE_SYNTAX, oc->position,
                           "ON CONFLICT DO UPDATE requires inference specification or constraint name");
            attu_error_set_hint(err, "For example, ON CONFLICT (column_name).");
            return -1;
        }
        for (int k = 0; k < nu; k++) arbiter[k] = true;
        return 0;
    }
    /* (a, b): every constraint over exactly that set of columns */
    bool want[1024] = { false };
    if (base->ncols > 1024) return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, oc->position, "too many columns");
    for (int j = 0; j < oc->columns.n; j++) {
        int c = attu_table_find_column(base, oc->columns.items[j]);
        if (c < 0)
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN,
                                  oc->columns.positions ? oc->columns.positions[j] : oc->position,
                                  "column \"%s\" does not exist", oc->columns.items[j]);
        want[c] = true;
    }
    bool any = false;
    for (int k = 0; k < nu; k++) {
        bool same = true;
        int nwant = 0;
        for (int c = 0; c < base->ncols; c++) nwant += want[c];
        if (us[k].ncols != nwant) continue;
        for (int j = 0; j < us[k].ncols && same; j++) same = want[us[k].cols[j]];
        if (same) arbiter[k] = any = true;
    }
    if (!any)
        return attu_error_set(err, "42P10", 0, "there is no unique or exclusion constraint matching the ON CONFLICT specification");
    return 0;
}

/* ---- DO UPDATE's values ---------------------------------------------------------------------- */

#define MAP_NAME "\001conflict"
#define EXCLUDED_NAME "\001excluded"
#define OLD_NAME "\001old"

static int set_column_of(const attu_table *base, const attu_ast_on_conflict *oc, int *set_cols, attu_error *err) {
    for (int k = 0; k < oc->nsets; k++) {
        const attu_ast_set_item *it = &oc->sets[k];
        int c = attu_table_find_column(base, it->column);
        if (c < 0)
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, it->position,
                                  "column \"%s\" of relation \"%s\" does not exist", it->column, base->name);
        for (int j = 0; j < k; j++)
            if (set_cols[j] == c)
                return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, it->position, "multiple assignments to same column \"%s\"",
                                      it->column);
        /* a generated column takes only DEFAULT (428C9: db_generated.c) */
        if (base->defs[c].generated && it->value->kind != ATTU_EXPR_DEFAULT)
            return db_generated_refuse(base, c, true, err);
        if (it->value->kind == ATTU_EXPR_DEFAULT)
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, it->value->position,
                                  "DEFAULT in ON CONFLICT DO UPDATE is not supported");
        if (db_is_subscript(it->value))
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, it->position,
                                  "subscripted assignment in ON CONFLICT DO UPDATE is not supported");
        set_cols[k] = c;
    }
    return 0;
}

static void put_ident(char *out, size_t cap, const char *name) {
    size_t n = 0;
    out[n++] = '"';
    for (const char *p = name; *p && n + 3 < cap; p++) {
        if (*p == '"') out[n++] = '"';
        out[n++] = *p;
    }
    out[n++] = '"';
    out[n] = 0;
}

/* Evaluates the SET values and the WHERE for the npairs pairs (old row
 * olds[i], proposed row props[i]) over t: *vals (nsets columns, of the
 * columns' types) and *idx, the pairs (their i) for which the WHERE holds,
 * *nrows of them. */
static int eval_updates(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                        attu_table *t, size_t n0, const int *set_cols, const int64_t *olds, const int64_t *props,
                        size_t npairs, attu_column ***vals, int64_t **idx, size_t *nrows, attu_error *err) {
    const attu_ast_on_conflict *oc = st->u.insert.on_conflict;
    attu_column_def defs[3];
    memset(defs, 0, sizeof defs);
    snprintf(defs[0].name, sizeof defs[0].name, "\001g");
    snprintf(defs[1].name, sizeof defs[1].name, "\001p");
    snprintf(defs[2].name, sizeof defs[2].name, "\001i");
    for (int i = 0; i < 3; i++) defs[i].type = attu_type_make(ATTU_TYPE_INT64);
    attu_table *map = attu_table_new(MAP_NAME, 3, defs, err);
    if (!map) return -1;
    for (int i = 0; i < 3; i++)
        if (attu_column_reserve(map->cols[i], npairs ? npairs : 1, err)) { attu_table_free(map); return -1; }
    for (size_t i = 0; i < npairs; i++) {
        ((int64_t *)map->cols[0]->data)[i] = (int64_t)i;   /* (row i of the old rows gathered) */
        ((int64_t *)map->cols[1]->data)[i] = props[i] - (int64_t)n0;
        ((int64_t *)map->cols[2]->data)[i] = (int64_t)i;
    }
    for (int i = 0; i < 3; i++) map->cols[i]->length = npairs;
    map->nrows = npairs;
    /* the proposed rows, as a table of their own */
    size_t nprop = t->nrows - n0, *prows = malloc(sizeof *prows * (nprop + 1));
    if (!prows) { attu_table_free(map); return attu_error_oom(err); }
    for (size_t r = 0; r < nprop; r++) prows[r] = n0 + r;
    attu_table *excl = db_gather_rows(t, prows, nprop, EXCLUDED_NAME, err);
    free(prows);
    if (!excl) { attu_table_free(map); return -1; }
    /* the old row of each pair, as a table of their own: the pairs join
     * to these few rows, not to the whole table (which a subquery in SET
     * or WHERE still reads, by its name, as the statement found it) */
    size_t *orows = malloc(sizeof *orows * (npairs + 1));
    attu_table *oldt = NULL;
    if (orows) {
        for (size_t i = 0; i < npairs; i++) orows[i] = (size_t)olds[i];
        oldt = db_gather_rows(t, orows, npairs, OLD_NAME, err);
        free(orows);
    } else attu_error_oom(err);
    if (!oldt) { attu_table_free(map); attu_table_free(excl); return -1; }

    char alias[ATTU_NAME_MAX * 2 + 4], text[1024];
    put_ident(alias, sizeof alias, st->u.insert.alias ? st->u.insert.alias : t->name);
    snprintf(text, sizeof text,
             "SELECT m.\"\001i\" FROM \"" MAP_NAME "\" AS m JOIN \"" OLD_NAME "\" AS %s ON %s.\"\001rowid\" = m.\"\001g\" "
             "JOIN \"" EXCLUDED_NAME "\" AS excluded ON excluded.\"\001rowid\" = m.\"\001p\"", alias, alias);
    attu_parse_result *pr = attu_parse(text, err);
    attu_plan_arena *pa = attu_plan_arena_new();
    attu_ast_arena *arena = attu_ast_arena_new();
    int rc = -1;
    bool added = false, excl_added = false, old_added = false;
    attu_stage *stg = NULL;
    attu_column **cols = NULL;
    size_t n = 0;
    attu_lplan *lp = NULL;
    if (!pr || !pa || !arena) { if (pr) attu_error_oom(err); goto out; }
    attu_ast_query *q = pr->stmts[0].stmt->u.select.query;
    attu_ast_select_item *items = attu_ast_alloc(arena, sizeof *items * (size_t)(1 + oc->nsets));
    if (!items) { attu_error_oom(err); goto out; }
    items[0] = q->u.select.items[0];
    int depth = q->depth;
    for (int k = 0; k < oc->nsets; k++) {
        items[1 + k] = (attu_ast_select_item){ oc->sets[k].value, NULL, 0 };
        if (oc->sets[k].value->depth + 1 > depth) depth = oc->sets[k].value->depth + 1;
    }
    q->u.select.items = items;
    q->u.select.nitems = 1 + oc->nsets;
    q->u.select.where = oc->where;
    if (oc->where && oc->where->depth + 1 > depth) depth = oc->where->depth + 1;
    q->depth = depth;
    if (attu_catalog_add(db_cat(s), map, err)) goto out;
    added = true;
    if (attu_catalog_add(db_cat(s), excl, err)) goto out;
    excl_added = true;
    if (attu_catalog_add(db_cat(s), oldt, err)) goto out;
    old_added = true;
    attu_bind_params bp = db_params(s, params);
    lp = attu_bind_query(pa, db_cat(s), sql, q, &bp, err);
    if (lp) {
        attu_lplan *p = attu_lp_new(pa, LP_PROJECT, lp->ncols);
        if (!p || !(p->exprs = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)(lp->ncols + 1)))) { attu_error_oom(err); goto out; }
        p->left = lp;
        for (int i = 0; i < lp->ncols; i++) {
            attu_bexpr *c = attu_bx_col(pa, i, lp->types[i]);
            if (!c) { attu_error_oom(err); goto out; }
            p->exprs[i] = c;
            p->types[i] = lp->types[i];
            p->names[i] = lp->names[i];
            if (i == 0) continue;
            const attu_column_def *def = &t->defs[set_cols[i - 1]];
            c->position = oc->sets[i - 1].value->position;
            if (!(p->exprs[i] = attu_bind_coerce_assign(pa, c, def->type, def->name, err))) goto out;
            p->types[i] = def->type;
        }
        p->est_rows = lp->est_rows;
        lp = p;
    }
    if (lp) lp = attu_rewrite(pa, lp, err);
    if (!lp || !(stg = attu_lower(lp, err))) goto out;
    if (db_run_stage(s, stg, false, &cols, &n, err)) { cols = NULL; goto out; }
    *vals = calloc((size_t)oc->nsets + 1, sizeof **vals);
    *idx = malloc(sizeof **idx * (n + 1));
    if (!*vals || !*idx) { free(*vals); free(*idx); *vals = NULL; *idx = NULL; attu_error_oom(err); goto out; }
    memcpy(*idx, cols[0]->data, sizeof **idx * n);
    for (int k = 0; k < oc->nsets; k++) { (*vals)[k] = cols[1 + k]; cols[1 + k] = NULL; }
    *nrows = n;
    rc = 0;
out:
    if (added) attu_catalog_remove(db_cat(s), MAP_NAME, true, NULL);
    if (excl_added) attu_catalog_remove(db_cat(s), EXCLUDED_NAME, true, NULL);
    if (old_added) attu_catalog_remove(db_cat(s), OLD_NAME, true, NULL);
    attu_table_free(map);
    attu_table_free(excl);
    attu_table_free(oldt);
    if (cols) for (int i = 0; i < 1 + oc->nsets; i++) attu_column_free(cols[i]);
    free(cols);
    attu_stage_free(stg);
    attu_plan_arena_free(pa);
    attu_ast_arena_free(arena);
    attu_parse_free(pr);
    return rc;
}

/* ---- the statement ---------------------------------------------------------------------------- */

/* Which row holds a key, per arbiter, while the proposed rows are replayed.
 * Keys are named by their group's smallest row in the table the groups
 * were taken over (reps, sorted): an old row's own number for its key as
 * it was. state: 0 as at the start (the old row rep holds it when rep <
 * n0, else nobody), 1 nobody, 2 the row who[] holds it, inserted or
 * updated by this statement. */
typedef struct holders {
    int64_t *reps;
    size_t   n;
    int8_t  *state;
    int64_t *who;
} holders;

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static size_t holder_at(const holders *h, int64_t rep) {
    size_t lo = 0, hi = h->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (h->reps[mid] < rep) lo = mid + 1;
        else hi = mid;
    }
    return lo;   /* (rep is always there) */
}

/* The row holding key rep (-1: none); *mine: inserted or updated here. */
static int64_t holder_of(const holders *h, int64_t rep, size_t n0, bool *mine) {
    size_t i = holder_at(h, rep);
    *mine = h->state[i] == 2;
    if (h->state[i] == 2) return h->who[i];
    if (h->state[i] == 0 && (size_t)rep < n0) return rep;
    return -1;
}

static void holder_set(holders *h, int64_t rep, int8_t state, int64_t who) {
    size_t i = holder_at(h, rep);
    h->state[i] = state;
    h->who[i] = who;
}

static void holders_free(holders *h) { free(h->reps); free(h->state); free(h->who); }

/* reps: the n values of g (-1 left out) and the extra ones; sorted, unique. */
static int holders_init(holders *h, const int64_t *g, size_t n, const int64_t *extra, size_t nextra, attu_error *err) {
    memset(h, 0, sizeof *h);
    h->reps = malloc(sizeof *h->reps * (n + nextra + 1));
    if (!h->reps) return attu_error_oom(err);
    for (size_t i = 0; i < n; i++) if (g[i] >= 0) h->reps[h->n++] = g[i];
    for (size_t i = 0; i < nextra; i++) h->reps[h->n++] = extra[i];
    qsort(h->reps, h->n, sizeof *h->reps, cmp_i64);
    size_t u = 0;
    for (size_t i = 0; i < h->n; i++) if (!u || h->reps[u - 1] != h->reps[i]) h->reps[u++] = h->reps[i];
    h->n = u;
    h->state = calloc(u + 1, 1);
    h->who = calloc(u + 1, sizeof *h->who);
    if (!h->state || !h->who) { holders_free(h); return attu_error_oom(err); }
    return 0;
}

static void error_second_time(attu_error *err) {
    attu_error_set(err, ATTU_SQLSTATE_CARDINALITY, 0, "ON CONFLICT DO UPDATE command cannot affect row a second time");
    attu_error_set_hint(err, "Ensure that no rows proposed for insertion within the same command have duplicate constrained values.");
}

typedef struct cand { int64_t old; size_t pair; } cand;

static int by_old(const void *a, const void *b) {
    const cand *x = a, *y = b;
    if (x->old != y->old) return x->old < y->old ? -1 : 1;
    return x->pair < y->pair ? -1 : x->pair > y->pair;
}

/* t: the table's rows (the first n0) then the proposed rows. On success *t
 * is the version to save (the old one freed), *count the rows inserted or
 * updated, and *rows (malloc'd, *count of them) their rows in *t in the
 * order proposed, for RETURNING.
 *
 * DO UPDATE replays PostgreSQL's order in full: each old row whose key a
 * proposed row holds is a pair; the SET values and WHERE of every pair
 * are one query; the first pair of an old row whose WHERE holds is the
 * update that row may get, and the keys it would leave are grouped with
 * the proposed rows' (per arbiter, over the table, the proposed rows and
 * those new keys: the candidates updated on their own, not the table).
 * The pass over the proposed rows then moves an updated row from its old key to its new one: a later
 * proposal with the old key goes in, one with the new key is 21000, and
 * a new key already held is 23505, as PostgreSQL decides them. */
int db_on_conflict(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                   size_t n0, attu_table **tp, size_t *count, size_t **rows_out, uint8_t **changed_out, attu_error *err) {
    const attu_ast_on_conflict *oc = st->u.insert.on_conflict;
    attu_table *t = *tp;
    int nu = 0;
    const attu_unique *us = attu_catalog_uniques(db_cat(s), t->name, &nu);
    size_t n = t->nrows - n0;
    bool *arbiter = calloc((size_t)nu + 1, sizeof *arbiter);
    int64_t **grp = calloc((size_t)nu + 1, sizeof *grp);      /* per arbiter: over t */
    int64_t **kgrp = calloc((size_t)nu + 1, sizeof *kgrp);    /* per arbiter: over t and the new keys */
    holders *hold = calloc((size_t)nu + 1, sizeof *hold);
    int8_t *fate = malloc(n + 1);          /* 1 insert, 0 skip, 2 update */
    int64_t *upd_of = malloc(sizeof *upd_of * (n + 1));   /* the old row proposal p updated */
    int *set_cols = calloc((size_t)oc->nsets + 1, sizeof *set_cols);
    int64_t *olds = NULL, *props = NULL, *idx = NULL, *val_row = NULL, *src_row = NULL, *cand_olds = NULL;
    size_t *pair_start = NULL;
    cand *cands = NULL;
    uint8_t *keep = NULL, *changed = NULL;
    attu_column **vals = NULL;
    size_t npairs = 0, nvals = 0, ncand = 0, nupdated = 0;
    attu_table *cand_rows = NULL, *newkeys = NULL, *upd = NULL, *fin = NULL;
    int rc = -1;
    if (!arbiter || !grp || !kgrp || !hold || !fate || !upd_of || !set_cols) { attu_error_oom(err); goto out; }
    if (choose_arbiters(t, oc, us, nu, arbiter, err)) goto out;
    /* a deferrable arbiter may hold duplicates until COMMIT, which the
     * replay below cannot follow: PostgreSQL refuses it at the first
     * proposed row (none: no error) */
    for (int a = 0; a < nu; a++)
        if (arbiter[a] && us[a].deferrable) {
            if (!n) { arbiter[a] = false; continue; }   /* (nothing to decide; no key set for it) */
            attu_error_set(err, "55000", 0,
                           "ON CONFLICT does not support deferrable unique constraints/exclusion constraints as arbiters");
            goto out;
        }
    if (oc->update && set_column_of(t, oc, set_cols, err)) goto out;
    for (int a = 0; a < nu; a++) {
        if (!arbiter[a]) continue;
        if (!(grp[a] = malloc(sizeof **grp * (n + 1)))) { attu_error_oom(err); goto out; }
        if (db_unique_groups(s, t, NULL, &us[a], n0, grp[a], err)) goto out;
    }
    if (!(keep = malloc(t->nrows + 1))) { attu_error_oom(err); goto out; }
    memset(keep, 1, n0);

    if (!oc->update) {
        /* DO NOTHING: a row whose key an old row or an inserted row holds
         * is skipped */
        for (int a = 0; a < nu; a++)
            if (arbiter[a] && holders_init(&hold[a], grp[a], n, NULL, 0, err)) goto out;
        for (size_t p = 0; p < n; p++) {
            bool hit = false, mine;
            for (int a = 0; a < nu && !hit; a++)
                hit = arbiter[a] && grp[a][p] >= 0 && holder_of(&hold[a], grp[a][p], n0, &mine) >= 0;
            fate[p] = !hit;
            if (!hit)
                for (int a = 0; a < nu; a++)
                    if (arbiter[a] && grp[a][p] >= 0) holder_set(&hold[a], grp[a][p], 2, (int64_t)(n0 + p));
        }
    } else {
        /* the pairs (old row, proposed row) of equal keys, by proposal */
        olds = malloc(sizeof *olds * ((size_t)nu * n + 1));
        props = malloc(sizeof *props * ((size_t)nu * n + 1));
        pair_start = malloc(sizeof *pair_start * (n + 2));
        if (!olds || !props || !pair_start) { attu_error_oom(err); goto out; }
        for (size_t p = 0; p < n; p++) {
            pair_start[p] = npairs;
            for (int a = 0; a < nu; a++) {
                if (!arbiter[a] || grp[a][p] < 0 || (size_t)grp[a][p] >= n0) continue;
                bool dup = false;
                for (size_t q = pair_start[p]; q < npairs && !dup; q++) dup = olds[q] == grp[a][p];
                if (dup) continue;
                olds[npairs] = grp[a][p];
                props[npairs++] = (int64_t)(n0 + p);
            }
        }
        pair_start[n] = npairs;
        if (!(val_row = malloc(sizeof *val_row * (npairs + 1)))) { attu_error_oom(err); goto out; }
        for (size_t i = 0; i < npairs; i++) val_row[i] = -1;
        if (npairs) {
            if (eval_updates(s, sql, st, params, t, n0, set_cols, olds, props, npairs, &vals, &idx, &nvals, err)) goto out;
            for (size_t j = 0; j < nvals; j++) val_row[idx[j]] = (int64_t)j;
        }
        /* each old row's first pair whose WHERE holds: the update it may get */
        if (!(cands = malloc(sizeof *cands * (npairs + 1)))) { attu_error_oom(err); goto out; }
        for (size_t i = 0; i < npairs; i++) if (val_row[i] >= 0) cands[ncand++] = (cand){ olds[i], i };
        qsort(cands, ncand, sizeof *cands, by_old);
        size_t u = 0;
        for (size_t i = 0; i < ncand; i++) if (!u || cands[u - 1].old != cands[i].old) cands[u++] = cands[i];
        ncand = u;
        if (!(src_row = malloc(sizeof *src_row * (t->nrows + 1))) || !(cand_olds = malloc(sizeof *cand_olds * (ncand + 1)))) {
            attu_error_oom(err);
            goto out;
        }
        for (size_t r = 0; r < t->nrows; r++) src_row[r] = -1;
        for (size_t i = 0; i < ncand; i++) { src_row[cands[i].old] = val_row[cands[i].pair]; cand_olds[i] = cands[i].old; }
        /* newkeys: the row each of them would become (its new key), the
         * candidates gathered and updated on their own (not the table) */
        if (ncand) {
            size_t *rows = malloc(sizeof *rows * (ncand + 1));
            int64_t *src = malloc(sizeof *src * (ncand + 1));
            if (!rows || !src) { free(rows); free(src); attu_error_oom(err); goto out; }
            for (size_t i = 0; i < ncand; i++) { rows[i] = (size_t)cands[i].old; src[i] = val_row[cands[i].pair]; }
            if ((cand_rows = db_gather_rows(t, rows, ncand, t->name, err)))
                newkeys = attu_table_update_rows(cand_rows, src, oc->nsets, set_cols, vals, err);
            free(rows); free(src);
            if (!newkeys) goto out;
        }
        /* the groups over t's rows, then the new keys as if appended */
        for (int a = 0; a < nu; a++) {
            if (!arbiter[a]) continue;
            if (!(kgrp[a] = malloc(sizeof **kgrp * (n + ncand + 1)))) { attu_error_oom(err); goto out; }
            if (db_unique_groups(s, t, newkeys, &us[a], n0, kgrp[a], err) ||
                holders_init(&hold[a], kgrp[a], n + ncand, cand_olds, ncand, err))
                goto out;
        }
        for (size_t r = 0; r < t->nrows; r++) src_row[r] = -1;
        /* the proposed rows in order */
        for (size_t p = 0; p < n; p++) {
            int64_t who = -1;
            bool mine = false;
            for (int a = 0; a < nu && who < 0; a++)
                if (arbiter[a] && kgrp[a][p] >= 0) who = holder_of(&hold[a], kgrp[a][p], n0, &mine);
            if (who < 0) {
                fate[p] = 1;
                for (int a = 0; a < nu; a++)
                    if (arbiter[a] && kgrp[a][p] >= 0) holder_set(&hold[a], kgrp[a][p], 2, (int64_t)(n0 + p));
                continue;
            }
            if (mine) { error_second_time(err); goto out; }
            /* an old row, still with its key: the pair (who, p) */
            size_t pair = npairs;
            for (size_t q = pair_start[p]; q < pair_start[p + 1]; q++) if (olds[q] == who) pair = q;
            if (pair == npairs) { attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "ON CONFLICT lost its pair"); goto out; }
            if (val_row[pair] < 0) { fate[p] = 0; continue; }   /* WHERE does not hold */
            size_t ci = 0;
            while (ci < ncand && cands[ci].old != who) ci++;
            if (ci == ncand || cands[ci].pair != pair) { attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "ON CONFLICT lost its update"); goto out; }
            /* the row leaves its old keys for its new ones */
            fate[p] = 2;
            upd_of[p] = who;
            src_row[who] = val_row[pair];
            nupdated++;
            for (int a = 0; a < nu; a++) if (arbiter[a]) holder_set(&hold[a], who, 1, -1);
            for (int a = 0; a < nu; a++) {
                if (!arbiter[a]) continue;
                int64_t nk = kgrp[a][n + ci];
                if (nk < 0) continue;
                bool m2;
                if (holder_of(&hold[a], nk, n0, &m2) >= 0) {
                    db_unique_violation(newkeys, &us[a], ci, err);
                    goto out;
                }
                holder_set(&hold[a], nk, 2, who);
            }
        }
        if (nupdated && !(upd = attu_table_update_rows(t, src_row, oc->nsets, set_cols, vals, err))) goto out;
    }
    for (size_t p = 0; p < n; p++) keep[n0 + p] = fate[p] == 1;
    if (!(fin = attu_table_keep_rows(upd ? upd : t, keep, err))) goto out;
    fin->version = t->version;
    /* every constraint on the final rows (the non-arbiters too) */
    if (!(changed = calloc(fin->nrows + 1, 1))) { attu_error_oom(err); goto out; }
    for (size_t r = n0; r < fin->nrows; r++) changed[r] = 1;
    if (src_row) for (size_t r = 0; r < n0; r++) changed[r] = src_row[r] >= 0;
    if (db_generated_fill(s, &fin, 0, changed, err) || db_check_rows(s, fin, 0, changed, err) ||
        db_unique_check(s, fin, 0, changed, err))
        goto out;
    /* RETURNING's rows, in the order proposed */
    size_t *rows = malloc(sizeof *rows * (n + 1)), nr = 0, ins = n0;
    if (!rows) { attu_error_oom(err); goto out; }
    for (size_t p = 0; p < n; p++) {
        if (fate[p] == 1) rows[nr++] = ins++;
        else if (fate[p] == 2) rows[nr++] = (size_t)upd_of[p];
    }
    *count = nr;
    *rows_out = rows;
    *changed_out = changed;
    changed = NULL;
    attu_table_free(t);
    *tp = fin;
    fin = NULL;
    rc = 0;
out:
    for (int a = 0; a < nu; a++) {
        if (grp) free(grp[a]);
        if (kgrp) free(kgrp[a]);
        if (hold) holders_free(&hold[a]);
    }
    free(arbiter); free(grp); free(kgrp); free(hold); free(fate); free(upd_of); free(set_cols);
    free(olds); free(props); free(idx); free(val_row); free(src_row); free(cand_olds); free(pair_start); free(cands);
    free(keep); free(changed);
    if (vals) for (int c = 0; c < oc->nsets; c++) attu_column_free(vals[c]);
    free(vals);
    attu_table_free(cand_rows);
    attu_table_free(newkeys);
    attu_table_free(upd);
    attu_table_free(fin);
    return rc;
}

attu_table *db_gather_rows(const attu_table *t, const size_t *rows, size_t n, const char *name, attu_error *err) {
    attu_table *g = attu_table_new(name, t->ncols, t->defs, err);
    if (!g) return NULL;
    for (int c = 0; c < t->ncols; c++) {
        attu_column *col = attu_column_gather(t->cols[c], rows, n, err);
        if (!col) { attu_table_free(g); return NULL; }
        attu_column_free(g->cols[c]);
        g->cols[c] = col;
    }
    g->nrows = n;
    g->version = t->version;
    return g;
}
