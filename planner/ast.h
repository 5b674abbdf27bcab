/*
 * ast.h - the abstract syntax tree the parser produces (planner/parser.h).
 *
 * The tree is a faithful picture of what was written, nothing more: no name
 * is resolved, no type is checked, no constant is folded (with one exception,
 * below). The binder walks it against the catalog.
 *
 * Conventions every node follows:
 *
 *   - position: the 1-based CHARACTER offset (UTF-8 code points, as
 *     PostgreSQL counts them) into the whole query string handed to
 *     attu_parse(), never 0 for a node built from source text. It is where
 *     an error about the node should point, chosen as PostgreSQL chooses it:
 *       column ref, literal, parameter, star:  first character of the token
 *       binary / unary operator, IS NULL, LIKE, IN, BETWEEN:  the operator
 *         keyword or symbol (e.g. the '+' in a + b, the NOT in NOT x)
 *       function call:  the function name;  CAST(...): the CAST keyword;
 *       x::t: the '::';  DATE 'x': the type name;  CASE: the CASE keyword;
 *       subquery expression: the '(' (EXISTS: the EXISTS keyword)
 *       table reference: the table name; type name: its first word;
 *       statement: its first keyword.
 *   - identifiers are already folded: unquoted ones to lower case (ASCII
 *     only, as PostgreSQL with C collation), "quoted" ones kept exactly,
 *     with "" unescaped. Names longer than 63 bytes are truncated like
 *     PostgreSQL does (NAMEDATALEN), silently.
 *   - strings are NUL-terminated and owned by the parse arena.
 *   - lists are (items, n) pairs; an absent optional list has n == 0 and
 *     items == NULL; an absent optional node is NULL.
 *   - the one rewrite done while parsing, as PostgreSQL's grammar does: a
 *     unary minus directly applied to a numeric literal becomes a literal
 *     whose text starts with '-' (so -2147483648 is one INTEGER literal).
 *
 * All memory comes from one arena (attu_ast_arena) owned by the parse
 * result; attu_parse_free() releases the whole tree at once. The binder may
 * allocate its own nodes from the same arena with attu_ast_alloc().
 */
#ifndef ATTU_PLANNER_AST_H
#define ATTU_PLANNER_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "engine/sequence.h"

/* No path from a statement down to a leaf passes through more than this
 * many expression, query and FROM nodes: the parser rejects deeper input
 * with 54001 "stack depth limit exceeded" (as PostgreSQL does, for its own
 * stack), so recursive walkers (binder, printer) can rely on it. Chains like
 * a+b+c+..., x AND y AND ..., t1 JOIN t2 JOIN ... and UNION chains count. */
#define ATTU_AST_MAX_DEPTH 1000

/* ---- arena --------------------------------------------------------------- */

/* The first byte of a SET TIME ZONE INTERVAL value (the set statement's
 * values, below); no SQL text starts with it. */
#define ATTU_SET_TZ_INTERVAL '\x01'

typedef struct attu_ast_arena attu_ast_arena;

attu_ast_arena *attu_ast_arena_new(void);
void attu_ast_arena_free(attu_ast_arena *a);
/* Zeroed memory aligned for any type, or NULL when out of memory. */
void *attu_ast_alloc(attu_ast_arena *a, size_t size);
/* Copies len bytes and appends a NUL. */
char *attu_ast_strndup(attu_ast_arena *a, const char *s, size_t len);
char *attu_ast_strdup(attu_ast_arena *a, const char *s);

/* ---- forward declarations ------------------------------------------------ */

typedef struct attu_ast_expr   attu_ast_expr;
typedef struct attu_ast_query  attu_ast_query;
typedef struct attu_ast_from   attu_ast_from;
typedef struct attu_ast_stmt   attu_ast_stmt;

typedef struct attu_ast_expr_list {
    attu_ast_expr **items;
    int             n;
} attu_ast_expr_list;

typedef struct attu_ast_name_list {   /* identifiers, e.g. USING (a, b) */
    char **items;
    int   *positions;                 /* 1-based position of each name */
    int    n;
    char  *schemas;                   /* relation lists (DROP, TRUNCATE, LOCK):
                                         NULL, or each name's ATTU_REL_* */
} attu_ast_name_list;

/* How a statement named a relation it works on (its target, a name of
 * DROP's list, a REFERENCES): PostgreSQL's schema decides which relation
 * a name reaches when a temporary one shadows a permanent one
 * (db/db_temp.c, db_temp_stmt_mode). */
#define ATTU_REL_PATH   0     /* t: the search path's, pg_temp first */
#define ATTU_REL_PUBLIC 'p'   /* public.t: the permanent relation */
#define ATTU_REL_TEMP   't'   /* pg_temp.t: the session's temporary one */

/* ---- type names (CAST, ::, DATE '..', CREATE TABLE) ---------------------- */

/* A type exactly as written, ready for attu_type_from_name(): name is lower
 * case with multi-word names normalised to one space ("double precision",
 * "character varying", "timestamp without time zone", "timestamp with time
 * zone"), precision/scale are -1 when not written (varchar(20) gives
 * precision 20). */
typedef struct attu_ast_typename {
    char *name;
    int   precision;
    int   scale;
    int   position;
    int   ivrange;     /* INTERVAL field qualifier: ATTU_IVF_* bits from the
                          first field to the last (engine/interval.h); 0
                          when none is written */
} attu_ast_typename;

/* ---- CREATE FUNCTION ------------------------------------------------------ */

/* One argument of a function's signature: [name] type [DEFAULT expr]. */
typedef struct attu_ast_func_arg {
    char              *name;       /* NULL when unnamed */
    attu_ast_typename  type;
    struct attu_ast_expr *dflt;    /* DEFAULT / = expr, NULL when none */
    int                position;
    bool               variadic;   /* VARIADIC name type[] */
} attu_ast_func_arg;

/* A function as CREATE FUNCTION writes it, or a signature DROP / ALTER
 * FUNCTION names (has_args false: the name alone, no parentheses). */
typedef struct attu_ast_function {
    char              *name;
    int                name_position;
    bool               or_replace;
    bool               has_args;
    int                nargs;
    attu_ast_func_arg *args;
    attu_ast_typename  ret;        /* RETURNS type (ret.name NULL: none) */
    char              *language;   /* LANGUAGE name, NULL when not written */
    int                language_position;
    char               volatility; /* 'i', 's', 'v'; 0 when not written */
    int                strict;     /* 1 STRICT, 0 CALLED ON NULL INPUT, -1 not written */
    char               parallel;   /* 's', 'r', 'u'; 0 when not written */
    int                leakproof;  /* 1, 0, -1 not written */
    char              *body;       /* AS 'text' (decoded), NULL when none */
    int                body_position;   /* the literal's, as its token's pos */
    size_t             body_offset;     /* the literal's byte offset in the statement */
    bool               body_link;  /* AS 'obj', 'link' (a C function's) */
    bool               body_std;   /* RETURN expr (body is "SELECT expr"; body_position
                                      the statement's character of its 1st) or
                                      BEGIN ATOMIC ... END (body_atomic: the text) */
    bool               body_atomic;
    bool               retset;     /* RETURNS SETOF ret, or RETURNS TABLE (outs) */
    attu_ast_func_arg *outs;       /* RETURNS TABLE's columns (nout; NULL for SETOF) */
    int                nout;
    struct attu_ast_function *next;   /* DROP FUNCTION's next name */
} attu_ast_function;

/* ---- ORDER BY items ------------------------------------------------------ */

typedef enum attu_ast_nulls_order {
    ATTU_NULLS_DEFAULT = 0,   /* not written: PostgreSQL puts NULLs last for
                                 ASC, first for DESC */
    ATTU_NULLS_FIRST,
    ATTU_NULLS_LAST
} attu_ast_nulls_order;

typedef struct attu_ast_order_item {
    attu_ast_expr       *expr;      /* may be an integer literal: ORDER BY 2 */
    bool                 desc;      /* DESC written (ASC or nothing: false) */
    attu_ast_nulls_order nulls;
    int                  position;  /* position of expr */
} attu_ast_order_item;

typedef struct attu_ast_order_list {
    attu_ast_order_item *items;
    int                  n;
} attu_ast_order_list;

/* ---- window specifications ----------------------------------------------- */

typedef enum attu_ast_frame_mode {
    ATTU_FRAME_DEFAULT = 0,   /* no frame clause written */
    ATTU_FRAME_ROWS,
    ATTU_FRAME_RANGE,
    ATTU_FRAME_GROUPS
} attu_ast_frame_mode;

