#!/usr/bin/env python3
"""domain_wire.py ATTUD - domains (CREATE DOMAIN) across sessions and
restarts of one attud (started here on a data directory of its own; the
CPU device, or ATTU_TEST_DEVICE's):

  - a domain made in one session's open block is unseen by another until
    COMMIT, and gone after ROLLBACK;
  - a committed domain, its DEFAULT, NOT NULL and CHECKs (one added NOT
    VALID, one renamed), the columns of it (a renamed column, a renamed
    table, a renamed domain) and its pg_type OID survive a daemon killed
    (SIGKILL) and started again: writes are still checked, a cast still
    checks, and DROP DOMAIN of one in use is still 2BP01; so do a view's
    and a CREATE TABLE AS table's columns of it and an array column of it;
  - ALTER DOMAIN ... SET DEFAULT reaches another session's INSERTs into
    a column without a DEFAULT of its own;
  - a temporary table's column of a domain is checked, and a temporary
    table never takes or changes the domains of another session's
    permanent table of its name (nor reaches the data directory).

The single-session answers are PostgreSQL's (tests/sql/domain_pg.test);
the OIDs are attu's own (engine/domain_type.h)."""
import os
import shutil
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attud_process import Checks, Daemon, attud_argv, conn, sqlstate  # noqa: E402

ATTUD = attud_argv()

daemon = Daemon(ATTUD, "attu-domain-wire.")
checks = Checks()
tmp = daemon.tmp
start, check, ok = daemon.start, checks.check, checks.ok


