#!/usr/bin/env bash
# psql against attud: -c, -f, \copy in and out, \timing, errors.
set -euo pipefail
P=(psql -X -h 127.0.0.1 -p "$ATTU_PORT" -U attu -d attu -v ON_ERROR_STOP=1)
fail() { echo "FAIL: $*"; exit 1; }

out=$("${P[@]}" -At -c "SELECT 1")
[ "$out" = 1 ] || fail "-c SELECT 1 gave '$out'"

cat >"$ATTU_TMP/script.sql" <<'SQL'
CREATE TABLE t (a int, b text);
SELECT 'hello';
SQL
out=$("${P[@]}" -At -f "$ATTU_TMP/script.sql")
[ "$out" = $'CREATE TABLE\nhello' ] || fail "-f gave '$out'"

for i in $(seq 1 500); do echo "$i,name$i"; done >"$ATTU_TMP/in.csv"
out=$("${P[@]}" -At -c "\\copy t FROM '$ATTU_TMP/in.csv' CSV")
[ "$out" = "COPY 500" ] || fail "\\copy in gave '$out'"
"${P[@]}" -At -c "\\copy t TO '$ATTU_TMP/out.csv' CSV" >/dev/null
cmp <(sort "$ATTU_TMP/in.csv") <(sort "$ATTU_TMP/out.csv") || fail "\\copy out differs from what went in"
n=$("${P[@]}" -At -c "SELECT * FROM t" | wc -l)
[ "$n" = 500 ] || fail "SELECT * returned $n rows"

out=$("${P[@]}" -c "\\timing on" -c "SELECT 1")
grep -q "^Time: " <<<"$out" || fail "\\timing printed no time: $out"

# an error: psql shows SQLSTATE-bearing message and exits 1 with ON_ERROR_STOP
if err=$("${P[@]}" -c "SELEC 1" 2>&1); then fail "syntax error did not fail"; fi
grep -q 'syntax error' <<<"$err" || fail "error text: $err"
err=$("${P[@]}" -c "\\set VERBOSITY verbose" -c "SELEC 1" 2>&1 || true)
grep -q '42601' <<<"$err" || fail "no SQLSTATE in verbose error: $err"
# against the real engine: an unknown function's error carries PostgreSQL's
# HINT line
if [ "${ATTU_KIND:-}" = real ]; then
  err=$("${P[@]}" -c "SELECT no_such_function(1)" 2>&1 || true)
  grep -q '^HINT:  No function matches' <<<"$err" || fail "no HINT line: $err"
  # transaction-state messages are WARNINGs (severity and SQLSTATE on the
  # wire), as PostgreSQL 15 sends them, not NOTICEs
  err=$("${P[@]}" -c "\\set VERBOSITY verbose" -c "COMMIT" -c "ROLLBACK" -c "BEGIN" -c "BEGIN" -c "COMMIT" 2>&1 >/dev/null)
  want=$'WARNING:  25P01: there is no transaction in progress\nWARNING:  25P01: there is no transaction in progress\nWARNING:  25001: there is already a transaction in progress'
  [ "$err" = "$want" ] || fail "transaction warnings: '$err'"
  # SET LOCAL outside a block: the WARNING, and no effect
  out=$("${P[@]}" -At -c "\\set VERBOSITY verbose" -c "SET LOCAL statement_timeout = '5s'" -c "SHOW statement_timeout" 2>"$ATTU_TMP/err.txt")
  err=$(cat "$ATTU_TMP/err.txt")
  [ "$err" = 'WARNING:  25P01: SET LOCAL can only be used in transaction blocks' ] || fail "SET LOCAL warning: '$err'"
  [ "$out" = $'SET\n0' ] || fail "SET LOCAL outside a block changed the setting: '$out'"
  # PREPARE / EXECUTE with psql variables (psql 15 has no \bind: its
  # variables are interpolated into EXECUTE's arguments), as PostgreSQL
  cat >"$ATTU_TMP/prepare.sql" <<'SQL'
\set id 4
\set label 'it''s'
PREPARE pv (INTEGER, TEXT) AS SELECT $1 * 10 AS n, $2 || '!' AS s;
EXECUTE pv (:id, :'label');
\set id 2.6
EXECUTE pv (:id, upper(:'label'));
SQL
  out=$("${P[@]}" -At -f "$ATTU_TMP/prepare.sql")
  [ "$out" = $'PREPARE\n40|it\'s!\n30|IT\'S!' ] || fail "PREPARE / EXECUTE with variables gave '$out'"
  err=$("${P[@]}" -c "PREPARE pv AS SELECT 1" -c "\\set VERBOSITY verbose" -c "EXECUTE pv (1)" 2>&1 >/dev/null || true)
  want=$'ERROR:  42601: wrong number of parameters for prepared statement "pv"\nDETAIL:  Expected 0 parameters but got 1.'
  [ "$err" = "$want" ] || fail "EXECUTE with a wrong count: '$err'"
fi
echo "psql: ok"