typedef enum attu_ast_frame_bound_kind {
    ATTU_BOUND_UNBOUNDED_PRECEDING = 0,
    ATTU_BOUND_PRECEDING,           /* offset PRECEDING */
    ATTU_BOUND_CURRENT_ROW,
    ATTU_BOUND_FOLLOWING,           /* offset FOLLOWING */
    ATTU_BOUND_UNBOUNDED_FOLLOWING
} attu_ast_frame_bound_kind;

typedef struct attu_ast_frame_bound {
    attu_ast_frame_bound_kind kind;
    attu_ast_expr            *offset;   /* PRECEDING / FOLLOWING only */
} attu_ast_frame_bound;

/* OVER ( [PARTITION BY ...] [ORDER BY ...] [frame] ). A frame written as
 * "ROWS start" alone has end.kind == CURRENT_ROW, as SQL defines it. */
typedef struct attu_ast_window {
    attu_ast_expr_list   partition_by;
    attu_ast_order_list  order_by;
    attu_ast_frame_mode  frame_mode;
    attu_ast_frame_bound frame_start;
    attu_ast_frame_bound frame_end;
    int8_t               frame_exclude;  /* 0 EXCLUDE NO OTHERS, 1 CURRENT ROW, 2 GROUP, 3 TIES */
    int                  position;   /* the OVER keyword */
    /* OVER w and OVER (w ORDER BY ...) name a window of the query's WINDOW
     * clause. The parser has already merged that definition in (PARTITION
     * BY, ORDER BY and frame, by PostgreSQL's rules and errors), so the
     * fields above are complete; ref_name only records what was written. */
    char                *ref_name;   /* NULL when none */
    char                *name;       /* a WINDOW clause entry: its name */
} attu_ast_window;

/* ---- expressions --------------------------------------------------------- */

typedef enum attu_ast_expr_kind {
    ATTU_EXPR_LITERAL = 1,  /* u.literal */
    ATTU_EXPR_COLUMN,       /* u.column: [qualifier.]name */
    ATTU_EXPR_STAR,         /* u.star: * or qualifier.* (select list, COUNT(*)
                               is a FUNC with star = true instead) */
    ATTU_EXPR_PARAM,        /* u.param: $n */
    ATTU_EXPR_UNARY,        /* u.unary: NOT x, -x, +x */
    ATTU_EXPR_BINARY,       /* u.binary: arithmetic, comparison, AND/OR, || */
    ATTU_EXPR_IS,           /* u.is: x IS [NOT] NULL|TRUE|FALSE|UNKNOWN */
    ATTU_EXPR_BETWEEN,      /* u.between */
    ATTU_EXPR_IN_LIST,      /* u.in_list: x [NOT] IN (a, b, ...) */
    ATTU_EXPR_IN_SUBQUERY,  /* u.in_subquery: x [NOT] IN (SELECT ...) */
    ATTU_EXPR_EXISTS,       /* u.subquery: EXISTS (SELECT ...) */
    ATTU_EXPR_SUBQUERY,     /* u.subquery: (SELECT ...) as a scalar */
    ATTU_EXPR_LIKE,         /* u.like: [NOT] LIKE / ILIKE / SIMILAR TO [ESCAPE e] */
    ATTU_EXPR_CASE,         /* u.case_ */
    ATTU_EXPR_CAST,         /* u.cast: CAST(x AS t), x::t, DATE 'lit' */
    ATTU_EXPR_FUNC,         /* u.func: calls, aggregates, window functions */
    ATTU_EXPR_EXTRACT,      /* u.extract: EXTRACT(field FROM x) */
    ATTU_EXPR_QUANTIFIED,   /* u.quantified: x op ANY|SOME|ALL (SELECT ...) */
    ATTU_EXPR_DEFAULT       /* DEFAULT (no payload): as PostgreSQL's
                               SetToDefault, valid only as a whole item of
                               an INSERT's VALUES list; the binder rejects
                               it anywhere else (42601) */
} attu_ast_expr_kind;

typedef enum attu_ast_literal_kind {
    ATTU_LIT_INTEGER = 1,   /* digits only (maybe a leading '-'); any size:
                               the binder picks int4/int8/numeric as PG does */
    ATTU_LIT_NUMERIC,       /* has '.' or an exponent: 1.5, .5, 1e10, 2.E-3 */
    ATTU_LIT_STRING,        /* text holds the decoded value ('' and E''
                               escapes resolved); type unknown until bound */
    ATTU_LIT_BOOL,          /* TRUE / FALSE: text is "true" or "false" */
    ATTU_LIT_NULL           /* NULL: text is "null" */
} attu_ast_literal_kind;

typedef enum attu_ast_unary_op {
    ATTU_UNOP_NOT = 1,
    ATTU_UNOP_NEG,          /* -x (not applied to a numeric literal) */
    ATTU_UNOP_PLUS,         /* +x */
    ATTU_UNOP_OTHER         /* any other prefix operator (~x, @x, |/x):
                               u.unary.op_text names it. PostgreSQL
                               accepts these syntactically; for now the
                               parser itself then fails the statement with
                               42883 "operator does not exist: ~" (only
                               after a clean parse), so no tree that
                               reaches the binder contains one */
} attu_ast_unary_op;

typedef enum attu_ast_binary_op {
    ATTU_BINOP_ADD = 1,     /* +  */
    ATTU_BINOP_SUB,         /* -  */
    ATTU_BINOP_MUL,         /* *  */
    ATTU_BINOP_DIV,         /* /  */
    ATTU_BINOP_MOD,         /* %  */
    ATTU_BINOP_POW,         /* ^  */
    ATTU_BINOP_CONCAT,      /* || */
    ATTU_BINOP_EQ,          /* =  */
    ATTU_BINOP_NE,          /* <> or != */
    ATTU_BINOP_LT,          /* <  */
    ATTU_BINOP_LE,          /* <= */
    ATTU_BINOP_GT,          /* >  */
    ATTU_BINOP_GE,          /* >= */
    ATTU_BINOP_AND,
    ATTU_BINOP_OR,
    ATTU_BINOP_IS_DISTINCT,      /* a IS DISTINCT FROM b */
    ATTU_BINOP_IS_NOT_DISTINCT,  /* a IS NOT DISTINCT FROM b */
    ATTU_BINOP_OTHER        /* any other operator (a ~ b, a # b, a << b):
                               u.binary.op_text names it (see UNOP_OTHER) */
} attu_ast_binary_op;

typedef enum attu_ast_is_what {
    ATTU_IS_NULL = 1,
    ATTU_IS_TRUE,
    ATTU_IS_FALSE,
    ATTU_IS_UNKNOWN
} attu_ast_is_what;

typedef enum attu_ast_cast_syntax {
    ATTU_CAST_FUNCTION = 1, /* CAST(x AS t) */
    ATTU_CAST_COLONS,       /* x::t */
    ATTU_CAST_PREFIX        /* DATE 'lit', TIMESTAMP 'lit', INTERVAL 'lit':
                               arg is always a string literal */
} attu_ast_cast_syntax;

typedef struct attu_ast_case_when {
    attu_ast_expr *when;    /* condition (searched CASE) or value to compare */
    attu_ast_expr *then;
} attu_ast_case_when;

