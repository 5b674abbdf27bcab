/*
 * db_cursor.c - SQL cursors: DECLARE, FETCH, MOVE, CLOSE, and what
 * pg_cursors lists.
 *
 * attu is a columnar engine that computes a query's result whole, so a
 * cursor's query runs once, at DECLARE, and the cursor keeps its rows
 * (an attu_result); FETCH and MOVE only move over them. That makes every
 * cursor insensitive (it never sees later changes, PostgreSQL's behaviour
 * for all cursors) and lets a WITH HOLD cursor outlive its transaction
 * without the copy PostgreSQL makes at COMMIT. Binding errors (an unknown
 * column) are DECLARE's, as in PostgreSQL; an error of the run (a
 * division by zero over a table's rows) is kept and raised by the first
 * FETCH or MOVE, where PostgreSQL's executor would meet it, and the cursor
 * cannot run after that (55000).
 *
 * Positions follow PostgreSQL's portal (pquery.c's PortalRunSelect and
 * DoPortalRunFetch) step for step: at_start / at_end and pos (the current
 * row, 1-based, when on one). Every direction reduces to reads forward or
 * backward by a count, plus a rewind; a backward read, or a rewind from
 * anywhere but the start, of a NO SCROLL cursor is 55000 "cursor can only
 * scan forward". A cursor declared without SCROLL or NO SCROLL scrolls
 * when PostgreSQL's plan would scan backward (plan_scrolls).
 *
 * Lifetime: a cursor belongs to the transaction that declared it. COMMIT
 * and ROLLBACK close the cursors without HOLD; ROLLBACK also closes the
 * WITH HOLD ones declared in the block; ROLLBACK TO SAVEPOINT closes those
 * declared after the savepoint. Moving a cursor is not undone by a
 * rollback, nor is CLOSE (as in PostgreSQL). WITH HOLD cursors that
 * committed stay until CLOSE, DISCARD ALL or the session's end.
 *
 * UPDATE / DELETE ... WHERE CURRENT OF (db_cursor_current_row): a cursor
 * over one table that is a simply updatable scan (PostgreSQL's: a scan,
 * its filter, projection and LIMIT, nothing that reorders or combines
 * rows), or any query over one table with FOR UPDATE / SHARE, knows which
 * row of the table each of its rows came from: DECLARE runs the query
 * with the row's rowid as one more, hidden column. The cursor then holds
 * the version of the table those positions are of (a share of it) and
 * follows the table's next versions as the statements that make them
 * tell it (db_cursors_follow: UPDATE, INSERT and COPY keep every row
 * where it was, DELETE moves the rows after the ones it removes down and
 * removes those), so an UPDATE of its row, through the cursor or not, is
 * still its row, as PostgreSQL's CURRENT OF follows the tuple's update
 * chain, and a deleted row is gone (the statement changes nothing). A
 * version it was not told of (a foreign key's action, TRUNCATE, ALTER
 * TABLE, ROLLBACK TO) is searched for the row's values as the held
 * version has them, from where the row was backward, then forward.
 */
#include "db/db_internal.h"
#include "db/db_unique.h"
#include "engine/key_set.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct db_cursor {
    db_cursor   *next;
    char        *name;
    char        *statement;      /* the query string that declared it (pg_cursors) */
    bool         hold, binary, scroll, no_scroll;
    int64_t      created_us;     /* when DECLARE ran (pg_cursors.creation_time) */
    attu_result *res;            /* its rows; NULL when the run failed */
    attu_error   run_err;        /* the run's error, raised by the first FETCH / MOVE */
    bool         failed;         /* an error was raised: it cannot run again */
    /* PostgreSQL's portal position */
    bool         at_start, at_end;
    int64_t      pos;
    bool         in_txn;         /* declared in the transaction now open */
    int          depth;          /* savepoints open when declared */
    /* WHERE CURRENT OF: the table (NULL: not simply updatable, nor FOR
     * UPDATE of one table), and where row i of res comes from: row
     * pos_in[i] of seen, a version of the table it holds a share of (-1:
     * deleted since) */
    bool         for_update;     /* FOR UPDATE / SHARE */
    char        *table;
    attu_table  *seen;
    int64_t     *pos_in;
};

static void cursor_free(db_cursor *c) {
    if (!c) return;
    attu_table_free(c->seen);
    free(c->pos_in);
    free(c->table);
    attu_result_free(c->res);
    free(c->name);
    free(c->statement);
    free(c);
}

