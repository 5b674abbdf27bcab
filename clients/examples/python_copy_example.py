#!/usr/bin/env python3
"""Load a CSV into attu with COPY and read a result back, with psycopg2.

attud speaks the PostgreSQL protocol, so psycopg2 works unchanged:
copy_expert() streams the file through COPY ... FROM STDIN (the file stays on
the client's side), and a cursor returns rows as plain Python tuples.

    python3 clients/examples/python_copy_example.py [CSV] [--dsn DSN]

CSV defaults to data/statecity.csv (US census places: state, name, type,
latitude, longitude, ...). DSN defaults to attud's address.
"""
import argparse
import os
import sys

import psycopg2

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CSV = os.path.join(HERE, "..", "..", "data", "statecity.csv")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", nargs="?", default=DEFAULT_CSV)
    ap.add_argument("--dsn", default="host=127.0.0.1 port=5433 user=attu")
    args = ap.parse_args()

    conn = psycopg2.connect(args.dsn)
    conn.autocommit = True  # each statement stands alone
    cur = conn.cursor()
    cur.execute("DROP TABLE IF EXISTS places")
    cur.execute("""
        CREATE TABLE places (
            state TEXT, state_fips INTEGER, name TEXT, city_fips INTEGER,
            gnis INTEGER, type TEXT, lat DOUBLE PRECISION, lon DOUBLE PRECISION)
    """)
    with open(args.csv, "rb") as f:
        cur.copy_expert("COPY places FROM STDIN WITH (FORMAT csv, HEADER true)", f)
    print(f"loaded {cur.rowcount} rows from {os.path.basename(args.csv)}")

    # Parameters travel separately from the SQL text: no quoting by hand.
    cur.execute("""
        SELECT state, count(*) AS places, max(lat) AS northmost
        FROM places
        WHERE type = %s
        GROUP BY state
        ORDER BY places DESC, state
        LIMIT 5
    """, ("CDP",))
    rows = cur.fetchall()  # a list of tuples of Python values
    names = [d[0] for d in cur.description]
    print(" ".join(f"{n:>10}" for n in names))
    for state, places, northmost in rows:
        print(f"{state:>10} {places:>10} {northmost:>10.4f}")
    conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
