/*
 * numeric_format.c - to_char of numbers and to_number, as PostgreSQL 15
 * documents and answers them (numeric_format.h).
 *
 * A template is read into nodes (patterns, case-insensitive but for rn /
 * th, which print lowercase) and a description: digits before and after
 * the point, where zero filling starts, the sign's form. The value becomes
 * a digit string rounded to the template's places, and one pass over the
 * nodes writes it: blanks (or zeros, after a 0) for the digits it lacks,
 * the sign before the first digit (or after the last, for S there, PR,
 * MI, PL), separators only between digits.
 */
#include "engine/numeric_format.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N_END, N_ACTION, N_CHAR };

typedef enum {
    P_COMMA, P_DEC, P_0, P_9, P_B, P_C, P_D, P_E, P_FM, P_G, P_L, P_MI, P_PL, P_PR, P_RN, P_SG, P_SP, P_S, P_TH, P_V,
    P_rn, P_th
} pid;

typedef struct pkw { const char *name; int len; pid id; } pkw;

static const pkw pkws[] = {
    { ",", 1, P_COMMA }, { ".", 1, P_DEC }, { "0", 1, P_0 }, { "9", 1, P_9 }, { "B", 1, P_B }, { "C", 1, P_C },
    { "D", 1, P_D }, { "EEEE", 4, P_E }, { "FM", 2, P_FM }, { "G", 1, P_G }, { "L", 1, P_L }, { "MI", 2, P_MI },
    { "PL", 2, P_PL }, { "PR", 2, P_PR }, { "RN", 2, P_RN }, { "SG", 2, P_SG }, { "SP", 2, P_SP }, { "S", 1, P_S },
    { "TH", 2, P_TH }, { "V", 1, P_V },
    { "b", 1, P_B }, { "c", 1, P_C }, { "d", 1, P_D }, { "eeee", 4, P_E }, { "fm", 2, P_FM }, { "g", 1, P_G },
    { "l", 1, P_L }, { "mi", 2, P_MI }, { "pl", 2, P_PL }, { "pr", 2, P_PR }, { "rn", 2, P_rn }, { "sg", 2, P_SG },
    { "sp", 2, P_SP }, { "s", 1, P_S }, { "th", 2, P_th }, { "v", 1, P_V },
};

#define F_DECIMAL  (1 << 1)
#define F_LDECIMAL (1 << 2)
#define F_ZERO     (1 << 3)
#define F_BLANK    (1 << 4)
#define F_FILLMODE (1 << 5)
#define F_LSIGN    (1 << 6)
#define F_BRACKET  (1 << 7)
#define F_MINUS    (1 << 8)
#define F_PLUS     (1 << 9)
#define F_ROMAN    (1 << 10)
#define F_MULTI    (1 << 11)
#define F_PLUS_POST  (1 << 12)
#define F_MINUS_POST (1 << 13)
#define F_EEEE     (1 << 14)

enum { LSIGN_NONE, LSIGN_PRE, LSIGN_POST };

typedef struct numdesc { int pre, post, lsign, flag, pre_lsign_num, multi, zero_start, zero_end; } numdesc;

typedef struct pnode { uint8_t type; pid key; char ch[5]; } pnode;

static int mblen_utf8(const char *s) {
    unsigned char c = (unsigned char)*s;
    int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    for (int i = 1; i < n; i++) if (!s[i]) return i;
    return n;
}

static int syntax(attu_error *err, const char *msg) {
    attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "%s", msg);
    return -1;
}

