/*
 * json.c - json and jsonb (engine/json.h): the parser with PostgreSQL's
 * error details, the canonical jsonb text, the order-preserving key, and
 * ATTU_OP_JSON's functions and operators, all on the host.
 *
 * A value is parsed into a tree of jnode (an arena per call); json results
 * that are parts of a json input are the input's own bytes (PostgreSQL's
 * json operators return the text as written), jsonb results are printed
 * canonically from the tree.
 */
#include "engine/json.h"
#include "engine/json_tree.h"
#include "engine/jsonpath.h"

#include "engine/array.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- arena ------------------------------------------------------------------ */


static void *ja_alloc(jarena *a, size_t n) {
    n = (n + 15) & ~(size_t)15;
    if (!a->head || a->head->used + n > a->head->cap) {
        size_t cap = n > 65536 ? n : 65536;
        jchunk *c = malloc(sizeof *c + cap);
        if (!c) return NULL;
        c->next = a->head; c->used = 0; c->cap = cap;
        a->head = c;
    }
    void *p = a->head->data + a->head->used;
    a->head->used += n;
    return p;
}
static void ja_free(jarena *a) {
    while (a->head) { jchunk *n = a->head->next; free(a->head); a->head = n; }
}

/* ---- growable text ---------------------------------------------------------- */

static void jb_put(jbuf *b, const void *s, size_t n) {
    if (b->oom) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->len + n + 1) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) { b->oom = true; return; }
        b->p = q; b->cap = cap;
    }
    if (n) memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}
static void jb_str(jbuf *b, const char *s) { jb_put(b, s, strlen(s)); }
static void jb_ch(jbuf *b, char c) { jb_put(b, &c, 1); }

/* ---- the tree ----------------------------------------------------------------- */


/* ---- the lexer and parser, as PostgreSQL's json_lex / pg_parse_json ------------- */

enum { T_END, T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK, T_COMMA, T_COLON, T_STR, T_NUM, T_TRUE, T_FALSE, T_NULL, T_BAD };

typedef struct jparser {
    const char *start;           /* the input (for the context) */
    const char *s, *end;
    const char *tok, *tok_end;   /* the current token */
    int type;
    bool have;                   /* the current token is lexed */
    bool jsonb;                  /* decode strings, refuse \u0000 */
    jarena *ar;
    attu_error *err;
    int depth;
    int line;                    /* for the context (not reported) */
} jparser;

static bool alnum_char(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}
static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static size_t utf8_len(unsigned char c) {
    return c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
}

/* PostgreSQL's CONTEXT of a json syntax error (report_json_context): the
 * error's line up to the end of the offending token, its last 50 bytes at
 * most (whole characters; "..." before a cut unless it would hide three
 * bytes or fewer), and "..." after where the line goes on. Tokens hold no
 * raw line end (a string's is an error at it), so the lines before the
 * token's end are the input's. */
static void json_context(jparser *p) {
    const char *end = p->tok_end && p->tok_end >= p->start && p->tok_end <= p->end ? p->tok_end : p->end;
    const char *line_start = p->start;
    int line = 1;
    for (const char *q = p->start; q < end; q++)
        if (*q == '\n') { line++; line_start = q + 1; }
    const char *from = line_start;
    while (end - from >= 50) from += (unsigned char)*from >= 0x80 ? utf8_len((unsigned char)*from) : 1;
    if (from - line_start <= 3) from = line_start;
    const char *suffix = p->type != T_END && end < p->end && *end != '\n' && *end != '\r' ? "..." : "";
    char ctx[256];
    snprintf(ctx, sizeof ctx, "JSON data, line %d: %s%.*s%s", line, from > line_start ? "..." : "", (int)(end - from), from,
             suffix);
    attu_error_set_context(p->err, ctx);
}

/* the 22P02 of json input with PostgreSQL's DETAIL and CONTEXT */
static int syntax_error(jparser *p, const char *fmt, ...) {
    attu_error_set(p->err, ATTU_SQLSTATE_INVALID_TEXT_REP, 0, "invalid input syntax for type json");
    json_context(p);
    char d[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d, sizeof d, fmt, ap);
    va_end(ap);
    attu_error_set_detail(p->err, "%s", d);
    return -1;
}
static int token_error(jparser *p, const char *fmt) {
    char t[200];
    size_t n = (size_t)(p->tok_end - p->tok);
    if (n > sizeof t - 1) n = sizeof t - 1;
    memcpy(t, p->tok, n);
    t[n] = 0;
    return syntax_error(p, fmt, t);
}


/* Lexes a string at p->tok (its quote); decodes it into *out when wanted. */
static int lex_string(jparser *p, const char **out, size_t *outlen) {
    const char *s = p->tok + 1;
    bool escapes = false;
    int hi_sur = -1;
    for (;; s++) {
        if (s >= p->end) { p->tok_end = s; return token_error(p, "Token \"%s\" is invalid."); }
        unsigned char ch = (unsigned char)*s;
        if (ch == '"') break;
        if (ch < 32) {
            p->tok_end = s;
            return syntax_error(p, "Character with value 0x%02x must be escaped.", ch);
        }
        if (ch != '\\') {
            if (hi_sur != -1 && p->jsonb) return syntax_error(p, "Unicode low surrogate must follow a high surrogate.");
            continue;
        }
        escapes = true;
        s++;
        if (s >= p->end) { p->tok_end = s; return token_error(p, "Token \"%s\" is invalid."); }
        if (*s == 'u') {
            int cp = 0;
            for (int i = 0; i < 4; i++) {
                s++;
                if (s >= p->end) { p->tok_end = s; return token_error(p, "Token \"%s\" is invalid."); }
                int h = hexval(*s);
                if (h < 0) { p->tok_end = s + utf8_len((unsigned char)*s); return syntax_error(p, "\"\\u\" must be followed by four hexadecimal digits."); }
                cp = cp * 16 + h;
            }
            if (!p->jsonb) continue;   /* json keeps its escapes unread (PostgreSQL) */
            if (cp >= 0xd800 && cp <= 0xdbff) {
                if (hi_sur != -1) return syntax_error(p, "Unicode high surrogate must not follow a high surrogate.");
                hi_sur = cp;
                continue;
            } else if (cp >= 0xdc00 && cp <= 0xdfff) {
                if (hi_sur == -1) return syntax_error(p, "Unicode low surrogate must follow a high surrogate.");
                hi_sur = -1;
                continue;
            }
            if (hi_sur != -1) return syntax_error(p, "Unicode low surrogate must follow a high surrogate.");
            if (cp == 0 && p->jsonb) {
                attu_error_set(p->err, "22P05", 0, "unsupported Unicode escape sequence");
                p->tok_end = s + 1;
                json_context(p);
                attu_error_set_detail(p->err, "\\u0000 cannot be converted to text.");
                return -1;
            }
        } else {
            if (hi_sur != -1 && p->jsonb) return syntax_error(p, "Unicode low surrogate must follow a high surrogate.");
            if (!strchr("\"\\/bfnrt", *s)) {
                p->tok = s;
                p->tok_end = s + utf8_len((unsigned char)*s);
                if (p->tok_end > p->end) p->tok_end = p->end;
                return token_error(p, "Escape sequence \"\\%s\" is invalid.");
            }
        }
    }
    if (hi_sur != -1) return syntax_error(p, "Unicode low surrogate must follow a high surrogate.");
    p->tok_end = s + 1;
    if (!out) return 0;
    const char *b = p->tok + 1;
    size_t n = (size_t)(s - b);
    if (!escapes) { *out = b; *outlen = n; return 0; }
    char *d = ja_alloc(p->ar, n + 1);
    if (!d) return attu_error_oom(p->err);
    size_t k = 0;
    for (const char *q = b; q < s; q++) {
        if (*q != '\\') { d[k++] = *q; continue; }
        q++;
        switch (*q) {
        case 'b': d[k++] = '\b'; break;
        case 'f': d[k++] = '\f'; break;
        case 'n': d[k++] = '\n'; break;
        case 'r': d[k++] = '\r'; break;
        case 't': d[k++] = '\t'; break;
        case 'u': {
            unsigned cp = 0;
            for (int i = 1; i <= 4; i++) cp = cp * 16 + (unsigned)hexval(q[i]);
            q += 4;
            if (cp >= 0xd800 && cp <= 0xdbff && q[1] == '\\' && q[2] == 'u') {
                unsigned lo = 0;
                for (int i = 3; i <= 6; i++) lo = lo * 16 + (unsigned)hexval(q[i]);
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                q += 6;
            }
            if (cp < 0x80) d[k++] = (char)cp;
            else if (cp < 0x800) { d[k++] = (char)(0xc0 | (cp >> 6)); d[k++] = (char)(0x80 | (cp & 0x3f)); }
            else if (cp < 0x10000) {
                d[k++] = (char)(0xe0 | (cp >> 12)); d[k++] = (char)(0x80 | ((cp >> 6) & 0x3f));
                d[k++] = (char)(0x80 | (cp & 0x3f));
            } else {
                d[k++] = (char)(0xf0 | (cp >> 18)); d[k++] = (char)(0x80 | ((cp >> 12) & 0x3f));
                d[k++] = (char)(0x80 | ((cp >> 6) & 0x3f)); d[k++] = (char)(0x80 | (cp & 0x3f));
            }
            break;
        }
        default: d[k++] = *q; break;   /* " \ / */
        }
    }
    d[k] = 0;
    *out = d; *outlen = k;
    return 0;
}

