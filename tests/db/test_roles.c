/*
 * test_roles.c - roles (db/db_role.c, db/db_role_grant.c): the errors'
 * positions, DETAILs and NOTICEs as PostgreSQL 15.18 gives them, a
 * session whose user is a created role, and roles, passwords and
 * memberships surviving a close and reopen of the data directory
 * (tests/sql/roles_pg.test has the statements' results).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db_test_util.h"

Test(roles, error_positions_and_details) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    tdb_exec_ok(s, "CREATE ROLE r1");
    tdb_expect_error_at(s, "CREATE ROLE r1", "42710", "role \"r1\" already exists", NULL, NULL, NULL);
    tdb_expect_error_at(s, "CREATE ROLE r2 SUPERUSER NOSUPERUSER", "42601", "conflicting or redundant options", "NOSUPERUSER", NULL, NULL);
    tdb_expect_error_at(s, "CREATE ROLE r2 PASSWORD 'a' PASSWORD 'b'", "42601", "conflicting or redundant options", "PASSWORD 'b'", NULL, NULL);
    tdb_expect_error_at(s, "CREATE ROLE r2 ROLE r1 USER r1", "42601", "conflicting or redundant options", "USER", NULL, NULL);
    tdb_expect_error_at(s, "ALTER ROLE r1 CONNECTION LIMIT 2 CONNECTION LIMIT 3", "42601", "conflicting or redundant options",
                    "CONNECTION LIMIT 3", NULL, NULL);
    tdb_expect_error_at(s, "CREATE ROLE r2 FOO", "42601", "unrecognized role option \"foo\"", "FOO", NULL, NULL);
    tdb_expect_error_at(s, "CREATE ROLE public", "42939", "role name \"public\" is reserved", "public", NULL, NULL);
    tdb_expect_error_at(s, "CREATE ROLE \"none\"", "42939", "role name \"none\" is reserved", "\"none\"", NULL, NULL);
    tdb_expect_error_at(s, "CREATE ROLE current_user", "42939", "CURRENT_USER cannot be used as a role name here", "current_user", NULL, NULL);
    tdb_expect_error_at(s, "CREATE ROLE pg_foo", "42939", "role name \"pg_foo\" is reserved", NULL,
                    "Role names starting with \"pg_\" are reserved.", NULL);
    tdb_expect_error_at(s, "ALTER ROLE r1 IN GROUP r1", "42601", "syntax error at or near \"GROUP\"", "GROUP", NULL, NULL);
    tdb_expect_error_at(s, "ALTER ROLE r1 WITH ADMIN r1", "42601", "syntax error at or near \"ADMIN\"", "ADMIN", NULL, NULL);
    tdb_expect_error_at(s, "CREATE ROLE r2 CONNECTION LIMIT -5", "22023", "invalid connection limit: -5", NULL, NULL, NULL);
    tdb_expect_error_at(s, "CREATE ROLE r2 VALID UNTIL 'garbage'", "22007",
                    "invalid input syntax for type timestamp with time zone: \"garbage\"", NULL, NULL, NULL);
    tdb_expect_error_at(s, "GRANT r1 TO r1", "0LP01", "role \"r1\" is a member of role \"r1\"", NULL, NULL, NULL);
    tdb_expect_error_at(s, "GRANT r1 TO nosuch", "42704", "role \"nosuch\" does not exist", NULL, NULL, NULL);
    tdb_expect_error_at(s, "DROP ROLE CURRENT_USER", "22023", "cannot use special role specifier in DROP ROLE", NULL, NULL, NULL);
    tdb_expect_error_at(s, "DROP ROLE attu", "55006", "current user cannot be dropped", NULL, NULL, NULL);
    tdb_expect_error_at(s, "ALTER ROLE attu RENAME TO x", "0A000", "session user cannot be renamed", NULL, NULL, NULL);

    tres r;
    tdb_exec(s, "GRANT r1 TO attu", &r);
    tres_free(&r);
    tdb_exec(s, "GRANT r1 TO attu", &r);
    cr_assert(!r.err.set);
    cr_assert(strstr(r.notices, "role \"attu\" is already a member of role \"r1\""), "%s", r.notices);
    tres_free(&r);
    tdb_exec(s, "DROP ROLE IF EXISTS nosuch", &r);
    cr_assert(strstr(r.notices, "role \"nosuch\" does not exist, skipping"), "%s", r.notices);
    tres_free(&r);
    tdb_exec(s, "CREATE ROLE r3 PASSWORD ''", &r);
    cr_assert(strstr(r.notices, "empty string is not a valid password, clearing password"), "%s", r.notices);
    tres_free(&r);
    attu_session_free(s);
    attu_db_close(db);
}

Test(roles, session_of_a_created_role) {
    attu_db *db;
    attu_session *s = tdb_open_session(&db);
    tdb_exec_ok(s, "CREATE ROLE lr LOGIN");
    tdb_exec_ok(s, "CREATE ROLE other");
    attu_session *l = attu_session_new(db);
    attu_session_set_identity(l, "lr", "attu");
    cr_assert_str_eq(tdb_rows(l, "SELECT current_user, session_user"), "lr|lr\n");
    /* the bootstrap superuser is "attu" in a created role's session */
    cr_assert_str_eq(tdb_rows(l, "SELECT rolname FROM pg_roles WHERE oid = 10"), "attu\n");
    tdb_expect_error_at(l, "CREATE ROLE x", "42501", "permission denied to create role", NULL, NULL, NULL);
    tdb_expect_error_at(l, "CREATE ROLE x SUPERUSER", "42501", "must be superuser to create superusers", NULL, NULL, NULL);
    tdb_expect_error_at(l, "DROP ROLE other", "42501", "permission denied to drop role", NULL, NULL, NULL);
    tdb_expect_error_at(l, "GRANT other TO lr", "42501", "must have admin option on role \"other\"", NULL, NULL, NULL);
    tdb_exec_ok(l, "ALTER ROLE lr PASSWORD 'mine'");
    tdb_exec_ok(s, "GRANT other TO lr WITH ADMIN OPTION");
    tdb_exec_ok(l, "GRANT other TO attu");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(*) FROM pg_auth_members WHERE roleid = (SELECT oid FROM pg_roles WHERE rolname = 'other')"),
                     "2\n");
    /* login facts for the server */
    attu_role_login rl;
    cr_assert_eq(attu_db_role_login(db, "lr", &rl), 1);
    cr_assert(rl.can_login);
    cr_assert(rl.verifier && !strncmp(rl.verifier, "SCRAM-SHA-256$4096:", 19));
    free(rl.verifier);
    cr_assert_eq(attu_db_role_login(db, "other", &rl), 1);
    cr_assert(!rl.can_login);
    free(rl.verifier);
    cr_assert_eq(attu_db_role_login(db, "somebody", &rl), 0);
    attu_session_free(l);
    attu_session_free(s);
    attu_db_close(db);
}

