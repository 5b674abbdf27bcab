/*
 * interval.h - PostgreSQL's interval as a step: input text and adding one to
 * a timestamp.
 *
 * attu has no INTERVAL column type. generate_series(timestamp, timestamp,
 * interval) still needs the value PostgreSQL would read from '1 month' or
 * INTERVAL '2 hours 30 minutes' and PostgreSQL's timestamp + interval
 * arithmetic (months first, clamped to the month's last day, then days,
 * then the time), so both live here: the planner reads a constant step with
 * attu_interval_parse, the executor adds it with attu_timestamp_add_interval.
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

/* PostgreSQL's interval_in for the postgres style and its verbose form:
 * "[@] quantity unit [quantity unit...] [ago]" with units microsecond(s)
 * .. millennium and their abbreviations (us, ms, s, sec, m, min, h, hr, d,
 * w, mon, y, yr, dec, c, mil...), fractions spilling down as PostgreSQL's
 * (a fractional month is 30 days, a fractional day 24 hours), a time
 * written [+-]hh:mm[:ss[.ffffff]], and a bare number as seconds.
 * 22007 "invalid input syntax for type interval: "..."" for anything else
 * (the SQL-standard "Y-M" and ISO 8601 "P1D" forms included), 22015
 * "interval field value out of range" when a field overflows. */
int attu_interval_parse(const char *s, size_t len, attu_interval *out, attu_error *err);

/* -1, 0 or 1: the sign PostgreSQL's interval comparison gives against a zero
 * interval (a month counted as 30 days, a day as 24 hours). */
int attu_interval_sign(attu_interval iv);

/* ts + iv as PostgreSQL's timestamp_pl_interval: months added to the
 * calendar month (the day clamped to the new month's last day), then days,
 * then microseconds. ts must be finite. Returns 0, or -1 (nothing written)
 * when the result, or a step on the way, leaves the timestamp range (the
 * caller's 22008 "timestamp out of range"). */
int attu_timestamp_add_interval(int64_t ts, attu_interval iv, int64_t *out);

/* Whether ts is a finite timestamp of attu's range (PostgreSQL's, cut at
 * the int64 end of microseconds since 1970). */
int attu_timestamp_in_range(__int128 ts);

#endif
