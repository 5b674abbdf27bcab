/*
 * format_function.c - format(formatstr, VARIADIC "any") as PostgreSQL 15
 * computes it (see format_function.h).
 *
 * A conversion is %[n$][-...][width]type: n$ picks argument n (from 1),
 * later conversions without one go on from n + 1; width is a number, * (the
 * next argument) or *n$ (argument n), and a width taken from an argument
 * moves the position on as a value does; type is s (the text), I (quoted
 * as an identifier) or L (as a literal). The arguments arrive as their
 * output texts (the planner converts each, as PostgreSQL prints it with
 * its type's output function), a width argument too: PostgreSQL reads a
 * width that is not an integer or a smallint from its text as an integer,
 * and an integer's text reads back to it, so reading every width from its
 * text gives PostgreSQL's widths and errors.
 */
#include "engine/format_function.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/array.h"
#include "engine/strbuf.h"
#include "engine/utf8.h"

static bool (*keyword_test)(const char *word);

void attu_format_set_keyword_test(bool (*needs_quotes)(const char *word)) {
    /* the same function each time: the store only ever publishes it */
    __atomic_store_n(&keyword_test, needs_quotes, __ATOMIC_RELEASE);
}

/* One argument: its output text (NUL-terminated copy), or NULL. */
typedef struct fmt_arg {
    char  *s;
    size_t len;
    bool   null;
} fmt_arg;

typedef struct fmt_args {
    fmt_arg *v;
    int      n, cap;
} fmt_args;

static void args_clear(fmt_args *a) {
    for (int i = 0; i < a->n; i++) free(a->v[i].s);
    a->n = 0;
}

/* The elements of the array b (of elem) into a as their output texts
 * (copies: the iterator's values last only until its next step). */
static int args_load(fmt_args *a, const attu_slot *b, attu_type elem, attu_error *err) {
    args_clear(a);
    if (!b || b->null) return 0;
    attu_array_iter it;
    attu_slot v;
    char buf[512];
    attu_array_iter_init(&it, elem, b->v.s, b->len);
    int rc = 0;
    while (!rc && attu_array_next(&it, &v) == 1) {
        if (a->n == a->cap) {
            int cap = a->cap ? a->cap * 2 : 8;
            fmt_arg *nv = realloc(a->v, sizeof *nv * (size_t)cap);
            if (!nv) { rc = attu_error_oom(err); break; }
            a->v = nv;
            a->cap = cap;
        }
        fmt_arg *x = &a->v[a->n];
        const char *t = "";
        x->null = v.null;
        x->len = 0;
        if (!v.null) {
            const char *lp;
            x->len = attu_array_elem_text(elem, &v, buf, sizeof buf, &lp);
            t = lp ? lp : buf;
        }
        x->s = malloc(x->len + 1);
        if (!x->s) { rc = attu_error_oom(err); break; }
        if (x->len) memcpy(x->s, t, x->len);
        x->s[x->len] = '\0';
        a->n++;
    }
    attu_array_iter_done(&it);
    return rc;
}

static int unterminated(attu_error *err) {
    attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "unterminated format() type specifier");
    attu_error_set_hint(err, "For a single \"%\" use \"%%\".");
    return -1;
}

/* Steps *cp on; past the end of the format string is 22023. */
static int advance(const char **cp, const char *end, attu_error *err) {
    if (++*cp >= end) return unterminated(err);
    return 0;
}

/* Digits at *cp into *val (22003 past int32); *found whether there were
 * any. */
static int parse_digits(const char **cp, const char *end, int *val, bool *found, attu_error *err) {
    int v = 0;
    *found = false;
    while (**cp >= '0' && **cp <= '9') {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, **cp - '0', &v))
            return attu_error_set(err, "22003", 0, "number is out of range");
        if (advance(cp, end, err)) return -1;
        *found = true;
    }
    *val = v;
    return 0;
}

static int argument_zero(attu_error *err) {
    return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                          "format specifies argument 0, but arguments are numbered from 1");
}

/* A conversion's parts before its type letter: argpos (-1: none), widthpos
 * (-1: no width argument, 0: the next one, else its position), the -
 * flag and a width given in the string. */
typedef struct conversion {
    int  argpos, widthpos, width;
    bool minus;
} conversion;

