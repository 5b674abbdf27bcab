/*
 * db_index.c - CREATE INDEX, DROP INDEX, ALTER INDEX and REINDEX, and
 * keeping indexes with their tables.
 *
 *     CREATE [UNIQUE] INDEX [CONCURRENTLY] [[IF NOT EXISTS] name] ON [ONLY] t
 *         [USING method] ({column | (expression) | f(...)} [COLLATE c] [opclass]
 *         [ASC | DESC] [NULLS {FIRST | LAST}], ...) [INCLUDE (columns)]
 *         [NULLS [NOT] DISTINCT] [WITH (parameter = value, ...)]
 *         [TABLESPACE pg_default] [WHERE predicate]
 *     DROP INDEX [CONCURRENTLY] [IF EXISTS] name, ... [CASCADE | RESTRICT]
 *     ALTER INDEX [IF EXISTS] name {RENAME TO new | SET TABLESPACE t |
 *         SET (parameter = value, ...) | RESET (parameter, ...)}
 *     REINDEX [(options)] {INDEX | TABLE} [CONCURRENTLY] name
 *
 * What an index is in attu: the GPU scans whole columns, so no plan reads
 * an index; it is a catalogued definition (engine/index.h, beside its
 * table in the catalog, in <data-dir>/attu.indexes), which pg_class,
 * pg_index, pg_indexes, pg_get_indexdef and psql's \d show as PostgreSQL
 * does. A UNIQUE index enforces its key: one over plain columns through
 * the PRIMARY KEY / UNIQUE machinery (db_unique.c), its key joining the
 * table's uniques with attu_unique.index set, so INSERT, COPY, UPDATE and
 * ON CONFLICT check it (and ON CONFLICT (cols) infers it as an arbiter)
 * with the key index the constraints use; one over expressions, partial
 * (WHERE) or NULLS NOT DISTINCT through a query over the table
 * (query_check below, which db_unique_check calls after the key sets).
 * REINDEX has nothing to rebuild.
 *
 * Errors follow PostgreSQL 15's order: the table (42P01, 42809 for a
 * view, sequence or index), the tablespace, the access method (42704,
 * and 0A000 for what it cannot do), the predicate and the expressions
 * (bound as a query over the table, which also evaluates them over its
 * rows as building the index would), the storage parameters (22023),
 * the columns (42703) with their collations and operator classes, then
 * the name (42P07, or the NOTICE of IF NOT EXISTS), then the rows of a
 * unique one (23505).
 *
 * The other statements keep indexes in step: an index goes with its table
 * (the catalog drops it; DROP TABLE rewrites the file, db_ddl.c) and with
 * a column it uses, follows RENAME COLUMN (its column numbers need
 * nothing, its expressions are rewritten: db_index_columns_changed,
 * called by ALTER TABLE) and RENAME TO of its table (db_alter.c moves
 * the list to the new name).
 */
#include "db/db_internal.h"
#include "db/db_fkey.h"
#include "db/db_index.h"
#include "db/db_unique.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/storage.h"
#include "engine/strbuf.h"
#include "engine/view.h"
#include "planner/lexer.h"

/* ---- saving -------------------------------------------------------------------------------- */

/* (the transaction's COMMIT writes the file: db_txn.c) */
int db_index_save(attu_session *s, attu_error *err) { return db_txn_touch_indexes(s, err); }

/* Puts the table's indexes ix[0..n) in the catalog, and its uniques with
 * the unique indexes' keys brought in line: those of indexes no longer
 * there leave, those of new ones join. */
static int put_indexes(attu_session *s, const char *table, const attu_index_def *ix, int n, attu_error *err) {
    int nu = 0;
    const attu_unique *us = attu_catalog_uniques(db_cat(s), table, &nu);
    attu_unique *keep = calloc((size_t)(nu + n) + 1, sizeof *keep);
    if (!keep) return attu_error_oom(err);
    int nk = 0;
    for (int k = 0; k < nu; k++)
        if (!us[k].index) keep[nk++] = us[k];
    for (int k = 0; k < n; k++) {
        attu_unique u;
        if (!attu_index_unique_key(&ix[k], &u)) continue;
        /* (kept in its place among the others when it was there) */
        keep[nk++] = u;
    }
    int rc = attu_catalog_set_indexes(db_cat(s), table, ix, n, err);
    if (!rc) rc = attu_catalog_set_uniques(db_cat(s), table, keep, nk, err);
    free(keep);
    return rc;
}

/* ---- names --------------------------------------------------------------------------------- */

/* PostgreSQL's FigureColname of an index expression (the name a key
 * gives to the index's name): a column's name, a function's, a cast's
 * argument's (else its type's), "case"; NULL (then "expr") otherwise. */
static const char *figure_name(const attu_ast_expr *e) {
    if (!e) return NULL;
    switch (e->kind) {
    case ATTU_EXPR_COLUMN: return e->u.column.name;
    case ATTU_EXPR_FUNC: return e->u.func.name[0] == ' ' ? NULL : e->u.func.name;
    case ATTU_EXPR_CAST: {
        const char *n = figure_name(e->u.cast.arg);
        return n ? n : e->u.cast.type.name;
    }
    case ATTU_EXPR_CASE: return "case";
    case ATTU_EXPR_EXTRACT: return "extract";
    default: return NULL;
    }
}

static bool name_taken(attu_session *s, const char *name) {
    return db_relation_exists(s, name) || attu_catalog_constraint_owner(db_cat(s), name, NULL) ||
           db_sequence_exists(s, name);
}

/* PostgreSQL's ChooseIndexColumnNames: each column's name in the index
 * (a column's own, an expression's figure_name or "expr"), a repeated
 * one numbered (a, a1, expr, expr1). names: ATTU_INDEX_MAX_KEYS of them. */
static void column_names(const attu_ast_stmt *st, char (*names)[ATTU_NAME_MAX + 1]) {
    const attu_ast_index_elem *el = st->u.create_index.elems;
    int ne = st->u.create_index.nelems, ni = st->u.create_index.include.n;
    for (int i = 0; i < ne + ni && i < ATTU_INDEX_MAX_KEYS; i++) {
        const char *orig = i < ne ? (el[i].column ? el[i].column : figure_name(el[i].expr))
                                  : st->u.create_index.include.items[i - ne];
        if (!orig) orig = "expr";
        snprintf(names[i], sizeof names[i], "%s", orig);
        for (int n = 1;; n++) {
            bool clash = false;
            for (int j = 0; j < i && !clash; j++) clash = !strcmp(names[j], names[i]);
            if (!clash) break;
            char num[16];
            int nl = snprintf(num, sizeof num, "%d", n);
            size_t keep = strlen(orig);
            if (keep > (size_t)(ATTU_NAME_MAX - nl)) keep = (size_t)(ATTU_NAME_MAX - nl);
            while (keep > 0 && ((unsigned char)orig[keep] & 0xC0) == 0x80) keep--;
            snprintf(names[i], sizeof names[i], "%.*s%s", (int)keep, orig, num);
        }
    }
}

/* PostgreSQL's ChooseIndexName: the table's name, the columns' names,
 * "_idx", cut to 63 bytes as makeObjectName cuts, then idx1, idx2, ...
 * while the name is taken. */
