/*
 * db_keyed_select.c - SELECT of the row a key names, without the scan.
 *
 * A query such as
 *
 *     SELECT * FROM t WHERE id = 61
 *     SELECT v, count(*) FROM t WHERE a = $1 AND b = $2 AND v > 0 GROUP BY v
 *
 * whose one FROM item is a table and whose WHERE equates, as conjuncts of
 * its top AND, every column of one PRIMARY KEY / UNIQUE NOT DEFERRABLE
 * constraint to constants or $n parameters can keep at most one of the
 * table's rows. When the table carries that constraint's key set, the row
 * is found by one hash lookup (db_key_lookup.c: which constant / column
 * type pairs, why that is exact) and the query, unchanged, runs over a
 * one-row (or empty) copy of the table that the binder reads in the
 * table's place: the whole WHERE is still evaluated on it, then the
 * select list, GROUP BY / aggregates, HAVING, windows, DISTINCT, ORDER BY,
 * LIMIT / OFFSET and FOR UPDATE / SHARE as for any table. The copy is an
 * ordinary table version, so either backend runs the rest.
 *
 * The copy must stand for the one reference to the table and change
 * nothing else the query reads, so the query scans when it has anything
 * that could read the table again or read its row differently: a WITH
 * clause, more FROM items than one (joins), a subquery or an SQL function
 * anywhere, a FROM item with column aliases (the WHERE's names would not
 * be the table's), the hidden rowid (the copy's is 0), a name that a view
 * holds too (temporary or not: the binder might read the view), a schema
 * other than public / pg_temp, and a statement under data-modifying WITH
 * (it reads the versions those left, through its own read hook). A
 * snapshot (REPEATABLE READ, SERIALIZABLE) and a transaction's own
 * working version need nothing of their own: the version the session
 * reads carries its own exact key set or none (db_key_lookup.c). A table
 * without a key set yet (loaded at start, changed by TRUNCATE / ALTER
 * TABLE, or whose set a writer's open transaction holds on its new
 * version) scans: a SELECT never builds one. Cursors (DECLARE) take their
 * own path and scan, so WHERE CURRENT OF finds the table's rows.
 * ATTU_KEYED_SELECT=0 turns the path off.
 */
#include "db/db_internal.h"
#include "db/db_keyed_select.h"

#include <stdlib.h>
#include <string.h>

#include "engine/view.h"

static bool keyed_wanted(void) {
    const char *e = getenv("ATTU_KEYED_SELECT");
    return !e || (strcmp(e, "0") && strcmp(e, "off"));
}

static bool order_local(const attu_session *s, const attu_ast_order_list *o) {
    for (int i = 0; i < o->n; i++) if (!db_key_row_local(s, o->items[i].expr)) return false;
    return true;
}

/* Whether every expression of q reads its FROM row alone (no subquery,
 * no SQL function, no rowid). */
static bool query_local(const attu_session *s, const attu_ast_query *q) {
    for (int i = 0; i < q->u.select.nitems; i++)
        if (!db_key_row_local(s, q->u.select.items[i].expr)) return false;
    if (!db_key_list_local(s, &q->u.select.distinct_on) || !db_key_row_local(s, q->u.select.where) ||
        !db_key_list_local(s, &q->u.select.group_by) || !db_key_row_local(s, q->u.select.having) ||
        !order_local(s, &q->order_by) || !db_key_row_local(s, q->limit) || !db_key_row_local(s, q->offset))
        return false;
    /* (the WINDOW clause's definitions are merged into their OVERs, which
     * the items' calls carry; these are checked too, all the same) */
    for (int i = 0; i < q->u.select.nwindows; i++) {
        const attu_ast_window *w = &q->u.select.windows[i];
        if (!db_key_list_local(s, &w->partition_by) || !order_local(s, &w->order_by) ||
            !db_key_row_local(s, w->frame_start.offset) || !db_key_row_local(s, w->frame_end.offset))
            return false;
    }
    return true;
}

/* Whether a view (of any kind, temporary or not) has this name. */
static bool names_view(const attu_catalog *cat, const char *name) {
    const attu_catalog *top = attu_catalog_top(cat), *shared = attu_catalog_shared(cat);
    return attu_views_find(attu_catalog_views(cat), name) || (top && attu_views_find(attu_catalog_views(top), name)) ||
           attu_views_find(attu_catalog_views(shared), name);
}

int db_keyed_select_find(attu_session *s, const char *sql, const attu_ast_query *q, const attu_bind_params *params,
                         db_key_copy **out, attu_error *err) {
    *out = NULL;
    if (!keyed_wanted() || !q || s->wmod) return 0;
    if (params && (params->read_version || params->bare_names_by_mode || params->with_rows)) return 0;
    if (q->kind != ATTU_QUERY_SELECT || q->with.n || q->lift_aggs || !q->u.select.where ||
        q->u.select.from.n != 1)
        return 0;
    const attu_ast_from *f = q->u.select.from.items[0];
    if (f->kind != ATTU_FROM_TABLE || f->column_aliases.n || !query_local(s, q)) return 0;
    /* the table the binder reads for the name (planner/binder.c): a
     * temporary one first, public.t the shared one, pg_temp.t the
     * temporary one; the constraints are that side's */
    const char *name = f->u.table.name, *schema = f->u.table.schema;
    attu_catalog *cat = db_cat(s);
    if (names_view(cat, name)) return 0;
    attu_catalog *top = attu_catalog_top(cat), *side;
    if (!schema) side = top && attu_catalog_top_has(cat, name) ? top : attu_catalog_shared(cat);
    else if (!strcmp(schema, "public")) side = attu_catalog_shared(cat);
    else if (!strcmp(schema, "pg_temp")) side = top;   /* (pg_temp_N: scans) */
    else return 0;
    const attu_table *base = side ? attu_catalog_lookup(side, name) : NULL;
    if (!base || base->unavailable) return 0;
    int nu = 0;
    const attu_unique *us = attu_catalog_uniques(side, name, &nu);
    return db_key_lookup(s, sql, params, base, us, nu, f->alias ? f->alias : name, q->u.select.where, out, err);
}