/* Lexes the next token into p->tok .. p->tok_end / p->type. */
static int lex(jparser *p) {
    if (p->have) return 0;
    const char *s = p->s;
    while (s < p->end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')) { if (*s == '\n') p->line++; s++; }
    p->tok = s;
    p->have = true;
    if (s >= p->end) { p->type = T_END; p->tok_end = s; return 0; }
    switch (*s) {
    case '{': p->type = T_LBRACE; p->tok_end = s + 1; return 0;
    case '}': p->type = T_RBRACE; p->tok_end = s + 1; return 0;
    case '[': p->type = T_LBRACK; p->tok_end = s + 1; return 0;
    case ']': p->type = T_RBRACK; p->tok_end = s + 1; return 0;
    case ',': p->type = T_COMMA; p->tok_end = s + 1; return 0;
    case ':': p->type = T_COLON; p->tok_end = s + 1; return 0;
    case '"': p->type = T_STR; return lex_string(p, NULL, NULL);
    default: break;
    }
    if (*s == '-' || (*s >= '0' && *s <= '9')) {
        const char *q = s;
        bool bad = false;
        if (*q == '-') q++;
        if (q < p->end && *q == '0') q++;
        else if (q < p->end && *q >= '1' && *q <= '9') { while (q < p->end && *q >= '0' && *q <= '9') q++; }
        else bad = true;
        if (q < p->end && *q == '.') {
            q++;
            if (q >= p->end || *q < '0' || *q > '9') bad = true;
            else while (q < p->end && *q >= '0' && *q <= '9') q++;
        }
        if (q < p->end && (*q == 'e' || *q == 'E')) {
            q++;
            if (q < p->end && (*q == '+' || *q == '-')) q++;
            if (q >= p->end || *q < '0' || *q > '9') bad = true;
            else while (q < p->end && *q >= '0' && *q <= '9') q++;
        }
        while (q < p->end && alnum_char((unsigned char)*q)) { q++; bad = true; }
        p->tok_end = q;
        if (bad) return token_error(p, "Token \"%s\" is invalid.");
        p->type = T_NUM;
        return 0;
    }
    const char *q = s;
    while (q < p->end && alnum_char((unsigned char)*q)) q++;
    if (q == s) { p->tok_end = s + utf8_len((unsigned char)*s); if (p->tok_end > p->end) p->tok_end = p->end; return token_error(p, "Token \"%s\" is invalid."); }
    p->tok_end = q;
    size_t n = (size_t)(q - s);
    if (n == 4 && !memcmp(s, "true", 4)) { p->type = T_TRUE; return 0; }
    if (n == 4 && !memcmp(s, "null", 4)) { p->type = T_NULL; return 0; }
    if (n == 5 && !memcmp(s, "false", 5)) { p->type = T_FALSE; return 0; }
    return token_error(p, "Token \"%s\" is invalid.");
}
static void advance(jparser *p) { p->s = p->tok_end; p->have = false; }

static int expected(jparser *p, const char *fmt) {
    if (p->type == T_END) return syntax_error(p, "The input string ended unexpectedly.");
    return token_error(p, fmt);
}

static jnode *new_node(jparser *p, int kind) {
    jnode *j = ja_alloc(p->ar, sizeof *j);
    if (!j) { attu_error_oom(p->err); return NULL; }
    memset(j, 0, sizeof *j);
    j->kind = (uint8_t)kind;
    return j;
}

static jnode *parse_value(jparser *p);

/* a growable list of nodes in the arena */
typedef struct jlist { jnode **v; size_t n, cap; } jlist;
static int jl_push(jarena *ar, jlist *l, jnode *x) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        jnode **v = ja_alloc(ar, cap * sizeof *v);
        if (!v) return -1;
        if (l->n) memcpy(v, l->v, l->n * sizeof *v);
        l->v = v; l->cap = cap;
    }
    l->v[l->n++] = x;
    return 0;
}

static jnode *parse_value(jparser *p) {
    if (lex(p)) return NULL;
    const char *start = p->tok;
    jnode *j = NULL;
    switch (p->type) {
    case T_STR:
        if (!(j = new_node(p, J_STR))) return NULL;
        if (lex_string(p, &j->s, &j->slen)) return NULL;
        advance(p);
        break;
    case T_NUM:
        if (!(j = new_node(p, J_NUM))) return NULL;
        j->s = p->tok; j->slen = (size_t)(p->tok_end - p->tok);
        advance(p);
        break;
    case T_TRUE: case T_FALSE: case T_NULL:
        if (!(j = new_node(p, p->type == T_TRUE ? J_TRUE : p->type == T_FALSE ? J_FALSE : J_NULL))) return NULL;
        advance(p);
        break;
    case T_LBRACK: {
        if (++p->depth > 6000) { attu_error_set(p->err, "54001", 0, "stack depth limit exceeded"); return NULL; }
        advance(p);
        if (!(j = new_node(p, J_ARR))) return NULL;
        jlist l = { 0 };
        if (lex(p)) return NULL;
        if (p->type != T_RBRACK) {
            for (;;) {
                jnode *e = parse_value(p);
                if (!e) return NULL;
                if (jl_push(p->ar, &l, e)) { attu_error_oom(p->err); return NULL; }
                if (lex(p)) return NULL;
                if (p->type == T_COMMA) { advance(p); continue; }
                break;
            }
        }
        if (p->type != T_RBRACK) { expected(p, "Expected \",\" or \"]\", but found \"%s\"."); return NULL; }
        advance(p);
        j->n = l.n; j->kids = l.v;
        p->depth--;
        break;
    }
    case T_LBRACE: {
        if (++p->depth > 6000) { attu_error_set(p->err, "54001", 0, "stack depth limit exceeded"); return NULL; }
        advance(p);
        if (!(j = new_node(p, J_OBJ))) return NULL;
        jlist l = { 0 };
        if (lex(p)) return NULL;
        if (p->type == T_STR) {
            for (;;) {
                if (lex(p)) return NULL;
                if (p->type != T_STR) { expected(p, "Expected string, but found \"%s\"."); return NULL; }
                jnode *k = new_node(p, J_STR);
                if (!k) return NULL;
                k->src = p->tok;
                if (lex_string(p, &k->s, &k->slen)) return NULL;
                k->srclen = (size_t)(p->tok_end - p->tok);
                advance(p);
                if (lex(p)) return NULL;
                if (p->type != T_COLON) { expected(p, "Expected \":\", but found \"%s\"."); return NULL; }
                advance(p);
                jnode *v = parse_value(p);
                if (!v) return NULL;
                if (jl_push(p->ar, &l, k) || jl_push(p->ar, &l, v)) { attu_error_oom(p->err); return NULL; }
                if (lex(p)) return NULL;
                if (p->type == T_COMMA) { advance(p); continue; }
                break;
            }
        } else if (p->type != T_RBRACE) {
            expected(p, "Expected string or \"}\", but found \"%s\".");
            return NULL;
        }
        if (p->type != T_RBRACE) { expected(p, "Expected \",\" or \"}\", but found \"%s\"."); return NULL; }
        advance(p);
        j->n = l.n / 2; j->kids = l.v;
        p->depth--;
        break;
    }
    default:
        expected(p, "Expected JSON value, but found \"%s\".");
        return NULL;
    }
    j->src = start;
    j->srclen = (size_t)(p->s - start);
    return j;
}

static jnode *parse(jarena *ar, const char *s, size_t len, bool jsonb, attu_error *err) {
    jparser p = { 0 };
    p.start = p.s = s; p.end = s + len; p.jsonb = jsonb; p.ar = ar; p.err = err; p.line = 1;
    jnode *j = parse_value(&p);
    if (!j) return NULL;
    if (lex(&p)) return NULL;
    if (p.type != T_END) { token_error(&p, "Expected end of input, but found \"%s\"."); return NULL; }
    return j;
}

/* ---- numbers ---------------------------------------------------------------------- */

/* A JSON number's value: its sign, its significant digits (no leading or
 * trailing zeros; none for zero), the decimal exponent of the first digit
 * (value = 0.d1d2... * 10^exp), and numeric_in's display scale. */

static int num_parse(const char *s, size_t len, jnum *o, attu_error *err) {
    memset(o, 0, sizeof *o);
    const char *e = s + len, *q = s;
    if (q < e && *q == '-') { o->neg = true; q++; }
    const char *ip = q;
    while (q < e && *q >= '0' && *q <= '9') q++;
    size_t ni = (size_t)(q - ip);
    const char *fp = q;
    size_t nf = 0;
    if (q < e && *q == '.') { fp = ++q; while (q < e && *q >= '0' && *q <= '9') q++; nf = (size_t)(q - fp); }
    long ex = 0;
    if (q < e && (*q == 'e' || *q == 'E')) {
        q++;
        bool en = false;
        if (q < e && (*q == '+' || *q == '-')) en = *q++ == '-';
        while (q < e && *q >= '0' && *q <= '9') { if (ex < 10000000) ex = ex * 10 + (*q - '0'); q++; }
        if (en) ex = -ex;
    }
    o->dscale = (long)nf - ex;
    if (o->dscale < 0) o->dscale = 0;
    /* numeric's limits: 131072 digits before the point, 16383 after */
    if (o->dscale > 16383 || (long)ni + ex > 131072)
        return attu_error_set(err, "22003", 0, "value overflows numeric format");
    size_t nd = ni + nf;
    char *d = nd < sizeof o->buf ? o->buf : (o->heap = malloc(nd + 1));
    if (!d) return attu_error_oom(err);
    memcpy(d, ip, ni);
    memcpy(d + ni, fp, nf);
    size_t lead = 0;
    while (lead < nd && d[lead] == '0') lead++;
    size_t end = nd;
    while (end > lead && d[end - 1] == '0') end--;
    o->dig = d + lead;
    o->ndig = end - lead;
    o->exp = (long)ni - (long)lead + ex;
    if (!o->ndig) { o->neg = false; o->exp = 0; }
    return 0;
}
static void num_done(jnum *o) { free(o->heap); o->heap = NULL; }

/* numeric_out's text of a parsed number. */
static void num_print(jbuf *b, const jnum *o) {
    if (o->neg) jb_ch(b, '-');
    if (o->exp <= 0 || !o->ndig) jb_ch(b, '0');
    else
        for (long i = 0; i < o->exp; i++) jb_ch(b, i < (long)o->ndig ? o->dig[i] : '0');
    if (o->dscale > 0) {
        jb_ch(b, '.');
        for (long i = 0; i < o->dscale; i++) {
            long k = o->exp + i;   /* the digit index of the i-th fraction digit */
            jb_ch(b, k >= 0 && k < (long)o->ndig ? o->dig[k] : '0');
        }
    }
}

