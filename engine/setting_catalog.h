/*
 * setting_catalog.h - the session settings attu knows, with what
 * PostgreSQL 15 tells of each (pg_settings' category, descriptions,
 * context, type, unit, range, enum values), and the checks a new value
 * passes (SET, set_config).
 *
 * The values themselves are session state (db/db_settings.c); this file is
 * the fixed part that SHOW ALL, pg_settings and the checks read. A value
 * is kept as SHOW prints it ("5s", "on", "read committed"): check turns
 * what a client wrote into that form, raw into the number pg_settings'
 * setting column gives for a setting with a unit ("5000").
 */
#ifndef ATTU_SETTING_CATALOG_H
#define ATTU_SETTING_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"

typedef enum attu_setting_type {
    ATTU_SETTING_BOOL,
    ATTU_SETTING_INTEGER,
    ATTU_SETTING_REAL,
    ATTU_SETTING_STRING,
    ATTU_SETTING_ENUM
} attu_setting_type;

typedef struct attu_setting_def {
    const char        *name;        /* PostgreSQL's spelling: "DateStyle" */
    const char        *value;       /* attu's default, as SHOW prints it */
    attu_setting_type  type;
    const char        *context;     /* "user", "superuser", "internal" */
    const char        *unit;        /* "ms" or NULL */
    int64_t            min, max;    /* INTEGER: the range */
    const char        *enumvals;    /* ENUM: the values, comma-separated */
    const char        *category, *short_desc, *extra_desc;
    const char        *boot;        /* pg_settings.boot_val when not value
                                     * (PostgreSQL's compiled-in value; see
                                     * attu_setting_boot) */
    bool               hidden;      /* not in SHOW ALL / pg_settings (is_superuser, ...) */
} attu_setting_def;

/* The settings in pg_settings' order (names compared without case). */
extern const attu_setting_def attu_settings[];
extern const size_t attu_nsettings;

/* The setting named name in any case ("timezone", "DATESTYLE"), or NULL. */
const attu_setting_def *attu_setting_find(const char *name);

/* pg_settings.boot_val: PostgreSQL's compiled-in value (NULL for none). */
const char *attu_setting_boot(const attu_setting_def *d);

/* A name free for applications: it has a dot ("myapp.mode"), as
 * PostgreSQL's custom placeholders. */
bool attu_setting_is_custom(const char *name);

/* The type's name as pg_settings.vartype writes it. */
const char *attu_setting_type_name(attu_setting_type t);

/* Checks value for the setting and writes the form SHOW prints into out:
 * a Boolean "on" / "off", an enum's own spelling, an integer in range
 * (with a unit: the largest unit that divides it, "1500ms", "5s", "1min").
 * Strings are taken as written. 22023 with PostgreSQL's message (and HINT)
 * otherwise; -1. Read-only settings are the caller's to refuse. */
int attu_setting_check(const attu_setting_def *d, const char *value, char *out, size_t cap, attu_error *err);

/* pg_settings.setting for a value kept as SHOW prints it: an integer with
 * a unit in that unit ("5s" -> "5000"), else the value itself. */
const char *attu_setting_raw(const attu_setting_def *d, const char *shown, char *buf, size_t cap);

#endif
