/*
 * binder_internal.h - what the binder's files share: the binding context,
 * scopes (the columns a name can resolve to) and the typing helpers.
 */
#ifndef ATTU_PLANNER_BINDER_INTERNAL_H
#define ATTU_PLANNER_BINDER_INTERNAL_H

#include "planner/binder.h"

/* Column numbers at or above this refer to the enclosing query's scope:
 * OUTER_BASE * level + k is column k of the query `level` levels out
 * (level 1: the enclosing one), level < OUTER_LEVELS_MAX. */
#define OUTER_BASE 2000000
#define OUTER_LEVELS_MAX 64

/* An aggregate of a subquery whose arguments read only queries further
 * out belongs, as in PostgreSQL, to the nearest query level its
 * arguments read (SELECT (SELECT sum(a.x) FROM b) FROM a aggregates a's
 * rows). The subquery sees it as an outer reference to the pseudo column
 * OAGG_BASE + i of that level, i indexing the statement's outer_aggs;
 * when the reference reaches its level as a parameter's key,
 * decorrelate_param puts the aggregate itself in its place. */
#define OAGG_BASE 1700000

typedef struct outer_aggs {
    int                n, cap;
    struct attu_bexpr **agg;     /* over the owning level's FROM scope */
} outer_aggs;

/* Where a subquery sits in the query one level out: whether that level
 * takes aggregates there (its clause, for 42803's message). */
typedef struct agg_level {
    bool                    allow, in_agg;
    const char             *clause;
    const struct agg_level *up;
} agg_level;

typedef struct scope_col {
    const char *qual;      /* table name or alias; NULL for derived names */
    const char *name;
    attu_type   type;
    const char *domain;    /* a table column's domain (engine/domain_type.h), or NULL */
    bool        hidden;    /* not in *, not found unqualified (USING's right copy, rowid) */
    bool        is_rowid;
    /* a system column (a catalog table's tableoid): hidden from *, yet
     * found unqualified, as PostgreSQL's */
    bool        system;
    /* a catalog table's int2vector / oidvector column (attu_system_vector_column) */
    bool        vector;
    /* a derived table's row column: its fields' names (nrow_names of
     * them), as the row's FROM item named its columns; NULL: f1, f2 ... */
    const char *const *row_names;
    int         nrow_names;
    /* a system column, or a table's rowid (which answers the table's
     * tableoid), of a relation inside an explicit JOIN: found qualified
     * only (PostgreSQL's join has no system columns of its own) */
    bool        in_join;
    /* one side's copy of a USING / NATURAL column whose merged column is
     * another scope entry: hidden, yet l.k finds it and l.* lists it */
    bool        using_copy;
    int         star_pos;  /* order in an unqualified * (USING's merged columns come first) */
    int         qual_pos;  /* order in qual.* */
    int         source;    /* which FROM item instance */
    /* a correlated scalar subquery's value: the enclosing scope's columns
     * it reads (under GROUP BY it is a group when they all are) */
    int        *deps;
    int        *dep_pos;   /* the position of each one's first reference */
    int         ndeps;
    /* a correlated subquery's value computed after the aggregation (it
     * reads an aggregate of this level): column post_off of the values
     * appended to the AGG node's output, in pending order */
    bool        post_agg;
    int         post_off;
    /* a derived table's row column: its row_items items are the hidden
     * columns row_items_at entries further on (row_value.c) */
    int         row_items, row_items_at;
    /* a table's or a view's column: the named row type its whole-row
     * value has (the table's or view's name) and the column's name in it,
     * whatever alias the query gives (json_populate_record's keys,
     * planner/srf.c); NULL for a derived table's record */
    const char *row_type, *type_col;
    /* the one column of a function in FROM returning a scalar type: a
     * whole-row reference to its FROM item is this column's value */
    bool        scalar_row;
} scope_col;

typedef struct scope {
    int        n;
    scope_col *cols;
    int        cap;      /* cols' room (scope_push grows it by doubling; 0: none owned) */
} scope;

typedef struct cte_def {
    const char         *name;
    const attu_ast_cte *cte;
    struct cte_def     *next;
    /* WITH RECURSIVE: the query sees itself. While its non-recursive term
     * is bound (state 1) or it is not a UNION (state 3), a reference to it
     * is an error; while its recursive term is bound (state 2), a
     * reference reads the work table worktable, with these columns. */
    bool                recursive;
    int                 state;
    bool                referenced;
    int                 worktable;
    int                 work_depth;    /* sublink_depth of its recursive term */
    int                 work_ncols;
    attu_type          *work_types;
    char              **work_names;
    /* The values of the sequence functions its query called when it was
     * first bound (planner/sequence_functions.c): a WITH query read twice
     * is bound twice, and the second binding takes the same values, as
     * PostgreSQL evaluates such a query once. seq_pos counts the calls of
     * the binding under way. */
    int64_t            *seq_vals;
    int                 seq_n, seq_cap, seq_pos;
    bool                seq_replay;
} cte_def;

typedef struct pending_join {
    attu_lplan  *sub;        /* groups (keys) first, then the value column */
    int          nkeys;
    attu_bexpr **outer_keys; /* over the enclosing plan's columns */
    int          value_col;  /* in sub */
    /* general form (sub == NULL): the enclosing plan P numbered by
     * row_number(), LEFT JOINed to `inner` on `cond` (over P ++ number ++
     * inner), grouped by P's columns and the number, aggregated by `aggs`
     * (over that join), then `value` (over the groups ++ aggregates): adds
     * one column to P, the subquery's value for each row */
    attu_lplan    *inner;
    attu_bexpr    *cond;
    attu_agg_spec *aggs;
    int            naggs;
    attu_bexpr    *value;
    /* apply form (apply): like the general form, `inner` ends with a
     * marker column (TRUE) and the aggregates read only the joined rows
     * that count (matched, and with `rank`, numbered by it within
     * offset < n <= offset + limit); see decorrelate_apply */
    bool           apply;
    attu_agg_spec *rank;         /* row_number / dense_rank of an outer row's matches, or NULL */
    int64_t        limit, offset;
    /* parameterised form (param_sub): the subquery plan itself, reading
     * parameters param_slots[i] = outer_keys[i] (nkeys of them), run per
     * distinct binding by an LP_APPLY: adds rows ++ param_sub's columns */
    attu_lplan    *param_sub;
    int           *param_slots;
    int            scope_base;   /* its first column in the enclosing scope (rows) */
    /* its keys read aggregates of this level: applied to the AGG node's
     * output, not to the FROM rows (see bind_select) */
    bool           post_agg;
} pending_join;

