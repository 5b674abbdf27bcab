/*
 * attu: the interactive SQL shell for attud (any PostgreSQL-protocol server
 * works too). A libpq client.
 *
 *   attu [-h HOST] [-p PORT] [-U USER] [-d DB] [-c SQL]... [-f FILE]...
 *        [--csv | --json] [-W]
 *
 * With -c and/or -f the shell runs them in order and exits; otherwise it reads
 * a terminal (line editing, history) or, when stdin is not a terminal, runs
 * stdin as a script. Defaults: host 127.0.0.1, port 5433 (attud's), user
 * attu, unless PGHOST / PGPORT / PGUSER / PGDATABASE say otherwise.
 *
 * Exit status, for scripts:
 *   0  everything ran
 *   1  a statement failed in -c, -f or piped input; the shell stopped there
 *      (like psql with ON_ERROR_STOP), or a bad option
 *   2  no connection: the server could not be reached or refused us, or the
 *      connection was lost
 */
#include "shell.h"

#include <getopt.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f) {
    fprintf(f,
        "attu: SQL shell for attud\n\n"
        "usage: attu [options] [DBNAME]\n"
        "  -h, --host HOST       server host or socket directory (default 127.0.0.1)\n"
        "  -p, --port PORT       server port (default 5433)\n"
        "  -U, --user USER       user name (default attu)\n"
        "  -d, --dbname DB       database name\n"
        "  -c, --command SQL     run SQL (may repeat; runs in order with -f) and exit\n"
        "  -f, --file FILE       run the statements in FILE ('-' for stdin) and exit\n"
        "      --csv             print results as CSV\n"
        "      --json            print results as JSON\n"
        "  -W, --password        ask for a password before connecting\n"
        "      --help            this text\n"
        "Exit status: 0 ok, 1 a statement failed (scripts stop there), 2 no connection.\n"
        "Type \\? in the shell for its commands.\n");
}

typedef struct { char kind; const char *text; } action_t;

static PGconn *connect_to(const char *host, const char *port, const char *user,
                          const char *db, const char *password) {
    const char *keys[8], *vals[8];
    int n = 0;
    if (host) { keys[n] = "host"; vals[n++] = host; }
    if (port) { keys[n] = "port"; vals[n++] = port; }
    if (user) { keys[n] = "user"; vals[n++] = user; }
    if (db) { keys[n] = "dbname"; vals[n++] = db; }
    if (password) { keys[n] = "password"; vals[n++] = password; }
    keys[n] = "fallback_application_name"; vals[n++] = "attu";
    keys[n] = NULL; vals[n] = NULL;
    return PQconnectdbParams(keys, vals, 0);
}

int main(int argc, char **argv) {
    setlocale(LC_ALL, "");
    const char *host = getenv("PGHOST"), *port = getenv("PGPORT");
    const char *user = getenv("PGUSER"), *db = getenv("PGDATABASE");
    if (!host && !getenv("PGHOSTADDR")) host = "127.0.0.1";
    if (!port) port = "5433";
    if (!user) user = "attu";
    shell_t sh = {0};
    bool ask_password = false;
    action_t *acts = calloc((size_t)argc + 1, sizeof *acts);
    int nacts = 0;

    static const struct option opts[] = {
        {"host", required_argument, 0, 'h'},   {"port", required_argument, 0, 'p'},
        {"user", required_argument, 0, 'U'},   {"username", required_argument, 0, 'U'},
        {"dbname", required_argument, 0, 'd'}, {"command", required_argument, 0, 'c'},
        {"file", required_argument, 0, 'f'},   {"csv", no_argument, 0, 'C'},
        {"json", no_argument, 0, 'J'},         {"password", no_argument, 0, 'W'},
        {"help", no_argument, 0, '?'},         {0, 0, 0, 0}};
    int opt;
    while ((opt = getopt_long(argc, argv, "h:p:U:d:c:f:W", opts, NULL)) != -1) {
        switch (opt) {
        case 'h': host = optarg; break;
        case 'p': port = optarg; break;
        case 'U': user = optarg; break;
        case 'd': db = optarg; break;
        case 'c': acts[nacts++] = (action_t){'c', optarg}; break;
        case 'f': acts[nacts++] = (action_t){'f', optarg}; break;
        case 'C': sh.format = SHELL_CSV; break;
        case 'J': sh.format = SHELL_JSON; break;
        case 'W': ask_password = true; break;
        case '?':
            if (optind > 0 && argv[optind - 1] && !strcmp(argv[optind - 1], "--help")) {
                usage(stdout);
                free(acts);
                return 0;
            }
            usage(stderr);
            free(acts);
            return 1;
        }
    }
    if (optind < argc) db = argv[optind++];
    if (optind < argc) {
        fprintf(stderr, "attu: unexpected argument \"%s\"\n", argv[optind]);
        usage(stderr);
        free(acts);
        return 1;
    }

    /* Open the -f files first: a missing script is an error before we connect. */
    FILE **files = calloc((size_t)nacts + 1, sizeof *files);
    for (int i = 0; i < nacts; i++) {
        if (acts[i].kind != 'f') continue;
        files[i] = !strcmp(acts[i].text, "-") ? stdin : fopen(acts[i].text, "r");
        if (!files[i]) {
            fprintf(stderr, "attu: cannot open %s: ", acts[i].text);
            perror(NULL);
            return 1;
        }
    }

    char *password = NULL;
    if (ask_password) password = strdup(getpass("Password: "));
    sh.conn = connect_to(host, port, user, db, password);
    if (PQstatus(sh.conn) == CONNECTION_BAD && PQconnectionNeedsPassword(sh.conn) &&
        !password && isatty(0)) {
        password = strdup(getpass("Password: "));
        PQfinish(sh.conn);
        sh.conn = connect_to(host, port, user, db, password);
    }
    free(password);
    if (PQstatus(sh.conn) != CONNECTION_OK) {
        fprintf(stderr, "attu: cannot connect to %s port %s: %s", host ? host : "(default)",
                port, PQerrorMessage(sh.conn));
        PQfinish(sh.conn);
        free(files);
        free(acts);
        return 2;
    }
    sh.progress = isatty(2);

    int rc = 0;
    if (nacts) {
        for (int i = 0; i < nacts && rc == 0 && !sh.quit; i++) {
            if (acts[i].kind == 'c') {
                rc = shell_run_string(&sh, acts[i].text);
            } else {
                rc = shell_run_file(&sh, files[i], !strcmp(acts[i].text, "-") ? "<stdin>" : acts[i].text);
                if (files[i] != stdin) fclose(files[i]);
                files[i] = NULL;
            }
        }
        for (int i = 0; i < nacts; i++)
            if (files[i] && files[i] != stdin) fclose(files[i]);
    } else if (isatty(0)) {
        sh.interactive = true;
        const char *ver = PQparameterStatus(sh.conn, "server_version");
        printf("attu %s, connected to %s:%s (server %s). Type \\? for help, \\q to quit.\n",
               ATTU_VERSION, PQhost(sh.conn), PQport(sh.conn), ver ? ver : "?");
        rc = shell_run_interactive(&sh);
    } else {
        rc = shell_run_file(&sh, stdin, "<stdin>");
    }
    PQfinish(sh.conn);
    free(files);
    free(acts);
    return rc;
}
