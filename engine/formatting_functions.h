/*
 * formatting_functions.h - PostgreSQL 15's data type formatting functions
 * over a batch of rows: to_char of timestamps, dates, intervals and numbers, to_date
 * and to_number (engine/datetime_format.h, engine/numeric_format.h). Host
 * only: on the GPU backend their programs run on the host, as every
 * program with text registers does.
 */
#ifndef ATTU_ENGINE_FORMATTING_FUNCTIONS_H
#define ATTU_ENGINE_FORMATTING_FUNCTIONS_H

#include <stddef.h>

#include "engine/error.h"
#include "engine/expr_program.h"
#include "engine/regexp_functions.h"

/* Runs op (ATTU_OP_TO_CHAR_TS .. ATTU_OP_TO_TIMESTAMP; expr_program.h) with
 * aux (and zone_id, the engine/timezone.h zone a timestamptz or a date is
 * shown in by to_char: the instruction's imm_i) over rows [0, n) of A (the value) and B (the template) into D; a row
 * whose guard G is not TRUE, or with a NULL operand, gives NULL. at: A's
 * type. Returns 0 or -1 with err set. */
int attu_formatting_run(int op, int aux, int zone_id, attu_type at, const attu_slot *A, const attu_slot *B, const attu_slot *G,
                        attu_slot *D, size_t n, attu_regexp_alloc alloc, void *ctx, attu_error *err);

#endif
