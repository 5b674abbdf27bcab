/*
 * setting_catalog.c - the settings attu knows and the checks of their
 * values (see setting_catalog.h).
 *
 * The table's text (categories, descriptions, contexts, ranges, enum
 * values) is PostgreSQL 15's for the same setting, so pg_settings and SHOW
 * ALL read as PostgreSQL's; value is what attu has, which differs from
 * PostgreSQL's compiled-in value (boot) for a few (client_encoding UTF8
 * where PostgreSQL starts from SQL_ASCII, TimeZone UTC). Most of them do
 * not change how attu works (docs/sql-reference.md, "SET, SHOW, RESET"):
 * they are here because clients read and set them.
 */
#include "engine/setting_catalog.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* boot_val NULL in pg_settings (PostgreSQL leaves it unset) */
static const char ATTU_SETTING_BOOT_NULL[] = "\001null";

const attu_setting_def attu_settings[] = {
    { "application_name", "", ATTU_SETTING_STRING, "user", NULL, 0, 0, NULL, "Reporting and Logging / What to Log", "Sets the application name to be reported in statistics and logs.", NULL, NULL, false },
{ "array_nulls", "on", ATTU_SETTING_BOOL, "user", NULL, 0, 0, NULL, "Version and Platform Compatibility / Previous PostgreSQL Versions", "Enable input of NULL elements in arrays.", "When turned on, unquoted NULL in an array input value means a null value; otherwise it is taken literally.", NULL, false },
    /* attu's own: the rows a WITH RECURSIVE may produce (0: no limit) */
    { "attu.max_recursive_rows", "10000000", ATTU_SETTING_INTEGER, "user", NULL, 0, INT64_MAX, NULL, "Customized Options", "Sets the most rows a WITH RECURSIVE query may produce.", "A value of 0 turns off the limit.", NULL, false },
    { "block_size", "8192", ATTU_SETTING_INTEGER, "internal", NULL, 8192, 8192, NULL, "Preset Options", "Shows the size of a disk block.", NULL, NULL, false },
    { "bytea_output", "hex", ATTU_SETTING_ENUM, "user", NULL, 0, 0, "escape,hex", "Client Connection Defaults / Statement Behavior", "Sets the output format for bytea.", NULL, NULL, false },
    { "check_function_bodies", "on", ATTU_SETTING_BOOL, "user", NULL, 0, 0, NULL, "Client Connection Defaults / Statement Behavior", "Check routine bodies during CREATE FUNCTION and CREATE PROCEDURE.", NULL, NULL, false },
    { "client_encoding", "UTF8", ATTU_SETTING_STRING, "user", NULL, 0, 0, NULL, "Client Connection Defaults / Locale and Formatting", "Sets the client's character set encoding.", NULL, "SQL_ASCII", false },
    { "client_min_messages", "notice", ATTU_SETTING_ENUM, "user", NULL, 0, 0, "debug5,debug4,debug3,debug2,debug1,log,notice,warning,error", "Client Connection Defaults / Statement Behavior", "Sets the message levels that are sent to the client.", "Each level includes all the levels that follow it. The later the level, the fewer messages are sent.", NULL, false },
    { "DateStyle", "ISO, MDY", ATTU_SETTING_STRING, "user", NULL, 0, 0, NULL, "Client Connection Defaults / Locale and Formatting", "Sets the display format for date and time values.", "Also controls interpretation of ambiguous date inputs.", NULL, false },
    { "default_table_access_method", "heap", ATTU_SETTING_STRING, "user", NULL, 0, 0, NULL, "Client Connection Defaults / Statement Behavior", "Sets the default table access method for new tables.", NULL, NULL, false },
    { "default_tablespace", "", ATTU_SETTING_STRING, "user", NULL, 0, 0, NULL, "Client Connection Defaults / Statement Behavior", "Sets the default tablespace to create tables and indexes in.", "An empty string selects the database's default tablespace.", NULL, false },
    { "default_toast_compression", "pglz", ATTU_SETTING_ENUM, "user", NULL, 0, 0, "pglz,lz4", "Client Connection Defaults / Statement Behavior", "Sets the default compression method for compressible values.", NULL, NULL, false },
    { "default_transaction_deferrable", "off", ATTU_SETTING_BOOL, "user", NULL, 0, 0, NULL, "Client Connection Defaults / Statement Behavior", "Sets the default deferrable status of new transactions.", NULL, NULL, false },
    { "default_transaction_isolation", "read committed", ATTU_SETTING_ENUM, "user", NULL, 0, 0, "serializable,repeatable read,read committed,read uncommitted", "Client Connection Defaults / Statement Behavior", "Sets the transaction isolation level of each new transaction.", NULL, NULL, false },
    { "default_transaction_read_only", "off", ATTU_SETTING_BOOL, "user", NULL, 0, 0, NULL, "Client Connection Defaults / Statement Behavior", "Sets the default read-only status of new transactions.", NULL, NULL, false },
    { "escape_string_warning", "on", ATTU_SETTING_BOOL, "user", NULL, 0, 0, NULL, "Version and Platform Compatibility / Previous PostgreSQL Versions", "Warn about backslash escapes in ordinary string literals.", NULL, NULL, false },
    { "extra_float_digits", "1", ATTU_SETTING_INTEGER, "user", NULL, -15, 3, NULL, "Client Connection Defaults / Locale and Formatting", "Sets the number of digits displayed for floating-point values.", "This affects real, double precision, and geometric data types. A zero or negative parameter value is added to the standard number of digits (FLT_DIG or DBL_DIG as appropriate). Any value greater than zero selects precise output mode.", NULL, false },
    { "idle_in_transaction_session_timeout", "0", ATTU_SETTING_INTEGER, "user", "ms", 0, 2147483647, NULL, "Client Connection Defaults / Statement Behavior", "Sets the maximum allowed idle time between queries, when in a transaction.", "A value of 0 turns off the timeout.", NULL, false },
    { "idle_session_timeout", "0", ATTU_SETTING_INTEGER, "user", "ms", 0, 2147483647, NULL, "Client Connection Defaults / Statement Behavior", "Sets the maximum allowed idle time between queries, when not in a transaction.", "A value of 0 turns off the timeout.", NULL, false },
    { "in_hot_standby", "off", ATTU_SETTING_BOOL, "internal", NULL, 0, 0, NULL, "Preset Options", "Shows whether hot standby is currently active.", NULL, NULL, false },
    { "integer_datetimes", "on", ATTU_SETTING_BOOL, "internal", NULL, 0, 0, NULL, "Preset Options", "Shows whether datetimes are integer based.", NULL, NULL, false },
    { "IntervalStyle", "postgres", ATTU_SETTING_ENUM, "user", NULL, 0, 0, "postgres,postgres_verbose,sql_standard,iso_8601", "Client Connection Defaults / Locale and Formatting", "Sets the display format for interval values.", NULL, NULL, false },
    { "is_superuser", "on", ATTU_SETTING_BOOL, "internal", NULL, 0, 0, NULL, "Preset Options", "Shows whether the current user is a superuser.", NULL, NULL, true },
    { "jit", "on", ATTU_SETTING_BOOL, "user", NULL, 0, 0, NULL, "Query Tuning / Other Planner Options", "Allow JIT compilation.", NULL, NULL, false },
    { "lc_collate", "C", ATTU_SETTING_STRING, "internal", NULL, 0, 0, NULL, "Preset Options", "Shows the collation order locale.", NULL, NULL, false },
    { "lc_ctype", "C", ATTU_SETTING_STRING, "internal", NULL, 0, 0, NULL, "Preset Options", "Shows the character classification and case conversion locale.", NULL, NULL, false },
    { "lc_messages", "C", ATTU_SETTING_STRING, "superuser", NULL, 0, 0, NULL, "Client Connection Defaults / Locale and Formatting", "Sets the language in which messages are displayed.", NULL, "", false },
    { "lc_monetary", "C", ATTU_SETTING_STRING, "user", NULL, 0, 0, NULL, "Client Connection Defaults / Locale and Formatting", "Sets the locale for formatting monetary amounts.", NULL, NULL, false },
    { "lc_numeric", "C", ATTU_SETTING_STRING, "user", NULL, 0, 0, NULL, "Client Connection Defaults / Locale and Formatting", "Sets the locale for formatting numbers.", NULL, NULL, false },
    { "lc_time", "C", ATTU_SETTING_STRING, "user", NULL, 0, 0, NULL, "Client Connection Defaults / Locale and Formatting", "Sets the locale for formatting date and time values.", NULL, NULL, false },
    { "lock_timeout", "0", ATTU_SETTING_INTEGER, "user", "ms", 0, 2147483647, NULL, "Client Connection Defaults / Statement Behavior", "Sets the maximum allowed duration of any wait for a lock.", "A value of 0 turns off the timeout.", NULL, false },
    { "maintenance_work_mem", "64MB", ATTU_SETTING_INTEGER, "user", "kB", 1024, 2147483647, NULL, "Resource Usage / Memory", "Sets the maximum memory to be used for maintenance operations.", "This includes operations such as VACUUM and CREATE INDEX.", NULL, false },
    { "max_function_args", "100", ATTU_SETTING_INTEGER, "internal", NULL, 100, 100, NULL, "Preset Options", "Shows the maximum number of function arguments.", NULL, NULL, false },
    { "max_identifier_length", "63", ATTU_SETTING_INTEGER, "internal", NULL, 63, 63, NULL, "Preset Options", "Shows the maximum identifier length.", NULL, NULL, false },
    { "max_index_keys", "32", ATTU_SETTING_INTEGER, "internal", NULL, 32, 32, NULL, "Preset Options", "Shows the maximum number of index keys.", NULL, NULL, false },
    { "max_parallel_workers_per_gather", "2", ATTU_SETTING_INTEGER, "user", NULL, 0, 1024, NULL, "Resource Usage / Asynchronous Behavior", "Sets the maximum number of parallel processes per executor node.", NULL, NULL, false },
    { "quote_all_identifiers", "off", ATTU_SETTING_BOOL, "user", NULL, 0, 0, NULL, "Version and Platform Compatibility / Previous PostgreSQL Versions", "When generating SQL fragments, quote all identifiers.", NULL, NULL, false },
    /* SET ROLE's setting: "none" or the connected user (db_settings.c) */
    { "role", "none", ATTU_SETTING_STRING, "user", NULL, 0, 0, NULL, "Ungrouped", "Sets the current role.", NULL, NULL, true },
    { "row_security", "on", ATTU_SETTING_BOOL, "user", NULL, 0, 0, NULL, "Client Connection Defaults / Statement Behavior", "Enable row security.", "When enabled, row security will be applied to all users.", NULL, false },
    { "search_path", "\"$user\", public", ATTU_SETTING_STRING, "user", NULL, 0, 0, NULL, "Client Connection Defaults / Statement Behavior", "Sets the schema search order for names that are not schema-qualified.", NULL, NULL, false },
    { "server_encoding", "UTF8", ATTU_SETTING_STRING, "internal", NULL, 0, 0, NULL, "Preset Options", "Shows the server (database) character set encoding.", NULL, "SQL_ASCII", false },
    { "server_version", "15.0", ATTU_SETTING_STRING, "internal", NULL, 0, 0, NULL, "Preset Options", "Shows the server version.", NULL, NULL, false },
    { "server_version_num", "150000", ATTU_SETTING_INTEGER, "internal", NULL, 150000, 150000, NULL, "Preset Options", "Shows the server version as an integer.", NULL, NULL, false },
    /* its value is the session's user (db_settings.c) */
    { "session_authorization", "", ATTU_SETTING_STRING, "user", NULL, 0, 0, NULL, "Connections and Authentication", "Sets the session user name.", NULL, NULL, true },
    { "session_replication_role", "origin", ATTU_SETTING_ENUM, "superuser", NULL, 0, 0, "origin,replica,local", "Client Connection Defaults / Statement Behavior", "Sets the session's behavior for triggers and rewrite rules.", NULL, NULL, false },
    { "standard_conforming_strings", "on", ATTU_SETTING_BOOL, "user", NULL, 0, 0, NULL, "Version and Platform Compatibility / Previous PostgreSQL Versions", "Causes '...' strings to treat backslashes literally.", NULL, NULL, false },
    { "statement_timeout", "0", ATTU_SETTING_INTEGER, "user", "ms", 0, 2147483647, NULL, "Client Connection Defaults / Statement Behavior", "Sets the maximum allowed duration of any statement.", "A value of 0 turns off the timeout.", NULL, false },
    { "synchronous_commit", "on", ATTU_SETTING_ENUM, "user", NULL, 0, 0, "local,remote_write,remote_apply,on,off", "Write-Ahead Log / Settings", "Sets the current transaction's synchronization level.", NULL, NULL, false },
    { "temp_tablespaces", "", ATTU_SETTING_STRING, "user", NULL, 0, 0, NULL, "Client Connection Defaults / Statement Behavior", "Sets the tablespace(s) to use for temporary tables and sort files.", NULL, NULL, false },
    { "TimeZone", "UTC", ATTU_SETTING_STRING, "user", NULL, 0, 0, NULL, "Client Connection Defaults / Locale and Formatting", "Sets the time zone for displaying and interpreting time stamps.", NULL, "GMT", false },
    { "timezone_abbreviations", "Default", ATTU_SETTING_STRING, "user", NULL, 0, 0, NULL, "Client Connection Defaults / Locale and Formatting", "Selects a file of time zone abbreviations.", NULL, ATTU_SETTING_BOOT_NULL, false },
    { "transaction_deferrable", "off", ATTU_SETTING_BOOL, "user", NULL, 0, 0, NULL, "Client Connection Defaults / Statement Behavior", "Whether to defer a read-only serializable transaction until it can be executed with no possible serialization failures.", NULL, NULL, false },
    { "transaction_isolation", "read committed", ATTU_SETTING_ENUM, "user", NULL, 0, 0, "serializable,repeatable read,read committed,read uncommitted", "Client Connection Defaults / Statement Behavior", "Sets the current transaction's isolation level.", NULL, NULL, false },
    { "transaction_read_only", "off", ATTU_SETTING_BOOL, "user", NULL, 0, 0, NULL, "Client Connection Defaults / Statement Behavior", "Sets the current transaction's read-only status.", NULL, NULL, false },
    { "work_mem", "4MB", ATTU_SETTING_INTEGER, "user", "kB", 64, 2147483647, NULL, "Resource Usage / Memory", "Sets the maximum memory to be used for query workspaces.", "This much memory can be used by each internal sort operation and hash table before switching to temporary disk files.", NULL, false },
    { "xmlbinary", "base64", ATTU_SETTING_ENUM, "user", NULL, 0, 0, "base64,hex", "Client Connection Defaults / Statement Behavior", "Sets how binary values are to be encoded in XML.", NULL, NULL, false },
    { "xmloption", "content", ATTU_SETTING_ENUM, "user", NULL, 0, 0, "content,document", "Client Connection Defaults / Statement Behavior", "Sets whether XML data in implicit parsing and serialization operations is to be considered as documents or content fragments.", NULL, NULL, false },
};
const size_t attu_nsettings = sizeof attu_settings / sizeof attu_settings[0];

