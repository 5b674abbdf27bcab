#!/usr/bin/env python3
"""append_restart_wire.py ATTUD - append-only commits (engine/storage.c:
a commit that only added rows writes a tail of them, not the table)
across restarts of one attud (started here on a data directory of its
own; the CPU device, or ATTU_TEST_DEVICE's):

  - one-row INSERTs, a multi-row INSERT, INSERT ... SELECT, COPY FROM
    STDIN, several INSERTs in one block, INSERT ... ON CONFLICT DO NOTHING
    and a column list with DEFAULTs each commit as a tail (the data
    directory shows it), with TEXT strings that sort before, among and
    after the stored ones, NULLs, NUMERIC and dates;
  - a ROLLBACK of appends leaves nothing behind;
  - after a SIGKILL and a start, every row reads back exactly as before,
    and appends go on from there;
  - UPDATE, DELETE and TRUNCATE still write the table whole (no tail), and
    their rows read back after another restart."""
import os
import shutil
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attud_process import Checks, Daemon, attud_argv, conn  # noqa: E402

ATTUD = attud_argv()

daemon = Daemon(ATTUD, "attu-append-wire.")
checks = Checks()
tmp = daemon.tmp
start, check, ok = daemon.start, checks.check, checks.ok


def current_gen(table):
    with open(os.path.join(daemon.data, table, "CURRENT")) as f:
        return f.read().strip()


def is_tail(table):
    """Whether the table's current generation holds a tail and no column files."""
    g = os.path.join(daemon.data, table, current_gen(table))
    return os.path.exists(os.path.join(g, "tail")) and not os.path.exists(os.path.join(g, "c0.values"))


def whole(table):
    g = os.path.join(daemon.data, table, current_gen(table))
    return os.path.exists(os.path.join(g, "c0.values"))


ALL = "SELECT id, s, n, d, b FROM t ORDER BY id, s NULLS FIRST"


def restart():
    daemon.proc.send_signal(signal.SIGKILL)
    daemon.proc.wait()
    return conn(start())


try:
    port = start()
    a = conn(port)
    ok(a, "CREATE TABLE t (id int PRIMARY KEY, s text DEFAULT 'dflt', n numeric, d date, b boolean)")
    ok(a, "INSERT INTO t SELECT g, 'm' || g, g * 1.5, DATE '2020-01-01' + g, g % 2 = 0 "
          "FROM generate_series(1, 4000) g")
    check("CREATE + INSERT ... SELECT into an empty table: written whole", whole("t"), True)
    ok(a, "INSERT INTO t VALUES (4001, 'a-first', 123456789012345678901234567890.5, NULL, true)")
    check("a one-row INSERT: a tail", is_tail("t"), True)
    ok(a, "INSERT INTO t VALUES (4002, 'zz-last', NULL, '1999-12-31', NULL), (4003, NULL, -1, NULL, false)")
    check("a multi-row INSERT: a tail", is_tail("t"), True)
    ok(a, "INSERT INTO t SELECT id + 10000, 'm' || id, n, d, b FROM t WHERE id <= 20")
    check("INSERT ... SELECT: a tail", is_tail("t"), True)
    rows = "".join("%d\tcopy%d\t%d.25\t2021-03-%02d\t%s\n" % (9000 + i, i, i, 1 + i % 28, "t" if i % 2 else "\\N")
                   for i in range(100))
    r = a.copy_in("COPY t FROM STDIN", [rows.encode()])
    check("COPY FROM STDIN", r.error(), None)
    check("COPY: a tail", is_tail("t"), True)
    ok(a, "BEGIN")
    ok(a, "INSERT INTO t VALUES (5001, 'b-block', 1, NULL, NULL)")
    ok(a, "INSERT INTO t VALUES (5002, 'm2', 2, NULL, NULL)")   # (a string the table holds)
    ok(a, "COMMIT")
    check("two INSERTs in a block: a tail", is_tail("t"), True)
    ok(a, "INSERT INTO t VALUES (1, 'dup'), (5003, 'c-conflict') ON CONFLICT DO NOTHING")
    check("ON CONFLICT DO NOTHING: a tail", is_tail("t"), True)
    ok(a, "INSERT INTO t (id, n) VALUES (5004, 7)")
    check("a column list with a DEFAULT: a tail", is_tail("t"), True)
    gen_before = current_gen("t")
    ok(a, "BEGIN")
    ok(a, "INSERT INTO t VALUES (6001, 'rolled back')")
    ok(a, "ROLLBACK")
    check("a ROLLBACK writes nothing", current_gen("t"), gen_before)
    want = a.query(ALL).rows()
    check("rows before the restart", len(want), 4000 + 1 + 2 + 20 + 100 + 2 + 1 + 1)
    a.close()

    b = restart()
    check("after a restart: every row", b.query(ALL).rows(), want)
    check("after a restart: TEXT order", b.query("SELECT s FROM t WHERE s < 'c-d' ORDER BY s").rows(),
          [("a-first",), ("b-block",), ("c-conflict",)])
    check("after a restart: the key still holds", (b.query("INSERT INTO t VALUES (4001)").error() or (None,))[0],
          "23505")
    ok(b, "INSERT INTO t VALUES (7001, 'aa-after', NULL, NULL, NULL)")
    check("an append after the restart: a tail", is_tail("t"), True)
    want = b.query(ALL).rows()
    b.close()

    c = restart()
    check("after a second restart: every row", c.query(ALL).rows(), want)
    ok(c, "UPDATE t SET s = 'upd' WHERE id = 2")
    check("UPDATE: written whole", whole("t"), True)
    ok(c, "INSERT INTO t VALUES (7002, 'after-update')")
    check("an append after an UPDATE: a tail", is_tail("t"), True)
    ok(c, "DELETE FROM t WHERE id = 3")
    check("DELETE: written whole", whole("t"), True)
    want = c.query(ALL).rows()
    c.close()

    d = restart()
    check("after a third restart: every row", d.query(ALL).rows(), want)
    ok(d, "TRUNCATE t")
    check("TRUNCATE: written whole", whole("t"), True)
    ok(d, "INSERT INTO t VALUES (1, 'one')")
    d.close()
    e = restart()
    check("after TRUNCATE and a restart", e.query(ALL).rows(), [("1", "one", None, None, None)])
    e.close()
finally:
    daemon.stop()
    os.environ.get("KEEP_TMP") or shutil.rmtree(tmp, ignore_errors=True)

if checks.failed:
    sys.exit(1)
print("append_restart_wire: ok")