try:
    port = start()
    a, b = conn(port), conn(port)
    ok(a, "CREATE DOMAIN posint AS integer NOT NULL DEFAULT 7 CHECK (VALUE > 0)")
    ok(a, "CREATE TABLE item (id int, qty posint)")
    ok(a, "INSERT INTO item (id) VALUES (1)")
    ok(a, "INSERT INTO item VALUES (2, 40)")
    check("the domain's DEFAULT", a.query("SELECT id, qty FROM item ORDER BY id").rows(), [("1", "7"), ("2", "40")])
    check("the CHECK on INSERT", sqlstate(a.query("INSERT INTO item VALUES (3, 0)")), "23514")
    oid = int(a.query("SELECT oid FROM pg_type WHERE typname = 'posint'").rows()[0][0])
    check("pg_type row", a.query("SELECT typtype, typnotnull, typbasetype FROM pg_type WHERE oid = %d" % oid).rows(),
          [("d", "t", "23")])

    ok(a, "BEGIN")
    ok(a, "CREATE DOMAIN gone_d AS text")
    check("a domain in an open block is unseen by another session", sqlstate(b.query("SELECT 'x'::gone_d")), "42704")
    ok(a, "ROLLBACK")
    check("a rolled-back domain is gone", sqlstate(a.query("SELECT 'x'::gone_d")), "42704")

    # ---- a column without a DEFAULT of its own takes the domain's current
    # one, whichever session changed it
    ok(a, "CREATE TABLE dflt_t (id int, q posint)")
    ok(b, "ALTER DOMAIN posint SET DEFAULT 9")
    check("ALTER DOMAIN SET DEFAULT reaches another session's INSERT",
          a.query("INSERT INTO dflt_t (id) VALUES (1) RETURNING q").rows(), [("9",)])
    ok(b, "ALTER DOMAIN posint SET DEFAULT 7")
    check("the column keeps no DEFAULT of its own",
          a.query("SELECT count(*) FROM pg_attrdef WHERE adrelid = 'dflt_t'::regclass").rows(), [("0",)])

    # ---- temporary tables: checked, and never another session's or a
    # permanent table's of the same name
    ok(b, "CREATE TEMP TABLE item (id int, qty int)")
    ok(b, "INSERT INTO item VALUES (9, -1)")
    check("a temporary table of a permanent one's name: its own column types",
          b.query("SELECT pg_typeof(qty)::text FROM item").rows(), [("integer",)])
    check("the permanent table is still checked", sqlstate(a.query("INSERT INTO item VALUES (3, 0)")), "23514")
    ok(a, "CREATE TEMP TABLE t_tmp (q posint)")
    ok(b, "CREATE TABLE t_tmp (q int)")
    check("a temporary table's column of a domain is checked", sqlstate(a.query("INSERT INTO t_tmp VALUES (-1)")),
          "23514")
    ok(b, "INSERT INTO t_tmp VALUES (-1)")
    check("another session's permanent table of the name is its own", b.query("SELECT q FROM t_tmp").rows(),
          [("-1",)])
    ok(b, "DROP TABLE item")

    # ---- changes that must survive a restart
    ok(b, "ALTER DOMAIN posint ADD CONSTRAINT small CHECK (VALUE < 100) NOT VALID")
    ok(b, "ALTER DOMAIN posint ADD CONSTRAINT odd CHECK (VALUE % 2 = 1) NOT VALID")
    ok(b, "ALTER DOMAIN posint RENAME CONSTRAINT odd TO is_odd")
    ok(b, "ALTER TABLE item RENAME COLUMN qty TO amount")
    ok(b, "ALTER TABLE item RENAME TO stock")
    ok(b, "ALTER DOMAIN posint RENAME TO quantity")
    ok(b, "CREATE VIEW stock_v AS SELECT id, amount FROM stock")
    ok(b, "CREATE TABLE stock_copy AS SELECT amount FROM stock")
    ok(b, "CREATE TABLE stock_arr (a quantity[])")
    a.close()
    b.close()
    comments = open(os.path.join(daemon.data, "attu.comments"), errors="replace").read()
    check("a rolled-back domain never reaches the data directory", "gone_d" in comments, False)
    check("a temporary table's columns never reach the data directory", "t_tmp" in comments, False)
    daemon.proc.send_signal(signal.SIGKILL)
    daemon.proc.wait()
    port = start()
    d = conn(port)
    check("after a restart: the rows", d.query("SELECT id, amount FROM stock ORDER BY id").rows(),
          [("1", "7"), ("2", "40")])
    check("after a restart: the same OID", int(d.query("SELECT oid FROM pg_type WHERE typname = 'quantity'").rows()[0][0]),
          oid)
    check("after a restart: the old name is gone", sqlstate(d.query("SELECT 1::posint")), "42704")
    check("after a restart: NOT NULL", d.query("INSERT INTO stock VALUES (3, NULL)").error(),
          ("23502", "domain quantity does not allow null values"))
    check("after a restart: the renamed CHECK", d.query("INSERT INTO stock VALUES (3, 8)").error()[1],
          'value for domain quantity violates check constraint "is_odd"')
    check("after a restart: a cast checks", sqlstate(d.query("SELECT 200::quantity")), "23514")
    check("after a restart: the DEFAULT", d.query("INSERT INTO stock (id) VALUES (4) RETURNING amount").rows(), [("7",)])
    check("after a restart: VALIDATE CONSTRAINT", sqlstate(d.query("ALTER DOMAIN quantity VALIDATE CONSTRAINT is_odd")),
          "23514")
    check("after a restart: DROP DOMAIN in use", sqlstate(d.query("DROP DOMAIN quantity")), "2BP01")
    check("after a restart: information_schema.columns",
          d.query("SELECT domain_name, data_type FROM information_schema.columns WHERE table_name = 'stock' "
                  "AND column_name = 'amount'").rows(), [("quantity", "integer")])
    check("after a restart: a view's column of the domain",
          d.query("SELECT pg_typeof(amount)::text FROM stock_v LIMIT 1").rows(), [("quantity",)])
    check("after a restart: CREATE TABLE AS's column is checked",
          sqlstate(d.query("INSERT INTO stock_copy VALUES (0)")), "23514")
    check("after a restart: an array's elements are checked",
          d.query("INSERT INTO stock_arr VALUES (ARRAY[1, 201])").error(),
          ("23514", 'value for domain quantity violates check constraint "small"'))
    check("after a restart: the temporary tables are gone, the permanent one stays",
          d.query("SELECT q FROM t_tmp").rows(), [("-1",)])
    d.close()
finally:
    daemon.stop()
    os.environ.get("KEEP_TMP") or shutil.rmtree(tmp, ignore_errors=True)

if checks.failed:
    sys.exit(1)
print("domain_wire: ok")
