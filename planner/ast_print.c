/*
 * ast_print.c - a deterministic S-expression rendering of syntax trees, for
 * tests and debugging (see attu_ast_print_stmt in ast.h).
 *
 * Shapes, by example:
 *   literals     42  (num 1.5)  'it''s'  true  null
 *   names        a  t.a  *  t.*  $1
 *   operators    (+ a 1)  (and p q)  (not p)  (neg x)  (is-not-null x)
 *                (between x 1 2)  (not-in x (1 2))  (ilike s 'a%')
 *   casts        (cast x integer)  (:: x text)  (typed date '2020-01-01')
 *   calls        (count *)  (count distinct x)  (sum x (over (partition a)
 *                (order (b desc))))
 *   queries      (select distinct (items a (as b c)) (from (table t u))
 *                (where ...) (group ...) (order (a asc nulls-first))
 *                (limit 3))   (union-all q1 q2)   (values (1 2) (3 4))
 *   statements   (insert t (cols a) q)  (create-table t (a integer
 *                not-null))  (copy t from 'f' (format csv))  (explain q) ...
 * Recursion is bounded by ATTU_AST_MAX_DEPTH, which the parser enforces.
 */
#include "planner/ast.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct out {
    char  *buf;
    size_t cap;
    size_t len;   /* what the full text needs (may exceed cap) */
} out;

