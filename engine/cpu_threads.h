/*
 * cpu_threads.h - parallel loops for the CPU backend.
 *
 * attu_parallel_for splits [0, n) into contiguous ranges, one per worker,
 * and runs fn on each; the calling thread takes the first range. Small
 * loops (n < grain * 2) run inline. Workers are plain pthreads started per
 * call: the CPU backend's loops are coarse (one per primitive), so the
 * start cost (tens of microseconds) is noise next to the work.
 */
#ifndef ATTU_CPU_THREADS_H
#define ATTU_CPU_THREADS_H

#include <stddef.h>

#include "engine/thread_pool.h"   /* attu_cpu_count */

typedef void (*attu_range_fn)(void *ctx, size_t begin, size_t end, int worker);

/* Runs fn over [0, n) on up to `threads` workers; returns the number of
 * workers used (fn's `worker` argument is below it). */
int attu_parallel_range(int threads, size_t n, size_t grain, attu_range_fn fn, void *ctx);

#endif
