/*
 * datetime_format.c - to_char(timestamp, text) and to_date(text, text) as
 * PostgreSQL 15 documents and answers them (datetime_format.h).
 *
 * A template becomes a list of steps: a field (a pattern such as YYYY or
 * Month, with its FM / TM prefix and TH / th / SP suffix), a punctuation
 * character, a blank, or a character of literal text. The patterns are
 * matched case-sensitively, the longest spelling the template starts with;
 * "..." quotes literal text, in which a backslash quotes the next
 * character, and outside quotes \" is a quote.
 */
#include "engine/datetime_format.h"

#include <ctype.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/timezone.h"
#include "engine/types.h"
#include "engine/utf8.h"

/* ---- the patterns -------------------------------------------------------- */

/* What a field stands for; the spelling's letter case only matters for
 * the names it prints (DAY Day day) */
typedef enum {
    F_MERIDIEM,       /* AM PM: both print the hour's half of the day */
    F_MERIDIEM_DOTS,  /* A.M. P.M. */
    F_ERA,            /* AD BC */
    F_ERA_DOTS,       /* A.D. B.C. */
    F_CENTURY,
    F_DAY_NAME, F_DAY_ABBR, F_YEAR_DAY, F_MONTH_DAY, F_WEEK_DAY,
    F_FRACTION,       /* FF1 .. FF6 and US: width digits of the microseconds */
    F_MILLIS,
    F_EXACT,          /* FX */
    F_HOUR24, F_HOUR12,
    F_ISO_YEAR_DAY, F_ISO_WEEK_DAY, F_ISO_WEEK, F_ISO_YEAR,
    F_JULIAN, F_MINUTE, F_MONTH_NUM, F_MONTH_NAME, F_MONTH_ABBR, F_OFFSET, F_QUARTER,
    F_ROMAN_MONTH, F_DAY_SECONDS, F_SECOND, F_ZONE_HOURS, F_ZONE_MINUTES, F_ZONE,
    F_WEEK_OF_YEAR, F_WEEK_OF_MONTH,
    F_YEAR_GROUPED,   /* Y,YYY */
    F_YEAR            /* YYYY YYY YY Y, by width */
} field_kind;

/* flags of a pattern */
#define PAT_DIGITS  1   /* reads (and mostly prints) digits */
#define PAT_GREG    2   /* a Gregorian-calendar field */
#define PAT_ISO     4   /* an ISO 8601 week-date field */
#define PAT_NOLOWER 8   /* only this spelling: no all-lower-case form */

/* the letter case a field's spelling was written in */
enum { CASE_UPPER, CASE_CAPITAL, CASE_LOWER };

typedef struct pattern {
    char    spell[6];     /* in capitals, or as written where PAT_NOLOWER */
    uint8_t kind;         /* field_kind */
    uint8_t width;        /* characters a fixed-width number takes */
    uint8_t flags;
} pattern;

/* Every pattern, by what it reads; each but the capitalized names also
 * matches in all lower case. */
static const pattern patterns[] = {
    /* the year and its parts */
    { "Y,YYY", F_YEAR_GROUPED, 5, PAT_DIGITS | PAT_GREG }, { "YYYY", F_YEAR, 4, PAT_DIGITS | PAT_GREG },
    { "YYY", F_YEAR, 3, PAT_DIGITS | PAT_GREG }, { "YY", F_YEAR, 2, PAT_DIGITS | PAT_GREG },
    { "Y", F_YEAR, 1, PAT_DIGITS | PAT_GREG }, { "CC", F_CENTURY, 2, PAT_DIGITS },
    { "BC", F_ERA, 2, 0 }, { "AD", F_ERA, 2, 0 }, { "B.C.", F_ERA_DOTS, 4, 0 }, { "A.D.", F_ERA_DOTS, 4, 0 },
    { "Q", F_QUARTER, 1, PAT_DIGITS },
    /* months and weeks */
    { "MM", F_MONTH_NUM, 2, PAT_DIGITS | PAT_GREG }, { "MONTH", F_MONTH_NAME, 5, PAT_GREG },
    { "Month", F_MONTH_NAME, 5, PAT_GREG | PAT_NOLOWER }, { "MON", F_MONTH_ABBR, 3, PAT_GREG },
    { "Mon", F_MONTH_ABBR, 3, PAT_GREG | PAT_NOLOWER }, { "RM", F_ROMAN_MONTH, 2, PAT_GREG },
    { "WW", F_WEEK_OF_YEAR, 2, PAT_DIGITS | PAT_GREG }, { "W", F_WEEK_OF_MONTH, 1, PAT_DIGITS | PAT_GREG },
    /* days */
    { "DDD", F_YEAR_DAY, 3, PAT_DIGITS | PAT_GREG }, { "DD", F_MONTH_DAY, 2, PAT_DIGITS | PAT_GREG },
    { "D", F_WEEK_DAY, 1, PAT_DIGITS | PAT_GREG }, { "DAY", F_DAY_NAME, 3, 0 },
    { "Day", F_DAY_NAME, 3, PAT_NOLOWER }, { "DY", F_DAY_ABBR, 2, 0 }, { "Dy", F_DAY_ABBR, 2, PAT_NOLOWER },
    { "J", F_JULIAN, 1, PAT_DIGITS },
    /* the ISO 8601 week date */
    { "IYYY", F_ISO_YEAR, 4, PAT_DIGITS | PAT_ISO }, { "IYY", F_ISO_YEAR, 3, PAT_DIGITS | PAT_ISO },
    { "IY", F_ISO_YEAR, 2, PAT_DIGITS | PAT_ISO }, { "I", F_ISO_YEAR, 1, PAT_DIGITS | PAT_ISO },
    { "IW", F_ISO_WEEK, 2, PAT_DIGITS | PAT_ISO }, { "IDDD", F_ISO_YEAR_DAY, 3, PAT_DIGITS | PAT_ISO },
    { "ID", F_ISO_WEEK_DAY, 1, PAT_DIGITS | PAT_ISO },
    /* the time of day */
    { "HH24", F_HOUR24, 2, PAT_DIGITS }, { "HH12", F_HOUR12, 2, PAT_DIGITS }, { "HH", F_HOUR12, 2, PAT_DIGITS },
    { "AM", F_MERIDIEM, 2, 0 }, { "PM", F_MERIDIEM, 2, 0 }, { "A.M.", F_MERIDIEM_DOTS, 4, 0 },
    { "P.M.", F_MERIDIEM_DOTS, 4, 0 },
    { "MI", F_MINUTE, 2, PAT_DIGITS }, { "SS", F_SECOND, 2, PAT_DIGITS },
    { "SSSS", F_DAY_SECONDS, 4, PAT_DIGITS }, { "SSSSS", F_DAY_SECONDS, 5, PAT_DIGITS },
    { "MS", F_MILLIS, 3, PAT_DIGITS }, { "US", F_FRACTION, 6, PAT_DIGITS },
    { "FF1", F_FRACTION, 1, PAT_DIGITS }, { "FF2", F_FRACTION, 2, PAT_DIGITS }, { "FF3", F_FRACTION, 3, PAT_DIGITS },
    { "FF4", F_FRACTION, 4, PAT_DIGITS }, { "FF5", F_FRACTION, 5, PAT_DIGITS }, { "FF6", F_FRACTION, 6, PAT_DIGITS },
    /* the zone */
    { "TZ", F_ZONE, 2, 0 }, { "TZH", F_ZONE_HOURS, 2, 0 }, { "TZM", F_ZONE_MINUTES, 2, PAT_DIGITS },
    { "OF", F_OFFSET, 2, 0 },
    /* the template's own switch */
    { "FX", F_EXACT, 2, 0 },
};

