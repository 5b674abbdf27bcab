#!/usr/bin/env bash
# tests/clients/examples.sh LIBPQ_EXAMPLE SERVER_KIND [ATTUD]
#
# Runs the client examples of clients/examples/ against a private server and
# checks what they print: the C libpq example, and the psycopg2 COPY example
# (skipped alone when psycopg2 is not installed).
set -euo pipefail
EXAMPLE=$1 KIND=$2 ATTUD=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/server_env.sh"
start_server "$KIND" "$ATTUD"
dsn="host=$PGHOST port=$PGPORT user=$PGUSER"
fail() { echo "FAIL: $*"; exit 1; }

out=$("$EXAMPLE" "$dsn" 2>/dev/null)
[ "$out" == "AK  Denali         6190 m
CA  Mount Whitney  4421 m
CO  Mount Elbert   4401 m" ] || fail "libpq_example printed: $out"

py=/usr/bin/python3
[ -x "$py" ] || py=python3
if "$py" -c 'import psycopg2' 2>/dev/null; then
  # A small CSV with known answers: 3 CDPs in CA, 2 in NY, 1 in TX.
  csv=$SERVER_TMP/places.csv
  cat >"$csv" <<'CSV'
state,state_fips,name,city_fips,gnis,type,lat,lon
CA,06,Alpha,1,11,CDP,34.5,-118.0
CA,06,Beta,2,12,CDP,38.25,-121.0
CA,06,Gamma,3,13,CDP,36.0,-119.5
CA,06,Delta,4,14,PPL,40.0,-122.0
NY,36,Epsilon,5,15,CDP,42.75,-74.0
NY,36,Zeta,6,16,CDP,41.0,-73.5
TX,48,Eta,7,17,CDP,30.125,-97.0
CSV
  out=$("$py" "$here/../../clients/examples/python_copy_example.py" "$csv" --dsn "$dsn")
  [ "$out" == "loaded 7 rows from places.csv
     state     places  northmost
        CA          3    38.2500
        NY          2    42.7500
        TX          1    30.1250" ] || fail "python_copy_example printed: $out"
else
  echo "psycopg2 not installed: python example not run"
fi
echo "examples against $KIND: ok"
