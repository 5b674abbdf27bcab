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

/* x microseconds folded into one day (PostgreSQL's time_pl_interval and
 * interval_time: the remainder, made non-negative). */
static inline int64_t attu_time_wrap(int64_t us) {
    int64_t r = us % ATTU_USECS_PER_DAY;
    return r < 0 ? r + ATTU_USECS_PER_DAY : r;
}

#endif