typedef struct bctx {
    attu_plan_arena *pa;
    /* binding the WHERE of a row subquery's rewritten EXISTS
     * (attu_ast_query.lift_aggs): its aggregates of no column belong to
     * the query one level out, where they were written */
    bool             agg_lift;
    attu_catalog    *cat;
    const char      *sql;
    attu_error      *err;
    const attu_bind_params *params;
    cte_def         *ctes;
    int              next_source;
    int              next_worktable;   /* ids of WITH RECURSIVE work tables */
    int              sublink_depth;    /* expression subqueries being bound around this one */
    /* > 0 while binding a part of an expression that PostgreSQL evaluates
     * only for some rows (a CASE result or later condition, COALESCE's
     * later arguments, an AND / OR operand): a subquery there runs only
     * for the rows that reach it, so its errors are deferred to them */
    int              cond_depth;
    /* expression context */
    const char      *clause;     /* "WHERE", "JOIN conditions", ... for messages */
    bool             allow_agg;
    bool             allow_window;
    bool             in_agg;
    /* binding a window call's arguments (1) or its PARTITION BY / ORDER BY
     * (2), 0 otherwise: what a window call found there is told, as
     * PostgreSQL's words for it */
    int8_t           in_window;
    bool             allow_srf;  /* a set-returning function may stand here: the
                                    select list only (planner/srf.c) */
    const char      *srf_clause; /* where allow_srf is false, the clause its
                                    message names if not `clause` */
    /* the plain SELECT being bound as an arm of a set operation: a bare
     * undeclared parameter in its list is left for the set operation to
     * type (the other arm's type), as PostgreSQL leaves it unknown there */
    const struct attu_ast_query *setop_arm;
    const attu_type *values_hint;   /* INSERT target types for the top VALUES */
    int              nvalues_hint;
    const char *const *values_hint_names;
    const scope     *outer;          /* enclosing query's scope (correlation) */
    /* the scopes further out (only to tell a reference to them, which is
     * not supported, from a name that does not exist) */
    const struct outer_link *outer_up;
    /* correlated scalar subqueries of the SELECT being bound: each becomes
     * a LEFT JOIN of the current plan with the subquery grouped by its
     * correlation keys (applied by bind_select before the next clause) */
    struct pending_join *pending;
    int              npending;
    bool             saw_outer;      /* a name resolved to the outer scope */
    /* the next free parameter slot of the statement (LP_APPLY), shared by
     * every subquery's context */
    int             *next_param;
    /* scalar subqueries bound so far and their column's name, which
     * names an unnamed select-list item as PostgreSQL does */
    struct subq_name *subq_names;
    /* the statement's outer-level aggregates (shared), and where this
     * subquery sits in the query one level out (NULL at the top) */
    outer_aggs      *oaggs;
    const agg_level *agg_level;
    /* the views being expanded around this query, innermost first
     * (binder_view.c): a view met again is infinite recursion */
    const struct view_link *views;
    /* the innermost WITH query whose binding is under way (its sequence
     * function values, see cte_def); NULL outside one */
    cte_def         *seq_cte;
    /* the catalog function being bound (planner/catalog_functions.c):
     * where its body's argument names stand, and what they stand for */
    struct syscat_macro *macro;
    /* the SQL function call being inlined (planner/sql_function_bind.c):
     * what its parameters stand for */
    struct sql_fn_frame *sql_fn;
    /* the set-returning SQL functions' FROM items of the query (their
     * stand-in queries; sql_function_bind.c) */
    const struct sql_fn_from *sql_fn_from;
    /* the row values bound so far and their items (planner/row_value.c),
     * for an ORDER BY that orders by a row item by item */
    struct row_fields *row_fields;
    /* the derived table whose row columns carry their items (row_value.c
     * attu_row_value_carry): its query, and after binding it where each
     * of its carry_total columns' items went (the first carry_n0 are its
     * list's, the others items, of a nested row perhaps) */
    const struct attu_ast_query *carry_query;
    int             *carry_at, *carry_cnt, carry_n0, carry_total;
    /* binding a domain's CHECK for a cast to the domain (domain_bind.c):
     * what the name VALUE stands for */
    struct attu_bexpr *domain_value;
    /* the domain of the column the last column reference found (NULL:
     * none), which pg_typeof of a column reads */
    const char *last_domain;
    /* whether that column is a catalog's int2vector / oidvector */
    bool last_vector;
    /* the domain of each item of every SELECT block bound (its select
     * list's, NULL: none), newest first: a derived table's columns and
     * attu_bind_query's params->domains_out read them */
    struct select_domains *select_domains;
    /* the cast attu_domain_array_cast made, bound as a plain conversion */
    const struct attu_ast_expr *array_domain_cast;
    /* bind_query calls under way: 1 while the statement's own query
     * (its top level, where a data-modifying WITH query may stand) */
    int                 query_nest;
} bctx;

typedef struct select_domains {
    const struct attu_ast_query  *q;
    const char                  **domains;
    int                           n;
    struct select_domains        *next;
    /* each row item's field names (attu_row_field_names), else NULL */
    const char *const           **row_names;
    int                          *nrow_names;
} select_domains;

typedef struct view_link {
    const struct attu_view  *view;
    const struct view_link  *next;
} view_link;

/* views (binder_view.c): v's query parsed again from its text, the parse
 * kept until the plan arena is freed; NULL with c->err set */
