/*
 * db_view_update.c - INSERT, UPDATE and DELETE through a view, as
 * PostgreSQL's automatically updatable views.
 *
 * A view is automatically updatable when its query is one SELECT from one
 * table or view, without DISTINCT, GROUP BY, HAVING, WITH, set operations,
 * LIMIT / OFFSET, aggregates, window functions or set-returning functions
 * in its list (db_view.c tells PostgreSQL's reason when it is not). Such a
 * statement is rewritten into the same statement on the view's relation
 * and run again (a view over a view unfolds one level per run):
 *
 *   INSERT INTO v (x, y) src   ->  INSERT INTO base (col(x), col(y)) src
 *   UPDATE v SET x = e WHERE c ->  UPDATE base AS v SET col(x) = e'
 *                                  WHERE (view's WHERE) AND c'
 *   DELETE FROM v WHERE c      ->  DELETE FROM base AS v WHERE (view's
 *                                  WHERE) AND c'
 *
 * col(x) is the base column view column x selects; a view column that is
 * an expression cannot be assigned (0A000, PostgreSQL's message). In e'
 * and c' a reference to a view column (bare, or qualified by the view's
 * name or alias) is replaced by the view's expression for it, whose own
 * references are qualified by the view's name or alias, the name the base
 * relation takes in the rewritten statement. Inside a subquery of e or c
 * only qualified references are replaced (a bare name there may be the
 * subquery's own column), so a bare renamed view column read there is not
 * found (42703) rather than misread. As in PostgreSQL without WITH CHECK OPTION,
 * an INSERT or UPDATE may make a row the view does not show.
 *
 * RETURNING reads the view's columns the same way (* is the view's).
 *
 * A reference to a column of the base relation that the view does not show
 * is PostgreSQL's 42703, where the statement has no other FROM item to
 * find it in (with one, the binder finds it or not as the item decides).
 *
 * WITH CHECK OPTION: the rewritten INSERT or UPDATE carries the
 * conditions its new rows must meet (attu_ast_view_check), each over the
 * statement's target as the statement names it. Each level translates
 * the ones it received as it translates the user's expressions (a view
 * column becomes the view's expression), and adds its own WHERE when
 * the view has a check option or a CASCADED one above it asks for it;
 * the statement on the table runs them over its new rows
 * (db_view_check_rows) after its constraints, 44000 for the first row
 * that fails one (innermost view first, as PostgreSQL lists them).
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db_check.h"
#include "db/db_unique.h"
#include "engine/view.h"
#include "planner/binder.h"
#include "planner/parser.h"

/* What a view's query says about its columns. */
typedef struct view_shape {
    const attu_ast_query *q;
    const char           *base;       /* the relation it selects from */
    const char           *base_qual;  /* its alias in the view's query, or its name */
    char                  base_schema;   /* how the view reaches it (ATTU_REL_*): a
                                            permanent view's, or one written public. /
                                            pg_temp., is that side's */
    int                   ncols;
    char                **names;      /* the view's column names */
    attu_ast_expr       **exprs;      /* each one's expression over base_qual */
    const char          **base_col;   /* the base column it selects, or NULL */
} view_shape;

static attu_ast_expr *new_expr(attu_ast_arena *a, const attu_ast_expr *like) {
    attu_ast_expr *x = attu_ast_alloc(a, sizeof *x);
    if (x && like) *x = *like;
    return x;
}

/* A column reference qualified by qual. */
static attu_ast_expr *column_ref(attu_ast_arena *a, const char *qual, const char *name, int position) {
    attu_ast_expr *x = new_expr(a, NULL);
    if (!x) return NULL;
    x->kind = ATTU_EXPR_COLUMN;
    x->position = position;
    x->depth = 1;
    x->u.column.qualifier = qual ? attu_ast_strdup(a, qual) : NULL;
    x->u.column.name = attu_ast_strdup(a, name);
    return x;
}

/* ---- rewriting expressions ----------------------------------------------- */

/* Replaces the column references an expression makes: fn returns the
 * replacement of a COLUMN node (NULL: keep it). Subqueries are left as
 * they are. */
typedef struct subst {
    attu_ast_arena *a;
    attu_ast_expr *(*fn)(struct subst *s, const attu_ast_expr *col);
    const view_shape *vs;
    const char       *qual;     /* the name the base relation takes now */
    const char       *view_qual;  /* the name the user gave the view */
    int               depth;    /* subqueries around the expression: inside
                                   one, a bare name may be the subquery's own
                                   column, so only qualified ones are replaced */
    bool              closed;   /* no other FROM item: a bare name not the
                                   view's is no column at all */
    const attu_ast_expr *unknown; /* the first reference to no view column
                                     (PostgreSQL's 42703, not the table's) */
    bool              oom;
} subst;

static attu_ast_expr *rewrite(subst *s, const attu_ast_expr *e);
static void rewrite_list(subst *s, attu_ast_expr_list *l);
static attu_ast_expr *view_column(subst *s, const attu_ast_expr *col);
static attu_ast_query *rewrite_query(subst *s, const attu_ast_query *q);

static void rewrite_order(subst *s, attu_ast_order_list *l) {
    attu_ast_order_item *items = attu_ast_alloc(s->a, sizeof *items * (size_t)(l->n + 1));
    if (!items) { s->oom = true; return; }
    for (int i = 0; i < l->n; i++) { items[i] = l->items[i]; items[i].expr = rewrite(s, l->items[i].expr); }
    l->items = items;
}

