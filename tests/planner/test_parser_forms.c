/*
 * test_parser_forms.c - every statement form of issue 4 parses into the
 * tree it should: each SQL text is parsed and its tree printed with
 * attu_ast_print_stmt (planner/ast_print.c), then compared with the
 * expected S-expression, written down by hand after checking each against
 * PostgreSQL's reading of the same text (precedence, associativity, how
 * special syntaxes map onto calls).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/parser.h"

typedef struct form_case {
    const char *sql;
    const char *tree;   /* statements joined with " ; " */
} form_case;

static const form_case forms[] = {
    { "SELECT DISTINCT ON (a) a, b AS x, c y, * FROM t AS tt (p, q) WHERE a > 1 AND NOT b OR c IS NULL GROUP BY a, b HAVING count(*) > 1 ORDER BY a DESC NULLS LAST, 2 LIMIT 10 OFFSET 5",
      "(select distinct (on a) (items a (as b x) (as c y) *) (from (table t (as tt (p q)))) (where (or (and (> a 1) (not b)) (is-null c))) (group a b) (having (> (count *) 1)) (order (a desc nulls-last) (2 asc)) (limit 10) (offset 5))" },
    /* grouping sets: ROLLUP / CUBE as calls, () and GROUPING SETS
     * (one token for the two words) as grammar.y's nodes */
    { "SELECT a, grouping(a, b) FROM t GROUP BY DISTINCT ROLLUP (a, (b, c)), CUBE (d), GROUPING  SETS ((a), (), e, GROUPING SETS (f))",
      "(select (items a (grouping a b)) (from (table t)) (group distinct (rollup a (row b c)) (cube d) (grouping-sets a () e (grouping-sets f))))" },
    { "SELECT sets, grouping FROM t GROUP BY ALL sets, ()",
      "(select (items sets grouping) (from (table t)) (group sets ()))" },
    { "SELECT a + b * c - d / e % f ^ g, -x, +y, -5, - -5, -1.5e3, a || b FROM t",
      "(select (items (- (+ a (* b c)) (% (/ d e) (^ f g))) (neg x) (pos y) -5 5 (num -1.5e3) (|| a b)) (from (table t)))" },
    { "SELECT x BETWEEN 1 AND 2 AND y, x NOT BETWEEN SYMMETRIC 1 AND 2, x IN (1, 2), x NOT IN (SELECT a FROM u), EXISTS (SELECT 1), (SELECT 1) FROM t",
      "(select (items (and (between x 1 2) y) (not-between-sym x 1 2) (in x (1 2)) (not-in x (select (items a) (from (table u)))) (exists (select (items 1))) (subquery (select (items 1)))) (from (table t)))" },
    { "SELECT a LIKE 'x%', b NOT ILIKE 'y' ESCAPE '!', c IS NOT TRUE, d IS UNKNOWN, e IS DISTINCT FROM f, g ISNULL FROM t",
      "(select (items (like a 'x%') (not-ilike b 'y' (escape '!')) (is-not-true c) (is-unknown d) (is-distinct e f) (is-null g)) (from (table t)))" },
    { "SELECT CASE WHEN a THEN 1 ELSE 2 END, CASE b WHEN 1 THEN 'x' END, CAST(c AS numeric(12,2)), d::varchar(5), DATE '2020-01-01', TIMESTAMP '2020-01-01 00:00:00', INTERVAL '1 day' FROM t",
      "(select (items (case (when a 1) (else 2)) (case b (when 1 'x')) (cast c numeric(12,2)) (:: d \"character varying\"(5)) (typed date '2020-01-01') (typed \"timestamp without time zone\" '2020-01-01 00:00:00') (typed interval '1 day')) (from (table t)))" },
    { "SELECT INTERVAL '1 2' DAY TO HOUR, x::interval second(3), CAST(y AS INTERVAL YEAR), INTERVAL(2) '1 s', 1 AS day FROM t",
      "(select (items (typed interval[fields 12] '1 2') (:: x interval(3)[fields 32]) (cast y interval[fields 1]) (typed interval(2) '1 s') (as 1 day)) (from (table t)))" },
    { "SELECT count(*), count(DISTINCT a), sum(b) FILTER (WHERE b > 0), rank() OVER (PARTITION BY s ORDER BY d DESC), sum(x) OVER (ORDER BY y ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM t",
      "(select (items (count *) (count distinct a) (sum b (filter (> b 0))) (rank (over (partition s) (order (d desc)))) (sum x (over (order (y asc)) (rows (preceding 2) current-row)))) (from (table t)))" },
    { "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x DESC), mode() WITHIN GROUP (ORDER BY y) FILTER (WHERE y > 0), within FROM t",
      "(select (items (percentile_cont (num 0.5) (within group (order (x desc)))) (mode (within group (order (y asc))) (filter (> y 0))) within) (from (table t)))" },
    { "SELECT coalesce(a, 0), nullif(a, b), greatest(1, 2), substring(s FROM 2 FOR 3), substring(s FOR 2), trim(both 'x' FROM s), trim(s), trim(leading FROM s), position('a' IN s), extract(YEAR FROM d), current_date, now(), pg_catalog.lower(s) FROM t",
      "(select (items (coalesce a 0) (nullif a b) (greatest 1 2) (substring s 2 3) (substring s 1 2) (btrim s 'x') (btrim s) (ltrim s) (position s 'a') (extract year d) (current_date) (now) (pg_catalog.lower s)) (from (table t)))" },
    { "SELECT * FROM a JOIN b ON a.x = b.x LEFT JOIN c USING (y) CROSS JOIN d, e NATURAL FULL JOIN f, (SELECT 1) AS s (z)",
      "(select (items *) (from (join cross (join left (join inner (table a) (table b) (on (= a.x b.x))) (table c) (using y)) (table d)) (natural-join full (table e) (table f)) (derived (select (items 1)) (as s (z)))))" },
    { "WITH x (c) AS (SELECT 1), y AS (VALUES (1, 'a'), (2, 'b')) SELECT * FROM x UNION ALL SELECT * FROM y ORDER BY 1 LIMIT 2",
      "(union-all (with (x (c) (select (items 1))) (y (values (1 'a') (2 'b')))) (select (items *) (from (table x))) (select (items *) (from (table y))) (order (1 asc)) (limit 2))" },
    { "(SELECT a FROM t ORDER BY a LIMIT 1) UNION (SELECT b FROM u) EXCEPT SELECT c FROM v INTERSECT SELECT d FROM w",
      "(except (union (select (items a) (from (table t)) (order (a asc)) (limit 1)) (select (items b) (from (table u)))) (intersect (select (items c) (from (table v))) (select (items d) (from (table w)))))" },
    { "SELECT a FROM t FETCH FIRST 3 ROWS ONLY",
      "(select (items a) (from (table t)) (limit 3))" },
    { "SELECT a FROM t OFFSET 2 ROWS FETCH NEXT ROW ONLY",
      "(select (items a) (from (table t)) (limit 1) (offset 2))" },
    { "SELECT a FROM t ORDER BY a FETCH FIRST 3 ROWS WITH TIES",
      "(select (items a) (from (table t)) (order (a asc)) (limit with ties 3))" },
    { "SELECT a FROM t ORDER BY a OFFSET 2 FETCH NEXT ROW WITH TIES",
      "(select (items a) (from (table t)) (order (a asc)) (limit with ties 1) (offset 2))" },
    { "(SELECT a FROM t ORDER BY a OFFSET 1) FETCH FIRST $1 ROWS WITH TIES",
      "(select (items a) (from (table t)) (order (a asc)) (limit with ties $1) (offset 1))" },
    { "SELECT $1, $2::int, \"Mixed Case\", \"a\"\"b\", t.\"X\" FROM \"T\"",
      "(select (items $1 (:: $2 integer) \"Mixed Case\" \"a\"\"b\" t.\"X\") (from (table \"T\")))" },
    { "SELECT 'it''s', E'a\\nb\\x41\\u00e9', $$x$$, 'a'\n'b'",
      "(select (items 'it''s' 'a\\x0abAé' 'x' 'ab'))" },
    { "SELECT sum(a) OVER w, rank() OVER (w ORDER BY b), count(*) OVER x FROM t WINDOW w AS (PARTITION BY c), x AS (w ROWS 2 PRECEDING) ORDER BY max(a) OVER w",
      "(select (items (sum a (over (partition c))) (rank (over (partition c) (order (b asc)))) (count * (over (partition c) (rows (preceding 2) current-row)))) (from (table t)) (order ((max a (over (partition c))) asc)))" },
    { "SELECT a ~~ 'x%', b !~~ 'y', c ~~* 'z', d !~~* 'w' FROM t",
      "(select (items (like a 'x%') (not-like b 'y') (ilike c 'z') (not-ilike d 'w')) (from (table t)))" },
    /* psql's catalog queries: OPERATOR(pg_catalog.op), COLLATE, qualified types */
    { "SELECT a OPERATOR(pg_catalog.~~) 'x%', b OPERATOR ( = ) 1, c COLLATE pg_catalog.default, 1::pg_catalog.int2 FROM t",
      "(select (items (like a 'x%') (= b 1) (\" collate\" c) (:: 1 int2)) (from (table t)))" },
    { "SELECT a FROM t WHERE a = ANY (SELECT b FROM u) AND a > ALL (SELECT c FROM v) AND a <> SOME ((SELECT 1))",
      "(select (items a) (from (table t)) (where (and (and (any = a (select (items b) (from (table u)))) (all > a (select (items c) (from (table v))))) (any <> a (select (items 1))))))" },
    { "SELECT (a, b), ROW(1)",
      "(select (items (row a b) (row 1)))" },
    { "TABLE t",
      "(select (items *) (from (table t)))" },
    { "INSERT INTO t (a, b) VALUES (1, 'x'), (2, NULL)",
      "(insert t (cols a b) (values (1 'x') (2 null)))" },
    { "INSERT INTO t SELECT * FROM u",
      "(insert t (select (items *) (from (table u))))" },
    { "INSERT INTO t DEFAULT VALUES",
      "(insert t default-values)" },
    { "CREATE TABLE IF NOT EXISTS t (a integer NOT NULL, b text DEFAULT 'x', c numeric(10,2) PRIMARY KEY, d double precision, e timestamp with time zone, f varchar(3), g char, PRIMARY KEY (a))",
      "(create-table if-not-exists t (a integer primary-key) (b text (default 'x')) (c numeric(10,2) primary-key) (d \"double precision\") (e \"timestamp with time zone\") (f \"character varying\"(3)) (g character))" },
    { "CREATE TABLE t (x, y) AS SELECT 1, 2 WITH NO DATA",
      "(create-table-as t (cols x y) (select (items 1 2)) no-data)" },
    { "DROP TABLE IF EXISTS a, b CASCADE",
      "(drop-table if-exists a b cascade)" },
    { "ALTER TABLE IF EXISTS ONLY t ADD COLUMN IF NOT EXISTS c integer NOT NULL DEFAULT 1, ADD d text, DROP COLUMN IF EXISTS e CASCADE, DROP f",
      "(alter-table if-exists t (add-column if-not-exists (c integer not-null (default 1))) (add-column (d text)) (drop-column if-exists e) (drop-column f))" },
    { "ALTER TABLE t ALTER COLUMN a SET DEFAULT 2, ALTER b DROP DEFAULT, ALTER c SET NOT NULL, ALTER c DROP NOT NULL, ALTER d SET DEFAULT NULL",
      "(alter-table t (set-default a (default 2)) (drop-default b) (set-not-null c) (drop-not-null c) (set-default d))" },
    { "ALTER TABLE t ALTER COLUMN a SET DATA TYPE bigint USING a * 2, ALTER type TYPE numeric(5,2)",
      "(alter-table t (type a bigint (using (* a 2))) (type type numeric(5,2)))" },
    { "ALTER TABLE t RENAME COLUMN a TO b",
      "(alter-table t (rename-column a b))" },
    { "ALTER TABLE if RENAME TO column_",
      "(alter-table if (rename-table column_))" },
    { "ALTER TABLE t ALTER a ADD GENERATED ALWAYS AS IDENTITY (START 5), ALTER b SET GENERATED BY DEFAULT RESTART 3, ALTER c DROP IDENTITY IF EXISTS",
      "(alter-table t (add-identity a) (set-identity b) (drop-identity if-exists c))" },
    { "ALTER SEQUENCE IF EXISTS s INCREMENT BY 2 RESTART WITH 5 OWNED BY t.c",
      "(alter-sequence if-exists s)" },
    { "ALTER SEQUENCE public.s RENAME TO \"S 2\"",
      "(alter-sequence s rename \"S 2\")" },
    { "SELECT type, add, alter, rename FROM t AS type",
      "(select (items type add alter rename) (from (table t (as type))))" },
    { "COPY t (a, b) FROM '/x.csv' WITH (FORMAT csv, HEADER true, DELIMITER ';', NULL '')",
      "(copy t (cols a b) from '/x.csv' (format 'csv') (header 'true') (delimiter ';') (null ''))" },
    { "COPY t FROM STDIN CSV HEADER DELIMITER AS '|' NULL 'NA' QUOTE '\"' ENCODING 'latin1'",
      "(copy t from stdin (format 'csv') (header) (delimiter '|') (null 'NA') (quote '\"') (encoding 'latin1'))" },
    { "COPY (SELECT 1) TO STDOUT (FORMAT csv)",
      "(copy (select (items 1)) to stdout (format 'csv'))" },
    { "EXPLAIN SELECT 1",
      "(explain (select (items 1)))" },
    { "EXPLAIN ANALYZE VERBOSE SELECT 1",
      "(explain analyze verbose (select (items 1)))" },
    { "EXPLAIN (ANALYZE, COSTS off, FORMAT json) SELECT 1",
      "(explain analyze (analyze) (costs 'off') (format 'json') (select (items 1)))" },
    { "SET search_path = public, \"$user\"",
      "(set search_path 'public' '$user')" },
    { "SET LOCAL statement_timeout TO DEFAULT",
      "(set-local statement_timeout default)" },
    { "SET TIME ZONE 'UTC'",
      "(set \"time zone\" 'UTC')" },
    { "SET NAMES 'utf8'",
      "(set client_encoding 'utf8')" },
    { "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED",
      "(set \"session characteristics\" 'read committed')" },
    { "SET extra_float_digits = -3",
      "(set extra_float_digits '-3')" },
    { "RESET ALL",
      "(reset all)" },
    { "SHOW TABLES",
      "(show-tables)" },
    { "SHOW ALL",
      "(show all)" },
    { "SHOW server_version",
      "(show server_version)" },
    { "DESCRIBE s.t",
      "(describe t)" },
    { "BEGIN ISOLATION LEVEL SERIALIZABLE",
      "(begin)" },
    { "START TRANSACTION",
      "(begin)" },
    { "COMMIT AND CHAIN",
      "(commit and-chain)" },
    { "END",
      "(commit)" },
    { "ROLLBACK WORK",
      "(rollback)" },
    { "ABORT",
      "(rollback)" },
    { "SELECT 1; ; SELECT 2;",
      "(select (items 1)) ; (select (items 2))" },
    /* cursors (db/db_cursor.c): the words are names elsewhere */
    { "DECLARE c BINARY NO SCROLL CURSOR WITH HOLD FOR SELECT scroll, hold FROM cursor; FETCH PRIOR IN c; MOVE BACKWARD ALL c; FETCH -3 c; FETCH RELATIVE +2 FROM c; CLOSE ALL; CLOSE c",
      "(declare c binary no-scroll hold (select (items scroll hold) (from (table cursor)))) ; (fetch backward 1 c) ; (move backward all c) ; (fetch forward -3 c) ; (fetch relative 2 c) ; (close all) ; (close c)" },
    { "FETCH c; FETCH ABSOLUTE -1 FROM c; MOVE LAST IN c; FETCH FORWARD ALL c; DECLARE cursor SCROLL CURSOR FOR VALUES (1)",
      "(fetch forward 1 c) ; (fetch absolute -1 c) ; (move absolute -1 c) ; (fetch forward all c) ; (declare cursor scroll (values (1)))" },
};

