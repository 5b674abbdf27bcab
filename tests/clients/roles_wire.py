#!/usr/bin/env python3
"""roles_wire.py - created roles logging in, against a server in PGHOST /
PGPORT / PGUSER / PGDATABASE (protocol_script.sh runs it on PostgreSQL 15
and on attud, which must agree; attu's roles: db/db_role.c):

  - a NOLOGIN role is refused at startup: 28000 "role ... is not
    permitted to log in";
  - a LOGIN role's session is that role (current_user, session_user,
    pg_roles), may change its own password, and without CREATEROLE may
    not create, alter or drop other roles (42501);
  - the first session (a superuser) sees what the second one changed;
  - SET SESSION AUTHORIZATION reports session_authorization; a role that
    is no superuser may not be another user (42501) and may SET ROLE only
    to a role it is a member of; a role dropped while another session's
    SET ROLE names it has no privileges there."""
import os
import struct

from pgwire_client import Conn, connect_from_env
from wire_checks import expect, finish, ok, sqlstate, val

host = os.environ.get("PGHOST", "127.0.0.1")
port = int(os.environ.get("PGPORT", "5433"))
dbname = os.environ.get("PGDATABASE", os.environ.get("PGUSER", "attu"))


def startup_error(user):
    """The SQLSTATE and message a startup as user ends with, or None."""
    try:
        c = Conn(host, port, user, dbname)
    except SystemExit:
        return "closed"
    c.s.close()
    return None


def raw_startup_error(user):
    """Like startup_error, reading the ErrorResponse's fields."""
    import socket
    if host.startswith("/"):
        s = socket.socket(socket.AF_UNIX)
        s.connect(os.path.join(host, ".s.PGSQL.%d" % port))
    else:
        s = socket.create_connection((host, port))
    params = b"user\0" + user.encode() + b"\0database\0" + dbname.encode() + b"\0\0"
    body = struct.pack("!i", 196608) + params
    s.sendall(struct.pack("!i", len(body) + 4) + body)
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    off = 0
    while off + 5 <= len(data):
        t = data[off:off + 1]
        n = struct.unpack("!i", data[off + 1:off + 5])[0]
        p = data[off + 5:off + 1 + n]
        off += 1 + n
        if t == b"E":
            fields = {}
            for f in p.split(b"\0"):
                if f:
                    fields[f[:1].decode()] = f[1:].decode()
            return fields.get("C"), fields.get("M")
    return None


a = connect_from_env()
a.query("DROP ROLE IF EXISTS rw_nologin, rw_login")
ok(a, "CREATE ROLE rw_nologin")
ok(a, "CREATE ROLE rw_login LOGIN")

expect("a NOLOGIN role is refused", raw_startup_error("rw_nologin"),
       ("28000", 'role "rw_nologin" is not permitted to log in'))

b = Conn(host, port, "rw_login", dbname)
expect("current_user", val(b, "SELECT current_user"), "rw_login")
expect("session_user", val(b, "SELECT session_user"), "rw_login")
expect("pg_roles shows it", val(b, "SELECT rolcanlogin FROM pg_roles WHERE rolname = 'rw_login'"), "t")
expect("its own password", sqlstate(b, "ALTER ROLE rw_login PASSWORD 'secret'"), None)
expect("CREATE ROLE without CREATEROLE", sqlstate(b, "CREATE ROLE rw_other"), "42501")
expect("ALTER ROLE of another", sqlstate(b, "ALTER ROLE rw_nologin LOGIN"), "42501")
expect("DROP ROLE without CREATEROLE", sqlstate(b, "DROP ROLE rw_nologin"), "42501")
expect("GRANT without ADMIN OPTION", sqlstate(b, "GRANT rw_nologin TO rw_login"), "42501")
b.s.close()

expect("the password was set", val(a, "SELECT rolpassword LIKE 'SCRAM-SHA-256$%' FROM pg_authid WHERE rolname = 'rw_login'"), "t")
ok(a, "ALTER ROLE rw_login CREATEROLE")
b = Conn(host, port, "rw_login", dbname)
expect("CREATE ROLE with CREATEROLE", sqlstate(b, "CREATE ROLE rw_other"), None)
expect("CREATEROLE grants roles", sqlstate(b, "GRANT rw_other TO rw_nologin"), None)
expect("CREATEROLE makes no superuser", sqlstate(b, "CREATE ROLE rw_super SUPERUSER"), "42501")
expect("DROP ROLE with CREATEROLE", sqlstate(b, "DROP ROLE rw_other"), None)
b.s.close()

# SET SESSION AUTHORIZATION: the ParameterStatus session_authorization
# follows it (PostgreSQL reports the setting); a role that connected as
# no superuser may not be another user, and may SET ROLE only to a role it
# is a member of


def reported(reply, name):
    """The value of the ParameterStatus name in reply, or None."""
    for t, p in reply.msgs:
        if t == "S":
            k, v = p.split(b"\0")[:2]
            if k.decode() == name:
                return v.decode()
    return None


r = a.query("SET SESSION AUTHORIZATION rw_login")
expect("SET SESSION AUTHORIZATION reports it", reported(r, "session_authorization"), "rw_login")
expect("and is_superuser", reported(r, "is_superuser"), "off")
expect("session_user after it", val(a, "SELECT session_user"), "rw_login")
r = a.query("RESET SESSION AUTHORIZATION")
expect("RESET SESSION AUTHORIZATION reports it", reported(r, "session_authorization") not in (None, "rw_login"), True)
b = Conn(host, port, "rw_login", dbname)
expect("a role that is no superuser: is_superuser at startup", b.startup_params.get("is_superuser"), "off")
expect("the superuser's session: is_superuser at startup", a.startup_params.get("is_superuser"), "on")
expect("no superuser: SET SESSION AUTHORIZATION", sqlstate(b, "SET SESSION AUTHORIZATION rw_nologin"), "42501")
expect("no member: SET ROLE", sqlstate(b, "SET ROLE rw_nologin"), "42501")
ok(a, "GRANT rw_nologin TO rw_login")
expect("a member: SET ROLE", sqlstate(b, "SET ROLE rw_nologin"), None)
expect("current_user after SET ROLE", val(b, "SELECT current_user"), "rw_nologin")
expect("session_user after SET ROLE", val(b, "SELECT session_user"), "rw_login")
b.s.close()

# a role dropped by another session while SET ROLE names it has no
# privileges left (attu fell back to the bootstrap superuser)
ok(a, "CREATE ROLE rw_gone")
c = connect_from_env()
ok(c, "SET ROLE rw_gone")
ok(a, "DROP ROLE rw_gone")
expect("a dropped current role: CREATE ROLE", sqlstate(c, "CREATE ROLE rw_other2"), "42501")
expect("RESET ROLE after it", sqlstate(c, "RESET ROLE"), None)
expect("the session user again", val(c, "SELECT current_user = session_user"), "t")
c.s.close()

ok(a, "DROP ROLE rw_nologin, rw_login")
finish("roles_wire")