const attu_setting_def *attu_setting_find(const char *name) {
    for (size_t i = 0; i < attu_nsettings; i++)
        if (!strcasecmp(attu_settings[i].name, name)) return &attu_settings[i];
    return NULL;
}

const char *attu_setting_boot(const attu_setting_def *d) {
    if (d->boot == ATTU_SETTING_BOOT_NULL) return NULL;
    return d->boot ? d->boot : d->value;
}

bool attu_setting_is_custom(const char *name) { return strchr(name, '.') != NULL; }

const char *attu_setting_type_name(attu_setting_type t) {
    switch (t) {
    case ATTU_SETTING_BOOL: return "bool";
    case ATTU_SETTING_INTEGER: return "integer";
    case ATTU_SETTING_REAL: return "real";
    case ATTU_SETTING_STRING: return "string";
    case ATTU_SETTING_ENUM: return "enum";
    }
    return "string";
}

/* PostgreSQL's Boolean spellings: a prefix of true / false / yes / no
 * (any case), on, of / off, 1, 0. */
static int parse_bool(const char *v, bool *out) {
    size_t n = strlen(v);
    if (!n) return -1;
    if (!strncasecmp(v, "true", n) || !strncasecmp(v, "yes", n)) { *out = true; return 0; }
    if (!strncasecmp(v, "false", n) || !strncasecmp(v, "no", n)) { *out = false; return 0; }
    if (!strcasecmp(v, "on")) { *out = true; return 0; }
    if (n >= 2 && !strncasecmp(v, "off", n)) { *out = false; return 0; }
    if (!strcmp(v, "1")) { *out = true; return 0; }
    if (!strcmp(v, "0")) { *out = false; return 0; }
    return -1;
}

