/*
 * ast_build.c - node constructors used by the grammar's actions (see
 * ast_build.h). Each constructor also computes the node's depth from its
 * children and stops the parse with 54001 once ATTU_AST_MAX_DEPTH is passed,
 * so nothing downstream has to guard its recursion.
 */
#include "planner/ast_build.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Returned when the arena is exhausted, so actions can keep writing into
 * "a node" without checking; the parse is already marked failed. The
 * driver never lets such a tree out. */
static union {
    attu_ast_expr  e;
    attu_ast_query q;
    attu_ast_stmt  s;
    attu_ast_from  f;
    char           bytes[512];
} oom_sink;

void *ab_alloc(attu_parse_ctx *c, size_t size) {
    void *p = attu_ast_alloc(c->arena, size);
    if (!p) {
        attu_error_oom(c->err);
        c->failed = true;
        if (size <= sizeof oom_sink) {
            memset(&oom_sink, 0, sizeof oom_sink);
            return &oom_sink;
        }
    }
    return p;
}

char *ab_strndup(attu_parse_ctx *c, const char *s, size_t n) {
    char *p = attu_ast_strndup(c->arena, s, n);
    if (!p) {
        attu_error_oom(c->err);
        c->failed = true;
        return "";
    }
    return p;
}

void ab_vec_push(attu_parse_ctx *c, attu_vec *v, const void *elem, size_t esz) {
    if (!v) return;
    if (v->n == v->cap) {
        int cap = v->cap ? v->cap * 2 : 4;
        void *items = attu_ast_alloc(c->arena, (size_t)cap * esz);
        if (!items) {
            attu_error_oom(c->err);
            c->failed = true;
            return;
        }
        if (v->n) memcpy(items, v->items, (size_t)v->n * esz);
        v->items = items;
        v->cap = cap;
    }
    memcpy((char *)v->items + (size_t)v->n * esz, elem, esz);
    v->n++;
}

void ab_error(attu_parse_ctx *c, const char *sqlstate, int pos,
              const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    attu_error_setv(c->err, sqlstate, pos, fmt, ap);
    va_end(ap);
    c->failed = true;
}

void ab_defer_error(attu_parse_ctx *c, const char *sqlstate, int pos,
                    const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    attu_error_setv(&c->deferred, sqlstate, pos, fmt, ap);
    va_end(ap);
}

const char *ab_tokstr(const attu_token *t) {
    return t->str ? t->str : "";
}

/* ---- depth --------------------------------------------------------------- */

static int maxi(int a, int b) { return a > b ? a : b; }

static void check_depth(attu_parse_ctx *c, int depth, int pos) {
    if (depth > ATTU_AST_MAX_DEPTH && !c->failed)
        ab_error(c, "54001", pos, "stack depth limit exceeded");
}

static int edepth(const attu_ast_expr *e) { return e ? e->depth : 0; }

static int list_depth(attu_ast_expr_list l) {
    int d = 0;
    for (int i = 0; i < l.n; i++) d = maxi(d, edepth(l.items[i]));
    return d;
}

static int order_depth(attu_ast_order_list l) {
    int d = 0;
    for (int i = 0; i < l.n; i++) d = maxi(d, edepth(l.items[i].expr));
    return d;
}

static int qdepth(const attu_ast_query *q) { return q ? q->depth : 0; }

/* Sets e->depth from its direct children. */
static void expr_depth(attu_parse_ctx *c, attu_ast_expr *e) {
    int d = 0;
    switch (e->kind) {
    case ATTU_EXPR_LITERAL: case ATTU_EXPR_COLUMN: case ATTU_EXPR_STAR:
    case ATTU_EXPR_PARAM:
        break;
    case ATTU_EXPR_UNARY: d = edepth(e->u.unary.arg); break;
    case ATTU_EXPR_BINARY:
        d = maxi(edepth(e->u.binary.left), edepth(e->u.binary.right));
        break;
    case ATTU_EXPR_IS: d = edepth(e->u.is.arg); break;
    case ATTU_EXPR_BETWEEN:
        d = maxi(edepth(e->u.between.arg),
                 maxi(edepth(e->u.between.low), edepth(e->u.between.high)));
        break;
    case ATTU_EXPR_IN_LIST:
        d = maxi(edepth(e->u.in_list.arg), list_depth(e->u.in_list.list));
        break;
    case ATTU_EXPR_IN_SUBQUERY:
        d = maxi(edepth(e->u.in_subquery.arg), qdepth(e->u.in_subquery.query));
        break;
    case ATTU_EXPR_EXISTS: case ATTU_EXPR_SUBQUERY:
        d = qdepth(e->u.subquery.query);
        break;
    case ATTU_EXPR_LIKE:
        d = maxi(edepth(e->u.like.arg),
                 maxi(edepth(e->u.like.pattern), edepth(e->u.like.escape)));
        break;
    case ATTU_EXPR_CASE:
        d = maxi(edepth(e->u.case_.operand), edepth(e->u.case_.else_));
        for (int i = 0; i < e->u.case_.nwhens; i++)
            d = maxi(d, maxi(edepth(e->u.case_.whens[i].when),
                             edepth(e->u.case_.whens[i].then)));
        break;
    case ATTU_EXPR_CAST: d = edepth(e->u.cast.arg); break;
    case ATTU_EXPR_FUNC:
        d = maxi(list_depth(e->u.func.args), order_depth(e->u.func.order_by));
        d = maxi(d, edepth(e->u.func.filter));
        if (e->u.func.over) {
            d = maxi(d, list_depth(e->u.func.over->partition_by));
            d = maxi(d, order_depth(e->u.func.over->order_by));
            d = maxi(d, edepth(e->u.func.over->frame_start.offset));
            d = maxi(d, edepth(e->u.func.over->frame_end.offset));
        }
        break;
    case ATTU_EXPR_EXTRACT: d = edepth(e->u.extract.arg); break;
    case ATTU_EXPR_DEFAULT: break;
    case ATTU_EXPR_QUANTIFIED:
        d = maxi(edepth(e->u.quantified.arg), qdepth(e->u.quantified.query));
        break;
    }
    e->depth = d + 1;
    check_depth(c, e->depth, e->position);
}

void ab_expr_finish(attu_parse_ctx *c, attu_ast_expr *e) {
    if (e) expr_depth(c, e);
}

