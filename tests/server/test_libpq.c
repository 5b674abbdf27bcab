/*
 * test_libpq.c - attud's protocol layer (linked with the fake database,
 * see fake_db.c) driven by libpq and by a raw socket client: simple and
 * extended protocol, COPY both ways, cancel, statement_timeout, errors,
 * big results, garbage input, connection limits, SCRAM, SIGTERM.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <ifaddrs.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "server/auth_scram.h"
#include "server_harness.h"

static test_daemon D;

static void start(void) {
    cr_assert_eq(daemon_start(&D, ATTUD_FAKE, NULL), 0, "attud_fake did not start");
}
static void start_with(const char *const *extra) {
    cr_assert_eq(daemon_start(&D, ATTUD_FAKE, extra), 0, "attud_fake did not start");
}
static void stop(void) {
    if (D.pid) cr_expect_eq(daemon_stop(&D), 0, "attud did not exit 0 on SIGTERM");
}

static PGconn *connect_db(void) {
    char ci[256];
    daemon_conninfo(&D, ci, sizeof ci);
    PGconn *c = PQconnectdb(ci);
    cr_assert_eq(PQstatus(c), CONNECTION_OK, "connect: %s", PQerrorMessage(c));
    return c;
}

static PGresult *must(PGconn *c, const char *sql, ExecStatusType want) {
    PGresult *r = PQexec(c, sql);
    cr_assert_eq(PQresultStatus(r), want, "%s: %s %s", sql, PQresStatus(PQresultStatus(r)),
                 PQerrorMessage(c));
    return r;
}

TestSuite(libpq, .init = start, .fini = stop, .timeout = 60);

Test(libpq, startup_parameters) {
    PGconn *c = connect_db();
    cr_assert_str_eq(PQparameterStatus(c, "server_encoding"), "UTF8");
    cr_assert_str_eq(PQparameterStatus(c, "client_encoding"), "UTF8");
    cr_assert_str_eq(PQparameterStatus(c, "DateStyle"), "ISO, MDY");
    cr_assert_str_eq(PQparameterStatus(c, "integer_datetimes"), "on");
    cr_assert_str_eq(PQparameterStatus(c, "standard_conforming_strings"), "on");
    cr_assert_str_eq(PQparameterStatus(c, "TimeZone"), "UTC");
    cr_assert_eq(PQserverVersion(c), 150000);
    cr_assert_gt(PQbackendPID(c), 0);
    cr_assert_eq(PQtransactionStatus(c), PQTRANS_IDLE);
    PQfinish(c);
}

Test(libpq, simple_query_several_statements) {
    PGconn *c = connect_db();
    cr_assert(PQsendQuery(c, "SELECT 1 AS one; SELECT 'a', NULL; CREATE TABLE t (a int)"));
    PGresult *r = PQgetResult(c);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK);
    cr_assert_str_eq(PQfname(r, 0), "one");
    cr_assert_eq(PQftype(r, 0), 23);
    cr_assert_eq(PQfsize(r, 0), 4);
    cr_assert_str_eq(PQgetvalue(r, 0, 0), "1");
    cr_assert_str_eq(PQcmdStatus(r), "SELECT 1");
    PQclear(r);
    r = PQgetResult(c);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK);
    cr_assert_eq(PQnfields(r), 2);
    cr_assert_eq(PQftype(r, 0), 25);
    cr_assert_str_eq(PQgetvalue(r, 0, 0), "a");
    cr_assert(PQgetisnull(r, 0, 1));
    PQclear(r);
    r = PQgetResult(c);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK);
    cr_assert_str_eq(PQcmdStatus(r), "CREATE TABLE");
    PQclear(r);
    cr_assert_null(PQgetResult(c));
    PQfinish(c);
}

Test(libpq, empty_query_and_errors_keep_the_session) {
    PGconn *c = connect_db();
    PQclear(must(c, "", PGRES_EMPTY_QUERY));
    PQclear(must(c, " ;; ", PGRES_EMPTY_QUERY));
    PGresult *r = must(c, "SELECT 1; SELECT error; SELECT 2", PGRES_FATAL_ERROR);
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "42703");
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SEVERITY), "ERROR");
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_STATEMENT_POSITION), "18");
    PQclear(r);
    r = must(c, "SELEC 1", PGRES_FATAL_ERROR);
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "42601");
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_STATEMENT_POSITION), "1");
    PQclear(r);
    r = must(c, "SELECT 7", PGRES_TUPLES_OK);
    cr_assert_str_eq(PQgetvalue(r, 0, 0), "7");
    PQclear(r);
    PQfinish(c);
}

Test(libpq, transaction_status) {
    PGconn *c = connect_db();
    PQclear(must(c, "BEGIN", PGRES_COMMAND_OK));
    cr_assert_eq(PQtransactionStatus(c), PQTRANS_INTRANS);
    PQclear(must(c, "SELECT error", PGRES_FATAL_ERROR));
    cr_assert_eq(PQtransactionStatus(c), PQTRANS_INERROR);
    PQclear(must(c, "ROLLBACK", PGRES_COMMAND_OK));
    cr_assert_eq(PQtransactionStatus(c), PQTRANS_IDLE);
    PQfinish(c);
}

static int notices;
static void count_notice(void *arg, const PGresult *r) {
    (void)arg;
    if (!strcmp(PQresultErrorField(r, PG_DIAG_SEVERITY), "NOTICE")) notices++;
}

Test(libpq, notice_response) {
    PGconn *c = connect_db();
    PQsetNoticeReceiver(c, count_notice, NULL);
    notices = 0;
    PQclear(must(c, "DROP TABLE IF EXISTS nope", PGRES_COMMAND_OK));
    cr_assert_eq(notices, 1);
    PQfinish(c);
}

Test(libpq, extended_protocol_parameters) {
    PGconn *c = connect_db();
    const char *vals[2] = { "hello", NULL };
    PGresult *r = PQexecParams(c, "SELECT $1, $2", 2, NULL, vals, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s", PQerrorMessage(c));
    cr_assert_str_eq(PQgetvalue(r, 0, 0), "hello");
    cr_assert(PQgetisnull(r, 0, 1));
    PQclear(r);

    r = PQprepare(c, "s1", "SELECT 5, $1", 1, NULL);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s", PQerrorMessage(c));
    PQclear(r);
    r = PQdescribePrepared(c, "s1");
    cr_assert_eq(PQnparams(r), 1);
    cr_assert_eq(PQparamtype(r, 0), 25);
    cr_assert_eq(PQnfields(r), 2);
    cr_assert_eq(PQftype(r, 0), 23);
    PQclear(r);
    for (int i = 0; i < 3; i++) {
        char v[16];
        snprintf(v, sizeof v, "v%d", i);
        const char *pv[1] = { v };
        r = PQexecPrepared(c, "s1", 1, pv, NULL, NULL, 0);
        cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK);
        cr_assert_str_eq(PQgetvalue(r, 0, 1), v);
        PQclear(r);
    }
    /* duplicate name, unknown statement, wrong parameter count */
    r = PQprepare(c, "s1", "SELECT 1", 0, NULL);
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "42P05");
    PQclear(r);
    r = PQexecPrepared(c, "nope", 0, NULL, NULL, NULL, 0);
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "26000");
    PQclear(r);
    r = PQexecPrepared(c, "s1", 0, NULL, NULL, NULL, 0);
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "08P01");
    PQclear(r);
    /* a parse error in the extended protocol, then the session still works */
    r = PQexecParams(c, "SELEC 1", 0, NULL, NULL, NULL, NULL, 0);
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "42601");
    PQclear(r);
    r = must(c, "SELECT 3", PGRES_TUPLES_OK);
    PQclear(r);
    PQfinish(c);
}

