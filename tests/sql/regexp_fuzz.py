#!/usr/bin/python3
"""regexp_fuzz.py - random regular-expression queries to compare attu with
PostgreSQL 15.

attu matches PostgreSQL's advanced regular expressions with the C
library's POSIX matcher under a translation (engine/similar.c) and refuses
(0A000) what it cannot answer the same way. This writes a sqllogictest
file of random patterns over random strings for the ~ operator and the
regexp_* functions; PostgreSQL fills in the answers, attu's runner then
reports each difference. A record that fails with 0A000 is a refusal
(allowed); any "wrong result" is a bug.

    tests/sql/regexp_fuzz.py --seed 7 --count 500 --kind groups > /tmp/rx.test
    tests/sql/pg_verify.py --dsn ... --rewrite /tmp/rx.test
    build/lead/tests/sql/sqllogictest --backend cpu /tmp/rx.test | grep -A5 'wrong result'

Kinds: groups (captures, alternations, anchors: \\1 \\2, substring,
subexpr), nongreedy (whole matches of patterns with non-greedy
quantifiers), match (~ and regexp_like), runs (captures around runs of
repeated parts, where glibc's and ARE's rules for extents part).
"""
import argparse
import random


def pattern(rng, kind, depth=0):
    """One random ARE: alternatives of pieces (atoms, maybe quantified)."""
    def atom(d):
        r = rng.random()
        if d >= 2 or r < 0.5:
            return rng.choice(['a', 'b', 'c', '.', '[ab]', '[^a]', 'x', 'ab', '\\d'])
        if r < 0.75:
            return '(' + alt(d + 1) + ')'
        if r < 0.9:
            return '(?:' + alt(d + 1) + ')'
        return rng.choice(['^', '$', '\\y', '\\m', '\\M', '\\A', '\\Z', '\\Y'])

    def piece(d):
        a = atom(d)
        if a in ('^', '$') or a.startswith('\\') and a[1] in 'AZmMyY' or rng.random() < 0.5:
            return a
        quant = ['*', '+', '?', '{1,2}', '{2}']
        if kind == 'nongreedy':
            quant += ['*?', '+?', '??', '{1,2}?', '{2}?', '{1,1}?']
        return a + rng.choice(quant)

    def alt(d):
        branches = 1 if rng.random() < 0.7 else rng.randint(2, 3)
        return '|'.join(''.join(piece(d) for _ in range(rng.randint(1, 3))) for _ in range(branches))

    return alt(depth)


def run_pattern(rng):
    """A run of repeated single characters, literals, groups of
    alternatives and quantified groups, with captures before, around and
    after it: the shapes where glibc's first way through and ARE's longest
    runs part (engine/similar.c's reliability rules)."""
    def piece():
        r = rng.random()
        if r < 0.5:
            return rng.choice(['a', 'b', '[ab]', '.', 'x']) + rng.choice(['', '*', '+', '?', '{0,2}'])
        if r < 0.7:
            return rng.choice(['ab', 'ba', 'xa'])
        inner = ''.join(rng.choice(['a', 'b', 'ab', '[ab]', 'x|b', 'a*']) for _ in range(rng.randint(1, 2)))
        return rng.choice(['(', '(?:']) + inner + ')' + rng.choice(['', '*', '+', '?', '{1,2}'])
    run = lambda: ''.join(piece() for _ in range(rng.randint(1, 4)))
    shape = rng.choice(['%s(.*)', '(%s)(.*)', '(?:%s)+(.*)', '(x*)%s(.*)', '((?:%s)*)(.*)', '%s(%s)'])
    return shape % tuple(run() for _ in range(shape.count('%s')))


CALLS = {
    'groups': ["regexp_replace('{s}', '{p}', '<\\&|\\1|\\2>', 'g')", "substring('{s}' FROM '{p}')",
               "regexp_instr('{s}', '{p}', 1, 1, 0, '', 2)", "regexp_substr('{s}', '{p}', 2, 1, '', 1)",
               "regexp_replace('{s}', '{p}', '[\\1]', 'gi')", "regexp_count('{s}', '{p}')"],
    'nongreedy': ["regexp_replace('{s}', '{p}', '<\\&>', 'g')", "regexp_count('{s}', '{p}')",
                  "regexp_instr('{s}', '{p}', 1, 2, 1)", "regexp_substr('{s}', '{p}', 1, 2)",
                  "regexp_replace('{s}', '{p}', '[\\&]', 2, 2, 'i')"],
    'match': ["'{s}' ~ '{p}'", "'{s}' ~* '{p}'", "regexp_like('{s}', '{p}', 'n')"],
    'sets': ["regexp_match('{s}', '{p}')", "regexp_match('{s}', '{p}', 'i')", "regexp_split_to_array('{s}', '{p}')",
             "(SELECT string_agg(m::text, ';' ORDER BY n) FROM regexp_matches('{s}', '{p}', 'g') WITH ORDINALITY AS t(m, n))",
             "(SELECT string_agg(w, ';' ORDER BY n) FROM regexp_split_to_table('{s}', '{p}') WITH ORDINALITY AS t(w, n))"],
    'runs': ["regexp_replace('{s}', '{p}', '<\\&|\\1|\\2>')", "regexp_substr('{s}', '{p}', 1, 1, '', 1)",
             "regexp_instr('{s}', '{p}', 1, 1, 1, '', 2)"],
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=400)
    ap.add_argument('--kind', choices=sorted(CALLS), default='groups')
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = ["# regexp_fuzz.py --seed %d --count %d --kind %s\n" % (args.seed, args.count, args.kind)]
    for _ in range(args.count):
        s = ''.join(rng.choice('abcab x1-') for _ in range(rng.randint(0, 9)))
        p = run_pattern(rng) if args.kind == 'runs' else pattern(rng, args.kind)
        call = rng.choice(CALLS[args.kind]).format(s=s, p=p)
        out.append("query T\nSELECT (%s)::text\n----\n" % call)
    print("\n".join(out))


if __name__ == '__main__':
    main()
