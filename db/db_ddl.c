/*
 * db_ddl.c - CREATE TABLE, CREATE TABLE AS, DROP TABLE and INSERT.
 *
 * Each builds the new table beside the old one under the write lock, saves
 * it to the data directory (when there is one) and only then swaps it into
 * the catalog, so a failure leaves both exactly as they were.
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/storage.h"
#include "planner/lower.h"
#include "planner/rewrite.h"

static int save(attu_session *s, const attu_table *t, attu_error *err) {
    return s->db->data_dir ? attu_storage_save_table(s->db->data_dir, t, err) : 0;
}

int db_exec_create(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    int n = st->u.create_table.ncolumns;
    attu_column_def *defs = calloc((size_t)n + 1, sizeof *defs);
    if (!defs) return attu_error_oom(err);
    for (int i = 0; i < n; i++) {
        const attu_ast_column_def *cd = &st->u.create_table.columns[i];
        snprintf(defs[i].name, sizeof defs[i].name, "%s", cd->name);
        if (attu_type_from_name(cd->type.name, cd->type.precision, cd->type.scale, &defs[i].type, err)) {
            err->position = cd->type.position;
            free(defs);
            return -1;
        }
        defs[i].not_null = cd->not_null;
        for (int k = 0; k < i; k++)
            if (!strcmp(defs[k].name, defs[i].name)) {
                free(defs);
                return attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_COLUMN, cd->position, "column \"%s\" specified more than once", cd->name);
            }
    }
    pthread_rwlock_wrlock(&s->db->lock);
    int rc = -1;
    if (attu_catalog_lookup(s->db->cat, st->u.create_table.table)) {
        if (st->u.create_table.if_not_exists) {
            if (cb && cb->on_notice) {
                char msg[160];
                snprintf(msg, sizeof msg, "relation \"%s\" already exists, skipping", st->u.create_table.table);
                cb->on_notice(cb->ctx, "42P07", msg);
            }
            rc = 0;
        } else attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, st->position, "relation \"%s\" already exists", st->u.create_table.table);
        free(defs);
        pthread_rwlock_unlock(&s->db->lock);
        return rc ? rc : (db_deliver_tag(cb, "CREATE TABLE", err) ? -2 : 0);
    }
    attu_table *t = attu_table_new(st->u.create_table.table, n, defs, err);
    free(defs);
    if (t && !save(s, t, err) && !attu_catalog_add(s->db->cat, t, err)) rc = 0;
    else attu_table_free(t);
    pthread_rwlock_unlock(&s->db->lock);
    if (rc) return rc;
    return db_deliver_tag(cb, "CREATE TABLE", err) ? -2 : 0;
}

int db_exec_drop(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    pthread_rwlock_wrlock(&s->db->lock);
    /* check all first: DROP TABLE a, b drops neither if b is missing */
    for (int i = 0; i < st->u.drop_table.tables.n; i++) {
        const char *name = st->u.drop_table.tables.items[i];
        if (!attu_catalog_lookup(s->db->cat, name) && !st->u.drop_table.if_exists) {
            pthread_rwlock_unlock(&s->db->lock);
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE,
                                  st->u.drop_table.tables.positions ? st->u.drop_table.tables.positions[i] : st->position,
                                  "table \"%s\" does not exist", name);
        }
    }
    int rc = 0;
    for (int i = 0; i < st->u.drop_table.tables.n && !rc; i++) {
        const char *name = st->u.drop_table.tables.items[i];
        if (!attu_catalog_lookup(s->db->cat, name)) {
            if (cb && cb->on_notice) {
                char msg[160];
                snprintf(msg, sizeof msg, "table \"%s\" does not exist, skipping", name);
                cb->on_notice(cb->ctx, "00000", msg);
            }
            continue;
        }
        if (s->db->data_dir && attu_storage_drop_table(s->db->data_dir, name, err)) { rc = -1; break; }
        attu_table *t = attu_catalog_remove(s->db->cat, name, true, err);
        attu_table_free(t);
    }
    pthread_rwlock_unlock(&s->db->lock);
    if (rc) return rc;
    return db_deliver_tag(cb, "DROP TABLE", err) ? -2 : 0;
}

