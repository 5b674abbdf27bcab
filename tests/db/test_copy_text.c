/*
 * test_copy_text.c - COPY in PostgreSQL's text format (the default format
 * of COPY and of psql's \copy) through db/database.h: COPY FROM STDIN
 * decodes backslash escapes as PostgreSQL 15 does, "\." ends the data, and
 * what COPY TO STDOUT writes loads back to the same values (a round trip).
 * COPY's errors, in the text and CSV formats, carry PostgreSQL's message,
 * DETAIL, HINT and CONTEXT line ("COPY t, line 2, column a: \"zz\"").
 * Expected values are PostgreSQL 15's (15.18).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"

static attu_db *db;
static attu_session *s;

static void setup(void) {
    s = tdb_open_session(&db);
    tres r;
    tdb_exec(s, "CREATE TABLE x (id INTEGER, s TEXT)", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    tres_free(&r);
}
static void teardown(void) { attu_session_free(s); attu_db_close(db); }

TestSuite(copy_text, .init = setup, .fini = teardown);

/* COPY data in (served in small pieces, so escapes span reads) and out. */
typedef struct copyio {
    const char *in;
    size_t inlen, pos;
    char *out;
    size_t olen;
    attu_error err;
} copyio;

static int cin_begin(void *c, int n, bool b) { (void)c; (void)n; (void)b; return 0; }
static ssize_t cin_read(void *c, char *buf, size_t cap, attu_error *err) {
    (void)err;
    copyio *x = c;
    size_t n = x->inlen - x->pos;
    if (n > cap) n = cap;
    if (n > 5) n = 5;
    memcpy(buf, x->in + x->pos, n);
    x->pos += n;
    return (ssize_t)n;
}
static int cout_begin(void *c, int n, bool b) { (void)c; (void)n; (void)b; return 0; }
static int cout_data(void *c, const char *buf, size_t len) {
    copyio *x = c;
    char *p = realloc(x->out, x->olen + len + 1);
    if (!p) return -1;
    memcpy(p + x->olen, buf, len);
    x->out = p;
    x->olen += len;
    x->out[x->olen] = 0;
    return 0;
}
static int on_res(void *c, attu_result *r) { (void)c; (void)r; return 0; }
static void on_err(void *c, const attu_error *e) { ((copyio *)c)->err = *e; }

/* Runs a COPY statement with `in` (len bytes) as its STDIN; returns the
 * exec code, x->out holding what COPY TO STDOUT wrote. */
static int run_copy(copyio *x, const char *sql, const char *in, size_t len) {
    memset(x, 0, sizeof *x);
    x->in = in;
    x->inlen = len;
    attu_error_clear(&x->err);
    attu_exec_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ctx = x; cb.on_result = on_res; cb.on_error = on_err;
    cb.copy_in_begin = cin_begin; cb.copy_in_read = cin_read;
    cb.copy_out_begin = cout_begin; cb.copy_out_data = cout_data;
    return attu_session_exec(s, sql, &cb);
}

#define COPY_IN(x, sql, lit) run_copy((x), (sql), (lit), sizeof(lit) - 1)

