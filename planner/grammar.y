/*
 * grammar.y - attu's SQL grammar, for the lemon parser generator.
 *
 * planner/CMakeLists.txt runs lemon on this file at build time; the output
 * (grammar.c, grammar.h with the TK_* token codes) is compiled into
 * attu_planner. planner/parser.c feeds it tokens from planner/lexer.c, and
 * the actions build the tree of planner/ast.h with planner/ast_build.c.
 *
 * The shape follows PostgreSQL 15's gram.y closely, on purpose: with the
 * same language and an LR parser, a syntax error is found at the same token
 * PostgreSQL finds it, so positions in error messages agree. In particular:
 *   - select_with_parens / select_no_parens / select_clause / simple_select
 *     as in gram.y, so ORDER BY and LIMIT bind to whole set operations;
 *   - a_expr (full expressions), b_expr (no AND/OR/NOT/IS NULL/LIKE/IN/
 *     BETWEEN: the lower bound of BETWEEN) and c_expr (primaries);
 *   - the same operator precedences, comparison operators non-associative
 *     (a = b = c is an error at the second '=');
 *   - keywords in PostgreSQL's "unreserved" and "column name" classes fall
 *     back to identifiers wherever a keyword would not parse (%fallback), so
 *     columns called name, date, year, first, value, ... work unquoted.
 */

%include {
#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "planner/ast_build.h"
#include "planner/unsupported_statement.h"
#include "engine/interval.h"
#include <errno.h>

/* Words PostgreSQL has as unreserved keywords and attu reads as
 * identifiers in one place (IDENTITY, ALWAYS, SYSTEM, VALUE, the sequence
 * options: INCREMENT, MINVALUE, MAXVALUE, CACHE, CYCLE): whether token
 * t is that word, and a syntax error at t unless it is. */
static bool ab_word_is(attu_parse_ctx *ctx, const attu_token *t, const char *word) {
    (void)ctx;
    return !strcmp(ab_tokstr(t), word);
}
/* The parse stops at token t: PostgreSQL's 42601 "syntax error at or near",
 * or, where t is the word naming a statement PostgreSQL has and attu lacks
 * (CREATE SCHEMA stops at SCHEMA), 0A000 naming it
 * (planner/unsupported_statement.c). */
static void ab_syntax_error_at(attu_parse_ctx *ctx, const attu_token *t) {
    char unsupported[160];
    if (attu_unsupported_statement(ctx->sql, ctx->sql_len, ctx->stmt_start, t->off, unsupported, sizeof unsupported))
        ab_error(ctx, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, t->pos, "%s", unsupported);
    else
        ab_error(ctx, ATTU_SQLSTATE_SYNTAX, t->pos, "syntax error at or near \"%.*s\"", (int)t->len, ctx->sql + t->off);
    ctx->failed = true;
}
static void ab_word_expect(attu_parse_ctx *ctx, const attu_token *t, const char *word) {
    if (ctx->failed || ab_word_is(ctx, t, word)) return;
    ab_syntax_error_at(ctx, t);
}
/* A sequence's options as written; OWNED BY (CREATE / ALTER SEQUENCE
 * only): owned_table.owned_column, or owned_none for OWNED BY NONE. */
typedef struct ab_seqopts {
    attu_sequence_options o;
    attu_ast_typename as;
    bool has_owned, owned_none;
    const char *owned_table, *owned_column;
    int owned_pos;
} ab_seqopts;
/* Each option once: PostgreSQL's 42601 "conflicting or redundant options". */
static void ab_seq_once(attu_parse_ctx *ctx, bool *seen, int pos) {
    if (*seen) ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, pos, "conflicting or redundant options");
    *seen = true;
}
/* A signed integer option value (a syntax error past bigint). */
static int64_t ab_seq_value(attu_parse_ctx *ctx, const attu_token *t, bool neg) {
    errno = 0;
    char *end;
    unsigned long long u = strtoull(ab_tokstr(t), &end, 10);
    if (errno || *end || u > (neg ? (unsigned long long)INT64_MAX + 1 : (unsigned long long)INT64_MAX)) {
        ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, t->pos, "syntax error at or near \"%s\"", ab_tokstr(t));
        return 0;
    }
    return neg ? (int64_t)(0 - u) : (int64_t)u;
}

/* FETCH / MOVE: the statement for cursor n (its direction and count). */
static attu_ast_stmt *fetch_node(attu_parse_ctx *ctx, const attu_token *n, attu_ast_fetch_dir dir, int64_t count) {
    attu_ast_stmt *s = ab_stmt(ctx, ATTU_STMT_FETCH, n->pos);
    s->u.fetch.name = (char *)ab_tokstr(n);
    s->u.fetch.name_position = n->pos;
    s->u.fetch.dir = dir;
    s->u.fetch.count = count;
    return s;
}
/* A FETCH count: PostgreSQL's SignedIconst, an int4 (a longer number lexes
 * as a float there, a syntax error). */
static int64_t fetch_int(attu_parse_ctx *ctx, const attu_token *t, bool neg) {
    errno = 0;
    char *end;
    unsigned long long u = strtoull(ab_tokstr(t), &end, 10);
    if (errno || *end || u > (unsigned long long)INT32_MAX) {
        ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, t->pos, "syntax error at or near \"%s\"", ab_tokstr(t));
        return 0;
    }
    return neg ? -(int64_t)u : (int64_t)u;
}

/* A possibly schema-qualified name. */
typedef struct ab_qname {
    const char *schema;
    const char *name;
    int         pos;
} ab_qname;

/* One element of a transaction mode list, SET value list, ... */
typedef struct ab_strlist {
    attu_vec v;          /* char * */
} ab_strlist;

static ab_strlist *strlist_push(attu_parse_ctx *c, ab_strlist *l, const char *s) {
    if (!l) l = ab_alloc(c, sizeof *l);
    ab_vec_push(c, &l->v, &s, sizeof s);
    return l;
}

static attu_vec *vec_new(attu_parse_ctx *c) {
    return ab_alloc(c, sizeof(attu_vec));
}
static attu_vec *vec_push_ptr(attu_parse_ctx *c, attu_vec *v, void *p) {
    if (!v) v = vec_new(c);
    ab_vec_push(c, v, &p, sizeof p);
    return v;
}

static attu_ast_typename tn_make(const char *name, int pos) {
    attu_ast_typename t = { (char *)name, -1, -1, pos, 0 };
    return t;
}

/* schema.type: only pg_catalog holds types (and attu has no other
 * schemas but public, which holds none) */
static attu_ast_typename ab_qualified_typename(attu_parse_ctx *c, const char *schema, const char *name, int pos) {
    if (!strcmp(schema, "public")) {
        /* public holds the enum types only: "public.name", which
         * attu_type_from_name resolves to one of them or 42704 */
        size_t n = strlen(name) + 8;
        char *q = ab_alloc(c, n);
        if (q) snprintf(q, n, "public.%s", name);
        return tn_make(q ? q : name, pos);
    }
    if (strcmp(schema, "pg_catalog"))
        ab_defer_error(c, "3F000", pos, "schema \"%s\" does not exist", schema);
    return tn_make(name, pos);
}

/* The schemas attu has: public, the session's pg_temp (pg_temp_N), and
 * the read-only pg_catalog and information_schema (there is no CREATE
 * SCHEMA). Any other qualification names a schema that does not exist:
 * rel_schema used to read it as the search path's, so DELETE FROM
 * nosuch.t deleted t's rows. */
static bool known_schema(const char *schema) {
    return !schema || !strcmp(schema, "public") || !strcmp(schema, "pg_temp") || !strncmp(schema, "pg_temp_", 8) ||
           !strcmp(schema, "pg_catalog") || !strcmp(schema, "information_schema");
}
/* DDL, TRUNCATE, COPY: PostgreSQL's 3F000 */
static void schema_must_exist(attu_parse_ctx *c, const char *schema, int pos) {
    if (!known_schema(schema)) ab_defer_error(c, "3F000", pos, "schema \"%s\" does not exist", schema);
}
/* INSERT, UPDATE, DELETE (and FROM, planner/binder.c): PostgreSQL's
 * 42P01 at the name, as written */
static void relation_schema_must_exist(attu_parse_ctx *c, const ab_qname *n) {
    if (!known_schema(n->schema))
        ab_defer_error(c, ATTU_SQLSTATE_UNDEFINED_TABLE, n->pos, "relation \"%s.%s\" does not exist", n->schema, n->name);
}

/* pg_temp.x: the session's temporary schema (db/db_temp.c), whose
 * relations a lookup finds first anyway; the name stays unqualified */
static bool ab_temp_schema(attu_parse_ctx *c, ab_qname *n) {
    (void)c;
    if (n->schema && (!strcmp(n->schema, "pg_temp") || !strncmp(n->schema, "pg_temp_", 8))) {
        n->schema = NULL;
        return true;
    }
    return false;
}
/* CREATE TEMP TABLE / VIEW schema.x: only pg_temp holds temporary
 * relations (PostgreSQL's 42P16 at the name) */
static bool ab_temp_head(attu_parse_ctx *c, bool temp, ab_qname *n) {
    if (ab_temp_schema(c, n)) return true;
    if (temp && n->schema && strcmp(n->schema, "pg_catalog") && strcmp(n->schema, "information_schema"))
        ab_defer_error(c, "42P16", n->pos, "cannot create temporary relation in non-temporary schema");
    return temp;
}

/* CREATE TABLE pg_catalog.x: PostgreSQL's refusal (attu's tables are public's) */
static void create_in_schema(attu_parse_ctx *c, const ab_qname *n) {
    if (n->schema && (!strcmp(n->schema, "pg_catalog") || !strcmp(n->schema, "information_schema")))
        ab_defer_error(c, "42501", n->pos, "permission denied to create \"%s.%s\"", n->schema, n->name);
    schema_must_exist(c, n->schema, n->pos);
}

/* SELECT ... INTO schema.t: tables live in public only */
static void into_schema(attu_parse_ctx *c, const ab_qname *n) {
    create_in_schema(c, n);
    if (n->schema && strcmp(n->schema, "public") && strcmp(n->schema, "pg_catalog") &&
        strcmp(n->schema, "information_schema"))
        ab_defer_error(c, "3F000", 0, "schema \"%s\" does not exist", n->schema);
}

/* schema.name in DROP TABLE: the name itself in public */
static const char *drop_name(attu_parse_ctx *c, const attu_token *schema, const attu_token *name) {
    const char *sc = ab_tokstr(schema), *nm = ab_tokstr(name);
    if (!strcmp(sc, "pg_catalog") || !strcmp(sc, "information_schema"))
        ab_defer_error(c, "42501", 0, "permission denied: \"%s\" is a system catalog", nm);
    else if (strcmp(sc, "public") && strcmp(sc, "pg_temp"))   /* (pg_temp: db/db_temp.c) */
        ab_defer_error(c, "3F000", schema->pos, "schema \"%s\" does not exist", sc);
    return nm;
}

/* How a relation was named (ATTU_REL_*, planner/ast.h): public.t is the
 * permanent relation, pg_temp.t (pg_temp_N.t) the session's temporary
 * one, t the search path's (db/db_temp.c); another schema is an error
 * (the first deferred error wins: INSERT / UPDATE / DELETE have deferred
 * 42P01 by then) */
static char rel_schema(attu_parse_ctx *c, const char *schema) {
    schema_must_exist(c, schema, 0);
    if (!schema) return ATTU_REL_PATH;
    if (!strcmp(schema, "pg_temp") || !strncmp(schema, "pg_temp_", 8)) return ATTU_REL_TEMP;
    return !strcmp(schema, "public") ? ATTU_REL_PUBLIC : ATTU_REL_PATH;
}

/* x COLLATE [schema.]name: a call of " collate" on x, which the binder
 * checks takes a collation (planner/functions.c); the rule's comment says
 * which names there are */
static attu_ast_expr *ab_collate(attu_parse_ctx *c, attu_ast_expr *e, const char *schema, const char *name,
                                 int pos, int name_pos) {
    (void)name_pos;   /* PostgreSQL's errors stand at COLLATE */
    if (schema && strcmp(schema, "pg_catalog"))
        ab_defer_error(c, "3F000", pos, "schema \"%s\" does not exist", schema);
    else if (strcmp(name, "default") && strcmp(name, "C") && strcmp(name, "POSIX"))
        ab_defer_error(c, "42704", pos, "collation \"%s\" for encoding \"UTF8\" does not exist", name);
    return ab_func1(c, " collate", e, pos);
}

/* t[] / t[n] / t ARRAY: the element's name with "[]" appended, which
 * attu_type_from_name resolves to the array type (the bound is ignored,
 * as PostgreSQL ignores it) */
static attu_ast_typename array_tn(attu_parse_ctx *c, attu_ast_typename t) {
    char buf[96];
    int n = snprintf(buf, sizeof buf, "%s[]", t.name ? t.name : "");
    t.name = ab_strndup(c, buf, (size_t)(n < (int)sizeof buf ? n : (int)sizeof buf - 1));
    return t;
}

/* INTERVAL(p) / SECOND(p): PostgreSQL reduces a precision over 6 to 6 */
static int iv_prec(int p) { return p > 6 ? 6 : p; }

static int iv_bit(const char *w) {
    return strcmp(w, "year") == 0 ? ATTU_IVF_YEAR : strcmp(w, "month") == 0 ? ATTU_IVF_MONTH
         : strcmp(w, "day") == 0 ? ATTU_IVF_DAY : strcmp(w, "hour") == 0 ? ATTU_IVF_HOUR
         : strcmp(w, "minute") == 0 ? ATTU_IVF_MINUTE : ATTU_IVF_SECOND;
}

/* SET TIME ZONE INTERVAL 'text' [fields] as the SET value db_settings.c
 * reads: ATTU_SET_TZ_INTERVAL, the fields' ATTU_IVF_* bits, ':', the text */
static const char *tz_interval(attu_parse_ctx *ctx, const attu_token *t, int range) {
    size_t n = (size_t)t->slen + 16;
    char *s = ab_alloc(ctx, n);
    if (s) snprintf(s, n, "%c%d:%.*s", ATTU_SET_TZ_INTERVAL, range, (int)t->slen, t->str);
    return s;
}

/* A field qualifier: from F to G (G NULL: F alone), with prec fractional
 * digits (-1 none, -2 a precision on a field other than SECOND). Ranges
 * PostgreSQL's grammar does not have are syntax errors, as there. */
static attu_ast_typename iv_qual(attu_parse_ctx *ctx, const attu_token *f, const attu_token *g, int prec) {
    attu_ast_typename t = tn_make("interval", f->pos);
    int a = iv_bit(f->str), b = g ? iv_bit(g->str) : a;
    bool ok = prec != -2 && (!g || (a == ATTU_IVF_YEAR && b == ATTU_IVF_MONTH) ||
              (a == ATTU_IVF_DAY && b > ATTU_IVF_DAY) || (a == ATTU_IVF_HOUR && b > ATTU_IVF_HOUR) ||
              (a == ATTU_IVF_MINUTE && b == ATTU_IVF_SECOND));
    if (!ok && !ctx->failed) ab_syntax_error_at(ctx, g ? g : f);
    t.ivrange = (b << 1) - a;   /* the bits from a to b */
    t.precision = prec < 0 ? -1 : prec;
    return t;
}

static attu_ast_option opt_make(attu_parse_ctx *c, const char *name, int pos,
                                const char *value, int vpos) {
    attu_ast_option o;
    o.name = (char *)name;
    o.position = pos;
    o.value = (char *)value;
    o.value_position = value ? vpos : 0;
    memset(&o.list, 0, sizeof o.list);
    (void)c;
    return o;
}

/* A value with its position, for option arguments and SET values. */
typedef struct ab_val {
    const char *text;
    int         pos;
} ab_val;

static ab_val val_make(const char *text, int pos) {
    ab_val v = { text, pos };
    return v;
}

/* Reads type modifiers (a list of expressions) into precision / scale;
 * PostgreSQL's typmod rules: integer constants only (a bare word or other
 * constant is "invalid input syntax for type integer"), checked after
 * parsing. More than two are kept as an error for the type to report. */
static void ab_type_mods(attu_parse_ctx *c, attu_ast_typename *t, attu_vec *l,
                         int pos) {
    attu_ast_expr **items = l->items;
    for (int i = 0; i < l->n; i++) {
        attu_ast_expr *e = items[i];
        const char *bad = NULL;
        if (e->kind == ATTU_EXPR_LITERAL && e->u.literal.kind == ATTU_LIT_INTEGER) {
            long v = strtol(e->u.literal.text, NULL, 10);
            if (v > 1000000 || v < -1000000) v = 1000000;
            if (i == 0) t->precision = (int)v;
            else if (i == 1 && v < 0)
                /* PostgreSQL 15's numeric(p, s) with s < 0 rounds left of
                 * the point (numeric(5,-1) keeps 12345 as 12350); attu's
                 * scale of -1 means none written, so a negative scale was
                 * read as 0 and answered 12345: refused instead */
                ab_defer_error(c, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos,
                               "a negative scale in a type modifier is not supported");
            else if (i == 1) t->scale = (int)v;
            continue;
        }
        if (e->kind == ATTU_EXPR_LITERAL && e->u.literal.kind != ATTU_LIT_NULL &&
            e->u.literal.kind != ATTU_LIT_BOOL)
            bad = e->u.literal.text;
        else if (e->kind == ATTU_EXPR_COLUMN && !e->u.column.qualifier)
            bad = e->u.column.name;
        if (bad)
            ab_defer_error(c, ATTU_SQLSTATE_INVALID_TEXT_REP, pos,
                           "invalid input syntax for type integer: \"%s\"", bad);
        else
            ab_defer_error(c, ATTU_SQLSTATE_SYNTAX, e->position,
                           "type modifiers must be simple constants or identifiers");
    }
    if (l->n > 2)
        ab_defer_error(c, ATTU_SQLSTATE_INVALID_PARAMETER, pos,
                       "invalid type modifier");
}

static attu_ast_typename numeric_type(attu_parse_ctx *c, const attu_ast_typename *m,
                                      int pos) {
    attu_ast_typename t = *m;
    t.name = "numeric";
    t.position = pos;
    (void)c;
    return t;
}

/* PostgreSQL's boolean option parsing (defGetBoolean): true/false/on/off,
 * 1/0 and unambiguous prefixes of true/false/yes/no. -1 if not boolean. */
static int option_bool(const char *v) {
    if (!v) return 1;
    static const char *yes[] = { "true", "on", "1", "yes", "t", "y" };
    static const char *no[] = { "false", "off", "0", "no", "f", "n" };
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        if (strcmp(v, yes[i]) == 0) return 1;
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (strcmp(v, no[i]) == 0) return 0;
    return -1;
}

/* EXPLAIN (...) options as PostgreSQL's ExplainQuery checks them, after
 * parsing: known names, boolean values, FORMAT's values. */
static void explain_options(attu_parse_ctx *c, attu_ast_stmt *s, attu_vec *l) {
    static const char *bools[] = { "analyze", "verbose", "costs", "settings",
                                   "buffers", "wal", "timing", "summary" };
    for (int i = 0; i < l->n; i++) {
        attu_ast_option *o = &((attu_ast_option *)l->items)[i];
        const char *name = strcmp(o->name, "analyse") == 0 ? "analyze" : o->name;
        if (strcmp(name, "format") == 0) {
            if (!o->value) {
                ab_defer_error(c, ATTU_SQLSTATE_SYNTAX, 0, "format requires a parameter");
            } else if (strcmp(o->value, "text") != 0 && strcmp(o->value, "json") != 0 &&
                       strcmp(o->value, "xml") != 0 && strcmp(o->value, "yaml") != 0) {
                ab_defer_error(c, ATTU_SQLSTATE_INVALID_PARAMETER, o->value_position,
                               "unrecognized value for EXPLAIN option \"format\": \"%s\"",
                               o->value);
            }
            continue;
        }
        size_t k;
        for (k = 0; k < sizeof bools / sizeof bools[0]; k++)
            if (strcmp(name, bools[k]) == 0) break;
        if (k == sizeof bools / sizeof bools[0]) {
            ab_defer_error(c, ATTU_SQLSTATE_SYNTAX, o->position,
                           "unrecognized EXPLAIN option \"%s\"", o->name);
            continue;
        }
        int on = option_bool(o->value);
        if (on < 0) {
            ab_defer_error(c, ATTU_SQLSTATE_SYNTAX, 0, "%s requires a Boolean value", o->name);
            continue;
        }
        if (strcmp(name, "analyze") == 0) s->u.explain.analyze = on;
        else if (strcmp(name, "verbose") == 0) s->u.explain.verbose = on;
    }
}

/* "-" + numeric text. */
static const char *neg_text(attu_parse_ctx *c, const attu_token *t) {
    char *s = ab_alloc(c, t->slen + 2);
    if (!s) return "";
    s[0] = '-';
    memcpy(s + 1, t->str, t->slen);
    s[t->slen + 1] = '\0';
    return s;
}
}

%name attu_grammar
/* The parser stack grows as needed (lemon's YYSTACKDEPTH 0), up to the
 * cap set by grammar_realloc at the end of this file. */
%stack_size 0
%token_prefix TK_
%token_type {attu_token}
%default_type {attu_token}
%extra_argument {attu_parse_ctx *ctx}
%start_symbol input

%syntax_error {
    (void)yymajor;
    if (!ctx->failed) {
        if (TOKEN.type == 0) ab_error(ctx, ATTU_SQLSTATE_SYNTAX, TOKEN.pos, "syntax error at end of input");
        else ab_syntax_error_at(ctx, &TOKEN);
    }
    ctx->failed = true;
}

%stack_overflow {
    ab_error(ctx, "54001", 0, "stack depth limit exceeded");
    ctx->failed = true;
}

%parse_failure {
    if (!ctx->failed) ab_error(ctx, ATTU_SQLSTATE_SYNTAX, 0, "syntax error");
    ctx->failed = true;
}

/* Terminal order: end of input is 0; the rest get codes in this order. */
%token SEMI COMMA LP RP DOT STAR PLUS MINUS SLASH PERCENT CARET
       LT GT EQ LE GE NE CONCAT TYPECAST COLON OP LBRACKET RBRACKET DOT_DOT
       COLON_EQUALS EQUALS_GREATER ID ICONST FCONST SCONST PARAM NOT_LA WITH_LA NULLS_LA IVFIELD
       NOBARE_ID RESERVED_BARE RESERVED_NOBARE TYPEFUNC_BARE TYPEFUNC_NOBARE
       COLNAME_OTHER ILLEGAL GROUPING_SETS.

/* Reserved keywords (never identifiers unless quoted). */
%token ALL ANALYZE AND ANY ARRAY AS ASC ASYMMETRIC BOTH CASE CAST CHECK
       CREATE CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP DEFAULT DEFERRABLE
       DESC DISTINCT ELSE END EXCEPT FALSE FETCH FOR FROM GROUP HAVING IN
       INTERSECT INTO LATERAL LEADING LIMIT LOCALTIME LOCALTIMESTAMP NOT NULL
       OFFSET ON ONLY OR ORDER PLACING PRIMARY RETURNING SELECT SOME SYMMETRIC TABLE
       CONSTRAINT DO INITIALLY
       THEN TO TRAILING TRUE UNION UNIQUE USER USING WHEN WHERE WINDOW WITH
       COLUMN COLLATE.

/* Type and function name keywords (function names, not column names). */
%token BINARY CROSS FREEZE FULL ILIKE INNER IS ISNULL JOIN LEFT LIKE NATURAL
       NOTNULL OUTER RIGHT SIMILAR VERBOSE.

/* Column name keywords and unreserved keywords. */
%token BETWEEN BIGINT BOOLEAN CHAR CHARACTER COALESCE DEC DECIMAL EXISTS
       EXTRACT FLOAT GREATEST INT INTEGER INTERVAL LEAST NULLIF NUMERIC OVERLAY
       POSITION PRECISION REAL ROW SMALLINT SUBSTRING TIME TIMESTAMP TRIM
       VALUES VARCHAR
       ABORT BEGIN BY CASCADE CHAIN CHARACTERISTICS COMMIT COMMITTED COPY CSV
       CURRENT DATA DELIMITER DESCRIBE DOUBLE DROP ENCODING ESCAPE EXPLAIN
       FILTER FIRST FOLLOWING HEADER IF INSERT ISOLATION LAST LEVEL
       LOCAL NAMES NEXT NO NULLS OVER PARTITION PRECEDING QUOTE RANGE READ
       RECURSIVE REPEATABLE RESET RESTRICT ROLLBACK ROWS SERIALIZABLE SESSION
       SET SHOW START STDIN STDOUT TEMP TEMPORARY TRANSACTION UNBOUNDED
       GROUPS EXCLUDE TIES OTHERS
       DEALLOCATE DISCARD PREPARE PLANS SEQUENCES EXECUTE
       LISTEN UNLISTEN NOTIFY
       UNCOMMITTED UNKNOWN VARYING WITHOUT WORK WRITE ZONE AT
       DELETE UPDATE TRUNCATE MATERIALIZED REFRESH COMMENT MERGE
       WITHIN ORDINALITY
       VIEW REPLACE
       SEQUENCE GENERATED OVERRIDING RESTART CONTINUE
       ALTER ADD RENAME TYPE DOMAIN
       SAVEPOINT RELEASE
       INDEX REINDEX.

/* The cursor statements' words (db/db_cursor.c): PostgreSQL's unreserved
 * keywords, lexed as identifiers and made these tokens by parser.c only
 * where a DECLARE, FETCH, MOVE or CLOSE statement has them, as INDEX is. */
%token DECLARE CURSOR INSENSITIVE ASENSITIVE SCROLL HOLD MOVE CLOSE
       PRIOR ABSOLUTE RELATIVE FORWARD BACKWARD.
/* OF, KEY, SHARE, PostgreSQL's unreserved keywords: made tokens by
 * parser.c only in WHERE CURRENT OF and a locking clause (FOR UPDATE /
 * NO KEY UPDATE / SHARE / KEY SHARE [OF ...], outside parentheses). */
%token OF KEY SHARE.
/* RETURN: a token only in CREATE FUNCTION, outside parentheses (parser.c):
 * the SQL-standard body RETURN expr */
%token RETURN.
/* FUNCTION: a token only right after CREATE [OR REPLACE], DROP, ALTER or COMMENT ON
 * (parser.c), so that CREATE t (...) stays a syntax error at t */
%token FUNCTION.
/* SETOF: a token only right after CREATE FUNCTION's RETURNS (parser.c) */
%token SETOF.
/* BEGIN ATOMIC ... END: ATOMIC a token only after BEGIN in CREATE FUNCTION;
 * ATOMIC_BODY the body's text, one token (parser.c) */
%token ATOMIC ATOMIC_BODY.
/* CONSTRAINTS: a token only as SET's second word (parser.c) */
%token CONSTRAINTS.
/* LOCK: a token only as a statement's first word (parser.c) */
%token LOCK.
/* VACUUM, CHECKPOINT: likewise (parser.c) */
%token VACUUM CHECKPOINT.
/* SEARCH, CYCLE (after a WITH query's body), DEPTH, BREADTH (after
 * SEARCH): tokens only there (parser.c) */
%token SEARCH CYCLE DEPTH BREADTH.
/* FORCE: a token only among a COPY statement's options, outside
 * parentheses (parser.c): the old spelling's FORCE QUOTE / FORCE NOT
 * NULL / FORCE NULL */
%token FORCE.
/* VARIADIC: f(..., VARIADIC array), a reserved word PostgreSQL also takes
 * as a bare label */
%token VARIADIC.
/* The role statements' words (db/db_role.c): GRANT (a reserved keyword
 * attu lexes as one it takes nowhere) and REVOKE where a statement
 * starts; ROLE, ADMIN, PASSWORD, VALID, CONNECTION, ENCRYPTED and
 * UNENCRYPTED inside CREATE / ALTER / DROP ROLE / USER / GROUP only
 * (parser.c), so every other statement parses as before */
%token GRANT REVOKE ROLE ADMIN PASSWORD VALID CONNECTION ENCRYPTED UNENCRYPTED.

/* Precedence, lowest first (PostgreSQL's gram.y). */
%left UNION EXCEPT.
%left INTERSECT.
%left OR.
%left AND.
%right NOT.
%nonassoc IS ISNULL NOTNULL.
%nonassoc LT GT EQ LE GE NE.
%nonassoc BETWEEN IN LIKE ILIKE SIMILAR NOT_LA.
%nonassoc ESCAPE.
%nonassoc UNBOUNDED.
%nonassoc ID PARTITION RANGE ROWS GROUPS PRECEDING FOLLOWING.
%left CONCAT OP.
%left PLUS MINUS.
%left STAR SLASH PERCENT.
%left CARET.
%left AT.
%left COLLATE.
%right UMINUS.
%left LBRACKET RBRACKET.
%left LP RP.
%left TYPECAST.
%left DOT.
%left JOIN CROSS LEFT FULL RIGHT INNER NATURAL.

/* ======================================================================== */
/* Statement lists                                                          */

input ::= stmtmulti.
stmtmulti ::= stmtmulti SEMI toplevel.
stmtmulti ::= toplevel.
toplevel ::= stmt(S).                  { ab_add_stmt(ctx, S); }
toplevel ::= .

%type stmt {attu_ast_stmt *}
stmt(A) ::= select_stmt(Q).
{
    const ab_into *in = ab_into_take(ctx, Q);
    if (in) {   /* SELECT ... INTO t is CREATE TABLE t AS SELECT ... */
        A = ab_stmt(ctx, ATTU_STMT_CREATE_TABLE_AS, Q->position);
        A->u.create_table_as.table = (char *)in->name;
        A->u.create_table_as.query = Q;
        A->u.create_table_as.temp = in->temp;
    } else {
        A = ab_stmt(ctx, ATTU_STMT_SELECT, Q->position);
        A->u.select.query = Q;
    }
}
stmt(A) ::= insert_stmt(S).            { A = S; }
stmt(A) ::= delete_stmt(S).            { A = S; }
stmt(A) ::= update_stmt(S).            { A = S; }
stmt(A) ::= merge_stmt(S).             { A = S; }
stmt(A) ::= truncate_stmt(S).          { A = S; }
stmt(A) ::= lock_stmt(S).              { A = S; }
stmt(A) ::= create_stmt(S).            { A = S; }
stmt(A) ::= create_as_stmt(S).         { A = S; }
stmt(A) ::= drop_stmt(S).              { A = S; }
stmt(A) ::= create_view_stmt(S).       { A = S; }
stmt(A) ::= refresh_stmt(S).           { A = S; }
stmt(A) ::= create_seq_stmt(S).        { A = S; }
stmt(A) ::= alter_stmt(S).             { A = S; }
stmt(A) ::= alter_seq_stmt(S).         { A = S; }
stmt(A) ::= copy_stmt(S).              { A = S; }
stmt(A) ::= explain_stmt(S).           { A = S; }
stmt(A) ::= set_stmt(S).               { A = S; }
stmt(A) ::= show_stmt(S).              { A = S; }
stmt(A) ::= reset_stmt(S).             { A = S; }
stmt(A) ::= describe_stmt(S).          { A = S; }
stmt(A) ::= deallocate_stmt(S).        { A = S; }
stmt(A) ::= discard_stmt(S).           { A = S; }
stmt(A) ::= listen_stmt(S).            { A = S; }
stmt(A) ::= prepare_stmt(S).           { A = S; }
stmt(A) ::= execute_stmt(S).           { A = S; }
stmt(A) ::= txn_stmt(S).               { A = S; }
stmt(A) ::= comment_stmt(S).           { A = S; }
stmt(A) ::= create_index_stmt(S).      { A = S; }
stmt(A) ::= drop_index_stmt(S).        { A = S; }
stmt(A) ::= alter_index_stmt(S).       { A = S; }
stmt(A) ::= reindex_stmt(S).           { A = S; }
stmt(A) ::= declare_stmt(S).           { A = S; }
stmt(A) ::= fetch_stmt(S).             { A = S; }
stmt(A) ::= close_stmt(S).             { A = S; }
/* VACUUM and ANALYZE [options] [tables] (db/db_maintenance.c): attu
 * keeps no dead rows for VACUUM to reclaim and measures what its planner
 * needs as it goes, so both check their tables and do nothing else; a
 * script that runs them after a load runs here unchanged. */
stmt(A) ::= ANALYZE(K) opt_verbose opt_maint_names(N).
    { A = ab_maint(ctx, K.pos, false, N); }
stmt(A) ::= ANALYZE(K) LP maint_opt_list RP opt_maint_names(N).
    { A = ab_maint(ctx, K.pos, false, N); }
stmt(A) ::= VACUUM(K) vacuum_words opt_maint_names(N).
    { A = ab_maint(ctx, K.pos, true, N); }
stmt(A) ::= VACUUM(K) LP maint_opt_list RP opt_maint_names(N).
    { A = ab_maint(ctx, K.pos, true, N); }
/* CHECKPOINT: a commit is on disk when it returns (engine/storage.c),
 * so there is nothing to flush */
stmt(A) ::= CHECKPOINT(K).
    { A = ab_maint(ctx, K.pos, false, NULL); A->u.maintenance.checkpoint = true; }
%include {
static attu_ast_stmt *ab_maint(attu_parse_ctx *c, int pos, bool vacuum, attu_names *names) {
    attu_ast_stmt *st = ab_stmt(c, ATTU_STMT_MAINTENANCE, pos);
    st->u.maintenance.vacuum = vacuum;
    st->u.maintenance.tables = ab_names(names);
    return st;
}
/* PostgreSQL 15's VACUUM / ANALYZE option names (42601 for another) */
static void ab_maint_option(attu_parse_ctx *c, const attu_token *t) {
    static const char *const known[] = { "analyze", "freeze", "full", "verbose", "skip_locked", "disable_page_skipping",
                                         "index_cleanup", "process_toast", "truncate", "parallel" };
    const char *w = ab_tokstr(t);
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) if (!strcmp(w, known[i])) return;
    ab_defer_error(c, ATTU_SQLSTATE_SYNTAX, t->pos, "unrecognized VACUUM option \"%s\"", w);
}
}
%type opt_maint_names {attu_names *}
opt_maint_names(A) ::= truncate_list(L).    { A = L; }
opt_maint_names(A) ::= .                    { A = NULL; }
vacuum_words ::= .
vacuum_words ::= vacuum_words vacuum_word.
vacuum_word ::= FULL.
vacuum_word ::= FREEZE.
vacuum_word ::= VERBOSE.
vacuum_word ::= ANALYZE.
maint_opt_list ::= maint_opt.
maint_opt_list ::= maint_opt_list COMMA maint_opt.
maint_opt ::= maint_opt_name(N) opt_maint_value.   { ab_maint_option(ctx, &N); }
%type maint_opt_name {attu_token}
maint_opt_name(A) ::= ID(T).        { A = T; }
maint_opt_name(A) ::= FULL(T).      { A = T; }
maint_opt_name(A) ::= FREEZE(T).    { A = T; }
maint_opt_name(A) ::= VERBOSE(T).   { A = T; }
maint_opt_name(A) ::= ANALYZE(T).   { A = T; }
maint_opt_name(A) ::= TRUNCATE(T).  { A = T; }
opt_maint_value ::= .
opt_maint_value ::= ID.
opt_maint_value ::= ICONST.
opt_maint_value ::= SCONST.
opt_maint_value ::= TRUE.
opt_maint_value ::= FALSE.
opt_maint_value ::= ON.

/* ======================================================================== */
/* SELECT                                                                   */

%type select_stmt {attu_ast_query *}
%type select_with_parens {attu_ast_query *}
%type select_no_parens {attu_ast_query *}
%type select_clause {attu_ast_query *}
%type simple_select {attu_ast_query *}
%type values_clause {attu_ast_query *}

select_stmt(A) ::= select_no_parens(Q).        [UMINUS] { A = Q; }
select_stmt(A) ::= select_with_parens(Q).      [UMINUS] { A = Q; }

select_with_parens(A) ::= LP(K) select_no_parens(Q) RP.    { A = Q; A->paren_position = K.pos; }
select_with_parens(A) ::= LP(K) select_with_parens(Q) RP.  { A = Q; A->paren_position = K.pos; }

select_no_parens(A) ::= simple_select(Q).               { A = Q; }
select_no_parens(A) ::= select_clause(Q) sort_clause(O).
    { A = ab_select_options(ctx, Q, O, NULL, NULL, false, 0); }
select_no_parens(A) ::= select_clause(Q) opt_sort_clause(O) select_limit(L).
    { A = ab_select_options(ctx, Q, O, &L, NULL, false, 0); }
select_no_parens(A) ::= with_clause(W) select_clause(Q).
    { A = ab_select_options(ctx, Q, NULL, NULL, W.ctes, W.recursive, W.pos); }
select_no_parens(A) ::= with_clause(W) select_clause(Q) sort_clause(O).
    { A = ab_select_options(ctx, Q, O, NULL, W.ctes, W.recursive, W.pos); }
select_no_parens(A) ::= with_clause(W) select_clause(Q) opt_sort_clause(O) select_limit(L).
    { A = ab_select_options(ctx, Q, O, &L, W.ctes, W.recursive, W.pos); }
/* the locking clauses (FOR UPDATE ...) after ORDER BY, before or after
 * LIMIT, as PostgreSQL's select_no_parens */
select_no_parens(A) ::= select_clause(Q) opt_sort_clause(O) locking_clauses(K).
    { A = ab_select_options(ctx, Q, O, NULL, NULL, false, 0); ab_locking(ctx, A, &K); }
select_no_parens(A) ::= select_clause(Q) opt_sort_clause(O) locking_clauses(K) select_limit(L).
    { A = ab_select_options(ctx, Q, O, &L, NULL, false, 0); ab_locking(ctx, A, &K); }
select_no_parens(A) ::= select_clause(Q) opt_sort_clause(O) select_limit(L) locking_clauses(K).
    { A = ab_select_options(ctx, Q, O, &L, NULL, false, 0); ab_locking(ctx, A, &K); }
select_no_parens(A) ::= with_clause(W) select_clause(Q) opt_sort_clause(O) locking_clauses(K).
    { A = ab_select_options(ctx, Q, O, NULL, W.ctes, W.recursive, W.pos); ab_locking(ctx, A, &K); }
select_no_parens(A) ::= with_clause(W) select_clause(Q) opt_sort_clause(O) locking_clauses(K) select_limit(L).
    { A = ab_select_options(ctx, Q, O, &L, W.ctes, W.recursive, W.pos); ab_locking(ctx, A, &K); }
select_no_parens(A) ::= with_clause(W) select_clause(Q) opt_sort_clause(O) select_limit(L) locking_clauses(K).
    { A = ab_select_options(ctx, Q, O, &L, W.ctes, W.recursive, W.pos); ab_locking(ctx, A, &K); }

%include {
typedef struct ab_lockspec { char strength; bool all; attu_names *of; int pos; } ab_lockspec;
/* The strength order, weakest first: KEY SHARE, SHARE, NO KEY UPDATE, UPDATE. */
static int ab_lock_rank(char s) { return s == 'k' ? 1 : s == 's' ? 2 : s == 'n' ? 3 : s == 'u' ? 4 : 0; }
static void ab_locking(attu_parse_ctx *ctx, attu_ast_query *q, const ab_lockspec *k) {
    (void)ctx;
    if (!q) return;
    q->lock_strength = k->strength;
    q->lock_all = k->all;
    if (k->of) q->lock_of = ab_names(k->of);
    q->lock_position = k->pos;
}
}
%type locking_clauses {ab_lockspec}
locking_clauses(A) ::= locking_clause(C).   { A = C; }
locking_clauses(A) ::= locking_clauses(L) locking_clause(C).
{
    A = L;
    if (ab_lock_rank(C.strength) > ab_lock_rank(A.strength)) A.strength = C.strength;
    A.all |= C.all;
    if (C.of)
        for (int i = 0; i < C.of->names.n; i++)
            A.of = ab_names_push(ctx, A.of, ((char **)C.of->names.items)[i], ((int *)C.of->positions.items)[i]);
}
%type locking_clause {ab_lockspec}
locking_clause(A) ::= FOR(K) lock_strength(S) lock_of(O) lock_wait.
    { A.strength = S; A.of = O; A.all = O == NULL; A.pos = K.pos; }
%type lock_strength {char}
lock_strength(A) ::= UPDATE.                { A = 'u'; }
lock_strength(A) ::= NO KEY UPDATE.         { A = 'n'; }
lock_strength(A) ::= SHARE.                 { A = 's'; }
lock_strength(A) ::= KEY SHARE.             { A = 'k'; }
%type lock_of {attu_names *}
lock_of(A) ::= .                            { A = NULL; }
lock_of(A) ::= OF lock_names(L).            { A = L; }
/* the tables of OF, [schema.]name, each with its position (42P01's) */
%type lock_names {attu_names *}
lock_names(A) ::= lock_name(N).                       { A = ab_names_push(ctx, NULL, N.name, N.pos); }
lock_names(A) ::= lock_names(L) COMMA lock_name(N).   { A = ab_names_push(ctx, L, N.name, N.pos); }
%include {
typedef struct ab_lockname { const char *name; int pos; } ab_lockname;
}
%type lock_name {ab_lockname}
lock_name(A) ::= colid(N).                  { A.name = ab_tokstr(&N); A.pos = N.pos; }
lock_name(A) ::= colid(S) DOT colid(N).
{
    const char *a = ab_tokstr(&S), *b = ab_tokstr(&N);
    size_t la = strlen(a), lb = strlen(b);
    char *q = ab_alloc(ctx, la + lb + 2);
    if (q) { memcpy(q, a, la); q[la] = '.'; memcpy(q + la + 1, b, lb + 1); }
    A.name = q ? q : b;
    A.pos = S.pos;
}
lock_wait ::= .
lock_wait ::= ID(W).                        { ab_word_expect(ctx, &W, "nowait"); }
lock_wait ::= ID(W) ID(L).
{
    /* (NOWAIT ends the clause: what follows it is the error) */
    if (ab_word_is(ctx, &W, "nowait")) ab_word_expect(ctx, &L, "\001");
    ab_word_expect(ctx, &W, "skip");
    ab_word_expect(ctx, &L, "locked");
}

select_clause(A) ::= simple_select(Q).                  { A = Q; }
select_clause(A) ::= select_with_parens(Q).             { A = Q; }

simple_select(A) ::= SELECT(K) opt_all_clause opt_target_list(T) into_clause(I) from_clause(F)
                     where_clause(W) group_clause(G) having_clause(H) window_clause(WC).
{
    A = ab_query(ctx, ATTU_QUERY_SELECT, K.pos);
    if (I.name) ab_into_note(ctx, A, I.name, I.pos);
    if (T) { A->u.select.items = T->items; A->u.select.nitems = T->n; }
    if (F) { A->u.select.from.items = F->items; A->u.select.from.n = F->n; }
    A->u.select.where = W;
    ab_group_clause(ctx, A, G.list, G.distinct);
    A->u.select.having = H;
    if (WC) ab_windows_define(ctx, A, WC);
    ab_windows_resolve(ctx, A, K.pos);
    ab_query_finish(ctx, A);
}
simple_select(A) ::= SELECT(K) distinct_clause(D) target_list(T) into_clause(I) from_clause(F)
                     where_clause(W) group_clause(G) having_clause(H) window_clause(WC).
{
    A = ab_query(ctx, ATTU_QUERY_SELECT, K.pos);
    if (I.name) ab_into_note(ctx, A, I.name, I.pos);
    A->u.select.distinct = true;
    A->u.select.distinct_on = ab_expr_list(D);
    A->u.select.items = T->items; A->u.select.nitems = T->n;
    if (F) { A->u.select.from.items = F->items; A->u.select.from.n = F->n; }
    A->u.select.where = W;
    ab_group_clause(ctx, A, G.list, G.distinct);
    A->u.select.having = H;
    if (WC) ab_windows_define(ctx, A, WC);
    ab_windows_resolve(ctx, A, K.pos);
    ab_query_finish(ctx, A);
}
simple_select(A) ::= values_clause(V).                  { A = V; }
/* TABLE t is SELECT * FROM t. */
simple_select(A) ::= TABLE(K) qualified_name(N).
{
    A = ab_query(ctx, ATTU_QUERY_SELECT, K.pos);
    attu_ast_select_item it = { ab_star(ctx, NULL, K.pos), NULL, 0 };
    attu_vec items = {0};
    ab_vec_push(ctx, &items, &it, sizeof it);
    A->u.select.items = items.items;
    A->u.select.nitems = items.n;
    attu_ast_from *f = ab_alloc(ctx, sizeof *f);
    f->kind = ATTU_FROM_TABLE;
    f->position = N.pos;
    f->u.table.schema = (char *)N.schema;
    f->u.table.name = (char *)N.name;
    ab_from_finish(ctx, f);
    attu_vec from = {0};
    ab_vec_push(ctx, &from, &f, sizeof f);
    A->u.select.from.items = from.items;
    A->u.select.from.n = from.n;
    ab_query_finish(ctx, A);
}
simple_select(A) ::= select_clause(L) UNION(K) set_quantifier(Q) select_clause(R).
    { A = ab_setop(ctx, ATTU_SETOP_UNION, Q, L, R, K.pos); }
simple_select(A) ::= select_clause(L) INTERSECT(K) set_quantifier(Q) select_clause(R).
    { A = ab_setop(ctx, ATTU_SETOP_INTERSECT, Q, L, R, K.pos); }
simple_select(A) ::= select_clause(L) EXCEPT(K) set_quantifier(Q) select_clause(R).
    { A = ab_setop(ctx, ATTU_SETOP_EXCEPT, Q, L, R, K.pos); }

/* SELECT ... INTO [TEMP | TEMPORARY | UNLOGGED] [TABLE] t: PostgreSQL's
 * older CREATE TABLE AS. The SELECT notes the target (ab_into_note); the
 * statement decides whether the INTO stands where one may (ab_into_take).
 * TEMP and UNLOGGED change nothing here, as in CREATE TABLE. */
%type into_clause {ab_qname}
into_clause(A) ::= INTO into_target(N).     { A = N; }
into_clause(A) ::= .                        { memset(&A, 0, sizeof A); }
%type into_target {ab_qname}
into_target(A) ::= qualified_name(N).                 { A = N; into_schema(ctx, &N); }
into_target(A) ::= TABLE qualified_name(N).           { A = N; into_schema(ctx, &N); }
into_target(A) ::= into_kind(K) qualified_name(N).
    { A = N; if (K.str) ab_word_expect(ctx, &K, "unlogged"); into_schema(ctx, &N); }
into_target(A) ::= into_kind(K) TABLE qualified_name(N).
    { A = N; if (K.str) ab_word_expect(ctx, &K, "unlogged"); into_schema(ctx, &N); }
/* TEMP, TEMPORARY or the word UNLOGGED (A.str set), the word checked once
 * a name follows (INTO t AS ... is a syntax error at AS, not at t) */
%type into_kind {attu_token}
into_kind(A) ::= TEMP(T).       { A = T; A.str = NULL; ctx->into_temp = true; }
into_kind(A) ::= TEMPORARY(T).  { A = T; A.str = NULL; ctx->into_temp = true; }
into_kind(A) ::= ID(U).         { A = U; }

%type set_quantifier {bool}
set_quantifier(A) ::= ALL.          { A = true; }
set_quantifier(A) ::= DISTINCT.     { A = false; }
set_quantifier(A) ::= .             { A = false; }

opt_all_clause ::= ALL.
opt_all_clause ::= .

/* DISTINCT gives NULL (plain) or the ON list. */
%type distinct_clause {attu_vec *}
distinct_clause(A) ::= DISTINCT.                            { A = NULL; }
distinct_clause(A) ::= DISTINCT ON LP expr_list(L) RP.      { A = L; }

/* WITH */
%type with_clause {ab_with}
%include {
typedef struct ab_with { attu_vec *ctes; bool recursive; int pos; } ab_with;
/* each WITH query's SEARCH / CYCLE clauses (planner/cte_search_cycle.c) */
static void ab_with_rewrite(attu_parse_ctx *ctx, ab_with *w) {
    for (int i = 0; w->ctes && i < w->ctes->n; i++)
        ab_cte_search_cycle(ctx, &((attu_ast_cte *)w->ctes->items)[i], w->recursive);
}
}
with_clause(A) ::= WITH(K) cte_list(L).             { A.ctes = L; A.recursive = false; A.pos = K.pos; ab_with_rewrite(ctx, &A); }
with_clause(A) ::= WITH(K) RECURSIVE cte_list(L).   { A.ctes = L; A.recursive = true; A.pos = K.pos; ab_with_rewrite(ctx, &A); }

%type cte_list {attu_vec *}
cte_list(A) ::= common_table_expr(E).               { A = vec_new(ctx); ab_vec_push(ctx, A, &E, sizeof E); }
cte_list(A) ::= cte_list(L) COMMA common_table_expr(E).  { A = L; ab_vec_push(ctx, A, &E, sizeof E); }

%type common_table_expr {attu_ast_cte}
common_table_expr(A) ::= colid(N) opt_name_list(C) AS opt_materialized LP cte_body(Q) RP opt_search_clause(S) opt_cycle_clause(Y).
{
    memset(&A, 0, sizeof A);
    A.name = (char *)ab_tokstr(&N);
    A.position = N.pos;
    A.columns = ab_names(C);
    A.query = Q.query;
    A.modify = Q.modify;
    A.search = S;
    A.cycle = Y;
    /* (PostgreSQL 15 parses MERGE here and refuses it) */
    if (Q.modify && Q.modify->kind == ATTU_STMT_MERGE)
        ab_error(ctx, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, N.pos, "MERGE not supported in WITH query");
}
/* SEARCH { DEPTH | BREADTH } FIRST BY columns SET column, and CYCLE columns
 * SET column [TO value DEFAULT value] USING column (PostgreSQL 14's): the
 * rewrite into the recursive query's own columns is ast_build.c's
 * ab_cte_search_cycle, once WITH RECURSIVE is known */
%type opt_search_clause {attu_ast_cte_search}
opt_search_clause(A) ::= .   { memset(&A, 0, sizeof A); }
opt_search_clause(A) ::= SEARCH(K) DEPTH FIRST BY name_list(L) SET colid(C).
    { A.kind = 1; A.by = ab_names(L); A.set = (char *)ab_tokstr(&C); A.position = K.pos; }
opt_search_clause(A) ::= SEARCH(K) BREADTH FIRST BY name_list(L) SET colid(C).
    { A.kind = 2; A.by = ab_names(L); A.set = (char *)ab_tokstr(&C); A.position = K.pos; }
%type opt_cycle_clause {attu_ast_cte_cycle}
opt_cycle_clause(A) ::= .   { memset(&A, 0, sizeof A); }
opt_cycle_clause(A) ::= CYCLE(K) name_list(L) SET colid(M) USING colid(P).
{
    memset(&A, 0, sizeof A);
    A.present = true; A.cols = ab_names(L); A.mark = (char *)ab_tokstr(&M); A.path = (char *)ab_tokstr(&P);
    A.position = K.pos;
}
opt_cycle_clause(A) ::= CYCLE(K) name_list(L) SET colid(M) TO a_expr(T) DEFAULT a_expr(D) USING colid(P).
{
    A.present = true; A.cols = ab_names(L); A.mark = (char *)ab_tokstr(&M); A.path = (char *)ab_tokstr(&P);
    A.to = T; A.dflt = D; A.position = K.pos;
}
/* AS [NOT] MATERIALIZED: PostgreSQL's hint whether to inline the query;
 * attu plans a WITH query the same either way (its answers are the
 * same: a volatile one read twice is refused, planner/binder.c) */
opt_materialized ::= MATERIALIZED.
opt_materialized ::= NOT MATERIALIZED.
opt_materialized ::= .

/* a WITH query's body: a query, or a data-modifying statement (PostgreSQL's
 * PreparableStmt) */
%type cte_body {ab_cte_body}
%include {
typedef struct ab_cte_body { attu_ast_query *query; attu_ast_stmt *modify; } ab_cte_body;
}
cte_body(A) ::= select_stmt(Q).     { A.query = Q; A.modify = NULL; }
cte_body(A) ::= insert_stmt(S).     { A.query = NULL; A.modify = S; }
cte_body(A) ::= update_stmt(S).     { A.query = NULL; A.modify = S; }
cte_body(A) ::= delete_stmt(S).     { A.query = NULL; A.modify = S; }
cte_body(A) ::= merge_stmt(S).      { A.query = NULL; A.modify = S; }

/* Select list */
%type opt_target_list {attu_vec *}
opt_target_list(A) ::= target_list(L).      { A = L; }
opt_target_list(A) ::= .                    { A = NULL; }

%type target_list {attu_vec *}
target_list(A) ::= target_el(E).            { A = vec_new(ctx); ab_vec_push(ctx, A, &E, sizeof E); }
target_list(A) ::= target_list(L) COMMA target_el(E).   { A = L; ab_vec_push(ctx, A, &E, sizeof E); }

%type target_el {attu_ast_select_item}
target_el(A) ::= a_expr(E) AS col_label(N).
    { A.expr = E; A.alias = (char *)ab_tokstr(&N); A.alias_position = N.pos; }
target_el(A) ::= a_expr(E) bare_label(N).
    { A.expr = E; A.alias = (char *)ab_tokstr(&N); A.alias_position = N.pos; }
target_el(A) ::= a_expr(E).
    { A.expr = E; A.alias = NULL; A.alias_position = 0; }
target_el(A) ::= STAR(S).
    { A.expr = ab_star(ctx, NULL, S.pos); A.alias = NULL; A.alias_position = 0; }

/* FROM */
%type from_clause {attu_vec *}
from_clause(A) ::= FROM from_list(L).       { A = L; }
from_clause(A) ::= .                        { A = NULL; }

%type from_list {attu_vec *}
from_list(A) ::= table_ref(T).                      { A = vec_push_ptr(ctx, NULL, T); }
from_list(A) ::= from_list(L) COMMA table_ref(T).   { A = vec_push_ptr(ctx, L, T); }

%type table_ref {attu_ast_from *}
%type joined_table {attu_ast_from *}
table_ref(A) ::= qualified_name(N) opt_alias_clause(L).
{
    A = ab_alloc(ctx, sizeof *A);
    A->kind = ATTU_FROM_TABLE;
    A->position = N.pos;
    A->u.table.schema = (char *)N.schema;
    A->u.table.name = (char *)N.name;
    A->alias = (char *)L.name;
    A->column_aliases = ab_names(L.cols);
    ab_from_finish(ctx, A);
}
table_ref(A) ::= select_with_parens(Q) opt_alias_clause(L).
{
    if (!L.name) {
        /* PostgreSQL 15's grammar insists (16 relaxed it) */
        ab_error(ctx, ATTU_SQLSTATE_SYNTAX, Q->paren_position,
                 "subquery in FROM must have an alias");
    }
    A = ab_alloc(ctx, sizeof *A);
    A->kind = ATTU_FROM_SUBQUERY;
    A->position = Q->paren_position;
    A->u.subquery.query = Q;
    A->alias = (char *)L.name;
    A->column_aliases = ab_names(L.cols);
    ab_from_finish(ctx, A);
}
/* LATERAL (SELECT ...): bound with the FROM items before it visible
 * (planner/binder.c bind_lateral) */
table_ref(A) ::= LATERAL select_with_parens(Q) opt_alias_clause(L).
{
    if (!L.name) {
        ab_error(ctx, ATTU_SQLSTATE_SYNTAX, Q->paren_position,
                 "subquery in FROM must have an alias");
    }
    A = ab_alloc(ctx, sizeof *A);
    A->kind = ATTU_FROM_SUBQUERY;
    A->position = Q->paren_position;
    A->u.subquery.query = Q;
    A->u.subquery.lateral = true;
    A->alias = (char *)L.name;
    A->column_aliases = ab_names(L.cols);
    ab_from_finish(ctx, A);
}
/* Functions in FROM (generate_series, unnest, json_to_record ...): bound by
 * planner/srf.c, which refuses any other function. A function in FROM is
 * lateral whether or not LATERAL is written (PostgreSQL's rule for
 * functions). A function returning records takes a column definition list
 * (AS x(a int, b text)); ROWS FROM (f(), g() ...) runs several in lockstep. */
table_ref(A) ::= func_application(F) func_alias_clause(L).
    { A = func_ref(ctx, F, NULL, false, false, &L); }
table_ref(A) ::= func_application(F) WITH_LA ORDINALITY func_alias_clause(L).
    { A = func_ref(ctx, F, NULL, false, true, &L); }
table_ref(A) ::= LATERAL func_application(F) WITH_LA ORDINALITY func_alias_clause(L).
    { A = func_ref(ctx, F, NULL, true, true, &L); }
table_ref(A) ::= LATERAL func_application(F) func_alias_clause(L).
    { A = func_ref(ctx, F, NULL, true, false, &L); }
table_ref(A) ::= ROWS FROM LP rows_from_list(R) RP func_alias_clause(L).
    { A = func_ref(ctx, NULL, R, false, false, &L); }
table_ref(A) ::= ROWS FROM LP rows_from_list(R) RP WITH_LA ORDINALITY func_alias_clause(L).
    { A = func_ref(ctx, NULL, R, false, true, &L); }
table_ref(A) ::= LATERAL ROWS FROM LP rows_from_list(R) RP func_alias_clause(L).
    { A = func_ref(ctx, NULL, R, true, false, &L); }
table_ref(A) ::= LATERAL ROWS FROM LP rows_from_list(R) RP WITH_LA ORDINALITY func_alias_clause(L).
    { A = func_ref(ctx, NULL, R, true, true, &L); }

%type rows_from_list {attu_vec *}
%type rows_from_item {attu_ast_from_call}
rows_from_list(A) ::= rows_from_item(I).                         { A = vec_new(ctx); ab_vec_push(ctx, A, &I, sizeof I); }
rows_from_list(A) ::= rows_from_list(L) COMMA rows_from_item(I). { A = L; ab_vec_push(ctx, A, &I, sizeof I); }
rows_from_item(A) ::= func_application(F).                       { memset(&A, 0, sizeof A); A.call = F; }
rows_from_item(A) ::= func_application(F) AS LP coldef_list(D) RP.
    { memset(&A, 0, sizeof A); A.call = F; A.coldefs = coldefs_of(ctx, D); }

%type func_alias_clause {ab_falias}
func_alias_clause(A) ::= opt_alias_clause(L).        { A.name = L.name; A.cols = L.cols; A.defs = NULL; }
func_alias_clause(A) ::= AS LP coldef_list(D) RP.    { A.name = NULL; A.cols = NULL; A.defs = D; }
func_alias_clause(A) ::= AS colid(N) LP coldef_list(D) RP.  { A.name = ab_tokstr(&N); A.cols = NULL; A.defs = D; }
func_alias_clause(A) ::= colid(N) LP coldef_list(D) RP.     { A.name = ab_tokstr(&N); A.cols = NULL; A.defs = D; }

%type coldef_list {attu_vec *}
%type coldef {ab_coldef}
coldef_list(A) ::= coldef(D).                         { A = vec_new(ctx); ab_vec_push(ctx, A, &D, sizeof D); }
coldef_list(A) ::= coldef_list(L) COMMA coldef(D).    { A = L; ab_vec_push(ctx, A, &D, sizeof D); }
coldef(A) ::= colid(N) typename(T).                   { A.name = (char *)ab_tokstr(&N); A.pos = N.pos; A.type = T; }

table_ref(A) ::= joined_table(J).                   { A = J; }
table_ref(A) ::= LP joined_table(J) RP alias_clause(L).
{
    /* PostgreSQL allows an alias on a parenthesised join; attu records it
     * on the join node. */
    A = J;
    A->alias = (char *)L.name;
    A->column_aliases = ab_names(L.cols);
    ab_from_finish(ctx, A);
}

joined_table(A) ::= LP joined_table(J) RP.          { A = J; }
joined_table(A) ::= table_ref(L) CROSS(K) JOIN table_ref(R).
{
    A = ab_alloc(ctx, sizeof *A);
    A->kind = ATTU_FROM_JOIN; A->position = K.pos;
    A->u.join.type = ATTU_JOIN_CROSS; A->u.join.left = L; A->u.join.right = R;
    ab_from_finish(ctx, A);
}
joined_table(A) ::= table_ref(L) join_type(T) JOIN table_ref(R) join_qual(Q).
{
    A = ab_alloc(ctx, sizeof *A);
    A->kind = ATTU_FROM_JOIN; A->position = T.pos;
    A->u.join.type = T.type; A->u.join.left = L; A->u.join.right = R;
    A->u.join.on = Q.on; A->u.join.using_ = ab_names(Q.using_);
    ab_from_finish(ctx, A);
}
joined_table(A) ::= table_ref(L) JOIN(K) table_ref(R) join_qual(Q).
{
    A = ab_alloc(ctx, sizeof *A);
    A->kind = ATTU_FROM_JOIN; A->position = K.pos;
    A->u.join.type = ATTU_JOIN_INNER; A->u.join.left = L; A->u.join.right = R;
    A->u.join.on = Q.on; A->u.join.using_ = ab_names(Q.using_);
    ab_from_finish(ctx, A);
}
joined_table(A) ::= table_ref(L) NATURAL(K) join_type(T) JOIN table_ref(R).
{
    A = ab_alloc(ctx, sizeof *A);
    A->kind = ATTU_FROM_JOIN; A->position = K.pos;
    A->u.join.type = T.type; A->u.join.natural = true;
    A->u.join.left = L; A->u.join.right = R;
    ab_from_finish(ctx, A);
}
joined_table(A) ::= table_ref(L) NATURAL(K) JOIN table_ref(R).
{
    A = ab_alloc(ctx, sizeof *A);
    A->kind = ATTU_FROM_JOIN; A->position = K.pos;
    A->u.join.type = ATTU_JOIN_INNER; A->u.join.natural = true;
    A->u.join.left = L; A->u.join.right = R;
    ab_from_finish(ctx, A);
}

%include {
typedef struct ab_jointype { attu_ast_join_type type; int pos; } ab_jointype;
typedef struct ab_joinqual { attu_ast_expr *on; attu_names *using_; } ab_joinqual;
typedef struct ab_alias { const char *name; attu_names *cols; } ab_alias;
typedef struct ab_falias { const char *name; attu_names *cols; attu_vec *defs; } ab_falias;
typedef struct ab_coldef { char *name; int pos; attu_ast_typename type; } ab_coldef;

static attu_ast_coldefs coldefs_of(attu_parse_ctx *ctx, attu_vec *v) {
    attu_ast_coldefs d = { 0, NULL, NULL, NULL };
    if (!v || !v->n) return d;
    d.names = ab_alloc(ctx, sizeof(char *) * (size_t)v->n);
    d.types = ab_alloc(ctx, sizeof(attu_ast_typename) * (size_t)v->n);
    d.positions = ab_alloc(ctx, sizeof(int) * (size_t)v->n);
    if (!d.names || !d.types || !d.positions) return d;
    for (int i = 0; i < v->n; i++) {
        const ab_coldef *c = &((const ab_coldef *)v->items)[i];
        d.names[i] = c->name; d.types[i] = c->type; d.positions[i] = c->pos;
    }
    d.n = v->n;
    return d;
}

/* A function (F) or ROWS FROM (R, a vector of attu_ast_from_call) in FROM. */
static attu_ast_from *func_ref(attu_parse_ctx *ctx, attu_ast_expr *F, attu_vec *R, bool lateral, bool ord,
                               const ab_falias *L) {
    attu_ast_from *A = ab_alloc(ctx, sizeof *A);
    if (!A) return NULL;
    A->kind = ATTU_FROM_FUNCTION;
    if (R && R->n) {
        A->u.function.calls = R->items;
        A->u.function.ncalls = R->n;
        F = A->u.function.calls[0].call;
    }
    A->position = F ? F->position : 0;
    A->u.function.call = F;
    A->u.function.lateral = lateral;
    A->u.function.ordinality = ord;
    A->alias = (char *)L->name;
    A->column_aliases = ab_names(L->cols);
    A->u.function.coldefs = coldefs_of(ctx, L->defs);
    ab_from_finish(ctx, A);
    return A;
}
}
%type join_type {ab_jointype}
join_type(A) ::= FULL(K) opt_outer.     { A.type = ATTU_JOIN_FULL; A.pos = K.pos; }
join_type(A) ::= LEFT(K) opt_outer.     { A.type = ATTU_JOIN_LEFT; A.pos = K.pos; }
join_type(A) ::= RIGHT(K) opt_outer.    { A.type = ATTU_JOIN_RIGHT; A.pos = K.pos; }
join_type(A) ::= INNER(K).              { A.type = ATTU_JOIN_INNER; A.pos = K.pos; }

opt_outer ::= OUTER.
opt_outer ::= .

%type join_qual {ab_joinqual}
join_qual(A) ::= USING LP name_list(L) RP.  { A.on = NULL; A.using_ = L; }
join_qual(A) ::= ON a_expr(E).              { A.on = E; A.using_ = NULL; }

%type alias_clause {ab_alias}
%type opt_alias_clause {ab_alias}
alias_clause(A) ::= AS colid(N) LP name_list(L) RP.  { A.name = ab_tokstr(&N); A.cols = L; }
alias_clause(A) ::= AS colid(N).                     { A.name = ab_tokstr(&N); A.cols = NULL; }
alias_clause(A) ::= colid(N) LP name_list(L) RP.     { A.name = ab_tokstr(&N); A.cols = L; }
alias_clause(A) ::= colid(N).                        { A.name = ab_tokstr(&N); A.cols = NULL; }
opt_alias_clause(A) ::= alias_clause(L).             { A = L; }
opt_alias_clause(A) ::= .                            { A.name = NULL; A.cols = NULL; }

%type collation_name {ab_qname}
collation_name(A) ::= colid(N).                  { A.schema = NULL; A.name = ab_tokstr(&N); A.pos = N.pos; }
collation_name(A) ::= colid(S) DOT attr_name(N). { A.schema = ab_tokstr(&S); A.name = ab_tokstr(&N); A.pos = N.pos; }

/* the table a statement writes (INSERT, UPDATE, DELETE, TRUNCATE, COPY):
 * never a system relation, which attu builds for reading only (so a user
 * table of the same name is not reached through pg_catalog.NAME either) */
%type target_name {ab_qname}
target_name(A) ::= qualified_name(N).
{
    A = N;
    if (N.schema && (!strcmp(N.schema, "pg_catalog") || !strcmp(N.schema, "information_schema")))
        ab_defer_error(ctx, "42501", N.pos, "permission denied: \"%s\" is a system catalog", N.name);
}

%type qualified_name {ab_qname}
qualified_name(A) ::= colid(N).
    { A.schema = NULL; A.name = ab_tokstr(&N); A.pos = N.pos; }
qualified_name(A) ::= colid(S) DOT attr_name(N).
    { A.schema = ab_tokstr(&S); A.name = ab_tokstr(&N); A.pos = S.pos; }
qualified_name(A) ::= colid(D) DOT attr_name(S) DOT attr_name(N).
{
    A.schema = ab_tokstr(&S); A.name = ab_tokstr(&N); A.pos = D.pos;
    ab_defer_error(ctx, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, D.pos,
                   "cross-database references are not implemented: %s.%s.%s",
                   ab_tokstr(&D), A.schema, A.name);
}

/* WHERE / GROUP BY / HAVING */
%type where_clause {attu_ast_expr *}
where_clause(A) ::= WHERE a_expr(E).    { A = E; }
where_clause(A) ::= .                   { A = NULL; }

/* GROUP BY [ALL | DISTINCT] items. An item is an expression, the empty
 * set (), ROLLUP (...) / CUBE (...) (which arrive as calls of rollup and
 * cube: they are no keywords here, the binder tells them apart), or
 * GROUPING SETS (items) (the lexer's one token for the two words). The
 * empty set and GROUPING SETS arrive as calls of "()" and "grouping sets"
 * in the schema "", which no query can name (a quoted identifier is never
 * empty): see ast.h. A list of plain expressions, or () alone, keeps the
 * plain forms (group_by / group_empty); anything else sets group_sets. */
%include { typedef struct ab_group { attu_vec *list; bool distinct; } ab_group; }
%type group_clause {ab_group}
group_clause(A) ::= GROUP BY group_by_list(L).           { A.list = L; A.distinct = false; }
group_clause(A) ::= GROUP BY ALL group_by_list(L).       { A.list = L; A.distinct = false; }
group_clause(A) ::= GROUP BY DISTINCT group_by_list(L).  { A.list = L; A.distinct = true; }
group_clause(A) ::= .                                    { A.list = NULL; A.distinct = false; }

%type group_by_list {attu_vec *}
group_by_list(A) ::= group_by_item(E).                          { A = vec_push_ptr(ctx, NULL, E); }
group_by_list(A) ::= group_by_list(L) COMMA group_by_item(E).   { A = vec_push_ptr(ctx, L, E); }

%type group_by_item {attu_ast_expr *}
group_by_item(A) ::= a_expr(E).                                 { A = E; }
group_by_item(A) ::= LP(K) RP.                                  { A = ab_func(ctx, "", "()", NULL, K.pos); }
group_by_item(A) ::= GROUPING_SETS(K) LP group_by_list(L) RP.   { A = ab_func(ctx, "", "grouping sets", L, K.pos); }

%type having_clause {attu_ast_expr *}
having_clause(A) ::= HAVING a_expr(E).  { A = E; }
having_clause(A) ::= .                  { A = NULL; }

/* ORDER BY */
%type sort_clause {attu_vec *}
%type opt_sort_clause {attu_vec *}
%type sortby_list {attu_vec *}
sort_clause(A) ::= ORDER BY sortby_list(L).     { A = L; }
opt_sort_clause(A) ::= sort_clause(L).          { A = L; }
opt_sort_clause(A) ::= .                        { A = NULL; }
sortby_list(A) ::= sortby(S).                   { A = vec_new(ctx); ab_vec_push(ctx, A, &S, sizeof S); }
sortby_list(A) ::= sortby_list(L) COMMA sortby(S).  { A = L; ab_vec_push(ctx, A, &S, sizeof S); }

%type sortby {attu_ast_order_item}
sortby(A) ::= a_expr(E) opt_asc_desc(D) opt_nulls_order(N).
    { A.expr = E; A.desc = D; A.nulls = N; A.position = E->position; }

%type opt_asc_desc {bool}
opt_asc_desc(A) ::= ASC.        { A = false; }
opt_asc_desc(A) ::= DESC.       { A = true; }
opt_asc_desc(A) ::= .           { A = false; }

%type opt_nulls_order {attu_ast_nulls_order}
opt_nulls_order(A) ::= NULLS_LA FIRST.  { A = ATTU_NULLS_FIRST; }
opt_nulls_order(A) ::= NULLS_LA LAST.   { A = ATTU_NULLS_LAST; }
opt_nulls_order(A) ::= .                { A = ATTU_NULLS_DEFAULT; }

/* LIMIT / OFFSET / FETCH */
%type select_limit {attu_limit}
%type limit_clause {attu_limit}
%type offset_clause {attu_limit}
select_limit(A) ::= limit_clause(L) offset_clause(O).
    { A = L; A.offset = O.offset; A.offset_pos = O.offset_pos; }
select_limit(A) ::= offset_clause(O) limit_clause(L).
    { A = L; A.offset = O.offset; A.offset_pos = O.offset_pos; }
select_limit(A) ::= limit_clause(L).    { A = L; }
select_limit(A) ::= offset_clause(O).   { A = O; }

limit_clause(A) ::= LIMIT(K) select_limit_value(V).
    { memset(&A, 0, sizeof A); A.has_limit = true; A.limit = V; A.limit_pos = K.pos; }
limit_clause(A) ::= LIMIT(K) select_limit_value COMMA select_offset_value.
{
    memset(&A, 0, sizeof A);
    ab_error(ctx, ATTU_SQLSTATE_SYNTAX, K.pos,
             "LIMIT #,# syntax is not supported");
    ctx->failed = true;
}
limit_clause(A) ::= FETCH(K) first_or_next select_fetch_first_value(V) row_or_rows ONLY.
    { memset(&A, 0, sizeof A); A.has_limit = true; A.limit = V; A.limit_pos = K.pos; }
limit_clause(A) ::= FETCH(K) first_or_next row_or_rows ONLY.
{
    memset(&A, 0, sizeof A); A.has_limit = true; A.limit_pos = K.pos;
    A.limit = ab_literal_text(ctx, ATTU_LIT_INTEGER, "1", K.pos);
}

/* WITH TIES: the rows after the n-th that are its ORDER BY peers are
 * kept too (ab_select_options checks that there is an ORDER BY). */
limit_clause(A) ::= FETCH(K) first_or_next select_fetch_first_value(V) row_or_rows WITH TIES.
    { memset(&A, 0, sizeof A); A.has_limit = true; A.limit = V; A.limit_pos = K.pos; A.with_ties = true; }
limit_clause(A) ::= FETCH(K) first_or_next row_or_rows WITH TIES.
{
    memset(&A, 0, sizeof A); A.has_limit = true; A.limit_pos = K.pos; A.with_ties = true;
    A.limit = ab_literal_text(ctx, ATTU_LIT_INTEGER, "1", K.pos);
}

offset_clause(A) ::= OFFSET(K) select_offset_value(V).
    { memset(&A, 0, sizeof A); A.offset = V; A.offset_pos = K.pos; }
offset_clause(A) ::= OFFSET(K) select_fetch_first_value(V) row_or_rows.
    { memset(&A, 0, sizeof A); A.offset = V; A.offset_pos = K.pos; }

%type select_limit_value {attu_ast_expr *}
select_limit_value(A) ::= a_expr(E).    { A = E; }
select_limit_value(A) ::= ALL.          { A = NULL; }

%type select_offset_value {attu_ast_expr *}
select_offset_value(A) ::= a_expr(E).   { A = E; }

%type select_fetch_first_value {attu_ast_expr *}
select_fetch_first_value(A) ::= c_expr(E).              { A = E; }
select_fetch_first_value(A) ::= PLUS i_or_f_const(E).   { A = E; }
select_fetch_first_value(A) ::= MINUS(M) i_or_f_const(E). { A = ab_negate(ctx, E, M.pos); }

%type i_or_f_const {attu_ast_expr *}
i_or_f_const(A) ::= ICONST(T).   { A = ab_literal(ctx, ATTU_LIT_INTEGER, &T); }
i_or_f_const(A) ::= FCONST(T).   { A = ab_literal(ctx, ATTU_LIT_NUMERIC, &T); }

row_or_rows ::= ROW.
row_or_rows ::= ROWS.
first_or_next ::= FIRST.
first_or_next ::= NEXT.

/* VALUES: rows are collected in a vector (amortised growth) and turned
 * into the query once, so a million-row INSERT stays linear. */
%include {
typedef struct ab_rows { attu_vec rows; int pos; } ab_rows;
}
%type values_rows {ab_rows *}
values_rows(A) ::= VALUES(K) LP expr_list(L) RP.
{
    A = ab_alloc(ctx, sizeof *A);
    A->pos = K.pos;
    attu_ast_expr_list row = ab_expr_list(L);
    ab_vec_push(ctx, &A->rows, &row, sizeof row);
}
values_rows(A) ::= values_rows(V) COMMA LP expr_list(L) RP.
{
    A = V;
    attu_ast_expr_list row = ab_expr_list(L);
    ab_vec_push(ctx, &A->rows, &row, sizeof row);
}
values_clause(A) ::= values_rows(V).
{
    A = ab_query(ctx, ATTU_QUERY_VALUES, V->pos);
    A->u.values.rows = V->rows.items;
    A->u.values.nrows = V->rows.n;
    ab_query_finish(ctx, A);
}

/* ======================================================================== */
/* Expressions                                                              */

%type a_expr {attu_ast_expr *}
%type b_expr {attu_ast_expr *}
%type c_expr {attu_ast_expr *}

a_expr(A) ::= c_expr(E).                                { A = E; }
/* DEFAULT as an expression (PostgreSQL's SetToDefault): meaningful only as
 * an item of INSERT ... VALUES; the binder rejects it elsewhere */
a_expr(A) ::= DEFAULT(K).                               { A = ab_expr(ctx, ATTU_EXPR_DEFAULT, K.pos); }
a_expr(A) ::= a_expr(E) TYPECAST(K) typename(T).        { A = ab_cast(ctx, E, &T, ATTU_CAST_COLONS, K.pos); }
a_expr(A) ::= PLUS(K) a_expr(E). [UMINUS]               { A = ab_unary(ctx, ATTU_UNOP_PLUS, E, &K); }
/* x COLLATE name: attu compares text byte by byte (the C collation), so the
 * collations that do so ("default", "C", "POSIX", optionally qualified by
 * pg_catalog, as psql's catalog queries write them) leave x's value as it
 * is; any other is PostgreSQL's 42704 */
a_expr(A) ::= a_expr(E) COLLATE(K) collation_name(N).   { A = ab_collate(ctx, E, N.schema, N.name, K.pos, N.pos); }
a_expr(A) ::= MINUS(K) a_expr(E). [UMINUS]              { A = ab_negate(ctx, E, K.pos); }
a_expr(A) ::= a_expr(L) PLUS(K) a_expr(R).              { A = ab_binary(ctx, ATTU_BINOP_ADD, L, R, &K); }
a_expr(A) ::= a_expr(L) MINUS(K) a_expr(R).             { A = ab_binary(ctx, ATTU_BINOP_SUB, L, R, &K); }
a_expr(A) ::= a_expr(L) STAR(K) a_expr(R).              { A = ab_binary(ctx, ATTU_BINOP_MUL, L, R, &K); }
a_expr(A) ::= a_expr(L) SLASH(K) a_expr(R).             { A = ab_binary(ctx, ATTU_BINOP_DIV, L, R, &K); }
a_expr(A) ::= a_expr(L) PERCENT(K) a_expr(R).           { A = ab_binary(ctx, ATTU_BINOP_MOD, L, R, &K); }
a_expr(A) ::= a_expr(L) CARET(K) a_expr(R).             { A = ab_binary(ctx, ATTU_BINOP_POW, L, R, &K); }
/* x AT TIME ZONE z is PostgreSQL's timezone(z, x) (planner/timestamptz.c) */
a_expr(A) ::= a_expr(L) AT(K) TIME ZONE a_expr(R).      { A = ab_func2(ctx, "timezone", R, L, K.pos); }
a_expr(A) ::= a_expr(L) LT(K) a_expr(R).                { A = ab_binary(ctx, ATTU_BINOP_LT, L, R, &K); }
a_expr(A) ::= a_expr(L) GT(K) a_expr(R).                { A = ab_binary(ctx, ATTU_BINOP_GT, L, R, &K); }
a_expr(A) ::= a_expr(L) EQ(K) a_expr(R).                { A = ab_binary(ctx, ATTU_BINOP_EQ, L, R, &K); }
a_expr(A) ::= a_expr(L) LE(K) a_expr(R).                { A = ab_binary(ctx, ATTU_BINOP_LE, L, R, &K); }
a_expr(A) ::= a_expr(L) GE(K) a_expr(R).                { A = ab_binary(ctx, ATTU_BINOP_GE, L, R, &K); }
a_expr(A) ::= a_expr(L) NE(K) a_expr(R).                { A = ab_binary(ctx, ATTU_BINOP_NE, L, R, &K); }
a_expr(A) ::= a_expr(L) CONCAT(K) a_expr(R).            { A = ab_binary(ctx, ATTU_BINOP_CONCAT, L, R, &K); }
a_expr(A) ::= a_expr(L) AND(K) a_expr(R).               { A = ab_binary(ctx, ATTU_BINOP_AND, L, R, &K); }
a_expr(A) ::= a_expr(L) OR(K) a_expr(R).                { A = ab_binary(ctx, ATTU_BINOP_OR, L, R, &K); }
a_expr(A) ::= NOT(K) a_expr(E).                         { A = ab_unary(ctx, ATTU_UNOP_NOT, E, &K); }
a_expr(A) ::= NOT_LA(K) a_expr(E). [NOT]                { A = ab_unary(ctx, ATTU_UNOP_NOT, E, &K); }
a_expr(A) ::= a_expr(L) OP(K) a_expr(R).                { A = ab_binary(ctx, ATTU_BINOP_OTHER, L, R, &K); }
a_expr(A) ::= OP(K) a_expr(E). [OP]                     { A = ab_unary(ctx, ATTU_UNOP_OTHER, E, &K); }
a_expr(A) ::= CONCAT(K) a_expr(E). [OP]                 { A = ab_unary(ctx, ATTU_UNOP_OTHER, E, &K); }

a_expr(A) ::= a_expr(L) LIKE(K) a_expr(R).                          { A = ab_like(ctx, L, R, NULL, false, false, K.pos); }
a_expr(A) ::= a_expr(L) LIKE(K) a_expr(R) ESCAPE a_expr(E).         { A = ab_like(ctx, L, R, E, false, false, K.pos); }
a_expr(A) ::= a_expr(L) NOT_LA(K) LIKE a_expr(R). [NOT_LA]          { A = ab_like(ctx, L, R, NULL, true, false, K.pos); }
a_expr(A) ::= a_expr(L) NOT_LA(K) LIKE a_expr(R) ESCAPE a_expr(E).  { A = ab_like(ctx, L, R, E, true, false, K.pos); }
a_expr(A) ::= a_expr(L) ILIKE(K) a_expr(R).                         { A = ab_like(ctx, L, R, NULL, false, true, K.pos); }
a_expr(A) ::= a_expr(L) ILIKE(K) a_expr(R) ESCAPE a_expr(E).        { A = ab_like(ctx, L, R, E, false, true, K.pos); }
a_expr(A) ::= a_expr(L) NOT_LA(K) ILIKE a_expr(R). [NOT_LA]         { A = ab_like(ctx, L, R, NULL, true, true, K.pos); }
a_expr(A) ::= a_expr(L) NOT_LA(K) ILIKE a_expr(R) ESCAPE a_expr(E). { A = ab_like(ctx, L, R, E, true, true, K.pos); }
a_expr(A) ::= a_expr(L) SIMILAR(K) TO a_expr(R). [SIMILAR]
    { A = ab_like(ctx, L, R, NULL, false, false, K.pos); A->u.like.similar = true; }
a_expr(A) ::= a_expr(L) SIMILAR(K) TO a_expr(R) ESCAPE a_expr(E).
    { A = ab_like(ctx, L, R, E, false, false, K.pos); A->u.like.similar = true; }
a_expr(A) ::= a_expr(L) NOT_LA(K) SIMILAR TO a_expr(R). [NOT_LA]
    { A = ab_like(ctx, L, R, NULL, true, false, K.pos); A->u.like.similar = true; }
a_expr(A) ::= a_expr(L) NOT_LA(K) SIMILAR TO a_expr(R) ESCAPE a_expr(E).
    { A = ab_like(ctx, L, R, E, true, false, K.pos); A->u.like.similar = true; }

a_expr(A) ::= a_expr(E) IS(K) NULL. [IS]                { A = ab_is(ctx, E, ATTU_IS_NULL, false, K.pos); }
a_expr(A) ::= a_expr(E) ISNULL(K).                      { A = ab_is(ctx, E, ATTU_IS_NULL, false, K.pos); }
a_expr(A) ::= a_expr(E) IS(K) NOT NULL. [IS]            { A = ab_is(ctx, E, ATTU_IS_NULL, true, K.pos); }
a_expr(A) ::= a_expr(E) NOTNULL(K).                     { A = ab_is(ctx, E, ATTU_IS_NULL, true, K.pos); }
a_expr(A) ::= a_expr(E) IS(K) TRUE. [IS]                { A = ab_is(ctx, E, ATTU_IS_TRUE, false, K.pos); }
a_expr(A) ::= a_expr(E) IS(K) NOT TRUE. [IS]            { A = ab_is(ctx, E, ATTU_IS_TRUE, true, K.pos); }
a_expr(A) ::= a_expr(E) IS(K) FALSE. [IS]               { A = ab_is(ctx, E, ATTU_IS_FALSE, false, K.pos); }
a_expr(A) ::= a_expr(E) IS(K) NOT FALSE. [IS]           { A = ab_is(ctx, E, ATTU_IS_FALSE, true, K.pos); }
a_expr(A) ::= a_expr(E) IS(K) UNKNOWN. [IS]             { A = ab_is(ctx, E, ATTU_IS_UNKNOWN, false, K.pos); }
a_expr(A) ::= a_expr(E) IS(K) NOT UNKNOWN. [IS]         { A = ab_is(ctx, E, ATTU_IS_UNKNOWN, true, K.pos); }
a_expr(A) ::= a_expr(L) IS(K) DISTINCT FROM a_expr(R). [IS]      { A = ab_binary(ctx, ATTU_BINOP_IS_DISTINCT, L, R, &K); }
a_expr(A) ::= a_expr(L) IS(K) NOT DISTINCT FROM a_expr(R). [IS]  { A = ab_binary(ctx, ATTU_BINOP_IS_NOT_DISTINCT, L, R, &K); }

a_expr(A) ::= a_expr(E) BETWEEN(K) opt_asymmetric b_expr(L) AND a_expr(H). [BETWEEN]
    { A = ab_between(ctx, E, L, H, false, false, K.pos); }
a_expr(A) ::= a_expr(E) NOT_LA(K) BETWEEN opt_asymmetric b_expr(L) AND a_expr(H). [NOT_LA]
    { A = ab_between(ctx, E, L, H, true, false, K.pos); }
a_expr(A) ::= a_expr(E) BETWEEN(K) SYMMETRIC b_expr(L) AND a_expr(H). [BETWEEN]
    { A = ab_between(ctx, E, L, H, false, true, K.pos); }
a_expr(A) ::= a_expr(E) NOT_LA(K) BETWEEN SYMMETRIC b_expr(L) AND a_expr(H). [NOT_LA]
    { A = ab_between(ctx, E, L, H, true, true, K.pos); }

a_expr(A) ::= a_expr(E) IN(K) in_expr(I).               { A = ab_in(ctx, E, I, false, K.pos); }
a_expr(A) ::= a_expr(E) NOT_LA(K) IN in_expr(I). [NOT_LA]   { A = ab_in(ctx, E, I, true, K.pos); }

/* x op ANY|SOME|ALL (SELECT ...), and the array form (refused). */
a_expr(A) ::= a_expr(L) subquery_op(O) sub_type(T) select_with_parens(Q). [OP]
    { A = ab_quantified(ctx, L, &O, T, Q); }
/* x op ANY (array): a call of " any" or " all" followed by the operator
 * (planner/array_bind.c) */
a_expr(A) ::= a_expr(L) subquery_op(O) sub_type(T) LP a_expr(E) RP. [OP]
{
    char nm[32];
    int nl = snprintf(nm, sizeof nm, " %s%.*s", T ? "all" : "any", (int)(O.len > 8 ? 8 : O.len), ctx->sql + O.off);
    A = ab_func2(ctx, ab_strndup(ctx, nm, (size_t)nl), L, E, O.pos);
}
subquery_op(A) ::= EQ(K).       { A = K; }
subquery_op(A) ::= NE(K).       { A = K; }
subquery_op(A) ::= LT(K).       { A = K; }
subquery_op(A) ::= LE(K).       { A = K; }
subquery_op(A) ::= GT(K).       { A = K; }
subquery_op(A) ::= GE(K).       { A = K; }
subquery_op(A) ::= PLUS(K).     { A = K; }
subquery_op(A) ::= MINUS(K).    { A = K; }
subquery_op(A) ::= STAR(K).     { A = K; }
subquery_op(A) ::= SLASH(K).    { A = K; }
subquery_op(A) ::= PERCENT(K).  { A = K; }
subquery_op(A) ::= CARET(K).    { A = K; }
subquery_op(A) ::= CONCAT(K).   { A = K; }
subquery_op(A) ::= OP(K).       { A = K; }
%type sub_type {bool}
sub_type(A) ::= ANY.    { A = false; }
sub_type(A) ::= SOME.   { A = false; }
sub_type(A) ::= ALL.    { A = true; }

opt_asymmetric ::= ASYMMETRIC.
opt_asymmetric ::= .

%type in_expr {attu_ast_expr *}
in_expr(A) ::= select_with_parens(Q).       { A = ab_subquery(ctx, ATTU_EXPR_IN_SUBQUERY, Q, Q->paren_position); }
in_expr(A) ::= LP(K) expr_list(L) RP.       { A = ab_in_list(ctx, L, K.pos); }

/* b_expr: what may stand between BETWEEN and AND. */
b_expr(A) ::= c_expr(E).                                { A = E; }
b_expr(A) ::= b_expr(E) TYPECAST(K) typename(T).        { A = ab_cast(ctx, E, &T, ATTU_CAST_COLONS, K.pos); }
b_expr(A) ::= PLUS(K) b_expr(E). [UMINUS]               { A = ab_unary(ctx, ATTU_UNOP_PLUS, E, &K); }
b_expr(A) ::= MINUS(K) b_expr(E). [UMINUS]              { A = ab_negate(ctx, E, K.pos); }
b_expr(A) ::= b_expr(L) PLUS(K) b_expr(R).              { A = ab_binary(ctx, ATTU_BINOP_ADD, L, R, &K); }
b_expr(A) ::= b_expr(L) MINUS(K) b_expr(R).             { A = ab_binary(ctx, ATTU_BINOP_SUB, L, R, &K); }
b_expr(A) ::= b_expr(L) STAR(K) b_expr(R).              { A = ab_binary(ctx, ATTU_BINOP_MUL, L, R, &K); }
b_expr(A) ::= b_expr(L) SLASH(K) b_expr(R).             { A = ab_binary(ctx, ATTU_BINOP_DIV, L, R, &K); }
b_expr(A) ::= b_expr(L) PERCENT(K) b_expr(R).           { A = ab_binary(ctx, ATTU_BINOP_MOD, L, R, &K); }
b_expr(A) ::= b_expr(L) CARET(K) b_expr(R).             { A = ab_binary(ctx, ATTU_BINOP_POW, L, R, &K); }
b_expr(A) ::= b_expr(L) LT(K) b_expr(R).                { A = ab_binary(ctx, ATTU_BINOP_LT, L, R, &K); }
b_expr(A) ::= b_expr(L) GT(K) b_expr(R).                { A = ab_binary(ctx, ATTU_BINOP_GT, L, R, &K); }
b_expr(A) ::= b_expr(L) EQ(K) b_expr(R).                { A = ab_binary(ctx, ATTU_BINOP_EQ, L, R, &K); }
b_expr(A) ::= b_expr(L) LE(K) b_expr(R).                { A = ab_binary(ctx, ATTU_BINOP_LE, L, R, &K); }
b_expr(A) ::= b_expr(L) GE(K) b_expr(R).                { A = ab_binary(ctx, ATTU_BINOP_GE, L, R, &K); }
b_expr(A) ::= b_expr(L) NE(K) b_expr(R).                { A = ab_binary(ctx, ATTU_BINOP_NE, L, R, &K); }
b_expr(A) ::= b_expr(L) CONCAT(K) b_expr(R).            { A = ab_binary(ctx, ATTU_BINOP_CONCAT, L, R, &K); }
b_expr(A) ::= b_expr(L) OP(K) b_expr(R).                { A = ab_binary(ctx, ATTU_BINOP_OTHER, L, R, &K); }
b_expr(A) ::= OP(K) b_expr(E). [OP]                     { A = ab_unary(ctx, ATTU_UNOP_OTHER, E, &K); }
b_expr(A) ::= CONCAT(K) b_expr(E). [OP]                 { A = ab_unary(ctx, ATTU_UNOP_OTHER, E, &K); }
b_expr(A) ::= b_expr(L) IS(K) DISTINCT FROM b_expr(R). [IS]      { A = ab_binary(ctx, ATTU_BINOP_IS_DISTINCT, L, R, &K); }
b_expr(A) ::= b_expr(L) IS(K) NOT DISTINCT FROM b_expr(R). [IS]  { A = ab_binary(ctx, ATTU_BINOP_IS_NOT_DISTINCT, L, R, &K); }

/* c_expr: primaries. */
c_expr(A) ::= columnref(E).                     { A = E; }
c_expr(A) ::= aexpr_const(E).                   { A = E; }
c_expr(A) ::= PARAM(T).                         { A = ab_param(ctx, &T); }
c_expr(A) ::= LP a_expr(E) RP.                  { A = E; }
/* (row).field: a column of a row value (PostgreSQL's field selection),
 * bound as a call of " field" (planner/row_value.c) */
c_expr(A) ::= LP a_expr(E) RP DOT(K) attr_name(N).
    { A = ab_func2(ctx, " field", E, ab_literal_text(ctx, ATTU_LIT_STRING, ab_tokstr(&N), N.pos), K.pos); }
/* (row).*: its columns, expanded in the select list (planner/binder.c) */
c_expr(A) ::= LP a_expr(E) RP DOT(K) STAR.
    { A = ab_func1(ctx, " fields", E, K.pos); }
c_expr(A) ::= case_expr(E).                     { A = E; }
c_expr(A) ::= func_expr(E).                     { A = E; }
c_expr(A) ::= select_with_parens(Q). [UMINUS]   { A = ab_subquery(ctx, ATTU_EXPR_SUBQUERY, Q, Q->paren_position); }
c_expr(A) ::= EXISTS(K) select_with_parens(Q).  { A = ab_subquery(ctx, ATTU_EXPR_EXISTS, Q, K.pos); }
/* ARRAY[...]: a call of " array" (a name no query can write), which the
 * binder builds the array of (planner/array_bind.c); ARRAY(SELECT ...) is
 * not supported. */
c_expr(A) ::= ARRAY(K) LBRACKET expr_list(L) RBRACKET.  { A = ab_func(ctx, NULL, " array", L, K.pos); }
c_expr(A) ::= ARRAY(K) LBRACKET RBRACKET.               { A = ab_func(ctx, NULL, " array", NULL, K.pos); }
/* ARRAY[[1, 2], [3, 4]]: the inner brackets are ARRAY[1, 2], ARRAY[3, 4] */
c_expr(A) ::= ARRAY(K) LBRACKET array_expr_list(L) RBRACKET.  { A = ab_func(ctx, NULL, " array", L, K.pos); }
%type array_expr {attu_ast_expr *}
array_expr(A) ::= LBRACKET(K) expr_list(L) RBRACKET.        { A = ab_func(ctx, NULL, " array", L, K.pos); }
array_expr(A) ::= LBRACKET(K) array_expr_list(L) RBRACKET.  { A = ab_func(ctx, NULL, " array", L, K.pos); }
array_expr(A) ::= LBRACKET(K) RBRACKET.                     { A = ab_func(ctx, NULL, " array", NULL, K.pos); }
%type array_expr_list {attu_vec *}
array_expr_list(A) ::= array_expr(E).                          { A = vec_push_ptr(ctx, NULL, E); }
array_expr_list(A) ::= array_expr_list(L) COMMA array_expr(E). { A = vec_push_ptr(ctx, L, E); }
/* a[i] and a[i:j] (either bound may be left out): calls of " subscript"
 * and " slice", a left-out bound a call of " omitted". As PostgreSQL's
 * indirection, after a column, a parameter or a parenthesised expression
 * only (f(x)[1] is a syntax error), and after another subscript. */
c_expr(A) ::= subscripted(E).                   { A = E; }
%type subscript_base {attu_ast_expr *}
subscript_base(A) ::= columnref(E).             { A = E; }
subscript_base(A) ::= PARAM(T).                 { A = ab_param(ctx, &T); }
subscript_base(A) ::= LP a_expr(E) RP.          { A = E; }
subscript_base(A) ::= subscripted(E).           { A = E; }
%type subscripted {attu_ast_expr *}
subscripted(A) ::= subscript_base(E) LBRACKET(K) a_expr(I) RBRACKET.  { A = ab_func2(ctx, " subscript", E, I, K.pos); }
subscripted(A) ::= subscript_base(E) LBRACKET(K) slice_bound(L) COLON slice_bound(H) RBRACKET.
    { A = ab_func3(ctx, " slice", E, L, H, K.pos); }
%type slice_bound {attu_ast_expr *}
slice_bound(A) ::= a_expr(E).   { A = E; }
slice_bound(A) ::= .            { A = ab_func0(ctx, " omitted", 0); }
/* ARRAY(SELECT x ...): (SELECT array_agg(" array"." elem") FROM (query) AS
 * " array"(" elem")), the rows in the query's order, in a call of
 * " array_query" whose binding gives '{}' for no rows (planner/array_bind.c) */
c_expr(A) ::= ARRAY(K) select_with_parens(Q).
{
    if (Q->kind == ATTU_QUERY_SELECT && (Q->u.select.nitems != 1 || Q->u.select.items[0].expr->kind == ATTU_EXPR_STAR))
        ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, K.pos, "subquery must return only one column");
    attu_ast_from *f = ab_alloc(ctx, sizeof *f);
    f->kind = ATTU_FROM_SUBQUERY;
    f->position = Q->paren_position;
    f->u.subquery.query = Q;
    f->alias = " array";
    f->column_aliases.items = ab_alloc(ctx, sizeof(char *));
    f->column_aliases.positions = ab_alloc(ctx, sizeof(int));
    f->column_aliases.items[0] = " elem";
    f->column_aliases.positions[0] = K.pos;
    f->column_aliases.n = 1;
    ab_from_finish(ctx, f);
    attu_ast_query *outer = ab_query(ctx, ATTU_QUERY_SELECT, K.pos);
    attu_ast_select_item it = { ab_func1(ctx, "array_agg", ab_column(ctx, " array", " elem", K.pos), K.pos), NULL, 0 };
    attu_vec items = {0}, from = {0};
    ab_vec_push(ctx, &items, &it, sizeof it);
    ab_vec_push(ctx, &from, &f, sizeof f);
    outer->u.select.items = items.items;
    outer->u.select.nitems = items.n;
    outer->u.select.from.items = from.items;
    outer->u.select.from.n = from.n;
    ab_query_finish(ctx, outer);
    A = ab_func1(ctx, " array_query", ab_subquery(ctx, ATTU_EXPR_SUBQUERY, outer, K.pos), K.pos);
}
/* Row constructors arrive as a call of "row" (the binder decides). */
c_expr(A) ::= ROW(K) LP expr_list(L) RP.        { A = ab_func(ctx, NULL, "row", L, K.pos); }
c_expr(A) ::= ROW(K) LP RP.                     { A = ab_func(ctx, NULL, "row", NULL, K.pos); }
c_expr(A) ::= LP(K) expr_list(L) COMMA a_expr(E) RP.
    { vec_push_ptr(ctx, L, E); A = ab_func(ctx, NULL, "row", L, K.pos); }

%type columnref {attu_ast_expr *}
columnref(A) ::= colid(N).                      { A = ab_column(ctx, NULL, ab_tokstr(&N), N.pos); }
columnref(A) ::= colid(Q) DOT attr_name(N).     { A = ab_column(ctx, ab_tokstr(&Q), ab_tokstr(&N), Q.pos); }
columnref(A) ::= colid(Q) DOT STAR.             { A = ab_star(ctx, ab_tokstr(&Q), Q.pos); }
columnref(A) ::= colid(S) DOT attr_name(Q) DOT attr_name(N).
{
    A = ab_column(ctx, ab_tokstr(&Q), ab_tokstr(&N), S.pos);
    ab_defer_error(ctx, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, S.pos,
                   "schema-qualified column references are not supported: %s.%s.%s",
                   ab_tokstr(&S), ab_tokstr(&Q), ab_tokstr(&N));
}

%type aexpr_const {attu_ast_expr *}
aexpr_const(A) ::= ICONST(T).       { A = ab_literal(ctx, ATTU_LIT_INTEGER, &T); }
aexpr_const(A) ::= FCONST(T).       { A = ab_literal(ctx, ATTU_LIT_NUMERIC, &T); }
aexpr_const(A) ::= SCONST(T).       { A = ab_literal(ctx, ATTU_LIT_STRING, &T); }
aexpr_const(A) ::= TRUE(T).         { A = ab_literal_text(ctx, ATTU_LIT_BOOL, "true", T.pos); }
aexpr_const(A) ::= FALSE(T).        { A = ab_literal_text(ctx, ATTU_LIT_BOOL, "false", T.pos); }
aexpr_const(A) ::= NULL(T).         { A = ab_literal_text(ctx, ATTU_LIT_NULL, "null", T.pos); }
/* Typed literals: DATE '2020-01-01', TIMESTAMP '...', INTERVAL '1 day',
 * INTEGER '5', ... (PostgreSQL: func_name Sconst, ConstTypename Sconst). */
aexpr_const(A) ::= const_typename(T) SCONST(S).
{
    attu_ast_expr *lit = ab_literal(ctx, ATTU_LIT_STRING, &S);
    A = ab_cast(ctx, lit, &T, ATTU_CAST_PREFIX, T.position);
}
/* INTERVAL '1 day 2 hours' DAY TO HOUR */
aexpr_const(A) ::= const_typename(T) SCONST(S) interval_qual(Q).
{
    attu_ast_expr *lit = ab_literal(ctx, ATTU_LIT_STRING, &S);
    attu_ast_typename t = Q;
    t.name = "interval";
    t.position = T.position;
    if (strcmp(T.name, "interval") != 0 || T.ivrange || T.precision >= 0) {
        ab_error(ctx, ATTU_SQLSTATE_SYNTAX, S.pos, "syntax error at or near \"%.*s\"",
                 (int)S.len, ctx->sql + S.off);
        ctx->failed = true;
    }
    A = ab_cast(ctx, lit, &t, ATTU_CAST_PREFIX, T.position);
}

%type case_expr {attu_ast_expr *}
case_expr(A) ::= CASE(K) case_arg(O) when_clause_list(W) case_default(E) END.
    { A = ab_case(ctx, O, W, E, K.pos); }
%type case_arg {attu_ast_expr *}
case_arg(A) ::= a_expr(E).  { A = E; }
case_arg(A) ::= .           { A = NULL; }
%type when_clause_list {attu_vec *}
when_clause_list(A) ::= when_clause(W).                     { A = vec_new(ctx); ab_vec_push(ctx, A, &W, sizeof W); }
when_clause_list(A) ::= when_clause_list(L) when_clause(W). { A = L; ab_vec_push(ctx, A, &W, sizeof W); }
%type when_clause {attu_ast_case_when}
when_clause(A) ::= WHEN a_expr(C) THEN a_expr(R).   { A.when = C; A.then = R; }
%type case_default {attu_ast_expr *}
case_default(A) ::= ELSE a_expr(E). { A = E; }
case_default(A) ::= .               { A = NULL; }

/* Function calls */
%type func_expr {attu_ast_expr *}
%type func_application {attu_ast_expr *}
func_expr(A) ::= func_application(F) within_group_clause(G) filter_clause(W) over_clause(O).
{
    A = F;
    if (G.list) {
        /* agg(direct args) WITHIN GROUP (ORDER BY x): the ordered-set
         * aggregates; the sort list takes order_by's place (as gram.y) */
        if (A->u.func.order_by.n)
            ab_error(ctx, ATTU_SQLSTATE_SYNTAX, G.pos, "cannot use multiple ORDER BY clauses with WITHIN GROUP");
        else if (A->u.func.distinct)
            ab_error(ctx, ATTU_SQLSTATE_SYNTAX, G.pos, "cannot use DISTINCT with WITHIN GROUP");
        A->u.func.order_by = ab_order_list(G.list);
        A->u.func.within_group = true;
    }
    A->u.func.filter = W;
    A->u.func.over = O;
    ab_expr_finish(ctx, A);
}
func_expr(A) ::= func_expr_common(F).   { A = F; }

func_application(A) ::= func_name(N) LP RP.
    { A = ab_func(ctx, N.schema, N.name, NULL, N.pos); }
func_application(A) ::= func_name(N) LP func_arg_list(L) opt_sort_clause(O) RP.
    { A = ab_func(ctx, N.schema, N.name, L, N.pos); A->u.func.order_by = ab_order_list(O); }
func_application(A) ::= func_name(N) LP ALL func_arg_list(L) opt_sort_clause(O) RP.
    { A = ab_func(ctx, N.schema, N.name, L, N.pos); A->u.func.order_by = ab_order_list(O); }
func_application(A) ::= func_name(N) LP DISTINCT func_arg_list(L) opt_sort_clause(O) RP.
{
    A = ab_func(ctx, N.schema, N.name, L, N.pos);
    A->u.func.distinct = true;
    A->u.func.order_by = ab_order_list(O);
}
/* f([a, ...,] VARIADIC arr): arr is the array of the variadic parameter's
 * arguments (the last one; the binder takes it for format only) */
func_application(A) ::= func_name(N) LP VARIADIC func_arg_expr(E) opt_sort_clause(O) RP.
{
    A = ab_func(ctx, N.schema, N.name, vec_push_ptr(ctx, NULL, E), N.pos);
    A->u.func.order_by = ab_order_list(O);
    A->u.func.variadic = true;
}
func_application(A) ::= func_name(N) LP func_arg_list(L) COMMA VARIADIC func_arg_expr(E) opt_sort_clause(O) RP.
{
    A = ab_func(ctx, N.schema, N.name, vec_push_ptr(ctx, L, E), N.pos);
    A->u.func.order_by = ab_order_list(O);
    A->u.func.variadic = true;
}
func_application(A) ::= func_name(N) LP STAR RP.
    { A = ab_func(ctx, N.schema, N.name, NULL, N.pos); A->u.func.star = true; }

%type func_arg_list {attu_vec *}
func_arg_list(A) ::= func_arg_expr(E).                         { A = vec_push_ptr(ctx, NULL, E); }
func_arg_list(A) ::= func_arg_list(L) COMMA func_arg_expr(E).
{
    attu_ast_expr *last = ((attu_ast_expr **)L->items)[L->n - 1];
    if (last->arg_name && !E->arg_name)
        ab_error(ctx, ATTU_SQLSTATE_SYNTAX, E->position, "positional argument cannot follow named argument");
    A = vec_push_ptr(ctx, L, E);
}

/* an argument in named notation: name => value, name := value */
%type func_arg_expr {attu_ast_expr *}
func_arg_expr(A) ::= a_expr(E).                                         { A = E; }
func_arg_expr(A) ::= type_function_name(N) EQUALS_GREATER a_expr(E).   { A = E; A->arg_name = (char *)ab_tokstr(&N); }
func_arg_expr(A) ::= type_function_name(N) COLON_EQUALS a_expr(E).     { A = E; A->arg_name = (char *)ab_tokstr(&N); }

%type func_name {ab_qname}
func_name(A) ::= type_function_name(N).     { A.schema = NULL; A.name = ab_tokstr(&N); A.pos = N.pos; }
func_name(A) ::= colid(S) DOT attr_name(N).
    { A.schema = ab_tokstr(&S); A.name = ab_tokstr(&N); A.pos = S.pos; schema_must_exist(ctx, A.schema, S.pos); }


/* WITHIN GROUP (ORDER BY ...); list NULL when absent. */
%include { typedef struct ab_within { attu_vec *list; int pos; } ab_within; }
%type within_group_clause {ab_within}
within_group_clause(A) ::= WITHIN(K) GROUP LP sort_clause(L) RP.    { A.list = L; A.pos = K.pos; }
within_group_clause(A) ::= .                                         { A.list = NULL; A.pos = 0; }

%type filter_clause {attu_ast_expr *}
filter_clause(A) ::= FILTER LP WHERE a_expr(E) RP.  { A = E; }
filter_clause(A) ::= .                              { A = NULL; }

%type over_clause {attu_ast_window *}
over_clause(A) ::= OVER(K) LP(L) opt_existing_window_name(N) opt_partition_clause(P) opt_sort_clause(O) opt_frame_clause(F) RP.
{
    A = ab_alloc(ctx, sizeof *A);
    A->position = K.pos;
    A->partition_by = ab_expr_list(P);
    A->order_by = ab_order_list(O);
    A->frame_mode = F.frame_mode;
    A->frame_start = F.frame_start;
    A->frame_exclude = F.frame_exclude;
    A->frame_end = F.frame_end;
    if (N.str) ab_window_ref(ctx, A, ab_tokstr(&N), L.pos, false);
}
over_clause(A) ::= OVER(K) colid(N).
{
    A = ab_alloc(ctx, sizeof *A);
    A->position = K.pos;
    ab_window_ref(ctx, A, ab_tokstr(&N), N.pos, true);
}
over_clause(A) ::= .    { A = NULL; }

/* OVER (w ...): a window of the WINDOW clause to start from. The empty
 * alternative wins over PARTITION / RANGE / ROWS as in PostgreSQL. */
opt_existing_window_name(A) ::= colid(N).   { A = N; }
opt_existing_window_name(A) ::= . [OP]      { memset(&A, 0, sizeof A); }

/* WINDOW w AS (...), ... */
%type window_clause {attu_vec *}
window_clause(A) ::= WINDOW window_def_list(L).     { A = L; }
window_clause(A) ::= .                              { A = NULL; }
%type window_def_list {attu_vec *}
window_def_list(A) ::= window_def(W).                           { A = vec_push_ptr(ctx, NULL, W); }
window_def_list(A) ::= window_def_list(L) COMMA window_def(W).  { A = vec_push_ptr(ctx, L, W); }
%type window_def {attu_ast_window *}
window_def(A) ::= colid(N) AS LP(L) opt_existing_window_name(R) opt_partition_clause(P) opt_sort_clause(O) opt_frame_clause(F) RP.
{
    A = ab_alloc(ctx, sizeof *A);
    A->name = (char *)ab_tokstr(&N);
    A->position = L.pos;
    A->partition_by = ab_expr_list(P);
    A->order_by = ab_order_list(O);
    A->frame_mode = F.frame_mode;
    A->frame_start = F.frame_start;
    A->frame_exclude = F.frame_exclude;
    A->frame_end = F.frame_end;
    if (R.str) ab_window_ref(ctx, A, ab_tokstr(&R), L.pos, false);
}

%type opt_partition_clause {attu_vec *}
opt_partition_clause(A) ::= PARTITION BY expr_list(L).  { A = L; }
opt_partition_clause(A) ::= .                           { A = NULL; }

%type opt_frame_clause {attu_ast_window}
opt_frame_clause(A) ::= RANGE frame_extent(F) opt_window_exclusion(X).  { A = F; A.frame_mode = ATTU_FRAME_RANGE; A.frame_exclude = (int8_t)X; }
opt_frame_clause(A) ::= ROWS frame_extent(F) opt_window_exclusion(X).   { A = F; A.frame_mode = ATTU_FRAME_ROWS; A.frame_exclude = (int8_t)X; }
opt_frame_clause(A) ::= GROUPS frame_extent(F) opt_window_exclusion(X). { A = F; A.frame_mode = ATTU_FRAME_GROUPS; A.frame_exclude = (int8_t)X; }
opt_frame_clause(A) ::= .                       { memset(&A, 0, sizeof A); A.frame_mode = ATTU_FRAME_DEFAULT; }

%type opt_window_exclusion {int}
opt_window_exclusion(A) ::= EXCLUDE CURRENT ROW.  { A = 1; }
opt_window_exclusion(A) ::= EXCLUDE GROUP.        { A = 2; }
opt_window_exclusion(A) ::= EXCLUDE TIES.         { A = 3; }
opt_window_exclusion(A) ::= EXCLUDE NO OTHERS.    { A = 0; }
opt_window_exclusion(A) ::= .                     { A = 0; }

%type frame_extent {attu_ast_window}
frame_extent(A) ::= frame_bound(S).
{
    memset(&A, 0, sizeof A);
    A.frame_start = S;
    A.frame_end.kind = ATTU_BOUND_CURRENT_ROW;
}
frame_extent(A) ::= BETWEEN frame_bound(S) AND frame_bound(E).
{
    memset(&A, 0, sizeof A);
    A.frame_start = S;
    A.frame_end = E;
}

%type frame_bound {attu_ast_frame_bound}
frame_bound(A) ::= UNBOUNDED PRECEDING.     { A.kind = ATTU_BOUND_UNBOUNDED_PRECEDING; A.offset = NULL; }
frame_bound(A) ::= UNBOUNDED FOLLOWING.     { A.kind = ATTU_BOUND_UNBOUNDED_FOLLOWING; A.offset = NULL; }
frame_bound(A) ::= CURRENT ROW.             { A.kind = ATTU_BOUND_CURRENT_ROW; A.offset = NULL; }
frame_bound(A) ::= a_expr(E) PRECEDING.     { A.kind = ATTU_BOUND_PRECEDING; A.offset = E; }
frame_bound(A) ::= a_expr(E) FOLLOWING.     { A.kind = ATTU_BOUND_FOLLOWING; A.offset = E; }

/* Special function syntaxes (PostgreSQL's func_expr_common_subexpr). */
%type func_expr_common {attu_ast_expr *}
func_expr_common(A) ::= CAST(K) LP a_expr(E) AS typename(T) RP.
    { A = ab_cast(ctx, E, &T, ATTU_CAST_FUNCTION, K.pos); }
func_expr_common(A) ::= EXTRACT(K) LP extract_arg(F) FROM a_expr(E) RP.
    { A = ab_extract(ctx, F, E, K.pos); }
/* GROUPING(a, ...): grouping is a column name keyword (COLNAME_OTHER) */
func_expr_common(A) ::= COLNAME_OTHER(K) LP expr_list(L) RP.
    { ab_word_expect(ctx, &K, "grouping"); A = ab_func(ctx, NULL, "grouping", L, K.pos); }
func_expr_common(A) ::= COALESCE(K) LP expr_list(L) RP.
    { A = ab_func(ctx, NULL, "coalesce", L, K.pos); }
func_expr_common(A) ::= GREATEST(K) LP expr_list(L) RP.
    { A = ab_func(ctx, NULL, "greatest", L, K.pos); }
func_expr_common(A) ::= LEAST(K) LP expr_list(L) RP.
    { A = ab_func(ctx, NULL, "least", L, K.pos); }
func_expr_common(A) ::= NULLIF(K) LP a_expr(X) COMMA a_expr(Y) RP.
    { A = ab_func2(ctx, "nullif", X, Y, K.pos); }
func_expr_common(A) ::= POSITION(K) LP b_expr(N) IN b_expr(H) RP.
    { A = ab_func2(ctx, "position", H, N, K.pos); }
func_expr_common(A) ::= SUBSTRING(K) LP a_expr(S) FROM a_expr(F) FOR a_expr(N) RP.
    { A = ab_func3(ctx, "substring", S, F, N, K.pos); }
func_expr_common(A) ::= SUBSTRING(K) LP a_expr(S) FOR a_expr(N) FROM a_expr(F) RP.
    { A = ab_func3(ctx, "substring", S, F, N, K.pos); }
func_expr_common(A) ::= SUBSTRING(K) LP a_expr(S) FROM a_expr(F) RP.
    { A = ab_func2(ctx, "substring", S, F, K.pos); }
func_expr_common(A) ::= SUBSTRING(K) LP a_expr(S) FOR a_expr(N) RP.
{
    attu_ast_expr *one = ab_literal_text(ctx, ATTU_LIT_INTEGER, "1", K.pos);
    A = ab_func3(ctx, "substring", S, one, N, K.pos);
}
func_expr_common(A) ::= OVERLAY(K) LP a_expr(S) PLACING a_expr(P) FROM a_expr(F) FOR a_expr(N) RP.
{
    attu_vec *l = vec_push_ptr(ctx, vec_push_ptr(ctx, vec_push_ptr(ctx, NULL, S), P), F);
    A = ab_func(ctx, NULL, "overlay", vec_push_ptr(ctx, l, N), K.pos);
}
func_expr_common(A) ::= OVERLAY(K) LP a_expr(S) PLACING a_expr(P) FROM a_expr(F) RP.
    { A = ab_func3(ctx, "overlay", S, P, F, K.pos); }
func_expr_common(A) ::= OVERLAY(K) LP func_arg_list(L) RP.
    { A = ab_func(ctx, NULL, "overlay", L, K.pos); }
func_expr_common(A) ::= OVERLAY(K) LP RP.
    { A = ab_func(ctx, NULL, "overlay", NULL, K.pos); }
/* SQL's SIMILAR form: substring(s, pattern, escape) */
func_expr_common(A) ::= SUBSTRING(K) LP a_expr(S) SIMILAR a_expr(P) ESCAPE a_expr(E) RP.
    { A = ab_func3(ctx, "substring", S, P, E, K.pos); }
func_expr_common(A) ::= SUBSTRING(K) LP func_arg_list(L) RP.
    { A = ab_func(ctx, NULL, "substring", L, K.pos); }
func_expr_common(A) ::= SUBSTRING(K) LP RP.
    { A = ab_func(ctx, NULL, "substring", NULL, K.pos); }
func_expr_common(A) ::= TRIM(K) LP BOTH trim_list(L) RP.      { A = ab_func(ctx, NULL, "btrim", L, K.pos); }
func_expr_common(A) ::= TRIM(K) LP LEADING trim_list(L) RP.   { A = ab_func(ctx, NULL, "ltrim", L, K.pos); }
func_expr_common(A) ::= TRIM(K) LP TRAILING trim_list(L) RP.  { A = ab_func(ctx, NULL, "rtrim", L, K.pos); }
func_expr_common(A) ::= TRIM(K) LP trim_list(L) RP.           { A = ab_func(ctx, NULL, "btrim", L, K.pos); }
func_expr_common(A) ::= CURRENT_DATE(K).        { A = ab_func0(ctx, "current_date", K.pos); }
/* current_user, session_user, current_role, current_catalog and USER,
 * PostgreSQL's SQL-standard value functions without parentheses: calls of
 * the catalog functions of those names (planner/catalog_functions.c); any
 * other reserved word here is the syntax error PostgreSQL gives */
func_expr_common(A) ::= USER(K).                { A = ab_func0(ctx, "user", K.pos); }
func_expr_common(A) ::= RESERVED_BARE(K).
{
    const char *w = ab_tokstr(&K);
    if (strcmp(w, "current_user") && strcmp(w, "session_user") && strcmp(w, "current_role") &&
        strcmp(w, "current_catalog"))
        ab_error(ctx, ATTU_SQLSTATE_SYNTAX, K.pos, "syntax error at or near \"%.*s\"", (int)K.len, ctx->sql + K.off);
    A = ab_func0(ctx, w, K.pos);   /* named as written, as PostgreSQL names the column */
}
func_expr_common(A) ::= CURRENT_TIMESTAMP(K).   { A = ab_func0(ctx, "current_timestamp", K.pos); }
func_expr_common(A) ::= CURRENT_TIMESTAMP(K) LP ICONST(P) RP.
    { A = ab_func1(ctx, "current_timestamp", ab_literal(ctx, ATTU_LIT_INTEGER, &P), K.pos); }
func_expr_common(A) ::= CURRENT_TIME(K).        { A = ab_func0(ctx, "current_time", K.pos); }
func_expr_common(A) ::= LOCALTIMESTAMP(K).      { A = ab_func0(ctx, "localtimestamp", K.pos); }
func_expr_common(A) ::= LOCALTIME(K).           { A = ab_func0(ctx, "localtime", K.pos); }
func_expr_common(A) ::= LOCALTIME(K) LP ICONST(P) RP.
    { A = ab_func1(ctx, "localtime", ab_literal(ctx, ATTU_LIT_INTEGER, &P), K.pos); }
func_expr_common(A) ::= CURRENT_TIME(K) LP ICONST(P) RP.
    { A = ab_func1(ctx, "current_time", ab_literal(ctx, ATTU_LIT_INTEGER, &P), K.pos); }

%type extract_arg {const char *}
extract_arg(A) ::= ID(T).       { A = ab_tokstr(&T); }
extract_arg(A) ::= NOBARE_ID(T). { A = ab_tokstr(&T); }
extract_arg(A) ::= SCONST(T).   { A = ab_strndup(ctx, T.str, T.slen); }

/* TRIM: a_expr FROM list -> (list..., a_expr); FROM list; list. */
%type trim_list {attu_vec *}
trim_list(A) ::= a_expr(C) FROM expr_list(L).   { A = vec_push_ptr(ctx, L, C); }
trim_list(A) ::= FROM expr_list(L).             { A = L; }
trim_list(A) ::= expr_list(L).                  { A = L; }

%type expr_list {attu_vec *}
expr_list(A) ::= a_expr(E).                         { A = vec_push_ptr(ctx, NULL, E); }
expr_list(A) ::= expr_list(L) COMMA a_expr(E).      { A = vec_push_ptr(ctx, L, E); }

/* ======================================================================== */
/* Names and types                                                          */

/* Keyword classes, as PostgreSQL 15's (pg_get_keywords()): which words may
 * be a column or table name (colid), a function or type name
 * (type_function_name), an alias after AS or an option name (col_label),
 * an alias without AS (bare_label). Words PostgreSQL reserves but attu's
 * grammar does not use arrive as RESERVED_* / TYPEFUNC_* / COLNAME_OTHER
 * tokens; NOBARE_ID is day, hour, minute, month, second, year (and WITHIN, its own
 * token for WITHIN GROUP, is of that class too). */
colid(A) ::= ID(T).                     { A = T; }
colid(A) ::= unreserved_keyword(T).     { A = T; }
colid(A) ::= col_name_keyword(T).       { A = T; }

type_function_name(A) ::= ID(T).                    { A = T; }
type_function_name(A) ::= unreserved_keyword(T).    { A = T; }
type_function_name(A) ::= type_func_name_keyword(T). { A = T; }

non_reserved_word(A) ::= ID(T).                     { A = T; }
non_reserved_word(A) ::= unreserved_keyword(T).     { A = T; }
non_reserved_word(A) ::= col_name_keyword(T).       { A = T; }
non_reserved_word(A) ::= type_func_name_keyword(T). { A = T; }

attr_name(A) ::= col_label(T).          { A = T; }

col_label(A) ::= non_reserved_word(T).  { A = T; }
col_label(A) ::= reserved_keyword(T).   { A = T; }

bare_label(A) ::= ID(T).                { A = T; }
bare_label(A) ::= ABORT(T).                 { A = T; }
bare_label(A) ::= AT(T).                    { A = T; }
bare_label(A) ::= BEGIN(T).                 { A = T; }
bare_label(A) ::= BY(T).                    { A = T; }
bare_label(A) ::= CASCADE(T).               { A = T; }
bare_label(A) ::= CHAIN(T).                 { A = T; }
bare_label(A) ::= CHARACTERISTICS(T).       { A = T; }
bare_label(A) ::= COMMIT(T).                { A = T; }
bare_label(A) ::= COMMITTED(T).             { A = T; }
bare_label(A) ::= COPY(T).                  { A = T; }
bare_label(A) ::= CSV(T).                   { A = T; }
bare_label(A) ::= CURRENT(T).               { A = T; }
bare_label(A) ::= DATA(T).                  { A = T; }
bare_label(A) ::= DELIMITER(T).             { A = T; }
bare_label(A) ::= DESCRIBE(T).              { A = T; }
bare_label(A) ::= DEALLOCATE(T).            { A = T; }
bare_label(A) ::= DISCARD(T).               { A = T; }
bare_label(A) ::= LISTEN(T).                { A = T; }
bare_label(A) ::= UNLISTEN(T).              { A = T; }
bare_label(A) ::= NOTIFY(T).                { A = T; }
bare_label(A) ::= SEQUENCE(T).              { A = T; }
bare_label(A) ::= GENERATED(T).             { A = T; }
bare_label(A) ::= OVERRIDING(T).            { A = T; }
bare_label(A) ::= RESTART(T).               { A = T; }
bare_label(A) ::= CONTINUE(T).              { A = T; }
bare_label(A) ::= PREPARE(T).               { A = T; }
bare_label(A) ::= EXECUTE(T).               { A = T; }
bare_label(A) ::= PLANS(T).                 { A = T; }
bare_label(A) ::= SEQUENCES(T).             { A = T; }
bare_label(A) ::= DOUBLE(T).                { A = T; }
bare_label(A) ::= DROP(T).                  { A = T; }
bare_label(A) ::= ALTER(T).                 { A = T; }
bare_label(A) ::= ADD(T).                   { A = T; }
bare_label(A) ::= RENAME(T).                { A = T; }
bare_label(A) ::= TYPE(T).                  { A = T; }
bare_label(A) ::= DOMAIN(T).                { A = T; }
bare_label(A) ::= COLUMN(T).                { A = T; }
bare_label(A) ::= ENCODING(T).              { A = T; }
bare_label(A) ::= ESCAPE(T).                { A = T; }
bare_label(A) ::= EXPLAIN(T).               { A = T; }
bare_label(A) ::= FIRST(T).                 { A = T; }
bare_label(A) ::= FOLLOWING(T).             { A = T; }
bare_label(A) ::= HEADER(T).                { A = T; }
bare_label(A) ::= IF(T).                    { A = T; }
bare_label(A) ::= INSERT(T).                { A = T; }
bare_label(A) ::= ISOLATION(T).             { A = T; }
bare_label(A) ::= LAST(T).                  { A = T; }
bare_label(A) ::= LEVEL(T).                 { A = T; }
bare_label(A) ::= LOCAL(T).                 { A = T; }
bare_label(A) ::= NAMES(T).                 { A = T; }
bare_label(A) ::= NEXT(T).                  { A = T; }
bare_label(A) ::= NO(T).                    { A = T; }
bare_label(A) ::= NULLS(T).                 { A = T; }
bare_label(A) ::= PARTITION(T).             { A = T; }
bare_label(A) ::= PRECEDING(T).             { A = T; }
bare_label(A) ::= QUOTE(T).                 { A = T; }
bare_label(A) ::= RANGE(T).                 { A = T; }
bare_label(A) ::= READ(T).                  { A = T; }
bare_label(A) ::= RECURSIVE(T).             { A = T; }
bare_label(A) ::= MATERIALIZED(T).          { A = T; }
bare_label(A) ::= REFRESH(T).               { A = T; }
bare_label(A) ::= MERGE(T).                 { A = T; }
bare_label(A) ::= SAVEPOINT(T).             { A = T; }
bare_label(A) ::= RELEASE(T).               { A = T; }
bare_label(A) ::= REPEATABLE(T).            { A = T; }
bare_label(A) ::= RESET(T).                 { A = T; }
bare_label(A) ::= COMMENT(T).               { A = T; }
bare_label(A) ::= RESTRICT(T).              { A = T; }
bare_label(A) ::= ROLLBACK(T).              { A = T; }
bare_label(A) ::= ROWS(T).                  { A = T; }
bare_label(A) ::= SERIALIZABLE(T).          { A = T; }
bare_label(A) ::= SESSION(T).               { A = T; }
bare_label(A) ::= SET(T).                   { A = T; }
bare_label(A) ::= SHOW(T).                  { A = T; }
bare_label(A) ::= START(T).                 { A = T; }
bare_label(A) ::= STDIN(T).                 { A = T; }
bare_label(A) ::= STDOUT(T).                { A = T; }
bare_label(A) ::= TEMP(T).                  { A = T; }
bare_label(A) ::= TEMPORARY(T).             { A = T; }
bare_label(A) ::= TRANSACTION(T).           { A = T; }
bare_label(A) ::= UNBOUNDED(T).             { A = T; }
bare_label(A) ::= OTHERS(T).                   { A = T; }
bare_label(A) ::= TIES(T).                     { A = T; }
bare_label(A) ::= EXCLUDE(T).                  { A = T; }
bare_label(A) ::= GROUPS(T).                   { A = T; }
bare_label(A) ::= UNCOMMITTED(T).           { A = T; }
bare_label(A) ::= UNKNOWN(T).               { A = T; }
bare_label(A) ::= WORK(T).                  { A = T; }
bare_label(A) ::= DELETE(T).                { A = T; }
bare_label(A) ::= UPDATE(T).                { A = T; }
bare_label(A) ::= TRUNCATE(T).              { A = T; }
bare_label(A) ::= VIEW(T).                  { A = T; }
bare_label(A) ::= REPLACE(T).               { A = T; }
bare_label(A) ::= WRITE(T).                 { A = T; }
bare_label(A) ::= ZONE(T).                  { A = T; }
bare_label(A) ::= BETWEEN(T).               { A = T; }
bare_label(A) ::= BIGINT(T).                { A = T; }
bare_label(A) ::= BOOLEAN(T).               { A = T; }
bare_label(A) ::= COALESCE(T).              { A = T; }
bare_label(A) ::= DEC(T).                   { A = T; }
bare_label(A) ::= DECIMAL(T).               { A = T; }
bare_label(A) ::= EXISTS(T).                { A = T; }
bare_label(A) ::= EXTRACT(T).               { A = T; }
bare_label(A) ::= FLOAT(T).                 { A = T; }
bare_label(A) ::= GREATEST(T).              { A = T; }
bare_label(A) ::= INT(T).                   { A = T; }
bare_label(A) ::= INTEGER(T).               { A = T; }
bare_label(A) ::= INTERVAL(T).              { A = T; }
bare_label(A) ::= LEAST(T).                 { A = T; }
bare_label(A) ::= NULLIF(T).                { A = T; }
bare_label(A) ::= NUMERIC(T).               { A = T; }
bare_label(A) ::= POSITION(T).              { A = T; }
bare_label(A) ::= REAL(T).                  { A = T; }
bare_label(A) ::= ROW(T).                   { A = T; }
bare_label(A) ::= SMALLINT(T).              { A = T; }
bare_label(A) ::= SUBSTRING(T).             { A = T; }
bare_label(A) ::= OVERLAY(T).               { A = T; }
bare_label(A) ::= PLACING(T).               { A = T; }
bare_label(A) ::= TIME(T).                  { A = T; }
bare_label(A) ::= TIMESTAMP(T).             { A = T; }
bare_label(A) ::= TRIM(T).                  { A = T; }
bare_label(A) ::= VALUES(T).                { A = T; }
bare_label(A) ::= VARCHAR(T).               { A = T; }
bare_label(A) ::= COLNAME_OTHER(T).         { A = T; }
bare_label(A) ::= BINARY(T).                { A = T; }
bare_label(A) ::= CROSS(T).                 { A = T; }
bare_label(A) ::= FREEZE(T).                { A = T; }
bare_label(A) ::= FULL(T).                  { A = T; }
bare_label(A) ::= ILIKE(T).                 { A = T; }
bare_label(A) ::= INNER(T).                 { A = T; }
bare_label(A) ::= IS(T).                    { A = T; }
bare_label(A) ::= JOIN(T).                  { A = T; }
bare_label(A) ::= LEFT(T).                  { A = T; }
bare_label(A) ::= LIKE(T).                  { A = T; }
bare_label(A) ::= NATURAL(T).               { A = T; }
bare_label(A) ::= OUTER(T).                 { A = T; }
bare_label(A) ::= RIGHT(T).                 { A = T; }
bare_label(A) ::= SIMILAR(T).               { A = T; }
bare_label(A) ::= VERBOSE(T).               { A = T; }
bare_label(A) ::= TYPEFUNC_BARE(T).         { A = T; }
bare_label(A) ::= ALL(T).                   { A = T; }
bare_label(A) ::= ANALYZE(T).               { A = T; }
bare_label(A) ::= AND(T).                   { A = T; }
bare_label(A) ::= ANY(T).                   { A = T; }
bare_label(A) ::= ASC(T).                   { A = T; }
bare_label(A) ::= ASYMMETRIC(T).            { A = T; }
bare_label(A) ::= BOTH(T).                  { A = T; }
bare_label(A) ::= CASE(T).                  { A = T; }
bare_label(A) ::= COLLATE(T).               { A = T; }
bare_label(A) ::= CAST(T).                  { A = T; }
bare_label(A) ::= CHECK(T).                 { A = T; }
bare_label(A) ::= CURRENT_DATE(T).          { A = T; }
bare_label(A) ::= CURRENT_TIME(T).          { A = T; }
bare_label(A) ::= CURRENT_TIMESTAMP(T).     { A = T; }
bare_label(A) ::= DEFAULT(T).               { A = T; }
bare_label(A) ::= DEFERRABLE(T).            { A = T; }
bare_label(A) ::= DESC(T).                  { A = T; }
bare_label(A) ::= DISTINCT(T).              { A = T; }
bare_label(A) ::= VARIADIC(T).              { A = T; }
bare_label(A) ::= ELSE(T).                  { A = T; }
bare_label(A) ::= END(T).                   { A = T; }
bare_label(A) ::= FALSE(T).                 { A = T; }
bare_label(A) ::= IN(T).                    { A = T; }
bare_label(A) ::= LATERAL(T).               { A = T; }
bare_label(A) ::= LEADING(T).               { A = T; }
bare_label(A) ::= LOCALTIME(T).             { A = T; }
bare_label(A) ::= LOCALTIMESTAMP(T).        { A = T; }
bare_label(A) ::= NOT(T).                   { A = T; }
bare_label(A) ::= NULL(T).                  { A = T; }
bare_label(A) ::= ONLY(T).                  { A = T; }
bare_label(A) ::= OR(T).                    { A = T; }
bare_label(A) ::= PRIMARY(T).               { A = T; }
bare_label(A) ::= CONSTRAINT(T).            { A = T; }
bare_label(A) ::= INITIALLY(T).             { A = T; }
bare_label(A) ::= DO(T).                    { A = T; }
bare_label(A) ::= SELECT(T).                { A = T; }
bare_label(A) ::= SOME(T).                  { A = T; }
bare_label(A) ::= SYMMETRIC(T).             { A = T; }
bare_label(A) ::= TABLE(T).                 { A = T; }
bare_label(A) ::= THEN(T).                  { A = T; }
bare_label(A) ::= TRAILING(T).              { A = T; }
bare_label(A) ::= TRUE(T).                  { A = T; }
bare_label(A) ::= UNIQUE(T).                { A = T; }
bare_label(A) ::= USER(T).                  { A = T; }
bare_label(A) ::= USING(T).                 { A = T; }
bare_label(A) ::= WHEN(T).                  { A = T; }
bare_label(A) ::= RESERVED_BARE(T).         { A = T; }

unreserved_keyword(A) ::= ABORT(T).                 { A = T; }
unreserved_keyword(A) ::= AT(T).                    { A = T; }
unreserved_keyword(A) ::= BEGIN(T).                 { A = T; }
unreserved_keyword(A) ::= BY(T).                    { A = T; }
unreserved_keyword(A) ::= CASCADE(T).               { A = T; }
unreserved_keyword(A) ::= CHAIN(T).                 { A = T; }
unreserved_keyword(A) ::= CHARACTERISTICS(T).       { A = T; }
unreserved_keyword(A) ::= COMMIT(T).                { A = T; }
unreserved_keyword(A) ::= COMMITTED(T).             { A = T; }
unreserved_keyword(A) ::= COPY(T).                  { A = T; }
unreserved_keyword(A) ::= CSV(T).                   { A = T; }
unreserved_keyword(A) ::= CURRENT(T).               { A = T; }
unreserved_keyword(A) ::= DATA(T).                  { A = T; }
unreserved_keyword(A) ::= DELIMITER(T).             { A = T; }
unreserved_keyword(A) ::= DESCRIBE(T).              { A = T; }
unreserved_keyword(A) ::= DEALLOCATE(T).            { A = T; }
unreserved_keyword(A) ::= DISCARD(T).               { A = T; }
unreserved_keyword(A) ::= LISTEN(T).                { A = T; }
unreserved_keyword(A) ::= UNLISTEN(T).              { A = T; }
unreserved_keyword(A) ::= NOTIFY(T).                { A = T; }
unreserved_keyword(A) ::= PREPARE(T).               { A = T; }
unreserved_keyword(A) ::= EXECUTE(T).               { A = T; }
unreserved_keyword(A) ::= PLANS(T).                 { A = T; }
unreserved_keyword(A) ::= SEQUENCES(T).             { A = T; }
unreserved_keyword(A) ::= DOUBLE(T).                { A = T; }
unreserved_keyword(A) ::= DROP(T).                  { A = T; }
unreserved_keyword(A) ::= ALTER(T).                 { A = T; }
unreserved_keyword(A) ::= ADD(T).                   { A = T; }
unreserved_keyword(A) ::= RENAME(T).                { A = T; }
unreserved_keyword(A) ::= TYPE(T).                  { A = T; }
unreserved_keyword(A) ::= DOMAIN(T).                { A = T; }
unreserved_keyword(A) ::= ENCODING(T).              { A = T; }
unreserved_keyword(A) ::= ESCAPE(T).                { A = T; }
unreserved_keyword(A) ::= EXPLAIN(T).               { A = T; }
unreserved_keyword(A) ::= FIRST(T).                 { A = T; }
unreserved_keyword(A) ::= FOLLOWING(T).             { A = T; }
unreserved_keyword(A) ::= HEADER(T).                { A = T; }
unreserved_keyword(A) ::= IF(T).                    { A = T; }
unreserved_keyword(A) ::= INSERT(T).                { A = T; }
unreserved_keyword(A) ::= ISOLATION(T).             { A = T; }
unreserved_keyword(A) ::= LAST(T).                  { A = T; }
unreserved_keyword(A) ::= LEVEL(T).                 { A = T; }
unreserved_keyword(A) ::= LOCAL(T).                 { A = T; }
unreserved_keyword(A) ::= NAMES(T).                 { A = T; }
unreserved_keyword(A) ::= NEXT(T).                  { A = T; }
unreserved_keyword(A) ::= NO(T).                    { A = T; }
unreserved_keyword(A) ::= NULLS(T).                 { A = T; }
unreserved_keyword(A) ::= PARTITION(T).             { A = T; }
unreserved_keyword(A) ::= PRECEDING(T).             { A = T; }
unreserved_keyword(A) ::= QUOTE(T).                 { A = T; }
unreserved_keyword(A) ::= RANGE(T).                 { A = T; }
unreserved_keyword(A) ::= READ(T).                  { A = T; }
unreserved_keyword(A) ::= RECURSIVE(T).             { A = T; }
unreserved_keyword(A) ::= MATERIALIZED(T).          { A = T; }
unreserved_keyword(A) ::= REFRESH(T).               { A = T; }
unreserved_keyword(A) ::= MERGE(T).                 { A = T; }
unreserved_keyword(A) ::= SAVEPOINT(T).             { A = T; }
unreserved_keyword(A) ::= RELEASE(T).               { A = T; }
unreserved_keyword(A) ::= REPEATABLE(T).            { A = T; }
unreserved_keyword(A) ::= RESET(T).                 { A = T; }
unreserved_keyword(A) ::= COMMENT(T).               { A = T; }
unreserved_keyword(A) ::= RESTRICT(T).              { A = T; }
unreserved_keyword(A) ::= ROLLBACK(T).              { A = T; }
unreserved_keyword(A) ::= ROWS(T).                  { A = T; }
unreserved_keyword(A) ::= SERIALIZABLE(T).          { A = T; }
unreserved_keyword(A) ::= SESSION(T).               { A = T; }
unreserved_keyword(A) ::= SET(T).                   { A = T; }
unreserved_keyword(A) ::= SHOW(T).                  { A = T; }
unreserved_keyword(A) ::= START(T).                 { A = T; }
unreserved_keyword(A) ::= STDIN(T).                 { A = T; }
unreserved_keyword(A) ::= STDOUT(T).                { A = T; }
unreserved_keyword(A) ::= TEMP(T).                  { A = T; }
unreserved_keyword(A) ::= TEMPORARY(T).             { A = T; }
unreserved_keyword(A) ::= TRANSACTION(T).           { A = T; }
unreserved_keyword(A) ::= UNBOUNDED(T).             { A = T; }
unreserved_keyword(A) ::= OTHERS(T).                   { A = T; }
unreserved_keyword(A) ::= ORDINALITY(T).               { A = T; }
unreserved_keyword(A) ::= SEQUENCE(T).                 { A = T; }
unreserved_keyword(A) ::= GENERATED(T).                { A = T; }
unreserved_keyword(A) ::= OVERRIDING(T).               { A = T; }
unreserved_keyword(A) ::= RESTART(T).                  { A = T; }
unreserved_keyword(A) ::= CONTINUE(T).                 { A = T; }
unreserved_keyword(A) ::= TIES(T).                     { A = T; }
unreserved_keyword(A) ::= EXCLUDE(T).                  { A = T; }
unreserved_keyword(A) ::= GROUPS(T).                   { A = T; }
unreserved_keyword(A) ::= UNCOMMITTED(T).           { A = T; }
unreserved_keyword(A) ::= UNKNOWN(T).               { A = T; }
unreserved_keyword(A) ::= WORK(T).                  { A = T; }
unreserved_keyword(A) ::= DELETE(T).                { A = T; }
unreserved_keyword(A) ::= UPDATE(T).                { A = T; }
unreserved_keyword(A) ::= TRUNCATE(T).              { A = T; }
unreserved_keyword(A) ::= VIEW(T).                  { A = T; }
unreserved_keyword(A) ::= REPLACE(T).               { A = T; }
unreserved_keyword(A) ::= WRITE(T).                 { A = T; }
unreserved_keyword(A) ::= ZONE(T).                  { A = T; }
unreserved_keyword(A) ::= FILTER(T).                { A = T; }
unreserved_keyword(A) ::= OVER(T).                  { A = T; }
unreserved_keyword(A) ::= VARYING(T).               { A = T; }
unreserved_keyword(A) ::= WITHOUT(T).               { A = T; }
unreserved_keyword(A) ::= NOBARE_ID(T).             { A = T; }
unreserved_keyword(A) ::= WITHIN(T).                { A = T; }

col_name_keyword(A) ::= BETWEEN(T).               { A = T; }
col_name_keyword(A) ::= BIGINT(T).                { A = T; }
col_name_keyword(A) ::= BOOLEAN(T).               { A = T; }
col_name_keyword(A) ::= COALESCE(T).              { A = T; }
col_name_keyword(A) ::= DEC(T).                   { A = T; }
col_name_keyword(A) ::= DECIMAL(T).               { A = T; }
col_name_keyword(A) ::= EXISTS(T).                { A = T; }
col_name_keyword(A) ::= EXTRACT(T).               { A = T; }
col_name_keyword(A) ::= FLOAT(T).                 { A = T; }
col_name_keyword(A) ::= GREATEST(T).              { A = T; }
col_name_keyword(A) ::= INT(T).                   { A = T; }
col_name_keyword(A) ::= INTEGER(T).               { A = T; }
col_name_keyword(A) ::= INTERVAL(T).              { A = T; }
col_name_keyword(A) ::= LEAST(T).                 { A = T; }
col_name_keyword(A) ::= NULLIF(T).                { A = T; }
col_name_keyword(A) ::= NUMERIC(T).               { A = T; }
col_name_keyword(A) ::= POSITION(T).              { A = T; }
col_name_keyword(A) ::= REAL(T).                  { A = T; }
col_name_keyword(A) ::= ROW(T).                   { A = T; }
col_name_keyword(A) ::= SMALLINT(T).              { A = T; }
col_name_keyword(A) ::= SUBSTRING(T).             { A = T; }
col_name_keyword(A) ::= OVERLAY(T).               { A = T; }
col_name_keyword(A) ::= TIME(T).                  { A = T; }
col_name_keyword(A) ::= TIMESTAMP(T).             { A = T; }
col_name_keyword(A) ::= TRIM(T).                  { A = T; }
col_name_keyword(A) ::= VALUES(T).                { A = T; }
col_name_keyword(A) ::= VARCHAR(T).               { A = T; }
col_name_keyword(A) ::= COLNAME_OTHER(T).         { A = T; }
col_name_keyword(A) ::= CHAR(T).                  { A = T; }
col_name_keyword(A) ::= CHARACTER(T).             { A = T; }
col_name_keyword(A) ::= PRECISION(T).             { A = T; }

type_func_name_keyword(A) ::= BINARY(T).                { A = T; }
type_func_name_keyword(A) ::= CROSS(T).                 { A = T; }
type_func_name_keyword(A) ::= FREEZE(T).                { A = T; }
type_func_name_keyword(A) ::= FULL(T).                  { A = T; }
type_func_name_keyword(A) ::= ILIKE(T).                 { A = T; }
type_func_name_keyword(A) ::= INNER(T).                 { A = T; }
type_func_name_keyword(A) ::= IS(T).                    { A = T; }
type_func_name_keyword(A) ::= JOIN(T).                  { A = T; }
type_func_name_keyword(A) ::= LEFT(T).                  { A = T; }
type_func_name_keyword(A) ::= LIKE(T).                  { A = T; }
type_func_name_keyword(A) ::= NATURAL(T).               { A = T; }
type_func_name_keyword(A) ::= OUTER(T).                 { A = T; }
type_func_name_keyword(A) ::= RIGHT(T).                 { A = T; }
type_func_name_keyword(A) ::= SIMILAR(T).               { A = T; }
type_func_name_keyword(A) ::= VERBOSE(T).               { A = T; }
type_func_name_keyword(A) ::= TYPEFUNC_BARE(T).         { A = T; }
type_func_name_keyword(A) ::= ISNULL(T).                { A = T; }
type_func_name_keyword(A) ::= NOTNULL(T).               { A = T; }
type_func_name_keyword(A) ::= TYPEFUNC_NOBARE(T).       { A = T; }

reserved_keyword(A) ::= ALL(T).                   { A = T; }
reserved_keyword(A) ::= ANALYZE(T).               { A = T; }
reserved_keyword(A) ::= AND(T).                   { A = T; }
reserved_keyword(A) ::= ANY(T).                   { A = T; }
reserved_keyword(A) ::= ASC(T).                   { A = T; }
reserved_keyword(A) ::= ASYMMETRIC(T).            { A = T; }
reserved_keyword(A) ::= BOTH(T).                  { A = T; }
reserved_keyword(A) ::= CASE(T).                  { A = T; }
reserved_keyword(A) ::= COLLATE(T).               { A = T; }
reserved_keyword(A) ::= CAST(T).                  { A = T; }
reserved_keyword(A) ::= CHECK(T).                 { A = T; }
reserved_keyword(A) ::= CURRENT_DATE(T).          { A = T; }
reserved_keyword(A) ::= COLUMN(T).                { A = T; }
reserved_keyword(A) ::= CURRENT_TIME(T).          { A = T; }
reserved_keyword(A) ::= CURRENT_TIMESTAMP(T).     { A = T; }
reserved_keyword(A) ::= DEFAULT(T).               { A = T; }
reserved_keyword(A) ::= DEFERRABLE(T).            { A = T; }
reserved_keyword(A) ::= DESC(T).                  { A = T; }
reserved_keyword(A) ::= DISTINCT(T).              { A = T; }
reserved_keyword(A) ::= VARIADIC(T).              { A = T; }
reserved_keyword(A) ::= ELSE(T).                  { A = T; }
reserved_keyword(A) ::= END(T).                   { A = T; }
reserved_keyword(A) ::= FALSE(T).                 { A = T; }
reserved_keyword(A) ::= IN(T).                    { A = T; }
reserved_keyword(A) ::= LATERAL(T).               { A = T; }
reserved_keyword(A) ::= LEADING(T).               { A = T; }
reserved_keyword(A) ::= LOCALTIME(T).             { A = T; }
reserved_keyword(A) ::= LOCALTIMESTAMP(T).        { A = T; }
reserved_keyword(A) ::= NOT(T).                   { A = T; }
reserved_keyword(A) ::= NULL(T).                  { A = T; }
reserved_keyword(A) ::= ONLY(T).                  { A = T; }
reserved_keyword(A) ::= OR(T).                    { A = T; }
reserved_keyword(A) ::= PLACING(T).               { A = T; }
reserved_keyword(A) ::= PRIMARY(T).               { A = T; }
reserved_keyword(A) ::= CONSTRAINT(T).            { A = T; }
reserved_keyword(A) ::= INITIALLY(T).             { A = T; }
reserved_keyword(A) ::= DO(T).                    { A = T; }
reserved_keyword(A) ::= SELECT(T).                { A = T; }
reserved_keyword(A) ::= SOME(T).                  { A = T; }
reserved_keyword(A) ::= SYMMETRIC(T).             { A = T; }
reserved_keyword(A) ::= TABLE(T).                 { A = T; }
reserved_keyword(A) ::= THEN(T).                  { A = T; }
reserved_keyword(A) ::= TRAILING(T).              { A = T; }
reserved_keyword(A) ::= TRUE(T).                  { A = T; }
reserved_keyword(A) ::= UNIQUE(T).                { A = T; }
reserved_keyword(A) ::= USER(T).                  { A = T; }
reserved_keyword(A) ::= USING(T).                 { A = T; }
reserved_keyword(A) ::= WHEN(T).                  { A = T; }
reserved_keyword(A) ::= RESERVED_BARE(T).         { A = T; }
reserved_keyword(A) ::= ARRAY(T).                 { A = T; }
reserved_keyword(A) ::= AS(T).                    { A = T; }
reserved_keyword(A) ::= CREATE(T).                { A = T; }
reserved_keyword(A) ::= EXCEPT(T).                { A = T; }
reserved_keyword(A) ::= FETCH(T).                 { A = T; }
reserved_keyword(A) ::= FOR(T).                   { A = T; }
reserved_keyword(A) ::= FROM(T).                  { A = T; }
reserved_keyword(A) ::= GROUP(T).                 { A = T; }
reserved_keyword(A) ::= HAVING(T).                { A = T; }
reserved_keyword(A) ::= INTERSECT(T).             { A = T; }
reserved_keyword(A) ::= INTO(T).                  { A = T; }
reserved_keyword(A) ::= LIMIT(T).                 { A = T; }
reserved_keyword(A) ::= OFFSET(T).                { A = T; }
reserved_keyword(A) ::= ON(T).                    { A = T; }
reserved_keyword(A) ::= ORDER(T).                 { A = T; }
reserved_keyword(A) ::= RETURNING(T).             { A = T; }
reserved_keyword(A) ::= TO(T).                    { A = T; }
reserved_keyword(A) ::= UNION(T).                 { A = T; }
reserved_keyword(A) ::= WHERE(T).                 { A = T; }
reserved_keyword(A) ::= WINDOW(T).                { A = T; }
reserved_keyword(A) ::= WITH(T).                  { A = T; }
reserved_keyword(A) ::= RESERVED_NOBARE(T).       { A = T; }

%type name_list {attu_names *}
%type opt_name_list {attu_names *}
name_list(A) ::= colid(N).                      { A = ab_names_push(ctx, NULL, ab_tokstr(&N), N.pos); }
name_list(A) ::= name_list(L) COMMA colid(N).   { A = ab_names_push(ctx, L, ab_tokstr(&N), N.pos); }
opt_name_list(A) ::= LP name_list(L) RP.        { A = L; }
opt_name_list(A) ::= .                          { A = NULL; }

/* Types: typename is what CAST, :: and CREATE TABLE take. */
%type typename {attu_ast_typename}
%type simple_typename {attu_ast_typename}
%type const_typename {attu_ast_typename}
typename(A) ::= simple_typename(T).     { A = T; }
typename(A) ::= generic_typename(T).    { A = T; }
typename(A) ::= typename(T) LBRACKET RBRACKET.            { A = array_tn(ctx, T); }
typename(A) ::= typename(T) LBRACKET ICONST RBRACKET.     { A = array_tn(ctx, T); }
typename(A) ::= typename(T) ARRAY.                        { A = array_tn(ctx, T); }

%type generic_typename {attu_ast_typename}
generic_typename(A) ::= type_function_name(N).  { A = tn_make(ab_tokstr(&N), N.pos); }
/* pg_catalog.int2, pg_catalog.regclass: the system schema's types by
 * their qualified names (psql's catalog queries write them so) */
generic_typename(A) ::= type_function_name(S) DOT attr_name(N).
    { A = ab_qualified_typename(ctx, ab_tokstr(&S), ab_tokstr(&N), S.pos); }
generic_typename(A) ::= type_function_name(N) LP expr_list(L) RP.
    { A = tn_make(ab_tokstr(&N), N.pos); ab_type_mods(ctx, &A, L, N.pos); }

/* Literal prefixes: DATE 'x' (generic), TIMESTAMP 'x', INTEGER 'x', ... */
const_typename(A) ::= simple_typename(T).   { A = T; }
const_typename(A) ::= type_function_name(N). { A = tn_make(ab_tokstr(&N), N.pos); }

simple_typename(A) ::= INT(K).              { A = tn_make("integer", K.pos); }
simple_typename(A) ::= INTEGER(K).          { A = tn_make("integer", K.pos); }
simple_typename(A) ::= SMALLINT(K).         { A = tn_make("smallint", K.pos); }
simple_typename(A) ::= BIGINT(K).           { A = tn_make("bigint", K.pos); }
simple_typename(A) ::= REAL(K).             { A = tn_make("real", K.pos); }
simple_typename(A) ::= FLOAT(K).            { A = tn_make("float", K.pos); }
simple_typename(A) ::= FLOAT(K) LP ICONST(P) RP.
    { A = tn_make("float", K.pos); A.precision = atoi(P.str); }
simple_typename(A) ::= DOUBLE(K) PRECISION. { A = tn_make("double precision", K.pos); }
simple_typename(A) ::= DECIMAL(K) opt_type_mod(M).  { A = numeric_type(ctx, &M, K.pos); }
simple_typename(A) ::= DEC(K) opt_type_mod(M).      { A = numeric_type(ctx, &M, K.pos); }
simple_typename(A) ::= NUMERIC(K) opt_type_mod(M).  { A = numeric_type(ctx, &M, K.pos); }
simple_typename(A) ::= BOOLEAN(K).          { A = tn_make("boolean", K.pos); }
simple_typename(A) ::= CHARACTER(K) opt_varying(V) opt_char_len(L).
    { A = tn_make(V ? "character varying" : "character", K.pos); A.precision = L; }
simple_typename(A) ::= CHAR(K) opt_varying(V) opt_char_len(L).
    { A = tn_make(V ? "character varying" : "character", K.pos); A.precision = L; }
simple_typename(A) ::= VARCHAR(K) opt_char_len(L).
    { A = tn_make("character varying", K.pos); A.precision = L; }
simple_typename(A) ::= TIMESTAMP(K) opt_timezone(Z).
    { A = tn_make(Z ? "timestamp with time zone" : "timestamp without time zone", K.pos); }
simple_typename(A) ::= TIMESTAMP(K) LP ICONST(P) RP opt_timezone(Z).
{
    A = tn_make(Z ? "timestamp with time zone" : "timestamp without time zone", K.pos);
    A.precision = atoi(P.str);
}
simple_typename(A) ::= TIME(K) opt_timezone(Z).
    { A = tn_make(Z ? "time with time zone" : "time without time zone", K.pos); }
/* TIME(p): the precision is accepted and not applied (docs/sql-reference.md) */
simple_typename(A) ::= TIME(K) LP ICONST(P) RP opt_timezone(Z).
{
    A = tn_make(Z ? "time with time zone" : "time without time zone", K.pos);
    A.precision = atoi(P.str);
}
simple_typename(A) ::= INTERVAL(K).         { A = tn_make("interval", K.pos); }
simple_typename(A) ::= INTERVAL(K) interval_qual(Q).
    { A = Q; A.name = "interval"; A.position = K.pos; }
simple_typename(A) ::= INTERVAL(K) LP ICONST(P) RP.
    { A = tn_make("interval", K.pos); A.precision = iv_prec(atoi(P.str)); }

/* INTERVAL field qualifiers, as PostgreSQL's opt_interval; the field words
 * are IVFIELD only right after INTERVAL (parser.c), so they stay ordinary
 * names elsewhere. */
%type interval_qual {attu_ast_typename}
interval_qual(A) ::= IVFIELD(F).
    { A = iv_qual(ctx, &F, NULL, -1); }
interval_qual(A) ::= IVFIELD(F) LP ICONST(P) RP.
    { A = iv_qual(ctx, &F, NULL, strcmp(F.str, "second") == 0 ? iv_prec(atoi(P.str)) : -2); }
interval_qual(A) ::= IVFIELD(F) TO IVFIELD(G).
    { A = iv_qual(ctx, &F, &G, -1); }
interval_qual(A) ::= IVFIELD(F) TO IVFIELD(G) LP ICONST(P) RP.
    { A = iv_qual(ctx, &F, &G, strcmp(G.str, "second") == 0 ? iv_prec(atoi(P.str)) : -2); }

/* Type modifiers are expressions in PostgreSQL's grammar; only integer
 * constants make sense, which is checked after parsing, as there. */
%type opt_type_mod {attu_ast_typename}
opt_type_mod(A) ::= LP(K) expr_list(L) RP.  { A = tn_make("", 0); ab_type_mods(ctx, &A, L, K.pos); }
opt_type_mod(A) ::= .                       { A = tn_make("", 0); }

%type opt_varying {bool}
opt_varying(A) ::= VARYING.     { A = true; }
opt_varying(A) ::= .            { A = false; }

%type opt_char_len {int}
opt_char_len(A) ::= LP ICONST(P) RP.    { A = atoi(P.str); }
opt_char_len(A) ::= .                   { A = -1; }

%type opt_timezone {bool}
opt_timezone(A) ::= WITH_LA TIME ZONE.     { A = true; }
opt_timezone(A) ::= WITHOUT TIME ZONE.  { A = false; }
opt_timezone(A) ::= .                   { A = false; }

/* ======================================================================== */
/* INSERT                                                                   */

%type insert_stmt {attu_ast_stmt *}
%include {
/* INSERT ... RETURNING: the items, run by db/db_insert_returning.c */
static void insert_returning(attu_ast_stmt *s, attu_vec *ret) {
    if (!ret) return;
    s->u.insert.returning = ret->items;
    s->u.insert.nreturning = ret->n;
}
}
/* INSERT INTO t [AS x] [(cols)] {query | DEFAULT VALUES}
 *     [ON CONFLICT ...] [RETURNING ...] */
insert_stmt(A) ::= INSERT(K) INTO insert_target(N) insert_rest(S) opt_on_conflict(O) insert_returning(R).
{
    A = S;
    A->position = K.pos;
    A->u.insert.table = (char *)N.name.name;
    A->u.insert.table_position = N.name.pos;
    A->schema = rel_schema(ctx, N.name.schema);
    A->u.insert.alias = (char *)N.alias;
    A->u.insert.on_conflict = O;
    if (R.items) { A->u.insert.returning_position = R.pos; insert_returning(A, R.items); }
}
%type insert_target {ab_dml_target}
insert_target(A) ::= target_name(N).                { A.name = N; A.alias = NULL; relation_schema_must_exist(ctx, &N); }
insert_target(A) ::= target_name(N) AS colid(L).    { A.name = N; A.alias = ab_tokstr(&L); relation_schema_must_exist(ctx, &N); }
%type insert_rest {attu_ast_stmt *}
insert_rest(A) ::= select_stmt(Q).
    { A = ab_stmt(ctx, ATTU_STMT_INSERT, 0); A->u.insert.source = Q; }
insert_rest(A) ::= LP insert_cols(C) RP select_stmt(Q).
    { A = ab_stmt(ctx, ATTU_STMT_INSERT, 0); ab_insert_columns(ctx, A, C); A->u.insert.source = Q; }
insert_rest(A) ::= overriding(O) select_stmt(Q).
    { A = ab_stmt(ctx, ATTU_STMT_INSERT, 0); A->u.insert.source = Q; A->u.insert.overriding = O; }
insert_rest(A) ::= LP insert_cols(C) RP overriding(O) select_stmt(Q).
{
    A = ab_stmt(ctx, ATTU_STMT_INSERT, 0);
    ab_insert_columns(ctx, A, C);
    A->u.insert.source = Q;
    A->u.insert.overriding = O;
}
insert_rest(A) ::= DEFAULT VALUES.
    { A = ab_stmt(ctx, ATTU_STMT_INSERT, 0); }
/* OVERRIDING { SYSTEM | USER } VALUE before the rows */
%type overriding {char}
overriding(A) ::= OVERRIDING ID(S) ID(V).
{
    A = 's';
    ab_word_expect(ctx, &S, "system");
    ab_word_expect(ctx, &V, "value");
}
overriding(A) ::= OVERRIDING USER ID(V).
{
    A = 'u';
    ab_word_expect(ctx, &V, "value");
}
%include {
typedef struct ab_returning { attu_vec *items; int pos; } ab_returning;
}
%type insert_returning {ab_returning}
insert_returning(A) ::= RETURNING(R) target_list(L).   { A.items = L; A.pos = R.pos; }
insert_returning(A) ::= .                              { A.items = NULL; A.pos = 0; }

/* ON CONFLICT: CONFLICT and NOTHING are unreserved words, read as names */
%type opt_on_conflict {attu_ast_on_conflict *}
opt_on_conflict(A) ::= .                                { A = NULL; }
opt_on_conflict(A) ::= ON(K) conflict_word conflict_target(T) DO conflict_action(C).
{
    A = C;
    A->position = K.pos;
    A->columns = T.columns;
    A->constraint = T.constraint;
    A->constraint_position = T.constraint_position;
}
conflict_word ::= ID(T).
{
    if (strcmp(ab_tokstr(&T), "conflict") != 0)
        { ab_error(ctx, ATTU_SQLSTATE_SYNTAX, T.pos, "syntax error at or near \"%.*s\"", (int)T.len, ctx->sql + T.off);
          ctx->failed = true; }
}
%type conflict_target {attu_ast_on_conflict}
conflict_target(A) ::= .                                { memset(&A, 0, sizeof A); }
conflict_target(A) ::= LP name_list(L) RP.              { memset(&A, 0, sizeof A); A.columns = ab_names(L); }
conflict_target(A) ::= ON CONSTRAINT colid(N).
    { memset(&A, 0, sizeof A); A.constraint = (char *)ab_tokstr(&N); A.constraint_position = N.pos; }
%type conflict_action {attu_ast_on_conflict *}
conflict_action(A) ::= ID(T).
{
    if (strcmp(ab_tokstr(&T), "nothing") != 0)
        { ab_error(ctx, ATTU_SQLSTATE_SYNTAX, T.pos, "syntax error at or near \"%.*s\"", (int)T.len, ctx->sql + T.off);
          ctx->failed = true; }
    A = ab_alloc(ctx, sizeof *A);
}
conflict_action(A) ::= UPDATE SET set_clause_list(S) where_clause(W).
{
    A = ab_alloc(ctx, sizeof *A);
    A->update = true;
    A->sets = S->items;
    A->nsets = S->n;
    A->where = W;
}

/* ======================================================================== */
/* DELETE, UPDATE, TRUNCATE (db/db_modify.c, db/db_truncate.c)              */
/* PostgreSQL's relation_expr_opt_alias: an alias after AS may be any name, */
/* a bare one only a plain identifier (a keyword there would make          */
/* UPDATE t SET ambiguous; PostgreSQL resolves it the same way for SET).   */

%include {
typedef struct ab_dml_target { ab_qname name; const char *alias; } ab_dml_target;

static attu_ast_stmt *modify_make(attu_parse_ctx *c, attu_ast_stmt_kind kind, const attu_token *k,
                                  const ab_dml_target *t, attu_vec *from, attu_ast_expr *where, attu_vec *ret) {
    attu_ast_stmt *s = ab_stmt(c, kind, k->pos);
    s->u.modify.table = (char *)t->name.name;
    s->u.modify.table_position = t->name.pos;
    s->schema = rel_schema(c, t->name.schema);
    s->u.modify.alias = (char *)t->alias;
    if (from) { s->u.modify.from.items = from->items; s->u.modify.from.n = from->n; }
    s->u.modify.where = where;
    if (ret) { s->u.modify.returning = ret->items; s->u.modify.nreturning = ret->n; }
    return s;
}
}
%type dml_target {ab_dml_target}
dml_target(A) ::= target_name(N).                { A.name = N; A.alias = NULL; relation_schema_must_exist(ctx, &N); }
dml_target(A) ::= target_name(N) AS colid(L).    { A.name = N; A.alias = ab_tokstr(&L); relation_schema_must_exist(ctx, &N); }
dml_target(A) ::= target_name(N) ID(L).          { A.name = N; A.alias = ab_tokstr(&L); relation_schema_must_exist(ctx, &N); }
dml_target(A) ::= ONLY target_name(N).           { A.name = N; A.alias = NULL; relation_schema_must_exist(ctx, &N); }
dml_target(A) ::= ONLY target_name(N) AS colid(L).  { A.name = N; A.alias = ab_tokstr(&L); relation_schema_must_exist(ctx, &N); }
dml_target(A) ::= ONLY target_name(N) ID(L).     { A.name = N; A.alias = ab_tokstr(&L); relation_schema_must_exist(ctx, &N); }

%type returning_clause {attu_vec *}
returning_clause(A) ::= RETURNING target_list(L).   { A = L; }
returning_clause(A) ::= .                           { A = NULL; }

%type using_clause {attu_vec *}
using_clause(A) ::= USING from_list(L).     { A = L; }
using_clause(A) ::= .                       { A = NULL; }

/* WITH ... DELETE / UPDATE / INSERT: the queries go with the statement
 * (DELETE, UPDATE) or onto INSERT's source query */
%include {
static void modify_with(attu_parse_ctx *c, attu_ast_stmt *s, const ab_with *w) {
    if (s->u.modify.nwith) {
        ab_error(c, ATTU_SQLSTATE_SYNTAX, w->pos, "multiple WITH clauses not allowed");
        return;
    }
    s->u.modify.with = w->ctes->items;
    s->u.modify.nwith = w->ctes->n;
    s->u.modify.with_recursive = w->recursive;
    s->u.modify.with_position = w->pos;
}
}
delete_stmt(A) ::= with_clause(W) delete_stmt(S).   { A = S; modify_with(ctx, A, &W); }
update_stmt(A) ::= with_clause(W) update_stmt(S).   { A = S; modify_with(ctx, A, &W); }
insert_stmt(A) ::= with_clause(W) insert_stmt(S).
{
    A = S;
    attu_ast_query *q = S->u.insert.source;
    if (q && q->with.n) {
        ab_defer_error(ctx, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, W.pos,
                       "WITH before INSERT is not supported when its query has a WITH of its own");
    } else if (q) {
        q->with.items = W.ctes->items;
        q->with.n = W.ctes->n;
        q->with.recursive = W.recursive;
    }
}

/* ======================================================================== */
/* MERGE (db/db_merge.c). MERGE is an unreserved keyword, MATCHED and      */
/* NOTHING are read as names (unreserved words in PostgreSQL too).         */
/*   MERGE INTO t [[AS] x] USING source ON cond                             */
/*     WHEN MATCHED [AND c] THEN {UPDATE SET ... | DELETE | DO NOTHING}      */
/*     WHEN NOT MATCHED [AND c] THEN {INSERT ... | DO NOTHING} ...           */
%type merge_stmt {attu_ast_stmt *}
merge_stmt(A) ::= with_clause(W) merge_stmt(S).   { A = S; modify_with(ctx, A, &W); }
merge_stmt(A) ::= MERGE(K) INTO dml_target(T) USING table_ref(U) ON a_expr(C) merge_when_list(L).
{
    attu_vec *from = vec_push_ptr(ctx, NULL, U);
    A = modify_make(ctx, ATTU_STMT_MERGE, &K, &T, from, C, NULL);
    A->u.modify.whens = L->items;
    A->u.modify.nwhens = L->n;
}
%type merge_when_list {attu_vec *}
merge_when_list(A) ::= merge_when(W).                    { A = vec_new(ctx); ab_vec_push(ctx, A, &W, sizeof W); }
merge_when_list(A) ::= merge_when_list(L) merge_when(W). { A = L; ab_vec_push(ctx, A, &W, sizeof W); }
%type merge_when {attu_ast_merge_when}
merge_when(A) ::= WHEN(K) ID(M) merge_cond(C) THEN merge_matched(X).
{
    ab_word_expect(ctx, &M, "matched");
    A = X;
    A.matched = true;
    A.position = K.pos;
    A.cond = C;
}
merge_when(A) ::= WHEN(K) NOT ID(M) merge_cond(C) THEN merge_not_matched(X).
{
    ab_word_expect(ctx, &M, "matched");
    A = X;
    A.matched = false;
    A.position = K.pos;
    A.cond = C;
}
%type merge_cond {attu_ast_expr *}
merge_cond(A) ::= .                 { A = NULL; }
merge_cond(A) ::= AND a_expr(E).    { A = E; }
%type merge_matched {attu_ast_merge_when}
merge_matched(A) ::= UPDATE SET set_clause_list(S).
    { memset(&A, 0, sizeof A); A.action = 'u'; A.sets = S->items; A.nsets = S->n; }
merge_matched(A) ::= DELETE.          { memset(&A, 0, sizeof A); A.action = 'd'; }
merge_matched(A) ::= DO ID(N).        { memset(&A, 0, sizeof A); A.action = 'n'; ab_word_expect(ctx, &N, "nothing"); }
%type merge_not_matched {attu_ast_merge_when}
merge_not_matched(A) ::= DO ID(N).    { memset(&A, 0, sizeof A); A.action = 'n'; ab_word_expect(ctx, &N, "nothing"); }
/* INSERT [(cols)] [OVERRIDING ...] VALUES (...) | INSERT DEFAULT VALUES
 * (no column list or OVERRIDING before DEFAULT VALUES, as in PostgreSQL) */
merge_not_matched(A) ::= INSERT merge_insert_cols(C) merge_overriding(O) VALUES LP expr_list(V) RP.
{
    memset(&A, 0, sizeof A);
    A.action = 'i';
    if (C) A.columns = ab_names(C);
    A.overriding = O;
    A.values = ab_expr_list(V);
}
merge_not_matched(A) ::= INSERT DEFAULT VALUES.  { memset(&A, 0, sizeof A); A.action = 'i'; }
%type merge_insert_cols {attu_names *}
merge_insert_cols(A) ::= .                           { A = NULL; }
merge_insert_cols(A) ::= LP name_list(L) RP.        { A = L; }
%type merge_overriding {char}
merge_overriding(A) ::= .                            { A = 0; }
merge_overriding(A) ::= overriding(O).               { A = O; }

%type delete_stmt {attu_ast_stmt *}
delete_stmt(A) ::= DELETE(K) FROM dml_target(T) using_clause(U) modify_where(W) returning_clause(R).
{
    A = modify_make(ctx, ATTU_STMT_DELETE, &K, &T, U, W.where, R);
    A->u.modify.current_of = (char *)W.cursor;
    A->u.modify.current_of_position = W.pos;
}

%type update_stmt {attu_ast_stmt *}
update_stmt(A) ::= UPDATE(K) dml_target(T) SET set_clause_list(S) from_clause(F) modify_where(W) returning_clause(R).
{
    A = modify_make(ctx, ATTU_STMT_UPDATE, &K, &T, F, W.where, R);
    A->u.modify.sets = S->items;
    A->u.modify.nsets = S->n;
    A->u.modify.current_of = (char *)W.cursor;
    A->u.modify.current_of_position = W.pos;
}

/* WHERE expr, or WHERE CURRENT OF cursor (db/db_cursor.c) */
%include {
typedef struct ab_modwhere { attu_ast_expr *where; const char *cursor; int pos; } ab_modwhere;
}
%type modify_where {ab_modwhere}
modify_where(A) ::= where_clause(W).               { A.where = W; A.cursor = NULL; A.pos = 0; }
modify_where(A) ::= WHERE CURRENT(K) OF colid(N).  { A.where = NULL; A.cursor = ab_tokstr(&N); A.pos = K.pos; }

%type set_clause_list {attu_vec *}
set_clause_list(A) ::= set_clause(L).                           { A = L; }
set_clause_list(A) ::= set_clause_list(L) COMMA set_clause(M).
{
    A = L;
    for (int i = 0; i < M->n; i++) ab_vec_push(ctx, A, (attu_ast_set_item *)M->items + i, sizeof(attu_ast_set_item));
}
%type set_clause {attu_vec *}
set_clause(A) ::= colid(N) EQ a_expr(E).
{
    attu_ast_set_item it = { (char *)ab_tokstr(&N), N.pos, E };
    A = vec_new(ctx);
    ab_vec_push(ctx, A, &it, sizeof it);
}
/* SET a[i] = v, a[i][j] = v, a[i:j] = array: the subscripts on the column
 * (as a[i] reads them), assigned by " array_assign" (planner/array_bind.c) */
%type set_target {attu_ast_expr *}
set_target(A) ::= colid(N) LBRACKET(K) a_expr(I) RBRACKET.
    { A = ab_func2(ctx, " subscript", ab_column(ctx, NULL, ab_tokstr(&N), N.pos), I, K.pos); }
set_target(A) ::= colid(N) LBRACKET(K) slice_bound(L) COLON slice_bound(H) RBRACKET.
    { A = ab_func3(ctx, " slice", ab_column(ctx, NULL, ab_tokstr(&N), N.pos), L, H, K.pos); }
set_target(A) ::= set_target(T) LBRACKET(K) a_expr(I) RBRACKET.  { A = ab_func2(ctx, " subscript", T, I, K.pos); }
set_target(A) ::= set_target(T) LBRACKET(K) slice_bound(L) COLON slice_bound(H) RBRACKET.
    { A = ab_func3(ctx, " slice", T, L, H, K.pos); }
/* INSERT's column list: names, and a[i] / a[i:j] subscripted as SET's */
%type insert_cols {attu_names *}
insert_cols(A) ::= colid(N).                          { A = ab_names_push(ctx, NULL, ab_tokstr(&N), N.pos); }
insert_cols(A) ::= set_target(T).                     { A = ab_names_push_target(ctx, NULL, T); }
insert_cols(A) ::= insert_cols(L) COMMA colid(N).     { A = ab_names_push(ctx, L, ab_tokstr(&N), N.pos); }
insert_cols(A) ::= insert_cols(L) COMMA set_target(T). { A = ab_names_push_target(ctx, L, T); }
set_clause(A) ::= set_target(T) EQ a_expr(E).
{
    const attu_ast_expr *col = T;
    while (col->kind == ATTU_EXPR_FUNC) col = col->u.func.args.items[0];
    attu_ast_set_item it = { (char *)col->u.column.name, col->position, ab_func2(ctx, " array_assign", T, E, T->position) };
    A = vec_new(ctx);
    ab_vec_push(ctx, A, &it, sizeof it);
}
/* SET t.a = ...: a field of a composite column in PostgreSQL, which
 * attu has not; as there, the first name must be a column */
set_clause(A) ::= colid(N) DOT attr_name EQ a_expr(E).
{
    attu_ast_set_item it = { (char *)ab_tokstr(&N), N.pos, E };
    A = vec_new(ctx);
    ab_vec_push(ctx, A, &it, sizeof it);
    ab_defer_error(ctx, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, N.pos,
                   "assignment to a field of column \"%s\" is not supported; write SET column = value", ab_tokstr(&N));
}
/* SET (a, b) = (x, y) or ROW(x, y): one item per column, as PostgreSQL
 * expands it; a sub-SELECT source, one scalar sub-SELECT per column */
set_clause(A) ::= LP(P) name_list(C) RP EQ a_expr(E).
{
    A = vec_new(ctx);
    attu_ast_name_list names = ab_names(C);
    bool is_row = E->kind == ATTU_EXPR_FUNC && !E->u.func.schema && !strcmp(E->u.func.name, "row");
    const attu_ast_query *sq = E->kind == ATTU_EXPR_SUBQUERY ? E->u.subquery.query : NULL;
    bool plain = sq && sq->kind == ATTU_QUERY_SELECT && !sq->u.select.distinct && !sq->order_by.n;
    for (int i = 0; plain && i < sq->u.select.nitems; i++) plain = sq->u.select.items[i].expr->kind != ATTU_EXPR_STAR;
    if (sq && plain && sq->u.select.nitems != names.n) {
        ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, E->position,
                       sq->u.select.nitems < names.n ? "not enough values in the sub-SELECT for a multiple-column UPDATE"
                                                     : "too many values in the sub-SELECT for a multiple-column UPDATE");
    } else if (sq && plain) {
        /* (a, b) = (SELECT x, y ...): a = (SELECT x ...), b = (SELECT y ...),
         * the same rows (no DISTINCT, no ORDER BY to tell them apart); the
         * sub-SELECT runs once per column */
        for (int i = 0; i < names.n; i++) {
            attu_ast_query *qi = ab_alloc(ctx, sizeof *qi);
            attu_ast_expr *ei = ab_alloc(ctx, sizeof *ei);
            *qi = *sq;
            qi->u.select.items = &sq->u.select.items[i];
            qi->u.select.nitems = 1;
            *ei = *E;
            ei->u.subquery.query = qi;
            attu_ast_set_item it = { names.items[i], names.positions[i], ei };
            ab_vec_push(ctx, A, &it, sizeof it);
        }
    } else if (sq) {
        ab_defer_error(ctx, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, E->position,
                       "a sub-SELECT with *, DISTINCT, ORDER BY or set operations as the source of a multiple-column UPDATE item is not supported");
    } else if (!is_row) {
        ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, E->position,
                       "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression");
    } else if (E->u.func.args.n != names.n) {
        ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, P.pos,
                       "number of columns does not match number of values");
    } else {
        for (int i = 0; i < names.n; i++) {
            attu_ast_set_item it = { names.items[i], names.positions[i], E->u.func.args.items[i] };
            ab_vec_push(ctx, A, &it, sizeof it);
        }
    }
}

%type truncate_stmt {attu_ast_stmt *}
%type truncate_list {attu_names *}
truncate_stmt(A) ::= TRUNCATE(K) opt_table truncate_list(L) opt_restart_identity(R) opt_drop_behavior(B).
{
    A = ab_stmt(ctx, ATTU_STMT_TRUNCATE, K.pos);
    A->u.truncate.tables = ab_names(L);
    A->u.truncate.restart_identity = R;
    A->u.truncate.cascade = B;
}
/* RESTART IDENTITY / CONTINUE IDENTITY (IDENTITY an identifier here,
 * checked by name) */
%type opt_restart_identity {bool}
opt_restart_identity(A) ::= RESTART ID(I).    { A = true; ab_word_expect(ctx, &I, "identity"); }
opt_restart_identity(A) ::= CONTINUE ID(I).   { A = false; ab_word_expect(ctx, &I, "identity"); }
opt_restart_identity(A) ::= .   { A = false; }
truncate_list(A) ::= truncate_rel(N).       { A = ab_names_push_rel(ctx, NULL, N.name, N.pos, rel_schema(ctx, N.schema)); }
truncate_list(A) ::= truncate_list(L) COMMA truncate_rel(N).
    { A = ab_names_push_rel(ctx, L, N.name, N.pos, rel_schema(ctx, N.schema)); }
%type truncate_rel {ab_qname}
truncate_rel(A) ::= target_name(N).          { A = N; }
truncate_rel(A) ::= ONLY target_name(N).     { A = N; }
opt_table ::= TABLE.
opt_table ::= .

/* LOCK [TABLE] [ONLY] t, ... [IN mode MODE] [NOWAIT] (db/db_lock_table.c).
 * The mode's words (PostgreSQL's unreserved keywords, identifiers here
 * but ROW and UPDATE) are collected and read as a whole: no conflicts
 * between ACCESS SHARE and SHARE, or the mode and MODE. */
%include {
typedef struct ab_lockopts { int mode; bool nowait; } ab_lockopts;
typedef struct ab_lockwords { attu_token w[6]; int n; bool over; } ab_lockwords;
/* words: the mode's, then MODE, then maybe NOWAIT */
static ab_lockopts ab_lock_mode(attu_parse_ctx *ctx, const ab_lockwords *ws) {
    static const char *const modes[] = { "access share", "row share", "row exclusive", "share update exclusive",
                                         "share", "share row exclusive", "exclusive", "access exclusive" };
    ab_lockopts o = { 8, false };
    char text[64] = "";
    int found = 0, i = 0;
    /* the mode's words while they continue one, then MODE, then NOWAIT:
     * the first word that does not fit is the syntax error */
    for (; i < ws->n; i++) {
        const char *w = ab_tokstr(&ws->w[i]);
        if (found && !strcmp(w, "mode")) break;
        char next[64];
        snprintf(next, sizeof next, "%s%s%s", text, text[0] ? " " : "", w);
        size_t len = strlen(next);
        bool prefix = false;
        found = 0;
        for (int m = 0; m < 8; m++) {
            if (!strncmp(modes[m], next, len) && (modes[m][len] == ' ' || !modes[m][len])) prefix = true;
            if (!strcmp(modes[m], next)) found = m + 1;
        }
        if (!prefix) { ab_word_expect(ctx, &ws->w[i], "\001"); return o; }
        snprintf(text, sizeof text, "%s", next);
    }
    if (i == ws->n) {   /* (no MODE: the error at the end, PostgreSQL's "at end of input" aside) */
        ab_word_expect(ctx, &ws->w[ws->n - 1], "\001");
        return o;
    }
    o.mode = found;
    if (i + 1 < ws->n) {
        ab_word_expect(ctx, &ws->w[i + 1], "nowait");
        o.nowait = true;
        if (i + 2 < ws->n) ab_word_expect(ctx, &ws->w[i + 2], "\001");
    }
    if (ws->over) ab_word_expect(ctx, &ws->w[5], "\001");
    return o;
}
}
%type lock_stmt {attu_ast_stmt *}
lock_stmt(A) ::= LOCK(K) opt_table truncate_list(L) lock_opts(O).
{
    A = ab_stmt(ctx, ATTU_STMT_LOCK, K.pos);
    A->u.lock.tables = ab_names(L);
    A->u.lock.mode = O.mode;
    A->u.lock.nowait = O.nowait;
}
%type lock_opts {ab_lockopts}
lock_opts(A) ::= .                          { A.mode = 8; A.nowait = false; }
lock_opts(A) ::= ID(W).                     { A.mode = 8; A.nowait = true; ab_word_expect(ctx, &W, "nowait"); }
lock_opts(A) ::= IN lock_words(W).          { A = ab_lock_mode(ctx, &W); }
%type lock_words {ab_lockwords}
lock_words(A) ::= lock_word(W).             { A.n = 1; A.over = false; A.w[0] = W; }
lock_words(A) ::= lock_words(L) lock_word(W).
{
    A = L;
    if (A.n < 6) A.w[A.n++] = W;
    else A.over = true;
}
%type lock_word {attu_token}
lock_word(A) ::= ID(W).                     { A = W; }
lock_word(A) ::= ROW(W).                    { A = W; }
lock_word(A) ::= UPDATE(W).                 { A = W; }

/* ======================================================================== */
/* CREATE TABLE [AS], DROP TABLE                                            */

%type create_stmt {attu_ast_stmt *}
create_stmt(A) ::= create_head(H) LP opt_table_elements(L) RP opt_on_commit(O).
{
    A = ab_stmt(ctx, ATTU_STMT_CREATE_TABLE, H.pos);
    A->u.create_table.temp = H.temp;
    A->u.create_table.on_commit = O;
    ab_on_commit_check(ctx, H.temp, O);
    A->u.create_table.table = (char *)H.name.name;
    A->u.create_table.if_not_exists = H.if_not_exists;
    if (L) {
        A->u.create_table.columns = L->cols.items;
        A->u.create_table.ncolumns = L->cols.n;
        A->u.create_table.uniques = L->uniques.items;
        A->u.create_table.nuniques = L->uniques.n;
        /* PRIMARY KEY (a, b): mark those columns; unknown names are 42703
         * as in PostgreSQL. */
        char **pk = L->pk.names.items;
        int *pkpos = L->pk.positions.items;
        /* (with a LIKE the columns are known later: db/db_create_like.c
         * marks them, db_unique_define finds an unknown one) */
        bool like = false;
        for (int j = 0; j < A->u.create_table.ncolumns; j++) like |= A->u.create_table.columns[j].like != NULL;
        for (int i = 0; i < L->pk.names.n && !like; i++) {
            int found = 0;
            for (int j = 0; j < A->u.create_table.ncolumns; j++) {
                attu_ast_column_def *d = &A->u.create_table.columns[j];
                if (strcmp(d->name, pk[i]) == 0) {
                    d->primary_key = true;
                    d->not_null = true;
                    found = 1;
                }
            }
            if (!found)
                ab_defer_error(ctx, ATTU_SQLSTATE_UNDEFINED_COLUMN, pkpos[i],
                               "column \"%s\" named in key does not exist", pk[i]);
        }
    }
}

%include {
typedef struct ab_elements { attu_vec cols; attu_names pk; int npk_clauses; attu_vec uniques; } ab_elements;
/* A column's PRIMARY KEY / UNIQUE constraints join the table's list where
 * the column stands, so the list keeps the order written. */
static void ab_column_uniques(attu_parse_ctx *c, ab_elements *e, const attu_ast_column_def *d) {
    for (int i = 0; i < d->nuniques; i++) ab_vec_push(c, &e->uniques, &d->uniques[i], sizeof d->uniques[i]);
}
}
%type opt_table_elements {ab_elements *}
%type table_elements {ab_elements *}
opt_table_elements(A) ::= table_elements(L).    { A = L; }
opt_table_elements(A) ::= .                     { A = NULL; }
table_elements(A) ::= column_def(D).
    { A = ab_alloc(ctx, sizeof *A); ab_vec_push(ctx, &A->cols, &D, sizeof D); ab_column_uniques(ctx, A, &D); }
table_elements(A) ::= table_constraint(P).
{
    A = ab_alloc(ctx, sizeof *A);
    ab_vec_push(ctx, &A->uniques, &P, sizeof P);
    if (P.primary) { A->pk.names.items = P.columns.items; A->pk.positions.items = P.columns.positions;
                     A->pk.names.n = A->pk.positions.n = P.columns.n; A->npk_clauses = 1; }
}
table_elements(A) ::= table_elements(L) COMMA column_def(D).
    { A = L; ab_vec_push(ctx, &A->cols, &D, sizeof D); ab_column_uniques(ctx, A, &D); }
/* LIKE source [{INCLUDING | EXCLUDING} option] ...: a column entry that
 * stands for the source's columns (db/db_create_like.c) */
table_elements(A) ::= table_like(D).
    { A = ab_alloc(ctx, sizeof *A); ab_vec_push(ctx, &A->cols, &D, sizeof D); }
table_elements(A) ::= table_elements(L) COMMA table_like(D).
    { A = L; ab_vec_push(ctx, &A->cols, &D, sizeof D); }
%type table_like {attu_ast_column_def}
table_like(A) ::= LIKE qualified_name(N) like_options(O).
{
    memset(&A, 0, sizeof A);
    A.like = ab_alloc(ctx, sizeof *A.like);
    A.like->table = (char *)N.name;
    A.like->schema = rel_schema(ctx, N.schema);
    A.like->position = N.pos;
    A.like->including = O;
    A.name = (char *)"";
    A.position = N.pos;
}
/* The option words are identifiers (GENERATED and ALL keywords), checked
 * by name as PostgreSQL's TableLikeOption lists them. */
%include {
static unsigned ab_like_option(attu_parse_ctx *ctx, const attu_token *w) {
    static const struct { const char *word; unsigned bit; } opts[] = {
        { "comments", ATTU_LIKE_COMMENTS }, { "compression", ATTU_LIKE_COMPRESSION },
        { "constraints", ATTU_LIKE_CONSTRAINTS }, { "defaults", ATTU_LIKE_DEFAULTS },
        { "identity", ATTU_LIKE_IDENTITY }, { "indexes", ATTU_LIKE_INDEXES },
        { "statistics", ATTU_LIKE_STATISTICS }, { "storage", ATTU_LIKE_STORAGE },
    };
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (ab_word_is(ctx, w, opts[i].word)) return opts[i].bit;
    ab_word_expect(ctx, w, "\001");
    return 0;
}
static unsigned ab_like_include(attu_parse_ctx *ctx, unsigned have, const attu_token *how, unsigned bits) {
    if (ab_word_is(ctx, how, "including")) return have | bits;
    ab_word_expect(ctx, how, "excluding");
    return have & ~bits;
}
}
%type like_options {unsigned}
like_options(A) ::= .                                   { A = 0; }
like_options(A) ::= like_options(L) ID(H) ID(W).        { A = ab_like_include(ctx, L, &H, ab_like_option(ctx, &W)); }
like_options(A) ::= like_options(L) ID(H) GENERATED.    { A = ab_like_include(ctx, L, &H, ATTU_LIKE_GENERATED); }
like_options(A) ::= like_options(L) ID(H) ALL.          { A = ab_like_include(ctx, L, &H, ATTU_LIKE_ALL); }
table_elements(A) ::= table_elements(L) COMMA table_constraint(P).
{
    A = L;
    ab_vec_push(ctx, &A->uniques, &P, sizeof P);
    if (P.primary) {
        if (A->npk_clauses++)
            ab_defer_error(ctx, "42P16", P.columns.n ? P.columns.positions[0] : 0,
                           "multiple primary keys for table \"%s\" are not allowed",
                           ctx->cur_table);
        A->pk.names.items = P.columns.items; A->pk.positions.items = P.columns.positions;
        A->pk.names.n = A->pk.positions.n = P.columns.n;
    }
}

/* [CONSTRAINT name] PRIMARY KEY (cols) | UNIQUE (cols) | CHECK (expr) */
%type table_constraint {attu_ast_unique_def}
/* The attributes after a table constraint ([NOT] DEFERRABLE, INITIALLY
 * ..., NOT VALID), as PostgreSQL's ConstraintAttributeSpec: DEFERRABLE is
 * a foreign key's, a PRIMARY KEY's or a UNIQUE's (a CHECK's is 0A000),
 * NOT VALID a foreign key's or a CHECK's (CREATE TABLE ignores it: the
 * table has no rows to skip). */
%include {
typedef struct ab_conattrs { attu_ast_fkey d; bool not_valid; int not_valid_position; } ab_conattrs;
static void ab_con_attrs(attu_parse_ctx *ctx, attu_ast_unique_def *u, const ab_conattrs *a) {
    const char *what = u->fkey ? NULL : u->check ? "CHECK" : u->primary ? "PRIMARY KEY" : "UNIQUE";
    if (u->fkey) {
        u->fkey->deferrable = a->d.deferrable;
        u->fkey->initially_deferred = a->d.initially_deferred;
        u->fkey->deferrable_position = a->d.deferrable_position;
    } else if ((a->d.deferrable || a->d.initially_deferred) && u->check) {
        ab_defer_error(ctx, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, a->d.deferrable_position,
                       "CHECK constraints cannot be marked DEFERRABLE");
    } else if (!u->check) {
        /* a PRIMARY KEY's or UNIQUE's (INITIALLY DEFERRED implies
         * DEFERRABLE: ab_con_attr refused NOT DEFERRABLE with it) */
        u->deferrable = a->d.deferrable || a->d.initially_deferred;
        u->initially_deferred = a->d.initially_deferred;
    }
    if (a->not_valid && what && !u->check)
        ab_defer_error(ctx, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                       "%s constraints cannot be marked NOT VALID", what);   /* (no position, as PostgreSQL) */
    u->not_valid = a->not_valid;
    u->not_valid_position = a->not_valid_position;
}
}
table_constraint(A) ::= table_constraint_elem(E) con_attrs(D).     { A = E; ab_con_attrs(ctx, &A, &D); }
table_constraint(A) ::= CONSTRAINT colid(N) table_constraint_elem(E) con_attrs(D).
    { A = E; A.name = (char *)ab_tokstr(&N); ab_con_attrs(ctx, &A, &D); }
%type table_constraint_elem {attu_ast_unique_def}
table_constraint_elem(A) ::= PRIMARY(K) key_word LP name_list(L) RP.
    { memset(&A, 0, sizeof A); A.primary = true; A.columns = ab_names(L); A.position = K.pos; }
table_constraint_elem(A) ::= UNIQUE(K) LP name_list(L) RP.
    { memset(&A, 0, sizeof A); A.columns = ab_names(L); A.position = K.pos; }
table_constraint_elem(A) ::= CHECK(K) LP(P) a_expr(E) RP(R).
    { memset(&A, 0, sizeof A); ab_check(ctx, &A, &K, &P, E, &R); }
/* FOREIGN KEY (cols) REFERENCES ... (FOREIGN and REFERENCES are reserved
 * words without a use elsewhere: checked by name) */
table_constraint_elem(A) ::= RESERVED_BARE(F) key_word LP name_list(L) RP fk_references(R).
{
    memset(&A, 0, sizeof A);
    ab_word_expect(ctx, &F, "foreign");
    A.columns = ab_names(L);
    A.position = F.pos;
    A.fkey = R;
}
%include {
/* The words of a foreign key's clauses (MATCH, the actions, DEFERRABLE)
 * that PostgreSQL has as unreserved keywords: identifiers here. */
static char ab_fk_match(attu_parse_ctx *ctx, const attu_token *m, const attu_token *w) {
    ab_word_expect(ctx, m, "match");
    if (ab_word_is(ctx, w, "full")) return 'f';
    if (ab_word_is(ctx, w, "simple")) return 's';
    if (ab_word_is(ctx, w, "partial")) {
        ab_defer_error(ctx, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, m->pos, "MATCH PARTIAL not yet implemented");
        return 's';
    }
    ab_word_expect(ctx, w, "simple");
    return 's';
}
}
%type fk_references {attu_ast_fkey *}
fk_references(A) ::= RESERVED_BARE(K) qualified_name(N) fk_ref_columns(C) fk_actions(F).
{
    ab_word_expect(ctx, &K, "references");
    A = ab_alloc(ctx, sizeof *A);
    *A = F;
    A->ref_table = (char *)N.name;
    A->ref_position = N.pos;
    A->ref_schema = rel_schema(ctx, N.schema);
    if (C) A->ref_columns = ab_names(C);
}
%type fk_ref_columns {attu_names *}
fk_ref_columns(A) ::= LP name_list(L) RP.   { A = L; }
fk_ref_columns(A) ::= .                     { A = NULL; }
%type fk_actions {attu_ast_fkey}
fk_actions(A) ::= .   { memset(&A, 0, sizeof A); A.match = 's'; A.on_update = A.on_delete = 'a'; }
fk_actions(A) ::= fk_actions(L) ID(M) FULL(W).  { A = L; ab_word_expect(ctx, &M, "match"); A.match = 'f'; (void)W; }
fk_actions(A) ::= fk_actions(L) ID(M) ID(W).    { A = L; A.match = ab_fk_match(ctx, &M, &W); }
fk_actions(A) ::= fk_actions(L) ON DELETE fk_action(X).
{
    A = L;
    A.on_delete = X.action;
    A.delete_set_columns = ab_names(X.cols);
}
fk_actions(A) ::= fk_actions(L) ON(K) UPDATE fk_action(X).
{
    A = L;
    A.on_update = X.action;
    if (X.cols)   /* (PostgreSQL's grammar takes the list, then refuses it) */
        ab_defer_error(ctx, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, K.pos,
                       "a column list with %s is only supported for ON DELETE actions",
                       X.action == 'n' ? "SET NULL" : "SET DEFAULT");
}
/* an action; SET NULL / SET DEFAULT may list the columns they set
 * (PostgreSQL 15) */
%include {
typedef struct ab_fk_action { char action; attu_names *cols; } ab_fk_action;
}
%type fk_action {ab_fk_action}
fk_action(A) ::= NO ID(W).      { A.action = 'a'; A.cols = NULL; ab_word_expect(ctx, &W, "action"); }
fk_action(A) ::= RESTRICT.      { A.action = 'r'; A.cols = NULL; }
fk_action(A) ::= CASCADE.       { A.action = 'c'; A.cols = NULL; }
fk_action(A) ::= SET NULL.      { A.action = 'n'; A.cols = NULL; }
fk_action(A) ::= SET DEFAULT.   { A.action = 'd'; A.cols = NULL; }
fk_action(A) ::= SET NULL LP name_list(L) RP.       { A.action = 'n'; A.cols = L; }
fk_action(A) ::= SET DEFAULT LP name_list(L) RP.    { A.action = 'd'; A.cols = L; }
/* One of a table constraint's deferral attributes, as PostgreSQL's
 * ConstraintAttributeSpec combines them: repeating one is fine, opposites
 * conflict, INITIALLY DEFERRED implies DEFERRABLE unless NOT DEFERRABLE
 * is written (42601 at the attribute). */
%include {
static void ab_con_attr(attu_parse_ctx *ctx, ab_conattrs *a, const attu_token *k, int deferrable, const attu_token *w) {
    attu_ast_fkey *d = &a->d;
    bool deferred = false, immediate = false;
    if (deferrable < 0) {
        deferred = ab_word_is(ctx, w, "deferred");
        if (!deferred) ab_word_expect(ctx, w, "immediate");
        immediate = !deferred;
    }
    bool not_deferrable = d->not_deferrable || deferrable == 0, is_deferrable = d->deferrable || deferrable > 0;
    bool init_deferred = d->initially_deferred || deferred, init_immediate = (d->initially_seen && !d->initially_deferred) || immediate;
    if (not_deferrable && init_deferred)
        ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, k->pos, "constraint declared INITIALLY DEFERRED must be DEFERRABLE");
    else if ((not_deferrable && is_deferrable) || (init_deferred && init_immediate))
        ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, k->pos, "conflicting constraint properties");
    d->not_deferrable = not_deferrable;
    d->deferrable = is_deferrable;   /* (INITIALLY DEFERRED implies it: db_fkey.c) */
    d->initially_deferred = init_deferred;
    d->initially_seen |= deferrable < 0;
    if (!d->deferrable_position) d->deferrable_position = k->pos;
}
}
%type con_attrs {ab_conattrs}
con_attrs(A) ::= .   { memset(&A, 0, sizeof A); }
con_attrs(A) ::= con_attrs(L) DEFERRABLE(K).      { A = L; ab_con_attr(ctx, &A, &K, 1, NULL); }
con_attrs(A) ::= con_attrs(L) NOT(K) DEFERRABLE.  { A = L; ab_con_attr(ctx, &A, &K, 0, NULL); }
con_attrs(A) ::= con_attrs(L) INITIALLY(I) ID(W). { A = L; ab_con_attr(ctx, &A, &I, -1, &W); }
con_attrs(A) ::= con_attrs(L) NOT(K) ID(W).
    { A = L; ab_word_expect(ctx, &W, "valid"); A.not_valid = true; A.not_valid_position = K.pos; }

%type column_def {attu_ast_column_def}
column_def(A) ::= column_name(N) typename(T) col_constraints(C).
{
    memset(&A, 0, sizeof A);
    A.name = (char *)ab_tokstr(&N);
    A.position = N.pos;
    A.type = T;
    A.not_null = C.not_null;
    A.primary_key = C.primary_key;
    A.default_ = C.default_;
    if (C.uq) { A.uniques = C.uq->items; A.nuniques = C.uq->n; }
    if (C.cname)
        ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, C.cname_pos, "syntax error at or near \"%s\"", ",");
    A.identity = C.identity;
    A.identity_position = C.identity_position;
    A.identity_options = C.identity_options;
    A.identity_as = C.identity_as;
    A.generated = C.generated;
    A.generated_text = C.generated_text;
    A.generated_position = C.generated_position;
    A.generated_keyword_position = C.generated_keyword_position;
    A.default_keyword_position = C.default_keyword_position;
}
/* Remembers the column being defined, for constraint messages. */
column_name(A) ::= colid(N).    { A = N; ctx->cur_column = ab_tokstr(&N); }

%include {
typedef struct ab_colcons {
    bool not_null, primary_key, null_seen, not_null_seen;
    attu_ast_expr *default_;
    attu_vec *uq;             /* PRIMARY KEY / UNIQUE on the column, in order */
    const char *cname;        /* a CONSTRAINT name waiting for its constraint */
    int cname_pos;
    char identity;
    int identity_position;
    attu_sequence_options identity_options;
    attu_ast_typename identity_as;
    attu_ast_expr *generated;   /* GENERATED ALWAYS AS (expr) STORED */
    char *generated_text;
    int generated_position, generated_keyword_position, default_keyword_position;
    /* the last clause was NOT NULL, NULL, DEFAULT or GENERATED, which
     * take no DEFERRABLE / INITIALLY after them (PostgreSQL's
     * "misplaced" even when a key came before) */
    bool no_attrs;
} ab_colcons;
/* PRIMARY KEY or UNIQUE on the column being defined (ctx->cur_column). */
static void ab_col_unique(attu_parse_ctx *c, ab_colcons *a, bool primary, int pos) {
    attu_ast_unique_def u;
    memset(&u, 0, sizeof u);
    u.name = (char *)a->cname;
    u.primary = primary;
    u.position = pos;
    u.columns = ab_names(ab_names_push(c, NULL, c->cur_column, pos));
    if (!a->uq) a->uq = vec_new(c);
    ab_vec_push(c, a->uq, &u, sizeof u);
    a->cname = NULL;
    a->no_attrs = false;
}
/* CHECK (expr): the expression and its text as written, which the db
 * layer keeps (db/db_check.c). */
static void ab_check(attu_parse_ctx *c, attu_ast_unique_def *u, const attu_token *k, const attu_token *lp,
                     attu_ast_expr *e, const attu_token *rp) {
    size_t from = lp->off + lp->len, n = rp->off - from;
    char *text = ab_alloc(c, n + 1);
    memcpy(text, c->sql + from, n);
    text[n] = 0;
    u->check = e;
    u->check_text = text;
    u->check_position = lp->pos + 1;
    u->position = k->pos;
}
/* CHECK (expr) on the column being defined: a constraint of the table
 * (its name comes from the columns the expression uses, as PostgreSQL's) */
static void ab_col_check(attu_parse_ctx *c, ab_colcons *a, const attu_token *k, const attu_token *lp,
                         attu_ast_expr *e, const attu_token *rp) {
    attu_ast_unique_def u;
    memset(&u, 0, sizeof u);
    u.name = (char *)a->cname;
    ab_check(c, &u, k, lp, e, rp);
    if (!a->uq) a->uq = vec_new(c);
    ab_vec_push(c, a->uq, &u, sizeof u);
    a->cname = NULL;
}
static void ab_col_deferral(attu_parse_ctx *ctx, ab_colcons *a, const attu_token *k, int deferrable,
                            const attu_token *w) {
    attu_ast_unique_def *u = a->uq && a->uq->n ? (attu_ast_unique_def *)a->uq->items + (a->uq->n - 1) : NULL;
    bool deferred = deferrable < 0 && ab_word_is(ctx, w, "deferred");
    const char *clause = deferrable > 0 ? "DEFERRABLE" : deferrable == 0 ? "NOT DEFERRABLE"
                       : deferred ? "INITIALLY DEFERRED" : "INITIALLY IMMEDIATE";
    if (deferrable < 0 && !deferred) ab_word_expect(ctx, w, "immediate");
    if (!u || u->check || a->no_attrs) {
        ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, k->pos, "misplaced %s clause", clause);
        return;
    }
    /* PostgreSQL's rules for a column constraint's attributes: each kind
     * once, and INITIALLY DEFERRED only on a DEFERRABLE one (implied when
     * DEFERRABLE is not written); a foreign key's flags or a PRIMARY
     * KEY's / UNIQUE's */
    attu_ast_fkey *f = u->fkey;
    bool *is_deferrable = f ? &f->deferrable : &u->deferrable, *not_deferrable = f ? &f->not_deferrable : &u->not_deferrable;
    bool *init_deferred = f ? &f->initially_deferred : &u->initially_deferred;
    bool *init_seen = f ? &f->initially_seen : &u->initially_seen;
    if (deferrable >= 0) {
        if (*is_deferrable || *not_deferrable) {
            ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, k->pos, "multiple DEFERRABLE/NOT DEFERRABLE clauses not allowed");
            return;
        }
        *is_deferrable = deferrable > 0;
        *not_deferrable = deferrable == 0;
        if (*not_deferrable && *init_deferred)
            ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, k->pos, "constraint declared INITIALLY DEFERRED must be DEFERRABLE");
    } else {
        if (*init_seen) {
            ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, k->pos, "multiple INITIALLY IMMEDIATE/DEFERRED clauses not allowed");
            return;
        }
        *init_seen = true;
        *init_deferred = deferred;   /* (which implies DEFERRABLE: db_fkey.c, db_unique_define) */
        if (deferred && *not_deferrable)
            ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, k->pos, "constraint declared INITIALLY DEFERRED must be DEFERRABLE");
    }
    if (f && !f->deferrable_position) f->deferrable_position = k->pos;
}
static void ab_identity(attu_parse_ctx *ctx, ab_colcons *c, char kind, int pos, const ab_seqopts *o) {
    if (c->identity)
        ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, pos, "multiple identity specifications for column \"%s\" of table \"%s\"",
                       ctx->cur_column, ctx->cur_table);
    c->identity = kind;
    c->identity_position = pos;
    c->identity_options = o->o;
    c->identity_as = o->as;
}
}
%type col_constraints {ab_colcons}
col_constraints(A) ::= col_constraints(L) NOT(K) NULL.
{
    A = L;
    if (A.null_seen)
        ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, K.pos,
                       "conflicting NULL/NOT NULL declarations for column \"%s\" of table \"%s\"",
                       ctx->cur_column, ctx->cur_table);
    A.not_null = true; A.cname = NULL;
    A.not_null_seen = true;
    A.no_attrs = true;
}
col_constraints(A) ::= col_constraints(L) NULL(K).
{
    A = L;
    if (A.not_null_seen)
        ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, K.pos,
                       "conflicting NULL/NOT NULL declarations for column \"%s\" of table \"%s\"",
                       ctx->cur_column, ctx->cur_table);
    A.null_seen = true; A.cname = NULL;
    A.no_attrs = true;
}
col_constraints(A) ::= col_constraints(L) PRIMARY(K) key_word.
    { A = L; A.primary_key = true; A.not_null = true; ab_col_unique(ctx, &A, true, K.pos); }
col_constraints(A) ::= col_constraints(L) UNIQUE(K).    { A = L; ab_col_unique(ctx, &A, false, K.pos); }
col_constraints(A) ::= col_constraints(L) CHECK(K) LP(P) a_expr(E) RP(R).
    { A = L; ab_col_check(ctx, &A, &K, &P, E, &R); }
col_constraints(A) ::= col_constraints(L) DEFAULT(K) b_expr(E).
    { A = L; A.default_ = E; A.default_keyword_position = K.pos; A.cname = NULL; A.no_attrs = true; }
/* REFERENCES t [(col)] ...: a FOREIGN KEY of the table over the column */
col_constraints(A) ::= col_constraints(L) fk_references(R).
{
    attu_ast_unique_def u;
    A = L;
    memset(&u, 0, sizeof u);
    u.name = (char *)A.cname;
    u.position = R->ref_position;
    u.columns = ab_names(ab_names_push(ctx, NULL, ctx->cur_column, R->ref_position));
    u.fkey = R;
    if (!A.uq) A.uq = vec_new(ctx);
    ab_vec_push(ctx, A.uq, &u, sizeof u);
    A.cname = NULL;
    A.no_attrs = false;
}
/* [NOT] DEFERRABLE, INITIALLY DEFERRED / IMMEDIATE: of the REFERENCES
 * just before (PostgreSQL's "misplaced" 42601 otherwise) */
col_constraints(A) ::= col_constraints(L) DEFERRABLE(K).
    { A = L; ab_col_deferral(ctx, &A, &K, 1, NULL); }
col_constraints(A) ::= col_constraints(L) NOT(K) DEFERRABLE.
    { A = L; ab_col_deferral(ctx, &A, &K, 0, NULL); }
col_constraints(A) ::= col_constraints(L) INITIALLY(K) ID(W).
    { A = L; ab_col_deferral(ctx, &A, &K, -1, &W); }
/* CONSTRAINT name names the constraint that follows (NOT NULL and NULL
 * take it too, as PostgreSQL's grammar does, and drop it) */
col_constraints(A) ::= col_constraints(L) CONSTRAINT(K) colid(N).
    { A = L; A.cname = ab_tokstr(&N); A.cname_pos = K.pos; }
/* GENERATED ALWAYS AS IDENTITY [(options)] / GENERATED BY DEFAULT AS
 * IDENTITY [(options)] (ALWAYS and IDENTITY identifiers here, checked by
 * name) */
col_constraints(A) ::= col_constraints(L) GENERATED(G) ID(W) AS ID(I) opt_identity_options(O).
{
    A = L;
    ab_word_expect(ctx, &W, "always");
    ab_word_expect(ctx, &I, "identity");
    ab_identity(ctx, &A, 'a', G.pos, &O);
    A.cname = NULL;
    A.no_attrs = true;
}
col_constraints(A) ::= col_constraints(L) GENERATED(G) BY DEFAULT AS ID(I) opt_identity_options(O).
{
    A = L;
    ab_word_expect(ctx, &I, "identity");
    ab_identity(ctx, &A, 'd', G.pos, &O);
    A.cname = NULL;
    A.no_attrs = true;
}
/* GENERATED ALWAYS AS (expr) STORED (ALWAYS and STORED identifiers,
 * checked by name; BY DEFAULT is PostgreSQL's 42601 at GENERATED). The
 * checks between DEFAULT, identity and generation are PostgreSQL's
 * transformColumnDefinition's (db/db_generated.c). */
%include {
static void ab_generated(attu_parse_ctx *ctx, ab_colcons *c, const attu_token *g, const attu_token *lp,
                         attu_ast_expr *e, const attu_token *rp) {
    if (c->generated)
        ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, g->pos, "multiple generation clauses specified for column \"%s\" of table \"%s\"",
                       ctx->cur_column, ctx->cur_table);
    size_t from = lp->off + lp->len, n = rp->off - from;
    char *text = ab_alloc(ctx, n + 1);
    memcpy(text, ctx->sql + from, n);
    text[n] = 0;
    c->generated = e;
    c->generated_text = text;
    c->generated_position = lp->pos + 1;
    c->generated_keyword_position = g->pos;
    c->cname = NULL;
    c->no_attrs = true;
}
}
col_constraints(A) ::= col_constraints(L) GENERATED(G) ID(W) AS LP(P) a_expr(E) RP(R) ID(S).
{
    A = L;
    ab_word_expect(ctx, &W, "always");
    ab_word_expect(ctx, &S, "stored");
    ab_generated(ctx, &A, &G, &P, E, &R);
}
col_constraints(A) ::= col_constraints(L) GENERATED(G) BY DEFAULT AS LP(P) a_expr(E) RP(R) ID(S).
{
    A = L;
    ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, G.pos, "for a generated column, GENERATED ALWAYS must be specified");
    ab_word_expect(ctx, &S, "stored");
    ab_generated(ctx, &A, &G, &P, E, &R);
}
%type opt_identity_options {ab_seqopts}
opt_identity_options(A) ::= LP seq_opt_list(L) RP.
{
    A = L;
    /* (the identity's sequence is its column's: PostgreSQL fails on it too) */
    if (L.has_owned)
        ab_defer_error(ctx, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, L.owned_pos, "OWNED BY is not supported in the options of an identity column");
}
opt_identity_options(A) ::= .                       { memset(&A, 0, sizeof A); }
col_constraints(A) ::= .    { memset(&A, 0, sizeof A); }

/* KEY is unreserved in PostgreSQL: a word "key" in the right place. */
key_word ::= ID(T).
{
    if (strcmp(ab_tokstr(&T), "key") != 0) {
        ab_error(ctx, ATTU_SQLSTATE_SYNTAX, T.pos, "syntax error at or near \"%.*s\"",
                 (int)T.len, ctx->sql + T.off);
        ctx->failed = true;
    }
}

%type opt_temp {bool}
opt_temp(A) ::= TEMP.           { A = true; }
opt_temp(A) ::= TEMPORARY.      { A = true; }
opt_temp(A) ::= .               { A = false; }
/* CREATE [TEMP | UNLOGGED] TABLE / SEQUENCE: true for TEMP. UNLOGGED is
 * PostgreSQL's table or sequence without WAL, emptied after a crash;
 * attu's are all alike (committed to the data directory, kept after a
 * crash), so it changes nothing, as in SELECT ... INTO UNLOGGED. */
%type opt_persistence {bool}
opt_persistence(A) ::= opt_temp(T).  { A = T; }
opt_persistence(A) ::= ID(U).        { A = false; ab_word_expect(ctx, &U, "unlogged"); }

/* ON COMMIT PRESERVE ROWS | DELETE ROWS | DROP (db/db_temp.c): 'p', 'd',
 * 'D'; 0 when absent */
%type opt_on_commit {char}
opt_on_commit(A) ::= .                          { A = 0; }
opt_on_commit(A) ::= ON COMMIT DROP.            { A = 'D'; }
opt_on_commit(A) ::= ON COMMIT DELETE ROWS.     { A = 'd'; }
opt_on_commit(A) ::= ON COMMIT ID(W) ROWS.      { A = 'p'; ab_word_expect(ctx, &W, "preserve"); }
%include {
/* ON COMMIT on a table that is not temporary: PostgreSQL's refusal */
static void ab_on_commit_check(attu_parse_ctx *c, bool temp, char on_commit) {
    if (on_commit && !temp) ab_defer_error(c, "42P16", 0, "ON COMMIT can only be used on temporary tables");
}
}

/* "IF" may also be a table name, so the head of the statement takes the
 * name too (as in PostgreSQL's separate rules) and the token after IF
 * decides. */
%include {
typedef struct ab_create_head { ab_qname name; bool if_not_exists; int pos; bool temp; } ab_create_head;
}
%type create_head {ab_create_head}
create_head(A) ::= CREATE(K) opt_persistence(T) TABLE IF NOT EXISTS qualified_name(N).
    { A.name = N; A.if_not_exists = true; A.pos = K.pos; A.temp = ab_temp_head(ctx, T, &N); ctx->cur_table = N.name; create_in_schema(ctx, &N); }
create_head(A) ::= CREATE(K) opt_persistence(T) TABLE qualified_name(N).
    { A.name = N; A.if_not_exists = false; A.pos = K.pos; A.temp = ab_temp_head(ctx, T, &N); ctx->cur_table = N.name; create_in_schema(ctx, &N); }

%type create_as_stmt {attu_ast_stmt *}
create_as_stmt(A) ::= create_head(H) opt_name_list(C) opt_on_commit(O) AS select_stmt(Q) opt_with_data(D).
{
    A = ab_stmt(ctx, ATTU_STMT_CREATE_TABLE_AS, H.pos);
    A->u.create_table_as.temp = H.temp;
    A->u.create_table_as.on_commit = O;
    ab_on_commit_check(ctx, H.temp, O);
    A->u.create_table_as.table = (char *)H.name.name;
    A->u.create_table_as.if_not_exists = H.if_not_exists;
    A->u.create_table_as.columns = ab_names(C);
    A->u.create_table_as.query = Q;
    A->u.create_table_as.with_no_data = D;
}
create_as_stmt(A) ::= create_head(H) opt_name_list(C) opt_on_commit(O) AS execute_stmt(E) opt_with_data(D).
{
    A = ab_stmt(ctx, ATTU_STMT_CREATE_TABLE_AS, H.pos);
    A->u.create_table_as.temp = H.temp;
    A->u.create_table_as.on_commit = O;
    ab_on_commit_check(ctx, H.temp, O);
    A->u.create_table_as.table = (char *)H.name.name;
    A->u.create_table_as.if_not_exists = H.if_not_exists;
    A->u.create_table_as.columns = ab_names(C);
    A->u.create_table_as.execute = E;
    A->u.create_table_as.with_no_data = D;
}
%type opt_with_data {bool}
opt_with_data(A) ::= WITH DATA.         { A = false; }
opt_with_data(A) ::= WITH NO DATA.      { A = true; }
opt_with_data(A) ::= .                  { A = false; }

%type drop_stmt {attu_ast_stmt *}
drop_stmt(A) ::= DROP(K) TABLE IF EXISTS drop_name_list(L) opt_drop_behavior(B).
{
    A = ab_stmt(ctx, ATTU_STMT_DROP_TABLE, K.pos);
    A->u.drop_table.tables = ab_names(L);
    A->u.drop_table.if_exists = true;
    A->u.drop_table.cascade = B;
}
drop_stmt(A) ::= DROP(K) TABLE drop_name_list(L) opt_drop_behavior(B).
{
    A = ab_stmt(ctx, ATTU_STMT_DROP_TABLE, K.pos);
    A->u.drop_table.tables = ab_names(L);
    A->u.drop_table.cascade = B;
}
/* DROP TABLE's names, public.NAME being NAME (attu's one schema); a
 * system catalog cannot be dropped (42501, as PostgreSQL says) */
%type drop_name_list {attu_names *}
drop_name_list(A) ::= colid(N).                             { A = ab_names_push_rel(ctx, NULL, ab_tokstr(&N), N.pos, 0); }
drop_name_list(A) ::= colid(S) DOT attr_name(N).
    { A = ab_names_push_rel(ctx, NULL, drop_name(ctx, &S, &N), S.pos, rel_schema(ctx, ab_tokstr(&S))); }
drop_name_list(A) ::= drop_name_list(L) COMMA colid(N).     { A = ab_names_push_rel(ctx, L, ab_tokstr(&N), N.pos, 0); }
drop_name_list(A) ::= drop_name_list(L) COMMA colid(S) DOT attr_name(N).
    { A = ab_names_push_rel(ctx, L, drop_name(ctx, &S, &N), S.pos, rel_schema(ctx, ab_tokstr(&S))); }
drop_stmt(A) ::= DROP(K) VIEW IF EXISTS drop_name_list(L) opt_drop_behavior(B).
{
    A = ab_stmt(ctx, ATTU_STMT_DROP_VIEW, K.pos);
    A->u.drop_table.tables = ab_names(L);
    A->u.drop_table.if_exists = true;
    A->u.drop_table.cascade = B;
}
drop_stmt(A) ::= DROP(K) SEQUENCE IF EXISTS drop_name_list(L) opt_drop_behavior(B).
{
    A = ab_stmt(ctx, ATTU_STMT_DROP_SEQUENCE, K.pos);
    A->u.drop_table.tables = ab_names(L);
    A->u.drop_table.if_exists = true;
    A->u.drop_table.cascade = B;
}
drop_stmt(A) ::= DROP(K) MATERIALIZED VIEW IF EXISTS drop_name_list(L) opt_drop_behavior(B).
{
    A = ab_stmt(ctx, ATTU_STMT_DROP_VIEW, K.pos);
    A->u.drop_table.tables = ab_names(L);
    A->u.drop_table.if_exists = true;
    A->u.drop_table.cascade = B;
    A->u.drop_table.materialized = true;
}
drop_stmt(A) ::= DROP(K) MATERIALIZED VIEW drop_name_list(L) opt_drop_behavior(B).
{
    A = ab_stmt(ctx, ATTU_STMT_DROP_VIEW, K.pos);
    A->u.drop_table.tables = ab_names(L);
    A->u.drop_table.cascade = B;
    A->u.drop_table.materialized = true;
}
drop_stmt(A) ::= DROP(K) VIEW drop_name_list(L) opt_drop_behavior(B).
{
    A = ab_stmt(ctx, ATTU_STMT_DROP_VIEW, K.pos);
    A->u.drop_table.tables = ab_names(L);
    A->u.drop_table.cascade = B;
}
drop_stmt(A) ::= DROP(K) SEQUENCE drop_name_list(L) opt_drop_behavior(B).
{
    A = ab_stmt(ctx, ATTU_STMT_DROP_SEQUENCE, K.pos);
    A->u.drop_table.tables = ab_names(L);
    A->u.drop_table.cascade = B;
}
%type opt_drop_behavior {bool}
opt_drop_behavior(A) ::= CASCADE.   { A = true; }
opt_drop_behavior(A) ::= RESTRICT.  { A = false; }
opt_drop_behavior(A) ::= .          { A = false; }

/* ======================================================================== */
/* CREATE [OR REPLACE] VIEW (db/db_view.c)                                  */

/* The view keeps its query as the text after AS (up to the end of the
 * statement, ctx->prev_end being the end of its last token): what the
 * binder parses again wherever the view is named. */
%type create_view_stmt {attu_ast_stmt *}
create_view_stmt(A) ::= view_head(H) select_stmt(Q).
    { A = ab_view_stmt(ctx, &H, Q, ctx->prev_end); }
create_view_stmt(A) ::= view_head(H) select_stmt(Q) WITH(W) check_option(C).
{
    /* (PostgreSQL adds the clause to the WITH (...) options, last) */
    ab_view_opts o = { .check = C };
    ab_view_opts_add(&H.opts, &o);
    A = ab_view_stmt(ctx, &H, Q, W.off);
}
/* CREATE MATERIALIZED VIEW */
create_view_stmt(A) ::= matview_head(H) select_stmt(Q).
    { A = ab_view_stmt(ctx, &H, Q, ctx->prev_end); }
create_view_stmt(A) ::= matview_head(H) select_stmt(Q) WITH(W) DATA.
    { A = ab_view_stmt(ctx, &H, Q, W.off); }
create_view_stmt(A) ::= matview_head(H) select_stmt(Q) WITH(W) NO DATA.
{
    A = ab_view_stmt(ctx, &H, Q, W.off);
    if (A) A->u.create_view.with_no_data = true;
}
%include {
typedef struct ab_view_opts { char check, bad_kind; char *bad, *bad_name; } ab_view_opts;
/* One more option o after those of a: a check_option given twice is the
 * first error after the ones before it (as PostgreSQL parses them). */
static void ab_view_opts_add(ab_view_opts *a, const ab_view_opts *o) {
    if (o->check && a->check && !a->bad_kind) { a->bad_kind = 'd'; a->bad_name = "check_option"; a->bad = ""; }
    if (o->check) a->check = o->check;
    if (!a->bad_kind && o->bad_kind) { a->bad_kind = o->bad_kind; a->bad = o->bad; a->bad_name = o->bad_name; }
}
/* PostgreSQL's parse_bool: a prefix of true, false, yes, no (off and on
 * from two letters), 1, 0, any case. */
static bool ab_is_bool_word(const char *v) {
    static const char *const words[] = { "true", "false", "yes", "no", "on", "off" };
    size_t n = strlen(v);
    if (!strcmp(v, "1") || !strcmp(v, "0")) return true;
    for (size_t i = 0; n && i < sizeof words / sizeof words[0]; i++)
        if (n <= strlen(words[i]) && !strncasecmp(v, words[i], n) && (words[i][0] != 'o' || n >= 2)) return true;
    return false;
}
/* WITH (name [= value]) of CREATE VIEW (value NULL: true) */
static ab_view_opts ab_view_opt(const attu_token *name, const attu_token *value) {
    ab_view_opts o = { 0 };
    const char *n = ab_tokstr(name), *v = value ? ab_tokstr(value) : "true";
    if (!strcmp(n, "check_option")) {
        if (!strcasecmp(v, "local")) o.check = 'l';
        else if (!strcasecmp(v, "cascaded")) o.check = 'c';
        else { o.check = '?'; o.bad_kind = 'e'; o.bad = (char *)v; o.bad_name = (char *)n; }
    } else if (!strcmp(n, "security_barrier") || !strcmp(n, "security_invoker")) {
        if (!ab_is_bool_word(v)) { o.bad_kind = 'b'; o.bad = (char *)v; o.bad_name = (char *)n; }
    } else {
        o.bad_kind = 'u';
        o.bad = "";
        o.bad_name = (char *)n;
    }
    return o;
}
typedef struct ab_view_head {
    int pos; bool or_replace, materialized, if_not_exists, temp; ab_qname name; attu_names *cols; attu_token as;
    ab_view_opts opts;
} ab_view_head;
}
%type view_head {ab_view_head}
view_head(A) ::= CREATE(K) opt_temp(T) VIEW qualified_name(N) opt_name_list(C) view_with(O) AS(S).
{
    memset(&A, 0, sizeof A); A.pos = K.pos; A.temp = ab_temp_head(ctx, T, &N); A.name = N; A.cols = C;
    A.as = S; A.opts = O;
}
view_head(A) ::= CREATE(K) OR REPLACE opt_temp(T) VIEW qualified_name(N) opt_name_list(C) view_with(O) AS(S).
{
    memset(&A, 0, sizeof A); A.pos = K.pos; A.or_replace = true; A.temp = ab_temp_head(ctx, T, &N); A.name = N;
    A.cols = C; A.as = S; A.opts = O;
}
%type matview_head {ab_view_head}
matview_head(A) ::= CREATE(K) MATERIALIZED VIEW qualified_name(N) opt_name_list(C) AS(S).
{
    memset(&A, 0, sizeof A); A.pos = K.pos; A.materialized = true; A.name = N; A.cols = C; A.as = S;
}
matview_head(A) ::= CREATE(K) MATERIALIZED VIEW IF NOT EXISTS qualified_name(N) opt_name_list(C) AS(S).
{
    memset(&A, 0, sizeof A); A.pos = K.pos; A.materialized = true; A.if_not_exists = true;
    A.name = N; A.cols = C; A.as = S;
}
/* WITH (check_option = local | cascaded, security_barrier = ..., ...) */
%type view_with {ab_view_opts}
view_with(A) ::= .                                  { memset(&A, 0, sizeof A); }
view_with(A) ::= WITH LP view_opt_list(L) RP.       { A = L; }
%type view_opt_list {ab_view_opts}
view_opt_list(A) ::= view_opt(O).                   { A = O; }
view_opt_list(A) ::= view_opt_list(L) COMMA view_opt(O).      { A = L; ab_view_opts_add(&A, &O); }
%type view_opt {ab_view_opts}
view_opt(A) ::= colid(N) EQ view_opt_value(V).      { A = ab_view_opt(&N, &V); }
view_opt(A) ::= colid(N).                           { A = ab_view_opt(&N, NULL); }
%type view_opt_value {attu_token}
view_opt_value(A) ::= colid(T).     { A = T; }
view_opt_value(A) ::= SCONST(T).    { A = T; }
view_opt_value(A) ::= TRUE(T).      { A = T; }
view_opt_value(A) ::= FALSE(T).     { A = T; }
view_opt_value(A) ::= ICONST(T).    { A = T; }
/* [CASCADED | LOCAL] CHECK OPTION (OPTION and CASCADED are plain words, checked by name) */
%type check_option {char}
check_option(A) ::= CHECK ID(O).            { ab_word_expect(ctx, &O, "option"); A = 'c'; }
check_option(A) ::= LOCAL CHECK ID(O).      { ab_word_expect(ctx, &O, "option"); A = 'l'; }
check_option(A) ::= ID(T) CHECK ID(O).      { ab_word_expect(ctx, &T, "cascaded"); ab_word_expect(ctx, &O, "option"); A = 'c'; }

/* REFRESH MATERIALIZED VIEW v [WITH [NO] DATA] (db/db_matview.c) */
%type refresh_stmt {attu_ast_stmt *}
refresh_stmt(A) ::= REFRESH(R) MATERIALIZED VIEW qualified_name(N) opt_with_data(D).
{
    A = ab_stmt(ctx, ATTU_STMT_REFRESH_MATVIEW, R.pos);
    if (A) {
        A->u.drop_table.tables = ab_names(ab_names_push(ctx, NULL, N.name, N.pos));
        A->u.drop_table.materialized = D;
        A->schema = rel_schema(ctx, N.schema);
    }
}

%include {
static attu_ast_stmt *ab_view_stmt(attu_parse_ctx *ctx, const ab_view_head *h, attu_ast_query *q, size_t end) {
    attu_ast_stmt *st = ab_stmt(ctx, ATTU_STMT_CREATE_VIEW, h->pos);
    st->schema = rel_schema(ctx, h->name.schema);   /* (public.v over a temporary relation: db/db_temp.c) */
    if (!st) return NULL;
    st->u.create_view.view = (char *)h->name.name;
    st->u.create_view.view_position = h->name.pos;
    st->u.create_view.or_replace = h->or_replace;
    st->u.create_view.materialized = h->materialized;
    st->u.create_view.temp = h->temp;
    st->u.create_view.if_not_exists = h->if_not_exists;
    st->u.create_view.columns = ab_names(h->cols);
    st->u.create_view.query = q;
    st->u.create_view.check_option = h->opts.check;
    st->u.create_view.bad_option_kind = h->opts.bad_kind;
    st->u.create_view.bad_option = h->opts.bad;
    st->u.create_view.bad_option_name = h->opts.bad_name;
    /* the text from after AS to the end of the query's last token */
    size_t from = h->as.off + h->as.len;
    size_t to = end > from ? end : from;
    while (from < to && (ctx->sql[from] == ' ' || ctx->sql[from] == '\t' || ctx->sql[from] == '\n' ||
                         ctx->sql[from] == '\r'))
        from++;
    while (to > from && (ctx->sql[to - 1] == ' ' || ctx->sql[to - 1] == '\t' || ctx->sql[to - 1] == '\n' ||
                         ctx->sql[to - 1] == '\r'))
        to--;
    st->u.create_view.query_sql = ab_strndup(ctx, ctx->sql + from, to - from);
    /* A plain view's own SELECT ... INTO has PostgreSQL's view message;
     * any other INTO (a materialized view's, a subquery's) is misplaced. */
    const ab_into *in = ctx->intos.items;
    if (!h->materialized && ctx->intos.n && in[0].query == q)
        ab_into_refuse(ctx, "0A000", "views must not contain SELECT INTO");
    return st;
}
}

/* ======================================================================== */
/* CREATE SEQUENCE (db/db_sequence.c); its options also follow an identity  */
/* column's AS IDENTITY. The option words are identifiers, checked by name. */

%include {
typedef struct ab_seqname { ab_qname name; bool if_exists; } ab_seqname;
static attu_ast_stmt *ab_alter_seq(attu_parse_ctx *ctx, int pos, const ab_seqname *n) {
    attu_ast_stmt *st = ab_stmt(ctx, ATTU_STMT_ALTER_SEQUENCE, pos);
    st->u.create_sequence.name = (char *)n->name.name;
    st->u.create_sequence.name_position = n->name.pos;
    st->u.create_sequence.if_exists = n->if_exists;
    st->schema = rel_schema(ctx, n->name.schema);   /* (public.s, pg_temp.s: db/db_sequence.c) */
    return st;
}
/* The character position just past the last token read (an error "at end
 * of input"). */
static int ab_end_position(const attu_parse_ctx *ctx) {
    int pos = 1;
    for (size_t i = 0; i < ctx->prev_end && i < ctx->sql_len; i++)
        if (((unsigned char)ctx->sql[i] & 0xC0) != 0x80) pos++;
    return pos;
}
static void ab_seq_owned(attu_ast_stmt *st, const ab_seqopts *o) {
    st->u.create_sequence.has_owned = o->has_owned;
    st->u.create_sequence.owned_none = o->owned_none;
    st->u.create_sequence.owned_table = (char *)o->owned_table;
    st->u.create_sequence.owned_column = (char *)o->owned_column;
    st->u.create_sequence.owned_position = o->owned_pos;
}
}
%type create_seq_stmt {attu_ast_stmt *}
%type alter_seq_stmt {attu_ast_stmt *}
create_seq_stmt(A) ::= CREATE(K) opt_persistence(T) SEQUENCE IF NOT EXISTS qualified_name(N) seq_opt_list(O).
{
    A = ab_stmt(ctx, ATTU_STMT_CREATE_SEQUENCE, K.pos);
    A->schema = rel_schema(ctx, N.schema);
    A->u.create_sequence.temp = T || A->schema == ATTU_REL_TEMP;
    A->u.create_sequence.name = (char *)N.name;
    A->u.create_sequence.name_position = N.pos;
    A->u.create_sequence.if_not_exists = true;
    A->u.create_sequence.options = O.o;
    A->u.create_sequence.as = O.as;
    ab_seq_owned(A, &O);
}
create_seq_stmt(A) ::= CREATE(K) opt_persistence(T) SEQUENCE qualified_name(N) seq_opt_list(O).
{
    A = ab_stmt(ctx, ATTU_STMT_CREATE_SEQUENCE, K.pos);
    A->schema = rel_schema(ctx, N.schema);
    A->u.create_sequence.temp = T || A->schema == ATTU_REL_TEMP;
    A->u.create_sequence.name = (char *)N.name;
    A->u.create_sequence.name_position = N.pos;
    A->u.create_sequence.options = O.o;
    A->u.create_sequence.as = O.as;
    ab_seq_owned(A, &O);
}

/* ALTER SEQUENCE [IF EXISTS] name option ... / RENAME TO new_name
 * (db/db_sequence.c); the options are CREATE SEQUENCE's and RESTART. */
alter_seq_stmt(A) ::= ALTER(K) SEQUENCE alter_seq_name(N) seq_opt_list(O).
{
    A = ab_alter_seq(ctx, K.pos, &N);
    A->u.create_sequence.options = O.o;
    A->u.create_sequence.as = O.as;
    ab_seq_owned(A, &O);
    if (!O.o.has_increment && !O.o.has_min && !O.o.has_max && !O.o.has_start && !O.o.has_cache && !O.o.has_cycle &&
        !O.o.has_restart && !O.as.name && !O.has_owned && !ctx->failed) {
        /* (PostgreSQL's grammar wants one option at least) */
        ab_error(ctx, ATTU_SQLSTATE_SYNTAX, ab_end_position(ctx), "syntax error at end of input");
        ctx->failed = true;
    }
}
alter_seq_stmt(A) ::= ALTER(K) SEQUENCE alter_seq_name(N) RENAME TO colid(T).
{
    A = ab_alter_seq(ctx, K.pos, &N);
    A->u.create_sequence.new_name = (char *)ab_tokstr(&T);
}
%type alter_seq_name {ab_seqname}
alter_seq_name(A) ::= IF EXISTS qualified_name(N).  { A.name = N; A.if_exists = true; }
alter_seq_name(A) ::= qualified_name(N).            { A.name = N; A.if_exists = false; }

%type seq_opt_list {ab_seqopts}
%type seq_num {int64_t}
seq_opt_list(A) ::= .   { memset(&A, 0, sizeof A); }
seq_opt_list(A) ::= seq_opt_list(L) AS(K) typename(T).
    { A = L; bool seen = A.as.name != NULL; ab_seq_once(ctx, &seen, K.pos); A.as = T; }
seq_opt_list(A) ::= seq_opt_list(L) START(K) opt_with seq_num(V).
    { A = L; ab_seq_once(ctx, &A.o.has_start, K.pos); A.o.start = V; }
seq_opt_list(A) ::= seq_opt_list(L) ID(W) opt_by(B) seq_num(V).
{
    A = L;
    if (ab_word_is(ctx, &W, "increment")) { ab_seq_once(ctx, &A.o.has_increment, W.pos); A.o.increment = V; }
    else if (B) ab_word_expect(ctx, &W, "increment");
    else if (ab_word_is(ctx, &W, "minvalue")) { ab_seq_once(ctx, &A.o.has_min, W.pos); A.o.min = V; }
    else if (ab_word_is(ctx, &W, "maxvalue")) { ab_seq_once(ctx, &A.o.has_max, W.pos); A.o.max = V; }
    else if (ab_word_is(ctx, &W, "cache")) { ab_seq_once(ctx, &A.o.has_cache, W.pos); A.o.cache = V; }
    else ab_word_expect(ctx, &W, "increment");
}
seq_opt_list(A) ::= seq_opt_list(L) NO ID(W).
{
    A = L;
    if (ab_word_is(ctx, &W, "minvalue")) { ab_seq_once(ctx, &A.o.has_min, W.pos); A.o.no_min = true; }
    else if (ab_word_is(ctx, &W, "maxvalue")) { ab_seq_once(ctx, &A.o.has_max, W.pos); A.o.no_max = true; }
    else if (ab_word_is(ctx, &W, "cycle")) { ab_seq_once(ctx, &A.o.has_cycle, W.pos); A.o.cycle = false; }
    else ab_word_expect(ctx, &W, "cycle");
}
seq_opt_list(A) ::= seq_opt_list(L) ID(W).
    { A = L; ab_word_expect(ctx, &W, "cycle"); ab_seq_once(ctx, &A.o.has_cycle, W.pos); A.o.cycle = true; }
/* RESTART [[WITH] n] (ALTER SEQUENCE; CREATE SEQUENCE takes it too) */
seq_opt_list(A) ::= seq_opt_list(L) RESTART(K).
    { A = L; ab_seq_once(ctx, &A.o.has_restart, K.pos); }
seq_opt_list(A) ::= seq_opt_list(L) RESTART(K) WITH seq_num(V).
    { A = L; ab_seq_once(ctx, &A.o.has_restart, K.pos); A.o.has_restart_value = true; A.o.restart = V; }
seq_opt_list(A) ::= seq_opt_list(L) RESTART(K) seq_num(V).
    { A = L; ab_seq_once(ctx, &A.o.has_restart, K.pos); A.o.has_restart_value = true; A.o.restart = V; }
/* OWNED BY table.column / OWNED BY NONE (OWNED an identifier here) */
seq_opt_list(A) ::= seq_opt_list(L) ID(W) BY colid(N).
{
    A = L;
    ab_word_expect(ctx, &W, "owned");
    ab_seq_once(ctx, &A.has_owned, W.pos);
    A.owned_pos = W.pos;
    /* (PostgreSQL compares the name: OWNED BY "none" is NONE too) */
    if (!strcmp(ab_tokstr(&N), "none")) A.owned_none = true;
    else {
        ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, 0, "invalid OWNED BY option");
        if (!strcmp(ctx->deferred.message, "invalid OWNED BY option"))
            attu_error_set_hint(&ctx->deferred, "Specify OWNED BY table.column or OWNED BY NONE.");
    }
}
seq_opt_list(A) ::= seq_opt_list(L) ID(W) BY colid(T) DOT colid(C).
{
    A = L;
    ab_word_expect(ctx, &W, "owned");
    ab_seq_once(ctx, &A.has_owned, W.pos);
    A.owned_pos = W.pos;
    A.owned_table = ab_tokstr(&T);
    A.owned_column = ab_tokstr(&C);
}
seq_opt_list(A) ::= seq_opt_list(L) ID(W) BY colid(S) DOT colid(T) DOT colid(C).
{
    A = L;
    ab_word_expect(ctx, &W, "owned");
    ab_seq_once(ctx, &A.has_owned, W.pos);
    A.owned_pos = W.pos;
    if (strcmp(ab_tokstr(&S), "public"))
        ab_defer_error(ctx, "3F000", S.pos, "schema \"%s\" does not exist", ab_tokstr(&S));
    A.owned_table = ab_tokstr(&T);
    A.owned_column = ab_tokstr(&C);
}
%type opt_by {bool}
opt_by(A) ::= BY.   { A = true; }
opt_by(A) ::= .     { A = false; }
seq_num(A) ::= ICONST(T).           { A = ab_seq_value(ctx, &T, false); }
seq_num(A) ::= MINUS ICONST(T).     { A = ab_seq_value(ctx, &T, true); }
seq_num(A) ::= PLUS ICONST(T).      { A = ab_seq_value(ctx, &T, false); }

/* ======================================================================== */
/* ALTER TABLE (db/db_alter.c)                                              */

%include {
typedef struct ab_alter_head { ab_qname name; bool if_exists, materialized, view; int pos; } ab_alter_head;
}
%type alter_stmt {attu_ast_stmt *}
%type alter_head {ab_alter_head}
%type alter_rel {ab_qname}
%type alter_cmds {attu_vec *}
%type alter_cmd {attu_ast_alter_cmd}
%type alter_column_action {attu_ast_alter_cmd}
%type opt_using {attu_ast_expr *}

alter_stmt(A) ::= alter_head(H) alter_cmds(L).
{
    A = ab_stmt(ctx, ATTU_STMT_ALTER_TABLE, H.pos);
    A->u.alter_table.table = (char *)H.name.name;
    A->schema = rel_schema(ctx, H.name.schema);
    A->u.alter_table.table_position = H.name.pos;
    A->u.alter_table.if_exists = H.if_exists;
    A->u.alter_table.materialized = H.materialized;
    A->u.alter_table.view = H.view;
    A->u.alter_table.cmds = L->items;
    A->u.alter_table.ncmds = L->n;
}
/* RENAME stands alone, as in PostgreSQL's grammar */
alter_stmt(A) ::= alter_head(H) RENAME(K) opt_column colid(F) TO colid(T).
{
    A = ab_stmt(ctx, ATTU_STMT_ALTER_TABLE, H.pos);
    A->u.alter_table.table = (char *)H.name.name;
    A->schema = rel_schema(ctx, H.name.schema);
    A->u.alter_table.table_position = H.name.pos;
    A->u.alter_table.if_exists = H.if_exists;
    A->u.alter_table.materialized = H.materialized;
    A->u.alter_table.view = H.view;
    A->u.alter_table.cmds = ab_alloc(ctx, sizeof *A->u.alter_table.cmds);
    A->u.alter_table.ncmds = 1;
    A->u.alter_table.cmds[0].kind = ATTU_ALTER_RENAME_COLUMN;
    A->u.alter_table.cmds[0].position = K.pos;
    A->u.alter_table.cmds[0].column = (char *)ab_tokstr(&F);
    A->u.alter_table.cmds[0].new_name = (char *)ab_tokstr(&T);
}
alter_stmt(A) ::= alter_head(H) RENAME(K) TO colid(T).
{
    A = ab_stmt(ctx, ATTU_STMT_ALTER_TABLE, H.pos);
    A->u.alter_table.table = (char *)H.name.name;
    A->schema = rel_schema(ctx, H.name.schema);
    A->u.alter_table.table_position = H.name.pos;
    A->u.alter_table.if_exists = H.if_exists;
    A->u.alter_table.materialized = H.materialized;
    A->u.alter_table.view = H.view;
    A->u.alter_table.cmds = ab_alloc(ctx, sizeof *A->u.alter_table.cmds);
    A->u.alter_table.ncmds = 1;
    A->u.alter_table.cmds[0].kind = ATTU_ALTER_RENAME_TABLE;
    A->u.alter_table.cmds[0].position = K.pos;
    A->u.alter_table.cmds[0].new_name = (char *)ab_tokstr(&T);
}

/* OWNER TO role / SET SCHEMA s, alone (attu has one role and one schema:
 * db/db_alter_owner.c checks the names and changes nothing) */
alter_stmt(A) ::= alter_head(H) ID(O) TO role_spec(R).
{
    ab_word_expect(ctx, &O, "owner");
    A = ab_alter_alone(ctx, &H, ATTU_ALTER_OWNER, R.pos, R.name);
}
alter_stmt(A) ::= alter_head(H) SET ID(S) colid(N).
{
    ab_word_expect(ctx, &S, "schema");
    A = ab_alter_alone(ctx, &H, ATTU_ALTER_SET_SCHEMA, N.pos, ab_tokstr(&N));
}
%include {
typedef struct ab_role { const char *name; int pos; } ab_role;
/* ALTER ... OWNER TO / SET SCHEMA: one action of kind k naming name */
static attu_ast_stmt *ab_alter_alone(attu_parse_ctx *ctx, const ab_alter_head *h, attu_ast_alter_kind k, int pos,
                                     const char *name) {
    attu_ast_stmt *st = ab_stmt(ctx, ATTU_STMT_ALTER_TABLE, h->pos);
    if (!st) return NULL;
    st->u.alter_table.table = (char *)h->name.name;
    st->schema = rel_schema(ctx, h->name.schema);
    st->u.alter_table.table_position = h->name.pos;
    st->u.alter_table.if_exists = h->if_exists;
    st->u.alter_table.materialized = h->materialized;
    st->u.alter_table.view = h->view;
    st->u.alter_table.cmds = ab_alloc(ctx, sizeof *st->u.alter_table.cmds);
    if (!st->u.alter_table.cmds) return st;
    st->u.alter_table.ncmds = 1;
    st->u.alter_table.cmds[0].kind = k;
    st->u.alter_table.cmds[0].position = pos;
    st->u.alter_table.cmds[0].new_name = (char *)name;
    return st;
}
}
/* A role: a name, or CURRENT_USER / CURRENT_ROLE / SESSION_USER (name
 * NULL: the connected user); USER and CURRENT_CATALOG are PostgreSQL's
 * syntax errors here. */
%type role_spec {ab_role}
role_spec(A) ::= colid(N).      { A.name = ab_tokstr(&N); A.pos = N.pos; }
role_spec(A) ::= RESERVED_BARE(K).
{
    const char *w = ab_tokstr(&K);
    A.name = NULL;
    A.pos = K.pos;
    if (strcmp(w, "current_user") && strcmp(w, "session_user") && strcmp(w, "current_role") && !ctx->failed) {
        ab_error(ctx, ATTU_SQLSTATE_SYNTAX, K.pos, "syntax error at or near \"%.*s\"", (int)K.len, ctx->sql + K.off);
        ctx->failed = true;
    }
}

/* ALTER SEQUENCE s OWNER TO role / SET SCHEMA x: alone (an option
 * before them is PostgreSQL's syntax error at OWNER / SET) */
alter_seq_stmt(A) ::= ALTER(K) SEQUENCE alter_seq_name(N) seq_opt_list(O) ID(W) TO role_spec(R).
{
    ab_word_expect(ctx, &W, "owner");
    A = ab_alter_seq_alone(ctx, K.pos, &N, &O, &W, ATTU_ALTER_OWNER, R.pos, R.name);
}
alter_seq_stmt(A) ::= ALTER(K) SEQUENCE alter_seq_name(N) seq_opt_list(O) SET(W) ID(S) colid(T).
{
    ab_word_expect(ctx, &S, "schema");
    A = ab_alter_seq_alone(ctx, K.pos, &N, &O, &W, ATTU_ALTER_SET_SCHEMA, T.pos, ab_tokstr(&T));
}
%include {
static attu_ast_stmt *ab_alter_seq_alone(attu_parse_ctx *ctx, int pos, const ab_seqname *n, const ab_seqopts *o,
                                         const attu_token *w, attu_ast_alter_kind k, int name_pos,
                                         const char *name) {
    if ((o->o.has_increment || o->o.has_min || o->o.has_max || o->o.has_start || o->o.has_cache ||
         o->o.has_cycle || o->o.has_restart || o->as.name || o->has_owned) && !ctx->failed) {
        ab_error(ctx, ATTU_SQLSTATE_SYNTAX, w->pos, "syntax error at or near \"%.*s\"", (int)w->len, ctx->sql + w->off);
        ctx->failed = true;
    }
    ab_alter_head h;
    memset(&h, 0, sizeof h);
    h.name = n->name;
    h.if_exists = n->if_exists;
    h.pos = pos;
    attu_ast_stmt *st = ab_alter_alone(ctx, &h, k, name_pos, name);
    if (st) st->u.alter_table.sequence = true;
    return st;
}
}
/* RENAME CONSTRAINT a TO b, alone as the other RENAMEs */
alter_stmt(A) ::= alter_head(H) RENAME(K) CONSTRAINT colid(F) TO colid(T).
{
    A = ab_stmt(ctx, ATTU_STMT_ALTER_TABLE, H.pos);
    A->u.alter_table.table = (char *)H.name.name;
    A->schema = rel_schema(ctx, H.name.schema);
    A->u.alter_table.table_position = H.name.pos;
    A->u.alter_table.if_exists = H.if_exists;
    A->u.alter_table.materialized = H.materialized;
    A->u.alter_table.view = H.view;
    A->u.alter_table.cmds = ab_alloc(ctx, sizeof *A->u.alter_table.cmds);
    A->u.alter_table.ncmds = 1;
    A->u.alter_table.cmds[0].kind = ATTU_ALTER_RENAME_CONSTRAINT;
    A->u.alter_table.cmds[0].position = K.pos;
    A->u.alter_table.cmds[0].column = (char *)ab_tokstr(&F);
    A->u.alter_table.cmds[0].new_name = (char *)ab_tokstr(&T);
}

/* "IF" may be a table name: the token after it decides (as create_head) */
alter_head(A) ::= ALTER(K) TABLE IF EXISTS alter_rel(N).
    { A.name = N; A.if_exists = true; A.materialized = A.view = false; A.pos = K.pos; ctx->cur_table = N.name; }
alter_head(A) ::= ALTER(K) TABLE alter_rel(N).
    { A.name = N; A.if_exists = false; A.materialized = A.view = false; A.pos = K.pos; ctx->cur_table = N.name; }
/* ALTER VIEW: PostgreSQL's grammar takes ALTER TABLE's actions, its
 * checks refuse those that are not a view's (db/db_alter_view.c) */
alter_head(A) ::= ALTER(K) VIEW IF EXISTS alter_rel(N).
    { A.name = N; A.if_exists = true; A.materialized = false; A.view = true; A.pos = K.pos; ctx->cur_table = N.name; }
alter_head(A) ::= ALTER(K) VIEW alter_rel(N).
    { A.name = N; A.if_exists = false; A.materialized = false; A.view = true; A.pos = K.pos; ctx->cur_table = N.name; }
/* ALTER MATERIALIZED VIEW: its RENAMEs (db/db_matview.c refuses the rest) */
alter_head(A) ::= ALTER(K) MATERIALIZED VIEW IF EXISTS alter_rel(N).
{
    A.name = N; A.if_exists = true; A.materialized = true; A.view = false; A.pos = K.pos; ctx->cur_table = N.name;
}
alter_head(A) ::= ALTER(K) MATERIALIZED VIEW alter_rel(N).
{
    A.name = N; A.if_exists = false; A.materialized = true; A.view = false; A.pos = K.pos; ctx->cur_table = N.name;
}
alter_rel(A) ::= qualified_name(N).         { A = N; }
alter_rel(A) ::= ONLY qualified_name(N).    { A = N; }

alter_cmds(A) ::= alter_cmd(C).                     { A = vec_new(ctx); ab_vec_push(ctx, A, &C, sizeof C); }
alter_cmds(A) ::= alter_cmds(L) COMMA alter_cmd(C). { A = L; ab_vec_push(ctx, A, &C, sizeof C); }

alter_cmd(A) ::= ADD(K) opt_column column_def(D).
{
    memset(&A, 0, sizeof A);
    A.kind = ATTU_ALTER_ADD_COLUMN; A.position = K.pos; A.def = D;
}
alter_cmd(A) ::= ADD(K) opt_column IF NOT EXISTS column_def(D).
{
    memset(&A, 0, sizeof A);
    A.kind = ATTU_ALTER_ADD_COLUMN; A.position = K.pos; A.def = D; A.if_exists = true;
}
alter_cmd(A) ::= DROP(K) opt_column colid(C) opt_drop_behavior(B).
{
    memset(&A, 0, sizeof A);
    A.kind = ATTU_ALTER_DROP_COLUMN; A.position = K.pos; A.column = (char *)ab_tokstr(&C); A.cascade = B;
}
alter_cmd(A) ::= DROP(K) opt_column IF EXISTS colid(C) opt_drop_behavior(B).
{
    memset(&A, 0, sizeof A);
    A.kind = ATTU_ALTER_DROP_COLUMN; A.position = K.pos; A.column = (char *)ab_tokstr(&C); A.if_exists = true; A.cascade = B;
}
alter_cmd(A) ::= ADD(K) table_constraint(C).
{
    memset(&A, 0, sizeof A);
    A.kind = ATTU_ALTER_ADD_CONSTRAINT; A.position = K.pos;
    A.key = ab_alloc(ctx, sizeof *A.key);
    *A.key = C;
}
alter_cmd(A) ::= DROP(K) CONSTRAINT colid(C) opt_drop_behavior(B).
{
    memset(&A, 0, sizeof A);
    A.kind = ATTU_ALTER_DROP_CONSTRAINT; A.position = K.pos; A.column = (char *)ab_tokstr(&C); A.cascade = B;
}
alter_cmd(A) ::= DROP(K) CONSTRAINT IF EXISTS colid(C) opt_drop_behavior(B).
{
    memset(&A, 0, sizeof A);
    A.kind = ATTU_ALTER_DROP_CONSTRAINT; A.position = K.pos; A.column = (char *)ab_tokstr(&C); A.if_exists = true;
    A.cascade = B;
}
/* VALIDATE CONSTRAINT name (VALIDATE a plain word here) */
alter_cmd(A) ::= ID(K) CONSTRAINT colid(C).
{
    memset(&A, 0, sizeof A);
    ab_word_expect(ctx, &K, "validate");
    A.kind = ATTU_ALTER_VALIDATE_CONSTRAINT; A.position = K.pos; A.column = (char *)ab_tokstr(&C);
}
/* ALTER CONSTRAINT name [[NOT] DEFERRABLE] [INITIALLY ...]: a foreign
 * key's deferral (none written: NOT DEFERRABLE INITIALLY IMMEDIATE, as
 * PostgreSQL) */
alter_cmd(A) ::= ALTER(K) CONSTRAINT colid(C) con_attrs(D).
{
    memset(&A, 0, sizeof A);
    A.kind = ATTU_ALTER_ALTER_CONSTRAINT; A.position = K.pos; A.column = (char *)ab_tokstr(&C);
    A.deferrable = D.d.deferrable || D.d.initially_deferred;
    A.initially_deferred = D.d.initially_deferred;
    if (D.not_valid)
        ab_defer_error(ctx, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, D.not_valid_position,
                       "FOREIGN KEY constraints cannot be marked NOT VALID");
}
/* SET (options) / RESET (options): a view's (its WITH options) */
alter_cmd(A) ::= SET(K) LP view_opt_list(L) RP.
{
    memset(&A, 0, sizeof A);
    A.kind = ATTU_ALTER_SET_OPTIONS; A.position = K.pos;
    A.check_option = L.check; A.bad_option_kind = L.bad_kind; A.bad_option = L.bad; A.bad_option_name = L.bad_name;
}
alter_cmd(A) ::= RESET(K) LP reset_opt_list(L) RP.
{
    A = L;
    A.kind = ATTU_ALTER_RESET_OPTIONS; A.position = K.pos;
}
%type reset_opt_list {attu_ast_alter_cmd}
reset_opt_list(A) ::= colid(N).     { memset(&A, 0, sizeof A); ab_reset_opt(&A, &N); }
reset_opt_list(A) ::= reset_opt_list(L) COMMA colid(N).    { A = L; ab_reset_opt(&A, &N); }
%include {
/* RESET (name): check_option resets the view's; PostgreSQL resets any
 * other name (one it does not know too) without a word */
static void ab_reset_opt(attu_ast_alter_cmd *a, const attu_token *name) {
    if (!strcmp(ab_tokstr(name), "check_option")) a->check_option = 'r';
}
}
alter_cmd(A) ::= ALTER(K) opt_column colid(C) alter_column_action(X).
{
    A = X; A.position = K.pos; A.column = (char *)ab_tokstr(&C);
}
alter_column_action(A) ::= SET DEFAULT a_expr(E).
{
    memset(&A, 0, sizeof A);
    A.kind = ATTU_ALTER_SET_DEFAULT;
    /* DEFAULT NULL is no DEFAULT */
    A.expr = E->kind == ATTU_EXPR_LITERAL && E->u.literal.kind == ATTU_LIT_NULL ? NULL : E;
}
alter_column_action(A) ::= DROP DEFAULT.    { memset(&A, 0, sizeof A); A.kind = ATTU_ALTER_DROP_DEFAULT; }
alter_column_action(A) ::= SET NOT NULL.    { memset(&A, 0, sizeof A); A.kind = ATTU_ALTER_SET_NOT_NULL; }
alter_column_action(A) ::= DROP NOT NULL.   { memset(&A, 0, sizeof A); A.kind = ATTU_ALTER_DROP_NOT_NULL; }
alter_column_action(A) ::= opt_set_data TYPE typename(T) opt_using(U).
{
    memset(&A, 0, sizeof A);
    A.kind = ATTU_ALTER_TYPE; A.type = T; A.expr = U;
}
/* Identity columns: ADD GENERATED { ALWAYS | BY DEFAULT } AS IDENTITY
 * [(options)], SET GENERATED ... / SET option / RESTART [[WITH] n] (one or
 * more), DROP IDENTITY [IF EXISTS]. */
alter_column_action(A) ::= ADD GENERATED ID(W) AS ID(I) opt_identity_options(O).
{
    memset(&A, 0, sizeof A);
    ab_word_expect(ctx, &W, "always");
    ab_word_expect(ctx, &I, "identity");
    A.kind = ATTU_ALTER_ADD_IDENTITY;
    A.def.identity = 'a'; A.def.identity_options = O.o; A.def.identity_as = O.as;
}
alter_column_action(A) ::= ADD GENERATED BY DEFAULT AS ID(I) opt_identity_options(O).
{
    memset(&A, 0, sizeof A);
    ab_word_expect(ctx, &I, "identity");
    A.kind = ATTU_ALTER_ADD_IDENTITY;
    A.def.identity = 'd'; A.def.identity_options = O.o; A.def.identity_as = O.as;
}
/* DROP IDENTITY / DROP EXPRESSION [IF EXISTS] (a generated column's) */
%include {
static attu_ast_alter_kind ab_drop_identity_or_expression(attu_parse_ctx *ctx, const attu_token *w) {
    if (ab_word_is(ctx, w, "expression")) return ATTU_ALTER_DROP_EXPRESSION;
    ab_word_expect(ctx, w, "identity");
    return ATTU_ALTER_DROP_IDENTITY;
}
}
alter_column_action(A) ::= DROP ID(I).
    { memset(&A, 0, sizeof A); A.kind = ab_drop_identity_or_expression(ctx, &I); }
alter_column_action(A) ::= DROP ID(I) IF EXISTS.
    { memset(&A, 0, sizeof A); A.kind = ab_drop_identity_or_expression(ctx, &I); A.if_exists = true; }
alter_column_action(A) ::= identity_alters(L).
{
    memset(&A, 0, sizeof A);
    A.kind = ATTU_ALTER_SET_IDENTITY;
    A.def.identity = L.generated;
    A.def.identity_options = L.o;
}
%include {
/* ALTER COLUMN's identity changes: SET GENERATED (generated 'a' / 'd', 0
 * when not written) and the sequence options. */
typedef struct ab_idalter { attu_sequence_options o; char generated; } ab_idalter;
}
%type identity_alters {ab_idalter}
identity_alters(A) ::= identity_alter(E).   { A = E; }
identity_alters(A) ::= identity_alters(L) identity_alter(E).
{
    A = L;
    /* each once ("conflicting or redundant options"), as one list */
    bool seen;
#define AB_ID_MERGE(flag, ...) \
    if (E.o.flag) { seen = A.o.flag; ab_seq_once(ctx, &seen, 0); A.o.flag = true; __VA_ARGS__; }
    AB_ID_MERGE(has_increment, A.o.increment = E.o.increment)
    AB_ID_MERGE(has_min, A.o.min = E.o.min; A.o.no_min = E.o.no_min)
    AB_ID_MERGE(has_max, A.o.max = E.o.max; A.o.no_max = E.o.no_max)
    AB_ID_MERGE(has_start, A.o.start = E.o.start)
    AB_ID_MERGE(has_cache, A.o.cache = E.o.cache)
    AB_ID_MERGE(has_cycle, A.o.cycle = E.o.cycle)
    AB_ID_MERGE(has_restart, A.o.has_restart_value = E.o.has_restart_value; A.o.restart = E.o.restart)
#undef AB_ID_MERGE
    if (E.generated) { seen = A.generated != 0; ab_seq_once(ctx, &seen, 0); A.generated = E.generated; }
}
%type identity_alter {ab_idalter}
identity_alter(A) ::= SET GENERATED ID(W).
    { memset(&A, 0, sizeof A); ab_word_expect(ctx, &W, "always"); A.generated = 'a'; }
identity_alter(A) ::= SET GENERATED BY DEFAULT.
    { memset(&A, 0, sizeof A); A.generated = 'd'; }
identity_alter(A) ::= RESTART.
    { memset(&A, 0, sizeof A); A.o.has_restart = true; }
identity_alter(A) ::= RESTART WITH seq_num(V).
    { memset(&A, 0, sizeof A); A.o.has_restart = A.o.has_restart_value = true; A.o.restart = V; }
identity_alter(A) ::= RESTART seq_num(V).
    { memset(&A, 0, sizeof A); A.o.has_restart = A.o.has_restart_value = true; A.o.restart = V; }
identity_alter(A) ::= SET START opt_with seq_num(V).
    { memset(&A, 0, sizeof A); A.o.has_start = true; A.o.start = V; }
identity_alter(A) ::= SET ID(W) opt_by(B) seq_num(V).
{
    memset(&A, 0, sizeof A);
    if (ab_word_is(ctx, &W, "increment")) { A.o.has_increment = true; A.o.increment = V; }
    else if (B) ab_word_expect(ctx, &W, "increment");
    else if (ab_word_is(ctx, &W, "minvalue")) { A.o.has_min = true; A.o.min = V; }
    else if (ab_word_is(ctx, &W, "maxvalue")) { A.o.has_max = true; A.o.max = V; }
    else if (ab_word_is(ctx, &W, "cache")) { A.o.has_cache = true; A.o.cache = V; }
    else ab_word_expect(ctx, &W, "increment");
}
identity_alter(A) ::= SET NO ID(W).
{
    memset(&A, 0, sizeof A);
    if (ab_word_is(ctx, &W, "minvalue")) { A.o.has_min = true; A.o.no_min = true; }
    else if (ab_word_is(ctx, &W, "maxvalue")) { A.o.has_max = true; A.o.no_max = true; }
    else if (ab_word_is(ctx, &W, "cycle")) { A.o.has_cycle = true; A.o.cycle = false; }
    else ab_word_expect(ctx, &W, "cycle");
}
identity_alter(A) ::= SET ID(W).
    { memset(&A, 0, sizeof A); ab_word_expect(ctx, &W, "cycle"); A.o.has_cycle = true; A.o.cycle = true; }

opt_set_data ::= SET DATA.
opt_set_data ::= .
opt_using(A) ::= USING a_expr(E).   { A = E; }
opt_using(A) ::= .                  { A = NULL; }
opt_column ::= COLUMN.
opt_column ::= .

/* ======================================================================== */
/* COPY                                                                     */

%include {
typedef struct ab_copyfile { attu_ast_copy_target target; const char *name; int pos; } ab_copyfile;
}
%type copy_stmt {attu_ast_stmt *}
copy_stmt(A) ::= COPY(K) target_name(N) opt_name_list(C) copy_from(F) copy_file(P)
                 opt_with copy_options(O).
{
    A = ab_stmt(ctx, ATTU_STMT_COPY, K.pos);
    A->schema = rel_schema(ctx, N.schema);
    A->u.copy.table = (char *)N.name;
    A->u.copy.table_position = N.pos;
    A->u.copy.columns = ab_names(C);
    A->u.copy.is_from = F;
    A->u.copy.target = P.target;
    A->u.copy.filename = (char *)P.name;
    A->u.copy.filename_position = P.pos;
    if (O) { A->u.copy.options = O->items; A->u.copy.noptions = O->n; }
    /* PostgreSQL takes STDIN and STDOUT alike: "the client", in whichever
     * direction the statement goes. */
    if (P.target != ATTU_COPY_FILE)
        A->u.copy.target = F ? ATTU_COPY_STDIN : ATTU_COPY_STDOUT;
}
copy_stmt(A) ::= COPY(K) select_with_parens(Q) TO copy_file(P) opt_with copy_options(O).
{
    A = ab_stmt(ctx, ATTU_STMT_COPY, K.pos);
    A->u.copy.query = Q;
    A->u.copy.is_from = false;
    A->u.copy.target = P.target;
    A->u.copy.filename = (char *)P.name;
    A->u.copy.filename_position = P.pos;
    if (O) { A->u.copy.options = O->items; A->u.copy.noptions = O->n; }
    if (P.target != ATTU_COPY_FILE) A->u.copy.target = ATTU_COPY_STDOUT;
}

%type copy_from {bool}
copy_from(A) ::= FROM.  { A = true; }
copy_from(A) ::= TO.    { A = false; }

%type copy_file {ab_copyfile}
copy_file(A) ::= SCONST(T).     { A.target = ATTU_COPY_FILE; A.name = ab_strndup(ctx, T.str, T.slen); A.pos = T.pos; }
copy_file(A) ::= STDIN(T).      { A.target = ATTU_COPY_STDIN; A.name = NULL; A.pos = T.pos; }
copy_file(A) ::= STDOUT(T).     { A.target = ATTU_COPY_STDOUT; A.name = NULL; A.pos = T.pos; }

opt_with ::= WITH.
opt_with ::= .

/* Old-style options (CSV HEADER DELIMITER ','), or a parenthesised list. */
%type copy_options {attu_vec *}
copy_options(A) ::= copy_opt_list(L).                   { A = L; }
copy_options(A) ::= LP copy_generic_opt_list(L) RP.     { A = L; }

%type copy_opt_list {attu_vec *}
copy_opt_list(A) ::= copy_opt_list(L) copy_opt_item(O).
    { A = L ? L : vec_new(ctx); ab_vec_push(ctx, A, &O, sizeof O); }
copy_opt_list(A) ::= .      { A = NULL; }

%type copy_opt_item {attu_ast_option}
copy_opt_item(A) ::= BINARY(K).     { A = opt_make(ctx, "format", K.pos, "binary", K.pos); }
copy_opt_item(A) ::= FREEZE(K).     { A = opt_make(ctx, "freeze", K.pos, NULL, 0); }
copy_opt_item(A) ::= CSV(K).        { A = opt_make(ctx, "format", K.pos, "csv", K.pos); }
copy_opt_item(A) ::= HEADER(K).     { A = opt_make(ctx, "header", K.pos, NULL, 0); }
copy_opt_item(A) ::= DELIMITER(K) opt_as SCONST(V).
    { A = opt_make(ctx, "delimiter", K.pos, ab_strndup(ctx, V.str, V.slen), V.pos); }
copy_opt_item(A) ::= NULL(K) opt_as SCONST(V).
    { A = opt_make(ctx, "null", K.pos, ab_strndup(ctx, V.str, V.slen), V.pos); }
copy_opt_item(A) ::= QUOTE(K) opt_as SCONST(V).
    { A = opt_make(ctx, "quote", K.pos, ab_strndup(ctx, V.str, V.slen), V.pos); }
copy_opt_item(A) ::= ESCAPE(K) opt_as SCONST(V).
    { A = opt_make(ctx, "escape", K.pos, ab_strndup(ctx, V.str, V.slen), V.pos); }
copy_opt_item(A) ::= FORCE(K) QUOTE name_list(L).
    { A = opt_make(ctx, "force_quote", K.pos, NULL, 0); A.list = ab_names(L); }
copy_opt_item(A) ::= FORCE(K) QUOTE STAR(T).
    { A = opt_make(ctx, "force_quote", K.pos, "*", T.pos); }
copy_opt_item(A) ::= FORCE(K) NOT NULL name_list(L).
    { A = opt_make(ctx, "force_not_null", K.pos, NULL, 0); A.list = ab_names(L); }
copy_opt_item(A) ::= FORCE(K) NULL name_list(L).
    { A = opt_make(ctx, "force_null", K.pos, NULL, 0); A.list = ab_names(L); }
copy_opt_item(A) ::= ENCODING(K) SCONST(V).
    { A = opt_make(ctx, "encoding", K.pos, ab_strndup(ctx, V.str, V.slen), V.pos); }

opt_as ::= AS.
opt_as ::= .

%type copy_generic_opt_list {attu_vec *}
copy_generic_opt_list(A) ::= generic_option(O).
    { A = vec_new(ctx); ab_vec_push(ctx, A, &O, sizeof O); }
copy_generic_opt_list(A) ::= copy_generic_opt_list(L) COMMA generic_option(O).
    { A = L; ab_vec_push(ctx, A, &O, sizeof O); }

/* name [value]: shared by COPY (...) and EXPLAIN (...). */
%type generic_option {attu_ast_option}
generic_option(A) ::= col_label(N) option_value(V).
    { A = opt_make(ctx, ab_tokstr(&N), N.pos, V.text, V.pos); }
generic_option(A) ::= col_label(N).
    { A = opt_make(ctx, ab_tokstr(&N), N.pos, NULL, 0); }
/* COPY's FORCE_QUOTE (a, b), FORCE_NOT_NULL (a), FORCE_NULL (a) */
generic_option(A) ::= col_label(N) LP name_list(L) RP.
    { A = opt_make(ctx, ab_tokstr(&N), N.pos, NULL, 0); A.list = ab_names(L); }

%type option_value {ab_val}
option_value(A) ::= boolean_or_string(V).   { A = V; }
option_value(A) ::= numeric_only(V).        { A = V; }
option_value(A) ::= STAR(T).                { A = val_make("*", T.pos); }

%type boolean_or_string {ab_val}
boolean_or_string(A) ::= TRUE(T).       { A = val_make("true", T.pos); }
boolean_or_string(A) ::= FALSE(T).      { A = val_make("false", T.pos); }
boolean_or_string(A) ::= ON(T).         { A = val_make("on", T.pos); }
boolean_or_string(A) ::= non_reserved_word(T). { A = val_make(ab_tokstr(&T), T.pos); }
boolean_or_string(A) ::= SCONST(T).     { A = val_make(ab_strndup(ctx, T.str, T.slen), T.pos); }

%type numeric_only {ab_val}
numeric_only(A) ::= ICONST(T).          { A = val_make(T.str, T.pos); }
numeric_only(A) ::= FCONST(T).          { A = val_make(T.str, T.pos); }
numeric_only(A) ::= PLUS(K) ICONST(T).  { A = val_make(T.str, K.pos); }
numeric_only(A) ::= PLUS(K) FCONST(T).  { A = val_make(T.str, K.pos); }
numeric_only(A) ::= MINUS(K) ICONST(T). { A = val_make(neg_text(ctx, &T), K.pos); }
numeric_only(A) ::= MINUS(K) FCONST(T). { A = val_make(neg_text(ctx, &T), K.pos); }

/* ======================================================================== */
/* EXPLAIN                                                                  */

%type explain_stmt {attu_ast_stmt *}
%type explainable_stmt {attu_ast_stmt *}
explain_stmt(A) ::= EXPLAIN(K) explainable_stmt(S).
    { A = ab_stmt(ctx, ATTU_STMT_EXPLAIN, K.pos); A->u.explain.stmt = S; }
explain_stmt(A) ::= EXPLAIN(K) ANALYZE opt_verbose(V) explainable_stmt(S).
{
    A = ab_stmt(ctx, ATTU_STMT_EXPLAIN, K.pos);
    A->u.explain.analyze = true;
    A->u.explain.verbose = V;
    A->u.explain.stmt = S;
}
explain_stmt(A) ::= EXPLAIN(K) VERBOSE explainable_stmt(S).
    { A = ab_stmt(ctx, ATTU_STMT_EXPLAIN, K.pos); A->u.explain.verbose = true; A->u.explain.stmt = S; }
explain_stmt(A) ::= EXPLAIN(K) LP explain_opt_list(L) RP explainable_stmt(S).
{
    A = ab_stmt(ctx, ATTU_STMT_EXPLAIN, K.pos);
    A->u.explain.stmt = S;
    A->u.explain.options = L->items;
    A->u.explain.noptions = L->n;
    explain_options(ctx, A, L);
}

/* EXPLAIN option names are plain words or ANALYZE / VERBOSE (PostgreSQL's
 * utility_option_name), so EXPLAIN (SELECT ...) stays a statement. */
%type explain_opt_list {attu_vec *}
explain_opt_list(A) ::= explain_option(O).
    { A = vec_new(ctx); ab_vec_push(ctx, A, &O, sizeof O); }
explain_opt_list(A) ::= explain_opt_list(L) COMMA explain_option(O).
    { A = L; ab_vec_push(ctx, A, &O, sizeof O); }
%type explain_option {attu_ast_option}
explain_option(A) ::= explain_opt_name(N) option_value(V).
    { A = opt_make(ctx, ab_tokstr(&N), N.pos, V.text, V.pos); }
explain_option(A) ::= explain_opt_name(N).
    { A = opt_make(ctx, ab_tokstr(&N), N.pos, NULL, 0); }
explain_opt_name(A) ::= non_reserved_word(T).  { A = T; }
explain_opt_name(A) ::= ANALYZE(T).     { A = T; }

%type opt_verbose {bool}
opt_verbose(A) ::= VERBOSE.     { A = true; }
opt_verbose(A) ::= .            { A = false; }

explainable_stmt(A) ::= select_stmt(Q).
    { A = ab_stmt(ctx, ATTU_STMT_SELECT, Q->position); A->u.select.query = Q; }
explainable_stmt(A) ::= insert_stmt(S).     { A = S; }
explainable_stmt(A) ::= delete_stmt(S).     { A = S; }
explainable_stmt(A) ::= update_stmt(S).     { A = S; }
explainable_stmt(A) ::= merge_stmt(S).      { A = S; }
explainable_stmt(A) ::= create_as_stmt(S).  { A = S; }
explainable_stmt(A) ::= execute_stmt(S).    { A = S; }

/* ======================================================================== */
/* SET / SHOW / RESET                                                        */

%include {
typedef struct ab_set { const char *name; ab_strlist *values; bool to_default; int pos; } ab_set;   /* pos: AUTHORIZATION's */
/* SET ROLE's / SET SESSION AUTHORIZATION's value and where it stands */
typedef struct ab_role_value { const char *text; int pos; size_t off; int len; } ab_role_value;
}
%type set_stmt {attu_ast_stmt *}
%include {
/* SET AUTHORIZATION x without SESSION: PostgreSQL's syntax error at x. */
static void ab_set_authorization_needs_session(attu_parse_ctx *ctx, const ab_set *r) {
    if (r->name && !strcmp(r->name, "authorization") && !ctx->failed) {
        ab_error(ctx, ATTU_SQLSTATE_SYNTAX, r->pos, "syntax error at or near \"authorization\"");
        ctx->failed = true;
    }
}
}
set_stmt(A) ::= SET(K) set_rest(R).
{
    ab_set_authorization_needs_session(ctx, &R);
    A = ab_stmt(ctx, ATTU_STMT_SET, K.pos);
    A->u.set.name = (char *)R.name;
    A->u.set.to_default = R.to_default;
    if (R.values) { A->u.set.values = R.values->v.items; A->u.set.nvalues = R.values->v.n; }
}
set_stmt(A) ::= SET(K) LOCAL set_rest(R).
{
    ab_set_authorization_needs_session(ctx, &R);
    A = ab_stmt(ctx, ATTU_STMT_SET, K.pos);
    A->u.set.name = (char *)R.name;
    A->u.set.local = true;
    A->u.set.to_default = R.to_default;
    if (R.values) { A->u.set.values = R.values->v.items; A->u.set.nvalues = R.values->v.n; }
}
set_stmt(A) ::= SET(K) SESSION set_rest(R).
{
    A = ab_stmt(ctx, ATTU_STMT_SET, K.pos);
    A->u.set.name = R.name && !strcmp(R.name, "authorization") ? "session_authorization" : (char *)R.name;
    A->u.set.to_default = R.to_default;
    if (R.values) { A->u.set.values = R.values->v.items; A->u.set.nvalues = R.values->v.n; }
}
/* SET LOCAL SESSION AUTHORIZATION: PostgreSQL takes it (until the block ends) */
set_stmt(A) ::= SET(K) LOCAL SESSION TYPEFUNC_BARE(W) role_value(V).
{
    ab_word_expect(ctx, &W, "authorization");
    A = ab_stmt(ctx, ATTU_STMT_SET, K.pos);
    A->u.set.name = "session_authorization";
    A->u.set.local = true;
    ab_strlist *l = strlist_push(ctx, NULL, V.text);
    if (l) { A->u.set.values = l->v.items; A->u.set.nvalues = l->v.n; }
}
set_stmt(A) ::= SET(K) LOCAL SESSION TYPEFUNC_BARE(W) DEFAULT.
{
    ab_word_expect(ctx, &W, "authorization");
    A = ab_stmt(ctx, ATTU_STMT_SET, K.pos);
    A->u.set.name = "session_authorization";
    A->u.set.local = true;
    A->u.set.to_default = true;
}
set_stmt(A) ::= SET(K) SESSION CHARACTERISTICS AS TRANSACTION txn_mode_list(M).
{
    A = ab_stmt(ctx, ATTU_STMT_SET, K.pos);
    A->u.set.name = "session characteristics";
    if (M) { A->u.set.values = M->v.items; A->u.set.nvalues = M->v.n; }
}

/* SET CONSTRAINTS {ALL | name [, ...]} {DEFERRED | IMMEDIATE}
 * (db/db_defer.c): DEFERRED and IMMEDIATE are PostgreSQL's unreserved
 * keywords, identifiers here (checked by name). */
%include {
static attu_ast_stmt *ab_set_constraints(attu_parse_ctx *ctx, const attu_token *k, attu_names *l, const attu_token *w) {
    attu_ast_stmt *a = ab_stmt(ctx, ATTU_STMT_SET_CONSTRAINTS, k->pos);
    if (l) a->u.set_constraints.names = ab_names(l);
    if (ab_word_is(ctx, w, "deferred")) a->u.set_constraints.deferred = true;
    else ab_word_expect(ctx, w, "immediate");
    return a;
}
}
set_stmt(A) ::= SET(K) CONSTRAINTS ALL ID(W).               { A = ab_set_constraints(ctx, &K, NULL, &W); }
set_stmt(A) ::= SET(K) CONSTRAINTS con_name_list(L) ID(W).  { A = ab_set_constraints(ctx, &K, L, &W); }
%type con_name_list {attu_names *}
con_name_list(A) ::= var_name(N).                        { A = ab_names_push(ctx, NULL, N, 0); }
con_name_list(A) ::= con_name_list(L) COMMA var_name(N). { A = ab_names_push(ctx, L, N, 0); }

%type set_rest {ab_set}
set_rest(A) ::= var_name(N) TO var_list(L).     { A.name = N; A.values = L; A.to_default = false; }
set_rest(A) ::= var_name(N) EQ var_list(L).     { A.name = N; A.values = L; A.to_default = false; }
set_rest(A) ::= var_name(N) TO DEFAULT.         { A.name = N; A.values = NULL; A.to_default = true; }
set_rest(A) ::= var_name(N) EQ DEFAULT.         { A.name = N; A.values = NULL; A.to_default = true; }
set_rest(A) ::= TIME ZONE zone_value(V).
{
    A.name = "time zone";
    A.values = V ? strlist_push(ctx, NULL, V) : NULL;
    A.to_default = V == NULL;
}
set_rest(A) ::= NAMES SCONST(V).
{
    A.name = "client_encoding";
    A.values = strlist_push(ctx, NULL, ab_strndup(ctx, V.str, V.slen));
    A.to_default = false;
}
set_rest(A) ::= NAMES DEFAULT.
    { A.name = "client_encoding"; A.values = NULL; A.to_default = true; }
set_rest(A) ::= NAMES.
    { A.name = "client_encoding"; A.values = NULL; A.to_default = true; }
set_rest(A) ::= TRANSACTION txn_mode_list(M).
    { A.name = "transaction"; A.values = M; A.to_default = false; }
/* SET [SESSION | LOCAL] ROLE name | NONE and SET SESSION AUTHORIZATION
 * name | DEFAULT: the settings role and session_authorization, whose
 * checks are db/db_role.c's. ROLE is a word here, AUTHORIZATION a
 * type_func_name keyword (TYPEFUNC_BARE) taken only after SESSION
 * (set_stmt turns "authorization" into session_authorization there and
 * refuses it elsewhere). */
%include {
/* SET word value without TO / =: a syntax error at the value (PostgreSQL
 * reads ROLE and AUTHORIZATION as keywords, any other name then wants TO
 * or = before it). */
static void ab_set_word_value(attu_parse_ctx *ctx, ab_set *a, const attu_token *w, const char *word,
                              const char *name, ab_role_value v) {
    if (!ab_word_is(ctx, w, word) && !ctx->failed) {
        ab_error(ctx, ATTU_SQLSTATE_SYNTAX, v.pos, "syntax error at or near \"%.*s\"", v.len, ctx->sql + v.off);
        ctx->failed = true;
    }
    a->name = name;
    a->values = strlist_push(ctx, NULL, v.text);
    a->to_default = false;
    a->pos = w->pos;
}
}
set_rest(A) ::= ID(W) role_value(V).            { ab_set_word_value(ctx, &A, &W, "role", "role", V); }
set_rest(A) ::= TYPEFUNC_BARE(W) role_value(V). { ab_set_word_value(ctx, &A, &W, "authorization", "authorization", V); }
set_rest(A) ::= TYPEFUNC_BARE(W) DEFAULT.
{
    ab_word_expect(ctx, &W, "authorization");
    A.pos = W.pos;
    A.name = "authorization";
    A.values = NULL;
    A.to_default = true;
}
%type role_value {ab_role_value}
role_value(A) ::= colid(N).   { A.text = ab_tokstr(&N); A.pos = N.pos; A.off = N.off; A.len = (int)N.len; }
role_value(A) ::= SCONST(T).  { A.text = ab_strndup(ctx, T.str, T.slen); A.pos = T.pos; A.off = T.off; A.len = (int)T.len; }

%type zone_value {const char *}
zone_value(A) ::= SCONST(T).        { A = ab_strndup(ctx, T.str, T.slen); }
zone_value(A) ::= ID(T).            { A = ab_tokstr(&T); }
zone_value(A) ::= numeric_only(V).  { A = V.text; }
zone_value(A) ::= DEFAULT.          { A = NULL; }
/* SET TIME ZONE INTERVAL '-08:00' [HOUR [TO MINUTE]]: the interval's text
 * and its fields, for db_settings.c (ATTU_SET_TZ_INTERVAL) */
zone_value(A) ::= INTERVAL SCONST(T).
    { A = tz_interval(ctx, &T, 0); }
zone_value(A) ::= INTERVAL SCONST(T) interval_qual(Q).
{
    if (Q.ivrange & ~(ATTU_IVF_HOUR | ATTU_IVF_MINUTE)) {
        ab_error(ctx, ATTU_SQLSTATE_SYNTAX, Q.position, "time zone interval must be HOUR or HOUR TO MINUTE");
        ctx->failed = true;
    }
    A = tz_interval(ctx, &T, Q.ivrange);
}
zone_value(A) ::= LOCAL.            { A = NULL; }

%type var_name {const char *}
var_name(A) ::= colid(N).           { A = ab_tokstr(&N); }
var_name(A) ::= var_name(L) DOT colid(N).
{
    const char *r = ab_tokstr(&N);
    size_t a = strlen(L), b = strlen(r);
    char *s = ab_alloc(ctx, a + b + 2);
    if (s) { memcpy(s, L, a); s[a] = '.'; memcpy(s + a + 1, r, b); s[a + b + 1] = '\0'; }
    A = s ? s : L;
}

%type var_list {ab_strlist *}
var_list(A) ::= var_value(V).                   { A = strlist_push(ctx, NULL, V); }
var_list(A) ::= var_list(L) COMMA var_value(V). { A = strlist_push(ctx, L, V); }

%type var_value {const char *}
var_value(A) ::= boolean_or_string(V).  { A = V.text; }
var_value(A) ::= numeric_only(V).       { A = V.text; }

%type show_stmt {attu_ast_stmt *}
show_stmt(A) ::= SHOW(K) var_name(N).
{
    if (strcmp(N, "tables") == 0) {
        A = ab_stmt(ctx, ATTU_STMT_SHOW_TABLES, K.pos);
    } else {
        A = ab_stmt(ctx, ATTU_STMT_SHOW, K.pos);
        A->u.show.name = (char *)N;
    }
}
show_stmt(A) ::= SHOW(K) TIME ZONE.
    { A = ab_stmt(ctx, ATTU_STMT_SHOW, K.pos); A->u.show.name = "time zone"; }
show_stmt(A) ::= SHOW(K) TRANSACTION ISOLATION LEVEL.
    { A = ab_stmt(ctx, ATTU_STMT_SHOW, K.pos); A->u.show.name = "transaction_isolation"; }
show_stmt(A) ::= SHOW(K) ALL.
    { A = ab_stmt(ctx, ATTU_STMT_SHOW, K.pos); A->u.show.name = "all"; }

%type reset_stmt {attu_ast_stmt *}
reset_stmt(A) ::= RESET(K) var_name(N).
    { A = ab_stmt(ctx, ATTU_STMT_RESET, K.pos); A->u.reset.name = (char *)N; }
reset_stmt(A) ::= RESET(K) TIME ZONE.
    { A = ab_stmt(ctx, ATTU_STMT_RESET, K.pos); A->u.reset.name = "time zone"; }
reset_stmt(A) ::= RESET(K) ALL.
    { A = ab_stmt(ctx, ATTU_STMT_RESET, K.pos); A->u.reset.name = NULL; }
reset_stmt(A) ::= RESET(K) SESSION TYPEFUNC_BARE(W).
{
    ab_word_expect(ctx, &W, "authorization");
    A = ab_stmt(ctx, ATTU_STMT_RESET, K.pos);
    A->u.reset.name = "session_authorization";
}

/* ======================================================================== */
/* DESCRIBE and transactions                                                */

%type describe_stmt {attu_ast_stmt *}
describe_stmt(A) ::= DESCRIBE(K) qualified_name(N).
{
    A = ab_stmt(ctx, ATTU_STMT_DESCRIBE, K.pos);
    A->u.describe.table = (char *)N.name;
    A->u.describe.table_position = N.pos;
}
describe_stmt(A) ::= DESC(K) qualified_name(N).
{
    A = ab_stmt(ctx, ATTU_STMT_DESCRIBE, K.pos);
    A->u.describe.table = (char *)N.name;
    A->u.describe.table_position = N.pos;
}

/* ======================================================================== */
/* DEALLOCATE and DISCARD (what connection pools send between clients)      */

%type deallocate_stmt {attu_ast_stmt *}
deallocate_stmt(A) ::= DEALLOCATE(K) colid(N).
    { A = ab_stmt(ctx, ATTU_STMT_DEALLOCATE, K.pos); A->u.deallocate.name = (char *)ab_tokstr(&N); }
deallocate_stmt(A) ::= DEALLOCATE(K) PREPARE colid(N).
    { A = ab_stmt(ctx, ATTU_STMT_DEALLOCATE, K.pos); A->u.deallocate.name = (char *)ab_tokstr(&N); }
deallocate_stmt(A) ::= DEALLOCATE(K) ALL.
    { A = ab_stmt(ctx, ATTU_STMT_DEALLOCATE, K.pos); A->u.deallocate.name = NULL; }
deallocate_stmt(A) ::= DEALLOCATE(K) PREPARE ALL.
    { A = ab_stmt(ctx, ATTU_STMT_DEALLOCATE, K.pos); A->u.deallocate.name = NULL; }

/* ======================================================================== */
/* LISTEN, UNLISTEN and NOTIFY (db/db_notify.c)                             */

%type listen_stmt {attu_ast_stmt *}
listen_stmt(A) ::= LISTEN(K) colid(N).
    { A = ab_stmt(ctx, ATTU_STMT_LISTEN, K.pos); A->u.listen.op = ATTU_LISTEN_LISTEN; A->u.listen.channel = (char *)ab_tokstr(&N); }
listen_stmt(A) ::= UNLISTEN(K) colid(N).
    { A = ab_stmt(ctx, ATTU_STMT_LISTEN, K.pos); A->u.listen.op = ATTU_LISTEN_UNLISTEN; A->u.listen.channel = (char *)ab_tokstr(&N); }
listen_stmt(A) ::= UNLISTEN(K) STAR.
    { A = ab_stmt(ctx, ATTU_STMT_LISTEN, K.pos); A->u.listen.op = ATTU_LISTEN_UNLISTEN; A->u.listen.channel = NULL; }
listen_stmt(A) ::= NOTIFY(K) colid(N).
    { A = ab_stmt(ctx, ATTU_STMT_LISTEN, K.pos); A->u.listen.op = ATTU_LISTEN_NOTIFY; A->u.listen.channel = (char *)ab_tokstr(&N); }
listen_stmt(A) ::= NOTIFY(K) colid(N) COMMA SCONST(P).
{
    A = ab_stmt(ctx, ATTU_STMT_LISTEN, K.pos);
    A->u.listen.op = ATTU_LISTEN_NOTIFY;
    A->u.listen.channel = (char *)ab_tokstr(&N);
    A->u.listen.payload = (char *)ab_tokstr(&P);
}

%type discard_stmt {attu_ast_stmt *}
discard_stmt(A) ::= DISCARD(K) ALL.
    { A = ab_stmt(ctx, ATTU_STMT_DISCARD, K.pos); A->u.discard.what = ATTU_DISCARD_ALL; }
discard_stmt(A) ::= DISCARD(K) PLANS.
    { A = ab_stmt(ctx, ATTU_STMT_DISCARD, K.pos); A->u.discard.what = ATTU_DISCARD_PLANS; }
discard_stmt(A) ::= DISCARD(K) SEQUENCES.
    { A = ab_stmt(ctx, ATTU_STMT_DISCARD, K.pos); A->u.discard.what = ATTU_DISCARD_SEQUENCES; }
discard_stmt(A) ::= DISCARD(K) TEMP.
    { A = ab_stmt(ctx, ATTU_STMT_DISCARD, K.pos); A->u.discard.what = ATTU_DISCARD_TEMP; }
discard_stmt(A) ::= DISCARD(K) TEMPORARY.
    { A = ab_stmt(ctx, ATTU_STMT_DISCARD, K.pos); A->u.discard.what = ATTU_DISCARD_TEMP; }

/* ======================================================================== */
/* PREPARE / EXECUTE (SQL-level prepared statements; db/db_prepare_sql.c)   */
/* PostgreSQL's PreparableStmt is SELECT, INSERT, UPDATE, DELETE and MERGE; */
/* attu has SELECT (VALUES and set operations included) and INSERT, so      */
/* anything else after AS is a syntax error there, as in PostgreSQL for     */
/* EXECUTE or PREPARE (no recursion can be written).                        */

%include {
static attu_ast_stmt *prepare_make(attu_parse_ctx *c, const attu_token *k, const attu_token *name,
                                   attu_vec *types, attu_ast_stmt *body) {
    attu_ast_stmt *s = ab_stmt(c, ATTU_STMT_PREPARE, k->pos);
    s->u.prepare.name = (char *)ab_tokstr(name);
    s->u.prepare.stmt = body;
    if (types) {
        s->u.prepare.types = types->items;
        s->u.prepare.ntypes = types->n;
    }
    /* the whole statement ends with the last token lemon has seen: the
     * rule reduces on the ';' or the end of input that follows it */
    s->u.prepare.text_start = c->stmt_start;
    s->u.prepare.text_end = c->prev_end;
    return s;
}
}
%type prepare_stmt {attu_ast_stmt *}
%type preparable_stmt {attu_ast_stmt *}
%type prep_type_list {attu_vec *}
prepare_stmt(A) ::= PREPARE(K) colid(N) AS preparable_stmt(S).
    { A = prepare_make(ctx, &K, &N, NULL, S); }
prepare_stmt(A) ::= PREPARE(K) colid(N) LP prep_type_list(L) RP AS preparable_stmt(S).
    { A = prepare_make(ctx, &K, &N, L, S); }
prep_type_list(A) ::= typename(T).
    { A = vec_new(ctx); ab_vec_push(ctx, A, &T, sizeof T); }
prep_type_list(A) ::= prep_type_list(L) COMMA typename(T).
    { A = L; ab_vec_push(ctx, A, &T, sizeof T); }
preparable_stmt(A) ::= select_stmt(Q).
    { A = ab_stmt(ctx, ATTU_STMT_SELECT, Q->position); A->u.select.query = Q; }
preparable_stmt(A) ::= insert_stmt(S).  { A = S; }
preparable_stmt(A) ::= delete_stmt(S).  { A = S; }
preparable_stmt(A) ::= update_stmt(S).  { A = S; }
preparable_stmt(A) ::= merge_stmt(S).   { A = S; }

%type execute_stmt {attu_ast_stmt *}
execute_stmt(A) ::= EXECUTE(K) colid(N).
    { A = ab_stmt(ctx, ATTU_STMT_EXECUTE, K.pos); A->u.execute.name = (char *)ab_tokstr(&N); }
execute_stmt(A) ::= EXECUTE(K) colid(N) LP expr_list(L) RP.
{
    A = ab_stmt(ctx, ATTU_STMT_EXECUTE, K.pos);
    A->u.execute.name = (char *)ab_tokstr(&N);
    A->u.execute.args = ab_expr_list(L);
}

%type txn_stmt {attu_ast_stmt *}
txn_stmt(A) ::= BEGIN(K) opt_transaction opt_txn_mode_list(M).
{
    A = ab_stmt(ctx, ATTU_STMT_TRANSACTION, K.pos);
    A->u.transaction.kind = ATTU_TXN_BEGIN;
    if (M) { A->u.transaction.modes = M->v.items; A->u.transaction.nmodes = M->v.n; }
}
txn_stmt(A) ::= START(K) TRANSACTION opt_txn_mode_list(M).
{
    A = ab_stmt(ctx, ATTU_STMT_TRANSACTION, K.pos);
    A->u.transaction.kind = ATTU_TXN_BEGIN;
    if (M) { A->u.transaction.modes = M->v.items; A->u.transaction.nmodes = M->v.n; }
}
txn_stmt(A) ::= COMMIT(K) opt_transaction opt_chain(C).
    { A = ab_stmt(ctx, ATTU_STMT_TRANSACTION, K.pos); A->u.transaction.kind = ATTU_TXN_COMMIT; A->u.transaction.chain = C; }
txn_stmt(A) ::= END(K) opt_transaction opt_chain(C).
    { A = ab_stmt(ctx, ATTU_STMT_TRANSACTION, K.pos); A->u.transaction.kind = ATTU_TXN_COMMIT; A->u.transaction.chain = C; }
txn_stmt(A) ::= ROLLBACK(K) opt_transaction opt_chain(C).
    { A = ab_stmt(ctx, ATTU_STMT_TRANSACTION, K.pos); A->u.transaction.kind = ATTU_TXN_ROLLBACK; A->u.transaction.chain = C; }
txn_stmt(A) ::= ABORT(K) opt_transaction opt_chain(C).
    { A = ab_stmt(ctx, ATTU_STMT_TRANSACTION, K.pos); A->u.transaction.kind = ATTU_TXN_ROLLBACK; A->u.transaction.chain = C; }

/* SAVEPOINT name, RELEASE [SAVEPOINT] name, ROLLBACK [WORK] TO [SAVEPOINT]
 * name (db/db_txn.c) */
txn_stmt(A) ::= SAVEPOINT(K) colid(N).
    { A = ab_stmt(ctx, ATTU_STMT_TRANSACTION, K.pos); A->u.transaction.kind = ATTU_TXN_SAVEPOINT;
      A->u.transaction.savepoint = (char *)ab_tokstr(&N); }
txn_stmt(A) ::= RELEASE(K) colid(N).
    { A = ab_stmt(ctx, ATTU_STMT_TRANSACTION, K.pos); A->u.transaction.kind = ATTU_TXN_RELEASE;
      A->u.transaction.savepoint = (char *)ab_tokstr(&N); }
txn_stmt(A) ::= RELEASE(K) SAVEPOINT colid(N).
    { A = ab_stmt(ctx, ATTU_STMT_TRANSACTION, K.pos); A->u.transaction.kind = ATTU_TXN_RELEASE;
      A->u.transaction.savepoint = (char *)ab_tokstr(&N); }
txn_stmt(A) ::= ROLLBACK(K) opt_transaction TO colid(N).
    { A = ab_stmt(ctx, ATTU_STMT_TRANSACTION, K.pos); A->u.transaction.kind = ATTU_TXN_ROLLBACK_TO;
      A->u.transaction.savepoint = (char *)ab_tokstr(&N); }
txn_stmt(A) ::= ROLLBACK(K) opt_transaction TO SAVEPOINT colid(N).
    { A = ab_stmt(ctx, ATTU_STMT_TRANSACTION, K.pos); A->u.transaction.kind = ATTU_TXN_ROLLBACK_TO;
      A->u.transaction.savepoint = (char *)ab_tokstr(&N); }

opt_transaction ::= WORK.
opt_transaction ::= TRANSACTION.
opt_transaction ::= .

%type opt_chain {bool}
opt_chain(A) ::= AND CHAIN.     { A = true; }
opt_chain(A) ::= AND NO CHAIN.  { A = false; }
opt_chain(A) ::= .              { A = false; }

%type opt_txn_mode_list {ab_strlist *}
opt_txn_mode_list(A) ::= txn_mode_list(L).  { A = L; }
opt_txn_mode_list(A) ::= .                  { A = NULL; }

/* Modes are recorded as text ("read committed", "read only",
 * "deferrable", ...) for SET TRANSACTION, SET SESSION CHARACTERISTICS and
 * BEGIN: the settings transaction_isolation, transaction_read_only, ...
 * (db/db_settings.c). */
%type txn_mode_list {ab_strlist *}
txn_mode_list(A) ::= txn_mode(M).                          { A = strlist_push(ctx, NULL, M); }
txn_mode_list(A) ::= txn_mode_list(L) COMMA txn_mode(M).   { A = strlist_push(ctx, L, M); }
txn_mode_list(A) ::= txn_mode_list(L) txn_mode(M).         { A = strlist_push(ctx, L, M); }

%type txn_mode {const char *}
txn_mode(A) ::= ISOLATION LEVEL iso_level(L).   { A = L; }
txn_mode(A) ::= READ ONLY.                      { A = "read only"; }
txn_mode(A) ::= READ WRITE.                     { A = "read write"; }
txn_mode(A) ::= DEFERRABLE.                     { A = "deferrable"; }
txn_mode(A) ::= NOT DEFERRABLE.                 { A = "not deferrable"; }

%type iso_level {const char *}
iso_level(A) ::= READ UNCOMMITTED.  { A = "read uncommitted"; }
iso_level(A) ::= READ COMMITTED.    { A = "read committed"; }
iso_level(A) ::= REPEATABLE READ.   { A = "repeatable read"; }
iso_level(A) ::= SERIALIZABLE.      { A = "serializable"; }

/* ======================================================================== */
/* CREATE INDEX, DROP INDEX, ALTER INDEX, REINDEX (db/db_index.c)           */

/* INDEX, INCLUDE, TABLESPACE and REINDEX are PostgreSQL's unreserved
 * keywords. The lexer gives identifiers; planner/parser.c turns index and
 * reindex into INDEX / REINDEX where an index statement starts (so no
 * other statement's syntax error moves), and INCLUDE and TABLESPACE,
 * which only an index statement reaches, are identifiers checked by word
 * (ab_word_expect), as OWNER. CONCURRENTLY is a type/function-name
 * keyword. */
%include {
typedef struct ab_idx_name { const char *name; int pos; bool if_not_exists; } ab_idx_name;
/* the clauses after the key columns, each at most once and in
 * PostgreSQL's order (INCLUDE, NULLS [NOT] DISTINCT, WITH, TABLESPACE):
 * stage is the last one seen */
typedef struct ab_idx_tail {
    int stage;
    attu_names *include;
    bool nnd;
    attu_vec *opts;
    const char *ts;
    int ts_pos;
} ab_idx_tail;
static void ab_idx_stage(attu_parse_ctx *ctx, ab_idx_tail *t, int stage, const attu_token *k) {
    if (t->stage >= stage && !ctx->failed) {
        ab_error(ctx, ATTU_SQLSTATE_SYNTAX, k->pos, "syntax error at or near \"%.*s\"", (int)k->len, ctx->sql + k->off);
        ctx->failed = true;
    }
    t->stage = stage;
}
/* The text of sql[from, to) without the blanks around it. */
static char *ab_idx_text(attu_parse_ctx *ctx, size_t from, size_t to, int *pos) {
    while (from < to && (ctx->sql[from] == ' ' || ctx->sql[from] == '\t' || ctx->sql[from] == '\n' || ctx->sql[from] == '\r'))
        from++;
    /* (the text's first character's 1-based character position) */
    *pos = 1;
    for (size_t i = 0; i < from; i++) *pos += ((unsigned char)ctx->sql[i] & 0xC0) != 0x80;
    while (to > from && (ctx->sql[to - 1] == ' ' || ctx->sql[to - 1] == '\t' || ctx->sql[to - 1] == '\n' ||
                         ctx->sql[to - 1] == '\r'))
        to--;
    return ab_strndup(ctx, ctx->sql + from, to - from);
}
/* schema.name of an index or its table: public's only */
static void ab_idx_schema(attu_parse_ctx *ctx, const ab_qname *n) {
    if (n->schema && strcmp(n->schema, "public") && strcmp(n->schema, "pg_temp"))
        ab_defer_error(ctx, "3F000", 0, "schema \"%s\" does not exist", n->schema);
}
typedef struct ab_idx_opts { const char *collation; int collation_pos; const char *opclass; int opclass_pos; bool desc; int nulls; } ab_idx_opts;
static void ab_idx_elem_opts(attu_ast_index_elem *e, const ab_idx_opts *o) {
    e->collation = (char *)o->collation;
    e->collation_position = o->collation_pos;
    e->opclass = (char *)o->opclass;
    e->opclass_position = o->opclass_pos;
    e->desc = o->desc;
    e->nulls = o->nulls;
}
}
%type create_index_stmt {attu_ast_stmt *}
%type opt_unique {bool}
%type opt_concurrently {bool}
%type opt_index_only {bool}
%type opt_index_name {ab_idx_name}
%type opt_index_method {ab_idx_name}
%type index_params {attu_vec *}
%type index_elem {attu_ast_index_elem}
%type index_elem_opts {ab_idx_opts}
%type opt_index_class {ab_idx_name}
%type elem_mark {size_t}
%type index_tail {ab_idx_tail}
%type index_opt_list {attu_vec *}
%type index_opt {attu_ast_option}
%type opt_index_where {attu_ast_stmt *}

create_index_stmt(A) ::= CREATE(K) opt_unique(U) INDEX opt_concurrently(C) opt_index_name(N) ON opt_index_only(O)
                         qualified_name(T) opt_index_method(M) LP index_params(P) RP index_tail(X) opt_index_where(W).
{
    ab_idx_schema(ctx, &T);
    A = W;   /* (the WHERE's statement, made there to hold its text) */
    A->position = K.pos;
    A->u.create_index.unique = U;
    A->u.create_index.concurrently = C;
    A->u.create_index.name = (char *)N.name;
    A->u.create_index.name_position = N.pos;
    A->u.create_index.if_not_exists = N.if_not_exists;
    A->u.create_index.only = O;
    A->u.create_index.table = (char *)T.name;
    A->schema = rel_schema(ctx, T.schema);
    A->u.create_index.table_position = T.pos;
    A->u.create_index.method = (char *)M.name;
    A->u.create_index.method_position = M.pos;
    A->u.create_index.elems = P->items;
    A->u.create_index.nelems = P->n;
    A->u.create_index.include = ab_names(X.include);
    A->u.create_index.nulls_not_distinct = X.nnd;
    A->u.create_index.options = X.opts ? X.opts->items : NULL;
    A->u.create_index.noptions = X.opts ? X.opts->n : 0;
    A->u.create_index.tablespace = (char *)X.ts;
    A->u.create_index.tablespace_position = X.ts_pos;
}
opt_unique(A) ::= UNIQUE.   { A = true; }
opt_unique(A) ::= .         { A = false; }
opt_concurrently(A) ::= TYPEFUNC_BARE(C).   { ab_word_expect(ctx, &C, "concurrently"); A = true; }
opt_concurrently(A) ::= .                   { A = false; }
opt_index_only(A) ::= ONLY.                 { A = true; }
opt_index_only(A) ::= .                     { A = false; }
opt_index_name(A) ::= IF NOT EXISTS colid(N).   { A.name = ab_tokstr(&N); A.pos = N.pos; A.if_not_exists = true; }
opt_index_name(A) ::= colid(N).                 { A.name = ab_tokstr(&N); A.pos = N.pos; A.if_not_exists = false; }
opt_index_name(A) ::= .                         { A.name = NULL; A.pos = 0; A.if_not_exists = false; }
opt_index_method(A) ::= USING colid(M).         { A.name = ab_tokstr(&M); A.pos = M.pos; A.if_not_exists = false; }
opt_index_method(A) ::= .                       { A.name = NULL; A.pos = 0; A.if_not_exists = false; }
index_params(A) ::= index_elem(E).                          { A = vec_new(ctx); ab_vec_push(ctx, A, &E, sizeof E); }
index_params(A) ::= index_params(L) COMMA index_elem(E).    { A = L; ab_vec_push(ctx, A, &E, sizeof E); }
/* where an element starts: the end of the "(" or "," before it */
elem_mark(A) ::= .  { A = ctx->prev_end; }
index_elem(A) ::= elem_mark colid(C) index_elem_opts(O).
{
    memset(&A, 0, sizeof A);
    A.column = (char *)ab_tokstr(&C);
    A.position = C.pos;
    ab_idx_elem_opts(&A, &O);
}
index_elem(A) ::= elem_mark(S) func_application(F) elem_mark(E) index_elem_opts(O).
{
    memset(&A, 0, sizeof A);
    A.expr = F;
    A.expr_text = ab_idx_text(ctx, S, E, &A.position);
    A.expr_call = true;
    ab_idx_elem_opts(&A, &O);
}
index_elem(A) ::= elem_mark(S) func_expr_common(F) elem_mark(E) index_elem_opts(O).
{
    memset(&A, 0, sizeof A);
    A.expr = F;
    A.expr_text = ab_idx_text(ctx, S, E, &A.position);
    A.expr_call = true;
    ab_idx_elem_opts(&A, &O);
}
index_elem(A) ::= elem_mark LP(L) a_expr(E) RP(R) index_elem_opts(O).
{
    memset(&A, 0, sizeof A);
    A.expr = E;
    A.expr_text = ab_idx_text(ctx, L.off + L.len, R.off, &A.position);
    ab_idx_elem_opts(&A, &O);
}
index_elem_opts(A) ::= opt_index_collate(C) opt_index_class(K) opt_asc_desc(D) opt_nulls_order(N).
{
    A.collation = C.name; A.collation_pos = C.pos;
    A.opclass = K.name; A.opclass_pos = K.pos;
    A.desc = D; A.nulls = N;
}
%type opt_index_collate {ab_idx_name}
opt_index_collate(A) ::= COLLATE(K) collation_name(N).
{
    A.name = N.name; A.pos = K.pos; A.if_not_exists = false;
    if (N.schema && strcmp(N.schema, "pg_catalog")) ab_defer_error(ctx, "3F000", N.pos, "schema \"%s\" does not exist", N.schema);
}
opt_index_collate(A) ::= .                       { A.name = NULL; A.pos = 0; A.if_not_exists = false; }
opt_index_class(A) ::= colid(N).                 { A.name = ab_tokstr(&N); A.pos = N.pos; A.if_not_exists = false; }
opt_index_class(A) ::= colid(S) DOT attr_name(N).
{
    A.name = ab_tokstr(&N); A.pos = S.pos; A.if_not_exists = false;
    if (strcmp(ab_tokstr(&S), "pg_catalog")) ab_defer_error(ctx, "3F000", S.pos, "schema \"%s\" does not exist", ab_tokstr(&S));
}
opt_index_class(A) ::= .                         { A.name = NULL; A.pos = 0; A.if_not_exists = false; }
index_tail(A) ::= .     { memset(&A, 0, sizeof A); }
index_tail(A) ::= index_tail(T) ID(I) LP name_list(L) RP.
{
    A = T;
    ab_word_expect(ctx, &I, "include");
    ab_idx_stage(ctx, &A, 1, &I);
    A.include = L;
}
index_tail(A) ::= index_tail(T) NULLS(K) NOT DISTINCT.     { A = T; ab_idx_stage(ctx, &A, 2, &K); A.nnd = true; }
index_tail(A) ::= index_tail(T) NULLS(K) DISTINCT.         { A = T; ab_idx_stage(ctx, &A, 2, &K); A.nnd = false; }
index_tail(A) ::= index_tail(T) WITH(K) LP index_opt_list(L) RP.
    { A = T; ab_idx_stage(ctx, &A, 3, &K); A.opts = L; }
index_tail(A) ::= index_tail(T) ID(I) colid(N).
{
    A = T;
    ab_word_expect(ctx, &I, "tablespace");
    ab_idx_stage(ctx, &A, 4, &I);
    A.ts = ab_tokstr(&N);
    A.ts_pos = N.pos;
}
index_opt_list(A) ::= index_opt(O).                         { A = vec_new(ctx); ab_vec_push(ctx, A, &O, sizeof O); }
index_opt_list(A) ::= index_opt_list(L) COMMA index_opt(O). { A = L; ab_vec_push(ctx, A, &O, sizeof O); }
index_opt(A) ::= col_label(N) EQ option_value(V).  { A = opt_make(ctx, ab_tokstr(&N), N.pos, V.text, V.pos); }
index_opt(A) ::= col_label(N).                     { A = opt_make(ctx, ab_tokstr(&N), N.pos, NULL, 0); }
opt_index_where(A) ::= WHERE(K) a_expr(E).
{
    A = ab_stmt(ctx, ATTU_STMT_CREATE_INDEX, K.pos);
    A->u.create_index.where = E;
    A->u.create_index.where_text = ab_idx_text(ctx, K.off + K.len, ctx->prev_end, &A->u.create_index.where_position);
}
opt_index_where(A) ::= .    { A = ab_stmt(ctx, ATTU_STMT_CREATE_INDEX, 0); }

%type drop_index_stmt {attu_ast_stmt *}
drop_index_stmt(A) ::= DROP(K) INDEX opt_concurrently IF EXISTS drop_name_list(L) opt_drop_behavior(B).
{
    A = ab_stmt(ctx, ATTU_STMT_DROP_INDEX, K.pos);
    A->u.drop_table.tables = ab_names(L);
    A->u.drop_table.if_exists = true;
    A->u.drop_table.cascade = B;
}
drop_index_stmt(A) ::= DROP(K) INDEX opt_concurrently drop_name_list(L) opt_drop_behavior(B).
{
    A = ab_stmt(ctx, ATTU_STMT_DROP_INDEX, K.pos);
    A->u.drop_table.tables = ab_names(L);
    A->u.drop_table.cascade = B;
}

%type alter_index_stmt {attu_ast_stmt *}
%type alter_index_head {attu_ast_stmt *}
alter_index_head(A) ::= ALTER(K) INDEX IF EXISTS qualified_name(N).
{
    ab_idx_schema(ctx, &N);
    A = ab_stmt(ctx, ATTU_STMT_ALTER_INDEX, K.pos);
    A->u.alter_index.name = (char *)N.name;
    A->u.alter_index.name_position = N.pos;
    A->u.alter_index.if_exists = true;
}
alter_index_head(A) ::= ALTER(K) INDEX qualified_name(N).
{
    ab_idx_schema(ctx, &N);
    A = ab_stmt(ctx, ATTU_STMT_ALTER_INDEX, K.pos);
    A->u.alter_index.name = (char *)N.name;
    A->u.alter_index.name_position = N.pos;
}
alter_index_stmt(A) ::= alter_index_head(H) RENAME TO colid(T).
    { A = H; A->u.alter_index.action = 'r'; A->u.alter_index.new_name = (char *)ab_tokstr(&T); A->u.alter_index.new_position = T.pos; }
alter_index_stmt(A) ::= alter_index_head(H) SET ID(W) colid(T).
{
    ab_word_expect(ctx, &W, "tablespace");
    A = H; A->u.alter_index.action = 't'; A->u.alter_index.new_name = (char *)ab_tokstr(&T); A->u.alter_index.new_position = T.pos;
}
alter_index_stmt(A) ::= alter_index_head(H) SET LP index_opt_list(L) RP.
    { A = H; A->u.alter_index.action = 's'; A->u.alter_index.options = L->items; A->u.alter_index.noptions = L->n; }
alter_index_stmt(A) ::= alter_index_head(H) RESET LP index_opt_list(L) RP.
    { A = H; A->u.alter_index.action = 'x'; A->u.alter_index.options = L->items; A->u.alter_index.noptions = L->n; }

%type reindex_stmt {attu_ast_stmt *}
%type reindex_head {attu_ast_stmt *}
reindex_head(A) ::= REINDEX(R).                         { A = ab_stmt(ctx, ATTU_STMT_ALTER_INDEX, R.pos); }
reindex_head(A) ::= REINDEX(R) LP index_opt_list RP.    { A = ab_stmt(ctx, ATTU_STMT_ALTER_INDEX, R.pos); }
reindex_stmt(A) ::= reindex_head(H) INDEX opt_concurrently qualified_name(N).
{
    ab_idx_schema(ctx, &N);
    A = H; A->u.alter_index.action = 'i'; A->u.alter_index.name = (char *)N.name; A->u.alter_index.name_position = N.pos;
}
reindex_stmt(A) ::= reindex_head(H) TABLE opt_concurrently qualified_name(N).
{
    ab_idx_schema(ctx, &N);
    A = H; A->u.alter_index.action = 'T'; A->u.alter_index.name = (char *)N.name; A->u.alter_index.name_position = N.pos;
}

/* Last %include: from here on the generated driver's realloc, which only
 * grows the parser stack, is bounded, so deeply nested input fails with
 * 54001 (%stack_overflow) instead of eating memory. 4 MB holds tens of
 * thousands of entries, far beyond ATTU_AST_MAX_DEPTH. */
%include {
#define ATTU_GRAMMAR_STACK_BYTES (4u << 20)
static void *grammar_realloc(void *p, size_t n) {
    return n > ATTU_GRAMMAR_STACK_BYTES ? NULL : realloc(p, n);
}
#define realloc grammar_realloc
}

/* ======================================================================== */
/* COMMENT ON object IS 'text' | NULL (db/db_comment.c)                    */

%include {
typedef struct ab_comment_obj { char object; ab_qname rel; const char *sub; attu_ast_function *fn; } ab_comment_obj;
/* A relation named schema.name: public's only. */
static void ab_comment_schema(attu_parse_ctx *ctx, const char *schema, int pos) {
    if (schema && strcmp(schema, "public") && strcmp(schema, "pg_temp") && strncmp(schema, "pg_temp_", 8))
        ab_defer_error(ctx, "3F000", pos, "schema \"%s\" does not exist", schema);
}
}
%type comment_stmt {attu_ast_stmt *}
%type comment_obj {ab_comment_obj}
%type comment_text {char *}
comment_stmt(A) ::= COMMENT(C) ON comment_obj(O) IS comment_text(T).
{
    A = ab_stmt(ctx, ATTU_STMT_COMMENT, C.pos);
    A->u.comment.object = O.object;
    A->u.comment.rel = (char *)O.rel.name;
    A->schema = rel_schema(ctx, O.rel.schema);
    A->u.comment.rel_position = O.rel.pos;
    A->u.comment.sub = (char *)O.sub;
    A->u.comment.fn = O.object == 'f' ? O.fn : NULL;
    A->u.comment.text = T;
}
comment_text(A) ::= SCONST(S).  { A = (char *)ab_tokstr(&S); }
comment_text(A) ::= NULL.       { A = NULL; }
comment_obj(A) ::= FUNCTION func_sig(F).
{
    memset(&A, 0, sizeof A);
    A.object = 'f'; A.fn = F; A.rel.name = F ? F->name : NULL;
}
comment_obj(A) ::= TABLE qualified_name(N).
    { A.object = 't'; A.rel = N; A.sub = NULL; ab_comment_schema(ctx, N.schema, N.pos); }
comment_obj(A) ::= VIEW qualified_name(N).
    { A.object = 'v'; A.rel = N; A.sub = NULL; ab_comment_schema(ctx, N.schema, N.pos); }
comment_obj(A) ::= MATERIALIZED VIEW qualified_name(N).
    { A.object = 'm'; A.rel = N; A.sub = NULL; ab_comment_schema(ctx, N.schema, N.pos); }
comment_obj(A) ::= INDEX qualified_name(N).
    { A.object = 'i'; A.rel = N; A.sub = NULL; ab_comment_schema(ctx, N.schema, N.pos); }
comment_obj(A) ::= CONSTRAINT colid(C) ON qualified_name(N).
    { A.object = 'k'; A.rel = N; A.sub = ab_tokstr(&C); ab_comment_schema(ctx, N.schema, N.pos); }
/* COLUMN table.column or schema.table.column */
comment_obj(A) ::= COLUMN colid(C).
{
    memset(&A, 0, sizeof A);
    A.object = 'c'; A.rel.name = ab_tokstr(&C); A.rel.pos = C.pos;
    ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, 0, "column name must be qualified");
}
comment_obj(A) ::= COLUMN colid(T) DOT attr_name(C).
{
    memset(&A, 0, sizeof A);
    A.object = 'c'; A.rel.name = ab_tokstr(&T); A.rel.pos = T.pos; A.sub = ab_tokstr(&C);
}
comment_obj(A) ::= COLUMN colid(S) DOT attr_name(T) DOT attr_name(C).
{
    memset(&A, 0, sizeof A);
    A.object = 'c'; A.rel.name = ab_tokstr(&T); A.rel.pos = S.pos; A.sub = ab_tokstr(&C);
    A.rel.schema = ab_tokstr(&S);
    ab_comment_schema(ctx, A.rel.schema, S.pos);
}

/* ======================================================================== */
/* Cursors: DECLARE, FETCH, MOVE, CLOSE (db/db_cursor.c)                     */

%type declare_stmt {attu_ast_stmt *}
declare_stmt(A) ::= DECLARE(K) colid(N) cursor_opts(O) CURSOR opt_hold(H) FOR select_stmt(Q).
{
    A = ab_stmt(ctx, ATTU_STMT_DECLARE_CURSOR, K.pos);
    A->u.cursor.name = (char *)ab_tokstr(&N);
    A->u.cursor.name_position = N.pos;
    A->u.cursor.scroll = (O & 1) != 0;
    A->u.cursor.no_scroll = (O & 2) != 0;
    A->u.cursor.binary = (O & 4) != 0;
    A->u.cursor.insensitive = (O & 8) != 0;
    A->u.cursor.asensitive = (O & 16) != 0;
    A->u.cursor.hold = H;
    A->u.cursor.query = Q;
}

/* the options before CURSOR, any order, as a bit set: 1 SCROLL, 2 NO
 * SCROLL, 4 BINARY, 8 INSENSITIVE, 16 ASENSITIVE */
%type cursor_opts {int}
cursor_opts(A) ::= .                                  { A = 0; }
cursor_opts(A) ::= cursor_opts(B) NO SCROLL.          { A = B | 2; }
cursor_opts(A) ::= cursor_opts(B) SCROLL.             { A = B | 1; }
cursor_opts(A) ::= cursor_opts(B) BINARY.             { A = B | 4; }
cursor_opts(A) ::= cursor_opts(B) INSENSITIVE.        { A = B | 8; }
cursor_opts(A) ::= cursor_opts(B) ASENSITIVE.         { A = B | 16; }

%type opt_hold {bool}
opt_hold(A) ::= .               { A = false; }
opt_hold(A) ::= WITH HOLD.      { A = true; }
opt_hold(A) ::= WITHOUT HOLD.   { A = false; }

%type fetch_stmt {attu_ast_stmt *}
fetch_stmt(A) ::= FETCH(K) fetch_args(F).  { A = F; A->position = K.pos; A->u.fetch.move = false; }
fetch_stmt(A) ::= MOVE(K) fetch_args(F).   { A = F; A->position = K.pos; A->u.fetch.move = true; }

%type fetch_args {attu_ast_stmt *}
fetch_args(A) ::= colid(N).                                         { A = fetch_node(ctx, &N, ATTU_FETCH_FORWARD, 1); }
fetch_args(A) ::= from_in colid(N).                                 { A = fetch_node(ctx, &N, ATTU_FETCH_FORWARD, 1); }
fetch_args(A) ::= NEXT opt_from_in colid(N).                        { A = fetch_node(ctx, &N, ATTU_FETCH_FORWARD, 1); }
fetch_args(A) ::= PRIOR opt_from_in colid(N).                       { A = fetch_node(ctx, &N, ATTU_FETCH_BACKWARD, 1); }
fetch_args(A) ::= FIRST opt_from_in colid(N).                       { A = fetch_node(ctx, &N, ATTU_FETCH_ABSOLUTE, 1); }
fetch_args(A) ::= LAST opt_from_in colid(N).                        { A = fetch_node(ctx, &N, ATTU_FETCH_ABSOLUTE, -1); }
fetch_args(A) ::= ABSOLUTE fetch_count(C) opt_from_in colid(N).     { A = fetch_node(ctx, &N, ATTU_FETCH_ABSOLUTE, C); }
fetch_args(A) ::= RELATIVE fetch_count(C) opt_from_in colid(N).     { A = fetch_node(ctx, &N, ATTU_FETCH_RELATIVE, C); }
fetch_args(A) ::= fetch_count(C) opt_from_in colid(N).              { A = fetch_node(ctx, &N, ATTU_FETCH_FORWARD, C); }
fetch_args(A) ::= ALL opt_from_in colid(N).                         { A = fetch_node(ctx, &N, ATTU_FETCH_FORWARD, ATTU_FETCH_ALL); }
fetch_args(A) ::= FORWARD opt_from_in colid(N).                     { A = fetch_node(ctx, &N, ATTU_FETCH_FORWARD, 1); }
fetch_args(A) ::= FORWARD fetch_count(C) opt_from_in colid(N).      { A = fetch_node(ctx, &N, ATTU_FETCH_FORWARD, C); }
fetch_args(A) ::= FORWARD ALL opt_from_in colid(N).                 { A = fetch_node(ctx, &N, ATTU_FETCH_FORWARD, ATTU_FETCH_ALL); }
fetch_args(A) ::= BACKWARD opt_from_in colid(N).                    { A = fetch_node(ctx, &N, ATTU_FETCH_BACKWARD, 1); }
fetch_args(A) ::= BACKWARD fetch_count(C) opt_from_in colid(N).     { A = fetch_node(ctx, &N, ATTU_FETCH_BACKWARD, C); }
fetch_args(A) ::= BACKWARD ALL opt_from_in colid(N).                { A = fetch_node(ctx, &N, ATTU_FETCH_BACKWARD, ATTU_FETCH_ALL); }

from_in ::= FROM.
from_in ::= IN.
opt_from_in ::= from_in.
opt_from_in ::= .

/* PostgreSQL's SignedIconst: an int4 (a longer number is not an ICONST there) */
%type fetch_count {int64_t}
fetch_count(A) ::= ICONST(T).        { A = fetch_int(ctx, &T, false); }
fetch_count(A) ::= PLUS ICONST(T).   { A = fetch_int(ctx, &T, false); }
fetch_count(A) ::= MINUS ICONST(T).  { A = fetch_int(ctx, &T, true); }

%type close_stmt {attu_ast_stmt *}
close_stmt(A) ::= CLOSE(K) colid(N).
    { A = ab_stmt(ctx, ATTU_STMT_CLOSE_CURSOR, K.pos); A->u.close_cursor.name = (char *)ab_tokstr(&N); }
close_stmt(A) ::= CLOSE(K) ALL.
    { A = ab_stmt(ctx, ATTU_STMT_CLOSE_CURSOR, K.pos); A->u.close_cursor.name = NULL; }

/* ======================================================================== */
/* Enum types: CREATE TYPE name AS ENUM (...), DROP TYPE, ALTER TYPE       */
/* (db/db_type.c)                                                          */

%type type_stmt {attu_ast_stmt *}
%type enum_labels {attu_names *}
%type enum_place {ab_enum_place}
%include {
typedef struct ab_enum_place { int where; const char *nbr; } ab_enum_place;
static attu_ast_stmt *ab_type_stmt(attu_parse_ctx *ctx, int pos, char action, const ab_qname *n) {
    attu_ast_stmt *st = ab_stmt(ctx, ATTU_STMT_TYPE, pos);
    if (!st) return NULL;
    st->u.type_stmt.action = action;
    if (n) {
        if (n->schema && strcmp(n->schema, "public") && strcmp(n->schema, "pg_catalog"))
            ab_defer_error(ctx, "3F000", n->pos, "schema \"%s\" does not exist", n->schema);
        st->u.type_stmt.name = (char *)n->name;
        st->u.type_stmt.name_position = n->pos;
    }
    return st;
}
}
stmt(A) ::= type_stmt(S).                      { A = S; }
type_stmt(A) ::= CREATE(K) TYPE qualified_name(N) AS ID(E) LP enum_labels(L) RP.
{
    ab_word_expect(ctx, &E, "enum");
    A = ab_type_stmt(ctx, K.pos, 'c', &N);
    if (A) A->u.type_stmt.labels = ab_names(L);
}
type_stmt(A) ::= CREATE(K) TYPE qualified_name(N) AS ID(E) LP RP.
{
    ab_word_expect(ctx, &E, "enum");
    A = ab_type_stmt(ctx, K.pos, 'c', &N);
}
enum_labels(A) ::= SCONST(S).                        { A = ab_names_push(ctx, NULL, ab_tokstr(&S), S.pos); }
enum_labels(A) ::= enum_labels(L) COMMA SCONST(S).   { A = ab_names_push(ctx, L, ab_tokstr(&S), S.pos); }
type_stmt(A) ::= DROP(K) TYPE drop_name_list(L) opt_drop_behavior(B).
{
    A = ab_type_stmt(ctx, K.pos, 'd', NULL);
    if (A) { A->u.type_stmt.labels = ab_names(L); A->u.type_stmt.cascade = B; }
}
type_stmt(A) ::= DROP(K) TYPE IF EXISTS drop_name_list(L) opt_drop_behavior(B).
{
    A = ab_type_stmt(ctx, K.pos, 'd', NULL);
    if (A) { A->u.type_stmt.labels = ab_names(L); A->u.type_stmt.cascade = B; A->u.type_stmt.if_exists = true; }
}
type_stmt(A) ::= ALTER(K) TYPE qualified_name(N) ADD ID(V) SCONST(L) enum_place(P).
{
    ab_word_expect(ctx, &V, "value");
    A = ab_type_stmt(ctx, K.pos, 'a', &N);
    if (A) { A->u.type_stmt.label = (char *)ab_tokstr(&L); A->u.type_stmt.where = P.where; A->u.type_stmt.nbr = (char *)P.nbr; }
}
type_stmt(A) ::= ALTER(K) TYPE qualified_name(N) ADD ID(V) IF NOT EXISTS SCONST(L) enum_place(P).
{
    ab_word_expect(ctx, &V, "value");
    A = ab_type_stmt(ctx, K.pos, 'a', &N);
    if (A) {
        A->u.type_stmt.label = (char *)ab_tokstr(&L); A->u.type_stmt.where = P.where; A->u.type_stmt.nbr = (char *)P.nbr;
        A->u.type_stmt.if_exists = true;
    }
}
enum_place(A) ::= .                  { A.where = 0; A.nbr = NULL; }
enum_place(A) ::= ID(W) SCONST(S).
{
    A.where = ab_word_is(ctx, &W, "before") ? -1 : 1;
    if (A.where > 0) ab_word_expect(ctx, &W, "after");
    A.nbr = ab_tokstr(&S);
}
type_stmt(A) ::= ALTER(K) TYPE qualified_name(N) RENAME ID(V) SCONST(F) TO SCONST(T).
{
    ab_word_expect(ctx, &V, "value");
    A = ab_type_stmt(ctx, K.pos, 'v', &N);
    if (A) { A->u.type_stmt.label = (char *)ab_tokstr(&F); A->u.type_stmt.nbr = (char *)ab_tokstr(&T); }
}
type_stmt(A) ::= ALTER(K) TYPE qualified_name(N) RENAME TO colid(T).
{
    A = ab_type_stmt(ctx, K.pos, 'r', &N);
    if (A) A->u.type_stmt.nbr = (char *)ab_tokstr(&T);
}
/* ======================================================================== */
/* Domains: CREATE DOMAIN, ALTER DOMAIN, DROP DOMAIN (db/db_domain.c). They  */
/* ride on the type statement (its upper-case actions). The constraints    */
/* are a column's (col_constraints), of which a domain takes NOT NULL,     */
/* NULL, DEFAULT, CHECK and CONSTRAINT name.                               */

%include {
static attu_ast_stmt *ab_domain_create(attu_parse_ctx *ctx, int pos, const ab_qname *n, attu_ast_typename base,
                                       const ab_colcons *c) {
    attu_ast_stmt *st = ab_type_stmt(ctx, pos, 'C', n);
    if (!st) return NULL;
    st->u.type_stmt.base = base;
    st->u.type_stmt.dflt = c->default_;
    st->u.type_stmt.not_null = c->not_null;
    st->u.type_stmt.null_seen = c->null_seen;
    if (c->identity || c->primary_key)
        ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, pos, "%s", c->identity ? "identity columns are not supported on domains"
                                                                         : "primary key constraints not possible for domains");
    if (c->uq) {
        attu_ast_unique_def *u = (attu_ast_unique_def *)c->uq->items;
        for (int i = 0; i < c->uq->n; i++)
            if (!u[i].check)
                ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, u[i].position, "%s", u[i].fkey ? "foreign key constraints not possible for domains"
                                                               : u[i].primary ? "primary key constraints not possible for domains"
                                                               : "unique constraints not possible for domains");
        st->u.type_stmt.checks = u;
        st->u.type_stmt.nchecks = c->uq->n;
    }
    return st;
}
static attu_ast_stmt *ab_domain_alter(attu_parse_ctx *ctx, int pos, const ab_qname *n, char sub) {
    attu_ast_stmt *st = ab_type_stmt(ctx, pos, 'A', n);
    if (st) st->u.type_stmt.sub = sub;
    return st;
}
}
type_stmt(A) ::= CREATE(K) DOMAIN qualified_name(N) AS typename(T) col_constraints(C).
    { A = ab_domain_create(ctx, K.pos, &N, T, &C); }
type_stmt(A) ::= CREATE(K) DOMAIN qualified_name(N) typename(T) col_constraints(C).
    { A = ab_domain_create(ctx, K.pos, &N, T, &C); }
/* COLLATE: attu compares text byte by byte, PostgreSQL's "C" (checked as
 * an expression's COLLATE is; the name is not kept) */
type_stmt(A) ::= CREATE(K) DOMAIN qualified_name(N) AS typename(T) COLLATE(L) collation_name(O) col_constraints(C).
{
    ab_collate(ctx, NULL, O.schema, O.name, L.pos, O.pos);
    A = ab_domain_create(ctx, K.pos, &N, T, &C);
}
type_stmt(A) ::= CREATE(K) DOMAIN qualified_name(N) typename(T) COLLATE(L) collation_name(O) col_constraints(C).
{
    ab_collate(ctx, NULL, O.schema, O.name, L.pos, O.pos);
    A = ab_domain_create(ctx, K.pos, &N, T, &C);
}
type_stmt(A) ::= DROP(K) DOMAIN drop_name_list(L) opt_drop_behavior(B).
{
    A = ab_type_stmt(ctx, K.pos, 'D', NULL);
    if (A) { A->u.type_stmt.labels = ab_names(L); A->u.type_stmt.cascade = B; }
}
type_stmt(A) ::= DROP(K) DOMAIN IF EXISTS drop_name_list(L) opt_drop_behavior(B).
{
    A = ab_type_stmt(ctx, K.pos, 'D', NULL);
    if (A) { A->u.type_stmt.labels = ab_names(L); A->u.type_stmt.cascade = B; A->u.type_stmt.if_exists = true; }
}
type_stmt(A) ::= ALTER(K) DOMAIN qualified_name(N) SET DEFAULT b_expr(E).
    { A = ab_domain_alter(ctx, K.pos, &N, 'd'); if (A) A->u.type_stmt.dflt = E; }
type_stmt(A) ::= ALTER(K) DOMAIN qualified_name(N) DROP DEFAULT.
    { A = ab_domain_alter(ctx, K.pos, &N, 'e'); }
type_stmt(A) ::= ALTER(K) DOMAIN qualified_name(N) SET NOT NULL.
    { A = ab_domain_alter(ctx, K.pos, &N, 'n'); }
type_stmt(A) ::= ALTER(K) DOMAIN qualified_name(N) DROP NOT NULL.
    { A = ab_domain_alter(ctx, K.pos, &N, 'm'); }
type_stmt(A) ::= ALTER(K) DOMAIN qualified_name(N) ADD domain_check(C).
{
    A = ab_domain_alter(ctx, K.pos, &N, 'c');
    if (A) { A->u.type_stmt.checks = C; A->u.type_stmt.nchecks = 1; }
}
type_stmt(A) ::= ALTER(K) DOMAIN qualified_name(N) DROP CONSTRAINT colid(C) opt_drop_behavior(B).
{
    A = ab_domain_alter(ctx, K.pos, &N, 'x');
    if (A) { A->u.type_stmt.label = (char *)ab_tokstr(&C); A->u.type_stmt.cascade = B; }
}
type_stmt(A) ::= ALTER(K) DOMAIN qualified_name(N) DROP CONSTRAINT IF EXISTS colid(C) opt_drop_behavior(B).
{
    A = ab_domain_alter(ctx, K.pos, &N, 'x');
    if (A) { A->u.type_stmt.label = (char *)ab_tokstr(&C); A->u.type_stmt.cascade = B; A->u.type_stmt.if_exists = true; }
}
type_stmt(A) ::= ALTER(K) DOMAIN qualified_name(N) RENAME TO colid(T).
    { A = ab_domain_alter(ctx, K.pos, &N, 'r'); if (A) A->u.type_stmt.nbr = (char *)ab_tokstr(&T); }
type_stmt(A) ::= ALTER(K) DOMAIN qualified_name(N) RENAME CONSTRAINT colid(C) TO colid(T).
{
    A = ab_domain_alter(ctx, K.pos, &N, 'k');
    if (A) { A->u.type_stmt.label = (char *)ab_tokstr(&C); A->u.type_stmt.nbr = (char *)ab_tokstr(&T); }
}
type_stmt(A) ::= ALTER(K) DOMAIN qualified_name(N) ID(V) CONSTRAINT colid(C).
{
    ab_word_expect(ctx, &V, "validate");
    A = ab_domain_alter(ctx, K.pos, &N, 'v');
    if (A) A->u.type_stmt.label = (char *)ab_tokstr(&C);
}
type_stmt(A) ::= ALTER(K) DOMAIN qualified_name(N) ID(O) TO role_spec(R).
{
    ab_word_expect(ctx, &O, "owner");
    A = ab_domain_alter(ctx, K.pos, &N, 'o');
    if (A) A->u.type_stmt.nbr = (char *)R.name;
}
type_stmt(A) ::= ALTER(K) DOMAIN qualified_name(N) SET ID(S) colid(T).
{
    ab_word_expect(ctx, &S, "schema");
    A = ab_domain_alter(ctx, K.pos, &N, 's');
    if (A) A->u.type_stmt.nbr = (char *)ab_tokstr(&T);
}
%type domain_check {attu_ast_unique_def *}
domain_check(A) ::= CHECK(K) LP(P) a_expr(E) RP(R) con_attrs(T).
{
    A = ab_alloc(ctx, sizeof *A);
    if (A) { memset(A, 0, sizeof *A); ab_check(ctx, A, &K, &P, E, &R); A->not_valid = T.not_valid; }
}
domain_check(A) ::= CONSTRAINT(C) colid(N) CHECK(K) LP(P) a_expr(E) RP(R) con_attrs(T).
{
    A = ab_alloc(ctx, sizeof *A);
    if (A) {
        memset(A, 0, sizeof *A); ab_check(ctx, A, &K, &P, E, &R); A->not_valid = T.not_valid;
        A->name = (char *)ab_tokstr(&N); A->position = C.pos;
    }
}
/* ALTER TYPE name OWNER TO role / SET SCHEMA s (pg_dump writes them):
 * attu's one role and one schema (db/db_type.c) */
type_stmt(A) ::= ALTER(K) TYPE qualified_name(N) ID(W) TO role_spec(R).
{
    ab_word_expect(ctx, &W, "owner");
    A = ab_type_stmt(ctx, K.pos, 'o', &N);
    if (A) A->u.type_stmt.nbr = (char *)R.name;
}
type_stmt(A) ::= ALTER(K) TYPE qualified_name(N) SET ID(S) colid(T).
{
    ab_word_expect(ctx, &S, "schema");
    A = ab_type_stmt(ctx, K.pos, 's', &N);
    if (A) A->u.type_stmt.nbr = (char *)ab_tokstr(&T);
}
/* ======================================================================== */
/* SQL functions: CREATE [OR REPLACE] FUNCTION, DROP FUNCTION, ALTER        */
/* FUNCTION ... RENAME TO (db/db_function.c). FUNCTION and RETURN are      */
/* tokens only where parser.c makes them; RETURNS and the options' words  */
/* are identifiers (ab_word_expect, ab_fopts_apply). The statements ride  */
/* on the type statement, as the domains do (actions 'F', 'G', 'H').      */

%include {
typedef struct ab_fargs { attu_ast_func_arg *v; int n, cap; } ab_fargs;
static ab_fargs ab_fargs_push(attu_parse_ctx *ctx, ab_fargs l, attu_ast_func_arg a) {
    if (l.n == l.cap) {
        int cap = l.cap ? l.cap * 2 : 4;
        attu_ast_func_arg *nv = ab_alloc(ctx, (size_t)cap * sizeof *nv);
        if (!nv) return l;
        if (l.n) memcpy(nv, l.v, (size_t)l.n * sizeof *nv);
        l.v = nv;
        l.cap = cap;
    }
    l.v[l.n++] = a;
    return l;
}
static attu_ast_func_arg ab_farg(const attu_token *name, attu_ast_typename t, attu_ast_expr *dflt, int pos) {
    attu_ast_func_arg a;
    memset(&a, 0, sizeof a);
    a.name = name ? (char *)ab_tokstr(name) : NULL;
    a.type = t;
    a.dflt = dflt;
    a.position = pos;
    return a;
}
static attu_ast_function *ab_function(attu_parse_ctx *ctx, const ab_qname *n, bool has_args, ab_fargs a) {
    attu_ast_function *f = ab_alloc(ctx, sizeof *f);
    if (!f) return NULL;
    memset(f, 0, sizeof *f);
    if (n->schema && strcmp(n->schema, "public") && strcmp(n->schema, "pg_catalog"))
        ab_defer_error(ctx, "3F000", n->pos, "schema \"%s\" does not exist", n->schema);
    f->name = (char *)n->name;
    f->name_position = n->pos;
    f->has_args = has_args;
    f->args = a.v;
    f->nargs = a.n;
    f->strict = -1;
    f->leakproof = -1;
    return f;
}
/* An option written twice (or two that contradict): 42601. */
static void ab_fopt_once(attu_parse_ctx *ctx, bool seen, int pos) {
    if (seen) ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, pos, "conflicting or redundant options");
}
/* CREATE FUNCTION's options as written: their words (read by
 * ab_fopts_apply: one grammar rule per option would make LANGUAGE sql's
 * name an option of its own), and the AS literal. */
/* k: 'i' a word, 'n' NOT, 'u' NULL, 'o' ON, 'r' ROWS, 'c' a number, 's' a string */
typedef struct ab_fword { attu_token t; char k; } ab_fword;
typedef struct ab_fopts {
    ab_fword   *w;
    int         n, cap;
    bool        body_seen, link;
    attu_token  body;
} ab_fopts;
static ab_fopts ab_fopts_push(attu_parse_ctx *ctx, ab_fopts l, ab_fword t) {
    if (l.n == l.cap) {
        int cap = l.cap ? l.cap * 2 : 8;
        ab_fword *nv = ab_alloc(ctx, (size_t)cap * sizeof *nv);
        if (!nv) return l;
        if (l.n) memcpy(nv, l.w, (size_t)l.n * sizeof *nv);
        l.w = nv;
        l.cap = cap;
    }
    l.w[l.n++] = t;
    return l;
}
static bool ab_fw(const ab_fword *t, const char *word) {
    return t->k == 'i' && t->t.str && !strcmp(t->t.str, word);
}
/* Reads the options' words into f: IMMUTABLE | STABLE | VOLATILE,
 * STRICT | CALLED ON NULL INPUT | RETURNS NULL ON NULL INPUT, [NOT]
 * LEAKPROOF, LANGUAGE name, PARALLEL SAFE | RESTRICTED | UNSAFE,
 * SECURITY INVOKER | DEFINER, COST n, ROWS n. */
static void ab_fopts_apply(attu_parse_ctx *ctx, attu_ast_function *f, const ab_fopts *o) {
    if (!f) return;
    f->strict = -1;
    f->leakproof = -1;
    if (o->body_seen) {
        f->body = ab_strndup(ctx, o->body.str, o->body.slen);
        f->body_position = o->body.pos;
        f->body_offset = o->body.off;
        f->body_link = o->link;
    }
    const ab_fword *w = o->w;
    for (int i = 0; i < o->n; i++) {
        const ab_fword *t = &w[i];
        int left = o->n - i - 1;
        if (ab_fw(t, "immutable") || ab_fw(t, "stable") || ab_fw(t, "volatile")) {
            ab_fopt_once(ctx, f->volatility, t->t.pos);
            f->volatility = t->t.str[0];
        } else if (ab_fw(t, "strict")) {
            ab_fopt_once(ctx, f->strict >= 0, t->t.pos);
            f->strict = 1;
        } else if (ab_fw(t, "leakproof")) {
            ab_fopt_once(ctx, f->leakproof >= 0, t->t.pos);
            f->leakproof = 1;
        } else if (t->k == 'n' && left >= 1 && ab_fw(&w[i + 1], "leakproof")) {
            ab_fopt_once(ctx, f->leakproof >= 0, t->t.pos);
            f->leakproof = 0;
            i++;
        } else if (ab_fw(t, "called") && left >= 3 && w[i + 1].k == 'o' && w[i + 2].k == 'u' &&
                   ab_fw(&w[i + 3], "input")) {
            ab_fopt_once(ctx, f->strict >= 0, t->t.pos);
            f->strict = 0;
            i += 3;
        } else if (ab_fw(t, "returns") && left >= 4 && w[i + 1].k == 'u' && w[i + 2].k == 'o' &&
                   w[i + 3].k == 'u' && ab_fw(&w[i + 4], "input")) {
            ab_fopt_once(ctx, f->strict >= 0, t->t.pos);
            f->strict = 1;
            i += 4;
        } else if (ab_fw(t, "language") && left >= 1 && (w[i + 1].k == 'i' || w[i + 1].k == 's')) {
            ab_fopt_once(ctx, f->language != NULL, t->t.pos);
            f->language = ab_strndup(ctx, w[i + 1].t.str, w[i + 1].k == 's' ? w[i + 1].t.slen : strlen(w[i + 1].t.str));
            f->language_position = t->t.pos;
            i++;
        } else if (ab_fw(t, "parallel") && left >= 1 && w[i + 1].k == 'i') {
            ab_fopt_once(ctx, f->parallel, t->t.pos);
            const char *v = w[i + 1].t.str;
            if (!strcmp(v, "safe") || !strcmp(v, "restricted") || !strcmp(v, "unsafe")) f->parallel = v[0];
            else ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, w[i + 1].t.pos, "parameter \"parallel\" must be SAFE, RESTRICTED, or UNSAFE");
            i++;
        } else if (ab_fw(t, "security") && left >= 1 && (ab_fw(&w[i + 1], "invoker") || ab_fw(&w[i + 1], "definer"))) {
            i++;
        } else if ((ab_fw(t, "cost") || t->k == 'r') && left >= 1 &&
                   w[i + 1].k == 'c') {
            i++;
        } else if (ab_fw(t, "window")) {
            ab_defer_error(ctx, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, t->t.pos, "window functions are not supported");
        } else {
            ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, t->t.pos, "syntax error at or near \"%.*s\"", (int)t->t.len, ctx->sql + t->t.off);
            return;
        }
    }
}
static attu_ast_stmt *ab_function_stmt(attu_parse_ctx *ctx, int pos, char action, attu_ast_function *f) {
    attu_ast_stmt *st = ab_stmt(ctx, ATTU_STMT_TYPE, pos);
    if (!st) return NULL;
    st->u.type_stmt.action = action;
    st->u.type_stmt.fn = f;
    if (f) { st->u.type_stmt.name = f->name; st->u.type_stmt.name_position = f->name_position; }
    return st;
}
}
%type func_args {ab_fargs}
%type func_arg_items {ab_fargs}
%type func_arg {attu_ast_func_arg}
%type func_sig {attu_ast_function *}
%type func_sig_list {attu_ast_function *}
%type func_opts {ab_fopts}
%type func_word {ab_fword}

/* (PostgreSQL's param_name: no column-name keyword, which would read
 * as a type) */
%type func_param_name {attu_token}
func_param_name(A) ::= ID(T).                       { A = T; }
func_param_name(A) ::= unreserved_keyword(T).       { A = T; }
func_args(A) ::= .                                  { memset(&A, 0, sizeof A); }
func_args(A) ::= func_arg_items(L).                 { A = L; }
func_arg_items(A) ::= func_arg(X).                  { memset(&A, 0, sizeof A); A = ab_fargs_push(ctx, A, X); }
func_arg_items(A) ::= func_arg_items(L) COMMA func_arg(X). { A = ab_fargs_push(ctx, L, X); }
func_arg(A) ::= typename(T).                        { A = ab_farg(NULL, T, NULL, T.position); }
func_arg(A) ::= func_param_name(N) typename(T).               { A = ab_farg(&N, T, NULL, N.pos); }
func_arg(A) ::= IN(K) typename(T).                  { A = ab_farg(NULL, T, NULL, K.pos); }
func_arg(A) ::= IN(K) func_param_name(N) typename(T).         { A = ab_farg(&N, T, NULL, K.pos); }
func_arg(A) ::= VARIADIC(K) typename(T).            { A = ab_farg(NULL, T, NULL, K.pos); A.variadic = true; }
func_arg(A) ::= VARIADIC(K) func_param_name(N) typename(T).   { A = ab_farg(&N, T, NULL, K.pos); A.variadic = true; }
func_arg(A) ::= VARIADIC(K) func_param_name(N) typename(T) DEFAULT a_expr(E).
{ A = ab_farg(&N, T, E, K.pos); A.variadic = true; }
func_arg(A) ::= typename(T) DEFAULT a_expr(E).      { A = ab_farg(NULL, T, E, T.position); }
func_arg(A) ::= func_param_name(N) typename(T) DEFAULT a_expr(E).    { A = ab_farg(&N, T, E, N.pos); }
func_arg(A) ::= typename(T) EQ a_expr(E).           { A = ab_farg(NULL, T, E, T.position); }
func_arg(A) ::= func_param_name(N) typename(T) EQ a_expr(E).  { A = ab_farg(&N, T, E, N.pos); }

func_sig(A) ::= qualified_name(N).                  { ab_fargs z; memset(&z, 0, sizeof z); A = ab_function(ctx, &N, false, z); }
func_sig(A) ::= qualified_name(N) LP func_args(L) RP.   { A = ab_function(ctx, &N, true, L); }
func_sig_list(A) ::= func_sig(F).                   { A = F; }
func_sig_list(A) ::= func_sig_list(L) COMMA func_sig(F).
{
    A = L;
    attu_ast_function *t = L;
    while (t && t->next) t = t->next;
    if (t) t->next = F;
}

func_opts(A) ::= .                                  { memset(&A, 0, sizeof A); }
func_opts(A) ::= func_opts(L) func_word(T).         { A = ab_fopts_push(ctx, L, T); }
func_opts(A) ::= func_opts(L) AS SCONST(B).
{
    A = L;
    ab_fopt_once(ctx, A.body_seen, B.pos);
    A.body_seen = true; A.body = B;
}
func_opts(A) ::= func_opts(L) AS SCONST(B) COMMA SCONST.
{
    A = L;
    ab_fopt_once(ctx, A.body_seen, B.pos);
    A.body_seen = true; A.body = B; A.link = true;
}
func_word(A) ::= ID(T).       { A.t = T; A.k = 'i'; }
func_word(A) ::= NOT(T).      { A.t = T; A.k = 'n'; }
func_word(A) ::= NULL(T).     { A.t = T; A.k = 'u'; }
func_word(A) ::= ON(T).       { A.t = T; A.k = 'o'; }
func_word(A) ::= ROWS(T).     { A.t = T; A.k = 'r'; }
func_word(A) ::= ICONST(T).   { A.t = T; A.k = 'c'; }
func_word(A) ::= FCONST(T).   { A.t = T; A.k = 'c'; }
func_word(A) ::= SCONST(T).   { A.t = T; A.k = 's'; }

type_stmt(A) ::= CREATE(K) FUNCTION qualified_name(N) LP func_args(L) RP ID(R) typename(T) func_opts(O).
{
    ab_word_expect(ctx, &R, "returns");
    attu_ast_function *f = ab_function(ctx, &N, true, L);
    ab_fopts_apply(ctx, f, &O);
    if (f) f->ret = T;
    A = ab_function_stmt(ctx, K.pos, 'F', f);
}
type_stmt(A) ::= CREATE(K) OR REPLACE FUNCTION qualified_name(N) LP func_args(L) RP ID(R) typename(T) func_opts(O).
{
    ab_word_expect(ctx, &R, "returns");
    attu_ast_function *f = ab_function(ctx, &N, true, L);
    ab_fopts_apply(ctx, f, &O);
    if (f) { f->ret = T; f->or_replace = true; }
    A = ab_function_stmt(ctx, K.pos, 'F', f);
}
%include {
/* CREATE FUNCTION ... RETURN expr: the body is SELECT expr, its text the
 * statement's from RETURN's end to the expression's (ctx->prev_end: the
 * last token read), placed for error positions so that its k-th
 * character past "SELECT" is the statement's character after RETURN. */
static attu_ast_stmt *ab_function_return(attu_parse_ctx *ctx, int pos, const ab_qname *n, ab_fargs l,
                                         attu_ast_typename ret, const ab_fopts *o, const attu_token *r, bool replace) {
    attu_ast_function *f = ab_function(ctx, n, true, l);
    ab_fopts_apply(ctx, f, o);
    if (!f) return NULL;
    if (o->body_seen) ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, r->pos, "duplicate function body specified");
    f->ret = ret;
    f->or_replace = replace;
    size_t from = r->off + r->len, to = ctx->prev_end > from ? ctx->prev_end : from;
    char *b = ab_alloc(ctx, to - from + 7);
    if (b) {
        memcpy(b, "SELECT", 6);
        memcpy(b + 6, ctx->sql + from, to - from);
        b[6 + to - from] = 0;
    }
    f->body = b;
    f->body_std = true;
    f->body_position = r->pos + (int)r->len - 6;
    if (!f->language) f->language = "sql";
    return ab_function_stmt(ctx, pos, 'F', f);
}
}
type_stmt(A) ::= CREATE(K) FUNCTION qualified_name(N) LP func_args(L) RP ID(R) typename(T) func_opts(O) RETURN(E) a_expr.
{
    ab_word_expect(ctx, &R, "returns");
    A = ab_function_return(ctx, K.pos, &N, L, T, &O, &E, false);
}
type_stmt(A) ::= CREATE(K) OR REPLACE FUNCTION qualified_name(N) LP func_args(L) RP ID(R) typename(T) func_opts(O) RETURN(E) a_expr.
{
    ab_word_expect(ctx, &R, "returns");
    A = ab_function_return(ctx, K.pos, &N, L, T, &O, &E, true);
}
%include {
/* RETURNS SETOF type / RETURNS TABLE (name type, ...): a set-returning
 * function (outs NULL for SETOF: its one column is ret) */
static attu_ast_stmt *ab_function_set(attu_parse_ctx *ctx, int pos, const ab_qname *n, ab_fargs l,
                                      attu_ast_typename ret, const ab_fargs *outs, const ab_fopts *o, bool replace) {
    attu_ast_function *f = ab_function(ctx, n, true, l);
    ab_fopts_apply(ctx, f, o);
    if (!f) return NULL;
    f->ret = ret;
    f->or_replace = replace;
    f->retset = true;
    if (outs) {
        for (int i = 0; i < outs->n; i++)
            if (!outs->v[i].name || outs->v[i].dflt)
                ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, outs->v[i].position, "syntax error at or near \"%s\"",
                               outs->v[i].dflt ? "DEFAULT" : ")");
        f->outs = outs->v;
        f->nout = outs->n;
    }
    return ab_function_stmt(ctx, pos, 'F', f);
}
}
type_stmt(A) ::= CREATE(K) FUNCTION qualified_name(N) LP func_args(L) RP ID(R) SETOF typename(T) func_opts(O).
{
    ab_word_expect(ctx, &R, "returns");
    A = ab_function_set(ctx, K.pos, &N, L, T, NULL, &O, false);
}
type_stmt(A) ::= CREATE(K) OR REPLACE FUNCTION qualified_name(N) LP func_args(L) RP ID(R) SETOF typename(T) func_opts(O).
{
    ab_word_expect(ctx, &R, "returns");
    A = ab_function_set(ctx, K.pos, &N, L, T, NULL, &O, true);
}
type_stmt(A) ::= CREATE(K) FUNCTION qualified_name(N) LP func_args(L) RP ID(R) TABLE(B) LP func_arg_items(C) RP func_opts(O).
{
    ab_word_expect(ctx, &R, "returns");
    attu_ast_typename none;
    memset(&none, 0, sizeof none);
    none.position = B.pos;
    A = ab_function_set(ctx, K.pos, &N, L, none, &C, &O, false);
}
type_stmt(A) ::= CREATE(K) OR REPLACE FUNCTION qualified_name(N) LP func_args(L) RP ID(R) TABLE(B) LP func_arg_items(C) RP func_opts(O).
{
    ab_word_expect(ctx, &R, "returns");
    attu_ast_typename none;
    memset(&none, 0, sizeof none);
    none.position = B.pos;
    A = ab_function_set(ctx, K.pos, &N, L, none, &C, &O, true);
}
%include {
/* CREATE FUNCTION ... BEGIN ATOMIC statements END: the statements' text
 * (parser.c's ATOMIC_BODY token) is the body, placed for error positions */
static attu_ast_stmt *ab_function_atomic(attu_parse_ctx *ctx, int pos, const ab_qname *n, ab_fargs l,
                                         attu_ast_typename ret, const ab_fopts *o, const attu_token *b, bool replace) {
    attu_ast_function *f = ab_function(ctx, n, true, l);
    ab_fopts_apply(ctx, f, o);
    if (!f) return NULL;
    if (o->body_seen) ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, b->pos, "duplicate function body specified");
    f->ret = ret;
    f->or_replace = replace;
    f->body = ab_strndup(ctx, b->str ? b->str : "", b->slen);
    f->body_std = true;
    f->body_atomic = true;
    f->body_position = b->pos;
    if (!f->language) f->language = "sql";
    return ab_function_stmt(ctx, pos, 'F', f);
}
}
type_stmt(A) ::= CREATE(K) FUNCTION qualified_name(N) LP func_args(L) RP ID(R) typename(T) func_opts(O) BEGIN ATOMIC ATOMIC_BODY(B) END.
{
    ab_word_expect(ctx, &R, "returns");
    A = ab_function_atomic(ctx, K.pos, &N, L, T, &O, &B, false);
}
type_stmt(A) ::= CREATE(K) OR REPLACE FUNCTION qualified_name(N) LP func_args(L) RP ID(R) typename(T) func_opts(O) BEGIN ATOMIC ATOMIC_BODY(B) END.
{
    ab_word_expect(ctx, &R, "returns");
    A = ab_function_atomic(ctx, K.pos, &N, L, T, &O, &B, true);
}
type_stmt(A) ::= DROP(K) FUNCTION func_sig_list(L) opt_drop_behavior(B).
{
    A = ab_function_stmt(ctx, K.pos, 'G', L);
    if (A) A->u.type_stmt.cascade = B;
}
type_stmt(A) ::= DROP(K) FUNCTION IF EXISTS func_sig_list(L) opt_drop_behavior(B).
{
    A = ab_function_stmt(ctx, K.pos, 'G', L);
    if (A) { A->u.type_stmt.cascade = B; A->u.type_stmt.if_exists = true; }
}
/* ALTER FUNCTION ... OWNER TO / SET SCHEMA (pg_dump writes them: attu's
 * one role and schema) and ... option ... [RESTRICT] (volatility,
 * strictness, LEAKPROOF, PARALLEL, SECURITY, COST, ROWS) */
type_stmt(A) ::= ALTER(K) FUNCTION func_sig(S) ID(O) TO role_spec(R).
{
    ab_word_expect(ctx, &O, "owner");
    A = ab_function_stmt(ctx, K.pos, 'H', S);
    if (A) { A->u.type_stmt.sub = 'o'; A->u.type_stmt.nbr = (char *)R.name; }
}
type_stmt(A) ::= ALTER(K) FUNCTION func_sig(S) SET ID(W) colid(T).
{
    ab_word_expect(ctx, &W, "schema");
    A = ab_function_stmt(ctx, K.pos, 'H', S);
    if (A) { A->u.type_stmt.sub = 's'; A->u.type_stmt.nbr = (char *)ab_tokstr(&T); }
}
%type alter_fopts {ab_fopts}
alter_fopts(A) ::= func_word(T).                    { memset(&A, 0, sizeof A); A = ab_fopts_push(ctx, A, T); }
alter_fopts(A) ::= alter_fopts(L) func_word(T).     { A = ab_fopts_push(ctx, L, T); }
type_stmt(A) ::= ALTER(K) FUNCTION func_sig(S) alter_fopts(O) opt_drop_behavior.
{
    attu_ast_function sig = S ? *S : (attu_ast_function){ 0 };
    ab_fopts_apply(ctx, S, &O);
    if (S) {
        if (S->language)
            ab_defer_error(ctx, ATTU_SQLSTATE_SYNTAX, S->language_position, "syntax error at or near \"LANGUAGE\"");
        S->name = sig.name; S->name_position = sig.name_position;
        S->has_args = sig.has_args; S->args = sig.args; S->nargs = sig.nargs;
    }
    A = ab_function_stmt(ctx, K.pos, 'H', S);
    if (A) A->u.type_stmt.sub = 'a';
}
type_stmt(A) ::= ALTER(K) FUNCTION func_sig(S) RENAME TO colid(T).
{
    A = ab_function_stmt(ctx, K.pos, 'H', S);
    if (A) A->u.type_stmt.nbr = (char *)ab_tokstr(&T);
}

/* ======================================================================== */
/* Roles: CREATE / ALTER / DROP ROLE (USER, GROUP), GRANT / REVOKE role    */
/* (db/db_role.c, db/db_role_grant.c), as PostgreSQL 15's gram.y takes    */
/* them; the options are checked for conflicts in db_role.c.               */

%type role_stmt {attu_ast_stmt *}
%type role_word {char}
%type alter_role_word {char}
%type rspec {attu_token}
%type role_id {attu_token}
%type role_names {attu_names *}
%type role_opts {attu_vec *}
%type role_opt {attu_ast_role_option}
%type role_limit {int64_t}
%type grant_admin {bool}
%include {
static attu_ast_stmt *ab_role_stmt(attu_parse_ctx *ctx, int pos, char action, char word) {
    attu_ast_stmt *st = ab_stmt(ctx, ATTU_STMT_ROLE, pos);
    if (st) { st->u.role.action = action; st->u.role.word = word; }
    return st;
}
/* A RoleSpec's name: CURRENT_USER / CURRENT_ROLE / SESSION_USER as
 * "\001" + the word (the db layer names them when the statement runs). */
static const char *ab_role_spec_name(attu_parse_ctx *ctx, const attu_token *t) {
    (void)ctx;
    return ab_tokstr(t);
}
/* A RoleId (a role a statement creates or renames to): public, none
 * and the CURRENT_USER kin (rspec marks them with a leading \001) are
 * refused where the grammar reads it. */
static void ab_role_id_check(attu_parse_ctx *ctx, const attu_token *t) {
    if (ctx->failed) return;
    const char *w = ab_tokstr(t);
    if (w[0] == '\001') {
        char up[32];
        size_t i = 0;
        for (; w[i + 1] && i + 1 < sizeof up; i++) up[i] = (char)(w[i + 1] >= 'a' && w[i + 1] <= 'z' ? w[i + 1] - 32 : w[i + 1]);
        up[i] = 0;
        ab_error(ctx, "42939", t->pos, "%s cannot be used as a role name here", up);
        ctx->failed = true;
    } else if (!strcmp(w, "public") || !strcmp(w, "none")) {
        ab_error(ctx, "42939", t->pos, "role name \"%s\" is reserved", w);
        ctx->failed = true;
    }
}
static void ab_role_opt_push(attu_parse_ctx *ctx, attu_vec **v, const attu_ast_role_option *o) {
    if (!*v) *v = ab_alloc(ctx, sizeof(attu_vec));
    if (*v) ab_vec_push(ctx, *v, o, sizeof *o);
}
static attu_ast_name_list *ab_role_list(attu_parse_ctx *ctx, attu_names *l) {
    attu_ast_name_list *n = ab_alloc(ctx, sizeof *n);
    if (n) *n = ab_names(l);
    return n;
}
static void ab_role_set_opts(attu_ast_stmt *st, attu_vec *v) {
    if (!st || !v) return;
    st->u.role.options = v->items;
    st->u.role.noptions = (int)v->n;
}
}
stmt(A) ::= role_stmt(S).                      { A = S; }

role_word(A) ::= ROLE.    { A = 'r'; }
role_word(A) ::= USER.    { A = 'u'; }
role_word(A) ::= GROUP.   { A = 'g'; }
alter_role_word(A) ::= ROLE.    { A = 'r'; }
alter_role_word(A) ::= USER.    { A = 'u'; }

rspec(A) ::= colid(T).           { A = T; }
rspec(A) ::= ROLE(T).            { A = T; }
rspec(A) ::= ADMIN(T).           { A = T; }
rspec(A) ::= PASSWORD(T).        { A = T; }
rspec(A) ::= VALID(T).           { A = T; }
rspec(A) ::= CONNECTION(T).      { A = T; }
rspec(A) ::= ENCRYPTED(T).       { A = T; }
rspec(A) ::= UNENCRYPTED(T).     { A = T; }
rspec(A) ::= RESERVED_BARE(T).
{
    A = T;
    /* (marked: the db layer names them when the statement runs) */
    char *m = ab_alloc(ctx, strlen(ab_tokstr(&T)) + 2);
    if (m) { m[0] = '\001'; strcpy(m + 1, ab_tokstr(&T)); A.str = m; }
    if (strcmp(T.str, "current_user") && strcmp(T.str, "session_user") && strcmp(T.str, "current_role") && !ctx->failed) {
        ab_error(ctx, ATTU_SQLSTATE_SYNTAX, T.pos, "syntax error at or near \"%.*s\"", (int)T.len, ctx->sql + T.off);
        ctx->failed = true;
    }
}
role_id(A) ::= rspec(T).         { A = T; ab_role_id_check(ctx, &T); }

role_names(A) ::= rspec(T).                       { A = ab_names_push(ctx, NULL, ab_role_spec_name(ctx, &T), T.pos); }
role_names(A) ::= role_names(L) COMMA rspec(T).   { A = ab_names_push(ctx, L, ab_role_spec_name(ctx, &T), T.pos); }

opt_role_with ::= WITH.
opt_role_with ::= .

role_opts(A) ::= .                          { A = NULL; }
role_opts(A) ::= role_opts(L) role_opt(O).  { A = L; ab_role_opt_push(ctx, &A, &O); }

role_opt(A) ::= ID(W).
{
    memset(&A, 0, sizeof A); A.kind = 'f'; A.word = ab_tokstr(&W); A.pos = W.pos;
    static const char *const words[] = { "superuser", "nosuperuser", "createrole", "nocreaterole", "replication",
        "noreplication", "createdb", "nocreatedb", "login", "nologin", "bypassrls", "nobypassrls", "inherit",
        "noinherit", NULL };
    bool known = false;
    for (int i = 0; words[i]; i++) if (ab_word_is(ctx, &W, words[i])) known = true;
    if (!known && !ctx->failed) {
        ab_error(ctx, ATTU_SQLSTATE_SYNTAX, W.pos, "unrecognized role option \"%s\"", ab_tokstr(&W));
        ctx->failed = true;
    }
}
role_opt(A) ::= PASSWORD(P) SCONST(S).             { memset(&A, 0, sizeof A); A.kind = 'p'; A.str = ab_tokstr(&S); A.pos = P.pos; }
role_opt(A) ::= PASSWORD(P) NULL.                  { memset(&A, 0, sizeof A); A.kind = 'p'; A.pos = P.pos; }
role_opt(A) ::= ENCRYPTED(P) PASSWORD SCONST(S).   { memset(&A, 0, sizeof A); A.kind = 'p'; A.str = ab_tokstr(&S); A.pos = P.pos; }
role_opt(A) ::= UNENCRYPTED(P) PASSWORD SCONST.
{
    memset(&A, 0, sizeof A);
    if (!ctx->failed) {
        ab_error(ctx, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, P.pos, "UNENCRYPTED PASSWORD is no longer supported");
        ctx->failed = true;
    }
}
role_opt(A) ::= CONNECTION(C) LIMIT role_limit(N). { memset(&A, 0, sizeof A); A.kind = 'c'; A.num = N; A.pos = C.pos; }
role_opt(A) ::= VALID(V) ID(U) SCONST(S).
{
    ab_word_expect(ctx, &U, "until");
    memset(&A, 0, sizeof A); A.kind = 'v'; A.str = ab_tokstr(&S); A.pos = V.pos;
}
role_opt(A) ::= IN(I) ROLE(R) role_names(L).   { memset(&A, 0, sizeof A); A.kind = 'i'; A.names = ab_role_list(ctx, L); A.pos = I.pos; A.pos2 = R.pos; }
role_opt(A) ::= IN(I) GROUP(R) role_names(L).  { memset(&A, 0, sizeof A); A.kind = 'i'; A.names = ab_role_list(ctx, L); A.pos = I.pos; A.pos2 = R.pos; }
role_opt(A) ::= ROLE(R) role_names(L).      { memset(&A, 0, sizeof A); A.kind = 'r'; A.names = ab_role_list(ctx, L); A.pos = R.pos; }
role_opt(A) ::= USER(R) role_names(L).      { memset(&A, 0, sizeof A); A.kind = 'r'; A.names = ab_role_list(ctx, L); A.pos = R.pos; }
role_opt(A) ::= ADMIN(R) role_names(L).     { memset(&A, 0, sizeof A); A.kind = 'a'; A.names = ab_role_list(ctx, L); A.pos = R.pos; }

role_limit(A) ::= ICONST(T).        { A = strtoll(ab_tokstr(&T), NULL, 10); if (A > 2147483647) A = 2147483647; }
role_limit(A) ::= MINUS ICONST(T).  { A = -strtoll(ab_tokstr(&T), NULL, 10); if (A < -2147483647) A = -2147483647; }

role_stmt(A) ::= CREATE(K) role_word(W) role_id(N) opt_role_with role_opts(O).
{
    A = ab_role_stmt(ctx, K.pos, 'c', W);
    if (A) { A->u.role.name = (char *)ab_tokstr(&N); A->u.role.name_position = N.pos; ab_role_set_opts(A, O); }
}
role_stmt(A) ::= ALTER(K) alter_role_word(W) rspec(N) opt_role_with role_opts(O).
{
    A = ab_role_stmt(ctx, K.pos, 'a', W);
    if (A) { A->u.role.name = (char *)ab_role_spec_name(ctx, &N); A->u.role.name_position = N.pos; ab_role_set_opts(A, O); }
}
role_stmt(A) ::= ALTER(K) alter_role_word(W) role_id(N) RENAME TO role_id(T).
{
    A = ab_role_stmt(ctx, K.pos, 'r', W);
    if (A) {
        A->u.role.name = (char *)ab_role_spec_name(ctx, &N); A->u.role.name_position = N.pos;
        A->u.role.new_name = (char *)ab_tokstr(&T); A->u.role.new_name_position = T.pos;
    }
}
role_stmt(A) ::= ALTER(K) GROUP role_id(N) RENAME TO role_id(T).
{
    A = ab_role_stmt(ctx, K.pos, 'r', 'g');
    if (A) {
        A->u.role.name = (char *)ab_role_spec_name(ctx, &N); A->u.role.name_position = N.pos;
        A->u.role.new_name = (char *)ab_tokstr(&T); A->u.role.new_name_position = T.pos;
    }
}
role_stmt(A) ::= ALTER(K) GROUP rspec(N) ADD USER role_names(L).
{
    A = ab_role_stmt(ctx, K.pos, 'g', 'g');
    if (A) { A->u.role.names = ab_names(ab_names_push(ctx, NULL, ab_role_spec_name(ctx, &N), N.pos)); A->u.role.members = ab_names(L); }
}
role_stmt(A) ::= ALTER(K) GROUP rspec(N) DROP USER role_names(L).
{
    A = ab_role_stmt(ctx, K.pos, 'v', 'g');
    if (A) { A->u.role.names = ab_names(ab_names_push(ctx, NULL, ab_role_spec_name(ctx, &N), N.pos)); A->u.role.members = ab_names(L); }
}
role_stmt(A) ::= DROP(K) role_word(W) role_names(L).
{
    A = ab_role_stmt(ctx, K.pos, 'd', W);
    if (A) A->u.role.names = ab_names(L);
}
role_stmt(A) ::= DROP(K) role_word(W) IF EXISTS role_names(L).
{
    A = ab_role_stmt(ctx, K.pos, 'd', W);
    if (A) { A->u.role.names = ab_names(L); A->u.role.if_exists = true; }
}
grant_admin(A) ::= .                   { A = false; }
grant_admin(A) ::= WITH ID(W) ID(O).   { ab_word_expect(ctx, &W, "admin"); ab_word_expect(ctx, &O, "option"); A = true; }
opt_granted_by ::= .
opt_granted_by ::= ID(G) BY rspec.
{
    ab_word_expect(ctx, &G, "granted");
    if (!ctx->failed) {
        ab_error(ctx, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, G.pos, "GRANTED BY is not supported");
        ctx->failed = true;
    }
}
role_stmt(A) ::= GRANT(K) role_names(R) TO role_names(M) grant_admin(G) opt_granted_by.
{
    A = ab_role_stmt(ctx, K.pos, 'g', 'r');
    if (A) { A->u.role.names = ab_names(R); A->u.role.members = ab_names(M); A->u.role.admin_option = G; }
}
role_stmt(A) ::= REVOKE(K) role_names(R) FROM role_names(M) opt_granted_by opt_drop_behavior(B).
{
    A = ab_role_stmt(ctx, K.pos, 'v', 'r');
    if (A) { A->u.role.names = ab_names(R); A->u.role.members = ab_names(M); A->u.role.cascade = B; }
}
role_stmt(A) ::= REVOKE(K) ID(W) ID(O) FOR role_names(R) FROM role_names(M) opt_granted_by opt_drop_behavior(B).
{
    ab_word_expect(ctx, &W, "admin"); ab_word_expect(ctx, &O, "option");
    A = ab_role_stmt(ctx, K.pos, 'v', 'r');
    if (A) {
        A->u.role.names = ab_names(R); A->u.role.members = ab_names(M); A->u.role.cascade = B;
        A->u.role.admin_option = true;
    }
}