static void choose_name(attu_session *s, const attu_table *t, const attu_ast_stmt *st, char *out) {
    int n = st->u.create_index.nelems + st->u.create_index.include.n;
    char names[ATTU_INDEX_MAX_KEYS][ATTU_NAME_MAX + 1];
    column_names(st, names);
    char add[ATTU_NAME_MAX * 2 + 2] = "";
    size_t len = 0;
    for (int i = 0; i < n && i < ATTU_INDEX_MAX_KEYS; i++) {
        if (len >= ATTU_NAME_MAX) continue;
        if (len > 0) add[len++] = '_';
        size_t nl = strnlen(names[i], ATTU_NAME_MAX);
        if (nl > sizeof add - 1 - len) nl = sizeof add - 1 - len;
        memcpy(add + len, names[i], nl);
        len += nl;
        add[len] = 0;
    }
    add[len < ATTU_NAME_MAX ? len : ATTU_NAME_MAX] = 0;
    char label[32] = "idx";
    for (int pass = 1;; pass++) {
        db_object_name(t->name, add, label, out);
        if (!name_taken(s, out)) return;
        snprintf(label, sizeof label, "idx%d", pass);
    }
}

/* ---- checks -------------------------------------------------------------------------------- */

static const char *const methods[] = { "btree", "hash", "gist", "gin", "spgist", "brin" };

/* The default operator class of a column of type t for a method (its
 * name, which pg_get_indexdef leaves out), NULL when the type has none
 * (PostgreSQL's 42704 "has no default operator class"). */
static const char *default_opclass(attu_type t, const char *method) {
    uint32_t oid = attu_type_pg_oid(t);
    bool array = attu_type_is_array(t);
    if (attu_type_is_range(t))   /* (anyrange's classes: range_ops, brin's range_inclusion_ops; no gin) */
        return !strcmp(method, "gin") ? NULL : !strcmp(method, "brin") ? "range_inclusion_ops" : "range_ops";
    if (!strcmp(method, "gin")) return array ? "array_ops" : NULL;
    if (!strcmp(method, "gist")) return NULL;
    if (!strcmp(method, "spgist")) return oid == 25 || oid == 1043 ? "text_ops" : NULL;
    if (array) return !strcmp(method, "btree") || !strcmp(method, "hash") ? "array_ops" : NULL;
    if (attu_type_is_enum(t)) return !strcmp(method, "btree") || !strcmp(method, "hash") ? "enum_ops" : NULL;
    bool brin = !strcmp(method, "brin");
    switch (oid) {
    case 16: return brin ? NULL : "bool_ops";
    case 20: return brin ? "int8_minmax_ops" : "int8_ops";
    case 21: return brin ? "int2_minmax_ops" : "int2_ops";
    case 23: return brin ? "int4_minmax_ops" : "int4_ops";
    case 25: case 1043: return brin ? "text_minmax_ops" : "text_ops";
    case 1042: return brin ? "bpchar_minmax_ops" : "bpchar_ops";
    case 17: return brin ? "bytea_minmax_ops" : "bytea_ops";
    case 700: return brin ? "float4_minmax_ops" : "float4_ops";
    case 701: return brin ? "float8_minmax_ops" : "float8_ops";
    case 1700: return brin ? "numeric_minmax_ops" : "numeric_ops";
    case 1082: return brin ? "date_minmax_ops" : "date_ops";
    case 1114: return brin ? "timestamp_minmax_ops" : "timestamp_ops";
    case 1184: return brin ? "timestamptz_minmax_ops" : "timestamptz_ops";
    case 1083: return brin ? "time_minmax_ops" : "time_ops";
    case 1266: return brin ? "timetz_minmax_ops" : "timetz_ops";
    case 1186: return brin ? "interval_minmax_ops" : "interval_ops";
    case 2950: return brin ? "uuid_minmax_ops" : "uuid_ops";
    default: return NULL;
    }
}

/* The operator classes attu knows by name beyond the defaults: the text
 * types' pattern classes and varchar_ops (btree, hash). */
static bool opclass_fits(const char *name, attu_type t, const char *method) {
    uint32_t oid = attu_type_pg_oid(t);
    bool text = !attu_type_is_array(t) && (oid == 25 || oid == 1043 || oid == 1042);
    if (!strcmp(name, "text_pattern_ops") || !strcmp(name, "varchar_pattern_ops") || !strcmp(name, "varchar_ops"))
        return text && (!strcmp(method, "btree") || !strcmp(method, "hash")) && oid != 1042;
    if (!strcmp(name, "bpchar_pattern_ops")) return text && oid == 1042;
    return false;
}

static bool opclass_known(const char *name) {
    static const char *const known[] = {
        "bool_ops", "int2_ops", "int4_ops", "int8_ops", "text_ops", "bpchar_ops", "float4_ops", "float8_ops",
        "numeric_ops", "date_ops", "timestamp_ops", "timestamptz_ops", "time_ops", "timetz_ops", "interval_ops",
        "uuid_ops", "array_ops", "text_pattern_ops", "varchar_pattern_ops", "varchar_ops", "bpchar_pattern_ops",
    };
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (!strcmp(known[i], name)) return true;
    return false;
}

static bool collatable(attu_type t) {
    uint32_t oid = attu_type_pg_oid(t);
    return oid == 25 || oid == 1043 || oid == 1042;
}

/* The character count of s (positions are in characters). */
static int chars(const char *s) {
    int n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* Runs sql over t (in the catalog under its name), the text at char
 * `prefix` of sql being the statement's at char `at`: an error in it
 * moves there; one elsewhere loses its position. `what` names the
 * expression kind in messages ("index expressions", "index predicate"). */
static int run_part(attu_session *s, const char *sql, int prefix, const char *text, int at, bool predicate,
                    attu_error *err) {
    int sub = attu_sql_find_subquery(text);
    if (sub)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, at + sub - 1, "cannot use subquery in %s",
                              predicate ? "index predicate" : "index expression");
    attu_parse_result *pr = attu_parse(sql, err);
    if (!pr) goto moved;
    const attu_ast_stmt *st = pr->n == 1 ? pr->stmts[0].stmt : NULL;
    attu_result *res = NULL;
    if (!st || st->kind != ATTU_STMT_SELECT)
        attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "syntax error in index definition");
    else res = db_run_query(s, sql, st->u.select.query, &db_own_query_params, err);
    attu_parse_free(pr);
    if (res) { attu_result_free(res); return 0; }
moved:;
    /* PostgreSQL's words for what the SELECT calls WHERE / nesting */
    static const struct { const char *from, *to; } words[] = {
        { "aggregate functions are not allowed in WHERE", "aggregate functions are not allowed in index predicates" },
        { "window functions are not allowed in WHERE", "window functions are not allowed in index predicates" },
        { "aggregate function calls cannot be nested", "aggregate functions are not allowed in index expressions" },
        { "window functions are not allowed in aggregate", "window functions are not allowed in index expressions" },
        { "aggregate function calls cannot contain window function calls",
          "window functions are not allowed in index expressions" },
    };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (!strncmp(err->message, words[i].from, strlen(words[i].from))) {
            snprintf(err->message, sizeof err->message, "%s", words[i].to);
            break;
        }
    int p = err->position, len = chars(text);
    err->position = p > prefix && p <= prefix + len + 1 ? at + (p - prefix - 1) : 0;
    return -1;
}

