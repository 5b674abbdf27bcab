/*
 * datetime_format.c - to_char(timestamp, text) and to_date(text, text) as
 * PostgreSQL 15 documents and answers them (datetime_format.h).
 *
 * A template is read into nodes: a pattern (with its FM / TM prefix and
 * TH / th / SP suffix), a separator, a space or a literal character.
 * Patterns match case-sensitively, the first of the table below (in its
 * order) that the template starts with; "..." quotes literal text, in which
 * a backslash quotes the next character, and outside quotes \" is a quote.
 */
#include "engine/datetime_format.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/types.h"

enum { N_END, N_ACTION, N_CHAR, N_SEP, N_SPACE };
enum { MODE_NONE, MODE_GREG, MODE_ISO };

typedef enum {
    K_A_D, K_A_M, K_AD, K_AM, K_B_C, K_BC, K_CC, K_DAY, K_DDD, K_DD, K_DY, K_Day, K_Dy, K_D,
    K_FF1, K_FF2, K_FF3, K_FF4, K_FF5, K_FF6, K_FX, K_HH24, K_HH12, K_HH,
    K_IDDD, K_ID, K_IW, K_IYYY, K_IYY, K_IY, K_I, K_J, K_MI, K_MM, K_MONTH, K_MON, K_MS,
    K_Month, K_Mon, K_OF, K_P_M, K_PM, K_Q, K_RM, K_SSSS, K_SS, K_TZH, K_TZM, K_TZ, K_US,
    K_WW, K_W, K_Y_YYY, K_YYYY, K_YYY, K_YY, K_Y,
    K_a_d, K_a_m, K_ad, K_am, K_b_c, K_bc, K_day, K_dy, K_month, K_mon, K_p_m, K_pm, K_rm, K_tz
} kid;

typedef struct kw { const char *name; int len; kid id; bool digit; int mode; } kw;

/* PostgreSQL's patterns, grouped by first character, longest first where
 * one is a prefix of another */
static const kw kws[] = {
    { "A.D.", 4, K_A_D, false, MODE_NONE }, { "A.M.", 4, K_A_M, false, MODE_NONE },
    { "AD", 2, K_AD, false, MODE_NONE }, { "AM", 2, K_AM, false, MODE_NONE },
    { "B.C.", 4, K_B_C, false, MODE_NONE }, { "BC", 2, K_BC, false, MODE_NONE },
    { "CC", 2, K_CC, true, MODE_NONE },
    { "DAY", 3, K_DAY, false, MODE_NONE }, { "DDD", 3, K_DDD, true, MODE_GREG },
    { "DD", 2, K_DD, true, MODE_GREG }, { "DY", 2, K_DY, false, MODE_NONE },
    { "Day", 3, K_Day, false, MODE_NONE }, { "Dy", 2, K_Dy, false, MODE_NONE },
    { "D", 1, K_D, true, MODE_GREG },
    { "FF1", 3, K_FF1, true, MODE_NONE }, { "FF2", 3, K_FF2, true, MODE_NONE },
    { "FF3", 3, K_FF3, true, MODE_NONE }, { "FF4", 3, K_FF4, true, MODE_NONE },
    { "FF5", 3, K_FF5, true, MODE_NONE }, { "FF6", 3, K_FF6, true, MODE_NONE },
    { "FX", 2, K_FX, false, MODE_NONE },
    { "HH24", 4, K_HH24, true, MODE_NONE }, { "HH12", 4, K_HH12, true, MODE_NONE },
    { "HH", 2, K_HH, true, MODE_NONE },
    { "IDDD", 4, K_IDDD, true, MODE_ISO }, { "ID", 2, K_ID, true, MODE_ISO },
    { "IW", 2, K_IW, true, MODE_ISO }, { "IYYY", 4, K_IYYY, true, MODE_ISO },
    { "IYY", 3, K_IYY, true, MODE_ISO }, { "IY", 2, K_IY, true, MODE_ISO },
    { "I", 1, K_I, true, MODE_ISO },
    { "J", 1, K_J, true, MODE_NONE },
    { "MI", 2, K_MI, true, MODE_NONE }, { "MM", 2, K_MM, true, MODE_GREG },
    { "MONTH", 5, K_MONTH, false, MODE_GREG }, { "MON", 3, K_MON, false, MODE_GREG },
    { "MS", 2, K_MS, true, MODE_NONE }, { "Month", 5, K_Month, false, MODE_GREG },
    { "Mon", 3, K_Mon, false, MODE_GREG },
    { "OF", 2, K_OF, false, MODE_NONE },
    { "P.M.", 4, K_P_M, false, MODE_NONE }, { "PM", 2, K_PM, false, MODE_NONE },
    { "Q", 1, K_Q, true, MODE_NONE },
    { "RM", 2, K_RM, false, MODE_GREG },
    { "SSSSS", 5, K_SSSS, true, MODE_NONE }, { "SSSS", 4, K_SSSS, true, MODE_NONE },
    { "SS", 2, K_SS, true, MODE_NONE },
    { "TZH", 3, K_TZH, false, MODE_NONE }, { "TZM", 3, K_TZM, true, MODE_NONE },
    { "TZ", 2, K_TZ, false, MODE_NONE },
    { "US", 2, K_US, true, MODE_NONE },
    { "WW", 2, K_WW, true, MODE_GREG }, { "W", 1, K_W, true, MODE_GREG },
    { "Y,YYY", 5, K_Y_YYY, true, MODE_GREG }, { "YYYY", 4, K_YYYY, true, MODE_GREG },
    { "YYY", 3, K_YYY, true, MODE_GREG }, { "YY", 2, K_YY, true, MODE_GREG },
    { "Y", 1, K_Y, true, MODE_GREG },
    { "a.d.", 4, K_a_d, false, MODE_NONE }, { "a.m.", 4, K_a_m, false, MODE_NONE },
    { "ad", 2, K_ad, false, MODE_NONE }, { "am", 2, K_am, false, MODE_NONE },
    { "b.c.", 4, K_b_c, false, MODE_NONE }, { "bc", 2, K_bc, false, MODE_NONE },
    { "cc", 2, K_CC, true, MODE_NONE },
    { "day", 3, K_day, false, MODE_NONE }, { "ddd", 3, K_DDD, true, MODE_GREG },
    { "dd", 2, K_DD, true, MODE_GREG }, { "dy", 2, K_dy, false, MODE_NONE },
    { "d", 1, K_D, true, MODE_GREG },
    { "ff1", 3, K_FF1, true, MODE_NONE }, { "ff2", 3, K_FF2, true, MODE_NONE },
    { "ff3", 3, K_FF3, true, MODE_NONE }, { "ff4", 3, K_FF4, true, MODE_NONE },
    { "ff5", 3, K_FF5, true, MODE_NONE }, { "ff6", 3, K_FF6, true, MODE_NONE },
    { "fx", 2, K_FX, false, MODE_NONE },
    { "hh24", 4, K_HH24, true, MODE_NONE }, { "hh12", 4, K_HH12, true, MODE_NONE },
    { "hh", 2, K_HH, true, MODE_NONE },
    { "iddd", 4, K_IDDD, true, MODE_ISO }, { "id", 2, K_ID, true, MODE_ISO },
    { "iw", 2, K_IW, true, MODE_ISO }, { "iyyy", 4, K_IYYY, true, MODE_ISO },
    { "iyy", 3, K_IYY, true, MODE_ISO }, { "iy", 2, K_IY, true, MODE_ISO },
    { "i", 1, K_I, true, MODE_ISO },
    { "j", 1, K_J, true, MODE_NONE },
    { "mi", 2, K_MI, true, MODE_NONE }, { "mm", 2, K_MM, true, MODE_GREG },
    { "month", 5, K_month, false, MODE_GREG }, { "mon", 3, K_mon, false, MODE_GREG },
    { "ms", 2, K_MS, true, MODE_NONE },
    { "of", 2, K_OF, false, MODE_NONE },
    { "p.m.", 4, K_p_m, false, MODE_NONE }, { "pm", 2, K_pm, false, MODE_NONE },
    { "q", 1, K_Q, true, MODE_NONE },
    { "rm", 2, K_rm, false, MODE_GREG },
    { "sssss", 5, K_SSSS, true, MODE_NONE }, { "ssss", 4, K_SSSS, true, MODE_NONE },
    { "ss", 2, K_SS, true, MODE_NONE },
    { "tzh", 3, K_TZH, false, MODE_NONE }, { "tzm", 3, K_TZM, true, MODE_NONE },
    { "tz", 2, K_tz, false, MODE_NONE },
    { "us", 2, K_US, true, MODE_NONE },
    { "ww", 2, K_WW, true, MODE_GREG }, { "w", 1, K_W, true, MODE_GREG },
    { "y,yyy", 5, K_Y_YYY, true, MODE_GREG }, { "yyyy", 4, K_YYYY, true, MODE_GREG },
    { "yyy", 3, K_YYY, true, MODE_GREG }, { "yy", 2, K_YY, true, MODE_GREG },
    { "y", 1, K_Y, true, MODE_GREG },
};