static int num_cmp(const jnum *a, const jnum *b) {
    int sa = !a->ndig ? 0 : a->neg ? -1 : 1, sb = !b->ndig ? 0 : b->neg ? -1 : 1;
    if (sa != sb) return sa < sb ? -1 : 1;
    if (!sa) return 0;
    int mag;
    if (a->exp != b->exp) mag = a->exp < b->exp ? -1 : 1;
    else {
        size_t n = a->ndig < b->ndig ? a->ndig : b->ndig;
        int c = memcmp(a->dig, b->dig, n);
        mag = c ? (c < 0 ? -1 : 1) : a->ndig == b->ndig ? 0 : a->ndig < b->ndig ? -1 : 1;
    }
    return sa > 0 ? mag : -mag;
}

/* ---- printing ----------------------------------------------------------------------- */

static void put_escaped(jbuf *b, const char *s, size_t n) {
    jb_ch(b, '"');
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *esc = NULL;
        char u[8];
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        default:
            if (c < 0x20) { snprintf(u, sizeof u, "\\u%04x", c); esc = u; }
        }
        if (esc) {
            jb_put(b, s + i - run, run);
            run = 0;
            jb_str(b, esc);
        } else run++;
    }
    jb_put(b, s + n - run, run);
    jb_ch(b, '"');
}

/* jsonb's text of a canonical tree (indent >= 0: jsonb_pretty's, at that level). */
static int print_jsonb(jbuf *b, const jnode *j, int indent, attu_error *err) {
    switch (j->kind) {
    case J_NULL: jb_str(b, "null"); return 0;
    case J_TRUE: jb_str(b, "true"); return 0;
    case J_FALSE: jb_str(b, "false"); return 0;
    case J_STR: put_escaped(b, j->s, j->slen); return 0;
    case J_NUM: {
        jnum v;
        if (num_parse(j->s, j->slen, &v, err)) return -1;
        num_print(b, &v);
        num_done(&v);
        return 0;
    }
    default: break;
    }
    bool obj = j->kind == J_OBJ;
    jb_ch(b, obj ? '{' : '[');
    for (size_t i = 0; i < j->n; i++) {
        if (i) jb_str(b, indent >= 0 ? "," : ", ");
        if (indent >= 0) { jb_ch(b, '\n'); for (int k = 0; k < 4 * (indent + 1); k++) jb_ch(b, ' '); }
        if (obj) {
            put_escaped(b, j->kids[2 * i]->s, j->kids[2 * i]->slen);
            jb_str(b, ": ");
            if (print_jsonb(b, j->kids[2 * i + 1], indent >= 0 ? indent + 1 : -1, err)) return -1;
        } else if (print_jsonb(b, j->kids[i], indent >= 0 ? indent + 1 : -1, err)) return -1;
    }
    if (indent >= 0) { jb_ch(b, '\n'); for (int k = 0; k < 4 * indent; k++) jb_ch(b, ' '); }
    jb_ch(b, obj ? '}' : ']');
    return 0;
}

/* ---- canonical order ------------------------------------------------------------------ */

static int key_cmp(const jnode *a, const jnode *b) {
    if (a->slen != b->slen) return a->slen < b->slen ? -1 : 1;
    return memcmp(a->s, b->s, a->slen);
}

/* Sorts an object's pairs in jsonb's storage order, the last of equal keys
 * kept (a stable insertion merge: objects are small). */
static int canon(jarena *ar, jnode *j) {
    if (j->kind == J_ARR) {
        for (size_t i = 0; i < j->n; i++) if (canon(ar, j->kids[i])) return -1;
        return 0;
    }
    if (j->kind != J_OBJ) return 0;
    size_t n = j->n;
    for (size_t i = 0; i < n; i++) if (canon(ar, j->kids[2 * i + 1])) return -1;
    /* merge sort of pair indexes, stable */
    size_t *ix = malloc(sizeof(size_t) * (n ? n : 1) * 2);
    if (!ix) return -1;
    size_t *tmp = ix + n;
    for (size_t i = 0; i < n; i++) ix[i] = i;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, a = lo, c = mid, k = lo;
            while (a < mid && c < hi) tmp[k++] = key_cmp(j->kids[2 * ix[c]], j->kids[2 * ix[a]]) < 0 ? ix[c++] : ix[a++];
            while (a < mid) tmp[k++] = ix[a++];
            while (c < hi) tmp[k++] = ix[c++];
        }
        memcpy(ix, tmp, sizeof(size_t) * n);
    }
    jnode **kids = ja_alloc(ar, sizeof(jnode *) * 2 * (n ? n : 1));
    if (!kids) { free(ix); return -1; }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        jnode *k = j->kids[2 * ix[i]], *v = j->kids[2 * ix[i] + 1];
        if (m && !key_cmp(kids[2 * (m - 1)], k)) { kids[2 * (m - 1) + 1] = v; continue; }   /* the later one wins */
        kids[2 * m] = k; kids[2 * m + 1] = v;
        m++;
    }
    free(ix);
    j->kids = kids; j->n = m;
    return 0;
}

int attu_json_validate(const char *s, size_t len, attu_error *err) {
    jarena ar = { 0 };
    jnode *j = parse(&ar, s, len, false, err);
    ja_free(&ar);
    return j ? 0 : -1;
}

static int to_canonical(jarena *ar, const char *s, size_t len, jbuf *out, attu_error *err) {
    jnode *j = parse(ar, s, len, true, err);
    if (!j) return -1;
    if (canon(ar, j)) return attu_error_oom(err);
    if (print_jsonb(out, j, -1, err)) return -1;
    if (out->oom) return attu_error_oom(err);
    return 0;
}

int attu_jsonb_canonical(const char *s, size_t len, char **out, size_t *outlen, attu_error *err) {
    jarena ar = { 0 };
    jbuf b = { 0 };
    int rc = to_canonical(&ar, s, len, &b, err);
    ja_free(&ar);
    if (rc) { free(b.p); return -1; }
    if (!b.p) jb_put(&b, "", 0);
    *out = b.p; *outlen = b.len;
    return 0;
}

/* ---- the key ------------------------------------------------------------------------- */

static void key_count(jbuf *b, size_t n) {
    for (int sh = 28; sh >= 0; sh -= 7) jb_ch(b, (char)(0x80 | ((n >> sh) & 0x7f)));
}
static void key_string(jbuf *b, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (s[i] == 0x01) jb_put(b, "\x01\x02", 2);
        else jb_ch(b, s[i]);
    }
    jb_put(b, "\x01\x01", 2);
}
static int key_of(jbuf *b, const jnode *j, attu_error *err) {
    switch (j->kind) {
    case J_NULL: jb_ch(b, 0x10); return 0;
    case J_STR: jb_ch(b, 0x20); key_string(b, j->s, j->slen); return 0;
    case J_FALSE: jb_put(b, "\x40\x02", 2); return 0;
    case J_TRUE: jb_put(b, "\x40\x03", 2); return 0;
    case J_NUM: {
        jnum v;
        if (num_parse(j->s, j->slen, &v, err)) return -1;
        jb_ch(b, 0x30);
        if (!v.ndig) jb_ch(b, 0x40);
        else {
            unsigned long e = (unsigned long)(v.exp + 0x100000L);
            if (v.neg) e = 0x1fffffUL - e;
            jb_ch(b, v.neg ? 0x3f : 0x41);
            jb_ch(b, (char)(0x80 | ((e >> 14) & 0x7f)));
            jb_ch(b, (char)(0x80 | ((e >> 7) & 0x7f)));
            jb_ch(b, (char)(0x80 | (e & 0x7f)));
            for (size_t i = 0; i < v.ndig; i++) jb_ch(b, v.neg ? (char)('9' - v.dig[i] + '0') : v.dig[i]);
            jb_ch(b, v.neg ? 0x7e : 0x21);
        }
        num_done(&v);
        return 0;
    }
    case J_ARR:
        jb_ch(b, 0x50);
        key_count(b, j->n);
        for (size_t i = 0; i < j->n; i++) if (key_of(b, j->kids[i], err)) return -1;
        return 0;
    default:
        jb_ch(b, 0x60);
        key_count(b, j->n);
        for (size_t i = 0; i < j->n; i++) {
            key_string(b, j->kids[2 * i]->s, j->kids[2 * i]->slen);
            if (key_of(b, j->kids[2 * i + 1], err)) return -1;
        }
        return 0;
    }
}

/* a value's key: a top-level empty array below every other value, as
 * PostgreSQL compares element counts before its raw-scalar flag */
static int top_key(jbuf *b, const jnode *j, attu_error *err) {
    if (j->kind == J_ARR && !j->n) { jb_ch(b, 0x08); return 0; }
    return key_of(b, j, err);
}

int attu_jsonb_key(const char *s, size_t len, char **out, size_t *outlen, attu_error *err) {
    jarena ar = { 0 };
    jbuf b = { 0 };
    jnode *j = parse(&ar, s, len, true, err);
    int rc = !j ? -1 : canon(&ar, j) ? attu_error_oom(err) : top_key(&b, j, err);
    ja_free(&ar);
    if (!rc && b.oom) rc = attu_error_oom(err);
    if (rc) { free(b.p); return -1; }
    *out = b.p; *outlen = b.len;
    return 0;
}

/* ---- comparing values (containment, deletes) ------------------------------------------- */

static bool scalar_eq(const jnode *a, const jnode *b) {
    if (a->kind != b->kind) return false;
    if (a->kind == J_STR) return a->slen == b->slen && !memcmp(a->s, b->s, a->slen);
    if (a->kind == J_NUM) {
        jnum x, y;
        attu_error e = { 0 };
        if (num_parse(a->s, a->slen, &x, &e)) return false;
        if (num_parse(b->s, b->slen, &y, &e)) { num_done(&x); return false; }
        int c = num_cmp(&x, &y);
        num_done(&x); num_done(&y);
        return c == 0;
    }
    return true;
}

static bool is_container(const jnode *j) { return j->kind == J_ARR || j->kind == J_OBJ; }

static const jnode *obj_get(const jnode *o, const char *k, size_t kl) {
    const jnode *r = NULL;   /* the last of equal keys (a json object may repeat one) */
    for (size_t i = 0; i < o->n; i++)
        if (o->kids[2 * i]->slen == kl && !memcmp(o->kids[2 * i]->s, k, kl)) r = o->kids[2 * i + 1];
    return r;
}

