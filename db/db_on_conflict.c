/*
 * db_on_conflict.c - INSERT ... ON CONFLICT [ (a, b) | ON CONSTRAINT c ]
 * DO NOTHING | DO UPDATE SET ... [WHERE ...].
 *
 * INSERT has already built t: the table's rows, then every proposed row
 * (DEFAULTs filled in). The arbiters are the constraints the target names
 * (every constraint for DO NOTHING without one). For each arbiter one
 * partition query over t (db_unique_groups, on the database's backend)
 * gives each proposed row the smallest row that holds its key: an old row
 * (a conflict with the table) or the first proposed row with that key.
 * A pass over the proposed rows in order, on the host and over them only,
 * then replays PostgreSQL's row-by-row logic with one flag per key group:
 *
 *   - DO NOTHING: a row whose key is held by an old row, or by a proposed
 *     row inserted before it, is skipped;
 *   - DO UPDATE: such a row updates the old row (when the WHERE holds for
 *     it); a second proposal for a row this command inserted or updated is
 *     21000 "ON CONFLICT DO UPDATE command cannot affect row a second
 *     time", as in PostgreSQL.
 *
 * The SET values and the WHERE of DO UPDATE are one query over the pairs
 * (old row, proposed row): a table of row numbers joined to the table as
 * it was (by its alias or name) and to the proposed rows, gathered into a
 * table of their own, as EXCLUDED, so the expressions bind as PostgreSQL
 * binds them (an unqualified column that both hold is 42702 "ambiguous",
 * as there) and a subquery over the table reads it as the statement found
 * it. The new version is then the
 * old rows with the updates, plus the inserted rows, checked against every
 * constraint (a non-arbiter collision is 23505) like a plain INSERT.
 * RETURNING reads the inserted and updated rows in the order proposed.
 *
 * Differences: an old row updated by an earlier proposal is still found
 * by its old key (PostgreSQL no longer sees that version: there a later
 * proposal with the old key is inserted); SET DEFAULT is not supported.
 */
#include "db/db_internal.h"
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
            if (!strcmp(us[k].name, oc->constraint)) { arbiter[k] = true; return 0; }
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
        ((int64_t *)map->cols[0]->data)[i] = olds[i];
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

    char tname[ATTU_NAME_MAX * 2 + 4], alias[ATTU_NAME_MAX * 2 + 4], text[1024];
    put_ident(tname, sizeof tname, t->name);
    put_ident(alias, sizeof alias, st->u.insert.alias ? st->u.insert.alias : t->name);
    snprintf(text, sizeof text,
             "SELECT m.\"\001i\" FROM \"" MAP_NAME "\" AS m JOIN %s AS %s ON %s.\"\001rowid\" = m.\"\001g\" "
             "JOIN \"" EXCLUDED_NAME "\" AS excluded ON excluded.\"\001rowid\" = m.\"\001p\"", tname, alias, alias);
    attu_parse_result *pr = attu_parse(text, err);
    attu_plan_arena *pa = attu_plan_arena_new();
    attu_ast_arena *arena = attu_ast_arena_new();
    int rc = -1;
    bool added = false, excl_added = false;
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
    if (attu_catalog_add(s->db->cat, map, err)) goto out;
    added = true;
    if (attu_catalog_add(s->db->cat, excl, err)) goto out;
    excl_added = true;
    attu_bind_params bp = db_params(s, params);
    lp = attu_bind_query(pa, s->db->cat, sql, q, &bp, err);
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
    if (added) attu_catalog_remove(s->db->cat, MAP_NAME, true, NULL);
    if (excl_added) attu_catalog_remove(s->db->cat, EXCLUDED_NAME, true, NULL);
    attu_table_free(map);
    attu_table_free(excl);
    if (cols) for (int i = 0; i < 1 + oc->nsets; i++) attu_column_free(cols[i]);
    free(cols);
    attu_stage_free(stg);
    attu_plan_arena_free(pa);
    attu_ast_arena_free(arena);
    attu_parse_free(pr);
    return rc;
}

/* ---- the statement ---------------------------------------------------------------------------- */

/* t: the table's rows (the first n0) then the proposed rows. On success *t
 * is the version to save (the old one freed), *count the rows inserted or
 * updated, and *rows (malloc'd, *count of them) their rows in *t in the
 * order proposed, for RETURNING. */
