/*
 * db_copy.c - COPY FROM (a server file or STDIN, through the CSV reader)
 * and COPY TO (CSV or text, to the client or a server file through
 * db_copy_out.c); the binary format's own part is db_copy_binary.c.
 */
#include "db/db_internal.h"
#include "db/db_generated.h"
#include "db/db_check.h"
#include "db/db_copy_binary.h"
#include "db/db_copy_out.h"
#include "db/db_fkey.h"
#include "db/db_unique.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/csv_reader.h"
#include "engine/strbuf.h"
#include "engine/storage.h"

typedef struct copy_opts {
    attu_csv_options csv;
    bool csv_format;
    bool binary;          /* FORMAT binary (db_copy_binary.c) */
    /* CSV: FORCE_QUOTE (cols) or *, FORCE_NOT_NULL (cols), FORCE_NULL
     * (cols) as written; resolved against the columns by force_columns */
    const attu_ast_option *force_quote, *force_not_null, *force_null;
    bool force_quote_all;
} copy_opts;

/* HEADER's value, as PostgreSQL's defGetCopyHeaderChoice: 1 true, 0
 * false, 2 match, -1 anything else. */
static int header_choice(const char *v) {
    if (!v) return 1;
    if (!strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "1") || !strcmp(v, "yes")) return 1;
    if (!strcmp(v, "false") || !strcmp(v, "off") || !strcmp(v, "0") || !strcmp(v, "no")) return 0;
    if (!strcmp(v, "match")) return 2;
    return -1;
}

/* PostgreSQL's encoding names (pg_enc2name_tbl and its aliases, compared
 * as pg_char_to_encoding does: case and punctuation aside); k gets the
 * name so cleaned. */
static bool pg_encoding_name(const char *v, char k[32]) {
    static const char *const names[] = {
        "sqlascii", "eucjp", "euccn", "euckr", "euctw", "eucjis2004", "utf8", "unicode", "muleinternal",
        "latin1", "latin2", "latin3", "latin4", "latin5", "latin6", "latin7", "latin8", "latin9", "latin10",
        "win1256", "win1258", "win866", "win874", "koi8r", "koi8", "win1251", "win1252", "iso88595", "iso88596",
        "iso88597", "iso88598", "win1250", "win1253", "win1254", "win1255", "win1257", "koi8u", "sjis",
        "big5", "gbk", "uhc", "gb18030", "johab", "shiftjis2004", "alt", "win", "mskanji", "shiftjis", "tcvn",
        "tcvn5712", "vscii", "windows866", "windows874", "windows1250", "windows1251", "windows1252",
        "windows1253", "windows1254", "windows1255", "windows1256", "windows1257", "windows1258", "abc",
        "iso88591", "iso88592", "iso88593", "iso88594", "iso88599", "iso885910", "iso885913", "iso885914",
        "iso885915", "iso885916", "cp866", "cp874", "cp936", "cp949", "cp950", "cp1250", "cp1251", "cp1252",
        "cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp1258", NULL };
    size_t n = 0;
    for (const char *p = v; *p && n + 1 < 32; p++)
        if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) k[n++] = *p;
        else if (*p >= 'A' && *p <= 'Z') k[n++] = (char)(*p - 'A' + 'a');
    k[n] = 0;
    for (int i = 0; names[i]; i++) if (!strcmp(k, names[i])) return true;
    return false;
}

