/*
 * storage.c - the data directory (storage.h).
 *
 * Layout:
 *
 *   <data-dir>/attu.lock            exclusive fcntl lock + owner pid
 *   <data-dir>/<table>/CURRENT      "g<N>\n": the committed generation
 *   <data-dir>/<table>/g<N>/schema  text: name, rows, columns, own CRC line
 *   <data-dir>/<table>/g<N>/c<i>.values     slots of column i
 *   <data-dir>/<table>/g<N>/c<i>.validity   bitmap (only if it has NULLs)
 *   <data-dir>/<table>/g<N>/c<i>.dict       dictionary (TEXT only)
 *   <data-dir>/<table>/g<N>/tail            an append generation's new rows
 *
 * <table> is the table name with every byte outside [a-z0-9_] written as
 * %XX, so any quoted identifier is a safe single path component; the name
 * itself is kept in the schema. Each binary file starts with a 32-byte
 * header (magic, kind, payload length, CRC-32C of the payload, CRC of the
 * header), so a torn, truncated or bit-flipped file is caught at start.
 *
 * A save writes generation N+1 next to N (the temporary folder), fsyncs
 * every file and the folder, then commits by writing CURRENT.tmp, fsyncing
 * it and renaming it over CURRENT (rename of a file is atomic), and fsyncs
 * the table folder. Only then are older generations removed (but those an
 * append generation reads). A crash before
 * the rename leaves CURRENT naming N, intact; after it, N+1, complete. A
 * brand-new table is written under a dot-prefixed temporary folder and
 * renamed into place once committed. At start, dot-prefixed leftovers and
 * uncommitted generations are removed.
 *
 * Append generations. A version that only appended rows to the one CURRENT
 * holds (INSERT, COPY: its attu_table.lineage names the stored version's
 * uid, which the schema records, with its row count) is written without
 * column files: its schema's "base <M> <K>" says rows [0, K) are
 * generation M's column files and each "tail <G> <first> <count>" that
 * rows [first, first + count) are generation G's file "tail" (every
 * column's values, validity and, for TEXT, the strings of just those rows:
 * storage_tail.c), in order. The commit writes the new generation folder
 * with its schema and, when rows were added, one tail of them, fsyncs
 * both and renames CURRENT as any save does: the rename is still the
 * commit point, and a tail has the same header and CRC as every file, so a
 * start rejects a damaged one. A chain stays short: past TAILS_MAX tails
 * the next commit writes one tail of every row past the base instead, and
 * once the tails hold more than 1/TAIL_SHARE of the rows the table is
 * written whole (which ends the chain). Clean-up keeps the generations the
 * current one reads. Anything that is not such an append (UPDATE, DELETE,
 * TRUNCATE, ALTER, a new table, a version with no lineage) is written
 * whole, exactly as before.
 *
 * Files are in host byte order (little-endian on every platform attu
 * builds for); the magic's version byte would change if that ever changed.
 */
#define _GNU_SOURCE
#include "engine/storage.h"
#include "engine/storage_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/bpchar.h"
#include "engine/checksum.h"

void (*attu_storage_test_hook)(const char *stage);

/* snprintf that reports truncation instead of hiding it from the
 * compiler's point of view: paths longer than PATH_MAX are cut, and the
 * resulting open/rename fails with a clear message. */
static int fmt(char *buf, size_t cap, const char *f, ...)
    __attribute__((format(printf, 3, 4)));
static int fmt(char *buf, size_t cap, const char *f, ...) {
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(buf, cap, f, ap);
    va_end(ap);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}


static void hook(const char *stage) {
    if (attu_storage_test_hook) attu_storage_test_hook(stage);
}

/* ---- small file-system helpers ------------------------------------------- */

static int io_error(attu_error *err, const char *what, const char *path) {
    return attu_error_set(err, ATTU_SQLSTATE_IO_ERROR, 0, "could not %s \"%s\": %s",
                          what, path, strerror(errno));
}

static int fsync_path(const char *path, attu_error *err) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return io_error(err, "open", path);
    int rc = fsync(fd);
    int e = errno;
    close(fd);
    if (rc != 0) {
        errno = e;
        return io_error(err, "fsync", path);
    }
    return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st; (void)flag; (void)ftw;
    return remove(path) != 0 && errno != ENOENT ? -1 : 0;
}

/* rm -rf path (missing is fine). */
static int remove_tree(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) return errno == ENOENT ? 0 : -1;
    return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int write_all(int fd, const void *buf, size_t n) {
    const char *p = buf;
    while (n) {
        size_t step = n > (1u << 30) ? (1u << 30) : n;
        ssize_t w = write(fd, p, step);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, void *buf, size_t n) {
    char *p = buf;
    while (n) {
        size_t step = n > (1u << 30) ? (1u << 30) : n;
        ssize_t r = read(fd, p, step);
        if (r < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (r == 0) { errno = EIO; return -2; }   /* short file */
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

/* Writes path = parts (concatenated), fsyncs and closes it. */
static int write_file(const char *path, const void *a, size_t na, const void *b,
                      size_t nb, attu_error *err) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return io_error(err, "create file", path);
    if (write_all(fd, a, na) != 0 || (nb && write_all(fd, b, nb) != 0) || fsync(fd) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return io_error(err, "write file", path);
    }
    if (close(fd) != 0) return io_error(err, "close file", path);
    return 0;
}

/* ---- names ------------------------------------------------------------------ */

static void escape_name(const char *name, char *out, size_t cap) {
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)name; *p && n + 4 < cap; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')
            out[n++] = (char)*p;
        else
            n += (size_t)snprintf(out + n, cap - n, "%%%02X", *p);
    }
    out[n] = '\0';
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

static void unescape_name(const char *s, char *out, size_t cap) {
    size_t n = 0;
    while (*s && n + 1 < cap) {
        if (s[0] == '%' && hexval(s[1]) >= 0 && hexval(s[2]) >= 0) {
            out[n++] = (char)(hexval(s[1]) * 16 + hexval(s[2]));
            s += 3;
        } else {
            out[n++] = *s++;
        }
    }
    out[n] = '\0';
}

/* ---- the lock ---------------------------------------------------------------- */

/* Directories this process holds locked. fcntl locks belong to the process
 * and vanish when any descriptor of the file is closed, so each lock file
 * is opened once and kept open. */
typedef struct held_lock {
    char path[PATH_MAX];
    int fd;
    pid_t owner;             /* a forked child inherits the list, not the lock */
    struct held_lock *next;
} held_lock;
static held_lock *held;
static pthread_mutex_t held_mu = PTHREAD_MUTEX_INITIALIZER;

int attu_storage_open(const char *data_dir, attu_error *err) {
    if (mkdir(data_dir, 0755) != 0 && errno != EEXIST)
        return io_error(err, "create data directory", data_dir);
    char real[PATH_MAX];
    if (!realpath(data_dir, real)) return io_error(err, "resolve data directory", data_dir);
    pthread_mutex_lock(&held_mu);
    for (held_lock *h = held; h; h = h->next)
        if (strcmp(h->path, real) == 0 && h->owner == getpid()) {
            pthread_mutex_unlock(&held_mu);
            return 0;
        }
    char path[PATH_MAX + 16];
    fmt(path, sizeof path, "%s/attu.lock", real);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        pthread_mutex_unlock(&held_mu);
        return io_error(err, "open lock file", path);
    }
    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
    if (fcntl(fd, F_SETLK, &fl) != 0) {
        int e = errno;
        char pid[32] = "";
        ssize_t r = pread(fd, pid, sizeof pid - 1, 0);
        if (r > 0) {
            pid[r] = '\0';
            pid[strcspn(pid, "\n")] = '\0';
        }
        close(fd);
        pthread_mutex_unlock(&held_mu);
        if (e == EAGAIN || e == EACCES)
            return attu_error_set(err, ATTU_SQLSTATE_IO_ERROR, 0,
                                  "data directory \"%s\" is in use by another attu process%s%s%s",
                                  data_dir, pid[0] ? " (pid " : "", pid, pid[0] ? ")" : "");
        errno = e;
        return io_error(err, "lock", path);
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
        /* The pid is only informative; the lock is what matters. */
    }
    held_lock *h = calloc(1, sizeof *h);
    if (!h) {
        close(fd);
        pthread_mutex_unlock(&held_mu);
        return attu_error_oom(err);
    }
    snprintf(h->path, sizeof h->path, "%s", real);
    h->fd = fd;
    h->owner = getpid();
    h->next = held;
    held = h;
    pthread_mutex_unlock(&held_mu);
    return 0;
}

void attu_storage_close(const char *data_dir) {
    char real[PATH_MAX];
    if (!realpath(data_dir, real)) return;
    pthread_mutex_lock(&held_mu);
    for (held_lock **p = &held; *p; p = &(*p)->next)
        if (strcmp((*p)->path, real) == 0 && (*p)->owner == getpid()) {
            held_lock *h = *p;
            *p = h->next;
            close(h->fd);
            free(h);
            break;
        }
    pthread_mutex_unlock(&held_mu);
}

/* ---- binary files -------------------------------------------------------------- */

enum { KIND_VALUES = 1, KIND_VALIDITY = 2, KIND_DICT = 3, KIND_TAIL = 4 };
#define FILE_MAGIC "ATTUCOL1"

typedef struct file_header {
    char     magic[8];
    uint32_t kind;
    uint32_t reserved;
    uint64_t payload_len;
    uint32_t payload_crc;
    uint32_t header_crc;   /* over the 28 bytes before it */
} file_header;

_Static_assert(sizeof(file_header) == 32, "file header is 32 bytes");

static int write_blob(const char *path, uint32_t kind, const void *payload,
                      size_t len, attu_error *err) {
    file_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, FILE_MAGIC, 8);
    h.kind = kind;
    h.payload_len = len;
    h.payload_crc = attu_crc32c(0, payload, len);
    h.header_crc = attu_crc32c(0, &h, offsetof(file_header, header_crc));
    return write_file(path, &h, sizeof h, payload, len, err);
}

