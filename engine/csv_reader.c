/*
 * csv_reader.c - parallel, atomic CSV loading (csv_reader.h).
 *
 * A load runs in four steps:
 *
 *  1. Input: a file is mapped read-only; a pull source is read into one
 *     buffer. LATIN1 is widened to UTF-8 (csv_encoding.h).
 *  2. Split: the bytes are cut into chunks at arbitrary offsets. One
 *     parallel pass counts quotes and newlines per chunk; the prefix parity
 *     of quotes gives the quote state at each cut, so each chunk's first
 *     record (the first newline outside quotes after the cut) and its line
 *     number are exact (csv_scan.h explains why). With an escape character
 *     other than the quote, parity does not hold, and one sequential scan
 *     finds the same boundaries instead.
 *  3. Parse: chunks are parsed in parallel into chunk-local columns. TEXT
 *     values get chunk-local ids from a per-chunk hash set; each chunk also
 *     validates its bytes as UTF-8 first and reports the first bad byte when
 *     the parser reaches the field holding it. A chunk stops at its first
 *     error; the error of the lowest chunk is the first in the file.
 *  4. Assemble: only when every chunk succeeded, a new table is built from
 *     base's rows followed by every chunk's rows; TEXT columns get one
 *     dictionary merged from base's and all chunks' distinct strings.
 *     base is never written, so a failed load changes nothing.
 *
 * All offsets, line numbers and row counts are size_t: inputs beyond 4 GB
 * (and 2^31 lines) work the same as small ones.
 */
#include "engine/csv_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/array.h"
#include "engine/range.h"
#include "engine/json.h"
#include "engine/bytea.h"
#include "engine/uuid.h"
#include "engine/jsonpath.h"
#include "engine/enum_type.h"
#include "engine/csv_encoding.h"
#include "engine/csv_scan.h"
#include "engine/csv_internal.h"
#include "engine/thread_pool.h"

void attu_csv_options_default(attu_csv_options *o) {
    memset(o, 0, sizeof *o);
    o->delimiter = ',';
    o->quote = '"';
    o->escape = '"';
    o->header = false;
    o->null_string = "";
    o->encoding = ATTU_ENCODING_UTF8;
    o->threads = 0;
}

/* ---- input ------------------------------------------------------------------ */

/*
 * Quote state while walking the input from its start, exactly as csv_scan.h
 * reads it: with escape == quote a quote toggles wherever it is (a doubled
 * quote toggles twice); with another escape, inside quotes the escape makes
 * the next quote or escape literal. Returns the bytes consumed at d[k] (1,
 * or 2 for an escape pair).
 */
static inline size_t quote_step(const char *d, size_t n, size_t k, char quote,
                                char escape, bool *in_quote) {
    char c = d[k];
    if (*in_quote && escape != quote && c == escape && k + 1 < n &&
        (d[k + 1] == quote || d[k + 1] == escape))
        return 2;
    if (c == quote) *in_quote = !*in_quote;
    return 1;
}

/*
 * PostgreSQL's end-of-data marker for COPY FROM STDIN: a record that is
 * exactly "\." followed by LF, CR LF or CR ends the data; the rest is
 * discarded. In CSV mode it counts only at the start of a record outside
 * quotes: inside a quoted field spanning lines, after other bytes, or with
 * no line end after it (PostgreSQL 15 reads a final unterminated "\." as a
 * value), "\." is data. Returns how many bytes are data.
 */
static size_t end_of_data_marker(const char *d, size_t n, char quote, char escape) {
    /* Most inputs hold no "\." at all: look for one before walking quotes. */
    const char *b = d;
    for (;;) {
        b = memchr(b, '\\', (size_t)(d + n - b));
        if (!b || (b + 1 < d + n && b[1] == '.')) break;
        b++;
    }
    if (!b) return n;
    bool in_quote = false, at_start = true;
    for (size_t k = 0; k < n;) {
        if (at_start && !in_quote && d[k] == '\\' && k + 1 < n && d[k + 1] == '.') {
            size_t e = k + 2;
            if (e < n && (d[e] == '\n' || d[e] == '\r')) return k;
        }
        char c = d[k];
        at_start = !in_quote && (c == '\n' || (c == '\r' && (k + 1 == n || d[k + 1] != '\n')));
        k += quote_step(d, n, k, quote, escape, &in_quote);
    }
    return n;
}

/* An error at line:col of the input. A file's message leads with
 * "name:line:col: "; COPY's (in->copy_relation set) is PostgreSQL's
 * message alone, with the CONTEXT "COPY t, line N" (a chunk's errors get
 * their record's line number and text later: copy_context). */
static void csv_error(attu_error *err, const char *sqlstate, const attu_csv_input *in,
                      size_t line, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void csv_error(attu_error *err, const char *sqlstate, const attu_csv_input *in,
                      size_t line, size_t col, const char *fmt, ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!in->copy_relation) {
        attu_error_set(err, sqlstate, 0, "%s:%zu:%zu: %s", in->name, line, col, msg);
        return;
    }
    attu_error_set(err, sqlstate, 0, "%s", msg);
    char ctx[256];
    snprintf(ctx, sizeof ctx, "COPY %s, line %zu", in->copy_relation, line);
    attu_error_set_context(err, ctx);
}

/*
 * PostgreSQL takes the line ending from the first record: LF, CR LF, or a
 * bare CR (old Mac files). The reader itself splits records at LF (dropping
 * a CR just before it), so a bare-CR input is rewritten with each unquoted
 * CR turned into LF; a CR inside quotes stays data. As in PostgreSQL, an
 * unquoted LF in a bare-CR input is an error (22P04). Returns 0 and sets
 * *out (malloc'ed, *out_n bytes) when the input used bare CRs, 0 with *out
 * NULL when it did not, -1 with err set on a bad input or OOM.
 */
static int bare_cr_to_lf(const char *d, size_t n, const attu_csv_input *in, char quote,
                         char escape, char delim, char **out, size_t *out_n,
                         attu_error *err) {
    *out = NULL;
    bool in_quote = false;
    size_t k = 0;
    /* The first unquoted line end decides the style. */
    while (k < n) {
        char c = d[k];
        if (!in_quote && (c == '\n' || c == '\r')) break;
        k += quote_step(d, n, k, quote, escape, &in_quote);
    }
    if (k >= n || d[k] == '\n' || (k + 1 < n && d[k + 1] == '\n')) return 0;
    char *buf = malloc(n ? n : 1);
    if (!buf) return attu_error_oom(err);
    memcpy(buf, d, n);
    in_quote = false;
    size_t line = 1, col = 1;
    for (k = 0; k < n;) {
        char c = buf[k];
        if (!in_quote) {
            if (c == '\r') { buf[k++] = '\n'; line++; col = 1; continue; }
            if (c == '\n') {
                free(buf);
                csv_error(err, ATTU_SQLSTATE_BAD_COPY_FORMAT, in, line, col, "unquoted newline found in data");
                return -1;
            }
            if (c == delim) col++;
        } else if (c == '\r') {
            line++;   /* PostgreSQL counts a bare-CR input's lines by CR */
        }
        k += quote_step(buf, n, k, quote, escape, &in_quote);
    }
    *out = buf;
    *out_n = n;
    return 0;
}

/* ---- text format: input ---------------------------------------------------- */

/*
 * In PostgreSQL's text format a backslash escapes the byte after it, even a
 * newline, a delimiter or another backslash; nothing else quotes. So a byte
 * is escaped exactly when the run of backslashes right before it is odd,
 * which a scan can decide locally (text_split relies on that).
 */

/*
 * The end-of-data marker of the text format: an unescaped "\." followed by
 * a line end (LF, CR LF or CR) ends the data there; the bytes before it on
 * its line are the last record, the rest is discarded. "\." followed by
 * anything else, or by nothing, is an error, as in PostgreSQL 15 ("end-of-
 * copy marker corrupt", 22P04). Returns how many bytes are data, or
 * (size_t)-1 with err set.
 */
static size_t text_end_of_data(const char *d, size_t n, const attu_csv_input *in, char delim, attu_error *err) {
    const char *b = memchr(d, '\\', n);
    if (!b) return n;
    size_t line = 1, col = 1;
    for (size_t k = 0; k < n; k++) {
        char c = d[k];
        if (c == '\n') { line++; col = 1; continue; }
        if (c == delim) { col++; continue; }
        if (c != '\\') continue;
        if (k + 1 < n && d[k + 1] == '.') {
            size_t e = k + 2;
            if (e < n && (d[e] == '\n' || d[e] == '\r')) return k;
            csv_error(err, ATTU_SQLSTATE_BAD_COPY_FORMAT, in, line, col, "end-of-copy marker corrupt");
            return (size_t)-1;
        }
        if (k + 1 < n && d[k + 1] == '\n') { line++; col = 1; }
        k++;    /* the escaped byte is data */
    }
    return n;
}

