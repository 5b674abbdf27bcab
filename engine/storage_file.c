/*
 * storage_file.c - the catalog files' words, atomic writes and checksums
 * (storage_file.h), shared by storage_views.c and storage_comments.c.
 */
#define _GNU_SOURCE
#include "engine/storage_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/checksum.h"

void attu_storage_put_word(attu_strbuf *b, const char *s) {
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

char *attu_storage_unescape_word(char *s) {
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

int attu_storage_write_catalog_file(const char *data_dir, const char *name, attu_strbuf *text, attu_error *err) {
    if (text->oom) return attu_error_oom(err);
    attu_strbuf_printf(text, "crc32c %08x\n", attu_crc32c(0, text->p ? text->p : "", text->n));
    if (text->oom) return attu_error_oom(err);
    char path[PATH_MAX], tmp[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", data_dir, name);
    snprintf(tmp, sizeof tmp, "%s/%s.tmp", data_dir, name);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return io_error(err, "create file", tmp);
    for (size_t off = 0; off < text->n;) {
        ssize_t w = write(fd, text->p + off, text->n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) { io_error(err, "write file", tmp); close(fd); return -1; }
        off += (size_t)w;
    }
    if (fsync(fd) != 0) { io_error(err, "fsync", tmp); close(fd); return -1; }
    if (close(fd) != 0) return io_error(err, "close file", tmp);
    if (rename(tmp, path) != 0) return io_error(err, "rename", tmp);
    int dfd = open(data_dir, O_RDONLY | O_CLOEXEC);
    if (dfd < 0 || fsync(dfd) != 0) {
        io_error(err, "fsync", data_dir);
        if (dfd >= 0) close(dfd);
        return -1;
    }
    close(dfd);
    return 0;
}

int attu_storage_read_catalog_file(const char *data_dir, const char *name, const char *what, attu_strbuf *text,
                                   attu_error *err) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", data_dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) return errno == ENOENT ? 1 : io_error(err, "open", path);
    char chunk[8192];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) attu_strbuf_add(text, chunk, got);
    bool rerr = ferror(f);
    fclose(f);
    if (rerr) return io_error(err, "read", path);
    if (text->oom) return attu_error_oom(err);
    /* the last line is the checksum of everything before it */
    size_t crc_at = text->n;
    if (crc_at && text->p[crc_at - 1] == '\n') crc_at--;
    while (crc_at > 0 && text->p[crc_at - 1] != '\n') crc_at--;
    unsigned crc;
    if (!text->n || text->p[text->n - 1] != '\n' || sscanf(text->p + crc_at, "crc32c %8x", &crc) != 1 ||
        crc != attu_crc32c(0, text->p, crc_at))
        return attu_error_set(err, ATTU_SQLSTATE_DATA_CORRUPTED, 0, "%s file \"%s\" is damaged: checksum mismatch",
                              what, path);
    text->p[crc_at] = '\0';
    text->n = crc_at;
    return 0;
}