/* modifiers */
#define S_FM 1
#define S_TM 2
#define S_TH 4
#define S_th 8
#define S_SP 16

typedef struct node {
    uint8_t type, suffix;
    const kw *key;
    char ch[5];        /* a character (one UTF-8 sequence), NUL-terminated */
} node;

static int mblen_utf8(const char *s) {
    unsigned char c = (unsigned char)*s;
    int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    for (int i = 1; i < n; i++) if (!s[i]) return i;
    return n;
}

static bool is_sep(const char *s) {
    unsigned char c = (unsigned char)*s;
    return c > 0x20 && c < 0x7F && !(c >= 'A' && c <= 'Z') && !(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9');
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

static const kw *find_kw(const char *s) {
    for (size_t i = 0; i < sizeof kws / sizeof *kws; i++)
        if (kws[i].name[0] == s[0] && !strncmp(s, kws[i].name, (size_t)kws[i].len)) return &kws[i];
    return NULL;
}

static void put_char(node *n, uint8_t type, const char *s, int len) {
    n->type = type;
    n->suffix = 0;
    n->key = NULL;
    memcpy(n->ch, s, (size_t)len);
    n->ch[len] = 0;
}

/* The template fmt (NUL-terminated) into nodes (strlen(fmt) + 1 of them),
 * the last N_END. */
static void parse_template(const char *str, node *n) {
    while (*str) {
        int suffix = 0;
        if (!strncmp(str, "FM", 2) || !strncmp(str, "fm", 2)) { suffix = S_FM; str += 2; }
        else if (!strncmp(str, "TM", 2) || !strncmp(str, "tm", 2)) { suffix = S_TM; str += 2; }
        const kw *k;
        if (*str && (k = find_kw(str))) {
            n->type = N_ACTION;
            n->key = k;
            n->suffix = (uint8_t)suffix;
            str += k->len;
            if (!strncmp(str, "TH", 2)) { n->suffix |= S_TH; str += 2; }
            else if (!strncmp(str, "th", 2)) { n->suffix |= S_th; str += 2; }
            else if (!strncmp(str, "SP", 2)) { n->suffix |= S_SP; str += 2; }
            n++;
        } else if (*str == '"') {
            str++;
            while (*str) {
                if (*str == '"') { str++; break; }
                if (*str == '\\' && str[1]) str++;
                int l = mblen_utf8(str);
                put_char(n++, N_CHAR, str, l);
                str += l;
            }
        } else if (*str) {
            if (*str == '\\' && str[1] == '"') str++;
            int l = mblen_utf8(str);
            put_char(n++, is_sep(str) ? N_SEP : is_space(*str) ? N_SPACE : N_CHAR, str, l);
            str += l;
        }
    }
    n->type = N_END;
}

void attu_fmt_cache_free(attu_fmt_cache *c) {
    free(c->fmt);
    free(c->nodes);
    free(c->desc);
    memset(c, 0, sizeof *c);
}

/* The template's nodes, parsed once while the rows bring the same one */
static const node *cached_template(const char *fmt, size_t flen, attu_fmt_cache *c, attu_error *err) {
    if (c->kind == 1 && c->fmt && c->flen == flen && !memcmp(c->fmt, fmt, flen)) return c->nodes;
    attu_fmt_cache_free(c);
    c->fmt = malloc(flen + 1);
    c->nodes = malloc((flen + 1) * sizeof(node));
    if (!c->fmt || !c->nodes) { attu_fmt_cache_free(c); attu_error_oom(err); return NULL; }
    memcpy(c->fmt, fmt, flen);
    c->fmt[flen] = 0;
    c->flen = flen;
    c->kind = 1;
    parse_template(c->fmt, c->nodes);
    return c->nodes;
}

/* ---- calendar ------------------------------------------------------------ */

static const char *const months_full[] = { "January", "February", "March", "April", "May", "June", "July",
                                           "August", "September", "October", "November", "December", NULL };
static const char *const months_short[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                                            "Nov", "Dec", NULL };
static const char *const days_full[] = { "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
                                         "Saturday", NULL };
static const char *const days_short[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", NULL };
static const char *const rm_upper[] = { "XII", "XI", "X", "IX", "VIII", "VII", "VI", "V", "IV", "III", "II", "I", NULL };
static const char *const rm_lower[] = { "xii", "xi", "x", "ix", "viii", "vii", "vi", "v", "iv", "iii", "ii", "i", NULL };
static const char *const ampm[] = { "am", "pm", "AM", "PM", NULL };
static const char *const ampm_long[] = { "a.m.", "p.m.", "A.M.", "P.M.", NULL };
static const char *const adbc[] = { "ad", "bc", "AD", "BC", NULL };
static const char *const adbc_long[] = { "a.d.", "b.c.", "A.D.", "B.C.", NULL };

#define UNIX_JD 2440588      /* the Julian day of 1970-01-01 */

/* v cut to 32 bits: PostgreSQL's int arithmetic on the fields read wraps
 * (it builds with -fwrapv), where C's would be undefined */
static int wrap32(int64_t v) { return (int)(int32_t)(uint32_t)(uint64_t)v; }

static int64_t floordiv(int64_t a, int64_t b) { return a / b - (a % b != 0 && ((a < 0) != (b < 0))); }

/* 0 = Sunday */
static int wday_of(int64_t days) { return (int)((days + 4) % 7 + 7) % 7; }

/* The Monday that starts ISO week 1 of year y. */
static int64_t iso_week1(int y) {
    int64_t d4 = attu_date_from_ymd(y, 1, 4);
    return d4 - (wday_of(d4) + 6) % 7;
}

static int iso_year(int64_t days, int y) {
    if (days >= iso_week1(y + 1)) return y + 1;
    if (days < iso_week1(y)) return y - 1;
    return y;
}

typedef struct tmv {
    int year, mon, mday, hour, min, sec, wday, yday;
    int64_t fsec, days;
} tmv;

static void ts_to_tm(int64_t ts, tmv *t) {
    int64_t days = floordiv(ts, 86400000000LL), rem = ts - days * 86400000000LL;
    attu_date_to_ymd((int32_t)days, &t->year, &t->mon, &t->mday);
    t->days = days;
    t->hour = (int)(rem / 3600000000LL);
    t->min = (int)(rem / 60000000 % 60);
    t->sec = (int)(rem / 1000000 % 60);
    t->fsec = rem % 1000000;
    t->wday = wday_of(days);
    t->yday = (int)(days - attu_date_from_ymd(t->year, 1, 1)) + 1;
}

/* ---- to_char ------------------------------------------------------------- */

size_t attu_to_char_ts_bound(size_t flen) { return flen * 12 + 16; }

/* 1st 2nd 3rd 4th ... 11th 12th 13th 21st: the suffix of the digits
 * ending at s[len - 1] */
static const char *th_of(const char *s, size_t len, bool upper) {
    char last = len ? s[len - 1] : 0;
    if (len > 1 && s[len - 2] == '1') last = 0;
    switch (last) {
    case '1': return upper ? "ST" : "st";
    case '2': return upper ? "ND" : "nd";
    case '3': return upper ? "RD" : "rd";
    default: return upper ? "TH" : "th";
    }
}

static char *put_s(char *o, const char *s) { size_t l = strlen(s); memcpy(o, s, l); return o + l; }

/* s padded with spaces to width 9 unless FM (or TM) */
static char *put_name(char *o, const char *s, int mode, int suffix, bool pad) {
    char buf[16];
    size_t l = strlen(s);
    for (size_t i = 0; i < l; i++)
        buf[i] = mode == 1 ? (char)(s[i] >= 'a' && s[i] <= 'z' ? s[i] - 32 : s[i])
               : mode == 2 ? (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]) : s[i];
    buf[l] = 0;
    o = put_s(o, buf);
    if (pad && !(suffix & (S_FM | S_TM))) for (size_t i = l; i < 9; i++) *o++ = ' ';
    return o;
}

long attu_to_char_ts(int64_t ts, bool with_tz, const char *fmt, size_t flen, char *out, attu_fmt_cache *cache,
                     attu_error *err) {
    if (flen == 0 || ts == INT64_MAX || ts == INT64_MIN) return -1;
    const node *nodes = cached_template(fmt, flen, cache, err);
    if (!nodes) return -2;
    tmv t;
    ts_to_tm(ts, &t);
    int ayear = t.year <= 0 ? 1 - t.year : t.year;   /* the year as written, BC counted up */
    char *o = out;
    for (const node *n = nodes; n->type != N_END; n++) {
        if (n->type != N_ACTION) { o = put_s(o, n->ch); continue; }
        bool fm = n->suffix & S_FM;
        char *start = o;
        bool num = true;
        switch (n->key->id) {
        case K_A_M: case K_P_M: o = put_s(o, t.hour >= 12 ? "P.M." : "A.M."); num = false; break;
        case K_a_m: case K_p_m: o = put_s(o, t.hour >= 12 ? "p.m." : "a.m."); num = false; break;
        case K_AM: case K_PM: o = put_s(o, t.hour >= 12 ? "PM" : "AM"); num = false; break;
        case K_am: case K_pm: o = put_s(o, t.hour >= 12 ? "pm" : "am"); num = false; break;
        case K_HH: case K_HH12: o += sprintf(o, "%0*d", fm ? 0 : 2, t.hour % 12 == 0 ? 12 : t.hour % 12); break;
        case K_HH24: o += sprintf(o, "%0*d", fm ? 0 : 2, t.hour); break;
        case K_MI: o += sprintf(o, "%0*d", fm ? 0 : 2, t.min); break;
        case K_SS: o += sprintf(o, "%0*d", fm ? 0 : 2, t.sec); break;
        case K_FF1: o += sprintf(o, "%01d", (int)(t.fsec / 100000)); break;
        case K_FF2: o += sprintf(o, "%02d", (int)(t.fsec / 10000)); break;
        case K_FF3: case K_MS: o += sprintf(o, "%03d", (int)(t.fsec / 1000)); break;
        case K_FF4: o += sprintf(o, "%04d", (int)(t.fsec / 100)); break;
        case K_FF5: o += sprintf(o, "%05d", (int)(t.fsec / 10)); break;
        case K_FF6: case K_US: o += sprintf(o, "%06d", (int)t.fsec); break;
        case K_SSSS: o += sprintf(o, "%d", t.hour * 3600 + t.min * 60 + t.sec); break;
        case K_TZ: if (with_tz) o = put_s(o, "UTC"); num = false; break;
        case K_tz: if (with_tz) o = put_s(o, "utc"); num = false; break;
        case K_TZH: o = put_s(o, "+00"); num = false; break;
        case K_TZM: o = put_s(o, "00"); num = false; break;
        case K_OF: o += sprintf(o, "+%0*d", fm ? 0 : 2, 0); num = false; break;
        case K_A_D: case K_B_C: o = put_s(o, t.year <= 0 ? "B.C." : "A.D."); num = false; break;
        case K_a_d: case K_b_c: o = put_s(o, t.year <= 0 ? "b.c." : "a.d."); num = false; break;
        case K_AD: case K_BC: o = put_s(o, t.year <= 0 ? "BC" : "AD"); num = false; break;
        case K_ad: case K_bc: o = put_s(o, t.year <= 0 ? "bc" : "ad"); num = false; break;
        case K_MONTH: o = put_name(o, months_full[t.mon - 1], 1, n->suffix, true); num = false; break;
        case K_Month: o = put_name(o, months_full[t.mon - 1], 0, n->suffix, true); num = false; break;
        case K_month: o = put_name(o, months_full[t.mon - 1], 2, n->suffix, true); num = false; break;
        case K_MON: o = put_name(o, months_short[t.mon - 1], 1, n->suffix, false); num = false; break;
        case K_Mon: o = put_name(o, months_short[t.mon - 1], 0, n->suffix, false); num = false; break;
        case K_mon: o = put_name(o, months_short[t.mon - 1], 2, n->suffix, false); num = false; break;
        case K_MM: o += sprintf(o, "%0*d", fm ? 0 : 2, t.mon); break;
        case K_DAY: o = put_name(o, days_full[t.wday], 1, n->suffix, true); num = false; break;
        case K_Day: o = put_name(o, days_full[t.wday], 0, n->suffix, true); num = false; break;
        case K_day: o = put_name(o, days_full[t.wday], 2, n->suffix, true); num = false; break;
        case K_DY: o = put_name(o, days_short[t.wday], 1, n->suffix, false); num = false; break;
        case K_Dy: o = put_name(o, days_short[t.wday], 0, n->suffix, false); num = false; break;
        case K_dy: o = put_name(o, days_short[t.wday], 2, n->suffix, false); num = false; break;
        case K_DDD: o += sprintf(o, "%0*d", fm ? 0 : 3, t.yday); break;
        case K_IDDD: {
            int iy = iso_year(t.days, t.year);
            o += sprintf(o, "%0*d", fm ? 0 : 3, (int)(t.days - iso_week1(iy)) + 1);
            break;
        }
        case K_DD: o += sprintf(o, "%0*d", fm ? 0 : 2, t.mday); break;
        case K_D: o += sprintf(o, "%d", t.wday + 1); break;
        case K_ID: o += sprintf(o, "%d", t.wday == 0 ? 7 : t.wday); break;
        case K_WW: o += sprintf(o, "%0*d", fm ? 0 : 2, (t.yday - 1) / 7 + 1); break;
        case K_IW: {
            int iy = iso_year(t.days, t.year);
            o += sprintf(o, "%0*d", fm ? 0 : 2, (int)((t.days - iso_week1(iy)) / 7) + 1);
            break;
        }
        case K_Q: o += sprintf(o, "%d", (t.mon - 1) / 3 + 1); break;
        case K_CC: {
            int c = t.year > 0 ? (t.year - 1) / 100 + 1 : t.year / 100 - 1;
            if (c <= 99 && c >= -99) o += sprintf(o, "%0*d", fm ? 0 : c >= 0 ? 2 : 3, c);
            else o += sprintf(o, "%d", c);
            break;
        }
        case K_Y_YYY: o += sprintf(o, "%d,%03d", ayear / 1000, ayear % 1000); break;
        case K_YYYY: o += sprintf(o, "%0*d", fm ? 0 : 4, ayear); break;
        case K_YYY: o += sprintf(o, "%0*d", fm ? 0 : 3, ayear % 1000); break;
        case K_YY: o += sprintf(o, "%0*d", fm ? 0 : 2, ayear % 100); break;
        case K_Y: o += sprintf(o, "%1d", ayear % 10); break;
        case K_IYYY: case K_IYY: case K_IY: case K_I: {
            int iy = iso_year(t.days, t.year);
            iy = iy <= 0 ? 1 - iy : iy;
            kid k = n->key->id;
            if (k == K_IYYY) o += sprintf(o, "%0*d", fm ? 0 : 4, iy);
            else if (k == K_IYY) o += sprintf(o, "%0*d", fm ? 0 : 3, iy % 1000);
            else if (k == K_IY) o += sprintf(o, "%0*d", fm ? 0 : 2, iy % 100);
            else o += sprintf(o, "%1d", iy % 10);
            break;
        }
        case K_RM: case K_rm: {
            const char *r = (n->key->id == K_RM ? rm_upper : rm_lower)[12 - t.mon];
            o += sprintf(o, "%*s", fm ? 0 : -4, r);
            num = false;
            break;
        }
        case K_W: o += sprintf(o, "%d", (t.mday - 1) / 7 + 1); break;
        case K_J: o += sprintf(o, "%lld", (long long)(t.days + UNIX_JD)); break;
        case K_FX: num = false; break;
        default: num = false; break;
        }
        if (num && (n->suffix & (S_TH | S_th))) o = put_s(o, th_of(start, (size_t)(o - start), n->suffix & S_TH));
    }
    return (long)(o - out);
}

/* ---- to_date ------------------------------------------------------------- */

typedef struct from_char {
    int mode, hh, pm, mi, ss, ssss, d, dd, ddd, mm, ms, year, bc, ww, w, cc, j, us, yysz, clock12, tzh, tzm, tzsign;
} from_char;

static int set_mode(from_char *fc, int mode, attu_error *err) {
    if (mode == MODE_NONE) return 0;
    if (fc->mode == MODE_NONE) fc->mode = mode;
    else if (fc->mode != mode) {
        attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "invalid combination of date conventions");
        attu_error_set_hint(err, "Do not mix Gregorian and ISO week date conventions in a formatting template.");
        return -1;
    }
    return 0;
}

static int set_int(int *dest, int v, const node *n, attu_error *err) {
    if (*dest != 0 && *dest != v) {
        attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "conflicting values for \"%s\" field in formatting string",
                       n->key->name);
        attu_error_set_detail(err, "This value contradicts a previous setting for the same field type.");
        return -1;
    }
    *dest = v;
    return 0;
}

