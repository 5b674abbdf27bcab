/*
 * lower.h - logical plan -> stage plan (engine/stage_plan.h), compiling
 * every scalar expression into a typed register program.
 */
#ifndef ATTU_PLANNER_LOWER_H
#define ATTU_PLANNER_LOWER_H

#include "engine/stage_plan.h"
#include "planner/logical_plan.h"

attu_stage *attu_lower(const attu_lplan *p, attu_error *err);

/* Compiles bound expressions over an input of ninput columns (types given)
 * into out. Shared subexpressions are computed once. */
/* Whether an opcode never raises an error, whatever its operands. */
bool attu_op_never_fails(int op);

int attu_compile_exprs(attu_bexpr *const *exprs, int n, int ninput, const attu_type *input_types,
                       attu_stage_exprs *out, attu_error *err);

#endif
