#!/usr/bin/env python3
"""table_locks_wire.py - writers of different tables side by side, against
a server in PGHOST / PGPORT / PGUSER / PGDATABASE (protocol_script.sh runs
it on PostgreSQL 15 and on attud, which must agree):

  - two blocks writing different tables do not wait for each other and
    both commit, each change kept; an autocommit writer of another table
    does not wait for an open block;
  - a writer of the same rows waits for the block's COMMIT (attu: of the
    same table; PostgreSQL: of the same rows, the rows here are the same),
    then runs on the committed data; a reader never waits;
  - two blocks each waiting for the other's rows: one fails with 40P01
    "deadlock detected" (a DETAIL naming the processes) after
    deadlock_timeout, its block aborted (25P02 until ROLLBACK), the other
    goes on and commits;
  - lock_timeout ends a wait with 55P03; statement_timeout with 57014;
  - DDL on a table waits for its writer's block; a DELETE whose foreign
    key cascades waits for a writer of the referencing table;
  - LOCK of a view locks its table in the same mode: a writer of the
    table waits (and one through the view), pg_locks shows the view's and
    the table's rows, NOWAIT on the table fails, a writer of another table
    goes on;
  - pg_blocking_pids: with a LOCK ... ACCESS EXCLUSIVE held, a LOCK ...
    EXCLUSIVE waiting and an INSERT queued behind it, the first waiter's
    blockers are the holder, the second's the holder and the first
    waiter; none for the holder, an idle session, an unknown pid; NULL for
    NULL; once the holder commits, the INSERT waits for the LOCK's
    session alone.

Where attu is coarser than PostgreSQL (docs/sql-reference.md,
"Transactions": table locks, DDL locks the whole database), the script
checks each server's own answer."""
import time

from pgwire_client import connect_from_env
from wire_checks import done_within, expect, finish, in_thread, ok, val


a, b = connect_from_env(), connect_from_env()
attu = "attu" in val(a, "SELECT version()").lower()


def reset():
    for s in ("DROP VIEW IF EXISTS tl_view",
              "DROP TABLE IF EXISTS tl_child", "DROP TABLE IF EXISTS tl_one", "DROP TABLE IF EXISTS tl_two",
              "DROP TABLE IF EXISTS tl_parent",
              "CREATE TABLE tl_one (id INTEGER PRIMARY KEY, v INTEGER)",
              "INSERT INTO tl_one VALUES (1, 10), (2, 20)",
              "CREATE TABLE tl_two (id INTEGER PRIMARY KEY, v INTEGER)",
              "INSERT INTO tl_two VALUES (1, 100), (2, 200)",
              "CREATE TABLE tl_parent (id INTEGER PRIMARY KEY)",
              "INSERT INTO tl_parent VALUES (1), (2)",
              "CREATE TABLE tl_child (id INTEGER PRIMARY KEY, p INTEGER REFERENCES tl_parent ON DELETE CASCADE)",
              "INSERT INTO tl_child VALUES (1, 1), (2, 2)"):
        ok(a, s)


# ---- different tables: side by side, both kept
reset()
ok(a, "BEGIN")
ok(a, "UPDATE tl_one SET v = v + 1 WHERE id = 1")
ok(b, "BEGIN")
th, box = in_thread(b, "UPDATE tl_two SET v = v + 1 WHERE id = 1")
expect("B's UPDATE of another table does not wait", done_within(th, box, 5), True)
ok(b, "INSERT INTO tl_two VALUES (3, 300)")
expect("each block sees its own change", (val(a, "SELECT v FROM tl_one WHERE id = 1"),
                                          val(b, "SELECT v FROM tl_two WHERE id = 1")), ("11", "101"))
expect("and not the other's", (val(a, "SELECT v FROM tl_two WHERE id = 1"),
                               val(b, "SELECT v FROM tl_one WHERE id = 1")), ("100", "10"))
ok(a, "COMMIT")
expect("B's READ COMMITTED statement sees A's commit", val(b, "SELECT v FROM tl_one WHERE id = 1"), "11")
ok(b, "COMMIT")
expect("both changes kept", val(a, "SELECT (SELECT sum(v) FROM tl_one) + (SELECT sum(v) FROM tl_two)"),
       str(11 + 20 + 101 + 200 + 300))

# an autocommit writer of another table does not wait; a reader never does
ok(a, "BEGIN")
ok(a, "INSERT INTO tl_one VALUES (3, 30)")
th, box = in_thread(b, "INSERT INTO tl_two VALUES (4, 400)")
expect("autocommit INSERT of another table does not wait", done_within(th, box, 5), True)
th, box = in_thread(b, "SELECT count(*) FROM tl_one")
expect("a reader of the written table does not wait", done_within(th, box, 5), True)
expect("(and sees the committed rows)", box[0].rows() if box else None, [("2",)])
ok(a, "COMMIT")