const struct attu_ast_query *attu_view_parse(bctx *c, const struct attu_view *v);
/* 42P17 when v is being expanded around this query already */
bool attu_view_check_recursion(bctx *c, const struct attu_view *v);

typedef struct outer_link {
    const scope             *sc;
    const struct outer_link *next;
} outer_link;

typedef struct subq_name {
    const struct attu_ast_expr *expr;
    const char                 *name;
    struct subq_name           *next;
} subq_name;

attu_bexpr *bind_expr(bctx *c, const scope *sc, const attu_ast_expr *e);
attu_bexpr *coerce(bctx *c, attu_bexpr *e, attu_type t, bool explicit_cast, int pos);
/* which opcode casts from -> to, or -1; *implicit_ok: whether silently */
int attu_cast_opcode(attu_type from, attu_type to, bool *implicit_ok);
/* arrays (planner/array_bind.c) */
attu_bexpr *attu_array_parse_literal(bctx *c, attu_bexpr *r, const char *s, size_t len);
attu_bexpr *attu_array_coerce(bctx *c, attu_bexpr *e, attu_type t, bool explicit_cast, int pos);
attu_bexpr *attu_array_assign(bctx *c, attu_bexpr *e, attu_type t, int pos);
attu_bexpr *attu_array_with_mod(bctx *c, attu_bexpr *e, attu_type t, bool explicit_cast, int pos);
attu_bexpr *attu_array_compare(bctx *c, attu_opcode text_op, const char *opname, attu_bexpr *l, attu_bexpr *r,
                               int pos);
attu_bexpr *attu_array_concat(bctx *c, attu_bexpr *l, attu_bexpr *r, int pos);
bool attu_array_function_name(const char *name);
attu_bexpr *attu_array_singleton(bctx *c, attu_bexpr *x, int pos);
attu_bexpr *attu_array_key_expr(bctx *c, attu_bexpr *a);
attu_bexpr *attu_array_canon_expr(bctx *c, attu_bexpr *a, bool nested);
attu_bexpr *attu_array_order_code(bctx *c, attu_bexpr *a);
attu_bexpr *attu_array_order_decode(bctx *c, attu_bexpr *d, attu_type t);
attu_bexpr *attu_bind_unnest(bctx *c, const scope *sc, const attu_ast_expr *e);
/* regexp_match, regexp_split_to_array, regexp_matches and
 * regexp_split_to_table (planner/regexp_setof_bind.c): the scalar ones
 * over their bound arguments; the set-returning ones in the select list,
 * and in FROM as a series (a BX_SRF) with the value each row is read from
 * (*src) and that row's value. */
attu_bexpr *attu_bind_regexp_array(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n);
bool attu_regexp_srf_name(const char *name);
attu_bexpr *attu_bind_regexp_srf(bctx *c, const scope *sc, const attu_ast_expr *e);
attu_bexpr *attu_regexp_srf_series(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n, attu_bexpr **src);
attu_bexpr *attu_regexp_srf_element(bctx *c, attu_bexpr *src, attu_bexpr *k, int pos);
/* format(formatstr, VARIADIC "any") over its bound arguments (planner/format_bind.c) */
attu_bexpr *attu_bind_format(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n);
/* An "any" argument as the text its type's output function prints
 * (concat's, format's arguments; planner/functions.c) */
attu_bexpr *attu_output_text_arg(bctx *c, attu_bexpr *a, int pos);
attu_bexpr *attu_unnest_series(bctx *c, attu_bexpr *a, int pos);
attu_bexpr *attu_bind_generate_subscripts(bctx *c, const scope *sc, const attu_ast_expr *e, bool in_from);
attu_bexpr *attu_unnest_element(bctx *c, attu_bexpr *a, attu_bexpr *k, int pos);
/* array_to_string(a, sep): the elements' text joined by sep (text) */
attu_bexpr *attu_array_to_string(bctx *c, attu_bexpr *a, attu_bexpr *sep, int pos);
attu_bexpr *attu_bind_array_ctor_cast(bctx *c, const scope *sc, const attu_ast_expr *ae, attu_type t, int pos);
attu_bexpr *attu_bind_array_call(bctx *c, const scope *sc, const attu_ast_expr *e);
attu_bexpr *coerce_bool(bctx *c, attu_bexpr *e, const char *what);
/* enum types (planner/enum_bind.c) */
attu_bexpr *attu_enum_parse_literal(bctx *c, attu_bexpr *r, const char *s, size_t len);
attu_bexpr *attu_enum_coerce(bctx *c, attu_bexpr *e, attu_type t, bool explicit_cast, int pos);
attu_bexpr *attu_enum_first_last(bctx *c, attu_bexpr *x, bool last, int pos);
attu_bexpr *attu_enum_range(bctx *c, attu_bexpr **args, int n, int pos);
/* uuid and bytea (planner/bytea_bind.c) */
/* the range types (planner/range_bind.c) */
attu_bexpr *attu_range_parse_literal(bctx *c, attu_bexpr *r, const char *s, size_t len);
attu_bexpr *attu_range_coerce(bctx *c, attu_bexpr *e, attu_type t, bool explicit_cast, int pos);
attu_bexpr *attu_range_key_expr(bctx *c, attu_bexpr *a);
bool attu_range_operands(const attu_bexpr *l, const attu_bexpr *r);
bool attu_range_array_refused(bctx *c, attu_type t, int pos);
attu_bexpr *attu_range_operator(bctx *c, const char *op, attu_bexpr *l, attu_bexpr *r, int pos);
bool attu_range_operator_name(const char *name);
attu_bexpr *attu_bind_range_operator_call(bctx *c, const scope *sc, const struct attu_ast_expr *e);
attu_bexpr *attu_bind_range_function(bctx *c, const struct attu_ast_expr *e, const char *name, attu_bexpr **args, int n,
                                     bool *handled);
attu_bexpr *attu_bytea_parse_literal(bctx *c, attu_bexpr *r, const char *s, size_t len);
attu_bexpr *attu_bytea_coerce(bctx *c, attu_bexpr *e, attu_type t, bool explicit_cast, int pos);
attu_bexpr *attu_bytea_like(bctx *c, attu_bexpr *a, attu_bexpr *p, const char *opname, bool plain_like, bool negated,
                            bool has_escape, int pos, bool *handled);