/*
 * The text format's line ending, as bare_cr_to_lf does it for CSV: when
 * the first unescaped line end is a bare CR, every unescaped CR becomes LF
 * (an escaped one stays data) and an unescaped LF is an error, as in
 * PostgreSQL. Same contract as bare_cr_to_lf.
 */
static int text_bare_cr_to_lf(const char *d, size_t n, const attu_csv_input *in, char **out, size_t *out_n, attu_error *err) {
    *out = NULL;
    size_t k = 0;
    while (k < n && d[k] != '\n' && d[k] != '\r') k += d[k] == '\\' ? 2 : 1;
    if (k >= n || d[k] == '\n' || (k + 1 < n && d[k + 1] == '\n')) return 0;
    char *buf = malloc(n ? n : 1);
    if (!buf) return attu_error_oom(err);
    memcpy(buf, d, n);
    size_t line = 1;
    for (k = 0; k < n; k++) {
        if (buf[k] == '\\') { k++; continue; }
        if (buf[k] == '\r') { buf[k] = '\n'; line++; }
        else if (buf[k] == '\n') {
            free(buf);
            csv_error(err, ATTU_SQLSTATE_BAD_COPY_FORMAT, in, line, 1, "literal newline found in data");
            return -1;
        }
    }
    *out = buf;
    *out_n = n;
    return 0;
}

int attu_csv_input_open(attu_csv_input *in, const attu_csv_options *opts,
                        const attu_csv_source *src, attu_error *err) {
    memset(in, 0, sizeof *in);
    in->name = src->display_name ? src->display_name
             : src->path ? src->path : "STDIN";
    in->copy_relation = opts->copy_relation;
    if (src->path) {
        int fd = open(src->path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_FILE, 0,
                                  "could not open file \"%s\" for reading: %s",
                                  src->path, strerror(errno));
        struct stat st;
        if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
            int e = S_ISDIR(st.st_mode) ? EISDIR : errno;
            close(fd);
            return attu_error_set(err, ATTU_SQLSTATE_IO_ERROR, 0,
                                  "could not read file \"%s\": %s", src->path,
                                  strerror(e));
        }
        size_t size = (size_t)st.st_size;
        if (size > 0) {
            /* MAP_POPULATE maps every cached page up front: one call
             * instead of a page fault per 4 KiB while parsing. */
            void *m = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
            if (m == MAP_FAILED) {
                int e = errno;
                close(fd);
                return attu_error_set(err, ATTU_SQLSTATE_IO_ERROR, 0,
                                      "could not map file \"%s\": %s",
                                      src->path, strerror(e));
            }
            madvise(m, size, MADV_SEQUENTIAL | MADV_WILLNEED);
            in->map = m;
            in->map_size = size;
            in->data = m;
        } else {
            in->data = "";
        }
        in->size = size;
        close(fd);
    } else if (src->read) {
        size_t cap = 1 << 16, n = 0;
        char *buf = malloc(cap);
        if (!buf) return attu_error_oom(err);
        for (;;) {
            if (cap - n < (1 << 15)) {
                char *b = realloc(buf, cap * 2);
                if (!b) { free(buf); return attu_error_oom(err); }
                buf = b;
                cap *= 2;
            }
            ssize_t r = src->read(src->ctx, buf + n, cap - n, err);
            if (r < 0) {
                free(buf);
                if (err && !err->set)
                    attu_error_set(err, ATTU_SQLSTATE_IO_ERROR, 0,
                                   "could not read COPY data from %s", in->name);
                return -1;
            }
            if (r == 0) break;
            n += (size_t)r;
        }
        in->owned = buf;
        in->data = buf;
        in->size = n;
    } else {
        return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0,
                              "CSV source has neither a path nor a reader");
    }
    if (opts->encoding == ATTU_ENCODING_LATIN1 && in->size > 0) {
        size_t n;
        char *u = attu_latin1_to_utf8(in->data, in->size, &n);
        if (!u) {
            attu_csv_input_close(in);
            return attu_error_oom(err);
        }
        attu_csv_input_close(in);
        in->owned = u;
        in->data = u;
        in->size = n;
        in->name = src->display_name ? src->display_name
                 : src->path ? src->path : "STDIN";
        in->copy_relation = opts->copy_relation;
    }
    char escape = opts->escape ? opts->escape : opts->quote;
    if (opts->text_format) {
        /* PostgreSQL ends text data at "\." from a file too */
        size_t end = text_end_of_data(in->data, in->size, in, opts->delimiter, err);
        if (end == (size_t)-1) {
            attu_csv_input_close(in);
            return -1;
        }
        in->size = end;
    } else if (!src->path)
        in->size = end_of_data_marker(in->data, in->size, opts->quote, escape);
    char *lf;
    size_t lf_n;
    if (opts->text_format ? text_bare_cr_to_lf(in->data, in->size, in, &lf, &lf_n, err)
                          : bare_cr_to_lf(in->data, in->size, in, opts->quote, escape,
                                          opts->delimiter, &lf, &lf_n, err)) {
        attu_csv_input_close(in);
        return -1;
    }
    if (lf) {
        const char *name = in->name;
        attu_csv_input_close(in);
        in->name = name;
        in->copy_relation = opts->copy_relation;
        in->owned = lf;
        in->data = lf;
        in->size = lf_n;
    }
    return 0;
}

void attu_csv_input_close(attu_csv_input *in) {
    if (in->map) munmap(in->map, in->map_size);
    free(in->owned);
    in->map = NULL;
    in->owned = NULL;
    in->data = NULL;
    in->size = 0;
}

int attu_csv_check_options(const attu_csv_options *o, attu_error *err) {
    const char *ns = o->null_string ? o->null_string : "";
    if (o->delimiter == '\n' || o->delimiter == '\r' || o->delimiter == '\0')
        return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                              "COPY delimiter cannot be newline or carriage return");
    if (!o->text_format && (o->quote == '\n' || o->quote == '\r' || o->quote == '\0'))
        return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                              "COPY quote cannot be newline or carriage return");
    if (!o->text_format && o->delimiter == o->quote)
        return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                              "COPY delimiter and quote must be different");
    if (o->escape == '\n' || o->escape == '\r')
        return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                              "COPY escape cannot be newline or carriage return");
    if (strchr(ns, '\n') || strchr(ns, '\r'))
        return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                              "COPY null representation cannot use newline or carriage return");
    if (strchr(ns, o->delimiter))
        return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                              "COPY delimiter must not appear in the NULL specification");
    if (o->text_format) {
        /* escapes and the end marker are made of these */
        if (strchr("\\.abcdefghijklmnopqrstuvwxyz0123456789", o->delimiter))
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                                  "COPY delimiter cannot be \"%c\"", o->delimiter);
        return 0;
    }
    if (strchr(ns, o->quote))
        return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                              "CSV quote character must not appear in the NULL specification");
    return 0;
}

/* ---- per-chunk state -------------------------------------------------------- */

/* Bump allocator for a chunk's distinct strings. */
typedef struct arena_block { struct arena_block *next; size_t used, cap; char data[]; } arena_block;

static char *arena_copy(arena_block **head, const char *s, size_t n) {
    arena_block *b = *head;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > (1 << 20) ? n : (1 << 20);
        arena_block *nb = malloc(sizeof *nb + cap);
        if (!nb) return NULL;
        nb->next = b;
        nb->used = 0;
        nb->cap = cap;
        *head = nb;
        b = nb;
    }
    char *p = b->data + b->used;
    if (n) memcpy(p, s, n);
    b->used += n;
    return p;
}

static void arena_free(arena_block *b) {
    while (b) { arena_block *n = b->next; free(b); b = n; }
}

/* A chunk's distinct strings of one TEXT column, in first-seen order. */
typedef struct text_set {
    uint64_t *slots;    /* (hash high 32 bits << 32) | (id + 1); 0 = empty */
    size_t mask;
    const char **strs;
    size_t *lens;
    size_t count, cap;
} text_set;

static uint64_t text_hash(const char *s, size_t n) {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (n * 0xff51afd7ed558ccdULL);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 31;
    }
    uint64_t w = 0;
    memcpy(&w, s + i, n - i);
    h = (h ^ w) * 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 29;
    return h;
}

static void text_set_free(text_set *t) {
    free(t->slots);
    free(t->strs);
    free(t->lens);
}

static int text_set_grow(text_set *t) {
    size_t ncap = t->mask ? (t->mask + 1) * 2 : 1024;
    uint64_t *ns = calloc(ncap, sizeof *ns);
    if (!ns) return -1;
    for (size_t i = 0; t->slots && i <= t->mask; i++) {
        uint64_t s = t->slots[i];
        if (!s) continue;
        size_t h = (size_t)(s >> 32) & (ncap - 1);
        /* The low bits of the full hash were dropped; rehash from the
         * top 32 bits stored in the slot, probed linearly. */
        while (ns[h]) h = (h + 1) & (ncap - 1);
        ns[h] = s;
    }
    free(t->slots);
    t->slots = ns;
    t->mask = ncap - 1;
    return 0;
}