/* Whether the node after n cannot start with a digit (so a number before
 * it takes as many digits as it finds) */
static bool next_is_separator(const node *n) {
    if (n->type == N_END) return false;
    if (n->type == N_ACTION && (n->suffix & (S_TH | S_th))) return true;
    n++;
    if (n->type == N_END) return true;
    if (n->type == N_ACTION) return !n->key->digit;
    if (n->ch[1] == 0 && n->ch[0] >= '0' && n->ch[0] <= '9') return false;
    return true;
}

/* An integer of len characters (or, in fill mode or before a separator,
 * as many as there are) into *dest (NULL: read and dropped). Returns the
 * characters consumed, or -1 with err set. */
static int parse_int_len(int *dest, const char **src, int len, const node *n, attu_error *err) {
    const char *init = *src;
    while (is_space(**src)) (*src)++;
    char copy[32];
    int used = 0;
    while (used < len && used < 31 && (*src)[used]) { copy[used] = (*src)[used]; used++; }
    copy[used] = 0;
    long v;
    if ((n->suffix & S_FM) || next_is_separator(n)) {
        char *end;
        errno = 0;
        v = strtol(init, &end, 10);
        *src = end;
    } else {
        if (used < len) {
            attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "source string too short for \"%s\" formatting field",
                           n->key->name);
            attu_error_set_detail(err, "Field requires %d characters, but only %d remain.", len, used);
            attu_error_set_hint(err, "If your source string is not fixed-width, try using the \"FM\" modifier.");
            return -1;
        }
        char *last;
        errno = 0;
        v = strtol(copy, &last, 10);
        used = (int)(last - copy);
        if (used > 0 && used < len) {
            attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "invalid value \"%s\" for \"%s\"", copy, n->key->name);
            attu_error_set_detail(err, "Field requires %d characters, but only %d could be parsed.", len, used);
            attu_error_set_hint(err, "If your source string is not fixed-width, try using the \"FM\" modifier.");
            return -1;
        }
        *src += used;
    }
    if (*src == init) {
        attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "invalid value \"%s\" for \"%s\"", copy, n->key->name);
        attu_error_set_detail(err, "Value must be an integer.");
        return -1;
    }
    if (errno == ERANGE || v < INT_MIN || v > INT_MAX) {
        attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "value for \"%s\" in source string is out of range",
                       n->key->name);
        attu_error_set_detail(err, "Value must be in the range %d to %d.", INT_MIN, INT_MAX);
        return -1;
    }
    if (dest && set_int(dest, (int)v, n, err)) return -1;
    return (int)(*src - init);
}