/* As in PostgreSQL, an error in Parse or Bind (not only in Execute)
 * aborts an open transaction block; COMMIT / ROLLBACK sent through the
 * extended protocol (as pgjdbc does) then end it. */
Test(libpq, failed_parse_or_bind_aborts_the_block) {
    PGconn *c = connect_db();
    PQclear(must(c, "BEGIN", PGRES_COMMAND_OK));
    PGresult *r = PQprepare(c, "bad", "SELEC 1", 0, NULL);
    cr_assert_eq(PQresultStatus(r), PGRES_FATAL_ERROR);
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "42601");
    PQclear(r);
    cr_assert_eq(PQtransactionStatus(c), PQTRANS_INERROR);
    r = PQexecParams(c, "SELECT 1", 0, NULL, NULL, NULL, NULL, 0);
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "25P02");
    PQclear(r);
    r = PQexecParams(c, "ROLLBACK", 0, NULL, NULL, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s", PQerrorMessage(c));
    PQclear(r);
    cr_assert_eq(PQtransactionStatus(c), PQTRANS_IDLE);

    /* a binary int4 of 3 bytes fails in Bind (08P01 "insufficient data
     * left in message", an ERROR as in PostgreSQL) */
    PQclear(must(c, "BEGIN", PGRES_COMMAND_OK));
    Oid types[1] = { 23 };
    const char *vals[1] = { "\0\0\1" };
    int lens[1] = { 3 }, fmts[1] = { 1 };
    r = PQexecParams(c, "SELECT $1", 1, types, vals, lens, fmts, 0);
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "08P01");
    PQclear(r);
    cr_assert_eq(PQtransactionStatus(c), PQTRANS_INERROR);
    r = PQexecParams(c, "COMMIT", 0, NULL, NULL, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s", PQerrorMessage(c));
    cr_assert_str_eq(PQcmdStatus(r), "ROLLBACK");
    PQclear(r);
    cr_assert_eq(PQtransactionStatus(c), PQTRANS_IDLE);
    /* outside a block a failed Parse leaves the session idle */
    r = PQprepare(c, "bad", "SELEC 1", 0, NULL);
    PQclear(r);
    cr_assert_eq(PQtransactionStatus(c), PQTRANS_IDLE);
    PQfinish(c);
}

