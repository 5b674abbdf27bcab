#!/usr/bin/env python3
"""identifier_truncation_wire.py - identifiers longer than 63 bytes,
against a server in PGHOST / PGPORT / PGUSER / PGDATABASE
(protocol_script.sh runs it on PostgreSQL 15 and on attud, which must
agree):

  - an unquoted (folded) or quoted identifier past 63 bytes is cut to 63
    bytes at a character boundary, with a NOTICE 42622 'identifier "..."
    will be truncated to "..."' for each occurrence, in text order;
  - a query string's notices all come before its first statement's result
    (the whole string is parsed first), and before a syntax error's
    ErrorResponse;
  - a Parse message's come before its ParseComplete;
  - the long and the cut name are the same object; client_min_messages
    = warning leaves the notices out."""
import struct

from pgwire_client import connect_from_env
from wire_checks import expect, finish, ok

c = connect_from_env()
ok(c, "DROP TABLE IF EXISTS " + "t" * 63)
long_a = "a" * 70
long_t = "T" * 66
r = c.query("SELECT 1 AS %s" % long_a)
expect("unquoted alias", r.notices(),
       [("NOTICE", "42622", 'identifier "%s" will be truncated to "%s"' % (long_a, "a" * 63))])
expect("unquoted alias's column", r.rows(), [("1",)])

# quoted, with two-byte characters across byte 63: cut before the character
quoted = "Xx" + "é" * 40
r = c.query('SELECT 2 AS "%s"' % quoted)
cut = quoted.encode()[:63].decode("utf-8", "ignore")  # "Xx" and 30 of them: 62 bytes
expect("quoted alias", r.notices(),
       [("NOTICE", "42622", 'identifier "%s" will be truncated to "%s"' % (quoted, cut))])

# a table created under the long name (folded) is the one the cut name reads
r = c.query("CREATE TABLE %s (v int); INSERT INTO %s VALUES (7); SELECT v FROM %s" % (long_t, long_t.lower(), "t" * 63))
expect("create / insert / select: notices first", r.kinds()[:3], "NNC")
expect("create / insert / select: two notices, then the statements", len(r.notices()), 2)
expect("create / insert / select: rows", r.rows(), [("7",)])
expect("create / insert / select: tags", r.tags(), ["CREATE TABLE", "INSERT 0 1", "SELECT 1"])

# a syntax error after the long name: the notice, then the error
r = c.query("SELECT %s FROM" % long_a)
expect("syntax error: notice then error", r.kinds()[:2], "NE")
expect("syntax error's sqlstate", r.error()[0] if r.error() else None, "42601")

# the extended protocol: the notice before ParseComplete
c.parse("", "SELECT 3 AS %s" % long_a)
expect("Parse: the notice, then ParseComplete", c.sync().kinds(), "N1")

# client_min_messages = warning: no notice
ok(c, "SET client_min_messages = warning")
r = c.query("SELECT 4 AS %s" % long_a)
expect("client_min_messages warning", r.notices(), [])
ok(c, "RESET client_min_messages")
ok(c, "DROP TABLE " + "t" * 63)
finish("identifier_truncation_wire")
