/*
 * numeric_format.c - to_char of numbers and to_number, as PostgreSQL 15
 * documents and answers them (numeric_format.h).
 *
 * Three stages:
 *   1. lex_template: the template becomes a list of tokens (a kind, and for
 *      a literal run its bytes' place and length) plus a layout: how many
 *      digit slots stand before and after the point, where zero filling
 *      begins, where an S sign goes, and the modes (FM, RN, EEEE, V, PR).
 *      The rules PostgreSQL enforces on a template are checked here.
 *   2. to_char: the value becomes a digit string rounded to the layout's
 *      places ("#" everywhere when it does not fit); a painter walks the
 *      tokens, filling each digit slot from the string (blank or zero for
 *      the slots the value lacks) and placing the sign around the digits.
 *   3. to_number: a reader walks the tokens over the input text, collecting
 *      a sign and digits, which become a numeric of the template's
 *      precision.
 * Keywords match case-sensitively in all-upper or all-lower form; rn and
 * th print lowercase.
 */
#include "engine/numeric_format.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/utf8.h"

/* ---- tokens and the layout ------------------------------------------------ */

typedef enum tok_kind {
    TK_LITERAL,  /* template text copied out (or skipped over by to_number) */
    TK_NINE,     /* 9 */
    TK_ZERO,     /* 0 */
    TK_POINT,    /* . or D */
    TK_GROUP,    /* , or G */
    TK_CURRENCY, /* L */
    TK_MI, TK_PL, TK_SG, TK_S, TK_PR,
    TK_ROMAN,    /* RN */
    TK_ORDINAL,  /* TH */
    TK_TIMES,    /* V */
    TK_SCI,      /* EEEE */
    TK_FILL,     /* FM */
    TK_BLANK,    /* B: read, no output */
    TK_IGNORED   /* C, SP: read, no output */
} tok_kind;

typedef struct tok {
    uint8_t  kind;
    uint8_t  lower;   /* rn / th: the lowercase spelling */
    uint32_t off;     /* TK_LITERAL: first byte in the template */
    uint32_t bytes;   /* TK_LITERAL: its length in bytes */
    uint32_t chars;   /* TK_LITERAL: its length in characters */
} tok;

/* Where an S pattern puts the sign */
enum { S_NONE, S_LEADING, S_TRAILING };

typedef struct layout {
    int  int_slots;     /* 9 / 0 before the point (plus V's digits, once scaled) */
    int  frac_slots;    /* 9 / 0 after the point */
    int  v_digits;      /* 9s after V: the value is scaled by 10^v_digits */
    int  s_after;       /* integer slots ahead of a leading S */
    int  first_zero;    /* integer slot of the first 0 (0-based); -1: none */
    int  zero_through;  /* slots up to and including the last 0 */
    int  s_place;       /* S_NONE, S_LEADING, S_TRAILING */
    bool point, fill, roman, sci, times, angle, mi, pl, blank;
} layout;

/* The keyword at s, if any: its kind into *t, its length returned (0: none).
 * A keyword is spelled all upper or all lower case. */
static int keyword_at(const char *s, tok *t) {
    char c = s[0];
    bool low = c >= 'a' && c <= 'z';
    char u = low ? (char)(c - 32) : c;
    /* the i-th letter when it continues the keyword in the same case */
#define NEXT_IS(i, L) (s[i] == (low ? (char)((L) + 32) : (L)))
    t->lower = low;
    switch (u) {
    case ',': t->kind = TK_GROUP; return 1;
    case '.': t->kind = TK_POINT; return 1;
    case '0': t->kind = TK_ZERO; return 1;
    case '9': t->kind = TK_NINE; return 1;
    case 'B': t->kind = TK_BLANK; return 1;
    case 'C': t->kind = TK_IGNORED; return 1;
    case 'D': t->kind = TK_POINT; return 1;
    case 'G': t->kind = TK_GROUP; return 1;
    case 'L': t->kind = TK_CURRENCY; return 1;
    case 'V': t->kind = TK_TIMES; return 1;
    case 'E':
        if (NEXT_IS(1, 'E') && NEXT_IS(2, 'E') && NEXT_IS(3, 'E')) { t->kind = TK_SCI; return 4; }
        return 0;
    case 'F': if (NEXT_IS(1, 'M')) { t->kind = TK_FILL; return 2; } return 0;
    case 'M': if (NEXT_IS(1, 'I')) { t->kind = TK_MI; return 2; } return 0;
    case 'P':
        if (NEXT_IS(1, 'L')) { t->kind = TK_PL; return 2; }
        if (NEXT_IS(1, 'R')) { t->kind = TK_PR; return 2; }
        return 0;
    case 'R': if (NEXT_IS(1, 'N')) { t->kind = TK_ROMAN; return 2; } return 0;
    case 'S':
        if (NEXT_IS(1, 'G')) { t->kind = TK_SG; return 2; }
        if (NEXT_IS(1, 'P')) { t->kind = TK_IGNORED; return 2; }
        t->kind = TK_S;
        return 1;
    case 'T': if (NEXT_IS(1, 'H')) { t->kind = TK_ORDINAL; return 2; } return 0;
    default: return 0;
    }
#undef NEXT_IS
}

static int bad_template(attu_error *err, const char *msg) {
    attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "%s", msg);
    return -1;
}

