/*
 * test_matviews.c - materialized views and views' check options through
 * the db/ layer: what the SQL logic tests cannot see. Both survive a
 * close and reopen of the data directory (a materialized view's rows,
 * whether it is populated, a view's check option), and the DETAIL / HINT
 * lines and NOTICEs are PostgreSQL 15's (checked with psql).
 * tests/sql/materialized_views_pg.test and view_check_option_pg.test
 * have the PostgreSQL-checked results.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"
#include "engine/storage.h"

Test(matviews, survive_close_and_reopen) {
    char dir[] = "/tmp/attu-matviews-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *d = tdb_open_dir(dir);
    attu_session *s = attu_session_new(d);
    tdb_exec_ok(s, "CREATE TABLE t (a INTEGER, b VARCHAR(5))");
    tdb_exec_ok(s, "INSERT INTO t VALUES (1, 'x'), (2, 'y'), (-3, 'z')");
    tdb_exec_ok(s, "CREATE MATERIALIZED VIEW mv (k, label) AS SELECT a, b FROM t WHERE a > 0");
    tdb_exec_ok(s, "CREATE MATERIALIZED VIEW lazy AS SELECT a FROM t WITH NO DATA");
    tdb_exec_ok(s, "CREATE VIEW pos AS SELECT a, b FROM t WHERE a > 0 WITH LOCAL CHECK OPTION");
    tdb_exec_ok(s, "INSERT INTO t VALUES (4, 'w')");   /* not in mv until REFRESH */
    attu_session_free(s);
    attu_db_close(d);

    d = tdb_open_dir(dir);
    s = attu_session_new(d);
    char *rows = tdb_rows_ok(s, "SELECT k, label FROM mv ORDER BY k");
    cr_assert_str_eq(rows, "1|x\n2|y\n");
    free(rows);
    tdb_expect_error(s, "SELECT * FROM lazy", "55000", "materialized view \"lazy\" has not been populated", NULL,
                     "Use the REFRESH MATERIALIZED VIEW command.");
    tdb_expect_error(s, "INSERT INTO pos VALUES (-1, 'n')", "44000", "new row violates check option for view \"pos\"",
                     "Failing row contains (-1, n).", NULL);
    tdb_expect_error(s, "INSERT INTO mv VALUES (9, 'q')", "42809", "cannot change materialized view \"mv\"", NULL, NULL);
    /* one name each in SHOW TABLES */
    cr_assert_str_eq(tdb_rows(s, "SHOW TABLES"), "lazy\nmv\npos\nt\n");
    tdb_expect_error(s, "DROP TABLE t", "2BP01", "cannot drop table t because other objects depend on it",
                     "materialized view mv depends on table t\nmaterialized view lazy depends on table t\n"
                     "view pos depends on table t",
                     "Use DROP ... CASCADE to drop the dependent objects too.");
    tdb_exec_ok(s, "REFRESH MATERIALIZED VIEW mv");
    tdb_exec_ok(s, "REFRESH MATERIALIZED VIEW lazy");
    tdb_exec_ok(s, "DROP VIEW pos");
    /* renamed, and a column too: both kept */
    tdb_exec_ok(s, "ALTER MATERIALIZED VIEW lazy RENAME TO lazy2");
    tdb_exec_ok(s, "ALTER MATERIALIZED VIEW lazy2 RENAME COLUMN a TO aa");
    tdb_exec_ok(s, "ALTER TABLE lazy2 RENAME TO lazy");
    attu_session_free(s);
    attu_db_close(d);

    d = tdb_open_dir(dir);
    s = attu_session_new(d);
    rows = tdb_rows_ok(s, "SELECT (SELECT count(*) FROM mv), (SELECT count(aa) FROM lazy)");
    cr_assert_str_eq(rows, "3|4\n");
    free(rows);
    tdb_exec_ok(s, "REFRESH MATERIALIZED VIEW lazy");
    rows = tdb_rows_ok(s, "SELECT sum(aa) FROM lazy");
    cr_assert_str_eq(rows, "4\n");
    free(rows);
    tres r;
    tdb_exec(s, "DROP MATERIALIZED VIEW mv", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_assert_str_eq(r.tag[r.nresults - 1], "DROP MATERIALIZED VIEW");
    tres_free(&r);
    attu_session_free(s);
    attu_db_close(d);

    /* its rows went with it */
    d = tdb_open_dir(dir);
    s = attu_session_new(d);
    cr_assert_str_eq(tdb_rows(s, "SHOW TABLES"), "lazy\nt\n");
    tdb_exec_ok(s, "CREATE TABLE mv (x INTEGER)");
    attu_session_free(s);
    attu_db_close(d);
    tdb_remove_dir(dir);
}

