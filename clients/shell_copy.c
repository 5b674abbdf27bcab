/*
 * shell_copy: \copy, COPY with the file on the client's side.
 *
 *   \copy TABLE [(col, ...)] FROM 'file' [options]
 *   \copy TABLE [(col, ...)] | (QUERY) TO 'file' | stdout [options]
 *
 * FROM sends "COPY TABLE FROM STDIN options" and streams the file with
 * PQputCopyData in 256 KiB pieces; on a terminal a progress bar on stderr
 * shows the share of bytes sent, the rows (counted as newlines, so a quoted
 * field holding a newline counts twice: it is an estimate) per second and the
 * time left, refreshed ten times a second. The server's COPY count is the
 * true row count and is printed at the end. TO sends "COPY ... TO STDOUT
 * options" and writes what arrives. The options are passed through as
 * written (WITH (FORMAT csv, HEADER true), or the older CSV HEADER form).
 */
#define _GNU_SOURCE /* strcasestr */
#include "shell.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* Finds the FROM / TO keyword outside quotes and parentheses. Returns its
 * offset in s and sets *to for TO, or -1. */
static long find_direction(const char *s, bool *to) {
    int depth = 0;
    char q = 0;
    for (long i = 0; s[i]; i++) {
        char c = s[i];
        if (q) { if (c == q) q = 0; continue; }
        if (c == '\'' || c == '"') { q = c; continue; }
        if (c == '(') depth++;
        else if (c == ')') depth--;
        else if (depth == 0 && (i == 0 || isspace((unsigned char)s[i - 1]) || s[i - 1] == ')')) {
            if (!strncasecmp(s + i, "from", 4) && (isspace((unsigned char)s[i + 4]) || !s[i + 4])) {
                *to = false;
                return i;
            }
            if (!strncasecmp(s + i, "to", 2) && (isspace((unsigned char)s[i + 2]) || !s[i + 2])) {
                *to = true;
                return i;
            }
        }
    }
    return -1;
}

/* Reads the file operand: 'quoted' (with '' for a quote) or a bare word. */
static const char *parse_file(const char *p, char *out, size_t outlen) {
    while (isspace((unsigned char)*p)) p++;
    size_t n = 0;
    if (*p == '\'') {
        p++;
        while (*p) {
            if (*p == '\'') {
                if (p[1] == '\'') p++;
                else break;
            }
            if (n + 1 < outlen) out[n++] = *p;
            p++;
        }
        if (*p != '\'') return NULL;
        p++;
    } else {
        while (*p && !isspace((unsigned char)*p) && *p != ';') {
            if (n + 1 < outlen) out[n++] = *p;
            p++;
        }
    }
    out[n] = 0;
    return n ? p : NULL;
}

static void human_bytes(double b, char *out, size_t n) {
    const char *units[] = {"B", "KB", "MB", "GB", "TB"};
    int u = 0;
    while (b >= 1000 && u < 4) { b /= 1000; u++; }
    snprintf(out, n, u ? "%.1f %s" : "%.0f %s", b, units[u]);
}

static void human_count(double v, char *out, size_t n) {
    if (v >= 1e9) snprintf(out, n, "%.2fG", v / 1e9);
    else if (v >= 1e6) snprintf(out, n, "%.2fM", v / 1e6);
    else if (v >= 1e4) snprintf(out, n, "%.1fk", v / 1e3);
    else snprintf(out, n, "%.0f", v);
}

/* One progress line: [#####-----]  45%  12.3 MB / 27.1 MB  1.20M rows/s  ETA 3s */
static void draw_progress(double sent, double total, double rows, double secs,
                          bool done) {
    enum { BAR = 24 };
    double frac = total > 0 ? sent / total : 1;
    if (frac > 1) frac = 1;
    int fill = (int)(frac * BAR + 0.5);
    char bar[BAR + 1];
    for (int i = 0; i < BAR; i++) bar[i] = i < fill ? '#' : '-';
    bar[BAR] = 0;
    char sb[32], tb[32], rate[32], rr[32];
    human_bytes(sent, sb, sizeof sb);
    human_bytes(total, tb, sizeof tb);
    if (rows < 0) rows = 0;
    human_count(rows, rr, sizeof rr);
    human_count(secs > 0 ? rows / secs : 0, rate, sizeof rate);
    char eta[32];
    if (done) snprintf(eta, sizeof eta, "in %.1fs", secs);
    else if (sent > 0 && secs > 0.05) snprintf(eta, sizeof eta, "ETA %.0fs", (total - sent) / (sent / secs));
    else snprintf(eta, sizeof eta, "ETA --");
    fprintf(stderr, "\r[%s] %3.0f%%  %s / %s  %s rows  %s rows/s  %s\033[K",
            bar, frac * 100, sb, tb, rr, rate, eta);
    if (done) fputc('\n', stderr);
    fflush(stderr);
}

/* Collects the final result of a COPY; prints its tag or its error. */
static int copy_result(shell_t *sh, const char *sql) {
    int rc = SHELL_OK;
    PGresult *r;
    while ((r = PQgetResult(sh->conn)) != NULL) {
        if (PQresultStatus(r) == PGRES_COMMAND_OK) {
            shell_print_result(sh, r, stdout);
        } else {
            shell_print_error(sh, r, sql, stderr);
            rc = SHELL_SQL_ERROR;
        }
        PQclear(r);
    }
    return rc;
}

