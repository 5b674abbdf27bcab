/*
 * time_of_day.h - PostgreSQL's time without time zone: a time of day as
 * int64 microseconds since midnight, 0 .. 86,400,000,000 (24:00:00 is a
 * value of its own, as in PostgreSQL). The slot is TIMESTAMP's int64, so
 * compares, sorts, groups and joins treat it as an int64; what is time's
 * own is here: its text in and out, and its arithmetic, which wraps around
 * midnight.
 */
#ifndef ATTU_TIME_OF_DAY_H
#define ATTU_TIME_OF_DAY_H

#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"

#define ATTU_USECS_PER_DAY 86400000000LL

/* Reads a time as PostgreSQL's time_in: '12:34:56.789', '1:2', '24:00:00',
 * 'allballs', '04:05 PM', '040506', 'T040506', a timestamp's text (its
 * date dropped), a zone offset or abbreviation (ignored). 22007 for text
 * that is no time, 22008 for a field out of range ('25:00'). */
int attu_time_parse(const char *text, size_t len, int64_t *out, attu_error *err);

/* HH:MM:SS[.ffffff], trailing zeros of the fraction dropped; returns the
 * length written (at most 15 bytes and the NUL). */
size_t attu_time_format(int64_t us, char *buf, size_t cap);

/* A UTC offset in seconds east as PostgreSQL prints it: +02, +05:30,
 * -04:56:02 (at most 10 bytes and a NUL into out). Returns its length. */
size_t attu_utc_offset_format(int32_t east, char *out);

/* x microseconds folded into one day (PostgreSQL's time_pl_interval and
 * interval_time: the remainder, made non-negative). */
static inline int64_t attu_time_wrap(int64_t us) {
    int64_t r = us % ATTU_USECS_PER_DAY;
    return r < 0 ? r + ATTU_USECS_PER_DAY : r;
}

/* ---- time with time zone (timetz) --------------------------------------
 * A time of day and the offset it was written with, as PostgreSQL's
 * TimeTzADT, packed into one int64 whose integer order is PostgreSQL's
 * timetz order: first by the UTC time (time - east offset), then by the
 * offset (a larger west offset greater), equal only when both parts are.
 * So compares, sorts, groups and joins take it as a BIGINT, on the GPU
 * too. Offsets are seconds east of Greenwich, within +-15:59:59. */
#define ATTU_TIMETZ_ZONE_SPAN 262144   /* 2^18: a west offset + 2^17 fits below it */

static inline int64_t attu_timetz_pack(int64_t time_us, int32_t east_sec) {
    int64_t west = -(int64_t)east_sec;
    return (time_us + west * 1000000) * ATTU_TIMETZ_ZONE_SPAN + (west + ATTU_TIMETZ_ZONE_SPAN / 2);
}
static inline void attu_timetz_unpack(int64_t v, int64_t *time_us, int32_t *east_sec) {
    int64_t r = v % ATTU_TIMETZ_ZONE_SPAN;
    if (r < 0) r += ATTU_TIMETZ_ZONE_SPAN;
    int64_t west = r - ATTU_TIMETZ_ZONE_SPAN / 2, utc = (v - r) / ATTU_TIMETZ_ZONE_SPAN;
    *time_us = utc - west * 1000000;
    *east_sec = (int32_t)-west;
}

/* Reads a timetz as PostgreSQL's timetz_in: time's forms and an offset,
 * an abbreviation, or a zone name after a date; without one, the offset
 * zone (struct attu_tz, engine/timezone.h; NULL: UTC) has at that wall
 * time today. 22009 past +-15:59:59, 22023 for an unknown zone. */
struct attu_tz;
int attu_timetz_parse(const char *text, size_t len, const struct attu_tz *zone, int64_t *out, attu_error *err);

/* HH:MM:SS[.ffffff]+HH[:MM[:SS]]; returns the length written. */
size_t attu_timetz_format(int64_t packed, char *buf, size_t cap);

#endif
