/*
 * storage_file.h - the data directory's small catalog files (attu.views,
 * attu.comments): text lines of space-separated words, written whole and
 * atomically, checked by a last line "crc32c XXXXXXXX" over the rest.
 *
 * A word holds any bytes: those at or below ' ', '%' and DEL are written as
 * %XX, so a name, a query or a comment is one word of one line.
 */
#ifndef ATTU_ENGINE_STORAGE_FILE_H
#define ATTU_ENGINE_STORAGE_FILE_H

#include "engine/error.h"
#include "engine/strbuf.h"

/* Appends s as one word (escaped). */
void attu_storage_put_word(attu_strbuf *b, const char *s);

/* Decodes a word in place; returns s. */
char *attu_storage_unescape_word(char *s);

/* Writes text (the lines, without the checksum: this appends it) to
 * data_dir/name: a temporary file, fsync, rename over name, fsync of the
 * folder. 0, or -1 with 58030 (or 53200) in err; text is left as it was
 * but for the checksum line. */
int attu_storage_write_catalog_file(const char *data_dir, const char *name, attu_strbuf *text, attu_error *err);

/* Reads data_dir/name into text, checks its last line's checksum and cuts
 * it off (text->p is then the lines, NUL-terminated). Returns 1 when the
 * file does not exist (text empty), 0 when read, -1 with err set: 58030 on
 * a read error, XX001 "<what> file "<path>" is damaged: checksum mismatch"
 * when the check fails. */
int attu_storage_read_catalog_file(const char *data_dir, const char *name, const char *what, attu_strbuf *text,
                                   attu_error *err);

#endif
