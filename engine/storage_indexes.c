/*
 * storage_indexes.c - the CREATE INDEX indexes of a data directory
 * (storage.h).
 *
 * <data-dir>/attu.indexes is text, one line per index (index.h):
 *
 *   attu-indexes 1
 *   index <table> <name> <method> <unique> <nulls not distinct> <nkeys> <ncols>
 *         <where> <options> then per column: <col> <order> <expr> <suffix> <name>
 *   crc32c <crc of everything above>
 *
 * (one line), each string field + and the text, or - for none, with
 * every byte at or below ' ', '%' and DEL written as %XX, as the
 * comments file writes them. Written whole (temporary file, rename) by
 * every statement that changes an index; a missing file is no indexes,
 * and a line of a table that is not there is passed over.
 * The indexes are kept apart from the tables' schema files so that
 * CREATE / DROP INDEX do not rewrite a table's columns.
 */
#define _GNU_SOURCE
#include "engine/storage.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/index.h"
#include "engine/storage_file.h"
#include "engine/strbuf.h"

#define INDEXES_FILE "attu.indexes"

static void put_opt(attu_strbuf *b, const char *s) {
    attu_strbuf_add(b, " ", 1);
    if (!s) { attu_strbuf_add(b, "-", 1); return; }
    attu_strbuf_add(b, "+", 1);
    attu_storage_put_word(b, s);
}

int attu_storage_save_indexes(const char *data_dir, const attu_catalog *cat, attu_error *err) {
    return attu_storage_save_indexes_as(data_dir, cat, INDEXES_FILE, err);
}

int attu_storage_save_indexes_as(const char *data_dir, const attu_catalog *cat, const char *file, attu_error *err) {
    attu_strbuf b = { 0 };
    attu_strbuf_add(&b, "attu-indexes 1\n", 15);
    for (size_t i = 0; i < attu_catalog_count(cat); i++) {
        const attu_table *t = attu_catalog_at(cat, i);
        int n = 0;
        const attu_index_def *ix = attu_catalog_indexes(cat, t->name, &n);
        for (int k = 0; k < n; k++) {
            attu_strbuf_add(&b, "index ", 6);
            attu_storage_put_word(&b, t->name);
            attu_strbuf_add(&b, " ", 1);
            attu_storage_put_word(&b, ix[k].name);
            attu_strbuf_add(&b, " ", 1);
            attu_storage_put_word(&b, ix[k].method);
            attu_strbuf_printf(&b, " %d %d %d %d", ix[k].unique ? 1 : 0, ix[k].nulls_not_distinct ? 1 : 0,
                               ix[k].nkeys, ix[k].ncols);
            put_opt(&b, ix[k].where);
            put_opt(&b, ix[k].options);
            for (int j = 0; j < ix[k].ncols; j++) {
                attu_strbuf_printf(&b, " %d %d", ix[k].cols[j], ix[k].order[j]);
                put_opt(&b, ix[k].expr[j]);
                put_opt(&b, ix[k].suffix[j]);
                put_opt(&b, ix[k].names[j]);
            }
            attu_strbuf_add(&b, "\n", 1);
        }
    }
    int rc = attu_storage_write_catalog_file(data_dir, file, &b, err);
    free(b.p);
    return rc;
}

/* A string field: NULL for "-", else its text (unescaped in place);
 * *bad when it is neither. */
static char *opt_field(char *f, bool *bad) {
    if (!strcmp(f, "-")) return NULL;
    if (f[0] != '+') { *bad = true; return NULL; }
    return attu_storage_unescape_word(f + 1);
}

static bool dup_opt(char **dst, const char *src) {
    *dst = NULL;
    return !src || (*dst = strdup(src)) != NULL;
}

/* Adds one index line's index to its table (and, unique, its key to the
 * table's uniques). 1: malformed, -1: out of memory. */