/* One pattern into the description, with PostgreSQL's checks */
static int describe(numdesc *d, pid id, attu_error *err) {
    if ((d->flag & F_EEEE) && id != P_E) return syntax(err, "\"EEEE\" must be the last pattern used");
    switch (id) {
    case P_9:
        if (d->flag & F_BRACKET) return syntax(err, "\"9\" must be ahead of \"PR\"");
        if (d->flag & F_MULTI) { d->multi++; break; }
        if (d->flag & F_DECIMAL) d->post++;
        else d->pre++;
        break;
    case P_0:
        if (d->flag & F_BRACKET) return syntax(err, "\"0\" must be ahead of \"PR\"");
        if (!(d->flag & F_ZERO) && !(d->flag & F_DECIMAL)) { d->flag |= F_ZERO; d->zero_start = d->pre + 1; }
        if (!(d->flag & F_DECIMAL)) d->pre++;
        else d->post++;
        d->zero_end = d->pre + d->post;
        break;
    case P_B:
        if (d->pre == 0 && d->post == 0 && !(d->flag & F_ZERO)) d->flag |= F_BLANK;
        break;
    case P_D: d->flag |= F_LDECIMAL; /* fallthrough */
    case P_DEC:
        if (d->flag & F_DECIMAL) return syntax(err, "multiple decimal points");
        if (d->flag & F_MULTI) return syntax(err, "cannot use \"V\" and decimal point together");
        d->flag |= F_DECIMAL;
        break;
    case P_FM: d->flag |= F_FILLMODE; break;
    case P_S:
        if (d->flag & F_LSIGN) return syntax(err, "cannot use \"S\" twice");
        if (d->flag & (F_PLUS | F_MINUS | F_BRACKET)) return syntax(err, "cannot use \"S\" and \"PL\"/\"MI\"/\"SG\"/\"PR\" together");
        if (!(d->flag & F_DECIMAL)) { d->lsign = LSIGN_PRE; d->pre_lsign_num = d->pre; d->flag |= F_LSIGN; }
        else if (d->lsign == LSIGN_NONE) { d->lsign = LSIGN_POST; d->flag |= F_LSIGN; }
        break;
    case P_MI:
        if (d->flag & F_LSIGN) return syntax(err, "cannot use \"S\" and \"MI\" together");
        d->flag |= F_MINUS;
        if (d->flag & F_DECIMAL) d->flag |= F_MINUS_POST;
        break;
    case P_PL:
        if (d->flag & F_LSIGN) return syntax(err, "cannot use \"S\" and \"PL\" together");
        d->flag |= F_PLUS;
        if (d->flag & F_DECIMAL) d->flag |= F_PLUS_POST;
        break;
    case P_SG:
        if (d->flag & F_LSIGN) return syntax(err, "cannot use \"S\" and \"SG\" together");
        d->flag |= F_MINUS | F_PLUS;
        break;
    case P_PR:
        if (d->flag & (F_LSIGN | F_PLUS | F_MINUS)) return syntax(err, "cannot use \"PR\" and \"S\"/\"PL\"/\"MI\"/\"SG\" together");
        d->flag |= F_BRACKET;
        break;
    case P_RN: case P_rn: d->flag |= F_ROMAN; break;
    case P_V:
        if (d->flag & F_DECIMAL) return syntax(err, "cannot use \"V\" and decimal point together");
        d->flag |= F_MULTI;
        break;
    case P_E:
        if (d->flag & F_EEEE) return syntax(err, "cannot use \"EEEE\" twice");
        if (d->flag & (F_BLANK | F_FILLMODE | F_LSIGN | F_BRACKET | F_MINUS | F_PLUS | F_ROMAN | F_MULTI)) {
            attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "\"EEEE\" is incompatible with other formats");
            attu_error_set_detail(err, "\"EEEE\" may only be used together with digit and decimal point patterns.");
            return -1;
        }
        d->flag |= F_EEEE;
        break;
    default: break;
    }
    return 0;
}

/* The template (NUL-terminated) into nodes and its description */
static int parse_num_template(const char *str, pnode *n, numdesc *d, attu_error *err) {
    memset(d, 0, sizeof *d);
    while (*str) {
        const pkw *k = NULL;
        for (size_t i = 0; i < sizeof pkws / sizeof *pkws; i++)
            if (pkws[i].name[0] == *str && !strncmp(str, pkws[i].name, (size_t)pkws[i].len)) { k = &pkws[i]; break; }
        if (k) {
            n->type = N_ACTION;
            n->key = k->id;
            str += k->len;
            if (describe(d, k->id, err)) return -1;
            n++;
        } else if (*str == '"') {
            str++;
            while (*str) {
                if (*str == '"') { str++; break; }
                if (*str == '\\' && str[1]) str++;
                int l = mblen_utf8(str);
                n->type = N_CHAR;
                memcpy(n->ch, str, (size_t)l);
                n->ch[l] = 0;
                n++;
                str += l;
            }
        } else {
            if (*str == '\\' && str[1] == '"') str++;
            int l = mblen_utf8(str);
            n->type = N_CHAR;
            memcpy(n->ch, str, (size_t)l);
            n->ch[l] = 0;
            n++;
            str += l;
        }
    }
    n->type = N_END;
    return 0;
}