/* modifiers of a field */
#define MOD_FM   1     /* fill mode: no padding */
#define MOD_TM   2     /* translation mode (C locale: no padding of names) */
#define MOD_TH   4     /* ordinal suffix in capitals */
#define MOD_th   8     /* ordinal suffix in lower case */
#define MOD_SP  16     /* spell mode: accepted, changes nothing */
#define MOD_ORDINAL (MOD_TH | MOD_th)

enum { STEP_END, STEP_FIELD, STEP_TEXT, STEP_PUNCT, STEP_BLANK };

typedef struct step {
    uint8_t kind, mods, letters;
    const pattern *pat;
    char text[6];     /* a field: its spelling as written; else one character (a UTF-8 sequence) */
} step;

/* ASCII punctuation: printable, not a letter, digit or blank */
static bool is_punct(const char *s) {
    unsigned char c = (unsigned char)*s;
    return c > 0x20 && c < 0x7F && !(c >= 'A' && c <= 'Z') && !(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9');
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

static char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c; }
static char ascii_upper(char c) { return c >= 'a' && c <= 'z' ? (char)(c - 32) : c; }

/* Whether s starts with spell, letter for letter, or (lower) with it in
 * lower case */
static bool spelled(const char *s, const char *spell, size_t len, bool lower) {
    for (size_t i = 0; i < len; i++)
        if (s[i] != (lower ? ascii_lower(spell[i]) : spell[i])) return false;
    return true;
}

/* The longest pattern the template s starts with (NULL: none), and the
 * case it was written in */
static const pattern *match_pattern(const char *s, uint8_t *letters) {
    const pattern *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++) {
        const pattern *p = &patterns[i];
        size_t len = strlen(p->spell);
        if (len <= best_len) continue;
        if (spelled(s, p->spell, len, false)) {
            best = p;
            best_len = len;
            *letters = p->flags & PAT_NOLOWER ? CASE_CAPITAL : CASE_UPPER;
        } else if (!(p->flags & PAT_NOLOWER) && spelled(s, p->spell, len, true)) {
            best = p;
            best_len = len;
            *letters = CASE_LOWER;
        }
    }
    return best;
}

static void text_step(step *st, uint8_t kind, const char *s, int len) {
    memset(st, 0, sizeof *st);
    st->kind = kind;
    memcpy(st->text, s, (size_t)len);
}

/* The template t (NUL-terminated) into steps (strlen(t) + 1 of them),
 * ending with STEP_END. */
static void compile_template(const char *t, step *st) {
    while (*t) {
        uint8_t mods = 0;
        if (!strncmp(t, "FM", 2) || !strncmp(t, "fm", 2)) { mods = MOD_FM; t += 2; }
        else if (!strncmp(t, "TM", 2) || !strncmp(t, "tm", 2)) { mods = MOD_TM; t += 2; }
        if (!*t) break;
        uint8_t letters = CASE_UPPER;
        const pattern *p = match_pattern(t, &letters);
        if (p) {
            size_t len = strlen(p->spell);
            memset(st, 0, sizeof *st);
            st->kind = STEP_FIELD;
            st->pat = p;
            st->letters = letters;
            memcpy(st->text, t, len);
            t += len;
            if (!strncmp(t, "TH", 2)) { mods |= MOD_TH; t += 2; }
            else if (!strncmp(t, "th", 2)) { mods |= MOD_th; t += 2; }
            else if (!strncmp(t, "SP", 2)) { mods |= MOD_SP; t += 2; }
            st->mods = mods;
            st++;
        } else if (*t == '"') {
            for (t++; *t && *t != '"';) {
                if (*t == '\\' && t[1]) t++;
                int l = attu_utf8_seq_len(t);
                text_step(st++, STEP_TEXT, t, l);
                t += l;
            }
            if (*t == '"') t++;
        } else {
            if (*t == '\\' && t[1] == '"') t++;
            int l = attu_utf8_seq_len(t);
            text_step(st++, is_punct(t) ? STEP_PUNCT : is_blank(*t) ? STEP_BLANK : STEP_TEXT, t, l);
            t += l;
        }
    }
    st->kind = STEP_END;
}

void attu_fmt_cache_free(attu_fmt_cache *c) {
    free(c->fmt);
    free(c->nodes);
    free(c->desc);
    memset(c, 0, sizeof *c);
}

/* The template's steps, compiled once while the rows bring the same one */
static const step *template_steps(const char *fmt, size_t flen, attu_fmt_cache *c, attu_error *err) {
    if (c->kind == 1 && c->fmt && c->flen == flen && !memcmp(c->fmt, fmt, flen)) return c->nodes;
    attu_fmt_cache_free(c);
    c->fmt = malloc(flen + 1);
    c->nodes = malloc((flen + 1) * sizeof(step));
    if (!c->fmt || !c->nodes) { attu_fmt_cache_free(c); attu_error_oom(err); return NULL; }
    memcpy(c->fmt, fmt, flen);
    c->fmt[flen] = 0;
    c->flen = flen;
    c->kind = 1;
    compile_template(c->fmt, c->nodes);
    return c->nodes;
}

/* ---- the calendar -------------------------------------------------------- */

static const char *const month_names[12] = { "January", "February", "March", "April", "May", "June", "July",
                                             "August", "September", "October", "November", "December" };
static const char *const day_names[7] = { "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
                                          "Saturday" };

/* The month m (1-12) in Roman numerals, in capitals */
static void roman_month(int m, char *buf) {
    char *b = buf;
    if (m >= 10) { *b++ = 'X'; m -= 10; }
    if (m == 9 || m == 4) { *b++ = 'I'; *b++ = m == 9 ? 'X' : 'V'; m = 0; }
    if (m >= 5) { *b++ = 'V'; m -= 5; }
    while (m-- > 0) *b++ = 'I';
    *b = 0;
}

