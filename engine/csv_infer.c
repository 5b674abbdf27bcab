/*
 * csv_infer.c - guessing a schema from the first records of a CSV file.
 *
 * Every column starts as "could be anything" and each non-NULL sample value
 * rules types out, in the order BOOLEAN, BIGINT, DOUBLE PRECISION, DATE,
 * TIMESTAMP WITH TIME ZONE (every value writes its zone: "+02", "Z",
 * "Europe/Paris"), TIMESTAMP; a column keeps the first type still possible,
 * else TEXT. A
 * column with no values at all in the sample is TEXT. Names come from the
 * header (trimmed, lower-cased so they can be used unquoted in SQL,
 * truncated to 63 bytes, made unique with _2, _3 ...) or are column1..N.
 * BOOLEAN only counts the spelled-out forms (t, f, true, false, yes, no,
 * on, off): a column of 0 and 1 is BIGINT.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/csv_internal.h"
#include "engine/datetime_input.h"
#include "engine/csv_scan.h"

enum { MAY_BOOL = 1, MAY_INT = 2, MAY_FLOAT = 4, MAY_DATE = 8, MAY_TS = 16, MAY_TSTZ = 32 };

static int bool_word(const char *s, size_t n) {
    static const char *w[] = {"t", "f", "true", "false", "yes", "no", "on", "off"};
    while (n && isspace((unsigned char)*s)) { s++; n--; }
    while (n && isspace((unsigned char)s[n - 1])) n--;
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        if (strlen(w[i]) == n && strncasecmp(s, w[i], n) == 0) return 1;
    return 0;
}

static unsigned possible_types(const char *s, size_t n) {
    unsigned m = 0;
    char slot[8];
    if (bool_word(s, n)) m |= MAY_BOOL;
    if (attu_value_parse(attu_type_make(ATTU_TYPE_INT64), s, n, slot, NULL) == 0) m |= MAY_INT;
    if (attu_value_parse(attu_type_make(ATTU_TYPE_FLOAT64), s, n, slot, NULL) == 0) m |= MAY_FLOAT;
    /* Inference takes ISO dates only ("2001-02-03[ time]": digits then a
     * dash). Typed columns read every form PostgreSQL reads, but guessing
     * a type from "03/02/2001", "1.2.3" or "20010203" would turn version
     * strings, codes and MDY/DMY-ambiguous text into dates. */
    size_t lead = 0;
    while (lead < n && isdigit((unsigned char)s[lead])) lead++;
    if (n >= 8 && lead > 0 && lead < n && s[lead] == '-') {
        if (attu_value_parse(attu_type_make(ATTU_TYPE_TIMESTAMP), s, n, slot, NULL) == 0) {
            m |= MAY_TS;
            /* a zone written in the value makes it an instant: a column of
             * them is timestamptz, which keeps what timestamp would drop */
            attu_datetime_fields f;
            if (attu_datetime_parse(s, n, &f) == 0 && f.kind == ATTU_DATETIME_FINITE &&
                f.tz_kind != ATTU_DATETIME_ZONE_NONE &&
                attu_value_parse(attu_type_make(ATTU_TYPE_TIMESTAMPTZ), s, n, slot, NULL) == 0)
                m |= MAY_TSTZ;
            if (attu_value_parse(attu_type_make(ATTU_TYPE_DATE), s, n, slot, NULL) == 0 &&
                !memchr(s, ':', n))
                m |= MAY_DATE;
        }
    }
    return m;
}

static void set_name(attu_column_def *defs, int i, const char *s, size_t n) {
    while (n && isspace((unsigned char)*s)) { s++; n--; }
    while (n && isspace((unsigned char)s[n - 1])) n--;
    char name[ATTU_NAME_MAX + 1];
    size_t k = 0;
    for (; k < n && k < ATTU_NAME_MAX; k++) name[k] = (char)tolower((unsigned char)s[k]);
    name[k] = '\0';
    if (k == 0) snprintf(name, sizeof name, "column%d", i + 1);
    /* Unique among the earlier ones. */
    char cand[ATTU_NAME_MAX + 1];
    snprintf(cand, sizeof cand, "%s", name);
    for (int suffix = 2;; suffix++) {
        int clash = 0;
        for (int j = 0; j < i; j++)
            if (strcmp(defs[j].name, cand) == 0) { clash = 1; break; }
        if (!clash) break;
        char tail[16];
        int tl = snprintf(tail, sizeof tail, "_%d", suffix);
        size_t keep = strlen(name);
        if (keep + (size_t)tl > ATTU_NAME_MAX) keep = ATTU_NAME_MAX - (size_t)tl;
        snprintf(cand, sizeof cand, "%.*s%s", (int)keep, name, tail);
    }
    memcpy(defs[i].name, cand, sizeof cand);
}

