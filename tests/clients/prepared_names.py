#!/usr/bin/python3
"""prepared_names.py - SQL PREPARE / EXECUTE / DEALLOCATE over the wire,
mixed with the extended protocol's named statements (Parse / Bind /
Describe / Close), against attud or PostgreSQL 15: both must answer the
same, since the two kinds of statement share PostgreSQL's one namespace
per session.

    prepared_names.py             # the server in PGHOST / PGPORT / PGUSER

A small protocol-v3 client (pgwire_client.py) sends what libpq and psycopg2
would not mix in one session (a Parse of a named statement beside SQL); psycopg2,
when installed, runs the SQL side the way applications write it (its
parameters interpolated into EXECUTE's argument list).
"""
import os
import sys
from decimal import Decimal

from pgwire_client import Conn


failures = []


def check(what, got, want):
    if got != want:
        failures.append("%s: got %r, want %r" % (what, got, want))


def err(r):
    e = r.error()
    return e[0] if e else None


host = os.environ.get("PGHOST", "127.0.0.1")
port = int(os.environ.get("PGPORT", "5433"))
user = os.environ.get("PGUSER", "attu")
dbname = os.environ.get("PGDATABASE", user)

c = Conn(host, port, user, dbname)
check("create", c.query("CREATE TABLE pn (id INTEGER, name TEXT)").tags(), ["CREATE TABLE"])
check("insert", c.query("INSERT INTO pn VALUES (1, 'one'), (2, 'two'), (3, 'three')").tags(), ["INSERT 0 3"])

# A Parse of a named statement, run by SQL EXECUTE
c.parse("s1", "SELECT name FROM pn WHERE id = $1", [23])
check("parse s1", c.sync().kinds(), "1")
r = c.query("EXECUTE s1(2)")
check("EXECUTE of a Parse'd statement", (r.rows(), r.tags()), ([("two",)], ["SELECT 1"]))
check("EXECUTE with a wrong count", err(c.query("EXECUTE s1")), "42601")

# SQL PREPARE of a name the protocol took, and a Parse of a name SQL took
check("PREPARE over a Parse'd name", err(c.query("PREPARE s1 AS SELECT 1")), "42P05")
check("PREPARE q", c.query("PREPARE q (INTEGER) AS SELECT id, name FROM pn WHERE id >= $1 ORDER BY id").tags(),
      ["PREPARE"])
c.parse("q", "SELECT 1")
check("Parse over a PREPAREd name", err(c.sync()), "42P05")

# Bind / Execute of the SQL-prepared statement, and its description
r = c.run("q", ["2"])
check("Bind of a PREPAREd statement", (r.rows(), r.tags()), ([("2", "two"), ("3", "three")], ["SELECT 2"]))
c.describe("S", "q")
r = c.sync()
check("Describe of a PREPAREd statement", (r.param_oids(), r.columns()), ([23], [("id", 23), ("name", 25)]))

# undeclared parameters of a PREPARE are typed by their use, and Describe
# says so (as for a Parse without types: param_types.py)
c.query("PREPARE inf AS SELECT name, $2 || '!' AS bang FROM pn WHERE id = $1")
c.describe("S", "inf")
r = c.sync()
check("Describe of inferred parameters", (r.param_oids(), r.columns()), ([23, 25], [("name", 25), ("bang", 25)]))
r = c.run("inf", ["3", "x"])
check("Bind of inferred parameters", r.rows(), [("three", "x!")])
check("EXECUTE with an inferred integer", c.query("EXECUTE inf(1.6, 5)").rows(), [("two", "5!")])

# an unnamed Parse of EXECUTE: described with the statement's columns
c.parse("", "EXECUTE q(3)")
c.describe("S", "")
r = c.sync()
check("Describe of EXECUTE", (r.param_oids(), r.columns()), ([], [("id", 23), ("name", 25)]))
r = c.run("", [])
check("Execute of EXECUTE", (r.rows(), r.tags()), ([("3", "three")], ["SELECT 1"]))

