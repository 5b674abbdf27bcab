/* Tests for the CSV reader (engine/csv_*.c): every option, every bad-input
 * case with its exact file:line:column, atomicity, parallel chunking. */
#include "csv_test_util.h"

#include "engine/checksum.h"
#include "engine/csv_internal.h"

static attu_csv_options opts(void) {
    attu_csv_options o;
    attu_csv_options_default(&o);
    return o;
}

/* CRC of every column's bytes: proves a failed load touched nothing. */
static uint32_t table_crc(const attu_table *t) {
    uint32_t c = attu_crc32c(0, &t->nrows, sizeof t->nrows);
    for (int i = 0; i < t->ncols; i++) {
        c = attu_crc32c(c, t->cols[i]->data, t->nrows * attu_type_width(t->cols[i]->type.id));
        if (t->cols[i]->validity)
            c = attu_crc32c(c, t->cols[i]->validity, (t->nrows + 63) / 64 * 8);
    }
    return c;
}

/* Loads text into a table that already holds two rows and sits in a
 * catalog; expects the error, and that catalog and table are unchanged. */
static void expect_fail(const char *spec, attu_csv_options o, const char *text,
                        const char *state, const char *message) {
    attu_catalog *cat = attu_catalog_new();
    attu_table *base = schema_table("t", spec);
    attu_error err;
    /* Two rows of NULLs/valid values so there is something to keep. */
    attu_catalog_add(cat, base, NULL);
    attu_table *orig = attu_catalog_lookup(cat, "t");
    uint32_t before = table_crc(orig);
    uint64_t version = orig->version;
    attu_table *t = load_str(orig, &o, text, &err);
    cr_assert_null(t, "load of %s should fail", text);
    cr_assert_str_eq(err.sqlstate, state, "%s", err.message);
    cr_assert_str_eq(err.message, message);
    cr_assert_eq(attu_catalog_lookup(cat, "t"), orig);
    cr_assert_eq(attu_catalog_count(cat), 1);
    cr_assert_eq(orig->version, version);
    cr_assert_eq(table_crc(orig), before);
    attu_catalog_free(cat);
}

