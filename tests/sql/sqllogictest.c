/*
 * sqllogictest.c - runs the SQL logic test files (tests/sql/NAME.test) in process, through
 * db/database.h, on every backend available (cpu always, gpu when a GPU
 * database opens).
 *
 * The file format (sqllogictest, with the choices documented in
 * docs/testing.md):
 *
 *   # a comment                       (whole line only)
 *   skipif <name> / onlyif <name>     conditions on the next record; names:
 *                                     cpu, gpu, attu (both), postgres
 *                                     (pg_verify.py)
 *   statement ok                      SQL follows until a blank line
 *   statement error [ARG]             must fail; ARG is a SQLSTATE (five
 *                                     characters of [0-9A-Z]) or a POSIX
 *                                     extended regex matched against the
 *                                     message
 *   query <types> [nosort|rowsort|valuesort] [label]
 *                                     SQL, a "----" line, expected rows until
 *                                     a blank line
 *   hash-threshold N                  results of more than N values are
 *                                     written as "N values hashing to MD5"
 *   knownfail <reason>                the next record is a known gap of
 *                                     attu (tracked in an open issue): it
 *                                     still runs; failing is reported as a
 *                                     known failure, and passing is an
 *                                     error ("unexpected pass: remove the
 *                                     knownfail line"), so a fix cannot go
 *                                     unnoticed and a regression elsewhere
 *                                     still fails
 *   halt                              stop reading this file
 *
 * Types: one letter per column: I integer (INTEGER, BIGINT, or a DECIMAL of
 * scale 0), R number (any numeric type), B boolean, T anything (text, dates,
 * timestamps). Values are compared as PostgreSQL's text output, exactly:
 * floats shortest round-trip, numerics with their scale, booleans t/f. In
 * the file a row is its values separated by one TAB; NULL is "NULL", the
 * empty string "(empty)", and a newline, tab or carriage return inside a
 * value is written \n, \t, \r.
 *
 * An expected result of one line "N values hashing to H" compares the value
 * count and the MD5 of every value followed by "\n", in result order after
 * sorting (rowsort: rows ordered value by value with strcmp; valuesort: all
 * values ordered by strcmp). A label makes every query carrying it produce
 * the same hash as the first one.
 *
 * "__TEST_DIR__" in SQL is replaced with the absolute folder of the .test
 * file (for COPY FROM data/...), "__TMP_DIR__" with a folder of the file's
 * own under /tmp, made at its first use and removed with what is in it
 * when the file is done (for COPY TO 'file' and back).
 *
 * Usage: sqllogictest [--backend cpu|gpu|all] [-v] FILE.test...
 * (-v prints each record before it runs; a crash always names its record.)
 * Exit status: 0 when every record passed, 1 otherwise, 2 on usage errors.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/database.h"
#include "md5.h"

/* ---- growable arrays of strings ---------------------------------------- */

typedef struct strvec {
    char  **v;
    size_t  n, cap;
} strvec;

static void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "sqllogictest: out of memory\n");
        exit(2);
    }
    return q;
}