Test(roles, survive_close_and_reopen) {
    char dir[] = "/tmp/attu-roles-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    attu_db *d = tdb_open_dir(dir);
    attu_session *s = attu_session_new(d);
    tdb_exec_ok(s, "CREATE ROLE ra LOGIN PASSWORD 'pw' CONNECTION LIMIT 4 VALID UNTIL '2030-05-06 07:08:09+00'");
    tdb_exec_ok(s, "CREATE ROLE rb IN ROLE ra");
    tdb_exec_ok(s, "CREATE ROLE gone");
    tdb_exec_ok(s, "BEGIN; CREATE ROLE rolled_back; ROLLBACK");
    tdb_exec_ok(s, "DROP ROLE gone");
    tdb_exec_ok(s, "ALTER ROLE rb RENAME TO rb2");
    char *pw = tdb_rows_ok(s, "SELECT rolpassword FROM pg_authid WHERE rolname = 'ra'");
    attu_session_free(s);
    attu_db_close(d);

    d = tdb_open_dir(dir);
    s = attu_session_new(d);
    cr_assert_str_eq(tdb_rows(s, "SELECT rolname, rolcanlogin, rolconnlimit, rolvaliduntil FROM pg_roles WHERE oid >= 16384 ORDER BY 1"),
                     "ra|t|4|2030-05-06 07:08:09+00\nrb2|f|-1|NULL\n");
    cr_assert_str_eq(tdb_rows(s, "SELECT rolpassword FROM pg_authid WHERE rolname = 'ra'"), pw);
    cr_assert_str_eq(tdb_rows(s, "SELECT r.rolname, m.rolname FROM pg_auth_members a JOIN pg_roles r ON r.oid = a.roleid "
                                 "JOIN pg_roles m ON m.oid = a.member"),
                     "ra|rb2\n");
    /* a new role's OID is not one a kept role has */
    tdb_exec_ok(s, "CREATE ROLE rc");
    cr_assert_str_eq(tdb_rows(s, "SELECT count(DISTINCT oid) FROM pg_roles WHERE oid >= 16384"), "3\n");
    free(pw);
    attu_session_free(s);
    attu_db_close(d);
    tdb_remove_dir(dir);
}