static int load_line(attu_catalog *cat, char *line) {
    char *fields[10 + 5 * ATTU_INDEX_MAX_KEYS], *w = NULL;
    int nf = 0;
    for (char *p = strtok_r(line, " ", &w); p && nf < (int)(sizeof fields / sizeof *fields); p = strtok_r(NULL, " ", &w))
        fields[nf++] = p;
    if (nf < 10 || strcmp(fields[0], "index")) return 1;
    attu_index_def ix;
    memset(&ix, 0, sizeof ix);
    const char *table = attu_storage_unescape_word(fields[1]);
    snprintf(ix.name, sizeof ix.name, "%s", attu_storage_unescape_word(fields[2]));
    snprintf(ix.method, sizeof ix.method, "%s", attu_storage_unescape_word(fields[3]));
    ix.unique = atoi(fields[4]) != 0;
    ix.nulls_not_distinct = atoi(fields[5]) != 0;
    ix.nkeys = atoi(fields[6]);
    ix.ncols = atoi(fields[7]);
    const attu_table *t = attu_catalog_lookup(cat, table);
    /* (a table gone without the file rewritten after it, as a crash
     * between the two leaves it: its indexes went with it) */
    if (!t) return 0;
    if (ix.nkeys < 0 || ix.ncols < ix.nkeys || ix.ncols > ATTU_INDEX_MAX_KEYS || nf != 10 + 5 * ix.ncols) return 1;
    bool bad = false, ok = true;
    ok &= dup_opt(&ix.where, opt_field(fields[8], &bad));
    ok &= dup_opt(&ix.options, opt_field(fields[9], &bad));
    for (int j = 0; j < ix.ncols; j++) {
        char **f = &fields[10 + 5 * j];
        ix.cols[j] = atoi(f[0]);
        ix.order[j] = (unsigned char)atoi(f[1]);
        ok &= dup_opt(&ix.expr[j], opt_field(f[2], &bad));
        ok &= dup_opt(&ix.suffix[j], opt_field(f[3], &bad));
        ok &= dup_opt(&ix.names[j], opt_field(f[4], &bad));
        if (ix.cols[j] < -1 || ix.cols[j] >= t->ncols || (ix.cols[j] < 0 && !ix.expr[j])) bad = true;
    }
    int rc = bad ? 1 : !ok ? -1 : 0;
    if (!rc) {
        int n = 0;
        const attu_index_def *have = attu_catalog_indexes(cat, table, &n);
        attu_index_def *all = calloc((size_t)n + 1, sizeof *all);
        if (!all) rc = -1;
        else {
            if (n) memcpy(all, have, sizeof *all * (size_t)n);   /* (set copies them: shallow is enough here) */
            all[n] = ix;
            if (attu_catalog_set_indexes(cat, table, all, n + 1, NULL)) rc = -1;
            free(all);
        }
        attu_unique u;
        if (!rc && attu_index_unique_key(&ix, &u)) {
            const attu_unique *us = attu_catalog_uniques(cat, table, &n);
            attu_unique *allu = calloc((size_t)n + 1, sizeof *allu);
            if (!allu) rc = -1;
            else {
                if (n) memcpy(allu, us, sizeof *allu * (size_t)n);
                allu[n] = u;
                if (attu_catalog_set_uniques(cat, table, allu, n + 1, NULL)) rc = -1;
                free(allu);
            }
        }
    }
    attu_index_clear(&ix);
    return rc;
}

int attu_storage_load_indexes(const char *data_dir, attu_catalog *cat, attu_error *err) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/" INDEXES_FILE, data_dir);
    attu_strbuf b = { 0 };
    int got = attu_storage_read_catalog_file(data_dir, INDEXES_FILE, "indexes", &b, err);
    if (got) { free(b.p); return got > 0 ? 0 : -1; }
    char *save = NULL, *line = strtok_r(b.p, "\n", &save);
    int rc = 0;
    if (!line || strcmp(line, "attu-indexes 1")) rc = 1;
    while (!rc && (line = strtok_r(NULL, "\n", &save))) rc = load_line(cat, line);
    free(b.p);
    if (rc < 0) return attu_error_oom(err);
    if (rc)
        return attu_error_set(err, ATTU_SQLSTATE_DATA_CORRUPTED, 0, "indexes file \"%s\" is damaged: malformed line",
                              path);
    return 0;
}
