/*
 * db_copy_out.c - where COPY TO's bytes go: to the client (TO STDOUT) or
 * into a file on the server's machine (TO 'file'), as PostgreSQL 15's
 * copyto.c writes one.
 *
 * A file is named by an absolute path (a relative one is 42602, as in
 * PostgreSQL, which will not guess a folder) and, when attud was given
 * --load-dir, must lie in that folder, as COPY FROM's files must (42501).
 * It is opened as PostgreSQL opens it (created with mode 0644 less the
 * umask, or emptied), once the rows are known: an error of the query
 * leaves an existing file as it was. The rows then go out in pieces of
 * 4 KiB, as the stdio buffer PostgreSQL's CopySendEndOfRow fills, so a
 * write error reads as PostgreSQL's: "could not write to COPY file: %m"
 * where a full piece fails, "could not close file" where only the last
 * one does (a short COPY to a full disk). Unlike PostgreSQL, which leaves
 * what it wrote, a COPY that fails once the file is open cuts it back to
 * empty: the file holds every row, or none.
 *
 * The errors of open() are PostgreSQL's errcode_for_file_access: EACCES,
 * EPERM, EROFS 42501; ENOENT 58P01; EISDIR, ENOTDIR 42809; ENOSPC 53100;
 * EMFILE, ENFILE 53000; EIO 58030; anything else XX000; with PostgreSQL's
 * HINT about psql's \copy for ENOENT and EACCES.
 */
#include "db/db_internal.h"
#include "db/db_copy_out.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* TO 'file': write() every 4 KiB, the stdio buffer PostgreSQL's fwrite
 * fills. */
#define FILE_PIECE   4096u

static const char *file_errcode(int e) {
    switch (e) {
    case EPERM: case EACCES: case EROFS: return ATTU_SQLSTATE_INSUFFICIENT_PRIVILEGE;
    case ENOENT: return ATTU_SQLSTATE_UNDEFINED_FILE;
    case EEXIST: return "58P02";
    case ENOTDIR: case EISDIR: case ENOTEMPTY: return "42809";
    case ENOSPC: return "53100";
    case ENFILE: case EMFILE: return "53000";
    case EIO: return ATTU_SQLSTATE_IO_ERROR;
    default: return ATTU_SQLSTATE_INTERNAL;
    }
}

static int open_error(const char *name, int e, attu_error *err) {
    attu_error_set(err, file_errcode(e), 0, "could not open file \"%s\" for writing: %s", name, strerror(e));
    if (e == ENOENT || e == EACCES)
        attu_error_set_hint(err, "COPY TO instructs the PostgreSQL server process to write a file. "
                                 "You may want a client-side facility such as psql's \\copy.");
    return -1;
}

void db_copy_out_client(db_copy_out *o, const attu_exec_callbacks *cb) {
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->cb = cb;
}

/* Where the file would be, its links resolved: the file's own real path
 * when it exists, else its folder's with its last name; false when the
 * folder cannot be resolved either, or the name is a link to nowhere. */
static bool real_target(const char *name, char out[PATH_MAX]) {
    if (realpath(name, out)) return true;
    /* (a link to nowhere: open() would create its target, wherever) */
    struct stat st;
    if (!lstat(name, &st) && S_ISLNK(st.st_mode)) return false;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", name);
    char *slash = strrchr(dir, '/');
    if (!slash) return false;
    const char *base = name + (slash - dir) + 1;
    if (slash == dir) slash[1] = 0;   /* (a file of /) */
    else *slash = 0;
    char rdir[PATH_MAX];
    if (!*base || !realpath(dir, rdir)) return false;
    int n = snprintf(out, PATH_MAX, "%s/%s", strcmp(rdir, "/") ? rdir : "", base);
    return n > 0 && n < PATH_MAX;
}

