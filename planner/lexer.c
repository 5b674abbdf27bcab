/*
 * lexer.c - SQL tokens, following PostgreSQL 15's scan.l (see lexer.h).
 *
 * A hand-written scanner: one switch on the first byte of each token. The
 * rules that decide where a token ends are PostgreSQL's, because they decide
 * what a client sees in "syntax error at or near ..." messages. High-bit
 * bytes are identifier characters (as in PostgreSQL), so UTF-8 names work
 * without decoding; only positions count characters.
 */
#include "planner/lexer.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grammar.h"

#define NAME_MAX_BYTES 63

/* ---- keywords ------------------------------------------------------------ */

typedef struct kw {
    const char *word;
    int         code;
} kw;

/* Sorted by word (strcmp order) for binary search. Every keyword the
 * grammar mentions is here, and so is every word PostgreSQL 15 reserves
 * (fully or as a type/function or column name) even where attu's grammar
 * has no use for it: those map to the class tokens RESERVED_BARE,
 * RESERVED_NOBARE, TYPEFUNC_BARE, TYPEFUNC_NOBARE and COLNAME_OTHER, so
 * "SELECT do FROM t" fails where PostgreSQL fails. NOBARE_ID marks the
 * unreserved words that cannot be an alias without AS (day, year, ...).
 * PostgreSQL's other unreserved keywords are plain identifiers here. */
