/*
 * ssb_run: the Star Schema Benchmark runner.
 *
 *   ssb_run [--sf SF] [--data DIR] [--no-load] [--runs N]
 *           [-h HOST] [-p PORT] [-U USER] [-d DB] [--conninfo STR]
 *           [--duckdb LIBDUCKDB.so] [--threads N] [--no-server]
 *           [--expect DIR] [--save DIR] [--queries DIR] [--only q1.1,...]
 *           [--query-timeout S] [--csv FILE] [--label NAME]
 *           [--inproc cpu|gpu]
 *
 * Loads SSB into the server (attud, or any PostgreSQL-protocol server) over
 * the wire: CREATE TABLE from schema.sql, then COPY FROM STDIN of ssbgen's
 * CSVs (generated into DIR first when DIR/lineorder.csv is missing, with the
 * ssbgen next to this program). Then runs each of the 13 queries N times; the
 * first (cold) run is reported apart from the warm ones (median). With
 * --duckdb it does the same in DuckDB on the same CSV files and compares
 * every answer (numbers within 1e-9 relative); --expect DIR compares with
 * answers saved earlier by --save DIR. Prints per-query times and totals.
 *
 * --inproc DEV runs attu linked into this process (db/database.h) on the
 * CPU or the GPU instead of a server: the engine without the wire, in one
 * process a profiler can follow to its end.
 *
 * Exit status: 0 when every query answered (and matched, when compared),
 * 1 when any failed or differed, 2 on a usage, connection or load error.
 */
#include "ssb_engine.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef ATTU_SSB_SOURCE_DIR
#define ATTU_SSB_SOURCE_DIR "bench/ssb"
#endif

static const char *const QUERIES[13] = {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2",
                                        "q2.3", "q3.1", "q3.2", "q3.3", "q3.4",
                                        "q4.1", "q4.2", "q4.3"};

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (n < 0 || !s || fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        fclose(f);
        return NULL;
    }
    s[n] = 0;
    fclose(f);
    /* One statement per file: drop the trailing ';' and blanks, which some
     * engines reject in the extended protocol. */
    while (n > 0 && strchr(" \t\r\n;", s[n - 1])) s[--n] = 0;
    return s;
}

static int file_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