static attu_ast_from *rewrite_from(subst *s, const attu_ast_from *f) {
    if (f->kind == ATTU_FROM_TABLE) return (attu_ast_from *)f;
    attu_ast_from *x = attu_ast_alloc(s->a, sizeof *x);
    if (!x) { s->oom = true; return (attu_ast_from *)f; }
    *x = *f;
    switch (f->kind) {
    case ATTU_FROM_SUBQUERY: x->u.subquery.query = rewrite_query(s, f->u.subquery.query); break;
    case ATTU_FROM_FUNCTION:
        x->u.function.call = rewrite(s, f->u.function.call);
        if (f->u.function.ncalls) {
            /* ROWS FROM: every function (call is the first's) */
            attu_ast_from_call *calls = attu_ast_alloc(s->a, sizeof *calls * (size_t)f->u.function.ncalls);
            if (!calls) { s->oom = true; break; }
            for (int i = 0; i < f->u.function.ncalls; i++) {
                calls[i] = f->u.function.calls[i];
                calls[i].call = i ? rewrite(s, f->u.function.calls[i].call) : x->u.function.call;
            }
            x->u.function.calls = calls;
        }
        break;
    case ATTU_FROM_JOIN:
        x->u.join.left = rewrite_from(s, f->u.join.left);
        x->u.join.right = rewrite_from(s, f->u.join.right);
        x->u.join.on = rewrite(s, f->u.join.on);
        break;
    default: break;
    }
    return x;
}

/* Whether a FROM item (or one joined in it) goes by name. */
static bool from_named(const attu_ast_from *f, const char *name) {
    if (f->kind == ATTU_FROM_JOIN) return from_named(f->u.join.left, name) || from_named(f->u.join.right, name);
    const char *n = f->alias ? f->alias : f->kind == ATTU_FROM_TABLE ? f->u.table.name : NULL;
    return n && !strcmp(n, name);
}

/* A copy of subquery q with its column references replaced (one level
 * deeper: only qualified ones). A subquery with a FROM item of the
 * qualifier's name means its own item by it: left as it is. */
static attu_ast_query *rewrite_query(subst *s, const attu_ast_query *q) {
    if (!q || s->oom) return (attu_ast_query *)q;
    const char *name = s->fn == view_column ? s->view_qual : s->vs->base_qual;
    if (q->kind == ATTU_QUERY_SELECT)
        for (int i = 0; i < q->u.select.from.n; i++)
            if (from_named(q->u.select.from.items[i], name)) return (attu_ast_query *)q;
    attu_ast_query *x = attu_ast_alloc(s->a, sizeof *x);
    if (!x) { s->oom = true; return (attu_ast_query *)q; }
    *x = *q;
    s->depth++;
    if (q->with.n) {
        attu_ast_cte *ctes = attu_ast_alloc(s->a, sizeof *ctes * (size_t)(q->with.n + 1));
        if (!ctes) s->oom = true;
        for (int i = 0; ctes && i < q->with.n; i++) {
            ctes[i] = q->with.items[i];
            ctes[i].query = rewrite_query(s, q->with.items[i].query);
        }
        if (ctes) x->with.items = ctes;
    }
    switch (q->kind) {
    case ATTU_QUERY_SELECT: {
        attu_ast_select_item *items = attu_ast_alloc(s->a, sizeof *items * (size_t)(q->u.select.nitems + 1));
        attu_ast_from **from = attu_ast_alloc(s->a, sizeof *from * (size_t)(q->u.select.from.n + 1));
        if (!items || !from) { s->oom = true; break; }
        for (int i = 0; i < q->u.select.nitems; i++) {
            items[i] = q->u.select.items[i];
            items[i].expr = rewrite(s, q->u.select.items[i].expr);
        }
        for (int i = 0; i < q->u.select.from.n; i++) from[i] = rewrite_from(s, q->u.select.from.items[i]);
        x->u.select.items = items;
        x->u.select.from.items = from;
        rewrite_list(s, &x->u.select.distinct_on);
        x->u.select.where = rewrite(s, q->u.select.where);
        rewrite_list(s, &x->u.select.group_by);
        x->u.select.having = rewrite(s, q->u.select.having);
        break;
    }
    case ATTU_QUERY_VALUES: {
        attu_ast_expr_list *rows = attu_ast_alloc(s->a, sizeof *rows * (size_t)(q->u.values.nrows + 1));
        if (!rows) { s->oom = true; break; }
        for (int i = 0; i < q->u.values.nrows; i++) {
            rows[i] = q->u.values.rows[i];
            rewrite_list(s, &rows[i]);
        }
        x->u.values.rows = rows;
        break;
    }
    case ATTU_QUERY_SETOP:
        x->u.setop.left = rewrite_query(s, q->u.setop.left);
        x->u.setop.right = rewrite_query(s, q->u.setop.right);
        break;
    }
    rewrite_order(s, &x->order_by);
    x->limit = rewrite(s, q->limit);
    x->offset = rewrite(s, q->offset);
    s->depth--;
    return x;
}

static void rewrite_list(subst *s, attu_ast_expr_list *l) {
    attu_ast_expr **items = attu_ast_alloc(s->a, sizeof *items * (size_t)(l->n + 1));
    if (!items) { s->oom = true; return; }
    for (int i = 0; i < l->n; i++) items[i] = rewrite(s, l->items[i]);
    l->items = items;
}