static const kw keywords[] = {
    {"abort", TK_ABORT},
    {"add", TK_ADD},
    {"all", TK_ALL},
    {"alter", TK_ALTER},
    {"analyse", TK_ANALYZE},
    {"analyze", TK_ANALYZE},
    {"and", TK_AND},
    {"any", TK_ANY},
    {"array", TK_ARRAY},
    {"as", TK_AS},
    {"asc", TK_ASC},
    {"asymmetric", TK_ASYMMETRIC},
    {"at", TK_AT},
    {"authorization", TK_TYPEFUNC_BARE},
    {"begin", TK_BEGIN},
    {"between", TK_BETWEEN},
    {"bigint", TK_BIGINT},
    {"binary", TK_BINARY},
    {"bit", TK_COLNAME_OTHER},
    {"boolean", TK_BOOLEAN},
    {"both", TK_BOTH},
    {"by", TK_BY},
    {"cascade", TK_CASCADE},
    {"case", TK_CASE},
    {"cast", TK_CAST},
    {"chain", TK_CHAIN},
    {"char", TK_CHAR},
    {"character", TK_CHARACTER},
    {"characteristics", TK_CHARACTERISTICS},
    {"check", TK_CHECK},
    {"coalesce", TK_COALESCE},
    {"collate", TK_COLLATE},
    {"collation", TK_TYPEFUNC_BARE},
    {"column", TK_COLUMN},
    {"comment", TK_COMMENT},
    {"commit", TK_COMMIT},
    {"committed", TK_COMMITTED},
    {"concurrently", TK_TYPEFUNC_BARE},
    {"constraint", TK_CONSTRAINT},
    {"continue", TK_CONTINUE},
    {"copy", TK_COPY},
    {"create", TK_CREATE},
    {"cross", TK_CROSS},
    {"csv", TK_CSV},
    {"current", TK_CURRENT},
    {"current_catalog", TK_RESERVED_BARE},
    {"current_date", TK_CURRENT_DATE},
    {"current_role", TK_RESERVED_BARE},
    {"current_schema", TK_TYPEFUNC_BARE},
    {"current_time", TK_CURRENT_TIME},
    {"current_timestamp", TK_CURRENT_TIMESTAMP},
    {"current_user", TK_RESERVED_BARE},
    {"data", TK_DATA},
    {"day", TK_NOBARE_ID},
    {"deallocate", TK_DEALLOCATE},
    {"dec", TK_DEC},
    {"decimal", TK_DECIMAL},
    {"default", TK_DEFAULT},
    {"deferrable", TK_DEFERRABLE},
    {"delete", TK_DELETE},
    {"delimiter", TK_DELIMITER},
    {"desc", TK_DESC},
    {"describe", TK_DESCRIBE},
    {"discard", TK_DISCARD},
    {"distinct", TK_DISTINCT},
    {"do", TK_DO},
    {"domain", TK_DOMAIN},
    {"double", TK_DOUBLE},
    {"drop", TK_DROP},
    {"else", TK_ELSE},
    {"encoding", TK_ENCODING},
    {"end", TK_END},
    {"escape", TK_ESCAPE},
    {"except", TK_EXCEPT},
    {"exclude", TK_EXCLUDE},
    {"execute", TK_EXECUTE},
    {"exists", TK_EXISTS},
    {"explain", TK_EXPLAIN},
    {"extract", TK_EXTRACT},
    {"false", TK_FALSE},
    {"fetch", TK_FETCH},
    {"filter", TK_FILTER},
    {"first", TK_FIRST},
    {"float", TK_FLOAT},
    {"following", TK_FOLLOWING},
    {"for", TK_FOR},
    {"foreign", TK_RESERVED_BARE},
    {"freeze", TK_FREEZE},
    {"from", TK_FROM},
    {"full", TK_FULL},
    {"generated", TK_GENERATED},
    {"grant", TK_RESERVED_NOBARE},
    {"greatest", TK_GREATEST},
    {"group", TK_GROUP},
    {"grouping", TK_COLNAME_OTHER},
    {"groups", TK_GROUPS},
    {"having", TK_HAVING},
    {"header", TK_HEADER},
    {"hour", TK_NOBARE_ID},
    {"if", TK_IF},
    {"ilike", TK_ILIKE},
    {"in", TK_IN},
    {"initially", TK_INITIALLY},
    {"inner", TK_INNER},
    {"inout", TK_COLNAME_OTHER},
    {"insert", TK_INSERT},
    {"int", TK_INT},
    {"integer", TK_INTEGER},
    {"intersect", TK_INTERSECT},
    {"interval", TK_INTERVAL},
    {"into", TK_INTO},
    {"is", TK_IS},
    {"isnull", TK_ISNULL},
    {"isolation", TK_ISOLATION},
    {"join", TK_JOIN},
    {"last", TK_LAST},
    {"lateral", TK_LATERAL},
    {"leading", TK_LEADING},
    {"least", TK_LEAST},
    {"left", TK_LEFT},
    {"level", TK_LEVEL},
    {"like", TK_LIKE},
    {"limit", TK_LIMIT},
    {"listen", TK_LISTEN},
    {"local", TK_LOCAL},
    {"localtime", TK_LOCALTIME},
    {"localtimestamp", TK_LOCALTIMESTAMP},
    {"materialized", TK_MATERIALIZED},
    {"merge", TK_MERGE},
    {"minute", TK_NOBARE_ID},
    {"month", TK_NOBARE_ID},
    {"names", TK_NAMES},
    {"national", TK_COLNAME_OTHER},
    {"natural", TK_NATURAL},
    {"nchar", TK_COLNAME_OTHER},
    {"next", TK_NEXT},
    {"no", TK_NO},
    {"none", TK_COLNAME_OTHER},
    {"normalize", TK_COLNAME_OTHER},
    {"not", TK_NOT},
    {"notify", TK_NOTIFY},
    {"notnull", TK_NOTNULL},
    {"null", TK_NULL},
    {"nullif", TK_NULLIF},
    {"nulls", TK_NULLS},
    {"numeric", TK_NUMERIC},
    {"offset", TK_OFFSET},
    {"on", TK_ON},
    {"only", TK_ONLY},
    {"or", TK_OR},
    {"order", TK_ORDER},
    {"ordinality", TK_ORDINALITY},
    {"others", TK_OTHERS},
    {"out", TK_COLNAME_OTHER},
    {"outer", TK_OUTER},
    {"over", TK_OVER},
    {"overlaps", TK_TYPEFUNC_NOBARE},
    {"overlay", TK_OVERLAY},
    {"overriding", TK_OVERRIDING},
    {"partition", TK_PARTITION},
    {"placing", TK_PLACING},
    {"plans", TK_PLANS},
    {"position", TK_POSITION},
    {"preceding", TK_PRECEDING},
    {"precision", TK_PRECISION},
    {"prepare", TK_PREPARE},
    {"primary", TK_PRIMARY},
    {"quote", TK_QUOTE},
    {"range", TK_RANGE},
    {"read", TK_READ},
    {"real", TK_REAL},
    {"recursive", TK_RECURSIVE},
    {"references", TK_RESERVED_BARE},
    {"refresh", TK_REFRESH},
    {"release", TK_RELEASE},
    {"rename", TK_RENAME},
    {"repeatable", TK_REPEATABLE},
    {"replace", TK_REPLACE},
    {"reset", TK_RESET},
    {"restart", TK_RESTART},
    {"restrict", TK_RESTRICT},
    {"returning", TK_RETURNING},
    {"right", TK_RIGHT},
    {"rollback", TK_ROLLBACK},
    {"row", TK_ROW},
    {"rows", TK_ROWS},
    {"savepoint", TK_SAVEPOINT},
    {"second", TK_NOBARE_ID},
    {"select", TK_SELECT},
    {"sequence", TK_SEQUENCE},
    {"sequences", TK_SEQUENCES},
    {"serializable", TK_SERIALIZABLE},
    {"session", TK_SESSION},
    {"session_user", TK_RESERVED_BARE},
    {"set", TK_SET},
    {"setof", TK_COLNAME_OTHER},
    {"show", TK_SHOW},
    {"similar", TK_SIMILAR},
    {"smallint", TK_SMALLINT},
    {"some", TK_SOME},
    {"start", TK_START},
    {"stdin", TK_STDIN},
    {"stdout", TK_STDOUT},
    {"substring", TK_SUBSTRING},
    {"symmetric", TK_SYMMETRIC},
    {"table", TK_TABLE},
    {"tablesample", TK_TYPEFUNC_BARE},
    {"temp", TK_TEMP},
    {"temporary", TK_TEMPORARY},
    {"then", TK_THEN},
    {"ties", TK_TIES},
    {"time", TK_TIME},
    {"timestamp", TK_TIMESTAMP},
    {"to", TK_TO},
    {"trailing", TK_TRAILING},
    {"transaction", TK_TRANSACTION},
    {"treat", TK_COLNAME_OTHER},
    {"trim", TK_TRIM},
    {"true", TK_TRUE},
    {"truncate", TK_TRUNCATE},
    {"type", TK_TYPE},
    {"unbounded", TK_UNBOUNDED},
    {"uncommitted", TK_UNCOMMITTED},
    {"union", TK_UNION},
    {"unique", TK_UNIQUE},
    {"unknown", TK_UNKNOWN},
    {"unlisten", TK_UNLISTEN},
    {"update", TK_UPDATE},
    {"user", TK_USER},
    {"using", TK_USING},
    {"values", TK_VALUES},
    {"varchar", TK_VARCHAR},
    {"variadic", TK_VARIADIC},
    {"varying", TK_VARYING},
    {"verbose", TK_VERBOSE},
    {"view", TK_VIEW},
    {"when", TK_WHEN},
    {"where", TK_WHERE},
    {"window", TK_WINDOW},
    {"with", TK_WITH},
    {"within", TK_WITHIN},
    {"without", TK_WITHOUT},
    {"work", TK_WORK},
    {"write", TK_WRITE},
    {"xmlattributes", TK_COLNAME_OTHER},
    {"xmlconcat", TK_COLNAME_OTHER},
    {"xmlelement", TK_COLNAME_OTHER},
    {"xmlexists", TK_COLNAME_OTHER},
    {"xmlforest", TK_COLNAME_OTHER},
    {"xmlnamespaces", TK_COLNAME_OTHER},
    {"xmlparse", TK_COLNAME_OTHER},
    {"xmlpi", TK_COLNAME_OTHER},
    {"xmlroot", TK_COLNAME_OTHER},
    {"xmlserialize", TK_COLNAME_OTHER},
    {"xmltable", TK_COLNAME_OTHER},
    {"year", TK_NOBARE_ID},
    {"zone", TK_ZONE},
};

