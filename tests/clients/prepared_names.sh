#!/usr/bin/env bash
# tests/clients/prepared_names.sh SERVER_KIND [ATTUD]
#
# prepared_names.py against a private server: SQL PREPARE / EXECUTE /
# DEALLOCATE mixed with the extended protocol's named statements, through
# a raw protocol client and psycopg2. The same script runs against
# PostgreSQL 15 (kind pg) and attud, so both must give the same answers.
set -euo pipefail
KIND=$1 ATTUD=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/server_env.sh"
start_server "$KIND" "$ATTUD"
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" "$here/prepared_names.py"