Test(copy_text, escapes_decoded) {
    copyio x;
    static const char data[] =
        "1\ta\\tb\n"                     /* \t: a tab */
        "2\tx\\\\y\n"                    /* \\: one backslash */
        "3\t\\N\n"                       /* \N: NULL */
        "4\t\\\\N\n"                     /* \\N: the text \N */
        "5\tq\\x41\\101\\z\\\tw\n"       /* hex, octal, \z is z, escaped delimiter */
        "6\t\\x4g\\xg\\8\\9\n"           /* one hex digit; \x without one is x */
        "7\tline\\\nbreak\n"             /* an escaped newline is data */
        "8\t\"quoted\"\n"                /* quotes are ordinary */
        "9\t\\303\\251\\xc3\\xa9\n"      /* escaped UTF-8 bytes */
        "10\t\\b\\f\\n\\r\\v\n"
        "11\t\n"                         /* empty string, not NULL */
        "12\t\\N\\N\n";
    cr_assert_eq(COPY_IN(&x, "COPY x FROM STDIN", data), 0, "%s", x.err.message);
    cr_assert_str_eq(tdb_rows(s, "SELECT id, length(s), s IS NULL FROM x ORDER BY id"),
                     "1|3|f\n2|3|f\n3|NULL|t\n4|2|f\n5|6|f\n6|6|f\n7|10|f\n"
                     "8|8|f\n9|2|f\n10|5|f\n11|0|f\n12|2|f\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT s FROM x WHERE id IN (1, 2, 4, 5, 7, 8, 9, 12) ORDER BY id"),
                     "a\tb\nx\\y\n\\N\nqAAz\tw\nline\nbreak\n\"quoted\"\n\xc3\xa9\xc3\xa9\nNN\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT s = E'\\x04gxg89' FROM x WHERE id = 6"), "t\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT s = E'\\b\\f\\n\\r' || E'\\x0b' FROM x WHERE id = 10"), "t\n");
    /* COPY TO writes them escaped again, as PostgreSQL 15 does */
    cr_assert_eq(run_copy(&x, "COPY (SELECT * FROM x ORDER BY id) TO STDOUT", "", 0), 0, "%s", x.err.message);
    cr_assert_str_eq(x.out,
                     "1\ta\\tb\n2\tx\\\\y\n3\t\\N\n4\t\\\\N\n5\tqAAz\\tw\n6\t\x04gxg89\n7\tline\\nbreak\n"
                     "8\t\"quoted\"\n9\t\xc3\xa9\xc3\xa9\n10\t\\b\\f\\n\\r\\v\n11\t\n12\tNN\n");
    free(x.out);
}

/* What COPY TO STDOUT writes, COPY FROM STDIN reads back to equal values. */
Test(copy_text, round_trip) {
    tres r;
    tdb_exec(s, "CREATE TABLE src (id INTEGER, s TEXT, d DATE, v DOUBLE PRECISION);"
                "INSERT INTO src VALUES (1, E'tab\\there', '2020-01-02', 1.5), (2, E'back\\\\slash\\\\', NULL, NULL),"
                " (3, E'nl\\nand\\rcr', '1999-12-31', -2), (4, '\\N', NULL, 0), (5, '', NULL, NULL), (6, NULL, NULL, NULL),"
                " (7, E'\\b\\f' || E'\\x0b' || '\"q\"|,;', '2000-02-29', 1e100), (8, E'\\u00e9\\\\.', NULL, NULL);"
                "CREATE TABLE dst (id INTEGER, s TEXT, d DATE, v DOUBLE PRECISION);"
                "CREATE TABLE dst2 (id INTEGER, s TEXT, d DATE, v DOUBLE PRECISION)", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    tres_free(&r);
    copyio out, in;
    cr_assert_eq(run_copy(&out, "COPY src TO STDOUT", "", 0), 0, "%s", out.err.message);
    cr_assert_eq(run_copy(&in, "COPY dst FROM STDIN", out.out, out.olen), 0, "%s", in.err.message);
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM dst"), "8\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM (SELECT * FROM src EXCEPT SELECT * FROM dst) e"), "0\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM (SELECT * FROM dst EXCEPT SELECT * FROM src) e"), "0\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT id FROM dst WHERE s IS NULL"), "6\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT id FROM dst WHERE s = '\\N'"), "4\n");
    /* another delimiter and NULL string, with the end marker psql sends */
    copyio out2, in2;
    cr_assert_eq(run_copy(&out2, "COPY src TO STDOUT WITH (DELIMITER '|', NULL 'nil')", "", 0), 0, "%s", out2.err.message);
    char *data = malloc(out2.olen + 4);
    memcpy(data, out2.out, out2.olen);
    memcpy(data + out2.olen, "\\.\n", 4);
    cr_assert_eq(run_copy(&in2, "COPY dst2 FROM STDIN WITH (FORMAT text, DELIMITER '|', NULL 'nil')", data, out2.olen + 3), 0,
                 "%s", in2.err.message);
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM (SELECT * FROM src EXCEPT SELECT * FROM dst2) e"), "0\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*), count(s) FROM dst2"), "8|7\n");
    free(data);
    free(out.out);
    free(out2.out);
}

