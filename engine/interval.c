/*
 * interval.c - PostgreSQL's interval input and timestamp + interval (see
 * interval.h). The rules are PostgreSQL 15's DecodeInterval (postgres
 * style) and timestamp_pl_interval.
 */
#include "engine/interval.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/expr_program.h"
#include "engine/types.h"

#define USECS_PER_DAY 86400000000LL
#define DAYS_PER_MONTH 30            /* PostgreSQL's DAYS_PER_MONTH for fractions */
#define USECS_PER_HOUR 3600000000LL
#define USECS_PER_MINUTE 60000000LL
#define USECS_PER_SEC 1000000LL

static int bad_interval(attu_error *err, const char *s, size_t len) {
    return attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "invalid input syntax for type interval: \"%.*s\"",
                          (int)(len > 200 ? 200 : len), s);
}

static int field_overflow(attu_error *err, const char *s, size_t len) {
    return attu_error_set(err, "22015", 0, "interval field value out of range: \"%.*s\"", (int)(len > 200 ? 200 : len), s);
}

/* ---- the postgres style, field by field --------------------------------------
 *
 * As PostgreSQL 15 reads it: the text is split into fields (a number, a
 * time hh:mm[:ss[.f]], a signed number or time, a word; other punctuation
 * only separates), then the fields are read from the last to the first, a
 * unit word giving its unit to the numbers before it, a bare rightmost
 * number being seconds and a number before a time days. Each unit may be
 * given once (a time is hours, minutes and seconds; seconds with a
 * fraction are milliseconds and microseconds too). Fields overflow on
 * their own (22015); months past int32 once years are added are 22008. */

enum { PF_NUM, PF_TIME, PF_SIGNED, PF_DATE, PF_WORD };
enum { PT_NONE = -1, PT_AGO = -2, PT_US = 0, PT_MS, PT_SEC, PT_MIN, PT_HOUR, PT_DAY, PT_WEEK, PT_MON, PT_YEAR,
       PT_DECADE, PT_CENTURY, PT_MILLENNIUM, PT_OTHER };
#define PM(t) (1u << (t))
#define PM_SECS (PM(PT_SEC) | PM(PT_MS) | PM(PT_US))
#define PM_TIME (PM(PT_HOUR) | PM(PT_MIN) | PM_SECS)
enum { P_OK = 0, P_BAD, P_FIELD, P_RANGE };

#define MAX_FIELDS 25

/* PostgreSQL 15 splits interval text into one work buffer of 256 bytes,
 * each field NUL-terminated: the fields' lengths share that bound. */
#define FIELD_BUF 256

typedef struct pfield { int type; const char *text; } pfield;

/* PostgreSQL's unit words (deltatktbl), matched on at most 10 characters:
 * "microseconds" is "microsecon" */
static int unit_word(const char *w) {
    static const struct { const char *name; int type; } words[] = {
        { "ago", PT_AGO }, { "c", PT_CENTURY }, { "cent", PT_CENTURY }, { "centuries", PT_CENTURY },
        { "century", PT_CENTURY }, { "d", PT_DAY }, { "day", PT_DAY }, { "days", PT_DAY }, { "dec", PT_DECADE },
        { "decade", PT_DECADE }, { "decades", PT_DECADE }, { "decs", PT_DECADE }, { "h", PT_HOUR },
        { "hour", PT_HOUR }, { "hours", PT_HOUR }, { "hr", PT_HOUR }, { "hrs", PT_HOUR }, { "m", PT_MIN },
        { "microsecon", PT_US }, { "mil", PT_MILLENNIUM }, { "millennia", PT_MILLENNIUM },
        { "millennium", PT_MILLENNIUM }, { "millisecon", PT_MS }, { "mils", PT_MILLENNIUM }, { "min", PT_MIN },
        { "mins", PT_MIN }, { "minute", PT_MIN }, { "minutes", PT_MIN }, { "mon", PT_MON }, { "mons", PT_MON },
        { "month", PT_MON }, { "months", PT_MON }, { "ms", PT_MS }, { "msec", PT_MS }, { "msecond", PT_MS },
        { "mseconds", PT_MS }, { "msecs", PT_MS }, { "qtr", PT_OTHER }, { "quarter", PT_OTHER },
        { "s", PT_SEC }, { "sec", PT_SEC }, { "second", PT_SEC }, { "seconds", PT_SEC }, { "secs", PT_SEC },
        { "timezone", PT_OTHER }, { "timezone_h", PT_OTHER }, { "timezone_m", PT_OTHER }, { "us", PT_US },
        { "usec", PT_US }, { "usecond", PT_US }, { "useconds", PT_US }, { "usecs", PT_US }, { "w", PT_WEEK },
        { "week", PT_WEEK }, { "weeks", PT_WEEK }, { "y", PT_YEAR }, { "year", PT_YEAR }, { "years", PT_YEAR },
        { "yr", PT_YEAR }, { "yrs", PT_YEAR },
    };
    char key[11];
    size_t n = 0;
    for (; w[n] && n < 10; n++) key[n] = w[n];
    key[n] = 0;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) if (!strcmp(words[i].name, key)) return words[i].type;
    return PT_NONE;
}

/* Whether PostgreSQL knows w as a date word (a month or weekday name, a
 * single-letter ISO unit, am / pm, ad / bc, a special value): such a word
 * run into digits or a '+' ends its field ('1y2 min', 'dec1'), any other
 * word so run in begins a date field ('x1'). Checked against PostgreSQL 15,
 * word by word. */