# DEALLOCATE drops the protocol's statement; Close drops the SQL one
check("DEALLOCATE s1", c.query("DEALLOCATE s1").tags(), ["DEALLOCATE"])
r = c.run("s1", ["1"])
check("Bind after DEALLOCATE", err(r), "26000")
c.close_stmt("q")
check("Close q", c.sync().kinds(), "3")
check("EXECUTE after Close", err(c.query("EXECUTE q(1)")), "26000")
check("DEALLOCATE after Close", err(c.query("DEALLOCATE q")), "26000")
c.close_stmt("q")   # closing a missing statement is no error
check("Close of a missing statement", c.sync().kinds(), "3")

# DEALLOCATE ALL drops both kinds but not the unnamed statement, which
# only a Parse of another unnamed one or a simple Query message drops
c.query("PREPARE b AS SELECT 'b'")
c.parse("a", "SELECT 'a'")
c.parse("", "DEALLOCATE ALL")
c.sync()
check("DEALLOCATE ALL, unnamed", c.run("").tags(), ["DEALLOCATE ALL"])
check("a after DEALLOCATE ALL", err(c.run("a")), "26000")
check("the unnamed one stays", c.run("").tags(), ["DEALLOCATE ALL"])
check("b after DEALLOCATE ALL", err(c.query("EXECUTE b")), "26000")
r = c.run("")
check("a Query drops the unnamed statement", r.error(), ("26000", "unnamed prepared statement does not exist"))
c.parse("a", "SELECT 'a'")
c.sync()
c.query("PREPARE b AS SELECT 'b'")
check("DISCARD ALL", c.query("DISCARD ALL").tags(), ["DISCARD ALL"])
check("a after DISCARD ALL", err(c.run("a")), "26000")
check("b after DISCARD ALL", err(c.query("EXECUTE b")), "26000")

# a portal keeps its statement while the name goes away (a named portal
# lives until the end of the transaction block)
c.query("PREPARE keep AS SELECT id FROM pn ORDER BY id")
check("BEGIN", c.query("BEGIN").tags(), ["BEGIN"])
c.bind("keep", [], portal="p1")
check("Bind p1", c.sync().kinds(), "2")
check("DEALLOCATE keep", c.query("DEALLOCATE keep").tags(), ["DEALLOCATE"])
c.execute("p1")
check("the portal runs without its name", c.sync().rows(), [("1",), ("2",), ("3",)])
check("COMMIT", c.query("COMMIT").tags(), ["COMMIT"])
check("keep is gone", err(c.query("EXECUTE keep")), "26000")

# a Parse of EXECUTE under its own name recurses until the stack is full
c.parse("rec", "EXECUTE rec")
c.sync()
check("recursive EXECUTE", err(c.run("rec")), "54001")
check("recursive EXECUTE from SQL", err(c.query("EXECUTE rec")), "54001")
check("the session goes on", c.query("SELECT 1").rows(), [("1",)])

# a Parse of PREPARE: the Parse'd statement has no parameters of its own
c.parse("mk", "PREPARE made (INTEGER) AS SELECT $1 + 1")
c.describe("S", "mk")
r = c.sync()
check("Parse of PREPARE", (err(r), r.param_oids()), (None, []))
check("Execute of PREPARE", c.run("mk").tags(), ["PREPARE"])
check("EXECUTE made", c.query("EXECUTE made(41)").rows(), [("42",)])
check("made twice", err(c.run("mk")), "42P05")

