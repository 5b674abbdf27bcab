/*
 * interval.h - PostgreSQL 15's interval: input, output, comparison and
 * arithmetic.
 *
 * INTERVAL is a value type (types.h: a 16-byte slot holding an
 * attu_interval as it is in memory). Expression programs compute it on
 * the host (expr_program.h's *_IV opcodes); generate_series reads a
 * constant step with attu_interval_parse and adds it with
 * attu_timestamp_add_interval. Errors are PostgreSQL's: 22007 for bad
 * input, 22015 for a field out of range on input, 22008 "interval out of
 * range" / "timestamp out of range" for results.
 */
#ifndef ATTU_INTERVAL_H
#define ATTU_INTERVAL_H

#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"

/* As PostgreSQL keeps it: three fields that never mix (a month is not a
 * fixed number of days, nor a day of microseconds across DST in the time
 * zone types). */
typedef struct attu_interval {
    int32_t months;
    int32_t days;
    int64_t usec;
} attu_interval;

/* Interval text input as PostgreSQL 15 accepts it (IntervalStyle postgres,
 * no typmod): the postgres style (fields read from the last to the first:
 * unit words,
 * "ago" and "@", fractions spilling down (a month is 30 days, a day 24
 * hours), hh:mm[:ss[.f]] times, a bare rightmost number as seconds and one
 * before a time as days, the SQL standard's Y-M, each unit at most once),
 * then ISO 8601 (P1Y2M3DT4H5M6S, P1W, P0001-02-03T04:05:06). 22007
 * "invalid input syntax for type interval: "..."" for bad text, 22015
 * "interval field value out of range" when a field overflows, 22008
 * "interval out of range" when the months pass int32. */
int attu_interval_parse(const char *s, size_t len, attu_interval *out, attu_error *err);

/* -1, 0 or 1: the sign PostgreSQL's interval comparison gives against a zero
 * interval (a month counted as 30 days, a day as 24 hours). */
int attu_interval_sign(attu_interval iv);

/* The span PostgreSQL compares intervals by, in microseconds: months as 30
 * days, days as 24 hours ('1 mon' = '30 days' = '720 hours'). */
__int128 attu_interval_span(attu_interval iv);
/* -1, 0 or 1 as the spans compare. */
int attu_interval_cmp(attu_interval a, attu_interval b);

/* IntervalStyle postgres, PostgreSQL's default: "1 year 2 mons 3 days
 * 04:05:06.5", "-1 days +02:00:00", "00:00:00". Returns the length
 * (NUL written; cap >= 80 always suffices). */
size_t attu_interval_format(attu_interval iv, char *buf, size_t cap);

/* a + b, a - b, -a field by field; 22008 "interval out of range" when a
 * field overflows. */
int attu_interval_add(attu_interval a, attu_interval b, attu_interval *out, attu_error *err);
int attu_interval_sub(attu_interval a, attu_interval b, attu_interval *out, attu_error *err);
int attu_interval_neg(attu_interval a, attu_interval *out, attu_error *err);
/* a * f and a / f as PostgreSQL's interval_mul / interval_div: fractional
 * months spill into days (30 a month), fractional days into time; 22012
 * for / 0, 22008 out of range. */
int attu_interval_mul(attu_interval a, double f, attu_interval *out, attu_error *err);
int attu_interval_div(attu_interval a, double f, attu_interval *out, attu_error *err);

/* justify_days (1), justify_hours (2), justify_interval (3). */
int attu_interval_justify(attu_interval a, int which, attu_interval *out, attu_error *err);

/* timestamp a - timestamp b (finite), justified into days and time as
 * PostgreSQL's timestamp_mi. */
int attu_timestamp_diff(int64_t a, int64_t b, attu_interval *out, attu_error *err);
/* age(a, b): the symbolic difference in years, months, days and time. */
int attu_timestamp_age(int64_t a, int64_t b, attu_interval *out, attu_error *err);

/* EXTRACT(field FROM iv) (field: attu_extract_field) as a numeric
 * m / 10^scale; 0A000 "interval units \"x\" not supported" for the
 * fields an interval has not. */
int attu_interval_extract(attu_interval iv, int field, __int128 *m, int *scale, attu_error *err);
/* date_trunc(field, iv). */
int attu_interval_trunc(attu_interval iv, int field, attu_interval *out, attu_error *err);
/* make_interval(years, months, weeks, days, hours, mins, secs). */
int attu_make_interval(int64_t years, int64_t months, int64_t weeks, int64_t days, int64_t hours, int64_t mins,
                       double secs, attu_interval *out, attu_error *err);

/* ts + iv as PostgreSQL's timestamp_pl_interval: months added to the
 * calendar month (the day clamped to the new month's last day), then days,
 * then microseconds. ts must be finite. Returns 0, or -1 (nothing written)
 * when the result, or a step on the way, leaves the timestamp range (the
 * caller's 22008 "timestamp out of range"). */
int attu_timestamp_add_interval(int64_t ts, attu_interval iv, int64_t *out);

/* timestamptz + interval in zone z (engine/timezone.h), as PostgreSQL's
 * timestamptz_pl_interval: the months, then the days on z's wall clock
 * (a day across a DST change is 23 or 25 hours), then the time as elapsed
 * microseconds. -1 out of range; infinities stay. */
struct attu_tz;
int attu_timestamptz_add_interval(const struct attu_tz *z, int64_t ts, attu_interval iv, int64_t *out);

/* Whether ts is a finite timestamp of attu's range (PostgreSQL's, cut at
 * the int64 end of microseconds since 1970). */
int attu_timestamp_in_range(__int128 ts);


/* INTERVAL field qualifiers (INTERVAL '...' DAY TO HOUR, SECOND(2),
 * INTERVAL(p)): range is a mask of ATTU_IVF_* bits from the first field to
 * the last (0: no fields written), prec the fractional-second digits (-1:
 * not written). attu_interval_qualify drops the fields below the last one
 * (toward zero) and rounds the microseconds to prec digits (half away from
 * zero), as PostgreSQL 15; attu_interval_parse_qualified reads text whose
 * bare numbers follow the qualifier ('2' HOUR TO MINUTE is 2 minutes, '1 2'
 * DAY TO HOUR one day two hours, '1:30' MINUTE TO SECOND 1 min 30 s). */
#define ATTU_IVF_YEAR   1
#define ATTU_IVF_MONTH  2
#define ATTU_IVF_DAY    4
#define ATTU_IVF_HOUR   8
#define ATTU_IVF_MINUTE 16
#define ATTU_IVF_SECOND 32
void attu_interval_qualify(attu_interval *iv, int range, int prec);
int attu_interval_parse_qualified(const char *s, size_t len, int range, int prec,
                                  attu_interval *out, attu_error *err);

#endif
