#!/usr/bin/env bash
# bench/server/run_bench.sh ATTUD PGLOAD [SECONDS]
#   Trivial-query throughput and p50/p99 latency at 1, 8, 64 and 512
#   clients, simple and extended protocol, with pgbench (-n, a custom
#   script) and with pgload; then 2,000 idle connections held while 8
#   clients run. The same runs go against a private PostgreSQL 15 server
#   (initdb into a temp dir, run as user `postgres` when we are root).
#   Prints a Markdown table for docs/performance.md.
set -euo pipefail
attud=$1 pgload=$2 secs=${3:-10}
pgbin=/usr/lib/postgresql/15/bin
tmp=$(mktemp -d /tmp/attu_bench_XXXXXX)
chmod 777 "$tmp"
apid=
cleanup() {
  [ -n "$apid" ] && kill "$apid" 2>/dev/null || true
  if [ -d "$tmp/pg" ]; then run_pg "$pgbin/pg_ctl" -D "$tmp/pg" -m immediate stop >/dev/null 2>&1 || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

run_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

echo "SELECT 1;" >"$tmp/select1.sql"
rows=()
bench_server() {   # name port user
  local name=$1 port=$2 user=$3
  for mode in simple extended; do
    for c in 1 8 64 512; do
      local j=2; [ "$c" -lt 2 ] && j=1
      # pgbench's -T includes connecting, which takes seconds for 512
      # PostgreSQL backends on this machine: give it the time
      local t=$secs; [ "$c" -ge 512 ] && t=$((secs * 4))
      local out tps lat
      out=$(PGUSER=$user pgbench -n -h 127.0.0.1 -p "$port" -U "$user" -M "$mode" -c "$c" -j "$j" \
            -T "$t" -f "$tmp/select1.sql" -r postgres 2>&1 || true)
      tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\).*/\1/p' | head -1)
      [ -n "$tps" ] || echo "pgbench $name $mode $c failed: $(echo "$out" | grep -m3 -i error)" >&2
      lat=$(echo "$out" | sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' | head -1)
      local pl
      pl=$(PGUSER=$user PGDATABASE=postgres "$pgload" -h 127.0.0.1 -p "$port" -c "$c" -j 2 \
           -T "$secs" -M "$mode" 2>&1 | tail -3)
      echo "$pl" | grep -q qps= || echo "pgload $name $mode $c failed: $pl" >&2
      pl=$(echo "$pl" | tail -1)
      local q p50 p99
      q=$(echo "$pl" | sed -n 's/.*qps=\([0-9]*\).*/\1/p')
      p50=$(echo "$pl" | sed -n 's/.*p50_ms=\([0-9.]*\).*/\1/p')
      p99=$(echo "$pl" | sed -n 's/.*p99_ms=\([0-9.]*\).*/\1/p')
      rows+=("| $name | $mode | $c | ${tps%.*} | $lat | $q | $p50 | $p99 |")
      echo "${rows[-1]}" >&2
    done
  done
  local idle
  idle=$(PGUSER=$user PGDATABASE=postgres "$pgload" -h 127.0.0.1 -p "$port" -c 8 -j 2 -T "$secs" -i 2000 2>&1 | tail -1)
  rows+=("| $name | simple, 2,000 idle held | 8 | | | $(echo "$idle" | sed -n 's/.*qps=\([0-9]*\).*/\1/p') | $(echo "$idle" | sed -n 's/.*p50_ms=\([0-9.]*\).*/\1/p') | $(echo "$idle" | sed -n 's/.*p99_ms=\([0-9.]*\).*/\1/p') (idle alive: $(echo "$idle" | sed -n 's/.*idle_alive=\([0-9]*\).*/\1/p')/2000) |")
  echo "${rows[-1]}" >&2
}

# attud
"$attud" --port 0 --ready-file "$tmp/ready" --device cpu --log-level warning \
         --max-connections 5000 >"$tmp/attud.log" 2>&1 &
apid=$!
for _ in $(seq 1 500); do [ -s "$tmp/ready" ] && break; sleep 0.02; done
bench_server attud "$(cat "$tmp/ready")" attu
kill -TERM "$apid"; wait "$apid" || true; apid=

# PostgreSQL 15
if [ -x "$pgbin/initdb" ]; then
  run_pg "$pgbin/initdb" -D "$tmp/pg" -A trust -U postgres >/dev/null
  run_pg "$pgbin/pg_ctl" -D "$tmp/pg" -l "$tmp/pg.log" -w \
    -o "-p 54329 -k /tmp -c max_connections=2600 -c shared_buffers=128MB -c fsync=off" start >/dev/null
  bench_server "PostgreSQL 15" 54329 postgres
  run_pg "$pgbin/pg_ctl" -D "$tmp/pg" -m fast stop >/dev/null
fi

echo
echo "| server | protocol | clients | pgbench tps | pgbench avg ms | pgload qps | pgload p50 ms | pgload p99 ms |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
