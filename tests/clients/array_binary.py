#!/usr/bin/env python3
"""array_binary.py - arrays in binary result format (array_send), against a
server in PGHOST / PGPORT / PGUSER / PGDATABASE (protocol_script.sh runs it on
PostgreSQL 15 and on attud, which must give the same bytes): dimensions, the
NULL flag, the element OID, the length and lower bound, then each element
as its type's send function writes it."""
import struct
import sys

from pgwire_client import connect_from_env


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


def arr_dims(oid, dims, elems):
    """array_send of several dimensions: dims are (length, lower bound)."""
    out = i32(len(dims), int(any(e is None for e in elems)), oid)
    for n, lb in dims:
        out += i32(n, lb)
    for e in elems:
        out += i32(-1) if e is None else i32(len(e)) + e
    return out


CASES = [
    ("SELECT ARRAY[1, NULL, 3]", arr(23, [i32(1), None, i32(3)])),
    ("SELECT '{}'::int[]", arr(23, [])),
    ("SELECT ARRAY['a b', '']", arr(25, [b"a b", b""])),
    ("SELECT ARRAY['x'::varchar]", arr(1043, [b"x"])),
    ("SELECT ARRAY[1.5::float8]", arr(701, [struct.pack("!d", 1.5)])),
    ("SELECT ARRAY[1.5::real]", arr(700, [struct.pack("!f", 1.5)])),
    ("SELECT ARRAY[-1::bigint]", arr(20, [struct.pack("!q", -1)])),
    ("SELECT ARRAY[7::smallint]", arr(21, [struct.pack("!h", 7)])),
    ("SELECT ARRAY[true, false]", arr(16, [b"\x01", b"\x00"])),
    ("SELECT ARRAY['2000-01-03'::date]", arr(1082, [i32(2)])),
    ("SELECT ARRAY['2000-01-01 00:00:01.5'::timestamp]", arr(1114, [struct.pack("!q", 1500000)])),
    # time_send (int64 microseconds), timetz_send (and int32 seconds west):
    # time[] is 1183, timetz[] 1270 (they were unknown, 705)
    ("SELECT '{12:00:01.5,NULL}'::time[]", arr(1083, [struct.pack("!q", 43201500000), None])),
    ("SELECT ARRAY['12:00+05:30'::timetz, '00:00-03']", arr(1266, [struct.pack("!qi", 43200000000, -19800),
                                                                   struct.pack("!qi", 0, 10800)])),
    # numeric_send: ndigits, weight, sign, dscale, base-10000 digits
    ("SELECT ARRAY[1.50, -2]::numeric[]", arr(1700, [struct.pack("!hhhhhh", 2, 0, 0, 2, 1, 5000),
                                                     struct.pack("!hhhhh", 1, 0, 0x4000, 0, 2)])),
    ("SELECT '{{1,2},{3,NULL}}'::int[]", arr_dims(23, [(2, 1), (2, 1)], [i32(1), i32(2), i32(3), None])),
    ("SELECT '[0:1]={5,6}'::int[]", arr_dims(23, [(2, 0)], [i32(5), i32(6)])),
    # bpchar elements as kept, padded to a char(n)'s length (bpcharsend)
    ("SELECT '{ab,NULL,c}'::char(3)[]", arr(1042, [b"ab ", None, b"c  "])),
    ("SELECT ARRAY['x '::bpchar, 'y']", arr(1042, [b"x ", b"y"])),
    # numeric(p,s) elements rounded to s (numeric_send's dscale 2)
    ("SELECT '{1.555}'::numeric(5,2)[]", arr(1700, [struct.pack("!hhhhhh", 2, 0, 0, 2, 1, 5600)])),
    # interval_send: int64 microseconds, int32 days, int32 months (interval[] is 1187)
    ("SELECT ARRAY['1 year 2 mons -3 days 04:05:06.5'::interval, NULL]",
     arr(1186, [struct.pack("!qii", 14706500000, -3, 14), None])),
    ("SELECT '{\"24 hours\",\"1 day\"}'::interval[]", arr(1186, [struct.pack("!qii", 86400000000, 0, 0),
                                                                struct.pack("!qii", 0, 1, 0)])),
]

c = connect_from_env()
failed = 0
for sql, want in CASES:
    c.parse("", sql)
    # Bind: no parameters, one result format code: binary
    c.send("B", b"\0\0" + struct.pack("!hhhh", 0, 0, 1, 1))
    c.execute()
    r = c.sync()
    rows = [p for t, p in r.msgs if t == "D"]
    if r.error() or len(rows) != 1:
        print("FAIL", sql, r.error() or rows)
        failed += 1
        continue
    n = struct.unpack("!i", rows[0][2:6])[0]
    got = rows[0][6:6 + n]
    if got != want:
        print("FAIL", sql, "\n  got ", got.hex(), "\n  want", want.hex())
        failed += 1
c.close()
if failed:
    sys.exit(1)
print("array_binary: %d cases ok" % len(CASES))
