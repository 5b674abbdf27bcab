/*
 * expr_program_slice.h - the part of a program that computes some of its
 * registers, as a program of its own over a subset of the inputs.
 *
 * What it is for: an aggregate over a join whose argument adds a value of
 * one side to a value of the other (sum(t1.x + t2.y)) can sum each side on
 * its own (executor_split_sum.c); each side's sum runs the instructions
 * its value needs and reads only that side's columns.
 */
#ifndef ATTU_EXPR_PROGRAM_SLICE_H
#define ATTU_EXPR_PROGRAM_SLICE_H

#include "engine/expr_program.h"

#include <stdbool.h>

/* The slice of p that computes registers regs[0..nregs): every instruction
 * that writes a register they depend on (through operands and guards),
 * in p's order. input_ok[i] says whether input i may be read. Returns 0
 * with *out (its output j is regs[j]; its input j is p's input
 * inputs[j], *ninputs of them, in p's order), 1 when a register needs an
 * input that may not be read (nothing allocated), -1 out of memory.
 * inputs has room for p->ninputs entries. */
int attu_program_slice(const attu_expr_program *p, const int *regs, int nregs, const bool *input_ok,
                       attu_expr_program **out, int *inputs, int *ninputs);

/* The instruction that writes register r when exactly one does, without
 * a guard (NULL otherwise): the last step of a value, as sum(a + b) reads
 * a + b. */
const attu_instr *attu_program_sole_writer(const attu_expr_program *p, int r);

/* p with one more input of type t after its own (input p->ninputs, which
 * nothing reads yet); every other register is renumbered one up, the
 * outputs with them. NULL out of memory. What it is for: a weight per row
 * beside a slice's inputs (the split sum's partner counts). */
attu_expr_program *attu_program_add_input(const attu_expr_program *p, attu_type t);

#endif