bool attu_bytea_agg_args(bctx *c, attu_bexpr **args, int pos);
attu_bexpr *attu_bytea_agg_finish(bctx *c, attu_bexpr *res, int pos);
attu_bexpr *attu_bytea_concat(bctx *c, attu_bexpr *l, attu_bexpr *r, int pos, bool *handled);
attu_bexpr *attu_bind_bytea_function(bctx *c, const struct attu_ast_expr *e, const char *name, attu_bexpr **args, int n,
                                     bool *handled);
/* gcd, lcm, factorial, width_bucket, random, setseed (planner/math_bind.c) */
bool attu_math_function_name(const char *name);
/* string_to_table's arguments are (text, text [, text]): false with
 * PostgreSQL's 42883 naming string_to_table (planner/functions.c) */
bool attu_string_to_table_args(bctx *c, const scope *sc, const attu_ast_expr *e);
/* planner/bitwise_bind.c: a & b, a | b, a # b, ~a, a << b, a >> b */
bool attu_bitwise_operator_name(const char *name);
attu_bexpr *attu_bind_bitwise(bctx *c, const scope *sc, const attu_ast_expr *e);
attu_bexpr *attu_bind_math_call(bctx *c, const scope *sc, const struct attu_ast_expr *e, attu_bexpr **args, int n);
/* width_bucket(operand, thresholds) and array_fill (planner/array_bind.c) */
attu_bexpr *attu_array_width_bucket(bctx *c, const struct attu_ast_expr *e, attu_bexpr **args, int n);
/* json and jsonb (planner/json_bind.c) */
attu_bexpr *attu_json_parse_literal(bctx *c, attu_bexpr *r, const char *s, size_t len);
/* jsonpath (planner/jsonpath_bind.c) */
attu_bexpr *attu_jsonpath_parse_literal(bctx *c, attu_bexpr *r, const char *s, size_t len);
attu_bexpr *attu_jsonpath_coerce(bctx *c, attu_bexpr *e, attu_type t, bool explicit_cast, int pos);
bool attu_jsonpath_function_name(const char *name);
attu_bexpr *attu_bind_jsonpath_call(bctx *c, const scope *sc, const struct attu_ast_expr *e);
attu_bexpr *attu_jsonpath_operator(bctx *c, bool match, attu_bexpr *l, attu_bexpr *r, int pos);
attu_bexpr *attu_json_srf_series_mode(bctx *c, attu_bexpr *j, int mode, const char *fname, int pos);
bool attu_jsonpath_named_call(bctx *c, const scope *sc, const struct attu_ast_expr *e, struct attu_ast_expr *out);
attu_bexpr *attu_jsonpath_srf_series(bctx *c, const struct attu_ast_expr *call, attu_bexpr **args, int n, int *ncols);
attu_bexpr *attu_json_coerce(bctx *c, attu_bexpr *e, attu_type t, bool explicit_cast, int pos);
attu_bexpr *attu_json_key_expr(bctx *c, attu_bexpr *a);
attu_bexpr *attu_json_compare(bctx *c, attu_opcode text_op, const char *opname, attu_bexpr *l, attu_bexpr *r, int pos);
attu_bexpr *attu_json_binary(bctx *c, bool concat, attu_bexpr *l, attu_bexpr *r, int pos, bool *handled);
attu_bexpr *attu_json_value(bctx *c, attu_bexpr *x, bool binary, int pos, const char **row_names);
const char **attu_json_row_names(bctx *c, const scope *sc, const struct attu_ast_expr *a, const attu_bexpr *x);
/* The same where the names are known (a whole-row reference's FROM item,
 * a derived table's row column that carries them); NULL where they would
 * be f1, f2 ... (*n the row's fields). */
const char **attu_row_field_names(bctx *c, const scope *sc, const struct attu_ast_expr *a, const attu_bexpr *x, int *n);
attu_bexpr *attu_json_contains(bctx *c, attu_bexpr *l, attu_bexpr *r, int pos);
int attu_json_agg_kind(const char *name);
bool attu_json_agg_args(bctx *c, int kind, attu_bexpr **args, int *n, int pos, const char **row_names);
attu_bexpr *attu_json_agg_finish(bctx *c, int kind, attu_bexpr *res, int pos);
bool attu_json_function_name(const char *name);
bool attu_json_srf_name(const char *name);
/* json(b)_to_record(set) and json(b)_populate_record(set) in FROM */
bool attu_json_record_name(const char *name);
attu_bexpr *attu_json_record_arg(bctx *c, const struct attu_ast_expr *call, attu_bexpr **args, int n, int i);
attu_bexpr *attu_json_record_series(bctx *c, const struct attu_ast_expr *call, attu_bexpr *j, bool set);
attu_bexpr *attu_json_record_object(bctx *c, attu_bexpr *j, attu_bexpr *k, bool set, int pos);
attu_bexpr *attu_json_record_field(bctx *c, attu_bexpr *obj, const char *key, attu_type t, int pos);
attu_bexpr *attu_json_populate_field(bctx *c, attu_bexpr *obj, const char *key, attu_type t, attu_bexpr *base, int pos);
/* Whether e is json(b)_populate_record(base, j), and its columns as an
 * expression's: the items, their names, the guard that is NULL where the
 * record is (NULL when it never is); the count, -1 after an error. */
bool attu_json_populate_call(const struct attu_ast_expr *e);
int attu_json_populate_items(bctx *c, const scope *sc, const struct attu_ast_expr *e, attu_bexpr ***items,
                             const char ***names, attu_bexpr **guard);
/* The named row type (a table's or a view's) of the FROM item qual, whose
 * whole row has n items, and those columns' names in it (planner/srf.c);
 * NULL for a record of no named type */
