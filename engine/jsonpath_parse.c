/*
 * jsonpath_parse.c - the jsonpath type's input: a lexer and a recursive
 * descent parser for PostgreSQL 15's SQL/JSON path language, with its
 * error messages (engine/jsonpath.h).
 *
 * The messages name the token where PostgreSQL's scanner stands when its
 * parser gives up (observed on PostgreSQL 15.18, not read from its
 * source): a punctuation token, number or variable is named by its text,
 * a quoted string by its closing quote, and a word (key, keyword) by the
 * blanks that ended it, or "at end of jsonpath input" when a symbol or
 * the end of the input ended it.
 *
 * Numbers follow flex's longest match against words: a run of "other"
 * characters (digits and letters alike) longer than every number reading
 * of it is a word (`1ea`, `0x1F`); a number followed by one such
 * character is "trailing junk" (`1a`, `00`), an exponent with no digits
 * an "invalid numeric literal" (`1e+`).
 *
 * After parsing, `@` outside filters and `last` outside array subscripts
 * are refused as PostgreSQL does; a like_regex pattern is checked while it
 * is parsed (2201B for a bad one; the x flag is 0A000).
 */
#include "engine/jsonpath.h"

#include "engine/similar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tokens ------------------------------------------------------------------------- */

enum { K_END, K_PUNCT, K_STRING, K_INT, K_NUMERIC, K_VAR, K_WORD };

typedef struct jp_tok {
    int kind;
    const char *at; size_t len;   /* the token's bytes in the input */
    const char *s; size_t slen;   /* STRING, VAR, WORD: the decoded text; numbers: the text */
    const char *err; size_t errlen; bool err_at_end;   /* how a syntax error names it */
} jp_tok;

typedef struct jp_parser {
    const char *start, *p, *end;
    jp_tok tok;
    jarena *ar;
    attu_error *err;
    jbuf tmp;
    int depth;            /* the parser's own nesting (parentheses, unary operators, filters) */
} jp_parser;

/* attu's limits on a path's nesting, which keep the parser, the printer
 * and the evaluator (all recursive) within a worker's stack: 54001 past
 * them, where PostgreSQL's own limits are about 10,000 nested parentheses
 * and a chain of about 13,000 items */
#define JP_MAX_NESTING 3000
#define JP_MAX_DEPTH 6000

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
static bool is_special(char c) { return strchr("?%$.[]{}()|&!=<>@#,*:-+/\\\"", c) != NULL || is_blank(c); }
static bool is_other(char c) { return c && !is_special(c); }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static int hexv(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* "<what> at or near "<text>" of jsonpath input" / "<what> at end of jsonpath input" */
static int lex_error(jp_parser *ps, const char *what, const char *at, size_t n, bool at_end) {
    if (at_end || !n) return attu_error_set(ps->err, ATTU_SQLSTATE_SYNTAX, 0, "%s at end of jsonpath input", what);
    return attu_error_set(ps->err, ATTU_SQLSTATE_SYNTAX, 0, "%s at or near \"%.*s\" of jsonpath input", what, (int)n, at);
}
static int syntax_error(jp_parser *ps) {
    const jp_tok *t = &ps->tok;
    if (t->kind == K_END) return lex_error(ps, "syntax error", NULL, 0, true);
    return lex_error(ps, "syntax error", t->err, t->errlen, t->err_at_end);
}

static char *dup_text(jp_parser *ps, const char *s, size_t n) {
    char *d = attu_jt_alloc(ps->ar, n + 1);
    if (!d) { attu_error_oom(ps->err); return NULL; }
    if (n) memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static void put_utf8(jbuf *b, unsigned cp) {
    char u[4];
    size_t n;
    if (cp < 0x80) { u[0] = (char)cp; n = 1; }
    else if (cp < 0x800) { u[0] = (char)(0xc0 | (cp >> 6)); u[1] = (char)(0x80 | (cp & 0x3f)); n = 2; }
    else if (cp < 0x10000) {
        u[0] = (char)(0xe0 | (cp >> 12)); u[1] = (char)(0x80 | ((cp >> 6) & 0x3f)); u[2] = (char)(0x80 | (cp & 0x3f)); n = 3;
    } else {
        u[0] = (char)(0xf0 | (cp >> 18)); u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3f)); u[3] = (char)(0x80 | (cp & 0x3f)); n = 4;
    }
    attu_jt_put(b, u, n);
}

