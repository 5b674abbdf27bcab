"""pgwire_client.py - a small protocol-v3 client for the client tests: it
sends the extended protocol's messages one by one (what libpq and psycopg2
would not send: a Parse without types followed by a Describe, binary
parameters of a chosen layout, a Bind that must fail before its Execute) and
reads every reply up to ReadyForQuery back as (type, payload) pairs.
NotificationResponses ('A') that come with a reply are among its messages
(Reply.notifications); those an idle session receives are read with
Conn.wait_notifications. The BackendKeyData's pid and key are Conn.pid and
Conn.key.

Only trust authentication: run it against the private servers of
server_env.sh.
"""
import os
import socket
import struct


class Conn:
    """A protocol v3 session: simple queries and extended messages."""

    def __init__(self, host, port, user, dbname):
        if host.startswith("/"):
            self.s = socket.socket(socket.AF_UNIX)
            self.s.connect(os.path.join(host, ".s.PGSQL.%d" % port))
        else:
            self.s = socket.create_connection((host, port))
        params = b"user\0" + user.encode() + b"\0database\0" + dbname.encode() + b"\0\0"
        body = struct.pack("!i", 196608) + params
        self.s.sendall(struct.pack("!i", len(body) + 4) + body)
        self.pid = self.key = None
        self.startup_params = {}   # the ParameterStatus values before the first ReadyForQuery
        for t, p in self.until_ready():
            if t == "R" and struct.unpack("!i", p[:4])[0] != 0:
                raise SystemExit("the server asks for a password: run against a trust setup")
            if t == "K":
                self.pid, self.key = struct.unpack("!iI", p[:8])
            if t == "S":
                k, v = p.split(b"\0")[:2]
                self.startup_params[k.decode()] = v.decode()

    def _read(self, n):
        b = b""
        while len(b) < n:
            c = self.s.recv(n - len(b))
            if not c:
                raise SystemExit("connection closed")
            b += c
        return b

    def until_ready(self):
        out = []
        while True:
            t = self._read(1).decode()
            n = struct.unpack("!i", self._read(4))[0]
            p = self._read(n - 4)
            if t == "Z":
                return out
            out.append((t, p))

    def read_message(self, timeout=None):
        """The next message as (type, payload), None when none came within
        timeout seconds, ("closed", b"") when the server closed the
        connection."""
        self.s.settimeout(timeout)
        try:
            head = self.s.recv(1, socket.MSG_PEEK)
        except socket.timeout:
            return None
        except (ConnectionResetError, BrokenPipeError):
            return ("closed", b"")
        finally:
            self.s.settimeout(None)
        if not head:
            return ("closed", b"")
        try:
            t = self._read(1).decode()
            n = struct.unpack("!i", self._read(4))[0]
            return (t, self._read(n - 4))
        except SystemExit:
            return ("closed", b"")

    def wait_notifications(self, want=1, timeout=3.0):
        """NotificationResponses an idle session receives: (pid, channel,
        payload) tuples, once want of them came or timeout seconds passed
        without one."""
        got = []
        while len(got) < want:
            m = self.read_message(timeout)
            if m is None or m[0] == "closed":
                break
            if m[0] == "A":
                got.append(parse_notification(m[1]))
        return got

    def send(self, t, payload=b""):
        self.s.sendall(t.encode() + struct.pack("!i", len(payload) + 4) + payload)

    def query(self, sql):
        self.send("Q", sql.encode() + b"\0")
        return Reply(self.until_ready())

    def copy_in(self, sql, chunks=(), fail=None):
        """A COPY ... FROM STDIN: the query, then (once the server answered
        CopyInResponse) each chunk as one CopyData and CopyDone, or CopyFail
        with the message fail. The Reply holds every message, the
        CopyInResponse ('G') and any error before it included."""
        self.send("Q", sql.encode() + b"\0")
        msgs = []
        while True:
            t = self._read(1).decode()
            n = struct.unpack("!i", self._read(4))[0]
            p = self._read(n - 4)
            if t == "Z":
                return Reply(msgs)
            msgs.append((t, p))
            if t == "G":
                break
        for ch in chunks:
            self.send("d", ch)
        if fail is None:
            self.send("c")
        else:
            self.send("f", fail.encode() + b"\0")
        return Reply(msgs + self.until_ready())

    def parse(self, name, sql, oids=()):
        self.send("P", name.encode() + b"\0" + sql.encode() + b"\0" + struct.pack("!h", len(oids)) +
                  b"".join(struct.pack("!I", o) for o in oids))

    def bind(self, stmt, values, portal="", formats=None, result_format=None):
        """values: str (sent as its UTF-8 text), bytes (sent as they are,
        for binary formats) or None (NULL); formats: the parameter format
        codes as the message carries them (None: none, all text);
        result_format: one code for every result column (None: text)."""
        formats = formats or []
        b = portal.encode() + b"\0" + stmt.encode() + b"\0" + struct.pack("!h", len(formats))
        b += b"".join(struct.pack("!h", f) for f in formats) + struct.pack("!h", len(values))
        for v in values:
            if v is None:
                b += struct.pack("!i", -1)
                continue
            raw = v.encode() if isinstance(v, str) else v
            b += struct.pack("!i", len(raw)) + raw
        self.send("B", b + (struct.pack("!h", 0) if result_format is None else struct.pack("!hh", 1, result_format)))

    def describe(self, kind, name):
        self.send("D", kind.encode() + name.encode() + b"\0")

    def execute(self, portal="", max_rows=0):
        self.send("E", portal.encode() + b"\0" + struct.pack("!i", max_rows))

    def close_stmt(self, name):
        self.send("C", b"S" + name.encode() + b"\0")

    def sync(self):
        self.send("S")
        return Reply(self.until_ready())

    def run(self, stmt, values=(), formats=None):
        """Bind, Execute, Sync of a statement."""
        self.bind(stmt, list(values), formats=formats)
        self.execute()
        return self.sync()

    def bind_run(self, sql, oids, values, formats, result_format):
        """Parse (with oids) of the unnamed statement, Describe, Bind
        (values: bytes or None, in the given parameter formats; every
        result column in result_format), Execute, Sync: (the Reply,
        parameter OIDs, column OIDs, rows of raw values)."""
        self.parse("", sql, oids)
        self.describe("S", "")
        self.bind("", list(values), formats=formats, result_format=result_format)
        self.execute()
        r = self.sync()
        cols = r.columns()
        return r, r.param_oids(), cols and [o for _, o in cols], r.raw_rows()

    def close(self):
        self.send("X")
        self.s.close()


