/* test_keyed_rollback.c - a ROLLBACK or ROLLBACK TO SAVEPOINT hands the
 * key sets (engine/key_set.h) that followed the block's writes back to
 * the versions it restores, exact at once (db/db_unique.c
 * db_unique_rollback_index, engine/key_set_undo.c): after INSERT, UPDATE
 * of the key, DELETE and a mix of them, with savepoints, two constraints,
 * a failed statement, and another session reading the committed version
 * meanwhile. White box: each set of the restored version is checked
 * entry by entry against its rows (a set that disagrees with its
 * version's rows would answer lookups wrongly). The answers of one
 * session, against PostgreSQL's, are tests/sql/keyed_rollback_pg.test's. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"
#include "db/db_internal.h"   /* (white box: the sets a version carries) */
#include "engine/key_set.h"

static attu_db *db;

static void setup(void) { db = tdb_open(); }
static void teardown(void) { attu_db_close(db); }

TestSuite(keyed_rollback, .init = setup, .fini = teardown);

/* The number of sets the version of name that s reads carries, each
 * checked to hold exactly that version's keys: every row with a key
 * finds itself, and there are no other entries. -1 when one disagrees. */
static int exact_sets(attu_session *s, const char *name) {
    const attu_table *t = attu_catalog_lookup(db_cat(s), name);
    if (!t || !t->key_index) return 0;
    attu_key_rows self = { t, 0, NULL };
    for (int i = 0; i < t->key_index->n; i++) {
        const attu_key_set *ks = t->key_index->sets[i];
        if (ks->nrows != t->nrows) return -1;
        size_t keyed = 0;
        for (size_t r = 0; r < t->nrows; r++) {
            uint64_t h;
            if (!attu_key_hash(t, ks->cols, ks->ncols, r, &h)) continue;
            keyed++;
            if (attu_key_set_find(ks, h, &self, t, r) != (int64_t)r) return -1;
        }
        if (keyed != ks->count) return -1;
    }
    return t->key_index->n;
}

/* Whether no set of name's version keeps an undo log (COMMIT forgets
 * them: key_set_undo.h). */
static bool no_logs(attu_session *s, const char *name) {
    const attu_table *t = attu_catalog_lookup(db_cat(s), name);
    for (int i = 0; t && t->key_index && i < t->key_index->n; i++)
        if (t->key_index->sets[i]->undo) return false;
    return true;
}

static void expect_rows(attu_session *s, const char *sql, const char *want) {
    char *got = tdb_rows_ok(s, sql);
    cr_expect_str_eq(got, want, "%s", sql);
    free(got);
}

static void make_t(attu_session *s, int n) {
    char sql[128];
    tdb_exec_ok(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
    snprintf(sql, sizeof sql, "INSERT INTO t SELECT g, g * 10 FROM generate_series(1, %d) g", n);
    tdb_exec_ok(s, sql);
    cr_assert_eq(exact_sets(s, "t"), 1);
}

Test(keyed_rollback, insert) {
    attu_session *s = attu_session_new(db);
    make_t(s, 1000);
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "INSERT INTO t SELECT g, -g FROM generate_series(1001, 1010) g");
    tdb_exec_ok(s, "INSERT INTO t VALUES (2000, 0)");
    expect_rows(s, "SELECT v FROM t WHERE id = 1005", "-1005\n");
    tdb_exec_ok(s, "ROLLBACK");
    cr_assert_eq(exact_sets(s, "t"), 1, "the set is back, exact");
    expect_rows(s, "SELECT count(*) FROM t WHERE id = 1005", "0\n");
    expect_rows(s, "SELECT count(*) FROM t WHERE id = 2000", "0\n");
    expect_rows(s, "SELECT v FROM t WHERE id = 1000", "10000\n");
    /* the rolled-back keys are free again; the old ones are not */
    tdb_exec_ok(s, "INSERT INTO t VALUES (1005, 5)");
    cr_assert(no_logs(s, "t"), "the autocommit INSERT's COMMIT forgot the log");
    tdb_expect_error(s, "INSERT INTO t VALUES (999, 0)", "23505",
                     "duplicate key value violates unique constraint \"t_pkey\"", "Key (id)=(999) already exists.", NULL);
    cr_assert_eq(exact_sets(s, "t"), 1);
    expect_rows(s, "SELECT v FROM t WHERE id = 1005", "5\n");
    attu_session_free(s);
}

