/*
 * time_of_day.c - time without time zone's text in and out.
 *
 * Input reuses the date/time field decoder (engine/datetime_input.h)
 * rather than a second one: the text is read as the time of a timestamp
 * on a fixed day ("2000-01-01 " + text), which gives every time form the
 * decoder knows (H:M[:S[.f]], AM / PM, the ISO digit runs hhmm[ss] and
 * Thhmmss, zone offsets and abbreviations, which time ignores) with the
 * same range checks. Text that carries its own date ('2003-04-12
 * 04:05:06', 'J2451187 04:05') fails that read and is read as it stands.
 * PostgreSQL's time_in refuses what is no time of day: a date alone,
 * 'epoch' and the infinities, a full zone name without a date.
 */
#include "engine/time_of_day.h"
#include "engine/datetime_input.h"
#include "engine/timezone.h"
#include "engine/types.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>

#define QUOTE_MAX 200
#define QUOTED(text, len) (int)((len) > QUOTE_MAX ? QUOTE_MAX : (len)), (text)

static int bad_type(attu_error *err, const char *tn, const char *text, size_t len) {
    return attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "invalid input syntax for type %s: \"%.*s\"", tn,
                          QUOTED(text, len));
}
#define bad_time(err, text, len) bad_type(err, tn, text, len)

static int range_error(attu_error *err, const char *text, size_t len) {
    return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "date/time field value out of range: \"%.*s\"",
                          QUOTED(text, len));
}

/* The time of day of decoded fields; -1 past 24:00:00. */
static int fields_time(const attu_datetime_fields *f, int64_t *out) {
    int64_t us = (((int64_t)f->hour * 60 + f->minute) * 60 + f->second) * 1000000LL + f->usec;
    if (us < 0 || us > ATTU_USECS_PER_DAY) return -1;
    *out = us;
    return 0;
}

/* Reads the text of a time (with_zone: of a timetz, whose messages name
 * that type); *f gets the decoded fields, *dated whether the text had its
 * own date. */
static int read_time(const char *text, size_t len, bool with_zone, attu_datetime_fields *f, bool *dated,
                     int64_t *out, attu_error *err) {
    const char *tn = with_zone ? "time with time zone" : "time";
    const char *s = text;
    size_t n = len;
    while (n && isspace((unsigned char)*s)) { s++; n--; }
    while (n && isspace((unsigned char)s[n - 1])) n--;
    if (n == 8 && !strncasecmp(s, "allballs", 8)) {
        /* PostgreSQL's 'allballs' is 00:00:00 UTC: as a timetz its offset
         * is +00, never the session zone's */
        memset(f, 0, sizeof *f);
        f->tz_kind = ATTU_DATETIME_ZONE_OFFSET;
        f->tz_offset = 0;
        *dated = false;
        *out = 0;
        return 0;
    }
    /* a leading sign would read as a zone with no time before it */
    if (!n || *s == '-' || *s == '+' || n > 256) return bad_time(err, text, len);
    bool digit = false, colon = false;
    for (size_t i = 0; i < n; i++) {
        if (isdigit((unsigned char)s[i])) digit = true;
        if (s[i] == ':') colon = true;
    }
    if (!digit) return bad_time(err, text, len);

    char buf[300];
    int bl = snprintf(buf, sizeof buf, "2000-01-01 %.*s", (int)n, s);
    int rc = attu_datetime_parse(buf, (size_t)bl, f);
    if (rc == 0) {
        /* a named zone (America/New_York) needs a date to mean an offset:
         * PostgreSQL refuses it in a bare time */
        if (f->kind != ATTU_DATETIME_FINITE || f->tz_kind == ATTU_DATETIME_ZONE_NAME) return bad_time(err, text, len);
        if (fields_time(f, out)) return range_error(err, text, len);
        *dated = false;
        return 0;
    }
    if (rc == ATTU_DATETIME_FIELD_RANGE || rc == ATTU_DATETIME_MD_RANGE) return range_error(err, text, len);
    if (rc == ATTU_DATETIME_TZ_RANGE)
        return attu_error_set(err, "22009", 0, "time zone displacement out of range: \"%.*s\"", QUOTED(text, len));
    if (rc == ATTU_DATETIME_TZ_UNKNOWN && with_zone)
        return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "time zone \"%s\" not recognized", f->tz_name);
    /* text with its own date: the date goes, the time stays (a date with
     * no time written is no time) */
    if (!colon) return bad_time(err, text, len);
    rc = attu_datetime_parse(s, n, f);
    if (rc == ATTU_DATETIME_FIELD_RANGE || rc == ATTU_DATETIME_MD_RANGE) return range_error(err, text, len);
    if (rc == ATTU_DATETIME_TZ_RANGE)
        return attu_error_set(err, "22009", 0, "time zone displacement out of range: \"%.*s\"", QUOTED(text, len));
    if (rc == ATTU_DATETIME_TZ_UNKNOWN && with_zone)
        return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "time zone \"%s\" not recognized", f->tz_name);
    if (rc != 0 || f->kind != ATTU_DATETIME_FINITE) return bad_time(err, text, len);
    if (fields_time(f, out)) return range_error(err, text, len);
    *dated = true;
    return 0;
}

