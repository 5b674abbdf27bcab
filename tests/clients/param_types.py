#!/usr/bin/python3
"""param_types.py - parameters whose type the client leaves open: a Parse
without type OIDs (or with 0 for some), as JDBC, node-postgres and libpq's
PQprepare with no types send it. The server infers each parameter's type
from its use when it prepares the statement, describes it so in
ParameterDescription, reads each Bind value (text or binary) as that type
and fails a bad one at Bind, before anything runs.

    param_types.py    # the server in PGHOST / PGPORT / PGUSER / PGDATABASE

Every answer here is PostgreSQL 15's: tests/clients/CMakeLists.txt runs
this script against PostgreSQL (clients_param_types_pg) and attud
(clients_param_types_attud), so both must agree with it.
"""
import datetime
import struct
import sys

from pgwire_client import connect_from_env

BOOL, INT8, INT2, INT4, TEXT, FLOAT4, FLOAT8 = 16, 20, 21, 23, 25, 700, 701
BPCHAR, VARCHAR, DATE, TIMESTAMP, INTERVAL, NUMERIC = 1042, 1043, 1082, 1114, 1186, 1700
TIMESTAMPTZ, INT4ARR, TEXTARR, BPCHARARR, DATEARR = 1184, 1007, 1009, 1014, 1182

failures = []


def check(what, got, want):
    if got != want:
        failures.append("%s: got %r, want %r" % (what, got, want))


def err(r):
    e = r.error()
    return e[0] if e else None


c = connect_from_env()
c.query("DROP TABLE IF EXISTS pt")
check("create", c.query("CREATE TABLE pt (i INTEGER, s SMALLINT, b BIGINT, r REAL, d DOUBLE PRECISION, "
                        "n NUMERIC(10,2), x TEXT, v VARCHAR(10), c CHAR(3), dt DATE, ts TIMESTAMP, "
                        "f BOOLEAN)").error(), None)
check("insert", c.query(
    "INSERT INTO pt VALUES "
    "(1, 1, 10, 1.5, 2.5, 1.25, 'one', 'uno', 'a', '2024-01-15', '2024-01-15 10:00:00', true), "
    "(2, 2, 20, 2.5, 3.5, 2.50, 'two', 'dos', 'bb', '2024-02-20', '2024-02-20 12:30:00', false), "
    "(3, 3, 30, 3.5, 4.5, 3.75, 'three', 'tres', 'ccc', '2024-03-25', '2024-03-25 18:45:30', NULL)").tags(),
      ["INSERT 0 3"])


def describe(sql, oids=()):
    c.parse("", sql, oids)
    c.describe("S", "")
    return c.sync()


