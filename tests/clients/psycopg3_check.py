#!/usr/bin/env python3
"""psycopg3_check.py - psycopg 3 (Debian's python3-psycopg, 3.1) used as
its users use it, against a server in PGHOST / PGPORT / PGUSER /
PGDATABASE (protocol_script.sh runs it on PostgreSQL 15 and on attud, which
must give the same answers; the answers wanted here are PostgreSQL's):

  - connecting with and without a password (trust: libpq sends none),
    conn.info and the ParameterStatus values (server_version, TimeZone,
    DateStyle, integer_datetimes ...), a SET reported back, settings in
    options= ("-c name=value");
  - execute with parameters bound server-side (%s, %b binary, %t text,
    named %(x)s), binary=True cursors, the description's type OIDs and
    sizes;
  - row factories (dict_row, namedtuple_row, class_row, args_row);
  - executemany (pipeline mode when libpq has it), conn.pipeline() with
    several statements, an error inside a pipeline;
  - prepared statements: prepare=True and the automatic one after
    prepare_threshold runs, DEALLOCATE ALL (conn's prepared cache cleared);
  - transactions: conn.transaction() with nested savepoints, Rollback,
    autocommit, the transaction status;
  - server-side cursors (conn.cursor(name=...)): itersize, scroll,
    WITH HOLD, binary, with parameters;
  - cursor.copy(): COPY TO STDOUT read by rows() / read_row() with
    set_types (text and binary), COPY FROM STDIN by write_row (text and
    binary) and write();
  - types round-tripped in text and binary: int2/4/8, numeric, float4/8,
    text, bool, date, time, timestamp, timestamptz, interval, uuid, bytea,
    json/jsonb, int[] / text[], NULLs; TypeInfo.fetch and register_enum
    (psycopg's catalog queries against pg_type / pg_enum);
  - notices (a notice handler), LISTEN / NOTIFY through conn.notifies()
    and a notify handler;
  - errors by SQLSTATE (psycopg.errors.UniqueViolation ...), diag fields,
    the connection usable after; conn.cancel() of a statement waiting
    for a lock and of pg_sleep(5), statement_timeout;
  - multi-statement strings through the simple protocol (nextset), the
    same with parameters refused (42601); ClientCursor; cursor.stream();
  - the range types in text and binary, as parameters (%s, %b, %t) and
    results, their OIDs;
  - known differences (PostgreSQL must pass them, attud's are printed):
    client encodings other than UTF8.

Exits 77 (skipped) when psycopg 3 is not installed."""
import datetime
import decimal
import logging
import sys
import threading
import time
import uuid
from enum import Enum

try:
    import psycopg
    from psycopg import errors, sql
    from psycopg.rows import args_row, class_row, dict_row, namedtuple_row
    from psycopg.types import TypeInfo
    from psycopg.types.enum import EnumInfo, register_enum
    from psycopg.types.json import Json, Jsonb
    from psycopg.types.numeric import Int4
    from psycopg.types.range import Range
except ImportError:
    print("SKIP: /usr/bin/python3 has no psycopg 3 (apt install python3-psycopg)")
    sys.exit(77)

from wire_checks import expect, finish

# (psycopg logs the error it ignores leaving a pipeline that failed, which
# the pipeline check makes on purpose)
logging.getLogger("psycopg").setLevel(logging.ERROR)

D = decimal.Decimal
UTC = datetime.timezone.utc


def connect(**kw):
    """A connection to the server in the environment (libpq reads PG*)."""
    return psycopg.connect("", **kw)


def error_of(conn, query, params=None):
    """(the exception's class name, its SQLSTATE) of query; None if it works."""
    try:
        conn.execute(query, params)
    except psycopg.Error as ex:
        return (type(ex).__name__, ex.sqlstate)
    return None


def section(title):
    """Runs the function it decorates at once: an exception it lets out
    counts as one failure, and the next section still runs."""
    def run(fn):
        try:
            fn()
        except Exception as ex:
            expect(title + ": raised", "%s: %s" % (type(ex).__name__, str(ex).splitlines()[0]), None)
        return fn
    return run


def known(what, got, want, reason):
    """A check attud is known to fail (reason says why): PostgreSQL must
    pass it; against attud a difference is printed, not counted, and a
    pass is printed too, so the mark can go."""
    if not is_attu:
        expect(what, got, want)
    elif got != want:
        print("KNOWN DIFFERENCE", what, "(%s)\n  got: " % reason, got, "\n  want:", want)
    else:
        print("known difference passes now:", what)


def outcome(fn):
    """fn()'s answer, or its exception's class name."""
    try:
        return fn()
    except Exception as ex:
        return type(ex).__name__


# the connection the sections share (autocommit, so one failure leaves
# no block open for the next)
conn = connect(autocommit=True)
is_attu = "attu" in (conn.info.parameter_status("server_version") or "")