/* NUMERIC parameters in binary (pgjdbc's setBigDecimal) arrive as their
 * decimal text; malformed ones fail with 22P03. */
Test(libpq, binary_numeric_parameters) {
    PGconn *c = connect_db();
    struct { const char *bytes; int len; const char *text; } cases[] = {
        /* ndigits 2, weight 0, sign -, dscale 2: 12, 3400 */
        { "\0\2\0\0\x40\0\0\2\0\x0c\x0d\x48", 12, "-12.34" },
        /* 0.0001: ndigits 1, weight -1, dscale 4 */
        { "\0\1\xff\xff\0\0\0\4\0\1", 10, "0.0001" },
        /* zero with dscale 2 */
        { "\0\0\0\0\0\0\0\2", 8, "0.00" },
        { "\0\0\0\0\xc0\0\0\0", 8, "NaN" },
    };
    Oid types[1] = { 1700 };
    int fmts[1] = { 1 };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *vals[1] = { cases[i].bytes };
        int lens[1] = { cases[i].len };
        PGresult *r = PQexecParams(c, "SELECT $1", 1, types, vals, lens, fmts, 0);
        cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "case %zu: %s", i, PQerrorMessage(c));
        cr_assert_str_eq(PQgetvalue(r, 0, 0), cases[i].text);
        PQclear(r);
    }
    const char *vals[1] = { "\0\1\0\0\0\0\0\0\x27\x10" };   /* digit 10000 */
    int lens[1] = { 10 };
    PGresult *r = PQexecParams(c, "SELECT $1", 1, types, vals, lens, fmts, 0);
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "22P03");
    PQclear(r);
    PQfinish(c);
}

/* INTERVAL parameters in binary (interval_recv's microseconds, days, months)
 * arrive spelled unit by unit (the fake database echoes the text), so that
 * every slot reads back, the widest negative time too: its IntervalStyle
 * text, -2562047788:00:54.775808, is no valid interval input, here or in
 * PostgreSQL. */
Test(libpq, binary_interval_parameters) {
    PGconn *c = connect_db();
    struct { const char *bytes; const char *text; } cases[] = {
        { "\0\0\0\0\xd6\x93\xa4\0" "\0\0\0\1" "\0\0\0\2", "2 mons 1 days 3600000000 microseconds" },
        { "\x80\0\0\0\0\0\0\0" "\x80\0\0\0" "\x80\0\0\0",
          "-2147483648 mons -2147483648 days -9223372036854775808 microseconds" },
        { "\x7f\xff\xff\xff\xff\xff\xff\xff" "\x7f\xff\xff\xff" "\x7f\xff\xff\xff",
          "2147483647 mons 2147483647 days 9223372036854775807 microseconds" },
        { "\xff\xff\xff\xff\xff\xff\xff\xff" "\0\0\0\1" "\xff\xff\xff\xff",
          "-1 mons 1 days -1 microseconds" },
    };
    Oid types[1] = { 1186 };
    int fmts[1] = { 1 }, lens[1] = { 16 };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *vals[1] = { cases[i].bytes };
        PGresult *r = PQexecParams(c, "SELECT $1", 1, types, vals, lens, fmts, 0);
        cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "case %zu: %s", i, PQerrorMessage(c));
        cr_assert_str_eq(PQgetvalue(r, 0, 0), cases[i].text);
        PQclear(r);
    }
    const char *vals[1] = { "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0" };
    int shortlen[1] = { 15 };
    /* a short one runs out of bytes (08P01), as PostgreSQL's interval_recv */
    PGresult *r = PQexecParams(c, "SELECT $1", 1, types, vals, shortlen, fmts, 0);
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "08P01");
    PQclear(r);
    PQfinish(c);
}

