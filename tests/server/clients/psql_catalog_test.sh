#!/usr/bin/env bash
# psql's describe commands against attud: \dt, \d, \d TABLE, \d+ TABLE,
# \dn, \l, \du, \df, a name that matches nothing, and views, sequences and
# keys (\dv, \ds, \di, \d VIEW, \d SEQUENCE, \d INDEX, \d TABLE's "Indexes:"), each compared with
# the table psql prints (psql 15 reads pg_catalog: planner/system_catalog.c),
# and information_schema as tools read it; \dconfig over pg_settings. Real
# daemon only.
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
grep -q '^ price   | numeric(10,2)               |           |          |           | main     |' <<<"$out" \
  || fail "\\d+ items: $out"
grep -q '^Access method: heap$' <<<"$out" || fail "\\d+ items has no access method: $out"

out=$("${P[@]}" -c '\l')
grep -q '^ attu | attu  | UTF8     | C       | C     |            | libc            | $' <<<"$out" || fail "\\l: $out"

out=$("${P[@]}" -c '\du')
grep -q '^ attu      | Superuser' <<<"$out" || fail "\\du: $out"

out=$("${P[@]}" -c '\df')
grep -q '^(0 rows)$' <<<"$out" || fail "\\df: $out"

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

# views, sequences, keys (PRIMARY KEY, UNIQUE), serial and identity columns:
# pg_class lists them (relkinds v, S, i), \d TABLE shows "Indexes:" and the
# serial DEFAULT / identity as PostgreSQL 15 does (the same text psql prints there)
"${P[@]}" -q -c "CREATE TABLE orders (id serial PRIMARY KEY, code text UNIQUE, qty int GENERATED ALWAYS AS IDENTITY, note varchar(20))" \
  -c "CREATE VIEW big_orders AS SELECT id, code FROM orders WHERE id > 10" -c "CREATE SEQUENCE ticket START 100"

check '\d' <<'OUT'
             List of relations
 Schema |      Name      |   Type   | Owner 
--------+----------------+----------+-------
 public | big_orders     | view     | attu
 public | items          | table    | attu
 public | orders         | table    | attu
 public | orders_id_seq  | sequence | attu
 public | orders_qty_seq | sequence | attu
 public | ticket         | sequence | attu
(6 rows)
OUT

check '\d orders' <<'OUT'
                                   Table "public.orders"
 Column |         Type          | Collation | Nullable |              Default               
--------+-----------------------+-----------+----------+------------------------------------
 id     | integer               |           | not null | nextval('orders_id_seq'::regclass)
 code   | text                  |           |          | 
 qty    | integer               |           | not null | generated always as identity
 note   | character varying(20) |           |          | 
Indexes:
    "orders_pkey" PRIMARY KEY, btree (id)
    "orders_code_key" UNIQUE CONSTRAINT, btree (code)
OUT

check '\dv' <<'OUT'
         List of relations
 Schema |    Name    | Type | Owner 
--------+------------+------+-------
 public | big_orders | view | attu
(1 row)
OUT

check '\ds' <<'OUT'
             List of relations
 Schema |      Name      |   Type   | Owner 
--------+----------------+----------+-------
 public | orders_id_seq  | sequence | attu
 public | orders_qty_seq | sequence | attu
 public | ticket         | sequence | attu
(3 rows)
OUT

check '\di' <<'OUT'
                 List of relations
 Schema |      Name       | Type  | Owner | Table  
--------+-----------------+-------+-------+--------
 public | orders_code_key | index | attu  | orders
 public | orders_pkey     | index | attu  | orders
(2 rows)
OUT

check '\d big_orders' <<'OUT'
             View "public.big_orders"
 Column |  Type   | Collation | Nullable | Default 
--------+---------+-----------+----------+---------
 id     | integer |           |          | 
 code   | text    |           |          | 
OUT

check '\d ticket' <<'OUT'
                           Sequence "public.ticket"
  Type  | Start | Minimum |       Maximum       | Increment | Cycles? | Cache 
--------+-------+---------+---------------------+-----------+---------+-------
 bigint |   100 |       1 | 9223372036854775807 |         1 | no      |     1
OUT

check '\d orders_id_seq' <<'OUT'
                   Sequence "public.orders_id_seq"
  Type   | Start | Minimum |  Maximum   | Increment | Cycles? | Cache 
