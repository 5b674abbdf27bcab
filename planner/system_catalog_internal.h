/*
 * system_catalog_internal.h - what planner/system_catalog.c (the system
 * relations) and planner/catalog_functions.c (the catalog functions and
 * reg* casts) share: SQL text building, the user tables' OIDs, pg_type's
 * rows, type modifiers, the session's names, parsing a text for the plan.
 */
#ifndef ATTU_PLANNER_SYSTEM_CATALOG_INTERNAL_H
#define ATTU_PLANNER_SYSTEM_CATALOG_INTERNAL_H

#include "engine/strbuf.h"
#include "planner/binder_internal.h"
#include "planner/parser.h"

/* ---- SQL text ---- */

/* A growing string (engine/strbuf.h); oom once an allocation failed (the
 * rest is dropped). The short names are this layer's. */
typedef attu_strbuf sbuf;
#define syscat_sb_add    attu_strbuf_add
#define syscat_sb_puts   attu_strbuf_puts
#define syscat_sb_printf attu_strbuf_printf
#define syscat_sb_quote  attu_strbuf_quote_literal   /* s as a SQL string constant */
void syscat_sb_ident(sbuf *b, const char *s);   /* s as quote_ident writes it */

/* ---- OIDs ---- */

#define OID_PG_CATALOG   11
#define OID_PG_TOAST     99
#define OID_PUBLIC       2200
#define OID_INFO_SCHEMA  13000
#define OID_USER         10      /* the connected user (PostgreSQL's bootstrap superuser) */
#define OID_DB_OWNER     6171    /* pg_database_owner, public's owner */
#define OID_DATABASE     5
#define OID_HEAP_AM      2
#define OID_BTREE_AM     403
#define FIRST_USER_OID   16384

/* A relation's OID (a hash of its name, see system_catalog.c). */
uint32_t syscat_name_hash_oid(const char *name);

/* One user relation as pg_class lists it: a table ('r'), a view ('v'), a
 * sequence ('S') or the index of a PRIMARY KEY / UNIQUE constraint ('i',
 * named as the constraint, on table t). */
typedef struct rel_info {
    int64_t                     oid;
    const char                 *name;
    char                        kind;
    const attu_table           *t;          /* 'r'; 'm': its rows; 'i': the constrained table */
    const attu_view            *v;          /* 'v', 'm' */
    const struct attu_sequence *s;          /* 'S' */
    const attu_unique          *u;          /* 'i': the constraint (NULL for a CREATE INDEX one) */
    const attu_index_def       *ix;         /* 'i': a CREATE INDEX index (NULL for a constraint's) */
    int64_t                     table_oid;  /* 'i': t's OID */
    bool                        temp;       /* 'r', 'i' of a temporary table: the session's pg_temp_N (db/db_temp.c) */
} rel_info;

/* The user relations, in name order (one namespace: names are unique),
 * with the snapshot of the sequences they point into. */
typedef struct syscat_rels {
    rel_info                *r;
    size_t                   n;
    struct attu_sequence   **seqs;
    int                      nseqs;
} syscat_rels;
/* Loads them (the catalog's tables, views and constraints, the db layer's
 * sequences through c->params); false when out of memory (nothing held). */
bool syscat_rels_load(const bctx *c, syscat_rels *out);
void syscat_rels_free(syscat_rels *rs);
/* The relation of that name, or NULL. */
const rel_info *syscat_rel_find(const syscat_rels *rs, const char *name);
/* The sequence owned by table.column (a serial or identity column's), or
 * NULL. */
const struct attu_sequence *syscat_owned_sequence(const syscat_rels *rs, const char *table, const char *column);
/* A constraint's index as pg_get_indexdef shows it: "CREATE UNIQUE INDEX
 * t_pkey ON public.t USING btree (id)" (without "public." unless
 * qualified). malloc'd; NULL: out of memory. */
char *syscat_index_definition(const rel_info *ri, bool qualified);
/* Key or INCLUDE column k (0-based) of an index as pg_get_indexdef shows
 * it alone (its name, or its expression; pretty: PostgreSQL's pretty
 * form), appended to d. */
void syscat_index_column(sbuf *d, const rel_info *ri, int k, bool pretty);
/* The number of columns of an index (key and INCLUDE). */
int syscat_index_ncols(const rel_info *ri);
/* A view's definition as pg_get_viewdef shows it (malloc'd; NULL: out
 * of memory). */
char *syscat_view_definition(const attu_view *v);
/* A constraint's pg_constraint OID (its index's is the relation's). */
int64_t syscat_constraint_oid(const rel_info *index);

/* A CHECK constraint's OID (from its table's and its own name) and its
 * pg_get_constraintdef text: "CHECK ((expr))", pretty "CHECK (expr)",
 * the expression as written (PostgreSQL deparses it: the two agree for
 * one comparison of columns and plain constants). malloc'd. */
int64_t syscat_check_oid(const char *table, const char *name);
char *syscat_check_definition(const attu_check *c, bool pretty);

