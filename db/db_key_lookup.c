/*
 * db_key_lookup.c - the row a WHERE names by its key, found through the
 * table's key set, as a one-row copy of the table.
 *
 * A statement whose WHERE holds, as conjuncts of its top AND, an equality
 * of every column of one PRIMARY KEY / UNIQUE NOT DEFERRABLE constraint
 * to a constant or a $n parameter
 *
 *     ... WHERE id = 80
 *     ... WHERE a = 1 AND b = 'x' AND v > 0
 *
 * would scan the whole table to find one row. When the table already
 * carries that constraint's key set (engine/key_set.h, db/db_unique.c) the
 * row is found by one hash lookup instead, and the statement's query then
 * runs over that row alone: a one-row (or empty) copy of the table, which
 * the binder reads in the table's place (attu_bind_params.read_version).
 * What the statement does with the query's rows is its own: keyed UPDATE
 * and DELETE (db_keyed_dml.c) map the copy's rowid 0 back to the row's
 * place in the table, keyed SELECT (db_keyed_select.c) returns them.
 * Each decides which statements fit (the copy must stand in for the one
 * reference to the table and nothing else).
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
 * own such as uuid and enums, a cast that fails) falls back to the scan.
 * A NULL in the key finds no row (NULL = x is never true): the copy is
 * empty.
 *
 * A table version without the constraint's key set (loaded at start,
 * made by TRUNCATE / ALTER TABLE, restored by a ROLLBACK / ROLLBACK TO
 * of more changes than the set's undo log kept, the set going with the
 * discarded version: db_unique_rollback_index) gets one here: the lookup
 * builds it, one pass over the key columns' host data as a writer's check
 * does, and leaves it on the version for every later lookup
 * (db_unique_key_find_built). That is exact because a version's rows
 * never change once a catalog holds it: the set holds exactly its keys
 * whichever session built it, and a writer that replaces the version
 * hands the set on (db_unique_follow) or leaves it with the old version,
 * freed with it. The build costs some 10-20 scans of the table (one hash
 * insert a row), paid once for all the lookups after it: on a large
 * version the first lookups scan and a later one builds (db_unique.c,
 * BUILD_AFTER_MISSES), and it is skipped where the set is likely to come
 * back by itself or another build is under way: while another session
 * holds the table's write lock (the version it is changing carries the
 * set, and its COMMIT puts that version in place) or builds the same set
 * (db_unique.c), and when memory runs out; the lookup scans then, as
 * before.
 * ATTU_KEY_SET_ON_READ=0 never builds (the way before, to compare).
 * Choosing the constraint: the first whose columns the WHERE equates
 * and whose set the version carries, else the first it equates.
 *
 * The key set read is the one the table version itself carries: a set is
 * only ever kept on the version whose rows it holds (built from them, or
 * handed on to a new version once that replaced the old one, the old one
 * left without: db_unique.c), so a version read through a snapshot
 * (REPEATABLE READ, SERIALIZABLE) or a transaction's own working version
 * finds either its own exact set or none (and builds its own). Writers of
 * the table may run beside a query (they hold the database's read lock
 * too, in their own working catalog): the probe and the attaching of a
 * built set take the key index's lock, under which no writer attaches or
 * detaches a set (db_unique_key_find, db_unique_key_find_built).
 */
#include "db/db_internal.h"
#include "db/db_key_lookup.h"
#include "db/db_unique.h"

#include <stdlib.h>
#include <string.h>

#include "engine/key_set.h"
#include "engine/sql_function.h"
#include "engine/table_rewrite.h"
#include "planner/lower.h"
#include "planner/rewrite.h"

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

bool db_key_list_local(const attu_session *s, const attu_ast_expr_list *l) {
    for (int i = 0; i < l->n; i++) if (!db_key_row_local(s, l->items[i])) return false;
    return true;
}

