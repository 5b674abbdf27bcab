/*
 * format_function.h - PostgreSQL 15's format(formatstr, VARIADIC "any"):
 * %s, %I (quote_ident), %L (quote_literal, NULL unquoted), %%, argument
 * positions n$, widths (a number, * or *n$, a negative one aligning left)
 * and the - flag, with PostgreSQL's errors in its order. Run-time work is
 * ATTU_OP_FORMAT, host only (strings): the GPU expression evaluator does
 * not take it.
 */
#ifndef ATTU_ENGINE_FORMAT_FUNCTION_H
#define ATTU_ENGINE_FORMAT_FUNCTION_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/error.h"
#include "engine/expr_program.h"

/* Whether %I must quote a word made of lower case letters, digits and _:
 * PostgreSQL's quote_identifier quotes every keyword but the unreserved
 * ones. The keyword table is the planner's (planner/lexer.h), which the
 * engine does not link; the planner installs its test when it binds a
 * format() call (attu_format_set_keyword_test), before any can run. Until
 * then no word counts as a keyword. */
void attu_format_set_keyword_test(bool (*needs_quotes)(const char *word));

/* Runs ATTU_OP_FORMAT over rows [0, n) into D: A the format string, B the
 * array of the arguments, of type bt (the planner's text[] of their output
 * texts, or the array of format(f, VARIADIC arr), whose elements print
 * with their type's output function); NULL elements are NULL arguments, a
 * NULL B none (VARIADIC NULL). A NULL A, or a row whose guard G is not
 * TRUE, gives NULL. Results come from alloc(ctx, size). Returns 0 or -1
 * with err set. */
int attu_format_run(const attu_slot *A, const attu_slot *B, attu_type bt, const attu_slot *G, attu_slot *D, size_t n,
                    char *(*alloc)(void *ctx, size_t n), void *ctx, attu_error *err);

#endif
