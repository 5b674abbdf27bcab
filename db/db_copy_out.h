/*
 * db_copy_out.h - where COPY TO's bytes go (db_copy_out.c): the client
 * (TO STDOUT, through the copy_out callbacks) or a file on the server's
 * machine (TO 'file'), for db_copy.c and db_copy_binary.c.
 */
#ifndef ATTU_DB_COPY_OUT_H
#define ATTU_DB_COPY_OUT_H

#include <stdbool.h>
#include <stddef.h>

#include "db/database.h"
#include "engine/strbuf.h"

typedef struct db_copy_out {
    const attu_exec_callbacks *cb;   /* TO STDOUT: copy_out_data */
    attu_strbuf pending;             /* bytes not yet sent or written */
    int         fd;                  /* TO 'file': open from db_copy_out_open_file on; -1 */
    const char *name;                /* TO 'file': the name as the statement wrote it */
} db_copy_out;

/* TO STDOUT: one CopyData per db_copy_out_put, as PostgreSQL sends a row
 * (a text or CSV line, a binary tuple; the HEADER line its own): clients
 * such as psycopg 3 read a row per message. The connection gathers the
 * messages into its output batches. */
void db_copy_out_client(db_copy_out *o, const attu_exec_callbacks *cb);

/* TO 'file', before anything runs: PostgreSQL's rule that the name be
 * absolute (42602), and attud's --load-dir (42501 for a file outside it).
 * 0, or -1 with err set. */
int db_copy_out_check_path(attu_session *s, const char *name, attu_error *err);

/* Opens (creates or empties) the file for writing: 0, or -1 with
 * PostgreSQL's error for what open() said (58P01, 42501 with its HINT,
 * 42809 for a directory, ...). */
int db_copy_out_open_file(db_copy_out *o, const char *name, attu_error *err);

/* One row's bytes (or the header line, or the trailer): 0, -1 with err
 * set (a write error), -2 when the client went away. */
int db_copy_out_put(db_copy_out *o, const void *p, size_t n, attu_error *err);
/* Bytes that go out with the next row (the binary format's header, in
 * the first tuple's CopyData as PostgreSQL sends it): 0, or -1 (out of
 * memory). */
int db_copy_out_prefix(db_copy_out *o, const void *p, size_t n, attu_error *err);

/* Everything written: sends what is pending, or closes the file (whose
 * last bytes may fail only now). 0, -1 with err set, -2. */
int db_copy_out_finish(db_copy_out *o, attu_error *err);

/* An error ended the COPY: a file is cut back to empty and closed, so no
 * half of the rows is left in it. */
void db_copy_out_abort(db_copy_out *o);

#endif