/* The template's nodes and description (into *d, which the rows change),
 * parsed once while the rows bring the same one */
static const pnode *cached_template(const char *fmt, size_t flen, numdesc *d, attu_fmt_cache *c, attu_error *err) {
    if (!(c->kind == 2 && c->fmt && c->flen == flen && !memcmp(c->fmt, fmt, flen))) {
        attu_fmt_cache_free(c);
        c->fmt = malloc(flen + 1);
        c->nodes = malloc((flen + 1) * sizeof(pnode));
        c->desc = malloc(sizeof(numdesc));
        if (!c->fmt || !c->nodes || !c->desc) { attu_fmt_cache_free(c); attu_error_oom(err); return NULL; }
        memcpy(c->fmt, fmt, flen);
        c->fmt[flen] = 0;
        c->flen = flen;
        if (parse_num_template(c->fmt, c->nodes, c->desc, err)) { attu_fmt_cache_free(c); return NULL; }
        c->kind = 2;
    }
    *d = *(const numdesc *)c->desc;
    return c->nodes;
}

/* ---- the pass over the nodes ------------------------------------------ */

typedef struct proc {
    bool to_char;
    numdesc *num;
    int sign;                 /* '+' or '-' (to_char); to_number: unused */
    bool sign_wrote, num_in, read_dec;
    int num_count, num_curr, out_pre_spaces, read_post, read_pre;
    char *number, *number_p, *inout, *inout_p;
    const char *last_relevant;
    attu_error *err;
} proc;

#define IS_PREDEC_SPACE(p) (!((p)->num->flag & F_ZERO) && (p)->number == (p)->number_p && *(p)->number == '0' && \
                            (p)->num->post != 0)

static const char *last_relevant_dec(const char *num) {
    const char *p = strchr(num, '.');
    if (!p) return NULL;
    const char *r = p;
    while (*++p) if (*p != '0') r = p;
    return r;
}

static void numpart_to_char(proc *p, pid id) {
    numdesc *d = p->num;
    if (d->flag & F_ROMAN) return;
    p->num_in = false;
    if (!p->sign_wrote &&
        (p->num_curr >= p->out_pre_spaces || ((d->flag & F_ZERO) && d->zero_start == p->num_curr)) &&
        (!IS_PREDEC_SPACE(p) || (p->last_relevant && *p->last_relevant == '.'))) {
        if (d->flag & F_LSIGN) {
            if (d->lsign == LSIGN_PRE) {
                *p->inout_p++ = p->sign == '-' ? '-' : '+';
                p->sign_wrote = true;
            }
        } else if (d->flag & F_BRACKET) {
            *p->inout_p++ = p->sign == '+' ? ' ' : '<';
            p->sign_wrote = true;
        } else if (p->sign == '+') {
            if (!(d->flag & F_FILLMODE)) *p->inout_p++ = ' ';
            p->sign_wrote = true;
        } else if (p->sign == '-') {
            *p->inout_p++ = '-';
            p->sign_wrote = true;
        }
    }
    if (p->num_curr < p->out_pre_spaces && (d->zero_start > p->num_curr || !(d->flag & F_ZERO))) {
        if (!(d->flag & F_FILLMODE)) *p->inout_p++ = ' ';
    } else if ((d->flag & F_ZERO) && p->num_curr < p->out_pre_spaces && d->zero_start <= p->num_curr) {
        *p->inout_p++ = '0';
        p->num_in = true;
    } else {
        if (*p->number_p == '.') {
            if (!p->last_relevant || *p->last_relevant != '.') *p->inout_p++ = '.';
            else if ((d->flag & F_FILLMODE) && p->last_relevant && *p->last_relevant == '.') *p->inout_p++ = '.';
        } else {
            if (p->last_relevant && p->number_p > p->last_relevant && id != P_0)
                ;
            else if (IS_PREDEC_SPACE(p)) {
                if (!(d->flag & F_FILLMODE)) *p->inout_p++ = ' ';
                else if (p->last_relevant && *p->last_relevant == '.') *p->inout_p++ = '0';
            } else {
                *p->inout_p++ = *p->number_p;     /* may be the NUL past the digits, as PostgreSQL */
                p->num_in = true;
            }
        }
        if (*p->number_p) p->number_p++;
    }
    int end = p->num_count + (p->out_pre_spaces ? 1 : 0) + ((d->flag & F_DECIMAL) ? 1 : 0);
    if (p->last_relevant && p->last_relevant == p->number_p) end = p->num_curr;
    if (p->num_curr + 1 == end) {
        if (p->sign_wrote && (d->flag & F_BRACKET)) *p->inout_p++ = p->sign == '+' ? ' ' : '>';
        else if ((d->flag & F_LSIGN) && d->lsign == LSIGN_POST) *p->inout_p++ = p->sign == '-' ? '-' : '+';
    }
    p->num_curr++;
}

