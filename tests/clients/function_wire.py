#!/usr/bin/env python3
"""function_wire.py ATTUD - SQL functions (CREATE FUNCTION ... LANGUAGE
sql) across sessions and restarts of one attud (started here on a data
directory of its own; the CPU device, or ATTU_TEST_DEVICE's):

  - a function made in one session's open block is unseen by another
    until COMMIT, and gone after ROLLBACK;
  - committed functions (overloads of one name, a DEFAULT, a STRICT one,
    one renamed, one replaced, RETURNS TABLE and SETOF ones, a VARIADIC
    one, COMMENT ON FUNCTION's comments) survive a daemon killed (SIGKILL) and
    started again: calls resolve and give the same answers, pg_proc shows
    them with the same OIDs, DROP FUNCTION of one a view calls is still
    2BP01 and a dropped one stays gone.

The single-session answers are PostgreSQL's (tests/sql/sql_function_pg.test);
the OIDs are attu's own (engine/sql_function.h)."""
import os
import shutil
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attud_process import Checks, Daemon, attud_argv, conn, sqlstate  # noqa: E402

ATTUD = attud_argv()

daemon = Daemon(ATTUD, "attu-function-wire.")
checks = Checks()
tmp = daemon.tmp
start, check, ok = daemon.start, checks.check, checks.ok


