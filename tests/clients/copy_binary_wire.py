#!/usr/bin/env python3
"""copy_binary_wire.py - COPY's binary format on the wire: COPY TO STDOUT
(FORMAT binary) of every type attu sends in binary (integers, floats,
numeric, bool, text / varchar / char, date, timestamp(tz), time, interval,
uuid, bytea, json / jsonb, arrays), NULLs, an empty table, many rows, a
query, a column list; CopyOutResponse / CopyInResponse with format 1;
COPY FROM STDIN (FORMAT binary) of that output back into a table, with a
column list, a header extension, data without its trailer, and its errors
(a bad signature, the header's flags, a wrong field count, truncated data,
a field longer or shorter than its type, a bad field length, data after
the trailer, CopyFail), each with PostgreSQL's SQLSTATE, message and
CONTEXT and loading nothing; options refused in binary mode; and COPY's
CSV options FORCE_QUOTE, FORCE_NOT_NULL, FORCE_NULL, ENCODING, HEADER
MATCH and their misuse; COPY TO a server file (binary, text and CSV: the
bytes COPY TO STDOUT sends, read back by COPY FROM the file; the tag, no
CopyOutResponse; a relative path, a missing folder, a file outside
attud's --load-dir). Against a server in PGHOST / PGPORT / PGUSER /
PGDATABASE: protocol_script.sh runs it on PostgreSQL 15 and on attud, which
must give the same answers, byte for byte (the expected COPY TO outputs
below are PostgreSQL 15's)."""
import hashlib
import os
import re
import shutil
import struct
import sys
import tempfile

from pgwire_client import connect_from_env

failures = []
SHOW = "--show" in sys.argv


def check(what, got, want):
    if SHOW:
        print(what, "=", repr(got))
        return
    if got != want:
        failures.append(what)
        print("FAIL", what, "\n  got ", got, "\n  want", want)


c = connect_from_env()
c.query("SET TimeZone = 'UTC'")
c.query("SET datestyle = 'ISO, MDY'")
SIG = b"PGCOPY\n\xff\r\n\x00"
HEAD = SIG + struct.pack("!ii", 0, 0)
TRAILER = struct.pack("!h", -1)


def err(r):
    """(SQLSTATE, message, CONTEXT) of a Reply's error, or None."""
    f = r.error_fields()
    return f and (f.get("C"), f.get("M"), f.get("W"))


def copy_out(sql):
    r = c.query(sql)
    return r.copy_data() if not r.error() else err(r)


def rows(sql):
    r = c.query(sql)
    return r.rows() if not r.error() else err(r)


def tup(*fields):
    """One tuple: the field count, then each field (bytes, or None)."""
    b = struct.pack("!h", len(fields))
    for f in fields:
        b += struct.pack("!i", -1) if f is None else struct.pack("!i", len(f)) + f
    return b


def i4(v):
    return struct.pack("!i", v)


for t in ("cb_all", "cb_all2", "cb_ints", "cb_many", "cb_empty", "cb_nn", "cb_csv", "cb_csv2"):
    c.query("DROP TABLE IF EXISTS " + t)

# ---- every type, out and back in
COLS = ("a int2, b int4, c int8, d float4, e float8, f numeric, g numeric(10,3), h bool, i text, "
        "j varchar(10), k char(5), l date, m timestamp, n timestamptz, o time, p interval, q uuid, "
        "r bytea, s json, t jsonb, u int4[], v text[], w numeric[], x date[]")
