/*
 * catalog.h - the set of tables a database holds, by name.
 *
 * Not thread-safe by itself: the database (db/database.h) guards the
 * committed catalog with a reader-writer lock, and a writing transaction
 * changes only its own clone (attu_catalog_clone, db/db_txn.c). Names are
 * compared exactly; the parser has already folded unquoted identifiers to
 * lower case.
 */
#ifndef ATTU_CATALOG_H
#define ATTU_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/error.h"
#include "engine/table.h"
#include "engine/unique.h"
#include "engine/check.h"
#include "engine/fkey.h"
#include "engine/view.h"
#include "engine/comments.h"
#include "engine/index.h"

typedef struct attu_catalog attu_catalog;

attu_catalog *attu_catalog_new(void);
void attu_catalog_free(attu_catalog *cat);     /* frees every table */

/* A copy of cat whose tables are cat's own versions, shared
 * (attu_table_share: each is freed when the last catalog holding it lets
 * go), with copies of everything else (DEFAULTs, constraints, views,
 * comments): a transaction's working catalog (db/db_txn.c). NULL when
 * out of memory. */
attu_catalog *attu_catalog_clone(const attu_catalog *cat);

attu_table *attu_catalog_lookup(const attu_catalog *cat, const char *name);
/* The table name finds on side of a layered catalog (ATTU_LAYER_*:
 * AUTO the top then the base) whatever its mode; a plain catalog's. */
attu_table *attu_catalog_lookup_side(const attu_catalog *cat, const char *name, int side);

/* Takes ownership of t. 42P07 if the name exists. */
int attu_catalog_add(attu_catalog *cat, attu_table *t, attu_error *err);

/* Puts t in place of the table of the same name and returns the old one
 * (the caller frees it once no reader can hold it). */
attu_table *attu_catalog_replace(attu_catalog *cat, attu_table *t);

/* Removes and returns the table (42P01 unless if_exists, then NULL, no
 * error). The caller frees it. */
attu_table *attu_catalog_remove(attu_catalog *cat, const char *name,
                                bool if_exists, attu_error *err);

/* Column DEFAULT expressions, as SQL text (the db layer binds and
 * evaluates it wherever an INSERT or COPY leaves the column out). They live
 * beside the table of that name: replace keeps them, remove drops them, add
 * starts with none. set copies sql (NULL clears); 42P01 when no such table.
 * attu_catalog_default returns NULL for a column without one. */
int attu_catalog_set_default(attu_catalog *cat, const char *table, int col,
                             const char *sql, attu_error *err);
const char *attu_catalog_default(const attu_catalog *cat, const char *table,
                                 int col);
/* Replaces all of a table's DEFAULTs at once (ALTER TABLE, whose columns
 * move): sql[i] for its column i (NULL: none), n its column count. Nothing
 * changes on failure (out of memory, 42P01). */
int attu_catalog_set_defaults(attu_catalog *cat, const char *table, int n,
                              const char *const *sql, attu_error *err);

/* CHECK constraints (check.h), kept beside the table as its UNIQUEs are:
 * attu_catalog_set_checks copies c[0..n) (names and texts);
 * attu_catalog_checks gives the table's (NULL, *n = 0 when none). */
int attu_catalog_set_checks(attu_catalog *cat, const char *table,
                            const attu_check *c, int n, attu_error *err);
const attu_check *attu_catalog_checks(const attu_catalog *cat,
                                      const char *table, int *n);

/* FOREIGN KEY constraints (fkey.h) of the referencing table, kept beside
 * it as its CHECKs are: set copies f[0..n); attu_catalog_fkeys gives the
 * table's (NULL, *n = 0 when none). */
int attu_catalog_set_fkeys(attu_catalog *cat, const char *table,
                           const attu_fkey *f, int n, attu_error *err);
const attu_fkey *attu_catalog_fkeys(const attu_catalog *cat,
                                    const char *table, int *n);

/* PRIMARY KEY and UNIQUE constraints (unique.h), kept beside the table
 * as its DEFAULTs are (replace keeps them, remove drops them). set copies
 * the n of them (replacing any); 42P01 when no such table.
 * attu_catalog_uniques gives the table's (NULL, *n = 0 when none). */
int attu_catalog_set_uniques(attu_catalog *cat, const char *table,
                             const attu_unique *u, int n, attu_error *err);
const attu_unique *attu_catalog_uniques(const attu_catalog *cat,
                                        const char *table, int *n);
/* The table one of whose constraints or indexes is named name, or NULL
 * (constraint names share PostgreSQL's relation namespace with tables:
 * an index is a relation). *which receives the constraint's place in
 * attu_catalog_uniques, -1 for an index of CREATE INDEX only. */
attu_table *attu_catalog_constraint_owner(const attu_catalog *cat,
                                          const char *name, int *which);

/* The indexes of CREATE INDEX (index.h), kept beside the table as its
 * constraints are (replace keeps them, remove drops them, set_defaults
 * leaves them, clone copies them, strings and all): set copies ix[0..n)
 * with their strings (replacing any);
 * attu_catalog_indexes gives the table's (NULL, *n = 0 when none);
 * attu_catalog_index_owner the table of the index named name (*which its
 * place among the table's), or NULL. */
