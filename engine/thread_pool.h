/*
 * thread_pool.h - fork-join parallel loops over host threads.
 *
 * attu_parallel_for runs fn(ctx, task) for task = 0..ntasks-1 on up to
 * nthreads threads (the caller's thread is one of them) and returns when all
 * are done. Tasks are handed out in increasing order from a shared counter,
 * so uneven tasks balance. Threads are started per call: the loops that use
 * this (CSV chunks, column copies) run for milliseconds or more, next to
 * which a thread start (~20 us) is noise, and nothing stays alive between
 * calls. The executor may reuse it for its CPU backend.
 */
#ifndef ATTU_THREAD_POOL_H
#define ATTU_THREAD_POOL_H

#include <stddef.h>

/* Online CPU cores (at least 1). */
int attu_cpu_count(void);

/* nthreads <= 0 means attu_cpu_count(). Returns 0, or -1 if no thread
 * could be started (then every task ran on the caller's thread anyway). */
int attu_parallel_for(int nthreads, size_t ntasks,
                      void (*fn)(void *ctx, size_t task), void *ctx);

#endif