struct attu_ast_expr {
    attu_ast_expr_kind kind;
    int                position;
    char              *arg_name;   /* name => value (or name := value) as a
                                      function's argument; NULL otherwise */
    int                depth;      /* height of this subtree, 1 for a leaf
                                      (see ATTU_AST_MAX_DEPTH) */
    union {
        struct {
            attu_ast_literal_kind kind;
            char                 *text;
            size_t                len;     /* bytes of text (strings may hold
                                              any byte except NUL) */
        } literal;
        struct {
            char *qualifier;               /* table or alias; NULL if bare */
            char *name;
        } column;
        struct {
            char *qualifier;               /* NULL for a bare * */
        } star;
        struct {
            int number;                    /* $1 -> 1 */
        } param;
        struct {
            attu_ast_unary_op op;
            attu_ast_expr    *arg;
            const char       *op_text;     /* the operator as written:
                                              "NOT", "-", "+", "~", ... */
        } unary;
        struct {
            attu_ast_binary_op op;
            attu_ast_expr     *left, *right;
            const char        *op_text;    /* as written: "+", "<>", "!=",
                                              "AND", "~", ... */
        } binary;
        struct {
            attu_ast_expr   *arg;
            attu_ast_is_what what;
            bool             negated;      /* IS NOT ... */
        } is;
        struct {
            attu_ast_expr *arg, *low, *high;
            bool           negated;        /* NOT BETWEEN */
            bool           symmetric;      /* BETWEEN SYMMETRIC */
        } between;
        struct {
            attu_ast_expr     *arg;
            attu_ast_expr_list list;       /* n >= 1 */
            bool               negated;
        } in_list;
        struct {
            attu_ast_expr  *arg;
            attu_ast_query *query;
            bool            negated;
        } in_subquery;
        struct {
            attu_ast_query *query;         /* EXISTS and scalar subqueries */
        } subquery;
        struct {
            attu_ast_expr *arg, *pattern;
            attu_ast_expr *escape;         /* NULL unless ESCAPE written */
            bool           negated;
            bool           case_insensitive; /* ILIKE */
            bool           similar;          /* SIMILAR TO */
            bool           regex;            /* ~ ~* !~ !~* (case_insensitive: the *) */
        } like;
        struct {
            attu_ast_expr      *operand;   /* CASE x WHEN ...; NULL if searched */
            attu_ast_case_when *whens;
            int                 nwhens;    /* >= 1 */
            attu_ast_expr      *else_;     /* NULL if no ELSE */
        } case_;
        struct {
            attu_ast_expr       *arg;
            attu_ast_typename    type;
            attu_ast_cast_syntax syntax;
        } cast;
        struct {
            /* Lower-cased name. Special syntaxes arrive as plain calls:
             *   COALESCE(...), NULLIF(a,b), GREATEST, LEAST  -> same name
             *   SUBSTRING(s FROM a [FOR b])   -> "substring"(s, a[, b])
             *   TRIM([BOTH] [c] FROM s)       -> "btrim"(s[, c])
             *   TRIM(LEADING  [c] FROM s)     -> "ltrim"(s[, c])
             *   TRIM(TRAILING [c] FROM s)     -> "rtrim"(s[, c])
             *   TRIM(s)                       -> "btrim"(s)
             *   POSITION(a IN b)              -> "position"(b, a)  (PG order)
             *   ROW(a, b) and (a, b)          -> "row"(a, b)
             *   CURRENT_DATE, CURRENT_TIMESTAMP, NOW() -> zero-arg calls
             *     "current_date", "current_timestamp", "now" */
            char              *schema;     /* pg_catalog.lower(x): "pg_catalog" */
            char              *name;
            attu_ast_expr_list args;
            bool               star;       /* COUNT(*): args.n == 0 */
            bool               distinct;   /* COUNT(DISTINCT x) */
            bool               variadic;   /* f(a, VARIADIC b): the last argument is
                                              the array of the variadic ones */
            bool               prefix_op;  /* written as an operator (@ x, |/ x,
                                              ||/ x, a ^@ b): named ?column? */
            attu_ast_order_list order_by;  /* agg(x ORDER BY y); rarely used */
            attu_ast_expr     *filter;     /* agg(x) FILTER (WHERE c); NULL */
            attu_ast_window   *over;       /* NULL unless OVER (...) */
            bool               within_group; /* order_by came from WITHIN GROUP (...):
                                                an ordered-set aggregate's call */
        } func;
        struct {
            /* x op ANY (SELECT ...) / x op SOME (...) / x op ALL (...).
             * op is a comparison or arithmetic operator (ATTU_BINOP_EQ,
             * ..., never AND/OR); the array form, x = ANY (expr), is
             * refused after parsing (0A000). position: the operator. */
            attu_ast_expr     *arg;
            attu_ast_binary_op op;
            const char        *op_text;
            bool               all;        /* ALL; ANY and SOME: false */
            attu_ast_query    *query;
        } quantified;
        struct {
            char          *field;          /* lower case: year, month, day,
                                              hour, minute, second, dow,
                                              doy, epoch, quarter, week, ... */
            attu_ast_expr *arg;
        } extract;
    } u;
};

/* ---- queries (SELECT, VALUES, set operations) ---------------------------- */

typedef struct attu_ast_select_item {
    attu_ast_expr *expr;       /* may be ATTU_EXPR_STAR */
    char          *alias;      /* AS name, or a bare alias; NULL if none */
    int            alias_position;
} attu_ast_select_item;

typedef enum attu_ast_from_kind {
    ATTU_FROM_TABLE = 1,       /* u.table */
    ATTU_FROM_SUBQUERY,        /* u.subquery: (SELECT ...) [AS] alias */
    ATTU_FROM_JOIN,            /* u.join */
    ATTU_FROM_FUNCTION         /* u.function: a function call in FROM,
                                  [LATERAL] f(args) [AS] alias [(column)] */
} attu_ast_from_kind;

typedef enum attu_ast_join_type {
    ATTU_JOIN_INNER = 1,       /* [INNER] JOIN */
    ATTU_JOIN_LEFT,            /* LEFT [OUTER] JOIN */
    ATTU_JOIN_RIGHT,           /* RIGHT [OUTER] JOIN */
    ATTU_JOIN_FULL,            /* FULL [OUTER] JOIN */
    ATTU_JOIN_CROSS            /* CROSS JOIN (no ON / USING) */
} attu_ast_join_type;

/* A column definition list of a function in FROM returning records:
 * AS [alias] (a int, b text) (json_to_record). */
typedef struct attu_ast_coldefs {
    int                n;           /* 0: none written */
    char             **names;
    attu_ast_typename *types;
    int               *positions;
} attu_ast_coldefs;

/* One function of ROWS FROM (f(...) [AS (defs)], g(...), ...). */
typedef struct attu_ast_from_call {
    attu_ast_expr   *call;
    attu_ast_coldefs coldefs;
} attu_ast_from_call;

struct attu_ast_from {
    attu_ast_from_kind kind;
    int                position;
    int                depth;      /* height, as for expressions */
    /* Alias for tables and subqueries: [AS] alias [(c1, c2, ...)]. */
    char              *alias;         /* NULL if none */
    attu_ast_name_list column_aliases;
    union {
        struct {
            char *schema;             /* NULL unless schema.table written */
            char *name;
        } table;
        struct {
            attu_ast_query *query;
            bool            lateral;  /* LATERAL (SELECT ...): it may read the
                                         FROM items before it */
        } subquery;
        struct {
            attu_ast_expr *call;      /* ATTU_EXPR_FUNC */
            bool           lateral;   /* LATERAL written (a function in FROM
                                         is lateral whether or not) */
            bool           ordinality; /* WITH ORDINALITY: a bigint column
                                          numbering the rows, after the
                                          function's */
            attu_ast_coldefs coldefs;  /* the alias's column definition list */
            attu_ast_from_call *calls; /* ROWS FROM: ncalls functions in
                                          lockstep (call is calls[0].call);
                                          NULL for a single function */
            int            ncalls;
        } function;
        struct {
            attu_ast_join_type type;
            bool               natural;
            attu_ast_from     *left, *right;
            attu_ast_expr     *on;       /* NULL for USING, NATURAL, CROSS */
            attu_ast_name_list using_;   /* n == 0 unless USING */
        } join;
    } u;
};

typedef struct attu_ast_from_list {  /* FROM a, b, c: an implicit cross join */
    attu_ast_from **items;
    int             n;
} attu_ast_from_list;

/* A recursive WITH query's SEARCH and CYCLE clauses, as written (the
 * parser rewrites the query's arms to compute their columns:
 * ast_build.c ab_cte_search_cycle). */
typedef struct attu_ast_cte_search {
    int                kind;         /* 0 none, 1 DEPTH FIRST, 2 BREADTH FIRST */
    attu_ast_name_list by;
    char              *set;          /* the sequence column */
    int                position;     /* SEARCH */
} attu_ast_cte_search;
typedef struct attu_ast_cte_cycle {
    bool               present;
    attu_ast_name_list cols;
    char              *mark, *path;  /* SET mark ... USING path */
    attu_ast_expr     *to, *dflt;    /* TO / DEFAULT values; NULL: true / false */
    int                position;     /* CYCLE */
} attu_ast_cte_cycle;

typedef struct attu_ast_cte {
    char               *name;
    int                 position;
    attu_ast_name_list  columns;     /* WITH t (a, b) AS (...) */
    attu_ast_cte_search search;
    attu_ast_cte_cycle  cycle;
    attu_ast_query     *query;       /* NULL for a data-modifying one */
    /* WITH t AS (INSERT / UPDATE / DELETE ... [RETURNING ...]): the
     * statement, run once by db/db_with_modify.c before the query that
     * holds it, which reads its RETURNING rows (NULL: a query) */
    struct attu_ast_stmt *modify;
} attu_ast_cte;