int attu_csv_infer_schema(const attu_csv_options *opts, const char *path,
                          size_t sample_rows, attu_column_def **defs_out,
                          attu_error *err) {
    *defs_out = NULL;
    if (attu_csv_check_options(opts, err)) return -1;
    attu_csv_source src = { path, NULL, NULL, path };
    attu_csv_input in;
    if (attu_csv_input_open(&in, opts, &src, err)) return -1;
    const char *null_s = opts->null_string ? opts->null_string : "";
    size_t null_len = strlen(null_s);
    csv_cursor cur;
    csv_cursor_init(&cur, in.data, in.size, opts->delimiter, opts->quote,
                    opts->escape ? opts->escape : opts->quote);
    attu_column_def *defs = NULL;
    unsigned *may = NULL;
    int *seen = NULL;
    int ncols = 0, rc = -1;
    size_t records = 0;
    bool header_pending = opts->header;
    while (cur.pos < in.size && (records < sample_rows || header_pending)) {
        int col = 0;
        csv_field f;
        for (;;) {
            int r = csv_next_field(&cur, &f);
            if (r == -2) { attu_error_oom(err); goto out; }
            if (r == -1) {
                attu_error_set(err, ATTU_SQLSTATE_BAD_COPY_FORMAT, 0,
                               "%s:%zu:%d: unterminated CSV quoted field", in.name,
                               f.line, col + 1);
                goto out;
            }
            if (col >= ncols) {
                if (records > 0 || (opts->header && !header_pending)) {
                    attu_error_set(err, ATTU_SQLSTATE_BAD_COPY_FORMAT, 0,
                                   "%s:%zu:%d: extra data after last expected column",
                                   in.name, f.line, col + 1);
                    goto out;
                }
                attu_column_def *nd = realloc(defs, (size_t)(col + 1) * sizeof *nd);
                if (!nd) { attu_error_oom(err); goto out; }
                defs = nd;
                unsigned *nm = realloc(may, (size_t)(col + 1) * sizeof *nm);
                if (!nm) { attu_error_oom(err); goto out; }
                may = nm;
                int *ns = realloc(seen, (size_t)(col + 1) * sizeof *ns);
                if (!ns) { attu_error_oom(err); goto out; }
                seen = ns;
                memset(&defs[col], 0, sizeof defs[col]);
                may[col] = ~0u;
                seen[col] = 0;
                if (header_pending) set_name(defs, col, f.text, f.len);
                else set_name(defs, col, "", 0);
                ncols = col + 1;
            }
            if (!header_pending) {
                bool is_null = !f.quoted && f.len == null_len &&
                               memcmp(f.text, null_s, f.len) == 0;
                if (!is_null) {
                    may[col] &= possible_types(f.text, f.len);
                    seen[col] = 1;
                }
            }
            col++;
            if (f.end != CSV_END_DELIM) break;
        }
        if (header_pending) header_pending = false;
        else records++;
    }
    for (int i = 0; i < ncols; i++) {
        attu_type_id id = ATTU_TYPE_TEXT;
        if (seen[i]) {
            if (may[i] & MAY_BOOL) id = ATTU_TYPE_BOOL;
            else if (may[i] & MAY_INT) id = ATTU_TYPE_INT64;
            else if (may[i] & MAY_FLOAT) id = ATTU_TYPE_FLOAT64;
            else if (may[i] & MAY_DATE) id = ATTU_TYPE_DATE;
            else if (may[i] & MAY_TSTZ) id = ATTU_TYPE_TIMESTAMPTZ;
            else if (may[i] & MAY_TS) id = ATTU_TYPE_TIMESTAMP;
        }
        defs[i].type = attu_type_make(id);
    }
    *defs_out = defs;
    defs = NULL;
    rc = ncols;
out:
    free(defs);
    free(may);
    free(seen);
    csv_cursor_free(&cur);
    attu_csv_input_close(&in);
    return rc;
}