/* One code point of an escape into ps->tmp; *hi holds a pending high surrogate. */
static int put_code_point(jp_parser *ps, unsigned cp, int *hi) {
    if (cp == 0) {
        attu_error_set(ps->err, "22P05", 0, "unsupported Unicode escape sequence");
        attu_error_set_detail(ps->err, "\\u0000 cannot be converted to text.");
        return -1;
    }
    if (cp >= 0xd800 && cp <= 0xdbff) {
        if (*hi >= 0) goto bad_surrogate;
        *hi = (int)cp;
        return 0;
    }
    if (cp >= 0xdc00 && cp <= 0xdfff) {
        if (*hi < 0) goto bad_surrogate;
        cp = 0x10000 + (((unsigned)*hi - 0xd800) << 10) + (cp - 0xdc00);
        *hi = -1;
    } else if (*hi >= 0) goto bad_surrogate;
    put_utf8(&ps->tmp, cp);
    return 0;
bad_surrogate:
    attu_error_set(ps->err, ATTU_SQLSTATE_INVALID_TEXT_REP, 0, "invalid input syntax for type jsonpath");
    attu_error_set_detail(ps->err, "Unicode low surrogate must follow a high surrogate.");
    return -1;
}

/* A backslash sequence at q (its backslash) of a string or word, decoded
 * into ps->tmp; returns the byte after it, NULL on an error. */
static const char *lex_escape(jp_parser *ps, const char *q, int *hi) {
    const char *e = ps->end;
    if (q + 1 >= e) { lex_error(ps, "unexpected end after backslash", q, 1, false); return NULL; }
    char c = q[1];
    if (c == 'u') {
        const char *h = q + 2;
        unsigned cp = 0;
        if (h < e && *h == '{') {
            const char *d = h + 1;
            int nd = 0;
            while (d < e && hexv(*d) >= 0 && nd < 6) { cp = cp * 16 + (unsigned)hexv(*d); d++; nd++; }
            if (!nd || d >= e || *d != '}') { lex_error(ps, "invalid unicode sequence", q, (size_t)(d - q), false); return NULL; }
            if (cp > 0x10ffff) { attu_error_set(ps->err, ATTU_SQLSTATE_SYNTAX, 0, "invalid Unicode code point"); return NULL; }
            if (put_code_point(ps, cp, hi)) return NULL;
            return d + 1;
        }
        int nd = 0;
        while (h < e && nd < 4 && hexv(*h) >= 0) { cp = cp * 16 + (unsigned)hexv(*h); h++; nd++; }
        if (nd < 4) { lex_error(ps, "invalid unicode sequence", q, (size_t)(h - q), false); return NULL; }
        if (put_code_point(ps, cp, hi)) return NULL;
        return h;
    }
    if (*hi >= 0) { put_code_point(ps, 'x', hi); return NULL; }   /* a high surrogate left alone */
    if (c == 'x') {
        if (q + 3 < e + 1 && q + 2 < e && hexv(q[2]) >= 0 && q + 3 < e && hexv(q[3]) >= 0) {
            unsigned cp = (unsigned)(hexv(q[2]) * 16 + hexv(q[3]));
            if (put_code_point(ps, cp, hi)) return NULL;
            return q + 4;
        }
        size_t n = 2;
        while (n < 4 && q + n < e && hexv(q[n]) >= 0) n++;
        lex_error(ps, "invalid hex character sequence", q, n, false);
        return NULL;
    }
    char d;
    switch (c) {
    case 'b': d = '\b'; break;
    case 'f': d = '\f'; break;
    case 'n': d = '\n'; break;
    case 'r': d = '\r'; break;
    case 't': d = '\t'; break;
    case 'v': d = '\v'; break;
    default: d = c; break;   /* \" \\ \/ and any other character: itself */
    }
    attu_jt_put(&ps->tmp, &d, 1);
    /* a multi-byte character after the backslash is copied whole */
    const char *r = q + 2;
    while (r < e && ((unsigned char)*r & 0xc0) == 0x80) attu_jt_put(&ps->tmp, r++, 1);
    return r;
}

/* the length of a number reading at q: kind K_INT / K_NUMERIC, or an error
 * kind (1 trailing junk, 2 invalid numeric literal) */
