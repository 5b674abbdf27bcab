"""attud_process.py - one attud of a wire test's own, and the test's checks.

Daemon(attud, prefix) makes a temporary folder (tmp) with a data directory
(data) and starts attud on it with start() (again after a kill: the same
data directory), on ATTU_TEST_DEVICE's device (cpu by default), returning
its port; proc is the running process. Checks counts failed checks:
check(what, got, want), ok(conn, sql) (a query that must not fail) and
count(conn, table). in_thread(fn) runs fn beside the test; attud_argv()
is the attud the test was given (its first argument), or a skip."""

import os
import subprocess
import sys
import tempfile
import threading
import time

from pgwire_client import Conn


def attud_argv():
    """The attud of argv[1]; exits 77 (ctest's skip) when there is none."""
    attud = sys.argv[1] if len(sys.argv) > 1 else None
    if not attud or not os.access(attud, os.X_OK):
        print("SKIP: attud not built")
        sys.exit(77)
    return attud


class Daemon:
    def __init__(self, attud, prefix):
        self.attud = attud
        self.tmp = tempfile.mkdtemp(prefix=prefix)
        self.data = os.path.join(self.tmp, "data")
        self.proc = None

    def start(self):
        ready = os.path.join(self.tmp, "ready")
        if os.path.exists(ready):
            os.unlink(ready)
        log = open(os.path.join(self.tmp, "attud.log"), "a")
        device = os.environ.get("ATTU_TEST_DEVICE", "cpu")
        self.proc = subprocess.Popen([self.attud, "--port", "0", "--ready-file", ready, "--data-dir", self.data,
                                      "--device", device, "--log-level", "warning"], stdout=log, stderr=log)
        for _ in range(1200):
            if os.path.exists(ready) and os.path.getsize(ready) > 0:
                break
            if self.proc.poll() is not None:
                raise SystemExit("attud exited: " + open(os.path.join(self.tmp, "attud.log")).read())
            time.sleep(0.05)
        with open(ready) as f:
            return int("".join(ch for ch in f.readline() if ch.isdigit()))

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait()


def conn(port):
    return Conn("127.0.0.1", port, "attu", "attu")


def sqlstate(reply):
    """The SQLSTATE of a reply's error, None when it has none."""
    return (reply.error() or (None,))[0]


class Checks:
    def __init__(self):
        self.failed = 0

    def check(self, what, got, want):
        if got != want:
            print("FAIL", what, "got", got, "want", want)
            self.failed += 1

    def ok(self, c, sql):
        r = c.query(sql)
        if r.error():
            print("FAIL", sql, r.error())
            self.failed += 1
        return r

    def count(self, c, table):
        r = c.query("SELECT count(*) FROM %s" % table)
        return r.error() or int(r.rows()[0][0])


def in_thread(fn):
    """Runs fn in a thread; returns (thread, box) where box[0] is its result."""
    box = []
    th = threading.Thread(target=lambda: box.append(fn()))
    th.start()
    return th, box