int attu_keyword_lookup(const char *word, size_t len) {
    size_t lo = 0, hi = sizeof keywords / sizeof keywords[0];
    if (len == 0 || len > 20) return 0;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const char *w = keywords[mid].word;
        int c = strncmp(word, w, len);
        if (c == 0 && w[len] != '\0') c = -1;   /* word is a proper prefix */
        if (c == 0) return keywords[mid].code;
        if (c < 0) hi = mid; else lo = mid + 1;
    }
    return 0;
}

bool attu_keyword_needs_quotes(const char *word) {
    int tk = attu_keyword_lookup(word, strlen(word));
    /* the grammar declares the unreserved keywords in one run, ABORT to
     * ORDINALITY (grammar.y); NOBARE_ID words are unreserved too */
    return tk && tk != TK_NOBARE_ID && !(tk >= TK_ABORT && tk <= TK_ORDINALITY);
}

bool attu_ident_needs_quotes(const char *s) {
    if (!*s || (*s >= '0' && *s <= '9')) return true;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')) return true;
    return attu_keyword_needs_quotes(s);
}

/* ---- character classes --------------------------------------------------- */

static int is_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
           c == '\v';
}
static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static int is_ident_start(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c >= 0x80;
}
static int is_ident_cont(unsigned char c) {
    return is_ident_start(c) || is_digit(c) || c == '$';
}
/* PostgreSQL's op_chars. */
static int is_op_char(unsigned char c) {
    return c != '\0' && strchr("~!@#^&|`?+-*/%<>=", c) != NULL;
}
static int is_hex(unsigned char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static int hex_val(unsigned char c) {
    if (is_digit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return c - 'A' + 10;
}

/* ---- positions ----------------------------------------------------------- */

void attu_lexer_init(attu_lexer *lx, const char *sql, size_t len,
                     attu_ast_arena *arena) {
    memset(lx, 0, sizeof *lx);
    lx->sql = sql;
    lx->len = len;
    lx->char_pos = 1;
    lx->arena = arena;
}

int attu_lexer_char_pos(attu_lexer *lx, size_t off) {
    if (off < lx->char_off) {       /* going back: recount from the start */
        lx->char_off = 0;
        lx->char_pos = 1;
    }
    if (off > lx->len) off = lx->len;
    for (size_t i = lx->char_off; i < off; i++)
        if (((unsigned char)lx->sql[i] & 0xC0) != 0x80) lx->char_pos++;
    lx->char_off = off;
    return lx->char_pos;
}

/* ---- errors -------------------------------------------------------------- */

/* PostgreSQL quotes the rest of the input from the token start in messages
 * about unterminated literals; keep it readable by clipping long text. */
static int lex_error(attu_lexer *lx, attu_error *err, size_t start,
                     size_t end, const char *what) {
    int pos = attu_lexer_char_pos(lx, start);
    size_t n = end - start;
    if (n > 200) n = 200;
    return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, pos, "%s at or near \"%.*s\"",
                          what, (int)n, lx->sql + start);
}

/* ---- string building ----------------------------------------------------- */

typedef struct sbuf {
    char   *p;
    size_t  n, cap;
    int     oom;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n) {
    if (b->oom) return;
    if (n >= (size_t)PTRDIFF_MAX - b->n) { b->oom = 1; return; }   /* (no object is that large) */
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        while (cap < b->n + n + 1) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) { b->oom = 1; return; }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
}
static void sb_putc(sbuf *b, char c) { sb_put(b, &c, 1); }

static void sb_put_utf8(sbuf *b, uint32_t cp) {
    char u[4];
    if (cp < 0x80) { u[0] = (char)cp; sb_put(b, u, 1); }
    else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6)); u[1] = (char)(0x80 | (cp & 0x3F));
        sb_put(b, u, 2);
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12)); u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        sb_put(b, u, 3);
    } else {
        u[0] = (char)(0xF0 | (cp >> 18)); u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); u[3] = (char)(0x80 | (cp & 0x3F));
        sb_put(b, u, 4);
    }
}

