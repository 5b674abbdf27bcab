/*
 * bpchar.h - char(n) columns hold their values without trailing spaces.
 *
 * engine/types.h says why: the stripped bytes are what PostgreSQL compares,
 * so the sorted dictionary serves char(n) as it is. Every value that enters
 * a char(n) column is stripped where it enters (assignment, casts, COPY).
 * Tables saved by builds that kept char(n) values as given may hold
 * trailing spaces; attu_bpchar_normalize strips them when such a table is
 * loaded, so 'a' and 'a ' become one value, as they are in PostgreSQL.
 */
#ifndef ATTU_BPCHAR_H
#define ATTU_BPCHAR_H

#include "engine/column.h"
#include "engine/error.h"

/* For a char(n) column whose dictionary has a value ending in a space:
 * rebuilds the dictionary from the stripped values and rewrites the codes.
 * Other columns are left alone. Returns 0, or -1 with err set (OOM). */
int attu_bpchar_normalize(attu_column *c, attu_error *err);

#endif