static attu_ast_expr *rewrite(subst *s, const attu_ast_expr *e) {
    if (!e || s->oom) return (attu_ast_expr *)e;
    if (e->kind == ATTU_EXPR_COLUMN) {
        attu_ast_expr *r = s->fn(s, e);
        return r ? r : (attu_ast_expr *)e;
    }
    attu_ast_expr *x = new_expr(s->a, e);
    if (!x) { s->oom = true; return (attu_ast_expr *)e; }
    switch (e->kind) {
    case ATTU_EXPR_UNARY: x->u.unary.arg = rewrite(s, e->u.unary.arg); break;
    case ATTU_EXPR_BINARY:
        x->u.binary.left = rewrite(s, e->u.binary.left);
        x->u.binary.right = rewrite(s, e->u.binary.right);
        break;
    case ATTU_EXPR_IS: x->u.is.arg = rewrite(s, e->u.is.arg); break;
    case ATTU_EXPR_BETWEEN:
        x->u.between.arg = rewrite(s, e->u.between.arg);
        x->u.between.low = rewrite(s, e->u.between.low);
        x->u.between.high = rewrite(s, e->u.between.high);
        break;
    case ATTU_EXPR_IN_LIST:
        x->u.in_list.arg = rewrite(s, e->u.in_list.arg);
        rewrite_list(s, &x->u.in_list.list);
        break;
    case ATTU_EXPR_IN_SUBQUERY:
        x->u.in_subquery.arg = rewrite(s, e->u.in_subquery.arg);
        x->u.in_subquery.query = rewrite_query(s, e->u.in_subquery.query);
        break;
    case ATTU_EXPR_QUANTIFIED:
        x->u.quantified.arg = rewrite(s, e->u.quantified.arg);
        x->u.quantified.query = rewrite_query(s, e->u.quantified.query);
        break;
    case ATTU_EXPR_EXISTS: case ATTU_EXPR_SUBQUERY:
        x->u.subquery.query = rewrite_query(s, e->u.subquery.query);
        break;
    case ATTU_EXPR_LIKE:
        x->u.like.arg = rewrite(s, e->u.like.arg);
        x->u.like.pattern = rewrite(s, e->u.like.pattern);
        x->u.like.escape = rewrite(s, e->u.like.escape);
        break;
    case ATTU_EXPR_CASE: {
        x->u.case_.operand = rewrite(s, e->u.case_.operand);
        x->u.case_.else_ = rewrite(s, e->u.case_.else_);
        attu_ast_case_when *w = attu_ast_alloc(s->a, sizeof *w * (size_t)(e->u.case_.nwhens + 1));
        if (!w) { s->oom = true; break; }
        for (int i = 0; i < e->u.case_.nwhens; i++) {
            w[i].when = rewrite(s, e->u.case_.whens[i].when);
            w[i].then = rewrite(s, e->u.case_.whens[i].then);
        }
        x->u.case_.whens = w;
        break;
    }
    case ATTU_EXPR_CAST: x->u.cast.arg = rewrite(s, e->u.cast.arg); break;
    case ATTU_EXPR_EXTRACT: x->u.extract.arg = rewrite(s, e->u.extract.arg); break;
    case ATTU_EXPR_FUNC:
        rewrite_list(s, &x->u.func.args);
        rewrite_order(s, &x->u.func.order_by);
        x->u.func.filter = rewrite(s, e->u.func.filter);
        break;
    default: break;   /* literals, parameters, DEFAULT */
    }
    return x;
}

/* In the view's own expressions: a reference qualified by the base
 * relation's name in the view takes the name it has in the rewritten
 * statement. */
static attu_ast_expr *requalify(subst *s, const attu_ast_expr *col) {
    /* (a bare name outside the view's subqueries is the base relation's:
     * qualified, it stays so beside the statement's other FROM items) */
    if (col->u.column.qualifier ? strcmp(col->u.column.qualifier, s->vs->base_qual) != 0 : s->depth > 0) return NULL;
    attu_ast_expr *x = column_ref(s->a, s->qual, col->u.column.name, col->position);
    if (!x) s->oom = true;
    return x;
}

/* In the user's expressions: a view column becomes the view's expression. */
static attu_ast_expr *view_column(subst *s, const attu_ast_expr *col) {
    if (col->u.column.qualifier ? strcmp(col->u.column.qualifier, s->view_qual) != 0 : s->depth > 0) return NULL;
    for (int i = 0; i < s->vs->ncols; i++) {
        if (strcmp(s->vs->names[i], col->u.column.name)) continue;
        /* a bare name the view passes through unchanged stays bare: beside
         * other FROM items it is ambiguous where PostgreSQL finds it so */
        if (!col->u.column.qualifier && s->vs->base_col[i] && !strcmp(s->vs->base_col[i], col->u.column.name))
            return NULL;
        return s->vs->exprs[i];
    }
    /* a column of the table the view does not show is not the view's */
    if (!s->unknown && (col->u.column.qualifier || s->closed)) s->unknown = col;
    return NULL;
}

/* PostgreSQL's 42703 for the first reference to no column of the view. */
static int unknown_column(const subst *s, attu_error *err) {
    const attu_ast_expr *c = s->unknown;
    if (c->u.column.qualifier)
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, c->position, "column %s.%s does not exist",
                              c->u.column.qualifier, c->u.column.name);
    return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, c->position, "column \"%s\" does not exist",
                          c->u.column.name);
}

/* ---- the view's shape ------------------------------------------------------ */

/* Fills vs from view v's query (parsed in a); 1 with *why set when it is
 * not automatically updatable, -1 with err on other failures. Call with
 * the read lock held (a * reads the base relation's columns). */