static size_t number_length(const char *q, const char *e, int *kind) {
    size_t best = 0;
    *kind = 0;
    const char *r = q;
    size_t int_len = 0;
    if (r < e && *r == '0') int_len = 1;
    else if (r < e && *r >= '1' && *r <= '9') { while (r + int_len < e && is_digit(r[int_len])) int_len++; }
    size_t dec_len = 0;
    if (int_len && q + int_len < e && q[int_len] == '.') {
        dec_len = int_len + 1;
        while (q + dec_len < e && is_digit(q[dec_len])) dec_len++;
    } else if (!int_len && q < e && *q == '.' && q + 1 < e && is_digit(q[1])) {
        dec_len = 1;
        while (q + dec_len < e && is_digit(q[dec_len])) dec_len++;
    }
    size_t base = dec_len ? dec_len : int_len;
    if (!base) return 0;
    /* valid readings, then their junk */
    size_t real_len = 0, fail_len = 0;
    if (q + base < e && (q[base] == 'e' || q[base] == 'E')) {
        size_t k = base + 1;
        if (q + k < e && (q[k] == '+' || q[k] == '-')) k++;
        size_t d = k;
        while (q + d < e && is_digit(q[d])) d++;
        if (d > k) real_len = d;
        else if (k > base + 1) fail_len = k;
    }
    /* candidates in rule order: real, decimal, integer, realfail, then the junk of each */
    struct { size_t len; int kind; } c[7] = {
        { real_len, K_NUMERIC }, { dec_len, K_NUMERIC }, { int_len, K_INT }, { fail_len, 2 },
        { int_len && q + int_len < e && is_other(q[int_len]) ? int_len + 1 : 0, 1 },
        { dec_len && q + dec_len < e && is_other(q[dec_len]) ? dec_len + 1 : 0, 1 },
        { real_len && q + real_len < e && is_other(q[real_len]) ? real_len + 1 : 0, 1 },
    };
    for (int i = 0; i < 7; i++)
        if (c[i].len > best) { best = c[i].len; *kind = c[i].kind; }
    return best;
}

/* Reads the next token into ps->tok. */
static int next(jp_parser *ps) {
    const char *e = ps->end;
    for (;;) {
        while (ps->p < e && is_blank(*ps->p)) ps->p++;
        if (ps->p + 1 < e && ps->p[0] == '/' && ps->p[1] == '*') {
            const char *c = ps->p + 2;
            while (c + 1 < e && !(c[0] == '*' && c[1] == '/')) c++;
            if (c + 1 >= e) return lex_error(ps, "unexpected end of comment", NULL, 0, true);
            ps->p = c + 2;
            continue;
        }
        break;
    }
    jp_tok *t = &ps->tok;
    memset(t, 0, sizeof *t);
    const char *q = ps->p;
    t->at = q;
    if (q >= e) { t->kind = K_END; return 0; }
    /* numbers (against a word of other characters) */
    int nk;
    size_t nl = number_length(q, e, &nk);
    size_t wl = 0;
    while (q + wl < e && is_other(q[wl])) wl++;
    if (nl && nl >= wl) {
        if (nk == 1) return lex_error(ps, "trailing junk after numeric literal", q, nl, false);
        if (nk == 2) return lex_error(ps, "invalid numeric literal", q, nl, false);
        t->kind = nk;
        t->s = q; t->slen = nl;
        t->err = q; t->errlen = nl;
        t->len = nl;
        ps->p = q + nl;
        return 0;
    }
    /* strings, variables and words */
    bool var = *q == '$' && q + 1 < e && (is_other(q[1]) || q[1] == '"' || q[1] == '\\');
    const char *b = var ? q + 1 : q;
    if (*b == '"' || is_other(*b) || *b == '\\') {
        bool quoted = *b == '"';
        ps->tmp.len = 0;
        attu_jt_put(&ps->tmp, "", 0);
        int hi = -1;
        const char *r = quoted ? b + 1 : b;
        for (;;) {
            if (r >= e) {
                if (quoted) return lex_error(ps, "unexpected end of quoted string", NULL, 0, true);
                break;
            }
            if (quoted && *r == '"') break;
            if (!quoted && !is_other(*r) && *r != '\\') break;
            if (*r == '\\') {
                if (!(r = lex_escape(ps, r, &hi))) return -1;
                continue;
            }
            if (hi >= 0) return put_code_point(ps, 'x', &hi);
            attu_jt_put(&ps->tmp, r, 1);
            r++;
        }
        if (hi >= 0) return put_code_point(ps, 'x', &hi);
        if (ps->tmp.oom) return attu_error_oom(ps->err);
        if (!(t->s = dup_text(ps, ps->tmp.p, ps->tmp.len))) return -1;
        t->slen = ps->tmp.len;
        if (quoted) {
            t->kind = var ? K_VAR : K_STRING;
            t->err = r; t->errlen = 1;   /* the closing quote */
            r++;
        } else if (var) {
            t->kind = K_VAR;
            t->err = q; t->errlen = (size_t)(r - q);
        } else {
            t->kind = K_WORD;
            /* named by the blanks that ended it, else "at end" */
            const char *w = r;
            while (w < e && is_blank(*w)) w++;
            t->err = r; t->errlen = (size_t)(w - r);
            t->err_at_end = w == r;
        }
        t->len = (size_t)(r - q);
        ps->p = r;
        return 0;
    }
    /* punctuation */
    static const char *const two[] = { "&&", "||", "==", "!=", "<>", "<=", ">=", "**" };
    size_t n = 1;
    for (size_t i = 0; i < sizeof two / sizeof *two; i++)
        if (q + 1 < e && q[0] == two[i][0] && q[1] == two[i][1]) n = 2;
    t->kind = K_PUNCT;
    t->s = q; t->slen = n;
    t->err = q; t->errlen = n;
    t->len = n;
    ps->p = q + n;
    return 0;
}

