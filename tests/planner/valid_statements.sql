-- Statements attu's parser must accept, one per line (blank lines and lines
-- starting with "--" are skipped). tests/planner/gen_malformed.py mutates
-- them into the malformed cases; test_parser_valid.c parses each one.
SELECT 1
SELECT 1;
select a, b from t
SELECT DISTINCT a FROM t
SELECT DISTINCT ON (a) a, b FROM t ORDER BY a, b DESC
SELECT ALL a FROM t
SELECT * FROM t
SELECT t.*, u.a FROM t, u WHERE t.id = u.id
SELECT a AS x, b y, c FROM t AS tt
SELECT a FROM t WHERE a > 1 AND b < 2 OR NOT c
SELECT a FROM t WHERE a >= 1 AND b <= 2 AND c <> 3 AND d != 4 AND e = 5
SELECT a + b * c - d / e % f ^ g FROM t
SELECT -a, +b, - 5, -5.5, -(a + b) FROM t
SELECT a || b || 'x' FROM t
SELECT a FROM t WHERE b BETWEEN 1 AND 10
SELECT a FROM t WHERE b NOT BETWEEN 1 AND 10 AND c BETWEEN SYMMETRIC 5 AND 2
SELECT a FROM t WHERE b IN (1, 2, 3) AND c NOT IN ('x', 'y')
SELECT a FROM t WHERE b IN (SELECT b FROM u) AND c NOT IN (SELECT c FROM v WHERE v.d = 1)
SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = t.a)
SELECT a FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.a = t.a)
SELECT a, (SELECT max(b) FROM u) AS m FROM t
SELECT a FROM t WHERE name LIKE 'A%' AND city NOT LIKE '%x' AND state ILIKE 'c_' AND s NOT ILIKE 'q'
SELECT a FROM t WHERE name LIKE 'a!%' ESCAPE '!'
SELECT a FROM t WHERE b IS NULL AND c IS NOT NULL
SELECT a FROM t WHERE b IS TRUE OR c IS NOT FALSE OR d IS UNKNOWN
SELECT a FROM t WHERE b IS DISTINCT FROM c AND d IS NOT DISTINCT FROM e
SELECT a FROM t WHERE b ISNULL OR c NOTNULL
SELECT CASE WHEN a > 0 THEN 'pos' WHEN a < 0 THEN 'neg' ELSE 'zero' END FROM t
SELECT CASE a WHEN 1 THEN 'one' WHEN 2 THEN 'two' END FROM t
SELECT CAST(a AS integer), b::text, c::numeric(10,2), CAST(d AS double precision) FROM t
SELECT CAST(a AS varchar(20)), b::character varying, c::char(3), d::timestamp FROM t
SELECT a::bigint::text FROM t
SELECT DATE '2020-01-01', TIMESTAMP '2020-01-01 12:00:00', INTERVAL '1 day'
SELECT date '1998-12-01' - 90, d + 1 FROM t
SELECT COALESCE(a, b, 0), NULLIF(a, 0), GREATEST(a, b), LEAST(a, b) FROM t
SELECT abs(a), round(b, 2), floor(c), ceil(d), sqrt(e), power(f, 2), ln(g), exp(h) FROM t
SELECT sin(a), cos(b), asin(c), atan2(d, e), radians(f), degrees(g) FROM t
SELECT lower(a), upper(b), length(c), substr(d, 1, 3), trim(e) FROM t
SELECT substring(a FROM 2 FOR 3), substring(b FROM 2), substring(c, 1, 2) FROM t
SELECT trim(both 'x' FROM a), trim(leading FROM b), trim(trailing ' ' FROM c) FROM t
SELECT position('a' IN b) FROM t
SELECT EXTRACT(year FROM d), EXTRACT(MONTH FROM d), extract('day' from d) FROM t
SELECT count(*), count(a), count(DISTINCT b), sum(c), avg(d), min(e), max(f) FROM t
SELECT state, nth_smallest(dist, 3) FROM t GROUP BY state
SELECT state, min_k(dist, 3) FROM t GROUP BY state
SELECT haversine(a.lat, a.lon, b.lat, b.lon) FROM cities a, cities b
SELECT a, count(*) FROM t GROUP BY a HAVING count(*) > 1
SELECT a, b, sum(c) FROM t GROUP BY a, b ORDER BY 3 DESC LIMIT 10
SELECT a FROM t ORDER BY a ASC NULLS FIRST, b DESC NULLS LAST
SELECT a FROM t ORDER BY a LIMIT 10 OFFSET 5
SELECT a FROM t OFFSET 5 LIMIT 10
SELECT a FROM t LIMIT ALL
SELECT a FROM t OFFSET 3
SELECT a FROM t FETCH FIRST 5 ROWS ONLY
SELECT a FROM t ORDER BY a OFFSET 2 ROWS FETCH NEXT 3 ROWS ONLY
SELECT a FROM t ORDER BY a OFFSET 2 ROWS FETCH NEXT 3 ROWS WITH TIES
SELECT a FROM t ORDER BY a DESC FETCH FIRST ROW WITH TIES
SELECT a FROM t LIMIT $1 OFFSET $2
SELECT a FROM t WHERE b = $1 AND c = $2
SELECT a FROM t UNION SELECT a FROM u
SELECT a FROM t UNION ALL SELECT a FROM u UNION ALL SELECT a FROM v
SELECT a FROM t INTERSECT SELECT a FROM u EXCEPT SELECT a FROM v
SELECT a FROM t UNION SELECT b FROM u ORDER BY 1 LIMIT 5
(SELECT a FROM t ORDER BY a LIMIT 1) UNION ALL (SELECT b FROM u)
SELECT * FROM (SELECT a, b FROM t) AS s WHERE s.a > 1
SELECT * FROM (SELECT a, b FROM t) s (x, y)
SELECT * FROM t JOIN u ON t.a = u.a
SELECT * FROM t INNER JOIN u ON t.a = u.a
SELECT * FROM t LEFT JOIN u ON t.a = u.a
SELECT * FROM t LEFT OUTER JOIN u USING (a, b)
SELECT * FROM t RIGHT JOIN u ON true
SELECT * FROM t FULL OUTER JOIN u ON t.a = u.a
SELECT * FROM t CROSS JOIN u
SELECT * FROM t NATURAL JOIN u
SELECT * FROM t a JOIN u b ON a.x = b.x JOIN v c ON b.y = c.y
SELECT * FROM (t JOIN u ON t.a = u.a) JOIN v ON v.b = u.b
SELECT * FROM t, u, v WHERE t.a = u.a AND u.b = v.b
WITH x AS (SELECT a FROM t) SELECT * FROM x
WITH x (c) AS (SELECT a FROM t), y AS (SELECT c FROM x) SELECT * FROM y
SELECT row_number() OVER (PARTITION BY a ORDER BY b) FROM t
SELECT rank() OVER (ORDER BY b DESC), dense_rank() OVER (PARTITION BY a ORDER BY b) FROM t
SELECT sum(c) OVER (PARTITION BY a), avg(c) OVER () FROM t
SELECT sum(c) OVER (ORDER BY b ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM t
SELECT sum(c) OVER (ORDER BY b ROWS 2 PRECEDING) FROM t
SELECT count(*) FILTER (WHERE a > 1) FROM t
SELECT "Quoted Col", "a""b" FROM "My Table"
SELECT name, date, year, value, first, last, data FROM t
SELECT 'it''s', E'tab\there', $$dollar$$, $q$x$q$
SELECT 1e10, 1.5E-3, .5, 5., 0.0
SELECT true, false, null
SELECT a FROM s.t
SELECT left(a, 2), right(b, 3) FROM t
SELECT current_date, current_timestamp, now()
SELECT a FROM t WHERE a = -1 AND b = - 1.5
VALUES (1, 'a'), (2, 'b')
SELECT 1 FROM t WHERE a = (SELECT 1)
SELECT
SELECT FROM t
CREATE TABLE t (a INTEGER, b TEXT, c DOUBLE PRECISION)
CREATE TABLE t (a int NOT NULL, b bigint NULL, c real, d float, e numeric(12,2), f decimal, g boolean, h date, i timestamp, j varchar(10), k char(2))
CREATE TABLE IF NOT EXISTS t (a integer PRIMARY KEY, b text DEFAULT 'x')
CREATE TABLE t (a integer, b integer, PRIMARY KEY (a, b))
CREATE TABLE t (a timestamp without time zone, b timestamp with time zone, c smallint, d int4, e float8)
CREATE TEMP TABLE t (a integer)
CREATE TABLE t ()
CREATE TABLE t AS SELECT a, b FROM u
CREATE TABLE t (x, y) AS SELECT a, b FROM u WITH NO DATA
CREATE TABLE IF NOT EXISTS t AS SELECT 1
DROP TABLE t
DROP TABLE IF EXISTS t
DROP TABLE t, u CASCADE
INSERT INTO t VALUES (1, 'a')
INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, NULL)
INSERT INTO t (a, b) VALUES (1, 2)
INSERT INTO t SELECT * FROM u
INSERT INTO t (a) SELECT b FROM u WHERE c > 0
INSERT INTO t DEFAULT VALUES
INSERT INTO t VALUES ($1, $2)
COPY t FROM '/tmp/data.csv' WITH (FORMAT csv, HEADER true, DELIMITER ',', NULL '', QUOTE '"', ENCODING 'UTF8')
COPY t FROM '/tmp/data.csv' (FORMAT csv, HEADER)
COPY t FROM STDIN WITH (FORMAT csv)
COPY t (a, b) FROM STDIN
COPY t FROM '/tmp/x.csv' CSV HEADER
COPY t FROM '/tmp/x.csv' WITH CSV HEADER DELIMITER AS ';' NULL AS 'NA'
COPY t TO STDOUT WITH (FORMAT csv, HEADER)
COPY (SELECT a FROM t) TO STDOUT
SHOW TABLES
SHOW search_path
SHOW ALL
SHOW TIME ZONE
SHOW TRANSACTION ISOLATION LEVEL
DESCRIBE t
DESC t
EXPLAIN SELECT a FROM t
EXPLAIN ANALYZE SELECT a FROM t WHERE b > 1
EXPLAIN ANALYZE VERBOSE SELECT 1
EXPLAIN VERBOSE SELECT 1
EXPLAIN (ANALYZE, VERBOSE false, COSTS off, FORMAT text) SELECT 1
EXPLAIN (ANALYZE true) SELECT 1
EXPLAIN INSERT INTO t SELECT * FROM u
SET extra_float_digits = 3
SET DateStyle = 'ISO'
SET client_encoding TO 'UTF8'
SET application_name = 'psql'
SET search_path = public, pg_catalog
SET statement_timeout = 1000
SET statement_timeout TO DEFAULT
SET LOCAL statement_timeout = 0
SET SESSION timezone = 'UTC'
SET TIME ZONE 'UTC'
SET TIME ZONE LOCAL
SET NAMES 'UTF8'
SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED
SET TRANSACTION READ ONLY
SET x.y = on
SET ssl_renegotiation_limit = -1
RESET ALL
RESET statement_timeout
BEGIN
BEGIN TRANSACTION
BEGIN WORK
BEGIN ISOLATION LEVEL SERIALIZABLE, READ WRITE
START TRANSACTION READ ONLY
COMMIT
COMMIT WORK
END
END TRANSACTION
ROLLBACK
ROLLBACK TRANSACTION
ABORT
SELECT 1; SELECT 2
BEGIN; SELECT 1; COMMIT;
SELECT lo_orderdate, sum(lo_revenue) FROM lineorder, dwdate WHERE lo_orderdate = d_datekey AND d_year = 1993 AND lo_discount BETWEEN 1 AND 3 AND lo_quantity < 25 GROUP BY lo_orderdate
SELECT sum(lo_extendedprice * lo_discount) AS revenue FROM lineorder, dwdate WHERE lo_orderdate = d_datekey AND d_yearmonthnum = 199401 AND lo_discount BETWEEN 4 AND 6 AND lo_quantity BETWEEN 26 AND 35
SELECT c_city, s_city, d_year, sum(lo_revenue) AS revenue FROM customer, lineorder, supplier, dwdate WHERE lo_custkey = c_custkey AND lo_suppkey = s_suppkey AND lo_orderdate = d_datekey AND (c_city = 'UNITED KI1' OR c_city = 'UNITED KI5') AND (s_city = 'UNITED KI1' OR s_city = 'UNITED KI5') AND d_yearmonth = 'Dec1997' GROUP BY c_city, s_city, d_year ORDER BY d_year ASC, revenue DESC
WITH d AS (SELECT a.state, a.name, nth_smallest(haversine(a.lat, a.lon, b.lat, b.lon), 3) AS dist FROM cities a JOIN cities b ON a.state = b.state AND a.name <> b.name GROUP BY a.state, a.name), r AS (SELECT state, name, dist, rank() OVER (PARTITION BY state ORDER BY dist DESC) AS rk FROM d) SELECT state, name, dist FROM r WHERE rk = 1 ORDER BY dist DESC
SELECT a, sum(b) OVER w, rank() OVER (w ORDER BY c) FROM t WINDOW w AS (PARTITION BY a)
SELECT a FROM t WHERE a = ANY (SELECT b FROM u) AND a > ALL (SELECT c FROM v)
SELECT a FROM t WHERE s ~~ 'x%' AND s !~~* 'y'
DELETE FROM t WHERE a > 1 AND b IN (SELECT c FROM u) RETURNING a, b * 2 AS twice
DELETE FROM ONLY t AS x USING u, v WHERE x.a = u.a AND u.b = v.b
UPDATE t SET a = a + 1, b = DEFAULT, (c, d) = (d, c) WHERE a IS NOT NULL RETURNING *
UPDATE t x SET a = u.a FROM u JOIN v ON u.b = v.b WHERE x.c = u.c
MERGE INTO t AS x USING u ON x.a = u.a WHEN MATCHED AND u.b > 0 THEN UPDATE SET b = u.b WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT (a, b) VALUES (u.a, DEFAULT)
WITH s AS (SELECT 1 AS a) MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN INSERT DEFAULT VALUES WHEN MATCHED THEN DO NOTHING
TRUNCATE TABLE ONLY t, u CASCADE
INSERT INTO t (a, b) VALUES (1, 2) RETURNING a + b AS s, t.*
WITH x AS (SELECT a FROM u) DELETE FROM t WHERE a IN (SELECT a FROM x)
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) UPDATE t SET a = 0 WHERE a IN (SELECT i FROM n)
WITH x AS (SELECT 1 AS a) INSERT INTO t SELECT a FROM x RETURNING a
SELECT g, percentile_cont(0.5) WITHIN GROUP (ORDER BY x DESC), percentile_disc(0.25) WITHIN GROUP (ORDER BY y), mode() WITHIN GROUP (ORDER BY z) FILTER (WHERE z > 0) FROM t GROUP BY g
