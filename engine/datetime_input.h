/*
 * datetime_input.h - reading date and timestamp text the way PostgreSQL 15
 * reads it, an ambiguous numeric date ('01/02/2023') in the calling
 * thread's DateStyle order (engine/datestyle.h; MDY by default).
 *
 * This is the one place attu decodes date/time text: attu_value_parse
 * (casts, literals, COPY / CSV loading, the wire) calls it for DATE and
 * TIMESTAMP, then turns the fields into days or microseconds and checks the
 * type's range. The accepted forms are listed in docs/sql-reference.md
 * ("Date and timestamp input"); the rules are PostgreSQL's documented ones
 * (Appendix B, "Date/Time Input Interpretation"): the text is cut into
 * fields (numbers, dates with - / . separators, times with colons, words,
 * signed zones), then each field is given a meaning from what the fields
 * before it already settled.
 */
#ifndef ATTU_DATETIME_INPUT_H
#define ATTU_DATETIME_INPUT_H

#include <stddef.h>

typedef enum attu_datetime_kind {
    ATTU_DATETIME_FINITE = 0,
    ATTU_DATETIME_EPOCH,        /* 'epoch': 1970-01-01 00:00:00 */
    ATTU_DATETIME_INFINITY,     /* 'infinity' */
    ATTU_DATETIME_NINFINITY     /* '-infinity' */
} attu_datetime_kind;

typedef struct attu_datetime_fields {
    attu_datetime_kind kind;
    int year;          /* astronomical: 0 is 1 BC, -1 is 2 BC */
    int month, day;    /* checked against the calendar */
    int hour, minute, second;   /* hour may be 24 (only 24:00:00); second 60 */
    int usec;          /* 0 .. 1000000: a rounded fraction may reach a second */
    char tz_name[64];  /* with ATTU_DATETIME_TZ_UNKNOWN: the zone as read;
                          with tz_kind ATTU_DATETIME_ZONE_NAME: the zone's name
                          (lower case), for engine/timezone.h's attu_tz_find */
    int tz_kind;       /* ATTU_DATETIME_ZONE_*: whether and how a zone was written */
    int tz_offset;     /* ATTU_DATETIME_ZONE_OFFSET: seconds east of Greenwich */
} attu_datetime_fields;

#define ATTU_DATETIME_ZONE_NONE   0
#define ATTU_DATETIME_ZONE_OFFSET 1   /* "+05:30", "-08", an abbreviation ("EST"), "Z" */
#define ATTU_DATETIME_ZONE_NAME   2   /* "America/New_York", "UTC+3" */

/* Results of attu_datetime_parse besides 0. */
#define ATTU_DATETIME_BAD_FORMAT    (-1)   /* 22007 invalid input syntax */
#define ATTU_DATETIME_FIELD_RANGE   (-2)   /* 22008 field value out of range */
#define ATTU_DATETIME_MD_RANGE      (-3)   /* 22008 too, with the DateStyle hint:
                                              a month or day past 12 / 31 */
#define ATTU_DATETIME_TZ_RANGE      (-4)   /* 22009 time zone displacement */
#define ATTU_DATETIME_TZ_UNKNOWN    (-5)   /* 22023 time zone "name" not recognized
                                              (the name in tz_name) */

/* Decodes len bytes of s. A time zone, if written, is checked and told in
 * tz_kind (timestamp without time zone ignores it, as PostgreSQL does). The year
 * is not range-checked here beyond fitting an int. */
int attu_datetime_parse(const char *s, size_t len, attu_datetime_fields *out);

#endif
