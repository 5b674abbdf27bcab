#!/usr/bin/env bash
# bench/ssb/duckdb/install.sh [DIR] - installs DuckDB's C library from npm
# (package @duckdb/node-bindings-linux-x64 ships libduckdb.so with the whole C
# API) into DIR (default: bench/ssb/duckdb/npm, ignored by git) and prints the
# library's path. Idempotent: does nothing when the library is there.
set -euo pipefail
dir=${1:-"$(cd "$(dirname "$0")" && pwd)/npm"}
lib="$dir/node_modules/@duckdb/node-bindings-linux-x64/libduckdb.so"
if [ ! -f "$lib" ]; then
  mkdir -p "$dir"
  (cd "$dir" && npm install --no-save --no-audit --no-fund --ignore-scripts \
      --loglevel=error @duckdb/node-bindings-linux-x64 >&2)
fi
[ -f "$lib" ] || { echo "install.sh: $lib not found after npm install" >&2; exit 1; }
echo "$lib"
