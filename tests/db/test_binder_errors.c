/*
 * test_binder_errors.c - the binder's errors as a PostgreSQL user sees
 * them: SQLSTATE, message and the 1-based position of the offending token.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"

static attu_db *db;
static attu_session *s;

static void setup(void) {
    db = tdb_open();
    s = attu_session_new(db);
    tres r;
    tdb_exec(s, "CREATE TABLE t (id INTEGER, name TEXT, d DATE); CREATE TABLE u (id INTEGER, x BIGINT)", &r);
    cr_assert(!r.err.set);
}
static void teardown(void) { attu_session_free(s); attu_db_close(db); }

TestSuite(binder, .init = setup, .fini = teardown);

static void expect(const char *sql, const char *state, int pos, const char *msg) {
    tres r;
    tdb_exec(s, sql, &r);
    cr_assert(r.err.set, "no error for: %s", sql);
    cr_assert_str_eq(r.err.sqlstate, state, "%s: got %s %s", sql, r.err.sqlstate, r.err.message);
    if (pos >= 0) cr_assert_eq(r.err.position, pos, "%s: position %d, want %d (%s)", sql, r.err.position, pos, r.err.message);
    if (msg) cr_assert_str_eq(r.err.message, msg);
    tres_free(&r);
}

Test(binder, undefined_table) {
    expect("SELECT * FROM nosuch", "42P01", 15, "relation \"nosuch\" does not exist");
    expect("SELECT t.id FROM t JOIN nosuch n ON true", "42P01", 25, NULL);
    expect("SELECT zz.id FROM t", "42P01", 8, "missing FROM-clause entry for table \"zz\"");
}

Test(binder, undefined_and_ambiguous_column) {
    expect("SELECT nosuch FROM t", "42703", 8, "column \"nosuch\" does not exist");
    expect("SELECT t.nosuch FROM t", "42703", 8, "column t.nosuch does not exist");
    expect("SELECT id FROM t, u", "42702", 8, "column reference \"id\" is ambiguous");
    expect("SELECT 1 FROM t WHERE t.id = u.id", "42P01", 30, NULL);
}

Test(binder, grouping_errors) {
    expect("SELECT name, count(*) FROM t", "42803", 8,
           "column \"t.name\" must appear in the GROUP BY clause or be used in an aggregate function");
    expect("SELECT id FROM t GROUP BY name", "42803", 8, NULL);
    expect("SELECT 1 FROM t WHERE count(*) > 1", "42803", 23, "aggregate functions are not allowed in WHERE");
    expect("SELECT sum(count(*)) FROM t", "42803", 12, "aggregate function calls cannot be nested");
}

Test(binder, type_errors) {
    expect("SELECT 1 FROM t WHERE id", "42804", 23, "argument of WHERE must be type boolean, not type integer");
    expect("SELECT id + name FROM t", "42883", 11, "operator does not exist: integer + text");
    expect("SELECT nosuchfn(id) FROM t", "42883", 8, "function nosuchfn(integer) does not exist");
    /* the ELSE's type first, as PostgreSQL 15 resolves and words it */
    expect("SELECT CASE WHEN true THEN 1 ELSE 'x'::text END", "42804", -1, "CASE types text and integer cannot be matched");
    expect("SELECT 'abc'::integer", "22P02", -1, "invalid input syntax for type integer: \"abc\"");
    expect("SELECT id FROM t UNION SELECT name FROM t", "42804", -1, NULL);
}

/* DEFAULT outside an INSERT's VALUES items (positions from PostgreSQL 15);
 * an evaluated DEFAULT's own errors come without a position, as there */