typedef enum attu_ast_query_kind {
    ATTU_QUERY_SELECT = 1,     /* u.select: one SELECT block */
    ATTU_QUERY_VALUES,         /* u.values: VALUES (...), (...) */
    ATTU_QUERY_SETOP           /* u.setop: left UNION|INTERSECT|EXCEPT right */
} attu_ast_query_kind;

typedef enum attu_ast_setop {
    ATTU_SETOP_UNION = 1,
    ATTU_SETOP_INTERSECT,
    ATTU_SETOP_EXCEPT
} attu_ast_setop;

/*
 * One query expression. WITH, ORDER BY, LIMIT and OFFSET belong to the
 * node they were written on: for "SELECT a FROM t UNION SELECT b FROM u
 * ORDER BY 1 LIMIT 3" they sit on the SETOP node, not on its right arm, as
 * in PostgreSQL. A parenthesised arm may carry its own.
 */
struct attu_ast_query {
    attu_ast_query_kind kind;
    int                 position;    /* SELECT / VALUES keyword, or the set
                                        operator keyword for SETOP */
    int                 depth;       /* height, as for expressions */
    int                 paren_position; /* the outermost '(' around it, 0
                                        when not parenthesised */
    struct {
        attu_ast_cte *items;
        int           n;
        bool          recursive;     /* WITH RECURSIVE (binder rejects) */
    } with;
    union {
        struct {
            bool                  distinct;     /* SELECT DISTINCT */
            attu_ast_expr_list    distinct_on;  /* DISTINCT ON (...); n == 0 */
            attu_ast_select_item *items;        /* n >= 0 (SELECT; is legal) */
            int                   nitems;
            attu_ast_from_list    from;         /* n == 0 without FROM */
            attu_ast_expr        *where;
            attu_ast_expr_list    group_by;
            bool                  group_empty;  /* GROUP BY (): the one
                                                   group of all rows */
            /* GROUP BY with grouping sets (ROLLUP, CUBE, GROUPING SETS,
             * () beside other items, or DISTINCT): group_by then holds the
             * items as written, ROLLUP (...) / CUBE (...) as calls of
             * rollup / cube, () and GROUPING SETS (...) as calls of "()"
             * and "grouping sets" in the schema "" (grammar.y
             * group_clause); the binder expands them (binder_gsets.c) */
            bool                  group_sets;
            bool                  group_distinct;   /* GROUP BY DISTINCT */
            attu_ast_expr        *having;
            /* WINDOW w AS (...), ...: definitions (name set), already
             * merged into every OVER that names them. */
            attu_ast_window      *windows;
            int                   nwindows;
        } select;
        struct {
            attu_ast_expr_list *rows;           /* each row a list; nrows >= 1 */
            int                 nrows;
        } values;
        struct {
            attu_ast_setop  op;
            bool            all;                /* UNION ALL */
            attu_ast_query *left, *right;
        } setop;
    } u;
    attu_ast_order_list order_by;
    attu_ast_expr      *limit;     /* NULL if none (LIMIT ALL is NULL too);
                                      FETCH FIRST n ROWS ONLY lands here */
    attu_ast_expr      *offset;    /* NULL if none */
    bool                lift_aggs;  /* set by the binder's rewrite of a row
                                       subquery (planner/row_subquery.c):
                                       the WHERE holds the outer row's
                                       items, whose aggregates of no
                                       column belong one level out */
    bool                limit_with_ties;  /* FETCH FIRST n ROWS WITH TIES: the
                                             rows after the n-th that are its
                                             ORDER BY peers are kept too */
    /* FOR UPDATE / NO KEY UPDATE / SHARE / KEY SHARE [OF t, ...] [NOWAIT |
     * SKIP LOCKED] (db/db_lock_clause.c): the strongest strength written
     * ('u', 'n', 's', 'k'; 0: none), the tables of OF (lock_all: a clause
     * without OF, every table), the first clause's position */
    char                lock_strength;
    bool                lock_all;
    attu_ast_name_list  lock_of;
    int                 lock_position;
};

/* ---- statements ---------------------------------------------------------- */

typedef enum attu_ast_stmt_kind {
    ATTU_STMT_SELECT = 1,      /* u.select (also VALUES / set operations) */
    ATTU_STMT_INSERT,          /* u.insert */
    ATTU_STMT_CREATE_TABLE,    /* u.create_table */
    ATTU_STMT_CREATE_TABLE_AS, /* u.create_table_as */
    ATTU_STMT_DROP_TABLE,      /* u.drop_table */
    ATTU_STMT_COPY,            /* u.copy */
    ATTU_STMT_EXPLAIN,         /* u.explain */
    ATTU_STMT_SET,             /* u.set */
    ATTU_STMT_RESET,           /* u.reset: RESET name | RESET ALL */
    ATTU_STMT_SHOW,            /* u.show: SHOW name | SHOW ALL */
    ATTU_STMT_SHOW_TABLES,     /* SHOW TABLES (no payload) */
    ATTU_STMT_DESCRIBE,        /* u.describe: DESCRIBE t / DESC t */
    ATTU_STMT_TRANSACTION,     /* u.transaction: BEGIN / COMMIT / ROLLBACK */
    ATTU_STMT_DEALLOCATE,      /* u.deallocate: DEALLOCATE [PREPARE] {name | ALL} */
    ATTU_STMT_DISCARD,         /* u.discard: DISCARD {ALL | PLANS | SEQUENCES | TEMP} */
    ATTU_STMT_LISTEN,          /* u.listen: LISTEN ch | UNLISTEN {ch | *} | NOTIFY ch [, 'payload'] */
    ATTU_STMT_PREPARE,         /* u.prepare: PREPARE name [(types)] AS stmt */
    ATTU_STMT_EXECUTE,         /* u.execute: EXECUTE name [(args)] */
    ATTU_STMT_DELETE,          /* u.modify: DELETE FROM t [USING ...] [WHERE] [RETURNING] */
    ATTU_STMT_UPDATE,          /* u.modify: UPDATE t SET ... [FROM ...] [WHERE] [RETURNING] */
    ATTU_STMT_TRUNCATE,        /* u.truncate: TRUNCATE [TABLE] t, ... */
    ATTU_STMT_CREATE_VIEW,     /* u.create_view */
    ATTU_STMT_DROP_VIEW,       /* u.drop_table: DROP [MATERIALIZED] VIEW [IF EXISTS] v, ... */
    ATTU_STMT_REFRESH_MATVIEW, /* u.drop_table: REFRESH MATERIALIZED VIEW v [WITH [NO] DATA] */
    ATTU_STMT_CREATE_SEQUENCE, /* u.create_sequence */
    ATTU_STMT_DROP_SEQUENCE,   /* u.drop_table: DROP SEQUENCE [IF EXISTS] s, ... */
    ATTU_STMT_ALTER_TABLE,     /* u.alter_table: ALTER TABLE t action, ... */
    ATTU_STMT_ALTER_SEQUENCE,  /* u.create_sequence: ALTER SEQUENCE [IF EXISTS] s options / RENAME TO */
    ATTU_STMT_COMMENT,         /* u.comment: COMMENT ON object IS 'text' | NULL (db/db_comment.c) */
    ATTU_STMT_CREATE_INDEX,    /* u.create_index (db/db_index.c) */
    ATTU_STMT_DROP_INDEX,      /* u.drop_table: DROP INDEX [CONCURRENTLY] [IF EXISTS] i, ... */
    ATTU_STMT_ALTER_INDEX,     /* u.alter_index: ALTER INDEX ... / REINDEX ... */
    ATTU_STMT_DECLARE_CURSOR,  /* u.cursor: DECLARE name ... CURSOR ... FOR query (db/db_cursor.c) */
    ATTU_STMT_FETCH,           /* u.fetch: FETCH / MOVE [direction] [FROM | IN] name */
    ATTU_STMT_CLOSE_CURSOR,    /* u.close_cursor: CLOSE {name | ALL} */
    ATTU_STMT_SET_CONSTRAINTS, /* u.set_constraints: SET CONSTRAINTS {ALL | name, ...} {DEFERRED | IMMEDIATE} */
    ATTU_STMT_MERGE,           /* u.modify: MERGE INTO t USING src ON cond WHEN ... (db/db_merge.c) */
    ATTU_STMT_TYPE,            /* u.type_stmt: CREATE TYPE ... AS ENUM, DROP TYPE, ALTER TYPE (db/db_type.c) */
    ATTU_STMT_LOCK,            /* u.lock: LOCK [TABLE] [ONLY] t, ... [IN mode MODE] [NOWAIT] (db/db_lock_table.c) */
    ATTU_STMT_MAINTENANCE,     /* u.maintenance: VACUUM / ANALYZE [options] [t, ...], CHECKPOINT (db/db_maintenance.c) */
    ATTU_STMT_ROLE             /* u.role: CREATE / ALTER / DROP ROLE, GRANT / REVOKE role (db/db_role.c, db/db_role_grant.c) */
} attu_ast_stmt_kind;