static bool date_word(const char *w) {
    static const char *const words[] = {
        "ad", "allballs", "am", "apr", "april", "at", "aug", "august", "bc", "d", "dec", "december", "dow", "doy",
        "dst", "epoch", "feb", "february", "fri", "friday", "h", "infinity", "isodow", "isoyear", "j", "jan",
        "january", "jd", "jul", "julian", "july", "jun", "june", "m", "mar", "march", "may", "mm", "mon", "monday",
        "nov", "november", "now", "oct", "october", "on", "pm", "s", "sat", "saturday", "sep", "sept", "september",
        "sun", "sunday", "t", "thu", "thur", "thurs", "thursday", "today", "tomorrow", "tue", "tues", "tuesday",
        "wed", "wednesday", "weds", "y", "yesterday",
    };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) if (!strcmp(words[i], w)) return true;
    return false;
}

/* Splits the text into fields as PostgreSQL's ParseDateTime does. */
static int split_fields(const char *s, size_t len, char *buf, pfield *f, int *nf) {
    size_t i = 0, used = 0;
    *nf = 0;
    while (i < len) {
        unsigned char ch = (unsigned char)s[i];
        if (isspace(ch)) { i++; continue; }
        if (*nf >= MAX_FIELDS) return P_BAD;
        pfield *x = &f[*nf];
        x->text = buf + used;
#define PUT(c_) do { if (used + 1 >= FIELD_BUF) return P_BAD; buf[used++] = (char)(c_); } while (0)
        if (isdigit(ch)) {
            while (i < len && isdigit((unsigned char)s[i])) PUT(s[i++]);
            if (i < len && s[i] == ':') {
                x->type = PF_TIME;
                while (i < len && (isdigit((unsigned char)s[i]) || s[i] == ':' || s[i] == '.')) PUT(s[i++]);
            } else if (i < len && (s[i] == '-' || s[i] == '/' || s[i] == '.')) {
                char delim = s[i];
                PUT(s[i++]);
                if (i < len && isdigit((unsigned char)s[i])) {
                    x->type = delim == '.' ? PF_NUM : PF_DATE;
                    while (i < len && isdigit((unsigned char)s[i])) PUT(s[i++]);
                    if (i < len && s[i] == delim) {
                        x->type = PF_DATE;
                        while (i < len && (isdigit((unsigned char)s[i]) || s[i] == delim)) PUT(s[i++]);
                    }
                } else {
                    x->type = PF_DATE;
                    while (i < len && (isalnum((unsigned char)s[i]) || s[i] == delim)) PUT(tolower((unsigned char)s[i++]));
                }
            } else x->type = PF_NUM;
        } else if (ch == '.') {
            PUT(s[i++]);
            while (i < len && isdigit((unsigned char)s[i])) PUT(s[i++]);
            x->type = PF_NUM;
        } else if (isalpha(ch)) {
            x->type = PF_WORD;
            while (i < len && isalpha((unsigned char)s[i])) PUT(tolower((unsigned char)s[i++]));
            bool date = i < len && (s[i] == '-' || s[i] == '/' || s[i] == '.');
            if (!date && i < len && (s[i] == '+' || isdigit((unsigned char)s[i]))) {
                buf[used] = 0;
                date = !date_word(x->text);
            }
            if (date) {
                /* a word run into digits or separators: a date, which no
                 * interval field is */
                x->type = PF_DATE;
                while (i < len && (s[i] == '+' || s[i] == '-' || s[i] == '/' || s[i] == '_' || s[i] == '.' || s[i] == ':' ||
                                   isalnum((unsigned char)s[i])))
                    PUT(tolower((unsigned char)s[i++]));
            }
        } else if (ch == '+' || ch == '-') {
            PUT(s[i++]);
            while (i < len && isspace((unsigned char)s[i])) i++;
            if (i < len && isdigit((unsigned char)s[i])) {
                x->type = PF_SIGNED;
                PUT(s[i++]);
                while (i < len && (isdigit((unsigned char)s[i]) || s[i] == ':' || s[i] == '.' || s[i] == '-')) PUT(s[i++]);
            } else if (i < len && isalpha((unsigned char)s[i])) {
                x->type = PF_WORD;
                while (i < len && isalpha((unsigned char)s[i])) PUT(tolower((unsigned char)s[i++]));
            } else return P_BAD;
        } else if (ispunct(ch)) { i++; continue; }
        else return P_BAD;
#undef PUT
        buf[used++] = 0;
        (*nf)++;
    }
    return P_OK;
}

/* PostgreSQL's interval accumulators (pg_itm_in), each checked as it grows. */
typedef struct itm_in { int64_t usec; int32_t mday, mon, year; } itm_in;

static bool add_usec_frac(itm_in *t, double frac, int64_t scale) {
    if (frac == 0) return true;
    frac *= (double)scale;
    if (!(frac > -9.2e18 && frac < 9.2e18)) return false;
    int64_t u = (int64_t)frac;
    frac -= (double)u;
    if (frac > 0.5) u++;
    else if (frac < -0.5) u--;
    return !__builtin_add_overflow(t->usec, u, &t->usec);
}

static bool add_usec(itm_in *t, int64_t val, double frac, int64_t scale) {
    int64_t p;
    if (__builtin_mul_overflow(val, scale, &p) || __builtin_add_overflow(t->usec, p, &t->usec)) return false;
    return add_usec_frac(t, frac, scale);
}

