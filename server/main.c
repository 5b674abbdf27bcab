/*
 * main.c - attud: flags and config file, open the database, run the
 * bootstrap script on an empty data directory, serve until SIGTERM/SIGINT.
 *
 * Every flag can also be given in the --config file as `name = value`
 * (the flag's name without dashes); flags on the command line win.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "db/database.h"
#include "server/log.h"
#include "server/server.h"

static void usage(FILE *f) {
    fprintf(f,
        "usage: attud [options]\n"
        "  --host ADDR             listen address (default 127.0.0.1; 0.0.0.0 or :: for all)\n"
        "  --port N                TCP port (default 5433; 0 picks a free one)\n"
        "  --data-dir DIR          where tables live (default: in memory only)\n"
        "  --device cpu|gpu|auto   execution device (default auto)\n"
        "  --max-connections N     sessions at once (default 4000)\n"
        "  --load-dir DIR          the only folder server-side COPY may read\n"
        "  --log-level LEVEL       debug, info, warning, error, off (default info)\n"
        "  --config FILE           read `name = value` settings (same names as flags)\n"
        "  --bootstrap FILE.sql    run once when the data directory holds no tables\n"
        "  --max-message-size N    largest client message in bytes (default 64 MiB)\n"
        "  --users FILE            SCRAM-SHA-256 users (required for non-loopback clients)\n"
        "  --workers N             worker threads kept running (default: 2 x cores, at least 4)\n"
        "  --max-workers N         worker threads at most (default 256)\n"
        "  --shutdown-grace-ms N   how long SIGTERM waits for busy connections (default 10000)\n"
        "  --ready-file FILE       write the listening port to FILE once ready (for scripts)\n"
        "  --help\n");
}

enum { OPT_HOST = 1000, OPT_PORT, OPT_DATA_DIR, OPT_DEVICE, OPT_MAX_CONN, OPT_LOAD_DIR,
       OPT_LOG_LEVEL, OPT_CONFIG, OPT_BOOTSTRAP, OPT_MAX_MSG, OPT_USERS, OPT_WORKERS,
       OPT_MAX_WORKERS, OPT_GRACE, OPT_READY, OPT_HELP };

static const struct option long_opts[] = {
    { "host", required_argument, NULL, OPT_HOST },
    { "port", required_argument, NULL, OPT_PORT },
    { "data-dir", required_argument, NULL, OPT_DATA_DIR },
    { "device", required_argument, NULL, OPT_DEVICE },
    { "max-connections", required_argument, NULL, OPT_MAX_CONN },
    { "load-dir", required_argument, NULL, OPT_LOAD_DIR },
    { "log-level", required_argument, NULL, OPT_LOG_LEVEL },
    { "config", required_argument, NULL, OPT_CONFIG },
    { "bootstrap", required_argument, NULL, OPT_BOOTSTRAP },
    { "max-message-size", required_argument, NULL, OPT_MAX_MSG },
    { "users", required_argument, NULL, OPT_USERS },
    { "workers", required_argument, NULL, OPT_WORKERS },
    { "max-workers", required_argument, NULL, OPT_MAX_WORKERS },
    { "shutdown-grace-ms", required_argument, NULL, OPT_GRACE },
    { "ready-file", required_argument, NULL, OPT_READY },
    { "help", no_argument, NULL, OPT_HELP },
    { NULL, 0, NULL, 0 },
};

static int parse_long(const char *name, const char *v, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) {
        fprintf(stderr, "attud: invalid value for --%s: \"%s\" (expected %ld..%ld)\n",
                name, v, lo, hi);
        return -1;
    }
    *out = x;
    return 0;
}

/* Applies one setting; v is owned by the caller for the process lifetime. */
static int apply(server_config *cfg, int opt, const char *v) {
    long x;
    switch (opt) {
    case OPT_HOST: cfg->host = v; return 0;
    case OPT_PORT:
        if (parse_long("port", v, 0, 65535, &x)) return -1;
        cfg->port = (int)x; return 0;
    case OPT_DATA_DIR: cfg->data_dir = v; return 0;
    case OPT_DEVICE:
        if (!strcasecmp(v, "cpu")) cfg->device = ATTU_DEVICE_CPU;
        else if (!strcasecmp(v, "gpu")) cfg->device = ATTU_DEVICE_GPU;
        else if (!strcasecmp(v, "auto")) cfg->device = ATTU_DEVICE_AUTO;
        else { fprintf(stderr, "attud: --device must be cpu, gpu or auto, not \"%s\"\n", v); return -1; }
        return 0;
    case OPT_MAX_CONN:
        if (parse_long("max-connections", v, 1, 1000000, &x)) return -1;
        cfg->max_connections = (int)x; return 0;
    case OPT_LOAD_DIR: cfg->load_dir = v; return 0;
    case OPT_LOG_LEVEL:
        if (attu_log_level_parse(v) < 0) {
            fprintf(stderr, "attud: --log-level must be debug, info, warning, error or off\n");
            return -1;
        }
        cfg->log_level = attu_log_level_parse(v); return 0;
    case OPT_BOOTSTRAP: cfg->bootstrap = v; return 0;
    case OPT_MAX_MSG:
        if (parse_long("max-message-size", v, 1024, 1L << 30, &x)) return -1;
        cfg->max_message_size = (size_t)x; return 0;
    case OPT_USERS: cfg->users_file = v; return 0;
    case OPT_WORKERS:
        if (parse_long("workers", v, 1, 4096, &x)) return -1;
        cfg->workers = (int)x; return 0;
    case OPT_MAX_WORKERS:
        if (parse_long("max-workers", v, 1, 4096, &x)) return -1;
        cfg->max_workers = (int)x; return 0;
    case OPT_GRACE:
        if (parse_long("shutdown-grace-ms", v, 0, 3600000, &x)) return -1;
        cfg->shutdown_grace_ms = (int)x; return 0;
    case OPT_READY: cfg->ready_file = v; return 0;
    default: return -1;
    }
}