# ---- ParameterDescription: each parameter's type from its first use --------
DESCRIBED = [
    ("SELECT $1", [TEXT]),
    ("SELECT $1, $2", [TEXT, TEXT]),
    ("SELECT $1 = $2", [TEXT, TEXT]),
    ("SELECT $1 + 1", [INT4]),
    ("SELECT 1 + $1", [INT4]),
    ("SELECT $1 || 'a'", [TEXT]),
    ("SELECT $1::numeric", [NUMERIC]),
    ("SELECT $1::int + $1", [INT4]),
    ("SELECT $1::varchar(3), $2::char(3), $3::numeric(5,2)", [VARCHAR, BPCHAR, NUMERIC]),
    ("SELECT $1::int, $2::bigint, $3::smallint, $4::real, $5::float8, $6::bool, $7::date, $8::timestamp, "
     "$9::text, $10::interval", [INT4, INT8, INT2, FLOAT4, FLOAT8, BOOL, DATE, TIMESTAMP, TEXT, INTERVAL]),
    ("SELECT i FROM pt WHERE i = $1", [INT4]),
    ("SELECT i FROM pt WHERE $1 = i", [INT4]),
    ("SELECT i FROM pt WHERE s = $1 AND b = $2 AND r = $3 AND d = $4", [INT2, INT8, FLOAT4, FLOAT8]),
    ("SELECT i FROM pt WHERE n = $1 AND x = $2 AND v = $3 AND c = $4", [NUMERIC, TEXT, TEXT, BPCHAR]),
    ("SELECT i FROM pt WHERE dt > $1 AND ts < $2 AND f = $3", [DATE, TIMESTAMP, BOOL]),
    ("SELECT i FROM pt WHERE i BETWEEN $1 AND $2", [INT4, INT4]),
    ("SELECT i FROM pt WHERE $1 BETWEEN i AND $2", [INT4, INT4]),
    ("SELECT $1 BETWEEN 1 AND $2", [INT4, INT4]),
    ("SELECT i FROM pt WHERE ts NOT BETWEEN $1 AND $2", [TIMESTAMP, TIMESTAMP]),
    ("SELECT i FROM pt WHERE i IN ($1, $2)", [INT4, INT4]),
    ("SELECT i FROM pt WHERE x IN ($1, $2)", [TEXT, TEXT]),
    ("SELECT i FROM pt WHERE v IN ($1, $2)", [VARCHAR, VARCHAR]),
    ("SELECT i FROM pt WHERE v IN ($1)", [TEXT]),
    ("SELECT i FROM pt WHERE c IN ($1, $2)", [BPCHAR, BPCHAR]),
    ("SELECT i FROM pt WHERE x LIKE $1", [TEXT]),
    ("SELECT i FROM pt LIMIT $1 OFFSET $2", [INT8, INT8]),
    ("SELECT i FROM pt FETCH FIRST $1 ROWS ONLY", [INT8]),
    ("SELECT i FROM pt WHERE i = $1 LIMIT $2", [INT4, INT8]),
    ("SELECT i FROM pt WHERE $1", [BOOL]),
    ("SELECT CASE WHEN $1 THEN 1 ELSE 0 END", [BOOL]),
    ("SELECT CASE WHEN i > 0 THEN $1 ELSE 'z' END FROM pt", [TEXT]),
    ("SELECT CASE WHEN i > 0 THEN $1 ELSE 2 END FROM pt", [INT4]),
    ("SELECT substr(x, $1) FROM pt", [INT4]),
    ("SELECT substr($1, 2)", [TEXT]),
    ("SELECT length($1)", [TEXT]),
    ("SELECT abs($1)", [FLOAT8]),
    ("SELECT round($1)", [FLOAT8]),
    ("SELECT round($1, 2)", [NUMERIC]),
    ("SELECT coalesce($1, 1)", [INT4]),
    ("SELECT coalesce(i, $1) FROM pt", [INT4]),
    ("SELECT coalesce($1, $2)", [TEXT, TEXT]),
    ("SELECT greatest($1, 3)", [INT4]),
    ("SELECT nullif($1, 1)", [INT4]),
    ("SELECT NOT $1", [BOOL]),
    ("SELECT $1 AND true", [BOOL]),
    ("SELECT i FROM pt WHERE i = $1 + 1", [INT4]),
    ("SELECT i FROM pt WHERE n * $1 > 3", [NUMERIC]),
    ("SELECT i FROM pt WHERE dt - $1 > 0", [DATE]),
    ("SELECT i, $1 FROM pt", [TEXT]),
    ("SELECT count(*) FROM pt GROUP BY $1", [TEXT]),
    ("SELECT sum(i) + $1 FROM pt", [INT8]),
    ("SELECT sum(i) FILTER (WHERE i > $1) FROM pt", [INT4]),
    ("SELECT i FROM pt GROUP BY i HAVING count(*) > $1", [INT8]),
    ("SELECT to_char(ts, $1) FROM pt", [TEXT]),
    ("SELECT i FROM pt WHERE f = NOT $1", [BOOL]),
    ("SELECT i FROM pt WHERE EXISTS (SELECT 1 FROM pt p2 WHERE p2.i = $1)", [INT4]),
    ("SELECT i FROM (SELECT i FROM pt WHERE i > $1) q", [INT4]),
    ("SELECT $1 = ANY (SELECT i FROM pt)", [INT4]),
    ("WITH w AS (SELECT $1 AS a) SELECT a FROM w", [TEXT]),
    ("SELECT $1 UNION SELECT 1", [INT4]),
    ("SELECT 1 INTERSECT SELECT $1", [INT4]),
    ("SELECT $1 UNION SELECT 'a'", [TEXT]),
    ("SELECT $1 UNION ALL SELECT $2", [TEXT, TEXT]),
    ("VALUES ($1, 1), (2, $2)", [INT4, INT4]),
    ("SELECT i FROM pt WHERE x = $1 OR x = $1", [TEXT]),
    ("SELECT $1 > 0", [INT4]),
    ("SELECT $1 IN (1, 2)", [INT4]),
    ("SELECT $1 LIKE 'a%'", [TEXT]),
    ("SELECT max($1) FROM pt", [TEXT]),
    ("INSERT INTO pt VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
     [INT4, INT2, INT8, FLOAT4, FLOAT8, NUMERIC, TEXT, VARCHAR, BPCHAR, DATE, TIMESTAMP, BOOL]),
    ("INSERT INTO pt (x, i) VALUES ($1, $2)", [TEXT, INT4]),
    ("INSERT INTO pt (i) VALUES ($1 + 1)", [INT4]),
    ("INSERT INTO pt (i) VALUES ($1), ($2)", [INT4, INT4]),
    ("INSERT INTO pt (i) VALUES ($1), ($1)", [INT4]),
    ("INSERT INTO pt (i, x) SELECT $1, $2", [INT4, TEXT]),
    ("INSERT INTO pt (i) SELECT i + $1 FROM pt", [INT4]),
    ("UPDATE pt SET x = $1 WHERE i = $2", [TEXT, INT4]),
    ("UPDATE pt SET i = i + $1, dt = $2", [INT4, DATE]),
    ("UPDATE pt SET v = $1, c = $2", [VARCHAR, BPCHAR]),
    ("UPDATE pt SET n = $1 RETURNING n", [NUMERIC]),
    ("UPDATE pt SET x = $1 WHERE x = $1", [TEXT]),
    ("DELETE FROM pt WHERE ts < $1", [TIMESTAMP]),
    ("DELETE FROM pt WHERE i = $1 RETURNING x", [INT4]),
    ("DELETE FROM pt WHERE i IN (SELECT i FROM pt WHERE x = $1)", [TEXT]),
    ("EXPLAIN SELECT i FROM pt WHERE i = $1", [INT4]),
    ("CREATE TABLE ct AS SELECT $1 AS a, $2 + 1 AS b", [TEXT, INT4]),
    ("SELECT lpad(x, $1), repeat(x, $2), split_part(x, $3, $4) FROM pt", [INT4, INT4, TEXT, INT4]),
    ("SELECT $1 * 2.5, $2 / 2", [NUMERIC, INT4]),
    ("SELECT i FROM pt WHERE ts + $1 > ts", [INTERVAL]),
    ("SELECT avg(i + $1), string_agg(x, $2) FROM pt", [INT4, TEXT]),
    ("SELECT i FROM pt WHERE i = (SELECT max(i) FROM pt WHERE x = $1)", [TEXT]),
    ("SELECT * FROM generate_series(1, $1)", [INT4]),
    ("SELECT concat_ws($1, 'a', i), count($2::int) FROM pt GROUP BY i", [TEXT, INT4]),
    ("SELECT date_part($1, ts), date_trunc($2, ts) FROM pt", [TEXT, TEXT]),
    ("SELECT $1 + 1, $1 IS NULL", [INT4]),
    ("SELECT lag(i, $1) OVER (ORDER BY i), lead(i, $2, $3) OVER (ORDER BY i) FROM pt", [INT4, INT4, INT4]),
    ("SELECT ntile($1) OVER (ORDER BY i) FROM pt", [INT4]),
    ("SELECT i FROM pt WHERE x ILIKE $1 ESCAPE $2", [TEXT, TEXT]),
    ("SHOW TimeZone", []),
    # now(), intervals, ANY over ARRAY[...] and over an array parameter
    ("SELECT $1 < now()", [TIMESTAMPTZ]),
    ("SELECT $1 > now() - interval '1 day'", [TIMESTAMPTZ]),
    ("SELECT $1 < current_date, $2 < localtimestamp", [DATE, TIMESTAMP]),
    ("SELECT i FROM pt WHERE ts > $1::timestamp - interval '1 day'", [TIMESTAMP]),
    ("SELECT $1 - interval '1 day'", [INTERVAL]),
    ("SELECT $1 = ANY (ARRAY[$1])", [TEXT]),
    ("SELECT $1 = ANY (ARRAY[1, $2])", [INT4, INT4]),
    ("SELECT i FROM pt WHERE x = ANY (ARRAY[$1, $2])", [TEXT, TEXT]),
    ("SELECT i FROM pt WHERE i = ANY (ARRAY[$1, 2])", [INT4]),
    ("SELECT i FROM pt WHERE c = ANY (ARRAY[$1])", [TEXT]),
    ("SELECT i FROM pt WHERE i = ANY ($1)", [INT4ARR]),
    ("SELECT i FROM pt WHERE i > ALL ($1)", [INT4ARR]),
    ("SELECT i FROM pt WHERE x = ANY ($1)", [TEXTARR]),
    ("SELECT i FROM pt WHERE v = ANY ($1)", [TEXTARR]),
    ("SELECT i FROM pt WHERE c = ANY ($1)", [BPCHARARR]),
    ("SELECT i FROM pt WHERE dt = ANY ($1)", [DATEARR]),
    ("SELECT $1 = ANY ($2)", [TEXT, TEXTARR]),
    # row comparisons: each item takes its partner's type
    ("SELECT i FROM pt WHERE (i, x) = ($1, $2)", [INT4, TEXT]),
    ("SELECT i FROM pt WHERE ($1, $2) = (i, x)", [INT4, TEXT]),
    ("SELECT i FROM pt WHERE (i, x) < ($1, $2)", [INT4, TEXT]),
    ("SELECT i FROM pt WHERE (i, dt, n) >= ($1, $2, $3)", [INT4, DATE, NUMERIC]),
    ("SELECT i FROM pt WHERE ROW(i, x) <> ROW($1, $2)", [INT4, TEXT]),
    ("SELECT i FROM pt WHERE (i, x) IS DISTINCT FROM ($1, $2)", [INT4, TEXT]),
    ("SELECT i FROM pt WHERE (i, x) IN (($1, $2), ($3, $4))", [INT4, TEXT, INT4, TEXT]),
    ("SELECT i FROM pt WHERE (i, x) NOT IN (($1, $2), ($3, 'a'))", [INT4, TEXT, INT4]),
    ("SELECT i FROM pt WHERE (i, $1) = (1, 'a')", [TEXT]),
    ("SELECT ($1, $2) = (1, 2)", [INT4, INT4]),
    ("SELECT ($1, $2) = ($3, $4)", [TEXT, TEXT, TEXT, TEXT]),
    ("UPDATE pt SET x = 'a' WHERE (i, x) = ($1, $2)", [INT4, TEXT]),
    ("UPDATE pt SET x = $1 WHERE i = ANY ($2)", [TEXT, INT4ARR]),
    ("DELETE FROM pt WHERE (i, x) IN (($1, $2))", [INT4, TEXT]),
    ("DELETE FROM pt WHERE dt = ANY ($1)", [DATEARR]),
    ("INSERT INTO pt (i, x) SELECT i, x FROM pt WHERE (i, x) = ($1, $2)", [INT4, TEXT]),
    ("INSERT INTO pt (i) SELECT i FROM pt WHERE i = ANY ($1)", [INT4ARR]),
    ("MERGE INTO pt USING (SELECT 1 AS one) s ON pt.i = $1 WHEN MATCHED THEN UPDATE SET x = $2, dt = $3 "
     "WHEN NOT MATCHED THEN INSERT (i, x, dt) VALUES ($1, $2, $3)", [INT4, TEXT, DATE]),
    ("MERGE INTO pt USING (VALUES ($1::integer, $2)) s(i, w) ON pt.i = s.i WHEN MATCHED AND pt.n > $3 THEN DELETE "
     "WHEN NOT MATCHED THEN INSERT (i, v, c) VALUES (s.i, $4, $5)", [INT4, TEXT, NUMERIC, VARCHAR, BPCHAR]),
]
for sql, want in DESCRIBED:
    r = describe(sql)
    check("Describe %s" % sql, (err(r), r.param_oids()), (None, want))