static int from_depth(const attu_ast_from *f) { return f ? f->depth : 0; }

void ab_from_finish(attu_parse_ctx *c, attu_ast_from *f) {
    int d = 0;
    switch (f->kind) {
    case ATTU_FROM_TABLE: break;
    case ATTU_FROM_SUBQUERY: d = qdepth(f->u.subquery.query); break;
    case ATTU_FROM_FUNCTION:
        d = edepth(f->u.function.call);
        for (int i = 1; i < f->u.function.ncalls; i++) d = maxi(d, edepth(f->u.function.calls[i].call));
        break;
    case ATTU_FROM_JOIN:
        d = maxi(from_depth(f->u.join.left), from_depth(f->u.join.right));
        d = maxi(d, edepth(f->u.join.on));
        break;
    }
    f->depth = d + 1;
    check_depth(c, f->depth, f->position);
}

void ab_query_finish(attu_parse_ctx *c, attu_ast_query *q) {
    int d = 0;
    switch (q->kind) {
    case ATTU_QUERY_SELECT:
        for (int i = 0; i < q->u.select.nitems; i++)
            d = maxi(d, edepth(q->u.select.items[i].expr));
        /* a comma list binds as a chain of joins, one level an item: 20,000
           items overflowed the planner's stack where a JOIN chain stops */
        for (int i = 0; i < q->u.select.from.n; i++)
            d = maxi(d, from_depth(q->u.select.from.items[i]) + q->u.select.from.n - 1);
        d = maxi(d, list_depth(q->u.select.distinct_on));
        d = maxi(d, edepth(q->u.select.where));
        d = maxi(d, list_depth(q->u.select.group_by));
        d = maxi(d, edepth(q->u.select.having));
        break;
    case ATTU_QUERY_VALUES:
        for (int i = 0; i < q->u.values.nrows; i++)
            d = maxi(d, list_depth(q->u.values.rows[i]));
        break;
    case ATTU_QUERY_SETOP:
        d = maxi(qdepth(q->u.setop.left), qdepth(q->u.setop.right));
        break;
    }
    for (int i = 0; i < q->with.n; i++) d = maxi(d, qdepth(q->with.items[i].query));
    d = maxi(d, order_depth(q->order_by));
    d = maxi(d, maxi(edepth(q->limit), edepth(q->offset)));
    q->depth = d + 1;
    check_depth(c, q->depth, q->position);
}

/* ---- expressions --------------------------------------------------------- */

attu_ast_expr *ab_expr(attu_parse_ctx *c, attu_ast_expr_kind k, int pos) {
    attu_ast_expr *e = ab_alloc(c, sizeof *e);
    e->kind = k;
    e->position = pos;
    e->depth = 1;
    return e;
}

attu_ast_expr *ab_literal(attu_parse_ctx *c, attu_ast_literal_kind k,
                          const attu_token *t) {
    attu_ast_expr *e = ab_expr(c, ATTU_EXPR_LITERAL, t->pos);
    e->u.literal.kind = k;
    e->u.literal.text = ab_strndup(c, t->str ? t->str : "", t->slen);
    e->u.literal.len = t->slen;
    return e;
}

attu_ast_expr *ab_literal_text(attu_parse_ctx *c, attu_ast_literal_kind k,
                               const char *text, int pos) {
    attu_ast_expr *e = ab_expr(c, ATTU_EXPR_LITERAL, pos);
    e->u.literal.kind = k;
    e->u.literal.text = (char *)text;
    e->u.literal.len = strlen(text);
    return e;
}

attu_ast_expr *ab_column(attu_parse_ctx *c, const char *qual, const char *name,
                         int pos) {
    attu_ast_expr *e = ab_expr(c, ATTU_EXPR_COLUMN, pos);
    e->u.column.qualifier = (char *)qual;
    e->u.column.name = (char *)name;
    return e;
}

attu_ast_expr *ab_star(attu_parse_ctx *c, const char *qual, int pos) {
    attu_ast_expr *e = ab_expr(c, ATTU_EXPR_STAR, pos);
    e->u.star.qualifier = (char *)qual;
    return e;
}

attu_ast_expr *ab_param(attu_parse_ctx *c, const attu_token *t) {
    attu_ast_expr *e = ab_expr(c, ATTU_EXPR_PARAM, t->pos);
    /* PostgreSQL: "$0" and numbers beyond INT_MAX are 42P02. */
    long long v = 0;
    int big = 0;
    for (size_t i = 0; i < t->slen; i++) {
        v = v * 10 + (t->str[i] - '0');
        if (v > 65535) { big = 1; break; }
    }
    if (v == 0 || big) {
        /* PostgreSQL finds this during analysis, after any syntax error */
        ab_defer_error(c, "42P02", t->pos, "there is no parameter $%.*s",
                       (int)t->slen, t->str);
        return e;
    }
    e->u.param.number = (int)v;
    if ((int)v > c->max_param) c->max_param = (int)v;
    if ((int)v >= c->param_used_cap) {
        int cap = c->param_used_cap ? c->param_used_cap : 16;
        while (cap <= (int)v) cap *= 2;
        bool *n = ab_alloc(c, sizeof *n * (size_t)cap);
        if (!n) return e;   /* out of memory: the parse fails */
        memset(n, 0, sizeof *n * (size_t)cap);
        if (c->param_used_cap) memcpy(n, c->param_used, sizeof *n * (size_t)c->param_used_cap);
        c->param_used = n;
        c->param_used_cap = cap;
    }
    c->param_used[v] = true;
    return e;
}

