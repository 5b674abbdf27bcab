/* Unit tests for engine/interval.c: interval text as PostgreSQL 15's
 * interval_in reads it and timestamp + interval as its
 * timestamp_pl_interval computes it. Every expected value is PostgreSQL
 * 15's answer to SELECT 'text'::interval (printed in the comment) or to
 * SELECT timestamp 'a' + interval 'b'. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "engine/interval.h"
#include "engine/types.h"

#define H 3600000000LL
#define MIN 60000000LL
#define S 1000000LL

static void expect(const char *text, int32_t months, int32_t days, int64_t usec) {
    attu_interval iv;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_interval_parse(text, strlen(text), &iv, &err), 0, "'%s' failed: %s", text, err.message);
    cr_expect_eq(iv.months, months, "'%s': months %d, want %d", text, iv.months, months);
    cr_expect_eq(iv.days, days, "'%s': days %d, want %d", text, iv.days, days);
    cr_expect_eq(iv.usec, usec, "'%s': usec %lld, want %lld", text, (long long)iv.usec, (long long)usec);
}

static void expect_error(const char *text, const char *sqlstate) {
    attu_interval iv;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_neq(attu_interval_parse(text, strlen(text), &iv, &err), 0, "'%s' was accepted", text);
    cr_expect_str_eq(err.sqlstate, sqlstate, "'%s': %s %s", text, err.sqlstate, err.message);
}

Test(interval, postgres_style_units) {
    expect("1 day", 0, 1, 0);
    expect("6 hours", 0, 0, 6 * H);
    expect("250 milliseconds", 0, 0, 250000);
    expect("3 mons", 3, 0, 0);
    expect("1 yr 2 mon", 14, 0, 0);                 /* 1 year 2 mons */
    expect("1 week 2 days", 0, 9, 0);               /* 9 days */
    expect("2 decades", 240, 0, 0);                 /* 20 years */
    expect("1 century", 1200, 0, 0);                /* 100 years */
    expect("1 millennium", 12000, 0, 0);            /* 1000 years */
    expect("@ 3 hours", 0, 0, 3 * H);
    expect("10", 0, 0, 10 * S);                     /* 00:00:10 */
    expect("1.5", 0, 0, 1500000);                   /* 00:00:01.5 */
    expect("1 DAY 2 Hours", 0, 1, 2 * H);
}

Test(interval, fractions_spill_down) {
    expect("1.5 years", 18, 0, 0);                  /* 1 year 6 mons */
    expect("1.5 months", 1, 15, 0);                 /* 1 mon 15 days */
    expect("1.5 days", 0, 1, 12 * H);               /* 1 day 12:00:00 */
    expect(".5 day", 0, 0, 12 * H);                 /* 12:00:00 */
    expect("0.5 weeks", 0, 3, 12 * H);              /* 3 days 12:00:00 */
}

Test(interval, times_signs_and_ago) {
    expect("1:30", 0, 0, 90 * MIN);                 /* 01:30:00 */
    expect("-1:30:15.5", 0, 0, -(90 * MIN + 15 * S + 500000));
    expect("1 day 12:30", 0, 1, 12 * H + 30 * MIN);
    expect("1 day -02:00", 0, 1, -2 * H);           /* 1 day -02:00:00 */
    expect("1 day ago", 0, -1, 0);                  /* -1 days */
    expect("-1 day 2 hours ago", 0, 1, -2 * H);     /* 1 day -02:00:00 */
    expect("2 days ago", 0, -2, 0);
}

Test(interval, sql_standard_and_iso_8601) {
    expect("1-2", 14, 0, 0);                        /* 1 year 2 mons */
    expect("-1-2", -14, 0, 0);                      /* -1 years -2 mons */
    expect("1 2:03:04", 0, 1, 2 * H + 3 * MIN + 4 * S);
    expect("P1D", 0, 1, 0);
    expect("P1Y2M3DT4H5M6S", 14, 3, 4 * H + 5 * MIN + 6 * S);
    expect("PT1.5H", 0, 0, 90 * MIN);
    expect("P1W", 0, 7, 0);
    expect("P1.5D", 0, 1, 12 * H);
    expect("P0.5M", 0, 15, 0);
    expect("PT", 0, 0, 0);
}

/* PostgreSQL 15 reads these, surprising as they are: "ago" anywhere and
 * more than once, a lone "." as zero seconds, punctuation as a separator,
 * a unit word twice, a fraction lost to a time field read after it */
