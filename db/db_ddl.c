/*
 * db_ddl.c - CREATE TABLE, CREATE TABLE AS, DROP TABLE and INSERT.
 *
 * Each builds the new table beside the old one under the write lock, saves
 * it to the data directory (when there is one) and only then swaps it into
 * the catalog, so a failure leaves both exactly as they were.
 */
#include "db/db_internal.h"
#include "engine/system_column.h"
#include "engine/failing_row.h"
#include "engine/enum_type.h"
#include "engine/uuid.h"
#include "db/db_index.h"
#include "db/db_check.h"
#include "db/db_domain_check.h"
#include "engine/comments.h"
#include "db/db_fkey.h"
#include "db/db_generated.h"
#include "db/db_keyed_select.h"
#include "db/db_unique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/numeric.h"
#include "engine/storage.h"
#include "engine/strbuf.h"
#include "planner/lexer.h"
#include "planner/lower.h"
#include "planner/rewrite.h"

/* Where PostgreSQL points for "INSERT has more expressions than target
 * columns": the first expression past the columns, of VALUES' first row
 * or a plain SELECT's list, or the * that gave it (else the query's
 * start) */
static int first_extra_position(const attu_ast_query *q, int ncols) {
    const attu_ast_expr *x = NULL;
    if (q->kind == ATTU_QUERY_VALUES && q->u.values.nrows > 0 && q->u.values.rows[0].n > ncols)
        x = q->u.values.rows[0].items[ncols];
    else if (q->kind == ATTU_QUERY_SELECT && q->u.select.nitems > ncols)
        x = q->u.select.items[ncols].expr;
    else if (q->kind == ATTU_QUERY_SELECT)   /* (a * gave the extra column: its position) */
        for (int i = q->u.select.nitems - 1; i >= 0 && !x; i--)
            if (q->u.select.items[i].expr && q->u.select.items[i].expr->kind == ATTU_EXPR_STAR) x = q->u.select.items[i].expr;
    return x && x->position ? x->position : q->position;
}

static attu_lplan *bind_coerced(attu_session *s, attu_plan_arena *pa, const char *sql, const attu_ast_query *q,
                                const attu_bind_params *params, int ncols, bool fewer_ok, const attu_type *types,
                                const char *const *names, attu_error *err);
static attu_result *run_coerced(attu_session *s, const char *sql, const attu_ast_query *q, const attu_bind_params *params,
                                int ncols, bool fewer_ok, const attu_type *types, const char *const *names, attu_error *err);

static int save(attu_session *s, const attu_table *t, attu_error *err) { return db_save_table(s, t, err); }

/* ---- column DEFAULTs -----------------------------------------------------------------------
 *
 * A DEFAULT is kept as SQL text (the catalog holds it beside the table, the
 * data directory in the table's schema file) and evaluated once per
 * statement that needs it: INSERT with a column list or DEFAULT VALUES,
 * COPY FROM with a column list. It is evaluated exactly as that statement
 * would evaluate the same expression written in its VALUES list, so a
 * DEFAULT behaves like the value written out (assignment casts, varchar
 * limits, errors such as 22012 at INSERT time, as in PostgreSQL).
 *
 * The text is not the user's source but a deparse of the parsed expression
 * (the AST does not record where an expression ends). CREATE TABLE (and
 * ALTER TABLE's ADD COLUMN and SET DEFAULT, db_alter.c) binds
 * the written expression (errors point into the CREATE statement, as
 * PostgreSQL's do) and then the deparsed text, so a DEFAULT that is
 * accepted is known to re-parse and bind. Only constant expressions are
 * accepted: literals, casts, operators and functions of them, and the
 * clock of the transaction (now(), current_timestamp, current_date,
 * localtimestamp...), which is one value for the whole statement as in
 * PostgreSQL. random() and the like are refused (0A000, where PostgreSQL
 * accepts them), as are column references and subqueries (0A000 with
 * PostgreSQL's messages), aggregates (42803) and window functions
 * (42P20). */

typedef attu_strbuf dbuf;   /* (engine/strbuf.h: an allocation failure sets oom) */
#define dput  attu_strbuf_add
#define dputs attu_strbuf_puts

static bool name_in(const char *name, const char *const *list) {
    for (int i = 0; list[i]; i++) if (!strcmp(list[i], name)) return true;
    return false;
}

static const char *const default_aggregates[] = {
    "count", "sum", "avg", "min", "max", "bool_and", "bool_or", "every", "nth_smallest", "nth_smallest_arg",
    "nth_largest", "nth_largest_arg", "variance", "var_samp", "var_pop", "stddev", "stddev_samp",
    "stddev_pop", "string_agg", "array_agg", "corr", "covar_pop", "covar_samp", "regr_avgx", "regr_avgy",
    "regr_count", "regr_intercept", "regr_r2", "regr_slope", "regr_sxx", "regr_sxy", "regr_syy", "bit_and",
    "bit_or", "bit_xor", NULL
};
/* Not constant: evaluated once per statement, the per-row ones would repeat
 * one value in every row (clock_timestamp among them). The transaction's
 * clock (now() and its kin) is one value per statement in PostgreSQL too,
 * so it is accepted. */
static const char *const default_not_constant[] = {
    "random", "clock_timestamp", "timeofday", "gen_random_uuid", "nextval", "setseed", "random_normal", NULL
};
/* SQL's keyword functions, written without parentheses when they have no
 * argument (current_timestamp() is no SQL) */
static const char *const default_keyword_functions[] = {
    "current_date", "current_timestamp", "localtimestamp", "current_time", "localtime", NULL
};

/* A generation expression's deparse (db_deparse_generated): column
 * references allowed, PostgreSQL's words for what it may not hold, and
 * whether it calls a function that is not immutable. NULL: a DEFAULT's. */
typedef struct gen_ctx { bool mutable_; } gen_ctx;
/* Functions PostgreSQL does not mark immutable (volatile or stable) that
 * a generation expression may not call. */
static const char *const generated_not_immutable[] = {
    "random", "clock_timestamp", "timeofday", "gen_random_uuid", "nextval", "currval", "lastval", "setval",
    "setseed", "random_normal", "now", "statement_timestamp", "transaction_timestamp", "current_date",
    "current_timestamp", "localtimestamp", "current_time", "localtime", "current_setting", "pg_backend_pid",
    "txid_current", "pg_sleep", "to_char", "age", "current_user", "session_user", "current_schema", NULL
};
static int deparse_default(const attu_ast_expr *e, dbuf *b, gen_ctx *g, attu_error *err);

static int deparse_list(const attu_ast_expr_list *l, dbuf *b, gen_ctx *g, attu_error *err) {
    for (int i = 0; i < l->n; i++) {
        if (i) dputs(b, ", ");
        if (deparse_default(l->items[i], b, g, err)) return -1;
    }
    return 0;
}

/* Writes e as SQL text that parses back to the same tree (every operator
 * parenthesised), or fails with the error PostgreSQL gives for what a
 * DEFAULT may not contain. */