/* The predicate and expressions, bound and evaluated over t's rows (as
 * building the index evaluates them: the expressions over the rows the
 * predicate keeps). */
static int check_exprs(attu_session *s, const attu_table *t, const attu_ast_stmt *st, attu_error *err) {
    const char *where = st->u.create_index.where_text;
    attu_strbuf b = { 0 };
    if (where) {
        attu_strbuf_puts(&b, "SELECT count(*) FROM ");
        attu_strbuf_quote_ident(&b, t->name);
        attu_strbuf_puts(&b, " WHERE (");
        int prefix = chars(b.p);
        attu_strbuf_puts(&b, where);
        attu_strbuf_puts(&b, "\n)");
        if (b.oom) { free(b.p); return attu_error_oom(err); }
        int rc = run_part(s, b.p, prefix, where, st->u.create_index.where_position, true, err);
        free(b.p);
        if (rc) return rc;
    }
    for (int i = 0; i < st->u.create_index.nelems; i++) {
        const attu_ast_index_elem *e = &st->u.create_index.elems[i];
        if (e->column) continue;
        memset(&b, 0, sizeof b);
        attu_strbuf_puts(&b, "SELECT count((");
        int prefix = chars(b.p);
        attu_strbuf_puts(&b, e->expr_text);
        attu_strbuf_puts(&b, "\n)) FROM ");
        attu_strbuf_quote_ident(&b, t->name);
        if (where) {
            attu_strbuf_puts(&b, " WHERE (");
            attu_strbuf_puts(&b, where);
            attu_strbuf_puts(&b, "\n)");
        }
        if (b.oom) { free(b.p); return attu_error_oom(err); }
        int rc = run_part(s, b.p, prefix, e->expr_text, e->position, false, err);
        free(b.p);
        if (rc) return rc;
    }
    return 0;
}

/* One storage parameter of a method: an integer in [lo, hi], or a
 * boolean (lo > hi), or buffering's on / off / auto (lo == hi == -1). */
typedef struct index_param { const char *method, *name; long lo, hi; } index_param;
static const index_param params[] = {
    { "btree", "fillfactor", 10, 100 }, { "btree", "deduplicate_items", 1, 0 },
    { "hash", "fillfactor", 10, 100 },
    { "gist", "fillfactor", 10, 100 }, { "gist", "buffering", -1, -1 },
    { "spgist", "fillfactor", 10, 100 },
    { "gin", "fastupdate", 1, 0 }, { "gin", "gin_pending_list_limit", 64, 2147483647L },
    { "brin", "pages_per_range", 1, 131072 }, { "brin", "autosummarize", 1, 0 },
};

static bool bool_word(const char *v) {
    static const char *const words[] = { "true", "false", "on", "off", "yes", "no", "1", "0", "t", "f", "y", "n" };
    char low[16];
    size_t n = strlen(v);
    if (n >= sizeof low) return false;
    for (size_t i = 0; i <= n; i++) low[i] = (char)tolower((unsigned char)v[i]);
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (!strcmp(words[i], low)) return true;
    return false;
}

/* PostgreSQL's flatten_reloptions: name=value, the value quoted unless
 * it reads back as a plain identifier. */
static void put_option(attu_strbuf *b, const char *name, const char *value) {
    if (b->n) attu_strbuf_puts(b, ", ");
    attu_strbuf_puts(b, name);
    attu_strbuf_puts(b, "=");
    bool plain = *value && ((*value >= 'a' && *value <= 'z') || *value == '_');
    for (const char *p = value; *p && plain; p++) plain = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_';
    if (plain && !attu_keyword_needs_quotes(value)) { attu_strbuf_puts(b, value); return; }
    attu_strbuf_puts(b, "'");
    for (const char *p = value; *p; p++) {
        if (*p == '\'') attu_strbuf_puts(b, "'");
        attu_strbuf_add(b, p, 1);
    }
    attu_strbuf_puts(b, "'");
}

/* Checks options[0..n) against the method's parameters and writes them
 * as pg_get_indexdef shows them into *out (malloc'd; NULL for none).
 * have: the index's options so far (ALTER INDEX SET merges into them);
 * reset: RESET removes the named ones. */
static int check_options(const char *method, const attu_ast_option *o, int n, const char *have, bool reset,
                         char **out, attu_error *err) {
    *out = NULL;
    /* the options as name/value pairs: those kept from before, then these */
    const char *names[64], *values[64];
    char *copy = have ? strdup(have) : NULL;
    int m = 0;
    if (have && !copy) return attu_error_oom(err);
    for (char *p = copy, *save = NULL, *tok = p ? strtok_r(p, ",", &save) : NULL; tok && m < 64;
         tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ') tok++;
        char *eq = strchr(tok, '=');
        if (!eq) continue;
        *eq = 0;
        char *v = eq + 1;
        if (*v == '\'') {   /* (unquote what put_option quoted) */
            char *w = v, *r = v + 1;
            for (; *r; r++) {
                if (*r == '\'' && r[1] == '\'') { *w++ = '\''; r++; }
                else if (*r == '\'') break;
                else *w++ = *r;
            }
            *w = 0;
        }
        names[m] = tok;
        values[m++] = v;
    }
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        const index_param *p = NULL;
        for (size_t k = 0; k < sizeof params / sizeof *params && !p; k++)
            if (!strcmp(params[k].method, method) && !strcmp(params[k].name, o[i].name)) p = &params[k];
        if (!p) { rc = attu_error_set(err, "22023", 0, "unrecognized parameter \"%s\"", o[i].name); break; }
        int at = -1;
        for (int k = 0; k < m && at < 0; k++) if (!strcmp(names[k], o[i].name)) at = k;
        if (reset) {
            if (at >= 0) {
                memmove(&names[at], &names[at + 1], sizeof *names * (size_t)(m - at - 1));
                memmove(&values[at], &values[at + 1], sizeof *values * (size_t)(m - at - 1));
                m--;
            }
            continue;
        }
        const char *v = o[i].value ? o[i].value : "true";
        if (p->lo > p->hi) {
            if (!bool_word(v))
                rc = attu_error_set(err, "22023", 0, "invalid value for boolean option \"%s\": %s", p->name, v);
        } else if (p->lo < 0) {
            if (strcmp(v, "on") && strcmp(v, "off") && strcmp(v, "auto"))
                rc = attu_error_set(err, "22023", 0, "invalid value for enum option \"%s\": %s", p->name, v);
        } else {
            char *end = NULL;
            long x = strtol(v, &end, 10);
            if (!*v || *end)
                rc = attu_error_set(err, "22023", 0, "invalid value for integer option \"%s\": %s", p->name, v);
            else if (x < p->lo || x > p->hi) {
                rc = attu_error_set(err, "22023", 0, "value %s out of bounds for option \"%s\"", v, p->name);
                attu_error_set_detail(err, "Valid values are between \"%ld\" and \"%ld\".", p->lo, p->hi);
            }
        }
        if (rc) break;
        /* (a name set again moves to the end, as PostgreSQL appends it) */
        if (at >= 0) {
            memmove(&names[at], &names[at + 1], sizeof *names * (size_t)(m - at - 1));
            memmove(&values[at], &values[at + 1], sizeof *values * (size_t)(m - at - 1));
            m--;
        }
        if (m < 64) { names[m] = o[i].name; values[m++] = v; }
    }
    if (!rc && m) {
        attu_strbuf b = { 0 };
        for (int k = 0; k < m; k++) put_option(&b, names[k], values[k]);
        if (b.oom) { free(b.p); rc = attu_error_oom(err); }
        else *out = b.p;
    }
    free(copy);
    return rc;
}

