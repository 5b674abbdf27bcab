/*
 * db_generated.c - stored generated columns: GENERATED ALWAYS AS (expr)
 * STORED.
 *
 * Such a column (attu_column_def.generated 's') keeps its expression where
 * a plain column keeps its DEFAULT: as SQL text in the catalog (and the
 * table's schema file), deparsed as PostgreSQL's pg_get_expr shows the
 * simple ones ("(a * 2)"). No statement writes it: INSERT, UPDATE, MERGE,
 * ON CONFLICT and COPY refuse a value other than DEFAULT (428C9, 42P10),
 * leave it NULL (db_column_default gives no DEFAULT for it), and then
 * db_generated_fill computes it over each new or changed row, before the
 * row's constraints are checked, as PostgreSQL's ExecComputeStoredGenerated
 * runs before ExecConstraints. Every UPDATE recomputes its rows'.
 *
 * The values come from one query over the rows in question, gathered into
 * a table of the table's name (as db_check.c's checks):
 *
 *     SELECT <rowid>, (e1), (e2), ... FROM t
 *
 * each expression assigned to its column's type as INSERT ... SELECT
 * assigns, so the values are exactly what the expression gives stored in
 * the column; an error of the expression (22012, 22003) fails the
 * statement, with no position (the text is the catalog's).
 *
 * At definition (CREATE TABLE, ALTER TABLE ... ADD COLUMN) the expression
 * is checked in PostgreSQL's order and words (cookDefault): a subquery
 * (0A000), an aggregate (42803), a window function (42P20), a reference
 * to a generated column, itself too (42P17 at the reference), a function
 * that is not immutable (42P17), then bound over the table, columns
 * unknown (42703) or of a type that does not assign (42804) failing at
 * their place in the statement.
 */
#include "db/db_internal.h"
#include "db/db_check.h"
#include "db/db_generated.h"
#include "db/db_unique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/strbuf.h"
#include "engine/table_rewrite.h"
#include "planner/binder.h"
#include "planner/lexer.h"

#define ROWID "\"" ATTU_ROWID_INTERNAL "\""

bool db_generated_any(const attu_table *t) {
    for (int c = 0; c < t->ncols; c++)
        if (t->defs[c].generated) return true;
    return false;
}

int db_generated_refuse(const attu_table *t, int col, bool update, attu_error *err) {
    const char *name = t->defs[col].name;
    if (update) attu_error_set(err, "428C9", 0, "column \"%s\" can only be updated to DEFAULT", name);
    else attu_error_set(err, "428C9", 0, "cannot insert a non-DEFAULT value into column \"%s\"", name);
    attu_error_set_detail(err, "Column \"%s\" is a generated column.", name);
    return -1;
}

/* characters (not bytes) of the UTF-8 text s */
static int chars(const char *s) {
    int n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) n += (*p & 0xC0) != 0x80;
    return n;
}

int db_generated_define(attu_session *s, attu_table *t, const char *name, attu_type type,
                        const attu_ast_column_def *cd, char **out, attu_result **values, attu_error *err) {
    *out = NULL;
    if (values) *values = NULL;
    bool mut = false;
    char *text = db_deparse_generated(cd->generated, &mut, err);
    if (!text) return -1;
    /* a reference to a generated column (this one among them) */
    for (int k = -1; k < t->ncols; k++) {
        const char *gn = k < 0 ? name : t->defs[k].name;
        if (k >= 0 && (!t->defs[k].generated || !strcmp(gn, name))) continue;
        int p = attu_sql_column_position(cd->generated_text, gn);
        if (!p) continue;
        free(text);
        attu_error_set(err, "42P17", cd->generated_position + p - 1,
                       "cannot use generated column \"%s\" in column generation expression", gn);
        attu_error_set_detail(err, "A generated column cannot reference another generated column.");
        return -1;
    }
    if (mut) {
        free(text);
        return attu_error_set(err, "42P17", 0, "generation expression is not immutable");
    }
    /* bound (and, for ALTER's rows, computed) as written, so that its
     * errors point into the statement */
    attu_strbuf b = { 0 };
    attu_strbuf_puts(&b, "SELECT (");
    int prefix = chars(b.p ? b.p : "");
    attu_strbuf_puts(&b, cd->generated_text);
    attu_strbuf_puts(&b, ") FROM ");
    attu_strbuf_quote_ident(&b, t->name);
    if (b.oom) { free(b.p); free(text); return attu_error_oom(err); }
    const char *names[1] = { name };
    attu_result *res = db_check_run_over_assigned(s, t, b.p, 1, &type, names, err);
    free(b.p);
    if (!res) {
        free(text);
        int p = err->position, len = chars(cd->generated_text);
        err->position = p > prefix && p <= prefix + len + 1 ? cd->generated_position + (p - prefix - 1) : 0;
        db_default_mismatch_message(err);   /* (cookDefault's words for both) */
        return -1;
    }
    if (values) *values = res;
    else attu_result_free(res);
    *out = text;
    return 0;
}

