#!/usr/bin/env python3
"""writable_cte_wire.py - data-modifying WITH queries through the extended
protocol, against a server in PGHOST / PGPORT / PGUSER / PGDATABASE
(protocol_script.sh runs it on PostgreSQL 15 and on attud, which must
agree): Parse with $n of a statement whose WITH query deletes, inserts or
updates, Describe (its RowDescription comes from the RETURNING columns
without running anything), Bind and Execute (each Execute runs the WITH
query once), parameter types inferred from the WITH query, an error in
the main query undoing the WITH query's change, and the errors Parse
itself answers."""
import sys

from pgwire_client import connect_from_env

c = connect_from_env()
failed = 0


def check(what, got, want):
    global failed
    if got != want:
        print("FAIL", what, "got", got, "want", want)
        failed += 1


def ok(sql):
    r = c.query(sql)
    if r.error():
        print("FAIL", sql, r.error())
        sys.exit(1)
    return r


def err(r):
    e = r.error()
    return e and e[0]


ok("DROP TABLE IF EXISTS wcte_src, wcte_dst")
ok("CREATE TABLE wcte_src (id SERIAL PRIMARY KEY, v INTEGER NOT NULL)")
ok("CREATE TABLE wcte_dst (id INTEGER, v INTEGER)")
ok("INSERT INTO wcte_src (v) VALUES (10), (20), (30), (40)")

# Parse + Describe: the columns of the RETURNING the main query reads, and
# the parameter's type inferred from the WITH query (int4)
c.parse("mv", "WITH d AS (DELETE FROM wcte_src WHERE v = $1 RETURNING id, v * 2 AS twice) "
              "INSERT INTO wcte_dst SELECT id, twice FROM d RETURNING id, v")
c.describe("S", "mv")
r = c.sync()
check("describe error", r.error(), None)
check("param oids", r.param_oids(), [23])
check("columns", r.columns(), [("id", 23), ("v", 23)])
check("nothing ran at Parse", ok("SELECT count(*) FROM wcte_src").rows(), [("4",)])

check("run 10", c.run("mv", ["10"]).rows(), [("1", "20")])
check("run 30", c.run("mv", ["30"]).rows(), [("3", "60")])
check("run 99", c.run("mv", ["99"]).rows(), [])
check("src after", ok("SELECT v FROM wcte_src ORDER BY v").rows(), [("20",), ("40",)])
check("dst after", ok("SELECT id, v FROM wcte_dst ORDER BY id").rows(), [("1", "20"), ("3", "60")])

# a SELECT over an UPDATE's RETURNING, its snapshot: the table as before
c.parse("up", "WITH u AS (UPDATE wcte_src SET v = v + $1 RETURNING v) "
              "SELECT (SELECT sum(v) FROM wcte_src) AS before, sum(v) AS after FROM u")
c.describe("S", "up")
r = c.sync()
check("up param oids", r.param_oids(), [23])
check("up columns", r.columns(), [("before", 20), ("after", 20)])
check("up run", c.run("up", ["1"]).rows(), [("60", "62")])

# an INSERT with a serial key, the ids used by the main query
r, oids, cols, rows = c.bind_run("WITH i AS (INSERT INTO wcte_src (v) VALUES ($1), ($1 + 1) RETURNING id) "
                                 "SELECT count(*) FROM i", [23], [b"7"], None, None)
check("insert error", r.error(), None)
check("insert rows", rows, [(b"2",)])

# the main query fails: the WITH query's DELETE is undone
r, oids, cols, rows = c.bind_run("WITH d AS (DELETE FROM wcte_src RETURNING v) SELECT 1 / (v - v) FROM d",
                                 [], [], None, None)
check("div error", err(r), "22012")
check("nothing deleted", ok("SELECT count(*) FROM wcte_src").rows(), [("4",)])

# the errors come at Parse
c.parse("bad1", "SELECT * FROM (WITH d AS (DELETE FROM wcte_src RETURNING *) SELECT * FROM d) x")
check("nested", err(c.sync()), "0A000")
c.parse("bad2", "WITH d AS (DELETE FROM wcte_src) SELECT * FROM d")
check("no returning", err(c.sync()), "0A000")

ok("DROP TABLE wcte_src, wcte_dst")
c.close()
sys.exit(1 if failed else 0)