/* The units a setting with a unit takes, with their size in that unit:
 * times for one in ms, sizes for one in kB; the first of each list is
 * below the base unit (never shown). */
typedef struct unit_def { const char *name; double size; } unit_def;
static const unit_def time_units[] = {
    { "us", 0.001 }, { "ms", 1 }, { "s", 1000 }, { "min", 60000 }, { "h", 3600000 }, { "d", 86400000 },
};
static const unit_def memory_units[] = {
    { "B", 1.0 / 1024 }, { "kB", 1 }, { "MB", 1024 }, { "GB", 1024.0 * 1024 }, { "TB", 1024.0 * 1024 * 1024 },
};

static const unit_def *units_of(const attu_setting_def *d, size_t *n) {
    if (d->unit && !strcmp(d->unit, "kB")) { *n = sizeof memory_units / sizeof memory_units[0]; return memory_units; }
    *n = sizeof time_units / sizeof time_units[0];
    return time_units;
}

/* An integer value: digits (or a fraction, rounded), then for a setting
 * with a unit an optional unit; -1 bad form, -2 a unit attu does not
 * know, -3 past the integer range. */
static int parse_int(const attu_setting_def *d, const char *v, int64_t *out) {
    char *end;
    errno = 0;
    double x;
    long long i = strtoll(v, &end, 0);
    if (end == v) return -1;
    if (*end == '.' || *end == 'e' || *end == 'E' || errno == ERANGE) {
        errno = 0;
        x = strtod(v, &end);
        if (end == v || errno == ERANGE || isnan(x)) return errno == ERANGE ? -3 : -1;
    } else x = (double)i;
    while (*end == ' ' || *end == '\t') end++;
    if (*end) {
        if (!d->unit) return -1;
        size_t n = 0, nunits;
        while (end[n] && end[n] != ' ' && end[n] != '\t') n++;
        const char *rest = end + n;
        while (*rest == ' ' || *rest == '\t') rest++;
        if (*rest) return -2;
        const unit_def *units = units_of(d, &nunits);
        bool found = false;
        for (size_t k = 0; k < nunits; k++)
            if (strlen(units[k].name) == n && !strncmp(end, units[k].name, n)) {
                x *= units[k].size;
                found = true;
            }
        if (!found) return -2;
    }
    x = rint(x);
    if (d->max > INT32_MAX ? (x > 9.2e18 || x < -9.2e18) : (x > INT32_MAX || x < INT32_MIN)) return -3;
    *out = (int64_t)x;
    return 0;
}

