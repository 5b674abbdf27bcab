/*
 * pg_server.c - starts and stops a private PostgreSQL server (pg_server.h).
 *
 * Everything goes through /bin/sh command lines built from paths this file
 * made itself (mkdtemp names and the binary folder), so no client input is
 * ever quoted here.
 */
#include "pg_server.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static bool has_binaries(const char *bindir) {
    char p[512];
    snprintf(p, sizeof p, "%s/initdb", bindir);
    if (access(p, X_OK) != 0) return false;
    snprintf(p, sizeof p, "%s/pg_ctl", bindir);
    if (access(p, X_OK) != 0) return false;
    snprintf(p, sizeof p, "%s/postgres", bindir);
    return access(p, X_OK) == 0;
}

static bool find_bindir(char *out, size_t cap) {
    const char *env = getenv("ATTU_PG_BINDIR");
    if (env && *env) {
        snprintf(out, cap, "%s", env);
        return has_binaries(out);
    }
    snprintf(out, cap, "/usr/lib/postgresql/15/bin");
    if (has_binaries(out)) return true;
    FILE *p = popen("pg_config --bindir 2>/dev/null", "r");
    if (!p) return false;
    bool ok = fgets(out, (int)cap, p) != NULL;
    pclose(p);
    if (!ok) return false;
    out[strcspn(out, "\n")] = '\0';
    return has_binaries(out);
}

/* Runs cmd as the server's user; returns the shell's exit status. */
static int run_as(const pg_server *srv, const char *cmd) {
    char line[2048];
    if (srv->run_as[0])
        snprintf(line, sizeof line, "su -s /bin/sh %s -c \"%s\"", srv->run_as, cmd);
    else
        snprintf(line, sizeof line, "%s", cmd);
    int rc = system(line);
    return rc == -1 ? -1 : WEXITSTATUS(rc);
}

int pg_server_start(pg_server *srv, char *why, int whylen) {
    memset(srv, 0, sizeof *srv);
    const char *dsn = getenv("ATTU_PG_DSN");
    if (dsn && *dsn) {
        snprintf(srv->dsn, sizeof srv->dsn, "%s", dsn);
        return 0;
    }
    if (!find_bindir(srv->bindir, sizeof srv->bindir)) {
        snprintf(why, (size_t)whylen, "no PostgreSQL server binaries (initdb, pg_ctl, postgres); "
                 "install the Debian package postgresql or set ATTU_PG_BINDIR");
        return 1;
    }
    if (geteuid() == 0) {
        struct passwd *pw = getpwnam("postgres");
        if (!pw) {
            snprintf(why, (size_t)whylen, "running as root and no \"postgres\" user to run the server as");
            return 1;
        }
        snprintf(srv->run_as, sizeof srv->run_as, "postgres");
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(srv->dir, sizeof srv->dir, "%s/attu_pg_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(srv->dir)) {
        snprintf(why, (size_t)whylen, "mkdtemp %s failed", srv->dir);
        return -1;
    }
    if (srv->run_as[0]) {
        struct passwd *pw = getpwnam(srv->run_as);
        if (chown(srv->dir, pw->pw_uid, pw->pw_gid) != 0) {
            snprintf(why, (size_t)whylen, "chown %s failed", srv->dir);
            rmdir(srv->dir);
            return -1;
        }
    }
    chmod(srv->dir, 0700);
    char cmd[1536];
    snprintf(cmd, sizeof cmd,
             "%s/initdb -D %s/data -A trust -U attu -E UTF8 --locale=C --no-sync "
             ">%s/initdb.log 2>&1", srv->bindir, srv->dir, srv->dir);
    if (run_as(srv, cmd) != 0) {
        snprintf(why, (size_t)whylen, "initdb failed; see %s/initdb.log", srv->dir);
        return -1;
    }
    /* Unix socket only (listen_addresses empty), in our own folder. */
    snprintf(cmd, sizeof cmd,
             "%s/pg_ctl -D %s/data -w -t 60 -l %s/server.log "
             "-o '-k %s -p 5432 -c listen_addresses= -c fsync=off "
             "-c synchronous_commit=off -c full_page_writes=off' start >%s/pg_ctl.log 2>&1",
             srv->bindir, srv->dir, srv->dir, srv->dir, srv->dir);
    if (run_as(srv, cmd) != 0) {
        snprintf(why, (size_t)whylen, "pg_ctl start failed; see %s/server.log", srv->dir);
        return -1;
    }
    srv->started = true;
    snprintf(srv->dsn, sizeof srv->dsn, "host=%s port=5432 user=attu dbname=postgres", srv->dir);
    return 0;
}

void pg_server_stop(pg_server *srv) {
    if (!srv->started) return;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/pg_ctl -D %s/data -m immediate -w stop >/dev/null 2>&1",
             srv->bindir, srv->dir);
    run_as(srv, cmd);
    snprintf(cmd, sizeof cmd, "rm -rf %s", srv->dir);
    if (system(cmd) != 0) fprintf(stderr, "pg_server: could not remove %s\n", srv->dir);
    srv->started = false;
}