/* Adds one pattern to the layout, refusing the combinations PostgreSQL
 * refuses (with its messages, in its order of checking). */
static int shape_layout(layout *L, tok_kind k, attu_error *err) {
    if (L->sci && k != TK_SCI) return bad_template(err, "\"EEEE\" must be the last pattern used");
    switch (k) {
    case TK_NINE:
        if (L->angle) return bad_template(err, "\"9\" must be ahead of \"PR\"");
        if (L->times) L->v_digits++;
        else if (L->point) L->frac_slots++;
        else L->int_slots++;
        break;
    case TK_ZERO:
        /* a 0 after V counts as an ordinary digit slot, as PostgreSQL's */
        if (L->angle) return bad_template(err, "\"0\" must be ahead of \"PR\"");
        if (L->point) L->frac_slots++;
        else {
            if (L->first_zero < 0) L->first_zero = L->int_slots;
            L->int_slots++;
        }
        L->zero_through = L->int_slots + L->frac_slots;
        break;
    case TK_BLANK:
        if (L->int_slots == 0 && L->frac_slots == 0 && L->first_zero < 0) L->blank = true;
        break;
    case TK_POINT:
        if (L->point) return bad_template(err, "multiple decimal points");
        if (L->times) return bad_template(err, "cannot use \"V\" and decimal point together");
        L->point = true;
        break;
    case TK_FILL: L->fill = true; break;
    case TK_S:
        if (L->s_place != S_NONE) return bad_template(err, "cannot use \"S\" twice");
        if (L->pl || L->mi || L->angle)
            return bad_template(err, "cannot use \"S\" and \"PL\"/\"MI\"/\"SG\"/\"PR\" together");
        if (L->point) L->s_place = S_TRAILING;
        else { L->s_place = S_LEADING; L->s_after = L->int_slots; }
        break;
    case TK_MI:
        if (L->s_place != S_NONE) return bad_template(err, "cannot use \"S\" and \"MI\" together");
        L->mi = true;
        break;
    case TK_PL:
        if (L->s_place != S_NONE) return bad_template(err, "cannot use \"S\" and \"PL\" together");
        L->pl = true;
        break;
    case TK_SG:
        if (L->s_place != S_NONE) return bad_template(err, "cannot use \"S\" and \"SG\" together");
        L->mi = L->pl = true;
        break;
    case TK_PR:
        if (L->s_place != S_NONE || L->pl || L->mi)
            return bad_template(err, "cannot use \"PR\" and \"S\"/\"PL\"/\"MI\"/\"SG\" together");
        L->angle = true;
        break;
    case TK_ROMAN: L->roman = true; break;
    case TK_TIMES:
        if (L->point) return bad_template(err, "cannot use \"V\" and decimal point together");
        L->times = true;
        break;
    case TK_SCI:
        if (L->sci) return bad_template(err, "cannot use \"EEEE\" twice");
        if (L->blank || L->fill || L->s_place != S_NONE || L->angle || L->mi || L->pl || L->roman || L->times) {
            attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "\"EEEE\" is incompatible with other formats");
            attu_error_set_detail(err, "\"EEEE\" may only be used together with digit and decimal point patterns.");
            return -1;
        }
        L->sci = true;
        break;
    default: break;
    }
    return 0;
}

/* Appends one literal character (len bytes at byte off) to the token list,
 * extending the literal run that ends there if there is one. */
static void add_literal(tok *toks, int *n, uint32_t off, int len) {
    tok *last = *n ? &toks[*n - 1] : NULL;
    if (last && last->kind == TK_LITERAL && last->off + last->bytes == off) {
        last->bytes += (uint32_t)len;
        last->chars++;
        return;
    }
    toks[*n] = (tok){ .kind = TK_LITERAL, .off = off, .bytes = (uint32_t)len, .chars = 1 };
    (*n)++;
}

/* The template (NUL-terminated) into tokens (*ntok of them) and the layout.
 * Text in double quotes is literal, a backslash taking the next character
 * as it is; outside quotes \" is a literal quote. */
static int lex_template(const char *fmt, tok *toks, int *ntok, layout *L, attu_error *err) {
    memset(L, 0, sizeof *L);
    L->first_zero = -1;
    *ntok = 0;
    const char *s = fmt;
    while (*s) {
        tok t;
        int klen = keyword_at(s, &t);
        if (klen) {
            if (shape_layout(L, (tok_kind)t.kind, err)) return -1;
            toks[(*ntok)++] = t;
            s += klen;
            continue;
        }
        if (*s == '"') {
            for (s++; *s; ) {
                if (*s == '"') { s++; break; }
                if (*s == '\\' && s[1]) s++;
                int l = attu_utf8_seq_len(s);
                add_literal(toks, ntok, (uint32_t)(s - fmt), l);
                s += l;
            }
            continue;
        }
        if (*s == '\\' && s[1] == '"') s++;
        int l = attu_utf8_seq_len(s);
        add_literal(toks, ntok, (uint32_t)(s - fmt), l);
        s += l;
    }
    return 0;
}

/* The parsed template kept in the cache: the text, then the tokens */
typedef struct parsed_tpl { int ntok; tok toks[]; } parsed_tpl;

/* The template's tokens and layout (into *L, which each row may change),
 * parsed once while the rows bring the same template */
