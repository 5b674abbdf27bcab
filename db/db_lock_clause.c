/*
 * db_lock_clause.c - SELECT's locking clauses: FOR UPDATE, FOR NO KEY
 * UPDATE, FOR SHARE, FOR KEY SHARE [OF table, ...] [NOWAIT | SKIP
 * LOCKED].
 *
 * A query with a locking clause takes the database's exclusive lock as
 * DDL does (database.c stmt_writes, db_lock_stmt.c), which keeps every
 * other session's changes out until its transaction ends, as PostgreSQL's
 * row locks keep them off its rows (more coarsely: the whole database,
 * not the rows). NOWAIT and SKIP LOCKED are accepted and change nothing
 * (the lock was waited for).
 * What the clause still decides is PostgreSQL's checks of the query
 * (here) and, on a cursor, that WHERE CURRENT OF finds its rows through
 * any plan (db_cursor.c).
 */
#include "db/db_internal.h"

#include <string.h>

const char *db_lock_strength_name(char strength) {
    switch (strength) {
    case 'n': return "FOR NO KEY UPDATE";
    case 's': return "FOR SHARE";
    case 'k': return "FOR KEY SHARE";
    default: return "FOR UPDATE";
    }
}

/* What in the plan the clause cannot lock rows through (PostgreSQL's
 * CheckSelectLocking, whose order of checks this keeps): 'a' aggregates,
 * 'w' window functions, 'f' set-returning functions in a select list, 0
 * none. The subqueries in FROM count (PostgreSQL pushes the clause into
 * them). */
static char plan_blocks(const attu_lplan *lp) {
    if (!lp) return 0;
    char here = 0;
    switch (lp->kind) {
    case LP_AGG: case LP_JOIN_AGG: here = 'a'; break;
    case LP_WINDOW: here = 'w'; break;
    case LP_SRF: here = 'f'; break;
    default: break;
    }
    char l = plan_blocks(lp->left), r = plan_blocks(lp->right);
    /* (the first of PostgreSQL's checks that fails names the error) */
    const char order[] = "awf";
    for (int i = 0; order[i]; i++)
        if (here == order[i] || l == order[i] || r == order[i]) return order[i];
    return 0;
}

/* Whether name is a FROM item's name (its alias, or its table's name
 * when it has none) in items[0..n), joins' operands included. */
static bool in_from(attu_ast_from *const *items, int n, const char *name) {
    for (int i = 0; i < n; i++) {
        const attu_ast_from *f = items[i];
        if (f->alias && !strcmp(f->alias, name)) return true;
        if (!f->alias && f->kind == ATTU_FROM_TABLE && !strcmp(f->u.table.name, name)) return true;
        if (f->kind == ATTU_FROM_JOIN) {
            attu_ast_from *sides[2] = { f->u.join.left, f->u.join.right };
            if (in_from(sides, 2, name)) return true;
        }
    }
    return false;
}

/* Whether a FROM item is a function (its LP_SRF is PostgreSQL's
 * FunctionScan, which a locking clause passes over). */
static bool from_function(const attu_ast_query *q) {
    for (int i = 0; i < q->u.select.from.n; i++)
        if (q->u.select.from.items[i]->kind == ATTU_FROM_FUNCTION) return true;
    return false;
}

int db_lock_clause_check(const attu_ast_query *q, const attu_lplan *lp, attu_error *err) {
    if (!q || !q->lock_strength) return 0;
    const char *what = db_lock_strength_name(q->lock_strength);
    if (q->kind == ATTU_QUERY_SETOP)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "%s is not allowed with UNION/INTERSECT/EXCEPT",
                              what);
    if (q->kind != ATTU_QUERY_SELECT) return 0;
    if (q->u.select.distinct)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "%s is not allowed with DISTINCT clause", what);
    if (q->u.select.group_by.n || q->u.select.group_empty || q->u.select.group_sets)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "%s is not allowed with GROUP BY clause", what);
    if (q->u.select.having)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "%s is not allowed with HAVING clause", what);
    char blocked = plan_blocks(lp);
    if (blocked == 'f' && from_function(q)) blocked = 0;
    switch (blocked) {
    case 'a':
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "%s is not allowed with aggregate functions", what);
    case 'w':
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "%s is not allowed with window functions", what);
    case 'f':
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "%s is not allowed with set-returning functions in the target list", what);
    default: break;
    }
    for (int i = 0; i < q->lock_of.n; i++) {
        const char *name = q->lock_of.items[i];
        int pos = q->lock_of.positions ? q->lock_of.positions[i] : 0;
        if (strchr(name, '.'))
            return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, pos, "%s must specify unqualified relation names", what);
        if (!in_from(q->u.select.from.items, q->u.select.from.n, name))
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, pos, "relation \"%s\" in %s clause not found in FROM clause",
                                  name, what);
    }
    return 0;
}
