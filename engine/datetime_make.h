/*
 * datetime_make.h - make_date and make_timestamp: dates and timestamps
 * built from numeric fields, with PostgreSQL 15's checks and messages.
 *
 *   make_date(2001, 2, 3)                    2001-02-03
 *   make_date(-44, 3, 15)                    0044-03-15 BC (negative = BC)
 *   make_timestamp(2001, 2, 3, 4, 5, 6.5)    2001-02-03 04:05:06.5
 *
 * Errors (all 22008): "date field value out of range: 2001-02-30" (no
 * such day, or year 0), "date out of range: ..." (outside 4714-11-24 BC ..
 * 5874897-12-31), "time field value out of range: 25:00:00" and
 * "timestamp out of range: ...".
 */
#ifndef ATTU_DATETIME_MAKE_H
#define ATTU_DATETIME_MAKE_H

#include <stdint.h>

#include "engine/error.h"

/* Days since 1970-01-01 of year-month-day; 0 or -1 with err set. */
int attu_make_date(int32_t year, int32_t month, int32_t day, int32_t *out, attu_error *err);

/* Microseconds since 1970-01-01 00:00:00; sec may carry a fraction (it is
 * rounded to microseconds) and may be 60 (the next minute). */
int attu_make_timestamp(int32_t year, int32_t month, int32_t day, int32_t hour,
                        int32_t minute, double sec, int64_t *out, attu_error *err);

#endif