c.query("CREATE TABLE cb_all (id int4, %s)" % COLS)
c.query("CREATE TABLE cb_all2 (id int4, %s)" % COLS)
c.query("""INSERT INTO cb_all VALUES
 (1, -32768, 2147483647, -9223372036854775808, 1.5, -2.25e100, 123456789.000123, 3.14159, true,
  'tab\there, back\\slash, nl
  end', 'héllo', 'ab', '2024-02-29', '1999-12-31 23:59:59.999999', '2000-01-01 00:00:00+00',
  '23:59:59.5', '1 year 2 mons 3 days 04:05:06.7', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
  '\\x00ff5c0a', '{"k": [1, 2]}', '{"b": 1, "a": [true, null]}', '{1,NULL,3}', '{"x y",NULL,"\\\\"}',
  '{1.5,-0.001,NaN}', '{2020-01-01,infinity}'),
 (2, 0, 0, 0, 'NaN', '-Infinity', 'NaN', 0, false, '', '', '', '-infinity', 'infinity', '1900-01-01 00:00:00+00',
  '00:00:00', '-1 days', '00000000-0000-0000-0000-000000000000', '', 'null', '[]', '{}', '{}', '{}', '{}'),
 (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
 (4, 1, -1, 1, 'Infinity', 1e-300, '-0.5', '-99.999', true, 'x', 'y', 'z', '0001-01-01', '2262-04-11 23:47:16',
  '1970-01-01 00:00:01.25+00', '12:00', '-6 mons -1 days -00:00:01', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '\\x01', '"s"', '"s"', '{{1,2},{3,4}}', '{a}', '{NULL}', '{NULL}')""")
r = c.query("COPY cb_all TO STDOUT (FORMAT binary)")
check("all: CopyOutResponse", r.copy_response(), (1, [1] * 25))
ALL = r.copy_data()
check("all: tags", r.tags(), ["COPY 4"])
check("all: sha256", hashlib.sha256(ALL).hexdigest(), '9754a2bcdd2239f679e0b33ab1f76629f1087e42463da9cd828f78649ca00feb')
check("all: header", ALL[:19], HEAD)
check("all: trailer", ALL[-2:], TRAILER)
r = c.copy_in("COPY cb_all2 FROM STDIN (FORMAT binary)", [ALL[:7], ALL[7:100], ALL[100:]])
check("all in: CopyInResponse", r.copy_response(), (1, [1] * 25))
check("all in: tag", (r.tags(), err(r)), (["COPY 4"], None))
check("all in: same text", rows("SELECT * FROM cb_all2 ORDER BY id"), rows("SELECT * FROM cb_all ORDER BY id"))
check("all in: same binary", copy_out("COPY cb_all2 TO STDOUT (FORMAT binary)"), ALL)
check("all in: text out", copy_out("COPY (SELECT * FROM cb_all2 ORDER BY id) TO STDOUT"),
      copy_out("COPY (SELECT * FROM cb_all ORDER BY id) TO STDOUT"))

# ---- small tables, byte for byte
c.query("CREATE TABLE cb_ints (a int4, b text, c int8 DEFAULT 7)")
c.query("INSERT INTO cb_ints VALUES (1, 'one', 10), (NULL, NULL, NULL), (-2, 'two', -20)")
check("ints out", copy_out("COPY cb_ints TO STDOUT WITH (FORMAT binary)"),
      HEAD + tup(i4(1), b"one", struct.pack("!q", 10)) + tup(None, None, None)
      + tup(i4(-2), b"two", struct.pack("!q", -20)) + TRAILER)
r = c.query("COPY cb_ints TO STDOUT (FORMAT binary)")
check("ints out: a CopyData for each tuple (the header with the first), the trailer",
      [len(p) for t, p in r.msgs if t == "d"], [19 + 29, 2 + 3 * 4, 29, 2])
r = c.query("COPY (SELECT * FROM cb_ints ORDER BY c) TO STDOUT")
check("text out: a CopyData for each row", [p for t, p in r.msgs if t == "d"],
      [b"-2\ttwo\t-20\n", b"1\tone\t10\n", b"\\N\t\\N\t\\N\n"])