static db_cursor *find_cursor(attu_session *s, const char *name, db_cursor ***link) {
    for (db_cursor **pp = &s->cursors; *pp; pp = &(*pp)->next)
        if (!strcmp((*pp)->name, name)) {
            if (link) *link = pp;
            return *pp;
        }
    return NULL;
}

static int no_cursor(attu_error *err, const char *name) {
    return attu_error_set(err, "34000", 0, "cursor \"%s\" does not exist", name);
}

/* ---- the lifetime ------------------------------------------------------------------------- */

/* Closes every cursor for which drop(c, arg) holds. */
static void close_where(attu_session *s, bool (*drop)(const db_cursor *, int), int arg) {
    for (db_cursor **pp = &s->cursors; *pp;) {
        db_cursor *c = *pp;
        if (drop(c, arg)) {
            *pp = c->next;
            cursor_free(c);
        } else pp = &c->next;
    }
}

static bool drop_all(const db_cursor *c, int arg) { (void)c; (void)arg; return true; }
static bool drop_at_commit(const db_cursor *c, int arg) { (void)arg; return !c->hold; }
static bool drop_at_rollback(const db_cursor *c, int arg) { (void)arg; return !c->hold || c->in_txn; }
static bool drop_after_savepoint(const db_cursor *c, int depth) { return c->in_txn && c->depth >= depth; }

void db_cursors_free(attu_session *s) { close_where(s, drop_all, 0); }

void db_cursors_txn_end(attu_session *s, bool committed) {
    close_where(s, committed ? drop_at_commit : drop_at_rollback, 0);
    for (db_cursor *c = s->cursors; c; c = c->next) {
        c->in_txn = false;
        c->depth = 0;
    }
}

void db_cursors_rollback_to(attu_session *s, int depth) { close_where(s, drop_after_savepoint, depth); }

void db_cursors_release(attu_session *s, int depth) {
    /* the released savepoint's cursors now belong to the one around it */
    for (db_cursor *c = s->cursors; c; c = c->next)
        if (c->in_txn && c->depth > depth) c->depth = depth;
}

/* ---- DECLARE ------------------------------------------------------------------------------ */

/* Whether PostgreSQL's plan for the query of plan lp could scan backward
 * (its ExecSupportsBackwardScan), judged on attu's bound plan: scans,
 * VALUES, sorts (which keep their rows), filters, projections, LIMIT and
 * UNION ALL do; joins, aggregates, window functions, DISTINCT, the other
 * set operations and set-returning functions in the select list
 * (PostgreSQL's ProjectSet) do not. A set-returning function in FROM is
 * PostgreSQL's FunctionScan, which does (from_function: the query's FROM
 * is one). A cursor declared with neither SCROLL nor NO SCROLL scrolls
 * then, as PostgreSQL's does; attu could always scroll, its rows being
 * kept, but keeps PostgreSQL's answer, 55000 included. */
static bool plan_scrolls(const attu_lplan *lp, bool from_function) {
    if (!lp) return true;
    switch (lp->kind) {
    case LP_SCAN: case LP_VALUES: case LP_SORT:
        return true;
    case LP_FILTER: case LP_PROJECT: case LP_LIMIT:
        return plan_scrolls(lp->left, from_function);
    case LP_SETOP:
        return lp->setop == ATTU_SETOP_UNION && lp->all && plan_scrolls(lp->left, from_function) &&
               plan_scrolls(lp->right, from_function);
    case LP_SRF:
        return from_function && plan_scrolls(lp->left, from_function);
    default:
        return false;
    }
}

/* Whether q reads one function in FROM and nothing else. */
static bool from_one_function(const attu_ast_query *q) {
    return q && q->kind == ATTU_QUERY_SELECT && q->u.select.from.n == 1 &&
           q->u.select.from.items[0]->kind == ATTU_FROM_FUNCTION;
}

/* Whether a WHERE conjunct is one PostgreSQL's planner makes a join of
 * (x IN (SELECT ...), [NOT] EXISTS (...): a semi or anti join), which
 * attu may run as a filter. */
static bool where_joins(const attu_ast_expr *e) {
    if (!e) return false;
    switch (e->kind) {
    case ATTU_EXPR_BINARY:
        return e->u.binary.op == ATTU_BINOP_AND && (where_joins(e->u.binary.left) || where_joins(e->u.binary.right));
    case ATTU_EXPR_IN_SUBQUERY: return !e->u.in_subquery.negated;
    case ATTU_EXPR_EXISTS: return true;
    case ATTU_EXPR_UNARY:
        return e->u.unary.op == ATTU_UNOP_NOT && e->u.unary.arg && e->u.unary.arg->kind == ATTU_EXPR_EXISTS;
    default: return false;
    }
}