static const parsed_tpl *load_template(const char *fmt, size_t flen, layout *L, attu_fmt_cache *c, attu_error *err) {
    if (!(c->kind == 2 && c->fmt && c->flen == flen && !memcmp(c->fmt, fmt, flen))) {
        attu_fmt_cache_free(c);
        c->fmt = malloc(flen + 1);
        c->nodes = malloc(sizeof(parsed_tpl) + (flen + 1) * sizeof(tok));
        c->desc = malloc(sizeof(layout));
        if (!c->fmt || !c->nodes || !c->desc) { attu_fmt_cache_free(c); attu_error_oom(err); return NULL; }
        memcpy(c->fmt, fmt, flen);
        c->fmt[flen] = 0;
        c->flen = flen;
        parsed_tpl *pt = c->nodes;
        if (lex_template(c->fmt, pt->toks, &pt->ntok, c->desc, err)) { attu_fmt_cache_free(c); return NULL; }
        c->kind = 2;
    }
    *L = *(const layout *)c->desc;
    return c->nodes;
}

/* ---- to_char: painting the digit string into the tokens ----------------- */

typedef struct painter {
    layout     *L;
    const char *digits;    /* "123.45", "###.##", a roman numeral, ... */
    int         dpos;      /* the next character of digits to place */
    int         blanks;    /* integer slots the value has no digit for */
    int         slot;      /* digit / point slots painted so far */
    int         close_at;  /* the slot after which a trailing sign goes */
    int         keep_to;   /* FM: digits index of the last fraction digit kept; -1: all */
    char        sign;      /* '+', '-', or 0 (roman) */
    bool        sign_due;  /* the leading sign is still to be placed */
    bool        in_digits; /* the last slot printed a digit (a separator shows) */
    char       *o;         /* output cursor */
} painter;

/* Prints the leading sign before slot pt->slot when its place has come:
 * at the first slot with a digit (or the first 0 slot), and not ahead of a
 * fraction's lone leading zero (printed as a blank) unless FM empties it */
static void paint_lead_sign(painter *pt, bool lone_zero) {
    layout *L = pt->L;
    if (!pt->sign_due) return;
    bool here = pt->slot >= pt->blanks || (L->first_zero >= 0 && L->first_zero == pt->slot);
    bool fm_point_only = pt->keep_to >= 0 && pt->digits[pt->keep_to] == '.';
    if (!here || (lone_zero && !fm_point_only)) return;
    if (L->s_place != S_NONE) {
        if (L->s_place == S_LEADING) { *pt->o++ = pt->sign == '-' ? '-' : '+'; pt->sign_due = false; }
    } else if (L->angle) {
        *pt->o++ = pt->sign == '+' ? ' ' : '<';
        pt->sign_due = false;
    } else if (pt->sign == '+') {
        if (!L->fill) *pt->o++ = ' ';
        pt->sign_due = false;
    } else if (pt->sign == '-') {
        *pt->o++ = '-';
        pt->sign_due = false;
    }
}

/* One digit or point slot */
static void paint_slot(painter *pt, tok_kind k) {
    layout *L = pt->L;
    if (L->roman) return;
    pt->in_digits = false;
    /* the integer part is a lone 0 ahead of a fraction, with no 0 pattern */
    bool lone_zero = L->first_zero < 0 && pt->dpos == 0 && pt->digits[0] == '0' && L->frac_slots != 0;
    paint_lead_sign(pt, lone_zero);
    bool zero_fills = L->first_zero >= 0 && L->first_zero <= pt->slot;
    if (pt->slot < pt->blanks && !zero_fills) {
        if (!L->fill) *pt->o++ = ' ';
    } else if (pt->slot < pt->blanks) {
        *pt->o++ = '0';
        pt->in_digits = true;
    } else {
        char c = pt->digits[pt->dpos];
        if (c == '.') *pt->o++ = '.';
        else if (pt->keep_to >= 0 && pt->dpos > pt->keep_to && k != TK_ZERO)
            ;   /* FM drops the fraction's trailing zeros (not a 0 slot's) */
        else if (lone_zero) {
            if (!L->fill) *pt->o++ = ' ';
            else if (pt->keep_to >= 0 && pt->digits[pt->keep_to] == '.') *pt->o++ = '0';
        } else {
            /* past the digits this writes the string's NUL, which ends the
             * output there, as PostgreSQL's does */
            *pt->o++ = c;
            pt->in_digits = true;
        }
        if (c) pt->dpos++;
    }
    /* the trailing sign, after the last slot (none when FM's last kept
     * digit is the one just placed) */
    bool at_keep = pt->keep_to >= 0 && pt->keep_to == pt->dpos;
    if (!at_keep && pt->slot == pt->close_at) {
        if (!pt->sign_due && L->angle) *pt->o++ = pt->sign == '+' ? ' ' : '>';
        else if (L->s_place == S_TRAILING) *pt->o++ = pt->sign == '-' ? '-' : '+';
    }
    pt->slot++;
}

/* The ordinal suffix of the digit string's last digit */
static const char *ordinal_suffix(const char *num, bool lower) {
    size_t len = strlen(num);
    char d = len ? num[len - 1] : 0;
    if (len > 1 && num[len - 2] == '1') d = 0;   /* 11th, 12th, 13th */
    static const char *const up[] = { "TH", "ST", "ND", "RD" }, *const lo[] = { "th", "st", "nd", "rd" };
    int i = d >= '1' && d <= '3' ? d - '0' : 0;
    return lower ? lo[i] : up[i];
}