/* TIME parameters in binary (time_recv: int64 microseconds since
 * midnight) arrive as a TIME value (the fake database shows its
 * microseconds; the real one HH:MM:SS, psycopg2_test.py); past 24:00:00 is 22008, as PostgreSQL's
 * time_recv, a short one 08P01. */
Test(libpq, binary_time_parameters) {
    PGconn *c = connect_db();
    struct { const char *bytes; const char *text; } cases[] = {
        { "\0\0\0\x0a\x8b\xe6\x26\x08", "45296789000" },
        { "\0\0\0\x14\x1d\xd7\x60\0", "86400000000" },
        { "\0\0\0\0\0\0\0\0", "0" },
        { "\0\0\0\0\0\0\0\x01", "1" },
    };
    Oid types[1] = { 1083 };
    int fmts[1] = { 1 }, lens[1] = { 8 };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *vals[1] = { cases[i].bytes };
        PGresult *r = PQexecParams(c, "SELECT $1", 1, types, vals, lens, fmts, 0);
        cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "case %zu: %s", i, PQerrorMessage(c));
        cr_assert_str_eq(PQgetvalue(r, 0, 0), cases[i].text);
        PQclear(r);
    }
    const char *past[1] = { "\0\0\0\x14\x1d\xd7\x60\x01" }, *neg[1] = { "\xff\xff\xff\xff\xff\xff\xff\xff" };
    PGresult *r = PQexecParams(c, "SELECT $1", 1, types, past, lens, fmts, 0);
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "22008");
    PQclear(r);
    r = PQexecParams(c, "SELECT $1", 1, types, neg, lens, fmts, 0);
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "22008");
    PQclear(r);
    int shortlen[1] = { 7 };
    r = PQexecParams(c, "SELECT $1", 1, types, past, shortlen, fmts, 0);
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "08P01");
    PQclear(r);
    PQfinish(c);
}

Test(libpq, binary_results_and_parameters) {
    PGconn *c = connect_db();
    PGresult *r = PQexecParams(c, "SELECT 42", 0, NULL, NULL, NULL, NULL, 1);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s", PQerrorMessage(c));
    cr_assert_eq(PQfformat(r, 0), 1);
    cr_assert_eq(PQgetlength(r, 0, 0), 4);
    uint32_t v;
    memcpy(&v, PQgetvalue(r, 0, 0), 4);
    cr_assert_eq(ntohl(v), 42u);
    PQclear(r);
    r = PQexecParams(c, "SELECT generate_series(1, 3)", 0, NULL, NULL, NULL, NULL, 1);
    cr_assert_eq(PQntuples(r), 3);
    cr_assert_eq(PQgetlength(r, 2, 0), 8);
    cr_assert_eq((uint8_t)PQgetvalue(r, 2, 0)[7], 3);
    PQclear(r);
    /* a binary int4 parameter arrives as text 1234 */
    Oid types[1] = { 23 };
    uint32_t be = htonl(1234);
    const char *vals[1] = { (const char *)&be };
    int lens[1] = { 4 }, fmts[1] = { 1 };
    r = PQexecParams(c, "SELECT $1", 1, types, vals, lens, fmts, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s", PQerrorMessage(c));
    cr_assert_str_eq(PQgetvalue(r, 0, 0), "1234");
    PQclear(r);
    PQfinish(c);
}

Test(libpq, copy_in_and_out) {
    PGconn *c = connect_db();
    PQclear(must(c, "CREATE TABLE t (a int, b text)", PGRES_COMMAND_OK));
    PQclear(must(c, "COPY t FROM STDIN", PGRES_COPY_IN));
    char line[64];
    for (int i = 0; i < 1000; i++) {
        int n = snprintf(line, sizeof line, "%d,row%d\n", i, i);
        cr_assert_eq(PQputCopyData(c, line, n), 1);
    }
    cr_assert_eq(PQputCopyEnd(c, NULL), 1);
    PGresult *r = PQgetResult(c);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s", PQerrorMessage(c));
    cr_assert_str_eq(PQcmdStatus(r), "COPY 1000");
    PQclear(r);
    while ((r = PQgetResult(c))) PQclear(r);

    /* a CopyFail leaves the table as it was */
    PQclear(must(c, "COPY t FROM STDIN", PGRES_COPY_IN));
    PQputCopyData(c, "5000,x\n", 7);
    cr_assert_eq(PQputCopyEnd(c, "client changed its mind"), 1);
    r = PQgetResult(c);
    cr_assert_eq(PQresultStatus(r), PGRES_FATAL_ERROR);
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "57014");
    cr_assert(strstr(PQresultErrorMessage(r), "client changed its mind"));
    PQclear(r);
    while ((r = PQgetResult(c))) PQclear(r);

    /* a bad row fails the COPY with 22P04; the rest of the data is ignored */
    PQclear(must(c, "COPY t FROM STDIN", PGRES_COPY_IN));
    PQputCopyData(c, "1,a\n2\n", 6);
    for (int i = 0; i < 100; i++) PQputCopyData(c, "3,c\n", 4);
    PQputCopyEnd(c, NULL);
    r = PQgetResult(c);
    cr_assert_eq(PQresultStatus(r), PGRES_FATAL_ERROR);
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "22P04");
    PQclear(r);
    while ((r = PQgetResult(c))) PQclear(r);

    PQclear(must(c, "COPY t TO STDOUT", PGRES_COPY_OUT));
    char *buf;
    int n, rows = 0;
    long sum = 0;
    while ((n = PQgetCopyData(c, &buf, 0)) > 0) {
        rows++;
        sum += atol(buf);
        PQfreemem(buf);
    }
    cr_assert_eq(n, -1);
    r = PQgetResult(c);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK);
    cr_assert_str_eq(PQcmdStatus(r), "COPY 1000");
    PQclear(r);
    cr_assert_eq(rows, 1000);
    cr_assert_eq(sum, 999L * 1000 / 2);
    r = must(c, "SELECT * FROM t", PGRES_TUPLES_OK);
    cr_assert_eq(PQntuples(r), 1000);
    cr_assert_str_eq(PQgetvalue(r, 999, 1), "row999");
    PQclear(r);
    PQfinish(c);
}

