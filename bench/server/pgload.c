/*
 * pgload - a libpq load driver for attud (or any PostgreSQL server).
 *
 *   pgload -h HOST -p PORT -c CLIENTS -T SECONDS [-M simple|extended] [-j THREADS]
 *          [-q SQL] [-i IDLE_CONNECTIONS]
 *
 * Opens CLIENTS connections spread over THREADS threads; each thread
 * drives its connections asynchronously (PQsendQuery or
 * PQsendQueryPrepared, then poll), so hundreds of clients need no
 * hundreds of threads. Every query's latency goes into a histogram with
 * 1-microsecond buckets up to 100 ms (coarser beyond). With -i, that many
 * extra connections are opened first and held idle for the whole run, and
 * the report says how many stayed usable.
 *
 * Prints one line: mode, clients, queries/s, p50 and p99 latency in ms.
 */
#define _GNU_SOURCE
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define HIST_US 100000           /* fine buckets: 0..100 ms */
#define HIST_N  (HIST_US + 1000) /* then 1 ms buckets up to 1 s */

static const char *host = "127.0.0.1", *port = "5433", *sql = "SELECT 1";
static int clients = 1, seconds = 5, threads = 2, extended = 0, idle = 0;
static atomic_int stop;
static uint64_t hist[HIST_N];
static pthread_mutex_t hist_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t connected;   /* timing starts once every client is connected */

static uint64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static int bucket(uint64_t us) {
    if (us < HIST_US) return (int)us;
    uint64_t ms = us / 1000;
    return ms >= 1100 ? HIST_N - 1 : (int)(HIST_US + ms - 100);
}
static double bucket_ms(int b) {
    return b < HIST_US ? b / 1000.0 : (double)(b - HIST_US + 100);
}

static PGconn *open_conn(void) {
    char ci[256];
    snprintf(ci, sizeof ci, "host=%s port=%s user=%s dbname=%s sslmode=disable",
             host, port, getenv("PGUSER") ? getenv("PGUSER") : "attu",
             getenv("PGDATABASE") ? getenv("PGDATABASE") : "attu");
    PGconn *c = PQconnectdb(ci);
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "pgload: connect: %s", PQerrorMessage(c));
        PQfinish(c);
        return NULL;
    }
    return c;
}

typedef struct slot {
    PGconn  *c;
    uint64_t sent_us;
} slot;

static int send_one(slot *s) {
    s->sent_us = now_us();
    return extended ? PQsendQueryPrepared(s->c, "q", 0, NULL, NULL, NULL, 0)
                    : PQsendQuery(s->c, sql);
}

static void *worker(void *arg) {
    int n = (int)(intptr_t)arg;
    slot *s = calloc((size_t)n, sizeof *s);
    struct pollfd *pf = calloc((size_t)n, sizeof *pf);
    uint64_t *local = calloc(HIST_N, sizeof *local);
    for (int i = 0; i < n; i++) {
        s[i].c = open_conn();
        if (!s[i].c) exit(1);
        if (extended) {
            PGresult *r = PQprepare(s[i].c, "q", sql, 0, NULL);
            if (PQresultStatus(r) != PGRES_COMMAND_OK) {
                fprintf(stderr, "pgload: prepare: %s", PQerrorMessage(s[i].c));
                exit(1);
            }
            PQclear(r);
        }
        PQsetnonblocking(s[i].c, 1);
    }
    pthread_barrier_wait(&connected);
    for (int i = 0; i < n; i++) send_one(&s[i]);
    while (!atomic_load(&stop)) {
        for (int i = 0; i < n; i++) {
            pf[i].fd = PQsocket(s[i].c);
            pf[i].events = POLLIN;
            PQflush(s[i].c);
        }
        if (poll(pf, (nfds_t)n, 100) <= 0) continue;
        for (int i = 0; i < n; i++) {
            if (!(pf[i].revents & (POLLIN | POLLERR | POLLHUP))) continue;
            if (!PQconsumeInput(s[i].c)) { fprintf(stderr, "pgload: %s", PQerrorMessage(s[i].c)); exit(1); }
            bool done = false;
            while (!PQisBusy(s[i].c)) {
                PGresult *r = PQgetResult(s[i].c);
                if (!r) { done = true; break; }
                ExecStatusType st = PQresultStatus(r);
                if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
                    fprintf(stderr, "pgload: query failed: %s", PQresultErrorMessage(r));
                    exit(1);
                }
                PQclear(r);
            }
            if (done) {
                local[bucket(now_us() - s[i].sent_us)]++;
                if (!atomic_load(&stop)) send_one(&s[i]);
            }
        }
    }
    pthread_mutex_lock(&hist_mu);
    for (int b = 0; b < HIST_N; b++) hist[b] += local[b];
    pthread_mutex_unlock(&hist_mu);
    for (int i = 0; i < n; i++) PQfinish(s[i].c);
    free(s); free(pf); free(local);
    return NULL;
}