static const char *th_of(const char *num, bool upper) {
    size_t len = strlen(num);
    char last = len ? num[len - 1] : 0;
    if (len > 1 && num[len - 2] == '1') last = 0;
    switch (last) {
    case '1': return upper ? "ST" : "st";
    case '2': return upper ? "ND" : "nd";
    case '3': return upper ? "RD" : "rd";
    default: return upper ? "TH" : "th";
    }
}

static int run_to_char(const pnode *nodes, numdesc *d, char *out, char *number, int out_pre_spaces, int sign,
                       attu_error *err) {
    proc p;
    memset(&p, 0, sizeof p);
    p.to_char = true;
    p.num = d;
    p.number = p.number_p = number;
    p.inout = p.inout_p = out;
    p.err = err;
    if (d->zero_start) d->zero_start--;
    if (d->flag & F_EEEE) { strcpy(out, number); return 0; }
    if (d->flag & F_ROMAN) {
        d->lsign = d->pre_lsign_num = d->post = d->pre = 0;
        out_pre_spaces = 0;
        d->flag = (d->flag & F_FILLMODE) | F_ROMAN;
        sign = 0;
    }
    p.sign = sign;
    if (d->flag & (F_PLUS | F_MINUS)) {
        p.sign_wrote = !((d->flag & F_PLUS) && !(d->flag & F_MINUS));
    } else {
        if (p.sign != '-' && (d->flag & F_FILLMODE)) d->flag &= ~F_BRACKET;
        p.sign_wrote = p.sign == '+' && (d->flag & F_FILLMODE) && !(d->flag & F_LSIGN);
        if (d->lsign == LSIGN_PRE && d->pre == d->pre_lsign_num) d->lsign = LSIGN_POST;
    }
    p.num_count = d->post + d->pre - 1;
    p.out_pre_spaces = out_pre_spaces;
    if ((d->flag & F_FILLMODE) && (d->flag & F_DECIMAL)) {
        p.last_relevant = last_relevant_dec(p.number);
        if (p.last_relevant && d->zero_end > p.out_pre_spaces) {
            int last_zero_pos = (int)strlen(p.number) - 1;
            if (last_zero_pos > d->zero_end - p.out_pre_spaces) last_zero_pos = d->zero_end - p.out_pre_spaces;
            const char *lz = p.number + last_zero_pos;
            if (p.last_relevant < lz) p.last_relevant = lz;
        }
    }
    if (!p.sign_wrote && p.out_pre_spaces == 0) p.num_count++;
    for (const pnode *n = nodes; n->type != N_END; n++) {
        if (n->type != N_ACTION) {
            size_t l = strlen(n->ch);
            memcpy(p.inout_p, n->ch, l);
            p.inout_p += l;
            continue;
        }
        switch (n->key) {
        case P_9: case P_0: case P_DEC: case P_D:
            numpart_to_char(&p, n->key);
            continue;
        case P_COMMA: case P_G:
            if (!p.num_in) {
                if (d->flag & F_FILLMODE) continue;
                *p.inout_p = ' ';
            } else *p.inout_p = ',';
            break;
        case P_L: *p.inout_p = ' '; break;
        case P_RN: case P_rn: {
            char buf[32];
            snprintf(buf, sizeof buf, (d->flag & F_FILLMODE) ? "%s" : "%15s", p.number_p);
            if (n->key == P_rn) for (char *c = buf; *c; c++) if (*c >= 'A' && *c <= 'Z') *c = (char)(*c + 32);
            size_t l = strlen(buf);
            memcpy(p.inout_p, buf, l);
            p.inout_p += l;
            continue;
        }
        case P_TH: case P_th:
            if ((d->flag & F_ROMAN) || *p.number == '#' || p.sign == '-' || (d->flag & F_DECIMAL)) continue;
            {
                size_t nl = strlen(p.number);
                if (!nl || p.number[nl - 1] < '0' || p.number[nl - 1] > '9') {
                    attu_error_set(p.err, ATTU_SQLSTATE_INVALID_TEXT_REP, 0, "\"%s\" is not a number", p.number);
                    return -1;
                }
            }
            memcpy(p.inout_p, th_of(p.number, n->key == P_TH), 2);
            p.inout_p += 1;
            break;
        case P_MI:
            if (p.sign == '-') *p.inout_p = '-';
            else if (d->flag & F_FILLMODE) continue;
            else *p.inout_p = ' ';
            break;
        case P_PL:
            if (p.sign == '+') *p.inout_p = '+';
            else if (d->flag & F_FILLMODE) continue;
            else *p.inout_p = ' ';
            break;
        case P_SG: *p.inout_p = (char)p.sign; break;
        default: continue;
        }
        p.inout_p++;
    }
    *p.inout_p = 0;
    return 0;
}