#define JULIAN_EPOCH 2440588      /* the Julian day of 1970-01-01 */

/* v cut to 32 bits: PostgreSQL's int arithmetic on the fields read wraps
 * (it builds with -fwrapv), where C's would be undefined */
static int wrap32(int64_t v) { return (int)(int32_t)(uint32_t)(uint64_t)v; }

static int64_t div_floor(int64_t a, int64_t b) { return a / b - (a % b != 0 && ((a < 0) != (b < 0))); }

/* 0 = Sunday */
static int weekday_of(int64_t days) { return (int)((days + 4) % 7 + 7) % 7; }

/* The Monday that starts ISO week 1 of year y. */
static int64_t iso_week1_monday(int y) {
    int64_t jan4 = attu_date_from_ymd(y, 1, 4);
    return jan4 - (weekday_of(jan4) + 6) % 7;
}

static int iso_year_of(int64_t days, int y) {
    if (days >= iso_week1_monday(y + 1)) return y + 1;
    if (days < iso_week1_monday(y)) return y - 1;
    return y;
}

typedef struct moment {
    int year, month, mday, hour, minute, second, wday, yday;
    int64_t micros, days;
} moment;

static void split_timestamp(int64_t ts, moment *m) {
    int64_t days = div_floor(ts, 86400000000LL), rem = ts - days * 86400000000LL;
    attu_date_to_ymd((int32_t)days, &m->year, &m->month, &m->mday);
    m->days = days;
    m->hour = (int)(rem / 3600000000LL);
    m->minute = (int)(rem / 60000000 % 60);
    m->second = (int)(rem / 1000000 % 60);
    m->micros = rem % 1000000;
    m->wday = weekday_of(days);
    m->yday = (int)(days - attu_date_from_ymd(m->year, 1, 1)) + 1;
}

/* ---- to_char ------------------------------------------------------------- */

size_t attu_to_char_ts_bound(size_t flen) { return flen * 12 + 16; }

/* The English ordinal suffix of the number whose digits end at end[-1]
 * (len of them): 1st 2nd 3rd, but 11th 12th 13th */
static const char *ordinal_suffix(const char *end, size_t len, bool capitals) {
    int last = len ? end[-1] - '0' : -1, tens = len > 1 ? end[-2] - '0' : -1;
    static const char *const lower[] = { "th", "st", "nd", "rd" }, *const upper[] = { "TH", "ST", "ND", "RD" };
    int k = tens != 1 && last >= 1 && last <= 3 ? last : 0;
    return capitals ? upper[k] : lower[k];
}

static char *append(char *o, const char *s) { size_t l = strlen(s); memcpy(o, s, l); return o + l; }

/* s in the letters of the field's spelling */
static char *append_cased(char *o, const char *s, int letters) {
    for (size_t i = 0; s[i]; i++)
        *o++ = letters == CASE_UPPER ? ascii_upper(s[i]) : letters == CASE_LOWER ? ascii_lower(s[i]) : s[i];
    return o;
}

/* a month or day name: the whole of it, or its first three letters, padded
 * to nine characters (whole names, unless FM or TM) */
static char *append_name(char *o, const char *name, bool abbreviated, const step *st) {
    char buf[16];
    size_t l = abbreviated ? 3 : strlen(name);
    memcpy(buf, name, l);
    buf[l] = 0;
    o = append_cased(o, buf, st->letters);
    if (!abbreviated && !(st->mods & (MOD_FM | MOD_TM)))
        while (l++ < 9) *o++ = ' ';
    return o;
}

/* v with zeros in front to width digits (none in fill mode) */
static char *append_padded(char *o, long long v, int width, bool fill) {
    return o + sprintf(o, "%0*lld", fill ? 0 : width, v);
}