/* What the query's text tells beyond attu's plan: PostgreSQL's plan of a
 * SELECT without FROM is a Result, which does not scan backward; of a
 * WHERE with a semi or anti join (where_joins) neither. */
static bool query_may_scroll(const attu_ast_query *q) {
    if (!q || q->kind != ATTU_QUERY_SELECT) return true;
    return q->u.select.from.n > 0 && !where_joins(q->u.select.where);
}

/* Whether the plan of a cursor's query reads table t's rows and gives
 * each as one row: its scan of t under filters, projections and LIMIT
 * (PostgreSQL's simply updatable scan), and sorts too with FOR UPDATE
 * (PostgreSQL then finds the row by its row mark). */
static bool plan_keeps_rows(const attu_lplan *lp, const attu_table *t, bool for_update) {
    if (!lp) return false;
    switch (lp->kind) {
    case LP_SCAN: return lp->table == t;
    case LP_FILTER: case LP_PROJECT: case LP_LIMIT: return plan_keeps_rows(lp->left, t, for_update);
    case LP_SORT: return for_update && plan_keeps_rows(lp->left, t, for_update);
    default: return false;
    }
}

/* The table a cursor's query q could change WHERE CURRENT OF: its FROM
 * is that one table of the catalog (not a WITH query's name), or NULL. */
static attu_table *current_of_table(attu_session *s, const attu_ast_query *q, const char **qual) {
    if (!q || q->kind != ATTU_QUERY_SELECT || q->u.select.from.n != 1) return NULL;
    const attu_ast_from *f = q->u.select.from.items[0];
    if (f->kind != ATTU_FROM_TABLE) return NULL;
    const char *sc = f->u.table.schema;
    /* (the table as the cursor's query named it: public.t, pg_temp.t) */
    int side = !sc ? ATTU_LAYER_AUTO : !strcmp(sc, "public") ? ATTU_LAYER_BASE
             : !strcmp(sc, "pg_temp") || !strncmp(sc, "pg_temp_", 8) ? ATTU_LAYER_TOP : -1;
    if (side < 0) return NULL;
    for (int i = 0; !sc && i < q->with.n; i++) if (!strcmp(q->with.items[i].name, f->u.table.name)) return NULL;
    *qual = f->alias ? f->alias : f->u.table.name;
    return attu_catalog_lookup_side(db_cat(s), f->u.table.name, side);
}

/* q with its source rows' rowids as one more select item (malloc'd
 * items in *items), for current_of_table's t. */
static attu_ast_query with_rowid(const attu_ast_query *q, const char *qual, attu_ast_select_item **items,
                                 attu_ast_expr *rowid) {
    attu_ast_query w = *q;
    int n = q->u.select.nitems;
    *items = malloc(sizeof **items * (size_t)(n + 1));
    if (!*items) return w;
    memcpy(*items, q->u.select.items, sizeof **items * (size_t)n);
    memset(rowid, 0, sizeof *rowid);
    rowid->kind = ATTU_EXPR_COLUMN;
    rowid->position = q->position;
    rowid->depth = 1;
    rowid->u.column.qualifier = (char *)qual;
    rowid->u.column.name = ATTU_ROWID_INTERNAL;
    (*items)[n] = (attu_ast_select_item){ rowid, NULL, 0 };
    w.u.select.items = *items;
    w.u.select.nitems = n + 1;
    return w;
}

/* Runs q to a result as a SELECT does; *bound tells whether it bound and
 * planned (an error then is DECLARE's) before it failed, *scrolls whether
 * PostgreSQL's plan would scan backward. track (NULL: none): the table a
 * WHERE CURRENT OF could change, whose rowid the result's last column is
 * when *tracked comes back true (the query as written ran otherwise). */
