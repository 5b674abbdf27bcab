/*
 * test_alter.c - ALTER TABLE through db/database.h (db/db_alter.c): what
 * the SQL logic tests cannot see (tests/sql/alter_table_pg.test has the
 * PostgreSQL-checked results): the HINTs and positions of its errors, its
 * NOTICEs, a change surviving a close and reopen of the data directory
 * (and a failed one not saved), and readers in other sessions seeing the
 * table before or after an ALTER, never half of one.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"

static attu_db *db;
static attu_session *s;

static void setup(void) {
    s = tdb_open_session(&db);
    tdb_exec_ok(s, "CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT DEFAULT 'x', c TEXT)");
    tdb_exec_ok(s, "INSERT INTO t VALUES (1, 'one', '10'), (2, NULL, '20')");
}
static void teardown(void) { attu_session_free(s); attu_db_close(db); }

TestSuite(alter, .init = setup, .fini = teardown);

/* Runs sql, which must fail with sqlstate at position pos (0: none) and,
 * when hint is not NULL, that HINT. */
static void expect_error(const char *sql, const char *sqlstate, int pos, const char *hint) {
    tres r;
    tdb_exec(s, sql, &r);
    cr_assert(r.err.set, "%s succeeded", sql);
    cr_expect_str_eq(r.err.sqlstate, sqlstate, "%s: %s", sql, r.err.message);
    cr_expect_eq(r.err.position, pos, "%s: position %d", sql, r.err.position);
    if (hint) cr_expect_str_eq(r.err.hint, hint, "%s", sql);
    tres_free(&r);
}

Test(alter, hints_and_positions_as_postgresql) {
    expect_error("ALTER TABLE t ALTER c TYPE INTEGER", "42804", 0, "You might need to specify \"USING c::integer\".");
    expect_error("ALTER TABLE t ALTER c TYPE INTEGER[]", "42804", 0, "You might need to specify \"USING c::integer[]\".");
    expect_error("ALTER TABLE t ALTER c TYPE DATE USING c || 'x'", "42804", 0, "You might need to add an explicit cast.");
    expect_error("ALTER TABLE t ALTER b TYPE INTEGER USING length(b)", "42804", 0, NULL);
    /* errors of the USING expression point into it; its values' do not */
    expect_error("ALTER TABLE t ALTER c TYPE INTEGER USING zz", "42703", 42, NULL);
    expect_error("ALTER TABLE t ALTER c TYPE INTEGER USING (SELECT 1)", "0A000", 42, NULL);
    expect_error("ALTER TABLE t ALTER c TYPE INTEGER USING 'x'", "22P02", 0, NULL);
    expect_error("ALTER TABLE t ALTER c TYPE INTEGER USING c::INTEGER / (a - 1)", "22012", 0, NULL);
    /* none for the table, the columns and DEFAULTs, as PostgreSQL */
    expect_error("ALTER TABLE nosuch ADD x INTEGER", "42P01", 0, NULL);
    expect_error("ALTER TABLE t ADD a INTEGER", "42701", 0, NULL);
    expect_error("ALTER TABLE t DROP zz", "42703", 0, NULL);
    expect_error("ALTER TABLE t ALTER c SET DEFAULT a", "0A000", 0, NULL);
    expect_error("ALTER TABLE t ADD d INTEGER DEFAULT 'x'::TEXT", "42804", 0, "You will need to rewrite or cast the expression.");
    expect_error("ALTER TABLE t ALTER a DROP NOT NULL", "42P16", 0, NULL);
    expect_error("ALTER TABLE t ADD d INTEGER PRIMARY KEY", "42P16", 0, NULL);
    expect_error("ALTER TABLE t ALTER b SET NOT NULL", "23502", 0, NULL);
    /* the type name and the parser's own errors keep theirs */
    expect_error("ALTER TABLE t ADD COLUMN d nosuchtype", "42704", 28, NULL);
    expect_error("ALTER TABLE t ADD d INTEGER NULL NOT NULL", "42601", 34, NULL);
    /* nothing changed */
    cr_assert_str_eq(tdb_rows(s, "SELECT * FROM t ORDER BY a"), "1|one|10\n2|NULL|20\n");
}