static char *xstrndup(const char *s, size_t n) {
    char *d = xrealloc(NULL, n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static void strvec_push(strvec *sv, char *s) {
    if (sv->n == sv->cap) {
        sv->cap = sv->cap ? sv->cap * 2 : 16;
        sv->v = xrealloc(sv->v, sv->cap * sizeof *sv->v);
    }
    sv->v[sv->n++] = s;
}

static void strvec_free(strvec *sv) {
    for (size_t i = 0; i < sv->n; i++) free(sv->v[i]);
    free(sv->v);
    memset(sv, 0, sizeof *sv);
}

/* A growable byte buffer. */
typedef struct sbuf {
    char  *p;
    size_t n, cap;
} sbuf;

static void sbuf_add(sbuf *b, const char *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        while (b->n + n + 1 > b->cap) b->cap = b->cap ? b->cap * 2 : 256;
        b->p = xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void sbuf_adds(sbuf *b, const char *s) { sbuf_add(b, s, strlen(s)); }

/* ---- one statement's outcome ------------------------------------------- */

/* What a statement left behind: the last row-returning result, formatted
 * as the test file writes values, or the error. */
typedef struct outcome {
    bool       have_rows;
    int        ncols;
    attu_type *types;
    strvec     values;    /* row-major, ncols per row */
    attu_error err;
    bool       failed;
} outcome;

static void outcome_reset(outcome *o) {
    free(o->types);
    strvec_free(&o->values);
    memset(o, 0, sizeof *o);
}

/* A value as the test file spells it (see the header comment). */
static char *test_format_value(const char *s, size_t len) {
    if (len == 0) return xstrndup("(empty)", 7);
    sbuf b = { 0 };
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '\n') sbuf_add(&b, "\\n", 2);
        else if (c == '\t') sbuf_add(&b, "\\t", 2);
        else if (c == '\r') sbuf_add(&b, "\\r", 2);
        else sbuf_add(&b, &c, 1);
    }
    return b.p;
}

static int on_result(void *ctx, attu_result *res) {
    outcome *o = ctx;
    if (!res->returns_rows) return 0;
    free(o->types);
    strvec_free(&o->values);
    o->have_rows = true;
    o->ncols = res->ncols;
    o->types = xrealloc(NULL, sizeof(attu_type) * (size_t)(res->ncols ? res->ncols : 1));
    for (int c = 0; c < res->ncols; c++) o->types[c] = res->desc[c].type;
    char buf[256];
    for (size_t r = 0; r < res->nrows; r++) {
        for (int c = 0; c < res->ncols; c++) {
            const char *longv = NULL;
            size_t len = attu_column_format(res->cols[c], r, buf, sizeof buf, &longv);
            if (len == (size_t)-1) {
                strvec_push(&o->values, xstrndup("NULL", 4));
                continue;
            }
            const char *src = longv ? longv : buf;
            strvec_push(&o->values, test_format_value(src, len));
        }
    }
    return 0;
}

static void on_error(void *ctx, const attu_error *err) {
    outcome *o = ctx;
    o->failed = true;
    o->err = *err;
}

static void on_notice(void *ctx, const char *sqlstate, const char *message) {
    (void)ctx;
    (void)sqlstate;
    (void)message;
}

static void run_sql(attu_session *s, const char *sql, outcome *o) {
    attu_exec_callbacks cb = { 0 };
    cb.ctx = o;
    cb.on_result = on_result;
    cb.on_error = on_error;
    cb.on_notice = on_notice;
    outcome_reset(o);
    int rc = attu_session_exec(s, sql, &cb);
    if (rc < 0 && !o->failed) {
        /* An error the session did not report through on_error. */
        o->failed = true;
        snprintf(o->err.sqlstate, sizeof o->err.sqlstate, "XX000");
        snprintf(o->err.message, sizeof o->err.message,
                 "attu_session_exec returned -1 without on_error");
    }
}

/* ---- sorting and hashing ------------------------------------------------ */

static int g_sort_ncols;   /* row width for cmp_rows (qsort has no context) */

static int cmp_values(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_rows(const void *a, const void *b) {
    char *const *ra = *(char **const *)a;
    char *const *rb = *(char **const *)b;
    for (int i = 0; i < g_sort_ncols; i++) {
        int c = strcmp(ra[i], rb[i]);
        if (c) return c;
    }
    return 0;
}

typedef enum sort_mode { SORT_NONE, SORT_ROWS, SORT_VALUES } sort_mode;

/* Reorders values (ncols per row) as the sort mode says. */
static void sort_values(strvec *values, int ncols, sort_mode mode) {
    if (mode == SORT_VALUES) {
        qsort(values->v, values->n, sizeof *values->v, cmp_values);
    } else if (mode == SORT_ROWS && ncols > 0) {
        size_t nrows = values->n / (size_t)ncols;
        char ***rows = xrealloc(NULL, sizeof *rows * (nrows ? nrows : 1));
        for (size_t r = 0; r < nrows; r++) rows[r] = values->v + r * (size_t)ncols;
        g_sort_ncols = ncols;
        qsort(rows, nrows, sizeof *rows, cmp_rows);
        char **sorted = xrealloc(NULL, sizeof(char *) * (values->n ? values->n : 1));
        for (size_t r = 0; r < nrows; r++)
            memcpy(sorted + r * (size_t)ncols, rows[r], sizeof(char *) * (size_t)ncols);
        free(values->v);
        values->v = sorted;
        values->cap = values->n;
        free(rows);
    }
}

static void hash_values(const strvec *values, char hex[33]) {
    md5_ctx c;
    md5_init(&c);
    for (size_t i = 0; i < values->n; i++) {
        md5_update(&c, values->v[i], strlen(values->v[i]));
        md5_update(&c, "\n", 1);
    }
    md5_final_hex(&c, hex);
}

/* ---- the file ------------------------------------------------------------ */

typedef struct lines {
    char  *text;      /* the whole file, NUL-split into lines */
    char **line;
    size_t n;
} lines;

static int read_lines(const char *path, lines *out) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    sbuf b = { 0 };
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) sbuf_add(&b, chunk, got);
    fclose(f);
    if (!b.p) sbuf_add(&b, "", 0);
    memset(out, 0, sizeof *out);
    out->text = b.p;
    size_t cap = 0;
    char *p = b.p;
    while (*p) {
        char *e = strchr(p, '\n');
        if (e) *e = '\0';
        size_t len = strlen(p);
        if (len && p[len - 1] == '\r') p[len - 1] = '\0';
        if (out->n == cap) {
            cap = cap ? cap * 2 : 1024;
            out->line = xrealloc(out->line, cap * sizeof *out->line);
        }
        out->line[out->n++] = p;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

static bool is_blank(const char *s) {
    while (*s && isspace((unsigned char)*s)) s++;
    return *s == '\0';
}

/* Splits a line into whitespace-separated words (at most max). */
static int split_words(char *s, char **w, int max) {
    int n = 0;
    while (*s && n < max) {
        while (*s && isspace((unsigned char)*s)) s++;
        if (!*s) break;
        w[n++] = s;
        while (*s && !isspace((unsigned char)*s)) s++;
        if (*s) *s++ = '\0';
    }
    return n;
}

/* Replaces every key in sql with value (a new string; sql is freed). */
static char *substitute(char *sql, const char *key, const char *value) {
    sbuf b = { 0 };
    const char *p = sql, *hit;
    while ((hit = strstr(p, key)) != NULL) {
        sbuf_add(&b, p, (size_t)(hit - p));
        sbuf_adds(&b, value);
        p = hit + strlen(key);
    }
    sbuf_adds(&b, p);
    free(sql);
    return b.p;
}

/* __TMP_DIR__'s folder: made for a file at its first use, emptied and
 * removed when the file is done. Anyone may write in it (0777): a
 * PostgreSQL server under another user (pg_fixture.sh's, as root) writes
 * its COPY TO files there under sqllogictest_pg. */
static char *make_tmp_dir(void) {
    char tmpl[] = "/tmp/attu-slt.XXXXXX";
    if (!mkdtemp(tmpl)) {
        fprintf(stderr, "sqllogictest: cannot make a folder for __TMP_DIR__: %s\n", strerror(errno));
        exit(2);
    }
    chmod(tmpl, 0777);
    return xstrndup(tmpl, strlen(tmpl));
}

static void remove_tmp_dir(char *dir) {
    if (!dir) return;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d) closedir(d);
    rmdir(dir);
    free(dir);
}

/* ---- naming the record that crashed ------------------------------------- */

/* The record being run, so a crash (a signal, or a sanitizer's report)
 * can say where it happened; written before each record runs. */
static char g_current[512];

static void say_current(void) {
    if (!g_current[0]) return;
    static const char pre[] = "\nsqllogictest: crashed while running ";
    ssize_t w = write(2, pre, sizeof pre - 1);
    w = write(2, g_current, strlen(g_current));
    w = write(2, "\n", 1);
    (void)w;
}

static void on_fatal_signal(int sig) {
    say_current();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Sanitizer runtimes call this before exiting on an error (weak: absent
 * in builds without sanitizers). */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static void install_crash_reporting(void) {
    signal(SIGSEGV, on_fatal_signal);
    signal(SIGBUS, on_fatal_signal);
    signal(SIGABRT, on_fatal_signal);
    signal(SIGFPE, on_fatal_signal);
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(say_current);
}

static void set_current(const char *path, size_t line, const char *backend) {
    snprintf(g_current, sizeof g_current, "%s:%zu [%s]", path, line, backend);
}

/* ---- running one file on one backend ----------------------------------- */

typedef struct counts {
    long passed, failed, skipped, known;
} counts;

typedef struct label_hash {
    char *label;
    char  hash[33];
} label_hash;

typedef struct runner {
    const char  *backend;   /* "cpu" or "gpu" */
    const char  *path;
    const char  *dir;
    char        *tmp_dir;   /* __TMP_DIR__ (make_tmp_dir), NULL until used */
    bool         verbose;
    attu_session *session;
    counts       c;
    int          hash_threshold;
    label_hash  *labels;
    size_t       nlabels;
} runner;

static bool condition_matches(const runner *r, const char *name) {
#ifdef SLT_AS_POSTGRES
    /* sqllogictest_pg: the engine under test is PostgreSQL itself. */
    (void)r;
    return strcmp(name, "postgres") == 0;
#else
    return strcmp(name, r->backend) == 0 || strcmp(name, "attu") == 0;
#endif
}

static void report_failure(runner *r, size_t lineno, const char *sql,
                           const char *fmt, ...) {
    va_list ap;
    fprintf(stdout, "FAIL %s:%zu [%s]\n", r->path, lineno, r->backend);
    fprintf(stdout, "  sql: %s\n", sql);
    fprintf(stdout, "  ");
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fprintf(stdout, "\n");
}

static bool is_sqlstate(const char *s) {
    if (strlen(s) != 5) return false;
    for (int i = 0; i < 5; i++)
        if (!(isdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))) return false;
    return true;
}

static void check_statement(runner *r, size_t lineno, const char *sql,
                            bool expect_ok, const char *arg) {
    outcome o = { 0 };
    run_sql(r->session, sql, &o);
    if (expect_ok) {
        if (o.failed) {
            r->c.failed++;
            report_failure(r, lineno, sql, "expected success, got error %s: %s",
                           o.err.sqlstate, o.err.message);
        } else {
            r->c.passed++;
        }
        outcome_reset(&o);
        return;
    }
    if (!o.failed) {
        r->c.failed++;
        report_failure(r, lineno, sql, "expected an error%s%s, but it succeeded",
                       arg ? " " : "", arg ? arg : "");
    } else if (arg && is_sqlstate(arg)) {
        if (strcmp(arg, o.err.sqlstate) == 0) {
            r->c.passed++;
        } else {
            r->c.failed++;
            report_failure(r, lineno, sql, "expected SQLSTATE %s, got %s: %s",
                           arg, o.err.sqlstate, o.err.message);
        }
    } else if (arg) {
        regex_t re;
        if (regcomp(&re, arg, REG_EXTENDED | REG_NOSUB) != 0) {
            r->c.failed++;
            report_failure(r, lineno, sql, "bad regex in the test: %s", arg);
        } else {
            if (regexec(&re, o.err.message, 0, NULL, 0) == 0) {
                r->c.passed++;
            } else {
                r->c.failed++;
                report_failure(r, lineno, sql, "error message \"%s\" (%s) does not match /%s/",
                               o.err.message, o.err.sqlstate, arg);
            }
            regfree(&re);
        }
    } else {
        r->c.passed++;
    }
    outcome_reset(&o);
}

/* Checks one column type against its letter. */
static bool type_letter_ok(char letter, attu_type t) {
    switch (letter) {
    case 'I':
        return attu_type_is_int(t.id) || (t.id == ATTU_TYPE_DECIMAL && t.scale == 0);
    case 'R':
        return attu_type_is_int(t.id) || t.id == ATTU_TYPE_FLOAT32 || t.id == ATTU_TYPE_FLOAT64 ||
               t.id == ATTU_TYPE_DECIMAL || t.id == ATTU_TYPE_NUMERIC;
    case 'B':
        return t.id == ATTU_TYPE_BOOL;
    case 'T':
        return true;
    default:
        return false;
    }
}

static void print_values(const strvec *v, int ncols, size_t max_rows) {
    size_t nrows = ncols ? v->n / (size_t)ncols : 0;
    for (size_t r = 0; r < nrows && r < max_rows; r++) {
        fprintf(stdout, "    ");
        for (int c = 0; c < ncols; c++)
            fprintf(stdout, "%s%s", c ? "\t" : "", v->v[r * (size_t)ncols + (size_t)c]);
        fprintf(stdout, "\n");
    }
    if (nrows > max_rows) fprintf(stdout, "    ... (%zu rows in all)\n", nrows);
}

static void check_query(runner *r, size_t lineno, const char *sql,
                        const char *types, sort_mode mode, const char *label,
                        char **expected_lines, size_t nexpected) {
    outcome o = { 0 };
    run_sql(r->session, sql, &o);
    if (o.failed) {
        r->c.failed++;
        report_failure(r, lineno, sql, "query failed: %s: %s", o.err.sqlstate, o.err.message);
        outcome_reset(&o);
        return;
    }
    if (!o.have_rows) {
        r->c.failed++;
        report_failure(r, lineno, sql, "query returned no rows description");
        outcome_reset(&o);
        return;
    }
    int ntypes = (int)strlen(types);
    if (ntypes != o.ncols) {
        r->c.failed++;
        report_failure(r, lineno, sql, "expected %d columns (%s), got %d",
                       ntypes, types, o.ncols);
        outcome_reset(&o);
        return;
    }
    for (int c = 0; c < o.ncols; c++) {
        if (!type_letter_ok(types[c], o.types[c])) {
            char tn[64];
            r->c.failed++;
            report_failure(r, lineno, sql, "column %d has type %s, not of class %c",
                           c + 1, attu_type_name(o.types[c], tn, sizeof tn), types[c]);
            outcome_reset(&o);
            return;
        }
    }
    sort_values(&o.values, o.ncols, mode);

    char hex[33];
    hash_values(&o.values, hex);
    bool ok;
    unsigned long hn;
    char hh[64];
    if (nexpected == 1 &&
        sscanf(expected_lines[0], "%lu values hashing to %40s", &hn, hh) == 2) {
        ok = hn == o.values.n && strcmp(hh, hex) == 0;
        if (!ok) {
            report_failure(r, lineno, sql, "expected %lu values hashing to %s, got %zu values hashing to %s",
                           hn, hh, o.values.n, hex);
            print_values(&o.values, o.ncols, 20);
        }
    } else {
        /* Expected values: every line split on TAB, in file order. The
         * expected side is sorted the same way as the actual side, so a
         * rowsort file may list rows in any order. */
        strvec exp = { 0 };
        for (size_t i = 0; i < nexpected; i++) {
            const char *p = expected_lines[i];
            for (;;) {
                const char *t = strchr(p, '\t');
                size_t n = t ? (size_t)(t - p) : strlen(p);
                strvec_push(&exp, xstrndup(p, n));
                if (!t) break;
                p = t + 1;
            }
        }
        sort_values(&exp, o.ncols, mode);
        ok = exp.n == o.values.n;
        for (size_t i = 0; ok && i < exp.n; i++) ok = strcmp(exp.v[i], o.values.v[i]) == 0;
        if (!ok) {
            report_failure(r, lineno, sql, "wrong result (%s); expected:", types);
            print_values(&exp, o.ncols, 50);
            fprintf(stdout, "  got:\n");
            print_values(&o.values, o.ncols, 50);
        }
        strvec_free(&exp);
    }
    if (ok && label) {
        size_t i;
        for (i = 0; i < r->nlabels; i++)
            if (strcmp(r->labels[i].label, label) == 0) break;
        if (i == r->nlabels) {
            r->labels = xrealloc(r->labels, sizeof *r->labels * (r->nlabels + 1));
            r->labels[i].label = xstrndup(label, strlen(label));
            memcpy(r->labels[i].hash, hex, sizeof hex);
            r->nlabels++;
        } else if (strcmp(r->labels[i].hash, hex) != 0) {
            ok = false;
            report_failure(r, lineno, sql, "result differs from the first query labelled %s", label);
        }
    }
    if (ok) r->c.passed++;
    else r->c.failed++;
    outcome_reset(&o);
}

/* Collects SQL lines from *i until a blank line or "----". */
static char *collect_sql(runner *r, lines *L, size_t *i) {
    sbuf b = { 0 };
    while (*i < L->n && !is_blank(L->line[*i]) && strcmp(L->line[*i], "----") != 0) {
        if (b.n) sbuf_add(&b, "\n", 1);
        sbuf_adds(&b, L->line[*i]);
        (*i)++;
    }
    if (!b.p) sbuf_add(&b, "", 0);
    char *s = substitute(b.p, "__TEST_DIR__", r->dir);
    if (strstr(s, "__TMP_DIR__")) {
        if (!r->tmp_dir) r->tmp_dir = make_tmp_dir();
        s = substitute(s, "__TMP_DIR__", r->tmp_dir);
    }
    return s;
}

/* Applies a knownfail marker to the record just checked: its failure is
 * counted as known, its success as a failure (the marker must go). */
static void settle_known(runner *r, const counts *before, size_t line, const char *reason) {
    if (!reason[0]) return;
    if (r->c.failed > before->failed) {
        r->c.failed--;
        r->c.known++;
        fprintf(stdout, "  known failure (%s:%zu): %s\n", r->path, line, reason);
    } else if (r->c.passed > before->passed) {
        r->c.passed--;
        r->c.failed++;
        fprintf(stdout, "FAIL %s:%zu [%s]\n  unexpected pass: remove the knownfail line (%s)\n",
                r->path, line, r->backend, reason);
    }
}

static void run_file(runner *r, lines *L) {
    size_t i = 0;
    while (i < L->n) {
        char *line = L->line[i];
        if (is_blank(line) || line[0] == '#') {
            i++;
            continue;
        }
        size_t record_line = i + 1;
        bool skip = false;
        char known_reason[200] = "";
        /* Conditions. */
        for (;;) {
            char copy[256];
            snprintf(copy, sizeof copy, "%s", L->line[i]);
            char *w[4];
            int nw = split_words(copy, w, 4);
            if (nw >= 2 && strcmp(w[0], "skipif") == 0) {
                if (condition_matches(r, w[1])) skip = true;
            } else if (nw >= 2 && strcmp(w[0], "onlyif") == 0) {
                if (!condition_matches(r, w[1])) skip = true;
            } else if (nw >= 1 && strcmp(w[0], "knownfail") == 0) {
                const char *why = L->line[i] + strlen("knownfail");
                while (*why && isspace((unsigned char)*why)) why++;
                snprintf(known_reason, sizeof known_reason, "%s", *why ? why : "(no reason given)");
            } else {
                break;
            }
            i++;
            if (i >= L->n) return;
        }
        size_t hidx = i;    /* the record's header line */
        record_line = i + 1;
        char head[1024];
        snprintf(head, sizeof head, "%s", L->line[i]);
        char *w[8];
        int nw = split_words(head, w, 8);
        i++;
        if (nw == 0) continue;
        if (strcmp(w[0], "halt") == 0) {
            if (!skip) return;
            continue;
        }
        if (strcmp(w[0], "hash-threshold") == 0) {
            if (nw >= 2) r->hash_threshold = atoi(w[1]);
            continue;
        }
        if (strcmp(w[0], "statement") == 0) {
            char *sql = collect_sql(r, L, &i);
            if (skip) {
                r->c.skipped++;
            } else if (nw >= 2 && strcmp(w[1], "ok") == 0) {
                set_current(r->path, record_line, r->backend);
                if (r->verbose) printf("run %s\n", g_current);
                counts before = r->c;
                check_statement(r, record_line, sql, true, NULL);
                settle_known(r, &before, record_line, known_reason);
            } else if (nw >= 2 && strcmp(w[1], "error") == 0) {
                /* The argument is the rest of the header line, verbatim
                 * (a regex may contain spaces). */
                const char *arg = strstr(L->line[hidx], "error") + 5;
                while (*arg && isspace((unsigned char)*arg)) arg++;
                if (!*arg) arg = NULL;
                set_current(r->path, record_line, r->backend);
                if (r->verbose) printf("run %s\n", g_current);
                counts before = r->c;
                check_statement(r, record_line, sql, false, arg);
                settle_known(r, &before, record_line, known_reason);
            } else {
                fprintf(stdout, "%s:%zu: unknown statement kind\n", r->path, record_line);
                r->c.failed++;
            }
            free(sql);
            continue;
        }
        if (strcmp(w[0], "query") == 0) {
            const char *types = nw >= 2 ? w[1] : "";
            sort_mode mode = SORT_NONE;
            const char *label = NULL;
            if (nw >= 3) {
                if (strcmp(w[2], "rowsort") == 0) mode = SORT_ROWS;
                else if (strcmp(w[2], "valuesort") == 0) mode = SORT_VALUES;
                else if (strcmp(w[2], "nosort") != 0) label = w[2];
            }
            if (nw >= 4) label = w[3];
            char *sql = collect_sql(r, L, &i);
            char **expected = NULL;
            size_t nexpected = 0;
            if (i < L->n && strcmp(L->line[i], "----") == 0) {
                i++;
                expected = L->line + i;
                while (i < L->n && L->line[i][0] != '\0') {
                    nexpected++;
                    i++;
                }
            }
            if (skip) {
                r->c.skipped++;
            } else {
                set_current(r->path, record_line, r->backend);
                if (r->verbose) printf("run %s\n", g_current);
                fflush(stdout);
                counts before = r->c;
                check_query(r, record_line, sql, types, mode, label, expected, nexpected);
                settle_known(r, &before, record_line, known_reason);
            }
            free(sql);
            continue;
        }
        fprintf(stdout, "%s:%zu: unknown record \"%s\"\n", r->path, record_line, w[0]);
        r->c.failed++;
        /* Skip to the end of this record. */
        while (i < L->n && !is_blank(L->line[i])) i++;
    }
}

/* ---- main ---------------------------------------------------------------- */

static char *absolute_dir_of(const char *path) {
    char resolved[PATH_MAX];
    if (!realpath(path, resolved)) return xstrndup(".", 1);
    char *slash = strrchr(resolved, '/');
    if (slash) *slash = '\0';
    return xstrndup(resolved, strlen(resolved));
}

static attu_db *open_backend(const char *name, attu_error *err) {
    attu_db_config cfg = { 0 };
    cfg.data_dir = NULL;
    cfg.device = strcmp(name, "gpu") == 0 ? ATTU_DEVICE_GPU : ATTU_DEVICE_CPU;
    cfg.threads = 0;
    /* ATTU_TEST_GPU_MEMORY_BUDGET (bytes): the GPU backend's memory budget,
     * so a file can run where an allocation no query needs does not fit */
    const char *budget = getenv("ATTU_TEST_GPU_MEMORY_BUDGET");
    if (budget && *budget) cfg.gpu_memory_budget = (size_t)strtoull(budget, NULL, 10);
    return attu_db_open(&cfg, err);
}

int main(int argc, char **argv) {
    const char *backend_opt = "all";
    bool verbose = false;
    int first_file = argc;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--backend") == 0 && a + 1 < argc) {
            backend_opt = argv[++a];
        } else if (strcmp(argv[a], "-v") == 0) {
            verbose = true;
        } else if (argv[a][0] == '-') {
            fprintf(stderr, "usage: sqllogictest [--backend cpu|gpu|all] [-v] FILE.test...\n");
            return 2;
        } else {
            first_file = a;
            break;
        }
    }
    if (first_file >= argc) {
        fprintf(stderr, "usage: sqllogictest [--backend cpu|gpu|all] [-v] FILE.test...\n");
        return 2;
    }
    const char *backends[2];
    int nbackends = 0;
    if (strcmp(backend_opt, "cpu") == 0 || strcmp(backend_opt, "all") == 0) backends[nbackends++] = "cpu";
    if (strcmp(backend_opt, "gpu") == 0 || strcmp(backend_opt, "all") == 0) backends[nbackends++] = "gpu";
    if (nbackends == 0) {
        fprintf(stderr, "sqllogictest: unknown backend %s\n", backend_opt);
        return 2;
    }

    setvbuf(stdout, NULL, _IOLBF, 0);   /* nothing lost if a record crashes */
    install_crash_reporting();
    counts total = { 0, 0, 0, 0 };
    bool ran_any = false;
    for (int b = 0; b < nbackends; b++) {
        for (int a = first_file; a < argc; a++) {
            lines L;
            if (read_lines(argv[a], &L) != 0) {
                fprintf(stdout, "%s: cannot read: %s\n", argv[a], strerror(errno));
                total.failed++;
                continue;
            }
            attu_error err;
            attu_error_clear(&err);
            attu_db *db = open_backend(backends[b], &err);
            if (!db) {
                free(L.line);
                free(L.text);
                if (strcmp(backends[b], "gpu") == 0 && strcmp(backend_opt, "all") == 0) {
                    fprintf(stdout, "%s [gpu]: skipped, no GPU database (%s)\n", argv[a], err.message);
                    continue;
                }
                fprintf(stdout, "%s [%s]: cannot open a database: %s: %s\n",
                        argv[a], backends[b], err.sqlstate, err.message);
                total.failed++;
                continue;
            }
            runner r;
            memset(&r, 0, sizeof r);
            r.backend = backends[b];
            r.path = argv[a];
            r.dir = absolute_dir_of(argv[a]);
            r.verbose = verbose;
            r.hash_threshold = 0;
            r.session = attu_session_new(db);
            if (!r.session) {
                fprintf(stdout, "%s [%s]: cannot open a session\n", argv[a], backends[b]);
                total.failed++;
            } else {
                run_file(&r, &L);
                attu_session_free(r.session);
            }
            attu_db_close(db);
            fprintf(stdout, "%s [%s]: %ld passed, %ld failed, %ld skipped, %ld known failures\n",
                    argv[a], backends[b], r.c.passed, r.c.failed, r.c.skipped, r.c.known);
            fflush(stdout);
            total.passed += r.c.passed;
            total.failed += r.c.failed;
            total.skipped += r.c.skipped;
            total.known += r.c.known;
            ran_any = true;
            for (size_t k = 0; k < r.nlabels; k++) free(r.labels[k].label);
            free(r.labels);
            free((char *)r.dir);
            remove_tmp_dir(r.tmp_dir);
            free(L.line);
            free(L.text);
        }
    }
    if (total.known)
        fprintf(stdout, "%ld known failures (knownfail records: gaps tracked in open issues)\n", total.known);
    fprintf(stdout, "%ld passed, %ld failed\n", total.passed, total.failed);
    if (!ran_any) return 1;
    return total.failed ? 1 : 0;
}