static attu_result *run_cursor_query(attu_session *s, const char *sql, const attu_ast_query *q,
                                     const attu_bind_params *params, bool *bound, bool *scrolls,
                                     const attu_table *track, const char *qual, bool for_update, bool *tracked,
                                     attu_error *err) {
    *bound = false;
    *tracked = false;
    attu_ast_select_item *items = NULL;
    attu_ast_expr rowid;
    attu_ast_query augmented;
    const attu_ast_query *written = q;
    if (track) {
        augmented = with_rowid(q, qual, &items, &rowid);
        if (!items) { attu_error_oom(err); return NULL; }
        q = &augmented;
    }
    attu_bind_params bp;
    memset(&bp, 0, sizeof bp);
    if (params) bp = *params;
    bool batched = false;
    bp.cond_batched = &batched;
    attu_result *res = NULL;
    for (int pass = 0; pass < 2 && !res; pass++) {
        attu_plan_arena *pa = attu_plan_arena_new();
        if (!pa) { free(items); attu_error_oom(err); return NULL; }
        attu_lplan *lp = NULL;
        attu_stage *st = db_plan_query(s, sql, q, &bp, pa, &lp, err);
        if (!st && q != written) {
            /* the rowid does not fit (an aggregate's query): it is no scan
             * of rows then, and runs as written */
            attu_error_clear(err);
            q = written;
            st = db_plan_query(s, sql, q, &bp, pa, &lp, err);
        }
        if (!st) { attu_plan_arena_free(pa); free(items); return NULL; }
        *bound = true;
        *tracked = q != written && plan_keeps_rows(lp, track, for_update);
        *scrolls = query_may_scroll(written) && plan_scrolls(lp, from_one_function(written));
        attu_column **cols = NULL;
        size_t n = 0;
        if (!db_run_stage(s, st, false, &cols, &n, err)) {
            res = db_result_new(lp->ncols);
            if (!res) {
                for (int i = 0; i < lp->ncols; i++) attu_column_free(cols[i]);
                free(cols);
                attu_error_oom(err);
            } else {
                free(res->cols);
                res->cols = cols;
                res->nrows = n;
                res->returns_rows = true;
                for (int i = 0; i < lp->ncols; i++) {
                    snprintf(res->desc[i].name, sizeof res->desc[i].name, "%s", lp->names[i] ? lp->names[i] : "?column?");
                    res->desc[i].type = lp->types[i];
                }
            }
        }
        attu_stage_free(st);
        attu_plan_arena_free(pa);
        if (res && q != written && !*tracked) {
            /* (the rowid column ran but the plan is no simple scan: dropped) */
            attu_column_free(res->cols[--res->ncols]);
        }
        if (res || pass == 1 || !db_retry_per_binding(batched, err)) break;
        /* again with the conditional subqueries per binding (db_run_query) */
        attu_error_clear(err);
        bp.cond_per_binding = true;
        bp.cond_batched = NULL;
    }
    free(items);
    return res;
}

/* The result's last column, the source rows' rowids, becomes the
 * cursor's map of its rows into t (run_cursor_query tracked them). */
static int keep_sources(db_cursor *c, attu_result *r, attu_table *t, attu_error *err) {
    attu_column *ids = r->cols[--r->ncols];
    size_t n = r->nrows;
    c->pos_in = malloc(sizeof *c->pos_in * (n + 1));
    c->table = strdup(t->name);
    int rc = 0;
    if (!c->pos_in || !c->table) rc = attu_error_oom(err);
    for (size_t i = 0; !rc && i < n; i++) {
        int64_t v = ((const int64_t *)ids->data)[i];
        if (v < 0 || (size_t)v >= t->nrows) rc = attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "cursor row out of range");
        else c->pos_in[i] = v;
    }
    attu_column_free(ids);
    if (rc) {
        free(c->table);
        c->table = NULL;
        return rc;
    }
    c->seen = attu_table_share(t);
    return 0;
}

