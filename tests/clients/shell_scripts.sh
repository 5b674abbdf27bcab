#!/usr/bin/env bash
# tests/clients/shell_scripts.sh ATTU SERVER_KIND [ATTUD]
#
# The shell as scripts use it: -c and -f (in order), statements split at ';'
# (not inside strings or comments), --csv and --json output, \copy TO and
# FROM a file, error messages with file:line and a caret, and the exit
# codes: 0 ok, 1 a failed statement (and nothing after it runs), 2 no
# connection.
set -euo pipefail
ATTU=$1 KIND=$2 ATTUD=${3:-}
source "$(dirname "$0")/server_env.sh"
start_server "$KIND" "$ATTUD"
export NO_COLOR=1
fail() { echo "FAIL: $*"; exit 1; }
check() { # check NAME EXPECTED ACTUAL
  [ "$2" == "$3" ] || { printf 'FAIL: %s\n--- expected\n%s\n--- got\n%s\n' "$1" "$2" "$3"; exit 1; }
}

# -c with several statements, a ';' inside a string, a comment.
"$ATTU" -c "CREATE TABLE s (id INTEGER, t TEXT); INSERT INTO s VALUES (1, 'a;b'); -- c;
INSERT INTO s VALUES (2, 'it''s'), (3, NULL);" >/dev/null || fail "setup -c"

out=$("$ATTU" --csv -c "SELECT id, t FROM s ORDER BY id")
check csv 'id,t
1,a;b
2,it'"'"'s
3,' "$out"

out=$("$ATTU" --json -c "SELECT id, t FROM s ORDER BY id")
check json '[
 {"id": 1, "t": "a;b"},
 {"id": 2, "t": "it'"'"'s"},
 {"id": 3, "t": null}
]' "$out"

out=$("$ATTU" -c "SELECT id, t FROM s WHERE id < 3 ORDER BY id")
check aligned ' id |  t
----+------
  1 | a;b
  2 | it'"'"'s
(2 rows)' "$(printf '%s\n' "$out" | sed 's/ *$//' | sed '/^$/d')"

# -f: an error stops the script with status 1; the next statement never runs.
cat >"$SERVER_TMP/bad.sql" <<'SQL'
INSERT INTO s VALUES (4, 'four');
SELECT id
  FROM nosuch;
INSERT INTO s VALUES (5, 'five');
SQL
set +e
err=$("$ATTU" -f "$SERVER_TMP/bad.sql" 2>&1 >/dev/null); rc=$?
set -e
check "exit status after an error" 1 "$rc"
grep -Eq "^attu:$SERVER_TMP/bad.sql:2: ERROR: .*nosuch.*\(SQLSTATE 42P01\)" <<<"$err" || fail "error prefix: $err"
grep -qx 'LINE 2:   FROM nosuch' <<<"$err" || fail "error line: $err"
grep -qx '               ^' <<<"$err" || fail "caret: $err"
out=$("$ATTU" --csv -c "SELECT count(*) AS n FROM s")
check "statements after the error did not run" 'n
4' "$out"

# -c and -f run in order.
echo "SELECT 'from file' AS f;" >"$SERVER_TMP/ok.sql"
out=$("$ATTU" --csv -c "SELECT 'first' AS f" -f "$SERVER_TMP/ok.sql")
check "order of -c and -f" 'f
first
f
from file' "$out"

# \copy TO a file and back FROM it.
"$ATTU" -c "\\copy s TO '$SERVER_TMP/s.csv' WITH (FORMAT csv)" >/dev/null
check "copy to" '1,a;b
2,it'"'"'s
3,
4,four' "$(sort "$SERVER_TMP/s.csv")"
"$ATTU" -c "CREATE TABLE s2 (id INTEGER, t TEXT)" >/dev/null
out=$("$ATTU" -c "\\copy s2 FROM '$SERVER_TMP/s.csv' WITH (FORMAT csv)" 2>/dev/null)
check "copy from" 'COPY 4' "$out"
out=$("$ATTU" --csv -c "SELECT count(*) AS n, count(t) AS nt FROM s2")
check "copied rows" 'n,nt
4,3' "$out"
set +e
"$ATTU" -c "\\copy s2 FROM '$SERVER_TMP/missing.csv'" >/dev/null 2>&1; rc=$?
set -e
check "copy from a missing file" 1 "$rc"

# Piped stdin runs as a script too.
out=$(printf 'SELECT 40 + 2 AS x;\n' | "$ATTU" --csv)
check "stdin script" 'x
42' "$out"

# No server: status 2. The address is a Unix socket in a folder of our
# own that nothing listens on (a TCP port such as 1 can be taken by some
# other program on a shared machine, which once made this connect).
set +e
mkdir -p "$SERVER_TMP/nosock"
"$ATTU" -h "$SERVER_TMP/nosock" -p 1 -c "SELECT 1" >/dev/null 2>&1; rc=$?
set -e
check "connection failure" 2 "$rc"
echo "shell scripts against $KIND: ok"
