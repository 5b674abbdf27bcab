/*
 * attu_parse.c - attu's parser over SQL texts, the counterpart of pgq.c
 * for gen_malformed.py: one SQL per stdin line ("\n" and "\\" escaped), one
 * "SQLSTATE<TAB>position<TAB>message" line out, or "OK<TAB>0<TAB>" and,
 * with any argument, the printed trees.
 *
 *   cc -o attu_parse attu_parse.c -I. build/<dir>/planner/libattu_planner.a \
 *      build/<dir>/engine/libattu_engine.a -lm -lpthread   (from the repository root)
 */
#include <stdio.h>
#include <string.h>

#include "planner/parser.h"

int main(int argc, char **argv) {
    (void)argv;
    static char line[1 << 16], sql[1 << 16], tree[1 << 16];
    while (fgets(line, sizeof line, stdin)) {
        size_t n = strlen(line), j = 0;
        if (n && line[n - 1] == '\n') line[--n] = '\0';
        for (size_t i = 0; i < n; i++) {
            if (line[i] == '\\' && line[i + 1] == 'n') { sql[j++] = '\n'; i++; }
            else if (line[i] == '\\' && line[i + 1] == '\\') { sql[j++] = '\\'; i++; }
            else sql[j++] = line[i];
        }
        sql[j] = '\0';
        attu_error err;
        attu_error_clear(&err);
        attu_parse_result *r = attu_parse(sql, &err);
        if (!r) {
            printf("%s\t%d\t%s\n", err.sqlstate, err.position, err.message);
            continue;
        }
        printf("OK\t0\t");
        for (int i = 0; argc > 1 && i < r->n; i++) {
            attu_ast_print_stmt(r->stmts[i].stmt, tree, sizeof tree);
            printf("%s%s", i ? " ; " : "", tree);
        }
        printf("\n");
        attu_parse_free(r);
    }
    return 0;
}