/* Runs ssbgen (next to argv0, else on PATH) to write SF into dir. */
static int generate(const char *argv0, double sf, const char *dir) {
    char gen[PATH_MAX];
    const char *slash = strrchr(argv0, '/');
    if (slash)
        snprintf(gen, sizeof gen, "%.*s/ssbgen", (int)(slash - argv0), argv0);
    else
        snprintf(gen, sizeof gen, "ssbgen");
    char cmd[3 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && '%s' -s %g -o '%s'", dir, gen, sf, dir);
    fprintf(stderr, "ssb: generating SF %g into %s\n", sf, dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct {
    double cold_ms, warm_ms;  /* warm: median of runs 2..N (cold when N == 1) */
    ssb_result_t *answer;     /* the last run's answer */
} timing_t;

static timing_t time_query(ssb_engine_t *e, const char *sql, int runs) {
    timing_t t = {0};
    double *ms = calloc((size_t)runs, sizeof *ms);
    for (int i = 0; i < runs; i++) {
        double t0 = ssb_now();
        ssb_result_t *r = e->query(e, sql);
        ms[i] = (ssb_now() - t0) * 1e3;
        ssb_result_free(t.answer);
        t.answer = r;
        if (r->error) { runs = i + 1; break; }
    }
    t.cold_ms = ms[0];
    if (runs > 1) {
        qsort(ms + 1, (size_t)runs - 1, sizeof *ms, cmp_double);
        t.warm_ms = ms[1 + (runs - 1) / 2];
    } else {
        t.warm_ms = ms[0];
    }
    free(ms);
    return t;
}

static void usage(FILE *f) {
    fprintf(f,
        "usage: ssb_run [options]\n"
        "  --sf SF            scale factor to generate when DIR has no data (default 1)\n"
        "  --data DIR         CSV directory (default ssb-sf<SF>)\n"
        "  --no-load          the server already has the tables\n"
        "  --runs N           runs per query (default 3; the first is the cold run)\n"
        "  -h/-p/-U/-d        server host, port, user, database (default 127.0.0.1 5433 attu)\n"
        "  --conninfo STR     a libpq connection string instead of -h/-p/-U/-d\n"
        "  --duckdb LIB       also run DuckDB (path to libduckdb.so) and compare answers\n"
        "  --threads N        DuckDB threads (default: all cores)\n"
        "  --no-server        run DuckDB only\n"
        "  --expect DIR       compare the server's answers with DIR/<q>.tsv\n"
        "  --save DIR         save the server's (or DuckDB's) answers to DIR/<q>.tsv\n"
        "  --queries DIR      query files (default %s/queries)\n"
        "  --only LIST        comma-separated query names, e.g. q1.1,q4.3\n"
        "  --query-timeout S  cancel a server query after S seconds and count it failed\n"
        "  --csv FILE         append machine-readable results to FILE (for ssb_chart.sh)\n"
        "  --label NAME       the server's name in --csv rows (default attu)\n"
        "  --inproc DEV       attu in this process (cpu, gpu or auto) instead of a server\n",
        ATTU_SSB_SOURCE_DIR);
}

int main(int argc, char **argv) {
    double sf = 1;
    const char *data = NULL, *conninfo = NULL, *duck_lib = NULL;
    const char *expect = NULL, *save = NULL, *only = NULL;
    /* libpq's environment (PGHOST, PGPORT, PGUSER, PGDATABASE) wins over
     * attud's defaults, as in the attu shell. */
    const char *host = getenv("PGHOST"), *port = getenv("PGPORT");
    const char *user = getenv("PGUSER"), *db = getenv("PGDATABASE");
    if (!host) host = "127.0.0.1";
    if (!port) port = "5433";
    if (!user) user = "attu";
    const char *qdir = ATTU_SSB_SOURCE_DIR "/queries";
    int runs = 3, threads = 0, load = 1, server = 1;
    double timeout_s = 0;
    const char *csv_path = NULL, *label = "attu", *inproc = NULL;
    static const struct option opts[] = {
        {"sf", required_argument, 0, 's'},      {"data", required_argument, 0, 'D'},
        {"no-load", no_argument, 0, 'L'},       {"runs", required_argument, 0, 'n'},
        {"conninfo", required_argument, 0, 'c'}, {"duckdb", required_argument, 0, 'k'},
        {"threads", required_argument, 0, 't'}, {"no-server", no_argument, 0, 'S'},
        {"expect", required_argument, 0, 'e'},  {"save", required_argument, 0, 'w'},
        {"queries", required_argument, 0, 'q'}, {"only", required_argument, 0, 'o'},
        {"query-timeout", required_argument, 0, 'T'},
        {"csv", required_argument, 0, 'V'},     {"label", required_argument, 0, 'B'},
        {"inproc", required_argument, 0, 'I'},
        {"help", no_argument, 0, '?'},          {0, 0, 0, 0}};
    int opt;
    while ((opt = getopt_long(argc, argv, "h:p:U:d:", opts, NULL)) != -1) {
        switch (opt) {
        case 's': sf = strtod(optarg, NULL); break;
        case 'D': data = optarg; break;
        case 'L': load = 0; break;
        case 'n': runs = atoi(optarg); break;
        case 'c': conninfo = optarg; break;
        case 'k': duck_lib = optarg; break;
        case 't': threads = atoi(optarg); break;
        case 'S': server = 0; break;
        case 'e': expect = optarg; break;
        case 'w': save = optarg; break;
        case 'q': qdir = optarg; break;
        case 'o': only = optarg; break;
        case 'T': timeout_s = strtod(optarg, NULL); break;
        case 'V': csv_path = optarg; break;
        case 'B': label = optarg; break;
        case 'I':
            inproc = optarg;
            if (strcmp(inproc, "cpu") && strcmp(inproc, "gpu") && strcmp(inproc, "auto")) {
                fprintf(stderr, "ssb: --inproc takes cpu, gpu or auto, not %s\n", inproc);
                return 2;
            }
            break;
        case 'h': host = optarg; break;
        case 'p': port = optarg; break;
        case 'U': user = optarg; break;
        case 'd': db = optarg; break;
        default: usage(stderr); return 2;
        }
    }
    if (runs < 1 || !(sf > 0) || optind != argc) { usage(stderr); return 2; }
    char datebuf[64];
    if (!data) {
        snprintf(datebuf, sizeof datebuf, "ssb-sf%g", sf);
        data = datebuf;
    }
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/lineorder.csv", data);
    if ((load || duck_lib) && !file_exists(path) && generate(argv[0], sf, data) != 0) {
        fprintf(stderr, "ssb: generating the data failed\n");
        return 2;
    }
    snprintf(path, sizeof path, "%s/../schema.sql", qdir);
    char *schema = read_text(path);
    if (!schema) {
        fprintf(stderr, "ssb: cannot read %s\n", path);
        return 2;
    }

    ssb_engine_t *srv = NULL, *duck = NULL;
    if (server && inproc) {
#ifdef ATTU_SSB_INPROC
        srv = ssb_inproc_open(inproc);
        if (!srv) return 2;
        if (load && srv->load(srv, schema, data) != 0) return 2;
#else
        fprintf(stderr, "ssb: this ssb_run was built without attu's library (--inproc)\n");
        return 2;
#endif
    } else if (server) {
        char ci[1024];
        if (!conninfo) {
            snprintf(ci, sizeof ci, "host=%s port=%s user=%s%s%s", host, port, user,
                     db ? " dbname=" : "", db ? db : "");
            conninfo = ci;
        }
        srv = ssb_pg_open(conninfo);
        if (!srv) return 2;
        srv->timeout_s = timeout_s;
        if (load && srv->load(srv, schema, data) != 0) return 2;
    }
    if (duck_lib) {
        duck = ssb_duckdb_open(duck_lib, threads);
        if (!duck || duck->load(duck, schema, data) != 0) return 2;
    }
    free(schema);
    if (!srv && !duck) { fprintf(stderr, "ssb: nothing to run\n"); return 2; }

    /* --csv: one row per engine and query: engine,sf,query,cold_ms,warm_ms,ok */
    FILE *csv = NULL;
    if (csv_path) {
        bool fresh = !file_exists(csv_path);
        csv = fopen(csv_path, "a");
        if (!csv) { fprintf(stderr, "ssb: cannot write %s\n", csv_path); return 2; }
        if (fresh) fprintf(csv, "engine,sf,query,cold_ms,warm_ms,ok\n");
    }
    printf("%-5s %12s %12s", "query", srv ? "server cold" : "", srv ? "server warm" : "");
    if (duck) printf(" %12s %12s %8s", "duckdb cold", "duckdb warm", srv ? "duck/srv" : "");
    printf("  %6s  %s\n", "rows", "answer");
    double tot[4] = {0};
    int failures = 0, ran = 0;
    for (int q = 0; q < 13; q++) {
        if (only) {
            const char *hit = strstr(only, QUERIES[q]);
            size_t n = strlen(QUERIES[q]);
            if (!hit || (hit[n] && hit[n] != ',')) continue;
        }
        snprintf(path, sizeof path, "%s/%s.sql", qdir, QUERIES[q]);
        char *sql = read_text(path);
        if (!sql) { fprintf(stderr, "ssb: cannot read %s\n", path); return 2; }
        ran++;
        timing_t ts = {0}, td = {0};
        if (srv) ts = time_query(srv, sql, runs);
        if (duck) td = time_query(duck, sql, runs);
        ssb_result_t *mine = srv ? ts.answer : td.answer;
        char why[512] = "ok";
        int ok = !mine->error;
        if (!ok) snprintf(why, sizeof why, "error: %s", mine->error);
        if (ok && srv && duck)
            ok = ssb_result_equal(ts.answer, td.answer, why, sizeof why);
        if (ok && expect) {
            snprintf(path, sizeof path, "%s/%s.tsv", expect, QUERIES[q]);
            ssb_result_t *want = ssb_result_load(path);
            if (!want) { ok = 0; snprintf(why, sizeof why, "cannot read %.400s", path); }
            else ok = ssb_result_equal(mine, want, why, sizeof why);
            ssb_result_free(want);
        }
        /* An empty answer proves little, but small scale factors legitimately
         * give some (q3.3, q3.4 select a handful of cities): accept it only
         * when another engine or a saved answer agrees. */
        int compared = (srv && duck) || expect;
        if (ok && mine->nrows == 0 && !compared) {
            ok = 0;
            snprintf(why, sizeof why, "empty answer");
        }
        if (ok && save) {
            snprintf(path, sizeof path, "%s/%s.tsv", save, QUERIES[q]);
            mkdir(save, 0777);
            if (ssb_result_save(mine, path) != 0)
                fprintf(stderr, "ssb: cannot write %s: %s\n", path, strerror(errno));
        }
        if (!ok) failures++;
        /* Engine messages end in a newline; keep the table one line a query. */
        why[strcspn(why, "\n")] = 0;
        if (srv) printf("%-5s %10.2fms %10.2fms", QUERIES[q], ts.cold_ms, ts.warm_ms);
        else printf("%-5s %12s %12s", QUERIES[q], "", "");
        if (duck)
        {
            if (srv) printf(" %10.2fms %10.2fms %7.1fx", td.cold_ms, td.warm_ms,
                            td.warm_ms / (ts.warm_ms > 0 ? ts.warm_ms : 1e-9));
            else printf(" %10.2fms %10.2fms %8s", td.cold_ms, td.warm_ms, "");
        }
        printf("  %6ld  %s%s%s\n", mine->nrows, ok ? "" : "FAIL ",
               ok ? (srv && duck ? "matches duckdb" : expect ? "matches expected" : "ok") : why,
               ok && mine->nrows == 0 ? " (empty)" : "");
        fflush(stdout);
        if (csv && srv)
            fprintf(csv, "%s,%g,%s,%.3f,%.3f,%d\n", label, sf, QUERIES[q], ts.cold_ms,
                    ts.warm_ms, !ts.answer->error && ok);
        if (csv && duck)
            fprintf(csv, "duckdb,%g,%s,%.3f,%.3f,%d\n", sf, QUERIES[q], td.cold_ms,
                    td.warm_ms, !td.answer->error);
        tot[0] += ts.cold_ms; tot[1] += ts.warm_ms;
        tot[2] += td.cold_ms; tot[3] += td.warm_ms;
        ssb_result_free(ts.answer);
        ssb_result_free(td.answer);
        free(sql);
    }
    if (srv) printf("%-5s %10.2fms %10.2fms", "total", tot[0], tot[1]);
    else printf("%-5s %12s %12s", "total", "", "");
    if (duck)
    {
        if (srv) printf(" %10.2fms %10.2fms %7.1fx", tot[2], tot[3],
                        tot[3] / (tot[1] > 0 ? tot[1] : 1e-9));
        else printf(" %10.2fms %10.2fms %8s", tot[2], tot[3], "");
    }
    printf("  %d of %d queries %s\n", ran - failures, ran,
           srv && duck ? "match DuckDB" : "answered");
    if (csv) fclose(csv);
    if (srv) srv->close(srv);
    if (duck) duck->close(duck);
    return failures ? 1 : 0;
}
