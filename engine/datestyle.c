/*
 * The calling thread's DateStyle (see datestyle.h).
 */
#include "engine/datestyle.h"

#include <string.h>
#include <strings.h>

static _Thread_local attu_datestyle session_style;   /* zero: ISO, MDY */

attu_datestyle attu_datestyle_from_setting(const char *value) {
    attu_datestyle ds = { ATTU_DATESTYLE_ISO, ATTU_DATEORDER_MDY, ATTU_INTERVALSTYLE_POSTGRES, false, 0 };
    if (!value) return ds;
    if (!strncasecmp(value, "SQL", 3)) ds.style = ATTU_DATESTYLE_SQL;
    else if (!strncasecmp(value, "Postgres", 8)) ds.style = ATTU_DATESTYLE_POSTGRES;
    else if (!strncasecmp(value, "German", 6)) ds.style = ATTU_DATESTYLE_GERMAN;
    const char *comma = strchr(value, ',');
    if (comma) {
        comma++;
        while (*comma == ' ') comma++;
        if (!strncasecmp(comma, "DMY", 3)) ds.order = ATTU_DATEORDER_DMY;
        else if (!strncasecmp(comma, "YMD", 3)) ds.order = ATTU_DATEORDER_YMD;
    }
    return ds;
}

attu_intervalstyle attu_intervalstyle_from_setting(const char *value) {
    if (!value) return ATTU_INTERVALSTYLE_POSTGRES;
    if (!strcasecmp(value, "postgres_verbose")) return ATTU_INTERVALSTYLE_POSTGRES_VERBOSE;
    if (!strcasecmp(value, "sql_standard")) return ATTU_INTERVALSTYLE_SQL_STANDARD;
    if (!strcasecmp(value, "iso_8601")) return ATTU_INTERVALSTYLE_ISO_8601;
    return ATTU_INTERVALSTYLE_POSTGRES;
}

void attu_datestyle_set_session(attu_datestyle ds) { session_style = ds; }
attu_datestyle attu_datestyle_session(void) { return session_style; }

attu_datestyle attu_datestyle_use_iso(void) {
    attu_datestyle was = session_style;
    session_style = (attu_datestyle){ ATTU_DATESTYLE_ISO, ATTU_DATEORDER_MDY, ATTU_INTERVALSTYLE_POSTGRES, false, 0 };
    return was;
}
