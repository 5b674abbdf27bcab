#!/usr/bin/env python3
"""advisory_locks_wire.py - PostgreSQL's advisory locks between sessions,
against a server in PGHOST / PGPORT / PGUSER / PGDATABASE
(protocol_script.sh runs it on PostgreSQL 15 and on attud, which must
agree; attu's locks: db/db_advisory.c):

  - an exclusive session lock held by A: B's pg_try_advisory_lock is
    false, B's pg_advisory_lock waits until A unlocks, then holds it;
  - a lock taken twice needs two unlocks; unlocking one not held is false
    (with a WARNING);
  - shared locks go side by side, an exclusive one waits for them;
  - the bigint key and the (int, int) pair of the same bits are two locks;
  - a transaction-level lock goes at COMMIT (and an autocommit
    statement's at its end); a session's locks go when it disconnects;
  - a wait ends with 55P03 at lock_timeout and 57014 at
    statement_timeout, the lock not taken;
  - pg_advisory_unlock_all gives back the session's locks.
What migration tools do before migrating (one runner at a time)."""
import time

from pgwire_client import connect_from_env
from wire_checks import done_within, expect, finish, in_thread, ok, sqlstate, val


a, b = connect_from_env(), connect_from_env()

# ---- exclusive: try fails, lock waits for the unlock
expect("A takes 42", val(a, "SELECT pg_try_advisory_lock(42)"), "t")
expect("B cannot try 42", val(b, "SELECT pg_try_advisory_lock(42)"), "f")
th, box = in_thread(b, "SELECT pg_advisory_lock(42)")
expect("B's lock waits while A holds 42", done_within(th, box, 0.5), False)
expect("A unlocks 42", val(a, "SELECT pg_advisory_unlock(42)"), "t")
expect("B's lock goes on after A's unlock", done_within(th, box, 10), True)
expect("B's wait ended without an error", box[0].error() if box else "none", None)
expect("now A cannot try 42", val(a, "SELECT pg_try_advisory_lock(42)"), "f")
expect("B unlocks 42", val(b, "SELECT pg_advisory_unlock(42)"), "t")
expect("B holds 42 no more", val(b, "SELECT pg_advisory_unlock(42)"), "f")

# ---- counted: two locks, two unlocks
ok(a, "SELECT pg_advisory_lock(7)")
ok(a, "SELECT pg_advisory_lock(7)")
expect("7 after one unlock", (val(a, "SELECT pg_advisory_unlock(7)"), val(b, "SELECT pg_try_advisory_lock(7)")), ("t", "f"))
expect("7 after two unlocks", (val(a, "SELECT pg_advisory_unlock(7)"), val(b, "SELECT pg_try_advisory_lock(7)")), ("t", "t"))
ok(b, "SELECT pg_advisory_unlock(7)")

# ---- shared side by side; exclusive waits for them
ok(a, "SELECT pg_advisory_lock_shared(9)")
expect("B shares 9", val(b, "SELECT pg_try_advisory_lock_shared(9)"), "t")
expect("no exclusive 9 while shared", val(b, "SELECT pg_try_advisory_lock(9)"), "f")
ok(b, "SELECT pg_advisory_unlock_shared(9)")
th, box = in_thread(b, "SELECT pg_advisory_lock(9)")
expect("B's exclusive waits for A's shared", done_within(th, box, 0.5), False)
ok(a, "SELECT pg_advisory_unlock_shared(9)")
expect("B's exclusive after A's shared went", done_within(th, box, 10), True)
ok(b, "SELECT pg_advisory_unlock(9)")

# ---- the bigint and the pair are two locks
ok(a, "SELECT pg_advisory_lock(1)")
expect("(0, 1) is not 1", val(b, "SELECT pg_try_advisory_lock(0, 1)"), "t")
expect("1 is held", val(b, "SELECT pg_try_advisory_lock(1)"), "f")
ok(b, "SELECT pg_advisory_unlock(0, 1)")
ok(a, "SELECT pg_advisory_unlock(1)")

# ---- transaction level: held to COMMIT; an autocommit one to its end
ok(a, "BEGIN")
ok(a, "SELECT pg_advisory_xact_lock(11)")
expect("11 held in A's block", val(b, "SELECT pg_try_advisory_lock(11)"), "f")
ok(a, "COMMIT")
expect("11 free after COMMIT", val(b, "SELECT pg_try_advisory_lock(11)"), "t")
ok(b, "SELECT pg_advisory_unlock(11)")
ok(a, "SELECT pg_advisory_xact_lock(12)")
expect("an autocommit xact lock is gone", val(b, "SELECT pg_try_advisory_lock(12)"), "t")
ok(b, "SELECT pg_advisory_unlock(12)")

# ---- timeouts end a wait, the lock not taken
ok(a, "SELECT pg_advisory_lock(13)")
ok(b, "SET lock_timeout = '200ms'")
expect("lock_timeout", sqlstate(b, "SELECT pg_advisory_lock(13)"), "55P03")
ok(b, "RESET lock_timeout")
ok(b, "SET statement_timeout = '200ms'")
expect("statement_timeout", sqlstate(b, "SELECT pg_advisory_lock(13)"), "57014")
ok(b, "RESET statement_timeout")
expect("B got nothing", val(b, "SELECT pg_advisory_unlock(13)"), "f")

# ---- unlock_all; a session's locks go with it
ok(a, "SELECT pg_advisory_lock(14)")
ok(a, "SELECT pg_advisory_unlock_all()")
expect("after unlock_all", (val(b, "SELECT pg_try_advisory_lock(13)"), val(b, "SELECT pg_try_advisory_lock(14)")), ("t", "t"))
ok(b, "SELECT pg_advisory_unlock_all()")
c = connect_from_env()
ok(c, "SELECT pg_advisory_lock(15)")
expect("15 held by C", val(b, "SELECT pg_try_advisory_lock(15)"), "f")
c.close()
deadline = time.time() + 10
got = "f"
while got != "t" and time.time() < deadline:
    got = val(b, "SELECT pg_try_advisory_lock(15)")
    if got != "t":
        time.sleep(0.05)
expect("15 free once C disconnected", got, "t")
ok(b, "SELECT pg_advisory_unlock_all()")

finish("advisory_locks_wire")
