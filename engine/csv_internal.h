/*
 * csv_internal.h - private to the CSV reader: what csv_reader.c,
 * csv_split.c and csv_infer.c share.
 */
#ifndef ATTU_CSV_INTERNAL_H
#define ATTU_CSV_INTERNAL_H

#include <stddef.h>

#include "engine/csv_reader.h"

/* The whole input as one UTF-8 byte range (mapped file or buffer). */
typedef struct attu_csv_input {
    const char *name;     /* for messages */
    const char *copy_relation;   /* COPY's table: PostgreSQL's messages (attu_csv_options) */
    const char *data;
    size_t size;
    void *map;            /* munmap on close, when mapped */
    size_t map_size;
    char *owned;          /* free on close, when buffered/converted */
} attu_csv_input;

int attu_csv_input_open(attu_csv_input *in, const attu_csv_options *opts,
                        const attu_csv_source *src, attu_error *err);
void attu_csv_input_close(attu_csv_input *in);

/* Rejects option combinations PostgreSQL rejects (22023). */
int attu_csv_check_options(const attu_csv_options *o, attu_error *err);

/* Record-aligned chunks: starts[i] is where chunk i's first record begins
 * (starts[0] == 0, the header included) and lines[i] its line number;
 * chunk i ends where chunk i+1 starts, the last at the end of input. */
typedef struct attu_csv_split {
    size_t count;
    size_t *starts;
    size_t *lines;
    size_t end_line;      /* line number at the end of input, 0 = not counted */
} attu_csv_split;

int attu_csv_split_input(const attu_csv_input *in, const attu_csv_options *o,
                         attu_csv_split *out, attu_error *err);
void attu_csv_split_free(attu_csv_split *s);
/* An empty split of n chunks (count set, starts and lines zeroed but for
 * lines[0] = 1); 0, or -1 with err set (out then holds nothing). */
int attu_csv_split_alloc(attu_csv_split *out, size_t n, attu_error *err);

/* Chunk boundary arithmetic, exposed for tests: the nominal cut of chunk i
 * of n over size bytes (64-bit safe: no size * i overflow for any size). */
size_t attu_csv_nominal_cut(size_t size, size_t n, size_t i);

/* How many chunks a load of size bytes on threads threads uses. */
size_t attu_csv_chunk_count(size_t size, int threads);

#endif