/* One option of CREATE / ALTER ROLE as written (db/db_role.c): kind
 * 'f' a word (SUPERUSER, NOLOGIN, INHERIT, ...: word, folded), 'p'
 * PASSWORD str (NULL: PASSWORD NULL), 'c' CONNECTION LIMIT num, 'v' VALID
 * UNTIL str, 'i' IN ROLE / IN GROUP names, 'r' ROLE / USER names, 'a'
 * ADMIN names; pos where it starts (PostgreSQL's DefElem location). */
typedef struct attu_ast_role_option {
    char               kind;
    const char        *word;
    const char        *str;
    int64_t            num;
    struct attu_ast_name_list *names;
    int                pos;
    int                pos2;   /* 'i': where its ROLE / GROUP is */
} attu_ast_role_option;

/* FETCH / MOVE directions, as PostgreSQL's FetchStmt keeps them: NEXT is
 * FORWARD 1, PRIOR BACKWARD 1, FIRST ABSOLUTE 1, LAST ABSOLUTE -1, a bare
 * count FORWARD count, ALL FORWARD ATTU_FETCH_ALL. */
typedef enum attu_ast_fetch_dir {
    ATTU_FETCH_FORWARD = 1, ATTU_FETCH_BACKWARD, ATTU_FETCH_ABSOLUTE, ATTU_FETCH_RELATIVE
} attu_ast_fetch_dir;
#define ATTU_FETCH_ALL INT64_MAX

/* One key (or INCLUDE) column of CREATE INDEX: a column, or an expression
 * with its text as written; COLLATE, the operator class and the ordering
 * as written (NULL / 0 when not). */
typedef struct attu_ast_index_elem {
    char          *column;          /* NULL for an expression */
    struct attu_ast_expr *expr;
    char          *expr_text;       /* (a) -> "a"; lower(b) -> "lower(b)" */
    bool           expr_call;       /* written as a function call, not in parentheses */
    int            position;        /* the column's, or expr_text's first character's */
    char          *collation;       /* COLLATE name */
    int            collation_position;
    char          *opclass;
    int            opclass_position;
    bool           desc;
    int            nulls;           /* ATTU_NULLS_DEFAULT / _FIRST / _LAST */
} attu_ast_index_elem;

/* One assignment of UPDATE's SET list. SET (a, b) = (x, y) arrives as two
 * items, a = x and b = y (PostgreSQL expands a ROW source the same way). */
typedef struct attu_ast_set_item {
    char          *column;
    int            position;        /* the column name */
    attu_ast_expr *value;           /* may be ATTU_EXPR_DEFAULT */
} attu_ast_set_item;

/* One WHEN clause of MERGE (db/db_merge.c): WHEN [NOT] MATCHED [AND
 * cond] THEN action, action 'u' UPDATE SET sets, 'd' DELETE, 'n' DO
 * NOTHING, 'i' INSERT [(columns)] [OVERRIDING ...] {VALUES (values) |
 * DEFAULT VALUES}. */
typedef struct attu_ast_merge_when {
    bool               matched;
    char               action;
    int                position;        /* WHEN */
    attu_ast_expr     *cond;            /* NULL: none */
    attu_ast_set_item *sets;
    int                nsets;
    attu_ast_name_list columns;         /* n == 0: all, in table order */
    attu_ast_expr_list values;          /* n == 0: DEFAULT VALUES */
    char               overriding;      /* 's' SYSTEM, 'u' USER, 0 none */
} attu_ast_merge_when;

#define ATTU_LISTEN_LISTEN   'L'
#define ATTU_LISTEN_UNLISTEN 'U'
#define ATTU_LISTEN_NOTIFY   'N'

typedef enum attu_ast_discard_kind {
    ATTU_DISCARD_ALL = 1, ATTU_DISCARD_PLANS, ATTU_DISCARD_SEQUENCES, ATTU_DISCARD_TEMP
} attu_ast_discard_kind;

/* LIKE source [INCLUDING | EXCLUDING option] ... among CREATE TABLE's
 * elements (db/db_create_like.c copies the source's columns in its place).
 * The option bits, as PostgreSQL's TableLikeOption. */
#define ATTU_LIKE_COMMENTS     (1u << 0)
#define ATTU_LIKE_COMPRESSION  (1u << 1)
#define ATTU_LIKE_CONSTRAINTS  (1u << 2)
#define ATTU_LIKE_DEFAULTS     (1u << 3)
#define ATTU_LIKE_GENERATED    (1u << 4)
#define ATTU_LIKE_IDENTITY     (1u << 5)
#define ATTU_LIKE_INDEXES      (1u << 6)
#define ATTU_LIKE_STATISTICS   (1u << 7)
#define ATTU_LIKE_STORAGE      (1u << 8)
#define ATTU_LIKE_ALL          0x1ffu
typedef struct attu_ast_table_like {
    char     *table;
    char      schema;     /* ATTU_REL_*: public.t, pg_temp.t */
    int       position;   /* the source's name */
    unsigned  including;  /* ATTU_LIKE_* bits, INCLUDING / EXCLUDING applied in order */
} attu_ast_table_like;

typedef struct attu_ast_column_def {
    char             *name;
    int               position;
    attu_ast_typename type;
    bool              not_null;     /* NOT NULL or PRIMARY KEY written */
    bool              primary_key;  /* PRIMARY KEY written on the column */
    attu_ast_expr    *default_;     /* DEFAULT expr, NULL if none */
    struct attu_ast_unique_def *uniques;   /* its PRIMARY KEY / UNIQUE, in order */
    int               nuniques;
    /* GENERATED ALWAYS ('a') / BY DEFAULT ('d') AS IDENTITY [(options)];
     * 0: not an identity column */
    char              identity;
    int               identity_position;
    attu_sequence_options identity_options;
    attu_ast_typename identity_as;  /* AS type among the options (name NULL: none) */
    /* GENERATED ALWAYS AS (expr) STORED (db/db_generated.c): the
     * expression, its text as written and that text's first character's
     * position; NULL: not a generated column */
    attu_ast_expr    *generated;
    char             *generated_text;
    int               generated_position;
    /* where GENERATED and DEFAULT stand (PostgreSQL's position for a
     * column with both) */
    int               generated_keyword_position, default_keyword_position;
    /* A LIKE element (the other fields unused) until db/db_create_like.c
     * puts the source's columns in its place; those columns come with
     * their type resolved (has_type: resolved, not type) and, where the
     * options copy them, their stored DEFAULT / generation text
     * (default_sql / generated_sql, kept as they are) */
    attu_ast_table_like *like;
    bool              has_type;
    attu_type         resolved;
    const char       *default_sql;
    const char       *generated_sql;
    /* INCLUDING COMMENTS: the source column's comment, or NULL */
    const char       *comment;
} attu_ast_column_def;

/* FOREIGN KEY (cols) REFERENCES t [(cols)] [MATCH ...] [ON DELETE / ON
 * UPDATE action] [[NOT] DEFERRABLE] [INITIALLY ...] (db/db_fkey.c); the
 * match and actions by PostgreSQL's letters (engine/fkey.h). */
typedef struct attu_ast_fkey {
    char              *ref_table;
    int                ref_position;
    char               ref_schema;   /* ATTU_REL_*: public.t, pg_temp.t */
    attu_ast_name_list ref_columns;  /* n == 0: the primary key */
    char               match, on_update, on_delete;
    /* ON DELETE SET NULL (cols) / SET DEFAULT (cols): the columns set (n
     * == 0: all the key's) */
    attu_ast_name_list delete_set_columns;
    bool               deferrable, initially_deferred;
    int                deferrable_position;   /* 0: neither written */
    bool               not_deferrable;        /* NOT DEFERRABLE written (column constraints' checks) */
    bool               initially_seen;        /* INITIALLY written (column constraints' checks) */
} attu_ast_fkey;

/* A PRIMARY KEY or UNIQUE constraint of CREATE TABLE, a column's or the
 * table's, in the order written (db_ddl.c names them as PostgreSQL does). */
