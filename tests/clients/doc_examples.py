#!/usr/bin/env python3
"""Runs the SQL examples of docs/*.md through the attu shell and checks them.

usage: doc_examples.py ATTU ATTUD DOCS_DIR DATA_DIR [DOC.md ... | --self-test]

The checked example format:

* A fenced block with the info string `sql` is an example. Its statements
  run in order through `attu -f -` (aligned output, stderr merged into
  stdout), against a fresh attud (CPU backend) per document: all the `sql`
  blocks of one file share one server, so a table made early serves later
  blocks. COPY ... FROM STDIN data may follow its statement inline, ended by
  a line `\\.`, as in a psql script.
* The fenced block right after it (only blank lines between), with the info
  string `text`, is the exact output. A `sql` block with no `text` block
  must succeed and print nothing but command tags (CREATE TABLE, INSERT 0 1).
* The shell stops a script at its first error, so only the last statement
  of a block may fail. Error lines are shown without the script position
  prefix the shell adds (`attu:<stdin>:3: `), as an interactive user sees
  them.
* `<!-- doc-examples: output varies -->` on the line before a `sql` block
  (for now(), random()): its statements must succeed; the output is not
  compared.
* `sql-postgres` marks SQL written for PostgreSQL itself, shown for
  comparison (cities.md); it is not run against attu.
* Syntax synopses are fenced `sql-syntax` (never `sql`); the coverage check
  below fails on any other fenced or indented block that starts like SQL,
  except the shell transcripts ("    attu=> ...") of the documents that
  doc_sessions.py replays.

What is normalized before comparing: trailing blanks and blank lines at the
ends; in the output of a statement that shows times ("0.123 ms", EXPLAIN
ANALYZE, \\timing), the times, the thread count, runs of blanks and runs of
dashes (column widths follow the times).

DATA_DIR (tests/clients/docs_data) is copied into a scratch folder that is
attud's --load-dir and the shell's working directory, with copies of the
repository's bundled data/*.csv (statecity.csv), so the examples name
their files as a user would: COPY t FROM 'file.csv'.

--self-test runs the checker on documents with known faults (a wrong
output, an uncovered SQL block, an error in mid-block, a missing output, a
transcript nobody replays) and on the statement splitter, and fails unless
each fault is reported; then it checks that the update mode repairs them.

ATTU_UPDATE_DOCS=1 rewrites the `text` blocks in place from what attu
printed (and adds one where a block printed more than command tags);
review every change against PostgreSQL 15 before committing it:

    B=build/mine; ATTU_UPDATE_DOCS=1 python3 tests/clients/doc_examples.py \
        $B/clients/attu $B/server/attud docs tests/clients/docs_data docs/csv.md

How a block runs: the harness cuts it into statements (as the shell's
splitter does) and sends them to one `attu -f -`, each followed by the
meta command \conninfo; the line that prints marks the end of each
statement's output, so the harness knows which statement failed, and it
is removed before comparing.
"""
import concurrent.futures
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# Documents whose "    attu=> " transcripts doc_sessions.py replays.
TRANSCRIPT_DOCS = {"getting-started.md", "shell.md"}

SQL_START = re.compile(
    r"^\s*(\\copy\b|(SELECT|CREATE|INSERT|COPY|WITH|EXPLAIN|DROP|VALUES|TABLE|SET|SHOW|"
    r"RESET|BEGIN|COMMIT|ROLLBACK|ABORT|START\s+TRANSACTION|DESCRIBE|DESC|UPDATE|DELETE|"
    r"ALTER|TRUNCATE|PREPARE|EXECUTE)(\s|\(|;|$))", re.I)
MARKER = re.compile(r'^Connected to database ".*" as user ".*" on host ".*" at port "\d+"\.$')
TAG = re.compile(r"^(CREATE TABLE( AS)?|SELECT \d+|INSERT 0 \d+|DROP TABLE|COPY \d+|SET|RESET|"
                 r"BEGIN|COMMIT|ROLLBACK|START TRANSACTION|NOTICE:  .*|Timing is (on|off)\.)$")