r = c.query("COPY (SELECT * FROM cb_ints ORDER BY c) TO STDOUT (FORMAT csv, HEADER)")
check("csv out: the header line, then a CopyData for each row", [p for t, p in r.msgs if t == "d"],
      [b"a,b,c\n", b"-2,two,-20\n", b"1,one,10\n", b",,\n"])
check("ints out: columns", copy_out("COPY cb_ints (c, a) TO STDOUT (FORMAT binary)"),
      HEAD + tup(struct.pack("!q", 10), i4(1)) + tup(None, None) + tup(struct.pack("!q", -20), i4(-2)) + TRAILER)
check("ints out: old spelling", copy_out("COPY cb_ints (a) TO STDOUT BINARY"),
      HEAD + tup(i4(1)) + tup(None) + tup(i4(-2)) + TRAILER)
check("query out", copy_out("COPY (SELECT a, b FROM cb_ints WHERE a > 0 ORDER BY a) TO STDOUT (FORMAT 'binary')"),
      HEAD + tup(i4(1), b"one") + TRAILER)
c.query("CREATE TABLE cb_empty (a int4, b text)")
r = c.query("COPY cb_empty TO STDOUT (FORMAT binary)")
check("empty out", (r.copy_data(), r.tags(), r.copy_response()), (HEAD + TRAILER, ["COPY 0"], (1, [1, 1])))
check("empty out: one CopyData", [len(p) for t, p in r.msgs if t == "d"], [19 + 2])

# in: a column list (the others take their DEFAULT), a header extension,
# no trailer, an empty load
r = c.copy_in("COPY cb_ints (b, a) FROM STDIN (FORMAT binary)",
              [HEAD + tup(b"five", i4(5)) + tup(None, i4(6)) + TRAILER])
check("in: columns", (r.tags(), err(r), r.copy_response()), (["COPY 2"], None, (1, [1, 1])))
ext = SIG + struct.pack("!ii", 0x1234, 5) + b"xxxxx"
r = c.copy_in("COPY cb_ints FROM STDIN (FORMAT binary)", [ext + tup(i4(7), b"seven", None)])
check("in: extension, no trailer, low flags", (r.tags(), err(r)), (["COPY 1"], None))
check("in: rows", rows("SELECT a, b, c FROM cb_ints ORDER BY a NULLS FIRST"),
      [(None, None, None), ("-2", "two", "-20"), ("1", "one", "10"), ("5", "five", "7"), ("6", None, "7"),
       ("7", "seven", None)])
r = c.copy_in("COPY cb_empty FROM STDIN (FORMAT binary)", [HEAD + TRAILER])
check("in: empty", (r.tags(), err(r)), (["COPY 0"], None))
r = c.copy_in("COPY cb_empty FROM STDIN (FORMAT binary)", [HEAD + TRAILER[:1]])
check("in: half a trailer", (r.tags(), err(r)), (["COPY 0"], None))

# ---- many rows
c.query("CREATE TABLE cb_many (a int8, b text, c float8)")
c.query("INSERT INTO cb_many SELECT g, 'row ' || g, g / 4.0 FROM generate_series(1, 20000) g")
MANY = copy_out("COPY (SELECT * FROM cb_many ORDER BY a) TO STDOUT (FORMAT binary)")
check("many out", (len(MANY), hashlib.sha256(MANY).hexdigest()),
      (768915, '31d02d18694d9065066ad48d512fe8a8ce7319ace98d7b64865ae6826db0d9a0'))
r = c.copy_in("COPY cb_many FROM STDIN (FORMAT binary)", [MANY[i:i + 8192] for i in range(0, len(MANY), 8192)])
check("many in", (r.tags(), err(r)), (["COPY 20000"], None))
check("many in: rows", rows("SELECT count(*), count(DISTINCT a), sum(c) FROM cb_many"), [("40000", "20000", "100005000")])

# ---- errors: each loads nothing
BEFORE = rows("SELECT count(*) FROM cb_ints")


