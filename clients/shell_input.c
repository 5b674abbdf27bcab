/*
 * shell_input: where the shell's input comes from and how it is cut into
 * statements.
 *
 * Input is read a line at a time: from a terminal through libedit (line
 * editing, and a history file, ~/.attu_history or $ATTU_HISTORY), from a
 * file (-f, or a pipe on stdin), or from a -c string. Lines accumulate in a
 * splitter until a ';' outside quotes, comments, dollar-quoted bodies and
 * a CREATE FUNCTION's BEGIN ATOMIC ... END ends a statement, so a statement may span many lines and a line may hold
 * many statements. A line that starts with '\' while no statement is
 * pending is a meta command (shell_meta.c).
 */
#include "shell.h"

#include <ctype.h>
#include <editline/readline.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ---- the splitter ------------------------------------------------------ */

static void sp_append(shell_splitter_t *sp, const char *s, size_t n) {
    if (sp->len + n + 1 > sp->cap) {
        size_t cap = sp->cap ? sp->cap : 256;
        while (cap < sp->len + n + 1) cap *= 2;
        char *p = realloc(sp->buf, cap);
        if (!p) { fputs("attu: out of memory\n", stderr); exit(2); }
        sp->buf = p;
        sp->cap = cap;
    }
    memcpy(sp->buf + sp->len, s, n);
    sp->len += n;
    sp->buf[sp->len] = 0;
}

/* If buf[i] starts a dollar-quote tag ($$ or $name$), returns its length. */
static size_t dollar_tag_len(const char *s) {
    if (s[0] != '$') return 0;
    size_t i = 1;
    if (s[i] == '$') return 2;
    if (!(isalpha((unsigned char)s[i]) || s[i] == '_' || (unsigned char)s[i] >= 0x80))
        return 0; /* $1 is a parameter, not a tag */
    while (isalnum((unsigned char)s[i]) || s[i] == '_' || (unsigned char)s[i] >= 0x80) i++;
    return s[i] == '$' ? i + 1 : 0;
}

int shell_splitter_feed(shell_splitter_t *sp, const char *line,
                        int (*emit)(void *arg, const char *stmt), void *arg) {
    sp_append(sp, line, strlen(line));
    sp_append(sp, "\n", 1);
    size_t i = sp->pos;
    while (i < sp->len) {
        char *b = sp->buf;
        char c = b[i];
        if (sp->dollar_tag) {
            size_t n = strlen(sp->dollar_tag);
            if (strncmp(b + i, sp->dollar_tag, n) == 0) {
                free(sp->dollar_tag);
                sp->dollar_tag = NULL;
                i += n;
            } else {
                i++;
            }
        } else if (sp->in_quote) {
            /* 'e' marks an E'...' string, where a backslash escapes the next
             * character (E'it\'s'); it still ends at a single quote. */
            char close = sp->in_quote == 'e' ? '\'' : (char)sp->in_quote;
            if (sp->in_quote == 'e' && c == '\\' && b[i + 1]) {
                i++;
            } else if (c == close) {
                if (b[i + 1] == c) i++; /* doubled quote: an escaped quote */
                else sp->in_quote = 0;
            }
            i++;
        } else if (sp->block_depth) {
            if (c == '*' && b[i + 1] == '/') { sp->block_depth--; i += 2; }
            else if (c == '/' && b[i + 1] == '*') { sp->block_depth++; i += 2; }
            else i++;
        } else if (c == '\'' || c == '"') {
            bool escape_string = c == '\'' && i > 0 && (b[i - 1] == 'E' || b[i - 1] == 'e') &&
                                 (i == 1 || !(isalnum((unsigned char)b[i - 2]) || b[i - 2] == '_'));
            sp->in_quote = escape_string ? 'e' : c;
            i++;
        } else if (c == '-' && b[i + 1] == '-') {
            while (i < sp->len && b[i] != '\n') i++;
        } else if (c == '/' && b[i + 1] == '*') {
            sp->block_depth = 1;
            i += 2;
        } else if (c == '$' && (i == 0 || !(isalnum((unsigned char)b[i - 1]) || b[i - 1] == '_'))
                   && dollar_tag_len(b + i)) {
            size_t n = dollar_tag_len(b + i);
            sp->dollar_tag = strndup(b + i, n);
            i += n;
        } else if ((isalpha((unsigned char)c) || c == '_') &&
                   (i == 0 || !(isalnum((unsigned char)b[i - 1]) || b[i - 1] == '_' || b[i - 1] == '$'))) {
            /* a word: BEGIN ATOMIC opens a body whose ';'s stay in it
             * until its END (a CASE's END nests) */
            size_t j = i;
            while (j < sp->len && (isalnum((unsigned char)b[j]) || b[j] == '_' || b[j] == '$')) j++;
            size_t n = j - i;
            bool begin = n == 5 && !strncasecmp(b + i, "begin", 5);
            if (sp->atomic_depth) {
                if (n == 4 && !strncasecmp(b + i, "case", 4)) sp->atomic_depth++;
                else if (n == 3 && !strncasecmp(b + i, "end", 3)) sp->atomic_depth--;
            } else if (sp->after_begin && n == 6 && !strncasecmp(b + i, "atomic", 6)) {
                sp->atomic_depth = 1;
            }
            sp->after_begin = begin;
            i = j;
        } else if (c == ';' && sp->atomic_depth) {
            i++;
        } else if (c == ';') {
            sp->after_begin = false;
            char *stmt = strndup(b, i);
            memmove(b, b + i + 1, sp->len - i); /* keeps the NUL */
            sp->len -= i + 1;
            i = 0;
            int rc = emit(arg, stmt);
            free(stmt);
            if (rc) { sp->pos = 0; return rc; }
        } else {
            i++;
        }
    }
    sp->pos = i;
    return 0;
}

