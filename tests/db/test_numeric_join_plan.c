/*
 * test_numeric_join_plan.c - equalities of NUMERIC values (computed
 * numerics, and DECIMALs whose common scale could pass 18 digits, which
 * compare as NUMERIC) are equi-join keys: the join is a sorted-search join
 * ("Join inner [sort + sorted_search ...]"), never a cross join under a
 * filter, and equal values of different display scales match. The
 * results themselves are checked against PostgreSQL in
 * tests/sql/numeric_window_sum_join_pg.test.
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
    tdb_exec_ok(s, "CREATE TABLE ja (a NUMERIC(18,0), s TEXT)");
    tdb_exec_ok(s, "CREATE TABLE jb (b NUMERIC(18,4), t TEXT)");
    tdb_exec_ok(s, "INSERT INTO ja VALUES (1, 'one'), (2, 'two'), (NULL, 'null'), (99999999999999999, 'big')");
    tdb_exec_ok(s, "INSERT INTO jb VALUES (1.0000, 'one'), (2.5, 'twohalf'), (NULL, 'null'), (2, 'two')");
}

static void teardown(void) {
    attu_session_free(s);
    attu_db_close(db);
}

/* EXPLAIN of sql must show a keyed join of `kind` and no cross join. */
static void assert_keyed_join(const char *sql, const char *kind) {
    char buf[1024], want[64];
    snprintf(buf, sizeof buf, "EXPLAIN %s", sql);
    snprintf(want, sizeof want, "Join %s  [sort + sorted_search", kind);
    char *plan = tdb_rows_ok(s, buf);
    cr_assert_not_null(strstr(plan, want), "%s\nwants a keyed join:\n%s", sql, plan);
    cr_assert_null(strstr(plan, "Cross Join"), "%s\nmust not cross the sides:\n%s", sql, plan);
    free(plan);
}

Test(numeric_join_plan, numeric_equalities_are_join_keys, .init = setup, .fini = teardown, .timeout = 60) {
    assert_keyed_join("SELECT * FROM ja JOIN jb ON a = b", "inner");
    assert_keyed_join("SELECT * FROM ja JOIN jb ON a * 1.5 = b / 2", "inner");
    assert_keyed_join("SELECT * FROM ja, jb WHERE round(a / 7, 3) = b AND s = t", "inner");
    assert_keyed_join("SELECT * FROM ja LEFT JOIN jb ON a / 3 = b / 3", "left");
}

Test(numeric_join_plan, equal_values_of_any_scale_match, .init = setup, .fini = teardown, .timeout = 60) {
    char *rows = tdb_rows_ok(s, "SELECT s, t FROM ja JOIN jb ON a / 1 = b * 1.0 ORDER BY s, t");
    cr_assert_str_eq(rows, "one|one\ntwo|two\n");
    free(rows);
}