# UPDATE / DELETE ... RETURNING through the protocol: Describe announces
# the rows (a client told NoData would reject them), Execute's tag counts
c.parse("upd", "UPDATE pn SET name = $1 || name WHERE id = $2 RETURNING id, name AS renamed")
c.describe("S", "upd")
r = c.sync()
check("Describe of UPDATE ... RETURNING", (err(r), r.columns()), (None, [("id", 23), ("renamed", 25)]))
c.bind("upd", ["x", "2"])
c.describe("P", "")
c.execute()
r = c.sync()
check("Execute of UPDATE ... RETURNING", (r.kinds(), r.rows(), r.tags()), ("2TDC", [("2", "xtwo")], ["UPDATE 1"]))
c.parse("del", "DELETE FROM pn WHERE id = $1")
c.describe("S", "del")
check("Describe of DELETE", c.sync().kinds(), "1tn")
check("Execute of DELETE", c.run("del", ["9"]).tags(), ["DELETE 0"])
check("PREPARE of DELETE", c.query("PREPARE pdel (INTEGER) AS DELETE FROM pn WHERE id = $1 RETURNING name").tags(), ["PREPARE"])
r = c.query("EXECUTE pdel(2)")
check("EXECUTE of DELETE ... RETURNING", (r.rows(), r.tags()), ([("xtwo",)], ["DELETE 1"]))
check("INSERT it back", c.query("INSERT INTO pn VALUES (2, 'two') RETURNING id").tags(), ["INSERT 0 1"])
check("DEALLOCATE pdel", c.query("DEALLOCATE pdel").tags(), ["DEALLOCATE"])

# ---- psycopg2: the SQL side as applications write it -----------------------
try:
    import psycopg2
except ImportError:
    psycopg2 = None
    print("psycopg2 not installed: its part not run")
if psycopg2:
    pc = psycopg2.connect(host=host, port=port, user=user, dbname=dbname)
    pc.autocommit = True
    cur = pc.cursor()
    cur.execute("PREPARE ins (INTEGER, TEXT) AS INSERT INTO pn VALUES ($1, $2)")
    for i, name in ((4, "four"), (5, "it's five"), (6, None)):
        cur.execute("EXECUTE ins (%s, %s)", (i, name))
        check("psycopg2 EXECUTE ins rowcount", cur.rowcount, 1)
    cur.execute("PREPARE sel (NUMERIC) AS SELECT id, name FROM pn WHERE id > $1 ORDER BY id")
    cur.execute("EXECUTE sel (%s)", (Decimal("4.5"),))
    check("psycopg2 EXECUTE sel", cur.fetchall(), [(5, "it's five"), (6, None)])
    check("psycopg2 description", [d.name for d in cur.description], ["id", "name"])
    try:
        cur.execute("EXECUTE sel (%s, %s)", (1, 2))
        failures.append("psycopg2: a wrong count did not fail")
    except psycopg2.Error as e:
        check("psycopg2 wrong count", (e.pgcode, e.diag.message_detail), ("42601", "Expected 1 parameters but got 2."))
    try:
        cur.execute("EXECUTE nope")
        failures.append("psycopg2: an unknown name did not fail")
    except psycopg2.Error as e:
        check("psycopg2 unknown name", (e.pgcode, e.diag.message_primary),
              ("26000", 'prepared statement "nope" does not exist'))
    # names are per session: another connection does not see them
    other = psycopg2.connect(host=host, port=port, user=user, dbname=dbname)
    other.autocommit = True
    try:
        other.cursor().execute("EXECUTE sel (1)")
        failures.append("psycopg2: a name leaked into another session")
    except psycopg2.Error as e:
        check("psycopg2 other session", e.pgcode, "26000")
    other.close()
    cur.execute("UPDATE pn SET name = upper(name) WHERE id > %s", (4,))
    check("psycopg2 UPDATE rowcount", (cur.rowcount, cur.statusmessage), (2, "UPDATE 2"))
    cur.execute("DELETE FROM pn WHERE id >= %s RETURNING id", (5,))
    check("psycopg2 DELETE ... RETURNING", (sorted(cur.fetchall()), cur.rowcount), ([(5,), (6,)], 2))
    cur.execute("DEALLOCATE ALL")
    check("psycopg2 DEALLOCATE ALL", cur.statusmessage, "DEALLOCATE ALL")
    pc.close()

c.query("DROP TABLE pn")
if failures:
    print("\n".join("FAIL " + f for f in failures))
    sys.exit(1)
print("prepared_names: ok")
