/*
 * view.h - the views a catalog holds (CREATE VIEW), beside its tables.
 *
 * A view is its query as SQL text plus what CREATE VIEW fixed: the names
 * and types of its output columns (PostgreSQL fixes them at creation: a
 * later CREATE OR REPLACE may only add columns at the end) and the
 * relations (tables, views) its query names, which DROP TABLE / DROP VIEW
 * consult (2BP01 unless CASCADE). The binder re-parses the text wherever
 * the view is named (planner/binder_view.c) and checks the result still
 * has the fixed shape. Views share the relation namespace with tables:
 * the catalog (catalog.h) refuses a table of a view's name and the db
 * layer a view of a table's.
 *
 * A materialized view is kept here too (kind 'm'), for its query text,
 * its dependencies and its place in the creation order, while its rows
 * are an ordinary table of its name in the catalog (db/db_matview.c).
 *
 * The engine never runs a view itself; this file only keeps them.
 */
#ifndef ATTU_VIEW_H
#define ATTU_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"
#include "engine/types.h"

typedef struct attu_view {
    char      *name;
    char      *sql;         /* the query after AS, as written */
    int        ncols;
    char     **col_names;   /* ncols */
    attu_type *col_types;   /* ncols */
    char     **col_defaults;   /* ncols, each NULL or a DEFAULT's SQL text for
                                  INSERTs through the view (ALTER VIEW ...
                                  SET DEFAULT, db/db_alter_view.c) */
    int        ndeps;
    char     **deps;        /* relations the query names, each once */
    uint64_t   seq;         /* creation order (kept by OR REPLACE): the order
                               PostgreSQL lists dependent objects in */
    char       kind;        /* 'v' a view; 'm' a materialized view, whose rows
                               are the catalog's table of the same name */
    char       check_option;   /* 'l' LOCAL, 'c' CASCADED, 0 none (a view's) */
    bool       populated;   /* a materialized view's rows are its query's
                               (false after WITH NO DATA: 55000 on a read) */
} attu_view;

/* A new view of copies of the arguments (NULL when out of memory). */
attu_view *attu_view_new(const char *name, const char *sql, int ncols, const char *const *col_names,
                         const attu_type *col_types, int ndeps, const char *const *deps);
/* A copy of v (seq, kind and options too) under name (NULL: v's). */
attu_view *attu_view_copy(const attu_view *v, const char *name);
void attu_view_free(attu_view *v);
bool attu_view_reads(const attu_view *v, const char *relation);

/* Views by name (a sorted array, as the catalog's tables). */
typedef struct attu_views attu_views;

attu_views *attu_views_new(void);
void attu_views_free(attu_views *vs);       /* frees every view */
attu_view *attu_views_find(const attu_views *vs, const char *name);
/* Takes v; in place of a view of the same name, whose seq it keeps,
 * returning the old one for the caller to free (*old NULL when new; a new
 * view of seq 0 gets the next creation number). Out of memory: -1, v not
 * taken. */
int attu_views_put(attu_views *vs, attu_view *v, attu_view **old);
/* Removes and returns the view (NULL if none). */
attu_view *attu_views_remove(attu_views *vs, const char *name);
/* A deep copy of every view (creation order kept); NULL when out of
 * memory. */
attu_views *attu_views_clone(const attu_views *vs);
/* Whether a and b hold the same views, field for field (a
 * transaction's snapshot against the committed ones, db/db_txn.c). */
bool attu_views_equal(const attu_views *a, const attu_views *b);
size_t attu_views_count(const attu_views *vs);
attu_view *attu_views_at(const attu_views *vs, size_t i);   /* name order */

/* Layered views (engine/catalog.h's layered catalog, db/db_temp.c): a
 * session's temporary views (side 0, the top) over the shared ones (side
 * 1, the base), each side what side(ctx, k) answers when a call comes
 * (NULL: none). find looks in the top first; put and remove go where
 * *mode says (catalog.h's ATTU_LAYER_*: AUTO to the top when it holds
 * that name, else the base); count / at list the mode's side, or (AUTO)
 * the base's views, then the top's; clone copies the base; free frees
 * the layer alone. */
typedef attu_views *(*attu_views_side_fn)(const void *ctx, int side);
attu_views *attu_views_layer_new(attu_views_side_fn side, const void *ctx, const int *mode);

#endif
