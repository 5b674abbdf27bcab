/*
 * db_merge.c - MERGE (PostgreSQL 15).
 *
 *     [WITH ...] MERGE INTO t [[AS] x] USING source ON cond
 *         WHEN MATCHED [AND c] THEN {UPDATE SET ... | DELETE | DO NOTHING}
 *         WHEN NOT MATCHED [AND c] THEN {INSERT [(cols)] {VALUES (...) |
 *                                        DEFAULT VALUES} | DO NOTHING} ...
 *
 * runs as one query through the binder, the planner and the executor
 * (either backend), as UPDATE ... FROM does (db_modify.c):
 *
 *     SELECT x.<rowid>, <action>, <values of clause 1>, ...
 *     FROM source LEFT JOIN t AS x ON cond
 *
 * (an inner join when no clause is NOT MATCHED). <action> is the number
 * of the first clause (1-based) whose condition holds for the pair: a
 * CASE over the MATCHED clauses where the rowid is there, over the NOT
 * MATCHED ones where it is NULL; 0 when none acts. Each clause's values
 * are CASE WHEN <action> = k THEN value END, so that a value is
 * evaluated only for the rows that take it (CASE branches are guarded:
 * planner/lower.c), and are assigned to their columns' types as INSERT
 * and UPDATE assign (attu_bind_coerce_assign: 42804, 22001, 22003 ...).
 *
 * Then, on the host, the rows act in the join's order: a target row that
 * a second modifying pair reaches is 21000 (a DO NOTHING pair changes
 * nothing and collides with nothing, as in PostgreSQL); UPDATE clauses
 * become attu_table_update_rows, DELETEs attu_table_keep_rows, INSERTs
 * appended rows with the left-out columns' DEFAULTs (serial and identity
 * drawn per row). The constraints (NOT NULL, CHECK, UNIQUE, FOREIGN
 * KEYs, deferred ones too) are those of UPDATE, DELETE and INSERT, over
 * the final rows. A foreign key check takes one kind of change at a time
 * (db_fkey_statement), so a MERGE that deletes and also updates or
 * inserts makes two versions: the deletions, put in the catalog, then the
 * rest over it; an error in the second puts the first back, so the
 * statement leaves nothing changed, as any statement (in a transaction
 * block too: db_txn.c keeps the versions).
 *
 * PostgreSQL's checks that the parse gives: the NOT MATCHED clauses see
 * only the source (42P01 "invalid reference to FROM-clause entry" for
 * the target, 42703 with its hint for a target column), checked by
 * binding their expressions over the source alone before the query runs.
 */
#include "db/db_internal.h"
#include "db/db_generated.h"
#include "db/db_check.h"
#include "db/db_fkey.h"
#include "db/db_unique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/table_rewrite.h"
#include "planner/explain.h"
#include "planner/lower.h"
#include "planner/rewrite.h"

/* One WHEN clause as the query computes it. */
typedef struct merge_clause {
    const attu_ast_merge_when *w;
    int   first;        /* its first value column in the query */
    int   nvals;        /* values in the query (INSERT: DEFAULTs left out) */
    int  *cols;         /* the table column of each value */
    int  *positions;    /* the position of each value, for coercion errors */
    int   ntarget;      /* INSERT: the columns written (map for db_append_rows) */
    bool    *seq;       /* UPDATE: value j is DEFAULT of a serial / identity column */
    int      nseq;
    int64_t *src_row;   /* UPDATE: per target row, the query row that sets it */
    size_t  *rows;      /* INSERT: the query rows inserted */
    size_t   nrows;
} merge_clause;

typedef struct merge_ctx {
    attu_session        *s;
    const attu_ast_stmt *st;
    const attu_table    *base;
    attu_ast_arena      *arena;
    const char          *qual;       /* the target's alias, or its name */
    merge_clause        *cl;
    int                  ncl;
    db_values_copy      *vcopies;    /* UPDATE clauses' DEFAULTs replaced */
    attu_ast_expr       *action;
    attu_ast_query       q;
    int                  nitems;
    bool                 running;
} merge_ctx;

static void *alloc(merge_ctx *m, size_t n, attu_error *err) {
    void *p = attu_ast_alloc(m->arena, n ? n : 1);
    if (!p) attu_error_oom(err);
    else memset(p, 0, n ? n : 1);
    return p;
}

static attu_ast_expr *mk(merge_ctx *m, attu_ast_expr_kind kind, int pos, int depth, attu_error *err) {
    attu_ast_expr *e = alloc(m, sizeof *e, err);
    if (!e) return NULL;
    e->kind = kind;
    e->position = pos;
    e->depth = depth;
    return e;
}

static attu_ast_expr *int_lit(merge_ctx *m, int v, int pos, attu_error *err) {
    attu_ast_expr *e = mk(m, ATTU_EXPR_LITERAL, pos, 1, err);
    char *text = e ? alloc(m, 16, err) : NULL;
    if (!text) return NULL;
    snprintf(text, 16, "%d", v);
    e->u.literal.kind = ATTU_LIT_INTEGER;
    e->u.literal.text = text;
    e->u.literal.len = strlen(text);
    return e;
}

static attu_ast_expr *true_lit(merge_ctx *m, int pos, attu_error *err) {
    attu_ast_expr *e = mk(m, ATTU_EXPR_LITERAL, pos, 1, err);
    if (!e) return NULL;
    e->u.literal.kind = ATTU_LIT_BOOL;
    e->u.literal.text = (char *)"true";
    e->u.literal.len = 4;
    return e;
}

static int maxd(int a, int b) { return a > b ? a : b; }

/* CASE WHEN conds[0] THEN k[0] ... ELSE 0 END over the clauses of one
 * side (matched or not), numbered 1-based among all clauses. */