static int deparse_default(const attu_ast_expr *e, dbuf *b, gen_ctx *g, attu_error *err) {
    switch (e->kind) {
    case ATTU_EXPR_LITERAL:
        switch (e->u.literal.kind) {
        case ATTU_LIT_INTEGER: case ATTU_LIT_NUMERIC:
            if (e->u.literal.text[0] == '-') { dputs(b, "("); dputs(b, e->u.literal.text); dputs(b, ")"); }
            else dputs(b, e->u.literal.text);
            return 0;
        case ATTU_LIT_STRING:
            /* standard_conforming_strings: only the quote is doubled */
            dputs(b, "'");
            for (size_t i = 0; i < e->u.literal.len; i++) {
                if (e->u.literal.text[i] == '\'') dputs(b, "'");
                dput(b, &e->u.literal.text[i], 1);
            }
            dputs(b, "'");
            return 0;
        case ATTU_LIT_BOOL: dputs(b, !strcmp(e->u.literal.text, "true") ? "TRUE" : "FALSE"); return 0;
        case ATTU_LIT_NULL: dputs(b, "NULL"); return 0;
        }
        break;
    case ATTU_EXPR_COLUMN:
        if (g && !e->u.column.qualifier) {
            /* (quoted only where quote_ident would, as pg_get_expr) */
            if (attu_ident_needs_quotes(e->u.column.name)) attu_strbuf_quote_ident(b, e->u.column.name);
            else dputs(b, e->u.column.name);
            return 0;
        }
        if (g) break;
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "cannot use column reference in DEFAULT expression");
    case ATTU_EXPR_SUBQUERY: case ATTU_EXPR_EXISTS: case ATTU_EXPR_IN_SUBQUERY: case ATTU_EXPR_QUANTIFIED:
        if (g)
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                                  "cannot use subquery in column generation expression");
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "cannot use subquery in DEFAULT expression");
    case ATTU_EXPR_PARAM:
        return attu_error_set(err, "42P02", e->position, "there is no parameter $%d", e->u.param.number);
    case ATTU_EXPR_UNARY:
        if (e->u.unary.op == ATTU_UNOP_OTHER) break;
        dputs(b, e->u.unary.op == ATTU_UNOP_NOT ? "(NOT " : e->u.unary.op == ATTU_UNOP_NEG ? "(- " : "(+ ");
        if (deparse_default(e->u.unary.arg, b, g, err)) return -1;
        dputs(b, ")");
        return 0;
    case ATTU_EXPR_BINARY:
        if (e->u.binary.op == ATTU_BINOP_OTHER) break;
        dputs(b, "(");
        if (deparse_default(e->u.binary.left, b, g, err)) return -1;
        dputs(b, " "); dputs(b, attu_ast_binary_op_name(e->u.binary.op)); dputs(b, " ");
        if (deparse_default(e->u.binary.right, b, g, err)) return -1;
        dputs(b, ")");
        return 0;
    case ATTU_EXPR_IS: {
        static const char *what[] = { "", "NULL", "TRUE", "FALSE", "UNKNOWN" };
        if (e->u.is.what < ATTU_IS_NULL || e->u.is.what > ATTU_IS_UNKNOWN) break;
        dputs(b, "(");
        if (deparse_default(e->u.is.arg, b, g, err)) return -1;
        dputs(b, e->u.is.negated ? " IS NOT " : " IS "); dputs(b, what[e->u.is.what]); dputs(b, ")");
        return 0;
    }
    case ATTU_EXPR_BETWEEN:
        dputs(b, "(");
        if (deparse_default(e->u.between.arg, b, g, err)) return -1;
        dputs(b, e->u.between.negated ? " NOT BETWEEN " : " BETWEEN ");
        if (e->u.between.symmetric) dputs(b, "SYMMETRIC ");
        if (deparse_default(e->u.between.low, b, g, err)) return -1;
        dputs(b, " AND ");
        if (deparse_default(e->u.between.high, b, g, err)) return -1;
        dputs(b, ")");
        return 0;
    case ATTU_EXPR_IN_LIST:
        dputs(b, "(");
        if (deparse_default(e->u.in_list.arg, b, g, err)) return -1;
        dputs(b, e->u.in_list.negated ? " NOT IN (" : " IN (");
        if (deparse_list(&e->u.in_list.list, b, g, err)) return -1;
        dputs(b, "))");
        return 0;
    case ATTU_EXPR_LIKE:
        dputs(b, "(");
        if (deparse_default(e->u.like.arg, b, g, err)) return -1;
        dputs(b, e->u.like.negated ? " NOT" : "");
        dputs(b, e->u.like.case_insensitive ? " ILIKE " : " LIKE ");
        if (deparse_default(e->u.like.pattern, b, g, err)) return -1;
        if (e->u.like.escape) {
            dputs(b, " ESCAPE ");
            if (deparse_default(e->u.like.escape, b, g, err)) return -1;
        }
        dputs(b, ")");
        return 0;
    case ATTU_EXPR_CASE:
        dputs(b, "(CASE");
        if (e->u.case_.operand) { dputs(b, " "); if (deparse_default(e->u.case_.operand, b, g, err)) return -1; }
        for (int i = 0; i < e->u.case_.nwhens; i++) {
            dputs(b, " WHEN ");
            if (deparse_default(e->u.case_.whens[i].when, b, g, err)) return -1;
            dputs(b, " THEN ");
            if (deparse_default(e->u.case_.whens[i].then, b, g, err)) return -1;
        }
        if (e->u.case_.else_) { dputs(b, " ELSE "); if (deparse_default(e->u.case_.else_, b, g, err)) return -1; }
        dputs(b, " END)");
        return 0;
    case ATTU_EXPR_CAST: {
        const attu_ast_typename *t = &e->u.cast.type;
        dputs(b, "CAST(");
        if (deparse_default(e->u.cast.arg, b, g, err)) return -1;
        dputs(b, " AS "); dputs(b, t->name);
        if (t->precision >= 0) {
            char num[48];
            if (t->scale >= 0) snprintf(num, sizeof num, "(%d, %d)", t->precision, t->scale);
            else snprintf(num, sizeof num, "(%d)", t->precision);
            dputs(b, num);
        }
        dputs(b, ")");
        return 0;
    }
    case ATTU_EXPR_EXTRACT:
        dputs(b, "EXTRACT("); dputs(b, e->u.extract.field); dputs(b, " FROM ");
        if (deparse_default(e->u.extract.arg, b, g, err)) return -1;
        dputs(b, ")");
        return 0;
    case ATTU_EXPR_FUNC: {
        const char *name = e->u.func.name;
        if (g && e->u.func.over)
            return attu_error_set(err, "42P20", e->position, "window functions are not allowed in column generation expressions");
        if (g && (e->u.func.star || e->u.func.distinct || e->u.func.filter || e->u.func.order_by.n || name_in(name, default_aggregates)))
            return attu_error_set(err, ATTU_SQLSTATE_GROUPING, e->position,
                                  "aggregate functions are not allowed in column generation expressions");
        if (g) g->mutable_ |= name_in(name, generated_not_immutable);
        if (e->u.func.over)
            return attu_error_set(err, "42P20", e->position, "window functions are not allowed in DEFAULT expressions");
        if (e->u.func.star || e->u.func.distinct || e->u.func.filter || e->u.func.order_by.n || name_in(name, default_aggregates))
            return attu_error_set(err, ATTU_SQLSTATE_GROUPING, e->position, "aggregate functions are not allowed in DEFAULT expressions");
        if (!g && !strcmp(name, "nextval"))   /* (the whole DEFAULT nextval('s') never comes here: db_sequence.c) */
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                                  "DEFAULT nextval() is supported only as the whole DEFAULT, nextval('sequence')");
        if (!g && !strcmp(name, "gen_random_uuid"))   /* (the whole DEFAULT gen_random_uuid() never comes here) */
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                                  "DEFAULT gen_random_uuid() is supported only as the whole DEFAULT, gen_random_uuid()");
        if (!g && name_in(name, default_not_constant))
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                                  "DEFAULT %s() is not supported: a DEFAULT must be a constant expression", name);
        if (!strcmp(name, "row")) break;
        if (!e->u.func.schema && !strcmp(name, " array")) {
            /* ARRAY[...] (its sub-arrays ARRAY[...] too) */
            dputs(b, "ARRAY[");
            if (deparse_list(&e->u.func.args, b, g, err)) return -1;
            dputs(b, "]");
            return 0;
        }
        if (!e->u.func.schema && !strcmp(name, "position") && e->u.func.args.n == 2) {
            /* POSITION(a IN b) arrives as position(b, a) */
            dputs(b, "POSITION(");
            if (deparse_default(e->u.func.args.items[1], b, g, err)) return -1;
            dputs(b, " IN ");
            if (deparse_default(e->u.func.args.items[0], b, g, err)) return -1;
            dputs(b, ")");
            return 0;
        }
        if (!e->u.func.schema && e->u.func.args.n == 0 && name_in(name, default_keyword_functions)) {
            dputs(b, name);
            return 0;
        }
        if (e->u.func.schema) { dputs(b, e->u.func.schema); dputs(b, "."); }
        dputs(b, name); dputs(b, "(");
        if (deparse_list(&e->u.func.args, b, g, err)) return -1;
        dputs(b, ")");
        return 0;
    }
    default:
        break;
    }
    if (g) return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "this generation expression is not supported");
    return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position, "this DEFAULT expression is not supported");
}

/* A one-row VALUES query over items, for binding DEFAULT expressions. */
static attu_ast_query values_row(attu_ast_expr **items, int n, int position) {
    attu_ast_query q;
    memset(&q, 0, sizeof q);
    q.kind = ATTU_QUERY_VALUES;
    q.position = position;
    for (int i = 0; i < n; i++) if (items[i]->depth + 1 > q.depth) q.depth = items[i]->depth + 1;
    return q;
}

/* PostgreSQL names the DEFAULT in its type mismatch error, with no
 * position (a generated column's expression too: db_generated.c). */
void db_default_mismatch_message(attu_error *err) {
    const char *what = " but expression is of type ";
    char *at = strstr(err->message, what);
    if (strcmp(err->sqlstate, ATTU_SQLSTATE_DATATYPE_MISMATCH) || !at) return;
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%.*s but default expression is of type %s", (int)(at - err->message), err->message, at + strlen(what));
    snprintf(err->message, sizeof err->message, "%s", msg);
    err->position = 0;
    /* PostgreSQL's advice here is a HINT */
    if (err->detail[0] && !err->hint[0]) {
        size_t m = strnlen(err->detail, sizeof err->hint - 1);
        memcpy(err->hint, err->detail, m);
        err->hint[m] = '\0';
        err->detail[0] = '\0';
    }
}

char *db_deparse_default(const attu_ast_expr *e, attu_error *err) {
    dbuf b = { 0 };
    if (deparse_default(e, &b, NULL, err)) { free(b.p); return NULL; }
    if (b.oom || !b.p) { free(b.p); attu_error_oom(err); return NULL; }
    return b.p;
}

char *db_deparse_generated(const attu_ast_expr *e, bool *mutable_, attu_error *err) {
    dbuf b = { 0 };
    gen_ctx g = { false };
    if (deparse_default(e, &b, &g, err)) { free(b.p); return NULL; }
    if (b.oom || !b.p) { free(b.p); attu_error_oom(err); return NULL; }
    *mutable_ = g.mutable_;
    return b.p;
}

attu_result *db_run_coerced(attu_session *s, const char *sql, const attu_ast_query *q, int ncols,
                            const attu_type *types, const char *const *names, attu_error *err) {
    return run_coerced(s, sql, q, NULL, ncols, false, types, names, err);
}

char *db_check_default(attu_session *s, const char *sql, const attu_ast_column_def *cd, const attu_column_def *def,
                       attu_error *err) {
    dbuf b = { 0 };
    dputs(&b, "VALUES (");
    size_t start = b.n;
    const attu_ast_expr *de = cd->default_;
    if (de->kind == ATTU_EXPR_FUNC && !de->u.func.schema && !strcmp(de->u.func.name, "gen_random_uuid") &&
        !de->u.func.args.n && !de->u.func.star && !de->u.func.distinct && !de->u.func.over && !de->u.func.filter &&
        !de->u.func.order_by.n)
        /* the whole DEFAULT gen_random_uuid(): one value per row
         * (db_eval_defaults), as PostgreSQL's volatile default */
        dputs(&b, DB_DEFAULT_RANDOM_UUID);
    else if (deparse_default(cd->default_, &b, NULL, err)) { free(b.p); return NULL; }
    dputs(&b, ")");
    if (b.oom) { free(b.p); attu_error_oom(err); return NULL; }
    const char *names[1] = { def->name };
    attu_ast_expr *items[1] = { cd->default_ };
    attu_ast_expr_list row = { items, 1 };
    attu_ast_query q = values_row(items, 1, cd->default_->position);
    q.u.values.rows = &row;
    q.u.values.nrows = 1;
    /* the expression as written: errors point into the statement */
    attu_plan_arena *pa = attu_plan_arena_new();
    if (!pa) { free(b.p); attu_error_oom(err); return NULL; }
    attu_lplan *lp = bind_coerced(s, pa, sql, &q, NULL, 1, false, &def->type, names, err);
    attu_plan_arena_free(pa);
    if (!lp) { db_default_mismatch_message(err); free(b.p); return NULL; }
    /* the text that will be kept must mean the same */
    attu_error e2;
    attu_error_clear(&e2);
    attu_parse_result *pr = attu_parse(b.p, &e2);
    lp = NULL;
    if (pr && pr->n == 1 && pr->stmts[0].stmt->kind == ATTU_STMT_SELECT && (pa = attu_plan_arena_new())) {
        lp = bind_coerced(s, pa, b.p, pr->stmts[0].stmt->u.select.query, NULL, 1, false, &def->type, names, &e2);
        attu_plan_arena_free(pa);
    }
    attu_parse_free(pr);
    if (!lp) {
        attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, cd->default_->position,
                       "this DEFAULT expression is not supported: %s", e2.set ? e2.message : "it cannot be stored");
        free(b.p);
        return NULL;
    }
    memmove(b.p, b.p + start, b.n - start - 1);   /* keep only the expression */
    b.p[b.n - start - 1] = '\0';
    return b.p;
}