/* Appends n rows (host columns src, already of the table's types) to a copy
 * of base. TEXT values are re-coded into a merged dictionary. */
attu_table *db_append_rows(const attu_table *base, attu_column **src, const int *map, size_t n, attu_error *err) {
    attu_table *t = attu_table_clone(base, err);
    if (!t) return NULL;
    size_t old = base->nrows, total = old + n;
    for (int c = 0; c < t->ncols; c++) {
        attu_column *col = t->cols[c];
        attu_column_invalidate_device(col);
        if (attu_column_reserve(col, total ? total : 1, err)) goto fail;
        const attu_column *sc = map[c] >= 0 ? src[map[c]] : NULL;
        size_t w = attu_type_width(col->type.id);
        if (col->type.id == ATTU_TYPE_TEXT) {
            const attu_dictionary *sd = sc ? sc->dict : NULL;
            int32_t nd = sd ? sd->count : 0;
            const char **strs = malloc(sizeof *strs * ((size_t)nd + 1));
            size_t *lens = malloc(sizeof *lens * ((size_t)nd + 1));
            int32_t *newc = malloc(sizeof *newc * ((size_t)nd + 1));
            int32_t *oldmap = malloc(sizeof *oldmap * ((size_t)(col->dict ? col->dict->count : 0) + 1));
            if (!strs || !lens || !newc || !oldmap) { free(strs); free(lens); free(newc); free(oldmap); attu_error_oom(err); goto fail; }
            for (int32_t k = 0; k < nd; k++) strs[k] = attu_dictionary_get(sd, k, &lens[k]);
            attu_dictionary *d = col->dict ? attu_dictionary_merge(col->dict, strs, lens, (size_t)nd, oldmap, newc, err)
                                           : attu_dictionary_build(strs, lens, (size_t)nd, newc, err);
            free(strs); free(lens);
            if (!d) { free(newc); free(oldmap); goto fail; }
            int32_t *codes = col->data;
            if (col->dict) for (size_t r = 0; r < old; r++) if (!attu_column_is_null(col, r)) codes[r] = oldmap[codes[r]];
            for (size_t r = 0; r < n; r++) codes[old + r] = (sc && !attu_column_is_null(sc, r)) ? newc[((int32_t *)sc->data)[r]] : 0;
            attu_dictionary_unref(col->dict);
            col->dict = d;
            free(newc); free(oldmap);
        } else if (sc) memcpy((char *)col->data + old * w, sc->data, n * w);
        else memset((char *)col->data + old * w, 0, n * w);
        col->length = total;
        for (size_t r = 0; r < n; r++) {
            bool isnull = !sc || attu_column_is_null(sc, r);
            if (isnull) {
                if (base->defs[c].not_null) {
                    attu_error_set(err, ATTU_SQLSTATE_NOT_NULL_VIOLATION, 0,
                                   "null value in column \"%s\" of relation \"%s\" violates not-null constraint", base->defs[c].name, base->name);
                    goto fail;
                }
                if (attu_column_ensure_validity(col, err)) goto fail;
                attu_column_set_null(col, old + r, true);
            } else if (col->validity) attu_column_set_null(col, old + r, false);
        }
    }
    t->nrows = total;
    t->version = base->version + 1;
    return t;
fail:
    attu_table_free(t);
    return NULL;
}