static attu_ast_expr *side_case(merge_ctx *m, bool matched, attu_error *err) {
    int n = 0, pos = m->st->position;
    for (int k = 0; k < m->ncl; k++) n += m->cl[k].w->matched == matched;
    if (!n) return int_lit(m, 0, pos, err);
    attu_ast_case_when *whens = alloc(m, sizeof *whens * (size_t)n, err);
    attu_ast_expr *e = whens ? mk(m, ATTU_EXPR_CASE, pos, 1, err) : NULL;
    if (!e) return NULL;
    int j = 0, depth = 1;
    for (int k = 0; k < m->ncl; k++) {
        const attu_ast_merge_when *w = m->cl[k].w;
        if (w->matched != matched) continue;
        whens[j].when = w->cond ? w->cond : true_lit(m, w->position, err);
        whens[j].then = int_lit(m, k + 1, w->position, err);
        if (!whens[j].when || !whens[j].then) return NULL;
        depth = maxd(depth, whens[j].when->depth);
        j++;
    }
    e->u.case_.whens = whens;
    e->u.case_.nwhens = n;
    if (!(e->u.case_.else_ = int_lit(m, 0, pos, err))) return NULL;
    e->depth = depth + 1;
    return e;
}

/* The target's rowid: NULL where the source row matched nothing. */
static attu_ast_expr *rowid_ref(merge_ctx *m, attu_error *err) {
    attu_ast_expr *e = mk(m, ATTU_EXPR_COLUMN, m->st->u.modify.table_position, 1, err);
    if (!e) return NULL;
    e->u.column.qualifier = (char *)m->qual;
    e->u.column.name = (char *)ATTU_ROWID_INTERNAL;
    return e;
}

/* CASE WHEN rowid IS NULL THEN <not matched> ELSE <matched> END */
static attu_ast_expr *action_expr(merge_ctx *m, attu_error *err) {
    int pos = m->st->position;
    attu_ast_expr *mc = side_case(m, true, err), *nc = mc ? side_case(m, false, err) : NULL;
    attu_ast_expr *isnull = nc ? mk(m, ATTU_EXPR_IS, pos, 2, err) : NULL;
    attu_ast_case_when *w = isnull ? alloc(m, sizeof *w, err) : NULL;
    attu_ast_expr *e = w ? mk(m, ATTU_EXPR_CASE, pos, 1, err) : NULL;
    if (!e || !(isnull->u.is.arg = rowid_ref(m, err))) return NULL;
    isnull->u.is.what = ATTU_IS_NULL;
    w->when = isnull;
    w->then = nc;
    e->u.case_.whens = w;
    e->u.case_.nwhens = 1;
    e->u.case_.else_ = mc;
    e->depth = maxd(mc->depth, nc->depth) + 2;
    return e;
}

/* CASE WHEN <action> = k THEN v END: v only for the rows clause k takes. */
static attu_ast_expr *guarded(merge_ctx *m, int k, attu_ast_expr *v, attu_error *err) {
    attu_ast_expr *eq = mk(m, ATTU_EXPR_BINARY, v->position, 1, err);
    attu_ast_case_when *w = eq ? alloc(m, sizeof *w, err) : NULL;
    attu_ast_expr *e = w ? mk(m, ATTU_EXPR_CASE, v->position, 1, err) : NULL;
    if (!e || !(eq->u.binary.right = int_lit(m, k + 1, v->position, err))) return NULL;
    eq->u.binary.op = ATTU_BINOP_EQ;
    eq->u.binary.op_text = "=";
    eq->u.binary.left = m->action;
    eq->depth = m->action->depth + 1;
    w->when = eq;
    w->then = v;
    e->u.case_.whens = w;
    e->u.case_.nwhens = 1;
    e->depth = maxd(eq->depth, v->depth) + 1;
    return e;
}

/* A string literal, NULL or parameter: typed by its target column, as
 * INSERT and UPDATE type one (db_modify.c) -- except into a plain TEXT
 * column, where it is text already (and varchar(n) must still fail on a
 * long one, 22001, rather than be cut as a CAST would). */
static attu_ast_expr *typed_value(merge_ctx *m, attu_ast_expr *v, int c, attu_error *err) {
    bool untyped = v->kind == ATTU_EXPR_PARAM ||
                   (v->kind == ATTU_EXPR_LITERAL &&
                    (v->u.literal.kind == ATTU_LIT_STRING || v->u.literal.kind == ATTU_LIT_NULL));
    attu_type ct = m->base->defs[c].type;
    if (!untyped || (ct.id == ATTU_TYPE_TEXT && !attu_type_is_array(ct) && !attu_type_is_typed_text(ct))) return v;
    return db_cast_to_column(m->arena, m->base, v, c, v->position, err);
}

static int identity_always_error(const merge_ctx *m, int c, bool update, attu_error *err) {
    const char *name = m->base->defs[c].name;
    if (update) attu_error_set(err, "428C9", 0, "column \"%s\" can only be updated to DEFAULT", name);
    else attu_error_set(err, "428C9", 0, "cannot insert a non-DEFAULT value into column \"%s\"", name);
    snprintf(err->detail, sizeof err->detail, "Column \"%s\" is an identity column defined as GENERATED ALWAYS.", name);
    if (!update) snprintf(err->hint, sizeof err->hint, "Use OVERRIDING SYSTEM VALUE to override.");
    return -1;
}

/* UPDATE SET of clause k: the columns (42703, 42601, 428C9), DEFAULTs
 * replaced by the columns' DEFAULT expressions (db_values_defaults). */