# declared types are kept; a 0 among them is inferred like a missing one
check("declared and 0", describe("SELECT i FROM pt WHERE i = $1 AND x = $2", [INT8, 0]).param_oids(), [INT8, TEXT])
check("all 0 (JDBC)", describe("SELECT i FROM pt WHERE i = $1 AND x = $2", [0, 0]).param_oids(), [INT4, TEXT])
check("declared beyond the text", describe("SELECT 1", [INT4]).param_oids(), [INT4])

# where PostgreSQL cannot decide, the Parse fails
UNDECIDED = [
    ("SELECT $1 IS NULL", ("42P18", "could not determine data type of parameter $1")),
    ("SELECT $1 IS NOT NULL", ("42P18", "could not determine data type of parameter $1")),
    ("SELECT $2", ("42P18", "could not determine data type of parameter $1")),
    ("SELECT $1, $3", ("42P18", "could not determine data type of parameter $2")),
    ("SELECT $1 + $2", ("42725", "operator is not unique: unknown + unknown")),
    ("SELECT -$1", ("42725", "operator is not unique: - unknown")),
    ("SELECT i FROM pt WHERE dt + $1 > '2024-01-01'", ("42725", "operator is not unique: date + unknown")),
    ("SELECT i FROM pt WHERE i = $1 AND x = $1", ("42883", "operator does not exist: text = integer")),
    ("SELECT $1 = 1 AND $1 = 'a'", ("22P02", 'invalid input syntax for type integer: "a"')),
    ("SELECT count($1) FROM pt", ("42P18", "could not determine data type of parameter $1")),
    ("SELECT concat($1, $2)", ("42P18", "could not determine data type of parameter $1")),
    ("SELECT extract(year from $1)", ("42725", "function pg_catalog.extract(unknown, unknown) is not unique")),
    ("SELECT i FROM pt WHERE i = ANY (ARRAY[$1, $2])", ("42883", "operator does not exist: integer = text")),
    ("SELECT i FROM pt WHERE ts > $1 - interval '1 day'",
     ("42883", "operator does not exist: timestamp without time zone > interval")),
    ("SELECT i FROM pt WHERE (i, x) = ($1, $2, $3)", ("42601", "unequal number of entries in row expressions")),
    ("SELECT i FROM pt WHERE (i, x) = (1, $1::int)", ("42883", "operator does not exist: text = integer")),
    ("SELECT date_trunc('day', $1)", ("42725", "function date_trunc(unknown, unknown) is not unique")),
]
for sql, want in UNDECIDED:
    check("Parse %s" % sql, describe(sql).error(), want)
