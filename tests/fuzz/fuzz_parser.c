/*
 * fuzz_parser.c - libFuzzer target for the SQL front end: lexer and
 * grammar (planner/parser.h), then the AST printer over every statement,
 * which walks every node the parser built.
 *
 * Invariants checked on every input, beyond "no crash, no leak, no
 * sanitizer report":
 *   - a failed parse always says why: an SQLSTATE and a message;
 *   - error positions lie inside the text or one past its end;
 *   - statement spans lie inside the input;
 *   - no tree is deeper than ATTU_AST_MAX_DEPTH.
 *
 * Built with clang as a libFuzzer binary (tests/fuzz/CMakeLists.txt); with
 * other compilers fuzz_replay.c supplies a main() that replays the seed
 * corpus and a burst of deterministic mutations of it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "planner/parser.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    attu_error err;
    attu_error_clear(&err);
    attu_parse_result *r = attu_parse_n((const char *)data, size, &err);
    if (!r) {
        CHECK(err.set);
        CHECK(strlen(err.sqlstate) == 5);
        CHECK(err.message[0] != '\0');
        CHECK(err.position >= 0 && (size_t)err.position <= size + 1);
        return 0;
    }
    static char buf[1 << 16];
    for (int i = 0; i < r->n; i++) {
        const attu_parsed_stmt *s = &r->stmts[i];
        CHECK(s->stmt != NULL);
        CHECK(s->start <= size && s->len <= size - s->start);
        CHECK(s->nparams >= 0);
        if (s->stmt->kind == ATTU_STMT_SELECT)
            CHECK(s->stmt->u.select.query->depth <= ATTU_AST_MAX_DEPTH);
        attu_ast_print_stmt(s->stmt, buf, sizeof buf);
    }
    attu_parse_free(r);
    return 0;
}