static int parse_conversion(const char **cp, const char *end, conversion *cv, attu_error *err) {
    cv->argpos = cv->widthpos = -1;
    cv->width = 0;
    cv->minus = false;
    int n;
    bool found;
    if (parse_digits(cp, end, &n, &found, err)) return -1;
    if (found) {
        if (**cp != '$') { cv->width = n; return 0; }   /* a width, then the type */
        if (n == 0) return argument_zero(err);
        cv->argpos = n;
        if (advance(cp, end, err)) return -1;
    }
    while (**cp == '-') {
        cv->minus = true;
        if (advance(cp, end, err)) return -1;
    }
    if (**cp == '*') {
        if (advance(cp, end, err)) return -1;
        if (parse_digits(cp, end, &n, &found, err)) return -1;
        if (!found) { cv->widthpos = 0; return 0; }
        if (**cp != '$')
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "width argument position must be ended by \"$\"");
        if (n == 0) return argument_zero(err);
        cv->widthpos = n;
        return advance(cp, end, err);
    }
    if (parse_digits(cp, end, &n, &found, err)) return -1;
    if (found) cv->width = n;
    return 0;
}

/* A width argument's text as an integer, as PostgreSQL 15's pg_strtoint32
 * reads it: blanks around, a sign, digits. */
static int width_of_text(const char *s, int *out, attu_error *err) {
    const char *p = s;
    bool neg = false;
    int64_t v = 0;
    while (*p && isspace((unsigned char)*p)) p++;
    if (*p == '-' || *p == '+') neg = *p++ == '-';
    if (!isdigit((unsigned char)*p)) goto syntax;
    for (; isdigit((unsigned char)*p); p++) {
        v = v * 10 + (*p - '0');
        if (v > (int64_t)INT32_MAX + 1) break;
    }
    while (isdigit((unsigned char)*p)) p++;
    if (neg ? -v < INT32_MIN : v > INT32_MAX)
        return attu_error_set(err, "22003", 0, "value \"%s\" is out of range for type integer", s);
    while (*p && isspace((unsigned char)*p)) p++;
    if (*p) goto syntax;
    *out = (int)(neg ? -v : v);
    return 0;
syntax:
    return attu_error_set(err, "22P02", 0, "invalid input syntax for type integer: \"%s\"", s);
}

/* quote_ident's rule: bare when lower case letters, digits and _, not
 * first a digit, and no keyword but an unreserved one. */
static bool ident_is_bare(const char *s) {
    if (!((*s >= 'a' && *s <= 'z') || *s == '_')) return false;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')) return false;
    bool (*kw)(const char *) = __atomic_load_n(&keyword_test, __ATOMIC_ACQUIRE);
    return !(kw && kw(s));
}

/* s (len bytes) as the conversion ty writes it, into q. */
static int quote_value(attu_strbuf *q, char ty, const char *s, size_t len) {
    q->n = 0;
    if (q->p) q->p[0] = '\0';
    if (ty == 's') return attu_strbuf_add(q, s, len);
    if (ty == 'I' && ident_is_bare(s)) return attu_strbuf_add(q, s, len);
    char mark = ty == 'I' ? '"' : '\'';
    /* quote_literal: a backslash makes an E'' string, each one doubled */
    if (ty == 'L' && memchr(s, '\\', len) && attu_strbuf_putc(q, 'E')) return -1;
    if (attu_strbuf_putc(q, mark)) return -1;
    for (size_t i = 0; i < len; i++) {
        if ((s[i] == mark || (ty == 'L' && s[i] == '\\')) && attu_strbuf_putc(q, s[i])) return -1;
        if (attu_strbuf_putc(q, s[i])) return -1;
    }
    return attu_strbuf_putc(q, mark);
}

/* PostgreSQL's result buffer holds less than 1 GB (MaxAllocSize): adding
 * n bytes to out past that is its 54000, checked before anything is
 * allocated (a width of 2^31 - 1 asks for 2 GB of blanks). */
static int room_for(const attu_strbuf *out, size_t n, attu_error *err) {
    const size_t max_alloc = 0x3fffffff;
    if (n < max_alloc - out->n) return 0;
    attu_error_set(err, "54000", 0, "out of memory");
    attu_error_set_detail(err, "Cannot enlarge string buffer containing %zu bytes by %zu more bytes.", out->n, n);
    return -1;
}

static int put_text(attu_strbuf *out, const char *s, size_t len, attu_error *err) {
    if (room_for(out, len, err)) return -1;
    return attu_strbuf_add(out, s, len) ? attu_error_oom(err) : 0;
}

static int put_blanks(attu_strbuf *out, size_t n, attu_error *err) {
    if (!n) return 0;
    if (room_for(out, n, err)) return -1;
    size_t at = out->n;
    char blanks[256];
    memset(blanks, ' ', sizeof blanks);
    while (out->n - at < n) {
        size_t k = n - (out->n - at) < sizeof blanks ? n - (out->n - at) : sizeof blanks;
        if (attu_strbuf_add(out, blanks, k)) return attu_error_oom(err);
    }
    return 0;
}