---------+-------+---------+------------+-----------+---------+-------
 integer |     1 |       1 | 2147483647 |         1 | no      |     1
Owned by: public.orders.id
OUT

check '\d orders_qty_seq' <<'OUT'
                   Sequence "public.orders_qty_seq"
  Type   | Start | Minimum |  Maximum   | Increment | Cycles? | Cache 
---------+-------+---------+------------+-----------+---------+-------
 integer |     1 |       1 | 2147483647 |         1 | no      |     1
Sequence for identity column: public.orders.qty
OUT

check '\d orders_pkey' <<'OUT'
      Index "public.orders_pkey"
 Column |  Type   | Key? | Definition 
--------+---------+------+------------
 id     | integer | yes  | id
primary key, btree, for table "public.orders"
OUT

# \d+ VIEW: the definition is the view's query as written (PostgreSQL's is
# deparsed: " SELECT orders.id, ..."), so only its presence is checked
out=$("${P[@]}" -c '\d+ big_orders')
grep -q '^View definition:$' <<<"$out" || fail "\\d+ big_orders has no definition: $out"
grep -q '^ SELECT id, code FROM orders WHERE id > 10;$' <<<"$out" || fail "\\d+ big_orders: $out"

# information_schema: views, sequences, keys, identity columns
out=$("${P[@]}" -At -c "SELECT table_name || ' ' || table_type FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")
[ "$out" = $'big_orders VIEW\nitems BASE TABLE\norders BASE TABLE' ] || fail "information_schema.tables with a view: '$out'"
out=$("${P[@]}" -At -c "SELECT table_name, is_updatable FROM information_schema.views")
[ "$out" = 'big_orders|YES' ] || fail "information_schema.views: '$out'"
out=$("${P[@]}" -At -c "SELECT sequence_name, data_type, start_value FROM information_schema.sequences ORDER BY 1")
[ "$out" = $'orders_id_seq|integer|1\nticket|bigint|100' ] || fail "information_schema.sequences: '$out'"
out=$("${P[@]}" -At -c "SELECT tc.constraint_name, tc.constraint_type, k.column_name FROM information_schema.table_constraints tc JOIN information_schema.key_column_usage k ON k.constraint_name = tc.constraint_name WHERE tc.table_name = 'orders' ORDER BY 1")
[ "$out" = $'orders_code_key|UNIQUE|code\norders_pkey|PRIMARY KEY|id' ] || fail "table_constraints / key_column_usage: '$out'"
out=$("${P[@]}" -At -c "SELECT column_name, coalesce(column_default, '-'), is_identity, coalesce(identity_generation, '-') FROM information_schema.columns WHERE table_name = 'orders' ORDER BY ordinal_position")
[ "$out" = $'id|nextval(\'orders_id_seq\'::regclass)|NO|-\ncode|-|NO|-\nqty|-|YES|ALWAYS\nnote|-|NO|-' ] || fail "information_schema.columns identity: '$out'"

# dropped, they are gone: the view, then the table with its keys and sequences
"${P[@]}" -q -c 'DROP VIEW big_orders' -c 'DROP TABLE orders' -c 'DROP SEQUENCE ticket'
check '\d' <<'OUT'
       List of relations
 Schema | Name  | Type  | Owner 
--------+-------+-------+-------
 public | items | table | attu
(1 row)
OUT
# \dconfig: psql 15 reads pg_settings and current_setting(s.name); without
# a pattern the settings changed from their defaults (psql's own
# application_name comes from its startup packet, source client)
check '\dconfig' <<'OUT'
List of non-default configuration parameters
    Parameter     | Value 
------------------+-------
 application_name | psql
(1 row)
OUT
check "SET statement_timeout = '90s'" '\dconfig *timeout' <<'OUT'
SET
      List of configuration parameters
              Parameter              | Value 
-------------------------------------+-------
 idle_in_transaction_session_timeout | 0
 idle_session_timeout                | 0
 lock_timeout                        | 0
 statement_timeout                   | 90s
(4 rows)
OUT
check '\dconfig+ date*' <<'OUT'
              List of configuration parameters
 Parameter |  Value   |  Type  | Context | Access privileges 
-----------+----------+--------+---------+-------------------
 DateStyle | ISO, MDY | string | user    | 
