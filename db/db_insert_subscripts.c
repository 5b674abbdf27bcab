/*
 * db_insert_subscripts.c - INSERT INTO t (a[1], a[3]) VALUES (x, y), as
 * PostgreSQL 15 takes it: a subscripted column of the column list starts
 * from a NULL array and takes each of its subscripted assignments in
 * order (a[1] = x, then a[3] = y: {x,NULL,y}), as UPDATE's SET a[1] = x,
 * a[3] = y does on the row's array.
 *
 * The statement is rewritten before INSERT runs: its column list names
 * each column once, and each value of a subscripted column becomes
 * " array_assign"(subscripts on the array so far, value), the form the
 * grammar gives SET a[i] = v (planner/array_bind.c binds it). A VALUES
 * source is rewritten row by row; any other query is read as a subquery
 * whose columns the assignments take.
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <string.h>

typedef struct rewrite {
    attu_ast_arena *arena;
    attu_error     *err;
    const attu_table *base;
    const attu_ast_stmt *st;
    int n;              /* the column list's entries */
    int ngroups;        /* distinct columns */
    int *group;         /* the group of each entry */
    int *first;         /* each group's first entry */
} rewrite;

static void *alloc(rewrite *r, size_t n) {
    void *p = attu_ast_alloc(r->arena, n ? n : 1);
    if (!p) attu_error_oom(r->err);
    return p;
}

/* NULL as the column's array type without its element modifier (the
 * INSERT's assignment applies that to the finished array). */
static attu_ast_expr *null_array(rewrite *r, attu_type t, int pos) {
    attu_ast_expr *lit = alloc(r, sizeof *lit), *e = lit ? alloc(r, sizeof *e) : NULL;
    if (!e) return NULL;
    lit->kind = ATTU_EXPR_LITERAL;
    lit->position = pos;
    lit->depth = 1;
    lit->u.literal.kind = ATTU_LIT_NULL;
    lit->u.literal.text = "null";
    lit->u.literal.len = 4;
    char buf[96];
    attu_type u = attu_type_array_of(attu_type_array_elem(t));
    e->kind = ATTU_EXPR_CAST;
    e->position = pos;
    e->depth = 2;
    e->u.cast.arg = lit;
    e->u.cast.syntax = ATTU_CAST_FUNCTION;
    e->u.cast.type.position = pos;
    e->u.cast.type.precision = e->u.cast.type.scale = -1;
    /* "character[]" would read as char(1)[] */
    e->u.cast.type.name = attu_ast_strdup(r->arena, attu_type_array_is_bpchar(u) ? "bpchar[]" : attu_type_name(u, buf, sizeof buf));
    if (!e->u.cast.type.name) { attu_error_oom(r->err); return NULL; }
    return e;
}

/* " array_assign"(subscripts on cur, v) */
static attu_ast_expr *assign(rewrite *r, const attu_ast_expr *target, attu_ast_expr *cur, attu_ast_expr *v) {
    attu_ast_expr *t = db_rebase_subscripts(r->arena, target, cur, r->err);
    attu_ast_expr *e = t ? alloc(r, sizeof *e) : NULL;
    attu_ast_expr **items = e ? alloc(r, sizeof *items * 2) : NULL;
    if (!items) return NULL;
    e->kind = ATTU_EXPR_FUNC;
    e->position = target->position;
    e->u.func.name = " array_assign";
    items[0] = t;
    items[1] = v;
    e->u.func.args.items = items;
    e->u.func.args.n = 2;
    e->depth = (t->depth > v->depth ? t->depth : v->depth) + 1;
    return e;
}