static int view_shape_of(attu_session *s, attu_ast_arena *a, const attu_view *v, const attu_ast_query *q,
                         view_shape *vs, attu_error *err) {
    memset(vs, 0, sizeof *vs);
    vs->q = q;
    const attu_ast_from *f = q->u.select.from.items[0];
    vs->base = f->u.table.name;
    vs->base_qual = f->alias ? f->alias : f->u.table.name;
    const char *sc = f->u.table.schema;
    vs->base_schema = sc && !strcmp(sc, "public") ? ATTU_REL_PUBLIC
                    : sc && (!strcmp(sc, "pg_temp") || !strncmp(sc, "pg_temp_", 8)) ? ATTU_REL_TEMP
                    : attu_catalog_view_is_top(db_cat(s), v) ? ATTU_REL_PATH : ATTU_REL_PUBLIC;
    int side = vs->base_schema == ATTU_REL_PUBLIC ? ATTU_LAYER_BASE
             : vs->base_schema == ATTU_REL_TEMP ? ATTU_LAYER_TOP : ATTU_LAYER_AUTO;
    vs->ncols = v->ncols;
    vs->names = v->col_names;
    vs->exprs = attu_ast_alloc(a, sizeof *vs->exprs * (size_t)(v->ncols + 1));
    vs->base_col = attu_ast_alloc(a, sizeof *vs->base_col * (size_t)(v->ncols + 1));
    if (!vs->exprs || !vs->base_col) return attu_error_oom(err);
    /* the base relation's columns, for * */
    const attu_table *bt = attu_catalog_lookup_side(db_cat(s), vs->base, side);
    const attu_view *bv = bt ? NULL : attu_views_find(attu_catalog_views(db_cat(s)), vs->base);
    if (!bt && !bv)
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0, "relation \"%s\" does not exist", vs->base);
    int k = 0;
    for (int i = 0; i < q->u.select.nitems && k < v->ncols; i++) {
        const attu_ast_expr *e = q->u.select.items[i].expr;
        if (e->kind == ATTU_EXPR_STAR) {
            int n = bt ? bt->ncols : bv->ncols;
            for (int c = 0; c < n && k < v->ncols; c++, k++) {
                const char *cn = bt ? bt->defs[c].name : bv->col_names[c];
                /* FROM base AS b(x, y): the alias list renames the first ones */
                if (c < f->column_aliases.n) cn = f->column_aliases.items[c];
                vs->base_col[k] = cn;
                if (!(vs->exprs[k] = column_ref(a, vs->base_qual, cn, 0))) return attu_error_oom(err);
            }
            continue;
        }
        vs->exprs[k] = (attu_ast_expr *)e;
        if (e->kind == ATTU_EXPR_COLUMN &&
            (!e->u.column.qualifier || !strcmp(e->u.column.qualifier, vs->base_qual)))
            vs->base_col[k] = e->u.column.name;
        k++;
    }
    return 0;
}

static int column_not_updatable(attu_error *err, const char *verb, const char *col, const char *view) {
    attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "cannot %s column \"%s\" of view \"%s\"", verb, col, view);
    attu_error_set_detail(err, "View columns that are not columns of their base relation are not updatable.");
    return -1;
}

static int no_updatable_columns(attu_error *err, const char *verb, const char *gerund, const char *noun,
                                const char *view) {
    attu_error_set(err, "55000", 0, "cannot %s view \"%s\"", verb, view);
    attu_error_set_detail(err, "Views that have no updatable columns are not automatically updatable.");
    char hint[200];
    snprintf(hint, sizeof hint, "To enable %s the view, provide an INSTEAD OF %s trigger or an unconditional ON %s DO INSTEAD rule.",
             gerund, noun, noun);
    attu_error_set_hint(err, hint);
    return -1;
}

static int find_view_column(const view_shape *vs, const char *name) {
    for (int i = 0; i < vs->ncols; i++) if (!strcmp(vs->names[i], name)) return i;
    return -1;
}

/* ---- the statements --------------------------------------------------------- */

/* RETURNING over the view's columns, as RETURNING over the base relation:
 * * (or view.*) becomes the view's expressions under its column names,
 * other items have their view columns replaced. */
static int rewrite_returning(subst *use, const view_shape *local, attu_ast_select_item **items, int *n,
                             attu_error *err) {
    int cap = 0;
    for (int i = 0; i < *n; i++) cap += (*items)[i].expr->kind == ATTU_EXPR_STAR ? local->ncols : 1;
    attu_ast_select_item *out = attu_ast_alloc(use->a, sizeof *out * (size_t)(cap + 1));
    if (!out) return attu_error_oom(err);
    int k = 0;
    for (int i = 0; i < *n; i++) {
        const attu_ast_select_item *it = &(*items)[i];
        if (it->expr->kind == ATTU_EXPR_STAR) {
            if (it->expr->u.star.qualifier && strcmp(it->expr->u.star.qualifier, use->view_qual))
                return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, it->expr->position,
                                      "missing FROM-clause entry for table \"%s\"", it->expr->u.star.qualifier);
            for (int c = 0; c < local->ncols; c++) {
                out[k].expr = local->exprs[c];
                out[k].alias = local->names[c];
                out[k++].alias_position = 0;
            }
            continue;
        }
        out[k] = *it;
        /* a bare view column keeps its name, not its expression's */
        if (!out[k].alias && it->expr->kind == ATTU_EXPR_COLUMN) out[k].alias = it->expr->u.column.name;
        out[k++].expr = rewrite(use, it->expr);
    }
    if (use->oom) return attu_error_oom(err);
    *items = out;
    *n = k;
    return 0;
}

