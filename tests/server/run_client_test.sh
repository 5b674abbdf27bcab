#!/usr/bin/env bash
# run_client_test.sh CLIENT DAEMON_BIN KIND BUILD_DIR
#   Starts DAEMON_BIN on a free port (KIND "real" gets a temporary data
#   directory), runs tests/server/clients/<CLIENT> against it, stops it with
#   SIGTERM and requires exit status 0. Exits 77 (ctest: skipped) when the
#   client program is missing.
set -euo pipefail
client=$1 bin=$2 kind=$3 build=$4
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/attu_client_XXXXXX)
pid=
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

case "$client" in
  psql|psql_catalog) command -v psql >/dev/null || { echo "SKIP: psql not installed"; exit 77; } ;;
  python) /usr/bin/python3 -c 'import psycopg2' 2>/dev/null \
            || { echo "SKIP: /usr/bin/python3 has no psycopg2 (apt install python3-psycopg2)"; exit 77; } ;;
  sqlalchemy) /usr/bin/python3 -c 'import psycopg2, sqlalchemy' 2>/dev/null \
            || { echo "SKIP: /usr/bin/python3 has no sqlalchemy (apt install python3-sqlalchemy)"; exit 77; } ;;
  node)
    command -v node >/dev/null || { echo "SKIP: node not installed"; exit 77; }
    # node-postgres goes into a git-ignored folder of the build tree
    if [ ! -d "$build/node_modules/pg" ]; then
      if ! (cd "$build" && timeout 120 npm install --no-audit --no-fund --silent --prefix "$build" pg@8 >/dev/null 2>&1); then
        echo "SKIP: npm could not fetch the pg package (offline?)"; exit 77
      fi
    fi
    export NODE_PATH="$build/node_modules"
    ;;
  jdbc)
    # Java 11+ runs one source file directly; the driver is Debian's
    # libpostgresql-jdbc-java (ATTU_JDBC_JAR overrides the path).
    command -v java >/dev/null || { echo "SKIP: java not installed (apt install default-jdk-headless)"; exit 77; }
    # a bare JRE cannot run a source file: that needs the JDK's compiler
    # (grep without -q: an early exit would SIGPIPE java under pipefail)
    java --list-modules 2>/dev/null | grep '^jdk.compiler' >/dev/null \
      || { echo "SKIP: java is a JRE without jdk.compiler (apt install default-jdk-headless)"; exit 77; }
    jar=${ATTU_JDBC_JAR:-/usr/share/java/postgresql.jar}
    [ -r "$jar" ] || { echo "SKIP: $jar missing (apt install libpostgresql-jdbc-java)"; exit 77; }
    ;;
  *) echo "unknown client $client"; exit 2 ;;
esac

args=(--port 0 --ready-file "$tmp/ready" --log-level info)
[ "$kind" = real ] && args+=(--data-dir "$tmp/data" --device cpu --load-dir "$tmp")
"$bin" "${args[@]}" >"$tmp/attud.log" 2>&1 &
pid=$!
# up to 60 s: an ASan build on a loaded machine can be slow to start
for _ in $(seq 1 3000); do
  [ -s "$tmp/ready" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.02
done
if [ ! -s "$tmp/ready" ]; then echo "attud did not start:"; cat "$tmp/attud.log"; exit 1; fi
port=$(cat "$tmp/ready")
export ATTU_PORT=$port ATTU_TMP=$tmp ATTU_KIND=$kind

status=0
case "$client" in
  psql)   bash "$here/clients/psql_test.sh" || status=$? ;;
  psql_catalog) bash "$here/clients/psql_catalog_test.sh" || status=$? ;;
  python) /usr/bin/python3 "$here/clients/psycopg2_test.py" || status=$? ;;
  sqlalchemy) /usr/bin/python3 "$here/clients/sqlalchemy_test.py" || status=$? ;;
  node)   node "$here/clients/node_pg_test.js" || status=$? ;;
  # the -XX flags keep the JVM's start-up small on a 2-core CI machine;
  # ATTU_JDBC_TZ runs the JVM in another time zone (dates must not shift)
  jdbc)   java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Duser.timezone=${ATTU_JDBC_TZ:-UTC} \
               -cp "$jar" "$here/clients/JdbcTest.java" || status=$? ;;
esac

kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
pid=
if [ "$rc" -ne 0 ]; then echo "attud exited with $rc after SIGTERM"; status=1; fi
if [ "$status" -ne 0 ]; then echo "---- attud log ----"; tail -50 "$tmp/attud.log"; fi
exit "$status"