/* The index's definition from the statement; columns, collations and
 * operator classes checked. */
static int define(const attu_table *t, const attu_ast_stmt *st, const char *method, attu_index_def *ix,
                  attu_error *err) {
    int ne = st->u.create_index.nelems, ni = st->u.create_index.include.n;
    if (ne + ni > ATTU_INDEX_MAX_KEYS)
        return attu_error_set(err, "54011", 0, "cannot use more than %d columns in an index", ATTU_INDEX_MAX_KEYS);
    ix->nkeys = ne;
    ix->ncols = ne + ni;
    char names[ATTU_INDEX_MAX_KEYS][ATTU_NAME_MAX + 1];
    column_names(st, names);
    for (int i = 0; i < ne + ni; i++) {
        const attu_ast_index_elem *e = i < ne ? &st->u.create_index.elems[i] : NULL;
        const char *col = e ? e->column : st->u.create_index.include.items[i - ne];
        /* (a parenthesized column is the column) */
        if (e && !col && e->expr && e->expr->kind == ATTU_EXPR_COLUMN && !e->expr->u.column.qualifier)
            col = e->expr->u.column.name;
        if (col) {
            int c = attu_table_find_column(t, col);
            if (c < 0) return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, 0, "column \"%s\" does not exist", col);
            ix->cols[i] = c;
        } else {
            ix->cols[i] = -1;
            if (!(ix->expr[i] = strdup(e->expr_text)) || !(ix->names[i] = strdup(names[i]))) return attu_error_oom(err);
            /* (a function call prints as written; anything else in the
             * parentheses PostgreSQL's deparser puts around it) */
            if (!e->expr_call) {
                size_t n = strlen(e->expr_text) + 3;
                char *w = malloc(n);
                if (!w) return attu_error_oom(err);
                snprintf(w, n, "(%s)", e->expr_text);
                free(ix->expr[i]);
                ix->expr[i] = w;
            }
        }
        if (!e) continue;
        attu_type type = ix->cols[i] >= 0 ? t->defs[ix->cols[i]].type : attu_type_make(ATTU_TYPE_UNKNOWN);
        attu_strbuf sfx = { 0 };
        if (e->collation) {
            if (strcmp(e->collation, "default") && strcmp(e->collation, "C") && strcmp(e->collation, "POSIX"))
                return attu_error_set(err, "42704", 0, "collation \"%s\" for encoding \"UTF8\" does not exist",
                                      e->collation);
            if (ix->cols[i] >= 0 && !collatable(type)) {
                char tn[64];
                return attu_error_set(err, "42804", 0, "collations are not supported by type %s",
                                      attu_type_name(type, tn, sizeof tn));
            }
            if (strcmp(e->collation, "default")) {
                attu_strbuf_puts(&sfx, " COLLATE \"");
                attu_strbuf_puts(&sfx, e->collation);
                attu_strbuf_puts(&sfx, "\"");
            }
        }
        const char *dflt = ix->cols[i] >= 0 ? default_opclass(type, method) : NULL;
        if (e->opclass) {
            if (!opclass_known(e->opclass)) {
                free(sfx.p);
                return attu_error_set(err, "42704", 0, "operator class \"%s\" does not exist for access method \"%s\"",
                                      e->opclass, method);
            }
            if (ix->cols[i] >= 0 && !(dflt && !strcmp(dflt, e->opclass)) && !opclass_fits(e->opclass, type, method)) {
                char tn[64];
                free(sfx.p);
                return attu_error_set(err, "42804", 0, "operator class \"%s\" does not accept data type %s", e->opclass,
                                      attu_type_name(type, tn, sizeof tn));
            }
            if (!dflt || strcmp(dflt, e->opclass)) {
                attu_strbuf_puts(&sfx, " ");
                attu_strbuf_puts(&sfx, e->opclass);
            }
        } else if (ix->cols[i] >= 0 && !dflt) {
            char tn[64];
            attu_error_set(err, "42704", 0, "data type %s has no default operator class for access method \"%s\"",
                           attu_type_name(type, tn, sizeof tn), method);
            attu_error_set_hint(err, "You must specify an operator class for the index or define a default operator class for the data type.");
            free(sfx.p);
            return -1;
        }
        if (sfx.oom) { free(sfx.p); return attu_error_oom(err); }
        ix->suffix[i] = sfx.p;
        ix->order[i] = (unsigned char)((e->desc ? ATTU_INDEX_DESC : 0) |
                                       (e->nulls == ATTU_NULLS_FIRST ? ATTU_INDEX_NULLS_FIRST : 0) |
                                       (e->nulls == ATTU_NULLS_LAST ? ATTU_INDEX_NULLS_LAST : 0));
    }
    return 0;
}

/* ---- unique indexes the key sets cannot check ------------------------------------------------ */

/* A unique index over expressions, partial (WHERE) or NULLS NOT DISTINCT
 * is checked by a query over the statement's candidate table (the
 * catalog's version of the table replaced by it while the query runs):
 *
 *     SELECT r, g, k0, ... FROM (SELECT x.rowid AS r,
 *                                       min(x.rowid) OVER (PARTITION BY e0, ...) AS g,
 *                                       count(*) OVER (PARTITION BY e0, ...) AS n,
 *                                       CAST((e0) AS text) AS k0, ...
 *                                FROM t AS x WHERE (predicate) AND (e0) IS NOT NULL ...) s
 *     WHERE n > 1
 *
 * (no IS NOT NULL for NULLS NOT DISTINCT, whose NULLs are one key, as
 * PARTITION BY groups them). A whole-table pass per statement, where the
 * key sets of plain keys cost only the statement's rows: the price of
 * these forms. As the key sets' check, the row reported is the first
 * PostgreSQL's row-by-row check would stop at: per key, the rows that did
 * not change first, then the changed or new ones in row order; the
 * second of them fails; the earliest such row. */

#define ROWID "\"" ATTU_ROWID_INTERNAL "\""

/* e_k of the query: a key column (quoted) or an expression's text */
static void put_key_expr(attu_strbuf *b, const attu_table *t, const attu_index_def *ix, int k) {
    if (ix->cols[k] >= 0) {
        attu_strbuf_puts(b, "x.");
        attu_strbuf_quote_ident(b, t->defs[ix->cols[k]].name);
    } else {
        attu_strbuf_puts(b, "(");
        attu_strbuf_puts(b, ix->expr[k]);
        attu_strbuf_puts(b, "\n)");
    }
}

