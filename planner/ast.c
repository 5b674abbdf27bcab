/*
 * ast.c - the arena that owns a syntax tree, and names for AST enums.
 *
 * The arena is a chain of blocks; allocation bumps a pointer, freeing
 * releases every block. Big requests get a block of their own, so a long IN
 * list or a huge string literal costs what it needs and no more.
 */
#include "planner/ast.h"

#include <stdlib.h>
#include <string.h>

#define ARENA_BLOCK 16384

typedef struct arena_block {
    struct arena_block *next;
    size_t              used, cap;
    max_align_t         data[];   /* cap bytes follow */
} arena_block;

struct attu_ast_arena {
    arena_block *head;
};

attu_ast_arena *attu_ast_arena_new(void) {
    return calloc(1, sizeof(attu_ast_arena));
}

void attu_ast_arena_free(attu_ast_arena *a) {
    if (!a) return;
    arena_block *b = a->head;
    while (b) {
        arena_block *next = b->next;
        free(b);
        b = next;
    }
    free(a);
}

void *attu_ast_alloc(attu_ast_arena *a, size_t size) {
    const size_t align = sizeof(max_align_t);
    size = (size + align - 1) / align * align;
    if (size == 0) size = align;
    arena_block *b = a->head;
    if (!b || b->cap - b->used < size) {
        size_t cap = size > ARENA_BLOCK / 4 ? size : ARENA_BLOCK;
        arena_block *nb = malloc(sizeof *nb + cap);
        if (!nb) return NULL;
        nb->used = 0;
        nb->cap = cap;
        if (b && size > ARENA_BLOCK / 4) {
            /* a private block for a big request: keep filling the current
             * one afterwards */
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->head = nb;
        }
        b = nb;
    }
    void *p = (char *)b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *attu_ast_strndup(attu_ast_arena *a, const char *s, size_t len) {
    char *p = attu_ast_alloc(a, len + 1);
    if (!p) return NULL;
    if (len) memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *attu_ast_strdup(attu_ast_arena *a, const char *s) {
    return attu_ast_strndup(a, s, strlen(s));
}

const char *attu_ast_binary_op_name(attu_ast_binary_op op) {
    switch (op) {
    case ATTU_BINOP_ADD: return "+";
    case ATTU_BINOP_SUB: return "-";
    case ATTU_BINOP_MUL: return "*";
    case ATTU_BINOP_DIV: return "/";
    case ATTU_BINOP_MOD: return "%";
    case ATTU_BINOP_POW: return "^";
    case ATTU_BINOP_CONCAT: return "||";
    case ATTU_BINOP_EQ: return "=";
    case ATTU_BINOP_NE: return "<>";
    case ATTU_BINOP_LT: return "<";
    case ATTU_BINOP_LE: return "<=";
    case ATTU_BINOP_GT: return ">";
    case ATTU_BINOP_GE: return ">=";
    case ATTU_BINOP_AND: return "AND";
    case ATTU_BINOP_OR: return "OR";
    case ATTU_BINOP_IS_DISTINCT: return "IS DISTINCT FROM";
    case ATTU_BINOP_IS_NOT_DISTINCT: return "IS NOT DISTINCT FROM";
    case ATTU_BINOP_OTHER: return "operator";
    }
    return "?";
}

const char *attu_ast_stmt_kind_name(attu_ast_stmt_kind kind) {
    switch (kind) {
    case ATTU_STMT_SELECT: return "SELECT";
    case ATTU_STMT_INSERT: return "INSERT";
    case ATTU_STMT_CREATE_TABLE: return "CREATE TABLE";
    case ATTU_STMT_CREATE_TABLE_AS: return "CREATE TABLE AS";
    case ATTU_STMT_DROP_TABLE: return "DROP TABLE";
    case ATTU_STMT_ALTER_TABLE: return "ALTER TABLE";
    case ATTU_STMT_ALTER_SEQUENCE: return "ALTER SEQUENCE";
    case ATTU_STMT_COMMENT: return "COMMENT";
    case ATTU_STMT_COPY: return "COPY";
    case ATTU_STMT_EXPLAIN: return "EXPLAIN";
    case ATTU_STMT_SET: return "SET";
    case ATTU_STMT_RESET: return "RESET";
    case ATTU_STMT_SHOW: return "SHOW";
    case ATTU_STMT_SHOW_TABLES: return "SHOW TABLES";
    case ATTU_STMT_DESCRIBE: return "DESCRIBE";
    case ATTU_STMT_TRANSACTION: return "TRANSACTION";
    case ATTU_STMT_DEALLOCATE: return "DEALLOCATE";
    case ATTU_STMT_DISCARD: return "DISCARD";
    case ATTU_STMT_LISTEN: return "LISTEN";
    case ATTU_STMT_PREPARE: return "PREPARE";
    case ATTU_STMT_EXECUTE: return "EXECUTE";
    case ATTU_STMT_DELETE: return "DELETE";
    case ATTU_STMT_UPDATE: return "UPDATE";
    case ATTU_STMT_TRUNCATE: return "TRUNCATE TABLE";
    case ATTU_STMT_LOCK: return "LOCK TABLE";
    case ATTU_STMT_MAINTENANCE: return "VACUUM";
    case ATTU_STMT_ROLE: return "ROLE";
    case ATTU_STMT_CREATE_VIEW: return "CREATE VIEW";
    case ATTU_STMT_DROP_VIEW: return "DROP VIEW";
    case ATTU_STMT_REFRESH_MATVIEW: return "REFRESH MATERIALIZED VIEW";
    case ATTU_STMT_CREATE_SEQUENCE: return "CREATE SEQUENCE";
    case ATTU_STMT_DROP_SEQUENCE: return "DROP SEQUENCE";
    case ATTU_STMT_CREATE_INDEX: return "CREATE INDEX";
    case ATTU_STMT_DROP_INDEX: return "DROP INDEX";
    case ATTU_STMT_ALTER_INDEX: return "ALTER INDEX";
    case ATTU_STMT_DECLARE_CURSOR: return "DECLARE CURSOR";
    case ATTU_STMT_FETCH: return "FETCH";
    case ATTU_STMT_CLOSE_CURSOR: return "CLOSE CURSOR";
    case ATTU_STMT_SET_CONSTRAINTS: return "SET CONSTRAINTS";
    case ATTU_STMT_MERGE: return "MERGE";
    case ATTU_STMT_TYPE: return "TYPE";
    }
    return "?";
}