static int prepare_update(merge_ctx *m, int k, attu_ast_expr **vals, attu_error *err) {
    merge_clause *c = &m->cl[k];
    const attu_ast_merge_when *w = c->w;
    c->cols = alloc(m, sizeof *c->cols * (size_t)w->nsets, err);
    c->positions = alloc(m, sizeof *c->positions * (size_t)w->nsets, err);
    attu_ast_expr **items = alloc(m, sizeof *items * (size_t)w->nsets, err);
    c->seq = alloc(m, sizeof *c->seq * (size_t)w->nsets, err);
    if (!c->cols || !c->positions || !items || !c->seq) return -1;
    if (db_check_dml_items(w->sets, w->nsets, NULL, 0, err)) return -1;
    int n = 0;
    for (int i = 0; i < w->nsets; i++) {
        const attu_ast_set_item *it = &w->sets[i];
        int col = attu_table_find_column(m->base, it->column);
        if (col < 0)
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, it->position,
                                  "column \"%s\" of relation \"%s\" does not exist", it->column, m->base->name);
        for (int j = 0; j < n; j++)
            if (c->cols[j] == col)
                return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "multiple assignments to same column \"%s\"",
                                      it->column);
        if (it->value->kind != ATTU_EXPR_DEFAULT && m->base->defs[col].generated)
            return db_generated_refuse(m->base, col, true, err);
        if (it->value->kind != ATTU_EXPR_DEFAULT &&
            db_sequence_identity(m->s, m->base->name, m->base->defs[col].name) == 'a')
            return identity_always_error(m, col, true, err);
        c->cols[n] = col;
        c->positions[n] = it->value->position;
        items[n] = it->value;
        c->seq[n] = false;
        if (it->value->kind == ATTU_EXPR_DEFAULT) {
            /* a serial / identity column: a NULL stand-in here, one
             * number per updated row once the rows are known (draw_sequences) */
            char *seq = db_default_sequence(attu_catalog_default(db_cat(m->s), m->base->name, col));
            if (seq) {
                free(seq);
                attu_ast_expr *z = mk(m, ATTU_EXPR_LITERAL, it->value->position, 1, err);
                if (!z) return -1;
                z->u.literal.kind = ATTU_LIT_NULL;
                z->u.literal.text = (char *)"null";
                z->u.literal.len = 4;
                items[n] = z;
                c->seq[n] = true;
                c->nseq++;
            }
        }
        n++;
    }
    c->nvals = n;
    /* the values as one VALUES row: its DEFAULT items become the
     * columns' DEFAULTs (or NULL), as UPDATE's */
    attu_ast_query *vq = alloc(m, sizeof *vq, err);
    attu_ast_expr_list *row = alloc(m, sizeof *row, err);
    if (!vq || !row) return -1;
    row->items = items;
    row->n = n;
    vq->kind = ATTU_QUERY_VALUES;
    vq->position = w->position;
    vq->u.values.rows = row;
    vq->u.values.nrows = 1;
    if (db_values_defaults(m->s, m->base, c->cols, n, vq, &m->vcopies[k], err)) return -1;
    for (int i = 0; i < n; i++) {
        attu_ast_expr *v = m->vcopies[k].q->u.values.rows[0].items[i];
        if (!(vals[i] = typed_value(m, v, c->cols[i], err))) return -1;
    }
    return 0;
}

/* INSERT of clause k: the target columns (42703, 42701), the counts
 * (42601 at PostgreSQL's positions), identity columns (428C9); DEFAULT
 * items are left out, to take the columns' DEFAULTs as left-out columns
 * do (db_eval_defaults). */
static int prepare_insert(merge_ctx *m, int k, attu_ast_expr **vals, attu_error *err) {
    merge_clause *c = &m->cl[k];
    const attu_ast_merge_when *w = c->w;
    const attu_table *b = m->base;
    int ncols = w->columns.n ? w->columns.n : b->ncols;
    int *tcol = alloc(m, sizeof *tcol * (size_t)(ncols + 1), err);
    c->cols = alloc(m, sizeof *c->cols * (size_t)(ncols + 1), err);
    c->positions = alloc(m, sizeof *c->positions * (size_t)(ncols + 1), err);
    if (!tcol || !c->cols || !c->positions) return -1;
    for (int i = 0; i < ncols; i++) {
        tcol[i] = i;
        if (!w->columns.n) continue;
        int pos = w->columns.positions ? w->columns.positions[i] : w->position;
        int col = attu_table_find_column(b, w->columns.items[i]);
        if (col < 0)
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, pos, "column \"%s\" of relation \"%s\" does not exist",
                                  w->columns.items[i], b->name);
        for (int j = 0; j < i; j++)
            if (tcol[j] == col)
                return attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_COLUMN, pos, "column \"%s\" specified more than once",
                                      b->defs[col].name);
        tcol[i] = col;
    }
    int nv = w->values.n;
    if (nv > ncols)
        return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, w->values.items[ncols]->position,
                              "INSERT has more expressions than target columns");
    if (nv && nv < ncols && w->columns.n)
        return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, w->columns.positions ? w->columns.positions[nv] : w->position,
                              "INSERT has more target columns than expressions");
    int n = 0;
    for (int i = 0; i < nv; i++) {
        attu_ast_expr *v = w->values.items[i];
        int col = tcol[i];
        char id = db_sequence_identity(m->s, b->name, b->defs[col].name);
        if (v->kind == ATTU_EXPR_DEFAULT) continue;
        if (b->defs[col].generated) return db_generated_refuse(b, col, false, err);
        if (id && w->overriding == 'u') continue;   /* OVERRIDING USER VALUE: the DEFAULT instead */
        if (id == 'a' && w->overriding != 's') return identity_always_error(m, col, false, err);
        c->cols[n] = col;
        c->positions[n] = v->position;
        if (!(vals[n] = typed_value(m, v, col, err))) return -1;
        n++;
    }
    c->nvals = n;
    return 0;
}

/* 42P01 / 42703 for what a NOT MATCHED clause may not read: its
 * condition and values are bound over the source alone (not run); an
 * error that names the target becomes PostgreSQL's. */
