/* system_column.h: the names of PostgreSQL's system columns.
 *
 * Every PostgreSQL table has the system columns tableoid, xmin, cmin,
 * xmax, cmax and ctid, so no user column may take their names (42701).
 * attu answers tableoid of a table (its pg_class OID, planner/
 * catalog_functions.c) and keeps the other names free of user columns
 * too, so that a schema that works here also loads into PostgreSQL. */
#ifndef ATTU_SYSTEM_COLUMN_H
#define ATTU_SYSTEM_COLUMN_H

#include <stdbool.h>

#include "engine/error.h"

/* Whether name is one of the system columns' names. */
bool attu_is_system_column_name(const char *name);

/* 0, or 42701 "column name ... conflicts with a system column name" for a
 * column a DDL statement would create or rename to name. */
int attu_check_column_name(const char *name, attu_error *err);

#endif
