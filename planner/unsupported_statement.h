/*
 * unsupported_statement.h - PostgreSQL statements attu does not have.
 *
 * attu's grammar covers the statements it runs; a statement PostgreSQL
 * accepts but attu lacks (CREATE SCHEMA, CREATE TRIGGER, GRANT ... ON, DO,
 * TABLESAMPLE, ...) would otherwise fail as a syntax error at the word
 * that names it, telling the user their SQL is wrong when it is not. The
 * grammar's syntax-error handler asks this first: when the parser stopped
 * exactly at that word, the error is 0A000 naming the feature instead
 * (parser.h's "0A000 for syntax PostgreSQL accepts but attu does not").
 */
#ifndef ATTU_PLANNER_UNSUPPORTED_STATEMENT_H
#define ATTU_PLANNER_UNSUPPORTED_STATEMENT_H

#include <stdbool.h>
#include <stddef.h>

/* The statement starting at byte stmt_start of sql (len bytes in all)
 * failed to parse at the token at byte tok_off. When that token is the
 * word naming a statement form (or clause) attu does not support, writes
 * the 0A000 message ("CREATE SCHEMA is not supported") to buf and returns
 * true; otherwise false (the caller reports its syntax error). */
bool attu_unsupported_statement(const char *sql, size_t len, size_t stmt_start, size_t tok_off,
                                char *buf, size_t bufsize);

#endif
