/* Tests for the CSV reader's pull source (COPY FROM STDIN): data arriving
 * in pieces of any size must load exactly as the same bytes from a file;
 * PostgreSQL's "\." end-of-data line; bare-CR line endings. Expected
 * results of the "\." and CR cases were taken from PostgreSQL 15 (COPY ...
 * FROM STDIN CSV through psycopg2's copy_expert, which sends raw bytes). */
#include "csv_test_util.h"

#include "engine/csv_internal.h"

static attu_csv_options opts(void) {
    attu_csv_options o;
    attu_csv_options_default(&o);
    return o;
}

/* Hands out data in pieces whose sizes cycle through sizes[] (each capped
 * by the caller's room), then 0 for the end. */
typedef struct pieces {
    const char *data;
    size_t len, pos;
    const size_t *sizes;
    size_t nsizes, k;
    size_t calls;
} pieces;

static ssize_t read_cycle(void *ctx, char *buf, size_t cap, attu_error *err) {
    (void)err;
    pieces *p = ctx;
    p->calls++;
    size_t n = p->len - p->pos;
    size_t want = p->sizes[p->k++ % p->nsizes];
    if (n > want) n = want;
    if (n > cap) n = cap;
    memcpy(buf, p->data + p->pos, n);
    p->pos += n;
    return (ssize_t)n;
}

static attu_table *load_pull(const attu_table *base, const attu_csv_options *o,
                             const char *data, size_t len, const size_t *sizes,
                             size_t nsizes, attu_error *err) {
    pieces p = { data, len, 0, sizes, nsizes, 0, 0 };
    attu_csv_source src = { NULL, read_cycle, &p, "STDIN" };
    size_t rows = 0;
    attu_error_clear(err);
    attu_table *t = attu_csv_load(base, o, &src, &rows, err);
    if (t) cr_assert_eq(rows, t->nrows - base->nrows);
    cr_assert_eq(p.pos, len, "the reader stopped before the end of the data");
    return t;
}

/* Same rows, same cells (as text), same NULLs. */
static void assert_same_table(const attu_table *a, const attu_table *b, const char *what) {
    cr_assert_eq(a->nrows, b->nrows, "%s: %zu rows vs %zu", what, a->nrows, b->nrows);
    for (int c = 0; c < a->ncols; c++)
        for (size_t r = 0; r < a->nrows; r++)
            cr_assert_str_eq(cell(a, c, r), cell(b, c, r), "%s: row %zu column %d", what, r, c);
}

/* Inputs that stress piece boundaries: quoted fields with delimiters,
 * doubled quotes and embedded LF / CRLF, CRLF record ends, 2-, 3- and
 * 4-byte UTF-8 sequences, NULLs, no final newline, a single row. */
static const char *const inputs[] = {
    "1,a\n",
    "1,a",
    "7,\"\"\n",
    "1,\"x,y\"\r\n2,\"he said \"\"hi\"\"\"\r\n3,\"two\nlines\"\r\n4,\r\n",
    "10,caf\xc3\xa9\n11,\xe2\x82\xac uro\n12,\"\xf0\x9d\x84\x9e clef\"\n13,\xce\xbb",
    ",\n,\"\"\n5,\"a\r\nb\"\n6,\"\"\"\"",
    "1,\"\xc3\xa9\"\"\xe2\x82\xac\"\"\"\r\n2,\"\r\n\"\r\n",
};

Test(csv_stdin, pieces_of_any_size_match_the_file) {
    attu_table *base = schema_table("t", "a:int,b:text");
    attu_csv_options o = opts();
    static const size_t patterns[][5] = {
        {1, 1, 1, 1, 1}, {2, 2, 2, 2, 2}, {3, 1, 4, 1, 5}, {7, 1, 1, 2, 9}, {5, 13, 1, 2, 64},
    };
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
        attu_error err;
        attu_table *want = load_str(base, &o, inputs[i], &err);
        cr_assert_not_null(want, "input %zu from a file: %s", i, err.message);
        for (size_t k = 0; k < sizeof patterns / sizeof *patterns; k++) {
            attu_table *got = load_pull(base, &o, inputs[i], strlen(inputs[i]),
                                        patterns[k], 5, &err);
            cr_assert_not_null(got, "input %zu pattern %zu: %s (%s)", i, k, err.message,
                               err.sqlstate);
            char what[64];
            snprintf(what, sizeof what, "input %zu pattern %zu", i, k);
            assert_same_table(got, want, what);
            attu_table_free(got);
        }
        attu_table_free(want);
    }
    attu_table_free(base);
}