int main(int argc, char **argv) {
    int opt;
    while ((opt = getopt(argc, argv, "h:p:c:T:M:j:q:i:")) != -1) {
        switch (opt) {
        case 'h': host = optarg; break;
        case 'p': port = optarg; break;
        case 'c': clients = atoi(optarg); break;
        case 'T': seconds = atoi(optarg); break;
        case 'M': extended = !strcmp(optarg, "extended"); break;
        case 'j': threads = atoi(optarg); break;
        case 'q': sql = optarg; break;
        case 'i': idle = atoi(optarg); break;
        default:
            fprintf(stderr, "usage: pgload -h HOST -p PORT -c CLIENTS -T SECONDS "
                            "[-M simple|extended] [-j THREADS] [-q SQL] [-i IDLE]\n");
            return 2;
        }
    }
    if (threads > clients) threads = clients;
    PGconn **held = idle ? calloc((size_t)idle, sizeof *held) : NULL;
    uint64_t t_idle = now_us();
    for (int i = 0; i < idle; i++)
        if (!(held[i] = open_conn())) { fprintf(stderr, "pgload: idle connection %d failed\n", i); return 1; }
    if (idle)
        fprintf(stderr, "pgload: %d idle connections opened in %.2f s\n", idle,
                (double)(now_us() - t_idle) / 1e6);
    pthread_t th[64];
    if (threads > 64) threads = 64;
    pthread_barrier_init(&connected, NULL, (unsigned)threads + 1);
    for (int t = 0; t < threads; t++) {
        int n = clients / threads + (t < clients % threads);
        pthread_create(&th[t], NULL, worker, (void *)(intptr_t)n);
    }
    pthread_barrier_wait(&connected);
    uint64_t t0 = now_us();
    sleep((unsigned)seconds);
    atomic_store(&stop, 1);
    for (int t = 0; t < threads; t++) pthread_join(th[t], NULL);
    double el = (double)(now_us() - t0) / 1e6;
    uint64_t total = 0;
    for (int b = 0; b < HIST_N; b++) total += hist[b];
    double p50 = 0, p99 = 0;
    uint64_t acc = 0;
    for (int b = 0; b < HIST_N; b++) {
        acc += hist[b];
        if (!p50 && acc * 2 >= total) p50 = bucket_ms(b);
        if (!p99 && acc * 100 >= total * 99) { p99 = bucket_ms(b); break; }
    }
    int alive = 0;
    for (int i = 0; i < idle; i++) {
        PGresult *r = PQexec(held[i], "SELECT 1");
        alive += PQresultStatus(r) == PGRES_TUPLES_OK;
        PQclear(r);
        PQfinish(held[i]);
    }
    printf("mode=%s clients=%d qps=%.0f p50_ms=%.3f p99_ms=%.3f queries=%llu",
           extended ? "extended" : "simple", clients, (double)total / el, p50, p99,
           (unsigned long long)total);
    if (idle) printf(" idle=%d idle_alive=%d", idle, alive);
    printf("\n");
    free(held);
    return 0;
}
