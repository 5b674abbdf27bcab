#!/usr/bin/python3
"""pg_verify.py - checks SQL logic test files against a real PostgreSQL 15.

Every expected result in tests/sql/*.test must be what PostgreSQL 15 prints.
This script runs each record of the given files on a PostgreSQL server (a
fresh database per file) and reports every record whose result, column
type classes or error class differ. Records under `skipif postgres` or
`onlyif cpu|gpu|attu` are left out (attu-only features).

    tests/sql/pg_verify.py [--dsn DSN] FILE.test...          # verify
    tests/sql/pg_verify.py --rewrite FILE.test...             # fill in results

--rewrite writes PostgreSQL's answers into the file: the rows under `----`
(hashed above the file's hash-threshold), the type letters of a query whose
types are written `?`, and the SQLSTATE of a bare `statement error`. A
`query` that fails on PostgreSQL becomes `statement error SQLSTATE`. Review
the diff: the oracle is PostgreSQL, the intent is yours.

__TEST_DIR__ and __TMP_DIR__ are replaced as sqllogictest.c replaces them
(the latter with a folder made for the file and removed after it).

The format is the one tests/sql/sqllogictest.c documents; both sides must
format values the same way (TAB between values, NULL, (empty), \\n \\t \\r).

Default DSN: host=/tmp port=55433 dbname=postgres user=pgtest (a private server, see
docs/testing.md). Needs python3 with psycopg2 (Debian: python3-psycopg2).
"""
import argparse
import hashlib
import os
import re
import shutil
import sys
import tempfile
import uuid

import psycopg2
import psycopg2.extensions

# Keep every value as PostgreSQL's own text output: map the OIDs the tests
# use onto a caster that returns the string untouched.
_RAW_OIDS = (16, 20, 21, 23, 25, 26, 700, 701, 1042, 1043, 1082, 1083, 1266,
             1114, 1184, 1186, 1700, 19,
             # the array types, kept as PostgreSQL's text ('{1,2}')
             1000, 1005, 1007, 1009, 1015, 1016, 1021, 1022, 1115, 1182,
             1185, 1231, 1183, 1270, 1014, 1187,
             # json and jsonb and their arrays, kept as their text (psycopg2 would parse them)
             114, 3802, 199, 3807,
             # uuid and bytea, kept as their text (psycopg2 makes bytea a memoryview)
             2950, 17, 2951, 1001,
             # the range types, kept as their text (psycopg2 makes them Range objects)
             3904, 3926, 3906, 3912, 3908, 3910)
_RAW = psycopg2.extensions.new_type(_RAW_OIDS, "ATTU_RAW", lambda v, cur: v)
psycopg2.extensions.register_type(_RAW)

INT_OIDS = {20, 21, 23}
NUM_OIDS = {700, 701, 1700}
BOOL_OIDS = {16}


def type_letter(oid):
    if oid in INT_OIDS:
        return "I"
    if oid in NUM_OIDS:
        return "R"
    if oid in BOOL_OIDS:
        return "B"
    return "T"


def letter_ok(letter, oid):
    """The same classes the C runner checks, seen from PostgreSQL's side."""
    if letter == "I":
        return oid in INT_OIDS or oid == 1700
    if letter == "R":
        return oid in INT_OIDS or oid in NUM_OIDS
    if letter == "B":
        return oid in BOOL_OIDS
    return letter == "T"


def fmt_value(v):
    if v is None:
        return "NULL"
    if not isinstance(v, str):
        v = str(v)
    if v == "":
        return "(empty)"
    return v.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")


def sort_values(values, ncols, mode):
    if mode == "valuesort":
        return sorted(values, key=lambda s: s.encode())
    if mode == "rowsort" and ncols:
        rows = [values[i:i + ncols] for i in range(0, len(values), ncols)]
        rows.sort(key=lambda r: [s.encode() for s in r])
        return [v for r in rows for v in r]
    return list(values)


def md5_of(values):
    h = hashlib.md5()
    for v in values:
        h.update(v.encode())
        h.update(b"\n")
    return h.hexdigest()


SQLSTATE_RE = re.compile(r"^[0-9A-Z]{5}$")


class Record:
    """One record: its lines in the file [start, end) and what they say."""

    def __init__(self):
        self.start = self.end = 0
        self.conds = []          # [(kind, name)]
        self.kind = None         # statement / query / halt / hash-threshold
        self.header = ""
        self.header_idx = 0
        self.sql_lines = []
        self.expected = None     # list of lines, or None (no ----)
        self.result_idx = None   # index of the first result line


