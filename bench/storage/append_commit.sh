#!/usr/bin/env bash
# bench/storage/append_commit.sh ATTUD [PORT] [DATA-DIR|-] [ROWS]
#
# The cost of small appends to a big table (engine/storage.c: an append
# commit writes a tail of the new rows): starts ATTUD on PORT (default
# 5652, --device cpu), with DATA-DIR (wiped first) or without a data
# directory ("-", the default), makes big(id, v, s) of ROWS rows (default
# 5000000) by CREATE TABLE AS, then times 8 one-row INSERTs and 4 COPYs of
# 1000 rows with psql's \timing. Prints one line: the CREATE's time, the
# INSERTs', the COPYs' (ms). Needs psql.
set -u
bin=${1:?usage: append_commit.sh ATTUD [PORT] [DATA-DIR|-] [ROWS]}
port=${2:-5652}
dd=${3:--}
rows=${4:-5000000}
if ss -ltn 2>/dev/null | grep -q ":$port "; then echo "port $port is in use" >&2; exit 1; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(--port "$port" --device cpu --log-level error --ready-file "$tmp/ready")
if [ "$dd" != - ]; then rm -rf "$dd"; args+=(--data-dir "$dd"); fi
"$bin" "${args[@]}" & pid=$!
for _ in $(seq 200); do [ -s "$tmp/ready" ] && break; sleep 0.1; done
seq 1 1000 | awk '{print $1 "\t" $1 * 2 "\tc" $1}' > "$tmp/rows1000.tsv"
{
    echo '\timing on'
    echo "CREATE TABLE big AS SELECT g AS id, g * 2 AS v, 'name' || g AS s FROM generate_series(1, $rows) g;"
    for i in 1 2 3 4 5 6 7 8; do echo "INSERT INTO big VALUES ($i, $i, 'x$i');"; done
    for _ in 1 2 3 4; do echo "\\copy big FROM '$tmp/rows1000.tsv'"; done
} | psql -X -h 127.0.0.1 -p "$port" -U postgres -d postgres -q 2>&1 |
    awk '/^Time/ {t[++n] = $2} /ERROR/ {print; bad = 1}
         END {if (!bad) {printf "create %s  insert", t[1]; for (i = 2; i <= 9; i++) printf " %s", t[i];
                         printf "  copy"; for (i = 10; i <= 13; i++) printf " %s", t[i]; print ""}}'
kill "$pid"
wait "$pid" 2>/dev/null
exit 0
