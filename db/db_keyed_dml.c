/*
 * db_keyed_dml.c - DELETE and UPDATE that name their row by its key.
 *
 * A statement such as
 *
 *     UPDATE t SET v = 1 WHERE id = 80
 *     DELETE FROM t WHERE a = 1 AND b = 'x' AND v > 0 RETURNING *
 *
 * whose WHERE holds, as conjuncts of its top AND, an equality of every
 * column of one PRIMARY KEY / UNIQUE NOT DEFERRABLE constraint to a
 * constant or a $n parameter would scan the whole table to find one row
 * (db_modify.c runs its WHERE as a query). When the table already carries
 * that constraint's key set (engine/key_set.h, db/db_unique.c) the row is
 * found by one hash lookup instead, and the statement's query then runs
 * over that row alone: a one-row (or empty) copy of the table, which the
 * binder reads in the target's place (attu_bind_params.read_version), its
 * rowid 0 mapped back to the row's place in the table. Everything after
 * the query (RETURNING, unique checks, foreign keys, the key index
 * following the change) is db_modify.c's as before.
 *
 * Correctness rests on one rule: the candidate found by the key must be a
 * superset of the rows the WHERE keeps. The whole WHERE, key equalities
 * included, is still evaluated on the candidate, so a candidate that does
 * not match is simply dropped. The key value probed is the constant cast
 * to the column's type; that finds every matching row only where
 * equality of the column with the constant implies equality with the cast
 * constant, which holds for the pairs allowed here:
 *
 *   - an untyped constant (a string literal, NULL): PostgreSQL reads it
 *     with the column type's input function, which is the cast;
 *   - the same type (the same representation; text against text or
 *     varchar, bpchar against bpchar: their key equality is the column's);
 *   - an integer column against an integer or numeric constant (an exact
 *     comparison: a matching constant is integral and in range, and its
 *     cast is the row's value).
 *
 * Anything else (a float constant against an int8, text against
 * char(n), an interval with fields, arrays, the TEXT-slot types of their
 * own such as uuid and enums, a cast that fails) falls back
 * to the scan, as do the statements the one-row copy would change the
 * meaning of: any other reference the copy could stand in for (USING /
 * FROM items, WITH, subqueries, SQL functions, DEFAULT values), WHERE
 * CURRENT OF, a statement through a view WITH CHECK OPTION (the checks
 * name the view; a view without one arrives here as a plain statement on
 * its table, the view's conditions ANDed in, and is looked up as one), a
 * statement under data-modifying WITH (it reads a kept version, whose
 * index is not the table's), and a table without a key set yet (the
 * lookup never builds one). ATTU_KEYED_DML=0 turns the path off.
 */
#include "db/db_internal.h"
#include "db/db_keyed_dml.h"
#include "db/db_unique.h"

#include <stdlib.h>
#include <string.h>

#include "engine/key_set.h"
#include "engine/sql_function.h"
#include "engine/table_rewrite.h"
#include "planner/lower.h"
#include "planner/rewrite.h"

static bool keyed_wanted(void) {
    const char *e = getenv("ATTU_KEYED_DML");
    return !e || (strcmp(e, "0") && strcmp(e, "off"));
}

/* A constant: a literal, a parameter, or casts and signs of one. */
static bool constant(const attu_ast_expr *e) {
    switch (e->kind) {
    case ATTU_EXPR_LITERAL: case ATTU_EXPR_PARAM: return true;
    case ATTU_EXPR_CAST: return constant(e->u.cast.arg);
    case ATTU_EXPR_UNARY: return e->u.unary.op != ATTU_UNOP_NOT && constant(e->u.unary.arg);
    default: return false;
    }
}

static bool untyped(const attu_ast_expr *e) {
    return e->kind == ATTU_EXPR_LITERAL && (e->u.literal.kind == ATTU_LIT_STRING || e->u.literal.kind == ATTU_LIT_NULL);
}

/* Whether e reads nothing but the target's row: no subquery, no SQL
 * function (its body could read the table the copy stands in for), no
 * DEFAULT. */
static bool row_local(const attu_session *s, const attu_ast_expr *e);

static bool list_local(const attu_session *s, const attu_ast_expr_list *l) {
    for (int i = 0; i < l->n; i++) if (!row_local(s, l->items[i])) return false;
    return true;
}