static int parse_int(int *dest, const char **src, const node *n, attu_error *err) {
    return parse_int_len(dest, src, n->key->len, n, err);
}

/* The entry of list that s starts with (case-insensitively); its index,
 * or -1 with err set */
static int seq_search(const char **src, const char *const *list, const node *n, attu_error *err) {
    const char *s = *src;
    for (int i = 0; list[i]; i++) {
        size_t l = strlen(list[i]), k = 0;
        for (; k < l; k++) {
            char a = s[k], b = list[i][k];
            if (!a) break;
            if (a >= 'A' && a <= 'Z') a = (char)(a + 32);
            if (b >= 'A' && b <= 'Z') b = (char)(b + 32);
            if (a != b) break;
        }
        if (k == l) { *src += l; return i; }
    }
    char copy[64];
    size_t k = 0;
    while (s[k] && !is_space(s[k]) && k < sizeof copy - 1) { copy[k] = s[k]; k++; }
    copy[k] = 0;
    attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "invalid value \"%s\" for \"%s\"", copy, n->key->name);
    attu_error_set_detail(err, "The given value did not match any of the allowed values for this field.");
    return -1;
}

static int adjust_year_2020(int y) {
    return y < 70 ? y + 2000 : y < 100 ? y + 1900 : y < 520 ? y + 2000 : y < 1000 ? y + 1000 : y;
}

