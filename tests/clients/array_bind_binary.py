#!/usr/bin/env python3
"""array_bind_binary.py - Bind parameters of array types in binary format
(PostgreSQL's array_recv layout: ndim, has-null flag, element OID, each
dimension's length and lower bound, then each element as int32 length and
its type's binary form, -1 for NULL), the errors array_recv and the
element types' receive functions give, array parameters in text format
checked at Bind, and binary results of the scalar types (interval,
varchar, bpchar ...). Against a server in PGHOST / PGPORT / PGUSER /
PGDATABASE: protocol_script.sh runs it on PostgreSQL 15 and on attud,
which must give the same answers, byte for byte."""
import struct
import sys

from pgwire_client import connect_from_env

failures = []


def check(what, got, want):
    if got != want:
        failures.append("%s:\n  got  %r\n  want %r" % (what, got, want))


def i32(*v):
    return b"".join(struct.pack("!i", x) for x in v)


def arr(oid, elems, dims=None, flag=None):
    """array_send / array_recv's layout: dims are (length, lower bound),
    one dimension of len(elems) from 1 when left out; elems bytes or None."""
    if dims is None:
        dims = [(len(elems), 1)] if elems else []
    out = i32(len(dims), int(any(e is None for e in elems)) if flag is None else flag, oid)
    for n, lb in dims:
        out += i32(n, lb)
    for e in elems:
        out += i32(-1) if e is None else i32(len(e)) + e
    return out


def q(v):
    return struct.pack("!q", v)


def h(*v):
    return struct.pack("!%dH" % len(v), *[x & 0xFFFF for x in v])


BOOL, INT8, INT2, INT4, TEXT, FLOAT4, FLOAT8 = 16, 20, 21, 23, 25, 700, 701
BPCHAR, VARCHAR, DATE, TIME, TIMESTAMP, TIMESTAMPTZ, INTERVAL, TIMETZ, NUMERIC = (
    1042, 1043, 1082, 1083, 1114, 1184, 1186, 1266, 1700)
ARRAY_OF = {BOOL: 1000, INT2: 1005, INT4: 1007, TEXT: 1009, BPCHAR: 1014, VARCHAR: 1015, INT8: 1016,
            FLOAT4: 1021, FLOAT8: 1022, TIMESTAMP: 1115, DATE: 1182, TIME: 1183, TIMESTAMPTZ: 1185,
            NUMERIC: 1231, TIMETZ: 1270}

c = connect_from_env()


def bind_run(sql, oids, values, formats, result_format):
    """c.bind_run with the error as (SQLSTATE, message) (None: none)."""
    r, params, cols, rows = c.bind_run(sql, oids, values, formats, result_format)
    return r.error(), params, cols, rows


# ---- binary array parameters, sent back in binary: the same bytes --------
ROUND_TRIP = [
    (INT4, arr(INT4, [i32(1), None, i32(-3)])),
    (INT4, arr(INT4, [])),
    (INT4, arr(INT4, [i32(1), i32(2), i32(3), None, i32(5), i32(6)], dims=[(2, 1), (3, 1)])),
    (INT4, arr(INT4, [i32(5), i32(6)], dims=[(2, 0)])),
    (INT4, arr(INT4, [i32(7)] * 4, dims=[(2, -3), (1, 5), (2, 2)])),
    (INT2, arr(INT2, [struct.pack("!h", -32768), struct.pack("!h", 32767)])),
    (INT8, arr(INT8, [q(-(2 ** 63)), q(2 ** 63 - 1), None])),
    (FLOAT4, arr(FLOAT4, [struct.pack("!f", x) for x in (1.5, -0.0, float("inf"))])),
    (FLOAT8, arr(FLOAT8, [struct.pack("!d", x) for x in (0.1, -1e300, float("-inf"))] + [None])),
    (NUMERIC, arr(NUMERIC, [h(2, 0, 0, 2, 1, 5000), h(1, 0, 0x4000, 0, 2), h(0, 0, 0, 3), h(0, 0, 0xC000, 0)])),
    (NUMERIC, arr(NUMERIC, [h(1, -1, 0, 4, 1), None], dims=[(1, 1), (2, 1)])),
    (BOOL, arr(BOOL, [b"\x01", b"\x00", None])),
    (TEXT, arr(TEXT, [b'a"b\\c', b"NULL", b"", b" x ", b"{,}", "\u00e9\u20ac".encode()])),
    (TEXT, arr(TEXT, [b"a", b"b", b"c", b"d"], dims=[(2, 1), (2, 1)])),
    (VARCHAR, arr(VARCHAR, [b"ab ", None])),
    (BPCHAR, arr(BPCHAR, [b"ab ", b"c", None])),
    (DATE, arr(DATE, [i32(0), i32(-1), i32(8000)])),
    (TIME, arr(TIME, [q(0), q(86400000000), q(43201500000)])),
    (TIMETZ, arr(TIMETZ, [q(43200000000) + i32(-19800), q(0) + i32(10800)])),
    (TIMESTAMP, arr(TIMESTAMP, [q(1500000), q(-86400000000), None])),
    (TIMESTAMPTZ, arr(TIMESTAMPTZ, [q(0), q(725846400000000)], dims=[(2, 3)])),
]
for elem, value in ROUND_TRIP:
    oid = ARRAY_OF[elem]
    got = bind_run("SELECT $1", [oid], [value], [1], 1)
    check("round trip %d %s" % (oid, value.hex()), got, (None, [oid], [oid], [(value,)]))

