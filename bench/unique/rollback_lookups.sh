#!/usr/bin/env bash
# bench/unique/rollback_lookups.sh ATTUD [ROWS] - keyed SELECTs right
# after ROLLBACK / ROLLBACK TO SAVEPOINT on a ROWS-row table (default
# 10,000,000) t(id int primary key, v int), through the attud binary
# ATTUD on the CPU, timed by psql's \timing (the server's time and the
# round trip): docs/performance.md, "helper 154". The blocks: one that
# keeps every key (UPDATE of v), one that changes keys (UPDATE of id,
# DELETE, INSERT), and one rolled back to a savepoint after a DELETE,
# each followed by lookups of the version restored. Pass two binaries'
# paths in turn (say, one built before a change) to compare them.
set -euo pipefail
bin=$1
rows=${2:-10000000}
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
if ss -ltn | grep -q ":$port "; then echo "port $port is taken" >&2; exit 1; fi
"$bin" --port "$port" --device cpu --log-level error &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null' EXIT
P=(psql -X -h 127.0.0.1 -p "$port" -U postgres -d postgres)
for _ in $(seq 100); do "${P[@]}" -c 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.2; done
"${P[@]}" -q -c "CREATE TABLE t (id int PRIMARY KEY, v int)" \
              -c "INSERT INTO t SELECT g, g FROM generate_series(1, $rows) g"
"${P[@]}" <<'SQL'
\timing on
SELECT v FROM t WHERE id = 7;
BEGIN;
UPDATE t SET v = 0 WHERE id = 5;
ROLLBACK;
SELECT v FROM t WHERE id = 7;
SELECT v FROM t WHERE id = 7;
SELECT v FROM t WHERE id = 7;
BEGIN;
UPDATE t SET id = -5 WHERE id = 5;
DELETE FROM t WHERE id = 6;
INSERT INTO t VALUES (-1, -1);
ROLLBACK;
SELECT v FROM t WHERE id = 7;
SELECT v FROM t WHERE id = 6;
SELECT v FROM t WHERE id = -1;
BEGIN;
UPDATE t SET v = 1 WHERE id = 9;
SAVEPOINT a;
DELETE FROM t WHERE id = 10;
ROLLBACK TO a;
SELECT v FROM t WHERE id = 10;
SELECT v FROM t WHERE id = 11;
ROLLBACK;
SELECT v FROM t WHERE id = 9;
SELECT v FROM t WHERE id = 10;
SQL
