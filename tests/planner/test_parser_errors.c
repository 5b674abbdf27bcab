/*
 * test_parser_errors.c - malformed SQL gets PostgreSQL's error: SQLSTATE,
 * message and 1-based character position.
 *
 * malformed_cases.tsv holds about 1400 mutants of valid_statements.sql with
 * the answer a real PostgreSQL 15 server gave for each (see
 * gen_malformed.py, which regenerates both). Hand-written cases below cover
 * the lexer's errors one by one, and a generated sweep checks that every
 * truncation of every valid statement fails cleanly or parses.
 */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/parser.h"

static char *source_path(const char *rel) {
    const char *root = getenv("ATTU_SOURCE_DIR");
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", root ? root : ".", rel);
    return path;
}

/* Undoes gen_malformed.py's escaping (\n and \\) in place. */
static void unescape(char *s) {
    char *w = s;
    for (char *r = s; *r; r++) {
        if (r[0] == '\\' && r[1] == 'n') { *w++ = '\n'; r++; }
        else if (r[0] == '\\' && r[1] == '\\') { *w++ = '\\'; r++; }
        else *w++ = *r;
    }
    *w = '\0';
}

static void expect_error(const char *sql, const char *state, int pos, const char *msg) {
    attu_error err;
    attu_error_clear(&err);
    attu_parse_result *r = attu_parse(sql, &err);
    cr_expect_null(r, "<%s> parsed but PostgreSQL says %s: %s", sql, state, msg);
    attu_parse_free(r);
    if (!err.set) return;
    cr_expect_str_eq(err.sqlstate, state, "sqlstate for <%s> (%s)", sql, err.message);
    cr_expect_eq(err.position, pos, "position for <%s> (%s)", sql, err.message);
    if (msg) cr_expect_str_eq(err.message, msg, "message for <%s>", sql);
}

Test(parser_errors, postgresql_reference_cases) {
    FILE *f = fopen(source_path("tests/planner/malformed_cases.tsv"), "r");
    cr_assert_not_null(f, "malformed_cases.tsv not found (ATTU_SOURCE_DIR?)");
    static char line[1 << 16];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        line[strcspn(line, "\n")] = '\0';
        char *state = strtok(line, "\t");
        char *pos = strtok(NULL, "\t");
        char *msg = strtok(NULL, "\t");
        char *sql = strtok(NULL, "");
        cr_assert(state && pos && msg && sql, "bad line %d", n + 1);
        unescape(sql);
        expect_error(sql, state, atoi(pos), msg);
        n++;
    }
    fclose(f);
    cr_assert_gt(n, 1000, "only %d cases read", n);
}

Test(parser_errors, lexical_errors) {
    expect_error("SELECT 'abc", "42601", 8, "unterminated quoted string at or near \"'abc\"");
    expect_error("SELECT E'ab\\'", "42601", 8, "unterminated quoted string at or near \"E'ab\\'\"");
    expect_error("SELECT \"abc", "42601", 8, "unterminated quoted identifier at or near \"\"abc\"");
    expect_error("SELECT 1 /* a /* b */", "42601", 10,
                 "unterminated /* comment at or near \"/* a /* b */\"");
    expect_error("SELECT \"\" FROM t", "42601", 8,
                 "zero-length delimited identifier at or near \"\"\"\"");
    expect_error("SELECT 123abc", "42601", 8, "trailing junk after numeric literal at or near \"123abc\"");
    expect_error("SELECT 1.5e", "42601", 8, "trailing junk after numeric literal at or near \"1.5e\"");
    expect_error("SELECT 1e+", "42601", 8, "trailing junk after numeric literal at or near \"1e+\"");
    expect_error("SELECT 1a.b", "42601", 8, "trailing junk after numeric literal at or near \"1a\"");
    expect_error("SELECT $1abc", "42601", 8, "trailing junk after parameter at or near \"$1abc\"");
    expect_error("SELECT $$abc", "42601", 8, "unterminated dollar-quoted string at or near \"$$abc\"");
    expect_error("SELECT E'\\u12'", "22025", 10, "invalid Unicode escape");
    expect_error("SELECT E'\\u0000'", "42601", 10,
                 "invalid Unicode escape value at or near \"\\u0000\"");
    expect_error("SELECT E'\\x00'", "22021", 0, "invalid byte sequence for encoding \"UTF8\": 0x00");
    expect_error("SELECT 1..2", "42601", 9, "syntax error at or near \"..\"");
    expect_error("SELECT 1 \\ 2", "42601", 10, "syntax error at or near \"\\\"");
    expect_error("SELECT $", "42601", 8, "syntax error at or near \"$\"");
    expect_error("SELECT é é é", "42601", 12, "syntax error at or near \"é\"");
}

