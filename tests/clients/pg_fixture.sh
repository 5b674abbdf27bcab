#!/usr/bin/env bash
# tests/clients/pg_fixture.sh start|stop ENV_FILE - the ctest fixture that
# shares one private PostgreSQL 15 server among the client tests (see
# server_env.sh). start writes PG_BIN, PGHOST, PGPORT and PGUSER to ENV_FILE
# and leaves the server running; without PostgreSQL binaries it writes
# nothing and succeeds, so each test skips on its own. stop shuts it down and
# removes its files.
set -euo pipefail
cmd=$1 env_file=$2
case "$cmd" in
  start)
    rm -f "$env_file"
    PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
    [ -x "${PG_BIN:-}/initdb" ] || { echo "no PostgreSQL server binaries: tests start none"; exit 0; }
    dir=$(mktemp -d /tmp/attu-client-pg.XXXXXX)
    chmod 755 "$dir"
    as=
    if [ "$(id -u)" -eq 0 ]; then as="runuser -u nobody --"; chown nobody "$dir"; fi
    $as "$PG_BIN/initdb" -D "$dir/pg" -A trust -U postgres >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log"; exit 1; }
    port=$(( 20000 + RANDOM % 30000 ))
    $as "$PG_BIN/pg_ctl" -D "$dir/pg" -w -l "$dir/pg.log" \
      -o "-p $port -k $dir -c listen_addresses='' -c fsync=off" start >/dev/null \
      || { cat "$dir/pg.log"; exit 1; }
    printf 'PG_BIN=%q\nPGHOST=%q\nPGPORT=%q\nPGUSER=postgres\nPG_FIXTURE_DIR=%q\nPG_FIXTURE_AS=%q\n' \
      "$PG_BIN" "$dir" "$port" "$dir" "$as" >"$env_file"
    echo "PostgreSQL for the client tests: $dir port $port"
    ;;
  stop)
    [ -s "$env_file" ] || exit 0
    source "$env_file"
    $PG_FIXTURE_AS "$PG_BIN/pg_ctl" -D "$PG_FIXTURE_DIR/pg" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$PG_FIXTURE_DIR" "$env_file"
    ;;
  *) echo "usage: pg_fixture.sh start|stop ENV_FILE"; exit 2 ;;
esac
