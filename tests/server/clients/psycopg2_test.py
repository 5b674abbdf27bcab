"""psycopg2 against attud: queries with parameters, transactions, COPY
both ways, errors with SQLSTATE, server-side cursor-free big fetch."""
import io
import os
import sys

import psycopg2
import psycopg2.errors

port = int(os.environ["ATTU_PORT"])
conn = psycopg2.connect(host="127.0.0.1", port=port, user="attu", dbname="attu")
conn.autocommit = True
cur = conn.cursor()

cur.execute("SELECT %s, %s", ("it's", None))
assert cur.fetchone() == ("it's", None), "parameters"
assert cur.description[0].type_code == 25

cur.execute("SELECT 42")
assert cur.fetchone() == (42,)

cur.execute("CREATE TABLE t (a int, b text)")
data = "".join(f"{i},row{i}\n" for i in range(1000))
cur.copy_expert("COPY t FROM STDIN WITH (FORMAT csv)", io.StringIO(data))
assert cur.rowcount == 1000, cur.rowcount
out = io.StringIO()
cur.copy_expert("COPY t TO STDOUT WITH (FORMAT csv)", out)
assert sorted(out.getvalue().splitlines()) == sorted(data.splitlines())

cur.execute("SELECT * FROM t")
assert len(cur.fetchall()) == 1000

try:
    cur.execute("SELEC 1")
    raise SystemExit("syntax error not raised")
except psycopg2.errors.SyntaxError as e:
    assert e.pgcode == "42601", e.pgcode

# implicit transactions (autocommit off: psycopg2 sends BEGIN)
conn.autocommit = False
cur.execute("SELECT 1")
assert conn.get_transaction_status() == psycopg2.extensions.TRANSACTION_STATUS_INTRANS
conn.rollback()
assert conn.get_transaction_status() == psycopg2.extensions.TRANSACTION_STATUS_IDLE
conn.close()
print("psycopg2: ok")