/* Parses sql and renders all its statements; fails the test on error. */
static void render(const char *sql, char *buf, size_t cap) {
    attu_error err;
    attu_error_clear(&err);
    attu_parse_result *r = attu_parse(sql, &err);
    cr_assert_not_null(r, "parse failed for <%s>: %s %s at %d", sql, err.sqlstate,
                       err.message, err.position);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < r->n; i++) {
        if (i) used += (size_t)snprintf(buf + used, cap - used, " ; ");
        used += attu_ast_print_stmt(r->stmts[i].stmt, buf + used, cap - used);
        cr_assert_lt(used, cap);
    }
    attu_parse_free(r);
}

Test(parser_forms, every_form_gives_its_tree) {
    static char buf[1 << 16];
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        render(forms[i].sql, buf, sizeof buf);
        cr_expect_str_eq(buf, forms[i].tree, "for <%s>", forms[i].sql);
    }
}

/* ---- positions, spans and other promises of parser.h / ast.h ------------ */

static attu_parse_result *must_parse(const char *sql) {
    attu_error err;
    attu_error_clear(&err);
    attu_parse_result *r = attu_parse(sql, &err);
    cr_assert_not_null(r, "parse failed for <%s>: %s at %d", sql, err.message, err.position);
    return r;
}

Test(parser_forms, positions_point_where_postgresql_points) {
    /*                       1         2         3
     *              123456789012345678901234567890123456 */
    const char *sql = "SELECT a + 1, f(b), x::int FROM tbl";
    attu_parse_result *r = must_parse(sql);
    attu_ast_query *q = r->stmts[0].stmt->u.select.query;
    cr_assert_eq(r->stmts[0].stmt->position, 1);
    cr_assert_eq(q->u.select.items[0].expr->position, 10);          /* the + */
    cr_assert_eq(q->u.select.items[0].expr->u.binary.left->position, 8);
    cr_assert_eq(q->u.select.items[1].expr->position, 15);          /* f */
    cr_assert_eq(q->u.select.items[2].expr->position, 22);          /* :: */
    cr_assert_eq(q->u.select.from.items[0]->position, 33);          /* tbl */
    attu_parse_free(r);
}

