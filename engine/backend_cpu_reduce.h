/*
 * backend_cpu_reduce.h - helpers the CPU backend shares between its files:
 * moving typed column slots in and out of interpreter registers, comparing
 * values, and the per-segment accumulators behind segreduce, reduce and
 * lbs_segreduce (including the top-k state of nth_smallest / _arg).
 */
#ifndef ATTU_BACKEND_CPU_REDUCE_H
#define ATTU_BACKEND_CPU_REDUCE_H

#include "engine/backend.h"
#include "engine/expr_program.h"

void attu_cpu_load_slots(const attu_vec *v, size_t base, size_t n, attu_slot *out);
void attu_cpu_load_slots_idx(const attu_vec *v, const int64_t *rows, size_t n, attu_slot *out);
void attu_cpu_broadcast_slot(const attu_vec *v, int64_t row, size_t n, attu_slot *out);
void attu_cpu_store_slots(attu_out *o, size_t base, size_t n, const attu_slot *s);

/* Compares rows i and j of one column (non-NULL): <0, 0, >0. TEXT by code. */
int attu_cpu_value_cmp(const attu_vec *v, int64_t i, int64_t j);
/* Order-preserving int64 image of a non-NULL value. */
int64_t attu_cpu_key_bits(const attu_vec *v, int64_t i);

/* Stable sort of the rows idx[0, n) (any starting order) by the keys, by
 * radix passes over their integer images (backend_cpu_radix.c): the merge
 * sort's permutation, for the key shapes attu_cpu_radix_sortable accepts. */
bool attu_cpu_radix_sortable(const attu_sort_key *keys, int nkeys, size_t n);
int attu_cpu_radix_sort(int threads, const attu_sort_key *keys, int nkeys, int64_t *idx, size_t n,
                        attu_error *err);

typedef struct attu_reducer attu_reducer;
attu_reducer *attu_reducer_new(const attu_reduce_spec *spec);
void attu_reducer_free(attu_reducer *r);
void attu_reducer_reset(attu_reducer *r);
/* Adds row `row` of spec->in (and spec->arg). */
int attu_reducer_add_row(attu_reducer *r, const attu_reduce_spec *spec, int64_t row, attu_error *err);
/* Adds one interpreted value (in may be NULL for COUNT(*)); payload is the
 * raw 8 bytes of the _ARG value. */
int attu_reducer_add_slot(attu_reducer *r, const attu_reduce_spec *spec, const attu_slot *in,
                          int64_t payload, int payload_null, attu_error *err);
/* STRING_AGG: the current segment's text (*s not NUL-terminated); returns
 * 0 when the segment had no input (the result is NULL). */
int attu_reducer_text(const attu_reducer *r, const char **s, size_t *len);
/* Writes the result of the current segment into row s of out. */
void attu_reducer_store(const attu_reducer *r, attu_out *out, size_t s);

#endif
