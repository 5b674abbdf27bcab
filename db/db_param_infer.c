/*
 * db_param_infer.c - the types of a prepared statement's undeclared
 * parameters, as PostgreSQL's parse analysis gives them when a statement
 * is prepared (a protocol Parse with type OID 0, or none, for $k; a SQL
 * PREPARE without a type list).
 *
 * The statement is bound once with its parameters unknown. A parameter
 * takes the type of the first context that types it: the binder coerces
 * it there as it coerces an untyped literal and records that type
 * (attu_bind_params.inferred), and every later use of the parameter
 * already has it (planner/binder_expr.c, bind_param): `i = $1` makes $1
 * an integer, `$1 + 1` too, `SELECT $1` a text, LIMIT $1 a bigint,
 * substr(s, $1) an integer, `c = $1` with c char(3) a bpchar.
 *
 * What the binder does not see as a context, PostgreSQL's assignment
 * does: a parameter written alone as an INSERT's value or an UPDATE's SET
 * value takes its target column's type (without the column's modifier:
 * varchar, bpchar, numeric), before anything else is bound.
 *
 * A parameter that no context types has no type where PostgreSQL's
 * analysis leaves it so: never written (`SELECT $2` without $1), or read
 * only where PostgreSQL takes any type (`$1 IS NULL`, count($1),
 * concat($1)); the caller answers 42P18 then, as PostgreSQL does. One that
 * attu's binding leaves untyped elsewhere stays typed by its context at
 * each run (described as unknown, 705) rather than fail.
 */
#include "db/db_internal.h"
#include "db/db_unique.h"

#include <stdlib.h>
#include <string.h>

/* Gives undeclared parameter $n (an expression that is one) the type t,
 * unless it has one already. */
static void assign_bare(const attu_ast_expr *e, attu_type t, int np, attu_type *inferred) {
    if (!e || e->kind != ATTU_EXPR_PARAM) return;
    int n = e->u.param.number;
    if (n >= 1 && n <= np && inferred[n - 1].id == ATTU_TYPE_UNKNOWN) inferred[n - 1] = attu_type_param_plain(t);
}

/* Binds q with the parameters unknown; the caller holds the read lock. */
static int infer_query_locked(attu_session *s, const char *sql, const attu_ast_query *q, attu_bind_params *bp,
                              attu_error *err) {
    attu_plan_arena *pa = attu_plan_arena_new();
    if (!pa) return attu_error_oom(err);
    attu_bind_params full = db_params(s, bp);
    full.no_side_effects = true;   /* analysed, not run: no nextval */
    db_seq_fill fill;   /* nextval('s') items over rows: their stand-ins */
    attu_lplan *lp = attu_bind_query(pa, db_cat(s), sql, db_seq_fill_prepare(s, q, NULL, 0, &fill), &full, err);
    attu_plan_arena_free(pa);
    db_seq_fill_free(&fill);
    return lp ? 0 : -1;
}

static int infer_query(attu_session *s, const char *sql, const attu_ast_query *q, attu_bind_params *bp,
                       attu_error *err) {
    pthread_rwlock_rdlock(&s->db->lock);
    int r = infer_query_locked(s, sql, q, bp, err);
    pthread_rwlock_unlock(&s->db->lock);
    return r;
}

/* PostgreSQL analyses an INSERT when it is prepared: its table and target
 * columns must exist (42P01, 42703, with their positions). */
static int check_insert(attu_session *s, const attu_ast_stmt *st, attu_error *err) {
    int r = 0;
    pthread_rwlock_rdlock(&s->db->lock);
    const attu_table *base = attu_catalog_lookup(db_cat(s), st->u.insert.table);
    if (!base)
        r = db_no_such_table(s, st->u.insert.table, st->u.insert.table_position, err);
    for (int k = 0; !r && k < st->u.insert.columns.n; k++)
        if (attu_table_find_column(base, st->u.insert.columns.items[k]) < 0)
            r = attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN,
                               st->u.insert.columns.positions ? st->u.insert.columns.positions[k] : st->position,
                               "column \"%s\" of relation \"%s\" does not exist", st->u.insert.columns.items[k],
                               base->name);
    pthread_rwlock_unlock(&s->db->lock);
    return r;
}