static void put_partition(attu_strbuf *b, const attu_table *t, const attu_index_def *ix) {
    attu_strbuf_puts(b, " OVER (PARTITION BY ");
    for (int k = 0; k < ix->nkeys; k++) {
        if (k) attu_strbuf_puts(b, ", ");
        put_key_expr(b, t, ix, k);
    }
    attu_strbuf_puts(b, ")");
}

/* Runs sql with t standing for the table of its name. */
static attu_result *run_over(attu_session *s, attu_table *t, const char *sql, attu_error *err) {
    attu_parse_result *pr = attu_parse(sql, err);
    if (!pr) return NULL;
    attu_result *res = NULL;
    const attu_ast_stmt *st = pr->n == 1 ? pr->stmts[0].stmt : NULL;
    if (!st || st->kind != ATTU_STMT_SELECT)
        attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "unique index check query does not parse");
    else {
        attu_table *old = attu_catalog_lookup(db_cat(s), t->name);
        if (old && old != t) attu_catalog_replace(db_cat(s), t);
        res = db_run_query(s, sql, st->u.select.query, &db_own_query_params, err);
        if (old && old != t) attu_catalog_replace(db_cat(s), old);
    }
    attu_parse_free(pr);
    if (err->set) err->position = 0;   /* (positions are in our text, not the user's) */
    return res;
}

typedef struct dup_row { int64_t group, order, row; size_t at; } dup_row;

static int by_group_order(const void *a, const void *b) {
    const dup_row *x = a, *y = b;
    if (x->group != y->group) return x->group < y->group ? -1 : 1;
    if (x->order != y->order) return x->order < y->order ? -1 : 1;
    return 0;
}

/* "Key (lower(b))=(x)": the DETAIL's key of result row i (its key texts
 * in columns 2...), the columns as pg_get_indexdef's pretty form names
 * them, NULL as null. */
static void put_key(attu_strbuf *b, const attu_table *t, const attu_index_def *ix, const attu_result *res, size_t i) {
    attu_strbuf_puts(b, "Key (");
    for (int k = 0; k < ix->nkeys; k++) {
        if (k) attu_strbuf_puts(b, ", ");
        if (ix->cols[k] >= 0) {
            char q[2 * ATTU_NAME_MAX + 4];
            attu_strbuf_puts(b, db_quote_ident(t->defs[ix->cols[k]].name, q, sizeof q));
        } else attu_strbuf_puts(b, ix->expr[k]);
    }
    attu_strbuf_puts(b, ")=(");
    for (int k = 0; k < ix->nkeys; k++) {
        if (k) attu_strbuf_puts(b, ", ");
        char buf[256];
        const char *lng = NULL;
        size_t len = attu_column_format(res->cols[2 + k], i, buf, sizeof buf - 1, &lng);
        if (len == (size_t)-1) attu_strbuf_puts(b, "null");
        else if (lng) attu_strbuf_add(b, lng, strnlen(lng, len));
        else attu_strbuf_add(b, buf, len < sizeof buf ? len : sizeof buf - 1);
    }
    attu_strbuf_puts(b, ")");
}

/* Checks ix over t: building (CREATE: the first duplicated key, 23505
 * "could not create unique index"), else the rows >= first or those with
 * changed[r] against the others (23505 "duplicate key value"). */
static int query_check(attu_session *s, attu_table *t, const attu_index_def *ix, size_t first, const uint8_t *changed,
                       bool building, attu_error *err) {
    attu_strbuf b = { 0 };
    attu_strbuf_puts(&b, "SELECT r, g");
    for (int k = 0; k < ix->nkeys; k++) attu_strbuf_printf(&b, ", k%d", k);
    attu_strbuf_puts(&b, " FROM (SELECT x." ROWID " AS r, min(x." ROWID ")");
    put_partition(&b, t, ix);
    attu_strbuf_puts(&b, " AS g, count(*)");
    put_partition(&b, t, ix);
    attu_strbuf_puts(&b, " AS n");
    for (int k = 0; k < ix->nkeys; k++) {
        attu_strbuf_puts(&b, ", CAST(");
        put_key_expr(&b, t, ix, k);
        attu_strbuf_printf(&b, " AS text) AS k%d", k);
    }
    attu_strbuf_puts(&b, " FROM ");
    attu_strbuf_quote_ident(&b, t->name);
    attu_strbuf_puts(&b, " AS x WHERE true");
    if (ix->where) {
        attu_strbuf_puts(&b, " AND (");
        attu_strbuf_puts(&b, ix->where);
        attu_strbuf_puts(&b, "\n)");
    }
    for (int k = 0; k < ix->nkeys && !ix->nulls_not_distinct; k++) {
        attu_strbuf_puts(&b, " AND ");
        put_key_expr(&b, t, ix, k);
        attu_strbuf_puts(&b, " IS NOT NULL");
    }
    attu_strbuf_puts(&b, ") s WHERE n > 1");
    if (b.oom) { free(b.p); return attu_error_oom(err); }
    attu_result *res = run_over(s, t, b.p, err);
    free(b.p);
    if (!res) return -1;
    size_t n = res->nrows;
    if (!n) { attu_result_free(res); return 0; }
    const int64_t *rows = res->cols[0]->data, *groups = res->cols[1]->data;
    dup_row *d = malloc(sizeof *d * n);
    if (!d) { attu_result_free(res); return attu_error_oom(err); }
    for (size_t i = 0; i < n; i++) {
        bool ch = building || (changed ? changed[rows[i]] != 0 : (size_t)rows[i] >= first);
        d[i] = (dup_row){ groups[i], ch ? rows[i] : -1, rows[i], i };
    }
    qsort(d, n, sizeof *d, by_group_order);
    int64_t best = -1;
    size_t at = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        if (i > 0 && d[i - 1].group == d[i].group) continue;   /* (not the first of its key) */
        if (d[i + 1].group != d[i].group || d[i + 1].order < 0) continue;
        /* building: the key met first (its group's smallest row) */
        int64_t key = building ? d[i].group : d[i + 1].row;
        if (best < 0 || key < best) { best = key; at = d[i + 1].at; }
    }
    free(d);
    int rc = 0;
    if (best >= 0) {
        attu_strbuf m = { 0 };
        put_key(&m, t, ix, res, at);
        attu_strbuf_puts(&m, building ? " is duplicated." : " already exists.");
        if (building) attu_error_set(err, "23505", 0, "could not create unique index \"%s\"", ix->name);
        else attu_error_set(err, "23505", 0, "duplicate key value violates unique constraint \"%s\"", ix->name);
        attu_error_set_object(err, t->name, NULL, ix->name);
        if (!m.oom) attu_error_set_detail(err, "%s", m.p);
        free(m.p);
        rc = -1;
    }
    attu_result_free(res);
    return rc;
}

