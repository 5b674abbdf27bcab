/*
 * subquery_scan.c - whether SQL text holds a subquery, by its tokens
 * (a CHECK constraint's expression may hold none: db/db_check.c).
 *
 * A subquery always starts with SELECT, VALUES or TABLE (WITH and
 * parenthesized forms open with one of them inside), and none of those
 * words stands in an expression otherwise, so the tokens tell without a
 * parse. The position reported is PostgreSQL's for the sublink: the IN,
 * EXISTS or ARRAY before the subquery's parenthesis, else the
 * parenthesis.
 */
#include "planner/lexer.h"

#include <string.h>

#include "grammar.h"

int attu_sql_find_subquery(const char *sql) {
    attu_ast_arena *arena = attu_ast_arena_new();
    if (!arena) return 0;
    attu_lexer lx;
    attu_lexer_init(&lx, sql, strlen(sql), arena);
    attu_token tok, prev, prev2;
    memset(&prev, 0, sizeof prev);
    memset(&prev2, 0, sizeof prev2);
    attu_error e;
    attu_error_clear(&e);
    int found = 0;
    for (;;) {
        if (attu_lexer_next(&lx, &tok, &e) || !tok.type) break;
        if (tok.type == TK_SELECT || tok.type == TK_VALUES || tok.type == TK_TABLE || tok.type == TK_WITH) {
            found = tok.pos;
            if (prev.type == TK_LP) {
                found = prev.pos;
                if (prev2.type == TK_IN || prev2.type == TK_EXISTS || prev2.type == TK_ARRAY) found = prev2.pos;
            }
            break;
        }
        prev2 = prev;
        prev = tok;
    }
    attu_ast_arena_free(arena);
    return found;
}