static int parse_opts(const attu_ast_stmt *st, copy_opts *o, attu_error *err) {
    memset(o, 0, sizeof *o);
    attu_csv_options_default(&o->csv);
    bool is_from = st->u.copy.is_from;
    bool null_set = false, delim_set = false;
    const attu_ast_option *quote_opt = NULL, *escape_opt = NULL;    /* CSV only */
    const attu_ast_option *delim_opt = NULL, *null_opt = NULL, *header_opt = NULL;
    const attu_ast_option *format_opt = NULL, *encoding_opt = NULL, *freeze_opt = NULL;
    for (int i = 0; i < st->u.copy.noptions; i++) {
        const attu_ast_option *op = &st->u.copy.options[i];
        const char *v = op->value;
        const attu_ast_option **seen = !strcmp(op->name, "format") || !strcmp(op->name, "csv") ? &format_opt
                                     : !strcmp(op->name, "header") ? &header_opt
                                     : !strcmp(op->name, "delimiter") ? &delim_opt
                                     : !strcmp(op->name, "null") ? &null_opt
                                     : !strcmp(op->name, "quote") ? &quote_opt
                                     : !strcmp(op->name, "escape") ? &escape_opt
                                     : !strcmp(op->name, "encoding") ? &encoding_opt
                                     : !strcmp(op->name, "freeze") ? &freeze_opt
                                     : !strcmp(op->name, "force_quote") ? &o->force_quote
                                     : !strcmp(op->name, "force_not_null") ? &o->force_not_null
                                     : !strcmp(op->name, "force_null") ? &o->force_null : NULL;
        if (!seen) return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, op->position, "option \"%s\" not recognized", op->name);
        if (*seen) return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, op->position, "conflicting or redundant options");
        *seen = op;
        if (op->list.n && strncmp(op->name, "force_", 6))
            return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, op->position, "syntax error at or near \"(\"");
        if (!strcmp(op->name, "format")) {
            if (v && !strcmp(v, "csv")) o->csv_format = true;
            else if (v && !strcmp(v, "text")) o->csv_format = false;
            else if (v && !strcmp(v, "binary")) o->binary = true;
            else return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, op->value_position ? op->value_position : op->position,
                                       "COPY format \"%s\" not recognized", v ? v : "");
        } else if (!strcmp(op->name, "csv")) o->csv_format = true;
        else if (!strcmp(op->name, "header")) {
            int h = header_choice(v);
            if (h < 0) return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, op->position, "header requires a Boolean value or \"match\"");
            if (h == 2 && !is_from)
                return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, op->position, "cannot use \"match\" with HEADER in COPY TO");
            o->csv.header = h != 0;
            o->csv.header_match = h == 2;
            if (!h) header_opt = NULL;    /* HEADER false is no header, even in binary mode */
        } else if (!strcmp(op->name, "delimiter")) {
            if (!v || strlen(v) != 1) continue;    /* refused below, after the BINARY check */
            o->csv.delimiter = v[0]; delim_set = true;
        } else if (!strcmp(op->name, "null")) { o->csv.null_string = v ? v : ""; null_set = true; }
        else if (!strcmp(op->name, "quote")) {
            if (!v || strlen(v) != 1) return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, op->position, "COPY quote must be a single one-byte character");
            o->csv.quote = v[0];
            if (!escape_opt) o->csv.escape = v[0];
        } else if (!strcmp(op->name, "escape")) {
            if (!v || strlen(v) != 1) return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, op->position, "COPY escape must be a single one-byte character");
            o->csv.escape = v[0];
        } else if (!strcmp(op->name, "encoding")) {
            char k[32];
            if (!v || !pg_encoding_name(v, k))
                return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, op->position,
                                      "argument to option \"encoding\" must be a valid encoding name");
            if (!strcmp(k, "utf8") || !strcmp(k, "unicode")) o->csv.encoding = ATTU_ENCODING_UTF8;
            /* LATIN1 is converted on the way in only: TO writes UTF-8 */
            else if ((!strcmp(k, "latin1") || !strcmp(k, "iso88591")) && is_from) o->csv.encoding = ATTU_ENCODING_LATIN1;
            else return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, op->value_position ? op->value_position : op->position,
                                       "COPY ENCODING \"%s\" is not supported (attu reads UTF8 and LATIN1, writes UTF8)", v);
        } else if (!strcmp(op->name, "force_quote")) {
            if (v && !strcmp(v, "*")) o->force_quote_all = true;
            else if (!op->list.n)
                return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, op->position, "argument to option \"%s\" must be a list of column names", op->name);
        } else if (!strcmp(op->name, "force_not_null") || !strcmp(op->name, "force_null")) {
            if (!op->list.n)
                return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, op->position, "argument to option \"%s\" must be a list of column names", op->name);
        }
        /* freeze: accepted, no effect */
    }
    /* PostgreSQL's ProcessCopyOptions, in its order */
    if (o->binary && delim_opt) return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "cannot specify DELIMITER in BINARY mode");
    if (o->binary && null_opt) return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "cannot specify NULL in BINARY mode");
    if (delim_opt && !delim_set)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "COPY delimiter must be a single one-byte character");
    if (o->binary && header_opt) return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "cannot specify HEADER in BINARY mode");
    if (!o->csv_format && quote_opt)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, quote_opt->position, "COPY quote available only in CSV mode");
    if (!o->csv_format && escape_opt)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, escape_opt->position, "COPY escape available only in CSV mode");
    if (!o->csv_format && o->force_quote)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "COPY force quote available only in CSV mode");
    if (o->force_quote && is_from)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "COPY force quote only available using COPY TO");
    if (!o->csv_format && o->force_not_null)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "COPY force not null available only in CSV mode");
    if (o->force_not_null && !is_from)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "COPY force not null only available using COPY FROM");
    if (!o->csv_format && o->force_null)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "COPY force null available only in CSV mode");
    if (o->force_null && !is_from)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "COPY force null only available using COPY FROM");
    if (!o->csv_format) {
        o->csv.text_format = true;     /* backslash escapes, no quoting */
        if (!delim_set) o->csv.delimiter = '\t';
        if (!null_set) o->csv.null_string = "\\N";
    }
    return 0;
}

