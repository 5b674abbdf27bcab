#!/usr/bin/env bash
# tests/clients/shell_session.sh ATTU SERVER_KIND [ATTUD]
#
# Drives the attu shell in a pseudo-terminal (tmux) through a whole session
# against a private server: connect, \copy with its progress bar, a
# multi-line query, an error with its caret, \timing, \d and \d TABLE,
# Ctrl-C at the prompt, \explain, quit; then checks the exit status and the
# history file.
set -euo pipefail
ATTU=$1 KIND=$2 ATTUD=${3:-}
source "$(dirname "$0")/server_env.sh"
command -v tmux >/dev/null || skip "tmux not installed"
start_server "$KIND" "$ATTUD"

# Data: 5000 rows; the sums below are what the query must print.
csv=$SERVER_TMP/items.csv
{ echo "id,name,qty"; for i in $(seq 1 5000); do echo "$i,item$i,$((i % 7))"; done; } >"$csv"
want_sum=0; for i in $(seq 1 5000); do want_sum=$((want_sum + i % 7)); done

sock=$SERVER_TMP/tmux.sock
T() { tmux -S "$sock" "$@"; }
T new-session -d -s attu -x 150 -y 200 \
  "env ATTU_HISTORY=$SERVER_TMP/history NO_COLOR=1 $ATTU; echo EXIT=\$?; sleep 120"
trap 'T kill-server 2>/dev/null || true; stop_server' EXIT

screen() { T capture-pane -p -t attu -S -1000; }
# Waits until the screen matches an extended regex (30 s: an ASan build on
# a loaded machine can be slow), else fails.
expect() {
  for _ in $(seq 1 600); do
    screen | grep -Eq -- "$1" && return 0
    sleep 0.05
  done
  echo "--- screen ---"; screen; echo "--- expected: $1"; exit 1
}
# Waits until the last non-empty line of the screen matches (the shell has
# drawn its next prompt), else fails.
expect_last() {
  for _ in $(seq 1 600); do
    screen | grep -v '^ *$' | tail -n 1 | grep -Eq -- "$1" && return 0
    sleep 0.05
  done
  echo "--- screen ---"; screen; echo "--- expected as the last line: $1"; exit 1
}
# Types a line. tmux reads a trailing ';' as its own command separator, so
# that character is sent by its hex code.
type_line() {
  local l=$1
  if [[ $l == *";" ]]; then
    T send-keys -t attu -l "${l%;}"; T send-keys -t attu -H 3b
  else
    T send-keys -t attu -l "$l"
  fi
  T send-keys -t attu Enter
}

expect '=> ?$'
type_line "CREATE TABLE items (id INTEGER, name TEXT, qty INTEGER);"
expect 'CREATE TABLE'
type_line "\\copy items FROM '$csv' WITH (FORMAT csv, HEADER true)"
expect '\[#+\] 100%  .* 5000 rows  .* rows/s  in [0-9.]+s'
expect '^COPY 5000$'
type_line '\timing'
expect 'Timing is on\.'
type_line 'SELECT count(*) AS n,'
expect '-> ?$'
type_line '       sum(qty) AS total FROM items;'
expect "^ +5000 \| +$want_sum\$"
expect '^\(1 row\)$'
expect '^Time: [0-9]+\.[0-9]{3} ms$'
type_line 'SELECT nmae FROM items;'
expect 'ERROR: .*\(SQLSTATE 42703\)'
expect '^LINE 1: SELECT nmae FROM items$'
# The caret sits under the 'n' of nmae: 8 columns of "LINE 1: " + 7.
expect '^               \^$'
type_line '\d'
expect '^ +items +$|^ items$'
type_line '\d items'
expect 'Table "items"'
expect '^ +qty +\| +'
# Ctrl-C at the prompt drops the half-typed statement and keeps the shell.
type_line 'SELECT 1,'
expect '-> ?$'
T send-keys -t attu -l 'oops'
expect_last 'oops$'
T send-keys -t attu C-c
# keys typed before the shell has handled the Ctrl-C would join the dropped
# line: wait for the fresh prompt (=>, not the continuation ->)
expect_last '=> ?$'
type_line 'SELECT 4242 AS answer;'
expect '^ +4242$'
type_line '\explain SELECT count(*) FROM items WHERE qty > 3'
# The plan's root line carries its time; the \timing line starts with "Time:".
expect '^[^T].*[0-9] ms'
type_line '\q'
expect '^EXIT=0$'

# libedit stores blanks as \040: look for the multi-line statement as one entry.
grep -q 'SELECT\\040count(\*)\\040AS\\040n,.*sum(qty)' "$SERVER_TMP/history" || { echo "history not written"; cat "$SERVER_TMP/history"; exit 1; }
echo "shell session against $KIND: ok"
