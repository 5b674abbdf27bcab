/*
 * explain.h - EXPLAIN [ANALYZE]: the stage plan as an indented tree.
 *
 * One line per stage: its kind and label, the backend patterns it runs and
 * the estimated rows; with ANALYZE also the measured rows, the time and the
 * device, e.g.
 *   Sort  [sort + gather]  (rows=52)  (actual rows=52 time=0.041 ms device=CPU)
 *     ->  Window  [sort + segment_heads + scan]  (rows=29510)
 */
#ifndef ATTU_PLANNER_EXPLAIN_H
#define ATTU_PLANNER_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/stage_plan.h"

/* Appends the plan's lines to *lines (malloc'ed strings). Returns the count
 * or -1 on OOM. device: "CPU" / "GPU" for ANALYZE. */
int attu_explain(const attu_stage *root, bool analyze, const char *device, char ***lines, int *nlines);

#endif