/* Index of the last fraction digit FM keeps: the last nonzero one, or the
 * point itself; but never before the last 0 slot's digit. -1: no point. */
static int fm_keep_to(const char *digits, const layout *L, int blanks) {
    const char *dot = strchr(digits, '.');
    if (!dot) return -1;
    int keep = (int)(dot - digits);
    for (int i = keep + 1; digits[i]; i++) if (digits[i] != '0') keep = i;
    if (L->zero_through > blanks) {
        int z = (int)strlen(digits) - 1;
        if (z > L->zero_through - blanks) z = L->zero_through - blanks;
        if (keep < z) keep = z;
    }
    return keep;
}

/* Writes the tokens with the digit string into out (NUL-terminated).
 * blanks: integer slots with no digit; sign: '+', '-' or 0. */
static int paint(const parsed_tpl *tp, const char *tpl, layout *L, char *out, const char *digits, int blanks, char sign,
                 attu_error *err) {
    if (L->sci) { strcpy(out, digits); return 0; }   /* EEEE: the number alone */
    if (L->roman) {
        /* RN prints only the numeral: the digit slots and signs are void */
        bool fill = L->fill;
        memset(L, 0, sizeof *L);
        L->first_zero = -1;
        L->fill = fill;
        L->roman = true;
        blanks = 0;
        sign = 0;
    }
    painter pt = { .L = L, .digits = digits, .blanks = blanks, .sign = sign, .keep_to = -1, .o = out };
    bool explicit_sign = L->pl || L->mi;
    if (explicit_sign) {
        pt.sign_due = L->pl && !L->mi;   /* PL alone still leaves the '-' to the digits */
    } else {
        if (sign != '-' && L->fill) L->angle = false;
        pt.sign_due = !(sign == '+' && L->fill && L->s_place == S_NONE);
        if (L->s_place == S_LEADING && L->int_slots == L->s_after) L->s_place = S_TRAILING;
    }
    if (L->fill && L->point) pt.keep_to = fm_keep_to(digits, L, blanks);
    pt.close_at = L->int_slots + L->frac_slots - 2 + (pt.sign_due && blanks == 0) + (blanks > 0) + L->point;

    for (int i = 0; i < tp->ntok; i++) {
        const tok *t = &tp->toks[i];
        switch ((tok_kind)t->kind) {
        case TK_LITERAL:
            memcpy(pt.o, tpl + t->off, t->bytes);
            pt.o += t->bytes;
            break;
        case TK_NINE: case TK_ZERO: case TK_POINT:
            paint_slot(&pt, (tok_kind)t->kind);
            break;
        case TK_GROUP:
            if (pt.in_digits) *pt.o++ = ',';
            else if (!L->fill) *pt.o++ = ' ';
            break;
        case TK_CURRENCY: *pt.o++ = ' '; break;
        case TK_ROMAN: {
            char buf[32];
            int n = snprintf(buf, sizeof buf, L->fill ? "%s" : "%15s", digits + pt.dpos);
            for (int j = 0; j < n; j++) {
                char c = buf[j];
                *pt.o++ = t->lower && c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
            }
            break;
        }
        case TK_ORDINAL: {
            if (L->roman || digits[0] == '#' || sign == '-' || L->point) break;
            size_t dl = strlen(digits);
            if (!dl || digits[dl - 1] < '0' || digits[dl - 1] > '9') {
                attu_error_set(err, ATTU_SQLSTATE_INVALID_TEXT_REP, 0, "\"%s\" is not a number", digits);
                return -1;
            }
            memcpy(pt.o, ordinal_suffix(digits, t->lower), 2);
            pt.o += 2;
            break;
        }
        case TK_MI:
            if (sign == '-') *pt.o++ = '-';
            else if (!L->fill) *pt.o++ = ' ';
            break;
        case TK_PL:
            if (sign == '+') *pt.o++ = '+';
            else if (!L->fill) *pt.o++ = ' ';
            break;
        case TK_SG: *pt.o++ = sign; break;   /* RN's absent sign writes a NUL, ending the output */
        default: break;
        }
    }
    *pt.o = 0;
    return 0;
}

/* ---- to_char: the value's digit string ------------------------------------ */

size_t attu_to_char_num_bound(size_t flen) { return flen * 8 + 64; }

/* n (1..3999) as a roman numeral; 15 '#' outside that range */
static void roman_numeral(int n, char *out) {
    static const struct { int value; const char *sym; } steps[] = {
        { 1000, "M" }, { 900, "CM" }, { 500, "D" }, { 400, "CD" }, { 100, "C" }, { 90, "XC" },
        { 50, "L" }, { 40, "XL" }, { 10, "X" }, { 9, "IX" }, { 5, "V" }, { 4, "IV" }, { 1, "I" },
    };
    if (n < 1 || n > 3999) { memset(out, '#', 15); out[15] = 0; return; }
    char *o = out;
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
        for (; n >= steps[i].value; n -= steps[i].value) {
            size_t l = strlen(steps[i].sym);
            memcpy(o, steps[i].sym, l);
            o += l;
        }
    *o = 0;
}