bool db_key_order_local(const attu_session *s, const attu_ast_order_list *o) {
    for (int i = 0; i < o->n; i++) if (!db_key_row_local(s, o->items[i].expr)) return false;
    return true;
}

bool db_key_window_local(const attu_session *s, const attu_ast_window *w) {
    return !w || (db_key_list_local(s, &w->partition_by) && db_key_order_local(s, &w->order_by) &&
                  db_key_row_local(s, w->frame_start.offset) && db_key_row_local(s, w->frame_end.offset));
}

bool db_key_row_local(const attu_session *s, const attu_ast_expr *e) {
    if (!e) return true;
    switch (e->kind) {
    case ATTU_EXPR_LITERAL: case ATTU_EXPR_PARAM: case ATTU_EXPR_STAR: return true;
    case ATTU_EXPR_COLUMN:
        /* (the hidden rowid, t.rowid or the internal name: the copy's is
         * 0, not the row's place; a column of that name scans too) */
        return strcmp(e->u.column.name, "rowid") && strcmp(e->u.column.name, ATTU_ROWID_INTERNAL);
    case ATTU_EXPR_UNARY: return db_key_row_local(s, e->u.unary.arg);
    case ATTU_EXPR_BINARY: return db_key_row_local(s, e->u.binary.left) && db_key_row_local(s, e->u.binary.right);
    case ATTU_EXPR_IS: return db_key_row_local(s, e->u.is.arg);
    case ATTU_EXPR_BETWEEN:
        return db_key_row_local(s, e->u.between.arg) && db_key_row_local(s, e->u.between.low) &&
               db_key_row_local(s, e->u.between.high);
    case ATTU_EXPR_IN_LIST: return db_key_row_local(s, e->u.in_list.arg) && db_key_list_local(s, &e->u.in_list.list);
    case ATTU_EXPR_LIKE:
        return db_key_row_local(s, e->u.like.arg) && db_key_row_local(s, e->u.like.pattern) &&
               db_key_row_local(s, e->u.like.escape);
    case ATTU_EXPR_CASE:
        if (!db_key_row_local(s, e->u.case_.operand) || !db_key_row_local(s, e->u.case_.else_)) return false;
        for (int i = 0; i < e->u.case_.nwhens; i++)
            if (!db_key_row_local(s, e->u.case_.whens[i].when) || !db_key_row_local(s, e->u.case_.whens[i].then))
                return false;
        return true;
    case ATTU_EXPR_CAST: return db_key_row_local(s, e->u.cast.arg);
    case ATTU_EXPR_EXTRACT: return db_key_row_local(s, e->u.extract.arg);
    case ATTU_EXPR_FUNC:
        if (!e->u.func.name || attu_sql_function_exists(attu_catalog_comments(db_cat(s)), e->u.func.name)) return false;
        /* (an aggregate's ORDER BY and FILTER, a window's clauses) */
        return db_key_list_local(s, &e->u.func.args) && db_key_row_local(s, e->u.func.filter) &&
               db_key_order_local(s, &e->u.func.order_by) && db_key_window_local(s, e->u.func.over);
    default: return false;   /* subqueries, DEFAULT */
    }
}

/* The column of base a reference names (-1: not base's). */
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

/* Whether a lookup that finds no key set builds one (the default) or
 * scans (ATTU_KEY_SET_ON_READ=0: the way before, to compare). */
static bool build_wanted(void) {
    const char *e = getenv("ATTU_KEY_SET_ON_READ");
    return !e || (strcmp(e, "0") && strcmp(e, "off"));
}

static attu_table *read_copy(void *ctx, attu_table *t, bool top) {
    (void)top;
    db_key_copy *k = ctx;
    if (t != k->base) return t;
    k->reads++;
    return k->copy;
}

