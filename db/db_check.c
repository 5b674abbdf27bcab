/*
 * db_check.c - CHECK constraints: defining them, and checking a new
 * version of a table against them.
 *
 * A check is kept as the text of its expression (engine/check.h) and
 * evaluated by the executor, as a query over the rows in question, so it
 * runs on whichever backend the database uses and means what the same
 * expression means anywhere else. A statement's new or changed rows are
 * gathered into a table of the table's name and columns (the old rows
 * passed already), the candidate version stands in the catalog for the
 * table while the query runs (as db_unique.c's queries do), and one scan
 * evaluates every check:
 *
 *     SELECT min(CASE WHEN NOT (e1) THEN rowid END),
 *            min(CASE WHEN NOT (e2) THEN rowid END), ... FROM t
 *
 * (a NULL result passes, as in PostgreSQL). The row reported is the
 * first that fails any check, and the check the first by name that it
 * fails: PostgreSQL checks row by row, each row's checks in name order.
 *
 * At definition the expression is validated by a query of the same
 * shape, SELECT min(rowid) FROM t WHERE NOT (e), over the table being
 * made (empty) or altered (its rows: the result also says whether some
 * row violates it). The binder's words for WHERE become PostgreSQL's for
 * a check ("aggregate functions are not allowed in check constraints"),
 * positions move from the query to the statement's text, and a subquery,
 * which a WHERE allows, is found among the expression's tokens first.
 *
 * Names follow PostgreSQL's ChooseConstraintName: t_a_check when the
 * expression uses exactly one column (a column's CHECK or a table's),
 * else t_check, and t_a_check1, t_a_check2 ... past the names taken (the
 * table's constraints and the ones this statement chose).
 */
#include "db/db_internal.h"
#include "db/db_check.h"
#include "db/db_unique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db_domain_check.h"
#include "planner/binder.h"
#include "planner/lexer.h"
#include "engine/failing_row.h"
#include "engine/strbuf.h"
#include "engine/table_rewrite.h"

#define ROWID "\"" ATTU_ROWID_INTERNAL "\""

typedef attu_strbuf cbuf;   /* (engine/strbuf.h: an allocation failure sets oom) */
#define put(b, s) ((void)attu_strbuf_puts((b), (s)))
#define put_ident(b, name) ((void)attu_strbuf_quote_ident((b), (name)))

/* characters (not bytes) of the UTF-8 text s */
static int chars(const char *s) {
    int n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) n += (*p & 0xC0) != 0x80;
    return n;
}

void db_check_free(attu_check *c, int n) {
    for (int i = 0; c && i < n; i++) free(c[i].expr);
    free(c);
}

bool db_check_uses(const attu_check *c, const char *col) {
    int count = 0;
    attu_error e;
    attu_error_clear(&e);
    char *r = attu_sql_rename_column(c->expr, col, col, &count, &e);
    free(r);
    return count > 0;
}

int db_check_rename(attu_check *c, const char *from, const char *to, attu_error *err) {
    int count = 0;
    char *r = attu_sql_rename_column(c->expr, from, to, &count, err);
    if (!r) return -1;
    free(c->expr);
    c->expr = r;
    return 0;
}

/* Runs sql with t standing for the table of its name (added for the
 * query when the catalog has none: a table being made). */
attu_result *db_check_run_over(attu_session *s, attu_table *t, const char *sql, attu_error *err) {
    return db_check_run_over_assigned(s, t, sql, 0, NULL, NULL, err);
}

attu_result *db_check_run_over_assigned(attu_session *s, attu_table *t, const char *sql, int ncols,
                                        const attu_type *types, const char *const *names, attu_error *err) {
    attu_parse_result *pr = attu_parse(sql, err);
    if (!pr) return NULL;
    attu_result *res = NULL;
    const attu_ast_stmt *st = pr->n == 1 ? pr->stmts[0].stmt : NULL;
    if (!st || st->kind != ATTU_STMT_SELECT) {
        attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "check constraint query does not parse");
    } else {
        attu_table *old = attu_catalog_lookup(db_cat(s), t->name);
        bool added = false;
        if (old) {
            if (old != t) attu_catalog_replace(db_cat(s), t);
        } else if (attu_catalog_add(db_cat(s), t, err)) {
            attu_parse_free(pr);
            return NULL;
        } else added = true;
        res = types ? db_run_coerced(s, sql, st->u.select.query, ncols, types, names, err)
                    : db_run_query(s, sql, st->u.select.query, &db_own_query_params, err);
        if (added) attu_catalog_remove(db_cat(s), t->name, true, NULL);
        else if (old != t) attu_catalog_replace(db_cat(s), old);
    }
    attu_parse_free(pr);
    return res;
}