/* '#' for every digit slot, '.' at the point */
static char *overflow_marks(const layout *L) {
    int n = L->int_slots + L->frac_slots + 1;
    char *s = malloc((size_t)n + 1);
    if (!s) return NULL;
    memset(s, '#', (size_t)n);
    s[n] = 0;
    s[L->int_slots] = '.';
    return s;
}

/* printf's %.*f / %+.*e as PostgreSQL's own snprintf writes it ("NaN",
 * "Infinity", "-Infinity") */
static char *print_double(double v, int prec, const char *conv) {
    char buf[32];
    if (isnan(v)) return strdup("NaN");
    if (isinf(v)) return strdup(v > 0 ? "Infinity" : "-Infinity");
    int need = snprintf(buf, sizeof buf, conv, prec, v);
    char *s = malloc((size_t)need + 1);
    if (s) snprintf(s, (size_t)need + 1, conv, prec, v);
    return s;
}

/* numeric -> "digits[.digits]" (no sign) at post places, times 10^shift,
 * rounded half away from zero; *neg its sign (none for a zero) */
static char *numeric_digits(attu_numeric v, int shift, int post, bool *neg) {
    char buf[96];
    attu_numeric_format(v, buf, sizeof buf);
    const char *s = buf;
    *neg = *s == '-';
    if (*neg) s++;
    size_t total = strlen(s) + (size_t)shift + (size_t)post + 8;
    char *ip = calloc(total, 1), *fp = calloc(total, 1);
    if (!ip || !fp) { free(ip); free(fp); return NULL; }
    const char *dot = strchr(s, '.');
    size_t il = dot ? (size_t)(dot - s) : strlen(s);
    memcpy(ip, s, il);
    if (dot) strcpy(fp, dot + 1);
    for (int k = 0; k < shift; k++) {     /* the point moves right */
        size_t fl = strlen(fp);
        ip[il++] = fl ? fp[0] : '0';
        if (fl) memmove(fp, fp + 1, fl);
    }
    size_t fl = strlen(fp);
    bool up = fl > (size_t)post && fp[post] >= '5';
    if (fl > (size_t)post) fp[post] = 0;
    while (strlen(fp) < (size_t)post) strcat(fp, "0");
    if (up) {
        int k = post - 1;
        for (; k >= 0; k--) { if (fp[k] == '9') fp[k] = '0'; else { fp[k]++; break; } }
        if (k < 0) {
            int j = (int)il - 1;
            for (; j >= 0; j--) { if (ip[j] == '9') ip[j] = '0'; else { ip[j]++; break; } }
            if (j < 0) { memmove(ip + 1, ip, il + 1); ip[0] = '1'; il++; }
        }
    }
    /* leading zeros off, one kept */
    char *q = ip;
    while (q[0] == '0' && q[1]) q++;
    char *res = malloc(strlen(q) + (size_t)post + 3);
    if (res) {
        strcpy(res, q);
        if (post > 0) { strcat(res, "."); strcat(res, fp); }
        bool zero = true;
        for (char *c = res; *c; c++) if (*c >= '1' && *c <= '9') zero = false;
        if (zero) *neg = false;
    }
    free(ip);
    free(fp);
    return res;
}

/* numeric in scientific notation: d.ddd (post places) e+XX, rounded half
 * away from zero (a significand that rounds up to 10 stays 10.0, as
 * PostgreSQL's); a blank where a '+' sign would be */
static char *numeric_sci(attu_numeric v, int post) {
    char buf[96], digs[96];
    attu_numeric_format(v, buf, sizeof buf);
    const char *s = buf;
    bool neg = *s == '-';
    if (neg) s++;
    int nd = 0, intd = 0;
    bool seen_dot = false;
    for (const char *c = s; *c; c++) {
        if (*c == '.') { seen_dot = true; continue; }
        digs[nd++] = *c;
        if (!seen_dot) intd++;
    }
    int first = 0;
    while (first < nd && digs[first] == '0') first++;
    bool zero = first == nd;
    int expo = zero ? 0 : intd - 1 - first, keep = post + 1;
    char *kd = calloc((size_t)keep + 1, 1), *res = malloc((size_t)keep + 16);   /* calloc: keep >= 1, which the compiler cannot see */
    if (!kd || !res) { free(kd); free(res); return NULL; }
    for (int k = 0; k < keep; k++) kd[k] = !zero && first + k < nd ? digs[first + k] : '0';
    bool carry = false;
    if (!zero && first + keep < nd && digs[first + keep] >= '5') {
        int j = keep - 1;
        for (; j >= 0; j--) { if (kd[j] == '9') kd[j] = '0'; else { kd[j]++; break; } }
        carry = j < 0;
    }
    char *o = res;
    *o++ = neg && !zero ? '-' : ' ';
    if (carry) *o++ = '1';
    *o++ = kd[0];
    if (post > 0) { *o++ = '.'; memcpy(o, kd + 1, (size_t)post); o += post; }
    sprintf(o, "e%c%02d", expo < 0 ? '-' : '+', expo < 0 ? -expo : expo);
    free(kd);
    return res;
}

static int out_of_range(attu_error *err, const char *what) {
    return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "%s out of range", what);
}