static void skip_th(const char **s, int suffix) {
    if (!(suffix & (S_TH | S_th))) return;
    for (int i = 0; i < 2; i++) if (**s) *s += mblen_utf8(*s);
}

static int read_fields(const node *nodes, const char *in, from_char *fc, attu_error *err) {
    bool fx = false;
    int extra = 0;
    const char *s = in;
    for (const node *n = nodes; n->type != N_END && *s; n++) {
        if (!fx && !(n->type == N_ACTION && n->key->id == K_FX) && (n->type == N_ACTION || n == nodes))
            while (*s && is_space(*s)) { s++; extra++; }
        if (n->type == N_SPACE || n->type == N_SEP) {
            if (!fx) {
                extra--;
                if (is_space(*s) || is_sep(s)) { s++; extra++; }
            } else s += mblen_utf8(s);
            continue;
        }
        if (n->type != N_ACTION) {
            if (!fx) {
                if (extra > 0) extra--;
                else s += mblen_utf8(s);
            } else s += mblen_utf8(s);
            continue;
        }
        if (set_mode(fc, n->key->mode, err)) return -1;
        int v, len;
        switch (n->key->id) {
        case K_FX: fx = true; break;
        case K_A_M: case K_P_M: case K_a_m: case K_p_m:
            if ((v = seq_search(&s, ampm_long, n, err)) < 0 || set_int(&fc->pm, v % 2, n, err)) return -1;
            fc->clock12 = 1;
            break;
        case K_AM: case K_PM: case K_am: case K_pm:
            if ((v = seq_search(&s, ampm, n, err)) < 0 || set_int(&fc->pm, v % 2, n, err)) return -1;
            fc->clock12 = 1;
            break;
        case K_HH: case K_HH12:
            if (parse_int_len(&fc->hh, &s, 2, n, err) < 0) return -1;
            fc->clock12 = 1;
            skip_th(&s, n->suffix);
            break;
        case K_HH24: if (parse_int_len(&fc->hh, &s, 2, n, err) < 0) return -1; skip_th(&s, n->suffix); break;
        case K_MI: if (parse_int(&fc->mi, &s, n, err) < 0) return -1; skip_th(&s, n->suffix); break;
        case K_SS: if (parse_int(&fc->ss, &s, n, err) < 0) return -1; skip_th(&s, n->suffix); break;
        case K_MS:
            if ((len = parse_int_len(&fc->ms, &s, 3, n, err)) < 0) return -1;
            fc->ms *= len == 1 ? 100 : len == 2 ? 10 : 1;
            skip_th(&s, n->suffix);
            break;
        case K_FF1: case K_FF2: case K_FF3: case K_FF4: case K_FF5: case K_FF6: case K_US: {
            int want = n->key->id == K_US ? 6 : (int)(n->key->id - K_FF1) + 1;
            if ((len = parse_int_len(&fc->us, &s, want, n, err)) < 0) return -1;
            fc->us *= len == 1 ? 100000 : len == 2 ? 10000 : len == 3 ? 1000 : len == 4 ? 100 : len == 5 ? 10 : 1;
            skip_th(&s, n->suffix);
            break;
        }
        case K_SSSS: if (parse_int(&fc->ssss, &s, n, err) < 0) return -1; skip_th(&s, n->suffix); break;
        case K_TZ: case K_tz: case K_OF:
            attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                           "formatting field \"%s\" is only supported in to_char", n->key->name);
            return -1;
        case K_TZH:
            /* the sign, or a minus skipped before it; the zone is checked, then dropped */
            if (*s == '+' || *s == '-' || *s == ' ') { fc->tzsign = *s == '-' ? -1 : 1; s++; }
            else fc->tzsign = extra > 0 && s > in && s[-1] == '-' ? -1 : 1;
            if (parse_int_len(&fc->tzh, &s, 2, n, err) < 0) return -1;
            break;
        case K_TZM:
            if (!fc->tzsign) fc->tzsign = 1;
            if (parse_int_len(&fc->tzm, &s, 2, n, err) < 0) return -1;
            break;
        case K_A_D: case K_B_C: case K_a_d: case K_b_c:
            if ((v = seq_search(&s, adbc_long, n, err)) < 0 || set_int(&fc->bc, v % 2, n, err)) return -1;
            break;
        case K_AD: case K_BC: case K_ad: case K_bc:
            if ((v = seq_search(&s, adbc, n, err)) < 0 || set_int(&fc->bc, v % 2, n, err)) return -1;
            break;
        case K_MONTH: case K_Month: case K_month:
            if ((v = seq_search(&s, months_full, n, err)) < 0 || set_int(&fc->mm, v + 1, n, err)) return -1;
            break;
        case K_MON: case K_Mon: case K_mon:
            if ((v = seq_search(&s, months_short, n, err)) < 0 || set_int(&fc->mm, v + 1, n, err)) return -1;
            break;
        case K_MM: if (parse_int(&fc->mm, &s, n, err) < 0) return -1; skip_th(&s, n->suffix); break;
        case K_DAY: case K_Day: case K_day:
            if ((v = seq_search(&s, days_full, n, err)) < 0 || set_int(&fc->d, v, n, err)) return -1;
            fc->d++;
            break;
        case K_DY: case K_Dy: case K_dy:
            if ((v = seq_search(&s, days_short, n, err)) < 0 || set_int(&fc->d, v, n, err)) return -1;
            fc->d++;
            break;
        case K_DDD: if (parse_int(&fc->ddd, &s, n, err) < 0) return -1; skip_th(&s, n->suffix); break;
        case K_IDDD: if (parse_int_len(&fc->ddd, &s, 3, n, err) < 0) return -1; skip_th(&s, n->suffix); break;
        case K_DD: if (parse_int(&fc->dd, &s, n, err) < 0) return -1; skip_th(&s, n->suffix); break;
        case K_D: if (parse_int(&fc->d, &s, n, err) < 0) return -1; skip_th(&s, n->suffix); break;
        case K_ID:
            if (parse_int_len(&fc->d, &s, 1, n, err) < 0) return -1;
            fc->d = wrap32((int64_t)fc->d + 1);      /* Sunday 1, as PostgreSQL shifts it */
            if (fc->d > 7) fc->d = 1;
            skip_th(&s, n->suffix);
            break;
        case K_WW: case K_IW: if (parse_int(&fc->ww, &s, n, err) < 0) return -1; skip_th(&s, n->suffix); break;
        case K_Q: if (parse_int(NULL, &s, n, err) < 0) return -1; skip_th(&s, n->suffix); break;
        case K_CC: if (parse_int(&fc->cc, &s, n, err) < 0) return -1; skip_th(&s, n->suffix); break;
        case K_Y_YYY: {
            /* digits, a comma, three digits (sscanf's "%d,%03d") */
            const char *p = s;
            char *end;
            errno = 0;
            long mil = strtol(p, &end, 10);
            bool ok = end != p && *end == ',';
            long yrs = 0;
            if (ok) {
                /* %03d: blanks, then at most three characters, a sign among them */
                const char *q = end + 1;
                while (is_space(*q)) q++;
                int k = 0, sg = 1, nd = 0;
                if (*q == '+' || *q == '-') { sg = *q == '-' ? -1 : 1; k++; }
                while (k < 3 && q[k] >= '0' && q[k] <= '9') { yrs = yrs * 10 + (q[k] - '0'); k++; nd++; }
                yrs *= sg;
                ok = nd > 0;
                p = q + k;
            }
            if (!ok) {
                attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "invalid input string for \"Y,YYY\"");
                return -1;
            }
            /* sscanf's int, then PostgreSQL's wrapping int arithmetic */
            if (set_int(&fc->year, wrap32((int64_t)wrap32(mil) * 1000 + yrs), n, err)) return -1;
            fc->yysz = 4;
            s = p;
            skip_th(&s, n->suffix);
            break;
        }
        case K_YYYY: case K_IYYY:
            if (parse_int(&fc->year, &s, n, err) < 0) return -1;
            fc->yysz = 4;
            skip_th(&s, n->suffix);
            break;
        case K_YYY: case K_IYY: case K_YY: case K_IY: case K_Y: case K_I: {
            if ((len = parse_int(&fc->year, &s, n, err)) < 0) return -1;
            if (len < 4) fc->year = adjust_year_2020(fc->year);
            kid k = n->key->id;
            fc->yysz = k == K_YYY || k == K_IYY ? 3 : k == K_YY || k == K_IY ? 2 : 1;
            skip_th(&s, n->suffix);
            break;
        }
        case K_RM: case K_rm:
            if ((v = seq_search(&s, rm_lower, n, err)) < 0 || set_int(&fc->mm, 12 - v, n, err)) return -1;
            break;
        case K_W: if (parse_int(&fc->w, &s, n, err) < 0) return -1; skip_th(&s, n->suffix); break;
        case K_J: if (parse_int(&fc->j, &s, n, err) < 0) return -1; skip_th(&s, n->suffix); break;
        }
        if (!fx) {
            extra = 0;
            while (*s && is_space(*s)) { s++; extra++; }
        }
    }
    return 0;
}