Test(parser_forms, positions_count_characters_not_bytes) {
    /* "é" is two bytes in UTF-8 but one character, as PostgreSQL counts. */
    attu_parse_result *r = must_parse("SELECT 'é', b FROM t");
    attu_ast_query *q = r->stmts[0].stmt->u.select.query;
    cr_assert_eq(q->u.select.items[1].expr->position, 13);
    attu_parse_free(r);
}

Test(parser_forms, statement_spans_and_parameters) {
    const char *sql = "  SELECT $2 ; -- x\n INSERT INTO t VALUES ($1) ;;";
    attu_parse_result *r = must_parse(sql);
    cr_assert_eq(r->n, 2);
    cr_assert_eq(r->stmts[0].len, strlen("SELECT $2"));
    cr_assert_eq(strncmp(sql + r->stmts[0].start, "SELECT $2", r->stmts[0].len), 0);
    cr_assert_eq(r->stmts[0].nparams, 2);
    cr_assert_eq(strncmp(sql + r->stmts[1].start, "INSERT INTO t VALUES ($1)",
                         r->stmts[1].len), 0);
    cr_assert_eq(r->stmts[1].len, strlen("INSERT INTO t VALUES ($1)"));
    cr_assert_eq(r->stmts[1].nparams, 1);
    attu_parse_free(r);
}