Test(matviews, rows_lost_come_back_unpopulated) {
    char dir[] = "/tmp/attu-matviews-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *d = tdb_open_dir(dir);
    attu_session *s = attu_session_new(d);
    tdb_exec_ok(s, "CREATE TABLE t (a INTEGER)");
    tdb_exec_ok(s, "INSERT INTO t VALUES (1), (2)");
    tdb_exec_ok(s, "CREATE MATERIALIZED VIEW mv AS SELECT a * 10 AS x FROM t");
    attu_session_free(s);
    attu_db_close(d);
    /* as a crash between a rename's (or a drop's) two files leaves it */
    attu_error e;
    attu_error_clear(&e);
    cr_assert_eq(attu_storage_drop_table(dir, "mv", &e), 0, "%s", e.message);
    d = tdb_open_dir(dir);
    s = attu_session_new(d);
    tdb_expect_error(s, "SELECT * FROM mv", "55000", "materialized view \"mv\" has not been populated", NULL,
                     "Use the REFRESH MATERIALIZED VIEW command.");
    tdb_exec_ok(s, "REFRESH MATERIALIZED VIEW mv");
    char *rows = tdb_rows_ok(s, "SELECT x FROM mv ORDER BY x");
    cr_assert_str_eq(rows, "10\n20\n");
    free(rows);
    attu_session_free(s);
    attu_db_close(d);
    d = tdb_open_dir(dir);
    s = attu_session_new(d);
    rows = tdb_rows_ok(s, "SELECT x FROM mv ORDER BY x");
    cr_assert_str_eq(rows, "10\n20\n");
    free(rows);
    attu_session_free(s);
    attu_db_close(d);
    tdb_remove_dir(dir);
}

