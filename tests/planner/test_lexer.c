/*
 * test_lexer.c - planner/lexer.c token by token: what ends a token, what a
 * token's decoded value is, where it starts (in characters).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "grammar.h"
#include "planner/lexer.h"

typedef struct lexed {
    attu_token toks[64];
    int        n;
    attu_error err;
    int        rc;
} lexed;

static attu_ast_arena *arena;

static void setup(void) { arena = attu_ast_arena_new(); }
static void teardown(void) { attu_ast_arena_free(arena); }

/* Lexes sql to the end (or the first error). */
static lexed lex(const char *sql) {
    lexed l;
    memset(&l, 0, sizeof l);
    attu_lexer lx;
    attu_lexer_init(&lx, sql, strlen(sql), arena);
    attu_error_clear(&l.err);
    for (;;) {
        attu_token t;
        l.rc = attu_lexer_next(&lx, &t, &l.err);
        if (l.rc != 0 || t.type == 0) break;
        cr_assert_lt(l.n, 64);
        l.toks[l.n++] = t;
    }
    return l;
}

static void expect_types(const char *sql, const int *types, int n) {
    lexed l = lex(sql);
    cr_assert_eq(l.rc, 0, "<%s>: %s", sql, l.err.message);
    cr_assert_eq(l.n, n, "<%s>: %d tokens, expected %d", sql, l.n, n);
    for (int i = 0; i < n; i++)
        cr_expect_eq(l.toks[i].type, types[i], "<%s> token %d", sql, i);
}

TestSuite(lexer, .init = setup, .fini = teardown);

Test(lexer, operators_split_like_postgresql) {
    int a[] = { TK_ID, TK_EQ, TK_MINUS, TK_ICONST };           /* a=-1 */
    expect_types("a=-1", a, 4);
    int b[] = { TK_ID, TK_LE, TK_ID, TK_GE, TK_ID, TK_NE, TK_ID, TK_NE, TK_ID };
    expect_types("a<=b>=c<>d!=e", b, 9);
    int c[] = { TK_ID, TK_CONCAT, TK_ID, TK_TYPECAST, TK_ID };
    expect_types("a||b::c", c, 5);
    int d[] = { TK_ID, TK_OP, TK_ID };                          /* ~- keeps the - */
    expect_types("a~-b", d, 3);
    int e[] = { TK_ID, TK_STAR, TK_ID };                        /* comment ends op */
    expect_types("a*/* x */b", e, 3);
    int f[] = { TK_ID, TK_PLUS, TK_ID };                        /* a+-- comment */
    expect_types("a+--c\nb", f, 3);
    int g[] = { TK_ICONST, TK_DOT_DOT, TK_ICONST };
    expect_types("1..2", g, 3);
    int h[] = { TK_LP, TK_RP, TK_LBRACKET, TK_RBRACKET, TK_COMMA, TK_SEMI, TK_DOT,
                TK_COLON, TK_COLON_EQUALS, TK_EQUALS_GREATER, TK_PERCENT, TK_CARET, TK_SLASH };
    expect_types("()[],;.: := => % ^ /", h, 13);
}

Test(lexer, numbers) {
    const char *ints[] = { "0", "42", "9223372036854775808" };
    for (size_t i = 0; i < 3; i++) {
        lexed l = lex(ints[i]);
        cr_assert_eq(l.n, 1);
        cr_expect_eq(l.toks[0].type, TK_ICONST);
        cr_expect_str_eq(l.toks[0].str, ints[i]);
    }
    const char *floats[] = { "4.2", ".5", "5.", "1e10", "1E-3", "2.5e+7" };
    for (size_t i = 0; i < 6; i++) {
        lexed l = lex(floats[i]);
        cr_assert_eq(l.n, 1, "<%s>", floats[i]);
        cr_expect_eq(l.toks[0].type, TK_FCONST, "<%s>", floats[i]);
        cr_expect_str_eq(l.toks[0].str, floats[i]);
    }
    lexed l = lex("1.5.3");   /* 1.5 then .3 */
    cr_assert_eq(l.n, 2);
    cr_expect_str_eq(l.toks[1].str, ".3");
}

Test(lexer, strings_decode) {
    lexed l = lex("'it''s' E'a\\tb\\\\c\\'d\\x41\\101\\u00e9\\U0001F600' $$x'y$$ $q$a$$b$q$");
    cr_assert_eq(l.rc, 0, "%s", l.err.message);
    cr_assert_eq(l.n, 4);
    cr_expect_str_eq(l.toks[0].str, "it's");
    cr_expect_str_eq(l.toks[1].str, "a\tb\\c'dAA\xc3\xa9\xf0\x9f\x98\x80");
    cr_expect_str_eq(l.toks[2].str, "x'y");
    cr_expect_str_eq(l.toks[3].str, "a$$b");
    /* standard strings keep backslashes */
    l = lex("'a\\nb'");
    cr_expect_str_eq(l.toks[0].str, "a\\nb");
    /* continuation across a newline joins; on one line it does not */
    l = lex("'a'\n  'b'");
    cr_assert_eq(l.n, 1);
    cr_expect_str_eq(l.toks[0].str, "ab");
    l = lex("'a' 'b'");
    cr_assert_eq(l.n, 2);
}