int db_index_check_rows(attu_session *s, attu_table *t, size_t first, const uint8_t *changed, attu_error *err) {
    int n = 0;
    const attu_index_def *ix = attu_catalog_indexes(db_cat(s), t->name, &n);
    if (!n || (!changed && first >= t->nrows)) return 0;
    for (int k = 0; k < n; k++) {
        attu_unique u;
        if (!ix[k].unique || attu_index_unique_key(&ix[k], &u)) continue;   /* (the key sets' own) */
        if (query_check(s, t, &ix[k], first, changed, false, err)) return -1;
    }
    return 0;
}

/* 42809 for a relation CREATE INDEX cannot index; 42P01 for none. */
static int not_indexable(attu_session *s, const attu_ast_stmt *st, attu_error *err) {
    const char *name = st->u.create_index.table;
    const attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), name);
    const char *what = v ? "views" : db_sequence_exists(s, name) ? "sequences" : NULL;
    if (!what) return db_no_such_table(s, name, 0, err);   /* (an index: 42809 "is an index") */
    attu_error_set(err, "42809", 0, "cannot create index on relation \"%s\"", name);
    attu_error_set_detail(err, "This operation is not supported for %s.", what);
    return -1;
}

static int create_index(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, bool *skipped,
                        attu_error *err) {
    const char *tname = st->u.create_index.table;
    attu_table *t = attu_catalog_lookup(db_cat(s), tname);
    const attu_view *mv = attu_views_find(attu_catalog_views(db_cat(s)), tname);
    if (!t || (mv && mv->kind != 'm')) {
        if (!t && !mv && !db_sequence_exists(s, tname) && !attu_catalog_constraint_owner(db_cat(s), tname, NULL))
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0, "relation \"%s\" does not exist", tname);
        return not_indexable(s, st, err);
    }
    if (mv && st->u.create_index.unique)   /* (REFRESH would have to check it) */
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "unique indexes on materialized views are not supported");
    if (t->unavailable) return attu_error_set(err, "XX001", 0, "table \"%s\" is unavailable", tname);
    /* (its rows' deferred checks would meet a table that changed under them) */
    if (db_defer_in_use(s, tname, "CREATE INDEX", err)) return -1;
    if (st->u.create_index.tablespace && strcmp(st->u.create_index.tablespace, "pg_default"))
        return attu_error_set(err, "42704", 0, "tablespace \"%s\" does not exist", st->u.create_index.tablespace);
    const char *method = st->u.create_index.method ? st->u.create_index.method : "btree";
    bool known = false;
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++) known |= !strcmp(methods[i], method);
    if (!known) return attu_error_set(err, "42704", 0, "access method \"%s\" does not exist", method);
    bool btree = !strcmp(method, "btree");
    if (st->u.create_index.unique && !btree)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "access method \"%s\" does not support unique indexes",
                              method);
    if (st->u.create_index.include.n && !btree && strcmp(method, "gist") && strcmp(method, "spgist"))
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "access method \"%s\" does not support included columns", method);
    if (st->u.create_index.nelems > 1 && (!strcmp(method, "hash") || !strcmp(method, "spgist")))
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "access method \"%s\" does not support multicolumn indexes", method);
    if (check_exprs(s, t, st, err)) return -1;
    attu_index_def ix;
    memset(&ix, 0, sizeof ix);
    snprintf(ix.method, sizeof ix.method, "%s", method);
    ix.unique = st->u.create_index.unique;
    ix.nulls_not_distinct = st->u.create_index.nulls_not_distinct;
    int rc = check_options(method, st->u.create_index.options, st->u.create_index.noptions, NULL, false, &ix.options, err);
    if (!rc) rc = define(t, st, method, &ix, err);
    if (!rc) {
        for (int i = 0; i < st->u.create_index.nelems && !rc; i++) {
            const attu_ast_index_elem *e = &st->u.create_index.elems[i];
            if ((e->desc || e->nulls) && !btree)
                rc = attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                                    "access method \"%s\" does not support ASC/DESC options", method);
        }
    }
    if (!rc && st->u.create_index.where && !(ix.where = strdup(st->u.create_index.where_text))) rc = attu_error_oom(err);
    if (rc) { attu_index_clear(&ix); return -1; }
    if (st->u.create_index.name) {
        if (name_taken(s, st->u.create_index.name)) {
            attu_index_clear(&ix);
            if (st->u.create_index.if_not_exists) {
                if (cb && cb->on_notice) {
                    char msg[160];
                    snprintf(msg, sizeof msg, "relation \"%s\" already exists, skipping", st->u.create_index.name);
                    cb->on_notice(cb->ctx, "00000", msg);
                }
                *skipped = true;
                return 0;
            }
            return attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0, "relation \"%s\" already exists",
                                  st->u.create_index.name);
        }
        snprintf(ix.name, sizeof ix.name, "%s", st->u.create_index.name);
    } else choose_name(s, t, st, ix.name);
    /* a unique one: the rows there must be unique already */
    attu_unique u;
    if (ix.unique &&
        (attu_index_unique_key(&ix, &u) ? db_unique_check_index(s, t, &u, 1, err) : query_check(s, t, &ix, 0, NULL, true, err))) {
        attu_index_clear(&ix);
        return -1;
    }
    int n = 0;
    const attu_index_def *have = attu_catalog_indexes(db_cat(s), tname, &n);
    attu_index_def *all = calloc((size_t)n + 1, sizeof *all);
    if (!all) { attu_index_clear(&ix); return attu_error_oom(err); }
    if (n) memcpy(all, have, sizeof *all * (size_t)n);   /* (put_indexes copies them) */
    all[n] = ix;
    /* the old list, to put back should the file not be written */
    attu_index_def *old = calloc((size_t)n + 1, sizeof *old);
    int nold = 0;
    for (int k = 0; old && k < n; k++, nold++)
        if (attu_index_copy(&old[k], &have[k])) { rc = attu_error_oom(err); break; }
    if (!old) rc = attu_error_oom(err);
    if (!rc) rc = put_indexes(s, tname, all, n + 1, err);
    if (!rc && db_index_save(s, err)) {
        put_indexes(s, tname, old, nold, NULL);
        rc = -1;
    }
    for (int k = 0; k < nold; k++) attu_index_clear(&old[k]);
    free(old);
    free(all);
    attu_index_clear(&ix);
    return rc;
}

int db_index_create_locked(attu_session *s, const attu_ast_stmt *st, attu_error *err) {
    bool skipped = false;
    return create_index(s, st, NULL, &skipped, err);
}

int db_exec_create_index(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    db_write_lock(s);
    bool skipped = false;
    int rc = create_index(s, st, cb, &skipped, err);
    pthread_rwlock_unlock(&s->db->lock);
    if (rc) return rc;
    return db_deliver_tag(cb, "CREATE INDEX", err) ? -2 : 0;
}

/* ---- DROP INDEX ---------------------------------------------------------------------------- */

/* Removes index `which` of table (its unique key too); the file is the
 * caller's to write. */
static int remove_index(attu_session *s, const char *table, int which, attu_error *err) {
    int n = 0;
    const attu_index_def *have = attu_catalog_indexes(db_cat(s), table, &n);
    attu_index_def *keep = calloc((size_t)n + 1, sizeof *keep);
    if (!keep) return attu_error_oom(err);
    int m = 0;
    for (int k = 0; k < n; k++) if (k != which) keep[m++] = have[k];
    char name[ATTU_NAME_MAX + 1];
    snprintf(name, sizeof name, "%s", have[which].name);
    int rc = put_indexes(s, table, keep, m, err);
    free(keep);
    if (!rc) db_comments_dropped(s, name);
    return rc;
}

