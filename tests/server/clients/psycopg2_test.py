"""psycopg2 against attud: queries with parameters, transactions, COPY
both ways, errors with SQLSTATE, server-side cursor-free big fetch."""
import io
import os
import socket
import struct
import sys

import psycopg2
import psycopg2.errors

port = int(os.environ["ATTU_PORT"])


def described(prepare, name):
    """Runs the SQL PREPARE on a raw protocol v3 session, then Describe
    (statement) by name: the parameter OIDs of ParameterDescription."""
    s = socket.create_connection(("127.0.0.1", port))
    buf = b""

    def send(t, p):
        s.sendall(t + struct.pack("!i", len(p) + 4) + p)

    def until_ready():
        nonlocal buf
        out = []
        while True:
            while len(buf) < 5 or len(buf) < 1 + struct.unpack("!i", buf[1:5])[0]:
                chunk = s.recv(65536)
                assert chunk, "connection closed"
                buf += chunk
            n = struct.unpack("!i", buf[1:5])[0]
            t, p, buf = buf[:1], buf[5:1 + n], buf[1 + n:]
            assert t != b"E", p
            out.append((t, p))
            if t == b"Z":
                return out

    startup = struct.pack("!i", 196608) + b"user\0attu\0database\0attu\0\0"
    s.sendall(struct.pack("!i", len(startup) + 4) + startup)
    until_ready()
    send(b"Q", prepare.encode() + b"\0")
    until_ready()
    send(b"D", b"S" + name.encode() + b"\0")
    send(b"S", b"")
    oids = None
    for t, p in until_ready():
        if t == b"t":
            n = struct.unpack("!h", p[:2])[0]
            oids = list(struct.unpack("!%di" % n, p[2:2 + 4 * n]))
    send(b"X", b"")
    s.close()
    return oids


def binary_row(sql, params=()):
    """Runs sql with the extended protocol asking for binary results, with
    params (type OID, bytes) sent in binary: the RowDescription's type OIDs
    and the first DataRow's raw values."""
    s = socket.create_connection(("127.0.0.1", port))
    buf = b""

    def send(t, p):
        s.sendall(t + struct.pack("!i", len(p) + 4) + p)

    def until_ready():
        nonlocal buf
        out = []
        while True:
            while len(buf) < 5 or len(buf) < 1 + struct.unpack("!i", buf[1:5])[0]:
                chunk = s.recv(65536)
                assert chunk, "connection closed"
                buf += chunk
            n = struct.unpack("!i", buf[1:5])[0]
            t, p, buf = buf[:1], buf[5:1 + n], buf[1 + n:]
            assert t != b"E", p
            out.append((t, p))
            if t == b"Z":
                return out

    startup = struct.pack("!i", 196608) + b"user\0attu\0database\0attu\0\0"
    s.sendall(struct.pack("!i", len(startup) + 4) + startup)
    until_ready()
    send(b"P", b"\0" + sql.encode() + b"\0" + struct.pack("!h", len(params)) +
         b"".join(struct.pack("!i", oid) for oid, _ in params))
    values = b"".join(struct.pack("!i", len(v)) + v for _, v in params)
    formats = struct.pack("!hh", 1, 1) if params else struct.pack("!h", 0)   # all binary, or none given
    send(b"B", b"\0\0" + formats + struct.pack("!h", len(params)) + values +
         struct.pack("!hh", 1, 1))
    send(b"D", b"P\0")
    send(b"E", b"\0" + struct.pack("!i", 0))
    send(b"S", b"")
    oids, row = None, None
    for t, p in until_ready():
        if t == b"T":
            n = struct.unpack("!h", p[:2])[0]
            oids, off = [], 2
            for _ in range(n):
                off = p.index(b"\0", off) + 1
                oids.append(struct.unpack("!i", p[off + 6:off + 10])[0])
                off += 18
        if t == b"D" and row is None:
            n = struct.unpack("!h", p[:2])[0]
            row, off = [], 2
            for _ in range(n):
                ln = struct.unpack("!i", p[off:off + 4])[0]
                off += 4
                row.append(None if ln < 0 else p[off:off + ln])
                off += max(ln, 0)
    send(b"X", b"")
    s.close()
    return oids, row