Test(parser_forms, empty_input_gives_no_statements) {
    const char *empties[] = { "", "   ", ";", " ; ;; ", "-- only a comment", "/* c */",
                              "/* a /* nested */ comment */ ;" };
    for (size_t i = 0; i < sizeof empties / sizeof empties[0]; i++) {
        attu_parse_result *r = must_parse(empties[i]);
        cr_expect_eq(r->n, 0, "for <%s>", empties[i]);
        attu_parse_free(r);
    }
}

Test(parser_forms, identifiers_fold_unless_quoted) {
    attu_parse_result *r = must_parse("SELECT MyCol, \"MyCol\", Ünï FROM MySchema.MyTable");
    attu_ast_query *q = r->stmts[0].stmt->u.select.query;
    cr_assert_str_eq(q->u.select.items[0].expr->u.column.name, "mycol");
    cr_assert_str_eq(q->u.select.items[1].expr->u.column.name, "MyCol");
    /* only ASCII letters fold, as PostgreSQL with C collation */
    cr_assert_str_eq(q->u.select.items[2].expr->u.column.name, "Ünï");
    cr_assert_str_eq(q->u.select.from.items[0]->u.table.schema, "myschema");
    cr_assert_str_eq(q->u.select.from.items[0]->u.table.name, "mytable");
    attu_parse_free(r);
}

