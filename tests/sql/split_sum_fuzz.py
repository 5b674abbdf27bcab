#!/usr/bin/python3
"""split_sum_fuzz.py - random aggregates over a foreign-key join, the shape
the split sum takes (engine/executor_split_sum.c), to compare attu with
PostgreSQL 15.

Writes a sqllogictest file: a fact table of 70,000 rows (enough for the
dense probe) whose every key has one partner in a dimension of 20,000
rows loaded in key order, a second dimension with a unique key in random
order, values that are multiples of 1/8 below 2^30 (so that every sum is
exact in any order and the answers cannot depend on the pairs' order),
NULLs, NaN, infinities and values of 1e15 that cancel in some columns;
then random queries of one to four aggregates (count(*), sum and avg of
a value of one side plus a value of the other, of one side alone, counts
and MIN of the pairs) over WHERE clauses on the fact side or none.
PostgreSQL fills in the answers (errors included: an addition past the
float8 range is 22003); attu's runner then reports each difference, with
the partition forced (ATTU_JOIN_PARTITION_MIN_ROWS=0, where the split
runs) and without:

    tests/sql/split_sum_fuzz.py --seed 5 --count 200 > /tmp/split.test
    tests/sql/pg_verify.py --dsn ... --rewrite /tmp/split.test
    ATTU_JOIN_PARTITION_MIN_ROWS=0 build/.../sqllogictest --backend cpu /tmp/split.test

tests/sql/join_split_sum_random_pg.test is its output for seed 5 and
count 200, rewritten by PostgreSQL 15.
"""
import argparse
import random

SETUP = [
    "statement ok",
    "CREATE TABLE zf (n INTEGER, k INTEGER, k2 INTEGER, x DOUBLE PRECISION, xn DOUBLE PRECISION, "
    "xs DOUBLE PRECISION, i INTEGER, r REAL)",
    "",
    "statement ok",
    "INSERT INTO zf SELECT s, (s * 7919) % 20000, (s::bigint * 104729) % 20000, (s % 4099) / 8.0, "
    "CASE WHEN s % 13 = 0 THEN NULL ELSE ((s * 31) % 8191) / 4.0 END, "
    "CASE WHEN s = 777 THEN 'NaN'::float8 WHEN s = 1234 THEN 'Infinity'::float8 "
    "WHEN s = 4321 THEN '-Infinity'::float8 WHEN s = 999 THEN 1e15 ELSE (s % 1000) - 500 END, "
    "CASE WHEN s % 7 = 0 THEN NULL ELSE s % 1000 END, (s % 64)::real FROM generate_series(0, 69999) AS g(s)",
    "",
    "statement ok",
    "CREATE TABLE zd (k INTEGER, y DOUBLE PRECISION, yn DOUBLE PRECISION, ys DOUBLE PRECISION, g INTEGER)",
    "",
    "statement ok",
    "INSERT INTO zd SELECT s, (s % 3001) / 2.0, CASE WHEN s % 11 = 0 THEN NULL ELSE s / 8.0 END, "
    "CASE WHEN s = 55 THEN 'NaN'::float8 WHEN s = 66 THEN '-Infinity'::float8 WHEN s = 77 THEN 1e15 "
    "WHEN s = 88 THEN -1e15 ELSE 250 - (s % 500) END, s % 10 FROM generate_series(0, 19999) AS g(s) ORDER BY s",
    "",
    "statement ok",
    "CREATE TABLE zu (k INTEGER, y DOUBLE PRECISION, yn DOUBLE PRECISION, ys DOUBLE PRECISION, g INTEGER)",
    "",
    "statement ok",
    "INSERT INTO zu SELECT k, y, yn, ys, g FROM zd ORDER BY (k * 7) % 20000 DESC",
    "",
]

# values without NULL, NaN or infinity (the split stands unless the sides
# cancel), and the others (it lines the pairs up again)
FACT = ["zf.x", "zf.x * 2", "zf.x / 4", "abs(zf.x - 100)", "zf.r", "-zf.x",
        "CASE WHEN zf.n % 5 = 0 THEN zf.x ELSE 0 END", "coalesce(zf.xn, 1)"]
FACT_ODD = ["zf.xn", "zf.i", "zf.xs"]
DIM = ["d.y", "d.y * 4", "-d.y", "d.g", "abs(d.y - 700)"]
DIM_ODD = ["d.yn", "d.ys", "CASE WHEN d.g = 3 THEN NULL ELSE d.y END"]
WHERES = ["", "", "", " WHERE zf.n % 3 = 1", " WHERE zf.xs > 0", " WHERE zf.n < 40000"]
DIMS = ["zd", "zd", "zu"]


def agg(rng):
    f = rng.choice(FACT if rng.random() < 0.8 else FACT_ODD)
    d = rng.choice(DIM if rng.random() < 0.8 else DIM_ODD)
    kind = rng.random()
    if kind < 0.45:
        a, b = (f, d) if rng.random() < 0.6 else (d, f)
        return "%s(%s + %s)" % (rng.choice(["sum", "sum", "avg"]), a, b)
    if kind < 0.7:
        return "sum(%s)" % rng.choice([f, d])
    if kind < 0.85:
        return "count(*)"
    if kind < 0.93:
        return "count(%s + %s)" % (f, d)
    return "min(%s + %s)" % (f, d)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--count", type=int, default=200)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    out = ["# the split sum, random aggregates over a foreign-key join (tests/sql/split_sum_fuzz.py --seed %d "
           "--count %d)" % (a.seed, a.count), ""]
    out += SETUP
    for _ in range(a.count):
        items = ", ".join(agg(rng) for _ in range(rng.randint(1, 4)))
        dim = rng.choice(DIMS)
        key = "k" if rng.random() < 0.8 else "k2"
        out += ["query ?", "SELECT %s FROM zf JOIN %s d ON zf.%s = d.k%s" % (items, dim, key, rng.choice(WHERES)),
                "----", ""]
    print("\n".join(out))


if __name__ == "__main__":
    main()