/* The view's column DEFAULTs (ALTER VIEW ... SET DEFAULT; dflt[k] the
 * parsed expression of view column k's, or NULL) in n, the rewritten
 * INSERT whose targets are the base columns of st's: as in PostgreSQL,
 * a DEFAULT in a VALUES row for a column that has one, and each
 * updatable column with one that the INSERT leaves out, take the view's
 * expression (the base table's DEFAULT applies to the rest). A VALUES
 * list (or DEFAULT VALUES) gets the expressions in its rows; another
 * query leaving such a column out is 0A000. */
static int view_defaults(const view_shape *vs, const attu_ast_stmt *st, attu_ast_expr *const *dflt, attu_ast_arena *a,
                         attu_ast_stmt *n, attu_error *err) {
    int ntarget = n->u.insert.columns.n;
    int *tk = attu_ast_alloc(a, sizeof *tk * (size_t)(ntarget + 1));
    if (!tk) return attu_error_oom(err);
    for (int i = 0; i < ntarget; i++)
        tk[i] = find_view_column(vs, st->u.insert.columns.n ? st->u.insert.columns.items[i] : vs->names[i]);
    /* the columns left out that have one */
    int nextra = 0;
    int *extra = attu_ast_alloc(a, sizeof *extra * (size_t)(vs->ncols + 1));
    if (!extra) return attu_error_oom(err);
    for (int k = 0; k < vs->ncols; k++) {
        if (!dflt[k] || !vs->base_col[k]) continue;
        bool listed = false;
        for (int i = 0; i < ntarget && !listed; i++) listed = tk[i] == k;
        if (!listed) extra[nextra++] = k;
    }
    const attu_ast_query *src = st->u.insert.source;
    if (src && src->kind != ATTU_QUERY_VALUES) {
        if (!nextra) return 0;
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "INSERT ... SELECT through a view whose column \"%s\" has a DEFAULT is not supported "
                              "unless the INSERT names that column", vs->names[extra[0]]);
    }
    if (!src && !nextra) return 0;   /* (DEFAULT VALUES: the base table's) */
    attu_ast_query *q = attu_ast_alloc(a, sizeof *q);
    if (!q) return attu_error_oom(err);
    if (src) *q = *src;
    else {
        memset(q, 0, sizeof *q);
        q->kind = ATTU_QUERY_VALUES;
        q->u.values.nrows = 1;
        ntarget = 0;   /* (DEFAULT VALUES: a row of the view's DEFAULTs alone) */
    }
    int nrows = q->u.values.nrows;
    attu_ast_expr_list *rows = attu_ast_alloc(a, sizeof *rows * (size_t)(nrows + 1));
    if (!rows) return attu_error_oom(err);
    for (int r = 0; r < nrows; r++) {
        int have = src ? src->u.values.rows[r].n : 0;
        attu_ast_expr **items = attu_ast_alloc(a, sizeof *items * (size_t)(have + nextra + 1));
        if (!items) return attu_error_oom(err);
        for (int i = 0; i < have; i++) {
            attu_ast_expr *e = src->u.values.rows[r].items[i];
            if (e->kind == ATTU_EXPR_DEFAULT && i < ntarget && tk[i] >= 0 && dflt[tk[i]]) e = dflt[tk[i]];
            items[i] = e;
        }
        /* (a row longer than the targets fails on the base table as it
         * would have: the extra values go after its own) */
        for (int j = 0; j < nextra; j++) items[have + j] = dflt[extra[j]];
        rows[r].items = items;
        rows[r].n = have + nextra;
    }
    q->u.values.rows = rows;
    if (nextra) {
        int all = n->u.insert.columns.n + nextra;
        char **names = attu_ast_alloc(a, sizeof *names * (size_t)(all + 1));
        int *pos = attu_ast_alloc(a, sizeof *pos * (size_t)(all + 1));
        if (!names || !pos) return attu_error_oom(err);
        int m = src ? n->u.insert.columns.n : 0;
        for (int i = 0; i < m; i++) {
            names[i] = n->u.insert.columns.items[i];
            pos[i] = n->u.insert.columns.positions[i];
        }
        for (int j = 0; j < nextra; j++) {
            names[m + j] = (char *)vs->base_col[extra[j]];
            pos[m + j] = 0;
        }
        n->u.insert.columns.items = names;
        n->u.insert.columns.positions = pos;
        n->u.insert.columns.n = m + nextra;
    }
    n->u.insert.source = q;
    return 0;
}