static bool is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static void j_to_ymd(int64_t jd, int *y, int *m, int *d) {
    int64_t days = jd - UNIX_JD;
    if (days < INT32_MIN || days > INT32_MAX) {   /* far past the date range: a year that fails its check */
        *y = days < 0 ? INT_MIN : INT_MAX;
        *m = *d = 1;
        return;
    }
    attu_date_to_ymd((int32_t)days, y, m, d);
}

static int64_t ymd_to_j(int y, int m, int d) { return (int64_t)attu_date_from_ymd(y, m, d) + UNIX_JD; }

static int field_overflow(const char *s, attu_error *err) {
    attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "date/time field value out of range: \"%s\"", s);
    return -1;
}

int attu_to_date(const char *str, size_t slen, const char *fmt, size_t flen, int32_t *out, attu_fmt_cache *cache,
                 attu_error *err) {
    const node *nodes = cached_template(fmt, flen, cache, err);
    if (!nodes) return -1;
    char *s = malloc(slen + 1);
    if (!s) return attu_error_oom(err);
    memcpy(s, str, slen); s[slen] = 0;
    from_char fc;
    memset(&fc, 0, sizeof fc);
    if (read_fields(nodes, s, &fc, err)) { free(s); return -1; }
    int year = 0, mon = 1, mday = 1, hour = 0, min = 0, sec = 0;
    bool fy = false, fm = false, fd = false;
    if (fc.ssss) { hour = fc.ssss / 3600; min = fc.ssss % 3600 / 60; sec = fc.ssss % 60; }
    if (fc.ss) sec = fc.ss;
    if (fc.mi) min = fc.mi;
    if (fc.hh) hour = fc.hh;
    if (fc.clock12) {
        if (hour < 1 || hour > 12) {
            attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "hour \"%d\" is invalid for the 12-hour clock", hour);
            attu_error_set_hint(err, "Use the 24-hour clock, or give an hour between 1 and 12.");
            free(s);
            return -1;
        }
        if (fc.pm && hour < 12) hour += 12;
        else if (!fc.pm && hour == 12) hour = 0;
    }
    if (fc.year) {
        if (fc.cc && fc.yysz <= 2) {
            if (fc.bc) fc.cc = wrap32(-(int64_t)fc.cc);
            year = fc.year % 100;
            if (year) year = fc.cc >= 0 ? wrap32(year + ((int64_t)fc.cc - 1) * 100) : wrap32(((int64_t)fc.cc + 1) * 100 - year + 1);
            else year = wrap32((int64_t)fc.cc * 100 + (fc.cc >= 0 ? 0 : 1));
        } else {
            year = fc.year;
            if (fc.bc) year = wrap32(-(int64_t)year);
            if (year < 0) year++;
        }
        fy = true;
    } else if (fc.cc) {
        if (fc.bc) fc.cc = wrap32(-(int64_t)fc.cc);
        year = fc.cc >= 0 ? wrap32(((int64_t)fc.cc - 1) * 100 + 1) : wrap32((int64_t)fc.cc * 100 + 1);
        fy = true;
    }
    if (fc.j) { j_to_ymd(fc.j, &year, &mon, &mday); fy = fm = fd = true; }
    if (fc.ww) {
        if (fc.mode == MODE_ISO) {
            int64_t jd = iso_week1(year) + UNIX_JD + ((int64_t)fc.ww - 1) * 7;
            if (fc.d) jd += fc.d > 1 ? fc.d - 2 : 6;
            j_to_ymd(jd, &year, &mon, &mday);
            fy = fm = fd = true;
        } else fc.ddd = wrap32(((int64_t)fc.ww - 1) * 7 + 1);
    }
    if (fc.w) fc.dd = wrap32(((int64_t)fc.w - 1) * 7 + 1);
    if (fc.dd) { mday = fc.dd; fd = true; }
    if (fc.mm) { mon = fc.mm; fm = true; }
    if (fc.ddd && (mon <= 1 || mday <= 1)) {
        if (!year && !fc.bc) {
            attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "cannot calculate day of year without year information");
            free(s);
            return -1;
        }
        if (fc.mode == MODE_ISO) {
            j_to_ymd(iso_week1(year) + UNIX_JD - 1 + fc.ddd, &year, &mon, &mday);
            fy = fm = fd = true;
        } else {
            static const int ysum[2][13] = { { 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365 },
                                             { 0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366 } };
            const int *y = ysum[is_leap(year)];
            int i;
            for (i = 1; i <= 12; i++) if (fc.ddd <= y[i]) break;
            if (mon <= 1) mon = i;
            if (mday <= 1) mday = fc.ddd - y[i - 1];
            fm = fd = true;
        }
    }
    /* PostgreSQL's ValidateDate on the fields given */
    if (fy || fm || fd) {
        bool bad = (fm && (mon < 1 || mon > 12)) || (fd && (mday < 1 || mday > 31));
        if (!bad && fy && fm && fd) bad = mday > attu_days_in_month(year, mon);
        if (bad) { field_overflow(s, err); free(s); return -1; }
    }
    int64_t fsec = wrap32((int64_t)wrap32((int64_t)fc.ms * 1000) + fc.us);   /* PostgreSQL's int32 fsec */
    if (hour < 0 || hour >= 24 || min < 0 || min >= 60 || sec < 0 || sec >= 60 || fsec < 0 || fsec >= 1000000) {
        field_overflow(s, err);
        free(s);
        return -1;
    }
    /* a zone read by TZH / TZM is checked, then dropped (a date has none) */
    if (fc.tzsign && (fc.tzh < 0 || fc.tzh > 15 || fc.tzm < 0 || fc.tzm >= 60)) {
        attu_error_set(err, "22009", 0, "time zone displacement out of range: \"%s\"", s);
        free(s);
        return -1;
    }
    /* PostgreSQL's Julian-day range, then its date range */
    bool valid = year > -4713 || (year == -4713 && mon >= 11);
    if (valid && mon >= 1 && mon <= 12) {
        int64_t jd = ymd_to_j(year, mon, mday), days = jd - UNIX_JD;
        /* j2date / date2j also take day overflow (a day past the month's
         * end) without a check when the year is not given */
        if (year < 5874898 && days >= ATTU_DATE_MIN_DAYS && days <= ATTU_DATE_MAX_DAYS) {
            *out = (int32_t)days;
            free(s);
            return 0;
        }
    } else if (valid) {
        field_overflow(s, err);
        free(s);
        return -1;
    }
    attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "date out of range: \"%s\"", s);
    free(s);
    return -1;
}
