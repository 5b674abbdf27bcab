#!/usr/bin/env python3
"""uuid_bytea_wire.py - uuid (OID 2950) and bytea (OID 17) on the wire:
RowDescription's OIDs, results in text and binary format (uuid_send: the 16
bytes; byteasend: the bytes), parameters declared uuid / bytea in text and
binary format, and Bind's errors for bad input (22P02 for a uuid, 22023 for
a bytea's hex digit); COPY TO STDOUT of both in text and csv; arrays of
uuid, bytea, json and jsonb (OIDs 2951, 1001, 199, 3807) in text and
binary results and parameters and in COPY TO. Against a server in PGHOST / PGPORT / PGUSER /
PGDATABASE: protocol_script.sh runs it on PostgreSQL 15 and on attud, which
must give the same answers, byte for byte."""
import struct
import sys

from pgwire_client import connect_from_env

failures = []


def check(what, got, want):
    if got != want:
        failures.append(what)
        print("FAIL", what, "\n  got ", got, "\n  want", want)


UUID, BYTEA, TEXT = 2950, 17, 25
c = connect_from_env()


def bind_run(sql, oids, values, formats, result_format):
    """c.bind_run with the error as its SQLSTATE (None: none)."""
    r, params, cols, rows = c.bind_run(sql, oids, values, formats, result_format)
    return (r.error() or (None,))[0], params, cols, rows


U = b"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
UB = bytes.fromhex("a0eebc999c0b4ef8bb6d6bb9bd380a11")
RAW = b"\x00\xffA\\\n"

# results: text and binary
check("uuid text", bind_run("SELECT '{A0EEBC99-9C0B4EF8-BB6D6BB9-BD380A11}'::uuid", [], [], [], 0), (None, [], [UUID], [(U,)]))
check("uuid binary", bind_run("SELECT '%s'::uuid" % U.decode(), [], [], [], 1), (None, [], [UUID], [(UB,)]))
check("bytea text", bind_run("SELECT '\\x00ff415c0a'::bytea", [], [], [], 0), (None, [], [BYTEA], [(b"\\x00ff415c0a",)]))
check("bytea binary", bind_run("SELECT '\\x00ff415c0a'::bytea, ''::bytea", [], [], [], 1),
      (None, [], [BYTEA, BYTEA], [(RAW, b"")]))
check("bytea NULL binary", bind_run("SELECT NULL::bytea, NULL::uuid", [], [], [], 1), (None, [], [BYTEA, UUID], [(None, None)]))
check("gen_random_uuid oid", bind_run("SELECT length(gen_random_uuid()::text)", [], [], [], 0)[2], [23])

# parameters: declared types, text and binary
check("uuid param text", bind_run("SELECT $1", [UUID], [b"A0EEBC999C0B4EF8BB6D6BB9BD380A11"], [0], 0),
      (None, [UUID], [UUID], [(U,)]))
check("uuid param binary", bind_run("SELECT $1::text", [UUID], [UB], [1], 0), (None, [UUID], [TEXT], [(U,)]))
check("bytea param text", bind_run("SELECT $1, length($1)", [BYTEA], [b"abc\\000"], [0], 0),
      (None, [BYTEA], [BYTEA, 23], [(b"\\x61626300", b"4")]))
check("bytea param binary", bind_run("SELECT $1", [BYTEA], [RAW], [1], 1), (None, [BYTEA], [BYTEA], [(RAW,)]))
check("bytea param binary text out", bind_run("SELECT $1", [BYTEA], [RAW], [1], 0),
      (None, [BYTEA], [BYTEA], [(b"\\x00ff415c0a",)]))
check("uuid param inferred", bind_run("SELECT $1 = '%s'::uuid, $2 || '\\x01'::bytea" % U.decode(), [], [U, b"\\x02"], [0, 0], 0),
      (None, [UUID, BYTEA], [16, BYTEA], [(b"t", b"\\x0201")]))
check("uuid param bad text", bind_run("SELECT $1", [UUID], [b"a0eebc99"], [0], 0)[0], "22P02")
check("bytea param bad hex", bind_run("SELECT $1", [BYTEA], [b"\\xzz"], [0], 0)[0], "22023")
check("uuid param short binary", bind_run("SELECT $1", [UUID], [UB[:8]], [1], 0)[0], "08P01")

# COPY TO STDOUT: the canonical texts (a bytea's backslash doubled in the
# text format, as for any text)
c.query("DROP TABLE IF EXISTS uuid_bytea_wire_copy")
c.query("CREATE TABLE uuid_bytea_wire_copy (u uuid, b bytea)")
c.query("INSERT INTO uuid_bytea_wire_copy VALUES ('{A0EEBC99-9C0B4EF8-BB6D6BB9-BD380A11}', 'a,\\000\"'), (NULL, '')")


def copy_out(sql):
    return b"".join(p for t, p in c.query(sql).msgs if t == "d")


check("copy text", copy_out("COPY uuid_bytea_wire_copy TO STDOUT"),
      b"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\t\\\\x612c0022\n\\N\t\\\\x\n")
check("copy csv", copy_out("COPY uuid_bytea_wire_copy TO STDOUT WITH (FORMAT csv)"),
      b"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,\\x612c0022\n,\\x\n")
c.query("DROP TABLE uuid_bytea_wire_copy")

