/*
 * test_splitter: how the attu shell cuts input into statements. A ';' ends a
 * statement except inside '...' literals ('' escapes), "..." identifiers,
 * -- and nested slash-star comments, $tag$ dollar-quoted bodies and a
 * CREATE FUNCTION's BEGIN ATOMIC ... END; text
 * after the last ';' stays buffered across lines.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "clients/shell.h"

typedef struct {
    char *stmts[16];
    int n;
} got_t;

static int collect(void *arg, const char *stmt) {
    got_t *g = arg;
    cr_assert_lt(g->n, 16);
    g->stmts[g->n++] = strdup(stmt);
    return 0;
}

static void feed_all(shell_splitter_t *sp, got_t *g, const char *const *lines) {
    for (int i = 0; lines[i]; i++)
        cr_assert_eq(shell_splitter_feed(sp, lines[i], collect, g), 0);
}

static void free_got(got_t *g) {
    for (int i = 0; i < g->n; i++) free(g->stmts[i]);
}

Test(splitter, several_statements_on_one_line) {
    shell_splitter_t sp = {0};
    got_t g = {0};
    const char *lines[] = {"SELECT 1; SELECT 2;SELECT 3", NULL};
    feed_all(&sp, &g, lines);
    cr_assert_eq(g.n, 2);
    cr_assert_str_eq(g.stmts[0], "SELECT 1");
    cr_assert_str_eq(g.stmts[1], " SELECT 2");
    cr_assert_not(shell_splitter_empty(&sp));
    char *rest = shell_splitter_take(&sp);
    cr_assert_str_eq(rest, "SELECT 3\n");
    cr_assert(shell_splitter_empty(&sp));
    free(rest);
    free_got(&g);
    shell_splitter_free(&sp);
}

Test(splitter, statement_across_lines) {
    shell_splitter_t sp = {0};
    got_t g = {0};
    const char *lines[] = {"SELECT a,", "  b", "FROM t;", NULL};
    feed_all(&sp, &g, lines);
    cr_assert_eq(g.n, 1);
    cr_assert_str_eq(g.stmts[0], "SELECT a,\n  b\nFROM t");
    cr_assert(shell_splitter_empty(&sp)); /* only the trailing newline */
    free_got(&g);
    shell_splitter_free(&sp);
}

Test(splitter, semicolons_in_quotes_and_comments) {
    shell_splitter_t sp = {0};
    got_t g = {0};
    const char *lines[] = {
        "SELECT 'a;b', 'it''s;', \"we;ird\" -- not; here",
        "/* one; /* nested; */ still; */ FROM t;",
        NULL};
    feed_all(&sp, &g, lines);
    cr_assert_eq(g.n, 1);
    cr_assert_str_eq(g.stmts[0],
        "SELECT 'a;b', 'it''s;', \"we;ird\" -- not; here\n"
        "/* one; /* nested; */ still; */ FROM t");
    free_got(&g);
    shell_splitter_free(&sp);
}

Test(splitter, quote_open_across_lines) {
    shell_splitter_t sp = {0};
    got_t g = {0};
    const char *lines[] = {"INSERT INTO t VALUES ('first;", "second');", NULL};
    feed_all(&sp, &g, lines);
    cr_assert_eq(g.n, 1);
    cr_assert_str_eq(g.stmts[0], "INSERT INTO t VALUES ('first;\nsecond')");
    free_got(&g);
    shell_splitter_free(&sp);
}

Test(splitter, dollar_quotes) {
    shell_splitter_t sp = {0};
    got_t g = {0};
    const char *lines[] = {"SELECT $$a;b$$, $tag$ $$; $tag$, $1;", NULL};
    feed_all(&sp, &g, lines);
    cr_assert_eq(g.n, 1);
    cr_assert_str_eq(g.stmts[0], "SELECT $$a;b$$, $tag$ $$; $tag$, $1");
    free_got(&g);
    shell_splitter_free(&sp);
}

Test(splitter, comment_only_input_is_empty) {
    shell_splitter_t sp = {0};
    got_t g = {0};
    const char *lines[] = {"-- just a comment; really", "/* and; this */", "", NULL};
    feed_all(&sp, &g, lines);
    cr_assert_eq(g.n, 0);
    cr_assert(shell_splitter_empty(&sp));
    shell_splitter_free(&sp);
}

Test(splitter, unterminated_comment_is_not_empty) {
    shell_splitter_t sp = {0};
    got_t g = {0};
    const char *lines[] = {"/* open ; comment", NULL};
    feed_all(&sp, &g, lines);
    cr_assert_eq(g.n, 0);
    cr_assert_not(shell_splitter_empty(&sp));
    shell_splitter_free(&sp);
}

Test(splitter, escape_strings) {
    shell_splitter_t sp = {0};
    got_t g = {0};
    /* In E'...' a backslash escapes the quote; in '...' it does not. */
    const char *lines[] = {"SELECT E'it\\'s; fine', 'C:\\'; SELECT e'\\\\';", NULL};
    feed_all(&sp, &g, lines);
    cr_assert_eq(g.n, 2);
    cr_assert_str_eq(g.stmts[0], "SELECT E'it\\'s; fine', 'C:\\'");
    cr_assert_str_eq(g.stmts[1], " SELECT e'\\\\'");
    cr_assert(shell_splitter_empty(&sp));
    free_got(&g);
    shell_splitter_free(&sp);
}

Test(splitter, begin_atomic_body) {
    /* CREATE FUNCTION's BEGIN ATOMIC ... END keeps its ';'s (a CASE's END
     * nests); a transaction's BEGIN; does not open one */
    shell_splitter_t sp = {0};
    got_t g = {0};
    const char *lines[] = {
        "CREATE FUNCTION f(a int) RETURNS text begin Atomic",
        "  SELECT CASE WHEN a > 0 THEN 'p;' END;",
        "END; BEGIN; SELECT 1;",
        NULL};
    feed_all(&sp, &g, lines);
    cr_assert_eq(g.n, 3);
    cr_assert_str_eq(g.stmts[0], "CREATE FUNCTION f(a int) RETURNS text begin Atomic\n"
                                 "  SELECT CASE WHEN a > 0 THEN 'p;' END;\nEND");
    cr_assert_str_eq(g.stmts[1], " BEGIN");
    cr_assert_str_eq(g.stmts[2], " SELECT 1");
    free_got(&g);
    shell_splitter_free(&sp);
}