/* 0A000 for a subquery (a WHERE would take it), at PostgreSQL's
 * position (planner/subquery_scan.c). */
static int no_subquery(const attu_ast_unique_def *d, attu_error *err) {
    int pos = attu_sql_find_subquery(d->check_text);
    if (!pos) return 0;
    return attu_error_set(err, "0A000", d->check_position + pos - 1, "cannot use subquery in check constraint");
}

/* An error of the validation query in PostgreSQL's words for a check,
 * its position moved to the statement (prefix: the query's characters
 * before the expression's text). */
static void as_check_error(attu_error *err, const attu_ast_unique_def *d, int prefix) {
    static const struct { const char *from, *to; } words[] = {
        { " in WHERE", " in check constraints" },
        { "argument of NOT must", "argument of CHECK must" },
        { "argument of WHERE must", "argument of CHECK must" },
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        char *at = strstr(err->message, words[i].from);
        if (!at) continue;
        if (i > 0) {
            /* not boolean: PostgreSQL points at the expression's leftmost
             * token (past its opening parentheses and blanks) */
            int k = 0;
            const char *p = d->check_text;
            while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '(') { p++; k++; }
            err->position = prefix + 1 + k;
        }
        char msg[sizeof err->message];
        snprintf(msg, sizeof msg, "%.*s%s%s", (int)(at - err->message), err->message, words[i].to,
                 at + strlen(words[i].from));
        snprintf(err->message, sizeof err->message, "%s", msg);
        break;
    }
    int p = err->position;
    int len = chars(d->check_text);
    err->position = p > prefix && p <= prefix + len + 1 ? d->check_position + (p - prefix - 1) : 0;
}

/* PostgreSQL's makeObjectName (db_unique.c's) with a numbered label. */
static bool check_name_taken(const attu_catalog *cat, const attu_check *have, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (!strcmp(have[i].name, name)) return true;
    return attu_catalog_constraint_owner(cat, name, NULL) != NULL;
}

static void choose_name(const attu_catalog *cat, const attu_table *t, const attu_check *c, const attu_check *have,
                        int n, char *out) {
    const char *col = NULL;
    int used = 0;
    for (int i = 0; i < t->ncols; i++)
        if (db_check_uses(c, t->defs[i].name)) { used++; col = t->defs[i].name; }
    if (used != 1) col = NULL;
    char label[32];
    for (int pass = 0;; pass++) {
        if (pass) snprintf(label, sizeof label, "check%d", pass);
        else snprintf(label, sizeof label, "check");
        db_object_name(t->name, col, label, out);
        if (!check_name_taken(cat, have, n, out)) return;
    }
}