try:
    port = start()
    a, b = conn(port), conn(port)
    ok(a, "CREATE FUNCTION twice(integer) RETURNS integer LANGUAGE sql IMMUTABLE AS 'SELECT $1 * 2'")
    ok(a, "CREATE FUNCTION twice(t text) RETURNS text LANGUAGE sql AS $$ SELECT t || t $$")
    ok(a, "CREATE FUNCTION addn(a int, b int DEFAULT 10) RETURNS int LANGUAGE sql STRICT AS 'SELECT a + b'")
    ok(a, "CREATE FUNCTION old_name(x numeric) RETURNS numeric LANGUAGE sql AS 'SELECT x / 4'")
    ok(a, "ALTER FUNCTION old_name(numeric) RENAME TO quarter")
    ok(a, "CREATE FUNCTION gone_f() RETURNS int LANGUAGE sql AS 'SELECT 1'")
    ok(a, "DROP FUNCTION gone_f()")
    ok(a, "CREATE TABLE item (id int, name text)")
    ok(a, "INSERT INTO item VALUES (1, 'a'), (2, 'b')")
    ok(a, "CREATE FUNCTION name_of(k int) RETURNS text LANGUAGE sql STABLE AS 'SELECT name FROM item WHERE id = k'")
    ok(a, "CREATE VIEW item_v AS SELECT id, twice(id) AS d FROM item")
    ok(a, "CREATE FUNCTION items_over(k int) RETURNS TABLE (id int, name text) LANGUAGE sql "
          "AS 'SELECT id, name FROM item WHERE id > k'")
    ok(a, "CREATE FUNCTION upto(n int) RETURNS SETOF int LANGUAGE sql STRICT AS 'SELECT generate_series(1, n)'")
    check("a call", a.query("SELECT twice(21), twice('ab'), addn(1), addn(NULL), quarter(10)").rows(),
          [("42", "abab", "11", None, "2.5000000000000000")])
    oid = int(a.query("SELECT oid FROM pg_proc WHERE proname = 'addn'").rows()[0][0])
    ok(a, "CREATE FUNCTION joined(sep text, VARIADIC parts text[]) RETURNS text LANGUAGE sql "
          "AS 'SELECT array_to_string(parts, sep)'")
    ok(a, "COMMENT ON FUNCTION joined IS 'joins its parts'")
    ok(a, "COMMENT ON FUNCTION addn(int, int) IS 'adds'")
    ok(a, "BEGIN")
    ok(a, "COMMENT ON FUNCTION addn(int, int) IS 'rolled back'")
    ok(a, "ROLLBACK")

    ok(a, "BEGIN")
    ok(a, "CREATE FUNCTION pending() RETURNS int LANGUAGE sql AS 'SELECT 7'")
    check("a function in an open block is unseen by another session", sqlstate(b.query("SELECT pending()")), "42883")
    check("... and seen by its own", a.query("SELECT pending()").rows(), [("7",)])
    ok(a, "ROLLBACK")
    check("a rolled-back function is gone", sqlstate(a.query("SELECT pending()")), "42883")

    ok(b, "CREATE OR REPLACE FUNCTION twice(integer) RETURNS integer LANGUAGE sql AS 'SELECT $1 + $1 + 0'")
    check("another session sees the replaced body", a.query("SELECT twice(5)").rows(), [("10",)])
    a.close()
    b.close()
    comments = open(os.path.join(daemon.data, "attu.comments"), errors="replace").read()
    check("a rolled-back function never reaches the data directory", "pending" in comments, False)
    daemon.proc.send_signal(signal.SIGKILL)
    daemon.proc.wait()
    port = start()
    d = conn(port)
    check("after a restart: the calls", d.query("SELECT twice(21), twice('ab'), addn(1, 2), addn(NULL), quarter(10)").rows(),
          [("42", "abab", "3", None, "2.5000000000000000")])
    check("after a restart: a subquery body", d.query("SELECT id, name_of(3 - id) FROM item ORDER BY id").rows(),
          [("1", "b"), ("2", "a")])
    check("after a restart: the same OID", int(d.query("SELECT oid FROM pg_proc WHERE proname = 'addn'").rows()[0][0]),
          oid)
    check("after a restart: pg_proc", d.query("SELECT proname, pronargs, provolatile, proisstrict, prosrc FROM pg_proc "
                                              "WHERE proname IN ('twice', 'addn', 'quarter') ORDER BY proname, pronargs, prosrc").rows(),
          [("addn", "2", "v", "t", "SELECT a + b"), ("quarter", "1", "v", "f", "SELECT x / 4"),
           ("twice", "1", "v", "f", " SELECT t || t "), ("twice", "1", "v", "f", "SELECT $1 + $1 + 0")])
    check("after a restart: RETURNS TABLE", d.query("SELECT * FROM items_over(1)").rows(), [("2", "b")])
    check("after a restart: RETURNS SETOF, STRICT", d.query("SELECT u FROM upto(2) AS u ORDER BY u").rows(),
          [("1",), ("2",)])
    check("after a restart: a VARIADIC function", d.query("SELECT joined('-', 'a', 'b'), joined('+', VARIADIC ARRAY['c'])").rows(),
          [("a-b", "c")])
    check("after a restart: the comments", d.query("SELECT proname, obj_description(oid, 'pg_proc') FROM pg_proc "
                                                   "WHERE proname IN ('addn', 'joined') ORDER BY 1").rows(),
          [("addn", "adds"), ("joined", "joins its parts")])
    check("after a restart: proretset", d.query("SELECT proretset FROM pg_proc WHERE proname = 'upto'").rows(), [("t",)])
    check("after a restart: the old name is gone", sqlstate(d.query("SELECT old_name(1)")), "42883")
    check("after a restart: a dropped one stays gone", sqlstate(d.query("SELECT gone_f()")), "42883")
    check("after a restart: the view calls it", d.query("SELECT id, d FROM item_v ORDER BY id").rows(),
          [("1", "2"), ("2", "4")])
    check("after a restart: DROP FUNCTION a view calls", sqlstate(d.query("DROP FUNCTION twice(integer)")), "2BP01")
    ok(d, "DROP FUNCTION addn")
    check("after a restart: DROP FUNCTION", sqlstate(d.query("SELECT addn(1)")), "42883")
    check("a dropped function's comment is gone", d.query("SELECT count(*) FROM pg_description WHERE classoid = 1255").rows(),
          [("1",)])
    d.close()
finally:
    daemon.stop()
    os.environ.get("KEEP_TMP") or shutil.rmtree(tmp, ignore_errors=True)

if checks.failed:
    sys.exit(1)
print("function_wire: ok")
