/*
 * interval.c - PostgreSQL's interval input and timestamp + interval (see
 * interval.h). The rules are PostgreSQL 15's DecodeInterval (postgres
 * style) and timestamp_pl_interval.
 */
#include "engine/interval.h"

#include <ctype.h>
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

static int bad_interval(attu_error *err, const char *s, size_t len) {
    return attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "invalid input syntax for type interval: \"%.*s\"",
                          (int)(len > 200 ? 200 : len), s);
}

static int field_overflow(attu_error *err, const char *s, size_t len) {
    return attu_error_set(err, "22015", 0, "interval field value out of range: \"%.*s\"", (int)(len > 200 ? 200 : len), s);
}

/* The units of the postgres style: what one of them adds. */
typedef enum unit_kind { U_USEC, U_DAY, U_WEEK, U_MONTH, U_YEAR } unit_kind;

typedef struct unit_def {
    const char *name;
    unit_kind   kind;
    int64_t     scale;   /* U_USEC: microseconds; U_YEAR: years */
} unit_def;

static const unit_def units[] = {
    { "microsecond", U_USEC, 1 }, { "microseconds", U_USEC, 1 }, { "us", U_USEC, 1 }, { "usec", U_USEC, 1 },
    { "usecs", U_USEC, 1 }, { "useconds", U_USEC, 1 }, { "usecond", U_USEC, 1 },
    { "millisecond", U_USEC, 1000 }, { "milliseconds", U_USEC, 1000 }, { "ms", U_USEC, 1000 },
    { "msec", U_USEC, 1000 }, { "msecs", U_USEC, 1000 }, { "mseconds", U_USEC, 1000 }, { "msecond", U_USEC, 1000 },
    { "second", U_USEC, 1000000 }, { "seconds", U_USEC, 1000000 }, { "s", U_USEC, 1000000 },
    { "sec", U_USEC, 1000000 }, { "secs", U_USEC, 1000000 },
    { "minute", U_USEC, 60000000LL }, { "minutes", U_USEC, 60000000LL }, { "m", U_USEC, 60000000LL },
    { "min", U_USEC, 60000000LL }, { "mins", U_USEC, 60000000LL },
    { "hour", U_USEC, 3600000000LL }, { "hours", U_USEC, 3600000000LL }, { "h", U_USEC, 3600000000LL },
    { "hr", U_USEC, 3600000000LL }, { "hrs", U_USEC, 3600000000LL },
    { "day", U_DAY, 1 }, { "days", U_DAY, 1 }, { "d", U_DAY, 1 },
    { "week", U_WEEK, 1 }, { "weeks", U_WEEK, 1 }, { "w", U_WEEK, 1 },
    { "month", U_MONTH, 1 }, { "months", U_MONTH, 1 }, { "mon", U_MONTH, 1 }, { "mons", U_MONTH, 1 },
    { "year", U_YEAR, 1 }, { "years", U_YEAR, 1 }, { "y", U_YEAR, 1 }, { "yr", U_YEAR, 1 }, { "yrs", U_YEAR, 1 },
    { "decade", U_YEAR, 10 }, { "decades", U_YEAR, 10 }, { "dec", U_YEAR, 10 }, { "decs", U_YEAR, 10 },
    { "century", U_YEAR, 100 }, { "centuries", U_YEAR, 100 }, { "c", U_YEAR, 100 }, { "cent", U_YEAR, 100 },
    { "millennium", U_YEAR, 1000 }, { "millennia", U_YEAR, 1000 }, { "mil", U_YEAR, 1000 }, { "mils", U_YEAR, 1000 },
    { "millenniums", U_YEAR, 1000 },
};

static const unit_def *find_unit(const char *w, size_t n) {
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (strlen(units[i].name) == n && !strncasecmp(units[i].name, w, n)) return &units[i];
    return NULL;
}

/* A fraction of microseconds rounded as PostgreSQL's AdjustFractMicroseconds
 * does: to the nearer whole, a half toward zero. */
static __int128 round_usec(double x) {
    double t = trunc(x), rem = x - t;
    return (__int128)t + (rem > 0.5 ? 1 : rem < -0.5 ? -1 : 0);
}

/* Adds v + f (the integer part and the fraction, one sign) of unit u to the
 * sums; fractions spill into the smaller fields as PostgreSQL's
 * AdjustFract* do. */
static void add_unit(const unit_def *u, __int128 v, double f, __int128 *months, __int128 *days, __int128 *usec) {
    switch (u->kind) {
    case U_USEC:
        *usec += v * u->scale + round_usec(f * (double)u->scale);
        break;
    case U_DAY:
        *days += v;
        *usec += round_usec(f * (double)USECS_PER_DAY);
        break;
    case U_WEEK: {
        *days += v * 7;
        double fd = f * 7, whole = trunc(fd);
        *days += (__int128)whole;
        *usec += round_usec((fd - whole) * (double)USECS_PER_DAY);
        break;
    }
    case U_MONTH: {
        *months += v;
        double fd = f * DAYS_PER_MONTH, whole = trunc(fd);
        *days += (__int128)whole;
        *usec += round_usec((fd - whole) * (double)USECS_PER_DAY);
        break;
    }
    case U_YEAR:
        *months += v * 12 * u->scale + (__int128)rint(f * 12 * (double)u->scale);
        break;
    }
}

