/*
 * test_fkey.c - what tests/sql/foreign_keys_pg.test cannot see: the
 * DETAIL and HINT lines of FOREIGN KEY errors (PostgreSQL 15's, from psql
 * against a private server), COPY FROM into a referencing table, INSERT
 * ... ON CONFLICT on either side, and foreign keys surviving a close and
 * reopen of the data directory, renames included; the DETAIL of a
 * deferred check failing at COMMIT and DEFERRABLE kept across a reopen.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db_test_util.h"

#define expect_error(s, sql, state, message, detail) tdb_expect_error(s, sql, state, message, detail, NULL)

static void make_tables(attu_session *s) {
    tdb_exec_ok(s, "CREATE TABLE p (id int PRIMARY KEY, n text)");
    tdb_exec_ok(s, "CREATE TABLE k2 (a int, b text, PRIMARY KEY (a, b))");
    tdb_exec_ok(s, "CREATE TABLE q (x int REFERENCES p ON DELETE CASCADE, y int, z text,"
                   " FOREIGN KEY (y, z) REFERENCES k2 MATCH FULL)");
    tdb_exec_ok(s, "INSERT INTO p VALUES (1, 'a'), (2, 'b')");
    tdb_exec_ok(s, "INSERT INTO k2 VALUES (1, 'x y')");
    tdb_exec_ok(s, "INSERT INTO q VALUES (1, 1, 'x y')");
}

Test(fkey, details) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    make_tables(s);
    expect_error(s, "INSERT INTO q VALUES (5, NULL, NULL)", "23503",
                 "insert or update on table \"q\" violates foreign key constraint \"q_x_fkey\"",
                 "Key (x)=(5) is not present in table \"p\".");
    expect_error(s, "INSERT INTO q VALUES (1, 1, 'nope')", "23503",
                 "insert or update on table \"q\" violates foreign key constraint \"q_y_z_fkey\"",
                 "Key (y, z)=(1, nope) is not present in table \"k2\".");
    expect_error(s, "INSERT INTO q VALUES (1, 1, NULL)", "23503",
                 "insert or update on table \"q\" violates foreign key constraint \"q_y_z_fkey\"",
                 "MATCH FULL does not allow mixing of null and nonnull key values.");
    expect_error(s, "DELETE FROM k2", "23503",
                 "update or delete on table \"k2\" violates foreign key constraint \"q_y_z_fkey\" on table \"q\"",
                 "Key (a, b)=(1, x y) is still referenced from table \"q\".");
    expect_error(s, "UPDATE k2 SET b = 'zz'", "23503",
                 "update or delete on table \"k2\" violates foreign key constraint \"q_y_z_fkey\" on table \"q\"",
                 "Key (a, b)=(1, x y) is still referenced from table \"q\".");
    expect_error(s, "CREATE TABLE r2 (a text REFERENCES p)", "42804",
                 "foreign key constraint \"r2_a_fkey\" cannot be implemented",
                 "Key columns \"a\" and \"id\" are of incompatible types: text and integer.");
    tdb_expect_error(s, "TRUNCATE p", "0A000", "cannot truncate a table referenced in a foreign key constraint",
                     "Table \"q\" references \"p\".", "Truncate table \"q\" at the same time, or use TRUNCATE ... CASCADE.");
    tdb_expect_error(s, "DROP TABLE p", "2BP01", "cannot drop table p because other objects depend on it",
                     "constraint q_x_fkey on table q depends on table p",
                     "Use DROP ... CASCADE to drop the dependent objects too.");
    tdb_expect_error(s, "ALTER TABLE p DROP CONSTRAINT p_pkey", "2BP01",
                     "cannot drop constraint p_pkey on table p because other objects depend on it",
                     "constraint q_x_fkey on table q depends on index p_pkey",
                     "Use DROP ... CASCADE to drop the dependent objects too.");
    /* a cascade deletes the referencing rows with the referenced one */
    tdb_exec_ok(s, "DELETE FROM p WHERE id = 1");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM q"), "0\n");
    attu_session_free(s);
    attu_db_close(db);
}

Test(fkey, copy_and_on_conflict) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    make_tables(s);
    char path[] = "/tmp/attu-fkey-copy-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    const char *rows = "2\t\\N\t\\N\n7\t\\N\t\\N\n";
    cr_assert_eq(write(fd, rows, strlen(rows)), (ssize_t)strlen(rows));
    close(fd);
    char sql[128];
    snprintf(sql, sizeof sql, "COPY q FROM '%s'", path);
    expect_error(s, sql, "23503", "insert or update on table \"q\" violates foreign key constraint \"q_x_fkey\"",
                 "Key (x)=(7) is not present in table \"p\".");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM q"), "1\n");
    tdb_exec_ok(s, "INSERT INTO p VALUES (7, 'g')");
    tdb_exec_ok(s, sql);
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM q"), "3\n");
    unlink(path);
    /* ON CONFLICT DO UPDATE of a referenced key: NO ACTION (x is ON DELETE
     * CASCADE only) */
    expect_error(s, "INSERT INTO p VALUES (7, 'h') ON CONFLICT (id) DO UPDATE SET id = 8", "23503",
                 "update or delete on table \"p\" violates foreign key constraint \"q_x_fkey\" on table \"q\"",
                 "Key (id)=(7) is still referenced from table \"q\".");
    tdb_exec_ok(s, "INSERT INTO p VALUES (7, 'h') ON CONFLICT (id) DO UPDATE SET n = 'hh'");
    cr_assert_str_eq(tdb_rows(s, "SELECT n FROM p WHERE id = 7"), "hh\n");
    /* and of a referencing row */
    tdb_exec_ok(s, "CREATE TABLE u (id int PRIMARY KEY, r int REFERENCES p)");
    tdb_exec_ok(s, "INSERT INTO u VALUES (1, 1)");
    expect_error(s, "INSERT INTO u VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET r = 99", "23503",
                 "insert or update on table \"u\" violates foreign key constraint \"u_r_fkey\"",
                 "Key (r)=(99) is not present in table \"p\".");
    tdb_exec_ok(s, "INSERT INTO u VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET r = 2");
    cr_assert_str_eq(tdb_rows(s, "SELECT r FROM u"), "2\n");
    attu_session_free(s);
    attu_db_close(db);
}

