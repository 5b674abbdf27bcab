/*
 * db_keyed_dml.c - DELETE and UPDATE that name their row by its key.
 *
 * A statement such as
 *
 *     UPDATE t SET v = 1 WHERE id = 80
 *     DELETE FROM t WHERE a = 1 AND b = 'x' AND v > 0 RETURNING *
 *
 * whose WHERE holds, as conjuncts of its top AND, an equality of every
 * column of one PRIMARY KEY / UNIQUE NOT DEFERRABLE constraint to a
 * constant or a $n parameter would scan the whole table to find one row
 * (db_modify.c runs its WHERE as a query). When the table already carries
 * that constraint's key set the row is found by one hash lookup instead
 * (db_key_lookup.c: which constants and types, and why that is exact),
 * and the statement's query then runs over that row alone: a one-row (or
 * empty) copy of the table, which the binder reads in the target's place,
 * its rowid 0 mapped back to the row's place in the table. Everything
 * after the query (RETURNING, unique checks, foreign keys, the key index
 * following the change) is db_modify.c's as before.
 *
 * The statements the one-row copy would change the meaning of scan: any
 * other reference the copy could stand in for (USING / FROM items, WITH,
 * subqueries, SQL functions, DEFAULT values), WHERE CURRENT OF, a
 * statement through a view WITH CHECK OPTION (the checks name the view; a
 * view without one arrives here as a plain statement on its table, the
 * view's conditions ANDed in, and is looked up as one), a statement under
 * data-modifying WITH (it reads a kept version, whose index is not the
 * table's). A table version without a key set yet gets one from the
 * lookup (db_key_lookup.c), as for SELECT. ATTU_KEYED_DML=0 turns the
 * path off.
 */
#include "db/db_internal.h"
#include "db/db_keyed_dml.h"
#include "db/db_key_lookup.h"

#include <stdlib.h>
#include <string.h>

static bool keyed_wanted(void) {
    const char *e = getenv("ATTU_KEYED_DML");
    return !e || (strcmp(e, "0") && strcmp(e, "off"));
}

struct db_keyed_rows {
    db_key_copy *k;
};

/* Whether the statement's shape allows the one-row copy (header). */
static bool statement_fits(attu_session *s, const attu_ast_stmt *st, const attu_bind_params *params) {
    if (!st->u.modify.where || st->u.modify.current_of || st->u.modify.from.n || st->u.modify.nwith ||
        st->u.modify.view_checks || s->wmod || (params && params->read_version))
        return false;
    if (!db_key_row_local(s, st->u.modify.where)) return false;
    for (int k = 0; k < st->u.modify.nsets; k++) {
        const attu_ast_expr *v = st->u.modify.sets[k].value;
        /* (" array_assign" is the grammar's own function of SET a[i] = v) */
        if (v->kind == ATTU_EXPR_FUNC && v->u.func.name && !strcmp(v->u.func.name, " array_assign")) {
            if (!db_key_list_local(s, &v->u.func.args)) return false;
        } else if (!db_key_row_local(s, v)) return false;
    }
    for (int i = 0; i < st->u.modify.nreturning; i++)
        if (!db_key_row_local(s, st->u.modify.returning[i].expr)) return false;
    return true;
}

int db_keyed_rows_find(attu_session *s, const char *sql, const attu_ast_stmt *st, const char *qual,
                       const attu_table *base, const attu_bind_params *params, db_keyed_rows **out, attu_error *err) {
    *out = NULL;
    if (!keyed_wanted() || !statement_fits(s, st, params)) return 0;
    int nu = 0;
    const attu_unique *us = attu_catalog_uniques(db_cat(s), base->name, &nu);
    db_key_copy *k = NULL;
    int rc = db_key_lookup(s, sql, params, base, us, nu, qual, st->u.modify.where, &k, err);
    if (rc <= 0) return rc;
    if (!(*out = calloc(1, sizeof **out))) { db_key_copy_free(k); return attu_error_oom(err); }
    (*out)->k = k;
    return 1;
}

void db_keyed_rows_params(db_keyed_rows *k, attu_bind_params *bp) { db_key_copy_params(k->k, bp); }

int db_keyed_rows_map(const db_keyed_rows *k, const int64_t **map, size_t *n, attu_error *err) {
    /* the binder took the target from elsewhere (never seen): the query
     * read the table itself and its rowids are the table's */
    (void)err;
    if (!k->k->reads) { *map = NULL; *n = 0; return 0; }
    /* (more reads than one are the same reference bound again, as a run
     * retried: statement_fits leaves the statement no other) */
    *map = &k->k->row;
    *n = k->k->copy->nrows;
    return 0;
}

void db_keyed_rows_free(db_keyed_rows *k) {
    if (!k) return;
    db_key_copy_free(k->k);
    free(k);
}