attu_ast_expr *ab_unary(attu_parse_ctx *c, attu_ast_unary_op op,
                        attu_ast_expr *arg, const attu_token *op_tok) {
    attu_ast_expr *e = ab_expr(c, ATTU_EXPR_UNARY, op_tok->pos);
    e->u.unary.op = op;
    e->u.unary.arg = arg;
    switch (op) {
    case ATTU_UNOP_NOT: e->u.unary.op_text = "NOT"; break;
    case ATTU_UNOP_NEG: e->u.unary.op_text = "-"; break;
    case ATTU_UNOP_PLUS: e->u.unary.op_text = "+"; break;
    case ATTU_UNOP_OTHER:
        e->u.unary.op_text = ab_strndup(c, c->sql + op_tok->off, op_tok->len);
        /* ~ x: bitwise not, a call the binder resolves (planner/bitwise_bind.c) */
        if (e->u.unary.op_text && !strcmp(e->u.unary.op_text, "~"))
            return ab_func1(c, " ~", arg, op_tok->pos);
        /* PostgreSQL's numeric prefix operators are the calls they stand
         * for: @ x is abs(x) (of x's own type), |/ x and ||/ x sqrt and
         * cbrt of x as double precision (dsqrt, dcbrt) */
        if (e->u.unary.op_text && (!strcmp(e->u.unary.op_text, "@") || !strcmp(e->u.unary.op_text, "|/") ||
                                   !strcmp(e->u.unary.op_text, "||/"))) {
            const char *fn = e->u.unary.op_text[0] == '@' ? "abs" : e->u.unary.op_text[1] == '/' ? "sqrt" : "cbrt";
            attu_ast_expr *x = arg;
            if (fn[0] != 'a') {
                attu_ast_typename f8 = { (char *)"float8", -1, -1, op_tok->pos, 0 };
                x = ab_cast(c, arg, &f8, ATTU_CAST_FUNCTION, op_tok->pos);
            }
            attu_vec v = {0};
            ab_vec_push(c, &v, &x, sizeof x);
            attu_ast_expr *call = ab_func(c, "pg_catalog", fn, &v, op_tok->pos);
            call->u.func.prefix_op = true;
            return call;
        }
        /* attu has no such operators; PostgreSQL names the argument types
         * in this message, which only the binder knows, so it is reported
         * here without them, after parsing, where PostgreSQL reports it */
        ab_defer_error(c, ATTU_SQLSTATE_UNDEFINED_FUNCTION, op_tok->pos,
                       "operator does not exist: %s", e->u.unary.op_text);
        break;
    }
    expr_depth(c, e);
    return e;
}

attu_ast_expr *ab_negate(attu_parse_ctx *c, attu_ast_expr *arg, int pos) {
    if (arg->kind == ATTU_EXPR_LITERAL &&
        (arg->u.literal.kind == ATTU_LIT_INTEGER ||
         arg->u.literal.kind == ATTU_LIT_NUMERIC)) {
        /* PostgreSQL's doNegate: fold into the constant, which then points
         * at the minus sign. "--5" cannot happen (that is a comment) and
         * "- -5" gives "5". */
        const char *t = arg->u.literal.text;
        if (t[0] == '-') {
            arg->u.literal.text = (char *)t + 1;
            arg->u.literal.len--;
        } else {
            size_t n = arg->u.literal.len;
            char *s = ab_alloc(c, n + 2);
            s[0] = '-';
            memcpy(s + 1, t, n);
            s[n + 1] = '\0';
            arg->u.literal.text = s;
            arg->u.literal.len = n + 1;
        }
        arg->position = pos;
        return arg;
    }
    attu_token t;
    memset(&t, 0, sizeof t);
    t.pos = pos;
    return ab_unary(c, ATTU_UNOP_NEG, arg, &t);
}

/* A row constructor: ROW(a, b) or (a, b), which the grammar builds as a
 * call of "row". */
static bool is_row(const attu_ast_expr *e) {
    return e && e->kind == ATTU_EXPR_FUNC && !e->u.func.schema && e->u.func.name &&
           strcmp(e->u.func.name, "row") == 0;
}

static bool is_row_comparison(attu_ast_binary_op op) {
    switch (op) {
    case ATTU_BINOP_EQ: case ATTU_BINOP_NE: case ATTU_BINOP_LT: case ATTU_BINOP_LE:
    case ATTU_BINOP_GT: case ATTU_BINOP_GE: case ATTU_BINOP_IS_DISTINCT: case ATTU_BINOP_IS_NOT_DISTINCT:
        return true;
    default: return false;
    }
}

/* A comparison of two rows of n items each, as PostgreSQL's parse
 * analysis makes it (make_row_comparison_op, make_row_distinct_op): the
 * pairs compared item by item, each pair an ordinary comparison at the
 * operator's position, so that a parameter takes its partner's type and a
 * pair without an operator fails there (42883).
 *   =  and IS NOT DISTINCT FROM: every pair equal (AND)
 *   <> and IS DISTINCT FROM: some pair different (OR)
 *   <, <=, >, >=: left to right, the first pair that is not equal
 *   decides: a1 < b1 OR (a1 = b1 AND (a2 < b2 OR ...)), the last pair with
 *   the operator itself. In three-valued logic this is null as soon as
 *   the deciding pair holds a null, as PostgreSQL's row comparison is.
 * The left items are shared by the pairs that read them (an expression
 * tree becomes a DAG; nothing downstream writes into the tree). */
static attu_ast_expr *row_pairs(attu_parse_ctx *c, attu_ast_binary_op op, attu_ast_expr **a, attu_ast_expr **b,
                                int n, const attu_token *op_tok) {
    attu_token t = *op_tok;
    if (n == 1) return ab_binary(c, op, a[0], b[0], &t);
    switch (op) {
    case ATTU_BINOP_EQ: case ATTU_BINOP_IS_NOT_DISTINCT:
        return ab_binary(c, ATTU_BINOP_AND, ab_binary(c, op, a[0], b[0], &t),
                         row_pairs(c, op, a + 1, b + 1, n - 1, op_tok), &t);
    case ATTU_BINOP_NE: case ATTU_BINOP_IS_DISTINCT:
        return ab_binary(c, ATTU_BINOP_OR, ab_binary(c, op, a[0], b[0], &t),
                         row_pairs(c, op, a + 1, b + 1, n - 1, op_tok), &t);
    default: {
        attu_ast_binary_op strict = op == ATTU_BINOP_LE ? ATTU_BINOP_LT : op == ATTU_BINOP_GE ? ATTU_BINOP_GT : op;
        attu_ast_expr *first = ab_binary(c, strict, a[0], b[0], &t);
        attu_ast_expr *tie = ab_binary(c, ATTU_BINOP_AND, ab_binary(c, ATTU_BINOP_EQ, a[0], b[0], &t),
                                       row_pairs(c, op, a + 1, b + 1, n - 1, op_tok), &t);
        return ab_binary(c, ATTU_BINOP_OR, first, tie, &t);
    }
    }
}

