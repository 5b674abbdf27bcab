/*
 * test_copy_to_file.c - COPY ... TO 'file' through db/database.h where the
 * SQL logic tests cannot look: a database with a load directory (attud's
 * --load-dir), in which alone a COPY may write, its links resolved (a
 * link inside pointing out is refused, as is a name with ..), the file's
 * bytes and mode, an existing file emptied and rewritten, a full device's
 * errors, and a COPY that fails once writing has begun leaving nothing
 * of its rows behind.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db_test_util.h"

static attu_db *db;
static attu_session *s;
static char load[64] = "/tmp/attu-copy-to-load.XXXXXX";
static char outside[64] = "/tmp/attu-copy-to-out.XXXXXX";

static void setup(void) {
    cr_assert_not_null(mkdtemp(load));
    cr_assert_not_null(mkdtemp(outside));
    attu_db_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.device = ATTU_DEVICE_CPU;
    cfg.threads = 2;
    cfg.load_dir = load;
    attu_error err;
    attu_error_clear(&err);
    db = attu_db_open(&cfg, &err);
    cr_assert_not_null(db, "%s", err.message);
    s = attu_session_new(db);
    tdb_exec_ok(s, "CREATE TABLE t (a INTEGER, b TEXT)");
    tdb_exec_ok(s, "INSERT INTO t VALUES (1, 'x'), (2, NULL), (3, 'a\tb')");
}

static void teardown(void) {
    attu_session_free(s);
    attu_db_close(db);
    tdb_remove_dir(load);
    tdb_remove_dir(outside);
}

TestSuite(copy_to_file, .init = setup, .fini = teardown);

static char *sqlf(const char *fmt, const char *a, const char *b) {
    static char q[1024];
    snprintf(q, sizeof q, fmt, a, b);
    return q;
}

Test(copy_to_file, writes_in_the_load_dir) {
    char path[128];
    snprintf(path, sizeof path, "%s/t.txt", load);
    tres r;
    cr_assert_eq(tdb_exec(s, sqlf("COPY t TO '%s'", path, NULL), &r), 0, "%s", r.err.message);
    cr_assert_str_eq(r.tag[0], "COPY 3");
    tres_free(&r);
    char *text = tdb_read_file(path);
    cr_assert_str_eq(text, "1\tx\n2\t\\N\n3\ta\\tb\n");
    free(text);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_mode & 0022, 0, "group or others may write: %o", (unsigned)st.st_mode);
    /* again, shorter: the file is emptied first */
    tdb_exec_ok(s, sqlf("COPY (SELECT 'z') TO '%s' (FORMAT csv, HEADER)", path, NULL));
    text = tdb_read_file(path);
    cr_assert_str_eq(text, "?column?\nz\n");
    free(text);
}

Test(copy_to_file, refuses_outside_the_load_dir) {
    char msg[256];
    snprintf(msg, sizeof msg, "could not open file \"%s/x.txt\" for writing: outside the load directory", outside);
    tdb_expect_error(s, sqlf("COPY t TO '%s/x.txt'", outside, NULL), "42501", msg, NULL, NULL);
    snprintf(msg, sizeof msg, "could not open file \"%s/../x.txt\" for writing: outside the load directory", load);
    tdb_expect_error(s, sqlf("COPY t TO '%s/../x.txt'", load, NULL), "42501", msg, NULL, NULL);
    tdb_expect_error(s, "COPY t TO 'x.txt'", "42602", "relative path not allowed for COPY to file", NULL, NULL);
    /* a link in the load dir to a folder, or to a file, outside it */
    char link[128], target[128];
    snprintf(link, sizeof link, "%s/dir", load);
    cr_assert_eq(symlink(outside, link), 0);
    snprintf(msg, sizeof msg, "could not open file \"%s/x.txt\" for writing: outside the load directory", link);
    tdb_expect_error(s, sqlf("COPY t TO '%s/x.txt'", link, NULL), "42501", msg, NULL, NULL);
    snprintf(target, sizeof target, "%s/f.txt", outside);
    FILE *f = fopen(target, "w");
    cr_assert_not_null(f);
    fputs("keep\n", f);
    fclose(f);
    snprintf(link, sizeof link, "%s/f.txt", load);
    cr_assert_eq(symlink(target, link), 0);
    snprintf(msg, sizeof msg, "could not open file \"%s\" for writing: outside the load directory", link);
    tdb_expect_error(s, sqlf("COPY t TO '%s'", link, NULL), "42501", msg, NULL, NULL);
    char *text = tdb_read_file(target);
    cr_assert_str_eq(text, "keep\n");
    free(text);
    /* a link to nowhere: its target would be made outside */
    snprintf(link, sizeof link, "%s/dangling.txt", load);
    snprintf(target, sizeof target, "%s/made.txt", outside);
    cr_assert_eq(symlink(target, link), 0);
    tres r;
    tdb_exec(s, sqlf("COPY t TO '%s'", link, NULL), &r);
    cr_assert(r.err.set);
    tres_free(&r);
    cr_assert_neq(access(target, F_OK), 0, "the link's target was made");
    /* a missing folder inside it: PostgreSQL's 58P01 */
    snprintf(msg, sizeof msg, "could not open file \"%s/no/x.txt\" for writing: No such file or directory", load);
    tdb_expect_error(s, sqlf("COPY t TO '%s/no/x.txt'", load, NULL), "58P01", msg, NULL,
                     "COPY TO instructs the PostgreSQL server process to write a file. "
                     "You may want a client-side facility such as psql's \\copy.");
    /* the load dir itself */
    snprintf(msg, sizeof msg, "could not open file \"%s\" for writing: Is a directory", load);
    tdb_expect_error(s, sqlf("COPY t TO '%s'", load, NULL), "42809", msg, NULL, NULL);
}

/* A full device: PostgreSQL's messages, "could not write" where a full
 * piece fails, "could not close" where only the last one does (a
 * database without a load dir, which may write anywhere). */
Test(copy_to_file, full_device) {
    attu_db_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.device = ATTU_DEVICE_CPU;
    cfg.threads = 2;
    attu_error err;
    attu_error_clear(&err);
    attu_db *free_db = attu_db_open(&cfg, &err);
    cr_assert_not_null(free_db, "%s", err.message);
    attu_session *fs = attu_session_new(free_db);
    tdb_expect_error(fs, "COPY (SELECT g FROM generate_series(1, 100000) g) TO '/dev/full'", "53100",
                     "could not write to COPY file: No space left on device", NULL, NULL);
    tdb_expect_error(fs, "COPY (SELECT 1) TO '/dev/full'", "53100",
                     "could not close file \"/dev/full\": No space left on device", NULL, NULL);
    attu_session_free(fs);
    attu_db_close(free_db);
}

/* A COPY whose rows do not all reach the file leaves none of them: here
 * the file may not grow past 8 KiB (RLIMIT_FSIZE: write() fails with
 * EFBIG, XX000 as PostgreSQL's errcode_for_file_access has it). */
Test(copy_to_file, cut_back_on_a_write_error) {
    char path[128];
    snprintf(path, sizeof path, "%s/big.txt", load);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit was, small;
    cr_assert_eq(getrlimit(RLIMIT_FSIZE, &was), 0);
    small = was;
    small.rlim_cur = 8192;
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
    tdb_expect_error(s, sqlf("COPY (SELECT g FROM generate_series(1, 100000) g) TO '%s'", path, NULL), "XX000",
                     "could not write to COPY file: File too large", NULL, NULL);
    setrlimit(RLIMIT_FSIZE, &was);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_size, 0, "%lld bytes left", (long long)st.st_size);
}
