#!/usr/bin/env python3
"""Generates tests/planner/malformed_cases.tsv: malformed SQL with the error
PostgreSQL 15 reports for it (SQLSTATE, position, message).

Each statement of valid_statements.sql is cut into rough tokens and mutated
(truncated, a token deleted / duplicated / swapped / replaced, unterminated
literals and junk inserted). Every mutant is sent to a real PostgreSQL 15
server through a small libpq program (pgq: one SQL per line on stdin, one
"sqlstate<TAB>position<TAB>message" per line out). Mutants that PostgreSQL
rejects while parsing (42601 and the lexer's other codes) are kept, with its
answer, as the expectation test_parser_errors.c checks attu against.

Usage: gen_malformed.py PGQ_BINARY [ATTU_PARSE_TOOL]
With the second argument, prints the cases where attu disagrees instead of
writing the file (for grammar work).
"""
import random
import re
import subprocess
import sys

HERE = __file__.rsplit('/', 1)[0]
TOKEN = re.compile(r"""
    [Ee]'(?:[^'\\]|\\.|'')*'      # E'' string
  | '(?:[^']|'')*'                # string
  | "(?:[^"]|"")*"                # quoted identifier
  | \$\$.*?\$\$ | \$q\$.*?\$q\$   # dollar strings
  | \$\d+                         # parameter
  | \d+\.?\d*(?:[eE][-+]?\d+)? | \.\d+(?:[eE][-+]?\d+)?
  | [A-Za-z_][A-Za-z_0-9$]*
  | ::|<=|>=|<>|!=|\|\|
  | [-+*/%^<>=(),.;\[\]:]
""", re.X | re.S)

REPLACEMENTS = ["FROM", "SELECT", "WHERE", ",", "(", ")", ";", "1", "'x'", "AND",
                "ORDER", "BY", "JOIN", "ON", "AS", "=", "+", "NOT", "NULL",
                "GROUP", "LIMIT", "IN", "CASE", "END", "::", ".", "*", "VALUES",
                "TABLE", "INTO", "WITH", "UNION", "BETWEEN", "IS", "OVER"]
JUNK = ["'unterminated", '"unterminated', "/* open comment", "1abc", "1e",
        "$0", "\"\"", "1..2", "@", "#", "[", "]", "~", "E'\\u12'", "/* a /* b */"]


# Where attu knowingly parses differently from PostgreSQL (documented in
# docs/sql-grammar.md, "Differences"): PostgreSQL syntax attu does not take,
# whose mutants would fail at another token.
KNOWN_DIFFERENCES = [
    re.compile(r'HEADER \($'),          # COPY option values in parentheses
    re.compile(r'^CREATE TABLE t ON\b'), # CREATE TABLE ... ON COMMIT
    re.compile(r'FROM t \* '),           # inheritance: FROM t *
]


def escape(sql):
    return sql.replace('\\', '\\\\').replace('\n', '\\n')


def mutants(sql, rng):
    toks = [m.group(0) for m in TOKEN.finditer(sql)]
    out = set()
    n = len(toks)
    for k in range(1, n):
        out.add(' '.join(toks[:k]))
    for k in range(n):
        out.add(' '.join(toks[:k] + toks[k + 1:]))
        out.add(' '.join(toks[:k + 1] + toks[k:]))
        if k + 1 < n:
            out.add(' '.join(toks[:k] + [toks[k + 1], toks[k]] + toks[k + 2:]))
    for _ in range(max(3, n // 2)):
        k = rng.randrange(n)
        out.add(' '.join(toks[:k] + [rng.choice(REPLACEMENTS)] + toks[k + 1:]))
    for _ in range(2):
        k = rng.randrange(n + 1)
        out.add(' '.join(toks[:k] + [rng.choice(JUNK)] + toks[k:]))
    out.discard(sql)
    return sorted(out)


def run_tool(binary, cases):
    inp = ''.join(escape(c) + '\n' for c in cases)
    res = subprocess.run([binary], input=inp, capture_output=True, text=True,
                         check=True)
    lines = res.stdout.split('\n')[:len(cases)]
    return [tuple(l.split('\t', 2)) for l in lines]


def main():
    pgq = sys.argv[1]
    attu = sys.argv[2] if len(sys.argv) > 2 else None
    rng = random.Random(20261122)
    stmts = []
    with open(HERE + '/valid_statements.sql') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line or line.startswith('--'):
                continue
            if re.match(r'(?i)\s*(DESCRIBE|DESC)\b', line):
                continue   # attu extensions: PostgreSQL rejects them
            stmts.append(line)
    cases = []
    for s in stmts:
        cases.extend(mutants(s, rng))
    cases = sorted(set(cases))
    pg = run_tool(pgq, cases)
    # Errors raised by PostgreSQL's lexer and grammar.
    parse_codes = {'42601', '42P02', '22025', '22021', '54001'}
    # PostgreSQL finds these in parse analysis, which is the binder's job
    # in attu (tests/planner binder tests cover them).
    analysis = ('too many column names were specified',
                'SELECT * with no tables specified is not valid')
    pg = [('ANALYSIS', r[1], r[2]) if r[2].startswith(analysis) else r for r in pg]
    kept = [(c, r) for c, r in zip(cases, pg) if r[0] in parse_codes
            and not any(k.search(c) for k in KNOWN_DIFFERENCES)]
    if attu:
        ours = run_tool(attu, cases)
        bad = 0
        for c, r, o in zip(cases, pg, ours):
            pg_syntax = r[0] in parse_codes
            ours_syntax = o[0] != 'OK'
            if pg_syntax and (o[0], o[1], o[2]) != (r[0], r[1], r[2]):
                bad += 1
                print('PG %s@%s %s | attu %s@%s %s | %s' % (r[0], r[1], r[2], o[0], o[1], o[2], c))
            elif not pg_syntax and ours_syntax and r[0] != 'ANALYSIS':
                bad += 1
                print('PG accepts (%s) | attu %s@%s %s | %s' % (r[0], o[0], o[1], o[2], c))
        print('%d cases, %d kept, %d disagreements' % (len(cases), len(kept), bad))
        return
    # Keep the file a reasonable size: every lexical error and a sample of
    # the rest, stable across runs.
    rng2 = random.Random(7)
    lexical = [k for k in kept if 'syntax error' not in k[1][2]]
    syntax = [k for k in kept if 'syntax error' in k[1][2]]
    rng2.shuffle(syntax)
    chosen = sorted(lexical + syntax[:1200])
    with open(HERE + '/malformed_cases.tsv', 'w') as f:
        f.write('# Generated by gen_malformed.py from valid_statements.sql against\n')
        f.write('# PostgreSQL 15: sqlstate<TAB>position<TAB>message<TAB>sql (\\n, \\\\ escaped)\n')
        for c, r in chosen:
            f.write('%s\t%s\t%s\t%s\n' % (r[0], r[1], r[2], escape(c)))
    print('%d cases, %d rejected by PostgreSQL while parsing, %d written'
          % (len(cases), len(kept), len(chosen)))


if __name__ == '__main__':
    main()