int db_exec_declare(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                    const attu_exec_callbacks *cb, attu_error *err) {
    const char *name = st->u.cursor.name;
    if (!st->u.cursor.hold && s->txn == 'I' && !s->implicit_block)
        return attu_error_set(err, "25P01", 0, "DECLARE CURSOR can only be used in transaction blocks");
    if (st->u.cursor.scroll && st->u.cursor.no_scroll)
        return attu_error_set(err, "42P11", 0, "cannot specify both SCROLL and NO SCROLL");
    if (st->u.cursor.insensitive && st->u.cursor.asensitive)
        return attu_error_set(err, "42P11", 0, "cannot specify both ASENSITIVE and INSENSITIVE");
    if (find_cursor(s, name, NULL)) return attu_error_set(err, "42P03", 0, "cursor \"%s\" already exists", name);

    db_cursor *c = calloc(1, sizeof *c);
    if (!c || !(c->name = strdup(name)) || !(c->statement = strdup(sql ? sql : ""))) {
        cursor_free(c);
        return attu_error_oom(err);
    }
    c->hold = st->u.cursor.hold;
    c->binary = st->u.cursor.binary;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    c->created_us = (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
    c->at_start = true;
    c->in_txn = true;
    c->depth = db_txn_savepoints(s);

    /* FOR UPDATE / SHARE: PostgreSQL's cursor is then READ ONLY in none
     * of these ways */
    const attu_ast_query *wq = st->u.cursor.query;
    c->for_update = wq && wq->lock_strength && wq->kind == ATTU_QUERY_SELECT && wq->u.select.from.n > 0;
    if (c->for_update) {
        const char *what = db_lock_strength_name(wq->lock_strength);
        const char *how = NULL;
        if (c->hold) {
            attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "DECLARE CURSOR WITH HOLD ... %s is not supported", what);
            how = "Holdable";
        } else if (st->u.cursor.scroll) {
            attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "DECLARE SCROLL CURSOR ... %s is not supported", what);
            how = "Scrollable";
        } else if (st->u.cursor.insensitive) {
            attu_error_set(err, "42P11", 0, "DECLARE INSENSITIVE CURSOR ... %s is not valid", what);
            how = "Insensitive";
        }
        if (how) {
            attu_error_set_detail(err, "%s cursors must be READ ONLY.", how);
            cursor_free(c);
            return -1;
        }
    }
    pthread_rwlock_rdlock(&s->db->lock);
    db_seq_fill fill;
    const attu_ast_query *q = db_seq_fill_prepare(s, st->u.cursor.query, NULL, 0, &fill);
    bool bound = false, scrolls = false, tracked = false;
    const char *qual = NULL;
    /* (a WITH HOLD cursor outlives its transaction: no WHERE CURRENT OF) */
    attu_table *track = !c->hold && q == st->u.cursor.query ? current_of_table(s, q, &qual) : NULL;
    attu_result *r = run_cursor_query(s, sql, q, params, &bound, &scrolls, track, qual, c->for_update, &tracked, err);
    if (r && tracked && keep_sources(c, r, track, err)) { attu_result_free(r); r = NULL; bound = false; }
    if (r && db_seq_fill_apply(s, &fill, r->cols, r->nrows, err)) { attu_result_free(r); r = NULL; }
    db_seq_fill_free(&fill);
    pthread_rwlock_unlock(&s->db->lock);
    if (!r) {
        /* a query that does not bind is DECLARE's error; one whose run
         * failed leaves a cursor that raises it when first read */
        bool resources = !strncmp(err->sqlstate, "53", 2) || !strncmp(err->sqlstate, "57", 2);
        /* (a WITH HOLD cursor outside a block: PostgreSQL runs it to the
         * end as its transaction commits, so the error is DECLARE's) */
        bool autocommit = s->txn == 'I' && !s->implicit_block;
        if (!bound || resources || !err->set || autocommit) {
            cursor_free(c);
            return -1;
        }
        c->run_err = *err;
        attu_error_clear(err);
    }
    /* (FOR UPDATE: PostgreSQL's plan with row marks never scrolls) */
    c->scroll = st->u.cursor.scroll || (!st->u.cursor.no_scroll && scrolls && !c->for_update);
    c->no_scroll = !c->scroll;
    c->res = r;
    c->next = s->cursors;
    s->cursors = c;
    return db_deliver_tag(cb, "DECLARE CURSOR", err) ? -2 : 0;
}

/* ---- FETCH and MOVE ------------------------------------------------------------------------ */

/* What one FETCH / MOVE collects: row numbers (0-based) in the order read. */
typedef struct fetch_rows {
    int64_t *rows;
    size_t   n, cap;
    bool     oom;
} fetch_rows;

static void rows_add(fetch_rows *o, int64_t row) {
    if (!o || o->oom) return;
    if (o->n == o->cap) {
        size_t nc = o->cap ? o->cap * 2 : 64;
        int64_t *p = realloc(o->rows, nc * sizeof *p);
        if (!p) { o->oom = true; return; }
        o->rows = p;
        o->cap = nc;
    }
    o->rows[o->n++] = row;
}

static int scan_forward_only(const db_cursor *c, attu_error *err) {
    (void)c;
    attu_error_set(err, "55000", 0, "cursor can only scan forward");
    attu_error_set_hint(err, "Declare it with SCROLL option to enable backward scan.");
    return -1;
}

