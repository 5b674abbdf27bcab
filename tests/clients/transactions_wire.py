#!/usr/bin/env python3
"""transactions_wire.py ATTUD - transaction blocks seen from several sessions
of one attud (started here on a data directory of its own; the CPU device,
or ATTU_TEST_DEVICE's):

  - another session sees none of a block's changes before its COMMIT (rows,
    a DELETE of every row, a new table) and all of them after it; ROLLBACK
    leaves the table as it was;
  - another session's writer (autocommit) waits for the block to end; with
    statement_timeout it gives up with 57014; its reader does not wait;
  - a session that goes away with its block open rolls it back;
  - the extended protocol's statements up to Sync are one implicit
    transaction: unseen before the Sync, undone when one of them fails;
  - a daemon killed (SIGKILL) with a block open comes back (same data
    directory) with the committed data only: tables, views, comments and
    sequences (those of serial columns too);
  - more writers waiting for an open block than the server keeps worker
    threads do not keep the block's COMMIT from running, and every one of
    their rows is kept;
  - two blocks writing different tables, side by side, both committed:
    both kept after a SIGKILL too.

The single-session answers are PostgreSQL's (tests/sql/transaction_blocks_pg.test);
these are PostgreSQL's behaviour too, but for the waiting, which is row
granular in PostgreSQL and table granular in attu (docs/sql-reference.md,
"Transactions"; tests/clients/table_locks_wire.py)."""
import os
import shutil
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attud_process import Checks, Daemon, attud_argv, conn, in_thread  # noqa: E402

ATTUD = attud_argv()

daemon = Daemon(ATTUD, "attu-txn-wire.")
checks = Checks()
tmp, data = daemon.tmp, daemon.data
start, check, ok, count = daemon.start, checks.check, checks.ok, checks.count


