/*
 * db_keyed_select.c - SELECT of the row a key names, without the scan.
 *
 * A query such as
 *
 *     SELECT * FROM t WHERE id = 61
 *     SELECT v, count(*) FROM t WHERE a = $1 AND b = $2 AND v > 0 GROUP BY v
 *     SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.cust
 *      WHERE o.id = $1
 *
 * whose WHERE equates, as conjuncts of its top AND, every column of one
 * PRIMARY KEY / UNIQUE NOT DEFERRABLE constraint of one of its FROM
 * tables to constants or $n parameters can keep no row of that table but
 * the one holding the key. When the table carries that constraint's key
 * set, the row is found by one hash lookup (db_key_lookup.c: which
 * constant / column type pairs, why that is exact) and the query,
 * unchanged, runs over a one-row (or empty) copy of the table that the
 * binder reads in the table's place: the whole WHERE is still evaluated,
 * then the select list, GROUP BY / aggregates, HAVING, windows, DISTINCT,
 * ORDER BY, LIMIT / OFFSET and FOR UPDATE / SHARE as for any table. The
 * copy is an ordinary table version, so either backend runs the rest.
 * The query of a SELECT statement (database.c) and the source query of
 * INSERT ... SELECT and CREATE TABLE AS (db_ddl.c run_coerced) are looked
 * up this way.
 *
 * Joins. The FROM list may join the table with others (inner, LEFT,
 * RIGHT, FULL, CROSS, commas, nested): the WHERE keeps only joined rows
 * whose part of the keyed table is its key's row (the equality is false
 * for another row and unknown for a NULL-extended one), and which joined
 * rows have that part depends on that row and the other operands alone,
 * not on the table's other rows: a row of another table that met only
 * other rows of the table is NULL-extended instead, and the WHERE drops
 * it as before. The first table whose key the WHERE names is read as its
 * row, the others as they are.
 *
 * The copy must stand for the one reference to the table and change
 * nothing else the query reads, so the query scans when it has anything
 * that could read the table again or read its row differently: a WITH
 * clause, a subquery or an SQL function anywhere, a FROM item that is not
 * a table or a join of tables (a derived table, a function), a table read
 * twice (a self join) or two items of one name, a join with USING or
 * NATURAL (a merged column is not the table's) or an alias of its own, a
 * table with column aliases (the WHERE's names would not be the
 * table's), the hidden rowid (the copy's is 0), a name that a view holds
 * too (temporary or not: the binder might read the view), a schema other
 * than public / pg_temp, and a statement under data-modifying WITH (it
 * reads the versions those left, through its own read hook). A snapshot
 * (REPEATABLE READ, SERIALIZABLE) and a transaction's own working version
 * need nothing of their own: the version the session reads carries its
 * own exact key set or none (db_key_lookup.c). A table version without a
 * key set yet (loaded at start, changed by TRUNCATE / ALTER TABLE, or
 * whose set a rolled-back block's version took) gets one from its first
 * lookup, which builds it (db_key_lookup.c: when it scans instead).
 * Cursors (DECLARE) take their own path and scan, so WHERE CURRENT OF
 * finds the table's rows. ATTU_KEYED_SELECT=0 turns the path off.
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

/* Whether every expression of q reads its FROM row alone (no subquery,
 * no SQL function, no rowid). */
static bool query_local(const attu_session *s, const attu_ast_query *q) {
    for (int i = 0; i < q->u.select.nitems; i++)
        if (!db_key_row_local(s, q->u.select.items[i].expr)) return false;
    if (!db_key_list_local(s, &q->u.select.distinct_on) || !db_key_row_local(s, q->u.select.where) ||
        !db_key_list_local(s, &q->u.select.group_by) || !db_key_row_local(s, q->u.select.having) ||
        !db_key_order_local(s, &q->order_by) || !db_key_row_local(s, q->limit) || !db_key_row_local(s, q->offset))
        return false;
    /* (the WINDOW clause's definitions are merged into their OVERs, which
     * the items' calls carry; these are checked too, all the same) */
    for (int i = 0; i < q->u.select.nwindows; i++)
        if (!db_key_window_local(s, &q->u.select.windows[i])) return false;
    return true;
}