/* A FORCE_* option's columns among the COPY's columns (names[0..n): the
 * listed ones, or all of the table's or query's): out[i] set for each.
 * PostgreSQL's errors: a name the table (or query) lacks is 42703, one
 * the column list leaves out 42P10. */
static int force_columns(const attu_ast_option *op, const char *rel, const char *const *all, int nall,
                         const char *const *names, int n, bool *out, attu_error *err) {
    const char *label = !strcmp(op->name, "force_quote") ? "FORCE_QUOTE" : !strcmp(op->name, "force_null") ? "FORCE_NULL" : "FORCE_NOT_NULL";
    for (int k = 0; k < op->list.n; k++) {
        const char *want = op->list.items[k];
        bool known = false;
        for (int j = 0; j < nall && !known; j++) known = !strcmp(all[j], want);
        if (!known) {
            if (rel) return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, 0, "column \"%s\" of relation \"%s\" does not exist", want, rel);
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, 0, "column \"%s\" does not exist", want);
        }
        int at = -1;
        for (int j = 0; j < n && at < 0; j++) if (!strcmp(names[j], want)) at = j;
        if (at < 0) return attu_error_set(err, "42P10", 0, "%s column \"%s\" not referenced by COPY", label, want);
        out[at] = true;
    }
    return 0;
}

static int resolve_path(attu_session *s, const char *file, char *out, size_t cap, attu_error *err) {
    const char *dir = s->db->load_dir;
    if (!dir) { snprintf(out, cap, "%s", file); return 0; }
    char joined[PATH_MAX];
    if (file[0] == '/') snprintf(joined, sizeof joined, "%s", file);
    else snprintf(joined, sizeof joined, "%s/%s", dir, file);
    char rdir[PATH_MAX], rfile[PATH_MAX];
    if (!realpath(dir, rdir)) return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_FILE, 0, "load directory \"%s\" does not exist", dir);
    if (!realpath(joined, rfile))
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_FILE, 0, "could not open file \"%s\" for reading: No such file or directory", file);
    size_t n = strlen(rdir);
    if (strncmp(rfile, rdir, n) || (rfile[n] != '/' && rfile[n] != 0))
        return attu_error_set(err, ATTU_SQLSTATE_INSUFFICIENT_PRIVILEGE, 0, "could not open file \"%s\": outside the load directory", file);
    snprintf(out, cap, "%s", rfile);
    return 0;
}

typedef struct stdin_ctx { const attu_exec_callbacks *cb; } stdin_ctx;
static ssize_t read_stdin(void *ctx, char *buf, size_t cap, attu_error *err) {
    stdin_ctx *c = ctx;
    return c->cb->copy_in_read(c->cb->ctx, buf, cap, err);
}

/* FORMAT binary's lines of text, handed to the text loader as they were a
 * client's data. */
typedef struct text_ctx { const char *p; size_t n, off; } text_ctx;
static ssize_t read_text(void *ctx, char *buf, size_t cap, attu_error *err) {
    (void)err;
    text_ctx *t = ctx;
    size_t k = t->n - t->off < cap ? t->n - t->off : cap;
    memcpy(buf, t->p + t->off, k);
    t->off += k;
    return (ssize_t)k;
}

/* All of a source's bytes (the file, or the client's data) in *out. */
static int read_all(const attu_csv_source *src, attu_strbuf *out, attu_error *err) {
    FILE *f = NULL;
    if (src->path && !(f = fopen(src->path, "rb")))
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_FILE, 0, "could not open file \"%s\" for reading", src->display_name);
    char buf[65536];
    for (;;) {
        ssize_t n = f ? (ssize_t)fread(buf, 1, sizeof buf, f) : src->read(src->ctx, buf, sizeof buf, err);
        if (n < 0 || (f && n == 0 && ferror(f))) {
            if (f) { fclose(f); attu_error_set(err, ATTU_SQLSTATE_IO_ERROR, 0, "could not read from COPY file"); }
            return -1;
        }
        if (n == 0) break;
        if (attu_strbuf_add(out, buf, (size_t)n)) { if (f) fclose(f); return attu_error_oom(err); }
    }
    if (f) fclose(f);
    return 0;
}

/* Byte offset of character `nch` of UTF-8 text s (len bytes), or len. */
static size_t utf8_prefix(const char *s, size_t len, int64_t nch) {
    size_t i = 0;
    for (int64_t k = 0; k < nch && i < len; k++) {
        i++;
        while (i < len && ((unsigned char)s[i] & 0xC0) == 0x80) i++;
    }
    return i;
}

/* varchar(n) / char(n) columns of the rows COPY added (from row `first`):
 * 22001 for a value longer than n characters unless the excess is spaces,
 * which are cut, as PostgreSQL's assignment does; a char(n) value loses
 * its trailing spaces, as every char(n) value is stored (engine/types.h). */
