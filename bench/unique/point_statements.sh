#!/usr/bin/env bash
# bench/unique/point_statements.sh BUILD_DIR [ROWS] [DEVICE] - statements
# that name one row by its PRIMARY KEY on a ROWS-row table (default
# 10,000,000), through an attud of BUILD_DIR (its server/attud and
# clients/attu) on DEVICE (cpu, the default, or gpu): the point SELECT /
# UPDATE of docs/performance.md ("Unique checks").
#
# The table bk(id int primary key, v int, s text) is loaded by INSERT ...
# SELECT, whose check builds the key index. Each statement runs 7 times
# through a new `attu -c` (the client's start included: `SELECT 1` shows
# it), then SELECT and EXECUTE of a prepared SELECT 15 times in one psql
# session (`\timing`: the server's time and the round trip; skipped
# without PostgreSQL's psql). Medians (min, max) in ms. The server's
# environment is this script's: ATTU_KEYED_SELECT=0 / ATTU_KEYED_DML=0
# compare the scans.
#
# RESTART=1: the server keeps its tables in a data directory, and after
# the load it is stopped and started again, so the statements meet a
# table loaded at start (no key index until a lookup or a check builds
# one: db/db_key_lookup.c). The first 16 keyed SELECTs after the restart
# (they scan) and the 17th (it builds the index) are timed on their own,
# as is the restart;
# ATTU_KEY_SET_ON_READ=0 compares the scan such a table had before.
set -euo pipefail
build=$(cd "$1" && pwd)
rows=${2:-10000000}
device=${3:-cpu}
tmp=$(mktemp -d /tmp/attu-point.XXXXXX)
pid=
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
start_server() {
  rm -f "$tmp/port"
  local dir=()
  [ "${RESTART:-0}" = 1 ] && dir=(--data-dir "$tmp/data")
  "$build/server/attud" --port 0 --device "$device" "${dir[@]}" --ready-file "$tmp/port" --log-level error \
    >>"$tmp/attud.log" 2>&1 &
  pid=$!
  for _ in $(seq 6000); do [ -s "$tmp/port" ] && break; sleep 0.1; done
  port=$(cat "$tmp/port")
}
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
start_server
attu() { "$build/clients/attu" -p "$port" "$@" >/dev/null; }
median() { sort -n | awk '{a[NR] = $1} END {printf "%s (min %s, max %s)\n", a[int((NR + 1) / 2)], a[1], a[NR]}'; }

s0=$(date +%s%N)
attu -c "CREATE TABLE bk (id int PRIMARY KEY, v int, s text)" \
     -c "INSERT INTO bk SELECT g, g, 'x' || g FROM generate_series(1, $rows) g"
echo "load of $rows rows: $(ms_since "$s0") ms"
if [ "${RESTART:-0}" = 1 ]; then
  kill "$pid"; wait "$pid" 2>/dev/null || true
  s0=$(date +%s%N); start_server; echo "restart (the table read back): $(ms_since "$s0") ms"
  # (a version of 65536 rows or more: its first 16 lookups scan, the
  # 17th builds the index, db/db_unique.c)
  s0=$(date +%s%N); for i in $(seq 16); do attu -c "SELECT * FROM bk WHERE id = $i"; done
  echo "attu -c | the first 16 SELECT * FROM bk WHERE id = i after the restart | $(ms_since "$s0") ms in all"
  s0=$(date +%s%N); attu -c "SELECT * FROM bk WHERE id = 17"
  echo "attu -c | the 17th, SELECT * FROM bk WHERE id = 17 | $(ms_since "$s0") ms"
fi

for q in "SELECT 1" "SELECT * FROM bk WHERE id = 61" "SELECT v, s FROM bk WHERE id = $((rows - 1))" \
         "SELECT count(*), sum(v) FROM bk WHERE id = 61" "SELECT * FROM bk WHERE id = $((rows * 2))" \
         "UPDATE bk SET v = 1 WHERE id = 81"; do
  for _ in 1 2 3 4 5 6 7; do
    s=$(date +%s%N); attu -c "$q"; e=$(date +%s%N)
    awk -v us=$(( (e - s) / 1000 )) 'BEGIN {printf "%.1f\n", us / 1000}'
  done | median | sed "s/^/attu -c | $q | /"
done

psql=$(ls /usr/lib/postgresql/*/bin/psql 2>/dev/null | sort -V | tail -n1 || true)
[ -x "${psql:-}" ] || psql=$(command -v psql || true)
[ -n "$psql" ] || { echo "no psql: the one-session timings are skipped"; exit 0; }
for q in "SELECT * FROM bk WHERE id = 61" "EXECUTE p(61)"; do
  { echo 'PREPARE p(int) AS SELECT * FROM bk WHERE id = $1;'; echo '\timing on'
    for _ in $(seq 15); do echo "$q;"; done; } |
    "$psql" -h 127.0.0.1 -p "$port" -U attu -d attu -X -q 2>&1 | awk '/^Time:/ {print $2}' | median |
    sed "s/^/psql | $q | /"
done