Test(matviews, messages) {
    attu_db *d;
    attu_session *s = tdb_open_session(&d);
    tdb_exec_ok(s, "CREATE TABLE dt (a INTEGER, b TEXT)");
    tdb_exec_ok(s, "CREATE MATERIALIZED VIEW dmv AS SELECT a, b FROM dt");
    tdb_exec_ok(s, "CREATE VIEW dv AS SELECT a FROM dmv");
    tdb_expect_error(s, "ALTER TABLE dt DROP COLUMN a", "2BP01",
                     "cannot drop column a of table dt because other objects depend on it",
                     "materialized view dmv depends on column a of table dt\nview dv depends on materialized view dmv",
                     "Use DROP ... CASCADE to drop the dependent objects too.");
    tdb_expect_error(s, "ALTER TABLE dt ALTER COLUMN a TYPE BIGINT", "0A000",
                     "cannot alter type of a column used by a view or rule",
                     "rule _RETURN on materialized view dmv depends on column \"a\"", NULL);
    tdb_expect_error(s, "DROP MATERIALIZED VIEW dmv", "2BP01",
                     "cannot drop materialized view dmv because other objects depend on it",
                     "view dv depends on materialized view dmv", "Use DROP ... CASCADE to drop the dependent objects too.");
    tdb_expect_error(s, "DROP TABLE dmv", "42809", "\"dmv\" is not a table", NULL,
                     "Use DROP MATERIALIZED VIEW to remove a materialized view.");
    tdb_expect_error(s, "DROP VIEW dmv", "42809", "\"dmv\" is not a view", NULL,
                     "Use DROP MATERIALIZED VIEW to remove a materialized view.");
    tdb_expect_error(s, "DROP MATERIALIZED VIEW dt", "42809", "\"dt\" is not a materialized view", NULL,
                     "Use DROP TABLE to remove a table.");
    tdb_expect_error(s, "DROP MATERIALIZED VIEW dv", "42809", "\"dv\" is not a materialized view", NULL,
                     "Use DROP VIEW to remove a view.");
    tdb_expect_error(s, "COPY dmv TO STDOUT", "42809", "cannot copy from materialized view \"dmv\"", NULL,
                     "Try the COPY (SELECT ...) TO variant.");
    tdb_expect_error(s, "ALTER TABLE dmv ADD COLUMN c INTEGER", "42809",
                     "ALTER action ADD COLUMN cannot be performed on relation \"dmv\"",
                     "This operation is not supported for materialized views.", NULL);
    tdb_expect_error(s, "CREATE VIEW bad AS SELECT a FROM dt GROUP BY a WITH CHECK OPTION", "0A000",
                     "WITH CHECK OPTION is supported only on automatically updatable views", NULL,
                     "Views containing GROUP BY are not automatically updatable.");
    tdb_expect_error(s, "CREATE VIEW bad WITH (check_option = up) AS SELECT a FROM dt", "22023",
                     "invalid value for enum option \"check_option\": up", "Valid values are \"local\" and \"cascaded\".",
                     NULL);
    tres r;
    tdb_exec(s, "CREATE MATERIALIZED VIEW IF NOT EXISTS dmv AS SELECT 1 AS one", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_assert(strstr(r.notices, "relation \"dmv\" already exists, skipping"), "%s", r.notices);
    cr_assert_str_eq(r.tag[r.nresults - 1], "CREATE MATERIALIZED VIEW");
    tres_free(&r);
    tdb_exec(s, "DROP MATERIALIZED VIEW IF EXISTS nope", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_assert(strstr(r.notices, "materialized view \"nope\" does not exist, skipping"), "%s", r.notices);
    tres_free(&r);
    tdb_exec(s, "DROP MATERIALIZED VIEW dmv CASCADE", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_assert(strstr(r.notices, "drop cascades to view dv"), "%s", r.notices);
    tres_free(&r);
    tdb_exec_ok(s, "CREATE MATERIALIZED VIEW dmv AS SELECT a, b FROM dt");
    tdb_exec(s, "DROP TABLE dt CASCADE", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_assert(strstr(r.notices, "drop cascades to materialized view dmv"), "%s", r.notices);
    tres_free(&r);
    cr_assert_str_eq(tdb_rows(s, "SHOW TABLES"), "");
    /* the failing row of a check option: the first, every column */
    tdb_exec_ok(s, "CREATE TABLE dt (a INTEGER, b TEXT)");
    tdb_exec_ok(s, "CREATE VIEW dv2 AS SELECT a FROM dt WHERE a > 0 WITH CHECK OPTION");
    tdb_expect_error(s, "INSERT INTO dv2 VALUES (1), (-2), (-3)", "44000",
                     "new row violates check option for view \"dv2\"", "Failing row contains (-2, null).", NULL);
    attu_session_free(s);
    attu_db_close(d);
}

/* Syntax errors at PostgreSQL's positions (checked with psql). */
Test(matviews, syntax_error_positions) {
    attu_db *d;
    attu_session *s = tdb_open_session(&d);
    static const struct { const char *sql; int pos; const char *msg; } cases[] = {
        { "REFRESH MATERIALIZED kw", 22, "syntax error at or near \"kw\"" },
        { "CREATE MATERIALIZED TABLE x (a INTEGER)", 21, "syntax error at or near \"TABLE\"" },
        { "DROP MATERIALIZED TABLE t", 19, "syntax error at or near \"TABLE\"" },
        { "CREATE VIEW v AS SELECT 1 WITH CASCADE CHECK OPTION", 32, "syntax error at or near \"CASCADE\"" },
        { "CREATE VIEW v AS SELECT 1 WITH LOCAL CHECK", 43, "syntax error at end of input" },
        { "SELEC 1", 1, "syntax error at or near \"SELEC\"" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tres r;
        tdb_exec(s, cases[i].sql, &r);
        cr_assert(r.err.set, "%s", cases[i].sql);
        cr_expect_str_eq(r.err.sqlstate, "42601", "%s", cases[i].sql);
        cr_expect_eq(r.err.position, cases[i].pos, "%s: %d", cases[i].sql, r.err.position);
        cr_expect_str_eq(r.err.message, cases[i].msg, "%s", cases[i].sql);
        tres_free(&r);
    }
    attu_session_free(s);
    attu_db_close(d);
}
