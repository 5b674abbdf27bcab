#!/usr/bin/env python3
"""isolation_wire.py - REPEATABLE READ and SERIALIZABLE snapshots seen from
two sessions, against a server in PGHOST / PGPORT / PGUSER / PGDATABASE
(protocol_script.sh runs it on PostgreSQL 15 and on attud, which must
agree):

  - a REPEATABLE READ block reads the data as committed at its first query
    (not at BEGIN, nor at SET / SHOW) for all its statements, whatever
    another session commits meanwhile; READ COMMITTED reads the new data at
    each statement; default_transaction_isolation starts blocks so;
  - its UPDATE / DELETE / INSERT ... ON CONFLICT DO UPDATE of rows another
    session changed since the snapshot fails with 40001 ("could not
    serialize access due to concurrent update"), also when it had to wait
    for that session's block (a statement outside a block too); later
    statements are 25P02 until ROLLBACK;
  - ROLLBACK TO a savepoint keeps the snapshot (and makes a block failed
    by 40001 usable); COMMIT AND CHAIN starts a block of the same level
    with a new snapshot;
  - a block that writes a table nobody else changed commits beside the
    other session's commit: both changes stay;
  - a SERIALIZABLE READ ONLY block reads its snapshot and commits.

Where attu is stricter than PostgreSQL (docs/sql-reference.md,
"Transactions": it tells changed tables, not rows) the answers differ, and
the script checks each server's own (the end of the file)."""
import threading
import time

from pgwire_client import connect_from_env
from wire_checks import expect, finish, ok, sqlstate, val

a, b = connect_from_env(), connect_from_env()
attu = "attu" in val(a, "SELECT version()").lower()


def reset():
    for s in ("DROP TABLE IF EXISTS iso", "DROP TABLE IF EXISTS iso_other",
              "CREATE TABLE iso (id INTEGER PRIMARY KEY, v INTEGER)",
              "INSERT INTO iso VALUES (1, 10), (2, 20), (3, 30)",
              "CREATE TABLE iso_other (k INTEGER PRIMARY KEY, w INTEGER)",
              "INSERT INTO iso_other VALUES (1, 100)"):
        ok(a, s)


V1 = "SELECT v FROM iso WHERE id = 1"
SERIALIZE = ("40001", "could not serialize access due to concurrent update")

