/*
 * db_modify.c - DELETE and UPDATE.
 *
 * Each is one query, then a new version of the table. The statement
 *
 *     DELETE FROM t [AS x] [USING u, ...] [WHERE c] [RETURNING r, ...]
 *     UPDATE t [AS x] SET a = e, ... [FROM u, ...] [WHERE c] [RETURNING r, ...]
 *
 * runs as the query
 *
 *     SELECT x.<rowid>, e, ..., r, ... FROM t AS x, u, ... WHERE c
 *
 * through the binder, the planner and the executor like any SELECT, so
 * WHERE may hold what a SELECT's may (joins with the USING / FROM tables,
 * subqueries, correlated ones too) and runs on either backend. The rowid
 * (binder.h ATTU_ROWID_INTERNAL) names each row that changes; a row that
 * the join finds more than once changes once, by its first match (which
 * one PostgreSQL takes is unspecified too). Each SET value is assigned to
 * its column's type as INSERT assigns (attu_bind_coerce_assign: 42804,
 * 22003, 22001, 22P02 ...), and it is evaluated only for the rows WHERE
 * keeps, as PostgreSQL evaluates it. Every SET value reads the row as it
 * was (SET a = a + 1, b = a: b gets the old a).
 *
 * The new table is then built beside the old one (engine/table_rewrite.h),
 * saved and swapped into the catalog under the write lock, as INSERT does
 * (db_ddl.c): queries of other sessions hold the read lock for their whole
 * run, so each sees the old table or the new one, and an error at any step
 * (in WHERE, in a SET value, 23502, the save) leaves the table, on disk
 * too, as it was.
 *
 * RETURNING items are more columns of the same query: DELETE's read the
 * deleted row (and the USING tables'); UPDATE's must read the new row, so
 * each reference to an assigned column of the target is replaced, before
 * binding, by its SET value cast to the column's type (a reference inside
 * a subquery of RETURNING still reads the old value: a difference from
 * PostgreSQL).
 */
#include "db/db_internal.h"
#include "db/db_generated.h"
#include "db/db_check.h"
#include "db/db_fkey.h"
#include "db/db_keyed_dml.h"
#include "db/db_unique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/storage.h"
#include "engine/table_rewrite.h"
#include "planner/explain.h"
#include "planner/lower.h"
#include "planner/rewrite.h"

typedef struct modify_ctx {
    attu_session        *s;
    const attu_ast_stmt *st;
    const attu_table    *base;
    attu_ast_arena      *arena;
    const char          *qual;       /* the target's alias, or its name */
    int                  nsets;
    int                 *set_cols;   /* table column of each SET item */
    attu_ast_expr      **values;     /* SET values, DEFAULTs replaced */
    db_values_copy       vcopy;      /* owns the replaced DEFAULTs */
    /* SET items that are DEFAULT of a DEFAULT nextval column (serial,
     * identity): bound as NULL, their values drawn per changed row after
     * the query ran (db_sequence.c), as PostgreSQL draws one per row */
    bool                *seq_set;
    int                  nseq_set;
    attu_ast_query       q;
    /* the generation expressions RETURNING reads (parsed from the
     * catalog's texts: db_generated.c), freed with the statement */
    attu_parse_result  **gen_parsed;
    int                  ngen_parsed;
    bool                 in_generated;   /* new_row_expr inside a generation expression */
    bool                 running;    /* to change the table, not to describe or EXPLAIN it */
} modify_ctx;

static void *alloc(modify_ctx *m, size_t n, attu_error *err) {
    void *p = attu_ast_alloc(m->arena, n ? n : 1);
    if (!p) attu_error_oom(err);
    return p;
}

static attu_ast_expr *column_ref(modify_ctx *m, const char *qual, const char *name, int pos, attu_error *err) {
    attu_ast_expr *e = alloc(m, sizeof *e, err);
    if (!e) return NULL;
    e->kind = ATTU_EXPR_COLUMN;
    e->position = pos;
    e->depth = 1;
    e->u.column.qualifier = (char *)qual;
    e->u.column.name = (char *)name;
    return e;
}

/* The SET item of table column c, or -1. */
static int set_of(const modify_ctx *m, int c) {
    for (int k = 0; k < m->nsets; k++) if (m->set_cols[k] == c) return k;
    return -1;
}

/* CAST(v AS the type of column c). */
static attu_ast_expr *new_value_of(modify_ctx *m, const attu_ast_expr *v, int c, int pos, attu_error *err) {
    attu_ast_expr *e = alloc(m, sizeof *e, err);
    if (!e) return NULL;
    attu_type t = m->base->defs[c].type;
    char buf[64];
    e->kind = ATTU_EXPR_CAST;
    e->position = pos;
    e->depth = v->depth + 1;
    e->u.cast.arg = (attu_ast_expr *)v;
    e->u.cast.syntax = ATTU_CAST_FUNCTION;
    e->u.cast.type.position = pos;
    e->u.cast.type.precision = e->u.cast.type.scale = -1;
    e->u.cast.type.ivrange = 0;
    if (t.id == ATTU_TYPE_DECIMAL) {
        e->u.cast.type.name = "numeric";
        e->u.cast.type.precision = t.precision;
        e->u.cast.type.scale = t.scale;
    } else if (t.id == ATTU_TYPE_TEXT && !attu_type_is_array(t) && !attu_type_is_typed_text(t)) {
        e->u.cast.type.name = "text";    /* the value already fits a varchar(n) / char(n) */
    } else if (attu_type_array_is_bpchar(t)) {
        /* "character[]" would read as char(1)[]: bpchar[], without the
         * column's modifier, which the assignment applies (22001, not cut) */
        e->u.cast.type.name = "bpchar[]";
    } else if (attu_type_is_qualified_interval(t)) {
        e->u.cast.type.name = "interval";
        e->u.cast.type.ivrange = attu_type_interval_range(t);
        e->u.cast.type.precision = attu_type_interval_prec(t);
    } else {
        e->u.cast.type.name = attu_ast_strdup(m->arena, attu_type_name(t, buf, sizeof buf));
        if (!e->u.cast.type.name) { attu_error_oom(err); return NULL; }
    }
    return e;
}