/* Moves the buffer into the arena as the token's string. */
static int sb_finish(attu_lexer *lx, sbuf *b, attu_token *tok, attu_error *err) {
    if (b->oom) { free(b->p); return attu_error_oom(err); }
    char *s = attu_ast_strndup(lx->arena, b->p ? b->p : "", b->n);
    free(b->p);
    if (!s) return attu_error_oom(err);
    tok->str = s;
    tok->slen = b->n;
    return 0;
}

/* Truncates an identifier to 63 bytes without splitting a UTF-8 sequence. */
static size_t clip_name(const char *s, size_t n) {
    if (n <= NAME_MAX_BYTES) return n;
    n = NAME_MAX_BYTES;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
    return n;
}

/* PostgreSQL's NOTICE for an identifier longer than 63 bytes: name is the
 * whole identifier (n bytes, folded or unquoted), keep the bytes it keeps. */
static void notice_truncated(const attu_lexer *lx, const char *name, size_t n, size_t keep) {
    if (!lx->on_notice) return;
    size_t cap = 2 * n + 64;
    char *msg = malloc(cap);
    if (!msg) return;
    snprintf(msg, cap, "identifier \"%.*s\" will be truncated to \"%.*s\"", (int)n, name, (int)keep, name);
    lx->on_notice(lx->notice_ctx, "42622", msg);
    free(msg);
}

/* ---- the scanner --------------------------------------------------------- */

/* After a quoted string ends at *p, PostgreSQL joins a following string if
 * only whitespace with at least one newline separates them. Returns the
 * offset of the next opening quote, or 0 if none follows. */
static size_t string_continuation(const attu_lexer *lx, size_t p) {
    int newline = 0;
    while (p < lx->len) {
        char c = lx->sql[p];
        if (c == '\n' || c == '\r') { newline = 1; p++; }
        else if (is_space((unsigned char)c)) p++;
        else if (c == '-' && p + 1 < lx->len && lx->sql[p + 1] == '-') {
            /* a comment counts as whitespace; it always ends in a newline
             * or the end of input */
            while (p < lx->len && lx->sql[p] != '\n') p++;
        } else break;
    }
    if (newline && p < lx->len && lx->sql[p] == '\'') return p;
    return 0;
}

/* '...' (escapes == 0) or E'...' (escapes == 1); *p at the opening quote. */
static int scan_string(attu_lexer *lx, size_t start, size_t q, int escapes,
                       attu_token *tok, attu_error *err) {
    sbuf b = {0};
    size_t p = q;
    for (;;) {
        p++;   /* past the opening quote */
        for (;;) {
            if (p >= lx->len) {
                free(b.p);
                return lex_error(lx, err, start, lx->len, "unterminated quoted string");
            }
            char c = lx->sql[p];
            if (c == '\'') {
                if (p + 1 < lx->len && lx->sql[p + 1] == '\'') {
                    sb_putc(&b, '\'');
                    p += 2;
                    continue;
                }
                p++;
                break;
            }
            if (escapes && c == '\\' && p + 1 < lx->len) {
                unsigned char e = (unsigned char)lx->sql[p + 1];
                p += 2;
                switch (e) {
                case 'b': sb_putc(&b, '\b'); break;
                case 'f': sb_putc(&b, '\f'); break;
                case 'n': sb_putc(&b, '\n'); break;
                case 'r': sb_putc(&b, '\r'); break;
                case 't': sb_putc(&b, '\t'); break;
                case 'x':
                    if (p < lx->len && is_hex((unsigned char)lx->sql[p])) {
                        int v = hex_val((unsigned char)lx->sql[p++]);
                        if (p < lx->len && is_hex((unsigned char)lx->sql[p]))
                            v = v * 16 + hex_val((unsigned char)lx->sql[p++]);
                        sb_putc(&b, (char)v);
                    } else {
                        sb_putc(&b, 'x');
                    }
                    break;
                case 'u': case 'U': {
                    int nd = e == 'u' ? 4 : 8;
                    uint32_t cp = 0;
                    size_t esc_start = p - 2;
                    for (int i = 0; i < nd; i++) {
                        if (p >= lx->len || !is_hex((unsigned char)lx->sql[p])) {
                            free(b.p);
                            return attu_error_set(err, "22025",
                                attu_lexer_char_pos(lx, esc_start),
                                "invalid Unicode escape");
                        }
                        cp = cp * 16 + (uint32_t)hex_val((unsigned char)lx->sql[p++]);
                    }
                    if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                        free(b.p);
                        return lex_error(lx, err, esc_start, p,
                                         "invalid Unicode escape value");
                    }
                    sb_put_utf8(&b, cp);
                    break;
                }
                default:
                    if (e >= '0' && e <= '7') {
                        int v = e - '0';
                        for (int i = 0; i < 2 && p < lx->len &&
                                        lx->sql[p] >= '0' && lx->sql[p] <= '7'; i++)
                            v = v * 8 + (lx->sql[p++] - '0');
                        sb_putc(&b, (char)(v & 0xFF));
                    } else {
                        sb_putc(&b, (char)e);   /* \\ \' and unknown escapes */
                    }
                }
                continue;
            }
            sb_putc(&b, c);
            p++;
        }
        size_t next = string_continuation(lx, p);
        if (!next) break;
        p = next;
    }
    /* A NUL byte cannot be stored in a text value (PostgreSQL rejects it
     * from E'\0' and \x00 too). */
    if (!b.oom && memchr(b.p ? b.p : "", '\0', b.n)) {
        free(b.p);
        return attu_error_set(err, "22021", 0,
                              "invalid byte sequence for encoding \"UTF8\": 0x00");
    }
    tok->type = TK_SCONST;
    tok->len = p - start;
    lx->off = p;
    return sb_finish(lx, &b, tok, err);
}