/* ---- to_char ----------------------------------------------------------- */

size_t attu_to_char_num_bound(size_t flen) { return flen * 8 + 64; }

static void int_to_roman(int number, char *out) {
    static const char *const rm1[] = { "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX" };
    static const char *const rm10[] = { "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC" };
    static const char *const rm100[] = { "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM" };
    out[0] = 0;
    if (number > 3999 || number < 1) { memset(out, '#', 15); out[15] = 0; return; }
    for (int i = 0; i < number / 1000; i++) strcat(out, "M");
    int h = number / 100 % 10, t = number / 10 % 10, o = number % 10;
    if (h) strcat(out, rm100[h - 1]);
    if (t) strcat(out, rm10[t - 1]);
    if (o) strcat(out, rm1[o - 1]);
}

/* '#' for every digit place, '.' at the point */
static char *hash_fill(const numdesc *d) {
    char *s = malloc((size_t)(d->pre + d->post + 2));
    if (!s) return NULL;
    memset(s, '#', (size_t)(d->pre + d->post + 1));
    s[d->pre + d->post + 1] = 0;
    s[d->pre] = '.';
    return s;
}

/* printf's %.*f as PostgreSQL's own snprintf writes it ("NaN",
 * "Infinity", "-Infinity") */
static char *fmt_f(double v, int prec, const char *conv) {
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

/* numeric_out_sci: d.ddd (post places) e+XX, rounded half away from zero
 * (a significand that rounds up to 10 stays 10.0, as PostgreSQL's) */
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
    char *kd = malloc((size_t)keep + 1), *res = malloc((size_t)keep + 16);
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

static int range_error(attu_error *err, const char *what) {
    return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "%s out of range", what);
}