static bool punct(const jp_parser *ps, const char *s) {
    return ps->tok.kind == K_PUNCT && ps->tok.slen == strlen(s) && !memcmp(ps->tok.s, s, ps->tok.slen);
}
/* a keyword: case-insensitive, but for true, false and null (lower case only) */
static bool word(const jp_parser *ps, const char *kw) {
    if (ps->tok.kind != K_WORD || ps->tok.slen != strlen(kw)) return false;
    if (!strcmp(kw, "true") || !strcmp(kw, "false") || !strcmp(kw, "null")) return !memcmp(ps->tok.s, kw, ps->tok.slen);
    for (size_t i = 0; i < ps->tok.slen; i++) {
        char c = ps->tok.s[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != kw[i]) return false;
    }
    return true;
}
static int expect(jp_parser *ps, const char *s) {
    if (!punct(ps, s)) return syntax_error(ps);
    return next(ps);
}

/* ---- the tree ------------------------------------------------------------------------ */

static jp_item *item(jp_parser *ps, jp_kind k) {
    jp_item *it = attu_jt_alloc(ps->ar, sizeof *it);
    if (!it) { attu_error_oom(ps->err); return NULL; }
    memset(it, 0, sizeof *it);
    it->kind = k;
    return it;
}

/* numeric_out's text of a number token */
static int set_number(jp_parser *ps, jp_item *it, const char *s, size_t n) {
    jnum v;
    if (attu_jt_num_parse(s, n, &v, ps->err)) return -1;
    jbuf b = { 0 };
    attu_jt_num_print(&b, &v);
    attu_jt_num_done(&v);
    if (b.oom) { free(b.p); return attu_error_oom(ps->err); }
    it->s = dup_text(ps, b.p, b.len);
    it->slen = b.len;
    free(b.p);
    return it->s ? 0 : -1;
}

static jp_item *parse_level(jp_parser *ps, int level, bool *pred);
static jp_item *parse_unary(jp_parser *ps, bool *pred);
static jp_item *parse_nested_expr(jp_parser *ps, bool *pred);

static bool is_method_word(const jp_parser *ps, jp_kind *k) {
    static const struct { const char *w; jp_kind k; } m[] = {
        { "type", JP_TYPE }, { "size", JP_SIZE }, { "double", JP_DOUBLE }, { "ceiling", JP_CEILING },
        { "floor", JP_FLOOR }, { "abs", JP_ABS }, { "keyvalue", JP_KEYVALUE }, { "datetime", JP_DATETIME },
    };
    for (size_t i = 0; i < sizeof m / sizeof *m; i++)
        if (word(ps, m[i].w)) { *k = m[i].k; return true; }
    return false;
}

/* an unsigned level of .**{...}: an integer or last */
static int any_level(jp_parser *ps, uint32_t *out) {
    if (word(ps, "last")) { *out = JP_ANY_LAST; return next(ps); }
    if (ps->tok.kind != K_INT) return syntax_error(ps);
    unsigned long long v = 0;
    for (size_t i = 0; i < ps->tok.slen; i++) {
        v = v * 10 + (unsigned)(ps->tok.s[i] - '0');
        if (v > 0xfffffffeULL) v = 0xfffffffeULL;
    }
    *out = (uint32_t)v;
    return next(ps);
}

/* One accessor after '.', '[' or '?' (the current token), or NULL with no
 * error where the current token starts none (*none set). */