static int check_not_matched(merge_ctx *m, const char *sql, const attu_bind_params *params, attu_error *err) {
    const attu_ast_stmt *st = m->st;
    int n = 0;
    for (int k = 0; k < m->ncl; k++) {
        const attu_ast_merge_when *w = m->cl[k].w;
        if (w->matched) continue;
        n += (w->cond != NULL) + w->values.n;
    }
    if (!n) return 0;
    attu_ast_select_item *items = alloc(m, sizeof *items * (size_t)n, err);
    attu_ast_from **from = alloc(m, sizeof *from, err);
    attu_ast_query *q = alloc(m, sizeof *q, err);
    if (!items || !from || !q) return -1;
    int j = 0, depth = 1;
    for (int k = 0; k < m->ncl; k++) {
        const attu_ast_merge_when *w = m->cl[k].w;
        if (w->matched) continue;
        if (w->cond) items[j++].expr = w->cond;
        for (int i = 0; i < w->values.n; i++)
            if (w->values.items[i]->kind != ATTU_EXPR_DEFAULT) items[j++].expr = w->values.items[i];
    }
    for (int i = 0; i < j; i++) depth = maxd(depth, items[i].expr->depth);
    if (!j) return 0;
    from[0] = st->u.modify.from.items[0];
    q->with.items = st->u.modify.with;
    q->with.n = st->u.modify.nwith;
    q->with.recursive = st->u.modify.with_recursive;
    q->kind = ATTU_QUERY_SELECT;
    q->position = st->position;
    q->depth = maxd(depth, from[0]->depth) + 1;
    q->u.select.items = items;
    q->u.select.nitems = j;
    q->u.select.from.items = from;
    q->u.select.from.n = 1;
    attu_plan_arena *pa = attu_plan_arena_new();
    if (!pa) return attu_error_oom(err);
    attu_bind_params bp = db_describe_params(m->s, params, true);
    attu_lplan *lp = attu_bind_query(pa, db_cat(m->s), sql, q, &bp, err);
    attu_plan_arena_free(pa);
    if (lp) return 0;
    char want[200];
    snprintf(want, sizeof want, "missing FROM-clause entry for table \"%s\"", m->qual);
    if (!strcmp(err->sqlstate, "42P01") && !strcmp(err->message, want)) {
        snprintf(err->message, sizeof err->message, "invalid reference to FROM-clause entry for table \"%s\"", m->qual);
        snprintf(err->hint, sizeof err->hint,
                 "There is an entry for table \"%s\", but it cannot be referenced from this part of the query.", m->qual);
    } else if (!strcmp(err->sqlstate, "42703") && !err->hint[0]) {
        char name[128];
        if (sscanf(err->message, "column \"%127[^\"]\" does not exist", name) == 1 &&
            attu_table_find_column(m->base, name) >= 0)
            snprintf(err->hint, sizeof err->hint,
                     "There is a column named \"%s\" in table \"%s\", but it cannot be referenced from this part of the query.",
                     name, m->qual);
    }
    return -1;
}

/* 42712 when the source takes the target's name (PostgreSQL sees the
 * same name twice). */
static int check_name(const merge_ctx *m, const attu_ast_from *f, attu_error *err) {
    if (f->kind == ATTU_FROM_JOIN && !f->alias)
        return check_name(m, f->u.join.left, err) || check_name(m, f->u.join.right, err);
    const char *q = f->alias ? f->alias : f->kind == ATTU_FROM_TABLE ? f->u.table.name : NULL;
    if (q && !strcmp(q, m->qual)) {
        attu_error_set(err, "42712", 0, "name \"%s\" specified more than once", q);
        attu_error_set_detail(err, "The name is used both as MERGE target table and data source.");
        return -1;
    }
    return 0;
}

/* Builds m->q: SELECT rowid, action, the clauses' values FROM source
 * [LEFT] JOIN target ON cond. */
static int build_query(merge_ctx *m, const char *sql, const attu_bind_params *params, attu_error *err) {
    const attu_ast_stmt *st = m->st;
    for (int i = 0; i < st->u.modify.nwith; i++)
        if (!strcmp(st->u.modify.with[i].name, st->u.modify.table))
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, st->u.modify.with[i].position,
                                  "a WITH query named like the table that MERGE changes (\"%s\") is not supported",
                                  st->u.modify.table);
    if (check_name(m, st->u.modify.from.items[0], err)) return -1;
    m->ncl = st->u.modify.nwhens;
    m->cl = alloc(m, sizeof *m->cl * (size_t)m->ncl, err);
    m->vcopies = calloc((size_t)m->ncl + 1, sizeof *m->vcopies);
    if (!m->cl || !m->vcopies) return attu_error_oom(err);
    bool outer = false;
    for (int k = 0; k < m->ncl; k++) {
        m->cl[k].w = &st->u.modify.whens[k];
        if (!m->cl[k].w->matched) outer = true;
    }
    if (!(m->action = action_expr(m, err))) return -1;
    /* the values of each clause, typed, then guarded */
    attu_ast_expr ***vals = alloc(m, sizeof *vals * (size_t)m->ncl, err);
    if (!vals) return -1;
    int nitems = 2;
    for (int k = 0; k < m->ncl; k++) {
        const attu_ast_merge_when *w = m->cl[k].w;
        int cap = w->action == 'u' ? w->nsets : w->action == 'i' ? (w->columns.n ? w->columns.n : m->base->ncols) : 0;
        if (!(vals[k] = alloc(m, sizeof **vals * (size_t)(cap + 1), err))) return -1;
        if (w->action == 'u' && prepare_update(m, k, vals[k], err)) return -1;
        if (w->action == 'i' && prepare_insert(m, k, vals[k], err)) return -1;
        m->cl[k].first = nitems;
        nitems += m->cl[k].nvals;
    }
    if (check_not_matched(m, sql, params, err)) return -1;
    attu_ast_select_item *items = alloc(m, sizeof *items * (size_t)nitems, err);
    attu_ast_from **from = alloc(m, sizeof *from, err);
    attu_ast_from *join = alloc(m, sizeof *join, err);
    attu_ast_from *target = alloc(m, sizeof *target, err);
    if (!items || !from || !join || !target) return -1;
    if (!(items[0].expr = rowid_ref(m, err))) return -1;
    items[1].expr = m->action;
    int depth = m->action->depth;
    for (int k = 0; k < m->ncl; k++)
        for (int i = 0; i < m->cl[k].nvals; i++) {
            attu_ast_expr *g = guarded(m, k, vals[k][i], err);
            if (!g) return -1;
            items[m->cl[k].first + i].expr = g;
            depth = maxd(depth, g->depth);
        }
    target->kind = ATTU_FROM_TABLE;
    target->position = st->u.modify.table_position;
    target->depth = 1;
    target->alias = st->u.modify.alias;
    target->u.table.name = st->u.modify.table;
    target->u.table.schema = db_rel_schema(st);
    const attu_ast_from *src = st->u.modify.from.items[0];
    join->kind = ATTU_FROM_JOIN;
    join->position = src->position;
    join->depth = maxd(src->depth, st->u.modify.where->depth) + 1;
    join->u.join.type = outer ? ATTU_JOIN_LEFT : ATTU_JOIN_INNER;
    join->u.join.left = (attu_ast_from *)src;
    join->u.join.right = target;
    join->u.join.on = st->u.modify.where;
    from[0] = join;
    attu_ast_query *q = &m->q;
    q->with.items = st->u.modify.with;
    q->with.n = st->u.modify.nwith;
    q->with.recursive = st->u.modify.with_recursive;
    q->kind = ATTU_QUERY_SELECT;
    q->position = st->position;
    q->depth = maxd(depth, join->depth) + 1;
    q->u.select.items = items;
    q->u.select.nitems = nitems;
    q->u.select.from.items = from;
    q->u.select.from.n = 1;
    m->nitems = nitems;
    return 0;
}