/* The foreign keys that depend on the unique index named name of table
 * (as PostgreSQL's depend on the index they were made over: here, a
 * unique index whose columns no other key of the table has): the first
 * one's owner and name in *owner / *fk, and how many (0: none). */
static int fkey_users(attu_session *s, const char *table, const char *name, const char **owner, const char **fk) {
    int nu = 0, which = -1;
    const attu_unique *us = attu_catalog_uniques(db_cat(s), table, &nu);
    for (int k = 0; k < nu; k++) if (!strcmp(us[k].name, name)) which = k;
    if (which < 0) return 0;
    for (int k = 0; k < nu; k++) {
        if (k == which || us[k].ncols != us[which].ncols) continue;
        bool same = true;
        for (int q = 0; q < us[k].ncols && same; q++) {
            bool in = false;
            for (int r = 0; r < us[k].ncols; r++) in |= us[k].cols[q] == us[which].cols[r];
            same = in;
        }
        if (same) return 0;   /* (another key serves them) */
    }
    int n = 0;
    for (size_t j = 0; j < attu_catalog_count(db_cat(s)); j++) {
        const attu_table *c = attu_catalog_at(db_cat(s), j);
        int nf = 0;
        const attu_fkey *fs = attu_catalog_fkeys(db_cat(s), c->name, &nf);
        for (int k = 0; k < nf; k++)
            if (db_fkey_on_key(&fs[k], table, &us[which]) && !n++) { *owner = c->name; *fk = fs[k].name; }
    }
    return n;
}

/* 2BP01 / 42809 / 42704 for a name DROP INDEX cannot drop; 1 when it is
 * missing and IF EXISTS was written (a NOTICE), 0 when it is an index. */
static int drop_check(attu_session *s, const attu_ast_stmt *st, int i, attu_error *err) {
    const char *name = st->u.drop_table.tables.items[i];
    int which = 0;
    const attu_table *owner = attu_catalog_constraint_owner(db_cat(s), name, &which);
    if (owner && which >= 0) {
        int nu = 0;
        const attu_unique *u = attu_catalog_uniques(db_cat(s), owner->name, &nu);
        if (!u[which].index) {
            attu_error_set(err, "2BP01", 0, "cannot drop index %s because constraint %s on table %s requires it", name,
                           name, owner->name);
            char hint[2 * ATTU_NAME_MAX + 64];
            snprintf(hint, sizeof hint, "You can drop constraint %s on table %s instead.", name, owner->name);
            attu_error_set_hint(err, hint);
            return -1;
        }
    }
    const char *fk_owner = NULL, *fk = NULL;
    if (owner && !st->u.drop_table.cascade && fkey_users(s, owner->name, name, &fk_owner, &fk)) {
        attu_error_set(err, "2BP01", 0, "cannot drop index %s because other objects depend on it", name);
        attu_error_set_detail(err, "constraint %s on table %s depends on index %s", fk, fk_owner, name);
        attu_error_set_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
        return -1;
    }
    if (owner) return 0;
    if (db_relation_exists(s, name) || db_sequence_exists(s, name)) {
        attu_error_set(err, "42809", 0, "\"%s\" is not an index", name);
        const attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), name);
        attu_error_set_hint(err, v ? (v->kind == 'm' ? "Use DROP MATERIALIZED VIEW to remove a materialized view."
                                                           : "Use DROP VIEW to remove a view.")
                                     : attu_catalog_lookup(db_cat(s), name) ? "Use DROP TABLE to remove a table."
                                     : "Use DROP SEQUENCE to remove a sequence.");
        return -1;
    }
    if (st->u.drop_table.if_exists) return 1;
    return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "index \"%s\" does not exist", name);
}

int db_exec_drop_index(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    db_write_lock(s);
    int rc = 0;
    /* check all first: DROP INDEX a, b drops neither if b is missing */
    for (int i = 0; i < st->u.drop_table.tables.n && !rc; i++)
        if (drop_check(s, st, i, err) < 0) rc = -1;
    bool changed = false;
    for (int i = 0; i < st->u.drop_table.tables.n && !rc; i++) {
        const char *name = st->u.drop_table.tables.items[i];
        int which = -1;
        attu_table *t = attu_catalog_index_owner(db_cat(s), name, &which);
        if (!t) {
            if (cb && cb->on_notice) {
                char msg[160];
                snprintf(msg, sizeof msg, "index \"%s\" does not exist, skipping", name);
                cb->on_notice(cb->ctx, "00000", msg);
            }
            continue;
        }
        /* CASCADE: the foreign keys over it go first */
        const char *fk_owner = NULL, *fk = NULL;
        int nfk = fkey_users(s, t->name, name, &fk_owner, &fk);
        if (nfk && cb && cb->on_notice) {
            char msg[200];
            if (nfk > 1) snprintf(msg, sizeof msg, "drop cascades to %d other objects", nfk);
            else snprintf(msg, sizeof msg, "drop cascades to constraint %s on table %s", fk, fk_owner);
            cb->on_notice(cb->ctx, "00000", msg);
        }
        if (nfk) {
            int nu = 0;
            const attu_unique *us = attu_catalog_uniques(db_cat(s), t->name, &nu);
            attu_unique key;
            memset(&key, 0, sizeof key);
            for (int k = 0; k < nu; k++) if (!strcmp(us[k].name, name)) key = us[k];
            if (db_fkey_drop_on_key(s, t->name, &key, err)) { rc = -1; break; }
        }
        rc = remove_index(s, t->name, which, err);
        changed = true;
    }
    if (changed) {
        attu_error e;
        attu_error_clear(&e);
        if (db_index_save(s, rc ? &e : err) && !rc) rc = -1;
    }
    pthread_rwlock_unlock(&s->db->lock);
    if (rc) return rc;
    return db_deliver_tag(cb, "DROP INDEX", err) ? -2 : 0;
}

/* ---- ALTER INDEX / REINDEX ------------------------------------------------------------------ */

/* The index named name: its table and place (0), else PostgreSQL's error
 * (42P01 no relation, 42809 another kind; a constraint's index is one
 * for ALTER INDEX, which attu has nothing to change in: *constraint). */
static int find_index(attu_session *s, const char *name, attu_table **t, int *which, bool *constraint, attu_error *err) {
    *constraint = false;
    if ((*t = attu_catalog_index_owner(db_cat(s), name, which))) return 0;
    int w = 0;
    if ((*t = attu_catalog_constraint_owner(db_cat(s), name, &w))) { *constraint = true; return 0; }
    if (db_relation_exists(s, name) || db_sequence_exists(s, name))
        return attu_error_set(err, "42809", 0, "\"%s\" is not an index", name);
    return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0, "relation \"%s\" does not exist", name);
}