typedef struct attu_ast_unique_def {
    char              *name;        /* CONSTRAINT name, or NULL */
    bool               primary;
    attu_ast_name_list columns;     /* the key columns, as written */
    int                position;    /* PRIMARY / UNIQUE / CHECK */
    /* CHECK (expr) (db/db_check.c) when check is set: the expression,
     * its text as written (between the parentheses) and the character
     * position of that text's first character */
    struct attu_ast_expr *check;
    char              *check_text;
    int                check_position;
    attu_ast_fkey     *fkey;        /* a FOREIGN KEY when set (columns: its own) */
    /* NOT VALID written (a CHECK's or a FOREIGN KEY's): ALTER TABLE ...
     * ADD leaves the existing rows unchecked; CREATE TABLE ignores it */
    bool               not_valid;
    int                not_valid_position;
    /* a PRIMARY KEY's or UNIQUE's [NOT] DEFERRABLE [INITIALLY ...]
     * (db/db_unique_defer.c; INITIALLY DEFERRED sets deferrable too);
     * not_deferrable and initially_seen only for a column constraint's
     * checks of its clauses */
    bool               deferrable, initially_deferred, not_deferrable, initially_seen;
} attu_ast_unique_def;

/* INSERT ... ON CONFLICT [ (a, b) | ON CONSTRAINT name ] DO NOTHING |
 * DO UPDATE SET ... [WHERE ...] (db/db_on_conflict.c) */
typedef struct attu_ast_on_conflict {
    bool               update;      /* DO UPDATE (else DO NOTHING) */
    int                position;    /* ON */
    attu_ast_name_list columns;     /* the inference columns; n == 0: none */
    char              *constraint;  /* ON CONSTRAINT name, or NULL */
    int                constraint_position;
    struct attu_ast_set_item *sets; /* DO UPDATE's SET list */
    int                nsets;
    attu_ast_expr     *where;       /* DO UPDATE ... WHERE, or NULL */
} attu_ast_on_conflict;

/* One action of ALTER TABLE (db/db_alter.c). RENAME forms stand alone in
 * their statement, as PostgreSQL's grammar has them. */
typedef enum attu_ast_alter_kind {
    ATTU_ALTER_ADD_COLUMN = 1,      /* def; if_exists: IF NOT EXISTS */
    ATTU_ALTER_DROP_COLUMN,         /* column; if_exists; cascade */
    ATTU_ALTER_RENAME_COLUMN,       /* column TO new_name */
    ATTU_ALTER_RENAME_TABLE,        /* TO new_name */
    ATTU_ALTER_SET_DEFAULT,         /* column, expr (DEFAULT NULL: expr NULL) */
    ATTU_ALTER_DROP_DEFAULT,        /* column */
    ATTU_ALTER_SET_NOT_NULL,        /* column */
    ATTU_ALTER_DROP_NOT_NULL,       /* column */
    ATTU_ALTER_TYPE,                /* column, type, expr: USING (or NULL) */
    ATTU_ALTER_ADD_CONSTRAINT,      /* key: [CONSTRAINT name] PRIMARY KEY / UNIQUE (cols) */
    ATTU_ALTER_DROP_CONSTRAINT,     /* column: the constraint's name; if_exists; cascade */
    /* identity columns: def.identity ('a' / 'd'), def.identity_options,
     * def.identity_as of ADD GENERATED ... AS IDENTITY; SET GENERATED
     * (def.identity, 0 when not written) / SET option / RESTART
     * (def.identity_options); DROP IDENTITY (if_exists) */
    ATTU_ALTER_ADD_IDENTITY,
    ATTU_ALTER_SET_IDENTITY,
    ATTU_ALTER_DROP_IDENTITY,
    ATTU_ALTER_RENAME_CONSTRAINT,   /* column: the constraint's name TO new_name */
    ATTU_ALTER_VALIDATE_CONSTRAINT, /* column: the constraint's name */
    ATTU_ALTER_ALTER_CONSTRAINT,    /* column: a foreign key's name; deferrable, initially_deferred */
    /* a view's SET (options) / RESET (options) (db/db_alter_view.c):
     * check_option 'l' / 'c' set, 'r' reset, 0 not named; bad_option_*
     * the first bad option as create_view's */
    ATTU_ALTER_SET_OPTIONS,
    ATTU_ALTER_RESET_OPTIONS,
    /* OWNER TO role (new_name; NULL for CURRENT_USER / CURRENT_ROLE /
     * SESSION_USER) and SET SCHEMA new_name, each alone in its statement
     * (db/db_alter_owner.c) */
    ATTU_ALTER_OWNER,
    ATTU_ALTER_SET_SCHEMA,
    /* ALTER COLUMN ... DROP EXPRESSION [IF EXISTS]: a generated column
     * becomes a plain one keeping its values (db/db_generated.c) */
    ATTU_ALTER_DROP_EXPRESSION
} attu_ast_alter_kind;

typedef struct attu_ast_alter_cmd {
    attu_ast_alter_kind kind;
    int                 position;   /* the action's first keyword */
    char               *column;
    char               *new_name;
    bool                if_exists;
    attu_ast_column_def def;        /* ADD COLUMN */
    attu_ast_typename   type;       /* ALTER ... TYPE */
    attu_ast_expr      *expr;
    bool                constraint; /* ADD COLUMN ... PRIMARY KEY / UNIQUE written */
    bool                cascade;    /* DROP COLUMN / CONSTRAINT ... CASCADE */
    struct attu_ast_unique_def *key; /* ADD CONSTRAINT */
    char                check_option;       /* SET / RESET (options) */
    char                bad_option_kind;
    char               *bad_option, *bad_option_name;
    bool                deferrable, initially_deferred;   /* ALTER CONSTRAINT */
} attu_ast_alter_cmd;

typedef struct attu_ast_option {    /* COPY ... WITH (name value, ...) */
    char *name;                     /* lower case: format, header, delimiter,
                                       null, quote, escape, encoding, ... */
    char *value;                    /* as text: strings decoded, identifiers
                                       and keywords lower-cased, numbers as
                                       written; NULL when written bare
                                       (HEADER alone means true) */
    int   position;                 /* the option name */
    int   value_position;           /* 0 when value is NULL */
    attu_ast_name_list list;        /* a parenthesized name list (COPY's
                                       FORCE_QUOTE (a, b)); value is then
                                       NULL, list.n > 0 */
} attu_ast_option;

typedef enum attu_ast_copy_target {
    ATTU_COPY_FILE = 1,             /* 'path' */
    ATTU_COPY_STDIN,                /* FROM STDIN (or FROM STDOUT: as in
                                       PostgreSQL, both mean the client) */
    ATTU_COPY_STDOUT                /* TO STDOUT (or TO STDIN) */
} attu_ast_copy_target;

typedef enum attu_ast_txn_kind {
    ATTU_TXN_BEGIN = 1,             /* BEGIN [WORK|TRANSACTION] [modes],
                                       START TRANSACTION [modes] */
    ATTU_TXN_COMMIT,                /* COMMIT / END [WORK|TRANSACTION] */
    ATTU_TXN_ROLLBACK,              /* ROLLBACK / ABORT [WORK|TRANSACTION] */
    ATTU_TXN_SAVEPOINT,             /* SAVEPOINT name */
    ATTU_TXN_RELEASE,               /* RELEASE [SAVEPOINT] name */
    ATTU_TXN_ROLLBACK_TO            /* ROLLBACK [WORK] TO [SAVEPOINT] name */
} attu_ast_txn_kind;

/* A condition a row that INSERT or UPDATE writes must meet (TRUE, not
 * NULL): a view's WITH CHECK OPTION, its WHERE over the statement's
 * target as the statement names it (db/db_view_update.c carries it down
 * as a view's statement is rewritten onto its relation). */
typedef struct attu_ast_view_check {
    const char                 *view;   /* whose check it is, for the error */
    attu_ast_expr              *cond;   /* NULL: the view has no WHERE */
    bool                        cascaded;   /* the views below are checked too */
    struct attu_ast_view_check *next;   /* innermost view first */
} attu_ast_view_check;