/* CAST(v AS the type of column c of base): MERGE's typing of an untyped
 * value by its target column (db_merge.c), as UPDATE's SET types one. */
attu_ast_expr *db_cast_to_column(attu_ast_arena *arena, const attu_table *base, const attu_ast_expr *v, int c, int pos,
                                 attu_error *err) {
    modify_ctx m;
    memset(&m, 0, sizeof m);
    m.arena = arena;
    m.base = base;
    return new_value_of(&m, v, c, pos, err);
}

/* The value column c takes: its SET value cast to its type. */
static attu_ast_expr *new_value(modify_ctx *m, int c, int pos, attu_error *err) {
    return new_value_of(m, m->values[set_of(m, c)], c, pos, err);
}

static void free_generated(modify_ctx *m) {
    for (int i = 0; i < m->ngen_parsed; i++) attu_parse_free(m->gen_parsed[i]);
    free(m->gen_parsed);
    m->gen_parsed = NULL;
    m->ngen_parsed = 0;
}

/* The target column a reference names (-1: another table's, or none). */
static int target_column(const modify_ctx *m, const attu_ast_expr *e) {
    if (e->u.column.qualifier && strcmp(e->u.column.qualifier, m->qual)) return -1;
    return attu_table_find_column(m->base, e->u.column.name);
}

static attu_ast_expr *new_row_expr(modify_ctx *m, const attu_ast_expr *e, attu_error *err);

/* Generated column c as RETURNING reads it after the UPDATE: its
 * expression over the new row (each reference to a column the UPDATE
 * assigns its new value, the others qualified by the target's name, so
 * that a FROM item's column of the same name is not read), cast to the
 * column's type. */
static attu_ast_expr *generated_new_value(modify_ctx *m, int c, int pos, attu_error *err) {
    const char *text = attu_catalog_default(db_cat(m->s), m->base->name, c);
    char *sql = malloc(strlen(text ? text : "NULL") + 16);
    if (!sql) { attu_error_oom(err); return NULL; }
    sprintf(sql, "SELECT %s", text ? text : "NULL");
    attu_parse_result *pr = attu_parse(sql, err);
    free(sql);
    if (!pr) return NULL;
    attu_parse_result **grown = realloc(m->gen_parsed, sizeof *grown * (size_t)(m->ngen_parsed + 1));
    if (!grown) { attu_parse_free(pr); attu_error_oom(err); return NULL; }
    m->gen_parsed = grown;
    m->gen_parsed[m->ngen_parsed++] = pr;
    const attu_ast_stmt *st = pr->n == 1 ? pr->stmts[0].stmt : NULL;
    if (!st || st->kind != ATTU_STMT_SELECT || st->u.select.query->kind != ATTU_QUERY_SELECT ||
        st->u.select.query->u.select.nitems != 1) {
        attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "the generation expression of \"%s\" does not parse",
                       m->base->defs[c].name);
        return NULL;
    }
    bool was = m->in_generated;
    m->in_generated = true;
    attu_ast_expr *v = new_row_expr(m, st->u.select.query->u.select.items[0].expr, err);
    m->in_generated = was;
    return v ? new_value_of(m, v, c, pos, err) : NULL;
}

/* Column c as RETURNING reads it after the UPDATE. */
static attu_ast_expr *column_after(modify_ctx *m, int c, int pos, attu_error *err) {
    if (m->base->defs[c].generated) return generated_new_value(m, c, pos, err);
    if (set_of(m, c) >= 0) return new_value(m, c, pos, err);
    return column_ref(m, m->qual, m->base->defs[c].name, pos, err);
}

static int new_row_list(modify_ctx *m, attu_ast_expr_list *l, attu_error *err) {
    if (!l->n) return 0;
    attu_ast_expr **items = alloc(m, sizeof *items * (size_t)l->n, err);
    if (!items) return -1;
    for (int i = 0; i < l->n; i++)
        if (!(items[i] = new_row_expr(m, l->items[i], err))) return -1;
    l->items = items;
    return 0;
}

#define SUB(f) do { if ((f) && !((f) = new_row_expr(m, (f), err))) return NULL; } while (0)

/* A copy of RETURNING expression e of an UPDATE that reads the new row:
 * each reference to an assigned target column becomes its new value.
 * Subqueries are not entered (they still read the old row). */
/* The target's whole row as RETURNING reads it after the UPDATE: ROW(each
 * column's new value, or its old one where it is not assigned). */
static attu_ast_expr *new_whole_row(modify_ctx *m, int pos, attu_error *err) {
    int n = m->base->ncols;
    attu_ast_expr **items = alloc(m, sizeof *items * (size_t)(n + 1), err);
    attu_ast_expr *e = items ? alloc(m, sizeof *e, err) : NULL;
    if (!e) return NULL;
    int depth = 1;
    for (int c = 0; c < n; c++) {
        items[c] = column_after(m, c, pos, err);
        if (!items[c]) return NULL;
        if (items[c]->depth > depth) depth = items[c]->depth;
    }
    memset(e, 0, sizeof *e);
    e->kind = ATTU_EXPR_FUNC;
    e->position = pos;
    e->depth = depth + 1;
    e->u.func.name = "row";
    e->u.func.args.items = items;
    e->u.func.args.n = n;
    return e;
}