static int check_char_limits(attu_table *t, size_t first, attu_error *err) {
    for (int c = 0; c < t->ncols; c++) {
        attu_column *col = t->cols[c];
        attu_type ty = t->defs[c].type;
        if (ty.id != ATTU_TYPE_TEXT || ty.precision <= 0 || attu_type_is_array(ty) || !col->dict) continue;
        size_t n = t->nrows, ntrim = 0;
        int32_t *codes = col->data;
        const char **strs = NULL;
        size_t *lens = NULL, *rows = NULL;
        for (size_t r = first; r < n; r++) {
            if (attu_column_is_null(col, r)) continue;
            size_t len, cut;
            const char *v = attu_dictionary_get(col->dict, codes[r], &len);
            cut = utf8_prefix(v, len, ty.precision);
            for (size_t k = cut; k < len; k++)
                if (v[k] != ' ') {
                    free(strs); free(lens); free(rows);
                    return attu_error_set(err, "22001", 0, "value too long for type %s(%d)",
                                          ty.scale ? "character" : "character varying", ty.precision);
                }
            /* char(n) keeps no trailing spaces (engine/types.h) */
            if (attu_type_is_bpchar(ty)) while (cut > 0 && v[cut - 1] == ' ') cut--;
            if (cut == len) continue;
            if (!strs) {
                strs = malloc(sizeof *strs * (n - first));
                lens = malloc(sizeof *lens * (n - first));
                rows = malloc(sizeof *rows * (n - first));
                if (!strs || !lens || !rows) { free(strs); free(lens); free(rows); return attu_error_oom(err); }
            }
            strs[ntrim] = v; lens[ntrim] = cut; rows[ntrim++] = r;
        }
        if (!ntrim) continue;
        /* every code is remapped below, the old rows' too: a column that
         * shares its old rows with the version COPY appended to
         * (attu_column_append_version) takes a copy of its own first */
        if (col->store) {
            attu_column *own = attu_column_clone(col, err);
            if (!own) { free(strs); free(lens); free(rows); return -1; }
            attu_column_free(col);
            t->cols[c] = col = own;
            codes = col->data;
        }
        /* the trimmed values join the dictionary; every code is remapped */
        int32_t *remap = malloc(sizeof(int32_t) * ((size_t)col->dict->count + 1));
        int32_t *newc = malloc(sizeof(int32_t) * ntrim);
        attu_dictionary *d = remap && newc ? attu_dictionary_merge(col->dict, strs, lens, ntrim, remap, newc, err) : NULL;
        if (d) {
            for (size_t r = 0; r < n; r++) if (!attu_column_is_null(col, r)) codes[r] = remap[codes[r]];
            for (size_t i = 0; i < ntrim; i++) codes[rows[i]] = newc[i];
            attu_dictionary_unref(col->dict);
            col->dict = d;
        } else if (!err->set) attu_error_oom(err);
        free(remap); free(newc); free(strs); free(lens); free(rows);
        if (!d) return -1;
    }
    return 0;
}

