/* Unit tests for engine/timezone.c: zones of the system tz database read
 * from their TZif files (past the last listed transition by the file's
 * POSIX footer), POSIX TZ strings with their west-positive sign, fixed
 * offsets, and the wall time <-> instant conversions with DST gaps and
 * repeated hours. Expected offsets are PostgreSQL 15's (SELECT
 * timestamptz '...' under SET TIME ZONE, and EXTRACT(timezone ...)). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "engine/timezone.h"
#include "engine/types.h"

#define H 3600

/* seconds since 1970 of a UTC (or wall) date and time */
static int64_t at(int y, int mo, int d, int h, int mi) {
    return (int64_t)attu_date_from_ymd(y, mo, d) * 86400 + h * 3600 + mi * 60;
}

static int32_t off(const char *zone, int64_t utc) {
    const attu_tz *z = attu_tz_find(zone);
    cr_assert(z, "zone %s not found", zone);
    return attu_tz_offset_at(z, utc, NULL);
}

Test(timezone, utc_and_fixed) {
    cr_expect_eq(off("UTC", at(2024, 7, 1, 0, 0)), 0);
    cr_expect_str_eq(attu_tz_name(attu_tz_utc()), "UTC");
    cr_expect_eq(attu_tz_id(attu_tz_utc()), 0);
    const attu_tz *z = attu_tz_fixed(-3 * H);
    cr_assert(z);
    cr_expect_str_eq(attu_tz_name(z), "<-03>+03");
    cr_expect_eq(attu_tz_offset_at(z, 0, NULL), -3 * H);
    z = attu_tz_fixed(5 * H + 1800);
    cr_expect_str_eq(attu_tz_name(z), "<+05:30>-05:30");
    cr_expect_eq(attu_tz_offset_at(z, 0, NULL), 5 * H + 1800);
    /* the same offset is the same zone */
    cr_expect_eq(attu_tz_fixed(-3 * H), attu_tz_fixed(-3 * H));
}

Test(timezone, posix_sign_is_west) {
    cr_expect_eq(off("UTC+3", at(2024, 1, 1, 0, 0)), -3 * H);
    cr_expect_eq(off("+05:30", at(2024, 1, 1, 0, 0)), -(5 * H + 1800));   /* an empty name, as PostgreSQL */
    cr_expect_eq(off("<+0530>-5:30", at(2024, 1, 1, 0, 0)), 5 * H + 1800);
    /* a daylight name without rules takes the US rules */
    cr_expect_eq(off("XST5XDT", at(2024, 1, 15, 12, 0)), -5 * H);
    cr_expect_eq(off("XST5XDT", at(2024, 7, 15, 12, 0)), -4 * H);
    /* EU rules, and a southern one whose summer spans the new year */
    cr_expect_eq(off("CET-1CEST,M3.5.0,M10.5.0/3", at(2024, 3, 31, 0, 59)), 1 * H);
    cr_expect_eq(off("CET-1CEST,M3.5.0,M10.5.0/3", at(2024, 3, 31, 1, 0)), 2 * H);
    cr_expect_eq(off("CET-1CEST,M3.5.0,M10.5.0/3", at(2024, 10, 27, 0, 59)), 2 * H);
    cr_expect_eq(off("CET-1CEST,M3.5.0,M10.5.0/3", at(2024, 10, 27, 1, 0)), 1 * H);
    cr_expect_eq(off("AEST-10AEDT,M10.1.0,M4.1.0/3", at(2024, 1, 15, 0, 0)), 11 * H);
    cr_expect_eq(off("AEST-10AEDT,M10.1.0,M4.1.0/3", at(2024, 7, 15, 0, 0)), 10 * H);
    cr_expect_null(attu_tz_find("UTC+"));
    cr_expect_null(attu_tz_find("ABC+3XYZ,M13.1.0,M1.1.0"));
    cr_expect_null(attu_tz_find(""));
}

Test(timezone, tzif_files) {
    /* history, the present, and past the file's last transition (its footer) */
    cr_expect_eq(off("America/New_York", at(1850, 1, 1, 0, 0)), -(4 * H + 56 * 60 + 2));
    cr_expect_eq(off("America/New_York", at(2024, 1, 15, 12, 0)), -5 * H);
    cr_expect_eq(off("America/New_York", at(2024, 7, 15, 12, 0)), -4 * H);
    cr_expect_eq(off("America/New_York", at(2024, 3, 10, 6, 59)), -5 * H);
    cr_expect_eq(off("America/New_York", at(2024, 3, 10, 7, 0)), -4 * H);
    cr_expect_eq(off("America/New_York", at(2100, 7, 1, 12, 0)), -4 * H);
    cr_expect_eq(off("America/New_York", at(2100, 12, 1, 12, 0)), -5 * H);
    cr_expect_eq(off("Australia/Sydney", at(2024, 1, 15, 0, 0)), 11 * H);
    cr_expect_eq(off("Asia/Kathmandu", at(2024, 1, 15, 0, 0)), 5 * H + 45 * 60);
    cr_expect_eq(off("Europe/Moscow", at(2012, 7, 1, 0, 0)), 4 * H);   /* permanent summer time then */
    const char *ab = NULL;
    attu_tz_offset_at(attu_tz_find("Europe/Berlin"), at(2024, 7, 1, 0, 0), &ab);
    cr_expect_str_eq(ab, "CEST");
}

