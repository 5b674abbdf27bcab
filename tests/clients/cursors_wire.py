#!/usr/bin/env python3
"""cursors_wire.py - portals and cursors on the wire, against a server in
PGHOST / PGPORT / PGUSER / PGDATABASE (protocol_script.sh runs it on
PostgreSQL 15 and on attud, which must agree):

  - Execute with a row limit sends that many rows then PortalSuspended
    ('s'); the next Execute of the portal goes on; one that sends exactly
    its limit suspends too, and the next completes with 0 rows; the
    completing Execute's tag counts its own rows (SELECT n, FETCH n);
  - a portal outside a block ends at Sync (34000 after it); inside a block
    it lasts across Syncs until COMMIT / ROLLBACK, or its Close; a
    command's portal runs once (55000 after), one of rows answers 0 rows
    more (INSERT ... RETURNING's tag too); after the block fails, 25P02;
  - the command tags of the SQL cursor statements (DECLARE CURSOR,
    FETCH n, MOVE n, CLOSE CURSOR), which the SQL logic tests do not see
    (tests/sql/cursors_pg.test has their rows);
  - FETCH run as a portal with a row limit, and DECLARE with a parameter
    through Parse / Bind (psycopg's server-side cursors);
  - a BINARY cursor's rows in binary format."""
import sys

from pgwire_client import connect_from_env

c = connect_from_env()
failed = 0


def expect(what, got, want):
    global failed
    if got != want:
        print("FAIL", what, "\n  got: ", got, "\n  want:", want)
        failed += 1


def summary(reply):
    """The reply as message kinds, tags, rows and the error's SQLSTATE."""
    err = reply.error()
    return (reply.kinds(), reply.tags(), reply.rows(), err[0] if err else None)


for s in ("DROP TABLE IF EXISTS cursors_wire", "CREATE TABLE cursors_wire (k INTEGER, v TEXT)",
          "INSERT INTO cursors_wire SELECT g, 'v' || g FROM generate_series(1, 5) g"):
    r = c.query(s)
    if r.error():
        print("FAIL", s, r.error())
        sys.exit(1)

# ---- row limits outside a block: the portal pages, then ends at Sync
c.parse("", "SELECT k FROM cursors_wire ORDER BY k")
c.bind("", [], portal="p")
c.execute("p", 2)
c.execute("p", 2)
c.execute("p", 2)
c.execute("p", 2)
expect("paged portal", summary(c.sync()),
       ("12DDsDDsDCC", ["SELECT 1", "SELECT 0"], [("1",), ("2",), ("3",), ("4",), ("5",)], None))
c.execute("p", 2)
expect("portal after Sync", summary(c.sync())[3], "34000")

# exactly the limit: suspended, then 0 rows
c.parse("", "SELECT k FROM cursors_wire WHERE k <= 4 ORDER BY k")
c.bind("", [], portal="q")
c.execute("q", 2)
c.execute("q", 2)
c.execute("q", 2)
expect("exact limit", summary(c.sync()),
       ("12DDsDDsC", ["SELECT 0"], [("1",), ("2",), ("3",), ("4",)], None))

# a limit larger than the rows: the whole tag at once; 0 rows with a limit
c.parse("", "SELECT k FROM cursors_wire WHERE k > 3 ORDER BY k")
c.bind("", [])
c.execute("", 10)
expect("limit above the rows", summary(c.sync()), ("12DDC", ["SELECT 2"], [("4",), ("5",)], None))
c.parse("", "SELECT k FROM cursors_wire WHERE k > 9")
c.bind("", [])
c.execute("", 3)
expect("no rows, a limit", summary(c.sync()), ("12C", ["SELECT 0"], [], None))

# a tag without a count keeps it (SHOW)
c.parse("", "SHOW TimeZone")
c.bind("", [])
c.execute("", 1)
c.execute("", 1)
r = c.sync()
expect("SHOW paged", (r.kinds(), r.tags()), ("12DsC", ["SHOW"]))

# ---- inside a block a portal lasts across Syncs, until COMMIT
expect("begin", c.query("BEGIN").tags(), ["BEGIN"])
c.parse("", "SELECT k FROM cursors_wire ORDER BY k")
c.bind("", [], portal="b")
c.execute("b", 3)
expect("block portal, first", summary(c.sync()), ("12DDDs", [], [("1",), ("2",), ("3",)], None))
c.execute("b", 1)
expect("block portal, after Sync", summary(c.sync()), ("Ds", [], [("4",)], None))
c.bind("", [], portal="b2")
c.execute("b2", 1)
expect("second portal", summary(c.sync()), ("2Ds", [], [("1",)], None))
expect("commit", c.query("COMMIT").tags(), ["COMMIT"])
c.execute("b2", 1)
expect("portal after COMMIT", summary(c.sync())[3], "34000")

# Close ends one (a failed Execute fails the block, as any error)
c.query("BEGIN")
c.parse("", "SELECT k FROM cursors_wire ORDER BY k")
c.bind("", [], portal="x")
c.execute("x", 1)
c.send("C", b"Px\0")   # Close portal
c.execute("x", 1)
expect("closed portal", summary(c.sync()), ("12Ds3E", [], [("1",)], "34000"))
expect("failed block", c.query("COMMIT").tags(), ["ROLLBACK"])

