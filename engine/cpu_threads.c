/* cpu_threads.c - parallel loops for the CPU backend (see cpu_threads.h). */
#include "engine/cpu_threads.h"
#include "engine/datestyle.h"
#include "engine/enum_type.h"
#include "engine/timezone.h"

#include <pthread.h>
#include <unistd.h>

typedef struct range_job {
    attu_range_fn fn;
    void *ctx;
    size_t begin, end;
    int worker;
    const attu_tz *zone;   /* the caller's session zone (thread_pool.c's loop says why) */
    attu_enum_source enums;   /* and its enum types (likewise) */
    attu_datestyle datestyle;   /* and its DateStyle (likewise) */
} range_job;

static void *run_job(void *arg) {
    range_job *j = arg;
    attu_tz_set_session(j->zone);
    attu_enum_use(j->enums);
    attu_datestyle_set_session(j->datestyle);
    j->fn(j->ctx, j->begin, j->end, j->worker);
    return NULL;
}

#define MAX_WORKERS 256

int attu_parallel_range(int threads, size_t n, size_t grain, attu_range_fn fn, void *ctx) {
    if (threads <= 0) threads = attu_cpu_count();
    if (threads > MAX_WORKERS) threads = MAX_WORKERS;
    if (grain == 0) grain = 1;
    size_t want = n / grain;
    if (want < (size_t)threads) threads = want < 1 ? 1 : (int)want;
    if (threads <= 1 || n < 2 * grain) {
        if (n) fn(ctx, 0, n, 0);
        return 1;
    }
    range_job jobs[MAX_WORKERS];
    pthread_t tids[MAX_WORKERS];
    int started[MAX_WORKERS] = { 0 };
    size_t per = (n + (size_t)threads - 1) / (size_t)threads;
    for (int w = 0; w < threads; w++) {
        size_t b = (size_t)w * per, e = b + per > n ? n : b + per;
        jobs[w] = (range_job){ fn, ctx, b < n ? b : n, e, w, attu_tz_session(), attu_enum_current(), attu_datestyle_session() };
    }
    for (int w = 1; w < threads; w++)
        started[w] = pthread_create(&tids[w], NULL, run_job, &jobs[w]) == 0;
    run_job(&jobs[0]);
    for (int w = 1; w < threads; w++) {
        if (started[w]) pthread_join(tids[w], NULL);
        else run_job(&jobs[w]);   /* could not start a thread: do it here */
    }
    return threads;
}