static bool add_days(itm_in *t, int64_t val, int scale) {
    int32_t d;
    if (val < INT32_MIN || val > INT32_MAX) return false;
    return !__builtin_mul_overflow((int32_t)val, scale, &d) && !__builtin_add_overflow(t->mday, d, &t->mday);
}

static bool add_frac_days(itm_in *t, double frac, int scale) {
    if (frac == 0) return true;
    frac *= scale;
    if (!(frac > -2147483648.0 && frac < 2147483648.0)) return false;
    int32_t d = (int32_t)frac;
    if (__builtin_add_overflow(t->mday, d, &t->mday)) return false;
    return add_usec_frac(t, frac - d, USECS_PER_DAY);
}

static bool add_months(itm_in *t, int64_t val) {
    if (val < INT32_MIN || val > INT32_MAX) return false;
    return !__builtin_add_overflow(t->mon, (int32_t)val, &t->mon);
}

static bool add_years(itm_in *t, int64_t val, int scale, double frac) {
    int32_t y;
    if (val < INT32_MIN || val > INT32_MAX) return false;
    if (__builtin_mul_overflow((int32_t)val, scale, &y) || __builtin_add_overflow(t->year, y, &t->year)) return false;
    if (frac == 0) return true;
    double m = rint(frac * scale * 12);
    if (!(m > -2147483649.0 && m < 2147483648.0)) return false;
    return !__builtin_add_overflow(t->mon, (int32_t)m, &t->mon);
}

/* strtoll that reports overflow as PostgreSQL's strtoi64 does (ERANGE) */
static int64_t to_i64(const char *p, const char **end, bool *range) {
    errno = 0;
    char *e;
    long long v = strtoll(p, &e, 10);
    *range = errno == ERANGE;
    *end = e;
    return v;
}

/* PostgreSQL's fraction of a number field ('.5', '.'): P_OK or P_BAD */
static int number_fraction(const char *cp, double *frac) {
    if (cp[1] == 0) { *frac = 0; return P_OK; }
    errno = 0;
    char *e;
    *frac = strtod(cp, &e);
    return (*e || errno) ? P_BAD : P_OK;
}

/* hh:mm[:ss[.f]] or mm:ss.f as microseconds (DecodeTimeForInterval) */
static int time_field(const char *str, int64_t *usec_out) {
    const char *cp;
    bool range;
    int64_t hour = to_i64(str, &cp, &range), min, sec = 0;
    double fsec = 0;
    if (range) return P_FIELD;
    if (*cp != ':') return P_BAD;
    min = to_i64(cp + 1, &cp, &range);
    if (range || min > INT32_MAX || min < INT32_MIN) return P_FIELD;
    if (*cp == 0) {
    } else if (*cp == '.') {
        double f;
        if (number_fraction(cp, &f)) return P_BAD;     /* '1:2.' has a fraction of 0 */
        fsec = rint(f * 1000000);
        sec = min; min = hour; hour = 0;      /* mm:ss.f */
    } else if (*cp == ':') {
        sec = to_i64(cp + 1, &cp, &range);
        if (range || sec > INT32_MAX || sec < INT32_MIN) return P_FIELD;
        if (*cp == '.') {
            double f;
            if (number_fraction(cp, &f)) return P_BAD;
            fsec = rint(f * 1000000);
        } else if (*cp) return P_BAD;
    } else return P_BAD;
    if (hour < 0 || min < 0 || min > 59 || sec < 0 || sec > 60 || fsec < 0 || fsec > 1000000) return P_FIELD;
    int64_t u = (int64_t)fsec, p;
    if (__builtin_mul_overflow(hour, USECS_PER_HOUR, &p) || __builtin_add_overflow(u, p, &u) ||
        __builtin_add_overflow(u, min * USECS_PER_MINUTE, &u) || __builtin_add_overflow(u, sec * USECS_PER_SEC, &u))
        return P_FIELD;
    *usec_out = u;
    return P_OK;
}