/* PostgreSQL's JsonbDeepContains: a contains b. */
static bool contains(const jnode *a, const jnode *b) {
    if (a->kind != b->kind) return false;
    if (a->kind == J_OBJ) {
        if (b->n > a->n) return false;
        for (size_t i = 0; i < b->n; i++) {
            const jnode *bk = b->kids[2 * i], *bv = b->kids[2 * i + 1];
            const jnode *av = obj_get(a, bk->s, bk->slen);
            if (!av) return false;
            if (av->kind != bv->kind) return false;
            if (is_container(av)) { if (!contains(av, bv)) return false; }
            else if (!scalar_eq(av, bv)) return false;
        }
        return true;
    }
    if (a->kind == J_ARR) {
        for (size_t i = 0; i < b->n; i++) {
            const jnode *bv = b->kids[i];
            bool found = false;
            for (size_t k = 0; k < a->n && !found; k++) {
                const jnode *av = a->kids[k];
                if (is_container(bv)) found = av->kind == bv->kind && contains(av, bv);
                else found = !is_container(av) && scalar_eq(av, bv);
            }
            if (!found) return false;
        }
        return true;
    }
    return scalar_eq(a, b);
}

/* ---- building -------------------------------------------------------------------------------- */

static jnode *mk(jarena *ar, int kind, size_t n) {
    jnode *j = ja_alloc(ar, sizeof *j);
    if (!j) return NULL;
    memset(j, 0, sizeof *j);
    j->kind = (uint8_t)kind;
    j->n = n;
    if (kind == J_ARR || kind == J_OBJ) {
        j->kids = ja_alloc(ar, sizeof(jnode *) * (kind == J_OBJ ? 2 : 1) * (n ? n : 1));
        if (!j->kids) return NULL;
    }
    return j;
}
static jnode *mk_str(jarena *ar, const char *s, size_t n) {
    jnode *j = mk(ar, J_STR, 0);
    if (j) { j->s = s; j->slen = n; }
    return j;
}

/* an array index (negative from the end) into [0, n), or -1 */
static long norm_index(long i, size_t n) {
    if (i < 0) i += (long)n;
    return i >= 0 && i < (long)n ? i : -1;
}

/* a path element read as an array index (PostgreSQL's strtol rule) */
static bool path_index(const char *s, size_t n, long *out) {
    char buf[32];
    if (!n || n >= sizeof buf) return false;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    errno = 0;
    long v = strtol(buf, &end, 10);
    if (end == buf || *end || errno || v > INT_MAX || v < INT_MIN) return false;
    *out = v;
    return true;
}

/* the elements of a text[] (NULL elements as NULL pointers) */
typedef struct tarr { size_t n; const char **s; size_t *len; } tarr;

/* path element k as an array index, else 22P02 as PostgreSQL words it */
static bool path_step_index(const tarr *path, size_t k, long *idx, attu_error *err) {
    if (path_index(path->s[k], path->len[k], idx)) return true;
    attu_error_set(err, ATTU_SQLSTATE_INVALID_TEXT_REP, 0, "path element at position %zu is not an integer: \"%s\"",
                   k + 1, path->s[k]);
    return false;
}

static int text_array(jarena *ar, const char *s, size_t len, tarr *o) {
    attu_array_iter it;
    attu_slot v;
    size_t cap = attu_array_count(attu_type_make(ATTU_TYPE_TEXT), s, len);
    o->n = 0;
    o->s = ja_alloc(ar, sizeof(char *) * (cap + 1));
    o->len = ja_alloc(ar, sizeof(size_t) * (cap + 1));
    if (!o->s || !o->len) return -1;
    attu_array_iter_init(&it, attu_type_make(ATTU_TYPE_TEXT), s, len);
    while (o->n < cap && attu_array_next(&it, &v)) {
        if (v.null) { o->s[o->n] = NULL; o->len[o->n++] = 0; continue; }
        char *c = ja_alloc(ar, v.len + 1);
        if (!c) { attu_array_iter_done(&it); return -1; }
        memcpy(c, v.v.s, v.len);
        c[v.len] = 0;
        o->s[o->n] = c; o->len[o->n++] = v.len;
    }
    attu_array_iter_done(&it);
    return 0;
}

/* The value at path[k..] of j, or NULL. A json object may repeat a key:
 * every occurrence is followed, and the last one that reaches the end of
 * the path wins, as PostgreSQL's json path walk finds it. */
static const jnode *get_path(const jnode *j, const tarr *path, size_t k) {
    if (k == path->n) return j;
    if (!path->s[k]) return NULL;
    if (j->kind == J_OBJ) {
        const jnode *r = NULL;
        for (size_t i = 0; i < j->n; i++) {
            const jnode *key = j->kids[2 * i];
            if (key->slen != path->len[k] || memcmp(key->s, path->s[k], key->slen)) continue;
            const jnode *x = get_path(j->kids[2 * i + 1], path, k + 1);
            if (x) r = x;
        }
        return r;
    }
    if (j->kind == J_ARR) {
        long i;
        if (!path_index(path->s[k], path->len[k], &i) || (i = norm_index(i, j->n)) < 0) return NULL;
        return get_path(j->kids[i], path, k + 1);
    }
    return NULL;
}

/* jsonb_set / jsonb_insert at path[k..] of j (a copy of the nodes on the path) */
static jnode *set_path(jarena *ar, const jnode *j, const tarr *path, size_t k, jnode *nv, bool create, int mode,
                       attu_error *err) {
    /* mode 0: jsonb_set; 1: jsonb_insert before; 2: insert after */
    if (k >= path->n) return (jnode *)j;
    if (!path->s[k]) {
        attu_error_set(err, "22004", 0, "path element at position %zu is null", k + 1);
        return NULL;
    }
    bool last = k + 1 == path->n;
    if (j->kind == J_OBJ) {
        const char *key = path->s[k];
        size_t kl = path->len[k];
        long at = -1;
        for (size_t i = 0; i < j->n; i++)
            if (j->kids[2 * i]->slen == kl && !memcmp(j->kids[2 * i]->s, key, kl)) at = (long)i;
        if (at >= 0 && last && mode) {
            attu_error_set(err, "22023", 0, "cannot replace existing key");
            attu_error_set_hint(err, "Try using the function jsonb_set to replace key value.");
            return NULL;
        }
        bool add = at < 0 && last && (create || mode);
        jnode *r = mk(ar, J_OBJ, j->n + add);
        if (!r) { attu_error_oom(err); return NULL; }
        if (j->n) memcpy(r->kids, j->kids, sizeof(jnode *) * 2 * j->n);
        if (at >= 0) {
            jnode *v = last ? nv : set_path(ar, j->kids[2 * at + 1], path, k + 1, nv, create, mode, err);
            if (!v) return NULL;
            r->kids[2 * at + 1] = v;
        } else if (add) {
            jnode *ks = mk_str(ar, key, kl);
            if (!ks) { attu_error_oom(err); return NULL; }
            r->kids[2 * j->n] = ks; r->kids[2 * j->n + 1] = nv;
            if (canon(ar, r)) { attu_error_oom(err); return NULL; }
        }
        return r;
    }
    if (j->kind == J_ARR) {
        long idx;
        if (!path_step_index(path, k, &idx, err)) return NULL;
        long n = (long)j->n;
        if (idx < 0) idx = -idx > n ? -1 - n : n + idx;   /* before the first: a prepend */
        if (!last) {
            if (idx < 0 || idx >= n) return (jnode *)j;
            jnode *v = set_path(ar, j->kids[idx], path, k + 1, nv, create, mode, err);
            if (!v) return NULL;
            jnode *r = mk(ar, J_ARR, j->n);
            if (!r) { attu_error_oom(err); return NULL; }
            if (j->n) memcpy(r->kids, j->kids, sizeof(jnode *) * j->n);
            r->kids[idx] = v;
            return r;
        }
        long ins;   /* where a new element goes, or -1 for a replacement at idx */
        if (mode == 0) {
            if (idx >= 0 && idx < n) {
                jnode *r = mk(ar, J_ARR, j->n);
                if (!r) { attu_error_oom(err); return NULL; }
                if (j->n) memcpy(r->kids, j->kids, sizeof(jnode *) * j->n);
                r->kids[idx] = nv;
                return r;
            }
            if (!create) return (jnode *)j;
            ins = idx < 0 ? 0 : n;
        } else {
            if (idx < 0) ins = 0;
            else if (idx >= n) ins = n;
            else ins = idx + (mode == 2);
        }
        jnode *r = mk(ar, J_ARR, j->n + 1);
        if (!r) { attu_error_oom(err); return NULL; }
        for (long i = 0, o = 0; i <= n; i++) {
            if (i == ins) r->kids[o++] = nv;
            if (i < n) r->kids[o++] = j->kids[i];
        }
        return r;
    }
    return (jnode *)j;   /* a scalar on the way: unchanged */
}

/* #- : deletes the element at path[k..] */
static jnode *del_path(jarena *ar, const jnode *j, const tarr *path, size_t k, attu_error *err) {
    if (k >= path->n) return (jnode *)j;
    if (!path->s[k]) { attu_error_set(err, "22004", 0, "path element at position %zu is null", k + 1); return NULL; }
    bool last = k + 1 == path->n;
    if (j->kind == J_OBJ) {
        long at = -1;
        for (size_t i = 0; i < j->n; i++)
            if (j->kids[2 * i]->slen == path->len[k] && !memcmp(j->kids[2 * i]->s, path->s[k], path->len[k])) at = (long)i;
        if (at < 0) return (jnode *)j;
        jnode *r = mk(ar, J_OBJ, j->n - last);
        if (!r) { attu_error_oom(err); return NULL; }
        for (size_t i = 0, o = 0; i < j->n; i++) {
            if ((long)i == at && last) continue;
            r->kids[2 * o] = j->kids[2 * i];
            r->kids[2 * o + 1] = j->kids[2 * i + 1];
            if ((long)i == at && !(r->kids[2 * o + 1] = del_path(ar, j->kids[2 * i + 1], path, k + 1, err))) return NULL;
            o++;
        }
        return r;
    }
    if (j->kind == J_ARR) {
        long idx;
        if (!path_step_index(path, k, &idx, err)) return NULL;
        long at = norm_index(idx, j->n);
        if (at < 0) return (jnode *)j;
        jnode *r = mk(ar, J_ARR, j->n - last);
        if (!r) { attu_error_oom(err); return NULL; }
        for (size_t i = 0, o = 0; i < j->n; i++) {
            if ((long)i == at && last) continue;
            r->kids[o] = (long)i == at ? del_path(ar, j->kids[i], path, k + 1, err) : j->kids[i];
            if (!r->kids[o++]) return NULL;
        }
        return r;
    }
    return (jnode *)j;
}