/* The values of one source row (vals[k] for entry k) as one per column. */
static attu_ast_expr **row_values(rewrite *r, attu_ast_expr *const *vals) {
    attu_ast_expr **out = alloc(r, sizeof *out * (size_t)r->ngroups);
    if (!out) return NULL;
    const attu_ast_name_list *cols = &r->st->u.insert.columns;
    for (int g = 0; g < r->ngroups; g++) {
        int k0 = r->first[g];
        const attu_ast_expr *t0 = r->st->u.insert.targets[k0];
        if (!t0) { out[g] = vals[k0]; continue; }
        int c = attu_table_find_column(r->base, cols->items[k0]);
        attu_ast_expr *cur = null_array(r, r->base->defs[c].type, cols->positions[k0]);
        for (int k = k0; cur && k < r->n; k++) {
            if (r->group[k] != g) continue;
            if (vals[k]->kind == ATTU_EXPR_DEFAULT) {
                attu_error_set(r->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, cols->positions[k],
                               "cannot set an array element to DEFAULT");
                return NULL;
            }
            cur = assign(r, r->st->u.insert.targets[k], cur, vals[k]);
        }
        if (!(out[g] = cur)) return NULL;
    }
    return out;
}

/* Groups the column list's entries by column: 42703 for no such column,
 * 42701 for a column named twice unless every time subscripted, 42804
 * for subscripts on a column that is no array. */
static int group_columns(rewrite *r) {
    const attu_ast_name_list *cols = &r->st->u.insert.columns;
    int *gcol = alloc(r, sizeof *gcol * (size_t)r->n);
    r->group = alloc(r, sizeof *r->group * (size_t)r->n);
    r->first = alloc(r, sizeof *r->first * (size_t)r->n);
    if (!gcol || !r->group || !r->first) return -1;
    for (int k = 0; k < r->n; k++) {
        int pos = cols->positions ? cols->positions[k] : r->st->position;
        int c = attu_table_find_column(r->base, cols->items[k]);
        if (c < 0)
            return attu_error_set(r->err, ATTU_SQLSTATE_UNDEFINED_COLUMN, pos, "column \"%s\" of relation \"%s\" does not exist",
                                  cols->items[k], r->base->name);
        const attu_ast_expr *t = r->st->u.insert.targets[k];
        attu_type ct = r->base->defs[c].type;
        if (t && !attu_type_is_array(ct)) {
            char b[64];
            /* PostgreSQL gives it no position */
            return attu_error_set(r->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, 0,
                                  "cannot subscript type %s because it does not support subscripting",
                                  attu_type_name(ct, b, sizeof b));
        }
        int g = 0;
        while (g < r->ngroups && gcol[g] != c) g++;
        if (g < r->ngroups && (!t || !r->st->u.insert.targets[r->first[g]]))
            return attu_error_set(r->err, ATTU_SQLSTATE_DUPLICATE_COLUMN, pos, "column \"%s\" specified more than once",
                                  r->base->defs[c].name);
        if (g == r->ngroups) {
            gcol[g] = c;
            r->first[g] = k;
            r->ngroups++;
        }
        r->group[k] = g;
    }
    return 0;
}

