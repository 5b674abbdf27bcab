#!/bin/bash
# txn_memory_loop.sh ATTUD ATTU [DEVICE] - device memory across rolled-back
# transaction blocks: a 5M-row table made resident by a query, then rounds
# of BEGIN; big INSERT / UPDATE / ALTER TABLE ADD COLUMN; ROLLBACK, and
# autocommit INSERT / DELETE pairs. The discarded versions' device copies
# must be freed: the memory used after the last round must not exceed the
# memory after the first by more than 100 MiB, about two versions of the
# table (the pool caches what was freed, so the first round's peak stays;
# a leak grows every round). Prints the
# figures; exits 1 on growth or a wrong final count. Meant for a GPU host
# (DEVICE gpu); nvidia-smi reads the memory.
set -u
ATTUD=$1; ATTU=$2; DEVICE=${3:-gpu}
tmp=$(mktemp -d); trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
"$ATTUD" --port 0 --ready-file "$tmp/ready" --data-dir "$tmp/data" --device "$DEVICE" --log-level warning \
  > "$tmp/attud.log" 2>&1 &
pid=$!
for _ in $(seq 600); do [ -s "$tmp/ready" ] && break; sleep 0.1; done
port=$(grep -o '[0-9]*' "$tmp/ready" | tail -1)
q() { "$ATTU" -p "$port" -c "$1" > "$tmp/out" 2>&1 || { echo "FAILED: $1"; cat "$tmp/out"; exit 1; }; }
used() { nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null | awk -F, -v p=$pid '$1 == p {print $2 + 0}'; }
q "CREATE TABLE big AS SELECT g AS a, g * 2 AS b FROM generate_series(1, 5000000) g"
q "SELECT sum(a), sum(b) FROM big"
first=""
for round in $(seq 1 12); do
  q "BEGIN; INSERT INTO big SELECT a + 5000000, b FROM big; SELECT count(*) FROM big; ROLLBACK"
  q "BEGIN; UPDATE big SET b = b + 1 WHERE a % 2 = 0; SELECT sum(b) FROM big; ROLLBACK"
  q "BEGIN; ALTER TABLE big ADD COLUMN c int DEFAULT 7; SELECT sum(c) FROM big; ROLLBACK"
  q "BEGIN; SAVEPOINT s; DELETE FROM big WHERE a < 1000000; ROLLBACK TO s; SELECT count(*) FROM big; COMMIT"
  q "INSERT INTO big VALUES (-1, -2)"
  q "DELETE FROM big WHERE a = -1"
  q "SELECT sum(a), sum(b) FROM big"
  m=$(used); [ -z "$first" ] && first=$m
  echo "round $round: device memory ${m:-?} MiB"
done
q "SELECT count(*), sum(b) FROM big"
cat "$tmp/out"
grep -q "5000000" "$tmp/out" || { echo "FAIL: wrong count"; exit 1; }
if [ -n "$first" ] && [ -n "$m" ] && [ "$m" -gt $((first + 100)) ]; then
  echo "FAIL: device memory grew from $first to $m MiB"; exit 1
fi
echo "ok: device memory $first -> ${m:-?} MiB"
