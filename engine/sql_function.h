/*
 * sql_function.h - user-defined SQL-language functions (CREATE FUNCTION
 * ... LANGUAGE sql), as PostgreSQL 15 keeps them in pg_proc.
 *
 * Catalog. As domains (domain_type.h), a function's definition is text in
 * the catalog's comments store, kind 'f', so it follows transactions (a
 * ROLLBACK forgets a CREATE) and is kept in the data directory with the
 * rest of the store. Functions overload: the key is "\x01" + name + "("
 * + the argument types' OIDs + ")", one entry per signature, as pg_proc's
 * (proname, proargtypes) is unique. Readers of the store (pg_description)
 * skip the kind.
 *
 * The engine never runs a function: the binder inlines the body where it
 * is called (planner/sql_function_bind.c), so what it computes runs as
 * the calling query's own expressions (or, for a set-returning function
 * in FROM, its subquery) on every backend.
 */
#ifndef ATTU_ENGINE_SQL_FUNCTION_H
#define ATTU_ENGINE_SQL_FUNCTION_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/types.h"

struct attu_comments;

#define ATTU_FUNCTION_COMMENT_KIND 'f'
/* PostgreSQL-like OIDs of the functions (past the domains' range) */
#define ATTU_FUNCTION_OID_BASE 90000u
static inline unsigned attu_function_oid(int id) { return ATTU_FUNCTION_OID_BASE + (unsigned)id; }
/* the most arguments a function takes (PostgreSQL's FUNC_MAX_ARGS is 100) */
#define ATTU_FUNCTION_MAX_ARGS 100

typedef struct attu_sql_function {
    char      *name;
    int        id;           /* its OID's number, kept by OR REPLACE */
    int        nargs;
    attu_type *arg_types;    /* nargs */
    char     **arg_names;    /* nargs, each NULL when unnamed */
    char     **arg_defaults; /* nargs, each NULL or a DEFAULT's SQL text
                                (only trailing arguments have one) */
    attu_type  ret;
    char       volatility;   /* 'i' IMMUTABLE, 's' STABLE, 'v' VOLATILE */
    bool       strict;       /* RETURNS NULL ON NULL INPUT */
    char       parallel;     /* 's' SAFE, 'r' RESTRICTED, 'u' UNSAFE */
    bool       leakproof;
    char      *body;         /* the text after AS (prosrc), or SELECT expr */
    int        sql_body;     /* PostgreSQL 15's SQL-standard body (prosrc '',
                                prosqlbody set): 1 RETURN expr (body is SELECT
                                expr), 2 BEGIN ATOMIC ... END (body its text) */
    bool       retset;       /* RETURNS SETOF ret / RETURNS TABLE: its rows, in FROM */
    int        nout;         /* RETURNS TABLE's columns (0: SETOF ret, one column) */
    attu_type *out_types;    /* nout */
    char     **out_names;    /* nout */
    bool       variadic;     /* the last argument is VARIADIC (an array, its
                                elements the call's trailing arguments) */
    char      *comment;      /* COMMENT ON FUNCTION's text, NULL when none */
} attu_sql_function;

void attu_sql_function_free(attu_sql_function *f);
/* How many trailing arguments have a DEFAULT (pronargdefaults). */
int attu_sql_function_ndefaults(const attu_sql_function *f);

/* Every function of name in the store (n of them, each freed by the
 * caller with attu_sql_function_free, then the array with free). NULL
 * with *n 0 when there is none (or no memory: *n -1). */
attu_sql_function **attu_sql_functions_named(const struct attu_comments *cs, const char *name, int *n);
/* The function of name with exactly these argument types, or NULL. */
attu_sql_function *attu_sql_function_find(const struct attu_comments *cs, const char *name, int nargs,
                                          const attu_type *types);
/* Whether the store holds any function of name (no parsing). */
bool attu_sql_function_exists(const struct attu_comments *cs, const char *name);

/* Writes f into the store (replacing the one of its signature); -1: no
 * memory. */
int attu_sql_function_store(struct attu_comments *cs, const attu_sql_function *f);
void attu_sql_function_remove(struct attu_comments *cs, const attu_sql_function *f);
/* An id no function of the store has. */
int attu_sql_function_next_id(const struct attu_comments *cs);
/* Calls fn for every function of the store (f is freed after). */
void attu_sql_function_each(const struct attu_comments *cs, void (*fn)(void *ctx, const attu_sql_function *f),
                            void *ctx);

#endif