def bad(what, data, want, table="cb_ints", cols=""):
    r = c.copy_in("COPY %s%s FROM STDIN (FORMAT binary)" % (table, cols), [data])
    check(what, (r.tags(), (err(r) or ())[:len(want)]), ([], want))


bad("bad signature", b"PGCOPY\n\xff\r\n\x01" + HEAD[11:], ("22P04", "COPY file signature not recognized", None))
bad("short signature", b"PGCOP", ("22P04", "COPY file signature not recognized", None))
bad("text data", b"1\tone\t2\n", ("22P04", "COPY file signature not recognized", None))
bad("no data", b"", ("22P04", "COPY file signature not recognized", None))
bad("missing flags", SIG + b"\0\0", ("22P04", "invalid COPY file header (missing flags)", None))
bad("with oids", SIG + struct.pack("!ii", 1 << 16, 0), ("22P04", "invalid COPY file header (WITH OIDS)", None))
bad("critical flags", SIG + struct.pack("!ii", 1 << 17, 0),
    ("22P04", "unrecognized critical flags in COPY file header", None))
bad("missing length", SIG + i4(0) + b"\0", ("22P04", "invalid COPY file header (missing length)", None))
bad("negative length", SIG + i4(0) + i4(-1), ("22P04", "invalid COPY file header (missing length)", None))
bad("wrong length", SIG + i4(0) + i4(10) + b"abc", ("22P04", "invalid COPY file header (wrong length)", None))
bad("field count", HEAD + tup(i4(1), b"x", None) + tup(i4(1), b"x"),
    ("22P04", "row field count is 2, expected 3", "COPY cb_ints, line 2"))
bad("field count 0", HEAD + struct.pack("!h", 0), ("22P04", "row field count is 0, expected 3", "COPY cb_ints, line 1"))
bad("truncated length", HEAD + tup(i4(1), b"x", None)[:-2],
    ("22P04", "unexpected EOF in COPY data", "COPY cb_ints, line 1, column c"))
bad("truncated value", HEAD + tup(i4(1), b"xyz", None)[:12],
    ("22P04", "unexpected EOF in COPY data", "COPY cb_ints, line 1, column b"))
bad("field size -2", HEAD + struct.pack("!hi", 3, -2), ("22P04", "invalid field size", "COPY cb_ints, line 1, column a"))
bad("int4 of 8 bytes", HEAD + tup(struct.pack("!q", 1), b"x", None),
    ("22P03", "incorrect binary data format", "COPY cb_ints, line 1, column a"))
bad("int4 of 2 bytes", HEAD + tup(b"\0\1", b"x", None),
    ("08P01", "insufficient data left in message", "COPY cb_ints, line 1, column a"))
bad("int8 of 4 bytes", HEAD + tup(i4(1), b"x", i4(1)),
    ("08P01", "insufficient data left in message", "COPY cb_ints, line 1, column c"))
bad("bad utf8", HEAD + tup(i4(1), b"\xff", None),
    ("22021", 'invalid byte sequence for encoding "UTF8": 0xff', "COPY cb_ints, line 1, column b"))
bad("data after trailer", HEAD + tup(i4(1), b"x", None) + TRAILER + b"z",
    ("22P04", "received copy data after EOF marker", "COPY cb_ints, line 2"))
bad("column list count", HEAD + tup(i4(1), b"x", None),
    ("22P04", "row field count is 3, expected 1", "COPY cb_ints, line 1"), cols=" (a)")
bad("numeric digits", HEAD + tup(struct.pack("!hhhhh", 1, 0, 0, 0, 10000)),
    ("22P03", 'invalid digit in external "numeric" value', "COPY cb_all2, line 1, column f"),
    table="cb_all2", cols=" (f)")
bad("date range", HEAD + tup(i4(2145031949)), ("22008", "date out of range", "COPY cb_all2, line 1, column l"),
    table="cb_all2", cols=" (l)")
