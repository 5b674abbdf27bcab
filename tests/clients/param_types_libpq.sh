#!/usr/bin/env bash
# tests/clients/param_types_libpq.sh PROGRAM SERVER_KIND [ATTUD]
#
# param_types_libpq (a libpq program: PQprepare without types,
# PQdescribePrepared, PQexecPrepared in text and binary) against a private
# server: PostgreSQL 15 (kind pg) or attud, with the same answers.
set -euo pipefail
PROGRAM=$1 KIND=$2 ATTUD=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/server_env.sh"
start_server "$KIND" "$ATTUD"
"$PROGRAM" "host=$PGHOST port=$PGPORT user=$PGUSER dbname=${PGDATABASE:-$PGUSER}"