/* RN's integer: the value as PostgreSQL's variant casts it to integer */
static int roman_source(attu_num_src src, int64_t ival, double fval, attu_numeric nv, int *iv, attu_error *err) {
    switch (src) {
    case ATTU_NUMSRC_INT4: *iv = (int)ival; return 0;
    case ATTU_NUMSRC_INT8:
        if (ival < INT32_MIN || ival > INT32_MAX) return out_of_range(err, "integer");
        *iv = (int)ival;
        return 0;
    case ATTU_NUMSRC_NUMERIC: {
        if (attu_numeric_is_special(nv)) return attu_numeric_special_error(nv, "integer", err);
        bool neg;
        char *r = numeric_digits(nv, 0, 0, &neg);
        if (!r) { attu_error_oom(err); return -1; }
        long long x = atoll(r);
        bool big = strlen(r) > 10 || x > (neg ? 2147483648LL : 2147483647LL);
        free(r);
        if (big) return out_of_range(err, "integer");
        *iv = (int)(neg ? -x : x);
        return 0;
    }
    default: {
        double r = rint(fval);   /* a float that is no integer reads as one out of range */
        *iv = isnan(r) || r >= 2147483648.0 || r < -2147483648.0 ? INT32_MIN : (int)r;
        return 0;
    }
    }
}

/* EEEE's string: numeric and bigint exactly (PostgreSQL formats a bigint
 * as numeric here: 95 in 9EEEE is " 10e+01"), the others through double */
static char *sci_string(attu_num_src src, int64_t ival, double fval, attu_numeric nv, const layout *L) {
    if (src == ATTU_NUMSRC_NUMERIC && !attu_numeric_is_special(nv)) return numeric_sci(nv, L->frac_slots);
    if (src == ATTU_NUMSRC_INT8) return numeric_sci((attu_numeric){ .m = ival, .dscale = 0 }, L->frac_slots);
    double v = src == ATTU_NUMSRC_NUMERIC ? attu_numeric_to_double(nv)     /* NaN, an infinity */
             : src == ATTU_NUMSRC_INT4 || src == ATTU_NUMSRC_INT8 ? (double)ival
             : src == ATTU_NUMSRC_FLOAT4 ? (double)(float)fval : fval;
    if (isnan(v) || isinf(v)) {
        /* " ##.##e+##"-shaped marks: a blank, the slots, the exponent */
        int n = L->int_slots + L->frac_slots + 6;
        char *s = malloc((size_t)n + 1);
        if (s) {
            memset(s, '#', (size_t)n);
            s[n] = 0;
            s[0] = ' ';
            s[L->int_slots + 1] = '.';
        }
        return s;
    }
    char *s = print_double(v, L->frac_slots, "%+.*e");
    if (s && *s == '+') *s = ' ';
    return s;
}

/* The plain digit string ("123.40", no sign) of an integer source, times
 * 10^V; *neg its sign. L->int_slots grows by V's digits. */
static char *integer_digits(attu_num_src src, int64_t ival, layout *L, bool *neg, attu_error *err) {
    int64_t v = ival;
    if (L->times) {
        double m = pow(10.0, L->v_digits);
        if (src == ATTU_NUMSRC_INT4) {
            int32_t mi = m >= 2147483648.0 ? INT32_MIN : (int32_t)m;
            v = (int32_t)(uint32_t)((uint32_t)(int32_t)ival * (uint32_t)mi);   /* int4 wraps, as PostgreSQL */
        } else {
            if (m >= 9223372036854775808.0) { out_of_range(err, "bigint"); return NULL; }
            if (__builtin_mul_overflow(ival, (int64_t)m, &v)) { out_of_range(err, "bigint"); return NULL; }
        }
        L->int_slots += L->v_digits;
    }
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    *neg = buf[0] == '-';
    const char *b = *neg ? buf + 1 : buf;
    size_t bl = strlen(b), fl = (size_t)L->frac_slots;
    char *s = malloc(bl + fl + 2);
    if (!s) { attu_error_oom(err); return NULL; }
    memcpy(s, b, bl + 1);
    if (fl) { s[bl] = '.'; memset(s + bl + 1, '0', fl); s[bl + 1 + fl] = 0; }
    return s;
}

/* A float's digit string: 6 (real) or 15 (double) significant digits at
 * most, the fraction shortened to fit (L->frac_slots follows) */
static char *float_digits(attu_num_src src, double fval, layout *L, bool *neg, attu_error *err) {
    bool real = src == ATTU_NUMSRC_FLOAT4;
    int sig = real ? 6 : 15;
    double v = real ? (double)(float)fval : fval;
    if (L->times) {
        if (real) v = (double)((float)v * (float)pow(10.0, L->v_digits));
        else v = v * pow(10.0, L->v_digits);
        L->int_slots += L->v_digits;
    }
    char *whole = print_double(fabs(v), 0, "%.*f");
    if (!whole) { attu_error_oom(err); return NULL; }
    int wl = (int)strlen(whole);
    free(whole);
    if (wl >= sig) L->frac_slots = 0;
    else if (wl + L->frac_slots > sig) L->frac_slots = sig - wl;
    char *s = print_double(v, L->frac_slots, "%.*f");
    if (!s) { attu_error_oom(err); return NULL; }
    *neg = s[0] == '-';
    char *r = strdup(*neg ? s + 1 : s);
    free(s);
    if (!r) attu_error_oom(err);
    return r;
}

