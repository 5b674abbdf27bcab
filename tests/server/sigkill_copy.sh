#!/usr/bin/env bash
# sigkill_copy.sh ATTUD - kill -9 attud in the middle of a COPY FROM STDIN,
# restart it on the same data directory: the table whose COPY completed is
# intact, the table being loaded is exactly as before the interrupted COPY.
set -euo pipefail
bin=$1
command -v psql >/dev/null || { echo "SKIP: psql not installed"; exit 77; }
tmp=$(mktemp -d /tmp/attu_sigkill_XXXXXX)
pid= feeder=
cleanup() {
  [ -n "$feeder" ] && kill "$feeder" 2>/dev/null || true
  [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
  [ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "---- log ----"; tail -30 "$tmp"/attud*.log; exit 1; }

start() {
  rm -f "$tmp/ready"
  "$bin" --port 0 --ready-file "$tmp/ready" --data-dir "$tmp/data" --device cpu \
         --load-dir "$tmp" >>"$tmp/attud.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 3000); do   # up to 60 s: ASan builds on a loaded machine
    [ -s "$tmp/ready" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.02
  done
  [ -s "$tmp/ready" ] || fail "attud did not start"
  port=$(cat "$tmp/ready")
}
q() { psql -X -h 127.0.0.1 -p "$port" -U attu -d attu -v ON_ERROR_STOP=1 -At "$@"; }

start
for i in $(seq 1 2000); do echo "$i,done$i"; done >"$tmp/a.csv"
for i in $(seq 1 10); do echo "$i,before$i"; done >"$tmp/b.csv"
q -c "CREATE TABLE a (x INTEGER, y TEXT)" -c "CREATE TABLE b (x INTEGER, y TEXT)" >/dev/null
q -c "\\copy a FROM '$tmp/a.csv' CSV" >/dev/null
q -c "\\copy b FROM '$tmp/b.csv' CSV" >/dev/null
sum_a=$(q -c "SELECT count(*), sum(x) FROM a")
[ "$sum_a" = "2000|2001000" ] || fail "a before: $sum_a"

# a COPY that sends 5000 rows and then stalls, never sending CopyDone
if /usr/bin/python3 -c 'import psycopg2' 2>/dev/null; then
  /usr/bin/python3 - "$port" >/dev/null 2>&1 <<'PY' &
import sys, time, psycopg2
class Stall:
    def __init__(self): self.sent = False
    def read(self, n=-1):
        if not self.sent:
            self.sent = True
            return "".join(f"{i},partial\n" for i in range(5000))
        time.sleep(60)
        return ""
    readline = read
c = psycopg2.connect(host="127.0.0.1", port=int(sys.argv[1]), user="attu", dbname="attu")
c.autocommit = True
c.cursor().copy_expert("COPY b FROM STDIN WITH (FORMAT csv)", Stall())
PY
else
  # psql: the program's output is sent as it comes; the sleep keeps COPY open
  q -c "\\copy b FROM PROGRAM 'seq 1 5000 | sed s/\$/,partial/; sleep 60' CSV" >/dev/null 2>&1 &
fi
feeder=$!
sleep 1.5
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
pid=
kill "$feeder" 2>/dev/null || true
wait "$feeder" 2>/dev/null || true
feeder=

start
got_a=$(q -c "SELECT count(*), sum(x) FROM a" 2>&1 || true)
got_b=$(q -c "SELECT count(*), sum(x), min(y) FROM b" 2>&1 || true)
[ "$got_a" = "2000|2001000" ] || fail "table a after restart: $got_a"
[ "$got_b" = "10|55|before1" ] || fail "table b after restart: $got_b (want its 10 rows from before)"
kill -TERM "$pid"
wait "$pid" || fail "attud exit status $? after SIGTERM"
pid=
echo "sigkill during COPY: ok"
