/*
 * test_ddl_dml_pg.c - what tests/sql/ddl_dml_pg.test cannot see: COPY TO
 * output (HEADER in text and CSV, DELIMITER, NULL, escaping and quoting),
 * the CommandComplete tag of every statement kind, and column DEFAULTs
 * surviving a close and reopen of the data directory. Expected outputs are
 * PostgreSQL 15's (psql against a private server).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db_test_util.h"
#include "engine/storage.h"

/* ---- COPY TO STDOUT -------------------------------------------------------------------- */

typedef struct outctx {
    char       out[8192];
    size_t     len;
    char       tag[64];
    attu_error err;
} outctx;

static int out_begin(void *c, int n, bool b) { (void)c; (void)n; (void)b; return 0; }
static int out_data(void *c, const char *buf, size_t len) {
    outctx *o = c;
    cr_assert_lt(o->len + len, sizeof o->out);
    memcpy(o->out + o->len, buf, len);
    o->len += len;
    o->out[o->len] = 0;
    return 0;
}
static int out_result(void *c, attu_result *r) { snprintf(((outctx *)c)->tag, 64, "%s", r->tag); return 0; }
static void out_error(void *c, const attu_error *e) { ((outctx *)c)->err = *e; }

/* Runs a COPY ... TO STDOUT and returns what it wrote (static buffer). */
static const char *copy_out(attu_session *s, const char *sql) {
    static outctx o;
    memset(&o, 0, sizeof o);
    attu_exec_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ctx = &o;
    cb.on_result = out_result;
    cb.on_error = out_error;
    cb.copy_out_begin = out_begin;
    cb.copy_out_data = out_data;
    cr_assert_eq(attu_session_exec(s, sql, &cb), 0, "%s: %s", sql, o.err.message);
    return o.out;
}

