/* Unit tests for engine/time_of_day.c: time and timetz text in and out
 * (expected values are PostgreSQL 15's), and the packed timetz whose
 * integer order must be PostgreSQL's timetz_cmp (by the UTC time, then
 * the offset, a larger west offset greater) for the BIGINT sorts, groups
 * and joins that handle it. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "engine/time_of_day.h"
#include "engine/timezone.h"

static int64_t tm(const char *s) {
    attu_error err;
    attu_error_clear(&err);
    int64_t v = -1;
    cr_assert_eq(attu_time_parse(s, strlen(s), &v, &err), 0, "%s: %s", s, err.message);
    return v;
}

static const char *shown(int64_t us) {
    static char buf[32];
    attu_time_format(us, buf, sizeof buf);
    return buf;
}

Test(time_of_day, input_forms) {
    cr_expect_eq(tm("12:34:56.789"), 45296789000);
    cr_expect_str_eq(shown(tm("1:2")), "01:02:00");
    cr_expect_str_eq(shown(tm("24:00")), "24:00:00");
    cr_expect_str_eq(shown(tm("23:59:60")), "24:00:00");
    cr_expect_str_eq(shown(tm("allballs")), "00:00:00");
    cr_expect_str_eq(shown(tm("04:05 PM")), "16:05:00");
    cr_expect_str_eq(shown(tm("040506")), "04:05:06");
    cr_expect_str_eq(shown(tm("2003-04-12 04:05:06")), "04:05:06");
    cr_expect_str_eq(shown(tm("04:05:06.789+05:30")), "04:05:06.789");
    cr_expect_str_eq(shown(tm("11:59:59.9999995")), "12:00:00");
    cr_expect_str_eq(shown(1), "00:00:00.000001");
}

Test(time_of_day, errors) {
    static const struct { const char *s; const char *state; } bad[] = {
        { "12", "22007" }, { "2003-04-12", "22007" }, { "epoch", "22007" }, { "-1:00", "22007" }, { "", "22007" },
        { "12:00:00 America/New_York", "22007" }, { "25:00", "22008" }, { "24:00:00.000001", "22008" },
        { "13:00 PM", "22008" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        attu_error err;
        attu_error_clear(&err);
        int64_t v;
        cr_expect_eq(attu_time_parse(bad[i].s, strlen(bad[i].s), &v, &err), -1, "%s", bad[i].s);
        cr_expect_str_eq(err.sqlstate, bad[i].state, "%s", bad[i].s);
    }
}

Test(time_of_day, timetz_pack_round_trips) {
    static const int64_t times[] = { 0, 1, 45296789000, 86400000000 };
    static const int32_t easts[] = { 0, 19800, -57599, 57599, -30, 45 * 60 };
    for (size_t i = 0; i < sizeof times / sizeof *times; i++)
        for (size_t j = 0; j < sizeof easts / sizeof *easts; j++) {
            int64_t us;
            int32_t east;
            attu_timetz_unpack(attu_timetz_pack(times[i], easts[j]), &us, &east);
            cr_expect_eq(us, times[i]);
            cr_expect_eq(east, easts[j]);
        }
}

Test(time_of_day, timetz_order_is_postgres) {
    /* 12:00+05 is 07:00 UTC, before 07:00+00 (the same UTC time, a
     * smaller west offset); 08:00+00 after both */
    int64_t a = attu_timetz_pack(12 * 3600000000LL, 5 * 3600), b = attu_timetz_pack(7 * 3600000000LL, 0),
            c = attu_timetz_pack(8 * 3600000000LL, 0);
    cr_expect_lt(a, b);
    cr_expect_lt(b, c);
    cr_expect_neq(a, b);
    /* the UTC time does not wrap: 23:00-02 (25:00 UTC) is after 00:00-15 */
    cr_expect_gt(attu_timetz_pack(23 * 3600000000LL, -2 * 3600), attu_timetz_pack(0, -15 * 3600));
}

Test(time_of_day, timetz_text) {
    attu_error err;
    attu_error_clear(&err);
    int64_t v;
    char buf[48];
    const char *s = "12:34:56.5-00:30:15";
    cr_assert_eq(attu_timetz_parse(s, strlen(s), attu_tz_utc(), &v, &err), 0, "%s", err.message);
    attu_timetz_format(v, buf, sizeof buf);
    cr_expect_str_eq(buf, "12:34:56.5-00:30:15");
    s = "2024-07-01 12:00 America/New_York";
    cr_assert_eq(attu_timetz_parse(s, strlen(s), attu_tz_utc(), &v, &err), 0, "%s", err.message);
    attu_timetz_format(v, buf, sizeof buf);
    cr_expect_str_eq(buf, "12:00:00-04");
    s = "12:00+16";
    cr_expect_eq(attu_timetz_parse(s, strlen(s), attu_tz_utc(), &v, &err), -1);
    cr_expect_str_eq(err.sqlstate, "22009");
}