int db_key_lookup(attu_session *s, const char *sql, const attu_bind_params *params, const attu_table *base,
                  const attu_unique *us, int nu, const char *qual, const attu_ast_expr *where, db_key_copy **out,
                  attu_error *err) {
    *out = NULL;
    if (!nu || !where) return 0;
    const attu_ast_expr **eq = calloc((size_t)base->ncols + 1, sizeof *eq);
    if (!eq) return attu_error_oom(err);
    collect_equalities(base, qual, where, eq);
    /* the first constraint all of whose columns the WHERE equates and
     * whose key set the table carries (looked up again under the index's
     * lock below: a writer beside may take it away meanwhile), else the
     * first one it equates, whose set the lookup builds (header) */
    bool may_build = build_wanted() && !db_lock_table_held_by_other(s, base->name);
    const attu_unique *u = NULL, *unbuilt = NULL;
    for (int i = 0; i < nu && !u; i++) {
        if (us[i].deferrable) continue;
        bool all = true;
        for (int j = 0; j < us[i].ncols && all; j++) all = us[i].cols[j] < base->ncols && eq[us[i].cols[j]];
        if (all && db_unique_key_set_held(base, &us[i])) u = &us[i];
        else if (all && !unbuilt) unbuilt = &us[i];
    }
    if (!u && may_build) u = unbuilt;
    if (!u) { free(eq); return 0; }
    /* the key constants, evaluated; any doubt (an error, a type pair not
     * known to be exact) and the scan decides */
    attu_ast_arena *a = attu_ast_arena_new();
    attu_plan_arena *pa = attu_plan_arena_new();
    attu_lplan *lp = NULL;
    attu_column **cols = NULL;
    attu_column **pcols = NULL;
    size_t nrows = 0;
    int rc = 0;
    if (!a || !pa) { rc = attu_error_oom(err); goto out; }
    attu_error perr;
    memset(&perr, 0, sizeof perr);
    if (run_probe(s, sql, params, a, pa, base, u, eq, &lp, &cols, &nrows, &perr) || nrows != 1) goto out;
    if (!(pcols = calloc((size_t)base->ncols, sizeof *pcols))) { rc = attu_error_oom(err); goto out; }
    bool exact = true;
    for (int j = 0; j < u->ncols && exact; j++) {
        int c = u->cols[j];
        attu_type ct = base->defs[c].type, pt = cols[2 * j + 1]->type;
        exact = probe_exact(ct, lp->types[2 * j], untyped(eq[c])) && pt.id == ct.id &&
                !attu_type_is_array(pt) && !attu_type_is_bpchar_any(pt) == !attu_type_is_bpchar_any(ct) &&
                (ct.id != ATTU_TYPE_DECIMAL || attu_type_equal(pt, ct));
        pcols[c] = cols[2 * j + 1];
    }
    if (!exact) goto out;
    attu_table probe;
    memset(&probe, 0, sizeof probe);
    probe.ncols = base->ncols;
    probe.cols = pcols;
    probe.nrows = 1;
    int64_t row = -1;
    /* (no set kept and none built: the scan) */
    if (!db_unique_key_find_built(base, u, &probe, 0, may_build, &row)) goto out;
    db_key_copy *k = calloc(1, sizeof *k);
    size_t at = row >= 0 ? (size_t)row : 0;
    attu_table *copy = k ? db_gather_rows(base, &at, row >= 0 ? 1 : 0, base->name, err) : NULL;
    if (!copy) { free(k); rc = k ? -1 : attu_error_oom(err); goto out; }
    k->base = base;
    k->copy = copy;
    k->row = row;
    *out = k;
    rc = 1;
out:
    free(pcols);
    if (cols && lp) for (int i = 0; i < lp->ncols; i++) attu_column_free(cols[i]);
    free(cols);
    attu_plan_arena_free(pa);
    attu_ast_arena_free(a);
    free(eq);
    return rc;
}

void db_key_copy_params(db_key_copy *k, attu_bind_params *bp) {
    bp->read_version = read_copy;
    bp->read_ctx = k;
}

void db_key_copy_free(db_key_copy *k) {
    if (!k) return;
    attu_table_free(k->copy);
    free(k);
}