static int copy_from(attu_session *s, const attu_ast_stmt *st, const copy_opts *o, const attu_exec_callbacks *cb, attu_error *err) {
    char path[PATH_MAX];
    stdin_ctx sc = { cb };
    attu_csv_source src;
    memset(&src, 0, sizeof src);
    if (st->u.copy.target == ATTU_COPY_FILE) {
        if (resolve_path(s, st->u.copy.filename, path, sizeof path, err)) { err->position = st->u.copy.filename_position; return -1; }
        src.path = path;
        src.display_name = st->u.copy.filename;
    } else {
        if (!cb || !cb->copy_in_read) return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, st->position, "COPY FROM STDIN is not possible here");
        src.read = read_stdin;
        src.ctx = &sc;
        src.display_name = "STDIN";
    }
    db_write_lock(s);
    attu_table *base = attu_catalog_lookup(db_cat(s), st->u.copy.table);
    if (!base && attu_views_find(attu_catalog_views(db_cat(s)), st->u.copy.table)) {
        pthread_rwlock_unlock(&s->db->lock);
        attu_error_set(err, "42809", 0, "cannot copy to view \"%s\"", st->u.copy.table);
        attu_error_set_hint(err, "To enable copying to a view, provide an INSTEAD OF INSERT trigger.");
        return -1;
    }
    if (!base) {
        pthread_rwlock_unlock(&s->db->lock);
        return db_no_such_table(s, st->u.copy.table, st->u.copy.table_position, err);
    }
    /* a column list: load those columns into a scratch table, then append
     * its rows with the other columns set to their DEFAULT, or NULL */
    attu_table *scratch = NULL;
    int *map = NULL;
    /* (no column list over a table with generated columns: the others,
     * as PostgreSQL's COPY reads them; db_generated.c computes those) */
    bool gen_list = !st->u.copy.columns.n && db_generated_any(base);
    if (st->u.copy.columns.n || gen_list) {
        int nc = st->u.copy.columns.n;
        if (gen_list)
            for (int c = 0; c < base->ncols; c++) nc += !base->defs[c].generated;
        attu_column_def *defs = calloc((size_t)nc + 1, sizeof *defs);
        map = malloc(sizeof(int) * ((size_t)base->ncols + 1));
        if (!defs || !map) { free(defs); free(map); pthread_rwlock_unlock(&s->db->lock); return attu_error_oom(err); }
        for (int c = 0; c < base->ncols; c++) map[c] = -1;
        for (int i = 0, next = 0; i < nc; i++) {
            int c;
            if (gen_list) {
                while (base->defs[next].generated) next++;
                c = next++;
            } else c = attu_table_find_column(base, st->u.copy.columns.items[i]);
            if (c >= 0 && map[c] < 0 && base->defs[c].generated) {
                attu_error_set(err, "42P10", 0, "column \"%s\" is a generated column", base->defs[c].name);
                attu_error_set_detail(err, "Generated columns cannot be used in COPY.");
                free(defs); free(map); pthread_rwlock_unlock(&s->db->lock);
                return -1;
            }
            if (c < 0 || map[c] >= 0) {
                if (c < 0) attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, st->u.copy.columns.positions ? st->u.copy.columns.positions[i] : st->position,
                                          "column \"%s\" of relation \"%s\" does not exist", st->u.copy.columns.items[i], base->name);
                else attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_COLUMN, st->position, "column \"%s\" specified more than once", base->defs[c].name);
                free(defs); free(map); pthread_rwlock_unlock(&s->db->lock);
                return -1;
            }
            map[c] = i;
            defs[i] = base->defs[c];
            defs[i].not_null = false;
        }
        scratch = attu_table_new(base->name, nc, defs, err);
        free(defs);
        if (!scratch) { free(map); pthread_rwlock_unlock(&s->db->lock); return -1; }
    }
    size_t rows = 0;
    attu_table *t = NULL;
    attu_csv_kept *kept = NULL;       /* the data read, for a later error's CONTEXT */
    bool kept_text = true;
    /* FORCE_NOT_NULL / FORCE_NULL: flags over the loaded columns */
    attu_csv_options copts = o->csv;
    copts.copy_relation = base->name;     /* PostgreSQL's messages and CONTEXT lines */
    const attu_table *loaded = scratch ? scratch : base;
    bool *fnn = NULL, *fn = NULL;
    if (o->force_not_null || o->force_null) {
        const char **all = malloc(sizeof *all * ((size_t)base->ncols + 1)), **names = malloc(sizeof *names * ((size_t)loaded->ncols + 1));
        fnn = calloc((size_t)loaded->ncols + 1, sizeof *fnn);
        fn = calloc((size_t)loaded->ncols + 1, sizeof *fn);
        int frc = all && names && fnn && fn ? 0 : attu_error_oom(err);
        for (int c = 0; !frc && c < base->ncols; c++) all[c] = base->defs[c].name;
        for (int c = 0; !frc && c < loaded->ncols; c++) names[c] = loaded->defs[c].name;
        if (!frc && o->force_not_null) frc = force_columns(o->force_not_null, base->name, all, base->ncols, names, loaded->ncols, fnn, err);
        if (!frc && o->force_null) frc = force_columns(o->force_null, base->name, all, base->ncols, names, loaded->ncols, fn, err);
        free(all); free(names);
        if (frc) {
            free(fnn); free(fn); attu_table_free(scratch); free(map);
            pthread_rwlock_unlock(&s->db->lock);
            return -1;
        }
        copts.force_not_null = fnn;
        copts.force_null = fn;
    }
    if (st->u.copy.target == ATTU_COPY_STDIN && cb->copy_in_begin && cb->copy_in_begin(cb->ctx, loaded->ncols, o->binary)) {
        free(fnn); free(fn); attu_table_free(scratch); free(map);
        pthread_rwlock_unlock(&s->db->lock);
        return -2;
    }
    if (o->binary) {
        /* the binary data as lines of the text format, then as text */
        attu_strbuf raw = { 0 }, text = { 0 };
        attu_csv_options topts;
        attu_csv_options_default(&topts);
        topts.text_format = true;
        topts.delimiter = '\t';
        topts.null_string = "\\N";
        topts.copy_relation = base->name;
        if (read_all(&src, &raw, err)) {
            /* the client's CopyFail (or a cancel): PostgreSQL, reading as
             * the data comes, names the tuple it was waiting for */
            attu_error scratch_err;
            memset(&scratch_err, 0, sizeof scratch_err);
            if (!db_copy_binary_to_text(loaded, base->name, cb, raw.p ? raw.p : "", raw.n, &text, &scratch_err) ||
                scratch_err.context[0]) {    /* past the header (whose errors have no CONTEXT) */
                size_t lines = 1;
                for (size_t k = 0; k < text.n; k++) lines += text.p[k] == '\n';
                char ctx[256];
                snprintf(ctx, sizeof ctx, "COPY %s, line %zu", base->name, lines);
                attu_error_set_context(err, ctx);
            }
        } else if (!db_copy_binary_to_text(loaded, base->name, cb, raw.p ? raw.p : "", raw.n, &text, err)) {
            text_ctx tc = { text.p ? text.p : "", text.n, 0 };
            attu_csv_source tsrc = { .read = read_text, .ctx = &tc, .display_name = src.display_name };
            t = attu_csv_load_kept(scratch ? scratch : base, &topts, &tsrc, &rows, err, &kept);
            kept_text = false;   /* (a binary tuple has no text to show) */
        }
        attu_strbuf_free(&raw);
        attu_strbuf_free(&text);
    } else t = attu_csv_load_kept(scratch ? scratch : base, &copts, &src, &rows, err, &kept);
    free(fnn);
    free(fn);
    if (t && scratch) {
        attu_result *dres = NULL;
        attu_column **src = NULL;
        attu_table *full = NULL;
        if (!db_eval_defaults(s, base, map, scratch->ncols, t->nrows, &dres, err)) {
            if (dres && (src = calloc((size_t)(scratch->ncols + dres->ncols) + 1, sizeof *src))) {
                for (int i = 0; i < scratch->ncols; i++) src[i] = t->cols[i];
                for (int i = 0; i < dres->ncols; i++) src[scratch->ncols + i] = dres->cols[i];
            }
            if (dres && !src) attu_error_oom(err);
            else full = db_append_rows(base, src ? src : t->cols, map, t->nrows, err);
        }
        attu_result_free(dres);
        free(src);
        attu_table_free(t);
        t = full;
    }
    attu_table_free(scratch);
    free(map);
    int rc = -1;
    if (t && check_char_limits(t, base->nrows, err)) { attu_table_free(t); t = NULL; }
    if (t && db_generated_fill(s, &t, base->nrows, NULL, err)) { attu_table_free(t); t = NULL; }
    if (t && db_check_appended(s, t, base->nrows, err)) { attu_table_free(t); t = NULL; }
    /* a refusal of a loaded row names its input line, as PostgreSQL's
     * CONTEXT: a key's the line alone, a CHECK's or NOT NULL's the
     * record too */
    if (!t && err->set && err->row1 > base->nrows && !err->context[0] && kept) {
        char ctx[sizeof err->context];
        attu_csv_record_context(kept, err->row1 - 1 - base->nrows, kept_text && strcmp(err->sqlstate, "23505"),
                                ctx, sizeof ctx);
        attu_error_set_context(err, ctx);
    }
    attu_csv_kept_free(kept);
    /* the loaded rows against the table's FOREIGN KEYs (db_fkey.c) */
    db_fkey_txn *fx = NULL;
    bool fk_replaced = false;
    if (t && db_fkey_statement(s, &t, base->nrows, NULL, NULL, &fk_replaced, &fx, err)) { attu_table_free(t); t = NULL; }
    if (t) {
        t->version = base->version + 1;
        if (db_save_table(s, t, err)) { db_fkey_abort(s, fx); attu_table_free(t); }
        else {
            attu_table *old = attu_catalog_replace(db_cat(s), t);
            if (!fk_replaced) db_unique_follow(old, t, NULL);   /* the key index takes the loaded rows */
            if (!fk_replaced) db_cursors_follow(s, old, t, NULL);   /* (every row where it was: db_cursor.c) */
            attu_table_free(old);
            rc = db_fkey_commit(s, fx, err);
        }
    }
    pthread_rwlock_unlock(&s->db->lock);
    if (rc) return rc;
    char tag[64];
    snprintf(tag, sizeof tag, "COPY %zu", rows);
    return db_deliver_tag(cb, tag, err) ? -2 : 0;
}