/* PortalRunSelect: reads up to count rows forward or backward from the
 * current position (out NULL: skipped), moving the position; the number
 * read, or -1 with err (a backward read of a NO SCROLL cursor). */
static int64_t run_select(db_cursor *c, bool forward, int64_t count, fetch_rows *out, attu_error *err) {
    int64_t n = (int64_t)c->res->nrows, got = 0;
    if (forward) {
        if (c->at_end || count <= 0) return 0;
        int64_t from = c->pos;   /* the next row read is from + 1 */
        for (int64_t r = from + 1; r <= n && got < count; r++, got++) rows_add(out, r - 1);
        if (got > 0) c->at_start = false;
        if (got < count) c->at_end = true;
        c->pos += got;
        return got;
    }
    if (c->no_scroll) return scan_forward_only(c, err);
    if (c->at_start || count <= 0) return 0;
    int64_t from = c->at_end ? c->pos + 1 : c->pos;   /* the next row read is from - 1 */
    for (int64_t r = from - 1; r >= 1 && got < count; r--, got++) rows_add(out, r - 1);
    if (got > 0 && c->at_end) {
        c->at_end = false;
        c->pos++;
    }
    if (got < count) {
        c->at_start = true;
        c->pos = 0;
    } else c->pos -= got;
    return got;
}

/* DoPortalRewind */
static int rewind_cursor(db_cursor *c, attu_error *err) {
    if (c->at_start && !c->at_end) return 0;
    if (c->no_scroll) return scan_forward_only(c, err);
    c->at_start = true;
    c->at_end = false;
    c->pos = 0;
    return 0;
}

/* DoPortalRunFetch: moves the cursor as direction dir and count say; the
 * rows for FETCH in out (NULL for MOVE). The count for the command tag,
 * or -1 with err. */
static int64_t run_fetch(db_cursor *c, attu_ast_fetch_dir dir, int64_t count, fetch_rows *out, attu_error *err) {
    switch (dir) {
    case ATTU_FETCH_FORWARD:
        if (count < 0) { dir = ATTU_FETCH_BACKWARD; count = -count; }
        break;
    case ATTU_FETCH_BACKWARD:
        if (count < 0) { dir = ATTU_FETCH_FORWARD; count = -count; }
        break;
    case ATTU_FETCH_ABSOLUTE:
        if (count > 0) {
            /* (PostgreSQL rewinds when the target is nearer the start:
             * which one it takes decides where NO SCROLL fails) */
            if (count - 1 <= c->pos / 2) {
                if (rewind_cursor(c, err)) return -1;
                if (count > 1 && run_select(c, true, count - 1, NULL, err) < 0) return -1;
            } else {
                int64_t pos = c->pos + (c->at_end ? 1 : 0);
                if (count <= pos) {
                    if (run_select(c, false, pos - count + 1, NULL, err) < 0) return -1;
                } else if (count > pos + 1) {
                    if (run_select(c, true, count - pos - 1, NULL, err) < 0) return -1;
                }
            }
            return run_select(c, true, 1, out, err);
        }
        if (count < 0) {
            if (run_select(c, true, ATTU_FETCH_ALL, NULL, err) < 0) return -1;
            if (count < -1 && run_select(c, false, -count - 1, NULL, err) < 0) return -1;
            return run_select(c, false, 1, out, err);
        }
        if (rewind_cursor(c, err)) return -1;
        return run_select(c, true, 0, out, err);
    case ATTU_FETCH_RELATIVE:
        if (count > 0) {
            if (count > 1 && run_select(c, true, count - 1, NULL, err) < 0) return -1;
            return run_select(c, true, 1, out, err);
        }
        if (count < 0) {
            if (count < -1 && run_select(c, false, -count - 1, NULL, err) < 0) return -1;
            return run_select(c, false, 1, out, err);
        }
        dir = ATTU_FETCH_FORWARD;   /* RELATIVE 0: as FORWARD 0 */
        break;
    }
    bool forward = dir == ATTU_FETCH_FORWARD;
    if (count == 0) {
        bool on_row = !c->at_start && !c->at_end;
        if (!out) return on_row ? 1 : 0;   /* MOVE 0: whether FETCH 0 would give a row */
        if (on_row) {
            /* back up one to read the current row again */
            if (run_select(c, false, 1, NULL, err) < 0) return -1;
            count = 1;
            forward = true;
        }
    }
    if (!forward && count == ATTU_FETCH_ALL && !out) {
        /* MOVE BACKWARD ALL: a rewind, counting the rows passed */
        int64_t passed = c->pos;
        if (passed > 0 && !c->at_end) passed--;
        if (rewind_cursor(c, err)) return -1;
        return passed;
    }
    return run_select(c, forward, count, out, err);
}