# the errors point where PostgreSQL's do: at the operator
for sql, pos in [("SELECT i FROM pt WHERE i = ANY (ARRAY[$1, $2])", "26"),
                 ("SELECT i FROM pt WHERE ts > $1 - interval '1 day'", "27"),
                 ("SELECT i FROM pt WHERE (i, x) = ($1, $2, $3)", "31"),
                 ("SELECT i FROM pt WHERE (i, x) = (1, $1::int)", "31")]:
    check("position %s" % sql, (describe(sql).error_fields() or {}).get("P"), pos)
check("0 beyond the text", describe("SELECT 1", [0]).error(),
      ("42P18", "could not determine data type of parameter $1"))
check("CASE $1 WHEN", err(describe("SELECT CASE $1 WHEN 1 THEN 'a' END")), "42883")
check("the session goes on", c.query("SELECT 1").rows(), [("1",)])


# ---- Bind: text values read as the inferred types ---------------------------
def run(sql, values, formats=None):
    c.parse("", sql)
    c.bind("", values, formats=formats)
    c.execute()
    return c.sync()


RUNS = [
    ("SELECT i FROM pt WHERE i = $1", ["2"], [("2",)]),
    ("SELECT i FROM pt WHERE i = $1", [" 3 "], [("3",)]),
    ("SELECT $1 + 1", ["41"], [("42",)]),
    ("SELECT $1", ["abc"], [("abc",)]),
    ("SELECT $1::numeric", ["1.50"], [("1.50",)]),
    ("SELECT $1::int + $1", ["20"], [("40",)]),
    ("SELECT i FROM pt WHERE i BETWEEN $1 AND $2 ORDER BY i", ["2", "3"], [("2",), ("3",)]),
    ("SELECT i FROM pt WHERE x IN ($1, $2) ORDER BY i", ["one", "three"], [("1",), ("3",)]),
    ("SELECT i FROM pt ORDER BY i LIMIT $1 OFFSET $2", ["1", "1"], [("2",)]),
    ("SELECT substr(x, $1) FROM pt ORDER BY i", ["2"], [("ne",), ("wo",), ("hree",)]),
    ("SELECT CASE WHEN $1 THEN 'y' ELSE 'n' END", ["yes"], [("y",)]),
    ("SELECT i FROM pt WHERE dt = $1", ["2024-02-20"], [("2",)]),
    ("SELECT i FROM pt WHERE ts > $1 ORDER BY i", ["2024-02-20 12:30:00"], [("3",)]),
    ("SELECT i FROM pt WHERE v = $1", ["dos"], [("2",)]),
    ("SELECT i FROM pt WHERE c = $1", ["bb "], [("2",)]),
    ("SELECT i FROM pt WHERE c = $1", ["bb"], [("2",)]),
    ("SELECT i FROM pt WHERE n = $1", ["3.750"], [("3",)]),
    ("SELECT i FROM pt WHERE r = $1", ["2.5"], [("2",)]),
    ("SELECT i FROM pt WHERE f = $1", ["off"], [("2",)]),
    ("SELECT i FROM pt WHERE b > $1 ORDER BY i", ["15"], [("2",), ("3",)]),
    ("SELECT $1 UNION SELECT 1 ORDER BY 1", ["7"], [("1",), ("7",)]),
    ("SELECT $1 = $2", ["a", "a"], [("t",)]),
    ("SELECT coalesce($1, 5)", [None], [("5",)]),
    ("SELECT i FROM pt WHERE i = $1", [None], []),
    ("SELECT $1 BETWEEN 1 AND $2", ["5", "9"], [("t",)]),
    ("SELECT i, lag(i, $1) OVER (ORDER BY i) FROM pt ORDER BY i", ["2"], [("1", None), ("2", None), ("3", "1")]),
    ("SELECT i, ntile($1) OVER (ORDER BY i) FROM pt ORDER BY i", ["2"], [("1", "1"), ("2", "1"), ("3", "2")]),
    ("SELECT i FROM pt WHERE x LIKE $1 ESCAPE $2", ["tw!o", "!"], [("2",)]),
    ("SELECT $1 < now()", ["2000-01-01 00:00:00+00"], [("t",)]),
    ("SELECT i FROM pt WHERE ts > $1::timestamp - interval '1 day' ORDER BY i", ["2024-03-26"], [("3",)]),
    ("SELECT $1 = ANY (ARRAY[$1])", ["a"], [("t",)]),
    ("SELECT i FROM pt WHERE x = ANY (ARRAY[$1, $2]) ORDER BY i", ["one", "three"], [("1",), ("3",)]),
    ("SELECT i FROM pt WHERE i = ANY ($1) ORDER BY i", ["{1,3,5}"], [("1",), ("3",)]),
    ("SELECT i FROM pt WHERE c = ANY ($1) ORDER BY i", ['{"bb ",ccc}'], [("2",), ("3",)]),
    ("SELECT i FROM pt WHERE (i, x) = ($1, $2)", ["2", "two"], [("2",)]),
    ("SELECT i FROM pt WHERE (i, x) < ($1, $2) ORDER BY i", ["2", "zzz"], [("1",), ("2",)]),
    ("SELECT i FROM pt WHERE (i, x) IN (($1, $2), ($3, $4)) ORDER BY i", ["1", "one", "3", "three"],
     [("1",), ("3",)]),
    ("SELECT ($1, $2) < (1, 2), ($1, $2) = (1, 2)", ["1", None], [(None, None)]),
]
for sql, values, want in RUNS:
    r = run(sql, values)
    check("run %s %r" % (sql, values), (err(r), r.rows()), (None, want))