/* Reads a blob into a malloc'ed buffer (*out, *len). Returns 0, or -1 with
 * *why describing the damage (the caller names the file). */
static int read_blob(const char *path, uint32_t kind, void **out, size_t *len,
                     const char **why) {
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) { *why = errno == ENOENT ? "file is missing" : "cannot open file"; return -1; }
    file_header h;
    struct stat st;
    if (fstat(fd, &st) != 0 || read_all(fd, &h, sizeof h) != 0) {
        close(fd);
        *why = "file is truncated";
        return -1;
    }
    if (memcmp(h.magic, FILE_MAGIC, 8) != 0 ||
        h.header_crc != attu_crc32c(0, &h, offsetof(file_header, header_crc))) {
        close(fd);
        *why = "header checksum mismatch";
        return -1;
    }
    if (h.kind != kind || h.payload_len != (uint64_t)st.st_size - sizeof h) {
        close(fd);
        *why = h.kind != kind ? "wrong file kind" : "file length does not match its header";
        return -1;
    }
    void *buf = malloc(h.payload_len ? h.payload_len : 1);
    if (!buf) { close(fd); *why = "out of memory"; return -1; }
    if (read_all(fd, buf, h.payload_len) != 0) {
        free(buf);
        close(fd);
        *why = "file is truncated";
        return -1;
    }
    close(fd);
    if (attu_crc32c(0, buf, h.payload_len) != h.payload_crc) {
        free(buf);
        *why = "checksum mismatch";
        return -1;
    }
    *out = buf;
    *len = h.payload_len;
    return 0;
}

/* ---- schema ------------------------------------------------------------------ */

/* An append chain (see the head comment): at most TAILS_MAX tails, and
 * their rows at most 1/TAIL_SHARE of the table's, before a commit writes
 * the table whole again. */
#define TAILS_MAX 16
#define TAIL_SHARE 8

typedef struct schema_col { attu_column_def def; int has_validity, has_dict; } schema_col;

typedef struct tail_ref { unsigned long gen; size_t first, count; } tail_ref;

/* Where a generation's rows are: rows [0, base_rows) in the column files
 * of generation base_gen (0: its own folder, base_rows then the table's
 * rows), then each tail's rows in the file "tail" of its generation. */
typedef struct gen_layout {
    unsigned long base_gen;
    size_t base_rows;
    int ntails;
    tail_ref tails[TAILS_MAX];
} gen_layout;

typedef struct schema {
    char name[ATTU_NAME_MAX + 1];
    size_t rows;
    uint64_t version;
    uint64_t uid;       /* the version saved (attu_table.uid); 0: unknown */
    gen_layout layout;
    int ncols;
    schema_col *cols;   /* (an append generation's flags are its base's files') */
    char **defaults;    /* ncols entries once a default line is read */
    attu_unique *uniques;
    int nuniques;
    attu_check *checks;
    int nchecks;
    attu_fkey *fkeys;
    int nfkeys;
} schema;

static void escape_text(const char *s, char *out, size_t cap) {
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && n + 4 < cap; p++) {
        if (*p <= ' ' || *p == '%' || *p == 0x7f)
            n += (size_t)snprintf(out + n, cap - n, "%%%02X", *p);
        else
            out[n++] = (char)*p;
    }
    out[n] = '\0';
}

/* The schema file: "attu-table 1", name, rows, version, columns, one
 * "column" line per column, then (since column DEFAULTs) one "default <i>
 * <sql>" line per column that has a DEFAULT, its SQL text escaped like
 * names; "crc32c" over all of it last. Files written before DEFAULTs
 * existed simply have no default lines. */
