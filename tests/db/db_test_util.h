/* db_test_util.h - running SQL through db/database.h and capturing results. */
#ifndef ATTU_TESTS_DB_TEST_UTIL_H
#define ATTU_TESTS_DB_TEST_UTIL_H

#include <stddef.h>

#include "db/database.h"

typedef struct tres {
    int     nresults;
    char    tag[16][64];
    char   *text;          /* all rows of the last row result: fields '|' separated, rows '\n' */
    int     ncols;
    size_t  nrows;
    char    colnames[256];
    attu_error err;        /* the error, if any */
    char    notices[512];
} tres;

attu_db *tdb_open(void);
/* tdb_open, failing the current Criterion test if it fails; *db gets the
 * database and the result is a new session on it. */
attu_session *tdb_open_session(attu_db **db);
/* Opens a database kept in the data directory dir (CPU, 2 threads), failing
 * the current Criterion test if it fails. */
attu_db *tdb_open_dir(const char *dir);
/* Runs sql; returns the session exec code. r captures the outcome. */
int tdb_exec(attu_session *s, const char *sql, tres *r);
void tres_free(tres *r);
/* Convenience: runs and returns the rows text (static buffer reused). */
const char *tdb_rows(attu_session *s, const char *sql);
/* Runs sql and fails the current Criterion test if it raises an error. */
void tdb_exec_ok(attu_session *s, const char *sql);
/* Runs sql, fails the test on an error, and returns the rows text (caller frees). */
char *tdb_rows_ok(attu_session *s, const char *sql);
char *tdb_read_file(const char *path);
/* Runs sql and fails the current Criterion test unless it raises sqlstate
 * with message, and (when not NULL) detail and hint. */
void tdb_expect_error(attu_session *s, const char *sql, const char *sqlstate, const char *message, const char *detail,
                      const char *hint);
/* sql fails with state and message at the first occurrence of `at` in it
 * (NULL: no position; positions count characters from 1, so sql is
 * ASCII), with detail / hint where given (NULL: not checked). */
void tdb_expect_error_at(attu_session *s, const char *sql, const char *state, const char *message, const char *at,
                         const char *detail, const char *hint);
/* Removes a test's data directory (rm -rf), failing the test if it cannot. */
void tdb_remove_dir(const char *dir);

#endif