static int decode_postgres(const char *s, size_t len, itm_in *t) {
    pfield f[MAX_FIELDS];
    char work[FIELD_BUF];
    int nf, rc = split_fields(s, len, work, f, &nf);
    if (rc) return rc;
    memset(t, 0, sizeof *t);
    unsigned fmask = 0, tmask;
    int type = PT_NONE;
    bool ago = false;
    for (int i = nf - 1; i >= 0; i--) {
        const char *txt = f[i].text;
        tmask = 0;
        switch (f[i].type) {
        case PF_TIME: {
            int64_t u;
            if ((rc = time_field(txt, &u))) return rc;
            t->usec = u;                      /* a time sets the microseconds */
            tmask = PM_TIME;
            type = PT_DAY;
            break;
        }
        case PF_SIGNED:
            if (strchr(txt + 1, ':')) {
                int64_t u;
                if (time_field(txt + 1, &u) == P_OK) {
                    if (txt[0] == '-') u = -u;
                    t->usec = u;
                    tmask = PM_TIME;
                    type = PT_DAY;
                    break;
                }
            }
            /* a signed number or years-months, as below */
            __attribute__((fallthrough));
        case PF_NUM: case PF_DATE: {
            if (type == PT_NONE) type = PT_SEC;
            const char *cp;
            bool range;
            int64_t val = to_i64(txt, &cp, &range);
            double frac = 0;
            if (range) return P_FIELD;
            if (*cp == '-') {
                /* the SQL standard's years-months */
                int64_t m2 = to_i64(cp + 1, &cp, &range);
                if (range || m2 < 0 || m2 >= 12) return P_FIELD;
                if (*cp) return P_BAD;
                type = PT_MON;
                if (txt[0] == '-') m2 = -m2;
                if (__builtin_mul_overflow(val, 12, &val) || __builtin_add_overflow(val, m2, &val)) return P_FIELD;
            } else if (*cp == '.') {
                if (number_fraction(cp, &frac)) return P_BAD;
                if (txt[0] == '-') frac = -frac;
            } else if (*cp) return P_BAD;
            bool ok = true;
            switch (type) {
            case PT_US: ok = add_usec(t, val, frac, 1); tmask = PM(PT_US); break;
            case PT_MS: ok = add_usec(t, val, frac, 1000); tmask = PM(PT_MS); break;
            case PT_SEC: ok = add_usec(t, val, frac, USECS_PER_SEC); tmask = frac == 0 ? PM(PT_SEC) : PM_SECS; break;
            case PT_MIN: ok = add_usec(t, val, frac, USECS_PER_MINUTE); tmask = PM(PT_MIN); break;
            case PT_HOUR: ok = add_usec(t, val, frac, USECS_PER_HOUR); tmask = PM(PT_HOUR); type = PT_DAY; break;
            case PT_DAY: ok = add_days(t, val, 1) && add_usec_frac(t, frac, USECS_PER_DAY); tmask = PM(PT_DAY); break;
            case PT_WEEK: ok = add_days(t, val, 7) && add_frac_days(t, frac, 7); tmask = PM(PT_WEEK); break;
            case PT_MON: ok = add_months(t, val) && add_frac_days(t, frac, DAYS_PER_MONTH); tmask = PM(PT_MON); break;
            case PT_YEAR: ok = add_years(t, val, 1, frac); tmask = PM(PT_YEAR); break;
            case PT_DECADE: ok = add_years(t, val, 10, frac); tmask = PM(PT_DECADE); break;
            case PT_CENTURY: ok = add_years(t, val, 100, frac); tmask = PM(PT_CENTURY); break;
            case PT_MILLENNIUM: ok = add_years(t, val, 1000, frac); tmask = PM(PT_MILLENNIUM); break;
            default: return P_BAD;           /* after "ago", or a unit interval input has not */
            }
            if (!ok) return P_FIELD;
            break;
        }
        case PF_WORD: {
            int u = unit_word(txt);          /* a signed word ('-mil') is none */
            if (u == PT_NONE) return P_BAD;
            if (u == PT_AGO) { ago = true; type = PT_OTHER; }
            else type = u;
            break;
        }
        default:
            return P_BAD;
        }
        if (tmask & fmask) return P_BAD;
        fmask |= tmask;
    }
    if (!fmask) return P_BAD;
    if (ago) {
        if (t->usec == INT64_MIN || t->mday == INT32_MIN || t->mon == INT32_MIN || t->year == INT32_MIN) return P_FIELD;
        t->usec = -t->usec; t->mday = -t->mday; t->mon = -t->mon; t->year = -t->year;
    }
    return P_OK;
}

/* ISO 8601 numbers as PostgreSQL's ParseISO8601Number: a digit, '-' or '.'
 * first, then strtod; the integer part truncated toward zero */
static int iso_number(const char **p, int64_t *ip, double *fp) {
    const char *s = *p;
    if (!(isdigit((unsigned char)*s) || *s == '-' || *s == '.')) return P_BAD;
    errno = 0;
    char *e;
    double v = strtod(s, &e);
    if (e == s || errno) return P_BAD;
    if (isnan(v) || v < -1.0e15 || v > 1.0e15) return P_FIELD;   /* PostgreSQL 15 bounds it at 1e15 */
    *ip = v >= 0 ? (int64_t)floor(v) : -(int64_t)floor(-v);
    *fp = v - (double)*ip;
    *p = e;
    return P_OK;
}

static size_t iso_int_width(const char *s) {
    if (*s == '-') s++;
    return strspn(s, "0123456789");
}

/* ISO 8601 durations as PostgreSQL's DecodeISO8601Interval: the format with
 * designators (P1Y2M3DT4H5M6S, P1W) and the alternative formats
 * (P0001-02-03T04:05:06, P00010203T040506); s is NUL-terminated. */