static char *schema_text(const attu_table *t, const gen_layout *lay, const schema_col *base_cols,
                         const char *const *defaults, const attu_unique *uniques,
                         int nuniques, const attu_check *checks, int nchecks, const attu_fkey *fkeys, int nfkeys,
                         size_t *len) {
    size_t cap = 256 + (size_t)t->ncols * 300 + (lay ? (size_t)(lay->ntails + 1) * 80 : 0) + (size_t)nuniques * (ATTU_NAME_MAX * 3 + 32 + ATTU_INDEX_MAX_KEYS * 12);
    for (int i = 0; defaults && i < t->ncols; i++)
        if (defaults[i]) cap += 32 + 3 * strlen(defaults[i]);
    for (int k = 0; k < nchecks; k++) cap += ATTU_NAME_MAX * 3 + 16 + 3 * strlen(checks[k].expr);
    cap += (size_t)nfkeys * (ATTU_NAME_MAX * 6 + 64 + ATTU_INDEX_MAX_KEYS * 24);
    cap += (size_t)nuniques * (ATTU_NAME_MAX * 3 + 24);   /* (their uniquedefer lines) */
    cap += (size_t)(nchecks + nfkeys) * (ATTU_NAME_MAX * 3 + 16);   /* (the notvalid lines) */
    cap += (size_t)nfkeys * (ATTU_NAME_MAX * 3 + 16);   /* (the fkeydefer lines) */
    cap += (size_t)nfkeys * (ATTU_NAME_MAX * 3 + 32 + ATTU_INDEX_MAX_KEYS * 12);   /* (the fkeyset lines) */
    char *buf = malloc(cap);
    if (!buf) return NULL;
    char name[ATTU_NAME_MAX * 3 + 4];
    escape_text(t->name, name, sizeof name);
    size_t n = (size_t)snprintf(buf, cap, "attu-table 1\nname %s\nrows %zu\nversion %" PRIu64
                                "\ncolumns %d\n", name, t->nrows, t->version, t->ncols);
    /* "uid <hex>": the version saved (attu_table.uid), which the next
     * commit's version names in its lineage when it only appended; files
     * written before append commits have none */
    if (t->uid) n += (size_t)snprintf(buf + n, cap - n, "uid %016" PRIx64 "\n", t->uid);
    /* "base <gen> <rows>" and "tail <gen> <first> <count>" lines: an
     * append generation's segments (gen_layout); none: its own files */
    if (lay && lay->base_gen) {
        n += (size_t)snprintf(buf + n, cap - n, "base %lu %zu\n", lay->base_gen, lay->base_rows);
        for (int k = 0; k < lay->ntails; k++)
            n += (size_t)snprintf(buf + n, cap - n, "tail %lu %zu %zu\n", lay->tails[k].gen, lay->tails[k].first,
                                  lay->tails[k].count);
    }
    for (int i = 0; i < t->ncols; i++) {
        const attu_column_def *d = &t->defs[i];
        escape_text(d->name, name, sizeof name);
        /* (the validity and dictionary flags say which files the base
         * holds: an append generation's are its base's) */
        n += (size_t)snprintf(buf + n, cap - n, "column %s %d %d %d %d %d %d", name,
                              (int)d->type.id, d->type.precision, d->type.scale,
                              d->not_null ? 1 : 0,
                              base_cols ? base_cols[i].has_validity : t->cols[i]->validity ? 1 : 0,
                              base_cols ? base_cols[i].has_dict : t->cols[i]->dict ? 1 : 0);
        /* an eighth field for a generated column ('s': its DEFAULT line
         * is its expression); files written before have seven */
        if (d->generated) n += (size_t)snprintf(buf + n, cap - n, " %d", (int)d->generated);
        n += (size_t)snprintf(buf + n, cap - n, "\n");
    }
    for (int i = 0; defaults && i < t->ncols; i++) {
        if (!defaults[i]) continue;
        size_t ecap = 3 * strlen(defaults[i]) + 8;
        char *e = malloc(ecap);
        if (!e) { free(buf); return NULL; }
        escape_text(defaults[i], e, ecap);
        n += (size_t)snprintf(buf + n, cap - n, "default %d %s\n", i, e);
        free(e);
    }
    /* "unique <name> <primary> <ncols> <col>...": one per PRIMARY KEY /
     * UNIQUE constraint (unique.h); files written before them have none
     * (a unique index's key is the indexes file's: storage_indexes.c) */
    for (int k = 0; k < nuniques; k++) {
        if (uniques[k].index) continue;
        escape_text(uniques[k].name, name, sizeof name);
        n += (size_t)snprintf(buf + n, cap - n, "unique %s %d %d", name, uniques[k].primary ? 1 : 0, uniques[k].ncols);
        for (int j = 0; j < uniques[k].ncols; j++) n += (size_t)snprintf(buf + n, cap - n, " %d", uniques[k].cols[j]);
        n += (size_t)snprintf(buf + n, cap - n, "\n");
    }
    /* "check <name> <sql>": one per CHECK constraint (check.h), its text
     * escaped as a DEFAULT's; files written before them have none */
    for (int k = 0; k < nchecks; k++) {
        size_t ecap = 3 * strlen(checks[k].expr) + 8;
        char *e = malloc(ecap);
        if (!e) { free(buf); return NULL; }
        escape_text(checks[k].name, name, sizeof name);
        escape_text(checks[k].expr, e, ecap);
        n += (size_t)snprintf(buf + n, cap - n, "check %s %s\n", name, e);
        free(e);
    }
    /* "fkey <name> <ref table> <upd> <del> <match> <made> <ncols> <col>...
     * <ref col>...": one per FOREIGN KEY (fkey.h); files written before
     * them have none */
    for (int k = 0; k < nfkeys; k++) {
        char ref[ATTU_NAME_MAX * 3 + 4];
        escape_text(fkeys[k].name, name, sizeof name);
        escape_text(fkeys[k].ref_table, ref, sizeof ref);
        n += (size_t)snprintf(buf + n, cap - n, "fkey %s %s %c %c %c %" PRIu64 " %d", name, ref, fkeys[k].on_update,
                              fkeys[k].on_delete, fkeys[k].match, fkeys[k].made, fkeys[k].ncols);
        for (int j = 0; j < fkeys[k].ncols; j++) n += (size_t)snprintf(buf + n, cap - n, " %d", fkeys[k].cols[j]);
        for (int j = 0; j < fkeys[k].ncols; j++) n += (size_t)snprintf(buf + n, cap - n, " %d", fkeys[k].ref_cols[j]);
        n += (size_t)snprintf(buf + n, cap - n, "\n");
    }
    /* "fkeyset <name> <n> <key position>...": a FOREIGN KEY above whose
     * ON DELETE SET NULL / SET DEFAULT lists its columns; files written
     * before them have none */
    for (int k = 0; k < nfkeys; k++)
        if (fkeys[k].ndelete_set) {
            escape_text(fkeys[k].name, name, sizeof name);
            n += (size_t)snprintf(buf + n, cap - n, "fkeyset %s %d", name, fkeys[k].ndelete_set);
            for (int j = 0; j < fkeys[k].ndelete_set; j++)
                n += (size_t)snprintf(buf + n, cap - n, " %d", fkeys[k].delete_set[j]);
            n += (size_t)snprintf(buf + n, cap - n, "\n");
        }
    /* "notvalid <name>": a CHECK or FOREIGN KEY above added NOT VALID
     * and not validated since (names are unique among a table's
     * constraints); files written before them have none */
    for (int k = 0; k < nchecks; k++)
        if (checks[k].not_valid) {
            escape_text(checks[k].name, name, sizeof name);
            n += (size_t)snprintf(buf + n, cap - n, "notvalid %s\n", name);
        }
    for (int k = 0; k < nfkeys; k++)
        if (fkeys[k].not_valid) {
            escape_text(fkeys[k].name, name, sizeof name);
            n += (size_t)snprintf(buf + n, cap - n, "notvalid %s\n", name);
        }
    /* "fkeydefer <name> <initially deferred 0|1>": a FOREIGN KEY above
     * that is DEFERRABLE; files written before them have none */
    for (int k = 0; k < nfkeys; k++)
        if (fkeys[k].deferrable) {
            escape_text(fkeys[k].name, name, sizeof name);
            n += (size_t)snprintf(buf + n, cap - n, "fkeydefer %s %d\n", name, fkeys[k].initially_deferred ? 1 : 0);
        }
    /* "uniquedefer <name> <initially deferred 0|1>": a PRIMARY KEY /
     * UNIQUE above that is DEFERRABLE; files written before them have
     * none */
    for (int k = 0; k < nuniques; k++)
        if (!uniques[k].index && uniques[k].deferrable) {
            escape_text(uniques[k].name, name, sizeof name);
            n += (size_t)snprintf(buf + n, cap - n, "uniquedefer %s %d\n", name, uniques[k].initially_deferred ? 1 : 0);
        }
    uint32_t crc = attu_crc32c(0, buf, n);
    n += (size_t)snprintf(buf + n, cap - n, "crc32c %08x\n", crc);
    *len = n;
    return buf;
}