/* U&'...' [UESCAPE 'c'], PostgreSQL's Unicode escape string: with the
 * escape character (a backslash unless UESCAPE names another), cXXXX and
 * c+XXXXXX are code points (a UTF-16 surrogate pair as two of them) and cc
 * the character itself; start at the U. Errors are PostgreSQL's 42601
 * at the escape ("invalid Unicode escape", with its hint; "invalid
 * Unicode surrogate pair"; "invalid Unicode escape value") and at a bad
 * UESCAPE character. */
static int scan_ustring(attu_lexer *lx, size_t start, attu_token *tok, attu_error *err) {
    const char *s = lx->sql;
    const size_t n = lx->len;
    sbuf raw = {0}, at = {0};   /* the body's characters and their offsets */
    size_t p = start + 2, close_at = 0;
    for (;;) {
        p++;   /* past the opening quote */
        for (;;) {
            if (p >= n) {
                free(raw.p); free(at.p);
                return lex_error(lx, err, start, n, "unterminated quoted string");
            }
            if (s[p] == '\'') {
                if (p + 1 < n && s[p + 1] == '\'') {
                    sb_putc(&raw, '\'');
                    sb_put(&at, (const char *)&p, sizeof p);
                    p += 2;
                    continue;
                }
                p++;
                break;
            }
            sb_putc(&raw, s[p]);
            sb_put(&at, (const char *)&p, sizeof p);
            p++;
        }
        close_at = p - 1;
        size_t next = string_continuation(lx, p);
        if (!next) break;
        p = next;
    }
    char esc = '\\';
    {
        size_t q = p;
        while (q < n && is_space((unsigned char)s[q])) q++;
        if (q + 7 <= n && !strncasecmp(s + q, "uescape", 7) && (q + 7 == n || !is_ident_cont((unsigned char)s[q + 7]))) {
            size_t r = q + 7;
            while (r < n && is_space((unsigned char)s[r])) r++;
            if (r + 2 < n && s[r] == '\'' && s[r + 1] != '\'' && s[r + 2] == '\'') {
                char c = s[r + 1];
                if (is_hex((unsigned char)c) || c == '+' || c == '"' || is_space((unsigned char)c)) {
                    free(raw.p); free(at.p);
                    return lex_error(lx, err, r, r + 3, "invalid Unicode escape character");
                }
                esc = c;
                p = r + 3;
            } else {
                free(raw.p); free(at.p);
                return lex_error(lx, err, r, r < n ? r + 1 : n, "UESCAPE must be followed by a simple string literal");
            }
        }
    }
    sbuf b = {0};
    const char *rp = raw.p ? raw.p : "";
    const size_t *ap = (const size_t *)at.p;
    uint32_t high = 0;   /* a surrogate waiting for its pair */
    size_t high_at = 0;
    for (size_t i = 0; i < raw.n;) {
        if (rp[i] != esc) {
            if (high) goto bad_pair;
            sb_putc(&b, rp[i++]);
            continue;
        }
        size_t e_at = ap[i];
        if (i + 1 < raw.n && rp[i + 1] == esc) {
            if (high) goto bad_pair;
            sb_putc(&b, esc);
            i += 2;
            continue;
        }
        int nd = i + 1 < raw.n && rp[i + 1] == '+' ? 6 : 4;
        size_t d0 = i + 1 + (nd == 6);
        uint32_t cp = 0;
        for (int k = 0; k < nd; k++) {
            if (d0 + (size_t)k >= raw.n || !is_hex((unsigned char)rp[d0 + k])) {
                free(raw.p); free(at.p); free(b.p);
                attu_error_set(err, ATTU_SQLSTATE_SYNTAX, attu_lexer_char_pos(lx, e_at), "invalid Unicode escape");
                attu_error_set_hint(err, "Unicode escapes must be \\XXXX or \\+XXXXXX.");
                return -1;
            }
            cp = cp * 16 + (uint32_t)hex_val((unsigned char)rp[d0 + k]);
        }
        i = d0 + (size_t)nd;
        if (high) {
            if (cp < 0xDC00 || cp > 0xDFFF) goto bad_pair_at;   /* (at this escape) */
            cp = 0x10000 + ((high - 0xD800) << 10) + (cp - 0xDC00);
            high = 0;
        } else if (cp >= 0xD800 && cp <= 0xDBFF) {
            /* PostgreSQL points past it where its pair is missing */
            high = cp;
            high_at = i < raw.n ? ap[i] : close_at;
            continue;
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            goto bad_pair_at;
        }
        if (cp == 0 || cp > 0x10FFFF) {
            free(raw.p); free(at.p); free(b.p);
            return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, attu_lexer_char_pos(lx, e_at), "invalid Unicode escape value");
        }
        sb_put_utf8(&b, cp);
        continue;
    bad_pair:
        e_at = high_at;
    bad_pair_at:
        free(raw.p); free(at.p); free(b.p);
        return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, attu_lexer_char_pos(lx, e_at), "invalid Unicode surrogate pair");
    }
    if (high) {
        free(raw.p); free(at.p); free(b.p);
        return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, attu_lexer_char_pos(lx, high_at), "invalid Unicode surrogate pair");
    }
    free(raw.p); free(at.p);
    tok->type = TK_SCONST;
    tok->len = p - start;
    lx->off = p;
    return sb_finish(lx, &b, tok, err);
}