Test(csv, all_types_with_header) {
    attu_table *base = schema_table("t",
        "b:bool,i:int,g:bigint,r:real,d:double,n:num(8.2),s:text,dt:date,ts:ts");
    attu_csv_options o = opts();
    o.header = true;
    attu_error err;
    attu_table *t = load_str(base, &o,
        "b,i,g,r,d,n,s,dt,ts\n"
        "true,1,-9000000000,0.5,0.1,12.345,hello,2024-01-02,2024-01-02 03:04:05\n"
        "f,-2,0,1e6,-1e100,-0.5,,1999-12-31,1999-12-31 23:59:59.25\n", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(t->nrows, 2);
    cr_assert_eq(t->version, base->version + 1);
    const char *row0[] = {"t", "1", "-9000000000", "0.5", "0.1", "12.35", "hello",
                          "2024-01-02", "2024-01-02 03:04:05"};
    const char *row1[] = {"f", "-2", "0", "1e+06", "-1e+100", "-0.50", "NULL",
                          "1999-12-31", "1999-12-31 23:59:59.25"};
    for (int c = 0; c < 9; c++) {
        cr_assert_str_eq(cell(t, c, 0), row0[c], "col %d", c);
        cr_assert_str_eq(cell(t, c, 1), row1[c], "col %d", c);
    }
    cr_assert_eq(base->nrows, 0, "base untouched");
    attu_table_free(t);
    attu_table_free(base);
}

Test(csv, rfc4180_quoting) {
    attu_table *base = schema_table("t", "a:text,b:text,c:int");
    attu_csv_options o = opts();
    attu_error err;
    attu_table *t = load_str(base, &o,
        "\"x,y\",\"say \"\"hi\"\"\",1\r\n"
        "\"multi\nline\r\nvalue\",plain,2\r\n"
        "\"\",\"\",3\r\n"
        "a\"b,c\"d,e,4\n", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(t->nrows, 4);
    cr_assert_str_eq(cell(t, 0, 0), "x,y");
    cr_assert_str_eq(cell(t, 1, 0), "say \"hi\"");
    cr_assert_str_eq(cell(t, 0, 1), "multi\nline\r\nvalue");
    cr_assert_str_eq(cell(t, 1, 1), "plain");
    cr_assert_str_eq(cell(t, 2, 1), "2");
    /* A quoted empty string is a value, not NULL. */
    cr_assert_str_eq(cell(t, 0, 2), "");
    cr_assert_str_eq(cell(t, 1, 2), "");
    /* Quotes inside an unquoted field open a quoted section (PostgreSQL). */
    cr_assert_str_eq(cell(t, 0, 3), "ab,cd");
    cr_assert_str_eq(cell(t, 1, 3), "e");
    cr_assert_str_eq(cell(t, 2, 3), "4");
    attu_table_free(t);
    attu_table_free(base);
}

Test(csv, rfc4180_quoting_field_count) {
    /* the last row above: "a\"b,c\"d,4" has 2 fields for a 3-column table */
    expect_fail("a:text,b:text,c:int", opts(), "x,y,1\na\"b,c\"d,4\n", "22P04",
                "t.csv:2:3: missing data for column \"c\"");
}

Test(csv, no_final_newline_empty_and_header_only) {
    attu_table *base = schema_table("t", "a:int,b:text");
    attu_csv_options o = opts();
    attu_error err;
    attu_table *t = load_str(base, &o, "1,x\n2,y", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(t->nrows, 2);
    cr_assert_str_eq(cell(t, 1, 1), "y");
    attu_table_free(t);
    t = load_str(base, &o, "1,x\r\n2,y\r", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_str_eq(cell(t, 1, 1), "y");
    attu_table_free(t);
    t = load_str(base, &o, "", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(t->nrows, 0);
    attu_table_free(t);
    o.header = true;
    t = load_str(base, &o, "a,b\n", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(t->nrows, 0);
    attu_table_free(t);
    t = load_str(base, &o, "a,b", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(t->nrows, 0);
    attu_table_free(t);
    t = load_str(base, &o, "", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(t->nrows, 0);
    attu_table_free(t);
    attu_table_free(base);
}

Test(csv, delimiter_tab_and_pipe) {
    attu_table *base = schema_table("t", "a:int,b:text,c:double");
    attu_csv_options o = opts();
    o.delimiter = '\t';
    attu_error err;
    attu_table *t = load_str(base, &o, "1\thas,comma\t2.5\n", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_str_eq(cell(t, 1, 0), "has,comma");
    cr_assert_str_eq(cell(t, 2, 0), "2.5");
    attu_table_free(t);
    o.delimiter = '|';
    t = load_str(base, &o, "1|\"a|b\"|3\n", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_str_eq(cell(t, 1, 0), "a|b");
    attu_table_free(t);
    attu_table_free(base);
}

Test(csv, null_string) {
    attu_table *base = schema_table("t", "a:int,b:text");
    attu_csv_options o = opts();
    attu_error err;
    attu_table *t = load_str(base, &o, ",\n5,\"\"\n", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_str_eq(cell(t, 0, 0), "NULL");
    cr_assert_str_eq(cell(t, 1, 0), "NULL");
    cr_assert_str_eq(cell(t, 1, 1), "");
    cr_assert_eq(attu_column_null_count(t->cols[0]), 1);
    cr_assert_eq(attu_column_null_count(t->cols[1]), 1);
    attu_table_free(t);
    o.null_string = "NA";
    t = load_str(base, &o, "NA,NA\n1,\"NA\"\n2,\n", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_str_eq(cell(t, 0, 0), "NULL");
    cr_assert_str_eq(cell(t, 1, 0), "NULL");
    cr_assert_str_eq(cell(t, 1, 1), "NA", "quoted NA is a string");
    cr_assert_str_eq(cell(t, 1, 2), "", "empty is a string when NULL is NA");
    attu_table_free(t);
    /* An empty unquoted field is not NULL then, so an int column rejects it. */
    expect_fail("a:int,b:text", o, "1,x\n,y\n", "22P02",
                "t.csv:2:1: invalid input syntax for type integer: \"\"");
    attu_table_free(base);
}

Test(csv, quote_and_escape) {
    attu_table *base = schema_table("t", "a:text,b:int");
    attu_csv_options o = opts();
    o.quote = '\'';
    o.escape = '\'';
    attu_error err;
    attu_table *t = load_str(base, &o, "'it''s, ok',1\n\"x\",2\n", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_str_eq(cell(t, 0, 0), "it's, ok");
    cr_assert_str_eq(cell(t, 0, 1), "\"x\"");
    attu_table_free(t);
    o = opts();
    o.escape = '\\';
    t = load_str(base, &o, "\"a\\\"b\\\\c\",1\n\"back\\slash\",2\nx\\y,3\n", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_str_eq(cell(t, 0, 0), "a\"b\\c");
    cr_assert_str_eq(cell(t, 0, 1), "back\\slash", "escape before other bytes is literal");
    cr_assert_str_eq(cell(t, 0, 2), "x\\y", "escape outside quotes is data");
    attu_table_free(t);
    /* An unset escape (0) means "same as the quote". */
    o = opts();
    o.escape = '\0';
    t = load_str(base, &o, "\"a\"\"b\",1\n", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_str_eq(cell(t, 0, 0), "a\"b");
    attu_table_free(t);
    attu_table_free(base);
}

Test(csv, encodings) {
    attu_table *base = schema_table("t", "a:text,b:int");
    attu_csv_options o = opts();
    attu_error err;
    /* UTF-8 passes through. */
    attu_table *t = load_str(base, &o, "Ca\xc3\xb1on,1\n", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_str_eq(cell(t, 0, 0), "Ca\xc3\xb1on");
    attu_table_free(t);
    /* LATIN1 is converted. */
    o.encoding = ATTU_ENCODING_LATIN1;
    t = load_str(base, &o, "Ca\xf1on,1\n\xe9t\xe9,2\n", &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_str_eq(cell(t, 0, 0), "Ca\xc3\xb1on");
    cr_assert_str_eq(cell(t, 0, 1), "\xc3\xa9t\xc3\xa9");
    attu_table_free(t);
    attu_table_free(base);
    /* Invalid UTF-8: line and field of the bad byte; the bytes its first
     * announces, as PostgreSQL quotes them (0xe9: three) */
    expect_fail("a:text,b:text", opts(), "ok,ok\nok,\"multi\nli\xe9ne\"\n", "22021",
                "t.csv:2:2: invalid byte sequence for encoding \"UTF8\": 0xe9 0x6e 0x65");
    expect_fail("a:text,b:text", opts(), "a,b\n\xff,x\n", "22021",
                "t.csv:2:1: invalid byte sequence for encoding \"UTF8\": 0xff");
    expect_fail("a:text,b:text", opts(), "a,\xed\xa0\x80\n", "22021",   /* surrogate */
                "t.csv:1:2: invalid byte sequence for encoding \"UTF8\": 0xed 0xa0 0x80");
    expect_fail("a:text,b:text", opts(), "a,\xc0\xaf\n", "22021",       /* overlong */
                "t.csv:1:2: invalid byte sequence for encoding \"UTF8\": 0xc0 0xaf");
    expect_fail("a:text,b:text", opts(), "a,b\nc,d\xc3", "22021",     /* truncated at EOF */
                "t.csv:2:2: invalid byte sequence for encoding \"UTF8\": 0xc3");
}

Test(csv, nul_byte_rejected) {
    static const char data[] = "a,b\nc,d\0e\n";
    attu_table *base = schema_table("t", "a:text,b:text");
    attu_csv_options o = opts();
    attu_error err;
    attu_table *t = load_bytes(base, &o, "nul.csv", data, sizeof data - 1, &err);
    cr_assert_null(t);
    cr_assert_str_eq(err.message, "nul.csv:2:2: invalid byte sequence for encoding \"UTF8\": 0x00");
    attu_table_free(base);
}

Test(csv, type_errors_name_line_and_column) {
    expect_fail("a:int,b:double", opts(), "1,2\n3,abc\n", "22P02",
                "t.csv:2:2: invalid input syntax for type double precision: \"abc\"");
    expect_fail("a:int,b:double", opts(), "1,2\n99999999999,1\n", "22003",
                "t.csv:2:1: value \"99999999999\" is out of range for type integer");
    expect_fail("a:int,b:double", opts(), "1,1e999\n", "22003",
                "t.csv:1:2: \"1e999\" is out of range for type double precision");
    expect_fail("a:text,b:num(4.2)", opts(), "x,12.5\ny,123.4\n", "22003",
                "t.csv:2:2: numeric field overflow");
    expect_fail("a:text,b:date", opts(), "\"x\ny\",2023-02-30\n", "22008",
                "t.csv:2:2: date/time field value out of range: \"2023-02-30\"");
    expect_fail("a:text,b:bool", opts(), "\"x\ny\",maybe\n", "22P02",
                "t.csv:2:2: invalid input syntax for type boolean: \"maybe\"");
    /* Lines count physical lines: the field after a 3-line value. */
    expect_fail("a:text,b:int", opts(), "ok,1\n\"l1\nl2\nl3\",x\n", "22P02",
                "t.csv:4:2: invalid input syntax for type integer: \"x\"");
    expect_fail("a:text,b:int", opts(), "ok,1\n\"l1\nl2\nl3\",1\nz,q\n", "22P02",
                "t.csv:5:2: invalid input syntax for type integer: \"q\"");
    /* With a header the header line still counts. */
    attu_csv_options h = opts();
    h.header = true;
    expect_fail("a:text,b:int", h, "a,b\nx,1\ny,z\n", "22P02",
                "t.csv:3:2: invalid input syntax for type integer: \"z\"");
}

Test(csv, structure_errors) {
    expect_fail("a:int,b:int", opts(), "1,2\n3\n", "22P04",
                "t.csv:2:2: missing data for column \"b\"");
    expect_fail("a:int,b:int", opts(), "1,2\n3,4,5\n", "22P04",
                "t.csv:2:3: extra data after last expected column");
    expect_fail("a:int,b:int", opts(), "1,2\n\n", "22P04",
                "t.csv:2:2: missing data for column \"b\"");
    expect_fail("a:int,b:text", opts(), "1,ok\n2,\"never closed\n3,x\n", "22P04",
                "t.csv:2:2: unterminated CSV quoted field");
    attu_csv_options h = opts();
    h.header = true;
    expect_fail("a:int,b:text", h, "\"a,b\n1,2\n", "22P04",
                "t.csv:1:1: unterminated CSV quoted field");
}

Test(csv, not_null_violation) {
    expect_fail("a:int!,b:text", opts(), "1,x\n,y\n", "23502",
                "t.csv:2:1: null value in column \"a\" of relation \"t\" violates not-null constraint");
}

Test(csv, option_errors) {
    attu_csv_options o = opts();
    o.delimiter = '"';
    expect_fail("a:int", o, "1\n", "22023", "COPY delimiter and quote must be different");
    o = opts();
    o.null_string = "a,b";
    expect_fail("a:int", o, "1\n", "22023",
                "COPY delimiter must not appear in the NULL specification");
    o = opts();
    o.delimiter = '\n';
    expect_fail("a:int", o, "1\n", "22023",
                "COPY delimiter cannot be newline or carriage return");
}

Test(csv, missing_file) {
    attu_table *base = schema_table("t", "a:int");
    attu_csv_options o = opts();
    attu_csv_source src = { "/nonexistent/x.csv", NULL, NULL, NULL };
    attu_error err;
    attu_error_clear(&err);
    cr_assert_null(attu_csv_load(base, &o, &src, NULL, &err));
    cr_assert_str_eq(err.sqlstate, "58P01");
    cr_assert_str_eq(err.message,
        "could not open file \"/nonexistent/x.csv\" for reading: No such file or directory");
    attu_table_free(base);
}

Test(csv, appends_and_merges_dictionaries) {
    attu_table *base = schema_table("t", "k:text,v:int");
    attu_csv_options o = opts();
    attu_error err;
    attu_table *t1 = load_str(base, &o, "m,1\nc,2\n,3\n", &err);
    cr_assert_not_null(t1, "%s", err.message);
    attu_table *t2 = load_str(t1, &o, "a,4\nm,5\nz,6\n", &err);
    cr_assert_not_null(t2, "%s", err.message);
    cr_assert_eq(t2->nrows, 6);
    const char *k[] = {"m", "c", "NULL", "a", "m", "z"};
    for (int r = 0; r < 6; r++) {
        cr_assert_str_eq(cell(t2, 0, (size_t)r), k[r]);
        cr_assert_eq(atoi(cell(t2, 1, (size_t)r)), r + 1);
    }
    cr_assert_eq(t2->cols[0]->dict->count, 4);   /* a c m z */
    int32_t *codes = t2->cols[0]->data;
    cr_assert_eq(codes[0], 2);
    cr_assert_eq(codes[1], 1);
    cr_assert_eq(codes[3], 0);
    cr_assert_eq(codes[5], 3);
    /* t1 still reads as before (its own dictionary). */
    cr_assert_str_eq(cell(t1, 0, 0), "m");
    cr_assert_eq(t1->cols[0]->dict->count, 2);
    attu_table_free(t1);
    attu_table_free(t2);
    attu_table_free(base);
}

static ssize_t read_pieces(void *ctx, char *buf, size_t cap, attu_error *err) {
    const char **p = ctx;
    size_t n = strlen(*p);
    if (n > 3) n = 3;   /* tiny pieces: records straddle reads */
    if (n > cap) n = cap;
    memcpy(buf, *p, n);
    *p += n;
    return (ssize_t)n;
}

static ssize_t read_fail(void *ctx, char *buf, size_t cap, attu_error *err) {
    attu_error_set(err, "57014", 0, "COPY from stdin failed: client said no");
    return -1;
}

Test(csv, stdin_source) {
    attu_table *base = schema_table("t", "a:int,b:text");
    attu_csv_options o = opts();
    const char *data = "1,\"one\nuno\"\n2,two\n";
    attu_csv_source src = { NULL, read_pieces, &data, "STDIN" };
    attu_error err;
    attu_error_clear(&err);
    size_t rows;
    attu_table *t = attu_csv_load(base, &o, &src, &rows, &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(rows, 2);
    cr_assert_str_eq(cell(t, 1, 0), "one\nuno");
    attu_table_free(t);
    data = "1,x\n2,y,z\n";
    attu_error_clear(&err);
    cr_assert_null(attu_csv_load(base, &o, &src, &rows, &err));
    cr_assert_str_eq(err.message, "STDIN:2:3: extra data after last expected column");
    attu_csv_source bad = { NULL, read_fail, NULL, "STDIN" };
    attu_error_clear(&err);
    cr_assert_null(attu_csv_load(base, &o, &bad, &rows, &err));
    cr_assert_str_eq(err.sqlstate, "57014");
    attu_table_free(base);
}

/* A few MB with quotes, embedded newlines and NULLs: the chunked parallel
 * parse must give exactly the sequential result, and errors deep in the
 * file must carry the right line number. */
static char *big_csv(size_t rows, size_t *len, size_t bad_row) {
    size_t cap = rows * 80 + 64, n = 0;
    char *s = malloc(cap);
    n += (size_t)sprintf(s + n, "id,name,val\n");
    for (size_t r = 0; r < rows; r++) {
        if (r == bad_row) { n += (size_t)sprintf(s + n, "%zu,bad,notanumber\n", r); continue; }
        switch (r % 5) {
        case 0: n += (size_t)sprintf(s + n, "%zu,\"name \"\"%zu\"\"\nsecond line\",%zu.25\n", r, r % 97, r); break;
        case 1: n += (size_t)sprintf(s + n, "%zu,plain%zu,\n", r, r % 13); break;
        case 2: n += (size_t)sprintf(s + n, "%zu,\"a,b\",-%zu\r\n", r, r); break;
        default: n += (size_t)sprintf(s + n, "%zu,\"\",%zu\n", r, r * 3); break;
        }
    }
    *len = n;
    return s;
}

Test(csv, parallel_chunks_match_sequential) {
    size_t len;
    char *data = big_csv(120000, &len, (size_t)-1);
    cr_assert_gt(attu_csv_chunk_count(len, 2), 1, "the test must use several chunks");
    attu_table *base = schema_table("t", "id:bigint,name:text,val:double");
    attu_csv_options o = opts();
    o.header = true;
    attu_error err;
    o.threads = 1;
    attu_table *a = load_bytes(base, &o, "big.csv", data, len, &err);
    cr_assert_not_null(a, "%s", err.message);
    o.threads = 3;
    attu_table *b = load_bytes(base, &o, "big.csv", data, len, &err);
    cr_assert_not_null(b, "%s", err.message);
    cr_assert_eq(a->nrows, 120000);
    cr_assert_eq(b->nrows, 120000);
    for (int c = 0; c < 3; c++) {
        size_t w = attu_type_width(a->cols[c]->type.id);
        cr_assert_eq(memcmp(a->cols[c]->data, b->cols[c]->data, a->nrows * w), 0);
        cr_assert_eq(attu_column_null_count(a->cols[c]), attu_column_null_count(b->cols[c]));
    }
    for (size_t r = 0; r < a->nrows; r++) cr_assert_eq(atoll(cell(b, 0, r)), (long long)r);
    cr_assert_str_eq(cell(b, 1, 100000), "name \"90\"\nsecond line");
    cr_assert_str_eq(cell(b, 2, 100001), "NULL");
    cr_assert_eq(attu_column_null_count(b->cols[2]), 24000);
    attu_table_free(a);
    attu_table_free(b);
    free(data);

    /* An error near the end: row r sits on line 2 + r + (rows before it
     * with r % 5 == 0, which take two lines). */
    size_t bad = 110003;
    data = big_csv(120000, &len, bad);
    o.threads = 2;
    attu_table *c = load_bytes(base, &o, "big.csv", data, len, &err);
    cr_assert_null(c);
    char want[128];
    snprintf(want, sizeof want,
             "big.csv:%zu:3: invalid input syntax for type double precision: \"notanumber\"",
             2 + bad + (bad + 4) / 5);
    cr_assert_str_eq(err.message, want);
    free(data);
    attu_table_free(base);
}

Test(csv, parallel_with_backslash_escape) {
    /* escape != quote: boundaries come from the sequential scan. */
    size_t rows = 200000, cap = rows * 40, n = 0;
    char *s = malloc(cap);
    for (size_t r = 0; r < rows; r++)
        n += (size_t)sprintf(s + n, "%zu,\"q\\\"%zu\n\"\n", r, r % 7);
    attu_table *base = schema_table("t", "id:bigint,s:text");
    attu_csv_options o = opts();
    o.escape = '\\';
    o.threads = 2;
    attu_error err;
    cr_assert_gt(attu_csv_chunk_count(n, 2), 1);
    attu_table *t = load_bytes(base, &o, "esc.csv", s, n, &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(t->nrows, rows);
    cr_assert_str_eq(cell(t, 1, 199999), "q\"2\n");
    cr_assert_eq(t->cols[1]->dict->count, 7);
    attu_table_free(t);
    attu_table_free(base);
    free(s);
}

Test(csv, offsets_are_64_bit) {
    /* The chunk arithmetic over a 5 GB and a 2^62-byte input: cuts grow,
     * stay inside the input, and never overflow (size * i would). */
    size_t sizes[] = {(size_t)5 << 30, (size_t)1 << 62, ((size_t)2 << 30) + 12345};
    for (int k = 0; k < 3; k++) {
        size_t size = sizes[k];
        size_t n = attu_csv_chunk_count(size, 2);
        cr_assert_geq(n, 2);
        size_t prev = 0;
        for (size_t i = 1; i <= n; i++) {
            size_t c = attu_csv_nominal_cut(size, n, i);
            cr_assert_gt(c, prev);
            cr_assert_leq(c, size);
            prev = c;
        }
        cr_assert_eq(attu_csv_nominal_cut(size, n, n), size);
        /* Exact: cut i is floor(size * i / n) computed in 128 bits. */
        for (size_t i = 0; i < n; i += n / 7 + 1) {
            unsigned __int128 exact = (unsigned __int128)size * i / n;
            cr_assert_eq(attu_csv_nominal_cut(size, n, i), (size_t)exact);
        }
    }
    cr_assert_eq(sizeof(((attu_table *)0)->nrows), 8);
}

/* A column whose every value writes its zone is timestamptz (an instant);
 * one zone-less value among them makes it timestamp, as before. */
Test(csv, infer_timestamptz) {
    const char *text =
        "a,b,c\n"
        "2024-03-01 12:00:00+02,2024-03-01T10:00:00Z,2024-03-01 12:00:00+02\n"
        "2024-03-02 08:30:00 America/New_York,2024-03-02 10:00:00-05:30,2024-03-02 12:00:00\n";
    char *path = tmp_file("infer_tz.csv", text, strlen(text));
    attu_csv_options o = opts();
    o.header = true;
    attu_column_def *defs = NULL;
    attu_error err;
    attu_error_clear(&err);
    int n = attu_csv_infer_schema(&o, path, 100, &defs, &err);
    cr_assert_eq(n, 3, "%s", err.message);
    cr_expect_eq(defs[0].type.id, ATTU_TYPE_TIMESTAMPTZ);
    cr_expect_eq(defs[1].type.id, ATTU_TYPE_TIMESTAMPTZ);
    cr_expect_eq(defs[2].type.id, ATTU_TYPE_TIMESTAMP);
    free(defs);
}

Test(csv, infer_schema) {
    const char *text =
        "Name, Count ,Ratio,When,At,Flag,Empty,name\n"
        "x,1,1.5,2024-01-01,2024-01-01 10:00:00,true,,a\n"
        "y,-7,2,2023-12-31,2023-12-31 00:00:01.5,F,,b\n"
        "z,,3e2,,,,,c\n";
    char *path = tmp_file("infer.csv", text, strlen(text));
    attu_csv_options o = opts();
    o.header = true;
    attu_column_def *defs = NULL;
    attu_error err;
    attu_error_clear(&err);
    int n = attu_csv_infer_schema(&o, path, 100, &defs, &err);
    cr_assert_eq(n, 8, "%s", err.message);
    const char *names[] = {"name", "count", "ratio", "when", "at", "flag", "empty", "name_2"};
    attu_type_id types[] = {ATTU_TYPE_TEXT, ATTU_TYPE_INT64, ATTU_TYPE_FLOAT64, ATTU_TYPE_DATE,
                            ATTU_TYPE_TIMESTAMP, ATTU_TYPE_BOOL, ATTU_TYPE_TEXT, ATTU_TYPE_TEXT};
    for (int i = 0; i < 8; i++) {
        cr_assert_str_eq(defs[i].name, names[i]);
        cr_assert_eq(defs[i].type.id, types[i], "column %d", i);
    }
    /* The inferred schema loads the same file. */
    attu_table *base = attu_table_new("inf", n, defs, NULL);
    attu_csv_source src = { path, NULL, NULL, NULL };
    attu_table *t = attu_csv_load(base, &o, &src, NULL, &err);
    cr_assert_not_null(t, "%s", err.message);
    cr_assert_eq(t->nrows, 3);
    cr_assert_str_eq(cell(t, 2, 2), "300");
    attu_table_free(t);
    attu_table_free(base);
    free(defs);
    /* Without a header: column1..N, and a sample of 1 row. */
    o.header = false;
    n = attu_csv_infer_schema(&o, path, 1, &defs, &err);
    cr_assert_eq(n, 8);
    cr_assert_str_eq(defs[0].name, "column1");
    cr_assert_eq(defs[1].type.id, ATTU_TYPE_TEXT);
    free(defs);
    tmp_remove(path);
}

/* The reader's fast number/date paths must agree bit for bit with
 * attu_value_parse on every spelling (random digits, signs, points). */
Test(csv, fast_paths_match_value_parse) {
    attu_type types[] = {attu_type_make(ATTU_TYPE_INT32), attu_type_make(ATTU_TYPE_INT64),
                         attu_type_make(ATTU_TYPE_FLOAT64), attu_type_decimal(9, 3),
                         attu_type_decimal(18, 0), attu_type_make(ATTU_TYPE_DATE)};
    const char *specs[] = {"v:int", "v:bigint", "v:double", "v:num(9.3)", "v:num(18.0)", "v:date"};
    unsigned long long x = 0x243f6a8885a308d3ULL;
    for (int k = 0; k < 6; k++) {
        enum { N = 3000 };
        char *text = malloc(N * 40), (*vals)[40] = malloc(N * 40);
        size_t n = 0;
        for (int i = 0; i < N; i++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            char *v = vals[i];
            int len = 0;
            if (k == 5) {
                len = snprintf(v, 40, "%04llu-%02llu-%02llu", x % 3000, (x >> 12) % 14, (x >> 20) % 33);
            } else {
                if (x & 1) v[len++] = '-';
                int digits = 1 + (int)((x >> 3) % 20), point = (int)((x >> 9) % 24) - 2;
                for (int d = 0; d < digits; d++) {
                    if (d == point) v[len++] = '.';
                    v[len++] = (char)('0' + (x >> (13 + d * 2)) % 10);
                }
            }
            v[len] = '\0';
            n += (size_t)sprintf(text + n, "%s\n", v);
        }
        attu_table *base = schema_table("t", specs[k]);
        attu_csv_options o = opts();
        /* Good values: one bulk load, compared row by row. Bad ones: the
         * first few alone, each failing with attu_value_parse's message. */
        size_t good_n = 0, bad_seen = 0;
        uint64_t *want = malloc(N * sizeof *want);
        int *good_idx = malloc(N * sizeof *good_idx);
        n = 0;
        for (int i = 0; i < N; i++) {
            attu_error e2;
            attu_error_clear(&e2);
            uint64_t slot = 0;
            if (attu_value_parse(types[k], vals[i], strlen(vals[i]), &slot, &e2) == 0) {
                want[good_n] = slot;
                good_idx[good_n++] = i;
                n += (size_t)sprintf(text + n, "%s\n", vals[i]);
            } else if (bad_seen++ < 15) {
                char line[48];
                snprintf(line, sizeof line, "%s\n", vals[i]);
                attu_error e1;
                cr_assert_null(load_str(base, &o, line, &e1), "%s should fail", vals[i]);
                cr_assert(strstr(e1.message, e2.message) != NULL, "%s vs %s", e1.message, e2.message);
            }
        }
        cr_assert_gt(good_n, 100, "type %d: enough valid values", k);
        attu_error e;
        attu_table *t = load_bytes(base, &o, "fast.csv", text, n, &e);
        cr_assert_not_null(t, "%s", e.message);
        size_t w = attu_type_width(types[k].id);
        for (size_t r = 0; r < good_n; r++)
            cr_assert_eq(memcmp((char *)t->cols[0]->data + r * w, &want[r], w), 0,
                         "type %d value %s", k, vals[good_idx[r]]);
        attu_table_free(t);
        free(want);
        free(good_idx);
        attu_table_free(base);
        free(text);
        free(vals);
    }
}

/* Random bytes from a CSV-hostile alphabet: nothing crashes, every failure
 * is a proper error, and the chunked parallel parse agrees with the
 * sequential one (same rows, or the same first error) on multi-MB inputs. */
static char *random_csv(unsigned long long *x, size_t n, int valid_utf8) {
    static const char alphabet[] = {',', '"', '\n', '\r', 'a', '1', '2', '\\', ' ', '-', '.',
                                    (char)0xc3, (char)0xa9, '\n', '1', 'z'};
    char *s = malloc(n + 2);
    for (size_t i = 0; i < n; i++) {
        *x ^= *x << 13; *x ^= *x >> 7; *x ^= *x << 17;
        s[i] = alphabet[*x % sizeof alphabet];
        if (valid_utf8 && (unsigned char)s[i] >= 0x80) {
            s[i] = (char)0xc3;   /* always the whole of U+00E9 */
            if (i + 1 < n) s[++i] = (char)0xa9;
            else s[i] = 'e';
        }
    }
    s[n] = '\0';
    return s;
}

static int same_outcome(const char *spec, attu_csv_options o, const char *data, size_t n) {
    attu_table *base = schema_table("t", spec);
    attu_error e1, e2;
    int loaded = 0;
    o.threads = 1;
    attu_table *a = load_bytes(base, &o, "r.csv", data, n, &e1);
    o.threads = 3;
    attu_table *b = load_bytes(base, &o, "r.csv", data, n, &e2);
    cr_assert_eq(a == NULL, b == NULL, "sequential: %s / parallel: %s", e1.message, e2.message);
    if (!a) {
        cr_assert_str_eq(e1.message, e2.message);
        cr_assert(strncmp(e1.message, "r.csv:", 6) == 0, "%s", e1.message);
    } else {
        loaded = 1;
        cr_assert_eq(a->nrows, b->nrows);
        for (size_t r = 0; r < a->nrows; r++)
            for (int c = 0; c < a->ncols; c++)
                cr_assert_str_eq(cell(a, c, r), cell(b, c, r));
    }
    attu_table_free(a);
    attu_table_free(b);
    attu_table_free(base);
    return loaded;
}

Test(csv, random_inputs_are_safe) {
    unsigned long long x = 0x9e3779b97f4a7c15ULL;
    attu_csv_options o = opts();
    for (int i = 0; i < 150; i++) {
        size_t n = (size_t)(x % 200);
        char *s = random_csv(&x, n, 0);
        o.escape = (i & 1) ? '\\' : '"';
        o.header = (i & 2) != 0;
        same_outcome(i % 3 ? "a:text" : "a:text,b:text", o, s, n);
        free(s);
    }
    /* Multi-MB: several chunks, quotes everywhere. A single-column text
     * table accepts almost anything, so most of these load. */
    int loaded = 0;
    for (int i = 0; i < 3; i++) {
        size_t n = (size_t)3 << 20;
        char *s = random_csv(&x, n, 1);
        o.escape = i ? '\\' : '"';
        o.header = false;
        cr_assert_gt(attu_csv_chunk_count(n, 3), 1);
        if (i == 2) {
            /* Balance the quotes so the whole input is one valid load. */
            size_t q = 0;
            for (size_t k = 0; k < n; k++) q += s[k] == '"';
            if (q & 1) s[n - 1] = '"';
            o.escape = '"';
            o.delimiter = '|';   /* not in the alphabet: one field a record */
        }
        loaded += same_outcome("a:text", o, s, n);
        free(s);
    }
    cr_assert_geq(loaded, 1, "at least the balanced input loads");
}
