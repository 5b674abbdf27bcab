/*
 * test_setting_catalog.c - engine/setting_catalog.h: the table is in
 * pg_settings' order (names without case) with consistent entries,
 * lookup in any case, and the checks of values with PostgreSQL's
 * messages: Booleans and their prefixes, integers in range with time
 * and memory units (rounded, the largest unit that divides written
 * back), enums in
 * any case with the HINT of their values.
 */
#include <criterion/criterion.h>
#include <string.h>
#include <strings.h>

#include "engine/setting_catalog.h"

static const char *checked(const char *name, const char *value) {
    static char out[128];
    attu_error err;
    attu_error_clear(&err);
    const attu_setting_def *d = attu_setting_find(name);
    cr_assert_not_null(d, "%s", name);
    cr_assert_eq(attu_setting_check(d, value, out, sizeof out, &err), 0, "%s = %s: %s", name, value, err.message);
    return out;
}

static attu_error refused(const char *name, const char *value) {
    char out[128];
    attu_error err;
    attu_error_clear(&err);
    const attu_setting_def *d = attu_setting_find(name);
    cr_assert_not_null(d, "%s", name);
    cr_assert_eq(attu_setting_check(d, value, out, sizeof out, &err), -1, "%s = %s was taken", name, value);
    cr_assert_str_eq(err.sqlstate, "22023");
    return err;
}

Test(setting_catalog, table_in_order_and_consistent) {
    for (size_t i = 0; i < attu_nsettings; i++) {
        const attu_setting_def *d = &attu_settings[i];
        if (i) cr_assert_lt(strcasecmp(attu_settings[i - 1].name, d->name), 0, "%s after %s", d->name, attu_settings[i - 1].name);
        cr_assert(d->short_desc && d->category && d->context);
        cr_assert_eq(d->type == ATTU_SETTING_ENUM, d->enumvals != NULL, "%s", d->name);
        char out[128];
        attu_error err;
        attu_error_clear(&err);
        /* every default is a value its own check takes, unchanged */
        if (strcmp(d->name, "session_authorization") != 0) {
            cr_assert_eq(attu_setting_check(d, d->value, out, sizeof out, &err), 0, "%s: %s", d->name, err.message);
            cr_assert_str_eq(out, d->value, "%s", d->name);
        }
    }
}

Test(setting_catalog, find_in_any_case) {
    cr_assert_str_eq(attu_setting_find("datestyle")->name, "DateStyle");
    cr_assert_str_eq(attu_setting_find("TIMEZONE")->name, "TimeZone");
    cr_assert_null(attu_setting_find("no_such_setting"));
    cr_assert(attu_setting_is_custom("myapp.mode"));
    cr_assert(!attu_setting_is_custom("search_path"));
    cr_assert_null(attu_setting_boot(attu_setting_find("timezone_abbreviations")));
    cr_assert_str_eq(attu_setting_boot(attu_setting_find("TimeZone")), "GMT");
    cr_assert_str_eq(attu_setting_boot(attu_setting_find("bytea_output")), "hex");
}

Test(setting_catalog, booleans) {
    cr_assert_str_eq(checked("row_security", "true"), "on");
    cr_assert_str_eq(checked("row_security", "T"), "on");
    cr_assert_str_eq(checked("row_security", "ye"), "on");
    cr_assert_str_eq(checked("row_security", "1"), "on");
    cr_assert_str_eq(checked("row_security", "ON"), "on");
    cr_assert_str_eq(checked("row_security", "of"), "off");
    cr_assert_str_eq(checked("row_security", "n"), "off");
    cr_assert_str_eq(checked("row_security", "fals"), "off");
    attu_error e = refused("row_security", "o");
    cr_assert_str_eq(e.message, "parameter \"row_security\" requires a Boolean value");
    refused("row_security", "");
    refused("row_security", "2");
    refused("row_security", "truee");
}

Test(setting_catalog, integers_and_time_units) {
    cr_assert_str_eq(checked("statement_timeout", "5000"), "5s");
    cr_assert_str_eq(checked("statement_timeout", "1500"), "1500ms");
    cr_assert_str_eq(checked("statement_timeout", "1.5s"), "1500ms");
    cr_assert_str_eq(checked("statement_timeout", "90 s"), "90s");
    cr_assert_str_eq(checked("statement_timeout", "2min"), "2min");
    cr_assert_str_eq(checked("statement_timeout", "120s"), "2min");
    cr_assert_str_eq(checked("statement_timeout", "86400000"), "1d");
    cr_assert_str_eq(checked("statement_timeout", "2000us"), "2ms");
    cr_assert_str_eq(checked("statement_timeout", "100.6"), "101ms");
    cr_assert_str_eq(checked("statement_timeout", "0"), "0");
    cr_assert_str_eq(checked("extra_float_digits", "-15"), "-15");
    attu_error e = refused("statement_timeout", "5S");
    cr_assert_str_eq(e.message, "invalid value for parameter \"statement_timeout\": \"5S\"");
    cr_assert(strstr(e.hint, "\"min\""));
    e = refused("statement_timeout", "-1");
    cr_assert_str_eq(e.message, "-1 ms is outside the valid range for parameter \"statement_timeout\" (0 .. 2147483647)");
    e = refused("extra_float_digits", "4");
    cr_assert_str_eq(e.message, "4 is outside the valid range for parameter \"extra_float_digits\" (-15 .. 3)");
    e = refused("statement_timeout", "99999999999");
    cr_assert_str_eq(e.hint, "Value exceeds integer range.");
    refused("extra_float_digits", "1s");   /* no unit for a unitless one */
    refused("extra_float_digits", "x");
    /* sizes in kB: B, kB, MB, GB, TB */
    cr_assert_str_eq(checked("work_mem", "4096"), "4MB");
    cr_assert_str_eq(checked("work_mem", "1000"), "1000kB");
    cr_assert_str_eq(checked("work_mem", "1GB"), "1GB");
    cr_assert_str_eq(checked("work_mem", "1048576B"), "1MB");
    e = refused("work_mem", "1mb");
    cr_assert_str_eq(e.hint, "Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".");
    e = refused("work_mem", "10");
    cr_assert_str_eq(e.message, "10 kB is outside the valid range for parameter \"work_mem\" (64 .. 2147483647)");
    char raw[32];
    const attu_setting_def *st = attu_setting_find("statement_timeout");
    cr_assert_str_eq(attu_setting_raw(st, "5s", raw, sizeof raw), "5000");
    cr_assert_str_eq(attu_setting_raw(st, "1d", raw, sizeof raw), "86400000");
    cr_assert_str_eq(attu_setting_raw(attu_setting_find("work_mem"), "4MB", raw, sizeof raw), "4096");
    cr_assert_str_eq(attu_setting_raw(attu_setting_find("search_path"), "a, b", raw, sizeof raw), "a, b");
}

Test(setting_catalog, enums) {
    cr_assert_str_eq(checked("bytea_output", "ESCAPE"), "escape");
    cr_assert_str_eq(checked("default_transaction_isolation", "Repeatable Read"), "repeatable read");
    attu_error e = refused("bytea_output", "base64");
    cr_assert_str_eq(e.message, "invalid value for parameter \"bytea_output\": \"base64\"");
    cr_assert_str_eq(e.hint, "Available values: escape, hex.");
    refused("IntervalStyle", "iso");   /* a prefix is not a value */
}