/* Runs the stored DEFAULT text b ("VALUES (d, ...)", k items) as one row
 * assigned to types: *out, or -1 with err (no position: the text is ours,
 * not the user's). */
static int run_default_text(attu_session *s, const char *b, int k, const attu_type *types, const char *const *names,
                            const char *table, attu_result **out, attu_error *err) {
    attu_parse_result *pr = attu_parse(b, err);
    if (pr && pr->n == 1 && pr->stmts[0].stmt->kind == ATTU_STMT_SELECT)
        *out = run_coerced(s, b, pr->stmts[0].stmt->u.select.query, NULL, k, false, types, names, err);
    else if (pr) attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "stored DEFAULT expressions of \"%s\" do not parse", table);
    attu_parse_free(pr);
    if (*out) return 0;
    err->position = 0;
    return -1;
}

int db_eval_default(attu_session *s, const char *dflt, const attu_column_def *def, const char *table,
                    attu_result **out, attu_error *err) {
    *out = NULL;
    dbuf b = { 0 };
    dputs(&b, "VALUES (");
    dputs(&b, dflt);
    dputs(&b, ")");
    const char *names[1] = { def->name };
    int rc = b.oom ? attu_error_oom(err) : run_default_text(s, b.p, 1, &def->type, names, table, out, err);
    free(b.p);
    return rc;
}

attu_column *db_random_uuid_column(attu_type t, size_t nrows, attu_error *err) {
    char *text = malloc((ATTU_UUID_TEXT_LEN + 1) * (nrows ? nrows : 1));
    const char **strs = malloc(sizeof *strs * (nrows ? nrows : 1));
    if (!text || !strs) { free(text); free(strs); attu_error_oom(err); return NULL; }
    for (size_t i = 0; i < nrows; i++) {
        uint8_t u[16];
        attu_uuid_random(u);
        char *p = text + i * (ATTU_UUID_TEXT_LEN + 1);
        attu_uuid_format(u, p);
        p[ATTU_UUID_TEXT_LEN] = 0;
        strs[i] = p;
    }
    attu_column *col = db_text_column(strs, nrows, err);
    free(text); free(strs);
    if (col) col->type = t;
    return col;
}

/* DEFAULT gen_random_uuid() columns: a fresh uuid per row, appended to the
 * defaults' result *out (made where there is none). */
static int random_uuid_columns(const attu_table *base, const int *cols, int nu, size_t nrows, int *map, int first,
                               attu_result **out, attu_error *err) {
    attu_result *r = *out ? *out : db_result_new(0);
    int have = r ? r->ncols : 0;
    attu_column **nc = r ? realloc(r->cols, sizeof *nc * (size_t)(have + nu + 1)) : NULL;
    if (nc) r->cols = nc;
    attu_result_column *nd = nc ? realloc(r->desc, sizeof *nd * (size_t)(have + nu + 1)) : NULL;
    if (nd) r->desc = nd;
    int rc = r && nc && nd ? 0 : attu_error_oom(err);
    for (int j = 0; j < nu && !rc; j++) {
        attu_column *col = db_random_uuid_column(base->defs[cols[j]].type, nrows, err);
        if (!col) { rc = -1; break; }
        r->cols[have + j] = col;
        memset(&r->desc[have + j], 0, sizeof r->desc[have + j]);
        r->desc[have + j].type = col->type;
        map[cols[j]] = first + have + j;
        r->ncols = have + j + 1;
    }
    if (r && !*out) { if (rc) attu_result_free(r); else *out = r; }
    else if (rc) { attu_result_free(*out); *out = NULL; }
    return rc;
}

int db_eval_defaults(attu_session *s, const attu_table *base, int *map, int first, size_t nrows, attu_result **out,
                     attu_error *err) {
    *out = NULL;
    int k = 0, m = 0;
    dbuf b = { 0 };
    attu_type *types = calloc((size_t)base->ncols + 1, sizeof *types);
    const char **names = calloc((size_t)base->ncols + 1, sizeof *names);
    int *seqcols = calloc((size_t)base->ncols + 1, sizeof *seqcols);
    int *uuidcols = calloc((size_t)base->ncols + 1, sizeof *uuidcols);
    int nu = 0;
    if (!types || !names || !seqcols || !uuidcols) {
        free(types); free(names); free(seqcols); free(uuidcols);
        return attu_error_oom(err);
    }
    dputs(&b, "VALUES (");
    for (int c = 0; c < base->ncols; c++) {
        char *d = map[c] < 0 ? db_column_default(s, base, c, err) : NULL;
        if (!d) {
            if (err->set) { b.oom = true; break; }
            continue;
        }
        char *seq = db_default_sequence(d);
        if (seq) {   /* nextval: drawn per row below, not a constant */
            free(seq);
            free(d);
            seqcols[m++] = c;
            continue;
        }
        if (!strcmp(d, DB_DEFAULT_RANDOM_UUID)) {   /* one per row below, not a constant */
            free(d);
            uuidcols[nu++] = c;
            continue;
        }
        if (k) dputs(&b, ", ");
        dputs(&b, d);
        free(d);
        types[k] = base->defs[c].type;
        names[k] = base->defs[c].name;
        map[c] = first + k++;
    }
    dputs(&b, ")");
    int rc = 0;
    if (b.oom) rc = err->set ? -1 : attu_error_oom(err);
    else if (k) rc = run_default_text(s, b.p, k, types, names, base->name, out, err);
    if (!rc && m) {
        /* serial and identity columns (DEFAULT nextval): one value per row,
         * in row order, appended to the constants' columns */
        attu_result *r = *out ? *out : db_result_new(0);
        attu_column **nc = r ? realloc(r->cols, sizeof *nc * (size_t)(k + m + 1)) : NULL;
        if (nc) r->cols = nc;
        attu_result_column *nd = nc ? realloc(r->desc, sizeof *nd * (size_t)(k + m + 1)) : NULL;
        if (nd) r->desc = nd;
        if (!r || !nc || !nd) rc = attu_error_oom(err);
        else if (db_sequence_default_columns(s, base, seqcols, m, nrows, r->cols + k, err)) rc = -1;
        else {
            for (int j = 0; j < m; j++) {
                memset(&r->desc[k + j], 0, sizeof r->desc[k + j]);
                r->desc[k + j].type = base->defs[seqcols[j]].type;
                map[seqcols[j]] = first + k + j;
            }
            r->ncols = k + m;
        }
        if (r && !*out) { if (rc) attu_result_free(r); else *out = r; }
        if (rc) { attu_result_free(*out); *out = NULL; }
    }
    if (!rc && nu) rc = random_uuid_columns(base, uuidcols, nu, nrows, map, first, out, err);
    free(b.p); free(types); free(names); free(seqcols); free(uuidcols);
    return rc;
}

/* serial, bigserial, smallserial (and serial4 / serial8 / serial2): the
 * integer type of the column, which takes a sequence of its own; 0 for
 * any other type name. */
attu_type_id db_serial_type(const char *name, int precision) {
    if (!name || precision >= 0) return 0;
    if (!strcmp(name, "serial") || !strcmp(name, "serial4")) return ATTU_TYPE_INT32;
    if (!strcmp(name, "bigserial") || !strcmp(name, "serial8")) return ATTU_TYPE_INT64;
    if (!strcmp(name, "smallserial") || !strcmp(name, "serial2")) return ATTU_TYPE_INT16;
    return 0;
}

/* CREATE TABLE IF NOT EXISTS of a table that exists: the notice, as
 * PostgreSQL gives it before looking at the columns. */
static int create_exists_notice(const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    if (cb && cb->on_notice) {
        char msg[160];
        snprintf(msg, sizeof msg, "relation \"%s\" already exists, skipping", st->u.create_table.table);
        cb->on_notice(cb->ctx, "42P07", msg);
    }
    return db_deliver_tag(cb, "CREATE TABLE", err) ? -2 : 0;
}

/* A relation of that name: a table, a view, a constraint (PostgreSQL's
 * index) or a sequence; all share one namespace. The caller holds the
 * database's lock, not the sequences' mutex. */
bool db_relation_exists(attu_session *s, const char *name) {
    return attu_catalog_relation_exists(db_cat(s), name) || db_sequence_exists(s, name);
}

int db_column_type(const attu_ast_typename *tn, attu_type *out, attu_error *err) {
    {
        /* a domain's column: its base type as the domain has it (numeric
         * without (p,s) made NUMERIC when the domain was made) */
        const char *n = tn->name && !strncmp(tn->name, "public.", 7) ? tn->name + 7 : tn->name;
        attu_domain_def *d = n ? attu_domain_find(n) : NULL;
        if (d) {
            *out = d->base;
            attu_domain_def_free(d);
            return 0;
        }
    }
    if (attu_type_from_name(tn->name, tn->precision, tn->scale, out, err)) {
        err->position = tn->position;
        return -1;
    }
    if (out->id == ATTU_TYPE_INTERVAL && (tn->ivrange || tn->precision >= 0))
        /* interval day to second(2): the modifier stays with the type
         * (engine/types.h), applied to every value assigned */
        *out = attu_type_interval(tn->ivrange, tn->precision);
    *out = attu_type_array_interval_qualified(*out, tn->ivrange, tn->precision);
    if (out->id == ATTU_TYPE_DECIMAL && tn->precision < 0)
        /* NUMERIC / DECIMAL without (p,s) is PostgreSQL's unconstrained
         * numeric: the wide type with a display scale per value, NaN and
         * the infinities (engine/numeric.h), not a scaled int64 */
        *out = attu_type_make(ATTU_TYPE_NUMERIC);
    return 0;
}