Test(fkey, constraints_survive_close_and_reopen) {
    char dir[] = "/tmp/attu-fkey-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *db = tdb_open_dir(dir);
    attu_session *s = attu_session_new(db);
    make_tables(s);
    tdb_exec_ok(s, "CREATE TABLE \"odd t\" (\"a b\" int CONSTRAINT \"odd fk\" REFERENCES p ON UPDATE CASCADE ON DELETE SET NULL)");
    tdb_exec_ok(s, "INSERT INTO \"odd t\" VALUES (2)");
    tdb_exec_ok(s, "ALTER TABLE p RENAME TO pp");
    tdb_exec_ok(s, "ALTER TABLE pp RENAME COLUMN id TO pid");
    attu_session_free(s);
    attu_db_close(db);

    db = tdb_open_dir(dir);
    s = attu_session_new(db);
    expect_error(s, "INSERT INTO q VALUES (9, NULL, NULL)", "23503",
                 "insert or update on table \"q\" violates foreign key constraint \"q_x_fkey\"",
                 "Key (x)=(9) is not present in table \"pp\".");
    cr_assert_str_eq(tdb_rows(s, "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'odd fk'"),
                     "FOREIGN KEY (\"a b\") REFERENCES pp(pid) ON UPDATE CASCADE ON DELETE SET NULL\n");
    tdb_exec_ok(s, "UPDATE pp SET pid = 20 WHERE pid = 2");
    cr_assert_str_eq(tdb_rows(s, "SELECT \"a b\" FROM \"odd t\""), "20\n");
    tdb_exec_ok(s, "DELETE FROM pp WHERE pid = 20");
    cr_assert_str_eq(tdb_rows(s, "SELECT \"a b\" IS NULL FROM \"odd t\""), "t\n");
    tdb_exec_ok(s, "ALTER TABLE q DROP CONSTRAINT q_y_z_fkey");
    attu_session_free(s);
    attu_db_close(db);

    db = tdb_open_dir(dir);
    s = attu_session_new(db);
    tdb_exec_ok(s, "INSERT INTO q VALUES (NULL, 5, 'not there')");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM pg_constraint WHERE contype = 'f'"), "2\n");
    /* the cascades' changes were saved: the deleted row stays deleted */
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM pp"), "1\n");
    attu_session_free(s);
    attu_db_close(db);
    tdb_remove_dir(dir);
}

Test(fkey, deferrable_details_and_reopen) {
    char dir[] = "/tmp/attu-fkey-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *db = tdb_open_dir(dir);
    attu_session *s = attu_session_new(db);
    tdb_exec_ok(s, "CREATE TABLE dp (id int PRIMARY KEY)");
    tdb_exec_ok(s, "CREATE TABLE dc (pid int REFERENCES dp DEFERRABLE INITIALLY DEFERRED,"
                   " qid int CONSTRAINT dc_q REFERENCES dp DEFERRABLE)");
    tdb_exec_ok(s, "INSERT INTO dp VALUES (1)");
    tdb_exec_ok(s, "INSERT INTO dc VALUES (1, NULL)");
    /* the referencing side at COMMIT (PostgreSQL 15's lines, from psql) */
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "INSERT INTO dc VALUES (5, NULL)");
    expect_error(s, "COMMIT", "23503", "insert or update on table \"dc\" violates foreign key constraint \"dc_pid_fkey\"",
                 "Key (pid)=(5) is not present in table \"dp\".");
    /* the referenced side */
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "DELETE FROM dp");
    expect_error(s, "COMMIT", "23503",
                 "update or delete on table \"dp\" violates foreign key constraint \"dc_pid_fkey\" on table \"dc\"",
                 "Key (id)=(1) is still referenced from table \"dc\".");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM dp"), "1\n");
    attu_session_free(s);
    attu_db_close(db);

    db = tdb_open_dir(dir);
    s = attu_session_new(db);
    cr_assert_str_eq(tdb_rows(s, "SELECT conname, condeferrable, condeferred FROM pg_constraint WHERE contype = 'f' ORDER BY 1"),
                     "dc_pid_fkey|t|t\ndc_q|t|f\n");
    tdb_exec_ok(s, "BEGIN");
    tdb_exec_ok(s, "INSERT INTO dc VALUES (7, NULL)");
    tdb_exec_ok(s, "INSERT INTO dp VALUES (7)");
    tdb_exec_ok(s, "COMMIT");
    expect_error(s, "INSERT INTO dc VALUES (NULL, 8)", "23503",
                 "insert or update on table \"dc\" violates foreign key constraint \"dc_q\"",
                 "Key (qid)=(8) is not present in table \"dp\".");
    attu_session_free(s);
    attu_db_close(db);
    tdb_remove_dir(dir);
}