def parse(lines):
    recs, i, n = [], 0, len(lines)
    while i < n:
        line = lines[i]
        if not line.strip() or line.startswith("#"):
            i += 1
            continue
        r = Record()
        r.start = i
        while i < n:
            w = lines[i].split()
            if len(w) >= 2 and w[0] in ("skipif", "onlyif"):
                r.conds.append((w[0], w[1]))
                i += 1
            elif w and w[0] == "knownfail":
                i += 1   # an attu gap; PostgreSQL runs the record as usual
            else:
                break
        if i >= n:
            break
        r.header_idx = i
        r.header = lines[i]
        w = r.header.split()
        r.kind = w[0] if w else ""
        i += 1
        if r.kind in ("statement", "query"):
            while i < n and lines[i].strip() and lines[i] != "----":
                r.sql_lines.append(lines[i])
                i += 1
            if i < n and lines[i] == "----":
                i += 1
                r.result_idx = i
                r.expected = []
                while i < n and lines[i] != "":
                    r.expected.append(lines[i])
                    i += 1
        elif r.kind not in ("halt", "hash-threshold"):
            while i < n and lines[i].strip():
                i += 1
        r.end = i
        recs.append(r)
    return recs


def applies_to_postgres(rec):
    for kind, name in rec.conds:
        if kind == "skipif" and name == "postgres":
            return False
        if kind == "onlyif" and name != "postgres":
            return False
    return True


def run_sql(cur, sql):
    """Returns (desc, rows, None) or (None, None, (sqlstate, message))."""
    try:
        cur.execute(sql)
        if cur.description is None:
            return None, None, None
        return cur.description, cur.fetchall(), None
    except psycopg2.Error as e:
        msg = e.diag.message_primary if e.diag and e.diag.message_primary else str(e)
        return None, None, (e.pgcode or "XX000", msg.strip())


def connect(dsn):
    conn = psycopg2.connect(dsn)
    conn.autocommit = True
    return conn


def setup_session(cur):
    cur.execute("SET datestyle = 'ISO, MDY'")
    cur.execute("SET TimeZone = 'UTC'")
    cur.execute("SET client_min_messages = warning")


