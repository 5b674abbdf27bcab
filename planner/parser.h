/*
 * parser.h - SQL text to syntax trees (planner/ast.h).
 *
 * attu_parse() splits a query string into its statements (separated by ';'
 * outside quotes and comments, as the simple Query protocol sends them) and
 * parses each into an attu_ast_stmt. Empty statements (";;", only comments)
 * are dropped, so "" and "-- hi" give a result with n == 0.
 *
 * Errors follow PostgreSQL exactly, so clients and tests see the same text:
 *   42601 syntax error at or near "TOKEN"        position = that token
 *   42601 syntax error at end of input           position = end of text
 *   42601 unterminated quoted string at or near "'abc"
 *   42601 unterminated quoted identifier at or near "\"abc"
 *   42601 unterminated comment (slash-star), message as PostgreSQL words it
 *   42601 zero-length delimited identifier at or near """"
 *   42P02 there is no parameter $0
 *   0A000 for syntax PostgreSQL accepts but attu does not (message names it)
 * Positions are 1-based character offsets into the whole sql string. On any
 * error nothing is returned (all-or-nothing: no statement of a string that
 * fails to parse runs, as in PostgreSQL's simple protocol).
 */
#ifndef ATTU_PLANNER_PARSER_H
#define ATTU_PLANNER_PARSER_H

#include <stddef.h>

#include "engine/error.h"
#include "planner/ast.h"

typedef struct attu_parsed_stmt {
    attu_ast_stmt *stmt;
    /* The statement's own text inside the original string, as byte offsets
     * (without the ';' and surrounding whitespace), for logs, pg_stat-like
     * views and prepared statements. */
    size_t         start;
    size_t         len;
    /* Highest $n used in this statement (0 if none). */
    int            nparams;
    /* param_used[k] for k in 1..nparams: whether $k is written in it
     * (PREPARE's "could not determine data type of parameter $k" for a
     * gap); NULL when nparams is 0. */
    const bool    *param_used;
} attu_parsed_stmt;

typedef struct attu_parse_result {
    attu_ast_arena   *arena;    /* owns everything below */
    attu_parsed_stmt *stmts;
    int               n;
} attu_parse_result;

/* Parses sql (NUL-terminated). Returns NULL with err set on failure
 * (42601 and friends as above, 53200 when out of memory). */
attu_parse_result *attu_parse(const char *sql, attu_error *err);

/* Like attu_parse but for len bytes that need not be NUL-terminated. */
attu_parse_result *attu_parse_n(const char *sql, size_t len, attu_error *err);

/* attu_parse_n for a client's query text: on_notice (may be NULL) is told
 * of what PostgreSQL's scanner reports as NOTICEs while it reads the text
 * (identifiers truncated to 63 bytes, 42622), in text order and before
 * any error of the parse, as PostgreSQL sends them. */
attu_parse_result *attu_parse_notify(const char *sql, size_t len, attu_error *err,
                                     void (*on_notice)(void *ctx, const char *sqlstate,
                                                       const char *message),
                                     void *notice_ctx);

/* Frees the result and every node (NULL is fine). */
void attu_parse_free(attu_parse_result *r);

/* 1-based character position of byte offset off in sql (UTF-8 aware), as
 * error positions are reported; handy for the binder when it only has a
 * byte offset. */
int attu_sql_char_position(const char *sql, size_t off);

#endif