const char *attu_row_type_of(bctx *c, const scope *sc, const char *qual, int n, const char ***names);
/* (row).field (planner/row_value.c) */
attu_bexpr *attu_bind_field_select(bctx *c, const scope *sc, const struct attu_ast_expr *e);
/* (row).* as select-list items: the count, -1 after an error */
int attu_row_fields_expand(bctx *c, const scope *sc, const struct attu_ast_expr *e, attu_bexpr ***items,
                           const char ***names);
/* json_populate_record(set)'s row type from its first argument (NULL::t
 * of a table t, a table's row t / t.*, in the select list a ROW(...) too):
 * its columns' types and names, and the base row's items (NULL for a NULL
 * base). planner/srf.c */
bool attu_json_populate_base(bctx *c, const scope *sc, const struct attu_ast_expr *call, bool in_from, int *ncols,
                             attu_type **types, const char ***names, attu_bexpr ***base, attu_bexpr **row_null);
attu_bexpr *attu_json_srf_series(bctx *c, const struct attu_ast_expr *call, attu_bexpr *arg, int *ncols);
attu_bexpr *attu_json_srf_column(bctx *c, const char *name, attu_bexpr *j, attu_bexpr *k, int col, int pos);
attu_bexpr *attu_bind_json_call(bctx *c, const scope *sc, const struct attu_ast_expr *e);
/* a to an interval of the fields range and precision prec (-1: none), as
 * a cast or an assignment to a qualified column does (binder_expr.c) */
attu_bexpr *bind_interval_qualified(bctx *c, attu_bexpr *a, int range, int prec, int pos);
attu_bexpr *resolve_unknown(bctx *c, attu_bexpr *e);   /* UNKNOWN -> TEXT */
/* a statement parameter that no type was given for, nor inferred yet (a
 * BX_CONST of type UNKNOWN that remembers its number in aux) */
bool is_untyped_param(const attu_bexpr *b);
/* e read as text without typing the parameter it is (IS NULL, a set
 * operation's arm: PostgreSQL leaves the parameter undetermined there) */
attu_bexpr *resolve_unknown_untracked(bctx *c, attu_bexpr *e);
/* Whether e, written where attu wants a constant (lag's offset, ntile's
 * buckets, LIKE's ESCAPE), is a parameter of a statement being prepared:
 * each run has its value, and describing the statement needs only its
 * type */
bool param_placeholder(const bctx *c, const attu_ast_expr *e);
bool common_type(attu_type a, attu_type b, attu_type *out);
/* common_type for values that meet in one column (CASE, UNION, VALUES,
 * coalesce, greatest): exact numbers of different scales give NUMERIC */
bool mix_type(attu_type a, attu_type b, attu_type *out);
/* The error of a mix_type that failed in the construct `what` ("CASE",
 * "UNION", "ARRAY" ...): 42804 "cannot be matched", but 42846 "could not
 * convert" where both are dates or times (PostgreSQL's datetime category:
 * the first is chosen, and the other then has no implicit cast to it).
 * Returns NULL. */
void *mix_type_error(bctx *c, const char *what, attu_type a, attu_type b, int pos);
/* The mixed type t once value v joins it: a string literal beside char(n)
 * values makes the mix bpchar without a length (binder_expr.c says why). */
attu_type mix_bpchar_literal(attu_type t, const attu_bexpr *v);
/* varchar's type identity (varchar_type.c): the mixed type t once value
 * v joins it (varchar(n) stays only beside varchar(n) values; v NULL for
 * CASE's absent ELSE);
 * the type of a UNION column of type t from arms of types l and r; a
 * varchar without its length (polymorphic function results); a varchar
 * as text (the operators and aggregates PostgreSQL takes it to). */
attu_type mix_varchar_length(attu_type t, const attu_bexpr *v);
/* A numeric(p,s) beside a NULL or an untyped literal (an absent ELSE: v
 * NULL) is numeric without a typmod (engine/types.h no_typmod), as
 * PostgreSQL's select_common_typmod finds the coerced literal's -1. */
attu_type mix_decimal_typmod(attu_type t, const attu_bexpr *v);
attu_type mix_varchar_setop(attu_type t, attu_type l, attu_type r);
attu_type varchar_without_length(attu_type t);
attu_type varchar_as_text(attu_type t);
/* a itself, or for a char(n) value its bytes padded to n characters, as
 * text (LIKE, octet_length and concat read those) */
attu_bexpr *bpchar_padded(bctx *c, attu_bexpr *a, int pos);
/* the key PostgreSQL groups, partitions and orders a bpchar without a
 * length by: the value without its trailing blanks, as text; any other
 * value itself (binder_expr.c says why). NULL on OOM. */
attu_bexpr *bpchar_key(bctx *c, attu_bexpr *a);
/* Whether bpchar_key keys values of type t by more than the value as kept:
 * a bpchar without a length, an array of numeric or float. */
bool keyed_by_value(attu_type t);
attu_bexpr *bpchar_order_code(bctx *c, attu_bexpr *a);
attu_type mix_numeric_literal(attu_type t, const attu_bexpr *v);
attu_bexpr *bpchar_order_decode(bctx *c, attu_bexpr *d);
/* ATTU_OP_EQ_F / _S / _N / _I for comparing values of type t (NE .. GE follow) */
attu_opcode cmp_opcode_eq(attu_type_id t);
attu_bexpr *mk_call(bctx *c, attu_opcode op, attu_type t, int pos, int nargs, attu_bexpr *a0,
                    attu_bexpr *a1, attu_bexpr *a2, attu_bexpr *a3);
attu_bexpr *mk_const_int(bctx *c, attu_type t, int64_t v);
attu_bexpr *mk_const_null(bctx *c, attu_type t);
/* a text constant of the len bytes at s (copied into the plan's arena) */
attu_bexpr *mk_const_text(bctx *c, const char *s, size_t len, int pos);
/* the same of a NUL-terminated string */
attu_bexpr *mk_const_cstr(bctx *c, const char *s, int pos);
/* v, the value of a cast to the domain named name (its base type's),
 * checked against the domain's NOT NULL and CHECKs (domain_bind.c); v
 * itself when name is no domain or one without rules. */