static void schema_free(schema *s) {
    for (int i = 0; s->defaults && i < s->ncols; i++) free(s->defaults[i]);
    free(s->defaults);
    free(s->cols);
    free(s->uniques);
    s->uniques = NULL;
    for (int k = 0; k < s->nchecks; k++) free(s->checks[k].expr);
    free(s->checks);
    s->checks = NULL;
    s->nchecks = 0;
    free(s->fkeys);
    s->fkeys = NULL;
    s->nfkeys = 0;
    s->defaults = NULL;
    s->cols = NULL;
}

static int parse_schema(char *text, size_t len, schema *s, const char **why) {
    memset(s, 0, sizeof *s);
    /* The last line is "crc32c xxxxxxxx" over everything before it. */
    if (len < 17 || text[len - 1] != '\n') { *why = "file is truncated"; return -1; }
    size_t crc_at = len - 1;
    while (crc_at > 0 && text[crc_at - 1] != '\n') crc_at--;
    unsigned crc;
    if (sscanf(text + crc_at, "crc32c %8x", &crc) != 1 ||
        crc != attu_crc32c(0, text, crc_at)) {
        *why = "checksum mismatch";
        return -1;
    }
    text[crc_at] = '\0';
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    int col = 0;
    char buf[256];
    *why = "malformed schema";
    if (!line || strcmp(line, "attu-table 1") != 0) return -1;
    while ((line = strtok_r(NULL, "\n", &save))) {
        if (sscanf(line, "name %255s", buf) == 1) unescape_name(buf, s->name, sizeof s->name);
        else if (sscanf(line, "rows %zu", &s->rows) == 1) continue;
        else if (sscanf(line, "version %" SCNu64, &s->version) == 1) continue;
        else if (strncmp(line, "uid ", 4) == 0) {
            if (sscanf(line, "uid %" SCNx64, &s->uid) != 1) return -1;
        } else if (strncmp(line, "base ", 5) == 0) {
            if (sscanf(line, "base %lu %zu", &s->layout.base_gen, &s->layout.base_rows) != 2 ||
                s->layout.base_gen == 0)
                return -1;
        } else if (strncmp(line, "tail ", 5) == 0) {
            if (s->layout.ntails >= TAILS_MAX) return -1;
            tail_ref *tr = &s->layout.tails[s->layout.ntails++];
            if (sscanf(line, "tail %lu %zu %zu", &tr->gen, &tr->first, &tr->count) != 3 || tr->gen == 0) return -1;
        }
        else if (sscanf(line, "columns %d", &s->ncols) == 1) {
            if (s->ncols < 0 || s->ncols > 100000 || s->cols) return -1;
            s->cols = calloc((size_t)s->ncols + 1, sizeof *s->cols);
            if (!s->cols) return -1;
        } else if (strncmp(line, "column ", 7) == 0) {
            int id, p, sc, nn, v, d, gen = 0;
            if (!s->cols || col >= s->ncols ||
                sscanf(line, "column %255s %d %d %d %d %d %d %d", buf, &id, &p, &sc, &nn, &v, &d, &gen) < 7 ||
                id <= ATTU_TYPE_UNKNOWN || id >= ATTU_TYPE_COUNT_)
                return -1;
            schema_col *c = &s->cols[col++];
            unescape_name(buf, c->def.name, sizeof c->def.name);
            c->def.type.id = (attu_type_id)id;
            c->def.type.precision = (int16_t)p;
            c->def.type.scale = (int16_t)sc;
            c->def.not_null = nn != 0;
            c->def.generated = gen == 's' ? 's' : 0;
            c->has_validity = v;
            c->has_dict = d;
        } else if (strncmp(line, "default ", 8) == 0) {
            int i, off = 0;
            if (!s->cols || sscanf(line, "default %d %n", &i, &off) != 1 || off == 0 ||
                i < 0 || i >= s->ncols)
                return -1;
            if (!s->defaults && !(s->defaults = calloc((size_t)s->ncols, sizeof *s->defaults)))
                return -1;
            size_t elen = strlen(line + off);
            char *d = malloc(elen + 1);
            if (!d) return -1;
            unescape_name(line + off, d, elen + 1);
            free(s->defaults[i]);
            s->defaults[i] = d;
        } else if (strncmp(line, "unique ", 7) == 0) {
            int pk, nk, off = 0;
            if (!s->cols || sscanf(line, "unique %255s %d %d%n", buf, &pk, &nk, &off) != 3 ||
                nk < 1 || nk > ATTU_INDEX_MAX_KEYS)
                return -1;
            attu_unique *u = realloc(s->uniques, sizeof *u * (size_t)(s->nuniques + 1));
            if (!u) return -1;
            s->uniques = u;
            u = &s->uniques[s->nuniques++];
            memset(u, 0, sizeof *u);
            unescape_name(buf, u->name, sizeof u->name);
            u->primary = pk != 0;
            u->ncols = nk;
            const char *p = line + off;
            for (int j = 0; j < nk; j++) {
                int used = 0;
                if (sscanf(p, " %d%n", &u->cols[j], &used) != 1 || u->cols[j] < 0 || u->cols[j] >= s->ncols)
                    return -1;
                p += used;
            }
        } else if (strncmp(line, "check ", 6) == 0) {
            int off = 0;
            if (!s->cols || sscanf(line, "check %255s %n", buf, &off) != 1 || off == 0) return -1;
            attu_check *c = realloc(s->checks, sizeof *c * (size_t)(s->nchecks + 1));
            if (!c) return -1;
            s->checks = c;
            size_t elen = strlen(line + off);
            char *e = malloc(elen + 1);
            if (!e) return -1;
            unescape_name(line + off, e, elen + 1);
            c = &s->checks[s->nchecks++];
            memset(c, 0, sizeof *c);
            unescape_name(buf, c->name, sizeof c->name);
            c->expr = e;
        } else if (strncmp(line, "fkey ", 5) == 0) {
            char ref[256], upd, del, match;
            uint64_t made;
            int nk, off = 0;
            if (!s->cols ||
                sscanf(line, "fkey %255s %255s %c %c %c %" SCNu64 " %d%n", buf, ref, &upd, &del, &match, &made, &nk, &off) != 7 ||
                nk < 1 || nk > ATTU_INDEX_MAX_KEYS)
                return -1;
            attu_fkey *f = realloc(s->fkeys, sizeof *f * (size_t)(s->nfkeys + 1));
            if (!f) return -1;
            s->fkeys = f;
            f = &s->fkeys[s->nfkeys++];
            memset(f, 0, sizeof *f);
            unescape_name(buf, f->name, sizeof f->name);
            unescape_name(ref, f->ref_table, sizeof f->ref_table);
            f->on_update = upd;
            f->on_delete = del;
            f->match = match;
            f->made = made;
            f->ncols = nk;
            const char *p = line + off;
            for (int j = 0; j < 2 * nk; j++) {
                int used = 0, v;
                if (sscanf(p, " %d%n", &v, &used) != 1 || v < 0 || (j < nk && v >= s->ncols)) return -1;
                if (j < nk) f->cols[j] = v;
                else f->ref_cols[j - nk] = v;
                p += used;
            }
        } else if (strncmp(line, "fkeyset ", 8) == 0) {
            char nm[ATTU_NAME_MAX + 1];
            int nk, off = 0;
            if (sscanf(line, "fkeyset %255s %d%n", buf, &nk, &off) != 2) return -1;
            unescape_name(buf, nm, sizeof nm);
            attu_fkey *f = NULL;
            for (int k = 0; k < s->nfkeys && !f; k++) if (!strcmp(s->fkeys[k].name, nm)) f = &s->fkeys[k];
            if (!f || nk < 1 || nk > f->ncols) return -1;
            const char *p = line + off;
            for (int j = 0; j < nk; j++) {
                int used = 0, v;
                if (sscanf(p, " %d%n", &v, &used) != 1 || v < 0 || v >= f->ncols) return -1;
                f->delete_set[j] = v;
                p += used;
            }
            f->ndelete_set = nk;
        } else if (strncmp(line, "fkeydefer ", 10) == 0) {
            char nm[ATTU_NAME_MAX + 1];
            int deferred;
            if (sscanf(line, "fkeydefer %255s %d", buf, &deferred) != 2) return -1;
            unescape_name(buf, nm, sizeof nm);
            attu_fkey *f = NULL;
            for (int k = 0; k < s->nfkeys && !f; k++) if (!strcmp(s->fkeys[k].name, nm)) f = &s->fkeys[k];
            if (!f) return -1;
            f->deferrable = true;
            f->initially_deferred = deferred != 0;
        } else if (strncmp(line, "uniquedefer ", 12) == 0) {
            char nm[ATTU_NAME_MAX + 1];
            int deferred;
            if (sscanf(line, "uniquedefer %255s %d", buf, &deferred) != 2) return -1;
            unescape_name(buf, nm, sizeof nm);
            attu_unique *u = NULL;
            for (int k = 0; k < s->nuniques && !u; k++) if (!strcmp(s->uniques[k].name, nm)) u = &s->uniques[k];
            if (!u) return -1;
            u->deferrable = true;
            u->initially_deferred = deferred != 0;
        } else if (strncmp(line, "notvalid ", 9) == 0) {
            char nm[ATTU_NAME_MAX + 1];
            if (sscanf(line, "notvalid %255s", buf) != 1) return -1;
            unescape_name(buf, nm, sizeof nm);
            bool found = false;
            for (int k = 0; k < s->nchecks && !found; k++)
                if (!strcmp(s->checks[k].name, nm)) found = s->checks[k].not_valid = true;
            for (int k = 0; k < s->nfkeys && !found; k++)
                if (!strcmp(s->fkeys[k].name, nm)) found = s->fkeys[k].not_valid = true;
            if (!found) return -1;
        } else {
            return -1;
        }
    }
    if (!s->cols || col != s->ncols || !s->name[0]) return -1;
    /* the segments must tile the rows: base, then each tail where the one
     * before ended */
    if (s->layout.base_gen) {
        size_t at = s->layout.base_rows;
        for (int k = 0; k < s->layout.ntails; k++) {
            if (s->layout.tails[k].first != at || s->layout.tails[k].count > SIZE_MAX - at) return -1;
            at += s->layout.tails[k].count;
        }
        if (at != s->rows) return -1;
    } else if (s->layout.ntails) {
        return -1;
    }
    return 0;
}

