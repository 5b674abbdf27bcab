#!/bin/bash
# temp_memory_loop.sh ATTUD ATTU [DEVICE] - device memory across sessions
# with temporary tables (db/db_temp.c): each round is a few sessions (one
# attu -c each) that make a 5M-row temporary table resident by a query and
# end, one whose ON COMMIT DELETE ROWS table fills and empties at each
# COMMIT, one whose DISCARD TEMP drops its tables, and one whose block
# rolls its temporary table back. A temporary table's versions, their
# device copies with them, must be freed when its session ends (or its
# rows go): the memory used after the last round must not exceed the
# memory after the first by more than 100 MiB (the pool caches what was
# freed, so the first round's peak stays; a leak grows every round).
# Prints the figures; exits 1 on growth or a wrong answer. Meant for a GPU
# host (DEVICE gpu); nvidia-smi reads the memory (on CPU the figures are
# '?' and only the answers are checked).
set -u
ATTUD=$1; ATTU=$2; DEVICE=${3:-gpu}
tmp=$(mktemp -d); trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
"$ATTUD" --port 0 --ready-file "$tmp/ready" --data-dir "$tmp/data" --device "$DEVICE" --log-level warning \
  > "$tmp/attud.log" 2>&1 &
pid=$!
for _ in $(seq 600); do [ -s "$tmp/ready" ] && break; sleep 0.1; done
port=$(grep -o '[0-9]*' "$tmp/ready" | tail -1)
q() { "$ATTU" -p "$port" -c "$1" > "$tmp/out" 2>&1 || { echo "FAILED: $1"; cat "$tmp/out"; exit 1; }; }
expect() { grep -q -- "$1" "$tmp/out" || { echo "FAIL: expected $1"; cat "$tmp/out"; exit 1; }; }
used() { nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null | awk -F, -v p=$pid '$1 == p {print $2 + 0}'; }
first=""
for round in $(seq 1 ${ROUNDS:-10}); do
  q "CREATE TEMP TABLE big AS SELECT g AS a, g * 2 AS b FROM generate_series(1, 5000000) g; SELECT sum(a) FROM big WHERE b > 10"
  expect 12500002499985
  q "CREATE TEMP TABLE per (a int) ON COMMIT DELETE ROWS; BEGIN; INSERT INTO per SELECT g FROM generate_series(1, 5000000) g; SELECT count(*) FROM per; COMMIT; SELECT count(*) AS after FROM per"
  expect "^ *0$"
  q "CREATE TEMP TABLE d1 AS SELECT g AS a FROM generate_series(1, 5000000) g; SELECT max(a) FROM d1; DISCARD TEMP; CREATE TEMP TABLE d1 (a int); SELECT count(*) FROM d1"
  expect "^ *0$"
  q "BEGIN; CREATE TEMP TABLE rb AS SELECT g AS a FROM generate_series(1, 5000000) g; SELECT sum(a) FROM rb; ROLLBACK"
  sleep 0.5   # (a session's end runs in its connection's thread)
  m=$(used); [ -z "$first" ] && first=$m
  echo "round $round: device memory ${m:-?} MiB"
done
q "SELECT count(*) FROM pg_class WHERE relpersistence = 't'"
expect "^ *0$"
if [ -n "$first" ] && [ -n "$m" ] && [ "$m" -gt $((first + 100)) ]; then
  echo "FAIL: device memory grew from $first to $m MiB"; exit 1
fi
echo "ok: device memory $first -> ${m:-?} MiB"