/* One value (or a header name) in the output format, as PostgreSQL's
 * CopyAttributeOutText / CopyAttributeOutCSV write it. Text: backslash,
 * control characters that have an escape (\b \f \n \r \t \v) and the
 * delimiter are escaped. CSV: a field is quoted when it holds the
 * delimiter, the quote character, a newline or a carriage return, or when it
 * equals the NULL string (so an empty string stays distinct from the default
 * NULL of CSV); inside quotes, quote and escape characters are preceded by
 * the escape character. In a one-column CSV a value \. is quoted too, or
 * it would read back as the end-of-data marker. */
static int put_field(attu_strbuf *b, const copy_opts *o, const char *s, size_t n, bool single, bool force) {
    if (!o->csv_format) {
        for (size_t i = 0; i < n; i++) {
            char c = s[i];
            const char *esc = c == '\\' ? "\\\\" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t"
                            : c == '\b' ? "\\b" : c == '\f' ? "\\f" : c == '\v' ? "\\v" : NULL;
            if (esc) { if (attu_strbuf_add(b, esc, 2)) return -1; }
            else if (c == o->csv.delimiter) { char e[2] = { '\\', c }; if (attu_strbuf_add(b, e, 2)) return -1; }
            else if (attu_strbuf_add(b, &c, 1)) return -1;
        }
        return 0;
    }
    bool quote = force || (o->csv.null_string && strlen(o->csv.null_string) == n && !memcmp(o->csv.null_string, s, n)) ||
                 (single && n == 2 && s[0] == '\\' && s[1] == '.');
    for (size_t i = 0; i < n && !quote; i++)
        if (s[i] == o->csv.delimiter || s[i] == o->csv.quote || s[i] == '\n' || s[i] == '\r') quote = true;
    if (!quote) return attu_strbuf_add(b, s, n);
    if (attu_strbuf_add(b, &o->csv.quote, 1)) return -1;
    for (size_t i = 0; i < n; i++) {
        if ((s[i] == o->csv.quote || s[i] == o->csv.escape) && attu_strbuf_add(b, &o->csv.escape, 1)) return -1;
        if (attu_strbuf_add(b, &s[i], 1)) return -1;
    }
    return attu_strbuf_add(b, &o->csv.quote, 1);
}