long attu_to_char_ts(int64_t ts, const attu_char_zone *zone, const char *fmt, size_t flen, char *out,
                     attu_fmt_cache *cache, attu_error *err) {
    if (flen == 0 || ts == INT64_MAX || ts == INT64_MIN) return -1;
    const step *steps = template_steps(fmt, flen, cache, err);
    if (!steps) return -2;
    moment m;
    split_timestamp(ts, &m);
    int shown_year = m.year <= 0 ? 1 - m.year : m.year;   /* the year as written, BC counted up */
    bool pm = m.hour >= 12, bc = m.year <= 0;
    char *o = out;
    for (const step *st = steps; st->kind != STEP_END; st++) {
        if (st->kind != STEP_FIELD) { o = append(o, st->text); continue; }
        const pattern *p = st->pat;
        bool fill = st->mods & MOD_FM;
        char *digits = o;
        bool numeric = false;
        switch ((field_kind)p->kind) {
        case F_MERIDIEM: o = append_cased(o, pm ? "pm" : "am", st->letters); break;
        case F_MERIDIEM_DOTS: o = append_cased(o, pm ? "p.m." : "a.m.", st->letters); break;
        case F_ERA: o = append_cased(o, bc ? "bc" : "ad", st->letters); break;
        case F_ERA_DOTS: o = append_cased(o, bc ? "b.c." : "a.d.", st->letters); break;
        case F_ZONE:
            if (zone) {
                char ab[11];
                snprintf(ab, sizeof ab, "%s", zone->abbrev ? zone->abbrev : "");
                for (char *q = ab; *q; q++) *q = (char)tolower((unsigned char)*q);
                o = append_cased(o, ab, st->letters);
            }
            break;
        case F_ZONE_HOURS: {
            int32_t off = zone ? zone->offset : 0, a = off < 0 ? -off : off;
            o = append(o, off < 0 ? "-" : "+");
            o = append_padded(o, a / 3600, 2, false);   /* (FM does not apply, as PostgreSQL) */
            break;
        }
        case F_ZONE_MINUTES: {
            int32_t off = zone ? zone->offset : 0, a = off < 0 ? -off : off;
            o = append_padded(o, a % 3600 / 60, 2, false);
            break;
        }
        case F_OFFSET: {
            int32_t off = zone ? zone->offset : 0, a = off < 0 ? -off : off;
            o = append(o, off < 0 ? "-" : "+");
            o = append_padded(o, a / 3600, 2, fill);
            if (a % 3600) o += sprintf(o, ":%02d", a % 3600 / 60);
            break;
        }
        case F_EXACT: break;
        case F_MONTH_NAME: case F_MONTH_ABBR:
            o = append_name(o, month_names[m.month - 1], p->kind == F_MONTH_ABBR, st);
            break;
        case F_DAY_NAME: case F_DAY_ABBR: o = append_name(o, day_names[m.wday], p->kind == F_DAY_ABBR, st); break;
        case F_ROMAN_MONTH: {
            char r[8];
            roman_month(m.month, r);
            char *start = o;
            o = append_cased(o, r, st->letters);
            if (!fill) while (o - start < 4) *o++ = ' ';
            break;
        }
        default:
            numeric = true;
            switch ((field_kind)p->kind) {
            case F_HOUR12: o = append_padded(o, m.hour % 12 == 0 ? 12 : m.hour % 12, 2, fill); break;
            case F_HOUR24: o = append_padded(o, m.hour, 2, fill); break;
            case F_MINUTE: o = append_padded(o, m.minute, 2, fill); break;
            case F_SECOND: o = append_padded(o, m.second, 2, fill); break;
            case F_FRACTION: case F_MILLIS: {
                int width = p->width;
                long long v = m.micros;
                for (int i = width; i < 6; i++) v /= 10;
                o = append_padded(o, v, width, false);
                break;
            }
            case F_DAY_SECONDS: o = append_padded(o, m.hour * 3600 + m.minute * 60 + m.second, 0, true); break;
            case F_MONTH_NUM: o = append_padded(o, m.month, 2, fill); break;
            case F_YEAR_DAY: o = append_padded(o, m.yday, 3, fill); break;
            case F_ISO_YEAR_DAY:
                o = append_padded(o, m.days - iso_week1_monday(iso_year_of(m.days, m.year)) + 1, 3, fill);
                break;
            case F_MONTH_DAY: o = append_padded(o, m.mday, 2, fill); break;
            case F_WEEK_DAY: o = append_padded(o, m.wday + 1, 0, true); break;
            case F_ISO_WEEK_DAY: o = append_padded(o, m.wday == 0 ? 7 : m.wday, 0, true); break;
            case F_WEEK_OF_YEAR: o = append_padded(o, (m.yday - 1) / 7 + 1, 2, fill); break;
            case F_ISO_WEEK:
                o = append_padded(o, (m.days - iso_week1_monday(iso_year_of(m.days, m.year))) / 7 + 1, 2, fill);
                break;
            case F_QUARTER: o = append_padded(o, (m.month - 1) / 3 + 1, 0, true); break;
            case F_CENTURY: {
                int c = m.year > 0 ? (m.year - 1) / 100 + 1 : m.year / 100 - 1;
                bool small = c <= 99 && c >= -99;
                o = append_padded(o, c, c >= 0 ? 2 : 3, fill || !small);
                break;
            }
            case F_YEAR_GROUPED: o += sprintf(o, "%d,%03d", shown_year / 1000, shown_year % 1000); break;
            case F_YEAR: case F_ISO_YEAR: {
                int y = shown_year;
                if (p->kind == F_ISO_YEAR) {
                    y = iso_year_of(m.days, m.year);
                    if (y <= 0) y = 1 - y;
                }
                /* the last width digits; Y prints one, never padded */
                int cut = p->width == 4 ? 0 : p->width == 3 ? 1000 : p->width == 2 ? 100 : 10;
                o = append_padded(o, cut ? y % cut : y, p->width == 1 ? 0 : p->width, fill || p->width == 1);
                break;
            }
            case F_WEEK_OF_MONTH: o = append_padded(o, (m.mday - 1) / 7 + 1, 0, true); break;
            case F_JULIAN: o = append_padded(o, m.days + JULIAN_EPOCH, 0, true); break;
            default: numeric = false; break;
            }
        }
        if (numeric && (st->mods & MOD_ORDINAL))
            o = append(o, ordinal_suffix(o, (size_t)(o - digits), st->mods & MOD_TH));
    }
    return (long)(o - out);
}

/* ---- to_char of an interval --------------------------------------------- */

/* PostgreSQL's date2j over any fields, in its wrapping int arithmetic: an
 * interval's years, months and days go in as they are (J, IYYY, IW and
 * IDDD of an interval are these calendar sums, meaningless but PostgreSQL's) */
static int pg_date2j(int y, int m, int d) {
    int64_t yy = y, mm = m;
    if (mm > 2) { mm += 1; yy = wrap32(yy + 4800); }
    else { mm += 13; yy = wrap32(yy + 4799); }
    int century = (int)yy / 100;
    int j = wrap32(yy * 365 - 32167);
    j = wrap32((int64_t)j + yy / 4 - century + century / 4);
    return wrap32((int64_t)j + 7834 * mm / 256 + d);
}

/* 0 = Sunday, as PostgreSQL's j2day */
static int pg_j2day(int j) {
    int d = wrap32((int64_t)j + 1) % 7;
    return d < 0 ? d + 7 : d;
}

/* The Julian day that starts ISO week 1 of year y (PostgreSQL's isoweek2j(y, 1)) */
static int pg_week1(int y) {
    int day4 = pg_date2j(y, 1, 4);
    return wrap32((int64_t)day4 - pg_j2day(wrap32((int64_t)day4 - 1)));
}

/* PostgreSQL's date2isoyear and date2isoweek, step for step */
static int pg_isoyear(int y, int m, int d, int *week) {
    int dayn = pg_date2j(y, m, d), start = pg_week1(y);
    if (dayn < start) { y = wrap32((int64_t)y - 1); start = pg_week1(y); }
    int w = wrap32((int64_t)dayn - start) / 7 + 1;
    if (w >= 52) {
        int next = pg_week1(wrap32((int64_t)y + 1));
        if (dayn >= next) { y = wrap32((int64_t)y + 1); w = wrap32((int64_t)dayn - next) / 7 + 1; }
    }
    if (week) *week = w;
    return y;
}

/* Roman numerals of an interval's months as PostgreSQL 15.18 prints them:
 * whole years count as XII (I below zero), -1 month as XII, -2 as XI */
static const char *interval_roman(int years, int months) {
    static const char *const rm[12] = { "XII", "XI", "X", "IX", "VIII", "VII", "VI", "V", "IV", "III", "II", "I" };
    int i = months == 0 ? (years >= 0 ? 0 : 11) : months < 0 ? -(months + 1) : 12 - months;
    return rm[i];
}

