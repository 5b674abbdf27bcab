/*
 * table_rewrite.h - new versions of a table with rows removed or changed
 * (DELETE, UPDATE, TRUNCATE).
 *
 * As INSERT and COPY build a new version (table.h; its columns may share
 * the old ones' buffers, column.h attu_column_append_version), these never touch the
 * table they are given: each returns a new attu_table, whose columns are
 * new columns (no device copy, no key_stats, no value range: whatever a
 * backend or the star join learnt of the old rows does not carry over),
 * with version one past the old one. The caller saves it and swaps it into
 * the catalog under the write lock; on any error (23502, out of memory)
 * the old table is untouched and NULL comes back.
 *
 * TEXT columns leave with a dictionary of the strings their rows still
 * hold (codes renumbered), so a table that is updated or deleted from
 * over and over does not carry every string it ever held; a statement
 * that changes only a few rows may leave a few unused strings in it, at
 * most a sixteenth of the dictionary (attu_column.dict_unused), so that
 * it does not pay a copy of the whole dictionary each time.
 */
#ifndef ATTU_TABLE_REWRITE_H
#define ATTU_TABLE_REWRITE_H

#include <stddef.h>
#include <stdint.h>

#include "engine/column.h"
#include "engine/error.h"
#include "engine/table.h"

/* A new column whose row i is c's row rows[i] (host memory; the
 * dictionary shared by reference). */
attu_column *attu_column_gather(const attu_column *c, const size_t *rows, size_t n, attu_error *err);

/* A copy of t holding only the rows r with keep[r] != 0, in their order. */
attu_table *attu_table_keep_rows(const attu_table *t, const uint8_t *keep, attu_error *err);

/* A copy of t in which every row r with src_row[r] >= 0 takes, in column
 * set_cols[k] (k < nset), the value at row src_row[r] of values[k]; every
 * other value is kept. values[k] must already be of that column's type
 * (the assignment cast done). A NULL into a NOT NULL column is 23502,
 * with PostgreSQL's message. */
attu_table *attu_table_update_rows(const attu_table *t, const int64_t *src_row, int nset, const int *set_cols,
                                   attu_column *const *values, attu_error *err);

/* The same for the rows rows[0..n) (ascending, distinct), row rows[i]
 * taking the values at row src[i]: the rows that do not change are not
 * looked at (beyond the copy), for a statement that knows its few rows. */
attu_table *attu_table_update_at(const attu_table *t, const size_t *rows, const int64_t *src, size_t n, int nset,
                                 const int *set_cols, attu_column *const *values, attu_error *err);

/* A copy of t's schema with no rows (TRUNCATE). */
attu_table *attu_table_truncated(const attu_table *t, attu_error *err);

#endif
