/*
 * table_rewrite.c - new versions of a table with rows removed or changed
 * (table_rewrite.h).
 *
 * Everything here runs on the host columns a table keeps (the backends'
 * device copies are caches of them, executor.c attu_column_resident): the
 * new columns start without a device copy, so the next query on either
 * backend uploads the new rows, exactly as after an INSERT.
 */
#include "engine/failing_row.h"
#include "engine/table_rewrite.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The new table's frame: t's name and schema, version + 1, no columns yet
 * (attu_table_free copes with the NULL entries on failure). */
static attu_table *shell(const attu_table *t, size_t nrows, attu_error *err) {
    attu_table *n = attu_table_shell(t, err);   /* (a new uid, no lineage: the rows changed) */
    if (!n) return NULL;
    n->nrows = nrows;
    n->version = t->version + 1;
    return n;
}

/* Renumbers a TEXT column's codes so that its dictionary holds only the
 * strings some row still uses. The used strings keep their byte order, so
 * the renumbering is monotonic and code comparisons stay string
 * comparisons.
 *
 * That costs a copy of the dictionary and a pass over every row, which a
 * statement that drops only a few rows' strings (a DELETE or UPDATE of one
 * row of a big table) should not pay each time: `dropped` rows lost their
 * values, so at most that many more strings went out of use, and while
 * the column's bound on unused strings (dict_unused) stays within a
 * sixteenth of the dictionary, the dictionary is kept as it is (a string
 * no row uses changes no result: codes still compare as the strings do).
 * Past that, the whole dictionary is trimmed and the bound is 0 again. */
static int trim_dictionary(attu_column *c, size_t dropped, attu_error *err) {
    if (c->type.id != ATTU_TYPE_TEXT || !c->dict) return 0;
    int32_t nd = c->dict->count;
    if (c->dict_unused + dropped <= (size_t)nd / 16) {
        c->dict_unused += dropped;
        return 0;
    }
    uint8_t *keep = calloc((size_t)nd + 1, 1);
    int32_t *map = malloc(sizeof *map * ((size_t)nd + 1));
    if (!keep || !map) { free(keep); free(map); return attu_error_oom(err); }
    int32_t *codes = c->data;
    for (size_t r = 0; r < c->length; r++)
        if (!attu_column_is_null(c, r)) keep[codes[r]] = 1;
    int32_t used = 0;
    for (int32_t i = 0; i < nd; i++) map[i] = keep[i] ? used++ : -1;
    attu_dictionary *d = used == nd ? NULL : attu_dictionary_subset(c->dict, keep, err);
    if (d)
        for (size_t r = 0; r < c->length; r++)
            if (!attu_column_is_null(c, r)) codes[r] = map[codes[r]];
    free(keep);
    free(map);
    if (used == nd) { c->dict_unused = 0; return 0; }
    if (!d) return -1;
    attu_dictionary_unref(c->dict);
    c->dict = d;
    c->dict_unused = 0;
    return 0;
}

attu_column *attu_column_gather(const attu_column *c, const size_t *rows, size_t n, attu_error *err) {
    attu_column *g = attu_column_new(c->type, n ? n : 1, err);
    if (!g) return NULL;
    size_t w = attu_type_width(c->type.id);
    if (w == 4) {
        const uint32_t *s = c->data;
        uint32_t *d = g->data;
        for (size_t i = 0; i < n; i++) d[i] = s[rows[i]];
    } else if (w == 8) {
        const uint64_t *s = c->data;
        uint64_t *d = g->data;
        for (size_t i = 0; i < n; i++) d[i] = s[rows[i]];
    } else {
        for (size_t i = 0; i < n; i++) memcpy((char *)g->data + i * w, (const char *)c->data + rows[i] * w, w);
    }
    g->length = n;
    if (c->validity)
        for (size_t i = 0; i < n; i++)
            if (attu_column_is_null(c, rows[i])) {
                if (attu_column_ensure_validity(g, err)) { attu_column_free(g); return NULL; }
                attu_column_set_null(g, i, true);
            }
    g->dict = attu_dictionary_ref(c->dict);
    g->dict_unused = c->dict_unused;
    return g;
}

/* c without the rows gone[0..ngone) (ascending): the runs between them
 * copied whole, for a statement that removes few rows of many (a gather
 * through a list of every kept row would write and read that list too). */
