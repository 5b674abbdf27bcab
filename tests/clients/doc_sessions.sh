#!/usr/bin/env bash
# tests/clients/doc_sessions.sh ATTU SERVER_KIND [ATTUD] - replays the shell
# transcripts of docs/getting-started.md and docs/shell.md (doc_sessions.py)
# against a private server, with the items.csv they load.
set -euo pipefail
ATTU=$1 KIND=$2 ATTUD=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/server_env.sh"
command -v tmux >/dev/null || skip "tmux not installed"
start_server "$KIND" "$ATTUD"
# items.csv: 5000 rows, qty = id % 7 (the numbers the docs show).
{ echo "id,name,qty"; for i in $(seq 1 5000); do echo "$i,item$i,$((i % 7))"; done; } \
  >"$SERVER_TMP/items.csv"
py=/usr/bin/python3; [ -x "$py" ] || py=python3
docs=$here/../../docs
# getting-started.md starts from an empty server; shell.md's first transcript
# (an error) needs the items table to exist, empty.
"$py" "$here/doc_sessions.py" "$ATTU" "$SERVER_TMP" "$docs/getting-started.md"
"$ATTU" -c "DROP TABLE items" >/dev/null
DOC_SETUP_shell_md="CREATE TABLE items (id INTEGER, name TEXT, qty INTEGER)" \
  "$py" "$here/doc_sessions.py" "$ATTU" "$SERVER_TMP" "$docs/shell.md"