# ---- REPEATABLE READ keeps its snapshot; READ COMMITTED does not
reset()
ok(a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
expect("RR: first read", val(a, V1), "10")
ok(b, "UPDATE iso SET v = 11 WHERE id = 1")
ok(b, "INSERT INTO iso VALUES (4, 40)")
expect("RR: the other's UPDATE unseen", val(a, V1), "10")
expect("RR: the other's INSERT unseen", val(a, "SELECT count(*) FROM iso"), "3")
expect("RR: a join sees the snapshot too",
       val(a, "SELECT sum(v) FROM iso JOIN iso_other ON id = k"), "10")
ok(a, "COMMIT")
expect("after COMMIT: the new data", val(a, V1), "11")

ok(a, "BEGIN")
expect("RC: first read", val(a, V1), "11")
ok(b, "UPDATE iso SET v = 12 WHERE id = 1")
expect("RC: the other's UPDATE seen", val(a, V1), "12")
ok(a, "COMMIT")

# ---- the snapshot is taken at the first query, not at BEGIN, SET or SHOW
ok(a, "BEGIN")
ok(a, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
expect("SHOW in the block", val(a, "SHOW transaction_isolation"), "repeatable read")
ok(b, "UPDATE iso SET v = 13 WHERE id = 1")
expect("RR: the commit before the first query is seen", val(a, V1), "13")
ok(b, "UPDATE iso SET v = 14 WHERE id = 1")
expect("RR: the one after it is not", val(a, V1), "13")
expect("SET TRANSACTION after the first query",
       a.query("SET TRANSACTION ISOLATION LEVEL READ COMMITTED").error(),
       ("25001", "SET TRANSACTION ISOLATION LEVEL must be called before any query"))
ok(a, "ROLLBACK")

# default_transaction_isolation
ok(a, "SET default_transaction_isolation = 'repeatable read'")
ok(a, "BEGIN")
expect("default RR: first read", val(a, V1), "14")
ok(b, "UPDATE iso SET v = 15 WHERE id = 1")
expect("default RR: the other's UPDATE unseen", val(a, V1), "14")
ok(a, "COMMIT")
ok(a, "RESET default_transaction_isolation")

# ---- 40001: an UPDATE of what another session changed since the snapshot
reset()
for change in ("UPDATE iso SET v = v + 1 WHERE id = 1", "DELETE FROM iso WHERE id = 1",
               "INSERT INTO iso VALUES (1, 0) ON CONFLICT (id) DO UPDATE SET v = 0"):
    ok(a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
    expect("RR before " + change, val(a, "SELECT count(*) FROM iso"), "3")
    ok(b, "UPDATE iso SET v = v + 100 WHERE id = 1")
    expect(change, a.query(change).error(), SERIALIZE)
    expect("after 40001: 25P02", sqlstate(a, "SELECT 1"), "25P02")
    expect("COMMIT of the failed block", a.query("COMMIT").tags(), ["ROLLBACK"])
expect("the other's updates stand", val(b, V1), "310")

# a writer that waits for the other's block, which then commits
ok(a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
expect("RR waiter: first read", val(a, V1), "310")
ok(b, "BEGIN")
ok(b, "UPDATE iso SET v = 400 WHERE id = 1")
box = []
th = threading.Thread(target=lambda: box.append(a.query("UPDATE iso SET v = v + 1 WHERE id = 1").error()))
th.start()
time.sleep(0.5)
expect("the UPDATE waits for the other's block", box, [])
ok(b, "COMMIT")
th.join(10)
expect("then fails", box, [SERIALIZE])
ok(a, "ROLLBACK")
# ... and one whose other block rolls back goes on
ok(a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
expect("RR waiter 2: first read", val(a, V1), "400")
ok(b, "BEGIN")
ok(b, "UPDATE iso SET v = 500 WHERE id = 1")
box = []
th = threading.Thread(target=lambda: box.append(a.query("UPDATE iso SET v = v + 1 WHERE id = 1").tags()))
th.start()
time.sleep(0.5)
ok(b, "ROLLBACK")
th.join(10)
expect("after the other's ROLLBACK the UPDATE runs", box, [["UPDATE 1"]])
ok(a, "COMMIT")
expect("its change stands", val(b, V1), "401")
# a statement of its own under REPEATABLE READ has its snapshot too
ok(a, "SET default_transaction_isolation = 'repeatable read'")
ok(b, "BEGIN")
ok(b, "UPDATE iso SET v = 600 WHERE id = 1")
box = []
th = threading.Thread(target=lambda: box.append(a.query("UPDATE iso SET v = v + 1 WHERE id = 1").error()))
th.start()
time.sleep(0.5)
ok(b, "COMMIT")
th.join(10)
expect("an autocommit UPDATE that waited", box, [SERIALIZE])
expect("(not in a block: no 25P02)", val(a, V1), "600")
ok(a, "RESET default_transaction_isolation")

# ---- savepoints keep the snapshot
reset()
ok(a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
ok(a, "SAVEPOINT s0")
expect("RR savepoint: first read", val(a, V1), "10")
ok(b, "UPDATE iso_other SET w = 101 WHERE k = 1")   # (before A writes: attu's writers take turns)
ok(a, "SAVEPOINT s1")
ok(a, "UPDATE iso SET v = 99 WHERE id = 2")
ok(a, "ROLLBACK TO s1")
expect("ROLLBACK TO: its own change undone", val(a, "SELECT v FROM iso WHERE id = 2"), "20")
expect("ROLLBACK TO: the snapshot kept", val(a, "SELECT w FROM iso_other"), "100")
ok(a, "ROLLBACK TO s0")
expect("ROLLBACK TO before the first query: the snapshot kept", val(a, "SELECT w FROM iso_other"), "100")
ok(a, "COMMIT")
# a savepoint makes a block failed by 40001 usable again
ok(a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
expect("RR savepoint 2: first read", val(a, V1), "10")
ok(a, "SAVEPOINT s")
ok(b, "UPDATE iso SET v = 11 WHERE id = 1")
expect("40001 after a savepoint", a.query("UPDATE iso SET v = 0 WHERE id = 1").error(), SERIALIZE)
ok(a, "ROLLBACK TO s")
expect("usable again, the snapshot kept", val(a, V1), "10")
ok(a, "COMMIT")

# ---- COMMIT AND CHAIN: the same level, a new snapshot
ok(a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
expect("chain: first read", val(a, V1), "11")
ok(b, "UPDATE iso SET v = 12 WHERE id = 1")
expect("chain: unseen", val(a, V1), "11")
ok(a, "COMMIT AND CHAIN")
expect("chained block's level", val(a, "SHOW transaction_isolation"), "repeatable read")
expect("chained block: a new snapshot", val(a, V1), "12")
ok(b, "UPDATE iso SET v = 13 WHERE id = 1")
expect("chained block keeps it", val(a, V1), "12")
ok(a, "ROLLBACK AND CHAIN")
expect("after ROLLBACK AND CHAIN: the level", val(a, "SHOW transaction_isolation"), "repeatable read")
expect("and a new snapshot", val(a, V1), "13")
ok(a, "COMMIT")

# ---- a block writing a table nobody else changed commits beside the other's commit
reset()
ok(a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
expect("merge: first read", val(a, "SELECT w FROM iso_other"), "100")
ok(b, "UPDATE iso SET v = 11 WHERE id = 1")
ok(a, "UPDATE iso_other SET w = w + 1")
expect("merge: its own change", val(a, "SELECT w FROM iso_other"), "101")
expect("merge: the other's change unseen", val(a, V1), "10")
ok(a, "CREATE TABLE iso_new (x INTEGER)")
ok(a, "COMMIT")
expect("merge: both changes stand (iso)", val(b, V1), "11")
expect("merge: both changes stand (iso_other)", val(b, "SELECT w FROM iso_other"), "101")
expect("merge: the new table", val(b, "SELECT count(*) FROM iso_new"), "0")
ok(a, "DROP TABLE iso_new")

# ---- SERIALIZABLE READ ONLY reads its snapshot
ok(a, "BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY")
expect("SERIALIZABLE: first read", val(a, "SELECT sum(v) FROM iso"), "61")
ok(b, "UPDATE iso SET v = v + 1")
expect("SERIALIZABLE: unseen", val(a, "SELECT sum(v) FROM iso"), "61")
expect("SERIALIZABLE READ ONLY: no write", sqlstate(a, "DELETE FROM iso"), "25006")
ok(a, "ROLLBACK")
ok(a, "BEGIN ISOLATION LEVEL SERIALIZABLE, READ ONLY")
expect("SERIALIZABLE: first read 2", val(a, "SELECT sum(v) FROM iso"), "64")
ok(b, "UPDATE iso SET v = v + 1")
expect("SERIALIZABLE: unseen 2", val(a, "SELECT sum(v) FROM iso"), "64")
expect("SERIALIZABLE READ ONLY commits", a.query("COMMIT").tags(), ["COMMIT"])
# a SERIALIZABLE block that writes what another changed: 40001 as well
ok(a, "BEGIN ISOLATION LEVEL SERIALIZABLE")
expect("SERIALIZABLE writer: first read", val(a, V1), "13")
ok(b, "UPDATE iso SET v = 14 WHERE id = 1")
expect("SERIALIZABLE writer", a.query("UPDATE iso SET v = 0 WHERE id = 1").error(), SERIALIZE)
ok(a, "ROLLBACK")

# ---- where attu is stricter: it tells changed tables, not rows
reset()
ok(a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
expect("strict: first read", val(a, V1), "10")
ok(b, "UPDATE iso SET v = 21 WHERE id = 2")
r = a.query("UPDATE iso SET v = 11 WHERE id = 1")
expect("UPDATE of a row the other did not change", r.error() if attu else r.tags(),
       SERIALIZE if attu else ["UPDATE 1"])
ok(a, "ROLLBACK")
ok(a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
expect("strict: first read 2", val(a, V1), "10")
ok(b, "INSERT INTO iso VALUES (5, 50)")
r = a.query("INSERT INTO iso VALUES (6, 60)")
expect("INSERT into a table the other changed", r.error() if attu else r.tags(),
       SERIALIZE if attu else ["INSERT 0 1"])
ok(a, "ROLLBACK")
# SERIALIZABLE: a write after any other commit since the snapshot
ok(a, "BEGIN ISOLATION LEVEL SERIALIZABLE")
expect("strict: first read 3", val(a, V1), "10")
ok(b, "UPDATE iso_other SET w = 102")
r = a.query("UPDATE iso SET v = 11 WHERE id = 1")
expect("SERIALIZABLE write after an unrelated commit", r.error() if attu else r.tags(),
       ("40001", "could not serialize access due to read/write dependencies among transactions") if attu
       else ["UPDATE 1"])
ok(a, "ROLLBACK")
# a table made after the snapshot: attu's snapshot holds the catalog too
ok(a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
expect("strict: first read 4", val(a, V1), "10")
ok(b, "CREATE TABLE iso_later (x INTEGER)")
ok(b, "INSERT INTO iso_later VALUES (1)")
r = a.query("SELECT count(*) FROM iso_later")
expect("a table made after the snapshot", r.error()[0] if attu else r.rows(), "42P01" if attu else [("0",)])
ok(a, "ROLLBACK")
ok(b, "DROP TABLE iso_later")

for s in ("DROP TABLE iso", "DROP TABLE iso_other"):
    ok(a, s)
finish("isolation_wire")
