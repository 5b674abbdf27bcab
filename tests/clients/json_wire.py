#!/usr/bin/env python3
"""json_wire.py - json (OID 114), jsonb (OID 3802) and jsonpath (OID 4072) on the wire:
RowDescription's OIDs, results in text and binary format (jsonb_send: the
version byte 1, then the text; json_send: the text), parameters declared
json / jsonb in text and binary format (jsonb_recv's version byte; XX000, as
PostgreSQL, for another), and Bind's 22P02 for bad json. Against a server in PGHOST /
PGPORT / PGUSER / PGDATABASE: protocol_script.sh runs it on PostgreSQL 15
and on attud, which must give the same answers, byte for byte."""
import sys

from pgwire_client import connect_from_env

failures = []


def check(what, got, want):
    if got != want:
        failures.append(what)
        print("FAIL", what, "\n  got ", got, "\n  want", want)


JSON, JSONB, TEXT = 114, 3802, 25
c = connect_from_env()


def bind_run(sql, oids, values, formats, result_format):
    """c.bind_run with the error as its SQLSTATE (None: none)."""
    r, params, cols, rows = c.bind_run(sql, oids, values, formats, result_format)
    return (r.error() or (None,))[0], params, cols, rows


OBJ = b'{"b":1,  "a": [1, 2.50]}'
CANON = b'{"a": [1, 2.50], "b": 1}'

# results: text and binary
check("jsonb text", bind_run("SELECT '%s'::jsonb" % OBJ.decode(), [], [], [], 0), (None, [], [JSONB], [(CANON,)]))
check("jsonb binary", bind_run("SELECT '%s'::jsonb" % OBJ.decode(), [], [], [], 1), (None, [], [JSONB], [(b"\x01" + CANON,)]))
check("json text", bind_run("SELECT '%s'::json" % OBJ.decode(), [], [], [], 0), (None, [], [JSON], [(OBJ,)]))
check("json binary", bind_run("SELECT '%s'::json" % OBJ.decode(), [], [], [], 1), (None, [], [JSON], [(OBJ,)]))
check("jsonb -> binary", bind_run("SELECT '%s'::jsonb -> 'a', '[1]'::jsonb ->> 0" % OBJ.decode(), [], [], [], 1),
      (None, [], [JSONB, TEXT], [(b"\x01[1, 2.50]", b"1")]))
check("jsonb NULL binary", bind_run("SELECT NULL::jsonb", [], [], [], 1), (None, [], [JSONB], [(None,)]))

# parameters: declared types, text and binary
check("jsonb param text", bind_run("SELECT $1", [JSONB], [OBJ], [0], 0), (None, [JSONB], [JSONB], [(CANON,)]))
check("jsonb param binary", bind_run("SELECT $1", [JSONB], [b"\x01" + OBJ], [1], 1),
      (None, [JSONB], [JSONB], [(b"\x01" + CANON,)]))
check("json param binary", bind_run("SELECT $1", [JSON], [OBJ], [1], 0), (None, [JSON], [JSON], [(OBJ,)]))
check("jsonb param ->", bind_run("SELECT $1 -> 'b'", [JSONB], [OBJ], [0], 0), (None, [JSONB], [JSONB], [(b"1",)]))
check("jsonb param bad version", bind_run("SELECT $1", [JSONB], [b"\x02" + OBJ], [1], 0)[0], "XX000")
check("jsonb param bad text", bind_run("SELECT $1", [JSONB], [b"{bad"], [0], 0)[0], "22P02")
check("json param bad text", bind_run("SELECT $1", [JSON], [b"[1,"], [0], 0)[0], "22P02")

# jsonpath (OID 4072): jsonpath_send / jsonpath_recv are jsonb's (the
# version byte 1, then the canonical text)
JSONPATH = 4072
check("jsonpath text", bind_run("SELECT '$.a ? (@>1)'::jsonpath", [], [], [], 0), (None, [], [JSONPATH], [(b'$."a"?(@ > 1)',)]))
check("jsonpath binary", bind_run("SELECT '$.a ? (@>1)'::jsonpath", [], [], [], 1),
      (None, [], [JSONPATH], [(b'\x01$."a"?(@ > 1)',)]))
check("jsonpath param text", bind_run("SELECT jsonb_path_query_array($1, $2)", [JSONB, JSONPATH], [OBJ, b"$.a[*]"], [0, 0], 0),
      (None, [JSONB, JSONPATH], [JSONB], [(b"[1, 2.50]",)]))
check("jsonpath param binary", bind_run("SELECT $1::jsonpath", [JSONPATH], [b"\x01strict $.a"], [1], 1),
      (None, [JSONPATH], [JSONPATH], [(b'\x01strict $."a"',)]))
check("jsonpath untyped param", bind_run("SELECT $1::jsonb @? $2", [0, 0], [OBJ, b"$.b"], [0, 0], 0),
      (None, [JSONB, JSONPATH], [16], [(b"t",)]))
check("jsonpath param bad version", bind_run("SELECT $1", [JSONPATH], [b"\x02$"], [1], 0)[0], "XX000")
check("jsonpath param bad text", bind_run("SELECT $1", [JSONPATH], [b"$.a +"], [0], 0)[0], "42601")
check("jsonb_path_query of params", bind_run("SELECT * FROM jsonb_path_query($1, $2, $3)", [JSONB, JSONPATH, JSONB],
                                             [b"[1, 2, 3]", b"$[*] ? (@ > $x)", b'{"x": 1}'], [0, 0, 0], 0),
      (None, [JSONB, JSONPATH, JSONB], [JSONB], [(b"2",), (b"3",)]))

# the set-returning functions of the drivers' bulk idioms: unnest of
# array parameters side by side, json_to_recordset of a json parameter
check("unnest of two array params", bind_run("SELECT * FROM unnest($1::int[], $2::text[]) AS u(a, b)", [0, 0],
                                              [b"{1,2,3}", b"{a,b}"], [0, 0], 0),
      (None, [1007, 1009], [23, 25], [(b"1", b"a"), (b"2", b"b"), (b"3", None)]))
check("jsonb_to_recordset of a param", bind_run("SELECT * FROM jsonb_to_recordset($1) AS x(a int, b text)", [JSONB],
                                                 [b'[{"a":1,"b":"x"},{"a":2}]'], [0], 0),
      (None, [JSONB], [23, 25], [(b"1", b"x"), (b"2", None)]))
check("json_to_record of an untyped param", bind_run("SELECT * FROM json_to_record($1) AS x(a int[], j jsonb)", [0],
                                                     [b'{"a":[1,2],"j":{"y":1,"x":2}}'], [0], 0),
      (None, [JSON], [1007, JSONB], [(b"{1,2}", b'{"x": 2, "y": 1}')]))
check("json_to_record of a bad value", bind_run("SELECT * FROM json_to_record($1) AS x(a int)", [JSON], [b'{"a":"z"}'],
                                                [0], 0)[0], "22P02")

c.close()
if failures:
    sys.exit(1)
print("json_wire: ok")
