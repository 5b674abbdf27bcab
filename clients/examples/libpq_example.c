/*
 * libpq_example: the smallest useful attu client in C.
 *
 * Connects to attud, creates a table, inserts a few rows with a
 * parameterized statement (so values never need quoting), and reads a query
 * result back. Build: part of the CMake build (target libpq_example), or
 *   cc libpq_example.c -I/usr/include/postgresql -lpq
 * Run:   libpq_example ["host=127.0.0.1 port=5433 user=attu"]
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>

static int fail(PGconn *c, PGresult *r, const char *what) {
    fprintf(stderr, "%s failed: %s", what, r ? PQresultErrorMessage(r) : PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
    return 1;
}

int main(int argc, char **argv) {
    const char *conninfo = argc > 1 ? argv[1] : "host=127.0.0.1 port=5433 user=attu";
    PGconn *c = PQconnectdb(conninfo);
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "cannot connect: %s", PQerrorMessage(c));
        PQfinish(c);
        return 2;
    }

    PGresult *r = PQexec(c, "DROP TABLE IF EXISTS peaks");
    PQclear(r); /* fine either way */
    r = PQexec(c, "CREATE TABLE peaks (name TEXT, state TEXT, height_m INTEGER)");
    if (PQresultStatus(r) != PGRES_COMMAND_OK) return fail(c, r, "CREATE TABLE");
    PQclear(r);

    static const char *const rows[][3] = {
        {"Denali", "AK", "6190"}, {"Mount Whitney", "CA", "4421"},
        {"Mount Elbert", "CO", "4401"}, {"Mount Rainier", "WA", "4392"}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        r = PQexecParams(c, "INSERT INTO peaks VALUES ($1, $2, $3)", 3, NULL,
                         rows[i], NULL, NULL, 0);
        if (PQresultStatus(r) != PGRES_COMMAND_OK) return fail(c, r, "INSERT");
        PQclear(r);
    }

    r = PQexec(c, "SELECT state, name, height_m FROM peaks "
                  "WHERE height_m > 4400 ORDER BY height_m DESC");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return fail(c, r, "SELECT");
    for (int i = 0; i < PQntuples(r); i++)
        printf("%s  %-14s %s m\n", PQgetvalue(r, i, 0), PQgetvalue(r, i, 1),
               PQgetvalue(r, i, 2));
    PQclear(r);
    PQfinish(c);
    return 0;
}