static attu_ast_expr *row_comparison(attu_parse_ctx *c, attu_ast_binary_op op, attu_ast_expr *l, attu_ast_expr *r,
                                     const attu_token *op_tok) {
    int n = l->u.func.args.n;
    if (n != r->u.func.args.n || n == 0) {
        /* PostgreSQL: ROW() = ROW() has no pair to compare either */
        if (n != r->u.func.args.n)
            ab_defer_error(c, ATTU_SQLSTATE_SYNTAX, op_tok->pos, "unequal number of entries in row expressions");
        else
            ab_defer_error(c, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, op_tok->pos, "cannot compare rows of zero length");
        return ab_literal_text(c, ATTU_LIT_NULL, "null", op_tok->pos);
    }
    return row_pairs(c, op, l->u.func.args.items, r->u.func.args.items, n, op_tok);
}

attu_ast_expr *ab_binary(attu_parse_ctx *c, attu_ast_binary_op op,
                         attu_ast_expr *l, attu_ast_expr *r,
                         const attu_token *op_tok) {
    if (is_row_comparison(op) && is_row(l) && is_row(r)) return row_comparison(c, op, l, r, op_tok);
    if (op == ATTU_BINOP_OTHER) {
        /* the array operators: calls the binder resolves (planner/array_bind.c) */
        static const char *const array_ops[] = { " @>", " <@", " &&" };
        for (size_t i = 0; i < 3; i++)
            if (op_tok->len == 2 && memcmp(c->sql + op_tok->off, array_ops[i] + 1, 2) == 0)
                return ab_func2(c, array_ops[i], l, r, op_tok->pos);
        /* the json operators: calls the binder resolves (planner/json_bind.c) */
        static const char *const json_ops[] = { " ->", " ->>", " #>", " #>>", " ?", " ?|", " ?&", " #-", " @?", " @@" };
        for (size_t i = 0; i < sizeof json_ops / sizeof *json_ops; i++)
            if (op_tok->len == strlen(json_ops[i]) - 1 && memcmp(c->sql + op_tok->off, json_ops[i] + 1, op_tok->len) == 0)
                return ab_func2(c, json_ops[i], l, r, op_tok->pos);
        /* the range operators of their own (planner/range_bind.c) */
        static const char *const range_ops[] = { " -|-", " &<", " &>" };
        for (size_t i = 0; i < sizeof range_ops / sizeof *range_ops; i++)
            if (op_tok->len == strlen(range_ops[i]) - 1 && memcmp(c->sql + op_tok->off, range_ops[i] + 1, op_tok->len) == 0)
                return ab_func2(c, range_ops[i], l, r, op_tok->pos);
        /* the bitwise operators on integers: calls the binder resolves
         * (planner/bitwise_bind.c) */
        static const char *const bit_ops[] = { " &", " |", " #", " <<", " >>" };
        for (size_t i = 0; i < sizeof bit_ops / sizeof *bit_ops; i++)
            if (op_tok->len == strlen(bit_ops[i]) - 1 && memcmp(c->sql + op_tok->off, bit_ops[i] + 1, op_tok->len) == 0)
                return ab_func2(c, bit_ops[i], l, r, op_tok->pos);
        /* a ^@ b: starts_with(a, b), an operator's call (named ?column?) */
        if (op_tok->len == 2 && memcmp(c->sql + op_tok->off, "^@", 2) == 0) {
            attu_ast_expr *call = ab_func2(c, "starts_with", l, r, op_tok->pos);
            call->u.func.prefix_op = true;
            return call;
        }
        /* PostgreSQL's operator names for LIKE and ILIKE */
        static const struct { const char *op; bool negated, ci; } like_ops[] = {
            { "~~", false, false }, { "!~~", true, false },
            { "~~*", false, true }, { "!~~*", true, true },
        };
        for (size_t i = 0; i < sizeof like_ops / sizeof like_ops[0]; i++) {
            size_t n = strlen(like_ops[i].op);
            if (op_tok->len == n && memcmp(c->sql + op_tok->off, like_ops[i].op, n) == 0)
                return ab_like(c, l, r, NULL, like_ops[i].negated, like_ops[i].ci, op_tok->pos);
        }
        /* and its regular-expression match operators */
        static const struct { const char *op; bool negated, ci; } regex_ops[] = {
            { "~", false, false }, { "!~", true, false }, { "~*", false, true }, { "!~*", true, true },
        };
        for (size_t i = 0; i < sizeof regex_ops / sizeof regex_ops[0]; i++) {
            size_t n = strlen(regex_ops[i].op);
            if (op_tok->len == n && memcmp(c->sql + op_tok->off, regex_ops[i].op, n) == 0) {
                attu_ast_expr *e = ab_like(c, l, r, NULL, regex_ops[i].negated, regex_ops[i].ci, op_tok->pos);
                e->u.like.regex = true;
                return e;
            }
        }
    }
    attu_ast_expr *e = ab_expr(c, ATTU_EXPR_BINARY, op_tok->pos);
    e->u.binary.op = op;
    e->u.binary.left = l;
    e->u.binary.right = r;
    /* PostgreSQL names != as <> in its messages; only operators attu does
     * not know keep their spelling. */
    e->u.binary.op_text = op == ATTU_BINOP_OTHER
        ? ab_strndup(c, c->sql + op_tok->off, op_tok->len)
        : attu_ast_binary_op_name(op);
    if (op == ATTU_BINOP_OTHER)   /* see ab_unary */
        ab_defer_error(c, ATTU_SQLSTATE_UNDEFINED_FUNCTION, op_tok->pos,
                       "operator does not exist: %s", e->u.binary.op_text);
    expr_depth(c, e);
    return e;
}

attu_ast_expr *ab_is(attu_parse_ctx *c, attu_ast_expr *arg, attu_ast_is_what w,
                     bool negated, int pos) {
    attu_ast_expr *e = ab_expr(c, ATTU_EXPR_IS, pos);
    e->u.is.arg = arg;
    e->u.is.what = w;
    e->u.is.negated = negated;
    expr_depth(c, e);
    return e;
}