/* The binder's errors as PostgreSQL's parse of MERGE words them: the
 * target's own name under an alias, a clause's condition not boolean. */
static void merge_error(const merge_ctx *m, attu_error *err) {
    const attu_ast_stmt *st = m->st;
    char want[200];
    snprintf(want, sizeof want, "missing FROM-clause entry for table \"%s\"", st->u.modify.table);
    if (st->u.modify.alias && strcmp(st->u.modify.alias, st->u.modify.table) && !strcmp(err->sqlstate, "42P01") &&
        !strcmp(err->message, want)) {
        snprintf(err->message, sizeof err->message, "invalid reference to FROM-clause entry for table \"%s\"",
                 st->u.modify.table);
        snprintf(err->hint, sizeof err->hint, "Perhaps you meant to reference the table alias \"%s\".", st->u.modify.alias);
        return;
    }
    /* the target's name from inside the source (a LATERAL subquery): the
     * target is there, but not for the source to read */
    snprintf(want, sizeof want, "missing FROM-clause entry for table \"%s\"", m->qual);
    if (!strcmp(err->sqlstate, "42P01") && !strcmp(err->message, want)) {
        snprintf(err->message, sizeof err->message, "invalid reference to FROM-clause entry for table \"%s\"", m->qual);
        snprintf(err->hint, sizeof err->hint,
                 "There is an entry for table \"%s\", but it cannot be referenced from this part of the query.", m->qual);
        return;
    }
    const char *cw = "argument of CASE/WHEN must be";
    if (!strcmp(err->sqlstate, "42804") && !strncmp(err->message, cw, strlen(cw)))
        for (int k = 0; k < m->ncl; k++)
            if (m->cl[k].w->cond && m->cl[k].w->cond->position == err->position) {
                char rest[400];
                snprintf(rest, sizeof rest, "%s", err->message + strlen("argument of CASE/WHEN"));
                snprintf(err->message, sizeof err->message, "argument of WHEN%s", rest);
                return;
            }
}

/* Binds m->q and assigns each value to its column's type. */
static attu_lplan *bind_query(merge_ctx *m, const char *sql, const attu_bind_params *params, attu_plan_arena *pa,
                              attu_error *err) {
    attu_bind_params bp = db_params(m->s, params);
    attu_lplan *lp = attu_bind_query(pa, db_cat(m->s), sql, &m->q, &bp, err);
    if (!lp) { merge_error(m, err); return NULL; }
    attu_lplan *p = attu_lp_new(pa, LP_PROJECT, lp->ncols);
    if (!p) { attu_error_oom(err); return NULL; }
    p->left = lp;
    p->exprs = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)(lp->ncols + 1));
    if (!p->exprs) { attu_error_oom(err); return NULL; }
    for (int i = 0; i < lp->ncols; i++) {
        attu_bexpr *c = attu_bx_col(pa, i, lp->types[i]);
        if (!c) { attu_error_oom(err); return NULL; }
        p->exprs[i] = c;
        p->types[i] = lp->types[i];
        p->names[i] = lp->names[i];
    }
    for (int k = 0; k < m->ncl; k++)
        for (int j = 0; j < m->cl[k].nvals; j++) {
            int i = m->cl[k].first + j;
            const attu_column_def *def = &m->base->defs[m->cl[k].cols[j]];
            p->exprs[i]->position = m->cl[k].positions[j];
            if (!(p->exprs[i] = attu_bind_coerce_assign(pa, p->exprs[i], def->type, def->name, err))) return NULL;
            p->types[i] = def->type;
        }
    p->est_rows = lp->est_rows;
    return p;
}

static int run_query_once(merge_ctx *m, const char *sql, const attu_bind_params *params, attu_plan_arena *pa,
                          attu_lplan **lp_out, attu_column ***cols, size_t *nrows, attu_error *err) {
    attu_lplan *lp = bind_query(m, sql, params, pa, err);
    if (lp) lp = attu_rewrite(pa, lp, err);
    attu_stage *stg = lp ? attu_lower(lp, err) : NULL;
    if (!stg) return -1;
    int rc = db_run_stage(m->s, stg, false, cols, nrows, err);
    attu_stage_free(stg);
    *lp_out = lp;
    return rc;
}

/* As db_modify.c's: a failed run whose conditional subqueries ran batched
 * runs again with them per binding; nothing changed before either. */
static int run_query(merge_ctx *m, const char *sql, const attu_bind_params *params, attu_plan_arena *pa,
                     attu_lplan **lp_out, attu_column ***cols, size_t *nrows, attu_error *err) {
    attu_bind_params bp;
    memset(&bp, 0, sizeof bp);
    if (params) bp = *params;
    bool batched = false;
    bp.cond_batched = &batched;
    int rc = run_query_once(m, sql, &bp, pa, lp_out, cols, nrows, err);
    if (!rc || !db_retry_per_binding(batched, err)) return rc;
    attu_error_clear(err);
    bp.cond_per_binding = true;
    bp.cond_batched = NULL;
    return run_query_once(m, sql, &bp, pa, lp_out, cols, nrows, err);
}

