#!/usr/bin/env python3
"""listen_notify_wire.py - sessions seen and signalled by other sessions, on
the wire, against a server in PGHOST / PGPORT / PGUSER / PGDATABASE
(protocol_script.sh runs it on PostgreSQL 15 and on attud, which must
agree):

  - pg_backend_pid() is the BackendKeyData's pid; pg_stat_activity has one
    row per session of the database, each with its state ('active' for the
    asking one, 'idle', 'idle in transaction', 'idle in transaction
    (aborted)'), its last query text, xact_start only inside a transaction;
  - LISTEN / NOTIFY: a NotificationResponse (the notifier's pid, the
    channel, the payload) reaches an idle listener without it asking; the
    notifier's own comes with its reply, after CommandComplete; inside a
    block only at COMMIT (none at ROLLBACK, none of what ROLLBACK TO undid),
    duplicates folded, order kept;
    a listener inside a block gets them when its block ends; UNLISTEN,
    UNLISTEN *, a LISTEN rolled back, pg_listening_channels(), pg_notify
    (also with parameters of the extended protocol), the payload limit
    (22023);
  - pg_cancel_backend: the statement another session waits in fails with
    57014, the session goes on; an unknown pid is a WARNING and false;
  - pg_terminate_backend: FATAL 57P01 to the session (idle, or waiting in
    a statement), its connection closed, its open transaction rolled back;
    with a timeout the call returns once it is gone; the session's own pid
    ends its own connection;
  - a listener that disconnects, a NOTIFY storm (a block of 3000 and a
    query string of 300 statements) leave the server serving."""
import sys
import time

from pgwire_client import connect_from_env
from wire_checks import expect, finish


def q(c, sql):
    r = c.query(sql)
    if r.error():
        print("FAIL", sql, r.error())
        sys.exit(1)
    return r


def one(c, sql):
    return q(c, sql).rows()[0][0]


def closed_after_fatal(c, timeout=5.0):
    """The messages up to the server's close (ErrorResponses as (severity,
    sqlstate)), or what came before the timeout."""
    out = []
    deadline = time.time() + timeout
    while time.time() < deadline:
        m = c.read_message(deadline - time.time())
        if m is None:
            break
        if m[0] == "closed":
            out.append("closed")
            break
        if m[0] == "E":
            f = {x[:1].decode(): x[1:].decode() for x in m[1].split(b"\0") if x}
            out.append((f.get("V"), f.get("C")))
        else:
            out.append(m[0])
    return out