static int decode_iso(const char *s, itm_in *t) {
    memset(t, 0, sizeof *t);
    if (strlen(s) < 2 || s[0] != 'P') return P_BAD;
    s++;
    bool datepart = true, havefield = false;
    while (*s) {
        if (*s == 'T') { datepart = false; havefield = false; s++; continue; }
        const char *start = s;
        int64_t val;
        double frac;
        int rc = iso_number(&s, &val, &frac);
        if (rc) return rc;
        char unit = *s;
        if (unit) s++;
        bool ok = true;
        if (datepart) {
            switch (unit) {
            case 'Y': ok = add_years(t, val, 1, frac); break;
            case 'M': ok = add_months(t, val) && add_frac_days(t, frac, DAYS_PER_MONTH); break;
            case 'W': ok = add_days(t, val, 7) && add_frac_days(t, frac, 7); break;
            case 'D': ok = add_days(t, val, 1) && add_usec_frac(t, frac, USECS_PER_DAY); break;
            case 'T': case '\0': case '-':
                if (unit != '-' && iso_int_width(start) == 8 && !havefield) {
                    /* basic: YYYYMMDD */
                    if (!add_years(t, val / 10000, 1, 0) || !add_months(t, (val / 100) % 100) || !add_days(t, val % 100, 1) ||
                        !add_usec_frac(t, frac, USECS_PER_DAY))
                        return P_FIELD;
                    if (unit == '\0') return P_OK;
                    datepart = false; havefield = false;
                    continue;
                }
                /* extended: Y-M-D */
                if (havefield) return P_BAD;
                if (!add_years(t, val, 1, frac)) return P_FIELD;
                if (unit == '\0') return P_OK;
                if (unit == 'T') { datepart = false; havefield = false; continue; }
                if ((rc = iso_number(&s, &val, &frac))) return rc;
                if (!add_months(t, val) || !add_frac_days(t, frac, DAYS_PER_MONTH)) return P_FIELD;
                if (*s == '\0') return P_OK;
                if (*s == 'T') { datepart = false; havefield = false; s++; continue; }
                if (*s != '-') return P_BAD;
                s++;
                if ((rc = iso_number(&s, &val, &frac))) return rc;
                if (!add_days(t, val, 1) || !add_usec_frac(t, frac, USECS_PER_DAY)) return P_FIELD;
                if (*s == '\0') return P_OK;
                if (*s == 'T') { datepart = false; havefield = false; s++; continue; }
                return P_BAD;
            default: return P_BAD;
            }
        } else {
            switch (unit) {
            case 'H': ok = add_usec(t, val, frac, USECS_PER_HOUR); break;
            case 'M': ok = add_usec(t, val, frac, USECS_PER_MINUTE); break;
            case 'S': ok = add_usec(t, val, frac, USECS_PER_SEC); break;
            case '\0': case ':':
                if (unit == '\0' && iso_int_width(start) == 6 && !havefield) {
                    /* basic: hhmmss */
                    if (!add_usec(t, val / 10000, 0, USECS_PER_HOUR) || !add_usec(t, (val / 100) % 100, 0, USECS_PER_MINUTE) ||
                        !add_usec(t, val % 100, 0, USECS_PER_SEC) || !add_usec_frac(t, frac, 1))
                        return P_FIELD;
                    return P_OK;
                }
                /* extended: hh:mm:ss */
                if (havefield) return P_BAD;
                if (!add_usec(t, val, frac, USECS_PER_HOUR)) return P_FIELD;
                if (unit == '\0') return P_OK;
                if ((rc = iso_number(&s, &val, &frac))) return rc;
                if (!add_usec(t, val, frac, USECS_PER_MINUTE)) return P_FIELD;
                if (*s == '\0') return P_OK;
                if (*s != ':') return P_BAD;
                s++;
                if ((rc = iso_number(&s, &val, &frac))) return rc;
                if (!add_usec(t, val, frac, USECS_PER_SEC)) return P_FIELD;
                if (*s == '\0') return P_OK;
                return P_BAD;
            default: return P_BAD;
            }
        }
        if (!ok) return P_FIELD;
        havefield = true;
    }
    return P_OK;
}

int attu_interval_parse(const char *s, size_t len, attu_interval *out, attu_error *err) {
    itm_in t;
    int rc = decode_postgres(s, len, &t);
    if (rc == P_BAD && len >= 2 && s[0] == 'P') {
        /* then ISO 8601, as PostgreSQL tries it after the postgres style */
        if (memchr(s, 0, len)) return bad_interval(err, s, len);
        char small[256], *buf = len < sizeof small ? small : malloc(len + 1);
        if (!buf) return attu_error_oom(err);
        memcpy(buf, s, len);
        buf[len] = 0;
        rc = decode_iso(buf, &t);
        if (buf != small) free(buf);
    }
    if (rc == P_BAD) return bad_interval(err, s, len);
    if (rc == P_FIELD) return field_overflow(err, s, len);
    int64_t months = (int64_t)t.year * 12 + t.mon;
    if (months > INT32_MAX || months < INT32_MIN)
        return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "interval out of range");
    out->months = (int32_t)months;
    out->days = t.mday;
    out->usec = t.usec;
    return 0;
}

int attu_interval_sign(attu_interval iv) {
    __int128 span = ((__int128)iv.months * DAYS_PER_MONTH + iv.days) * USECS_PER_DAY + iv.usec;
    return span > 0 ? 1 : span < 0 ? -1 : 0;
}

/* PostgreSQL's range (4714-11-24 BC .. 294276 AD), cut at the int64 end of
 * microseconds since 1970 as attu's input does (types.c). */
int attu_timestamp_in_range(__int128 ts) {
    __int128 lo = (__int128)ATTU_DATE_MIN_DAYS * USECS_PER_DAY;
    __int128 hi = (__int128)attu_date_from_ymd(294277, 1, 1) * USECS_PER_DAY;
    return ts >= lo && ts < hi && ts < INT64_MAX;
}

static int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

