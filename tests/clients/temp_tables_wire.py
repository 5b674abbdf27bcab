#!/usr/bin/env python3
"""temp_tables_wire.py ATTUD - temporary tables (db/db_temp.c) seen from
several sessions of one attud (started here on a data directory of its own;
the CPU device, or ATTU_TEST_DEVICE's):

  - a session's temporary table is its own: another session does not see
    it (42P01, not in pg_class), reads its own permanent table of that name
    and may make a temporary table of the same name with other rows;
  - a temporary table shadows a permanent one for its session only; a
    view over a temporary table is temporary (unseen by another session,
    never in attu.views);
  - writing a temporary table while another session's block writes waits
    for the token as any writer does (attu's database-wide writing token,
    docs/sql-reference.md, "Temporary tables"), and ON COMMIT DELETE ROWS
    acts at each of the session's commits;
  - the table goes when its session ends (a new session may create it
    again, its serial column's sequence goes with it);
  - a temporary sequence (CREATE TEMP SEQUENCE) is its session's alone:
    another session reaches the permanent one of its name, may make its
    own, never sees or drops it, and it goes with its session;
  - nothing of it reaches the data directory: no file of its name, no
    line of its serial column's sequence or of a temporary sequence in
    attu.sequences, and a daemon
    killed (SIGKILL) while the session lives comes back (same data
    directory) with none of it while the permanent tables stay.

The single-session answers are PostgreSQL's (tests/sql/temp_tables_pg.test)."""
import os
import shutil
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attud_process import Checks, Daemon, attud_argv, conn, in_thread  # noqa: E402

ATTUD = attud_argv()

daemon = Daemon(ATTUD, "attu-temp-wire.")
checks = Checks()
tmp, data = daemon.tmp, daemon.data
start, check, ok, count = daemon.start, checks.check, checks.ok, checks.count



def files_named(name):
    hits = []
    for root, dirs, files in os.walk(data):
        for f in files + dirs:
            if name in f:
                hits.append(os.path.join(root, f))
    return hits


