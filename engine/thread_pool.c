/*
 * thread_pool.c - fork-join parallel loops (thread_pool.h).
 */
#include "engine/thread_pool.h"
#include "engine/datestyle.h"
#include "engine/enum_type.h"
#include "engine/timezone.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

int attu_cpu_count(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

typedef struct loop {
    void (*fn)(void *ctx, size_t task);
    void *ctx;
    size_t ntasks;
    size_t next;     /* atomically incremented */
    const attu_tz *zone;   /* the caller's session zone: a worker reads
                              timestamptz text as the caller would */
    attu_enum_source enums;   /* and its enum types (enum_type.h) */
    attu_datestyle datestyle;   /* and its DateStyle (datestyle.h) */
} loop;

static void *worker(void *arg) {
    loop *l = arg;
    attu_tz_set_session(l->zone);
    attu_enum_use(l->enums);
    attu_datestyle_set_session(l->datestyle);
    for (;;) {
        size_t t = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);
        if (t >= l->ntasks) break;
        l->fn(l->ctx, t);
    }
    return NULL;
}

int attu_parallel_for(int nthreads, size_t ntasks,
                      void (*fn)(void *ctx, size_t task), void *ctx) {
    if (nthreads <= 0) nthreads = attu_cpu_count();
    if ((size_t)nthreads > ntasks) nthreads = (int)ntasks;
    loop l = { fn, ctx, ntasks, 0, attu_tz_session(), attu_enum_current(), attu_datestyle_session() };
    if (nthreads <= 1) {
        worker(&l);
        return 0;
    }
    pthread_t *th = malloc((size_t)(nthreads - 1) * sizeof *th);
    int started = 0, rc = 0;
    if (th)
        for (; started < nthreads - 1; started++)
            if (pthread_create(&th[started], NULL, worker, &l) != 0) break;
    if (started < nthreads - 1) rc = -1;
    worker(&l);
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    free(th);
    return started == 0 && nthreads > 1 ? rc : 0;
}