Test(binder, default_not_allowed) {
    const char *m = "DEFAULT is not allowed in this context";
    expect("SELECT DEFAULT", "42601", 8, m);
    expect("SELECT 1 WHERE DEFAULT", "42601", 16, m);
    expect("INSERT INTO t VALUES (DEFAULT + 1)", "42601", 23, m);
    expect("INSERT INTO t VALUES (coalesce(DEFAULT, 1))", "42601", 32, m);
    expect("INSERT INTO t SELECT * FROM (VALUES (DEFAULT, 1)) v", "42601", 38, m);
    tres r;
    tdb_exec(s, "CREATE TABLE dz (a INTEGER DEFAULT 1 / 0, b INTEGER NOT NULL)", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    tres_free(&r);
    expect("INSERT INTO dz VALUES (DEFAULT, 1)", "22012", 0, "division by zero");
    expect("INSERT INTO dz VALUES (1, DEFAULT)", "23502", 0, NULL);
}

Test(binder, valid_uses_bind) {
    tres r;
    tdb_exec(s, "SELECT t.id, count(u.x) FROM t LEFT JOIN u USING (id) GROUP BY t.id HAVING count(*) >= 0 ORDER BY 1", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    tres_free(&r);
    tdb_exec(s, "SELECT name, count(*) FROM t GROUP BY t.rowid", &r);
    cr_assert(!r.err.set, "functional dependency on rowid: %s", r.err.message);
    tres_free(&r);
    tdb_exec(s, "SELECT d + 1, d - DATE '2020-01-01' FROM t WHERE d > '2020-01-01'", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    tres_free(&r);
}

/* Long IN lists bind as a balanced tree of ORs: 9,000 values answer (a
 * chain 9,000 deep crashed the daemon's worker on its stack); 20,000 are
 * more values than one expression program holds (54001, not a crash). */
Test(binder, long_in_lists) {
    size_t cap = 200000;
    char *sql = malloc(cap);
    cr_assert_not_null(sql);
    for (int pass = 0; pass < 2; pass++) {
        int n = pass ? 20000 : 9000;
        size_t at = (size_t)snprintf(sql, cap, "SELECT count(*) FROM t WHERE id NOT IN (");
        for (int i = 0; i < n; i++) at += (size_t)snprintf(sql + at, cap - at, "%s%d", i ? "," : "", i + 10);
        snprintf(sql + at, cap - at, ")");
        if (pass == 0) {
            tdb_exec_ok(s, "INSERT INTO t VALUES (1, 'a', NULL), (9009, 'b', NULL), (NULL, 'c', NULL)");
            char *rows = tdb_rows_ok(s, sql);
            cr_assert_str_eq(rows, "1\n", "%s", rows);   /* 1 is not in the list, 9009 is, NULL is unknown */
            free(rows);
        } else {
            expect(sql, "54001", -1, NULL);
        }
    }
    free(sql);
}

/* GROUP BY grouping sets and GROUPING(): PostgreSQL 15's messages and
 * positions (the argument that is no grouping expression; the call where
 * grouping operations are not allowed; none for too many sets). */
Test(binder, grouping_sets_errors) {
    expect("SELECT grouping(name) FROM t", "42803", 17,
           "arguments to GROUPING must be grouping expressions of the associated query level");
    expect("SELECT id, grouping(id, name) FROM t GROUP BY ROLLUP (id)", "42803", 25, NULL);
    expect("SELECT id FROM t WHERE grouping(id) = 0 GROUP BY id", "42803", 24, "grouping operations are not allowed in WHERE");
    expect("SELECT id FROM t GROUP BY grouping(id)", "42803", 27, "grouping operations are not allowed in GROUP BY");
    expect("SELECT t.id FROM t JOIN u ON grouping(t.id) = 0 GROUP BY t.id", "42803", 30,
           "grouping operations are not allowed in JOIN conditions");
    expect("SELECT count(*) FILTER (WHERE grouping(id) = 0) FROM t GROUP BY ROLLUP (id)", "42803", 31,
           "grouping operations are not allowed in FILTER");
    expect("SELECT count(*) FILTER (WHERE count(*) > 0) FROM t", "42803", 31, "aggregate functions are not allowed in FILTER");
    expect("SELECT sum(grouping(id)) FROM t GROUP BY ROLLUP (id)", "42803", 12, "aggregate function calls cannot be nested");
    expect("SELECT id, grouping(id) FROM t GROUP BY 2", "42803", 12, "aggregate functions are not allowed in GROUP BY");
    expect("SELECT name FROM t GROUP BY ROLLUP (id)", "42803", 8, NULL);
    expect("SELECT 1 FROM t GROUP BY CUBE (id, id, id, id, id, id, id, id, id, id, id, id, id)", "54011", 26,
           "CUBE is limited to 12 elements");
    expect("SELECT 1 FROM t GROUP BY CUBE (id, id, id, id, id, id, id), CUBE (d, d, d, d, d, d)", "54001", 0,
           "too many grouping sets present (maximum 4096)");
    expect("SELECT 1 FROM t GROUP BY ROLLUP ( )", "42601", 35, "syntax error at or near \")\"");
    expect("SELECT 1 FROM t GROUP BY CUBE()", "42601", 31, "syntax error at or near \")\"");
}
