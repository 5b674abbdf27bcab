#!/usr/bin/env bash
# tests/clients/main_job.sh ATTU ATTUD SOURCE_DIR SHARED_DIR
#
# The README's main job, end to end: attud started the way scripts/start
# starts it (bootstrap.sql loads data/statecity.csv into an empty data
# directory), then `attu -f clients/examples/cities.sql` must print the
# table of the seed demo (shared/data/cities_expected.txt: names exact,
# distances within 0.01). attud is then restarted on the same data
# directory: the table must come back from storage (no second bootstrap)
# and the query must print the same table again.
set -euo pipefail
attu=$1 attud=$2 src=$3 shared=$4
expected=$shared/data/cities_expected.txt
[ -f "$expected" ] || { echo "SKIP: $expected missing"; exit 77; }

tmp=$(mktemp -d /tmp/attu-main-job.XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

start() {   # start attud; sets pid and PGPORT
  rm -f "$tmp/ready"
  "$attud" --host 127.0.0.1 --port 0 --ready-file "$tmp/ready" \
    --data-dir "$tmp/data" --device cpu --load-dir "$src/data" \
    --bootstrap "$src/clients/examples/bootstrap.sql" >>"$tmp/attud.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do
    [ -s "$tmp/ready" ] && break
    kill -0 "$pid" 2>/dev/null || { cat "$tmp/attud.log"; echo "attud exited"; exit 1; }
    sleep 0.1
  done
  [ -s "$tmp/ready" ] || { cat "$tmp/attud.log"; echo "attud not ready"; exit 1; }
  export PGHOST=127.0.0.1 PGUSER=attu PGPORT=$(head -n1 "$tmp/ready" | tr -dc 0-9)
}
stop() { kill "$pid"; wait "$pid" || true; pid=; }

check() {   # run the example and compare with the demo's table
  "$attu" --csv -f "$src/clients/examples/cities.sql" >"$tmp/out.csv"
  python3 - "$tmp/out.csv" "$expected" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
header, rows = rows[0], rows[1:]
assert header == ["state", "name", "n1", "d1", "n2", "d2", "n3", "d3"], header
exp = [l.rstrip("\n") for l in open(sys.argv[2]) if l.strip()]
assert len(rows) == len(exp) == 52, (len(rows), len(exp))
bad = 0
for got, line in zip(rows, exp):
    # The demo prints: state (2), name (%15.15s), then three "%12.12s: %6.2f".
    st, name = line[:2], line[3:18].strip()
    nbrs = []
    rest = line[18:]
    while rest.strip():
        n, d = rest[:16].strip(), rest[17:24].strip()
        nbrs.append((n, float(d)))
        rest = rest[24:]
    ok = got[0] == st and got[1][:15] == name
    for i, (n, d) in enumerate(nbrs):
        gn, gd = got[2 + 2 * i], got[3 + 2 * i]
        ok = ok and gn[:12] == n and abs(float(gd) - d) <= 0.0100001
    if not nbrs:
        ok = ok and all(v == "" for v in got[2:])
    if not ok:
        bad += 1
        print("MISMATCH:", got, "expected:", line)
print(f"{52 - bad} of 52 states match the demo")
sys.exit(1 if bad else 0)
PY
}

start
check
grep -q "bootstrap.*done" "$tmp/attud.log" || { echo "first start did not bootstrap"; exit 1; }
stop
start
check
[ "$(grep -c 'bootstrap.*done' "$tmp/attud.log")" -eq 1 ] || { echo "second start bootstrapped again"; exit 1; }
echo "main job: cities table printed before and after a restart"