attu_ast_expr *ab_between(attu_parse_ctx *c, attu_ast_expr *arg,
                          attu_ast_expr *lo, attu_ast_expr *hi, bool negated,
                          bool symmetric, int pos) {
    attu_ast_expr *e = ab_expr(c, ATTU_EXPR_BETWEEN, pos);
    e->u.between.arg = arg;
    e->u.between.low = lo;
    e->u.between.high = hi;
    e->u.between.negated = negated;
    e->u.between.symmetric = symmetric;
    expr_depth(c, e);
    return e;
}

attu_ast_expr *ab_like(attu_parse_ctx *c, attu_ast_expr *arg,
                       attu_ast_expr *pat, attu_ast_expr *esc, bool negated,
                       bool ci, int pos) {
    attu_ast_expr *e = ab_expr(c, ATTU_EXPR_LIKE, pos);
    e->u.like.arg = arg;
    e->u.like.pattern = pat;
    e->u.like.escape = esc;
    e->u.like.negated = negated;
    e->u.like.case_insensitive = ci;
    expr_depth(c, e);
    return e;
}

attu_ast_expr *ab_in_list(attu_parse_ctx *c, attu_vec *list, int pos) {
    attu_ast_expr *e = ab_expr(c, ATTU_EXPR_IN_LIST, pos);
    e->u.in_list.list = ab_expr_list(list);
    return e;
}

/* arg = items[0] OR ... OR arg = items[n - 1], as a balanced tree: a
 * long list stays shallow (ATTU_AST_MAX_DEPTH) */
static attu_ast_expr *rows_in(attu_parse_ctx *c, attu_ast_expr *arg, attu_ast_expr **items, int n,
                              const attu_token *t) {
    if (n == 1) return row_comparison(c, ATTU_BINOP_EQ, arg, items[0], t);
    return ab_binary(c, ATTU_BINOP_OR, rows_in(c, arg, items, n / 2, t), rows_in(c, arg, items + n / 2, n - n / 2, t),
                     t);
}

attu_ast_expr *ab_in(attu_parse_ctx *c, attu_ast_expr *arg, attu_ast_expr *in,
                     bool negated, int pos) {
    /* in is the shell built by in_expr; fill in the left side. */
    if (in->kind == ATTU_EXPR_IN_LIST && is_row(arg)) {
        /* (a, b) IN ((x, y), (z, w)): as PostgreSQL, the row equalities
         * ORed, the whole negated for NOT IN (each item must be a row) */
        bool rows = true;
        for (int k = 0; k < in->u.in_list.list.n; k++) rows = rows && is_row(in->u.in_list.list.items[k]);
        if (rows) {
            attu_token t;
            memset(&t, 0, sizeof t);
            t.pos = pos;
            attu_ast_expr *any = rows_in(c, arg, in->u.in_list.list.items, in->u.in_list.list.n, &t);
            return negated ? ab_unary(c, ATTU_UNOP_NOT, any, &t) : any;
        }
    }
    if (in->kind == ATTU_EXPR_IN_LIST) {
        in->u.in_list.arg = arg;
        in->u.in_list.negated = negated;
    } else {
        in->kind = ATTU_EXPR_IN_SUBQUERY;
        attu_ast_query *q = in->u.subquery.query;
        in->u.in_subquery.arg = arg;
        in->u.in_subquery.query = q;
        in->u.in_subquery.negated = negated;
    }
    in->position = pos;
    expr_depth(c, in);
    return in;
}

attu_ast_expr *ab_subquery(attu_parse_ctx *c, attu_ast_expr_kind k,
                           attu_ast_query *q, int pos) {
    attu_ast_expr *e = ab_expr(c, k == ATTU_EXPR_IN_SUBQUERY ? ATTU_EXPR_SUBQUERY : k,
                               pos);
    e->u.subquery.query = q;
    expr_depth(c, e);
    return e;
}

attu_ast_expr *ab_cast(attu_parse_ctx *c, attu_ast_expr *arg,
                       const attu_ast_typename *t, attu_ast_cast_syntax s,
                       int pos) {
    attu_ast_expr *e = ab_expr(c, ATTU_EXPR_CAST, pos);
    e->u.cast.arg = arg;
    e->u.cast.type = *t;
    e->u.cast.syntax = s;
    expr_depth(c, e);
    return e;
}

attu_ast_expr *ab_case(attu_parse_ctx *c, attu_ast_expr *operand,
                       attu_vec *whens, attu_ast_expr *else_, int pos) {
    attu_ast_expr *e = ab_expr(c, ATTU_EXPR_CASE, pos);
    e->u.case_.operand = operand;
    e->u.case_.whens = whens ? whens->items : NULL;
    e->u.case_.nwhens = whens ? whens->n : 0;
    e->u.case_.else_ = else_;
    expr_depth(c, e);
    return e;
}

attu_ast_expr *ab_func(attu_parse_ctx *c, const char *schema, const char *name,
                       attu_vec *args, int pos) {
    attu_ast_expr *e = ab_expr(c, ATTU_EXPR_FUNC, pos);
    e->u.func.schema = (char *)schema;
    e->u.func.name = (char *)name;
    e->u.func.args = ab_expr_list(args);
    expr_depth(c, e);
    return e;
}

static attu_ast_expr *funcn(attu_parse_ctx *c, const char *name, int pos,
                            attu_ast_expr *a, attu_ast_expr *b,
                            attu_ast_expr *d) {
    attu_vec v = {0};
    attu_ast_expr *args[3] = { a, b, d };
    for (int i = 0; i < 3 && args[i]; i++)
        ab_vec_push(c, &v, &args[i], sizeof args[i]);
    return ab_func(c, NULL, name, v.n ? &v : NULL, pos);
}

attu_ast_expr *ab_func0(attu_parse_ctx *c, const char *name, int pos) {
    return funcn(c, name, pos, NULL, NULL, NULL);
}
attu_ast_expr *ab_func1(attu_parse_ctx *c, const char *name, attu_ast_expr *a,
                        int pos) {
    return funcn(c, name, pos, a, NULL, NULL);
}
attu_ast_expr *ab_func2(attu_parse_ctx *c, const char *name, attu_ast_expr *a,
                        attu_ast_expr *b, int pos) {
    return funcn(c, name, pos, a, b, NULL);
}
attu_ast_expr *ab_func3(attu_parse_ctx *c, const char *name, attu_ast_expr *a,
                        attu_ast_expr *b, attu_ast_expr *d, int pos) {
    return funcn(c, name, pos, a, b, d);
}

