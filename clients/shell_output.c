/*
 * shell_output: how a result is shown.
 *
 *   aligned  psql's look: a header, a rule, one line per row with columns
 *            padded to their widest value (numbers right-aligned), then
 *            "(N rows)". NULL shows as nothing. Command results print their
 *            tag (CREATE TABLE, COPY 10, ...).
 *   csv      RFC 4180: a header line, then one line per row; fields with a
 *            comma, quote, newline or edge blank are quoted. NULL is empty.
 *   json     one JSON array per result, one object per row; numbers and
 *            booleans as JSON values, NULL as null.
 * The machine formats print nothing for command results, so their output
 * can be piped straight into another program.
 */
#include "shell.h"

#include <stdlib.h>
#include <string.h>

/* Type OIDs (pg_type.h) whose text form is a number or a boolean. */
enum { OID_BOOL = 16, OID_INT8 = 20, OID_INT2 = 21, OID_INT4 = 23,
       OID_OID = 26, OID_FLOAT4 = 700, OID_FLOAT8 = 701, OID_NUMERIC = 1700 };

static bool is_numeric_type(Oid t) {
    return t == OID_INT8 || t == OID_INT2 || t == OID_INT4 || t == OID_OID ||
           t == OID_FLOAT4 || t == OID_FLOAT8 || t == OID_NUMERIC;
}

/* Columns a UTF-8 string takes: one per code point (continuation bytes do
 * not count). Wide East Asian characters are rare in this shell's data. */
int shell_text_width(const char *s) {
    int w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80) w++;
    return w;
}

/* Prints s, with control characters that would break the table shown
 * escaped, padded to width (left or right aligned). */
static void put_cell(FILE *out, const char *s, int width, bool right) {
    int w = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '\n' || *p == '\r' || *p == '\t') w += 2;
        else if (((unsigned char)*p & 0xC0) != 0x80) w++;
    }
    if (right && width > w) fprintf(out, "%*s", width - w, "");
    for (const char *p = s; *p; p++) {
        if (*p == '\n') fputs("\\n", out);
        else if (*p == '\r') fputs("\\r", out);
        else if (*p == '\t') fputs("\\t", out);
        else fputc(*p, out);
    }
    if (!right && width > w) fprintf(out, "%*s", width - w, "");
}

static int cell_width(const char *s) {
    int w = shell_text_width(s);
    for (; *s; s++)
        if (*s == '\n' || *s == '\r' || *s == '\t') w += 1;
    return w;
}

static void print_aligned(const PGresult *res, FILE *out) {
    int nf = PQnfields(res), nt = PQntuples(res);
    int *w = calloc((size_t)nf + 1, sizeof *w);
    for (int j = 0; j < nf; j++) {
        w[j] = cell_width(PQfname(res, j));
        for (int i = 0; i < nt; i++) {
            int cw = cell_width(PQgetvalue(res, i, j));
            if (cw > w[j]) w[j] = cw;
        }
    }
    /* Header: names centered, as psql does. */
    for (int j = 0; j < nf; j++) {
        const char *name = PQfname(res, j);
        int pad = w[j] - cell_width(name);
        fprintf(out, "%s%*s", j ? "| " : " ", pad / 2, "");
        put_cell(out, name, w[j] - pad / 2, false);
        fputs(j + 1 < nf ? " " : "\n", out);
    }
    for (int j = 0; j < nf; j++) {
        for (int k = 0; k < w[j] + 2; k++) fputc('-', out);
        fputs(j + 1 < nf ? "+" : "\n", out);
    }
    for (int i = 0; i < nt; i++) {
        for (int j = 0; j < nf; j++) {
            fputs(j ? "| " : " ", out);
            const char *v = PQgetisnull(res, i, j) ? "" : PQgetvalue(res, i, j);
            bool right = is_numeric_type(PQftype(res, j));
            /* Like psql, no trailing blanks after a left-aligned last column. */
            put_cell(out, v, j + 1 < nf || right ? w[j] : 0, right);
            fputs(j + 1 < nf ? " " : "\n", out);
        }
    }
    if (nf == 0) {
        for (int i = 0; i < nt; i++) fputc('\n', out);
    }
    fprintf(out, "(%d row%s)\n\n", nt, nt == 1 ? "" : "s");
    free(w);
}

static void csv_field(FILE *out, const char *s) {
    bool quote = *s == ' ' || (*s && s[strlen(s) - 1] == ' ') ||
                 strpbrk(s, ",\"\n\r") != NULL;
    if (!quote) { fputs(s, out); return; }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void print_csv(const PGresult *res, FILE *out) {
    int nf = PQnfields(res), nt = PQntuples(res);
    for (int j = 0; j < nf; j++) {
        if (j) fputc(',', out);
        csv_field(out, PQfname(res, j));
    }
    fputc('\n', out);
    for (int i = 0; i < nt; i++) {
        for (int j = 0; j < nf; j++) {
            if (j) fputc(',', out);
            /* NULL is an empty field; an empty string is quoted to differ. */
            if (PQgetisnull(res, i, j)) continue;
            const char *v = PQgetvalue(res, i, j);
            if (!*v) fputs("\"\"", out);
            else csv_field(out, v);
        }
        fputc('\n', out);
    }
}

static void json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20) fprintf(out, "\\u%04x", *p);
            else fputc(*p, out);
        }
    }
    fputc('"', out);
}

/* A number's text is a valid JSON number unless it is NaN or Infinity. */
static bool json_number_ok(const char *s) {
    return *s && strpbrk(s, "NnIi") == NULL;
}

static void print_json(const PGresult *res, FILE *out) {
    int nf = PQnfields(res), nt = PQntuples(res);
    fputc('[', out);
    for (int i = 0; i < nt; i++) {
        fputs(i ? ",\n {" : "\n {", out);
        for (int j = 0; j < nf; j++) {
            if (j) fputs(", ", out);
            json_string(out, PQfname(res, j));
            fputs(": ", out);
            const char *v = PQgetvalue(res, i, j);
            Oid t = PQftype(res, j);
            if (PQgetisnull(res, i, j)) fputs("null", out);
            else if (t == OID_BOOL) fputs(*v == 't' ? "true" : "false", out);
            else if (is_numeric_type(t) && json_number_ok(v)) fputs(v, out);
            else json_string(out, v);
        }
        fputc('}', out);
    }
    fputs(nt ? "\n]\n" : "]\n", out);
}

void shell_print_result(const shell_t *sh, const PGresult *res, FILE *out) {
    ExecStatusType st = PQresultStatus(res);
    if (st == PGRES_TUPLES_OK) {
        switch (sh->format) {
        case SHELL_ALIGNED: print_aligned(res, out); break;
        case SHELL_CSV: print_csv(res, out); break;
        case SHELL_JSON: print_json(res, out); break;
        }
    } else if (st == PGRES_COMMAND_OK && sh->format == SHELL_ALIGNED) {
        const char *tag = PQcmdStatus((PGresult *)res);
        if (tag && *tag) fprintf(out, "%s\n", tag);
    }
}