# arrays of uuid, bytea, json and jsonb: RowDescription's OIDs (uuid[] 2951,
# bytea[] 1001, json[] 199, jsonb[] 3807), array_out's text, array_send's
# binary (each element as its type's send function writes it), parameters
# declared as these arrays in text and binary (array_recv), and COPY TO
UUID_A, BYTEA_A, JSON_A, JSONB_A, JSON, JSONB = 2951, 1001, 199, 3807, 114, 3802


def i32(*v):
    return b"".join(struct.pack("!i", x) for x in v)


def arr(oid, elems):
    """array_send of a one-dimensional array: elems are bytes or None."""
    if not elems:
        return i32(0, 0, oid)
    out = i32(1, int(any(e is None for e in elems)), oid, len(elems), 1)
    for e in elems:
        out += i32(-1) if e is None else i32(len(e)) + e
    return out


ARR_SQL = ("SELECT ARRAY['%s'::uuid, NULL], ARRAY['\\x00ff415c0a'::bytea, ''], "
           "ARRAY['{\"b\": 1,  \"a\": [2]}'::json], ARRAY['{\"b\": 1,  \"a\": [2]}'::jsonb, NULL]" % U.decode())
check("arrays text", bind_run(ARR_SQL, [], [], [], 0),
      (None, [], [UUID_A, BYTEA_A, JSON_A, JSONB_A],
       [(b"{" + U + b",NULL}", b'{"\\\\x00ff415c0a","\\\\x"}', b'{"{\\"b\\": 1,  \\"a\\": [2]}"}',
         b'{"{\\"a\\": [2], \\"b\\": 1}",NULL}')]))
check("arrays binary", bind_run(ARR_SQL, [], [], [], 1),
      (None, [], [UUID_A, BYTEA_A, JSON_A, JSONB_A],
       [(arr(UUID, [UB, None]), arr(BYTEA, [RAW, b""]), arr(JSON, [b'{"b": 1,  "a": [2]}']),
         arr(JSONB, [b'\x01{"a": [2], "b": 1}', None]))]))
check("empty arrays binary", bind_run("SELECT '{}'::uuid[], '{}'::bytea[], '{}'::jsonb[]", [], [], [], 1),
      (None, [], [UUID_A, BYTEA_A, JSONB_A], [(arr(UUID, []), arr(BYTEA, []), arr(JSONB, []))]))
check("uuid[] param text", bind_run("SELECT $1, $1[2]", [UUID_A], [b"{A0EEBC999C0B4EF8BB6D6BB9BD380A11,NULL}"], [0], 0),
      (None, [UUID_A], [UUID_A, UUID], [(b"{" + U + b",NULL}", None)]))
check("uuid[] param binary", bind_run("SELECT $1", [UUID_A], [arr(UUID, [UB])], [1], 0),
      (None, [UUID_A], [UUID_A], [(b"{" + U + b"}",)]))
check("bytea[] param binary", bind_run("SELECT $1[1], cardinality($1)", [BYTEA_A], [arr(BYTEA, [RAW, None])], [1], 0),
      (None, [BYTEA_A], [BYTEA, 23], [(b"\\x00ff415c0a", b"2")]))
check("jsonb[] param binary", bind_run("SELECT $1", [JSONB_A], [arr(JSONB, [b'\x01{"b":1,"a":2}'])], [1], 0),
      (None, [JSONB_A], [JSONB_A], [(b'{"{\\"a\\": 2, \\"b\\": 1}"}',)]))
check("json[] param text", bind_run("SELECT $1", [JSON_A], [b'{"[1,2]",null}'], [0], 0),
      (None, [JSON_A], [JSON_A], [(b'{"[1,2]",NULL}',)]))   # an unquoted null is NULL
check("uuid[] param bad element", bind_run("SELECT $1", [UUID_A], [b"{a0eebc99}"], [0], 0)[0], "22P02")
check("bytea[] param wrong element oid", bind_run("SELECT $1", [BYTEA_A], [arr(UUID, [UB])], [1], 0)[0], "42804")
c.query("DROP TABLE IF EXISTS uuid_bytea_wire_arrays")
c.query("CREATE TABLE uuid_bytea_wire_arrays (u uuid[], b bytea[], j json[], jb jsonb[])")
c.query("INSERT INTO uuid_bytea_wire_arrays VALUES ('{A0EEBC99-9C0B4EF8-BB6D6BB9-BD380A11}', "
        "ARRAY['a,\\000\"'::bytea, NULL], '{\"[1, \\\"x\\\"]\"}', '{\"{\\\"k\\\": 1.50}\",null}'), (NULL, '{}', '{}', '{}')")
check("arrays copy text", copy_out("COPY uuid_bytea_wire_arrays TO STDOUT"),
      b'{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}\t{"\\\\\\\\x612c0022",NULL}\t{"[1, \\\\\"x\\\\\"]"}\t'
      b'{"{\\\\\"k\\\\\": 1.50}",NULL}\n\\N\t{}\t{}\t{}\n')
check("arrays copy csv", copy_out("COPY uuid_bytea_wire_arrays TO STDOUT WITH (FORMAT csv)"),
      b'{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11},"{""\\\\x612c0022"",NULL}","{""[1, \\""x\\""]""}",'
      b'"{""{\\""k\\"": 1.50}"",NULL}"\n,{},{},{}\n')
c.query("DROP TABLE uuid_bytea_wire_arrays")

c.close()
if failures:
    sys.exit(1)
print("uuid_bytea_wire: ok")
