/*
 * storage_views.c - the views of a data directory (storage.h).
 *
 * <data-dir>/attu.views is text, one record per view in creation order:
 *
 *   attu-views 1
 *   view <name> <seq> <ncols> <ndeps> <kind> <check option> <populated>
 *   col <name> <type id> <precision> <scale>      (ncols lines)
 *   dep <relation>                                (ndeps lines)
 *   sql <query text>
 *   default <column> <DEFAULT's SQL text>         (a column's of ALTER VIEW ...
 *                                                 SET DEFAULT; 0 or more lines)
 *   crc32c <crc of everything above>
 *
 * (kind 'v' or 'm', check option 'l', 'c' or '-', populated 0 or 1; a
 * file written before these three lacks them: a view without a check
 * option.) Names and the query are written with every byte at or below ' ', '%'
 * and DEL as %XX, so each field is one word of one line.
 */
#define _GNU_SOURCE
#include "engine/storage.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/storage_file.h"
#include "engine/strbuf.h"

#define VIEWS_FILE "attu.views"

static int by_seq(const void *a, const void *b) {
    const attu_view *x = *(const attu_view *const *)a, *y = *(const attu_view *const *)b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int attu_storage_save_views(const char *data_dir, const attu_views *views, attu_error *err) {
    return attu_storage_save_views_as(data_dir, views, VIEWS_FILE, err);
}

int attu_storage_save_views_as(const char *data_dir, const attu_views *views, const char *file, attu_error *err) {
    size_t n = attu_views_count(views);
    attu_view **order = calloc(n + 1, sizeof *order);
    if (!order) return attu_error_oom(err);
    for (size_t i = 0; i < n; i++) order[i] = attu_views_at(views, i);
    qsort(order, n, sizeof *order, by_seq);
    attu_strbuf b = { 0 };
    attu_strbuf_add(&b, "attu-views 1\n", 13);
    for (size_t i = 0; i < n; i++) {
        const attu_view *v = order[i];
        attu_strbuf_add(&b, "view ", 5); attu_storage_put_word(&b, v->name);
        attu_strbuf_printf(&b, " %llu %d %d %c %c %d\n", (unsigned long long)v->seq, v->ncols, v->ndeps, v->kind,
                           v->check_option ? v->check_option : '-', v->populated ? 1 : 0);
        for (int c = 0; c < v->ncols; c++) {
            attu_strbuf_add(&b, "col ", 4); attu_storage_put_word(&b, v->col_names[c]);
            attu_strbuf_printf(&b, " %d %d %d", (int)v->col_types[c].id, v->col_types[c].precision, v->col_types[c].scale);
            /* a DECIMAL of no typmod (a literal's column) adds a 1; files
             * without it read as before */
            if (v->col_types[c].no_typmod) attu_strbuf_add(&b, " 1", 2);
            attu_strbuf_add(&b, "\n", 1);
        }
        for (int d = 0; d < v->ndeps; d++) { attu_strbuf_add(&b, "dep ", 4); attu_storage_put_word(&b, v->deps[d]); attu_strbuf_add(&b, "\n", 1); }
        attu_strbuf_add(&b, "sql ", 4); attu_storage_put_word(&b, v->sql); attu_strbuf_add(&b, "\n", 1);
        for (int c = 0; c < v->ncols; c++)
            if (v->col_defaults[c]) {
                attu_strbuf_printf(&b, "default %d ", c);
                attu_storage_put_word(&b, v->col_defaults[c]);
                attu_strbuf_add(&b, "\n", 1);
            }
    }
    free(order);
    int rc = attu_storage_write_catalog_file(data_dir, file, &b, err);
    free(b.p);
    return rc;
}

static int corrupt(attu_error *err, const char *path, const char *why) {
    return attu_error_set(err, ATTU_SQLSTATE_DATA_CORRUPTED, 0, "views file \"%s\" is damaged: %s", path, why);
}

int attu_storage_load_views(const char *data_dir, attu_catalog *cat, attu_error *err) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/" VIEWS_FILE, data_dir);
    attu_strbuf b = { 0 };
    int got = attu_storage_read_catalog_file(data_dir, VIEWS_FILE, "views", &b, err);
    if (got) { free(b.p); return got > 0 ? 0 : -1; }
    char *save = NULL, *line = strtok_r(b.p, "\n", &save);
    int rc = 0;
    if (!line || strcmp(line, "attu-views 1")) { free(b.p); return corrupt(err, path, "unknown format"); }
    attu_view *last = NULL;   /* (the view the default lines after it belong to) */
    while (!rc && (line = strtok_r(NULL, "\n", &save))) {
        if (!strncmp(line, "default ", 8)) {
            int c = -1, off = 0;
            if (!last || sscanf(line, "default %d %n", &c, &off) != 1 || !off || c < 0 || c >= last->ncols ||
                last->col_defaults[c]) { rc = corrupt(err, path, "malformed default line"); break; }
            if (!(last->col_defaults[c] = strdup(attu_storage_unescape_word(line + off)))) rc = attu_error_oom(err);
            continue;
        }
        last = NULL;
        char name[4 * 64 + 8];
        unsigned long long seq;
        int ncols, ndeps, populated = 0;
        char kind = 'v', check = '-';
        int nf = sscanf(line, "view %259s %llu %d %d %c %c %d", name, &seq, &ncols, &ndeps, &kind, &check, &populated);
        if ((nf != 4 && nf != 7) || ncols < 0 || ncols > 100000 || ndeps < 0 || ndeps > 100000 ||
            (kind != 'v' && kind != 'm') || (check != '-' && check != 'l' && check != 'c'))
            { rc = corrupt(err, path, "malformed view line"); break; }
        attu_storage_unescape_word(name);
        char **cn = calloc((size_t)ncols + 1, sizeof *cn);
        attu_type *ct = calloc((size_t)ncols + 1, sizeof *ct);
        char **deps = calloc((size_t)ndeps + 1, sizeof *deps);
        char *sql = NULL;
        if (!cn || !ct || !deps) rc = attu_error_oom(err);
        for (int c = 0; !rc && c < ncols; c++) {
            char *l = strtok_r(NULL, "\n", &save);
            char cname[4 * 64 + 8];
            int id, p, s, no_typmod = 0, got = l ? sscanf(l, "col %259s %d %d %d %d", cname, &id, &p, &s, &no_typmod) : 0;
            if (got < 4 || id <= ATTU_TYPE_UNKNOWN ||
                id >= ATTU_TYPE_COUNT_) { rc = corrupt(err, path, "malformed column line"); break; }
            cn[c] = strdup(attu_storage_unescape_word(cname));
            ct[c] = (attu_type){ .id = (attu_type_id)id, .precision = (int16_t)p, .scale = (int16_t)s,
                                 .no_typmod = id == ATTU_TYPE_DECIMAL && no_typmod == 1 };
            if (!cn[c]) rc = attu_error_oom(err);
        }
        for (int d = 0; !rc && d < ndeps; d++) {
            char *l = strtok_r(NULL, "\n", &save);
            if (!l || strncmp(l, "dep ", 4)) { rc = corrupt(err, path, "malformed dependency line"); break; }
            if (!(deps[d] = strdup(attu_storage_unescape_word(l + 4)))) rc = attu_error_oom(err);
        }
        if (!rc) {
            char *l = strtok_r(NULL, "\n", &save);
            if (!l || strncmp(l, "sql ", 4)) rc = corrupt(err, path, "malformed query line");
            else sql = attu_storage_unescape_word(l + 4);
        }
        attu_view *v = NULL, *old = NULL;
        if (!rc && !(v = attu_view_new(name, sql, ncols, (const char *const *)cn, ct, ndeps, (const char *const *)deps)))
            rc = attu_error_oom(err);
        if (!rc) {
            v->seq = seq;
            v->kind = kind;
            v->check_option = check == '-' ? 0 : check;
            v->populated = populated != 0;
            /* a materialized view's rows are the table of its name (loaded
             * before the views); a view's name is its own */
            bool want_table = kind == 'm';
            if (want_table && !attu_catalog_lookup(cat, name) && !attu_views_find(attu_catalog_views(cat), name)) {
                /* its rows are gone (a crash between the two files of a
                 * rename or a drop): it comes back empty and unpopulated,
                 * for REFRESH to fill */
                attu_column_def *defs = calloc((size_t)ncols + 1, sizeof *defs);
                attu_table *t = NULL;
                if (defs) {
                    for (int c = 0; c < ncols; c++) {
                        snprintf(defs[c].name, sizeof defs[c].name, "%s", v->col_names[c]);
                        defs[c].type = v->col_types[c];
                    }
                    t = attu_table_new(name, ncols, defs, err);
                }
                free(defs);
                if (!t || attu_catalog_add(cat, t, err)) {
                    if (!err->set) attu_error_oom(err);
                    attu_table_free(t);
                    rc = -1;
                    attu_view_free(v);
                    v = NULL;
                }
                if (v) v->populated = false;
            }
            if (!v) {
                /* (rc and err set above) */
            } else if (want_table ? !attu_catalog_lookup(cat, name) || attu_views_find(attu_catalog_views(cat), name)
                                  : attu_catalog_relation_exists(cat, name)) {
                rc = corrupt(err, path, want_table ? "a materialized view has no table" : "a view has a table's name");
                attu_view_free(v);
            }
            else if (attu_views_put(attu_catalog_views(cat), v, &old)) { rc = attu_error_oom(err); attu_view_free(v); }
            else last = v;
        }
        for (int c = 0; cn && c < ncols; c++) free(cn[c]);
        for (int d = 0; deps && d < ndeps; d++) free(deps[d]);
        free(cn); free(ct); free(deps);
    }
    free(b.p);
    return rc ? -1 : 0;
}