Test(libpq, cancel_running_query_quickly) {
    PGconn *c = connect_db();
    cr_assert(PQsendQuery(c, "SELECT pg_sleep(30)"));
    usleep(200000);
    PGcancel *cn = PQgetCancel(c);
    char err[256];
    double t0 = now_ms();
    cr_assert(PQcancel(cn, err, sizeof err), "%s", err);
    PQfreeCancel(cn);
    PGresult *r = PQgetResult(c);
    double ms = now_ms() - t0;
    cr_assert_eq(PQresultStatus(r), PGRES_FATAL_ERROR);
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "57014");
    PQclear(r);
    while ((r = PQgetResult(c))) PQclear(r);
    cr_log_info("cancel took %.1f ms", ms);
    cr_assert_lt(ms, 100.0 * 3, "cancel took %.1f ms", ms);   /* 100 ms target; ASan slack */
    r = must(c, "SELECT 1", PGRES_TUPLES_OK);
    PQclear(r);
    PQfinish(c);
}

Test(libpq, statement_timeout) {
    PGconn *c = connect_db();
    PQclear(must(c, "SET statement_timeout = 100", PGRES_COMMAND_OK));
    double t0 = now_ms();
    PGresult *r = must(c, "SELECT pg_sleep(10)", PGRES_FATAL_ERROR);
    double ms = now_ms() - t0;
    cr_assert_str_eq(PQresultErrorField(r, PG_DIAG_SQLSTATE), "57014");
    cr_assert(strstr(PQresultErrorMessage(r), "statement timeout"), "%s", PQresultErrorMessage(r));
    cr_assert_lt(ms, 2000.0);
    PQclear(r);
    PQclear(must(c, "SELECT pg_sleep(0.01)", PGRES_TUPLES_OK));
    PQfinish(c);
}

Test(libpq, large_result_streams) {
    PGconn *c = connect_db();
    PGresult *r = must(c, "SELECT generate_series(1, 300000)", PGRES_TUPLES_OK);
    cr_assert_eq(PQntuples(r), 300000);
    cr_assert_str_eq(PQgetvalue(r, 299999, 0), "300000");
    cr_assert_eq(PQftype(r, 0), 20);
    PQclear(r);
    PQfinish(c);
}

/* ---- raw protocol ----------------------------------------------------------- */

static int raw_ready(void) {
    int fd = raw_connect(D.port);
    cr_assert(fd >= 0);
    cr_assert_eq(raw_startup(fd, "attu"), 0);
    cr_assert_eq(raw_until_ready(fd, 5000), 0);
    return fd;
}

