/*
 * server_harness.h - start and stop a daemon for a test, and a raw
 * protocol client for what libpq will not send (garbage, row limits).
 */
#ifndef ATTU_TESTS_SERVER_HARNESS_H
#define ATTU_TESTS_SERVER_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct test_daemon {
    pid_t pid;
    int   port;
    char  dir[256];
    char  log[320];
} test_daemon;

/* Starts bin --port 0 with extra args (NULL-terminated); returns 0 when it
 * listens (port filled), -1 otherwise (its log is printed). */
int daemon_start(test_daemon *d, const char *bin, const char *const *extra);
/* SIGTERM and wait; returns the exit status (or -1 / 128+signal). */
int daemon_stop(test_daemon *d);
/* Removes the daemon's temporary folder (after a clean exit). */
void daemon_cleanup(test_daemon *d);
/* A libpq connection string for the daemon. */
void daemon_conninfo(const test_daemon *d, char *out, size_t cap);

/* Raw client. */
int raw_connect(int port);
int raw_send(int fd, const void *p, size_t n);
int raw_send_msg(int fd, char type, const void *payload, size_t n);
int raw_startup(int fd, const char *user);      /* sends the startup packet */
/* Reads one backend message (type, payload malloc'ed into *payload).
 * Returns payload length, or -1 on EOF/error/timeout (ms). */
long raw_read_msg(int fd, char *type, char **payload, int timeout_ms);
/* Reads until ReadyForQuery; returns 0, or -1. */
int raw_until_ready(int fd, int timeout_ms);
/* Reads until EOF; returns 1 when an ErrorResponse with sqlstate came first. */
int raw_expect_error_then_eof(int fd, const char *sqlstate, int timeout_ms);
/* The value of field `code` in an ErrorResponse payload, or "". */
const char *raw_error_field(const char *payload, long len, char code);
double now_ms(void);

#endif