static attu_ast_expr *new_row_expr(modify_ctx *m, const attu_ast_expr *e, attu_error *err) {
    if (e->kind == ATTU_EXPR_COLUMN) {
        /* the target's name alone, no column of its own: its whole row
         * (planner/row_value.c), with the new values */
        if (!e->u.column.qualifier && !strcmp(e->u.column.name, m->qual) &&
            attu_table_find_column(m->base, e->u.column.name) < 0)
            return new_whole_row(m, e->position, err);
        int c = target_column(m, e);
        if (m->in_generated) {
            /* (a generation expression's reference: the target's column) */
            c = attu_table_find_column(m->base, e->u.column.name);
            if (c < 0) return (attu_ast_expr *)e;
            return set_of(m, c) >= 0 ? new_value(m, c, e->position, err)
                                     : column_ref(m, m->qual, m->base->defs[c].name, e->position, err);
        }
        if (c >= 0 && m->base->defs[c].generated) return generated_new_value(m, c, e->position, err);
        return c >= 0 && set_of(m, c) >= 0 ? new_value(m, c, e->position, err) : (attu_ast_expr *)e;
    }
    attu_ast_expr *x = alloc(m, sizeof *x, err);
    if (!x) return NULL;
    *x = *e;
    switch (e->kind) {
    case ATTU_EXPR_UNARY: SUB(x->u.unary.arg); break;
    case ATTU_EXPR_BINARY: SUB(x->u.binary.left); SUB(x->u.binary.right); break;
    case ATTU_EXPR_IS: SUB(x->u.is.arg); break;
    case ATTU_EXPR_BETWEEN: SUB(x->u.between.arg); SUB(x->u.between.low); SUB(x->u.between.high); break;
    case ATTU_EXPR_IN_LIST:
        SUB(x->u.in_list.arg);
        if (new_row_list(m, &x->u.in_list.list, err)) return NULL;
        break;
    case ATTU_EXPR_IN_SUBQUERY: SUB(x->u.in_subquery.arg); break;
    case ATTU_EXPR_QUANTIFIED: SUB(x->u.quantified.arg); break;
    case ATTU_EXPR_LIKE: SUB(x->u.like.arg); SUB(x->u.like.pattern); SUB(x->u.like.escape); break;
    case ATTU_EXPR_CASE: {
        SUB(x->u.case_.operand);
        attu_ast_case_when *w = alloc(m, sizeof *w * (size_t)e->u.case_.nwhens, err);
        if (!w) return NULL;
        for (int i = 0; i < e->u.case_.nwhens; i++) {
            w[i] = e->u.case_.whens[i];
            SUB(w[i].when);
            SUB(w[i].then);
        }
        x->u.case_.whens = w;
        SUB(x->u.case_.else_);
        break;
    }
    case ATTU_EXPR_CAST: SUB(x->u.cast.arg); break;
    case ATTU_EXPR_EXTRACT: SUB(x->u.extract.arg); break;
    case ATTU_EXPR_FUNC:
        if (new_row_list(m, &x->u.func.args, err)) return NULL;
        SUB(x->u.func.filter);
        break;
    default: break;
    }
    /* (depth stays e's: only the parser's limit reads it, and that was
     * checked on the text as written) */
    return x;
}

/* The qualifiers a * over FROM item f expands to (its tables' and
 * subqueries' names), appended to out as qualified stars. */
static int from_stars(modify_ctx *m, const attu_ast_from *f, attu_ast_select_item *out, int *n, int pos,
                      attu_error *err) {
    const char *q = f->alias;
    if (!q && f->kind == ATTU_FROM_TABLE) q = f->u.table.name;
    if (!q && f->kind == ATTU_FROM_JOIN)
        return from_stars(m, f->u.join.left, out, n, pos, err) || from_stars(m, f->u.join.right, out, n, pos, err);
    if (!q)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos,
                              "RETURNING * of an UPDATE over a FROM item without a name is not supported; list the columns");
    attu_ast_expr *e = alloc(m, sizeof *e, err);
    if (!e) return -1;
    e->kind = ATTU_EXPR_STAR;
    e->position = pos;
    e->depth = 1;
    e->u.star.qualifier = (char *)q;
    out[(*n)++] = (attu_ast_select_item){ e, NULL, 0 };
    return 0;
}

static int count_from_items(const attu_ast_from *f) {
    if (f->kind == ATTU_FROM_JOIN && !f->alias) return count_from_items(f->u.join.left) + count_from_items(f->u.join.right);
    return 1;
}

/* UPDATE's RETURNING items, reading the new row (* expanded to the
 * target's columns, then the FROM items'). */
static int update_returning(modify_ctx *m, attu_ast_select_item **out, int *nout, attu_error *err) {
    const attu_ast_stmt *st = m->st;
    int cap = 0;
    for (int i = 0; i < st->u.modify.nreturning; i++) {
        cap += m->base->ncols + 1;
        for (int f = 0; f < st->u.modify.from.n; f++) cap += count_from_items(st->u.modify.from.items[f]);
    }
    attu_ast_select_item *items = alloc(m, sizeof *items * (size_t)(cap + 1), err);
    if (!items) return -1;
    int n = 0;
    for (int i = 0; i < st->u.modify.nreturning; i++) {
        const attu_ast_select_item *it = &st->u.modify.returning[i];
        const attu_ast_expr *e = it->expr;
        bool star = e->kind == ATTU_EXPR_STAR;
        if (star && e->u.star.qualifier && strcmp(e->u.star.qualifier, m->qual)) { items[n++] = *it; continue; }
        if (star) {
            for (int c = 0; c < m->base->ncols; c++) {
                attu_ast_expr *v = column_after(m, c, e->position, err);
                if (!v) return -1;
                items[n++] = (attu_ast_select_item){ v, m->base->defs[c].name, 0 };
            }
            if (!e->u.star.qualifier)
                for (int f = 0; f < st->u.modify.from.n; f++)
                    if (from_stars(m, st->u.modify.from.items[f], items, &n, e->position, err)) return -1;
            continue;
        }
        attu_ast_expr *v = new_row_expr(m, e, err);
        if (!v) return -1;
        items[n] = *it;
        items[n].expr = v;
        /* a bare reference keeps its column's name, as PostgreSQL's */
        if (!it->alias && e->kind == ATTU_EXPR_COLUMN && v != e) items[n].alias = e->u.column.name;
        n++;
    }
    *out = items;
    *nout = n;
    return 0;
}

/* A string literal, NULL or parameter: a value without a type of its
 * own, which a SELECT list would make TEXT. */