long attu_to_char_num(attu_num_src src, int64_t ival, double fval, attu_numeric nv, const char *fmt, size_t flen,
                      char *out, attu_fmt_cache *cache, attu_error *err) {
    if (flen == 0) { out[0] = 0; return 0; }
    layout L;
    const parsed_tpl *tpl = load_template(fmt, flen, &L, cache, err);
    if (!tpl) return -1;
    char *digits = NULL;
    int blanks = 0;
    char sign = 0;
    if (L.roman) {
        int iv = 0;
        if (roman_source(src, ival, fval, nv, &iv, err)) return -1;
        if (!(digits = malloc(16))) { attu_error_oom(err); return -1; }
        roman_numeral(iv, digits);
    } else if (L.sci) {
        if (!(digits = sci_string(src, ival, fval, nv, &L))) { attu_error_oom(err); return -1; }
    } else {
        bool neg = false;
        if (src == ATTU_NUMSRC_INT4 || src == ATTU_NUMSRC_INT8) digits = integer_digits(src, ival, &L, &neg, err);
        else if (src == ATTU_NUMSRC_NUMERIC) {
            if (L.times) L.int_slots += L.v_digits;
            /* NaN and the infinities as numeric_to_char: their text in
             * the digits' place ("Infinity" is too wide for fewer than
             * eight slots: '#'s) */
            if (attu_numeric_is_special(nv)) {
                neg = nv.m < 0;
                digits = strdup(attu_numeric_is_nan(nv) ? "NaN" : "Infinity");
            } else digits = numeric_digits(nv, L.times ? L.v_digits : 0, L.frac_slots, &neg);
            if (!digits) attu_error_oom(err);
        } else digits = float_digits(src, fval, &L, &neg, err);
        if (!digits) return -1;
        sign = neg ? '-' : '+';
        const char *dot = strchr(digits, '.');
        int int_len = dot ? (int)(dot - digits) : (int)strlen(digits);
        if (int_len < L.int_slots) blanks = L.int_slots - int_len;
        else if (int_len > L.int_slots) {   /* too wide: '#' in every slot */
            free(digits);
            if (!(digits = overflow_marks(&L))) { attu_error_oom(err); return -1; }
        }
    }
    long ret = -1;
    if (!paint(tpl, cache->fmt, &L, out, digits, blanks, sign, err)) ret = (long)strlen(out);
    free(digits);
    return ret;
}

/* ---- to_number: reading the input along the tokens ---------------------- */

typedef struct reader {
    const layout *L;
    const char   *in, *end;   /* input cursor and its end */
    char         *num;        /* num[0]: the sign read (' ' none); digits follow */
    char         *w;          /* write cursor in num */
    int           int_read, frac_read;
    bool          seen_point;
} reader;

static bool at_end(const reader *r) { return r->in >= r->end; }

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Steps over up to n input characters that carry no data (anything but a
 * digit, ',', '.', '+', '-') */
static void skip_filler(reader *r, int n) {
    for (; n > 0 && !at_end(r); n--) {
        char c = *r->in;
        if (is_digit(c) || c == ',' || c == '.' || c == '+' || c == '-') break;
        r->in += attu_utf8_seq_len(r->in);
    }
}

/* A sign ahead of the first digit slot */
static void read_lead_sign(reader *r) {
    const layout *L = r->L;
    char c = *r->in;
    if (L->s_place == S_LEADING) {
        if (c == '-' || c == '+') { r->num[0] = c; r->in++; }
    } else if (c == '-' || (L->angle && c == '<')) {
        r->num[0] = '-';
        r->in++;
    } else if (c == '+') {
        r->num[0] = '+';
        r->in++;
    }
}

/* A sign right after the digits read so far: S's just past the digit it
 * follows; PL / MI / SG's where this slot found no digit */
static void read_trail_sign(reader *r, bool took) {
    const layout *L = r->L;
    if (L->s_place != S_NONE) {
        if (took && r->in + 1 < r->end && !is_digit(r->in[1]) && (r->in[1] == '-' || r->in[1] == '+')) {
            r->num[0] = r->in[1];
            r->in++;
        }
    } else if (!took && (L->pl || L->mi) && (*r->in == '-' || *r->in == '+')) {
        r->num[0] = *r->in;
    }
}

/* One digit or point slot over the input (the caller steps one byte on) */
static void read_slot(reader *r, tok_kind k) {
    const layout *L = r->L;
    bool took = false;
    if (at_end(r)) return;
    if (*r->in == ' ') r->in++;
    if (at_end(r)) return;
    if (r->num[0] == ' ' && (k == TK_ZERO || k == TK_NINE) && r->int_read + r->frac_read == 0) read_lead_sign(r);
    if (at_end(r)) return;
    char c = *r->in;
    if (is_digit(c)) {
        if (r->seen_point && r->frac_read == L->frac_slots) return;   /* the fraction is full */
        *r->w++ = c;
        if (r->seen_point) r->frac_read++;
        else r->int_read++;
        took = true;
    } else if (L->point && !r->seen_point && c == '.') {
        /* any slot takes the point, where the template has one */
        *r->w++ = '.';
        r->seen_point = true;
        took = true;
    }
    if (at_end(r)) return;
    if (r->num[0] == ' ' && r->int_read + r->frac_read > 0) read_trail_sign(r, took);
}