Test(interval, lenient_like_postgres) {
    expect("1 day ago ago", 0, -1, 0);              /* -1 days */
    expect("ago 1 day", 0, -1, 0);                  /* -1 days */
    expect(".", 0, 0, 0);                           /* 00:00:00 */
    expect("1,day", 0, 1, 0);                       /* 1 day */
    expect("1 days days", 0, 1, 0);                 /* 1 day */
    expect("days 1", 0, 0, S);                      /* 00:00:01 */
    expect("10:00 1.5 d", 0, 1, 10 * H);            /* 1 day 10:00:00 */
    expect("1.5 d 10:00", 0, 1, 22 * H);            /* 1 day 22:00:00 */
    expect("1:30.5", 0, 0, 90 * S + 500000);        /* 00:01:30.5 */
    expect("1:59:60", 0, 0, 2 * H);                 /* 02:00:00 */
    expect("0:0:0.0000015", 0, 0, 2);               /* 00:00:00.000002 */
    expect("1.0000015 s", 0, 0, S + 1);             /* 00:00:01.000001 */
    expect("2147483648 s", 0, 0, 2147483648LL * S);  /* 596523:14:08 */
}

Test(interval, bad_text) {
    expect_error("1 hour 2 hours", "22007");        /* a unit twice */
    expect_error("1 hour 10:00", "22007");
    expect_error("1.5 sec 10 ms", "22007");         /* a fraction of a second is its ms too */
    expect_error("1-2 3 mons", "22007");
    expect_error("1 ago", "22007");
    expect_error("1 2:03 4", "22007");
    expect_error("p1d", "22007");                   /* ISO 8601 wants a capital P */
    expect_error("2147483647 years", "22008");      /* months past int32: interval out of range */
    expect_error("-2147483648 days ago", "22015");
    expect_error("1:59:61", "22015");
    expect_error("", "22007");
    expect_error("   ", "22007");
    expect_error("1 fortnight", "22007");
    expect_error("1 2", "22007");
    expect_error("1e3 days", "22007");
    expect_error("1:99", "22015");     /* a minute past 59, as PostgreSQL */
    expect_error("P", "22007");
    expect_error("P1H", "22007");
    expect_error("-", "22007");
    expect_error("99999999999 years", "22015");
}

static int64_t ts(int y, int m, int d, int hh, int mm) {
    return ((int64_t)attu_date_from_ymd(y, m, d) * 24 * 60 + hh * 60 + mm) * 60 * S;
}

Test(interval, timestamp_plus_interval) {
    int64_t out;
    attu_interval month = { 1, 0, 0 }, day = { 0, 1, 0 }, mixed = { 1, 15, 0 }, back = { -1, 0, 0 };
    /* the month first, clamped to the month's last day */
    cr_assert_eq(attu_timestamp_add_interval(ts(2020, 1, 31, 0, 0), month, &out), 0);
    cr_expect_eq(out, ts(2020, 2, 29, 0, 0));
    cr_assert_eq(attu_timestamp_add_interval(ts(2021, 1, 31, 10, 30), month, &out), 0);
    cr_expect_eq(out, ts(2021, 2, 28, 10, 30));
    cr_assert_eq(attu_timestamp_add_interval(ts(2020, 3, 31, 0, 0), back, &out), 0);
    cr_expect_eq(out, ts(2020, 2, 29, 0, 0));
    cr_assert_eq(attu_timestamp_add_interval(ts(2000, 12, 15, 0, 0), month, &out), 0);
    cr_expect_eq(out, ts(2001, 1, 15, 0, 0));
    /* then the days: 2000-01-31 + 1 mon 15 days = 2000-03-15 */
    cr_assert_eq(attu_timestamp_add_interval(ts(2000, 1, 31, 0, 0), mixed, &out), 0);
    cr_expect_eq(out, ts(2000, 3, 15, 0, 0));
    cr_assert_eq(attu_timestamp_add_interval(ts(1999, 12, 31, 23, 0), day, &out), 0);
    cr_expect_eq(out, ts(2000, 1, 1, 23, 0));
    /* BC years: 2 BC is astronomical year -1 */
    cr_assert_eq(attu_timestamp_add_interval(ts(-1, 12, 31, 0, 0), day, &out), 0);
    cr_expect_eq(out, ts(0, 1, 1, 0, 0));
    /* past the end of the range */
    attu_interval far = { 12 * 300000, 0, 0 };
    cr_expect_neq(attu_timestamp_add_interval(ts(2000, 1, 1, 0, 0), far, &out), 0);
    attu_interval huge_back = { 0, -2000000000, 0 };
    cr_expect_neq(attu_timestamp_add_interval(ts(2000, 1, 1, 0, 0), huge_back, &out), 0);
}