static jp_item *parse_accessor(jp_parser *ps, bool *none) {
    *none = false;
    if (punct(ps, ".")) {
        if (next(ps)) return NULL;
        if (punct(ps, "*")) { if (next(ps)) return NULL; return item(ps, JP_ANY_KEY); }
        if (punct(ps, "**")) {
            jp_item *it = item(ps, JP_ANY);
            if (!it || next(ps)) return NULL;
            it->first = 0; it->last = JP_ANY_LAST;
            if (punct(ps, "{")) {
                if (next(ps) || any_level(ps, &it->first)) return NULL;
                it->last = it->first;
                if (word(ps, "to")) { if (next(ps) || any_level(ps, &it->last)) return NULL; }
                if (expect(ps, "}")) return NULL;
            }
            return it;
        }
        if (ps->tok.kind == K_STRING || ps->tok.kind == K_WORD) {
            jp_kind mk;
            jp_tok w = ps->tok;
            bool method = ps->tok.kind == K_WORD && is_method_word(ps, &mk);
            if (next(ps)) return NULL;
            if (method && punct(ps, "(")) {
                jp_item *it = item(ps, mk);
                if (!it || next(ps)) return NULL;
                if (mk == JP_DATETIME && ps->tok.kind == K_STRING) {
                    it->s = ps->tok.s; it->slen = ps->tok.slen;
                    if (next(ps)) return NULL;
                }
                if (expect(ps, ")")) return NULL;
                return it;
            }
            jp_item *it = item(ps, JP_KEY);
            if (!it) return NULL;
            it->s = w.s; it->slen = w.slen;
            return it;
        }
        syntax_error(ps);
        return NULL;
    }
    if (punct(ps, "[")) {
        if (next(ps)) return NULL;
        if (punct(ps, "*")) {
            if (next(ps) || expect(ps, "]")) return NULL;
            return item(ps, JP_ANY_ARRAY);
        }
        jp_item *it = item(ps, JP_INDEX);
        if (!it) return NULL;
        int cap = 0;
        for (;;) {
            bool pred;
            jp_item *f = parse_nested_expr(ps, &pred), *t = NULL;
            if (!f) return NULL;
            if (pred) { syntax_error(ps); return NULL; }
            if (word(ps, "to")) {
                if (next(ps) || !(t = parse_nested_expr(ps, &pred))) return NULL;
                if (pred) { syntax_error(ps); return NULL; }
            }
            if (it->nsubs == cap) {
                int nc = cap ? cap * 2 : 4;
                jp_item **nf = attu_jt_alloc(ps->ar, sizeof(jp_item *) * (size_t)nc * 2);
                if (!nf) { attu_error_oom(ps->err); return NULL; }
                for (int i = 0; i < it->nsubs; i++) { nf[i] = it->from[i]; nf[nc + i] = it->to[i]; }
                it->from = nf; it->to = nf + nc; cap = nc;
            }
            it->from[it->nsubs] = f;
            it->to[it->nsubs] = t;
            it->nsubs++;
            if (punct(ps, ",")) { if (next(ps)) return NULL; continue; }
            break;
        }
        if (expect(ps, "]")) return NULL;
        return it;
    }
    if (punct(ps, "?")) {
        if (next(ps) || expect(ps, "(")) return NULL;
        bool pred;
        jp_item *p = parse_level(ps, 0, &pred);
        if (!p) return NULL;
        if (!pred) { syntax_error(ps); return NULL; }
        if (expect(ps, ")")) return NULL;
        jp_item *it = item(ps, JP_FILTER);
        if (it) it->left = p;
        return it;
    }
    *none = true;
    return NULL;
}

/* accessors after a primary */
static jp_item *parse_postfix(jp_parser *ps, jp_item *head) {
    jp_item *tail = head;
    while (tail->next) tail = tail->next;
    for (;;) {
        bool none;
        jp_item *a = parse_accessor(ps, &none);
        if (none) return head;
        if (!a) return NULL;
        tail->next = a;
        tail = a;
    }
}

/* '(' predicate ')' or exists '(' expr ')' */
static jp_item *parse_delimited(jp_parser *ps) {
    bool pred;
    if (word(ps, "exists")) {
        if (next(ps) || expect(ps, "(")) return NULL;
        jp_item *x = parse_nested_expr(ps, &pred);
        if (!x) return NULL;
        if (pred) { syntax_error(ps); return NULL; }
        if (expect(ps, ")")) return NULL;
        jp_item *it = item(ps, JP_EXISTS);
        if (it) it->left = x;
        return it;
    }
    if (!punct(ps, "(")) { syntax_error(ps); return NULL; }
    if (next(ps)) return NULL;
    jp_item *x = parse_level(ps, 0, &pred);
    if (!x) return NULL;
    if (!pred) { syntax_error(ps); return NULL; }
    if (expect(ps, ")")) return NULL;
    return x;
}

