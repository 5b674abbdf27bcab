#!/usr/bin/python3
"""alter_prepared.py - statements prepared with the extended protocol
(Parse, Describe) before an ALTER TABLE, bound and executed after it,
against attud or PostgreSQL 15: both must answer the same. PostgreSQL
re-plans them; attu binds every execution anew. A statement that reads a
dropped column fails with 42703; one whose result columns changed since
its Describe fails with 0A000 "cached plan must not change result type",
and an INSERT / UPDATE ... RETURNING so refused changes nothing.

    alter_prepared.py             # the server in PGHOST / PGPORT / PGUSER
"""
import os
import sys

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
c.query("DROP TABLE IF EXISTS al")
check("create", c.query("CREATE TABLE al (a INTEGER, b TEXT, n INTEGER)").tags(), ["CREATE TABLE"])
check("insert", c.query("INSERT INTO al VALUES (1, 'one', 10), (2, 'two', 20)").tags(), ["INSERT 0 2"])

c.parse("sb", "SELECT b FROM al WHERE a = $1", [23])
c.parse("star", "SELECT * FROM al ORDER BY a")
c.parse("cnt", "SELECT count(*) FROM al WHERE n > $1", [23])
c.parse("ins", "INSERT INTO al (a, n) VALUES ($1, $2) RETURNING *", [23, 23])
c.parse("upd", "UPDATE al SET n = n + 1 RETURNING a, n")
c.describe("S", "star")
r = c.sync()
check("Describe before", r.columns(), [("a", 23), ("b", 25), ("n", 23)])
check("run sb before", c.run("sb", ["2"]).rows(), [("two",)])
check("run cnt before", c.run("cnt", ["15"]).rows(), [("1",)])

check("ALTER", c.query("ALTER TABLE al DROP b, ADD c TEXT DEFAULT 'c'").tags(), ["ALTER TABLE"])
check("sb reads a dropped column", err(c.run("sb", ["2"])), "42703")
check("star changed shape", c.run("star").error(), ("0A000", "cached plan must not change result type"))
check("cnt is bound anew", c.run("cnt", ["15"]).rows(), [("1",)])
check("ins changed shape", err(c.run("ins", ["3", "30"])), "0A000")
check("ins inserted nothing", c.query("SELECT count(*) FROM al").rows(), [("2",)])

check("ALTER TYPE", c.query("ALTER TABLE al ALTER n TYPE BIGINT USING n * 10").tags(), ["ALTER TABLE"])
check("cnt over the converted rows", c.run("cnt", ["150"]).rows(), [("1",)])
check("upd changed shape", err(c.run("upd")), "0A000")
check("upd changed nothing", c.query("SELECT a, n FROM al ORDER BY a").rows(), [("1", "100"), ("2", "200")])

check("ALTER TYPE to text", c.query("ALTER TABLE al ALTER n TYPE TEXT").tags(), ["ALTER TABLE"])
check("cnt's parameter keeps its type", err(c.run("cnt", ["15"])), "42883")

check("RENAME TO", c.query("ALTER TABLE al RENAME TO al2").tags(), ["ALTER TABLE"])
check("cnt finds no table", err(c.run("cnt", ["15"])), "42P01")
c.query("DROP TABLE al2")
if failures:
    print("\n".join("FAIL " + f for f in failures))
    sys.exit(1)
print("alter_prepared: ok")