@section("connecting; conn.info and the parameter status")
def _():
    with_password = connect(password="not-asked-for", autocommit=True)
    expect("connect with a password", with_password.execute("SELECT 1").fetchone(), (1,))
    with_password.close()
    info = conn.info
    expect("server_version major", info.server_version // 10000, 15)
    expect("status", info.status, psycopg.pq.ConnStatus.OK)
    expect("transaction status idle", info.transaction_status, psycopg.pq.TransactionStatus.IDLE)
    expect("backend_pid", conn.execute("SELECT pg_backend_pid()").fetchone()[0], info.backend_pid)
    expect("encoding", info.encoding, "utf-8")
    for name, want in (("DateStyle", "ISO, MDY"), ("integer_datetimes", "on"),
                       ("standard_conforming_strings", "on"), ("client_encoding", "UTF8"),
                       ("server_encoding", "UTF8"), ("IntervalStyle", "postgres")):
        expect("parameter_status " + name, info.parameter_status(name), want)
    expect("no such parameter", info.parameter_status("no_such_thing"), None)
    conn.execute("SET TIME ZONE 'America/New_York'")
    expect("TimeZone after SET", info.parameter_status("TimeZone"), "America/New_York")
    expect("info.timezone", str(info.timezone), "America/New_York")
    conn.execute("SET TIME ZONE 'UTC'")
    expect("TimeZone after SET UTC", info.parameter_status("TimeZone"), "UTC")
    conn.execute("SET DateStyle TO 'ISO, DMY'")
    expect("DateStyle after SET", info.parameter_status("DateStyle"), "ISO, DMY")
    conn.execute("RESET DateStyle")
    expect("DateStyle after RESET", info.parameter_status("DateStyle"), "ISO, MDY")
    app = connect(application_name="psycopg3-check", autocommit=True)
    expect("application_name", (app.info.parameter_status("application_name"),
                                 app.execute("SHOW application_name").fetchone()[0]),
           ("psycopg3-check", "psycopg3-check"))
    app.close()
    # options= (libpq's startup option string): -c settings, as PostgreSQL
    # applies them before the session starts; the packet's own override
    opt = connect(options="-c TimeZone=Europe/Rome --statement-timeout=1234 -csearch_path=public "
                          "-c application_name=from\\ options", application_name="own", autocommit=True)
    expect("options", (opt.info.parameter_status("TimeZone"), opt.info.parameter_status("application_name"),
                       opt.execute("SHOW statement_timeout").fetchone()[0], opt.execute("SHOW search_path").fetchone()[0]),
           ("Europe/Rome", "own", "1234ms", "public"))
    opt.execute("RESET statement_timeout")
    expect("RESET to the option's value", opt.execute("SHOW statement_timeout").fetchone()[0], "1234ms")
    opt.close()


@section("execute with parameters: text, binary, the OIDs psycopg picks")
def _():
    cur = conn.cursor()
    cur.execute("SELECT %s, %s, %s, %s", (1, "it's", None, 2.5))
    expect("params %s", cur.fetchone(), (1, "it's", None, 2.5))
    # psycopg sends a small int as int2, a str as unknown (0): PostgreSQL types it
    expect("params %s types", [c.type_code for c in cur.description], [21, 25, 25, 701])
    values = (7, -(2 ** 40), "x y", True, D("12.345"), 0.125, datetime.date(2024, 2, 29),
              datetime.datetime(2024, 1, 2, 3, 4, 5, 600000),
              datetime.datetime(2024, 7, 1, 12, 0, tzinfo=UTC),
              datetime.timedelta(days=3, hours=4, microseconds=5),
              uuid.UUID("12345678-1234-5678-1234-567812345678"), b"\x00\x01\xff",
              [1, 2, None], ["a", "b c", None])
    for mark in ("%s", "%b", "%t"):
        cur.execute("SELECT " + ", ".join([mark] * len(values)), values)
        # a list of str goes in text format as text[] without an OID (0): a
        # bare SELECT of it answers text
        want = values if mark == "%b" else values[:-1] + ('{a,"b c",NULL}',)
        expect("round trip " + mark, cur.fetchone(), want)
    cur.execute("SELECT %(a)s + %(b)s, %(a)s", {"a": 40, "b": 2})
    expect("named params", cur.fetchone(), (42, 40))
    cur.execute("SELECT %s::int2 + 1, %s::int8 * 2, %s::numeric / 4", (1, 2, 10))
    expect("params cast", cur.fetchone(), (2, 4, D("2.5000000000000000")))
    cur.execute("SELECT %s->>'a', %s->'b', %s", (Json({"a": "x"}), Jsonb({"b": [1, 2]}), Jsonb(None)))
    expect("json params", cur.fetchone(), ("x", [1, 2], None))

    bcur = conn.cursor(binary=True)
    bcur.execute("SELECT 1::int2, 2::int4, 3::int8, 1.5::numeric, 0.5::float4, 0.25::float8, 'é'::text,"
                 " true, date '2024-02-29', time '12:34:56.5', timestamp '2024-01-02 03:04:05.6',"
                 " timestamptz '2024-07-01 12:00+02', interval '1 year 2 mons 3 days 04:05:06',"
                 " '12345678-1234-5678-1234-567812345678'::uuid, '\\x00ff'::bytea,"
                 " '{\"a\": 1}'::json, '{\"b\": [true]}'::jsonb, ARRAY[1, NULL, 3], ARRAY['x', NULL],"
                 " NULL::int, NULL::text")
    expect("binary results", bcur.fetchone(),
           (1, 2, 3, D("1.5"), 0.5, 0.25, "é", True, datetime.date(2024, 2, 29),
            datetime.time(12, 34, 56, 500000), datetime.datetime(2024, 1, 2, 3, 4, 5, 600000),
            datetime.datetime(2024, 7, 1, 10, 0, tzinfo=UTC),
            datetime.timedelta(days=428, seconds=14706), uuid.UUID("12345678-1234-5678-1234-567812345678"),
            b"\x00\xff", {"a": 1}, {"b": [True]}, [1, None, 3], ["x", None], None, None))
    expect("binary result OIDs", [c.type_code for c in bcur.description],
           [21, 23, 20, 1700, 700, 701, 25, 16, 1082, 1083, 1114, 1184, 1186, 2950, 17, 114, 3802,
            1007, 1009, 23, 25])
    expect("binary result names", [c.name for c in bcur.description][:3], ["int2", "int4", "int8"])
    bcur.execute("SELECT %b::text, %t::int4 + 1", ("bin", 41))
    expect("binary cursor, params", bcur.fetchone(), ("bin", 42))


@section("types stored in a table and read back")
def _():
    conn.execute("CREATE TABLE kinds (i2 int2, i4 int4, i8 int8, n numeric, f4 float4, f8 float8,"
                 " t text, b bool, d date, tm time, ts timestamp, tz timestamptz, iv interval, u uuid,"
                 " by bytea, j json, jb jsonb, ai int[], at text[])")
    row = (32767, -2147483648, 9223372036854775807, D("-123456789.000000001"), 1.5, 1e-300,
           "tab\tnew\nline \\ quote'", False, datetime.date(1999, 12, 31), datetime.time(23, 59, 59, 999999),
           datetime.datetime(2000, 1, 1, 0, 0, 0, 1), datetime.datetime(2024, 3, 10, 2, 30, 15, 250000, tzinfo=UTC),
           datetime.timedelta(days=-1, seconds=5), uuid.UUID(int=1), bytes(range(256)),
           Json([1, "two", None]), Jsonb({"k": {"n": 1.5}}), [3, None, -1], ["", "NULL", None, 'q"uote'])
    want_row = row[:15] + ([1, "two", None], {"k": {"n": 1.5}}) + row[17:]
    nulls = (None,) * len(row)
    # the description's sizes: RowDescription's typlen and typmod
    d = conn.execute("SELECT i2, n, u, tz, 1.5::numeric(6,2), 'x'::varchar(7), 'y'::char(2) FROM kinds").description
    expect("description sizes", [(c.name, c.type_code, c.display_size, c.internal_size, c.precision, c.scale)
                                 for c in d],
           [("i2", 21, None, 2, None, None), ("n", 1700, None, None, None, None), ("u", 2950, None, 16, None, None),
            ("tz", 1184, None, 8, None, None), ("numeric", 1700, None, None, 6, 2),
            ("varchar", 1043, 7, None, None, None), ("bpchar", 1042, None, None, None, None)])
    for mark in ("%s", "%b", "%t"):
        conn.execute("DELETE FROM kinds")
        conn.execute("INSERT INTO kinds VALUES (" + ", ".join([mark] * len(row)) + ")", row)
        conn.execute("INSERT INTO kinds VALUES (" + ", ".join([mark] * len(row)) + ")", nulls)
        for binary in (False, True):
            got = conn.cursor(binary=binary).execute("SELECT * FROM kinds ORDER BY i2 NULLS LAST").fetchall()
            expect("kinds %s binary=%s" % (mark, binary), got, [want_row, nulls])


@section("row factories")
def _():
    q = "SELECT 1 AS a, 'x' AS b, NULL::int AS c"
    expect("dict_row", conn.cursor(row_factory=dict_row).execute(q).fetchone(), {"a": 1, "b": "x", "c": None})
    nt = conn.cursor(row_factory=namedtuple_row).execute(q).fetchone()
    expect("namedtuple_row", (nt.a, nt.b, nt.c, type(nt).__name__), (1, "x", None, "Row"))


    class Pair:
        def __init__(self, a, b, c):
            self.v = (a, b, c)


    expect("class_row", conn.cursor(row_factory=class_row(Pair)).execute(q).fetchone().v, (1, "x", None))
    expect("args_row", conn.cursor(row_factory=args_row(lambda *a: list(a))).execute(q).fetchone(), [1, "x", None])
    dconn = connect(autocommit=True, row_factory=dict_row)
    expect("connection row_factory", dconn.execute("SELECT 2 AS two").fetchall(), [{"two": 2}])
    dconn.close()


@section("executemany, pipelines")
def _():
    expect("pipeline supported", psycopg.Pipeline.is_supported(), True)
    conn.execute("CREATE TABLE many (k int PRIMARY KEY, v text)")
    cur = conn.cursor()
    cur.executemany("INSERT INTO many VALUES (%s, %s)", [(i, "v%d" % i) for i in range(50)])
    expect("executemany rowcount", cur.rowcount, 50)
    cur.executemany("INSERT INTO many VALUES (%s, %s) RETURNING k * 10, v", [(100, "a"), (101, "b")], returning=True)
    got = [cur.fetchone()]
    while cur.nextset():
        got.append(cur.fetchone())
    expect("executemany returning", got, [(1000, "a"), (1010, "b")])
    with conn.pipeline() as p:
        c1 = conn.execute("SELECT count(*) FROM many")
        c2 = conn.execute("UPDATE many SET v = %s WHERE k < %s", ("u", 5))
        c3 = conn.execute("SELECT v FROM many WHERE k = %b", (3,))
        p.sync()
        expect("pipeline results", (c1.fetchone(), c2.rowcount, c3.fetchone()), ((52,), 5, ("u",)))
    try:
        with conn.pipeline():
            conn.execute("INSERT INTO many VALUES (%s, 'dup')", (1,))
            after = conn.execute("SELECT 1")
        expect("pipeline error raised", "no error", "UniqueViolation")
    except errors.UniqueViolation as ex:
        expect("pipeline error", ex.sqlstate, "23505")
    expect("pipeline usable after an error", conn.execute("SELECT count(*) FROM many").fetchone(), (52,))
    with conn.transaction():
        with conn.pipeline():
            conn.cursor().executemany("UPDATE many SET v = %s WHERE k = %s", [("w%d" % i, i) for i in range(10)])
    expect("executemany in a block", conn.execute("SELECT count(*) FROM many WHERE v LIKE 'w%'").fetchone(), (10,))


@section("prepared statements")
def _():
    def prepared_names(c):
        return sorted(r[0] for r in c.execute("SELECT name FROM pg_prepared_statements").fetchall())


    pconn = connect(autocommit=True)
    pconn.execute("SELECT %s::int + 1", (1,), prepare=True)
    expect("prepare=True", prepared_names(pconn), ["_pg3_0"])
    expect("prepare=True reused", pconn.execute("SELECT %s::int + 1", (5,), prepare=True).fetchone(), (6,))
    for i in range(6):
        got = pconn.execute("SELECT v FROM many WHERE k = %s", (i,)).fetchone()
    expect("auto-prepared answer", got, ("w5",))
    expect("auto-prepared after 5 runs", prepared_names(pconn), ["_pg3_0", "_pg3_1"])
    expect("prepared never", pconn.execute("SELECT %s::text", ("n",), prepare=False).fetchone(), ("n",))
    # psycopg deallocates what falls out of its cache (prepared_max) by name
    pconn.prepared_max = 1
    pconn.execute("SELECT %s::int * 3", (3,), prepare=True)
    pconn.execute("SELECT 1")   # the DEALLOCATE goes before the next statement
    expect("deallocated by psycopg", prepared_names(pconn), ["_pg3_2"])
    pconn.close()


@section("transactions")
def _():
    tconn = connect()   # autocommit off: psycopg sends BEGIN before the first statement
    TS = psycopg.pq.TransactionStatus
    tconn.execute("CREATE TABLE tx (k int)")
    expect("in a block", tconn.info.transaction_status, TS.INTRANS)
    tconn.commit()
    expect("after commit", tconn.info.transaction_status, TS.IDLE)
    tconn.execute("INSERT INTO tx VALUES (1)")
    tconn.rollback()
    expect("rolled back", tconn.execute("SELECT count(*) FROM tx").fetchone(), (0,))
    tconn.rollback()
    with tconn.transaction():
        tconn.execute("INSERT INTO tx VALUES (1)")
        with tconn.transaction():
            tconn.execute("INSERT INTO tx VALUES (2)")
            with tconn.transaction() as inner:
                tconn.execute("INSERT INTO tx VALUES (3)")
                raise psycopg.Rollback(inner)
        try:
            with tconn.transaction():
                tconn.execute("INSERT INTO tx VALUES (4)")
                tconn.execute("SELECT 1/0")
        except errors.DivisionByZero:
            pass
        expect("savepoint rolled back, block alive", tconn.info.transaction_status, TS.INTRANS)
    expect("nested transactions", tconn.execute("SELECT k FROM tx ORDER BY k").fetchall(), [(1,), (2,)])
    tconn.rollback()
    tconn.autocommit = True
    tconn.execute("INSERT INTO tx VALUES (5)")
    expect("autocommit idle", tconn.info.transaction_status, TS.IDLE)
    with tconn.transaction():
        tconn.execute("INSERT INTO tx VALUES (6)")
        expect("transaction() in autocommit", tconn.info.transaction_status, TS.INTRANS)
    expect("after the block", tconn.execute("SELECT count(*) FROM tx").fetchone(), (4,))
    tconn.autocommit = False
    tconn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
    expect("isolation level", tconn.execute("SHOW transaction_isolation").fetchone(), ("repeatable read",))
    tconn.rollback()
    tconn.read_only = True
    expect("read only", error_of(tconn, "INSERT INTO tx VALUES (7)"), ("ReadOnlySqlTransaction", "25006"))
    tconn.rollback()
    tconn.close()


@section("server-side cursors")
def _():
    sconn = connect()
    with sconn.cursor(name="ssc") as sc:
        sc.itersize = 7
        sc.execute("SELECT k, v FROM many WHERE k < %s ORDER BY k", (20,))
        expect("named cursor description", [c.name for c in sc.description], ["k", "v"])
        rows = list(sc)
        expect("named cursor iterated", (len(rows), rows[0], rows[-1]), (20, (0, "w0"), (19, "v19")))
    with sconn.cursor(name="scroll", scrollable=True) as sc:
        sc.execute("SELECT k FROM many ORDER BY k")
        sc.scroll(10, mode="absolute")
        expect("scroll absolute", sc.fetchone(), (10,))
        sc.scroll(-3)
        expect("scroll relative", sc.fetchmany(2), [(8,), (9,)])
        expect("rownumber", sc.rownumber, 10)
        expect("fetchall rest", len(sc.fetchall()), 42)
    with sconn.cursor(name="bin", binary=True, row_factory=dict_row) as sc:
        sc.execute("SELECT k, v, %s::numeric AS n FROM many WHERE k = 1", (D("1.5"),))
        expect("binary named cursor", sc.fetchall(), [{"k": 1, "v": "w1", "n": D("1.5")}])
    sconn.commit()
    hold = sconn.cursor(name="held", withhold=True)
    hold.execute("SELECT k FROM many ORDER BY k LIMIT 3")
    sconn.commit()
    expect("WITH HOLD after commit", hold.fetchall(), [(0,), (1,), (2,)])
    hold.close()
    sconn.commit()
    expect("no cursors left", sconn.execute("SELECT count(*) FROM pg_cursors").fetchone(), (0,))
    sconn.close()


@section("COPY")
def _():
    conn.execute("CREATE TABLE cp (k int, t text, d date, n numeric, a int[])")
    cur = conn.cursor()
    rows = [(1, "one", datetime.date(2024, 1, 1), D("1.5"), [1, 2]),
            (2, "tab\there", None, D("-2"), None),
            (3, None, datetime.date(2000, 2, 29), None, [])]
    with cur.copy("COPY cp FROM STDIN") as copy:
        for r in rows[:2]:
            copy.write_row(r)
    expect("COPY FROM text rowcount", cur.rowcount, 2)
    with cur.copy("COPY cp (k, t, d, n, a) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(["int4", "text", "date", "numeric", "int4[]"])
        copy.write_row(rows[2])
    with cur.copy("COPY cp FROM STDIN (FORMAT CSV)") as copy:
        copy.write(b"4,four,2024-12-25,4.25,{4}\n5,,,,\n")
    expect("COPY FROM csv write()", cur.rowcount, 2)
    rows += [(4, "four", datetime.date(2024, 12, 25), D("4.25"), [4]), (5, None, None, None, None)]
    expect("COPY FROM result", conn.execute("SELECT * FROM cp ORDER BY k").fetchall(), rows)
    with cur.copy("COPY (SELECT * FROM cp ORDER BY k) TO STDOUT") as copy:
        copy.set_types(["int4", "text", "date", "numeric", "int4[]"])
        got = list(copy.rows())
    expect("COPY TO rows()", got, rows)
    with cur.copy("COPY cp TO STDOUT") as copy:
        got = list(copy.rows())   # no types set: each value a str
    expect("COPY TO rows() untyped", min(got), ("1", "one", "2024-01-01", "1.5", "{1,2}"))
    with cur.copy("COPY (SELECT * FROM cp ORDER BY k) TO STDOUT (FORMAT BINARY)") as copy:
        copy.set_types(["int4", "text", "date", "numeric", "int4[]"])
        got = []
        while (r := copy.read_row()) is not None:
            got.append(r)
    expect("COPY TO binary read_row()", got, rows)
    with cur.copy("COPY (SELECT k, t FROM cp WHERE k < 3 ORDER BY k) TO STDOUT (FORMAT CSV, HEADER)") as copy:
        data = b"".join(bytes(b) for b in copy)
    expect("COPY TO csv blocks", data, b"k,t\n1,one\n2,tab\there\n")
    # every type of the kinds table through COPY, text and binary, both ways
    kinds_types = ["int2", "int4", "int8", "numeric", "float4", "float8", "text", "bool", "date", "time",
                   "timestamp", "timestamptz", "interval", "uuid", "bytea", "json", "jsonb", "int4[]", "text[]"]
    want = conn.execute("SELECT * FROM kinds ORDER BY i2 NULLS LAST").fetchall()
    conn.execute("CREATE TABLE kinds_copy AS SELECT * FROM kinds WHERE false")
    for fmt in ("", " (FORMAT BINARY)"):
        with cur.copy("COPY (SELECT * FROM kinds ORDER BY i2 NULLS LAST) TO STDOUT" + fmt) as copy:
            copy.set_types(kinds_types)
            got = [tuple(bytes(v) if isinstance(v, memoryview) else v for v in r) for r in copy.rows()]
        expect("COPY TO kinds" + fmt, got, want)
        conn.execute("DELETE FROM kinds_copy")
        with cur.copy("COPY kinds_copy FROM STDIN" + fmt) as copy:
            copy.set_types(kinds_types)
            for r in got:
                copy.write_row(tuple(Jsonb(v) if isinstance(v, (dict, list)) and i in (15, 16) else v
                                     for i, v in enumerate(r)))
        expect("COPY FROM kinds" + fmt,
               conn.execute("SELECT * FROM kinds_copy ORDER BY i2 NULLS LAST").fetchall(), want)
    try:
        with cur.copy("COPY cp (k) FROM STDIN") as copy:
            copy.write(b"not a number\n")
        expect("COPY bad data raised", "no error", "InvalidTextRepresentation")
    except errors.InvalidTextRepresentation as ex:
        expect("COPY bad data", ex.sqlstate, "22P02")
    expect("usable after a failed COPY", conn.execute("SELECT count(*) FROM cp").fetchone(), (5,))


@section("psycopg's catalog queries: TypeInfo, enums")
def _():
    ti = TypeInfo.fetch(conn, "int4")
    expect("TypeInfo int4", (ti.name, ti.oid, ti.array_oid, ti.regtype, ti.delimiter), ("int4", 23, 1007, "integer", ","))
    ti = TypeInfo.fetch(conn, "text[]")
    expect("TypeInfo text[]", (ti.name, ti.oid, ti.array_oid), ("_text", 1009, 0))
    expect("TypeInfo missing", TypeInfo.fetch(conn, "no_such_type"), None)
    conn.execute("CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')")
    ei = EnumInfo.fetch(conn, "mood")
    expect("EnumInfo", (ei.name, ei.labels, ei.oid > 0, ei.array_oid > 0), ("mood", ["sad", "ok", "happy"], True, True))


    class Mood(Enum):
        sad = "sad"
        ok = "ok"
        happy = "happy"


    register_enum(ei, conn, Mood)
    conn.execute("CREATE TABLE moods (k int, m mood)")
    conn.cursor().executemany("INSERT INTO moods VALUES (%s, %s)", [(1, Mood.happy), (2, Mood.sad), (3, None)])
    expect("enum text", conn.execute("SELECT m FROM moods ORDER BY m").fetchall(), [(Mood.sad,), (Mood.happy,), (None,)])
    expect("enum binary", conn.cursor(binary=True).execute("SELECT m, ARRAY[m] FROM moods WHERE k = 1").fetchone(),
           (Mood.happy, [Mood.happy]))
    expect("enum param", conn.execute("SELECT k FROM moods WHERE m > %s", (Mood.sad,)).fetchall(), [(1,)])
    # registered, an enum goes in binary under its own OID (enum_recv: the label)
    expect("enum binary params", conn.execute("SELECT k FROM moods WHERE m = %b OR m = ANY(%b) ORDER BY k",
                                              (Mood.sad, [Mood.happy])).fetchall(), [(1,), (2,)])


@section("notices; LISTEN / NOTIFY")
def _():
    notices = []
    conn.add_notice_handler(lambda d: notices.append((d.severity, d.sqlstate, d.message_primary)))
    conn.execute("DROP TABLE IF EXISTS no_such_table")
    conn.execute("COMMIT")
    expect("notices", notices, [("NOTICE", "00000", 'table "no_such_table" does not exist, skipping'),
                                ("WARNING", "25P01", "there is no transaction in progress")])

    listener = connect(autocommit=True)
    own = []
    listener.add_notify_handler(lambda n: own.append((n.channel, n.payload)))
    listener.execute("LISTEN ch")
    listener.execute("NOTIFY ch, 'to myself'")
    expect("own notification, through the handler", own, [("ch", "to myself")])
    del own[:]


    def notify_soon(payloads, delay):
        def run():
            time.sleep(delay)
            with connect(autocommit=True) as c:
                for p in payloads:
                    c.execute("SELECT pg_notify('ch', %s)", (p,))
        t = threading.Thread(target=run)
        t.start()
        return t


    sender = notify_soon(["first", "second"], 0.2)
    # psycopg 3.1's notifies() has no timeout: a third notification, sent
    # 5 s later, ends the wait should the first two not come
    guard = notify_soon(["timeout"], 5.0)
    got = []
    for n in listener.notifies():
        got.append(n.payload)
        expect("notification's pid", n.pid != listener.info.backend_pid, True)
        if len(got) == 2:
            break
    sender.join()
    guard.join()
    expect("notifies()", got, ["first", "second"])
    listener.close()


@section("errors")
def _():
    conn.execute("CREATE TABLE uniq (k int PRIMARY KEY)")
    conn.execute("INSERT INTO uniq VALUES (1)")
    try:
        conn.execute("INSERT INTO uniq VALUES (%s)", (1,))
        expect("unique violation raised", None, "UniqueViolation")
    except errors.UniqueViolation as ex:
        d = ex.diag
        expect("unique violation", (ex.sqlstate, d.sqlstate, d.severity, d.message_primary, d.message_detail,
                                    d.table_name, d.constraint_name),
               ("23505", "23505", "ERROR", 'duplicate key value violates unique constraint "uniq_pkey"',
                "Key (k)=(1) already exists.", "uniq", "uniq_pkey"))
        expect("is an IntegrityError", isinstance(ex, psycopg.IntegrityError), True)
    expect("usable after", conn.execute("SELECT count(*) FROM uniq").fetchone(), (1,))
    # the other integrity errors name their table, column, constraint
    conn.execute("CREATE TABLE child (k int NOT NULL REFERENCES uniq (k), c int CHECK (c > 0))")

    def diag(query):
        try:
            conn.execute(query)
        except psycopg.Error as ex:
            d = ex.diag
            return (type(ex).__name__, d.schema_name, d.table_name, d.column_name, d.constraint_name)
    expect("not null diag", diag("INSERT INTO child VALUES (NULL, 1)"),
           ("NotNullViolation", "public", "child", "k", None))
    expect("check diag", diag("INSERT INTO child VALUES (1, -1)"),
           ("CheckViolation", "public", "child", None, "child_c_check"))
    expect("foreign key diag", diag("INSERT INTO child VALUES (2, 1)"),
           ("ForeignKeyViolation", "public", "child", None, "child_k_fkey"))
    conn.execute("INSERT INTO child VALUES (1, 1)")
    expect("foreign key diag, referenced", diag("DELETE FROM uniq"),
           ("ForeignKeyViolation", "public", "child", None, "child_k_fkey"))
    expect("syntax error", error_of(conn, "SELEC 1"), ("SyntaxError", "42601"))
    expect("undefined table", error_of(conn, "SELECT * FROM nope"), ("UndefinedTable", "42P01"))
    expect("undefined column", error_of(conn, "SELECT nope FROM uniq"), ("UndefinedColumn", "42703"))
    expect("division by zero", error_of(conn, "SELECT 1 / %s", (0,)), ("DivisionByZero", "22012"))
    expect("bad param", error_of(conn, "SELECT %t::int", ("x",)), ("InvalidTextRepresentation", "22P02"))
    expect("too few params", error_of(conn, "SELECT $1, $2", (1,)) is not None, True)
    try:
        conn.execute("SELECT 1 FROM uniq WHERE nope = 1")
    except errors.UndefinedColumn as ex:
        expect("statement_position", ex.diag.statement_position, "26")
    expect("errors.lookup", errors.lookup("23505").__name__, "UniqueViolation")
    econn = connect()
    expect("in a failed block", (error_of(econn, "SELECT 1/0"), error_of(econn, "SELECT 1")),
           (("DivisionByZero", "22012"), ("InFailedSqlTransaction", "25P02")))
    expect("status in error", econn.info.transaction_status, psycopg.pq.TransactionStatus.INERROR)
    econn.rollback()
    expect("after rollback", econn.execute("SELECT 1").fetchone(), (1,))
    econn.close()


@section("cancel: a statement waiting for another session's lock, pg_sleep")
def _():
    conn.execute("CREATE TABLE locked (k int)")
    conn.execute("INSERT INTO locked VALUES (1)")
    holder = connect()
    holder.execute("UPDATE locked SET k = 2")
    waiter = connect(autocommit=True)
    timer = threading.Timer(0.5, waiter.cancel)
    timer.start()
    t0 = time.time()
    expect("cancelled", error_of(waiter, "UPDATE locked SET k = 3"), ("QueryCanceled", "57014"))
    expect("cancelled soon", time.time() - t0 < 4, True)
    timer.join()
    holder.rollback()
    expect("usable after cancel", waiter.execute("UPDATE locked SET k = 4").rowcount, 1)
    holder.close()
    waiter.close()
    # conn.cancel() of pg_sleep, which attu sleeps while it binds the
    # statement, checking for a cancel every 10 ms
    sleeper = connect(autocommit=True)
    timer = threading.Timer(0.5, sleeper.cancel)
    timer.start()
    t0 = time.time()
    expect("pg_sleep cancelled", error_of(sleeper, "SELECT pg_sleep(5)"), ("QueryCanceled", "57014"))
    expect("pg_sleep cancelled soon", time.time() - t0 < 3, True)
    timer.join()
    expect("pg_sleep returns void ('')", sleeper.execute("SELECT pg_sleep(%s)", (0.01,)).fetchone(), ("",))
    sleeper.close()
    # statement_timeout ends the same wait with the same SQLSTATE
    holder = connect()
    holder.execute("UPDATE locked SET k = 5")
    waiter = connect(autocommit=True)
    waiter.execute("SET statement_timeout = 300")
    expect("statement_timeout", error_of(waiter, "UPDATE locked SET k = 6"), ("QueryCanceled", "57014"))
    holder.close()
    waiter.close()


@section("several statements in one string; ClientCursor; stream")
def _():
    cur = conn.cursor()
    cur.execute("SELECT 1; SELECT 2, 3 UNION ALL SELECT 4, 5; CREATE TABLE multi (k int); INSERT INTO multi VALUES (1)")
    sets = [cur.fetchall()]
    while cur.nextset():
        sets.append(cur.fetchall() if cur.description else cur.statusmessage)
    expect("multi-statement results", sets, [[(1,)], [(2, 3), (4, 5)], "CREATE TABLE", "INSERT 0 1"])
    expect("multi-statement with params", error_of(conn, "SELECT %s; SELECT 2", (1,)), ("SyntaxError", "42601"))
    expect("conn.execute multi", conn.execute("SELECT 7; SELECT 8").fetchall(), [(7,)])
    ccur = psycopg.ClientCursor(conn)
    ccur.execute("SELECT %s, %s, %s; SELECT %s", ("it's", None, D("1.5"), [1, 2]))
    sets = [ccur.fetchall()]
    ccur.nextset()
    sets.append(ccur.fetchall())
    expect("ClientCursor", sets, [[("it's", None, D("1.5"))], [([1, 2],)]])
    expect("mogrify", ccur.mogrify("SELECT %s, %s", ("a'b", True)), "SELECT 'a''b', true")
    expect("stream", [r[0] for r in conn.cursor().stream("SELECT k FROM many WHERE k < %s ORDER BY k", (4,))],
           [0, 1, 2, 3])
    query = sql.SQL("SELECT {} FROM {} WHERE {} = %s").format(sql.Identifier("v"), sql.Identifier("many"),
                                                             sql.Identifier("k"))
    expect("psycopg.sql", conn.execute(query, (1,)).fetchone(), ("w1",))



@section("range types")
def _():
    expect("int4range upper", conn.execute("SELECT int4range(1, 3)").fetchone()[0].upper, 3)
    conn.execute("CREATE TABLE rng (i4 int4range, i8 int8range, n numrange, d daterange, ts tsrange, tz tstzrange)")
    row = (Range(1, 5), Range(None, 10, "(]"), Range(D("1.50"), D("2.250"), "[]"),
           Range(datetime.date(2024, 1, 1), datetime.date(2024, 2, 1)),
           Range(datetime.datetime(2024, 1, 1, 10, 30), None),
           Range(datetime.datetime(2024, 1, 1, tzinfo=UTC), datetime.datetime(2024, 1, 2, tzinfo=UTC), "[]"))
    want_row = (Range(1, 5), Range(None, 11), row[2], row[3], row[4], row[5])
    empties = (Range(empty=True),) * 6
    for mark in ("%s", "%b", "%t"):
        conn.execute("DELETE FROM rng")
        conn.execute("INSERT INTO rng VALUES (" + ", ".join([mark] * 6) + ")", row)
        conn.execute("INSERT INTO rng VALUES (" + ", ".join([mark] * 6) + ")", empties)
        for binary in (False, True):
            got = conn.cursor(binary=binary).execute("SELECT * FROM rng ORDER BY i4").fetchall()
            expect("ranges %s binary=%s" % (mark, binary), got, [empties, want_row])
    expect("range OIDs", [c.type_code for c in conn.execute("SELECT * FROM rng").description],
           [3904, 3926, 3906, 3912, 3908, 3910])
    expect("range contains param", conn.execute("SELECT i4 @> %s, n @> %s FROM rng ORDER BY i4", (Int4(4), D("2.25"))).fetchall(),
           [(False, False), (True, True)])


@section("known differences")
def _():
    c = connect(autocommit=True)
    c.execute("SET DateStyle = 'German'")   # (attu prints German dates now: psycopg reads them)
    expect("DateStyle German", outcome(lambda: c.execute("SELECT date '2024-02-29'").fetchone()),
           (datetime.date(2024, 2, 29),))
    c.close()
    c = connect(autocommit=True, client_encoding="LATIN1")
    known("client_encoding LATIN1", (c.info.encoding, c.execute("SELECT 'é'").fetchone()), ("iso8859-1", ("é",)),
          "attu speaks UTF8 only")
    c.close()


conn.close()
if is_attu:
    print("(against attud)")
finish("psycopg3_check")