# a bad value fails the Bind itself (ParseComplete, then the error), with
# the type's input error
BAD = [
    ("SELECT i FROM pt WHERE i = $1", ["abc"], ("22P02", 'invalid input syntax for type integer: "abc"')),
    ("SELECT i FROM pt WHERE i = $1", ["1.5"], ("22P02", 'invalid input syntax for type integer: "1.5"')),
    ("SELECT i FROM pt WHERE i = $1", ["99999999999"],
     ("22003", 'value "99999999999" is out of range for type integer')),
    ("SELECT i FROM pt WHERE s = $1", ["40000"], ("22003", 'value "40000" is out of range for type smallint')),
    ("SELECT i FROM pt WHERE b = $1", ["x"], ("22P02", 'invalid input syntax for type bigint: "x"')),
    ("SELECT i FROM pt WHERE d = $1", ["one"], ("22P02", 'invalid input syntax for type double precision: "one"')),
    ("SELECT i FROM pt WHERE n = $1", ["1,5"], ("22P02", 'invalid input syntax for type numeric: "1,5"')),
    ("SELECT i FROM pt WHERE f = $1", ["maybe"], ("22P02", 'invalid input syntax for type boolean: "maybe"')),
    ("SELECT i FROM pt WHERE dt = $1", ["2024-13-01"], ("22008", 'date/time field value out of range: "2024-13-01"')),
    ("SELECT i FROM pt WHERE dt = $1", ["soon"], ("22007", 'invalid input syntax for type date: "soon"')),
    ("SELECT i FROM pt LIMIT $1", ["ten"], ("22P02", 'invalid input syntax for type bigint: "ten"')),
    ("SELECT i FROM pt WHERE i = ANY ($1)", ["{1,x}"], ("22P02", 'invalid input syntax for type integer: "x"')),
    ("SELECT i FROM pt WHERE (i, dt) = ($1, $2)", ["1", "2024-02-30"],
     ("22008", 'date/time field value out of range: "2024-02-30"')),
]
for sql, values, want in BAD:
    c.parse("", sql)
    c.bind("", values)
    c.execute()
    r = c.sync()
    check("bad Bind %s %r" % (sql, values), (r.kinds(), r.error()), ("1E", want))
    check("its position", (r.error_fields() or {}).get("P"), None)
