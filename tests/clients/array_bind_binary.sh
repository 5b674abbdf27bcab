#!/usr/bin/env bash
# tests/clients/array_bind_binary.sh SERVER_KIND [ATTUD]
#
# array_bind_binary.py against a private server: array parameters in
# binary format (array_recv) and its errors, binary results of the scalar
# types, byte for byte. The same script runs against PostgreSQL 15 (kind pg) and attud, so both
# must give its answers.
set -euo pipefail
KIND=$1 ATTUD=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/server_env.sh"
start_server "$KIND" "$ATTUD"
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" "$here/array_bind_binary.py"
