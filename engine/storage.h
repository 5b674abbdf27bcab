/*
 * storage.h - the data directory: every table survives a restart.
 *
 * Layout: <data-dir>/<table>/ holds schema (text), one file per column
 * (values, validity, dictionary) and a checksum for each. A save writes the
 * table into a temporary folder, fsyncs every file and the folder, then
 * renames it over the old one and fsyncs the parent, so a crash at any point
 * leaves either the previous table or the new one, never a mix. A version
 * that only appended rows to the stored one (attu_table.lineage) is saved
 * as a tail of its new rows beside the stored files (storage.c), with the
 * same guarantee.
 */
#ifndef ATTU_STORAGE_H
#define ATTU_STORAGE_H

#include "engine/catalog.h"
#include "engine/check.h"
#include "engine/fkey.h"
#include "engine/error.h"
#include "engine/table.h"
#include "engine/unique.h"

/* Creates the directory if missing and takes an exclusive lock file so that
 * two daemons never share it. Returns 0 or -1 (58030). */
int attu_storage_open(const char *data_dir, attu_error *err);

/* Durably writes the whole table (replacing any earlier version). */
int attu_storage_save_table(const char *data_dir, const attu_table *t,
                            attu_error *err);

/* The same, also recording each column's DEFAULT expression (SQL text;
 * defaults[i] NULL, or defaults NULL, for none) in the schema, so that
 * attu_storage_load_all gives them back to the catalog
 * (attu_catalog_set_default). Data directories written before DEFAULTs
 * existed load unchanged, with no defaults. */
int attu_storage_save_table_defaults(const char *data_dir, const attu_table *t,
                                     const char *const *defaults, attu_error *err);

/* The same, also recording the table's PRIMARY KEY / UNIQUE constraints
 * (unique.h), which attu_storage_load_all gives back to the catalog
 * (attu_catalog_set_uniques). */
int attu_storage_save_table_schema(const char *data_dir, const attu_table *t, const char *const *defaults,
                                   const attu_unique *uniques, int nuniques, attu_error *err);

/* The same, also recording the table's CHECK constraints (check.h) and
 * FOREIGN KEY constraints (fkey.h), which attu_storage_load_all gives
 * back (attu_catalog_set_checks, attu_catalog_set_fkeys). */
int attu_storage_save_table_constraints(const char *data_dir, const attu_table *t, const char *const *defaults,
                                        const attu_unique *uniques, int nuniques, const attu_check *checks,
                                        int nchecks, const attu_fkey *fkeys, int nfkeys, attu_error *err);

/* Durably removes the table's folder. */
int attu_storage_drop_table(const char *data_dir, const char *name,
                            attu_error *err);

/* Reads every table back, verifying checksums. A table that fails
 * verification is still added, marked unavailable with the file named in
 * its reason (queries on it fail with XX001). Leftover temporary folders of
 * interrupted saves are removed. Returns the number of tables, or -1. */
int attu_storage_load_all(const char *data_dir, attu_catalog *cat,
                          attu_error *err);

/* Views (view.h) live in one file, <data-dir>/attu.views, rewritten whole
 * (temporary file, fsync, rename, fsync of the folder) by every CREATE /
 * DROP VIEW: a crash leaves the old set or the new one. Its name holds a
 * '.', which a table's folder name never does (storage.c escapes it), and
 * it is not a folder, so attu_storage_load_all passes over it. */
int attu_storage_save_views(const char *data_dir, const attu_views *views, attu_error *err);
/* Puts the saved views into the catalog (none when the file is missing);
 * -1 with XX001 naming the file when it fails its checksum. */
int attu_storage_load_views(const char *data_dir, attu_catalog *cat, attu_error *err);

/* COMMENT ON's comments (comments.h) in <data-dir>/attu.comments
 * (storage_comments.c): save writes them all; load adds the file's to cs
 * (none when there is no file). */
int attu_storage_save_comments(const char *data_dir, const attu_comments *cs, attu_error *err);
int attu_storage_load_comments(const char *data_dir, attu_comments *cs, attu_error *err);

/* The same under another file name of the data directory (a commit's
 * staged file, storage_commit.c). */
int attu_storage_save_views_as(const char *data_dir, const attu_views *views, const char *file, attu_error *err);
int attu_storage_save_comments_as(const char *data_dir, const attu_comments *cs, const char *file, attu_error *err);

/* A commit of several relations at once (storage_commit.c): each change
 * is staged (a table's new version written beside its current one, a
 * catalog file under a staging name) without being seen; apply then
 * writes the commit record <data-dir>/attu.commit (atomically: written,
 * fsynced, renamed) naming every staged change, makes each change current
 * and removes the record. A crash before the record leaves every relation
 * as it was (the next start removes what was staged); a crash after it
 * leaves the record, and the next start (attu_storage_recover, from
 * attu_storage_load_all) finishes the commit: all or nothing. */
typedef struct attu_storage_commit attu_storage_commit;
attu_storage_commit *attu_storage_commit_new(const char *data_dir);
/* t's new version, with its DEFAULTs and constraints, staged. */
int attu_storage_commit_table(attu_storage_commit *c, const attu_table *t, const char *const *defaults,
                              const attu_unique *uniques, int nuniques, const attu_check *checks, int nchecks,
                              const attu_fkey *fkeys, int nfkeys, attu_error *err);
/* The table's folder goes (nothing when none is stored). */
int attu_storage_commit_drop(attu_storage_commit *c, const char *name, attu_error *err);
int attu_storage_commit_views(attu_storage_commit *c, const attu_views *views, attu_error *err);
int attu_storage_commit_comments(attu_storage_commit *c, const attu_comments *cs, attu_error *err);
/* A file of the data directory the caller wrote whole as `from` (a name
 * starting with '.' is removed by a start that finds no record) to be
 * renamed over `to`. */
int attu_storage_commit_file(attu_storage_commit *c, const char *from, const char *to, attu_error *err);
/* 0 once the record is durable (the commit then stands: a failure to
 * finish it is left to the next start); -1 with err when it could not be
 * written (nothing changed). */
int attu_storage_commit_apply(attu_storage_commit *c, attu_error *err);
/* Frees c, removing what it staged unless it was applied. */
void attu_storage_commit_free(attu_storage_commit *c);
/* Finishes a commit whose record a crash left (0 when there was none). */
int attu_storage_recover(const char *data_dir, attu_error *err);

/* The indexes of CREATE INDEX (index.h) in <data-dir>/attu.indexes
 * (storage_indexes.c): save writes every table's; load, after the
 * tables, gives each table its indexes back (attu_catalog_set_indexes)
 * and a unique one's key to its uniques (unique.h's `index`). */
int attu_storage_save_indexes(const char *data_dir, const attu_catalog *cat, attu_error *err);
int attu_storage_save_indexes_as(const char *data_dir, const attu_catalog *cat, const char *file, attu_error *err);
/* a commit's staged indexes file (storage_commit.c) */
int attu_storage_commit_indexes(attu_storage_commit *c, const attu_catalog *cat, attu_error *err);
int attu_storage_load_indexes(const char *data_dir, attu_catalog *cat, attu_error *err);

/* Releases the lock attu_storage_open took (a no-op if this process holds
 * none on data_dir). Opening the same directory twice in one process is
 * allowed and takes the lock once. */
void attu_storage_close(const char *data_dir);

/* Tests only: when set, called at the stages of a save, "files-written"
 * (every file of the new version durable, not yet committed) and
 * "committed" (the new version is the current one, old not yet removed),
 * so a test can kill the writer at an exact point. */
extern void (*attu_storage_test_hook)(const char *stage);

#endif