/* $tag$ ... $tag$ ; *p at the first '$'. Returns 1 if this is not a dollar
 * quote opener (so the caller tries a parameter), 0 or -1 otherwise. */
static int scan_dollar(attu_lexer *lx, size_t start, attu_token *tok,
                       attu_error *err) {
    size_t p = start + 1;
    if (p < lx->len && is_ident_start((unsigned char)lx->sql[p])) {
        while (p < lx->len && is_ident_cont((unsigned char)lx->sql[p]) &&
               lx->sql[p] != '$') p++;
    }
    if (p >= lx->len || lx->sql[p] != '$') return 1;
    size_t taglen = p + 1 - start;           /* includes both '$' */
    const char *tag = lx->sql + start;
    size_t body = p + 1;
    for (size_t i = body; i + taglen <= lx->len; i++) {
        if (lx->sql[i] == '$' && memcmp(lx->sql + i, tag, taglen) == 0) {
            sbuf b = {0};
            sb_put(&b, lx->sql + body, i - body);
            if (!b.oom && memchr(b.p ? b.p : "", '\0', b.n)) {
                free(b.p);
                return attu_error_set(err, "22021", attu_lexer_char_pos(lx, start),
                                      "invalid byte sequence for encoding \"UTF8\": 0x00");
            }
            tok->type = TK_SCONST;
            tok->len = i + taglen - start;
            lx->off = i + taglen;
            return sb_finish(lx, &b, tok, err);
        }
    }
    return lex_error(lx, err, start, lx->len, "unterminated dollar-quoted string");
}

/* Numbers: digits [. digits] [e [+-] digits] | . digits [e ...]. */
static int scan_number(attu_lexer *lx, size_t start, attu_token *tok,
                       attu_error *err) {
    const char *s = lx->sql;
    size_t p = start, n = lx->len;
    int is_float = 0;
    while (p < n && is_digit((unsigned char)s[p])) p++;
    if (p < n && s[p] == '.') {
        /* "1..2": the integer ends before "..", as PostgreSQL's decimalfail */
        if (p + 1 < n && s[p + 1] == '.' && p > start) goto done;
        is_float = 1;
        p++;
        while (p < n && is_digit((unsigned char)s[p])) p++;
    }
    if (p < n && (s[p] == 'e' || s[p] == 'E')) {
        size_t q = p + 1;
        if (q < n && (s[q] == '+' || s[q] == '-')) q++;
        if (q < n && is_digit((unsigned char)s[q])) {
            is_float = 1;
            p = q;
            while (p < n && is_digit((unsigned char)s[p])) p++;
        } else if (q > p + 1) {
            /* "1e+" without digits: PostgreSQL's realfail2, junk up to and
             * including the sign */
            return lex_error(lx, err, start, q, "trailing junk after numeric literal");
        }
        /* otherwise "1e", "1ex": junk through the identifier, just below */
    }
done:
    if (p < n && is_ident_start((unsigned char)s[p])) {
        size_t q = p;
        while (q < n && is_ident_cont((unsigned char)s[q])) q++;
        return lex_error(lx, err, start, q, "trailing junk after numeric literal");
    }
    tok->type = is_float ? TK_FCONST : TK_ICONST;
    tok->len = p - start;
    tok->str = attu_ast_strndup(lx->arena, s + start, p - start);
    if (!tok->str) return attu_error_oom(err);
    tok->slen = p - start;
    lx->off = p;
    return 0;
}

/* Runs of operator characters, with PostgreSQL's trimming rules. */
static int scan_operator(attu_lexer *lx, size_t start, attu_token *tok) {
    const char *s = lx->sql;
    size_t p = start;
    while (p < lx->len && is_op_char((unsigned char)s[p])) p++;
    size_t n = p - start;
    /* A comment start ends the operator. */
    for (size_t i = 0; i + 1 < n; i++) {
        if ((s[start + i] == '/' && s[start + i + 1] == '*') ||
            (s[start + i] == '-' && s[start + i + 1] == '-')) {
            n = i;
            break;
        }
    }
    if (n == 0) n = 1;   /* cannot happen: comments are handled first */
    /* A trailing + or - is split off unless the operator has one of
     * ~!@#^&|`?% in it (so "a=-1" is "=" then "-"). */
    if (n > 1 && (s[start + n - 1] == '+' || s[start + n - 1] == '-')) {
        size_t i;
        for (i = 0; i + 1 < n; i++)
            if (strchr("~!@#^&|`?%", s[start + i])) break;
        if (i + 1 >= n) {
            do { n--; } while (n > 1 && (s[start + n - 1] == '+' ||
                                         s[start + n - 1] == '-'));
        }
    }
    tok->len = n;
    tok->str = s + start;
    tok->slen = n;
    lx->off = start + n;
    if (n == 1) {
        switch (s[start]) {
        case '+': tok->type = TK_PLUS; return 0;
        case '-': tok->type = TK_MINUS; return 0;
        case '*': tok->type = TK_STAR; return 0;
        case '/': tok->type = TK_SLASH; return 0;
        case '%': tok->type = TK_PERCENT; return 0;
        case '^': tok->type = TK_CARET; return 0;
        case '<': tok->type = TK_LT; return 0;
        case '>': tok->type = TK_GT; return 0;
        case '=': tok->type = TK_EQ; return 0;
        default: break;
        }
    } else if (n == 2) {
        const char *o = s + start;
        if (memcmp(o, "<=", 2) == 0) { tok->type = TK_LE; return 0; }
        if (memcmp(o, ">=", 2) == 0) { tok->type = TK_GE; return 0; }
        if (memcmp(o, "<>", 2) == 0 || memcmp(o, "!=", 2) == 0) {
            tok->type = TK_NE;
            return 0;
        }
        if (memcmp(o, "||", 2) == 0) { tok->type = TK_CONCAT; return 0; }
        if (memcmp(o, "=>", 2) == 0) { tok->type = TK_EQUALS_GREATER; return 0; }
    }
    tok->type = TK_OP;
    return 0;
}