static bool untyped(const attu_ast_expr *e) {
    return e->kind == ATTU_EXPR_PARAM ||
           (e->kind == ATTU_EXPR_LITERAL && (e->u.literal.kind == ATTU_LIT_STRING || e->u.literal.kind == ATTU_LIT_NULL));
}

/* An untyped value given its column's type, as PostgreSQL types a SET
 * value by its target (a literal read by the type's input function:
 * 'yes' into a boolean, '7' into a smallint, 22P02 for 'abc'). Not used
 * for TEXT columns, where the value is text already and varchar(n) must
 * still fail on a long one (22001) rather than be cut as a CAST would. */
static attu_ast_expr *typed_as_column(modify_ctx *m, attu_ast_expr *v, int c, attu_error *err) {
    return new_value_of(m, v, c, v->position, err);
}

/* SET a[i] = v (the grammar's " array_assign" of the subscripted column
 * and the value) */
static bool is_array_assign(const attu_ast_expr *e) {
    return e && e->kind == ATTU_EXPR_FUNC && !strcmp(e->u.func.name, " array_assign") && e->u.func.args.n == 2;
}

/* SET a[1] = x, a[2] = y: PostgreSQL applies the subscripted assignments
 * to one column in order, each to the array the one before made (all
 * reading the row as it was): the later one's subscripts are put on the
 * earlier assignment's result. */
static attu_ast_expr *chain_array_assign(modify_ctx *m, attu_ast_expr *prev, const attu_ast_expr *next,
                                         attu_error *err) {
    attu_ast_expr *target = db_rebase_subscripts(m->arena, next->u.func.args.items[0], prev, err);
    attu_ast_expr *c = target ? alloc(m, sizeof *c, err) : NULL;
    attu_ast_expr **items = c ? alloc(m, sizeof *items * 2, err) : NULL;
    if (!items) return NULL;
    *c = *next;
    items[0] = target;
    items[1] = next->u.func.args.items[1];
    c->u.func.args.items = items;
    c->depth = (target->depth > items[1]->depth ? target->depth : items[1]->depth) + 1;
    return c;
}

/* Checks UPDATE's SET list against the table (42703, 42601) and replaces
 * its DEFAULT items (db_values_defaults, as INSERT's VALUES). */
static int check_sets(modify_ctx *m, attu_error *err) {
    const attu_ast_stmt *st = m->st;
    m->nsets = st->u.modify.nsets;
    m->set_cols = alloc(m, sizeof *m->set_cols * (size_t)m->nsets, err);
    attu_ast_expr **items = alloc(m, sizeof *items * (size_t)m->nsets, err);
    if (!m->set_cols || !items) return -1;
    int nsets = 0;
    for (int k = 0; k < m->nsets; k++) {
        const attu_ast_set_item *it = &st->u.modify.sets[k];
        int c = attu_table_find_column(m->base, it->column);
        if (c < 0)
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, it->position,
                                  "column \"%s\" of relation \"%s\" does not exist", it->column, m->base->name);
        int j = 0;
        while (j < nsets && m->set_cols[j] != c) j++;
        if (j < nsets) {
            /* only subscripted assignments may share a column; PostgreSQL
             * gives this error no position */
            if (!is_array_assign(items[j]) || !is_array_assign(it->value))
                return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "multiple assignments to same column \"%s\"",
                                      it->column);
            if (!(items[j] = chain_array_assign(m, items[j], it->value, err))) return -1;
            continue;
        }
        /* a generated column takes only DEFAULT (428C9, db_generated.c) */
        if (it->value->kind != ATTU_EXPR_DEFAULT && m->base->defs[c].generated)
            return db_generated_refuse(m->base, c, true, err);
        /* a GENERATED ALWAYS identity column takes only DEFAULT (428C9) */
        if (it->value->kind != ATTU_EXPR_DEFAULT && db_sequence_identity(m->s, m->base->name, m->base->defs[c].name) == 'a') {
            attu_error_set(err, "428C9", 0, "column \"%s\" can only be updated to DEFAULT", m->base->defs[c].name);
            snprintf(err->detail, sizeof err->detail, "Column \"%s\" is an identity column defined as GENERATED ALWAYS.",
                     m->base->defs[c].name);
            return -1;
        }
        m->set_cols[nsets] = c;
        items[nsets++] = it->value;
    }
    m->nsets = nsets;
    /* DEFAULT of a serial or identity column: a NULL stand-in here, a
     * number per row once the rows are known (db_exec_modify) */
    m->seq_set = alloc(m, sizeof *m->seq_set * (size_t)(nsets + 1), err);
    if (!m->seq_set) return -1;
    for (int k = 0; k < nsets; k++) {
        m->seq_set[k] = false;
        if (items[k]->kind != ATTU_EXPR_DEFAULT) continue;
        char *seq = db_default_sequence(attu_catalog_default(db_cat(m->s), m->base->name, m->set_cols[k]));
        if (!seq) continue;
        free(seq);
        if (st->u.modify.nreturning)
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, items[k]->position,
                                  "UPDATE ... SET %s = DEFAULT with RETURNING is not supported (its DEFAULT draws from a sequence)",
                                  m->base->defs[m->set_cols[k]].name);
        attu_ast_expr *z = alloc(m, sizeof *z, err);
        if (!z) return -1;
        z->kind = ATTU_EXPR_LITERAL;
        z->position = items[k]->position;
        z->depth = 1;
        z->u.literal.kind = ATTU_LIT_NULL;
        z->u.literal.text = (char *)"null";
        z->u.literal.len = 4;
        items[k] = z;
        m->seq_set[k] = true;
        m->nseq_set++;
    }
    /* the SET values as one VALUES row: its DEFAULT items are replaced as
     * an INSERT's are (the column's DEFAULT, or NULL) */
    attu_ast_query *vq = alloc(m, sizeof *vq, err);
    attu_ast_expr_list *row = alloc(m, sizeof *row, err);
    if (!vq || !row) return -1;
    row->items = items;
    row->n = m->nsets;
    vq->kind = ATTU_QUERY_VALUES;
    vq->position = st->position;
    vq->u.values.rows = row;
    vq->u.values.nrows = 1;
    if (db_values_defaults(m->s, m->base, m->set_cols, m->nsets, vq, &m->vcopy, err)) return -1;
    m->values = alloc(m, sizeof *m->values * (size_t)m->nsets, err);
    if (!m->values) return -1;
    for (int k = 0; k < m->nsets; k++) {
        attu_ast_expr *v = m->vcopy.q->u.values.rows[0].items[k];
        m->values[k] = v;
        attu_type ct = m->base->defs[m->set_cols[k]].type;
        if (untyped(v) && (ct.id != ATTU_TYPE_TEXT || attu_type_is_array(ct) || attu_type_is_typed_text(ct)) &&
            !(m->values[k] = typed_as_column(m, v, m->set_cols[k], err)))
            return -1;
    }
    return 0;
}

