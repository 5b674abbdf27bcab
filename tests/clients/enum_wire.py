#!/usr/bin/env python3
"""enum_wire.py ATTUD - enum types (CREATE TYPE ... AS ENUM) on the wire
and across sessions and restarts of one attud (started here on a data
directory of its own; the CPU device, or ATTU_TEST_DEVICE's):

  - RowDescription's type OID of an enum column is the type's pg_type.oid
    (what drivers look up), and pg_type / pg_enum describe it; values are
    the labels in text and in binary results (enum_send is the label's
    bytes), and of a mood[] column (the array type's OID, array_send of the
    labels); a parameter compared with or inserted into an enum column is
    described with the type's OID, and a label the type lacks is 22P02;
  - a type made or changed in one session's open block is unseen by
    another until COMMIT, and gone after ROLLBACK;
  - a committed type, its labels added BEFORE / AFTER, a renamed label
    (and the rows holding it), a renamed type and the order of stored
    values survive a daemon killed (SIGKILL) and started again, while a
    type made in a block that was rolled back never reaches the data
    directory.

The single-session answers are PostgreSQL's (tests/sql/enum_pg.test); the
OIDs are attu's own (engine/enum_type.h), so this is not compared with
PostgreSQL byte for byte."""
import os
import shutil
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attud_process import Checks, Daemon, attud_argv, conn  # noqa: E402

ATTUD = attud_argv()

daemon = Daemon(ATTUD, "attu-enum-wire.")
checks = Checks()
tmp = daemon.tmp
start, check, ok = daemon.start, checks.check, checks.ok


def col_oids(reply):
    """The type OIDs of a RowDescription."""
    import struct
    for t, p in reply.msgs:
        if t == "T":
            n, off, oids = struct.unpack("!h", p[:2])[0], 2, []
            for _ in range(n):
                off = p.index(b"\0", off) + 1
                oids.append(struct.unpack("!I", p[off + 6:off + 10])[0])
                off += 18
            return oids
    return None