bool shell_splitter_empty(const shell_splitter_t *sp) {
    if (sp->in_quote || sp->block_depth || sp->dollar_tag || sp->atomic_depth) return false;
    const char *p = sp->buf ? sp->buf : "";
    while (*p) {
        if (p[0] == '-' && p[1] == '-') {
            while (*p && *p != '\n') p++;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            if (!e) return false;
            p = e + 2;
        } else if (isspace((unsigned char)*p)) {
            p++;
        } else {
            return false;
        }
    }
    return true;
}

char *shell_splitter_take(shell_splitter_t *sp) {
    char *s = strdup(sp->buf ? sp->buf : "");
    sp->len = sp->pos = 0;
    if (sp->buf) sp->buf[0] = 0;
    sp->in_quote = sp->block_depth = sp->atomic_depth = 0;
    sp->after_begin = false;
    free(sp->dollar_tag);
    sp->dollar_tag = NULL;
    return s;
}

void shell_splitter_free(shell_splitter_t *sp) {
    free(sp->buf);
    free(sp->dollar_tag);
    memset(sp, 0, sizeof *sp);
}

/* ---- running what was read --------------------------------------------- */

/* True when a statement holds nothing but blanks and comments. */
static bool blank_statement(const char *s) {
    shell_splitter_t tmp = {0};
    tmp.buf = (char *)s;
    return shell_splitter_empty(&tmp);
}

typedef struct {
    shell_t *sh;
    int rc;            /* worst result so far */
} run_ctx_t;

static int emit_statement(void *arg, const char *stmt) {
    run_ctx_t *ctx = arg;
    if (blank_statement(stmt)) return 0;
    /* Send from the first non-blank: error positions then count from the
     * statement's own first line (the text after an earlier ';' on the same
     * line starts with that line's newline). */
    while (*stmt == ' ' || *stmt == '\t' || *stmt == '\n' || *stmt == '\r') stmt++;
    int rc = shell_exec_sql(ctx->sh, stmt);
    if (rc == SHELL_CONN_LOST) { ctx->rc = rc; return rc; }
    if (rc != SHELL_OK) {
        ctx->rc = SHELL_SQL_ERROR;
        if (!ctx->sh->interactive) return rc; /* scripts stop at the first error */
    }
    return 0;
}

/* Feeds one input line: a meta command or SQL text. Returns non-zero to stop. */
static int feed_line(run_ctx_t *ctx, shell_splitter_t *sp, const char *line,
                     int lineno) {
    shell_t *sh = ctx->sh;
    bool empty = shell_splitter_empty(sp);
    if (empty) sh->stmt_line = lineno;
    /* A line starting with '\' is a meta command, also in the middle of a
     * statement (the statement stays buffered), but not inside a quoted
     * literal, a comment or a dollar-quoted body. */
    const char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '\\' && !sp->in_quote && !sp->block_depth && !sp->dollar_tag) {
        if (empty) free(shell_splitter_take(sp)); /* drop buffered comments */
        int rc = shell_meta(sh, p);
        if (rc == SHELL_CONN_LOST) { ctx->rc = rc; return rc; }
        if (rc != SHELL_OK) {
            ctx->rc = SHELL_SQL_ERROR;
            if (!sh->interactive) return rc;
        }
        return sh->quit ? -1 : 0;
    }
    return shell_splitter_feed(sp, line, emit_statement, ctx);
}