long attu_to_char_interval(int32_t months, int32_t days, int64_t usec, const char *fmt, size_t flen, char *out,
                           attu_fmt_cache *cache, attu_error *err) {
    if (flen == 0) return -1;
    const step *steps = template_steps(fmt, flen, cache, err);
    if (!steps) return -2;
    /* PostgreSQL's interval2itm: every field truncated toward zero */
    int year = months / 12, mon = months % 12, mday = days;
    long long hour = usec / 3600000000LL;
    int minute = (int)(usec / 60000000 % 60), second = (int)(usec / 1000000 % 60), fsec = (int)(usec % 1000000);
    /* the "day of the year": the whole span in days, a month as 30 */
    int yday = wrap32((int64_t)wrap32(((int64_t)year * 12 + mon) * 30) + mday);
    char *o = out;
    for (const step *st = steps; st->kind != STEP_END; st++) {
        if (st->kind != STEP_FIELD) { o = append(o, st->text); continue; }
        const pattern *p = st->pat;
        bool fill = st->mods & MOD_FM;
        char *digits = o;
        bool numeric = true;
        switch ((field_kind)p->kind) {
        case F_ERA: case F_ERA_DOTS: case F_MONTH_NAME: case F_MONTH_ABBR: case F_DAY_NAME: case F_DAY_ABBR:
        case F_WEEK_DAY: case F_ISO_WEEK_DAY: case F_ZONE: case F_ZONE_HOURS: case F_ZONE_MINUTES: case F_OFFSET:
            attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "invalid format specification for an interval value");
            attu_error_set_hint(err, "Intervals are not tied to specific calendar dates.");
            return -2;
        case F_EXACT: numeric = false; break;
        case F_MERIDIEM: o = append_cased(o, hour % 24 >= 12 ? "pm" : "am", st->letters); numeric = false; break;
        case F_MERIDIEM_DOTS:
            o = append_cased(o, hour % 24 >= 12 ? "p.m." : "a.m.", st->letters);
            numeric = false;
            break;
        case F_ROMAN_MONTH: {
            numeric = false;
            if (!mon && !year) break;
            char *start = o;
            o = append_cased(o, interval_roman(year, mon), st->letters);
            if (!fill) while (o - start < 4) *o++ = ' ';
            break;
        }
        /* a negative field takes one more character, for its sign */
        case F_HOUR24: o = append_padded(o, hour, hour >= 0 ? 2 : 3, fill); break;
        case F_HOUR12: o = append_padded(o, hour % 12 == 0 ? 12 : hour % 12, hour >= 0 ? 2 : 3, fill); break;
        case F_MINUTE: o = append_padded(o, minute, minute >= 0 ? 2 : 3, fill); break;
        case F_SECOND: o = append_padded(o, second, second >= 0 ? 2 : 3, fill); break;
        case F_FRACTION: case F_MILLIS: {
            long long v = fsec;
            for (int i = p->width; i < 6; i++) v /= 10;
            o = append_padded(o, v, p->width, false);
            break;
        }
        case F_DAY_SECONDS: o = append_padded(o, hour * 3600 + minute * 60 + second, 0, true); break;
        case F_MONTH_NUM: o = append_padded(o, mon, mon >= 0 ? 2 : 3, fill); break;
        case F_YEAR_DAY: o = append_padded(o, yday, 3, fill); break;
        case F_MONTH_DAY: o = append_padded(o, mday, 2, fill); break;
        case F_WEEK_OF_YEAR: o = append_padded(o, wrap32((int64_t)yday - 1) / 7 + 1, 2, fill); break;
        case F_WEEK_OF_MONTH: o = append_padded(o, wrap32((int64_t)mday - 1) / 7 + 1, 0, true); break;
        case F_QUARTER: if (mon) o = append_padded(o, (mon - 1) / 3 + 1, 0, true); break;
        case F_CENTURY: {
            int c = year / 100;
            o = append_padded(o, c, c >= 0 ? 2 : 3, fill || c > 99 || c < -99);
            break;
        }
        case F_YEAR_GROUPED: o += sprintf(o, "%d,%03d", year / 1000, year - year / 1000 * 1000); break;
        case F_YEAR: case F_ISO_YEAR: {
            /* the width follows the year's sign, even for the ISO year */
            int y = p->kind == F_ISO_YEAR ? pg_isoyear(year, mon, mday, NULL) : year;
            int cut = p->width == 4 ? 0 : p->width == 3 ? 1000 : p->width == 2 ? 100 : 10;
            o = append_padded(o, cut ? y % cut : y, p->width == 1 ? 0 : p->width + (year < 0), fill || p->width == 1);
            break;
        }
        case F_ISO_WEEK: {
            int w;
            pg_isoyear(year, mon, mday, &w);
            o = append_padded(o, w, 2, fill);
            break;
        }
        case F_ISO_YEAR_DAY: {
            int iy = pg_isoyear(year, mon, mday, NULL);
            o = append_padded(o, wrap32((int64_t)pg_date2j(year, mon, mday) - pg_week1(iy) + 1), 3, fill);
            break;
        }
        case F_JULIAN: o = append_padded(o, pg_date2j(year, mon, mday), 0, true); break;
        }
        if (numeric && o > digits && (st->mods & MOD_ORDINAL))
            o = append(o, ordinal_suffix(o, (size_t)(o - digits), st->mods & MOD_TH));
    }
    return (long)(o - out);
}

/* ---- to_date: reading the fields ----------------------------------------- */

enum { CAL_ANY, CAL_GREG, CAL_ISO };

/* What the input gave, field by field (0: not given) */
typedef struct given {
    int calendar;                      /* CAL_GREG or CAL_ISO once a field names one */
    int hour, pm, minute, second, day_seconds, twelve_hour;
    int weekday, mday, yday, month, week, month_week, julian;
    int year, year_digits, century, bc;
    int millis, micros;
    int zone_hours, zone_minutes, zone_sign;
} given;

/* The input being read */
typedef struct reader {
    const char *p;       /* the next character */
    const char *begin;
    int slack;           /* blanks skipped around fields, which the template's
                            separators and text may still claim (below 0: owed) */
    bool exact;          /* FX: every template character takes one input character */
} reader;

static int note_calendar(given *g, const pattern *p, attu_error *err) {
    int cal = p->flags & PAT_GREG ? CAL_GREG : p->flags & PAT_ISO ? CAL_ISO : CAL_ANY;
    if (cal == CAL_ANY) return 0;
    if (g->calendar != CAL_ANY && g->calendar != cal) {
        attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "invalid combination of date conventions");
        attu_error_set_hint(err, "Do not mix Gregorian and ISO week date conventions in a formatting template.");
        return -1;
    }
    g->calendar = cal;
    return 0;
}

/* *slot = v, unless an earlier field set it to something else */
static int store(int *slot, int v, const step *st, attu_error *err) {
    if (*slot != 0 && *slot != v) {
        attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "conflicting values for \"%s\" field in formatting string",
                       st->text);
        attu_error_set_detail(err, "This value contradicts a previous setting for the same field type.");
        return -1;
    }
    *slot = v;
    return 0;
}

/* Whether a number read for st may take every digit there is: in fill
 * mode, before an ordinal suffix, at the template's end, or where what
 * follows cannot start with a digit */
static bool number_is_open(const step *st) {
    if (st->mods & (MOD_FM | MOD_ORDINAL)) return true;
    const step *next = st + 1;
    if (next->kind == STEP_END) return true;
    if (next->kind == STEP_FIELD) return !(next->pat->flags & PAT_DIGITS);
    return !(next->text[1] == 0 && next->text[0] >= '0' && next->text[0] <= '9');
}

