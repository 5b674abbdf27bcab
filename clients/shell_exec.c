/*
 * shell_exec: running one SQL statement for the user.
 *
 * The statement goes out with PQexec (simple query protocol), so a COPY
 * typed as SQL works as the server defines it; the result is printed in the
 * chosen format, an error with its caret, and with \timing on the wall time
 * from sending to the last row. Ctrl-C while a statement runs sends a cancel
 * request (PQcancel is safe in a signal handler); the statement then ends
 * with the server's "canceling statement" error.
 */
#include "shell.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double shell_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static PGcancel *volatile cancel_handle;
static struct sigaction saved_int;

static void on_sigint(int sig) {
    (void)sig;
    PGcancel *c = cancel_handle;
    char err[128];
    if (c) PQcancel(c, err, sizeof err);
}

void shell_cancel_arm(shell_t *sh) {
    cancel_handle = PQgetCancel(sh->conn);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &saved_int);
}

void shell_cancel_disarm(void) {
    sigaction(SIGINT, &saved_int, NULL);
    PGcancel *c = cancel_handle;
    cancel_handle = NULL;
    if (c) PQfreeCancel(c);
}

int shell_check_conn(shell_t *sh, int rc) {
    if (PQstatus(sh->conn) == CONNECTION_OK) return rc;
    /* In a terminal, try once to get the session back; scripts stop. */
    if (sh->interactive) {
        fprintf(stderr, "attu: the connection to the server was lost; reconnecting...");
        PQreset(sh->conn);
        if (PQstatus(sh->conn) == CONNECTION_OK) {
            fprintf(stderr, " done.\n");
            return rc == SHELL_OK ? SHELL_SQL_ERROR : rc;
        }
        fprintf(stderr, " failed.\n");
    } else {
        fprintf(stderr, "attu: the connection to the server was lost\n");
    }
    return SHELL_CONN_LOST;
}

/* A COPY ... FROM STDIN / TO STDOUT typed as SQL: feed it from the shell's own
 * stdin / print to stdout, as psql does. */
static void finish_copy(shell_t *sh, PGresult *res) {
    ExecStatusType st = PQresultStatus(res);
    if (st == PGRES_COPY_OUT) {
        char *buf;
        int n;
        while ((n = PQgetCopyData(sh->conn, &buf, 0)) > 0) {
            fwrite(buf, 1, (size_t)n, stdout);
            PQfreemem(buf);
        }
    } else if (st == PGRES_COPY_IN) {
        if (sh->interactive)
            fprintf(stderr, "Enter data to be copied followed by a newline.\n"
                            "End with a backslash and a period on a line by itself.\n");
        char *line = NULL;
        size_t cap = 0;
        ssize_t n;
        while ((n = getline(&line, &cap, stdin)) >= 0) {
            if (strcmp(line, "\\.\n") == 0 || strcmp(line, "\\.") == 0) break;
            PQputCopyData(sh->conn, line, (int)n);
        }
        free(line);
        PQputCopyEnd(sh->conn, NULL);
    }
}

int shell_exec_sql(shell_t *sh, const char *sql) {
    double t0 = shell_now_ms();
    shell_cancel_arm(sh);
    int rc = SHELL_OK;
    if (!PQsendQuery(sh->conn, sql)) {
        shell_cancel_disarm();
        fprintf(stderr, "attu: %s", PQerrorMessage(sh->conn));
        return shell_check_conn(sh, SHELL_SQL_ERROR);
    }
    PGresult *res;
    while ((res = PQgetResult(sh->conn)) != NULL) {
        ExecStatusType st = PQresultStatus(res);
        if (st == PGRES_COPY_IN || st == PGRES_COPY_OUT) {
            finish_copy(sh, res);
        } else if (st == PGRES_FATAL_ERROR || st == PGRES_NONFATAL_ERROR ||
                   st == PGRES_BAD_RESPONSE) {
            shell_print_error(sh, res, sql, stderr);
            rc = SHELL_SQL_ERROR;
        } else {
            shell_print_result(sh, res, stdout);
        }
        PQclear(res);
    }
    shell_cancel_disarm();
    /* LISTEN: the notifications that came with the reply (and before
     * it), printed as psql prints them */
    PQconsumeInput(sh->conn);
    PGnotify *n;
    while ((n = PQnotifies(sh->conn)) != NULL) {
        if (n->extra && *n->extra)
            printf("Asynchronous notification \"%s\" with payload \"%s\" received from server process with PID %d.\n",
                   n->relname, n->extra, n->be_pid);
        else
            printf("Asynchronous notification \"%s\" received from server process with PID %d.\n", n->relname,
                   n->be_pid);
        PQfreemem(n);
    }
    if (sh->timing) printf("Time: %.3f ms\n", shell_now_ms() - t0);
    fflush(stdout);
    return shell_check_conn(sh, rc);
}

PGresult *shell_query(shell_t *sh, const char *sql, bool quiet) {
    PGresult *res = PQexec(sh->conn, sql);
    if (PQresultStatus(res) == PGRES_TUPLES_OK) return res;
    if (!quiet) shell_print_error(sh, res, sql, stderr);
    PQclear(res);
    return NULL;
}