attu_bexpr *attu_domain_guard(bctx *c, const scope *sc, attu_bexpr *v, const char *name, int pos);
/* A cast e to an array of a domain (x::d[]): true, with *out the cast
 * checking each element (NULL: the error set); false for any other. */
bool attu_domain_array_cast(bctx *c, const scope *sc, const struct attu_ast_expr *e, attu_bexpr **out);
attu_bexpr *mk_const_canonical(bctx *c, attu_bexpr *r, char *out, size_t n);
/* A cast a type's rules refuse: 42846 "cannot cast type from to t" when
 * explicit, else 42804 "value is of type t but expression is of type
 * from" (an assignment or an implicit use). Always NULL. */
attu_bexpr *cast_refused(bctx *c, attu_type from, attu_type t, bool explicit_cast, int pos);
attu_bexpr *fold_pairwise(bctx *c, attu_opcode op, attu_bexpr **v, int n, int pos);
attu_bexpr *bind_function(bctx *c, const scope *sc, const attu_ast_expr *e);
/* row values (planner/row_value.c) */
bool attu_is_row_constructor(const attu_ast_expr *e);
attu_bexpr *attu_bind_row_value(bctx *c, const scope *sc, const attu_ast_expr *e);
/* col_base: OUTER_BASE * level for a reference to a query level levels out */
attu_bexpr *attu_bind_whole_row(bctx *c, const scope *sc, const char *qual, int pos, int col_base, bool *found);
/* The row value of n bound items (its items kept for comparisons and
 * ORDER BY); NULL where guard, when given, is NULL. */
attu_bexpr *attu_row_value_of(bctx *c, attu_bexpr **items, int n, attu_bexpr *guard, int pos);
int attu_row_value_items(const bctx *c, const attu_bexpr *rec, attu_bexpr ***items);
attu_bexpr *attu_row_value_null_test(const bctx *c, const attu_bexpr *rec);
/* whether rec is no expression of its items (a derived table's column, a
 * CASE of rows): GROUP BY must carry it as a value of the group */
bool attu_row_value_opaque(const bctx *c, const attu_bexpr *rec);
/* l op r for row values (op: = .. >=, IS [NOT] DISTINCT FROM), as
 * PostgreSQL's record comparison, item by item */
/* A derived table's select list: the items of its row values among the
 * first n0 appended to it (*items, *names, *n grown as needed); where they
 * went in c->carry_at / carry_cnt */
bool attu_row_value_carry(bctx *c, attu_bexpr ***items, char ***names, int *n, int *cap, int n0);
/* b, the bound reference to scope column found, gets that column's carried
 * items as its row items */
void attu_row_column_items(bctx *c, const scope *sc, int found, attu_bexpr *b);
/* rec's column items moved by `by` columns (an outer reference) */
void attu_row_value_shift(bctx *c, const attu_bexpr *rec, int by);
/* x, a CASE / COALESCE of rows whose items are known: its items kept as
 * x's (CASE arms of the items); x as it is otherwise */
attu_bexpr *attu_row_value_derive(bctx *c, attu_bexpr *x);
/* whether SELECT DISTINCT must tell row x apart by its items, not its
 * text (numerics of different scales, -0) */
bool attu_row_value_distinct_by_items(bctx *c, const attu_bexpr *x);
/* the keys that tell row x's values apart (its NULL test, its items,
 * nested rows' in their place; x itself when not a row with items),
 * written to out when given: their count */
int attu_row_value_keys(bctx *c, attu_bexpr *x, attu_bexpr **out);
attu_bexpr *attu_row_compare(bctx *c, attu_ast_binary_op op, attu_bexpr *l, attu_bexpr *r, int pos);
/* 42883 "function f(types) does not exist" for the bound arguments (a NULL
 * one prints as "?"); returns NULL. */
attu_bexpr *attu_no_function(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n);
/* 42725 "function name(types) is not unique", for a function whose
 * candidates an undeclared parameter cannot choose between (as PostgreSQL
 * says of extract, date_part and date_trunc of one) */
attu_bexpr *attu_param_not_unique(bctx *c, const char *name, attu_bexpr **args, int n, int pos);
/* planner/ordered_set_agg.c: percentile_cont / percentile_disc / mode
 * WITHIN GROUP (ORDER BY ...), and the errors of WITHIN GROUP on any other
 * function (agg: the name is an aggregate taking agg_nargs arguments). */
attu_bexpr *attu_bind_ordered_set_agg(bctx *c, const scope *sc, const attu_ast_expr *e, attu_agg_kind kind);
/* rank / dense_rank / percent_rank / cume_dist(v...) WITHIN GROUP (ORDER BY x...) */
attu_bexpr *attu_bind_hypothetical_agg(bctx *c, const scope *sc, const attu_ast_expr *e, attu_agg_kind kind);
attu_bexpr *attu_within_group_misuse(bctx *c, const scope *sc, const attu_ast_expr *e, bool agg, bool count_matches);
/* EXTRACT / date_part of a date or timestamp (binder_expr.c) */
attu_bexpr *bind_extract(bctx *c, const char *field, attu_bexpr *a, bool as_float, int pos);
/* timestamp with time zone (planner/timestamptz.c) */
attu_bexpr *tz_call(bctx *c, attu_opcode op, attu_type t, int pos, attu_bexpr *a, attu_bexpr *b);
attu_bexpr *attu_bind_tz_extract(bctx *c, const char *field, attu_bexpr *a, bool as_float, int pos);
attu_bexpr *attu_bind_tz_trunc(bctx *c, const char *unit, attu_bexpr *a, int pos);
attu_bexpr *attu_bind_tz_function(bctx *c, const attu_ast_expr *e, const char *name, attu_bexpr **args, int n,
                                  bool *handled);
/* time without time zone (planner/time_type.c) */
attu_bexpr *attu_bind_time_arith(bctx *c, attu_ast_binary_op op, attu_bexpr *l, attu_bexpr *r, int pos,
                                 const char *opname, bool *done);
