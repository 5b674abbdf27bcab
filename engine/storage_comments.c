/*
 * storage_comments.c - the comments of a data directory (storage.h).
 *
 * <data-dir>/attu.comments is text, one line per comment (comments.h):
 *
 *   attu-comments 1
 *   comment <kind> <relation> <+sub, or - for none> <text>
 *   crc32c <crc of everything above>
 *
 * (kind e: an enum type's definition, engine/enum_type.h; d: a domain's,
 * D: the domain of a column, engine/domain_type.h; f: a SQL function's,
 * engine/sql_function.h; R: a role, M: a role membership, engine/role.h)
 *
 * with every byte at or below ' ', '%' and DEL written as %XX (as the
 * views file writes its names), so each field is one word; a missing
 * file is no comments. Written whole, to a temporary file renamed over
 * the old one.
 */
#define _GNU_SOURCE
#include "engine/storage.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/comments.h"
#include "engine/storage_file.h"
#include "engine/strbuf.h"

#define COMMENTS_FILE "attu.comments"

int attu_storage_save_comments(const char *data_dir, const attu_comments *cs, attu_error *err) {
    return attu_storage_save_comments_as(data_dir, cs, COMMENTS_FILE, err);
}

int attu_storage_save_comments_as(const char *data_dir, const attu_comments *cs, const char *file, attu_error *err) {
    attu_strbuf b = { 0 };
    attu_strbuf_add(&b, "attu-comments 1\n", 16);
    for (size_t i = 0; i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        attu_strbuf_printf(&b, "comment %c ", c->kind);
        attu_storage_put_word(&b, c->rel);
        attu_strbuf_add(&b, " ", 1);
        attu_strbuf_add(&b, *c->sub ? "+" : "-", 1);   /* (a column may be named "-") */
        attu_storage_put_word(&b, c->sub);
        attu_strbuf_add(&b, " ", 1);
        attu_storage_put_word(&b, c->text);
        attu_strbuf_add(&b, "\n", 1);
    }
    int rc = attu_storage_write_catalog_file(data_dir, file, &b, err);
    free(b.p);
    return rc;
}

int attu_storage_load_comments(const char *data_dir, attu_comments *cs, attu_error *err) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/" COMMENTS_FILE, data_dir);
    attu_strbuf b = { 0 };
    int got = attu_storage_read_catalog_file(data_dir, COMMENTS_FILE, "comments", &b, err);
    if (got) { free(b.p); return got > 0 ? 0 : -1; }
    char *save = NULL, *line = strtok_r(b.p, "\n", &save);
    int rc = 0;
    if (!line || strcmp(line, "attu-comments 1")) rc = -1;
    while (!rc && (line = strtok_r(NULL, "\n", &save))) {
        char *w = NULL, *fields[5];
        int nf = 0;
        for (char *p = strtok_r(line, " ", &w); p && nf < 5; p = strtok_r(NULL, " ", &w)) fields[nf++] = p;
        if (nf != 5 || strcmp(fields[0], "comment") || strlen(fields[1]) != 1 || !strchr("rckedDfRM", fields[1][0])) {
            rc = -1;
            break;
        }
        if (fields[3][0] != '+' && strcmp(fields[3], "-")) { rc = -1; break; }
        const char *sub = attu_storage_unescape_word(fields[3] + 1);
        if (attu_comments_set(cs, fields[1][0], attu_storage_unescape_word(fields[2]), sub, attu_storage_unescape_word(fields[4]))) {
            free(b.p);
            return attu_error_oom(err);
        }
    }
    free(b.p);
    if (rc)
        return attu_error_set(err, ATTU_SQLSTATE_DATA_CORRUPTED, 0, "comments file \"%s\" is damaged: malformed line",
                              path);
    return 0;
}
