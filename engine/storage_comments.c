/*
 * storage_comments.c - the comments of a data directory (storage.h).
 *
 * <data-dir>/attu.comments is text, one line per comment (comments.h):
 *
 *   attu-comments 1
 *   comment <kind> <relation> <+sub, or - for none> <text>
 *   crc32c <crc of everything above>
 *
 * with every byte at or below ' ', '%' and DEL written as %XX (as the
 * views file writes its names), so each field is one word; a missing
 * file is no comments. Written whole, to a temporary file renamed over
 * the old one.
 */
#define _GNU_SOURCE
#include "engine/storage.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/checksum.h"
#include "engine/comments.h"
#include "engine/strbuf.h"

#define COMMENTS_FILE "attu.comments"

static void put_escaped(attu_strbuf *b, const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p <= ' ' || *p == '%' || *p == 0x7f) attu_strbuf_printf(b, "%%%02X", *p);
        else attu_strbuf_add(b, (const char *)p, 1);
    }
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

static char *unescape(char *s) {
    char *o = s;
    for (char *p = s; *p;) {
        if (p[0] == '%' && hexval(p[1]) >= 0 && hexval(p[2]) >= 0) {
            *o++ = (char)(hexval(p[1]) * 16 + hexval(p[2]));
            p += 3;
        } else {
            *o++ = *p++;
        }
    }
    *o = '\0';
    return s;
}

static int io_error(attu_error *err, const char *what, const char *path) {
    return attu_error_set(err, ATTU_SQLSTATE_IO_ERROR, 0, "could not %s \"%s\": %s", what, path, strerror(errno));
}

int attu_storage_save_comments(const char *data_dir, const attu_comments *cs, attu_error *err) {
    attu_strbuf b = { 0 };
    attu_strbuf_add(&b, "attu-comments 1\n", 16);
    for (size_t i = 0; i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        attu_strbuf_printf(&b, "comment %c ", c->kind);
        put_escaped(&b, c->rel);
        attu_strbuf_add(&b, " ", 1);
        attu_strbuf_add(&b, *c->sub ? "+" : "-", 1);   /* (a column may be named "-") */
        put_escaped(&b, c->sub);
        attu_strbuf_add(&b, " ", 1);
        put_escaped(&b, c->text);
        attu_strbuf_add(&b, "\n", 1);
    }
    if (b.oom) { free(b.p); return attu_error_oom(err); }
    attu_strbuf_printf(&b, "crc32c %08x\n", attu_crc32c(0, b.p, b.n));
    if (b.oom) { free(b.p); return attu_error_oom(err); }
    char path[PATH_MAX], tmp[PATH_MAX];
    snprintf(path, sizeof path, "%s/" COMMENTS_FILE, data_dir);
    snprintf(tmp, sizeof tmp, "%s/" COMMENTS_FILE ".tmp", data_dir);
    int rc = -1;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) { io_error(err, "create file", tmp); goto out; }
    for (size_t off = 0; off < b.n;) {
        ssize_t w = write(fd, b.p + off, b.n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) { io_error(err, "write file", tmp); close(fd); goto out; }
        off += (size_t)w;
    }
    if (fsync(fd) != 0) { io_error(err, "fsync", tmp); close(fd); goto out; }
    if (close(fd) != 0) { io_error(err, "close file", tmp); goto out; }
    if (rename(tmp, path) != 0) { io_error(err, "rename", tmp); goto out; }
    int dfd = open(data_dir, O_RDONLY | O_CLOEXEC);
    if (dfd < 0 || fsync(dfd) != 0) {
        io_error(err, "fsync", data_dir);
        if (dfd >= 0) close(dfd);
        goto out;
    }
    close(dfd);
    rc = 0;
out:
    free(b.p);
    return rc;
}

int attu_storage_load_comments(const char *data_dir, attu_comments *cs, attu_error *err) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/" COMMENTS_FILE, data_dir);
    FILE *f = fopen(path, "rb");
    if (!f) return errno == ENOENT ? 0 : io_error(err, "open", path);
    attu_strbuf b = { 0 };
    char chunk[8192];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) attu_strbuf_add(&b, chunk, got);
    bool rerr = ferror(f);
    fclose(f);
    if (rerr) { free(b.p); return io_error(err, "read", path); }
    if (b.oom) { free(b.p); return attu_error_oom(err); }
    size_t crc_at = b.n;
    if (crc_at && b.p[crc_at - 1] == '\n') crc_at--;
    while (crc_at > 0 && b.p[crc_at - 1] != '\n') crc_at--;
    unsigned crc;
    if (!b.n || b.p[b.n - 1] != '\n' || sscanf(b.p + crc_at, "crc32c %8x", &crc) != 1 ||
        crc != attu_crc32c(0, b.p, crc_at)) {
        free(b.p);
        return attu_error_set(err, ATTU_SQLSTATE_DATA_CORRUPTED, 0, "comments file \"%s\" is damaged: checksum mismatch",
                              path);
    }
    b.p[crc_at] = '\0';
    char *save = NULL, *line = strtok_r(b.p, "\n", &save);
    int rc = 0;
    if (!line || strcmp(line, "attu-comments 1")) rc = -1;
    while (!rc && (line = strtok_r(NULL, "\n", &save))) {
        char *w = NULL, *fields[5];
        int nf = 0;
        for (char *p = strtok_r(line, " ", &w); p && nf < 5; p = strtok_r(NULL, " ", &w)) fields[nf++] = p;
        if (nf != 5 || strcmp(fields[0], "comment") || strlen(fields[1]) != 1 || !strchr("rck", fields[1][0])) {
            rc = -1;
            break;
        }
        if (fields[3][0] != '+' && strcmp(fields[3], "-")) { rc = -1; break; }
        const char *sub = unescape(fields[3] + 1);
        if (attu_comments_set(cs, fields[1][0], unescape(fields[2]), sub, unescape(fields[4]))) {
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
