/*
 * db_copy_binary.c - COPY's binary format (FORMAT binary), PostgreSQL's:
 *
 *   the 11-byte signature "PGCOPY\n\377\r\n\0", an int32 flags field (bit
 *   16: WITH OIDS, refused; the other high 16 bits are critical flags, the
 *   low 16 ignored), an int32 header extension length and that many bytes;
 *   then per tuple an int16 field count and per field an int32 length (-1
 *   for NULL) and the type's send/recv form; the trailer is a field count
 *   of -1. Integers are big-endian.
 *
 * The values' binary forms are the wire protocol's: the server's send and
 * recv code (server/pgwire_*), reached through the exec callbacks, serves
 * Bind parameters, binary results and COPY alike. In: every field becomes
 * the text its type's input reads, written as a line of COPY's text format,
 * and the whole goes through the text loader (db_copy.c), so a load keeps
 * every rule of the other formats (defaults of the unlisted columns,
 * constraints, atomicity). Out: the header, one tuple per row, the trailer,
 * to the client or into a file (db_copy_out.c).
 *
 * The errors are CopyReadBinaryAttribute's and ReceiveCopyBinaryHeader's
 * (22P04), with the CONTEXT PostgreSQL's COPY error callback writes: "COPY
 * t, line N, column c" while a field is read, "COPY t, line N" for a
 * tuple's field count; the header's errors have none.
 */
#include "db/db_internal.h"
#include "db/db_copy_binary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/strbuf.h"

static const char copy_signature[11] = { 'P', 'G', 'C', 'O', 'P', 'Y', '\n', '\377', '\r', '\n', '\0' };

static int32_t get_be32(const unsigned char *u) {
    return (int32_t)(((uint32_t)u[0] << 24) | ((uint32_t)u[1] << 16) | ((uint32_t)u[2] << 8) | u[3]);
}

static int bad_format(attu_error *err, const char *msg) {
    return attu_error_set(err, ATTU_SQLSTATE_BAD_COPY_FORMAT, 0, "%s", msg);
}

/* The CONTEXT line of an error raised at tuple `line` (column col, or -1). */
static int with_context(attu_error *err, const char *rel, size_t line, const char *col) {
    char ctx[256];
    if (col) snprintf(ctx, sizeof ctx, "COPY %s, line %zu, column %s", rel, line, col);
    else snprintf(ctx, sizeof ctx, "COPY %s, line %zu", rel, line);
    attu_error_set_context(err, ctx);
    return -1;
}

/* One value in COPY's text format: the bytes that format escapes (the
 * backslash, the tab delimiter and the line ends) get their escape. */
static void put_text_field(attu_strbuf *b, const char *s) {
    for (; *s; s++) {
        const char *esc = *s == '\\' ? "\\\\" : *s == '\t' ? "\\t" : *s == '\n' ? "\\n" : *s == '\r' ? "\\r" : NULL;
        if (esc) attu_strbuf_add(b, esc, 2);
        else attu_strbuf_add(b, s, 1);
    }
}

int db_copy_binary_to_text(const attu_table *t, const char *rel, const attu_exec_callbacks *cb,
                           const char *data, size_t n, attu_strbuf *text, attu_error *err) {
    const unsigned char *u = (const unsigned char *)data;
    size_t off = 0;
    if (n < sizeof copy_signature || memcmp(data, copy_signature, sizeof copy_signature))
        return bad_format(err, "COPY file signature not recognized");
    off = sizeof copy_signature;
    if (n - off < 4) return bad_format(err, "invalid COPY file header (missing flags)");
    int32_t flags = get_be32(u + off);
    off += 4;
    if (flags & (1 << 16)) return bad_format(err, "invalid COPY file header (WITH OIDS)");
    if (((uint32_t)flags & ~(UINT32_C(1) << 16)) >> 16) return bad_format(err, "unrecognized critical flags in COPY file header");
    if (n - off < 4) return bad_format(err, "invalid COPY file header (missing length)");
    int32_t ext = get_be32(u + off);
    off += 4;
    if (ext < 0) return bad_format(err, "invalid COPY file header (missing length)");
    if ((size_t)ext > n - off) return bad_format(err, "invalid COPY file header (wrong length)");
    off += (size_t)ext;

    for (size_t line = 1;; line++) {
        /* a field count cut short ends the data, as PostgreSQL reads it */
        if (n - off < 2) break;
        int16_t count = (int16_t)(((uint16_t)u[off] << 8) | u[off + 1]);
        off += 2;
        if (count == -1) {
            if (off < n) {
                bad_format(err, "received copy data after EOF marker");
                return with_context(err, rel, line, NULL);
            }
            break;
        }
        if (count != t->ncols) {
            attu_error_set(err, ATTU_SQLSTATE_BAD_COPY_FORMAT, 0, "row field count is %d, expected %d", count, t->ncols);
            return with_context(err, rel, line, NULL);
        }
        for (int c = 0; c < t->ncols; c++) {
            const char *col = t->defs[c].name;
            if (c) attu_strbuf_putc(text, '\t');
            if (n - off < 4) {
                bad_format(err, "unexpected EOF in COPY data");
                return with_context(err, rel, line, col);
            }
            int32_t len = get_be32(u + off);
            off += 4;
            if (len == -1) { attu_strbuf_add(text, "\\N", 2); continue; }
            if (len < 0) {
                bad_format(err, "invalid field size");
                return with_context(err, rel, line, col);
            }
            if ((size_t)len > n - off) {
                bad_format(err, "unexpected EOF in COPY data");
                return with_context(err, rel, line, col);
            }
            char *v = cb->copy_binary_recv(cb->ctx, attu_type_pg_oid(t->defs[c].type), data + off, len, err);
            off += (size_t)len;
            if (!v) return with_context(err, rel, line, col);
            put_text_field(text, v);
            free(v);
        }
        attu_strbuf_putc(text, '\n');
        if (attu_strbuf_check(text, err)) return -1;
    }
    return attu_strbuf_check(text, err);
}

int db_copy_binary_send(const attu_result *res, const attu_exec_callbacks *cb, db_copy_out *out, attu_error *err) {
    /* the header: signature, no flags, no extension (sent with the first
     * tuple, or the trailer, as PostgreSQL sends it) */
    char head[sizeof copy_signature + 8];
    memcpy(head, copy_signature, sizeof copy_signature);
    memset(head + sizeof copy_signature, 0, 8);
    int rc = db_copy_out_prefix(out, head, sizeof head, err);
    for (size_t r = 0; !rc && r < res->nrows; r++) {
        const char *tuple = NULL;
        size_t len = 0;
        if (cb->copy_binary_tuple(cb->ctx, res, r, &tuple, &len)) rc = attu_error_oom(err);
        else rc = db_copy_out_put(out, tuple, len, err);
    }
    static const char trailer[2] = { '\377', '\377' };
    return rc ? rc : db_copy_out_put(out, trailer, sizeof trailer, err);
}