/* ALTER TABLE makes its version outside attu_table_new / clone: it too is
 * named (a uid), so the set built on it is marked by a block's first write
 * and comes back with ROLLBACK. */
Test(keyed_rollback, after_alter_table) {
    attu_session *s = attu_session_new(db);
    make_t(s, 1000);
    tdb_exec_ok(s, "ALTER TABLE t ADD COLUMN w INTEGER");
    tdb_exec_ok(s, "ALTER TABLE t RENAME TO t2");
    expect_rows(s, "SELECT v FROM t2 WHERE id = 7", "70\n");   /* (builds the set on ALTER's version) */
    cr_assert_eq(exact_sets(s, "t2"), 1, "a set on the altered version");
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "UPDATE t2 SET w = 1 WHERE id = 8");
    tdb_exec_ok(s, "UPDATE t2 SET id = id + 5000 WHERE id <= 10");
    tdb_exec_ok(s, "DELETE FROM t2 WHERE id = 20");
    tdb_exec_ok(s, "ROLLBACK");
    cr_assert_eq(exact_sets(s, "t2"), 1, "the set is back after ROLLBACK, exact");
    expect_rows(s, "SELECT count(*) FROM t2 WHERE id = 8 AND v = 80 AND w IS NULL", "1\n");
    expect_rows(s, "SELECT v FROM t2 WHERE id = 20", "200\n");
    expect_rows(s, "SELECT count(*) FROM t2 WHERE id = 5003", "0\n");
    attu_session_free(s);
}

Test(keyed_rollback, update_of_the_key) {
    attu_session *s = attu_session_new(db);
    make_t(s, 1000);
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "UPDATE t SET id = id + 5000 WHERE id <= 10");
    tdb_exec_ok(s, "UPDATE t SET id = id - 3000 WHERE id BETWEEN 5001 AND 5005");   /* (keys moved twice) */
    tdb_exec_ok(s, "UPDATE t SET v = 7 WHERE id = 500");                            /* (no key changed) */
    expect_rows(s, "SELECT v FROM t WHERE id = 5003", "");
    expect_rows(s, "SELECT v FROM t WHERE id = 2003", "30\n");
    expect_rows(s, "SELECT v FROM t WHERE id = 5008", "80\n");
    tdb_exec_ok(s, "ROLLBACK");
    cr_assert_eq(exact_sets(s, "t"), 1);
    expect_rows(s, "SELECT v FROM t WHERE id = 3", "30\n");
    expect_rows(s, "SELECT v FROM t WHERE id = 17", "170\n");
    expect_rows(s, "SELECT v FROM t WHERE id = 500", "5000\n");
    expect_rows(s, "SELECT count(*) FROM t WHERE id = 5003", "0\n");
    expect_rows(s, "SELECT count(*) FROM t WHERE id = 2003", "0\n");
    expect_rows(s, "UPDATE t SET id = 5003 WHERE id = 3 RETURNING v", "30\n");
    tdb_expect_error(s, "UPDATE t SET id = 5003 WHERE id = 4", "23505",
                     "duplicate key value violates unique constraint \"t_pkey\"", "Key (id)=(5003) already exists.",
                     NULL);
    cr_assert_eq(exact_sets(s, "t"), 1);
    attu_session_free(s);
}

Test(keyed_rollback, delete) {
    attu_session *s = attu_session_new(db);
    make_t(s, 2000);
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "DELETE FROM t WHERE id = 7");                      /* one row */
    tdb_exec_ok(s, "DELETE FROM t WHERE id BETWEEN 100 AND 120");      /* a few */
    tdb_exec_ok(s, "DELETE FROM t WHERE id % 5 = 0 AND id > 1000");    /* many (renumbered by a map) */
    expect_rows(s, "SELECT count(*) FROM t WHERE id = 1500", "0\n");
    tdb_exec_ok(s, "ROLLBACK");
    cr_assert_eq(exact_sets(s, "t"), 1);
    expect_rows(s, "SELECT v FROM t WHERE id = 7", "70\n");
    expect_rows(s, "SELECT v FROM t WHERE id = 110", "1100\n");
    expect_rows(s, "SELECT v FROM t WHERE id = 1500", "15000\n");
    expect_rows(s, "SELECT v FROM t WHERE id = 2000", "20000\n");
    tdb_expect_error(s, "INSERT INTO t VALUES (7, 0)", "23505",
                     "duplicate key value violates unique constraint \"t_pkey\"", "Key (id)=(7) already exists.", NULL);
    expect_rows(s, "DELETE FROM t WHERE id = 1500 RETURNING v", "15000\n");
    cr_assert_eq(exact_sets(s, "t"), 1);
    attu_session_free(s);
}