/* The rewritten INSERT into *out (allocated in a). */
static int rewrite_insert(const view_shape *vs, const char *view, const attu_ast_stmt *st, attu_ast_expr *const *dflt,
                          attu_ast_arena *a, attu_ast_stmt **out, attu_error *err) {
    attu_ast_stmt *n = attu_ast_alloc(a, sizeof *n);
    if (!n) return attu_error_oom(err);
    *n = *st;
    /* the view columns it fills: those listed, or the first ones, as many
     * as the source gives */
    int ntarget = st->u.insert.columns.n;
    const attu_ast_query *src = st->u.insert.source;
    if (!ntarget) {
        ntarget = vs->ncols;
        if (!src) ntarget = 0;
        else if (src->kind == ATTU_QUERY_VALUES && src->u.values.nrows && src->u.values.rows[0].n < ntarget)
            ntarget = src->u.values.rows[0].n;
        else if (src->kind == ATTU_QUERY_SELECT && src->u.select.nitems < ntarget) {
            bool star = false;
            for (int i = 0; i < src->u.select.nitems; i++) star |= src->u.select.items[i].expr->kind == ATTU_EXPR_STAR;
            if (!star) ntarget = src->u.select.nitems;
        }
    }
    char **names = attu_ast_alloc(a, sizeof *names * (size_t)(ntarget + 1));
    int *pos = attu_ast_alloc(a, sizeof *pos * (size_t)(ntarget + 1));
    if (!names || !pos) return attu_error_oom(err);
    for (int i = 0; i < ntarget; i++) {
        const char *vc = st->u.insert.columns.n ? st->u.insert.columns.items[i] : vs->names[i];
        int k = find_view_column(vs, vc);
        pos[i] = st->u.insert.columns.n && st->u.insert.columns.positions ? st->u.insert.columns.positions[i] : 0;
        if (k < 0)
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, pos[i],
                                  "column \"%s\" of relation \"%s\" does not exist", vc, view);
        if (!vs->base_col[k]) return column_not_updatable(err, "insert into", vc, view);
        names[i] = (char *)vs->base_col[k];
    }
    if (st->u.insert.nreturning) {
        /* INSERT takes no alias: the base relation goes by its name */
        subst req = { .a = a, .fn = requalify, .vs = vs, .qual = vs->base, .view_qual = view };
        view_shape local = *vs;
        local.exprs = attu_ast_alloc(a, sizeof *local.exprs * (size_t)(vs->ncols + 1));
        if (!local.exprs) return attu_error_oom(err);
        for (int i = 0; i < vs->ncols; i++) local.exprs[i] = rewrite(&req, vs->exprs[i]);
        subst use = { .a = a, .fn = view_column, .vs = &local, .qual = vs->base, .view_qual = view, .closed = true };
        if (req.oom || rewrite_returning(&use, &local, &n->u.insert.returning, &n->u.insert.nreturning, err)) return -1;
        if (use.unknown) return unknown_column(&use, err);
    }
    n->u.insert.table = (char *)vs->base;
    n->schema = vs->base_schema;
    n->u.insert.columns.items = names;
    n->u.insert.columns.positions = pos;
    n->u.insert.columns.n = ntarget;
    if (dflt && view_defaults(vs, st, dflt, a, n, err)) return -1;
    *out = n;
    return 0;
}

/* The rewritten UPDATE or DELETE into *out (allocated in a). */
static int rewrite_modify(const view_shape *vs, const char *view, const attu_ast_stmt *st, attu_ast_arena *a,
                          attu_ast_stmt **out, attu_error *err) {
    attu_ast_stmt *n = attu_ast_alloc(a, sizeof *n);
    if (!n) return attu_error_oom(err);
    *n = *st;
    const char *qual = st->u.modify.alias ? st->u.modify.alias : view;
    subst req = { .a = a, .fn = requalify, .vs = vs, .qual = qual, .view_qual = qual };
    /* the view's expressions, over the base relation as `qual` */
    view_shape local = *vs;
    local.exprs = attu_ast_alloc(a, sizeof *local.exprs * (size_t)(vs->ncols + 1));
    if (!local.exprs) return attu_error_oom(err);
    for (int i = 0; i < vs->ncols; i++) local.exprs[i] = rewrite(&req, vs->exprs[i]);
    attu_ast_expr *view_where = rewrite(&req, vs->q->u.select.where);
    subst use = { .a = a, .fn = view_column, .vs = &local, .qual = qual, .view_qual = qual,
                  .closed = st->u.modify.from.n == 0 };
    if (st->kind == ATTU_STMT_UPDATE) {
        attu_ast_set_item *sets = attu_ast_alloc(a, sizeof *sets * (size_t)(st->u.modify.nsets + 1));
        if (!sets) return attu_error_oom(err);
        for (int i = 0; i < st->u.modify.nsets; i++) {
            sets[i] = st->u.modify.sets[i];
            int k = find_view_column(vs, sets[i].column);
            if (k < 0)
                return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, sets[i].position,
                                      "column \"%s\" of relation \"%s\" does not exist", sets[i].column, view);
            if (!vs->base_col[k]) return column_not_updatable(err, "update", sets[i].column, view);
            sets[i].column = (char *)vs->base_col[k];
            sets[i].value = rewrite(&use, sets[i].value);
        }
        n->u.modify.sets = sets;
    }
    attu_ast_expr *where = rewrite(&use, st->u.modify.where);
    if (view_where && where) {
        attu_ast_expr *and = new_expr(a, NULL);
        if (!and) return attu_error_oom(err);
        and->kind = ATTU_EXPR_BINARY;
        and->position = where->position;
        and->u.binary.op = ATTU_BINOP_AND;
        and->u.binary.op_text = "AND";
        and->u.binary.left = view_where;
        and->u.binary.right = where;
        and->depth = 1 + (view_where->depth > where->depth ? view_where->depth : where->depth);
        where = and;
    } else if (view_where) where = view_where;
    if (req.oom || use.oom) return attu_error_oom(err);
    if (st->u.modify.nreturning &&
        rewrite_returning(&use, &local, &n->u.modify.returning, &n->u.modify.nreturning, err))
        return -1;
    if (use.unknown) return unknown_column(&use, err);
    n->u.modify.table = (char *)vs->base;
    n->schema = vs->base_schema;
    n->u.modify.alias = (char *)qual;
    n->u.modify.where = where;
    *out = n;
    return 0;
}

/* The check options the statement on the view's relation carries: in,
 * over the view as `qual` names it, become expressions over the relation
 * as next_qual names it; the view's own WHERE joins them (first) when it
 * has a check option or a CASCADED one above it reaches it. */