attu_bexpr *attu_bind_time_extract(bctx *c, const char *field, attu_bexpr *a, bool as_float, int pos);
attu_bexpr *attu_bind_time_function(bctx *c, const attu_ast_expr *e, const char *name, attu_bexpr **args, int n,
                                    bool *handled);
/* A date/time unit name as attu_extract_field (-1 unknown, -2 a time zone unit) */
int datetime_unit(const char *name);
int interval_unit(bctx *c, const char *field, bool trunc, int pos);
const char *tname(attu_type t, char *buf);
attu_lplan *bind_query(bctx *c, const attu_ast_query *q);
bool is_numeric(attu_type_id t);
attu_bexpr *bind_compare_op(bctx *c, attu_ast_binary_op op, attu_bexpr *l, attu_bexpr *r, int pos);
attu_lplan *attu_make_join(bctx *c, attu_lplan *l, attu_lplan *r, attu_join_kind jk, attu_bexpr *cond);
/* Scalar / EXISTS / IN subqueries (uncorrelated): run once at plan time. */
attu_bexpr *attu_bind_subquery_expr(bctx *c, const scope *sc, const attu_ast_expr *e);
/* Row subqueries, (a, b) [NOT] IN | op ANY | op ALL | op (SELECT x, y ...)
 * (planner/row_subquery.c): e is one of them; binding it as an
 * expression; and as a WHERE conjunct, the 1 or 2 conjuncts (out) that
 * stand for it there (-1 with c->err set). */
bool attu_is_row_subquery(const attu_ast_expr *e);
attu_bexpr *attu_bind_row_subquery(bctx *c, const scope *sc, const attu_ast_expr *e);
int attu_row_subquery_where(bctx *c, const scope *sc, const attu_ast_expr *e, const attu_ast_expr **out);
/* The plan of subquery q bound in scope sc (its columns' count and types) */
attu_lplan *attu_bind_sub_plan(bctx *c, const scope *sc, const attu_ast_query *q);
/* The level of aggregate x bound in a subquery: 0 for this query, or L
 * when its arguments read only queries L and more levels out; for L > 0
 * returns the outer reference that stands for it (see OAGG_BASE), else x.
 * NULL with 42803 where level L takes no aggregates. */
attu_bexpr *attu_bind_agg_level(bctx *c, attu_bexpr *x, bool denied_here);
attu_bexpr *attu_bind_grouping_level(bctx *c, attu_bexpr *x, bool denied_here);

/* nextval, currval, setval, lastval (planner/sequence_functions.c):
 * called while binding, through attu_bind_params.sequence_call */
/* pg_cancel_backend, pg_terminate_backend, pg_notify, pg_sleep
 * (planner/session_functions.c): called while binding. */
bool attu_session_function_name(const char *name);
attu_bexpr *attu_bind_session_call(bctx *c, const scope *sc, const attu_ast_expr *e);
bool attu_sequence_function_name(const char *name);
attu_bexpr *attu_bind_sequence_call(bctx *c, const scope *sc, const attu_ast_expr *e);
/* current_setting(name [, missing_ok]) (planner/setting_functions.c):
 * answered while binding, through attu_bind_params.setting */
attu_bexpr *attu_bind_current_setting(bctx *c, const scope *sc, const attu_ast_expr *e);
/* set_config(name, value, is_local): the setting changed while binding,
 * through attu_bind_params.set_config (planner/setting_functions.c) */
attu_bexpr *attu_bind_set_config(bctx *c, const scope *sc, const attu_ast_expr *e);
/* Set-returning functions (planner/srf.c). generate_series(...) in an
 * expression: a BX_SRF where c->allow_srf, else PostgreSQL's 0A000. */
attu_bexpr *attu_bind_generate_series(bctx *c, const scope *sc, const attu_ast_expr *e);
/* A function in FROM (f, ATTU_FROM_FUNCTION) over the FROM items before
 * it (left_sc / left, both may be NULL / empty): an LP_SRF over left when
 * its arguments read those items (*lateral), else over one empty row; its
 * column's qualifier and name for the scope; *scalar when its one column
 * is its whole row (one function returning a scalar type, no ORDINALITY:
 * PostgreSQL's whole-row reference to it is that value, not a record). */
attu_lplan *attu_bind_from_function(bctx *c, const attu_ast_from *f, const scope *left_sc, attu_lplan *left,
                                    bool *lateral, const char **qual, const char ***colnames, int *nnew, bool *scalar);
/* The select list's set-returning functions (items[0..n), over p's
 * columns) moved into LP_SRF nodes over p, innermost calls first, each
 * replaced by a reference to its column; returns the new input of the
 * projection (p itself when there are none). */
attu_lplan *attu_extract_srfs(bctx *c, attu_lplan *p, attu_bexpr **items, int n);

/* GROUP BY's grouping sets (grouping_sets.c): the expressions written
 * (leaves, in order) and the sets, set i being the leaves
 * pool[set_start[i] .. set_start[i] + set_len[i]). */
typedef struct attu_gsets {
    const attu_ast_expr **leaves;
    int                   nleaves, capleaves;
    int                   nsets;
    int                  *set_start, *set_len, *pool;
} attu_gsets;
/* Expands a GROUP BY list with grouping sets; false with c->err set
 * (54001: more than 4096 sets). */
bool attu_gsets_expand(bctx *c, const attu_ast_expr_list *items, attu_gsets *out);
/* GROUPING(...) as a BX_AGG of kind AGG_GROUPING, its arguments in part. */
attu_bexpr *attu_bind_grouping(bctx *c, const scope *sc, const attu_ast_expr *e);
bool attu_bx_has_srf(const attu_bexpr *e);
/* The correlated subqueries bound so far (c->pending) joined to p: their
 * values become p's next columns, as the hidden scope columns they pushed
 * say (binder.c). */
attu_lplan *attu_apply_pending(bctx *c, attu_lplan *p);
/* PostgreSQL's 0A000 for a set-returning function under CASE, COALESCE,
 * an aggregate or a window call of the select list items (bound, before
 * the aggregates and windows are taken out of them). */
