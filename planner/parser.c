/*
 * parser.c - drives the lexer and the lemon parser over a query string
 * (see parser.h).
 *
 * The whole string is one token stream, as in PostgreSQL: statements are
 * separated by ';' in the grammar itself, so an error anywhere reports a
 * position in the whole string, and nothing is returned unless every
 * statement parsed.
 *
 * Two tokens of lookahead are resolved here, like PostgreSQL's
 * base_yylex: NOT before BETWEEN / IN / LIKE / ILIKE / SIMILAR becomes
 * NOT_LA (so "a NOT IN (...)" and "NOT a" need no extra grammar state), and
 * WITH before TIME or ORDINALITY becomes WITH_LA (TIMESTAMP WITH TIME ZONE,
 * unnest(a) WITH ORDINALITY, versus a following WITH clause), and NULLS before FIRST / LAST becomes NULLS_LA
 * (so "ORDER BY a NULLS" fails at NULLS, as in PostgreSQL).
 */
#include "planner/parser.h"

#include <stdlib.h>
#include <string.h>

#include "grammar.h"
#include "planner/ast_build.h"
#include "planner/lexer.h"

/* lemon's generated entry points (grammar.c, %name attu_grammar). */
void *attu_grammarAlloc(void *(*mallocProc)(size_t));
void attu_grammarFree(void *p, void (*freeProc)(void *));
void attu_grammar(void *p, int major, attu_token minor, attu_parse_ctx *ctx);

int attu_sql_char_position(const char *sql, size_t off) {
    int pos = 1;
    for (size_t i = 0; i < off && sql[i]; i++)
        if (((unsigned char)sql[i] & 0xC0) != 0x80) pos++;
    return pos;
}

void attu_parse_free(attu_parse_result *r) {
    if (!r) return;
    attu_ast_arena_free(r->arena);
    free(r);
}

attu_parse_result *attu_parse(const char *sql, attu_error *err) {
    return attu_parse_n(sql, sql ? strlen(sql) : 0, err);
}

attu_parse_result *attu_parse_n(const char *sql, size_t len, attu_error *err) {
    return attu_parse_notify(sql, len, err, NULL, NULL);
}