check("the session goes on after bad Binds", c.query("SELECT count(*) FROM pt").rows(), [("3",)])


# ---- Bind: binary values as PostgreSQL's *_send lays them out ----------------
def days(d):
    return (d - datetime.date(2000, 1, 1)).days


def micros(t):
    delta = t - datetime.datetime(2000, 1, 1)
    return (delta.days * 86400 + delta.seconds) * 1000000 + delta.microseconds


BINARY = [
    ("SELECT i FROM pt WHERE s = $1", struct.pack("!h", 2), [("2",)]),
    ("SELECT i FROM pt WHERE i = $1", struct.pack("!i", 3), [("3",)]),
    ("SELECT i FROM pt WHERE b = $1", struct.pack("!q", 10), [("1",)]),
    ("SELECT i FROM pt WHERE r = $1", struct.pack("!f", 2.5), [("2",)]),
    ("SELECT i FROM pt WHERE d = $1", struct.pack("!d", 4.5), [("3",)]),
    ("SELECT i FROM pt WHERE f = $1", b"\x01", [("1",)]),
    ("SELECT i FROM pt WHERE x = $1", b"two", [("2",)]),
    # numeric 3.75: 2 digits (3, 7500), weight 0, positive, scale 2
    ("SELECT i FROM pt WHERE n = $1", struct.pack("!hhHhhh", 2, 0, 0, 2, 3, 7500), [("3",)]),
    ("SELECT i FROM pt WHERE dt = $1", struct.pack("!i", days(datetime.date(2024, 2, 20))), [("2",)]),
    ("SELECT i FROM pt WHERE ts = $1",
     struct.pack("!q", micros(datetime.datetime(2024, 3, 25, 18, 45, 30))), [("3",)]),
    ("SELECT $1 + 1", struct.pack("!i", -8), [("-7",)]),
    ("SELECT i FROM pt ORDER BY i LIMIT $1", struct.pack("!q", 1), [("1",)]),
]
for sql, value, want in BINARY:
    r = run(sql, [value], formats=[1])
    check("binary %s" % sql, (err(r), r.rows()), (None, want))
