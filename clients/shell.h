/*
 * shell.h: the attu shell's shared state and the entry points each file of
 * the shell provides. The shell is a libpq client: it talks to attud (or any
 * PostgreSQL-protocol server) and never links attu's engine.
 *
 *   attu.c          options, connection, exit codes
 *   shell_input.c   reading input (libedit line editing + history, files,
 *                   -c strings) and cutting it into statements at ';'
 *   shell_exec.c    running one SQL statement: timing, results, cancel
 *   shell_output.c  aligned table / CSV / JSON rendering of a result
 *   shell_errors.c  error display with a caret under the error position
 *   shell_meta.c    backslash commands (\timing, \d, \explain, \q, ...)
 *   shell_copy.c    \copy FROM (with a progress bar) and \copy TO
 *   shell_explain.c EXPLAIN ANALYZE text rendered as a tree
 */
#ifndef ATTU_SHELL_H
#define ATTU_SHELL_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdio.h>

typedef enum { SHELL_ALIGNED, SHELL_CSV, SHELL_JSON } shell_format_t;

/* What \d uses to list tables: attu's SHOW TABLES / DESCRIBE, or
 * information_schema on a PostgreSQL server. Decided on first use. */
typedef enum { CATALOG_UNKNOWN, CATALOG_ATTU, CATALOG_PG } shell_catalog_t;

typedef struct {
    PGconn *conn;
    shell_format_t format;
    bool timing;          /* \timing: print each statement's wall time */
    bool interactive;     /* reading a terminal: errors do not stop the shell */
    bool progress;        /* draw \copy progress bars (stderr is a terminal) */
    bool quit;            /* \q seen */
    const char *source;   /* script name for error prefixes (-f), or NULL */
    int stmt_line;        /* line in source where the current statement starts */
    shell_catalog_t catalog;
} shell_t;

/* Return codes of running a statement or a meta command. */
enum { SHELL_OK = 0, SHELL_SQL_ERROR = 1, SHELL_CONN_LOST = 2 };

/* shell_input.c ----------------------------------------------------------- */
/* Each returns the process exit code: 0, 1 (a SQL error stopped a script),
 * 2 (the connection was lost). */
int shell_run_interactive(shell_t *sh);
int shell_run_file(shell_t *sh, FILE *f, const char *name);
int shell_run_string(shell_t *sh, const char *text);

/* Statement splitter: feeds text, reports complete statements. Exposed for
 * the unit test of quoting rules. */
typedef struct {
    char *buf;
    size_t len, cap;
    size_t pos;          /* bytes of buf already scanned */
    /* lexical state carried across lines */
    int in_quote;        /* '\'' or '"' inside a quoted literal/identifier,
                            'e' inside an E'...' escape string */
    int block_depth;     /* nesting of slash-star comments */
    int atomic_depth;    /* inside CREATE FUNCTION's BEGIN ATOMIC ... END
                            (1, plus each CASE's END it waits for): its
                            ';'s end no statement, as in psql */
    bool after_begin;    /* the word before was BEGIN */
    char *dollar_tag;    /* non-NULL inside $tag$ ... $tag$ */
} shell_splitter_t;

/* Appends one line (without its newline). Each complete statement found is
 * passed to emit (without the terminating ';'); stops early and returns
 * emit's non-zero result. Text after the last ';' stays buffered. */
int shell_splitter_feed(shell_splitter_t *sp, const char *line,
                        int (*emit)(void *arg, const char *stmt), void *arg);
/* True when the buffer holds only blanks and comments. */
bool shell_splitter_empty(const shell_splitter_t *sp);
/* Returns the buffered text (a statement lacking its ';') and clears it;
 * caller frees. */
char *shell_splitter_take(shell_splitter_t *sp);
void shell_splitter_free(shell_splitter_t *sp);

/* shell_exec.c ------------------------------------------------------------ */
/* Runs one SQL statement and prints its result or error. */
int shell_exec_sql(shell_t *sh, const char *sql);
/* Runs a statement for the shell's own use (\d), returning the result;
 * NULL on error (already reported unless quiet). */
PGresult *shell_query(shell_t *sh, const char *sql, bool quiet);
/* Milliseconds on a monotonic clock. */
double shell_now_ms(void);
/* SIGINT during a statement cancels it on the server. */
void shell_cancel_arm(shell_t *sh);
void shell_cancel_disarm(void);
/* SHELL_CONN_LOST when the connection is gone, else rc. */
int shell_check_conn(shell_t *sh, int rc);

/* shell_output.c ---------------------------------------------------------- */
void shell_print_result(const shell_t *sh, const PGresult *res, FILE *out);
/* Display width of a UTF-8 string in terminal columns. */
int shell_text_width(const char *s);

/* shell_errors.c ---------------------------------------------------------- */
/* Prints an error result: severity, message, SQLSTATE, detail, hint, and the
 * statement line with a caret under PG_DIAG_STATEMENT_POSITION. */
void shell_print_error(const shell_t *sh, const PGresult *res, const char *sql,
                       FILE *out);
/* Prints a shell-side error (bad meta command, unreadable file). */
void shell_error(const shell_t *sh, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* shell_meta.c ------------------------------------------------------------ */
/* Runs a backslash command line (starting with '\'). */
int shell_meta(shell_t *sh, const char *line);

/* shell_copy.c ------------------------------------------------------------ */
/* args: everything after "\copy ". */
int shell_copy(shell_t *sh, const char *args);

/* shell_explain.c --------------------------------------------------------- */
/* Renders the rows of an EXPLAIN [ANALYZE] result (one text column) as a
 * tree with per-node time and device. */
void shell_print_plan_tree(const PGresult *res, FILE *out);

#endif