try:
    port = start()
    a, b = conn(port), conn(port)
    ok(a, "CREATE TABLE acc (id INTEGER PRIMARY KEY, bal INTEGER)")
    ok(a, "INSERT INTO acc VALUES (1, 100), (2, 200), (3, 300)")

    # ---- B sees nothing of A's block before COMMIT, everything after
    ok(a, "BEGIN")
    ok(a, "INSERT INTO acc VALUES (4, 400)")
    ok(a, "UPDATE acc SET bal = bal + 1 WHERE id = 1")
    ok(a, "CREATE TABLE fresh (x INTEGER)")
    check("A sees its own row", count(a, "acc"), 4)
    check("B does not see A's row", count(b, "acc"), 3)
    check("B does not see A's table", b.query("SELECT * FROM fresh").error()[0], "42P01")
    check("B does not see A's update", b.query("SELECT bal FROM acc WHERE id = 1").rows(), [("100",)])
    ok(a, "COMMIT")
    check("B sees the committed row", count(b, "acc"), 4)
    check("B sees the committed update", b.query("SELECT bal FROM acc WHERE id = 1").rows(), [("101",)])
    check("B sees the committed table", count(b, "fresh"), 0)

    # ---- ROLLBACK restores a table whose rows were all DELETEd
    ok(a, "BEGIN")
    ok(a, "DELETE FROM acc")
    check("A sees no rows", count(a, "acc"), 0)
    check("B still sees every row", count(b, "acc"), 4)
    ok(a, "ROLLBACK")
    check("every row is back", a.query("SELECT id, bal FROM acc ORDER BY id").rows(),
          [("1", "101"), ("2", "200"), ("3", "300"), ("4", "400")])

    # ---- B's writer waits for A's block; B's reader does not
    ok(a, "BEGIN")
    ok(a, "INSERT INTO acc VALUES (5, 500)")
    th, box = in_thread(lambda: b.query("INSERT INTO acc VALUES (6, 600)").tags())
    time.sleep(0.5)
    check("B's INSERT waits while A's block is open", box, [])
    r = conn(port)
    t0 = time.time()
    check("a third session's SELECT does not wait", count(r, "acc"), 4)
    check("(at once)", time.time() - t0 < 2, True)
    ok(a, "COMMIT")
    th.join(10)
    check("B's INSERT ran after A's COMMIT", box, [["INSERT 0 1"]])
    check("both rows are there", count(r, "acc"), 6)

    ok(a, "BEGIN")
    ok(a, "DELETE FROM acc WHERE id = 6")
    th, box = in_thread(lambda: b.query("UPDATE acc SET bal = 0 WHERE id = 6").tags())
    time.sleep(0.3)
    check("B's UPDATE waits", box, [])
    ok(a, "ROLLBACK")
    th.join(10)
    check("B's UPDATE ran after A's ROLLBACK, on the row A had deleted", box, [["UPDATE 1"]])

    # statement_timeout ends the wait with 57014
    ok(a, "BEGIN")
    ok(a, "INSERT INTO acc VALUES (7, 700)")
    ok(b, "SET statement_timeout = 300")
    t0 = time.time()
    e = b.query("INSERT INTO acc VALUES (8, 800)").error()
    check("a waiting writer times out", e, ("57014", "canceling statement due to statement timeout"))
    check("(after about the timeout)", 0.2 < time.time() - t0 < 5, True)
    ok(b, "SET statement_timeout = 0")
    ok(a, "ROLLBACK")

    # a session that goes away with its block open rolls it back
    gone = conn(port)
    ok(gone, "BEGIN")
    ok(gone, "INSERT INTO acc VALUES (9, 900)")
    gone.close()
    th, box = in_thread(lambda: b.query("INSERT INTO acc VALUES (10, 1000)").tags())
    th.join(10)
    check("the writer runs once the session is gone", box, [["INSERT 0 1"]])
    check("the gone session's row is not there", b.query("SELECT count(*) FROM acc WHERE id = 9").rows(), [("0",)])

    # ---- the extended protocol: one implicit transaction up to Sync
    a.parse("", "INSERT INTO acc VALUES (11, 1100)")
    a.bind("", [])
    a.execute()
    a.send("H")   # Flush: the Execute ran, no Sync yet
    time.sleep(0.3)
    check("before Sync B does not see it", b.query("SELECT count(*) FROM acc WHERE id = 11").rows(), [("0",)])
    a.sync()
    check("after Sync B sees it", b.query("SELECT count(*) FROM acc WHERE id = 11").rows(), [("1",)])
    a.parse("", "INSERT INTO acc VALUES (12, 1200)")
    a.bind("", [])
    a.execute()
    a.parse("", "INSERT INTO acc VALUES (1, 0)")   # a duplicate key: fails
    a.bind("", [])
    a.execute()
    rep = a.sync()
    check("the failing Execute's error", rep.error()[0] if rep.error() else None, "23505")
    check("the implicit transaction is undone", b.query("SELECT count(*) FROM acc WHERE id = 12").rows(), [("0",)])

    # ---- a multi-statement query string is one transaction
    e = a.query("INSERT INTO acc VALUES (13, 1300); SELECT 1 / 0").error()
    check("the string fails", e[0] if e else None, "22012")
    check("its INSERT is undone", b.query("SELECT count(*) FROM acc WHERE id = 13").rows(), [("0",)])

    # ---- SIGKILL with a block open: only committed work survives
    ok(a, "CREATE TABLE doomed (x INTEGER)")
    ok(a, "INSERT INTO doomed VALUES (1)")
    ok(a, "CREATE TABLE ser (id SERIAL, x INTEGER)")
    ok(a, "INSERT INTO ser (x) VALUES (1)")
    ok(a, "BEGIN")
    ok(a, "DROP TABLE ser")
    ok(a, "CREATE TABLE ser2 (id SERIAL, x INTEGER)")
    ok(a, "CREATE SEQUENCE never_seq")
    ok(a, "INSERT INTO acc VALUES (14, 1400)")
    ok(a, "DELETE FROM acc WHERE id = 1")
    ok(a, "CREATE TABLE never (x INTEGER)")
    ok(a, "DROP TABLE doomed")
    ok(a, "CREATE VIEW never_v AS SELECT 1 AS one")
    ok(a, "COMMENT ON TABLE acc IS 'never'")
    daemon.proc.send_signal(signal.SIGKILL)
    daemon.proc.wait()
    port = start()
    c = conn(port)
    check("after the crash: the committed rows",
          c.query("SELECT id FROM acc ORDER BY id").rows(),
          [(str(i),) for i in (1, 2, 3, 4, 5, 6, 10, 11)])
    check("no uncommitted table", c.query("SELECT * FROM never").error()[0], "42P01")
    check("no uncommitted view", c.query("SELECT * FROM never_v").error()[0], "42P01")
    check("the dropped table is still there", count(c, "doomed"), 1)
    check("no uncommitted comment", c.query("SELECT obj_description('acc'::regclass, 'pg_class')").rows(), [(None,)])
    check("the dropped serial table draws from its sequence", ok(c, "INSERT INTO ser (x) VALUES (2) RETURNING id").rows(),
          [("2",)])
    check("no uncommitted sequence", c.query("SELECT nextval('never_seq')").error()[0], "42P01")
    check("no uncommitted serial table's sequence", ok(c, "CREATE TABLE ser2 (id SERIAL, x INTEGER)").tags(),
          ["CREATE TABLE"])
    # and committed work of a block survives a crash
    ok(c, "BEGIN")
    ok(c, "INSERT INTO acc VALUES (15, 1500)")
    ok(c, "DROP TABLE doomed")
    ok(c, "COMMIT")
    daemon.proc.send_signal(signal.SIGKILL)
    daemon.proc.wait()
    port = start()
    c = conn(port)
    check("after the second crash: the committed row", c.query("SELECT count(*) FROM acc WHERE id = 15").rows(),
          [("1",)])
    check("the committed DROP", c.query("SELECT * FROM doomed").error()[0], "42P01")
    # more writers wait for an open block than the server keeps workers:
    # the block's COMMIT still finds one (the pool grows while they wait;
    # before, every worker waited for the block and its COMMIT never ran)
    ok(c, "CREATE TABLE crowd (i INTEGER)")
    holder = conn(port)
    ok(holder, "BEGIN")
    ok(holder, "INSERT INTO crowd VALUES (0)")
    waiters = [conn(port) for _ in range(40)]
    for i, w in enumerate(waiters):
        w.send("Q", ("INSERT INTO crowd VALUES (%d)" % (i + 1)).encode() + b"\0")
    time.sleep(0.5)
    holder.s.settimeout(30)
    check("the block's COMMIT runs while 40 writers wait", ok(holder, "COMMIT").tags(), ["COMMIT"])
    for w in waiters:
        w.s.settimeout(30)
        w.until_ready()
        w.close()
    holder.close()
    check("every waiting writer's row", c.query("SELECT count(*) FROM crowd").rows(), [("41",)])
    # two blocks writing different tables side by side: both commits
    # survive a crash (each commit record names its own tables)
    d = conn(port)
    ok(c, "BEGIN")
    ok(c, "INSERT INTO acc VALUES (16, 1600)")
    ok(d, "BEGIN")
    th, box = in_thread(lambda: d.query("INSERT INTO crowd VALUES (100)").tags())
    th.join(5)
    check("a block writing another table does not wait", box, [["INSERT 0 1"]])
    ok(d, "COMMIT")
    ok(c, "COMMIT")
    d.close()
    c.close()
    daemon.proc.send_signal(signal.SIGKILL)
    daemon.proc.wait()
    port = start()
    c = conn(port)
    check("after the third crash: both blocks' rows",
          c.query("SELECT (SELECT count(*) FROM acc WHERE id = 16), (SELECT count(*) FROM crowd)").rows(),
          [("1", "42")])
    c.close()
finally:
    daemon.stop()
    shutil.rmtree(tmp, ignore_errors=True)

if checks.failed:
    sys.exit(1)
print("transactions_wire: ok")
