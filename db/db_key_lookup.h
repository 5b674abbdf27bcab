/*
 * db_key_lookup.h - the row a WHERE names by a PRIMARY KEY / UNIQUE key,
 * found through the table's key set (engine/key_set.h) instead of a
 * scan, as a one-row (or empty) copy of the table that the binder reads
 * in the table's place. Keyed UPDATE / DELETE (db_keyed_dml.c) and keyed
 * SELECT (db_keyed_select.c) share it; db_key_lookup.c says which WHERE
 * shapes and constant / column type pairs it takes, and why the copy is
 * exact for them.
 */
#ifndef ATTU_DB_KEY_LOOKUP_H
#define ATTU_DB_KEY_LOOKUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/table.h"
#include "engine/unique.h"
#include "planner/ast.h"
#include "planner/binder.h"

struct attu_session;

/* Whether e (or each of l) reads nothing but the row of its one FROM
 * table: no subquery, no SQL function (its body could read the table the
 * copy stands in for), no DEFAULT, no hidden rowid (the copy's is 0). */
bool db_key_row_local(const struct attu_session *s, const attu_ast_expr *e);
bool db_key_list_local(const struct attu_session *s, const attu_ast_expr_list *l);
/* The same for an ORDER BY list's expressions, and a window's clauses
 * (PARTITION BY, ORDER BY, the frame's offsets; NULL: none). */
bool db_key_order_local(const struct attu_session *s, const attu_ast_order_list *o);
bool db_key_window_local(const struct attu_session *s, const attu_ast_window *w);

/* The candidate row of base a keyed statement reads, as a copy that
 * stands in for base wherever the binder reads base. */
typedef struct db_key_copy {
    const attu_table *base;
    attu_table       *copy;    /* base's row `row`, or no row */
    int64_t           row;     /* its place in base; -1: no row holds the key */
    int               reads;   /* how many times the binder took the copy */
} db_key_copy;

/* 1 with *out when the conjuncts of where's top AND equate every column
 * of one NOT DEFERRABLE constraint of us[0..nu) (base's) to constants or
 * $n parameters (qual: the name base's columns are qualified by in the
 * statement), the pairs are exact and base carries that constraint's key
 * set: *out holds the copy. 0 when the scan must run (none fits, no key
 * set, a doubt: a constant's cast failed, a type pair not known exact);
 * -1 with err (no memory). The key set is never built here. The caller
 * holds the read lock (writers of base may run beside: the probe takes
 * the key index's own lock, db_unique_key_find). */
int db_key_lookup(struct attu_session *s, const char *sql, const attu_bind_params *params, const attu_table *base,
                  const attu_unique *us, int nu, const char *qual, const attu_ast_expr *where, db_key_copy **out,
                  attu_error *err);

/* Makes the binder read k's copy in base's place (bp->read_version). */
void db_key_copy_params(db_key_copy *k, attu_bind_params *bp);

void db_key_copy_free(db_key_copy *k);

#endif
