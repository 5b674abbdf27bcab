/*
 * test_strbuf.c - engine/strbuf.c: appends of every kind, growth from
 * empty through many doublings, printf output longer than the room there
 * is, quoting, reset and steal, and an out-of-memory state that sticks
 * until reset and turns into 53200.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "engine/strbuf.h"

Test(strbuf, empty_steal_gives_empty_string) {
    attu_strbuf b = { 0 };
    attu_error err;
    attu_error_clear(&err);
    cr_assert_null(b.p);
    char *s = attu_strbuf_steal(&b, &err);
    cr_assert_not_null(s);
    cr_assert_str_eq(s, "");
    cr_assert_null(b.p);
    cr_assert_eq(b.n, 0);
    cr_assert_eq(err.set, 0);
    free(s);
}

Test(strbuf, appends) {
    attu_strbuf b = { 0 };
    cr_assert_eq(attu_strbuf_puts(&b, "abc"), 0);
    cr_assert_eq(attu_strbuf_add(&b, "defgh", 2), 0);
    cr_assert_eq(attu_strbuf_putc(&b, '!'), 0);
    cr_assert_eq(attu_strbuf_add(&b, "x", 0), 0);
    cr_assert_eq(attu_strbuf_printf(&b, " %d-%s", 42, "z"), 0);
    cr_assert_str_eq(b.p, "abcde! 42-z");
    cr_assert_eq(b.n, strlen("abcde! 42-z"));
    attu_strbuf_free(&b);
    cr_assert_null(b.p);
    cr_assert_eq(b.n, 0);
    cr_assert_eq(b.cap, 0);
}

Test(strbuf, embedded_nul_kept) {
    attu_strbuf b = { 0 };
    attu_strbuf_add(&b, "a\0b", 3);
    cr_assert_eq(b.n, 3);
    cr_assert_eq(memcmp(b.p, "a\0b", 4), 0);
    attu_strbuf_free(&b);
}

Test(strbuf, grows_byte_by_byte) {
    attu_strbuf b = { 0 };
    for (int i = 0; i < 100000; i++) cr_assert_eq(attu_strbuf_putc(&b, (char)('a' + i % 26)), 0);
    cr_assert_eq(b.n, 100000);
    cr_assert(b.cap > b.n);
    cr_assert_eq(b.p[b.n], '\0');
    for (int i = 0; i < 100000; i++) cr_assert_eq(b.p[i], (char)('a' + i % 26));
    attu_strbuf_free(&b);
}

Test(strbuf, printf_longer_than_room) {
    attu_strbuf b = { 0 };
    attu_strbuf_puts(&b, "x");
    char big[5000];
    memset(big, 'q', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    cr_assert_eq(attu_strbuf_printf(&b, "[%s]%d", big, 7), 0);
    cr_assert_eq(b.n, 1 + 1 + 4999 + 1 + 1);
    cr_assert_eq(b.p[0], 'x');
    cr_assert_eq(b.p[1], '[');
    cr_assert_eq(b.p[5001], ']');
    cr_assert_eq(b.p[5002], '7');
    cr_assert_eq(b.p[5003], '\0');
    /* and one that fits the room left */
    size_t before = b.n;
    attu_strbuf_printf(&b, "%s", "ok");
    cr_assert_str_eq(b.p + before, "ok");
    attu_strbuf_free(&b);
}

Test(strbuf, quoting) {
    attu_strbuf b = { 0 };
    attu_strbuf_quote_ident(&b, "a\"b\"\"");
    attu_strbuf_putc(&b, ' ');
    attu_strbuf_quote_literal(&b, "it's ''");
    attu_strbuf_putc(&b, ' ');
    attu_strbuf_quote_ident(&b, "");
    attu_strbuf_quote_literal(&b, "\"");
    cr_assert_str_eq(b.p, "\"a\"\"b\"\"\"\"\" 'it''s ''''' \"\"'\"'");
    attu_strbuf_free(&b);
}

Test(strbuf, reset_keeps_memory) {
    attu_strbuf b = { 0 };
    attu_strbuf_puts(&b, "hello world");
    char *mem = b.p;
    size_t cap = b.cap;
    attu_strbuf_reset(&b);
    cr_assert_eq(b.n, 0);
    cr_assert_str_eq(b.p, "");
    cr_assert_eq(b.p, mem);
    cr_assert_eq(b.cap, cap);
    attu_strbuf_puts(&b, "hi");
    cr_assert_str_eq(b.p, "hi");
    attu_strbuf_free(&b);
}

Test(strbuf, steal_hands_over_and_empties) {
    attu_strbuf b = { 0 };
    attu_error err;
    attu_error_clear(&err);
    attu_strbuf_puts(&b, "text");
    char *s = attu_strbuf_steal(&b, &err);
    cr_assert_str_eq(s, "text");
    cr_assert_null(b.p);
    cr_assert_eq(b.n, 0);
    cr_assert_eq(b.cap, 0);
    attu_strbuf_puts(&b, "again");
    cr_assert_str_eq(b.p, "again");
    free(s);
    attu_strbuf_free(&b);
}

Test(strbuf, out_of_memory_sticks_until_reset) {
    attu_strbuf b = { 0 };
    attu_error err;
    attu_error_clear(&err);
    attu_strbuf_puts(&b, "start");
    /* a length no allocation can meet */
    cr_assert_eq(attu_strbuf_add(&b, "x", (size_t)-1 - 2), -1);
    cr_assert(b.oom);
    cr_assert_str_eq(b.p, "start");   /* what was there is intact */
    cr_assert_eq(attu_strbuf_puts(&b, "more"), -1);
    cr_assert_eq(attu_strbuf_printf(&b, "%d", 1), -1);
    cr_assert_eq(attu_strbuf_quote_ident(&b, "q"), -1);
    cr_assert_str_eq(b.p, "start");
    cr_assert_eq(attu_strbuf_check(&b, &err), -1);
    cr_assert_str_eq(err.sqlstate, "53200");
    cr_assert_str_eq(err.message, "out of memory");
    attu_strbuf_reset(&b);
    cr_assert_not(b.oom);
    cr_assert_eq(attu_strbuf_puts(&b, "ok"), 0);
    cr_assert_str_eq(b.p, "ok");
    attu_strbuf_free(&b);
}

Test(strbuf, steal_after_out_of_memory) {
    attu_strbuf b = { 0 };
    attu_error err;
    attu_error_clear(&err);
    attu_strbuf_puts(&b, "start");
    attu_strbuf_add(&b, "x", (size_t)-1 / 2);
    cr_assert_null(attu_strbuf_steal(&b, &err));
    cr_assert_str_eq(err.sqlstate, "53200");
    cr_assert_null(b.p);
    cr_assert_not(b.oom);
}