int attu_timestamp_add_interval(int64_t ts, attu_interval iv, int64_t *out) {
    __int128 t = ts;
    if (iv.months) {
        int64_t day = floor_div(ts, USECS_PER_DAY), tod = ts - day * USECS_PER_DAY;
        int y, m, d;
        attu_date_to_ymd((int32_t)day, &y, &m, &d);
        int64_t mon = (int64_t)y * 12 + (m - 1) + iv.months;
        int64_t ny = mon >= 0 ? mon / 12 : -((-mon + 11) / 12), nm = mon - ny * 12 + 1;
        if (ny < -4713 || ny > 294277) return -1;
        int last = attu_days_in_month((int)ny, (int)nm);
        if (d > last) d = last;
        t = (__int128)attu_date_from_ymd((int)ny, (int)nm, d) * USECS_PER_DAY + tod;
        if (!attu_timestamp_in_range(t)) return -1;
    }
    if (iv.days) {
        t += (__int128)iv.days * USECS_PER_DAY;
        if (!attu_timestamp_in_range(t)) return -1;
    }
    t += iv.usec;
    if (!attu_timestamp_in_range(t)) return -1;
    *out = (int64_t)t;
    return 0;
}

/* ---- the value type ------------------------------------------------------------ */


static int interval_range(attu_error *err) {
    return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "interval out of range");
}

__int128 attu_interval_span(attu_interval iv) {
    return ((__int128)iv.months * DAYS_PER_MONTH + iv.days) * USECS_PER_DAY + iv.usec;
}

int attu_interval_cmp(attu_interval a, attu_interval b) {
    __int128 x = attu_interval_span(a), y = attu_interval_span(b);
    return (x > y) - (x < y);
}

/* "n unit[s]" of the postgres style, a sign before a positive one after a
 * negative one */
static size_t put_part(char *o, size_t n, int64_t v, const char *unit, bool *zero, bool *before) {
    if (v == 0) return n;
    n += (size_t)sprintf(o + n, "%s%s%lld %s%s", *zero ? "" : " ", *before && v > 0 ? "+" : "", (long long)v, unit,
                         v != 1 ? "s" : "");
    *before = v < 0;
    *zero = false;
    return n;
}

size_t attu_interval_format(attu_interval iv, char *buf, size_t cap) {
    char o[128];
    size_t n = 0;
    bool zero = true, before = false;
    n = put_part(o, n, iv.months / 12, "year", &zero, &before);
    n = put_part(o, n, iv.months % 12, "mon", &zero, &before);
    n = put_part(o, n, iv.days, "day", &zero, &before);
    int64_t t = iv.usec;
    int64_t hour = t / USECS_PER_HOUR;
    t -= hour * USECS_PER_HOUR;
    int64_t min = t / USECS_PER_MINUTE;
    t -= min * USECS_PER_MINUTE;
    int64_t sec = t / USECS_PER_SEC, fsec = t - sec * USECS_PER_SEC;
    if (zero || hour || min || sec || fsec) {
        bool minus = hour < 0 || min < 0 || sec < 0 || fsec < 0;
        /* |hour| < 2^63 / 3.6e9: no overflow in negating */
        n += (size_t)sprintf(o + n, "%s%s%02lld:%02lld:%02lld", zero ? "" : " ", minus ? "-" : before ? "+" : "",
                             (long long)(hour < 0 ? -hour : hour), (long long)(min < 0 ? -min : min),
                             (long long)(sec < 0 ? -sec : sec));
        if (fsec) {
            char f[24];
            snprintf(f, sizeof f, "%06lld", (long long)(fsec < 0 ? -fsec : fsec));
            int k = 6;
            while (k > 0 && f[k - 1] == '0') k--;
            n += (size_t)sprintf(o + n, ".%.*s", k, f);
        }
    }
    o[n] = 0;
    if (cap) {
        size_t w = n < cap - 1 ? n : cap - 1;
        memcpy(buf, o, w);
        buf[w] = 0;
        return w;
    }
    return n;
}

static int fields_fit(__int128 m, __int128 d, __int128 u, attu_interval *out, attu_error *err) {
    if (m < INT32_MIN || m > INT32_MAX || d < INT32_MIN || d > INT32_MAX || u < INT64_MIN || u > INT64_MAX)
        return interval_range(err);
    out->months = (int32_t)m;
    out->days = (int32_t)d;
    out->usec = (int64_t)u;
    return 0;
}

int attu_interval_add(attu_interval a, attu_interval b, attu_interval *out, attu_error *err) {
    return fields_fit((__int128)a.months + b.months, (__int128)a.days + b.days, (__int128)a.usec + b.usec, out, err);
}

int attu_interval_sub(attu_interval a, attu_interval b, attu_interval *out, attu_error *err) {
    return fields_fit((__int128)a.months - b.months, (__int128)a.days - b.days, (__int128)a.usec - b.usec, out, err);
}

int attu_interval_neg(attu_interval a, attu_interval *out, attu_error *err) {
    return fields_fit(-(__int128)a.months, -(__int128)a.days, -(__int128)a.usec, out, err);
}

/* rounded to the microsecond, as PostgreSQL's TSROUND */
static double ts_round(double x) { return rint(x * 1e6) / 1e6; }

/* The shared tail of interval_mul and interval_div: month_f and day_f are
 * the exact (double) products or quotients of the month and day fields,
 * usec_f that of the time. */