Test(interval, sign) {
    cr_expect_eq(attu_interval_sign((attu_interval){ 0, 0, 0 }), 0);
    cr_expect_eq(attu_interval_sign((attu_interval){ 1, -29, 0 }), 1);     /* 30 days less 29 */
    cr_expect_eq(attu_interval_sign((attu_interval){ 1, -30, 0 }), 0);
    cr_expect_eq(attu_interval_sign((attu_interval){ 0, 0, -1 }), -1);
    cr_expect_eq(attu_interval_sign((attu_interval){ 0, 1, -86400000001LL }), -1);
}

/* IntervalStyle postgres, as PostgreSQL 15 prints SELECT interval '...' */
static void expect_format(attu_interval iv, const char *want) {
    char buf[96];
    size_t n = attu_interval_format(iv, buf, sizeof buf);
    cr_expect_str_eq(buf, want);
    cr_expect_eq(n, strlen(want));
}

Test(interval, format) {
    expect_format((attu_interval){ 0, 0, 0 }, "00:00:00");
    expect_format((attu_interval){ 14, 3, 4 * H + 5 * MIN + 6 * S + 500000 }, "1 year 2 mons 3 days 04:05:06.5");
    expect_format((attu_interval){ 0, -1, 2 * H }, "-1 days +02:00:00");
    expect_format((attu_interval){ 1, -1, 0 }, "1 mon -1 days");
    expect_format((attu_interval){ -1, 1, 0 }, "-1 mons +1 day");
    expect_format((attu_interval){ 0, 1, -S }, "1 day -00:00:01");
    expect_format((attu_interval){ -12, 0, 0 }, "-1 years");
    expect_format((attu_interval){ 0, 0, 36 * H }, "36:00:00");
    expect_format((attu_interval){ 0, 0, 100 }, "00:00:00.0001");
    /* the widest: every field at its minimum */
    expect_format((attu_interval){ INT32_MIN, INT32_MIN, INT64_MIN },
                  "-178956970 years -8 mons -2147483648 days -2562047788:00:54.775808");
}

Test(interval, compare_by_span) {
    cr_expect_eq(attu_interval_cmp((attu_interval){ 1, 0, 0 }, (attu_interval){ 0, 30, 0 }), 0);
    cr_expect_eq(attu_interval_cmp((attu_interval){ 0, 1, 0 }, (attu_interval){ 0, 0, 24 * H }), 0);
    cr_expect_eq(attu_interval_cmp((attu_interval){ 12, 0, 0 }, (attu_interval){ 0, 365, 0 }), -1);
    cr_expect_eq(attu_interval_cmp((attu_interval){ INT32_MAX, INT32_MAX, INT64_MAX },
                                   (attu_interval){ INT32_MIN, INT32_MIN, INT64_MIN }), 1);
}

Test(interval, arithmetic) {
    attu_interval r;
    attu_error err;
    attu_error_clear(&err);
    /* interval '1 mon' * 1.5 = 1 mon 15 days; interval '1 day' / 7 = 03:25:42.857143 */
    cr_assert_eq(attu_interval_mul((attu_interval){ 1, 0, 0 }, 1.5, &r, &err), 0);
    cr_expect(r.months == 1 && r.days == 15 && r.usec == 0);
    cr_assert_eq(attu_interval_div((attu_interval){ 0, 1, 0 }, 7, &r, &err), 0);
    cr_expect(r.months == 0 && r.days == 0 && r.usec == 12342857143LL);
    cr_expect_neq(attu_interval_div((attu_interval){ 0, 1, 0 }, 0, &r, &err), 0);
    cr_expect_str_eq(err.sqlstate, "22012");
    attu_error_clear(&err);
    cr_expect_neq(attu_interval_add((attu_interval){ INT32_MAX, 0, 0 }, (attu_interval){ 1, 0, 0 }, &r, &err), 0);
    cr_expect_str_eq(err.sqlstate, "22008");
    attu_error_clear(&err);
    /* justify_interval('1 mon -1 hour') = 29 days 23:00:00 */
    cr_assert_eq(attu_interval_justify((attu_interval){ 1, 0, -H }, 3, &r, &err), 0);
    cr_expect(r.months == 0 && r.days == 29 && r.usec == 23 * H);
    /* timestamp '2024-01-02' - timestamp '2024-01-01 01:00' = 23:00:00 */
    cr_assert_eq(attu_timestamp_diff(ts(2024, 1, 2, 0, 0), ts(2024, 1, 1, 1, 0), &r, &err), 0);
    cr_expect(r.months == 0 && r.days == 0 && r.usec == 23 * H);
    /* age('2024-03-01', '2024-01-31') = 1 mon 1 day */
    cr_assert_eq(attu_timestamp_age(ts(2024, 3, 1, 0, 0), ts(2024, 1, 31, 0, 0), &r, &err), 0);
    cr_expect(r.months == 1 && r.days == 1 && r.usec == 0);
}