static void put32(char *p, uint32_t v) { v = htonl(v); memcpy(p, &v, 4); }

Test(raw, execute_row_limit_portal_suspended) {
    int fd = raw_ready();
    const char parse[] = "\0SELECT generate_series(1, 5)\0\0\0";
    raw_send_msg(fd, 'P', parse, sizeof parse - 1);
    const char bind[] = "\0\0\0\0\0\0\0\0";   /* portal "", stmt "", 0 fmts, 0 params, 0 result fmts */
    raw_send_msg(fd, 'B', bind, 8);
    char exec[5] = { 0 };
    put32(exec + 1, 2);
    raw_send_msg(fd, 'E', exec, 5);
    raw_send_msg(fd, 'E', exec, 5);
    raw_send_msg(fd, 'E', exec, 5);
    raw_send_msg(fd, 'S', NULL, 0);
    char seq[32];
    int k = 0;
    for (;;) {
        char t;
        char *p;
        long n = raw_read_msg(fd, &t, &p, 5000);
        cr_assert_geq(n, 0);
        if (t == 'C') cr_assert_str_eq(p, "SELECT 1");
        free(p);
        seq[k++] = t;
        if (t == 'Z' || k == 31) break;
    }
    seq[k] = 0;
    /* ParseComplete, BindComplete, 2 rows + suspended, 2 rows + suspended, 1 row + complete */
    cr_assert_str_eq(seq, "12DDsDDsDCZ");
    close(fd);
}

Test(raw, garbage_after_startup_gets_08P01_then_others_still_served) {
    int fd = raw_ready();
    raw_send(fd, "\x7fgarbage!!", 10);
    cr_assert(raw_expect_error_then_eof(fd, "08P01", 3000));
    close(fd);
    /* oversized: a 1 GiB Query is refused before it is read */
    fd = raw_ready();
    char hdr[5] = { 'Q' };
    put32(hdr + 1, 1u << 30);
    raw_send(fd, hdr, 5);
    cr_assert(raw_expect_error_then_eof(fd, "08P01", 3000));
    close(fd);
    /* a bad length word */
    fd = raw_ready();
    char bad[5] = { 'Q', 0, 0, 0, 2 };
    raw_send(fd, bad, 5);
    cr_assert(raw_expect_error_then_eof(fd, "08P01", 3000));
    close(fd);
    /* a malformed Bind (counts that run past the end) */
    fd = raw_ready();
    raw_send_msg(fd, 'B', "\0\0\0\x05", 4);
    raw_send_msg(fd, 'S', NULL, 0);
    char t;
    char *p;
    long n = raw_read_msg(fd, &t, &p, 3000);
    cr_assert_eq(t, 'E');
    cr_assert_str_eq(raw_error_field(p, n, 'C'), "08P01");
    free(p);
    cr_assert_eq(raw_until_ready(fd, 3000), 0);
    close(fd);
    /* garbage instead of a startup packet */
    fd = raw_connect(D.port);
    raw_send(fd, "GET / HTTP/1.1\r\n\r\n", 18);
    cr_assert(raw_expect_error_then_eof(fd, "08P01", 3000));
    close(fd);
    /* truncated message, then the client vanishes */
    fd = raw_ready();
    char half[8] = { 'Q', 0, 0, 0, 100, 'S', 'E', 'L' };
    raw_send(fd, half, 8);
    close(fd);
    /* SSLRequest answered 'N', then a normal startup on the same socket */
    fd = raw_connect(D.port);
    char ssl[8];
    put32(ssl, 8);
    put32(ssl + 4, 80877103);
    raw_send(fd, ssl, 8);
    char ans = 0;
    cr_assert_eq(recv(fd, &ans, 1, 0), 1);
    cr_assert_eq(ans, 'N');
    raw_startup(fd, "attu");
    cr_assert_eq(raw_until_ready(fd, 3000), 0);
    close(fd);
    /* and libpq still gets answers */
    PGconn *c = connect_db();
    PGresult *r = must(c, "SELECT 11", PGRES_TUPLES_OK);
    cr_assert_str_eq(PQgetvalue(r, 0, 0), "11");
    PQclear(r);
    PQfinish(c);
}

/* Reads the stream in big gulps (one message per read would take long
 * for millions of rows) and counts DataRows up to ReadyForQuery. */