static void number_error(attu_error *err, const char *seen, const step *st, const char *detail, int a, int b,
                         bool hint) {
    attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "invalid value \"%s\" for \"%s\"", seen, st->text);
    attu_error_set_detail(err, detail, a, b);
    if (hint) attu_error_set_hint(err, "If your source string is not fixed-width, try using the \"FM\" modifier.");
}

/* An integer for st: width characters, or as many digits as there are
 * where the number is open. Into *slot (NULL: read and dropped). Returns
 * the characters taken (blanks in front counted), or -1 with err set. */
static int read_number(reader *r, int *slot, int width, const step *st, attu_error *err) {
    const char *from = r->p, *q = r->p;
    while (is_blank(*q)) q++;
    char seen[32];
    int have = 0;
    while (have < width && have < 31 && q[have]) { seen[have] = q[have]; have++; }
    seen[have] = 0;
    long v;
    errno = 0;
    if (number_is_open(st)) {
        char *end;
        v = strtol(from, &end, 10);
        q = end;
    } else {
        if (have < width) {
            attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "source string too short for \"%s\" formatting field",
                           st->text);
            attu_error_set_detail(err, "Field requires %d characters, but only %d remain.", width, have);
            attu_error_set_hint(err, "If your source string is not fixed-width, try using the \"FM\" modifier.");
            return -1;
        }
        char *end;
        v = strtol(seen, &end, 10);
        int got = (int)(end - seen);
        if (got > 0 && got < width) {
            number_error(err, seen, st, "Field requires %d characters, but only %d could be parsed.", width, got, true);
            return -1;
        }
        q += got;
    }
    if (q == from) {
        number_error(err, seen, st, "Value must be an integer.", 0, 0, false);
        return -1;
    }
    if (errno == ERANGE || v < INT_MIN || v > INT_MAX) {
        attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "value for \"%s\" in source string is out of range",
                       st->text);
        attu_error_set_detail(err, "Value must be in the range %d to %d.", INT_MIN, INT_MAX);
        return -1;
    }
    r->p = q;
    if (slot && store(slot, (int)v, st, err)) return -1;
    return (int)(q - from);
}

/* Which of count words (whole, or their first abbrev letters where abbrev
 * > 0) the input starts with, compared without regard to case; the
 * longest that fits. Returns its index, or -1 with err set. */
static int read_word(reader *r, const char *const *words, int count, size_t abbrev, const step *st,
                     attu_error *err) {
    int best = -1;
    size_t best_len = 0;
    for (int i = 0; i < count; i++) {
        size_t len = abbrev ? abbrev : strlen(words[i]), k = 0;
        while (k < len && r->p[k] && ascii_lower(r->p[k]) == ascii_lower(words[i][k])) k++;
        if (k == len && len > best_len) { best = i; best_len = len; }
    }
    if (best >= 0) { r->p += best_len; return best; }
    /* the message quotes the input's whole word, up to a blank or the end,
     * as PostgreSQL's does (a 63-byte copy cut long words, even inside a
     * UTF-8 character) */
    size_t k = 0;
    while (r->p[k] && !is_blank(r->p[k])) k++;
    attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "invalid value \"%.*s\" for \"%s\"", (int)k, r->p,
                   st->text);
    attu_error_set_detail(err, "The given value did not match any of the allowed values for this field.");
    return -1;
}

/* A year given in fewer than four digits, moved to the one nearest 2020
 * that ends in them: two digits (or one) within 1970-2069, three within
 * 1520-2519 */
static int year_near_2020(int y) {
    if (y >= 1000) return y;
    int span = y >= 100 ? 1000 : 100;
    int low = (2020 - span / 2) % span;        /* 70, or 520 */
    return y + (y < low ? 2000 : 2000 - span);
}

/* Y,YYY: digits, a comma, then up to three characters of digits (a sign
 * and blanks before them allowed) */
static int read_grouped_year(reader *r, given *g, const step *st, attu_error *err) {
    char *end;
    errno = 0;
    long thousands = strtol(r->p, &end, 10);
    if (end == r->p || *end != ',') goto bad;
    const char *q = end + 1;
    while (is_blank(*q)) q++;
    int sign = 1, k = 0, digits = 0;
    long rest = 0;
    if (*q == '+' || *q == '-') { sign = *q == '-' ? -1 : 1; k++; }
    for (; k < 3 && q[k] >= '0' && q[k] <= '9'; k++, digits++) rest = rest * 10 + (q[k] - '0');
    if (!digits) goto bad;
    /* an int from the first part, then PostgreSQL's wrapping int arithmetic */
    if (store(&g->year, wrap32((int64_t)wrap32(thousands) * 1000 + sign * rest), st, err)) return -1;
    g->year_digits = 4;
    r->p = q + k;
    return 0;
bad:
    attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "invalid input string for \"Y,YYY\"");
    return -1;
}

/* The ordinal suffix after a number (1st, 2ND): two characters, whatever they are */
static void pass_ordinal(reader *r, const step *st) {
    if (!(st->mods & MOD_ORDINAL)) return;
    for (int i = 0; i < 2 && *r->p; i++) r->p += attu_utf8_seq_len(r->p);
}

static int skip_blanks(reader *r) {
    int n = 0;
    while (is_blank(*r->p)) { r->p++; n++; }
    return n;
}