/* The context, the arenas, the lock (write to run, read to explain) and
 * the target: 42P01, and PostgreSQL 15's 0A000 for a view. */
static int merge_open(merge_ctx *m, attu_session *s, const attu_ast_stmt *st, bool write, attu_plan_arena **pa,
                      attu_error *err) {
    memset(m, 0, sizeof *m);
    m->s = s;
    m->st = st;
    m->qual = st->u.modify.alias ? st->u.modify.alias : st->u.modify.table;
    m->running = write;
    *pa = attu_plan_arena_new();
    m->arena = attu_ast_arena_new();
    if (write) db_write_lock(s);
    else pthread_rwlock_rdlock(&s->db->lock);
    if (!*pa || !m->arena) return attu_error_oom(err);
    m->base = attu_catalog_lookup(db_cat(s), st->u.modify.table);
    if (m->base) return 0;
    const attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), st->u.modify.table);
    if (v) {
        attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "cannot execute MERGE on relation \"%s\"",
                       st->u.modify.table);
        attu_error_set_detail(err, v->kind == 'm' ? "This operation is not supported for materialized views."
                                                  : "This operation is not supported for views.");
        return -1;
    }
    return db_no_such_table(s, st->u.modify.table, st->u.modify.table_position, err);
}

static void merge_close(merge_ctx *m, attu_plan_arena *pa) {
    pthread_rwlock_unlock(&m->s->db->lock);
    for (int k = 0; m->vcopies && k < m->ncl; k++) db_values_copy_free(&m->vcopies[k]);
    free(m->vcopies);
    for (int k = 0; m->cl && k < m->ncl; k++) { free(m->cl[k].src_row); free(m->cl[k].rows); }
    attu_ast_arena_free(m->arena);
    attu_plan_arena_free(pa);
}

/* The action of query row i (0: none). */
static int action_at(const attu_column *c, size_t i) {
    if (attu_column_is_null(c, i)) return 0;
    if (attu_type_width(c->type.id) == 8) return (int)((const int64_t *)c->data)[i];
    if (attu_type_width(c->type.id) == 2) return ((const int16_t *)c->data)[i];
    return ((const int32_t *)c->data)[i];
}

/* Sorts the query's rows into the clauses' work: *ndel rows deleted
 * (keep[r] = 0), the UPDATE clauses' src_row, the INSERT clauses' rows;
 * 21000 for a target row that a second pair would change. */
static int classify(merge_ctx *m, attu_column **cols, size_t n, uint8_t *keep, size_t *ndel, size_t *count,
                    attu_error *err) {
    const attu_table *b = m->base;
    int64_t *touched = malloc(sizeof *touched * (b->nrows + 1));
    if (!touched) return attu_error_oom(err);
    for (size_t r = 0; r < b->nrows; r++) touched[r] = -1;
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        int a = action_at(cols[1], i);
        if (a <= 0 || a > m->ncl) continue;
        merge_clause *c = &m->cl[a - 1];
        char act = c->w->action;
        if (act == 'n') continue;
        if (act == 'i') {
            if (!c->rows && !(c->rows = malloc(sizeof *c->rows * (n + 1)))) { rc = attu_error_oom(err); break; }
            c->rows[c->nrows++] = i;
            (*count)++;
            continue;
        }
        int64_t r = ((const int64_t *)cols[0]->data)[i];
        if (attu_column_is_null(cols[0], i) || r < 0 || (size_t)r >= b->nrows) {
            rc = attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "MERGE: row %lld of \"%s\" out of range", (long long)r, b->name);
            break;
        }
        if (touched[r] >= 0) {
            attu_error_set(err, "21000", 0, "MERGE command cannot affect row a second time");
            attu_error_set_hint(err, "Ensure that not more than one source row matches any one target row.");
            rc = -1;
            break;
        }
        touched[r] = (int64_t)i;
        (*count)++;
        if (act == 'd') { keep[r] = 0; (*ndel)++; continue; }
        if (!c->src_row) {
            if (!(c->src_row = malloc(sizeof *c->src_row * (b->nrows + 1)))) { rc = attu_error_oom(err); break; }
            for (size_t x = 0; x < b->nrows; x++) c->src_row[x] = -1;
        }
        c->src_row[r] = (int64_t)i;
    }
    free(touched);
    return rc;
}

static int cmp_size(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* SET col = DEFAULT of serial / identity columns: one number per updated
 * row, drawn in the join's order (db_sequence.c), written into the
 * query's value columns at those rows. */
static int draw_sequences(merge_ctx *m, attu_column **cols, attu_error *err) {
    for (int k = 0; k < m->ncl; k++) {
        merge_clause *c = &m->cl[k];
        if (!c->nseq || !c->src_row) continue;
        size_t n = 0;
        size_t *rows = malloc(sizeof *rows * (m->base->nrows + 1));
        int *which = malloc(sizeof *which * ((size_t)c->nseq + 1));
        int *tcols = malloc(sizeof *tcols * ((size_t)c->nseq + 1));
        attu_column **drawn = calloc((size_t)c->nseq + 1, sizeof *drawn);
        int rc = rows && which && tcols && drawn ? 0 : attu_error_oom(err);
        for (size_t r = 0; !rc && r < m->base->nrows; r++)
            if (c->src_row[r] >= 0) rows[n++] = (size_t)c->src_row[r];
        if (!rc) qsort(rows, n, sizeof *rows, cmp_size);
        int j = 0;
        for (int i = 0; !rc && i < c->nvals; i++)
            if (c->seq[i]) { which[j] = i; tcols[j++] = c->cols[i]; }
        if (!rc && db_sequence_default_columns(m->s, m->base, tcols, c->nseq, n, drawn, err)) rc = -1;
        for (int q = 0; !rc && q < c->nseq; q++) {
            attu_column *dst = cols[c->first + which[q]], *src = drawn[q];
            size_t w = attu_type_width(dst->type.id);
            if (dst->type.id != src->type.id) {
                rc = attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "sequence DEFAULT of another type");
                break;
            }
            for (size_t r = 0; r < n; r++) {
                memcpy((char *)dst->data + rows[r] * w, (const char *)src->data + r * w, w);
                if (dst->validity) attu_column_set_null(dst, rows[r], false);
            }
            attu_column_invalidate_device(dst);   /* (the host data changed) */
        }
        for (int q = 0; drawn && q < c->nseq; q++) attu_column_free(drawn[q]);
        free(rows); free(which); free(tcols); free(drawn);
        if (rc) return rc;
    }
    return 0;
}