bad("jsonb version", HEAD + tup(b"\x02{}"), ("XX000", "unsupported jsonb version number 2", "COPY cb_all2, line 1, column t"),
    table="cb_all2", cols=" (t)")
# (attu's errors of the loaded text, after the values were read, carry no
# CONTEXT: only the SQLSTATE and message are compared)
bad("varchar too long", HEAD + tup(b"12345678901"), ("22001", "value too long for type character varying(10)"),
    table="cb_all2", cols=" (j)")
r = c.copy_in("COPY cb_ints FROM STDIN (FORMAT binary)", [HEAD + tup(i4(9), b"x", None)], fail="client gave up")
check("copy fail", (r.tags(), err(r)), ([], ("57014", "COPY from stdin failed: client gave up", "COPY cb_ints, line 2")))
r = c.copy_in("COPY cb_ints FROM STDIN (FORMAT binary)", [HEAD[:5]], fail="early")
check("copy fail in the header", (r.tags(), err(r)), ([], ("57014", "COPY from stdin failed: early", None)))
check("errors loaded nothing", rows("SELECT count(*) FROM cb_ints"), BEFORE)
check("no such column", err(c.copy_in("COPY cb_ints (zz) FROM STDIN (FORMAT binary)")),
      ("42703", 'column "zz" of relation "cb_ints" does not exist', None))

# NOT NULL, and a transaction block's ROLLBACK
c.query("CREATE TABLE cb_nn (a int4 NOT NULL)")
r = c.copy_in("COPY cb_nn FROM STDIN (FORMAT binary)", [HEAD + tup(i4(1)) + tup(None)])
check("not null", (r.tags(), (err(r) or ())[:1]), ([], ("23502",)))
c.query("BEGIN")
r = c.copy_in("COPY cb_nn FROM STDIN (FORMAT binary)", [HEAD + tup(i4(1)) + tup(i4(2))])
check("in a block", (r.tags(), err(r)), (["COPY 2"], None))
check("in a block: seen", rows("SELECT count(*) FROM cb_nn"), [("2",)])
c.query("ROLLBACK")
check("rolled back", rows("SELECT count(*) FROM cb_nn"), [("0",)])

# ---- options refused in binary mode
for what, opts, want in [
        ("binary delimiter", "FORMAT binary, DELIMITER ','", ("42601", "cannot specify DELIMITER in BINARY mode", None)),
        ("binary null", "FORMAT binary, NULL 'x'", ("42601", "cannot specify NULL in BINARY mode", None)),
        ("binary header", "FORMAT binary, HEADER", ("0A000", "cannot specify HEADER in BINARY mode", None)),
        ("binary quote", "FORMAT binary, QUOTE '\"'", ("0A000", "COPY quote available only in CSV mode", None)),
        ("binary force_quote", "FORMAT binary, FORCE_QUOTE *", ("0A000", "COPY force quote available only in CSV mode", None)),
]:
    check(what, err(c.query("COPY cb_ints TO STDOUT (%s)" % opts)), want)

# ---- CSV options
c.query("CREATE TABLE cb_csv (a int4, b text, c text)")
c.query("INSERT INTO cb_csv VALUES (1, 'x', NULL), (2, '', 'y,z'), (NULL, 'q\"', '')")
check("force_quote cols", copy_out("COPY cb_csv TO STDOUT (FORMAT csv, FORCE_QUOTE (a, c))"),
      b'"1",x,\n"2","","y,z"\n,"q""",""\n')
check("force_quote *", copy_out("COPY cb_csv TO STDOUT (FORMAT csv, FORCE_QUOTE *, HEADER)"),
      b'a,b,c\n"1","x",\n"2","","y,z"\n,"q""",""\n')
check("force_quote col list", copy_out("COPY cb_csv (c, b) TO STDOUT (FORMAT csv, FORCE_QUOTE (b))"),
      b',"x"\ny\\,z,""\n"","q"""\n'.replace(b"y\\,z", b'"y,z"'))
