/*
 * shell_meta: the shell's backslash commands.
 *
 *   \q                 quit
 *   \timing [on|off]   print each statement's wall time
 *   \d                 list tables        (attu: SHOW TABLES)
 *   \d TABLE           describe a table   (attu: DESCRIBE TABLE)
 *   \copy ...          client-side COPY (shell_copy.c)
 *   \explain QUERY     EXPLAIN ANALYZE QUERY drawn as a tree (shell_explain.c)
 *   \format [aligned|csv|json]   choose the result format
 *   \i FILE            run the statements of FILE
 *   \conninfo          where the shell is connected
 *   \?                 help
 *
 * \d speaks attu's SHOW TABLES / DESCRIBE. Against a PostgreSQL server,
 * which has neither, it reads information_schema instead; which one a server
 * understands is found out on the first \d and remembered.
 */
#include "shell.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *skip_blanks(const char *p) {
    while (*p && isspace((unsigned char)*p)) p++;
    return p;
}

/* Copies the next blank-separated word of *p (quotes kept off) into out. */
static bool next_word(const char **p, char *out, size_t outlen) {
    const char *s = skip_blanks(*p);
    if (!*s) return false;
    size_t n = 0;
    char q = (*s == '"' || *s == '\'') ? *s++ : 0;
    while (*s && (q ? *s != q : !isspace((unsigned char)*s))) {
        if (n + 1 < outlen) out[n++] = *s;
        s++;
    }
    if (q && *s == q) s++;
    out[n] = 0;
    *p = s;
    return true;
}

static void print_help(void) {
    printf("General\n"
           "  \\q                      quit\n"
           "  \\timing [on|off]        show how long each statement takes\n"
           "  \\format [aligned|csv|json]  result format\n"
           "  \\conninfo               show the connection\n"
           "  \\i FILE                 run the statements in FILE\n"
           "Tables\n"
           "  \\d                      list tables\n"
           "  \\d TABLE                describe a table's columns\n"
           "  \\copy TABLE FROM 'file' [WITH (FORMAT csv, HEADER true, ...)]\n"
           "                          load a local file (progress bar on a terminal)\n"
           "  \\copy TABLE|(QUERY) TO 'file'|stdout [WITH (...)]\n"
           "                          write a table or query result to a local file\n"
           "Plans\n"
           "  \\explain QUERY          run EXPLAIN ANALYZE and draw the plan as a tree\n"
           "SQL statements end with ';' and may span lines.\n");
}

/* Decides once whether the server understands SHOW TABLES. */
static shell_catalog_t catalog_kind(shell_t *sh) {
    if (sh->catalog != CATALOG_UNKNOWN) return sh->catalog;
    const char *ver = PQparameterStatus(sh->conn, "server_version");
    if (ver && strstr(ver, "attu")) return sh->catalog = CATALOG_ATTU;
    /* Probing with a failing statement would abort an open transaction. */
    if (PQtransactionStatus(sh->conn) != PQTRANS_IDLE) return CATALOG_PG;
    PGresult *r = shell_query(sh, "SHOW TABLES", true);
    sh->catalog = r ? CATALOG_ATTU : CATALOG_PG;
    PQclear(r);
    return sh->catalog;
}

static int list_tables(shell_t *sh) {
    PGresult *r;
    if (catalog_kind(sh) == CATALOG_ATTU) {
        r = shell_query(sh, "SHOW TABLES", false);
    } else {
        r = shell_query(sh,
            "SELECT table_name AS name FROM information_schema.tables "
            "WHERE table_schema NOT IN ('pg_catalog', 'information_schema') "
            "ORDER BY 1", false);
    }
    if (!r) return shell_check_conn(sh, SHELL_SQL_ERROR);
    if (PQntuples(r) == 0 && sh->format == SHELL_ALIGNED) printf("No tables.\n");
    else shell_print_result(sh, r, stdout);
    PQclear(r);
    return SHELL_OK;
}

static int describe_table(shell_t *sh, const char *table) {
    PGresult *r;
    if (catalog_kind(sh) == CATALOG_ATTU) {
        char *id = PQescapeIdentifier(sh->conn, table, strlen(table));
        if (!id) { shell_error(sh, "bad table name \"%s\"", table); return SHELL_SQL_ERROR; }
        size_t n = strlen(id) + 16;
        char *sql = malloc(n);
        snprintf(sql, n, "DESCRIBE %s", id);
        PQfreemem(id);
        r = shell_query(sh, sql, false);
        free(sql);
        if (!r) return shell_check_conn(sh, SHELL_SQL_ERROR);
    } else {
        const char *params[1] = {table};
        r = PQexecParams(sh->conn,
            "SELECT column_name AS column, data_type AS type, "
            "is_nullable AS nullable FROM information_schema.columns "
            "WHERE table_name = $1 AND table_schema NOT IN "
            "('pg_catalog', 'information_schema') ORDER BY ordinal_position",
            1, NULL, params, NULL, NULL, 0);
        if (PQresultStatus(r) != PGRES_TUPLES_OK) {
            shell_print_error(sh, r, NULL, stderr);
            PQclear(r);
            return shell_check_conn(sh, SHELL_SQL_ERROR);
        }
        if (PQntuples(r) == 0) {
            PQclear(r);
            shell_error(sh, "table \"%s\" does not exist", table);
            return SHELL_SQL_ERROR;
        }
    }
    if (sh->format == SHELL_ALIGNED) printf("Table \"%s\"\n", table);
    shell_print_result(sh, r, stdout);
    PQclear(r);
    return SHELL_OK;
}