static void put(out *o, const char *s, size_t n) {
    if (o->len < o->cap) {
        size_t room = o->cap - o->len;
        memcpy(o->buf + o->len, s, n < room ? n : room);
    }
    o->len += n;
}
static void puts_(out *o, const char *s) { put(o, s, strlen(s)); }
static void putf(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(out *o, const char *fmt, ...) {
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0) put(o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}
/* A string as a SQL literal: quotes doubled, control bytes as \xNN. */
static void put_quoted(out *o, const char *s, size_t n) {
    puts_(o, "'");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\'') puts_(o, "''");
        else if (c < 0x20 || c == 0x7F) putf(o, "\\x%02x", c);
        else put(o, (const char *)&s[i], 1);
    }
    puts_(o, "'");
}
/* An identifier: bare when it is plain lower case, else "quoted". */
static void put_name(out *o, const char *s) {
    int plain = s[0] != '\0' && !(s[0] >= '0' && s[0] <= '9');
    for (const char *p = s; *p && plain; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
            plain = 0;
    if (plain) { puts_(o, s); return; }
    puts_(o, "\"");
    for (const char *p = s; *p; p++) {
        if (*p == '"') puts_(o, "\"\"");
        else put(o, p, 1);
    }
    puts_(o, "\"");
}

static void pr_expr(out *o, const attu_ast_expr *e);
static void pr_query(out *o, const attu_ast_query *q);
static void pr_stmt(out *o, const attu_ast_stmt *s);

static void pr_list(out *o, attu_ast_expr_list l) {
    for (int i = 0; i < l.n; i++) {
        if (i) puts_(o, " ");
        pr_expr(o, l.items[i]);
    }
}

static void pr_names(out *o, attu_ast_name_list l) {
    for (int i = 0; i < l.n; i++) {
        if (i) puts_(o, " ");
        put_name(o, l.items[i]);
    }
}

static void pr_type(out *o, const attu_ast_typename *t) {
    put_name(o, t->name);
    if (t->precision >= 0 && t->scale >= 0) putf(o, "(%d,%d)", t->precision, t->scale);
    else if (t->precision >= 0) putf(o, "(%d)", t->precision);
    if (t->ivrange) putf(o, "[fields %d]", t->ivrange);   /* INTERVAL DAY TO HOUR: ATTU_IVF_* bits */
}

static void pr_order(out *o, attu_ast_order_list l) {
    puts_(o, "(order");
    for (int i = 0; i < l.n; i++) {
        puts_(o, " (");
        pr_expr(o, l.items[i].expr);
        puts_(o, l.items[i].desc ? " desc" : " asc");
        if (l.items[i].nulls == ATTU_NULLS_FIRST) puts_(o, " nulls-first");
        else if (l.items[i].nulls == ATTU_NULLS_LAST) puts_(o, " nulls-last");
        puts_(o, ")");
    }
    puts_(o, ")");
}

static void pr_bound(out *o, const attu_ast_frame_bound *b) {
    switch (b->kind) {
    case ATTU_BOUND_UNBOUNDED_PRECEDING: puts_(o, "unbounded-preceding"); break;
    case ATTU_BOUND_UNBOUNDED_FOLLOWING: puts_(o, "unbounded-following"); break;
    case ATTU_BOUND_CURRENT_ROW: puts_(o, "current-row"); break;
    case ATTU_BOUND_PRECEDING:
        puts_(o, "(preceding "); pr_expr(o, b->offset); puts_(o, ")"); break;
    case ATTU_BOUND_FOLLOWING:
        puts_(o, "(following "); pr_expr(o, b->offset); puts_(o, ")"); break;
    }
}

static void pr_window(out *o, const attu_ast_window *w) {
    puts_(o, "(over");
    if (w->partition_by.n) {
        puts_(o, " (partition ");
        pr_list(o, w->partition_by);
        puts_(o, ")");
    }
    if (w->order_by.n) { puts_(o, " "); pr_order(o, w->order_by); }
    if (w->frame_mode != ATTU_FRAME_DEFAULT) {
        puts_(o, w->frame_mode == ATTU_FRAME_ROWS ? " (rows " : w->frame_mode == ATTU_FRAME_GROUPS ? " (groups " : " (range ");
        pr_bound(o, &w->frame_start);
        puts_(o, " ");
        pr_bound(o, &w->frame_end);
        if (w->frame_exclude) puts_(o, w->frame_exclude == 1 ? " exclude-current-row" : w->frame_exclude == 2 ? " exclude-group" : " exclude-ties");
        puts_(o, ")");
    }
    puts_(o, ")");
}

static void pr_expr(out *o, const attu_ast_expr *e) {
    if (!e) { puts_(o, "<nil>"); return; }
    switch (e->kind) {
    case ATTU_EXPR_LITERAL:
        switch (e->u.literal.kind) {
        case ATTU_LIT_INTEGER: puts_(o, e->u.literal.text); break;
        case ATTU_LIT_NUMERIC: putf(o, "(num %s)", e->u.literal.text); break;
        case ATTU_LIT_STRING: put_quoted(o, e->u.literal.text, e->u.literal.len); break;
        case ATTU_LIT_BOOL:
        case ATTU_LIT_NULL: puts_(o, e->u.literal.text); break;
        }
        break;
    case ATTU_EXPR_COLUMN:
        if (e->u.column.qualifier) { put_name(o, e->u.column.qualifier); puts_(o, "."); }
        put_name(o, e->u.column.name);
        break;
    case ATTU_EXPR_STAR:
        if (e->u.star.qualifier) { put_name(o, e->u.star.qualifier); puts_(o, "."); }
        puts_(o, "*");
        break;
    case ATTU_EXPR_PARAM:
        putf(o, "$%d", e->u.param.number);
        break;
    case ATTU_EXPR_UNARY:
        if (e->u.unary.op == ATTU_UNOP_OTHER) {
            puts_(o, "(prefix ");
            puts_(o, e->u.unary.op_text);
            puts_(o, " ");
        } else {
            puts_(o, e->u.unary.op == ATTU_UNOP_NOT ? "(not " :
                     e->u.unary.op == ATTU_UNOP_NEG ? "(neg " : "(pos ");
        }
        pr_expr(o, e->u.unary.arg);
        puts_(o, ")");
        break;
    case ATTU_EXPR_BINARY: {
        const char *n = attu_ast_binary_op_name(e->u.binary.op);
        puts_(o, "(");
        if (e->u.binary.op == ATTU_BINOP_AND) n = "and";
        else if (e->u.binary.op == ATTU_BINOP_OR) n = "or";
        else if (e->u.binary.op == ATTU_BINOP_IS_DISTINCT) n = "is-distinct";
        else if (e->u.binary.op == ATTU_BINOP_IS_NOT_DISTINCT) n = "is-not-distinct";
        else if (e->u.binary.op == ATTU_BINOP_OTHER) n = e->u.binary.op_text;
        puts_(o, n);
        puts_(o, " ");
        pr_expr(o, e->u.binary.left);
        puts_(o, " ");
        pr_expr(o, e->u.binary.right);
        puts_(o, ")");
        break;
    }
    case ATTU_EXPR_IS: {
        static const char *what[] = { "", "null", "true", "false", "unknown" };
        putf(o, "(is-%s%s ", e->u.is.negated ? "not-" : "", what[e->u.is.what]);
        pr_expr(o, e->u.is.arg);
        puts_(o, ")");
        break;
    }
    case ATTU_EXPR_BETWEEN:
        putf(o, "(%sbetween%s ", e->u.between.negated ? "not-" : "",
             e->u.between.symmetric ? "-sym" : "");
        pr_expr(o, e->u.between.arg); puts_(o, " ");
        pr_expr(o, e->u.between.low); puts_(o, " ");
        pr_expr(o, e->u.between.high);
        puts_(o, ")");
        break;
    case ATTU_EXPR_IN_LIST:
        puts_(o, e->u.in_list.negated ? "(not-in " : "(in ");
        pr_expr(o, e->u.in_list.arg);
        puts_(o, " (");
        pr_list(o, e->u.in_list.list);
        puts_(o, "))");
        break;
    case ATTU_EXPR_IN_SUBQUERY:
        puts_(o, e->u.in_subquery.negated ? "(not-in " : "(in ");
        pr_expr(o, e->u.in_subquery.arg);
        puts_(o, " ");
        pr_query(o, e->u.in_subquery.query);
        puts_(o, ")");
        break;
    case ATTU_EXPR_EXISTS:
    case ATTU_EXPR_SUBQUERY:
        puts_(o, e->kind == ATTU_EXPR_EXISTS ? "(exists " : "(subquery ");
        pr_query(o, e->u.subquery.query);
        puts_(o, ")");
        break;
    case ATTU_EXPR_LIKE:
        putf(o, "(%s%s ", e->u.like.negated ? "not-" : "",
             e->u.like.similar ? "similar-to" : e->u.like.regex ? (e->u.like.case_insensitive ? "regex-i" : "regex")
             : e->u.like.case_insensitive ? "ilike" : "like");
        pr_expr(o, e->u.like.arg); puts_(o, " ");
        pr_expr(o, e->u.like.pattern);
        if (e->u.like.escape) {
            puts_(o, " (escape ");
            pr_expr(o, e->u.like.escape);
            puts_(o, ")");
        }
        puts_(o, ")");
        break;
    case ATTU_EXPR_CASE:
        puts_(o, "(case");
        if (e->u.case_.operand) { puts_(o, " "); pr_expr(o, e->u.case_.operand); }
        for (int i = 0; i < e->u.case_.nwhens; i++) {
            puts_(o, " (when ");
            pr_expr(o, e->u.case_.whens[i].when);
            puts_(o, " ");
            pr_expr(o, e->u.case_.whens[i].then);
            puts_(o, ")");
        }
        if (e->u.case_.else_) {
            puts_(o, " (else ");
            pr_expr(o, e->u.case_.else_);
            puts_(o, ")");
        }
        puts_(o, ")");
        break;
    case ATTU_EXPR_CAST:
        if (e->u.cast.syntax == ATTU_CAST_PREFIX) {
            puts_(o, "(typed ");
            pr_type(o, &e->u.cast.type);
            puts_(o, " ");
            pr_expr(o, e->u.cast.arg);
        } else {
            puts_(o, e->u.cast.syntax == ATTU_CAST_FUNCTION ? "(cast " : "(:: ");
            pr_expr(o, e->u.cast.arg);
            puts_(o, " ");
            pr_type(o, &e->u.cast.type);
        }
        puts_(o, ")");
        break;
    case ATTU_EXPR_FUNC:
        if (e->u.func.schema && !*e->u.func.schema) {
            /* GROUP BY's () and GROUPING SETS (...) (grammar.y group_by_item) */
            if (!e->u.func.args.n) { puts_(o, "()"); break; }
            puts_(o, "(grouping-sets ");
            pr_list(o, e->u.func.args);
            puts_(o, ")");
            break;
        }
        puts_(o, "(");
        if (e->u.func.schema) { put_name(o, e->u.func.schema); puts_(o, "."); }
        put_name(o, e->u.func.name);
        if (e->u.func.star) puts_(o, " *");
        if (e->u.func.distinct) puts_(o, " distinct");
        if (e->u.func.variadic) puts_(o, " variadic");
        if (e->u.func.args.n) { puts_(o, " "); pr_list(o, e->u.func.args); }
        if (e->u.func.order_by.n) {
            puts_(o, e->u.func.within_group ? " (within group " : " ");
            pr_order(o, e->u.func.order_by);
            if (e->u.func.within_group) puts_(o, ")");
        }
        if (e->u.func.filter) {
            puts_(o, " (filter ");
            pr_expr(o, e->u.func.filter);
            puts_(o, ")");
        }
        if (e->u.func.over) { puts_(o, " "); pr_window(o, e->u.func.over); }
        puts_(o, ")");
        break;
    case ATTU_EXPR_QUANTIFIED:
        putf(o, "(%s %s ", e->u.quantified.all ? "all" : "any", e->u.quantified.op_text);
        pr_expr(o, e->u.quantified.arg);
        puts_(o, " ");
        pr_query(o, e->u.quantified.query);
        puts_(o, ")");
        break;
    case ATTU_EXPR_DEFAULT:
        puts_(o, "default");
        break;
    case ATTU_EXPR_EXTRACT:
        puts_(o, "(extract ");
        put_name(o, e->u.extract.field);
        puts_(o, " ");
        pr_expr(o, e->u.extract.arg);
        puts_(o, ")");
        break;
    }
}

static void pr_alias(out *o, const attu_ast_from *f) {
    if (f->alias) { puts_(o, " (as "); put_name(o, f->alias);
        if (f->column_aliases.n) { puts_(o, " ("); pr_names(o, f->column_aliases); puts_(o, ")"); }
        puts_(o, ")");
    }
}

static void pr_from(out *o, const attu_ast_from *f) {
    static const char *jt[] = { "", "inner", "left", "right", "full", "cross" };
    switch (f->kind) {
    case ATTU_FROM_TABLE:
        puts_(o, "(table ");
        if (f->u.table.schema) { put_name(o, f->u.table.schema); puts_(o, "."); }
        put_name(o, f->u.table.name);
        pr_alias(o, f);
        puts_(o, ")");
        break;
    case ATTU_FROM_FUNCTION:
        puts_(o, f->u.function.lateral ? "(lateral-function " : "(function ");
        pr_expr(o, f->u.function.call);
        for (int i = 1; i < f->u.function.ncalls; i++) { puts_(o, " "); pr_expr(o, f->u.function.calls[i].call); }
        pr_alias(o, f);
        puts_(o, ")");
        break;
    case ATTU_FROM_SUBQUERY:
        puts_(o, f->u.subquery.lateral ? "(lateral-derived " : "(derived ");
        pr_query(o, f->u.subquery.query);
        pr_alias(o, f);
        puts_(o, ")");
        break;
    case ATTU_FROM_JOIN:
        putf(o, "(%sjoin %s ", f->u.join.natural ? "natural-" : "", jt[f->u.join.type]);
        pr_from(o, f->u.join.left);
        puts_(o, " ");
        pr_from(o, f->u.join.right);
        if (f->u.join.on) { puts_(o, " (on "); pr_expr(o, f->u.join.on); puts_(o, ")"); }
        if (f->u.join.using_.n) {
            puts_(o, " (using ");
            pr_names(o, f->u.join.using_);
            puts_(o, ")");
        }
        pr_alias(o, f);
        puts_(o, ")");
        break;
    }
}

static void pr_query(out *o, const attu_ast_query *q) {
    static const char *so[] = { "", "union", "intersect", "except" };
    if (!q) { puts_(o, "<nil>"); return; }
    puts_(o, "(");
    switch (q->kind) {
    case ATTU_QUERY_SELECT:
        puts_(o, "select");
        if (q->u.select.distinct) puts_(o, " distinct");
        if (q->u.select.distinct_on.n) {
            puts_(o, " (on ");
            pr_list(o, q->u.select.distinct_on);
            puts_(o, ")");
        }
        break;
    case ATTU_QUERY_VALUES:
        puts_(o, "values");
        break;
    case ATTU_QUERY_SETOP:
        puts_(o, so[q->u.setop.op]);
        if (q->u.setop.all) puts_(o, "-all");
        break;
    }
    if (q->with.n) {
        puts_(o, q->with.recursive ? " (with-recursive" : " (with");
        for (int i = 0; i < q->with.n; i++) {
            puts_(o, " (");
            put_name(o, q->with.items[i].name);
            if (q->with.items[i].columns.n) {
                puts_(o, " (");
                pr_names(o, q->with.items[i].columns);
                puts_(o, ")");
            }
            puts_(o, " ");
            pr_query(o, q->with.items[i].query);
            puts_(o, ")");
        }
        puts_(o, ")");
    }
    switch (q->kind) {
    case ATTU_QUERY_SELECT:
        puts_(o, " (items");
        for (int i = 0; i < q->u.select.nitems; i++) {
            puts_(o, " ");
            const attu_ast_select_item *it = &q->u.select.items[i];
            if (it->alias) {
                puts_(o, "(as ");
                pr_expr(o, it->expr);
                puts_(o, " ");
                put_name(o, it->alias);
                puts_(o, ")");
            } else {
                pr_expr(o, it->expr);
            }
        }
        puts_(o, ")");
        if (q->u.select.from.n) {
            puts_(o, " (from");
            for (int i = 0; i < q->u.select.from.n; i++) {
                puts_(o, " ");
                pr_from(o, q->u.select.from.items[i]);
            }
            puts_(o, ")");
        }
        if (q->u.select.where) {
            puts_(o, " (where ");
            pr_expr(o, q->u.select.where);
            puts_(o, ")");
        }
        if (q->u.select.group_by.n) {
            puts_(o, q->u.select.group_distinct ? " (group distinct " : " (group ");
            pr_list(o, q->u.select.group_by);
            puts_(o, ")");
        } else if (q->u.select.group_empty) {
            puts_(o, " (group ())");
        }
        if (q->u.select.having) {
            puts_(o, " (having ");
            pr_expr(o, q->u.select.having);
            puts_(o, ")");
        }
        break;
    case ATTU_QUERY_VALUES:
        for (int i = 0; i < q->u.values.nrows; i++) {
            puts_(o, " (");
            pr_list(o, q->u.values.rows[i]);
            puts_(o, ")");
        }
        break;
    case ATTU_QUERY_SETOP:
        puts_(o, " ");
        pr_query(o, q->u.setop.left);
        puts_(o, " ");
        pr_query(o, q->u.setop.right);
        break;
    }
    if (q->order_by.n) { puts_(o, " "); pr_order(o, q->order_by); }
    if (q->limit) { puts_(o, q->limit_with_ties ? " (limit with ties " : " (limit "); pr_expr(o, q->limit); puts_(o, ")"); }
    if (q->offset) { puts_(o, " (offset "); pr_expr(o, q->offset); puts_(o, ")"); }
    puts_(o, ")");
}

static void pr_options(out *o, const attu_ast_option *opts, int n) {
    for (int i = 0; i < n; i++) {
        puts_(o, " (");
        put_name(o, opts[i].name);
        if (opts[i].value) {
            puts_(o, " ");
            put_quoted(o, opts[i].value, strlen(opts[i].value));
        }
        if (opts[i].list.n) {
            puts_(o, " (");
            pr_names(o, opts[i].list);
            puts_(o, ")");
        }
        puts_(o, ")");
    }
}

/* One ALTER TABLE action: " (add-column if-not-exists (c integer not-null
 * (default 1)))", " (type c integer (using ...))", ... */
static void pr_alter_cmd(out *o, const attu_ast_alter_cmd *c) {
    static const char *const names[] = { "", "add-column", "drop-column", "rename-column", "rename-table",
                                         "set-default", "drop-default", "set-not-null", "drop-not-null", "type",
                                         "add-constraint", "drop-constraint", "add-identity", "set-identity",
                                         "drop-identity" };
    putf(o, " (%s", names[c->kind]);
    if (c->if_exists) puts_(o, c->kind == ATTU_ALTER_ADD_COLUMN ? " if-not-exists" : " if-exists");
    if (c->kind == ATTU_ALTER_ADD_COLUMN) {
        puts_(o, " (");
        put_name(o, c->def.name);
        puts_(o, " ");
        pr_type(o, &c->def.type);
        if (c->def.not_null) puts_(o, " not-null");
        if (c->constraint) puts_(o, " constraint");
        if (c->def.default_) { puts_(o, " (default "); pr_expr(o, c->def.default_); puts_(o, ")"); }
        puts_(o, ")");
    }
    if (c->key) {
        puts_(o, c->key->primary ? " (primary-key" : " (unique");
        if (c->key->name) { puts_(o, " "); put_name(o, c->key->name); }
        puts_(o, " ");
        pr_names(o, c->key->columns);
        puts_(o, ")");
    }
    if (c->column) { puts_(o, " "); put_name(o, c->column); }
    if (c->new_name) { puts_(o, " "); put_name(o, c->new_name); }
    if (c->kind == ATTU_ALTER_TYPE) { puts_(o, " "); pr_type(o, &c->type); }
    if (c->expr) {
        puts_(o, c->kind == ATTU_ALTER_TYPE ? " (using " : " (default ");
        pr_expr(o, c->expr);
        puts_(o, ")");
    }
    puts_(o, ")");
}

static void pr_stmt(out *o, const attu_ast_stmt *s) {
    switch (s->kind) {
    case ATTU_STMT_SELECT:
        pr_query(o, s->u.select.query);
        break;
    case ATTU_STMT_INSERT:
        puts_(o, "(insert ");
        put_name(o, s->u.insert.table);
        if (s->u.insert.columns.n) {
            puts_(o, " (cols ");
            pr_names(o, s->u.insert.columns);
            puts_(o, ")");
        }
        for (int k = 0; s->u.insert.targets && k < s->u.insert.columns.n; k++) {
            if (!s->u.insert.targets[k]) continue;   /* a[i]: its subscripts on the column */
            puts_(o, " (target ");
            pr_expr(o, s->u.insert.targets[k]);
            puts_(o, ")");
        }
        puts_(o, " ");
        if (s->u.insert.source) pr_query(o, s->u.insert.source);
        else puts_(o, "default-values");
        puts_(o, ")");
        break;
    case ATTU_STMT_CREATE_TABLE:
        puts_(o, "(create-table ");
        if (s->u.create_table.if_not_exists) puts_(o, "if-not-exists ");
        put_name(o, s->u.create_table.table);
        for (int i = 0; i < s->u.create_table.ncolumns; i++) {
            const attu_ast_column_def *d = &s->u.create_table.columns[i];
            puts_(o, " (");
            put_name(o, d->name);
            puts_(o, " ");
            pr_type(o, &d->type);
            if (d->primary_key) puts_(o, " primary-key");
            else if (d->not_null) puts_(o, " not-null");
            if (d->default_) { puts_(o, " (default "); pr_expr(o, d->default_); puts_(o, ")"); }
            puts_(o, ")");
        }
        puts_(o, ")");
        break;
    case ATTU_STMT_CREATE_TABLE_AS:
        puts_(o, "(create-table-as ");
        if (s->u.create_table_as.if_not_exists) puts_(o, "if-not-exists ");
        put_name(o, s->u.create_table_as.table);
        if (s->u.create_table_as.columns.n) {
            puts_(o, " (cols ");
            pr_names(o, s->u.create_table_as.columns);
            puts_(o, ")");
        }
        puts_(o, " ");
        if (s->u.create_table_as.execute) pr_stmt(o, s->u.create_table_as.execute);
        else pr_query(o, s->u.create_table_as.query);
        if (s->u.create_table_as.with_no_data) puts_(o, " no-data");
        puts_(o, ")");
        break;
    case ATTU_STMT_CREATE_VIEW:
        puts_(o, s->u.create_view.materialized ? "(create-materialized-view "
                 : s->u.create_view.or_replace ? "(create-or-replace-view " : "(create-view ");
        put_name(o, s->u.create_view.view);
        if (s->u.create_view.columns.n) {
            puts_(o, " (cols ");
            pr_names(o, s->u.create_view.columns);
            puts_(o, ")");
        }
        puts_(o, " ");
        pr_query(o, s->u.create_view.query);
        if (s->u.create_view.check_option) puts_(o, s->u.create_view.check_option == 'l' ? " local-check" : " cascaded-check");
        puts_(o, ")");
        break;
    case ATTU_STMT_REFRESH_MATVIEW:
        puts_(o, "(refresh-materialized-view ");
        pr_names(o, s->u.drop_table.tables);
        if (s->u.drop_table.materialized) puts_(o, " no-data");
        puts_(o, ")");
        break;
    case ATTU_STMT_DROP_VIEW:
    case ATTU_STMT_DROP_TABLE:
        puts_(o, s->kind == ATTU_STMT_DROP_VIEW ? "(drop-view " : "(drop-table ");
        if (s->u.drop_table.if_exists) puts_(o, "if-exists ");
        pr_names(o, s->u.drop_table.tables);
        if (s->u.drop_table.cascade) puts_(o, " cascade");
        puts_(o, ")");
        break;
    case ATTU_STMT_COPY:
        puts_(o, "(copy ");
        if (s->u.copy.query) pr_query(o, s->u.copy.query);
        else put_name(o, s->u.copy.table);
        if (s->u.copy.columns.n) {
            puts_(o, " (cols ");
            pr_names(o, s->u.copy.columns);
            puts_(o, ")");
        }
        puts_(o, s->u.copy.is_from ? " from " : " to ");
        if (s->u.copy.target == ATTU_COPY_STDIN) puts_(o, "stdin");
        else if (s->u.copy.target == ATTU_COPY_STDOUT) puts_(o, "stdout");
        else put_quoted(o, s->u.copy.filename, strlen(s->u.copy.filename));
        pr_options(o, s->u.copy.options, s->u.copy.noptions);
        puts_(o, ")");
        break;
    case ATTU_STMT_EXPLAIN:
        puts_(o, "(explain");
        if (s->u.explain.analyze) puts_(o, " analyze");
        if (s->u.explain.verbose) puts_(o, " verbose");
        pr_options(o, s->u.explain.options, s->u.explain.noptions);
        puts_(o, " ");
        pr_stmt(o, s->u.explain.stmt);
        puts_(o, ")");
        break;
    case ATTU_STMT_SET:
        puts_(o, s->u.set.local ? "(set-local " : "(set ");
        put_name(o, s->u.set.name);
        if (s->u.set.to_default) puts_(o, " default");
        for (int i = 0; i < s->u.set.nvalues; i++) {
            puts_(o, " ");
            put_quoted(o, s->u.set.values[i], strlen(s->u.set.values[i]));
        }
        puts_(o, ")");
        break;
    case ATTU_STMT_RESET:
        puts_(o, "(reset ");
        if (s->u.reset.name) put_name(o, s->u.reset.name);
        else puts_(o, "all");
        puts_(o, ")");
        break;
    case ATTU_STMT_SHOW:
        puts_(o, "(show ");
        put_name(o, s->u.show.name);
        puts_(o, ")");
        break;
    case ATTU_STMT_SHOW_TABLES:
        puts_(o, "(show-tables)");
        break;
    case ATTU_STMT_DESCRIBE:
        puts_(o, "(describe ");
        put_name(o, s->u.describe.table);
        puts_(o, ")");
        break;
    case ATTU_STMT_TRANSACTION:
        puts_(o, s->u.transaction.kind == ATTU_TXN_BEGIN ? "(begin" :
                 s->u.transaction.kind == ATTU_TXN_COMMIT ? "(commit" :
                 s->u.transaction.kind == ATTU_TXN_SAVEPOINT ? "(savepoint" :
                 s->u.transaction.kind == ATTU_TXN_RELEASE ? "(release" :
                 s->u.transaction.kind == ATTU_TXN_ROLLBACK_TO ? "(rollback-to" : "(rollback");
        if (s->u.transaction.chain) puts_(o, " and-chain");
        if (s->u.transaction.savepoint) { puts_(o, " "); put_name(o, s->u.transaction.savepoint); }
        puts_(o, ")");
        break;
    case ATTU_STMT_DEALLOCATE:
        puts_(o, "(deallocate ");
        if (s->u.deallocate.name) put_name(o, s->u.deallocate.name);
        else puts_(o, "all");
        puts_(o, ")");
        break;
    case ATTU_STMT_DISCARD:
        puts_(o, s->u.discard.what == ATTU_DISCARD_ALL ? "(discard all)" :
                 s->u.discard.what == ATTU_DISCARD_PLANS ? "(discard plans)" :
                 s->u.discard.what == ATTU_DISCARD_SEQUENCES ? "(discard sequences)" : "(discard temp)");
        break;
    case ATTU_STMT_LISTEN:
        puts_(o, s->u.listen.op == 'L' ? "(listen " : s->u.listen.op == 'U' ? "(unlisten " : "(notify ");
        if (s->u.listen.channel) put_name(o, s->u.listen.channel);
        else puts_(o, "*");
        puts_(o, ")");
        break;
    case ATTU_STMT_PREPARE:
        puts_(o, "(prepare ");
        put_name(o, s->u.prepare.name);
        if (s->u.prepare.ntypes) {
            puts_(o, " (types");
            for (int i = 0; i < s->u.prepare.ntypes; i++) { puts_(o, " "); pr_type(o, &s->u.prepare.types[i]); }
            puts_(o, ")");
        }
        puts_(o, " ");
        pr_stmt(o, s->u.prepare.stmt);
        puts_(o, ")");
        break;
    case ATTU_STMT_EXECUTE:
        puts_(o, "(execute ");
        put_name(o, s->u.execute.name);
        if (s->u.execute.args.n) { puts_(o, " "); pr_list(o, s->u.execute.args); }
        puts_(o, ")");
        break;
    case ATTU_STMT_DELETE: case ATTU_STMT_UPDATE:
        puts_(o, s->kind == ATTU_STMT_DELETE ? "(delete " : "(update ");
        put_name(o, s->u.modify.table);
        if (s->u.modify.alias) { puts_(o, " (as "); put_name(o, s->u.modify.alias); puts_(o, ")"); }
        if (s->u.modify.nsets) {
            puts_(o, " (set");
            for (int i = 0; i < s->u.modify.nsets; i++) {
                puts_(o, " (");
                put_name(o, s->u.modify.sets[i].column);
                puts_(o, " ");
                pr_expr(o, s->u.modify.sets[i].value);
                puts_(o, ")");
            }
            puts_(o, ")");
        }
        if (s->u.modify.from.n) {
            puts_(o, s->kind == ATTU_STMT_DELETE ? " (using" : " (from");
            for (int i = 0; i < s->u.modify.from.n; i++) { puts_(o, " "); pr_from(o, s->u.modify.from.items[i]); }
            puts_(o, ")");
        }
        if (s->u.modify.where) { puts_(o, " (where "); pr_expr(o, s->u.modify.where); puts_(o, ")"); }
        if (s->u.modify.nreturning) {
            puts_(o, " (returning");
            for (int i = 0; i < s->u.modify.nreturning; i++) {
                const attu_ast_select_item *it = &s->u.modify.returning[i];
                puts_(o, " ");
                if (it->alias) { puts_(o, "(as "); pr_expr(o, it->expr); puts_(o, " "); put_name(o, it->alias); puts_(o, ")"); }
                else pr_expr(o, it->expr);
            }
            puts_(o, ")");
        }
        puts_(o, ")");
        break;
    case ATTU_STMT_TRUNCATE:
        puts_(o, "(truncate ");
        pr_names(o, s->u.truncate.tables);
        if (s->u.truncate.restart_identity) puts_(o, " restart-identity");
        puts_(o, ")");
        break;
    case ATTU_STMT_ROLE:
        puts_(o, "(role ");
        puts_(o, s->u.role.name ? s->u.role.name : "");
        puts_(o, ")");
        break;
    case ATTU_STMT_MAINTENANCE:
        puts_(o, s->u.maintenance.vacuum ? "(vacuum " : "(analyze ");
        pr_names(o, s->u.maintenance.tables);
        puts_(o, ")");
        break;
    case ATTU_STMT_LOCK:
        puts_(o, "(lock ");
        pr_names(o, s->u.lock.tables);
        putf(o, " mode %d%s)", s->u.lock.mode, s->u.lock.nowait ? " nowait" : "");
        break;
    case ATTU_STMT_CREATE_SEQUENCE:
        puts_(o, "(create-sequence ");
        if (s->u.create_sequence.if_not_exists) puts_(o, "if-not-exists ");
        put_name(o, s->u.create_sequence.name);
        puts_(o, ")");
        break;
    case ATTU_STMT_DROP_SEQUENCE:
        puts_(o, "(drop-sequence ");
        if (s->u.drop_table.if_exists) puts_(o, "if-exists ");
        pr_names(o, s->u.drop_table.tables);
        puts_(o, ")");
        break;
    case ATTU_STMT_COMMENT:
        puts_(o, "(comment ");
        put_name(o, s->u.comment.rel);
        if (s->u.comment.sub) { puts_(o, " "); put_name(o, s->u.comment.sub); }
        puts_(o, ")");
        break;
    case ATTU_STMT_ALTER_SEQUENCE:
        puts_(o, "(alter-sequence ");
        if (s->u.create_sequence.if_exists) puts_(o, "if-exists ");
        put_name(o, s->u.create_sequence.name);
        if (s->u.create_sequence.new_name) { puts_(o, " rename "); put_name(o, s->u.create_sequence.new_name); }
        puts_(o, ")");
        break;
    case ATTU_STMT_CREATE_INDEX:
        puts_(o, "(create-index ");
        if (s->u.create_index.unique) puts_(o, "unique ");
        if (s->u.create_index.name) { put_name(o, s->u.create_index.name); puts_(o, " "); }
        put_name(o, s->u.create_index.table);
        for (int i = 0; i < s->u.create_index.nelems; i++) {
            puts_(o, " ");
            if (s->u.create_index.elems[i].column) put_name(o, s->u.create_index.elems[i].column);
            else pr_expr(o, s->u.create_index.elems[i].expr);
        }
        puts_(o, ")");
        break;
    case ATTU_STMT_DROP_INDEX:
        puts_(o, "(drop-index ");
        if (s->u.drop_table.if_exists) puts_(o, "if-exists ");
        pr_names(o, s->u.drop_table.tables);
        puts_(o, ")");
        break;
    case ATTU_STMT_ALTER_INDEX:
        puts_(o, "(alter-index ");
        put_name(o, s->u.alter_index.name);
        puts_(o, ")");
        break;
    case ATTU_STMT_DECLARE_CURSOR:
        puts_(o, "(declare ");
        put_name(o, s->u.cursor.name);
        if (s->u.cursor.binary) puts_(o, " binary");
        if (s->u.cursor.scroll) puts_(o, " scroll");
        if (s->u.cursor.no_scroll) puts_(o, " no-scroll");
        if (s->u.cursor.hold) puts_(o, " hold");
        puts_(o, " ");
        pr_query(o, s->u.cursor.query);
        puts_(o, ")");
        break;
    case ATTU_STMT_FETCH: {
        static const char *const dirs[] = { "", "forward", "backward", "absolute", "relative" };
        char n[32];
        if (s->u.fetch.count == ATTU_FETCH_ALL) snprintf(n, sizeof n, "all");
        else snprintf(n, sizeof n, "%lld", (long long)s->u.fetch.count);
        puts_(o, s->u.fetch.move ? "(move " : "(fetch ");
        puts_(o, dirs[s->u.fetch.dir]);
        puts_(o, " ");
        puts_(o, n);
        puts_(o, " ");
        put_name(o, s->u.fetch.name);
        puts_(o, ")");
        break;
    }
    case ATTU_STMT_MERGE:
        puts_(o, "(merge ");
        put_name(o, s->u.modify.table);
        if (s->u.modify.alias) { puts_(o, " (as "); put_name(o, s->u.modify.alias); puts_(o, ")"); }
        puts_(o, " (using ");
        pr_from(o, s->u.modify.from.items[0]);
        puts_(o, ") (on ");
        pr_expr(o, s->u.modify.where);
        puts_(o, ")");
        for (int i = 0; i < s->u.modify.nwhens; i++) {
            const attu_ast_merge_when *w = &s->u.modify.whens[i];
            puts_(o, w->matched ? " (matched" : " (not-matched");
            if (w->cond) { puts_(o, " (and "); pr_expr(o, w->cond); puts_(o, ")"); }
            switch (w->action) {
            case 'u':
                puts_(o, " (update");
                for (int k = 0; k < w->nsets; k++) {
                    puts_(o, " (");
                    put_name(o, w->sets[k].column);
                    puts_(o, " ");
                    pr_expr(o, w->sets[k].value);
                    puts_(o, ")");
                }
                puts_(o, ")");
                break;
            case 'd': puts_(o, " delete"); break;
            case 'i':
                puts_(o, " (insert");
                if (w->columns.n) {
                    puts_(o, " (columns");
                    for (int k = 0; k < w->columns.n; k++) { puts_(o, " "); put_name(o, w->columns.items[k]); }
                    puts_(o, ")");
                }
                if (w->overriding) puts_(o, w->overriding == 's' ? " (overriding system)" : " (overriding user)");
                if (!w->values.n) puts_(o, " default-values");
                for (int k = 0; k < w->values.n; k++) { puts_(o, " "); pr_expr(o, w->values.items[k]); }
                puts_(o, ")");
                break;
            default: puts_(o, " nothing"); break;
            }
            puts_(o, ")");
        }
        puts_(o, ")");
        break;
    case ATTU_STMT_SET_CONSTRAINTS:
        puts_(o, "(set-constraints ");
        for (int i = 0; i < s->u.set_constraints.names.n; i++) {
            put_name(o, s->u.set_constraints.names.items[i]);
            puts_(o, " ");
        }
        if (!s->u.set_constraints.names.n) puts_(o, "all ");
        puts_(o, s->u.set_constraints.deferred ? "deferred)" : "immediate)");
        break;
    case ATTU_STMT_TYPE:
        puts_(o, "(type ");
        { char a[2] = { s->u.type_stmt.action, 0 }; puts_(o, a); }
        puts_(o, " ");
        if (s->u.type_stmt.name) put_name(o, s->u.type_stmt.name);
        for (int i = 0; i < s->u.type_stmt.labels.n; i++) { puts_(o, " "); put_name(o, s->u.type_stmt.labels.items[i]); }
        puts_(o, ")");
        break;
    case ATTU_STMT_CLOSE_CURSOR:
        puts_(o, "(close ");
        if (s->u.close_cursor.name) put_name(o, s->u.close_cursor.name);
        else puts_(o, "all");
        puts_(o, ")");
        break;
    case ATTU_STMT_ALTER_TABLE:
        puts_(o, "(alter-table ");
        if (s->u.alter_table.if_exists) puts_(o, "if-exists ");
        put_name(o, s->u.alter_table.table);
        for (int i = 0; i < s->u.alter_table.ncmds; i++) pr_alter_cmd(o, &s->u.alter_table.cmds[i]);
        puts_(o, ")");
        break;
    }
}

static size_t finish(out *o) {
    if (o->cap) o->buf[o->len < o->cap ? o->len : o->cap - 1] = '\0';
    return o->len;
}

size_t attu_ast_print_stmt(const attu_ast_stmt *s, char *buf, size_t cap) {
    out o = { buf, cap, 0 };
    if (s) pr_stmt(&o, s);
    return finish(&o);
}

size_t attu_ast_print_expr(const attu_ast_expr *e, char *buf, size_t cap) {
    out o = { buf, cap, 0 };
    pr_expr(&o, e);
    return finish(&o);
}