int db_generated_fill(attu_session *s, attu_table **tp, size_t first, const uint8_t *changed, attu_error *err) {
    attu_table *t = *tp;
    if (!db_generated_any(t)) return 0;
    /* the rows in question, gathered */
    size_t n = 0;
    if (changed) {
        for (size_t r = 0; r < t->nrows; r++) n += changed[r] != 0;
    } else n = first < t->nrows ? t->nrows - first : 0;
    if (!n) return 0;
    size_t *rows = malloc(sizeof *rows * n);
    int *set_cols = calloc((size_t)t->ncols + 1, sizeof *set_cols);
    attu_type *types = calloc((size_t)t->ncols + 2, sizeof *types);
    const char **names = calloc((size_t)t->ncols + 2, sizeof *names);
    int64_t *src = malloc(sizeof *src * (t->nrows + 1));
    attu_strbuf b = { 0 };
    attu_table *g = NULL, *nt = NULL;
    attu_result *res = NULL;
    int rc = -1;
    if (!rows || !set_cols || !types || !names || !src) { attu_error_oom(err); goto out; }
    size_t k = 0;
    for (size_t r = changed ? 0 : first; r < t->nrows; r++)
        if (!changed || changed[r]) rows[k++] = r;
    if (!(g = db_gather_rows(t, rows, n, t->name, err))) goto out;
    int nset = 0;
    types[0] = attu_type_make(ATTU_TYPE_INT64);
    names[0] = "rowid";
    attu_strbuf_puts(&b, "SELECT " ROWID);
    for (int c = 0; c < t->ncols; c++) {
        if (!t->defs[c].generated) continue;
        const char *e = attu_catalog_default(db_cat(s), t->name, c);
        attu_strbuf_puts(&b, ", (");
        attu_strbuf_puts(&b, e ? e : "NULL");
        attu_strbuf_puts(&b, ")");
        set_cols[nset] = c;
        types[nset + 1] = t->defs[c].type;
        names[nset + 1] = t->defs[c].name;
        nset++;
    }
    attu_strbuf_puts(&b, " FROM ");
    attu_strbuf_quote_ident(&b, t->name);
    if (b.oom) { attu_error_oom(err); goto out; }
    if (!(res = db_check_run_over_assigned(s, g, b.p, nset + 1, types, names, err))) { err->position = 0; goto out; }
    for (size_t r = 0; r < t->nrows; r++) src[r] = -1;
    for (size_t i = 0; i < res->nrows; i++) {
        int64_t id = ((const int64_t *)res->cols[0]->data)[i];
        if (id >= 0 && (size_t)id < n) src[rows[id]] = (int64_t)i;
    }
    if (!(nt = attu_table_update_rows(t, src, nset, set_cols, res->cols + 1, err))) goto out;
    /* (the rows kept their place: what the old version's lineage said of
     * its first rows no longer holds for the generated columns, so the
     * new version is written whole) */
    attu_table_free(t);
    *tp = nt;
    rc = 0;
out:
    free(b.p);
    attu_result_free(res);
    if (g) attu_table_free(g);
    free(rows); free(set_cols); free(types); free(names); free(src);
    return rc;
}

bool db_generated_uses(attu_session *s, const attu_table *t, int gcol, const char *col) {
    const char *e = attu_catalog_default(db_cat(s), t->name, gcol);
    if (!e || !t->defs[gcol].generated) return false;
    return attu_sql_column_position(e, col) > 0;
}
