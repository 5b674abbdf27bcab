/* db_subscripts.c: the subscripted targets of INSERT and UPDATE.
 *
 * INSERT INTO t (a[1], a[2]) and UPDATE t SET a[1] = x, a[2] = y both turn
 * a target's subscripts (a[i][j], a[i:j]) into an assignment to the whole
 * column; both need the subscripts copied onto another base (the column,
 * or the array the assignment before made), leaving the statement's own
 * tree as it is, since a prepared statement runs it again. */
#include "db/db_internal.h"

#include <string.h>

bool db_is_subscript(const attu_ast_expr *e) {
    return e->kind == ATTU_EXPR_FUNC && e->u.func.args.n >= 2 &&
           (!strcmp(e->u.func.name, " subscript") || !strcmp(e->u.func.name, " slice"));
}

attu_ast_expr *db_rebase_subscripts(attu_ast_arena *arena, const attu_ast_expr *x, attu_ast_expr *base,
                                    attu_error *err) {
    if (!db_is_subscript(x)) return base;
    attu_ast_expr *inner = db_rebase_subscripts(arena, x->u.func.args.items[0], base, err);
    attu_ast_expr *c = inner ? attu_ast_alloc(arena, sizeof *c) : NULL;
    attu_ast_expr **items = c ? attu_ast_alloc(arena, sizeof *items * (size_t)x->u.func.args.n) : NULL;
    if (!items) {
        if (inner) attu_error_oom(err);
        return NULL;
    }
    *c = *x;
    memcpy(items, x->u.func.args.items, sizeof *items * (size_t)x->u.func.args.n);
    items[0] = inner;
    c->u.func.args.items = items;
    for (int i = 0; i < x->u.func.args.n; i++)
        if (items[i] && items[i]->depth + 1 > c->depth) c->depth = items[i]->depth + 1;
    return c;
}