static jp_item *parse_primary(jp_parser *ps, bool *pred) {
    *pred = false;
    jp_tok t = ps->tok;
    jp_item *it = NULL;
    if (punct(ps, "(")) {
        if (next(ps)) return NULL;
        bool inner_pred;
        jp_item *x = parse_level(ps, 0, &inner_pred);
        if (!x || expect(ps, ")")) return NULL;
        if (inner_pred) {
            if (word(ps, "is")) {
                if (next(ps)) return NULL;
                if (!word(ps, "unknown")) { syntax_error(ps); return NULL; }
                if (next(ps)) return NULL;
                jp_item *u = item(ps, JP_IS_UNKNOWN);
                if (u) u->left = x;
                *pred = true;
                return u;
            }
            if (!punct(ps, ".") && !punct(ps, "[") && !punct(ps, "?")) { *pred = true; return x; }
        }
        return parse_postfix(ps, x);
    }
    if (word(ps, "exists")) {
        *pred = true;
        return parse_delimited(ps);
    }
    if (punct(ps, "!")) {
        if (next(ps)) return NULL;
        jp_item *x = parse_delimited(ps);
        if (!x) return NULL;
        jp_item *n = item(ps, JP_NOT);
        if (n) n->left = x;
        *pred = true;
        return n;
    }
    switch (t.kind) {
    case K_STRING:
        if (!(it = item(ps, JP_STRING))) return NULL;
        it->s = t.s; it->slen = t.slen;
        break;
    case K_INT: case K_NUMERIC:
        if (!(it = item(ps, JP_NUMERIC)) || set_number(ps, it, t.s, t.slen)) return NULL;
        break;
    case K_VAR:
        if (!(it = item(ps, JP_VAR))) return NULL;
        it->s = t.s; it->slen = t.slen;
        break;
    case K_PUNCT:
        if (punct(ps, "$")) it = item(ps, JP_ROOT);
        else if (punct(ps, "@")) it = item(ps, JP_CURRENT);
        else { syntax_error(ps); return NULL; }
        if (!it) return NULL;
        break;
    case K_WORD:
        if (word(ps, "true") || word(ps, "false")) {
            if (!(it = item(ps, JP_BOOL))) return NULL;
            it->b = word(ps, "true");
        } else if (word(ps, "null")) {
            if (!(it = item(ps, JP_NULL))) return NULL;
        } else if (word(ps, "last")) {
            if (!(it = item(ps, JP_LAST))) return NULL;
        } else { syntax_error(ps); return NULL; }
        break;
    default:
        syntax_error(ps);
        return NULL;
    }
    if (next(ps)) return NULL;
    return parse_postfix(ps, it);
}

/* unary + and -: a minus of a number literal is the negated literal, a
 * plus of one the literal (as PostgreSQL folds them) */
static int too_deep(jp_parser *ps) { return attu_error_set(ps->err, "54001", 0, "stack depth limit exceeded"); }

static jp_item *parse_unary(jp_parser *ps, bool *pred) {
    if (punct(ps, "-") || punct(ps, "+")) {
        if (ps->depth + 1 > JP_MAX_NESTING) { too_deep(ps); return NULL; }
        bool minus = punct(ps, "-");
        if (next(ps)) return NULL;
        bool p;
        ps->depth++;
        jp_item *x = parse_unary(ps, &p);
        ps->depth--;
        if (!x) return NULL;
        if (p) { syntax_error(ps); return NULL; }
        *pred = false;
        if (x->kind == JP_NUMERIC && !x->next) {
            if (!minus) return x;
            bool zero = true;
            for (size_t i = 0; i < x->slen; i++) if (x->s[i] >= '1' && x->s[i] <= '9') zero = false;
            if (zero) return x;
            if (x->s[0] == '-') { x->s++; x->slen--; return x; }
            char *d = attu_jt_alloc(ps->ar, x->slen + 2);
            if (!d) { attu_error_oom(ps->err); return NULL; }
            d[0] = '-';
            memcpy(d + 1, x->s, x->slen + 1);
            x->s = d; x->slen++;
            return x;
        }
        jp_item *u = item(ps, minus ? JP_MINUS : JP_PLUS);
        if (u) u->left = x;
        return u;
    }
    return parse_primary(ps, pred);
}