/* Id of s in the set, adding a copy when new; -1 on OOM. */
static int64_t text_set_id(text_set *t, arena_block **arena, const char *s, size_t n) {
    if (t->count * 2 >= t->mask + 1 || !t->slots)
        if (text_set_grow(t)) return -1;
    uint64_t h = text_hash(s, n);
    uint32_t tag = (uint32_t)(h >> 32);
    size_t i = (size_t)tag & t->mask;
    for (;;) {
        uint64_t v = t->slots[i];
        if (!v) break;
        if ((uint32_t)(v >> 32) == tag) {
            size_t id = (size_t)(uint32_t)v - 1;
            if (t->lens[id] == n && memcmp(t->strs[id], s, n) == 0) return (int64_t)id;
        }
        i = (i + 1) & t->mask;
    }
    if (t->count == t->cap) {
        size_t nc = t->cap ? t->cap * 2 : 256;
        const char **ns = realloc(t->strs, nc * sizeof *ns);
        if (!ns) return -1;
        t->strs = ns;
        size_t *nl = realloc(t->lens, nc * sizeof *nl);
        if (!nl) return -1;
        t->lens = nl;
        t->cap = nc;
    }
    char *copy = arena_copy(arena, s, n);
    if (!copy) return -1;
    t->strs[t->count] = copy;
    t->lens[t->count] = n;
    t->slots[i] = ((uint64_t)tag << 32) | (uint64_t)(t->count + 1);
    return (int64_t)t->count++;
}

typedef struct chunk {
    size_t start, end;        /* [start, end): whole records */
    size_t line;              /* line of start */
    size_t cap;               /* most rows it can hold (records <= lines) */
    size_t slot;              /* where its rows are parsed to in the output */
    size_t rows;
    size_t row;               /* where its rows end up (after compaction) */
    uint64_t **nulls;         /* per column: bitmap over its rows (1 = NULL) or NULL */
    text_set *texts;          /* per column (TEXT only) */
    arena_block *arena;
    attu_error err;
    bool skip_header;
    /* COPY: what PostgreSQL's CONTEXT line shows of err (copy_context),
     * kept until the records before the chunk are counted */
    int err_where;            /* WHERE_* */
    size_t err_row;           /* the record's index in the chunk; SIZE_MAX: the header */
    size_t err_start, err_start_line;   /* where the record starts: byte, physical line */
    const char *err_col;      /* WHERE_VALUE: the column's name */
    char *err_text;           /* the value or the record's text (malloc'd) */
    size_t err_len;
    char err_inner[256];      /* the value's own CONTEXT ("JSON data, line 1: ...") */
} chunk;

/* What a COPY error's CONTEXT names: nothing more than csv_error's line,
 * a column's value, the record's text, or the line alone */
enum { WHERE_NONE = 0, WHERE_VALUE, WHERE_RECORD, WHERE_LINE };

typedef struct load_job {
    const attu_csv_options *opts;
    const char *null_string;
    size_t null_len;
    bool crlf;                /* text format: records end with CR LF (else LF) */
    const attu_table *base;
    const attu_csv_input *in;
    chunk *chunks;
    size_t nchunks;
    attu_table *out;          /* columns sized for the most rows possible */
    int32_t **text_codes;     /* per column: codes of every chunk's distinct strings */
    size_t **text_offset;     /* per column, per chunk: index into text_codes */
    attu_enum_def **enums;    /* per column: an enum column's type, read on the calling
                                 thread (the chunks' threads have no catalog: enum_type.h) */
} load_job;

static int chunk_set_null(chunk *c, int col, size_t row) {
    if (!c->nulls[col]) {
        c->nulls[col] = calloc(c->cap / 64 + 1, sizeof(uint64_t));
        if (!c->nulls[col]) return -1;
    }
    c->nulls[col][row >> 6] |= 1ULL << (row & 63);
    return 0;
}

static void chunk_free(chunk *c, int ncols) {
    for (int i = 0; i < ncols; i++) {
        if (c->nulls) free(c->nulls[i]);
        if (c->texts) text_set_free(&c->texts[i]);
    }
    free(c->nulls);
    free(c->texts);
    free(c->err_text);
    arena_free(c->arena);
    memset(c, 0, sizeof *c);
}

/*
 * Fast paths for the common spellings of numbers and dates: plain digits,
 * an optional minus and (for floats and decimals) a point. Returns 1 when
 * the value was stored, 0 when attu_value_parse must decide (anything
 * else, including every error, so messages come from one place). Each
 * path gives bit-for-bit what attu_value_parse gives.
 */
static const double exact_pow10[23] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static inline int fast_parse(attu_type t, const char *s, size_t n, void *slot) {
    const char *p = s, *e = s + n;
    int neg = 0;
    if (p < e && *p == '-') { neg = 1; p++; }
    if (p == e) return 0;
    switch (t.id) {
    case ATTU_TYPE_INT16:
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_INT64: {
        if (e - p > 18) return 0;
        int64_t v = 0;
        for (; p < e; p++) {
            unsigned d = (unsigned)(*p - '0');
            if (d > 9) return 0;
            v = v * 10 + d;
        }
        if (neg) v = -v;
        if (t.id == ATTU_TYPE_INT64) { *(int64_t *)slot = v; return 1; }
        /* out of range: the slow path reports it */
        if (t.id == ATTU_TYPE_INT16 ? v < INT16_MIN || v > INT16_MAX : v < INT32_MIN || v > INT32_MAX) return 0;
        *(int32_t *)slot = (int32_t)v;
        return 1;
    }
    case ATTU_TYPE_FLOAT64:
    case ATTU_TYPE_DECIMAL: {
        uint64_t m = 0;
        int digits = 0, frac = -1, any = 0;
        for (; p < e; p++) {
            unsigned d = (unsigned)(*p - '0');
            if (d <= 9) {
                m = m * 10 + d;
                any = 1;
                if (m) digits++;
                if (frac >= 0) frac++;
            } else if (*p == '.' && frac < 0) {
                frac = 0;
            } else {
                return 0;
            }
        }
        if (!any) return 0;
        if (frac < 0) frac = 0;
        if (t.id == ATTU_TYPE_FLOAT64) {
            if (digits > 15 || frac > 22) return 0;
            double v = (double)m / exact_pow10[frac];
            *(double *)slot = neg ? -v : v;
            return 1;
        }
        /* DECIMAL: no rounding needed when frac <= scale. */
        if (frac > t.scale || digits > 18 || digits - frac + t.scale > 18) return 0;
        int64_t v = (int64_t)m;   /* at most 18 digits once scaled: no overflow */
        for (int k = frac; k < t.scale; k++) v *= 10;
        static const int64_t lim[19] = {1, 10, 100, 1000, 10000, 100000, 1000000,
            10000000, 100000000, 1000000000, 10000000000LL, 100000000000LL,
            1000000000000LL, 10000000000000LL, 100000000000000LL, 1000000000000000LL,
            10000000000000000LL, 100000000000000000LL, 1000000000000000000LL};
        if (v >= lim[t.precision]) return 0;
        *(int64_t *)slot = neg ? -v : v;
        return 1;
    }
    case ATTU_TYPE_DATE: {
        if (neg || n != 10 || s[4] != '-' || s[7] != '-') return 0;
        int y = 0, mo, d;
        for (int k = 0; k < 4; k++) {
            unsigned x = (unsigned)(s[k] - '0');
            if (x > 9) return 0;
            y = y * 10 + (int)x;
        }
        unsigned m1 = (unsigned)(s[5] - '0'), m2 = (unsigned)(s[6] - '0');
        unsigned d1 = (unsigned)(s[8] - '0'), d2 = (unsigned)(s[9] - '0');
        if (m1 > 9 || m2 > 9 || d1 > 9 || d2 > 9) return 0;
        mo = (int)(m1 * 10 + m2);
        d = (int)(d1 * 10 + d2);
        if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > 28) return 0;   /* 29..31: slow path checks */
        *(int32_t *)slot = attu_date_from_ymd(y, mo, d);
        return 1;
    }
    default:
        return 0;
    }
}

static void encoding_error(attu_error *err, const attu_csv_input *in, size_t line,
                           size_t col, size_t bad, int bad_len) {
    char bytes[32];
    size_t n = 0;
    for (int k = 0; k < bad_len && bad + (size_t)k < in->size; k++)
        n += (size_t)snprintf(bytes + n, sizeof bytes - n, "%s0x%02x", k ? " " : "",
                              (unsigned char)in->data[bad + (size_t)k]);
    bytes[n] = '\0';
    csv_error(err, ATTU_SQLSTATE_CHARACTER_NOT_IN_REPERTOIRE, in, line, col,
              "invalid byte sequence for encoding \"UTF8\": %s", bytes);
}

/* ---- text format: fields ---------------------------------------------------- */