/* FOREIGN KEY constraints (system_catalog_fkey.c): a constraint's OID
 * (from its table's and its own name), whether a table is on either side
 * of one (relhastriggers), the index of the referenced key (NULL: none),
 * an action's words (RESTRICT, SET NULL, ...) and the
 * pg_get_constraintdef text (malloc'd). */
int64_t syscat_fkey_oid(const char *table, const char *name);
bool syscat_fkey_triggers(const attu_catalog *cat, const char *table);
const rel_info *syscat_fkey_index(const syscat_rels *rs, const attu_fkey *f);
const char *syscat_fkey_action(char a);
char *syscat_fkey_definition(const attu_catalog *cat, const attu_table *t, const attu_fkey *f);

/* A comment's object (system_catalog_comment.c): its pg_description
 * objoid, classoid and objsubid; false when the object is gone. */
bool syscat_comment_target(const syscat_rels *rs, const attu_catalog *cat, const attu_comment *c, int64_t *objoid,
                           int64_t *classoid, int *objsubid);
/* obj_description (column false, n arguments) / col_description's body. */
bool syscat_description_body(bctx *c, sbuf *b, int n, bool column);
/* The call pg_partition_ancestors(rel) in FROM stands for: unnest of
 * an empty bigint[] (no table is a partition); NULL with c->err set. */
const attu_ast_expr *syscat_no_ancestors(bctx *c);
/* The call pg_partition_tree(rel) in FROM stands for: unnest of four empty
 * arrays of its columns' types (no table is partitioned; srf.c names the
 * columns); NULL with c->err set. */
const attu_ast_expr *syscat_no_partition_tree(bctx *c);
/* The call pg_listening_channels() in FROM stands for: unnest of the
 * session's channels as a text[] (catalog_functions.c); NULL with c->err
 * set. */
const attu_ast_expr *syscat_listening_channels(bctx *c);

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

/* PostgreSQL 15's pseudo-types (typtype 'p': trigger, void, record,
 * anyelement ...): no value or column has one, but functions' signatures
 * name them, so psql's queries compare with 'trigger'::regtype and
 * format_type prints them. */
typedef struct pg_pseudo_type {
    int         oid;
    const char *name;       /* as regtype's output writes it ("any" quoted) */
} pg_pseudo_type;
extern const pg_pseudo_type syscat_pseudo_types[];
extern const size_t syscat_n_pseudo_types;
/* The OID of the pseudo-type a regtype input names (letters folded to
 * lower case unless double-quoted, surrounding blanks and a pg_catalog.
 * schema allowed), or 0. */
int syscat_pseudo_type_oid(const char *name);

/* atttypmod of a column of type t, as PostgreSQL keeps it (-1: none). */
int32_t syscat_type_modifier(attu_type t);
/* format_type of t's OID and typmod: "character varying(20)", "integer[]". */
const char *syscat_format_type(attu_type t, char *buf, size_t cap);

/* ---- the session and the plan ---- */

const char *syscat_user(const bctx *c);       /* the connected user ("attu" without one) */
/* The bootstrap superuser's name (OID 10, the owner of everything): the
 * connected user, or "attu" where that is a created role (engine/role.h). */
const char *syscat_bootstrap_user(const bctx *c);
const char *syscat_database(const bctx *c);   /* the connected database (likewise) */
/* Whether [schema.]name (schema NULL: pg_catalog) is a system relation. */
bool syscat_is_relation(const char *schema, const char *name);
/* PostgreSQL 15's OID of its catalog table pg_catalog.name (a row's
 * tableoid, 'name'::regclass), 0 for any other name. The four that
 * pg_description's classoid names: */
enum { SYSCAT_OID_PG_PROC = 1255, SYSCAT_OID_PG_CLASS = 1259, SYSCAT_OID_PG_CONSTRAINT = 2606,
       SYSCAT_OID_PG_LANGUAGE = 2612 };
int64_t syscat_table_oid(const char *name);
/* PostgreSQL's built-in languages (internal, c, sql): pg_language's rows,
 * their validators (named by oid::regproc, catalog_functions.c) and
 * descriptions (pg_description, obj_description); the i-th, NULL past the
 * last. */
typedef struct {
    int oid;
    const char *name;
    bool trusted;
    int validator;
    const char *validator_name;
    const char *description;
} syscat_language;
const syscat_language *syscat_builtin_language(size_t i);
/* The i-th of those tables (its OID in *oid), NULL past the last. */
const char *syscat_table_at(size_t i, int64_t *oid);
/* The first select item of "SELECT item" in text (malloc'd, taken; NULL:
 * no memory), parsed as syscat_parse_kept does; NULL with c->err set. */
const attu_ast_expr *syscat_parse_item(bctx *c, char *text);
/* Parses text (malloc'd, taken) for the plan: the result lives until the
 * plan arena is freed, *kept (when not NULL) is the arena's copy of the
 * text its positions refer to; NULL with c->err set on failure. */
const attu_parse_result *syscat_parse_kept(bctx *c, char *text, const char **kept);

#endif