/* 42712 when a FROM / USING item takes the target's name (PostgreSQL
 * sees the same table twice: DELETE FROM t USING t). */
static int check_name(const modify_ctx *m, const attu_ast_from *f, attu_error *err) {
    if (f->kind == ATTU_FROM_JOIN && !f->alias)
        return check_name(m, f->u.join.left, err) || check_name(m, f->u.join.right, err);
    const char *q = f->alias ? f->alias : f->kind == ATTU_FROM_TABLE ? f->u.table.name : NULL;
    if (q && !strcmp(q, m->qual))
        return attu_error_set(err, "42712", f->position, "table name \"%s\" specified more than once", q);
    return 0;
}

/* Builds m->q: SELECT rowid, SET values, RETURNING items FROM target,
 * other tables WHERE condition. */
/* WHERE CURRENT OF cursor: the target's rowid = the row the cursor is on
 * (db_cursor.c), or FALSE when that row is no longer there (and when
 * the statement is only described: PREPARE, EXPLAIN, where the cursor
 * need not be open). */
static attu_ast_expr *current_of_where(modify_ctx *m, attu_error *err) {
    const attu_ast_stmt *st = m->st;
    int64_t row = -1;
    if (m->running && db_cursor_current_row(m->s, st->u.modify.current_of, m->base, &row, err)) return NULL;
    int pos = st->u.modify.current_of_position;
    attu_ast_expr *lit = alloc(m, sizeof *lit, err);
    char *text = alloc(m, 32, err);
    if (!lit || !text) return NULL;
    lit->kind = ATTU_EXPR_LITERAL;
    lit->position = pos;
    lit->depth = 1;
    if (row < 0) {
        snprintf(text, 32, "false");
        lit->u.literal.kind = ATTU_LIT_BOOL;
        lit->u.literal.text = text;
        lit->u.literal.len = strlen(text);
        return lit;
    }
    snprintf(text, 32, "%lld", (long long)row);
    lit->u.literal.kind = ATTU_LIT_INTEGER;
    lit->u.literal.text = text;
    lit->u.literal.len = strlen(text);
    attu_ast_expr *rowid = column_ref(m, m->qual, ATTU_ROWID_INTERNAL, pos, err);
    attu_ast_expr *eq = alloc(m, sizeof *eq, err);
    if (!rowid || !eq) return NULL;
    eq->kind = ATTU_EXPR_BINARY;
    eq->position = pos;
    eq->depth = 2;
    eq->u.binary.op = ATTU_BINOP_EQ;
    eq->u.binary.left = rowid;
    eq->u.binary.right = lit;
    eq->u.binary.op_text = "=";
    return eq;
}

static int build_query(modify_ctx *m, attu_error *err) {
    const attu_ast_stmt *st = m->st;
    if (db_check_dml_items(st->u.modify.sets, st->u.modify.nsets, st->u.modify.returning, st->u.modify.nreturning, err))
        return -1;
    for (int i = 0; i < st->u.modify.from.n; i++)
        if (check_name(m, st->u.modify.from.items[i], err)) return -1;
    bool update = st->kind == ATTU_STMT_UPDATE;
    if (update && check_sets(m, err)) return -1;
    attu_ast_select_item *ret = st->u.modify.returning;
    int nret = st->u.modify.nreturning;
    if (update && nret && update_returning(m, &ret, &nret, err)) return -1;
    int nitems = 1 + m->nsets + nret;
    attu_ast_select_item *items = alloc(m, sizeof *items * (size_t)nitems, err);
    attu_ast_from **from = alloc(m, sizeof *from * (size_t)(st->u.modify.from.n + 1), err);
    attu_ast_from *target = alloc(m, sizeof *target, err);
    attu_ast_expr *rowid = column_ref(m, m->qual, ATTU_ROWID_INTERNAL, st->u.modify.table_position, err);
    if (!items || !from || !target || !rowid) return -1;
    int depth = 1;
    items[0] = (attu_ast_select_item){ rowid, NULL, 0 };
    for (int k = 0; k < m->nsets; k++) {
        items[1 + k] = (attu_ast_select_item){ m->values[k], NULL, 0 };
        if (m->values[k]->depth > depth) depth = m->values[k]->depth;
    }
    for (int i = 0; i < nret; i++) {
        items[1 + m->nsets + i] = ret[i];
        if (ret[i].expr->depth > depth) depth = ret[i].expr->depth;
    }
    target->kind = ATTU_FROM_TABLE;
    target->position = st->u.modify.table_position;
    target->depth = 1;
    target->alias = st->u.modify.alias;
    target->u.table.name = st->u.modify.table;
    target->u.table.schema = db_rel_schema(st);
    from[0] = target;
    for (int i = 0; i < st->u.modify.from.n; i++) {
        from[1 + i] = st->u.modify.from.items[i];
        if (from[1 + i]->depth > depth) depth = from[1 + i]->depth;
    }
    attu_ast_expr *where = st->u.modify.where;
    if (st->u.modify.current_of && !(where = current_of_where(m, err))) return -1;
    if (where && where->depth > depth) depth = where->depth;
    attu_ast_query *q = &m->q;
    for (int i = 0; i < st->u.modify.nwith; i++)
        if (!strcmp(st->u.modify.with[i].name, st->u.modify.table))
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, st->u.modify.with[i].position,
                                  "a WITH query named like the table that %s changes (\"%s\") is not supported",
                                  st->kind == ATTU_STMT_UPDATE ? "UPDATE" : "DELETE", st->u.modify.table);
    q->with.items = st->u.modify.with;
    q->with.n = st->u.modify.nwith;
    q->with.recursive = st->u.modify.with_recursive;
    q->kind = ATTU_QUERY_SELECT;
    q->position = st->position;
    q->depth = depth + 1;
    q->u.select.items = items;
    q->u.select.nitems = nitems;
    q->u.select.from.items = from;
    q->u.select.from.n = 1 + st->u.modify.from.n;
    q->u.select.where = where;
    return 0;
}