int db_exec_create(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    {
        /* a table's row type would take an enum type's name (PostgreSQL's
         * 42710; engine/enum_type.h) */
        attu_enum_def *d = attu_enum_find(st->u.create_table.table);
        attu_enum_def_free(d);
        attu_domain_def *dd = attu_domain_find(st->u.create_table.table);
        attu_domain_def_free(dd);
        if ((d || dd) && !st->u.create_table.temp) {
            attu_error_set(err, "42710", 0, "type \"%s\" already exists", st->u.create_table.table);
            attu_error_set_hint(err, "A relation has an associated type of the same name, so you must use a name that "
                                     "doesn't conflict with any existing type.");
            return -1;
        }
    }
    if (st->u.create_table.if_not_exists) {
        pthread_rwlock_rdlock(&s->db->lock);
        bool exists = db_relation_exists(s, st->u.create_table.table);
        pthread_rwlock_unlock(&s->db->lock);
        if (exists) return create_exists_notice(st, cb, err);
    }
    /* LIKE elements: the sources' columns in their place (db_create_like.c) */
    db_create_like like;
    const attu_ast_stmt *written = st;
    if (db_create_like_expand(s, st, &like, err)) return -1;
    st = like.st;
    int n = st->u.create_table.ncolumns;
    attu_column_def *defs = calloc((size_t)n + 1, sizeof *defs);
    char **dflt = calloc((size_t)n + 1, sizeof *dflt);
    /* per column: its own sequence to make, 's' serial, 'a' / 'd' identity */
    char *owned = calloc((size_t)n + 1, 1);
    if (!defs || !dflt || !owned) { free(defs); free(dflt); free(owned); db_create_like_free(&like); return attu_error_oom(err); }
    int rc = -1;
    bool made_sequences = false;
    for (int i = 0; i < n; i++) {
        const attu_ast_column_def *cd = &st->u.create_table.columns[i];
        if (attu_check_column_name(cd->name, err)) goto fail;
        snprintf(defs[i].name, sizeof defs[i].name, "%s", cd->name);
        attu_type_id serial = cd->has_type ? 0 : db_serial_type(cd->type.name, cd->type.precision);
        if (cd->has_type) defs[i].type = cd->resolved;   /* (a LIKE's copy) */
        else if (serial) defs[i].type = attu_type_make(serial);
        else if (db_column_type(&cd->type, &defs[i].type, err)) goto fail;
        if (cd->generated || cd->generated_sql) {
            /* PostgreSQL's transformColumnDefinition: at the later clause */
            int at = cd->generated_keyword_position;
            if (serial || cd->default_) {
                int dp = serial ? 0 : cd->default_keyword_position;
                attu_error_set(err, ATTU_SQLSTATE_SYNTAX, serial ? 0 : dp > at ? dp : at,
                               "both default and generation expression specified for column \"%s\" of table \"%s\"",
                               cd->name, st->u.create_table.table);
                goto fail;
            }
            if (cd->identity) {
                int ip = cd->identity_position;
                attu_error_set(err, ATTU_SQLSTATE_SYNTAX, ip > at ? ip : at,
                               "both identity and generation expression specified for column \"%s\" of table \"%s\"",
                               cd->name, st->u.create_table.table);
                goto fail;
            }
            defs[i].generated = 's';
        }
        if (serial || cd->identity) {
            /* PostgreSQL's checks of transformColumnDefinition */
            if (serial && cd->default_) {
                attu_error_set(err, ATTU_SQLSTATE_SYNTAX, cd->position, "multiple default values specified for column \"%s\" of table \"%s\"",
                               cd->name, st->u.create_table.table);
                goto fail;
            }
            if (cd->default_ || (serial && cd->identity)) {
                attu_error_set(err, ATTU_SQLSTATE_SYNTAX, cd->position, "both default and identity specified for column \"%s\" of table \"%s\"",
                               cd->name, st->u.create_table.table);
                goto fail;
            }
            if (cd->identity && defs[i].type.id != ATTU_TYPE_INT16 && defs[i].type.id != ATTU_TYPE_INT32 &&
                defs[i].type.id != ATTU_TYPE_INT64) {
                attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "identity column type must be smallint, integer, or bigint");
                goto fail;
            }
            owned[i] = serial ? 's' : cd->identity;
        }
        defs[i].not_null = cd->not_null || owned[i];   /* serial and identity columns are NOT NULL */
        defs[i].primary_key = cd->primary_key;
        for (int k = 0; k < i; k++)
            if (!strcmp(defs[k].name, defs[i].name)) {
                attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_COLUMN, cd->position, "column \"%s\" specified more than once", cd->name);
                goto fail;
            }
        /* DEFAULT NULL is the same as no DEFAULT */
        bool null_default = cd->default_ && cd->default_->kind == ATTU_EXPR_LITERAL && cd->default_->u.literal.kind == ATTU_LIT_NULL;
        int sq = cd->default_ && !null_default ? db_sequence_default_text(s, cd->default_, &defs[i], &dflt[i], err) : 0;
        if (sq < 0) goto fail;
        if (!sq && cd->default_ && !null_default && !(dflt[i] = db_check_default(s, sql, cd, &defs[i], err))) goto fail;
        /* a LIKE's copies: the source's stored texts, as they are */
        const char *kept = cd->default_sql ? cd->default_sql : cd->generated_sql;
        if (kept && !(dflt[i] = strdup(kept))) { attu_error_oom(err); goto fail; }
        /* (a column of a domain without a DEFAULT of its own keeps none: an
         * INSERT takes the domain's current one, db_column_default) */
    }
    db_write_lock(s);
    if (db_relation_exists(s, st->u.create_table.table)) {
        /* (IF NOT EXISTS: made by another session since the check above) */
        if (!st->u.create_table.if_not_exists)
            attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, st->position, "relation \"%s\" already exists", st->u.create_table.table);
        pthread_rwlock_unlock(&s->db->lock);
        for (int i = 0; i < n; i++) free(dflt[i]);
        free(dflt); free(defs); free(owned);
        db_create_like_free(&like);
        return written->u.create_table.if_not_exists ? create_exists_notice(written, cb, err) : -1;
    }
    /* an index is a relation in PostgreSQL: a constraint's name is taken */
    if (attu_catalog_constraint_owner(db_cat(s), st->u.create_table.table, NULL)) {
        attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0, "relation \"%s\" already exists", st->u.create_table.table);
        pthread_rwlock_unlock(&s->db->lock);
        goto fail;
    }
    attu_unique *uniques = NULL;
    int nuniques = 0;
    attu_check *checks = NULL;
    int nchecks = 0;
    attu_fkey *fkeys = NULL;
    int nfkeys = 0;
    if (db_unique_define(db_cat(s), st, defs, n, &uniques, &nuniques, err)) {
        pthread_rwlock_unlock(&s->db->lock);
        goto fail;
    }
    /* serial and identity columns: their sequences first, each DEFAULT
     * nextval of its own (undone below should the table fail) */
    for (int i = 0; i < n; i++) {
        if (!owned[i]) continue;
        const attu_ast_column_def *cd = &st->u.create_table.columns[i];
        attu_sequence_options o = cd->identity_options;
        if (cd->identity_as.name) {
            attu_type at;
            if (attu_type_from_name(cd->identity_as.name, cd->identity_as.precision, cd->identity_as.scale, &at, err)) {
                err->position = cd->identity_as.position;
                goto unlock_fail;
            }
            o.type = at.id;
        }
        made_sequences = true;
        if (db_sequence_create_owned(s, st->u.create_table.table, cd->name, defs[i].type.id, owned[i] == 's' ? 0 : owned[i],
                                     &o, &dflt[i], err))
            goto unlock_fail;
    }
    attu_table *t = attu_table_new(st->u.create_table.table, n, defs, err);
    /* the generation expressions written, checked over the new (empty)
     * table (db_generated.c) */
    for (int i = 0; t && i < n; i++) {
        const attu_ast_column_def *cd = &st->u.create_table.columns[i];
        if (!cd->generated) continue;
        if (db_generated_define(s, t, defs[i].name, defs[i].type, cd, &dflt[i], NULL, err)) { attu_table_free(t); t = NULL; }
    }
    /* the CHECK constraints, validated over the new (empty) table */
    if (t) {
        const attu_ast_unique_def **cds = calloc((size_t)st->u.create_table.nuniques + 1, sizeof *cds);
        int ncd = 0;
        if (!cds) { attu_error_oom(err); attu_table_free(t); t = NULL; }
        for (int i = 0; cds && i < st->u.create_table.nuniques; i++)
            if (st->u.create_table.uniques[i].check) cds[ncd++] = &st->u.create_table.uniques[i];
        if (cds && ncd && db_check_define(s, t, cds, ncd, NULL, 0, false, false, &checks, &nchecks, err)) {
            attu_table_free(t);
            t = NULL;
        }
        /* the FOREIGN KEYs (db_fkey.c), named past the other constraints */
        ncd = 0;
        for (int i = 0; cds && t && i < st->u.create_table.nuniques; i++)
            if (st->u.create_table.uniques[i].fkey) cds[ncd++] = &st->u.create_table.uniques[i];
        if (cds && t && ncd && db_fkey_define(s, t, uniques, nuniques, cds, ncd, NULL, 0, checks, nchecks, false, &fkeys,
                                              &nfkeys, err)) {
            attu_table_free(t);
            t = NULL;
        }
        free(cds);
    }
    if (t && !(s->db->data_dir && db_txn_touch(s, t->name, err)) &&
        !attu_catalog_add(db_cat(s), t, err)) {
        rc = 0;
        if (nuniques && attu_catalog_set_uniques(db_cat(s), t->name, uniques, nuniques, err)) rc = -1;
        if (!rc && nchecks && attu_catalog_set_checks(db_cat(s), t->name, checks, nchecks, err)) rc = -1;
        if (!rc && nfkeys && attu_catalog_set_fkeys(db_cat(s), t->name, fkeys, nfkeys, err)) rc = -1;
        for (int i = 0; i < n && !rc; i++)
            if (dflt[i] && attu_catalog_set_default(db_cat(s), t->name, i, dflt[i], err)) rc = -1;
        if (!rc && made_sequences && db_sequences_save(s, err)) rc = -1;
        /* the columns of a domain (engine/domain_type.h) */
        bool domains = false;
        /* (a temporary table's in its layer's store, even where a
         * permanent one has the name; a permanent one's in the shared) */
        attu_comments *cols = attu_catalog_domain_comments(db_cat(s), attu_catalog_is_top(db_cat(s), t));
        /* (what a temporary table of the name left, dropped ON COMMIT) */
        if (cols != attu_catalog_comments(db_cat(s))) attu_comments_drop_rel(cols, t->name);
        for (int i = 0; i < n && !rc; i++) {
            char *dd = db_domain_column_text(s, &st->u.create_table.columns[i].type);
            /* (an entry a dropped temporary table of the name left goes) */
            if ((dd || attu_domain_of_column(cols, t->name, defs[i].name)) &&
                attu_domain_set_column(cols, t->name, defs[i].name, dd))
                rc = attu_error_oom(err);
            domains |= dd != NULL;
            free(dd);
        }
        /* a LIKE's INCLUDING COMMENTS: the columns' comments */
        bool comments = false;
        for (int i = 0; i < n && !rc; i++) {
            const char *c = st->u.create_table.columns[i].comment;
            if (!c) continue;
            if (attu_comments_set(attu_catalog_comments(db_cat(s)), 'c', t->name, defs[i].name, c)) rc = attu_error_oom(err);
            comments = true;
        }
        if (!rc && (domains || comments) && s->db->data_dir && db_txn_touch_comments(s, err)) rc = -1;
        /* a LIKE's INCLUDING INDEXES: the sources' CREATE INDEX indexes */
        for (int i = 0; i < like.nindex && !rc; i++) {
            attu_parse_result *pr = attu_parse(like.index_sql[i], err);
            if (!pr) { rc = -1; break; }
            if (pr->n != 1 || pr->stmts[0].stmt->kind != ATTU_STMT_CREATE_INDEX)
                rc = attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "a copied index does not parse");
            else if (db_index_create_locked(s, pr->stmts[0].stmt, err)) rc = -1;
            attu_parse_free(pr);
        }
        if (rc) {   /* out of memory: undo */
            attu_table_free(attu_catalog_remove(db_cat(s), t->name, true, NULL));
            if (s->db->data_dir) db_txn_touch(s, st->u.create_table.table, NULL);
        }
    } else attu_table_free(t);