int db_check_define(attu_session *s, attu_table *t, const attu_ast_unique_def *const *ds, int n,
                    const attu_check *have, int nhave, bool alter, bool check_rows, attu_check **out, int *nout,
                    attu_error *err) {
    attu_check *all = calloc((size_t)(nhave + n) + 1, sizeof *all);
    if (!all) return attu_error_oom(err);
    int m = 0;
    for (int i = 0; i < nhave; i++) {
        all[m] = have[i];
        if (!(all[m].expr = strdup(have[i].expr))) { db_check_free(all, m); return attu_error_oom(err); }
        m++;
    }
    for (int i = 0; i < n; i++) {
        const attu_ast_unique_def *d = ds[i];
        if (no_subquery(d, err)) goto fail;
        attu_check *c = &all[m];
        if (!(c->expr = strdup(d->check_text))) { attu_error_oom(err); goto fail; }
        m++;
        if (d->name) {
            /* (a PRIMARY KEY / UNIQUE of the table has it: ALTER's 42710) */
            const attu_table *owner = alter ? attu_catalog_constraint_owner(db_cat(s), d->name, NULL) : NULL;
            bool taken = owner && !strcmp(owner->name, t->name);
            for (int k = 0; k < m - 1 && !taken; k++) taken = !strcmp(all[k].name, d->name);
            if (taken) {
                if (alter)
                    attu_error_set(err, "42710", 0, "constraint \"%s\" for relation \"%s\" already exists", d->name,
                                   t->name);
                else
                    attu_error_set(err, "42710", 0, "check constraint \"%s\" already exists", d->name);
                goto fail;
            }
            snprintf(c->name, sizeof c->name, "%s", d->name);
        } else choose_name(db_cat(s), t, c, all, m - 1, c->name);
        /* validated (and, over t's rows, checked) by a query */
        cbuf b = { 0 };
        put(&b, "SELECT min(" ROWID ") FROM ");
        put_ident(&b, t->name);
        put(&b, " WHERE NOT (\n");
        int prefix = chars(b.p ? b.p : "");
        put(&b, c->expr);
        put(&b, "\n)");
        if (b.oom) { free(b.p); attu_error_oom(err); goto fail; }
        attu_result *res = db_check_run_over(s, t, b.p, err);
        free(b.p);
        if (!res) { as_check_error(err, d, prefix); goto fail; }
        bool violated = res->nrows && !attu_column_is_null(res->cols[0], 0);
        attu_result_free(res);
        /* ALTER TABLE ... ADD ... NOT VALID: the rows there are stay
         * unchecked until VALIDATE CONSTRAINT (CREATE TABLE ignores it) */
        c->not_valid = alter && d->not_valid;
        if (violated && check_rows && !c->not_valid) {
            attu_error_set(err, "23514", 0, "check constraint \"%s\" of relation \"%s\" is violated by some row", c->name,
                           t->name);
            goto fail;
        }
    }
    *out = all;
    *nout = m;
    return 0;
fail:
    db_check_free(all, m);
    return -1;
}

/* "Failing row contains (1, x, null)." for row r of t
 * (engine/failing_row.h) */
static void put_row(cbuf *b, const attu_table *t, size_t r) {
    size_t *rows = malloc(sizeof *rows * ((size_t)t->ncols + 1));
    char *d = NULL;
    if (rows) {
        for (int c = 0; c < t->ncols; c++) rows[c] = r;
        d = attu_failing_row((const attu_column *const *)t->cols, rows, t->ncols);
    }
    free(rows);
    if (!d) { b->oom = true; return; }
    put(b, d);
    free(d);
}

int64_t db_check_first_failing(const attu_result *res, int n, int *which) {
    int64_t best = -1;
    *which = -1;
    for (int k = 0; k < n && res->nrows; k++) {
        if (attu_column_is_null(res->cols[k], 0)) continue;
        int64_t v = ((const int64_t *)res->cols[k]->data)[0];
        if (best < 0 || v < best) { best = v; *which = k; }
    }
    return best;
}

char *db_check_failing_row(const attu_table *t, size_t r) {
    cbuf d = { 0 };
    put_row(&d, t, r);
    if (d.oom) { free(d.p); return NULL; }
    return d.p;
}

typedef struct by_name { const attu_check *c; } by_name;

static int cmp_name(const void *a, const void *b) {
    return strcmp(((const by_name *)a)->c->name, ((const by_name *)b)->c->name);
}

/* The check of db_check_rows over cs[0..nc); existing: ALTER's message
 * for rows that were there (no DETAIL). */