# ROLLBACK ends them too
c.query("BEGIN")
c.parse("", "SELECT k FROM cursors_wire ORDER BY k")
c.bind("", [], portal="r")
c.execute("r", 1)
c.sync()
c.query("ROLLBACK")
c.execute("r", 1)
expect("portal after ROLLBACK", summary(c.sync())[3], "34000")

# a command's portal runs once (55000 after); one of rows answers 0 rows more
c.parse("", "INSERT INTO cursors_wire VALUES (6, 'v6'), (7, 'v7') RETURNING k")
c.bind("", [])
c.execute("", 1)
c.execute("", 1)
c.execute("", 1)
c.execute("", 1)
expect("RETURNING paged", summary(c.sync()), ("12DsDsCC", ["INSERT 0 0", "INSERT 0 0"], [("6",), ("7",)], None))
c.parse("", "DELETE FROM cursors_wire WHERE k > 5")
c.bind("", [])
c.execute("")
c.execute("")
expect("command twice", summary(c.sync()), ("12CE", ["DELETE 2"], [], "55000"))
expect("the error undid it", c.query("DELETE FROM cursors_wire WHERE k > 5").tags(), ["DELETE 2"])

# the rest of a portal after its block failed: 25P02
c.query("BEGIN")
c.parse("", "SELECT k FROM cursors_wire ORDER BY k")
c.bind("", [], portal="f")
c.execute("f", 1)
c.sync()
c.query("SELECT 1 / 0")
c.execute("f", 1)
expect("portal in a failed block", summary(c.sync())[3], "25P02")
c.query("ROLLBACK")

# ---- the cursor statements' tags
r = c.query("BEGIN; DECLARE c SCROLL CURSOR FOR SELECT k FROM cursors_wire ORDER BY k; FETCH 2 FROM c; "
            "MOVE 1 IN c; FETCH ALL FROM c; FETCH c; MOVE BACKWARD ALL IN c; MOVE 0 IN c; FETCH 0 FROM c; "
            "MOVE RELATIVE 2 IN c; MOVE FORWARD 0 IN c; FETCH LAST FROM c; MOVE ABSOLUTE 9 IN c; "
            "FETCH BACKWARD 2 FROM c; CLOSE c; CLOSE ALL; COMMIT")
expect("cursor tags", summary(r)[1:],
       (["BEGIN", "DECLARE CURSOR", "FETCH 2", "MOVE 1", "FETCH 2", "FETCH 0", "MOVE 5", "MOVE 0", "FETCH 0",
         "MOVE 1", "MOVE 1", "FETCH 1", "MOVE 0", "FETCH 2", "CLOSE CURSOR", "CLOSE CURSOR ALL", "COMMIT"],
        [("1",), ("2",), ("4",), ("5",), ("5",), ("5",), ("4",)], None))
r = c.query("BEGIN; DECLARE e CURSOR FOR SELECT k FROM cursors_wire WHERE k > 9; FETCH e; MOVE ALL IN e; COMMIT")
expect("empty cursor", summary(r), ("CCTCCC", ["BEGIN", "DECLARE CURSOR", "FETCH 0", "MOVE 0", "COMMIT"], [], None))

# ---- FETCH as a portal with a row limit; DECLARE with a parameter
c.query("BEGIN")
c.parse("d", "DECLARE pc CURSOR FOR SELECT k, v FROM cursors_wire WHERE k >= $1 ORDER BY k", [23])
c.bind("d", ["2"])
c.execute("")
c.parse("f", "FETCH FORWARD 3 FROM pc")
c.bind("f", [], portal="fp")
c.describe("P", "fp")
c.execute("fp", 2)
c.execute("fp", 2)
expect("FETCH portal", summary(c.sync()),
       ("12C12TDDsDC", ["DECLARE CURSOR", "FETCH 1"], [("2", "v2"), ("3", "v3"), ("4", "v4")], None))
r = c.query("FETCH ALL FROM pc; CLOSE pc; COMMIT")
expect("the rest", summary(r)[1:], (["FETCH 1", "CLOSE CURSOR", "COMMIT"], [("5", "v5")], None))

# ---- a BINARY cursor's rows come in binary format (simple protocol)
r = c.query("BEGIN; DECLARE bc BINARY CURSOR FOR SELECT k, k::bigint AS b FROM cursors_wire ORDER BY k; "
            "FETCH 2 FROM bc; COMMIT")
expect("binary cursor", (r.tags(), r.raw_rows()),
       (["BEGIN", "DECLARE CURSOR", "FETCH 2", "COMMIT"],
        [(b"\0\0\0\1", b"\0\0\0\0\0\0\0\1"), (b"\0\0\0\2", b"\0\0\0\0\0\0\0\2")]))

c.query("DROP TABLE cursors_wire")
c.close()
if failed:
    sys.exit(1)
print("cursors_wire: ok")