Test(copy_to, header_delimiter_null_and_escapes_as_postgresql) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    tdb_exec_ok(s, "CREATE TABLE ct (id INTEGER, s TEXT, v DOUBLE PRECISION);"
               "INSERT INTO ct VALUES (1,'plain',1.5), (2,E'a\\tb',NULL), (3,E'back\\\\slash',2), (4,'',3),"
               " (5,'q\"uo,te',NULL), (6,'NA',0), (7,E'line\\nbreak',-1), (8,NULL,NULL),"
               " (9, E'bs\\b ff\\f cr\\r', 4), (10, 'semi;pipe|', 5)");
    /* FORMAT text with HEADER: PostgreSQL 15 writes the header line too */
    cr_assert_str_eq(copy_out(s, "COPY ct TO STDOUT (FORMAT text, HEADER)"),
                     "id\ts\tv\n"
                     "1\tplain\t1.5\n"
                     "2\ta\\tb\t\\N\n"
                     "3\tback\\\\slash\t2\n"
                     "4\t\t3\n"
                     "5\tq\"uo,te\t\\N\n"
                     "6\tNA\t0\n"
                     "7\tline\\nbreak\t-1\n"
                     "8\t\\N\t\\N\n"
                     "9\tbs\\b ff\\f cr\\r\t4\n"
                     "10\tsemi;pipe|\t5\n");
    /* CSV: an empty string is quoted (it equals the NULL string ""), NULL
     * is empty; quotes doubled */
    cr_assert_str_eq(copy_out(s, "COPY ct TO STDOUT (FORMAT csv, HEADER)"),
                     "id,s,v\n"
                     "1,plain,1.5\n"
                     "2,a\tb,\n"
                     "3,back\\slash,2\n"
                     "4,\"\",3\n"
                     "5,\"q\"\"uo,te\",\n"
                     "6,NA,0\n"
                     "7,\"line\nbreak\",-1\n"
                     "8,,\n"
                     "9,\"bs\b ff\f cr\r\",4\n"
                     "10,semi;pipe|,5\n");
    /* NULL 'NA': the value NA is quoted, the empty string no longer is */
    cr_assert_str_eq(copy_out(s, "COPY ct TO STDOUT (FORMAT csv, HEADER, DELIMITER ';', NULL 'NA')"),
                     "id;s;v\n"
                     "1;plain;1.5\n"
                     "2;a\tb;NA\n"
                     "3;back\\slash;2\n"
                     "4;;3\n"
                     "5;\"q\"\"uo,te\";NA\n"
                     "6;\"NA\";0\n"
                     "7;\"line\nbreak\";-1\n"
                     "8;NA;NA\n"
                     "9;\"bs\b ff\f cr\r\";4\n"
                     "10;\"semi;pipe|\";5\n");
    /* text with another delimiter (escaped inside values) and NULL string */
    cr_assert_str_eq(copy_out(s, "COPY ct TO STDOUT (FORMAT text, DELIMITER '|', NULL 'nil')"),
                     "1|plain|1.5\n"
                     "2|a\\tb|nil\n"
                     "3|back\\\\slash|2\n"
                     "4||3\n"
                     "5|q\"uo,te|nil\n"
                     "6|NA|0\n"
                     "7|line\\nbreak|-1\n"
                     "8|nil|nil\n"
                     "9|bs\\b ff\\f cr\\r|4\n"
                     "10|semi;pipe\\||5\n");
    /* a column list, the old syntax */
    cr_assert_str_eq(copy_out(s, "COPY ct (s, id) TO STDOUT WITH CSV HEADER"),
                     "s,id\n"
                     "plain,1\n"
                     "a\tb,2\n"
                     "back\\slash,3\n"
                     "\"\",4\n"
                     "\"q\"\"uo,te\",5\n"
                     "NA,6\n"
                     "\"line\nbreak\",7\n"
                     ",8\n"
                     "\"bs\b ff\f cr\r\",9\n"
                     "semi;pipe|,10\n");
    /* header names are escaped or quoted like values */
    cr_assert_str_eq(copy_out(s, "COPY (SELECT 1 AS \"a,b\", 2 AS \"x y\", 3 AS \"q\"\"\") TO STDOUT (FORMAT csv, HEADER)"),
                     "\"a,b\",x y,\"q\"\"\"\n1,2,3\n");
    cr_assert_str_eq(copy_out(s, "COPY (SELECT 1 AS \"a\tb\", 2 AS \"c\\d\") TO STDOUT (FORMAT text, HEADER)"),
                     "a\\tb\tc\\\\d\n1\t2\n");
    cr_assert_str_eq(copy_out(s, "COPY (SELECT 1 AS a) TO STDOUT (FORMAT csv, HEADER false)"), "1\n");
    /* \. alone in a one-column CSV is quoted (it would end the data) */
    cr_assert_str_eq(copy_out(s, "COPY (SELECT '\\.' AS a) TO STDOUT (FORMAT csv)"), "\"\\.\"\n");
    cr_assert_str_eq(copy_out(s, "COPY (SELECT '\\.' AS a, 1 AS b) TO STDOUT (FORMAT csv)"), "\\.,1\n");
    cr_assert_str_eq(copy_out(s, "COPY (SELECT '\\.' AS a) TO STDOUT"), "\\\\.\n");
    cr_assert_str_eq(copy_out(s, "COPY (SELECT 'x' AS \"\\.\") TO STDOUT (FORMAT csv, HEADER)"), "\"\\.\"\nx\n");
    /* no rows: the header alone; the tag counts rows only */
    cr_assert_str_eq(copy_out(s, "COPY (SELECT 1 AS a WHERE false) TO STDOUT (FORMAT text, HEADER true)"), "a\n");
    attu_session_free(s);
    attu_db_close(db);
}

/* ---- command tags ----------------------------------------------------------------------- */

