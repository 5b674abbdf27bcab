/*
 * binder.c - binding queries: FROM (tables, CTEs, subqueries, joins), WHERE,
 * GROUP BY / aggregates / HAVING, window functions, the select list,
 * DISTINCT, ORDER BY, LIMIT / OFFSET, VALUES and set operations.
 *
 * A SELECT becomes, bottom up:
 *   FROM plan -> FILTER(where) -> AGG(groups, aggregates) -> FILTER(having)
 *   -> WINDOW(calls) -> PROJECT(select list + hidden sort columns)
 *   -> DISTINCT -> SORT -> LIMIT -> PROJECT(drop hidden columns)
 * Expressions are first bound against the FROM scope with aggregate and
 * window calls left in place; then aggregate calls and GROUP BY
 * expressions are replaced by references to the AGG node's outputs (a bare
 * column left over is the 42803 grouping error), then window calls by
 * references to the WINDOW node's outputs.
 *
 * Functional dependency: GROUP BY t.rowid (attu's pseudo-column naming a
 * row of t) makes every column of that t usable ungrouped, as a primary key
 * does in PostgreSQL. That is how the cities query groups "by one side's
 * row" of a self-join.
 */
#include "planner/binder_internal.h"
#include "engine/domain_type.h"
#include "engine/comments.h"
#include "planner/lower.h"
#include "planner/rewrite.h"
#include "engine/view.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OOM_NULL(c) do { attu_error_oom((c)->err); return NULL; } while (0)

static void set_col(attu_lplan *p, int i, const char *name, attu_type t, attu_plan_arena *pa) {
    p->names[i] = attu_pstrdup(pa, name, strlen(name));
    p->types[i] = t;
}

/* ---- expression utilities ----------------------------------------------------- */

static attu_bexpr *copy_shift(bctx *c, const attu_bexpr *e, int delta) {
    if (!e) return NULL;
    attu_bexpr *x = attu_palloc(c->pa, sizeof *x);
    if (!x) OOM_NULL(c);
    *x = *e;
    if (e->kind == BX_COL) { x->col = e->col + delta; return x; }
    for (int i = 0; i < e->nargs; i++) x->args[i] = copy_shift(c, e->args[i], delta);
    if (e->kind == BX_CASE) {
        x->whens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)e->nwhens);
        x->thens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)e->nwhens);
        for (int i = 0; i < e->nwhens; i++) { x->whens[i] = copy_shift(c, e->whens[i], delta); x->thens[i] = copy_shift(c, e->thens[i], delta); }
        x->else_ = copy_shift(c, e->else_, delta);
    }
    return x;
}

/* A copy of e with each reference to column i of a projection's output
 * (i below OUTER_BASE) replaced by a copy of that projection's expression
 * exprs[i]: e read over the projection's input instead. */
static attu_bexpr *through_project(bctx *c, const attu_bexpr *e, attu_bexpr *const *exprs, int n) {
    if (!e) return NULL;
    if (e->kind == BX_COL && e->col < OUTER_BASE && e->col < n) return copy_shift(c, exprs[e->col], 0);
    attu_bexpr *x = attu_palloc(c->pa, sizeof *x);
    if (!x) OOM_NULL(c);
    *x = *e;
    if (e->kind == BX_COL) return x;
    for (int i = 0; i < e->nargs; i++)
        if (e->args[i] && !(x->args[i] = through_project(c, e->args[i], exprs, n))) return NULL;
    if (e->kind == BX_CASE) {
        x->whens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(e->nwhens + 1));
        x->thens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(e->nwhens + 1));
        if (!x->whens || !x->thens) OOM_NULL(c);
        for (int i = 0; i < e->nwhens; i++)
            if (!(x->whens[i] = through_project(c, e->whens[i], exprs, n)) ||
                !(x->thens[i] = through_project(c, e->thens[i], exprs, n))) return NULL;
        if (e->else_ && !(x->else_ = through_project(c, e->else_, exprs, n))) return NULL;
    }
    return x;
}

/* ORDER BY a row value (ROW(a, b), a whole-row reference, or an output
 * column that is one) orders by its items, as PostgreSQL's record
 * comparison: each item a key in the row's direction, a NULL item above
 * every value (last ascending, first descending, whatever NULLS FIRST /
 * LAST says of the row, which is never NULL itself). Its text would order
 * (10) before (2). The keys are copies of the items, as later passes
 * renumber each key's columns in place. Not under SELECT DISTINCT, whose
 * ORDER BY must name list items (the text order is kept there). */
/* The sort keys of a row value rec (a nested row's items in its place,
 * as record comparison recurses): written to out when given; the count. */
static int row_keys(bctx *c, const attu_bexpr *rec, attu_sort_item dir, attu_sort_item *out, int *nout) {
    attu_bexpr **f;
    int nf = attu_row_value_items(c, rec, &f), m = 0;
    if (nf <= 0) {
        if (out) {
            out[0] = dir;
            out[0].nulls_first = dir.desc;
            if (!(out[0].expr = copy_shift(c, rec, 0))) return -1;
            nout[0] = -1;
        }
        return 1;
    }
    attu_bexpr *nt = attu_row_value_null_test(c, rec);
    if (nt) {
        /* a NULL row (no outer-join partner) after the others ascending,
         * first descending, as NULLs by default */
        if (out) {
            out[m] = dir;
            out[m].nulls_first = false;
            if (!(out[m].expr = copy_shift(c, nt, 0))) return -1;
            nout[m] = -1;
        }
        m++;
    }
    for (int j = 0; j < nf; j++) {
        /* a constant item orders nothing (and an untyped literal's key
         * would have no type to sort by) */
        if (f[j]->kind == BX_CONST) continue;
        int k = row_keys(c, f[j], dir, out ? out + m : NULL, out ? nout + m : NULL);
        if (k < 0) return -1;
        m += k;
    }
    return m;
}

static bool expand_row_keys(bctx *c, attu_bexpr **items, int nitems, bool plain_distinct, attu_sort_item **ordp,
                            int **outp, int *nordp, bool **depp) {
    int nord = *nordp, total = 0;
    attu_sort_item *ord = *ordp;
    int *out = *outp;
    attu_bexpr **f;
    bool any = false;
    bool *row = attu_palloc(c->pa, sizeof *row * (size_t)(nord + 1));
    if (!row) OOM_NULL(c);
    for (int i = 0; i < nord; i++) {
        const attu_bexpr *k = out[i] >= 0 ? items[out[i]] : ord[i].expr;
        row[i] = k && attu_row_value_items(c, k, &f) > 0;
        /* under SELECT DISTINCT only a row of the list: its items are
         * then hidden sort columns that depend on it (its text tells
         * them), so they split no DISTINCT group */
        if (row[i] && plain_distinct && out[i] < 0) {
            bool listed = false;
            for (int j = 0; j < nitems && !listed; j++) listed = attu_bx_equal(items[j], k);
            row[i] = listed;
        }
        any |= row[i];
        total += row[i] ? row_keys(c, k, ord[i], NULL, NULL) : 1;
    }
    if (!any) return true;
    attu_sort_item *no = attu_palloc(c->pa, sizeof *no * (size_t)(total + 1));
    int *nout = attu_palloc(c->pa, sizeof *nout * (size_t)(total + 1));
    bool *dep = attu_palloc(c->pa, sizeof *dep * (size_t)(total + 1));
    if (!no || !nout || !dep) OOM_NULL(c);
    int m = 0;
    for (int i = 0; i < nord; i++) {
        const attu_bexpr *k = out[i] >= 0 ? items[out[i]] : ord[i].expr;
        if (!row[i]) { dep[m] = false; no[m] = ord[i]; nout[m++] = out[i]; continue; }
        int w = row_keys(c, k, ord[i], no + m, nout + m);
        if (w < 0) return false;
        for (int j = 0; j < w; j++) dep[m + j] = true;
        m += w;
    }
    *ordp = no; *outp = nout; *nordp = total; *depp = dep;
    return true;
}

/* Bit 1: uses a column < nleft; bit 2: uses a column >= nleft. */
static int sides(const attu_bexpr *e, int nleft) {
    if (!e) return 0;
    int s = 0;
    if (e->kind == BX_COL) return e->col < nleft ? 1 : 2;
    if (e->kind == BX_AGG || e->kind == BX_WINDOW) s |= 4;
    for (int i = 0; i < e->nargs; i++) s |= sides(e->args[i], nleft);
    for (int i = 0; i < e->nwhens; i++) s |= sides(e->whens[i], nleft) | sides(e->thens[i], nleft);
    s |= sides(e->else_, nleft);
    return s;
}

static int split_conjuncts(attu_bexpr *e, attu_bexpr **out, int n, int cap) {
    if (e->kind == BX_CALL && e->op == ATTU_OP_AND) {
        n = split_conjuncts(e->args[0], out, n, cap);
        return split_conjuncts(e->args[1], out, n, cap);
    }
    if (n < cap) out[n++] = e;
    return n;
}

static attu_bexpr *and_all(bctx *c, attu_bexpr **v, int n) {
    attu_bexpr *acc = NULL;
    for (int i = 0; i < n; i++)
        acc = acc ? mk_call(c, ATTU_OP_AND, attu_type_make(ATTU_TYPE_BOOL), v[i]->position, 2, acc, v[i], NULL, NULL) : v[i];
    return acc;
}

/* A filter of the n conjuncts `local` (which read only `in`) over in. */
static attu_lplan *filter_local(bctx *c, attu_lplan *in, attu_bexpr **local, int n) {
    attu_lplan *lf = attu_lp_new(c->pa, LP_FILTER, in->ncols);
    if (!lf) OOM_NULL(c);
    memcpy(lf->types, in->types, sizeof(attu_type) * (size_t)in->ncols);
    memcpy(lf->names, in->names, sizeof(char *) * (size_t)in->ncols);
    lf->left = in; lf->pred = and_all(c, local, n); lf->est_rows = in->est_rows / 3;
    return lf;
}

/* An equality that can be a join key (NUMERIC ones too: join_keys makes
 * equal values of any display scale equal keys). */
static bool is_equi(const attu_bexpr *e) {
    return e->kind == BX_CALL && (e->op == ATTU_OP_EQ_I || e->op == ATTU_OP_EQ_F || e->op == ATTU_OP_EQ_S ||
                                  e->op == ATTU_OP_EQ_N);
}

/* Makes an inner/left join of l and r with condition cond (over l ++ r):
 * equalities between the sides become keys, the rest the residual. */
attu_lplan *attu_make_join(bctx *c, attu_lplan *l, attu_lplan *r, attu_join_kind jk, attu_bexpr *cond) {
    attu_lplan *j = attu_lp_new(c->pa, LP_JOIN, l->ncols + r->ncols);
    if (!j) OOM_NULL(c);
    j->left = l; j->right = r; j->jk = jk;
    for (int i = 0; i < l->ncols; i++) { j->types[i] = l->types[i]; j->names[i] = l->names[i]; }
    for (int i = 0; i < r->ncols; i++) { j->types[l->ncols + i] = r->types[i]; j->names[l->ncols + i] = r->names[i]; }
    j->rowid_col = -1;
    attu_bexpr *conj[256], *rest[256];
    int n = cond ? split_conjuncts(cond, conj, 0, 256) : 0, nrest = 0;
    j->lkeys = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n + 1));
    j->rkeys = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        attu_bexpr *e = conj[i];
        if (is_equi(e)) {
            int sa = sides(e->args[0], l->ncols), sb = sides(e->args[1], l->ncols);
            if (sa == 1 && sb == 2) { j->lkeys[j->nkeys] = e->args[0]; j->rkeys[j->nkeys++] = copy_shift(c, e->args[1], -l->ncols); continue; }
            if (sa == 2 && sb == 1) { j->lkeys[j->nkeys] = e->args[1]; j->rkeys[j->nkeys++] = copy_shift(c, e->args[0], -l->ncols); continue; }
        }
        rest[nrest++] = e;
    }
    j->residual = and_all(c, rest, nrest);
    if (jk == JK_CROSS && (j->nkeys || j->residual)) j->jk = JK_INNER;
    if ((jk == JK_FULL || jk == JK_LEFT) && !j->nkeys) {
        /* no equality: one constant key makes every pair a candidate */
        j->lkeys[0] = mk_const_int(c, attu_type_make(ATTU_TYPE_INT32), 0);
        j->rkeys[0] = mk_const_int(c, attu_type_make(ATTU_TYPE_INT32), 0);
        j->nkeys = 1;
    }
    if (jk == JK_INNER && !j->nkeys && !j->residual) j->jk = JK_CROSS;
    double lr = l->est_rows, rr = r->est_rows;
    j->est_rows = j->jk == JK_CROSS ? lr * rr : (lr > rr ? lr : rr);
    return j;
}

/* Bit 1: reads an inner column; bit 2: reads an outer (correlated) one. */
static int outer_sides(const attu_bexpr *e) {
    if (!e) return 0;
    if (e->kind == BX_COL) return e->col >= OUTER_BASE ? 2 : 1;
    int s = 0;
    for (int i = 0; i < e->nargs; i++) s |= outer_sides(e->args[i]);
    for (int i = 0; i < e->nwhens; i++) s |= outer_sides(e->whens[i]) | outer_sides(e->thens[i]);
    return s | outer_sides(e->else_);
}

/* Calls fn(col, a, b) on every column reference of x's tree, in place
 * (through arguments, CASE arms and ELSE, as copy_shift copies them). */
static void each_col(attu_bexpr *x, void (*fn)(attu_bexpr *, int, int), int a, int b) {
    if (!x) return;
    if (x->kind == BX_COL) { fn(x, a, b); return; }
    for (int k = 0; k < x->nargs; k++) each_col(x->args[k], fn, a, b);
    for (int k = 0; k < x->nwhens; k++) { each_col(x->whens[k], fn, a, b); each_col(x->thens[k], fn, a, b); }
    each_col(x->else_, fn, a, b);
}

static void col_remap_outer(attu_bexpr *y, int nl, int unused) {
    (void)unused;
    y->col = y->col >= OUTER_BASE ? y->col - OUTER_BASE : y->col + nl;
}

/* outer col k -> k, inner col i -> nl + i */
static attu_bexpr *remap_outer(bctx *c, const attu_bexpr *e, int nl) {
    attu_bexpr *x = copy_shift(c, e, 0);
    each_col(x, col_remap_outer, nl, 0);
    return x;
}

static attu_lplan *bind_exists_join(bctx *c, attu_lplan *p, const scope *sc, const attu_ast_expr *e, bool negated);
static attu_lplan *apply_pending(bctx *c, attu_lplan *p);
static attu_lplan *apply_pending_pre_agg(bctx *c, attu_lplan *p);

/* ---- FROM ------------------------------------------------------------------------ */

static bool scope_push(bctx *c, scope *sc, const char *qual, const char *name, attu_type t, bool hidden, bool rowid, int source) {
    if (sc->n >= sc->cap) {
        /* doubling: a copy a push made a chain of k joins cost k^3 bytes
           (a 600-item JOIN chain took 4 GB to bind) */
        int cap = sc->cap ? sc->cap * 2 : 8;
        if (cap < sc->n + 1) cap = sc->n + 1;
        scope_col *n = attu_palloc(c->pa, sizeof *n * (size_t)cap);
        if (!n) { attu_error_oom(c->err); return false; }
        if (sc->n) memcpy(n, sc->cols, sizeof *n * (size_t)sc->n);
        sc->cols = n;
        sc->cap = cap;
    }
    sc->cols[sc->n] = (scope_col){ .qual = qual, .name = name, .type = t, .hidden = hidden, .is_rowid = rowid,
                                   .star_pos = sc->n, .qual_pos = sc->n, .source = source };
    sc->n++;
    return true;
}

/* Appends a copy of *col to sc, its * position moved by star_base. */
static bool scope_push_col(bctx *c, scope *sc, const scope_col *col, int star_base) {
    if (!scope_push(c, sc, col->qual, col->name, col->type, col->hidden, col->is_rowid, col->source)) return false;
    scope_col *n = &sc->cols[sc->n - 1];
    *n = *col;
    n->star_pos = star_base + col->star_pos;
    return true;
}

/* A derived table's query bound with its row columns carrying their
 * items (row_value.c attu_row_value_carry): its first n0 columns are its
 * own, the rest hidden items; at / cnt say where each column's items
 * are (for the first ncarried). */
typedef struct carried { int n0, ncarried, *at, *cnt; } carried;

static const select_domains *select_domains_of(const bctx *c, const attu_ast_query *q);

static attu_lplan *bind_carrying(bctx *c, const attu_ast_query *q, carried *cr) {
    const attu_ast_query *save = c->carry_query;
    c->carry_query = q;
    c->carry_at = c->carry_cnt = NULL;
    c->carry_n0 = c->carry_total = 0;
    attu_lplan *p = bind_query(c, q);
    cr->at = c->carry_at; cr->cnt = c->carry_cnt;
    cr->ncarried = cr->at ? c->carry_total : 0;
    cr->n0 = cr->at ? c->carry_n0 : p ? p->ncols : 0;
    c->carry_query = save;
    c->carry_at = c->carry_cnt = NULL;
    return p;
}

/* Column i of a derived table bound by bind_carrying, into sc: its own
 * visible, an item hidden, and the items it has */
static bool push_carried(bctx *c, scope *sc, const char *qual, const char *name, const attu_lplan *p,
                         const carried *cr, int i, int source) {
    if (!scope_push(c, sc, qual, name, p->types[i], i >= cr->n0, false, source)) return false;
    if (i < cr->ncarried) {
        sc->cols[sc->n - 1].row_items = cr->cnt[i];
        sc->cols[sc->n - 1].row_items_at = cr->at[i] - i;
    }
    return true;
}

/* One past the largest * position in sc. */
static int scope_star_end(const scope *sc) {
    int m = 0;
    for (int i = 0; i < sc->n; i++) if (sc->cols[i].star_pos + 1 > m) m = sc->cols[i].star_pos + 1;
    return m;
}

static attu_lplan *bind_from(bctx *c, const attu_ast_from *f, scope *sc);
static attu_lplan *mk_project(bctx *c, attu_lplan *child, int n, attu_bexpr **exprs, char **names);

static attu_lplan *bind_recursive_cte(bctx *c, cte_def *d);
static bool arm_plain(const attu_ast_query *q, int col);

/* A view named in FROM: its query, parsed again from the catalog's text,
 * bound as a subquery in a context of its own (it sees no CTE, outer
 * scope or parameter of the statement naming it), then held to the columns
 * CREATE VIEW fixed: their number and types (a table changed under the
 * view fails here rather than answer in another shape), the view's names.
 * Its errors carry no position: they are not in this statement's text. */
static attu_lplan *bind_view_ref(bctx *c, const attu_ast_from *f, scope *sc, const attu_view *v, const char *qual,
                                 int source) {
    if (f->column_aliases.n > v->ncols) {
        attu_error_set(c->err, "42P10", 0, "table \"%s\" has %d columns available but %d columns specified", qual,
                       v->ncols, f->column_aliases.n);
        return NULL;
    }
    if (!attu_view_check_recursion(c, v)) return NULL;
    const attu_ast_query *q = attu_view_parse(c, v);
    if (!q) return NULL;
    view_link link = { v, c->views };
    bctx vc = *c;
    if (c->params) {
        /* (in the arena: nothing bound may outlive what it points to) */
        attu_bind_params *vp = attu_palloc(c->pa, sizeof *vp);
        if (!vp) OOM_NULL(c);
        *vp = *c->params;
        vp->n = 0; vp->types = NULL; vp->values = NULL; vp->inferred = NULL;
        vp->open_uses = NULL; vp->undetermined_uses = NULL;
        vp->insert_types = NULL; vp->insert_names = NULL; vp->ninsert = 0;
        vp->on_relation = NULL; vp->relation_ctx = NULL;
        vc.params = vp;
    }
    vc.views = &link;
    vc.ctes = NULL;
    vc.outer = NULL; vc.outer_up = NULL; vc.saw_outer = false;
    vc.pending = NULL; vc.npending = 0;
    vc.setop_arm = NULL;
    vc.values_hint = NULL; vc.nvalues_hint = 0; vc.values_hint_names = NULL;
    vc.subq_names = NULL;
    vc.oaggs = NULL; vc.agg_level = NULL; vc.agg_lift = false;
    vc.allow_agg = false; vc.allow_window = false; vc.in_agg = false; vc.in_window = 0; vc.allow_srf = false;
    vc.clause = "SELECT";
    attu_lplan *p = bind_query(&vc, q);
    c->next_source = vc.next_source;
    c->next_worktable = vc.next_worktable;
    if (!p) {
        if (c->err->set) c->err->position = 0;
        return NULL;
    }
    if (p->ncols < v->ncols) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, f->position,
                       "view \"%s\" no longer matches its tables: its query gives %d columns, the view has %d",
                       v->name, p->ncols, v->ncols);
        return NULL;
    }
    for (int i = 0; i < v->ncols; i++)
        if (memcmp(&p->types[i], &v->col_types[i], sizeof p->types[i]) &&
            !(p->types[i].id == ATTU_TYPE_DECIMAL && v->col_types[i].id == ATTU_TYPE_DECIMAL)) {
            /* (NUMERIC: attu's precision and scale follow the values,
             * which a view it reads may change; PostgreSQL's is numeric) */
            char a[64], b[64];
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, f->position,
                           "view \"%s\" no longer matches its tables: column \"%s\" is %s, the view's is %s",
                           v->name, v->col_names[i], attu_type_name(p->types[i], a, sizeof a),
                           attu_type_name(v->col_types[i], b, sizeof b));
            return NULL;
        }
    if (p->ncols > v->ncols) {
        /* a table grew under SELECT *: the view keeps the columns it had */
        attu_bexpr **ex = attu_palloc(c->pa, sizeof *ex * (size_t)(v->ncols + 1));
        char **nm = attu_palloc(c->pa, sizeof *nm * (size_t)(v->ncols + 1));
        if (!ex || !nm) OOM_NULL(c);
        for (int i = 0; i < v->ncols; i++) {
            if (!(ex[i] = attu_bx_col(c->pa, i, p->types[i]))) OOM_NULL(c);
            nm[i] = p->names[i];
        }
        if (!(p = mk_project(c, p, v->ncols, ex, nm))) return NULL;
    }
    /* the store of the view's columns' domains, if it keeps any for it */
    const attu_comments *vdoms = c->cat ? attu_catalog_domain_comments(c->cat, attu_catalog_view_is_top(c->cat, v)) : NULL;
    if (!attu_domain_rel_has_columns(vdoms, v->name)) vdoms = NULL;
    for (int i = 0; i < v->ncols; i++) {
        const char *cn = i < f->column_aliases.n ? f->column_aliases.items[i] : v->col_names[i];
        p->names[i] = attu_pstrdup(c->pa, cn, strlen(cn));
        if (!p->names[i]) OOM_NULL(c);
        if (!scope_push(c, sc, qual, p->names[i], p->types[i], false, false, source)) return NULL;
        scope_col *sv = &sc->cols[sc->n - 1];
        if (!(sv->row_type = attu_pstrdup(c->pa, v->name, strlen(v->name))) ||
            !(sv->type_col = attu_pstrdup(c->pa, v->col_names[i], strlen(v->col_names[i]))))
            OOM_NULL(c);
        /* a view's column of a domain (CREATE VIEW recorded it as a
         * table's: engine/domain_type.h) */
        const char *dn = vdoms ? attu_domain_of_column(vdoms, v->name, v->col_names[i]) : NULL;
        if (dn && !(sv->domain = attu_pstrdup(c->pa, dn, strlen(dn)))) OOM_NULL(c);
    }
    return p;
}

/* Whether the query is only analysed, never run. */
static bool describing(const bctx *c) {
    return c->params && (c->params->no_side_effects || c->params->describe_only);
}

/* What a data-modifying WITH query d is (attu_bind_params.with_rows):
 * 1 run (its rows in *out), 2 running now, 0 not at the top level. */
static int with_rows_of(bctx *c, const cte_def *d, attu_with_rows *out) {
    memset(out, 0, sizeof *out);
    if (!c->params || !c->params->with_rows) return 0;
    return c->params->with_rows(c->params->with_ctx, d->cte, describing(c), c->params, out, c->err);
}

/* A reference to a data-modifying WITH query: a scan of its RETURNING
 * rows, which db/db_with_modify.c kept in a table of their own (no rows
 * when the query is only described). */
static attu_lplan *bind_with_rows(bctx *c, const attu_ast_from *f, scope *sc, const cte_def *d, const char *qual,
                                  int source) {
    attu_with_rows w;
    int k = with_rows_of(c, d, &w);
    if (k < 0) return NULL;
    if (k == 2) {
        attu_error_set(c->err, "42P19", d->cte->position, "recursive query \"%s\" must not contain data-modifying statements",
                       d->name);
        return NULL;
    }
    if (k == 0) {   /* (bind_query refused it already) */
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, d->cte->position,
                       "WITH clause containing a data-modifying statement must be at the top level");
        return NULL;
    }
    if (!w.returning) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, f->position,
                       "WITH query \"%s\" does not have a RETURNING clause", d->name);
        return NULL;
    }
    if (d->cte->columns.n > w.ncols) {
        attu_error_set(c->err, "42P10", d->cte->position, "WITH query \"%s\" has %d columns available but %d columns specified",
                       d->name, w.ncols, d->cte->columns.n);
        return NULL;
    }
    attu_lplan *p;
    if (w.table) {
        p = attu_lp_new(c->pa, LP_SCAN, w.ncols + 1);
        if (!p || !(p->cols = attu_palloc(c->pa, sizeof(int) * (size_t)(w.ncols + 1)))) OOM_NULL(c);
        p->table = w.table;
        for (int i = 0; i <= w.ncols; i++) p->cols[i] = i;
        set_col(p, w.ncols, "rowid", attu_type_make(ATTU_TYPE_INT64), c->pa);
        p->rowid_col = w.ncols;
        p->est_rows = (double)w.table->nrows;
    } else {
        p = attu_lp_new(c->pa, LP_VALUES, w.ncols);   /* no rows */
        if (!p) OOM_NULL(c);
        p->rowid_col = -1;
    }
    for (int i = 0; i < w.ncols; i++) {
        const char *cn = i < d->cte->columns.n ? d->cte->columns.items[i] : w.names[i];
        if (i < f->column_aliases.n) cn = f->column_aliases.items[i];
        set_col(p, i, cn, w.types[i], c->pa);
        if (!p->names[i]) OOM_NULL(c);
        if (!scope_push(c, sc, qual, p->names[i], w.types[i], false, false, source)) return NULL;
    }
    if (w.table && !scope_push(c, sc, qual, "rowid", attu_type_make(ATTU_TYPE_INT64), true, true, source)) return NULL;
    return p;
}

static attu_lplan *bind_table_ref(bctx *c, const attu_ast_from *f, scope *sc) {
    const char *name = f->u.table.name;
    const char *qual = f->alias ? f->alias : name;
    int source = c->next_source++;
    /* a qualified name never names a WITH query */
    for (cte_def *d = f->u.table.schema ? NULL : c->ctes; d; d = d->next) {
        if (strcmp(d->name, name)) continue;
        if (d->cte->modify) return bind_with_rows(c, f, sc, d, qual, source);
        if (d->recursive && d->state) {
            if (d->state != 2) {
                attu_error_set(c->err, "42P19", f->position, d->state == 1
                               ? "recursive reference to query \"%s\" must not appear within its non-recursive term"
                               : "recursive query \"%s\" does not have the form non-recursive-term UNION [ALL] recursive-term", name);
                return NULL;
            }
            if (c->sublink_depth != d->work_depth) {
                attu_error_set(c->err, "42P19", f->position, "recursive reference to query \"%s\" must not appear within a subquery", name);
                return NULL;
            }
            /* the recursive term reading the previous round's rows */
            attu_lplan *w = attu_lp_new(c->pa, LP_WORKTABLE, d->work_ncols);
            if (!w) OOM_NULL(c);
            w->worktable = d->worktable;
            w->est_rows = 10;
            d->referenced = true;
            for (int i = 0; i < d->work_ncols; i++) {
                w->types[i] = d->work_types[i]; w->names[i] = d->work_names[i];
                const char *cn = i < f->column_aliases.n ? f->column_aliases.items[i] : d->work_names[i];
                if (!scope_push(c, sc, qual, cn, d->work_types[i], false, false, source)) return NULL;
            }
            return w;
        }
        cte_def *save = c->ctes, *save_seq = c->seq_cte;
        c->ctes = d->recursive ? d : d->next;   /* a CTE sees the ones before it (RECURSIVE: and itself) */
        c->seq_cte = d;   /* a second binding replays its sequence values */
        d->seq_pos = 0;
        /* its row columns carry their items, as a derived table's */
        carried cr = { 0 };
        attu_lplan *p = d->recursive ? bind_recursive_cte(c, d) : bind_carrying(c, d->cte->query, &cr);
        c->ctes = save;
        c->seq_cte = save_seq;
        if (p) d->seq_replay = true;
        if (!p) return NULL;
        if (d->recursive) cr = (carried){ p->ncols, 0, NULL, NULL };
        if (d->cte->columns.n > cr.n0) {
            attu_error_set(c->err, "42P10", d->cte->position, "WITH query \"%s\" has %d columns available but %d columns specified",
                           name, cr.n0, d->cte->columns.n);
            return NULL;
        }
        for (int i = 0; i < p->ncols; i++) {
            const char *cn = i < d->cte->columns.n ? d->cte->columns.items[i] : p->names[i];
            if (i < f->column_aliases.n && i < cr.n0) cn = f->column_aliases.items[i];
            if (!push_carried(c, sc, qual, cn, p, &cr, i, source)) return NULL;
        }
        return p;
    }
    bool sys_schema = attu_is_system_schema(f->u.table.schema);
    /* another schema than public, pg_temp and the system's: attu has none
     * (no CREATE SCHEMA), so no relation of it exists (PostgreSQL's 42P01,
     * named as written); it is not the search path's relation */
    const char *fs = f->u.table.schema;
    if (fs && !sys_schema && strcmp(fs, "public") && strcmp(fs, "pg_temp") && strncmp(fs, "pg_temp_", 8)) {
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_TABLE, f->position, "relation \"%s.%s\" does not exist", fs, name);
        return NULL;
    }
    /* a relation the statement itself names: CREATE VIEW's dependencies */
    if (!sys_schema && !c->views && c->params && c->params->on_relation && attu_catalog_relation_exists(c->cat, name))
        c->params->on_relation(c->params->relation_ctx, name);
    /* public.t: the shared relation even where a temporary table t
     * shadows it (and so in a view's query, bound to the relations of
     * its creation in PostgreSQL); pg_temp.t the temporary one only; t
     * the temporary one first (db/db_temp.c). Each reference by its own
     * qualification, whatever side the statement's own relation is on
     * (the catalog's mode, engine/catalog.c): INSERT INTO public.t
     * SELECT * FROM t reads the temporary t. */
    bool shared_only = (f->u.table.schema && !strcmp(f->u.table.schema, "public")) ||
                       (c->views && !attu_catalog_view_is_top(c->cat, c->views->view));
    /* (a permanent view's query reads shared relations only: one over a
     * temporary relation is a temporary view) */
    bool by_mode = !f->u.table.schema && c->params && c->params->bare_names_by_mode;
    bool temp_first = !shared_only && !by_mode && attu_catalog_top_has(c->cat, name);
    bool temp_only = f->u.table.schema && (!strcmp(f->u.table.schema, "pg_temp") ||
                                           !strncmp(f->u.table.schema, "pg_temp_", 8));
    attu_catalog *top_cat = c->cat ? attu_catalog_top(c->cat) : NULL;
    const attu_view *view = NULL;
    if (by_mode) {
        view = attu_views_find(attu_catalog_views(c->cat), name);   /* (the mode's side) */
    } else if (!sys_schema && !temp_first) {
        view = shared_only || !top_cat ? NULL : attu_views_find(attu_catalog_views(top_cat), name);
        if (!view && !temp_only && c->cat) view = attu_views_find(attu_catalog_views(attu_catalog_shared(c->cat)), name);
    }
    if (view && view->kind == 'm') {
        /* a materialized view's rows are the table of its name; none to
         * read before REFRESH (a query only analysed, described or
         * EXPLAINed reads nothing, as in PostgreSQL) */
        if (!view->populated && !(c->params && (c->params->describe_only || c->params->no_side_effects))) {
            attu_error_set(c->err, "55000", 0, "materialized view \"%s\" has not been populated", name);
            attu_error_set_hint(c->err, "Use the REFRESH MATERIALIZED VIEW command.");
            return NULL;
        }
        view = NULL;
    }
    if (view && c->params && c->params->reads_temp && attu_catalog_view_is_top(c->cat, view)) *c->params->reads_temp = true;
    if (view) return bind_view_ref(c, f, sc, view, qual, source);
    attu_table *t = sys_schema || (temp_only && !temp_first) ? NULL
                  : by_mode ? attu_catalog_lookup(c->cat, name)
                  : temp_first ? attu_catalog_lookup(top_cat, name) : attu_catalog_lookup_shared(c->cat, name);
    if (!t) {
        /* pg_catalog.pg_class, information_schema.tables, or an unqualified
         * pg_class with no user table of that name: the system relation
         * (planner/system_catalog.c), bound as a subquery in FROM */
        bool is_system, tableoid;
        const char *text = NULL;
        const attu_ast_query *sq =
            attu_system_relation(c, f->u.table.schema, name, f->position, &is_system, &text, &tableoid);
        if (is_system) {
            if (!sq) return NULL;
            const char *save_sql = c->sql;
            cte_def *save = c->ctes;
            c->ctes = NULL;
            c->sql = text;   /* the positions of the relation's own text */
            attu_lplan *p = bind_query(c, sq);
            c->ctes = save;
            c->sql = save_sql;
            if (!p) { c->err->position = f->position; return NULL; }
            for (int i = 0; i < p->ncols; i++) {
                /* a catalog table's tableoid: named, never in * */
                const bool sys_col = tableoid && i == p->ncols - 1;
                const char *cn = !sys_col && i < f->column_aliases.n ? f->column_aliases.items[i] : p->names[i];
                if (!scope_push(c, sc, qual, cn, p->types[i], sys_col, false, source)) return NULL;
                sc->cols[sc->n - 1].system = sys_col;
                sc->cols[sc->n - 1].vector = attu_system_vector_column(name, p->names[i]);
            }
            return p;
        }
        if (attu_catalog_constraint_owner(c->cat, name, NULL))   /* PostgreSQL's index of the constraint */
            attu_error_set(c->err, "42809", f->position, "\"%s\" is an index", name);
        else if (f->u.table.schema)   /* (named as written, as PostgreSQL does) */
            attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_TABLE, f->position, "relation \"%s.%s\" does not exist",
                           f->u.table.schema, name);
        else
            attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_TABLE, f->position, "relation \"%s\" does not exist", name);
        return NULL;
    }
    if (t->unavailable) {
        attu_error_set(c->err, ATTU_SQLSTATE_DATA_CORRUPTED, f->position, "table \"%s\" is unavailable: %s", name, t->unavailable_reason);
        return NULL;
    }
    /* the version the whole statement reads: as its data-modifying WITH
     * queries found it (db/db_with_modify.c) */
    bool top = c->cat && attu_catalog_is_top(c->cat, t);
    if (top && c->params && c->params->reads_temp) *c->params->reads_temp = true;
    if (c->params && c->params->read_version) t = c->params->read_version(c->params->read_ctx, t, top);
    attu_lplan *p = attu_lp_new(c->pa, LP_SCAN, t->ncols + 1);
    const char *tname_copy = attu_pstrdup(c->pa, t->name, strlen(t->name));
    if (!p || !tname_copy) OOM_NULL(c);
    p->table = t;
    p->cols = attu_palloc(c->pa, sizeof(int) * (size_t)(t->ncols + 1));
    /* the store of the columns' domains (a temporary table's is its
     * layer's: engine/catalog.h), if it keeps any for the table */
    const attu_comments *tdoms = c->cat ? attu_catalog_domain_comments(c->cat, top) : NULL;
    if (!attu_domain_rel_has_columns(tdoms, t->name)) tdoms = NULL;
    for (int i = 0; i < t->ncols; i++) {
        p->cols[i] = i;
        const char *cn = i < f->column_aliases.n ? f->column_aliases.items[i] : t->defs[i].name;
        set_col(p, i, cn, t->defs[i].type, c->pa);
        if (!scope_push(c, sc, qual, p->names[i], t->defs[i].type, false, false, source)) return NULL;
        sc->cols[sc->n - 1].row_type = tname_copy;
        if (!(sc->cols[sc->n - 1].type_col = attu_pstrdup(c->pa, t->defs[i].name, strlen(t->defs[i].name)))) OOM_NULL(c);
        const char *dn = tdoms ? attu_domain_of_column(tdoms, t->name, t->defs[i].name) : NULL;
        if (dn && !(sc->cols[sc->n - 1].domain = attu_pstrdup(c->pa, dn, strlen(dn)))) OOM_NULL(c);
    }
    p->cols[t->ncols] = t->ncols;   /* rowid */
    set_col(p, t->ncols, "rowid", attu_type_make(ATTU_TYPE_INT64), c->pa);
    p->rowid_col = t->ncols;
    if (!scope_push(c, sc, qual, "rowid", attu_type_make(ATTU_TYPE_INT64), true, true, source)) return NULL;
    sc->cols[sc->n - 1].row_type = tname_copy;   /* the table whose tableoid it answers (catalog_functions.c) */
    p->est_rows = (double)t->nrows;
    return p;
}

static bool needs_param_form(attu_lplan *p);
static bool reads_any_col(const attu_bexpr *e);
static bool raise_deferred(bctx *c, const attu_bexpr *e);
static const attu_agg_spec *outer_level_agg(const attu_lplan *p);

static attu_lplan *mk_window(bctx *c, attu_lplan *in, attu_agg_spec **specs, int n, const char *name);
static attu_agg_spec *win_spec(bctx *c, attu_agg_kind k, attu_type t, attu_bexpr *arg, int npart, attu_bexpr **part,
                               int norder, attu_sort_item *order);

static void col_shift_from(attu_bexpr *y, int from, int delta) {
    if (y->col >= from && y->col < OUTER_BASE) y->col += delta;
}

/* A copy of e with the columns in [from, OUTER_BASE) moved by delta. */
static attu_bexpr *shift_from(bctx *c, const attu_bexpr *e, int from, int delta) {
    attu_bexpr *x = copy_shift(c, e, 0);
    each_col(x, col_shift_from, from, delta);
    return x;
}

/* Whether e reads a column of this query at or past `from` (ON's
 * correlated subqueries' values, after the two sides' columns). */
static bool reads_cols_from(const attu_bexpr *e, int from) {
    if (!e) return false;
    if (e->kind == BX_COL) return e->col >= from && e->col < OUTER_BASE;
    for (int i = 0; i < e->nargs; i++) if (reads_cols_from(e->args[i], from)) return true;
    for (int i = 0; i < e->nwhens; i++) if (reads_cols_from(e->whens[i], from) || reads_cols_from(e->thens[i], from)) return true;
    return reads_cols_from(e->else_, from);
}

/* l LEFT / RIGHT / FULL JOIN r ON cond, where cond holds correlated
 * subqueries (c->pending, their values hidden columns nl + nr and up of
 * cond's l ++ r scope). The subqueries are evaluated over candidate pairs,
 * so the NULL-extended rows are found by row numbers, as PostgreSQL's
 * outer join evaluates ON per pair:
 *   L' = l ++ ln, R' = r ++ rn (row_number())
 *   M  = the pairs (ln, rn) of L' x R' passing cond: the conjuncts without a
 *        subquery as join keys / residual, the subqueries applied to those
 *        pairs, then the rest as a filter (as an INNER JOIN's ON)
 *   (L' LEFT JOIN M ON ln) LEFT / FULL JOIN R' ON M.rn = R'.rn
 * gives every matched pair once, each l row without one with NULLs, and
 * (FULL) each r row without one with NULLs; RIGHT is the FULL join less
 * the rows with no r row. Returns l ++ r's columns. A logical plan is a
 * tree, so l2 and r2, second bindings of the two sides, give L' and R'
 * their second reads. */
static attu_lplan *outer_join_with_subqueries(bctx *c, attu_lplan *l, attu_lplan *r, attu_lplan *l2, attu_lplan *r2,
                                              attu_ast_join_type jt, attu_bexpr *cond) {
    attu_type t8 = attu_type_make(ATTU_TYPE_INT64), tb = attu_type_make(ATTU_TYPE_BOOL);
    int nl = l->ncols, nr = r->ncols, nlr = nl + nr;
    attu_agg_spec *rn = win_spec(c, WIN_ROW_NUMBER, t8, NULL, 0, NULL, 0, NULL);
    attu_lplan *lw = rn ? mk_window(c, l, &rn, 1, "?lrow?") : NULL;
    attu_lplan *rw = rn ? mk_window(c, r, &rn, 1, "?rrow?") : NULL;
    attu_lplan *lw2 = rn ? mk_window(c, l2, &rn, 1, "?lrow?") : NULL;
    attu_lplan *rw2 = rn ? mk_window(c, r2, &rn, 1, "?rrow?") : NULL;
    if (!lw || !rw || !lw2 || !rw2) return NULL;
    attu_bexpr *conj[256], *plain[256], *rest[256];
    int n = split_conjuncts(cond, conj, 0, 256), np = 0, nres = 0;
    for (int i = 0; i < n; i++) {
        /* over L' ++ R' (r's columns after ln), or over l ++ r ++ ln ++ rn ++ the subqueries */
        if (reads_cols_from(conj[i], nlr)) rest[nres++] = shift_from(c, conj[i], nlr, 2);
        else plain[np++] = shift_from(c, conj[i], nl, 1);
    }
    attu_lplan *pj = attu_make_join(c, lw, rw, JK_INNER, np ? and_all(c, plain, np) : NULL);
    attu_bexpr **pe = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(nlr + 3));
    char **pn = attu_palloc(c->pa, sizeof(char *) * (size_t)(nlr + 3));
    if (!pj || !pe || !pn) { if (!c->err->set) attu_error_oom(c->err); return NULL; }
    for (int i = 0; i < nl; i++) { pe[i] = attu_bx_col(c->pa, i, l->types[i]); pn[i] = l->names[i]; }
    for (int i = 0; i < nr; i++) { pe[nl + i] = attu_bx_col(c->pa, nl + 1 + i, r->types[i]); pn[nl + i] = r->names[i]; }
    pe[nlr] = attu_bx_col(c->pa, nl, t8); pn[nlr] = "?lrow?";
    pe[nlr + 1] = attu_bx_col(c->pa, nlr + 1, t8); pn[nlr + 1] = "?rrow?";
    attu_lplan *pp = mk_project(c, pj, nlr + 2, pe, pn);
    if (pp) pp->rowid_col = -1;
    attu_lplan *pa = pp ? apply_pending(c, pp) : NULL;
    attu_lplan *pf = pa && nres ? filter_local(c, pa, rest, nres) : pa;
    if (!pf) return NULL;
    attu_bexpr *mk[2] = { attu_bx_col(c->pa, nlr, t8), attu_bx_col(c->pa, nlr + 1, t8) };
    char *mn[2] = { "?lrow?", "?rrow?" };
    attu_lplan *m = mk_project(c, pf, 2, mk, mn);
    if (!m) return NULL;
    m->rowid_col = -1;
    /* X = L' LEFT JOIN M ON ln = M.ln: l ++ ln ++ M.ln ++ M.rn */
    attu_lplan *x = attu_make_join(c, lw2, m, JK_LEFT,
                                   mk_call(c, ATTU_OP_EQ_I, tb, 0, 2, attu_bx_col(c->pa, nl, t8), attu_bx_col(c->pa, nl + 1, t8), NULL, NULL));
    if (!x) return NULL;
    int nx = nl + 3;
    attu_lplan *y = attu_make_join(c, x, rw2, jt == ATTU_JOIN_LEFT ? JK_LEFT : JK_FULL,
                                   mk_call(c, ATTU_OP_EQ_I, tb, 0, 2, attu_bx_col(c->pa, nl + 2, t8), attu_bx_col(c->pa, nx + nr, t8), NULL, NULL));
    if (!y) return NULL;
    if (jt == ATTU_JOIN_RIGHT) {
        attu_bexpr *has_r = mk_call(c, ATTU_OP_IS_NOT_NULL, tb, 0, 1, attu_bx_col(c->pa, nx + nr, t8), NULL, NULL, NULL);
        if (!has_r || !(y = filter_local(c, y, &has_r, 1))) { if (!c->err->set) attu_error_oom(c->err); return NULL; }
    }
    for (int i = 0; i < nl; i++) pe[i] = attu_bx_col(c->pa, i, l->types[i]);
    for (int i = 0; i < nr; i++) pe[nl + i] = attu_bx_col(c->pa, nx + i, r->types[i]);
    attu_lplan *out = mk_project(c, y, nlr, pe, pn);
    if (out) out->rowid_col = -1;
    return out;
}

static attu_lplan *bind_lateral(bctx *c, const attu_ast_from *f, const scope *ls, attu_lplan *l, scope *rs, bool *lateral);

/* The written reference (a column with a position) to one of the nleft
 * left columns that comes first in the text, in e: its position and
 * column in *pos / *col (*pos 0 while none is found). */
static void first_left_ref(const attu_bexpr *e, int nleft, int *pos, int *col) {
    if (!e) return;
    if (e->kind == BX_COL) {
        if (e->col < nleft && e->position > 0 && (!*pos || e->position < *pos)) { *pos = e->position; *col = e->col; }
        return;
    }
    for (int i = 0; i < e->nargs; i++) first_left_ref(e->args[i], nleft, pos, col);
    for (int i = 0; i < e->nwhens; i++) { first_left_ref(e->whens[i], nleft, pos, col); first_left_ref(e->thens[i], nleft, pos, col); }
    first_left_ref(e->else_, nleft, pos, col);
}

/* The same over a lateral function's plan: the series node's arguments
 * and the projection above it (the json functions' value). */
static void first_left_ref_plan(const attu_lplan *r, int nleft, int *pos, int *col) {
    if (r->kind == LP_PROJECT) {
        for (int i = 0; i < r->ncols; i++) first_left_ref(r->exprs[i], nleft, pos, col);
        r = r->left;
    }
    if (r && r->kind == LP_SRF)
        for (int i = 0; i < r->nsrfs; i++) {
            first_left_ref(r->srfs[i].start, nleft, pos, col);
            first_left_ref(r->srfs[i].stop, nleft, pos, col);
            first_left_ref(r->srfs[i].step, nleft, pos, col);
        }
}

/* l JOIN LATERAL right ON on, rewritten as l JOIN LATERAL (SELECT * FROM
 * right WHERE on) AS name ON true (LEFT / INNER alike): the same rows, a
 * left row whose right rows all fail `on` padded once by the LEFT join.
 * name is right's: its alias, or the (first) function's name. */
static const attu_ast_from *lateral_on_as_where(bctx *c, const attu_ast_from *f) {
    const attu_ast_from *right = f->u.join.right;
    const attu_ast_expr *on = f->u.join.on;
    const char *name = right->alias;
    if (!name && right->kind == ATTU_FROM_FUNCTION) {
        const attu_ast_expr *call = right->u.function.ncalls ? right->u.function.calls[0].call : right->u.function.call;
        name = call->u.func.name;
    }
    attu_ast_expr *star = attu_palloc(c->pa, sizeof *star), *yes = attu_palloc(c->pa, sizeof *yes);
    attu_ast_select_item *item = attu_palloc(c->pa, sizeof *item);
    attu_ast_from **from = attu_palloc(c->pa, sizeof *from);
    attu_ast_query *q = attu_palloc(c->pa, sizeof *q);
    attu_ast_from *sub = attu_palloc(c->pa, sizeof *sub), *nj = attu_palloc(c->pa, sizeof *nj);
    if (!star || !yes || !item || !from || !q || !sub || !nj || !name) { attu_error_oom(c->err); return NULL; }
    star->kind = ATTU_EXPR_STAR;
    star->position = on->position;
    star->depth = 1;
    item->expr = star;
    from[0] = (attu_ast_from *)right;
    q->kind = ATTU_QUERY_SELECT;
    q->position = right->position;
    q->depth = (on->depth > right->depth ? on->depth : right->depth) + 1;
    q->u.select.items = item;
    q->u.select.nitems = 1;
    q->u.select.from.items = from;
    q->u.select.from.n = 1;
    q->u.select.where = (attu_ast_expr *)on;
    sub->kind = ATTU_FROM_SUBQUERY;
    sub->position = right->position;
    sub->depth = q->depth + 1;
    sub->alias = (char *)name;
    sub->u.subquery.query = q;
    sub->u.subquery.lateral = true;
    yes->kind = ATTU_EXPR_LITERAL;
    yes->position = on->position;
    yes->depth = 1;
    yes->u.literal.kind = ATTU_LIT_BOOL;
    yes->u.literal.text = "true";
    yes->u.literal.len = 4;
    *nj = *f;
    nj->u.join.right = sub;
    nj->u.join.on = yes;
    nj->depth = sub->depth + 1;
    return nj;
}

static attu_lplan *bind_join(bctx *c, const attu_ast_from *f, scope *sc) {
    scope ls = { 0, NULL, 0 }, rs = { 0, NULL, 0 };
    attu_lplan *l = bind_from(c, f->u.join.left, &ls);
    attu_lplan *r = NULL;
    bool lateral = false;      /* r is a function or a LATERAL subquery over l's rows (l ++ its columns) */
    attu_ast_join_type jt = f->u.join.type;
    if (l && f->u.join.right->kind == ATTU_FROM_FUNCTION) {
        /* a SQL function on the right: the join over LATERAL (SELECT f(...)) */
        const attu_ast_from *rf = attu_sql_function_from(c, f->u.join.right);
        if (!rf) return NULL;
        if (rf != f->u.join.right) {
            attu_ast_from *nj = attu_palloc(c->pa, sizeof *nj);
            if (!nj) OOM_NULL(c);
            *nj = *f;
            nj->u.join.right = (attu_ast_from *)rf;
            return bind_join(c, nj, sc);
        }
    }
    if (l && f->u.join.right->kind == ATTU_FROM_FUNCTION) {
        const char *qual, **names = NULL;
        int nnew = 0;
        bool scalar;
        r = attu_bind_from_function(c, f->u.join.right, &ls, l, &lateral, &qual, &names, &nnew, &scalar);
        int src = c->next_source++;
        for (int k = 0; r && k < nnew; k++) {
            if (!scope_push(c, &rs, qual, names[k], r->types[r->ncols - nnew + k], false, false, src)) return NULL;
            rs.cols[rs.n - 1].scalar_row = scalar;
        }
        if (r && lateral && (jt == ATTU_JOIN_RIGHT || jt == ATTU_JOIN_FULL)) {
            /* PostgreSQL's error is at the arguments' first reference to
             * the left side, naming that reference's table */
            int pos = 0, col = -1;
            first_left_ref_plan(r, ls.n, &pos, &col);
            const char *qual = col >= 0 && ls.cols[col].qual ? ls.cols[col].qual : ls.n && ls.cols[0].qual ? ls.cols[0].qual : "?";
            attu_error_set(c->err, "42P10", pos ? pos : f->u.join.right->position,
                           "invalid reference to FROM-clause entry for table \"%s\"", qual);
            attu_error_set_detail(c->err, "The combining JOIN type must be INNER or LEFT for a LATERAL reference.");
            return NULL;
        }
    } else if (l && f->u.join.right->kind == ATTU_FROM_SUBQUERY && f->u.join.right->u.subquery.lateral) {
        /* LATERAL (SELECT ...): l ++ its rows when it reads l (as a
         * lateral function, below), else an ordinary derived table */
        r = bind_lateral(c, f->u.join.right, &ls, l, &rs, &lateral);
        if (r && lateral && (jt == ATTU_JOIN_RIGHT || jt == ATTU_JOIN_FULL)) {
            /* at the subquery's first reference to the left side */
            attu_error_set(c->err, "42P10", r->nkeys && r->lkeys[0]->position ? r->lkeys[0]->position : f->u.join.right->position,
                           "invalid reference to FROM-clause entry for table \"%s\"", ls.n && ls.cols[0].qual ? ls.cols[0].qual : "?");
            attu_error_set_detail(c->err, "The combining JOIN type must be INNER or LEFT for a LATERAL reference.");
            return NULL;
        }
    } else if (l) {
        r = bind_from(c, f->u.join.right, &rs);
    }
    if (!r) return NULL;

    /* combined scope: left then right */
    scope all = { 0, NULL, 0 };
    int lstar = scope_star_end(&ls);
    for (int i = 0; i < ls.n; i++) if (!scope_push_col(c, &all, &ls.cols[i], 0)) return NULL;
    for (int i = 0; i < rs.n; i++) if (!scope_push_col(c, &all, &rs.cols[i], lstar)) return NULL;
    /* USING / NATURAL: per merged column, the two copies and the common type */
    int nmerged = 0, *mli = NULL, *mri = NULL;
    attu_type *mtype = NULL;
    attu_bexpr *cond = NULL;
    attu_lplan *prebuilt = NULL;     /* the join built with ON's correlated subqueries */
    attu_ast_name_list using_ = f->u.join.using_;
    if (f->u.join.natural) {
        using_.n = 0;
        using_.items = attu_palloc(c->pa, sizeof(char *) * (size_t)(ls.n + 1));
        using_.positions = attu_palloc(c->pa, sizeof(int) * (size_t)(ls.n + 1));
        for (int i = 0; i < ls.n; i++) {
            if (ls.cols[i].hidden) continue;
            for (int k = 0; k < rs.n; k++)
                if (!rs.cols[k].hidden && !strcmp(ls.cols[i].name, rs.cols[k].name)) {
                    using_.positions[using_.n] = f->position;
                    using_.items[using_.n++] = (char *)ls.cols[i].name;
                    break;
                }
        }
    }
    if (using_.n) {
        attu_bexpr *conj[128];
        int nc = 0;
        mli = attu_palloc(c->pa, sizeof(int) * (size_t)using_.n);
        mri = attu_palloc(c->pa, sizeof(int) * (size_t)using_.n);
        mtype = attu_palloc(c->pa, sizeof(attu_type) * (size_t)using_.n);
        if (!mli || !mri || !mtype) OOM_NULL(c);
        for (int u = 0; u < using_.n && nc < 128; u++) {
            int li = -1, ri = -1;
            for (int i = 0; i < ls.n; i++) if (!ls.cols[i].hidden && !strcmp(ls.cols[i].name, using_.items[u])) li = i;
            for (int i = 0; i < rs.n; i++) if (!rs.cols[i].hidden && !strcmp(rs.cols[i].name, using_.items[u])) ri = i;
            if (li < 0 || ri < 0) {
                attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_COLUMN, using_.positions ? using_.positions[u] : f->position,
                               "column \"%s\" specified in USING clause does not exist in %s table", using_.items[u], li < 0 ? "left" : "right");
                return NULL;
            }
            for (int k = 0; k < nmerged; k++)
                if (!strcmp(all.cols[mli[k]].name, using_.items[u])) {
                    attu_error_set(c->err, ATTU_SQLSTATE_DUPLICATE_COLUMN, using_.positions ? using_.positions[u] : f->position,
                                   "column name \"%s\" appears more than once in USING clause", using_.items[u]);
                    return NULL;
                }
            attu_bexpr *a = attu_bx_col(c->pa, li, ls.cols[li].type), *b = attu_bx_col(c->pa, ls.n + ri, rs.cols[ri].type);
            attu_type t;
            if (!common_type(a->type, b->type, &t)) {
                char b1[64], b2[64];
                attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, f->position, "operator does not exist: %s = %s", tname(a->type, b1), tname(b->type, b2));
                return NULL;
            }
            a = coerce(c, a, t, false, f->position); b = coerce(c, b, t, false, f->position);
            conj[nc++] = mk_call(c, cmp_opcode_eq(t.id),
                                 attu_type_make(ATTU_TYPE_BOOL), f->position, 2, a, b, NULL, NULL);
            mli[nmerged] = li; mri[nmerged] = ls.n + ri; mtype[nmerged++] = t;
        }
        cond = and_all(c, conj, nc);
    } else if (f->u.join.on) {
        const char *save = c->clause;
        bool sa = c->allow_agg, sw = c->allow_window;
        c->clause = "JOIN conditions"; c->allow_agg = false; c->allow_window = false;
        /* the correlated subqueries of ON get their own pending joins,
         * applied to this join's pairs (below) */
        pending_join *outer_pending = c->pending;
        int outer_npending = c->npending;
        c->pending = NULL; c->npending = 0;
        cond = bind_expr(c, &all, f->u.join.on);
        c->clause = save; c->allow_agg = sa; c->allow_window = sw;
        if (cond && !(cond = coerce_bool(c, cond, "JOIN/ON"))) cond = NULL;
        if (cond && (sides(cond, ls.n) & 4)) cond = NULL;
        if (cond && lateral && c->npending) {
            /* ON holding a correlated subquery, over a function or LATERAL
             * subquery's rows: bound again as LATERAL (SELECT * FROM
             * right WHERE on) ON true, which the LATERAL subquery runs
             * per left row (its subqueries correlated with both sides) */
            c->pending = outer_pending; c->npending = outer_npending;
            const attu_ast_from *nj = lateral_on_as_where(c, f);
            return nj ? bind_join(c, nj, sc) : NULL;
        }
        if (cond && c->npending && jt != ATTU_JOIN_INNER) {
            /* plans are trees: the two sides are read twice, so bound twice */
            scope ls2 = { 0, NULL, 0 }, rs2 = { 0, NULL, 0 };
            pending_join *on_pending = c->pending;
            int on_npending = c->npending;
            c->pending = NULL; c->npending = 0;    /* a derived table's SELECT starts its own */
            attu_lplan *l2 = bind_from(c, f->u.join.left, &ls2);
            attu_lplan *r2 = l2 ? bind_from(c, f->u.join.right, &rs2) : NULL;
            c->pending = on_pending; c->npending = on_npending;
            attu_lplan *oj = r2 ? outer_join_with_subqueries(c, l, r, l2, r2, jt, cond) : NULL;
            c->pending = outer_pending; c->npending = outer_npending;
            if (!oj) return NULL;
            all.n = ls.n + rs.n;     /* the subqueries' hidden columns are gone */
            prebuilt = oj;
        } else if (cond && c->npending) {
            /* INNER JOIN ... ON cond holding a correlated subquery: the
             * pairs passing the conjuncts without one, the subqueries
             * applied to them, then the rest as a filter, projected back
             * to the two sides' columns (ON of an inner join is a WHERE
             * over its pairs) */
            attu_bexpr *conj[256], *plain[256], *rest[256];
            int n = split_conjuncts(cond, conj, 0, 256), np = 0, nr = 0, nlr = ls.n + rs.n;
            for (int i = 0; i < n; i++) {
                if (reads_cols_from(conj[i], nlr)) rest[nr++] = conj[i]; else plain[np++] = conj[i];
            }
            attu_lplan *pj = attu_make_join(c, l, r, JK_INNER, np ? and_all(c, plain, np) : NULL);
            attu_lplan *pa = pj ? apply_pending(c, pj) : NULL;
            attu_lplan *pf = pa ? filter_local(c, pa, rest, nr) : NULL;
            attu_bexpr **pe = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(nlr + 1));
            if (!pf || !pe) { c->pending = outer_pending; c->npending = outer_npending; if (!c->err->set) attu_error_oom(c->err); return NULL; }
            for (int i = 0; i < nlr; i++) pe[i] = attu_bx_col(c->pa, i, pf->types[i]);
            attu_lplan *pp = mk_project(c, pf, nlr, pe, pf->names);
            c->pending = outer_pending; c->npending = outer_npending;
            if (!pp) return NULL;
            pp->rowid_col = -1;
            all.n = nlr;     /* the subqueries' hidden columns are gone */
            prebuilt = pp;
        }
        if (!prebuilt) { c->pending = outer_pending; c->npending = outer_npending; }
        if (!cond) return NULL;
    }
    attu_lplan *j;
    if (lateral) {
        /* the function's (or LATERAL subquery's) node already pairs each
         * left row with its rows: ON filters those pairs (LEFT: inside the
         * node, which pads the left rows left without a pair) */
        j = r;
        if (jt == ATTU_JOIN_LEFT && f->u.join.right->kind == ATTU_FROM_FUNCTION && r->kind == LP_PROJECT &&
            r->left && r->left->kind == LP_SRF) {
            /* unnest, the json functions, ROWS FROM: the series node
             * pairs each left row with its subscripts and the projection
             * above (srf.c) reads the elements from them, NULL for a
             * padded row. ON is over the projection's output, so it is
             * moved below it, onto the series node, with the elements'
             * expressions in place of their columns: the node keeps the
             * pairs passing it and pads the left rows left without one. */
            if (cond && !(cond->kind == BX_CONST && !cond->is_null && cond->i) &&
                !(r->left->residual = through_project(c, cond, r->exprs, r->ncols)))
                return NULL;
            r->left->srf_outer = true;
            r->left->est_rows = r->left->est_rows > l->est_rows ? r->left->est_rows : l->est_rows;
            r->est_rows = r->left->est_rows;
        } else if (jt == ATTU_JOIN_LEFT) {
            r->srf_outer = true;
            r->residual = cond;
            r->est_rows = r->est_rows > l->est_rows ? r->est_rows : l->est_rows;
        } else if (cond) {
            attu_bexpr *one[1] = { cond };
            if (!(j = filter_local(c, r, one, 1))) return NULL;
            j->rowid_col = -1;
        }
    } else if (prebuilt) {
        j = prebuilt;
    } else if (jt == ATTU_JOIN_RIGHT) {
        /* b RIGHT JOIN a == a LEFT JOIN b, columns put back in order */
        attu_bexpr *swapped = NULL;
        if (cond) {
            /* remap: left cols i -> r->ncols + i, right cols ls.n + k -> k */
            attu_bexpr *conj[256];
            int n = split_conjuncts(cond, conj, 0, 256);
            for (int i = 0; i < n; i++) {
                attu_bexpr *x = copy_shift(c, conj[i], 0);
                /* rewrite columns by walking: cheap two-pass shift */
                attu_bexpr *stack[512]; int sp = 0; stack[sp++] = x;
                while (sp) {
                    attu_bexpr *y = stack[--sp];
                    if (y->kind == BX_COL) { y->col = y->col < ls.n ? y->col + r->ncols : y->col - ls.n; continue; }
                    for (int k = 0; k < y->nargs && sp < 510; k++) stack[sp++] = y->args[k];
                    for (int k = 0; k < y->nwhens && sp < 508; k++) { stack[sp++] = y->whens[k]; stack[sp++] = y->thens[k]; }
                    if (y->else_ && sp < 510) stack[sp++] = y->else_;
                }
                conj[i] = x;
            }
            swapped = and_all(c, conj, n);
        }
        attu_lplan *lj = attu_make_join(c, r, l, JK_LEFT, swapped);
        if (!lj) return NULL;
        j = attu_lp_new(c->pa, LP_PROJECT, l->ncols + r->ncols);
        if (!j) OOM_NULL(c);
        j->left = lj;
        j->exprs = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)j->ncols);
        for (int i = 0; i < l->ncols; i++) { j->exprs[i] = attu_bx_col(c->pa, r->ncols + i, l->types[i]); j->types[i] = l->types[i]; j->names[i] = l->names[i]; }
        for (int i = 0; i < r->ncols; i++) { j->exprs[l->ncols + i] = attu_bx_col(c->pa, i, r->types[i]); j->types[l->ncols + i] = r->types[i]; j->names[l->ncols + i] = r->names[i]; }
        j->est_rows = lj->est_rows;
    } else {
        j = attu_make_join(c, l, r, jt == ATTU_JOIN_LEFT ? JK_LEFT : jt == ATTU_JOIN_FULL ? JK_FULL : jt == ATTU_JOIN_CROSS ? JK_CROSS : JK_INNER, cond);
        if (!j) return NULL;
        if (jt != ATTU_JOIN_LEFT && l->rowid_col >= 0 && r->ncols == 0) j->rowid_col = l->rowid_col;
    }
    /* The merged columns of USING / NATURAL, as PostgreSQL builds them: the
     * left copy for INNER and LEFT joins, the right copy for RIGHT, and
     * COALESCE(left, right) for FULL, each in the two sides' common type.
     * A copy of the right type is the merged column itself; otherwise a
     * projection appends it. Either copy stays reachable qualified (l.k,
     * r.k); unqualified names and * see the merged column, which * lists
     * first. */
    if (nmerged) {
        int *mcol = attu_palloc(c->pa, sizeof(int) * (size_t)nmerged);
        attu_bexpr **extra = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)nmerged);
        char **ename = attu_palloc(c->pa, sizeof(char *) * (size_t)nmerged);
        if (!mcol || !extra || !ename) OOM_NULL(c);
        int nextra = 0;
        for (int u = 0; u < nmerged; u++) {
            int side = jt == ATTU_JOIN_RIGHT ? mri[u] : mli[u];
            mcol[u] = -1;
            if (jt != ATTU_JOIN_FULL && attu_type_equal(all.cols[side].type, mtype[u])) { mcol[u] = side; continue; }
            attu_bexpr *a = coerce(c, attu_bx_col(c->pa, side, all.cols[side].type), mtype[u], false, f->position);
            if (a && jt == ATTU_JOIN_FULL) {
                attu_bexpr *b = coerce(c, attu_bx_col(c->pa, mri[u], all.cols[mri[u]].type), mtype[u], false, f->position);
                a = b ? mk_call(c, ATTU_OP_COALESCE, mtype[u], f->position, 2, a, b, NULL, NULL) : NULL;
            }
            if (!a) return NULL;
            ename[nextra] = (char *)all.cols[mli[u]].name;
            extra[nextra++] = a;
        }
        for (int i = 0; i < all.n; i++) all.cols[i].star_pos += nmerged;
        for (int u = 0; u < nmerged; u++) {
            all.cols[mli[u]].hidden = all.cols[mri[u]].hidden = true;
            all.cols[mli[u]].using_copy = all.cols[mri[u]].using_copy = true;
        }
        if (nextra) {
            int n0 = j->ncols;
            attu_bexpr **pe = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n0 + nextra));
            char **pn = attu_palloc(c->pa, sizeof(char *) * (size_t)(n0 + nextra));
            if (!pe || !pn) OOM_NULL(c);
            for (int i = 0; i < n0; i++) { pe[i] = attu_bx_col(c->pa, i, j->types[i]); pn[i] = j->names[i]; }
            for (int k = 0; k < nextra; k++) { pe[n0 + k] = extra[k]; pn[n0 + k] = ename[k]; }
            int rowid = j->rowid_col;
            j = mk_project(c, j, n0 + nextra, pe, pn);
            if (!j) return NULL;
            j->rowid_col = rowid;
        }
        for (int u = 0; u < nmerged; u++) {
            if (mcol[u] < 0) {
                mcol[u] = all.n;
                if (!scope_push(c, &all, NULL, all.cols[mli[u]].name, mtype[u], false, false, -1)) return NULL;
            } else {
                all.cols[mcol[u]].hidden = false;
                all.cols[mcol[u]].using_copy = false;
            }
            all.cols[mcol[u]].star_pos = u;
        }
    }
    /* the relations' system columns are found qualified only; behind the
     * join's alias not at all (the alias names the join, which has none) */
    for (int i = 0; i < all.n; i++)
        if (all.cols[i].system || all.cols[i].is_rowid) {
            all.cols[i].in_join = true;
            if (f->alias && all.cols[i].is_rowid) all.cols[i].row_type = NULL;
        }
    /* a join's own alias hides the inner qualifiers (and USING's copies);
     * alias.* lists the columns as * does */
    if (f->alias)
        for (int i = 0; i < all.n; i++) {
            all.cols[i].qual = all.cols[i].using_copy || all.cols[i].system ? NULL : f->alias;
            all.cols[i].using_copy = false;
            all.cols[i].qual_pos = all.cols[i].star_pos;
            if (all.cols[i].system) all.cols[i].hidden = true, all.cols[i].system = false;
        }
    for (int i = 0; i < all.n; i++) if (!scope_push_col(c, sc, &all.cols[i], 0)) return NULL;
    return j;
}

static attu_lplan *bind_from(bctx *c, const attu_ast_from *f, scope *sc) {
    if (!(f = attu_sql_function_from(c, f))) return NULL;   /* (a SQL function in FROM) */
    switch (f->kind) {
    case ATTU_FROM_TABLE: return bind_table_ref(c, f, sc);
    case ATTU_FROM_JOIN: return bind_join(c, f, sc);
    case ATTU_FROM_FUNCTION: {
        /* nothing before it to read (the first FROM item) */
        bool lateral;
        const char *qual, **names = NULL;
        int nnew = 0;
        bool scalar;
        attu_lplan *p = attu_bind_from_function(c, f, NULL, NULL, &lateral, &qual, &names, &nnew, &scalar);
        if (!p) return NULL;
        int src = c->next_source++;
        for (int k = 0; k < nnew; k++) {
            if (!scope_push(c, sc, qual, names[k], p->types[p->ncols - nnew + k], false, false, src)) return NULL;
            sc->cols[sc->n - 1].scalar_row = scalar;
        }
        return p;
    }
    case ATTU_FROM_SUBQUERY: {
        cte_def *save = c->ctes;
        carried cr = { 0 };
        attu_lplan *p = bind_carrying(c, f->u.subquery.query, &cr);
        c->ctes = save;
        if (!p) return NULL;
        int source = c->next_source++;
        /* its columns of a domain, as PostgreSQL types them */
        const select_domains *sd = select_domains_of(c, f->u.subquery.query);
        if (sd && sd->n != cr.n0) sd = NULL;
        for (int i = 0; i < p->ncols; i++) {
            const char *cn = i < f->column_aliases.n && i < cr.n0 ? f->column_aliases.items[i] : p->names[i];
            if (!push_carried(c, sc, f->alias, cn, p, &cr, i, source)) return NULL;
            if (sd && i < sd->n) {
                sc->cols[sc->n - 1].domain = sd->domains[i];
                if (sd->row_names) {
                    sc->cols[sc->n - 1].row_names = sd->row_names[i];
                    sc->cols[sc->n - 1].nrow_names = sd->nrow_names[i];
                }
            }
        }
        return p;
    }
    }
    return NULL;
}

/* ---- aggregation rewrite ------------------------------------------------------------ */

typedef struct aggstate {
    attu_bexpr **groups;
    int ngroups, capgroups;
    attu_agg_spec *aggs;
    int naggs, capaggs;
    const scope *sc;
    int *rowid_sources;     /* sources grouped by their rowid */
    int nrowid;
    bool subquery_keys;     /* rewriting a subquery's parameter keys (42803's message) */
    /* GROUP BY keys of bpchar without a length: grouped by
     * bpchar_key(bp_orig[i]) (the value without its trailing blanks),
     * while bp_orig[i], where it is read, shows min(bp_orig[i]): a value of
     * the group, its shortest, as its values differ only in trailing
     * blanks (PostgreSQL shows whichever value it met first) */
    attu_bexpr **bp_orig;
    int nbp;
    /* the grouping items: each distinct GROUP BY expression (a leaf of
     * the grouping sets) and the keys (groups) it brought, ikeys[ikstart[j]
     * .. ikstart[j] + ikn[j]); bp_item[i] the item of bp_orig[i] */
    attu_bexpr **items;
    int nitems;
    int *ikstart, *ikn, *ikeys, nikeys, capikeys;
    int *bp_item;
    int *bp_aggk;           /* under partial sets: bp_orig[i]'s own min() (or -1) */
    /* the grouping sets (one of all the items without GROUPING SETS):
     * member[s * nitems + j] whether set s holds item j */
    int nsets;
    bool *member;
    bool partial;           /* some set lacks some item */
    bool *key_common;       /* under partial sets: key i is in every set */
    /* GROUPING() calls: the items of each (aggs[k].k indexes them) */
    int **gcall_items, *gcall_n, ngcalls, capgcalls;
} aggstate;

static int add_agg_x(bctx *c, aggstate *st, const attu_bexpr *a, bool share) {
    /* ordered aggregates are never shared, but for the ordered-set ones
     * (one order item, their value, in the same direction) */
    bool osa = a->agg >= AGG_PERCENTILE_CONT && a->agg <= AGG_MODE;
    for (int i = 0; i < st->naggs && share && (!a->norder || osa); i++) {
        attu_agg_spec *s = &st->aggs[i];
        if (s->agg == a->agg && s->k == (int)a->imm && s->distinct == (a->aux == 1) && attu_bx_equal(s->arg, a->nargs > 0 ? a->args[0] : NULL) &&
            attu_bx_equal(s->arg2, a->nargs > 1 ? a->args[1] : NULL) && attu_type_equal(s->type, a->type) &&
            (!osa || s->order[0].desc == a->order[0].desc))
            return i;
    }
    if (st->naggs == st->capaggs) {
        int nc = st->capaggs ? st->capaggs * 2 : 8;
        attu_agg_spec *n = attu_palloc(c->pa, sizeof *n * (size_t)nc);
        if (!n) return -1;
        if (st->naggs) memcpy(n, st->aggs, sizeof *n * (size_t)st->naggs);
        st->aggs = n; st->capaggs = nc;
    }
    attu_agg_spec *s = &st->aggs[st->naggs];
    memset(s, 0, sizeof *s);
    s->agg = a->agg; s->k = (int)a->imm; s->type = a->type;
    s->distinct = a->aux == 1;
    s->arg = a->nargs > 0 ? a->args[0] : NULL;
    s->arg2 = a->nargs > 1 ? a->args[1] : NULL;
    s->norder = a->norder; s->order = a->order;    /* string_agg(... ORDER BY ...) */
    return st->naggs++;
}

static int add_agg(bctx *c, aggstate *st, const attu_bexpr *a) { return add_agg_x(c, st, a, true); }

static int add_group(bctx *c, aggstate *st, attu_bexpr *g) {
    /* an untyped literal key groups as text (a key needs a type) */
    if (g->type.id == ATTU_TYPE_UNKNOWN && !(g = resolve_unknown(c, g))) return -1;
    /* (as written: GROUP BY random(), random() is one key, as PostgreSQL's) */
    for (int i = 0; i < st->ngroups; i++) if (attu_bx_equal_written(st->groups[i], g)) return i;
    if (st->ngroups == st->capgroups) {
        int nc = st->capgroups ? st->capgroups * 2 : 8;
        attu_bexpr **n = attu_palloc(c->pa, sizeof *n * (size_t)nc);
        if (!n) return -1;
        if (st->ngroups) memcpy(n, st->groups, sizeof *n * (size_t)st->ngroups);
        st->groups = n; st->capgroups = nc;
    }
    st->groups[st->ngroups] = g;
    return st->ngroups++;
}

/* a key of the grouping item being bound (the last one) */
static int add_item_key(bctx *c, aggstate *st, attu_bexpr *g) {
    int k = add_group(c, st, g);
    if (k < 0) return -1;
    if (st->nikeys == st->capikeys) {
        int nc = st->capikeys ? st->capikeys * 2 : 8;
        int *n = attu_palloc(c->pa, sizeof *n * (size_t)nc);
        if (!n) return -1;
        if (st->nikeys) memcpy(n, st->ikeys, sizeof *n * (size_t)st->nikeys);
        st->ikeys = n; st->capikeys = nc;
    }
    st->ikeys[st->nikeys++] = k;
    st->ikn[st->nitems - 1]++;
    return k;
}

/* the position of the first aggregate call in e (or dflt) */
static int first_agg_position(const attu_bexpr *e, int dflt) {
    if (!e) return -1;
    if (e->kind == BX_AGG) return e->position ? e->position : dflt;
    int p;
    for (int i = 0; i < e->nargs; i++) if ((p = first_agg_position(e->args[i], -1)) >= 0) return p;
    for (int i = 0; i < e->nwhens; i++)
        if ((p = first_agg_position(e->whens[i], -1)) >= 0 || (p = first_agg_position(e->thens[i], -1)) >= 0) return p;
    if ((p = first_agg_position(e->else_, -1)) >= 0) return p;
    return dflt;
}

#define AGG_REF_BASE 1000000
/* a value of a correlated subquery run after the aggregation: column
 * POST_REF_BASE + post_off, fixed up once the AGG node's width is known */
#define POST_REF_BASE 1500000

/* GROUPING(args) -> a reference to a pseudo aggregate (AGG_GROUPING, k
 * indexing st->gcall_items), which grouping_sets_plan makes a constant of
 * each set; every argument must be a grouping item (42803 at it). */
static attu_bexpr *grouping_rewrite(bctx *c, aggstate *st, const attu_bexpr *e) {
    int *its = attu_palloc(c->pa, sizeof(int) * (size_t)(e->npart + 1));
    if (!its) OOM_NULL(c);
    for (int i = 0; i < e->npart; i++) {
        its[i] = -1;
        for (int j = 0; j < st->nitems && its[i] < 0; j++) if (attu_bx_equal(st->items[j], e->part[i])) its[i] = j;
        if (its[i] < 0) {
            attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, e->part[i]->position,
                           "arguments to GROUPING must be grouping expressions of the associated query level");
            return NULL;
        }
    }
    int call = -1;
    for (int k = 0; k < st->ngcalls && call < 0; k++)
        if (st->gcall_n[k] == e->npart && !memcmp(st->gcall_items[k], its, sizeof(int) * (size_t)e->npart)) call = k;
    if (call < 0) {
        if (st->ngcalls == st->capgcalls) {
            int nc = st->capgcalls ? st->capgcalls * 2 : 4;
            int **ni = attu_palloc(c->pa, sizeof *ni * (size_t)nc), *nn = attu_palloc(c->pa, sizeof *nn * (size_t)nc);
            if (!ni || !nn) OOM_NULL(c);
            if (st->ngcalls) { memcpy(ni, st->gcall_items, sizeof *ni * (size_t)st->ngcalls); memcpy(nn, st->gcall_n, sizeof *nn * (size_t)st->ngcalls); }
            st->gcall_items = ni; st->gcall_n = nn; st->capgcalls = nc;
        }
        st->gcall_items[st->ngcalls] = its; st->gcall_n[st->ngcalls] = e->npart;
        call = st->ngcalls++;
    }
    int k = -1;
    for (int i = 0; i < st->naggs && k < 0; i++) if (st->aggs[i].agg == AGG_GROUPING && st->aggs[i].k == call) k = i;
    if (k < 0) {
        attu_bexpr m = { 0 };
        m.kind = BX_AGG; m.agg = AGG_GROUPING; m.type = e->type; m.imm = call;
        if ((k = add_agg(c, st, &m)) < 0) OOM_NULL(c);
    }
    attu_bexpr *r = attu_bx_col(c->pa, AGG_REF_BASE + k, e->type);
    if (!r) OOM_NULL(c);
    r->position = e->position;
    return r;
}

/* Replaces group expressions and aggregate calls by references to the AGG
 * node's outputs: groups -> COL(i), aggregates -> COL(AGG_REF_BASE + j)
 * (fixed up once the number of groups is final). */
static attu_bexpr *agg_rewrite(bctx *c, aggstate *st, attu_bexpr *e) {
    if (!e || c->err->set) return NULL;
    for (int i = 0; i < st->nbp; i++)
        if (attu_bx_equal(st->bp_orig[i], e)) {
            attu_bexpr *m = attu_bx_new(c->pa, BX_AGG, e->type, e->position);
            if (!m) OOM_NULL(c);
            m->agg = AGG_MIN;
            m->nargs = 1;
            m->args[0] = e;
            /* under grouping sets that lack its item, the value is NULL
             * there: a min() of its own, which no written min() shares */
            int k = st->partial ? st->bp_aggk[i] : -1;
            if (k < 0) k = add_agg_x(c, st, m, !st->partial);
            if (k < 0) OOM_NULL(c);
            if (st->partial) st->bp_aggk[i] = k;
            attu_bexpr *r = attu_bx_col(c->pa, AGG_REF_BASE + k, e->type);
            if (!r) OOM_NULL(c);
            r->position = e->position;
            return r;
        }
    /* a select-list random() names GROUP BY random(): the group's value */
    for (int i = 0; i < st->ngroups; i++)
        if (attu_bx_equal_written(st->groups[i], e)) { attu_bexpr *r = attu_bx_col(c->pa, i, e->type); r->position = e->position; return r; }
    attu_bexpr *x = attu_palloc(c->pa, sizeof *x);
    if (!x) OOM_NULL(c);
    *x = *e;
    switch (e->kind) {
    case BX_CONST: return x;
    case BX_AGG: {
        if (e->agg == AGG_GROUPING) return grouping_rewrite(c, st, e);
        /* an ordered-set aggregate's fraction is a direct argument,
         * evaluated per group: grouped columns only (the rewritten copy is
         * dropped; the aggregate reads it over its input rows) */
        if ((e->agg == AGG_PERCENTILE_CONT || e->agg == AGG_PERCENTILE_DISC) && e->nargs > 1 &&
            !agg_rewrite(c, st, e->args[1])) {
            if (!strcmp(c->err->sqlstate, ATTU_SQLSTATE_GROUPING))
                attu_error_set_detail(c->err, "Direct arguments of an ordered-set aggregate must use only grouped columns.");
            return NULL;
        }
        for (int i = 0; i < e->ndirect; i++)
            if (!agg_rewrite(c, st, e->direct[i])) {
                if (!strcmp(c->err->sqlstate, ATTU_SQLSTATE_GROUPING))
                    attu_error_set_detail(c->err, "Direct arguments of an ordered-set aggregate must use only grouped columns.");
                return NULL;
            }
        int k = add_agg(c, st, e);
        if (k < 0) OOM_NULL(c);
        attu_bexpr *r = attu_bx_col(c->pa, AGG_REF_BASE + k, e->type);
        r->position = e->position;
        return r;
    }
    case BX_COL: {
        if (e->col >= OUTER_BASE) return x;      /* the enclosing query's row: constant here */
        const scope_col *col = &st->sc->cols[e->col];
        if (col->post_agg) {
            attu_bexpr *r = attu_bx_col(c->pa, POST_REF_BASE + col->post_off, e->type);
            if (!r) OOM_NULL(c);
            r->position = e->position;
            return r;
        }
        if (col->deps) {
            /* a correlated subquery's value: one per group when every
             * column it reads is grouped (else that column's 42803) */
            bool sk = st->subquery_keys;
            st->subquery_keys = true;     /* an ungrouped one is the subquery's 42803 */
            bool common = true;     /* every column it reads grouped in every set */
            for (int i = 0; i < col->ndeps; i++) {
                attu_bexpr *d = attu_bx_col(c->pa, col->deps[i], st->sc->cols[col->deps[i]].type);
                if (!d) OOM_NULL(c);
                d->position = col->dep_pos ? col->dep_pos[i] : 0;
                attu_bexpr *r = agg_rewrite(c, st, d);
                if (!r) return NULL;
                if (st->partial) common &= r->kind == BX_COL && r->col < st->ngroups && st->key_common[r->col];
            }
            st->subquery_keys = sk;
            if (!common) {
                attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                               "a correlated subquery over grouped columns is not supported with grouping sets");
                return NULL;
            }
            int g = add_group(c, st, e);
            if (g < 0) OOM_NULL(c);
            attu_bexpr *r = attu_bx_col(c->pa, g, e->type);
            r->position = e->position;
            return r;
        }
        for (int i = 0; i < st->nrowid; i++)
            if (st->rowid_sources[i] == col->source) {   /* functionally dependent on a grouped row */
                int g = add_group(c, st, e);
                if (g < 0) OOM_NULL(c);
                attu_bexpr *r = attu_bx_col(c->pa, g, e->type);
                r->position = e->position;
                return r;
            }
        if (st->subquery_keys)
            attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, e->position, "subquery uses ungrouped column \"%s%s%s\" from outer query",
                           col->qual ? col->qual : "", col->qual ? "." : "", col->name);
        else if (col->qual)
            attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, e->position,
                           "column \"%s.%s\" must appear in the GROUP BY clause or be used in an aggregate function", col->qual, col->name);
        else
            attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, e->position,
                           "column \"%s\" must appear in the GROUP BY clause or be used in an aggregate function", col->name);
        return NULL;
    }
    case BX_WINDOW:
        for (int i = 0; i < e->nargs; i++) if (!(x->args[i] = agg_rewrite(c, st, e->args[i]))) return NULL;
        x->part = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(e->npart + 1));
        for (int i = 0; i < e->npart; i++) if (!(x->part[i] = agg_rewrite(c, st, e->part[i]))) return NULL;
        x->order = attu_palloc(c->pa, sizeof(attu_sort_item) * (size_t)(e->norder + 1));
        for (int i = 0; i < e->norder; i++) { x->order[i] = e->order[i]; if (!(x->order[i].expr = agg_rewrite(c, st, e->order[i].expr))) return NULL; }
        return x;
    default:
        for (int i = 0; i < e->nargs; i++) if (!(x->args[i] = agg_rewrite(c, st, e->args[i]))) return NULL;
        if (e->kind == BX_CASE) {
            x->whens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)e->nwhens);
            x->thens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)e->nwhens);
            for (int i = 0; i < e->nwhens; i++)
                if (!(x->whens[i] = agg_rewrite(c, st, e->whens[i])) || !(x->thens[i] = agg_rewrite(c, st, e->thens[i]))) return NULL;
            if (e->else_ && !(x->else_ = agg_rewrite(c, st, e->else_))) return NULL;
        }
        return x;
    }
}

/* ---- grouping sets ----------------------------------------------------------
 * GROUP BY ROLLUP / CUBE / GROUPING SETS, and any GROUP BY with GROUPING():
 * the FROM rows (in) are computed once (an LP_SHARED node; its
 * LP_WORKTABLE leaves read them), aggregated once per set by an ordinary
 * LP_AGG grouped by that set's keys, each set's rows projected to the
 * shape the one AGG node would have had (keys, then aggregates): a key the
 * set lacks is a NULL of its type, a GROUPING() call the set's constant;
 * the sets' rows go UNION ALL. HAVING, windows, DISTINCT, ORDER BY and
 * LIMIT then run over the concatenation as over an AGG node's rows. */

/* a copy of e whose column k (of this query) reads column map[k] */
static attu_bexpr *copy_remap(bctx *c, const attu_bexpr *e, const int *map) {
    if (!e) return NULL;
    attu_bexpr *x = copy_shift(c, e, 0);
    if (!x) return NULL;
    /* (a column of an enclosing query, OUTER_BASE and up, stays) */
    if (x->kind == BX_COL) { if (e->col >= 0 && e->col < OUTER_BASE) x->col = map[e->col]; return x; }
    for (int i = 0; i < e->nargs; i++) if (e->args[i] && !(x->args[i] = copy_remap(c, e->args[i], map))) return NULL;
    if (e->kind == BX_CASE) {
        for (int i = 0; i < e->nwhens; i++)
            if (!(x->whens[i] = copy_remap(c, e->whens[i], map)) || !(x->thens[i] = copy_remap(c, e->thens[i], map))) return NULL;
        if (e->else_ && !(x->else_ = copy_remap(c, e->else_, map))) return NULL;
    }
    return x;
}

static void mark_cols(const attu_bexpr *e, bool *need) {
    if (!e) return;
    if (e->kind == BX_COL) { if (e->col >= 0 && e->col < OUTER_BASE) need[e->col] = true; return; }
    for (int i = 0; i < e->nargs; i++) mark_cols(e->args[i], need);
    for (int i = 0; i < e->nwhens; i++) { mark_cols(e->whens[i], need); mark_cols(e->thens[i], need); }
    mark_cols(e->else_, need);
}

static attu_lplan *union_all_range(bctx *c, attu_lplan **arms, int lo, int hi) {
    if (hi - lo == 1) return arms[lo];
    int mid = lo + (hi - lo) / 2;
    attu_lplan *l = union_all_range(c, arms, lo, mid), *r = union_all_range(c, arms, mid, hi);
    if (!l || !r) return NULL;
    attu_lplan *u = attu_lp_new(c->pa, LP_SETOP, l->ncols);
    if (!u) OOM_NULL(c);
    memcpy(u->types, l->types, sizeof(attu_type) * (size_t)l->ncols);
    memcpy(u->names, l->names, sizeof(char *) * (size_t)l->ncols);
    u->left = l; u->right = r; u->setop = 1; u->all = true;
    u->est_rows = l->est_rows + r->est_rows; u->rowid_col = -1;
    return u;
}

/* a: the AGG node of every key and aggregate (the template: its input,
 * groups, aggregates, types and names); the plan of st's sets */
static attu_lplan *grouping_sets_plan(bctx *c, const aggstate *st, const attu_lplan *a) {
    attu_lplan *in = a->left;
    int ng = a->ngroups, na = a->naggs, K = st->nsets, ni = st->nitems;
    /* the input's columns the sets read, alone (the shared input is
     * materialized once for all of them) */
    int *map = attu_palloc(c->pa, sizeof(int) * (size_t)(in->ncols + 1));
    bool *need = attu_palloc(c->pa, (size_t)in->ncols + 1);
    bool *owned = attu_palloc(c->pa, (size_t)ng + 1), *kin = attu_palloc(c->pa, (size_t)ng + 1);
    attu_lplan **arms = attu_palloc(c->pa, sizeof *arms * (size_t)K);
    if (!map || !need || !owned || !kin || !arms) OOM_NULL(c);
    for (int i = 0; i < ng; i++) mark_cols(a->groups[i], need);
    for (int k = 0; k < na; k++) {
        mark_cols(a->aggs[k].arg, need); mark_cols(a->aggs[k].arg2, need);
        for (int q = 0; q < a->aggs[k].norder; q++) mark_cols(a->aggs[k].order[q].expr, need);
    }
    attu_lplan *src = in;
    int wt = 0;
    if (K > 1) {
        int nn = 0;
        for (int i = 0; i < in->ncols; i++) if (need[i]) map[i] = nn++;
        if (nn < in->ncols) {
            attu_bexpr **ex = attu_palloc(c->pa, sizeof *ex * (size_t)(nn + 1));
            char **nm = attu_palloc(c->pa, sizeof *nm * (size_t)(nn + 1));
            if (!ex || !nm) OOM_NULL(c);
            for (int i = 0; i < in->ncols; i++)
                if (need[i]) { ex[map[i]] = attu_bx_col(c->pa, i, in->types[i]); nm[map[i]] = in->names[i]; }
            if (!(in = mk_project(c, in, nn, ex, nm))) return NULL;
            in->est_rows = a->left->est_rows;
        }
        wt = ++c->next_worktable;
    } else {
        for (int i = 0; i < in->ncols; i++) map[i] = i;
    }
    for (int j = 0; j < ni; j++)
        for (int q = 0; q < st->ikn[j]; q++) owned[st->ikeys[st->ikstart[j] + q]] = true;
    for (int k = 0; k < K; k++) {
        const bool *m = st->member + (size_t)k * (size_t)ni;
        /* a key no item brought (a column of a grouped row) is in every set */
        for (int i = 0; i < ng; i++) kin[i] = !owned[i];
        for (int j = 0; j < ni; j++)
            if (m[j]) for (int q = 0; q < st->ikn[j]; q++) kin[st->ikeys[st->ikstart[j] + q]] = true;
        if (K > 1) {
            src = attu_lp_new(c->pa, LP_WORKTABLE, in->ncols);
            if (!src) OOM_NULL(c);
            memcpy(src->types, in->types, sizeof(attu_type) * (size_t)in->ncols);
            memcpy(src->names, in->names, sizeof(char *) * (size_t)in->ncols);
            src->worktable = wt; src->all = true;
            src->est_rows = in->est_rows; src->rowid_col = -1;
        }
        int nk = 0, nr = 0;
        for (int i = 0; i < ng; i++) nk += kin[i];
        for (int q = 0; q < na; q++) nr += a->aggs[q].agg != AGG_GROUPING;
        attu_lplan *ag = attu_lp_new(c->pa, LP_AGG, nk + nr);
        attu_bexpr **ex = attu_palloc(c->pa, sizeof *ex * (size_t)(ng + na + 1));
        if (!ag || !ex) OOM_NULL(c);
        ag->left = src;
        ag->ngroups = nk; ag->naggs = nr;
        ag->groups = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(nk + 1));
        ag->aggs = attu_palloc(c->pa, sizeof(attu_agg_spec) * (size_t)(nr + 1));
        if (!ag->groups || !ag->aggs) OOM_NULL(c);
        for (int i = 0, g = 0; i < ng; i++) {
            if (!kin[i]) { if (!(ex[i] = mk_const_null(c, a->types[i]))) return NULL; continue; }
            if (!(ag->groups[g] = copy_remap(c, a->groups[i], map))) return NULL;
            ag->types[g] = a->types[i]; ag->names[g] = a->names[i];
            if (!(ex[i] = attu_bx_col(c->pa, g, a->types[i]))) OOM_NULL(c);
            g++;
        }
        for (int q = 0, r = 0; q < na; q++) {
            const attu_agg_spec *sp = &a->aggs[q];
            if (sp->agg == AGG_GROUPING) {
                /* bit (n - 1 - i): argument i not grouped in this set */
                int mask = 0, call = sp->k;
                for (int i = 0; i < st->gcall_n[call]; i++)
                    mask = mask << 1 | !m[st->gcall_items[call][i]];
                if (!(ex[ng + q] = mk_const_int(c, attu_type_make(ATTU_TYPE_INT32), mask))) return NULL;
                continue;
            }
            attu_agg_spec *d = &ag->aggs[r];
            *d = *sp;
            if ((sp->arg && !(d->arg = copy_remap(c, sp->arg, map))) || (sp->arg2 && !(d->arg2 = copy_remap(c, sp->arg2, map))))
                return NULL;
            if (sp->norder) {
                if (!(d->order = attu_palloc(c->pa, sizeof(attu_sort_item) * (size_t)sp->norder))) OOM_NULL(c);
                for (int o = 0; o < sp->norder; o++) {
                    d->order[o] = sp->order[o];
                    if (!(d->order[o].expr = copy_remap(c, sp->order[o].expr, map))) return NULL;
                }
            }
            ag->types[nk + r] = sp->type; ag->names[nk + r] = "agg";
            if (!(ex[ng + q] = attu_bx_col(c->pa, nk + r, sp->type))) OOM_NULL(c);
            r++;
        }
        /* a grouped bpchar's (or row's) shown value is its min(): NULL
         * where the set lacks its item */
        for (int i = 0; st->bp_aggk && i < st->nbp; i++)
            if (st->bp_aggk[i] >= 0 && !m[st->bp_item[i]] && !(ex[ng + st->bp_aggk[i]] = mk_const_null(c, a->types[ng + st->bp_aggk[i]])))
                return NULL;
        ag->est_rows = nk ? (src->est_rows > 100 ? src->est_rows / 10 : src->est_rows) : 1;
        ag->rowid_col = -1;
        if (!(arms[k] = mk_project(c, ag, ng + na, ex, a->names))) return NULL;
        arms[k]->est_rows = ag->est_rows;
        arms[k]->rowid_col = -1;
    }
    attu_lplan *u = union_all_range(c, arms, 0, K);
    if (!u || K == 1) return u;
    attu_lplan *sh = attu_lp_new(c->pa, LP_SHARED, u->ncols);
    if (!sh) OOM_NULL(c);
    memcpy(sh->types, u->types, sizeof(attu_type) * (size_t)u->ncols);
    memcpy(sh->names, u->names, sizeof(char *) * (size_t)u->ncols);
    sh->left = in; sh->right = u; sh->worktable = wt;
    sh->est_rows = u->est_rows; sh->rowid_col = -1;
    return sh;
}

static void fix_refs(attu_bexpr *e, int base, int delta) {
    if (!e) return;
    /* references to the enclosing query (OUTER_BASE and up) stay as they are */
    if (e->kind == BX_COL) { if (e->col >= base && e->col < OUTER_BASE) e->col = e->col - base + delta; return; }
    for (int i = 0; i < e->nargs; i++) fix_refs(e->args[i], base, delta);
    for (int i = 0; i < e->nwhens; i++) { fix_refs(e->whens[i], base, delta); fix_refs(e->thens[i], base, delta); }
    fix_refs(e->else_, base, delta);
    for (int i = 0; i < e->npart; i++) fix_refs(e->part[i], base, delta);
    for (int i = 0; i < e->norder; i++) fix_refs(e->order[i].expr, base, delta);
}

static bool has_kind(const attu_bexpr *e, attu_bexpr_kind k) {
    if (!e) return false;
    if (e->kind == k) return true;
    for (int i = 0; i < e->nargs; i++) if (has_kind(e->args[i], k)) return true;
    for (int i = 0; i < e->nwhens; i++) if (has_kind(e->whens[i], k) || has_kind(e->thens[i], k)) return true;
    return has_kind(e->else_, k);
}

/* window calls -> COL(AGG_REF_BASE + j) */
typedef struct winstate { attu_agg_spec *specs; int n, cap; } winstate;

static attu_bexpr *win_rewrite(bctx *c, winstate *ws, attu_bexpr *e) {
    if (!e || c->err->set) return e;
    if (e->kind == BX_WINDOW) {
        if (ws->n == ws->cap) {
            int nc = ws->cap ? ws->cap * 2 : 8;
            attu_agg_spec *n = attu_palloc(c->pa, sizeof *n * (size_t)nc);
            if (!n) OOM_NULL(c);
            if (ws->n) memcpy(n, ws->specs, sizeof *n * (size_t)ws->n);
            ws->specs = n; ws->cap = nc;
        }
        attu_agg_spec *s = &ws->specs[ws->n];
        memset(s, 0, sizeof *s);
        s->agg = e->agg; s->k = (int)e->imm; s->type = e->type;
        s->arg = e->nargs > 0 ? e->args[0] : NULL;
        s->arg2 = e->nargs > 1 ? e->args[1] : NULL;
        s->npart = e->npart; s->part = e->part; s->norder = e->norder; s->order = e->order;
        s->frame = e->aux;
        s->frame_kind[0] = e->frame_kind[0]; s->frame_kind[1] = e->frame_kind[1];
        s->frame_off[0] = e->frame_off[0]; s->frame_off[1] = e->frame_off[1];
        s->frame_offf[0] = e->frame_offf[0]; s->frame_offf[1] = e->frame_offf[1];
        s->frame_off_scale[0] = e->frame_off_scale[0]; s->frame_off_scale[1] = e->frame_off_scale[1];
        s->frame_off_months[0] = e->frame_off_months[0]; s->frame_off_months[1] = e->frame_off_months[1];
        s->frame_off_days[0] = e->frame_off_days[0]; s->frame_off_days[1] = e->frame_off_days[1];
        s->frame_off_zone = e->frame_off_zone;
        s->frame_excl = e->frame_excl;
        attu_bexpr *r = attu_bx_col(c->pa, AGG_REF_BASE + ws->n++, e->type);
        r->position = e->position;
        return r;
    }
    if (e->kind == BX_COL || e->kind == BX_CONST) return e;
    attu_bexpr *x = attu_palloc(c->pa, sizeof *x);
    if (!x) OOM_NULL(c);
    *x = *e;
    for (int i = 0; i < e->nargs; i++) x->args[i] = win_rewrite(c, ws, e->args[i]);
    if (e->kind == BX_CASE) {
        x->whens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)e->nwhens);
        x->thens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)e->nwhens);
        for (int i = 0; i < e->nwhens; i++) { x->whens[i] = win_rewrite(c, ws, e->whens[i]); x->thens[i] = win_rewrite(c, ws, e->thens[i]); }
        x->else_ = win_rewrite(c, ws, e->else_);
    }
    return x;
}

/* ---- SELECT ------------------------------------------------------------------------- */

/* The name PostgreSQL gives a cast's column: the last word of the type
 * name as its grammar builds it, so the SQL spellings become the internal
 * names (integer -> int4, double precision -> float8, timestamp ->
 * timestamp...) and other names stay as written (text, date, int8). */
static const char *cast_type_name(attu_plan_arena *pa, const attu_ast_typename *t) {
    static const struct { const char *sql, *pg; } map[] = {
        { "integer", "int4" }, { "smallint", "int2" }, { "bigint", "int8" }, { "real", "float4" },
        { "double precision", "float8" }, { "boolean", "bool" }, { "character varying", "varchar" },
        { "character", "bpchar" }, { "timestamp without time zone", "timestamp" },
        { "timestamp with time zone", "timestamptz" }, { "time without time zone", "time" },
        { "time with time zone", "timetz" },
    };
    if (!strcmp(t->name, "float")) return t->precision >= 1 && t->precision <= 24 ? "float4" : "float8";
    /* an array type's cast is named by its element's (int[]: int4), a
     * copy of its own: two array casts of one select list keep their
     * names apart */
    const char *name = t->name;
    size_t l = strlen(name);
    if (l > 2 && !strcmp(name + l - 2, "[]")) {
        while (l > 2 && !strncmp(name + l - 2, "[]", 2)) l -= 2;
        char elem[96];
        if (l >= sizeof elem) return name;
        memcpy(elem, name, l);
        elem[l] = 0;
        for (size_t i = 0; i < sizeof map / sizeof *map; i++) if (!strcmp(map[i].sql, elem)) return map[i].pg;
        char *own = attu_pstrdup(pa, elem, l);
        return own ? own : name;
    }
    for (size_t i = 0; i < sizeof map / sizeof *map; i++) if (!strcmp(map[i].sql, name)) return map[i].pg;
    return name;
}

/* The name of an unnamed select-list item, by PostgreSQL's FigureColname:
 * returns 2 for a real name (a column, a function, EXISTS, a scalar
 * subquery's own column), 1 for a fallback (a cast's type, "case"), 0 for
 * none (operators, literals: "?column?"). A cast or a CASE takes its
 * argument's (its ELSE's) name when that is a real one. */
static int figure_colname(const bctx *c, const attu_ast_expr *e, const char **name) {
    switch (e->kind) {
    case ATTU_EXPR_COLUMN: *name = e->u.column.name; return 2;
    case ATTU_EXPR_FUNC:
        if (e->u.func.prefix_op) return 0;   /* @ x, |/ x: an operator's */
        /* the array syntax's calls (planner/array_bind.c): ARRAY[...] is
         * "array", a[i] and a[i:j] take a's name, an operator none */
        if (e->u.func.name[0] == ' ') {
            if (!strcmp(e->u.func.name, " array") || !strcmp(e->u.func.name, " array_query")) { *name = "array"; return 2; }
            if (!strcmp(e->u.func.name, " field")) { *name = e->u.func.args.items[1]->u.literal.text; return 2; }
            if (!strcmp(e->u.func.name, " subscript") || !strcmp(e->u.func.name, " slice") ||
                !strcmp(e->u.func.name, " collate"))
                return figure_colname(c, e->u.func.args.items[0], name);
            return 0;
        }
        *name = e->u.func.name;
        return 2;
    case ATTU_EXPR_EXTRACT: *name = "extract"; return 2;
    case ATTU_EXPR_EXISTS: *name = "exists"; return 2;
    case ATTU_EXPR_SUBQUERY:
        for (const subq_name *s = c->subq_names; s; s = s->next)
            if (s->expr == e) { *name = s->name; return 2; }
        return 0;
    case ATTU_EXPR_CASE: {
        int st = e->u.case_.else_ ? figure_colname(c, e->u.case_.else_, name) : 0;
        if (st <= 1) { *name = "case"; return 1; }
        return st;
    }
    case ATTU_EXPR_CAST: {
        int st = figure_colname(c, e->u.cast.arg, name);
        if (st <= 1) { *name = cast_type_name(c->pa, &e->u.cast.type); return 1; }
        return st;
    }
    default: return 0;
    }
}

static const char *expr_name(const bctx *c, const attu_ast_expr *e) {
    const char *name = "?column?";
    return figure_colname(c, e, &name) ? name : "?column?";
}

/* Remembers the name of scalar subquery e's column (see figure_colname). */
static void note_subq_name(bctx *c, const attu_ast_expr *e, const attu_lplan *p) {
    if (e->kind != ATTU_EXPR_SUBQUERY || p->ncols < 1 || !p->names[0]) return;
    subq_name *n = attu_palloc(c->pa, sizeof *n);
    if (!n) return;     /* only a name is lost */
    n->expr = e; n->name = p->names[0]; n->next = c->subq_names;
    c->subq_names = n;
}

static attu_lplan *mk_project(bctx *c, attu_lplan *child, int n, attu_bexpr **exprs, char **names) {
    attu_lplan *p = attu_lp_new(c->pa, LP_PROJECT, n);
    if (!p) OOM_NULL(c);
    p->left = child;
    p->exprs = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        p->exprs[i] = exprs[i];
        p->types[i] = exprs[i]->type;
        p->names[i] = names[i];
        if (exprs[i]->kind == BX_COL && exprs[i]->col == child->rowid_col) p->rowid_col = i;
    }
    p->est_rows = child->est_rows;
    return p;
}

/* Duplicate removal over rows with a bpchar without a length: PostgreSQL's
 * bpchar equality ignores trailing blanks, so 'a' and 'a ' are one row, and
 * the engine's duplicate removal (DISTINCT, the set operations, a recursive
 * UNION) compares values as kept. Such a node reads its input as the
 * columns with each such column's key in its place (bpchar_key, the value
 * without its blanks), then those columns' values (keyed_arm); it compares
 * the first n columns only (setop_ncmp) and carries the values, which
 * keyed_values (the node's value of column i) finds again. */
static int bpchar_keyed_count(const attu_type *ts, int n) {
    int nb = 0;
    for (int i = 0; i < n; i++) nb += keyed_by_value(ts[i]);
    return nb;
}

static int keyed_value_col(const attu_type *ts, int n, int i) {
    if (!keyed_by_value(ts[i])) return i;
    int j = n;
    for (int k = 0; k < i; k++) j += keyed_by_value(ts[k]);
    return j;
}

static attu_lplan *keyed_arm(bctx *c, attu_lplan *p, const attu_type *ts, int n, int nb) {
    attu_bexpr **ex = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n + nb));
    char **nm = attu_palloc(c->pa, sizeof(char *) * (size_t)(n + nb));
    if (!ex || !nm) OOM_NULL(c);
    for (int i = 0, j = n; i < n; i++) {
        attu_bexpr *col = attu_bx_col(c->pa, i, ts[i]);
        if (!col || !(ex[i] = bpchar_key(c, col))) OOM_NULL(c);
        nm[i] = p->names[i];
        if (ex[i] != col) { ex[j] = col; nm[j++] = p->names[i]; }
    }
    return mk_project(c, p, n + nb, ex, nm);
}

/* the n values again, over a keyed node's output */
static attu_lplan *keyed_values(bctx *c, attu_lplan *p, const attu_type *ts, int n, char **names) {
    attu_bexpr **ex = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)n);
    if (!ex) OOM_NULL(c);
    for (int i = 0; i < n; i++)
        if (!(ex[i] = attu_bx_col(c->pa, keyed_value_col(ts, n, i), ts[i]))) OOM_NULL(c);
    return mk_project(c, p, n, ex, names);
}

/* Whether a bound expression reads nothing but constants (no column,
 * parameter or subquery): calls and CASE over constants, which a count
 * folds now, so only a count of the outer row is left to the executor. */
static bool constant_call(const attu_bexpr *e) {
    if (!e || e->kind == BX_CONST) return true;
    if (e->kind != BX_CALL && e->kind != BX_CASE) return false;
    for (int i = 0; i < e->nargs; i++) if (!constant_call(e->args[i])) return false;
    for (int i = 0; i < e->nwhens; i++) if (!constant_call(e->whens[i]) || !constant_call(e->thens[i])) return false;
    return constant_call(e->else_);
}

static bool reads_this_level(const attu_bexpr *e);

/* The position of the first column of this query level that e reads. */
static int first_local_pos(const attu_bexpr *e) {
    if (!e) return -1;
    if (e->kind == BX_COL) return e->col < OUTER_BASE ? e->position : -1;
    int p;
    for (int i = 0; i < e->nargs; i++) if ((p = first_local_pos(e->args[i])) >= 0) return p;
    for (int i = 0; i < e->nwhens; i++)
        if ((p = first_local_pos(e->whens[i])) >= 0 || (p = first_local_pos(e->thens[i])) >= 0) return p;
    return first_local_pos(e->else_);
}

/* The count of a LIMIT or OFFSET (what), e, of a query whose FROM scope is
 * sc, as an INT64 expression: a constant (perhaps NULL) where it reads
 * nothing, folded now, else an expression of the enclosing query's row,
 * which the executor evaluates per run. As PostgreSQL's
 * transformLimitClause it is bound in the query's own namespace, so a
 * column of its FROM is found (and is 42P10) before an outer column of the
 * same name; the scope is left as it was. */
static attu_bexpr *bind_count(bctx *c, scope *sc, const attu_ast_expr *e, const char *what) {
    const char *sclause = c->clause;
    bool sa = c->allow_agg, sw = c->allow_window, ss = c->allow_srf;
    int nsc = sc->n, npend = c->npending;
    c->clause = what;
    c->allow_agg = false; c->allow_window = false; c->allow_srf = false;
    attu_bexpr *b = bind_expr(c, sc, e);
    c->clause = sclause;
    c->allow_agg = sa; c->allow_window = sw; c->allow_srf = ss;
    if (!b) return NULL;
    if (c->npending != npend) {
        /* a subquery reading this query's rows or the outer row: it would
         * have to run per row of a FROM the count must not read */
        bool local = false;
        for (int i = npend; i < c->npending; i++)
            for (int k = 0; k < c->pending[i].nkeys; k++) local = local || reads_this_level(c->pending[i].outer_keys[k]);
        c->npending = npend;
        sc->n = nsc;
        if (local) attu_error_set(c->err, "42P10", e->position, "argument of %s must not contain variables", what);
        else attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                            "a subquery reading the outer query in %s is not supported", what);
        return NULL;
    }
    if (reads_this_level(b)) {
        int pos = first_local_pos(b);
        attu_error_set(c->err, "42P10", pos >= 0 ? pos : e->position, "argument of %s must not contain variables", what);
        return NULL;
    }
    /* PostgreSQL coerces the count to bigint as an assignment does: a
     * numeric or float count rounds (FETCH FIRST 1.5 ROWS is 2), a text or
     * boolean one is 42804 */
    attu_type from_t = b->type;
    attu_type_id from = from_t.id;
    bool assign = from == ATTU_TYPE_NUMERIC || from == ATTU_TYPE_DECIMAL || from == ATTU_TYPE_FLOAT32 || from == ATTU_TYPE_FLOAT64;
    if (!(b = coerce(c, b, attu_type_make(ATTU_TYPE_INT64), assign, e->position))) {
        if (!strcmp(c->err->sqlstate, ATTU_SQLSTATE_DATATYPE_MISMATCH)) {
            char tn[64];
            attu_error_clear(c->err);    /* PostgreSQL's words for a count */
            attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, e->position, "argument of %s must be type bigint, not type %s",
                           what, attu_type_name(from_t, tn, sizeof tn));
        }
        return NULL;
    }
    /* fold a cast of a constant */
    if (b->kind == BX_CALL && b->nargs == 1 && b->args[0]->kind == BX_CONST &&
        (b->op == ATTU_OP_CAST_I_I || b->op == ATTU_OP_MOVE)) b = b->args[0];
    if (b->kind != BX_CONST && constant_call(b)) {
        /* an expression of constants (1.5 rounded, 2 * 3): its value, now */
        attu_stage_exprs ex;
        attu_slot v;
        char text[64];
        memset(&ex, 0, sizeof ex);
        int rc = attu_compile_exprs(&b, 1, 0, NULL, &ex, c->err);
        if (!rc) rc = attu_program_eval_const(ex.prog, &v, text, sizeof text, c->err);
        attu_stage_exprs_free(&ex);
        if (rc) return NULL;   /* 22003, 22012: without a position, as PostgreSQL's */
        b = v.null ? mk_const_null(c, attu_type_make(ATTU_TYPE_INT64)) : mk_const_int(c, attu_type_make(ATTU_TYPE_INT64), v.v.i);
        if (!b) OOM_NULL(c);
    }
    return b;
}

/* l's counts from q's OFFSET and LIMIT (bound with the FROM scope sc, in
 * PostgreSQL's order): constants are checked now (a negative one is
 * 2201X / 2201W); where either reads the outer row both are kept as
 * expressions for the executor, which checks them per run in the same
 * order, before it reads a row, as PostgreSQL's Limit node does. */
static bool limit_counts(bctx *c, scope *sc, const attu_ast_query *q, attu_lplan *l) {
    attu_bexpr *off = NULL, *lim = NULL;
    if (q->offset && !(off = bind_count(c, sc, q->offset, "OFFSET"))) return false;
    if (q->limit && !(lim = bind_count(c, sc, q->limit, "LIMIT"))) return false;
    if ((off && off->kind != BX_CONST) || (lim && lim->kind != BX_CONST)) {
        attu_type t8 = attu_type_make(ATTU_TYPE_INT64);
        if (!(l->offset_expr = off ? off : mk_const_null(c, t8)) || !(l->limit_expr = lim ? lim : mk_const_null(c, t8))) {
            if (!c->err->set) attu_error_oom(c->err);
            return false;
        }
        l->limit = -1;
        l->offset = 0;
        return true;
    }
    if (off && !off->is_null && off->i < 0) {
        attu_error_set(c->err, "2201X", q->offset->position, "OFFSET must not be negative");
        return false;
    }
    if (lim && !lim->is_null && lim->i < 0) {
        attu_error_set(c->err, "2201W", q->limit->position, "LIMIT must not be negative");
        return false;
    }
    l->offset = off && !off->is_null ? off->i : 0;
    l->limit = lim && !lim->is_null ? lim->i : -1;
    return true;
}

/* FETCH ... WITH TIES on the LIMIT l over `sort` (the ORDER BY's LP_SORT,
 * its keys columns of its input and so of its output): l keeps the peers
 * of its last row by those keys (fresh column references, so a rewrite of
 * the sort's never reaches them). PostgreSQL's parse analysis rejects a
 * literal NULL row count (2201W); one reached otherwise, a parameter or
 * (NULL::int), means no limit, as for LIMIT. */
static bool limit_with_ties(bctx *c, const attu_ast_query *q, attu_lplan *l, const attu_lplan *sort) {
    if (!q->limit_with_ties) return true;
    const attu_ast_expr *e = q->limit;
    if (e && e->kind == ATTU_EXPR_LITERAL && e->u.literal.kind == ATTU_LIT_NULL) {
        attu_error_set(c->err, "2201W", e->position, "row count cannot be null in FETCH FIRST ... WITH TIES clause");
        return false;
    }
    l->with_ties = true;
    if (!sort || sort->kind != LP_SORT) return true;   /* no keys: every row a peer */
    l->sort = attu_palloc(c->pa, sizeof(attu_sort_item) * (size_t)(sort->nsort + 1));
    if (!l->sort) { attu_error_oom(c->err); return false; }
    for (int i = 0; i < sort->nsort; i++) {
        l->sort[i] = sort->sort[i];
        const attu_bexpr *k = sort->sort[i].expr;
        if (k->kind == BX_COL && !(l->sort[i].expr = attu_bx_col(c->pa, k->col, k->type))) { attu_error_oom(c->err); return false; }
    }
    l->nsort = sort->nsort;
    return true;
}

/* Whether e reads a column of this query (not only outer references). */
static bool reads_this_level(const attu_bexpr *e) {
    if (!e) return false;
    if (e->kind == BX_COL) return e->col < OUTER_BASE;
    for (int i = 0; i < e->nargs; i++) if (reads_this_level(e->args[i])) return true;
    for (int i = 0; i < e->nwhens; i++) if (reads_this_level(e->whens[i]) || reads_this_level(e->thens[i])) return true;
    for (int i = 0; i < e->norder; i++) if (reads_this_level(e->order[i].expr)) return true;
    return reads_this_level(e->else_);
}

/* Whether e reads a scope column in [lo, hi) where it is needed per input
 * row of the aggregation: inside an aggregate's arguments or ORDER BY
 * (in_agg), or anywhere when e is a group key (in_agg set by the caller). */
static bool reads_cols_per_row(const attu_bexpr *e, int lo, int hi, bool in_agg) {
    if (!e) return false;
    if (e->kind == BX_COL) return in_agg && e->col >= lo && e->col < hi;
    bool a = in_agg || e->kind == BX_AGG;
    for (int i = 0; i < e->nargs; i++) if (reads_cols_per_row(e->args[i], lo, hi, a)) return true;
    for (int i = 0; i < e->nwhens; i++)
        if (reads_cols_per_row(e->whens[i], lo, hi, a) || reads_cols_per_row(e->thens[i], lo, hi, a)) return true;
    for (int i = 0; i < e->npart; i++) if (reads_cols_per_row(e->part[i], lo, hi, a)) return true;
    for (int i = 0; i < e->norder; i++) if (reads_cols_per_row(e->order[i].expr, lo, hi, a)) return true;
    return reads_cols_per_row(e->else_, lo, hi, a);
}

/* Under aggregation, a correlated subquery run by parameters that read no
 * column of this query, only queries further out ((SELECT max(c.y + o.y)
 * FROM c) inside a subquery over b, o two levels out), has one value for
 * the whole query, as PostgreSQL evaluates it once per outer row; run over
 * the FROM rows it would be a group key, and an aggregate over no rows
 * (no groups then) would lose its one row. Such a subquery runs after the
 * AGG node instead (post_agg, as one reading this query's aggregates),
 * unless a group key or an aggregate's argument reads its value, which
 * need it per row. The post-aggregation values' offsets (post_off) follow
 * the pending order. */
static void defer_outer_only(bctx *c, scope *sc, const aggstate *st, attu_bexpr **items, int n, const attu_bexpr *having,
                             const attu_sort_item *ord, int nord) {
    for (int i = 0; i < c->npending; i++) {
        pending_join *pj = &c->pending[i];
        if (!pj->param_sub || pj->post_agg) continue;
        bool movable = true;
        for (int k = 0; k < pj->nkeys && movable; k++) if (reads_this_level(pj->outer_keys[k])) movable = false;
        int lo = pj->scope_base, hi = lo + 1 + pj->param_sub->ncols;
        for (int g = 0; g < st->ngroups && movable; g++) if (reads_cols_per_row(st->groups[g], lo, hi, true)) movable = false;
        for (int k = 0; k < n && movable; k++) if (reads_cols_per_row(items[k], lo, hi, false)) movable = false;
        for (int k = 0; k < nord && movable; k++) if (reads_cols_per_row(ord[k].expr, lo, hi, false)) movable = false;
        if (movable && reads_cols_per_row(having, lo, hi, false)) movable = false;
        /* a later subquery's parameters reading this one's value run
         * where it does not yet exist */
        for (int j = i + 1; j < c->npending && movable; j++)
            for (int k = 0; k < c->pending[j].nkeys; k++)
                if (reads_cols_per_row(c->pending[j].outer_keys[k], lo, hi, true)) { movable = false; break; }
        if (movable) pj->post_agg = true;
    }
    int off = 0;
    for (int i = 0; i < c->npending; i++) {
        pending_join *pj = &c->pending[i];
        if (!pj->post_agg) continue;
        for (int j = 0; j <= pj->param_sub->ncols; j++) {
            sc->cols[pj->scope_base + j].post_agg = true;
            sc->cols[pj->scope_base + j].post_off = off + j;
        }
        off += 1 + pj->param_sub->ncols;
    }
}

/* Whether two output columns of one name are one expression, for ORDER
 * BY and DISTINCT ON by that name (else 42702). A cast that only drops a
 * numeric's typmod (CAST(d AS numeric) of a numeric(12,2) column) is the
 * same value here but another expression to PostgreSQL (a relabel), so
 * the two differ. */
static bool same_output(const attu_bexpr *x, const attu_bexpr *y) {
    if (!attu_bx_equal(x, y)) return false;
    return x->type.id != ATTU_TYPE_DECIMAL || x->type.no_typmod == y->type.no_typmod;
}

/* ORDER BY / GROUP BY / DISTINCT ON read an integer constant as an output
 * column's position; any other bare constant (a string, a decimal, a
 * boolean, NULL, an integer past int4) is PostgreSQL's 42601 "non-integer
 * constant" there */
static bool nonint_const(bctx *c, const attu_ast_expr *e, const char *clause) {
    if (e->kind != ATTU_EXPR_LITERAL) return false;
    if (e->u.literal.kind == ATTU_LIT_INTEGER) {
        errno = 0;
        long long v = strtoll(e->u.literal.text, NULL, 10);
        if (errno == 0 && v <= 2147483647LL && v >= -2147483647LL) return false;
    }
    attu_error_set(c->err, "42601", e->position, "non-integer constant in %s", clause);
    return true;
}

/* The key a sort orders output column k by: a bpchar without a length
 * sorts without its trailing blanks (bpchar_key); the rows still show the
 * values as kept. NULL on OOM. */
static attu_bexpr *sort_key_col(bctx *c, int k, attu_type t) {
    attu_bexpr *col = attu_bx_col(c->pa, k, t);
    return col ? bpchar_key(c, col) : NULL;
}

/* The item domains bind_select noted for SELECT block q (NULL: none). */
static const select_domains *select_domains_of(const bctx *c, const attu_ast_query *q) {
    for (const select_domains *sd = c->select_domains; sd; sd = sd->next)
        if (sd->q == q) return sd;
    return NULL;
}

/* The domain a select item's value is of, as PostgreSQL types it: a
 * column of a domain (bound just now: c->last_domain) or a cast to one;
 * NULL for any other expression (an operator's result is the base
 * type's). */
static const char *item_domain_of(bctx *c, const attu_ast_expr *e) {
    if (e->kind == ATTU_EXPR_COLUMN) return c->last_domain;
    if (e->kind != ATTU_EXPR_CAST || !e->u.cast.type.name) return NULL;
    const char *n = e->u.cast.type.name;
    if (!strncmp(n, "public.", 7)) n += 7;
    /* (a cast to an array of a domain: "d[]", as its columns are kept) */
    size_t len = strlen(n);
    bool arr = len > 2 && !strcmp(n + len - 2, "[]");
    char en[ATTU_NAME_MAX + 1], dn[ATTU_NAME_MAX + 3];
    snprintf(en, sizeof en, "%.*s", (int)(arr ? len - 2 : len), n);
    attu_domain_def *d = attu_domain_find(en);
    if (d) snprintf(dn, sizeof dn, "%s%s", d->name, arr ? "[]" : "");
    const char *r = d ? attu_pstrdup(c->pa, dn, strlen(dn)) : NULL;
    attu_domain_def_free(d);
    return r;
}

static attu_lplan *bind_select(bctx *c, const attu_ast_query *q) {
    /* (the query as written: its items' domains and row names are found
     * by it, select_domains_of) */
    const attu_ast_query *written = q;
    /* a set-returning SQL function in the select list: a LATERAL join
     * (sql_function_bind.c) */
    if (!(q = attu_sql_function_select_srf(c, q))) return NULL;
    if (!(q = attu_expandarray_select_srf(c, q))) return NULL;   /* (planner/srf.c) */
    const typeof(q->u.select) *s = &q->u.select;
    c->pending = NULL;
    c->npending = 0;
    scope sc = { 0, NULL, 0 };
    attu_lplan *p = NULL;
    c->clause = "FROM";
    for (int i = 0; i < s->from.n; i++) {
        scope one = { 0, NULL, 0 };
        /* a SQL function in FROM: LATERAL (SELECT f(...)) (sql_function_bind.c) */
        const attu_ast_from *fi = attu_sql_function_from(c, s->from.items[i]);
        if (!fi) return NULL;
        if (p && fi->kind == ATTU_FROM_FUNCTION) {
            /* a function reading the items before it runs over their rows
             * (LATERAL, implicit for functions in PostgreSQL) */
            bool lateral;
            const char *qual, **names = NULL;
            int nnew = 0;
            bool scalar;
            attu_lplan *f = attu_bind_from_function(c, fi, &sc, p, &lateral, &qual, &names, &nnew, &scalar);
            if (!f) return NULL;
            int src = c->next_source++;
            for (int k = 0; k < nnew; k++) {
                if (!scope_push(c, &one, qual, names[k], f->types[f->ncols - nnew + k], false, false, src)) return NULL;
                one.cols[one.n - 1].scalar_row = scalar;
            }
            if (lateral) {
                for (int k = 0; k < one.n; k++) {
                    scope_col col = one.cols[k];
                    if (!scope_push_col(c, &sc, &col, scope_star_end(&sc))) return NULL;
                }
                p = f;
                continue;
            }
            int star_base = scope_star_end(&sc);
            for (int k = 0; k < one.n; k++)
                if (!scope_push_col(c, &sc, &one.cols[k], star_base)) return NULL;
            if (!(p = attu_make_join(c, p, f, JK_CROSS, NULL))) return NULL;
            continue;
        }
        if (p && fi->kind == ATTU_FROM_SUBQUERY && fi->u.subquery.lateral) {
            /* LATERAL (SELECT ...) reading the items before it: p ++ its rows */
            bool lateral;
            attu_lplan *f = bind_lateral(c, fi, &sc, p, &one, &lateral);
            if (!f) return NULL;
            int star_base = scope_star_end(&sc);
            for (int k = 0; k < one.n; k++)
                if (!scope_push_col(c, &sc, &one.cols[k], star_base)) return NULL;
            if (!(p = lateral ? f : attu_make_join(c, p, f, JK_CROSS, NULL))) return NULL;
            continue;
        }
        attu_lplan *f = bind_from(c, fi, &one);
        if (!f) return NULL;
        /* names visible twice under one qualifier are fine until used */
        int star_base = scope_star_end(&sc);
        for (int k = 0; k < one.n; k++)
            if (!scope_push_col(c, &sc, &one.cols[k], star_base)) return NULL;
        p = p ? attu_make_join(c, p, f, JK_CROSS, NULL) : f;
        if (!p) return NULL;
    }
    if (!p) {   /* no FROM: one row, no columns */
        p = attu_lp_new(c->pa, LP_VALUES, 0);
        if (!p) OOM_NULL(c);
        p->nrows = 1;
        p->est_rows = 1;
    }
    /* WHERE: top-level [NOT] EXISTS conditions that are correlated become
     * semi / anti joins; everything else one predicate */
    if (s->where) {
        c->clause = "WHERE"; c->allow_agg = false; c->allow_window = false;
        c->agg_lift = q->lift_aggs;
        const attu_ast_expr *wc[256];
        int nwc = 0;
        const attu_ast_expr *stack[256];
        int sp = 0;
        stack[sp++] = s->where;
        while (sp && nwc < 256) {
            const attu_ast_expr *x = stack[--sp];
            if (x->kind == ATTU_EXPR_BINARY && x->u.binary.op == ATTU_BINOP_AND && sp < 254) {
                stack[sp++] = x->u.binary.right;
                stack[sp++] = x->u.binary.left;
            } else wc[nwc++] = x;
        }
        /* a row subquery, (a, b) [NOT] IN (SELECT ...), becomes the
         * [NOT] EXISTS conjuncts that stand for it where only TRUE counts
         * (planner/row_subquery.c), so that it may be a semi / anti join */
        for (int i = 0; i < nwc; i++) {
            if (!attu_is_row_subquery(wc[i]) || nwc >= 255) continue;
            const attu_ast_expr *rs[2];
            int k = attu_row_subquery_where(c, &sc, wc[i], rs);
            if (k < 0) return NULL;
            wc[i] = rs[0];
            if (k == 2) {
                memmove(wc + i + 2, wc + i + 1, sizeof wc[0] * (size_t)(nwc - i - 1));
                wc[i + 1] = rs[1];
                nwc++;
                i++;
            }
        }
        attu_bexpr *parts[256];
        int np = 0;
        attu_lplan *first_semi = NULL;     /* the lowest semi / anti join */
        /* PostgreSQL runs the cheaper conjuncts first, a subquery's last:
         * with several, each may go unevaluated for a row */
        int cond_saved = c->cond_depth;
        c->cond_depth += nwc > 1;
        for (int i = 0; i < nwc; i++) {
            const attu_ast_expr *x = wc[i];
            bool neg = false;
            if (x->kind == ATTU_EXPR_UNARY && x->u.unary.op == ATTU_UNOP_NOT && x->u.unary.arg->kind == ATTU_EXPR_EXISTS) { neg = true; x = x->u.unary.arg; }
            if (x->kind == ATTU_EXPR_EXISTS) {
                attu_lplan *j = bind_exists_join(c, p, &sc, x, neg);
                if (!j) { c->cond_depth = cond_saved; return NULL; }
                if (j != (attu_lplan *)1) { if (!first_semi) first_semi = j; p = j; continue; }
                x = wc[i];
            }
            attu_bexpr *b = bind_expr(c, &sc, x);
            if (!b || !(b = coerce_bool(c, b, "WHERE"))) { c->cond_depth = cond_saved; return NULL; }
            parts[np++] = b;
        }
        c->cond_depth = cond_saved;
        /* a condition that reads no column is PostgreSQL's one-time filter,
         * evaluated before any row: its subquery runs surely, unless a FALSE
         * constant among the conditions folds them all away first */
        bool folded_false = false;
        for (int i = 0; i < np; i++)
            folded_false |= parts[i]->kind == BX_CONST && !parts[i]->is_null && !parts[i]->i;
        for (int i = 0; i < np && nwc > 1 && !folded_false; i++)
            if (!reads_any_col(parts[i]) && raise_deferred(c, parts[i])) return NULL;
        if (first_semi) {
            /* the conditions on the FROM rows alone (no subquery value, no
             * outer column) filter below the semi / anti joins, as
             * PostgreSQL restricts the outer relation first: a join key
             * such as a / b is computed only for the rows that pass them */
            attu_bexpr *below[256];
            int nbelow = 0, nkeep = 0;
            attu_lplan *base = first_semi->left;
            for (int i = 0; i < np; i++) {
                if (sides(parts[i], base->ncols) & 6) parts[nkeep++] = parts[i];
                else below[nbelow++] = parts[i];
            }
            np = nkeep;
            if (nbelow) {
                attu_lplan *f = filter_local(c, base, below, nbelow);
                if (!f) return NULL;
                f->rowid_col = base->rowid_col;
                first_semi->left = f;
            }
        }
        if (c->npending) {
            /* the conditions that read no subquery value filter first, as
             * PostgreSQL evaluates subquery conditions last: a subquery's
             * 21000 comes only from rows that reach it */
            attu_bexpr *pre[256], *post[256];
            int npre = 0, npost = 0;
            for (int i = 0; i < np; i++) {
                if (sides(parts[i], p->ncols) & 2) post[npost++] = parts[i];
                else pre[npre++] = parts[i];
            }
            if (npre) {
                attu_lplan *f = filter_local(c, p, pre, npre);
                if (!f) return NULL;
                f->rowid_col = p->rowid_col;
                p = f;
            }
            if (!(p = apply_pending(c, p))) return NULL;
            memcpy(parts, post, sizeof(attu_bexpr *) * (size_t)npost);
            np = npost;
        }
        if (np) {
            attu_bexpr *w = and_all(c, parts, np);
            attu_lplan *f = attu_lp_new(c->pa, LP_FILTER, p->ncols);
            if (!f) OOM_NULL(c);
            memcpy(f->types, p->types, sizeof(attu_type) * (size_t)p->ncols);
            memcpy(f->names, p->names, sizeof(char *) * (size_t)p->ncols);
            f->left = p; f->pred = w; f->est_rows = p->est_rows / 3; f->rowid_col = p->rowid_col;
            p = f;
        }
    }
    c->agg_lift = false;
    /* select list (with * expanded) */
    int cap = 16, n = 0;
    attu_bexpr **items = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)cap);
    char **names = attu_palloc(c->pa, sizeof(char *) * (size_t)cap);
    c->clause = "SELECT"; c->allow_agg = true; c->allow_window = true;
    /* the domain of each item (c->select_domains: CREATE VIEW, CREATE
     * TABLE AS, a derived table's columns) */
    bool want_domains = true;
    const char **item_domain = NULL;
    /* and each row item's field names (a derived table's row column keeps
     * them: (s.r).a) */
    const char *const **item_row_names = NULL;
    int *item_nrow_names = NULL;
    if (want_domains) {
        int most = 1;
        for (int i = 0; i < s->nitems; i++) {
            const attu_ast_expr *e = s->items[i].expr;
            most += e->kind == ATTU_EXPR_STAR ? sc.n : 1;
            /* ((row).* gives columns of no domain, as many as its row has) */
            if (e->kind == ATTU_EXPR_FUNC && !strcmp(e->u.func.name, " fields")) want_domains = false;
        }
        if (want_domains && !(item_domain = attu_palloc(c->pa, sizeof *item_domain * (size_t)(most + 1)))) OOM_NULL(c);
        if (item_domain) memset(item_domain, 0, sizeof *item_domain * (size_t)(most + 1));
        if (want_domains && (!(item_row_names = attu_palloc(c->pa, sizeof *item_row_names * (size_t)(most + 1))) ||
                             !(item_nrow_names = attu_palloc(c->pa, sizeof *item_nrow_names * (size_t)(most + 1)))))
            OOM_NULL(c);
        if (item_row_names) memset(item_row_names, 0, sizeof *item_row_names * (size_t)(most + 1));
        if (item_nrow_names) memset(item_nrow_names, 0, sizeof *item_nrow_names * (size_t)(most + 1));
    }
    /* generate_series here runs over the rows (attu_extract_srfs); not in
     * the rowid query of an UPDATE or DELETE (db/db_modify.c: its first
     * item the internal rowid), whose SET values and RETURNING items
     * PostgreSQL keeps free of them */
    bool dml = s->nitems > 0 && s->items[0].expr->kind == ATTU_EXPR_COLUMN &&
               !strcmp(s->items[0].expr->u.column.name, ATTU_ROWID_INTERNAL);
    c->allow_srf = !dml;
    c->srf_clause = dml ? "UPDATE or RETURNING" : NULL;
    for (int i = 0; i < s->nitems; i++) {
        const attu_ast_select_item *it = &s->items[i];
        if (it->expr->kind == ATTU_EXPR_STAR) {
            const char *qq = it->expr->u.star.qualifier;
            bool any = false;
            /* t.* lists t's columns in t's order (USING's copies included);
             * a bare * every visible column in * order (see bind_join) */
            int *order = attu_palloc(c->pa, sizeof(int) * (size_t)(sc.n + 1));
            if (!order) OOM_NULL(c);
            for (int k = 0; k < sc.n; k++) {
                int pos = k;
                if (!qq) while (pos > 0 && sc.cols[order[pos - 1]].star_pos > sc.cols[k].star_pos) { order[pos] = order[pos - 1]; pos--; }
                else while (pos > 0 && sc.cols[order[pos - 1]].qual_pos > sc.cols[k].qual_pos) { order[pos] = order[pos - 1]; pos--; }
                order[pos] = k;
            }
            for (int ki = 0; ki < sc.n; ki++) {
                int k = order[ki];
                if (sc.cols[k].hidden && !(qq && sc.cols[k].using_copy)) continue;
                if (qq && (!sc.cols[k].qual || strcmp(sc.cols[k].qual, qq))) continue;
                if (n + 1 >= cap) {
                    cap *= 2;
                    attu_bexpr **ni = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)cap);
                    char **nn = attu_palloc(c->pa, sizeof(char *) * (size_t)cap);
                    memcpy(ni, items, sizeof(attu_bexpr *) * (size_t)n); memcpy(nn, names, sizeof(char *) * (size_t)n);
                    items = ni; names = nn;
                }
                items[n] = attu_bx_col(c->pa, k, sc.cols[k].type);
                items[n]->position = it->expr->position;
                attu_row_column_items(c, &sc, k, items[n]);   /* a derived table's row column */
                if (want_domains) {
                    item_domain[n] = sc.cols[k].domain;
                    item_row_names[n] = sc.cols[k].row_names;
                    item_nrow_names[n] = sc.cols[k].nrow_names;
                }
                names[n++] = (char *)sc.cols[k].name;
                any = true;
            }
            if (qq && !any) {
                bool known = false;
                for (int k = 0; k < sc.n; k++) if (sc.cols[k].qual && !strcmp(sc.cols[k].qual, qq)) known = true;
                if (!known) { attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_TABLE, it->expr->position, "missing FROM-clause entry for table \"%s\"", qq); return NULL; }
            }
            if (!qq && !any && s->from.n == 0) {
                attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, it->expr->position, "SELECT * with no tables specified is not valid");
                return NULL;
            }
            continue;
        }
        if (n + 1 >= cap) {
            cap *= 2;
            attu_bexpr **ni = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)cap);
            char **nn = attu_palloc(c->pa, sizeof(char *) * (size_t)cap);
            memcpy(ni, items, sizeof(attu_bexpr *) * (size_t)n); memcpy(nn, names, sizeof(char *) * (size_t)n);
            items = ni; names = nn;
        }
        if (it->expr->kind == ATTU_EXPR_FUNC && !strcmp(it->expr->u.func.name, " fields")) {
            /* (row).*: the row's columns, each an item (planner/row_value.c) */
            attu_bexpr **fi;
            const char **fn;
            int nf = attu_row_fields_expand(c, &sc, it->expr, &fi, &fn);
            if (nf < 0) return NULL;
            if (n + nf + 1 >= cap) {
                cap = (n + nf + 1) * 2;
                attu_bexpr **ni = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)cap);
                char **nn = attu_palloc(c->pa, sizeof(char *) * (size_t)cap);
                if (!ni || !nn) OOM_NULL(c);
                memcpy(ni, items, sizeof(attu_bexpr *) * (size_t)n); memcpy(nn, names, sizeof(char *) * (size_t)n);
                items = ni; names = nn;
            }
            for (int k = 0; k < nf; k++) {
                if (!(items[n] = resolve_unknown(c, fi[k]))) return NULL;
                names[n++] = (char *)fn[k];
            }
            continue;
        }
        c->last_domain = NULL;
        attu_bexpr *b = bind_expr(c, &sc, it->expr);
        if (want_domains) item_domain[n] = item_domain_of(c, it->expr);
        if (want_domains && b && attu_type_is_record(b->type)) {
            int nf = 0;
            const char **rn = attu_row_field_names(c, &sc, it->expr, b, &nf);
            if (c->err->set) return NULL;
            item_row_names[n] = rn;
            item_nrow_names[n] = rn ? nf : 0;
        }
        /* an arm's bare parameter: its set operation types it */
        if (b && c->setop_arm == q && arm_plain(q, i) && is_untyped_param(b)) b = resolve_unknown_untracked(c, b);
        if (!b || !(b = resolve_unknown(c, b))) return NULL;
        items[n] = b;
        names[n++] = it->alias ? it->alias : (char *)expr_name(c, it->expr);
    }
    c->allow_srf = false;
    c->srf_clause = NULL;
    if (want_domains) {
        select_domains *sd = attu_palloc(c->pa, sizeof *sd);
        if (!sd) OOM_NULL(c);
        *sd = (select_domains){ written, item_domain, n, c->select_domains, item_row_names, item_nrow_names };
        c->select_domains = sd;
    }
    if (!attu_check_srf_placement(c, items, n)) return NULL;
    /* GROUP BY: each expression written (with grouping sets, each leaf of
     * them) is a grouping item, bound once (equal ones merged) into the
     * keys it groups by */
    aggstate st;
    memset(&st, 0, sizeof st);
    st.sc = &sc;
    attu_gsets gs;
    const attu_ast_expr *const *gleaves = (const attu_ast_expr *const *)s->group_by.items;
    int ngleaves = s->group_by.n;
    if (s->group_sets) {
        if (!attu_gsets_expand(c, &s->group_by, &gs)) return NULL;
        gleaves = gs.leaves;
        ngleaves = gs.nleaves;
    }
    st.rowid_sources = attu_palloc(c->pa, sizeof(int) * (size_t)(ngleaves + 1));
    st.bp_orig = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(ngleaves + 1));
    st.bp_item = attu_palloc(c->pa, sizeof(int) * (size_t)(ngleaves + 1));
    st.items = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(ngleaves + 1));
    st.ikstart = attu_palloc(c->pa, sizeof(int) * (size_t)(ngleaves + 1));
    st.ikn = attu_palloc(c->pa, sizeof(int) * (size_t)(ngleaves + 1));
    int *leaf_item = attu_palloc(c->pa, sizeof(int) * (size_t)(ngleaves + 1));
    int *item_rowid = attu_palloc(c->pa, sizeof(int) * (size_t)(ngleaves + 1));
    if (!st.bp_orig || !st.bp_item || !st.items || !st.ikstart || !st.ikn || !leaf_item || !item_rowid || !st.rowid_sources) OOM_NULL(c);
    c->clause = "GROUP BY"; c->allow_agg = false; c->allow_window = false;
    for (int i = 0; i < ngleaves; i++) {
        const attu_ast_expr *ge = gleaves[i];
        attu_bexpr *g = NULL;
        if (nonint_const(c, ge, "GROUP BY")) return NULL;
        if (ge->kind == ATTU_EXPR_LITERAL && ge->u.literal.kind == ATTU_LIT_INTEGER) {
            long k = strtol(ge->u.literal.text, NULL, 10);
            if (k < 1 || k > n) { attu_error_set(c->err, "42P10", ge->position, "GROUP BY position %ld is not in select list", k); return NULL; }
            g = items[k - 1];
            if (has_kind(g, BX_AGG)) {
                /* at the aggregate in the list, as PostgreSQL */
                attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, first_agg_position(g, ge->position),
                               "aggregate functions are not allowed in GROUP BY");
                return NULL;
            }
        } else {
            attu_error save = *c->err;
            g = bind_expr(c, &sc, ge);
            if (!g && ge->kind == ATTU_EXPR_COLUMN && !ge->u.column.qualifier && !strcmp(c->err->sqlstate, ATTU_SQLSTATE_UNDEFINED_COLUMN)) {
                /* an output column name */
                for (int k = 0; k < n; k++)
                    if (!strcmp(names[k], ge->u.column.name)) { *c->err = save; g = items[k]; break; }
            }
            if (!g) return NULL;
            if (!(g = resolve_unknown(c, g))) return NULL;
        }
        if (attu_bx_has_srf(g)) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, ge->position, "set-returning functions are not allowed in GROUP BY");
            return NULL;
        }
        /* an expression met before is the same item */
        int item = -1;
        for (int j = 0; j < st.nitems && item < 0; j++) if (attu_bx_equal_written(st.items[j], g)) item = j;
        leaf_item[i] = item;
        if (item >= 0) continue;
        item = leaf_item[i] = st.nitems++;
        st.items[item] = g;
        st.ikstart[item] = st.nikeys;
        item_rowid[item] = -1;
        attu_bexpr **rf;
        int nrf = attu_row_value_items(c, g, &rf);
        if (nrf > 0) {
            /* a row value groups by its items (record equality is theirs,
             * NULLs alike), which also lets the list show the row and
             * ORDER BY order by its items; copies, as the keys are
             * renumbered in place */
            attu_bexpr **nb = attu_palloc(c->pa, sizeof *nb * (size_t)(st.nbp + nrf + ngleaves + 1));
            int *ni = attu_palloc(c->pa, sizeof *ni * (size_t)(st.nbp + nrf + ngleaves + 1));
            if (!nb || !ni) OOM_NULL(c);
            memcpy(nb, st.bp_orig, sizeof *nb * (size_t)st.nbp);
            memcpy(ni, st.bp_item, sizeof *ni * (size_t)st.nbp);
            st.bp_orig = nb; st.bp_item = ni;
            /* a whole-row reference's NULL (no outer-join partner) is a key
             * too, as the list's row reads it */
            attu_bexpr *nt = attu_row_value_null_test(c, g);
            if (nt && (!(nt = copy_shift(c, nt, 0)) || add_item_key(c, &st, nt) < 0)) OOM_NULL(c);
            for (int j = 0; j < nrf; j++) {
                attu_bexpr *it = copy_shift(c, rf[j], 0);
                attu_bexpr *key = it ? bpchar_key(c, it) : NULL;
                if (!key || add_item_key(c, &st, key) < 0) OOM_NULL(c);
                if (key != it) { st.bp_item[st.nbp] = item; st.bp_orig[st.nbp++] = it; }
            }
            /* a derived table's row column or a CASE of rows is no
             * expression of its items: the list reads a value of the
             * group (its text is theirs) */
            if (attu_row_value_opaque(c, g)) { st.bp_item[st.nbp] = item; st.bp_orig[st.nbp++] = g; }
            continue;
        }
        attu_bexpr *key = bpchar_key(c, g);
        if (!key || add_item_key(c, &st, key) < 0) OOM_NULL(c);
        if (key != g) { st.bp_item[st.nbp] = item; st.bp_orig[st.nbp++] = g; }
        if (g->kind == BX_COL && sc.cols[g->col].is_rowid) item_rowid[item] = sc.cols[g->col].source;
    }
    /* the sets, over the items: one of them all without grouping sets */
    st.nsets = s->group_sets ? gs.nsets : 1;
    st.member = attu_palloc(c->pa, sizeof(bool) * (size_t)st.nsets * (size_t)(st.nitems + 1));
    if (!st.member) OOM_NULL(c);
    for (int k = 0; k < st.nsets; k++) {
        bool *m = st.member + (size_t)k * (size_t)st.nitems;
        if (!s->group_sets) { for (int j = 0; j < st.nitems; j++) m[j] = true; continue; }
        for (int q = 0; q < gs.set_len[k]; q++) m[leaf_item[gs.pool[gs.set_start[k] + q]]] = true;
    }
    if (s->group_distinct) {
        /* GROUP BY DISTINCT: each set once */
        int kept = 0;
        for (int k = 0; k < st.nsets; k++) {
            bool dup = false;
            for (int q = 0; q < kept && !dup; q++)
                dup = !memcmp(st.member + (size_t)q * (size_t)st.nitems, st.member + (size_t)k * (size_t)st.nitems, (size_t)st.nitems);
            if (dup) continue;
            if (kept != k) memcpy(st.member + (size_t)kept * (size_t)st.nitems, st.member + (size_t)k * (size_t)st.nitems, (size_t)st.nitems);
            kept++;
        }
        st.nsets = kept;
    }
    for (int j = 0; j < st.nitems; j++) {
        bool all = true;
        for (int k = 0; k < st.nsets; k++) all &= st.member[(size_t)k * (size_t)st.nitems + j];
        st.partial |= !all;
        /* a grouped rowid makes its row's columns grouped too (functional
         * dependency), as PostgreSQL's only where every set has it */
        if (all && item_rowid[j] >= 0) st.rowid_sources[st.nrowid++] = item_rowid[j];
    }
    if (st.partial) {
        st.bp_aggk = attu_palloc(c->pa, sizeof(int) * (size_t)(st.nbp + 1));
        st.key_common = attu_palloc(c->pa, (size_t)st.ngroups + 1);
        if (!st.bp_aggk || !st.key_common) OOM_NULL(c);
        for (int i = 0; i < st.nbp; i++) st.bp_aggk[i] = -1;
        for (int j = 0; j < st.nitems; j++) {
            bool all = true;
            for (int k = 0; k < st.nsets; k++) all &= st.member[(size_t)k * (size_t)st.nitems + j];
            for (int q = 0; all && q < st.ikn[j]; q++) st.key_common[st.ikeys[st.ikstart[j] + q]] = true;
        }
    }
    /* HAVING */
    attu_bexpr *having = NULL;
    if (s->having) {
        c->clause = "HAVING"; c->allow_agg = true; c->allow_window = false;
        having = bind_expr(c, &sc, s->having);
        if (!having || !(having = coerce_bool(c, having, "HAVING"))) return NULL;
    }
    /* ORDER BY: output names, ordinals, or expressions over the input */
    int nord = q->order_by.n;
    attu_sort_item *ord = attu_palloc(c->pa, sizeof(attu_sort_item) * (size_t)(nord + 1));
    int *ord_out = attu_palloc(c->pa, sizeof(int) * (size_t)(nord + 1));
    c->clause = "ORDER BY"; c->allow_agg = true; c->allow_window = true;
    c->allow_srf = true;     /* runs in lockstep with the list's (a hidden item) */
    for (int i = 0; i < nord; i++) {
        const attu_ast_order_item *oi = &q->order_by.items[i];
        ord[i].desc = oi->desc;
        ord[i].nulls_first = oi->nulls == ATTU_NULLS_DEFAULT ? oi->desc : oi->nulls == ATTU_NULLS_FIRST;
        ord_out[i] = -1;
        const attu_ast_expr *oe = oi->expr;
        if (nonint_const(c, oe, "ORDER BY")) return NULL;
        if (oe->kind == ATTU_EXPR_LITERAL && oe->u.literal.kind == ATTU_LIT_INTEGER) {
            long k = strtol(oe->u.literal.text, NULL, 10);
            if (k < 1 || k > n) { attu_error_set(c->err, "42P10", oe->position, "ORDER BY position %ld is not in select list", k); return NULL; }
            ord_out[i] = (int)k - 1;
            continue;
        }
        if (oe->kind == ATTU_EXPR_COLUMN && !oe->u.column.qualifier) {
            int hit = -1, hits = 0;
            for (int k = 0; k < n; k++) if (!strcmp(names[k], oe->u.column.name)) { if (hit < 0) hit = k; hits++; }
            if (hits > 1) {
                bool same = true;
                for (int k = 0; k < n; k++) if (!strcmp(names[k], oe->u.column.name) && !same_output(items[k], items[hit])) same = false;
                if (!same) { attu_error_set(c->err, ATTU_SQLSTATE_AMBIGUOUS_COLUMN, oe->position, "ORDER BY \"%s\" is ambiguous", oe->u.column.name); return NULL; }
            }
            if (hit >= 0) { ord_out[i] = hit; continue; }
        }
        attu_bexpr *b = bind_expr(c, &sc, oe);
        if (!b || !(b = resolve_unknown(c, b))) return NULL;
        if (!attu_check_srf_placement(c, &b, 1)) return NULL;
        ord[i].expr = b;
    }
    for (int i = 0; i < nord; i++) {
        /* json and json[] have no order: PostgreSQL names the sort's
         * missing operator where the item is */
        attu_type ot = ord_out[i] >= 0 ? items[ord_out[i]]->type : ord[i].expr->type;
        if (attu_type_is_json(ot) || attu_type_is_jsonpath(ot) ||
            (attu_type_is_array(ot) && attu_type_is_json(attu_type_array_elem(ot)))) {
            char b1[64];
            attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, q->order_by.items[i].expr->position,
                           "could not identify an ordering operator for type %s", tname(ot, b1));
            attu_error_set_hint(c->err, "Use an explicit ordering operator or modify the query.");
            return NULL;
        }
    }
    c->allow_srf = false;
    bool *ord_dep = NULL;   /* a row's item keys (expand_row_keys) */
    if (!s->distinct_on.n &&
        !expand_row_keys(c, items, n, s->distinct, &ord, &ord_out, &nord, &ord_dep))
        return NULL;
    /* a derived table's row values: their items too, after the list, for
     * the enclosing query (row_value.c); not under DISTINCT, whose
     * duplicates are told by the list */
    if (c->carry_query == written && !s->distinct && !attu_row_value_carry(c, &items, &names, &n, &cap, n)) return NULL;
    /* DISTINCT ON (keys): keep the first row of each key group in ORDER BY
     * order, as row_number() OVER (PARTITION BY keys ORDER BY ...) = 1 */
    int rn_item = -1;
    if (s->distinct_on.n) {
        /* that window would run below the set-returning functions, which
         * PostgreSQL expands first */
        bool srf = false;
        for (int i = 0; i < n; i++) srf |= attu_bx_has_srf(items[i]);
        for (int i = 0; i < nord; i++) srf |= ord[i].expr && attu_bx_has_srf(ord[i].expr);
        if (srf) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, q->position,
                           "SELECT DISTINCT ON with a set-returning function in the select list or ORDER BY is not supported");
            return NULL;
        }
    }
    bool plain_distinct = s->distinct && !s->distinct_on.n;
    if (s->distinct_on.n) {
        attu_bexpr *w = attu_bx_new(c->pa, BX_WINDOW, attu_type_make(ATTU_TYPE_INT64), q->position);
        if (!w) OOM_NULL(c);
        w->agg = WIN_ROW_NUMBER;
        w->npart = s->distinct_on.n;
        w->part = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(w->npart + 1));
        c->clause = "DISTINCT ON"; c->allow_window = false;
        for (int i = 0; i < w->npart; i++) {
            const attu_ast_expr *de = s->distinct_on.items[i];
            attu_bexpr *k = NULL;
            if (nonint_const(c, de, "DISTINCT ON")) return NULL;
            if (de->kind == ATTU_EXPR_LITERAL && de->u.literal.kind == ATTU_LIT_INTEGER) {
                long kk = strtol(de->u.literal.text, NULL, 10);
                if (kk < 1 || kk > n) { attu_error_set(c->err, "42P10", de->position, "SELECT DISTINCT ON position %ld is not in select list", kk); return NULL; }
                k = items[kk - 1];
            } else {
                /* a bare name is an output column's first, as ORDER BY's */
                if (de->kind == ATTU_EXPR_COLUMN && !de->u.column.qualifier) {
                    for (int o = 0; o < n; o++) {
                        if (strcmp(names[o], de->u.column.name)) continue;
                        if (k && !same_output(k, items[o])) {
                            attu_error_set(c->err, ATTU_SQLSTATE_AMBIGUOUS_COLUMN, de->position, "DISTINCT ON \"%s\" is ambiguous", de->u.column.name);
                            return NULL;
                        }
                        k = items[o];
                    }
                }
                if (!k && (!(k = bind_expr(c, &sc, de)) || !(k = resolve_unknown(c, k)))) return NULL;
            }
            w->part[i] = k;
        }
        /* PostgreSQL takes the ORDER BY items among the keys first, in
         * order: a key after an item that is not one, or a key missing from
         * an ORDER BY that has such an item, is 42P10 */
        bool skipped = false;
        for (int i = 0; i < nord; i++) {
            const attu_bexpr *oe = ord_out[i] >= 0 ? items[ord_out[i]] : ord[i].expr;
            bool key = false;
            for (int k = 0; k < w->npart && !key; k++) key = attu_bx_equal(oe, w->part[k]);
            if (!key) { skipped = true; break; }
        }
        bool bad = false;
        if (skipped) {
            for (int k = 0; k < w->npart && !bad; k++) {
                int at = -1;
                for (int i = 0; i < nord && at < 0; i++)
                    if (attu_bx_equal(ord_out[i] >= 0 ? items[ord_out[i]] : ord[i].expr, w->part[k])) at = i;
                /* every key must come before the first item that is not one */
                for (int i = 0; i < at && !bad; i++) {
                    const attu_bexpr *oe = ord_out[i] >= 0 ? items[ord_out[i]] : ord[i].expr;
                    bool key = false;
                    for (int kk = 0; kk < w->npart && !key; kk++) key = attu_bx_equal(oe, w->part[kk]);
                    if (!key) bad = true;
                }
                if (at < 0) bad = true;
            }
        }
        if (bad) {
            attu_error_set(c->err, "42P10", s->distinct_on.items[0]->position,
                           "SELECT DISTINCT ON expressions must match initial ORDER BY expressions");
            return NULL;
        }
        /* the rows among the ORDER BY items order by their items (after
         * the check above, which matches them to the keys as written) */
        if (!expand_row_keys(c, items, n, false, &ord, &ord_out, &nord, &ord_dep)) return NULL;
        w->norder = nord;
        w->order = attu_palloc(c->pa, sizeof(attu_sort_item) * (size_t)(nord + 1));
        for (int i = 0; i < nord; i++) {
            w->order[i] = ord[i];
            w->order[i].expr = ord_out[i] >= 0 ? items[ord_out[i]] : ord[i].expr;
        }
        /* a bpchar without a length is one key, and sorts, without its
         * trailing blanks (bpchar_key); matched to the ORDER BY above as
         * written */
        for (int i = 0; i < w->npart; i++) if (!(w->part[i] = bpchar_key(c, w->part[i]))) OOM_NULL(c);
        for (int i = 0; i < nord; i++) if (!(w->order[i].expr = bpchar_key(c, w->order[i].expr))) OOM_NULL(c);
        if (n + 1 >= cap) {
            cap = n + 2;
            attu_bexpr **ni = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)cap);
            char **nn = attu_palloc(c->pa, sizeof(char *) * (size_t)cap);
            memcpy(ni, items, sizeof(attu_bexpr *) * (size_t)n); memcpy(nn, names, sizeof(char *) * (size_t)n);
            items = ni; names = nn;
        }
        items[n] = w;
        names[n] = "?distinct?";
        rn_item = n++;
    }
    /* SELECT DISTINCT with a bpchar without a length among its items: the
     * DISTINCT node compares values as kept, trailing blanks included, so
     * such a list keeps one row per key as DISTINCT ON (every item) does,
     * its bpchar items keyed without their blanks (bpchar_key), showing a
     * value of each key as PostgreSQL. Not with a set-returning function
     * or a window function in the list (they run above that window): those
     * keep the DISTINCT node, keyed (below). */
    /* So does a list with a row whose text tells equal items apart
     * ((1.0) and (1.00)): keyed by its items (row_value.c). */
    bool bp_distinct = false;
    if (plain_distinct) {
        bool bp = false, other = false;
        for (int i = 0; i < n; i++) {
            bp |= keyed_by_value(items[i]->type) || attu_row_value_distinct_by_items(c, items[i]);
            other |= attu_bx_has_srf(items[i]) || has_kind(items[i], BX_WINDOW);
        }
        bp_distinct = bp && !other;
    }
    if (bp_distinct) {
        attu_bexpr *w = attu_bx_new(c->pa, BX_WINDOW, attu_type_make(ATTU_TYPE_INT64), q->position);
        if (!w) OOM_NULL(c);
        w->agg = WIN_ROW_NUMBER;
        int nkeys = 0;
        for (int i = 0; i < n; i++)
            nkeys += attu_row_value_distinct_by_items(c, items[i]) ? attu_row_value_keys(c, items[i], NULL) : 1;
        w->npart = nkeys;
        w->part = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(nkeys + 1));
        w->order = attu_palloc(c->pa, sizeof(attu_sort_item));
        if (!w->part || !w->order) OOM_NULL(c);
        for (int i = 0, m = 0; i < n; i++) {
            if (!attu_row_value_distinct_by_items(c, items[i])) { w->part[m++] = items[i]; continue; }
            int k = attu_row_value_keys(c, items[i], w->part + m);
            /* copies: the items are the row's too, and passes below
             * renumber a tree's columns in place */
            for (int j = m; j < m + k; j++) if (!(w->part[j] = copy_shift(c, w->part[j], 0))) OOM_NULL(c);
            m += k;
        }
        for (int i = 0; i < nkeys; i++) if (!(w->part[i] = bpchar_key(c, w->part[i]))) OOM_NULL(c);
        if (n + 1 >= cap) {
            cap = n + nord + 2;
            attu_bexpr **ni = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)cap);
            char **nn = attu_palloc(c->pa, sizeof(char *) * (size_t)cap);
            if (!ni || !nn) OOM_NULL(c);
            memcpy(ni, items, sizeof(attu_bexpr *) * (size_t)n); memcpy(nn, names, sizeof(char *) * (size_t)n);
            items = ni; names = nn;
        }
        items[n] = w;
        names[n] = "?distinct?";
        rn_item = n++;
    }
    /* the correlated subqueries: those whose parameters read this query's
     * aggregates run over the groups (after the AGG node), the others over
     * the FROM rows; under aggregation, those whose parameters read only
     * queries further out too (see defer_outer_only) */
    {
        bool aggregates = st.ngroups > 0 || having || s->group_empty || s->group_sets;
        for (int i = 0; i < n && !aggregates; i++) aggregates = has_kind(items[i], BX_AGG);
        for (int i = 0; i < nord && !aggregates; i++) aggregates = ord[i].expr && has_kind(ord[i].expr, BX_AGG);
        if (aggregates) defer_outer_only(c, &sc, &st, items, n, having, ord, nord);
    }
    int npost = 0;
    for (int i = 0; i < c->npending; i++) npost += c->pending[i].post_agg;
    if (c->npending && !(p = npost ? apply_pending_pre_agg(c, p) : apply_pending(c, p))) return NULL;
    /* aggregation */
    bool any_agg = st.ngroups > 0 || having || npost || s->group_empty || s->group_sets;
    for (int i = 0; i < n && !any_agg; i++) any_agg = has_kind(items[i], BX_AGG);
    for (int i = 0; i < nord && !any_agg; i++) any_agg = ord[i].expr && has_kind(ord[i].expr, BX_AGG);
    if (!any_agg) {
        /* windows may still contain aggregates only under GROUP BY; nothing to do */
    } else {
        for (int i = 0; i < n; i++) if (!(items[i] = agg_rewrite(c, &st, items[i]))) return NULL;
        if (having && !(having = agg_rewrite(c, &st, having))) return NULL;
        for (int i = 0; i < nord; i++) if (ord[i].expr && !(ord[i].expr = agg_rewrite(c, &st, ord[i].expr))) return NULL;
        /* the post-aggregation subqueries' parameters: over the groups too */
        st.subquery_keys = true;
        for (int i = 0; i < c->npending; i++)
            for (int k = 0; k < c->pending[i].nkeys; k++)
                if (!(c->pending[i].outer_keys[k] = agg_rewrite(c, &st, c->pending[i].outer_keys[k]))) return NULL;
        st.subquery_keys = false;
        int ng = st.ngroups;
        /* their values follow the AGG node's groups and aggregates */
        for (int i = 0; i < n; i++) fix_refs(items[i], POST_REF_BASE, AGG_REF_BASE + st.naggs);
        fix_refs(having, POST_REF_BASE, AGG_REF_BASE + st.naggs);
        for (int i = 0; i < nord; i++) fix_refs(ord[i].expr, POST_REF_BASE, AGG_REF_BASE + st.naggs);
        for (int i = 0; i < n; i++) fix_refs(items[i], AGG_REF_BASE, ng);
        fix_refs(having, AGG_REF_BASE, ng);
        for (int i = 0; i < nord; i++) fix_refs(ord[i].expr, AGG_REF_BASE, ng);
        for (int i = 0; i < c->npending; i++)
            for (int k = 0; k < c->pending[i].nkeys; k++) fix_refs(c->pending[i].outer_keys[k], AGG_REF_BASE, ng);
        attu_lplan *a = attu_lp_new(c->pa, LP_AGG, ng + st.naggs);
        if (!a) OOM_NULL(c);
        a->left = p;
        a->ngroups = ng; a->groups = st.groups;
        a->naggs = st.naggs; a->aggs = st.aggs;
        for (int i = 0; i < ng; i++) {
            a->types[i] = st.groups[i]->type;
            a->names[i] = st.groups[i]->kind == BX_COL ? (char *)sc.cols[st.groups[i]->col].name : "?column?";
            if (st.groups[i]->kind == BX_COL && st.groups[i]->col == p->rowid_col) a->rowid_col = i;
        }
        for (int i = 0; i < st.naggs; i++) { a->types[ng + i] = st.aggs[i].type; a->names[ng + i] = "agg"; }
        a->est_rows = ng ? (p->est_rows > 100 ? p->est_rows / 10 : p->est_rows) : 1;
        p = a;
        if ((st.partial || st.nsets != 1 || st.ngcalls) && !(p = grouping_sets_plan(c, &st, a))) return NULL;
        if (c->npending && !(p = apply_pending(c, p))) return NULL;   /* the post-aggregation ones */
        if (having) {
            attu_lplan *f = attu_lp_new(c->pa, LP_FILTER, p->ncols);
            if (!f) OOM_NULL(c);
            memcpy(f->types, p->types, sizeof(attu_type) * (size_t)p->ncols);
            memcpy(f->names, p->names, sizeof(char *) * (size_t)p->ncols);
            f->left = p; f->pred = having; f->est_rows = p->est_rows / 3; f->rowid_col = p->rowid_col;
            p = f;
        }
    }
    /* windows */
    winstate ws = { 0 };
    for (int i = 0; i < n; i++) items[i] = win_rewrite(c, &ws, items[i]);
    for (int i = 0; i < nord; i++) if (ord[i].expr) ord[i].expr = win_rewrite(c, &ws, ord[i].expr);
    if (c->err->set) return NULL;
    if (ws.n) {
        int nin = p->ncols;
        for (int i = 0; i < n; i++) fix_refs(items[i], AGG_REF_BASE, nin);
        for (int i = 0; i < nord; i++) fix_refs(ord[i].expr, AGG_REF_BASE, nin);
        attu_lplan *w = attu_lp_new(c->pa, LP_WINDOW, nin + ws.n);
        if (!w) OOM_NULL(c);
        w->left = p;
        memcpy(w->types, p->types, sizeof(attu_type) * (size_t)nin);
        memcpy(w->names, p->names, sizeof(char *) * (size_t)nin);
        for (int i = 0; i < ws.n; i++) { w->types[nin + i] = ws.specs[i].type; w->names[nin + i] = "window"; }
        w->naggs = ws.n; w->aggs = ws.specs;
        w->est_rows = p->est_rows; w->rowid_col = p->rowid_col;
        p = w;
    }
    /* projection with hidden sort columns */
    int nvis = rn_item >= 0 ? rn_item : n;
    for (int i = 0; i < nord; i++) {
        if (ord_out[i] >= 0) continue;
        /* (ORDER BY random() sorts by the select list's random(), as
         * PostgreSQL matches the two) */
        for (int k = 0; k < n; k++) if (attu_bx_equal_written(items[k], ord[i].expr)) { ord_out[i] = k; break; }
        if (ord_out[i] >= 0) continue;
        if (plain_distinct && !(ord_dep && ord_dep[i])) {
            /* (the keys are the written ones unless a row's were spread) */
            int at = ord_dep ? ord[i].expr->position : q->order_by.items[i].position;
            attu_error_set(c->err, "42P10", at, "for SELECT DISTINCT, ORDER BY expressions must appear in select list");
            return NULL;
        }
        if (n + 1 >= cap) {
            cap = n + nord + 2;
            attu_bexpr **ni = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)cap);
            char **nn = attu_palloc(c->pa, sizeof(char *) * (size_t)cap);
            memcpy(ni, items, sizeof(attu_bexpr *) * (size_t)n); memcpy(nn, names, sizeof(char *) * (size_t)n);
            items = ni; names = nn;
        }
        items[n] = ord[i].expr;
        names[n] = "?sort?";
        ord_out[i] = n++;
    }
    /* set-returning functions of the list run below the projection, over
     * its input rows (PostgreSQL's ProjectSet) */
    if (!(p = attu_extract_srfs(c, p, items, n))) return NULL;
    p = mk_project(c, p, n, items, names);
    if (!p) return NULL;
    if (rn_item >= 0) {
        attu_bexpr *one = mk_const_int(c, attu_type_make(ATTU_TYPE_INT64), 1);
        attu_bexpr *eq = mk_call(c, ATTU_OP_EQ_I, attu_type_make(ATTU_TYPE_BOOL), q->position, 2,
                                 attu_bx_col(c->pa, rn_item, attu_type_make(ATTU_TYPE_INT64)), one, NULL, NULL);
        attu_lplan *f = attu_lp_new(c->pa, LP_FILTER, p->ncols);
        if (!f || !eq) OOM_NULL(c);
        memcpy(f->types, p->types, sizeof(attu_type) * (size_t)p->ncols);
        memcpy(f->names, p->names, sizeof(char *) * (size_t)p->ncols);
        f->left = p; f->pred = eq; f->est_rows = p->est_rows / 2; f->rowid_col = p->rowid_col;
        p = f;
    }
    if (plain_distinct && !bp_distinct) {
        /* a list with a set-returning or window function and a bpchar
         * without a length: the DISTINCT node keyed (keyed_arm) */
        int nk = p->ncols, nb = bpchar_keyed_count(p->types, nk);
        attu_type *ts = p->types;
        char **nm = p->names;
        if (nb && !(p = keyed_arm(c, p, ts, nk, nb))) return NULL;
        attu_lplan *d = attu_lp_new(c->pa, LP_DISTINCT, p->ncols);
        if (!d) OOM_NULL(c);
        memcpy(d->types, p->types, sizeof(attu_type) * (size_t)p->ncols);
        memcpy(d->names, p->names, sizeof(char *) * (size_t)p->ncols);
        d->left = p; d->est_rows = p->est_rows / 2;
        d->setop_ncmp = nb ? nk : 0;
        p = d;
        if (nb && !(p = keyed_values(c, p, ts, nk, nm))) return NULL;
    }
    if (nord) {
        attu_lplan *so = attu_lp_new(c->pa, LP_SORT, p->ncols);
        if (!so) OOM_NULL(c);
        memcpy(so->types, p->types, sizeof(attu_type) * (size_t)p->ncols);
        memcpy(so->names, p->names, sizeof(char *) * (size_t)p->ncols);
        so->left = p; so->est_rows = p->est_rows; so->rowid_col = p->rowid_col;
        so->nsort = nord;
        so->sort = attu_palloc(c->pa, sizeof(attu_sort_item) * (size_t)nord);
        for (int i = 0; i < nord; i++) {
            so->sort[i] = ord[i];
            if (!(so->sort[i].expr = sort_key_col(c, ord_out[i], p->types[ord_out[i]]))) OOM_NULL(c);
        }
        p = so;
    }
    if (q->limit || q->offset) {
        attu_lplan *l = attu_lp_new(c->pa, LP_LIMIT, p->ncols);
        if (!l) OOM_NULL(c);
        memcpy(l->types, p->types, sizeof(attu_type) * (size_t)p->ncols);
        memcpy(l->names, p->names, sizeof(char *) * (size_t)p->ncols);
        l->left = p;
        if (!limit_with_ties(c, q, l, p) || !limit_counts(c, &sc, q, l)) return NULL;
        l->est_rows = l->limit >= 0 && (double)l->limit < p->est_rows ? (double)l->limit : p->est_rows;
        l->rowid_col = p->rowid_col;
        p = l;
    }
    if (n != nvis) {
        attu_bexpr **vis = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)nvis);
        for (int i = 0; i < nvis; i++) vis[i] = attu_bx_col(c->pa, i, p->types[i]);
        p = mk_project(c, p, nvis, vis, names);
    }
    return p;
}

/* ORDER BY / LIMIT over VALUES and set operations: output names or ordinals. */
static attu_lplan *bind_tail(bctx *c, const attu_ast_query *q, attu_lplan *p) {
    if (q->order_by.n) {
        attu_lplan *so = attu_lp_new(c->pa, LP_SORT, p->ncols);
        if (!so) OOM_NULL(c);
        memcpy(so->types, p->types, sizeof(attu_type) * (size_t)p->ncols);
        memcpy(so->names, p->names, sizeof(char *) * (size_t)p->ncols);
        so->left = p; so->est_rows = p->est_rows;
        so->nsort = q->order_by.n;
        so->sort = attu_palloc(c->pa, sizeof(attu_sort_item) * (size_t)so->nsort);
        for (int i = 0; i < so->nsort; i++) {
            const attu_ast_order_item *oi = &q->order_by.items[i];
            int k = -1;
            if (nonint_const(c, oi->expr, "ORDER BY")) return NULL;
            if (oi->expr->kind == ATTU_EXPR_LITERAL && oi->expr->u.literal.kind == ATTU_LIT_INTEGER) {
                k = (int)strtol(oi->expr->u.literal.text, NULL, 10) - 1;
                if (k < 0 || k >= p->ncols) { attu_error_set(c->err, "42P10", oi->expr->position, "ORDER BY position %d is not in select list", k + 1); return NULL; }
            } else if (oi->expr->kind == ATTU_EXPR_COLUMN && !oi->expr->u.column.qualifier) {
                for (int j = 0; j < p->ncols; j++) if (!strcmp(p->names[j], oi->expr->u.column.name)) { k = j; break; }
            }
            if (k < 0) {
                attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, oi->expr->position,
                               "invalid UNION/INTERSECT/EXCEPT ORDER BY clause");
                memcpy(c->err->sqlstate, "0A000", 6);
                return NULL;
            }
            if (!(so->sort[i].expr = sort_key_col(c, k, p->types[k]))) OOM_NULL(c);
            so->sort[i].desc = oi->desc;
            so->sort[i].nulls_first = oi->nulls == ATTU_NULLS_DEFAULT ? oi->desc : oi->nulls == ATTU_NULLS_FIRST;
        }
        p = so;
    }
    if (q->limit || q->offset) {
        attu_lplan *l = attu_lp_new(c->pa, LP_LIMIT, p->ncols);
        if (!l) OOM_NULL(c);
        memcpy(l->types, p->types, sizeof(attu_type) * (size_t)p->ncols);
        memcpy(l->names, p->names, sizeof(char *) * (size_t)p->ncols);
        l->left = p;
        scope none = { 0, NULL, 0 };    /* no FROM of its own: the outer row only */
        if (!limit_with_ties(c, q, l, p) || !limit_counts(c, &none, q, l)) return NULL;
        l->est_rows = p->est_rows;
        p = l;
    }
    return p;
}

/* p's columns as types; a column whose untyped[i] is set was an untyped
 * literal (bound as text) and converts as the literal would, as a cast */
static attu_lplan *coerce_plan_x(bctx *c, attu_lplan *p, const attu_type *types, const bool *untyped) {
    bool same = true;
    for (int i = 0; i < p->ncols; i++) if (!attu_type_equal(p->types[i], types[i])) same = false;
    if (same) return p;
    attu_bexpr **ex = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)p->ncols);
    for (int i = 0; i < p->ncols; i++) {
        ex[i] = coerce(c, attu_bx_col(c->pa, i, p->types[i]), types[i], untyped && untyped[i], 0);
        if (!ex[i]) return NULL;
    }
    return mk_project(c, p, p->ncols, ex, p->names);
}

static attu_lplan *coerce_plan(bctx *c, attu_lplan *p, const attu_type *types) {
    return coerce_plan_x(c, p, types, NULL);
}

/* Whether output column col of a set operation's arm q is an untyped
 * literal ('2', NULL) of a plain SELECT: PostgreSQL leaves it unknown
 * until the arms meet, so it takes the other arm's type (SELECT 1 UNION
 * SELECT '2' is integers). A SELECT that sorts, groups or removes
 * duplicates makes it text first (here: any such SELECT), as does a
 * nested set operation or VALUES. */
static bool arm_plain(const attu_ast_query *q, int col) {
    if (q->kind != ATTU_QUERY_SELECT || q->u.select.distinct || q->u.select.distinct_on.n || q->u.select.group_by.n ||
        q->u.select.group_empty || q->order_by.n || col >= q->u.select.nitems)
        return false;
    for (int i = 0; i <= col; i++) if (q->u.select.items[i].expr->kind == ATTU_EXPR_STAR) return false;
    return true;
}

/* Where arm q's column col is written (its select-list expression's
 * position; 0 where the arm is no plain SELECT): PostgreSQL points there
 * for a set operation's type mismatch. */
static int arm_position(const attu_ast_query *q, int col) {
    if (!arm_plain(q, col)) return 0;
    /* the leftmost of the expression, as PostgreSQL's exprLocation: a
     * cast's argument, an operator's left operand */
    const attu_ast_expr *e = q->u.select.items[col].expr;
    int pos = e->position;
    for (;;) {
        const attu_ast_expr *in = e->kind == ATTU_EXPR_CAST ? e->u.cast.arg
                                : e->kind == ATTU_EXPR_BINARY ? e->u.binary.left : NULL;
        if (!in) break;
        if (in->position && (!pos || in->position < pos)) pos = in->position;
        e = in;
    }
    return pos;
}

/* The parameter number of arm q's column col when it is a bare parameter
 * that no use has typed (0: none). */
static int arm_param(const bctx *c, const attu_ast_query *q, int col) {
    if (!arm_plain(q, col)) return 0;
    const attu_ast_expr *e = q->u.select.items[col].expr;
    const attu_bind_params *bp = c->params;
    int n = e->kind == ATTU_EXPR_PARAM ? e->u.param.number : 0;
    if (n < 1 || !bp || n > bp->n || (bp->types && bp->types[n - 1].id != ATTU_TYPE_UNKNOWN)) return 0;
    return !bp->inferred || bp->inferred[n - 1].id == ATTU_TYPE_UNKNOWN ? n : 0;
}

/* ... and an undeclared parameter as such a column is unknown there too,
 * (SELECT $1 UNION SELECT 1 makes $1 an integer) */
static bool arm_untyped(const bctx *c, const attu_ast_query *q, int col) {
    if (!arm_plain(q, col)) return false;
    const attu_ast_expr *e = q->u.select.items[col].expr;
    return (e->kind == ATTU_EXPR_LITERAL && (e->u.literal.kind == ATTU_LIT_STRING || e->u.literal.kind == ATTU_LIT_NULL)) ||
           arm_param(c, q, col) > 0;
}

/* Types the parameter that arm q's column col is (if it is one) as t. */
static void arm_param_typed(bctx *c, const attu_ast_query *q, int col, attu_type t) {
    int n = arm_param(c, q, col);
    if (n > 0 && c->params->inferred) c->params->inferred[n - 1] = attu_type_param_plain(t);
}

static bool values_read_outer(const attu_lplan *p) {
    for (int i = 0; i < p->nrows * p->ncols; i++) if (outer_sides(p->values[i]) & 2) return true;
    return false;
}

/* VALUES whose rows read the enclosing query (a VALUES list in a
 * correlated subquery: (VALUES (a.x), (a.y)) t(v)). The executor runs a
 * VALUES stage's rows as programs without inputs, so such a list becomes
 * VALUES (1), (2), ... (n) and a projection picking row r's expressions
 * by CASE on the number: every expression is evaluated in its own row
 * only, as PostgreSQL evaluates each row's, and the outer references
 * become the projection's parameters (decorrelate_param). */
static attu_lplan *values_over_outer(bctx *c, attu_lplan *v) {
    attu_type t8 = attu_type_make(ATTU_TYPE_INT64), tb = attu_type_make(ATTU_TYPE_BOOL);
    attu_lplan *num = attu_lp_new(c->pa, LP_VALUES, 1);
    attu_bexpr **ex = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(v->ncols + 1));
    if (!num || !ex || !(num->values = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)v->nrows))) OOM_NULL(c);
    num->nrows = v->nrows;
    num->est_rows = v->nrows;
    set_col(num, 0, "?row?", t8, c->pa);
    for (int r = 0; r < v->nrows; r++)
        if (!(num->values[r] = mk_const_int(c, t8, r + 1))) OOM_NULL(c);
    for (int k = 0; k < v->ncols; k++) {
        attu_bexpr *x = attu_bx_new(c->pa, BX_CASE, v->types[k], 0);
        if (!x || !(x->whens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)v->nrows)) ||
            !(x->thens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)v->nrows))) OOM_NULL(c);
        x->nwhens = v->nrows;
        for (int r = 0; r < v->nrows; r++) {
            x->whens[r] = mk_call(c, ATTU_OP_EQ_I, tb, 0, 2, attu_bx_col(c->pa, 0, t8), mk_const_int(c, t8, r + 1), NULL, NULL);
            x->thens[r] = v->values[r * v->ncols + k];
            if (!x->whens[r]) OOM_NULL(c);
        }
        if (!(x->else_ = mk_const_null(c, v->types[k]))) OOM_NULL(c);
        ex[k] = x;
    }
    attu_lplan *p = mk_project(c, num, v->ncols, ex, v->names);
    if (p) p->est_rows = v->nrows;
    return p;
}

static attu_lplan *bind_values(bctx *c, const attu_ast_query *q) {
    int nrows = q->u.values.nrows, ncols = q->u.values.rows[0].n;
    const attu_type *hint = c->values_hint && c->nvalues_hint == ncols ? c->values_hint : NULL;
    c->values_hint = NULL;
    attu_lplan *p = attu_lp_new(c->pa, LP_VALUES, ncols);
    if (!p) OOM_NULL(c);
    p->nrows = nrows;
    p->values = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)nrows * (size_t)(ncols ? ncols : 1));
    scope none = { 0, NULL, 0 };
    c->clause = "VALUES"; c->allow_agg = false; c->allow_window = false;
    for (int r = 0; r < nrows; r++) {
        if (q->u.values.rows[r].n != ncols) {
            attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, q->u.values.rows[r].n ? q->u.values.rows[r].items[0]->position : q->position,
                           "VALUES lists must all be the same length");
            return NULL;
        }
        for (int k = 0; k < ncols; k++)
            if (!(p->values[r * ncols + k] = bind_expr(c, &none, q->u.values.rows[r].items[k]))) return NULL;
    }
    for (int k = 0; k < ncols; k++) {
        attu_type t = attu_type_make(ATTU_TYPE_UNKNOWN);
        if (hint) {
            for (int r = 0; r < nrows; r++) {
                attu_bexpr *v = p->values[r * ncols + k];
                if (!(p->values[r * ncols + k] = attu_bind_coerce_assign(c->pa, v, hint[k], c->values_hint_names ? c->values_hint_names[k] : "?", c->err))) {
                    if (v->position) c->err->position = v->position;
                    return NULL;
                }
            }
            char nm[32];
            snprintf(nm, sizeof nm, "column%d", k + 1);
            set_col(p, k, nm, hint[k], c->pa);
            continue;
        }
        for (int r = 0; r < nrows; r++) {
            attu_bexpr *v = p->values[r * ncols + k];
            attu_type nt;
            if (!mix_type(t, v->type, &nt)) return mix_type_error(c, "VALUES", t, v->type, v->position);
            if (v->type.id != ATTU_TYPE_UNKNOWN || t.id != ATTU_TYPE_UNKNOWN) t = nt;
        }
        if (t.id == ATTU_TYPE_UNKNOWN) t = attu_type_make(ATTU_TYPE_TEXT);
        for (int r = 0; r < nrows; r++) t = mix_numeric_literal(mix_bpchar_literal(t, p->values[r * ncols + k]), p->values[r * ncols + k]);
        for (int r = 0; r < nrows; r++) t = mix_decimal_typmod(mix_varchar_length(t, p->values[r * ncols + k]), p->values[r * ncols + k]);
        for (int r = 0; r < nrows; r++)
            if (!(p->values[r * ncols + k] = coerce(c, p->values[r * ncols + k], t, false, p->values[r * ncols + k]->position))) return NULL;
        char nm[32];
        snprintf(nm, sizeof nm, "column%d", k + 1);
        set_col(p, k, nm, t, c->pa);
    }
    p->est_rows = nrows;
    if (!hint && values_read_outer(p) && !(p = values_over_outer(c, p))) return NULL;
    return bind_tail(c, q, p);
}

/* A CTE of WITH RECURSIVE. One of the form "non-recursive UNION [ALL]
 * recursive" whose right side reads the CTE becomes LP_RECURSIVE (right
 * side bound with the CTE as a work table of the left side's columns, its
 * types cast to those, as PostgreSQL requires); any other is an ordinary
 * CTE, where a reference to itself is an error (42P19). */
static attu_lplan *bind_recursive_cte(bctx *c, cte_def *d) {
    const attu_ast_query *q = d->cte->query;
    if (q->kind != ATTU_QUERY_SETOP || q->u.setop.op != ATTU_SETOP_UNION) {
        d->state = 3;
        attu_lplan *p = bind_query(c, q);
        d->state = 0;
        return p;
    }
    d->state = 1;
    attu_lplan *l = bind_query(c, q->u.setop.left);
    d->state = 0;
    if (!l) return NULL;
    /* numeric without a typmod held as a DECIMAL (engine/types.h
     * attu_type_is_free_decimal) is PostgreSQL's numeric like the wide
     * NUMERIC that the recursive term's arithmetic on it gives (n * 2,
     * a + b): the column is that NUMERIC from the start, so both terms
     * agree (SELECT 1.5 UNION ALL SELECT n * 2 FROM t was 42804) */
    attu_type *wide = NULL;
    for (int i = 0; i < l->ncols; i++) {
        if (!attu_type_is_free_decimal(l->types[i])) continue;
        if (!wide) {
            if (!(wide = attu_palloc(c->pa, sizeof(attu_type) * (size_t)l->ncols))) OOM_NULL(c);
            memcpy(wide, l->types, sizeof(attu_type) * (size_t)l->ncols);
        }
        wide[i] = attu_type_make(ATTU_TYPE_NUMERIC);
    }
    if (wide && !(l = coerce_plan(c, l, wide))) return NULL;
    d->work_ncols = l->ncols;
    d->work_types = l->types;
    d->work_names = attu_palloc(c->pa, sizeof(char *) * (size_t)(l->ncols + 1));
    if (!d->work_names) OOM_NULL(c);
    for (int i = 0; i < l->ncols; i++) d->work_names[i] = i < d->cte->columns.n ? d->cte->columns.items[i] : l->names[i];
    d->worktable = ++c->next_worktable;
    d->work_depth = c->sublink_depth;
    d->referenced = false;
    d->state = 2;
    attu_lplan *r = bind_query(c, q->u.setop.right);
    d->state = 0;
    if (!r) return NULL;
    if (!d->referenced) {
        /* not recursive after all: an ordinary UNION (bound again whole) */
        d->state = 1;
        attu_lplan *p = bind_query(c, q);
        d->state = 0;
        return p;
    }
    if (q->order_by.n || q->limit || q->offset) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, q->position, "%s in a recursive query is not implemented",
                       q->order_by.n ? "ORDER BY" : q->limit ? "LIMIT" : "OFFSET");
        return NULL;
    }
    if (l->ncols != r->ncols) {
        attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, q->position, "each UNION query must have the same number of columns");
        return NULL;
    }
    bool cast = false;
    bool *ru = attu_palloc(c->pa, sizeof(bool) * (size_t)(l->ncols + 1));
    if (!ru) OOM_NULL(c);
    for (int i = 0; i < l->ncols; i++) {
        attu_type t;
        /* an untyped literal of the recursive term reads as the column's
         * type, as PostgreSQL coerces it (SELECT 1 UNION ALL SELECT '2'
         * FROM t; 'x' is then 22P02 at the literal) */
        ru[i] = arm_untyped(c, q->u.setop.right, i) && !attu_type_equal(l->types[i], r->types[i]);
        if (ru[i]) { cast = true; continue; }
        if (attu_type_equal(l->types[i], r->types[i])) continue;
        if (!common_type(l->types[i], r->types[i], &t) || !attu_type_equal(t, l->types[i])) {
            char b1[64], b2[64];
            attu_error_set(c->err, ATTU_SQLSTATE_DATATYPE_MISMATCH, q->position,
                           "recursive query \"%s\" column %d has type %s in non-recursive term but type %s overall",
                           d->name, i + 1, tname(l->types[i], b1), tname(common_type(l->types[i], r->types[i], &t) ? t : r->types[i], b2));
            return NULL;
        }
        cast = true;
    }
    if (cast && !(r = coerce_plan_x(c, r, l->types, ru))) return NULL;
    attu_lplan *p = attu_lp_new(c->pa, LP_RECURSIVE, l->ncols);
    if (!p) OOM_NULL(c);
    for (int i = 0; i < l->ncols; i++) { p->types[i] = l->types[i]; p->names[i] = l->names[i]; }
    /* UNION with a bpchar without a length: both terms keyed (keyed_arm),
     * duplicates found by their first ncols columns; the work table and
     * the output are the values (work_cols: where column i's value is) */
    int nb = q->u.setop.all ? 0 : bpchar_keyed_count(p->types, l->ncols);
    if (nb) {
        int n = l->ncols;
        p->setop_ncmp = n;
        if (!(p->work_cols = attu_palloc(c->pa, sizeof(int) * (size_t)n))) OOM_NULL(c);
        for (int i = 0; i < n; i++) p->work_cols[i] = keyed_value_col(p->types, n, i);
        if (!(l = keyed_arm(c, l, p->types, n, nb)) || !(r = keyed_arm(c, r, p->types, n, nb))) return NULL;
    }
    p->left = l; p->right = r; p->all = q->u.setop.all; p->worktable = d->worktable;
    p->est_rows = l->est_rows * 10;
    return p;
}

static attu_lplan *bind_query_body(bctx *c, const attu_ast_query *q);

attu_lplan *bind_query(bctx *c, const attu_ast_query *q) {
    c->query_nest++;
    attu_lplan *p = bind_query_body(c, q);
    c->query_nest--;
    return p;
}

static attu_lplan *bind_query_body(bctx *c, const attu_ast_query *q) {
    if (c->sql_fn_from) {
        /* a set-returning SQL function in FROM (sql_function_bind.c) */
        bool fn_rows;
        attu_lplan *r = attu_sql_function_rows(c, q, &fn_rows);
        if (fn_rows) return r;
    }
    cte_def *save = c->ctes;
    for (int i = 0; i < q->with.n; i++) {
        for (cte_def *d = c->ctes; d != save; d = d->next)
            if (!strcmp(d->name, q->with.items[i].name)) {
                attu_error_set(c->err, "42712", q->with.items[i].position, "WITH query name \"%s\" specified more than once", d->name);
                c->ctes = save;
                return NULL;
            }
        if (q->with.items[i].modify) {
            /* one the statement ran first (db/db_with_modify.c), or one
             * that runs nowhere (only described: one of the statement's
             * own query) */
            attu_with_rows w;
            cte_def probe = { .name = q->with.items[i].name, .cte = &q->with.items[i] };
            int k = c->query_nest > 1 ? 0 : describing(c) ? 1 : with_rows_of(c, &probe, &w);
            if (k < 0) { c->ctes = save; return NULL; }
            if (k == 0) {
                attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, q->with.items[i].position,
                               "WITH clause containing a data-modifying statement must be at the top level");
                c->ctes = save;
                return NULL;
            }
        }
        cte_def *d = attu_palloc(c->pa, sizeof *d);
        if (!d) OOM_NULL(c);
        d->name = q->with.items[i].name; d->cte = &q->with.items[i]; d->next = c->ctes;
        d->recursive = q->with.recursive;
        c->ctes = d;
    }
    attu_lplan *p = NULL;
    bool sa = c->allow_agg, sw = c->allow_window;
    const char *sc = c->clause;
    switch (q->kind) {
    case ATTU_QUERY_SELECT: p = bind_select(c, q); break;
    case ATTU_QUERY_VALUES: p = bind_values(c, q); break;
    case ATTU_QUERY_SETOP: {
        const attu_ast_query *arm = c->setop_arm;
        c->setop_arm = q->u.setop.left;
        attu_lplan *l = bind_query(c, q->u.setop.left);
        c->setop_arm = q->u.setop.right;
        attu_lplan *r = l ? bind_query(c, q->u.setop.right) : NULL;
        c->setop_arm = arm;
        if (!r) break;
        const char *opname = q->u.setop.op == ATTU_SETOP_UNION ? "UNION" : q->u.setop.op == ATTU_SETOP_INTERSECT ? "INTERSECT" : "EXCEPT";
        if (l->ncols != r->ncols) {
            attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, q->position, "each %s query must have the same number of columns", opname);
            break;
        }
        attu_type *ts = attu_palloc(c->pa, sizeof(attu_type) * (size_t)(l->ncols + 1));
        bool *lu = attu_palloc(c->pa, sizeof(bool) * (size_t)(l->ncols + 1));
        bool *ru = attu_palloc(c->pa, sizeof(bool) * (size_t)(l->ncols + 1));
        if (!ts || !lu || !ru) { attu_error_oom(c->err); break; }
        bool bad = false;
        for (int i = 0; i < l->ncols && !bad; i++) {
            lu[i] = arm_untyped(c, q->u.setop.left, i);
            ru[i] = arm_untyped(c, q->u.setop.right, i);
            if (lu[i] && ru[i]) {   /* both text */
                lu[i] = ru[i] = false;
                arm_param_typed(c, q->u.setop.left, i, l->types[i]);
                arm_param_typed(c, q->u.setop.right, i, r->types[i]);
            }
            /* a string literal arm beside char(n) makes bpchar without a
             * length, as in CASE (mix_bpchar_literal) */
            /* and beside varchar(n) varchar without a length, as PostgreSQL
             * keeps a typmod only where both arms have it (varchar_type.c) */
            if (lu[i]) ts[i] = attu_type_is_bpchar(r->types[i]) ? attu_type_bpchar_unbounded() : varchar_without_length(r->types[i]);
            else if (ru[i]) ts[i] = attu_type_is_bpchar(l->types[i]) ? attu_type_bpchar_unbounded() : varchar_without_length(l->types[i]);
            /* a literal arm is read as any interval: the other arm's
             * qualifier goes (binder_expr.c mix_type) */
            if ((lu[i] || ru[i]) && ts[i].id == ATTU_TYPE_INTERVAL) ts[i] = attu_type_make(ATTU_TYPE_INTERVAL);
            if (lu[i]) arm_param_typed(c, q->u.setop.left, i, ts[i]);
            if (ru[i]) arm_param_typed(c, q->u.setop.right, i, ts[i]);
            if (lu[i] || ru[i]) continue;
            if (!mix_type(l->types[i], r->types[i], &ts[i])) {
                int at = arm_position(q->u.setop.right, i);
                mix_type_error(c, opname, l->types[i], r->types[i], at ? at : q->position);
                bad = true;
            }
            ts[i] = mix_varchar_setop(ts[i], l->types[i], r->types[i]);
        }
        if (bad) break;
        l = coerce_plan_x(c, l, ts, lu);
        r = l ? coerce_plan_x(c, r, ts, ru) : NULL;
        if (!r) break;
        int n = l->ncols, nb = 0;
        char **names = l->names;
        /* Duplicate removal (all but UNION ALL) with a bpchar without a
         * length: each arm keyed (keyed_arm), the set operation comparing
         * the first n columns, a projection above showing a member's
         * value in its place (keyed_values) */
        if (!(q->u.setop.op == ATTU_SETOP_UNION && q->u.setop.all)) nb = bpchar_keyed_count(ts, n);
        if (nb) {
            l = keyed_arm(c, l, ts, n, nb);
            r = l ? keyed_arm(c, r, ts, n, nb) : NULL;
            if (!r) break;
        }
        p = attu_lp_new(c->pa, LP_SETOP, n + nb);
        if (!p) { attu_error_oom(c->err); break; }
        p->left = l; p->right = r; p->setop = q->u.setop.op; p->all = q->u.setop.all;
        /* ts, not an unkeyed arm's types: coerce_plan_x keeps an arm whose
         * types equal ts but for the bpchar flag (a literal's text); a
         * keyed arm's projection (above) reads its columns as ts */
        for (int i = 0; i < n + nb; i++) { p->types[i] = nb ? l->types[i] : ts[i]; p->names[i] = l->names[i]; }
        p->est_rows = l->est_rows + r->est_rows;
        if (nb) {
            p->setop_ncmp = n;
            if (!(p = keyed_values(c, p, ts, n, names))) break;
        }
        p = bind_tail(c, q, p);
        break;
    }
    }
    c->allow_agg = sa; c->allow_window = sw; c->clause = sc;
    c->ctes = save;
    return p;
}

attu_lplan *attu_bind_query(attu_plan_arena *pa, attu_catalog *cat, const char *sql,
                            const attu_ast_query *q, const attu_bind_params *params, attu_error *err) {
    bctx c;
    memset(&c, 0, sizeof c);
    int next_param = 0;
    c.pa = pa; c.cat = cat; c.sql = sql; c.err = err; c.params = params;
    c.next_param = &next_param;
    c.clause = "SELECT";
    if (params && params->domains_out) *params->domains_out = NULL;
    if (params && params->insert_types && q->kind == ATTU_QUERY_VALUES) {
        c.values_hint = params->insert_types;
        c.nvalues_hint = params->ninsert;
        c.values_hint_names = params->insert_names;
    }
    attu_lplan *p = bind_query(&c, q);
    if (!p && !err->set) attu_error_oom(err);
    if (p && params && params->domains_out) {
        const select_domains *sd = select_domains_of(&c, q);
        *params->domains_out = sd ? sd->domains : NULL;
        if (params->ndomains_out) *params->ndomains_out = sd ? sd->n : 0;
    }
    return err->set ? NULL : p;
}

attu_bexpr *attu_bind_const_expr(attu_plan_arena *pa, const char *sql, const attu_ast_expr *e,
                                 attu_type want, const attu_bind_params *params, attu_error *err) {
    bctx c;
    memset(&c, 0, sizeof c);
    int next_param = 0;
    c.pa = pa; c.sql = sql; c.err = err; c.params = params; c.clause = "VALUES";
    c.next_param = &next_param;
    scope none = { 0, NULL, 0 };
    attu_bexpr *b = bind_expr(&c, &none, e);
    if (!b) return NULL;
    if (want.id != ATTU_TYPE_UNKNOWN) return coerce(&c, b, want, true, e->position);
    return resolve_unknown(&c, b);
}

attu_bexpr *attu_bind_coerce_assign(attu_plan_arena *pa, attu_bexpr *e, attu_type t,
                                    const char *colname, attu_error *err) {
    bctx c;
    memset(&c, 0, sizeof c);
    c.pa = pa; c.err = err;
    if (t.id == ATTU_TYPE_TEXT && t.precision > 0 && !attu_type_is_array(t)) {
        /* varchar(n) / char(n) column: 22001 when too long (trailing
         * spaces past n are cut, as PostgreSQL) */
        attu_type plain = attu_type_make(ATTU_TYPE_TEXT);
        attu_bexpr *x = attu_bind_coerce_assign(pa, e, plain, colname, err);
        if (!x) return NULL;
        attu_bexpr *lim = mk_call(&c, ATTU_OP_CHAR_LIMIT, t, e->position, 1, x, NULL, NULL, NULL);
        if (lim) { lim->imm = t.precision; lim->aux = t.scale; }
        return lim;
    }
    if (attu_type_is_qualified_interval(t)) {
        /* interval day to second(2) and the like: the value as an
         * interval by the assignment's rules (42804 for text), then to the
         * column's fields; an unknown literal is read by them ('2' in an
         * interval hour column is 2 hours), as PostgreSQL's typmod input */
        attu_bexpr *x = e;
        if (!(e->kind == BX_CONST && (e->type.id == ATTU_TYPE_UNKNOWN || e->type.id == ATTU_TYPE_INTERVAL) &&
              !(e->type.id == ATTU_TYPE_UNKNOWN && e->aux > 0)) &&
            !(x = attu_bind_coerce_assign(pa, e, attu_type_make(ATTU_TYPE_INTERVAL), colname, err)))
            return NULL;
        return bind_interval_qualified(&c, x, attu_type_interval_range(t), attu_type_interval_prec(t), e->position);
    }
    if (attu_type_is_bpchar(e->type) && t.id == ATTU_TYPE_TEXT && !attu_type_is_bpchar_any(t))
        /* char(n) into text: its value as kept, unpadded (engine/types.h),
         * typed text so that nothing shows it padded */
        return mk_call(&c, ATTU_OP_MOVE, t, e->position, 1, e, NULL, NULL, NULL);
    if (attu_type_array_has_mod(t) && (attu_type_is_array(e->type) || e->type.id == ATTU_TYPE_UNKNOWN))
        return attu_array_assign(&c, e, t, e->position);   /* an element modifier rejects, not cuts */
    if (e->type.id == ATTU_TYPE_UNKNOWN || attu_type_equal(e->type, t)) return coerce(&c, e, t, true, e->position);
    if (attu_type_is_array(t) && attu_type_is_array(e->type)) {
        /* an array assigns to another where its elements assign (numbers
         * to numbers, dates and timestamps, anything to text) */
        attu_type fe = attu_type_array_elem(e->type), te = attu_type_array_elem(t);
        /* json, jsonb, uuid, bytea and enum elements take only their own
         * type (json and jsonb each other), as their scalars */
        if (attu_type_is_typed_text(te)) {
            if (attu_type_is_typed_text(fe) &&
                ((fe.scale == te.scale && fe.precision == te.precision) ||   /* (an enum's: the same enum) */
                 (attu_type_is_json_any(fe) && attu_type_is_json_any(te))))
                return attu_array_assign(&c, e, t, e->position);
        } else if (fe.id == te.id || (is_numeric(fe.id) && is_numeric(te.id)) || te.id == ATTU_TYPE_TEXT ||
            ((fe.id == ATTU_TYPE_DATE || attu_type_is_ts_any(fe.id)) && (te.id == ATTU_TYPE_DATE || attu_type_is_ts_any(te.id))))
            return attu_array_assign(&c, e, t, e->position);
    }
    bool num = is_numeric(e->type.id) && is_numeric(t.id);
    /* date, timestamp and timestamptz assign to one another (in the session's zone) */
    bool dt = (e->type.id == ATTU_TYPE_DATE || attu_type_is_ts_any(e->type.id)) &&
              (t.id == ATTU_TYPE_DATE || attu_type_is_ts_any(t.id));
    /* PostgreSQL's assignment casts of the times: a time column takes the
     * time of a timestamp, a timestamptz, an interval or a timetz; an
     * interval column a time; a timetz column a time or a timestamptz */
    if ((t.id == ATTU_TYPE_TIME && (attu_type_is_ts_any(e->type.id) || e->type.id == ATTU_TYPE_INTERVAL ||
                                     e->type.id == ATTU_TYPE_TIMETZ)) ||
        (t.id == ATTU_TYPE_INTERVAL && e->type.id == ATTU_TYPE_TIME) ||
        (t.id == ATTU_TYPE_TIMETZ && (e->type.id == ATTU_TYPE_TIME || e->type.id == ATTU_TYPE_TIMESTAMPTZ)))
        dt = true;
    bool totext = t.id == ATTU_TYPE_TEXT && !attu_type_is_array(t);
    /* json and jsonb take each other, never text (no assignment cast) */
    if (attu_type_is_json_any(t) && !attu_type_is_json_any(e->type)) totext = false;
    /* uuid and bytea take only themselves (their values go to text
     * columns, PostgreSQL's assignment I/O casts) */
    if ((attu_type_is_uuid(t) || attu_type_is_bytea(t)) && !attu_type_equal(t, e->type)) totext = false;
    /* so does a range column (its values go to text columns) */
    if (attu_type_is_range(t) && !attu_type_equal(t, e->type)) totext = false;
    /* an enum column takes its own type (and untyped literals) only */
    if (attu_type_is_enum(t) && !attu_type_equal(t, e->type)) totext = false;
    if (!num && !dt && !totext) {
        char b1[64], b2[64];
        attu_error_set(err, ATTU_SQLSTATE_DATATYPE_MISMATCH, e->position, "column \"%s\" is of type %s but expression is of type %s",
                       colname, tname(t, b1), tname(e->type, b2));
        attu_error_set_hint(err, "You will need to rewrite or cast the expression.");   /* PostgreSQL: a HINT */
        return NULL;
    }
    return coerce(&c, e, t, true, e->position);
}

/* Binds a subquery of an expression in its own context (the enclosing
 * scope visible for correlation). */
static attu_lplan *bind_sub(bctx *c, const scope *sc, const attu_ast_query *q, bool *correlated) {
    /* the statement's outer-level aggregates, shared from the top down */
    if (!c->oaggs && !(c->oaggs = attu_palloc(c->pa, sizeof *c->oaggs))) OOM_NULL(c);
    agg_level *al = attu_palloc(c->pa, sizeof *al);
    if (!al) OOM_NULL(c);
    *al = (agg_level){ c->allow_agg, c->in_agg, c->clause, c->agg_level };
    bctx sub = *c;
    sub.pending = NULL;
    sub.npending = 0;
    sub.agg_level = al;
    if (c->outer) {
        outer_link *up = attu_palloc(c->pa, sizeof *up);
        if (!up) OOM_NULL(c);
        up->sc = c->outer;
        up->next = c->outer_up;
        sub.outer_up = up;
    }
    sub.outer = sc;
    sub.saw_outer = false;
    sub.allow_agg = false; sub.allow_window = false; sub.in_agg = false; sub.in_window = 0;
    sub.allow_srf = false;
    sub.sublink_depth++;
    sub.agg_lift = false;
    attu_lplan *p = bind_query(&sub, q);
    c->next_source = sub.next_source;
    *correlated = sub.saw_outer;
    if (q == c->carry_query) {   /* a LATERAL subquery's carried row items (bind_lateral) */
        c->carry_at = sub.carry_at; c->carry_cnt = sub.carry_cnt;
        c->carry_n0 = sub.carry_n0; c->carry_total = sub.carry_total;
    }
    return p;
}

attu_lplan *attu_bind_sub_plan(bctx *c, const scope *sc, const attu_ast_query *q) {
    bool corr;
    return bind_sub(c, sc, q, &corr);
}

static attu_bexpr *run_scalar_list(bctx *c, attu_lplan *p, const attu_ast_expr *e, attu_column ***cols, size_t *n) {
    if (!c->params || !c->params->run_subquery) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "subqueries are not supported here");
        return NULL;
    }
    attu_plan_arena *pa = c->pa;
    (void)pa;
    if (c->params->run_subquery(c->params->run_ctx, p, cols, n, c->err)) return NULL;
    return (attu_bexpr *)1;
}

static attu_bexpr *const_from_column(bctx *c, const attu_column *col, size_t row, attu_type t, int pos) {
    attu_bexpr *b = attu_bx_new(c->pa, BX_CONST, t, pos);
    if (!b) { attu_error_oom(c->err); return NULL; }
    if (attu_column_is_null(col, row)) { b->is_null = true; return b; }
    const void *d = col->data;
    switch (t.id) {
    case ATTU_TYPE_BOOL: b->i = ((const uint8_t *)d)[row]; break;
    case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: b->i = ((const int32_t *)d)[row]; break;
    case ATTU_TYPE_FLOAT32: b->f = ((const float *)d)[row]; break;
    case ATTU_TYPE_FLOAT64: b->f = ((const double *)d)[row]; break;
    case ATTU_TYPE_TEXT: {
        size_t len;
        const char *s = attu_dictionary_get(col->dict, ((const int32_t *)d)[row], &len);
        b->s = attu_pstrdup(c->pa, s, len); b->slen = len;
        break;
    }
    case ATTU_TYPE_INTERVAL:   /* kept as its 16-byte slot */
        if (!(b->s = attu_pstrdup(c->pa, (const char *)d + row * 16, 16))) { attu_error_oom(c->err); return NULL; }
        b->slen = 16;
        return b;
    case ATTU_TYPE_NUMERIC: {
        /* NUMERIC constants are kept as their canonical text */
        char buf[64];
        size_t len = attu_value_format(t, (const char *)d + row * 16, buf, sizeof buf);
        if (!(b->s = attu_pstrdup(c->pa, buf, len))) { attu_error_oom(c->err); return NULL; }
        b->slen = len;
        return b;
    }
    default: b->i = ((const int64_t *)d)[row]; break;
    }
    b->f = t.id == ATTU_TYPE_FLOAT32 || t.id == ATTU_TYPE_FLOAT64 ? b->f : (double)b->i;
    return b;
}

/* `$1 IN (SELECT c ...)`, `$1 = ANY (SELECT c ...)`: an undeclared
 * parameter compared with the rows of a subquery takes its column's type
 * (as PostgreSQL resolves unknown = that type), rows or none */
static attu_bexpr *param_as_column(bctx *c, attu_bexpr *arg, attu_type t) {
    if (!arg || !is_untyped_param(arg) || t.id == ATTU_TYPE_UNKNOWN) return arg;
    return coerce(c, arg, t, false, arg->position);
}

static void free_cols(attu_column **cols, int n) {
    for (int i = 0; i < n; i++) attu_column_free(cols[i]);
    free(cols);
}

#define MAX_IN_VALUES 10000

typedef enum apply_kind { APPLY_SCALAR, APPLY_EXISTS, APPLY_ANY, APPLY_ALL } apply_kind;
static attu_bexpr *decorrelate_param(bctx *c, const scope *sc, attu_lplan *p, const attu_ast_expr *e,
                                     apply_kind kind, attu_bexpr *arg, attu_ast_binary_op op);
static bool plan_reads_outer(const attu_lplan *p);
static attu_bexpr *decorrelate_general(bctx *c, const scope *sc, attu_lplan *p, const attu_ast_expr *e,
                                       attu_bexpr **conj, int n);
static attu_bexpr *decorrelate_rows(bctx *c, const scope *sc, const attu_ast_query *q, attu_lplan *p, const attu_ast_expr *e);

/* Adds to deps the enclosing-scope columns e reads: those at or above
 * base (OUTER_BASE for correlated references, 0 for expressions already
 * over the enclosing plan), once each, and to pos the position of the
 * first reference (an ungrouped one's 42803 points there). */
static void collect_deps(const attu_bexpr *e, int base, int *deps, int *pos, int *n, int cap) {
    if (!e) return;
    if (e->kind == BX_COL) {
        if (e->col < base || e->col - base >= OUTER_BASE) return;
        for (int i = 0; i < *n; i++) if (deps[i] == e->col - base) return;
        if (*n < cap) { pos[*n] = e->position; deps[(*n)++] = e->col - base; }
        return;
    }
    for (int i = 0; i < e->nargs; i++) collect_deps(e->args[i], base, deps, pos, n, cap);
    for (int i = 0; i < e->nwhens; i++) { collect_deps(e->whens[i], base, deps, pos, n, cap); collect_deps(e->thens[i], base, deps, pos, n, cap); }
    collect_deps(e->else_, base, deps, pos, n, cap);
}

/* Appends a zeroed pending join to c->pending; NULL out of memory (with
 * the error set). */
static pending_join *pending_add(bctx *c) {
    pending_join *pj = attu_palloc(c->pa, sizeof *pj * (size_t)(c->npending + 1));
    if (!pj) { attu_error_oom(c->err); return NULL; }
    if (c->npending) memcpy(pj, c->pending, sizeof *pj * (size_t)c->npending);
    memset(&pj[c->npending], 0, sizeof *pj);
    c->pending = pj;
    return &pj[c->npending++];
}

/* Marks the scope column `col` as a subquery value reading deps (first
 * read at positions pos). */
static bool set_deps(bctx *c, scope *sc, int col, const int *deps, const int *pos, int n) {
    int *d = attu_palloc(c->pa, sizeof(int) * (size_t)(n + 1)), *dp = attu_palloc(c->pa, sizeof(int) * (size_t)(n + 1));
    if (!d || !dp) { attu_error_oom(c->err); return false; }
    if (n) { memcpy(d, deps, sizeof(int) * (size_t)n); memcpy(dp, pos, sizeof(int) * (size_t)n); }
    sc->cols[col].deps = d;
    sc->cols[col].dep_pos = dp;
    sc->cols[col].ndeps = n;
    return true;
}

/* Whether an aggregate of the AGG node a reads the enclosing query's row
 * (in its argument, its second argument or its ORDER BY; FILTER is folded
 * into the argument). Such an aggregate mixes inner and outer columns:
 * one over outer columns alone is the outer query's (check_outer_aggs). */
static bool aggs_read_outer(const attu_lplan *a) {
    for (int i = 0; i < a->naggs; i++) {
        const attu_agg_spec *s = &a->aggs[i];
        if ((outer_sides(s->arg) | outer_sides(s->arg2)) & 2) return true;
        for (int k = 0; k < s->norder; k++) if (outer_sides(s->order[k].expr) & 2) return true;
    }
    return false;
}

/* The value of a keyed subquery (decorrelate_scalar) over the enclosing
 * scope: x reads aggregate i of aggs as column i and the enclosing row as
 * OUTER_BASE + k; aggregate i is the scope column at + i (NULL where the
 * outer row matched no key), read as coalesce(.., 0) for the counts,
 * whose value over no rows is 0; the enclosing row's column k is k. NULL
 * out of memory. */
static attu_bexpr *keyed_value(bctx *c, const attu_bexpr *x, const attu_agg_spec *aggs, int naggs, int at) {
    if (!x) return NULL;
    if (x->kind == BX_COL) {
        if (x->col >= OUTER_BASE) return copy_shift(c, x, -OUTER_BASE);
        if (x->col < 0 || x->col >= naggs) {     /* the AGG node has no groups: its columns are the aggregates */
            attu_error_set(c->err, ATTU_SQLSTATE_INTERNAL, x->position, "a keyed subquery's value reads no aggregate");
            return NULL;
        }
        attu_agg_kind k = aggs[x->col].agg;
        attu_bexpr *r = attu_bx_col(c->pa, at + x->col, x->type);
        if (r) r->position = x->position;
        if (r && (k == AGG_COUNT || k == AGG_COUNT_STAR || k == AGG_COUNT_DISTINCT)) {
            attu_bexpr *zero = mk_const_int(c, x->type, 0);
            r = zero ? mk_call(c, ATTU_OP_COALESCE, x->type, x->position, 2, r, zero, NULL, NULL) : NULL;
        }
        return r;
    }
    attu_bexpr *r = copy_shift(c, x, 0);
    if (!r) return NULL;
    for (int i = 0; i < x->nargs; i++) if (!(r->args[i] = keyed_value(c, x->args[i], aggs, naggs, at))) return NULL;
    for (int i = 0; i < x->nwhens; i++)
        if (!(r->whens[i] = keyed_value(c, x->whens[i], aggs, naggs, at)) || !(r->thens[i] = keyed_value(c, x->thens[i], aggs, naggs, at))) return NULL;
    if (x->else_ && !(r->else_ = keyed_value(c, x->else_, aggs, naggs, at))) return NULL;
    return r;
}

/* (SELECT agg(...) FROM ... WHERE inner = outer AND local) -> the
 * aggregates grouped by the inner correlation keys, LEFT JOINed to the
 * outer plan on them: new hidden columns of the outer scope, of which the
 * value is an expression (keyed_value) where the subquery stands. The
 * aggregates must read inner columns only; the value may read the outer
 * row. */
static attu_bexpr *decorrelate_scalar(bctx *c, const scope *sc, const attu_ast_query *q, attu_lplan *p, const attu_ast_expr *e) {
    attu_lplan *proj = p, *agg = p->kind == LP_PROJECT ? p->left : NULL;
    attu_lplan *filt = agg && agg->kind == LP_AGG ? agg->left : NULL;
    /* any other shape (GROUP BY, HAVING, LIMIT, a FROM that reads the
     * outer row, ...): the parameterised form */
    if (!filt || filt->kind != LP_FILTER || agg->ngroups != 0 || proj->ncols != 1 || q->limit || q->offset ||
        plan_reads_outer(filt->left))
        return decorrelate_param(c, sc, p, e, APPLY_SCALAR, NULL, 0);
    attu_bexpr *conj[256], *local[256];
    int n = split_conjuncts(filt->pred, conj, 0, 256), nloc = 0, nk = 0;
    attu_bexpr **ik = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n + 1));
    attu_bexpr **ok = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        attu_bexpr *x = conj[i];
        int s = outer_sides(x);
        if (!(s & 2)) { local[nloc++] = x; continue; }
        if (is_equi(x)) {
            int sa = outer_sides(x->args[0]), sb = outer_sides(x->args[1]);
            if (sa == 2 && sb == 1) { ok[nk] = copy_shift(c, x->args[0], -OUTER_BASE); ik[nk++] = x->args[1]; continue; }
            if (sa == 1 && sb == 2) { ok[nk] = copy_shift(c, x->args[1], -OUTER_BASE); ik[nk++] = x->args[0]; continue; }
        }
        return decorrelate_general(c, sc, p, e, conj, n);
    }
    /* the keyed form aggregates the inner rows alone, once per key: an
     * aggregate reading the outer row (sum(b.y + o.k)) needs the outer row
     * beside each inner one, which the general form joins */
    if (aggs_read_outer(agg)) return decorrelate_general(c, sc, p, e, conj, n);
    /* inner plan: FROM [-> local filter] -> AGG(groups = inner keys): the
     * keys, then the aggregates, LEFT JOINed to the outer plan on them */
    attu_lplan *in = filt->left;
    if (nloc && !(in = filter_local(c, in, local, nloc))) return NULL;
    attu_lplan *sub = attu_lp_new(c->pa, LP_AGG, nk + agg->naggs);
    if (!sub) OOM_NULL(c);
    sub->left = in; sub->ngroups = nk; sub->groups = ik; sub->naggs = agg->naggs; sub->aggs = agg->aggs;
    for (int i = 0; i < nk; i++) { sub->types[i] = ik[i]->type; sub->names[i] = "?key?"; }
    for (int i = 0; i < agg->naggs; i++) { sub->types[nk + i] = agg->aggs[i].type; sub->names[nk + i] = "?agg?"; }
    sub->est_rows = in->est_rows / 10 + 1;
    pending_join *pj = pending_add(c);
    if (!pj) return NULL;
    *pj = (pending_join){ .sub = sub, .nkeys = nk, .outer_keys = ok, .value_col = nk };
    /* the keys and aggregates: hidden columns of the outer scope */
    scope *msc = (scope *)sc;
    int base = msc->n;
    /* what the value reads of the outer row, then the keys (the subquery's
     * select list before its WHERE: an ungrouped one's 42803 names the
     * first, as PostgreSQL) */
    int deps[64], dpos[64], nd = 0;
    collect_deps(proj->exprs[0], OUTER_BASE, deps, dpos, &nd, 64);
    for (int i = 0; i < nk; i++) collect_deps(ok[i], 0, deps, dpos, &nd, 64);
    for (int i = 0; i < nk + agg->naggs; i++)
        if (!scope_push(c, msc, NULL, sub->names[i], sub->types[i], true, false, -1) ||
            (i >= nk && !set_deps(c, msc, base + i, deps, dpos, nd))) return NULL;
    /* the value, where the subquery stands, over the aggregates as an
     * outer row sees them: an outer row without inner rows (the LEFT JOIN
     * left it unmatched) sees the aggregates of no rows, count's 0 and the
     * others' NULL, so that coalesce(sum(b.y), 0), sum(b.y) IS NULL or
     * 1 / count(*) give PostgreSQL's values there too */
    attu_bexpr *v = keyed_value(c, proj->exprs[0], agg->aggs, agg->naggs, base + nk);
    if (!v) { if (!c->err->set) attu_error_oom(c->err); return NULL; }
    v->position = e->position;
    return v;
}

/* Adds a keyed pending join and sub's columns to the enclosing scope: sub
 * (keys, then [count,] value) is LEFT JOINed to the enclosing plan on
 * outer_keys = the keys. Returns the scope column of the value. */
static int push_keyed_join(bctx *c, const scope *sc, attu_lplan *sub, int nk, attu_bexpr **ok) {
    pending_join *pj = pending_add(c);
    if (!pj) return -1;
    *pj = (pending_join){ .sub = sub, .nkeys = nk, .outer_keys = ok, .value_col = sub->ncols - 1 };
    scope *msc = (scope *)sc;
    int base = msc->n;
    for (int i = 0; i < sub->ncols; i++)
        if (!scope_push(c, msc, NULL, i < nk ? "?key?" : "?value?", sub->types[i], true, false, -1)) return -1;
    int deps[64], dpos[64], nd = 0;
    for (int i = 0; i < nk; i++) collect_deps(ok[i], 0, deps, dpos, &nd, 64);
    /* the value and the count before it are read together (21000 check) */
    for (int k = nk; k < sub->ncols; k++)
        if (!set_deps(c, msc, base + k, deps, dpos, nd)) return -1;
    return base + sub->ncols - 1;
}

/* apply form declarations (see decorrelate_apply) */
/* The value of ANY / ALL from the counts of an apply: column col holds the
 * rows whose comparison decides (TRUE for ANY, FALSE for ALL), col + 1
 * those whose comparison is NULL. CASE WHEN decisive > 0 THEN decisive
 * WHEN unknown > 0 THEN NULL ELSE NOT decisive END. NULL when out of memory. */
static attu_bexpr *quantified_value(bctx *c, apply_kind kind, int col, int position) {
    attu_type tb = attu_type_make(ATTU_TYPE_BOOL), t8 = attu_type_make(ATTU_TYPE_INT64);
    attu_bexpr *x = attu_bx_new(c->pa, BX_CASE, tb, position);
    attu_bexpr **wh = attu_palloc(c->pa, sizeof(attu_bexpr *) * 2), **th = attu_palloc(c->pa, sizeof(attu_bexpr *) * 2);
    if (!x || !wh || !th) return NULL;
    for (int i = 0; i < 2; i++)
        wh[i] = mk_call(c, ATTU_OP_GT_I, tb, position, 2, attu_bx_col(c->pa, col + i, t8), mk_const_int(c, t8, 0), NULL, NULL);
    th[0] = mk_const_int(c, tb, kind == APPLY_ANY);
    th[1] = mk_const_null(c, tb);
    x->nwhens = 2; x->whens = wh; x->thens = th; x->else_ = mk_const_int(c, tb, kind != APPLY_ANY);
    return x;
}

static attu_bexpr *decorrelate_apply(bctx *c, const scope *sc, const attu_ast_query *q, attu_lplan *p, const attu_ast_expr *e,
                                     apply_kind kind, attu_bexpr *arg, attu_ast_binary_op op);
static attu_lplan *apply_apply(bctx *c, attu_lplan *p, const pending_join *pj);

static bool plan_reads_outer(const attu_lplan *p);
static attu_bexpr *push_apply(bctx *c, const scope *sc, const attu_ast_expr *e, attu_lplan *inner, attu_bexpr **corr,
                              int ncorr, attu_agg_spec *aggs, int naggs, attu_bexpr *value, attu_agg_spec *win,
                              int64_t limit, int64_t offset);

/* A correlated scalar subquery that is not an aggregate: at most one row
 * per outer row (more is 21000, as PostgreSQL fails when it evaluates the
 * subquery for such a row), none gives NULL.
 *
 * Without FROM, (SELECT outer_expr [WHERE cond]) is the expression itself
 * (NULL where cond is not TRUE). With FROM, the correlation must be
 * equalities inner = outer (plus conditions on the inner rows alone), and
 * the value must read only the inner rows: the inner rows (locally
 * filtered) are grouped by correlation key into a count and the value of
 * the key's row, LEFT JOINed to the enclosing plan on the keys; the
 * subquery's value is ATTU_OP_SUBQUERY_ONE(count, value), which fails a
 * row whose key has more than one inner row where (and only where) the
 * value is used. Anything else (other correlations, a value reading the
 * outer row, DISTINCT, LIMIT, OFFSET) takes the apply form. */
static attu_bexpr *decorrelate_rows(bctx *c, const scope *sc, const attu_ast_query *q, attu_lplan *p, const attu_ast_expr *e) {
    if (q->kind != ATTU_QUERY_SELECT || q->u.select.group_by.n || q->u.select.group_empty || q->u.select.having ||
        q->u.select.distinct || q->u.select.distinct_on.n || q->limit || q->offset)
        return decorrelate_apply(c, sc, q, p, e, APPLY_SCALAR, NULL, 0);
    attu_lplan *proj = p;
    if (proj->kind == LP_SORT) proj = proj->left;             /* ORDER BY: no effect on one row */
    if (!proj || proj->kind != LP_PROJECT || proj->ncols != 1) return decorrelate_apply(c, sc, q, p, e, APPLY_SCALAR, NULL, 0);
    attu_lplan *filt = proj->left;
    if (filt && filt->kind == LP_SORT) filt = filt->left;
    attu_bexpr *val = proj->exprs[0];
    /* no FROM: the value itself, over the outer row */
    attu_lplan *from = filt && filt->kind == LP_FILTER ? filt->left : filt;
    if (from && from->kind == LP_VALUES && from->ncols == 0 && from->nrows == 1) {
        attu_bexpr *pred = filt->kind == LP_FILTER ? filt->pred : NULL;
        if ((outer_sides(val) & 1) || (pred && (outer_sides(pred) & 1))) return decorrelate_apply(c, sc, q, p, e, APPLY_SCALAR, NULL, 0);
        attu_bexpr *v = copy_shift(c, val, -OUTER_BASE);
        if (v && pred) {
            attu_bexpr *w = copy_shift(c, pred, -OUTER_BASE);
            attu_bexpr *x = attu_bx_new(c->pa, BX_CASE, v->type, e->position);
            attu_bexpr **wh = attu_palloc(c->pa, sizeof(attu_bexpr *)), **th = attu_palloc(c->pa, sizeof(attu_bexpr *));
            if (!w || !x || !wh || !th) OOM_NULL(c);
            wh[0] = w; th[0] = v;
            x->nwhens = 1; x->whens = wh; x->thens = th; x->else_ = mk_const_null(c, v->type);
            v = x;
        }
        if (v) v->position = e->position;
        return v;
    }
    if (!filt || filt->kind != LP_FILTER || (outer_sides(val) & 2)) return decorrelate_apply(c, sc, q, p, e, APPLY_SCALAR, NULL, 0);
    attu_bexpr *conj[256], *local[256];
    int n = split_conjuncts(filt->pred, conj, 0, 256), nloc = 0, nk = 0;
    attu_bexpr **ik = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n + 1));
    attu_bexpr **ok = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n + 1));
    if (!ik || !ok) OOM_NULL(c);
    for (int i = 0; i < n; i++) {
        attu_bexpr *x = conj[i];
        if (!(outer_sides(x) & 2)) { local[nloc++] = x; continue; }
        if (is_equi(x)) {
            int sa = outer_sides(x->args[0]), sb = outer_sides(x->args[1]);
            if (sa == 2 && sb == 1) { ok[nk] = copy_shift(c, x->args[0], -OUTER_BASE); ik[nk++] = x->args[1]; continue; }
            if (sa == 1 && sb == 2) { ok[nk] = copy_shift(c, x->args[1], -OUTER_BASE); ik[nk++] = x->args[0]; continue; }
        }
        return decorrelate_apply(c, sc, q, p, e, APPLY_SCALAR, NULL, 0);
    }
    if (!nk || plan_reads_outer(filt->left)) return decorrelate_apply(c, sc, q, p, e, APPLY_SCALAR, NULL, 0);
    attu_lplan *in = filt->left;
    if (nloc && !(in = filter_local(c, in, local, nloc))) return NULL;
    /* AGG(in, groups = inner keys; count(*), min(value)) = keys ++ count ++
     * value: the value of a key's only row (min of one row; a key of more
     * rows fails the check if an outer row reads it) */
    attu_lplan *a = attu_lp_new(c->pa, LP_AGG, nk + 2);
    attu_agg_spec *as = attu_palloc(c->pa, sizeof *as * 2);
    if (!a || !as) OOM_NULL(c);
    as[0].agg = AGG_COUNT_STAR; as[0].type = attu_type_make(ATTU_TYPE_INT64);
    as[1].agg = AGG_MIN; as[1].arg = val; as[1].type = val->type;
    a->left = in; a->ngroups = nk; a->groups = ik; a->naggs = 2; a->aggs = as;
    for (int i = 0; i < nk; i++) { a->types[i] = ik[i]->type; a->names[i] = "?key?"; }
    a->types[nk] = as[0].type; a->names[nk] = "?count?";
    a->types[nk + 1] = val->type; a->names[nk + 1] = "?value?";
    a->est_rows = in->est_rows / 10 + 1;
    int vcol = push_keyed_join(c, sc, a, nk, ok);
    if (vcol < 0) return NULL;
    /* the count is checked only where the value is used (a CASE branch
     * not taken never fails) */
    attu_bexpr *v = mk_call(c, ATTU_OP_SUBQUERY_ONE, val->type, e->position, 2, attu_bx_col(c->pa, vcol - 1, as[0].type),
                            attu_bx_col(c->pa, vcol, val->type), NULL, NULL);
    if (!v) OOM_NULL(c);
    return v;
}

/* The inner side of a decorrelated subquery: its FROM filtered by the
 * conjuncts that read only the inner rows, plus a marker column (TRUE) at
 * position *ni_out, which is NULL on the outer rows the LEFT JOIN leaves
 * unmatched. The conjuncts that read the outer row go to corr (at most
 * 256, as the callers' arrays). */
static attu_lplan *inner_with_marker(bctx *c, attu_lplan *in, attu_bexpr **conj, int n, attu_bexpr **corr,
                                     int *ncorr, int *ni_out) {
    attu_bexpr *local[256];
    int nloc = 0;
    *ncorr = 0;
    for (int i = 0; i < n; i++) {
        if (outer_sides(conj[i]) & 2) corr[(*ncorr)++] = conj[i];
        else local[nloc++] = conj[i];
    }
    if (nloc && !(in = filter_local(c, in, local, nloc))) return NULL;
    int ni = in->ncols;
    attu_bexpr **ie = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(ni + 2));
    char **inm = attu_palloc(c->pa, sizeof(char *) * (size_t)(ni + 2));
    if (!ie || !inm) OOM_NULL(c);
    for (int i = 0; i < ni; i++) { ie[i] = attu_bx_col(c->pa, i, in->types[i]); inm[i] = in->names[i]; }
    ie[ni] = mk_const_int(c, attu_type_make(ATTU_TYPE_BOOL), 1);
    inm[ni] = "?matched?";
    *ni_out = ni;
    return mk_project(c, in, ni + 1, ie, inm);
}

/* The general decorrelation of (SELECT agg(...) FROM ... WHERE ...) whose
 * correlation is not only equalities (or whose value or aggregates read
 * the outer row, or that combines a count): each outer row, numbered so
 * that equal rows stay apart, is LEFT JOINed to the inner rows satisfying
 * every correlated conjunct, and the aggregates (whose arguments may read
 * the outer row too) are taken per outer row. An inner marker column
 * (TRUE) makes count(*) count matched rows only (0 for none), and the
 * other aggregates read their arguments only where it is set (NULL on an
 * unmatched row, whatever the argument). Applied by apply_pending; the
 * value is a new hidden column of the outer scope. */
static attu_bexpr *decorrelate_general(bctx *c, const scope *sc, attu_lplan *p, const attu_ast_expr *e,
                                       attu_bexpr **conj, int n) {
    attu_lplan *proj = p, *agg = p->left;
    attu_bexpr *corr[256];
    int ncorr = 0, ni = 0;
    attu_lplan *inner = inner_with_marker(c, agg->left->left, conj, n, corr, &ncorr, &ni);
    if (!inner) return NULL;
    /* aggregates over P ++ number ++ inner: set up against P's width in apply_pending;
     * here they stay over the inner columns, count(*) counting the marker */
    attu_agg_spec *aggs = attu_palloc(c->pa, sizeof *aggs * (size_t)(agg->naggs + 1));
    if (!aggs) OOM_NULL(c);
    bool windowed = true;    /* every aggregate also runs as a window */
    for (int i = 0; i < agg->naggs; i++) {
        aggs[i] = agg->aggs[i];
        if (aggs[i].agg == AGG_COUNT_STAR) { aggs[i].agg = AGG_COUNT; aggs[i].arg = attu_bx_col(c->pa, ni, attu_type_make(ATTU_TYPE_BOOL)); }
        attu_agg_kind k = aggs[i].agg;
        if (aggs[i].distinct || aggs[i].arg2 ||
            !(k == AGG_COUNT || k == AGG_SUM || k == AGG_MIN || k == AGG_MAX)) windowed = false;
    }
    /* the apply form: evaluated once per distinct outer value */
    if (windowed) return push_apply(c, sc, e, inner, corr, ncorr, aggs, agg->naggs, proj->exprs[0], NULL, -1, 0);
    pending_join *pj = pending_add(c);
    if (!pj) return NULL;
    pj->inner = inner;
    pj->cond = ncorr ? and_all(c, corr, ncorr) : NULL;
    pj->aggs = aggs;
    pj->naggs = agg->naggs;
    pj->value = proj->exprs[0];
    scope *msc = (scope *)sc;
    int base = msc->n;
    if (!scope_push(c, msc, NULL, "?value?", proj->types[0], true, false, -1)) return NULL;
    {
        int deps[64], dpos[64], nd = 0;
        /* the select list (value, aggregates) before WHERE, as PostgreSQL
         * looks for an ungrouped column */
        collect_deps(proj->exprs[0], OUTER_BASE, deps, dpos, &nd, 64);
        for (int i = 0; i < agg->naggs; i++) {
            collect_deps(aggs[i].arg, OUTER_BASE, deps, dpos, &nd, 64);
            collect_deps(aggs[i].arg2, OUTER_BASE, deps, dpos, &nd, 64);
            for (int k = 0; k < aggs[i].norder; k++) collect_deps(aggs[i].order[k].expr, OUTER_BASE, deps, dpos, &nd, 64);
        }
        for (int i = 0; i < ncorr; i++) collect_deps(corr[i], OUTER_BASE, deps, dpos, &nd, 64);
        if (!set_deps(c, msc, base, deps, dpos, nd)) return NULL;
    }
    attu_bexpr *v = attu_bx_col(c->pa, base, proj->types[0]);
    v->position = e->position;
    return v;
}

static attu_bexpr *only_when(bctx *c, attu_bexpr *cond, attu_bexpr *x);

/* An aggregate argument of the general form over the joined row (outer
 * column k -> k, inner column i -> nw + i), NULL where the row's inner
 * marker (column marker) is: CASE WHEN marker IS NOT NULL THEN x END.
 * NULL out of memory. */
static attu_bexpr *general_arg(bctx *c, const attu_bexpr *x, int nw, int marker) {
    attu_type tb = attu_type_make(ATTU_TYPE_BOOL);
    attu_bexpr *r = remap_outer(c, x, nw), *m = attu_bx_col(c->pa, marker, tb);
    attu_bexpr *cond = r && m ? mk_call(c, ATTU_OP_IS_NOT_NULL, tb, 0, 1, m, NULL, NULL, NULL) : NULL;
    if (!cond) { if (!c->err->set) attu_error_oom(c->err); return NULL; }
    return only_when(c, cond, r);
}

/* apply_pending for the general form: P -> P ++ value (see pending_join). */
static attu_lplan *apply_general(bctx *c, attu_lplan *p, const pending_join *pj) {
    int np = p->ncols, nw = np + 1;
    /* P ++ row_number() OVER () */
    attu_lplan *w = attu_lp_new(c->pa, LP_WINDOW, nw);
    attu_agg_spec *rn = attu_palloc(c->pa, sizeof *rn);
    if (!w || !rn) OOM_NULL(c);
    rn->agg = WIN_ROW_NUMBER; rn->type = attu_type_make(ATTU_TYPE_INT64);
    w->left = p; w->naggs = 1; w->aggs = rn;
    for (int i = 0; i < np; i++) { w->types[i] = p->types[i]; w->names[i] = p->names[i]; }
    w->types[np] = rn->type; w->names[np] = "?row?";
    w->est_rows = p->est_rows; w->rowid_col = -1;
    /* LEFT JOIN inner: outer column k -> k, inner column i -> nw + i */
    attu_lplan *j = attu_make_join(c, w, pj->inner, JK_LEFT, pj->cond ? remap_outer(c, pj->cond, nw) : NULL);
    if (!j) return NULL;
    /* grouped by P's columns and the number */
    attu_lplan *a = attu_lp_new(c->pa, LP_AGG, nw + pj->naggs);
    attu_bexpr **g = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(nw + 1));
    attu_agg_spec *aggs = attu_palloc(c->pa, sizeof *aggs * (size_t)(pj->naggs + 1));
    if (!a || !g || !aggs) OOM_NULL(c);
    for (int i = 0; i < nw; i++) { g[i] = attu_bx_col(c->pa, i, w->types[i]); a->types[i] = w->types[i]; a->names[i] = w->names[i]; }
    /* each aggregate reads the joined row (outer column k -> k, inner
     * column i -> nw + i) and only where it matched: an outer row without
     * inner rows gives the aggregates of no rows, even where an argument
     * would not be NULL there (coalesce(b.y, 0), or one reading the outer
     * row, sum(b.y + o.k)); the ORDER BY of string_agg reads it likewise */
    for (int i = 0; i < pj->naggs; i++) {
        const attu_agg_spec *s = &pj->aggs[i];
        aggs[i] = *s;
        if (s->arg && !(aggs[i].arg = general_arg(c, s->arg, nw, nw + pj->inner->ncols - 1))) return NULL;
        /* an ordered-set aggregate's fraction reads only the outer row
         * (a direct argument of a keyless aggregate): it holds on an outer
         * row without inner rows too, as PostgreSQL evaluates it there */
        bool osa_frac = s->agg == AGG_PERCENTILE_CONT || s->agg == AGG_PERCENTILE_DISC;
        if (s->arg2 && osa_frac && !(aggs[i].arg2 = remap_outer(c, s->arg2, nw))) OOM_NULL(c);
        if (s->arg2 && !osa_frac && !(aggs[i].arg2 = general_arg(c, s->arg2, nw, nw + pj->inner->ncols - 1))) return NULL;
        if (s->norder) {
            if (!(aggs[i].order = attu_palloc(c->pa, sizeof(attu_sort_item) * (size_t)s->norder))) OOM_NULL(c);
            for (int k = 0; k < s->norder; k++) {
                aggs[i].order[k] = s->order[k];
                if (!(aggs[i].order[k].expr = remap_outer(c, s->order[k].expr, nw))) OOM_NULL(c);
            }
        }
        a->types[nw + i] = aggs[i].type; a->names[nw + i] = "agg";
    }
    a->left = j; a->ngroups = nw; a->groups = g; a->naggs = pj->naggs; a->aggs = aggs;
    a->est_rows = p->est_rows;
    /* P's columns ++ the value (aggregate i -> nw + i, outer column k -> k) */
    attu_bexpr **pe = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(np + 2));
    char **pn = attu_palloc(c->pa, sizeof(char *) * (size_t)(np + 2));
    if (!pe || !pn) OOM_NULL(c);
    for (int i = 0; i < np; i++) { pe[i] = attu_bx_col(c->pa, i, p->types[i]); pn[i] = p->names[i]; }
    pe[np] = remap_outer(c, pj->value, nw);
    pn[np] = "?value?";
    attu_lplan *out = mk_project(c, a, np + 1, pe, pn);
    if (out) out->rowid_col = p->rowid_col;
    return out;
}

/* ---- the apply form: any correlation, per outer row ------------------------------------ */

/* Whether any expression of plan p reads the enclosing query's row. */
static bool expr_reads_outer(const attu_bexpr *e) { return (outer_sides(e) & 2) != 0; }

static bool plan_reads_outer(const attu_lplan *p) {
    if (!p) return false;
    if (expr_reads_outer(p->pred) || expr_reads_outer(p->residual)) return true;
    if (p->kind == LP_PROJECT)
        for (int i = 0; i < p->ncols; i++) if (expr_reads_outer(p->exprs[i])) return true;
    if (p->kind == LP_VALUES)
        for (int i = 0; i < p->nrows * p->ncols; i++) if (expr_reads_outer(p->values[i])) return true;
    for (int i = 0; i < p->nkeys; i++) if (expr_reads_outer(p->lkeys[i]) || expr_reads_outer(p->rkeys[i])) return true;
    for (int i = 0; i < p->ngroups; i++) if (expr_reads_outer(p->groups[i])) return true;
    for (int i = 0; i < p->naggs; i++) {
        const attu_agg_spec *a = &p->aggs[i];
        if (expr_reads_outer(a->arg) || expr_reads_outer(a->arg2)) return true;
        for (int k = 0; k < a->npart; k++) if (expr_reads_outer(a->part[k])) return true;
        for (int k = 0; k < a->norder; k++) if (expr_reads_outer(a->order[k].expr)) return true;
    }
    for (int i = 0; i < p->nsort; i++) if (expr_reads_outer(p->sort[i].expr)) return true;
    if (expr_reads_outer(p->limit_expr) || expr_reads_outer(p->offset_expr)) return true;
    for (int i = 0; i < p->nsrfs; i++)
        if (expr_reads_outer(p->srfs[i].start) || expr_reads_outer(p->srfs[i].stop) || expr_reads_outer(p->srfs[i].step)) return true;
    return plan_reads_outer(p->left) || plan_reads_outer(p->right);
}

/* A correlated subquery taken apart: SELECT [DISTINCT] items FROM from
 * WHERE conj [ORDER BY order] [LIMIT limit] [OFFSET offset]. items, conj
 * and order read the FROM's columns and the outer row (OUTER_BASE + k);
 * the FROM itself must not read the outer row. */
typedef struct corr_parts {
    attu_lplan     *from;
    attu_bexpr     *conj[256];
    int             nconj;
    attu_bexpr    **items;
    int             nitems;
    int             nvis;            /* the subquery's columns (items past them: hidden sort keys) */
    attu_sort_item *order;
    int             norder;
    bool            distinct;
    int64_t         limit, offset;   /* limit -1: none */
} corr_parts;

static bool corr_take_apart(bctx *c, const attu_ast_query *q, attu_lplan *p, corr_parts *cp) {
    memset(cp, 0, sizeof *cp);
    cp->limit = -1;
    if (q->kind != ATTU_QUERY_SELECT || q->u.select.group_by.n || q->u.select.group_empty || q->u.select.having ||
        q->u.select.distinct_on.n)
        return false;
    attu_lplan *x = p;
    cp->nvis = p->ncols;
    /* the projection that drops hidden sort columns */
    if (x->kind == LP_PROJECT && x->left && (x->left->kind == LP_LIMIT || x->left->kind == LP_SORT)) {
        for (int i = 0; i < x->ncols; i++)
            if (x->exprs[i]->kind != BX_COL || x->exprs[i]->col != i) return false;
        x = x->left;
    }
    if (x->kind == LP_LIMIT && x->with_ties) return false;   /* peers: the parameterised form */
    /* counts of the outer row: ranks cut at a count per binding, the same */
    if (x->kind == LP_LIMIT && x->limit_expr) return false;
    if (x->kind == LP_LIMIT) { cp->limit = x->limit; cp->offset = x->offset; x = x->left; }
    attu_lplan *sort = NULL;
    if (x && x->kind == LP_SORT) { sort = x; x = x->left; }
    if (x && x->kind == LP_DISTINCT) { cp->distinct = true; x = x->left; }
    if (!x || x->kind != LP_PROJECT) return false;
    cp->items = x->exprs;
    cp->nitems = x->ncols;
    if (sort) {
        cp->norder = sort->nsort;
        cp->order = attu_palloc(c->pa, sizeof(attu_sort_item) * (size_t)(sort->nsort + 1));
        if (!cp->order) { attu_error_oom(c->err); return false; }
        for (int i = 0; i < sort->nsort; i++) {
            const attu_bexpr *k = sort->sort[i].expr;
            if (k->kind != BX_COL || k->col < 0 || k->col >= x->ncols) return false;
            cp->order[i] = sort->sort[i];
            cp->order[i].expr = x->exprs[k->col];
        }
    }
    for (int i = 0; i < cp->nitems; i++) if (has_kind(cp->items[i], BX_AGG) || has_kind(cp->items[i], BX_WINDOW)) return false;
    attu_lplan *below = x->left;
    if (below && below->kind == LP_FILTER) {
        cp->nconj = split_conjuncts(below->pred, cp->conj, 0, 256);
        below = below->left;
    }
    if (!below || plan_reads_outer(below)) return false;
    cp->from = below;
    return true;
}



static attu_agg_spec count_of(bctx *c, attu_bexpr *flag) {
    attu_agg_spec a;
    memset(&a, 0, sizeof a);
    a.agg = AGG_COUNT;
    a.arg = flag;
    a.type = attu_type_make(ATTU_TYPE_INT64);
    (void)c;
    return a;
}

/* CASE WHEN cond THEN TRUE END: a flag that count() counts where cond holds. */
static attu_bexpr *flag_when(bctx *c, attu_bexpr *cond) {
    attu_type b = attu_type_make(ATTU_TYPE_BOOL);
    attu_bexpr *x = attu_bx_new(c->pa, BX_CASE, b, cond ? cond->position : 0);
    attu_bexpr **wh = attu_palloc(c->pa, sizeof(attu_bexpr *)), **th = attu_palloc(c->pa, sizeof(attu_bexpr *));
    attu_bexpr *t = mk_const_int(c, b, 1), *n = mk_const_null(c, b);
    if (!x || !wh || !th || !t || !n) OOM_NULL(c);
    wh[0] = cond; th[0] = t;
    x->nwhens = 1; x->whens = wh; x->thens = th; x->else_ = n;
    return x;
}

/* Adds an apply-form pending join (see decorrelate_apply): inner (the FROM
 * rows that pass the local conditions, ++ a TRUE marker), the correlated
 * conditions corr, the aggregates over inner and the outer row, and the
 * value over the aggregates (column i) and the outer row (OUTER_BASE + k);
 * returns the value over the outer scope. */
static attu_bexpr *push_apply(bctx *c, const scope *sc, const attu_ast_expr *e, attu_lplan *inner, attu_bexpr **corr,
                              int ncorr, attu_agg_spec *aggs, int naggs, attu_bexpr *value, attu_agg_spec *win,
                              int64_t limit, int64_t offset) {
    pending_join *n = pending_add(c);
    if (!n) return NULL;
    n->apply = true;
    n->inner = inner;
    n->cond = ncorr ? and_all(c, corr, ncorr) : NULL;
    n->aggs = aggs;
    n->naggs = naggs;
    n->value = value;
    n->rank = win;
    n->limit = limit;
    n->offset = offset;
    /* the aggregates become hidden columns of the outer scope, and the
     * value an expression of them where the subquery stands, so that it
     * is computed (and its 21000 raised) only where it is used */
    scope *msc = (scope *)sc;
    int base = msc->n;
    {
        int deps[64], dpos[64], nd = 0;
        /* the select list before WHERE (42803's first ungrouped column) */
        collect_deps(value, OUTER_BASE, deps, dpos, &nd, 64);
        for (int i = 0; i < naggs; i++) collect_deps(aggs[i].arg, OUTER_BASE, deps, dpos, &nd, 64);
        for (int i = 0; i < ncorr; i++) collect_deps(corr[i], OUTER_BASE, deps, dpos, &nd, 64);
        if (win) for (int i = 0; i < win->norder; i++) collect_deps(win->order[i].expr, OUTER_BASE, deps, dpos, &nd, 64);
        for (int i = 0; i < naggs; i++)
            if (!scope_push(c, msc, NULL, "?agg?", aggs[i].type, true, false, -1) || !set_deps(c, msc, base + i, deps, dpos, nd)) return NULL;
    }
    attu_bexpr *v = remap_outer(c, value, base);
    if (!v) OOM_NULL(c);
    v->position = e->position;
    return v;
}

/* The apply form of a correlated subquery: each outer row (numbered, so
 * that equal rows stay apart) is LEFT JOINed to the subquery's FROM rows
 * that satisfy its WHERE (the correlated conditions are the join's; its
 * equalities become join keys, so only inequalities cost a comparison per
 * pair); with LIMIT / OFFSET the matches of each outer row are numbered in
 * the subquery's ORDER BY (DISTINCT: ranked by value) and only the kept
 * numbers count; then aggregates per outer row give the value:
 *   scalar:      count and min of the value; more than one row fails with
 *                21000 where the value is used (ATTU_OP_SUBQUERY_ONE),
 *                none gives NULL;
 *   EXISTS:      count > 0;
 *   x op ANY:    TRUE if some comparison is TRUE, else NULL if one is NULL,
 *                else FALSE (IN is = ANY, NOT IN its negation);
 *   x op ALL:    FALSE if some comparison is FALSE, else NULL if one is NULL,
 *                else TRUE.
 * So NULLs behave as in PostgreSQL's row-by-row evaluation. arg (ANY /
 * ALL) is bound over the outer scope. Applied by apply_pending; the value
 * is a new hidden column of the outer scope. */
static attu_bexpr *decorrelate_apply(bctx *c, const scope *sc, const attu_ast_query *q, attu_lplan *p, const attu_ast_expr *e,
                                     apply_kind kind, attu_bexpr *arg, attu_ast_binary_op op) {
    corr_parts cp;
    if (!corr_take_apart(c, q, p, &cp)) return c->err->set ? NULL : decorrelate_param(c, sc, p, e, kind, arg, op);
    attu_type tb = attu_type_make(ATTU_TYPE_BOOL), t8 = attu_type_make(ATTU_TYPE_INT64);
    bool rank = cp.limit >= 0 || cp.offset > 0;
    if (kind != APPLY_SCALAR) {
        /* DISTINCT changes which rows there are only through OFFSET */
        if (cp.distinct && cp.offset > 0) return decorrelate_param(c, sc, p, e, kind, arg, op);
        cp.distinct = false;
    }
    if (cp.distinct) rank = true;
    /* the local conditions filter the FROM; the rest join it */
    attu_bexpr *corr[256];
    int ncorr = 0, ni = 0;
    attu_lplan *inner = inner_with_marker(c, cp.from, cp.conj, cp.nconj, corr, &ncorr, &ni);
    if (!inner) return NULL;
    /* the numbering of each outer row's matches (column ni + 1 of the inner
     * side as the aggregates see it) */
    attu_agg_spec *win = NULL;
    if (rank) {
        win = attu_palloc(c->pa, sizeof *win);
        if (!win) OOM_NULL(c);
        win->type = t8;
        win->agg = cp.distinct ? WIN_DENSE_RANK : WIN_ROW_NUMBER;
        if (cp.distinct && !cp.norder) {
            /* DISTINCT without ORDER BY: rank by the value itself */
            win->norder = 1;
            win->order = attu_palloc(c->pa, sizeof(attu_sort_item));
            if (!win->order) OOM_NULL(c);
            win->order[0].expr = cp.items[0];
        } else {
            win->norder = cp.norder;
            win->order = cp.order;
        }
    }
    /* the aggregates, over the inner columns and the outer row */
    attu_agg_spec *aggs = attu_palloc(c->pa, sizeof *aggs * 3);
    attu_bexpr *value = NULL;
    int naggs = 0;
    if (!aggs) OOM_NULL(c);
    attu_bexpr *matched = attu_bx_col(c->pa, ni, tb);
    switch (kind) {
    case APPLY_SCALAR: {
        if (cp.nvis != 1) {
            attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, e->position, "subquery must return only one column");
            return NULL;
        }
        attu_bexpr *v = cp.items[0];
        /* a NUMERIC value goes through the window as its text (min of the
         * one row that counts is that row's value, scale and all) */
        bool as_text = v->type.id == ATTU_TYPE_NUMERIC;
        attu_type vt = v->type;
        if (as_text && !(v = coerce(c, v, attu_type_make(ATTU_TYPE_TEXT), true, e->position))) return NULL;
        /* rows: counted; with DISTINCT the kept ranks are consecutive
         * (dense_rank), so their number is the largest kept one - OFFSET */
        aggs[0] = count_of(c, cp.distinct ? attu_bx_col(c->pa, ni + 1, t8) : matched);
        if (cp.distinct) aggs[0].agg = AGG_MAX;
        memset(&aggs[1], 0, sizeof aggs[1]);
        aggs[1].agg = AGG_MIN; aggs[1].arg = v; aggs[1].type = v->type;
        naggs = 2;
        attu_bexpr *rows = attu_bx_col(c->pa, 0, t8);
        if (cp.distinct && cp.offset > 0)
            rows = mk_call(c, ATTU_OP_SUB_I, t8, e->position, 2, rows, mk_const_int(c, t8, cp.offset), NULL, NULL);
        value = rows ? mk_call(c, ATTU_OP_SUBQUERY_ONE, v->type, e->position, 2, rows, attu_bx_col(c->pa, 1, v->type), NULL, NULL) : NULL;
        if (value && as_text) value = coerce(c, value, vt, true, e->position);
        break;
    }
    case APPLY_EXISTS:
        aggs[0] = count_of(c, matched);
        naggs = 1;
        value = mk_call(c, ATTU_OP_GT_I, tb, e->position, 2, attu_bx_col(c->pa, 0, t8), mk_const_int(c, t8, 0), NULL, NULL);
        break;
    case APPLY_ANY: case APPLY_ALL: {
        if (cp.nvis != 1) {
            attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, e->position, cp.nvis > 1 ? "subquery has too many columns" : "subquery must return only one column");
            return NULL;
        }
        if (outer_sides(arg) & 2) return decorrelate_param(c, sc, p, e, kind, arg, op);
        attu_bexpr *xo = copy_shift(c, arg, OUTER_BASE);
        attu_bexpr *cmp = xo ? bind_compare_op(c, op, xo, cp.items[0], e->position) : NULL;
        if (!cmp) return NULL;
        /* decisive: TRUE (ANY) or FALSE (ALL); unknown: NULL */
        attu_bexpr *dec = mk_call(c, kind == APPLY_ANY ? ATTU_OP_IS_TRUE : ATTU_OP_IS_FALSE, tb, e->position, 1, cmp, NULL, NULL, NULL);
        attu_bexpr *unk = mk_call(c, ATTU_OP_IS_NULL, tb, e->position, 1, cmp, NULL, NULL, NULL);
        attu_bexpr *fd = dec ? flag_when(c, dec) : NULL, *fu = unk ? flag_when(c, unk) : NULL;
        if (!fd || !fu) return NULL;
        aggs[0] = count_of(c, fd);
        aggs[1] = count_of(c, fu);
        naggs = 2;
        if (!(value = quantified_value(c, kind, 0, e->position))) OOM_NULL(c);
        break;
    }
    }
    if (!value || c->err->set) { if (!c->err->set) attu_error_oom(c->err); return NULL; }
    return push_apply(c, sc, e, inner, corr, ncorr, aggs, naggs, value, win, cp.limit, cp.offset);
}

/* A window spec over a whole partition (frame 1), or a ranking. */
static attu_agg_spec *win_spec(bctx *c, attu_agg_kind k, attu_type t, attu_bexpr *arg, int npart, attu_bexpr **part,
                               int norder, attu_sort_item *order) {
    attu_agg_spec *s = attu_palloc(c->pa, sizeof *s);
    if (!s) OOM_NULL(c);
    s->agg = k; s->type = t; s->arg = arg;
    s->npart = npart; s->part = part;
    s->norder = norder; s->order = order;
    s->frame = k < WIN_ROW_NUMBER ? 1 : 0;
    return s;
}

/* An LP_WINDOW over in adding the n specs (copied) as columns. */
static attu_lplan *mk_window(bctx *c, attu_lplan *in, attu_agg_spec **specs, int n, const char *name) {
    attu_lplan *w = attu_lp_new(c->pa, LP_WINDOW, in->ncols + n);
    attu_agg_spec *all = attu_palloc(c->pa, sizeof *all * (size_t)n);
    if (!w || !all) OOM_NULL(c);
    for (int i = 0; i < n; i++) {
        if (!specs[i]) { if (!c->err->set) attu_error_oom(c->err); return NULL; }
        all[i] = *specs[i];
    }
    w->left = in; w->naggs = n; w->aggs = all;
    memcpy(w->types, in->types, sizeof(attu_type) * (size_t)in->ncols);
    memcpy(w->names, in->names, sizeof(char *) * (size_t)in->ncols);
    for (int i = 0; i < n; i++) { w->types[in->ncols + i] = all[i].type; w->names[in->ncols + i] = (char *)name; }
    w->est_rows = in->est_rows; w->rowid_col = in->rowid_col;
    return w;
}

/* CASE WHEN cond THEN x END (NULL otherwise). */
static attu_bexpr *only_when(bctx *c, attu_bexpr *cond, attu_bexpr *x) {
    attu_bexpr *r = attu_bx_new(c->pa, BX_CASE, x->type, 0);
    attu_bexpr **wh = attu_palloc(c->pa, sizeof(attu_bexpr *)), **th = attu_palloc(c->pa, sizeof(attu_bexpr *));
    attu_bexpr *nul = mk_const_null(c, x->type);
    if (!r || !wh || !th || !nul) OOM_NULL(c);
    wh[0] = cond; th[0] = x;
    r->nwhens = 1; r->whens = wh; r->thens = th; r->else_ = nul;
    return r;
}

/* The comparison of an inequality call: 0 <, 1 <=, 2 >, 3 >=; -1 other. */
static int ineq_kind(const attu_bexpr *e) {
    if (e->kind != BX_CALL || e->nargs != 2) return -1;
    switch (e->op) {
    case ATTU_OP_LT_I: case ATTU_OP_LT_F: case ATTU_OP_LT_S: return 0;
    case ATTU_OP_LE_I: case ATTU_OP_LE_F: case ATTU_OP_LE_S: return 1;
    case ATTU_OP_GT_I: case ATTU_OP_GT_F: case ATTU_OP_GT_S: return 2;
    case ATTU_OP_GE_I: case ATTU_OP_GE_F: case ATTU_OP_GE_S: return 3;
    default: return -1;
    }
}

/* The apply form when the subquery's only correlation is one inequality
 * between an inner expression I and an outer one X (`b.x < a.x`) and its
 * aggregates are count / sum / min / max of inner values: instead of
 * pairing every outer value with every inner row, the inner rows (I not
 * NULL) and the outer rows go through one sort by I / X, and a running
 * aggregate (ROWS UNBOUNDED PRECEDING .. CURRENT ROW) read at each outer
 * row covers exactly the inner rows before it: for I < X ascending with
 * outer rows first among equals, for I <= X inner rows first, for > and >=
 * descending likewise. Outer rows whose X is NULL form a partition of
 * their own (no inner row satisfies a comparison with NULL). P ++ the
 * aggregates, as apply_apply; NULL without an error when the subquery is
 * not of this kind. */
static attu_lplan *apply_range(bctx *c, attu_lplan *p, const pending_join *pj) {
    if (pj->rank || !pj->cond) return NULL;
    attu_bexpr *conj[4];
    if (split_conjuncts(pj->cond, conj, 0, 4) != 1) return NULL;
    int k = ineq_kind(conj[0]);
    if (k < 0) return NULL;
    attu_bexpr *ie = conj[0]->args[0], *xe = conj[0]->args[1];
    if (outer_sides(ie) == 2 && outer_sides(xe) == 1) {
        attu_bexpr *t = ie; ie = xe; xe = t;
        k ^= 2;                                   /* X op I -> I op' X */
    }
    if (outer_sides(ie) != 1 || outer_sides(xe) != 2 || !attu_type_equal(ie->type, xe->type)) return NULL;
    for (int i = 0; i < pj->naggs; i++) {
        const attu_agg_spec *a = &pj->aggs[i];
        if (a->distinct || a->arg2 || !a->arg || (outer_sides(a->arg) & 2) ||
            !(a->agg == AGG_COUNT || a->agg == AGG_SUM || a->agg == AGG_MIN || a->agg == AGG_MAX))
            return NULL;
    }
    attu_type tb = attu_type_make(ATTU_TYPE_BOOL);
    int np = p->ncols, na = pj->naggs, nu = np + 1 + na + 2;
    /* U = inner rows (I not NULL) ++ outer rows:
     * P's columns, the key, the aggregates' arguments, is_outer, X IS NULL */
    attu_bexpr **ue = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)nu);
    attu_bexpr **oe = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)nu);
    char **un = attu_palloc(c->pa, sizeof(char *) * (size_t)nu);
    if (!ue || !oe || !un) OOM_NULL(c);
    attu_bexpr *xo = copy_shift(c, xe, -OUTER_BASE);
    attu_bexpr *inn = mk_call(c, ATTU_OP_IS_NOT_NULL, tb, 0, 1, ie, NULL, NULL, NULL);
    if (!xo || !inn) return NULL;
    attu_lplan *in = filter_local(c, pj->inner, &inn, 1);
    if (!in) return NULL;
    for (int i = 0; i < np; i++) {
        ue[i] = mk_const_null(c, p->types[i]);
        oe[i] = attu_bx_col(c->pa, i, p->types[i]);
        un[i] = p->names[i];
    }
    ue[np] = ie; oe[np] = xo; un[np] = "?key?";
    for (int i = 0; i < na; i++) {
        ue[np + 1 + i] = pj->aggs[i].arg;
        oe[np + 1 + i] = mk_const_null(c, pj->aggs[i].arg->type);
        un[np + 1 + i] = "?arg?";
    }
    int col_outer = np + 1 + na, col_null = col_outer + 1;
    ue[col_outer] = mk_const_int(c, tb, 0); oe[col_outer] = mk_const_int(c, tb, 1); un[col_outer] = "?outer?";
    ue[col_null] = mk_const_int(c, tb, 0);
    oe[col_null] = mk_call(c, ATTU_OP_IS_NULL, tb, 0, 1, copy_shift(c, xo, 0), NULL, NULL, NULL);
    un[col_null] = "?null?";
    for (int i = 0; i < nu; i++) if (!ue[i] || !oe[i]) { if (!c->err->set) attu_error_oom(c->err); return NULL; }
    attu_lplan *l = mk_project(c, in, nu, ue, un), *r = l ? mk_project(c, p, nu, oe, un) : NULL;
    attu_lplan *u = r ? attu_lp_new(c->pa, LP_SETOP, nu) : NULL;
    if (!u) { if (!c->err->set) attu_error_oom(c->err); return NULL; }
    l->rowid_col = r->rowid_col = -1;
    u->left = l; u->right = r; u->setop = ATTU_SETOP_UNION; u->all = true;
    memcpy(u->types, l->types, sizeof(attu_type) * (size_t)nu);
    memcpy(u->names, un, sizeof(char *) * (size_t)nu);
    u->est_rows = l->est_rows + r->est_rows; u->rowid_col = -1;
    /* the running aggregates, partitioned by X IS NULL */
    bool desc = k >= 2, outer_first = k == 0 || k == 2;
    attu_agg_spec **ws = attu_palloc(c->pa, sizeof(attu_agg_spec *) * (size_t)na);
    attu_bexpr **part = attu_palloc(c->pa, sizeof(attu_bexpr *));
    attu_sort_item *ord = attu_palloc(c->pa, sizeof(attu_sort_item) * 2);
    if (!ws || !part || !ord) OOM_NULL(c);
    part[0] = attu_bx_col(c->pa, col_null, tb);
    ord[0].expr = attu_bx_col(c->pa, np, ie->type); ord[0].desc = desc; ord[0].nulls_first = false;
    ord[1].expr = attu_bx_col(c->pa, col_outer, tb); ord[1].desc = outer_first; ord[1].nulls_first = false;
    for (int i = 0; i < na; i++) {
        ws[i] = win_spec(c, pj->aggs[i].agg, pj->aggs[i].type, attu_bx_col(c->pa, np + 1 + i, pj->aggs[i].arg->type), 1, part, 2, ord);
        if (ws[i]) ws[i]->frame = 2;
    }
    attu_lplan *w = mk_window(c, u, ws, na, "agg");
    if (!w) return NULL;
    attu_bexpr *is_outer = attu_bx_col(c->pa, col_outer, tb);
    attu_lplan *f = is_outer ? filter_local(c, w, &is_outer, 1) : NULL;
    if (!f) return NULL;
    f->est_rows = p->est_rows;
    attu_bexpr **pe = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(np + na + 1));
    char **pn = attu_palloc(c->pa, sizeof(char *) * (size_t)(np + na + 1));
    if (!pe || !pn) OOM_NULL(c);
    for (int i = 0; i < np; i++) { pe[i] = attu_bx_col(c->pa, i, p->types[i]); pn[i] = p->names[i]; }
    for (int i = 0; i < na; i++) { pe[np + i] = attu_bx_col(c->pa, nu + i, pj->aggs[i].type); pn[np + i] = "?agg?"; }
    attu_lplan *out = mk_project(c, f, np + na, pe, pn);
    if (out) out->rowid_col = p->rowid_col;
    return out;
}

/* apply_pending for the apply form: P -> P ++ value (see decorrelate_apply).
 *
 * The subquery is evaluated once per distinct combination of the outer
 * columns it reads, not once per outer row, and P is read once:
 *   W = P ++ row number n ++ group g (dense_rank() over the outer columns
 *       read; NULLs are peers, as for DISTINCT) ++ first (row_number()
 *       within g);
 *   J = W LEFT JOIN inner ON the correlated conditions, where only the
 *       first row of each group has join keys (the others' keys are NULL,
 *       so they expand to no pairs and come out once, unmatched);
 *   [the matches of each first row numbered for LIMIT / OFFSET];
 *   the aggregates as windows over each group g (whole partition), so
 *   every row of the group sees its first row's matches;
 *   one row per n (row_number() within n = 1), P's columns ++ the value.
 * Outer rows that repeat a correlation value cost one unmatched row each,
 * not a pass over the inner rows. Float columns (where -0 and 0 are peers
 * yet differ) are not grouped: their rows are each a group. */
static attu_lplan *apply_apply(bctx *c, attu_lplan *p, const pending_join *pj) {
    attu_lplan *range = getenv("ATTU_NO_RANGE_APPLY") ? NULL : apply_range(c, p, pj);
    if (range || c->err->set) return range;
    attu_type tb = attu_type_make(ATTU_TYPE_BOOL), t8 = attu_type_make(ATTU_TYPE_INT64);
    int np = p->ncols, ni = pj->inner->ncols - 1;
    int deps[64], dpos[64], nd = 0;
    collect_deps(pj->cond, OUTER_BASE, deps, dpos, &nd, 64);
    for (int i = 0; i < pj->naggs; i++) collect_deps(pj->aggs[i].arg, OUTER_BASE, deps, dpos, &nd, 64);
    if (pj->rank) for (int i = 0; i < pj->rank->norder; i++) collect_deps(pj->rank->order[i].expr, OUTER_BASE, deps, dpos, &nd, 64);
    collect_deps(pj->value, OUTER_BASE, deps, dpos, &nd, 64);
    bool group = nd > 0 && nd < 64;
    for (int i = 0; i < nd && group; i++)
        if (deps[i] >= np || attu_type_mclass(p->types[deps[i]].id) == ATTU_MC_FLOAT) group = false;
    /* W: n at np, g at np + 1, first at np + 2 (without grouping g is n
     * and every row is first) */
    attu_agg_spec *ws[3];
    int nws = 1;
    ws[0] = win_spec(c, WIN_ROW_NUMBER, t8, NULL, 0, NULL, 0, NULL);
    if (group) {
        attu_sort_item *ord = attu_palloc(c->pa, sizeof(attu_sort_item) * (size_t)nd);
        attu_bexpr **gp = attu_palloc(c->pa, sizeof(attu_bexpr *));
        if (!ord || !gp) OOM_NULL(c);
        for (int i = 0; i < nd; i++) ord[i].expr = attu_bx_col(c->pa, deps[i], p->types[deps[i]]);
        ws[1] = win_spec(c, WIN_DENSE_RANK, t8, NULL, 0, NULL, nd, ord);
        nws = 2;
        attu_lplan *w1 = mk_window(c, p, ws, nws, "?row?");
        if (!w1) return NULL;
        gp[0] = attu_bx_col(c->pa, np + 1, t8);
        ws[0] = win_spec(c, WIN_ROW_NUMBER, t8, NULL, 1, gp, 0, NULL);
        p = mk_window(c, w1, ws, 1, "?first?");
    } else {
        p = mk_window(c, p, ws, 1, "?row?");
    }
    if (!p) return NULL;
    int nw = p->ncols, col_n = np, col_g = group ? np + 1 : np;
    /* LEFT JOIN inner: outer column k -> k, inner column i -> nw + i */
    attu_lplan *j = attu_make_join(c, p, pj->inner, JK_LEFT, pj->cond ? remap_outer(c, pj->cond, nw) : NULL);
    if (!j) return NULL;
    if (group) {
        attu_bexpr *first = mk_call(c, ATTU_OP_EQ_I, tb, 0, 2, attu_bx_col(c->pa, np + 2, t8), mk_const_int(c, t8, 1), NULL, NULL);
        if (!first) return NULL;
        for (int k = 0; k < j->nkeys; k++)
            if (!(j->lkeys[k] = only_when(c, first, j->lkeys[k]))) return NULL;
    }
    attu_lplan *src = j;
    int nj = j->ncols;
    /* which joined rows count: matched ones, within LIMIT / OFFSET */
    attu_bexpr *sel = mk_call(c, ATTU_OP_IS_NOT_NULL, tb, 0, 1, attu_bx_col(c->pa, nw + ni, tb), NULL, NULL, NULL);
    if (pj->rank) {
        attu_bexpr **part = attu_palloc(c->pa, sizeof(attu_bexpr *));
        attu_sort_item *ord = attu_palloc(c->pa, sizeof(attu_sort_item) * (size_t)(pj->rank->norder + 1));
        if (!part || !ord) OOM_NULL(c);
        part[0] = attu_bx_col(c->pa, col_n, t8);
        for (int i = 0; i < pj->rank->norder; i++) {
            ord[i] = pj->rank->order[i];
            if (!(ord[i].expr = remap_outer(c, pj->rank->order[i].expr, nw))) return NULL;
        }
        attu_agg_spec *rk = win_spec(c, pj->rank->agg, t8, NULL, 1, part, pj->rank->norder, ord);
        if (!(src = mk_window(c, j, &rk, 1, "?rank?"))) return NULL;
        attu_bexpr *pos = attu_bx_col(c->pa, nj, t8);
        attu_bexpr *lo = mk_call(c, ATTU_OP_GT_I, tb, 0, 2, pos, mk_const_int(c, t8, pj->offset), NULL, NULL);
        sel = mk_call(c, ATTU_OP_AND, tb, 0, 2, sel, lo, NULL, NULL);
        if (pj->limit >= 0) {
            int64_t top = pj->offset > INT64_MAX - pj->limit ? INT64_MAX : pj->offset + pj->limit;
            attu_bexpr *hi = mk_call(c, ATTU_OP_LE_I, tb, 0, 2, attu_bx_col(c->pa, nj, t8), mk_const_int(c, t8, top), NULL, NULL);
            sel = mk_call(c, ATTU_OP_AND, tb, 0, 2, sel, hi, NULL, NULL);
        }
        nj++;
    }
    if (!sel) { if (!c->err->set) attu_error_oom(c->err); return NULL; }
    /* the aggregates over each group, reading only the rows that count:
     * agg(CASE WHEN sel THEN arg END) OVER (PARTITION BY g); then
     * row_number() OVER (PARTITION BY n) to keep one row per outer row */
    attu_agg_spec **as = attu_palloc(c->pa, sizeof(attu_agg_spec *) * (size_t)(pj->naggs + 1));
    attu_bexpr **gpart = attu_palloc(c->pa, sizeof(attu_bexpr *)), **npart = attu_palloc(c->pa, sizeof(attu_bexpr *));
    if (!as || !gpart || !npart) OOM_NULL(c);
    gpart[0] = attu_bx_col(c->pa, col_g, t8);
    npart[0] = attu_bx_col(c->pa, col_n, t8);
    for (int i = 0; i < pj->naggs; i++) {
        attu_bexpr *arg = remap_outer(c, pj->aggs[i].arg, nw);
        if (!arg || !(arg = only_when(c, sel, arg))) { if (!c->err->set) attu_error_oom(c->err); return NULL; }
        as[i] = win_spec(c, pj->aggs[i].agg, pj->aggs[i].type, arg, 1, gpart, 0, NULL);
    }
    as[pj->naggs] = win_spec(c, WIN_ROW_NUMBER, t8, NULL, 1, npart, 0, NULL);
    attu_lplan *a = mk_window(c, src, as, pj->naggs + 1, "agg");
    if (!a) return NULL;
    a->rowid_col = -1;
    attu_bexpr *one = mk_call(c, ATTU_OP_EQ_I, tb, 0, 2, attu_bx_col(c->pa, nj + pj->naggs, t8), mk_const_int(c, t8, 1), NULL, NULL);
    if (!one) return NULL;
    attu_lplan *f = filter_local(c, a, &one, 1);
    if (!f) return NULL;
    f->est_rows = p->est_rows;
    /* P's columns ++ the aggregates (the value is an expression of them
     * where the subquery stands) */
    attu_bexpr **pe = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(np + pj->naggs + 1));
    char **pn = attu_palloc(c->pa, sizeof(char *) * (size_t)(np + pj->naggs + 1));
    if (!pe || !pn) OOM_NULL(c);
    for (int i = 0; i < np; i++) { pe[i] = attu_bx_col(c->pa, i, p->types[i]); pn[i] = p->names[i]; }
    for (int i = 0; i < pj->naggs; i++) {
        if (!(pe[np + i] = attu_bx_col(c->pa, nj + i, pj->aggs[i].type))) OOM_NULL(c);
        pn[np + i] = "?agg?";
    }
    attu_lplan *out = mk_project(c, f, np + pj->naggs, pe, pn);
    if (out) out->rowid_col = p->rowid_col;   /* the windows kept P's */
    return out;
}

/* ---- the parameterised apply form: any subquery, per distinct outer binding ---------- */

/* Calls fn on every expression node of plan p (every node of every
 * expression of every plan node, children included). */
typedef void (*expr_fn)(attu_bexpr *e, void *ctx);

static void expr_visit(attu_bexpr *e, expr_fn fn, void *ctx) {
    if (!e) return;
    fn(e, ctx);
    for (int i = 0; i < e->nargs; i++) expr_visit(e->args[i], fn, ctx);
    for (int i = 0; i < e->nwhens; i++) { expr_visit(e->whens[i], fn, ctx); expr_visit(e->thens[i], fn, ctx); }
    expr_visit(e->else_, fn, ctx);
    for (int i = 0; i < e->npart; i++) expr_visit(e->part[i], fn, ctx);
    for (int i = 0; i < e->norder; i++) expr_visit(e->order[i].expr, fn, ctx);
}

static void plan_visit(attu_lplan *p, expr_fn fn, void *ctx) {
    if (!p) return;
    expr_visit(p->pred, fn, ctx);
    expr_visit(p->residual, fn, ctx);
    if (p->kind == LP_PROJECT) for (int i = 0; i < p->ncols; i++) expr_visit(p->exprs[i], fn, ctx);
    if (p->kind == LP_VALUES) for (int i = 0; i < p->nrows * p->ncols; i++) expr_visit(p->values[i], fn, ctx);
    for (int i = 0; i < p->nkeys; i++) { expr_visit(p->lkeys[i], fn, ctx); if (p->rkeys) expr_visit(p->rkeys[i], fn, ctx); }
    for (int i = 0; i < p->ngroups; i++) expr_visit(p->groups[i], fn, ctx);
    for (int i = 0; i < p->naggs; i++) {
        attu_agg_spec *a = &p->aggs[i];
        expr_visit(a->arg, fn, ctx);
        expr_visit(a->arg2, fn, ctx);
        for (int k = 0; k < a->npart; k++) expr_visit(a->part[k], fn, ctx);
        for (int k = 0; k < a->norder; k++) expr_visit(a->order[k].expr, fn, ctx);
    }
    for (int i = 0; i < p->nsort; i++) expr_visit(p->sort[i].expr, fn, ctx);
    expr_visit(p->limit_expr, fn, ctx);
    expr_visit(p->offset_expr, fn, ctx);
    for (int i = 0; i < p->nsrfs; i++) {
        expr_visit(p->srfs[i].start, fn, ctx); expr_visit(p->srfs[i].stop, fn, ctx); expr_visit(p->srfs[i].step, fn, ctx);
    }
    plan_visit(p->left, fn, ctx);
    plan_visit(p->right, fn, ctx);
}

static void note_deep(attu_bexpr *e, void *ctx) {
    if (e->kind == BX_COL && (e->col >= 2 * OUTER_BASE || (e->col >= OUTER_BASE && e->col % OUTER_BASE >= OAGG_BASE)))
        *(bool *)ctx = true;
}

/* Whether the subquery plan p needs the parameterised form whatever its
 * shape: it reads a query two or more levels out, or holds a subquery of
 * its own that took that form (whose bindings read this query's row). */
static void note_may_fail(attu_bexpr *e, void *ctx) {
    if (e->kind == BX_CALL && !attu_op_never_fails(e->op)) *(bool *)ctx = true;
}

/* Whether running p may raise an error for some binding of its outer
 * row: an expression that may fail (a division, a cast, an overflow, a
 * nested subquery's value) or a LIMIT / OFFSET count read from a row,
 * which may be negative. Aggregates' overflows are not counted. */
/* Whether a conditional subquery that may fail runs per binding (see
 * attu_bind_params' cond_per_binding); noted in *cond_batched when not. */
static bool cond_per_binding(bctx *c) {
    if (c->params && c->params->cond_per_binding) return true;
    if (c->params && c->params->cond_batched) *c->params->cond_batched = true;
    return false;
}

static bool plan_may_fail(attu_lplan *p) {
    if (!p) return false;
    if (p->kind == LP_APPLY) return true;
    if ((p->limit_expr && p->limit_expr->kind != BX_CONST) || (p->offset_expr && p->offset_expr->kind != BX_CONST))
        return true;
    bool fails = false;
    plan_visit(p, note_may_fail, &fails);
    return fails || plan_may_fail(p->left) || plan_may_fail(p->right);
}

static bool needs_param_form(attu_lplan *p) {
    if (!p) return false;
    if (p->kind == LP_APPLY) return true;
    bool deep = false;
    plan_visit(p, note_deep, &deep);
    if (deep) return true;
    return needs_param_form(p->left) || needs_param_form(p->right);
}

/* An aggregate of the subquery whose arguments read the outer query's
 * columns and none of its own belongs, in PostgreSQL, to the outer query
 * (SELECT (SELECT sum(a.x) FROM b) FROM a aggregates a's rows); attu does
 * not move it there. */
static const attu_agg_spec *outer_level_agg(const attu_lplan *p) {
    if (!p) return NULL;
    if (p->kind == LP_AGG)
        for (int i = 0; i < p->naggs; i++) {
            /* its ORDER BY counts too: string_agg(o.t, ',' ORDER BY b.k)
             * is the subquery's (as attu_bind_agg_level placed it) */
            int s = outer_sides(p->aggs[i].arg) | outer_sides(p->aggs[i].arg2);
            for (int k = 0; k < p->aggs[i].norder; k++) s |= outer_sides(p->aggs[i].order[k].expr);
            if (s == 2) return &p->aggs[i];
        }
    const attu_agg_spec *a = outer_level_agg(p->left);
    return a ? a : outer_level_agg(p->right);
}

static bool check_outer_aggs(bctx *c, const attu_lplan *p, const attu_ast_expr *e) {
    if (!outer_level_agg(p)) return true;
    attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                   "an aggregate in a subquery over only the outer query's columns is not supported "
                   "(PostgreSQL computes it in the outer query)");
    return false;
}

/* The nearest query level expression e reads: 0 for this one, L for a
 * column L levels out; INT_MAX when it reads no column. */
static int min_level(const attu_bexpr *e) {
    if (!e) return INT_MAX;
    if (e->kind == BX_COL) return e->col < OUTER_BASE ? 0 : e->col / OUTER_BASE;
    int m = INT_MAX, x;
    for (int i = 0; i < e->nargs; i++) if ((x = min_level(e->args[i])) < m) m = x;
    for (int i = 0; i < e->nwhens; i++) {
        if ((x = min_level(e->whens[i])) < m) m = x;
        if ((x = min_level(e->thens[i])) < m) m = x;
    }
    if ((x = min_level(e->else_)) < m) m = x;
    for (int i = 0; i < e->norder; i++) if ((x = min_level(e->order[i].expr)) < m) m = x;
    return m;
}

/* Whether e reads an aggregate of the query lv levels out (OAGG_BASE). */
static bool reads_level_agg(const attu_bexpr *e, int lv) {
    if (!e) return false;
    if (e->kind == BX_COL) return e->col / OUTER_BASE == lv && e->col % OUTER_BASE >= OAGG_BASE;
    for (int i = 0; i < e->nargs; i++) if (reads_level_agg(e->args[i], lv)) return true;
    for (int i = 0; i < e->nwhens; i++) if (reads_level_agg(e->whens[i], lv) || reads_level_agg(e->thens[i], lv)) return true;
    for (int i = 0; i < e->norder; i++) if (reads_level_agg(e->order[i].expr, lv)) return true;
    return reads_level_agg(e->else_, lv);
}

/* own (x bound in the columns of the query lv levels out) joins that
 * query's outer aggregates; x's place here reads its result column. */
static attu_bexpr *register_outer_agg(bctx *c, const attu_bexpr *x, attu_bexpr *own, int lv) {
    outer_aggs *oa = c->oaggs;
    if (oa->n >= OUTER_BASE - OAGG_BASE) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, x->position, "too many aggregates of outer queries");
        return NULL;
    }
    if (oa->n == oa->cap) {
        int nc = oa->cap ? oa->cap * 2 : 8;
        attu_bexpr **na = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)nc);
        if (!na) OOM_NULL(c);
        if (oa->n) memcpy(na, oa->agg, sizeof(attu_bexpr *) * (size_t)oa->n);
        oa->agg = na; oa->cap = nc;
    }
    oa->agg[oa->n] = own;
    attu_bexpr *r = attu_bx_col(c->pa, OUTER_BASE * lv + OAGG_BASE + oa->n++, x->type);
    if (!r) OOM_NULL(c);
    r->position = x->position;
    c->saw_outer = true;
    return r;
}

/* GROUPING(args) (AGG_GROUPING, its arguments in part) of a subquery whose
 * arguments read only queries further out belongs to the nearest level
 * they read, as an aggregate does (attu_bind_agg_level); denied_here:
 * this level takes none. */
attu_bexpr *attu_bind_grouping_level(bctx *c, attu_bexpr *x, bool denied_here) {
    int lv = INT_MAX;
    for (int i = 0; i < x->npart; i++) { int l = min_level(x->part[i]); if (l < lv) lv = l; }
    if (lv == INT_MAX || lv == 0) {
        if (!denied_here) return x;
        if (c->in_agg) attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, x->position, "aggregate function calls cannot be nested");
        else attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, x->position, "grouping operations are not allowed in %s", c->clause);
        return NULL;
    }
    const agg_level *al = c->agg_level;
    for (int i = 1; i < lv && al; i++) al = al->up;
    if (!al || !c->oaggs) {
        attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, x->part[0]->position,
                       "arguments to GROUPING must be grouping expressions of the associated query level");
        return NULL;
    }
    if (!al->allow) {
        if (al->in_agg) attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, x->position, "aggregate function calls cannot be nested");
        else attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, x->position, "grouping operations are not allowed in %s", al->clause);
        return NULL;
    }
    attu_bexpr *own = attu_palloc(c->pa, sizeof *own);
    if (!own || !(own->part = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)x->npart))) OOM_NULL(c);
    own->kind = BX_AGG; own->agg = AGG_GROUPING; own->type = x->type; own->position = x->position; own->npart = x->npart;
    for (int i = 0; i < x->npart; i++) if (!(own->part[i] = copy_shift(c, x->part[i], -OUTER_BASE * lv))) OOM_NULL(c);
    return register_outer_agg(c, x, own, lv);
}

attu_bexpr *attu_bind_agg_level(bctx *c, attu_bexpr *x, bool denied_here) {
    int lv = min_level(x);
    /* an aggregate of no column in a row subquery's rewritten condition
     * was written one level out (planner/row_subquery.c) */
    if (c->agg_lift && (lv == INT_MAX || lv == 0)) lv = 1;
    if (lv == INT_MAX || lv == 0) {
        if (denied_here) {
            if (c->in_agg) attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, x->position, "aggregate function calls cannot be nested");
            else attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, x->position, "aggregate functions are not allowed in %s", c->clause);
            return NULL;
        }
        return x;
    }
    if (reads_level_agg(x, lv)) {
        attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, x->position, "aggregate function calls cannot be nested");
        return NULL;
    }
    const agg_level *al = c->agg_level;
    for (int i = 1; i < lv && al; i++) al = al->up;
    if (!al || !c->oaggs) {
        attu_error_set(c->err, ATTU_SQLSTATE_INTERNAL, x->position, "aggregate of an outer query without its level");
        return NULL;
    }
    if (!al->allow) {
        if (al->in_agg) attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, x->position, "aggregate function calls cannot be nested");
        else attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, x->position, "aggregate functions are not allowed in %s", al->clause);
        return NULL;
    }
    /* the aggregate in its own level's columns: every column it reads is
     * lv or more levels out, so all move lv levels nearer */
    attu_bexpr *own = copy_shift(c, x, -OUTER_BASE * lv);
    if (!own) OOM_NULL(c);
    if (x->norder) {
        if (!(own->order = attu_palloc(c->pa, sizeof(attu_sort_item) * (size_t)x->norder))) OOM_NULL(c);
        for (int i = 0; i < x->norder; i++) {
            own->order[i] = x->order[i];
            if (!(own->order[i].expr = copy_shift(c, x->order[i].expr, -OUTER_BASE * lv))) OOM_NULL(c);
        }
    }
    return register_outer_agg(c, x, own, lv);
}

/* The outer references of a subquery plan, each turned into a parameter. */
typedef struct param_refs {
    bctx        *c;
    int          n, cap;
    int         *col;      /* the reference (OUTER_BASE * level + k) */
    int         *slot;
    attu_type   *type;
    int         *pos;      /* its first position (42803's) */
    bool         failed;
} param_refs;

static void to_param(attu_bexpr *e, void *ctx) {
    param_refs *r = ctx;
    if (e->kind != BX_COL || e->col < OUTER_BASE || r->failed) return;
    int i = 0;
    while (i < r->n && r->col[i] != e->col) i++;
    if (i == r->n) {
        if (r->n == r->cap) {
            int nc = r->cap ? r->cap * 2 : 8;
            int *ncol = attu_palloc(r->c->pa, sizeof(int) * (size_t)nc), *nslot = attu_palloc(r->c->pa, sizeof(int) * (size_t)nc);
            attu_type *nt = attu_palloc(r->c->pa, sizeof(attu_type) * (size_t)nc);
            int *npos = attu_palloc(r->c->pa, sizeof(int) * (size_t)nc);
            if (!ncol || !nslot || !nt || !npos) { r->failed = true; return; }
            if (r->n) {
                memcpy(ncol, r->col, sizeof(int) * (size_t)r->n);
                memcpy(nslot, r->slot, sizeof(int) * (size_t)r->n);
                memcpy(nt, r->type, sizeof(attu_type) * (size_t)r->n);
                memcpy(npos, r->pos, sizeof(int) * (size_t)r->n);
            }
            r->col = ncol; r->slot = nslot; r->type = nt; r->pos = npos; r->cap = nc;
        }
        r->col[i] = e->col;
        r->pos[i] = e->position;
        r->slot[i] = (*r->c->next_param)++;
        r->type[i] = e->type;
        r->n++;
    }
    e->kind = BX_PARAM;
    e->col = r->slot[i];
}

static attu_lplan *mk_limit(bctx *c, attu_lplan *in, int64_t limit) {
    attu_lplan *l = attu_lp_new(c->pa, LP_LIMIT, in->ncols);
    if (!l) OOM_NULL(c);
    memcpy(l->types, in->types, sizeof(attu_type) * (size_t)in->ncols);
    memcpy(l->names, in->names, sizeof(char *) * (size_t)in->ncols);
    l->left = in; l->limit = limit; l->offset = 0;
    l->est_rows = in->est_rows < (double)limit ? in->est_rows : (double)limit;
    return l;
}

/* The parameters of a correlated subquery p (bound with the enclosing
 * scope as its outer row): every outer reference in p becomes a parameter
 * slot (to_param), bound by keys[i] (over the enclosing scope) into
 * slots[i]; keys and slots have room for `extra` more. A reference one
 * level nearer is a column of the enclosing plan, or (from two levels
 * out) a reference of the enclosing query to its own outer row, which
 * makes it correlated in turn. A reference to an aggregate of the
 * enclosing level (see OAGG_BASE) is keyed by the aggregate and sets
 * *post_agg (the subquery runs after the aggregation); with post_agg NULL
 * (FROM) it is 42803. Returns the number of references, -1 on error. */
static int param_keys(bctx *c, attu_lplan *p, int extra, attu_bexpr ***keys_out, int **slots_out, bool *post_agg) {
    if (!c->next_param && !(c->next_param = attu_palloc(c->pa, sizeof(int)))) return attu_error_oom(c->err);
    param_refs refs = { c, 0, 0, NULL, NULL, NULL, NULL, false };
    plan_visit(p, to_param, &refs);
    if (refs.failed) return attu_error_oom(c->err);
    attu_bexpr **keys = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(refs.n + extra + 1));
    int *slots = attu_palloc(c->pa, sizeof(int) * (size_t)(refs.n + extra + 1));
    if (!keys || !slots) return attu_error_oom(c->err);
    for (int i = 0; i < refs.n; i++) {
        int k = refs.col[i] - OUTER_BASE;
        if (k >= OAGG_BASE && k < OUTER_BASE) {
            if (!post_agg)
                return attu_error_set(c->err, ATTU_SQLSTATE_GROUPING, refs.pos[i],
                                      "aggregate functions are not allowed in FROM clause of their own query level");
            if (!(keys[i] = copy_shift(c, c->oaggs->agg[k - OAGG_BASE], 0))) return attu_error_oom(c->err);
            *post_agg = true;
        } else if (!(keys[i] = attu_bx_col(c->pa, k, refs.type[i]))) return attu_error_oom(c->err);
        else keys[i]->position = refs.pos[i];
        if (k >= OUTER_BASE) c->saw_outer = true;
        slots[i] = refs.slot[i];
    }
    *keys_out = keys;
    *slots_out = slots;
    return refs.n;
}

/* The parameterised apply form of a correlated subquery, the general
 * fallback, as PostgreSQL's SubPlan: every outer reference in the bound
 * subquery p (at any depth, in any clause) becomes a parameter, bound
 * from the outer row by an LP_APPLY that runs p once per distinct binding
 * (engine/executor_apply.c). What it adds to the outer scope, after the
 * subquery's row count:
 *   scalar:     p's first row (of at most 2); the value is
 *               ATTU_OP_SUBQUERY_ONE(rows, value): 21000 where it is used
 *               with more than one row, NULL with none;
 *   EXISTS:     nothing (p cut to 1 row); the value is rows > 0;
 *   x op ANY / ALL: x is a parameter too, and p is wrapped in an
 *               aggregate counting the decisive (TRUE for ANY, FALSE for
 *               ALL) and the NULL comparisons, as decorrelate_apply.
 * A reference two levels out becomes a reference one level out of this
 * query's plan (the key binding its parameter), so the enclosing
 * subquery is correlated in turn. */
static attu_bexpr *decorrelate_param(bctx *c, const scope *sc, attu_lplan *p, const attu_ast_expr *e,
                                     apply_kind kind, attu_bexpr *arg, attu_ast_binary_op op) {
    attu_type tb = attu_type_make(ATTU_TYPE_BOOL), t8 = attu_type_make(ATTU_TYPE_INT64);
    if (!check_outer_aggs(c, p, e)) return NULL;
    if ((kind == APPLY_SCALAR || kind == APPLY_ANY || kind == APPLY_ALL) && p->ncols != 1) {
        attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, e->position,
                       p->ncols > 1 && kind != APPLY_SCALAR ? "subquery has too many columns" : "subquery must return only one column");
        return NULL;
    }
    bool post_agg = false;
    attu_bexpr **keys;
    int *slots;
    int nref = param_keys(c, p, arg ? 1 : 0, &keys, &slots, &post_agg);
    if (nref < 0) return NULL;
    int nk = nref + (arg ? 1 : 0);
    attu_lplan *sub = NULL;
    switch (kind) {
    case APPLY_SCALAR: sub = mk_limit(c, p, 2); break;
    case APPLY_EXISTS: sub = mk_limit(c, p, 1); break;
    case APPLY_ANY: case APPLY_ALL: {
        /* an untyped literal takes the subquery column's type */
        if (arg->type.id == ATTU_TYPE_UNKNOWN && !(arg = coerce(c, arg, p->types[0], false, arg->position))) return NULL;
        keys[nref] = arg;
        slots[nref] = (*c->next_param)++;
        attu_bexpr *pa = attu_bx_new(c->pa, BX_PARAM, arg->type, arg->position);
        if (!pa) OOM_NULL(c);
        pa->col = slots[nref];
        attu_bexpr *cmp = bind_compare_op(c, op, pa, attu_bx_col(c->pa, 0, p->types[0]), e->position);
        if (!cmp) return NULL;
        attu_bexpr *dec = mk_call(c, kind == APPLY_ANY ? ATTU_OP_IS_TRUE : ATTU_OP_IS_FALSE, tb, e->position, 1, cmp, NULL, NULL, NULL);
        attu_bexpr *unk = mk_call(c, ATTU_OP_IS_NULL, tb, e->position, 1, cmp, NULL, NULL, NULL);
        attu_bexpr *fd = dec ? flag_when(c, dec) : NULL, *fu = unk ? flag_when(c, unk) : NULL;
        attu_agg_spec *aggs = attu_palloc(c->pa, sizeof *aggs * 2);
        attu_lplan *a = attu_lp_new(c->pa, LP_AGG, 2);
        if (!fd || !fu || !aggs || !a) { if (!c->err->set) attu_error_oom(c->err); return NULL; }
        aggs[0] = count_of(c, fd);
        aggs[1] = count_of(c, fu);
        a->left = p; a->naggs = 2; a->aggs = aggs;
        a->types[0] = a->types[1] = t8;
        a->names[0] = "?decisive?"; a->names[1] = "?unknown?";
        a->est_rows = 1;
        sub = a;
        break;
    }
    }
    if (!sub) return NULL;
    int post_off = 0;     /* after the earlier post-aggregation values */
    for (int i = 0; i < c->npending; i++) if (c->pending[i].post_agg) post_off += 1 + c->pending[i].param_sub->ncols;
    pending_join *pj = pending_add(c);
    if (!pj) return NULL;
    pj->param_sub = sub;
    pj->param_slots = slots;
    pj->outer_keys = keys;
    pj->nkeys = nk;
    pj->post_agg = post_agg;
    /* rows ++ the subquery's columns: hidden columns of the outer scope,
     * each one value per group where the keys' columns are grouped (or,
     * after the aggregation, one per group anyway) */
    scope *msc = (scope *)sc;
    int base = msc->n;
    pj->scope_base = base;
    int deps[64], dpos[64], nd = 0;
    for (int i = 0; i < nk; i++) collect_deps(keys[i], 0, deps, dpos, &nd, 64);
    for (int i = 0; i <= sub->ncols; i++) {
        if (!scope_push(c, msc, NULL, i ? "?value?" : "?rows?", i ? sub->types[i - 1] : t8, true, false, -1) ||
            !set_deps(c, msc, base + i, deps, dpos, nd)) return NULL;
        msc->cols[base + i].post_agg = post_agg;
        msc->cols[base + i].post_off = post_off + i;
    }
    attu_bexpr *rows = attu_bx_col(c->pa, base, t8), *v = NULL;
    if (!rows) OOM_NULL(c);
    switch (kind) {
    case APPLY_SCALAR:
        v = mk_call(c, ATTU_OP_SUBQUERY_ONE, sub->types[0], e->position, 2, rows, attu_bx_col(c->pa, base + 1, sub->types[0]), NULL, NULL);
        break;
    case APPLY_EXISTS:
        v = mk_call(c, ATTU_OP_GT_I, tb, e->position, 2, rows, mk_const_int(c, t8, 0), NULL, NULL);
        break;
    case APPLY_ANY: case APPLY_ALL: {
        if (!(v = quantified_value(c, kind, base + 1, e->position))) OOM_NULL(c);
        break;
    }
    }
    /* a binding whose run failed has a negative count: its error is raised
     * where a row uses the value (ATTU_OP_SUBQUERY_ONE; the scalar form's
     * already is), at most one row for the others */
    if (v && kind != APPLY_SCALAR) v = mk_call(c, ATTU_OP_SUBQUERY_ONE, tb, e->position, 2, rows, v, NULL, NULL);
    if (!v || c->err->set) { if (!c->err->set) attu_error_oom(c->err); return NULL; }
    v->position = e->position;
    return v;
}

/* apply_pending for the parameterised form: P -> P ++ rows ++ the
 * subquery's first row (see decorrelate_param). */
static attu_lplan *apply_param(bctx *c, attu_lplan *p, const pending_join *pj) {
    attu_lplan *sub = pj->param_sub;
    int np = p->ncols, n = np + 1 + sub->ncols;
    attu_lplan *a = attu_lp_new(c->pa, LP_APPLY, n);
    if (!a) OOM_NULL(c);
    a->left = p; a->right = sub;
    a->nkeys = pj->nkeys;
    a->lkeys = pj->outer_keys;
    a->rkeys = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(pj->nkeys + 1));   /* none: NULLs */
    a->params = pj->param_slots;
    if (!a->rkeys) OOM_NULL(c);
    for (int i = 0; i < np; i++) { a->types[i] = p->types[i]; a->names[i] = p->names[i]; }
    a->types[np] = attu_type_make(ATTU_TYPE_INT64); a->names[np] = "?rows?";
    for (int i = 0; i < sub->ncols; i++) { a->types[np + 1 + i] = sub->types[i]; a->names[np + 1 + i] = "?value?"; }
    a->est_rows = p->est_rows;
    a->rowid_col = p->rowid_col;
    return a;
}

static attu_lplan *apply_param(bctx *c, attu_lplan *p, const pending_join *pj);

/* FROM l, LATERAL (q) alias (or l [LEFT] JOIN LATERAL (q) alias ON ...):
 * q is bound with l's columns visible as its outer row (ls, the scope of
 * l, whose column i is l's output column i). Correlated, every reference
 * to l becomes a parameter as in decorrelate_param, and an LP_APPLY with
 * all set runs q once per distinct binding and pairs each l row with all
 * of its binding's rows, in l's order: l ++ q's columns (*lateral set;
 * the caller sets srf_outer and residual for a LEFT JOIN's ON). Not
 * correlated, q is an ordinary derived table for the caller to join
 * (*lateral clear). q's columns go to rs, under the alias. NULL on error. */
static attu_lplan *bind_lateral(bctx *c, const attu_ast_from *f, const scope *ls, attu_lplan *l, scope *rs, bool *lateral) {
    *lateral = false;
    /* no aggregate or window of this level in FROM (42803 for an
     * aggregate of l's columns alone, as PostgreSQL) */
    bool sa = c->allow_agg, sw = c->allow_window;
    const char *sclause = c->clause;
    c->allow_agg = false; c->allow_window = false; c->clause = "FROM clause of their own query level";
    cte_def *save = c->ctes;
    bool corr = false;
    /* its row columns carry their items, as a derived table's */
    const attu_ast_query *save_carry = c->carry_query;
    c->carry_query = f->u.subquery.query;
    c->carry_at = c->carry_cnt = NULL;
    attu_lplan *q = bind_sub(c, ls, f->u.subquery.query, &corr);
    carried cr = { q ? q->ncols : 0, 0, c->carry_at, c->carry_cnt };
    if (cr.at) { cr.n0 = c->carry_n0; cr.ncarried = c->carry_total; }
    c->carry_query = save_carry;
    c->carry_at = c->carry_cnt = NULL;
    c->ctes = save;
    c->allow_agg = sa; c->allow_window = sw; c->clause = sclause;
    if (!q) return NULL;
    int source = c->next_source++;
    for (int i = 0; i < q->ncols; i++) {
        const char *cn = i < f->column_aliases.n && i < cr.n0 ? f->column_aliases.items[i] : q->names[i];
        if (!push_carried(c, rs, f->alias, cn, q, &cr, i, source)) return NULL;
    }
    if (!corr) return q;
    /* l's columns (no aggregate of this level: 42803) */
    attu_bexpr **keys;
    int *slots;
    int nref = param_keys(c, q, 0, &keys, &slots, NULL);
    if (nref < 0) return NULL;
    int nl = l->ncols, n = nl + q->ncols;
    attu_lplan *a = attu_lp_new(c->pa, LP_APPLY, n);
    if (!a) OOM_NULL(c);
    a->left = l; a->right = q;
    a->all = true;
    a->nkeys = nref;
    a->lkeys = keys;
    a->rkeys = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(nref + 1));   /* none: NULLs */
    a->params = slots;
    if (!a->rkeys) OOM_NULL(c);
    for (int i = 0; i < nl; i++) { a->types[i] = l->types[i]; a->names[i] = l->names[i]; }
    for (int i = 0; i < q->ncols; i++) { a->types[nl + i] = q->types[i]; a->names[nl + i] = q->names[i]; }
    a->est_rows = l->est_rows * (q->est_rows > 1 ? q->est_rows : 1);
    a->rowid_col = -1;
    *lateral = true;
    return a;
}

/* Applies the pending correlated subqueries that run over the FROM rows,
 * keeping those that read this query's aggregates (post_agg) pending for
 * the AGG node's output: in their place P gets NULL placeholders, so the
 * later subqueries' values stay at their scope positions. */
static attu_lplan *apply_pending_pre_agg(bctx *c, attu_lplan *p) {
    int nkeep = 0;
    pending_join *keep = attu_palloc(c->pa, sizeof *keep * (size_t)(c->npending + 1));
    if (!keep) OOM_NULL(c);
    for (int i = 0; i < c->npending; i++) {
        pending_join *pj = &c->pending[i];
        if (pj->post_agg) {
            keep[nkeep++] = *pj;
            int np = p->ncols, w = 1 + pj->param_sub->ncols;
            attu_bexpr **pe = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(np + w));
            char **pn = attu_palloc(c->pa, sizeof(char *) * (size_t)(np + w));
            if (!pe || !pn) OOM_NULL(c);
            for (int k = 0; k < np; k++) { pe[k] = attu_bx_col(c->pa, k, p->types[k]); pn[k] = p->names[k]; }
            for (int k = 0; k < w; k++) {
                pe[np + k] = mk_const_null(c, k ? pj->param_sub->types[k - 1] : attu_type_make(ATTU_TYPE_INT64));
                pn[np + k] = "?later?";
                if (!pe[np + k]) OOM_NULL(c);
            }
            int rowid = p->rowid_col;
            if (!(p = mk_project(c, p, np + w, pe, pn))) return NULL;
            p->rowid_col = rowid;
            continue;
        }
        pending_join one = *pj;
        pending_join *save = c->pending;
        int nsave = c->npending;
        c->pending = &one; c->npending = 1;
        p = apply_pending(c, p);
        c->pending = save; c->npending = nsave;
        if (!p) return NULL;
    }
    c->pending = keep;
    c->npending = nkeep;
    return p;
}

/* Applies the pending correlated-subquery joins to the plan. */
attu_lplan *attu_apply_pending(bctx *c, attu_lplan *p) { return apply_pending(c, p); }

static attu_lplan *apply_pending(bctx *c, attu_lplan *p) {
    for (int i = 0; i < c->npending; i++) {
        pending_join *pj = &c->pending[i];
        if (pj->param_sub) {
            if (!(p = apply_param(c, p, pj))) return NULL;
            continue;
        }
        if (!pj->sub) {
            if (!(p = pj->apply ? apply_apply(c, p, pj) : apply_general(c, p, pj))) return NULL;
            continue;
        }
        attu_bexpr *conj[64];
        int n = 0;
        for (int k = 0; k < pj->nkeys && k < 64; k++) {
            attu_bexpr *r = attu_bx_col(c->pa, p->ncols + k, pj->sub->types[k]);
            conj[n] = bind_compare_op(c, ATTU_BINOP_EQ, pj->outer_keys[k], r, 0);
            if (!conj[n]) return NULL;
            n++;
        }
        int rowid = p->rowid_col;
        p = attu_make_join(c, p, pj->sub, JK_LEFT, and_all(c, conj, n));
        if (!p) return NULL;
        p->rowid_col = rowid;
    }
    c->npending = 0;
    c->pending = NULL;
    return p;
}

static bool reads_any_col(const attu_bexpr *e) {
    if (!e) return false;
    if (e->kind == BX_COL) return true;
    for (int i = 0; i < e->nargs; i++) if (reads_any_col(e->args[i])) return true;
    for (int i = 0; i < e->nwhens; i++) if (reads_any_col(e->whens[i]) || reads_any_col(e->thens[i])) return true;
    return reads_any_col(e->else_);
}

/* Raises the first deferred subquery error in e (deferred_error), if any. */
static bool raise_deferred(bctx *c, const attu_bexpr *e) {
    if (!e) return false;
    if (e->kind == BX_CALL && e->op == ATTU_OP_SUBQUERY_ERROR && e->nargs == 1 && e->args[0]->kind == BX_CONST) {
        const attu_bexpr *k = e->args[0];
        char state[6] = "XX000";
        if (k->slen >= 5) memcpy(state, k->s, 5);
        attu_error_set(c->err, state, 0, "%.*s", k->slen >= 5 ? (int)(k->slen - 5) : 0, k->slen >= 5 ? k->s + 5 : "");
        return true;
    }
    for (int i = 0; i < e->nargs; i++) if (raise_deferred(c, e->args[i])) return true;
    for (int i = 0; i < e->nwhens; i++) if (raise_deferred(c, e->whens[i]) || raise_deferred(c, e->thens[i])) return true;
    return raise_deferred(c, e->else_);
}

/* Where an uncorrelated subquery's run (or its planning: plan_time)
 * failed with c->err inside a part of an expression that only some rows
 * evaluate (c->cond_depth): the error as an ATTU_OP_SUBQUERY_ERROR of
 * type t, raised by the rows that evaluate it, as PostgreSQL runs such an
 * initplan only when a row first needs its value. An error of planning
 * (a constant 1 / 0 folded) is raised still unless PostgreSQL's folding
 * drops the branch (rewrite.c's plan_time_reach: CASE WHEN false). NULL
 * with c->err set elsewhere, and for errors that stop a query wherever
 * they happen (resources, cancellation, internal). */
static attu_bexpr *deferred_error(bctx *c, const scope *sc, const attu_ast_expr *e, attu_type t, bool plan_time) {
    const char *st = c->err->sqlstate;
    if (!c->err->set || c->cond_depth <= 0 || !strncmp(st, "53", 2) || !strncmp(st, "54", 2) ||
        !strncmp(st, "57", 2) || !strncmp(st, "58", 2) || !strncmp(st, "XX", 2))
        return NULL;
    attu_error saved = *c->err;
    attu_error_clear(c->err);
    /* the compared value of IN / ANY is bound still (its own errors) */
    if (e->kind == ATTU_EXPR_IN_SUBQUERY || e->kind == ATTU_EXPR_QUANTIFIED) {
        attu_bexpr *arg = bind_expr(c, sc, e->kind == ATTU_EXPR_IN_SUBQUERY ? e->u.in_subquery.arg : e->u.quantified.arg);
        if (!arg) return NULL;
    }
    size_t ml = strlen(saved.message);
    char *text = attu_palloc(c->pa, ml + 6);
    attu_bexpr *k = attu_bx_new(c->pa, BX_CONST, attu_type_make(ATTU_TYPE_TEXT), e->position);
    if (!text || !k) OOM_NULL(c);
    memcpy(text, saved.sqlstate, 5);
    memcpy(text + 5, saved.message, ml + 1);
    k->s = text; k->slen = ml + 5;
    attu_bexpr *x = mk_call(c, ATTU_OP_SUBQUERY_ERROR, t, e->position, 1, k, NULL, NULL, NULL);
    if (!x) OOM_NULL(c);
    x->aux = plan_time;
    return x;
}

attu_bexpr *attu_bind_subquery_expr(bctx *c, const scope *sc, const attu_ast_expr *e) {
    const attu_ast_query *q = e->kind == ATTU_EXPR_IN_SUBQUERY ? e->u.in_subquery.query
                            : e->kind == ATTU_EXPR_QUANTIFIED ? e->u.quantified.query : e->u.subquery.query;
    if (e->kind == ATTU_EXPR_QUANTIFIED && (e->u.quantified.op < ATTU_BINOP_EQ || e->u.quantified.op > ATTU_BINOP_GE)) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "operator %s is not supported with ANY / ALL",
                       e->u.quantified.op_text ? e->u.quantified.op_text : "?");
        return NULL;
    }
    bool corr;
    attu_lplan *p = bind_sub(c, sc, q, &corr);
    if (!p) return NULL;
    note_subq_name(c, e, p);
    if (corr) {
        if (e->kind == ATTU_EXPR_SUBQUERY && p->ncols != 1) {
            attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, e->position, "subquery must return only one column");
            return NULL;
        }
        if (!check_outer_aggs(c, p, e)) return NULL;
        /* no keyed or windowed form reads two levels out; and where only
         * some rows reach the subquery (a CASE branch, COALESCE's later
         * arguments, an AND / OR operand), one that may fail runs per
         * binding when the batch form failed (attu_bind_params'
         * cond_per_binding), keeping each binding's error for the rows
         * that use its value (executor_apply.c), as PostgreSQL runs it
         * only for them */
        if (needs_param_form(p) || (c->cond_depth > 0 && plan_may_fail(p) && cond_per_binding(c))) {
            if (e->kind == ATTU_EXPR_SUBQUERY) return decorrelate_param(c, sc, p, e, APPLY_SCALAR, NULL, 0);
            if (e->kind == ATTU_EXPR_EXISTS) return decorrelate_param(c, sc, p, e, APPLY_EXISTS, NULL, 0);
            bool in = e->kind == ATTU_EXPR_IN_SUBQUERY;
            attu_bexpr *arg = bind_expr(c, sc, in ? e->u.in_subquery.arg : e->u.quantified.arg);
            if (!arg) return NULL;
            attu_bexpr *v = decorrelate_param(c, sc, p, e, !in && e->u.quantified.all ? APPLY_ALL : APPLY_ANY, arg,
                                              in ? ATTU_BINOP_EQ : e->u.quantified.op);
            if (v && in && e->u.in_subquery.negated)
                v = mk_call(c, ATTU_OP_NOT, attu_type_make(ATTU_TYPE_BOOL), e->position, 1, v, NULL, NULL, NULL);
            return v;
        }
        if (e->kind == ATTU_EXPR_SUBQUERY)
            return p->kind == LP_PROJECT && p->left && p->left->kind == LP_AGG ? decorrelate_scalar(c, sc, q, p, e)
                                                                               : decorrelate_rows(c, sc, q, p, e);
        /* an aggregate without GROUP BY or HAVING is one row: EXISTS is
         * TRUE, x op ANY / ALL (IN) is x op its value */
        bool one_row = p->kind == LP_PROJECT && p->left && p->left->kind == LP_AGG && p->left->ngroups == 0 &&
                       q->kind == ATTU_QUERY_SELECT && !q->u.select.group_by.n && !q->u.select.having && !q->limit && !q->offset;
        if (e->kind == ATTU_EXPR_EXISTS)
            return one_row ? mk_const_int(c, attu_type_make(ATTU_TYPE_BOOL), 1) : decorrelate_apply(c, sc, q, p, e, APPLY_EXISTS, NULL, 0);
        /* x IN (...) is x = ANY (...); NOT IN its negation */
        bool in = e->kind == ATTU_EXPR_IN_SUBQUERY;
        attu_bexpr *arg = bind_expr(c, sc, in ? e->u.in_subquery.arg : e->u.quantified.arg);
        if (!arg) return NULL;
        if (one_row && p->ncols == 1) {
            attu_bexpr *v = decorrelate_scalar(c, sc, q, p, e);
            attu_bexpr *r = v ? bind_compare_op(c, in ? ATTU_BINOP_EQ : e->u.quantified.op, arg, v, e->position) : NULL;
            if (r && in && e->u.in_subquery.negated)
                r = mk_call(c, ATTU_OP_NOT, attu_type_make(ATTU_TYPE_BOOL), e->position, 1, r, NULL, NULL, NULL);
            return r;
        }
        attu_bexpr *v = decorrelate_apply(c, sc, q, p, e, !in && e->u.quantified.all ? APPLY_ALL : APPLY_ANY, arg,
                                          in ? ATTU_BINOP_EQ : e->u.quantified.op);
        if (v && in && e->u.in_subquery.negated)
            v = mk_call(c, ATTU_OP_NOT, attu_type_make(ATTU_TYPE_BOOL), e->position, 1, v, NULL, NULL, NULL);
        return v;
    }
    if (e->kind != ATTU_EXPR_EXISTS && p->ncols != 1) {
        /* PostgreSQL's words: a scalar subquery "must return only one
         * column", IN / ANY / ALL's "has too many columns" */
        attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, e->position,
                       p->ncols > 1 && e->kind != ATTU_EXPR_SUBQUERY ? "subquery has too many columns"
                                                                     : "subquery must return only one column");
        return NULL;
    }
    attu_type b = attu_type_make(ATTU_TYPE_BOOL);
    attu_type vt = e->kind == ATTU_EXPR_SUBQUERY ? p->types[0] : b;
    /* a query only described is not planned: the subquery's constants
     * are not folded (CREATE TABLE t AS SELECT (SELECT 1 / 0) WITH NO DATA) */
    attu_lplan *rp = c->params && c->params->describe_only ? p : attu_rewrite(c->pa, p, c->err);
    if (!rp) return deferred_error(c, sc, e, vt, true);
    p = rp;
    attu_column **cols = NULL;
    size_t n = 0;
    if (!run_scalar_list(c, p, e, &cols, &n)) return deferred_error(c, sc, e, vt, false);
    attu_bexpr *r = NULL;
    if (e->kind == ATTU_EXPR_EXISTS) {
        r = mk_const_int(c, b, n > 0);
    } else if (e->kind == ATTU_EXPR_SUBQUERY) {
        if (n > 1) {
            attu_error_set(c->err, ATTU_SQLSTATE_CARDINALITY, e->position, "more than one row returned by a subquery used as an expression");
            r = deferred_error(c, sc, e, vt, false);
        } else if (n == 0) r = mk_const_null(c, p->types[0]);
        else r = const_from_column(c, cols[0], 0, p->types[0], e->position);
        if (r) r->position = e->position;
    } else if (e->kind == ATTU_EXPR_QUANTIFIED) {
        /* x op ANY (rows): OR of the comparisons (FALSE when empty);
         * x op ALL (rows): AND of them (TRUE when empty) */
        bool all = e->u.quantified.all;
        attu_bexpr *arg = param_as_column(c, bind_expr(c, sc, e->u.quantified.arg), p->types[0]);
        if (arg && n > MAX_IN_VALUES)
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "ANY / ALL over more than %d rows is not supported", MAX_IN_VALUES);
        else if (arg) {
            attu_bexpr **cmp = attu_palloc(c->pa, sizeof *cmp * (n ? n : 1));
            bool built = cmp != NULL;
            if (!built) attu_error_oom(c->err);
            for (size_t i = 0; i < n && built; i++) {
                attu_bexpr *v = const_from_column(c, cols[0], i, p->types[0], e->position);
                built = v && (cmp[i] = bind_compare_op(c, e->u.quantified.op, arg, v, e->position));
            }
            if (built) r = n ? fold_pairwise(c, all ? ATTU_OP_AND : ATTU_OP_OR, cmp, (int)n, e->position)
                             : mk_const_int(c, b, all ? 1 : 0);
        }
    } else {
        attu_bexpr *arg = param_as_column(c, bind_expr(c, sc, e->u.in_subquery.arg), p->types[0]);
        if (arg && n > MAX_IN_VALUES)
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "IN (subquery) with more than %d rows is not supported", MAX_IN_VALUES);
        else if (arg) {
            attu_bexpr **eq = attu_palloc(c->pa, sizeof *eq * (n ? n : 1));
            bool built = eq != NULL;
            if (!built) attu_error_oom(c->err);
            for (size_t i = 0; i < n && built; i++) {
                attu_bexpr *v = const_from_column(c, cols[0], i, p->types[0], e->position);
                built = v && (eq[i] = bind_compare_op(c, ATTU_BINOP_EQ, arg, v, e->position));
            }
            /* (an empty list: FALSE) */
            if (built) r = n ? fold_pairwise(c, ATTU_OP_OR, eq, (int)n, e->position) : mk_const_int(c, b, 0);
            if (r && e->u.in_subquery.negated) r = mk_call(c, ATTU_OP_NOT, b, e->position, 1, r, NULL, NULL, NULL);
        }
    }
    free_cols(cols, p->ncols);
    return c->err->set ? NULL : r;
}

/* WHERE [NOT] EXISTS (correlated subquery) -> semi / anti join of the
 * current plan with the subquery's FROM; equalities between inner and outer
 * columns become keys, other correlated conditions the join's residual. */
static attu_lplan *bind_exists_join(bctx *c, attu_lplan *p, const scope *sc, const attu_ast_expr *e, bool negated) {
    const attu_ast_query *q = e->u.subquery.query;
    bool corr;
    attu_lplan *sub = bind_sub(c, sc, q, &corr);
    if (!sub) return NULL;
    if (!corr) return (attu_lplan *)1;     /* caller binds it as a constant */
    /* reading two levels out: the parameterised form, as an expression */
    if (needs_param_form(sub) || outer_level_agg(sub)) return (attu_lplan *)1;
    /* expected shape: PROJECT over FILTER over the FROM plan; ORDER BY,
     * DISTINCT and a LIMIT other than 0 (without OFFSET) do not change
     * whether a row exists. Any other shape is left to the caller, which
     * binds it as an expression (the apply form, or its 0A000). */
    attu_lplan *x = sub;
    if (x->kind == LP_PROJECT && x->left && (x->left->kind == LP_LIMIT || x->left->kind == LP_SORT)) x = x->left;
    if (x->kind == LP_LIMIT) {
        if (x->limit == 0 || x->offset > 0 || x->limit_expr) return (attu_lplan *)1;
        x = x->left;
    }
    if (x && x->kind == LP_SORT) x = x->left;
    if (x && x->kind == LP_DISTINCT) x = x->left;
    attu_lplan *f = x && x->kind == LP_PROJECT ? x->left : NULL;
    if (!f || f->kind != LP_FILTER || q->kind != ATTU_QUERY_SELECT || q->u.select.group_by.n || q->u.select.group_empty ||
        q->u.select.having ||
        q->u.select.distinct_on.n || plan_reads_outer(f->left))
        return (attu_lplan *)1;
    for (int i = 0; i < x->ncols; i++)
        if (has_kind(x->exprs[i], BX_AGG) || has_kind(x->exprs[i], BX_WINDOW)) return (attu_lplan *)1;
    attu_lplan *inner = f->left;
    int nl = p->ncols;
    attu_bexpr *conj[256], *local[256], *resid[256];
    int n = split_conjuncts(f->pred, conj, 0, 256), nloc = 0, nres = 0;
    attu_lplan *j = attu_lp_new(c->pa, LP_JOIN, nl);
    if (!j) OOM_NULL(c);
    memcpy(j->types, p->types, sizeof(attu_type) * (size_t)nl);
    memcpy(j->names, p->names, sizeof(char *) * (size_t)nl);
    j->left = p; j->jk = negated ? JK_ANTI : JK_SEMI; j->rowid_col = p->rowid_col;
    j->lkeys = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n + 1));
    j->rkeys = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        attu_bexpr *x = conj[i];
        int s = outer_sides(x);
        if (!(s & 2)) { local[nloc++] = x; continue; }
        if (is_equi(x)) {
            int sa = outer_sides(x->args[0]), sb = outer_sides(x->args[1]);
            if (sa == 2 && sb == 1) { j->lkeys[j->nkeys] = copy_shift(c, x->args[0], -OUTER_BASE); j->rkeys[j->nkeys++] = x->args[1]; continue; }
            if (sa == 1 && sb == 2) { j->lkeys[j->nkeys] = copy_shift(c, x->args[1], -OUTER_BASE); j->rkeys[j->nkeys++] = x->args[0]; continue; }
        }
        /* residual over outer ++ inner */
        resid[nres++] = remap_outer(c, x, nl);
    }
    j->right = nloc ? inner : inner;
    if (nloc) {
        attu_lplan *lf = attu_lp_new(c->pa, LP_FILTER, inner->ncols);
        if (!lf) OOM_NULL(c);
        memcpy(lf->types, inner->types, sizeof(attu_type) * (size_t)inner->ncols);
        memcpy(lf->names, inner->names, sizeof(char *) * (size_t)inner->ncols);
        lf->left = inner; lf->pred = and_all(c, local, nloc); lf->est_rows = inner->est_rows / 3;
        j->right = lf;
    }
    j->residual = and_all(c, resid, nres);
    j->est_rows = p->est_rows / 2;
    /* no equality: every pair would be a candidate; the apply form
     * pairs the inner rows with each distinct outer value only */
    if (!j->nkeys) return (attu_lplan *)1;
    return j;
}