static jnode *strip_nulls(jarena *ar, const jnode *j) {
    if (j->kind == J_ARR) {
        jnode *r = mk(ar, J_ARR, j->n);
        if (!r) return NULL;
        for (size_t i = 0; i < j->n; i++) if (!(r->kids[i] = strip_nulls(ar, j->kids[i]))) return NULL;
        return r;
    }
    if (j->kind != J_OBJ) return (jnode *)j;
    jnode *r = mk(ar, J_OBJ, j->n);
    if (!r) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < j->n; i++) {
        if (j->kids[2 * i + 1]->kind == J_NULL) continue;
        r->kids[2 * o] = j->kids[2 * i];
        if (!(r->kids[2 * o + 1] = strip_nulls(ar, j->kids[2 * i + 1]))) return NULL;
        o++;
    }
    r->n = o;
    return r;
}

/* json_strip_nulls of a json value: its tokens without whitespace, the
 * null-valued fields left out (PostgreSQL's output) */
static void print_json_compact(jbuf *b, const jnode *j, bool strip) {
    if (j->kind == J_ARR) {
        jb_ch(b, '[');
        for (size_t i = 0; i < j->n; i++) { if (i) jb_ch(b, ','); print_json_compact(b, j->kids[i], strip); }
        jb_ch(b, ']');
        return;
    }
    if (j->kind == J_OBJ) {
        jb_ch(b, '{');
        bool first = true;
        for (size_t i = 0; i < j->n; i++) {
            if (strip && j->kids[2 * i + 1]->kind == J_NULL) continue;
            if (!first) jb_ch(b, ',');
            first = false;
            put_escaped(b, j->kids[2 * i]->s, j->kids[2 * i]->slen);
            jb_ch(b, ':');
            print_json_compact(b, j->kids[2 * i + 1], strip);
        }
        jb_ch(b, '}');
        return;
    }
    /* strings re-escaped from their value, as PostgreSQL's escape_json
     * ("\u00e9" becomes "é"); other scalars as written */
    if (j->kind == J_STR) put_escaped(b, j->s, j->slen);
    else jb_put(b, j->src, j->srclen);
}

/* ---- PostgreSQL's array text into json ----------------------------------------------------- */

/* one element of an array's text (array_out's): quoted or bare; 1 and
 * *is_null for NULL */
static const char *pga_elem(const char *p, const char *e, jbuf *tmp, bool *quoted) {
    tmp->len = 0;
    jb_put(tmp, "", 0);
    *quoted = false;
    if (p < e && *p == '"') {
        *quoted = true;
        p++;
        while (p < e && *p != '"') {
            if (*p == '\\' && p + 1 < e) p++;
            jb_ch(tmp, *p++);
        }
        return p < e ? p + 1 : p;
    }
    while (p < e && *p != ',' && *p != '}') jb_ch(tmp, *p++);
    return p;
}

static void put_scalar_text(jbuf *b, const char *s, size_t n, int cls);

static const char *pga_to_json(jbuf *b, const char *p, const char *e, int cls, int level, bool pretty, jbuf *tmp) {
    /* p at '{' */
    p++;
    jb_ch(b, '[');
    bool first = true;
    while (p < e && *p != '}') {
        if (!first) {
            jb_ch(b, ',');
            if (pretty && level == 0) jb_str(b, "\n ");
        }
        first = false;
        if (*p == '{') p = pga_to_json(b, p, e, cls, level + 1, pretty, tmp);
        else {
            bool q;
            p = pga_elem(p, e, tmp, &q);
            if (!q && tmp->len == 4 && !memcmp(tmp->p, "NULL", 4)) jb_str(b, "null");
            else put_scalar_text(b, tmp->p, tmp->len, cls);
        }
        if (p < e && *p == ',') p++;
    }
    jb_ch(b, ']');
    return p < e ? p + 1 : p;
}

/* json(b)_build_array / _object(VARIADIC a): every element of the array
 * text at p (all dimensions, in storage order) as one argument, joined by
 * ", " as the built value's arguments are; obj: alternate keys (the
 * element's to_json text as a string) and values. *k counts the elements
 * (*null_key: the first NULL key's argument number, PostgreSQL's count
 * check coming first); returns the text after the array. */
static const char *pga_build(jbuf *b, const char *p, const char *e, int cls, bool obj, int *k, int *null_key, jbuf *tmp) {
    p++;   /* at '{' */
    while (p < e && *p != '}') {
        if (*p == '{') p = pga_build(b, p, e, cls, obj, k, null_key, tmp);
        else {
            bool q;
            p = pga_elem(p, e, tmp, &q);
            bool is_null = !q && tmp->len == 4 && !memcmp(tmp->p, "NULL", 4);
            bool key = obj && *k % 2 == 0;
            (*k)++;
            if (*k > 1) jb_str(b, key || !obj ? ", " : " : ");
            if (key && is_null && !*null_key) *null_key = *k;
            if (is_null) jb_str(b, "null");
            else if (key) {
                /* a key is the scalar's json text as a string */
                jbuf kt = { 0 };
                put_scalar_text(&kt, tmp->p, tmp->len, cls);
                if (kt.len && kt.p[0] == '"') jb_put(b, kt.p, kt.len);
                else { jb_ch(b, '"'); jb_put(b, kt.p, kt.len); jb_ch(b, '"'); }
                free(kt.p);
            } else put_scalar_text(b, tmp->p, tmp->len, cls);
        }
        if (p < e && *p == ',') p++;
    }
    return p < e ? p + 1 : p;
}

static bool json_number_text(const char *s, size_t n) {
    jparser p = { 0 };
    attu_error e = { 0 };
    jarena ar = { 0 };
    p.start = p.s = s; p.end = s + n; p.ar = &ar; p.err = &e;
    bool ok = !lex(&p) && p.type == T_NUM && p.tok_end == p.end;
    ja_free(&ar);
    return ok;
}

/* a scalar's text as to_json makes it, by class */
static void put_scalar_text(jbuf *b, const char *s, size_t n, int cls) {
    switch (cls) {
    case ATTU_JSC_NUMBER:
        if (json_number_text(s, n)) jb_put(b, s, n);
        else put_escaped(b, s, n);
        return;
    case ATTU_JSC_BOOL:
        jb_str(b, n && (s[0] == 't' || s[0] == 'T') ? "true" : "false");
        return;
    case ATTU_JSC_TIMESTAMP: case ATTU_JSC_TIMESTAMPTZ: {
        /* "2020-01-02 03:04:05+01" -> "2020-01-02T03:04:05+01:00" */
        char tb[128];
        size_t k = 0;
        for (size_t i = 0; i < n && k < sizeof tb - 4; i++) tb[k++] = (s[i] == ' ' && i == 10) ? 'T' : s[i];
        if (cls == ATTU_JSC_TIMESTAMPTZ && k >= 3 && (tb[k - 3] == '+' || tb[k - 3] == '-') && k > 10) {
            tb[k++] = ':'; tb[k++] = '0'; tb[k++] = '0';
        }
        put_escaped(b, tb, k);
        return;
    }
    case ATTU_JSC_JSON:
        jb_put(b, s, n);
        return;
    default:
        put_escaped(b, s, n);
        return;
    }
}

/* ---- the runner ---------------------------------------------------------------------------- */

static int emit(attu_slot *o, const char *s, size_t n, char *(*alloc)(void *, size_t), void *ctx, attu_error *err) {
    char *m = alloc(ctx, n + 1);
    if (!m) return attu_error_oom(err);
    if (n) memcpy(m, s, n);
    m[n] = 0;
    o->null = 0; o->v.s = m; o->len = (uint32_t)n;
    return 0;
}

static const char *type_word(const jnode *j) {
    switch (j->kind) {
    case J_NULL: return "null";
    case J_STR: return "string";
    case J_NUM: return "number";
    case J_TRUE: case J_FALSE: return "boolean";
    case J_ARR: return "array";
    default: return "object";
    }
}

/* a result node: the text of a json value as written, or jsonb's canonical
 * text; as_text: a string unquoted, null a SQL NULL (->>) */
static int put_node(jbuf *b, const jnode *j, bool jsonb, bool as_text, bool *is_null, attu_error *err) {
    *is_null = false;
    if (as_text && j->kind == J_STR) { jb_put(b, j->s, j->slen); return 0; }
    if (as_text && j->kind == J_NULL) { *is_null = true; return 0; }
    if (!jsonb) { jb_put(b, j->src, j->srclen); return 0; }
    return print_jsonb(b, j, -1, err);
}

static jnode *as_array(jarena *ar, jnode *j) {
    if (j->kind == J_ARR) return j;
    jnode *r = mk(ar, J_ARR, 1);
    if (r) r->kids[0] = j;
    return r;
}

static jnode *concat(jarena *ar, jnode *a, jnode *b) {
    if (a->kind == J_OBJ && b->kind == J_OBJ) {
        jnode *r = mk(ar, J_OBJ, a->n + b->n);
        if (!r) return NULL;
        if (a->n) memcpy(r->kids, a->kids, sizeof(jnode *) * 2 * a->n);
        if (b->n) memcpy(r->kids + 2 * a->n, b->kids, sizeof(jnode *) * 2 * b->n);
        return canon(ar, r) ? NULL : r;
    }
    jnode *x = as_array(ar, a), *y = as_array(ar, b);
    if (!x || !y) return NULL;
    jnode *r = mk(ar, J_ARR, x->n + y->n);
    if (!r) return NULL;
    if (x->n) memcpy(r->kids, x->kids, sizeof(jnode *) * x->n);  /* an empty array has no kids */
    if (y->n) memcpy(r->kids + x->n, y->kids, sizeof(jnode *) * y->n);
    return r;
}