/* ISO 8601's format with designators, P[nY][nM][nW][nD][T[nH][nM][nS]]
 * (PostgreSQL's ISO8601 "format with designators"), from s[i] = 'P'. */
/* A number's sign and integer digits from s[*i] on (both parts of the
 * parser read fields this way): *d0 is where the digits start (none when
 * *i is still there), *ip their value. -1 past 2^80 (the field overflows). */
static int scan_signed_int(const char *s, size_t len, size_t *i, int *sign, size_t *d0, __int128 *ip) {
    *sign = 1;
    if (*i < len && (s[*i] == '+' || s[*i] == '-')) { *sign = s[*i] == '-' ? -1 : 1; (*i)++; }
    *d0 = *i;
    *ip = 0;
    while (*i < len && isdigit((unsigned char)s[*i])) {
        *ip = *ip * 10 + (s[(*i)++] - '0');
        if (*ip > (__int128)1 << 80) return -1;
    }
    return 0;
}

/* The fraction of digits s[f0..f1) after a decimal point, read as
 * PostgreSQL reads it (strtod of the digits: '1.0000005 seconds' is one
 * second, its half microsecond rounding down as the double has it). */
static double read_fraction(const char *s, size_t f0, size_t f1) {
    char buf[48] = "0.";
    size_t n = f1 - f0 < sizeof buf - 3 ? f1 - f0 : sizeof buf - 3;
    memcpy(buf + 2, s + f0, n);
    buf[2 + n] = 0;
    return strtod(buf, NULL);
}

static int parse_iso(const char *s, size_t len, size_t i, __int128 *months, __int128 *days, __int128 *usec,
                     attu_error *err) {
    static const unit_def year = { "y", U_YEAR, 1 }, mon = { "m", U_MONTH, 1 }, week = { "w", U_WEEK, 1 },
                          day = { "d", U_DAY, 1 }, hour = { "h", U_USEC, 3600000000LL },
                          minute = { "m", U_USEC, 60000000LL }, sec = { "s", U_USEC, 1000000 };
    i++;
    bool time = false, any = false;
    while (i < len && !isspace((unsigned char)s[i])) {
        if (s[i] == 'T' || s[i] == 't') {
            if (time) return bad_interval(err, s, len);
            time = true;
            any = true;      /* "PT" is a zero interval, "P" nothing */
            i++;
            continue;
        }
        int sign = 1;
        size_t d0 = 0;
        __int128 ip = 0;
        if (scan_signed_int(s, len, &i, &sign, &d0, &ip)) return field_overflow(err, s, len);
        double frac = 0;
        bool digits = i > d0;
        if (i < len && s[i] == '.') {
            size_t f0 = ++i;
            while (i < len && isdigit((unsigned char)s[i])) { i++; digits = true; }
            frac = read_fraction(s, f0, i);
        }
        if (!digits || i >= len) return bad_interval(err, s, len);
        const unit_def *u = NULL;
        switch (toupper((unsigned char)s[i])) {
        case 'Y': u = time ? NULL : &year; break;
        case 'M': u = time ? &minute : &mon; break;
        case 'W': u = time ? NULL : &week; break;
        case 'D': u = time ? NULL : &day; break;
        case 'H': u = time ? &hour : NULL; break;
        case 'S': u = time ? &sec : NULL; break;
        default: break;
        }
        if (!u) return bad_interval(err, s, len);
        i++;
        add_unit(u, sign * ip, sign * frac, months, days, usec);
        any = true;
    }
    while (i < len && isspace((unsigned char)s[i])) i++;
    if (!any || i < len) return bad_interval(err, s, len);
    return 0;
}

