/*
 * domain_type.h - PostgreSQL's domains (CREATE DOMAIN name AS base ...).
 *
 * Storage. A domain adds no storage of its own: a column of a domain type
 * is a column of the base type (so every backend, the GPU's included,
 * sees only the base type), and the domain's rules (NOT NULL, CHECKs) are
 * enforced where values are written (db/db_domain_check.c), as table
 * CHECKs are, by a query over the statement's new rows.
 *
 * Catalog. As enum types (enum_type.h), a domain's definition is text in
 * the catalog's comments store, kind 'd', under "\x01" + its name: the
 * store follows transactions and is kept in the data directory. Which
 * column is of which domain is kept there too, kind 'D', under the
 * column's (table, column) with the domain's name as the text: the store
 * moves a column's entries when the table or the column is renamed and
 * drops them with the table or the column (db/db_comment.c), which is
 * what a column's domain must do. Readers of the store (pg_description)
 * skip both kinds. The text of a column of an array of domain d is
 * "d[]" (each element checked: db/db_domain_check.c). A view's columns
 * of a domain are kept the same way (CREATE VIEW, db/db_view.c), and a
 * temporary table's in its session's own store (the layer's top,
 * attu_catalog_domain_comments), never under a permanent table's name. A
 * column keeps no copy of its domain's DEFAULT: an INSERT reads the
 * domain's then (db_column_default).
 *
 * Resolution. attu_type_from_name resolves a domain's name to its base
 * type (a cast to the domain, a column declared of it), through the
 * thread's catalog source of enum_type.h.
 */
#ifndef ATTU_ENGINE_DOMAIN_TYPE_H
#define ATTU_ENGINE_DOMAIN_TYPE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/types.h"

struct attu_comments;

#define ATTU_DOMAIN_COMMENT_KIND 'd'
#define ATTU_DOMAIN_COLUMN_KIND 'D'
/* PostgreSQL-like OIDs of a domain and of its array type (past the enum
 * types' range) */
#define ATTU_DOMAIN_OID_BASE 80000u
static inline unsigned attu_domain_oid(int id) { return ATTU_DOMAIN_OID_BASE + 2u * (unsigned)id; }
static inline unsigned attu_domain_array_oid(int id) { return ATTU_DOMAIN_OID_BASE + 2u * (unsigned)id + 1u; }
/* a domain CHECK's pg_constraint OID */
static inline unsigned attu_domain_check_oid(int id, int k) { return ATTU_DOMAIN_OID_BASE + 10000u + 100u * (unsigned)id + (unsigned)k; }

typedef struct attu_domain_check {
    char *name;
    char *expr;        /* SQL text over VALUE, as written */
    bool  not_valid;   /* ADD ... NOT VALID, not yet validated */
} attu_domain_check;

typedef struct attu_domain_def {
    char              *name;
    int                id;
    attu_type          base;
    bool               not_null;
    char              *dflt;       /* the DEFAULT's SQL text, NULL for none */
    /* a domain over a domain: that domain's name (NULL: over base, which
     * is then the root's base type too), whose rules values must pass as
     * well (attu_domain_rules) */
    char              *parent;
    int                n;
    attu_domain_check *checks;     /* in the order they were added */
} attu_domain_def;

/* The definition of the domain named name (from the thread's catalog /
 * from cs), parsed afresh, or NULL: free it with attu_domain_def_free. */
attu_domain_def *attu_domain_find(const char *name);
attu_domain_def *attu_domain_find_in(const struct attu_comments *cs, const char *name);
void attu_domain_def_free(attu_domain_def *d);
/* The rules a value of domain name must pass, as PostgreSQL's type cache
 * orders them: a definition named name whose not_null is that of any of
 * its levels (name, its parent, ...), whose checks are every level's,
 * the base-most domain's first and each level's by name. NULL: no such
 * domain (or no memory). */
attu_domain_def *attu_domain_rules_in(const struct attu_comments *cs, const char *name);
attu_domain_def *attu_domain_rules(const char *name);
/* Whether domain name is ancestor or derives from it (through parents). */
bool attu_domain_derives(const struct attu_comments *cs, const char *name, const char *ancestor);

/* Writes d into the store (replacing one of its name); -1: no memory. */
int attu_domain_store(struct attu_comments *cs, const attu_domain_def *d);
void attu_domain_remove(struct attu_comments *cs, const char *name);
/* An id no domain of the store has. */
int attu_domain_next_id(const struct attu_comments *cs);
/* Calls fn for every domain of the store (d is freed after). */
void attu_domain_each(const struct attu_comments *cs, void (*fn)(void *ctx, const attu_domain_def *d), void *ctx);

/* The domain of column col of table rel (its name, the store's own
 * text), or NULL. */
const char *attu_domain_of_column(const struct attu_comments *cs, const char *rel, const char *col);
/* Whether the store keeps a domain for any column of rel (one pass: the
 * per-column lookups are then only for relations that have one). */
bool attu_domain_rel_has_columns(const struct attu_comments *cs, const char *rel);
/* Sets (domain NULL: clears) the domain of a column; -1: no memory. */
int attu_domain_set_column(struct attu_comments *cs, const char *rel, const char *col, const char *domain);

#endif
