#!/usr/bin/python3
"""ordered_set_fuzz.py - random ordered-set aggregate queries to compare attu
with PostgreSQL 15.

Writes a sqllogictest file: one table of 3,000 rows (integers, floats with
NaN and Infinity, numerics, text, dates, bigints, NULLs in most columns),
then random queries of one to three percentile_cont / percentile_disc /
mode() WITHIN GROUP calls (fractions 0 to 1, ASC / DESC / NULLS, FILTER),
grouped by nothing, an integer, text, two keys or an expression, over
WHERE clauses that keep all, some or no rows. PostgreSQL fills in the
answers, attu's runner then reports each difference:

    tests/sql/ordered_set_fuzz.py --seed 7 --count 250 > /tmp/osa.test
    tests/sql/pg_verify.py --dsn ... --rewrite /tmp/osa.test
    build/osa/tests/sql/sqllogictest --backend cpu /tmp/osa.test

tests/sql/ordered_set_aggregates_random_pg.test is its output for seed 7
and count 250, rewritten by PostgreSQL 15 (results over 12 values hashed).
"""
import argparse
import random

SETUP = [
    "statement ok",
    "CREATE TABLE r (g INTEGER, h TEXT, i INTEGER, f DOUBLE PRECISION, n NUMERIC(12,4), t TEXT, d DATE, b BIGINT)",
    "",
    "statement ok",
    "INSERT INTO r SELECT x % 7, CASE WHEN x % 5 = 0 THEN NULL ELSE chr(97 + x % 3) END, "
    "CASE WHEN x % 11 = 0 THEN NULL ELSE (x * 37) % 23 - 5 END, "
    "CASE WHEN x % 13 = 0 THEN NULL WHEN x % 17 = 0 THEN 'NaN'::float8 WHEN x % 19 = 0 THEN 'Infinity'::float8 "
    "ELSE ((x * 7919) % 1009) / 7.0 END, ((x * 31) % 97) / 8.0, "
    "CASE WHEN x % 4 = 0 THEN NULL ELSE 'w' || ((x * 13) % 9) END, DATE '2020-01-01' + (x * 17) % 400, "
    "(x::bigint * 1000000007) % 99991 FROM generate_series(1, 3000) AS s(x)",
    "",
    "hash-threshold 12",
    "",
]

# column -> the aggregates it takes (percentile_cont wants a number)
COLUMNS = {"i": "any", "f": "any", "n": "any", "t": "disc", "d": "disc", "b": "any"}
FRACTIONS = ["0", "1", "0.5", "0.25", "0.75", "0.1", "0.33", "0.999", "0.001", "1.0/3", "0.6180339887"]
DIRECTIONS = ["", " DESC", " ASC", " DESC NULLS LAST", " NULLS FIRST"]
FILTERS = ["", "", " FILTER (WHERE i > 0)", " FILTER (WHERE g <> 3)"]
GROUPS = ["", "g", "h", "g, h", "g % 3", "d"]
WHERES = ["", "", " WHERE i IS NOT NULL", " WHERE g < 4", " WHERE f > 100"]


def call(rng):
    col = rng.choice(list(COLUMNS))
    kinds = ["cont", "disc", "mode"] if COLUMNS[col] == "any" else ["disc", "mode"]
    kind = rng.choice(kinds)
    order = "ORDER BY %s%s" % (col, rng.choice(DIRECTIONS))
    filt = rng.choice(FILTERS)
    if kind == "mode":
        return "mode() WITHIN GROUP (%s)%s" % (order, filt)
    return "percentile_%s(%s) WITHIN GROUP (%s)%s" % (kind, rng.choice(FRACTIONS), order, filt)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--count", type=int, default=250)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    out = ["# ordered-set aggregates, random queries (tests/sql/ordered_set_fuzz.py --seed %d --count %d)" % (a.seed, a.count), ""]
    out += SETUP
    for _ in range(a.count):
        items = ", ".join(call(rng) for _ in range(rng.randint(1, 3)))
        grp, where = rng.choice(GROUPS), rng.choice(WHERES)
        if grp:
            out += ["query ? rowsort", "SELECT %s, %s FROM r%s GROUP BY %s" % (grp, items, where, grp), "----", ""]
        else:
            out += ["query ?", "SELECT %s FROM r%s" % (items, where), "----", ""]
    print("\n".join(out))


if __name__ == "__main__":
    main()