/* Whether a view (of any kind, temporary or not) has this name. */
static bool names_view(const attu_catalog *cat, const char *name) {
    const attu_catalog *top = attu_catalog_top(cat), *shared = attu_catalog_shared(cat);
    return attu_views_find(attu_catalog_views(cat), name) || (top && attu_views_find(attu_catalog_views(top), name)) ||
           attu_views_find(attu_catalog_views(shared), name);
}

/* The tables of a FROM list, its joins' operands included (at most
 * MAX_LEAVES): false when an item is anything else (a subquery, a
 * function, a table with column aliases), a join merges columns (USING,
 * NATURAL: a merged name is not the table's column) or has an alias of
 * its own (its tables' names are hidden behind it), or an ON condition
 * reads more than its rows. */
#define MAX_LEAVES 16

static bool collect_tables(const attu_session *s, const attu_ast_from *f, const attu_ast_from **out, int *n) {
    if (f->kind == ATTU_FROM_JOIN)
        return !f->u.join.natural && !f->u.join.using_.n && !f->alias && !f->column_aliases.n &&
               db_key_row_local(s, f->u.join.on) && collect_tables(s, f->u.join.left, out, n) &&
               collect_tables(s, f->u.join.right, out, n);
    if (f->kind != ATTU_FROM_TABLE || f->column_aliases.n || *n == MAX_LEAVES) return false;
    out[(*n)++] = f;
    return true;
}

/* The table the binder reads for FROM item f (planner/binder.c): a
 * temporary one first, public.t the shared one, pg_temp.t the temporary
 * one; *side the catalog that holds it (its constraints are there). NULL
 * for a name a view has too, a system relation, or none. */
static const attu_table *table_of(attu_catalog *cat, const attu_ast_from *f, attu_catalog **side) {
    const char *name = f->u.table.name, *schema = f->u.table.schema;
    if (names_view(cat, name)) return NULL;
    attu_catalog *top = attu_catalog_top(cat);
    if (!schema) *side = top && attu_catalog_top_has(cat, name) ? top : attu_catalog_shared(cat);
    else if (!strcmp(schema, "public")) *side = attu_catalog_shared(cat);
    else if (!strcmp(schema, "pg_temp")) *side = top;   /* (pg_temp_N: scans) */
    else return NULL;
    const attu_table *t = *side ? attu_catalog_lookup(*side, name) : NULL;
    return t && !t->unavailable ? t : NULL;
}

static const char *qual_of(const attu_ast_from *f) { return f->alias ? f->alias : f->u.table.name; }

int db_keyed_select_find(attu_session *s, const char *sql, const attu_ast_query *q, const attu_bind_params *params,
                         db_key_copy **out, attu_error *err) {
    *out = NULL;
    if (!keyed_wanted() || !q || s->wmod) return 0;
    if (params && (params->read_version || params->bare_names_by_mode || params->with_rows)) return 0;
    if (q->kind != ATTU_QUERY_SELECT || q->with.n || q->lift_aggs || !q->u.select.where || !q->u.select.from.n)
        return 0;
    const attu_ast_from *items[MAX_LEAVES];
    int n = 0;
    for (int i = 0; i < q->u.select.from.n; i++)
        if (!collect_tables(s, q->u.select.from.items[i], items, &n)) return 0;
    if (!query_local(s, q)) return 0;
    /* each table read once, under a name of its own: the copy stands in
     * for its one table wherever the binder reads it, so a table named
     * twice (a self join) scans */
    attu_catalog *cat = db_cat(s), *sides[MAX_LEAVES];
    const attu_table *bases[MAX_LEAVES];
    for (int i = 0; i < n; i++) {
        if (!(bases[i] = table_of(cat, items[i], &sides[i]))) return 0;
        for (int j = 0; j < i; j++)
            if (bases[j] == bases[i] || !strcmp(qual_of(items[j]), qual_of(items[i]))) return 0;
    }
    /* the first table whose key the WHERE names (one copy: the others
     * are read as they are) */
    for (int i = 0; i < n; i++) {
        int nu = 0;
        const attu_unique *us = attu_catalog_uniques(sides[i], items[i]->u.table.name, &nu);
        int rc = db_key_lookup(s, sql, params, bases[i], us, nu, qual_of(items[i]), q->u.select.where, out, err);
        if (rc) return rc;
    }
    return 0;
}