# date_recv, timestamp_recv and timestamptz_recv keep infinities and fail a
# value outside their range at Bind (22008, without the value)
RANGES = [
    ("SELECT $1::date", struct.pack("!i", -2451545), ("4714-11-24 BC",)),
    ("SELECT $1::date", struct.pack("!i", -2451546), ("22008", "date out of range")),
    ("SELECT $1::date", struct.pack("!i", 2145031948), ("5874897-12-31",)),
    ("SELECT $1::date", struct.pack("!i", 2145031949), ("22008", "date out of range")),
    ("SELECT $1::date", struct.pack("!i", -2 ** 31), ("-infinity",)),
    ("SELECT $1::date", struct.pack("!i", 2 ** 31 - 1), ("infinity",)),
    ("SELECT $1::timestamp", struct.pack("!q", -211813488000000000), ("4714-11-24 00:00:00 BC",)),
    ("SELECT $1::timestamp", struct.pack("!q", -211813488000000001), ("22008", "timestamp out of range")),
    ("SELECT $1::timestamp", struct.pack("!q", 9223371331200000000), ("22008", "timestamp out of range")),
    ("SELECT $1::timestamp", struct.pack("!q", 2 ** 63 - 1), ("infinity",)),
    ("SELECT $1::timestamptz", struct.pack("!q", -211813488000000001), ("22008", "timestamp out of range")),
    ("SELECT $1::timestamptz", struct.pack("!q", -2 ** 63), ("-infinity",)),
    ("SELECT i FROM pt WHERE dt = $1", struct.pack("!i", 2 ** 31 - 2), ("22008", "date out of range")),
    ("SELECT i FROM pt WHERE ts < $1", struct.pack("!q", 2 ** 63 - 2), ("22008", "timestamp out of range")),
    # an element of a binary date[] is range-checked the same way
    ("SELECT i FROM pt WHERE dt = ANY ($1)",
     struct.pack("!iiiiiii", 1, 0, DATE, 1, 1, 4, 2145031949), ("22008", "date out of range")),
]
for sql, value, want in RANGES:
    r = run(sql, [value], formats=[1])
    got = (r.kinds(), r.error()) if r.error() else (r.kinds(), r.rows()[0])
    check("range %s %s" % (sql, value.hex()), got, ("1E", want) if len(want) == 2 else ("12DC", want))
r = run("SELECT i FROM pt WHERE i = ANY ($1) ORDER BY i", [struct.pack("!9i", 1, 0, INT4, 2, 1, 4, 3, 4, 1)], formats=[1])
check("binary int4[] under ANY", (err(r), r.rows()), (None, [("1",), ("3",)]))
# a binary value of the wrong length for the inferred type: PostgreSQL's
# receive function runs out of bytes (08P01, the session goes on) or leaves
# some (22P03)
r = run("SELECT i FROM pt WHERE b = $1", [struct.pack("!i", 10)], formats=[1])
check("binary int4 for a bigint", (r.kinds(), r.error()), ("1E", ("08P01", "insufficient data left in message")))
r = run("SELECT i FROM pt WHERE i = $1", [struct.pack("!q", 10)], formats=[1])
check("binary int8 for an integer", (r.kinds(), r.error()),
      ("1E", ("22P03", "incorrect binary data format in bind parameter 1")))
r = run("SELECT i FROM pt WHERE n = $1", [b"\0\0\0"], formats=[1])
check("binary numeric too short", (r.kinds(), err(r)), ("1E", "08P01"))
# one format code for all, and per-parameter codes mixed with text
r = run("SELECT i FROM pt WHERE i = $1 AND x = $2", [struct.pack("!i", 1), b"one"], formats=[1])
check("one binary format for all", r.rows(), [("1",)])
r = run("SELECT i FROM pt WHERE i = $1 AND dt = $2", ["1", struct.pack("!i", days(datetime.date(2024, 1, 15)))],
        formats=[0, 1])
check("mixed formats", r.rows(), [("1",)])
# a declared numeric stays numeric beside an integer column (pgJDBC's
# setBigDecimal sends binary numerics so): integer = numeric
c.parse("", "SELECT i FROM pt WHERE i = $1 ORDER BY i", [NUMERIC])
c.describe("S", "")
c.bind("", [struct.pack("!hhHhh", 1, 0, 0, 1, 2)], formats=[1])   # 2.0
c.execute()
r = c.sync()
check("declared numeric", (err(r), r.param_oids(), r.rows()), (None, [NUMERIC], [("2",)]))
c.parse("", "SELECT i FROM pt WHERE i = $1", [NUMERIC])
c.bind("", ["2.5"])
c.execute()
check("declared numeric 2.5", c.sync().rows(), [])


# ---- DML: typed values, and a bad Bind changes nothing ----------------------
c.parse("ins", "INSERT INTO pt (i, n, c, dt, f) VALUES ($1, $2, $3, $4, $5)")
c.describe("S", "ins")
r = c.sync()
check("Describe ins", r.param_oids(), [INT4, NUMERIC, BPCHAR, DATE, BOOL])
check("run ins", c.run("ins", ["4", "4.567", "d", "2024-04-30", "t"]).tags(), ["INSERT 0 1"])
check("ins row", c.query("SELECT i, n, c, dt, f FROM pt WHERE i = 4").rows(),
      [("4", "4.57", "d  ", "2024-04-30", "t")])