static bool row_local(const attu_session *s, const attu_ast_expr *e) {
    if (!e) return true;
    switch (e->kind) {
    case ATTU_EXPR_LITERAL: case ATTU_EXPR_COLUMN: case ATTU_EXPR_PARAM: case ATTU_EXPR_STAR: return true;
    case ATTU_EXPR_UNARY: return row_local(s, e->u.unary.arg);
    case ATTU_EXPR_BINARY: return row_local(s, e->u.binary.left) && row_local(s, e->u.binary.right);
    case ATTU_EXPR_IS: return row_local(s, e->u.is.arg);
    case ATTU_EXPR_BETWEEN:
        return row_local(s, e->u.between.arg) && row_local(s, e->u.between.low) && row_local(s, e->u.between.high);
    case ATTU_EXPR_IN_LIST: return row_local(s, e->u.in_list.arg) && list_local(s, &e->u.in_list.list);
    case ATTU_EXPR_LIKE:
        return row_local(s, e->u.like.arg) && row_local(s, e->u.like.pattern) && row_local(s, e->u.like.escape);
    case ATTU_EXPR_CASE:
        if (!row_local(s, e->u.case_.operand) || !row_local(s, e->u.case_.else_)) return false;
        for (int i = 0; i < e->u.case_.nwhens; i++)
            if (!row_local(s, e->u.case_.whens[i].when) || !row_local(s, e->u.case_.whens[i].then)) return false;
        return true;
    case ATTU_EXPR_CAST: return row_local(s, e->u.cast.arg);
    case ATTU_EXPR_EXTRACT: return row_local(s, e->u.extract.arg);
    case ATTU_EXPR_FUNC:
        if (!e->u.func.name || attu_sql_function_exists(attu_catalog_comments(db_cat(s)), e->u.func.name)) return false;
        return list_local(s, &e->u.func.args) && row_local(s, e->u.func.filter);
    default: return false;   /* subqueries, DEFAULT */
    }
}

/* The target column a reference names (-1: not the target's). */
static int target_column(const attu_table *base, const char *qual, const attu_ast_expr *e) {
    if (e->kind != ATTU_EXPR_COLUMN) return -1;
    if (e->u.column.qualifier && strcmp(e->u.column.qualifier, qual)) return -1;
    return attu_table_find_column(base, e->u.column.name);
}

/* For each table column, the constant the WHERE's top AND equates it to
 * (the first one written), or NULL. */
static void collect_equalities(const attu_table *base, const char *qual, const attu_ast_expr *w,
                               const attu_ast_expr **eq) {
    if (w->kind != ATTU_EXPR_BINARY) return;
    if (w->u.binary.op == ATTU_BINOP_AND) {
        collect_equalities(base, qual, w->u.binary.left, eq);
        collect_equalities(base, qual, w->u.binary.right, eq);
        return;
    }
    if (w->u.binary.op != ATTU_BINOP_EQ) return;
    const attu_ast_expr *l = w->u.binary.left, *r = w->u.binary.right;
    int c = target_column(base, qual, l);
    if (c < 0 || !constant(r)) {
        c = target_column(base, qual, r);
        r = l;
        if (c < 0 || !constant(r)) return;
    }
    if (!eq[c]) eq[c] = r;
}

static bool is_integer(attu_type t) {
    return !attu_type_is_array(t) && (t.id == ATTU_TYPE_INT16 || t.id == ATTU_TYPE_INT32 || t.id == ATTU_TYPE_INT64);
}

/* Whether a constant of type k (untyped: any) compared with column type c
 * finds only rows equal to the constant cast to c (the header's pairs). */
static bool probe_exact(attu_type c, attu_type k, bool untyped_const) {
    /* (json, jsonb, uuid, bytea and enums keep text slots whose probe
     * would need their own input function: not done, they scan) */
    if (attu_type_is_array(c) || attu_type_is_typed_text(c) || attu_type_is_qualified_interval(c)) return false;
    if (untyped_const) return true;
    if (attu_type_is_array(k)) return false;
    if (is_integer(c)) return is_integer(k) || k.id == ATTU_TYPE_NUMERIC || k.id == ATTU_TYPE_DECIMAL;
    bool cnum = c.id == ATTU_TYPE_NUMERIC || c.id == ATTU_TYPE_DECIMAL;
    if (cnum) return is_integer(k) || k.id == ATTU_TYPE_NUMERIC || k.id == ATTU_TYPE_DECIMAL;
    if (c.id != k.id) return false;
    if (c.id == ATTU_TYPE_TEXT)
        return !attu_type_is_typed_text(k) && !attu_type_is_bpchar_any(c) == !attu_type_is_bpchar_any(k);
    /* (the same type: a matching constant is a value of the column's
     * precision already, which the cast keeps) */
    return true;
}

/* CAST(v AS the key column's type); a TEXT column's as text or bpchar
 * (the value's bytes, which its key compares), not cut to a varchar(n)'s
 * length. */
