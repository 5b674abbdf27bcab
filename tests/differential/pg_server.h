/*
 * pg_server.h - a private, throwaway PostgreSQL 15 server for tests.
 *
 * pg_server_start initdb's a cluster in a fresh folder under $TMPDIR (C
 * locale, UTF8, trust authentication), starts it listening only on a Unix
 * socket inside that folder (so no port can clash with anything), and
 * returns a libpq connection string. pg_server_stop stops it and removes
 * the folder. When the process runs as root, the server runs as the
 * "postgres" user (PostgreSQL refuses to run as root).
 *
 * $ATTU_PG_DSN, when set, names an already running server instead: nothing
 * is started or stopped. $ATTU_PG_BINDIR overrides where initdb, pg_ctl
 * and postgres are looked for (default: /usr/lib/postgresql/15/bin, then
 * `pg_config --bindir`).
 */
#ifndef ATTU_TESTS_PG_SERVER_H
#define ATTU_TESTS_PG_SERVER_H

#include <stdbool.h>

typedef struct pg_server {
    bool started;          /* we own a server (stop it) */
    char dir[256];         /* its folder: data/, socket, logs */
    char bindir[256];
    char run_as[64];       /* "" or the user the server runs as */
    char dsn[512];
} pg_server;

/* Returns 0 and fills srv->dsn; 1 when no server binaries exist (the
 * caller skips); -1 on any other failure, with why[] explaining. */
int pg_server_start(pg_server *srv, char *why, int whylen);
void pg_server_stop(pg_server *srv);

#endif
