#!/usr/bin/env bash
# tests/clients/param_types.sh SERVER_KIND [ATTUD]
#
# param_types.py against a private server: Parse without parameter types,
# the types inferred from each parameter's use (ParameterDescription), Bind
# values in text and binary read as those types, bad ones failing the Bind.
# The same script runs against PostgreSQL 15 (kind pg) and attud, so both
# must give its answers.
set -euo pipefail
KIND=$1 ATTUD=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/server_env.sh"
start_server "$KIND" "$ATTUD"
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" "$here/param_types.py"