attu_ast_expr *ab_quantified(attu_parse_ctx *c, attu_ast_expr *arg,
                             const attu_token *op_tok, bool all,
                             attu_ast_query *q) {
    static const struct { const char *text; attu_ast_binary_op op; } ops[] = {
        { "=", ATTU_BINOP_EQ }, { "<>", ATTU_BINOP_NE }, { "!=", ATTU_BINOP_NE },
        { "<", ATTU_BINOP_LT }, { "<=", ATTU_BINOP_LE }, { ">", ATTU_BINOP_GT },
        { ">=", ATTU_BINOP_GE }, { "+", ATTU_BINOP_ADD }, { "-", ATTU_BINOP_SUB },
        { "*", ATTU_BINOP_MUL }, { "/", ATTU_BINOP_DIV }, { "%", ATTU_BINOP_MOD },
        { "^", ATTU_BINOP_POW }, { "||", ATTU_BINOP_CONCAT },
    };
    attu_ast_expr *e = ab_expr(c, ATTU_EXPR_QUANTIFIED, op_tok->pos);
    e->u.quantified.arg = arg;
    e->u.quantified.all = all;
    e->u.quantified.query = q;
    e->u.quantified.op = ATTU_BINOP_OTHER;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        size_t n = strlen(ops[i].text);
        if (op_tok->len == n && memcmp(c->sql + op_tok->off, ops[i].text, n) == 0)
            e->u.quantified.op = ops[i].op;
    }
    if (e->u.quantified.op == ATTU_BINOP_OTHER) {
        e->u.quantified.op_text = ab_strndup(c, c->sql + op_tok->off, op_tok->len);
        ab_defer_error(c, ATTU_SQLSTATE_UNDEFINED_FUNCTION, op_tok->pos,
                       "operator does not exist: %s", e->u.quantified.op_text);
    } else {
        e->u.quantified.op_text = attu_ast_binary_op_name(e->u.quantified.op);
    }
    expr_depth(c, e);
    return e;
}

attu_ast_expr *ab_extract(attu_parse_ctx *c, const char *field,
                          attu_ast_expr *arg, int pos) {
    attu_ast_expr *e = ab_expr(c, ATTU_EXPR_EXTRACT, pos);
    /* Fields are case-insensitive even when written as a string. */
    size_t n = strlen(field);
    char *f = ab_alloc(c, n + 1);
    for (size_t i = 0; i < n; i++)
        f[i] = (field[i] >= 'A' && field[i] <= 'Z') ? (char)(field[i] - 'A' + 'a')
                                                    : field[i];
    e->u.extract.field = f;
    e->u.extract.arg = arg;
    expr_depth(c, e);
    return e;
}

/* ---- lists --------------------------------------------------------------- */

attu_ast_expr_list ab_expr_list(attu_vec *v) {
    attu_ast_expr_list l = { NULL, 0 };
    if (v && v->n) { l.items = v->items; l.n = v->n; }
    return l;
}

attu_ast_order_list ab_order_list(attu_vec *v) {
    attu_ast_order_list l = { NULL, 0 };
    if (v && v->n) { l.items = v->items; l.n = v->n; }
    return l;
}

attu_names *ab_names_new(attu_parse_ctx *c) {
    return ab_alloc(c, sizeof(attu_names));
}

attu_names *ab_names_push(attu_parse_ctx *c, attu_names *l, const char *name,
                          int pos) {
    if (!l) l = ab_names_new(c);
    ab_vec_push(c, &l->names, &name, sizeof name);
    ab_vec_push(c, &l->positions, &pos, sizeof pos);
    return l;
}

attu_names *ab_names_push_target(attu_parse_ctx *c, attu_names *l, attu_ast_expr *target) {
    const attu_ast_expr *col = target;
    while (col->kind == ATTU_EXPR_FUNC) col = col->u.func.args.items[0];
    if (!l) l = ab_names_new(c);
    while (l->targets.n < l->names.n) {   /* the plain names before it */
        attu_ast_expr *none = NULL;
        ab_vec_push(c, &l->targets, &none, sizeof none);
    }
    ab_names_push(c, l, col->u.column.name, col->position);
    ab_vec_push(c, &l->targets, &target, sizeof target);
    return l;
}

void ab_insert_columns(attu_parse_ctx *c, attu_ast_stmt *s, attu_names *l) {
    s->u.insert.columns = ab_names(l);
    if (!l || !l->targets.n) return;
    while (l->targets.n < l->names.n) {
        attu_ast_expr *none = NULL;
        ab_vec_push(c, &l->targets, &none, sizeof none);
    }
    s->u.insert.targets = l->targets.items;
}

attu_names *ab_names_push_rel(attu_parse_ctx *c, attu_names *l, const char *name, int pos, char schema) {
    if (!l) l = ab_names_new(c);
    if (schema || l->schemas.n) {
        char none = ATTU_REL_PATH;
        while (l->schemas.n < l->names.n) ab_vec_push(c, &l->schemas, &none, 1);   /* (the names before it) */
        ab_vec_push(c, &l->schemas, &schema, 1);
    }
    return ab_names_push(c, l, name, pos);
}

attu_ast_name_list ab_names(attu_names *l) {
    attu_ast_name_list r = { NULL, NULL, 0, NULL };
    if (l && l->names.n) {
        r.items = l->names.items;
        r.positions = l->positions.items;
        r.n = l->names.n;
        if (l->schemas.n == l->names.n) r.schemas = l->schemas.items;   /* (ab_names_push_rel) */
    }
    return r;
}

attu_ast_name_list ab_name_list(attu_vec *names, attu_vec *positions) {
    attu_ast_name_list r = { NULL, NULL, 0, NULL };
    if (names && names->n) {
        r.items = names->items;
        r.positions = positions->items;
        r.n = names->n;
    }
    return r;
}

/* ---- queries and statements ---------------------------------------------- */

attu_ast_query *ab_query(attu_parse_ctx *c, attu_ast_query_kind k, int pos) {
    attu_ast_query *q = ab_alloc(c, sizeof *q);
    q->kind = k;
    q->position = pos;
    q->depth = 1;
    return q;
}

