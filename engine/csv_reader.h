/*
 * csv_reader.h - strict, parallel CSV loading into a table (COPY FROM).
 *
 * RFC 4180 with PostgreSQL COPY's CSV options, or PostgreSQL's text format
 * (text_format). A load either appends every
 * row or changes nothing: rows are parsed into fresh columns and only joined
 * to the table when the whole input was read without error. Errors name the
 * place as "file:line:column: reason" (1-based; the line counts physical
 * lines, so a quoted field with embedded newlines advances it) and carry
 * SQLSTATE 22P02/22003 (bad value), 22P04 (bad CSV structure) or 22021
 * (bad encoding).
 */
#ifndef ATTU_CSV_READER_H
#define ATTU_CSV_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "engine/error.h"
#include "engine/table.h"

typedef enum attu_encoding { ATTU_ENCODING_UTF8 = 0, ATTU_ENCODING_LATIN1 } attu_encoding;

typedef struct attu_csv_options {
    char          delimiter;     /* ',' */
    char          quote;         /* '"' */
    char          escape;        /* same as quote unless set */
    bool          header;        /* skip the first record */
    const char   *null_string;   /* unquoted field equal to this is NULL; "" */
    attu_encoding encoding;
    int           threads;       /* 0 = all cores */
    /* PostgreSQL's text format instead of CSV: no quoting; a backslash
     * escapes the next character (\b \f \n \r \t \v, octal \ooo, hex
     * \xhh, any other character itself); a field equal to null_string as
     * written is NULL; "\." ends the data. quote and escape are unused. */
    bool          text_format;
    /* CSV's FORCE_NOT_NULL / FORCE_NULL, per column of the loaded table
     * (NULL: none): an unquoted field equal to null_string is that text,
     * not NULL; a quoted one equal to it is NULL. */
    const bool   *force_not_null;
    const bool   *force_null;
    /* HEADER MATCH: the header's fields must be the columns' names, in
     * order (22P04 otherwise); header must be set too */
    bool          header_match;
    /* COPY's table name: errors are PostgreSQL's message alone with its
     * CONTEXT line ("COPY t, line 2, column a: \"x\"", "COPY t, line 1:
     * \"1,x\""), lines counted by record; NULL: a file's errors, led by
     * "name:line:col: " (physical lines) */
    const char   *copy_relation;
} attu_csv_options;

void attu_csv_options_default(attu_csv_options *o);

/* Where bytes come from: a whole file (mapped, parsed in parallel chunks) or
 * a pull callback (COPY FROM STDIN), read returning bytes, 0 at the end, or
 * -1 with err set (e.g. the client sent CopyFail). */
typedef struct attu_csv_source {
    const char *path;            /* file to read, or NULL to use read() */
    ssize_t   (*read)(void *ctx, char *buf, size_t cap, attu_error *err);
    void       *ctx;
    const char *display_name;    /* used in error messages; path or "STDIN" */
} attu_csv_source;

/* Parses the source and returns a new table: a copy of `base` with the rows
 * appended (base itself is not touched). *rows_loaded gets the count. */
attu_table *attu_csv_load(const attu_table *base, const attu_csv_options *opts,
                          const attu_csv_source *src, size_t *rows_loaded,
                          attu_error *err);

/* attu_csv_load keeping its input (*kept; NULL when the load failed or
 * out of memory), for the CONTEXT of an error a COPY finds in the loaded
 * rows afterwards (a key, a CHECK, a NOT NULL column the column list left
 * to its default). Free with attu_csv_kept_free. */
typedef struct attu_csv_kept attu_csv_kept;
attu_table *attu_csv_load_kept(const attu_table *base, const attu_csv_options *opts, const attu_csv_source *src,
                               size_t *rows_loaded, attu_error *err, attu_csv_kept **kept);
void attu_csv_kept_free(attu_csv_kept *k);
/* PostgreSQL's CONTEXT for an error about the record-th (0-based) data
 * record: "COPY t, line N" and, with_text, ": \"the record as sent\""
 * (cut past 100 bytes), its line numbered as csv_reader.c's errors. */
void attu_csv_record_context(const attu_csv_kept *k, size_t record, bool with_text, char *buf, size_t cap);

/* Infers column names (from the header, or column1..N) and types from the
 * first sample_rows records: BOOLEAN, BIGINT, DOUBLE PRECISION, DATE,
 * TIMESTAMP, else TEXT. Returns the number of columns, defs malloc'ed. */
int attu_csv_infer_schema(const attu_csv_options *opts, const char *path,
                          size_t sample_rows, attu_column_def **defs_out,
                          attu_error *err);

#endif
