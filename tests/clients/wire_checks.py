"""wire_checks.py - the checks the multi-session wire scripts share
(isolation_wire.py, table_locks_wire.py, listen_notify_wire.py): each runs
against PostgreSQL 15 and attud, counts what differs from the answer it
wants, prints each difference, and ends with finish()."""
import sys
import threading

_failed = [0]


def expect(what, got, want):
    """One check: prints got and want when they differ."""
    if got != want:
        print("FAIL", what, "\n  got: ", got, "\n  want:", want)
        _failed[0] += 1


def ok(c, sql):
    """Runs sql on c; an error counts as a failure. Returns the reply."""
    r = c.query(sql)
    if r.error():
        expect(sql, r.error(), None)
    return r


def val(c, sql):
    """The first value of sql's first row, or its error."""
    r = c.query(sql)
    return r.error() or r.rows()[0][0]


def sqlstate(c, sql):
    """sql's SQLSTATE, None when it succeeds."""
    e = c.query(sql).error()
    return e[0] if e else None


def finish(name):
    """Exits 1 after the failures' count, or prints that name passed."""
    if _failed[0]:
        print(_failed[0], "failed")
        sys.exit(1)
    print(name + ": all passed")


def in_thread(c, sql):
    """Runs sql on c in a thread: (thread, box); box gets the Reply."""
    box = []
    th = threading.Thread(target=lambda: box.append(c.query(sql)), daemon=True)
    th.start()
    return th, box


def done_within(th, box, seconds):
    """Whether the thread's query answered within seconds."""
    th.join(seconds)
    return bool(box)