static inline int hex_digit(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/*
 * Reads one text-format field at c->pos into f, decoding backslash escapes
 * as PostgreSQL's CopyReadAttributesText does. f->raw_start..raw_end is the
 * field as written (what the NULL string is compared with). *check_utf8 is
 * set when an octal or hex escape made a byte that is NUL or not ASCII:
 * the decoded text then needs its own encoding check. As in PostgreSQL the
 * first line end sets the style: with crlf every record ends with CR LF
 * and a bare LF is an error (-4, "literal newline found in data"); without,
 * records end with LF and an unescaped CR is an error (-3, "literal
 * carriage return found in data"). Returns 0, -2 on out of memory.
 */
static int text_next_field(csv_cursor *c, csv_field *f, bool crlf, bool *check_utf8) {
    const char *d = c->data;
    size_t p = c->pos, n = c->size, len = 0;
    char delim = c->delim;
    f->raw_start = p;
    f->line = c->line;
    f->quoted = false;
    *check_utf8 = false;
    /* Fast path: no escape and no CR before the field's end. */
    while (p < n && d[p] != delim && d[p] != '\n' && d[p] != '\\' && d[p] != '\r') p++;
    if (p == n || d[p] == delim || d[p] == '\n') {
        f->text = d + c->pos;
        f->len = p - c->pos;
        f->raw_end = p;
        if (p == n) f->end = CSV_END_EOF;
        else if (d[p] == delim) { f->end = CSV_END_DELIM; p++; }
        else if (crlf) { c->pos = p; return -4; }
        else { f->end = CSV_END_RECORD; p++; c->line++; }
        c->pos = p;
        return 0;
    }
    for (size_t k = c->pos; k < p; k++)
        if (csv_scratch_put(c, &len, d[k])) return -2;
    for (;;) {
        if (p == n) { f->end = CSV_END_EOF; f->raw_end = p; break; }
        char ch = d[p];
        if (ch == delim) { f->end = CSV_END_DELIM; f->raw_end = p++; break; }
        if (ch == '\n') {
            if (crlf) { c->pos = p; return -4; }
            f->end = CSV_END_RECORD; f->raw_end = p++; c->line++;
            break;
        }
        if (ch == '\r') {
            if (crlf && p + 1 < n && d[p + 1] == '\n') { f->end = CSV_END_RECORD; f->raw_end = p; p += 2; c->line++; break; }
            if (crlf && p + 1 == n) { f->end = CSV_END_EOF; f->raw_end = p++; break; }
            c->pos = p;
            return -3;
        }
        if (ch != '\\') {
            if (csv_scratch_put(c, &len, ch)) return -2;
            p++;
            continue;
        }
        /* an escape; a backslash at the very end is dropped, as in PostgreSQL */
        if (++p == n) continue;
        char e = d[p++];
        int v = -1;
        switch (e) {
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
            v = e - '0';
            for (int k = 0; k < 2 && p < n && d[p] >= '0' && d[p] <= '7'; k++) v = v * 8 + (d[p++] - '0');
            v &= 0377;
            break;
        case 'x':
            if (p < n && hex_digit(d[p]) >= 0) {
                v = hex_digit(d[p++]);
                if (p < n && hex_digit(d[p]) >= 0) v = v * 16 + hex_digit(d[p++]);
            }
            break;
        case 'b': e = '\b'; break;
        case 'f': e = '\f'; break;
        case 'n': e = '\n'; break;
        case 'r': e = '\r'; break;
        case 't': e = '\t'; break;
        case 'v': e = '\v'; break;
        case '\n': c->line++; break;    /* an escaped line end is data */
        default: break;                 /* any other byte stands for itself */
        }
        if (v >= 0) {
            e = (char)v;
            if (v == 0 || v >= 0x80) *check_utf8 = true;
        }
        if (csv_scratch_put(c, &len, e)) return -2;
    }
    f->text = c->scratch ? c->scratch : "";
    f->len = len;
    c->pos = p;
    return 0;
}

/* The next field in either format (see csv_next_field, text_next_field). */
static inline int next_field(const attu_csv_options *o, bool crlf, csv_cursor *c, csv_field *f, bool *check_utf8) {
    if (o->text_format) return text_next_field(c, f, crlf, check_utf8);
    *check_utf8 = false;
    return csv_next_field(c, f);
}

/* The error of a field read that failed (see next_field). */
static void field_error(chunk *c, const attu_csv_input *in, const csv_field *f, size_t line, size_t col, int rc) {
    if (rc == -2) attu_error_oom(&c->err);
    else if (rc == -3)
        csv_error(&c->err, ATTU_SQLSTATE_BAD_COPY_FORMAT, in, line, col, "literal carriage return found in data");
    else if (rc == -4)
        csv_error(&c->err, ATTU_SQLSTATE_BAD_COPY_FORMAT, in, line, col, "literal newline found in data");
    else
        csv_error(&c->err, ATTU_SQLSTATE_BAD_COPY_FORMAT, in, f->line, col, "unterminated CSV quoted field");
}

/* ---- COPY's error context ------------------------------------------------ */

/* A COPY error's value (WHERE_VALUE): the field as read, and the value's
 * own context line (the JSON parser's) to go before COPY's. */
static void note_value(chunk *c, const attu_csv_input *in, const char *col, const char *text, size_t len,
                       const attu_error *verr) {
    if (!in->copy_relation) return;
    c->err_where = WHERE_VALUE;
    c->err_col = col;
    c->err_text = malloc(len + 1);
    if (c->err_text) { memcpy(c->err_text, text, len); c->err_text[len] = 0; c->err_len = len; }
    if (verr) snprintf(c->err_inner, sizeof c->err_inner, "%s", verr->context);
}

/* A COPY error's record (WHERE_RECORD): its bytes as sent, from `start`
 * to the end of the record (read on past the field `f` the error came
 * at; to the end of the input where the record does not end), without
 * the line end. cur and f are spent. */
static void note_record(chunk *c, const load_job *job, csv_cursor *cur, csv_field *f, bool f_read, size_t start) {
    const attu_csv_input *in = job->in;
    if (!in->copy_relation) return;
    size_t end = in->size;
    bool utf8;
    if (f_read) {
        int rc = 0;
        while (f->end == CSV_END_DELIM && !(rc = next_field(job->opts, job->crlf, cur, f, &utf8))) {}
        if (!rc) end = f->raw_end;
    }
    if (end > start && in->data[end - 1] == '\r') end--;
    c->err_where = WHERE_RECORD;
    c->err_text = malloc(end - start + 1);
    if (c->err_text) { memcpy(c->err_text, in->data + start, end - start); c->err_text[end - start] = 0; c->err_len = end - start; }
}

/* PostgreSQL's limit_printout_length: past 100 bytes a value is cut at a
 * character boundary and followed by "..." */
static void put_limited(char *buf, size_t cap, const char *s, size_t len) {
    size_t n = len;
    if (n > 100) {
        n = 100;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
    }
    snprintf(buf, cap, "%.*s%s", (int)n, s, n < len ? "..." : "");
}

/* A cursor over the input from byte pos, counting lines from line (the
 * COPY CONTEXT's re-readings of a record) */
static void cursor_at(csv_cursor *cur, const attu_csv_input *in, const attu_csv_options *o, size_t pos, size_t line) {
    csv_cursor_init(cur, in->data, in->size, o->delimiter, o->quote, o->escape);
    cur->pos = pos;
    cur->line = line;
}

/* The physical line a CSV record starting at byte `start` on line `line`
 * ends on. */
static size_t record_end_line(const load_job *job, size_t start, size_t line) {
    const attu_csv_options *o = job->opts;
    csv_cursor cur;
    csv_field f;
    bool utf8;
    cursor_at(&cur, job->in, o, start, line);
    int rc;
    do rc = next_field(o, job->crlf, &cur, &f, &utf8);
    while (!rc && f.end == CSV_END_DELIM);
    size_t end = !rc && f.end == CSV_END_RECORD ? cur.line - 1 : cur.line;
    csv_cursor_free(&cur);
    return end;
}

/* The CONTEXT of chunk ci's error, now that the records before it are
 * counted: PostgreSQL's CopyFromErrorCallback lines. Its line number
 * counts records in the text format; in CSV also the line ends inside
 * quoted fields, but only those after the first record's end (PostgreSQL
 * counts them once it has seen a line end and knows its kind): the
 * physical line the record ends on, less the first record's inner line
 * ends. */
static void copy_context(const load_job *job, size_t ci, attu_error *err) {
    const chunk *c = &job->chunks[ci];
    const char *rel = job->in->copy_relation;
    if (!rel || c->err_where == WHERE_NONE) return;
    size_t line = 1;
    if (c->err_row != SIZE_MAX && !job->opts->text_format) {
        size_t first = job->nchunks ? record_end_line(job, job->chunks[0].start, job->chunks[0].line) - job->chunks[0].line : 0;
        line = record_end_line(job, c->err_start, c->err_start_line) - first;
    } else if (c->err_row != SIZE_MAX) {
        line += job->opts->header ? 1 : 0;
        for (size_t i = 0; i < ci; i++) line += job->chunks[i].rows;
        line += c->err_row;
    }
    char val[160] = "", ctx[1024];
    if (c->err_text) put_limited(val, sizeof val, c->err_text, c->err_len);
    const char *sep = c->err_inner[0] ? "\n" : "";
    if (c->err_where == WHERE_VALUE)
        snprintf(ctx, sizeof ctx, "%s%sCOPY %s, line %zu, column %s: \"%s\"", c->err_inner, sep, rel, line, c->err_col, val);
    else if (c->err_where == WHERE_RECORD)
        snprintf(ctx, sizeof ctx, "COPY %s, line %zu: \"%s\"", rel, line, val);
    else
        snprintf(ctx, sizeof ctx, "COPY %s, line %zu", rel, line);
    size_t n = strlen(ctx);
    if (n >= sizeof err->context) n = sizeof err->context - 1;
    memcpy(err->context, ctx, n);
    err->context[n] = 0;
}

/* PostgreSQL's DETAIL for COPY's NOT NULL refusal, "Failing row contains
 * (null, x, 2020-01-01).": the record at `start` read again, each value
 * as its output function writes it (numbers, dates and the other scalars
 * through their slot, arrays through their encoding; text and the typed
 * texts as they were sent), each cut past 64 bytes as failing_row.h's. */
static void failing_record(chunk *c, const load_job *job, size_t start) {
    const attu_table *base = job->base;
    const attu_csv_options *o = job->opts;
    csv_cursor cur;
    csv_field f;
    bool utf8;
    cursor_at(&cur, job->in, o, start, 0);
    char *b = NULL;
    size_t bl = 0;
    FILE *m = open_memstream(&b, &bl);
    if (!m) { csv_cursor_free(&cur); return; }
    fputs("Failing row contains (", m);
    for (int col = 0; col < base->ncols; col++) {
        if (next_field(o, job->crlf, &cur, &f, &utf8)) break;
        const attu_column_def *def = &base->defs[col];
        bool is_null = o->text_format
            ? f.raw_end - f.raw_start == job->null_len && memcmp(job->in->data + f.raw_start, job->null_string, job->null_len) == 0
            : !f.quoted && f.len == job->null_len && memcmp(f.text, job->null_string, f.len) == 0;
        if (!o->text_format && is_null && o->force_not_null && o->force_not_null[col]) is_null = false;
        else if (!o->text_format && !is_null && o->force_null && o->force_null[col] &&
                 f.len == job->null_len && memcmp(f.text, job->null_string, f.len) == 0) is_null = true;
        if (col) fputs(", ", m);
        if (is_null) { fputs("null", m); continue; }
        char buf[128], slot[32];
        const char *v = f.text;
        size_t len = f.len;
        attu_abuf arr = { 0 }, txt = { 0 };
        attu_error e = { 0 };
        if (attu_type_is_array(def->type)) {
            if (!attu_array_from_text(attu_type_array_elem(def->type), f.text, f.len, &arr, &e) &&
                !attu_array_to_text(attu_type_array_elem(def->type), arr.p ? arr.p : "", arr.len, &txt)) {
                v = txt.p ? txt.p : ""; len = txt.len;
            }
        } else if (attu_type_is_range(def->type)) {
            if (!attu_range_parse(attu_type_range_kind(def->type), f.text, f.len, &arr, &e) &&
                !attu_range_to_text(attu_type_range_kind(def->type), arr.p ? arr.p : "", arr.len, &txt)) {
                v = txt.p ? txt.p : ""; len = txt.len;
            }
        } else if (def->type.id != ATTU_TYPE_TEXT && !attu_type_is_enum(def->type) &&
                   attu_type_width(def->type.id) <= sizeof slot &&
                   !attu_value_parse(def->type, f.text, f.len, slot, &e)) {
            len = attu_value_format(def->type, slot, buf, sizeof buf);
            v = buf;
        }
        size_t cut = len;
        if (cut > 64) {
            cut = 64;
            while (cut > 0 && ((unsigned char)v[cut] & 0xC0) == 0x80) cut--;
        }
        fwrite(v, 1, cut, m);
        if (cut < len) fputs("...", m);
        attu_abuf_free(&arr);
        attu_abuf_free(&txt);
        if (f.end != CSV_END_DELIM) { col++; for (; col < base->ncols; col++) fputs(", null", m); break; }
    }
    fputs(").", m);
    fclose(m);
    csv_cursor_free(&cur);
    if (b) attu_error_set_detail(&c->err, "%s", b);
    free(b);
}

/* A value column `col` could not take: its own message; a file's DETAIL
 * names the column, COPY's keeps the value's DETAIL and HINT and names
 * the column in the CONTEXT. */
static void value_error(chunk *c, const attu_csv_input *in, const csv_field *f, int col, const attu_column_def *def,
                        const attu_error *verr) {
    csv_error(&c->err, verr->sqlstate, in, f->line, (size_t)col + 1, "%s", verr->message);
    if (!in->copy_relation) {
        attu_error_set_detail(&c->err, "column \"%s\"%s%s", def->name, verr->detail[0] ? ": " : "", verr->detail);
        return;
    }
    if (verr->detail[0]) attu_error_set_detail(&c->err, "%s", verr->detail);
    if (verr->hint[0]) attu_error_set_hint(&c->err, verr->hint);
    note_value(c, in, def->name, f->text, f->len, verr);
}

static void parse_chunk(void *ctx, size_t ci) {
    load_job *job = ctx;
    chunk *c = &job->chunks[ci];
    const attu_table *base = job->base;
    const attu_csv_input *in = job->in;
    const attu_csv_options *o = job->opts;
    attu_table *out = job->out;
    int ncols = base->ncols;
    if (c->end <= c->start) return;
    int bad_len = 0;
    size_t bad = c->start + attu_utf8_validate(in->data + c->start, c->end - c->start, &bad_len);
    if (bad >= c->end) bad = SIZE_MAX;

    c->nulls = calloc((size_t)ncols + 1, sizeof *c->nulls);
    c->texts = calloc((size_t)ncols + 1, sizeof *c->texts);
    if (!c->nulls || !c->texts) {
        attu_error_oom(&c->err);
        return;
    }
    /* Slot pointers and widths per column, hoisted out of the row loop. */
    char *slots[ncols > 0 ? ncols : 1];
    size_t widths[ncols > 0 ? ncols : 1];
    for (int i = 0; i < ncols; i++) {
        widths[i] = attu_type_width(base->defs[i].type.id);
        slots[i] = (char *)out->cols[i]->data + c->slot * widths[i];
    }
    csv_cursor cur;
    csv_cursor_init(&cur, in->data, in->size, o->delimiter, o->quote, o->escape);
    cur.pos = c->start;
    cur.line = c->line;
    csv_field f;
    attu_error verr = {0};

    bool check_utf8;
    c->err_row = SIZE_MAX;      /* (the header's, until a record is read) */
    if (c->skip_header) {
        /* The header record: read past it, checking its structure and,
         * for HEADER MATCH, the names as PostgreSQL 15 does: the field
         * count first, then the first field that is NULL or another name */
        int nfields = 0, bad_field = 0;
        char got[128] = "";
        bool got_null = false;
        do {
            int rc = next_field(o, job->crlf, &cur, &f, &check_utf8);
            if (rc) {
                field_error(c, in, &f, cur.line, 1, rc);
                note_record(c, job, &cur, &f, false, c->start);
                goto out;
            }
            if (f.raw_end > bad) {
                encoding_error(&c->err, in, f.line, 1, bad, bad_len);
                c->err_where = WHERE_LINE;
                goto out;
            }
            if (o->header_match && nfields < ncols && !bad_field) {
                bool is_null = o->text_format
                    ? f.raw_end - f.raw_start == job->null_len && memcmp(in->data + f.raw_start, job->null_string, job->null_len) == 0
                    : !f.quoted && f.len == job->null_len && memcmp(f.text, job->null_string, f.len) == 0;
                const char *want = base->defs[nfields].name;
                if (is_null || f.len != strlen(want) || memcmp(f.text, want, f.len)) {
                    bad_field = nfields + 1;
                    got_null = is_null;
                    snprintf(got, sizeof got, "%.*s", (int)(f.len < 127 ? f.len : 127), f.text);
                }
            }
            nfields++;
        } while (f.end == CSV_END_DELIM);
        if (o->header_match && nfields != ncols) {
            csv_error(&c->err, ATTU_SQLSTATE_BAD_COPY_FORMAT, in, 1, 1,
                      "wrong number of fields in header line: got %d, expected %d", nfields, ncols);
            note_record(c, job, &cur, &f, true, c->start);
            goto out;
        }
        if (bad_field && got_null) {
            csv_error(&c->err, ATTU_SQLSTATE_BAD_COPY_FORMAT, in, 1, (size_t)bad_field,
                      "column name mismatch in header line field %d: got null value (\"%s\"), expected \"%s\"",
                      bad_field, job->null_string, base->defs[bad_field - 1].name);
            note_record(c, job, &cur, &f, true, c->start);
            goto out;
        }
        if (bad_field) {
            csv_error(&c->err, ATTU_SQLSTATE_BAD_COPY_FORMAT, in, 1, (size_t)bad_field,
                      "column name mismatch in header line field %d: got \"%s\", expected \"%s\"",
                      bad_field, got, base->defs[bad_field - 1].name);
            note_record(c, job, &cur, &f, true, c->start);
            goto out;
        }
    }

    while (cur.pos < c->end) {
        size_t row = c->rows;
        if (row >= c->cap) {
            /* Cannot happen (a record ends at a newline or at the end of
             * input); refuse rather than write past the columns. */
            attu_error_set(&c->err, ATTU_SQLSTATE_INTERNAL, 0,
                           "%s:%zu: CSV chunk holds more records than lines", in->name, cur.line);
            goto out;
        }
        int col = 0, null_violation = -1;
        size_t rec_start = cur.pos;
        c->err_row = row;
        c->err_start = rec_start;
        c->err_start_line = cur.line;
        for (;;) {
            int rc = next_field(o, job->crlf, &cur, &f, &check_utf8);
            if (rc) {
                field_error(c, in, &f, cur.line, (size_t)col + 1, rc);
                note_record(c, job, &cur, &f, false, rec_start);
                goto out;
            }
            if (f.raw_end > bad) {
                encoding_error(&c->err, in, f.line, (size_t)col + 1, bad, bad_len);
                c->err_where = WHERE_LINE;
                goto out;
            }
            if (check_utf8) {
                /* bytes made by octal / hex escapes: PostgreSQL checks the decoded value */
                int blen = 0;
                size_t at = attu_utf8_validate(f.text, f.len, &blen);
                if (at < f.len || memchr(f.text, 0, f.len)) {
                    const char *z = memchr(f.text, 0, f.len);
                    if (z && (at >= f.len || (size_t)(z - f.text) < at)) { at = (size_t)(z - f.text); blen = 1; }
                    char bytes[32];
                    size_t bn = 0;
                    for (int k = 0; k < blen && at + (size_t)k < f.len; k++)
                        bn += (size_t)snprintf(bytes + bn, sizeof bytes - bn, "%s0x%02x", k ? " " : "", (unsigned char)f.text[at + (size_t)k]);
                    bytes[bn] = '\0';
                    csv_error(&c->err, ATTU_SQLSTATE_CHARACTER_NOT_IN_REPERTOIRE, in, f.line, (size_t)col + 1,
                              "invalid byte sequence for encoding \"UTF8\": %s", bytes);
                    note_record(c, job, &cur, &f, true, rec_start);
                    goto out;
                }
            }
            if (col >= ncols) {
                csv_error(&c->err, ATTU_SQLSTATE_BAD_COPY_FORMAT, in, f.line,
                          (size_t)col + 1, "extra data after last expected column");
                note_record(c, job, &cur, &f, true, rec_start);
                goto out;
            }
            const attu_column_def *def = &base->defs[col];
            size_t w = widths[col];
            void *slot = slots[col] + row * w;
            /* text format: the field as written is compared, so \N is NULL
             * and \\N the text "\N" */
            bool is_null = o->text_format
                ? f.raw_end - f.raw_start == job->null_len && memcmp(in->data + f.raw_start, job->null_string, job->null_len) == 0
                : !f.quoted && f.len == job->null_len && memcmp(f.text, job->null_string, f.len) == 0;
            /* FORCE_NOT_NULL first, as PostgreSQL's NextCopyFrom: an
             * unquoted NULL string is that text; else FORCE_NULL makes a
             * quoted one NULL */
            if (!o->text_format && is_null && o->force_not_null && o->force_not_null[col]) is_null = false;
            else if (!o->text_format && !is_null && o->force_null && o->force_null[col] &&
                     f.len == job->null_len && memcmp(f.text, job->null_string, f.len) == 0) is_null = true;
            if (is_null) {
                /* refused once the record is read, as PostgreSQL checks the
                 * constraint on the formed row: a bad value after it wins */
                if (def->not_null && null_violation < 0) null_violation = col;
                memset(slot, 0, w);
                if (chunk_set_null(c, col, row)) { attu_error_oom(&c->err); goto out; }
            } else if (attu_type_is_array(def->type)) {
                /* an array column's field is PostgreSQL's array literal,
                 * kept encoded (engine/array.h) */
                attu_abuf ab = { 0 };
                verr.set = 0;
                int arc = attu_array_from_text(attu_type_array_elem(def->type), f.text, f.len, &ab, &verr);
                if (arc == 0 && attu_type_array_has_mod(def->type)) {
                    /* char(4)[], numeric(5,2)[]: the modifier as input applies it */
                    attu_abuf m = { 0 };
                    arc = attu_array_apply_mod(def->type, ab.p ? ab.p : "", ab.len, false, &m, &verr);
                    attu_abuf_free(&ab);
                    ab = m;
                }
                if (arc != 0) {
                    attu_abuf_free(&ab);
                    value_error(c, in, &f, col, def, &verr);
                    goto out;
                }
                int64_t id = text_set_id(&c->texts[col], &c->arena, ab.p ? ab.p : "", ab.len);
                attu_abuf_free(&ab);
                if (id < 0) { attu_error_oom(&c->err); goto out; }
                *(int32_t *)slot = (int32_t)id;
            } else if (attu_type_is_range(def->type)) {
                /* a range column's field is PostgreSQL's range literal,
                 * kept encoded (engine/range.h) */
                attu_abuf ab = { 0 };
                verr.set = 0;
                if (attu_range_parse(attu_type_range_kind(def->type), f.text, f.len, &ab, &verr)) {
                    attu_abuf_free(&ab);
                    value_error(c, in, &f, col, def, &verr);
                    goto out;
                }
                int64_t id = text_set_id(&c->texts[col], &c->arena, ab.p ? ab.p : "", ab.len);
                attu_abuf_free(&ab);
                if (id < 0) { attu_error_oom(&c->err); goto out; }
                *(int32_t *)slot = (int32_t)id;
            } else if (attu_type_is_enum(def->type)) {
                /* a label, stored as its image (engine/enum_type.h) */
                const attu_enum_def *ed = job->enums ? job->enums[col] : NULL;
                int li = ed ? attu_enum_label_index(ed, f.text, f.len) : -1;
                if (li < 0) {
                    csv_error(&c->err, ATTU_SQLSTATE_INVALID_TEXT_REP, in, f.line, (size_t)col + 1,
                              "invalid input value for enum %s: \"%.*s\"", ed ? ed->name : "?", (int)(f.len > 200 ? 200 : f.len), f.text);
                    if (in->copy_relation) note_value(c, in, def->name, f.text, f.len, NULL);
                    else attu_error_set_detail(&c->err, "column \"%s\"", def->name);
                    goto out;
                }
                size_t il;
                char *img = attu_enum_image(ed, li, &il);
                if (!img) { attu_error_oom(&c->err); goto out; }
                int64_t id = text_set_id(&c->texts[col], &c->arena, img, il);
                free(img);
                if (id < 0) { attu_error_oom(&c->err); goto out; }
                *(int32_t *)slot = (int32_t)id;
            } else if (attu_type_is_typed_text(def->type)) {
                /* json is validated and kept as written, jsonb, uuid and
                 * bytea made canonical (engine/json.h, uuid.h, bytea.h) */
                char *canon = NULL, ub[ATTU_UUID_TEXT_LEN];
                size_t clen = f.len;
                verr.set = 0;
                int jrc;
                if (attu_type_is_uuid(def->type)) {
                    jrc = attu_uuid_canonical(f.text, f.len, ub, &verr);
                    if (!jrc && !(canon = malloc(ATTU_UUID_TEXT_LEN))) { attu_error_oom(&c->err); goto out; }
                    if (!jrc) { memcpy(canon, ub, ATTU_UUID_TEXT_LEN); clen = ATTU_UUID_TEXT_LEN; }
                } else if (attu_type_is_bytea(def->type))
                    jrc = attu_bytea_canonical(f.text, f.len, &canon, &clen, &verr);
                else if (attu_type_is_jsonpath(def->type))   /* engine/jsonpath.h */
                    jrc = attu_jsonpath_canonical(f.text, f.len, &canon, &clen, &verr);
                else
                    jrc = attu_type_is_jsonb(def->type) ? attu_jsonb_canonical(f.text, f.len, &canon, &clen, &verr)
                                                        : attu_json_validate(f.text, f.len, &verr);
                if (jrc != 0) {
                    value_error(c, in, &f, col, def, &verr);
                    goto out;
                }
                int64_t id = text_set_id(&c->texts[col], &c->arena, canon ? canon : f.text, clen);
                free(canon);
                if (id < 0) { attu_error_oom(&c->err); goto out; }
                *(int32_t *)slot = (int32_t)id;
            } else if (def->type.id == ATTU_TYPE_TEXT) {
                int64_t id = text_set_id(&c->texts[col], &c->arena, f.text, f.len);
                if (id < 0) { attu_error_oom(&c->err); goto out; }
                *(int32_t *)slot = (int32_t)id;
            } else if (fast_parse(def->type, f.text, f.len, slot)) {
                /* stored */
            } else {
                verr.set = 0;   /* all attu_error_set looks at; a full clear costs more than the parse */
                if (attu_value_parse(def->type, f.text, f.len, slot, &verr) != 0) {
                    value_error(c, in, &f, col, def, &verr);
                    goto out;
                }
            }
            col++;
            if (f.end != CSV_END_DELIM) break;
        }
        if (col < ncols) {
            csv_error(&c->err, ATTU_SQLSTATE_BAD_COPY_FORMAT, in, f.line,
                      (size_t)col + 1, "missing data for column \"%s\"",
                      base->defs[col].name);
            note_record(c, job, &cur, &f, true, rec_start);
            goto out;
        }
        if (null_violation >= 0) {
            csv_error(&c->err, ATTU_SQLSTATE_NOT_NULL_VIOLATION, in, f.line, (size_t)null_violation + 1,
                      "null value in column \"%s\" of relation \"%s\" violates not-null constraint",
                      base->defs[null_violation].name, base->name);
            attu_error_set_object(&c->err, base->name, base->defs[null_violation].name, NULL);
            if (in->copy_relation) failing_record(c, job, rec_start);
            note_record(c, job, &cur, &f, true, rec_start);
            goto out;
        }
        c->rows++;
    }
out:
    csv_cursor_free(&cur);
}

/* ---- assembly ------------------------------------------------------------- */

/* Large column arrays: ask for transparent huge pages, which cut the page
 * faults of first touch 512-fold where the kernel allows it. */
static void *alloc_slots(size_t bytes) {
    if (bytes < (8u << 20)) return malloc(bytes ? bytes : 1);
    size_t huge = 2u << 20, rounded = (bytes + huge - 1) / huge * huge;
    void *p = aligned_alloc(huge, rounded);
    if (p) madvise(p, rounded, MADV_HUGEPAGE);
    return p;
}

/* Output columns with room for base's rows plus `bound` more, base's rows
 * copied in (text codes remapped later, once the dictionary is known). */
static attu_table *prepare_output(const attu_table *base, size_t bound, attu_error *err) {
    attu_table *t = attu_table_new(base->name, base->ncols, base->defs, err);
    if (!t) return NULL;
    t->version = base->version + 1;
    size_t cap = base->nrows + bound;
    for (int i = 0; i < base->ncols; i++) {
        attu_column *col = t->cols[i];
        const attu_column *bc = base->cols[i];
        size_t w = attu_type_width(col->type.id);
        void *data = alloc_slots(cap * w);
        if (!data) {
            attu_table_free(t);
            attu_error_oom(err);
            return NULL;
        }
        free(col->data);
        col->data = data;
        col->capacity = cap ? cap : 1;
        if (base->nrows) memcpy(data, bc->data, base->nrows * w);
    }
    return t;
}

/* Per chunk, in parallel: TEXT local ids to final codes, NULL bits. */
static void finish_chunk(void *ctx, size_t ci) {
    load_job *job = ctx;
    chunk *c = &job->chunks[ci];
    attu_table *t = job->out;
    if (!c->rows) return;
    for (int i = 0; i < t->ncols; i++) {
        attu_column *col = t->cols[i];
        const uint64_t *nb = c->nulls[i];
        if (col->type.id == ATTU_TYPE_TEXT) {
            int32_t *dst = (int32_t *)col->data + c->row;
            const int32_t *codes = job->text_codes[i] + job->text_offset[i][ci];
            for (size_t r = 0; r < c->rows; r++)
                dst[r] = (nb && ((nb[r >> 6] >> (r & 63)) & 1)) ? 0 : codes[dst[r]];
        }
        if (nb) {
            /* Rows of neighbouring chunks can share a bitmap word, so this
             * chunk's bits are cleared atomically. */
            for (size_t r = 0; r < c->rows; r++)
                if ((nb[r >> 6] >> (r & 63)) & 1) {
                    size_t row = c->row + r;
                    __atomic_and_fetch(&col->validity[row >> 6], ~(1ULL << (row & 63)),
                                       __ATOMIC_RELAXED);
                }
        }
    }
}

static int assemble(load_job *job, attu_error *err) {
    const attu_table *base = job->base;
    attu_table *t = job->out;
    int ncols = base->ncols;
    /* Close the gaps between chunks (only where records spanned several
     * lines, or a header was skipped, is a chunk's row below its slot). */
    size_t at = base->nrows;
    for (size_t ci = 0; ci < job->nchunks; ci++) {
        chunk *c = &job->chunks[ci];
        c->row = at;
        if (c->rows && c->slot != at)
            for (int i = 0; i < ncols; i++) {
                size_t w = attu_type_width(t->cols[i]->type.id);
                char *d = t->cols[i]->data;
                memmove(d + at * w, d + c->slot * w, c->rows * w);
            }
        at += c->rows;
    }
    size_t nrows = at;
    job->text_codes = calloc((size_t)ncols + 1, sizeof *job->text_codes);
    job->text_offset = calloc((size_t)ncols + 1, sizeof *job->text_offset);
    if (!job->text_codes || !job->text_offset) return attu_error_oom(err);
    for (int i = 0; i < ncols; i++) {
        attu_column *col = t->cols[i];
        const attu_column *bc = base->cols[i];
        col->length = nrows;
        bool any_null = bc->validity != NULL;
        for (size_t ci = 0; ci < job->nchunks; ci++)
            if (job->chunks[ci].nulls && job->chunks[ci].nulls[i]) any_null = true;
        if (any_null && attu_column_ensure_validity(col, err)) return -1;
        if (bc->validity)
            for (size_t r = 0; r < base->nrows; r++)
                if (attu_column_is_null(bc, r)) col->validity[r >> 6] &= ~(1ULL << (r & 63));
        if (col->type.id != ATTU_TYPE_TEXT) continue;
        /* One dictionary for base's strings and every chunk's. */
        size_t nstr = 0;
        job->text_offset[i] = malloc(job->nchunks * sizeof(size_t));
        if (!job->text_offset[i]) return attu_error_oom(err);
        for (size_t ci = 0; ci < job->nchunks; ci++) {
            job->text_offset[i][ci] = nstr;
            if (job->chunks[ci].texts) nstr += job->chunks[ci].texts[i].count;
        }
        const char **strs = malloc((nstr ? nstr : 1) * sizeof *strs);
        size_t *lens = malloc((nstr ? nstr : 1) * sizeof *lens);
        job->text_codes[i] = malloc((nstr ? nstr : 1) * sizeof(int32_t));
        if (!strs || !lens || !job->text_codes[i]) {
            free(strs);
            free(lens);
            return attu_error_oom(err);
        }
        for (size_t ci = 0; ci < job->nchunks; ci++) {
            text_set *ts = job->chunks[ci].texts ? &job->chunks[ci].texts[i] : NULL;
            if (!ts || !ts->count) continue;
            memcpy(strs + job->text_offset[i][ci], ts->strs, ts->count * sizeof *strs);
            memcpy(lens + job->text_offset[i][ci], ts->lens, ts->count * sizeof *lens);
        }
        /* Only the loaded strings are sorted; base's dictionary is merged
         * with them in one walk (or kept, when it holds them all), and
         * base's rows are re-coded only from the first code that moved. */
        int32_t moved = 0, *remap = NULL;
        attu_dictionary *d = attu_dictionary_add(bc->dict, strs, lens, nstr, job->text_codes[i], &moved, &remap, err);
        free(strs);
        free(lens);
        if (!d) return -1;
        col->dict = d;
        int32_t *codes = col->data;
        if (remap)
            for (size_t r = 0; r < base->nrows; r++)
                if (!attu_column_is_null(bc, r) && codes[r] >= moved) codes[r] = remap[codes[r] - moved];
        free(remap);
    }
    attu_parallel_for(job->opts->threads, job->nchunks, finish_chunk, job);
    t->nrows = nrows;
    return 0;
}

/* ---- the load ---------------------------------------------------------------- */

/* The line where data starts: 1, or the line after the header record. */
static size_t first_data_line(const attu_csv_input *in, const attu_csv_options *o, bool crlf) {
    if (!o->header) return 1;
    csv_cursor cur;
    csv_cursor_init(&cur, in->data, in->size, o->delimiter, o->quote, o->escape);
    csv_field f;
    size_t line = 1;
    bool check_utf8;
    for (;;) {
        if (next_field(o, crlf, &cur, &f, &check_utf8) != 0) break;   /* parse_chunk reports it */
        if (f.end != CSV_END_DELIM) { line = cur.line; break; }
    }
    csv_cursor_free(&cur);
    return line;
}

/*
 * attu_csv_split_input for the text format: chunks end at a newline that
 * no backslash escapes (the run of backslashes before it is even). One
 * sequential pass of memchr over the newlines; parsing stays parallel.
 */
static int text_split_input(const attu_csv_input *in, const attu_csv_options *o, attu_csv_split *out, attu_error *err) {
    size_t n = attu_csv_chunk_count(in->size, o->threads);
    if (attu_csv_split_alloc(out, n, err)) return -1;
    const char *d = in->data;
    size_t size = in->size, k = 0, line = 1;
    for (size_t i = 1; i <= n; i++) {
        size_t cut = i < n ? attu_csv_nominal_cut(size, n, i) : size;
        /* count the newlines up to the cut, then find the record end at or after it */
        for (;;) {
            const char *nl = k < size ? memchr(d + k, '\n', size - k) : NULL;
            if (!nl) { k = size; break; }
            size_t at = (size_t)(nl - d);
            if (at < cut || i == n) { line++; k = at + 1; continue; }
            size_t bs = 0;
            while (bs < at && d[at - 1 - bs] == '\\') bs++;
            line++;
            k = at + 1;
            if (!(bs & 1)) break;
        }
        if (i < n) { out->starts[i] = k; out->lines[i] = line; }
    }
    out->end_line = line;
    return 0;
}

/* A COPY's data kept after its load (attu_csv_load_kept): the input as
 * the load read it, and the options it read it with. */
struct attu_csv_kept {
    attu_csv_input in;
    attu_csv_options opts;     /* escape resolved */
    bool crlf;
};

static attu_table *load(const attu_table *base, const attu_csv_options *opts, const attu_csv_source *src,
                        size_t *rows_loaded, attu_error *err, attu_csv_kept **kept);

attu_table *attu_csv_load(const attu_table *base, const attu_csv_options *opts,
                          const attu_csv_source *src, size_t *rows_loaded,
                          attu_error *err) {
    return load(base, opts, src, rows_loaded, err, NULL);
}

attu_table *attu_csv_load_kept(const attu_table *base, const attu_csv_options *opts, const attu_csv_source *src,
                               size_t *rows_loaded, attu_error *err, attu_csv_kept **kept) {
    *kept = NULL;
    return load(base, opts, src, rows_loaded, err, kept);
}

void attu_csv_kept_free(attu_csv_kept *k) {
    if (!k) return;
    attu_csv_input_close(&k->in);
    free(k);
}

void attu_csv_record_context(const attu_csv_kept *k, size_t record, bool with_text, char *buf, size_t cap) {
    const attu_csv_options *o = &k->opts;
    const char *rel = k->in.copy_relation ? k->in.copy_relation : k->in.name;
    csv_cursor cur;
    csv_field f;
    bool utf8;
    cursor_at(&cur, &k->in, o, 0, 1);
    size_t index = 0, first_inner = 0;
    bool first = true, header = o->header;
    snprintf(buf, cap, "COPY %s, line %zu", rel, record + 1 + (header ? 1 : 0));
    while (cur.pos < k->in.size) {
        size_t start = cur.pos, start_line = cur.line;
        int rc;
        do rc = next_field(o, k->crlf, &cur, &f, &utf8);
        while (!rc && f.end == CSV_END_DELIM);
        if (rc) break;
        size_t end_line = f.end == CSV_END_RECORD ? cur.line - 1 : cur.line;
        if (first) first_inner = end_line - start_line;   /* (PostgreSQL counts none of these) */
        first = false;
        if (header) { header = false; continue; }
        if (index++ < record) continue;
        size_t line = o->text_format ? record + 1 + (o->header ? 1 : 0) : end_line - first_inner;
        size_t end = f.raw_end;
        if (end > start && k->in.data[end - 1] == '\r') end--;
        char val[160];
        put_limited(val, sizeof val, k->in.data + start, end - start);
        if (with_text) snprintf(buf, cap, "COPY %s, line %zu: \"%s\"", rel, line, val);
        else snprintf(buf, cap, "COPY %s, line %zu", rel, line);
        break;
    }
    csv_cursor_free(&cur);
}

static attu_table *load(const attu_table *base, const attu_csv_options *opts, const attu_csv_source *src,
                        size_t *rows_loaded, attu_error *err, attu_csv_kept **kept) {
    if (rows_loaded) *rows_loaded = 0;
    if (base->unavailable)
        return attu_error_set(err, ATTU_SQLSTATE_DATA_CORRUPTED, 0, "%s",
                              base->unavailable_reason), NULL;
    if (attu_csv_check_options(opts, err)) return NULL;
    attu_csv_input in;
    if (attu_csv_input_open(&in, opts, src, err)) return NULL;

    attu_csv_options o = *opts;
    if (o.threads <= 0) o.threads = attu_cpu_count();
    if (o.escape == '\0') o.escape = o.quote;   /* "same as quote unless set" */
    load_job job;
    memset(&job, 0, sizeof job);
    job.opts = &o;
    job.null_string = opts->null_string ? opts->null_string : "";
    job.null_len = strlen(job.null_string);
    if (o.text_format) {
        /* the first unescaped line end: CR LF, or LF (bare CRs are LFs by now) */
        size_t k = 0;
        bool cr = false;    /* the byte before k is an unescaped CR */
        while (k < in.size && in.data[k] != '\n') {
            if (in.data[k] == '\\') { k += 2; cr = false; }
            else cr = in.data[k++] == '\r';
        }
        job.crlf = k < in.size && cr;
    }
    job.base = base;
    job.in = &in;

    attu_table *result = NULL;
    attu_csv_split split;
    if (o.text_format ? text_split_input(&in, &o, &split, err) : attu_csv_split_input(&in, &o, &split, err)) goto done;
    job.nchunks = split.count;
    job.chunks = calloc(split.count ? split.count : 1, sizeof *job.chunks);
    if (!job.chunks) { attu_error_oom(err); attu_csv_split_free(&split); goto done; }
    /* Rows are parsed straight into the output columns: chunk i's records
     * start no earlier than the count of lines before it (a record takes at
     * least one line), so slot = base rows + lines before chunk i (minus
     * the header's) never overlaps the chunk before it. */
    size_t data_line = first_data_line(&in, &o, job.crlf);
    for (size_t i = 0; i < split.count; i++) {
        chunk *c = &job.chunks[i];
        c->start = split.starts[i];
        c->end = i + 1 < split.count ? split.starts[i + 1] : in.size;
        c->line = split.lines[i];
        c->skip_header = i == 0 && o.header;
        size_t from = c->line > data_line ? c->line : data_line;
        size_t to = i + 1 < split.count ? split.lines[i + 1] : split.end_line + 1;
        c->cap = to > from ? to - from : 0;   /* the last may end without a newline */
        c->slot = base->nrows + (from - data_line);
    }
    size_t bound = split.end_line + 1 - data_line;
    attu_csv_split_free(&split);
    job.out = prepare_output(base, bound, err);
    if (!job.out) goto done;

    for (int i = 0; i < base->ncols; i++) {
        if (!attu_type_is_enum(base->defs[i].type)) continue;
        if (!job.enums && !(job.enums = calloc((size_t)base->ncols, sizeof *job.enums))) { attu_error_oom(err); goto done; }
        job.enums[i] = attu_enum_find_id(attu_type_enum_id(base->defs[i].type));
    }
    attu_parallel_for(o.threads, job.nchunks, parse_chunk, &job);
    for (size_t i = 0; i < job.nchunks; i++) {
        if (job.chunks[i].err.set) {
            if (err && !err->set) {
                *err = job.chunks[i].err;
                copy_context(&job, i, err);
            }
            goto done;
        }
    }
    if (assemble(&job, err) == 0) {
        result = job.out;
        job.out = NULL;
        attu_table_note_append(result, base);   /* (base's rows copied in first, unchanged) */
        if (rows_loaded) *rows_loaded = result->nrows - base->nrows;
    }
done:
    for (int i = 0; job.enums && i < base->ncols; i++) attu_enum_def_free(job.enums[i]);
    free(job.enums);
    attu_table_free(job.out);
    for (size_t i = 0; i < job.nchunks; i++) chunk_free(&job.chunks[i], base->ncols);
    free(job.chunks);
    for (int i = 0; i < base->ncols; i++) {
        if (job.text_codes) free(job.text_codes[i]);
        if (job.text_offset) free(job.text_offset[i]);
    }
    free(job.text_codes);
    free(job.text_offset);
    if (result && kept && (*kept = malloc(sizeof **kept))) {
        (*kept)->in = in;
        (*kept)->opts = o;
        (*kept)->crlf = job.crlf;
        return result;
    }
    attu_csv_input_close(&in);
    return result;
}