static int carry_checks(const view_shape *vs, const attu_view *v, const attu_ast_view_check *in, const char *qual,
                        const char *next_qual, attu_ast_arena *a, attu_ast_view_check **out, attu_error *err) {
    *out = NULL;
    bool cascade = false;
    for (const attu_ast_view_check *c = in; c; c = c->next) cascade |= c->cascaded;
    if (!in && !v->check_option) return 0;
    subst req = { .a = a, .fn = requalify, .vs = vs, .qual = next_qual, .view_qual = qual };
    view_shape local = *vs;
    local.exprs = attu_ast_alloc(a, sizeof *local.exprs * (size_t)(vs->ncols + 1));
    if (!local.exprs) return attu_error_oom(err);
    for (int i = 0; i < vs->ncols; i++) local.exprs[i] = rewrite(&req, vs->exprs[i]);
    subst use = { .a = a, .fn = view_column, .vs = &local, .qual = next_qual, .view_qual = qual, .closed = true };
    attu_ast_view_check *head = NULL, **tail = &head;
    if (v->check_option || cascade) {
        attu_ast_view_check *own = attu_ast_alloc(a, sizeof *own);
        if (!own) return attu_error_oom(err);
        memset(own, 0, sizeof *own);
        own->view = attu_ast_strdup(a, v->name);
        own->cond = rewrite(&req, vs->q->u.select.where);
        own->cascaded = cascade || v->check_option == 'c';
        *tail = own;
        tail = &own->next;
    }
    for (const attu_ast_view_check *c = in; c; c = c->next) {
        attu_ast_view_check *n = attu_ast_alloc(a, sizeof *n);
        if (!n) return attu_error_oom(err);
        *n = *c;
        n->next = NULL;
        n->cond = rewrite(&use, c->cond);
        *tail = n;
        tail = &n->next;
    }
    if (req.oom || use.oom) return attu_error_oom(err);
    if (use.unknown) return unknown_column(&use, err);
    *out = head;
    return 0;
}

/* The view's column DEFAULTs parsed (one query "SELECT (d1), (d2)" kept
 * in rw, as the view's own): *out[k] for view column k (NULL: none;
 * *out NULL when the view has none). */
static int view_default_exprs(const attu_view *v, db_view_rewrite *rw, attu_ast_expr ***out, attu_error *err) {
    *out = NULL;
    size_t len = 16;
    int nd = 0;
    for (int k = 0; k < v->ncols; k++)
        if (v->col_defaults[k]) { len += strlen(v->col_defaults[k]) + 8; nd++; }
    if (!nd) return 0;
    char *text = malloc(len);
    attu_ast_expr **d = attu_ast_alloc(rw->a, sizeof *d * (size_t)(v->ncols + 1));
    if (!text || !d) { free(text); return attu_error_oom(err); }
    size_t at = (size_t)snprintf(text, len, "SELECT ");
    for (int k = 0, j = 0; k < v->ncols; k++)
        if (v->col_defaults[k]) at += (size_t)snprintf(text + at, len - at, "%s(%s)", j++ ? ", " : "", v->col_defaults[k]);
    rw->defaults = attu_parse(text, err);
    free(text);
    if (!rw->defaults) return -1;
    const attu_ast_query *q = rw->defaults->stmts[0].stmt->u.select.query;
    for (int k = 0, j = 0; k < v->ncols; k++) d[k] = v->col_defaults[k] ? q->u.select.items[j++].expr : NULL;
    *out = d;
    return 0;
}

int db_view_rewrite_dml(attu_session *s, const attu_ast_stmt *st, db_view_rewrite *rw, const attu_ast_stmt **out,
                        attu_error *err) {
    const char *view = st->kind == ATTU_STMT_INSERT ? st->u.insert.table : st->u.modify.table;
    bool insert = st->kind == ATTU_STMT_INSERT, update = st->kind == ATTU_STMT_UPDATE;
    memset(rw, 0, sizeof *rw);
    *out = NULL;
    if (!(rw->a = attu_ast_arena_new())) return attu_error_oom(err);
    attu_ast_stmt *n = NULL;
    int rc = -1;
    pthread_rwlock_rdlock(&s->db->lock);
    const attu_view *v = attu_views_find(attu_catalog_views(db_cat(s)), view);
    if (!v) {
        /* dropped since the caller looked */
        attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0, "relation \"%s\" does not exist", view);
        goto out;
    }
    if (db_view_updatable_reason(s, view, st->kind, err)) goto out;
    if (!(rw->pr = attu_parse(v->sql, err))) goto out;
    view_shape vs;
    if (view_shape_of(s, rw->a, v, rw->pr->stmts[0].stmt->u.select.query, &vs, err)) goto out;
    if (insert || update) {
        bool any = false;
        for (int i = 0; i < vs.ncols; i++) any |= vs.base_col[i] != NULL;
        if (!any) {
            no_updatable_columns(err, insert ? "insert into" : "update", insert ? "inserting into" : "updating",
                                 insert ? "INSERT" : "UPDATE", view);
            goto out;
        }
    }
    attu_ast_expr **dflt = NULL;
    if (insert && view_default_exprs(v, rw, &dflt, err)) goto out;
    rc = insert ? rewrite_insert(&vs, view, st, dflt, rw->a, &n, err) : rewrite_modify(&vs, view, st, rw->a, &n, err);
    if (!rc && insert)
        rc = carry_checks(&vs, v, st->u.insert.view_checks, view, vs.base, rw->a, &n->u.insert.view_checks, err);
    else if (!rc && update) {
        const char *qual = st->u.modify.alias ? st->u.modify.alias : view;
        rc = carry_checks(&vs, v, st->u.modify.view_checks, qual, qual, rw->a, &n->u.modify.view_checks, err);
    }
out:
    pthread_rwlock_unlock(&s->db->lock);
    if (!rc) *out = n;
    return rc;
}

