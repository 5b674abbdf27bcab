/*
 * test_pgwire_codec.c - the message decoder and encoder without sockets,
 * and the SCRAM-SHA-256 exchange against RFC 7677's test vector.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "server/auth_scram.h"
#include "server/pgwire_decode.h"
#include "server/pgwire_encode.h"

static size_t be_msg(char *out, char type, const char *payload, size_t n) {
    out[0] = type;
    uint32_t len = (uint32_t)n + 4;
    out[1] = (char)(len >> 24); out[2] = (char)(len >> 16);
    out[3] = (char)(len >> 8); out[4] = (char)len;
    memcpy(out + 5, payload, n);
    return n + 5;
}

Test(pgwire_decode, frames_complete_and_partial_messages) {
    char buf[64];
    size_t n = be_msg(buf, 'Q', "SELECT 1", 9);
    pg_frame f;
    size_t need;
    attu_error err = {0};
    for (size_t cut = 0; cut < n; cut++)
        cr_assert_eq(pg_frame_next(buf, cut, 1 << 20, &f, &need, &err), 0, "cut %zu", cut);
    cr_assert_eq(need, n);
    cr_assert_eq(pg_frame_next(buf, n, 1 << 20, &f, &need, &err), 1);
    cr_assert_eq(f.type, 'Q');
    cr_assert_eq(f.len, 9);
    cr_assert_eq(f.total, n);
    const char *sql;
    cr_assert_eq(pg_parse_query(f.payload, f.len, &sql, &err), 0);
    cr_assert_str_eq(sql, "SELECT 1");
}

Test(pgwire_decode, rejects_unknown_type_bad_length_and_oversize) {
    attu_error err = {0};
    pg_frame f;
    char buf[8] = { 'z', 0, 0, 0, 8 };
    cr_assert_eq(pg_frame_next(buf, 5, 100, &f, NULL, &err), -1);
    cr_assert_str_eq(err.sqlstate, "08P01");
    cr_assert(strstr(err.message, "invalid frontend message type"));
    attu_error e2 = {0};
    char bad[5] = { 'Q', 0, 0, 0, 3 };
    cr_assert_eq(pg_frame_next(bad, 5, 100, &f, NULL, &e2), -1);
    cr_assert_str_eq(e2.sqlstate, "08P01");
    attu_error e3 = {0};
    char big[5] = { 'Q', 0x10, 0, 0, 0 };
    cr_assert_eq(pg_frame_next(big, 5, 1000, &f, NULL, &e3), -1);
    cr_assert(strstr(e3.message, "exceeds the limit"));
}

Test(pgwire_decode, query_without_terminator_is_rejected) {
    attu_error err = {0};
    const char *sql;
    cr_assert_eq(pg_parse_query("SELECT", 6, &sql, &err), -1);
    cr_assert_str_eq(err.sqlstate, "08P01");
}

Test(pgwire_decode, startup_packet_parameters) {
    char pkt[128];
    const char body[] = "user\0alice\0database\0db1\0application_name\0t\0";
    uint32_t len = 8 + sizeof body;   /* includes the final NUL terminator */
    pkt[0] = 0; pkt[1] = 0; pkt[2] = (char)(len >> 8); pkt[3] = (char)len;
    pkt[4] = 0; pkt[5] = 3; pkt[6] = 0; pkt[7] = 0;
    memcpy(pkt + 8, body, sizeof body);
    size_t total;
    attu_error err = {0};
    cr_assert_eq(pg_startup_frame(pkt, len, &total, &err), 1);
    pg_startup st;
    cr_assert_eq(pg_startup_parse(pkt, total, &st, &err), 0, "%s", err.message);
    cr_assert_str_eq(st.user, "alice");
    cr_assert_str_eq(st.database, "db1");
    cr_assert_str_eq(st.application_name, "t");
    /* protocol 2.0 is refused */
    pkt[5] = 2;
    attu_error e2 = {0};
    cr_assert_eq(pg_startup_parse(pkt, total, &st, &e2), -1);
    cr_assert_str_eq(e2.sqlstate, "0A000");
}