/* Reads and parses the schema file at path: 0, or -1 with *why (s is
 * then freed; schema_free is the caller's after 0). */
static int read_schema(const char *path, schema *s, const char **why) {
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "re");
    if (!f) { *why = "file is missing"; return -1; }
    char *text = NULL;
    size_t len = 0;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = malloc(sz > 0 ? (size_t)sz + 1 : 1);
    if (text && sz > 0 && fread(text, 1, (size_t)sz, f) == (size_t)sz) len = (size_t)sz;
    if (text) text[len] = '\0';   /* (parse_schema's sscanf reads up to a NUL) */
    fclose(f);
    int rc = -1;
    if (!text) *why = "out of memory";
    else if (parse_schema(text, len, s, why) == 0) rc = 0;
    else if (!*why) *why = "unreadable";
    free(text);
    if (rc) schema_free(s);
    return rc;
}

/* ---- save ------------------------------------------------------------------- */

/* Generation named by <table-dir>/CURRENT, or 0 when none is committed. */
static unsigned long read_current(const char *tdir) {
    char path[PATH_MAX];
    fmt(path, sizeof path, "%s/CURRENT", tdir);
    FILE *f = fopen(path, "re");
    if (!f) return 0;
    unsigned long g = 0;
    if (fscanf(f, "g%lu", &g) != 1) g = 0;
    fclose(f);
    return g;
}

static int write_generation(const char *gdir, const attu_table *t, const char *const *defaults,
                            const attu_unique *uniques, int nuniques, const attu_check *checks, int nchecks,
                            const attu_fkey *fkeys, int nfkeys, attu_error *err) {
    char path[PATH_MAX];
    if (mkdir(gdir, 0755) != 0) return io_error(err, "create directory", gdir);
    size_t slen;
    char *stext = schema_text(t, NULL, NULL, defaults, uniques, nuniques, checks, nchecks, fkeys, nfkeys, &slen);
    if (!stext) return attu_error_oom(err);
    fmt(path, sizeof path, "%s/schema", gdir);
    int rc = write_file(path, stext, slen, NULL, 0, err);
    free(stext);
    if (rc) return -1;
    for (int i = 0; i < t->ncols; i++) {
        const attu_column *c = t->cols[i];
        fmt(path, sizeof path, "%s/c%d.values", gdir, i);
        if (write_blob(path, KIND_VALUES, c->data, t->nrows * attu_type_width(c->type.id), err))
            return -1;
        if (c->validity) {
            fmt(path, sizeof path, "%s/c%d.validity", gdir, i);
            if (write_blob(path, KIND_VALIDITY, c->validity,
                           (t->nrows + 63) / 64 * sizeof(uint64_t), err))
                return -1;
        }
        if (c->dict) {
            /* count, offsets[count+1], bytes. */
            const attu_dictionary *d = c->dict;
            size_t nbytes = (size_t)d->offsets[d->count];
            size_t len = 8 + ((size_t)d->count + 1) * 8 + nbytes;
            char *buf = malloc(len);
            if (!buf) return attu_error_oom(err);
            uint64_t cnt = (uint64_t)d->count;
            memcpy(buf, &cnt, 8);
            memcpy(buf + 8, d->offsets, ((size_t)d->count + 1) * 8);
            memcpy(buf + 8 + ((size_t)d->count + 1) * 8, d->bytes, nbytes);
            fmt(path, sizeof path, "%s/c%d.dict", gdir, i);
            rc = write_blob(path, KIND_DICT, buf, len, err);
            free(buf);
            if (rc) return -1;
        }
    }
    return fsync_path(gdir, err);
}

/* Writes t as an append generation gen (folder gdir) on top of the
 * current generation cur_gen, whose schema is cur: a schema naming cur's
 * segments plus, when t has rows past cur's, a tail of them (or, past
 * TAILS_MAX tails, one tail of every row past the base in place of cur's
 * tails). Returns 0, -1 with err, or 1 when an append does not fit (t is
 * no append of cur's version, or the chain would grow past its bounds):
 * the caller writes t whole then. */
