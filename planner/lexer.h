/*
 * lexer.h - splits SQL text into tokens, the way PostgreSQL 15's scan.l does.
 *
 * Internal to the parser (planner/parser.c); the token codes are the TK_*
 * constants lemon generates from planner/grammar.y into grammar.h.
 *
 * What it knows:
 *   - whitespace; -- comments to end of line; slash-star comments, nested
 *   - identifiers: unquoted ones folded to lower case (ASCII letters only)
 *     and looked up as keywords; "quoted" ones with "" escapes, kept as is;
 *     both truncated to 63 bytes at a character boundary, with a NOTICE
 *     (42622) through on_notice as PostgreSQL gives
 *   - strings: '...' with '' escapes (backslash is an ordinary character),
 *     E'...' with backslash escapes (\n \t \b \f \r \\ \' \ooo \xhh \uXXXX
 *     \UXXXXXXXX), $tag$...$tag$ dollar quoting, and the SQL rule that
 *     'a' <newline> 'b' is one literal 'ab'
 *   - numbers: 42, 4.2, .42, 42., 4e2, 4.2E-1; a number running straight
 *     into identifier characters is PostgreSQL 15's "trailing junk" error
 *   - parameters $1, $2, ...
 *   - operators: PostgreSQL's rules for runs of operator characters (a
 *     trailing + or - is split off unless the run has one of ~!@#^&|`?%),
 *     giving :: <= >= <> != || and single characters their own codes; any
 *     other operator is TK_OP, which the grammar rejects
 */
#ifndef ATTU_PLANNER_LEXER_H
#define ATTU_PLANNER_LEXER_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/error.h"
#include "planner/ast.h"

typedef struct attu_token {
    int         type;     /* TK_* code; 0 at end of input */
    size_t      off;      /* byte offset of the token in the input */
    size_t      len;      /* bytes of the token as written */
    int         pos;      /* 1-based character position of the token */
    /* For identifiers and keywords: the folded name. For strings: the
     * decoded value (may contain any byte but NUL, slen bytes). For numbers
     * and parameters: the text as written. All three are NUL-terminated
     * copies in the arena. For operators and punctuation: a pointer into
     * the input (not terminated; slen bytes). */
    const char *str;
    size_t      slen;
    bool        keyword;  /* an unquoted word found in the keyword table */
} attu_token;

typedef struct attu_lexer {
    const char     *sql;
    size_t          len;
    size_t          off;        /* next byte to scan */
    size_t          char_off;   /* byte offset whose char position is known */
    int             char_pos;   /* 1-based character position of char_off */
    attu_ast_arena *arena;      /* decoded strings live here */
    /* Told of each identifier truncated to 63 bytes (PostgreSQL's NOTICE
     * 42622 'identifier "..." will be truncated to "..."'), as it is
     * scanned; NULL: nobody is told (set after attu_lexer_init). */
    void          (*on_notice)(void *ctx, const char *sqlstate, const char *message);
    void           *notice_ctx;
} attu_lexer;

void attu_lexer_init(attu_lexer *lx, const char *sql, size_t len,
                     attu_ast_arena *arena);

/* Scans the next token into *tok. Returns 0 (tok->type == 0 at end of
 * input, with pos one past the last character, as PostgreSQL reports it),
 * or -1 with err set (42601 for unterminated literals and comments, zero
 * length identifiers and trailing junk; 22025 for bad escapes; 53200). */
int attu_lexer_next(attu_lexer *lx, attu_token *tok, attu_error *err);

/* 1-based character position of byte offset off (off >= the last offset
 * asked for, so positions are computed in one forward pass). */
int attu_lexer_char_pos(attu_lexer *lx, size_t off);

/* Keyword lookup for an already lower-cased word: its TK_* code or 0. */
int attu_keyword_lookup(const char *word, size_t len);

/* Whether word is a keyword PostgreSQL's quote_identifier quotes: any but
 * an unreserved one (a reserved, column-name or type / function-name
 * keyword). */
bool attu_keyword_needs_quotes(const char *word);
/* Whether PostgreSQL's quote_ident would quote the name: anything but a
 * lower-case identifier that is not a reserved word. */
bool attu_ident_needs_quotes(const char *s);

/* sql with every token that is the identifier `from` (an unquoted word
 * folded to it, or a quoted one) written as the quoted identifier `to`
 * (planner/ident_rename.c); *count: how many. *doubtful: such a token
 * stands before "(", or `to` is in the text already. malloc'd; NULL with
 * err (the text does not scan, out of memory). */
char *attu_sql_rename_ident(const char *sql, const char *from, const char *to, int *count, bool *doubtful,
                            attu_error *err);

/* The same for a column of an expression (a CHECK constraint's,
 * db/db_check.c): a token of the name before "(" (a function) or after
 * "::" (a type) is no column and stays, uncounted. */
char *attu_sql_rename_column(const char *sql, const char *from, const char *to, int *count, attu_error *err);

/* The 1-based character position of the first token of sql that is the
 * column `name` (attu_sql_rename_column's rule: not a function's name,
 * not a type's), 0 when there is none (a generated column's reference to
 * another one: db/db_generated.c). */
int attu_sql_column_position(const char *sql, const char *name);

/* The 1-based character position of the first subquery in sql (by its
 * tokens: SELECT, VALUES, TABLE or WITH), PostgreSQL's position for it;
 * 0 when there is none (or the text does not lex). subquery_scan.c */
int attu_sql_find_subquery(const char *sql);

#endif