Test(lexer, identifiers_and_keywords) {
    lexed l = lex("SeLeCt \"SeLeCt\" \"a\"\"b\" _x$1 été");
    cr_assert_eq(l.n, 5);
    cr_expect_eq(l.toks[0].type, TK_SELECT);
    cr_expect(l.toks[0].keyword);
    cr_expect_eq(l.toks[1].type, TK_ID);          /* quoted: never a keyword */
    cr_expect_str_eq(l.toks[1].str, "SeLeCt");
    cr_expect_str_eq(l.toks[2].str, "a\"b");
    cr_expect_str_eq(l.toks[3].str, "_x$1");
    cr_expect_str_eq(l.toks[4].str, "été");
    cr_expect_eq(attu_keyword_lookup("between", 7), TK_BETWEEN);
    cr_expect_eq(attu_keyword_lookup("betwee", 6), 0);
    cr_expect_eq(attu_keyword_lookup("betweenx", 8), 0);
    cr_expect_eq(attu_keyword_lookup("do", 2), TK_DO);              /* ON CONFLICT ... DO */
    cr_expect_eq(attu_keyword_lookup("foreign", 7), TK_RESERVED_BARE);
    cr_expect_eq(attu_keyword_lookup("year", 4), TK_NOBARE_ID);
    cr_expect_eq(attu_keyword_lookup("text", 4), 0);   /* a plain name to attu */
    cr_expect_eq(attu_keyword_lookup("column", 6), TK_COLUMN);   /* ALTER TABLE t ADD COLUMN */
    cr_expect_eq(attu_keyword_lookup("type", 4), TK_TYPE);
}

Test(lexer, positions_are_characters) {
    lexed l = lex("/* ü */ a -- é\n  'ß' b");
    cr_assert_eq(l.n, 3);
    cr_expect_eq(l.toks[0].pos, 9);
    cr_expect_eq(l.toks[1].pos, 18);
    cr_expect_eq(l.toks[2].pos, 22);
}

Test(lexer, nested_comments) {
    int a[] = { TK_ID, TK_ID };
    expect_types("a /* x /* y */ z */ b", a, 2);
    lexed l = lex("a /* x /* y */ z");
    cr_expect_eq(l.rc, -1);
    cr_expect_str_eq(l.err.message, "unterminated /* comment at or near \"/* x /* y */ z\"");
    cr_expect_eq(l.err.position, 3);
}

/* attu_sql_rename_ident (planner/ident_rename.c): ALTER TABLE ... RENAME
 * rewriting a view's text. Only identifier tokens of the name change;
 * strings, comments, other names and the spacing stay. */
static void expect_rename(const char *sql, const char *from, const char *to, const char *want, int count,
                          bool doubtful) {
    attu_error err;
    attu_error_clear(&err);
    int n = -1;
    bool d = false;
    char *out = attu_sql_rename_ident(sql, from, to, &n, &d, &err);
    cr_assert_not_null(out, "%s: %s", sql, err.message);
    cr_expect_str_eq(out, want);
    cr_expect_eq(n, count, "%s: %d renamed", sql, n);
    cr_expect_eq(d, doubtful, "%s", sql);
    free(out);
}

Test(lexer, rename_ident) {
    /* a plain lower-case new name stands bare, as PostgreSQL writes it */
    expect_rename("SELECT x, t.x, \"x\", X FROM t WHERE x > 'x' -- x\n", "x", "y",
                  "SELECT y, t.y, y, y FROM t WHERE y > 'x' -- x\n", 5, false);
    /* any other is quoted: upper case, a quote, a keyword */
    expect_rename("SELECT \"X\", x FROM t", "X", "a\"b", "SELECT \"a\"\"b\", x FROM t", 1, false);
    expect_rename("SELECT x FROM t", "x", "Y", "SELECT \"Y\" FROM t", 1, false);
    expect_rename("SELECT x FROM t", "x", "order", "SELECT \"order\" FROM t", 1, false);
    expect_rename("SELECT x FROM t", "x", "1a", "SELECT \"1a\" FROM t", 1, false);
    /* a function's name, or the new name already there: the caller refuses */
    expect_rename("SELECT abs(abs) FROM t", "abs", "b", "SELECT b(b) FROM t", 2, true);
    expect_rename("SELECT x, y FROM t", "x", "y", "SELECT y, y FROM t", 1, true);
    /* a reserved keyword is no name where it stands unquoted */
    expect_rename("SELECT \"select\" FROM t", "select", "s", "SELECT s FROM t", 1, false);
    expect_rename("SELECT name FROM t", "name", "n", "SELECT n FROM t", 1, false);
}