static int check_rows(attu_session *s, attu_table *t, const attu_check *cs, int nc, size_t first,
                      const uint8_t *changed, bool existing, size_t *bad_row, attu_error *err) {
    if (!nc) return 0;
    /* the rows in question, gathered unless they are the whole table */
    size_t n = 0, *rows = NULL;
    if (changed) {
        for (size_t r = 0; r < t->nrows; r++) n += changed[r] != 0;
    } else n = first < t->nrows ? t->nrows - first : 0;
    if (!n) return 0;
    attu_table *g = t;
    if (changed || first > 0) {
        if (!(rows = malloc(sizeof *rows * n))) return attu_error_oom(err);
        size_t k = 0;
        for (size_t r = changed ? 0 : first; r < t->nrows; r++)
            if (!changed || changed[r]) rows[k++] = r;
        if (!(g = db_gather_rows(t, rows, n, t->name, err))) { free(rows); return -1; }
    }
    by_name *order = calloc((size_t)nc, sizeof *order);
    cbuf b = { 0 };
    int rc = -1;
    if (!order) { attu_error_oom(err); goto out; }
    for (int k = 0; k < nc; k++) order[k].c = &cs[k];
    qsort(order, (size_t)nc, sizeof *order, cmp_name);
    put(&b, "SELECT ");
    for (int k = 0; k < nc; k++) {
        if (k) put(&b, ", ");
        put(&b, "min(CASE WHEN NOT (\n");
        put(&b, order[k].c->expr);
        put(&b, "\n) THEN " ROWID " END)");
    }
    put(&b, " FROM ");
    put_ident(&b, t->name);
    if (b.oom) { attu_error_oom(err); goto out; }
    attu_result *res = db_check_run_over(s, g, b.p, err);
    if (!res) { err->position = 0; goto out; }
    int which = -1;
    int64_t best = db_check_first_failing(res, nc, &which);
    attu_result_free(res);
    rc = 0;
    if (best >= 0 && existing) {
        attu_error_set(err, "23514", 0, "check constraint \"%s\" of relation \"%s\" is violated by some row",
                       order[which].c->name, t->name);
        rc = -1;
    } else if (best >= 0) {
        if (bad_row) *bad_row = rows ? rows[best] : (size_t)best;
        cbuf d = { 0 };
        put_row(&d, g, (size_t)best);
        attu_error_set(err, "23514", 0, "new row for relation \"%s\" violates check constraint \"%s\"", t->name,
                       order[which].c->name);
        attu_error_set_row(err, rows ? rows[best] : (size_t)best);   /* (COPY's CONTEXT) */
        attu_error_set_object(err, t->name, NULL, order[which].c->name);
        if (!d.oom) attu_error_set_detail(err, "%s", d.p);
        free(d.p);
        rc = -1;
    }
out:
    free(b.p);
    free(order);
    if (g != t) attu_table_free(g);
    free(rows);
    return rc;
}

int db_check_rows(attu_session *s, attu_table *t, size_t first, const uint8_t *changed, attu_error *err) {
    /* the domains of its columns first: PostgreSQL checks a domain as it
     * makes the value, before the row's constraints */
    if (db_domain_check_rows(s, t, first, changed, err)) return -1;
    int nc = 0;
    const attu_check *cs = attu_catalog_checks(db_cat(s), t->name, &nc);
    return check_rows(s, t, cs, nc, first, changed, false, NULL, err);
}

int db_check_table(struct attu_session *s, attu_table *t, const attu_check *cs, int nc, attu_error *err) {
    return check_rows(s, t, cs, nc, 0, NULL, true, NULL, err);
}

int db_check_appended(struct attu_session *s, attu_table *t, size_t first, attu_error *err) {
    if (db_domain_check_rows(s, t, first, NULL, err)) return -1;
    int nc = 0, nu = 0;
    const attu_check *cs = attu_catalog_checks(db_cat(s), t->name, &nc);
    size_t bad = 0;
    if (!check_rows(s, t, cs, nc, first, NULL, false, &bad, err)) return db_unique_check(s, t, first, NULL, err);
    attu_catalog_uniques(db_cat(s), t->name, &nu);
    if (strcmp(err->sqlstate, "23514") || bad <= first || !nu) return -1;
    /* a key that the rows before the failing one repeat fails first:
     * PostgreSQL checks each row's CHECKs, then its keys, row by row */
    uint8_t *keep = malloc(t->nrows);
    if (!keep) return -1;
    for (size_t r = 0; r < t->nrows; r++) keep[r] = r < bad;
    attu_error e2;
    attu_error_clear(&e2);
    attu_table *head = attu_table_keep_rows(t, keep, &e2);
    free(keep);
    if (head && db_unique_check_immediate(s, head, first, NULL, &e2) && !strcmp(e2.sqlstate, "23505")) *err = e2;
    attu_table_free(head);
    return -1;
}
