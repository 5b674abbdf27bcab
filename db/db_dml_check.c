/*
 * db_dml_check.c - what may not stand in UPDATE's SET values and in
 * RETURNING (UPDATE, DELETE, INSERT).
 *
 * Both run as the select list of a query (db_modify.c,
 * db_insert_returning.c), where a window function, an aggregate or
 * generate_series would be taken as they are in a SELECT: over all the
 * rows, or making more rows. PostgreSQL refuses them there (42P20, 42803,
 * 0A000, with the clause named); so does attu, before binding. Subqueries
 * are not entered: an aggregate inside one is the subquery's own.
 */
#include "db/db_internal.h"

#include <string.h>

static const char *const aggregates[] = {
    "count", "sum", "avg", "min", "max", "bool_and", "bool_or", "every", "nth_smallest", "nth_smallest_arg",
    "nth_largest", "nth_largest_arg", "variance", "var_samp", "var_pop", "stddev", "stddev_samp",
    "stddev_pop", "string_agg", "array_agg", NULL
};

static int check_expr(const attu_ast_expr *e, const char *clause, attu_error *err);

static int check_list(const attu_ast_expr_list *l, const char *clause, attu_error *err) {
    for (int i = 0; i < l->n; i++) if (check_expr(l->items[i], clause, err)) return -1;
    return 0;
}

static int check_expr(const attu_ast_expr *e, const char *clause, attu_error *err) {
    if (!e) return 0;
    switch (e->kind) {
    case ATTU_EXPR_UNARY: return check_expr(e->u.unary.arg, clause, err);
    case ATTU_EXPR_BINARY: return check_expr(e->u.binary.left, clause, err) || check_expr(e->u.binary.right, clause, err);
    case ATTU_EXPR_IS: return check_expr(e->u.is.arg, clause, err);
    case ATTU_EXPR_BETWEEN:
        return check_expr(e->u.between.arg, clause, err) || check_expr(e->u.between.low, clause, err) ||
               check_expr(e->u.between.high, clause, err);
    case ATTU_EXPR_IN_LIST: return check_expr(e->u.in_list.arg, clause, err) || check_list(&e->u.in_list.list, clause, err);
    case ATTU_EXPR_IN_SUBQUERY: return check_expr(e->u.in_subquery.arg, clause, err);
    case ATTU_EXPR_QUANTIFIED: return check_expr(e->u.quantified.arg, clause, err);
    case ATTU_EXPR_LIKE:
        return check_expr(e->u.like.arg, clause, err) || check_expr(e->u.like.pattern, clause, err) ||
               check_expr(e->u.like.escape, clause, err);
    case ATTU_EXPR_CASE:
        if (check_expr(e->u.case_.operand, clause, err)) return -1;
        for (int i = 0; i < e->u.case_.nwhens; i++)
            if (check_expr(e->u.case_.whens[i].when, clause, err) || check_expr(e->u.case_.whens[i].then, clause, err))
                return -1;
        return check_expr(e->u.case_.else_, clause, err);
    case ATTU_EXPR_CAST: return check_expr(e->u.cast.arg, clause, err);
    case ATTU_EXPR_EXTRACT: return check_expr(e->u.extract.arg, clause, err);
    case ATTU_EXPR_FUNC: {
        const char *name = e->u.func.name;
        if (e->u.func.over)
            return attu_error_set(err, "42P20", e->position, "window functions are not allowed in %s", clause);
        bool agg = e->u.func.star || e->u.func.distinct || e->u.func.filter || e->u.func.order_by.n;
        for (int i = 0; !agg && aggregates[i]; i++) agg = !strcmp(aggregates[i], name);
        if (agg) return attu_error_set(err, ATTU_SQLSTATE_GROUPING, e->position, "aggregate functions are not allowed in %s", clause);
        if (!strcmp(name, "generate_series") || !strcmp(name, "unnest"))
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                                  "set-returning functions are not allowed in %s", clause);
        return check_list(&e->u.func.args, clause, err);
    }
    default: return 0;
    }
}

int db_check_dml_items(const attu_ast_set_item *sets, int nsets, const attu_ast_select_item *ret, int nret,
                       attu_error *err) {
    for (int i = 0; i < nsets; i++) if (check_expr(sets[i].value, "UPDATE", err)) return -1;
    for (int i = 0; i < nret; i++) if (check_expr(ret[i].expr, "RETURNING", err)) return -1;
    return 0;
}