int attu_interval_parse(const char *s, size_t len, attu_interval *out, attu_error *err) {
    /* the sums in 128 bits, checked against the fields' ranges at the end */
    __int128 months = 0, days = 0, usec = 0;
    size_t i = 0;
    bool any = false, ago = false;
    while (i < len && isspace((unsigned char)s[i])) i++;
    if (i < len && s[i] == '@') i++;
    else if (i < len && (s[i] == 'P' || s[i] == 'p')) {
        if (parse_iso(s, len, i, &months, &days, &usec, err)) return -1;
        any = true;
        i = len;
    }
    while (i < len) {
        while (i < len && isspace((unsigned char)s[i])) i++;
        if (i >= len) break;
        if (ago) return bad_interval(err, s, len);          /* "ago" ends the text */
        if (isalpha((unsigned char)s[i])) {
            size_t w = i;
            while (i < len && isalpha((unsigned char)s[i])) i++;
            if (i - w == 3 && !strncasecmp(s + w, "ago", 3) && any) { ago = true; continue; }
            return bad_interval(err, s, len);
        }
        /* a number: [+-]digits[.digits], or a time [+-]hh:mm[:ss[.ffffff]] */
        int sign = 1;
        size_t d0 = 0;
        __int128 ip = 0;
        if (scan_signed_int(s, len, &i, &sign, &d0, &ip)) return field_overflow(err, s, len);
        bool had_int = i > d0;
        if (had_int && i + 1 < len && s[i] == '-' && isdigit((unsigned char)s[i + 1])) {
            /* the SQL standard's years-months, Y-M */
            i++;
            __int128 mm = 0;
            while (i < len && isdigit((unsigned char)s[i])) { mm = mm * 10 + (s[i++] - '0'); if (mm > 1000000000) return field_overflow(err, s, len); }
            if (i < len && !isspace((unsigned char)s[i])) return bad_interval(err, s, len);
            if (mm > 11) return field_overflow(err, s, len);
            months += sign * (ip * 12 + mm);
            any = true;
            continue;
        }
        if (i < len && s[i] == ':') {
            if (!had_int) return bad_interval(err, s, len);
            /* hh:mm[:ss[.ffffff]] */
            __int128 hh = ip, mm = 0, ss = 0, frac_us = 0;
            i++;
            size_t m0 = i;
            while (i < len && isdigit((unsigned char)s[i])) { mm = mm * 10 + (s[i++] - '0'); if (mm > 1000000000) return field_overflow(err, s, len); }
            if (i == m0) return bad_interval(err, s, len);
            if (i < len && s[i] == ':') {
                i++;
                size_t s0 = i;
                while (i < len && isdigit((unsigned char)s[i])) { ss = ss * 10 + (s[i++] - '0'); if (ss > 1000000000) return field_overflow(err, s, len); }
                if (i == s0) return bad_interval(err, s, len);
                if (i < len && s[i] == '.') {
                    i++;
                    int64_t scale = 100000;
                    double rest = 0, place = 0.1;
                    while (i < len && isdigit((unsigned char)s[i])) {
                        if (scale) { frac_us += (s[i] - '0') * scale; scale /= 10; }
                        else { rest += (s[i] - '0') * place; place /= 10; }
                        i++;
                    }
                    if (rest >= 0.5) frac_us++;     /* rounded to the microsecond */
                }
            }
            if (i < len && !isspace((unsigned char)s[i])) return bad_interval(err, s, len);
            if (mm > 59 || ss > 60) return field_overflow(err, s, len);
            usec += sign * (((hh * 60 + mm) * 60 + ss) * 1000000 + frac_us);
            any = true;
            continue;
        }
        /* the fraction, kept as a double as PostgreSQL's fval */
        double frac = 0;
        if (i < len && s[i] == '.') {
            size_t f0 = ++i;
            while (i < len && isdigit((unsigned char)s[i])) i++;
            frac = read_fraction(s, f0, i);
            if (!had_int && i == f0) return bad_interval(err, s, len);
        } else if (!had_int) {
            return bad_interval(err, s, len);
        }
        while (i < len && isspace((unsigned char)s[i])) i++;
        size_t w = i;
        while (i < len && isalpha((unsigned char)s[i])) i++;
        const unit_def *u = NULL;
        if (i > w) {
            u = find_unit(s + w, i - w);
            if (!u) {
                /* "ago" right after a bare number: seconds, then ago */
                if (i - w == 3 && !strncasecmp(s + w, "ago", 3)) { i = w; }
                else return bad_interval(err, s, len);
            }
        }
        if (i < len && !isspace((unsigned char)s[i]) && !(u == NULL && i == w)) return bad_interval(err, s, len);
        if (!u) {
            /* a bare number is seconds, or days before a time ('1 2:03',
             * the SQL standard's day-time form) */
            static const unit_def sec = { "second", U_USEC, 1000000 }, day = { "day", U_DAY, 1 };
            size_t k = i;
            while (k < len && isspace((unsigned char)s[k])) k++;
            if (k < len && (s[k] == '+' || s[k] == '-')) k++;
            size_t k0 = k;
            while (k < len && isdigit((unsigned char)s[k])) k++;
            u = k > k0 && k < len && s[k] == ':' ? &day : &sec;
            /* otherwise it must end the text (but for "ago"): "1 2" is no interval */
            if (u == &sec) {
                size_t r = i;
                while (r < len && isspace((unsigned char)s[r])) r++;
                if (r < len && !(len - r >= 3 && !strncasecmp(s + r, "ago", 3))) return bad_interval(err, s, len);
            }
        }
        add_unit(u, sign * ip, sign * frac, &months, &days, &usec);
        any = true;
    }
    if (!any) return bad_interval(err, s, len);
    if (ago) { months = -months; days = -days; usec = -usec; }
    if (months > INT32_MAX || months < INT32_MIN || days > INT32_MAX || days < INT32_MIN || usec > INT64_MAX || usec < INT64_MIN)
        return field_overflow(err, s, len);
    out->months = (int32_t)months;
    out->days = (int32_t)days;
    out->usec = (int64_t)usec;
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

#define USECS_PER_HOUR 3600000000LL
#define USECS_PER_MINUTE 60000000LL
#define USECS_PER_SEC 1000000LL

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
        if (d < INT32_MIN || d > INT32_MAX) return interval_range(err);
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
