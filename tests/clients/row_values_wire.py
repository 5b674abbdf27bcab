#!/usr/bin/env python3
"""row_values_wire.py - row values on the wire, against a server in PGHOST /
PGPORT / PGUSER / PGDATABASE (protocol_script.sh runs it on PostgreSQL 15
and on attud, which must agree): a row constructor's column is named row
and typed record (OID 2249) in RowDescription, its cast to text is text
(25), its value record_out's text; a whole-row reference's column takes
the table's name (its OID is the table's composite type on PostgreSQL,
record on attu, so only the name is compared)."""
import sys

from pgwire_client import connect_from_env

c = connect_from_env()
failed = 0


def check(sql, want_cols, want_rows, names_only=False):
    global failed
    r = c.query(sql)
    cols = r.columns()
    if names_only and cols:
        cols = [n for n, _ in cols]
    if r.error() or cols != want_cols or r.rows() != want_rows:
        print("FAIL", sql, r.error(), cols, r.rows())
        failed += 1


for s in ("DROP TABLE IF EXISTS row_values_wire", "CREATE TABLE row_values_wire (k INTEGER, s TEXT)",
          "INSERT INTO row_values_wire VALUES (1, 'a b'), (2, NULL)"):
    r = c.query(s)
    if r.error():
        print("FAIL", s, r.error())
        sys.exit(1)
check("SELECT ROW(1, 'a'), (2, NULL)", [("row", 2249), ("row", 2249)], [("(1,a)", "(2,)")])
check("SELECT ROW(1, 'a')::text AS t, CAST((1, 'x y') AS varchar) AS v", [("t", 25), ("v", 1043)],
      [("(1,a)", '(1,"x y")')])
check("SELECT row_values_wire FROM row_values_wire ORDER BY k", ["row_values_wire"],
      [('(1,"a b")',), ("(2,)",)], names_only=True)
c.query("DROP TABLE row_values_wire")
c.close()
if failed:
    sys.exit(1)
print("row_values_wire: ok")