void db_view_rewrite_free(db_view_rewrite *rw) {
    attu_parse_free(rw->pr);
    attu_parse_free(rw->defaults);
    attu_ast_arena_free(rw->a);
    memset(rw, 0, sizeof *rw);
}

int db_view_dml(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                const attu_exec_callbacks *cb, attu_error *err) {
    db_view_rewrite rw;
    const attu_ast_stmt *n;
    int rc = db_view_rewrite_dml(s, st, &rw, &n, err);
    /* run with no lock held: the rewritten statement takes its own (and
     * is rewritten again when its relation is a view too) */
    if (!rc) rc = db_exec_stmt(s, sql, n, params, cb, err);
    db_view_rewrite_free(&rw);
    return rc;
}

/* ---- checking the new rows ------------------------------------------------- */

/* SELECT min(CASE WHEN (c1) IS NOT TRUE THEN rowid END), ... FROM t AS qual
 * over the rows in question: the text with a placeholder for each
 * condition, which the parsed tree then takes in its place. */
int db_view_check_rows(attu_session *s, const attu_ast_view_check *checks, const char *qual, attu_table *t,
                       size_t first, const uint8_t *changed, attu_error *err) {
    int nc = 0;
    for (const attu_ast_view_check *c = checks; c; c = c->next) nc += c->cond != NULL;
    if (!nc) return 0;
    size_t n = 0, *rows = NULL;
    if (changed) {
        for (size_t r = 0; r < t->nrows; r++) n += changed[r] != 0;
    } else n = first < t->nrows ? t->nrows - first : 0;
    if (!n) return 0;
    if (!(rows = malloc(sizeof *rows * n))) return attu_error_oom(err);
    size_t k = 0;
    for (size_t r = changed ? 0 : first; r < t->nrows; r++)
        if (!changed || changed[r]) rows[k++] = r;
    attu_table *g = db_gather_rows(t, rows, n, t->name, err);
    if (!g) { free(rows); return -1; }
    const attu_ast_view_check **order = calloc((size_t)nc + 1, sizeof *order);
    char qt[2 * ATTU_NAME_MAX + 4], qq[2 * ATTU_NAME_MAX + 4];
    size_t cap = 256 + (size_t)nc * 80 + 2 * sizeof qt;
    char *sql = malloc(cap);
    attu_parse_result *pr = NULL;
    attu_result *res = NULL;
    int rc = -1;
    if (!order || !sql) { attu_error_oom(err); goto out; }
    size_t len = (size_t)snprintf(sql, cap, "SELECT ");
    k = 0;
    for (const attu_ast_view_check *c = checks; c; c = c->next) {
        if (!c->cond) continue;
        order[k] = c;
        len += (size_t)snprintf(sql + len, cap - len, "%smin(CASE WHEN (true) IS NOT TRUE THEN \"%s\" END)",
                                k ? ", " : "", ATTU_ROWID_INTERNAL);
        k++;
    }
    snprintf(sql + len, cap - len, " FROM %s AS %s", db_quote_ident(t->name, qt, sizeof qt),
             db_quote_ident(qual, qq, sizeof qq));
    if (!(pr = attu_parse(sql, err))) goto out;
    attu_ast_query *q = pr->n == 1 && pr->stmts[0].stmt->kind == ATTU_STMT_SELECT ? pr->stmts[0].stmt->u.select.query
                                                                                  : NULL;
    for (int i = 0; q && i < nc; i++) {
        attu_ast_expr *m = q->kind == ATTU_QUERY_SELECT && i < q->u.select.nitems ? q->u.select.items[i].expr : NULL;
        attu_ast_expr *cs = m && m->kind == ATTU_EXPR_FUNC && m->u.func.args.n == 1 ? m->u.func.args.items[0] : NULL;
        attu_ast_expr *is = cs && cs->kind == ATTU_EXPR_CASE && cs->u.case_.nwhens == 1 ? cs->u.case_.whens[0].when : NULL;
        if (!is || is->kind != ATTU_EXPR_IS) { q = NULL; break; }
        is->u.is.arg = order[i]->cond;
    }
    if (!q) { attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "view check option query does not parse"); goto out; }
    /* the new rows stand for the table while the query runs */
    attu_table *old = attu_catalog_lookup(db_cat(s), t->name);
    if (!old) { attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0, "relation \"%s\" does not exist", t->name); goto out; }
    attu_catalog_replace(db_cat(s), g);
    res = db_run_query(s, sql, q, &db_own_query_params, err);
    attu_catalog_replace(db_cat(s), old);
    if (!res) { err->position = 0; goto out; }
    int which = -1;
    int64_t best = db_check_first_failing(res, nc, &which);
    rc = 0;
    if (best >= 0) {
        attu_error_set(err, "44000", 0, "new row violates check option for view \"%s\"", order[which]->view);
        char *d = db_check_failing_row(g, (size_t)best);
        if (d) attu_error_set_detail(err, "%s", d);
        free(d);
        rc = -1;
    }
out:
    attu_result_free(res);
    attu_parse_free(pr);
    free(sql);
    free(order);
    attu_table_free(g);
    free(rows);
    return rc;
}

int db_view_check_listed(attu_session *s, const attu_ast_view_check *checks, const char *qual, attu_table *t,
                         const size_t *rows, size_t n, attu_error *err) {
    if (!checks || !n) return 0;
    uint8_t *mask = calloc(t->nrows + 1, 1);
    if (!mask) return attu_error_oom(err);
    for (size_t k = 0; k < n; k++) if (rows[k] < t->nrows) mask[rows[k]] = 1;
    int rc = db_view_check_rows(s, checks, qual, t, 0, mask, err);
    free(mask);
    return rc;
}