def verify_file(path, dsn, rewrite, default_threshold):
    with open(path) as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    test_dir = os.path.dirname(os.path.abspath(path))
    # __TMP_DIR__: a folder of the file's own for COPY TO 'file' and back,
    # writable by the server (pg_fixture.sh's runs as nobody under root)
    tmp_dir = tempfile.mkdtemp(prefix="attu-pgv.")
    os.chmod(tmp_dir, 0o777)
    recs = parse(lines)

    admin = connect(dsn)
    dbname = "slt_" + uuid.uuid4().hex[:12]
    # attu follows PostgreSQL under the C locale (byte order, ASCII-only
    # classes and case folding in regular expressions, initcap); a server
    # made without --locale=C (tests/clients/pg_fixture.sh takes the
    # environment's, often C.UTF-8) would answer otherwise, so the database
    # asks for it whatever template1 holds
    admin.cursor().execute("CREATE DATABASE %s TEMPLATE template0 ENCODING 'UTF8' "
                           "LC_COLLATE 'C' LC_CTYPE 'C'" % dbname)
    base = psycopg2.extensions.parse_dsn(dsn)
    base["dbname"] = dbname
    conn = psycopg2.connect(**base)
    conn.autocommit = True
    cur = conn.cursor()
    setup_session(cur)

    problems = 0
    checked = 0
    threshold = default_threshold if rewrite else 0
    edits = {}     # line index -> replacement list of lines (for rewrite)
    try:
        for r in recs:
            if r.kind == "hash-threshold":
                if applies_to_postgres(r):
                    threshold = int(r.header.split()[1])
                continue
            if r.kind == "halt":
                if applies_to_postgres(r):
                    break
                continue
            if r.kind not in ("statement", "query") or not applies_to_postgres(r):
                continue
            sql = "\n".join(r.sql_lines).replace("__TEST_DIR__", test_dir).replace("__TMP_DIR__", tmp_dir)
            where = "%s:%d" % (path, r.header_idx + 1)
            desc, rows, err = run_sql(cur, sql)
            checked += 1
            w = r.header.split()
            if r.kind == "statement":
                expect_ok = len(w) >= 2 and w[1] == "ok"
                arg = r.header.split("error", 1)[1].strip() if not expect_ok else ""
                if expect_ok and err:
                    problems += 1
                    print("DIFF %s: expected ok, PostgreSQL says %s: %s\n  sql: %s"
                          % (where, err[0], err[1].splitlines()[0], sql))
                elif not expect_ok and not err:
                    problems += 1
                    print("DIFF %s: expected an error %s, PostgreSQL succeeded\n  sql: %s"
                          % (where, arg, sql))
                elif not expect_ok:
                    if not arg:
                        if rewrite:
                            edits[r.header_idx] = ["statement error %s" % err[0]]
                    elif SQLSTATE_RE.match(arg):
                        if arg != err[0]:
                            problems += 1
                            print("DIFF %s: expected SQLSTATE %s, PostgreSQL says %s: %s\n  sql: %s"
                                  % (where, arg, err[0], err[1].splitlines()[0], sql))
                    elif not re.search(arg, err[1]):
                        problems += 1
                        print("DIFF %s: PostgreSQL's message %r does not match /%s/\n  sql: %s"
                              % (where, err[1], arg, sql))
                continue

            # query
            types = w[1] if len(w) >= 2 else "?"
            mode = w[2] if len(w) >= 3 and w[2] in ("nosort", "rowsort", "valuesort") else "nosort"
            if err:
                if rewrite:
                    edits[r.header_idx] = ["statement error %s" % err[0]]
                    if r.result_idx is not None:
                        # Drop the ---- line and the results.
                        edits[("drop", r.result_idx - 1, r.end)] = []
                    print("NOTE %s: query failed on PostgreSQL (%s: %s); now a statement error"
                          % (where, err[0], err[1].splitlines()[0]))
                else:
                    problems += 1
                    print("DIFF %s: query failed on PostgreSQL: %s: %s\n  sql: %s"
                          % (where, err[0], err[1].splitlines()[0], sql))
                continue
            if desc is None:
                problems += 1
                print("DIFF %s: query returned no rows description\n  sql: %s" % (where, sql))
                continue
            oids = [d.type_code for d in desc]
            ncols = len(oids)
            values = [fmt_value(v) for row in rows for v in row]
            values = sort_values(values, ncols, mode)
            new_types = types
            if types == "?" or len(types) != ncols:
                if not rewrite:
                    problems += 1
                    print("DIFF %s: types %s but PostgreSQL returns %d columns\n  sql: %s"
                          % (where, types, ncols, sql))
                    continue
                new_types = "".join(type_letter(o) for o in oids)
            else:
                bad = [i for i, (t, o) in enumerate(zip(types, oids)) if not letter_ok(t, o)]
                if bad:
                    problems += 1
                    print("DIFF %s: column %d is OID %d, not of class %s\n  sql: %s"
                          % (where, bad[0] + 1, oids[bad[0]], types[bad[0]], sql))
                    if not rewrite:
                        continue
                    new_types = "".join(type_letter(o) for o in oids)
            if rewrite:
                if threshold and len(values) > threshold:
                    out = ["%d values hashing to %s" % (len(values), md5_of(values))]
                else:
                    out = ["\t".join(values[i:i + ncols]) for i in range(0, len(values), ncols)] if ncols else []
                head = r.header.split()
                head[1:2] = [new_types] if len(head) >= 2 else [new_types]
                edits[r.header_idx] = [" ".join(head)]
                if r.result_idx is not None:
                    edits[("replace", r.result_idx - 1, r.end)] = ["----"] + out
                else:
                    edits[("insert", r.header_idx + 1 + len(r.sql_lines))] = ["----"] + out
                continue
            exp = r.expected or []
            m = re.match(r"^(\d+) values hashing to ([0-9a-f]{32})$", exp[0]) if len(exp) == 1 else None
            if m:
                ok = int(m.group(1)) == len(values) and m.group(2) == md5_of(values)
                if not ok:
                    problems += 1
                    print("DIFF %s: expected %s, PostgreSQL gives %d values hashing to %s\n  sql: %s"
                          % (where, exp[0], len(values), md5_of(values), sql))
                continue
            expv = [v for line in exp for v in line.split("\t")]
            expv = sort_values(expv, ncols, mode)
            if expv != values:
                problems += 1
                print("DIFF %s: wrong result\n  sql: %s\n  expected: %r\n  postgres: %r"
                      % (where, sql, expv[:40], values[:40]))
    finally:
        cur.close()
        conn.close()
        admin.cursor().execute("DROP DATABASE IF EXISTS %s" % dbname)
        admin.close()
        shutil.rmtree(tmp_dir, ignore_errors=True)

    if rewrite and edits:
        out = []
        i = 0
        ranges = {}
        inserts = {}
        for k, v in edits.items():
            if isinstance(k, tuple) and k[0] in ("replace", "drop"):
                ranges[k[1]] = (k[2], v)
            elif isinstance(k, tuple) and k[0] == "insert":
                inserts[k[1]] = v
        while i < len(lines):
            if i in inserts:
                out.extend(inserts[i])
            if i in ranges:
                end, v = ranges[i]
                out.extend(v)
                i = end
                continue
            if i in edits:
                out.extend(edits[i])
            else:
                out.append(lines[i])
            i += 1
        if len(lines) in inserts:
            out.extend(inserts[len(lines)])
        with open(path, "w") as f:
            f.write("\n".join(out) + "\n")
    print("%s: %d records checked on PostgreSQL, %d differ" % (path, checked, problems))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dsn", default=os.environ.get("ATTU_PG_DSN", "host=/tmp port=55433 dbname=postgres user=pgtest"))
    ap.add_argument("--rewrite", action="store_true", help="write PostgreSQL's results into the files")
    ap.add_argument("--hash-threshold", type=int, default=0,
                    help="with --rewrite: hash results of more values than this (0 = never, unless the file says)")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    total = 0
    for p in a.files:
        total += verify_file(p, a.dsn, a.rewrite, a.hash_threshold)
    print("%d record(s) differ from PostgreSQL" % total)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