/* Runs a query whose result columns are coerced to the given types. */
static attu_result *run_coerced(attu_session *s, const char *sql, const attu_ast_query *q, const attu_bind_params *params,
                                int ncols, const attu_type *types, const char *const *names, attu_error *err) {
    attu_plan_arena *pa = attu_plan_arena_new();
    if (!pa) { attu_error_oom(err); return NULL; }
    attu_result *res = NULL;
    attu_bind_params bp = db_params(s, params);
    bp.insert_types = types;
    bp.insert_names = names;
    bp.ninsert = ncols;
    attu_lplan *lp = attu_bind_query(pa, s->db->cat, sql, q, &bp, err);
    if (lp && types) {
        if (lp->ncols > ncols) {
            attu_error_set(err, ATTU_SQLSTATE_SYNTAX, q->position, "INSERT has more expressions than target columns");
            lp = NULL;
        } else if (lp->ncols < ncols) {
            attu_error_set(err, ATTU_SQLSTATE_SYNTAX, q->position, "INSERT has more target columns than expressions");
            lp = NULL;
        } else {
            attu_lplan *p = attu_lp_new(pa, LP_PROJECT, ncols);
            if (!p) { attu_error_oom(err); lp = NULL; }
            else {
                p->left = lp;
                p->exprs = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)(ncols + 1));
                for (int i = 0; i < ncols && lp; i++) {
                    attu_bexpr *c = attu_bx_col(pa, i, lp->types[i]);
                    c->position = q->position;
                    if (lp->kind == LP_VALUES && lp->nrows > 0) c->position = lp->values[i]->position;
                    p->exprs[i] = attu_bind_coerce_assign(pa, c, types[i], names[i], err);
                    if (!p->exprs[i]) lp = NULL;
                    else { p->types[i] = types[i]; p->names[i] = (char *)names[i]; }
                }
                if (lp) { p->est_rows = lp->est_rows; lp = p; }
            }
        }
    }
    if (lp) lp = attu_rewrite(pa, lp, err);
    attu_stage *st = lp ? attu_lower(lp, err) : NULL;
    if (st) {
        attu_exec_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.be = s->db->be;
        ctx.cancel = &s->cancel;
        if (s->statement_timeout_ms > 0) ctx.deadline_ms = s->stmt_start_ms + s->statement_timeout_ms;
        attu_column **cols = NULL;
        size_t n = 0;
        if (!attu_execute(&ctx, st, &cols, &n, err)) {
            res = db_result_new(0);
            if (!res) { for (int i = 0; i < lp->ncols; i++) attu_column_free(cols[i]); free(cols); attu_error_oom(err); }
            else {
                free(res->cols); free(res->desc);
                res->ncols = lp->ncols; res->cols = cols; res->nrows = n;
                res->desc = calloc((size_t)lp->ncols + 1, sizeof *res->desc);
                for (int i = 0; res->desc && i < lp->ncols; i++) {
                    snprintf(res->desc[i].name, sizeof res->desc[i].name, "%s", lp->names[i] ? lp->names[i] : "?column?");
                    res->desc[i].type = lp->types[i];
                }
            }
        }
        attu_stage_free(st);
    }
    attu_plan_arena_free(pa);
    return res;
}

int db_exec_insert(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                   const attu_exec_callbacks *cb, attu_error *err) {
    pthread_rwlock_wrlock(&s->db->lock);
    int rc = -1;
    attu_table *base = attu_catalog_lookup(s->db->cat, st->u.insert.table);
    attu_type *types = NULL;
    const char **names = NULL;
    int *map = NULL;
    attu_result *res = NULL;
    if (!base) {
        attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, st->u.insert.table_position, "relation \"%s\" does not exist", st->u.insert.table);
        goto out;
    }
    int ntarget = st->u.insert.columns.n ? st->u.insert.columns.n : base->ncols;
    types = calloc((size_t)ntarget + 1, sizeof *types);
    names = calloc((size_t)ntarget + 1, sizeof *names);
    map = malloc(sizeof(int) * ((size_t)base->ncols + 1));
    if (!types || !names || !map) { attu_error_oom(err); goto out; }
    for (int c = 0; c < base->ncols; c++) map[c] = -1;
    for (int i = 0; i < ntarget; i++) {
        int c = i;
        if (st->u.insert.columns.n) {
            c = attu_table_find_column(base, st->u.insert.columns.items[i]);
            if (c < 0) {
                attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, st->u.insert.columns.positions ? st->u.insert.columns.positions[i] : st->position,
                               "column \"%s\" of relation \"%s\" does not exist", st->u.insert.columns.items[i], base->name);
                goto out;
            }
            if (map[c] >= 0) {
                attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_COLUMN, st->u.insert.columns.positions ? st->u.insert.columns.positions[i] : st->position,
                               "column \"%s\" specified more than once", base->defs[c].name);
                goto out;
            }
        }
        map[c] = i;
        types[i] = base->defs[c].type;
        names[i] = base->defs[c].name;
    }
    size_t n = 0;
    if (st->u.insert.source) {
        res = run_coerced(s, sql, st->u.insert.source, params, ntarget, types, names, err);
        if (!res) goto out;
        n = res->nrows;
    } else {
        n = 1;   /* DEFAULT VALUES: one row of NULLs */
        for (int c = 0; c < base->ncols; c++) map[c] = -1;
    }
    attu_table *t = db_append_rows(base, res ? res->cols : NULL, map, n, err);
    if (!t) goto out;
    if (save(s, t, err)) { attu_table_free(t); goto out; }
    attu_table *old = attu_catalog_replace(s->db->cat, t);
    attu_table_free(old);
    rc = 0;
    char tag[64];
    snprintf(tag, sizeof tag, "INSERT 0 %zu", n);
    pthread_rwlock_unlock(&s->db->lock);
    attu_result_free(res);
    free(types); free(names); free(map);
    return db_deliver_tag(cb, tag, err) ? -2 : 0;