/* Strings read from the config file; they live until main returns. */
static char *config_strings[128];
static int nconfig_strings;

static void free_config_strings(void) {
    while (nconfig_strings) free(config_strings[--nconfig_strings]);
}

static int load_config(server_config *cfg, const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) { fprintf(stderr, "attud: cannot open config file %s: %s\n", path, strerror(errno)); return -1; }
    char line[4096];
    int lineno = 0, rc = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '#' || *p == '\n' || !*p) continue;
        char *name = p;
        while (*p && *p != '=' && *p != ' ' && *p != '\t' && *p != '\n') p++;
        char *name_end = p;
        while (*p == ' ' || *p == '\t' || *p == '=') p++;
        char *val = p;
        size_t n = strlen(val);
        while (n && (val[n - 1] == '\n' || val[n - 1] == '\r' || val[n - 1] == ' ')) val[--n] = 0;
        if (n >= 2 && val[0] == '"' && val[n - 1] == '"') { val[n - 1] = 0; val++; }
        *name_end = 0;
        int opt = 0;
        for (const struct option *o = long_opts; o->name; o++)
            if (!strcmp(o->name, name)) opt = o->val;
        if (!opt || opt == OPT_CONFIG || opt == OPT_HELP) {
            fprintf(stderr, "attud: %s:%d: unknown setting \"%s\"\n", path, lineno, name);
            rc = -1;
            break;
        }
        if (nconfig_strings == (int)(sizeof config_strings / sizeof config_strings[0])) {
            fprintf(stderr, "attud: %s: too many settings\n", path);
            rc = -1;
            break;
        }
        char *v = strdup(val);
        if (v) config_strings[nconfig_strings++] = v;
        if (!v || apply(cfg, opt, v)) { fprintf(stderr, "attud: in %s:%d\n", path, lineno); rc = -1; break; }
    }
    fclose(f);
    return rc;
}

/* True when the data directory holds a table folder (storage.h: one folder
 * per table; names starting with '.' are temporaries or lock files). */
static bool data_dir_has_tables(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return false;
    bool found = false;
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        DIR *sub = opendir(path);
        if (sub) { closedir(sub); found = true; }
    }
    closedir(d);
    return found;
}

typedef struct boot_ctx { int errors; } boot_ctx;

static int boot_result(void *ctx, attu_result *res) {
    attu_log(ATTU_LOG_INFO, "bootstrap: %s", res->tag);
    return 0;
}
static void boot_error(void *ctx, const attu_error *err) {
    ((boot_ctx *)ctx)->errors++;
    attu_log(ATTU_LOG_ERROR, "bootstrap: %s %s", err->sqlstate, err->message);
}
static void boot_notice(void *ctx, const char *sqlstate, const char *message) {
    attu_log(ATTU_LOG_INFO, "bootstrap: NOTICE %s", message);
}
static void boot_warning(void *ctx, const char *sqlstate, const char *message) {
    attu_log(ATTU_LOG_INFO, "bootstrap: WARNING %s", message);
}