TIMES = re.compile(r"\d+(\.\d+)? ms\b|\bin [\d.]+s\b|\b[\d.]+[kMG]? rows/s")
SCRIPT_POS = re.compile(r"^attu:<stdin>:\d+: ")
VARIES = "<!-- doc-examples: output varies -->"
BLOCK_TIMEOUT = 120  # seconds for one block


# ---- reading the markdown ----------------------------------------------------

class Block:
    def __init__(self, info, start, end, lines, indent):
        self.info, self.start, self.end, self.lines, self.indent = info, start, end, lines, indent
        # start: index of the opening fence line; end: index of the closing one


def fenced_blocks(lines):
    """Yields every fenced block (``` or ~~~) of a document, in order."""
    i = 0
    while i < len(lines):
        m = re.match(r"^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)", lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = len(m.group(1)), m.group(2), m.group(3).lower()
        j = i + 1
        while j < len(lines) and not re.match(r"^ {0,3}" + re.escape(fence[0]) + "{%d,}\\s*$" % len(fence),
                                              lines[j]):
            j += 1
        body = [l[indent:] if l[:indent].strip() == "" else l for l in lines[i + 1:j]]
        yield Block(info, i, j, body, indent)
        i = j + 1


def indented_blocks(lines, fenced):
    """Yields (line index, [lines]) of indented code blocks outside fences."""
    inside = set()
    for b in fenced:
        inside.update(range(b.start, b.end + 1))
    i = 0
    while i < len(lines):
        if i not in inside and lines[i].startswith("    ") and lines[i].strip() and \
                (i == 0 or lines[i - 1].strip() == "") and not in_list(lines, i):
            start, block = i, []
            while i < len(lines) and i not in inside and (lines[i].startswith("    ") or lines[i].strip() == ""):
                block.append(lines[i][4:])
                i += 1
            yield start, block
        else:
            i += 1


def in_list(lines, i):
    """True when the indented line continues a list item (not a code block)."""
    j = i - 1
    while j >= 0 and lines[j].strip() == "":
        j -= 1
    while j >= 0 and lines[j].strip():
        if re.match(r"^\s*([-*+]|\d+\.)\s", lines[j]):
            return True
        if not lines[j].startswith(" "):
            return False
        j -= 1
    return False


def looks_like_sql(block_lines):
    """The first code line starts with a SQL keyword (any case), or any line
    starts with one in capitals and ends with ';' (a statement among shell
    commands)."""
    if SQL_START.match(first_code_line(block_lines)):
        return True
    return any(SQL_START.match(l) and re.match(r"^\s*[A-Z]+\b.*;\s*(--.*)?$", l) for l in block_lines)


def first_code_line(block_lines):
    for l in block_lines:
        s = l.strip()
        if s and not s.startswith("--") and not s.startswith("#"):
            return s
    return ""


def coverage_problems(path, lines, fenced):
    """SQL-looking blocks that nothing checks."""
    name = os.path.basename(path)
    out = []
    for b in fenced:
        if b.info in ("sql", "text", "sql-syntax", "sql-postgres"):
            continue
        if looks_like_sql(b.lines):
            out.append("%s:%d: a fenced block that looks like SQL is neither `sql` (checked) nor "
                       "`sql-syntax` (a synopsis)" % (path, b.start + 1))
    for start, block in indented_blocks(lines, fenced):
        first = first_code_line(block)
        if first.startswith("attu=> "):
            if name not in TRANSCRIPT_DOCS:
                out.append("%s:%d: a shell transcript in a document doc_sessions.py does not replay"
                           % (path, start + 1))
            continue
        if looks_like_sql(block):
            out.append("%s:%d: an indented block that looks like SQL: make it a ```sql example "
                       "or a ```sql-syntax synopsis" % (path, start + 1))
    return out


class Example:
    def __init__(self, sql, text, varies):
        self.sql, self.text, self.varies = sql, text, varies


def examples(lines, fenced):
    """Pairs each `sql` block with the `text` block right after it."""
    out = []
    for k, b in enumerate(fenced):
        if b.info == "sql-syntax" or b.info != "sql":
            continue
        text = None
        if k + 1 < len(fenced) and fenced[k + 1].info == "text" and \
                all(l.strip() == "" for l in lines[b.end + 1:fenced[k + 1].start]):
            text = fenced[k + 1]
        j = b.start - 1
        while j >= 0 and lines[j].strip() == "":
            j -= 1
        out.append(Example(b, text, j >= 0 and lines[j].strip() == VARIES))
    return out


# ---- cutting a block into statements -----------------------------------------

def statements(body):
    """Cuts a block into (first line, text, copy data lines or None).

    Follows the shell's splitter: ';' ends a statement outside quotes,
    E'' strings, dollar quotes and comments; a line starting with '\\' while
    no statement is pending is a meta command."""
    out = []
    cur, cur_line = "", None
    state = None  # None, "'", '"', "e", "/*", ("$", tag)
    depth = 0
    i = 0
    while i < len(body):
        line = body[i]
        if cur.strip() == "" and state is None and line.lstrip().startswith("\\"):
            out.append((i, line.strip(), None))
            cur, cur_line = "", None
            i += 1
            continue
        j = 0
        rest_after = None
        while j < len(line):
            c = line[j]
            if cur_line is None and not c.isspace():
                cur_line = i
            if isinstance(state, tuple):
                if line.startswith(state[1], j):
                    cur += state[1]
                    j += len(state[1])
                    state = None
                    continue
            elif state in ("'", '"', "e"):
                close = "'" if state == "e" else state
                if state == "e" and c == "\\" and j + 1 < len(line):
                    cur += line[j:j + 2]
                    j += 2
                    continue
                if c == close:
                    if line[j + 1:j + 2] == c:
                        cur += c + c
                        j += 2
                        continue
                    state = None
            elif state == "/*":
                if line.startswith("*/", j):
                    depth -= 1
                    cur += "*/"
                    j += 2
                    if depth == 0:
                        state = None
                    continue
                if line.startswith("/*", j):
                    depth += 1
                    cur += "/*"
                    j += 2
                    continue
            else:
                if c in "'\"":
                    state = c
                    if c == "'" and cur[-1:] in ("E", "e") and not re.search(r"[\w]$", cur[:-1]):
                        state = "e"
                elif line.startswith("--", j):
                    cur += line[j:]
                    break
                elif line.startswith("/*", j):
                    state, depth = "/*", 1
                    cur += "/*"
                    j += 2
                    continue
                elif c == "$" and not re.search(r"\w$", cur):
                    m = re.match(r"\$([A-Za-z_\x80-\uffff][\w\x80-\uffff]*)?\$", line[j:])
                    if m:
                        state = ("$", m.group(0))
                        cur += m.group(0)
                        j += len(m.group(0))
                        continue
                elif c == ";":
                    out.append((cur_line, cur.strip(), None))
                    cur, cur_line = "", None
                    j += 1
                    if re.match(r"(?is)^\s*(--[^\n]*\n\s*)*COPY\b.*\bFROM\s+STDIN\b", out[-1][1]):
                        rest_after = True
                        break
                    continue
            cur += c
            j += 1
        if rest_after:
            # COPY ... FROM STDIN: the following lines up to "\." are its data.
            data, i = [], i + 1
            while i < len(body) and body[i] != "\\.":
                data.append(body[i])
                i += 1
            out[-1] = (out[-1][0], out[-1][1], data)
            i += 1
            continue
        cur += "\n"
        i += 1
    if state is not None or (cur.strip() and not all(l.strip() == "" or l.strip().startswith("--")
                                                     for l in cur.split("\n"))):
        # No final ';' (or an open quote): the shell sends it as it is at the end.
        out.append((cur_line, cur.rstrip("\n"), "unterminated"))
    return out


# ---- running -------------------------------------------------------------------

class Server:
    def __init__(self, attud, data_dir):
        self.tmp = tempfile.mkdtemp(prefix="attu-doc-examples.")
        self.work = os.path.join(self.tmp, "files")
        shutil.copytree(data_dir, self.work) if os.path.isdir(data_dir) else os.makedirs(self.work)
        # The bundled data/*.csv (the cities table) too, as scripts/start's load dir holds them.
        bundled = os.path.join(os.path.dirname(data_dir.rstrip("/")), "..", "..", "data")
        if os.path.isdir(bundled):
            for f in os.listdir(bundled):
                if f.endswith(".csv") and not os.path.exists(os.path.join(self.work, f)):
                    shutil.copy(os.path.join(bundled, f), os.path.join(self.work, f))
        ready = os.path.join(self.tmp, "ready")
        self.log = open(os.path.join(self.tmp, "attud.log"), "w")
        self.proc = subprocess.Popen(
            [attud, "--port", "0", "--ready-file", ready, "--data-dir", os.path.join(self.tmp, "data"),
             "--load-dir", self.work, "--device", "cpu", "--log-level", "warning"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            if os.path.exists(ready) and open(ready).read().strip():
                break
            if self.proc.poll() is not None:
                raise SystemExit("attud exited:\n" + open(self.log.name).read())
            time.sleep(0.05)
        else:
            self.close()
            raise SystemExit("attud did not become ready")
        self.port = re.sub(r"\D", "", open(ready).read().split("\n")[0])

    def log_tail(self):
        self.log.flush()
        return "\n".join(open(self.log.name, errors="replace").read().split("\n")[-20:])

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


def run_block(attu, server, stmts):
    """Runs the statements through one `attu -f -`; returns (rc, [output lines per statement])."""
    script = []
    for _, text, data in stmts:
        if data == "unterminated":
            script.append(text)
            break
        if text.startswith("\\"):
            script.append(text)
        else:
            script.append(text + ";")
        if data is not None:
            script.extend(data)
            script.append("\\.")
        script.append("\\conninfo")
    cmd = [attu, "-h", "127.0.0.1", "-p", server.port, "-U", "attu", "-f", "-"]
    if shutil.which("stdbuf"):
        cmd = ["stdbuf", "-oL", "-eL"] + cmd   # stdout and stderr in the order a terminal shows
    env = dict(os.environ, NO_COLOR="1", ATTU_HISTORY="", LC_ALL="C.UTF-8")
    # stdbuf works by LD_PRELOAD, which an ASan build (scripts/test) refuses
    # unless told that the preloaded library may come first
    asan = env.get("ASAN_OPTIONS", "")
    env["ASAN_OPTIONS"] = (asan + ":" if asan else "") + "verify_asan_link_order=0"

    p = subprocess.run(cmd, input="\n".join(script) + "\n", stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, cwd=server.work, env=env, timeout=BLOCK_TIMEOUT,
                       encoding="utf-8", errors="replace")
    outs, cur, done = [], [], 0
    for l in p.stdout.split("\n"):
        if MARKER.match(l):
            outs.append(cur)
            cur, done = [], done + 1
        else:
            cur.append(SCRIPT_POS.sub("", l))
    if cur and any(x.strip() for x in cur):
        outs.append(cur)
    return p.returncode, done, outs


def normalize(lines):
    """Trailing blanks, blank lines at the ends; times where there are any."""
    lines = [l.rstrip() for l in lines]
    if any(TIMES.search(l) for l in lines):
        out = []
        for l in lines:
            l = TIMES.sub(lambda m: "T ms" if m.group(0).endswith("ms") else "T", l)
            l = re.sub(r"\(\d+ threads?\)", "(N threads)", l)
            l = re.sub(r"-{2,}", "--", l)
            l = re.sub(r"[ \t]+", " ", l).strip()
            out.append(l)
        lines = out
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def trim(lines):
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def check_doc(attu, attud, data_dir, path, update):
    """Returns (number of examples, [failure messages], new file text or None)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    fenced = list(fenced_blocks(lines))
    problems = coverage_problems(path, lines, fenced)
    exs = examples(lines, fenced)
    if not exs:
        return 0, problems, None
    server = Server(attud, data_dir)
    replace = []  # (start, end, new lines): line ranges of `lines` to rewrite
    try:
        for ex in exs:
            where = "%s:%d" % (path, ex.sql.start + 1)
            stmts = statements(ex.sql.lines)
            if not stmts:
                problems.append("%s: an empty `sql` block" % where)
                continue
            try:
                rc, done, outs = run_block(attu, server, stmts)
            except subprocess.TimeoutExpired:
                problems.append("%s: no answer in %d s" % (where, BLOCK_TIMEOUT))
                break
            got = [l for o in outs for l in o]
            if rc not in (0, 1) or server.proc.poll() is not None:
                problems.append("%s: attu exited with status %d:\n%s\n--- attud's log:\n%s" %
                                (where, rc, "\n".join(got), server.log_tail()))
                if server.proc.poll() is not None:
                    break  # the server died: the rest of the document cannot run
                continue
            # attu stops at the first error: it must be the last statement.
            if rc == 1 and done < len(stmts) - 1:
                bad = stmts[done]
                problems.append("%s: the statement at line %d failed and the shell stopped there; "
                                "only the last statement of a block may fail\n%s" %
                                (where, ex.sql.start + 2 + bad[0], "\n".join(got)))
                continue
            if ex.varies:
                if rc != 0:
                    problems.append("%s: a block marked 'output varies' failed:\n%s" % (where, "\n".join(got)))
                continue
            have = normalize(got)
            if ex.text is None:
                extra = [l for l in have if l.strip() and not TAG.match(l)]
                if rc != 0 or extra:
                    if update and rc == 0:
                        replace.append((ex.sql.end + 1, ex.sql.end,
                                        ["", "```text"] + trim([l.rstrip() for l in got]) + ["```"]))
                    else:
                        problems.append("%s: printed more than command tags but has no ```text block "
                                        "after it:\n%s" % (where, "\n".join(got)))
                continue
            want = normalize(ex.text.lines)
            if want != have:
                if update:
                    replace.append((ex.text.start + 1, ex.text.end - 1,
                                    [" " * ex.text.indent + l if l else l for l in
                                     trim([l.rstrip() for l in got])]))
                    continue
                diff = difflib.unified_diff(want, have, "documented (%s:%d)" % (path, ex.text.start + 2),
                                            "printed by attu", lineterm="", n=2)
                problems.append("%s: the output differs\n%s" % (where, "\n".join(diff)))
    finally:
        server.close()
    new_text = None
    if replace:
        for start, end, new in sorted(replace, key=lambda r: r[0], reverse=True):
            lines[start:end + 1] = new
        new_text = "\n".join(lines)
    return len(exs), problems, new_text


# ---- checking the checker ---------------------------------------------------------

SELF_TEST_DOCS = {
    "good.md": """# good
```sql
CREATE TABLE g (a INTEGER, b TEXT);
COPY g FROM STDIN WITH (FORMAT csv);
1,x;y
2,
\\.
```

```sql
SELECT a, b FROM g ORDER BY a; SELECT E'\\';' AS q, $$;$$ AS d /* ; */; -- ;
SELECT 1 / 0;
```

```text
 a |  b
---+-----
 1 | x;y
 2 |
(2 rows)

 q  | d
----+---
 '; | ;
(1 row)

ERROR:  division by zero (SQLSTATE 22012)
```

```sql
EXPLAIN ANALYZE SELECT a FROM g;
```

```text
                                  QUERY PLAN
-----------------------------------------------------------------------------
 Project  [pass-through]  (rows=2)  (actual rows=2 time=9.999 ms device=CPU)
   ->  Scan g  [resident columns]  (rows=2)  (actual rows=2 time=0.5 ms device=CPU)
 Execution Time: 12.000 ms on CPU (64 threads)
(3 rows)
```

<!-- doc-examples: output varies -->
```sql
SELECT count(*) FROM g;
```

```sql-syntax
SELECT [DISTINCT] ... FROM ...
```
""",
    "wrong.md": """```sql
SELECT 1 AS one;
```

```text
 one
-----
   2
(1 row)
```
""",
    "uncovered.md": """text

    SELECT 1;

```
CREATE TABLE x (a INT);
```
""",
    "midblock.md": """```sql
SELECT 1 / 0;
SELECT 2;
```

```text
ERROR:  division by zero (SQLSTATE 22012)
```
""",
    "notext.md": """```sql
SELECT 1;
```
""",
    "transcript.md": """A session:

    attu=> SELECT 1;
"""
}

SELF_TEST_EXPECT = {
    "good.md": [],
    "wrong.md": ["the output differs"],
    "uncovered.md": ["an indented block that looks like SQL", "a fenced block that looks like SQL"],
    "midblock.md": ["only the last statement of a block may fail"],
    "notext.md": ["has no ```text block"],
    "transcript.md": ["a shell transcript in a document doc_sessions.py does not replay"],
}


def self_test(attu, attud, data_dir):
    """Runs the checker on documents with known faults; returns the failures."""
    bad = []
    cut = statements(["SELECT ';' ; SELECT $a$;$a$; SELECT E'\\';';",
                      "/* ; /* ; */ */ SELECT 1 -- ;", ";", "\\timing on", "SELECT 'open"])
    if [c[1].split()[-1] for c in cut] != ["';'", "$a$;$a$", "E'\\';'", ";", "on", "'open"]:
        bad.append("statement splitter: %r" % (cut,))
    tmp = tempfile.mkdtemp(prefix="attu-doc-selftest.")
    try:
        for name, text in SELF_TEST_DOCS.items():
            path = os.path.join(tmp, name)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            _, problems, _ = check_doc(attu, attud, data_dir, path, False)
            want = SELF_TEST_EXPECT[name]
            if len(problems) != len(want) or not all(any(w in p for p in problems) for w in want):
                bad.append("%s: expected %r, got:\n%s" % (name, want, "\n".join(problems)))
        # The update mode repairs wrong.md and adds the text block notext.md lacks.
        for name in ("wrong.md", "notext.md"):
            path = os.path.join(tmp, name)
            _, _, new_text = check_doc(attu, attud, data_dir, path, True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(new_text or "")
            _, problems, _ = check_doc(attu, attud, data_dir, path, False)
            if problems or " one\n-----\n   1\n(1 row)" not in open(path).read() and name == "wrong.md":
                bad.append("update of %s:\n%s\n%s" % (name, open(path).read(), "\n".join(problems)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return bad


def main():
    if len(sys.argv) < 5:
        print(__doc__)
        return 2
    attu, attud, docs_dir, data_dir = [os.path.abspath(a) for a in sys.argv[1:5]]
    docs = sys.argv[5:] or sorted(os.path.join(docs_dir, f) for f in os.listdir(docs_dir) if f.endswith(".md"))
    update = os.environ.get("ATTU_UPDATE_DOCS") == "1"
    for exe in (attu, attud):
        if not os.access(exe, os.X_OK):
            print("SKIP: %s not built" % exe)
            return 77
    if sys.argv[5:] == ["--self-test"]:
        bad = self_test(attu, attud, data_dir)
        for b in bad:
            print("FAIL " + b)
        print("self-test: %s" % ("%d failures" % len(bad) if bad else "ok"))
        return 1 if bad else 0
    failures, total = [], 0
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        jobs = [(d, pool.submit(check_doc, attu, attud, data_dir, d, update)) for d in docs]
        for doc, job in jobs:
            n, problems, new_text = job.result()
            total += n
            failures += problems
            if new_text is not None:
                with open(doc, "w", encoding="utf-8") as f:
                    f.write(new_text)
                print("updated %s" % doc)
            print("%-28s %3d examples  %s" % (os.path.basename(doc), n, "FAIL" if problems else "ok"))
    for p in failures:
        print("\nFAIL " + p)
    print("\n%d documents, %d examples, %d failures (%.1f s)" % (len(docs), total, len(failures), time.time() - t0))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