out:
    pthread_rwlock_unlock(&s->db->lock);
    attu_result_free(res);
    free(types); free(names); free(map);
    return rc;
}

int db_exec_ctas(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                 const attu_exec_callbacks *cb, attu_error *err) {
    pthread_rwlock_wrlock(&s->db->lock);
    int rc = -1;
    const char *name = st->u.create_table_as.table;
    attu_result *res = NULL;
    attu_column_def *defs = NULL;
    if (attu_catalog_lookup(s->db->cat, name)) {
        if (st->u.create_table_as.if_not_exists) {
            pthread_rwlock_unlock(&s->db->lock);
            if (cb && cb->on_notice) {
                char msg[160];
                snprintf(msg, sizeof msg, "relation \"%s\" already exists, skipping", name);
                cb->on_notice(cb->ctx, "42P07", msg);
            }
            return db_deliver_tag(cb, "CREATE TABLE AS", err) ? -2 : 0;
        }
        attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, st->position, "relation \"%s\" already exists", name);
        goto out;
    }
    res = run_coerced(s, sql, st->u.create_table_as.query, params, 0, NULL, NULL, err);
    if (!res) goto out;
    if (st->u.create_table_as.columns.n > res->ncols) {
        attu_error_set(err, ATTU_SQLSTATE_SYNTAX, st->position, "too many column names were specified");
        goto out;
    }
    defs = calloc((size_t)res->ncols + 1, sizeof *defs);
    if (!defs) { attu_error_oom(err); goto out; }
    for (int i = 0; i < res->ncols; i++) {
        snprintf(defs[i].name, sizeof defs[i].name, "%s",
                 i < st->u.create_table_as.columns.n ? st->u.create_table_as.columns.items[i] : res->desc[i].name);
        defs[i].type = res->desc[i].type;
    }
    attu_table *empty = attu_table_new(name, res->ncols, defs, err);
    if (!empty) goto out;
    int *map = malloc(sizeof(int) * ((size_t)res->ncols + 1));
    if (!map) { attu_table_free(empty); attu_error_oom(err); goto out; }
    for (int i = 0; i < res->ncols; i++) map[i] = i;
    size_t n = st->u.create_table_as.with_no_data ? 0 : res->nrows;
    attu_table *t = db_append_rows(empty, res->cols, map, n, err);
    free(map);
    attu_table_free(empty);
    if (!t) goto out;
    if (save(s, t, err) || attu_catalog_add(s->db->cat, t, err)) { attu_table_free(t); goto out; }
    rc = 0;
    char tag[64];
    snprintf(tag, sizeof tag, "SELECT %zu", n);
    pthread_rwlock_unlock(&s->db->lock);
    attu_result_free(res);
    free(defs);
    return db_deliver_tag(cb, tag, err) ? -2 : 0;
out:
    pthread_rwlock_unlock(&s->db->lock);
    attu_result_free(res);
    free(defs);
    return rc;
}