/* n in the setting's unit as SHOW prints it: the largest unit that
 * divides it ("5s", "1500ms", "4MB") */
static void format_with_unit(const attu_setting_def *d, int64_t n, char *out, size_t cap) {
    if (n == 0) { snprintf(out, cap, "0"); return; }
    size_t nunits;
    const unit_def *units = units_of(d, &nunits);
    for (int k = (int)nunits - 1; k >= 1; k--) {
        int64_t u = (int64_t)units[k].size;
        if (n % u == 0) { snprintf(out, cap, "%lld%s", (long long)(n / u), units[k].name); return; }
    }
}

static int bad_value(const attu_setting_def *d, const char *value, attu_error *err) {
    return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "invalid value for parameter \"%s\": \"%s\"", d->name, value);
}

int attu_setting_check(const attu_setting_def *d, const char *value, char *out, size_t cap, attu_error *err) {
    switch (d->type) {
    case ATTU_SETTING_BOOL: {
        bool b;
        if (parse_bool(value, &b))
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "parameter \"%s\" requires a Boolean value", d->name);
        snprintf(out, cap, "%s", b ? "on" : "off");
        return 0;
    }
    case ATTU_SETTING_INTEGER: {
        int64_t n;
        int r = parse_int(d, value, &n);
        if (r) {
            bad_value(d, value, err);
            if (r == -2 && d->unit && !strcmp(d->unit, "kB"))
                attu_error_set_hint(err, "Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".");
            else if (r == -2)
                attu_error_set_hint(err, "Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\".");
            if (r == -3) attu_error_set_hint(err, "Value exceeds integer range.");
            return -1;
        }
        if (n < d->min || n > d->max)
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                                  "%lld%s%s is outside the valid range for parameter \"%s\" (%lld .. %lld)", (long long)n,
                                  d->unit ? " " : "", d->unit ? d->unit : "", d->name, (long long)d->min, (long long)d->max);
        if (d->unit) format_with_unit(d, n, out, cap);
        else snprintf(out, cap, "%lld", (long long)n);
        return 0;
    }
    case ATTU_SETTING_ENUM: {
        /* the values as written in the list; any case matches */
        size_t n = strlen(value);
        for (const char *p = d->enumvals; *p;) {
            const char *e = strchr(p, ',');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            if (len == n && !strncasecmp(p, value, n)) { snprintf(out, cap, "%.*s", (int)len, p); return 0; }
            p += len + (e ? 1 : 0);
        }
        bad_value(d, value, err);
        char hint[256];
        size_t used = (size_t)snprintf(hint, sizeof hint, "Available values: ");
        for (const char *p = d->enumvals; *p && used < sizeof hint;) {
            const char *e = strchr(p, ',');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            used += (size_t)snprintf(hint + used, sizeof hint - used, "%.*s%s", (int)len, p, e ? ", " : ".");
            p += len + (e ? 1 : 0);
        }
        attu_error_set_hint(err, hint);
        return -1;
    }
    case ATTU_SETTING_REAL:
    case ATTU_SETTING_STRING:
        break;
    }
    snprintf(out, cap, "%s", value);
    return 0;
}

const char *attu_setting_raw(const attu_setting_def *d, const char *shown, char *buf, size_t cap) {
    int64_t n;
    if (d->type != ATTU_SETTING_INTEGER || !d->unit || parse_int(d, shown, &n)) return shown;
    snprintf(buf, cap, "%lld", (long long)n);
    return buf;
}