/* Binds m->q, assigns the SET values to their columns' types, and runs
 * it: *cols (ncols of them, *nrows rows) are the rowids, the values and
 * the RETURNING columns; *lp_out describes them. */
static attu_lplan *bind_query(modify_ctx *m, const char *sql, const attu_bind_params *params, attu_plan_arena *pa,
                              attu_error *err) {
    attu_bind_params bp = db_params(m->s, params);
    attu_lplan *lp = attu_bind_query(pa, db_cat(m->s), sql, &m->q, &bp, err);
    if (!lp) return NULL;
    if (m->nsets) {
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
            int k = i - 1;
            if (k < 0 || k >= m->nsets) continue;
            const attu_column_def *def = &m->base->defs[m->set_cols[k]];
            c->position = m->values[k]->position;
            p->exprs[i] = attu_bind_coerce_assign(pa, c, def->type, def->name, err);
            if (!p->exprs[i]) return NULL;
            p->types[i] = def->type;
        }
        p->est_rows = lp->est_rows;
        lp = p;
    }
    return lp;
}

static int run_query_once(modify_ctx *m, const char *sql, const attu_bind_params *params, attu_plan_arena *pa,
                          attu_lplan **lp_out, attu_column ***cols, size_t *nrows, attu_error *err);

/* Runs the statement's query. As db_run_query, a failed run whose
 * conditional subqueries ran in their batch form runs again with them per
 * binding (only the rows that reach a subquery raise its errors, as
 * PostgreSQL); the table changes only after the query's whole result
 * stands, so the failed run leaves nothing to undo. */