Test(alter, notices_of_if_exists) {
    tres r;
    tdb_exec(s, "ALTER TABLE t ADD COLUMN IF NOT EXISTS b INTEGER, DROP COLUMN IF EXISTS zz", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_expect(strstr(r.notices, "column \"b\" of relation \"t\" already exists, skipping"), "%s", r.notices);
    cr_expect(strstr(r.notices, "column \"zz\" of relation \"t\" does not exist, skipping"), "%s", r.notices);
    cr_expect_str_eq(r.tag[0], "ALTER TABLE");
    tres_free(&r);
    tdb_exec(s, "ALTER TABLE IF EXISTS nosuch RENAME TO other", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_expect(strstr(r.notices, "relation \"nosuch\" does not exist, skipping"), "%s", r.notices);
    tres_free(&r);
}

/* Columns an ALTER leaves alone move to the new version: their values and
 * what was learnt of them stay right after other columns change. */
Test(alter, untouched_columns_move) {
    cr_assert_str_eq(tdb_rows(s, "SELECT min(a), max(a) FROM t"), "1|2\n");
    tdb_exec_ok(s, "ALTER TABLE t ADD d INTEGER DEFAULT 4, DROP b, ALTER c TYPE INTEGER USING c::INTEGER + a");
    tdb_exec_ok(s, "INSERT INTO t (a, c) VALUES (0, 5)");
    cr_assert_str_eq(tdb_rows(s, "SELECT min(a), max(a), sum(c), sum(d) FROM t"), "0|2|38|12\n");
    tdb_exec_ok(s, "CREATE TABLE u (k INTEGER, v TEXT)");
    tdb_exec_ok(s, "INSERT INTO u VALUES (0, 'zero'), (1, 'one'), (2, 'two')");
    cr_assert_str_eq(tdb_rows(s, "SELECT v, c FROM t JOIN u ON t.a = u.k ORDER BY a"), "zero|5\none|11\ntwo|22\n");
}

Test(alter_storage, changes_survive_close_and_reopen) {
    char dir[] = "/tmp/attu-alter-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *d = tdb_open_dir(dir);
    attu_session *ss = attu_session_new(d);
    tdb_exec_ok(ss, "CREATE TABLE p (id INTEGER, s TEXT DEFAULT 'dflt', n NUMERIC(6,2) DEFAULT 1.5, gone INTEGER)");
    tdb_exec_ok(ss, "INSERT INTO p (id, gone) VALUES (1, 10), (2, 20)");
    tdb_exec_ok(ss, "ALTER TABLE p ADD e TEXT NOT NULL DEFAULT 'e', DROP gone, ALTER s SET DEFAULT 's2', ALTER n TYPE TEXT");
    tdb_exec_ok(ss, "ALTER TABLE p RENAME id TO ident");
    tdb_exec_ok(ss, "ALTER TABLE p RENAME TO q");
    /* a failed ALTER is not saved either */
    tres r;
    tdb_exec(ss, "ALTER TABLE q ADD x INTEGER, ALTER ident TYPE SMALLINT USING ident * 100000", &r);
    cr_assert_str_eq(r.err.sqlstate, "22003");
    tres_free(&r);
    char *before = tdb_rows_ok(ss, "SELECT * FROM q ORDER BY ident");
    cr_assert_str_eq(before, "1|dflt|1.50|e\n2|dflt|1.50|e\n");
    attu_session_free(ss);
    attu_db_close(d);

    d = tdb_open_dir(dir);
    ss = attu_session_new(d);
    char *after = tdb_rows_ok(ss, "SELECT * FROM q ORDER BY ident");
    cr_assert_str_eq(after, before);
    tdb_exec(ss, "SELECT * FROM p", &r);
    cr_assert_str_eq(r.err.sqlstate, "42P01");
    tres_free(&r);
    /* the DEFAULTs came back with their columns, NOT NULL too */
    tdb_exec_ok(ss, "INSERT INTO q (ident) VALUES (3)");
    cr_assert_str_eq(tdb_rows(ss, "SELECT s, n, e FROM q WHERE ident = 3"), "s2|1.5|e\n");
    tdb_exec(ss, "INSERT INTO q (ident, e) VALUES (4, NULL)", &r);
    cr_assert_str_eq(r.err.sqlstate, "23502");
    tres_free(&r);
    cr_assert_str_eq(tdb_rows(ss, "SELECT pg_typeof(n)::TEXT FROM q LIMIT 1"), "text\n");
    attu_session_free(ss);
    attu_db_close(d);
    free(before);
    free(after);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* A column declared numeric without (p,s) is the wide NUMERIC (16-byte
 * slots: engine/numeric.h), made by CREATE TABLE, ADD COLUMN and ALTER
 * TYPE: its values (their scales, NaN, the infinities, more than 18
 * digits), its type and its UNIQUE key come back from the data directory. */
Test(alter_storage, numeric_columns_survive_close_and_reopen) {
    char dir[] = "/tmp/attu-alter-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *d = tdb_open_dir(dir);
    attu_session *ss = attu_session_new(d);
    tdb_exec_ok(ss, "CREATE TABLE nm (id INTEGER, n NUMERIC UNIQUE, a NUMERIC[])");
    tdb_exec_ok(ss, "INSERT INTO nm VALUES (1, '1.50', '{1.5,NaN}'), (2, 'NaN', NULL), (3, '-Infinity', '{}'), "
                    "(4, '123456789012345678901234.000001', NULL), (5, NULL, NULL)");
    tdb_exec_ok(ss, "ALTER TABLE nm ADD e DECIMAL DEFAULT 1.250, ALTER id TYPE NUMERIC");
    tdb_exec_ok(ss, "UPDATE nm SET id = id / 4 WHERE id = 1");
    const char *want = "0.25000000000000000000|1.50|{1.5,NaN}|1.250\n"
                       "2|NaN|NULL|1.250\n"
                       "3|-Infinity|{}|1.250\n"
                       "4|123456789012345678901234.000001|NULL|1.250\n"
                       "5|NULL|NULL|1.250\n";
    cr_assert_str_eq(tdb_rows(ss, "SELECT * FROM nm ORDER BY id"), want);
    attu_session_free(ss);
    attu_db_close(d);

    d = tdb_open_dir(dir);
    ss = attu_session_new(d);
    cr_assert_str_eq(tdb_rows(ss, "SELECT * FROM nm ORDER BY id"), want);
    cr_assert_str_eq(tdb_rows(ss, "SELECT string_agg(format_type(atttypid, atttypmod), ',' ORDER BY attnum) "
                                  "FROM pg_attribute WHERE attrelid = 'nm'::regclass AND attnum > 0"),
                     "numeric,numeric,numeric[],numeric\n");
    tres r;
    tdb_exec(ss, "INSERT INTO nm (id, n) VALUES (6, 'nan')", &r);
    cr_assert_str_eq(r.err.sqlstate, "23505");
    tres_free(&r);
    tdb_exec(ss, "INSERT INTO nm (id, n) VALUES (6, 1.5000)", &r);
    cr_assert_str_eq(r.err.sqlstate, "23505");
    tres_free(&r);
    cr_assert_str_eq(tdb_rows(ss, "SELECT sum(n) FILTER (WHERE id > 3), max(n), min(n) FROM nm"),
                     "123456789012345678901234.000001|NaN|-Infinity\n");
    attu_session_free(ss);
    attu_db_close(d);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* Readers in other sessions run beside a writer that adds, converts and
 * drops columns: each must see one whole version (the sum of v never
 * changes, whatever v's type is now). */
#define ROWS 2000
static volatile int stop_readers;

static void *reader(void *arg) {
    attu_session *rs = attu_session_new(arg);
    long bad = 0, runs = 0;
    while (!__atomic_load_n(&stop_readers, __ATOMIC_SEQ_CST)) {
        tres r;
        tdb_exec(rs, "SELECT sum(v::INTEGER), count(*) FROM acc", &r);
        if (r.err.set || !r.text || strcmp(r.text, "2001000|2000\n")) {
            fprintf(stderr, "reader saw: %s %s\n", r.err.set ? r.err.message : "", r.text ? r.text : "");
            bad++;
        }
        tres_free(&r);
        runs++;
    }
    attu_session_free(rs);
    return (void *)(bad ? -1L : runs);
}

Test(alter_concurrency, readers_see_whole_versions) {
    attu_db *d = tdb_open();
    attu_session *w = attu_session_new(d);
    tdb_exec_ok(w, "CREATE TABLE acc (id INTEGER, v INTEGER)");
    tdb_exec_ok(w, "INSERT INTO acc SELECT g, g FROM generate_series(1, 2000) AS g");
    pthread_t th[3];
    stop_readers = 0;
    for (int i = 0; i < 3; i++) cr_assert_eq(pthread_create(&th[i], NULL, reader, d), 0);
    for (int k = 0; k < 10; k++) {
        tdb_exec_ok(w, "ALTER TABLE acc ADD x TEXT DEFAULT 'x', ALTER v TYPE TEXT");
        tdb_exec_ok(w, "ALTER TABLE acc DROP x, ALTER v TYPE BIGINT USING v::BIGINT");
    }
    __atomic_store_n(&stop_readers, 1, __ATOMIC_SEQ_CST);
    for (int i = 0; i < 3; i++) {
        void *ret;
        pthread_join(th[i], &ret);
        cr_expect_geq((long)ret, 0, "reader %d saw a partial version", i);
    }
    attu_session_free(w);
    attu_db_close(d);
}

/* The DETAILs, HINTs and NOTICEs of ALTER beside views and constraints,
 * in PostgreSQL's words (alter_table_objects_pg.test has the rest). */
static void expect_detail(attu_session *ss, const char *sql, const char *sqlstate, const char *message,
                          const char *detail, const char *hint) {
    tres r;
    tdb_exec(ss, sql, &r);
    cr_assert(r.err.set, "%s succeeded", sql);
    cr_expect_str_eq(r.err.sqlstate, sqlstate, "%s: %s", sql, r.err.message);
    cr_expect_str_eq(r.err.message, message, "%s", sql);
    cr_expect_str_eq(r.err.detail, detail, "%s", sql);
    if (hint) cr_expect_str_eq(r.err.hint, hint, "%s", sql);
    tres_free(&r);
}

Test(alter, view_and_key_messages_as_postgresql) {
    tdb_exec_ok(s, "CREATE TABLE w (x INTEGER, y INTEGER, z TEXT)");
    tdb_exec_ok(s, "CREATE VIEW wv AS SELECT x, z FROM w");
    tdb_exec_ok(s, "CREATE VIEW wv2 AS SELECT * FROM wv");
    expect_detail(s, "ALTER TABLE w DROP COLUMN x", "2BP01",
                  "cannot drop column x of table w because other objects depend on it",
                  "view wv depends on column x of table w\nview wv2 depends on view wv",
                  "Use DROP ... CASCADE to drop the dependent objects too.");
    expect_detail(s, "ALTER TABLE w ALTER COLUMN z TYPE BIGINT USING 1", "0A000",
                  "cannot alter type of a column used by a view or rule", "rule _RETURN on view wv depends on column \"z\"",
                  NULL);
    tres r;
    tdb_exec(s, "ALTER TABLE w DROP COLUMN x CASCADE", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_expect(strstr(r.notices, "drop cascades to 2 other objects"), "%s", r.notices);
    tres_free(&r);
    tdb_exec(s, "SELECT * FROM wv2", &r);
    cr_expect_str_eq(r.err.sqlstate, "42P01");
    tres_free(&r);

    tdb_exec_ok(s, "CREATE TABLE u (a INTEGER PRIMARY KEY, b NUMERIC(4,1) UNIQUE)");
    tdb_exec_ok(s, "INSERT INTO u VALUES (1, 1.2), (2, 1.4), (3, 2.0)");
    expect_detail(s, "ALTER TABLE u ALTER COLUMN b TYPE INTEGER", "23505", "could not create unique index \"u_b_key\"",
                  "Key (b)=(1) is duplicated.", NULL);
    expect_detail(s, "ALTER TABLE u ADD COLUMN d INTEGER DEFAULT 5 UNIQUE", "23505",
                  "could not create unique index \"u_d_key\"", "Key (d)=(5) is duplicated.", NULL);
    cr_assert_str_eq(tdb_rows(s, "SELECT * FROM u ORDER BY a"), "1|1.2\n2|1.4\n3|2.0\n");

    /* relations quoted as PostgreSQL's quote_identifier quotes them */
    tdb_exec_ok(s, "CREATE TABLE \"T2\" (\"Y\" INTEGER)");
    tdb_exec_ok(s, "CREATE VIEW \"V\" AS SELECT \"Y\" FROM \"T2\"");
    expect_detail(s, "ALTER TABLE \"T2\" DROP COLUMN \"Y\"", "2BP01",
                  "cannot drop column Y of table \"T2\" because other objects depend on it",
                  "view \"V\" depends on column Y of table \"T2\"", NULL);
    expect_detail(s, "ALTER TABLE \"T2\" ALTER \"Y\" TYPE TEXT", "0A000", "cannot alter type of a column used by a view or rule",
                  "rule _RETURN on view \"V\" depends on column \"Y\"", NULL);
    tdb_exec(s, "ALTER TABLE \"T2\" DROP COLUMN \"Y\" CASCADE", &r);
    cr_assert(!r.err.set, "%s", r.err.message);
    cr_expect(strstr(r.notices, "drop cascades to view \"V\""), "%s", r.notices);
    tres_free(&r);
}

/* Sequences, constraints and views an ALTER changed are saved with it; a
 * failed ALTER saves none of its changes. */
Test(alter_storage, objects_survive_close_and_reopen) {
    char dir[] = "/tmp/attu-alter-obj-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *d = tdb_open_dir(dir);
    attu_session *ss = attu_session_new(d);
    tdb_exec_ok(ss, "CREATE TABLE p (id SERIAL, v TEXT, gone SERIAL, k INTEGER UNIQUE)");
    tdb_exec_ok(ss, "INSERT INTO p (v, k) VALUES ('a', 1), ('b', 2)");
    tdb_exec_ok(ss, "CREATE VIEW pv AS SELECT v FROM p");
    tdb_exec_ok(ss, "CREATE VIEW kv AS SELECT k FROM p");
    tdb_exec_ok(ss, "ALTER TABLE p RENAME COLUMN id TO ident");
    tdb_exec_ok(ss, "ALTER TABLE p DROP COLUMN gone, ADD COLUMN n BIGSERIAL, ADD COLUMN u INTEGER DEFAULT 0, "
                    "ADD COLUMN w INTEGER UNIQUE, ALTER COLUMN ident TYPE BIGINT");
    tdb_exec_ok(ss, "ALTER TABLE p DROP COLUMN k CASCADE");
    /* the view's text follows the renames */
    tdb_exec_ok(ss, "ALTER TABLE p RENAME COLUMN v TO label");
    tdb_exec_ok(ss, "ALTER TABLE p RENAME TO q");
    tdb_exec_ok(ss, "ALTER TABLE q RENAME TO p");
    /* failed: none of it stays (a new sequence, a dropped view, a sequence dropped with its column) */
    tres r;
    tdb_exec(ss, "ALTER TABLE p ADD COLUMN m SERIAL, DROP COLUMN label CASCADE, DROP COLUMN n, ADD COLUMN x INTEGER NOT NULL", &r);
    cr_assert_str_eq(r.err.sqlstate, "23502");
    tres_free(&r);
    attu_session_free(ss);
    attu_db_close(d);

    d = tdb_open_dir(dir);
    ss = attu_session_new(d);
    cr_assert_str_eq(tdb_rows(ss, "SELECT ident, label, n, u, w FROM p ORDER BY ident"), "1|a|1|0|NULL\n2|b|2|0|NULL\n");
    cr_assert_str_eq(tdb_rows(ss, "SELECT pg_get_serial_sequence('p', 'ident'), pg_get_serial_sequence('p', 'n')"),
                     "public.p_id_seq|public.p_n_seq\n");
    tdb_exec_ok(ss, "INSERT INTO p (label, w) VALUES ('c', 9)");
    cr_assert_str_eq(tdb_rows(ss, "SELECT ident, n FROM p WHERE label = 'c'"), "3|3\n");
    tdb_exec(ss, "INSERT INTO p (label, w) VALUES ('d', 9)", &r);
    cr_assert_str_eq(r.err.sqlstate, "23505");
    cr_expect(strstr(r.err.message, "\"p_w_key\""), "%s", r.err.message);
    tres_free(&r);
    cr_assert_str_eq(tdb_rows(ss, "SELECT count(*), min(v) FROM pv"), "3|a\n");
    tdb_exec(ss, "SELECT * FROM kv", &r);
    cr_assert_str_eq(r.err.sqlstate, "42P01");
    tres_free(&r);
    const char *gone[] = { "SELECT nextval('p_gone_seq')", "SELECT nextval('p_m_seq')" };
    for (int i = 0; i < 2; i++) {
        tdb_exec(ss, gone[i], &r);
        cr_expect_str_eq(r.err.sqlstate, "42P01", "%s", gone[i]);
        tres_free(&r);
    }
    attu_session_free(ss);
    attu_db_close(d);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}