/* jsonb a - key (a string array element too) */
static jnode *delete_keys(jarena *ar, jnode *a, const tarr *keys) {
    bool obj = a->kind == J_OBJ;
    jnode *r = mk(ar, a->kind, a->n);
    if (!r) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < a->n; i++) {
        const jnode *k = obj ? a->kids[2 * i] : a->kids[i];
        bool drop = false;
        if (k->kind == J_STR)
            for (size_t q = 0; q < keys->n && !drop; q++)
                drop = keys->s[q] && keys->len[q] == k->slen && !memcmp(keys->s[q], k->s, k->slen);
        if (drop) continue;
        if (obj) { r->kids[2 * o] = a->kids[2 * i]; r->kids[2 * o + 1] = a->kids[2 * i + 1]; }
        else r->kids[o] = a->kids[i];
        o++;
    }
    r->n = o;
    return r;
}

static bool has_key(const jnode *a, const char *k, size_t kl) {
    if (a->kind == J_OBJ) return obj_get(a, k, kl) != NULL;
    if (a->kind == J_ARR) {
        for (size_t i = 0; i < a->n; i++)
            if (a->kids[i]->kind == J_STR && a->kids[i]->slen == kl && !memcmp(a->kids[i]->s, k, kl)) return true;
        return false;
    }
    return a->kind == J_STR && a->slen == kl && !memcmp(a->s, k, kl);
}

/* ---- JSON arrays as PostgreSQL array literals (json_to_record) ---------------------- */

enum { PGA_MAXDIM = 6 };   /* PostgreSQL's MAXDIM */

typedef struct pga_state {
    bool jsonb;             /* the source is jsonb (its canonical text) */
    bool json_elems;        /* the column's elements are json: every value as JSON text */
    int ndims;              /* 0 until the first scalar fixes it */
    long dims[PGA_MAXDIM + 1];   /* 1-based: each dimension's length, -1 unknown */
    const char *key;        /* for the hints */
    attu_error *err;
} pga_state;

/* a scalar of the literal, double-quoted (NULL bare) */
static int pga_scalar(jbuf *b, const jnode *x, const pga_state *st) {
    if (x->kind == J_NULL) { jb_str(b, "NULL"); return 0; }
    jbuf t = { 0 };
    bool nul;
    if (st->json_elems && !st->jsonb && x->kind == J_STR) put_escaped(&t, x->s, x->slen);   /* as above */
    else if (put_node(&t, x, st->jsonb, !st->json_elems, &nul, st->err)) { free(t.p); return -1; }
    jb_ch(b, '"');
    for (size_t i = 0; i < t.len; i++) {
        if (t.p[i] == '"' || t.p[i] == '\\') jb_ch(b, '\\');
        jb_ch(b, t.p[i]);
    }
    jb_ch(b, '"');
    free(t.p);
    return t.oom ? attu_error_oom(st->err) : 0;
}

/* The hint of an element that is no array where the dimensions want one:
 * its subscripts from the top (0-based), as PostgreSQL's. */
static int pga_expected(pga_state *st, const long *path, int depth) {
    char where[128];
    size_t at = 0;
    where[0] = 0;
    for (int i = 0; i < depth && at + 24 < sizeof where; i++) at += (size_t)snprintf(where + at, sizeof where - at, "[%ld]", path[i]);
    attu_error_set(st->err, "22P02", 0, "expected JSON array");
    char hint[256];
    snprintf(hint, sizeof hint, "See the array element %s of key \"%s\".", where, st->key);
    attu_error_set_hint(st->err, hint);
    return -1;
}

/* Array x filling dimension level + 1 (path: the subscripts leading to it):
 * PostgreSQL's populate_array_json, the dimensions fixed by the first
 * scalar met; a deeper array past them is a scalar (its JSON text). */
static int pga_walk(jbuf *b, const jnode *x, int level, long *path, pga_state *st) {
    int dim = level + 1;
    if (dim > PGA_MAXDIM) {
        return attu_error_set(st->err, "54000", 0, "number of array dimensions (%d) exceeds the maximum allowed (%d)", dim,
                              PGA_MAXDIM);
    }
    if (st->dims[dim] < 0) st->dims[dim] = (long)x->n;
    else if (st->dims[dim] != (long)x->n) {
        attu_error_set(st->err, "22P02", 0, "malformed JSON array");
        attu_error_set_detail(st->err, "Multidimensional arrays must have sub-arrays with matching dimensions.");
        return -1;
    }
    jb_ch(b, '{');
    for (size_t i = 0; i < x->n; i++) {
        const jnode *e = x->kids[i];
        path[level] = (long)i;
        if (i) jb_ch(b, ',');
        if (st->ndims == 0 && e->kind != J_ARR) st->ndims = dim;
        if (st->ndims == 0 || dim < st->ndims) {
            if (e->kind != J_ARR) return pga_expected(st, path, dim);
            if (pga_walk(b, e, level + 1, path, st)) return -1;
        } else if (pga_scalar(b, e, st)) return -1;
    }
    jb_ch(b, '}');
    return 0;
}

static int pga_from_json(jbuf *b, const jnode *x, int level, pga_state *st) {
    long path[PGA_MAXDIM + 1];
    for (int i = 0; i <= PGA_MAXDIM; i++) st->dims[i] = -1;
    size_t at = b->len;
    if (pga_walk(b, x, level, path, st)) return -1;
    if (st->ndims == 0) { b->len = at; jb_str(b, "{}"); }   /* no element anywhere: '{}' */
    return 0;
}

