#!/usr/bin/python3
"""char_padding_fuzz.py - random char(n) data to compare attu with PostgreSQL 15.

Writes a sqllogictest file: one table of random rows whose char(4),
char(6), text and varchar(6) values are made of letters, UTF-8, spaces
(trailing ones too) and tabs (which sort below the space that pads a
char(n)), then a fixed set of queries over it: ORDER BY, GROUP BY,
DISTINCT, joins of char with char / text / varchar, comparisons, LIKE /
ILIKE / ~, set operations, window functions, casts and string_agg.
PostgreSQL fills in the answers, attu's runner then reports each
difference:

    tests/sql/char_padding_fuzz.py --seed 3 > /tmp/cp.test
    tests/sql/pg_verify.py --dsn ... --rewrite /tmp/cp.test
    build/test/tests/sql/sqllogictest --backend cpu /tmp/cp.test

tests/sql/char_padding_random_pg.test is its output for seed 3 and 80
rows, rewritten by PostgreSQL 15.
"""
import argparse
import random

PIECES = ["a", "b", " ", "\u00e9", "\t", "Z", "~", "ab", "  ", "A"]

QUERIES = [
    "SELECT id, concat(a, '|'), concat(b, '|') FROM r ORDER BY a, id",
    "SELECT concat(a, '|'), count(*) FROM r GROUP BY a ORDER BY a",
    "SELECT x.id, y.id FROM r x JOIN r y ON x.a = y.b ORDER BY 1, 2",
    "SELECT x.id, y.id FROM r x JOIN r y ON x.a = y.t ORDER BY 1, 2",
    "SELECT x.id, y.id FROM r x JOIN r y ON x.b = y.v ORDER BY 1, 2",
    "SELECT id FROM r WHERE a < b ORDER BY id",
    "SELECT id FROM r WHERE a ILIKE '%a_' ORDER BY id",
    "SELECT id FROM r WHERE b ~ ' $' ORDER BY id",
    "SELECT count(DISTINCT a), count(DISTINCT b), count(DISTINCT v) FROM r",
    "SELECT id FROM r WHERE a = v ORDER BY id",
    "SELECT id FROM r WHERE b NOT IN (SELECT a FROM r WHERE a IS NOT NULL) ORDER BY id",
    "SELECT concat(x, '|') FROM (SELECT a AS x FROM r INTERSECT SELECT b::char(4) FROM r) s ORDER BY 1",
    "SELECT id, dense_rank() OVER (PARTITION BY a ORDER BY b) FROM r ORDER BY id",
    "SELECT concat(a, '|'), concat(b, '|') FROM r GROUP BY a, b HAVING count(*) > 1 ORDER BY 1, 2",
    "SELECT id, concat(coalesce(a, b::char(4)), '|') FROM r ORDER BY id",
    "SELECT string_agg(a, ',' ORDER BY a, id) FROM r",
    "SELECT id, length(a), octet_length(a), length(b), octet_length(b), a || '|' || b FROM r ORDER BY id",
    "SELECT id, concat(a::char(2), '|'), concat(b::char(8), '|'), a::text || '|' FROM r ORDER BY id",
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--rows", type=int, default=80)
    args = ap.parse_args()
    rnd = random.Random(args.seed)

    def value(n=None):
        if rnd.random() < 0.1:
            return None
        s = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 4)))
        return s if n is None else s[:n]

    def lit(s):
        return "NULL" if s is None else "'" + s + "'"

    rows = []
    for i in range(args.rows):
        t = value()
        rows.append("(%d, %s, %s, %s, %s)" % (i, lit(value(4)), lit(value(6)), lit(t),
                                              lit(None if t is None else t[:6])))
    print("# char(n) over random values: tests/sql/char_padding_fuzz.py --seed %d --rows %d"
          % (args.seed, args.rows))
    print("# (PostgreSQL 15's answers; a tab sorts below the space that pads a char(n))")
    print()
    print("statement ok")
    print("CREATE TABLE r (id INTEGER, a CHAR(4), b CHAR(6), t TEXT, v VARCHAR(6))")
    print()
    print("statement ok")
    print("INSERT INTO r VALUES " + ", ".join(rows))
    for q in QUERIES:
        print()
        print("query ?")
        print(q)
        print("----")


if __name__ == "__main__":
    main()