static int write_append_generation(const char *gdir, unsigned long gen, const attu_table *t, const schema *cur,
                                   unsigned long cur_gen, const char *const *defaults, const attu_unique *uniques,
                                   int nuniques, const attu_check *checks, int nchecks, const attu_fkey *fkeys,
                                   int nfkeys, attu_error *err) {
    /* t descends from the version cur holds by appending (or is it) */
    bool descends = t->uid && cur->uid && t->uid == cur->uid && t->nrows == cur->rows;
    for (int k = 0; !descends && cur->uid && k < t->nlineage; k++)
        descends = t->lineage[k].uid == cur->uid && t->lineage[k].rows == cur->rows;
    if (!descends || t->nrows < cur->rows || t->ncols != cur->ncols) return 1;
    for (int i = 0; i < t->ncols; i++) {
        attu_type a = t->defs[i].type, b = cur->cols[i].def.type;
        if (a.id != b.id || a.precision != b.precision || a.scale != b.scale) return 1;
        if (t->cols[i]->dict && attu_type_width(a.id) != sizeof(int32_t)) return 1;
    }
    gen_layout lay = cur->layout;
    if (!lay.base_gen) {   /* cur is written whole: it is the base */
        lay.base_gen = cur_gen;
        lay.base_rows = cur->rows;
        lay.ntails = 0;
    }
    size_t first = cur->rows;
    if (t->nrows > first) {
        if (lay.ntails == TAILS_MAX) {   /* one tail of every row past the base */
            first = lay.base_rows;
            lay.ntails = 0;
        }
        lay.tails[lay.ntails++] = (tail_ref){ gen, first, t->nrows - first };
    }
    if (t->nrows - lay.base_rows > t->nrows / TAIL_SHARE) return 1;   /* time to compact */

    char path[PATH_MAX];
    if (mkdir(gdir, 0755) != 0) return io_error(err, "create directory", gdir);
    if (t->nrows > first) {
        attu_strbuf b = { 0 };
        int rc = storage_tail_payload(t, first, &b, err);
        fmt(path, sizeof path, "%s/tail", gdir);
        if (!rc) rc = write_blob(path, KIND_TAIL, b.p ? b.p : "", b.n, err);
        attu_strbuf_free(&b);
        if (rc) return -1;
    }
    size_t slen;
    char *stext = schema_text(t, &lay, cur->cols, defaults, uniques, nuniques, checks, nchecks, fkeys, nfkeys, &slen);
    if (!stext) return attu_error_oom(err);
    fmt(path, sizeof path, "%s/schema", gdir);
    int rc = write_file(path, stext, slen, NULL, 0, err);
    free(stext);
    if (rc) return -1;
    return fsync_path(gdir, err);
}

/* Writes t as generation gen of tdir, current generation cur: an append
 * generation when it fits (write_append_generation), else whole. */
static int write_next_generation(const char *tdir, unsigned long cur, unsigned long gen, const attu_table *t,
                                 const char *const *defaults, const attu_unique *uniques, int nuniques,
                                 const attu_check *checks, int nchecks, const attu_fkey *fkeys, int nfkeys,
                                 attu_error *err) {
    char gdir[PATH_MAX], path[PATH_MAX + 16];
    fmt(gdir, sizeof gdir, "%s/g%lu", tdir, gen);
    fmt(path, sizeof path, "%s/g%lu/schema", tdir, cur);
    schema cs;
    const char *why = NULL;
    if (t->uid && read_schema(path, &cs, &why) == 0) {
        int rc = write_append_generation(gdir, gen, t, &cs, cur, defaults, uniques, nuniques, checks, nchecks,
                                         fkeys, nfkeys, err);
        schema_free(&cs);
        if (rc <= 0) return rc;
    }
    return write_generation(gdir, t, defaults, uniques, nuniques, checks, nchecks, fkeys, nfkeys, err);
}

/* Removes every entry of tdir except keep (and CURRENT) and the
 * generations keep reads rows from (an append chain's base and tails).
 * When keep's schema cannot be read, every generation stays (the table
 * is unavailable then; its files are left for whoever looks at them). */
static void remove_other_generations(const char *tdir, const char *keep) {
    unsigned long refs[TAILS_MAX + 1];
    int nrefs = 0;
    char path[PATH_MAX];
    fmt(path, sizeof path, "%s/%s/schema", tdir, keep);
    schema s;
    const char *why = NULL;
    bool known = read_schema(path, &s, &why) == 0;
    if (known) {
        if (s.layout.base_gen) refs[nrefs++] = s.layout.base_gen;
        for (int k = 0; k < s.layout.ntails; k++) refs[nrefs++] = s.layout.tails[k].gen;
        schema_free(&s);
    }
    DIR *dir = opendir(tdir);
    if (!dir) return;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
            !strcmp(e->d_name, "CURRENT") || !strcmp(e->d_name, keep))
            continue;
        unsigned long g = 0;
        char extra;
        if (sscanf(e->d_name, "g%lu%c", &g, &extra) == 1) {
            bool referenced = !known;
            for (int k = 0; k < nrefs && !referenced; k++) referenced = refs[k] == g;
            if (referenced) continue;
        }
        fmt(path, sizeof path, "%s/%s", tdir, e->d_name);
        remove_tree(path);
    }
    closedir(dir);
}

static int commit_current(const char *tdir, unsigned long gen, attu_error *err) {
    char tmp[PATH_MAX], cur[PATH_MAX], text[32];
    fmt(tmp, sizeof tmp, "%s/CURRENT.tmp", tdir);
    fmt(cur, sizeof cur, "%s/CURRENT", tdir);
    int n = snprintf(text, sizeof text, "g%lu\n", gen);
    if (write_file(tmp, text, (size_t)n, NULL, 0, err)) return -1;
    if (rename(tmp, cur) != 0) return io_error(err, "rename", tmp);
    return fsync_path(tdir, err);
}

static unsigned long save_counter;

int attu_storage_save_table(const char *data_dir, const attu_table *t,
                            attu_error *err) {
    return attu_storage_save_table_defaults(data_dir, t, NULL, err);
}

int attu_storage_save_table_defaults(const char *data_dir, const attu_table *t,
                                     const char *const *defaults, attu_error *err) {
    return attu_storage_save_table_schema(data_dir, t, defaults, NULL, 0, err);
}

int attu_storage_save_table_schema(const char *data_dir, const attu_table *t, const char *const *defaults,
                                   const attu_unique *uniques, int nuniques, attu_error *err) {
    return attu_storage_save_table_constraints(data_dir, t, defaults, uniques, nuniques, NULL, 0, NULL, 0, err);
}

