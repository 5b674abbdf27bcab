/*
 * ast_build.h - what the grammar's actions use to build the tree (internal
 * to the parser: planner/grammar.y, planner/parser.c, planner/ast_build.c).
 *
 * The lemon parser calls one constructor per rule. Constructors never fail
 * visibly: on out-of-memory they record 53200 in the context and return a
 * harmless static node, and the driver discards everything once an error is
 * set. That keeps the grammar actions free of error checks.
 */
#ifndef ATTU_PLANNER_AST_BUILD_H
#define ATTU_PLANNER_AST_BUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/error.h"
#include "planner/ast.h"
#include "planner/lexer.h"
#include "planner/parser.h"

/* A growable array of pointers or structs in the arena (old storage is left
 * behind on growth; the arena frees it all at once). */
typedef struct attu_vec {
    void  *items;
    int    n;
    int    cap;
} attu_vec;

typedef struct attu_parse_ctx {
    attu_ast_arena *arena;
    attu_error     *err;
    attu_lexer     *lx;
    const char     *sql;
    size_t          sql_len;
    attu_vec        stmts;        /* of attu_parsed_stmt */
    size_t          stmt_start;   /* byte offset of the current statement */
    size_t          prev_end;     /* end of the last token handed to lemon */
    int             max_param;    /* highest $n in the current statement */
    bool           *param_used;   /* [k]: $k written in it (cap entries) */
    int             param_used_cap;
    bool            failed;       /* an error was reported: stop */
    /* An error PostgreSQL raises after parsing (parse analysis): reported
     * only when the text has no syntax error, as PostgreSQL would. */
    attu_error      deferred;
    attu_vec        window_refs;  /* ab_window_ref: OVER w not yet resolved */
    const char     *cur_table;    /* CREATE TABLE being parsed (messages) */
    const char     *cur_column;   /* column definition being parsed */
    /* SELECT ... INTO targets met in the current statement (ab_into): the
     * statement, once whole, decides whether each stands where PostgreSQL
     * allows one (the outermost SELECT, or the first of its set operation). */
    attu_vec        intos;
    bool            into_temp;   /* INTO TEMP t: the next ab_into_note's (db/db_temp.c) */
} attu_parse_ctx;

typedef struct ab_into {
    attu_ast_query *query;   /* the SELECT that wrote INTO */
    const char     *name;    /* the new table */
    int             pos;     /* of the name: PostgreSQL's errors stand there */
    bool            temp;    /* INTO TEMP t */
} ab_into;

/* Notes that query q wrote INTO name. */
void ab_into_note(attu_parse_ctx *c, attu_ast_query *q, const char *name, int pos);
/* Sets q's GROUP BY from the grammar's item list (NULL: none). */
void ab_group_clause(attu_parse_ctx *c, attu_ast_query *q, attu_vec *items, bool distinct);

/* For a statement that is the query top: the INTO it may carry (NULL if
 * none); any other INTO of the statement raises PostgreSQL's error. Clears
 * the notes. */
const ab_into *ab_into_take(attu_parse_ctx *c, attu_ast_query *top);
/* Raises the error for INTOs a statement other than a SELECT holds:
 * PostgreSQL's "not allowed here", or msg/sqlstate where given (views).
 * Clears the notes. */
void ab_into_refuse(attu_parse_ctx *c, const char *sqlstate, const char *msg);

void *ab_alloc(attu_parse_ctx *c, size_t size);
char *ab_strndup(attu_parse_ctx *c, const char *s, size_t n);
/* Appends one element of size esz, copied from elem. */
void  ab_vec_push(attu_parse_ctx *c, attu_vec *v, const void *elem, size_t esz);