/* SELECT <the columns' values> FROM (q) AS " ins"(" 1", ..., " n") */
static attu_ast_query *wrap_query(rewrite *r, attu_ast_query *q) {
    attu_ast_query *w = alloc(r, sizeof *w);
    attu_ast_from *f = w ? alloc(r, sizeof *f) : NULL;
    attu_ast_from **fl = f ? alloc(r, sizeof *fl) : NULL;
    attu_ast_expr **refs = fl ? alloc(r, sizeof *refs * (size_t)r->n) : NULL;
    char **names = refs ? alloc(r, sizeof *names * (size_t)r->n) : NULL;
    int *npos = names ? alloc(r, sizeof *npos * (size_t)r->n) : NULL;
    if (!npos) return NULL;
    for (int k = 0; k < r->n; k++) {
        char nb[24];
        snprintf(nb, sizeof nb, " %d", k + 1);
        attu_ast_expr *e = alloc(r, sizeof *e);
        if (!e || !(names[k] = attu_ast_strdup(r->arena, nb))) { attu_error_oom(r->err); return NULL; }
        npos[k] = q->position;
        e->kind = ATTU_EXPR_COLUMN;
        e->position = q->position;
        e->depth = 1;
        e->u.column.qualifier = " ins";
        e->u.column.name = names[k];
        refs[k] = e;
    }
    attu_ast_expr **vals = row_values(r, refs);
    attu_ast_select_item *items = vals ? alloc(r, sizeof *items * (size_t)r->ngroups) : NULL;
    if (!items) return NULL;
    int depth = q->depth;
    for (int g = 0; g < r->ngroups; g++) {
        items[g].expr = vals[g];
        if (vals[g]->depth > depth) depth = vals[g]->depth;
    }
    f->kind = ATTU_FROM_SUBQUERY;
    f->position = q->position;
    f->depth = q->depth + 1;
    f->alias = " ins";
    f->column_aliases.items = names;
    f->column_aliases.positions = npos;
    f->column_aliases.n = r->n;
    f->u.subquery.query = q;
    fl[0] = f;
    w->kind = ATTU_QUERY_SELECT;
    w->position = q->position;
    w->depth = depth + 1;
    w->u.select.items = items;
    w->u.select.nitems = r->ngroups;
    w->u.select.from.items = fl;
    w->u.select.from.n = 1;
    return w;
}

const attu_ast_stmt *db_insert_subscripts(attu_ast_arena *arena, const attu_table *base, const attu_ast_stmt *st,
                                          attu_error *err) {
    if (!st->u.insert.targets || !base) return st;
    rewrite r = { arena, err, base, st, st->u.insert.columns.n, 0, NULL, NULL };
    if (group_columns(&r)) return NULL;
    attu_ast_stmt *out = alloc(&r, sizeof *out);
    char **names = out ? alloc(&r, sizeof *names * (size_t)r.ngroups) : NULL;
    int *pos = names ? alloc(&r, sizeof *pos * (size_t)r.ngroups) : NULL;
    if (!pos) return NULL;
    *out = *st;
    for (int g = 0; g < r.ngroups; g++) {
        names[g] = st->u.insert.columns.items[r.first[g]];
        pos[g] = st->u.insert.columns.positions ? st->u.insert.columns.positions[r.first[g]] : st->position;
    }
    out->u.insert.columns.items = names;
    out->u.insert.columns.positions = pos;
    out->u.insert.columns.n = r.ngroups;
    out->u.insert.targets = NULL;
    attu_ast_query *q = st->u.insert.source;
    if (!q) return out;   /* DEFAULT VALUES takes no column list */
    if (q->kind == ATTU_QUERY_VALUES && !q->with.n && !q->order_by.n && !q->limit) {
        attu_ast_query *vq = alloc(&r, sizeof *vq);
        attu_ast_expr_list *rows = vq ? alloc(&r, sizeof *rows * (size_t)q->u.values.nrows) : NULL;
        if (!rows) return NULL;
        *vq = *q;
        for (int i = 0; i < q->u.values.nrows; i++) {
            if (q->u.values.rows[i].n != r.n) {
                attu_error_set(err, ATTU_SQLSTATE_SYNTAX, q->position,
                               q->u.values.rows[i].n > r.n ? "INSERT has more expressions than target columns"
                                                          : "INSERT has more target columns than expressions");
                return NULL;
            }
            if (!(rows[i].items = row_values(&r, q->u.values.rows[i].items))) return NULL;
            rows[i].n = r.ngroups;
            for (int g = 0; g < r.ngroups; g++)
                if (rows[i].items[g]->depth + 1 > vq->depth) vq->depth = rows[i].items[g]->depth + 1;
        }
        vq->u.values.rows = rows;
        out->u.insert.source = vq;
        return out;
    }
    if (!(out->u.insert.source = wrap_query(&r, q))) return NULL;
    return out;
}