static attu_column *drop_rows(const attu_column *c, const size_t *gone, size_t ngone, attu_error *err) {
    size_t m = c->length - ngone, w = attu_type_width(c->type.id);
    attu_column *g = attu_column_new(c->type, m ? m : 1, err);
    if (!g) return NULL;
    bool nulls = c->validity && attu_column_null_count(c) > 0;
    if (nulls && attu_column_ensure_validity(g, err)) { attu_column_free(g); return NULL; }
    size_t out = 0, from = 0;
    for (size_t i = 0; i <= ngone; i++) {
        size_t end = i < ngone ? gone[i] : c->length;   /* run [from, end) is kept */
        if (end > from) {
            memcpy((char *)g->data + out * w, (const char *)c->data + from * w, (end - from) * w);
            if (nulls)
                for (size_t r = from; r < end; r++)
                    if (attu_column_is_null(c, r)) attu_column_set_null(g, out + (r - from), true);
            out += end - from;
        }
        from = end + 1;
    }
    g->length = m;
    g->dict = attu_dictionary_ref(c->dict);
    g->dict_unused = c->dict_unused;
    return g;
}

attu_table *attu_table_keep_rows(const attu_table *t, const uint8_t *keep, attu_error *err) {
    size_t m = 0;
    for (size_t r = 0; r < t->nrows; r++) m += keep[r] != 0;
    /* few rows go: the kept runs are copied whole (drop_rows); else
     * every kept row is gathered by its number */
    bool few = t->nrows - m <= t->nrows / 64;
    size_t nlist = few ? t->nrows - m : m;
    size_t *rows = malloc(sizeof *rows * (nlist ? nlist : 1));
    if (!rows) return attu_error_oom(err), NULL;
    size_t nl = 0;
    for (size_t r = 0; r < t->nrows; r++) if ((keep[r] != 0) != few) rows[nl++] = r;
    attu_table *n = shell(t, m, err);
    for (int c = 0; n && c < t->ncols; c++) {
        n->cols[c] = few ? drop_rows(t->cols[c], rows, nlist, err) : attu_column_gather(t->cols[c], rows, m, err);
        if (!n->cols[c] || trim_dictionary(n->cols[c], t->nrows - m, err)) { attu_table_free(n); n = NULL; }
    }
    free(rows);
    /* rows kept from the first on are the same rows (values, not codes:
     * trim_dictionary renumbers them): what t's lineage says of its first
     * rows stays true of n's as far as nothing before them went (ON
     * CONFLICT DO NOTHING dropping proposed rows keeps the table's old
     * rows, so its commit can still write only the new ones) */
    size_t prefix = 0;
    while (prefix < t->nrows && keep[prefix]) prefix++;
    for (int k = 0; n && k < t->nlineage; k++)
        if (t->lineage[k].rows <= prefix) n->lineage[n->nlineage++] = t->lineage[k];
    return n;
}

/* Column old with rows rows[0..n) taking v's values at src[0..n) (a
 * copy); *bad: the i of a NULL refused by a NOT NULL column. */
static attu_column *update_column(const attu_table *t, int c, const size_t *rows, const int64_t *src, size_t n,
                                  const attu_column *v, size_t *bad, attu_error *err) {
    const attu_column *old = t->cols[c];
    attu_column *col = attu_column_clone(old, err);
    if (!col) return NULL;
    int32_t *newc = NULL;
    if (col->type.id == ATTU_TYPE_TEXT) {
        /* the strings of both in one dictionary: the old rows' codes are
         * renumbered into it, the new values looked up */
        int32_t nv = v->dict ? v->dict->count : 0, no = old->dict ? old->dict->count : 0;
        const char **strs = malloc(sizeof *strs * ((size_t)nv + 1));
        size_t *lens = malloc(sizeof *lens * ((size_t)nv + 1));
        int32_t *oldmap = malloc(sizeof *oldmap * ((size_t)no + 1));
        newc = malloc(sizeof *newc * ((size_t)nv + 1));
        attu_dictionary *d = NULL;
        if (strs && lens && oldmap && newc) {
            for (int32_t k = 0; k < nv; k++) strs[k] = attu_dictionary_get(v->dict, k, &lens[k]);
            d = old->dict ? attu_dictionary_merge(old->dict, strs, lens, (size_t)nv, oldmap, newc, err)
                          : attu_dictionary_build(strs, lens, (size_t)nv, newc, err);
        } else attu_error_oom(err);
        free(strs); free(lens);
        if (!d) { free(oldmap); free(newc); attu_column_free(col); return NULL; }
        int32_t *codes = col->data;
        if (old->dict)
            for (size_t r = 0; r < col->length; r++)
                if (!attu_column_is_null(col, r)) codes[r] = oldmap[codes[r]];
        free(oldmap);
        attu_dictionary_unref(col->dict);
        col->dict = d;
    }
    size_t w = attu_type_width(col->type.id);
    for (size_t i = 0; i < n; i++) {
        size_t r = rows[i], s = (size_t)src[i];
        if (attu_column_is_null(v, s)) {
            if (t->defs[c].not_null) {
                attu_error_set(err, ATTU_SQLSTATE_NOT_NULL_VIOLATION, 0,
                               "null value in column \"%s\" of relation \"%s\" violates not-null constraint",
                               t->defs[c].name, t->name);
                attu_error_set_object(err, t->name, t->defs[c].name, NULL);
                *bad = i;
                goto fail;
            }
            if (attu_column_ensure_validity(col, err)) goto fail;
            attu_column_set_null(col, r, true);
            continue;
        }
        if (newc) ((int32_t *)col->data)[r] = newc[((const int32_t *)v->data)[s]];
        else memcpy((char *)col->data + r * w, (const char *)v->data + s * w, w);
        if (col->validity) attu_column_set_null(col, r, false);
    }
    free(newc);
    if (trim_dictionary(col, n, err)) { attu_column_free(col); return NULL; }
    return col;
fail:
    free(newc);
    attu_column_free(col);
    return NULL;
}