Test(parser_forms, long_identifiers_truncate_to_63_bytes) {
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT %s FROM t", "a123456789b123456789c123456789d123456789e123456789f123456789g123456789");
    attu_parse_result *r = must_parse(sql);
    const char *name = r->stmts[0].stmt->u.select.query->u.select.items[0].expr->u.column.name;
    cr_assert_eq(strlen(name), 63);
    cr_assert_eq(strncmp(name, "a123456789b123456789c123456789d123456789e123456789f123456789g12", 63), 0);
    attu_parse_free(r);
}

Test(parser_forms, literals_keep_text_and_kind) {
    attu_parse_result *r = must_parse("SELECT 9223372036854775808, -2147483648, 1.50, 'x', true, null");
    attu_ast_select_item *it = r->stmts[0].stmt->u.select.query->u.select.items;
    cr_assert_eq(it[0].expr->u.literal.kind, ATTU_LIT_INTEGER);
    cr_assert_str_eq(it[0].expr->u.literal.text, "9223372036854775808");
    cr_assert_eq(it[1].expr->u.literal.kind, ATTU_LIT_INTEGER);
    cr_assert_str_eq(it[1].expr->u.literal.text, "-2147483648");
    cr_assert_eq(it[1].expr->position, 29);   /* folded into the literal at the '-' */
    cr_assert_eq(it[2].expr->u.literal.kind, ATTU_LIT_NUMERIC);
    cr_assert_str_eq(it[2].expr->u.literal.text, "1.50");
    cr_assert_eq(it[3].expr->u.literal.kind, ATTU_LIT_STRING);
    cr_assert_eq(it[4].expr->u.literal.kind, ATTU_LIT_BOOL);
    cr_assert_eq(it[5].expr->u.literal.kind, ATTU_LIT_NULL);
    attu_parse_free(r);
}

Test(parser_forms, keywords_work_as_column_names_where_postgresql_allows) {
    attu_parse_result *r = must_parse(
        "SELECT name, date, year, value, first, last, data, type, text, key, "
        "position, values FROM t WHERE first < last ORDER BY year");
    cr_assert_eq(r->stmts[0].stmt->u.select.query->u.select.nitems, 12);
    attu_parse_free(r);
}