static int alter_index(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    const char *name = st->u.alter_index.name;
    char act = st->u.alter_index.action;
    if (act == 'T') {
        const attu_table *t = attu_catalog_lookup(db_cat(s), name);
        const attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), name);
        if (t && (!v || v->kind == 'm')) return 0;
        if (v || db_sequence_exists(s, name) || attu_catalog_constraint_owner(db_cat(s), name, NULL))
            return attu_error_set(err, "42809", 0, "\"%s\" is not a table or materialized view", name);
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0, "relation \"%s\" does not exist", name);
    }
    attu_table *t = NULL;
    int which = -1;
    bool constraint = false;
    if (find_index(s, name, &t, &which, &constraint, err)) {
        if (st->u.alter_index.if_exists && !strcmp(err->sqlstate, ATTU_SQLSTATE_UNDEFINED_TABLE)) {
            attu_error_clear(err);
            if (cb && cb->on_notice) {
                char msg[160];
                snprintf(msg, sizeof msg, "relation \"%s\" does not exist, skipping", name);
                cb->on_notice(cb->ctx, "00000", msg);
            }
            return 0;
        }
        return -1;
    }
    if (act == 'i') return 0;   /* REINDEX INDEX: nothing to rebuild */
    if (act == 't') {
        if (strcmp(st->u.alter_index.new_name, "pg_default"))
            return attu_error_set(err, "42704", 0, "tablespace \"%s\" does not exist", st->u.alter_index.new_name);
        return 0;
    }
    if (act == 'r') {
        const char *to = st->u.alter_index.new_name;
        if (!strcmp(to, name)) return attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0, "relation \"%s\" already exists", to);
        if (name_taken(s, to)) return attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0, "relation \"%s\" already exists", to);
    }
    if (constraint) {
        if (act == 'r') {
            /* a constraint's index: the constraint follows (PostgreSQL
             * renames both), which ALTER TABLE's RENAME CONSTRAINT does */
            int nu = 0;
            const attu_unique *us = attu_catalog_uniques(db_cat(s), t->name, &nu);
            attu_unique *u = calloc((size_t)nu + 1, sizeof *u);
            if (!u) return attu_error_oom(err);
            if (nu) memcpy(u, us, sizeof *u * (size_t)nu);
            for (int k = 0; k < nu; k++)
                if (!strcmp(u[k].name, name)) snprintf(u[k].name, sizeof u[k].name, "%s", st->u.alter_index.new_name);
            int rc = db_constraints_save(s, t, u, nu, err);
            free(u);
            if (!rc) db_comments_renamed(s, 'r', NULL, name, st->u.alter_index.new_name);
            if (!rc) db_defer_renamed(s, 'k', name, st->u.alter_index.new_name);
            return rc;
        }
        char *opts = NULL;
        int rc = check_options("btree", st->u.alter_index.options, st->u.alter_index.noptions, NULL, act == 'x', &opts, err);
        free(opts);
        return rc;
    }
    int n = 0;
    const attu_index_def *have = attu_catalog_indexes(db_cat(s), t->name, &n);
    attu_index_def *all = calloc((size_t)n + 1, sizeof *all);
    if (!all) return attu_error_oom(err);
    int rc = 0;
    for (int k = 0; k < n && !rc; k++)
        if (attu_index_copy(&all[k], &have[k])) rc = attu_error_oom(err);
    if (!rc && act == 'r') snprintf(all[which].name, sizeof all[which].name, "%s", st->u.alter_index.new_name);
    if (!rc && (act == 's' || act == 'x')) {
        char *opts = NULL;
        rc = check_options(all[which].method, st->u.alter_index.options, st->u.alter_index.noptions, all[which].options,
                           act == 'x', &opts, err);
        if (!rc) { free(all[which].options); all[which].options = opts; }
    }
    if (!rc) rc = put_indexes(s, t->name, all, n, err);
    if (!rc && db_index_save(s, err)) rc = -1;
    if (!rc && act == 'r') db_comments_renamed(s, 'r', NULL, name, st->u.alter_index.new_name);
    for (int k = 0; k < n; k++) attu_index_clear(&all[k]);
    free(all);
    return rc;
}

int db_exec_alter_index(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    db_write_lock(s);
    int rc = alter_index(s, st, cb, err);
    pthread_rwlock_unlock(&s->db->lock);
    if (rc) return rc;
    char act = st->u.alter_index.action;
    return db_deliver_tag(cb, act == 'i' || act == 'T' ? "REINDEX" : "ALTER INDEX", err) ? -2 : 0;
}

/* ---- keeping indexes with their tables ------------------------------------------------------ */

/* Whether ix reads the column named name (number c): a key, an INCLUDE
 * column, or a name in an expression or the predicate. */
static bool uses_column(const attu_index_def *ix, int c, const char *name) {
    for (int j = 0; j < ix->ncols; j++) {
        if (ix->cols[j] == c) return true;
        if (ix->cols[j] < 0 && ix->expr[j]) {
            int count = 0;
            attu_error e;
            attu_error_clear(&e);
            free(attu_sql_rename_column(ix->expr[j], name, name, &count, &e));
            if (count) return true;
        }
    }
    if (ix->where) {
        int count = 0;
        attu_error e;
        attu_error_clear(&e);
        free(attu_sql_rename_column(ix->where, name, name, &count, &e));
        if (count) return true;
    }
    return false;
}

int db_index_columns_changed(attu_session *s, const char *table, const attu_table *old, const int *map,
                             const char *renamed_from, const char *renamed_to, attu_error *err) {
    int n = 0;
    const attu_index_def *have = attu_catalog_indexes(db_cat(s), table, &n);
    if (!n) return 0;
    attu_index_def *all = calloc((size_t)n + 1, sizeof *all);
    if (!all) return attu_error_oom(err);
    int m = 0, rc = 0;
    for (int k = 0; k < n && !rc; k++) {
        bool gone = false;
        for (int c = 0; c < old->ncols && !gone; c++)
            if (map[c] < 0) gone = uses_column(&have[k], c, old->defs[c].name);
        if (gone) { db_comments_dropped(s, have[k].name); continue; }
        if (attu_index_copy(&all[m], &have[k])) { rc = attu_error_oom(err); break; }
        attu_index_def *ix = &all[m++];
        for (int j = 0; j < ix->ncols; j++) if (ix->cols[j] >= 0) ix->cols[j] = map[ix->cols[j]];
        if (renamed_from) {
            char **texts[ATTU_INDEX_MAX_KEYS + 1];
            int nt = 0;
            for (int j = 0; j < ix->ncols; j++) if (ix->expr[j]) texts[nt++] = &ix->expr[j];
            if (ix->where) texts[nt++] = &ix->where;
            for (int q = 0; q < nt && !rc; q++) {
                int count = 0;
                char *r = attu_sql_rename_column(*texts[q], renamed_from, renamed_to, &count, err);
                if (!r) { rc = -1; break; }
                free(*texts[q]);
                *texts[q] = r;
            }
        }
    }
    if (!rc) rc = put_indexes(s, table, all, m, err);
    if (!rc) {
        attu_error e;
        attu_error_clear(&e);
        db_index_save(s, &e);
    }
    for (int k = 0; k < m; k++) attu_index_clear(&all[k]);
    free(all);
    return rc;
}