Test(tags, every_statement_kind_as_postgresql) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    /* statement, then PostgreSQL 15's CommandComplete tag */
    static const char *const cases[][2] = {
        { "CREATE TABLE tg (a INTEGER, b INTEGER DEFAULT 1)", "CREATE TABLE" },
        { "CREATE TABLE IF NOT EXISTS tg (a INTEGER)", "CREATE TABLE" },
        { "CREATE TABLE tg2 AS SELECT 1 AS a WITH NO DATA", "CREATE TABLE AS" },
        { "CREATE TABLE tg3 AS SELECT 1 AS a UNION ALL SELECT 2", "SELECT 2" },
        { "CREATE TABLE IF NOT EXISTS tg3 AS SELECT 1 AS a", "CREATE TABLE AS" },
        { "INSERT INTO tg VALUES (1, 2), (3, 4)", "INSERT 0 2" },
        { "INSERT INTO tg (a) SELECT 5", "INSERT 0 1" },
        { "INSERT INTO tg DEFAULT VALUES", "INSERT 0 1" },
        { "INSERT INTO tg SELECT 1, 1 WHERE false", "INSERT 0 0" },
        { "SELECT * FROM tg", "SELECT 4" },
        { "VALUES (1), (2)", "SELECT 2" },
        { "EXPLAIN SELECT 1", "EXPLAIN" },
        { "EXPLAIN ANALYZE SELECT 1", "EXPLAIN" },
        { "SET statement_timeout = 0", "SET" },
        { "SET TIME ZONE 'UTC'", "SET" },
        { "SET search_path TO DEFAULT", "SET" },
        { "RESET statement_timeout", "RESET" },
        { "RESET ALL", "RESET" },
        { "SHOW statement_timeout", "SHOW" },
        { "SHOW ALL", "SHOW" },
        { "BEGIN", "BEGIN" },
        { "COMMIT", "COMMIT" },
        { "BEGIN WORK", "BEGIN" },
        { "END", "COMMIT" },
        { "BEGIN ISOLATION LEVEL READ COMMITTED", "BEGIN" },
        { "END TRANSACTION", "COMMIT" },
        { "START TRANSACTION", "START TRANSACTION" },
        { "ROLLBACK", "ROLLBACK" },
        { "start transaction read only", "START TRANSACTION" },
        { "ABORT", "ROLLBACK" },
        { "  /* c */ START TRANSACTION", "START TRANSACTION" },
        { "ROLLBACK WORK", "ROLLBACK" },
        { "DROP TABLE tg2", "DROP TABLE" },
        { "DROP TABLE IF EXISTS nope, tg3", "DROP TABLE" },
        /* attu's own statements answer as the SELECT they stand for */
        { "SHOW TABLES", "SELECT 1" },
        { "DESCRIBE tg", "SELECT 2" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tres r;
        tdb_exec(s, cases[i][0], &r);
        cr_assert(!r.err.set, "%s: %s", cases[i][0], r.err.message);
        cr_assert_eq(r.nresults, 1, "%s", cases[i][0]);
        cr_assert_str_eq(r.tag[0], cases[i][1], "%s", cases[i][0]);
        tres_free(&r);
    }
    /* COMMIT of a failed block answers ROLLBACK */
    tres r;
    tdb_exec(s, "START TRANSACTION; SELECT 1/0", &r);
    cr_assert_str_eq(r.tag[0], "START TRANSACTION");
    cr_assert_str_eq(r.err.sqlstate, "22012");
    tres_free(&r);
    tdb_exec(s, "COMMIT", &r);
    cr_assert_str_eq(r.tag[0], "ROLLBACK");
    tres_free(&r);
    /* COPY counts rows, both ways */
    cr_assert_str_eq(copy_out(s, "COPY tg TO STDOUT"), "1\t2\n3\t4\n5\t1\n\\N\t1\n");
    attu_session_free(s);
    attu_db_close(db);
}

/* ---- DEFAULTs in the data directory ------------------------------------------------------ */

Test(defaults, survive_close_and_reopen) {
    char dir[] = "/tmp/attu-defaults-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *db = tdb_open_dir(dir);
    attu_session *s = attu_session_new(db);
    tdb_exec_ok(s, "CREATE TABLE d (id INTEGER, n INTEGER DEFAULT -5, t TEXT DEFAULT 'it''s 100% \"x\"\tok', "
               "d DATE DEFAULT '2024-02-29', x NUMERIC(6,2) DEFAULT 2 * 3.5, v VARCHAR(3) DEFAULT 'abcdef', z INTEGER)");
    tdb_exec_ok(s, "CREATE TABLE plain (id INTEGER)");   /* no DEFAULT: the schema as before */
    tdb_exec_ok(s, "INSERT INTO d (id, v) VALUES (1, 'a')");
    tdb_exec_ok(s, "INSERT INTO plain VALUES (1)");
    attu_session_free(s);
    attu_db_close(db);

    db = tdb_open_dir(dir);
    s = attu_session_new(db);
    tdb_exec_ok(s, "INSERT INTO d (id, v) VALUES (2, 'b')");
    tdb_exec_ok(s, "INSERT INTO plain DEFAULT VALUES");
    cr_assert_str_eq(tdb_rows(s, "SELECT * FROM d ORDER BY id"),
                     "1|-5|it's 100% \"x\"\tok|2024-02-29|7.00|a|NULL\n"
                     "2|-5|it's 100% \"x\"\tok|2024-02-29|7.00|b|NULL\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT * FROM plain ORDER BY id"), "1\nNULL\n");
    /* the varchar(3) DEFAULT still fails when used, as in PostgreSQL */
    tres r;
    tdb_exec(s, "INSERT INTO d (id) VALUES (3)", &r);
    cr_assert_str_eq(r.err.sqlstate, "22001");
    tres_free(&r);
    /* DROP forgets them: a table of the same name starts with none */
    tdb_exec_ok(s, "DROP TABLE d");
    tdb_exec_ok(s, "CREATE TABLE d (id INTEGER, n INTEGER)");
    attu_session_free(s);
    attu_db_close(db);

    db = tdb_open_dir(dir);
    s = attu_session_new(db);
    tdb_exec_ok(s, "INSERT INTO d (id) VALUES (1)");
    cr_assert_str_eq(tdb_rows(s, "SELECT * FROM d"), "1|NULL\n");
    attu_session_free(s);
    attu_db_close(db);
    tdb_remove_dir(dir);
}

