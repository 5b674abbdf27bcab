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
    "stddev_pop", "string_agg", "array_agg", "corr", "covar_pop", "covar_samp", "regr_avgx", "regr_avgy",
    "regr_count", "regr_intercept", "regr_r2", "regr_slope", "regr_sxx", "regr_sxy", "regr_syy", "bit_and",
    "bit_or", "bit_xor", NULL
};

/* The clause named in the messages; subquery: the message for a subquery
 * where none may stand (NULL: subqueries are not entered, and allowed). */
typedef struct dml_check {
    const char *clause;
    const char *subquery;
} dml_check;

static int check_expr(const attu_ast_expr *e, const dml_check *k, attu_error *err);

static int check_list(const attu_ast_expr_list *l, const dml_check *k, attu_error *err) {
    for (int i = 0; i < l->n; i++) if (check_expr(l->items[i], k, err)) return -1;
    return 0;
}

static int check_expr(const attu_ast_expr *e, const dml_check *k, attu_error *err) {
    if (!e) return 0;
    switch (e->kind) {
    case ATTU_EXPR_UNARY: return check_expr(e->u.unary.arg, k, err);
    case ATTU_EXPR_BINARY: return check_expr(e->u.binary.left, k, err) || check_expr(e->u.binary.right, k, err);
    case ATTU_EXPR_IS: return check_expr(e->u.is.arg, k, err);
    case ATTU_EXPR_BETWEEN:
        return check_expr(e->u.between.arg, k, err) || check_expr(e->u.between.low, k, err) ||
               check_expr(e->u.between.high, k, err);
    case ATTU_EXPR_IN_LIST: return check_expr(e->u.in_list.arg, k, err) || check_list(&e->u.in_list.list, k, err);
    case ATTU_EXPR_SUBQUERY: case ATTU_EXPR_EXISTS:
        return k->subquery ? attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "%s", k->subquery) : 0;
    case ATTU_EXPR_IN_SUBQUERY:
        if (k->subquery) return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "%s", k->subquery);
        return check_expr(e->u.in_subquery.arg, k, err);
    case ATTU_EXPR_QUANTIFIED:
        if (k->subquery) return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "%s", k->subquery);
        return check_expr(e->u.quantified.arg, k, err);
    case ATTU_EXPR_LIKE:
        return check_expr(e->u.like.arg, k, err) || check_expr(e->u.like.pattern, k, err) ||
               check_expr(e->u.like.escape, k, err);
    case ATTU_EXPR_CASE:
        if (check_expr(e->u.case_.operand, k, err)) return -1;
        for (int i = 0; i < e->u.case_.nwhens; i++)
            if (check_expr(e->u.case_.whens[i].when, k, err) || check_expr(e->u.case_.whens[i].then, k, err))
                return -1;
        return check_expr(e->u.case_.else_, k, err);
    case ATTU_EXPR_CAST: return check_expr(e->u.cast.arg, k, err);
    case ATTU_EXPR_EXTRACT: return check_expr(e->u.extract.arg, k, err);
    case ATTU_EXPR_FUNC: {
        const char *name = e->u.func.name;
        if (e->u.func.over)
            return attu_error_set(err, "42P20", e->position, "window functions are not allowed in %s", k->clause);
        bool agg = e->u.func.star || e->u.func.distinct || e->u.func.filter || e->u.func.order_by.n;
        for (int i = 0; !agg && aggregates[i]; i++) agg = !strcmp(aggregates[i], name);
        if (agg) return attu_error_set(err, ATTU_SQLSTATE_GROUPING, e->position, "aggregate functions are not allowed in %s", k->clause);
        if (!strcmp(name, "generate_series") || !strcmp(name, "unnest"))
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                                  "set-returning functions are not allowed in %s", k->clause);
        return check_list(&e->u.func.args, k, err);
    }
    default: return 0;
    }
}

int db_check_dml_items(const attu_ast_set_item *sets, int nsets, const attu_ast_select_item *ret, int nret,
                       attu_error *err) {
    static const dml_check update = { "UPDATE", NULL }, returning = { "RETURNING", NULL };
    for (int i = 0; i < nsets; i++) if (check_expr(sets[i].value, &update, err)) return -1;
    for (int i = 0; i < nret; i++) if (check_expr(ret[i].expr, &returning, err)) return -1;
    return 0;
}

int db_check_transform_expr(const attu_ast_expr *e, attu_error *err) {
    static const dml_check transform = { "transform expressions", "cannot use subquery in transform expression" };
    return check_expr(e, &transform, err);
}