# ---- the same rows: the second writer waits for the first's COMMIT
ok(a, "BEGIN")
ok(a, "UPDATE tl_one SET v = v + 1 WHERE id = 1")
th, box = in_thread(b, "UPDATE tl_one SET v = v * 10 WHERE id = 1")
expect("B's UPDATE of the same row waits", done_within(th, box, 0.5), False)
ok(a, "COMMIT")
th.join(10)
expect("B's UPDATE ran after A's COMMIT", box[0].tags() if box else None, ["UPDATE 1"])
expect("on A's committed row", val(a, "SELECT v FROM tl_one WHERE id = 1"), "120")

# ---- deadlock: each block waits for the other's row
reset()
ok(a, "BEGIN")
ok(b, "BEGIN")
ok(a, "UPDATE tl_one SET v = 0 WHERE id = 1")
ok(b, "UPDATE tl_two SET v = 0 WHERE id = 1")
tha, boxa = in_thread(a, "UPDATE tl_two SET v = 1 WHERE id = 1")
time.sleep(0.2)
t0 = time.time()
thb, boxb = in_thread(b, "UPDATE tl_one SET v = 1 WHERE id = 1")
tha.join(15)
thb.join(15)
ra, rb = boxa[0] if boxa else None, boxb[0] if boxb else None
states = sorted([(ra.error() or ("ok",))[0] if ra else None, (rb.error() or ("ok",))[0] if rb else None],
                key=str)
expect("one of the two fails with 40P01", states, ["40P01", "ok"])
loser, winner = (a, b) if ra and ra.error() else (b, a)
lr = ra if ra and ra.error() else rb
if lr and lr.error():
    expect("its message", lr.error(), ("40P01", "deadlock detected"))
    f = lr.error_fields()
    expect("its DETAIL names the processes", f.get("D", "").startswith("Process "), True)
    expect("its HINT", f.get("H"), "See server log for query details.")
expect("(found after about deadlock_timeout)", 0.5 < time.time() - t0 < 10, True)
expect("the loser's block is aborted", loser.query("SELECT 1").error()[0], "25P02")
ok(loser, "ROLLBACK")
ok(winner, "COMMIT")
expect("the winner's changes committed",
       val(a, "SELECT (SELECT v FROM tl_one WHERE id = 1) + (SELECT v FROM tl_two WHERE id = 1)"), "1")

# ---- lock_timeout and statement_timeout end a wait
ok(a, "BEGIN")
ok(a, "UPDATE tl_one SET v = 5 WHERE id = 1")
ok(b, "SET lock_timeout = '200ms'")
t0 = time.time()
expect("lock_timeout", b.query("UPDATE tl_one SET v = 6 WHERE id = 1").error(),
       ("55P03", "canceling statement due to lock timeout"))
expect("(after about the timeout)", 0.1 < time.time() - t0 < 5, True)
ok(b, "RESET lock_timeout")
ok(b, "SET statement_timeout = 200")
expect("statement_timeout", b.query("DELETE FROM tl_one WHERE id = 1").error(),
       ("57014", "canceling statement due to statement timeout"))
ok(b, "RESET statement_timeout")
ok(a, "ROLLBACK")

# ---- DDL waits for a writer of its table
ok(a, "BEGIN")
ok(a, "INSERT INTO tl_one VALUES (7, 70)")
th, box = in_thread(b, "ALTER TABLE tl_one ADD COLUMN w INTEGER")
expect("ALTER TABLE waits for the block writing its table", done_within(th, box, 0.5), False)
ok(a, "COMMIT")
th.join(10)
expect("and runs after its COMMIT", box[0].tags() if box else None, ["ALTER TABLE"])
expect("on the committed rows", val(a, "SELECT count(w) + count(*) FROM tl_one"), "3")
# DDL on another table: attu's DDL takes the whole database
ok(a, "BEGIN")
ok(a, "INSERT INTO tl_one VALUES (8, 80)")
th, box = in_thread(b, "ALTER TABLE tl_two ADD COLUMN w INTEGER")
expect("ALTER TABLE of another table", done_within(th, box, 0.5), not attu)
ok(a, "COMMIT")
th.join(10)
expect("(ran)", box[0].tags() if box else None, ["ALTER TABLE"])