unlock_fail:
    if (rc && made_sequences) {
        attu_error e2;
        attu_error_clear(&e2);
        db_sequences_drop_owned(s, st->u.create_table.table, &e2);
    }
    free(uniques);
    db_check_free(checks, nchecks);
    free(fkeys);
    pthread_rwlock_unlock(&s->db->lock);
fail:
    for (int i = 0; i < n; i++) free(dflt[i]);
    free(dflt); free(defs); free(owned);
    db_create_like_free(&like);
    if (rc) return rc;
    return db_deliver_tag(cb, "CREATE TABLE", err) ? -2 : 0;
}

int db_exec_drop(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    db_write_lock(s);
    /* check all first: DROP TABLE a, b drops neither if b is missing */
    for (int i = 0; i < st->u.drop_table.tables.n; i++) {
        const char *name = st->u.drop_table.tables.items[i];
        if (!attu_catalog_lookup(db_cat(s), name) && attu_catalog_constraint_owner(db_cat(s), name, NULL)) {
            /* PostgreSQL's index of a constraint: not a table, even with IF EXISTS */
            attu_error_set(err, "42809", st->u.drop_table.tables.positions ? st->u.drop_table.tables.positions[i] : st->position,
                           "\"%s\" is not a table", name);
            attu_error_set_hint(err, "Use DROP INDEX to remove an index.");
            pthread_rwlock_unlock(&s->db->lock);
            return -1;
        }
        if (db_view_not_table(s, name, err)) {
            attu_error_set_hint(err, attu_views_find(attu_catalog_views(db_cat(s)), name)->kind == 'm'
                                     ? "Use DROP MATERIALIZED VIEW to remove a materialized view."
                                     : "Use DROP VIEW to remove a view.");
            pthread_rwlock_unlock(&s->db->lock);
            return -1;
        }
        if (!attu_catalog_lookup(db_cat(s), name) && db_sequence_exists(s, name)) {
            pthread_rwlock_unlock(&s->db->lock);
            attu_error_set(err, "42809", st->u.drop_table.tables.positions ? st->u.drop_table.tables.positions[i] : st->position,
                           "\"%s\" is not a table", name);
            snprintf(err->hint, sizeof err->hint, "Use DROP SEQUENCE to remove a sequence.");
            return -1;
        }
        if (!attu_catalog_lookup(db_cat(s), name) && !st->u.drop_table.if_exists) {
            pthread_rwlock_unlock(&s->db->lock);
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE,
                                  st->u.drop_table.tables.positions ? st->u.drop_table.tables.positions[i] : st->position,
                                  "table \"%s\" does not exist", name);
        }
        /* (deferred checks wait on its rows: db_defer.c) */
        if (db_defer_in_use(s, name, "DROP TABLE", err)) {
            pthread_rwlock_unlock(&s->db->lock);
            return -1;
        }
    }
    /* the views reading them: 2BP01, or (CASCADE) dropped first */
    const char **found = calloc((size_t)st->u.drop_table.tables.n + 1, sizeof *found);
    char **dependents = NULL;
    int nfound = 0, ndependents = 0;
    if (!found) { pthread_rwlock_unlock(&s->db->lock); return attu_error_oom(err); }
    for (int i = 0; i < st->u.drop_table.tables.n; i++)
        if (attu_catalog_lookup(db_cat(s), st->u.drop_table.tables.items[i]))
            found[nfound++] = st->u.drop_table.tables.items[i];
    int rc = db_view_drop_dependents(s, "table", found, nfound, st->u.drop_table.cascade, NULL, &dependents,
                                     &ndependents, err);
    /* the DEFAULTs of other tables that draw from their sequences: the same */
    if (!rc) rc = db_sequences_owner_dependents(s, found, nfound, NULL, st->u.drop_table.cascade, true, cb, err);
    /* the FOREIGN KEYs of other tables that reference them: 2BP01, or
     * (CASCADE) dropped (db_fkey.c) */
    char fk_notice[200];
    int nfk = 0;
    if (!rc) rc = db_fkey_drop_tables(s, found, nfound, st->u.drop_table.cascade, fk_notice, sizeof fk_notice, &nfk, err);
    free(found);
    char cascaded[160] = "";   /* the NOTICE's name of the one dependent */
    bool dropped_indexes = false;
    if (!rc && ndependents == 1) db_relation_kind_name(s, dependents[0], cascaded, sizeof cascaded);
    if (!rc && ndependents) rc = db_view_remove(s, dependents, ndependents, err);
    for (int i = 0; i < st->u.drop_table.tables.n && !rc; i++) {
        const char *name = st->u.drop_table.tables.items[i];
        if (!attu_catalog_lookup(db_cat(s), name)) {
            if (cb && cb->on_notice) {
                char msg[160];
                snprintf(msg, sizeof msg, "table \"%s\" does not exist, skipping", name);
                cb->on_notice(cb->ctx, "00000", msg);
            }
            continue;
        }
        if (s->db->data_dir && db_txn_touch(s, name, err)) { rc = -1; break; }
        int nix = 0;
        /* (a temporary table's name may be a permanent one's, whose
         * columns' domains are not its own: db_comments_dropped_temp) */
        bool temp = db_temp_has(s, name);
        const attu_index_def *ix = attu_catalog_indexes(db_cat(s), name, &nix);
        for (int k = 0; k < nix; k++) db_comments_dropped(s, ix[k].name);   /* (its indexes go with it) */
        attu_table *t = attu_catalog_remove(db_cat(s), name, true, err);
        if (nix) dropped_indexes = true;
        attu_table_free(t);
        if (temp) db_comments_dropped_temp(s, name);
        else db_comments_dropped(s, name);   /* (its comments go with it) */
        /* its serial and identity columns' sequences go with it */
        if (db_sequences_drop_owned(s, name, err)) rc = -1;
    }
    if (dropped_indexes) {
        attu_error e2;
        attu_error_clear(&e2);
        db_index_save(s, &e2);   /* (rewritten at COMMIT; a table's lines left behind are passed over at load) */
    }
    pthread_rwlock_unlock(&s->db->lock);
    if (!rc && ndependents + nfk && cb && cb->on_notice) {
        /* (after the missing tables' notices, as PostgreSQL orders them) */
        char msg[200];
        if (ndependents + nfk > 1) snprintf(msg, sizeof msg, "drop cascades to %d other objects", ndependents + nfk);
        else if (nfk) snprintf(msg, sizeof msg, "%s", fk_notice);
        else snprintf(msg, sizeof msg, "drop cascades to %s", cascaded);
        cb->on_notice(cb->ctx, "00000", msg);
    }
    db_view_names_free(dependents, ndependents);
    if (rc) return rc;
    return db_deliver_tag(cb, "DROP TABLE", err) ? -2 : 0;
}