try:
    port = start()
    a, b = conn(port), conn(port)
    ok(a, "CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')")
    ok(a, "CREATE TABLE person (id int, m mood)")
    ok(a, "INSERT INTO person VALUES (1, 'happy'), (2, 'sad'), (3, 'ok'), (4, NULL)")
    oid = int(a.query("SELECT oid FROM pg_type WHERE typname = 'mood'").rows()[0][0])
    check("pg_type row", a.query("SELECT typtype, typlen, typcategory FROM pg_type WHERE oid = %d" % oid).rows(),
          [("e", "4", "E")])
    check("pg_enum rows", a.query("SELECT enumlabel, enumsortorder FROM pg_enum WHERE enumtypid = %d "
                                  "ORDER BY enumsortorder" % oid).rows(),
          [("sad", "1"), ("ok", "2"), ("happy", "3")])

    # ---- RowDescription, text and binary results, parameters
    r = a.query("SELECT id, m FROM person ORDER BY m")
    check("RowDescription OID of an enum column", col_oids(r), [23, oid])
    check("values in the declared order", r.rows(), [("2", "sad"), ("3", "ok"), ("1", "happy"), ("4", None)])
    r, params, cols, rows = a.bind_run("SELECT m FROM person WHERE m > $1 ORDER BY m", [], [b"sad"], [0], 1)
    check("a parameter compared with an enum takes its type", (r.error(), params, cols), (None, [oid], [oid]))
    check("binary results are the labels' bytes", rows, [(b"ok",), (b"happy",)])
    # an enum array: the array type's OID, array_send of the labels
    # (the element OID the enum's, each element the label's bytes)
    ok(a, "CREATE TABLE moods (ms mood[])")
    ok(a, "INSERT INTO moods VALUES ('{happy,NULL,sad}')")
    aoid = int(a.query("SELECT oid FROM pg_type WHERE typname = '_mood'").rows()[0][0])
    r = a.query("SELECT ms, ms[1] FROM moods")
    check("RowDescription OID of a mood[] column", (col_oids(r), r.rows()), ([aoid, oid], [("{happy,NULL,sad}", "happy")]))
    import struct
    want = struct.pack("!iiIii", 1, 1, oid, 3, 1) + struct.pack("!i", 5) + b"happy" + struct.pack("!i", -1) + \
        struct.pack("!i", 3) + b"sad"
    r, params, cols, rows = a.bind_run("SELECT ms FROM moods", [], [], [], 1)
    check("a binary mood[] is array_send of the labels", (r.error(), cols, rows), (None, [aoid], [(want,)]))
    r, params, cols, rows = a.bind_run("INSERT INTO person VALUES ($1, $2)", [], [b"5", b"ok"], [0, 0], 0)
    check("an INSERT parameter of an enum column", (r.error(), params), (None, [23, oid]))
    r, params, cols, rows = a.bind_run("INSERT INTO person VALUES ($1, $2)", [], [b"6", b"angry"], [0, 0], 0)
    check("a label the type lacks", (r.error() or (None,))[0], "22P02")

    # ---- sessions: a block's types are its own until COMMIT
    ok(a, "BEGIN")
    ok(a, "CREATE TYPE color AS ENUM ('red', 'green')")
    ok(a, "ALTER TYPE mood ADD VALUE 'meh' AFTER 'sad'")
    check("A sees its new type", a.query("SELECT 'red'::color").rows(), [("red",)])
    check("B does not see A's uncommitted type", (b.query("SELECT 'red'::color").error() or (None,))[0], "42704")
    check("B does not see A's uncommitted label", (b.query("SELECT 'meh'::mood").error() or (None,))[0], "22P02")
    ok(a, "COMMIT")
    check("B sees the type after COMMIT", b.query("SELECT 'green'::color").rows(), [("green",)])
    check("B sees the label after COMMIT",
          b.query("SELECT m FROM (VALUES ('meh'::mood), ('sad'), ('ok')) v(m) ORDER BY m").rows(),
          [("sad",), ("meh",), ("ok",)])
    ok(a, "BEGIN")
    ok(a, "CREATE TYPE gone_t AS ENUM ('x')")
    ok(a, "ROLLBACK")
    check("a rolled-back type is gone", (a.query("SELECT 'x'::gone_t").error() or (None,))[0], "42704")

    # ---- changes that must survive a restart
    ok(b, "INSERT INTO person VALUES (7, 'meh')")
    ok(b, "ALTER TYPE mood ADD VALUE 'glad' BEFORE 'happy'")
    ok(b, "INSERT INTO person VALUES (8, 'glad')")
    ok(b, "CREATE TABLE paint (c color)")
    ok(b, "INSERT INTO paint VALUES ('green'), ('red')")
    ok(b, "ALTER TYPE color RENAME VALUE 'green' TO 'teal'")
    ok(b, "ALTER TYPE color RENAME TO colour")
    want_people = b.query("SELECT id, m FROM person ORDER BY m, id").rows()
    check("before the restart", want_people,
          [("2", "sad"), ("7", "meh"), ("3", "ok"), ("5", "ok"), ("8", "glad"), ("1", "happy"), ("4", None)])
    a.close()
    b.close()
    comments = open(os.path.join(daemon.data, "attu.comments"), errors="replace").read()
    check("a rolled-back type never reaches the data directory", "gone_t" in comments, False)
    daemon.proc.send_signal(signal.SIGKILL)
    daemon.proc.wait()
    port = start()
    d = conn(port)
    check("after a restart: the rows in the declared order", d.query("SELECT id, m FROM person ORDER BY m, id").rows(),
          want_people)
    check("after a restart: the labels", d.query("SELECT enum_range(NULL::mood)::text").rows(),
          [("{sad,meh,ok,glad,happy}",)])
    check("after a restart: the same OID", int(d.query("SELECT oid FROM pg_type WHERE typname = 'mood'").rows()[0][0]),
          oid)
    check("after a restart: the renamed type and label", d.query("SELECT c FROM paint ORDER BY c").rows(),
          [("red",), ("teal",)])
    check("after a restart: the old type name is gone", (d.query("SELECT 'red'::color").error() or (None,))[0], "42704")
    check("after a restart: a new label still sorts between", d.query(
        "SELECT count(*) FROM person WHERE m > 'ok' AND m < 'happy'").rows(), [("1",)])
    check("after a restart: a mood[] column", d.query("SELECT ms, ms[3] FROM moods").rows(), [("{happy,NULL,sad}", "sad")])
    check("after a restart: DROP TYPE in use", (d.query("DROP TYPE mood").error() or (None,))[0], "2BP01")
    d.close()
finally:
    daemon.stop()
    os.environ.get("KEEP_TMP") or shutil.rmtree(tmp, ignore_errors=True)

if checks.failed:
    sys.exit(1)
print("enum_wire: ok")