int db_on_conflict(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                   size_t n0, attu_table **tp, size_t *count, size_t **rows_out, attu_error *err) {
    const attu_ast_on_conflict *oc = st->u.insert.on_conflict;
    attu_table *t = *tp;
    int nu = 0;
    const attu_unique *us = attu_catalog_uniques(s->db->cat, t->name, &nu);
    size_t n = t->nrows - n0;
    bool *arbiter = calloc((size_t)nu + 1, sizeof *arbiter);
    int64_t **grp = calloc((size_t)nu + 1, sizeof *grp);
    uint8_t **claimed = calloc((size_t)nu + 1, sizeof *claimed);
    int8_t *fate = malloc(n + 1);          /* 1 insert, 0 skip, 2 update */
    int64_t *olds = malloc(sizeof *olds * (n + 1)), *props = malloc(sizeof *props * (n + 1));
    int *set_cols = calloc((size_t)oc->nsets + 1, sizeof *set_cols);
    int64_t *src_row = NULL, *idx = NULL;
    int64_t *pair_of = NULL;               /* proposed row -> its pair, or -1 */
    uint8_t *keep = NULL, *touched = NULL, *where_ok = NULL, *changed = NULL;
    attu_column **vals = NULL;
    size_t npairs = 0, nvals = 0;
    attu_table *upd = NULL, *fin = NULL;
    int rc = -1;
    if (!arbiter || !grp || !claimed || !fate || !olds || !props || !set_cols) { attu_error_oom(err); goto out; }
    if (choose_arbiters(t, oc, us, nu, arbiter, err)) goto out;
    if (oc->update && set_column_of(t, oc, set_cols, err)) goto out;
    for (int k = 0; k < nu; k++) {
        if (!arbiter[k]) continue;
        if (!(grp[k] = malloc(sizeof **grp * (n + 1))) || !(claimed[k] = calloc(n + 1, 1))) { attu_error_oom(err); goto out; }
        if (db_unique_groups(s, t, &us[k], n0, grp[k], err)) goto out;
    }
    /* the proposed rows in order: PostgreSQL's row-by-row decision */
    for (size_t p = 0; p < n; p++) {
        int64_t g = -1;
        bool hit = false;
        for (int k = 0; k < nu && !hit; k++) {
            if (!arbiter[k] || grp[k][p] < 0) continue;
            g = grp[k][p];
            hit = (size_t)g < n0 || claimed[k][(size_t)g - n0];
        }
        if (!hit) {
            fate[p] = 1;
            for (int k = 0; k < nu; k++)
                if (arbiter[k] && grp[k][p] >= 0) claimed[k][(size_t)grp[k][p] - n0] = 1;
        } else if (!oc->update) {
            fate[p] = 0;
        } else if ((size_t)g >= n0) {
            /* its key is a row this command inserted */
            attu_error_set(err, ATTU_SQLSTATE_CARDINALITY, 0, "ON CONFLICT DO UPDATE command cannot affect row a second time");
            attu_error_set_hint(err, "Ensure that no rows proposed for insertion within the same command have duplicate constrained values.");
            goto out;
        } else {
            fate[p] = 2;
            olds[npairs] = g;
            props[npairs++] = (int64_t)(n0 + p);
        }
    }
    if (!(keep = malloc(t->nrows + 1))) { attu_error_oom(err); goto out; }
    memset(keep, 1, n0);
    for (size_t p = 0; p < n; p++) keep[n0 + p] = fate[p] == 1;
    size_t nupdated = 0;
    if (oc->update && npairs) {
        if (eval_updates(s, sql, st, params, t, n0, set_cols, olds, props, npairs, &vals, &idx, &nvals, err)) goto out;
        where_ok = calloc(npairs + 1, 1);
        touched = calloc(n0 + 1, 1);
        pair_of = malloc(sizeof *pair_of * (npairs + 1));
        src_row = malloc(sizeof *src_row * (t->nrows + 1));
        if (!where_ok || !touched || !pair_of || !src_row) { attu_error_oom(err); goto out; }
        for (size_t i = 0; i < npairs; i++) pair_of[i] = -1;
        for (size_t j = 0; j < nvals; j++) { where_ok[idx[j]] = 1; pair_of[idx[j]] = (int64_t)j; }
        for (size_t r = 0; r < t->nrows; r++) src_row[r] = -1;
        for (size_t i = 0; i < npairs; i++) {
            if (!where_ok[i]) { fate[props[i] - (int64_t)n0] = 0; continue; }
            if (touched[olds[i]]) {
                attu_error_set(err, ATTU_SQLSTATE_CARDINALITY, 0, "ON CONFLICT DO UPDATE command cannot affect row a second time");
                attu_error_set_hint(err, "Ensure that no rows proposed for insertion within the same command have duplicate constrained values.");
                goto out;
            }
            touched[olds[i]] = 1;
            src_row[olds[i]] = pair_of[i];
            nupdated++;
        }
        if (nupdated && !(upd = attu_table_update_rows(t, src_row, oc->nsets, set_cols, vals, err))) goto out;
    } else {
        for (size_t p = 0; p < n; p++) if (fate[p] == 2) fate[p] = 0;
    }
    if (!(fin = attu_table_keep_rows(upd ? upd : t, keep, err))) goto out;
    fin->version = t->version;
    /* every constraint on the final rows (the non-arbiters too) */
    if (!(changed = calloc(fin->nrows + 1, 1))) { attu_error_oom(err); goto out; }
    for (size_t r = n0; r < fin->nrows; r++) changed[r] = 1;
    if (touched) for (size_t r = 0; r < n0; r++) changed[r] = touched[r];
    if (db_unique_check(s, fin, 0, changed, err)) goto out;
    /* RETURNING's rows, in the order proposed */
    size_t *rows = malloc(sizeof *rows * (n + 1)), nr = 0, ins = n0;
    if (!rows) { attu_error_oom(err); goto out; }
    size_t pi = 0;
    for (size_t p = 0; p < n; p++) {
        if (fate[p] == 1) rows[nr++] = ins++;
        else if (fate[p] == 2) {
            while (pi < npairs && props[pi] != (int64_t)(n0 + p)) pi++;
            rows[nr++] = (size_t)olds[pi];
        }
    }
    *count = nr;
    *rows_out = rows;
    attu_table_free(t);
    *tp = fin;
    fin = NULL;
    rc = 0;
out:
    for (int k = 0; k < nu; k++) { if (grp) free(grp[k]); if (claimed) free(claimed[k]); }
    free(arbiter); free(grp); free(claimed); free(fate); free(olds); free(props); free(set_cols);
    free(src_row); free(idx); free(pair_of); free(keep); free(touched); free(where_ok); free(changed);
    if (vals) for (int k = 0; k < oc->nsets; k++) attu_column_free(vals[k]);
    free(vals);
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