/* the binary operator at the current token of a level, or -1 */
static int binary_op(jp_parser *ps, int level) {
    switch (level) {
    case 0: return punct(ps, "||") ? JP_OR : -1;
    case 1: return punct(ps, "&&") ? JP_AND : -1;
    case 2:
        if (punct(ps, "==")) return JP_EQ;
        if (punct(ps, "!=") || punct(ps, "<>")) return JP_NE;
        if (punct(ps, "<")) return JP_LT;
        if (punct(ps, "<=")) return JP_LE;
        if (punct(ps, ">")) return JP_GT;
        if (punct(ps, ">=")) return JP_GE;
        if (word(ps, "starts")) return JP_STARTS_WITH;
        if (word(ps, "like_regex")) return JP_LIKE_REGEX;
        return -1;
    case 3: return punct(ps, "+") ? JP_ADD : punct(ps, "-") ? JP_SUB : -1;
    case 4: return punct(ps, "*") ? JP_MUL : punct(ps, "/") ? JP_DIV : punct(ps, "%") ? JP_MOD : -1;
    default: return -1;
    }
}

/* like_regex's pattern and flags (the current token after like_regex) */
static int parse_like_regex(jp_parser *ps, jp_item *it) {
    if (ps->tok.kind != K_STRING) return syntax_error(ps);
    it->s = ps->tok.s; it->slen = ps->tok.slen;
    if (next(ps)) return -1;
    if (word(ps, "flag")) {
        if (next(ps)) return -1;
        if (ps->tok.kind != K_STRING) return syntax_error(ps);
        for (size_t i = 0; i < ps->tok.slen; i++) {
            switch (ps->tok.s[i]) {
            case 'i': it->flags |= JP_RE_I; break;
            case 's': it->flags |= JP_RE_S; break;
            case 'm': it->flags |= JP_RE_M; break;
            case 'x': it->flags |= JP_RE_X; break;
            case 'q': it->flags |= JP_RE_Q; break;
            default: {
                /* the character whole (UTF-8) */
                size_t n = 1;
                while (i + n < ps->tok.slen && ((unsigned char)ps->tok.s[i + n] & 0xc0) == 0x80) n++;
                attu_error_set(ps->err, ATTU_SQLSTATE_SYNTAX, 0, "invalid input syntax for type jsonpath");
                attu_error_set_detail(ps->err, "Unrecognized flag character \"%.*s\" in LIKE_REGEX predicate.", (int)n,
                                      ps->tok.s + i);
                return -1;
            }
            }
        }
        if (next(ps)) return -1;
    }
    /* the pattern is compiled now, as PostgreSQL does; the compiler's
     * state lives on the heap: this function is inlined into the parser's
     * recursion, whose frames must stay small (nesting_limits) */
    int mode;
    if (attu_jsonpath_regex_mode(it->flags, &mode, ps->err)) return -1;
    attu_similar *re = calloc(1, sizeof *re);
    if (!re) { attu_error_oom(ps->err); return -1; }
    int rc = attu_regex_prepare_opts(re, it->s, it->slen, mode, ps->err);
    attu_similar_free(re);
    free(re);
    return rc;
}

/* Precedence levels: 0 ||, 1 &&, 2 comparisons / starts with / like_regex
 * (not associative), 3 + -, 4 * / %, then unary. *pred: the result is a
 * predicate (a boolean), which || and && take and the others do not. */
static jp_item *parse_binary(jp_parser *ps, int level, bool *pred);

static jp_item *parse_level(jp_parser *ps, int level, bool *pred) {
    if (level > 4) return parse_unary(ps, pred);
    if (level > 0) return parse_binary(ps, level, pred);
    /* a whole (nested) expression: the path, a parenthesis, a filter */
    if (ps->depth + 1 > JP_MAX_NESTING) { too_deep(ps); return NULL; }
    ps->depth++;
    jp_item *x = parse_binary(ps, 0, pred);
    ps->depth--;
    return x;
}

/* the operators of one level, left-associative */
static jp_item *parse_binary(jp_parser *ps, int level, bool *pred) {
    jp_item *l = parse_level(ps, level + 1, pred);
    if (!l) return NULL;
    for (;;) {
        int op = binary_op(ps, level);
        if (op < 0) return l;
        bool want_pred = level <= 1;
        if (*pred != want_pred) { syntax_error(ps); return NULL; }
        jp_item *it = item(ps, (jp_kind)op);
        if (!it || next(ps)) return NULL;
        it->left = l;
        if (op == JP_STARTS_WITH) {
            if (!word(ps, "with")) { syntax_error(ps); return NULL; }
            if (next(ps)) return NULL;
            if (ps->tok.kind == K_STRING) {
                if (!(it->right = item(ps, JP_STRING))) return NULL;
            } else if (ps->tok.kind == K_VAR) {
                if (!(it->right = item(ps, JP_VAR))) return NULL;
            } else { syntax_error(ps); return NULL; }
            it->right->s = ps->tok.s; it->right->slen = ps->tok.slen;
            if (next(ps)) return NULL;
        } else if (op == JP_LIKE_REGEX) {
            if (parse_like_regex(ps, it)) return NULL;
        } else {
            bool rp;
            jp_item *r = parse_level(ps, level + 1, &rp);
            if (!r) return NULL;
            if (rp != want_pred) { syntax_error(ps); return NULL; }
            it->right = r;
        }
        *pred = level <= 2;
        l = it;
        if (level == 2) {
            /* not associative: a second comparison is an error */
            if (binary_op(ps, 2) >= 0) { syntax_error(ps); return NULL; }
            return l;
        }
    }
}