conn = psycopg2.connect(host="127.0.0.1", port=port, user="attu", dbname="attu")
conn.autocommit = True
cur = conn.cursor()

cur.execute("SELECT %s, %s", ("it's", None))
assert cur.fetchone() == ("it's", None), "parameters"
assert cur.description[0].type_code == 25

cur.execute("SELECT 42")
assert cur.fetchone() == (42,)

cur.execute("CREATE TABLE t (a int, b text)")
data = "".join(f"{i},row{i}\n" for i in range(1000))
cur.copy_expert("COPY t FROM STDIN WITH (FORMAT csv)", io.StringIO(data))
assert cur.rowcount == 1000, cur.rowcount
out = io.StringIO()
cur.copy_expert("COPY t TO STDOUT WITH (FORMAT csv)", out)
assert sorted(out.getvalue().splitlines()) == sorted(data.splitlines())

cur.execute("SELECT * FROM t")
assert len(cur.fetchall()) == 1000

try:
    cur.execute("SELEC 1")
    raise SystemExit("syntax error not raised")
except psycopg2.errors.SyntaxError as e:
    assert e.pgcode == "42601", e.pgcode

if os.environ.get("ATTU_KIND") == "real":
    # char(n) is bpchar on the wire (OID 1042, typmod n + 4), its values
    # padded to n; a cast to text is text, unpadded (PostgreSQL 15)
    cur.execute("CREATE TABLE ch (c char(4), v varchar(5), b bpchar)")
    cur.execute("INSERT INTO ch VALUES ('ab', 'ab ', 'x ')")
    cur.execute("SELECT c, c::text, v, b, 'z'::char FROM ch")
    assert cur.fetchone() == ("ab  ", "ab", "ab ", "x ", "z")
    d = cur.description
    assert [x.type_code for x in d] == [1042, 25, 1043, 1042, 1042], [x.type_code for x in d]
    # psycopg2 reports a bpchar's length (typmod - 4) as internal_size, as
    # PostgreSQL 15 sends it (bpchar without a length: typmod -1)
    assert [d[i].internal_size for i in (0, 1, 3, 4)] == [4, -1, -1, 1], [tuple(x) for x in d]
    # GROUP BY and = ignore the padding
    cur.execute("INSERT INTO ch VALUES ('ab  ', 'q', NULL)")
    cur.execute("SELECT c, count(*) FROM ch WHERE c = 'ab' GROUP BY c")
    assert cur.fetchall() == [("ab  ", 2)]
    # COPY TO writes the padded value, as PostgreSQL's
    out = io.StringIO()
    cur.copy_expert("COPY (SELECT c, v FROM ch ORDER BY v) TO STDOUT WITH (FORMAT csv)", out)
    assert out.getvalue() == "ab  ,ab \nab  ,q\n", repr(out.getvalue())
    # a literal compares without its trailing spaces; ::text strips the padding
    cur.execute("SELECT 'x'::char(3) = 'x  ', 'x'::char(3)::text")
    assert cur.fetchone() == (True, "x")

    # varchar(n) and varchar are character varying on the wire (OID 1043,
    # typmod n + 4, -1 without a length; psycopg2's internal_size is the
    # typmod less 4), as PostgreSQL 15 describes them: a CASE or coalesce
    # keeps the length where every value has it, || and min are text
    cur.execute("CREATE TABLE vc (v5 varchar(5), v10 varchar(10), v varchar, t text)")
    cur.execute("INSERT INTO vc VALUES ('ab', 'abc', 'ab ', 'x')")
    cur.execute("SELECT v5, v, CAST(t AS varchar(3)), coalesce(v5, v5), coalesce(v5, v10), v5 || 'x',"
                " 'a'::varchar, min(v5) OVER (), lag(v5) OVER (), CASE WHEN t = 'x' THEN v5 ELSE v5 END FROM vc")
    assert cur.fetchone() == ("ab", "ab ", "x", "ab", "ab", "abx", "a", "ab", None, "ab")
    d = cur.description
    assert [x.type_code for x in d] == [1043, 1043, 1043, 1043, 1043, 25, 1043, 25, 1043, 1043], [x.type_code for x in d]
    assert [x.internal_size for x in d] == [5, -1, 3, 5, -1, -1, -1, -1, -1, 5], [tuple(x) for x in d]
    cur.execute("SELECT v5 FROM vc UNION SELECT v5 FROM vc")
    assert (cur.description[0].type_code, cur.description[0].internal_size) == (1043, 5), tuple(cur.description[0])
    cur.execute("SELECT v5 FROM vc UNION SELECT v10 FROM vc")
    assert (cur.description[0].type_code, cur.description[0].internal_size) == (1043, -1), tuple(cur.description[0])
    # a varchar without a length meets char(n) as bpchar: its trailing
    # blanks do not count
    cur.execute("SELECT 'a '::varchar = 'a'::char(3), 'a '::text = 'a'::char(3)")
    assert cur.fetchone() == (True, False)
    # a cast cuts to the length; an assignment of a longer value is 22001
    cur.execute("SELECT 'abcdef'::varchar(3)")
    assert cur.fetchone() == ("abc",)
    try:
        cur.execute("INSERT INTO vc (v5) VALUES ('abcdef')")
        raise AssertionError("no error for a value too long for varchar(5)")
    except psycopg2.errors.StringDataRightTruncation as e:
        assert e.pgcode == "22001", e.pgcode
    # ParameterDescription, which psycopg2 cannot ask for: a statement
    # PREPAREd in SQL, described by name over a raw socket. PostgreSQL
    # infers varchar (1043) from an IN list or an assignment to a varchar
    # column and from a cast to varchar(n), text (25) beside =
    assert described("PREPARE pv1 AS SELECT v5 FROM vc WHERE v5 IN ($1, $2) AND v = $3", "pv1") == [1043, 1043, 25]
    assert described("PREPARE pv2 AS INSERT INTO vc (v5, v) VALUES ($1, $2)", "pv2") == [1043, 1043]
    assert described("PREPARE pv3 AS SELECT $1::varchar(3), $2::varchar, $3::char(2)", "pv3") == [1043, 1043, 1042]