# the same values in text format, as array_out writes them
TEXT_OUT = [
    (INT4, arr(INT4, [i32(1), i32(2), i32(3), None], dims=[(2, 1), (2, 1)]), b"{{1,2},{3,NULL}}"),
    (INT4, arr(INT4, [i32(5), i32(6)], dims=[(2, 0)]), b"[0:1]={5,6}"),
    (INT4, arr(INT4, [], dims=[(0, 1)]), b"{}"),
    (TEXT, arr(TEXT, [b'a"b\\c', b"NULL", b"", b" x "]), b'{"a\\"b\\\\c","NULL",""," x "}'),
    (BPCHAR, arr(BPCHAR, [b"ab ", None]), b'{"ab ",NULL}'),
    (FLOAT4, arr(FLOAT4, [struct.pack("!f", x) for x in (float("nan"), float("inf"), -0.0, 0.1)]),
     b"{NaN,Infinity,-0,0.1}"),
    (NUMERIC, arr(NUMERIC, [h(2, 0, 0, 2, 1, 5000), h(1, 0, 0xD000, 0, 7)]), b"{1.50,Infinity}"),
    (DATE, arr(DATE, [i32(-1), i32(366)]), b"{1999-12-31,2001-01-01}"),
    (TIMESTAMPTZ, arr(TIMESTAMPTZ, [q(1500000)]), b'{"2000-01-01 00:00:01.5+00"}'),
    (TIMETZ, arr(TIMETZ, [q(43200000000) + i32(-19800)]), b"{12:00:00+05:30}"),
    (TIME, arr(TIME, [q(86400000000)]), b"{24:00:00}"),
    (BOOL, arr(BOOL, [b"\x02", b"\x00"]), b"{t,f}"),
]
for elem, value, text in TEXT_OUT:
    oid = ARRAY_OF[elem]
    got = bind_run("SELECT $1", [oid], [value], [1], 0)
    check("text out %d %s" % (oid, value.hex()), got, (None, [oid], [oid], [(text,)]))

# a user type's element OID (10000 and up) is no mismatch: read as expected
check("user element OID", bind_run("SELECT $1", [1000], [arr(12345, [b"\x01"])], [1], 0),
      (None, [1000], [1000], [(b"{t}",)]))
# a has-null flag that the elements do not bear out is not checked
check("flag without NULLs", bind_run("SELECT $1", [1007], [arr(INT4, [i32(1)], flag=1)], [1], 1),
      (None, [1007], [1007], [(arr(INT4, [i32(1)]),)]))

# ---- parameters typed by their use (no OIDs in the Parse) -----------------
c.query("DROP TABLE IF EXISTS abb")
check("create", c.query("CREATE TABLE abb (id int, a int[], t text[], v varchar(3)[], ch char(2)[], "
                        "n numeric(6,2)[], d date[])").error(), None)
A12 = arr(INT4, [i32(1), i32(2)])
check("insert inferred", bind_run("INSERT INTO abb (id, a, t, v, ch, n, d) VALUES (1, $1, $2, $3, $4, $5, $6)", [],
                                  [A12, arr(TEXT, [b"x", None]), arr(VARCHAR, [b"ab"]), arr(BPCHAR, [b"a"]),
                                   arr(NUMERIC, [h(2, 0, 0, 3, 1, 5550)]), arr(DATE, [i32(1)])], [1], 0),
      (None, [1007, 1009, 1015, 1014, 1231, 1182], None, []))
check("select back", bind_run("SELECT a, t, v, ch, n, d FROM abb WHERE id = 1", [], [], [], 0),
      (None, [], [1007, 1009, 1015, 1014, 1231, 1182],
       [(b"{1,2}", b"{x,NULL}", b"{ab}", b'{"a "}', b"{1.56}", b"{2000-01-02}")]))
check("varchar(3)[] too long", bind_run("INSERT INTO abb (v) VALUES ($1)", [], [arr(VARCHAR, [b"abcd"])], [1], 0)[0],
      ("22001", "value too long for type character varying(3)"))
