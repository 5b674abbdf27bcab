/*
 * regexp_functions.h - PostgreSQL 15's regular-expression functions over a
 * batch of rows: regexp_replace, regexp_count, regexp_instr, regexp_like,
 * regexp_substr, substring(s FROM pattern), regexp_match, the rows of
 * regexp_matches and regexp_split_to_array (text[]), on the AREs of
 * engine/similar.h, and SQL's substring(s SIMILAR pattern ESCAPE e).
 * Positions and the start argument count characters (UTF-8), as
 * PostgreSQL's do; argument checks, flags and their errors come in
 * PostgreSQL's order.
 */
#ifndef ATTU_ENGINE_REGEXP_FUNCTIONS_H
#define ATTU_ENGINE_REGEXP_FUNCTIONS_H

#include <stddef.h>

#include "engine/error.h"
#include "engine/expr_program.h"

/* n bytes for a text result, valid as long as the batch's other results
 * (the interpreter's arena); NULL when out of memory. */
typedef char *(*attu_regexp_alloc)(void *ctx, size_t n);

/* Runs the regexp opcode op (ATTU_OP_REGEXP_REPLACE ...
 * ATTU_OP_SIMILAR_SUBSTRING, see expr_program.h for its operands; text[]
 * results in engine/array.h's encoding) with aux
 * over rows [0, n) into D; a row whose guard G is not TRUE, or with a NULL
 * operand, gives NULL. B holds the pattern with its flags, as
 * ATTU_OP_REGEXP_FLAGS makes it (ATTU_OP_SIMILAR_SUBSTRING: the SIMILAR
 * TO pattern, C its escape). Returns 0 or -1 with err set. */
int attu_regexp_run(int op, int aux, const attu_slot *A, const attu_slot *B, const attu_slot *C, const attu_slot *Dd,
                    const attu_slot *G, attu_slot *D, size_t n, attu_regexp_alloc alloc, void *ctx, attu_error *err);

#endif