# timestamp with time zone: OID 1184, a datetime with tzinfo in the
# session's zone; SET TIME ZONE is reported by ParameterStatus
import datetime
if os.environ.get("ATTU_KIND") == "real":
    assert conn.get_parameter_status("TimeZone") == "UTC", conn.get_parameter_status("TimeZone")
    cur.execute("SET TIME ZONE 'America/New_York'")
    assert conn.get_parameter_status("TimeZone") == "America/New_York", conn.get_parameter_status("TimeZone")
    cur.execute("SELECT timestamptz '2024-07-01 12:00+00', timestamptz '2024-01-01 12:00+00', now()")
    d = cur.description
    assert [x.type_code for x in d] == [1184, 1184, 1184], [x.type_code for x in d]
    summer, winter, now = cur.fetchone()
    assert summer.utcoffset() == datetime.timedelta(hours=-4), summer
    assert winter.utcoffset() == datetime.timedelta(hours=-5), winter
    assert (summer.hour, winter.hour) == (8, 7), (summer, winter)
    assert now.tzinfo is not None and abs((datetime.datetime.now(datetime.timezone.utc) - now).total_seconds()) < 600, now
    ist = datetime.timezone(datetime.timedelta(hours=5, minutes=30))
    moment = datetime.datetime(2024, 3, 10, 2, 30, 15, 250000, tzinfo=ist)
    cur.execute("CREATE TABLE tzw (k int, t timestamptz)")
    cur.execute("INSERT INTO tzw VALUES (1, %s), (2, %s)", (moment, datetime.datetime(2024, 3, 10, 2, 30)))
    cur.execute("SELECT t FROM tzw ORDER BY k")
    got = [r[0] for r in cur.fetchall()]
    assert got[0] == moment and got[0].utcoffset() == datetime.timedelta(hours=-5), got
    # a naive datetime is read in the session's zone: 02:30 is in the gap
    assert got[1].isoformat() == "2024-03-10T03:30:00-04:00", got[1]
    cur.execute("SET TIME ZONE 'Asia/Kolkata'")
    assert conn.get_parameter_status("TimeZone") == "Asia/Kolkata"
    cur.execute("SELECT t FROM tzw WHERE k = 1")
    assert cur.fetchone()[0].isoformat() == "2024-03-10T02:30:15.250000+05:30"
    cur.execute("SET TIME ZONE DEFAULT")
    assert conn.get_parameter_status("TimeZone") == "UTC"
    assert described("PREPARE ptz AS SELECT $1::timestamptz, $2::timestamp with time zone", "ptz") == [1184, 1184]