check("where a = $1", bind_run("SELECT id FROM abb WHERE a = $1", [], [A12], [1], 0),
      (None, [1007], [INT4], [(b"1",)]))
check("$1 || ARRAY[3]", bind_run("SELECT $1 || ARRAY[3]", [], [A12], [1], 1),
      (None, [1007], [1007], [(arr(INT4, [i32(1), i32(2), i32(3)]),)]))
check("$1::int8[]", bind_run("SELECT $1::int8[]", [], [arr(INT8, [q(5)])], [1], 0),
      (None, [1016], [1016], [(b"{5}",)]))
check("element type of the inferred type", bind_run("SELECT id FROM abb WHERE a = $1", [], [arr(INT8, [q(1)])],
                                                    [1], 0)[0],
      ("42804", "binary data has array element type 20 (bigint) instead of expected 23 (integer)"))
c.query("DROP TABLE abb")

# ---- array parameters in text format: read at Bind -------------------------
check("text {1,x}", bind_run("SELECT $1", [1007], [b"{1,x}"], [0], 0)[0],
      ("22P02", 'invalid input syntax for type integer: "x"'))
check("text [1:2]={1}", bind_run("SELECT $1::int[]", [], [b"[1:2]={1}"], [0], 0)[0],
      ("22P02", 'malformed array literal: "[1:2]={1}"'))
check("text [0:1]={5,6}", bind_run("SELECT $1", [1007], [b"[0:1]={5,6}"], [0], 1),
      (None, [1007], [1007], [(arr(INT4, [i32(5), i32(6)], dims=[(2, 0)]),)]))

# ---- array_recv's errors ---------------------------------------------------
ERRORS = [
    (1007, arr(TEXT, [b"1"]), "42804", "binary data has array element type 25 (text) instead of expected 23 (integer)"),
    (1015, arr(TEXT, [b"1"]), "42804",
     "binary data has array element type 25 (text) instead of expected 1043 (character varying)"),
    (1014, arr(VARCHAR, [b"1"]), "42804",
     "binary data has array element type 1043 (character varying) instead of expected 1042 (character)"),
    (1000, arr(600, [b"1"]), "42804", "binary data has array element type 600 (point) instead of expected 16 (boolean)"),
    (1185, arr(TIMESTAMP, []), "42804", "binary data has array element type 1114 (timestamp without time zone) "
     "instead of expected 1184 (timestamp with time zone)"),
    (1007, i32(7, 0, INT4), "54000", "number of array dimensions (7) exceeds the maximum allowed (6)"),
    (1007, i32(-1, 0, INT4), "22P03", "invalid number of dimensions: -1"),
    (1007, i32(1, 2, INT4, 1, 1, 4, 5), "22P03", "invalid array flags"),
    (1007, i32(1, 0), "08P01", "insufficient data left in message"),
    (1007, i32(1, 0, INT4, 1), "08P01", "insufficient data left in message"),
    (1007, i32(1, 0, INT4, 2, 1, 4, 5), "08P01", "insufficient data left in message"),
    (1007, i32(1, 0, INT4, 1, 1, 8, 5, 5), "22P03", "improper binary format in array element 1"),
    (1007, i32(1, 0, INT4, 1, 1, 2) + b"\0\1", "08P01", "insufficient data left in message"),
    (1007, i32(1, 0, INT4, 1, 1, 4, 5, 0), "22P03", "incorrect binary data format in bind parameter 1"),
    (1007, i32(1, 0, INT4, 1, 1, 5, 5) + b"\0", "22P03", "improper binary format in array element 1"),
    (1007, i32(1, 0, INT4, 1, 1, -2), "22P03", "insufficient data left in message"),
    (1007, i32(1, 0, INT4, 1, 1, 9, 1), "22P03", "insufficient data left in message"),
    (1007, i32(1, 0, INT4, -1, 1), "54000", "array size exceeds the maximum allowed (134217727)"),
    (1007, i32(2, 0, INT4, 100000, 1, 100000, 1), "54000", "array size exceeds the maximum allowed (134217727)"),
    (1007, i32(1, 0, INT4, 1, 2147483647, 4, 5), "54000", "array lower bound is too large: 2147483647"),
    (1007, i32(1, 0, INT4, 0, 1, 5), "22P03", "incorrect binary data format in bind parameter 1"),
    (1000, i32(1, 0, BOOL, 1, 1, 0), "08P01", "no data left in message"),
    (1009, arr(TEXT, [b"a\0b"]), "22021", 'invalid byte sequence for encoding "UTF8": 0x00'),
    (1009, arr(TEXT, [b"ok", b"a\xc3("]), "22021", 'invalid byte sequence for encoding "UTF8": 0xc3 0x28'),
    (1183, arr(TIME, [q(86400000001)]), "22008", "time out of range"),
    (1270, arr(TIMETZ, [q(0) + i32(57600)]), "22009", "time zone displacement out of range"),
    (1231, arr(NUMERIC, [h(1, 0, 0x1234, 0, 1)]), "22P03", 'invalid sign in external "numeric" value'),
    (1231, arr(NUMERIC, [h(1, 0, 0, 0, 10000)]), "22P03", 'invalid digit in external "numeric" value'),
    (1231, arr(NUMERIC, [h(0, 0, 0, 0x4000)]), "22P03", 'invalid scale in external "numeric" value'),
    (1231, arr(NUMERIC, [h(1, 0, 0, 0)]), "08P01", "insufficient data left in message"),
    (1231, arr(NUMERIC, [None, h(1, 0, 0, 0, 1, 7)]), "22P03", "improper binary format in array element 2"),
]
for oid, value, state, msg in ERRORS:
    r = bind_run("SELECT $1", [oid], [value], [1], 0)
    check("error %d %s" % (oid, value.hex()), r[0], (state, msg))