/* The rows of res in the text or CSV format into out (the HEADER line
 * first); fq: the FORCE_QUOTE columns, or NULL. */
static int put_rows(const attu_result *res, const copy_opts *o, const bool *fq, db_copy_out *out, attu_error *err) {
    attu_strbuf b = { 0 };
    int rc = 0;
    char tmp[128];
    /* HEADER: the column names, one line, in either format (PostgreSQL 15
     * writes it for text as well as CSV) */
    if (o->csv.header) {
        for (int c = 0; c < res->ncols; c++) {
            if (c) attu_strbuf_add(&b, &o->csv.delimiter, 1);
            put_field(&b, o, res->desc[c].name, strlen(res->desc[c].name), res->ncols == 1, false);
        }
        attu_strbuf_add(&b, "\n", 1);
        rc = attu_strbuf_check(&b, err) ? -1 : db_copy_out_put(out, b.p, b.n, err);
    }
    /* (a row at a time into out: a CopyData, or a file's 4 KiB pieces) */
    for (size_t r = 0; r < res->nrows && !rc; r++) {
        attu_strbuf_reset(&b);
        for (int c = 0; c < res->ncols; c++) {
            if (c) attu_strbuf_add(&b, &o->csv.delimiter, 1);
            const char *lng = NULL;
            size_t n = attu_column_format(res->cols[c], r, tmp, sizeof tmp, &lng);
            if (n == (size_t)-1) attu_strbuf_add(&b, o->csv.null_string, strlen(o->csv.null_string));
            else put_field(&b, o, lng ? lng : tmp, n, res->ncols == 1, fq && fq[c]);
        }
        attu_strbuf_add(&b, "\n", 1);
        rc = attu_strbuf_check(&b, err) ? -1 : db_copy_out_put(out, b.p, b.n, err);
    }
    attu_strbuf_free(&b);
    return rc;
}

/* COPY TO: the rows of the table's columns (or the listed ones), or of
 * the query, to the client (TO STDOUT) or into a file on the server's
 * machine (TO 'file', db_copy_out.c). The rows are computed first, then
 * the file opened: an error of the query leaves the file as it was. */