/* The rows read, as a result of the cursor's columns. */
static attu_result *rows_result(const db_cursor *c, const fetch_rows *f, attu_error *err) {
    const attu_result *src = c->res;
    attu_result *r = db_result_new(src->ncols);
    if (!r) { attu_error_oom(err); return NULL; }
    memcpy(r->desc, src->desc, (size_t)src->ncols * sizeof *r->desc);
    r->returns_rows = true;
    r->nrows = f->n;
    for (int k = 0; k < src->ncols; k++) {
        const attu_column *from = src->cols[k];
        attu_column *to = attu_column_new(from->type, f->n ? f->n : 1, err);
        if (!to) { attu_result_free(r); return NULL; }
        r->cols[k] = to;
        size_t w = attu_type_width(from->type.id);
        for (size_t i = 0; i < f->n; i++) {
            size_t row = (size_t)f->rows[i];
            memcpy((char *)to->data + i * w, (const char *)from->data + row * w, w);
        }
        to->length = f->n;
        if (from->validity) {
            if (attu_column_ensure_validity(to, err)) { attu_result_free(r); return NULL; }
            for (size_t i = 0; i < f->n; i++) {
                size_t row = (size_t)f->rows[i];
                bool valid = (from->validity[row >> 6] >> (row & 63)) & 1;
                if (!valid) attu_column_set_null(to, i, true);
            }
        }
        to->dict = attu_dictionary_ref(from->dict);
    }
    return r;
}

int db_exec_fetch(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    db_cursor *c = find_cursor(s, st->u.fetch.name, NULL);
    if (!c) return no_cursor(err, st->u.fetch.name);
    if (c->failed) return attu_error_set(err, "55000", 0, "portal \"%s\" cannot be run", c->name);
    if (!c->res) {
        /* the run's error, where PostgreSQL's executor meets it */
        c->failed = true;
        *err = c->run_err;
        return -1;
    }
    bool move = st->u.fetch.move;
    fetch_rows rows;
    memset(&rows, 0, sizeof rows);
    int64_t n = run_fetch(c, st->u.fetch.dir, st->u.fetch.count, move ? NULL : &rows, err);
    if (n < 0 || rows.oom) {
        free(rows.rows);
        return n < 0 ? -1 : attu_error_oom(err);
    }
    char tag[64];
    snprintf(tag, sizeof tag, "%s %lld", move ? "MOVE" : "FETCH", (long long)n);
    if (move) return db_deliver_tag(cb, tag, err) ? -2 : 0;
    attu_result *r = rows_result(c, &rows, err);
    free(rows.rows);
    if (!r) return -1;
    snprintf(r->tag, sizeof r->tag, "%s", tag);
    r->binary = c->binary;
    return db_deliver(cb, r) ? -2 : 0;
}

/* ---- CLOSE -------------------------------------------------------------------------------- */

int db_exec_close(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    const char *name = st->u.close_cursor.name;
    if (!name) {
        db_cursors_free(s);
        return db_deliver_tag(cb, "CLOSE CURSOR ALL", err) ? -2 : 0;
    }
    db_cursor **link;
    db_cursor *c = find_cursor(s, name, &link);
    if (!c) return no_cursor(err, name);
    *link = c->next;
    cursor_free(c);
    return db_deliver_tag(cb, "CLOSE CURSOR", err) ? -2 : 0;
}

/* ---- WHERE CURRENT OF ---------------------------------------------------------------------- */

/* Whether row a of x and row b of y hold the same values (NULLs alike). */
static bool same_row(const attu_table *x, size_t a, const attu_table *y, size_t b) {
    for (int k = 0; k < x->ncols; k++) {
        bool na = attu_column_is_null(x->cols[k], a), nb = attu_column_is_null(y->cols[k], b);
        if (na != nb) return false;
        if (!na && !attu_key_equal(x, a, y, b, &k, 1)) return false;
    }
    return true;
}