def gone(c, pid, timeout=5.0):
    """Whether pg_stat_activity loses pid within the timeout."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if one(c, "SELECT count(*) FROM pg_stat_activity WHERE pid = %d" % pid) == "0":
            return True
        time.sleep(0.05)
    return False


def settled_rows(c, sql, want, timeout=3.0):
    """sql's rows once they equal want, or the last rows read by the
    deadline. PostgreSQL shows another backend's wait_event only once that
    backend has gone back to reading its client, a moment after the reply
    its client already has: on a loaded machine the first read can still
    see the wait_event NULL (attu sets state and wait_event together)."""
    deadline = time.time() + timeout
    rows = q(c, sql).rows()
    while rows != want and time.time() < deadline:
        time.sleep(0.02)
        rows = q(c, sql).rows()
    return rows


a, b, c = connect_from_env(), connect_from_env(), connect_from_env()
db = one(a, "SELECT current_database()")
mine = "datname = current_database() AND backend_type = 'client backend'"

# ---- pg_backend_pid, pg_stat_activity
expect("pg_backend_pid is BackendKeyData's", one(a, "SELECT pg_backend_pid()"), str(a.pid))
expect("three sessions", one(a, "SELECT count(*) FROM pg_stat_activity WHERE " + mine), "3")
expect("the sessions' pids", sorted(int(r[0]) for r in q(a, "SELECT pid FROM pg_stat_activity WHERE " + mine).rows()),
       sorted([a.pid, b.pid, c.pid]))
q(b, "SELECT 'b was here'")
state = "SELECT state, query, xact_start IS NOT NULL, wait_event FROM pg_stat_activity WHERE pid = %d"
expect("own row", q(a, state % a.pid).rows(), [("active", state % a.pid, "t", None)])
want = [("idle", "SELECT 'b was here'", "f", "ClientRead")]
expect("an idle session", settled_rows(a, state % b.pid, want), want)
q(b, "BEGIN")
q(b, "SELECT 1")
want = [("idle in transaction", "SELECT 1", "t", "ClientRead")]
expect("idle in transaction", settled_rows(a, state % b.pid, want), want)
b.query("SELECT 1/0")
expect("aborted", q(a, state % b.pid).rows()[0][0], "idle in transaction (aborted)")
q(b, "ROLLBACK")
expect("idle again", q(a, state % b.pid).rows()[0][:3], ("idle", "ROLLBACK", "f"))
expect("usename, application_name", q(a, "SELECT usename = current_user, application_name FROM pg_stat_activity "
                                          "WHERE pid = pg_backend_pid()").rows(), [("t", "")])
q(a, "SET application_name = 'wire_a'")
expect("application_name seen by others", one(b, "SELECT application_name FROM pg_stat_activity WHERE pid = %d" % a.pid),
       "wire_a")

# ---- LISTEN / NOTIFY
r = q(b, "LISTEN ch")
expect("LISTEN tag", r.tags(), ["LISTEN"])
r = q(a, "NOTIFY ch, 'hello'")
expect("NOTIFY tag, nothing for the notifier", (r.tags(), r.notifications()), (["NOTIFY"], []))
expect("an idle listener receives", b.wait_notifications(1), [(a.pid, "ch", "hello")])
q(a, "NOTIFY other, 'x'")
expect("another channel: nothing", b.wait_notifications(1, 0.3), [])
q(a, "NOTIFY ch")
expect("no payload", b.wait_notifications(1), [(a.pid, "ch", "")])

r = q(b, "NOTIFY ch, 'self'")
expect("own notification after CommandComplete", (r.kinds(), r.notifications()), ("CA", [(b.pid, "ch", "self")]))

q(a, "BEGIN")
q(a, "NOTIFY ch, 'x'")
q(a, "NOTIFY ch, 'x'")
q(a, "SELECT pg_notify('ch', 'y')")
q(a, "NOTIFY ch, 'x'")
expect("nothing before COMMIT", b.wait_notifications(1, 0.3), [])
q(a, "COMMIT")
expect("at COMMIT, folded", b.wait_notifications(2), [(a.pid, "ch", "x"), (a.pid, "ch", "y")])
expect("folded: no third", b.wait_notifications(1, 0.3), [])

q(a, "BEGIN")
q(a, "NOTIFY ch, 'rolled back'")
q(a, "ROLLBACK")
expect("ROLLBACK drops it", b.wait_notifications(1, 0.3), [])
a.query("NOTIFY ch, 'failed'; SELECT 1/0")
expect("a failed query string drops it", b.wait_notifications(1, 0.3), [])

q(a, "BEGIN")
q(a, "NOTIFY ch, 'before'")
q(a, "SAVEPOINT s")
q(a, "NOTIFY ch, 'after'")
q(a, "ROLLBACK TO s")
q(a, "NOTIFY ch, 'again'")
q(a, "COMMIT")
expect("ROLLBACK TO drops what came after", b.wait_notifications(3, 0.5), [(a.pid, "ch", "before"), (a.pid, "ch", "again")])

# a listener inside a block: at its end
q(b, "BEGIN")
q(a, "NOTIFY ch, 'later'")
expect("not inside the listener's block", b.wait_notifications(1, 0.3), [])
expect("nor with its statements", q(b, "SELECT 1").notifications(), [])
r = q(b, "COMMIT")
expect("with the block's end", r.notifications() + b.wait_notifications(1, 0.5) if not r.notifications() else
       r.notifications(), [(a.pid, "ch", "later")])

# pg_notify, also with the extended protocol's parameters
q(a, "SELECT pg_notify('ch', 'by function')")
expect("pg_notify", b.wait_notifications(1), [(a.pid, "ch", "by function")])
a.parse("", "SELECT pg_notify($1, $2)")
a.bind("", ["ch", "by parameters"])
a.execute()
r = a.sync()
expect("pg_notify with parameters", r.error(), None)
expect("delivered", b.wait_notifications(1), [(a.pid, "ch", "by parameters")])
expect("payload of 7999 bytes", a.query("SELECT pg_notify('ch', repeat('p', 7999))").error(), None)
expect("delivered whole", [len(n[2]) for n in b.wait_notifications(1)], [7999])
expect("payload of 8000 bytes", a.query("SELECT pg_notify('ch', repeat('p', 8000))").error(),
       ("22023", "payload string too long"))
expect("empty channel", a.query("SELECT pg_notify('', 'x')").error(), ("22023", "channel name cannot be empty"))
expect("pg_notify over rows", a.query("SELECT pg_notify('ch', 'row ' || g) FROM generate_series(1, 3) g").error(),
       None)
expect("one per row", [n[2] for n in b.wait_notifications(3)], ["row 1", "row 2", "row 3"])

# UNLISTEN, a LISTEN rolled back, pg_listening_channels
q(b, "LISTEN second")
expect("channels", sorted(r[0] for r in q(b, "SELECT * FROM pg_listening_channels()").rows()), ["ch", "second"])
q(b, "UNLISTEN ch")
q(a, "NOTIFY ch, 'unheard'")
q(a, "NOTIFY second, 'heard'")
expect("after UNLISTEN ch", b.wait_notifications(2, 0.5), [(a.pid, "second", "heard")])
q(b, "BEGIN")
q(b, "LISTEN third")
q(b, "ROLLBACK")
expect("a LISTEN rolled back", [r[0] for r in q(b, "SELECT pg_listening_channels()").rows()], ["second"])
q(b, "UNLISTEN *")
expect("UNLISTEN *", q(b, "SELECT count(*) FROM pg_listening_channels()").rows(), [("0",)])
q(a, "NOTIFY second, 'unheard'")
expect("nothing after UNLISTEN *", b.wait_notifications(1, 0.3), [])

# ---- pg_cancel_backend: a statement that waits for another session's lock
q(a, "DROP TABLE IF EXISTS lnw")
q(a, "CREATE TABLE lnw (id INTEGER PRIMARY KEY, v INTEGER)")
q(a, "INSERT INTO lnw VALUES (1, 0)")
q(a, "BEGIN")
q(a, "UPDATE lnw SET v = 1 WHERE id = 1")
b.send("Q", b"UPDATE lnw SET v = 2 WHERE id = 1\0")
time.sleep(0.5)
expect("b waits", q(c, "SELECT state, wait_event_type, wait_event FROM pg_stat_activity WHERE pid = %d" % b.pid).rows(),
       [("active", "Lock", "transactionid")])
expect("pg_cancel_backend", one(c, "SELECT pg_cancel_backend(%d)" % b.pid), "t")
r = b.until_ready()
errs = [p for t, p in r if t == "E"]
expect("b's statement canceled", [dict((x[:1].decode(), x[1:].decode()) for x in e.split(b"\0") if x).get("M")
                                  for e in errs], ["canceling statement due to user request"])
expect("b goes on", one(b, "SELECT 1"), "1")
r = c.query("SELECT pg_cancel_backend(2147483647)")
expect("unknown pid", (r.rows(), r.notices()),
       ([("f",)], [("WARNING", "01000", "PID 2147483647 is not a PostgreSQL backend process")]))
expect("own statement", c.query("SELECT pg_cancel_backend(pg_backend_pid())").error(),
       ("57014", "canceling statement due to user request"))
q(a, "ROLLBACK")

# ---- pg_terminate_backend: an idle session in a block; its rows roll back
q(b, "BEGIN")
q(b, "INSERT INTO lnw VALUES (2, 2)")
expect("pg_terminate_backend", one(c, "SELECT pg_terminate_backend(%d)" % b.pid), "t")
expect("b: FATAL, closed", closed_after_fatal(b), [("FATAL", "57P01"), "closed"])
expect("b's session is gone", gone(c, b.pid), True)
expect("b's block rolled back", one(c, "SELECT count(*) FROM lnw"), "1")

# a session waiting in a statement: FATAL only
b = connect_from_env()
q(a, "BEGIN")
q(a, "UPDATE lnw SET v = 3 WHERE id = 1")
b.send("Q", b"UPDATE lnw SET v = 4 WHERE id = 1\0")
time.sleep(0.5)
expect("terminate a waiting one", one(c, "SELECT pg_terminate_backend(%d)" % b.pid), "t")
expect("b: FATAL only, closed", closed_after_fatal(b), [("FATAL", "57P01"), "closed"])
q(a, "ROLLBACK")

# with a timeout: returns once it is gone; a negative one is 22023
b = connect_from_env()
expect("terminate with a timeout", one(c, "SELECT pg_terminate_backend(%d, 5000)" % b.pid), "t")
expect("gone at once", one(c, "SELECT count(*) FROM pg_stat_activity WHERE pid = %d" % b.pid), "0")
expect("negative timeout", c.query("SELECT pg_terminate_backend(%d, -1)" % a.pid).error(),
       ("22003", "\"timeout\" must not be negative"))
r = c.query("SELECT pg_terminate_backend(2147483647)")
expect("terminate an unknown pid", (r.rows(), r.notices()),
       ([("f",)], [("WARNING", "01000", "PID 2147483647 is not a PostgreSQL backend process")]))

# over the rows of pg_stat_activity, as tools write it
b = connect_from_env()
q(b, "SET application_name = 'doomed'")
expect("terminate by query", q(c, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                  "WHERE application_name = 'doomed' AND " + mine).rows(), [("t",)])
expect("doomed: FATAL, closed", closed_after_fatal(b), [("FATAL", "57P01"), "closed"])

# its own pid
b = connect_from_env()
b.send("Q", b"SELECT pg_terminate_backend(pg_backend_pid())\0")
# (PostgreSQL sends the row, then the FATAL; attu the row's CommandComplete too)
got = closed_after_fatal(b)
expect("own pid: the row, FATAL, closed", (got[:2], got[-2:]), (["T", "D"], [("FATAL", "57P01"), "closed"]))

# ---- a listener that goes away; a storm
b = connect_from_env()
q(b, "LISTEN storm")
b.close()
q(a, "NOTIFY storm, 'nobody'")
d = connect_from_env()
q(d, "LISTEN storm")
q(a, "BEGIN")
for k in range(0, 3000, 100):   # (in pieces: a client that does not read would block the server's writes)
    for i in range(k, k + 100):
        a.send("Q", ("NOTIFY storm, '%d'" % i).encode() + b"\0")
    for i in range(k, k + 100):
        a.until_ready()
q(a, "COMMIT")
got = d.wait_notifications(3000, 5.0)
expect("a block of 3000", ([n[2] for n in got] == [str(i) for i in range(3000)], len(got)), (True, 3000))
q(a, "; ".join("NOTIFY storm, 's%d'" % i for i in range(300)))
got = d.wait_notifications(300, 5.0)
expect("a query string of 300", len(got), 300)
expect("still serving", one(c, "SELECT count(*) FROM pg_stat_activity WHERE " + mine), "3")

q(a, "DROP TABLE lnw")
for x in (a, c, d):
    x.close()
finish("listen_notify_wire")
