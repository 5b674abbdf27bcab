/*
 * datetime_make.c - make_date / make_timestamp (see datetime_make.h).
 *
 * The order of the checks is PostgreSQL's, since it decides which message
 * a bad call gets: the date's fields first, then the time's, then the
 * range of the result. Messages print the arguments as given (make_date's
 * "date out of range" prints the astronomical year, as PostgreSQL does).
 */
#include "engine/datetime_make.h"

#include <math.h>
#include <stdio.h>

#include "engine/types.h"

#define USECS_PER_DAY 86400000000LL

/* The year as attu counts it (0 is 1 BC: make_date(-1, ...) is 1 BC),
 * or 0 when the fields make no calendar date. */
static int calendar_year(int32_t year, int32_t month, int32_t day, int *ayear) {
    /* INT32_MIN has no positive BC year (PostgreSQL's negation of it
     * overflows, and the year reads as invalid there too) */
    if (year == 0 || year == INT32_MIN || month < 1 || month > 12 || day < 1) return 0;
    int y = year < 0 ? year + 1 : year;
    if (day > attu_days_in_month(y, month)) return 0;
    *ayear = y;
    return 1;
}

/* Days from 1970 when y-m-d lies in PostgreSQL's date range. */
static int date_in_range(int y, int month, int day, int64_t *days) {
    if (y < -4713 || y > 5874897) return 0;
    *days = attu_date_from_ymd(y, month, day);
    return *days >= ATTU_DATE_MIN_DAYS && *days <= ATTU_DATE_MAX_DAYS;
}

int attu_make_date(int32_t year, int32_t month, int32_t day, int32_t *out, attu_error *err) {
    int y;
    int64_t days;
    if (!calendar_year(year, month, day, &y))
        return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0,
                              "date field value out of range: %d-%02d-%02d", year, month, day);
    if (!date_in_range(y, month, day, &days))
        return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0,
                              "date out of range: %d-%02d-%02d", y, month, day);
    *out = (int32_t)days;
    return 0;
}

/* PostgreSQL prints seconds with %g, and NaN / Infinity spelled its way. */
static void format_seconds(double sec, char *buf, size_t cap) {
    if (isnan(sec)) snprintf(buf, cap, "NaN");
    else if (isinf(sec)) snprintf(buf, cap, sec > 0 ? "Infinity" : "-Infinity");
    else snprintf(buf, cap, "%02g", sec);
}

int attu_make_timestamp(int32_t year, int32_t month, int32_t day, int32_t hour,
                        int32_t minute, double sec, int64_t *out, attu_error *err) {
    int y;
    char s[64];
    if (!calendar_year(year, month, day, &y))
        return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0,
                              "date field value out of range: %d-%02d-%02d", year, month, day);
    /* 24:00:00 is allowed (the next midnight), and a leap second 60. As
     * PostgreSQL (float_time_overflows), the seconds are rounded to
     * microseconds before they are checked, so 60.0000001 is 60 and
     * -0.0000001 is 0, and the whole time may not pass 24:00:00 */
    double usec_r = isnan(sec) ? 0 : rint(sec * 1000000.0);
    if (hour < 0 || minute < 0 || minute > 59 || isnan(sec) || usec_r < 0 || usec_r > 60000000.0 || hour > 24 ||
        ((int64_t)hour * 3600 + (int64_t)minute * 60) * 1000000LL + (int64_t)usec_r > USECS_PER_DAY) {
        format_seconds(sec, s, sizeof s);
        return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0,
                              "time field value out of range: %d:%02d:%s", hour, minute, s);
    }
    int64_t days, usec;
    int64_t tod = ((int64_t)hour * 3600 + (int64_t)minute * 60) * 1000000LL + (int64_t)usec_r;
    /* attu's timestamps count microseconds from 1970 in an int64, whose
     * end (INT64_MAX is infinity) comes before PostgreSQL's 294277 */
    if (!date_in_range(y, month, day, &days) || __builtin_mul_overflow(days, USECS_PER_DAY, &usec) ||
        __builtin_add_overflow(usec, tod, &usec) || usec == INT64_MAX ||
        usec < (int64_t)ATTU_DATE_MIN_DAYS * USECS_PER_DAY) {
        format_seconds(sec, s, sizeof s);
        return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0,
                              "timestamp out of range: %d-%02d-%02d %d:%02d:%s", year, month, day, hour,
                              minute, s);
    }
    *out = usec;
    return 0;
}