static int cmp_int32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The TEXT part of db_append_rows: the new version of base's column bc
 * with n rows more, which take the strings of src (NULL: all NULL; one
 * row: that row n times), coded in its dictionary. Only the strings the
 * new rows use are looked up, and only those the dictionary lacks are
 * added (attu_dictionary_add_sorted): a string it holds costs a search
 * and no dictionary work; new strings that sort after its last are added
 * in place (dictionary.h); one that sorts before some old string costs a
 * copy of the dictionary and a re-code of the old rows, into a private
 * copy of the column (the old version's rows never change). Otherwise the
 * new version shares bc's buffers (attu_column_append_version). NULL rows
 * are left to the caller. So a small append costs O(rows appended). */
static attu_column *append_text(const attu_column *bc, const attu_column *src, size_t n, attu_error *err) {
    size_t old = bc->length;
    const attu_dictionary *sd = src ? src->dict : NULL;
    size_t m = src ? (src->length == 1 ? 1 : n) : 0;   /* source rows read */
    if (!sd || sd == bc->dict) {   /* the same dictionary (or no strings): the codes stand */
        attu_column *col = attu_column_append_version(bc, n, false, err);
        if (!col) return NULL;
        if (!col->dict && !(col->dict = attu_dictionary_build(NULL, NULL, 0, NULL, err))) {
            attu_column_free(col);
            return NULL;
        }
        int32_t *codes = col->data;
        for (size_t r = 0; r < n; r++) {
            size_t sr = m == 1 ? 0 : r;
            codes[old + r] = (sd && !attu_column_is_null(src, sr)) ? ((const int32_t *)src->data)[sr] : 0;
        }
        return col;
    }
    /* The source codes the rows use, ascending and distinct: all of sd's
     * when the rows are many against it, else the rows' own, sorted (few
     * rows selected from a big table use few of its strings; and a few
     * rows' own strings only: a NULL's slot codes sd's first string, ""
     * for a NULL literal, which added would sort before every old string
     * and cost a re-code of the old rows). */
    const int32_t *scodes = src->data;
    bool all = m >= 64 && m >= (size_t)sd->count / 8;
    size_t nu = 0;
    int32_t *used = NULL;
    if (!all) {
        if (!(used = malloc((m ? m : 1) * sizeof *used))) return attu_error_oom(err), NULL;
        for (size_t r = 0; r < m; r++) if (!attu_column_is_null(src, r)) used[nu++] = scodes[r];
        qsort(used, nu, sizeof *used, cmp_int32);
        size_t u = 0;
        for (size_t k = 0; k < nu; k++) if (!u || used[u - 1] != used[k]) used[u++] = used[k];
        nu = u;
    } else nu = (size_t)sd->count;
    const char **strs = malloc((nu ? nu : 1) * sizeof *strs);
    size_t *lens = malloc((nu ? nu : 1) * sizeof *lens);
    int32_t *newc = malloc((nu ? nu : 1) * sizeof *newc);
    int32_t moved = 0, *remap = NULL;
    attu_dictionary *d = NULL;
    if (strs && lens && newc) {
        for (size_t k = 0; k < nu; k++) strs[k] = attu_dictionary_get(sd, all ? (int32_t)k : used[k], &lens[k]);
        d = attu_dictionary_add_sorted(bc->dict, strs, lens, nu, newc, &moved, &remap, err);
    } else attu_error_oom(err);
    free(strs); free(lens);
    attu_column *col = d ? attu_column_append_version(bc, n, remap != NULL, err) : NULL;
    if (!col) { free(used); free(newc); free(remap); attu_dictionary_unref(d); return NULL; }
    int32_t *codes = col->data;
    if (remap) {   /* a new string sorts before some old ones: those codes move up (a private copy) */
        if (!col->validity) {
            for (size_t r = 0; r < old; r++) if (codes[r] >= moved) codes[r] = remap[codes[r] - moved];
        } else
            for (size_t r = 0; r < old; r++)
                if (!attu_column_is_null(col, r) && codes[r] >= moved) codes[r] = remap[codes[r] - moved];
    }
    for (size_t r = 0; r < n; r++) {
        size_t sr = m == 1 ? 0 : r;
        if (attu_column_is_null(src, sr)) { codes[old + r] = 0; continue; }
        int32_t sc = scodes[sr];
        if (!all) sc = (int32_t)((const int32_t *)bsearch(&sc, used, nu, sizeof *used, cmp_int32) - used);
        codes[old + r] = newc[sc];
    }
    free(remap); free(used); free(newc);
    attu_dictionary_unref(col->dict);
    col->dict = d;
    return col;
}

/* PostgreSQL's DETAIL of the 23502 above: appended row r as it would
 * have been stored (a column without a source is NULL) */
static void appended_row_detail(const attu_table *base, attu_column **src, const int *map, size_t r, attu_error *err) {
    const attu_column **cols = calloc((size_t)base->ncols + 1, sizeof *cols);
    size_t *rows = calloc((size_t)base->ncols + 1, sizeof *rows);
    char *d = NULL;
    if (cols && rows) {
        for (int c = 0; c < base->ncols; c++) {
            cols[c] = map[c] >= 0 ? src[map[c]] : NULL;
            rows[c] = cols[c] && cols[c]->length == 1 ? 0 : r;
        }
        d = attu_failing_row(cols, rows, base->ncols);
    }
    if (d) attu_error_set_detail(err, "%s", d);
    free(d);
    free(cols);
    free(rows);
}

/* Appends n rows (host columns src, already of the table's types) to a new
 * version of base, whose columns share base's buffers where base is the
 * newest version of them (attu_column_append_version: base keeps seeing
 * its own rows) and are copies with room to spare otherwise. TEXT values
 * are re-coded into a merged dictionary. A source column of one row stands
 * for n copies of that row (an evaluated DEFAULT). */
attu_table *db_append_rows(const attu_table *base, attu_column **src, const int *map, size_t n, attu_error *err) {
    attu_table *t = attu_table_shell(base, err);
    if (!t) return NULL;
    size_t old = base->nrows, total = old + n;
    for (int c = 0; c < t->ncols; c++) {
        const attu_column *bc = base->cols[c];
        const attu_column *sc = map[c] >= 0 ? src[map[c]] : NULL;
        attu_column *col;
        if (bc->type.id == ATTU_TYPE_TEXT) col = append_text(bc, sc, n, err);
        else col = attu_column_append_version(bc, n, false, err);
        if (!col) goto fail;
        t->cols[c] = col;
        size_t w = attu_type_width(col->type.id);
        if (col->type.id == ATTU_TYPE_TEXT) {
            /* (coded by append_text) */
        } else if (sc && sc->length == 1 && n > 1) {
            for (size_t r = 0; r < n; r++) memcpy((char *)col->data + (old + r) * w, sc->data, w);
        } else if (sc) memcpy((char *)col->data + old * w, sc->data, n * w);
        /* (no source: the appended slots are zero already) */
        for (size_t r = 0; r < n; r++) {
            bool isnull = !sc || attu_column_is_null(sc, sc->length == 1 ? 0 : r);
            if (isnull) {
                /* (a generated column is computed after: db_generated_fill
                 * checks its NOT NULL then, as PostgreSQL does) */
                if (base->defs[c].not_null && !base->defs[c].generated) {
                    attu_error_set(err, ATTU_SQLSTATE_NOT_NULL_VIOLATION, 0,
                                   "null value in column \"%s\" of relation \"%s\" violates not-null constraint", base->defs[c].name, base->name);
                    attu_error_set_object(err, base->name, base->defs[c].name, NULL);
                    attu_error_set_row(err, old + r);   /* (COPY's CONTEXT) */
                    appended_row_detail(base, src, map, r, err);
                    goto fail;
                }
                if (attu_column_append_null(col, old + r, err)) goto fail;
            }
        }
    }
    t->nrows = total;
    t->version = base->version + 1;
    attu_table_note_append(t, base);   /* (base's rows kept, re-coded at most: storage.c) */
    return t;
fail:
    attu_table_free(t);
    return NULL;
}

/* Binds a query whose result columns are assigned to the given types (as
 * INSERT assigns them; types NULL: as they come). fewer_ok: the query may
 * give fewer columns, assigned to the first ones (INSERT without a column
 * list, as PostgreSQL allows; the others take their DEFAULT). */
static attu_lplan *bind_coerced(attu_session *s, attu_plan_arena *pa, const char *sql, const attu_ast_query *q,
                                const attu_bind_params *params, int ncols, bool fewer_ok, const attu_type *types,
                                const char *const *names, attu_error *err) {
    attu_bind_params bp = db_params(s, params);
    bp.insert_types = types;
    bp.insert_names = names;
    bp.ninsert = ncols;
    attu_lplan *lp = attu_bind_query(pa, db_cat(s), sql, q, &bp, err);
    if (lp && types && fewer_ok && lp->ncols < ncols) ncols = lp->ncols;
    if (lp && types) {
        if (lp->ncols > ncols) {
            attu_error_set(err, ATTU_SQLSTATE_SYNTAX, first_extra_position(q, ncols),
                           "INSERT has more expressions than target columns");
            lp = NULL;
        } else if (lp->ncols < ncols) {
            attu_error_set(err, ATTU_SQLSTATE_SYNTAX, q->position, "INSERT has more target columns than expressions");
            lp = NULL;
        } else {
            attu_lplan *p = attu_lp_new(pa, LP_PROJECT, ncols);
            if (!p) { attu_error_oom(err); lp = NULL; }
            else {
                p->left = lp;
                p->exprs = attu_palloc(pa, sizeof(attu_bexpr *) * (size_t)(ncols + 1));
                for (int i = 0; i < ncols && lp; i++) {
                    attu_bexpr *c = attu_bx_col(pa, i, lp->types[i]);
                    c->position = q->position;
                    if (lp->kind == LP_VALUES && lp->nrows > 0) c->position = lp->values[i]->position;
                    p->exprs[i] = attu_bind_coerce_assign(pa, c, types[i], names[i], err);
                    if (!p->exprs[i]) lp = NULL;
                    else { p->types[i] = types[i]; p->names[i] = (char *)names[i]; }
                }
                if (lp) { p->est_rows = lp->est_rows; lp = p; }
            }
        }
    }
    return lp;
}

static attu_result *run_coerced_once(attu_session *s, const char *sql, const attu_ast_query *q,
                                     const attu_bind_params *params, int ncols, bool fewer_ok, const attu_type *types,
                                     const char *const *names, attu_error *err);

/* Runs a query whose result columns are coerced to the given types (the
 * rows of INSERT ... SELECT / VALUES, CREATE TABLE AS). As db_run_query,
 * a failed run whose conditional subqueries ran in their batch form runs
 * again with them per binding, so that only the rows that use a
 * subquery's value raise its errors; nothing is written before the whole
 * result stands, so the failed run leaves nothing behind. */
static attu_result *run_coerced(attu_session *s, const char *sql, const attu_ast_query *q, const attu_bind_params *params,
                                int ncols, bool fewer_ok, const attu_type *types, const char *const *names, attu_error *err) {
    attu_bind_params bp;
    memset(&bp, 0, sizeof bp);
    if (params) bp = *params;
    /* a WHERE that names one row of a table by its key: that table read
     * as the row (db_keyed_select.c), as a SELECT statement reads it */
    db_key_copy *keyed = NULL;
    int kr = db_keyed_select_find(s, sql, q, params, &keyed, err);
    if (kr < 0) return NULL;
    if (kr) db_key_copy_params(keyed, &bp);
    bool batched = false;
    bp.cond_batched = &batched;
    attu_result *res = run_coerced_once(s, sql, q, &bp, ncols, fewer_ok, types, names, err);
    if (!res && db_retry_per_binding(batched, err)) {
        attu_error_clear(err);
        bp.cond_per_binding = true;
        bp.cond_batched = NULL;
        res = run_coerced_once(s, sql, q, &bp, ncols, fewer_ok, types, names, err);
    }
    db_key_copy_free(keyed);
    return res;
}

/* The subquery runner of a query that is only described (CREATE TABLE AS
 * ... WITH NO DATA, CREATE VIEW's analysis): every subquery gives its
 * columns without rows, and none runs. */
attu_bind_params db_describe_params(attu_session *s, const attu_bind_params *params, bool no_side_effects) {
    attu_bind_params bp = db_params(s, params);
    bp.describe_only = true;
    if (no_side_effects) bp.no_side_effects = true;
    bp.run_subquery = db_no_rows_runner;
    bp.run_ctx = NULL;
    return bp;
}

int db_no_rows_runner(void *ctx, attu_lplan *plan, attu_column ***cols, size_t *nrows, attu_error *err) {
    (void)ctx;
    attu_column **c = calloc((size_t)plan->ncols + 1, sizeof *c);
    if (!c) return attu_error_oom(err);
    for (int i = 0; i < plan->ncols; i++)
        if (!(c[i] = attu_column_new(plan->types[i], 1, err))) {
            for (int j = 0; j < i; j++) attu_column_free(c[j]);
            free(c);
            return -1;
        }
    *cols = c;
    *nrows = 0;
    return 0;
}

/* The columns of a query's result without running it or any subquery in
 * it (CREATE TABLE AS ... WITH NO DATA, which PostgreSQL only analyses:
 * CREATE TABLE t AS SELECT 1 / 0 WITH NO DATA succeeds): no rows. */
static attu_result *describe_only(attu_session *s, const char *sql, const attu_ast_query *q,
                                  const attu_bind_params *params, attu_error *err) {
    attu_plan_arena *pa = attu_plan_arena_new();
    if (!pa) { attu_error_oom(err); return NULL; }
    attu_bind_params bp = db_describe_params(s, params, false);
    attu_result *res = NULL;
    attu_lplan *lp = attu_bind_query(pa, db_cat(s), sql, q, &bp, err);
    if (lp && (res = db_result_new(lp->ncols))) {
        for (int i = 0; i < lp->ncols; i++) {
            snprintf(res->desc[i].name, sizeof res->desc[i].name, "%s", lp->names[i] ? lp->names[i] : "?column?");
            res->desc[i].type = lp->types[i];
            if (!(res->cols[i] = attu_column_new(lp->types[i], 1, err))) { attu_result_free(res); res = NULL; break; }
        }
    } else if (lp) attu_error_oom(err);
    attu_plan_arena_free(pa);
    return res;
}

static attu_result *run_coerced_once(attu_session *s, const char *sql, const attu_ast_query *q,
                                     const attu_bind_params *params, int ncols, bool fewer_ok, const attu_type *types,
                                     const char *const *names, attu_error *err) {
    attu_plan_arena *pa = attu_plan_arena_new();
    if (!pa) { attu_error_oom(err); return NULL; }
    attu_result *res = NULL;
    attu_lplan *lp = bind_coerced(s, pa, sql, q, params, ncols, fewer_ok, types, names, err);
    if (lp) lp = attu_rewrite(pa, lp, err);
    attu_stage *st = lp ? attu_lower(lp, err) : NULL;
    if (st) {
        attu_column **cols = NULL;
        size_t n = 0;
        if (!db_run_stage(s, st, false, &cols, &n, err)) {
            res = db_result_new(0);
            if (!res) { for (int i = 0; i < lp->ncols; i++) attu_column_free(cols[i]); free(cols); attu_error_oom(err); }
            else {
                free(res->cols); free(res->desc);
                res->ncols = lp->ncols; res->cols = cols; res->nrows = n;
                res->desc = calloc((size_t)lp->ncols + 1, sizeof *res->desc);
                for (int i = 0; res->desc && i < lp->ncols; i++) {
                    snprintf(res->desc[i].name, sizeof res->desc[i].name, "%s", lp->names[i] ? lp->names[i] : "?column?");
                    res->desc[i].type = lp->types[i];
                }
            }
        }
        attu_stage_free(st);
    }
    attu_plan_arena_free(pa);
    return res;
}

/* Whether every row of a VALUES source gives DEFAULT for its item k (a
 * GENERATED ALWAYS column may take that; PostgreSQL checks the whole
 * list). */
static bool all_default(const attu_ast_query *q, int k) {
    if (!q || q->kind != ATTU_QUERY_VALUES) return false;
    for (int r = 0; r < q->u.values.nrows; r++)
        if (k >= q->u.values.rows[r].n || q->u.values.rows[r].items[k]->kind != ATTU_EXPR_DEFAULT) return false;
    return true;
}

int db_exec_insert(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                   const attu_exec_callbacks *cb, attu_error *err) {
    db_write_lock(s);
    int rc = -1;
    attu_table *base = attu_catalog_lookup(db_cat(s), st->u.insert.table);
    attu_type *types = NULL;
    const char **names = NULL;
    int *map = NULL;
    attu_result *res = NULL, *dres = NULL;
    attu_column **src = NULL;
    uint8_t *oc_changed = NULL;   /* ON CONFLICT: the rows it updated or inserted */
    db_values_copy vcopy;
    memset(&vcopy, 0, sizeof vcopy);
    db_seq_fill fill;
    memset(&fill, 0, sizeof fill);
    attu_ast_arena *arena = NULL;
    if (!base) {
        if (!db_view_dml_error(s, st->u.insert.table, ATTU_STMT_INSERT, err))
            db_no_such_table(s, st->u.insert.table, st->u.insert.table_position, err);
        goto out;
    }
    if (st->u.insert.targets) {   /* INSERT INTO t (a[1], a[2]): one assignment per column */
        if (!(arena = attu_ast_arena_new())) { attu_error_oom(err); goto out; }
        if (!(st = db_insert_subscripts(arena, base, st, err))) goto out;
    }
    int ntarget = st->u.insert.columns.n ? st->u.insert.columns.n : base->ncols;
    types = calloc((size_t)ntarget + 1, sizeof *types);
    names = calloc((size_t)ntarget + 1, sizeof *names);
    map = malloc(sizeof(int) * ((size_t)base->ncols + 1));
    if (!types || !names || !map) { attu_error_oom(err); goto out; }
    for (int c = 0; c < base->ncols; c++) map[c] = -1;
    for (int i = 0; i < ntarget; i++) {
        int c = i;
        if (st->u.insert.columns.n) {
            c = attu_table_find_column(base, st->u.insert.columns.items[i]);
            if (c < 0) {
                attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, st->u.insert.columns.positions ? st->u.insert.columns.positions[i] : st->position,
                               "column \"%s\" of relation \"%s\" does not exist", st->u.insert.columns.items[i], base->name);
                goto out;
            }
            if (map[c] >= 0) {
                attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_COLUMN, st->u.insert.columns.positions ? st->u.insert.columns.positions[i] : st->position,
                               "column \"%s\" specified more than once", base->defs[c].name);
                goto out;
            }
        }
        map[c] = i;
        types[i] = base->defs[c].type;
        names[i] = base->defs[c].name;
    }
    size_t n = 0;
    /* no column list and a VALUES list of fewer columns: its values go to
     * the first columns (so that their types guide the values' binding) */
    const attu_ast_query *src_q = st->u.insert.source;
    if (src_q && !st->u.insert.columns.n && src_q->kind == ATTU_QUERY_VALUES && src_q->u.values.nrows > 0 &&
        src_q->u.values.rows[0].n < ntarget) {
        for (int c = src_q->u.values.rows[0].n; c < ntarget; c++) map[c] = -1;
        ntarget = src_q->u.values.rows[0].n;
    }
    /* identity columns among the targets: GENERATED ALWAYS takes only
     * DEFAULT (428C9) unless OVERRIDING SYSTEM VALUE; OVERRIDING USER VALUE
     * replaces what is given by the DEFAULT (dropped below) */
    for (int c = 0; c < base->ncols; c++) {
        if (map[c] < 0 || map[c] >= ntarget) continue;
        /* a generated column takes only DEFAULT (OVERRIDING or not) */
        if (base->defs[c].generated && (!src_q || !all_default(src_q, map[c]))) {
            db_generated_refuse(base, c, false, err);
            goto out;
        }
        char id = db_sequence_identity(s, base->name, base->defs[c].name);
        if (!id || !src_q || st->u.insert.overriding == 's' || st->u.insert.overriding == 'u') continue;
        if (id == 'a' && !all_default(src_q, map[c])) {
            attu_error_set(err, "428C9", 0, "cannot insert a non-DEFAULT value into column \"%s\"", base->defs[c].name);
            snprintf(err->detail, sizeof err->detail, "Column \"%s\" is an identity column defined as GENERATED ALWAYS.", base->defs[c].name);
            snprintf(err->hint, sizeof err->hint, "Use OVERRIDING SYSTEM VALUE to override.");
            goto out;
        }
    }
    if (st->u.insert.source) {
        /* DEFAULT items of a VALUES list: target i is table column tcol[i] */
        int *tcol = malloc(sizeof(int) * ((size_t)ntarget + 1));
        if (!tcol) { attu_error_oom(err); goto out; }
        for (int c = 0; c < base->ncols; c++) if (map[c] >= 0 && map[c] < ntarget) tcol[map[c]] = c;
        int vrc = db_values_defaults(s, base, tcol, ntarget, src_q, &vcopy, err);
        free(tcol);
        if (vrc) goto out;
        /* INSERT ... SELECT nextval('s'), ... FROM: a number per row */
        const attu_ast_query *runq = db_seq_fill_prepare(s, vcopy.q, types, ntarget, &fill);
        res = run_coerced(s, sql, runq, params, ntarget, !st->u.insert.columns.n, types, names, err);
        if (!res) goto out;
        if (db_seq_fill_apply(s, &fill, res->cols, res->nrows, err)) goto out;
        n = res->nrows;
        /* no column list and fewer values: the first columns are given */
        for (int c = res->ncols; c < ntarget; c++) map[c] = -1;
        ntarget = res->ncols;
    } else {
        n = 1;   /* DEFAULT VALUES: one row of the columns' DEFAULTs */
        ntarget = 0;
        for (int c = 0; c < base->ncols; c++) map[c] = -1;
    }
    if (st->u.insert.overriding == 'u')   /* the identity columns' values give way to their DEFAULT */
        for (int c = 0; c < base->ncols; c++)
            if (map[c] >= 0 && db_sequence_identity(s, base->name, base->defs[c].name)) map[c] = -1;
    /* the columns left out take their DEFAULT (when they have one); they
     * are evaluated even for no rows, as PostgreSQL's planner folds them */
    if (db_eval_defaults(s, base, map, ntarget, n, &dres, err)) goto out;
    if (dres) {
        src = calloc((size_t)(ntarget + dres->ncols) + 1, sizeof *src);
        if (!src) { attu_error_oom(err); goto out; }
        for (int i = 0; i < ntarget; i++) src[i] = res->cols[i];
        for (int i = 0; i < dres->ncols; i++) src[ntarget + i] = dres->cols[i];
    }
    attu_table *t = db_append_rows(base, src ? src : res ? res->cols : NULL, map, n, err);
    if (!t) goto out;
    /* the generated columns over the new rows (db_generated.c) */
    if (db_generated_fill(s, &t, base->nrows, NULL, err)) { attu_table_free(t); goto out; }
    attu_result *ret = NULL;
    if (st->u.insert.on_conflict) {
        /* ON CONFLICT decides which rows go in and which update
         * (db_on_conflict.c); RETURNING reads those rows, in that order */
        size_t *rows = NULL;
        /* (the proposed rows pass the CHECKs first, as PostgreSQL checks
         * a row before it looks for its conflict) */
        if (db_check_rows(s, t, base->nrows, NULL, err)) { attu_table_free(t); goto out; }
        if (db_on_conflict(s, sql, st, params, base->nrows, &t, &n, &rows, &oc_changed, err)) { attu_table_free(t); goto out; }
        if (db_view_check_listed(s, st->u.insert.view_checks, st->u.insert.table, t, rows, n, err)) {
            free(rows);
            attu_table_free(t);
            goto out;
        }
        if (st->u.insert.nreturning) {
            attu_table *g = db_gather_rows(t, rows, n, "\001returning", err);
            if (g) {
                ret = db_insert_returning_rows(s, sql, st, params, g, err);
                attu_table_free(g);
            }
            if (!ret) { free(rows); attu_table_free(t); goto out; }
        }
        free(rows);
    } else {
        if (db_check_appended(s, t, base->nrows, err) ||
            db_view_check_rows(s, st->u.insert.view_checks, st->u.insert.table, t, base->nrows, NULL, err)) {
            attu_table_free(t);
            goto out;
        }
        /* RETURNING reads the appended rows of t (db_insert_returning.c) */
        if (st->u.insert.nreturning && !(ret = db_insert_returning(s, sql, st, params, t, base->nrows, err))) {
            attu_table_free(t);
            goto out;
        }
    }
    /* the FOREIGN KEYs, over the final rows (db_fkey.c) */
    db_fkey_txn *fx = NULL;
    bool fk_replaced = false;
    if (db_fkey_statement(s, &t, base->nrows, oc_changed, NULL, &fk_replaced, &fx, err)) {
        attu_table_free(t);
        attu_result_free(ret);
        goto out;
    }
    if (save(s, t, err)) { db_fkey_abort(s, fx); attu_table_free(t); attu_result_free(ret); goto out; }
    attu_table *old = attu_catalog_replace(db_cat(s), t);
    /* the key index follows the appended (and updated) rows */
    if (!fk_replaced) db_unique_follow(old, t, oc_changed);
    if (!fk_replaced) db_cursors_follow(s, old, t, NULL);   /* (every row where it was: db_cursor.c) */
    attu_table_free(old);
    free(oc_changed);
    oc_changed = NULL;
    if (db_fkey_commit(s, fx, err)) { attu_result_free(ret); goto out; }
    rc = 0;
    char tag[64];
    snprintf(tag, sizeof tag, "INSERT 0 %zu", n);
    pthread_rwlock_unlock(&s->db->lock);
    attu_result_free(res); attu_result_free(dres);
    free(types); free(names); free(map); free(src);
    db_values_copy_free(&vcopy);
    db_seq_fill_free(&fill);
    if (arena) attu_ast_arena_free(arena);
    if (ret) {
        snprintf(ret->tag, sizeof ret->tag, "%s", tag);
        return db_deliver(cb, ret) ? -2 : 0;
    }
    return db_deliver_tag(cb, tag, err) ? -2 : 0;