int attu_json_run(const attu_expr_program *p, const attu_instr *in, const attu_slot *A, const attu_slot *B,
                  const attu_slot *C, const attu_slot *Dd, const attu_slot *G, attu_slot *D, size_t n,
                  char *(*alloc)(void *ctx, size_t n), void *ctx, attu_error *err) {
    attu_type dt = p->reg_types[in->dst];
    attu_type at = in->a >= 0 ? p->reg_types[in->a] : dt;
    attu_type bt = in->b >= 0 ? p->reg_types[in->b] : dt;
    bool a_jsonb = attu_type_is_jsonb(at), d_jsonb = attu_type_is_jsonb(dt);
    jbuf out = { 0 };
    int rc = 0;
    size_t total = 0;
    /* The read-only functions of a set-returning function's rows read one
     * value many times over (json_to_recordset's NTH: every row its whole
     * array): its tree is kept while a is the same text, so a series of n
     * elements parses the value once, not n times. */
    attu_json_fn fn0 = (attu_json_fn)in->aux;
    bool cacheable = fn0 == ATTU_JS_NTH || fn0 == ATTU_JS_COUNT || fn0 == ATTU_JS_REC_FIELD || fn0 == ATTU_JS_GET;
    jarena cache_ar = { 0 };
    jnode *cache_j = NULL;
    const char *cache_s = NULL;
    size_t cache_len = 0;
    for (size_t r = 0; r < n && !rc; r++) {
        attu_slot *o = &D[r];
        memset(o, 0, sizeof *o);
        o->null = 1;
        if (G && (G[r].null || !G[r].v.i)) continue;
        bool an = !A || A[r].null, bn = !B || B[r].null, cn = !C || C[r].null, dn = !Dd || Dd[r].null;
        out.len = 0;
        jb_put(&out, "", 0);
        jarena ar = { 0 };
        bool res_null = true;   /* set false where out holds the result */
        jnode *ja = NULL, *jbn = NULL;
        attu_json_fn f = (attu_json_fn)in->aux;
        /* the strict functions of a parsed a */
        bool strict = f != ATTU_JS_OBJ_ADD && f != ATTU_JS_ARR_ADD && f != ATTU_JS_WRAP_OBJ && f != ATTU_JS_WRAP_ARR &&
                      f != ATTU_JS_FROM_ARRAY;
        if (strict && (an || (B && bn && f != ATTU_JS_OBJECT) || (C && cn) || (Dd && dn))) { ja_free(&ar); continue; }
        bool parse_a = f != ATTU_JS_IN && f != ATTU_JS_QUOTE && f != ATTU_JS_SCALAR && f != ATTU_JS_FROM_ARRAY &&
                       f != ATTU_JS_OBJ_ADD && f != ATTU_JS_ARR_ADD && f != ATTU_JS_WRAP_OBJ && f != ATTU_JS_WRAP_ARR &&
                       f != ATTU_JS_OBJECT && f != ATTU_JS_PATH_IN && f != ATTU_JS_PATH;
        if (parse_a && cacheable) {
            if (!cache_j || A[r].len != cache_len || (A[r].v.s != cache_s && memcmp(A[r].v.s, cache_s, cache_len))) {
                ja_free(&cache_ar);
                cache_j = parse(&cache_ar, A[r].v.s, A[r].len, a_jsonb, err);
                if (!cache_j) { rc = -1; ja_free(&ar); break; }
                cache_s = A[r].v.s;
                cache_len = A[r].len;
            }
            ja = cache_j;
        } else if (parse_a && !(ja = parse(&ar, A[r].v.s, A[r].len, a_jsonb, err))) { rc = -1; ja_free(&ar); break; }
        switch (f) {
        case ATTU_JS_IN:
            if (d_jsonb) {
                if (to_canonical(&ar, A[r].v.s, A[r].len, &out, err)) { rc = -1; break; }
            } else {
                if (attu_json_validate(A[r].v.s, A[r].len, err)) { rc = -1; break; }
                jb_put(&out, A[r].v.s, A[r].len);
            }
            res_null = false;
            break;
        case ATTU_JS_PATH_IN: {
            char *t;
            size_t tl;
            if (attu_jsonpath_canonical(A[r].v.s, A[r].len, &t, &tl, err)) { rc = -1; break; }
            jb_put(&out, t, tl);
            free(t);
            res_null = false;
            break;
        }
        case ATTU_JS_PATH: {
            bool b = false, nul = true;
            bool silent = Dd ? Dd[r].v.i != 0 : (in->imm_i & JPF_SILENT_NO_VARS) != 0;
            if (attu_jsonpath_run((jp_func)(in->imm_i & 7), A[r].v.s, A[r].len, B[r].v.s, B[r].len, C ? C[r].v.s : NULL,
                                  C ? C[r].len : 0, silent, &out, &b, &nul, err)) {
                rc = -1;
                break;
            }
            if (nul) break;
            if (dt.id == ATTU_TYPE_BOOL) { o->null = 0; o->v.i = b; }
            else res_null = false;
            break;
        }
        case ATTU_JS_KEY:
            if (top_key(&out, ja, err)) { rc = -1; break; }
            res_null = false;
            break;
        case ATTU_JS_GET: {
            const jnode *x = NULL;
            if (bt.id == ATTU_TYPE_TEXT) { if (ja->kind == J_OBJ) x = obj_get(ja, B[r].v.s, B[r].len); }
            else if (ja->kind == J_ARR) {
                long i = norm_index((long)B[r].v.i, ja->n);
                if (i >= 0) x = ja->kids[i];
            } else if (a_jsonb && ja->kind != J_OBJ && norm_index((long)B[r].v.i, 1) == 0)
                x = ja;   /* a jsonb scalar is a one-element array here (PostgreSQL's raw scalar) */
            if (!x) break;
            bool nul;
            if (put_node(&out, x, a_jsonb, in->imm_i == 1, &nul, err)) { rc = -1; break; }
            res_null = nul;
            break;
        }
        case ATTU_JS_GET_PATH: case ATTU_JS_EXTRACT_PATH: {
            tarr path;
            if (text_array(&ar, B[r].v.s, B[r].len, &path)) { rc = attu_error_oom(err); break; }
            const jnode *x = get_path(ja, &path, 0);
            if (!x) break;
            bool nul;
            if (put_node(&out, x, a_jsonb, in->imm_i == 1, &nul, err)) { rc = -1; break; }
            res_null = nul;
            break;
        }
        case ATTU_JS_CONTAINS:
            if (!(jbn = parse(&ar, B[r].v.s, B[r].len, true, err))) { rc = -1; break; }
            o->null = 0;
            /* raw scalars: a scalar a holds no array b; an array a holds a scalar b */
            if (ja->kind == J_ARR && !is_container(jbn)) o->v.i = contains(ja, as_array(&ar, jbn));
            else o->v.i = contains(ja, jbn);
            break;
        case ATTU_JS_EXISTS:
            o->null = 0;
            o->v.i = has_key(ja, B[r].v.s, B[r].len);
            break;
        case ATTU_JS_EXISTS_ANY: case ATTU_JS_EXISTS_ALL: {
            tarr keys;
            if (text_array(&ar, B[r].v.s, B[r].len, &keys)) { rc = attu_error_oom(err); break; }
            bool all = f == ATTU_JS_EXISTS_ALL, res = all;
            for (size_t k = 0; k < keys.n; k++) {
                if (!keys.s[k]) continue;
                bool h = has_key(ja, keys.s[k], keys.len[k]);
                if (all && !h) { res = false; break; }
                if (!all && h) { res = true; break; }
            }
            o->null = 0;
            o->v.i = res;
            break;
        }
        case ATTU_JS_CONCAT: {
            if (!(jbn = parse(&ar, B[r].v.s, B[r].len, true, err))) { rc = -1; break; }
            jnode *x = concat(&ar, ja, jbn);
            if (!x) { rc = attu_error_oom(err); break; }
            if (print_jsonb(&out, x, -1, err)) { rc = -1; break; }
            res_null = false;
            break;
        }
        case ATTU_JS_DELETE: {
            jnode *x;
            if (attu_type_is_array(bt) || bt.id == ATTU_TYPE_TEXT) {
                if (!is_container(ja)) { rc = attu_error_set(err, "22023", 0, "cannot delete from scalar"); break; }
                tarr keys;
                const char *one[1] = { B[r].v.s };
                size_t onelen[1] = { B[r].len };
                if (attu_type_is_array(bt)) {
                    if (text_array(&ar, B[r].v.s, B[r].len, &keys)) { rc = attu_error_oom(err); break; }
                } else {
                    keys.n = 1; keys.s = one; keys.len = onelen;
                }
                x = delete_keys(&ar, ja, &keys);
            } else {
                if (ja->kind == J_OBJ) { rc = attu_error_set(err, "22023", 0, "cannot delete from object using integer index"); break; }
                if (ja->kind != J_ARR) { rc = attu_error_set(err, "22023", 0, "cannot delete from scalar"); break; }
                long i = norm_index((long)B[r].v.i, ja->n);
                x = ja;
                if (i >= 0) {
                    x = mk(&ar, J_ARR, ja->n - 1);
                    if (x) for (size_t k = 0, q = 0; k < ja->n; k++) if ((long)k != i) x->kids[q++] = ja->kids[k];
                }
            }
            if (!x) { rc = attu_error_oom(err); break; }
            if (print_jsonb(&out, x, -1, err)) { rc = -1; break; }
            res_null = false;
            break;
        }
        case ATTU_JS_DELETE_PATH: {
            if (!is_container(ja)) { rc = attu_error_set(err, "22023", 0, "cannot delete path in scalar"); break; }
            tarr path;
            if (text_array(&ar, B[r].v.s, B[r].len, &path)) { rc = attu_error_oom(err); break; }
            jnode *x = del_path(&ar, ja, &path, 0, err);
            if (!x) { rc = -1; break; }
            if (print_jsonb(&out, x, -1, err)) { rc = -1; break; }
            res_null = false;
            break;
        }
        case ATTU_JS_CAST: {
            bool want_bool = in->imm_i == 1;
            if (want_bool ? (ja->kind != J_TRUE && ja->kind != J_FALSE) : ja->kind != J_NUM) {
                static const char *const words[] = { "null", "string", "numeric", "boolean", "boolean", "array", "object" };
                rc = attu_error_set(err, "22023", 0, "cannot cast jsonb %s to type %s", words[ja->kind], B[r].v.s);
                break;
            }
            if (want_bool) jb_str(&out, ja->kind == J_TRUE ? "true" : "false");
            else jb_put(&out, ja->s, ja->slen);
            res_null = false;
            break;
        }
        case ATTU_JS_TYPEOF:
            jb_str(&out, type_word(ja));
            res_null = false;
            break;
        case ATTU_JS_ARRAY_LENGTH:
            if (ja->kind != J_ARR) {
                rc = attu_error_set(err, "22023", 0, "cannot get array length of a %s", is_container(ja) ? "non-array" : "scalar");
                break;
            }
            o->null = 0;
            o->v.i = (int64_t)ja->n;
            break;
        case ATTU_JS_STRIP_NULLS:
            if (a_jsonb) {
                jnode *x = strip_nulls(&ar, ja);
                if (!x) { rc = attu_error_oom(err); break; }
                if (print_jsonb(&out, x, -1, err)) { rc = -1; break; }
            } else print_json_compact(&out, ja, true);
            res_null = false;
            break;
        case ATTU_JS_SET: case ATTU_JS_INSERT: {
            if (!is_container(ja)) { rc = attu_error_set(err, "22023", 0, "cannot set path in scalar"); break; }
            tarr path;
            if (text_array(&ar, B[r].v.s, B[r].len, &path)) { rc = attu_error_oom(err); break; }
            jnode *nv = parse(&ar, C[r].v.s, C[r].len, true, err);
            if (!nv) { rc = -1; break; }
            bool flag = Dd ? Dd[r].v.i != 0 : f == ATTU_JS_SET;
            int mode = f == ATTU_JS_SET ? 0 : flag ? 2 : 1;
            jnode *x = set_path(&ar, ja, &path, 0, nv, f == ATTU_JS_SET ? flag : false, mode, err);
            if (!x) { rc = -1; break; }
            if (print_jsonb(&out, x, -1, err)) { rc = -1; break; }
            res_null = false;
            break;
        }
        case ATTU_JS_PRETTY:
            if (print_jsonb(&out, ja, 0, err)) { rc = -1; break; }
            res_null = false;
            break;
        case ATTU_JS_QUOTE:
            put_escaped(&out, A[r].v.s, A[r].len);
            res_null = false;
            break;
        case ATTU_JS_SCALAR:
            put_scalar_text(&out, A[r].v.s, A[r].len,
                            in->imm_i == 1 ? ATTU_JSC_TIMESTAMP : in->imm_i == 2 ? ATTU_JSC_TIMESTAMPTZ : ATTU_JSC_NUMBER);
            res_null = false;
            break;
        case ATTU_JS_FROM_ARRAY: {
            if (an) break;
            jbuf tmp = { 0 };
            const char *s = A[r].v.s, *e = s + A[r].len;
            if (s < e && *s == '[') { while (s < e && *s != '=') s++; if (s < e) s++; }   /* [0:1]={...} */
            if (in->imm_i & (32 | 64)) {
                /* build mode: json(b)_build_array / _object(VARIADIC a) */
                bool obj = (in->imm_i & 64) != 0;
                int k = 0, null_key = 0;
                jbuf w = { 0 };
                jb_ch(&w, obj ? '{' : '[');
                if (s < e && *s == '{') pga_build(&w, s, e, (int)(in->imm_i & 15), obj, &k, &null_key, &tmp);
                jb_ch(&w, obj ? '}' : ']');
                if (obj && k % 2) {
                    rc = attu_error_set(err, "22023", 0, "argument list must have even number of elements");
                    attu_error_set_hint(err, d_jsonb ? "The arguments of jsonb_build_object() must consist of alternating keys and values."
                                                     : "The arguments of json_build_object() must consist of alternating keys and values.");
                } else if (null_key) {
                    if (d_jsonb) rc = attu_error_set(err, "22023", 0, "argument %d: key must not be null", null_key);
                    else {
                        rc = attu_error_set(err, "22023", 0, "argument %d cannot be null", null_key);
                        attu_error_set_hint(err, "Object keys should be text.");
                    }
                } else if (w.oom) rc = attu_error_oom(err);
                else if (d_jsonb) rc = to_canonical(&ar, w.p, w.len, &out, err) ? -1 : 0;
                else jb_put(&out, w.p, w.len);
                free(w.p);
                free(tmp.p);
                if (!rc) res_null = false;
                break;
            }
            if (s < e && *s == '{') pga_to_json(&out, s, e, (int)(in->imm_i & 15), 0, (in->imm_i & 16) != 0, &tmp);
            else jb_str(&out, "[]");
            free(tmp.p);
            res_null = false;
            break;
        }
        case ATTU_JS_OBJ_ADD:
            if (bn) {
                /* imm_i: the key's argument number (json_build_object),
                 * plus 1000 for jsonb_build_object; 0 an aggregate's */
                if (!in->imm_i) rc = attu_error_set(err, "22023", 0, "field name must not be null");
                else if (in->imm_i > 1000) rc = attu_error_set(err, "22023", 0, "argument %d: key must not be null", (int)(in->imm_i - 1000));
                else {
                    rc = attu_error_set(err, "22023", 0, "argument %d cannot be null", (int)in->imm_i);
                    attu_error_set_hint(err, "Object keys should be text.");
                }
                break;
            }
            /* imm_i -1: row_to_json's "k":v joined by "," */
            if (!an) { jb_put(&out, A[r].v.s, A[r].len); jb_str(&out, in->imm_i == -1 ? "," : ", "); }
            put_escaped(&out, B[r].v.s, B[r].len);
            jb_str(&out, in->imm_i == -1 ? ":" : " : ");
            if (cn) jb_str(&out, "null");
            else jb_put(&out, C[r].v.s, C[r].len);
            res_null = false;
            break;
        case ATTU_JS_ARR_ADD:
            if (!an) { jb_put(&out, A[r].v.s, A[r].len); jb_str(&out, ", "); }
            if (cn) jb_str(&out, "null");
            else jb_put(&out, C[r].v.s, C[r].len);
            res_null = false;
            break;
        case ATTU_JS_WRAP_OBJ: case ATTU_JS_WRAP_ARR: {
            if (an && in->imm_i == 2) break;
            if (an && in->imm_i == 3) break;
            bool obj = f == ATTU_JS_WRAP_OBJ;
            jbuf w = { 0 };
            jb_str(&w, obj ? (in->imm_i == 1 || in->imm_i == 3 ? "{ " : "{") : "[");
            if (!an) jb_put(&w, A[r].v.s, A[r].len);
            jb_str(&w, obj ? (in->imm_i == 1 || in->imm_i == 3 ? " }" : "}") : "]");
            if (w.oom) { free(w.p); rc = attu_error_oom(err); break; }
            if (d_jsonb) {
                if (to_canonical(&ar, w.p, w.len, &out, err)) { free(w.p); rc = -1; break; }
            } else jb_put(&out, w.p, w.len);
            free(w.p);
            res_null = false;
            break;
        }
        case ATTU_JS_OBJECT: {
            tarr ka, va;
            if (text_array(&ar, A[r].v.s, A[r].len, &ka)) { rc = attu_error_oom(err); break; }
            size_t np;
            if (B) {
                if (text_array(&ar, B[r].v.s, B[r].len, &va)) { rc = attu_error_oom(err); break; }
                if (ka.n != va.n) { rc = attu_error_set(err, "2202E", 0, "mismatched array dimensions"); break; }
                np = ka.n;
            } else {
                attu_array_shape sh;
                attu_array_get_shape(attu_type_make(ATTU_TYPE_TEXT), A[r].v.s, A[r].len, &sh);
                if (sh.ndims == 2 && sh.dims[1] != 2) { rc = attu_error_set(err, "2202E", 0, "array must have two columns"); break; }
                if (sh.ndims == 1 && ka.n % 2) { rc = attu_error_set(err, "2202E", 0, "array must have even number of elements"); break; }
                if (sh.ndims > 2) { rc = attu_error_set(err, "2202E", 0, "wrong number of array subscripts"); break; }
                np = ka.n / 2;
            }
            jbuf w = { 0 };
            jb_ch(&w, '{');
            for (size_t i = 0; i < np; i++) {
                const char *k = B ? ka.s[i] : ka.s[2 * i], *v = B ? va.s[i] : ka.s[2 * i + 1];
                size_t kl = B ? ka.len[i] : ka.len[2 * i], vl = B ? va.len[i] : ka.len[2 * i + 1];
                if (!k) { rc = attu_error_set(err, "22004", 0, "null value not allowed for object key"); break; }
                if (i) jb_str(&w, ", ");
                put_escaped(&w, k, kl);
                jb_str(&w, " : ");
                if (!v) jb_str(&w, "null");
                else put_escaped(&w, v, vl);
            }
            jb_ch(&w, '}');
            if (!rc) {
                if (d_jsonb) rc = to_canonical(&ar, w.p, w.len, &out, err);
                else jb_put(&out, w.p, w.len);
                res_null = rc != 0;
            }
            free(w.p);
            break;
        }
        case ATTU_JS_COUNT: {
            const char *fn = (B && !bn) ? B[r].v.s : "json_array_elements";
            bool want_obj = in->imm_i == 1;
            if (in->imm_i == 2) {
                /* json(b)_to_recordset / json(b)_populate_recordset: an
                 * array of objects, PostgreSQL's messages of each type */
                if (ja->kind != J_ARR) {
                    if (a_jsonb) rc = attu_error_set(err, "22023", 0, "cannot call %s on a non-array", fn);
                    else rc = attu_error_set(err, "22023", 0, "cannot call %s on %s", fn, ja->kind == J_OBJ ? "an object" : "a scalar");
                    break;
                }
                for (size_t i = 0; i < ja->n && !rc; i++)
                    if (ja->kids[i]->kind != J_OBJ)
                        rc = attu_error_set(err, "22023", 0, "argument of %s must be an array of objects", fn);
                if (rc) break;
                o->null = 0;
                o->v.i = (int64_t)ja->n;
                break;
            }
            if (want_obj && ja->kind != J_OBJ) {
                if (strstr(fn, "object_keys"))
                    rc = attu_error_set(err, "22023", 0, "cannot call %s on %s", fn, ja->kind == J_ARR ? "an array" : "a scalar");
                else rc = attu_error_set(err, "22023", 0, "cannot call %s on a non-object", fn);
                break;
            }
            if (!want_obj && ja->kind != J_ARR) {
                if (!a_jsonb && ja->kind != J_OBJ) rc = attu_error_set(err, "22023", 0, "cannot extract elements from a scalar");
                else if (!a_jsonb) rc = attu_error_set(err, "22023", 0, "cannot extract elements from an object");
                else rc = attu_error_set(err, "22023", 0, "cannot extract elements from %s", ja->kind == J_OBJ ? "an object" : "a scalar");
                break;
            }
            o->null = 0;
            o->v.i = (int64_t)ja->n;
            break;
        }
        case ATTU_JS_REC_FIELD: {
            if (ja->kind != J_OBJ) {
                rc = attu_error_set(err, "22023", 0, "cannot call populate_composite on %s", ja->kind == J_ARR ? "an array" : "a scalar");
                break;
            }
            const jnode *x = obj_get(ja, B[r].v.s, B[r].len);
            int mode = (int)(in->imm_i & 3);
            if (mode == 3) {
                /* whether the key is there at all, a JSON null included:
                 * json_populate_record keeps the base row's value only
                 * for an absent key */
                if (x) { jb_put(&out, "t", 1); res_null = false; }
                break;
            }
            if (!x || x->kind == J_NULL) break;
            bool nul = false;
            if (mode == 2 && x->kind == J_ARR) {
                pga_state st = { a_jsonb, (in->imm_i & 4) != 0, 0, { 0 }, B[r].v.s, err };
                rc = pga_from_json(&out, x, 0, &st);
                if (!rc) res_null = false;
                break;
            }
            if (mode == 2 && x->kind != J_STR) {
                rc = attu_error_set(err, "22P02", 0, "expected JSON array");
                char hint[256];
                snprintf(hint, sizeof hint, "See the value of key \"%s\".", B[r].v.s);
                attu_error_set_hint(err, hint);
                break;
            }
            if (mode == 0 && !a_jsonb && x->kind == J_STR) {
                /* a json string is quoted again from its value, as
                 * PostgreSQL's populate_scalar does ("\u0041" is "A") */
                put_escaped(&out, x->s, x->slen);
                res_null = false;
                break;
            }
            if (put_node(&out, x, a_jsonb, mode != 0, &nul, err)) { rc = -1; break; }
            res_null = nul;
            break;
        }
        case ATTU_JS_NTH: {
            long k = (long)B[r].v.i - 1;
            int what = (int)(in->imm_i & 1);
            bool as_text = (in->imm_i & 2) != 0;
            if (k < 0 || (size_t)k >= ja->n) break;
            const jnode *x = ja->kind == J_OBJ ? ja->kids[2 * k + (what ? 0 : 1)] : ja->kids[k];
            if (what) { jb_put(&out, x->s, x->slen); res_null = false; break; }
            bool nul;
            if (put_node(&out, x, a_jsonb, as_text, &nul, err)) { rc = -1; break; }
            res_null = nul;
            break;
        }
        }
        ja_free(&ar);
        if (rc) break;
        if (out.oom) { rc = attu_error_oom(err); break; }
        /* a batch's results live until the batch is done: bound them, as
         * PostgreSQL bounds a value at 1 GB (jsonb_pretty of a deep value
         * grows quadratically) */
        total += out.len;
        if (total > ((size_t)1 << 30)) {
            rc = attu_error_set(err, "54000", 0, "json results of one batch of rows exceed 1 GB");
            break;
        }
        if (!res_null) rc = emit(o, out.p ? out.p : "", out.len, alloc, ctx, err);
    }
    free(out.p);
    ja_free(&cache_ar);
    return rc;
}

/* ---- the tree for other modules (engine/json_tree.h) ----------------------------------------- */

void *attu_jt_alloc(jarena *a, size_t n) { return ja_alloc(a, n); }
void attu_jt_free(jarena *a) { ja_free(a); }
void attu_jt_put(jbuf *b, const void *s, size_t n) { jb_put(b, s, n); }
jnode *attu_jt_parse(jarena *ar, const char *s, size_t len, bool jsonb, attu_error *err) {
    return parse(ar, s, len, jsonb, err);
}
int attu_jt_canon(jarena *ar, jnode *j) { return canon(ar, j); }
int attu_jt_print(jbuf *b, const jnode *j, attu_error *err) { return print_jsonb(b, j, -1, err); }
void attu_jt_put_escaped(jbuf *b, const char *s, size_t n) { put_escaped(b, s, n); }
int attu_jt_num_parse(const char *s, size_t len, jnum *o, attu_error *err) { return num_parse(s, len, o, err); }
void attu_jt_num_done(jnum *o) { num_done(o); }
void attu_jt_num_print(jbuf *b, const jnum *o) { num_print(b, o); }
int attu_jt_num_cmp(const jnum *a, const jnum *b) { return num_cmp(a, b); }
