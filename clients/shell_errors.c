/*
 * shell_errors: showing what went wrong, in the form a person can act on.
 *
 *   ERROR:  syntax error at or near "FORM" (SQLSTATE 42601)
 *   LINE 1: SELECT name FORM cities
 *                       ^
 *   HINT:  ...
 *
 * The caret comes from PG_DIAG_STATEMENT_POSITION, a 1-based character
 * (not byte) offset into the statement as sent; the line shown is the one
 * holding that character, cut to a window around it when long. In a script
 * (-f) the message starts with "attu:FILE:LINE:" (the statement's first
 * line), like psql. On a terminal the severity is drawn in bold red unless
 * NO_COLOR is set.
 */
#include "shell.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool use_color(FILE *out) {
    return isatty(fileno(out)) && !getenv("NO_COLOR");
}

static void print_prefix(const shell_t *sh, FILE *out) {
    if (sh->source) fprintf(out, "attu:%s:%d: ", sh->source, sh->stmt_line);
}

/* Byte offset of the pos-th character (1-based) of s, or strlen when past. */
static size_t byte_of_char(const char *s, long pos) {
    size_t i = 0;
    long c = 0;
    for (; s[i]; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            if (++c == pos) return i;
        }
    }
    return i;
}

/* Prints "LINE n: <text>" and a caret under the byte at offset at. */
static void print_caret(const char *sql, size_t at, FILE *out) {
    size_t start = at, end = at;
    int line = 1;
    for (size_t i = 0; i < at && sql[i]; i++)
        if (sql[i] == '\n') line++;
    while (start > 0 && sql[start - 1] != '\n') start--;
    while (sql[end] && sql[end] != '\n') end++;
    /* Cut very long lines to a window around the caret. */
    enum { WINDOW = 60 };
    size_t from = start, to = end;
    bool cut_left = false, cut_right = false;
    if (at - start > WINDOW) {
        from = at - WINDOW / 2;
        while (from > start && ((unsigned char)sql[from] & 0xC0) == 0x80) from--;
        cut_left = true;
    }
    if (to - from > 2 * WINDOW) {
        to = from + 2 * WINDOW;
        while (to > at && ((unsigned char)sql[to] & 0xC0) == 0x80) to--;
        cut_right = true;
    }
    char head[32];
    int hn = snprintf(head, sizeof head, "LINE %d: ", line);
    fputs(head, out);
    int col = hn;
    if (cut_left) { fputs("...", out); col += 3; }
    for (size_t i = from; i < to; i++) {
        char c = sql[i] == '\t' || sql[i] == '\r' ? ' ' : sql[i];
        fputc(c, out);
        if (i < at && ((unsigned char)c & 0xC0) != 0x80) col++;
    }
    if (cut_right) fputs("...", out);
    fprintf(out, "\n%*s^\n", col, "");
}

void shell_print_error(const shell_t *sh, const PGresult *res, const char *sql,
                       FILE *out) {
    const char *sev = PQresultErrorField(res, PG_DIAG_SEVERITY);
    const char *msg = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
    const char *code = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    const char *detail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
    const char *hint = PQresultErrorField(res, PG_DIAG_MESSAGE_HINT);
    const char *pos = PQresultErrorField(res, PG_DIAG_STATEMENT_POSITION);
    const char *where = PQresultErrorField(res, PG_DIAG_CONTEXT);
    bool color = use_color(out);
    print_prefix(sh, out);
    if (!msg) {
        /* No fields: a client-side failure (lost connection, bad response). */
        const char *text = PQresultErrorMessage(res);
        fprintf(out, "%sERROR:%s  %s", color ? "\033[1;31m" : "",
                color ? "\033[0m" : "", text && *text ? text : "unknown error\n");
        size_t n = text ? strlen(text) : 1;
        if (n && text && text[n - 1] != '\n') fputc('\n', out);
        return;
    }
    fprintf(out, "%s%s:%s  %s", color ? "\033[1;31m" : "", sev ? sev : "ERROR",
            color ? "\033[0m" : "", msg);
    if (code) fprintf(out, " (SQLSTATE %s)", code);
    fputc('\n', out);
    long p = pos ? strtol(pos, NULL, 10) : 0;
    if (p > 0 && sql) print_caret(sql, byte_of_char(sql, p), out);
    if (detail) fprintf(out, "DETAIL:  %s\n", detail);
    if (hint) fprintf(out, "HINT:  %s\n", hint);
    if (where) fprintf(out, "CONTEXT:  %s\n", where);
}

void shell_error(const shell_t *sh, const char *fmt, ...) {
    bool color = use_color(stderr);
    print_prefix(sh, stderr);
    fprintf(stderr, "%serror:%s ", color ? "\033[1;31m" : "", color ? "\033[0m" : "");
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