c.query("CREATE TABLE cb_csv2 (a int4, b text, c text)")
r = c.copy_in("COPY cb_csv2 FROM STDIN (FORMAT csv, FORCE_NOT_NULL (b), FORCE_NULL (c))",
              [b'1,,""\n2,"",x\n3,NA,"NA"\n'])
check("force_not_null / force_null", (r.tags(), err(r)), (["COPY 3"], None))
r = c.copy_in("COPY cb_csv2 FROM STDIN (FORMAT csv, NULL 'NA', FORCE_NOT_NULL (b), FORCE_NULL (c))",
              [b'4,NA,"NA"\n5,,\n'])
check("force with NULL 'NA'", (r.tags(), err(r)), (["COPY 2"], None))
check("force rows", rows("SELECT a, b, b IS NULL, c, c IS NULL FROM cb_csv2 ORDER BY a"),
      [('1', '', 'f', None, 't'), ('2', '', 'f', 'x', 'f'), ('3', 'NA', 'f', 'NA', 'f'), ('4', 'NA', 'f', None, 't'), ('5', '', 'f', '', 'f')])
for what, sql, want in [
        ("force_quote from", "COPY cb_csv FROM STDIN (FORMAT csv, FORCE_QUOTE (a))", ('0A000', 'COPY force quote only available using COPY TO', None)),
        ("force_quote text", "COPY cb_csv TO STDOUT (FORCE_QUOTE (a))", ('0A000', 'COPY force quote available only in CSV mode', None)),
        ("force_not_null to", "COPY cb_csv TO STDOUT (FORMAT csv, FORCE_NOT_NULL (a))", ('0A000', 'COPY force not null only available using COPY FROM', None)),
        ("force_not_null text", "COPY cb_csv FROM STDIN (FORCE_NOT_NULL (a))", ('0A000', 'COPY force not null available only in CSV mode', None)),
        ("force_null to", "COPY cb_csv TO STDOUT (FORMAT csv, FORCE_NULL (a))", ('0A000', 'COPY force null only available using COPY FROM', None)),
        ("force_null text", "COPY cb_csv FROM STDIN (FORCE_NULL (a))", ('0A000', 'COPY force null available only in CSV mode', None)),
        ("force_quote bad column", "COPY cb_csv TO STDOUT (FORMAT csv, FORCE_QUOTE (zz))", ('42703', 'column "zz" of relation "cb_csv" does not exist', None)),
        ("force_quote unlisted", "COPY cb_csv (a) TO STDOUT (FORMAT csv, FORCE_QUOTE (b))", ('42P10', 'FORCE_QUOTE column "b" not referenced by COPY', None)),
        ("force_not_null unlisted", "COPY cb_csv (a) FROM STDIN (FORMAT csv, FORCE_NOT_NULL (b))", ('42P10', 'FORCE_NOT_NULL column "b" not referenced by COPY', None)),
        ("force_null bad column", "COPY cb_csv FROM STDIN (FORMAT csv, FORCE_NULL (zz))", ('42703', 'column "zz" of relation "cb_csv" does not exist', None)),
        ("force_quote query", "COPY (SELECT 1 AS a) TO STDOUT (FORMAT csv, FORCE_QUOTE (a))", None),
        ("encoding bad", "COPY cb_csv TO STDOUT (ENCODING 'nope')", ('22023', 'argument to option "encoding" must be a valid encoding name', None)),
        ("header match to", "COPY cb_csv TO STDOUT (FORMAT csv, HEADER match)", ('0A000', 'cannot use "match" with HEADER in COPY TO', None)),
        ("header bad", "COPY cb_csv TO STDOUT (FORMAT csv, HEADER 'maybe')", ('42601', 'header requires a Boolean value or "match"', None)),
        ("format bad", "COPY cb_csv TO STDOUT (FORMAT 'xml')", ('22023', 'COPY format "xml" not recognized', None)),
        ("format twice", "COPY cb_csv TO STDOUT (FORMAT csv, FORMAT text)", ('42601', 'conflicting or redundant options', None)),
]:
    r = c.query(sql) if "FROM STDIN" not in sql else c.copy_in(sql, [b""])
    check(what, err(r), want)