attu_ast_query *ab_setop(attu_parse_ctx *c, attu_ast_setop op, bool all,
                         attu_ast_query *l, attu_ast_query *r, int pos) {
    attu_ast_query *q = ab_query(c, ATTU_QUERY_SETOP, pos);
    q->u.setop.op = op;
    q->u.setop.all = all;
    q->u.setop.left = l;
    q->u.setop.right = r;
    ab_query_finish(c, q);
    return q;
}

attu_ast_query *ab_select_options(attu_parse_ctx *c, attu_ast_query *q,
                                  attu_vec *order, attu_limit *lim,
                                  attu_vec *with, bool recursive,
                                  int with_pos) {
    if (order && order->n) {
        if (q->order_by.n) {
            attu_ast_order_item *it = order->items;
            ab_error(c, ATTU_SQLSTATE_SYNTAX, it[0].position,
                     "multiple ORDER BY clauses not allowed");
            return q;
        }
        q->order_by = ab_order_list(order);
    }
    if (lim) {
        if (lim->offset) {
            if (q->offset) {
                ab_error(c, ATTU_SQLSTATE_SYNTAX, lim->offset->position,
                         "multiple OFFSET clauses not allowed");
                return q;
            }
            q->offset = lim->offset;
        }
        if (lim->has_limit) {
            if (q->limit) {
                ab_error(c, ATTU_SQLSTATE_SYNTAX,
                         lim->limit ? lim->limit->position : lim->limit_pos,
                         "multiple LIMIT clauses not allowed");
                return q;
            }
            q->limit = lim->limit;
        }
        /* As PostgreSQL: WITH TIES already attached (a parenthesised
         * query's) and this clause only an OFFSET is 42601 (a count would
         * have been "multiple LIMIT clauses" above); WITH TIES needs this
         * query's ORDER BY. Neither message has a position in PostgreSQL. */
        if (q->limit_with_ties) {
            ab_error(c, ATTU_SQLSTATE_SYNTAX, 0, "multiple limit options not allowed");
            return q;
        }
        if (lim->with_ties && !q->order_by.n) {
            ab_error(c, ATTU_SQLSTATE_SYNTAX, 0, "WITH TIES cannot be specified without ORDER BY clause");
            return q;
        }
        q->limit_with_ties = lim->with_ties;
    }
    if (with && with->n) {
        if (q->with.n) {
            ab_error(c, ATTU_SQLSTATE_SYNTAX, with_pos,
                     "multiple WITH clauses not allowed");
            return q;
        }
        q->with.items = with->items;
        q->with.n = with->n;
        q->with.recursive = recursive;
    }
    /* OVER w in this query's ORDER BY */
    ab_windows_resolve(c, q, q->position);
    ab_query_finish(c, q);
    return q;
}

attu_ast_stmt *ab_stmt(attu_parse_ctx *c, attu_ast_stmt_kind k, int pos) {
    attu_ast_stmt *s = ab_alloc(c, sizeof *s);
    s->kind = k;
    s->position = pos;
    return s;
}

void ab_add_stmt(attu_parse_ctx *c, attu_ast_stmt *s) {
    ab_windows_end_statement(c);
    ab_into_refuse(c, NULL, NULL);
    if (c->failed) return;
    attu_parsed_stmt ps;
    ps.stmt = s;
    ps.start = c->stmt_start;
    ps.len = c->prev_end > c->stmt_start ? c->prev_end - c->stmt_start : 0;
    ps.nparams = c->max_param;
    ps.param_used = NULL;
    if (c->max_param) {
        bool *used = ab_alloc(c, sizeof *used * (size_t)(c->max_param + 1));
        if (used && c->param_used) {
            memcpy(used, c->param_used, sizeof *used * (size_t)(c->max_param + 1));
            ps.param_used = used;
        }
    }
    ab_vec_push(c, &c->stmts, &ps, sizeof ps);
}

/* ---- SELECT ... INTO ------------------------------------------------------ */

void ab_into_note(attu_parse_ctx *c, attu_ast_query *q, const char *name, int pos) {
    ab_into in = { q, name, pos, c->into_temp };
    c->into_temp = false;
    ab_vec_push(c, &c->intos, &in, sizeof in);
}

/* q is a leaf of the set operation tree under top (not top itself) */
static bool setop_leaf(const attu_ast_query *top, const attu_ast_query *q) {
    if (!top || top->kind != ATTU_QUERY_SETOP) return false;
    const attu_ast_query *l = top->u.setop.left, *r = top->u.setop.right;
    return l == q || r == q || setop_leaf(l, q) || setop_leaf(r, q);
}

const ab_into *ab_into_take(attu_parse_ctx *c, attu_ast_query *top) {
    const attu_ast_query *first = top;
    while (first && first->kind == ATTU_QUERY_SETOP) first = first->u.setop.left;
    const ab_into *taken = NULL;
    ab_into *in = c->intos.items;
    for (int i = 0; i < c->intos.n; i++) {
        if (in[i].query == first && !taken) taken = &in[i];
        else if (setop_leaf(top, in[i].query))
            ab_defer_error(c, ATTU_SQLSTATE_SYNTAX, in[i].pos,
                           "INTO is only allowed on first SELECT of UNION/INTERSECT/EXCEPT");
        else
            ab_defer_error(c, ATTU_SQLSTATE_SYNTAX, in[i].pos, "SELECT ... INTO is not allowed here");
    }
    c->intos.n = 0;   /* (the arena keeps the items the caller reads) */
    return taken;
}

void ab_into_refuse(attu_parse_ctx *c, const char *sqlstate, const char *msg) {
    if (c->intos.n) {
        const ab_into *in = c->intos.items;
        if (msg) ab_defer_error(c, sqlstate, 0, "%s", msg);
        else ab_defer_error(c, ATTU_SQLSTATE_SYNTAX, in[0].pos, "SELECT ... INTO is not allowed here");
    }
    c->intos.n = 0;
}

/* ---- named windows -------------------------------------------------------- */

typedef struct ab_window_ref_rec {
    attu_ast_window *w;
    const char      *name;
    int              pos;
    bool             bare;     /* OVER w, not OVER (w ...) */
} ab_window_ref_rec;