Test(parser_forms, delete_update_truncate) {
    char buf[1024];
    attu_parse_result *r = must_parse("UPDATE t AS x SET a = 1, (b, c) = ROW(c, DEFAULT) FROM u WHERE x.a = u.a RETURNING x.a; "
                                      "DELETE FROM t USING u WHERE t.a = u.a; TRUNCATE t, u; "
                                      "SELECT update, delete, truncate FROM t");
    cr_assert_eq(r->n, 4);
    attu_ast_print_stmt(r->stmts[0].stmt, buf, sizeof buf);
    cr_assert_str_eq(buf, "(update t (as x) (set (a 1) (b c) (c default)) (from (table u)) (where (= x.a u.a)) (returning x.a))");
    attu_ast_print_stmt(r->stmts[1].stmt, buf, sizeof buf);
    cr_assert_str_eq(buf, "(delete t (using (table u)) (where (= t.a u.a)))");
    attu_ast_print_stmt(r->stmts[2].stmt, buf, sizeof buf);
    cr_assert_str_eq(buf, "(truncate t u)");
    cr_assert_eq(r->stmts[3].stmt->u.select.query->u.select.nitems, 3);
    attu_parse_free(r);
    /* (a, b) = a sub-SELECT: one sub-SELECT per column; with * refused;
     * counts must match */
    r = must_parse("UPDATE t SET (a, b) = (SELECT x, y FROM u)");
    attu_ast_print_stmt(r->stmts[0].stmt, buf, sizeof buf);
    cr_assert_str_eq(buf, "(update t (set (a (subquery (select (items x) (from (table u))))) "
                          "(b (subquery (select (items y) (from (table u)))))))");
    attu_parse_free(r);
    attu_error err;
    attu_error_clear(&err);
    cr_assert_null(attu_parse("UPDATE t SET (a, b) = (SELECT * FROM u)", &err));
    cr_assert_str_eq(err.sqlstate, "0A000");
    attu_error_clear(&err);
    cr_assert_null(attu_parse("UPDATE t SET (a, b) = (1, 2, 3)", &err));
    cr_assert_str_eq(err.sqlstate, "42601");
    cr_assert_str_eq(err.message, "number of columns does not match number of values");
}

Test(parser_forms, merge) {
    char buf[1024];
    attu_parse_result *r = must_parse(
        "WITH s AS (SELECT 1 AS a) MERGE INTO t AS x USING s ON x.a = s.a "
        "WHEN MATCHED AND s.a > 0 THEN UPDATE SET b = s.a, (c, d) = (1, DEFAULT) WHEN MATCHED THEN DELETE "
        "WHEN NOT MATCHED AND s.a < 0 THEN DO NOTHING WHEN NOT MATCHED THEN INSERT (a, b) OVERRIDING USER VALUE VALUES (s.a, DEFAULT) "
        "WHEN NOT MATCHED THEN INSERT DEFAULT VALUES; SELECT merge, matched FROM merge");
    cr_assert_eq(r->n, 2);
    cr_assert_eq(r->stmts[0].stmt->kind, ATTU_STMT_MERGE);
    cr_assert_eq(r->stmts[0].stmt->u.modify.nwith, 1);
    attu_ast_print_stmt(r->stmts[0].stmt, buf, sizeof buf);
    cr_assert_str_eq(buf, "(merge t (as x) (using (table s)) (on (= x.a s.a)) "
                          "(matched (and (> s.a 0)) (update (b s.a) (c 1) (d default))) (matched delete) "
                          "(not-matched (and (< s.a 0)) nothing) "
                          "(not-matched (insert (columns a b) (overriding user) s.a default)) "
                          "(not-matched (insert default-values)))");
    cr_assert_eq(r->stmts[1].stmt->u.select.query->u.select.nitems, 2);
    attu_parse_free(r);
    /* what PostgreSQL 15's grammar refuses */
    const char *bad[] = {
        "MERGE INTO t USING s ON true",
        "MERGE INTO t USING s ON true WHEN MATCHED THEN INSERT VALUES (1)",
        "MERGE INTO t USING s ON true WHEN NOT MATCHED THEN DELETE",
        "MERGE INTO t USING s ON true WHEN NOT MATCHED THEN INSERT (a) DEFAULT VALUES",
        "MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE RETURNING *",
        "MERGE INTO t USING s ON true WHEN MATCHES THEN DELETE",
        "MERGE INTO t USING s ON true WHEN MATCHED THEN DO SOMETHING",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        attu_error err;
        attu_error_clear(&err);
        cr_assert_null(attu_parse(bad[i], &err), "%s", bad[i]);
        cr_assert_str_eq(err.sqlstate, "42601", "%s", bad[i]);
    }
}