out:
    free(oc_changed);
    pthread_rwlock_unlock(&s->db->lock);
    attu_result_free(res); attu_result_free(dres);
    free(types); free(names); free(map); free(src);
    db_values_copy_free(&vcopy);
    db_seq_fill_free(&fill);
    if (arena) attu_ast_arena_free(arena);
    return rc;
}

/* A result column of DECIMALs that stand for numeric values of no typmod
 * (engine/types.h no_typmod: 1.5, 2 * d, sum(d)) as the NUMERIC column
 * PostgreSQL's table gets: numeric without a typmod, whose later values
 * keep their own scale and may be NaN or Infinity, where a DECIMAL(18,s)
 * column would round them to s places and refuse the special values. */
static attu_column *free_decimal_as_numeric(const attu_column *src, attu_error *err) {
    attu_column *c = attu_column_new(attu_type_make(ATTU_TYPE_NUMERIC), src->length ? src->length : 1, err);
    if (!c) return NULL;
    c->length = src->length;
    size_t w = attu_type_width(ATTU_TYPE_NUMERIC);
    for (size_t r = 0; r < src->length; r++) {
        if (attu_column_is_null(src, r)) {
            if (attu_column_ensure_validity(c, err)) { attu_column_free(c); return NULL; }
            attu_column_set_null(c, r, true);
            memset((char *)c->data + r * w, 0, w);
        } else {
            attu_numeric_pack(attu_numeric_from_decimal(((const int64_t *)src->data)[r], src->type.scale),
                              (char *)c->data + r * w);
        }
    }
    return c;
}