void ab_window_ref(attu_parse_ctx *c, attu_ast_window *w, const char *name,
                   int pos, bool bare) {
    ab_window_ref_rec r = { w, name, pos, bare };
    w->ref_name = (char *)name;
    ab_vec_push(c, &c->window_refs, &r, sizeof r);
}

/* Merges base into w as PostgreSQL's transformWindowDefinitions does. */
static void merge_window(attu_parse_ctx *c, attu_ast_window *w,
                         const attu_ast_window *base, const char *name, int pos,
                         bool bare) {
    if (bare) {
        int p = w->position;
        *w = *base;
        w->position = p;
        w->name = NULL;
        w->ref_name = (char *)name;
        return;
    }
    if (w->partition_by.n) {
        ab_defer_error(c, "42P20", pos, "cannot override PARTITION BY clause of window \"%s\"", name);
        return;
    }
    w->partition_by = base->partition_by;
    if (base->order_by.n) {
        if (w->order_by.n) {
            ab_defer_error(c, "42P20", pos, "cannot override ORDER BY clause of window \"%s\"", name);
            return;
        }
        w->order_by = base->order_by;
    }
    if (base->frame_mode != ATTU_FRAME_DEFAULT) {
        ab_defer_error(c, "42P20", pos, "cannot copy window \"%s\" because it has a frame clause", name);
        return;
    }
}

static const attu_ast_window *find_window(const attu_ast_window *defs, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (strcmp(defs[i].name, name) == 0) return &defs[i];
    return NULL;
}

/* defs: attu_ast_window pointers (name set, position at the '(' of the
 * spec), whose own references to earlier entries were recorded through
 * ab_window_ref while they were parsed. */
void ab_windows_define(attu_parse_ctx *c, attu_ast_query *q, attu_vec *defs) {
    attu_ast_window **src = defs->items;
    attu_ast_window *w = ab_alloc(c, sizeof *w * (size_t)(defs->n ? defs->n : 1));
    for (int i = 0; i < defs->n; i++) {
        w[i] = *src[i];
        if (find_window(w, i, w[i].name))
            ab_defer_error(c, "42P20", w[i].position, "window \"%s\" is already defined", w[i].name);
    }
    /* A definition may name an earlier one: WINDOW a AS (...), b AS (a ...). */
    ab_window_ref_rec *r = c->window_refs.items;
    for (int k = 0; k < c->window_refs.n; k++) {
        for (int i = 0; i < defs->n; i++) {
            if (r[k].w != src[i]) continue;
            const attu_ast_window *base = find_window(w, i, r[k].name);
            if (!base)
                ab_defer_error(c, "42704", r[k].pos, "window \"%s\" does not exist", r[k].name);
            else
                merge_window(c, &w[i], base, r[k].name, r[k].pos, false);
            w[i].ref_name = (char *)r[k].name;
            r[k].w = NULL;   /* done */
        }
    }
    q->u.select.windows = w;
    q->u.select.nwindows = defs->n;
}

void ab_windows_resolve(attu_parse_ctx *c, attu_ast_query *q, int from_pos) {
    ab_window_ref_rec *r = c->window_refs.items;
    int keep = 0;
    for (int k = 0; k < c->window_refs.n; k++) {
        if (!r[k].w) continue;
        if (r[k].pos < from_pos) { r[keep++] = r[k]; continue; }
        const attu_ast_window *base = NULL;
        if (q && q->kind == ATTU_QUERY_SELECT)
            base = find_window(q->u.select.windows, q->u.select.nwindows, r[k].name);
        if (!base)
            ab_defer_error(c, "42704", r[k].pos, "window \"%s\" does not exist", r[k].name);
        else
            merge_window(c, r[k].w, base, r[k].name, r[k].pos, r[k].bare);
    }
    c->window_refs.n = keep;
}

void ab_windows_end_statement(attu_parse_ctx *c) {
    ab_windows_resolve(c, NULL, 0);
}

bool attu_ast_group_construct(const attu_ast_expr *e, char *kind) {
    if (!e || e->kind != ATTU_EXPR_FUNC) return false;
    const char *sch = e->u.func.schema, *nm = e->u.func.name;
    char k = 0;
    if (sch && !*sch) k = !strcmp(nm, "()") ? 'e' : 's';
    else if (!sch && !e->u.func.star && !e->u.func.distinct && !e->u.func.order_by.n && !e->u.func.filter &&
             !e->u.func.over && !e->u.func.within_group && e->u.func.args.n > 0)
        k = !strcmp(nm, "rollup") ? 'r' : !strcmp(nm, "cube") ? 'c' : 0;
    if (kind) *kind = k;
    return k != 0;
}

/* ROLLUP () / CUBE () in a GROUP BY list: PostgreSQL's syntax error at
 * the ")" (the call's name, "(" and blanks before it are ASCII) */
static bool empty_rollup_cube(attu_parse_ctx *c, const attu_ast_expr *e) {
    if (e->kind != ATTU_EXPR_FUNC || e->u.func.schema || e->u.func.args.n || e->u.func.star || e->u.func.over ||
        e->u.func.filter || (strcmp(e->u.func.name, "rollup") && strcmp(e->u.func.name, "cube")))
        return false;
    size_t off = 0;
    for (int ch = 0; off < c->sql_len; off++)
        if (((unsigned char)c->sql[off] & 0xC0) != 0x80 && ++ch == e->position) break;
    size_t at = off;
    while (at < c->sql_len && c->sql[at] != ')') at++;
    ab_error(c, ATTU_SQLSTATE_SYNTAX, e->position + (int)(at - off), "syntax error at or near \")\"");
    return true;
}

void ab_group_clause(attu_parse_ctx *c, attu_ast_query *q, attu_vec *items, bool distinct) {
    if (!items) return;
    attu_ast_expr_list l = ab_expr_list(items);
    for (int i = 0; i < l.n; i++) if (empty_rollup_cube(c, l.items[i])) return;
    char k;
    if (l.n == 1 && attu_ast_group_construct(l.items[0], &k) && k == 'e') {
        q->u.select.group_empty = true;     /* GROUP BY (): the plain form */
        return;
    }
    bool sets = false;
    for (int i = 0; i < l.n; i++) sets |= attu_ast_group_construct(l.items[i], NULL);
    q->u.select.group_by = l;
    q->u.select.group_sets = sets;
    q->u.select.group_distinct = distinct && sets;
}