/* INSERT, UPDATE of the key and DELETE in one block, savepoints between
 * them: each ROLLBACK TO gives the savepoint's version its set, exact,
 * and so does a second ROLLBACK TO the same savepoint. */
Test(keyed_rollback, mix_and_savepoints) {
    attu_session *s = attu_session_new(db);
    make_t(s, 1000);
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "INSERT INTO t VALUES (1001, 1), (1002, 2)");
    tdb_exec_ok(s, "SAVEPOINT a");
    tdb_exec_ok(s, "UPDATE t SET id = -id WHERE id IN (1, 2, 1001)");
    tdb_exec_ok(s, "DELETE FROM t WHERE id = 500");
    tdb_exec_ok(s, "SAVEPOINT b");
    tdb_exec_ok(s, "INSERT INTO t VALUES (500, -500)");
    tdb_exec_ok(s, "DELETE FROM t WHERE id IN (-1, 3, 999)");
    tdb_exec_ok(s, "UPDATE t SET id = 1 WHERE id = -2");
    cr_assert_eq(exact_sets(s, "t"), 1);
    tdb_exec_ok(s, "ROLLBACK TO b");
    cr_assert_eq(exact_sets(s, "t"), 1, "the set is savepoint b's version's");
    expect_rows(s, "SELECT count(*) FROM t WHERE id = 500", "0\n");
    expect_rows(s, "SELECT v FROM t WHERE id = -1", "10\n");
    expect_rows(s, "SELECT v FROM t WHERE id = 999", "9990\n");
    expect_rows(s, "SELECT count(*) FROM t WHERE id = 1", "0\n");
    tdb_exec_ok(s, "INSERT INTO t VALUES (3000, 3)");
    tdb_exec_ok(s, "ROLLBACK TO b");
    cr_assert_eq(exact_sets(s, "t"), 1, "b again");
    expect_rows(s, "SELECT count(*) FROM t WHERE id = 3000", "0\n");
    tdb_exec_ok(s, "ROLLBACK TO a");
    cr_assert_eq(exact_sets(s, "t"), 1, "the set is savepoint a's version's");
    expect_rows(s, "SELECT v FROM t WHERE id = 1", "10\n");
    expect_rows(s, "SELECT v FROM t WHERE id = 1001", "1\n");
    expect_rows(s, "SELECT v FROM t WHERE id = 500", "5000\n");
    expect_rows(s, "SELECT count(*) FROM t WHERE id = -1", "0\n");
    tdb_exec_ok(s, "UPDATE t SET id = 4000 WHERE id = 4");
    tdb_exec_ok(s, "COMMIT");
    cr_assert_eq(exact_sets(s, "t"), 1);
    cr_assert(no_logs(s, "t"));
    expect_rows(s, "SELECT v FROM t WHERE id = 4000", "40\n");
    expect_rows(s, "SELECT v FROM t WHERE id = 1002", "2\n");
    expect_rows(s, "SELECT count(*) FROM t", "1002\n");
    /* a block after the COMMIT rolls back to the committed version */
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "DELETE FROM t WHERE id = 4000");
    tdb_exec_ok(s, "INSERT INTO t VALUES (4, 4)");
    tdb_exec_ok(s, "ROLLBACK");
    cr_assert_eq(exact_sets(s, "t"), 1);
    expect_rows(s, "SELECT v FROM t WHERE id = 4000", "40\n");
    expect_rows(s, "SELECT count(*) FROM t WHERE id = 4", "0\n");
    attu_session_free(s);
}

/* A primary key and a UNIQUE text column: both sets come back; a failed
 * statement inside the block (its candidate never followed) changes
 * nothing of them. */