/* A data directory written before DEFAULTs existed (attu_storage_save_table
 * writes no default lines) opens, and its tables take DEFAULT-less inserts. */
Test(defaults, schema_without_default_lines_still_loads) {
    char dir[] = "/tmp/attu-defaults-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_error err;
    attu_error_clear(&err);
    attu_column_def defs[2];
    memset(defs, 0, sizeof defs);
    snprintf(defs[0].name, sizeof defs[0].name, "a");
    defs[0].type = attu_type_make(ATTU_TYPE_INT32);
    snprintf(defs[1].name, sizeof defs[1].name, "b");
    defs[1].type = attu_type_make(ATTU_TYPE_TEXT);
    attu_table *t = attu_table_new("old", 2, defs, &err);
    cr_assert_not_null(t);
    cr_assert_eq(attu_storage_open(dir, &err), 0, "%s", err.message);
    cr_assert_eq(attu_storage_save_table(dir, t, &err), 0, "%s", err.message);
    attu_storage_close(dir);
    attu_table_free(t);

    attu_db *db = tdb_open_dir(dir);
    attu_session *s = attu_session_new(db);
    tdb_exec_ok(s, "INSERT INTO old (a) VALUES (1)");
    cr_assert_str_eq(tdb_rows(s, "SELECT * FROM old"), "1|NULL\n");
    attu_session_free(s);
    attu_db_close(db);
    tdb_remove_dir(dir);
}

/* PostgreSQL: 42804 naming the default expression, no position, a HINT. */
Test(defaults, type_mismatch_message_as_postgresql) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    tres r;
    tdb_exec(s, "CREATE TABLE bad (id INTEGER, flag INTEGER DEFAULT true)", &r);
    cr_assert_str_eq(r.err.sqlstate, "42804");
    cr_assert_str_eq(r.err.message, "column \"flag\" is of type integer but default expression is of type boolean");
    cr_assert_eq(r.err.position, 0);
    cr_assert_str_eq(r.err.hint, "You will need to rewrite or cast the expression.");
    cr_assert_str_eq(r.err.detail, "");
    tres_free(&r);
    /* a column reference points at the column, as PostgreSQL's */
    tdb_exec(s, "CREATE TABLE bad (a INTEGER, b INTEGER DEFAULT a + 1)", &r);
    cr_assert_str_eq(r.err.sqlstate, "0A000");
    cr_assert_str_eq(r.err.message, "cannot use column reference in DEFAULT expression");
    cr_assert_eq(r.err.position, 48);
    tres_free(&r);
    cr_assert_str_eq(tdb_rows(s, "SELECT * FROM bad"), "ERROR 42P01: relation \"bad\" does not exist");
    attu_session_free(s);
    attu_db_close(db);
}

static void out_error_plain(void *c, const attu_error *e) { *(attu_error *)c = *e; }

/* The extended protocol's INSERT takes DEFAULTs the same way. */
Test(defaults, prepared_insert) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    tdb_exec_ok(s, "CREATE TABLE p (id INTEGER, n INTEGER DEFAULT 42, t TEXT DEFAULT 'dflt')");
    attu_error err;
    attu_error_clear(&err);
    attu_prepared *p = attu_prepare(s, "INSERT INTO p (id, t) VALUES ($1, $2)", 0, NULL, &err);
    cr_assert_not_null(p, "%s", err.message);
    tres r;
    memset(&r, 0, sizeof r);
    attu_exec_callbacks cb;
    memset(&cb, 0, sizeof cb);
    const char *v1[] = { "1", "given" }, *v2[] = { "2", NULL };
    cr_assert_eq(attu_prepared_execute(s, p, 2, v1, &cb), 0);
    cr_assert_eq(attu_prepared_execute(s, p, 2, v2, &cb), 0);
    attu_prepared_free(p);
    p = attu_prepare(s, "INSERT INTO p VALUES ($1)", 0, NULL, &err);
    cr_assert_not_null(p, "%s", err.message);
    const char *v3[] = { "3" };
    attu_error e3;
    attu_error_clear(&e3);
    cb.ctx = &e3;
    cb.on_error = out_error_plain;
    cr_assert_eq(attu_prepared_execute(s, p, 1, v3, &cb), 0, "%s %s", e3.sqlstate, e3.message);
    attu_prepared_free(p);
    cr_assert_str_eq(tdb_rows(s, "SELECT * FROM p ORDER BY id"), "1|42|given\n2|42|NULL\n3|42|dflt\n");
    (void)r;
    attu_session_free(s);
    attu_db_close(db);
}