attu_parse_result *attu_parse_notify(const char *sql, size_t len, attu_error *err,
                                     void (*on_notice)(void *ctx, const char *sqlstate,
                                                       const char *message),
                                     void *notice_ctx) {
    if (!sql) { sql = ""; len = 0; }
    /* PostgreSQL's wire protocol cannot carry a NUL inside a query string;
     * when one arrives in a buffer, the text ends there. */
    const char *nul = memchr(sql, '\0', len);
    if (nul) len = (size_t)(nul - sql);

    attu_parse_result *res = calloc(1, sizeof *res);
    attu_ast_arena *arena = attu_ast_arena_new();
    void *parser = attu_grammarAlloc(malloc);
    if (!res || !arena || !parser) {
        free(res);
        attu_ast_arena_free(arena);
        if (parser) attu_grammarFree(parser, free);
        attu_error_oom(err);
        return NULL;
    }

    /* Errors go to a local record first so a caller's earlier error (first
     * one wins) cannot hide whether this parse failed. */
    attu_error local;
    attu_error_clear(&local);

    attu_lexer lx;
    attu_lexer_init(&lx, sql, len, arena);
    lx.on_notice = on_notice;
    lx.notice_ctx = notice_ctx;
    attu_parse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.arena = arena;
    ctx.err = &local;
    ctx.lx = &lx;
    ctx.sql = sql;
    ctx.sql_len = len;

    /* Tokens are read one at a time, with one extra only after NOT and
     * WITH (as PostgreSQL does), so a lexical error after a syntax error is
     * never the one reported. */
    attu_token cur, next;
    bool have_next = false;
    bool at_stmt_start = true;
    /* INTERVAL field qualifiers: year / month / day / hour / minute /
     * second are field words (IVFIELD) only right after INTERVAL, its
     * string ('...'), or field TO; elsewhere they stay names. */
    int iv_state = 0;   /* 1: after INTERVAL [SCONST]; 2: after a field; 3: after field TO */
    /* INDEX and REINDEX: PostgreSQL's unreserved keywords, which attu
     * lexes as identifiers (a column may be called index unquoted); they
     * become the keywords only where an index statement starts (CREATE
     * [UNIQUE] INDEX, DROP / ALTER INDEX, REINDEX [(...)] INDEX, COMMENT
     * ON INDEX), so every other statement parses, and fails, as before */
    int stmt_tok = 0, first_type = 0, prev1 = 0, prev2 = 0;
    /* The cursor statements' words likewise (grammar.y, db/db_cursor.c):
     * DECLARE, MOVE and CLOSE where a statement starts; DECLARE's options
     * (CURSOR, SCROLL, INSENSITIVE, ASENSITIVE, HOLD) between its name and
     * FOR; a FETCH or MOVE direction (PRIOR, ABSOLUTE, RELATIVE, FORWARD,
     * BACKWARD) right after FETCH or MOVE. */
    bool declare_for = false;
    /* CREATE / ALTER / DROP ROLE, USER or GROUP: the role options' words
     * (ROLE, ADMIN, PASSWORD, VALID, CONNECTION, ENCRYPTED, UNENCRYPTED)
     * are keywords there (grammar.y, db/db_role.c) */
    bool role_stmt = false;
    /* CREATE [OR REPLACE] FUNCTION: FUNCTION is a keyword there (and
     * after DROP and ALTER), RETURN (the SQL-standard body) outside
     * parentheses */
    bool fn_stmt = false;
    bool after_returns = false;   /* the token before is its RETURNS (SETOF follows) */
    /* BEGIN ATOMIC ... END (its SQL-standard body): the statements between
     * are not parsed here but handed on as one ATOMIC_BODY token, their
     * text, up to the END that closes it (a CASE's END nests) */
    bool after_begin = false;
    int atomic = 0;            /* 1: in the body; its CASE depth + 1 */
    size_t atomic_from = 0;    /* where the body's text starts */
    attu_token atomic_first;   /* its first token (the body's position) */
    int parens = 0;   /* ( not yet closed in the statement */
    /* A WITH query's SEARCH / CYCLE clauses: SEARCH and CYCLE are keywords
     * right after the ')' closing a body opened by AS ( or MATERIALIZED (
     * (cte_levels: the parenthesis depth each such body opened at), DEPTH
     * and BREADTH right after SEARCH, CYCLE after a SEARCH clause's SET
     * column; elsewhere they stay identifiers (columns called depth, ...) */
    int cte_levels[64], ncte = 0;
    bool after_cte = false, in_search = false;
    while (!ctx.failed) {
        if (have_next) {
            cur = next;
            have_next = false;
        } else if (attu_lexer_next(&lx, &cur, &local) != 0) {
            ctx.failed = true;
            break;
        }
        if (cur.type == 0) {
            attu_grammar(parser, 0, cur, &ctx);
            break;
        }
        if (atomic) {
            /* inside BEGIN ATOMIC: collect until its END */
            if (atomic == 1 && atomic_from == (size_t)-1) { atomic_first = cur; atomic_from = cur.off; }
            if (cur.type == TK_CASE) atomic++;
            else if (cur.type == TK_END && atomic > 1) atomic--;
            else if (cur.type == TK_END) {
                attu_token b = atomic_first;
                size_t from = atomic_from == (size_t)-1 ? cur.off : atomic_from, to = cur.off;
                /* the text, without the last statement's ';' and blanks */
                while (to > from && (ctx.sql[to - 1] == ' ' || ctx.sql[to - 1] == '\n' || ctx.sql[to - 1] == '\t' ||
                                     ctx.sql[to - 1] == '\r' || ctx.sql[to - 1] == ';'))
                    to--;
                if (atomic_from == (size_t)-1) { b = cur; }
                b.type = TK_ATOMIC_BODY;
                b.off = from;
                b.len = to - from;
                b.str = ab_strndup(&ctx, ctx.sql + from, to - from);
                b.slen = to - from;
                atomic = 0;
                attu_grammar(parser, b.type, b, &ctx);
                ctx.prev_end = to;
                attu_grammar(parser, cur.type, cur, &ctx);
                ctx.prev_end = cur.off + cur.len;
                prev2 = prev1; prev1 = cur.type; stmt_tok++;
            }
            continue;
        }
        if (cur.type == TK_NOT || cur.type == TK_WITH || cur.type == TK_NULLS) {
            if (attu_lexer_next(&lx, &next, &local) != 0) {
                ctx.failed = true;
                break;
            }
            have_next = true;
            if (cur.type == TK_NOT &&
                (next.type == TK_BETWEEN || next.type == TK_IN ||
                 next.type == TK_LIKE || next.type == TK_ILIKE ||
                 next.type == TK_SIMILAR))
                cur.type = TK_NOT_LA;
            else if (cur.type == TK_WITH && (next.type == TK_TIME || next.type == TK_ORDINALITY))
                cur.type = TK_WITH_LA;
            else if (cur.type == TK_NULLS &&
                     (next.type == TK_FIRST || next.type == TK_LAST))
                cur.type = TK_NULLS_LA;
        }
        {
            bool field = (cur.type == TK_ID || cur.type == TK_NOBARE_ID) && cur.str &&
                (strcmp(cur.str, "year") == 0 || strcmp(cur.str, "month") == 0 ||
                 strcmp(cur.str, "day") == 0 || strcmp(cur.str, "hour") == 0 ||
                 strcmp(cur.str, "minute") == 0 || strcmp(cur.str, "second") == 0) &&
                !(cur.len && ctx.sql[cur.off] == '"');
            if (cur.type == TK_INTERVAL) iv_state = 1;
            else if (iv_state == 1 && cur.type == TK_SCONST) iv_state = 1;
            else if ((iv_state == 1 || iv_state == 3) && field) { cur.type = TK_IVFIELD; iv_state = 2; }
            else if (iv_state == 2 && cur.type == TK_TO) iv_state = 3;
            else iv_state = 0;
        }
        if (stmt_tok == 0 && cur.type == TK_RESERVED_NOBARE && cur.str && !strcmp(cur.str, "grant")) cur.type = TK_GRANT;
        if (stmt_tok == 1 && (prev1 == TK_CREATE || prev1 == TK_ALTER || prev1 == TK_DROP) &&
            (cur.type == TK_USER || cur.type == TK_GROUP))
            role_stmt = true;
        if (cur.type == TK_ID && cur.str && !(cur.len && ctx.sql[cur.off] == '"')) {
            static const struct { const char *word; int tok; } role_words[] = {
                { "role", TK_ROLE }, { "admin", TK_ADMIN }, { "password", TK_PASSWORD }, { "valid", TK_VALID },
                { "connection", TK_CONNECTION }, { "encrypted", TK_ENCRYPTED }, { "unencrypted", TK_UNENCRYPTED },
            };
            if (stmt_tok == 1 && (prev1 == TK_CREATE || prev1 == TK_ALTER || prev1 == TK_DROP) && !strcmp(cur.str, "role"))
                role_stmt = true;
            if (role_stmt && stmt_tok >= 1)
                for (size_t w = 0; w < sizeof role_words / sizeof *role_words; w++)
                    if (!strcmp(cur.str, role_words[w].word)) cur.type = role_words[w].tok;
        }
        if (cur.type == TK_ID && cur.str && !(cur.len && ctx.sql[cur.off] == '"')) {
            if (stmt_tok == 0 && !strcmp(cur.str, "revoke")) cur.type = TK_REVOKE;
            else if (stmt_tok == 0 && !strcmp(cur.str, "reindex")) cur.type = TK_REINDEX;
            else if (!strcmp(cur.str, "index") &&
                     ((stmt_tok == 1 && (prev1 == TK_CREATE || prev1 == TK_DROP || prev1 == TK_ALTER ||
                                         prev1 == TK_REINDEX)) ||
                      (stmt_tok == 2 && prev1 == TK_UNIQUE && prev2 == TK_CREATE) ||
                      (stmt_tok == 2 && prev1 == TK_ON && prev2 == TK_COMMENT) ||
                      (first_type == TK_REINDEX && prev1 == TK_RP)))
                cur.type = TK_INDEX;
            else if (!strcmp(cur.str, "of") && (prev1 == TK_CURRENT || (prev1 == TK_UPDATE && stmt_tok >= 2) || prev1 == TK_SHARE))
                cur.type = TK_OF;   /* (WHERE CURRENT OF, FOR UPDATE / SHARE OF) */
            else if (parens == 0 && !strcmp(cur.str, "key") && (prev1 == TK_FOR || (prev1 == TK_NO && prev2 == TK_FOR)))
                cur.type = TK_KEY;   /* (a locking clause: FOR KEY SHARE, FOR NO KEY UPDATE) */
            else if (parens == 0 && !strcmp(cur.str, "share") && (prev1 == TK_FOR || (prev1 == TK_KEY && prev2 == TK_FOR)))
                cur.type = TK_SHARE;
            else if (stmt_tok == 1 && prev1 == TK_SET && !strcmp(cur.str, "constraints")) cur.type = TK_CONSTRAINTS;
            else if (fn_stmt && parens == 0 && !strcmp(cur.str, "return")) cur.type = TK_RETURN;
            else if (fn_stmt && parens == 0 && after_begin && !strcmp(cur.str, "atomic")) {
                cur.type = TK_ATOMIC;
                atomic = 1;
                atomic_from = (size_t)-1;
            }
            else if (!strcmp(cur.str, "function") &&
                     ((stmt_tok == 1 && (prev1 == TK_CREATE || prev1 == TK_DROP || prev1 == TK_ALTER)) ||
                      (stmt_tok == 3 && prev1 == TK_REPLACE && first_type == TK_CREATE) ||
                      (stmt_tok == 2 && prev1 == TK_ON && prev2 == TK_COMMENT))) {
                cur.type = TK_FUNCTION;   /* (CREATE / DROP / ALTER FUNCTION, COMMENT ON FUNCTION) */
                fn_stmt = first_type == TK_CREATE;
            }
            else if (stmt_tok == 0 && !strcmp(cur.str, "declare")) cur.type = TK_DECLARE;
            else if (stmt_tok == 0 && !strcmp(cur.str, "lock")) cur.type = TK_LOCK;
            else if (stmt_tok == 0 && !strcmp(cur.str, "vacuum")) cur.type = TK_VACUUM;
            else if (stmt_tok == 0 && !strcmp(cur.str, "checkpoint")) cur.type = TK_CHECKPOINT;
            else if (first_type == TK_COPY && parens == 0 && stmt_tok >= 3 && prev1 != TK_QUOTE && prev1 != TK_NULL &&
                     prev1 != TK_COMMA && !strcmp(cur.str, "force"))
                cur.type = TK_FORCE;   /* (COPY's old options: FORCE QUOTE a, FORCE NOT NULL b; not a column
                                          named force in their lists) */
            else if (stmt_tok == 0 && !strcmp(cur.str, "move")) cur.type = TK_MOVE;
            else if (stmt_tok == 0 && !strcmp(cur.str, "close")) cur.type = TK_CLOSE;
            else if (first_type == TK_DECLARE && stmt_tok >= 2 && !declare_for) {
                if (!strcmp(cur.str, "cursor")) cur.type = TK_CURSOR;
                else if (!strcmp(cur.str, "scroll")) cur.type = TK_SCROLL;
                else if (!strcmp(cur.str, "insensitive")) cur.type = TK_INSENSITIVE;
                else if (!strcmp(cur.str, "asensitive")) cur.type = TK_ASENSITIVE;
                else if (!strcmp(cur.str, "hold") && (prev1 == TK_WITH || prev1 == TK_WITHOUT)) cur.type = TK_HOLD;
            } else if ((first_type == TK_FETCH || first_type == TK_MOVE) && stmt_tok == 1) {
                if (!strcmp(cur.str, "prior")) cur.type = TK_PRIOR;
                else if (!strcmp(cur.str, "absolute")) cur.type = TK_ABSOLUTE;
                else if (!strcmp(cur.str, "relative")) cur.type = TK_RELATIVE;
                else if (!strcmp(cur.str, "forward")) cur.type = TK_FORWARD;
                else if (!strcmp(cur.str, "backward")) cur.type = TK_BACKWARD;
            }
        }
        if (cur.type == TK_ID && cur.str && !(cur.len && ctx.sql[cur.off] == '"')) {
            if (after_cte && !strcmp(cur.str, "search")) { cur.type = TK_SEARCH; in_search = true; }
            else if (prev1 == TK_SEARCH && !strcmp(cur.str, "depth")) cur.type = TK_DEPTH;
            else if (prev1 == TK_SEARCH && !strcmp(cur.str, "breadth")) cur.type = TK_BREADTH;
            else if ((after_cte || (in_search && prev2 == TK_SET)) && !strcmp(cur.str, "cycle")) {
                cur.type = TK_CYCLE;
                in_search = false;
            }
        }
        after_cte = false;
        if (cur.type == TK_LP && (prev1 == TK_AS || prev1 == TK_MATERIALIZED) && ncte < 64) cte_levels[ncte++] = parens;
        else if (cur.type == TK_RP && ncte && cte_levels[ncte - 1] == parens - 1) { ncte--; after_cte = true; }
        /* (setof is a column-name keyword of the lexer's) */
        if (fn_stmt && after_returns && cur.str && !(cur.len && ctx.sql[cur.off] == '"') && !strcmp(cur.str, "setof"))
            cur.type = TK_SETOF;
        after_begin = fn_stmt && parens == 0 && cur.type == TK_BEGIN;
        after_returns = fn_stmt && parens == 0 && cur.str && cur.type != TK_SCONST && !strcmp(cur.str, "returns");
        if (first_type == TK_DECLARE && cur.type == TK_FOR) declare_for = true;
        if (cur.type == TK_LP) parens++;
        else if (cur.type == TK_RP && parens > 0) parens--;
        if (cur.type == TK_SEMI) {
            stmt_tok = first_type = prev1 = prev2 = 0;
            declare_for = false;
            role_stmt = false;
            fn_stmt = false;
            parens = 0;
            ncte = 0;
            after_cte = in_search = false;
        } else {
            if (!stmt_tok) first_type = cur.type;
            stmt_tok++;
            prev2 = prev1;
            prev1 = cur.type;
        }
        if (cur.type == TK_SEMI) {
            attu_grammar(parser, cur.type, cur, &ctx);
            at_stmt_start = true;
        } else {
            if (at_stmt_start) {
                ctx.stmt_start = cur.off;
                ctx.max_param = 0;
                if (ctx.param_used) memset(ctx.param_used, 0, sizeof *ctx.param_used * (size_t)ctx.param_used_cap);
                at_stmt_start = false;
            }
            attu_grammar(parser, cur.type, cur, &ctx);
            ctx.prev_end = cur.off + cur.len;
        }
    }
    attu_grammarFree(parser, free);

    /* Errors PostgreSQL finds after parsing come only when parsing
     * succeeded. */
    if (!ctx.failed && !local.set && ctx.deferred.set) local = ctx.deferred;

    if (ctx.failed || local.set) {
        if (!local.set)
            attu_error_set(&local, ATTU_SQLSTATE_SYNTAX, 0, "syntax error");
        if (err && !err->set) *err = local;
        attu_ast_arena_free(arena);
        free(res);
        return NULL;
    }
    res->arena = arena;
    res->stmts = ctx.stmts.items;
    res->n = ctx.stmts.n;
    return res;
}