Test(keyed_rollback, two_constraints_and_a_failed_statement) {
    attu_session *s = attu_session_new(db);
    tdb_exec_ok(s, "CREATE TABLE u (id INTEGER PRIMARY KEY, name TEXT UNIQUE, v INTEGER)");
    tdb_exec_ok(s, "INSERT INTO u SELECT g, 'n' || g, g FROM generate_series(1, 500) g");
    tdb_exec_ok(s, "INSERT INTO u VALUES (501, NULL, 0)");
    cr_assert_eq(exact_sets(s, "u"), 2);
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "UPDATE u SET name = 'm' || id WHERE id <= 20");
    tdb_exec_ok(s, "INSERT INTO u VALUES (600, 'n1', 1), (601, NULL, 2)");
    tdb_exec_ok(s, "DELETE FROM u WHERE id = 250");
    tdb_expect_error(s, "INSERT INTO u VALUES (602, 'n30', 0)", "23505",
                     "duplicate key value violates unique constraint \"u_name_key\"", "Key (name)=(n30) already exists.",
                     NULL);
    tdb_exec_ok(s, "ROLLBACK");
    cr_assert_eq(exact_sets(s, "u"), 2);
    expect_rows(s, "SELECT id FROM u WHERE name = 'n1'", "1\n");
    expect_rows(s, "SELECT count(*) FROM u WHERE name = 'm1'", "0\n");
    expect_rows(s, "SELECT name FROM u WHERE id = 250", "n250\n");
    expect_rows(s, "SELECT count(*) FROM u WHERE id = 600", "0\n");
    tdb_expect_error(s, "INSERT INTO u VALUES (700, 'n250', 0)", "23505",
                     "duplicate key value violates unique constraint \"u_name_key\"",
                     "Key (name)=(n250) already exists.", NULL);
    tdb_exec_ok(s, "INSERT INTO u VALUES (600, 'm1', 0)");
    cr_assert_eq(exact_sets(s, "u"), 2);
    attu_session_free(s);
}

/* Another session reads the committed version while the block is open
 * (no set there: it moved on with the block's version) and after the
 * ROLLBACK (the set is back: no scan, no build). */
Test(keyed_rollback, other_session_after_rollback) {
    attu_session *a = attu_session_new(db), *b = attu_session_new(db);
    make_t(a, 1000);
    tdb_exec_ok(a, "BEGIN");
    tdb_exec_ok(a, "UPDATE t SET id = 0 WHERE id = 5");
    expect_rows(b, "SELECT v FROM t WHERE id = 5", "50\n");
    tdb_exec_ok(a, "ROLLBACK");
    cr_assert_eq(exact_sets(b, "t"), 1, "the committed version has its set back");
    expect_rows(b, "SELECT v FROM t WHERE id = 5", "50\n");
    expect_rows(b, "SELECT count(*) FROM t WHERE id = 0", "0\n");
    attu_session_free(a);
    attu_session_free(b);
}

/* A temporary table's sets come back too (its versions live in the
 * session's own catalog: db/db_temp.c). */
Test(keyed_rollback, temporary_table) {
    attu_session *s = attu_session_new(db);
    tdb_exec_ok(s, "CREATE TEMP TABLE tt (id INTEGER PRIMARY KEY, v INTEGER)");
    tdb_exec_ok(s, "INSERT INTO tt SELECT g, g * 10 FROM generate_series(1, 1000) g");
    cr_assert_eq(exact_sets(s, "tt"), 1);
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "UPDATE tt SET id = -id WHERE id <= 3");
    tdb_exec_ok(s, "SAVEPOINT a");
    tdb_exec_ok(s, "DELETE FROM tt WHERE id BETWEEN 10 AND 20");
    tdb_exec_ok(s, "INSERT INTO tt VALUES (15, 0)");
    tdb_exec_ok(s, "ROLLBACK TO a");
    cr_assert_eq(exact_sets(s, "tt"), 1, "the savepoint's version has its set");
    expect_rows(s, "SELECT v FROM tt WHERE id = 15", "150\n");
    expect_rows(s, "SELECT v FROM tt WHERE id = -2", "20\n");
    tdb_exec_ok(s, "ROLLBACK");
    cr_assert_eq(exact_sets(s, "tt"), 1, "the committed version has its set");
    expect_rows(s, "SELECT v FROM tt WHERE id = 2", "20\n");
    expect_rows(s, "SELECT count(*) FROM tt WHERE id = -2", "0\n");
    tdb_expect_error(s, "INSERT INTO tt VALUES (2, 0)", "23505",
                     "duplicate key value violates unique constraint \"tt_pkey\"", "Key (id)=(2) already exists.", NULL);
    tdb_exec_ok(s, "UPDATE tt SET id = -id WHERE id = 7");
    cr_assert_eq(exact_sets(s, "tt"), 1);
    cr_assert(no_logs(s, "tt"), "a temporary table's logs go at COMMIT too");
    attu_session_free(s);
}