/* At end of input, a statement without its ';' still runs (like psql -c). */
static void finish(run_ctx_t *ctx, shell_splitter_t *sp, bool stopped) {
    if (!stopped && !shell_splitter_empty(sp)) {
        char *rest = shell_splitter_take(sp);
        emit_statement(ctx, rest);
        free(rest);
    }
    shell_splitter_free(sp);
}

int shell_run_file(shell_t *sh, FILE *f, const char *name) {
    run_ctx_t ctx = {sh, 0};
    shell_splitter_t sp = {0};
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int lineno = 0, stopped = 0;
    const char *saved = sh->source;
    sh->source = name;
    while (!sh->quit && (n = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        if (feed_line(&ctx, &sp, line, lineno)) { stopped = 1; break; }
    }
    free(line);
    finish(&ctx, &sp, stopped || sh->quit);
    sh->source = saved;
    return ctx.rc;
}

int shell_run_string(shell_t *sh, const char *text) {
    run_ctx_t ctx = {sh, 0};
    shell_splitter_t sp = {0};
    char *copy = strdup(text);
    int lineno = 0, stopped = 0;
    /* Walk the newlines by hand so line numbers stay right. */
    for (char *p = copy; p && !sh->quit;) {
        char *nl = strchr(p, '\n');
        if (nl) *nl = 0;
        lineno++;
        if (feed_line(&ctx, &sp, p, lineno)) { stopped = 1; break; }
        p = nl ? nl + 1 : NULL;
    }
    free(copy);
    finish(&ctx, &sp, stopped || sh->quit);
    return ctx.rc;
}

/* ---- the terminal ------------------------------------------------------ */

static char *history_path(void) {
    const char *env = getenv("ATTU_HISTORY");
    if (env) return *env ? strdup(env) : NULL; /* empty: no history file */
    const char *home = getenv("HOME");
    if (!home || !*home) return NULL;
    size_t n = strlen(home) + 32;
    char *p = malloc(n);
    snprintf(p, n, "%s/.attu_history", home);
    return p;
}

/* Ctrl-C at the prompt: the read is interrupted and the half-typed statement
 * dropped, as in psql. libedit's own handler would re-raise the signal and
 * end the shell, so it is switched off (rl_catch_signals) and ours is
 * installed without SA_RESTART, which makes the pending read return. */
static volatile sig_atomic_t prompt_interrupted;

static void on_prompt_sigint(int sig) {
    (void)sig;
    prompt_interrupted = 1;
}

int shell_run_interactive(shell_t *sh) {
    run_ctx_t ctx = {sh, 0};
    rl_catch_signals = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_prompt_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    shell_splitter_t sp = {0};
    char *hist = history_path();
    using_history();
    stifle_history(2000);
    if (hist) read_history(hist);
    const char *db = PQdb(sh->conn);
    char prompt[128];
    char *pending = NULL; /* the statement's lines, for one history entry */
    int lineno = 0;
    while (!sh->quit) {
        const char *state = sp.in_quote == '\'' || sp.in_quote == 'e' ? "'" : sp.in_quote == '"' ? "\""
                          : sp.dollar_tag ? "$" : sp.block_depth ? "*"
                          : shell_splitter_empty(&sp) ? "=" : "-";
        snprintf(prompt, sizeof prompt, "%.60s%s> ", db && *db ? db : "attu", state);
        prompt_interrupted = 0;
        char *line = readline(prompt);
        if (prompt_interrupted) {
            /* Ctrl-C: forget the statement being typed, start afresh. */
            free(line);
            free(shell_splitter_take(&sp));
            free(pending);
            pending = NULL;
            fputc('\n', stdout);
            continue;
        }
        if (!line) { fputc('\n', stdout); break; } /* Ctrl-D */
        lineno++;
        /* History keeps a whole statement as one entry. */
        size_t add = strlen(line) + 2;
        size_t have = pending ? strlen(pending) : 0;
        pending = realloc(pending, have + add);
        snprintf(pending + have, add, "%s%s", have ? "\n" : "", line);
        int rc = feed_line(&ctx, &sp, line, lineno);
        free(line);
        if (shell_splitter_empty(&sp)) {
            const char *p = pending;
            while (*p == ' ' || *p == '\t' || *p == '\n') p++;
            if (*p) {
                add_history(pending);
                if (hist) write_history(hist);
            }
            free(pending);
            pending = NULL;
        }
        if (rc == SHELL_CONN_LOST) break;
        ctx.rc = 0; /* interactive errors do not set the exit status */
    }
    free(pending);
    shell_splitter_free(&sp);
    free(hist);
    return ctx.rc == SHELL_CONN_LOST ? 2 : 0;
}