static long count_rows_until_ready(int fd) {
    static char buf[1 << 16];
    char hdr[5];
    size_t have = 0;   /* header bytes collected */
    size_t skip = 0;   /* payload bytes left to skip */
    long rows = 0;
    for (;;) {
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) return -1;
        for (ssize_t i = 0; i < n;) {
            if (skip) {
                size_t k = (size_t)(n - i) < skip ? (size_t)(n - i) : skip;
                skip -= k;
                i += (ssize_t)k;
                continue;
            }
            hdr[have++] = buf[i++];
            if (have < 5) continue;
            uint32_t len;
            memcpy(&len, hdr + 1, 4);
            skip = ntohl(len) - 4;
            have = 0;
            if (hdr[0] == 'D') rows++;
            if (hdr[0] == 'Z') return rows;
        }
    }
}

Test(raw, slow_reader_does_not_block_others) {
    int fd = raw_ready();
    const char q[] = "SELECT generate_series(1, 2000000)";
    raw_send_msg(fd, 'Q', q, sizeof q);
    usleep(300000);   /* read nothing meanwhile: the daemon must hold back */
    PGconn *c = connect_db();
    double t0 = now_ms();
    PGresult *r = must(c, "SELECT 1", PGRES_TUPLES_OK);
    cr_assert_lt(now_ms() - t0, 2000.0);
    PQclear(r);
    PQfinish(c);
    cr_assert_eq(count_rows_until_ready(fd), 2000000);
    close(fd);
}

Test(raw, client_disconnects_mid_copy_and_mid_query) {
    PGconn *c = connect_db();
    PQclear(must(c, "CREATE TABLE t (a int, b text)", PGRES_COMMAND_OK));
    int fd = raw_ready();
    const char q[] = "COPY t FROM STDIN";
    raw_send_msg(fd, 'Q', q, sizeof q);
    char t;
    char *p;
    cr_assert_geq(raw_read_msg(fd, &t, &p, 3000), 0);
    free(p);
    cr_assert_eq(t, 'G');
    raw_send_msg(fd, 'd', "1,a\n", 4);
    close(fd);   /* gone mid-COPY */
    fd = raw_ready();
    const char q2[] = "SELECT generate_series(1, 3000000)";
    raw_send_msg(fd, 'Q', q2, sizeof q2);
    usleep(100000);
    close(fd);   /* gone mid-result */
    usleep(200000);
    PGresult *r = must(c, "SELECT * FROM t", PGRES_TUPLES_OK);
    cr_assert_eq(PQntuples(r), 0, "the interrupted COPY must not be applied");
    PQclear(r);
    PQfinish(c);
}

Test(raw, too_many_connections, .init = NULL) {
    const char *extra[] = { "--max-connections", "2", NULL };
    /* the suite's .init may still have started a daemon: stop it, or it
     * outlives the test (one orphaned attud_fake per run, seen) */
    stop();
    start_with(extra);
    PGconn *a = connect_db(), *b = connect_db();
    char ci[256];
    daemon_conninfo(&D, ci, sizeof ci);
    PGconn *x = PQconnectdb(ci);
    cr_assert_eq(PQstatus(x), CONNECTION_BAD);
    cr_assert(strstr(PQerrorMessage(x), "too many clients"), "%s", PQerrorMessage(x));
    PQfinish(x);
    PQfinish(a);
    usleep(100000);
    PGconn *y = connect_db();
    PQfinish(y);
    PQfinish(b);
}

TestSuite(raw, .init = start, .fini = stop, .timeout = 90);

/* A client on a non-loopback address must authenticate with SCRAM. */
static int local_ip(char *out, size_t cap) {
    struct ifaddrs *ifs, *i;
    if (getifaddrs(&ifs)) return -1;
    int rc = -1;
    for (i = ifs; i; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET) continue;
        struct sockaddr_in *a = (struct sockaddr_in *)i->ifa_addr;
        if ((ntohl(a->sin_addr.s_addr) >> 24) == 127) continue;
        inet_ntop(AF_INET, &a->sin_addr, out, (socklen_t)cap);
        rc = 0;
        break;
    }
    freeifaddrs(ifs);
    return rc;
}