/* INSERT: each value written as a bare parameter takes its target
 * column's type; then the source is bound as the INSERT binds it (VALUES
 * items assigned to their columns), which types the parameters inside
 * expressions. Errors of that binding are left to the run (DEFAULT items
 * and counts are the INSERT's own checks, db_ddl.c). */
static int infer_insert(attu_session *s, const char *sql, const attu_ast_stmt *st, attu_bind_params *bp,
                        attu_error *err) {
    if (check_insert(s, st, err)) return -1;
    const attu_ast_query *src = st->u.insert.source;
    if (!src) return 0;
    int np = bp->n;
    /* held throughout: names point into the table's definition */
    pthread_rwlock_rdlock(&s->db->lock);
    const attu_table *base = attu_catalog_lookup(db_cat(s), st->u.insert.table);
    attu_ast_arena *arena = NULL;
    if (st->u.insert.targets && base) {
        /* INSERT INTO t (a[1]) VALUES ($1): typed as the element, through
         * the assignment the run makes; its errors are left to the run */
        const attu_ast_stmt *w = (arena = attu_ast_arena_new()) ? db_insert_subscripts(arena, base, st, err) : NULL;
        attu_error_clear(err);
        if (!w) {
            pthread_rwlock_unlock(&s->db->lock);
            if (arena) attu_ast_arena_free(arena);
            return 0;
        }
        st = w;
        src = st->u.insert.source;
    }
    int nt = base ? (st->u.insert.columns.n ? st->u.insert.columns.n : base->ncols) : 0;
    attu_type *targets = calloc((size_t)nt + 1, sizeof *targets);
    const char **names = calloc((size_t)nt + 1, sizeof *names);
    for (int k = 0; targets && names && k < nt; k++) {
        int c = st->u.insert.columns.n ? attu_table_find_column(base, st->u.insert.columns.items[k]) : k;
        targets[k] = base->defs[c].type;
        names[k] = base->defs[c].name;
    }
    if (!targets || !names) {
        pthread_rwlock_unlock(&s->db->lock);
        free(targets);
        free(names);
        if (arena) attu_ast_arena_free(arena);
        return attu_error_oom(err);
    }
    if (src->kind == ATTU_QUERY_VALUES) {
        for (int r = 0; r < src->u.values.nrows; r++)
            for (int k = 0; k < nt && k < src->u.values.rows[r].n; k++)
                assign_bare(src->u.values.rows[r].items[k], targets[k], np, bp->inferred);
    } else if (src->kind == ATTU_QUERY_SELECT) {
        /* item k is target k up to the first * */
        for (int k = 0; k < nt && k < src->u.select.nitems; k++) {
            if (src->u.select.items[k].expr->kind == ATTU_EXPR_STAR) break;
            assign_bare(src->u.select.items[k].expr, targets[k], np, bp->inferred);
        }
    }
    attu_bind_params ib = *bp;
    if (src->kind == ATTU_QUERY_VALUES && src->u.values.nrows >= 1 && src->u.values.rows[0].n == nt) {
        ib.insert_types = targets;
        ib.insert_names = names;
        ib.ninsert = nt;
    }
    attu_error scratch;
    attu_error_clear(&scratch);
    infer_query_locked(s, sql, src, &ib, &scratch);
    /* ON CONFLICT DO UPDATE: a bare SET value takes its column's type, as
     * UPDATE's (its other expressions are left typed by each run) */
    const attu_ast_on_conflict *oc = st->u.insert.on_conflict;
    for (int k = 0; oc && base && k < oc->nsets; k++) {
        int c = attu_table_find_column(base, oc->sets[k].column);
        if (c >= 0) assign_bare(oc->sets[k].value, base->defs[c].type, np, bp->inferred);
    }
    pthread_rwlock_unlock(&s->db->lock);
    free(targets);
    free(names);
    if (arena) attu_ast_arena_free(arena);
    return 0;
}

/* UPDATE and DELETE: a bare SET value takes its column's type; then the
 * statement is bound as it runs (its query of rowids, SET values and
 * RETURNING items, db_modify.c), which types the rest. */