static attu_ast_expr *probe_cast(attu_ast_arena *a, const attu_table *base, const attu_ast_expr *v, int c,
                                 attu_error *err) {
    attu_type t = base->defs[c].type;
    if (t.id != ATTU_TYPE_TEXT) return db_cast_to_column(a, base, v, c, v->position, err);
    attu_ast_expr *e = attu_ast_alloc(a, sizeof *e);
    if (!e) { attu_error_oom(err); return NULL; }
    memset(e, 0, sizeof *e);
    e->kind = ATTU_EXPR_CAST;
    e->position = v->position;
    e->depth = v->depth + 1;
    e->u.cast.arg = (attu_ast_expr *)v;
    e->u.cast.syntax = ATTU_CAST_FUNCTION;
    e->u.cast.type.name = attu_type_is_bpchar_any(t) ? "bpchar" : "text";
    e->u.cast.type.position = v->position;
    e->u.cast.type.precision = e->u.cast.type.scale = -1;
    return e;
}

/* Runs SELECT v1, CAST(v1 AS c1), v2, CAST(v2 AS c2), ...: each key
 * constant as written (its type) and as probed. 0, or -1 with err (the
 * caller falls back). */
static int run_probe(attu_session *s, const char *sql, const attu_bind_params *params, attu_ast_arena *a,
                     attu_plan_arena *pa, const attu_table *base, const attu_unique *u, const attu_ast_expr **eq,
                     attu_lplan **lp, attu_column ***cols, size_t *nrows, attu_error *err) {
    attu_ast_select_item *items = attu_ast_alloc(a, sizeof *items * (size_t)(2 * u->ncols));
    if (!items) return attu_error_oom(err);
    int depth = 1;
    for (int j = 0; j < u->ncols; j++) {
        const attu_ast_expr *v = eq[u->cols[j]];
        attu_ast_expr *c = probe_cast(a, base, v, u->cols[j], err);
        if (!c) return -1;
        items[2 * j] = (attu_ast_select_item){ (attu_ast_expr *)v, NULL, 0 };
        items[2 * j + 1] = (attu_ast_select_item){ c, NULL, 0 };
        if (c->depth > depth) depth = c->depth;
    }
    attu_ast_query q;
    memset(&q, 0, sizeof q);
    q.kind = ATTU_QUERY_SELECT;
    q.position = 1;
    q.depth = depth + 1;
    q.u.select.items = items;
    q.u.select.nitems = 2 * u->ncols;
    attu_bind_params bp = db_params(s, params);
    *lp = attu_bind_query(pa, db_cat(s), sql, &q, &bp, err);
    if (*lp) *lp = attu_rewrite(pa, *lp, err);
    attu_stage *stg = *lp ? attu_lower(*lp, err) : NULL;
    if (!stg) return -1;
    int rc = db_run_stage(s, stg, false, cols, nrows, err);
    attu_stage_free(stg);
    return rc;
}

/* The one-row copy stands in for the target wherever the binder reads
 * it (the caller made sure it is read once, as the target). */
typedef struct stand_in {
    const attu_table *base;
    attu_table       *copy;
    int               reads;   /* how many times the binder took the copy */
} stand_in;

static attu_table *read_copy(void *ctx, attu_table *t, bool top) {
    (void)top;
    stand_in *si = ctx;
    if (t != si->base) return t;
    si->reads++;
    return si->copy;
}

struct db_keyed_rows {
    stand_in si;
    int64_t  map[1];
};

/* Whether the statement's shape allows the one-row copy (header). */
static bool statement_fits(attu_session *s, const attu_ast_stmt *st, const attu_bind_params *params) {
    if (!st->u.modify.where || st->u.modify.current_of || st->u.modify.from.n || st->u.modify.nwith ||
        st->u.modify.view_checks || s->wmod || (params && params->read_version))
        return false;
    if (!row_local(s, st->u.modify.where)) return false;
    for (int k = 0; k < st->u.modify.nsets; k++) {
        const attu_ast_expr *v = st->u.modify.sets[k].value;
        /* (" array_assign" is the grammar's own function of SET a[i] = v) */
        if (v->kind == ATTU_EXPR_FUNC && v->u.func.name && !strcmp(v->u.func.name, " array_assign")) {
            if (!list_local(s, &v->u.func.args)) return false;
        } else if (!row_local(s, v)) return false;
    }
    for (int i = 0; i < st->u.modify.nreturning; i++)
        if (!row_local(s, st->u.modify.returning[i].expr)) return false;
    return true;
}

