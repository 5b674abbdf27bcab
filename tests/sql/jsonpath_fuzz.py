#!/usr/bin/env python3
"""jsonpath_fuzz.py - random SQL/JSON path queries for a differential test
against PostgreSQL 15 (docs/testing.md): paths of accessors, filters,
predicates, arithmetic and methods in lax and strict mode over a few
jsonb documents, through the four scalar path functions with vars and
silent. Write a file, let pg_verify.py --rewrite fill in PostgreSQL's
answers, then run it through sqllogictest:

    python3 tests/sql/jsonpath_fuzz.py --seed 6 --count 700 > /tmp/f.test
"""
import argparse, random, sys
ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--count", type=int, default=500)
args = ap.parse_args()
random.seed(args.seed)
docs = ['{"a": [1, 2, {"b": 3}], "c": {"d": [4, 5.5, null]}, "e": "str", "f": true}',
        '[1, [2, 3], {"a": 1, "b": [1, 2]}, "x", null, false, 1.50]',
        '{"k": {"k": {"k": 1}}, "n": [], "o": {}}', '7', '"abc"', 'null', '[[]]',
        '[{"a": 1, "b": "x"}, {"a": 2, "b": "y"}, {"a": 3}]']
keys = ['a', 'b', 'c', 'd', 'e', 'f', 'k', 'n', 'o', 'x']
def prim(d):
    r = random.random()
    if r < 0.5: return '$'
    if r < 0.6 and d: return '@'
    if r < 0.7: return random.choice(['1', '2', '0', '-1', '1.5', '"a"', '"x"', 'true', 'null', 'false'])
    if r < 0.75: return '$v'
    return '$'
def acc(d, inf):
    r = random.random()
    if r < 0.3: return '.' + random.choice(keys)
    if r < 0.4: return '.*'
    if r < 0.5: return '[*]'
    if r < 0.6: return '[%s]' % random.choice(['0', '1', 'last', 'last - 1', '0 to last', '1 to 2', '0, 2', '-1', '5', '$v'])
    if r < 0.65: return random.choice(['.**', '.**{1}', '.**{0 to 1}', '.**{last}', '.**{1 to last}'])
    if r < 0.75 and d < 2: return ' ? (%s)' % pred(d + 1, True)
    if r < 0.85: return random.choice(['.type()', '.size()', '.abs()', '.floor()', '.ceiling()', '.double()', '.keyvalue()'])
    return '.' + random.choice(keys)
def path(d, inf):
    p = prim(inf)
    for _ in range(random.randint(0, 3)): p += acc(d, inf)
    return p
def expr(d, inf):
    r = random.random()
    if r < 0.7 or d > 2: return path(d, inf)
    if r < 0.85: return '%s %s %s' % (path(d, inf), random.choice(['+', '-', '*', '/', '%']), path(d, inf))
    return '-' + path(d, inf)
def pred(d, inf):
    r = random.random()
    if r < 0.5 or d > 2: return '%s %s %s' % (expr(d, inf), random.choice(['==', '!=', '<', '>=', '<>', '>']), expr(d, inf))
    if r < 0.6: return 'exists (%s)' % expr(d, inf)
    if r < 0.7: return '%s like_regex "%s"%s' % (expr(d, inf), random.choice(['^a', 'b', '.', 'X']), random.choice(['', ' flag "i"']))
    if r < 0.75: return '%s starts with "%s"' % (expr(d, inf), random.choice(['a', '', 'x']))
    if r < 0.85: return '%s %s %s' % (pred(d + 1, inf), random.choice(['&&', '||']), pred(d + 1, inf))
    if r < 0.92: return '!(%s)' % pred(d + 1, inf)
    return '(%s) is unknown' % pred(d + 1, inf)
out = []
for i in range(args.count):
    mode = random.choice(['', '', 'strict ', 'lax '])
    p = mode + (pred(0, False) if random.random() < 0.3 else expr(0, False))
    doc = random.choice(docs)
    fn = random.choice(['jsonb_path_query_array', 'jsonb_path_exists', 'jsonb_path_match', 'jsonb_path_query_first'])
    silent = random.choice(['false', 'true'])
    out.append("query ?\nSELECT %s('%s', '%s', '{\"v\": 1}', %s)\n----\n\n" % (fn, doc, p.replace("'", "''"), silent))
sys.stdout.write("# random SQL/JSON path queries (tests/sql/jsonpath_fuzz.py --seed %d --count %d),\n"
                 "# the answers PostgreSQL 15.18's\n\n" % (args.seed, args.count))
sys.stdout.write("".join(out))