long attu_to_char_num(attu_num_src src, int64_t ival, double fval, attu_numeric nv, const char *fmt, size_t flen,
                      char *out, attu_fmt_cache *cache, attu_error *err) {
    if (flen == 0) { out[0] = 0; return 0; }
    numdesc d;
    const pnode *nodes = cached_template(fmt, flen, &d, cache, err);
    if (!nodes) return -1;
    long ret = -1;
    char *numstr = NULL;
    int out_pre_spaces = 0, sign = 0;
    if (d.flag & F_ROMAN) {
        int iv;
        if (src == ATTU_NUMSRC_INT4) iv = (int)ival;
        else if (src == ATTU_NUMSRC_INT8) {
            if (ival < INT32_MIN || ival > INT32_MAX) { range_error(err, "integer"); goto done; }
            iv = (int)ival;
        } else if (src == ATTU_NUMSRC_NUMERIC) {
            bool neg;
            char *r = numeric_digits(nv, 0, 0, &neg);
            if (!r) { attu_error_oom(err); goto done; }
            bool big = strlen(r) > 10 || atoll(r) > (neg ? 2147483648LL : 2147483647LL);
            long long x = atoll(r);
            free(r);
            if (big) { range_error(err, "integer"); goto done; }
            iv = (int)(neg ? -x : x);
        } else {
            double r = rint(fval);
            iv = isnan(r) || r >= 2147483648.0 || r < -2147483648.0 ? INT32_MIN : (int)r;
        }
        if (!(numstr = malloc(16))) { attu_error_oom(err); goto done; }
        int_to_roman(iv, numstr);
    } else if (d.flag & F_EEEE) {
        if (src == ATTU_NUMSRC_NUMERIC) numstr = numeric_sci(nv, d.post);
        else {
            double v = src == ATTU_NUMSRC_INT4 || src == ATTU_NUMSRC_INT8 ? (double)ival
                     : src == ATTU_NUMSRC_FLOAT4 ? (double)(float)fval : fval;
            if (isnan(v) || isinf(v)) {
                if ((numstr = malloc((size_t)(d.pre + d.post + 7)))) {
                    memset(numstr, '#', (size_t)(d.pre + d.post + 6));
                    numstr[d.pre + d.post + 6] = 0;
                    numstr[0] = ' ';
                    numstr[d.pre + 1] = '.';
                }
            } else if ((numstr = fmt_f(v, d.post, "%+.*e")) && *numstr == '+') *numstr = ' ';
        }
        if (!numstr) { attu_error_oom(err); goto done; }
    } else {
        char *digits = NULL;
        bool neg = false;
        if (src == ATTU_NUMSRC_INT4 || src == ATTU_NUMSRC_INT8) {
            int64_t v = ival;
            if (d.flag & F_MULTI) {
                if (src == ATTU_NUMSRC_INT4) {
                    double m = pow(10.0, d.multi);
                    int32_t mi = m >= 2147483648.0 ? INT32_MIN : (int32_t)m;
                    v = (int32_t)(uint32_t)((uint32_t)(int32_t)ival * (uint32_t)mi);   /* int4 wraps, as PostgreSQL */
                } else {
                    double m = pow(10.0, d.multi);
                    if (m >= 9223372036854775808.0) { range_error(err, "bigint"); goto done; }
                    int64_t mi = (int64_t)m;
                    if (__builtin_mul_overflow(ival, mi, &v)) { range_error(err, "bigint"); goto done; }
                }
                d.pre += d.multi;
            }
            char buf[32];
            snprintf(buf, sizeof buf, "%lld", (long long)v);
            neg = buf[0] == '-';
            const char *b = neg ? buf + 1 : buf;
            size_t pl = strlen(b);
            if (!(digits = malloc(pl + (size_t)d.post + 2))) { attu_error_oom(err); goto done; }
            strcpy(digits, b);
            if (d.post) { digits[pl] = '.'; memset(digits + pl + 1, '0', (size_t)d.post); digits[pl + 1 + (size_t)d.post] = 0; }
        } else if (src == ATTU_NUMSRC_NUMERIC) {
            if (d.flag & F_MULTI) d.pre += d.multi;
            if (!(digits = numeric_digits(nv, (d.flag & F_MULTI) ? d.multi : 0, d.post, &neg))) { attu_error_oom(err); goto done; }
        } else {
            bool f4 = src == ATTU_NUMSRC_FLOAT4;
            int dig = f4 ? 6 : 15;
            double v = f4 ? (double)(float)fval : fval;
            if (d.flag & F_MULTI) {
                if (f4) v = (double)((float)v * (float)pow(10.0, d.multi));
                else v = v * pow(10.0, d.multi);
                d.pre += d.multi;
            }
            char *o = fmt_f(fabs(v), 0, "%.*f");
            if (!o) { attu_error_oom(err); goto done; }
            int pl = (int)strlen(o);
            free(o);
            if (pl >= dig) d.post = 0;
            else if (pl + d.post > dig) d.post = dig - pl;
            char *s = fmt_f(v, d.post, "%.*f");
            if (!s) { attu_error_oom(err); goto done; }
            neg = s[0] == '-';
            digits = strdup(neg ? s + 1 : s);
            free(s);
            if (!digits) { attu_error_oom(err); goto done; }
        }
        sign = neg ? '-' : '+';
        const char *dot = strchr(digits, '.');
        int pre_len = dot ? (int)(dot - digits) : (int)strlen(digits);
        if (pre_len < d.pre) { out_pre_spaces = d.pre - pre_len; numstr = digits; }
        else if (pre_len > d.pre) {
            free(digits);
            if (!(numstr = hash_fill(&d))) { attu_error_oom(err); goto done; }
        } else numstr = digits;
    }
    if (run_to_char(nodes, &d, out, numstr, out_pre_spaces, sign, err)) goto done;
    ret = (long)strlen(out);
done:
    free(numstr);
    return ret;
}