(1 row)
OUT
check "UPDATE pg_settings SET setting = '5s' WHERE name = 'lock_timeout'" 'SHOW lock_timeout' <<'OUT'
 set_config 
------------
 5s
(1 row)

UPDATE 0
 lock_timeout 
--------------
 5s
(1 row)
OUT
# the startup packet's settings (libpq sends PGTZ, PGDATESTYLE as
# TimeZone, DateStyle): the session's own defaults, source client, what
# RESET goes back to, reported in ParameterStatus
out=$(PGTZ=Asia/Tokyo PGDATESTYLE=iso "${P[@]}" -At -c "SELECT name, setting, source FROM pg_settings WHERE source = 'client' ORDER BY name" \
      -c "SET TimeZone = 'UTC'" -c 'RESET TimeZone' -c 'SHOW TimeZone')
[ "$out" = $'DateStyle|ISO, MDY|client\nTimeZone|Asia/Tokyo|client\napplication_name|psql|client\nSET\nRESET\nAsia/Tokyo' ] \
  || fail "startup settings: '$out'"
# client_min_messages: warning leaves NOTICEs out, error WARNINGs too
out=$("${P[@]}" -c 'DROP TABLE IF EXISTS nope' -c "SET client_min_messages = warning" -c 'DROP TABLE IF EXISTS nope' \
      -c 'COMMIT' -c "SET client_min_messages = error" -c 'COMMIT' 2>&1 >/dev/null)
[ "$out" = $'NOTICE:  table "nope" does not exist, skipping\nWARNING:  there is no transaction in progress' ] \
  || fail "client_min_messages: '$out'"
# \dd (comments on constraints; its query joins pg_description on each
# catalog table's tableoid), \dL (PostgreSQL lists plpgsql; attu has no
# procedural language) and \dO (getdatabaseencoding, pg_char_to_encoding)
"${P[@]}" -q -c "CREATE TABLE kk (id int CONSTRAINT kk_pk PRIMARY KEY)" -c "COMMENT ON CONSTRAINT kk_pk ON kk IS 'the key'"
check '\dd' <<'OUT'
               Object descriptions
 Schema | Name  |      Object      | Description 
--------+-------+------------------+-------------
 public | kk_pk | table constraint | the key
(1 row)
OUT
check '\dL' <<'OUT'
          List of languages
 Name | Owner | Trusted | Description 
------+-------+---------+-------------
(0 rows)
OUT
# \dLS+ (oid::regprocedure of the validators, the built-in languages'
# descriptions): PostgreSQL's rows for c, internal and sql (owned by the
# bootstrap superuser, here attu)
check '\dLS+' <<'OUT'
                                                                         List of languages
   Name   | Owner | Trusted | Internal language | Call handler |          Validator           | Inline handler | Access privileges |          Description           
----------+-------+---------+-------------------+--------------+------------------------------+----------------+-------------------+--------------------------------
 c        | attu  | f       | t                 | -            | fmgr_c_validator(oid)        | -              |                   | dynamically-loaded C functions
 internal | attu  | f       | t                 | -            | fmgr_internal_validator(oid) | -              |                   | built-in functions
 sql      | attu  | t       | t                 | -            | fmgr_sql_validator(oid)      | -              |                   | SQL-language functions
(3 rows)
OUT
check '\dO' <<'OUT'
                            List of collations
 Schema | Name | Collate | Ctype | ICU Locale | Provider | Deterministic? 
--------+------+---------+-------+------------+----------+----------------
(0 rows)
OUT
# \dAo casts pg_amop's operators to regoperator (attu has no operator
# families: no rows, as \dAp)
check '\dAo' <<'OUT'
        List of operators of operator families
 AM | Operator family | Operator | Strategy | Purpose 
----+-----------------+----------+----------+---------
(0 rows)
OUT
# \dAp joins pg_amproc's amproc (an OID: regproc in PostgreSQL) with pg_proc
check '\dAp' <<'OUT'
                     List of support functions of operator families
 AM | Operator family | Registered left type | Registered right type | Number | Function 
----+-----------------+----------------------+-----------------------+--------+----------
(0 rows)
OUT
# \do+ describes each operator's function (obj_description of
# pg_operator's oprcode, a function name in attu): no rows, as PostgreSQL
# outside pg_catalog
check '\do+' <<'OUT'
                                   List of operators
 Schema | Name | Left arg type | Right arg type | Result type | Function | Description 