# ---- foreign keys: a cascading DELETE waits for a writer of the referencing rows
ok(a, "BEGIN")
ok(a, "UPDATE tl_child SET id = 10 WHERE id = 1")
th, box = in_thread(b, "DELETE FROM tl_parent WHERE id = 1")
expect("the cascading DELETE waits", done_within(th, box, 0.5), False)
ok(a, "COMMIT")
th.join(10)
expect("and runs after the COMMIT", box[0].tags() if box else None, ["DELETE 1"])
expect("its cascade took the committed row", val(a, "SELECT count(*) FROM tl_child"), "1")
# an INSERT of a referencing row waits for a DELETE of the referenced one
ok(a, "BEGIN")
ok(a, "DELETE FROM tl_parent WHERE id = 2")
th, box = in_thread(b, "INSERT INTO tl_child VALUES (20, 2)")
expect("the referencing INSERT waits", done_within(th, box, 0.5), False)
ok(a, "COMMIT")
th.join(10)
expect("and fails on the committed DELETE", box[0].error()[0] if box and box[0].error() else box, "23503")

# ---- LOCK TABLE: the modes from SHARE ROW EXCLUSIVE up keep other writers
# of the table waiting until the block ends (attu: from ROW EXCLUSIVE up);
# readers do not wait in attu (PostgreSQL's wait for ACCESS EXCLUSIVE)
c = connect_from_env()
apid, bpid = val(a, "SELECT pg_backend_pid()"), val(b, "SELECT pg_backend_pid()")
ok(a, "BEGIN")
ok(a, "LOCK TABLE tl_one IN SHARE ROW EXCLUSIVE MODE")
th, box = in_thread(b, "INSERT INTO tl_one VALUES (30, 300)")
expect("a writer of the locked table waits", done_within(th, box, 0.5), False)
expect("pg_locks: the holder's lock and the waiter's request",
       c.query("SELECT pid::text, mode, granted FROM pg_locks WHERE relation = 'tl_one'::regclass "
               "ORDER BY granted DESC").rows(),
       [(apid, "ShareRowExclusiveLock", "t"), (bpid, "RowExclusiveLock", "f")])
ok(c, "BEGIN")
expect("NOWAIT fails at once", c.query("LOCK tl_one IN EXCLUSIVE MODE NOWAIT").error(),
       ("55P03", 'could not obtain lock on relation "tl_one"'))
ok(c, "ROLLBACK")
expect("a reader does not wait", val(c, "SELECT count(*) FROM tl_one WHERE id = 30"), "0")
ok(a, "COMMIT")
th.join(10)
expect("the writer runs after the COMMIT", box[0].tags() if box else None, ["INSERT 0 1"])
# the weak modes keep no writer waiting
ok(a, "BEGIN")
ok(a, "LOCK tl_two IN ACCESS SHARE MODE")
ok(a, "LOCK tl_two IN ROW SHARE MODE")
th, box = in_thread(b, "UPDATE tl_two SET v = v + 1 WHERE id = 1")
expect("ACCESS SHARE / ROW SHARE: a writer goes on", done_within(th, box, 5), True)
ok(a, "COMMIT")
# LOCK waits for a writer's block, and lock_timeout ends that wait
ok(a, "BEGIN")
ok(a, "UPDATE tl_one SET v = v + 1 WHERE id = 2")
ok(b, "BEGIN")
th, box = in_thread(b, "LOCK tl_one IN SHARE MODE")
expect("LOCK waits for the block writing the table", done_within(th, box, 0.5), False)
ok(c, "SET lock_timeout = '200ms'")
ok(c, "BEGIN")
expect("lock_timeout ends LOCK's wait", c.query("LOCK TABLE tl_one").error(),
       ("55P03", "canceling statement due to lock timeout"))
ok(c, "ROLLBACK")
ok(c, "RESET lock_timeout")
ok(a, "COMMIT")
th.join(10)
expect("LOCK runs after the COMMIT", box[0].tags() if box else None, ["LOCK TABLE"])
ok(b, "COMMIT")

# ---- LOCK on a view locks the tables (and views) its query names, in the
# same mode: a writer of its table waits, directly or through the view
ok(a, "CREATE VIEW tl_view AS SELECT id, v FROM tl_one WHERE v > 0")
ok(a, "BEGIN")
ok(a, "LOCK TABLE tl_view IN SHARE ROW EXCLUSIVE MODE")
th, box = in_thread(b, "UPDATE tl_one SET v = v + 1 WHERE id = 1")
expect("a writer of the view's table waits", done_within(th, box, 0.5), False)
expect("pg_locks: the view's and its table's locks, the writer's request",
       c.query("SELECT relation::regclass::text, pid::text, mode, granted FROM pg_locks "
               "WHERE relation IN ('tl_view'::regclass, 'tl_one'::regclass) ORDER BY 1, granted DESC").rows(),
       [("tl_one", apid, "ShareRowExclusiveLock", "t"), ("tl_one", bpid, "RowExclusiveLock", "f"),
        ("tl_view", apid, "ShareRowExclusiveLock", "t")])