/* OPERATOR(op) and OPERATOR(pg_catalog.op), PostgreSQL's explicit operator
 * syntax (psql's catalog queries write OPERATOR(pg_catalog.~)): after the
 * word "operator" at p, if the rest has that form, tok becomes the operator
 * itself as scan_operator lexes it, its off / len still naming the
 * operator's text (what the grammar's actions read), and the lexer moves
 * past the ')'. attu's only operator schema is pg_catalog: another name is
 * PostgreSQL's 3F000 (returns -1 with err set); text of another shape
 * leaves "operator" an identifier (returns 0, and the statement is the
 * syntax error it is in PostgreSQL). Unlike
 * PostgreSQL, the operator keeps its own precedence (OPERATOR(=) binds
 * as = does, where PostgreSQL gives every OPERATOR() the precedence of a
 * user-defined operator). */
static int scan_qualified_operator(attu_lexer *lx, size_t p, attu_token *tok, attu_error *err) {
    const char *s = lx->sql;
    size_t n = lx->len;
    while (p < n && is_space((unsigned char)s[p])) p++;
    if (p >= n || s[p] != '(') return 0;
    p++;
    while (p < n && is_space((unsigned char)s[p])) p++;
    if (p < n && is_ident_start((unsigned char)s[p])) {   /* schema. */
        size_t q = p;
        while (q < n && is_ident_cont((unsigned char)s[q])) q++;
        size_t name_end = q;
        while (q < n && is_space((unsigned char)s[q])) q++;
        if (q >= n || s[q] != '.') return 0;
        if (name_end - p != 10 || strncasecmp(s + p, "pg_catalog", 10)) {
            char name[64];
            size_t len = name_end - p < sizeof name - 1 ? name_end - p : sizeof name - 1;
            for (size_t i = 0; i < len; i++) name[i] = (s[p + i] >= 'A' && s[p + i] <= 'Z') ? (char)(s[p + i] + 32) : s[p + i];
            name[len] = 0;
            attu_error_set(err, "3F000", tok->pos, "schema \"%s\" does not exist", name);
            return -1;
        }
        p = q + 1;
        while (p < n && is_space((unsigned char)s[p])) p++;
    }
    if (p >= n || !is_op_char((unsigned char)s[p])) return 0;
    size_t op = p;
    while (p < n && is_op_char((unsigned char)s[p])) p++;
    size_t end = p;
    while (p < n && is_space((unsigned char)s[p])) p++;
    if (p >= n || s[p] != ')') return 0;
    attu_token t = *tok;
    size_t save = lx->off;
    scan_operator(lx, op, &t);
    if (lx->off != end) { lx->off = save; return 0; }   /* "OPERATOR(=-)": not one operator */
    t.off = op;
    *tok = t;
    lx->off = p + 1;
    return 1;
}