check("encoding utf8 out", copy_out("COPY cb_csv (a) TO STDOUT (ENCODING 'UTF8')"), b"1\n2\n\\N\n")
r = c.copy_in("COPY cb_csv2 (a, b) FROM STDIN (FORMAT csv, HEADER match)", [b"a,b\n6,six\n"])
check("header match", (r.tags(), err(r)), (["COPY 1"], None))
# (attu words a CSV / text error "STDIN:line:column: message", without the
# CONTEXT line: that prefix is left out of the comparison)


def csv_err(r):
    e = err(r)
    return e and (e[0], re.sub(r"^STDIN:\d+:\d+: ", "", e[1]))


r = c.copy_in("COPY cb_csv2 (a, b) FROM STDIN (FORMAT csv, HEADER match)", [b"a,c\n7,seven\n"])
check("header match wrong name", (r.tags(), csv_err(r)),
      ([], ("22P04", 'column name mismatch in header line field 2: got "c", expected "b"')))
r = c.copy_in("COPY cb_csv2 (a, b) FROM STDIN (FORMAT csv, HEADER match)", [b"a\n7\n"])
check("header match wrong count", (r.tags(), csv_err(r)),
      ([], ("22P04", "wrong number of fields in header line: got 1, expected 2")))
r = c.copy_in("COPY cb_csv2 (a, b) FROM STDIN (FORMAT csv, HEADER match)", [b"a,b,c\n7,x\n"])
check("header match too many", (r.tags(), csv_err(r)),
      ([], ("22P04", "wrong number of fields in header line: got 3, expected 2")))
r = c.copy_in("COPY cb_csv2 (a, b) FROM STDIN (FORMAT csv, HEADER match)", [b"a,\n7,x\n"])
check("header match null", (r.tags(), csv_err(r)),
      ([], ("22P04", 'column name mismatch in header line field 2: got null value (""), expected "b"')))
r = c.copy_in("COPY cb_csv2 (b, a) FROM STDIN (FORMAT csv, HEADER match)", [b"a,b\n7,x\n"])
check("header match order", (r.tags(), csv_err(r)),
      ([], ("22P04", 'column name mismatch in header line field 1: got "a", expected "b"')))
r = c.copy_in("COPY cb_csv2 (a, b) FROM STDIN (HEADER match)", [b"a\tB\n7\tx\n"])
check("header match case", (r.tags(), csv_err(r)),
      ([], ("22P04", 'column name mismatch in header line field 2: got "B", expected "b"')))
r = c.copy_in("COPY cb_csv2 (a, b) FROM STDIN (HEADER match)", [b"a\tb\n8\teight\n"])
check("header match text", (r.tags(), err(r)), (["COPY 1"], None))

# ---- COPY TO a file on the server's machine (this one: its files are read
# here), in SERVER_TMP (attud's --load-dir), each format's bytes those of
# COPY TO STDOUT, read back by COPY FROM the file
base = os.environ.get("SERVER_TMP") or tempfile.mkdtemp(prefix="attu-copy-to.")
fdir = os.path.join(base, "copy_to")
os.makedirs(fdir, exist_ok=True)
os.chmod(fdir, 0o777)   # (PostgreSQL runs as nobody when we are root)
attu = "attu" in rows("SELECT version()")[0][0].lower()


def file_bytes(name):
    with open(os.path.join(fdir, name), "rb") as f:
        return f.read()