int attu_catalog_set_indexes(attu_catalog *cat, const char *table, const attu_index_def *ix, int n, attu_error *err);
const attu_index_def *attu_catalog_indexes(const attu_catalog *cat, const char *table, int *n);
attu_table *attu_catalog_index_owner(const attu_catalog *cat, const char *name, int *which);
/* The views (view.h), which share the tables' namespace: add refuses a
 * table of a view's name (42P07), as attu_catalog_relation_exists tells
 * before a view is put. */
attu_views *attu_catalog_views(const attu_catalog *cat);
/* COMMENT ON's comments (comments.h). */
attu_comments *attu_catalog_comments(const attu_catalog *cat);
bool attu_catalog_relation_exists(const attu_catalog *cat, const char *name);

/* A layered catalog: a session's temporary relations (the top, pg_temp)
 * over the catalog it shares with every session (the base), read through
 * one attu_catalog (db/db_temp.c). It holds nothing itself: each side is
 * the first of its references that is not NULL when a call comes (a
 * transaction's working catalog, else its snapshot, else the committed
 * one; the top has two, base_second is the base's middle one), so the layer
 * follows the session's catalogs as transactions begin and end. Lookups
 * follow the mode (AUTO: the top first, then the base; TOP or BASE: that
 * side alone); a call about one relation goes where the mode says:
 * ATTU_LAYER_AUTO where the top holds a table of that name (else the
 * base), TOP or BASE there (add goes to the base unless TOP; the
 * constraint and index owners and relation_exists look in the mode's side
 * only unless AUTO). count / at list the base's tables, then the top's;
 * the views are a layer of the same kind (view.h, attu_views_layer_new:
 * temporary views over the shared ones); the comments are the base's.
 * attu_catalog_free frees the layer alone. */
enum { ATTU_LAYER_AUTO = 0, ATTU_LAYER_TOP, ATTU_LAYER_BASE };
attu_catalog *attu_catalog_layer_new(attu_catalog *const *top_first, attu_catalog *const *top_then,
                                     attu_catalog *const *base_first, attu_catalog *const *base_second,
                                     attu_catalog *const *base_then, const char *schema, unsigned schema_oid);
/* Sets the mode and returns the one before (AUTO for a plain catalog). */
int attu_catalog_layer_mode(attu_catalog *cat, int mode);
/* (attu_catalog_lookup, and every call about one relation, follow the
 * mode: AUTO the top then the base, TOP or BASE that side alone: see
 * attu_catalog_lookup in catalog.c for the rule.) */
/* Whether table t is one of the layer's top (a temporary table); whether
 * the top has a table named name; the top's schema name (pg_temp_N) and
 * its oid, NULL for a catalog that is not layered. */
bool attu_catalog_is_top(const attu_catalog *cat, const attu_table *t);
bool attu_catalog_top_has(const attu_catalog *cat, const char *name);
/* The comments store that keeps which columns of a relation are of a
 * domain (domain_type.h): a temporary relation's (top: the layer's top)
 * in the top's own store, so a temporary table's columns neither take
 * nor touch those of a permanent table of its name, nor outlive the
 * session; any other's in the shared one (attu_catalog_comments). _of:
 * for the relation that name finds (the top's first). */
attu_comments *attu_catalog_domain_comments(const attu_catalog *cat, bool top);
attu_comments *attu_catalog_domain_comments_of(const attu_catalog *cat, const char *rel);
/* Whether view v is one of the top's (a temporary view). */
bool attu_catalog_view_is_top(const attu_catalog *cat, const attu_view *v);
const char *attu_catalog_top_schema(const attu_catalog *cat, unsigned *oid);
/* The table of that name in the base alone (public.t), for a plain
 * catalog attu_catalog_lookup. */
attu_table *attu_catalog_lookup_shared(const attu_catalog *cat, const char *name);
/* The base of a layered catalog (what every session shares); cat itself
 * for a plain one. */
attu_catalog *attu_catalog_shared(const attu_catalog *cat);
/* The top of a layered catalog (the session's temporary relations), NULL
 * for a plain one or a layer without one. */
attu_catalog *attu_catalog_top(const attu_catalog *cat);

/* Tables in name order (a layered catalog: the base's, then the top's). */
size_t attu_catalog_count(const attu_catalog *cat);
attu_table *attu_catalog_at(const attu_catalog *cat, size_t i);

/* Snapshots (db/db_txn.c: REPEATABLE READ and SERIALIZABLE blocks).
 * attu_catalog_same_relation: whether a and b hold the same table of that
 * name (the same version, DEFAULTs, constraints and indexes), or neither
 * holds one. attu_catalog_rebase: base (the committed catalog now) with
 * what mine (a transaction's working catalog) changed since snap (the
 * committed catalog its transaction started from): every table mine
 * holds otherwise than snap (made, changed, dropped), and the views and
 * the comments when mine's differ from snap's. A relation (or the views,
 * or the comments) that base holds otherwise than snap as well is a
 * conflict: NULL with 40001 (NULL with 53200 when out of memory). */
bool attu_catalog_same_relation(const attu_catalog *a, const attu_catalog *b, const char *name);
attu_catalog *attu_catalog_rebase(const attu_catalog *snap, const attu_catalog *mine, const attu_catalog *base,
                                  attu_error *err);

#endif