Test(timezone, names_any_case) {
    const attu_tz *z = attu_tz_find("america/new_york");
    cr_assert(z);
    cr_expect_str_eq(attu_tz_name(z), "America/New_York");
    cr_expect_eq(z, attu_tz_find("America/New_York"));
    cr_expect_eq(attu_tz_by_id(attu_tz_id(z)), z);
    cr_expect_null(attu_tz_find("Mars/Olympus"));
    cr_expect_null(attu_tz_find("../etc/passwd"));
    cr_expect_null(attu_tz_find("/etc/passwd"));
    cr_expect_null(attu_tz_find("zone.tab"));   /* a file of the database that is no TZif */
    cr_expect_eq(attu_tz_by_id(99999), attu_tz_utc());
}

Test(timezone, setting_and_at_forms) {
    cr_expect_str_eq(attu_tz_name(attu_tz_for_setting("-3")), "<-03>+03");
    cr_expect_str_eq(attu_tz_name(attu_tz_for_setting("5.5")), "<+05:30>-05:30");
    cr_expect_str_eq(attu_tz_name(attu_tz_for_setting("UTC+3")), "UTC+3");
    cr_expect_null(attu_tz_for_setting("1000"));
    cr_expect_null(attu_tz_for_setting("Nowhere/Land"));
    /* AT TIME ZONE reads abbreviations as fixed offsets, numbers as POSIX */
    cr_expect_eq(attu_tz_offset_at(attu_tz_for_at("EST"), at(2024, 7, 1, 0, 0), NULL), -5 * H);
    cr_expect_eq(attu_tz_offset_at(attu_tz_for_at("cest"), at(2024, 1, 1, 0, 0), NULL), 2 * H);
    cr_expect_eq(attu_tz_offset_at(attu_tz_for_at("-3"), 0, NULL), 3 * H);
    int32_t east;
    cr_expect(attu_tz_abbrev_offset("nst", &east));
    cr_expect_eq(east, -(3 * H + 1800));
    cr_expect_not(attu_tz_abbrev_offset("xyz", &east));
}

Test(timezone, wall_time_gaps_and_repeats) {
    const attu_tz *ny = attu_tz_find("America/New_York");
    /* 02:30 on the spring-forward day does not exist: read with the
     * offset before (-05), it is 07:30 UTC (03:30 EDT) */
    cr_expect_eq(attu_tz_offset_local(ny, at(2024, 3, 10, 2, 30)), -5 * H);
    cr_expect_eq(attu_tz_offset_local(ny, at(2024, 3, 10, 3, 0)), -4 * H);
    /* 01:30 on the fall-back day happens twice: the second (-05) */
    cr_expect_eq(attu_tz_offset_local(ny, at(2024, 11, 3, 1, 30)), -5 * H);
    cr_expect_eq(attu_tz_offset_local(ny, at(2024, 11, 3, 0, 59)), -4 * H);
    const attu_tz *be = attu_tz_find("Europe/Berlin");
    cr_expect_eq(attu_tz_offset_local(be, at(2024, 3, 31, 2, 30)), 1 * H);
    cr_expect_eq(attu_tz_offset_local(be, at(2024, 10, 27, 2, 30)), 1 * H);
    /* microseconds both ways; the infinities stay */
    int64_t us = at(2024, 7, 1, 12, 0) * 1000000 + 5;
    cr_expect_eq(attu_tz_to_local_us(ny, us), us - 4LL * H * 1000000);
    cr_expect_eq(attu_tz_from_local_us(ny, attu_tz_to_local_us(ny, us)), us);
    cr_expect_eq(attu_tz_to_local_us(ny, INT64_MAX), INT64_MAX);
    cr_expect_eq(attu_tz_from_local_us(ny, INT64_MIN), INT64_MIN);
}

Test(timezone, text_in_and_out) {
    const attu_tz *ny = attu_tz_find("America/New_York"), *ist = attu_tz_find("Asia/Kolkata");
    int64_t v;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_timestamptz_parse("2024-03-10 02:30", 16, ny, &v, &err), 0, "%s", err.message);
    char buf[80];
    attu_timestamptz_format(v, ny, buf, sizeof buf);
    cr_expect_str_eq(buf, "2024-03-10 03:30:00-04");
    attu_timestamptz_format(v, ist, buf, sizeof buf);
    cr_expect_str_eq(buf, "2024-03-10 13:00:00+05:30");
    cr_assert_eq(attu_timestamptz_parse("1850-01-01 00:00", 16, ny, &v, &err), 0);
    attu_timestamptz_format(v, ny, buf, sizeof buf);
    cr_expect_str_eq(buf, "1850-01-01 00:00:00-04:56:02");
    const char *named = "2024-07-01 12:00 Europe/Berlin";
    cr_assert_eq(attu_timestamptz_parse(named, strlen(named), ny, &v, &err), 0);
    attu_timestamptz_format(v, NULL, buf, sizeof buf);
    cr_expect_str_eq(buf, "2024-07-01 10:00:00+00");
    const char *bc = "0044-03-15 12:00:00+00 BC";
    cr_assert_eq(attu_timestamptz_parse(bc, strlen(bc), NULL, &v, &err), 0);
    attu_timestamptz_format(v, NULL, buf, sizeof buf);
    cr_expect_str_eq(buf, "0044-03-15 12:00:00+00 BC");
    const char *bad = "2024-07-01 12:00 Mars/Olympus";
    cr_expect_neq(attu_timestamptz_parse(bad, strlen(bad), NULL, &v, &err), 0);
    cr_expect_str_eq(err.sqlstate, "22023");
}