/* One field of the template from the input */
static int read_field(reader *r, const step *st, given *g, attu_error *err) {
    const pattern *p = st->pat;
    int v, len;
    if (note_calendar(g, p, err)) return -1;
    switch ((field_kind)p->kind) {
    case F_EXACT: r->exact = true; return 0;
    case F_ZONE: case F_OFFSET:
        attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                       "formatting field \"%s\" is only supported in to_char", st->text);
        return -1;
    case F_MERIDIEM: case F_MERIDIEM_DOTS: {
        static const char *const halves[] = { "am", "pm" }, *const halves_dots[] = { "a.m.", "p.m." };
        if ((v = read_word(r, p->kind == F_MERIDIEM ? halves : halves_dots, 2, 0, st, err)) < 0 ||
            store(&g->pm, v, st, err))
            return -1;
        g->twelve_hour = 1;
        return 0;
    }
    case F_ERA: case F_ERA_DOTS: {
        static const char *const eras[] = { "ad", "bc" }, *const eras_dots[] = { "a.d.", "b.c." };
        if ((v = read_word(r, p->kind == F_ERA ? eras : eras_dots, 2, 0, st, err)) < 0) return -1;
        return store(&g->bc, v, st, err);
    }
    case F_MONTH_NAME: case F_MONTH_ABBR:
        if ((v = read_word(r, month_names, 12, p->kind == F_MONTH_ABBR ? 3 : 0, st, err)) < 0) return -1;
        return store(&g->month, v + 1, st, err);
    case F_DAY_NAME: case F_DAY_ABBR:
        /* compared against an earlier D as Sunday 0, stored as Sunday 1 */
        if ((v = read_word(r, day_names, 7, p->kind == F_DAY_ABBR ? 3 : 0, st, err)) < 0 ||
            store(&g->weekday, v, st, err))
            return -1;
        g->weekday++;
        return 0;
    case F_ROMAN_MONTH: {
        char numerals[12][8];
        const char *words[12];
        for (int m = 0; m < 12; m++) { roman_month(m + 1, numerals[m]); words[m] = numerals[m]; }
        if ((v = read_word(r, words, 12, 0, st, err)) < 0) return -1;
        return store(&g->month, v + 1, st, err);
    }
    case F_ZONE_HOURS:
        /* a sign (a blank counts as +), or a minus the blanks skipped
         * before it passed over; the zone is checked, then dropped */
        if (*r->p == '+' || *r->p == '-' || *r->p == ' ') { g->zone_sign = *r->p == '-' ? -1 : 1; r->p++; }
        else g->zone_sign = r->slack > 0 && r->p > r->begin && r->p[-1] == '-' ? -1 : 1;
        return read_number(r, &g->zone_hours, 2, st, err) < 0 ? -1 : 0;
    case F_ZONE_MINUTES:
        if (!g->zone_sign) g->zone_sign = 1;
        return read_number(r, &g->zone_minutes, 2, st, err) < 0 ? -1 : 0;
    case F_YEAR_GROUPED:
        if (read_grouped_year(r, g, st, err)) return -1;
        break;
    case F_YEAR: case F_ISO_YEAR:
        if ((len = read_number(r, &g->year, p->width, st, err)) < 0) return -1;
        if (p->width < 4 && len < 4) g->year = year_near_2020(g->year);
        g->year_digits = p->width;
        break;
    case F_MILLIS: case F_FRACTION: {
        int *slot = p->kind == F_MILLIS ? &g->millis : &g->micros, full = p->kind == F_MILLIS ? 3 : 6;
        if ((len = read_number(r, slot, p->width, st, err)) < 0) return -1;
        for (int i = len; i < full; i++) *slot *= 10;      /* fewer digits: a fraction all the same */
        break;
    }
    case F_ISO_WEEK_DAY:
        if (read_number(r, &g->weekday, 1, st, err) < 0) return -1;
        g->weekday = wrap32((int64_t)g->weekday + 1);      /* Monday 1 .. Sunday 7 to Sunday 1 .. Saturday 7 */
        if (g->weekday > 7) g->weekday = 1;
        break;
    default: {
        int *slot;
        switch ((field_kind)p->kind) {
        case F_HOUR12: g->twelve_hour = 1; /* fall through */
        case F_HOUR24: slot = &g->hour; break;
        case F_MINUTE: slot = &g->minute; break;
        case F_SECOND: slot = &g->second; break;
        case F_DAY_SECONDS: slot = &g->day_seconds; break;
        case F_MONTH_NUM: slot = &g->month; break;
        case F_YEAR_DAY: case F_ISO_YEAR_DAY: slot = &g->yday; break;
        case F_MONTH_DAY: slot = &g->mday; break;
        case F_WEEK_DAY: slot = &g->weekday; break;
        case F_WEEK_OF_YEAR: case F_ISO_WEEK: slot = &g->week; break;
        case F_CENTURY: slot = &g->century; break;
        case F_WEEK_OF_MONTH: slot = &g->month_week; break;
        case F_JULIAN: slot = &g->julian; break;
        default: slot = NULL; break;                        /* Q: read, then dropped */
        }
        if (read_number(r, slot, p->width, st, err) < 0) return -1;
        break;
    }
    }
    pass_ordinal(r, st);
    return 0;
}

/* The input against the template, as the usage notes of "Data Type
 * Formatting Functions" tell: unless FX, blanks at the start and around
 * fields are skipped, and a template separator (punctuation or a blank)
 * takes one separator or blank of the input, or nothing; each character of
 * template text takes one input character, or one of the blanks skipped
 * before it. With FX each template character takes exactly one input
 * character. Reading stops at the input's end. */
static int read_input(const step *steps, const char *in, given *g, attu_error *err) {
    reader r = { in, in, 0, false };
    for (const step *st = steps; st->kind != STEP_END && *r.p; st++) {
        bool field = st->kind == STEP_FIELD;
        if (!r.exact && (field ? st->pat->kind != F_EXACT : st == steps)) r.slack += skip_blanks(&r);
        if (field) {
            if (read_field(&r, st, g, err)) return -1;
            if (!r.exact) r.slack = skip_blanks(&r);
        } else if (r.exact) {
            r.p += attu_utf8_seq_len(r.p);
        } else if (st->kind == STEP_TEXT) {
            if (r.slack > 0) r.slack--;
            else r.p += attu_utf8_seq_len(r.p);
        } else if (is_blank(*r.p) || is_punct(r.p)) {
            r.p++;
        } else {
            r.slack--;
        }
    }
    return 0;
}

/* ---- to_date: the date from the fields ----------------------------------- */

static void julian_to_ymd(int64_t jd, int *y, int *m, int *d) {
    int64_t days = jd - JULIAN_EPOCH;
    if (days < INT32_MIN || days > INT32_MAX) {   /* far past the date range: a year that fails its check */
        *y = days < 0 ? INT_MIN : INT_MAX;
        *m = *d = 1;
        return;
    }
    attu_date_to_ymd((int32_t)days, y, m, d);
}

static int out_of_range(const char *s, attu_error *err) {
    attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "date/time field value out of range: \"%s\"", s);
    return -1;
}

/* The year the fields give (a century, a year, BC), if any */
static bool settle_year(given *g, int *year) {
    if (g->year) {
        if (g->century && g->year_digits <= 2) {
            /* a year of the century: its last two digits within it */
            int c = g->bc ? wrap32(-(int64_t)g->century) : g->century, y = g->year % 100;
            if (y == 0) *year = wrap32((int64_t)c * 100 + (c >= 0 ? 0 : 1));
            else if (c >= 0) *year = wrap32(y + ((int64_t)c - 1) * 100);
            else *year = wrap32(((int64_t)c + 1) * 100 - y + 1);
        } else {
            int y = g->bc ? wrap32(-(int64_t)g->year) : g->year;
            *year = y < 0 ? y + 1 : y;
        }
        return true;
    }
    if (g->century) {
        /* the century's first year */
        int c = g->bc ? wrap32(-(int64_t)g->century) : g->century;
        *year = c >= 0 ? wrap32(((int64_t)c - 1) * 100 + 1) : wrap32((int64_t)c * 100 + 1);
        return true;
    }
    return false;
}