static int explain(shell_t *sh, const char *query) {
    query = skip_blanks(query);
    size_t n = strlen(query);
    while (n && (isspace((unsigned char)query[n - 1]) || query[n - 1] == ';')) n--;
    if (!n) { shell_error(sh, "\\explain needs a query"); return SHELL_SQL_ERROR; }
    size_t len = n + 32;
    char *sql = malloc(len);
    snprintf(sql, len, "EXPLAIN ANALYZE %.*s", (int)n, query);
    double t0 = shell_now_ms();
    shell_cancel_arm(sh);
    PGresult *r = PQexec(sh->conn, sql);
    shell_cancel_disarm();
    int rc = SHELL_OK;
    if (PQresultStatus(r) == PGRES_TUPLES_OK) {
        shell_print_plan_tree(r, stdout);
    } else {
        shell_print_error(sh, r, sql, stderr);
        rc = SHELL_SQL_ERROR;
    }
    PQclear(r);
    free(sql);
    if (sh->timing) printf("Time: %.3f ms\n", shell_now_ms() - t0);
    return shell_check_conn(sh, rc);
}

static int set_bool(shell_t *sh, const char *name, const char *arg, bool *v) {
    char w[16];
    const char *p = arg;
    if (!next_word(&p, w, sizeof w)) *v = !*v;
    else if (!strcasecmp(w, "on")) *v = true;
    else if (!strcasecmp(w, "off")) *v = false;
    else { shell_error(sh, "\\%s expects on or off, not \"%s\"", name, w); return SHELL_SQL_ERROR; }
    printf("%s is %s.\n", strcmp(name, "timing") ? name : "Timing", *v ? "on" : "off");
    return SHELL_OK;
}

int shell_meta(shell_t *sh, const char *line) {
    const char *p = line + 1; /* past the backslash */
    char cmd[32];
    size_t n = 0;
    while (*p && !isspace((unsigned char)*p) && n + 1 < sizeof cmd) cmd[n++] = *p++;
    cmd[n] = 0;
    const char *args = skip_blanks(p);

    if (!strcmp(cmd, "q") || !strcmp(cmd, "quit")) {
        sh->quit = true;
        return SHELL_OK;
    }
    if (!strcmp(cmd, "?") || !strcmp(cmd, "help")) { print_help(); return SHELL_OK; }
    if (!strcmp(cmd, "timing")) return set_bool(sh, "timing", args, &sh->timing);
    if (!strcmp(cmd, "d")) {
        char table[256];
        const char *a = args;
        if (!next_word(&a, table, sizeof table)) return list_tables(sh);
        return describe_table(sh, table);
    }
    if (!strcmp(cmd, "copy")) return shell_copy(sh, args);
    if (!strcmp(cmd, "explain")) return explain(sh, args);
    if (!strcmp(cmd, "format")) {
        char w[16];
        const char *a = args;
        if (next_word(&a, w, sizeof w)) {
            if (!strcmp(w, "aligned")) sh->format = SHELL_ALIGNED;
            else if (!strcmp(w, "csv")) sh->format = SHELL_CSV;
            else if (!strcmp(w, "json")) sh->format = SHELL_JSON;
            else { shell_error(sh, "unknown format \"%s\" (aligned, csv or json)", w); return SHELL_SQL_ERROR; }
        }
        static const char *const names[] = {"aligned", "csv", "json"};
        printf("Output format is %s.\n", names[sh->format]);
        return SHELL_OK;
    }
    if (!strcmp(cmd, "conninfo")) {
        printf("Connected to database \"%s\" as user \"%s\" on host \"%s\" at port \"%s\".\n",
               PQdb(sh->conn), PQuser(sh->conn), PQhost(sh->conn), PQport(sh->conn));
        return SHELL_OK;
    }
    if (!strcmp(cmd, "i") || !strcmp(cmd, "include")) {
        char path[4096];
        const char *a = args;
        if (!next_word(&a, path, sizeof path)) { shell_error(sh, "\\i needs a file name"); return SHELL_SQL_ERROR; }
        FILE *f = fopen(path, "r");
        if (!f) { shell_error(sh, "cannot open %s", path); return SHELL_SQL_ERROR; }
        bool was = sh->interactive;
        sh->interactive = false; /* an included script stops at its first error */
        int rc = shell_run_file(sh, f, path);
        sh->interactive = was;
        fclose(f);
        return rc;
    }
    shell_error(sh, "unknown command \\%s (\\? lists the commands)", cmd);
    return SHELL_SQL_ERROR;
}
