#!/usr/bin/env bash
# bench/server/run_bench.sh ATTUD PGLOAD [SECONDS]
#   Trivial-query (SELECT 1) throughput and latency at 1, 8, 64 and 512
#   clients, simple and extended protocol, measured with pgbench (-n, a
#   custom script) and with pgload (p50/p99); then 2,000 idle connections
#   held while 8 clients run. attud and a private PostgreSQL 15 (initdb in
#   a temp dir, run as user `postgres` when we are root) run side by side
#   and every configuration is measured on both back to back, so both see
#   the same machine load. Prints a Markdown table for docs/performance.md.
set -euo pipefail
attud=$1 pgload=$2 secs=${3:-10}
pgbin=/usr/lib/postgresql/15/bin
pgport=54329
tmp=$(mktemp -d /tmp/attu_bench_XXXXXX)
chmod 777 "$tmp"
apid=
run_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
  [ -n "$apid" ] && kill "$apid" 2>/dev/null || true
  if [ -f "$tmp/pg/postmaster.pid" ]; then
    run_pg "$pgbin/pg_ctl" -D "$tmp/pg" -m immediate stop >/dev/null 2>&1 || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
echo "SELECT 1;" >"$tmp/select1.sql"

"$attud" --port 0 --ready-file "$tmp/ready" --device cpu --log-level warning \
         --max-connections 5000 >"$tmp/attud.log" 2>&1 &
apid=$!
for _ in $(seq 1 500); do [ -s "$tmp/ready" ] && break; sleep 0.02; done
aport=$(cat "$tmp/ready")

servers=("attud:$aport:attu")
if [ -x "$pgbin/initdb" ]; then
  run_pg "$pgbin/initdb" -D "$tmp/pg" -A trust -U postgres >/dev/null
  run_pg "$pgbin/pg_ctl" -D "$tmp/pg" -l "$tmp/pg.log" -w -o "-p $pgport -k /tmp -c max_connections=2600 -c shared_buffers=128MB -c fsync=off" start >/dev/null
  servers+=("PostgreSQL 15:$pgport:postgres")
fi

field() { echo "$1" | sed -n "s/.*$2=\\([0-9.]*\\).*/\\1/p"; }
rows=()
for mode in simple extended; do
  for c in 1 8 64 512; do
    j=2; [ "$c" -lt 2 ] && j=1
    # pgbench's -T includes connecting, which takes seconds for 512
    # PostgreSQL backends on this machine: give it the time
    t=$secs; [ "$c" -ge 512 ] && t=$((secs * 4))
    for s in "${servers[@]}"; do
      IFS=: read -r name port user <<<"$s"
      out=$(pgbench -n -h 127.0.0.1 -p "$port" -U "$user" -M "$mode" -c "$c" -j "$j" \
            -T "$t" -f "$tmp/select1.sql" postgres 2>&1 || true)
      tps=$(echo "$out" | sed -n 's/^tps = \([0-9]*\).*/\1/p' | head -1)
      lat=$(echo "$out" | sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' | head -1)
      [ -n "$tps" ] || echo "pgbench $name $mode $c failed: $(echo "$out" | grep -m3 -i error)" >&2
      pl=$(PGUSER=$user PGDATABASE=postgres "$pgload" -h 127.0.0.1 -p "$port" -c "$c" -j 2 \
           -T "$secs" -M "$mode" 2>&1 | tail -3)
      echo "$pl" | grep -q qps= || echo "pgload $name $mode $c failed: $pl" >&2
      pl=$(echo "$pl" | tail -1)
      rows+=("| $name | $mode | $c | $tps | $lat | $(field "$pl" qps) | $(field "$pl" p50_ms) | $(field "$pl" p99_ms) |")
      echo "${rows[-1]}" >&2
    done
  done
done
for s in "${servers[@]}"; do
  IFS=: read -r name port user <<<"$s"
  pl=$(PGUSER=$user PGDATABASE=postgres "$pgload" -h 127.0.0.1 -p "$port" -c 8 -j 2 -T "$secs" -i 2000 2>&1 | tail -1)
  rows+=("| $name | simple + 2,000 idle connections held | 8 | | | $(field "$pl" qps) | $(field "$pl" p50_ms) | $(field "$pl" p99_ms) (idle still answering: $(field "$pl" idle_alive)/2000) |")
  echo "${rows[-1]}" >&2
done

kill -TERM "$apid"; wait "$apid" || echo "attud exit status $?" >&2; apid=
[ -f "$tmp/pg/postmaster.pid" ] && run_pg "$pgbin/pg_ctl" -D "$tmp/pg" -m fast stop >/dev/null

echo "| server | protocol | clients | pgbench tps | pgbench avg ms | pgload qps | pgload p50 ms | pgload p99 ms |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