/* The day the fields give into *out, and (tod not NULL) the time of day
 * in microseconds into *tod. */
static int build_date(given *g, const char *s, int32_t *out, int64_t *tod, attu_error *err) {
    int year = 0, mon = 1, mday = 1, hour = 0, min = 0, sec = 0;
    bool have_y = false, have_m = false, have_d = false;
    if (g->day_seconds) { hour = g->day_seconds / 3600; min = g->day_seconds % 3600 / 60; sec = g->day_seconds % 60; }
    if (g->second) sec = g->second;
    if (g->minute) min = g->minute;
    if (g->hour) hour = g->hour;
    if (g->twelve_hour) {
        if (hour < 1 || hour > 12) {
            attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "hour \"%d\" is invalid for the 12-hour clock", hour);
            attu_error_set_hint(err, "Use the 24-hour clock, or give an hour between 1 and 12.");
            return -1;
        }
        hour = hour % 12 + (g->pm ? 12 : 0);
    }
    have_y = settle_year(g, &year);
    if (g->julian) { julian_to_ymd(g->julian, &year, &mon, &mday); have_y = have_m = have_d = true; }
    if (g->week) {
        if (g->calendar == CAL_ISO) {
            /* ISO week and weekday (Sunday 1 here, the week's last day) */
            int64_t jd = iso_week1_monday(year) + JULIAN_EPOCH + ((int64_t)g->week - 1) * 7;
            if (g->weekday) jd += g->weekday > 1 ? g->weekday - 2 : 6;
            julian_to_ymd(jd, &year, &mon, &mday);
            have_y = have_m = have_d = true;
        } else g->yday = wrap32(((int64_t)g->week - 1) * 7 + 1);
    }
    if (g->month_week) g->mday = wrap32(((int64_t)g->month_week - 1) * 7 + 1);
    if (g->mday) { mday = g->mday; have_d = true; }
    if (g->month) { mon = g->month; have_m = true; }
    if (g->yday && (mon <= 1 || mday <= 1)) {
        if (!year && !g->bc) {
            attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "cannot calculate day of year without year information");
            return -1;
        }
        if (g->calendar == CAL_ISO) {
            julian_to_ymd(iso_week1_monday(year) + JULIAN_EPOCH - 1 + g->yday, &year, &mon, &mday);
            have_y = have_m = have_d = true;
        } else {
            /* the month the day of the year falls in (past December: 13, the
             * days past the year's end its day) */
            int before = 0, m = 1;
            for (; m <= 12; m++) {
                int len = attu_days_in_month(year, m);
                if (g->yday <= before + len) break;
                before += len;
            }
            if (mon <= 1) mon = m;
            if (mday <= 1) mday = g->yday - before;
            have_m = have_d = true;
        }
    }
    /* the fields given must be a day of the calendar */
    if (have_y || have_m || have_d) {
        bool bad = (have_m && (mon < 1 || mon > 12)) || (have_d && (mday < 1 || mday > 31));
        if (!bad && have_y && have_m && have_d) bad = mday > attu_days_in_month(year, mon);
        if (bad) return out_of_range(s, err);
    }
    int64_t fsec = wrap32((int64_t)wrap32((int64_t)g->millis * 1000) + g->micros);   /* PostgreSQL's int32 fsec */
    if (hour < 0 || hour >= 24 || min < 0 || min >= 60 || sec < 0 || sec >= 60 || fsec < 0 || fsec >= 1000000)
        return out_of_range(s, err);
    /* a zone read by TZH / TZM is checked, then dropped (a date has none) */
    if (g->zone_sign && (g->zone_hours < 0 || g->zone_hours > 15 || g->zone_minutes < 0 || g->zone_minutes >= 60)) {
        attu_error_set(err, "22009", 0, "time zone displacement out of range: \"%s\"", s);
        return -1;
    }
    /* PostgreSQL's Julian-day range, then its date range */
    bool julian_ok = year > -4713 || (year == -4713 && mon >= 11);
    if (julian_ok && (mon < 1 || mon > 12)) return out_of_range(s, err);
    if (julian_ok) {
        /* a day past the month's end, where no year was given, runs on
         * into the next month */
        int64_t days = (int64_t)attu_date_from_ymd(year, mon, mday);
        if (year < 5874898 && days >= ATTU_DATE_MIN_DAYS && days <= ATTU_DATE_MAX_DAYS) {
            *out = (int32_t)days;
            if (tod) *tod = ((int64_t)hour * 3600 + min * 60 + sec) * 1000000 + fsec;
            return 0;
        }
    }
    attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "date out of range: \"%s\"", s);
    return -1;
}

int attu_to_date(const char *str, size_t slen, const char *fmt, size_t flen, int32_t *out, attu_fmt_cache *cache,
                 attu_error *err) {
    const step *steps = template_steps(fmt, flen, cache, err);
    if (!steps) return -1;
    char *s = malloc(slen + 1);
    if (!s) return attu_error_oom(err);
    memcpy(s, str, slen);
    s[slen] = 0;
    given g;
    memset(&g, 0, sizeof g);
    int rc = read_input(steps, s, &g, err) ? -1 : build_date(&g, s, out, NULL, err);
    free(s);
    return rc;
}

int attu_to_timestamp(const char *str, size_t slen, const char *fmt, size_t flen, const struct attu_tz *zone,
                      int64_t *out, attu_fmt_cache *cache, attu_error *err) {
    const step *steps = template_steps(fmt, flen, cache, err);
    if (!steps) return -1;
    char *s = malloc(slen + 1);
    if (!s) return attu_error_oom(err);
    memcpy(s, str, slen);
    s[slen] = 0;
    given g;
    memset(&g, 0, sizeof g);
    int32_t days = 0;
    int64_t tod = 0;
    int rc = read_input(steps, s, &g, err) ? -1 : build_date(&g, s, &days, &tod, err);
    if (!rc) {
        /* the wall time, then the instant: by the offset read, else in
         * the zone (as PostgreSQL's DetermineTimeZoneOffset) */
        int64_t local = (int64_t)days * 86400000000LL + tod, v;
        if (g.zone_sign) v = local - (int64_t)g.zone_sign * ((int64_t)g.zone_hours * 3600 + g.zone_minutes * 60) * 1000000;
        else v = attu_tz_from_local_us(zone, local);
        if (days >= attu_date_from_ymd(294247, 1, 10) || v < (int64_t)ATTU_DATE_MIN_DAYS * 86400000000LL) {
            attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "timestamp out of range");
            rc = -1;
        } else {
            *out = v;
        }
    }
    free(s);
    return rc;
}
