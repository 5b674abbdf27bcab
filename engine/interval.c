/*
 * interval.c - PostgreSQL's interval input and timestamp + interval (see
 * interval.h). The rules are PostgreSQL 15's DecodeInterval (postgres
 * style) and timestamp_pl_interval.
 */
#include "engine/interval.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

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

/* Adds v + f (the integer part and the fraction, one sign) of unit u to the
 * sums; fractions spill into the smaller fields as PostgreSQL's
 * AdjustFract* do. */
static void add_unit(const unit_def *u, __int128 v, double f, __int128 *months, __int128 *days, __int128 *usec) {
    switch (u->kind) {
    case U_USEC:
        *usec += v * u->scale + (__int128)llround(f * (double)u->scale);
        break;
    case U_DAY:
        *days += v;
        *usec += (__int128)llround(f * (double)USECS_PER_DAY);
        break;
    case U_WEEK: {
        *days += v * 7;
        double fd = f * 7, whole = trunc(fd);
        *days += (__int128)whole;
        *usec += (__int128)llround((fd - whole) * (double)USECS_PER_DAY);
        break;
    }
    case U_MONTH: {
        *months += v;
        double fd = f * DAYS_PER_MONTH, whole = trunc(fd);
        *days += (__int128)whole;
        *usec += (__int128)llround((fd - whole) * (double)USECS_PER_DAY);
        break;
    }
    case U_YEAR:
        *months += v * 12 * u->scale + (__int128)llround(f * 12 * (double)u->scale);
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
        double frac = 0, place = 0.1;
        bool digits = i > d0;
        if (i < len && s[i] == '.') {
            i++;
            while (i < len && isdigit((unsigned char)s[i])) { frac += (s[i++] - '0') * place; place /= 10; digits = true; }
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
            if (mm > 11 || (i < len && !isspace((unsigned char)s[i]))) return bad_interval(err, s, len);
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
            if (i == m0 || mm > 59) return bad_interval(err, s, len);
            if (i < len && s[i] == ':') {
                i++;
                size_t s0 = i;
                while (i < len && isdigit((unsigned char)s[i])) { ss = ss * 10 + (s[i++] - '0'); if (ss > 1000000000) return field_overflow(err, s, len); }
                if (i == s0 || ss > 60) return bad_interval(err, s, len);
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
            usec += sign * (((hh * 60 + mm) * 60 + ss) * 1000000 + frac_us);
            any = true;
            continue;
        }
        /* the fraction, kept as a double as PostgreSQL's fval */
        double frac = 0;
        if (i < len && s[i] == '.') {
            i++;
            double place = 0.1;
            size_t f0 = i;
            while (i < len && isdigit((unsigned char)s[i])) { frac += (s[i++] - '0') * place; place /= 10; }
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