Test(parser_errors, syntax_errors) {
    expect_error("SELECT 1 +", "42601", 11, "syntax error at end of input");
    expect_error("SELECT 1 +   ", "42601", 14, "syntax error at end of input");
    expect_error("SELECT * FORM t", "42601", 10, "syntax error at or near \"FORM\"");
    expect_error("SELECT 1 = 2 = 3", "42601", 14, "syntax error at or near \"=\"");
    expect_error("SELECT 'a' 'b'", "42601", 12, "syntax error at or near \"'b'\"");
    expect_error("SELECT 1 SELECT 2", "42601", 17, "syntax error at or near \"2\"");
    expect_error("SELECT 1; SELEC 2", "42601", 11, "syntax error at or near \"SELEC\"");
    expect_error("SELECT a FROM t WHERE", "42601", 22, "syntax error at end of input");
    expect_error("SELECT a FROM t ORDER BY a NULLS", "42601", 28, "syntax error at or near \"NULLS\"");
    expect_error("SELECT x BETWEEN 1 OR 2 AND 3 FROM t", "42601", 20, "syntax error at or near \"OR\"");
    expect_error("SELECT do FROM t", "42601", 8, "syntax error at or near \"do\"");
    expect_error("CREATE TABLE t (a int NOT NULL NULL)", "42601", 32,
                 "conflicting NULL/NOT NULL declarations for column \"a\" of table \"t\"");
    expect_error("SELECT * FROM (SELECT 1)", "42601", 15, "subquery in FROM must have an alias");
    expect_error("SELECT a FROM t LIMIT 1, 2", "42601", 17, "LIMIT #,# syntax is not supported");
    /* WITH TIES: PostgreSQL gives these two no position */
    expect_error("SELECT a FROM t FETCH FIRST 2 ROWS WITH TIES", "42601", 0,
                 "WITH TIES cannot be specified without ORDER BY clause");
    expect_error("(SELECT a FROM t ORDER BY a FETCH FIRST 1 ROW WITH TIES) OFFSET 1", "42601", 0,
                 "multiple limit options not allowed");
    expect_error("(SELECT a FROM t ORDER BY a FETCH FIRST 1 ROW WITH TIES) LIMIT 1", "42601", 64,
                 "multiple LIMIT clauses not allowed");
    expect_error("SELECT a FROM t ORDER BY a LIMIT 1 WITH TIES", "42601", 36, "syntax error at or near \"WITH\"");
    expect_error("SELECT a FROM t ORDER BY a FETCH FIRST 1 ROW ONLY WITH TIES", "42601", 51,
                 "syntax error at or near \"WITH\"");
    expect_error("SELECT a FROM t ORDER BY a) ORDER BY b", "42601", 27, "syntax error at or near \")\"");
    expect_error("(SELECT a FROM t ORDER BY a) ORDER BY b", "42601", 39,
                 "multiple ORDER BY clauses not allowed");
    expect_error("EXPLAIN (FOO) SELECT 1", "42601", 10, "unrecognized EXPLAIN option \"foo\"");
    expect_error("SELECT $0", "42P02", 8, "there is no parameter $0");
    /* operators attu lacks parse, then fail as PostgreSQL's would */
    expect_error("SELECT a <-> b FROM t", "42883", 10, "operator does not exist: <->");
    expect_error("SELECT !! a", "42883", 8, "operator does not exist: !!");
    expect_error("SELECT a ~ b FROM", "42601", 18, "syntax error at end of input");
    expect_error("SELECT a = ANY (SELECT 1", "42601", 25, "syntax error at end of input");
    expect_error("SELECT ARRAY(SELECT 1, 2)", "42601", 8, "subquery must return only one column");
    expect_error("SELECT f(x)[1]", "42601", 12, "syntax error at or near \"[\"");
    /* the syntax error wins over the later one, as in PostgreSQL */
    expect_error("SELECT $0 FROM", "42601", 15, "syntax error at end of input");
}

Test(parser_errors, named_window_errors) {
    /* all as PostgreSQL 15 reports them */
    expect_error("select sum(a) over w from (values(1)) t(a)", "42704", 20,
                 "window \"w\" does not exist");
    expect_error("select sum(a) over (w order by a) from (values(1)) t(a) window w as (order by a)",
                 "42P20", 20, "cannot override ORDER BY clause of window \"w\"");
    expect_error("select sum(a) over (w partition by a) from (values(1)) t(a) window w as (order by a)",
                 "42P20", 20, "cannot override PARTITION BY clause of window \"w\"");
    expect_error("select sum(a) over w from (values(1)) t(a) window w as (order by a), w as ()",
                 "42P20", 75, "window \"w\" is already defined");
    expect_error("select sum(a) over (w) from (values(1)) t(a) window w as (rows 1 preceding)",
                 "42P20", 20, "cannot copy window \"w\" because it has a frame clause");
    expect_error("select 1 from (values(1)) t(a) window w as (x order by a), x as ()",
                 "42704", 44, "window \"x\" does not exist");
    expect_error("select (select sum(a) over w) from (values(1)) t(a) window w as ()",
                 "42704", 28, "window \"w\" does not exist");
    /* a syntax error later in the text wins */
    expect_error("select sum(a) over w from t where", "42601", 34, "syntax error at end of input");
}

