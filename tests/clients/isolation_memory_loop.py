#!/usr/bin/env python3
"""isolation_memory_loop.py ATTUD - what REPEATABLE READ snapshots hold, over
rounds (not in ctest: meant for a GPU host, ATTU_TEST_DEVICE=gpu, where
nvidia-smi reads the device memory; on the CPU it prints the daemon's
resident memory but does not judge it, the allocators keeping what was
freed, READ COMMITTED's rounds alike; ISOLATION_LOOP_LEVEL, _ROUNDS change
the level and the count):

a 5M-row table made resident by a query; then 12 rounds in which session A
opens a REPEATABLE READ block and sums the table, session B updates every
row (a new version) and sums it, A sums again (its snapshot's version: the
old sum, its columns resident beside the new version's), A writes (40001:
the table changed) or not, and ends the block (COMMIT or ROLLBACK). The old
version, and its device copy, must go with the block: the memory after the
last round must not exceed the memory after the first by more than about
two versions of the table (200 MiB; the pool caches what was freed, so the
first round's peak stays, a leak grows every round). Prints the figures;
exits 1 on growth (GPU) or a wrong answer. tests/db/test_isolation.c
(snapshot_lifetime) checks the owners of a snapshot's version exactly."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attud_process import Checks, Daemon, attud_argv, conn  # noqa: E402

ATTUD = attud_argv()

gpu = os.environ.get("ATTU_TEST_DEVICE", "cpu") == "gpu"
LEVEL = os.environ.get("ISOLATION_LOOP_LEVEL", "REPEATABLE READ")   # (READ COMMITTED: the baseline)
rr = LEVEL != "READ COMMITTED"
daemon = Daemon(ATTUD, "attu-iso-loop.")
checks = Checks()
check, ok = checks.check, checks.ok


def used_mib(pid):
    if gpu:
        out = subprocess.run(["nvidia-smi", "--query-compute-apps=pid,used_memory", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            p, m = (x.strip() for x in line.split(","))
            if int(p) == pid:
                return int(m)
        return None
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) // 1024
    return None


def total(c, sql):
    r = c.query(sql)
    return r.error() or r.rows()[0][0]


try:
    port = daemon.start()
    a, b = conn(port), conn(port)
    ok(a, "CREATE TABLE big AS SELECT g AS k, g * 2 AS v FROM generate_series(1, 5000000) g")
    s = int(total(a, "SELECT sum(v) FROM big"))
    first = last = None
    for rnd in range(1, int(os.environ.get("ISOLATION_LOOP_ROUNDS", "12")) + 1):
        ok(a, "BEGIN ISOLATION LEVEL " + LEVEL)
        check("round %d: A's first sum" % rnd, total(a, "SELECT sum(v) FROM big"), str(s))
        ok(b, "UPDATE big SET v = v + 1")
        check("round %d: B's sum" % rnd, total(b, "SELECT sum(v) FROM big"), str(s + 5000000))
        check("round %d: A's snapshot" % rnd, total(a, "SELECT sum(v) FROM big"), str(s if rr else s + 5000000))
        if rnd % 2 and rr:
            e = a.query("UPDATE big SET v = 0 WHERE k = 1").error()
            check("round %d: A's write" % rnd, e and e[0], "40001")
        ok(a, "ROLLBACK" if rnd % 2 else "COMMIT")
        s += 5000000
        last = used_mib(daemon.proc.pid)
        if first is None:
            first = last
        print("round %d: %s memory %s MiB" % (rnd, "device" if gpu else "resident", last))
    check("the sum after the rounds", total(a, "SELECT sum(v) FROM big"), str(s))
    ok(a, "DROP TABLE big")
    print("after DROP TABLE: %s MiB" % used_mib(daemon.proc.pid))
    if gpu and first is not None and last is not None and last > first + 200:
        print("FAIL: memory grew from %d to %d MiB" % (first, last))
        checks.failed += 1
finally:
    daemon.stop()

if checks.failed:
    print(checks.failed, "failed")
    sys.exit(1)
print("isolation_memory_loop: ok")