Test(copy_text, end_of_data_marker) {
    copyio x;
    /* "\." alone on a line ends the data; what follows is ignored */
    cr_assert_eq(COPY_IN(&x, "COPY x FROM STDIN", "1\ta\n\\.\n2\tb\n"), 0, "%s", x.err.message);
    cr_assert_str_eq(tdb_rows(s, "SELECT id, s FROM x ORDER BY id"), "1|a\n");
    /* CR LF line ends */
    cr_assert_eq(COPY_IN(&x, "COPY x FROM STDIN", "3\tc\r\n4\td\r\n\\.\r\n"), 0, "%s", x.err.message);
    cr_assert_str_eq(tdb_rows(s, "SELECT id, s, length(s) FROM x WHERE id > 1 ORDER BY id"), "3|c|1\n4|d|1\n");
    /* bare CR line ends */
    cr_assert_eq(COPY_IN(&x, "COPY x FROM STDIN", "5\te\r6\tf\\\rg\r"), 0, "%s", x.err.message);
    cr_assert_str_eq(tdb_rows(s, "SELECT id, s, length(s) FROM x WHERE id > 4 ORDER BY id"), "5|e|1\n6|f\rg|3\n");
    /* an escaped backslash before "." is data */
    cr_assert_eq(COPY_IN(&x, "COPY x FROM STDIN", "7\t\\\\.\n"), 0, "%s", x.err.message);
    cr_assert_str_eq(tdb_rows(s, "SELECT s FROM x WHERE id = 7"), "\\.\n");
    /* HEADER skips the first line */
    cr_assert_eq(COPY_IN(&x, "COPY x FROM STDIN WITH (FORMAT text, HEADER true)", "id\ts\n8\th\n"), 0, "%s", x.err.message);
    cr_assert_str_eq(tdb_rows(s, "SELECT s FROM x WHERE id = 8"), "h\n");
}

/* Errors load nothing and carry PostgreSQL's SQLSTATE. */
Test(copy_text, errors) {
    copyio x;
#define C(lit, state, msg) { lit, sizeof(lit) - 1, state, msg }
    struct { const char *data; size_t len; const char *state, *msg; } cases[] = {
        C("1\ta\n2\tb\\.\t3\n", "22P04", "end-of-copy marker corrupt"),
        C("1\ta\n\\.", "22P04", "end-of-copy marker corrupt"),
        C("1\t\\xff\n", "22021", "invalid byte sequence for encoding \"UTF8\": 0xff"),
        C("1\t\\0\n", "22021", "invalid byte sequence for encoding \"UTF8\": 0x00"),
        C("1\ta\n2\tb\rc\n", "22P04", "literal carriage return found in data"),
        C("1\ta\rb\n", "22P04", "literal newline found in data"),     /* CR line ends, then an LF */
        C("1\ta\r\n2\tb\n", "22P04", "literal newline found in data"), /* CR LF line ends, then an LF */
        C("1\ta\n2\tb\r\n", "22P04", "literal carriage return found in data"), /* LF, then CR LF */
        C("1\n", "22P04", "missing data for column \"s\""),
        C("1\ta\tb\n", "22P04", "extra data after last expected column"),
        C("x\ta\n", "22P02", "invalid input syntax for type integer"),
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cr_assert_eq(run_copy(&x, "COPY x FROM STDIN", cases[i].data, cases[i].len), -1, "case %zu loaded", i);
        cr_assert_str_eq(x.err.sqlstate, cases[i].state, "case %zu: %s", i, x.err.message);
        cr_assert(strstr(x.err.message, cases[i].msg), "case %zu: %s", i, x.err.message);
    }
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM x"), "0\n");
    /* a delimiter that escapes are made of is refused */
    cr_assert_eq(COPY_IN(&x, "COPY x FROM STDIN WITH (FORMAT text, DELIMITER 'a')", "1a2\n"), -1);
    cr_assert_str_eq(x.err.sqlstate, "22023", "%s", x.err.message);
}