Test(parser_errors, nul_byte_ends_the_text) {
    /* A NUL cannot come over the wire inside a query; the text stops there. */
    const char sql[] = "SELECT 1\0garbage'";
    attu_error err;
    attu_error_clear(&err);
    attu_parse_result *r = attu_parse_n(sql, sizeof sql - 1, &err);
    cr_assert_not_null(r);
    cr_assert_eq(r->n, 1);
    attu_parse_free(r);
}

/* Every prefix of every valid statement either parses or fails with a
 * parse-time SQLSTATE and a position inside the text (or one past it). */
Test(parser_errors, every_truncation_fails_cleanly) {
    FILE *f = fopen(source_path("tests/planner/valid_statements.sql"), "r");
    cr_assert_not_null(f);
    static char line[1 << 14];
    int checked = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || (line[0] == '-' && line[1] == '-')) continue;
        size_t n = strlen(line);
        for (size_t k = 0; k < n; k++) {
            attu_error err;
            attu_error_clear(&err);
            attu_parse_result *r = attu_parse_n(line, k, &err);
            if (r) { attu_parse_free(r); continue; }
            cr_assert(err.set);
            /* syntax, lexical, and the errors PostgreSQL raises right
             * after parsing (parameters, windows, operators, typmods) */
            static const char *const ok[] = { "42601", "22025", "0A000", "42P02", "22P02",
                                              "22023", "42704", "42P20", "42883" };
            bool known = false;
            for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
                if (strcmp(err.sqlstate, ok[i]) == 0) known = true;
            cr_assert(known, "unexpected %s (%s) for prefix %zu of <%s>", err.sqlstate,
                      err.message, k, line);
            cr_assert_leq(err.position, (int)k + 1, "position %d past the end for <%.*s>",
                         err.position, (int)k, line);
            checked++;
        }
    }
    fclose(f);
    cr_assert_gt(checked, 3000);
}

/* Statements PostgreSQL has and attu lacks (planner/unsupported_statement.c):
 * 0A000 at the word that names the form, after comments, in a later
 * statement of the string, with non-ASCII text before it (positions are
 * characters); the words as names, and mistyped statements, keep theirs. */
Test(parser_errors, unsupported_statements) {
    expect_error("CREATE SCHEMA s", "0A000", 8, "CREATE SCHEMA is not supported");
    expect_error("  /* x */ -- y\n create   schema s", "0A000", 26, "CREATE SCHEMA is not supported");
    expect_error("SELECT 'é'; DROP TRIGGER tr ON t", "0A000", 18, "DROP TRIGGER is not supported");
    expect_error("CREATE OR REPLACE RULE r AS ON INSERT TO t DO NOTHING", "0A000", 19,
                 "CREATE RULE is not supported");
    expect_error("GRANT USAGE ON SCHEMA public TO u", "0A000", 13,
                 "GRANT of privileges on objects is not supported");
    expect_error("SELECT * FROM t TABLESAMPLE SYSTEM (1)", "0A000", 17, "TABLESAMPLE is not supported");
    expect_error("CREATE TYPE p AS (a int)", "0A000", 18,
                 "CREATE TYPE ... AS (composite types) is not supported");
    expect_error("PREPARE TRANSACTION 'x'", "0A000", 21, "PREPARE TRANSACTION is not supported");
    expect_error("DO $$ BEGIN END $$", "0A000", 1, "DO is not supported");
    /* not PostgreSQL statements either: syntax errors as there */
    expect_error("CREATE SYSTEM x", "42601", 8, "syntax error at or near \"SYSTEM\"");
    expect_error("ALTER CAST (int AS text)", "42601", 7, "syntax error at or near \"CAST\"");
    expect_error("CREATE FOREIGN x", "42601", 8, "syntax error at or near \"FOREIGN\"");
    expect_error("CREATE TABL t (x int)", "42601", 8, "syntax error at or near \"TABL\"");
    expect_error("CREATE SCHEMA", "0A000", 8, "CREATE SCHEMA is not supported");
}
