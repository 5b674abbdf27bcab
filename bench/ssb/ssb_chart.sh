#!/usr/bin/env bash
# bench/ssb/ssb_chart.sh RESULTS.csv OUT.png [SF] - draws the SSB results that
# `ssb_run --csv RESULTS.csv` appended (rows engine,sf,query,cold_ms,warm_ms,ok)
# as grouped bars: warm time per query and engine (blanks in an engine name
# print as underscores), log scale, for one scale
# factor (default: the largest in the file). Failed queries are left out.
# Needs gnuplot (Debian: gnuplot-nox).
set -euo pipefail
in=$1 out=$2 sf=${3:-}
command -v gnuplot >/dev/null || { echo "ssb_chart: gnuplot is not installed" >&2; exit 1; }
[ -n "$sf" ] || sf=$(awk -F, 'NR > 1 && $2 + 0 > max { max = $2 + 0 } END { print max }' "$in")
engines=$(awk -F, -v sf="$sf" 'NR > 1 && $2 == sf { print $1 }' "$in" | awk '!seen[$0]++')
[ -n "$engines" ] || { echo "ssb_chart: no rows for SF $sf in $in" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One data column per engine, one row per query; '-' where it failed.
awk -F, -v sf="$sf" -v engines="$engines" '
  BEGIN { n = split(engines, e, "\n") }
  NR > 1 && $2 == sf { if (!($3 in seenq)) { seenq[$3] = 1; qs[++nq] = $3 }
                       t[$1, $3] = ($6 == 1) ? $5 : "-" }
  END { printf "query"; for (i = 1; i <= n; i++) { h = e[i]; gsub(/ /, "_", h); printf " %s", h }; print ""
        for (j = 1; j <= nq; j++) { printf "%s", qs[j]
          for (i = 1; i <= n; i++) printf " %s", ((e[i], qs[j]) in t) ? t[e[i], qs[j]] : "-"
          print "" } }' "$in" >"$tmp/data"
ncol=$(head -n1 "$tmp/data" | wc -w)
gnuplot <<GP
set terminal pngcairo size 1100,500 font "sans,10" noenhanced
set output "$out"
set title "Star Schema Benchmark, SF $sf: warm time per query (lower is better)"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set logscale y
set ylabel "milliseconds (log scale)"
set key top left
set grid ytics
set datafile missing "-"
plot for [c=2:$ncol] "$tmp/data" using c:xtic(1) title columnheader(c)
GP
echo "ssb_chart: wrote $out"
