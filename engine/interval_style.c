/*
 * interval_style.c - the sql_standard, iso_8601 and postgres_verbose
 * interval output (see interval_style.h).
 */
#include "engine/interval_style.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct fields {
    int64_t year, mon, day, hour, min, sec, usec;
} fields;

static fields split(attu_interval iv) {
    fields f;
    f.year = iv.months / 12;
    f.mon = iv.months % 12;
    f.day = iv.days;
    int64_t t = iv.usec;
    f.hour = t / 3600000000LL;
    t -= f.hour * 3600000000LL;
    f.min = t / 60000000LL;
    t -= f.min * 60000000LL;
    f.sec = t / 1000000LL;
    f.usec = t - f.sec * 1000000LL;
    return f;
}

static int64_t mag(int64_t v) { return v < 0 ? -v : v; }

/* |sec| (two digits when zero-filled) and the fraction of |usec| without
 * its trailing zeros, as PostgreSQL's AppendSeconds */
static size_t put_seconds(char *o, size_t n, int64_t sec, int64_t usec, bool fill) {
    n += (size_t)sprintf(o + n, fill ? "%02lld" : "%lld", (long long)mag(sec));
    if (usec) {
        char f[24];
        snprintf(f, sizeof f, "%06lld", (long long)mag(usec));
        int k = 6;
        while (k > 0 && f[k - 1] == '0') k--;
        n += (size_t)sprintf(o + n, ".%.*s", k, f);
    }
    return n;
}

static size_t sql_standard(const fields *in, char *o) {
    fields f = *in;
    bool neg = f.year < 0 || f.mon < 0 || f.day < 0 || f.hour < 0 || f.min < 0 || f.sec < 0 || f.usec < 0;
    bool pos = f.year > 0 || f.mon > 0 || f.day > 0 || f.hour > 0 || f.min > 0 || f.sec > 0 || f.usec > 0;
    bool year_month = f.year || f.mon, day_time = f.day || f.hour || f.min || f.sec || f.usec;
    /* one sign before the whole value, where the standard can say it */
    bool standard = !(neg && pos) && !(year_month && day_time);
    size_t n = 0;
    if (neg && standard) {
        o[n++] = '-';
        f.year = -f.year; f.mon = -f.mon; f.day = -f.day; f.hour = -f.hour; f.min = -f.min; f.sec = -f.sec;
        f.usec = -f.usec;
    }
    if (!neg && !pos) n += (size_t)sprintf(o + n, "0");
    else if (!standard) {
        /* mixed: every part signed, so that reading it back is not ambiguous */
        char ys = f.year < 0 || f.mon < 0 ? '-' : '+', ds = f.day < 0 ? '-' : '+';
        char ts = f.hour < 0 || f.min < 0 || f.sec < 0 || f.usec < 0 ? '-' : '+';
        n += (size_t)sprintf(o + n, "%c%lld-%lld %c%lld %c%lld:%02lld:", ys, (long long)mag(f.year), (long long)mag(f.mon),
                             ds, (long long)mag(f.day), ts, (long long)mag(f.hour), (long long)mag(f.min));
        n = put_seconds(o, n, f.sec, f.usec, true);
    } else if (year_month) n += (size_t)sprintf(o + n, "%lld-%lld", (long long)f.year, (long long)f.mon);
    else {
        if (f.day) n += (size_t)sprintf(o + n, "%lld ", (long long)f.day);
        n += (size_t)sprintf(o + n, "%lld:%02lld:", (long long)f.hour, (long long)f.min);
        n = put_seconds(o, n, f.sec, f.usec, true);
    }
    return n;
}

static size_t iso_part(char *o, size_t n, int64_t v, char unit) {
    return v ? n + (size_t)sprintf(o + n, "%lld%c", (long long)v, unit) : n;
}

static size_t iso_8601(const fields *f, char *o) {
    if (!f->year && !f->mon && !f->day && !f->hour && !f->min && !f->sec && !f->usec) return (size_t)sprintf(o, "PT0S");
    size_t n = 0;
    o[n++] = 'P';
    n = iso_part(o, n, f->year, 'Y');
    n = iso_part(o, n, f->mon, 'M');
    n = iso_part(o, n, f->day, 'D');
    if (f->hour || f->min || f->sec || f->usec) o[n++] = 'T';
    n = iso_part(o, n, f->hour, 'H');
    n = iso_part(o, n, f->min, 'M');
    if (f->sec || f->usec) {
        if (f->sec < 0 || f->usec < 0) o[n++] = '-';
        n = put_seconds(o, n, f->sec, f->usec, false);
        o[n++] = 'S';
    }
    o[n] = 0;
    return n;
}

/* one part of the verbose form: the first nonzero part decides "ago"
 * (and is shown unsigned); later ones are shown relative to it */
static size_t verbose_part(char *o, size_t n, int64_t v, const char *unit, bool *zero, bool *before) {
    if (!v) return n;
    if (*zero) {
        *before = v < 0;
        v = mag(v);
    } else if (*before) v = -v;
    n += (size_t)sprintf(o + n, " %lld %s%s", (long long)v, unit, v == 1 ? "" : "s");
    *zero = false;
    return n;
}

static size_t postgres_verbose(const fields *f, char *o) {
    size_t n = (size_t)sprintf(o, "@");
    bool zero = true, before = false;
    n = verbose_part(o, n, f->year, "year", &zero, &before);
    n = verbose_part(o, n, f->mon, "mon", &zero, &before);
    n = verbose_part(o, n, f->day, "day", &zero, &before);
    n = verbose_part(o, n, f->hour, "hour", &zero, &before);
    n = verbose_part(o, n, f->min, "min", &zero, &before);
    if (f->sec || f->usec) {
        o[n++] = ' ';
        if (f->sec < 0 || (f->sec == 0 && f->usec < 0)) {
            if (zero) before = true;
            else if (!before) o[n++] = '-';
        } else if (before) o[n++] = '-';
        n = put_seconds(o, n, f->sec, f->usec, false);
        n += (size_t)sprintf(o + n, " sec%s", mag(f->sec) != 1 || f->usec ? "s" : "");
        zero = false;
    }
    if (zero) n += (size_t)sprintf(o + n, " 0");
    if (before) n += (size_t)sprintf(o + n, " ago");
    return n;
}

size_t attu_interval_format_styled(attu_interval iv, attu_intervalstyle style, char *o) {
    fields f = split(iv);
    switch (style) {
    case ATTU_INTERVALSTYLE_SQL_STANDARD: return sql_standard(&f, o);
    case ATTU_INTERVALSTYLE_ISO_8601: return iso_8601(&f, o);
    default: return postgres_verbose(&f, o);
    }
}