/* Each error as PostgreSQL 15.18 reports it: the message alone (no
 * "STDIN:line:col:"), its DETAIL and HINT, and the CONTEXT naming the
 * table, the line (records in the text format; in CSV also the line ends
 * inside quotes after the first record's), the column and its value or
 * the record as sent (cut past 100 bytes). */
Test(copy_text, error_context) {
    tres r;
    tdb_exec(s, "CREATE TABLE ct (a int NOT NULL, b text, c date)", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    tres_free(&r);
    char longv[200], longctx[200];
    memset(longv, 'y', 150);
    snprintf(longv + 150, sizeof longv - 150, "\n");
    snprintf(longctx, sizeof longctx, "COPY ct, line 1, column c: \"%.100s...\"", longv);
    char longrow[220];
    snprintf(longrow, sizeof longrow, "1\tx\t%s", longv);
    struct { const char *sql, *data, *state, *msg, *detail, *hint, *context; } cases[] = {
        { "COPY ct FROM STDIN", "1\tx\t2020-01-01\nzz\ty\t2020-01-02\n", "22P02",
          "invalid input syntax for type integer: \"zz\"", "", "", "COPY ct, line 2, column a: \"zz\"" },
        { "COPY ct FROM STDIN (FORMAT csv)", "1,x,2020-01-01\n2,y,2020-13-02\n", "22008",
          "date/time field value out of range: \"2020-13-02\"", "", "Perhaps you need a different \"datestyle\" setting.",
          "COPY ct, line 2, column c: \"2020-13-02\"" },
        { "COPY ct FROM STDIN (FORMAT csv)", "1,x\n", "22P04", "missing data for column \"c\"", "", "",
          "COPY ct, line 1: \"1,x\"" },
        { "COPY ct FROM STDIN", "1\tx\t2020-01-01\textra\n", "22P04", "extra data after last expected column", "", "",
          "COPY ct, line 1: \"1\tx\t2020-01-01\textra\"" },
        { "COPY ct FROM STDIN", "\\N\tx\t2020-01-01\n", "23502",
          "null value in column \"a\" of relation \"ct\" violates not-null constraint",
          "Failing row contains (null, x, 2020-01-01).", "", "COPY ct, line 1: \"\\N\tx\t2020-01-01\"" },
        /* a bad value after the NULL wins: the constraint is checked on the row */
        { "COPY ct FROM STDIN", "\\N\tx\tbad\n", "22007", "invalid input syntax for type date: \"bad\"", "", "",
          "COPY ct, line 1, column c: \"bad\"" },
        { "COPY ct FROM STDIN (FORMAT csv)", "1,\"multi\nline\",2020-01-01\nx,y,2020-01-01\n", "22P02",
          "invalid input syntax for type integer: \"x\"", "", "", "COPY ct, line 2, column a: \"x\"" },
        { "COPY ct FROM STDIN (FORMAT csv, HEADER)", "a,b,c\n1,\"m\nl\",2020-01-01\n2,x,2020-02-30\n", "22008",
          "date/time field value out of range: \"2020-02-30\"", "", "", "COPY ct, line 4, column c: \"2020-02-30\"" },
        { "COPY ct FROM STDIN (FORMAT csv)", "1,\"m\nl\",2020-01-01\n2,\"x\ny\",2020-02-30\n", "22008",
          "date/time field value out of range: \"2020-02-30\"", "", "", "COPY ct, line 3, column c: \"2020-02-30\"" },
        { "COPY ct FROM STDIN (FORMAT csv, HEADER)", "a,b,c\n1,x,2020-01-01\n99999999999,x,2020-01-01\n", "22003",
          "value \"99999999999\" is out of range for type integer", "", "", "COPY ct, line 3, column a: \"99999999999\"" },
        { "COPY ct FROM STDIN", "1\t\\xff\t2020-01-01\n", "22021", "invalid byte sequence for encoding \"UTF8\": 0xff",
          "", "", "COPY ct, line 1: \"1\t\\xff\t2020-01-01\"" },
        { "COPY ct FROM STDIN", "1\t\xff\t2020-01-01\n", "22021", "invalid byte sequence for encoding \"UTF8\": 0xff",
          "", "", "COPY ct, line 1" },
        { "COPY ct FROM STDIN", longrow, "22007", NULL, "", "", longctx },
        { "COPY ct FROM STDIN (FORMAT csv, HEADER match)", "a,b,d\n", "22P04",
          "column name mismatch in header line field 3: got \"d\", expected \"c\"", "", "", "COPY ct, line 1: \"a,b,d\"" },
        { "COPY ct FROM STDIN", "1\tx\t2020-01-01\n1\tx\\\n2020-01-01\n", "22P04", "missing data for column \"c\"",
          "", "", "COPY ct, line 2: \"1\tx\\\n2020-01-01\"" },
    };
    copyio x;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cr_assert_eq(run_copy(&x, cases[i].sql, cases[i].data, strlen(cases[i].data)), -1, "case %zu loaded", i);
        cr_assert_str_eq(x.err.sqlstate, cases[i].state, "case %zu: %s", i, x.err.message);
        if (cases[i].msg) cr_assert_str_eq(x.err.message, cases[i].msg, "case %zu", i);
        cr_assert_str_eq(x.err.detail, cases[i].detail, "case %zu", i);
        cr_assert_str_eq(x.err.hint, cases[i].hint, "case %zu", i);
        cr_assert_str_eq(x.err.context, cases[i].context, "case %zu", i);
    }
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM ct"), "0\n");
}