r = c.run("ins", ["5", "5.5", "e", "2024-02-30", "t"])
check("ins with a bad date", (r.kinds(), r.error()),
      ("E", ("22008", 'date/time field value out of range: "2024-02-30"')))
check("nothing inserted", c.query("SELECT count(*) FROM pt WHERE i = 5").rows(), [("0",)])
c.parse("upd", "UPDATE pt SET n = n + $1, x = $2 WHERE i = $3")
c.describe("S", "upd")
check("Describe upd", c.sync().param_oids(), [NUMERIC, TEXT, INT4])
check("run upd", c.run("upd", ["0.5", "four", "4"]).tags(), ["UPDATE 1"])
check("upd row", c.query("SELECT n, x FROM pt WHERE i = 4").rows(), [("5.07", "four")])
r = c.run("upd", ["1", "five", "4x"])
check("upd with a bad key", r.error(), ("22P02", 'invalid input syntax for type integer: "4x"'))
check("nothing updated", c.query("SELECT n, x FROM pt WHERE i = 4").rows(), [("5.07", "four")])
c.parse("mrg", "MERGE INTO pt USING (SELECT 1 AS one) s ON pt.i = $1 WHEN MATCHED THEN UPDATE SET n = $2 "
        "WHEN NOT MATCHED THEN INSERT (i, n, dt) VALUES ($1, $2, $3)")
c.describe("S", "mrg")
check("Describe mrg", (lambda r: (r.kinds(), r.param_oids()))(c.sync()), ("1tn", [INT4, NUMERIC, DATE]))
check("run mrg (update)", c.run("mrg", ["4", "7.125", "2024-01-01"]).tags(), ["MERGE 1"])
check("run mrg (insert)", c.run("mrg", ["8", "8", "2024-08-08"]).tags(), ["MERGE 1"])
check("mrg rows", c.query("SELECT i, n, dt FROM pt WHERE i IN (4, 8) ORDER BY i").rows(),
      [("4", "7.13", "2024-04-30"), ("8", "8.00", "2024-08-08")])
r = c.run("mrg", ["9", "9", "2024-13-01"])
check("mrg with a bad date", r.error(), ("22008", 'date/time field value out of range: "2024-13-01"'))
check("nothing merged", c.query("SELECT count(*) FROM pt WHERE i = 9").rows(), [("0",)])
check("mrg cleanup", c.query("DELETE FROM pt WHERE i = 8").tags(), ["DELETE 1"])
c.parse("del", "DELETE FROM pt WHERE dt >= $1 RETURNING i")
check("Describe del", (lambda r: (r.param_oids(), r.columns()))(
    (c.describe("S", "del"), c.sync())[1]), ([DATE], [("i", INT4)]))
check("run del", (lambda r: (r.rows(), r.tags()))(c.run("del", ["2024-04-01"])), ([("4",)], ["DELETE 1"]))

# in a transaction block a bad Bind fails the block, as any error does
check("BEGIN", c.query("BEGIN").tags(), ["BEGIN"])
check("insert in the block", c.run("ins", ["6", "6", "f", "2024-06-06", "f"]).tags(), ["INSERT 0 1"])
r = c.run("ins", ["7", "seven", "g", "2024-07-07", "f"])
check("bad Bind in the block", r.error(), ("22P02", 'invalid input syntax for type numeric: "seven"'))
check("the block is failed", err(c.query("SELECT 1")), "25P02")
check("ROLLBACK", c.query("ROLLBACK").tags(), ["ROLLBACK"])
check("the session goes on", c.query("SELECT count(*) FROM pt WHERE i = 7").rows(), [("0",)])
c.query("DELETE FROM pt WHERE i >= 4")


# ---- JDBC's way: Parse with all-zero OIDs, Describe, Bind in text, Execute --
c.parse("S_1", "SELECT x, n FROM pt WHERE i > $1 AND dt < $2 ORDER BY i", [0, 0])
c.describe("S", "S_1")
c.bind("S_1", ["1", "2024-12-31"], formats=[0, 0])
c.execute()
r = c.sync()
check("JDBC sequence", (r.kinds(), r.param_oids(), r.columns(), r.rows()),
      ("1tT2DDC", [INT4, DATE], [("x", TEXT), ("n", NUMERIC)], [("two", "2.50"), ("three", "3.75")]))
r = c.run("S_1", ["x", "2024-12-31"], formats=[0, 0])
check("JDBC bad value", (r.kinds(), err(r)), ("E", "22P02"))
r = c.run("S_1", ["2", "2024-12-31"], formats=[0, 0])
check("JDBC again", r.rows(), [("three", "3.75")])

c.query("DROP TABLE pt")
c.close()
if failures:
    print("\n".join("FAIL " + f for f in failures))
    sys.exit(1)
print("param_types: %d statements described, ok" % len(DESCRIBED))
