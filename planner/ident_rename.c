/*
 * ident_rename.c - SQL text with one identifier renamed, token by token
 * (ALTER TABLE ... RENAME of what a view reads: db/db_view.c).
 *
 * A view keeps its query as text. When a column or a table it names is
 * renamed, the text is rewritten: every token that is that name as an
 * identifier (an unquoted word, folded as the lexer folds it, or a quoted
 * one) becomes the new name, double-quoted unless it is a plain lower-case
 * word that is no keyword, so that it reads back as exactly that name and
 * never as a keyword. Everything else (spacing,
 * comments, literals, the other names) stays byte for byte. The caller
 * decides whether the result means the same: it binds it, and refuses a
 * rename this blind substitution could get wrong (see db_view.c); this
 * file only reports what it cannot judge: a token of the name that
 * stands before "(" (a function's name) and a text that already holds the
 * new name.
 */
#include "planner/lexer.h"

#include <stdlib.h>
#include <string.h>

#include "grammar.h"

/* Whether tok is an identifier (or a keyword written as a word, which may
 * be one) of name `name`. */
static bool names(const attu_token *tok, const char *name) {
    /* (a keyword other than an unreserved one is no name where it
     * stands unquoted) */
    if (tok->type != TK_ID && !(tok->keyword && tok->str && !attu_keyword_needs_quotes(tok->str))) return false;
    return tok->str && !strcmp(tok->str, name);
}

/* columns_only: a token of the name that stands before "(" (a function's
 * name) or after "::" (a type's) is left alone and not counted. */
static char *rename_ident(const char *sql, const char *from, const char *to, bool columns_only, int *count,
                          bool *doubtful, attu_error *err) {
    *count = 0;
    *doubtful = false;
    size_t len = strlen(sql), tlen = strlen(to);
    attu_ast_arena *arena = attu_ast_arena_new();
    /* the quoted new name: "" for each " */
    char *quoted = malloc(2 * tlen + 3);
    size_t qlen = 0;
    if (!arena || !quoted) {
        attu_ast_arena_free(arena);
        free(quoted);
        attu_error_oom(err);
        return NULL;
    }
    /* (a plain lower-case word that is no keyword reads back as itself
     * unquoted, as PostgreSQL writes it) */
    bool plain = tlen > 0 && ((to[0] >= 'a' && to[0] <= 'z') || to[0] == '_') &&
                 attu_keyword_lookup(to, tlen) == 0;
    for (size_t i = 0; plain && i < tlen; i++)
        plain = (to[i] >= 'a' && to[i] <= 'z') || (to[i] >= '0' && to[i] <= '9') || to[i] == '_' || to[i] == '$';
    if (!plain) quoted[qlen++] = '"';
    for (size_t i = 0; i < tlen; i++) {
        if (to[i] == '"') quoted[qlen++] = '"';
        quoted[qlen++] = to[i];
    }
    if (!plain) quoted[qlen++] = '"';
    size_t cap = len + 1, n = 0, copied = 0;
    char *out = malloc(cap);
    attu_lexer lx;
    attu_lexer_init(&lx, sql, len, arena);
    attu_token tok, prev, before, held;
    memset(&prev, 0, sizeof prev);
    memset(&before, 0, sizeof before);
    bool pending = false;   /* prev is a renamed token: is "(" next? */
    bool holding = false;   /* columns_only: held names from, if "(" does not follow */
    while (out) {
        if (attu_lexer_next(&lx, &tok, err)) { free(out); out = NULL; break; }
        if (pending && tok.type == TK_LP) *doubtful = true;
        pending = false;
        attu_token cur = tok;
        bool renaming = false;
        if (holding) {
            holding = false;
            renaming = tok.type != TK_LP;
            tok = held;   /* (renamed below; cur is looked at after) */
        }
        if (!renaming) {
            tok = cur;
            if (!tok.type) break;
            if (names(&tok, to) && strcmp(from, to)) *doubtful = true;
            bool is = names(&tok, from);
            before = prev;
            prev = tok;
            if (!is) continue;
            if (columns_only) {
                if (before.type != TK_TYPECAST) { held = tok; holding = true; }
                continue;
            }
        }
        /* the text up to the token, then the new name */
        size_t need = n + (tok.off - copied) + qlen + (len - tok.off) + 1;
        if (need > cap) {
            cap = need * 2;
            char *p = realloc(out, cap);
            if (!p) { free(out); out = NULL; attu_error_oom(err); break; }
            out = p;
        }
        memcpy(out + n, sql + copied, tok.off - copied);
        n += tok.off - copied;
        memcpy(out + n, quoted, qlen);
        n += qlen;
        copied = tok.off + tok.len;
        (*count)++;
        pending = !columns_only;
        if (renaming) {
            /* the token after the held one, looked at in turn */
            if (!cur.type) break;
            if (names(&cur, to) && strcmp(from, to)) *doubtful = true;
            before = prev;
            prev = cur;
            if (names(&cur, from) && before.type != TK_TYPECAST) { held = cur; holding = true; }
        }
    }
    if (out) {
        memcpy(out + n, sql + copied, len - copied);
        n += len - copied;
        out[n] = '\0';
    } else if (!err->set) attu_error_oom(err);
    attu_ast_arena_free(arena);
    free(quoted);
    return out;
}

char *attu_sql_rename_ident(const char *sql, const char *from, const char *to, int *count, bool *doubtful,
                            attu_error *err) {
    return rename_ident(sql, from, to, false, count, doubtful, err);
}

char *attu_sql_rename_column(const char *sql, const char *from, const char *to, int *count, attu_error *err) {
    bool doubtful = false;
    return rename_ident(sql, from, to, true, count, &doubtful, err);
}

int attu_sql_column_position(const char *sql, const char *name) {
    attu_ast_arena *arena = attu_ast_arena_new();
    if (!arena) return 0;
    attu_error err;
    attu_error_clear(&err);
    attu_lexer lx;
    attu_lexer_init(&lx, sql, strlen(sql), arena);
    attu_token tok, prev, held;
    memset(&prev, 0, sizeof prev);
    bool holding = false;   /* held names the column unless "(" follows */
    int pos = 0;
    while (!pos && !attu_lexer_next(&lx, &tok, &err)) {
        if (holding && tok.type != TK_LP) pos = held.pos;
        holding = false;
        if (pos || !tok.type) break;
        if (names(&tok, name) && prev.type != TK_TYPECAST) { held = tok; holding = true; }
        prev = tok;
    }
    attu_ast_arena_free(arena);
    return pos;
}
