#ifndef ATTU_DATESTYLE_H
#define ATTU_DATESTYLE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * DateStyle on the calling thread: how date, timestamp and timestamptz
 * print (ISO, SQL, Postgres, German) and how an ambiguous numeric date
 * such as '01/02/2023' is read (MDY, DMY, YMD), as in PostgreSQL.
 *
 * Like the session zone (engine/timezone.h) it is per thread: the db
 * layer sets it from the session's setting before each statement and
 * when the setting changes, and the worker pools (thread_pool.c,
 * cpu_threads.c) hand the caller's to their workers, so sessions on
 * different threads never see each other's. ISO, MDY where none was set.
 */

typedef enum { ATTU_DATESTYLE_ISO, ATTU_DATESTYLE_SQL, ATTU_DATESTYLE_POSTGRES, ATTU_DATESTYLE_GERMAN } attu_datestyle_style;
typedef enum { ATTU_DATEORDER_MDY, ATTU_DATEORDER_DMY, ATTU_DATEORDER_YMD } attu_datestyle_order;

/* IntervalStyle travels with DateStyle (the same per-thread route): how
 * an interval prints (postgres "1 year 2 mons 03:00:00", postgres_verbose
 * "@ 1 year 2 mons 3 hours", sql_standard "1-2" / "+1-2 +3 +4:05:06",
 * iso_8601 "P1Y2M3DT4H") and, under sql_standard, how a leading minus
 * reads. postgres where none was set. */
typedef enum {
    ATTU_INTERVALSTYLE_POSTGRES = 0, ATTU_INTERVALSTYLE_POSTGRES_VERBOSE, ATTU_INTERVALSTYLE_SQL_STANDARD,
    ATTU_INTERVALSTYLE_ISO_8601
} attu_intervalstyle;

/* extra_float_digits travels the same way: above 0 (the default 1) a
 * float prints in its shortest exact form; at 0 or below, as PostgreSQL,
 * rounded to 15 (real: 6) plus extra_float_digits significant digits
 * (float_fixed set, at least 1). */
typedef struct attu_datestyle {
    attu_datestyle_style style;
    attu_datestyle_order order;
    attu_intervalstyle interval;
    bool float_fixed;
    int8_t extra_float_digits;     /* -15 .. 0 when float_fixed */
} attu_datestyle;

/* The setting's canonical text ("SQL, DMY", as db_settings.c writes it
 * back) to its two parts; NULL or text it does not know is ISO, MDY. */
attu_datestyle attu_datestyle_from_setting(const char *value);
/* The IntervalStyle setting's value (any case); postgres for NULL or text
 * it does not know. */
attu_intervalstyle attu_intervalstyle_from_setting(const char *value);

void attu_datestyle_set_session(attu_datestyle ds);
attu_datestyle attu_datestyle_session(void);

/* Sets ISO, MDY (IntervalStyle postgres, floats shortest) on the calling thread and
 * returns what was there (give it
 * back to attu_datestyle_set_session after). For a value attu prints only
 * to read it back (a binary parameter, EXECUTE's arguments): ISO text
 * reads the same under every order, where '01/02/2023' under YMD or
 * a zone abbreviation the input does not know would not. */
attu_datestyle attu_datestyle_use_iso(void);

#endif
