/*
 * interval_style.h - intervals in the IntervalStyle forms other than
 * PostgreSQL's default postgres one (which engine/interval.c writes):
 *
 *   sql_standard      1-2  |  3 4:05:06.5  |  -1 2:00:00  |  +1-2 -3 +4:05:06
 *   iso_8601          P1Y2M3DT4H5M6.5S  |  PT0S  |  P-1DT2H
 *   postgres_verbose  @ 1 year 2 mons 3 days 4 hours 5 mins 6.5 secs  |  @ 1 day -2 hours ago
 *
 * as PostgreSQL 15's interval output writes them: the fields are years and
 * months (of the months), days, and hours, minutes, seconds and
 * microseconds (of the time, each with the time's sign).
 */
#ifndef ATTU_ENGINE_INTERVAL_STYLE_H
#define ATTU_ENGINE_INTERVAL_STYLE_H

#include <stddef.h>

#include "engine/datestyle.h"
#include "engine/interval.h"

/* Writes iv in `style` (not ATTU_INTERVALSTYLE_POSTGRES) into o, which
 * has room for ATTU_INTERVAL_STYLE_MAX bytes; returns the length. */
#define ATTU_INTERVAL_STYLE_MAX 192
size_t attu_interval_format_styled(attu_interval iv, attu_intervalstyle style, char *o);

#endif