static int infer_modify(attu_session *s, const char *sql, const attu_ast_stmt *st, attu_bind_params *bp,
                        attu_error *err) {
    if (st->kind == ATTU_STMT_UPDATE) {
        pthread_rwlock_rdlock(&s->db->lock);
        const attu_table *base = attu_catalog_lookup(db_cat(s), st->u.modify.table);
        for (int k = 0; base && k < st->u.modify.nsets; k++) {
            int c = attu_table_find_column(base, st->u.modify.sets[k].column);
            if (c >= 0) assign_bare(st->u.modify.sets[k].value, base->defs[c].type, bp->n, bp->inferred);
        }
        pthread_rwlock_unlock(&s->db->lock);
    }
    int ncols = 0;
    attu_result_column *cols = NULL;
    int r = db_modify_describe(s, sql, st, bp, &ncols, &cols, err);
    free(cols);
    return r;
}

/* MERGE: a bare SET or INSERT value takes its column's type; then the
 * statement's join query is bound as it runs (db_merge.c). */
static int infer_merge(attu_session *s, const char *sql, const attu_ast_stmt *st, attu_bind_params *bp,
                       attu_error *err) {
    pthread_rwlock_rdlock(&s->db->lock);
    const attu_table *base = attu_catalog_lookup(db_cat(s), st->u.modify.table);
    for (int k = 0; base && k < st->u.modify.nwhens; k++) {
        const attu_ast_merge_when *w = &st->u.modify.whens[k];
        for (int i = 0; i < w->nsets; i++) {
            int c = attu_table_find_column(base, w->sets[i].column);
            if (c >= 0) assign_bare(w->sets[i].value, base->defs[c].type, bp->n, bp->inferred);
        }
        for (int i = 0; i < w->values.n; i++) {
            int c = w->columns.n ? (i < w->columns.n ? attu_table_find_column(base, w->columns.items[i]) : -1)
                                 : (i < base->ncols ? i : -1);
            if (c >= 0) assign_bare(w->values.items[i], base->defs[c].type, bp->n, bp->inferred);
        }
    }
    pthread_rwlock_unlock(&s->db->lock);
    return db_merge_describe(s, sql, st, bp, err);
}

int db_infer_params(attu_session *s, const char *sql, const attu_ast_stmt *st, int np, const attu_type *declared,
                    attu_type *inferred, int *open_uses, int *undetermined_uses, attu_error *err) {
    attu_bind_params bp;
    memset(&bp, 0, sizeof bp);
    bp.n = np;
    bp.types = declared;
    bp.inferred = inferred;
    bp.open_uses = open_uses;
    bp.undetermined_uses = undetermined_uses;
    if ((st->kind == ATTU_STMT_INSERT && db_names_view(s, st->u.insert.table)) ||
        ((st->kind == ATTU_STMT_UPDATE || st->kind == ATTU_STMT_DELETE) && db_names_view(s, st->u.modify.table))) {
        /* through a view: the statement its run makes (db_view_update.c) */
        db_view_rewrite rw;
        const attu_ast_stmt *n;
        int r = db_view_rewrite_dml(s, st, &rw, &n, err);
        if (!r) r = db_infer_params(s, sql, n, np, declared, inferred, open_uses, undetermined_uses, err);
        db_view_rewrite_free(&rw);
        return r;
    }
    switch (st->kind) {
    case ATTU_STMT_SELECT: return infer_query(s, sql, st->u.select.query, &bp, err);
    case ATTU_STMT_INSERT: return infer_insert(s, sql, st, &bp, err);
    case ATTU_STMT_UPDATE: case ATTU_STMT_DELETE: return infer_modify(s, sql, st, &bp, err);
    case ATTU_STMT_MERGE: return infer_merge(s, sql, st, &bp, err);
    case ATTU_STMT_CREATE_TABLE_AS:   /* its query's list makes the columns */
        return st->u.create_table_as.query ? infer_query(s, sql, st->u.create_table_as.query, &bp, err) : 1;
    case ATTU_STMT_EXPLAIN:
        return st->u.explain.stmt ? db_infer_params(s, sql, st->u.explain.stmt, np, declared, inferred, open_uses,
                                                    undetermined_uses, err) : 1;
    default: return 1;
    }
}