struct attu_ast_stmt {
    attu_ast_stmt_kind kind;
    int                position;    /* first keyword */
    char               schema;      /* its subject's ATTU_REL_* (INSERT's,
                                       UPDATE's, ... target; ALTER's, COPY's,
                                       CREATE INDEX's table, ...) */
    union {
        struct {
            attu_ast_query *query;
        } select;
        struct {
            char              *table;
            int                table_position;
            attu_ast_name_list columns;   /* n == 0: all, in table order */
            attu_ast_expr    **targets;   /* NULL, or one per column: NULL for
                                             a plain one, the subscripts on
                                             the column for a[i] / a[i:j]
                                             (as SET a[i] = v has them) */
            attu_ast_query    *source;    /* VALUES or SELECT; NULL for
                                             DEFAULT VALUES */
            attu_ast_select_item *returning;  /* RETURNING items; nreturning == 0: none */
            int                nreturning;
            int                returning_position;   /* the RETURNING keyword */
            char              *alias;     /* INSERT INTO t AS x, or NULL */
            attu_ast_on_conflict *on_conflict;   /* NULL: none */
            /* OVERRIDING SYSTEM VALUE ('s') / USER VALUE ('u'); 0: none */
            char               overriding;
            struct attu_ast_view_check *view_checks;  /* db/db_view_update.c */
        } insert;
        struct {
            char                *table;
            bool                 if_not_exists;
            attu_ast_column_def *columns;
            int                  ncolumns;   /* >= 0 (PG allows zero) */
            attu_ast_unique_def *uniques;    /* PRIMARY KEY / UNIQUE, as written */
            int                  nuniques;
            bool                 temp;       /* CREATE TEMP TABLE (db/db_temp.c) */
            char                 on_commit;  /* ON COMMIT: 'p' PRESERVE ROWS, 'd' DELETE ROWS, 'D' DROP; 0: none */
        } create_table;
        struct {
            char              *table;
            bool               if_not_exists;
            attu_ast_name_list columns;   /* CREATE TABLE t (a, b) AS ... */
            attu_ast_query    *query;     /* NULL with execute */
            bool               with_no_data;
            attu_ast_stmt     *execute;   /* CREATE TABLE ... AS EXECUTE p (args) */
            bool               temp;      /* CREATE TEMP TABLE ... AS, SELECT INTO TEMP */
            char               on_commit; /* as create_table's */
        } create_table_as;
        struct {
            char              *view;
            int                view_position;
            bool               or_replace;
            attu_ast_name_list columns;   /* CREATE VIEW v (a, b) AS ... */
            attu_ast_query    *query;
            char              *query_sql; /* the query's own text, as written */
            /* WITH [CASCADED | LOCAL] CHECK OPTION or WITH (check_option =
             * ...): 'c' / 'l', '?' named with a bad value, 0 none. The
             * first bad WITH (...) option (the db layer's 22023, after the
             * query's own errors): bad_option_kind 'u' an unknown name,
             * 'e' check_option's value, 'b' a boolean option's value, 'd'
             * a name given twice; bad_option_name, bad_option its value */
            char               check_option;
            char               bad_option_kind;
            char              *bad_option, *bad_option_name;
            /* CREATE MATERIALIZED VIEW [IF NOT EXISTS] ... [WITH NO DATA] */
            bool               materialized, if_not_exists, with_no_data;
            bool               temp;      /* CREATE TEMP VIEW (db/db_temp.c) */
        } create_view;
        struct {
            attu_ast_name_list tables;    /* DROP TABLE a, b */
            bool               if_exists;
            bool               cascade;   /* CASCADE written (no effect) */
            bool               materialized;   /* DROP MATERIALIZED VIEW;
                                                  REFRESH: WITH NO DATA */
        } drop_table;
        struct {
            char                *table;   /* NULL when query is set */
            int                  table_position;
            attu_ast_name_list   columns; /* COPY t (a, b) ...; n == 0: all */
            attu_ast_query      *query;   /* COPY (SELECT ...) TO ... */
            bool                 is_from; /* FROM (load) vs TO (unload) */
            attu_ast_copy_target target;
            char                *filename;/* ATTU_COPY_FILE only, decoded */
            int                  filename_position;
            /* Both PostgreSQL syntaxes land here: WITH (FORMAT csv, HEADER
             * true) and the old one, [WITH] CSV HEADER DELIMITER ',' NULL ''
             * (CSV -> format "csv", BINARY -> format "binary", HEADER ->
             * header NULL, DELIMITER [AS] 'x' -> delimiter "x", ...). */
            attu_ast_option     *options;
            int                  noptions;
        } copy;
        struct {
            bool           analyze;
            bool           verbose;
            attu_ast_stmt *stmt;          /* the explained statement */
            /* EXPLAIN (ANALYZE, VERBOSE, COSTS off, ...) options, as written;
             * analyze/verbose above already reflect them. */
            attu_ast_option *options;
            int              noptions;
        } explain;
        struct {
            char  *name;                  /* lower case; "time zone" for
                                             SET TIME ZONE; dotted names kept
                                             as "a.b" */
            bool   local;                 /* SET LOCAL */
            bool   to_default;            /* SET x TO DEFAULT */
            /* Values as text, comma separated in SQL: identifiers and
             * keywords lower-cased, strings decoded, numbers as written
             * (a leading '-' kept). n == 0 only with to_default.
             * SET TIME ZONE INTERVAL 'text' [fields] is one value:
             * ATTU_SET_TZ_INTERVAL, the fields' ATTU_IVF_* bits in
             * decimal, ':', the text. */
            char **values;
            int    nvalues;
        } set;
        struct {
            char *name;                   /* NULL for RESET ALL */
        } reset;
        struct {
            char *name;                   /* lower case; "all" for SHOW ALL;
                                             "time zone" for SHOW TIME ZONE */
        } show;
        struct {
            char *table;
            int   table_position;
        } describe;
        struct {
            attu_ast_txn_kind kind;
            bool              chain;      /* COMMIT AND CHAIN (rare) */
            char            **modes;      /* BEGIN's: "serializable", "read only", ... */
            int               nmodes;
            char             *savepoint;  /* SAVEPOINT, RELEASE, ROLLBACK TO's name */
        } transaction;
        struct {
            char *name;                   /* NULL for DEALLOCATE ALL */
        } deallocate;
        struct {
            attu_ast_discard_kind what;
        } discard;
        struct {
            char  op;                     /* ATTU_LISTEN_LISTEN ('L'), _UNLISTEN ('U'), _NOTIFY ('N') */
            char *channel;                /* NULL: UNLISTEN * */
            char *payload;                /* NOTIFY's; NULL: none */
        } listen;
        struct {
            char              *name;
            attu_ast_typename *types;     /* the declared parameter types */
            int                ntypes;    /* 0 when none were written */
            attu_ast_stmt     *stmt;      /* SELECT / VALUES / INSERT */
            /* The PREPARE statement's own text, as byte offsets into the
             * parsed string (the stored statement keeps its own copy). */
            size_t             text_start, text_end;
        } prepare;
        struct {
            char              *name;
            attu_ast_expr_list args;      /* n == 0 without a list */
        } execute;
        struct {
            /* DELETE and UPDATE: the target table, its alias (NULL when
             * none), the other tables (DELETE's USING, UPDATE's FROM),
             * WHERE, UPDATE's assignments and RETURNING's items
             * (nreturning == 0: no RETURNING) */
            char                 *table;
            int                   table_position;
            char                 *alias;
            attu_ast_from_list    from;
            attu_ast_expr        *where;
            attu_ast_set_item    *sets;
            int                   nsets;
            attu_ast_select_item *returning;
            int                   nreturning;
            /* WITH before the statement: its queries are visible to
             * WHERE, FROM / USING, SET and RETURNING */
            attu_ast_cte         *with;
            int                   nwith;
            bool                  with_recursive;
            int                   with_position;
            struct attu_ast_view_check *view_checks;  /* db/db_view_update.c */
            /* WHERE CURRENT OF cursor (db/db_cursor.c; where NULL then) */
            char                 *current_of;
            int                   current_of_position;
            /* MERGE: from holds the USING source (one item), where the
             * ON condition; its WHEN clauses in order */
            attu_ast_merge_when  *whens;
            int                   nwhens;
        } modify;
        struct {
            attu_ast_name_list tables;    /* TRUNCATE a, b */
            bool               restart_identity;   /* RESTART IDENTITY (else CONTINUE) */
            bool               cascade;            /* CASCADE (foreign keys, db/db_fkey.c) */
        } truncate;
        struct {
            attu_ast_name_list tables;    /* VACUUM / ANALYZE a, b (none: every table) */
            bool               vacuum;    /* VACUUM, else ANALYZE */
            bool               checkpoint;   /* CHECKPOINT (no tables) */
        } maintenance;
        struct {
            attu_ast_name_list tables;    /* LOCK a, b */
            int                mode;      /* PostgreSQL's lock mode number: 1 ACCESS SHARE .. 8 ACCESS EXCLUSIVE */
            bool               nowait;
        } lock;
        struct {
            char                 *name;
            int                   name_position;
            bool                  if_not_exists;
            attu_sequence_options options;
            attu_ast_typename     as;         /* AS type (name NULL: not written) */
            /* OWNED BY owned_table.owned_column / OWNED BY NONE */
            bool                  has_owned, owned_none;
            char                 *owned_table, *owned_column;
            int                   owned_position;
            bool                  if_exists;  /* ALTER SEQUENCE IF EXISTS */
            char                 *new_name;   /* ALTER SEQUENCE ... RENAME TO (NULL otherwise) */
            bool                  temp;       /* CREATE TEMP SEQUENCE, CREATE SEQUENCE pg_temp.s */
        } create_sequence;
        struct {
            char               *table;
            int                 table_position;
            bool                if_exists;    /* ALTER TABLE IF EXISTS */
            attu_ast_alter_cmd *cmds;         /* n >= 1, in written order */
            int                 ncmds;
            bool                materialized; /* ALTER MATERIALIZED VIEW */
            bool                view;         /* ALTER VIEW (db/db_alter_view.c) */
            bool                sequence;     /* ALTER SEQUENCE ... OWNER TO / SET SCHEMA */
        } alter_table;
        struct {
            /* 'c' CREATE TYPE name AS ENUM (labels), 'd' DROP TYPE names,
             * 'a' ALTER TYPE name ADD VALUE label [BEFORE | AFTER nbr],
             * 'v' ALTER TYPE name RENAME VALUE label TO nbr,
             * 'r' ALTER TYPE name RENAME TO nbr,
             * 'o' ALTER TYPE name OWNER TO nbr (NULL: CURRENT_USER ...),
             * 's' ALTER TYPE name SET SCHEMA nbr */
            char               action;
            char              *name;
            int                name_position;
            attu_ast_name_list labels;    /* 'c': the labels (positions: their literals'); 'd': the names */
            char              *label, *nbr;
            int                where;     /* 'a': -1 BEFORE nbr, 1 AFTER nbr, 0 at the end */
            bool               if_exists; /* DROP TYPE IF EXISTS; ADD VALUE IF NOT EXISTS */
            bool               cascade;
            /* Domains (db/db_domain.c): 'C' CREATE DOMAIN name AS base,
             * 'D' DROP DOMAIN names (labels), 'A' ALTER DOMAIN name, sub
             * the change: 'd' SET DEFAULT, 'e' DROP DEFAULT, 'n' SET NOT
             * NULL, 'm' DROP NOT NULL, 'c' ADD checks[0], 'x' DROP
             * CONSTRAINT label, 'r' RENAME TO nbr, 'k' RENAME CONSTRAINT
             * label TO nbr, 'v' VALIDATE CONSTRAINT label, 'o' OWNER TO
             * nbr (NULL: CURRENT_USER ...), 's' SET SCHEMA nbr (nothing
             * changes: attu's one role and schema) */
            char               sub;
            attu_ast_typename  base;
            struct attu_ast_expr *dflt;   /* DEFAULT (NULL: none) */
            bool               not_null, null_seen;
            struct attu_ast_unique_def *checks;   /* CHECK (expr) entries, check_text set */
            int                nchecks;
            /* SQL functions (db/db_function.c): 'F' CREATE [OR REPLACE]
             * FUNCTION fn, 'G' DROP FUNCTION fn (a list through next),
             * 'H' ALTER FUNCTION fn: sub 0 RENAME TO nbr, 'o' OWNER TO
             * nbr, 's' SET SCHEMA nbr, 'a' the options fn carries */
            struct attu_ast_function *fn;
        } type_stmt;
        struct {
            /* 'c' CREATE ROLE / USER / GROUP name options, 'a' ALTER ROLE
             * name options, 'r' ALTER ROLE name RENAME TO new_name, 'd'
             * DROP ROLE [IF EXISTS] names, 'g' GRANT roles TO members
             * [WITH ADMIN OPTION], 'v' REVOKE [ADMIN OPTION FOR] roles
             * FROM members. word: 'r' ROLE, 'u' USER, 'g' GROUP. Names
             * written CURRENT_USER / CURRENT_ROLE / SESSION_USER are kept
             * as "\001current_user" and so on (db_role.c resolves them). */
            char                  action;
            char                  word;
            char                 *name;
            int                   name_position;
            char                 *new_name;
            int                   new_name_position;
            attu_ast_name_list    names;     /* 'd' the roles; 'g' / 'v' the granted roles */
            attu_ast_name_list    members;   /* 'g' / 'v' */
            attu_ast_role_option *options;
            int                   noptions;
            bool                  if_exists;
            bool                  admin_option;   /* 'g' WITH ADMIN OPTION; 'v' ADMIN OPTION FOR */
            bool                  cascade;
        } role;
        struct {
            /* 't' TABLE, 'v' VIEW, 'm' MATERIALIZED VIEW, 'c' COLUMN
             * rel.sub, 'k' CONSTRAINT sub ON rel, 'f' FUNCTION fn */
            char  object;
            char *rel, *sub;
            struct attu_ast_function *fn;
            int   rel_position;
            char *text;       /* NULL: IS NULL */
        } comment;
        struct {
            char                *name;          /* NULL: PostgreSQL chooses one */
            int                  name_position;
            bool                 unique, concurrently, if_not_exists, only;
            char                *table;
            int                  table_position;
            char                *method;        /* USING m (NULL: btree) */
            int                  method_position;
            attu_ast_index_elem *elems;         /* the key columns, n >= 1 */
            int                  nelems;
            attu_ast_name_list   include;       /* INCLUDE (a, b) */
            bool                 nulls_not_distinct;
            attu_ast_option     *options;       /* WITH (name = value, ...) */
            int                  noptions;
            char                *tablespace;    /* TABLESPACE t */
            int                  tablespace_position;
            struct attu_ast_expr *where;        /* WHERE predicate */
            char                *where_text;
            int                  where_position;   /* where_text's first character */
        } create_index;
        struct {
            /* ALTER INDEX [IF EXISTS] name: 'r' RENAME TO new_name, 't' SET
             * TABLESPACE new_name, 's' SET (options), 'x' RESET (options);
             * REINDEX: 'i' INDEX name, 'T' TABLE name (CONCURRENTLY and
             * (options) accepted) */
            char             action;
            char            *name;
            int              name_position;
            bool             if_exists;
            char            *new_name;
            int              new_position;
            attu_ast_option *options;
            int              noptions;
        } alter_index;
        struct {
            char            *name;
            int              name_position;
            bool             binary, scroll, no_scroll, insensitive, asensitive, hold;
            attu_ast_query  *query;
        } cursor;
        struct {
            char              *name;
            int                name_position;
            attu_ast_fetch_dir dir;
            int64_t            count;     /* ATTU_FETCH_ALL for ALL */
            bool               move;      /* MOVE: positions, returns no rows */
        } fetch;
        struct {
            char *name;                   /* NULL for CLOSE ALL */
        } close_cursor;
        struct {
            attu_ast_name_list names;     /* n == 0: ALL (a name may be schema.name) */
            bool               deferred;  /* DEFERRED, else IMMEDIATE */
        } set_constraints;
    } u;
};

/* ---- debugging / tests --------------------------------------------------- */

/* Writes a compact, deterministic S-expression rendering of a statement or
 * expression (e.g. "(select (items (col a)) (from (table t)))") into buf,
 * NUL-terminated, truncated to cap-1. Returns the full length it wanted, as
 * snprintf does. The format is for tests and debugging; see ast_print.c. */
size_t attu_ast_print_stmt(const attu_ast_stmt *s, char *buf, size_t cap);
size_t attu_ast_print_expr(const attu_ast_expr *e, char *buf, size_t cap);

/* Names for messages and the printer: "+", "<>", "AND", "IS DISTINCT FROM". */
const char *attu_ast_binary_op_name(attu_ast_binary_op op);
/* "SELECT", "INSERT", "CREATE TABLE", ... (the CommandComplete verb). */
const char *attu_ast_stmt_kind_name(attu_ast_stmt_kind kind);

/* Whether e is a GROUP BY item of grouping sets: ROLLUP (...), CUBE (...),
 * () or GROUPING SETS (...); *kind gets 'r', 'c', 'e' or 's'
 * (planner/ast_build.c). */
bool attu_ast_group_construct(const attu_ast_expr *e, char *kind);

#endif