/* s padded with blanks to width characters: on the left, or on the right
 * with the - flag or a negative width. */
static int put_padded(attu_strbuf *out, const char *s, size_t len, int width, bool minus, attu_error *err) {
    if (width == 0) return put_text(out, s, len, err);
    bool left = minus;
    if (width < 0) {
        if (width == INT_MIN) return attu_error_set(err, "22003", 0, "number is out of range");
        left = true;
        width = -width;
    }
    int64_t chars = attu_utf8_count(s, len), pad = width > chars ? width - chars : 0;
    if (left && put_text(out, s, len, err)) return -1;
    if (put_blanks(out, (size_t)pad, err)) return -1;
    if (!left && put_text(out, s, len, err)) return -1;
    return 0;
}

static int too_few(attu_error *err) {
    return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "too few arguments for format()");
}

/* One row: the format string f with the arguments a into out. */
static int format_row(const char *f, size_t flen, const fmt_args *a, attu_strbuf *out, attu_strbuf *q,
                      attu_error *err) {
    const char *end = f + flen;
    int arg = 1, nargs = a->n + 1;   /* PostgreSQL's numbering: the format string is 0 */
    for (const char *cp = f; cp < end; cp++) {
        if (*cp != '%') {
            const char *pct = memchr(cp, '%', (size_t)(end - cp));
            size_t plain = pct ? (size_t)(pct - cp) : (size_t)(end - cp);
            if (put_text(out, cp, plain, err)) return -1;
            cp += plain - 1;
            continue;
        }
        if (advance(&cp, end, err)) return -1;
        if (*cp == '%') {
            if (put_text(out, "%", 1, err)) return -1;
            continue;
        }
        conversion cv;
        if (parse_conversion(&cp, end, &cv, err)) return -1;
        if (*cp != 's' && *cp != 'I' && *cp != 'L') {
            int cl = attu_utf8_seq_len(cp);
            if (cl < 1 || cl > end - cp) cl = 1;
            attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "unrecognized format() type specifier \"%.*s\"", cl, cp);
            attu_error_set_hint(err, "For a single \"%\" use \"%%\".");
            return -1;
        }
        int width = cv.width;
        if (cv.widthpos >= 0) {
            if (cv.widthpos > 0) arg = cv.widthpos;
            if (arg >= nargs) return too_few(err);
            const fmt_arg *w = &a->v[arg - 1];
            arg++;
            width = 0;   /* a NULL width is no width */
            if (!w->null && width_of_text(w->s, &width, err)) return -1;
        }
        if (cv.argpos > 0) arg = cv.argpos;
        if (arg >= nargs) return too_few(err);
        const fmt_arg *v = &a->v[arg - 1];
        arg++;
        if (v->null) {
            if (*cp == 'I')
                return attu_error_set(err, "22004", 0, "null values cannot be formatted as an SQL identifier");
            const char *shown = *cp == 'L' ? "NULL" : "";
            if (put_padded(out, shown, strlen(shown), width, cv.minus, err)) return -1;
            continue;
        }
        if (quote_value(q, *cp, v->s, v->len)) return attu_error_oom(err);
        if (put_padded(out, q->p ? q->p : "", q->n, width, cv.minus, err)) return -1;
    }
    return 0;
}

int attu_format_run(const attu_slot *A, const attu_slot *B, attu_type bt, const attu_slot *G, attu_slot *D, size_t n,
                    char *(*alloc)(void *ctx, size_t n), void *ctx, attu_error *err) {
    attu_type elem = attu_type_array_elem(bt);
    fmt_args args = { NULL, 0, 0 };
    attu_strbuf out = { 0 }, q = { 0 };
    int rc = 0;
    for (size_t r = 0; r < n && !rc; r++) {
        attu_slot *o = &D[r];
        o->len = 0;
        o->v.i = 0;
        o->null = (G && (G[r].null || !G[r].v.i)) || A[r].null;
        if (o->null) continue;
        out.n = 0;
        if ((rc = args_load(&args, B ? &B[r] : NULL, elem, err))) break;
        if ((rc = format_row(A[r].v.s, A[r].len, &args, &out, &q, err))) break;
        char *m = alloc(ctx, out.n + 1);
        if (!m) { rc = attu_error_oom(err); break; }
        if (out.n) memcpy(m, out.p, out.n);
        m[out.n] = '\0';
        o->v.s = m;
        o->len = (uint32_t)out.n;
    }
    args_clear(&args);
    free(args.v);
    free(out.p);
    free(q.p);
    return rc;
}