int attu_storage_save_table_constraints(const char *data_dir, const attu_table *t, const char *const *defaults,
                                        const attu_unique *uniques, int nuniques, const attu_check *checks,
                                        int nchecks, const attu_fkey *fkeys, int nfkeys, attu_error *err) {
    if (t->unavailable)
        return attu_error_set(err, ATTU_SQLSTATE_DATA_CORRUPTED, 0, "%s",
                              t->unavailable_reason);
    char ename[ATTU_NAME_MAX * 3 + 4], tdir[PATH_MAX], gdir[PATH_MAX + 32];
    escape_name(t->name, ename, sizeof ename);
    fmt(tdir, sizeof tdir, "%s/%s", data_dir, ename);
    struct stat st;
    if (stat(tdir, &st) == 0 && read_current(tdir) > 0) {
        unsigned long cur = read_current(tdir), gen = cur + 1;
        char gname[32];
        fmt(gname, sizeof gname, "g%lu", gen);
        fmt(gdir, sizeof gdir, "%s/%s", tdir, gname);
        remove_tree(gdir);   /* leftover of an interrupted save */
        if (write_next_generation(tdir, cur, gen, t, defaults, uniques, nuniques, checks, nchecks, fkeys, nfkeys, err) ||
            fsync_path(tdir, err)) {
            remove_tree(gdir);
            return -1;
        }
        hook("files-written");
        if (commit_current(tdir, gen, err)) {
            remove_tree(gdir);
            return -1;
        }
        hook("committed");
        remove_other_generations(tdir, gname);
        return 0;
    }
    /* A new table: build it complete under a temporary name, then rename
     * it into place (a directory rename onto a missing name is atomic). */
    remove_tree(tdir);   /* an uncommitted leftover, if any */
    char tmp[PATH_MAX];
    fmt(tmp, sizeof tmp, "%s/.tmp-%s-%ld-%lu", data_dir, ename, (long)getpid(),
             __atomic_add_fetch(&save_counter, 1, __ATOMIC_RELAXED));
    remove_tree(tmp);
    if (mkdir(tmp, 0755) != 0) return io_error(err, "create directory", tmp);
    fmt(gdir, sizeof gdir, "%s/g1", tmp);
    if (write_generation(gdir, t, defaults, uniques, nuniques, checks, nchecks, fkeys, nfkeys, err) || commit_current(tmp, 1, err)) {
        remove_tree(tmp);
        return -1;
    }
    hook("files-written");
    if (rename(tmp, tdir) != 0) {
        io_error(err, "rename", tmp);
        remove_tree(tmp);
        return -1;
    }
    if (fsync_path(data_dir, err)) return -1;
    hook("committed");
    return 0;
}

int attu_storage_drop_table(const char *data_dir, const char *name,
                            attu_error *err) {
    char ename[ATTU_NAME_MAX * 3 + 4], tdir[PATH_MAX], trash[PATH_MAX];
    escape_name(name, ename, sizeof ename);
    fmt(tdir, sizeof tdir, "%s/%s", data_dir, ename);
    struct stat st;
    if (lstat(tdir, &st) != 0) return 0;   /* nothing stored: nothing to drop */
    fmt(trash, sizeof trash, "%s/.drop-%s-%ld-%lu", data_dir, ename, (long)getpid(),
             __atomic_add_fetch(&save_counter, 1, __ATOMIC_RELAXED));
    if (rename(tdir, trash) != 0) return io_error(err, "rename", tdir);
    if (fsync_path(data_dir, err)) return -1;
    remove_tree(trash);
    return 0;
}

/* ---- load ------------------------------------------------------------------ */

static attu_table *unavailable_table(const char *name, const schema *s,
                                     const char *file, const char *why) {
    attu_table *t = NULL;
    if (s && s->cols) {
        attu_column_def *defs = calloc((size_t)s->ncols + 1, sizeof *defs);
        if (defs) {
            for (int i = 0; i < s->ncols; i++) defs[i] = s->cols[i].def;
            t = attu_table_new(name, s->ncols, defs, NULL);
            free(defs);
        }
    }
    if (!t) t = attu_table_new(name, 0, NULL, NULL);
    if (!t) return NULL;
    t->unavailable = true;
    fmt(t->unavailable_reason, sizeof t->unavailable_reason,
             "table \"%s\" is unavailable: file \"%s\" is corrupt (%s)", name, file, why);
    return t;
}

/* Loads one committed generation; on damage returns an unavailable table. */
static attu_table *load_table(const char *tdir, const char *dirname_, unsigned long gen,
                              char ***defaults_out, attu_unique **uniques_out, int *nuniques_out,
                              attu_check **checks_out, int *nchecks_out, attu_fkey **fkeys_out, int *nfkeys_out,
                              attu_error *err) {
    char gdir[PATH_MAX], path[PATH_MAX + 32], name[ATTU_NAME_MAX + 1];
    unescape_name(dirname_, name, sizeof name);
    fmt(gdir, sizeof gdir, "%s/g%lu", tdir, gen);
    fmt(path, sizeof path, "%s/schema", gdir);
    const char *why = NULL;
    schema s;
    if (read_schema(path, &s, &why)) return unavailable_table(name, NULL, path, why);
    why = NULL;   /* (parse_schema leaves its default reason behind) */
    /* the base's files: this generation's own, or an append chain's base */
    char bdir[PATH_MAX];
    size_t base_rows = s.rows;
    if (s.layout.base_gen) {
        fmt(bdir, sizeof bdir, "%s/g%lu", tdir, s.layout.base_gen);
        base_rows = s.layout.base_rows;
    } else {
        fmt(bdir, sizeof bdir, "%s", gdir);
    }

    attu_column_def *defs = calloc((size_t)s.ncols + 1, sizeof *defs);
    if (!defs) { schema_free(&s); attu_error_oom(err); return NULL; }
    for (int i = 0; i < s.ncols; i++) defs[i] = s.cols[i].def;
    attu_table *t = attu_table_new(s.name, s.ncols, defs, err);
    free(defs);
    if (!t) { schema_free(&s); return NULL; }
    t->version = s.version;
    for (int i = 0; i < s.ncols && !why; i++) {
        attu_column *c = t->cols[i];
        size_t w = attu_type_width(c->type.id);
        void *buf;
        size_t blen;
        fmt(path, sizeof path, "%s/c%d.values", bdir, i);
        if (read_blob(path, KIND_VALUES, &buf, &blen, &why)) break;
        if (blen != base_rows * w) { free(buf); why = "wrong length"; break; }
        free(c->data);
        c->data = buf;
        c->capacity = base_rows ? base_rows : 1;
        if (!base_rows) {
            free(c->data);
            c->data = calloc(1, w);
        }
        c->length = base_rows;
        if (s.cols[i].has_validity) {
            fmt(path, sizeof path, "%s/c%d.validity", bdir, i);
            if (read_blob(path, KIND_VALIDITY, &buf, &blen, &why)) break;
            size_t words = (base_rows + 63) / 64;
            if (blen != words * 8) { free(buf); why = "wrong length"; break; }
            /* Keep the column invariant: capacity words, bits past length 1. */
            uint64_t *v = malloc((words ? words : 1) * 8);
            if (!v) { free(buf); why = "out of memory"; break; }
            if (words) memcpy(v, buf, words * 8);
            else v[0] = ~0ULL;
            if (base_rows & 63) v[base_rows >> 6] |= ~0ULL << (base_rows & 63);
            free(buf);
            free(c->validity);
            c->validity = v;
        }
        if (s.cols[i].has_dict) {
            fmt(path, sizeof path, "%s/c%d.dict", bdir, i);
            if (read_blob(path, KIND_DICT, &buf, &blen, &why)) break;
            uint64_t cnt;
            if (blen < 16) { free(buf); why = "wrong length"; break; }
            memcpy(&cnt, buf, 8);
            if (cnt > (uint64_t)INT32_MAX || blen < 8 + (cnt + 1) * 8) { free(buf); why = "wrong length"; break; }
            attu_dictionary *d = calloc(1, sizeof *d);
            uint64_t *offs = malloc((cnt + 1) * 8);
            if (!d || !offs) { free(d); free(offs); free(buf); why = "out of memory"; break; }
            memcpy(offs, (char *)buf + 8, (cnt + 1) * 8);
            size_t nbytes = blen - 8 - (cnt + 1) * 8;
            int ok = offs[0] == 0 && offs[cnt] == nbytes;
            for (uint64_t k = 0; ok && k < cnt; k++) ok = offs[k] <= offs[k + 1];
            char *bytes = malloc(nbytes ? nbytes : 1);
            if (!ok || !bytes) { free(d); free(offs); free(bytes); free(buf); why = "malformed dictionary"; break; }
            memcpy(bytes, (char *)buf + 8 + (cnt + 1) * 8, nbytes);
            free(buf);
            d->refcount = 1;
            d->count = (int32_t)cnt;
            d->offsets = offs;
            d->bytes = bytes;
            c->dict = d;
        }
    }
    /* an append chain's tails, in row order (storage_tail.c) */
    for (int k = 0; !why && k < s.layout.ntails; k++) {
        const tail_ref *tr = &s.layout.tails[k];
        void *buf;
        size_t blen;
        fmt(path, sizeof path, "%s/g%lu/tail", tdir, tr->gen);
        if (read_blob(path, KIND_TAIL, &buf, &blen, &why)) break;
        why = storage_tail_apply(t, tr->first, tr->count, buf, blen);
        free(buf);
    }
    for (int i = 0; i < s.ncols && !why; i++) {
        attu_column *c = t->cols[i];
        if (c->type.id == ATTU_TYPE_TEXT) {
            /* Codes must index the dictionary, or queries would read
             * outside it: a wrong code is damage, even with a good CRC. */
            const int32_t *codes = c->data;
            int32_t n = c->dict ? c->dict->count : 0;
            if (c->length != s.rows) { why = "wrong length"; break; }
            for (size_t r = 0; r < s.rows; r++)
                if (!attu_column_is_null(c, r) && (codes[r] < 0 || codes[r] >= n)) {
                    why = "text code outside its dictionary";
                    break;
                }
            /* a char(n) column saved with trailing spaces (bpchar.h) */
            attu_error scratch;
            attu_error_clear(&scratch);
            if (!why && attu_bpchar_normalize(c, &scratch)) why = "out of memory";
        }
    }
    if (why) {
        attu_table *u = unavailable_table(s.name, &s, path, why);
        attu_table_free(t);
        schema_free(&s);
        return u;
    }
    t->nrows = s.rows;
    /* the version on disk: the next commit of a version appended to this
     * one names it in its lineage and writes only its new rows */
    if (s.uid) t->uid = s.uid;
    *defaults_out = s.defaults;   /* the caller's now */
    s.defaults = NULL;
    *uniques_out = s.uniques;
    *nuniques_out = s.nuniques;
    s.uniques = NULL;
    *checks_out = s.checks;
    *nchecks_out = s.nchecks;
    s.checks = NULL;
    s.nchecks = 0;
    *fkeys_out = s.fkeys;
    *nfkeys_out = s.nfkeys;
    s.fkeys = NULL;
    s.nfkeys = 0;
    schema_free(&s);
    return t;
}