int db_cursor_current_row(attu_session *s, const char *name, const attu_table *t, int64_t *row, attu_error *err) {
    *row = -1;
    db_cursor *c = find_cursor(s, name, NULL);
    if (!c) return no_cursor(err, name);
    if (c->hold && !c->in_txn)
        return attu_error_set(err, "24000", 0, "cursor \"%s\" is held from a previous transaction", name);
    if (!c->table || strcmp(c->table, t->name)) {
        if (c->for_update)
            return attu_error_set(err, "24000", 0, "cursor \"%s\" does not have a FOR UPDATE/SHARE reference to table \"%s\"",
                                  name, t->name);
        return attu_error_set(err, "24000", 0, "cursor \"%s\" is not a simply updatable scan of table \"%s\"", name,
                              t->name);
    }
    if (!c->res || c->at_start || c->at_end || c->pos < 1 || (size_t)c->pos > c->res->nrows)
        return attu_error_set(err, "24000", 0, "cursor \"%s\" is not positioned on a row", name);
    int64_t p = c->pos_in[c->pos - 1];
    if (p < 0) return 0;   /* (deleted) */
    if (t == c->seen) { *row = p; return 0; }
    /* a version the cursor was not told of: the row's values as it
     * knows them, in a table of the same columns */
    const attu_table *k = c->seen;
    if (k->ncols != t->ncols) return 0;
    for (int j = 0; j < t->ncols; j++)
        if (!attu_type_equal(k->defs[j].type, t->defs[j].type)) return 0;
    int64_t from = p < (int64_t)t->nrows ? p : (int64_t)t->nrows - 1;
    for (int64_t r = from; r >= 0; r--)
        if (same_row(k, (size_t)p, t, (size_t)r)) { *row = r; return 0; }
    for (int64_t r = from + 1; r < (int64_t)t->nrows; r++)
        if (same_row(k, (size_t)p, t, (size_t)r)) { *row = r; return 0; }
    return 0;
}

void db_cursors_follow(attu_session *s, const attu_table *old, attu_table *t, const uint8_t *keep) {
    int64_t *map = NULL;
    for (db_cursor *c = s->cursors; c; c = c->next) {
        if (!c->seen || c->seen != old) continue;
        if (keep && !map) {
            map = malloc(sizeof *map * (old->nrows + 1));
            if (!map) return;   /* (the cursor searches by values then) */
            int64_t k = 0;
            for (size_t r = 0; r < old->nrows; r++) map[r] = keep[r] ? k++ : -1;
        }
        if (keep && c->res)
            for (size_t i = 0; i < c->res->nrows; i++)
                if (c->pos_in[i] >= 0) c->pos_in[i] = map[c->pos_in[i]];
        attu_table_free(c->seen);
        c->seen = attu_table_share(t);
    }
    free(map);
}

/* ---- pg_cursors --------------------------------------------------------------------------- */

bool db_cursor_at(void *ctx, int i, attu_cursor_info *out) {
    attu_session *s = ctx;
    /* oldest first: the list holds the newest first */
    int n = 0;
    for (db_cursor *c = s->cursors; c; c = c->next) n++;
    if (i < 0 || i >= n) return false;
    db_cursor *c = s->cursors;
    for (int k = 0; k < n - 1 - i; k++) c = c->next;
    out->name = c->name;
    out->statement = c->statement;
    out->is_holdable = c->hold;
    out->is_binary = c->binary;
    out->is_scrollable = c->scroll;
    out->creation_time_us = c->created_us;
    return true;
}

bool db_cursor_binary(attu_session *s, const char *name) {
    const db_cursor *c = find_cursor(s, name, NULL);
    return c && c->binary;
}

int db_cursor_describe(attu_session *s, const char *name, int *ncols, attu_result_column **cols) {
    const db_cursor *c = find_cursor(s, name, NULL);
    *ncols = 0;
    *cols = NULL;
    if (!c || !c->res) return 0;
    *cols = calloc((size_t)c->res->ncols + 1, sizeof **cols);
    if (!*cols) return -1;
    memcpy(*cols, c->res->desc, (size_t)c->res->ncols * sizeof **cols);
    *ncols = c->res->ncols;
    return 0;
}

int attu_session_cursor_describe(attu_session *s, const char *name, int *ncols,
                                 attu_result_column **cols, bool *binary) {
    *binary = db_cursor_binary(s, name);
    if (!find_cursor(s, name, NULL)) { *ncols = 0; *cols = NULL; return 0; }
    return db_cursor_describe(s, name, ncols, cols) ? -1 : 1;
}
