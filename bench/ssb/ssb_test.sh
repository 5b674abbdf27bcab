#!/usr/bin/env bash
# bench/ssb/ssb_test.sh SSB_RUN SERVER_KIND [ATTUD] - the SSB answers test.
#
# Generates SSB at scale factor 1 (SSB_TEST_SF changes it; 6M lineorder
# rows, about 20 s with the sanitizers), loads it into a private server over the
# wire, runs all 13 queries once and compares every answer with DuckDB's on
# the same CSV files. With SERVER_KIND pg the server is PostgreSQL 15, which
# validates the generator and the query text; with attud it is attu itself.
# Skips (77) when DuckDB cannot be installed (npm offline) or no server.
set -euo pipefail
SSB_RUN=$1 KIND=$2 ATTUD=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../tests/clients/server_env.sh"
lib=$("$here/duckdb/install.sh" "${SSB_DUCKDB_DIR:-$here/duckdb/npm}" 2>"$SERVER_TMP/npm.log") \
  || { cat "$SERVER_TMP/npm.log"; skip "DuckDB could not be installed from npm"; }
start_server "$KIND" "$ATTUD"
sf=${SSB_TEST_SF:-1}
# DuckDB's library is not built with sanitizers; keep ASan's leak check to our code.
export ASAN_OPTIONS=${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0
save=()
[ "$KIND" = attud ] && save=(--save "$SERVER_TMP/answers")
# A query that runs away (a join order gone wrong) is cancelled and reported.
"$SSB_RUN" --sf "$sf" --data "$SERVER_TMP/ssb" --runs 1 --threads 2 --duckdb "$lib" \
  --query-timeout "${SSB_TEST_QUERY_TIMEOUT:-10}" "${save[@]}"
# attu linked into ssb_run (--inproc, the engine without the wire) gives
# the same answers as attud over the wire gave (and DuckDB agreed with).
if [ "$KIND" = attud ] && { "$SSB_RUN" --help 2>&1 || true; } | grep -q -- --inproc; then
  "$SSB_RUN" --inproc cpu --data "$SERVER_TMP/ssb" --runs 1 --expect "$SERVER_TMP/answers"
fi