/* The depth of the tree (its chains' items, operands, subscripts), up to
 * JP_MAX_DEPTH + 1. */
static int tree_depth(const jp_item *it, int at) {
    int best = at;
    for (; it && best <= JP_MAX_DEPTH; it = it->next) {
        at++;
        if (at > best) best = at;
        const jp_item *kids[2] = { it->left, it->right };
        for (int k = 0; k < 2; k++)
            if (kids[k]) { int d = tree_depth(kids[k], at); if (d > best) best = d; }
        for (int i = 0; i < it->nsubs; i++) {
            int d = tree_depth(it->from[i], at);
            if (d > best) best = d;
            if (it->to[i] && (d = tree_depth(it->to[i], at)) > best) best = d;
        }
    }
    return best;
}

/* an expression nested in a subscript or exists (...): arithmetic only */
static jp_item *parse_nested_expr(jp_parser *ps, bool *pred) {
    if (ps->depth + 1 > JP_MAX_NESTING) { too_deep(ps); return NULL; }
    ps->depth++;
    jp_item *x = parse_level(ps, 3, pred);
    ps->depth--;
    return x;
}

/* PostgreSQL's checks after parsing: @ only inside a filter, last only
 * inside an array subscript. */
static int check_item(const jp_item *it, bool in_filter, bool in_subscript, attu_error *err) {
    for (; it; it = it->next) {
        if (it->kind == JP_CURRENT && !in_filter)
            return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "@ is not allowed in root expressions");
        if (it->kind == JP_LAST && !in_subscript)
            return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "LAST is allowed only in array subscripts");
        bool f = in_filter || it->kind == JP_FILTER;
        if (it->left && check_item(it->left, f, in_subscript, err)) return -1;
        if (it->right && check_item(it->right, f, in_subscript, err)) return -1;
        for (int i = 0; i < it->nsubs; i++) {
            if (check_item(it->from[i], in_filter, true, err)) return -1;
            if (it->to[i] && check_item(it->to[i], in_filter, true, err)) return -1;
        }
    }
    return 0;
}

int attu_jsonpath_parse(jarena *ar, const char *s, size_t len, jp_path *out, attu_error *err) {
    jp_parser ps = { 0 };
    ps.start = ps.p = s; ps.end = s + len; ps.ar = ar; ps.err = err;
    memset(out, 0, sizeof *out);
    int rc = -1;
    if (next(&ps)) goto done;
    if (ps.tok.kind == K_END) {
        rc = attu_error_set(err, ATTU_SQLSTATE_INVALID_TEXT_REP, 0, "invalid input syntax for type jsonpath: \"%.*s\"",
                            (int)len, s);
        goto done;
    }
    if (word(&ps, "strict") || word(&ps, "lax")) {
        out->strict = word(&ps, "strict");
        if (next(&ps)) goto done;
    }
    bool pred;
    if (!(out->root = parse_level(&ps, 0, &pred))) goto done;
    if (ps.tok.kind != K_END) { syntax_error(&ps); goto done; }
    if (tree_depth(out->root, 0) > JP_MAX_DEPTH) { rc = attu_error_set(err, "54001", 0, "stack depth limit exceeded"); goto done; }
    rc = check_item(out->root, false, false, err);
done:
    free(ps.tmp.p);
    return rc;
}

int attu_jsonpath_canonical(const char *s, size_t len, char **out, size_t *outlen, attu_error *err) {
    jarena ar = { 0 };
    jp_path p;
    int rc = attu_jsonpath_parse(&ar, s, len, &p, err);
    jbuf b = { 0 };
    if (!rc) {
        attu_jsonpath_print(&b, &p);
        attu_jt_put(&b, "", 0);
        if (b.oom) rc = attu_error_oom(err);
    }
    attu_jt_free(&ar);
    if (rc) { free(b.p); return -1; }
    *out = b.p;
    *outlen = b.len;
    return 0;
}
