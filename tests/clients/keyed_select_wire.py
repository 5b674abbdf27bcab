#!/usr/bin/env python3
"""keyed_select_wire.py - SELECT by key (attu's db/db_keyed_select.c: the
row a PRIMARY KEY / UNIQUE key names found through the key index) through
the extended protocol, against a server in PGHOST / PGPORT / PGUSER /
PGDATABASE (protocol_script.sh runs it on PostgreSQL 15 and on attud,
which must agree): Parse with $n of the key's columns, typed and inferred,
Bind in text and binary (int4, int8, numeric as text), NULL parameters, a
key no row holds, one statement executed with many keys (each Execute
looks its own up), Execute's row limit over an aggregate and a
set-returning select list, Describe, a two-column key, and a second
session's committed change read by the next Execute."""
import struct
import sys

from pgwire_client import connect_from_env

c = connect_from_env()
c2 = connect_from_env()
failed = 0


def check(what, got, want):
    global failed
    if got != want:
        print("FAIL %s: got %r, want %r" % (what, got, want))
        failed += 1


def ok(conn, sql):
    r = conn.query(sql)
    if r.error():
        print("FAIL", sql, r.error())
        sys.exit(1)
    return r


ok(c, "DROP TABLE IF EXISTS kw, kw2")
ok(c, "CREATE TABLE kw (id INTEGER PRIMARY KEY, v BIGINT, s TEXT)")
ok(c, "INSERT INTO kw SELECT g, g * 10, 's' || g FROM generate_series(1, 5000) g")
ok(c, "CREATE TABLE kw2 (a INTEGER, b TEXT, v INTEGER, PRIMARY KEY (a, b))")
ok(c, "INSERT INTO kw2 SELECT g % 50, 'x' || (g / 50), g FROM generate_series(0, 999) g")

# a typed parameter, text and binary
c.parse("k1", "SELECT id, v, s FROM kw WHERE id = $1", [23])
check("parse k1", c.sync().error(), None)
r = c.run("k1", ["61"])
check("k1 text", (r.rows(), r.tags()), ([("61", "610", "s61")], ["SELECT 1"]))
r = c.run("k1", [struct.pack("!i", 62)], formats=[1])
check("k1 binary", r.rows(), [("62", "620", "s62")])
r = c.run("k1", [None])
check("k1 NULL", (r.rows(), r.tags()), ([], ["SELECT 0"]))
r = c.run("k1", ["99999"])
check("k1 absent", (r.rows(), r.tags()), ([], ["SELECT 0"]))
r = c.run("k1", ["x"])
check("k1 bad text", r.error() and r.error()[0], "22P02")
got = []
for k in (1, 2500, 5000, 5001, 7):
    got += c.run("k1", [str(k)]).rows()
check("k1 many keys", got, [("1", "10", "s1"), ("2500", "25000", "s2500"), ("5000", "50000", "s5000"),
                            ("7", "70", "s7")])

# the parameter's type inferred (int4 from the column), and other types
c.parse("k2", "SELECT s FROM kw WHERE id = $1 AND v > $2")
c.describe("S", "k2")
r = c.sync()
check("k2 param types", r.param_oids(), [23, 20])
r = c.run("k2", ["63", "0"])
check("k2", r.rows(), [("s63",)])
r = c.run("k2", ["63", "1000"])
check("k2 filtered", r.rows(), [])
c.parse("k3", "SELECT s FROM kw WHERE id = $1", [20])
check("k3 int8", c.run("k3", [struct.pack("!q", 64)], formats=[1]).rows(), [("s64",)])
c.parse("k4", "SELECT s FROM kw WHERE id = $1", [1700])
check("k4 numeric", c.run("k4", ["65.0"]).rows(), [("s65",)])
check("k4 numeric, fraction", c.run("k4", ["65.5"]).rows(), [])
c.parse("k5", "SELECT s FROM kw WHERE id = $1", [701])
check("k5 float8 (scans)", c.run("k5", ["66"]).rows(), [("s66",)])

# a row limit over the row's rows
c.parse("k6", "SELECT generate_series(1, v::int / 100) FROM kw WHERE id = $1")
c.bind("k6", ["70"], portal="p6")
c.execute("p6", 3)
c.execute("p6", 0)
r = c.sync()
check("k6 limited", (r.rows(), r.kinds().count("s"), r.tags()),
      ([("1",), ("2",), ("3",), ("4",), ("5",), ("6",), ("7",)], 1, ["SELECT 4"]))
c.parse("k7", "SELECT count(*), sum(v) FROM kw WHERE id = $1")
check("k7 aggregate", c.run("k7", ["71"]).rows(), [("1", "710")])
check("k7 aggregate, none", c.run("k7", ["0"]).rows(), [("0", None)])

# a two-column key, its parameters in either order
c.parse("k8", "SELECT v FROM kw2 WHERE b = $1 AND a = $2")
check("k8", c.run("k8", ["x3", "7"]).rows(), [("157",)])
check("k8 NULL", c.run("k8", [None, "7"]).rows(), [])

# another session's committed change, read by the next Execute
ok(c2, "UPDATE kw SET s = 'changed' WHERE id = 61")
ok(c2, "DELETE FROM kw WHERE id = 62")
ok(c2, "INSERT INTO kw VALUES (6000, 1, 'new')")
check("k1 after another session's UPDATE", c.run("k1", ["61"]).rows(), [("61", "610", "changed")])
check("k1 after another session's DELETE", c.run("k1", ["62"]).rows(), [])
check("k1 the row after it", c.run("k1", ["63"]).rows(), [("63", "630", "s63")])
check("k1 after another session's INSERT", c.run("k1", ["6000"]).rows(), [("6000", "1", "new")])

# a REPEATABLE READ block keeps its rows while the other session commits
ok(c, "BEGIN ISOLATION LEVEL REPEATABLE READ")
check("k1 in the block", c.run("k1", ["64"]).rows(), [("64", "640", "s64")])
ok(c2, "UPDATE kw SET s = 'later' WHERE id = 64")
ok(c2, "DELETE FROM kw WHERE id = 10")
check("k1 the snapshot's row", c.run("k1", ["64"]).rows(), [("64", "640", "s64")])
check("k1 the snapshot's deleted row", c.run("k1", ["10"]).rows(), [("10", "100", "s10")])
ok(c, "COMMIT")
check("k1 after the block", c.run("k1", ["64"]).rows(), [("64", "640", "later")])
check("k1 deleted after the block", c.run("k1", ["10"]).rows(), [])

ok(c, "DROP TABLE kw, kw2")
c.close()
c2.close()
if failed:
    sys.exit(1)
print("ok")