# time without time zone: OID 1083, a datetime.time; binary results are
# int64 microseconds since midnight (time_send), 24:00:00 included
if os.environ.get("ATTU_KIND") == "real":
    cur.execute("SELECT time '12:34:56.789', '00:00'::time, NULL::time")
    assert [x.type_code for x in cur.description] == [1083, 1083, 1083], [x.type_code for x in cur.description]
    assert cur.fetchone() == (datetime.time(12, 34, 56, 789000), datetime.time(0, 0), None)
    cur.execute("CREATE TABLE tw (k int, t time)")
    cur.execute("INSERT INTO tw VALUES (1, %s), (2, %s), (3, %s)",
                (datetime.time(23, 59, 59, 999999), datetime.time(8, 30), None))
    cur.execute("SELECT k, t FROM tw WHERE t > %s ORDER BY t", (datetime.time(8, 0),))
    assert cur.fetchall() == [(2, datetime.time(8, 30)), (1, datetime.time(23, 59, 59, 999999))]
    cur.execute("SELECT t::text FROM tw ORDER BY k")
    assert [r[0] for r in cur.fetchall()] == ["23:59:59.999999", "08:30:00", None]
    oids, row = binary_row("SELECT time '12:34:56.789', time '24:00', t FROM tw WHERE k = 3")
    assert oids == [1083, 1083, 1083], oids
    assert struct.unpack("!q", row[0])[0] == 45296789000, row
    assert struct.unpack("!q", row[1])[0] == 86400000000, row
    assert row[2] is None, row
    assert described("PREPARE ptm AS SELECT $1::time, $2::time without time zone", "ptm") == [1083, 1083]
    # time with time zone: OID 1266, a datetime.time with tzinfo; binary
    # is timetz_send's int64 microseconds and int32 seconds west
    cur.execute("SELECT timetz '12:34:56.5+05:30', '07:00-08'::time with time zone")
    assert [x.type_code for x in cur.description] == [1266, 1266], [x.type_code for x in cur.description]
    a, b = cur.fetchone()
    assert (a.hour, a.minute, a.second, a.microsecond) == (12, 34, 56, 500000), a
    assert a.utcoffset() == datetime.timedelta(hours=5, minutes=30), a
    assert b.utcoffset() == datetime.timedelta(hours=-8), b
    cur.execute("CREATE TABLE tzt (k int, t timetz)")
    cur.execute("INSERT INTO tzt VALUES (1, %s)", (datetime.time(9, 15, tzinfo=datetime.timezone(datetime.timedelta(hours=2))),))
    cur.execute("SELECT t::text FROM tzt")
    assert cur.fetchone()[0] == "09:15:00+02"
    oids, row = binary_row("SELECT timetz '12:34:56.5+05:30', t FROM tzt")
    assert oids == [1266, 1266], oids
    assert struct.unpack("!qi", row[0]) == (45296500000, -19800), row
    assert struct.unpack("!qi", row[1]) == (33300000000, -7200), row
    # binary parameters: time_recv and timetz_recv
    oids, row = binary_row("SELECT $1::text, $2::text", [(1083, struct.pack("!q", 45296789000)),
                                                         (1266, struct.pack("!qi", 45296500000, -19800))])
    assert row == [b"12:34:56.789", b"12:34:56.5+05:30"], row