int attu_time_parse(const char *text, size_t len, int64_t *out, attu_error *err) {
    attu_datetime_fields f;
    bool dated;
    return read_time(text, len, false, &f, &dated, out, err);
}

int attu_timetz_parse(const char *text, size_t len, const struct attu_tz *zone, int64_t *out, attu_error *err) {
    attu_datetime_fields f;
    bool dated;
    int64_t us;
    if (read_time(text, len, true, &f, &dated, &us, err)) return -1;
    int32_t east;
    if (f.tz_kind == ATTU_DATETIME_ZONE_OFFSET) {
        east = f.tz_offset;
    } else {
        /* a zone name (after a date: read_time refuses one without) or the
         * session's zone: its offset at that wall time on the text's date,
         * or today (PostgreSQL's DetermineTimeZoneOffset) */
        const attu_tz *z = zone ? zone : attu_tz_utc();
        if (f.tz_kind == ATTU_DATETIME_ZONE_NAME && !(z = attu_tz_find(f.tz_name)))
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "time zone \"%s\" not recognized", f.tz_name);
        int64_t day;
        if (dated) {
            day = attu_date_from_ymd(f.year, f.month, f.day);
        } else {
            int64_t now = attu_tz_txn_start();
            if (!now) {
                struct timeval tv;
                gettimeofday(&tv, NULL);
                now = (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
            }
            int64_t l = attu_tz_to_local_us(z, now);
            day = l / ATTU_USECS_PER_DAY - (l % ATTU_USECS_PER_DAY < 0);
        }
        east = attu_tz_offset_local(z, day * 86400 + us / 1000000);
    }
    if (east <= -57600 || east >= 57600)
        return attu_error_set(err, "22009", 0, "time zone displacement out of range: \"%.*s\"", QUOTED(text, len));
    *out = attu_timetz_pack(us, east);
    return 0;
}

size_t attu_time_format(int64_t us, char *buf, size_t cap) {
    char out[32];
    if (us < 0) us = 0;   /* never stored; shown as midnight rather than garbage */
    int64_t sec = us / 1000000;
    int frac = (int)(us % 1000000);
    int l = snprintf(out, sizeof out, "%02d:%02d:%02d", (int)(sec / 3600), (int)(sec / 60 % 60), (int)(sec % 60));
    if (frac) {
        l += snprintf(out + l, sizeof out - (size_t)l, ".%06d", frac);
        while (out[l - 1] == '0') l--;
        out[l] = 0;
    }
    if (cap) {
        size_t k = (size_t)l < cap - 1 ? (size_t)l : cap - 1;
        memcpy(buf, out, k);
        buf[k] = 0;
    }
    return (size_t)l;
}

size_t attu_utc_offset_format(int32_t east, char *out) {
    int32_t a = east < 0 ? -east : east;
    size_t n = (size_t)sprintf(out, "%c%02d", east < 0 ? '-' : '+', a / 3600);
    if (a % 3600) n += (size_t)sprintf(out + n, ":%02d", a / 60 % 60);
    if (a % 60) n += (size_t)sprintf(out + n, ":%02d", a % 60);
    return n;
}

size_t attu_timetz_format(int64_t packed, char *buf, size_t cap) {
    int64_t us;
    int32_t east;
    attu_timetz_unpack(packed, &us, &east);
    char out[48];
    size_t l = attu_time_format(us, out, sizeof out);
    l += attu_utc_offset_format(east, out + l);
    if (cap) {
        size_t k = l < cap - 1 ? l : cap - 1;
        memcpy(buf, out, k);
        buf[k] = 0;
    }
    return l;
}