static int run_query(modify_ctx *m, const char *sql, const attu_bind_params *params, attu_plan_arena *pa,
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

static int run_query_once(modify_ctx *m, const char *sql, const attu_bind_params *params, attu_plan_arena *pa,
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

/* RETURNING's rows: columns [first, lp->ncols) of the query at rows. */
static attu_result *returning_result(attu_lplan *lp, attu_column **cols, int first, const size_t *rows, size_t n,
                                     attu_error *err) {
    int nc = lp->ncols - first;
    attu_result *r = db_result_new(nc);
    if (!r) { attu_error_oom(err); return NULL; }
    r->returns_rows = true;
    r->nrows = n;
    for (int i = 0; i < nc; i++) {
        if (!(r->cols[i] = attu_column_gather(cols[first + i], rows, n, err))) { attu_result_free(r); return NULL; }
        snprintf(r->desc[i].name, sizeof r->desc[i].name, "%s", lp->names[first + i] ? lp->names[first + i] : "?column?");
        r->desc[i].type = lp->types[first + i];
    }
    return r;
}

/* What every entry point starts with: the context over statement st, its
 * arenas (*pa and m->arena), the catalog lock (write to change the table,
 * read to describe or explain it) and the target table. The lock is held
 * on return whatever the result: the caller's exit path releases it and
 * frees the arenas. */
static int modify_open(modify_ctx *m, attu_session *s, const attu_ast_stmt *st, bool write, attu_plan_arena **pa,
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
    if (!m->base && db_view_dml_error(s, st->u.modify.table, st->kind, err)) return -1;
    if (!m->base)
        return db_no_such_table(s, st->u.modify.table, st->u.modify.table_position, err);
    return 0;
}

/* SET col = DEFAULT of serial / identity columns (m->seq_set): one number
 * per changed row, in the order the rows were found, written into the
 * query's value columns (cols[1 + k]) at those rows. */
static int draw_sequence_sets(modify_ctx *m, attu_column **cols, const size_t *rows, size_t nrows, attu_error *err) {
    int *which = malloc(sizeof *which * (size_t)(m->nseq_set + 1));
    int *tcols = malloc(sizeof *tcols * (size_t)(m->nseq_set + 1));
    attu_column **drawn = calloc((size_t)m->nseq_set + 1, sizeof *drawn);
    int rc = 0, j = 0;
    if (!which || !tcols || !drawn) rc = attu_error_oom(err);
    for (int k = 0; !rc && k < m->nsets; k++)
        if (m->seq_set[k]) { which[j] = k; tcols[j++] = m->set_cols[k]; }
    if (!rc && db_sequence_default_columns(m->s, m->base, tcols, m->nseq_set, nrows, drawn, err)) rc = -1;
    for (int q = 0; !rc && q < m->nseq_set; q++) {
        attu_column *dst = cols[1 + which[q]], *src = drawn[q];
        size_t w = attu_type_width(dst->type.id);
        if (dst->type.id != src->type.id) { rc = attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "sequence DEFAULT of another type"); break; }
        for (size_t r = 0; r < nrows; r++) {
            memcpy((char *)dst->data + rows[r] * w, (const char *)src->data + r * w, w);
            if (dst->validity) attu_column_set_null(dst, rows[r], false);
        }
        attu_column_invalidate_device(dst);   /* (the host data changed) */
    }
    for (int q = 0; drawn && q < m->nseq_set; q++) attu_column_free(drawn[q]);
    free(which); free(tcols); free(drawn);
    return rc;
}

typedef struct row_change {
    size_t  row;
    int64_t src;
} row_change;

static int by_row(const void *a, const void *b) {
    size_t x = ((const row_change *)a)->row, y = ((const row_change *)b)->row;
    return x < y ? -1 : x > y;
}

/* Sorts the changes (row, source) by row, the order the table's rows
 * take their values in (usually so already: the query scans in row
 * order). -1 for memory. */
static int sort_changes(size_t *row, int64_t *src, size_t n) {
    bool sorted = true;
    for (size_t i = 1; i < n && sorted; i++) sorted = row[i - 1] < row[i];
    if (sorted) return 0;
    row_change *v = malloc(sizeof *v * n);
    if (!v) return -1;
    for (size_t i = 0; i < n; i++) v[i] = (row_change){ row[i], src[i] };
    qsort(v, n, sizeof *v, by_row);
    for (size_t i = 0; i < n; i++) { row[i] = v[i].row; src[i] = v[i].src; }
    free(v);
    return 0;
}

int db_exec_modify(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                   const attu_exec_callbacks *cb, attu_error *err) {
    bool update = st->kind == ATTU_STMT_UPDATE;
    modify_ctx m;
    attu_plan_arena *pa = NULL;
    attu_column **cols = NULL;
    size_t n = 0, nchanged = 0;
    attu_lplan *lp = NULL;
    /* the rows that change: hit[r] for each row of the table (calloc'd:
     * pages no row of the statement touches stay unmapped zero pages),
     * and row chg_row[k] takes the query's row chg_src[k], in row order */
    uint8_t *hit = NULL;
    size_t *chg_row = NULL;
    int64_t *chg_src = NULL;
    uint8_t *keep = NULL;   /* DELETE: the rows that stay */
    size_t *ret_rows = NULL;
    attu_result *ret = NULL;
    db_keyed_rows *keyed = NULL;
    int rc = -1;
    if (modify_open(&m, s, st, true, &pa, err)) goto out;
    /* under data-modifying WITH queries the query reads the version the
     * statement started from: map turns its rows into the table's now */
    const int64_t *map = NULL;
    size_t nmap = 0;
    if (db_with_target(s, params, m.base, st->u.modify.table_position, update ? "UPDATE" : "DELETE", &map, &nmap, err))
        goto out;
    /* a WHERE that names one row by its key: the query reads that row
     * alone, found through the key set (db_keyed_dml.c); rows maps the
     * query's rows to the table's as map does */
    const int64_t *rows_of = map;
    size_t nrows_of = nmap;
    attu_bind_params kp;
    if (!map) {
        int kr = db_keyed_rows_find(s, sql, st, m.qual, m.base, params, &keyed, err);
        if (kr < 0) goto out;
        if (kr) {
            memset(&kp, 0, sizeof kp);
            if (params) kp = *params;
            db_keyed_rows_params(keyed, &kp);
            params = &kp;
        }
    }
    if (build_query(&m, err) || run_query(&m, sql, params, pa, &lp, &cols, &n, err)) goto out;
    if (keyed && db_keyed_rows_map(keyed, &rows_of, &nrows_of, err)) goto out;
    /* the rows that change, each once, by its first match */
    const attu_table *base = m.base;
    hit = calloc(base->nrows ? base->nrows : 1, 1);
    ret_rows = malloc(sizeof *ret_rows * (n ? n : 1));
    chg_row = malloc(sizeof *chg_row * (n ? n : 1));
    chg_src = malloc(sizeof *chg_src * (n ? n : 1));
    if (!hit || !ret_rows || !chg_row || !chg_src) { attu_error_oom(err); goto out; }
    const int64_t *rowids = cols[0]->data;
    for (size_t i = 0; i < n; i++) {
        int64_t r = rowids[i];
        if (attu_column_is_null(cols[0], i)) continue;   /* (the target is joined inner: never) */
        if (rows_of) {
            if (r < 0 || (size_t)r >= nrows_of) {
                attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "row %lld of \"%s\" out of range", (long long)r, base->name);
                goto out;
            }
            if ((r = rows_of[r]) < 0) continue;   /* (changed by an earlier part: that change stands) */
        }
        if (r < 0 || (size_t)r >= base->nrows) {
            attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "row %lld of \"%s\" out of range", (long long)r, base->name);
            goto out;
        }
        if (hit[r]) continue;
        hit[r] = 1;
        chg_row[nchanged] = (size_t)r;
        ret_rows[nchanged++] = i;
    }
    if (m.nseq_set && nchanged && draw_sequence_sets(&m, cols, ret_rows, nchanged, err)) goto out;
    int first_ret = 1 + m.nsets;
    if (st->u.modify.nreturning && !(ret = returning_result(lp, cols, first_ret, ret_rows, nchanged, err))) goto out;
    if (nchanged) {
        attu_table *t;
        if (update) {
            for (size_t k = 0; k < nchanged; k++) chg_src[k] = (int64_t)ret_rows[k];
            if (sort_changes(chg_row, chg_src, nchanged)) { attu_error_oom(err); goto out; }
            t = attu_table_update_at(base, chg_row, chg_src, nchanged, m.nsets, m.set_cols, cols + 1, err);
        } else {
            keep = malloc(base->nrows ? base->nrows : 1);
            if (!keep) { attu_error_oom(err); goto out; }
            for (size_t r = 0; r < base->nrows; r++) keep[r] = !hit[r];
            t = attu_table_keep_rows(base, keep, err);
        }
        if (!t) goto out;
        uint8_t *changed = NULL;
        if (update) {
            /* the keys as PostgreSQL's row-by-row check meets them, in
             * row order (db_unique_check_update) */
            changed = hit;   /* (now changed's to free) */
            hit = NULL;
            /* (every UPDATE recomputes its rows' generated columns) */
            if (db_generated_fill(s, &t, 0, changed, err) ||
                db_check_rows(s, t, 0, changed, err) || db_unique_check_update(s, t, changed, err) ||
                db_view_check_rows(s, st->u.modify.view_checks,
                                   st->u.modify.alias ? st->u.modify.alias : st->u.modify.table, t, 0, changed, err)) {
                free(changed);
                attu_table_free(t);
                goto out;
            }
        }
        /* the FOREIGN KEYs: the changed rows' own, and the actions of
         * those that reference the rows removed or changed (db_fkey.c) */
        db_fkey_txn *fx = NULL;
        bool fk_replaced = false;
        if (db_fkey_statement(s, &t, base->nrows, changed, update ? NULL : keep, &fk_replaced, &fx, err)) {
            free(changed);
            attu_table_free(t);
            goto out;
        }
        if (db_save_table(s, t, err)) { db_fkey_abort(s, fx); free(changed); attu_table_free(t); goto out; }
        if (map || s->wmod) {
            /* (the later parts of the statement find these rows moved) */
            uint8_t *upd = NULL;
            if (update && !(upd = malloc(base->nrows ? base->nrows : 1))) {
                db_fkey_abort(s, fx); free(changed); attu_table_free(t); attu_error_oom(err); goto out;
            }
            if (upd) memcpy(upd, changed, base->nrows);
            int mr = db_with_target_changed(s, params, base, t, upd, update ? NULL : keep, !fk_replaced);
            free(upd);
            if (mr) { db_fkey_abort(s, fx); free(changed); attu_table_free(t); attu_error_oom(err); goto out; }
        }
        attu_table *old = attu_catalog_replace(db_cat(s), t);
        /* the key index follows: UPDATE keeps every row where it was and
         * changes some; DELETE drops some and renumbers the rest */
        if (fk_replaced) { /* (a later version: its index is built when next needed) */ }
        else if (update) db_unique_follow(old, t, changed);
        else db_unique_follow_delete(old, t, keep);
        free(changed);
        /* (cursors for WHERE CURRENT OF follow the rows: db_cursor.c) */
        if (!fk_replaced) db_cursors_follow(s, old, t, update ? NULL : keep);
        attu_table_free(old);
        if (db_fkey_commit(s, fx, err)) goto out;
    }
    rc = 0;