# arrays: the array types' OIDs, so psycopg2 reads them as lists; a list
# parameter is sent as ARRAY[...] (an empty one as '{}')
# (the real attud only: the fake database has no arrays)
if os.environ.get("ATTU_KIND") == "real":
    from decimal import Decimal
    cur.execute("SELECT ARRAY[1, 2, NULL], ARRAY['a b', 'c\"d', ''], ARRAY[1.5::float8], ARRAY[1::bigint],"
                " ARRAY[true, false], '{}'::int[], ARRAY[1.25, 2], ARRAY[1::smallint], ARRAY['x'::varchar]")
    d = cur.description
    assert [x.type_code for x in d] == [1007, 1009, 1022, 1016, 1000, 1007, 1231, 1005, 1015], [x.type_code for x in d]
    row = cur.fetchone()
    assert row == ([1, 2, None], ['a b', 'c"d', ''], [1.5], [1], [True, False], [], [Decimal('1.25'), Decimal('2')], [1], ['x']), row
    cur.execute("CREATE TABLE arrs (k int, a int[], t text[], d date[])")
    cur.execute("INSERT INTO arrs VALUES (%s, %s, %s, %s)", (1, [3, 1, None], ['x', 'y"z', '', None], [datetime.date(2024, 2, 29)]))
    cur.execute("INSERT INTO arrs VALUES (%s, %s, %s, %s)", (2, [], [], None))
    cur.execute("SELECT a, t, a[1], d FROM arrs ORDER BY k")
    got = cur.fetchall()
    assert got == [([3, 1, None], ['x', 'y"z', '', None], 3, [datetime.date(2024, 2, 29)]), ([], [], None, None)], got
    assert [x.type_code for x in cur.description] == [1007, 1009, 23, 1182], [x.type_code for x in cur.description]
    cur.execute("SELECT k FROM arrs WHERE %s = ANY(a) OR a = %s ORDER BY k", (3, []))
    assert cur.fetchall() == [(1,), (2,)]
    cur.execute("SELECT ARRAY['2024-01-02 03:04:05'::timestamp]")
    assert cur.description[0].type_code == 1115
    assert cur.fetchone()[0] == [datetime.datetime(2024, 1, 2, 3, 4, 5)]
    # char(n)[] (1014) and element modifiers: the element's typmod, as
    # PostgreSQL 15 describes them (internal_size: char(3) 3, numeric(5,2)
    # (5 << 16) | 2), also for a[i]; what || gives has none
    cur.execute("CREATE TABLE arrm (a char(3)[], n numeric(5,2)[], v varchar(4)[], b bpchar[])")
    cur.execute("INSERT INTO arrm VALUES (%s, %s, %s, %s)", (['a', 'bc'], [Decimal('1.555')], ['x'], ['y ']))
    cur.execute("SELECT a, n, v, b, a[1], a || 'x'::bpchar FROM arrm")
    d = [(x.type_code, x.internal_size) for x in cur.description]
    assert d == [(1014, 3), (1231, 327682), (1015, 4), (1014, -1), (1042, 3), (1014, -1)], d
    row = cur.fetchone()
    assert row == (['a  ', 'bc '], [Decimal('1.56')], ['x'], ['y '], 'a  ', ['a  ', 'bc ', 'x']), row

# implicit transactions (autocommit off: psycopg2 sends BEGIN)
conn.autocommit = False
cur.execute("SELECT 1")
assert conn.get_transaction_status() == psycopg2.extensions.TRANSACTION_STATUS_INTRANS
conn.rollback()
assert conn.get_transaction_status() == psycopg2.extensions.TRANSACTION_STATUS_IDLE
conn.close()
print("psycopg2: ok")