/* PostgreSQL's DETAIL of a NOT NULL refusal: updated row i as it would
 * have been stored (its old values where no SET assigns) */
static void updated_row_detail(const attu_table *t, size_t row, int64_t s, int nset, const int *set_cols,
                               attu_column *const *values, attu_error *err) {
    const attu_column **cols = calloc((size_t)t->ncols + 1, sizeof *cols);
    size_t *at = calloc((size_t)t->ncols + 1, sizeof *at);
    char *d = NULL;
    if (cols && at) {
        for (int c = 0; c < t->ncols; c++) {
            cols[c] = t->cols[c];
            at[c] = row;
            for (int j = 0; j < nset; j++)
                if (set_cols[j] == c) { cols[c] = values[j]; at[c] = (size_t)s; }
        }
        d = attu_failing_row(cols, at, t->ncols);
    }
    if (d) attu_error_set_detail(err, "%s", d);
    free(d);
    free(cols);
    free(at);
}

attu_table *attu_table_update_at(const attu_table *t, const size_t *rows, const int64_t *src, size_t nrows, int nset,
                                 const int *set_cols, attu_column *const *values, attu_error *err) {
    attu_table *n = shell(t, t->nrows, err);
    for (int c = 0; n && c < t->ncols; c++) {
        int k = -1;
        for (int j = 0; j < nset; j++) if (set_cols[j] == c) k = j;
        size_t bad = (size_t)-1;
        n->cols[c] = k < 0 ? attu_column_clone(t->cols[c], err) : update_column(t, c, rows, src, nrows, values[k], &bad, err);
        if (!n->cols[c]) {
            if (bad != (size_t)-1) updated_row_detail(t, rows[bad], src[bad], nset, set_cols, values, err);
            attu_table_free(n);
            n = NULL;
        }
    }
    return n;
}

attu_table *attu_table_update_rows(const attu_table *t, const int64_t *src_row, int nset, const int *set_cols,
                                   attu_column *const *values, attu_error *err) {
    size_t m = 0;
    for (size_t r = 0; r < t->nrows; r++) m += src_row[r] >= 0;
    size_t *rows = malloc(sizeof *rows * (m ? m : 1));
    int64_t *src = malloc(sizeof *src * (m ? m : 1));
    attu_table *n = NULL;
    if (!rows || !src) attu_error_oom(err);
    else {
        m = 0;
        for (size_t r = 0; r < t->nrows; r++)
            if (src_row[r] >= 0) { rows[m] = r; src[m++] = src_row[r]; }
        n = attu_table_update_at(t, rows, src, m, nset, set_cols, values, err);
    }
    free(rows);
    free(src);
    return n;
}

attu_table *attu_table_truncated(const attu_table *t, attu_error *err) {
    attu_table *n = shell(t, 0, err);
    for (int c = 0; n && c < t->ncols; c++)
        if (!(n->cols[c] = attu_column_new(t->defs[c].type, 0, err))) { attu_table_free(n); n = NULL; }
    return n;
}