Test(auth, scram_required_off_loopback, .timeout = 60) {
    char ip[64];
    if (local_ip(ip, sizeof ip)) { cr_skip_test("no non-loopback IPv4 address"); }
    char users[] = "/tmp/attu_usersXXXXXX";
    int fd = mkstemp(users);
    char verifier[256];
    cr_assert_eq(scram_make_verifier("s3cret", 4096, verifier, sizeof verifier), 0);
    dprintf(fd, "# test users\nalice:%s\nbob:plain-pass\n", verifier);
    close(fd);
    const char *extra[] = { "--host", "0.0.0.0", "--users", users, NULL };
    start_with(extra);
    char ci[512];
    snprintf(ci, sizeof ci, "host=%s port=%d user=alice password=s3cret dbname=x sslmode=disable", ip, D.port);
    PGconn *c = PQconnectdb(ci);
    cr_assert_eq(PQstatus(c), CONNECTION_OK, "%s", PQerrorMessage(c));
    PGresult *r = must(c, "SELECT 1", PGRES_TUPLES_OK);
    PQclear(r);
    PQfinish(c);
    snprintf(ci, sizeof ci, "host=%s port=%d user=bob password=plain-pass dbname=x sslmode=disable", ip, D.port);
    c = PQconnectdb(ci);
    cr_assert_eq(PQstatus(c), CONNECTION_OK, "%s", PQerrorMessage(c));
    PQfinish(c);
    snprintf(ci, sizeof ci, "host=%s port=%d user=alice password=wrong dbname=x sslmode=disable", ip, D.port);
    c = PQconnectdb(ci);
    cr_assert_eq(PQstatus(c), CONNECTION_BAD);
    cr_assert(strstr(PQerrorMessage(c), "password authentication failed"), "%s", PQerrorMessage(c));
    PQfinish(c);
    snprintf(ci, sizeof ci, "host=%s port=%d user=mallory password=x dbname=x sslmode=disable", ip, D.port);
    c = PQconnectdb(ci);
    cr_assert_eq(PQstatus(c), CONNECTION_BAD);
    PQfinish(c);
    /* loopback stays trusted */
    snprintf(ci, sizeof ci, "host=127.0.0.1 port=%d user=anyone dbname=x sslmode=disable", D.port);
    c = PQconnectdb(ci);
    cr_assert_eq(PQstatus(c), CONNECTION_OK, "%s", PQerrorMessage(c));
    PQfinish(c);
    cr_assert_eq(daemon_stop(&D), 0);
    unlink(users);
}

Test(shutdown, sigterm_cancels_running_query_and_exits_0, .timeout = 60) {
    start();
    PGconn *c = connect_db();
    PGconn *idle = connect_db();
    cr_assert(PQsendQuery(c, "SELECT pg_sleep(30)"));
    usleep(200000);
    double t0 = now_ms();
    kill(D.pid, SIGTERM);
    PGresult *r = PQgetResult(c);
    cr_assert_eq(PQresultStatus(r), PGRES_FATAL_ERROR);
    const char *code = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    cr_assert(!strcmp(code, "57014") || !strcmp(code, "57P01"), "%s", code);
    PQclear(r);
    while ((r = PQgetResult(c))) PQclear(r);
    int st;
    cr_assert_eq(waitpid(D.pid, &st, 0), D.pid);
    D.pid = 0;
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    cr_assert_lt(now_ms() - t0, 5000.0);
    PQfinish(c);
    PQfinish(idle);
    daemon_cleanup(&D);
}

Test(shutdown, sigterm_with_a_slow_reader_exits_promptly, .timeout = 60) {
    start();
    int fd = raw_ready();
    const char q[] = "SELECT generate_series(1, 5000000)";
    raw_send_msg(fd, 'Q', q, sizeof q);
    usleep(500000);   /* the worker now waits for this client to read */
    double t0 = now_ms();
    kill(D.pid, SIGTERM);
    int st;
    cr_assert_eq(waitpid(D.pid, &st, 0), D.pid);
    D.pid = 0;
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    cr_assert_lt(now_ms() - t0, 5000.0, "shutdown took %.0f ms", now_ms() - t0);
    close(fd);
    daemon_cleanup(&D);
}

Test(config, settings_from_a_config_file, .timeout = 60) {
    char path[] = "/tmp/attu_confXXXXXX";
    int fd = mkstemp(path);
    dprintf(fd, "# a comment\nmax-connections = 1\nlog-level = \"warning\"\n");
    close(fd);
    const char *extra[] = { "--config", path, NULL };
    start_with(extra);
    PGconn *a = connect_db();
    char ci[256];
    daemon_conninfo(&D, ci, sizeof ci);
    PGconn *b = PQconnectdb(ci);
    cr_assert_eq(PQstatus(b), CONNECTION_BAD, "max-connections from the file was not applied");
    cr_assert(strstr(PQerrorMessage(b), "too many clients"));
    PQfinish(b);
    PQfinish(a);
    cr_assert_eq(daemon_stop(&D), 0);
    unlink(path);
}
