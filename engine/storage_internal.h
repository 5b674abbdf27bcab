/*
 * storage_internal.h - what storage.c lends storage_commit.c: the table
 * folder's pieces (names, generations, CURRENT) and the file helpers.
 */
#ifndef ATTU_STORAGE_INTERNAL_H
#define ATTU_STORAGE_INTERNAL_H

#include "engine/storage.h"
#include "engine/strbuf.h"

/* The folder name of a table (bytes outside [a-z0-9_] as %XX). */
void storage_escape_name(const char *name, char *out, size_t cap);
/* The generation CURRENT names in table folder tdir (0: none). */
unsigned long storage_read_current(const char *tdir);
/* Writes t as generation folder gdir (created), fsynced; not current. */
int storage_write_generation(const char *gdir, const attu_table *t, const char *const *defaults,
                             const attu_unique *uniques, int nuniques, const attu_check *checks, int nchecks,
                             const attu_fkey *fkeys, int nfkeys, attu_error *err);
/* Writes t as generation gen of table folder tdir, whose current
 * generation is cur (> 0): only the rows t added since when t descends
 * from the version cur holds by appending (attu_table.lineage), else the
 * whole table (storage.c). Fsynced; not current. */
int storage_write_next_generation(const char *tdir, unsigned long cur, unsigned long gen, const attu_table *t,
                                  const char *const *defaults, const attu_unique *uniques, int nuniques,
                                  const attu_check *checks, int nchecks, const attu_fkey *fkeys, int nfkeys,
                                  attu_error *err);
/* A tail segment's payload (storage_tail.c): t's rows [first, nrows)
 * appended to b. */
int storage_tail_payload(const attu_table *t, size_t first, attu_strbuf *b, attu_error *err);
/* Appends a tail payload's rows [first, first + count) to t's columns
 * (each first rows long): NULL, or why the payload is damaged. */
const char *storage_tail_apply(attu_table *t, size_t first, size_t count, const void *payload, size_t len);
/* Makes generation gen current in tdir (CURRENT rewritten atomically). */
int storage_commit_current(const char *tdir, unsigned long gen, attu_error *err);
/* Removes every generation of tdir but keep ("g<N>") and those it reads
 * rows from (an append chain's base and tails). */
void storage_remove_other_generations(const char *tdir, const char *keep);
int storage_remove_tree(const char *path);
int storage_fsync_path(const char *path, attu_error *err);
void storage_hook(const char *stage);
/* A fresh name for a dot-prefixed temporary folder of the data directory. */
unsigned long storage_next_counter(void);

#endif
