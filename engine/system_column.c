/* system_column.c: the names of PostgreSQL's system columns
 * (engine/system_column.h). */
#include "engine/system_column.h"

#include <string.h>

bool attu_is_system_column_name(const char *name) {
    static const char *const names[] = { "tableoid", "xmin", "cmin", "xmax", "cmax", "ctid" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i])) return true;
    return false;
}

int attu_check_column_name(const char *name, attu_error *err) {
    if (!attu_is_system_column_name(name)) return 0;
    return attu_error_set(err, "42701", 0, "column name \"%s\" conflicts with a system column name", name);
}
