/*
 * pgq.c - asks a PostgreSQL server what it makes of SQL texts, for
 * gen_malformed.py: one SQL per stdin line ("\n" and "\\" escaped), one
 * "SQLSTATE<TAB>position<TAB>message" line out ("OK<TAB>0<TAB>" when it
 * ran). Each text runs inside BEGIN ... ROLLBACK, so nothing stays behind.
 *
 *   cc -o pgq pgq.c -I/usr/include/postgresql -lpq
 *   PGQ_DSN="host=/tmp port=55432 dbname=postgres user=$USER" ./pgq < cases.txt
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    const char *dsn = getenv("PGQ_DSN");
    PGconn *c = PQconnectdb(dsn ? dsn : "host=/tmp port=55432 dbname=postgres");
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "pgq: %s", PQerrorMessage(c));
        return 1;
    }
    PQclear(PQexec(c, "SET client_min_messages = error"));
    static char line[1 << 16], sql[1 << 16];
    while (fgets(line, sizeof line, stdin)) {
        size_t n = strlen(line), j = 0;
        if (n && line[n - 1] == '\n') line[--n] = '\0';
        for (size_t i = 0; i < n; i++) {
            if (line[i] == '\\' && line[i + 1] == 'n') { sql[j++] = '\n'; i++; }
            else if (line[i] == '\\' && line[i + 1] == '\\') { sql[j++] = '\\'; i++; }
            else sql[j++] = line[i];
        }
        sql[j] = '\0';
        PQclear(PQexec(c, "BEGIN"));
        PGresult *r = PQexec(c, sql);
        const char *st = PQresultErrorField(r, PG_DIAG_SQLSTATE);
        const char *pos = PQresultErrorField(r, PG_DIAG_STATEMENT_POSITION);
        const char *msg = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
        printf("%s\t%s\t%s\n", st ? st : "OK", pos ? pos : "0", msg ? msg : "");
        PQclear(r);
        PQclear(PQexec(c, "ROLLBACK"));
        fflush(stdout);
    }
    PQfinish(c);
    return 0;
}
