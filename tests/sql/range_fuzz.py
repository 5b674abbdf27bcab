#!/usr/bin/env python3
"""range_fuzz.py - random range expressions for a differential test against
PostgreSQL 15 (docs/testing.md): the built-in range types' literals (bounds
inclusive or not, empty, infinite sides, canonical forms of the discrete
types), their constructors, operators (= <> < <= > >= @> <@ && << >> &< &>
-|- + * -) and functions (lower, upper, isempty, lower_inc, upper_inc,
lower_inf, upper_inf, range_merge), range @> element, and ORDER BY over a
column of ranges. Write a file, let pg_verify.py --rewrite fill in
PostgreSQL's answers, then run it through sqllogictest:

    python3 tests/sql/range_fuzz.py --seed 3 --count 600 > /tmp/r.test
    python3 tests/sql/pg_verify.py --dsn "..." --rewrite /tmp/r.test
    build/gpu/tests/sql/sqllogictest /tmp/r.test
"""
import argparse, random

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--count", type=int, default=500)
args = ap.parse_args()
random.seed(args.seed)

KINDS = {
    'int4range': lambda: str(random.randint(-5, 12)),
    'int8range': lambda: str(random.choice([random.randint(-5, 12), 9000000000, -9000000000])),
    'numrange': lambda: random.choice(['1.5', '2', '-0.25', '3.75', '10', '0', '2.50']),
    'daterange': lambda: "2026-01-%02d" % random.randint(1, 28),
    'tsrange': lambda: "2026-01-%02d %02d:00" % (random.randint(1, 5), random.randint(0, 23)),
    'tstzrange': lambda: "2026-01-%02d %02d:30+00" % (random.randint(1, 5), random.randint(0, 23)),
}
ELEM = {'int4range': 'int4', 'int8range': 'int8', 'numrange': 'numeric', 'daterange': 'date',
        'tsrange': 'timestamp', 'tstzrange': 'timestamptz'}


def bound(kind):
    return KINDS[kind]()


def literal(kind):
    r = random.random()
    if r < 0.08:
        return "'empty'::%s" % kind
    lo = '' if random.random() < 0.12 else bound(kind)
    hi = '' if random.random() < 0.12 else bound(kind)
    if lo and hi:   # lower bound first: numbers by value, dates and times by their text
        key = int if kind.startswith('int') else float if kind == 'numrange' else str
        lo, hi = sorted([lo, hi], key=key)
    lb, ub = random.choice('[('), random.choice('])')
    q = lambda v: '"%s"' % v if ' ' in v else v
    if random.random() < 0.5:
        return "'%s%s,%s%s'::%s" % (lb, q(lo), q(hi), ub, kind)
    args2 = ['NULL' if not v else "'%s'::%s" % (v, ELEM[kind]) for v in (lo, hi)]
    if random.random() < 0.5:
        return '%s(%s, %s)' % (kind, args2[0], args2[1])
    return "%s(%s, %s, '%s%s')" % (kind, args2[0], args2[1], lb, ub)


def rexpr(kind, d=0):
    r = random.random()
    if d < 1 and r < 0.15:
        op = random.choice(['+', '*', '-'])
        return '(%s %s %s)' % (rexpr(kind, d + 1), op, rexpr(kind, d + 1))
    if d < 1 and r < 0.2:
        return 'range_merge(%s, %s)' % (rexpr(kind, d + 1), rexpr(kind, d + 1))
    return literal(kind)


def query():
    kind = random.choice(list(KINDS))
    r = random.random()
    a, b = rexpr(kind), rexpr(kind)
    if r < 0.45:
        op = random.choice(['=', '<>', '<', '<=', '>', '>=', '@>', '<@', '&&', '<<', '>>', '&<', '&>', '-|-'])
        return 'SELECT %s %s %s' % (a, op, b), 'T'
    if r < 0.7:
        fn = random.choice(['lower', 'upper', 'isempty', 'lower_inc', 'upper_inc', 'lower_inf', 'upper_inf'])
        return 'SELECT %s(%s)' % (fn, a), 'T'
    if r < 0.8:
        return "SELECT %s @> '%s'::%s" % (a, bound(kind), ELEM[kind]), 'T'
    if r < 0.9:
        return 'SELECT %s' % a, 'T'
    rows = ', '.join('(%d, %s)' % (i, rexpr(kind)) for i in range(random.randint(2, 6)))
    order = random.choice(['r', 'r DESC', 'r NULLS FIRST', 'r DESC NULLS LAST'])
    return 'SELECT i, r FROM (VALUES %s) v(i, r) ORDER BY %s, i' % (rows, order), 'IT'


print('# range_fuzz.py --seed %d --count %d: answers from PostgreSQL 15 (pg_verify.py --rewrite)' %
      (args.seed, args.count))
print()
for _ in range(args.count):
    sql, types = query()
    print('query %s nosort' % types)
    print(sql)
    print('----')
    print()
