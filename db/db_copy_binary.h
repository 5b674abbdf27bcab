/*
 * db_copy_binary.h - COPY's binary format (db_copy_binary.c), for db_copy.c.
 */
#ifndef ATTU_DB_COPY_BINARY_H
#define ATTU_DB_COPY_BINARY_H

#include <stddef.h>

#include "db/database.h"
#include "db/db_copy_out.h"
#include "engine/strbuf.h"
#include "engine/table.h"

/* The binary COPY data data[0..n) for the columns of t (the table, or the
 * listed columns), appended to text as lines of COPY's text format (tab
 * delimiter, NULL \N). rel names the table in the errors' CONTEXT; the
 * values are read by cb->copy_binary_recv. 0, or -1 with err set. */
int db_copy_binary_to_text(const attu_table *t, const char *rel, const attu_exec_callbacks *cb,
                           const char *data, size_t n, attu_strbuf *text, attu_error *err);

/* The result's rows in the binary format (each tuple cb->copy_binary_tuple's)
 * into out: 0, -1 with err set, or -2 when the client went away. */
int db_copy_binary_send(const attu_result *res, const attu_exec_callbacks *cb, db_copy_out *out, attu_error *err);

#endif