/* ---- to_number --------------------------------------------------------- */

#define OVERLOAD(p, end) ((p)->inout_p >= (end))

static void numpart_from_char(proc *p, pid id, const char *end) {
    numdesc *d = p->num;
    bool isread = false;
    if (OVERLOAD(p, end)) return;
    if (*p->inout_p == ' ') p->inout_p++;
    if (OVERLOAD(p, end)) return;
    if (*p->number == ' ' && (id == P_0 || id == P_9) && p->read_pre + p->read_post == 0) {
        if ((d->flag & F_LSIGN) && d->lsign == LSIGN_PRE) {
            if (*p->inout_p == '-') { p->inout_p++; *p->number = '-'; }
            else if (*p->inout_p == '+') { p->inout_p++; *p->number = '+'; }
        } else {
            if (*p->inout_p == '-' || ((d->flag & F_BRACKET) && *p->inout_p == '<')) { *p->number = '-'; p->inout_p++; }
            else if (*p->inout_p == '+') { *p->number = '+'; p->inout_p++; }
        }
    }
    if (OVERLOAD(p, end)) return;
    if (*p->inout_p >= '0' && *p->inout_p <= '9') {
        if (p->read_dec && p->read_post == d->post) return;
        *p->number_p++ = *p->inout_p;
        if (p->read_dec) p->read_post++;
        else p->read_pre++;
        isread = true;
    } else if ((d->flag & F_DECIMAL) && !p->read_dec) {
        if (*p->inout_p == '.') {
            *p->number_p++ = '.';
            p->read_dec = true;
            isread = true;
        }
    }
    if (OVERLOAD(p, end)) return;
    if (*p->number == ' ' && p->read_pre + p->read_post > 0) {
        if ((d->flag & F_LSIGN) && isread && p->inout_p + 1 < end && !(p->inout_p[1] >= '0' && p->inout_p[1] <= '9')) {
            char *tmp = p->inout_p++;
            if (*p->inout_p == '-') *p->number = '-';
            else if (*p->inout_p == '+') *p->number = '+';
            if (*p->number == ' ') p->inout_p = tmp;
        } else if (!isread && !(d->flag & F_LSIGN) && (d->flag & (F_PLUS | F_MINUS))) {
            if (*p->inout_p == '-' || *p->inout_p == '+') *p->number = *p->inout_p;
        }
    }
}

/* skips up to n characters that are no digit */
static void eat_non_data(proc *p, int n, const char *end) {
    for (; n-- > 0; p->inout_p += mblen_utf8(p->inout_p)) {
        if (OVERLOAD(p, end)) break;
        char c = *p->inout_p;
        if ((c >= '0' && c <= '9') || c == ',' || c == '.' || c == '+' || c == '-') break;
    }
}