int db_keyed_rows_find(attu_session *s, const char *sql, const attu_ast_stmt *st, const char *qual,
                       const attu_table *base, const attu_bind_params *params, db_keyed_rows **out, attu_error *err) {
    *out = NULL;
    if (!keyed_wanted() || !statement_fits(s, st, params)) return 0;
    int nu = 0;
    const attu_unique *us = attu_catalog_uniques(db_cat(s), base->name, &nu);
    if (!nu) return 0;
    const attu_ast_expr **eq = calloc((size_t)base->ncols + 1, sizeof *eq);
    if (!eq) return attu_error_oom(err);
    collect_equalities(base, qual, st->u.modify.where, eq);
    const attu_unique *u = NULL;
    attu_key_set *ks = NULL;
    for (int i = 0; i < nu && !u; i++) {
        if (us[i].deferrable) continue;
        bool all = true;
        for (int j = 0; j < us[i].ncols && all; j++) all = us[i].cols[j] < base->ncols && eq[us[i].cols[j]];
        if (all && (ks = db_unique_key_set_kept(base, &us[i]))) u = &us[i];
    }
    if (!u) { free(eq); return 0; }
    /* the key constants, evaluated; any doubt (an error, a type pair not
     * known to be exact) and the scan decides */
    attu_ast_arena *a = attu_ast_arena_new();
    attu_plan_arena *pa = attu_plan_arena_new();
    attu_lplan *lp = NULL;
    attu_column **cols = NULL;
    size_t nrows = 0;
    int rc = 0;
    if (!a || !pa) { rc = attu_error_oom(err); goto out; }
    attu_error perr;
    memset(&perr, 0, sizeof perr);
    if (run_probe(s, sql, params, a, pa, base, u, eq, &lp, &cols, &nrows, &perr) || nrows != 1) goto out;
    attu_column **pcols = calloc((size_t)base->ncols, sizeof *pcols);
    if (!pcols) { rc = attu_error_oom(err); goto out; }
    bool exact = true;
    for (int j = 0; j < u->ncols && exact; j++) {
        int c = u->cols[j];
        attu_type ct = base->defs[c].type, pt = cols[2 * j + 1]->type;
        exact = probe_exact(ct, lp->types[2 * j], untyped(eq[c])) && pt.id == ct.id &&
                !attu_type_is_array(pt) && !attu_type_is_bpchar_any(pt) == !attu_type_is_bpchar_any(ct) &&
                (ct.id != ATTU_TYPE_DECIMAL || attu_type_equal(pt, ct));
        pcols[c] = cols[2 * j + 1];
    }
    if (exact) {
        attu_table probe;
        memset(&probe, 0, sizeof probe);
        probe.ncols = base->ncols;
        probe.cols = pcols;
        probe.nrows = 1;
        uint64_t h;
        int64_t row = -1;
        attu_key_rows self = { base, 0, NULL };
        /* a NULL in the key finds nothing (NULL = x is never true) */
        if (attu_key_hash(&probe, u->cols, u->ncols, 0, &h)) row = attu_key_set_find(ks, h, &self, &probe, 0);
        db_keyed_rows *k = calloc(1, sizeof *k);
        size_t at = row >= 0 ? (size_t)row : 0;
        attu_table *copy = k ? db_gather_rows(base, &at, row >= 0 ? 1 : 0, base->name, err) : NULL;
        if (!copy) { free(k); free(pcols); rc = k ? -1 : attu_error_oom(err); goto out; }
        k->si.base = base;
        k->si.copy = copy;
        k->map[0] = row;
        *out = k;
        rc = 1;
    }
    free(pcols);
out:
    if (cols && lp) for (int i = 0; i < lp->ncols; i++) attu_column_free(cols[i]);
    free(cols);
    attu_plan_arena_free(pa);
    attu_ast_arena_free(a);
    free(eq);
    return rc;
}

void db_keyed_rows_params(db_keyed_rows *k, attu_bind_params *bp) {
    bp->read_version = read_copy;
    bp->read_ctx = &k->si;
}

int db_keyed_rows_map(const db_keyed_rows *k, const int64_t **map, size_t *n, attu_error *err) {
    /* the binder took the target from elsewhere (never seen): the query
     * read the table itself and its rowids are the table's */
    (void)err;
    if (!k->si.reads) { *map = NULL; *n = 0; return 0; }
    /* (more reads than one are the same reference bound again, as a run
     * retried: statement_fits leaves the statement no other) */
    *map = k->map;
    *n = k->si.copy->nrows;
    return 0;
}

void db_keyed_rows_free(db_keyed_rows *k) {
    if (!k) return;
    attu_table_free(k->si.copy);
    free(k);
}