Test(pgwire_decode, bind_with_null_and_values) {
    /* portal "", stmt "s", 1 format (text), 2 params: "42", NULL; 1 result format binary */
    char p[64];
    size_t n = 0;
    memcpy(p + n, "\0s\0", 3); n += 3;
    memcpy(p + n, "\0\1\0\0", 4); n += 4;
    memcpy(p + n, "\0\2", 2); n += 2;
    memcpy(p + n, "\0\0\0\2" "42", 6); n += 6;
    memcpy(p + n, "\xff\xff\xff\xff", 4); n += 4;
    memcpy(p + n, "\0\1\0\1", 4); n += 4;
    pg_bind_msg b;
    attu_error err = {0};
    cr_assert_eq(pg_parse_bind(p, n, &b, &err), 0, "%s", err.message);
    cr_assert_str_eq(b.stmt, "s");
    cr_assert_eq(b.nparams, 2);
    cr_assert_eq(b.param_lens[0], 2);
    cr_assert_eq(memcmp(b.param_vals[0], "42", 2), 0);
    cr_assert_null(b.param_vals[1]);
    cr_assert_eq(b.nresult_formats, 1);
    cr_assert_eq(b.result_formats[0], 1);
    pg_bind_msg_free(&b);
    /* every truncation fails cleanly */
    for (size_t cut = 0; cut < n; cut++) {
        attu_error e = {0};
        cr_assert_eq(pg_parse_bind(p, cut, &b, &e), -1, "cut %zu", cut);
        pg_bind_msg_free(&b);
    }
}

Test(pgwire_encode, error_response_fields) {
    pgbuf b;
    pgbuf_init(&b);
    attu_error e = {0};
    attu_error_set(&e, "42601", 8, "syntax error at or near \"x\"");
    pg_msg_error(&b, "ERROR", &e);
    cr_assert_eq(b.data[0], 'E');
    uint32_t len = ((uint8_t)b.data[1] << 24) | ((uint8_t)b.data[2] << 16) |
                   ((uint8_t)b.data[3] << 8) | (uint8_t)b.data[4];
    cr_assert_eq(len + 1, b.len);
    const char *want = "SERROR\0VERROR\0C42601\0Msyntax error at or near \"x\"\0P8\0";
    size_t wn = 53;   /* the fields with their NULs, before the final NUL */
    cr_assert_eq(b.len - 5, wn + 1);
    cr_assert_eq(memcmp(b.data + 5, want, wn), 0);
    cr_assert_eq(b.data[b.len - 1], 0);
    pgbuf_free(&b);
}

/* RFC 7677 section 3: user "user", password "pencil". */
Test(scram, rfc7677_exchange) {
    char path[] = "/tmp/attu_scram_usersXXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    const char line[] = "user:SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$"
                        "WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:"
                        "wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU=\n";
    cr_assert_eq(write(fd, line, sizeof line - 1), (ssize_t)(sizeof line - 1));
    close(fd);
    attu_error err = {0};
    scram_users *u = scram_users_load(path, &err);
    unlink(path);
    cr_assert_not_null(u, "%s", err.message);
    scram_state *s = scram_begin(u, "user");
    char *out = NULL;
    const char cf[] = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
    cr_assert_eq(scram_client_first(s, cf, strlen(cf), &out, &err), 0, "%s", err.message);
    cr_assert(!strncmp(out, "r=rOprNGfwEbeRWgbNEkqO", 22));
    cr_assert(strstr(out, ",s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"));
    free(out);
    /* a wrong proof fails with 28P01 */
    scram_free(s);
    s = scram_begin(u, "nobody");
    cr_assert_eq(scram_client_first(s, cf, strlen(cf), &out, &err), 0);
    const char *r = out + 2;
    char fin[256];
    snprintf(fin, sizeof fin, "c=biws,r=%.*s,p=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
             (int)strcspn(r, ","), r);
    free(out);
    attu_error e2 = {0};
    cr_assert_eq(scram_client_final(s, fin, strlen(fin), &out, &e2), -1);
    cr_assert_str_eq(e2.sqlstate, "28P01");
    scram_free(s);
    scram_users_free(u);
}