static int spill(double month_f, double day_f, double usec_f, attu_interval *out, attu_error *err) {
    if (isnan(month_f) || month_f >= 2147483648.0 || month_f <= -2147483649.0 ||
        isnan(day_f) || day_f >= 2147483648.0 || day_f <= -2147483649.0)
        return interval_range(err);
    int32_t months = (int32_t)month_f, days = (int32_t)day_f;
    double mrem_days = ts_round((month_f - months) * DAYS_PER_MONTH);
    double sec_rem = ts_round((day_f - days + mrem_days - (int32_t)mrem_days) * 86400.0);
    __int128 d = days;
    if (fabs(sec_rem) >= 86400.0) {
        d += (int32_t)(sec_rem / 86400.0);
        sec_rem -= (int32_t)(sec_rem / 86400.0) * 86400.0;
    }
    d += (int32_t)mrem_days;
    double t = rint(usec_f + sec_rem * 1e6);
    if (isnan(t) || t < -9223372036854775808.0 || t >= 9223372036854775808.0) return interval_range(err);
    return fields_fit(months, d, (__int128)(int64_t)t, out, err);
}

int attu_interval_mul(attu_interval a, double f, attu_interval *out, attu_error *err) {
    return spill((double)a.months * f, (double)a.days * f, (double)a.usec * f, out, err);
}

int attu_interval_div(attu_interval a, double f, attu_interval *out, attu_error *err) {
    if (f == 0) return attu_error_set(err, ATTU_SQLSTATE_DIVISION_BY_ZERO, 0, "division by zero");
    return spill((double)a.months / f, (double)a.days / f, (double)a.usec / f, out, err);
}

int attu_interval_justify(attu_interval a, int which, attu_interval *out, attu_error *err) {
    __int128 m = a.months, d = a.days, t = a.usec;
    if (which & 2) {
        __int128 whole = t / USECS_PER_DAY;
        t -= whole * USECS_PER_DAY;
        d += whole;
        /* justify_interval carries the days on into months first: PostgreSQL
           15 moves whole months out of the days beforehand, so only the
           months can overflow there */
        if (which == 2 && (d < INT32_MIN || d > INT32_MAX)) return interval_range(err);
    }
    if (which & 1) {
        __int128 whole = d / DAYS_PER_MONTH;
        d -= whole * DAYS_PER_MONTH;
        m += whole;
        if (m < INT32_MIN || m > INT32_MAX) return interval_range(err);
    }
    if (which == 1) {
        if (m > 0 && d < 0) { d += DAYS_PER_MONTH; m--; }
        else if (m < 0 && d > 0) { d -= DAYS_PER_MONTH; m++; }
    } else if (which == 2) {
        if (d > 0 && t < 0) { t += USECS_PER_DAY; d--; }
        else if (d < 0 && t > 0) { t -= USECS_PER_DAY; d++; }
    } else {
        if (m > 0 && (d < 0 || (d == 0 && t < 0))) { d += DAYS_PER_MONTH; m--; }
        else if (m < 0 && (d > 0 || (d == 0 && t > 0))) { d -= DAYS_PER_MONTH; m++; }
        if (d > 0 && t < 0) { t += USECS_PER_DAY; d--; }
        else if (d < 0 && t > 0) { t -= USECS_PER_DAY; d++; }
    }
    return fields_fit(m, d, t, out, err);
}

int attu_timestamp_diff(int64_t a, int64_t b, attu_interval *out, attu_error *err) {
    __int128 t = (__int128)a - b;
    if (t < INT64_MIN || t > INT64_MAX) return interval_range(err);
    attu_interval iv = { 0, 0, (int64_t)t };
    return attu_interval_justify(iv, 2, out, err);
}

/* a timestamp's calendar fields (astronomical years) */
typedef struct tm_fields { int64_t year, mon, mday, hour, min, sec, fsec; } tm_fields;

static void ts_fields(int64_t ts, tm_fields *f) {
    int64_t day = floor_div(ts, USECS_PER_DAY), tod = ts - day * USECS_PER_DAY;
    int y, m, d;
    attu_date_to_ymd((int32_t)day, &y, &m, &d);
    f->year = y; f->mon = m; f->mday = d;
    f->hour = tod / USECS_PER_HOUR;
    f->min = tod / USECS_PER_MINUTE % 60;
    f->sec = tod / USECS_PER_SEC % 60;
    f->fsec = tod % USECS_PER_SEC;
}

int attu_timestamp_age(int64_t a, int64_t b, attu_interval *out, attu_error *err) {
    tm_fields f1, f2;
    ts_fields(a, &f1);
    ts_fields(b, &f2);
    int64_t fsec = f1.fsec - f2.fsec, sec = f1.sec - f2.sec, min = f1.min - f2.min, hour = f1.hour - f2.hour,
            mday = f1.mday - f2.mday, mon = f1.mon - f2.mon, year = f1.year - f2.year;
    bool flip = a < b;
    if (flip) { fsec = -fsec; sec = -sec; min = -min; hour = -hour; mday = -mday; mon = -mon; year = -year; }
    /* borrow from the next larger field, a month's length from the earlier
     * timestamp's month */
    while (fsec < 0) { fsec += USECS_PER_SEC; sec--; }
    while (sec < 0) { sec += 60; min--; }
    while (min < 0) { min += 60; hour--; }
    while (hour < 0) { hour += 24; mday--; }
    while (mday < 0) {
        const tm_fields *e = flip ? &f1 : &f2;
        mday += attu_days_in_month((int)e->year, (int)e->mon);
        mon--;
    }
    while (mon < 0) { mon += 12; year--; }
    if (flip) { fsec = -fsec; sec = -sec; min = -min; hour = -hour; mday = -mday; mon = -mon; year = -year; }
    return fields_fit((__int128)year * 12 + mon, mday,
                      (((__int128)hour * 60 + min) * 60 + sec) * USECS_PER_SEC + fsec, out, err);
}