--------+------+---------------+----------------+-------------+----------+-------------
(0 rows)
OUT
# \dP+ sizes each partitioned table's tree (pg_partition_tree in FROM):
# attu has none
check '\dP+' <<'OUT'
                  List of partitioned relations
 Schema | Name | Owner | Type | Table | Total size | Description 
--------+------+-------+------+-------+------------+-------------
(0 rows)
OUT
# \des+, \det+, \deu+ and \dew+ write each object's options with
# pg_options_to_table in FROM: attu has no foreign servers, tables, user
# mappings or wrappers
check '\des+' <<'OUT'
                                       List of foreign servers
 Name | Owner | Foreign-data wrapper | Access privileges | Type | Version | FDW options | Description 
------+-------+----------------------+-------------------+------+---------+-------------+-------------
(0 rows)
OUT
check '\det+' <<'OUT'
               List of foreign tables
 Schema | Table | Server | FDW options | Description 
--------+-------+--------+-------------+-------------
(0 rows)
OUT
check '\deu+' <<'OUT'
      List of user mappings
 Server | User name | FDW options 
--------+-----------+-------------
(0 rows)
OUT
check '\dew+' <<'OUT'
                           List of foreign-data wrappers
 Name | Owner | Handler | Validator | Access privileges | FDW options | Description 
------+-------+---------+-----------+-------------------+-------------+-------------
(0 rows)
OUT
# \db+ sizes the tablespaces (pg_tablespace_size: every table in
# pg_default, nothing in pg_global)
got=$("${P[@]}" -c '\db+' 2>&1) || fail "\\db+: $got"
echo "$got" | grep -q '^ pg_global  | .* | 0 bytes *| *$' || fail "\\db+ pg_global: $got"
echo "$got" | grep -q '^ pg_default | ' || fail "\\db+ pg_default: $got"
[ "$("${P[@]}" -At -c "SELECT pg_tablespace_size('pg_default') = pg_database_size(current_database()), pg_tablespace_size(1664), pg_tablespace_size(99) IS NULL")" = "t|0|t" ] ||
  fail "pg_tablespace_size"
# \sf and \sf+ ('name'::regproc::oid or 'name(types)'::regprocedure::oid,
# then pg_get_functiondef): PostgreSQL 15's text, line numbers from the
# body on; an ambiguous name is 42725, as there
"${P[@]}" -q -c "CREATE FUNCTION sf_one(integer) RETURNS integer LANGUAGE sql AS 'SELECT \$1 + 1'" \
  -c "CREATE FUNCTION sf_one(text) RETURNS text LANGUAGE sql STABLE STRICT AS \$\$SELECT '\$function\$' || \$1\$\$"
check '\sf sf_one(integer)' <<'OUT'
CREATE OR REPLACE FUNCTION public.sf_one(integer)
 RETURNS integer
 LANGUAGE sql
AS $function$SELECT $1 + 1$function$
OUT
check '\sf+ sf_one(text)' <<'OUT'
        CREATE OR REPLACE FUNCTION public.sf_one(text)
         RETURNS text
         LANGUAGE sql
         STABLE STRICT
1       AS $functionx$SELECT '$function$' || $1$functionx$
OUT
# \dfn and \dft list the functions that do not and do return trigger
# (pg_proc.prorettype against 'pg_catalog.trigger'::pg_catalog.regtype, a
# pseudo-type's OID): attu's SQL functions are normal ones
check '\dfn sf_*' <<'OUT'
                        List of functions
 Schema |  Name  | Result data type | Argument data types | Type 
--------+--------+------------------+---------------------+------
 public | sf_one | integer          | integer             | func
 public | sf_one | text             | text                | func
(2 rows)
OUT
check '\dft' <<'OUT'
                       List of functions
 Schema | Name | Result data type | Argument data types | Type 
--------+------+------------------+---------------------+------
(0 rows)
OUT
got=$("${P[@]}" -c '\sf sf_one' 2>&1) && fail "\\sf of an overloaded name: $got"
[ "$got" = 'ERROR:  more than one function named "sf_one"' ] || fail "\\sf of an overloaded name: $got"
"${P[@]}" -q -c "DROP TABLE kk" -c "DROP FUNCTION sf_one(integer)" -c "DROP FUNCTION sf_one(text)"
echo "psql catalog: ok"