/* True when COPY options ask for a header line (HEADER, HEADER true/on/1,
 * HEADER MATCH); it is not a row, so the progress count leaves it out. */
static bool has_header(const char *opts) {
    for (const char *p = opts; (p = strcasestr(p, "header")); p += 6) {
        if (p > opts && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) continue;
        const char *v = p + 6;
        while (*v == ' ' || *v == '\t') v++;
        if (!strncasecmp(v, "false", 5) || !strncasecmp(v, "off", 3) || *v == '0')
            return false;
        return true;
    }
    return false;
}

static int copy_from(shell_t *sh, const char *sql, const char *path) {
    bool std = !strcasecmp(path, "stdin") || !strcasecmp(path, "pstdin");
    FILE *f = std ? stdin : fopen(path, "rb");
    if (!f) {
        shell_error(sh, "cannot open %s: %s", path, strerror(errno));
        return SHELL_SQL_ERROR;
    }
    struct stat st;
    double total = (!std && fstat(fileno(f), &st) == 0) ? (double)st.st_size : 0;
    PGresult *r = PQexec(sh->conn, sql);
    if (PQresultStatus(r) != PGRES_COPY_IN) {
        shell_print_error(sh, r, sql, stderr);
        PQclear(r);
        if (!std) fclose(f);
        return shell_check_conn(sh, SHELL_SQL_ERROR);
    }
    PQclear(r);
    shell_cancel_arm(sh);
    static char buf[256 * 1024];
    size_t n;
    double sent = 0, rows = has_header(sql) ? -1 : 0, t0 = shell_now_ms(), last = 0;
    bool show = sh->progress && !std;
    const char *fail = NULL;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (PQputCopyData(sh->conn, buf, (int)n) != 1) { fail = PQerrorMessage(sh->conn); break; }
        sent += (double)n;
        for (const char *p = buf; (p = memchr(p, '\n', (size_t)(buf + n - p))); p++) rows++;
        double now = shell_now_ms();
        if (show && now - last >= 100) {
            draw_progress(sent, total, rows, (now - t0) / 1e3, false);
            last = now;
        }
    }
    if (!fail && ferror(f)) fail = "error reading the file";
    if (!std) fclose(f);
    if (show) draw_progress(sent, total, rows, (shell_now_ms() - t0) / 1e3, true);
    /* A failed read aborts the COPY so nothing half-loaded stays. */
    PQputCopyEnd(sh->conn, fail ? fail : NULL);
    int rc = copy_result(sh, sql);
    shell_cancel_disarm();
    if (sh->timing) printf("Time: %.3f ms\n", shell_now_ms() - t0);
    return shell_check_conn(sh, rc);
}

static int copy_to(shell_t *sh, const char *sql, const char *path) {
    bool std = !strcasecmp(path, "stdout") || !strcasecmp(path, "pstdout");
    FILE *f = std ? stdout : fopen(path, "wb");
    if (!f) {
        shell_error(sh, "cannot create %s: %s", path, strerror(errno));
        return SHELL_SQL_ERROR;
    }
    double t0 = shell_now_ms();
    PGresult *r = PQexec(sh->conn, sql);
    if (PQresultStatus(r) != PGRES_COPY_OUT) {
        shell_print_error(sh, r, sql, stderr);
        PQclear(r);
        if (!std) fclose(f);
        return shell_check_conn(sh, SHELL_SQL_ERROR);
    }
    PQclear(r);
    shell_cancel_arm(sh);
    char *data;
    int n;
    bool werr = false;
    while ((n = PQgetCopyData(sh->conn, &data, 0)) > 0) {
        if (fwrite(data, 1, (size_t)n, f) != (size_t)n) werr = true;
        PQfreemem(data);
    }
    int rc = copy_result(sh, sql);
    shell_cancel_disarm();
    if (!std && fclose(f) != 0) werr = true;
    if (std) fflush(stdout);
    if (werr) {
        shell_error(sh, "writing %s failed", path);
        rc = SHELL_SQL_ERROR;
    }
    if (sh->timing) printf("Time: %.3f ms\n", shell_now_ms() - t0);
    return shell_check_conn(sh, rc);
}

int shell_copy(shell_t *sh, const char *args) {
    bool to = false;
    long at = find_direction(args, &to);
    if (at <= 0) {
        shell_error(sh, "\\copy: expected \\copy TABLE FROM 'file' or \\copy TABLE|(QUERY) TO 'file'");
        return SHELL_SQL_ERROR;
    }
    char path[4096];
    const char *rest = parse_file(args + at + (to ? 2 : 4), path, sizeof path);
    if (!rest) {
        shell_error(sh, "\\copy: missing or unterminated file name");
        return SHELL_SQL_ERROR;
    }
    while (isspace((unsigned char)*rest)) rest++;
    size_t restlen = strlen(rest);
    while (restlen && (rest[restlen - 1] == ';' || isspace((unsigned char)rest[restlen - 1]))) restlen--;
    size_t len = (size_t)at + restlen + 32;
    char *sql = malloc(len);
    snprintf(sql, len, "COPY %.*s%s%s%.*s", (int)at, args,
             to ? "TO STDOUT" : "FROM STDIN", restlen ? " " : "", (int)restlen, rest);
    int rc = to ? copy_to(sh, sql, path) : copy_from(sh, sql, path);
    free(sql);
    return rc;
}