r = c.query("COPY cb_all TO '%s/all.bin' (FORMAT binary)" % fdir)
check("to file: binary tag, no CopyOutResponse", (r.tags(), err(r), r.copy_response(), r.copy_data()),
      (["COPY 4"], None, None, b""))
check("to file: binary bytes", file_bytes("all.bin"), ALL)
c.query("TRUNCATE cb_all2")
r = c.query("COPY cb_all2 FROM '%s/all.bin' (FORMAT binary)" % fdir)
check("to file: binary back in", (r.tags(), err(r)), (["COPY 4"], None))
check("to file: binary back in, same rows", copy_out("COPY cb_all2 TO STDOUT (FORMAT binary)"), ALL)
r = c.query("COPY (SELECT DISTINCT a, b, c FROM cb_many ORDER BY a) TO '%s/many.bin' BINARY" % fdir)
check("to file: many rows binary", (r.tags(), err(r), file_bytes("many.bin") == MANY), (["COPY 20000"], None, True))
r = c.query("COPY cb_ints (c, a) TO '%s/ints.bin' WITH (FORMAT binary)" % fdir)
check("to file: columns binary", (r.tags(), file_bytes("ints.bin")),
      (["COPY 6"], copy_out("COPY cb_ints (c, a) TO STDOUT WITH (FORMAT binary)")))
r = c.query("COPY cb_empty TO '%s/empty.bin' (FORMAT binary)" % fdir)
check("to file: empty binary", (r.tags(), file_bytes("empty.bin")), (["COPY 0"], HEAD + TRAILER))
for opts in ("FORMAT csv, FORCE_QUOTE (a, c)", "FORMAT csv, FORCE_QUOTE *, HEADER", "HEADER, NULL 'nil'",
             "FORMAT csv, DELIMITER '|', QUOTE '''', ESCAPE '!'"):
    r = c.query("COPY cb_csv TO '%s/csv.txt' (%s)" % (fdir, opts))
    check("to file: %s" % opts, (r.tags(), err(r), file_bytes("csv.txt")),
          (["COPY 3"], None, copy_out("COPY cb_csv TO STDOUT (%s)" % opts)))
r = c.query("COPY (SELECT a, b FROM cb_csv ORDER BY a) TO '%s/q.csv' CSV HEADER" % fdir)
check("to file: query, old spelling", (r.tags(), file_bytes("q.csv")), (["COPY 3"], b'a,b\n1,x\n2,""\n,"q"""\n'))
check("to file: relative", err(c.query("COPY cb_csv TO 'csv.txt'")),
      ("42602", "relative path not allowed for COPY to file", None))
r = c.query("COPY cb_csv TO '%s/no/csv.txt'" % fdir)
check("to file: no folder", (err(r), r.error_fields().get("H")),
      (("58P01", 'could not open file "%s/no/csv.txt" for writing: No such file or directory' % fdir, None),
       "COPY TO instructs the PostgreSQL server process to write a file. "
       "You may want a client-side facility such as psql's \\copy."))
# outside attud's --load-dir: 42501 (PostgreSQL has no such folder: it writes)
outside = tempfile.mkdtemp(prefix="attu-copy-outside.")
os.chmod(outside, 0o777)
r = c.query("COPY cb_csv TO '%s/x.txt'" % outside)
if attu:
    check("to file: outside --load-dir", err(r),
          ("42501", 'could not open file "%s/x.txt" for writing: outside the load directory' % outside, None))
    check("to file: (nothing written)", os.listdir(outside), [])
else:
    check("to file: anywhere", (r.tags(), err(r)), (["COPY 3"], None))
shutil.rmtree(outside, ignore_errors=True)

for t in ("cb_all", "cb_all2", "cb_ints", "cb_many", "cb_empty", "cb_nn", "cb_csv", "cb_csv2"):
    c.query("DROP TABLE IF EXISTS " + t)
c.close()
if failures:
    print("%d failures" % len(failures))
    sys.exit(1)
print("ok")
