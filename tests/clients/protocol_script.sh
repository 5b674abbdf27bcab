#!/usr/bin/env bash
# tests/clients/protocol_script.sh SCRIPT.py SERVER_KIND [ATTUD]
#
# Runs one of the raw-protocol client scripts here (prepared_names.py,
# param_types.py, array_binary.py, array_bind_binary.py, alter_prepared.py, json_wire.py, cursors_wire.py,
# uuid_bytea_wire.py, isolation_wire.py, keyed_select_wire.py, copy_binary_wire.py, listen_notify_wire.py, table_locks_wire.py,
# psycopg3_check.py: what
# each checks is in its own header) against a private server. The same script runs
# against PostgreSQL 15 (kind pg) and attud, so both must give its
# answers.
set -euo pipefail
SCRIPT=$1 KIND=$2 ATTUD=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/server_env.sh"
start_server "$KIND" "$ATTUD"
export SERVER_TMP   # (attud's --load-dir: COPY TO a file, copy_binary_wire.py)
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" "$here/$SCRIPT"
