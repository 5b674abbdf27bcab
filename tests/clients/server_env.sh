# tests/clients/server_env.sh - sourced by the client tests: starts a private
# server for one test and sets PGHOST, PGPORT, PGUSER (so attu, psql and the
# SSB runner find it) and SERVER_KIND; stops it and removes its files on exit.
#
#   start_server attud PATH_TO_ATTUD   attud on a free loopback port, CPU device
#                                      (ATTU_TEST_DEVICE=gpu: the GPU)
#   start_server pg                    PostgreSQL 15 (initdb in a temp dir,
#                                      Unix socket only, run as `nobody` when
#                                      we are root, since postgres refuses root)
# A missing server exits the test with 77, which ctest shows as skipped.
#
# Under ctest the PostgreSQL server is shared: the fixture test
# clients_pg_start starts one (pg_fixture.sh) and writes its address to
# $ATTU_TEST_PG_ENV; each test then gets a database of its own on it, dropped
# at exit, which saves an initdb per test. Run by hand, a test starts its own.

SERVER_TMP=$(mktemp -d /tmp/attu-client-test.XXXXXX)
chmod 755 "$SERVER_TMP"
SERVER_PID=
SERVER_KIND=
SHARED_DB=

stop_server() {
  if [ -n "$SHARED_DB" ]; then
    "$PG_BIN/psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $SHARED_DB" >/dev/null 2>&1 || true
  elif [ "$SERVER_KIND" = pg ]; then
    $SERVER_AS "$PG_BIN/pg_ctl" -D "$SERVER_TMP/pg" -m immediate stop >/dev/null 2>&1 || true
  elif [ -n "$SERVER_PID" ]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$SERVER_TMP"
}
trap stop_server EXIT

skip() { echo "SKIP: $*"; exit 77; }

start_server() {
  SERVER_KIND=$1
  case "$1" in
    attud)
      local attud=$2
      [ -x "$attud" ] || skip "attud not built"
      mkdir -p "$SERVER_TMP/data"
      "$attud" --port 0 --ready-file "$SERVER_TMP/ready" --data-dir "$SERVER_TMP/data" \
        --load-dir "$SERVER_TMP" --device "${ATTU_TEST_DEVICE:-cpu}" --log-level warning \
        >"$SERVER_TMP/attud.log" 2>&1 &
      SERVER_PID=$!
      for _ in $(seq 1 1200); do   # up to 60 s: ASan builds on a loaded machine
        [ -s "$SERVER_TMP/ready" ] && break
        kill -0 "$SERVER_PID" 2>/dev/null || { cat "$SERVER_TMP/attud.log"; echo "attud exited"; exit 1; }
        sleep 0.05
      done
      [ -s "$SERVER_TMP/ready" ] || { cat "$SERVER_TMP/attud.log"; echo "attud did not become ready"; exit 1; }
      export PGHOST=127.0.0.1 PGPORT=$(head -n1 "$SERVER_TMP/ready" | tr -dc 0-9) PGUSER=attu
      ;;
    pg)
      if [ -n "${ATTU_TEST_PG_ENV:-}" ] && [ -s "$ATTU_TEST_PG_ENV" ]; then
        source "$ATTU_TEST_PG_ENV"   # PG_BIN, PGHOST, PGPORT, PGUSER
        export PGHOST PGPORT PGUSER
        unset PGPASSWORD
        SHARED_DB=attu_test_$$_$RANDOM
        PGDATABASE=postgres "$PG_BIN/psql" -X -q -c "CREATE DATABASE $SHARED_DB" >/dev/null \
          || { echo "cannot create a database on the shared server"; SHARED_DB=; exit 1; }
        export PGDATABASE=$SHARED_DB
        return 0
      fi
      PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)}
      [ -x "$PG_BIN/initdb" ] || skip "no PostgreSQL server binaries"
      SERVER_AS=
      if [ "$(id -u)" -eq 0 ]; then
        command -v runuser >/dev/null || skip "root without runuser"
        SERVER_AS="runuser -u nobody --"
        chown nobody "$SERVER_TMP"
      fi
      $SERVER_AS "$PG_BIN/initdb" -D "$SERVER_TMP/pg" -A trust -U postgres \
        >"$SERVER_TMP/initdb.log" 2>&1 || { cat "$SERVER_TMP/initdb.log"; exit 1; }
      local port=$(( 20000 + RANDOM % 30000 ))
      $SERVER_AS "$PG_BIN/pg_ctl" -D "$SERVER_TMP/pg" -w -l "$SERVER_TMP/pg.log" \
        -o "-p $port -k $SERVER_TMP -c listen_addresses=''" start >/dev/null \
        || { cat "$SERVER_TMP/pg.log"; exit 1; }
      export PGHOST=$SERVER_TMP PGPORT=$port PGUSER=postgres
      ;;
    *) echo "start_server: unknown kind $1"; exit 1 ;;
  esac
  unset PGDATABASE PGPASSWORD
}