static int run_bootstrap(attu_db *db, const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { attu_log(ATTU_LOG_ERROR, "cannot open bootstrap file %s: %s", path, strerror(errno)); return -1; }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *sql = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!sql || fread(sql, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(sql);
        attu_log(ATTU_LOG_ERROR, "cannot read bootstrap file %s", path);
        return -1;
    }
    fclose(f);
    sql[n] = 0;
    attu_session *s = attu_session_new(db);
    boot_ctx bc = {0};
    attu_exec_callbacks cb = { .ctx = &bc, .on_result = boot_result, .on_error = boot_error,
                               .on_notice = boot_notice, .on_warning = boot_warning };
    uint64_t t0 = now_us();
    int rc = s ? attu_session_exec(s, sql, &cb) : -1;
    if (s) attu_session_free(s);
    free(sql);
    attu_log(rc < 0 ? ATTU_LOG_ERROR : ATTU_LOG_INFO, "bootstrap %s %s in %.1f ms", path,
             rc < 0 ? "failed" : "done", (double)(now_us() - t0) / 1000.0);
    return rc < 0 ? -1 : 0;
}

/* Every query allocates and frees working buffers of tens to hundreds of
 * KB on worker threads. glibc's defaults hand such blocks back to the kernel
 * at once (mmap/munmap above 128 KB, madvise when a thread arena's top
 * shrinks), and each return is a TLB shootdown across all cores: for short
 * queries that cost more than the query (SELECT 1 ran at ~8k/s on 2 cores).
 * Keep freed memory in the process instead; a query's large columns (MBs and
 * up) still come from mmap. */
static void tune_malloc(void) {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_TOP_PAD, 16 << 20);
}

int main(int argc, char **argv) {
    tune_malloc();
    server_config cfg = {
        .host = "127.0.0.1", .port = 5433, .device = ATTU_DEVICE_AUTO,
        .max_connections = 4000, .log_level = ATTU_LOG_INFO,
        .max_message_size = 64u << 20, .workers = 0, .max_workers = 256,
        .shutdown_grace_ms = 10000,
    };
    /* the config file first, so that flags override it */
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (!strcmp(argv[i], "--config") && i + 1 < argc) v = argv[i + 1];
        else if (!strncmp(argv[i], "--config=", 9)) v = argv[i] + 9;
        if (v && load_config(&cfg, v)) { free_config_strings(); return 2; }
    }
    int opt;
    while ((opt = getopt_long(argc, argv, "", long_opts, NULL)) != -1) {
        if (opt == OPT_HELP) { usage(stdout); free_config_strings(); return 0; }
        if (opt == OPT_CONFIG) continue;
        if (opt == '?' || apply(&cfg, opt, optarg)) { usage(stderr); free_config_strings(); return 2; }
    }
    if (optind < argc) {
        fprintf(stderr, "attud: unexpected argument \"%s\"\n", argv[optind]);
        usage(stderr);
        free_config_strings();
        return 2;
    }
    atexit(free_config_strings);
    attu_log_set_level((attu_log_level)cfg.log_level);
    if (cfg.workers <= 0) {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        cfg.workers = ncpu > 0 ? (int)(2 * ncpu) : 4;
        if (cfg.workers < 4) cfg.workers = 4;
    }
    if (cfg.max_workers < cfg.workers) cfg.max_workers = cfg.workers;

    bool had_tables = cfg.data_dir && data_dir_has_tables(cfg.data_dir);
    attu_db_config dbc = { .data_dir = cfg.data_dir, .device = cfg.device, .load_dir = cfg.load_dir };
    attu_error err;
    memset(&err, 0, sizeof err);
    uint64_t t0 = now_us();
    attu_db *db = attu_db_open(&dbc, &err);
    if (!db) {
        attu_log(ATTU_LOG_ERROR, "could not open the database%s%s: %s %s",
                 cfg.data_dir ? " in " : "", cfg.data_dir ? cfg.data_dir : "",
                 err.sqlstate, err.message);
        return 1;
    }
    attu_log(ATTU_LOG_INFO, "database open in %.1f ms on %s (data directory %s)",
             (double)(now_us() - t0) / 1000.0, attu_db_device_description(db),
             cfg.data_dir ? cfg.data_dir : "none: in memory");
    if (cfg.bootstrap && !had_tables) run_bootstrap(db, cfg.bootstrap);
    else if (cfg.bootstrap) attu_log(ATTU_LOG_INFO, "bootstrap skipped: the data directory holds tables");

    int rc = server_run(&cfg, db);
    attu_db_close(db);
    return rc;
}