int attu_lexer_next(attu_lexer *lx, attu_token *tok, attu_error *err) {
    const char *s = lx->sql;
    size_t n = lx->len;
    memset(tok, 0, sizeof *tok);

    /* Whitespace and comments. */
    for (;;) {
        while (lx->off < n && is_space((unsigned char)s[lx->off])) lx->off++;
        if (lx->off + 1 < n && s[lx->off] == '-' && s[lx->off + 1] == '-') {
            while (lx->off < n && s[lx->off] != '\n' && s[lx->off] != '\r') lx->off++;
            continue;
        }
        if (lx->off + 1 < n && s[lx->off] == '/' && s[lx->off + 1] == '*') {
            size_t start = lx->off;
            int depth = 0;
            size_t p = lx->off;
            while (p < n) {
                if (p + 1 < n && s[p] == '/' && s[p + 1] == '*') { depth++; p += 2; }
                else if (p + 1 < n && s[p] == '*' && s[p + 1] == '/') {
                    p += 2;
                    if (--depth == 0) break;
                } else p++;
            }
            if (depth > 0)
                return lex_error(lx, err, start, n, "unterminated /* comment");
            lx->off = p;
            continue;
        }
        break;
    }

    size_t start = lx->off;
    tok->off = start;
    tok->pos = attu_lexer_char_pos(lx, start);
    if (start >= n) {               /* end of input */
        tok->type = 0;
        return 0;
    }

    unsigned char c = (unsigned char)s[start];

    /* E'...' and e'...' escape strings. */
    if ((c == 'e' || c == 'E') && start + 1 < n && s[start + 1] == '\'')
        return scan_string(lx, start, start + 1, 1, tok, err);
    /* U&'...' Unicode escape strings. */
    if ((c == 'u' || c == 'U') && start + 2 < n && s[start + 1] == '&' && s[start + 2] == '\'')
        return scan_ustring(lx, start, tok, err);

    if (is_ident_start(c)) {
        size_t p = start + 1;
        while (p < n && is_ident_cont((unsigned char)s[p])) p++;
        size_t len = p - start;
        char *w = attu_ast_alloc(lx->arena, len + 1);
        if (!w) return attu_error_oom(err);
        for (size_t i = 0; i < len; i++) {
            char ch = s[start + i];
            w[i] = (ch >= 'A' && ch <= 'Z') ? (char)(ch - 'A' + 'a') : ch;
        }
        size_t clen = clip_name(w, len);
        /* keywords are never that long: only names are told of */
        if (clen < len) notice_truncated(lx, w, len, clen);
        w[clen] = '\0';
        tok->len = len;
        tok->str = w;
        tok->slen = clen;
        if (clen == 8 && !memcmp(w, "operator", 8)) {
            int r = scan_qualified_operator(lx, p, tok, err);
            if (r) return r > 0 ? 0 : -1;
        }
        int code = attu_keyword_lookup(w, len);
        tok->type = code ? code : TK_ID;
        tok->keyword = code != 0;
        if (code == TK_COLNAME_OTHER && len == 8 && !memcmp(w, "grouping", 8)) {
            /* GROUPING SETS: one token for the two words, so that SETS
             * stays a name (and grouping a column name keyword) */
            size_t q = p;
            while (q < n && is_space((unsigned char)s[q])) q++;
            if (q > p && q + 4 <= n && !strncasecmp(s + q, "sets", 4) &&
                (q + 4 == n || !is_ident_cont((unsigned char)s[q + 4]))) {
                tok->type = TK_GROUPING_SETS;
                tok->len = q + 4 - start;
                p = q + 4;
            }
        }
        lx->off = p;
        return 0;
    }

    if (is_digit(c) || (c == '.' && start + 1 < n && is_digit((unsigned char)s[start + 1])))
        return scan_number(lx, start, tok, err);

    switch (c) {
    case '\'':
        return scan_string(lx, start, start, 0, tok, err);
    case '"': {
        sbuf b = {0};
        size_t p = start + 1;
        for (;;) {
            if (p >= n) {
                free(b.p);
                return lex_error(lx, err, start, n, "unterminated quoted identifier");
            }
            if (s[p] == '"') {
                if (p + 1 < n && s[p + 1] == '"') { sb_putc(&b, '"'); p += 2; continue; }
                p++;
                break;
            }
            sb_putc(&b, s[p]);
            p++;
        }
        if (b.n == 0) {
            free(b.p);
            return lex_error(lx, err, start, p, "zero-length delimited identifier");
        }
        if (!b.oom && memchr(b.p, '\0', b.n)) {
            free(b.p);
            return attu_error_set(err, "22021", tok->pos,
                                  "invalid byte sequence for encoding \"UTF8\": 0x00");
        }
        if (!b.oom) {
            size_t keep = clip_name(b.p, b.n);
            if (keep < b.n) notice_truncated(lx, b.p, b.n, keep);
            b.n = keep;
        }
        tok->type = TK_ID;
        tok->len = p - start;
        lx->off = p;
        return sb_finish(lx, &b, tok, err);
    }
    case '$': {
        if (start + 1 < n && is_digit((unsigned char)s[start + 1])) {
            size_t p = start + 1;
            while (p < n && is_digit((unsigned char)s[p])) p++;
            if (p < n && is_ident_start((unsigned char)s[p])) {
                size_t q = p;
                while (q < n && is_ident_cont((unsigned char)s[q])) q++;
                return lex_error(lx, err, start, q, "trailing junk after parameter");
            }
            tok->type = TK_PARAM;
            tok->len = p - start;
            tok->str = attu_ast_strndup(lx->arena, s + start + 1, p - start - 1);
            if (!tok->str) return attu_error_oom(err);
            tok->slen = p - start - 1;
            lx->off = p;
            return 0;
        }
        int r = scan_dollar(lx, start, tok, err);
        if (r <= 0) return r;
        /* A lone '$' is not a token PostgreSQL knows either. */
        tok->type = TK_ILLEGAL;
        tok->len = 1;
        tok->str = s + start;
        tok->slen = 1;
        lx->off = start + 1;
        return 0;
    }
    case ',': tok->type = TK_COMMA; break;
    case '(': tok->type = TK_LP; break;
    case ')': tok->type = TK_RP; break;
    case '[': tok->type = TK_LBRACKET; break;
    case ']': tok->type = TK_RBRACKET; break;
    case ';': tok->type = TK_SEMI; break;
    case '.':
        if (start + 1 < n && s[start + 1] == '.') {
            tok->type = TK_DOT_DOT;
            tok->len = 2;
            tok->str = s + start;
            tok->slen = 2;
            lx->off = start + 2;
            return 0;
        }
        tok->type = TK_DOT;
        break;
    case ':':
        if (start + 1 < n && s[start + 1] == ':') {
            tok->type = TK_TYPECAST;
            tok->len = 2;
        } else if (start + 1 < n && s[start + 1] == '=') {
            tok->type = TK_COLON_EQUALS;
            tok->len = 2;
        } else {
            tok->type = TK_COLON;
        }
        if (tok->len == 0) tok->len = 1;
        tok->str = s + start;
        tok->slen = tok->len;
        lx->off = start + tok->len;
        return 0;
    default:
        if (is_op_char(c)) return scan_operator(lx, start, tok);
        /* Anything else (control characters, a stray backslash) is a token
         * of its own that no rule accepts: PostgreSQL reports a syntax
         * error at it. */
        tok->type = TK_ILLEGAL;
        break;
    }
    tok->len = 1;
    tok->str = s + start;
    tok->slen = 1;
    lx->off = start + 1;
    return 0;
}