out:
    pthread_rwlock_unlock(&s->db->lock);
    if (cols && lp) for (int i = 0; i < lp->ncols; i++) attu_column_free(cols[i]);
    free(cols);
    free(hit);
    free(chg_row);
    free(chg_src);
    free(keep);
    free(ret_rows);
    db_keyed_rows_free(keyed);
    db_values_copy_free(&m.vcopy);
    free_generated(&m);
    attu_ast_arena_free(m.arena);
    attu_plan_arena_free(pa);
    if (rc) { attu_result_free(ret); return rc; }
    char tag[64];
    snprintf(tag, sizeof tag, "%s %zu", update ? "UPDATE" : "DELETE", nchanged);
    if (ret) {
        snprintf(ret->tag, sizeof ret->tag, "%s", tag);
        return db_deliver(cb, ret) ? -2 : 0;
    }
    return db_deliver_tag(cb, tag, err) ? -2 : 0;
}

int db_modify_describe(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                       int *ncols, attu_result_column **cols, attu_error *err) {
    modify_ctx m;
    attu_plan_arena *pa = NULL;
    int rc = -1;
    if (modify_open(&m, s, st, false, &pa, err)) goto out;
    attu_bind_params dp;   /* described, not run: no nextval */
    memset(&dp, 0, sizeof dp);
    if (params) dp = *params;
    dp.no_side_effects = true;
    attu_lplan *lp = build_query(&m, err) ? NULL : bind_query(&m, sql, &dp, pa, err);
    if (!lp) goto out;
    int first = 1 + m.nsets, n = lp->ncols - first;
    attu_result_column *c = calloc((size_t)n + 1, sizeof *c);
    if (!c) { attu_error_oom(err); goto out; }
    for (int i = 0; i < n; i++) {
        snprintf(c[i].name, sizeof c[i].name, "%s", lp->names[first + i] ? lp->names[first + i] : "?column?");
        c[i].type = lp->types[first + i];
    }
    free(*cols);
    *cols = c;
    *ncols = n;
    rc = 0;
out:
    pthread_rwlock_unlock(&s->db->lock);
    db_values_copy_free(&m.vcopy);
    free_generated(&m);
    attu_ast_arena_free(m.arena);
    attu_plan_arena_free(pa);
    return rc;
}

/* ---- EXPLAIN [ANALYZE] of DELETE / UPDATE ----------------------------------------------- */

/* "Delete on t" / "Update on t" over the plan of the rowid query (the
 * stages that find the rows and compute the values; the new version is
 * then built on the host). ANALYZE runs the statement first, as EXPLAIN
 * ANALYZE INSERT does (the rows change), and shows its tag and time; the
 * stages are not instrumented on that path. */
int db_explain_modify(attu_session *s, const char *sql, const attu_ast_stmt *ex, const attu_bind_params *params,
                      const attu_exec_callbacks *cb, attu_error *err) {
    const attu_ast_stmt *st = ex->u.explain.stmt;
    db_explain_write w;
    memset(&w, 0, sizeof w);
    if (ex->u.explain.analyze) {
        int r = db_explain_write_run(s, sql, st, params, cb, db_exec_modify, &w, err);
        if (r) return r;
    }
    modify_ctx m;
    attu_plan_arena *pa = NULL;
    int rc = -1;
    if (modify_open(&m, s, st, false, &pa, err)) goto out;
    attu_lplan *lp = build_query(&m, err) ? NULL : bind_query(&m, sql, params, pa, err);
    if (!lp) goto out;
    char head[160];
    snprintf(head, sizeof head, "%s on %s", st->kind == ATTU_STMT_UPDATE ? "Update" : "Delete", m.base->name);
    if (db_explain_write_lines(s, pa, lp, head, &w, err)) goto out;
    rc = 0;
out:
    pthread_rwlock_unlock(&s->db->lock);
    db_values_copy_free(&m.vcopy);
    free_generated(&m);
    attu_ast_arena_free(m.arena);
    attu_plan_arena_free(pa);
    return db_explain_write_finish(cb, &w, rc, err);
}
