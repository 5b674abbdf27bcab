/*
 * db_domain_check.h - what a domain asks of the values written to its
 * columns (db_domain_check.c), and the domains' statements' hooks into
 * CREATE TABLE and ALTER TABLE (db_domain.c).
 */
#ifndef ATTU_DB_DOMAIN_CHECK_H
#define ATTU_DB_DOMAIN_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/domain_type.h"
#include "engine/table.h"
#include "engine/error.h"
#include "planner/ast.h"

struct attu_session;

/* The name of the one-column table (its column "value") over which a
 * domain's CHECK is validated or a column's new values checked: no name a
 * statement can write, so VALUE is the only name such a CHECK reads. */
#define DB_DOMAIN_STAND_IN "\001domain"

/* The store that says which columns of relation rel are of a domain:
 * a temporary table's (the session's, which shadows a permanent one of
 * its name) is its layer's own (engine/catalog.h). The domains'
 * definitions are always in the shared one. */
struct attu_comments *db_domain_columns(struct attu_session *s, const char *rel);

/* Checks the rows of t (a new version of the table of its name) that a
 * statement wrote (those >= first when changed is NULL, else those with
 * changed[r]) against the domains of t's columns: 23502 "domain d does
 * not allow null values", 23514 "value for domain d violates check
 * constraint "c"", for the first failing row, in it the first failing
 * column, NOT NULL before the CHECKs and these by name (PostgreSQL's
 * order). The caller holds the write lock. */
int db_domain_check_rows(struct attu_session *s, attu_table *t, size_t first, const uint8_t *changed, attu_error *err);

/* ALTER DOMAIN: every stored value of d's columns against its NOT NULL
 * (which -1) or its CHECK which: 23502 "column "a" of table "t" contains
 * null values", 23514 "column "a" of table "t" contains values that
 * violate the new constraint". */
int db_domain_check_existing(struct attu_session *s, const attu_domain_def *d, int which, attu_error *err);

/* The values col[0..nrows) (of type t, a column added or retyped to d by
 * ALTER TABLE) against d: 23502 / 23514 as for a write. */
int db_domain_check_values(struct attu_session *s, const attu_domain_def *d, attu_type t, struct attu_column *col,
                           size_t nrows, attu_error *err);
/* The same for values col[0..nrows) of an array type t retyped to an
 * array of domain (ALTER COLUMN ... TYPE d[]): each element checked. */
int db_domain_check_array_values(struct attu_session *s, const char *domain, attu_type t, struct attu_column *col,
                                 size_t nrows, attu_error *err);
/* The DEFAULT text of the domain tn names (malloc'd), or NULL: none (err
 * unset), or out of memory (err set). */
char *db_domain_default_of(struct attu_session *s, const attu_ast_typename *tn, attu_error *err);

/* The DEFAULT an INSERT (or SET col = DEFAULT) gives column col of t
 * (malloc'd): the column's own, else its domain's current one; NULL:
 * none (err unset) or out of memory (err set). The caller holds the
 * database's lock. */
char *db_column_default(struct attu_session *s, const attu_table *t, int col, attu_error *err);

/* Records in cols (the store of the relation's layer: a temporary
 * one's, or the shared) which columns of relation rel (a view, or CREATE
 * TABLE AS's table; names[0..ncols)) are of a domain: domains[i] (the
 * binder's attu_bind_params.domains_out; NULL, or ndomains != ncols:
 * none). A column of none loses what it had (CREATE OR REPLACE VIEW).
 * -1: no memory. The caller holds the write lock. */
int db_set_column_domains(struct attu_session *s, struct attu_comments *cols, const char *rel,
                          const char *const *names, int ncols, const char *const *domains, int ndomains);

/* A write's rc: when it failed on a column's own NOT NULL (23502 "null
 * value in column "c" of relation "t" violates not-null constraint") and
 * the column's domain is NOT NULL too, err becomes the domain's 23502
 * (PostgreSQL checks the domain as it makes the value, before the row's
 * constraints). Takes the database's read lock (none may be held). */
int db_domain_null_message(struct attu_session *s, int rc, attu_error *err);

/* The domain a column declared of type tn is of (NULL: none; free it). */
attu_domain_def *db_domain_of_typename(struct attu_session *s, const attu_ast_typename *tn);
/* What the store keeps for a column declared of type tn (malloc'd):
 * its domain's name, "d[]" for an array of domain d (each element
 * checked: db_domain_check_rows), NULL for none (or no memory). */
char *db_domain_column_text(struct attu_session *s, const attu_ast_typename *tn);
/* Whether an enum type or a domain has the name. */
bool db_type_name_used(struct attu_session *s, const char *name);

#endif