Test(parser_forms, deep_nesting_is_refused_not_crashed) {
    /* 5000 terms of a+a+a...: a left-deep tree deeper than the limit */
    size_t n = 5000;
    char *sql = malloc(16 + 2 * n);
    strcpy(sql, "SELECT a");
    for (size_t i = 0; i < n; i++) strcat(sql, "+a");
    attu_error err;
    attu_error_clear(&err);
    cr_assert_null(attu_parse(sql, &err));
    cr_assert_str_eq(err.sqlstate, "54001");
    /* 500 terms are fine */
    sql[strlen("SELECT a") + 2 * 500] = '\0';
    attu_parse_result *r = must_parse(sql);
    cr_assert_leq(r->stmts[0].stmt->u.select.query->depth, ATTU_AST_MAX_DEPTH);
    attu_parse_free(r);
    /* deep parentheses exhaust the parser stack: also a clean error */
    char *p = malloc(40000);
    strcpy(p, "SELECT ");
    for (int i = 0; i < 15000; i++) strcat(p + 7 + i, "(");
    attu_error_clear(&err);
    cr_assert_null(attu_parse(p, &err));
    cr_assert(err.set);
    free(p);
    free(sql);
}

/* ---- every node carries a position inside the text ---------------------- */

typedef struct poscheck {
    int         max;      /* characters in the text + 1 */
    const char *sql;
    int         nodes;
} poscheck;

static void check_pos(poscheck *p, int pos, const char *what) {
    cr_expect(pos >= 1 && pos <= p->max, "%s at position %d in <%s>", what, pos, p->sql);
    p->nodes++;
}

static void walk_query(poscheck *p, const attu_ast_query *q);

static void walk_expr(poscheck *p, const attu_ast_expr *e) {
    if (!e) return;
    check_pos(p, e->position, "expression");
    cr_expect_geq(e->depth, 1);
    switch (e->kind) {
    case ATTU_EXPR_UNARY: walk_expr(p, e->u.unary.arg); break;
    case ATTU_EXPR_BINARY: walk_expr(p, e->u.binary.left); walk_expr(p, e->u.binary.right); break;
    case ATTU_EXPR_IS: walk_expr(p, e->u.is.arg); break;
    case ATTU_EXPR_BETWEEN:
        walk_expr(p, e->u.between.arg); walk_expr(p, e->u.between.low); walk_expr(p, e->u.between.high);
        break;
    case ATTU_EXPR_IN_LIST:
        walk_expr(p, e->u.in_list.arg);
        for (int i = 0; i < e->u.in_list.list.n; i++) walk_expr(p, e->u.in_list.list.items[i]);
        break;
    case ATTU_EXPR_IN_SUBQUERY: walk_expr(p, e->u.in_subquery.arg); walk_query(p, e->u.in_subquery.query); break;
    case ATTU_EXPR_EXISTS: case ATTU_EXPR_SUBQUERY: walk_query(p, e->u.subquery.query); break;
    case ATTU_EXPR_LIKE:
        walk_expr(p, e->u.like.arg); walk_expr(p, e->u.like.pattern); walk_expr(p, e->u.like.escape);
        break;
    case ATTU_EXPR_CASE:
        walk_expr(p, e->u.case_.operand);
        for (int i = 0; i < e->u.case_.nwhens; i++) {
            walk_expr(p, e->u.case_.whens[i].when);
            walk_expr(p, e->u.case_.whens[i].then);
        }
        walk_expr(p, e->u.case_.else_);
        break;
    case ATTU_EXPR_CAST:
        check_pos(p, e->u.cast.type.position, "type name");
        walk_expr(p, e->u.cast.arg);
        break;
    case ATTU_EXPR_FUNC:
        for (int i = 0; i < e->u.func.args.n; i++) walk_expr(p, e->u.func.args.items[i]);
        for (int i = 0; i < e->u.func.order_by.n; i++) walk_expr(p, e->u.func.order_by.items[i].expr);
        walk_expr(p, e->u.func.filter);
        if (e->u.func.over) {
            check_pos(p, e->u.func.over->position, "OVER");
            for (int i = 0; i < e->u.func.over->partition_by.n; i++)
                walk_expr(p, e->u.func.over->partition_by.items[i]);
            for (int i = 0; i < e->u.func.over->order_by.n; i++)
                walk_expr(p, e->u.func.over->order_by.items[i].expr);
            walk_expr(p, e->u.func.over->frame_start.offset);
            walk_expr(p, e->u.func.over->frame_end.offset);
        }
        break;
    case ATTU_EXPR_EXTRACT: walk_expr(p, e->u.extract.arg); break;
    default: break;
    }
}