/* A refusal found after the load (a key, a CHECK, a NOT NULL column the
 * column list leaves to its default) names the input line of the row, as
 * PostgreSQL 15.18's CONTEXT: a key's the line alone, the others' the
 * record as sent too. */
Test(copy_text, constraint_context) {
    tres r;
    tdb_exec(s, "CREATE TABLE cu (id int PRIMARY KEY, v int CHECK (v > 0), w text NOT NULL DEFAULT 'd')", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    tres_free(&r);
    tdb_exec(s, "INSERT INTO cu VALUES (7, 1)", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    tres_free(&r);
    struct { const char *sql, *data, *state, *detail, *context; } cases[] = {
        { "COPY cu (id, v) FROM STDIN", "1\t5\n2\t6\n1\t7\n", "23505", "Key (id)=(1) already exists.", "COPY cu, line 3" },
        { "COPY cu (id, v) FROM STDIN (FORMAT csv, HEADER)", "id,v\n1,5\n\"2\n\",6\n7,8\n", "23505",
          "Key (id)=(7) already exists.", "COPY cu, line 5" },
        { "COPY cu (id, v) FROM STDIN (FORMAT csv)", "1,5\n2,-6\n", "23514", "Failing row contains (2, -6, d).",
          "COPY cu, line 2: \"2,-6\"" },
        { "COPY cu FROM STDIN", "1\t2\tx\n2\t-2\t\\\\N\n", "23514", "Failing row contains (2, -2, \\N).",
          "COPY cu, line 2: \"2\t-2\t\\\\N\"" },
        { "COPY cu (id, w) FROM STDIN (FORMAT csv)", "3,x\n4,\n", "23502", "Failing row contains (4, null, null).",
          "COPY cu, line 2: \"4,\"" },
        { "COPY cu (v) FROM STDIN", "5\n", "23502", "Failing row contains (null, 5, d).", "COPY cu, line 1: \"5\"" },
    };
    copyio x;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cr_assert_eq(run_copy(&x, cases[i].sql, cases[i].data, strlen(cases[i].data)), -1, "case %zu loaded", i);
        cr_assert_str_eq(x.err.sqlstate, cases[i].state, "case %zu: %s", i, x.err.message);
        cr_assert_str_eq(x.err.detail, cases[i].detail, "case %zu", i);
        cr_assert_str_eq(x.err.context, cases[i].context, "case %zu", i);
    }
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM cu"), "1\n");
}
