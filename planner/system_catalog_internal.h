/*
 * system_catalog_internal.h - what planner/system_catalog.c (the system
 * relations) and planner/catalog_functions.c (the catalog functions and
 * reg* casts) share: SQL text building, the user tables' OIDs, pg_type's
 * rows, type modifiers, the session's names, parsing a text for the plan.
 */
#ifndef ATTU_PLANNER_SYSTEM_CATALOG_INTERNAL_H
#define ATTU_PLANNER_SYSTEM_CATALOG_INTERNAL_H

#include "planner/binder_internal.h"
#include "planner/parser.h"

/* ---- SQL text ---- */

/* A growing string; oom once an allocation failed (the rest is dropped). */
typedef struct sbuf { char *p; size_t n, cap; bool oom; } sbuf;
void syscat_sb_add(sbuf *b, const char *s, size_t n);
void syscat_sb_puts(sbuf *b, const char *s);
void syscat_sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void syscat_sb_quote(sbuf *b, const char *s);   /* s as a SQL string constant */

/* ---- OIDs ---- */

#define OID_PG_CATALOG   11
#define OID_PG_TOAST     99
#define OID_PUBLIC       2200
#define OID_INFO_SCHEMA  13000
#define OID_USER         10      /* the connected user (PostgreSQL's bootstrap superuser) */
#define OID_DB_OWNER     6171    /* pg_database_owner, public's owner */
#define OID_DATABASE     5
#define OID_HEAP_AM      2
#define FIRST_USER_OID   16384

/* A table's OID (a hash of its name, see system_catalog.c). */
uint32_t syscat_name_hash_oid(const char *name);

typedef struct rel_info { const attu_table *t; int64_t oid; } rel_info;
/* The user tables with their OIDs, in name order (malloc'd; NULL with *n 0
 * when there are none, or on OOM, which *oom tells). */
rel_info *syscat_user_relations(const attu_catalog *cat, size_t *n, bool *oom);

/* ---- types ---- */

/* pg_type's rows for the types attu has (and the catalog's own oid, name,
 * "char", regclass), as PostgreSQL 15 has them. */
typedef struct pg_type_row {
    int         oid;
    const char *typname;
    const char *format;     /* format_type's name, without a modifier */
    int         len;
    bool        byval;
    char        category, align, storage;
    int         elem, array, collation;
    bool        preferred;
} pg_type_row;
extern const pg_type_row syscat_pg_types[];
extern const size_t syscat_n_pg_types;

/* atttypmod of a column of type t, as PostgreSQL keeps it (-1: none). */
int32_t syscat_type_modifier(attu_type t);
/* format_type of t's OID and typmod: "character varying(20)", "integer[]". */
const char *syscat_format_type(attu_type t, char *buf, size_t cap);

/* ---- the session and the plan ---- */

const char *syscat_user(const bctx *c);       /* the connected user ("attu" without one) */
const char *syscat_database(const bctx *c);   /* the connected database (likewise) */
/* Whether [schema.]name (schema NULL: pg_catalog) is a system relation. */
bool syscat_is_relation(const char *schema, const char *name);
/* Parses text (malloc'd, taken) for the plan: the result lives until the
 * plan arena is freed, *kept (when not NULL) is the arena's copy of the
 * text its positions refer to; NULL with c->err set on failure. */
const attu_parse_result *syscat_parse_kept(bctx *c, char *text, const char **kept);

#endif