/* Records an error to report if the whole text parses (first one wins). */
void ab_defer_error(attu_parse_ctx *c, const char *sqlstate, int pos,
                    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Raises 42601-style errors from actions (first one wins). */
void ab_error(attu_parse_ctx *c, const char *sqlstate, int pos,
              const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Expression constructors. */
attu_ast_expr *ab_expr(attu_parse_ctx *c, attu_ast_expr_kind k, int pos);
attu_ast_expr *ab_literal(attu_parse_ctx *c, attu_ast_literal_kind k,
                          const attu_token *t);
attu_ast_expr *ab_literal_text(attu_parse_ctx *c, attu_ast_literal_kind k,
                               const char *text, int pos);
attu_ast_expr *ab_column(attu_parse_ctx *c, const char *qual, const char *name,
                         int pos);
attu_ast_expr *ab_star(attu_parse_ctx *c, const char *qual, int pos);
attu_ast_expr *ab_param(attu_parse_ctx *c, const attu_token *t);
attu_ast_expr *ab_unary(attu_parse_ctx *c, attu_ast_unary_op op,
                        attu_ast_expr *arg, const attu_token *op_tok);
/* -x, folding into a numeric literal as PostgreSQL's doNegate does. */
attu_ast_expr *ab_negate(attu_parse_ctx *c, attu_ast_expr *arg, int pos);
attu_ast_expr *ab_binary(attu_parse_ctx *c, attu_ast_binary_op op,
                         attu_ast_expr *l, attu_ast_expr *r,
                         const attu_token *op_tok);
attu_ast_expr *ab_is(attu_parse_ctx *c, attu_ast_expr *arg, attu_ast_is_what w,
                     bool negated, int pos);
attu_ast_expr *ab_between(attu_parse_ctx *c, attu_ast_expr *arg,
                          attu_ast_expr *lo, attu_ast_expr *hi, bool negated,
                          bool symmetric, int pos);
attu_ast_expr *ab_like(attu_parse_ctx *c, attu_ast_expr *arg,
                       attu_ast_expr *pat, attu_ast_expr *esc, bool negated,
                       bool ci, int pos);
/* IN: in is either an IN_LIST or an IN_SUBQUERY shell from ab_in_*. */
attu_ast_expr *ab_in(attu_parse_ctx *c, attu_ast_expr *arg,
                     attu_ast_expr *in, bool negated, int pos);
attu_ast_expr *ab_in_list(attu_parse_ctx *c, attu_vec *list, int pos);
attu_ast_expr *ab_subquery(attu_parse_ctx *c, attu_ast_expr_kind k,
                           attu_ast_query *q, int pos);
attu_ast_expr *ab_cast(attu_parse_ctx *c, attu_ast_expr *arg,
                       const attu_ast_typename *t, attu_ast_cast_syntax s,
                       int pos);
attu_ast_expr *ab_case(attu_parse_ctx *c, attu_ast_expr *operand,
                       attu_vec *whens, attu_ast_expr *else_, int pos);
attu_ast_expr *ab_func(attu_parse_ctx *c, const char *schema, const char *name,
                       attu_vec *args, int pos);
attu_ast_expr *ab_func0(attu_parse_ctx *c, const char *name, int pos);
attu_ast_expr *ab_func1(attu_parse_ctx *c, const char *name, attu_ast_expr *a,
                        int pos);
attu_ast_expr *ab_func2(attu_parse_ctx *c, const char *name, attu_ast_expr *a,
                        attu_ast_expr *b, int pos);
attu_ast_expr *ab_func3(attu_parse_ctx *c, const char *name, attu_ast_expr *a,
                        attu_ast_expr *b, attu_ast_expr *d, int pos);
/* x op ANY|ALL (query); op_tok is the operator token. */
attu_ast_expr *ab_quantified(attu_parse_ctx *c, attu_ast_expr *arg,
                             const attu_token *op_tok, bool all,
                             attu_ast_query *q);
attu_ast_expr *ab_extract(attu_parse_ctx *c, const char *field,
                          attu_ast_expr *arg, int pos);

/* A recursive WITH query's SEARCH / CYCLE clauses rewritten into
 * columns its arms compute (planner/cte_search_cycle.c); recursive: the
 * WITH was WITH RECURSIVE. */
void ab_cte_search_cycle(attu_parse_ctx *c, attu_ast_cte *cte, bool recursive);

attu_ast_expr_list ab_expr_list(attu_vec *v);
attu_ast_name_list ab_name_list(attu_vec *names, attu_vec *positions);
attu_ast_order_list ab_order_list(attu_vec *v);

/* A (name, position) pair list, built by ab_names_push. */
typedef struct attu_names {
    attu_vec names;       /* char * */
    attu_vec positions;   /* int */
    attu_vec targets;     /* attu_ast_expr *, one per name once any is
                             subscripted (INSERT INTO t (a[1]): ab_insert_columns) */
    attu_vec schemas;     /* char ATTU_REL_*, one per name once any is
                             qualified (DROP TABLE public.t: ab_names_push_rel) */
} attu_names;
attu_names *ab_names_new(attu_parse_ctx *c);
attu_names *ab_names_push(attu_parse_ctx *c, attu_names *l, const char *name,
                          int pos);
attu_ast_name_list ab_names(attu_names *l);
/* A relation's name with how it was qualified (ATTU_REL_*), for the lists
 * of DROP, TRUNCATE and LOCK. */
attu_names *ab_names_push_rel(attu_parse_ctx *c, attu_names *l, const char *name, int pos, char schema);
/* INSERT's column a[i] / a[i:j] (the subscripts on the column, as SET
 * a[i] = v has them): its column's name, and the subscripts beside it. */
attu_names *ab_names_push_target(attu_parse_ctx *c, attu_names *l, attu_ast_expr *target);
/* Sets an INSERT's column list from l: its names, and its subscripted
 * targets where any is. */
void ab_insert_columns(attu_parse_ctx *c, attu_ast_stmt *s, attu_names *l);

/* Queries. */
attu_ast_query *ab_query(attu_parse_ctx *c, attu_ast_query_kind k, int pos);
attu_ast_query *ab_setop(attu_parse_ctx *c, attu_ast_setop op, bool all,
                         attu_ast_query *l, attu_ast_query *r, int pos);
/* Attaches ORDER BY / LIMIT / OFFSET / WITH to q, as PostgreSQL's
 * insertSelectOptions: a second clause of one kind is 42601 "multiple ORDER
 * BY clauses not allowed" etc. Any argument may be NULL / empty. */
typedef struct attu_limit {
    attu_ast_expr *limit;
    attu_ast_expr *offset;
    int            limit_pos;
    int            offset_pos;
    bool           has_limit;    /* LIMIT ALL is a limit with NULL expr */
    bool           with_ties;    /* FETCH ... WITH TIES (limit_pos: FETCH) */
} attu_limit;
attu_ast_query *ab_select_options(attu_parse_ctx *c, attu_ast_query *q,
                                  attu_vec *order, attu_limit *lim,
                                  attu_vec *with, bool recursive,
                                  int with_pos);

attu_ast_stmt *ab_stmt(attu_parse_ctx *c, attu_ast_stmt_kind k, int pos);

/* Named windows. An OVER that names a window is recorded with
 * ab_window_ref; each SELECT resolves the references written inside it
 * against its WINDOW clause (ab_windows_resolve: refs at or after from_pos),
 * and whatever is left at the end of the statement is 42704. */
void ab_window_ref(attu_parse_ctx *c, attu_ast_window *w, const char *name,
                   int pos, bool bare);
void ab_windows_define(attu_parse_ctx *c, attu_ast_query *q, attu_vec *defs);
void ab_windows_resolve(attu_parse_ctx *c, attu_ast_query *q, int from_pos);
void ab_windows_end_statement(attu_parse_ctx *c);

/* Recompute a node's depth after an action filled its fields in place (and
 * enforce ATTU_AST_MAX_DEPTH). */
void ab_expr_finish(attu_parse_ctx *c, attu_ast_expr *e);
void ab_query_finish(attu_parse_ctx *c, attu_ast_query *q);
void ab_from_finish(attu_parse_ctx *c, attu_ast_from *f);

/* Lower-cased copy of a token's identifier text. */
const char *ab_tokstr(const attu_token *t);

/* Records a finished statement (called by the grammar's toplevel rule). */
void ab_add_stmt(attu_parse_ctx *c, attu_ast_stmt *s);

#endif