/* Over cur (the base, or its version without the deleted rows: newrow
 * maps a base row to its row there, -1 gone): the UPDATE clauses, then
 * the INSERT clauses' rows appended. *changed (malloc'd, one per row of
 * the result) marks the updated and the appended rows. */
static attu_table *apply_rest(merge_ctx *m, const attu_table *cur, const int64_t *newrow, attu_column **cols,
                              uint8_t **changed_out, attu_error *err) {
    attu_table *t = NULL;
    const attu_table *at = cur;
    uint8_t *upd = calloc(cur->nrows + 1, 1);
    int64_t *src = malloc(sizeof *src * (cur->nrows + 1));
    if (!upd || !src) { attu_error_oom(err); goto fail; }
    for (int k = 0; k < m->ncl; k++) {
        merge_clause *c = &m->cl[k];
        if (!c->src_row) continue;
        for (size_t r = 0; r < cur->nrows; r++) src[r] = -1;
        for (size_t r = 0; r < m->base->nrows; r++) {
            if (c->src_row[r] < 0) continue;
            int64_t nr = newrow ? newrow[r] : (int64_t)r;
            if (nr < 0) continue;
            src[nr] = c->src_row[r];
            upd[nr] = 1;
        }
        attu_table *nt = attu_table_update_rows(at, src, c->nvals, c->cols, cols + c->first, err);
        if (!nt) goto fail;
        if (t) attu_table_free(t);
        at = t = nt;
    }
    for (int k = 0; k < m->ncl; k++) {
        merge_clause *c = &m->cl[k];
        if (!c->nrows) continue;
        int ncols = m->base->ncols;
        int *map = malloc(sizeof *map * ((size_t)ncols + 1));
        attu_column **gsrc = calloc((size_t)c->nvals + 1, sizeof *gsrc);
        attu_column **all = NULL;
        attu_result *dres = NULL;
        attu_table *nt = NULL;
        int ok = map && gsrc;
        if (!ok) attu_error_oom(err);
        for (int i = 0; ok && i < c->nvals; i++)
            if (!(gsrc[i] = attu_column_gather(cols[c->first + i], c->rows, c->nrows, err))) ok = 0;
        if (ok) {
            for (int x = 0; x < ncols; x++) map[x] = -1;
            for (int i = 0; i < c->nvals; i++) map[c->cols[i]] = i;
            if (db_eval_defaults(m->s, m->base, map, c->nvals, c->nrows, &dres, err)) ok = 0;
        }
        if (ok && dres) {
            if (!(all = calloc((size_t)(c->nvals + dres->ncols) + 1, sizeof *all))) { attu_error_oom(err); ok = 0; }
            else {
                for (int i = 0; i < c->nvals; i++) all[i] = gsrc[i];
                for (int i = 0; i < dres->ncols; i++) all[c->nvals + i] = dres->cols[i];
            }
        }
        if (ok) nt = db_append_rows(at, all ? all : gsrc, map, c->nrows, err);
        for (int i = 0; gsrc && i < c->nvals; i++) attu_column_free(gsrc[i]);
        free(gsrc); free(all); free(map);
        attu_result_free(dres);
        if (!nt) goto fail;
        if (t) attu_table_free(t);
        at = t = nt;
    }
    if (!t && !(t = attu_table_update_rows(cur, src, 0, NULL, NULL, err))) goto fail;   /* (a copy) */
    uint8_t *changed = calloc(t->nrows + 1, 1);
    if (!changed) { attu_error_oom(err); goto fail; }
    memcpy(changed, upd, cur->nrows);
    for (size_t r = cur->nrows; r < t->nrows; r++) changed[r] = 1;
    free(upd); free(src);
    *changed_out = changed;
    return t;
fail:
    if (t) attu_table_free(t);
    free(upd); free(src);
    return NULL;
}

