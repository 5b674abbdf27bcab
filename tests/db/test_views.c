/*
 * test_views.c - views through the db/ layer: what the SQL logic tests
 * cannot see. Views survive a close and reopen of the data directory (with
 * their columns, dependencies and creation order), a damaged views file
 * stops the open, and the DETAIL / HINT lines and NOTICEs of DROP and of
 * changes through views are PostgreSQL's. tests/sql/views_pg.test has the
 * PostgreSQL-checked results.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"


Test(views, survive_close_and_reopen) {
    char dir[] = "/tmp/attu-views-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *d = tdb_open_dir(dir);
    attu_session *s = attu_session_new(d);
    tdb_exec_ok(s, "CREATE TABLE t (a INTEGER, b VARCHAR(5), n NUMERIC(6,2))");
    tdb_exec_ok(s, "INSERT INTO t VALUES (1, 'x', 1.5), (2, 'y', NULL), (3, 'z', 3)");
    tdb_exec_ok(s, "CREATE VIEW \"My View\" (k, label) AS SELECT a, b || '%' FROM t WHERE a > 1 -- note");
    tdb_exec_ok(s, "CREATE VIEW second AS SELECT k * 10 AS k10 FROM \"My View\"");
    tdb_exec_ok(s, "CREATE VIEW gone AS SELECT 1 AS one");
    tdb_exec_ok(s, "DROP VIEW gone");
    tdb_exec_ok(s, "CREATE OR REPLACE VIEW \"My View\" (k, label) AS SELECT a, b || '%', n FROM t WHERE a > 1");
    char *before = tdb_rows_ok(s, "SELECT * FROM \"My View\" JOIN second ON k10 = k * 10 ORDER BY k");
    cr_assert_str_eq(before, "2|y%|NULL|20\n3|z%|3.00|30\n");
    attu_session_free(s);
    attu_db_close(d);

    d = tdb_open_dir(dir);
    s = attu_session_new(d);
    char *after = tdb_rows_ok(s, "SELECT * FROM \"My View\" JOIN second ON k10 = k * 10 ORDER BY k");
    cr_assert_str_eq(after, before);
    cr_assert_str_eq(tdb_rows(s, "SHOW TABLES"), "My View\nsecond\nt\n");
    cr_assert_str_eq(tdb_rows(s, "DESCRIBE \"My View\""),
                     "k|integer|YES\nlabel|text|YES\nn|numeric(6,2)|YES\n");
    /* the dependencies came back: t and "My View" are still held */
    tdb_expect_error(s, "DROP TABLE t", "2BP01", "cannot drop table t because other objects depend on it",
                 "view \"My View\" depends on table t\nview second depends on view \"My View\"",
                 "Use DROP ... CASCADE to drop the dependent objects too.");
    tres r;
    tdb_exec(s, "DROP TABLE t CASCADE", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_assert(strstr(r.notices, "drop cascades to 2 other objects"), "%s", r.notices);
    tres_free(&r);
    attu_session_free(s);
    attu_db_close(d);

    /* and their removal too */
    d = tdb_open_dir(dir);
    s = attu_session_new(d);
    cr_assert_str_eq(tdb_rows(s, "SHOW TABLES"), "");
    tdb_exec_ok(s, "CREATE TABLE t (a INTEGER)");
    tdb_exec_ok(s, "CREATE VIEW second AS SELECT a FROM t");
    attu_session_free(s);
    attu_db_close(d);
    free(before);
    free(after);
    tdb_remove_dir(dir);
}

Test(views, damaged_views_file_stops_the_open) {
    char dir[] = "/tmp/attu-views-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *d = tdb_open_dir(dir);
    attu_session *s = attu_session_new(d);
    tdb_exec_ok(s, "CREATE VIEW v AS SELECT 1 AS one");
    attu_session_free(s);
    attu_db_close(d);
    char path[256];
    snprintf(path, sizeof path, "%s/attu.views", dir);
    FILE *f = fopen(path, "r+b");
    cr_assert_not_null(f);
    fseek(f, 20, SEEK_SET);
    fputc('#', f);
    fclose(f);
    attu_error err;
    attu_error_clear(&err);
    attu_db_config cfg = { .data_dir = dir, .device = ATTU_DEVICE_CPU, .threads = 2 };
    d = attu_db_open(&cfg, &err);
    cr_assert_null(d);
    cr_assert_str_eq(err.sqlstate, "XX001", "%s", err.message);
    cr_assert(strstr(err.message, "attu.views"), "%s", err.message);
    tdb_remove_dir(dir);
}

Test(views, messages) {
    attu_db *d;
    attu_session *s = tdb_open_session(&d);
    tdb_exec_ok(s, "CREATE TABLE t (a INTEGER, b TEXT)");
    tdb_exec_ok(s, "CREATE VIEW g AS SELECT a, count(*) AS n FROM t GROUP BY a");
    tdb_exec_ok(s, "CREATE VIEW e AS SELECT a + 1 AS a1, b FROM t");
    tdb_expect_error(s, "INSERT INTO g VALUES (1, 1)", "55000", "cannot insert into view \"g\"",
                 "Views containing GROUP BY are not automatically updatable.",
                 "To enable inserting into the view, provide an INSTEAD OF INSERT trigger or an unconditional ON INSERT DO INSTEAD rule.");
    tdb_expect_error(s, "UPDATE g SET n = 0", "55000", "cannot update view \"g\"",
                 "Views containing GROUP BY are not automatically updatable.",
                 "To enable updating the view, provide an INSTEAD OF UPDATE trigger or an unconditional ON UPDATE DO INSTEAD rule.");
    tdb_expect_error(s, "DELETE FROM g", "55000", "cannot delete from view \"g\"",
                 "Views containing GROUP BY are not automatically updatable.",
                 "To enable deleting from the view, provide an INSTEAD OF DELETE trigger or an unconditional ON DELETE DO INSTEAD rule.");
    tdb_expect_error(s, "UPDATE e SET a1 = 0", "0A000", "cannot update column \"a1\" of view \"e\"",
                 "View columns that are not columns of their base relation are not updatable.", NULL);
    tdb_expect_error(s, "DROP TABLE g", "42809", "\"g\" is not a table", NULL, "Use DROP VIEW to remove a view.");
    tdb_expect_error(s, "DROP VIEW t", "42809", "\"t\" is not a view", NULL, "Use DROP TABLE to remove a table.");
    tdb_expect_error(s, "CREATE OR REPLACE VIEW e AS SELECT b AS a1, a FROM t", "42P16",
                 "cannot change data type of view column \"a1\" from integer to text", NULL, NULL);
    tdb_expect_error(s, "CREATE OR REPLACE VIEW e AS SELECT a AS x, b FROM t", "42P16",
                 "cannot change name of view column \"a1\" to \"x\"", NULL,
                 "Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.");
    tres r;
    tdb_exec(s, "DROP VIEW IF EXISTS nope, e", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_assert(strstr(r.notices, "view \"nope\" does not exist, skipping"), "%s", r.notices);
    cr_assert_str_eq(r.tag[r.nresults - 1], "DROP VIEW");
    tres_free(&r);
    tdb_exec(s, "DROP TABLE t CASCADE", &r);
    cr_assert(strstr(r.notices, "drop cascades to view g"), "%s", r.notices);
    tres_free(&r);
    attu_session_free(s);
    attu_db_close(d);
}