int db_copy_out_check_path(attu_session *s, const char *name, attu_error *err) {
    if (name[0] != '/')
        return attu_error_set(err, "42602", 0, "relative path not allowed for COPY to file");
    const char *dir = s->db->load_dir;
    if (!dir) return 0;
    char rdir[PATH_MAX], rfile[PATH_MAX];
    if (!realpath(dir, rdir)) return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_FILE, 0, "load directory \"%s\" does not exist", dir);
    if (!real_target(name, rfile)) return open_error(name, ENOENT, err);
    size_t n = strlen(rdir);
    if (strncmp(rfile, rdir, n) || (rfile[n] != '/' && rfile[n] != 0))
        return attu_error_set(err, ATTU_SQLSTATE_INSUFFICIENT_PRIVILEGE, 0,
                              "could not open file \"%s\" for writing: outside the load directory", name);
    return 0;
}

int db_copy_out_open_file(db_copy_out *o, const char *name, attu_error *err) {
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->name = name;
    int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return open_error(name, errno, err);
    struct stat st;
    if (fstat(fd, &st)) {
        int e = errno;
        close(fd);
        return attu_error_set(err, file_errcode(e), 0, "could not stat file \"%s\": %s", name, strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {   /* (open refuses a folder for writing; PostgreSQL checks again) */
        close(fd);
        return attu_error_set(err, "42809", 0, "\"%s\" is a directory", name);
    }
    o->fd = fd;
    return 0;
}

/* The file's pending bytes written out: 0, or the errno of the failure. */
static int write_pending(db_copy_out *o) {
    size_t off = 0;
    while (off < o->pending.n) {
        ssize_t k = write(o->fd, o->pending.p + off, o->pending.n - off);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return k < 0 ? errno : EIO;
        off += (size_t)k;
    }
    attu_strbuf_reset(&o->pending);
    return 0;
}

static int send_pending(db_copy_out *o) {
    int rc = 0;
    if (o->pending.n && o->cb && o->cb->copy_out_data && o->cb->copy_out_data(o->cb->ctx, o->pending.p, o->pending.n))
        rc = -2;
    attu_strbuf_reset(&o->pending);
    return rc;
}

int db_copy_out_put(db_copy_out *o, const void *p, size_t n, attu_error *err) {
    if (attu_strbuf_add(&o->pending, p, n)) return attu_error_oom(err);
    if (o->fd < 0) return send_pending(o);
    if (o->pending.n < FILE_PIECE) return 0;
    int e = write_pending(o);
    if (e) return attu_error_set(err, file_errcode(e), 0, "could not write to COPY file: %s", strerror(e));
    return 0;
}

int db_copy_out_prefix(db_copy_out *o, const void *p, size_t n, attu_error *err) {
    return attu_strbuf_add(&o->pending, p, n) ? attu_error_oom(err) : 0;
}

int db_copy_out_finish(db_copy_out *o, attu_error *err) {
    if (o->fd < 0) {
        int rc = send_pending(o);
        attu_strbuf_free(&o->pending);
        return rc;
    }
    /* (the last piece goes out as the file closes, as stdio's last buffer
     * does in PostgreSQL: a full disk may show only now) */
    int e = write_pending(o);
    if (e) {
        attu_error_set(err, file_errcode(e), 0, "could not close file \"%s\": %s", o->name, strerror(e));
        db_copy_out_abort(o);
        return -1;
    }
    attu_strbuf_free(&o->pending);
    int fd = o->fd;
    o->fd = -1;
    if (close(fd)) {
        e = errno;
        return attu_error_set(err, file_errcode(e), 0, "could not close file \"%s\": %s", o->name, strerror(e));
    }
    return 0;
}

void db_copy_out_abort(db_copy_out *o) {
    attu_strbuf_free(&o->pending);   /* (what was not written yet never is) */
    if (o->fd < 0) return;
    if (ftruncate(o->fd, 0)) { /* a device or a pipe: nothing to cut */ }
    close(o->fd);
    o->fd = -1;
}