try:
    port = start()
    a, b = conn(port), conn(port)
    ok(a, "CREATE TABLE shared (x INTEGER)")
    ok(a, "INSERT INTO shared VALUES (1), (2)")

    # ---- visibility: A's temporary tables are A's alone
    ok(a, "CREATE TEMP TABLE tmp_only (v TEXT)")
    ok(a, "INSERT INTO tmp_only VALUES ('a1'), ('a2')")
    check("A reads its temporary table", count(a, "tmp_only"), 2)
    check("B does not see it", b.query("SELECT * FROM tmp_only").error()[0], "42P01")
    check("B's pg_class has no row of it", b.query("SELECT count(*) FROM pg_class WHERE relname = 'tmp_only'").rows(),
          [("0",)])
    check("A's pg_class says temporary", a.query("SELECT relpersistence FROM pg_class WHERE relname = 'tmp_only'").rows(),
          [("t",)])
    check("A's schema is pg_temp_N",
          a.query("SELECT n.nspname LIKE 'pg_temp_%' FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                  "WHERE c.relname = 'tmp_only'").rows(), [("t",)])

    ok(a, "CREATE VIEW tmp_view AS SELECT upper(v) AS u FROM tmp_only")   # (temporary: it reads one)
    check("A reads its temporary view", a.query("SELECT u FROM tmp_view ORDER BY u").rows(), [("A1",), ("A2",)])
    check("B does not see A's temporary view", b.query("SELECT * FROM tmp_view").error()[0], "42P01")

    # ---- the same name in two sessions, each with its own rows
    ok(b, "CREATE TEMP TABLE tmp_only (v TEXT, n INTEGER)")
    ok(b, "INSERT INTO tmp_only VALUES ('b1', 1)")
    check("B reads its own", b.query("SELECT v, n FROM tmp_only").rows(), [("b1", "1")])
    check("A still reads its own", a.query("SELECT v FROM tmp_only ORDER BY v").rows(), [("a1",), ("a2",)])

    # ---- shadowing: for its session only
    ok(a, "CREATE TEMP TABLE shared (x INTEGER, y INTEGER)")
    ok(a, "INSERT INTO shared VALUES (10, 11)")
    check("A reads its temporary shared", a.query("SELECT x, y FROM shared").rows(), [("10", "11")])
    check("A reads public.shared", count(a, "public.shared"), 2)
    check("B reads the permanent shared", count(b, "shared"), 2)
    ok(b, "INSERT INTO shared VALUES (3)")
    check("A's temporary shared is unchanged", count(a, "shared"), 1)
    check("A sees B's committed row in public.shared", count(a, "public.shared"), 3)

    # ---- transactions: B's block over a temporary table, A's own work
    ok(b, "BEGIN")
    ok(b, "INSERT INTO tmp_only VALUES ('b2', 2)")
    check("B's block sees its row", count(b, "tmp_only"), 2)
    check("A's table is another", count(a, "tmp_only"), 2)
    ok(b, "ROLLBACK")
    check("B's row rolled back", count(b, "tmp_only"), 1)
    ok(a, "CREATE TEMP TABLE per_txn (x INTEGER) ON COMMIT DELETE ROWS")
    ok(a, "BEGIN")
    ok(a, "INSERT INTO per_txn VALUES (1), (2)")
    check("inside A's block: its rows", count(a, "per_txn"), 2)
    ok(a, "COMMIT")
    check("after A's COMMIT: ON COMMIT DELETE ROWS", count(a, "per_txn"), 0)

    # ---- serial columns: each session's sequence its own, a permanent
    # table's of the same name untouched
    ok(a, "CREATE TABLE sq (id SERIAL, v TEXT)")
    ok(a, "INSERT INTO sq (v) VALUES ('p1'), ('p2')")
    ok(a, "CREATE TEMP TABLE sq (id SERIAL, v TEXT)")
    s2 = conn(port)
    ok(s2, "CREATE TEMP TABLE sq (id SERIAL, v TEXT)")
    check("A's temporary serial starts at 1", ok(a, "INSERT INTO sq (v) VALUES ('a') RETURNING id").rows(), [("1",)])
    check("S2's temporary serial starts at 1", ok(s2, "INSERT INTO sq (v) VALUES ('s') RETURNING id").rows(), [("1",)])
    check("S2 does not see A's temporary sequence",
          s2.query("SELECT count(*) FROM pg_class WHERE relkind = 'S' AND relname LIKE 'sq%'").rows(), [("2",)])
    ok(a, "DROP TABLE sq")   # (the temporary one)
    check("the permanent sq's sequence lives on", ok(a, "INSERT INTO sq (v) VALUES ('p3') RETURNING id").rows(),
          [("3",)])
    s2.close()
    time.sleep(0.3)
    check("after S2's end, the permanent sq's sequence still lives",
          ok(a, "INSERT INTO sq (v) VALUES ('p4') RETURNING id").rows(), [("4",)])
    ok(a, "DROP TABLE sq")

    # ---- the end of the session drops them (and a serial column's sequence)
    ok(b, "CREATE TEMP TABLE gone_t (id SERIAL, v TEXT)")
    ok(b, "INSERT INTO gone_t (v) VALUES ('x')")
    b.close()
    c = conn(port)
    check("a new session does not see B's table", c.query("SELECT * FROM gone_t").error()[0], "42P01")
    time.sleep(0.3)   # (B's end runs in its connection's thread)
    check("its sequence went with it", c.query("SELECT count(*) FROM pg_class WHERE relname = 'gone_t_id_seq'").rows(),
          [("0",)])
    ok(c, "CREATE TEMP TABLE gone_t (id SERIAL, v TEXT)")
    check("and may make it again, its sequence anew",
          ok(c, "INSERT INTO gone_t (v) VALUES ('y') RETURNING id").rows(), [("1",)])
    ok(c, "CREATE TABLE keeps (k INTEGER)")
    ok(c, "INSERT INTO keeps VALUES (42)")

    # ---- temporary sequences (CREATE TEMP SEQUENCE): each session's own,
    # shadowing a permanent one of the name for that session alone
    ok(c, "CREATE SEQUENCE tseq START 100")
    ok(c, "CREATE TEMP SEQUENCE tseq")
    e = conn(port)
    check("C's nextval('tseq') is its temporary one", ok(c, "SELECT nextval('tseq')").rows(), [("1",)])
    check("E's nextval('tseq') is the permanent one", ok(e, "SELECT nextval('tseq')").rows(), [("100",)])
    check("E's pg_class has no temporary tseq",
          e.query("SELECT count(*) FROM pg_class WHERE relname = 'tseq' AND relpersistence = 't'").rows(), [("0",)])
    check("E's pg_sequences has one tseq", e.query("SELECT count(*) FROM pg_sequences WHERE sequencename = 'tseq'").rows(),
          [("1",)])
    check("E has no pg_temp (no temporary relation yet)", e.query("SELECT nextval('pg_temp.tseq')").error()[0], "3F000")
    ok(e, "CREATE TEMP SEQUENCE tseq START 50")
    check("E's own temporary tseq", ok(e, "SELECT nextval('tseq')").rows(), [("50",)])
    check("C's is still its own", ok(c, "SELECT nextval('tseq')").rows(), [("2",)])
    ok(e, "CREATE TEMP SEQUENCE e_only")
    ok(e, "SELECT nextval('e_only')")
    check("C does not see E's temporary sequence", c.query("SELECT nextval('e_only')").error()[0], "42P01")
    check("nor can C drop it", c.query("DROP SEQUENCE e_only").error()[0], "42P01")
    ok(e, "CREATE TEMP SEQUENCE e_name")
    ok(c, "CREATE TABLE e_name (x INTEGER)")   # (E's name takes nothing of C's namespace)
    ok(c, "DROP TABLE e_name")
    e.close()
    time.sleep(0.3)   # (E's end runs in its connection's thread)
    f = conn(port)
    check("after E's end its temporary sequences are gone",
          f.query("SELECT count(*) FROM pg_class WHERE relname IN ('e_only', 'tseq')").rows(), [("1",)])
    check("the permanent tseq lives on", ok(f, "SELECT nextval('tseq')").rows(), [("101",)])
    ok(f, "CREATE TEMP SEQUENCE e_only")   # (the name is free again)
    # a permanent table's DEFAULT nextval of a temporary sequence goes at
    # the session's end (PostgreSQL drops pg_temp_N with CASCADE)
    ok(f, "CREATE TEMP SEQUENCE fseq START 5")
    ok(f, "CREATE TABLE fpt (a INTEGER DEFAULT nextval('fseq'), b INTEGER)")
    ok(f, "INSERT INTO fpt (b) VALUES (1)")
    f.close()
    time.sleep(0.3)
    g = conn(port)
    ok(g, "INSERT INTO fpt (b) VALUES (2)")
    check("after F's end the DEFAULT of its temporary sequence is gone",
          g.query("SELECT a, b FROM fpt ORDER BY b").rows(), [("5", "1"), (None, "2")])
    ok(g, "DROP TABLE fpt")
    g.close()
    ok(c, "CREATE TEMP SEQUENCE c_kept START 7")
    check("C's temporary sequence", ok(c, "SELECT nextval('c_kept')").rows(), [("7",)])

    # ---- nothing in the data directory, nothing after a restart
    check("no file of a temporary table", files_named("tmp_only") + files_named("per_txn") + files_named("gone_t"), [])
    views_file = os.path.join(data, "attu.views")
    check("no temporary view in attu.views",
          os.path.exists(views_file) and "tmp_view" in open(views_file, errors="replace").read(), False)
    check("the permanent table has files", len(files_named("keeps")) > 0, True)
    check("no sequence of a temporary table in attu.sequences",
          "gone_t" in open(os.path.join(data, "attu.sequences"), errors="replace").read(), False)
    seq_lines = open(os.path.join(data, "attu.sequences"), errors="replace").read().splitlines()
    check("no temporary sequence in attu.sequences", [l for l in seq_lines if "c_kept" in l or "e_only" in l], [])
    check("one tseq in attu.sequences (the permanent one)", len([l for l in seq_lines if "tseq" in l]), 1)
    # (C's session still open: a killed daemon never ran its end)
    a.close()
    daemon.proc.send_signal(signal.SIGKILL)
    daemon.proc.wait()
    port = start()
    d = conn(port)
    check("after a restart: no temporary table", d.query("SELECT * FROM tmp_only").error()[0], "42P01")
    check("after a restart: no temporary view", d.query("SELECT * FROM tmp_view").error()[0], "42P01")
    check("after a restart: the permanent shared", count(d, "shared"), 3)
    check("after a restart: the permanent keeps", count(d, "keeps"), 1)
    check("after a restart: no temporary relation in pg_class",
          d.query("SELECT count(*) FROM pg_class WHERE relpersistence = 't'").rows(), [("0",)])
    check("after a restart: no sequence of a temporary table",
          d.query("SELECT count(*) FROM pg_class WHERE relname = 'gone_t_id_seq'").rows(), [("0",)])
    check("after a restart: no temporary sequence",
          d.query("SELECT count(*) FROM pg_class WHERE relname IN ('c_kept', 'e_only')").rows(), [("0",)])
    check("after a restart: the permanent tseq goes on", ok(d, "SELECT nextval('tseq')").rows(), [("102",)])
    d.close()
finally:
    daemon.stop()
    os.environ.get("KEEP_TMP") or shutil.rmtree(tmp, ignore_errors=True)

if checks.failed:
    sys.exit(1)
print("temp_tables_wire: ok")