int attu_storage_load_all(const char *data_dir, attu_catalog *cat,
                          attu_error *err) {
    /* a COMMIT a crash interrupted after its record: finished first
     * (storage_commit.c), before the staged folders look like leftovers */
    if (attu_storage_recover(data_dir, err)) return -1;
    DIR *dir = opendir(data_dir);
    if (!dir) return io_error(err, "open data directory", data_dir);
    struct dirent *e;
    char path[PATH_MAX];
    int count = 0, rc = 0;
    while ((e = readdir(dir))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
            !strcmp(e->d_name, "attu.lock"))
            continue;
        fmt(path, sizeof path, "%s/%s", data_dir, e->d_name);
        if (e->d_name[0] == '.') {
            /* .tmp-* and .drop-*: interrupted saves and drops. */
            remove_tree(path);
            continue;
        }
        struct stat st;
        if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        unsigned long gen = read_current(path);
        if (gen == 0) {
            /* Never committed (or not ours): a table folder always has
             * CURRENT once its rename made it visible. */
            continue;
        }
        char keep[32];
        fmt(keep, sizeof keep, "g%lu", gen);
        remove_other_generations(path, keep);
        char **defaults = NULL;
        attu_unique *uniques = NULL;
        int nuniques = 0, nchecks = 0;
        attu_check *checks = NULL;
        attu_fkey *fkeys = NULL;
        int nfkeys = 0;
        attu_table *t = load_table(path, e->d_name, gen, &defaults, &uniques, &nuniques, &checks, &nchecks, &fkeys,
                                   &nfkeys, err);
        if (!t) { rc = -1; break; }
        int ncols = t->ncols;
        if (attu_catalog_add(cat, t, err) != 0) {
            attu_table_free(t);
            rc = -1;
        }
        for (int i = 0; defaults && i < ncols; i++) {
            if (!rc && defaults[i] && attu_catalog_set_default(cat, t->name, i, defaults[i], err)) rc = -1;
            free(defaults[i]);
        }
        free(defaults);
        if (!rc && nuniques && attu_catalog_set_uniques(cat, t->name, uniques, nuniques, err)) rc = -1;
        free(uniques);
        if (!rc && nchecks && attu_catalog_set_checks(cat, t->name, checks, nchecks, err)) rc = -1;
        for (int k = 0; k < nchecks; k++) free(checks[k].expr);
        free(checks);
        if (!rc && nfkeys && attu_catalog_set_fkeys(cat, t->name, fkeys, nfkeys, err)) rc = -1;
        free(fkeys);
        if (rc) break;
        count++;
    }
    closedir(dir);
    if (rc == 0) fsync_path(data_dir, NULL);
    return rc ? -1 : count;
}

/* ---- lent to storage_commit.c (storage_internal.h) ------------------------ */

void storage_escape_name(const char *name, char *out, size_t cap) { escape_name(name, out, cap); }
unsigned long storage_read_current(const char *tdir) { return read_current(tdir); }
int storage_write_generation(const char *gdir, const attu_table *t, const char *const *defaults,
                             const attu_unique *uniques, int nuniques, const attu_check *checks, int nchecks,
                             const attu_fkey *fkeys, int nfkeys, attu_error *err) {
    return write_generation(gdir, t, defaults, uniques, nuniques, checks, nchecks, fkeys, nfkeys, err);
}
int storage_commit_current(const char *tdir, unsigned long gen, attu_error *err) {
    return commit_current(tdir, gen, err);
}
int storage_write_next_generation(const char *tdir, unsigned long cur, unsigned long gen, const attu_table *t,
                                  const char *const *defaults, const attu_unique *uniques, int nuniques,
                                  const attu_check *checks, int nchecks, const attu_fkey *fkeys, int nfkeys,
                                  attu_error *err) {
    return write_next_generation(tdir, cur, gen, t, defaults, uniques, nuniques, checks, nchecks, fkeys, nfkeys, err);
}
void storage_remove_other_generations(const char *tdir, const char *keep) { remove_other_generations(tdir, keep); }
int storage_remove_tree(const char *path) { return remove_tree(path); }
int storage_fsync_path(const char *path, attu_error *err) { return fsync_path(path, err); }
void storage_hook(const char *stage) { hook(stage); }
unsigned long storage_next_counter(void) { return __atomic_add_fetch(&save_counter, 1, __ATOMIC_RELAXED); }