/* attu_extract_field's values, as expr_program.h numbers them */
enum { F_YEAR = 0, F_MONTH, F_DAY, F_HOUR, F_MINUTE, F_SECOND, F_DOW, F_DOY, F_QUARTER, F_EPOCH, F_WEEK, F_MS, F_US,
       F_DECADE, F_CENTURY, F_MILLENNIUM, F_ISOYEAR, F_ISODOW, F_JULIAN };
_Static_assert((int)F_MS == (int)ATTU_TRUNC_MILLISECONDS && (int)F_MILLENNIUM == (int)ATTU_TRUNC_MILLENNIUM &&
               (int)F_JULIAN == (int)ATTU_EXTRACT_JULIAN && (int)F_WEEK == (int)ATTU_EXTRACT_WEEK, "attu_extract_field's numbering");

static const char *field_name(int f) {
    static const char *names[] = { "year", "month", "day", "hour", "minute", "second", "dow", "doy", "quarter",
                                   "epoch", "week", "milliseconds", "microseconds", "decade", "century",
                                   "millennium", "isoyear", "isodow", "julian" };
    return f >= 0 && f < (int)(sizeof names / sizeof *names) ? names[f] : "?";
}

int attu_interval_extract(attu_interval iv, int field, __int128 *m, int *scale, attu_error *err) {
    int64_t year = iv.months / 12, mon = iv.months % 12, t = iv.usec;
    int64_t hour = t / USECS_PER_HOUR, min = t % USECS_PER_HOUR / USECS_PER_MINUTE, secus = t % USECS_PER_MINUTE;
    *scale = 0;
    switch (field) {
    case F_US: *m = secus; break;
    case F_MS: *m = secus; *scale = 3; break;
    case F_SECOND: *m = secus; *scale = 6; break;
    case F_MINUTE: *m = min; break;
    case F_HOUR: *m = hour; break;
    case F_DAY: *m = iv.days; break;
    case F_MONTH: *m = mon; break;
    case F_QUARTER: *m = mon / 3 + 1; break;
    case F_YEAR: *m = year; break;
    case F_DECADE: *m = year / 10; break;
    case F_CENTURY: *m = year / 100; break;
    case F_MILLENNIUM: *m = year / 1000; break;
    case F_EPOCH: {
        /* a year as 365.25 days, a month as 30 */
        __int128 secs = ((__int128)year * 1461 * 86400) / 4 + ((__int128)mon * DAYS_PER_MONTH + iv.days) * 86400;
        *m = secs * USECS_PER_SEC + t;
        *scale = 6;
        break;
    }
    default:
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "interval units \"%s\" not supported",
                              field_name(field));
    }
    return 0;
}

int attu_interval_trunc(attu_interval iv, int field, attu_interval *out, attu_error *err) {
    int64_t year = iv.months / 12, mon = iv.months % 12, day = iv.days, t = iv.usec;
    int64_t hour = t / USECS_PER_HOUR, min = t % USECS_PER_HOUR / USECS_PER_MINUTE;
    int64_t sec = t % USECS_PER_MINUTE / USECS_PER_SEC, fsec = t % USECS_PER_SEC;
    switch (field) {
    case F_MILLENNIUM: year = year / 1000 * 1000; mon = 0; day = 0; hour = min = sec = fsec = 0; break;
    case F_CENTURY: year = year / 100 * 100; mon = 0; day = 0; hour = min = sec = fsec = 0; break;
    case F_DECADE: year = year / 10 * 10; mon = 0; day = 0; hour = min = sec = fsec = 0; break;
    case F_YEAR: mon = 0; day = 0; hour = min = sec = fsec = 0; break;
    case F_QUARTER: mon = 3 * (mon / 3); day = 0; hour = min = sec = fsec = 0; break;
    case F_MONTH: day = 0; hour = min = sec = fsec = 0; break;
    case F_DAY: hour = min = sec = fsec = 0; break;
    case F_HOUR: min = sec = fsec = 0; break;
    case F_MINUTE: sec = fsec = 0; break;
    case F_SECOND: fsec = 0; break;
    case F_MS: fsec = fsec / 1000 * 1000; break;
    case F_US: break;
    case F_WEEK:
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "interval units \"%s\" not supported because months usually have fractional weeks",
                              field_name(field));
    default:
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "interval units \"%s\" not supported",
                              field_name(field));
    }
    return fields_fit((__int128)year * 12 + mon, day,
                      (((__int128)hour * 60 + min) * 60 + sec) * USECS_PER_SEC + fsec, out, err);
}

int attu_make_interval(int64_t years, int64_t months, int64_t weeks, int64_t days, int64_t hours, int64_t mins,
                       double secs, attu_interval *out, attu_error *err) {
    if (isinf(secs) || isnan(secs)) return interval_range(err);
    double us = rint(secs * 1e6);
    if (us < -9223372036854775808.0 || us >= 9223372036854775808.0) return interval_range(err);
    return fields_fit((__int128)years * 12 + months, (__int128)weeks * 7 + days,
                      (__int128)hours * USECS_PER_HOUR + (__int128)mins * USECS_PER_MINUTE + (int64_t)us, out, err);
}