expect("the writer's blocker is the view's locker", val(c, "SELECT pg_blocking_pids(%s)::text" % bpid),
       "{%s}" % apid)
ok(c, "BEGIN")
expect("NOWAIT on the view's table fails at once", c.query("LOCK tl_one IN EXCLUSIVE MODE NOWAIT").error(),
       ("55P03", 'could not obtain lock on relation "tl_one"'))
ok(c, "ROLLBACK")
th2, box2 = in_thread(c, "UPDATE tl_two SET v = v + 1 WHERE id = 1")
expect("a writer of another table goes on", done_within(th2, box2, 5), True)
ok(a, "COMMIT")
th.join(10)
expect("the writer runs after the COMMIT", box[0].tags() if box else None, ["UPDATE 1"])
ok(a, "BEGIN")
ok(a, "LOCK tl_view IN EXCLUSIVE MODE")
th, box = in_thread(b, "INSERT INTO tl_view VALUES (50, 5)")
expect("a writer through the view waits too", done_within(th, box, 0.5), False)
ok(a, "ROLLBACK")
th.join(10)
expect("and runs after the ROLLBACK", box[0].tags() if box else None, ["INSERT 0 1"])
ok(a, "DROP VIEW tl_view")

# ---- pg_blocking_pids: a waiting session's blockers, the holder of the
# lock it asks and a waiter queued ahead of it whose request conflicts
# with its own (attu's table locks all conflict; here PostgreSQL's do too)
d = connect_from_env()
cpid, dpid = val(c, "SELECT pg_backend_pid()"), val(d, "SELECT pg_backend_pid()")


def waiting(pid):
    """Waits (up to 10 s) until pid's session waits for a lock."""
    for _ in range(200):
        if val(d, "SELECT count(*) FROM pg_locks WHERE pid = %s AND NOT granted" % pid) != "0":
            return True
        time.sleep(0.05)
    return False


def blocking(pid):
    r = d.query("SELECT pg_blocking_pids(%s)" % pid)
    if r.error():
        return r.error()
    v = r.rows()[0][0]
    return v if v is None else sorted(int(x) for x in v.strip("{}").split(",") if x)


ok(a, "BEGIN")
ok(a, "LOCK TABLE tl_one IN ACCESS EXCLUSIVE MODE")
ok(b, "BEGIN")
thb, boxb = in_thread(b, "LOCK TABLE tl_one IN EXCLUSIVE MODE")
expect("B's LOCK waits", waiting(bpid), True)
thc, boxc = in_thread(c, "INSERT INTO tl_one VALUES (40, 400)")
expect("C's INSERT waits", waiting(cpid), True)
expect("pg_blocking_pids(B): the holder", blocking(bpid), [int(apid)])
expect("pg_blocking_pids(C): the holder and B, ahead of it", blocking(cpid), sorted([int(apid), int(bpid)]))
expect("pg_blocking_pids(A): it waits for nothing", blocking(apid), [])
expect("pg_blocking_pids(own pid)", blocking(dpid), [])
expect("pg_blocking_pids(unknown pid)", blocking(-7), [])
expect("pg_blocking_pids(NULL)", blocking("NULL"), None)
expect("over pg_stat_activity's rows",
       d.query("SELECT count(*) FROM pg_stat_activity WHERE cardinality(pg_blocking_pids(pid)) > 0").rows(),
       [("2",)])
expect("pg_blocking_pids(bigint)", blocking("%s::bigint" % bpid)[0], "42883")
ok(a, "COMMIT")
thb.join(10)
expect("B's LOCK granted after A's COMMIT", boxb[0].tags() if boxb else None, ["LOCK TABLE"])
expect("C still waits, now for B alone", (waiting(cpid), blocking(cpid)), (True, [int(bpid)]))
expect("B waits for nothing now", blocking(bpid), [])
ok(b, "COMMIT")
thc.join(10)
expect("C's INSERT runs after B's COMMIT", boxc[0].tags() if boxc else None, ["INSERT 0 1"])
expect("nobody waits now", blocking(cpid), [])

for s in ("DROP TABLE tl_child", "DROP TABLE tl_parent", "DROP TABLE tl_one", "DROP TABLE tl_two"):
    ok(a, s)
finish("table_locks_wire")