static void walk_from(poscheck *p, const attu_ast_from *f) {
    check_pos(p, f->position, "FROM item");
    for (int i = 0; i < f->column_aliases.n; i++) check_pos(p, f->column_aliases.positions[i], "alias");
    if (f->kind == ATTU_FROM_SUBQUERY) walk_query(p, f->u.subquery.query);
    if (f->kind == ATTU_FROM_FUNCTION) walk_expr(p, f->u.function.call);
    if (f->kind == ATTU_FROM_JOIN) {
        walk_from(p, f->u.join.left);
        walk_from(p, f->u.join.right);
        walk_expr(p, f->u.join.on);
        for (int i = 0; i < f->u.join.using_.n; i++) check_pos(p, f->u.join.using_.positions[i], "USING");
    }
}

static void walk_query(poscheck *p, const attu_ast_query *q) {
    check_pos(p, q->position, "query");
    for (int i = 0; i < q->with.n; i++) {
        check_pos(p, q->with.items[i].position, "CTE");
        walk_query(p, q->with.items[i].query);
    }
    switch (q->kind) {
    case ATTU_QUERY_SELECT:
        for (int i = 0; i < q->u.select.nitems; i++) {
            walk_expr(p, q->u.select.items[i].expr);
            if (q->u.select.items[i].alias) check_pos(p, q->u.select.items[i].alias_position, "alias");
        }
        for (int i = 0; i < q->u.select.from.n; i++) walk_from(p, q->u.select.from.items[i]);
        for (int i = 0; i < q->u.select.distinct_on.n; i++) walk_expr(p, q->u.select.distinct_on.items[i]);
        walk_expr(p, q->u.select.where);
        for (int i = 0; i < q->u.select.group_by.n; i++) walk_expr(p, q->u.select.group_by.items[i]);
        walk_expr(p, q->u.select.having);
        break;
    case ATTU_QUERY_VALUES:
        for (int r = 0; r < q->u.values.nrows; r++)
            for (int i = 0; i < q->u.values.rows[r].n; i++) walk_expr(p, q->u.values.rows[r].items[i]);
        break;
    case ATTU_QUERY_SETOP:
        walk_query(p, q->u.setop.left);
        walk_query(p, q->u.setop.right);
        break;
    }
    for (int i = 0; i < q->order_by.n; i++) {
        check_pos(p, q->order_by.items[i].position, "ORDER BY item");
        walk_expr(p, q->order_by.items[i].expr);
    }
    walk_expr(p, q->limit);
    walk_expr(p, q->offset);
}

static void walk_stmt(poscheck *p, const attu_ast_stmt *s) {
    check_pos(p, s->position, "statement");
    switch (s->kind) {
    case ATTU_STMT_SELECT: walk_query(p, s->u.select.query); break;
    case ATTU_STMT_INSERT:
        check_pos(p, s->u.insert.table_position, "INSERT table");
        if (s->u.insert.source) walk_query(p, s->u.insert.source);
        break;
    case ATTU_STMT_CREATE_TABLE:
        for (int i = 0; i < s->u.create_table.ncolumns; i++) {
            check_pos(p, s->u.create_table.columns[i].position, "column");
            check_pos(p, s->u.create_table.columns[i].type.position, "column type");
            walk_expr(p, s->u.create_table.columns[i].default_);
        }
        break;
    case ATTU_STMT_CREATE_TABLE_AS: walk_query(p, s->u.create_table_as.query); break;
    case ATTU_STMT_DROP_TABLE:
        for (int i = 0; i < s->u.drop_table.tables.n; i++) check_pos(p, s->u.drop_table.tables.positions[i], "DROP name");
        break;
    case ATTU_STMT_COPY:
        if (s->u.copy.query) walk_query(p, s->u.copy.query);
        else check_pos(p, s->u.copy.table_position, "COPY table");
        for (int i = 0; i < s->u.copy.noptions; i++) check_pos(p, s->u.copy.options[i].position, "COPY option");
        break;
    case ATTU_STMT_EXPLAIN: walk_stmt(p, s->u.explain.stmt); break;
    case ATTU_STMT_DESCRIBE: check_pos(p, s->u.describe.table_position, "DESCRIBE table"); break;
    default: break;
    }
}

Test(parser_forms, every_node_has_a_position_inside_the_text) {
    char path[4096];
    const char *root = getenv("ATTU_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/tests/planner/valid_statements.sql", root ? root : ".");
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    static char line[1 << 14];
    int stmts = 0;
    poscheck p = { 0, NULL, 0 };
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || (line[0] == '-' && line[1] == '-')) continue;
        attu_parse_result *r = must_parse(line);
        p.sql = line;
        p.max = attu_sql_char_position(line, strlen(line));
        for (int i = 0; i < r->n; i++, stmts++) walk_stmt(&p, r->stmts[i].stmt);
        attu_parse_free(r);
    }
    fclose(f);
    cr_assert_gt(stmts, 150);
    cr_assert_gt(p.nodes, 1000, "only %d nodes checked", p.nodes);
}