int db_exec_merge(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                  const attu_exec_callbacks *cb, attu_error *err) {
    merge_ctx m;
    attu_plan_arena *pa = NULL;
    attu_column **cols = NULL;
    attu_lplan *lp = NULL;
    size_t n = 0, ndel = 0, count = 0;
    uint8_t *keep = NULL, *changed = NULL;
    int64_t *newrow = NULL;
    attu_table *td = NULL, *tu = NULL;
    db_fkey_txn *fxd = NULL, *fxu = NULL;
    bool base_out = false;   /* the catalog holds td in place of the base */
    bool rep_d = false;      /* the deletions' foreign keys changed the table again */
    int rc = -1;
    if (merge_open(&m, s, st, true, &pa, err)) goto out;
    {
        /* (under data-modifying WITH queries: only a table whose rows
         * are where the statement read them, db_with_modify.c) */
        const int64_t *map;
        size_t nmap;
        if (db_with_target(s, params, m.base, st->u.modify.table_position, "MERGE", &map, &nmap, err)) goto out;
        for (size_t r = 0; map && r < nmap; r++)
            if (map[r] != (int64_t)r) {
                attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, st->u.modify.table_position,
                               "MERGE of table \"%s\" after another part of the statement updated or deleted its rows "
                               "is not supported", m.base->name);
                goto out;
            }
    }
    if (build_query(&m, sql, params, err) || run_query(&m, sql, params, pa, &lp, &cols, &n, err)) goto out;
    const attu_table *base = m.base;
    keep = malloc(base->nrows + 1);
    if (!keep) { attu_error_oom(err); goto out; }
    memset(keep, 1, base->nrows + 1);
    if (classify(&m, cols, n, keep, &ndel, &count, err) || draw_sequences(&m, cols, err)) goto out;
    bool rest = false;   /* updates or inserts */
    for (int k = 0; k < m.ncl; k++) rest |= m.cl[k].src_row != NULL || m.cl[k].nrows > 0;
    const attu_table *cur = base;
    if (ndel) {
        /* the deletions: a version of their own, its foreign key actions
         * run, put in the catalog (not saved) for the rest to build on */
        if (!(td = attu_table_keep_rows(base, keep, err))) goto out;
        if (db_fkey_statement(s, &td, base->nrows, NULL, keep, &rep_d, &fxd, err)) goto out;
        if (!rest) {
            if (db_save_table(s, td, err)) goto out;
            attu_table *old = attu_catalog_replace(db_cat(s), td);
            if (!rep_d) { db_unique_follow_delete(old, td, keep); db_cursors_follow(s, old, td, keep); }
            attu_table_free(old);
            td = NULL;
            db_fkey_txn *x = fxd;
            fxd = NULL;
            if (db_fkey_commit(s, x, err)) goto out;
            rc = 0;
            goto out;
        }
        newrow = malloc(sizeof *newrow * (base->nrows + 1));
        if (!newrow) { attu_error_oom(err); goto out; }
        int64_t j = 0;
        for (size_t r = 0; r < base->nrows; r++) newrow[r] = keep[r] ? j++ : -1;
        bool updates = false;
        for (int k = 0; k < m.ncl; k++) updates |= m.cl[k].src_row != NULL;
        if (rep_d && updates && td->nrows != base->nrows - ndel) {
            /* a foreign key of the table to itself deleted more of its
             * rows: the rows to update moved (not followed here) */
            attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                           "MERGE that deletes and updates rows is not supported when a foreign key of \"%s\" to itself cascades the deletion",
                           base->name);
            goto out;
        }
        attu_catalog_replace(db_cat(s), td);
        base_out = true;
        cur = td;
    }
    if (rest) {
        if (!(tu = apply_rest(&m, cur, newrow, cols, &changed, err))) goto out;
        if (db_generated_fill(s, &tu, 0, changed, err) || db_check_rows(s, tu, 0, changed, err) ||
            db_unique_check(s, tu, 0, changed, err))
            goto out;
        bool rep = false;
        if (db_fkey_statement(s, &tu, cur->nrows, changed, NULL, &rep, &fxu, err)) goto out;
        if (db_save_table(s, tu, err)) goto out;
        attu_table *old = attu_catalog_replace(db_cat(s), tu);   /* (cur) */
        if (base_out && !rep_d) {   /* (the base's indexes and cursors follow it to td first) */
            db_unique_follow_delete((attu_table *)base, td, keep);
            db_cursors_follow(s, base, td, keep);
        }
        if (!rep) { db_unique_follow(old, tu, changed); db_cursors_follow(s, old, tu, NULL); }
        tu = NULL;
        if (base_out) {
            /* the base's rows moved twice: base -> td -> the new version */
            attu_table_free((attu_table *)base);
            base_out = false;
        }
        attu_table_free(old);
        td = NULL;
        db_fkey_txn *x = fxd, *y = fxu;
        fxd = fxu = NULL;
        if (db_fkey_commit(s, x, err) || db_fkey_commit(s, y, err)) goto out;
    }
    rc = 0;
out:
    if (tu) attu_table_free(tu);
    if (fxu) db_fkey_abort(s, fxu);
    if (base_out) {   /* the second version failed: the base goes back */
        attu_table *t = attu_catalog_replace(db_cat(s), (attu_table *)m.base);
        if (t) attu_table_free(t);
        td = NULL;
    }
    if (td) attu_table_free(td);
    if (fxd) db_fkey_abort(s, fxd);
    if (cols && lp) for (int i = 0; i < lp->ncols; i++) attu_column_free(cols[i]);
    free(cols);
    free(keep); free(changed); free(newrow);
    merge_close(&m, pa);
    if (rc) return rc;
    char tag[64];
    snprintf(tag, sizeof tag, "MERGE %zu", count);
    return db_deliver_tag(cb, tag, err) ? -2 : 0;
}

int db_merge_describe(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                      attu_error *err) {
    merge_ctx m;
    attu_plan_arena *pa = NULL;
    int rc = -1;
    attu_bind_params dp;   /* described, not run: no nextval */
    memset(&dp, 0, sizeof dp);
    if (params) dp = *params;
    dp.no_side_effects = true;
    if (!merge_open(&m, s, st, false, &pa, err) && !build_query(&m, sql, &dp, err) && bind_query(&m, sql, &dp, pa, err))
        rc = 0;
    merge_close(&m, pa);
    return rc;
}

/* ---- EXPLAIN [ANALYZE] MERGE ---------------------------------------------------------------- */

/* "Merge on t" over the plan of the join query (the rows and the values
 * each clause takes; the new version is built on the host). ANALYZE runs
 * the statement first and shows its tag and time. */
int db_explain_merge(attu_session *s, const char *sql, const attu_ast_stmt *ex, const attu_bind_params *params,
                     const attu_exec_callbacks *cb, attu_error *err) {
    const attu_ast_stmt *st = ex->u.explain.stmt;
    db_explain_write w;
    memset(&w, 0, sizeof w);
    if (ex->u.explain.analyze) {
        int r = db_explain_write_run(s, sql, st, params, cb, db_exec_merge, &w, err);
        if (r) return r;
    }
    merge_ctx m;
    attu_plan_arena *pa = NULL;
    int rc = -1;
    if (merge_open(&m, s, st, false, &pa, err)) goto out;
    attu_lplan *lp = build_query(&m, sql, params, err) ? NULL : bind_query(&m, sql, params, pa, err);
    if (!lp) goto out;
    char head[160];
    snprintf(head, sizeof head, "Merge on %s", m.base->name);
    if (db_explain_write_lines(s, pa, lp, head, &w, err)) goto out;
    rc = 0;
out:
    merge_close(&m, pa);
    return db_explain_write_finish(cb, &w, rc, err);
}