def parse_notification(p):
    """A NotificationResponse's payload as (pid, channel, payload)."""
    pid = struct.unpack("!i", p[:4])[0]
    channel, payload = p[4:].split(b"\0")[:2]
    return (pid, channel.decode(), payload.decode())


class Reply:
    def __init__(self, msgs):
        self.msgs = msgs

    def notifications(self):
        """The NotificationResponses among the reply: (pid, channel, payload)."""
        return [parse_notification(p) for t, p in self.msgs if t == "A"]

    def notices(self):
        """(severity, sqlstate, message) of each NoticeResponse."""
        out = []
        for t, p in self.msgs:
            if t == "N":
                f = {x[:1].decode(): x[1:].decode() for x in p.split(b"\0") if x}
                out.append((f.get("V", f.get("S")), f.get("C"), f.get("M")))
        return out

    def error(self):
        """(sqlstate, message) of the first ErrorResponse, or None."""
        f = self.error_fields()
        return (f.get("C"), f.get("M")) if f else None

    def error_fields(self):
        """The first ErrorResponse's fields by their code letter, or None."""
        for t, p in self.msgs:
            if t == "E":
                return {x[:1].decode(): x[1:].decode() for x in p.split(b"\0") if x}
        return None

    def tags(self):
        return [p.rstrip(b"\0").decode() for t, p in self.msgs if t == "C"]

    def raw_rows(self):
        """The DataRows' values as bytes (None for NULL): binary results."""
        rows = []
        for t, p in self.msgs:
            if t != "D":
                continue
            n, off, row = struct.unpack("!h", p[:2])[0], 2, []
            for _ in range(n):
                ln = struct.unpack("!i", p[off:off + 4])[0]
                off += 4
                row.append(None if ln < 0 else p[off:off + ln])
                off += max(ln, 0)
            rows.append(tuple(row))
        return rows

    def rows(self):
        """The DataRows' values as text (None for NULL)."""
        return [tuple(None if v is None else v.decode() for v in r) for r in self.raw_rows()]

    def copy_data(self):
        """The CopyData messages' bytes joined: a COPY TO STDOUT's output."""
        return b"".join(p for t, p in self.msgs if t == "d")

    def copy_response(self):
        """(overall format, per-column formats) of the CopyInResponse or
        CopyOutResponse, or None."""
        for t, p in self.msgs:
            if t in ("G", "H"):
                n = struct.unpack("!h", p[1:3])[0]
                return p[0], list(struct.unpack("!%dh" % n, p[3:3 + 2 * n]))
        return None

    def kinds(self):
        return "".join(t for t, _ in self.msgs)

    def param_oids(self):
        for t, p in self.msgs:
            if t == "t":
                n = struct.unpack("!h", p[:2])[0]
                return list(struct.unpack("!%dI" % n, p[2:2 + 4 * n]))
        return None

    def columns(self):
        for t, p in self.msgs:
            if t == "T":
                n, off, cols = struct.unpack("!h", p[:2])[0], 2, []
                for _ in range(n):
                    end = p.index(b"\0", off)
                    name = p[off:end].decode()
                    oid = struct.unpack("!I", p[end + 7:end + 11])[0]
                    cols.append((name, oid))
                    off = end + 19
                return cols
        return None


def connect_from_env():
    """A session on the server in PGHOST / PGPORT / PGUSER / PGDATABASE."""
    host = os.environ.get("PGHOST", "127.0.0.1")
    port = int(os.environ.get("PGPORT", "5433"))
    user = os.environ.get("PGUSER", "attu")
    dbname = os.environ.get("PGDATABASE", user)
    return Conn(host, port, user, dbname)