bool attu_check_srf_placement(bctx *c, attu_bexpr *const *items, int n);
/* Whether a set-returning function may be called here (not inside an
 * aggregate's arguments, only where c->allow_srf); else PostgreSQL's 0A000
 * at pos. generate_series, unnest and generate_subscripts ask it. */
bool attu_srf_allowed_here(bctx *c, int pos);

/* planner/system_catalog.c: PostgreSQL's system relations, built from the
 * catalog at bind time. */
bool attu_is_system_schema(const char *schema);   /* pg_catalog, information_schema */
/* The query of the system relation [schema.]name, parsed (kept as long as
 * the plan arena; *text the text its positions refer to); NULL and
 * *is_system false when the name is none (a user table's, or an unknown
 * one); NULL, *is_system true and c->err set when a system schema has no
 * such relation or on failure. *tableoid: its last column is the system
 * column tableoid (a catalog table's), to be hidden from *. */
const attu_ast_query *attu_system_relation(bctx *c, const char *schema, const char *name, int pos,
                                           bool *is_system, const char **text, bool *tableoid);
/* Whether pg_catalog's relation.column is one of PostgreSQL's int2vector
 * or oidvector columns (pg_index.indkey, pg_proc.proargtypes ...): attu
 * keeps an array, and its text is the elements space-separated, as
 * PostgreSQL's vectors print (a cast to text reads it so). */
bool attu_system_vector_column(const char *relation, const char *column);
/* planner/catalog_functions.c: the catalog functions and reg* casts. */
/* pg_get_serial_sequence(table, column) e of two text arguments that are
 * not constants: the owned sequences' names by (table, column) (NULL for
 * none, or for an unknown table or column). */
attu_bexpr *attu_bind_serial_sequence_of_values(bctx *c, const scope *sc, const attu_ast_expr *e);
/* A call of a catalog function (format_type, pg_get_userbyid, ...); NULL
 * and *handled false when e is no such call. */
attu_bexpr *attu_bind_catalog_function(bctx *c, const scope *sc, const attu_ast_expr *e, bool *handled);
/* A cast to regclass / regtype / regnamespace, or to oid, name and the
 * catalog's other types (as attu's); *handled false for other types. */
attu_bexpr *attu_bind_catalog_cast(bctx *c, const scope *sc, const attu_ast_expr *e, bool *handled);
/* A comparison e whose operands are bound as *l and *r: where one is an
 * integer (an OID) and the other's text is 'name'::regproc or
 * 'name(types)'::regprocedure, that side is bound again as its ::oid, as
 * PostgreSQL's regproc is an oid (the cast alone gives the name). False
 * with the error when that binding fails (planner/catalog_functions.c). */
bool attu_bind_regproc_operands(bctx *c, const scope *sc, const attu_ast_expr *e, attu_bexpr **l, attu_bexpr **r);
/* The system column tableoid of a user table or materialized view in sc
 * (q: the qualifier written, or NULL): the OID pg_class gives it, as a
 * constant. NULL and *hit false when sc reads no such relation (of that
 * qualifier); 42702 (*hit true) when unqualified and sc reads several. */
attu_bexpr *attu_bind_user_tableoid(bctx *c, const scope *sc, const char *q, int pos, bool *hit);
/* An argument name of a catalog function's body, bound as its argument. */
attu_bexpr *attu_syscat_macro_arg(bctx *c, const attu_ast_expr *e, bool *handled);
/* SQL functions (planner/sql_function_bind.c): a call of one (*handled
 * false: no such function fits, the built-ins' turn), and a parameter of
 * the body being bound, $k or a name (before_scope: the check before the
 * scope's columns, else the one after them) */
attu_bexpr *attu_bind_sql_function(bctx *c, const scope *sc, const attu_ast_expr *e, bool *handled);
/* whether name is one of attu's built-in functions or aggregates
 * (functions.c): a SQL function of the name is taken only for exact
 * argument types */
bool attu_builtin_function_name(const char *name);
/* whether e holds an aggregate or window call of its own level (not
 * looking into subqueries; functions.c) */
bool attu_aggregate_in(const struct attu_ast_expr *e);
/* A SELECT whose select list calls a set-returning SQL function, as the
 * LATERAL join PostgreSQL's expansion of it amounts to (sql_function_bind.c):
 * SELECT a, f(x) FROM t is SELECT a, s FROM t, f(x) AS s; q itself when
 * it calls none, or cannot be so written. NULL only when out of memory. */
const struct attu_ast_query *attu_sql_function_select_srf(bctx *c, const struct attu_ast_query *q);
/* information_schema._pg_expandarray(a) in the select list, whole or as
 * (...).x / (...).n (pgJDBC's getPrimaryKeys and getIndexInfo): a LATERAL
 * FROM item of its rows (planner/srf.c), q itself where there is none or
 * the calls read different arrays. */
const struct attu_ast_query *attu_expandarray_select_srf(bctx *c, const struct attu_ast_query *q);
/* A copy of SELECT q with the LATERAL FROM item call AS alias after its
 * own; *items its select list's copy, for the caller to point at the
 * item's columns (planner/srf.c). */
struct attu_ast_query *attu_select_with_lateral_call(bctx *c, const struct attu_ast_query *q,
                                                     const struct attu_ast_expr *call, const char *alias,
                                                     struct attu_ast_select_item **items);
/* A FROM item that calls a SQL function, f(args) [AS alias [(col)]], as
 * the LATERAL subquery (SELECT f(args) AS col) AS alias that PostgreSQL's
 * one row of a scalar function in FROM is; any other item itself. NULL
 * only when out of memory. */
const struct attu_ast_from *attu_sql_function_from(bctx *c, const struct attu_ast_from *f);
/* A set-returning SQL function's rows: q is the stand-in query of its
 * FROM item (*handled false: q is any other query) */
attu_lplan *attu_sql_function_rows(bctx *c, const struct attu_ast_query *q, bool *handled);
attu_bexpr *attu_sql_function_param(bctx *c, const scope *sc, const attu_ast_expr *e, bool before_scope,
                                    bool *handled);

#endif
