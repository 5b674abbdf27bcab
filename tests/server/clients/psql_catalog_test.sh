#!/usr/bin/env bash
# psql's describe commands against attud: \dt, \d, \d TABLE, \d+ TABLE,
# \dn, \l, \du, \df and a name that matches nothing, each compared with
# the table psql prints (psql 15 reads pg_catalog: planner/system_catalog.c),
# and information_schema as tools read it. Real daemon only.
set -euo pipefail
P=(psql -X -h 127.0.0.1 -p "$ATTU_PORT" -U attu -d attu -v ON_ERROR_STOP=1)
fail() { echo "FAIL: $*"; exit 1; }

# check CMD...: psql's output for the commands equals standard input
check() {
  local want got args=()
  want=$(cat)
  for c in "$@"; do args+=(-c "$c"); done
  got=$("${P[@]}" "${args[@]}" 2>&1) || fail "$* failed: $got"
  [ "$got" = "$want" ] || { echo "--- want"; echo "$want"; echo "--- got"; echo "$got"; fail "$*"; }
}

"${P[@]}" -q -c "CREATE TABLE items (id INTEGER NOT NULL DEFAULT 7, name TEXT DEFAULT 'x', price NUMERIC(10,2), code VARCHAR(12), created TIMESTAMP, tags INTEGER[])" \
  -c 'CREATE TABLE "Mixed Case" ("Id" BIGINT)' -c "INSERT INTO items (id) VALUES (1), (2)"

check '\dt' <<'OUT'
          List of relations
 Schema |    Name    | Type  | Owner 
--------+------------+-------+-------
 public | Mixed Case | table | attu
 public | items      | table | attu
(2 rows)
OUT

check '\d' <<'OUT'
          List of relations
 Schema |    Name    | Type  | Owner 
--------+------------+-------+-------
 public | Mixed Case | table | attu
 public | items      | table | attu
(2 rows)
OUT

check '\d items' <<'OUT'
                           Table "public.items"
 Column  |            Type             | Collation | Nullable |  Default  
---------+-----------------------------+-----------+----------+-----------
 id      | integer                     |           | not null | 7
 name    | text                        |           |          | 'x'::text
 price   | numeric(10,2)               |           |          | 
 code    | character varying(12)       |           |          | 
 created | timestamp without time zone |           |          | 
 tags    | integer[]                   |           |          | 
OUT

check '\d "Mixed Case"' <<'OUT'
            Table "public.Mixed Case"
 Column |  Type  | Collation | Nullable | Default 
--------+--------+-----------+----------+---------
 Id     | bigint |           |          | 
OUT

check '\dn' <<'OUT'
      List of schemas
  Name  |       Owner       
--------+-------------------
 public | pg_database_owner
(1 row)
OUT

check '\dt it*' <<'OUT'
       List of relations
 Schema | Name  | Type  | Owner 
--------+-------+-------+-------
 public | items | table | attu
(1 row)
OUT

# \d+: storage, compression, statistics target, description; the access method
out=$("${P[@]}" -c '\d+ items')
echo "$out" | grep -q '^ price   | numeric(10,2)               |           |          |           | main     |' \
  || fail "\\d+ items: $out"
echo "$out" | grep -q '^Access method: heap$' || fail "\\d+ items has no access method: $out"

out=$("${P[@]}" -c '\l')
echo "$out" | grep -q '^ attu | attu  | UTF8     | C       | C     |            | libc            | $' || fail "\\l: $out"

out=$("${P[@]}" -c '\du')
echo "$out" | grep -q '^ attu      | Superuser' || fail "\\du: $out"

out=$("${P[@]}" -c '\df')
echo "$out" | grep -q '^(0 rows)$' || fail "\\df: $out"

# a name that matches nothing: psql says so and exits 1, as against PostgreSQL
out=$("${P[@]}" -c '\d nosuch' 2>&1 || true)
[ "$out" = 'Did not find any relation named "nosuch".' ] || fail "\\d nosuch: '$out'"

# information_schema, as tools ask it
out=$("${P[@]}" -At -c "SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'items' ORDER BY ordinal_position")
want="items|id|integer|NO|7
items|name|text|YES|'x'::text
items|price|numeric|YES|
items|code|character varying|YES|
items|created|timestamp without time zone|YES|
items|tags|ARRAY|YES|"
[ "$out" = "$want" ] || fail "information_schema.columns: '$out'"
out=$("${P[@]}" -At -c "SELECT table_schema || '.' || table_name || ' ' || table_type FROM information_schema.tables ORDER BY table_name")
[ "$out" = $'public.Mixed Case BASE TABLE\npublic.items BASE TABLE' ] || fail "information_schema.tables: '$out'"
out=$("${P[@]}" -At -c "SELECT schema_name FROM information_schema.schemata ORDER BY 1")
[ "$out" = $'information_schema\npg_catalog\npg_toast\npublic' ] || fail "information_schema.schemata: '$out'"

# the extended protocol (a prepared catalog query with a parameter)
out=$("${P[@]}" -At -c "PREPARE cols (TEXT) AS SELECT a.attname FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid WHERE c.relname = \$1 ORDER BY a.attnum" -c "EXECUTE cols ('Mixed Case')")
[ "$out" = $'PREPARE\nId' ] || fail "prepared catalog query: '$out'"

# a table dropped is gone from the catalogs
"${P[@]}" -q -c 'DROP TABLE "Mixed Case"'
out=$("${P[@]}" -c '\d "Mixed Case"' 2>&1 || true)
[ "$out" = 'Did not find any relation named ""Mixed Case"".' ] || fail "dropped table still described: '$out'"
echo "psql catalog: ok"