/* 22003 for a number attu's numeric cannot hold (PostgreSQL's message
 * for its own limit), the limit in the DETAIL */
static int numeric_limit(attu_error *err) {
    attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "value overflows numeric format");
    attu_error_set_detail(err, "attu's numeric holds %d digits (the zeros its display scale keeps among them), at most %d after the decimal point.",
                          ATTU_NUMERIC_MAX_DIGITS, ATTU_NUMERIC_MAX_DIGITS);
    return -1;
}

/* The text read ("-123.45") as numeric(precision, scale) of the template's
 * digits, then scaled down by V's power of ten */
static int finish_number(const char *text, const layout *L, int scale, attu_numeric *out, attu_error *err) {
    int precision = L->int_slots + L->v_digits + scale;
    attu_numeric v;
    /* PostgreSQL's numeric keeps every digit read (up to 131072 before
     * the point and 16383 after); attu's holds 36 significant digits, at
     * most 36 of them after the point. A result past that is the error
     * PostgreSQL gives past its own limit, never a rounded value: more
     * places than 36 are refused here, as numeric input would round them */
    if (scale > ATTU_NUMERIC_MAX_DIGITS) return numeric_limit(err);
    if (attu_numeric_parse(text, strlen(text), &v, err)) {
        if (!strcmp(err->sqlstate, ATTU_SQLSTATE_INVALID_TEXT_REP)) {   /* the whole text, as numeric_in quotes it */
            attu_error_clear(err);
            attu_error_set(err, ATTU_SQLSTATE_INVALID_TEXT_REP, 0, "invalid input syntax for type numeric: \"%s\"", text);
        } else if (!strcmp(err->sqlstate, ATTU_SQLSTATE_NUMERIC_RANGE)) {
            attu_error_clear(err);
            return numeric_limit(err);
        }
        return -1;
    }
    if (v.dscale > scale && attu_numeric_round(v, scale, &v, err)) return -1;
    char buf[96];
    attu_numeric_format(v, buf, sizeof buf);
    const char *b = buf + (buf[0] == '-');
    int intd = 0;
    while (b[intd] && b[intd] != '.') intd++;
    if (intd == 1 && b[0] == '0') intd = 0;
    if (intd > precision - scale) {
        return attu_numeric_field_overflow(precision, scale, err);
    }
    if (L->times) {
        /* PostgreSQL multiplies by power(10, -V), which it holds at 16
         * places: the value / 10^V at dscale 16 (0 past 16 places) */
        __int128 lim = 1;     /* 10^35: a value below it times 10 keeps 36 digits */
        for (int k = 0; k < ATTU_NUMERIC_MAX_DIGITS - 1; k++) lim *= 10;
        if (L->v_digits > 16) v.m = 0;
        else for (int k = 0; k < 16 - L->v_digits; k++) {
            if (v.m >= lim || v.m <= -lim) return numeric_limit(err);
            v.m *= 10;
        }
        v.dscale = 16;
    }
    *out = v;
    return 0;
}

int attu_to_number(const char *str, size_t slen, const char *fmt, size_t flen, attu_numeric *out, int *is_null,
                   attu_fmt_cache *cache, attu_error *err) {
    *is_null = 0;
    if (flen == 0) { *is_null = 1; return 0; }
    layout L;
    const parsed_tpl *tpl = load_template(fmt, flen, &L, cache, err);
    if (!tpl) return -1;
    if (L.sci) return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "\"EEEE\" not supported for input");
    if (L.roman) return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "\"RN\" not supported for input");
    char *in = malloc(slen + 1), *num = malloc(flen * 8 + slen + 4);
    int rc = -1;
    if (!in || !num) { attu_error_oom(err); goto done; }
    memcpy(in, str, slen);
    in[slen] = 0;
    num[0] = ' ';
    reader r = { .L = &L, .in = in, .end = in + slen, .num = num, .w = num + 1 };
    for (int i = 0; i < tpl->ntok && !at_end(&r); i++) {
        const tok *t = &tpl->toks[i];
        switch ((tok_kind)t->kind) {
        case TK_LITERAL:   /* one input character per template character */
            for (uint32_t j = 0; j < t->chars && !at_end(&r); j++) r.in += attu_utf8_seq_len(r.in);
            break;
        case TK_NINE: case TK_ZERO: case TK_POINT:
            read_slot(&r, (tok_kind)t->kind);
            r.in++;
            break;
        case TK_GROUP:   /* a separator is passed only where the input has one (never under FM) */
            if (!L.fill && *r.in == ',') r.in++;
            break;
        case TK_CURRENCY: skip_filler(&r, 1); break;
        case TK_ORDINAL: if (!L.point) skip_filler(&r, 2); break;
        case TK_MI: case TK_PL: case TK_SG: {
            char c = *r.in;
            bool hit = (c == '-' && t->kind != TK_PL) || (c == '+' && t->kind != TK_MI);
            if (hit) { num[0] = c; r.in++; }
            else skip_filler(&r, 1);
            break;
        }
        default: break;
        }
    }
    if (r.w[-1] == '.') r.w[-1] = 0;   /* a point with no fraction after it */
    else *r.w = 0;
    rc = finish_number(num, &L, r.frac_read, out, err);
done:
    free(in);
    free(num);
    return rc;
}
