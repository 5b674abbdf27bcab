/*
 * worker_pool.h - the threads that parse, plan and execute.
 *
 * The loop never runs SQL. It hands a connection to the pool; a worker
 * drains that connection's queued messages and goes back for more work.
 * min_threads run jobs; more would only contend for the cores. But a
 * worker may block for a long time (waiting for COPY data from a slow
 * client, or for a slow reader to drain its results): it says so with
 * worker_pool_block_begin/end, and while fewer than min_threads workers
 * are free to run, the pool starts another thread, up to max_threads.
 * Jobs beyond that wait in FIFO order.
 */
#ifndef ATTU_SERVER_WORKER_POOL_H
#define ATTU_SERVER_WORKER_POOL_H

typedef struct worker_pool worker_pool;
typedef void (*worker_fn)(void *arg);

worker_pool *worker_pool_new(int min_threads, int max_threads);
/* Queues fn(arg). Returns 0, or -1 when the pool is stopping. */
int worker_pool_submit(worker_pool *p, worker_fn fn, void *arg);
/* Finishes queued jobs, joins every thread, frees the pool. */
void worker_pool_free(worker_pool *p);
int worker_pool_threads(worker_pool *p);
/* Around a wait for a client (not for the CPU). */
void worker_pool_block_begin(worker_pool *p);
void worker_pool_block_end(worker_pool *p);

#endif