int attu_to_number(const char *str, size_t slen, const char *fmt, size_t flen, attu_numeric *out, int *is_null,
                   attu_fmt_cache *cache, attu_error *err) {
    *is_null = 0;
    if (flen == 0) { *is_null = 1; return 0; }
    numdesc d;
    const pnode *nodes = cached_template(fmt, flen, &d, cache, err);
    if (!nodes) return -1;
    char *in = malloc(slen + 1), *number = malloc(flen * 8 + slen + 4);
    int rc = -1;
    if (!in || !number) { attu_error_oom(err); goto done; }
    memcpy(in, str, slen); in[slen] = 0;
    if (d.zero_start) d.zero_start--;
    if (d.flag & F_EEEE) {
        attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "\"EEEE\" not supported for input");
        goto done;
    }
    if (d.flag & F_ROMAN) {
        attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "\"RN\" not supported for input");
        goto done;
    }
    proc p;
    memset(&p, 0, sizeof p);
    p.num = &d;
    p.number = number;
    number[0] = ' ';
    number[1] = 0;
    p.number_p = number + 1;
    p.inout = p.inout_p = in;
    const char *end = in + slen;
    for (const pnode *n = nodes; n->type != N_END; n++) {
        if (OVERLOAD(&p, end)) break;
        if (n->type != N_ACTION) { p.inout_p += mblen_utf8(p.inout_p); continue; }
        switch (n->key) {
        case P_9: case P_0: case P_DEC: case P_D:
            numpart_from_char(&p, n->key, end);
            break;
        case P_COMMA: case P_G:
            /* a separator is skipped only where the input has one */
            if (!p.num_in && (d.flag & F_FILLMODE)) continue;
            if (*p.inout_p != ',') continue;
            break;
        case P_L:
            eat_non_data(&p, 1, end);
            continue;
        case P_TH: case P_th:
            /* up to two characters that are no data */
            if (d.flag & F_DECIMAL) continue;
            eat_non_data(&p, 2, end);
            continue;
        case P_MI:
            if (*p.inout_p == '-') *p.number = '-';
            else { eat_non_data(&p, 1, end); continue; }
            break;
        case P_PL:
            if (*p.inout_p == '+') *p.number = '+';
            else { eat_non_data(&p, 1, end); continue; }
            break;
        case P_SG:
            if (*p.inout_p == '-') *p.number = '-';
            else if (*p.inout_p == '+') *p.number = '+';
            else { eat_non_data(&p, 1, end); continue; }
            break;
        default: continue;
        }
        p.inout_p++;
    }
    if (p.number_p[-1] == '.') p.number_p[-1] = 0;
    else *p.number_p = 0;
    int scale = p.read_post, precision = d.pre + d.multi + scale;
    attu_numeric v;
    if (attu_numeric_parse(number, strlen(number), &v, err)) {
        if (!strcmp(err->sqlstate, ATTU_SQLSTATE_INVALID_TEXT_REP)) {   /* the whole text, as numeric_in quotes it */
            attu_error_clear(err);
            attu_error_set(err, ATTU_SQLSTATE_INVALID_TEXT_REP, 0, "invalid input syntax for type numeric: \"%s\"", number);
        }
        goto done;
    }
    /* numeric(precision, scale): rounded to scale, its integer digits checked */
    if (v.dscale > scale && attu_numeric_round(v, scale, &v, err)) goto done;
    {
        char buf[96];
        attu_numeric_format(v, buf, sizeof buf);
        const char *b = buf + (buf[0] == '-');
        int intd = 0;
        while (b[intd] && b[intd] != '.') intd++;
        if (intd == 1 && b[0] == '0') intd = 0;
        if (intd > precision - scale) {
            attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "numeric field overflow");
            if (precision - scale > 0)
                attu_error_set_detail(err, "A field with precision %d, scale %d must round to an absolute value less than 10^%d.",
                                      precision, scale, precision - scale);
            else
                attu_error_set_detail(err, "A field with precision %d, scale %d must round to an absolute value less than 1.",
                                      precision, scale);
            goto done;
        }
    }
    if (d.flag & F_MULTI) {
        /* PostgreSQL multiplies by power(10, -multi), which it holds at 16
         * places: the value / 10^multi at dscale 16 (0 past 16 places) */
        if (d.multi > 16) v.m = 0;
        else for (int k = 0; k < 16 - d.multi; k++) {
            if (v.m > (__int128)1e35 || v.m < -(__int128)1e35) {
                attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "value overflows numeric format");
                goto done;
            }
            v.m *= 10;
        }
        v.dscale = 16;
    }
    *out = v;
    rc = 0;
done:
    free(in);
    free(number);
    return rc;
}