Test(csv_stdin, single_row_and_empty_input) {
    attu_table *base = schema_table("t", "a:int,b:text");
    attu_csv_options o = opts();
    const size_t one[] = {1};
    attu_error err;
    attu_table *t = load_pull(base, &o, "1,a\n", 4, one, 1, &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(t->nrows, 1);
    cr_assert_str_eq(cell(t, 0, 0), "1");
    cr_assert_str_eq(cell(t, 1, 0), "a");
    attu_table_free(t);
    t = load_pull(base, &o, "", 0, one, 1, &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(t->nrows, 0);
    attu_table_free(t);
    /* a header alone, then a header and one row without a final newline */
    o.header = true;
    t = load_pull(base, &o, "a,b\n", 4, one, 1, &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(t->nrows, 0);
    attu_table_free(t);
    t = load_pull(base, &o, "a,b\r\n9,z", 8, one, 1, &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(t->nrows, 1);
    cr_assert_str_eq(cell(t, 1, 0), "z");
    attu_table_free(t);
    attu_table_free(base);
}

/* Far more data than the reader's first buffer, in small odd pieces: the
 * buffer grows while pieces straddle every boundary; each row checked. */
Test(csv_stdin, many_small_pieces_grow_the_buffer) {
    attu_table *base = schema_table("t", "a:int,b:text");
    attu_csv_options o = opts();
    size_t rows = 12000, cap = rows * 40, n = 0;
    char *s = malloc(cap);
    for (size_t r = 0; r < rows; r++)
        n += (size_t)snprintf(s + n, cap - n, r % 3 ? "%zu,v%zu\n" : "%zu,\"q,\"\"%zu\"\"\r\n\xc3\xa9\"\r\n",
                              r, r % 101);
    const size_t sizes[] = {1, 7, 3, 13, 2, 31, 5};
    attu_error err;
    attu_table *t = load_pull(base, &o, s, n, sizes, 7, &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(t->nrows, rows);
    for (size_t r = 0; r < rows; r += 997) {
        char want[64];
        snprintf(want, sizeof want, r % 3 ? "v%zu" : "q,\"%zu\"\r\n\xc3\xa9", r % 101);
        cr_assert_str_eq(cell(t, 1, r), want, "row %zu", r);
    }
    attu_table_free(t);
    free(s);
    attu_table_free(base);
}

/* Loads text from STDIN in 2-byte pieces into (a text, b text); returns
 * "a|b;a|b..." or "ERR <sqlstate> <message>". */
static const char *stdin_rows(const char *text) {
    static char out[512];
    attu_table *base = schema_table("t", "a:text,b:text");
    attu_csv_options o = opts();
    const size_t two[] = {2};
    attu_error err;
    attu_table *t = load_pull(base, &o, text, strlen(text), two, 1, &err);
    if (!t) {
        snprintf(out, sizeof out, "ERR %.5s %.400s", err.sqlstate, err.message);
    } else {
        size_t n = 0;
        out[0] = '\0';
        for (size_t r = 0; r < t->nrows; r++)
            n += (size_t)snprintf(out + n, sizeof out - n, "%s%s|%s", r ? ";" : "",
                                  cell(t, 0, r), cell(t, 1, r));
        attu_table_free(t);
    }
    attu_table_free(base);
    return out;
}

Test(csv_stdin, end_of_data_marker) {
    cr_assert_str_eq(stdin_rows("1,a\n\\.\n2,b\n"), "1|a");
    cr_assert_str_eq(stdin_rows("1,a\r\n\\.\r\n2,b\r\n"), "1|a");
    cr_assert_str_eq(stdin_rows("\\.\n"), "");
    /* what follows the marker is discarded, even a broken record */
    cr_assert_str_eq(stdin_rows("1,a\n\\.\njunk\"\n"), "1|a");
    /* data, not a marker: inside quotes, not alone, not at a record start */
    cr_assert_str_eq(stdin_rows("\"x\n\\.\n\",1\n"), "x\n\\.\n|1");
    cr_assert_str_eq(stdin_rows("\\.x,1\n"), "\\.x|1");
    cr_assert_str_eq(stdin_rows("1,\\.\n"), "1|\\.");
    /* PostgreSQL 15 reads a last "\." without a line end as a value */
    cr_assert_str_eq(stdin_rows("1,a\n\\."),
                     "ERR 22P04 STDIN:2:2: missing data for column \"b\"");
}

Test(csv_stdin, bare_cr_line_ends) {
    cr_assert_str_eq(stdin_rows("1,a\r2,b\r"), "1|a;2|b");
    cr_assert_str_eq(stdin_rows("1,\"x\ry\"\r2,b"), "1|x\ry;2|b");
    cr_assert_str_eq(stdin_rows("1,a\r\\.\r2,b\r"), "1|a");
    cr_assert_str_eq(stdin_rows("1,a\r2,b\n3,c\r"),
                     "ERR 22P04 STDIN:2:2: unquoted newline found in data");
    /* the same from a file */
    attu_table *base = schema_table("t", "a:text,b:text");
    attu_csv_options o = opts();
    attu_error err;
    attu_table *t = load_str(base, &o, "1,a\r2,\"b\r\"\r3,c", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(t->nrows, 3);
    cr_assert_str_eq(cell(t, 1, 1), "b\r");
    cr_assert_str_eq(cell(t, 1, 2), "c");
    attu_table_free(t);
    attu_table_free(base);
}

/*
 * Chunk cuts at the awkward places. An input of 2 to 3 MB is parsed as two
 * chunks whose nominal cut is at size / 2; padding the input to twice the
 * offset of a chosen byte puts the cut exactly there: an opening or closing
 * quote, the second quote of a doubled one, the CR or the LF of a CR LF
 * pair, an LF inside quotes, the middle of a UTF-8 sequence. Every cell of
 * every row is checked, from a file and from the pull source.
 */
typedef struct field_form { const char *raw, *value; } field_form;
static const field_form forms[] = {
    {"\"q\"\"x\r\ny\"", "q\"x\r\ny"}, {"\"\"", ""}, {"", "NULL"},
    {"caf\xc3\xa9", "caf\xc3\xa9"}, {"\"a,b\"", "a,b"}, {"plain", "plain"},
};
enum { NFORMS = sizeof forms / sizeof *forms };

typedef struct gen {
    char *s;
    size_t n, cap;
    unsigned char *b, *c;   /* per row: form index of columns b and c */
    size_t rows, rows_cap;
} gen;

static void gen_row(gen *g, unsigned fb, unsigned fc, bool crlf) {
    if (g->rows == g->rows_cap) {
        g->rows_cap = g->rows_cap ? g->rows_cap * 2 : 4096;
        g->b = realloc(g->b, g->rows_cap);
        g->c = realloc(g->c, g->rows_cap);
    }
    if (g->cap - g->n < 128) {
        g->cap = g->cap ? g->cap * 2 : 1 << 16;
        g->s = realloc(g->s, g->cap);
    }
    g->n += (size_t)snprintf(g->s + g->n, g->cap - g->n, "%zu,%s,%s%s", g->rows,
                             forms[fb].raw, forms[fc].raw, crlf ? "\r\n" : "\n");
    g->b[g->rows] = (unsigned char)fb;
    g->c[g->rows] = (unsigned char)fc;
    g->rows++;
}

/* Is the cut before byte p one of the kind asked for? */
static bool cut_kind(const char *s, size_t p, int kind) {
    switch (kind) {
    case 0: return s[p] == '"' && s[p - 1] == ',';                     /* opening quote */
    case 1: return s[p] == '"' && (s[p + 1] == ',' || s[p + 1] == '\r' || s[p + 1] == '\n')
                   && s[p - 1] != '"' && s[p - 1] != ',';             /* closing quote */
    case 2: return s[p] == '"' && s[p - 1] == '"' && s[p - 2] == 'q';  /* 2nd of "" */
    case 3: return s[p] == '\r' && s[p + 1] == '\n' && s[p - 1] != 'x'; /* CR of a record end */
    case 4: return s[p] == '\n' && s[p - 1] == '\r' && s[p - 2] != 'x'; /* LF of a record end */
    case 5: return s[p] == '\n' && s[p - 1] == '\r' && s[p - 2] == 'x'; /* LF inside quotes */
    default: return (unsigned char)s[p] == 0xa9;                      /* inside UTF-8 */
    }
}

Test(csv_stdin, chunk_cuts_at_quotes_crlf_and_utf8, .timeout = 120) {
    attu_table *base = schema_table("t", "a:bigint,b:text,c:text");
    unsigned seed = 12345;
    for (int kind = 0; kind <= 6; kind++) {
        gen g = {0};
        while (g.n < (1100u << 10)) {
            seed = seed * 1103515245u + 12345u;
            gen_row(&g, (seed >> 8) % NFORMS, (seed >> 16) % NFORMS, (seed >> 24) & 1);
        }
        size_t p = g.n - 200;
        while (!cut_kind(g.s, p, kind)) p--;
        /* pad with rows up to 2p - 16 bytes, then one row of the exact length */
        while (g.n + 16 < 2 * p && g.n + 64 < 2 * p) gen_row(&g, 5, 5, false);
        size_t left = 2 * p - g.n;   /* 45..64 bytes: "<row>,<x...>,plain\n" */
        char tail[32];
        int head = snprintf(tail, sizeof tail, "%zu,", g.rows);
        size_t xs = left - (size_t)head - strlen(",plain\n");
        gen_row(&g, 5, 5, false);   /* the last row, rewritten with xs x's in b */
        g.n = 2 * p - left;
        memcpy(g.s + g.n, tail, (size_t)head);
        g.n += (size_t)head;
        memset(g.s + g.n, 'x', xs);
        g.n += xs;
        memcpy(g.s + g.n, ",plain\n", 7);
        g.n += 7;
        cr_assert_eq(g.n, 2 * p, "input is %zu bytes, want %zu", g.n, 2 * p);
        cr_assert_eq(attu_csv_nominal_cut(g.n, 2, 1), p);
        cr_assert_eq(attu_csv_chunk_count(g.n, 1), 2);

        attu_csv_options o = opts();
        o.threads = 1;
        const size_t sizes[] = {4093, 1, 65536, 7};
        for (int from_file = 0; from_file < 2; from_file++) {
            attu_error err;
            attu_table *t = from_file ? load_bytes(base, &o, "cut.csv", g.s, g.n, &err)
                                      : load_pull(base, &o, g.s, g.n, sizes, 4, &err);
            cr_assert_not_null(t, "kind %d: %s", kind, err.message);
            cr_assert_eq(t->nrows, g.rows, "kind %d: %zu rows, want %zu", kind, t->nrows, g.rows);
            for (size_t r = 0; r + 1 < g.rows; r++) {
                char id[32];
                snprintf(id, sizeof id, "%zu", r);
                cr_assert_str_eq(cell(t, 0, r), id, "kind %d row %zu", kind, r);
                cr_assert_str_eq(cell(t, 1, r), forms[g.b[r]].value, "kind %d row %zu", kind, r);
                cr_assert_str_eq(cell(t, 2, r), forms[g.c[r]].value, "kind %d row %zu", kind, r);
            }
            cr_assert_eq(strspn(cell(t, 1, g.rows - 1), "x"), xs);
            attu_table_free(t);
        }
        free(g.s);
        free(g.b);
        free(g.c);
    }
    attu_table_free(base);
}