# the session goes on after a failed Bind
check("after errors", bind_run("SELECT $1", [1007], [A12], [1], 0), (None, [1007], [1007], [(b"{1,2}",)]))

# ---- scalar parameters: text checked as UTF-8, numeric as numeric_recv ------
for fmt in (0, 1):
    check("text 0xff fmt %d" % fmt, bind_run("SELECT $1", [TEXT], [b"\xff"], [fmt], 0)[0],
          ("22021", 'invalid byte sequence for encoding "UTF8": 0xff'))
    check("text overlong fmt %d" % fmt, bind_run("SELECT $1", [TEXT], [b"\xe0\x80\x80"], [fmt], 0)[0],
          ("22021", 'invalid byte sequence for encoding "UTF8": 0xe0 0x80 0x80'))
check("numeric short", bind_run("SELECT $1", [NUMERIC], [h(1, 0)], [1], 0)[0],
      ("08P01", "insufficient data left in message"))
check("numeric sign", bind_run("SELECT $1", [NUMERIC], [h(1, 0, 0x1234)], [1], 0)[0],
      ("22P03", 'invalid sign in external "numeric" value'))
check("numeric long", bind_run("SELECT $1", [NUMERIC], [h(1, 0, 0, 0, 1, 7)], [1], 0)[0],
      ("22P03", "incorrect binary data format in bind parameter 1"))
check("bool empty", bind_run("SELECT $1", [BOOL], [b""], [1], 0)[0], ("08P01", "no data left in message"))

# ---- binary results of scalar columns --------------------------------------
c.query("DROP TABLE IF EXISTS abr")
c.query("CREATE TABLE abr (c char(4), v varchar(4), i interval, s smallint)")
c.query("INSERT INTO abr VALUES ('ab', 'ab ', '1 year 2 days 3 sec', -2), (NULL, NULL, NULL, NULL)")
check("binary columns", bind_run("SELECT c, v, i, s FROM abr", [], [], [], 1),
      (None, [], [BPCHAR, VARCHAR, INTERVAL, INT2],
       [(b"ab  ", b"ab ", q(3000000) + i32(2, 12), struct.pack("!h", -2)), (None, None, None, None)]))
check("binary interval", bind_run("SELECT interval '-1 month -2 days 3.5 seconds', '1 day'::interval", [], [], [], 1),
      (None, [], [INTERVAL, INTERVAL], [(q(3500000) + i32(-2, -1), q(0) + i32(1, 0))]))
check("binary bpchar", bind_run("SELECT 'ab'::char(4) AS c, 'x '::bpchar, 'y'::varchar(3)", [], [], [], 1),
      (None, [], [BPCHAR, BPCHAR, VARCHAR], [(b"ab  ", b"x ", b"y")]))
check("binary equal constants", bind_run("SELECT 'ab'::varchar(5), 'ab'::char(4), 'ab'", [], [], [], 1),
      (None, [], [VARCHAR, BPCHAR, TEXT], [(b"ab", b"ab  ", b"ab")]))
check("binary interval param", bind_run("SELECT $1", [INTERVAL], [q(-1) + i32(3, -4)], [1], 1),
      (None, [INTERVAL], [INTERVAL], [(q(-1) + i32(3, -4),)]))
c.query("DROP TABLE abr")

c.close()
if failures:
    print("\n".join("FAIL " + f for f in failures))
    sys.exit(1)
print("array_bind_binary: %d round trips, %d errors, ok" % (len(ROUND_TRIP) + len(TEXT_OUT), len(ERRORS)))