attu_table *db_ctas_build(attu_session *s, const char *sql, const char *name, const attu_ast_query *query,
                          const attu_ast_name_list *columns, bool with_no_data, int keep_cols, int position,
                          const attu_bind_params *params, size_t *nrows, attu_error *err) {
    attu_result *res = NULL;
    attu_column_def *defs = NULL;
    attu_table *t = NULL;
    db_seq_fill fill;   /* SELECT nextval('s'), ... FROM: a number per row */
    const attu_ast_query *q = db_seq_fill_prepare(s, query, NULL, 0, &fill);
    res = with_no_data ? describe_only(s, sql, q, params, err) : run_coerced(s, sql, q, params, 0, false, NULL, NULL, err);
    if (res && !with_no_data && db_seq_fill_apply(s, &fill, res->cols, res->nrows, err)) {
        attu_result_free(res);
        res = NULL;
    }
    db_seq_fill_free(&fill);
    if (!res) goto out;
    if (columns->n > res->ncols) {
        attu_error_set(err, ATTU_SQLSTATE_SYNTAX, position, "too many column names were specified");
        goto out;
    }
    int ncols = keep_cols > 0 && keep_cols < res->ncols ? keep_cols : res->ncols;
    defs = calloc((size_t)ncols + 1, sizeof *defs);
    if (!defs) { attu_error_oom(err); goto out; }
    for (int i = 0; i < ncols; i++) {
        snprintf(defs[i].name, sizeof defs[i].name, "%s", i < columns->n ? columns->items[i] : res->desc[i].name);
        defs[i].type = res->desc[i].type;
        if (attu_type_is_free_decimal(defs[i].type)) {
            /* PostgreSQL's column is numeric without a typmod */
            attu_column *nc = free_decimal_as_numeric(res->cols[i], err);
            if (!nc) goto out;
            attu_column_free(res->cols[i]);
            res->cols[i] = nc;
            defs[i].type = attu_type_make(ATTU_TYPE_NUMERIC);
        }
        if (attu_type_is_record(defs[i].type)) {
            /* a row value (planner/row_value.c) is no column type */
            attu_error_set(err, "42P16", 0, "column \"%s\" has pseudo-type record", defs[i].name);
            goto out;
        }
        if (attu_check_column_name(defs[i].name, err)) goto out;
    }
    attu_table *empty = attu_table_new(name, ncols, defs, err);
    if (!empty) goto out;
    int *map = malloc(sizeof(int) * ((size_t)ncols + 1));
    if (!map) { attu_table_free(empty); attu_error_oom(err); goto out; }
    for (int i = 0; i < ncols; i++) map[i] = i;
    *nrows = with_no_data ? 0 : res->nrows;
    t = db_append_rows(empty, res->cols, map, *nrows, err);
    free(map);
    attu_table_free(empty);
out:
    attu_result_free(res);
    free(defs);
    return t;
}

/* The columns of t (just made by CREATE TABLE AS from query) that are of
 * a domain, as PostgreSQL makes them: a column of a domain, or a cast to
 * one, selected as it is. The query is bound again for it, without side
 * effects (nothing runs); a query that does not bind so (a parameter's
 * type left open) gives no domains. */
static int ctas_domains(attu_session *s, const char *sql, const attu_ast_query *query, const attu_bind_params *params,
                        const attu_table *t, attu_error *err) {
    attu_plan_arena *pa = attu_plan_arena_new();
    if (!pa) return attu_error_oom(err);
    attu_bind_params bp = db_describe_params(s, params, true);
    const char **domains = NULL;
    int ndomains = 0;
    bp.domains_out = &domains;
    bp.ndomains_out = &ndomains;
    attu_error e;
    attu_error_clear(&e);
    int rc = 0;
    if (attu_bind_query(pa, db_cat(s), sql, query, &bp, &e) && domains && ndomains >= t->ncols) {
        const char **names = calloc((size_t)t->ncols + 1, sizeof *names);
        if (!names) rc = attu_error_oom(err);
        for (int i = 0; names && i < t->ncols; i++) names[i] = t->defs[i].name;
        attu_comments *cols = attu_catalog_domain_comments(db_cat(s), attu_catalog_is_top(db_cat(s), t));
        if (names && db_set_column_domains(s, cols, t->name, names, t->ncols, domains, t->ncols)) rc = attu_error_oom(err);
        free(names);
    }
    attu_plan_arena_free(pa);
    return rc;
}

int db_exec_ctas(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                 const attu_exec_callbacks *cb, attu_error *err) {
    db_write_lock(s);
    const char *name = st->u.create_table_as.table;
    if (db_relation_exists(s, name)) {
        if (st->u.create_table_as.if_not_exists) {
            pthread_rwlock_unlock(&s->db->lock);
            if (cb && cb->on_notice) {
                char msg[160];
                snprintf(msg, sizeof msg, "relation \"%s\" already exists, skipping", name);
                cb->on_notice(cb->ctx, "42P07", msg);
            }
            return db_deliver_tag(cb, "CREATE TABLE AS", err) ? -2 : 0;
        }
        attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, st->position, "relation \"%s\" already exists", name);
        pthread_rwlock_unlock(&s->db->lock);
        return -1;
    }
    size_t n = 0;
    attu_table *t = db_ctas_build(s, sql, name, st->u.create_table_as.query, &st->u.create_table_as.columns,
                                  st->u.create_table_as.with_no_data, 0, st->position, params, &n, err);
    if (!t || save(s, t, err) || attu_catalog_add(db_cat(s), t, err)) {
        attu_table_free(t);
        pthread_rwlock_unlock(&s->db->lock);
        return -1;
    }
    if (ctas_domains(s, sql, st->u.create_table_as.query, params, t, err)) {
        pthread_rwlock_unlock(&s->db->lock);
        return -1;
    }
    /* PostgreSQL's tags: SELECT n when rows were copied in, CREATE TABLE AS
     * for WITH NO DATA */
    char tag[64];
    if (st->u.create_table_as.with_no_data) snprintf(tag, sizeof tag, "CREATE TABLE AS");
    else snprintf(tag, sizeof tag, "SELECT %zu", n);
    pthread_rwlock_unlock(&s->db->lock);
    return db_deliver_tag(cb, tag, err) ? -2 : 0;
}