static int copy_to(attu_session *s, const char *sql, const attu_ast_stmt *st, const copy_opts *o, const attu_exec_callbacks *cb, attu_error *err) {
    bool to_file = st->u.copy.target == ATTU_COPY_FILE;
    attu_result *res = NULL;
    pthread_rwlock_rdlock(&s->db->lock);
    if (st->u.copy.query) {
        if (!to_file || !db_copy_out_check_path(s, st->u.copy.filename, err))
            res = db_run_query(s, sql, st->u.copy.query, NULL, err);
    } else {
        /* SELECT the table's (or the listed) columns */
        attu_table *t = attu_catalog_lookup(db_cat(s), st->u.copy.table);
        if (!t && attu_views_find(attu_catalog_views(db_cat(s)), st->u.copy.table)) {
            attu_error_set(err, "42809", 0, "cannot copy from view \"%s\"", st->u.copy.table);
            attu_error_set_hint(err, "Try the COPY (SELECT ...) TO variant.");
        } else if (!t) db_no_such_table(s, st->u.copy.table, st->u.copy.table_position, err);
        else if (!to_file || !db_copy_out_check_path(s, st->u.copy.filename, err)) {
            char q[4096];
            size_t used = (size_t)snprintf(q, sizeof q, "SELECT ");
            bool refused = false;
            for (int i = 0; i < st->u.copy.columns.n && !refused; i++) {
                int c = attu_table_find_column(t, st->u.copy.columns.items[i]);
                if (c >= 0 && t->defs[c].generated) {   /* (PostgreSQL's CopyGetAttnums) */
                    attu_error_set(err, "42P10", 0, "column \"%s\" is a generated column", t->defs[c].name);
                    attu_error_set_detail(err, "Generated columns cannot be used in COPY.");
                    refused = true;
                }
            }
            if (refused) used = sizeof q;
            else if (st->u.copy.columns.n)
                for (int i = 0; i < st->u.copy.columns.n && used < sizeof q; i++)
                    used += (size_t)snprintf(q + used, sizeof q - used, "%s\"%s\"", i ? ", " : "", st->u.copy.columns.items[i]);
            else if (db_generated_any(t)) {
                /* (no list: the columns that are not generated, as
                 * PostgreSQL's COPY TO writes them) */
                int k = 0;
                for (int c = 0; c < t->ncols && used < sizeof q; c++)
                    if (!t->defs[c].generated)
                        used += (size_t)snprintf(q + used, sizeof q - used, "%s\"%s\"", k++ ? ", " : "", t->defs[c].name);
            } else used += (size_t)snprintf(q + used, sizeof q - used, "*");
            if (used < sizeof q) snprintf(q + used, sizeof q - used, " FROM \"%s\"", t->name);
            attu_parse_result *pr = refused ? NULL : attu_parse(q, err);
            if (pr && pr->n == 1) res = db_run_query(s, q, pr->stmts[0].stmt->u.select.query, &db_own_query_params, err);
            attu_parse_free(pr);
        }
    }
    pthread_rwlock_unlock(&s->db->lock);
    if (!res) return -1;
    /* a record's binary form is record_send's, which its text cannot give */
    for (int c = 0; o->binary && c < res->ncols; c++)
        if (attu_type_is_record(res->desc[c].type)) {
            attu_result_free(res);
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "COPY of a record column in binary format is not supported");
        }
    /* FORCE_QUOTE: the quoted columns among the result's */
    bool *fq = NULL;
    if (o->force_quote) {
        fq = calloc((size_t)res->ncols + 1, sizeof *fq);
        const char **names = malloc(sizeof *names * ((size_t)res->ncols + 1));
        int frc = fq && names ? 0 : attu_error_oom(err);
        for (int c = 0; !frc && c < res->ncols; c++) { names[c] = res->desc[c].name; if (o->force_quote_all) fq[c] = true; }
        if (!frc && !o->force_quote_all) {
            if (st->u.copy.query) frc = force_columns(o->force_quote, NULL, names, res->ncols, names, res->ncols, fq, err);
            else {
                pthread_rwlock_rdlock(&s->db->lock);
                attu_table *t = attu_catalog_lookup(db_cat(s), st->u.copy.table);
                const char **all = t ? malloc(sizeof *all * ((size_t)t->ncols + 1)) : NULL;
                if (!all) frc = attu_error_oom(err);
                for (int c = 0; !frc && c < t->ncols; c++) all[c] = t->defs[c].name;
                if (!frc) frc = force_columns(o->force_quote, t->name, all, t->ncols, names, res->ncols, fq, err);
                free(all);
                pthread_rwlock_unlock(&s->db->lock);
            }
        }
        free(names);
        if (frc) { free(fq); attu_result_free(res); return -1; }
    }
    db_copy_out out;
    int rc = 0;
    if (to_file) rc = db_copy_out_open_file(&out, st->u.copy.filename, err);
    else {
        db_copy_out_client(&out, cb);
        if (cb && cb->copy_out_begin && cb->copy_out_begin(cb->ctx, res->ncols, o->binary)) rc = -2;
    }
    if (!rc) rc = o->binary ? db_copy_binary_send(res, cb, &out, err) : put_rows(res, o, fq, &out, err);
    if (!rc) rc = db_copy_out_finish(&out, err);
    else db_copy_out_abort(&out);
    free(fq);
    size_t nrows = res->nrows;
    attu_result_free(res);
    if (rc) return rc;
    char tag[64];
    snprintf(tag, sizeof tag, "COPY %zu", nrows);
    return db_deliver_tag(cb, tag, err) ? -2 : 0;
}

int db_exec_copy(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    copy_opts o;
    if (parse_opts(st, &o, err)) return -1;
    /* the values' binary forms are the server's (db_copy_binary.c) */
    if (o.binary && (!cb || !cb->copy_binary_recv || !cb->copy_binary_tuple))
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, st->position, "COPY in binary format is not possible here");
    return st->u.copy.is_from ? copy_from(s, st, &o, cb, err) : copy_to(s, sql, st, &o, cb, err);
}
