/*
 * param_types_libpq.c - libpq's prepared statements without parameter
 * types (PQprepare with no types, PQdescribePrepared, PQexecPrepared in
 * text and binary), against PostgreSQL 15 or attud: both must give these
 * answers (param_types_libpq.sh runs it against each).
 *
 *     param_types_libpq CONNINFO
 *
 * Prints each failed check and exits 1; prints "ok" and exits 0 when all
 * pass. tests/clients/param_types.py covers much more over the raw
 * protocol (array_bind_binary.py the binary arrays); this is what a C
 * program sees through libpq.
 */
#include <arpa/inet.h>
#include <libpq-fe.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            failures++;                                                    \
            printf("FAIL line %d: ", __LINE__);                            \
            printf(__VA_ARGS__);                                           \
            printf("\n");                                                  \
        }                                                                  \
    } while (0)

static const char *state(const PGresult *r) {
    const char *s = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    return s ? s : "";
}

static void run(PGconn *c, const char *sql) {
    PGresult *r = PQexec(c, sql);
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK, "%s: %s", sql,
          PQerrorMessage(c));
    PQclear(r);
}

/* Prepares name without types and checks the described parameter OIDs. */
static void prepare(PGconn *c, const char *name, const char *sql, int n, const Oid *want) {
    PGresult *r = PQprepare(c, name, sql, 0, NULL);
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK, "prepare %s: %s", sql, PQerrorMessage(c));
    PQclear(r);
    r = PQdescribePrepared(c, name);
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK, "describe %s: %s", sql, PQerrorMessage(c));
    CHECK(PQnparams(r) == n, "%s: %d parameters, want %d", sql, PQnparams(r), n);
    for (int i = 0; i < n && i < PQnparams(r); i++)
        CHECK(PQparamtype(r, i) == want[i], "%s: $%d is %u, want %u", sql, i + 1, PQparamtype(r, i), want[i]);
    PQclear(r);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: param_types_libpq CONNINFO\n");
        return 2;
    }
    PGconn *c = PQconnectdb(argv[1]);
    if (PQstatus(c) != CONNECTION_OK) {
        printf("FAIL: connect: %s", PQerrorMessage(c));
        return 1;
    }
    run(c, "DROP TABLE IF EXISTS lt");
    run(c, "CREATE TABLE lt (id INTEGER, name TEXT, price NUMERIC(10,2), day DATE, ok BOOLEAN)");
    run(c, "INSERT INTO lt VALUES (1, 'apple', 1.50, '2024-01-05', true), (2, 'pear', 2.25, '2024-02-10', false), "
           "(3, 'plum', NULL, '2024-03-15', NULL)");

    /* the types come from the uses */
    prepare(c, "q1", "SELECT name FROM lt WHERE id = $1 AND day < $2", 2, (const Oid[]){ 23, 1082 });
    const char *text_vals[2] = { "2", "2025-01-01" };
    PGresult *r = PQexecPrepared(c, "q1", 2, text_vals, NULL, NULL, 0);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && !strcmp(PQgetvalue(r, 0, 0), "pear"),
          "q1 in text: %s", PQerrorMessage(c));
    PQclear(r);

    /* binary: an int4 and a date (days since 2000-01-01) as PostgreSQL's
     * *_send lays them out */
    uint32_t id = htonl(3), day = htonl(9497);   /* 2026-01-01 */
    const char *bin_vals[2] = { (const char *)&id, (const char *)&day };
    int lens[2] = { 4, 4 }, fmts[2] = { 1, 1 };
    r = PQexecPrepared(c, "q1", 2, bin_vals, lens, fmts, 0);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && !strcmp(PQgetvalue(r, 0, 0), "plum"),
          "q1 in binary: %s", PQerrorMessage(c));
    PQclear(r);

    /* a bad value fails with the type's input error; the session goes on */
    const char *bad_vals[2] = { "two", "2025-01-01" };
    r = PQexecPrepared(c, "q1", 2, bad_vals, NULL, NULL, 0);
    CHECK(PQresultStatus(r) == PGRES_FATAL_ERROR && !strcmp(state(r), "22P02"), "q1 with 'two': %s", state(r));
    CHECK(strstr(PQresultErrorMessage(r), "invalid input syntax for type integer: \"two\"") != NULL,
          "q1 with 'two' says: %s", PQresultErrorMessage(r));
    PQclear(r);
    CHECK(PQtransactionStatus(c) == PQTRANS_IDLE, "idle after a bad Bind");

    /* LIMIT takes a bigint: a binary int8 */
    prepare(c, "q2", "SELECT id FROM lt ORDER BY id LIMIT $1", 1, (const Oid[]){ 20 });
    uint32_t lim[2] = { htonl(0), htonl(2) };
    const char *lim_vals[1] = { (const char *)lim };
    int lim_len[1] = { 8 }, lim_fmt[1] = { 1 };
    r = PQexecPrepared(c, "q2", 1, lim_vals, lim_len, lim_fmt, 0);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 2, "q2: %s", PQerrorMessage(c));
    PQclear(r);

    /* INSERT: each value its column's type; a bad one changes nothing */
    prepare(c, "ins", "INSERT INTO lt (id, price, ok) VALUES ($1, $2, $3)", 3, (const Oid[]){ 23, 1700, 16 });
    const char *ins_vals[3] = { "9", "9.999", "yes" };
    r = PQexecPrepared(c, "ins", 3, ins_vals, NULL, NULL, 0);
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK && !strcmp(PQcmdStatus(r), "INSERT 0 1"), "ins: %s",
          PQerrorMessage(c));
    PQclear(r);
    const char *ins_bad[3] = { "10", "1", "perhaps" };
    r = PQexecPrepared(c, "ins", 3, ins_bad, NULL, NULL, 0);
    CHECK(PQresultStatus(r) == PGRES_FATAL_ERROR && !strcmp(state(r), "22P02"), "ins with 'perhaps': %s", state(r));
    PQclear(r);
    r = PQexec(c, "SELECT price, ok, (SELECT count(*) FROM lt WHERE id = 10) FROM lt WHERE id = 9");
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && !strcmp(PQgetvalue(r, 0, 0), "10.00") &&
          !strcmp(PQgetvalue(r, 0, 1), "t") && !strcmp(PQgetvalue(r, 0, 2), "0"),
          "after ins: %s", PQerrorMessage(c));
    PQclear(r);

    /* where no use gives a type, the Prepare fails (42P18) */
    r = PQprepare(c, "q3", "SELECT $1 IS NULL", 0, NULL);
    CHECK(PQresultStatus(r) == PGRES_FATAL_ERROR && !strcmp(state(r), "42P18"), "q3: %s", state(r));
    PQclear(r);

    /* PQexecParams without types: the unnamed statement, inferred alike */
    const char *sum_vals[2] = { "40", "2" };
    r = PQexecParams(c, "SELECT $1::int + $2", 2, NULL, sum_vals, NULL, NULL, 0);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && !strcmp(PQgetvalue(r, 0, 0), "42") && PQftype(r, 0) == 23,
          "PQexecParams: %s", PQerrorMessage(c));
    PQclear(r);

    /* an int4[] in binary (array_recv's layout: ndim, has-null flag,
     * element OID, length and lower bound, then length + value or -1 per
     * element), declared by PQexecParams and sent back in binary */
    uint32_t arr[11] = { htonl(1), htonl(1), htonl(23), htonl(3), htonl(0),
                         htonl(4), htonl(7), htonl((uint32_t)-1), htonl(4), htonl((uint32_t)-8), 0 };
    const char *arr_vals[1] = { (const char *)arr };
    int arr_len[1] = { 40 }, arr_fmt[1] = { 1 };
    r = PQexecParams(c, "SELECT $1, array_length($1, 1)", 1, (const Oid[]){ 1007 }, arr_vals, arr_len, arr_fmt, 1);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && PQftype(r, 0) == 1007 && PQgetlength(r, 0, 0) == 40 &&
          !memcmp(PQgetvalue(r, 0, 0), arr, 40) && PQgetlength(r, 0, 1) == 4 &&
          ntohl(*(const uint32_t *)PQgetvalue(r, 0, 1)) == 3,
          "binary int4[]: %s", PQerrorMessage(c));
    PQclear(r);
    /* typed by its use (an int4[] column), in text format back */
    run(c, "CREATE TABLE la (a int[])");
    prepare(c, "qa", "INSERT INTO la VALUES ($1)", 1, (const Oid[]){ 1007 });
    r = PQexecPrepared(c, "qa", 1, arr_vals, arr_len, arr_fmt, 0);
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK, "qa: %s", PQerrorMessage(c));
    PQclear(r);
    r = PQexec(c, "SELECT a FROM la");
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && !strcmp(PQgetvalue(r, 0, 0), "[0:2]={7,NULL,-8}"),
          "la: %s %s", PQerrorMessage(c), PQntuples(r) ? PQgetvalue(r, 0, 0) : "");
    PQclear(r);
    /* an element type other than the parameter's: 42804 */
    arr[2] = htonl(20);
    r = PQexecPrepared(c, "qa", 1, arr_vals, arr_len, arr_fmt, 0);
    CHECK(PQresultStatus(r) == PGRES_FATAL_ERROR && !strcmp(state(r), "42804"), "qa int8 elements: %s", state(r));
    PQclear(r);
    run(c, "DROP TABLE la");

    run(c, "DROP TABLE lt");
    PQfinish(c);
    if (failures) return 1;
    printf("ok\n");
    return 0;
}
