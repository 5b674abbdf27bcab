/*
 * datetime_format.h - PostgreSQL 15's to_char(timestamp, text) and
 * to_date(text, text): the template patterns of "Data Type Formatting
 * Functions" (HH, MI, SS, YYYY, Month, Day, IW, RM, J, ...), the FM, TM,
 * TH / th and FX modifiers, double-quoted text and backslash escapes, with
 * PostgreSQL's messages and SQLSTATEs (22007, 22008). Names are English
 * (the C locale's), so TM changes only the padding.
 *
 * Also attu_fmt_cache, which numeric_format.c shares: a template parsed
 * once for the rows of a batch.
 */
#ifndef ATTU_ENGINE_DATETIME_FORMAT_H
#define ATTU_ENGINE_DATETIME_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"

/* A template read once for the rows of a batch that share it (the
 * caller zeroes it, and frees it with attu_fmt_cache_free). */
typedef struct attu_fmt_cache {
    char  *fmt;        /* the template's bytes, NUL-terminated */
    size_t flen;
    void  *nodes;      /* its parse */
    void  *desc;       /* numeric_format.c: its description */
    int    kind;       /* 1 datetime, 2 number; 0 empty */
} attu_fmt_cache;

void attu_fmt_cache_free(attu_fmt_cache *c);

/* The most bytes to_char of a template of flen bytes writes (no NUL). */
size_t attu_to_char_ts_bound(size_t flen);

/* The zone a timestamp with time zone is shown in by to_char: its offset
 * then (seconds east) and abbreviation ("EST", "+0530"). */
typedef struct attu_char_zone { int32_t offset; const char *abbrev; } attu_char_zone;

/* to_char(ts, fmt) into out (attu_to_char_ts_bound(flen) bytes): ts in
 * microseconds since 1970-01-01 as the wall clock reads; zone: the value
 * is a timestamp with time zone (a date is formatted as one, as
 * PostgreSQL does) and TZ, tz, TZH, TZM and OF show this zone; NULL for a
 * timestamp (TZ shows nothing, the offsets +00). Returns the length, or
 * -1 for NULL (an infinite timestamp or an empty template, as
 * PostgreSQL), -2 with err set. */
long attu_to_char_ts(int64_t ts, const attu_char_zone *zone, const char *fmt, size_t flen, char *out,
                     attu_fmt_cache *cache, attu_error *err);

/* to_char(interval, fmt) as PostgreSQL 15's interval_to_char: the
 * interval's own fields (HH24 counts every hour of the time part, DD the
 * days field, MM the months left over from whole years, DDD the whole span
 * in days with a month as 30), a negative field one character wider for
 * its sign; names, eras, weekdays and zones are 22007 "invalid format
 * specification for an interval value". Same returns as attu_to_char_ts
 * (an empty template: -1, NULL); out holds attu_to_char_ts_bound(flen). */
long attu_to_char_interval(int32_t months, int32_t days, int64_t usec, const char *fmt, size_t flen, char *out,
                           attu_fmt_cache *cache, attu_error *err);

/* to_date(s, fmt): days since 1970-01-01; 0, or -1 with err set. */
/* to_timestamp(s, fmt): as to_date, with the time of day, the fraction
 * (MS, US, FF1..FF6) and an offset (TZH, TZM); without an offset the
 * fields are the wall time of zone (a struct attu_tz, engine/timezone.h).
 * UTC microseconds since 1970 into *out. */
struct attu_tz;
int attu_to_timestamp(const char *s, size_t slen, const char *fmt, size_t flen, const struct attu_tz *zone,
                      int64_t *out, attu_fmt_cache *cache, attu_error *err);

int attu_to_date(const char *s, size_t slen, const char *fmt, size_t flen, int32_t *out, attu_fmt_cache *cache,
                 attu_error *err);

#endif
